"""Helpers for ruleset authors' tests: find items, build a position by hand, play moves.

    from meeple.interpreter import load, testing
    prog = load("rulesets/my-game")
    h7 = testing.item(prog, suit="hearts", rank=7)
    game = testing.position(prog, players=3, zones={"hand:0": [h7]}, active=0)
    assert "play hearts-7" in testing.notations(game)
"""
from __future__ import annotations

import weakref

from ..compiler.compile import Program
from ..play import display, rng
from ..play.game import Game, new_chance
from ..play.runtime import run


def program_for(prog, players: int) -> Program:
    """The program of a ruleset (or a program) for a number of players."""
    return prog.for_players(players) if hasattr(prog, "for_players") and \
        not isinstance(prog, Program) else prog


def item(prog: Program, kind: str | None = None, nth: int | None = None, **attrs) -> int:
    """The one item with these attribute values (enum values by name). When several
    items look alike (two copies of a card), ``nth`` picks one of them: 0 for the first
    in creation order (``items`` lists them all); without it, a LookupError says how many
    match."""
    found = items(prog, kind, **attrs)
    what = " ".join([kind or "item"] + [f"{k}={v}" for k, v in attrs.items()])
    if nth is not None:
        if not 0 <= nth < len(found):
            raise LookupError(f"nth={nth}: {len(found)} item(s) match {what}")
        return found[nth]
    if not found:
        raise LookupError(f"no item matches {what}")
    if len(found) > 1:
        raise LookupError(f"{len(found)} items match {what}, they look alike: pick one with "
                          f"nth=0..{len(found) - 1} (in creation order), or get them all "
                          f"with testing.items(...)")
    return found[0]


def items(prog: Program, kind: str | None = None, **attrs) -> list[int]:
    """Every item with these attribute values, in creation order."""
    return [i.id for i in prog.items
            if (kind is None or i.kind == kind)
            and all(str(i.attrs.get(k)) == str(v) for k, v in attrs.items())]


_ZONE_IDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # program -> ({key: id}, {folded key: id})


def zone(prog: Program, key: str) -> int:
    """A zone by its key (``draw``, ``hand:0``, ``pond:s3``), or a cell as a move writes
    it (``s3``, ``pond.s3``: its name alone when no other board has a cell of that name);
    in any letter case when that names one zone."""
    got = _ZONE_IDS.get(prog)
    if got is None:   # (a program is immutable: its zones' keys are read once)
        ids: dict[str, int] = {}
        folded: dict[str, int | None] = {}
        for z in prog.zones:
            ids.setdefault(z.key, z.id)
            k = z.key.casefold()
            folded[k] = z.id if folded.get(k, z.id) == z.id else None
        got = _ZONE_IDS[prog] = (ids, folded)
    ids, folded = got
    if key in ids:
        return ids[key]
    found = display.typed_cell(prog, key)
    if found is None:
        found = folded.get(key.casefold())
    if found is not None:
        return found
    raise LookupError(f"no zone '{key}'; zones are e.g. {[z.key for z in prog.zones[:6]]}")


def position(prog: Program, players: int, zones: dict[str, list[int] | int], active: int = 0,
             vars: dict | None = None, pvars: dict | None = None, seed: int = 0,
             proc: str = "turn", face_down: dict[int, int | None] | None = None,
             ivars: dict[str, dict[int, object]] | None = None, outcomes=None) -> Game:
    """A game in a hand-built position, at the start of ``proc`` (the turn by default)
    for the ``active`` player. Items not listed stay where their deck put them; the
    listed ones are placed in order (the last one listed is on top). ``face_down`` maps
    items to the seat that may see them (None: nobody); ``ivars`` sets item variables
    (``{"wounds": {item: 1}}``). With ``outcomes`` (a list, maybe empty) the game is in
    explicit chance mode and sets those chance outcomes, in order, as it reaches chance
    steps (see ``fix_chance``)."""
    prog = program_for(prog, players)
    nz = len(prog.zones)
    state = {"zones": [[] for _ in range(nz)], "loc": [-1] * len(prog.items),
             "facing": [-1] * len(prog.items), "ivars": {}, "vars": {},
             "pvars": {}, "active": active, "players": players, "turn": 0, "phase": "play",
             "rng": rng.seed_state(seed), "stack": [], "pending": None, "revealed": [],
             "seen": [0] * players, "log": [], "result": None, "moves": 0}
    if outcomes is not None:
        state["chance"] = new_chance()
    g = Game(prog, state)
    R = g.R
    for it, z in prog.initial:
        R.zones[z].append(it)
        R.loc[it] = z
    for key, its in zones.items():
        z = zone(prog, key)
        listed = [its] if isinstance(its, int) else list(its)
        for it in listed:
            R.move(it, z)
        # in the order given, also the items the zone already held (moving an item to
        # the zone it is in changes nothing); items not listed stay below them
        chosen = set(listed)
        R.zones[z][:] = [it for it in R.zones[z] if it not in chosen] + listed
    for name, fn in prog.var_inits.items():
        if prog.checked.vars[name].per_player:
            R.pvars[name] = [fn(R, {}) for _ in range(players)]
        else:
            R.vars[name] = fn(R, {})
    R.ivars.update(prog.init_item_vars(R))
    R.vars.update(vars or {})
    for k, v in (pvars or {}).items():
        R.pvars[k] = list(v)
    for it, seat in (face_down or {}).items():
        R.facing[it] = 0 if seat is None else 1 << seat
    for name, values in (ivars or {}).items():
        for it, value in values.items():
            R.ivars[name][it] = value
    R.seen[:] = [0] * players
    R.call(proc, {})
    if outcomes is not None:
        g.script = list(outcomes)
    run(R)
    g._follow_script()
    return _kernel_game(g)


