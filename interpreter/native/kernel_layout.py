"""How a kernel's state keeps its fields (interpreter/native/kernel.py): each in the
narrowest integer type that holds every value it can have, so that a copied state is a
copy of fewer bytes.

- a field of an id (an item, a cell or zone, a player, an enum member) holds one below
  the count of its kind, or none: ``NId<count>`` (``cxx/kernel_rt.hpp``), one byte where
  the count is below 127;
- a variable of the rules of type int holds the values its first value and every value
  assigned to it can have (``Facts.int_range`` of each, ``interpreter/core/bounds.py``),
  where every one is known: ``NInt<least, most>``; where one is not (``x = x + 1``, a
  procedure's result, a choice...), the range is unknown and the field keeps its 64 bits;
- who sees each item and the zones revealed, in a program that never turns an item
  face down (reveals no zone): kept in no byte (``Fixed``: the value every item has);
- a for loop's index (``LOOP_INDEX``) in 4 bytes, as a ``while``'s counter in 0..its
  limit + 1;
- an item variable, for the items of the kinds that have it alone (``item_slots``);
- the fields of the state's and frames' structs in the order of their sizes (no padding
  between a byte and an 8-byte field).

A narrow field never changes a game: a value beyond the range it was made for is never
stored (the kernel stops, ``bail``, and the move is played in Python, which gives its exact
result), and a state whose value is beyond it is not loaded into the kernel.
tests/test_kernel_layout.py proves both ends of a range and the full width."""
from __future__ import annotations

from typing import Any

from ..core import ops
from .cxx_text import ident
from .kernel_types import IDS, INT

# a for loop's index over a list (frames' ``$i`` locals): 0 up to the list's length; a
# list of 2**31 - 2 elements or more stops the kernel at that index (4 bytes, not 8)
LOOP_INDEX = (0, (1 << 31) - 2)

_WIDTHS = ((-(1 << 7), (1 << 7) - 1, 1), (-(1 << 15), (1 << 15) - 1, 2), (-(1 << 31), (1 << 31) - 1, 4))


def fit_width(lo: int, hi: int) -> int:
    """The bytes of the narrowest signed integer that holds lo..hi (``Fit`` in C++)."""
    for least, most, w in _WIDTHS:
        if least <= lo and hi <= most:
            return w
    return 8


class Stored(str):
    """A C++ type a field of the state or of a frame is kept in, as this module writes it,
    with what it is, said where it is written (never read back from the text): ``width``
    its bytes (and alignment), ``ids`` the count an ``NId<count>`` holds ids below,
    ``span`` the least and the most an ``NInt<least, most>`` holds (None for any other
    type: ``Id`` and ``I`` hold any id and any integer)."""

    width: int
    ids: int | None
    span: tuple[int, int] | None

    def __new__(cls, text: str, width: int, ids: int | None = None, span: tuple[int, int] | None = None) -> Stored:
        self = super().__new__(cls, text)
        self.width, self.ids, self.span = width, ids, span
        return self

    def __reduce__(self):  # (copied and pickled with what it is)
        return Stored, (str(self), self.width, self.ids, self.span)


def plain(ct: str, t: Any) -> Stored:
    """The C++ type ``ct`` of the values of type ``t`` as the rules' code reads them
    (``Gen.ct``), as a field kept so: a bool in a byte, an id in 4, a list of ids or
    bools in 12 aligned to 4 (cxx/kernel_rt.hpp, ListHandle), anything else aligned to 8."""
    small = t.tag == "list" and (t.arg.tag == "bool" or t.arg.tag in IDS)
    return Stored(ct, 1 if t.tag == "bool" else 4 if t.tag in IDS or small else 8)


def narrow_int(lo: int, hi: int) -> Stored:
    """``NInt<lo, hi>``: an integer field kept in the bytes that hold lo..hi and none."""
    return Stored(f"NInt<{lo}LL, {hi}LL>", fit_width(lo - 1, hi), span=(lo, hi))


