"""What the fast code just written calls (a part of codegen.ExprCompiler, its methods on
the compiler's state): whether the code of an expression calls a function, as the core
says of its nodes (core/inline.py, ``python_calls``, from each built-in's ``calls`` in
core/primitives.py), the printer adding only what it wrote its own way (a value it
named, an argument's code, a call written in place, a bound it knows); and whether it is
a name or a constant. Decided from the IR and the printer's own records (``wrote``,
``named``, ``expanded``), never from the text written."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dsl import ast as ir
from ..core.facts import has_loop
from .codegen_base import CompilerPart, Env


class CodeCalls(CompilerPart):
    """ExprCompiler's methods that say what the code written for a node calls."""

    def _calls(self, e, env: Env) -> bool:
        """Whether the code just written for ``e`` (in ``env``) calls a function: as the
        core says of its nodes (core/inline.py, ``python_calls``: a built-in's form by
        primitives.py...), but for what this code wrote its own way: a value computed
        before and named (``pre``, ``wrote``), an inlined function's parameter (its
        argument's code: ``env.calling``), a call written in place (its body's code), a
        function's value read from its table, an index or a product it knows is in
        bounds."""
        return self.t.facts.python_calls(e, lambda n: self._own_calls(n, env))

    def does_work(self, e, env: Env) -> bool:
        """Whether the fast code just written for the whole expression ``e`` (a rule
        function's body, its statements and value) loops or calls a function: worth
        keeping its value (see compile_functions' kept functions). As _calls says, every
        part of it counted: the values it named are computed in it."""
        return has_loop(e) or self._works(e, env)

    def _works(self, e, env: Env) -> bool:
        """does_work of a part of an expression without loops (no loop to look for)."""
        return self.t.facts.python_calls(e, lambda n: self._own_work(n, env))

    def _own_work(self, n, env: Env) -> bool | None:
        """What does_work knows of the node ``n`` from this code (True, False), or None."""
        return self._own_call(n, env, self.expanded, self._works)

    def _own_calls(self, n, env: Env) -> bool | None:
        """What _calls knows of the node ``n`` from this code (True, False), or None."""
        if (self.pre and id(n) in self.pre) or self.wrote.get(id(n)) is False:
            return False
        node = n.node
        if node == "Var":
            return n.name in env.subst and n.name in env.calling
        return self._own_call(n, env, self.wrote, self._calls)

    def _own_call(self, n, env: Env, written: dict[int, bool],
                  part: Callable[[Any, Env], bool]) -> bool | None:
        """What _calls or does_work (``part``, of the parts) knows of the node ``n``: a
        rule function's call as written in place (``written``: its body's code calls or
        works), read from its table (its arguments') or else called; a product, quotient
        or index written without a helper (its operands'); None for the others."""
        if n.node == "Call" and n.func in self.c.functions and self.t.facts.call_kind(n) == "function":
            got = written.get(id(n))
            if got is not None:   # (written in place)
                return got
            if n.func in self.tabled and self.optimize and not self._memo_call(n):
                return any(part(a, env) for a in n.args)
            return True
        if self._plain(n, env):   # (no helper: the operands' code)
            return any(part(k, env) for k in ir.children(n))
        return None

    def _plain(self, n, env: Env) -> bool:
        """Whether this code writes the product, quotient or index ``n`` without a helper
        (its bounds known, see _BinOp, _Index)."""
        if n.node == "BinOp" and n.op == "*":
            return self._within(n, env, self.t.budgets.integer)
        if n.node == "BinOp" and n.op in ("/", "%"):
            r = self._int_range(n.right, env) if self.optimize else None
            return r is not None and not r[0] <= 0 <= r[1]
        return n.node == "Index" and n.index.node != "IntLit" and self._inside(n, env) is not None

    def _inside(self, e, env: Env) -> str | None:
        """The name of the board's cells that the index ``e`` reads (``cells(board)[i]``)
        where the index is always inside them (the fast code reads them without a
        helper), else None."""
        found = self.t.facts.table_list(e.obj) if self.optimize and (not self.pre or id(e.obj) not in self.pre) else None
        if found is None or found[0] != "cells":
            return None
        name = f"BOARD_{found[1]}"
        r = self._int_range(e.index, env)
        return name if r is not None and r[0] >= 0 and r[1] < len(self.t.ns[name]) else None

    def _bare(self, n, env: Env) -> bool:
        """Whether the code just written for ``n`` is a name bound before (a parameter, a
        loop's variable, a local, a value computed before, but one kept for a loop's
        turns: ``lazy_N``) or a constant (core/inline.py, ``simple_arg``)."""
        lazy = self.named.get(id(n))
        if lazy is not None or (self.pre and id(n) in self.pre):
            return not lazy
        if n.node == "Var" and env.lookup(n.name) is not None:
            return n.name not in env.subst or n.name in env.bare
        return self.t.facts.simple_arg(n)
