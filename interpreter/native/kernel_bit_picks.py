"""Cells picked by their bits: the first or last cell a static part and a test of each
cell's bit let through, and a decision's options that are such cells, or the numbers
of a range whose cells they are (a part of ``kernel.Gen``, issue 36).

A test of one cell read as a bit of the index the zones keep (cxx/kernel_zones.hpp:
``occ``, a bit per cell of the boards set while the cell holds an item, and ``tops``,
a row per value of an attribute no statement changes, core/tops.py ``cell_test``) is
read for every cell at once as a word: ``empty(c)`` is ``~occ``, ``occupied(c)``
``occ``, ``occupied(c) and top(c).A == V`` the row of V, ``empty(c) or top(c).A ==
V`` the row of V or ``~occ``; ``not``, ``and`` and ``or`` of such tests the word's
``~``, ``&`` and ``|``. With the cells a static part lets through (core/cells.py
``cells_filter``: ``c.col == k``, a row of bits by the value of k, kernel_tops.py),
the word is the set of the cells that pass, in the cells' order (the bits' order, the
board's cells a run of the zones in one word of the index):

- ``last(y for y in cells(b) if y.col == k and empty(y))`` is the highest bit set
  (the cell a piece dropped in a column lands on), ``first(...)`` the lowest;
- ``choose x from [c for c in cells(b) if empty(c)]`` draws from the bits: how many
  they are is the number of options, the one drawn the bit of its index among them, no
  list made (in a batch of random playouts, where the move is drawn in place:
  ``Proc._drawn_here``); the list, made from the bits, where the decision is put in the
  state;
- so does ``choose k from [k for k in 1..7 if empty(cell(b, row: 1, col: k))]``: a
  range of numbers written out whose cells (``cell(b, ...)`` of numbers written out and
  the range's variable) are all on the board, each number's its own, in the range's
  order; the word is then read at those cells, and the number of a bit is a table's.

The same values, work and calls as the reference: the tests count nothing and cannot
fail (a value V is computed once before, where its computing may fail as the
reference's at a cell holding an item: the kernel then leaves the move to Python); the
list's or the range's work is counted as its loop counts it. Where the zones' reads are
noted (a lasting keep), the index is more than a word or a cell is out of it, or the game
has more than twice as many items as the boards have cells (``_one_word``), the loops
run as written, and the index is kept as it was before the pass tried (``_tried``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .kernel_reads import counters, reads_of, state

_WORD = 64
# (the most items a game may have for each cell of its boards where cells are picked by
# their bits: placed about once each, _one_word)
_ITEMS_A_CELL = 2


class BitPicks:
    """``Gen``'s cells picked by their bits (see the module)."""

    if TYPE_CHECKING:
        c: Any
        p: Any
        ns: Any
        facts: Any
        occupied: Any
        tops: Any
        tables: Any
        ni: int

        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e) -> Any: ...
        def ct(self, t) -> str: ...
        def fresh(self, base: str) -> str: ...
        def charge(self, sc: dict, n: str | int) -> str: ...
        def range_size(self, it) -> int | None: ...
        def known_value(self, e, depth: int = 0): ...

    # ------------------------------------------------------------ first and last
    def bits_end(self, e, sc: dict, last: bool) -> str | None:
        """The C++ of ``e``, ``last(...)`` (``first(...)``: not ``last``) of a board's
        cells that pass a condition read as bits (see the module), or None."""
        found = self._tried(lambda: self._cells_word(e.comp, sc))
        if found is None:
            return None
        pre, word, lo = found
        m = self.fresh("bm")
        at = f"{lo + _WORD - 1} - __builtin_clzll({m})" if last else f"{lo} + __builtin_ctzll({m})"
        return f"([&]() -> Id {{ {pre}const uint64_t {m} = {word}; return {m} ? (Id)({at}) : NONE_ID; }}())"

    # ------------------------------------------------------------ options
    def option_bits(self, e, sc: dict) -> tuple[str, str, Callable[[str], str]] | None:
        """A decision's options ``e`` as bits: the C++ that counts their work and
        declares what the word needs, the word (one bit an option, in the options'
        order) and the C++ of an option given the C++ of its bit's place; or None."""
        if e.node != "Comprehension" or len(e.clauses) != 1 or e.elem.node != "Var" \
                or e.elem.name != e.clauses[0].var:
            return None
        found = self._tried(lambda: self._cells_word(e, sc))
        if found is not None:
            pre, word, lo = found
            return pre, word, lambda b: f"(Id)({lo} + {b})"
        return self._tried(lambda: self._range_word(e, sc))

    def _tried(self, make: Callable[[], Any]) -> Any:
        """``make()``, and where it is None the indexes as they were before it: the boards
        the zones' index is kept over and the top values' slots (a test read as bits
        notes them as it is written, before a later one may turn the whole down)."""
        kept = (list(self.occupied.walked), dict(self.tops.slots), self.tops.n)
        found = make()
        if found is None:
            self.occupied.walked[:] = kept[0]
            self.tops.slots, self.tops.n = kept[1], kept[2]
        return found

    def drawn_bits(self, bits: tuple[str, str, Callable[[str], str]], at: tuple, body: str) -> str:
        """``Proc._drawn_here``'s C++ for options kept as bits (``option_bits``): in a
        batch of random playouts the option of the index drawn is its bit's (``nth_set``),
        no list made; else, or where the playout stops there, the list made from the
        bits, lowest first (``drawn_in_place``; ``at`` and ``body`` as there)."""
        pre, word, value = bits
        m, r = self.fresh("om"), self.fresh("r")
        listed = (f"Build<{at[0]}> {r}_b; for (uint64_t {r} = {m}; {r}; {r} &= {r} - 1) "
                  f"{r}_b.push_back({value(f'__builtin_ctzll({r})')}); ")
        return drawn_in_place(f"{pre}const uint64_t {m} = {word};", f"(size_t)bits_set({m})",
                              value(f"nth_set({m}, i_)"), (listed, f"{r}_b.list()"), at, body)

    # ------------------------------------------------------------ the words
    def _cells_word(self, comp, sc: dict) -> tuple[str, str, int] | None:
        """For ``comp``, one clause over a board's cells whose element is its cell: the
        C++ before the word (the list's work), the word of the cells that pass, and the
        zone of its bit 0; or None."""
        if len(comp.clauses) != 1 or comp.cond is None or comp.elem.node != "Var":
            return None
        cl = comp.clauses[0]
        table = self.facts.table_list(cl.iter)
        if comp.elem.name != cl.var or table is None or table[0] != "cells" \
                or self.facts.counts_any(comp.cond) or not self._one_word(sc):
            return None
        board = table[1]
        cells = self.p.boards.get(board) or []
        lo = self.occupied.lo
        if not cells or cells != list(range(cells[0], cells[0] + len(cells))) or cells[-1] - lo >= _WORD:
            return None
        f = self.facts.cells_filter(cl, comp.cond)
        rest = f.rest if f is not None else [comp.cond]
        tests = [self._word(c, (lambda x: x.node == "Var" and x.name == cl.var, cl.var), board, sc) for c in rest]
        if not tests or any(t is None for t in tests):
            return None
        masked = self.tops.cells_mask(board, cells, f, sc, 1)
        if masked is None:
            return None
        t = self.ty(cl.iter)
        xs = self.fresh("xs")
        src = self.expr(cl.iter, sc, t)
        work = "" if self.facts.counted(cl.iter) else f"W({counters(sc)}, {self.tables.size_of(xs, src)}); "
        pre = f"{{ const {self.ct(t)}& {xs} = {src}; {work}}} "
        return pre, " & ".join([f"{masked[0]}[0]", *(f"({w})" for w in tests)]), lo

    def _range_word(self, e, sc: dict) -> tuple[str, str, Callable[[str], str]] | None:
        """``[k for k in A..B if P]``, A and B numbers written out, P read as bits of one
        cell ``cell(b, ...)`` whose coordinates are numbers written out and k, each k's
        cell on the board, one bit each, in k's order (see ``option_bits``); or None."""
        cl = e.clauses[0]
        it = cl.iter
        n = self.range_size(it) if it.node == "BinOp" and it.op == ".." else None
        if not n or n > _WORD or e.cond is None or self.facts.counts_any(e.cond) or not self._one_word(sc):
            return None
        at = _one_cell(e.cond, cl.var)
        if at is None:
            return None
        a = self.known_value(it.left)
        board = self.ty(at.board).arg
        found = [self._cell_bit(board, at, cl.var, k) for k in range(a, a + n)]
        bits = [b for b in found if b is not None]
        if len(bits) != n or bits != sorted(set(bits)):
            return None
        word = self._word(e.cond, (lambda x: x is at, cl.var), board, sc)
        if word is None:
            return None
        mask = sum(1 << b for b in bits)
        values = [0] * _WORD
        for k, b in zip(range(a, a + n), bits):
            values[b] = k
        table = self.tables.table(("BITNUMS", tuple(values)), lambda t: f"static const I {t}[{_WORD}] = "
                                  f"{{{', '.join(f'{v}LL' for v in values)}}};")
        return self.charge(sc, n), f"({word}) & {mask:#x}ULL", lambda b: f"{table}[{b}]"

    def _cell_bit(self, board: str, at, var: str, k: int) -> int | None:
        """The bit of the cell ``at`` (a ``cell(b, ...)``) where ``var`` is ``k``, or
        None where it is no cell of the board in the index's word."""
        want = []
        for a in at.coords:
            x = a.value
            v = k if x.node == "Var" and x.name == var else self.known_value(x) if x.node == "IntLit" else None
            if type(v) is not int:
                return None
            want.append((a.name, v))
        for z in self.p.boards.get(board) or []:
            if all((self.ns["CELL_NAME"] if name == "name" else self.ns[f"C_{name}"])[z] == v for name, v in want):
                b = z - self.occupied.lo
                return b if 0 <= b < _WORD else None
        return None

    def _one_word(self, sc: dict) -> bool:
        """Whether the index is one word, the zones' reads are not noted, and the game has
        at most twice as many items as the boards have cells. (The index is kept by every
        move of an item to or from a cell: a word written, a zone's size tested. Where a
        game has about as many items as its boards have cells, each is placed about once,
        discs dropped, marks made from a supply a few more than the cells: the picks took
        0.83 of a game of dropped discs' time. Where they are several a cell, they move
        among the cells at every turn, seeds sown, four a pit: with the index a sowing
        game's moves went out of line, 35% more branches mispredicted, for a pick among
        six pits; there the cells are walked as before, docs/performance.md.)"""
        reads = reads_of(sc)
        return (reads is None or reads.through == "s.z") and 0 < self.occupied.n <= _WORD \
            and self.ni <= _ITEMS_A_CELL * self.occupied.n

    def _word(self, e, cell: tuple[Callable[[Any], bool], str], board: str, sc: dict) -> str | None:
        """The C++ of the word of the cells that pass ``e``, a test of the cell that
        ``cell[0]`` tells (see the module), its value naming no ``cell[1]`` (the loop's
        variable); or None."""
        st = state(sc)
        is_cell, var = cell
        if e.node == "UnOp" and e.op == "not":
            w = self._word(e.operand, cell, board, sc)
            return None if w is None else f"~({w})"
        if e.node == "Call" and e.func in ("empty", "occupied") and len(e.args) == 1 \
                and self.c.calls_builtin(e.func) and is_cell(e.args[0]):
            self.occupied.keep(board)
            return f"{'~' if e.func == 'empty' else ''}{st}.z.occ[0]"
        if e.node != "BinOp" or e.op not in ("and", "or"):
            return None
        found = self.facts.cell_test(e)
        if found is not None:
            x, tv, either = found
            if not is_cell(x) or tv.mutable or tv.env is not None \
                    or any(n.node == "Var" and n.name == var for n in ir.walk(tv.value)):
                return None
            slot = self.tops.slot_of(tv, board)
            if slot is None:
                return None
            self.occupied.keep(board)
            row = f"{st}.z.tops_of({slot}({self.tops.value_of(tv, sc)}))[0]"
            return f"~{st}.z.occ[0] | {row}" if either else row
        left, right = (self._word(x, cell, board, sc) for x in (e.left, e.right))
        if left is None or right is None:
            return None
        return f"({left}) {'&' if e.op == 'and' else '|'} ({right})"


