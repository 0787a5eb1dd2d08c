"""What a program knows of values before they are computed, a pass over the checked IR
(a part of ``facts.Facts``, its methods on the facts' state): the least and the most an
integer expression can be, and the most characters a text can have, whatever the state.
The printers ask it where a check can be left out: the fast Python code
(``compiler/codegen*.py``: a product within the integer budget, a divisor never 0, an
index within a board's cells, a short text) and the kernel's C++ (a product).

What a built-in may give is declared with its forms (``core/primitives.py``:
``span``), from its arguments' ranges, and what an operator may give with its
operation's (``core/operators.py``: ``span``), from its operands'."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl.operators import NODES, operands
from . import operators
from .hoist import _binding
from .primitives import PRIMITIVES, Span

_DEPTH = 8   # calls of rule functions looked into at most


class Bounds:
    """Facts' methods for what is known of values before they are computed."""

    if TYPE_CHECKING:
        c: Any   # the checked program
        p: Any   # the program (its tables: ``ns``, and ``n`` players)

        def loops_around(self, e) -> tuple: ...   # (hoist.Hoist's)

    def int_range(self, e, known: dict[str, Span] | None = None, depth: int = 0) -> Span | None:
        """The least and the most an integer expression's value can be, where the
        expression says it whatever the state: a literal, a seat or the number of
        players (the program's), a static coordinate of a board's cell, and what
        arithmetic, abs, min, max, a choice and a call of a function whose body is such
        make of them, a loop's variable over such (``_loop_range``), a count over a list
        whose length is known (``length_bound``: from 0 to it); ``known``: the
        ranges of other names (an inlined function's parameters); else None. (A value that is not an integer, such as none where a cell is
        expected, fails before any arithmetic on it.)"""
        match e.node:
            case "IntLit":
                return e.value, e.value
            case _ if e.node in NODES:   # (an operator: its operation's span, core/operators.py)
                of_op = operators.resolve(e, self.c.type_of).span
                parts = operands(e)
                return None if of_op is None else of_op(lambda i: self.int_range(parts[i], known, depth))
            case "Call" if e.func in self.c.functions:  # (a rule function's name comes first)
                if depth >= _DEPTH:
                    return None
                fd = self.c.functions[e.func]
                return self.int_range(fd.body, self.arg_ranges(fd, e.args, known, depth), depth + 1)
            case "Attr" if e.name != "name" and self.c.type_of(e.obj).tag == "cell":
                ns = self.p.ns
                values = [ns[f"C_{e.name}"][c] for c in ns.get(f"BOARD_{self.c.type_of(e.obj).arg}", ())]
                if values and all(type(v) is int for v in values):
                    return min(values), max(values)
            case "Aggregate" if e.func == "count":   # (at most as many as the loops give)
                n = self.length_bound(e.comp, depth)
                return None if n is None else (0, n)
            case "Call" if self.c.calls_builtin(e.func) and (span := PRIMITIVES[e.func].span) is not None:
                return span([self.int_range(a, known, depth) for a in e.args], self.p.n)
            case "Var":
                loop = _binding(e.name, self.loops_around(e))
                if loop is not None:
                    return self._loop_range(loop.comp.clauses[loop.clause].iter, depth)
                return None if known is None else known.get(e.name)
        return None

    def _loop_range(self, it, depth: int) -> Span | None:
        """The least and the most a loop's variable can be: over a list written out,
        of its elements' (``for dc in [-1, 0, 1]``), over a range ``a..b``, from the
        least ``a`` to the most ``b``; else None."""
        if it.node == "ListLit" and it.items:
            spans = [r for x in it.items if (r := self.int_range(x, None, depth)) is not None]
            if len(spans) == len(it.items):
                return min(r[0] for r in spans), max(r[1] for r in spans)
        elif it.node == "BinOp" and it.op == "..":
            a, b = self.int_range(it.left, None, depth), self.int_range(it.right, None, depth)
            if a is not None and b is not None:
                return a[0], b[1]
        return None

    def length_bound(self, e, depth: int = 0) -> int | None:
        """The most elements a list expression can have, where the expression says it
        whatever the state: a list written out, a range whose ends' ranges are known, a
        ray (distinct cells of its board: at most the board's cells), ``until`` of such,
        and a comprehension over such (the product of its loops'); else None."""
        match e.node:
            case "ListLit":
                return len(e.items)
            case "Ray":
                cells = self.p.ns.get(f"BOARD_{self.c.type_of(e.start).arg}")
                return None if cells is None else len(cells)
            case "Aggregate" if e.func == "until":
                return self.length_bound(e.comp, depth)
            case "Comprehension":
                n = 1
                for cl in e.clauses:
                    k = self.length_bound(cl.iter, depth)
                    if k is None:
                        return None
                    n *= k
                return n
            case "BinOp" if e.op == "..":
                a, b = self.int_range(e.left, None, depth), self.int_range(e.right, None, depth)
                return None if a is None or b is None else max(0, b[1] - a[0] + 1)
        return None

    def arg_ranges(self, fd, args, known: dict[str, Span] | None, depth: int = 0) -> dict[str, Span]:
        """The ranges of a call's integer arguments that are known, by parameter."""
        if depth >= _DEPTH:
            return {}
        out = {p.name: self.int_range(a, known, depth + 1) for p, a in zip(fd.params, args)}
        return {k: v for k, v in out.items() if v is not None}

    def within(self, e, limit: int, known: dict[str, Span] | None = None) -> bool:
        """Whether the integer expression's value is known to be between -limit and
        limit whatever the state (see int_range)."""
        r = self.int_range(e, known)
        return r is not None and -limit <= r[0] and r[1] <= limit

    def text_bound(self, e, depth: int = 0) -> int | None:
        """The most characters a text expression's value can have, where the expression
        says it whatever the state: a literal, a cell's name, a choice between such, a
        join of such, a call of a function whose body is such; else None."""
        match e.node:
            case "StrLit":
                return len(e.value)
            case "Attr" if e.name == "name" and self.c.type_of(e.obj).tag not in ("item", "list"):
                # (a cell's name: CELL_NAME)
                return max((len(n) for n in self.p.ns["CELL_NAME"] if n is not None), default=0)
            case "CondExpr":
                a, b = self.text_bound(e.then, depth), self.text_bound(e.other, depth)
                return None if a is None or b is None else max(a, b)
            case "BinOp" if e.op == "+":
                a, b = self.text_bound(e.left, depth), self.text_bound(e.right, depth)
                return None if a is None or b is None else a + b
            case "Call" if e.func in self.c.functions and depth < _DEPTH:
                return self.text_bound(self.c.functions[e.func].body, depth + 1)
        return None
