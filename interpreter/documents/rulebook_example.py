"""A worked example for a rulebook, taken from a real game: a seeded game is played with
seeded random choices up to the first turn that changes a board (or any place, for a
game without one) in at most ``MAX_MOVES`` moves, and that turn is told move by move (who played what, and the
messages the rules announced), with each board drawn before and after it, the cells
that changed marked, and the other places that changed listed. The same seeds give the
same example in every build; the game runs on the ruleset's own engine, as any game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..play import display
from ..play.views import view

SEED = 1            # the game's seed and the choices'
MAX_TURNS = 40      # turns looked through for one that changes a board
MAX_MOVES = 30      # moves told at most
MAX_PLACES = 8      # other places listed at most
MAX_LABEL = 9       # a label longer than this is drawn with the item's short label


@dataclass
class Example:
    """One turn of a real game: the players, the moves (player, notation, what was
    chosen as players read it), the messages, the boards before and after (cell ->
    text) and the other places that changed (place, before, after)."""
    players: int
    seed: int
    turn: int
    moves: list = field(default_factory=list)      # (player name, notation, value text)
    messages: list = field(default_factory=list)   # str
    boards: list = field(default_factory=list)     # (board, before: {zone: text}, after: {zone: text})
    places: list = field(default_factory=list)     # (place, before, after)
    cut: bool = False                              # the turn had more moves than told (not shown)


def play(ruleset, players: int, seed: int = SEED) -> Example | None:
    """The example turn of a game of ``players`` on ``seed``, or None when no turn in
    the first ``MAX_TURNS`` changes anything to show (or the game cannot start)."""
    prog = ruleset.for_players(players)
    try:
        game = prog.new_game(players, seed=seed)
    except Exception:  # noqa: BLE001 - a best effort: a ruleset whose game cannot start has no example
        return None
    rnd = random.Random(seed)
    for _ in range(MAX_TURNS):
        if game.over:
            return None
        before = _contents(prog, game)
        said = _said(game)
        turn = game.turn_number
        ex = Example(players, seed, turn + 1)
        while not game.over and game.turn_number == turn:
            if len(ex.moves) == MAX_MOVES:
                ex.cut = True
                break
            _move(prog, game, rnd, ex)
        after = _contents(prog, game)
        if not ex.cut and _fill(prog, ex, before, after):
            log = view(game, -1)["log"]
            ex.messages = log[len(log) - (_said(game) - said):] if _said(game) > said else []
            return ex
        while not game.over and game.turn_number == turn:   # (a turn cut short: played out)
            _move(prog, game, rnd, None)
    return None


def _move(prog, game, rnd: random.Random, ex: Example | None) -> None:
    moves = game.legal_moves()
    m = moves[rnd.randrange(len(moves))]
    kind = game.decision.type
    if ex is not None:
        text = display.value_text(prog, m.value, kind)
        ex.moves.append((display.player_name(prog, m.player), m.notation, text))
    game.apply(m)


def _said(game) -> int:
    v = view(game, -1)
    return v.get("log_dropped", 0) + len(v["log"])


def _contents(prog, game) -> dict:
    """Every place's items as a spectator reads them (zone key -> text): what lies
    hidden is a count, a face-down item a '?'."""
    zones = view(game, -1)["zones"]
    return {key: _text(prog, items, game) for key, items in zones.items()}


def _text(prog, items, game) -> str:
    if isinstance(items, dict):
        return str(items.get("count", ""))
    ivars = game.state.get("ivars")
    labels = []
    for i in items:
        if isinstance(i, dict):
            labels.append("?")
            continue
        label = display.item_label(prog, i, ivars=ivars)
        labels.append(label if len(label) <= MAX_LABEL else display.item_label(prog, i, use_short=True, ivars=ivars))
    if len(labels) > 1 and len(set(labels)) == 1:
        return f"{labels[0]} ×{len(labels)}"
    return " ".join(labels) if len(labels) <= 3 else " ".join(labels[-2:]) + f" (+{len(labels) - 2})"


def _fill(prog, ex: Example, before: dict, after: dict) -> bool:
    """The boards and places of the example; False when nothing changed."""
    changed = [k for k in after if before.get(k) != after[k]]
    if not changed:
        return False
    on_boards = set()
    for board, zones in prog.boards.items():
        keys = [prog.zones[z].key for z in zones]
        if any(k in changed for k in keys):
            ex.boards.append((board, {z: before.get(prog.zones[z].key, "") for z in zones},
                              {z: after.get(prog.zones[z].key, "") for z in zones}))
        on_boards |= set(keys)
    rest = [k for k in changed if k not in on_boards]
    ex.places = [(k, before.get(k, ""), after[k]) for k in rest[:MAX_PLACES]]
    return True
