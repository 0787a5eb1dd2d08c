"""Loops over a board's cells that only cells whose top item has one value of a static
attribute can pass (a part of ``facts.Facts``, its methods on the facts' state):
``[c for c in cells(b) if own(c, me)]`` with ``own(c, me) = occupied(c) and
top(c).colour == me``, ``count(c for c in cells(b) if c.row == r and mine(c, p))``.

A condition that is ``occupied(c) and top(c).A == V`` (or ``not empty(c)``, or ``V ==
top(c).A``) of the loop's cell, where ``A`` is an attribute of the top item's kind that no
statement changes (no ``var`` of the kind: an item gets it in its deck, the checker
forbids assigning it) and ``V`` is harmless (``Inline.harmless``: it cannot fail and
counts nothing) and names no loop's cell; or ``X and ...`` where X is so; or ``H and Y``
where H is harmless and Y so; or a call of a rule function whose body is so for the
parameter given the cell (its calls not counted, its arguments harmless, the parameters
V names given a name or a literal), is false on every cell whose top item has another
value of A (or that is empty), and evaluating it there reads nothing that counts or
fails. An engine that keeps, per value of A, the cells whose top item has it (the
kernel: a bit per cell, native/kernel_tops.py) may then walk those cells alone, in the
cells' order, V computed once before the loop: the same elements, values, work and
calls as the reference (the board's cells counted as before, the list's length). Where
the condition is exactly the first form (through calls), it holds on those cells and no
other: a count of the loop's cells (``count``, ``any``) is how many the index holds.

The static conjuncts before it (core/cells.py, ``cells_filter``: ``c.row == r``) are left
to that pass: ``top_value`` is asked of the conjuncts it leaves.

``cell_test`` finds one cell's test of its top's value outside a loop (``occupied(X) and
top(X).A == V``, or ``empty(X) or top(X).A == V``: a walk's stop), where A may also be
an item variable, for an engine that keeps the index as statements set it (the kernel's
``IDX_``, native/kernel_tops.py)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir

# the types of the attributes an index is kept by (a value a table of the items holds)
_TYPES = ("int", "bool", "enum")
_SIMPLE = ("Var", "IntLit", "BoolLit")


@dataclass(frozen=True, eq=False)
class TopValue:
    """The top item's attribute ``attr`` (of the kind ``kind``, its type ``at``) has the
    value ``value`` on every cell that passes the condition (see the module): ``value``
    an expression of the loop's scope where ``env`` is None, else of a rule function's
    body, ``env`` each of its parameters' expression in the loop's scope (a name or a
    literal; None: not so, V names none of them). ``exact``: the condition holds exactly
    on those cells."""
    kind: str
    attr: str
    at: Any
    value: Any
    env: dict | None
    exact: bool
    mutable: bool = False   # (A an item variable: statements change it)


class Tops:
    """Facts' methods for the loops over the cells whose top item has a value."""

    if TYPE_CHECKING:
        c: Any

        def harmless(self, e) -> bool: ...
        def _looked_into(self, e, depth: int): ...
        def _zone_test(self, e, func: str, var: str) -> bool: ...

    def top_value(self, cond, var: str, mutable: bool = False) -> TopValue | None:
        """For a condition ``cond`` of the loop whose cell ``var`` names: what every cell
        that passes it has at its top (see the module), or None. ``mutable``: A may be
        an item variable too (an engine that keeps its index as statements set it)."""
        return self._top_value(cond, var, 0, None, mutable)

    def _top_value(self, e, var: str, depth: int, env: dict | None, mutable: bool = False) -> TopValue | None:
        node = e.node
        if node == "BinOp" and e.op == "and":
            left = e.left
            if self._zone_test(left, "occupied", var) or (
                    left.node == "UnOp" and left.op == "not" and self._zone_test(left.operand, "empty", var)):
                found = self._equal_on_top(e.right, var, env, mutable)
                if found is not None:
                    return found
            found = self._top_value(left, var, depth, env, mutable)
            if found is None and self.harmless(left):
                found = self._top_value(e.right, var, depth, env, mutable)
            return replace(found, exact=False) if found is not None else None
        if node != "Call":
            return None
        fd = self._looked_into(e, depth)   # (a rule function's call, not deeper than core/occupancy.py's _DEPTH)
        if fd is None:
            return None
        for q, a in zip(fd.params, e.args):
            if a.node == "Var" and a.name == var:
                inner = {p.name: self._outer(b, env) for p, b in zip(fd.params, e.args) if p is not q}
                return self._top_value(fd.body, q.name, depth + 1, inner, mutable)
        return None

    def cell_test(self, e) -> tuple[Any, TopValue, bool] | None:
        """One cell's test of its top item's value, ``occupied(X) and top(X).A == V``
        (or ``not empty(X) and ...``; ``V == top(X).A``) or ``empty(X) or top(X).A == V``
        (or ``not occupied(X) or ...``), X a name of a cell or ``last``/``first`` of a
        name (evaluated once: it counts nothing, and fails where its first evaluation
        fails), A static or an item variable, V as in ``top_value``: (X, the
        ``TopValue``, whether the test is the ``or``'s, true where X is empty too), or
        None."""
        if e.node != "BinOp" or e.op not in ("and", "or"):
            return None
        test, other = ("occupied", "empty") if e.op == "and" else ("empty", "occupied")
        left = e.left
        x = self._zone_of(left, test)
        if x is None and left.node == "UnOp" and left.op == "not":
            x = self._zone_of(left.operand, other)
        if x is None or not self._evaluated_once(x):
            return None
        found = self._equal_on_top(e.right, x, None, True)
        return None if found is None else (x, found, e.op == "or")

    def _zone_of(self, e, func: str):
        """The cell of ``e``, the built-in ``func`` (``occupied``, ``empty``) of a cell,
        or None."""
        if e.node == "Call" and e.func == func and len(e.args) == 1 and self.c.calls_builtin(func) \
                and self.c.type_of(e.args[0]).tag == "cell":
            return e.args[0]
        return None

    def _evaluated_once(self, x) -> bool:
        """Whether the cell ``x`` may be evaluated once where it is written twice: a
        name, or ``last``/``first`` of a name (no work, no call counted)."""
        if x.node == "Call" and x.func in ("last", "first") and self.c.calls_builtin(x.func) and len(x.args) == 1:
            x = x.args[0]
        return x.node == "Var" and x.name not in self.c.functions

    def _outer(self, a, env: dict | None):
        """The expression of the loop's scope an argument ``a`` is, or None where it is not
        a name or a literal (of the loop's scope, or a parameter so)."""
        if a.node not in _SIMPLE:
            return None
        if a.node == "Var" and env is not None and a.name in env:
            return env[a.name]
        return a

    def _equal_on_top(self, e, var, env: dict | None, mutable: bool = False) -> TopValue | None:
        """``top(var).A == V`` (or ``V == top(var).A``) with A static (or, ``mutable``,
        an item variable of a kind that has no static A) and V harmless, naming no loop's
        cell, nor a parameter not given a name or a literal (see the module). ``var``: the
        cell's name, or its expression (``cell_test``)."""
        if e.node != "BinOp" or e.op != "==":
            return None
        for side, value in ((e.left, e.right), (e.right, e.left)):
            if not self._of_top(side, var):
                continue
            kind = self.c.type_of(side.obj)
            at = self.c.type_of(side)
            if kind.tag != "item" or at.tag not in _TYPES or self.c.type_of(value) != at \
                    or not (self.harmless(value) or self._seat_of_name(value)):
                return None
            variable = side.name in self.c.item_vars.get(kind.arg, {})
            if variable and not (mutable and self._variable_alone(side.name)):
                return None
            named = [n for n in ir.walk(value) if n.node == "Var"]
            own = {n.name for n in ir.walk(var) if n.node == "Var"} if not isinstance(var, str) else {var}
            if any(n.name in own or (env is not None and n.name in env and env[n.name] is None) for n in named):
                return None
            if any(self.c.type_of(n).tag == "cell" for n in named):
                return None   # (a cell of a loop around: its value is the loop's)
            return TopValue(kind.arg, side.name, at, value, env, True, variable)
        return None

    def _variable_alone(self, attr: str) -> bool:
        """Whether no kind has a static attribute ``attr`` (an item variable's index holds
        the variable's values alone)."""
        return not any(attr in fs and attr not in self.c.item_vars.get(k, {}) for k, fs in self.c.kinds.items())

    def _seat_of_name(self, e) -> bool:
        """``seat(N)`` of a name of a player: it counts nothing and fails only where N is
        none, where the reference fails too at the first cell that has a top item (an
        engine that computes it before the loop leaves such a move to the reference: the
        kernel bails)."""
        return e.node == "Call" and e.func == "seat" and self.c.calls_builtin("seat") and len(e.args) == 1 \
            and e.args[0].node == "Var" and self.c.type_of(e.args[0]).tag == "player"

    def _of_top(self, e, var) -> bool:
        """Whether ``e`` is an attribute of ``top(var)`` (``var``: a name, or an
        expression, the same as written)."""
        o = e.obj if e.node == "Attr" else None
        if o is None or o.node != "Call" or o.func != "top" or not self.c.calls_builtin("top") or len(o.args) != 1:
            return False
        if isinstance(var, str):
            return o.args[0].node == "Var" and o.args[0].name == var
        return ir.show(o.args[0]) == ir.show(var)

