"""A kernel's loops over a board's occupied cells, or its empty ones (kernel.Gen.loops): where only occupied
cells can pass a loop's condition (core/occupancy.py, ``Facts.occupied_only``: ``[c for
c in cells(square) if own(c, me)]``, ``first(c for c in cells(square) if is(c, me,
king))``), the loop walks the bits of an index of the occupied cells the zones keep
(cxx/kernel_zones.hpp, ``Zones``' ``occ``: a bit per cell of the boards, set while the
cell holds an item, kept by every move of an item), lowest first: the cells' order. The
work budget counts the board's cells as before (the list's length, counted before the
loop), and the whole condition is tested on each occupied cell: the same elements,
values, work and calls as the reference. (So the index must be exact, as the zones keep
it: every occupied cell, the lockstep tests catch a cell missed,
tests/test_kernel_occupancy.py; and no empty one, as the walk tells the compiler that
each cell it gives holds an item, ``Zones::held``, which drops the tests of
``occupied(c)``, such as ``own(c, me)``'s, in the functions it puts in line: a large
board game's perft 1.3% fewer instructions.) Where only empty cells can
pass (``Facts.occupied_only(..., occupied=False)``: a rule's ``[x for x in cells(point) if
legal(x, me)]``, whose first test is ``empty(c)``), the loop walks the bits clear, the
same way: the index is exact (a bit set on an empty cell would skip it), as the zones
keep it.

The index is kept only where a loop walks it (the state's zones then have it: a word
per 64 cells of the boards, from the first board's first cell to the last board's
last). A loop printed for a lasting keep (kernel_lasting.py, its zones' reads noted
through ``RZ``) walks every cell as before: each cell's emptiness it reads is noted."""
from __future__ import annotations

from .kernel_reads import counters, reads_of, state
from .kernel_walks import CELL_ID

