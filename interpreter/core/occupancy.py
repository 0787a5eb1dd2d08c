"""Loops over a board's cells that only its occupied cells can pass (a part of
``facts.Facts``, its methods on the facts' state): ``[c for c in cells(b) if own(c, me)]``,
``first(c for c in cells(b) if is(c, me, king))``, ``count(...)``, ``any(...)``...

A condition whose first conjunct is ``occupied(c)`` (or ``not empty(c)``) of the loop's
cell, or a call of a rule function whose body's first conjunct is so for the parameter
given the cell (``own(c, me) = occupied(c) and top(c).colour == me``; and so on through
calls), or that follows conjuncts that are harmless (``s != b and is(s, by, knight)``),
is false on an empty cell, and evaluating it there reads the cell's emptiness
and nothing else that counts or fails: the arguments of each such call are harmless
(``Inline.harmless``: they cannot fail and count nothing) and none of those functions
counts its calls (``counts_calls``). An engine may then walk the occupied cells alone,
in the cells' order, as an index of them gives them (the kernel: a bit per cell,
native/kernel_occupancy.py): the same elements in the same order, the same values, and,
the board's cells counted as before (the length of the list walked, docs/language.md
15.3), the same work and calls, the empty cells' tests counting none. So may a loop over
the row of a relation of two cells (``for s in straight(k) if occupied(s)``, an ``any``'s
element so where it has no condition: ``any(s != b and is(s, by, knight) for s in
knight_jump(k))``), its row's cells in their order (``occupied_related``). So too, where
the first conjunct is ``empty(c)`` (or ``not occupied(c)``), for the empty cells alone."""
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

    def occupied_only(self, cl, cond, occupied: bool = True) -> str | None:
        """For the last clause ``cl`` of a comprehension over ``cells(board)`` with the
        condition ``cond``: the board where the condition is false on every empty cell, its
        evaluation there counting nothing and failing nowhere (see the module); else
        None. ``occupied`` false: where it is so on every occupied cell (``empty(c) and
        ...``, a placing rule's ``legal(c, k)``: only empty cells pass)."""
        table = self.table_list(cl.iter)
        if cond is None or table is None or table[0] != "cells":
            return None
        return table[1] if self._false_when_empty(cond, cl.var, 0, occupied) else None

    def occupied_related(self, cl, cond) -> str | None:
        """For the last clause ``cl`` of a comprehension over ``REL(x)``, the row of a
        relation of two cells (``x`` harmless), with the condition ``cond``: the relation
        where the condition is false on every empty cell, as ``occupied_only``; else None."""
        table = self.table_list(cl.iter)
        if cond is None or table is None or table[0] != "relation" or not self.harmless(cl.iter.args[0]):
            return None
        return table[1] if self._false_when_empty(cond, cl.var, 0) else None

    def empty_default(self, comp):
        """For a comprehension of one loop over ``cells(board)`` with no condition, whose
        element, evaluated first thing on an empty cell, is a literal having evaluated
        nothing that counts or fails (``if empty(c) then 0 else ...``, or a call of a
        rule function so for the parameter given the cell: a position's ``code(c)``): the board
        and that literal; else None. An engine may then write the literal for every cell
        and evaluate the element on the occupied cells alone, in the cells' order: the
        same list, work and calls (the board's cells counted as before)."""
        if comp.cond is not None or len(comp.clauses) != 1:
            return None
        cl = comp.clauses[0]
        table = self.table_list(cl.iter)
        if table is None or table[0] != "cells":
            return None
        k = self._literal_when_empty(comp.elem, cl.var, 0)
        return (table[1], k) if k is not None else None

    def _literal_when_empty(self, e, var: str, depth: int):
        """The literal ``e`` is where the cell ``var`` names is empty, evaluated first
        thing (see ``empty_default``), or None."""
        if e.node == "CondExpr":
            ok = self._zone_test(e.cond, "empty", var) and e.then.node in ("IntLit", "BoolLit", "NoneLit")
            return e.then if ok else None
        if e.node != "Call" or self.call_kind(e) != "function":
            return None
        fd = self._looked_into(e, depth)
        if fd is None:
            return None
        for q, a in zip(fd.params, e.args):
            if a.node == "Var" and a.name == var:
                return self._literal_when_empty(fd.body, q.name, depth + 1)
        return None

    def _false_when_empty(self, e, var: str, depth: int, occupied: bool = True) -> bool:
        """Whether ``e``, evaluated first thing, is false where the cell ``var`` names is
        empty, having evaluated nothing that counts or fails: ``occupied(var)``, ``not
        empty(var)``, ``X and ...`` where X is so, a call of a rule function so for the
        parameter given ``var``, its arguments harmless; ``H and Y`` where H is harmless
        and Y so; ``X or Y`` where both are so. ``occupied`` false: where it is occupied (``empty(var)``, ``not
        occupied(var)``...)."""
        node = e.node
        yes, no = ("occupied", "empty") if occupied else ("empty", "occupied")
        if node == "BinOp" and e.op == "and":   # (after a harmless left: false all the same)
            return self._false_when_empty(e.left, var, depth, occupied) or (
                self.harmless(e.left) and self._false_when_empty(e.right, var, depth, occupied))
        if node == "BinOp" and e.op == "or":   # (both sides false there: so is the or)
            return self._false_when_empty(e.left, var, depth, occupied) and \
                self._false_when_empty(e.right, var, depth, occupied)
        if node == "UnOp" and e.op == "not":
            return self._zone_test(e.operand, no, var)
        if node != "Call":
            return False
        if self.call_kind(e) == "builtin":
            return self._zone_test(e, yes, var)
        fd = self._looked_into(e, depth)
        if fd is None:
            return False
        return any(a.node == "Var" and a.name == var and self._false_when_empty(fd.body, q.name, depth + 1, occupied)
                   for q, a in zip(fd.params, e.args))

    def _looked_into(self, e, depth: int):
        """The rule function the call ``e`` (at ``depth`` calls within) calls, where its
        body may be looked into as if written in place: not deeper than ``_DEPTH``, its
        calls not counted, its arguments harmless, one for each parameter; else None."""
        fd = self.c.functions.get(e.func)
        if fd is None or depth >= _DEPTH or e.func in self.counts_calls or len(fd.params) != len(e.args) \
                or not all(self.harmless(a) for a in e.args):
            return None
        return fd

    def _zone_test(self, e, func: str, var: str) -> bool:
        """Whether ``e`` is the built-in ``func`` (``occupied``, ``empty``) of the cell
        ``var`` names."""
        return e.node == "Call" and e.func == func and len(e.args) == 1 and self.c.calls_builtin(func) \
            and e.args[0].node == "Var" and e.args[0].name == var and self.c.type_of(e.args[0]).tag == "cell"
