"""Loops over a board's cells that only its occupied cells can pass, or only its empty
ones (a part of ``facts.Facts``, its methods on the facts' state): ``[c for c in cells(b)
if own(c, me)]``, ``first(c for c in cells(b) if is(c, me, king))``, ``count(...)``,
``any(...)``...; ``[c for c in cells(b) if legal(c, me)]`` where ``legal(c, s) =
empty(c) and ...`` (othello's places).

A condition whose first conjunct is ``occupied(c)`` (or ``not empty(c)``) of the loop's
cell, or a call of a rule function whose body's first conjunct is so for the parameter
given the cell (``own(c, me) = occupied(c) and top(c).colour == me``; and so on through
calls), or ``X or Y`` where both are so, is false on an empty cell, and evaluating it
there reads the cell's emptiness and nothing else that counts or fails: the arguments of
each such call are harmless (``Inline.harmless``: they cannot fail and count nothing)
and none of those functions counts its calls (``counts_calls``). An engine may then walk
the occupied cells alone, in the cells' order, as an index of them gives them (the
kernel: a bit per cell, native/kernel_occupancy.py): the same elements in the same order,
the same values, and, the board's cells counted as before (the length of the list
walked, docs/language.md 15.3), the same work and calls, the empty cells' tests counting
none. The same holds with ``empty(c)`` (or ``not occupied(c)``) first: the condition is
false on an occupied cell, and the empty cells alone are walked (the bits clear)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

# calls of rule functions followed into their bodies at most (none calls itself: a call
# that counts its calls is never followed)
_DEPTH = 16


class Occupancy:
    """Facts' methods for the loops over a board's cells that only occupied ones pass."""

    if TYPE_CHECKING:
        c: Any

        @property
        def counts_calls(self) -> set[str]: ...
        def table_list(self, e) -> tuple[str, str] | None: ...
        def call_kind(self, e) -> str: ...
        def harmless(self, e) -> bool: ...

    def occupied_only(self, cl, cond) -> str | None:
        """For the last clause ``cl`` of a comprehension over ``cells(board)`` with the
        condition ``cond``: the board where the condition is false on every empty cell, its
        evaluation there counting nothing and failing nowhere (see the module); else
        None."""
        found = self.cells_only(cl, cond)
        return found[0] if found is not None and found[1] else None

    def cells_only(self, cl, cond) -> tuple[str, bool] | None:
        """For the last clause ``cl`` of a comprehension over ``cells(board)`` with the
        condition ``cond``: (the board, True) where only its occupied cells can pass the
        condition, (the board, False) where only its empty ones can, the condition's
        evaluation on the others counting nothing and failing nowhere (see the module);
        else None."""
        table = self.table_list(cl.iter)
        if cond is None or table is None or table[0] != "cells":
            return None
        for occupied in (True, False):
            if self._false_when(cond, cl.var, occupied, 0):
                return table[1], occupied
        return None

    def _false_when(self, e, var: str, occupied: bool, depth: int) -> bool:
        """Whether ``e``, evaluated first thing, is false where the cell ``var`` names is
        empty (``occupied``: only occupied cells pass; else where it is occupied), having
        evaluated nothing that counts or fails: ``occupied(var)``, ``not empty(var)``
        (``empty(var)``, ``not occupied(var)``), ``X and ...`` where X is so, ``X or Y``
        where both are, a call of a rule function so for the parameter given ``var``, its
        arguments harmless."""
        node = e.node
        if node == "BinOp" and e.op == "and":
            return self._false_when(e.left, var, occupied, depth)
        if node == "BinOp" and e.op == "or":
            return self._false_when(e.left, var, occupied, depth) and self._false_when(e.right, var, occupied, depth)
        if node == "UnOp" and e.op == "not":
            return self._zone_test(e.operand, "empty" if occupied else "occupied", var)
        if node != "Call":
            return False
        if self.call_kind(e) == "builtin":
            return self._zone_test(e, "occupied" if occupied else "empty", var)
        fd = self.c.functions.get(e.func)
        if fd is None or depth >= _DEPTH or e.func in self.counts_calls or len(fd.params) != len(e.args) \
                or not all(self.harmless(a) for a in e.args):
            return False
        return any(a.node == "Var" and a.name == var and self._false_when(fd.body, q.name, occupied, depth + 1)
                   for q, a in zip(fd.params, e.args))

    def _zone_test(self, e, func: str, var: str) -> bool:
        """Whether ``e`` is the built-in ``func`` (``occupied``, ``empty``) of the cell
        ``var`` names."""
        return e.node == "Call" and e.func == func and len(e.args) == 1 and self.c.calls_builtin(func) \
            and e.args[0].node == "Var" and e.args[0].name == var and self.c.type_of(e.args[0]).tag == "cell"