def _kernel_game(game: Game) -> Game:
    """The game, played by its program's kernel where it has one (from its next move)."""
    if not game.program.kernel:
        return game
    from ..native.kgame import KernelGame
    return KernelGame.adopt(game)


def new_game(prog, players: int, outcomes=(), seed: int = 0) -> Game:
    """A new game in explicit chance mode that sets ``outcomes`` (notations, indices or
    Outcomes), in order, as it reaches chance steps: a shuffle's places from the top, a
    pick, each die of a roll, a random tie. When they run out the game waits at the next
    chance step (``game.at_chance``)::

        game = testing.new_game(prog, 2, outcomes=["6", "6"])   # a double six
    """
    prog = program_for(prog, players)
    game = prog.new_game(players, seed, chance="explicit")
    return fix_chance(game, *outcomes)


def fix_chance(game: Game, *outcomes) -> Game:
    """Queues chance outcomes on a game in explicit chance mode: each is set as the
    game reaches a chance step (at once if it waits at one now). An outcome that is not
    one of the step's raises IllegalMove."""
    if game.chance_mode != "explicit":
        raise ValueError("fix_chance needs a game in explicit chance mode: "
                         "new_game(..., chance=\"explicit\") or testing.new_game")
    game.script.extend(outcomes)
    game._follow_script()
    return game


def options(game: Game, verb: str, seat: int | None = None) -> list[str]:
    """The legal moves (of ``seat``, see ``notations``) without their verb, checking they
    all have that verb."""
    out = []
    for n in notations(game, seat):
        v, _, rest = n.partition(" ")
        assert v == verb, f"expected a '{verb}' decision, got {n!r}"
        out.append(rest)
    return out


def notations(game: Game, seat: int | None = None) -> list[str]:
    """The notations of the legal moves of the seat deciding now, or of ``seat`` (in a
    simultaneous decision, any seat still to choose)."""
    return [m.notation for m in game.legal_moves(seat)]


def play(game: Game, *moves) -> Game:
    """Applies moves given by notation (or index) in order; in a simultaneous decision a
    notation may name its seat, ``"p2: bid 3"``."""
    for m in moves:
        game.apply(m)
    return game


def at(game: Game, key: str) -> list[int]:
    """The items in a zone or cell, bottom to top."""
    return list(game.R.zones[zone(game.program, key)])


def check_ruleset(ruleset: str, variants=None, players: int | None = None, examples: int = 50,
                  seed: int = 0, check_moves: int | None = None,
                  deadline: float | None = None) -> None:
    """A pytest entry point: plays ``examples`` games of a ruleset (every player count,
    variant combination and locale unless narrowed) and checks its declared invariants
    and the generic ones, non-interference included (no seat is shown anything that
    depends on what it may not see), as ``meeple test`` does. Raises AssertionError
    describing the shrunk failing game (with its record) when a check fails, or when the
    games kept secrets and none could be varied (``secrets/unchecked``). ``check_moves``
    and ``deadline`` limit the full checks of each game, as ``meeple test``'s options
    ``--check-moves`` and ``--deadline`` do::

        def test_my_game_holds_together():
            testing.check_ruleset("rulesets/my-game", examples=30)
    """
    import json

    from ...dsl.load import read_sources, resolve_path
    from ..compiler.loading import compile_sources
    from .invariants import Config, Limits, Stats, configs, explore, unchecked

    src = read_sources(resolve_path(ruleset))
    cache: dict = {}

    def load(c: Config):
        key = (c.variants, c.locale)
        if key not in cache:
            cache[key] = compile_sources(src, list(c.variants), c.locale)
        return cache[key]

    cfgs = configs(src, load, variants, players)
    stats = Stats()
    failure = explore(load, cfgs, examples, seed, stats, limits=Limits(check_moves, deadline))
    if failure is None and unchecked(stats) is not None:
        raise AssertionError(f"{unchecked(stats).check}: {unchecked(stats).message}")
    if failure is not None:
        failure.ruleset_ref = ruleset
        where = f" ({failure.span.file}:{failure.span.line})" if failure.span else ""
        raise AssertionError(
            f"{failure.check}{where}: {failure.message}\n  game: {failure.config}, seed "
            f"{failure.seed}, moves {failure.moves}\n  record: "
            f"{json.dumps(failure.record().to_dict(), ensure_ascii=False)}")


def check_legal_moves(game: Game) -> list[str]:
    """Asserts what must hold of the legal moves at any decision: there is one when the
    game is not over; asking twice gives the same list; notations are unique; indices
    count from 0; every move belongs to the deciding player; options are in their
    type's order (items the decider may not know: by place). Returns the notations."""
    moves = game.legal_moves()
    assert moves, "a game that is not over has a decision"
    assert [(m.value, m.notation) for m in moves] == [(m.value, m.notation) for m in game.legal_moves()]
    notes = [m.notation for m in moves]
    assert len(set(notes)) == len(notes), f"notations are not unique: {notes}"
    assert [m.index for m in moves] == list(range(len(moves)))
    assert all(m.player == game.active_player for m in moves)
    options, kind = game.R.pending["options"], game.R.pending["type"]
    if "item" not in kind:
        assert options == sorted(options, key=game.program.sort_key(kind))
    return notes
