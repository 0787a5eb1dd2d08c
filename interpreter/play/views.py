"""Per-player views: the one place hidden information is removed.

A view holds what one seat may know and nothing else: the items of zones it can see
(face-down items there as ``{"hidden": true}``), only the counts of the others, the decision it must make (others see only who is
deciding; in a simultaneous decision every seat sees who has chosen, never what), the
messages with unseen items written as "a card", and variables with unseen items replaced
by ``{"hidden": true}`` (so is the whole value of a variable declared ``owner`` for other
seats, or ``hidden``). The random generator's state, a pending chance step's outcomes,
the procedure stack and item locations never leave the game.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from . import display, picks
from .game import Game, new_chance

SPECTATOR = -1  # a viewer who sees only what is public


def view(game: Game, seat: int | str, *, log: bool = True) -> dict:
    """What the seat (a seat number, ``SPECTATOR`` or "all") may know of the game now.
    ``log=False`` leaves out the messages (``log``, ``log_dropped``), the costliest part
    to write, for a caller that reads the rest (``meeple test``'s check of every view)."""
    R, prog = game.R, game.program
    sees = can_see(game, seat)
    zones = _zones(R, prog, seat, sees)
    pending = _pending(game, seat)
    declared = prog.checked.vars
    kinds = prog.checked.kinds
    return {
        "seat": seat, "players": R.n_players, "active": R.active, "turn": R.turn, "phase": R.phase,
        "zones": zones,
        "vars": {k: _private(declared[k], None, seat) or _mask(v, declared[k].type, kinds, sees)
                 for k, v in R.vars.items()},
        "pvars": {k: [_private(declared[k], p, seat) or _mask(x, declared[k].type, kinds, sees)
                      for p, x in enumerate(v)] for k, v in R.pvars.items()},
        "pending": pending,
        # a chance step waits (explicit chance mode): its outcomes are nobody's to see
        **({"chance": True} if game.at_chance else {}),
        # items lying face down that this seat knows all the same (e.g. its own)
        "face_down": [i for i, f in enumerate(R.facing) if f >= 0 and _known(sees, i)],
        "ivars": _ivars(R, prog, sees),
        **({"log": [display.render_log(prog, e, sees) for e in R.log],
            "log_dropped": R.dropped} if log else {}),  # (earlier messages no longer kept)
        "result": R.result,
    }


def _known(sees, item: int) -> bool:
    """Whether the seat of ``sees`` (``can_see``; None: the "all" view) may see the item."""
    return sees is None or sees(item)


def _zones(R, prog, seat, sees) -> dict:
    """The zones of a view: the items of those the seat is shown (face-down ones as
    HIDDEN_ITEM), the number of items of the others; of a dark zone, the items the seat
    may see, in their order, and nothing of the others."""
    zones: dict[str, list | dict] = {}
    for z in prog.zones:
        if z.owner is not None and z.owner >= R.n_players:
            continue
        items = R.zones[z.id]
        if z.dark and seat != "all":
            # a dark place: only the items the seat may see, neither count nor place of the others
            zones[z.key] = [i for i in items if sees(i)]
        elif seat == "all" or zone_shown(R, z.id, seat):
            # a face-down item lies in sight, but what it is stays unknown
            zones[z.key] = [i if _known(sees, i) else dict(HIDDEN_ITEM) for i in items]
        else:
            zones[z.key] = {"count": len(items)}
    return zones


def _pending(game: Game, seat) -> dict | None:
    """The decision of a view: who decides, and the options for the seat deciding."""
    pend = game.R.pending
    if pend is None:
        return None
    pending = {"player": pend["player"], "verb": pend["verb"]}
    if "waiting" in pend:
        _simultaneous(game, pend, seat, pending)
    elif seat == "all" or pend["player"] == seat:
        pending["options"] = [m.notation for m in game.legal_moves()]
    return pending


def _ivars(R, prog, sees) -> dict:
    """The item variables of the items the seat may know (item id as a string key)."""
    kinds = prog.checked.kinds
    return {k: {str(i): _mask(x, _ivar_type(prog, i, k), kinds, sees)
                for i, x in enumerate(vals) if x is not None and _known(sees, i)}
            for k, vals in R.ivars.items()}


def _simultaneous(game: Game, pend: dict, seat, pending: dict) -> None:
    """A simultaneous decision: every seat sees who chooses and who has chosen, never
    what; a seat still to choose sees its own options; in a decision of several picks,
    a seat asked sees its own picks so far (``picked``, as moves write them). (``player``
    is the first seat still to choose.)"""
    pending["simultaneous"] = True
    pending["seats"] = list(pend["seats"])
    pending["waiting"] = list(pend["waiting"])
    if seat == "all":
        pending["options"] = [m.notation for m in game.legal_moves()]
        pending["chosen"] = [[s, v] for s, v in pend["chosen"]]
    elif seat in pend["waiting"]:
        pending["options"] = [m.notation for m in game.legal_moves(seat)]
    if "picks" in pend:
        # several picks each (picks.py): how many, and to a seat asked its own picks so far
        pending["picks"] = pend["picks"]
        if seat in pend["seats"]:
            pending["picked"] = picks.written(game.R, pend, seat)


HIDDEN_ITEM = {"hidden": True}  # what a view shows for an item the seat may not see


def zone_shown(R, zone: int, seat: int) -> bool:
    """Whether a view of the seat lists the zone's items (face-down ones as HIDDEN_ITEM),
    not only their number."""
    return (seat >= 0 and R.visible(zone, seat)) or R.vis[zone] is True or zone in R.revealed


def _mask(value, type_ref, kinds, can_see):
    """A variable's value with every item the seat may not see replaced by HIDDEN_ITEM."""
    if can_see is None or value is None:
        return value
    if type_ref.name == "list" and isinstance(value, list):
        return [_mask(v, type_ref.item, kinds, can_see) for v in value]
    if type_ref.name in kinds and isinstance(value, int) and not can_see(value):
        return dict(HIDDEN_ITEM)
    return value


def _private(decl, owner, seat):
    """HIDDEN_ITEM for a variable's value the seat may not see (a per-player variable
    declared ``owner`` of another seat, or one declared ``hidden``), else None."""
    vis = decl.visibility
    if vis is None or seat == "all" or (vis == "owner" and owner == seat):
        return None
    return dict(HIDDEN_ITEM)


def _ivar_type(prog, item: int, name: str):
    return prog.checked.item_vars[prog.items[item].kind][name].type


def seat_sees(R, item: int, seat: int) -> bool:
    """Whether the seat (a seat number, or ``SPECTATOR``) may see the item now: it lies
    in public view, or the seat sees it where it lies. The one visibility rule: views,
    leak checks, invariants and determinization all ask it here."""
    return R.public_item(item) or (seat >= 0 and R.sees_item(item, seat))


def can_see(game: Game, seat):
    """Which items the seat may see now, as ``display.value_text`` expects it (a function
    of an item with ``seat`` and ``ivars`` attributes); None for the "all" view."""
    R = game.R
    if seat == "all":
        return None

    def fn(item: int) -> bool:
        return seat_sees(R, item, seat)
    fn.seat = seat
    fn.ivars = R.ivars
    return fn


# ---------------------------------------------------------------- what a view keeps from a seat

#: The kinds of things a view keeps from a seat. ``secrets`` lists them for a game and a
#: seat; ``meeple test``'s leak check varies each kind (interpreter/analysis/variations.py has one
#: variation for each name), and tests/test_leaks.py checks that everything a view masks
#: is one of them.
SECRET_KINDS = ("hidden items", "face-down items", "item variables", "owner variables",
                "hidden variables", "secret choices", "dark places")


def secrets(game: Game, seat: int) -> dict[str, list]:
    """What ``view(game, seat)`` keeps from the seat now, by kind (``SECRET_KINDS``):

    * hidden items: the items of the zones it sees only as counts, and those of dark zones
      it may not see (left out of its view, uncounted);
    * face-down items: the items lying face down, unknown to it, in zones it sees;
    * item variables: ``(name, item)`` for each item variable of an item it may not know;
    * owner variables: ``(name, p)`` for each value of a per-player variable declared
      ``owner`` of another seat p;
    * hidden variables: ``(name, p)`` for each value of a variable declared ``hidden``
      (p None for one that is not per player);
    * secret choices: the other seats asked in the simultaneous decision under way (what
      they chose, or will choose, is not shown until all have chosen);
    * dark places: the items of dark zones it may not see (also hidden items): where
      they lie, and that they are there, is not shown either."""
    R, prog = game.R, game.program
    sees = can_see(game, seat)
    out: dict[str, list] = {k: [] for k in SECRET_KINDS}
    for z in prog.zones:
        if z.owner is not None and z.owner >= R.n_players:
            continue
        shown = zone_shown(R, z.id, seat) and not z.dark
        unseen = [i for i in R.zones[z.id] if not sees(i)]
        out["face-down items" if shown else "hidden items"] += unseen
        if z.dark:
            out["dark places"] += unseen
    out["item variables"] = [(k, i) for k, vals in sorted(R.ivars.items())
                             for i, x in enumerate(vals) if x is not None and not sees(i)]
    _private_variables(game, seat, out)
    pend = R.pending
    if pend is not None and "waiting" in pend:
        out["secret choices"] = [s for s in pend["seats"] if s != seat]
    return out


def _private_variables(game: Game, seat: int, out: dict[str, list]) -> None:
    """The values of variables that ``secrets`` lists for the seat: ``(name, None)`` for
    a hidden variable that is not per player, ``(name, p)`` for a per-player one."""
    R, declared = game.R, game.program.checked.vars
    for k in sorted(R.vars):
        if _private(declared[k], None, seat):
            out["hidden variables"].append((k, None))
    for k in sorted(R.pvars):
        for p in range(R.n_players):
            if _private(declared[k], p, seat):
                kind = "hidden variables" if declared[k].visibility == "hidden" else "owner variables"
                out[kind].append((k, p))


def choice_hidden(game: Game, player: int, seat) -> bool:
    """Whether what ``player`` chooses in the decision pending in ``game`` stays hidden
    from ``seat`` (a seat number, ``SPECTATOR`` or "all") once chosen: a choice made in
    secret (a simultaneous decision) into a variable declared ``owner`` (of another seat)
    or ``hidden``, whose value no view shows that seat (the cell a phantom player tries).
    Records shown as a seat saw them write such a move by its verb alone."""
    pend = game.R.pending
    if pend is None or "waiting" not in pend or seat == "all" or seat == player:
        return False
    return _private(game.program.checked.vars[pend["var"]], player, seat) is not None


def item_visible(game: Game, item: int, seat: int) -> bool:
    fn = can_see(game, seat)
    return True if fn is None else fn(item)


def visible_items(game: Game, seat: int) -> set[int]:
    """Every item whose identity the seat may know now."""
    R = game.R
    return {i for i, z in enumerate(R.loc) if z >= 0 and item_visible(game, i, seat)}


# ---------------------------------------------------------------- chance results a seat may see

@dataclass(frozen=True)
class Fallen:
    """A chance result that fell while a move was played: its kind ("roll", "pick" or
    "tie"), the player whose turn it fell in (None: none), its value and the value's
    type code, its notation, the seats that may know it (``SPECTATOR`` among them when
    it is public) and how many messages the game had said before it fell (with the
    ones no longer kept), to tell it in its place among them."""

    kind: str
    player: int | None
    value: object
    type: str
    notation: str
    seats: frozenset
    said: int


def chance_seen(before: Game, move, seat: int | None = None) -> list[Fallen]:
    """The chance results (dice, random picks, random ties: never a shuffle, whose result
    the zones show as they may) that fell as ``move`` was played on ``before`` (a game
    as it was just before the move, in seeded chance mode; ``seat`` plays it in a
    simultaneous decision), each with the seats that may know it.

    The move is played again on a copy in explicit chance mode, each step drawn from the
    generator as the seeded game draws it, so the results are the ones that fell. In a
    game that hides nothing every seat may know them. In a game that hides anything no
    seat is told them here: whether a result fell, and which, may follow from what a
    seat may not see (a die rolled only when a hidden value allows, or added to one), so
    such a game says what it wants told in its own messages, which the views filter."""
    if before.chance_mode != "seeded" or before.program.hidden_information:
        return []   # (explicit mode: its outcomes are set one by one, by whoever plays)

    def begin() -> Game:
        game = Game(before.program, {**before.state, "chance": new_chance()})
        game.apply(move.notation, seat=seat)
        return game
    return _fallen(begin)


def chance_runs(program, fallen: list[Fallen], seat, state: dict | None = None) -> list[list[Fallen]]:
    """The chance results of ``fallen`` that ``seat`` may know, in runs of results alike
    (of one kind, in one player's turn, with no message between them: the two dice of
    one throw), to tell each run in one line where it fell. With the game's ``state``
    after them, a run the ruleset's own messages already tell (the first message said
    after it names all its values, and its player for a roll: "Player 1 rolls 5 and 2")
    is left out, not to be told twice."""
    runs: list[list[Fallen]] = []
    for f in fallen:
        if seat not in f.seats:
            continue
        if runs and (runs[-1][0].kind, runs[-1][0].player, runs[-1][0].said) \
                == (f.kind, f.player, f.said):
            runs[-1].append(f)
        else:
            runs.append([f])
    if state is not None:
        ends = [r[0].said for r in runs[1:]] + [None]
        runs = [r for r, end in zip(runs, ends) if not _told_by_messages(program, r, end, state)]
    return runs


def _told_by_messages(program, run: list[Fallen], end: int | None, state: dict) -> bool:
    """Whether the first message said after a run of chance results (before the next
    run fell, ``end``) names all its values, and its player for a roll."""
    log, k = state.get("log", []), run[0].said - state.get("log_dropped", 0)
    if not 0 <= k < len(log) or (end is not None and run[0].said >= end):
        return False
    want: Counter[tuple[str, object]] = Counter((f.type, f.value) for f in run)
    if run[0].kind == "roll" and run[0].player is not None:
        want[("player", run[0].player)] += 1
    return not want - _said_values(program, log[k])


def _said_values(program, entry: list) -> Counter[tuple[str, object]]:
    """The numbers and names a message of the log (``entry``) says, each with its type."""
    return Counter((t, v) for t, v in zip(program.logs[entry[0]].types, entry[1]) if isinstance(v, int | str))


def move_told(before: Game, move, state: dict, seat) -> bool:
    """Whether the first message ``move`` made the game say (``before``: the game just
    before it; ``state``: the game's after it) names, to ``seat``, its player and its
    value ("Player 1: a2-a4" of a ruleset that says every move, "Player 1 holds 13 and has
    13" of a hold of 13): a view that writes each move in a line of its own then leaves
    that line out, not to tell the move twice (as ``chance_runs`` leaves out a roll its
    message names). Only what every seat reads counts: never an item (a message may hide
    it from a seat), a list of values, nor a choice the seat may not see."""
    said = before.R.dropped + len(before.R.log)       # (as its state counts them, not copied)
    code = before.decision.type if before.decision is not None else ""
    return told_by(before.program, said, code, move, state) and not choice_hidden(before, move.player, seat)


def told_by(program, said: int, code: str, move, state: dict) -> bool:
    """``move_told`` but for who may see the choice: whether the first message after the
    ``said`` ones (the messages said before the move) in ``state`` (the game's after it)
    names the move's player and its value (``code``: the type of the decision it made).
    A view that knows which seats may not see the choice asks this once for them all."""
    log, k = state.get("log", []), said - state.get("log_dropped", 0)
    if not isinstance(move.value, int | str) or code == "item" or move.player is None \
            or not 0 <= k < len(log):
        return False
    # (an item it says, which a seat may not read, is never one of these: code is no item)
    want: Counter[tuple[str, object]] = Counter([("player", move.player), (code, move.value)])
    return not want - _said_values(program, log[k])


def chance_seen_at_start(program, players: int, seed: int) -> list[Fallen]:
    """``chance_seen`` for what fell as a new game of ``seed`` was set up (the dice of
    an opening roll), up to its first decision."""
    if program.hidden_information:
        return []
    return _fallen(lambda: Game.new(program, players, seed, chance="explicit"))


def _fallen(begin) -> list[Fallen]:
    """The chance results of a run that ``begin()`` starts in explicit chance mode, each
    step drawn from the generator (see ``chance_seen``), in a game that hides nothing."""
    shadow = begin()
    everyone = frozenset([*range(shadow.R.n_players), SPECTATOR])
    fell = []
    while shadow.at_chance:
        R = shadow.R
        kind, active, said = shadow.chance_kind, R.active, R.dropped + len(R.log)
        step_type = R.chance["step"]["type"]
        o = shadow.sample_chance()
        if kind != "shuffle":
            fell.append(Fallen(kind, active if isinstance(active, int) else None, o.value,
                               step_type, o.notation, everyone, said))
    return fell
