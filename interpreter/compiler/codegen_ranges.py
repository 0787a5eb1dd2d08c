"""What the compiler knows of values before they are computed (a part of
codegen.ExprCompiler, its methods on the compiler's state): the least and the most an
integer can be, the longest a text can be, how many elements a list has where fixed."""
from __future__ import annotations

from .codegen_base import CompilerPart, Env


class Bounds(CompilerPart):
    """ExprCompiler's methods for what is known of values before they are computed: integers' ranges, texts' and lists' sizes."""

    def _int_range(self, e, env: Env | None = None, depth: int = 0) -> tuple[int, int] | None:
        """The least and the most an integer expression's value can be whatever the state
        (core/bounds.py, int_range), the ranges of an inlined function's arguments known
        (``env.ranges``); else None."""
        return self.t.facts.int_range(e, None if env is None else env.ranges, depth)

    def _arg_ranges(self, fd, args, env: Env | None, depth: int = 0) -> dict[str, tuple[int, int]]:
        """The ranges of a call's integer arguments that are known, by parameter (the
        fast code's)."""
        if not self.optimize:
            return {}
        return self.t.facts.arg_ranges(fd, args, None if env is None else env.ranges, depth)

    def _within(self, e, env: Env, limit: int) -> bool:
        """Whether the fast code knows that the integer expression's value is between
        -limit and limit whatever the state (see _int_range)."""
        return self.optimize and self.t.facts.within(e, limit, env.ranges)

    def _text_bound(self, e, depth: int = 0) -> int | None:
        """The most characters a text expression's value can have whatever the state
        (core/bounds.py, text_bound), else None."""
        return self.t.facts.text_bound(e, depth)

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
