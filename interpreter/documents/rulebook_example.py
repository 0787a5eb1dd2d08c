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

SEEDS = range(1, 9)  # the games' seeds and their choices', tried in turn
MAX_TURNS = 40      # turns looked through for one that changes a board
MAX_MOVES = 30      # moves told at most
MAX_PLACES = 8      # other places listed at most
MAX_LABEL = 9       # a label longer than this is drawn with the item's short label
MAX_LIST = 8        # the elements of a list shown at most


@dataclass
class Example:
    """One turn of a real game: the players, the moves (player, notation, what was
    chosen as players read it), the messages, the boards before and after (cell ->
    text) and the other places that changed (place, before, after)."""
    players: int
    seed: int
    turn: int
    moves: list = field(default_factory=list)      # (player name, notation, value text or None)
    messages: list = field(default_factory=list)   # str
    boards: list = field(default_factory=list)     # (board, before, after: {zone: (text, short text)})
    places: list = field(default_factory=list)     # (place, before, after)
    ended: bool = False                            # the turn ended the game


def example(ruleset, players: int) -> Example | None:
    """The example turn of the first game of ``players`` (on the seeds ``SEEDS``) that
    has one that leaves the game going on, else the first that ends it (a game of one
    turn), or None."""
    last = None
    for seed in SEEDS:
        try:
            ex = play(ruleset, players, seed)
        except Exception:  # noqa: BLE001 - a best effort: a rule that fails in play gives no example
            continue
        if ex is not None and not ex.ended:
            return ex
        last = last or ex
    return last


def play(ruleset, players: int, seed: int) -> Example | None:
    """The example turn of a game of ``players`` on ``seed``: the first of the first
    ``MAX_TURNS`` turns that changes something to show and is told whole in
    ``MAX_MOVES`` moves (``ended`` when it ends the game: the last turn to look at); None
    when there is none."""
    prog = ruleset.for_players(players)
    game = prog.new_game(players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(MAX_TURNS):
        if game.over:
            return None
        before = _contents(prog, game)
        said = _said(game)
        turn = game.turn_number
        ex = Example(players, seed, turn + 1)
        cut = False     # (the turn has more moves than are told)
        while not game.over and game.turn_number == turn:
            if len(ex.moves) == MAX_MOVES:
                cut = True
                break
            _move(prog, game, rnd, ex)
        after = _contents(prog, game)
        if not cut and _fill(prog, ex, before, after):
            log, new = view(game, -1)["log"], _said(game) - said
            ex.messages = log[len(log) - new:] if new > 0 else []
            ex.ended = game.over
            return ex
        while not game.over and game.turn_number == turn:   # (a turn cut short: played out)
            _move(prog, game, rnd, None)
    return None


def _move(prog, game, rnd: random.Random, ex: Example | None) -> None:
    """Plays a random move, one that does not end the game at once when there is one
    (resigning is seldom what a turn is about)."""
    moves = game.legal_moves()
    kind = game.decision.type
    order = rnd.sample(range(len(moves)), len(moves))
    for i in order[:-1]:
        game.apply(moves[i])
        over = game.over
        game.undo()
        if not over:
            m = moves[i]
            break
    else:
        m = moves[order[-1]]
    if ex is not None:
        ex.moves.append((display.player_name(prog, m.player), m.notation, _chosen(prog, game, m, kind)))
    game.apply(m)


def _chosen(prog, game, m, kind: str) -> str | None:
    """What a move chose as players read it, when that is more than its notation says:
    an item's label, a cell with what lies on it (``r3c2: Birds woman 8``); None when
    the notation says it all."""
    cells = m.value if kind == "list:cell" else [m.value] if kind == "cell" else None
    if cells:
        zones = view(game, -1)["zones"]
        said = []
        for z in cells:
            on = _text(prog, zones.get(prog.zones[z].key, []), game)[0]
            said.append(display.cell_notation(prog, z) + (f": {on}" if on else ""))
        text = "; ".join(said)
    else:
        text = display.value_text(prog, m.value, kind)
    same = _letters(text) == _letters(m.notation.split(" ", 1)[-1])
    return None if same else text


def _letters(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def _said(game) -> int:
    v = view(game, -1)
    return v.get("log_dropped", 0) + len(v["log"])


def _contents(prog, game) -> dict:
    """Every place's items and every variable as a spectator reads them (zone key, or
    ``var:NAME`` and ``var:NAME:SEAT`` -> text): what lies hidden is a count, a face-down
    item or a secret value a '?'."""
    v = view(game, -1)
    c = prog.checked
    out = {key: _text(prog, items, game) for key, items in v["zones"].items()
           if key.partition(":")[0] not in c.offscreen}
    for name, value in v["vars"].items():
        if name not in c.offscreen:
            out[f"var:{name}"] = (_value(prog, c.vars[name].type, value),) * 2
    for name, values in v["pvars"].items():
        for seat, value in enumerate(values):
            if name not in c.offscreen:
                out[f"var:{name}:{seat}"] = (_value(prog, c.vars[name].type, value),) * 2
    return out


def _value(prog, t, value) -> str:
    """A variable's value as players read it, by its declared type ``t``."""
    c = prog.checked
    if isinstance(value, dict):     # hidden from a spectator
        return "?"
    if value is None:
        return ""
    if isinstance(value, list):
        text = [_value(prog, t.item, x) for x in value[:MAX_LIST]]
        return ", ".join(text) + (", …" if len(value) > MAX_LIST else "")
    name = t.name if t is not None else ""
    if name == "bool":
        return display.text(prog, "yes", "yes") if value else display.text(prog, "no", "no")
    if name == "player":
        return display.player_name(prog, value)
    if name in c.kinds:
        return display.item_label(prog, value)
    if name in c.enums:
        return display.name(prog, f"{name}.{value}")
    return str(value)


def _text(prog, items, game) -> tuple[str, str]:
    """What lies in a place, in full and short (for a drawing's cell: an item's short
    label when its label is long); a hidden place's count of items."""
    if isinstance(items, dict):
        return (str(items.get("count", "")),) * 2
    ivars = game.state.get("ivars")
    full, short = [], []
    for i in items:
        if isinstance(i, dict):    # face down
            full.append("?")
            short.append("?")
            continue
        label = display.item_label(prog, i, ivars=ivars)
        full.append(label)
        short.append(label if len(label) <= MAX_LABEL else display.item_label(prog, i, use_short=True, ivars=ivars))
    return _together(full, "; "), _together(short, " ")


def _together(labels: list, sep: str) -> str:
    if len(labels) > 1 and len(set(labels)) == 1:
        return f"{labels[0]} ×{len(labels)}"
    return sep.join(labels) if len(labels) <= 3 else sep.join(labels[-2:]) + f" (+{len(labels) - 2})"


def _fill(prog, ex: Example, before: dict, after: dict) -> bool:
    """The boards and places of the example; False when nothing changed."""
    changed = [k for k in after if before.get(k) != after[k]]
    if not changed:
        return False
    on_boards = set()
    for board, zones in prog.boards.items():
        keys = [prog.zones[z].key for z in zones]
        if any(k in changed for k in keys):
            ex.boards.append((board, {z: before.get(prog.zones[z].key, ("", "")) for z in zones},
                              {z: after.get(prog.zones[z].key, ("", "")) for z in zones}))
        on_boards |= set(keys)
    rest = [k for k in changed if k not in on_boards]
    ex.places = [(k, before.get(k, ("", ""))[0], after[k][0]) for k in rest[:MAX_PLACES]]
    return True
