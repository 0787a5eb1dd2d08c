"""A kernel's loops over a board's cells by the static part of their condition
(kernel.Gen.loops): the core's pass finds it (core/cells.py, ``Facts.cells_filter``:
the conjuncts that read only static facts of the cell, the cells they let through, by
the value of a keyed conjunct ``c.attr == value``); this prints the table of those
cells, or the function of the value that gives them, the value computed once before
the loop. The work budget counts the board's cells as before, and the conjuncts left
are tested per cell in order."""
from __future__ import annotations

from .kernel_types import INT

_DENSE = 4096             # the most values a table by the value spans


def rows_by_value(passing: list, keys: list) -> tuple[int, int, list[list[int]]] | None:
    """The cells of ``passing`` by their key's value (``keys``, in order): the least
    value, the most, and a row of cells per value from the least, then none's row, then
    an empty row (a value out of range); None where the values span more than _DENSE."""
    ints = [k for k in keys if k is not None]
    lo, hi = (min(ints), max(ints)) if ints else (0, -1)
    if hi - lo + 1 > _DENSE:
        return None
    rows: list[list[int]] = [[] for _ in range(hi - lo + 3)]
    for z, k in zip(passing, keys):
        rows[hi - lo + 1 if k is None else k - lo].append(z)
    return lo, hi, rows


class CellFilters:
    """The static conditions of the loops of one program (``gen``: its kernel.Gen)."""

    def __init__(self, gen):
        self.gen = gen

    def walk(self, cl, cond, inner: dict):
        """For the last clause ``cl`` of a comprehension over ``cells(board)`` with the
        condition ``cond``: (the C++ of the cells to walk, the conjuncts left to test per
        cell, in order), or None where the condition has no static part."""
        g = self.gen
        f = g.facts.cells_filter(cl, cond)
        if f is None:
            return None
        if f.by_seat is not None:
            return f"{self._by_seat(f)}({g.expr(f.seat_of, inner, g.ty(f.seat_of))})", f.rest
        if f.key is None:
            return g.tables.id_list(("STATIC_CELLS", f.board, repr(f.preds)), f.passing), f.rest
        fn = self._by_value(f.board, repr((f.key[0], f.preds)), f.passing, f.keys)
        if fn is None:
            return None
        return f"{fn}({g.expr(f.key[1], inner, INT)})", f.rest

    def longest(self, cl, cond) -> int | None:
        """The most cells ``walk`` may give for the clause and condition (of any value
        or seat), or None where it gives none."""
        f = self.gen.facts.cells_filter(cl, cond)
        if f is None:
            return None
        if f.by_seat is not None:
            return max((len(r) for r in f.by_seat), default=0)
        if f.key is None:
            return len(f.passing)
        ints = [k for k in f.keys if k is not None]
        return max(max((ints.count(k) for k in set(ints)), default=0), len(f.keys) - len(ints))

    def _by_seat(self, f) -> str:
        """A function of a player: the cells of ``f.by_seat`` for its seat, as a static
        list; a player who is none or no seat bails (the rules' own error: Python's)."""
        rows = [list(r) for r in f.by_seat]
        tables = self.gen.tables
        what = repr(("seat", f.preds))
        arr = tables.table(("CELLS_BY_SEAT", f.board, what), lambda t: tables._rows(t, rows)[0],
                           lambda t: tables._rows(t, rows)[1])
        return tables.table(("CELLS_BY_SEAT_FN", f.board, what),
                            lambda t: f"static inline const List<Id>& {t}(Id k) {{ "
                                      f"if (k < 0 || k >= {len(rows)}) bail(); return {arr}[k]; }}")

    def _by_value(self, board: str, what: str, passing: list, keys: list) -> str | None:
        """A function of a value: the cells of ``passing`` whose key (``keys``, in
        order) is that value, as a static list (none has its own)."""
        by = rows_by_value(passing, keys)
        if by is None:
            return None
        lo, hi, rows = by
        tables = self.gen.tables
        arr = tables.table(("CELLS_BY", board, what), lambda t: tables._rows(t, rows)[0],
                           lambda t: tables._rows(t, rows)[1])
        none, empty = hi - lo + 1, hi - lo + 2
        return tables.table(("CELLS_BY_FN", board, what),
                            lambda t: f"static inline const List<Id>& {t}(I k) {{ "
                                      f"if (k == NONE_I) return {arr}[{none}]; "
                                      f"if (k < {lo}LL || k > {hi}LL) return {arr}[{empty}]; "
                                      f"return {arr}[k - {lo}LL]; }}")
