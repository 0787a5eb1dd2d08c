"""What a seat's link answers: the document ``GET SEAT_URL`` gives as JSON (its schema:
docs/schema/web-seat.schema.json), built from the seat's view and nothing else, plus the
names a client needs to draw it without the ruleset. Every item named is one the view
already shows; the moves are the seat's own, only while it is to move."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..dsl.types import tuple_parts
from ..interpreter import display
from ..interpreter.views import (
    chance_runs,
    chance_seen,
    chance_seen_at_start,
    choice_hidden,
    item_visible,
    told_by,
    view as seat_view,
)
from .reading import Seen, legend_key, move_words, picked_words
from .store import SPECTATOR

FORMAT = "meeple-web-seat/1"


def _label(prog, item: int, ivars) -> dict:
    return {"label": display.item_label(prog, item, False, ivars),
            "short": display.item_label(prog, item, True, ivars),
            "color": display.color_of_item(prog, item),
            "notation": display.value_notation(prog, item, "item")}


def _typed(prog, t, v, items: set[int]) -> Any:
    """A variable's value written for people by its declared type (as the terminal
    shows it); the items it names are added to ``items``."""
    if v is None:
        return "-"
    if isinstance(v, dict):                      # a value the seat may not see
        return "?"
    name = getattr(t, "name", None)
    if name == "list" and isinstance(v, list):
        return ", ".join(str(_typed(prog, t.item, x, items)) for x in v)
    if name == "player" and isinstance(v, int):
        return display.player_name(prog, v)
    if name == "bool" or isinstance(v, bool):
        return display.yes_no(prog, v)
    if name in prog.checked.enums:
        return display.name(prog, f"{name}.{v}")
    if name in prog.checked.kinds and isinstance(v, int):
        items.add(v)
        return display.item_label(prog, v, True)
    if name in prog.boards and isinstance(v, int):
        return display.cell_notation(prog, v)
    return v if isinstance(v, int | float | str) else str(v)


def _grid(cells: list) -> list[tuple[int, int]]:
    """Cells' drawing coordinates brought to a grid of whole steps from 0, as the
    rulebook's SVG spaces them (the greatest common step of each axis is one)."""
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    x0, y0 = min(xs), min(ys)
    gx = math.gcd(*(x - x0 for x in xs)) or 1
    gy = math.gcd(*(y - y0 for y in ys)) or 1
    return [((x - x0) // gx, (y - y0) // gy) for x, y in zip(xs, ys)]


def boards(prog) -> list[dict]:
    """Each board with its cells at their grid places (zone key, name, column, row)."""
    out = []
    for board, zones in prog.boards.items():
        cells = [prog.zones[z].cell for z in zones]
        if not cells or board in prog.checked.offscreen:
            continue
        places = _grid(cells)
        out.append({"name": board, "title": display.name(prog, board),
                    "cells": [{"key": prog.zones[z].key, "name": c.name, "col": px, "row": py}
                              for z, c, (px, py) in zip(zones, cells, places)]})
    return out


def _zones(prog, view: dict) -> list[dict]:
    """The zones off the boards the seat is shown (not offscreen), each with its title,
    its owner (0-based, or null for a shared one) and its contents as the view has them."""
    out = []
    for z in prog.zones:
        if z.board is not None or z.key not in view["zones"] or z.name in prog.checked.offscreen:
            continue
        out.append({"key": z.key, "name": z.name, "title": display.name(prog, z.name),
                    "owner": z.owner})
    return out


def _on_boards(prog, view: dict) -> set[int]:
    """The items the view shows on the boards drawn (by their short labels)."""
    return {i for z in prog.zones
            if z.board is not None and z.board not in prog.checked.offscreen
            and isinstance(view["zones"].get(z.key), list)
            for i in view["zones"][z.key] if isinstance(i, int)}


def _items_in(view: dict) -> set[int]:
    found: set[int] = set()
    for content in view["zones"].values():
        if isinstance(content, list):
            found.update(i for i in content if isinstance(i, int))
    return found


def _variables(prog, view: dict, items: set[int]) -> tuple[list, list]:
    shared = [{"name": k, "title": display.name(prog, k),
               "value": _typed(prog, _type(prog, k), v, items)}
              for k, v in sorted(view.get("vars", {}).items()) if k not in prog.checked.offscreen]
    per_player = [{"name": k, "title": display.name(prog, k),
                   "values": [_typed(prog, _type(prog, k), v, items) for v in values]}
                  for k, values in sorted(view.get("pvars", {}).items())
                  if k not in prog.checked.offscreen]
    return shared, per_player


def _type(prog, var: str):
    decl = prog.checked.vars.get(var)
    return decl.type if decl is not None else None


def leaves(value, code: str):
    """The (type code, value) of each single value a move's value holds (the parts of a
    tuple, the elements of a list), in order."""
    if value is None:
        return
    if code.startswith("list:") and isinstance(value, list | tuple):
        for v in value:
            yield from leaves(v, code[5:])
    elif code.startswith("tuple(") and isinstance(value, list | tuple):
        for v, c in zip(value, tuple_parts(code)):
            yield from leaves(v, c)
    else:
        yield code, value


def start(prog, value, code: str, shown: dict) -> dict | None:
    """What a move acts on first (its value; the first part of a tuple, the first element
    of a list): ``{"zone": KEY}`` for a cell or a zone, ``{"item": ID}`` for an item the
    seat is shown (in ``shown``, the document's items); else None."""
    for c, v in leaves(value, code):
        if c in ("cell", "zone") and isinstance(v, int):
            return {"zone": prog.zones[v].key}
        if c == "item" and isinstance(v, int) and str(v) in shown:
            return {"item": str(v)}
        return None
    return None


def _cells(prog, value, code: str) -> list[str]:
    return [prog.zones[v].key for c, v in leaves(value, code)
            if c == "cell" and isinstance(v, int)]


def fallen(before, game, move) -> list:
    """The chance results that fell as ``move`` was played on ``before`` (a copy of the
    game just before it; None: none is looked for) to make ``game``
    (``views.chance_seen``: only in a game that hides nothing); none when no random draw
    was made, or when finding them breaks (the move stands: they go untold)."""
    from ..interpreter import IllegalMove, RuleError
    if before is None or before.state["rng"] == game.state["rng"]:
        return []
    try:
        return chance_seen(before, move, move.player if before.simultaneous else None)
    except (RuleError, IllegalMove):
        return []


def runs(game, fell: list, seats) -> dict[int, list[dict]]:
    """Each seat's runs of the chance results ``fell`` (``views.chance_runs``, against the
    state of ``game`` after them), written for people."""
    prog, state = game.program, game.state
    return {s: [{"kind": run[0].kind, "player": run[0].player, "said": run[0].said,
                 "values": [display.value_text(prog, f.value, f.type) for f in run]}
                for run in chance_runs(prog, fell, s, state)] for s in seats}


def opening(game, seed: int) -> dict[int, list[dict]]:
    """What fell as the new ``game`` of ``seed`` was set up (an opening roll), each
    seat's runs (``runs``); none in a game that hides anything."""
    from ..interpreter import RuleError
    if not may_fall(game):
        return {}
    try:
        fell = chance_seen_at_start(game.program, game.players, seed)
    except RuleError:
        return {}
    return runs(game, fell, [*range(game.players), SPECTATOR]) if fell else {}


def may_fall(game) -> bool:
    """Whether the chance results of a game's moves may be told (``fallen``): a game that
    hides nothing, its chance seeded. (Finding out costs: asked once per table.)"""
    return not game.program.hidden_information and game.chance_mode == "seeded"


def said(game, state: dict | None = None) -> int:
    """How many messages the game has said so far (every seat's log has them all, each
    as the seat may read it): counted in the state (``state``: the game's, when it was
    read already), not written out in a view."""
    state = game.state if state is None else state
    return state.get("log_dropped", 0) + len(state["log"])


def _before(game, value, code: str, seats: list[int]) -> dict[int, tuple[dict, dict | None]]:
    """What each of ``seats`` sees of the cells a move's value names, and the item
    variables it sees, before the move: from its view where the game has item variables
    (a label may show them: only as the seat may see them), else from the state, each
    item the seat may not see left out (a view of a large game costs far more)."""
    state = game.state
    if state["ivars"]:
        out = {}
        for s in seats:
            v = seat_view(game, s, log=False)
            out[s] = (v["zones"], v.get("ivars"))
        return out
    zones = game.program.zones
    cells = [v for c, v in leaves(value, code) if c == "cell" and isinstance(v, int)]
    return {s: ({zones[c].key: [i if item_visible(game, i, s) else None for i in state["zones"][c]]
                 for c in cells}, None) for s in seats}


class LastMove:
    """A move as each seat saw it: its notation and the move in words, or its verb alone
    (None when it has none) for a seat that may not know what was chosen: a secret
    choice while the simultaneous decision is under way, or into a variable the seat
    never sees (views.choice_hidden), or a move naming an item the seat sees neither
    before nor after it (as ``meeple replay --as`` writes it). Made before the move, when
    it counts the messages said so far (``said_before``), finished after (``played``),
    when it counts them again (``said``: those of the move and before it) and finds, for
    each seat, whether the first of its messages tells it (``told``: views.told_by)."""

    def __init__(self, game, move):
        decision = game.decision
        prog = game.program
        self.move = move
        self.player = move.player
        self.notation = move.notation
        self.verb = decision.verb
        self.verb_word = display.verb_word(prog, decision.verb) if decision.verb else None
        self.value, self.code = move.value, decision.type
        self.cells = _cells(prog, move.value, decision.type)
        self.simultaneous = game.simultaneous
        items = [v for c, v in leaves(move.value, decision.type) if c == "item"]
        seats = [*range(game.players), SPECTATOR]
        self.hidden = {s for s in seats if s != move.player and choice_hidden(game, move.player, s)}
        self.unseen = {s: {i for i in items if not item_visible(game, i, s)} for s in seats}
        # what each seat saw where the move acts (the cells it names, before it is made)
        self.before = _before(game, move.value, decision.type, seats) if self.cells or items else {}
        self.words: dict[int, str] = {}
        self.told: set[int] = set()
        self.fell: dict[int, list[dict]] = {}
        self.said_before = self.said = said(game)

    def played(self, game, fell: list | None = None) -> LastMove:
        """Finished once the move is made on ``game`` (``fell``: the chance results that
        fell, ``fallen``), with the seats its first message tells it to (``told``: every
        seat that may know the choice, when that message names its player and value)."""
        under_way = self.simultaneous and game.simultaneous and \
            self.player in game.decision.chosen
        for s, items in self.unseen.items():
            if s != self.player and (under_way or any(not item_visible(game, i, s) for i in items)):
                self.hidden.add(s)
        for s in self.unseen:
            if s not in self.hidden:
                zones, ivars = self.before.get(s, ({}, None))
                seen = Seen(zones, ivars, self._sees(game, s))
                self.words[s] = move_words(game.program, self.notation, self.value, self.code, seen,
                                           self.verb)
        self.before = {}
        state = game.state
        self.said = said(game, state)
        if told_by(game.program, self.said_before, self.code, self.move, state):
            self.told = {s for s in self.unseen if s not in self.hidden}
        if fell:
            self.fell = runs(game, fell, self.unseen)
        self.unseen = {}
        return self

    def _sees(self, game, seat: int) -> Callable[[int], bool]:
        """Whether ``seat`` may know an item of the move: it saw it before the move or
        sees it after (on ``game``)."""
        unseen = self.unseen[seat]
        return lambda i: i not in unseen or item_visible(game, i, seat)

    def shown(self, seat: int) -> dict:
        """As ``seat`` saw it: who made it, its notation and its words (its verb alone,
        or None, when the seat may not know it), the cells it names (none then), the
        numbers of messages said before it and once it was made, whether the first of
        those tells it (``told``: its player and its value, as every seat reads them), and
        the chance results it may know that fell with it and that no message of the
        ruleset tells."""
        said = {"said_before": self.said_before, "said": self.said, "fell": self.fell.get(seat, []),
                "told": seat in self.told}
        if seat in self.hidden:
            return {"player": self.player, "notation": self.verb, "text": self.verb_word, "cells": [],
                    **said}
        return {"player": self.player, "notation": self.notation,
                "text": self.words.get(seat, self.notation), "cells": list(self.cells), **said}


def document(table, seat: int) -> dict:
    """The JSON a seat's link answers with (seat SPECTATOR: the public view)."""
    game, prog = table.game, table.program
    view = seat_view(game, seat)
    items = _items_in(view)
    shared, per_player = _variables(prog, view, items)
    ivars = view.get("ivars")
    to_move = [] if game.over else list(game.deciding)
    shown = {str(i): _label(prog, i, ivars) for i in sorted(items)}
    code = game.decision.type if to_move else ""
    seen = Seen(view["zones"], ivars, lambda i: str(i) in shown)
    verb = game.decision.verb if to_move else None
    moves = ([{"notation": m.notation, "start": start(prog, m.value, code, shown),
               "text": move_words(prog, m.notation, m.value, code, seen, verb)}
              for m in game.legal_moves(seat)]
             if seat in to_move and seat not in table.bots else [])
    verb = verb if moves else None
    last = table.last
    return {
        "format": FORMAT,
        "title": prog.title,
        "seat": None if seat == SPECTATOR else seat,
        "players": [{"seat": s, "name": display.player_name(prog, s), "bot": s in table.bots}
                    for s in range(game.players)],
        "version": table.version,
        "over": game.over,
        "to_move": to_move,
        "simultaneous": bool(to_move) and game.simultaneous,
        "moves": moves,
        # (several picks each, choose 3 ...: the seat's own picks so far, in words)
        "picked": picked_words(prog, view, code, seen) if seat in to_move else [],
        # the ruleset's own words asking for the decision ("Choose a point to play, or pass")
        "prompt": (display.text(prog, verb, "") or None) if verb else None,
        "boards": boards(prog),
        "zones": _zones(prog, view),
        "items": shown,
        "legend": legend_key(prog, _on_boards(prog, view)),
        "variables": shared,
        "player_variables": per_player,
        "last_move": None if last is None else last.shown(seat),
        "moves_made": [m.shown(seat) for m in table.made],
        "opening": table.opening.get(seat, []) if len(table.made) == table.version else [],
        "log": list(view.get("log", [])),
        "log_dropped": view.get("log_dropped", 0),
        "result": view.get("result"),
        "view": view,
    }
