"""The static conditions of a kernel's loops over a board's cells (kernel.Gen.loops): where
the first conjuncts of a loop's condition read only static facts of the cell (its
coordinates and constants: ``c.row == c.col``, ``c.row + c.col == 4``), the loop walks
only the cells they let through, a table made when the kernel is written; where the
first conjunct is ``c.attr == value`` (the value not the cell's: a loop's variable, a
parameter, a number), a table of those cells by the value (``c.row == r``: the cells
of row r), the value computed once before the loop (the loop computed it for its first
cell). The work budget counts the board's cells as before, and the conjuncts left are
tested per cell in order: the same values, work and calls (interpreter/compiler/
codegen_static.py does the same for the Python fast code)."""
from __future__ import annotations

from ...dsl import ast as ir
from .kernel_types import INT

_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
_ORDER = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_BIG = 1 << 62            # a static value beyond this is left to the loop (a kernel bails near it)
_DENSE = 4096             # the most values a table by the value spans


class _Unknown(Exception):
    """A static conjunct whose value is not found here (the loop then stays as it is)."""


class CellFilters:
    """The static conditions of the loops of one program (``gen``: its kernel.Gen)."""

    def __init__(self, gen):
        self.gen = gen

    def walk(self, cl, cond, inner: dict):
        """For the last clause ``cl`` of a comprehension over ``cells(board)`` with the
        condition ``cond``: (the C++ of the cells to walk, the conjuncts left to test per
        cell, in order), or None where the condition has no static part."""
        g = self.gen
        table = g.facts.table_list(cl.iter)
        if cond is None or table is None or table[0] != "cells":
            return None
        cells = g.p.boards.get(table[1]) or []
        if not cells:
            return None
        parts = _conjuncts(cond)
        key = self._keyed(parts[0], cl.var)
        preds = []
        for part in parts[1 if key else 0:]:
            if not self._static(part, cl.var):
                break
            preds.append(part)
        if key is None and not preds:
            return None
        try:
            passing = [z for z in cells if all(self._value(p, cl.var, z) is True for p in preds)]
            keys = [] if key is None else [self._value(key[0], cl.var, z) for z in passing]
        except _Unknown:
            return None
        rest = parts[(1 if key else 0) + len(preds):]
        if key is None:
            return g.tables.id_list(("STATIC_CELLS", table[1], repr(preds)), passing), rest
        if any(k is not None and type(k) is not int for k in keys):
            return None
        fn = self._by_value(table[1], repr((key[0], preds)), passing, keys)
        if fn is None:
            return None
        return f"{fn}({g.expr(key[1], inner, INT)})", rest

    # ------------------------------------------------------------ which conjuncts
    def _keyed(self, e, var: str):
        """``c.attr == value`` (either way round) where ``c`` is the loop's variable, the
        attribute a static integer coordinate and the value an integer that does not
        depend on the cell and that the kernel computes without counting anything:
        (the static side, the value), or None."""
        if e.node != "BinOp" or e.op != "==":
            return None
        for static, value in ((e.left, e.right), (e.right, e.left)):
            if self._static(static, var) and _reads(static, var) and not _reads(value, var) \
                    and self.gen.ty(value) == INT and self._plain(value):
                return static, value
        return None

    def _static(self, e, var: str) -> bool:
        """Whether ``e`` reads only the loop variable's coordinates and constants."""
        node = e.node
        if node in ("IntLit", "BoolLit", "NoneLit"):
            return True
        if node == "Attr":
            return e.obj.node == "Var" and e.obj.name == var and e.name != "name"
        if node == "UnOp":
            return self._static(e.operand, var)
        if node == "BinOp":
            return e.op in ("and", "or", "==", "!=", *_ARITH, *_ORDER) \
                and self._static(e.left, var) and self._static(e.right, var)
        return False

    def _plain(self, e) -> bool:
        """Whether the kernel computes ``e`` without counting work or calls and without a
        loop: names, coordinates and attributes, numbers, arithmetic, a seat's number."""
        node = e.node
        if node in ("IntLit", "Var"):
            return True
        if node == "Attr":
            return self._plain(e.obj)
        if node == "UnOp":
            return e.op == "-" and self._plain(e.operand)
        if node == "BinOp":
            return e.op in _ARITH and self._plain(e.left) and self._plain(e.right)
        if node == "Call":
            return e.func == "seat" and len(e.args) == 1 and self.gen.facts.call_kind(e) == "builtin" \
                and self._plain(e.args[0])
        return False

    # ------------------------------------------------------------ their values
    def _value(self, e, var: str, z: int):
        """The value of a static expression for the cell ``z`` (Python's, as the rules
        compute it); raises _Unknown where a kernel might differ (a value out of range,
        a none in arithmetic or order, a text)."""
        node = e.node
        if node in ("IntLit", "BoolLit"):
            return e.value
        if node == "NoneLit":
            return None
        if node == "Attr":
            v = self.gen.ns.get(f"C_{e.name}", [None] * (z + 1))[z]
            return _checked(v)
        if node == "UnOp":
            v = self._value(e.operand, var, z)
            if e.op == "not":
                if type(v) is not bool:
                    raise _Unknown
                return not v
            if type(v) is not int:
                raise _Unknown
            return _checked(-v)
        a = self._value(e.left, var, z)
        if e.op in ("and", "or"):
            if type(a) is not bool:
                raise _Unknown
            if a == (e.op == "or"):
                return a
            b = self._value(e.right, var, z)
            if type(b) is not bool:
                raise _Unknown
            return b
        b = self._value(e.right, var, z)
        if e.op in ("==", "!="):
            if type(a) is not type(b) and None not in (a, b):
                raise _Unknown
            return (a == b) == (e.op == "==")
        if type(a) is not int or type(b) is not int:
            raise _Unknown
        if e.op in _ORDER:
            return _ORDER[e.op](a, b)
        return _checked(_ARITH[e.op](a, b))

    def _by_value(self, board: str, what: str, passing: list, keys: list) -> str | None:
        """A function of a value: the cells of ``passing`` whose key (``keys``, in
        order) is that value, as a static list (none has its own)."""
        ints = [k for k in keys if k is not None]
        lo, hi = (min(ints), max(ints)) if ints else (0, -1)
        if hi - lo + 1 > _DENSE:
            return None
        rows: list[list[int]] = [[] for _ in range(hi - lo + 3)]   # (then none's, then the empty list)
        for z, k in zip(passing, keys):
            rows[hi - lo + 1 if k is None else k - lo].append(z)
        tables = self.gen.tables
        arr = tables.table(("CELLS_BY", board, what), lambda t: tables._rows(t, rows)[0],
                           lambda t: tables._rows(t, rows)[1])
        none, empty = hi - lo + 1, hi - lo + 2
        return tables.table(("CELLS_BY_FN", board, what),
                            lambda t: f"static inline const List<Id>& {t}(I k) {{ "
                                      f"if (k == NONE_I) return {arr}[{none}]; "
                                      f"if (k < {lo}LL || k > {hi}LL) return {arr}[{empty}]; "
                                      f"return {arr}[k - {lo}LL]; }}")


def _checked(v):
    if v is None or type(v) is bool:
        return v
    if type(v) is not int or not -_BIG < v < _BIG:
        raise _Unknown
    return v


def _conjuncts(e) -> list:
    """The operands of a condition's top-level ``and``, in order."""
    if e.node == "BinOp" and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _reads(e, var: str) -> bool:
    """Whether ``e`` reads the name ``var``."""
    return any(n.node == "Var" and n.name == var for n in ir.walk(e))


