"""Moves written for people on the web table: the value of a move in words, as the seat
may read it (items by their names, cells by their names and what the seat sees on
them), and the whole move in one form, the same in the list of moves, the last move
and the log. Everything is written from what the seat is shown (its view and the items
it may see): a name it may not know never gets in."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..dsl.types import tuple_parts
from ..interpreter import display


@dataclass(frozen=True)
class Seen:
    """What a seat sees: its view's ``zones`` and item variables (``ivars``), and
    ``sees(item)``, whether it may know the item."""
    zones: dict
    ivars: dict | None
    sees: Callable[[int], bool]

    def label(self, prog, item: int, short: bool = False) -> str:
        return display.item_label(prog, item, short, self.ivars)


def _on_cell(prog, content, seen: Seen) -> str:
    """What a seat sees on a cell (its view's content) when it is one item it may see
    and the only one of its label (a card lying there): its name; else nothing (the
    board shows the pieces, which their labels do not tell apart)."""
    if not isinstance(content, list) or len(content) != 1:
        return ""
    item = content[0]
    if not isinstance(item, int) or not seen.sees(item) or not display.told_apart(prog, item):
        return ""
    return seen.label(prog, item)


def value_words(prog, value, code: str, seen: Seen) -> str:
    """A move's value as a player reads it: an item by its name (or 'a card' when the
    seat may not see it), a cell by its name and what lies on it as the seat's view
    shows it, a player by name; the parts of a list joined by "+"."""
    if value is None:
        return ""
    if code.startswith("list:") and isinstance(value, list | tuple):
        return " + ".join(value_words(prog, v, code[5:], seen) or "-" for v in value)
    if code.startswith("tuple(") and isinstance(value, list | tuple):
        parts = [value_words(prog, v, c, seen) for v, c in zip(value, tuple_parts(code))]
        return " ".join(p for p in parts if p)
    if code == "item" and isinstance(value, int):
        if not seen.sees(value):
            return display.hidden_label(prog, prog.items[value].kind)
        return seen.label(prog, value)
    if code == "cell" and isinstance(value, int):
        name = display.cell_notation(prog, value)
        lying = _on_cell(prog, seen.zones.get(prog.zones[value].key), seen)
        return f"{name}: {lying}" if lying else name
    return display.value_text(prog, value, code)


def move_words(prog, notation: str, value, code: str, seen: Seen, verb: str | None = None) -> str:
    """A move in one readable form: its verb and its value in words where the notation
    is the verb and the value's notation (``play wolf-man-6`` → ``play Wolf man 6``,
    ``chase r2c1`` → ``chase r2c1: Wild Potato woman 4``); else the notation, with the
    value in words after a dash when they add something (a move the ruleset writes its
    own way). The decision's ``verb`` is written in the locale's word
    (``display.worded``: ``verjagen r2c1: ...``)."""
    words = value_words(prog, value, code, seen)
    shown = display.worded(prog, notation, verb)
    if not words:
        return shown
    head, _, rest = notation.partition(" ")
    if rest and rest == display.value_notation(prog, value, code):
        return f"{display.worded(prog, head, verb)} {words}"
    if notation == words or notation.endswith(" " + words):
        return shown
    return f"{shown} — {words}"


def picked_words(prog, view: dict, code: str, seen: Seen) -> list[str]:
    """The picks so far of the seat whose ``view`` this is, in a decision of several
    picks (``choose 3 ...``), as its moves' values read (``value_words``: ``ace of
    spades``); a pick it may not see now by the verb alone, in the locale's word. The
    same words as the terminal's prompt (cli/told.py ``picked``)."""
    pending = view.get("pending") or {}
    verb = pending.get("verb")
    out = []
    for written, value in zip(pending.get("picked") or [], display.picked_values(prog, view, code)):
        shown = value_words(prog, value, code, seen) if value is not None else ""
        out.append(shown or display.worded(prog, written, verb))
    return out


def legend_key(prog, items) -> list[dict]:
    """The short forms the short labels of ``items`` (those a seat is shown) are written
    with: for each value of an enumerated attribute of their kinds whose short form is
    not its name, ``{"short": "Bi", "name": "Birds"}``, each once, in the order of the
    kinds, their attributes and the values (as ``meeple play``'s ``legend`` says them)."""
    kinds = sorted({prog.items[i].kind for i in items})
    out: dict[tuple[str, str], None] = {}
    for kind in kinds:
        for t in prog.checked.kinds[kind].values():
            if t is None or t.tag != "enum":
                continue
            for v in prog.checked.enums.get(t.arg, []):
                path = f"{t.arg}.{v}"
                short, full = display.short(prog, path), display.name(prog, path)
                full = full.lstrip(" ,;:") or full   # (', shielded', written to follow a label)
                if short and short != full:
                    out.setdefault((short, full), None)
    return [{"short": short, "name": full} for short, full in out]