def drawn_in_place(make: str, size: str, pick: str, listing: tuple[str, str], at: tuple, body: str) -> str:
    """The C++ of a decision of one seat whose options are made here (kernel.py
    ``Proc._drawn_here``): ``make`` makes them, ``size`` is how many, ``pick`` the option
    ``i_``, ``listing`` the C++ that lists them and the list's expression. In a batch of
    random playouts (AUTO) the move is drawn from them (``auto_pick``) and the procedure
    goes on at its next instruction; where the playout stops there, the list is put in
    the state and the procedure returns; elsewhere ``body`` puts ``all_`` in the state.
    ``at``: the options' C++ type, the decision's site, the options' slot, the local's
    field, the next instruction and the chooser's C++."""
    ce, k, o, field, nxt, who = at
    pre, listed = listing
    kept = "" if listed == "all_" else f"{pre}List<{ce}> all_ = {listed}; "
    return (f"{{ {make} Id who_ = {who}; if (who_ < 0 || who_ >= NP) bail(); "
            f"if (AUTO) {{ const size_t n_ = {size}; if (n_ == 0) bail(); s.site = {k}; s.player = who_; "
            f"STEP(s); f->pc = {nxt}; const int i_ = auto_pick(s, n_); "
            f"if (i_ >= 0) {{ f->{field} = {pick}; s.site = -1; s.player = -1; "
            f"auto_renew(s); goto I{nxt}; }} {pre}s.opts.{o} = {listed}; return; }} "
            f"{kept}{body} s.site = {k}; s.player = who_; }} "
            f"STEP(s); f->pc = {nxt}; if (AUTO && auto_take(s)) goto I{nxt}; return;")


def _one_cell(e, var: str):
    """The one ``cell(b, ...)`` the tests of ``e`` read, naming ``var`` (each read of a
    cell the same node), or None."""
    found = [n for n in ir.walk(e) if n.node == "CellAt"]
    if not found or any(n is not found[0] for n in found):
        return None
    return found[0] if any(n.node == "Var" and n.name == var for n in ir.walk(found[0])) else None
