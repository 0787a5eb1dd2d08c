"""The checker's part for the operators of expressions (``OperatorChecks``, a base of
``check.Checker``): each operator's type by its operation's type rule in the table of
operators (dsl/operators.py: which operation a symbol is, the types its operands must
have, its result, what a message calls a wrong operand)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors, operators
from .operators import Operator
from .types import NONE, T, compatible, unify

if TYPE_CHECKING:
    from .errors import Diagnostics


def _fixed(t: T | None) -> T:
    """A type the table gives (an operand's or a result's, where its rule needs one)."""
    if t is None:
        raise AssertionError("dsl/operators.py: a rule that needs a type without one")
    return t


class OperatorChecks:
    """The type rules of ``UnOp``, ``BinOp`` and ``CondExpr``, for ``check.Checker``."""

    if TYPE_CHECKING:  # (the Checker's, dsl/check.py)
        d: Diagnostics

        def expr(self, e, env) -> T: ...
        def _expect(self, e, env, want: T, context: str) -> T: ...
        def _want(self, node, got: T, want: T, ctx: str) -> None: ...

    def _operator(self, e, env) -> T:
        """The type of an operator: its operation's (chosen by its operands' types where
        its symbol has several), by that operation's type rule."""
        symbol = "?" if e.node == "CondExpr" else e.op
        ops = operators.SHAPES[e.node, symbol]
        rule = ops[0].rule
        if rule == "each":    # (its operands checked one by one, as they are found)
            return self._each(ops[0], e, env)
        if rule == "cond":
            return self._cond(ops[0], e, env)
        parts = operators.operands(e)
        types = [self.expr(x, env) for x in parts]
        op = operators.choose(ops, types)
        if op is None:
            got = types[ops[0].by]
            if not got.is_error:
                self.d.add(errors.type_mismatch(parts[ops[0].by].span, f"'{symbol}'",
                                                operators.wanted(e.node, symbol), str(got)))
            return _fixed(ops[0].result)
        if op.rule == "both":
            for x, got, want in zip(parts, types, op.operands):
                self._want(x, got, _fixed(want), op.context)
            return _fixed(op.result)
        return _RULES[op.rule](self, op, e, types, op.context)

    def _each(self, op: Operator, e, env) -> T:
        for x, want in zip(operators.operands(e), op.operands):
            self._expect(x, env, _fixed(want), op.context)
        return _fixed(op.result)

    def _cond(self, op: Operator, e, env) -> T:
        """``if C then A else B``: C a bool, A and B of one type (the first's where not)."""
        self._expect(e.cond, env, _fixed(op.operands[0]), op.context)
        a, b = self.expr(e.then, env), self.expr(e.other, env)
        u = unify(a, b)
        if u is None:
            self.d.add(errors.type_mismatch(e.other.span, "the 'else' branch", str(a), str(b)))
            return a
        return u

    def _equal(self, op: Operator, e, types: list[T], context: str) -> T:
        """``==``, ``!=``: two values of one type, or anything and none (first, last, top...)."""
        a, b = types
        if NONE not in (a, b) and not compatible(a, b) and not compatible(b, a):
            self.d.add(errors.type_mismatch(e.right.span, context, str(a), str(b)))
        return _fixed(op.result)

    def _member(self, op: Operator, e, types: list[T], context: str) -> T:
        """``x in LIST``: ``x`` of the list's elements' type (or they of its)."""
        a, el = types[0], types[1].arg
        if isinstance(el, T) and not compatible(el, a) and not compatible(a, el):
            self.d.add(errors.type_mismatch(e.left.span, context, str(el), str(a)))
        return _fixed(op.result)

    def _located(self, op: Operator, e, types: list[T], context: str) -> T:
        """``item in PLACE``: an item, in a zone or on a cell."""
        a = types[0]
        if a.tag != "item" and not a.is_error:
            self.d.add(errors.type_mismatch(e.left.span, context, "an item", str(a)))
        return _fixed(op.result)

    def _join(self, op: Operator, e, types: list[T], context: str) -> T:
        """``xs + ys``: two lists of one type (the left's where not)."""
        a, b = types
        u = unify(a, b) if b.tag == "list" else None
        if u is None:
            self.d.add(errors.type_mismatch(e.right.span, context, str(a), str(b)))
            return a
        return u


_RULES = {"equal": OperatorChecks._equal, "member": OperatorChecks._member,
          "located": OperatorChecks._located, "join": OperatorChecks._join}
# (every rule of the table has its checker: tests/test_operators.py)
RULES = frozenset({"each", "both", "cond", *_RULES})
