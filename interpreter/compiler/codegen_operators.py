"""Operators in the Python code (a part of codegen.ExprCompiler): each written by the
Python form of its operation in the one table of operators (interpreter/core/operators.py,
``resolve`` chooses it), its operands' texts written by the compiler in the order it
writes them (a conditional's, an ``and``'s: codegen.ExprCompiler._CondExpr, _test). On
top of the forms, the fast code's passes: a product, quotient or remainder of ints whose
bounds it knows written without a helper (codegen_calls ``_plain``), a negated number
written out kept a number (codegen_base ``negated``), a value that takes work computed
once (``_pure``); what a form reads of R, or gives it, noted (``_r``, ``_gives``)."""
from __future__ import annotations

from ..core.operators import PyOp, resolve
from ..core.primitives import emit
from .codegen_base import CompilerPart, Env, negated

# the fast code's forms of an operation whose bounds it knows (codegen_calls, _plain)
_PLAIN = {"mul": "({0} * {1})", "div": "({0} // {1})", "mod": "({0} % {1})"}


class _Tables:
    """The texts of R's tables a form reads (``{R.t}``), marked while the statement form
    is printed (ExprCompiler._table)."""

    def __init__(self, cg):
        self.cg = cg

    def __getattr__(self, t: str) -> str:
        return self.cg._table(t)


class CodeOperators(CompilerPart):
    """ExprCompiler's writing of an operator (see the module)."""

    def _op(self, e, env: Env, args: list[str]) -> str:
        """The code of the operator ``e``, its operands' code ``args``."""
        op = resolve(e, self.ty)
        plain = _PLAIN.get(op.name) if op.costly and self._plain(e, env) else None
        text = emit(plain or op.python, PyOp(self, op, e, args, _Tables(self)))
        if op.name == "neg":   # (the same text, a number where the operand is one)
            return negated(args[0])
        if op.gives_r:
            return self._gives(text)
        if op.reads_r:
            return self._r(text)
        return self._pure(e, env, text) if op.costly else text
