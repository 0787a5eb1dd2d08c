"""What the compiler knows of values before they are computed (a part of
codegen.ExprCompiler, its methods on the compiler's state): the least and the most an
integer can be, the longest a text can be, how many elements a list has where fixed."""
from __future__ import annotations

from .codegen_base import CompilerPart, Env, _arith_range
from .primitives import PRIMITIVES


class Bounds(CompilerPart):
    """ExprCompiler's methods for what is known of values before they are computed: integers' ranges, texts' and lists' sizes."""

    def _int_range(self, e, env: Env | None = None, depth: int = 0) -> tuple[int, int] | None:
        """The least and the most an integer expression's value can be, where the
        expression says it whatever the state: a literal, a seat or the number of
        players (the program's), a static coordinate of a board's cell, and what
        arithmetic, abs, min, max, a choice and a call of a function whose body is such
        make of them; else None. (A value that is not an integer, such as none where a
        cell is expected, fails before any arithmetic on it: the straightforward code
        runs again and fails as always.)"""
        match e.node:
            case "IntLit":
                return e.value, e.value
            case "UnOp" if e.op == "-":
                r = self._int_range(e.operand, env, depth)
                return None if r is None else (-r[1], -r[0])
            case "CondExpr":
                a, b = self._int_range(e.then, env, depth), self._int_range(e.other, env, depth)
                return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
            case "BinOp" if e.op in ("+", "-", "*", "/", "%"):
                a, b = self._int_range(e.left, env, depth), self._int_range(e.right, env, depth)
                return None if a is None or b is None else _arith_range(e.op, a, b)
            case "Call" if e.func in self.c.functions:  # (a rule function's name comes first)
                if depth >= 8:
                    return None
                fd = self.c.functions[e.func]
                return self._int_range(fd.body, Env(ranges=self._arg_ranges(fd, e.args, env, depth)), depth + 1)
            case "Attr" if e.name != "name" and self.ty(e.obj).tag == "cell":
                values = [self.t.ns[f"C_{e.name}"][c] for c in self.t.ns.get(f"BOARD_{self.ty(e.obj).arg}", ())]
                if values and all(type(v) is int for v in values):
                    return min(values), max(values)
            case "Call" if self.c.calls_builtin(e.func) and PRIMITIVES[e.func].span is not None:
                spans = [self._int_range(a, env, depth) for a in e.args]
                return PRIMITIVES[e.func].span(spans, self.t.n)
            case "Var" if env is not None:
                return env.ranges.get(e.name)
        return None

    def _arg_ranges(self, fd, args, env: Env | None, depth: int = 0) -> dict[str, tuple[int, int]]:
        """The ranges of a call's integer arguments that are known, by parameter."""
        if not self.optimize or depth >= 8:
            return {}
        out = {p.name: self._int_range(a, env, depth + 1) for p, a in zip(fd.params, args)}
        return {k: v for k, v in out.items() if v is not None}

    def _within(self, e, env: Env, limit: int) -> bool:
        """Whether the fast code knows that the integer expression's value is between
        -limit and limit whatever the state (see _int_range)."""
        r = self._int_range(e, env) if self.optimize else None
        return r is not None and -limit <= r[0] and r[1] <= limit

    def _text_bound(self, e, depth: int = 0) -> int | None:
        """The most characters a text expression's value can have, where the expression
        says it whatever the state: a literal, a cell's name, a choice between such, a
        join of such, a call of a function whose body is such; else None."""
        match e.node:
            case "StrLit":
                return len(e.value)
            case "Attr" if e.name == "name" and self.ty(e.obj).tag not in ("item", "list"):
                # (a cell's name, as _Attr reads it: CELL_NAME)
                return max((len(n) for n in self.t.ns["CELL_NAME"] if n is not None), default=0)
            case "CondExpr":
                a, b = self._text_bound(e.then, depth), self._text_bound(e.other, depth)
                return None if a is None or b is None else max(a, b)
            case "BinOp" if e.op == "+":
                a, b = self._text_bound(e.left, depth), self._text_bound(e.right, depth)
                return None if a is None or b is None else a + b
            case "Call" if e.func in self.c.functions and depth < 8:
                return self._text_bound(self.c.functions[e.func].body, depth + 1)
        return None

    def _fixed_size(self, e) -> int | None:
        """The most elements the iterable can have when it is a board's cells or a row
        of a relation of two cells (tables made before the fast code), else None."""
        if e.node == "Ray":
            return self.t.ray_bound(self.ty(e.start).arg, tuple(a.name for a in e.steps))
        if e.node == "Aggregate" and e.func == "until":  # a part of its list, counted
            return self._fixed_size(e.comp.clauses[0].iter)
        table = self.t.facts.table_list(e)
        if table is None:
            return None
        if table[0] == "cells":
            cells = self.t.boards.get(table[1])
            return None if cells is None else len(cells)
        rows = self.t.ns.get(f"REL_{table[1]}")
        return None if rows is None else max(map(len, rows), default=0)