_WORD = 64
_ROW = 8   # (the fewest cells of a relation's longest row walked by its bits)


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

    def keep(self, name: str) -> None:
        """The index kept by the zones for ``name`` (a board, a relation's rows), where a
        pass reads it outside a loop of its own (a cell's bit, a word of cells)."""
        if name not in self.walked:
            self.walked.append(name)

    def zones_args(self) -> str:
        """The index's arguments of the state's ``Zones`` (after ``NI, NZ`` and whether
        they are stamped), or "" where no loop walks it."""
        return f", {self.lo}, {self.n}" if self.walked else ""

    def loop(self, cl, cond, sc: dict, var: str, inside) -> tuple[str, str | None] | None:
        """The C++ loop over the occupied cells of the last clause ``cl`` of a
        comprehension over ``cells(board)`` with the condition ``cond`` (``var``: the
        loop's variable; ``inside()``: the C++ within, the whole condition tested there),
        or None where another cell might pass it, where a lasting keep notes each zone
        it reads (``RZ``), or where the board's cells are no run of the zones; with it the
        C++ of how many cells it walks (the board's bits set: a count stopped early,
        kernel_early.py, bounds what the rest could add by it, not by the board's size),
        None for a relation's row (bounded by the row's length)."""
        g = self.gen
        board = g.facts.occupied_only(cl, cond)
        # (or only empty cells pass it: the bits clear walked, a board's points to play)
        empty = board is None
        if empty:
            board = g.facts.occupied_only(cl, cond, occupied=False)
        if board is None:
            return self._related(cl, cond, sc, var, inside)
        return self.walk(board, sc, var, inside, empty)

    def walk(self, board: str, sc: dict, var: str, inside, empty: bool = False) -> tuple[str, str] | None:
        """The C++ loop over the occupied cells of ``board`` (the empty ones: ``empty``)
        and how many it walks (see ``loop``), or None where a lasting keep notes each zone
        it reads or the board's cells are no run of the zones."""
        g = self.gen
        reads = reads_of(sc)
        if reads is not None and reads.through != "s.z":
            return None
        cells = g.p.boards.get(board) or []
        if not cells or cells != list(range(cells[0], cells[0] + len(cells))):
            return None
        self.walked.append(board)
        a, b = cells[0] - self.lo, cells[-1] - self.lo   # (the board's bits)
        first, last = a // _WORD, b // _WORD
        m = g.fresh("m")
        occ = f"{'~' if empty else ''}{state(sc)}.z.occ"
        # (each word's bits of the board, written out)
        words = [f"{occ}[{k}]" + ("" if mask == (1 << _WORD) - 1 else f" & {mask:#x}ULL")
                 for k in range(first, last + 1)
                 for mask in [_mask(max(a, k * _WORD) - k * _WORD, min(b, k * _WORD + _WORD - 1) - k * _WORD)]]
        held = " + ".join(f"bits_set({x})" for x in words)   # (no call to libgcc: kernel_zones.hpp)
        if first == last:
            head, at = set_bits(m, words[0], self.lo + first * _WORD)
        else:
            w = g.fresh("w")
            head, at = set_bits(m, f"{occ}[{w}] & occ_mask({w}, {a}, {b})", self.lo, (w, first, f"<= {last}"))
        known = f"{state(sc)}.z.bare({var}); " if empty else _held(sc, var)
        return f"{head}{{ const Id {var} = (Id)({at}); {CELL_ID.format(var)}{known}{inside()} }}", held

    def _related(self, cl, cond, sc: dict, var: str, inside) -> tuple[str, None] | None:
        """The loop over the occupied cells of a relation's row (``REL(x)``: core/occupancy.py
        ``occupied_related``), as ``loop``: the bits of the index and of the row's cells
        (``_row_bits``) both set, lowest first; None where the row's cells are not all in
        the index or not in its order."""
        g = self.gen
        reads = reads_of(sc)
        if reads is not None and reads.through != "s.z":
            return None
        name = g.facts.occupied_related(cl, cond)
        bits = self._row_bits(name) if name is not None else None
        if bits is None:
            return None
        self.walked.append(name)
        words = (self.n + _WORD - 1) // _WORD
        m, w = g.fresh("m"), g.fresh("w")
        row = f"(size_t)nn({g.expr(cl.iter.args[0], sc)}) * {words}"
        occ = f"{state(sc)}.z.occ"
        if words == 1:
            head, at = set_bits(m, f"{occ}[0] & {bits}[{row}]", self.lo)
        else:
            head, at = set_bits(m, f"{occ}[{w}_i] & {w}[{w}_i]", self.lo, (f"{w}_i", 0, f"< {words}"))
            head = f"const uint64_t* {w} = {bits} + {row}; {head}"
        return f"{{ {head}{{ const Id {var} = (Id)({at}); {CELL_ID.format(var)}{_held(sc, var)}{inside()} }} }}", None

    def _row_bits(self, name: str) -> str | None:
        """The table of each zone's row of the relation ``name`` as bits of the index
        (a word per 64 cells, as the zones' ``occ``), or None where a row holds a cell
        outside the index or is not in increasing order (the bits' order), or where no row
        holds ``_ROW`` cells (a short row's walk costs less than the bits': the four
        neighbours of a cell of a grid)."""
        tables = self.gen.tables
        rows = self.gen.ns[f"REL_{name}"]
        nz, words = self.gen.nz, (self.n + _WORD - 1) // _WORD
        per = [list(rows[z]) if z < len(rows) else [] for z in range(nz)]
        if not self.n or max(map(len, per), default=0) < _ROW or any(
                r != sorted(set(r)) or any(not self.lo <= y < self.lo + self.n for y in r) for r in per):
            return None
        body: list[str] = []
        for r in per:
            row = [0] * words
            for y in r:
                row[(y - self.lo) // _WORD] |= 1 << ((y - self.lo) % _WORD)
            body.extend(f"{x:#x}ULL" for x in row)
        return tables.table(("RELOCC", name),
                            lambda t: f"static const uint64_t {t}[{nz * words}] = {{{', '.join(body)}}};")

    def mapped(self, comp, sc: dict, t, out: str, n: str) -> str | None:
        """``[f(c) for c in cells(b)]`` whose element is a literal on an empty cell
        (core/occupancy.py, ``Facts.empty_default``: a position's ``code(c)``),
        written into ``out`` (a ``Grow``) and its length into ``n``: the literal written
        for every cell, then the element on the occupied cells alone, each at its cell's
        place; the cells counted as before. Else None."""
        g = self.gen
        found = g.facts.empty_default(comp)
        if found is None:
            return None
        board, k = found
        cl = comp.clauses[0]
        var, xs = g.fresh(cl.var), g.fresh("xs")
        inner = dict(sc)
        inner[cl.var] = (var, g.ty(cl.iter).arg)
        cells = g.p.boards.get(board) or []
        walk = self.walk(board, sc, var, lambda: f"{out}_p[{var} - {cells[0] if cells else 0}] = "
                         f"{g.expr(comp.elem, inner, t.arg)};")
        if walk is None:
            return None
        src = g.expr(cl.iter, sc, g.ty(cl.iter))
        size = g.tables.size_of(xs, src)
        work = "" if g.facts.counted(cl.iter) else f"W({counters(sc)}, {size}); "
        return (f"{{ const List<Id>& {xs} = {src}; {work}"
                f"{out}.resize({size}); auto* const {out}_p = {out}.d; "
                f"std::fill({out}_p, {out}_p + {size}, {g.ct(t.arg)}({g.expr(k, sc, t.arg)})); "
                f"{walk[0]} {n} = {size}; }}")


def set_bits(m: str, word: str, lo: int, words: tuple[str, int, str] | None = None) -> tuple[str, str]:
    """The head of a C++ loop over the bits set in the index's word ``word``, lowest
    first (``m``: the variable of the bits left), and the C++ of the cell of the bit
    walked: bit k of the word is the cell ``lo + k``. Where the bits are in more than
    one word, ``words`` = (``i``, the first word, the test that ``i`` is not past the
    last, as ``"<= 2"`` or ``"< 2"``): an outer loop over ``i``, ``word`` read at ``i``,
    bit k of word ``i`` the cell ``lo + i * 64 + k``. (Every walk of the index's bits:
    here, the relations' rows, kernel_tops.py.)"""
    bits = f"for (uint64_t {m} = {word}; {m}; {m} &= {m} - 1) "
    if words is None:
        return bits, f"{lo} + __builtin_ctzll({m})"
    i, first, test = words
    return f"for (int {i} = {first}; {i} {test}; ++{i}) {bits}", f"{lo} + {i} * {_WORD} + __builtin_ctzll({m})"


def _held(sc: dict, var: str) -> str:
    """The C++ that tells the compiler the cell ``var`` a walk of the bits set gives holds
    an item (``Zones::held``: the index is exact, as the zones keep it)."""
    return f"{state(sc)}.z.held({var}); "


def _mask(a: int, b: int) -> int:
    """The bits a..b of a word (0 <= a <= b < 64) set."""
    return ((1 << (b + 1)) - 1) & ~((1 << a) - 1)
