"""Which rule functions an engine may compute once per position (a part of
``facts.Facts``, its methods on the facts' state): a pass over the checked IR that every
engine may ask, the kernel's C++ (``native/kernel.py``) first.

A rule function is pure by construction: its body is an expression, and no expression
of the language writes to the state, draws from the generator or changes what a seat
sees (dsl/builtins.py has no such built-in; the checker lets no statement into an
expression). Its value is therefore the same for the same arguments as long as the state
does not change, and an engine may keep it, keyed by the arguments, for as long as the
state stays as it is (the kernel: until its next step, ``EPOCH``), provided that

- a value read from the keep counts again the work and the calls its evaluation
  counted (the budgets run out at the same move as in the reference engine);
- its evaluation reaches no function that may call itself (a kept value would spare the
  depth of the nested calls, which the reference counts);
- the keep is no part of the state (never copied, saved or compared).

It is worth it where the function is called over and over while the state stays the
same (``repeated``: inside a loop of an expression, a comprehension or an aggregate, or
by a function itself so called: ``liberties(group(n))`` for each neighbour of each
candidate cell) and where its evaluation loops (computing it costs more than a look-up).
``memoised(name)`` says both; the engine adds what it needs of the arguments' types."""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .hoist import roots


class Memo:
    """Facts' methods for the rule functions worth computing once per position."""

    if TYPE_CHECKING:
        c: Any   # the checked program
        p: Any   # the program (its tables: ``ns``)
        @property
        def recursive(self) -> set[str]: ...

        @property
        def calls(self) -> dict[str, list[str]]: ...

        def reach(self, name: str) -> set[str]: ...

        def loops(self, name: str, ray: bool = False) -> bool: ...

        def loops_around(self, e) -> tuple: ...

        def loops_read(self, e) -> set: ...

        def counts_work(self, n) -> bool: ...

    @cached_property
    def repeated(self) -> set[str]:
        """The rule functions called over and over while the state stays the same, with
        arguments that may come again: those called inside a loop inside another loop
        of an expression (``group(n)`` for each neighbour ``n`` of each cell ``p``:
        the same ``n`` for several ``p``) or inside one loop with an argument computed
        from its variable (``liberties(group(c))`` for each piece's cell ``c``: the same group
        for the stones of a group), those a function called inside a loop calls (anywhere in its body:
        from the ``legal(p)`` of each ``p``), and those they call. (A function called
        inside one loop with the loop's variable for argument, and values the same at
        every turn, such as ``legal(p, colour_of(active))`` for each ``p`` of a board,
        is called once for each element.)"""
        looped: set[str] = set()
        out: set[str] = set()
        fs = self.c.functions
        for root in roots(self.c):
            for call in ir.walk(root):
                around = self.loops_around(call)
                if call.node != "Call" or call.func not in fs or not around:
                    continue
                once = len({id(loop.comp) for loop in around}) == 1 and all(
                    a.node == "Var" or not self.loops_read(a) for a in call.args)
                (looped if once else out).add(call.func)
        stack = [*looped, *out]
        while stack:
            for g in self.calls[stack.pop()]:
                if g not in out:
                    out.add(g)
                    stack.append(g)
        return out

    @cached_property
    def called_in_loops(self) -> set[str]:
        """The rule functions called inside a loop of an expression somewhere (each
        element's ``legal(c, s)`` in a comprehension such as ``places(s)``)."""
        fs = self.c.functions
        return {call.func for root in roots(self.c) for call in ir.walk(root)
                if call.node == "Call" and call.func in fs and self.loops_around(call)}

    def component(self, name: str) -> int | None:
        """Where the rule function ``name`` finds a component: its body is
        ``connected(x for x in REL(p) if COND)``, p a parameter (a cell) that COND does
        not read, REL a relation of two cells both ways (b related to a wherever a is
        to b), no parameter a list, COND cheap (no rule function, loop or list joined:
        the work budget counts the walk alone). Then the same cells are found from any
        cell of the component, in another order, and the walk counts the same work
        (the start, then each cell's row of the relation): where the order does not
        matter (core/orderfree.py) one walk serves every cell of it. The position of p
        among the parameters, else None."""
        fd = self.c.functions[name]
        body = fd.body
        if body.node != "Aggregate" or body.func != "connected" or len(body.comp.clauses) != 1:
            return None
        it = body.comp.clauses[0].iter
        names = [q.name for q in fd.params]
        start = it.args[0] if it.node == "Call" and len(it.args) == 1 else None
        if start is None or start.node != "Var" or start.name not in names \
                or any(q.type.name == "list" for q in fd.params) or not self._both_ways(it.func):
            return None
        cond = body.comp.cond
        if cond is not None and any((x.node == "Var" and x.name == start.name)
                                    or x.node in ir.LOOPS
                                    or (x.node == "Call" and x.func in self.c.functions)
                                    or self.counts_work(x) for x in ir.walk(cond)):
            return None
        return names.index(start.name)

    def _both_ways(self, relation: str) -> bool:
        """Whether ``relation`` is a relation of two cells that relates b to a wherever
        it relates a to b (from the program's tables)."""
        r = self.c.relations.get(relation)
        if r is None or len(r.params) != 2 or relation in self.c.functions:
            return False
        rows, sets = self.p.ns.get(f"REL_{relation}"), self.p.ns.get(f"RELSET_{relation}")
        if not isinstance(rows, list) or not isinstance(sets, list):
            return False
        return all(0 <= b < len(sets) and a in sets[b] for a, row in enumerate(rows) for b in row)

    def keepable(self, name: str) -> bool:
        """Whether the values of the rule function ``name`` may be kept while the state
        stays the same, and cost more to compute than to look up: its evaluation loops
        (a comprehension, an aggregate or a ray's walk, in its body or in a function it
        calls) and reaches no function that may call itself."""
        reach = self.reach(name)
        return not reach & self.recursive and any(self.loops(f, ray=True) for f in reach)

    def memoised(self, name: str) -> bool:
        """Whether the values of the rule function ``name`` are worth keeping per
        position, and may be kept: it is called over and over (``repeated``) and
        ``keepable``."""
        return name in self.repeated and self.keepable(name)

