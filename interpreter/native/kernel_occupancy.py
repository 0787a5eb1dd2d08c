"""A kernel's loops over a board's occupied cells, or its empty ones (kernel.Gen.loops):
where only occupied cells can pass a loop's condition (core/occupancy.py, ``Facts.occupied_only``: ``[c for
c in cells(square) if own(c, me)]``, ``first(c for c in cells(square) if is(c, me,
king))``), the loop walks the bits of an index of the occupied cells the zones keep
(cxx/kernel_zones.hpp, ``Zones``' ``occ``: a bit per cell of the boards, set while the
cell holds an item, kept by every move of an item), lowest first: the cells' order. The
work budget counts the board's cells as before (the list's length, counted before the
loop), and the whole condition is tested on each occupied cell: the same elements,
values, work and calls as the reference. (So the index must hold every occupied cell;
a bit left set on an empty one would cost a test, not change an answer: the lockstep
tests catch a cell missed, tests/test_kernel_occupancy.py.)

The index is kept only where a loop walks it (the state's zones then have it: a word
per 64 cells of the boards, from the first board's first cell to the last board's
last). A loop printed for a lasting keep (kernel_lasting.py, its zones' reads noted
through ``RZ``) walks every cell as before: each cell's emptiness it reads is noted."""
from __future__ import annotations

from .kernel_reads import reads_of, state
from .kernel_walks import CELL_ID

_WORD = 64


class OccupiedWalks:
    """The loops over occupied cells of one program (``gen``: its kernel.Gen)."""

    def __init__(self, gen):
        self.gen = gen
        ids = [z for cells in gen.p.boards.values() for z in cells]
        # (the zones that have a bit, where a loop walks them: the boards' cells)
        self.lo = min(ids) if ids else 0
        self.n = max(ids) - self.lo + 1 if ids else 0
        # (the boards of the loops that walk it, in order: where any, the zones keep it)
        self.walked: list[str] = []
        # (id of the comprehension of an ``any`` with no condition -> its element)
        self.any_elems: dict[int, object] = {}

    def note_any(self, e) -> None:
        """Note the aggregate ``e`` where it is ``any(x for ... in cells(b))`` with no
        condition: its loop may skip the cells where its element is false having counted
        nothing (``test_of``), as a condition's (``any`` is true where an element is)."""
        if e.func == "any" and e.comp.cond is None:
            self.any_elems[id(e.comp)] = e.comp.elem

    def test_of(self, comp):
        """The test a loop of the comprehension ``comp`` may skip cells by: its
        condition, or the element of an ``any`` noted (``note_any``); else None."""
        return comp.cond if comp.cond is not None else self.any_elems.get(id(comp))

    def zones_args(self) -> str:
        """The index's arguments of the state's ``Zones`` (after ``NI, NZ`` and whether
        they are stamped), or "" where no loop walks it."""
        return f", {self.lo}, {self.n}" if self.walked else ""

    def loop(self, cl, cond, sc: dict, var: str, inside) -> str | None:
        """The C++ loop over the occupied cells of the last clause ``cl`` of a
        comprehension over ``cells(board)`` with the condition ``cond`` (``var``: the
        loop's variable; ``inside()``: the C++ within, the whole condition tested there),
        or None where another cell might pass it, where a lasting keep notes each zone
        it reads (``RZ``), or where the board's cells are no run of the zones."""
        g = self.gen
        found = g.facts.cells_only(cl, cond)
        reads = reads_of(sc)
        if found is None or (reads is not None and reads.through != "s.z"):
            return None
        board, occupied = found
        cells = g.p.boards.get(board) or []
        if not cells or cells != list(range(cells[0], cells[0] + len(cells))):
            return None
        self.walked.append(board)
        a, b = cells[0] - self.lo, cells[-1] - self.lo   # (the board's bits)
        first, last = a // _WORD, b // _WORD
        m = g.fresh("m")
        occ = f"{state(sc)}.z.occ"
        flip = "" if occupied else "~"   # (the empty cells: the bits clear, within the board's)
        if first == last:
            mask = _mask(a - first * _WORD, b - first * _WORD)
            bits = f"{flip}{occ}[{first}]" + ("" if mask == (1 << _WORD) - 1 else f" & {mask:#x}ULL")
            head = f"for (uint64_t {m} = {bits}; {m}; {m} &= {m} - 1) "
            at = f"{self.lo + first * _WORD} + __builtin_ctzll({m})"
        else:
            w = g.fresh("w")
            head = (f"for (int {w} = {first}; {w} <= {last}; ++{w}) "
                    f"for (uint64_t {m} = {flip}{occ}[{w}] & occ_mask({w}, {a}, {b}); {m}; {m} &= {m} - 1) ")
            at = f"{self.lo} + {w} * {_WORD} + __builtin_ctzll({m})"
        return f"{head}{{ const Id {var} = (Id)({at}); {CELL_ID.format(var)}{inside()} }}"


def _mask(a: int, b: int) -> int:
    """The bits a..b of a word (0 <= a <= b < 64) set."""
    return ((1 << (b + 1)) - 1) & ~((1 << a) - 1)