class Layout:
    """The C++ types of one program's state fields (``gen``: its ``kernel.Gen``)."""

    def __init__(self, gen):
        self.gen = gen
        self.ranges = var_ranges(gen.p, gen.facts)

    def turns_items(self) -> bool:
        """Whether an instruction may give an item another facing than its place's (a
        move or flip face down): where none does, every item faces as its place says,
        and the state keeps no facing (``Fixed<-1>``)."""
        return any(getattr(i, "face", ops.AS_PLACE) != ops.AS_PLACE or isinstance(i, ops.RevealTo)
                   for i in self._instructions())

    def reveals(self) -> bool:
        """Whether an instruction may reveal a zone (else the state keeps none:
        ``Fixed<0>``)."""
        return any(isinstance(i, ops.Reveal) for i in self._instructions())

    def _instructions(self):
        for proc in self.gen.p.procs.values():
            yield from proc.core

    def item_slots(self, name: str) -> list[int] | None:
        """The items that have an item variable (those of the kinds that declare it), in
        order: its values are kept for them alone (the i-th at slot i, ``ivar``), or None
        where more than half the items have it (kept by item id: no slot to look up)."""
        g = self.gen
        kinds = {kind for kind, fields in g.c.item_vars.items() if name in fields}
        ids = [it.id for it in g.p.items if it.kind in kinds]
        return None if 2 * len(ids) > g.ni else ids

    def ivar(self, name: str, item: str, st: str = "s") -> str:
        """The C++ of item ``item``'s variable ``name`` (an item of a kind that has it:
        another stops the kernel, ``islot``), ``st`` the state's."""
        field = f"{st}.{ident('I', name)}"
        ids = self.item_slots(name)
        if ids is None:
            return f"{field}[{item}]"
        return f"{field}[islot({self.slot_table(name)}, {item})]"

    def slot_table(self, name: str) -> str:
        """The table of each item's slot of the item variable ``name`` (-1: none), where
        it is kept by slot (``item_slots``)."""
        slot = {i: k for k, i in enumerate(self.item_slots(name) or ())}
        return self.gen.tables.value_table(("ISLOT", name), [slot.get(i.id, -1) for i in self.gen.p.items], INT)

    def id_count(self, t) -> int | None:
        """The ids of a type of Id below this count (None: not such a type)."""
        g = self.gen
        if t.tag not in IDS or t.tag == "none":
            return None
        if t.tag == "enum":
            return len(g.c.enums[t.arg])
        return {"item": g.ni, "player": g.n}.get(t.tag, g.nz)

    def stored(self, t, var: str | None = None) -> Stored:
        """The C++ type a field of type ``t`` is kept in (``var``: the rules' variable it
        holds, whose proven range counts)."""
        count = self.id_count(t)
        if count is not None:
            return Stored(f"NId<{count}>", fit_width(-1, count), ids=count)
        if t.tag == "int" and var is not None:
            r = self.ranges.get(var)
            if r is not None and fit_width(r[0] - 1, r[1]) < 8:   # (r[0] - 1: none)
                return narrow_int(*r)
        return plain(self.gen.ct(t), t)


def var_ranges(prog, facts) -> dict[str, tuple[int, int]]:
    """The least and the most each integer variable of the rules (a global, per-player or
    item variable, by name) can hold, where its first values and every value any
    instruction assigns to it say it whatever the state; a variable that anything else
    writes (a procedure's result, a choice, a roll...) has none."""
    c = prog.checked
    spans: dict[str, list] = {}
    for name, v in c.vars.items():
        spans.setdefault(name, []).append(facts.int_range(v.init))
    for fields in c.item_vars.values():
        for name, f in fields.items():
            spans.setdefault(name, []).append(None if f.init is None else facts.int_range(f.init))
    for proc in prog.procs.values():
        for i in proc.core:
            match i:
                case ops.SetGlobal() | ops.SetPlayerVar():
                    spans.setdefault(i.var, []).append(facts.int_range(i.value))
                case ops.SetItemVar():
                    spans.setdefault(i.attr, []).append(facts.int_range(i.value))
                case ops.Make():
                    for name, value, _ in i.sets:
                        spans.setdefault(name, []).append(facts.int_range(value))
                case ops.SetLocal() | ops.ForInit() | ops.ForStep():
                    pass   # (locals of the frame: no variable of the rules)
                case _:
                    for name in _written(i):
                        spans.setdefault(name, []).append(None)
    out = {}
    for name, rs in spans.items():
        if rs and all(r is not None for r in rs):
            out[name] = (min(r[0] for r in rs), max(r[1] for r in rs))
    return out


def _written(i) -> list[str]:
    """The names an instruction of another kind may write (all its names, to be sure)."""
    names = []
    for attr in ("var", "each", "slot", "attr"):
        v = getattr(i, attr, None)
        if isinstance(v, str):
            names.append(v)
    names += [v for v in getattr(i, "vars", ()) if isinstance(v, str)]
    return names


def size_of(ct: Stored) -> int:
    """The alignment of a field of C++ type ``ct`` (its size where it is one of ours; a
    list of ids or bools is 12 bytes aligned to 4: cxx/kernel_rt.hpp, ListHandle)."""
    return ct.width


def by_size(fields: list[tuple[Stored, str]]) -> list[tuple[Stored, str]]:
    """(C++ type, declaration) pairs, the widest first (no padding between them)."""
    return sorted(fields, key=lambda f: -size_of(f[0]))
