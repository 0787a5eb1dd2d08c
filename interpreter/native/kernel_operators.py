"""Operators in a kernel's expressions (a part of ``kernel.Gen``): each written by the C++
form of its operation in the one table of operators (interpreter/core/operators.py),
after the passes that write some of them better: ``and`` of an occupancy test
(kernel_early.py) and the reads its left notes for its right (kernel_reads.py), a count
compared early (kernel_early.py), a range of numbers written out made once
(kernel_unroll.py), lists joined once (kernel_fold.py), the arithmetic of ints written
plain where core/bounds.py knows the result within range (no overflow to check), and
texts joined in one call (``text_chain``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl.types import T
from ..core.operators import CxxOp, Operator, resolve
from ..core.primitives import NotNative, emit
from .kernel_types import PLAIN_MAX, Unsupported


class Operators:
    """``Gen``'s operators (see the module)."""

    if TYPE_CHECKING:
        b: Any
        facts: Any
        tops: Any

        def expr(self, e, sc: dict, want: T | None = None) -> str: ...
        def ty(self, e) -> T: ...
        def ct(self, t: T) -> str: ...
        @staticmethod
        def unify(a: T, b: T) -> T: ...
        def occupied_and(self, e, sc: dict) -> str | None: ...
        def noted_right(self, left, sc: dict) -> dict: ...
        def early_count(self, e, sc: dict) -> str | None: ...
        def range_list(self, e, sc: dict) -> str | None: ...
        def made_join(self, e, sc: dict, t) -> str | None: ...
        def _text_part(self, e, sc: dict, t) -> str: ...
        def known_ranges(self, e) -> dict | None: ...
        def first_filled(self, e, sc: dict, want=None) -> str | None: ...

    def _BinOp(self, e, sc, want: T | None = None):
        """An operator (a UnOp, BinOp or CondExpr; ``want``: the type its value is
        wanted as, a conditional's): a pass's text where one applies, else its form."""
        if e.node == "CondExpr":   # (a list made once, its condition its not being empty)
            filled = self.first_filled(e, sc, want)
            if filled is not None:
                return filled
        op = resolve(e, self.ty)
        better = self._better(op, e, sc)
        if better is not None:
            return better
        scopes = {1: self.noted_right(e.left, sc)} if op.name == "and" else None
        try:   # (a zone the left of an and reads, noted for its right: kernel_reads.py)
            return emit(self._plain(op, e) or op.cxx, CxxOp(self, op, e, sc, want, scopes))
        except NotNative as why:
            raise Unsupported(str(why)) from None

    _UnOp = _CondExpr = _BinOp

    def _better(self, op: Operator, e, sc) -> str | None:
        """The passes that write an operation better than its form, where one does."""
        if op.name == "and":   # (a cell's bit in the index of a top's value: kernel_tops.py;
            # else no branch on the cell: kernel_early.py)
            return self.tops.cell_bit(e, sc) or self.occupied_and(e, sc)
        if op.name == "or":   # (a cell's bit: empty, or its top's value; kernel_tops.py)
            return self.tops.cell_bit(e, sc)
        if op.language.mirror:   # (a comparison: dsl/operators.py)
            # (a count of a top's cells against all a mask's: kernel_tops.py; a count
            # stopped once the comparison is decided)
            return self.tops.full(e, sc, op) or self.early_count(e, sc)
        if op.name == "range":
            return self.range_list(e, sc)   # (a range written out, made once: kernel_unroll.py)
        if op.name == "join_lists":
            return self.made_join(e, sc, self.ty(e))   # (made once, or built in one list: kernel_fold.py)
        return None

    def _plain(self, op: Operator, e) -> str | None:
        """The form of ``+``, ``-`` or ``*`` of ints whose result core/bounds.py knows
        within range: plain C++ arithmetic (no overflow, no none, nothing to check)."""
        if op.name in ("add", "sub") and self.facts.within(e, PLAIN_MAX, self.known_ranges(e)):
            return f"((I)({{i0}}) {e.op} (I)({{i1}}))"
        if op.name == "mul" and self.facts.within(e, min(self.b.integer, PLAIN_MAX), self.known_ranges(e)):
            return "({i0} * {i1})"   # (never over the integer budget)
        return None

    def _compared(self, e, sc, u: T) -> str:
        """An operand of ``==`` or ``!=`` compared as a value of type ``u``: a list or
        tuple may be none there (``xs == none``), as in Python, with no error."""
        if u.tag in ("list", "tuple"):
            if e.node == "NoneLit":
                return f"none_of<{self.ct(u)}>()"
            if e.node == "Var" and e.name in sc and sc[e.name][1] == u:
                return sc[e.name][0]
        return self.expr(e, sc, u)

    def text_chain(self, e) -> list:
        """The parts of ``a + b + c ...`` of texts (the left operands of ``+`` all the
        way down), in order: joined in one text (core/operators.py, kernel_text_parts.py)."""
        parts = [e.right]
        while e.left.node == "BinOp" and e.left.op == "+" and self.ty(e.left).tag == "str":
            e = e.left
            parts.append(e.right)
        parts.append(e.left)
        return parts[::-1]
