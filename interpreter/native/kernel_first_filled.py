"""A list chosen where any of its parts is not empty, its parts asked once (a part of
``kernel.Gen``):

    if any(occupied(f(x)) for x in xs) then [m for x in xs for m in f(x)] else other

asks ``f(x)`` of each ``x`` up to the first whose list is not empty, then walks ``xs``
again and makes every ``f(x)`` for the list (moves where a jump must be taken: a jump of
any piece, then every piece's jumps). The parts before that first ``x`` are empty, so
the list is the parts from it on: ``xs`` is made once, each ``f(x)`` asked (counted in
place, no list: kernel_emptiness.py) up to the first not empty, and the list made from
that ``x`` on (``f``'s loops in the list's place: ``fused_loop``, kernel_memo.py),
``other`` where none is. ``f`` is a rule function whose body is a comprehension of two
loops or more, called plainly; ``xs`` a list the loop walks whole (no range, no
aggregate).

The same work and calls as the reference, which evaluates the condition, then the list:
the condition's are counted as they are (``xs`` and its elements, each ``f(x)`` asked);
then the list's for what it would make again before that first ``x`` (``xs``, its
elements, the empty parts: the count before that ``x`` was asked, less the count at
the start, as much again), then its own from that ``x`` on. Nothing between changes the
state, so a budget passed anywhere is passed by the end."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .kernel_reads import counters
from .kernel_types import BOOL
from .kernel_unread import same


class FirstFilled:
    """``Gen``'s list made once where its condition is that a part of it is not empty."""

    if TYPE_CHECKING:
        b: Any
        tops: Any
        c: Any
        facts: Any

        def fresh(self, base: str) -> str: ...
        def ty(self, e) -> Any: ...
        def ct(self, t) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def called_plainly(self, e) -> bool: ...
        def fused_loop(self, it, sc: dict, var_el_t: tuple, inside) -> str | None: ...

    def _asked(self, cond):
        """For ``cond`` = ``any(occupied(f) for x in xs)``: its loop's clause and ``f``;
        else None."""
        if cond.node != "Aggregate" or cond.func != "any" or not self.c.calls_builtin("any"):
            return None
        comp = cond.comp
        test = comp.elem
        if comp.cond is not None or len(comp.clauses) != 1 or test.node != "Call" or test.func != "occupied" \
                or len(test.args) != 1 or self.facts.call_kind(test) != "builtin":
            return None
        return comp.clauses[0], test.args[0]

    def _parts_of(self, e):
        """For ``e`` = ``if any(occupied(f(x)) for x in xs) then [m for x in xs for m in
        f(x)] else other``: the call ``f(x)`` of the list; else None."""
        asked, then = self._asked(e.cond), e.then
        if asked is None or then.node != "Comprehension" or then.cond is not None or len(then.clauses) != 2:
            return None
        (clause, tested), (outer, inner) = asked, then.clauses
        part = inner.iter
        if outer.var != clause.var or not same(outer.iter, clause.iter) or not same(part, tested) \
                or then.elem.node != "Var" or then.elem.name != inner.var or inner.var == outer.var:
            return None
        it = outer.iter   # (walked as the list walks it: its count before its loop)
        if it.node == "Aggregate" or (it.node == "BinOp" and it.op == ".."):
            return None
        if part.node != "Call" or self.facts.call_kind(part) != "function" or not self.called_plainly(part):
            return None
        body = self.c.functions[part.func].body
        if body.node != "Comprehension" or len(body.clauses) < 2:
            return None
        return part

    def first_filled(self, e, sc: dict, want=None) -> str | None:
        """The C++ of ``e`` made as the module says, or None where it does not apply."""
        part = self._parts_of(e)
        t = self.ty(e)
        el = self.ct(t.arg) if t.tag == "list" else None
        if part is None or el is None or el in ("Id", "I") or (want is not None and self.ct(want) != self.ct(t)):
            return None
        outer, inner = e.then.clauses
        lt = self.ty(outer.iter)
        w0, c0, wb, cb, xs, i, out = (self.fresh(x) for x in ("w0", "c0", "wb", "cb", "xs", "i", "out"))
        x, m = self.fresh(outer.var), self.fresh(inner.var)
        deeper = dict(sc)
        deeper[outer.var] = (x, lt.arg)
        fill = self.fused_loop(part, deeper, (m, el, self.ty(part)), lambda: f"{out}.push_back({m});")
        if fill is None:
            return None
        s = counters(sc)
        test = self.expr(e.cond.comp.elem, deeper, BOOL)
        walk = self.tops.filter_walk(outer.iter, sc)   # (xs a filter's bits: kernel_tops.py)
        if walk is not None:
            return self._walked_filled(e, sc, (walk, x, fill, test, out), (w0, c0, wb, cb, i))
        head = "" if self.facts.counted(outer.iter) else f"W({s}, {xs}.size()); "
        ask = (f"const I {w0} = {s}.work, {c0} = {s}.calls; I {wb} = 0, {cb} = 0; "
               f"const {self.ct(lt)} {xs} = {self.expr(outer.iter, sc, lt)}; {head}size_t {i} = 0; "
               f"for (; {i} < {xs}.size(); ++{i}) {{ const {self.ct(lt.arg)} {x} = {xs}[{i}]; "
               f"{wb} = {s}.work; {cb} = {s}.calls; if ({test}) break; }} ")
        other = self.expr(e.other, sc, t)
        again = (f"W({s}, {w0} - {wb}); {s}.calls += {cb} - {c0}; if ({s}.calls > {self.b.calls}) bail(); "
                 f"Vec<{el}> {out}; {out}.reserve(2 * ({xs}.size() - {i})); "
                 f"for (; {i} < {xs}.size(); ++{i}) {{ const {self.ct(lt.arg)} {x} = {xs}[{i}]; {fill} }} ")
        return (f"([&]() -> {self.ct(t)} {{ {ask}if ({i} == {xs}.size()) return {other}; {again}"
                f"return {self.ct(t)}(std::move({out})); }}())")

    def _walked_filled(self, e, sc: dict, parts: tuple, names: tuple) -> str:
        """``first_filled``'s C++ where ``xs`` is the call of a filter walked from the
        index (kernel_tops.py, ``filter_walk``): its cells walked where they are, the
        list made from the bit the test stopped at on, with no list of them made. The
        same work: the filter's, then its cells as the list's loop counts them."""
        walk, x, fill, test, out = parts
        w0, c0, wb, cb, i = names
        s = counters(sc)
        t = self.ty(e)
        outer = e.then.clauses[0]
        head = "" if self.facts.counted(outer.iter) else f"W({s}, (I){walk.n}); "
        ask = (f"const I {w0} = {s}.work, {c0} = {s}.calls; I {wb} = 0, {cb} = 0; {walk.head}{head}"
               f"size_t {i} = 0; {walk.decl}"
               + walk.loop(x, f"{wb} = {s}.work; {cb} = {s}.calls; if ({test}) break; ++{i};") + " ")
        other = self.expr(e.other, sc, t)
        again = (f"W({s}, {w0} - {wb}); {s}.calls += {cb} - {c0}; if ({s}.calls > {self.b.calls}) bail(); "
                 f"Vec<{self.ct(t.arg)}> {out}; {out}.reserve(2 * ({walk.n} - {i})); " + walk.loop(x, fill) + " ")
        return (f"([&]() -> {self.ct(t)} {{ {ask}if ({walk.done}) return {other}; {again}"
                f"return {self.ct(t)}(std::move({out})); }}())")
