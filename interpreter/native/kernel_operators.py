"""Operators in a kernel's expressions (a part of ``kernel.Gen``): ``c ? a : b``,
``not`` and negation, ``and``/``or``, comparisons, ``in``, ``..``, ``+`` of lists and
of texts, and the arithmetic of ints (written plain where core/bounds.py knows the result
within range, else through the runtime's checked ``add``, ``sub``, ``mul``...)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl.types import T
from .kernel_reads import counters, state
from .kernel_types import BOOL, INT, PLAIN_MAX, Unsupported, has_none


class Operators:
    """``Gen``'s operators (see the module)."""

    if TYPE_CHECKING:
        b: Any
        facts: Any

        def expr(self, e, sc: dict, want: T | None = None) -> str: ...
        def ty(self, e) -> T: ...
        def ct(self, t: T) -> str: ...
        @staticmethod
        def unify(a: T, b: T) -> T: ...
        def occupied_and(self, e, sc: dict) -> str | None: ...
        def noted_right(self, left, sc: dict) -> dict: ...
        def early_count(self, e, sc: dict) -> str | None: ...
        def range_list(self, e, sc: dict) -> str: ...
        def made_join(self, e, sc: dict, t) -> str | None: ...
        def _text_part(self, e, sc: dict, t) -> str: ...
        def known_ranges(self, e) -> dict | None: ...

    def _CondExpr(self, e, sc, want: T | None = None):
        t = want or self.ty(e)
        return (f"({self.expr(e.cond, sc, BOOL)} ? {self.ct(t)}({self.expr(e.then, sc, t)}) "
                f": {self.ct(t)}({self.expr(e.other, sc, t)}))")

    def _UnOp(self, e, sc):
        if e.op == "not":
            return f"(!{self.expr(e.operand, sc, BOOL)})"
        return f"neg({self.expr(e.operand, sc, INT)})"

    def _BinOp(self, e, sc):
        op = e.op
        if op in ("and", "or"):
            joined = self.occupied_and(e, sc) if op == "and" else None
            if joined is not None:   # (no branch on the cell: kernel_early.py)
                return joined
            a = self.expr(e.left, sc, BOOL)   # (a zone its left reads, noted: kernel_reads.py)
            b = self.expr(e.right, self.noted_right(e.left, sc) if op == "and" else sc, BOOL)
            return f"({a} {'&&' if op == 'and' else '||'} {b})"
        early = self.early_count(e, sc) if op in ("==", "!=", "<", "<=", ">", ">=") else None
        if early is not None:   # (a count stopped once the comparison is decided)
            return early
        lt, rt = self.ty(e.left), self.ty(e.right)
        if op in ("==", "!="):
            u = self.unify(lt, rt)
            a, b = self._compared(e.left, sc, u), self._compared(e.right, sc, u)
            return f"({'' if op == '==' else '!'}eq({a}, {b}))"
        if op in ("<", "<=", ">", ">="):
            return self._ordered(e, sc, self.unify(lt, rt))
        if op in ("in", "not in"):
            neg = "!" if op == "not in" else ""
            if rt.tag in ("zone", "cell"):
                return f"({neg}zin({state(sc)}, {self.expr(e.left, sc)}, {self.expr(e.right, sc)}))"
            if rt.tag != "list":
                raise Unsupported(f"'in' a {rt}")
            el = rt.arg if not has_none(rt.arg) else lt
            return f"({neg}contains({self.expr(e.right, sc, T('list', el))}, {self.expr(e.left, sc, el)}))"
        if op == "..":
            return self.range_list(e, sc)   # (kernel_unroll.py)
        t = self.ty(e)
        if op == "+" and t.tag == "list":
            joined = self.made_join(e, sc, t)   # (made once, or built in one list: kernel_fold.py)
            if joined is not None:
                return joined
            return f"wcat({counters(sc)}, {self.expr(e.left, sc, t)}, {self.expr(e.right, sc, t)})"
        if op == "+" and t.tag == "str":
            return self._texts_joined(e, sc, t)
        return self._arith(e, self.expr(e.left, sc, INT), self.expr(e.right, sc, INT))

    def _ordered(self, e, sc, u: T) -> str:
        """``a < b`` (``<=``, ``>``, ``>=``) of two values of type ``u``."""
        if u.tag == "enum":
            raise Unsupported("an order of enum values (Python compares their names)")
        if u.tag not in ("int", "str", "bool", "player", "item", "cell", "zone"):
            raise Unsupported(f"an order of {u}")
        a, b = self.expr(e.left, sc, u), self.expr(e.right, sc, u)
        if u.tag in ("player", "item", "cell", "zone"):
            a, b = f"nn({a})", f"nn({b})"
        elif u.tag == "bool":
            a, b = f"(I){a}", f"(I){b}"
        fn = {"<": f"lt({a}, {b})", "<=": f"le({a}, {b})", ">": f"lt({b}, {a})", ">=": f"le({b}, {a})"}
        return fn[e.op]

    def _compared(self, e, sc, u: T) -> str:
        """An operand of ``==`` or ``!=`` compared as a value of type ``u``: a list or
        tuple may be none there (``xs == none``), as in Python, with no error."""
        if u.tag in ("list", "tuple"):
            if e.node == "NoneLit":
                return f"none_of<{self.ct(u)}>()"
            if e.node == "Var" and e.name in sc and sc[e.name][1] == u:
                return sc[e.name][0]
        return self.expr(e, sc, u)

    def _texts_joined(self, e, sc, t: T) -> str:
        """``a + b + c ...`` of texts (the left operands of ``+`` all the way down): one
        text made once (scatn), no text per ``+``; its parts: kernel_text_parts.py."""
        parts = [e.right]
        while e.left.node == "BinOp" and e.left.op == "+" and self.ty(e.left).tag == "str":
            e = e.left
            parts.append(e.right)
        parts.append(e.left)
        return f"scatn({state(sc)}, {', '.join(self._text_part(x, sc, t) for x in reversed(parts))})"

    def _arith(self, e, a: str, b: str) -> str:
        """``a op b`` of two ints (their texts)."""
        match e.op:
            case "+" | "-" if self.facts.within(e, PLAIN_MAX, self.known_ranges(e)):  # (core/bounds.py)
                return f"((I)({a}) {e.op} (I)({b}))"   # (ints of known ranges: no overflow, no none)
            case "+":
                return f"add({a}, {b})"
            case "-":
                return f"sub({a}, {b})"
            case "*":
                if self.facts.within(e, min(self.b.integer, PLAIN_MAX), self.known_ranges(e)):
                    return f"({a} * {b})"   # (never over the integer budget: nothing to check)
                return f"mul({a}, {b}, {self.b.integer}LL)"
            case "/":
                return f"floordiv({a}, {b})"
            case "%":
                return f"mod({a}, {b})"
        raise Unsupported(f"the operator {e.op}")
