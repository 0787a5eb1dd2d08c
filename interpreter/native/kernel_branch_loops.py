"""A loop over the call of a function whose body chooses its list by a condition, run
in the call's place (kernel_filter_loops.py, FilterLoops.loop_in_place): a whole
comprehension's loop over ``reach(a, top(a))``, where ``reach``'s body is ``if x.role ==
pawn then pawn_reach(a, x.colour) elif ... then [b for b in knight_jump(a) if ...] else
slide(...)``: the condition tested in place, then each branch's elements bound to the
loop's variable one by one, where a list was made for the branch (and made again for the
function's value), then walked. A branch in place is a comprehension (its loops run
where they stand), a join of comprehensions of numbers or ids (``pawn_reach``'s two
parts, one after the other), another condition, or the call of a function whose body is
one of these, called plainly, or a list written out (``if top(c).king then [-1, 1] else
[forward(top(c).seat)]``: its elements passed as they are evaluated, none made, where
one of the condition's lists has an element not known before the game, made at each
evaluation); a function whose values are kept (kernel_memo.py) while
its keep is passed by (``skip``) runs in place too, its keep read as before otherwise.
Any other branch's list is made and walked where it stands.

The same elements in the same order and the same work: each comprehension's loops count
what they count as the list's own (kernel.py ``loops``), each join ``+`` the elements of
both its sides after its right one (kernel_joins.py), and the elements walked, counted
after all of them (nothing between changes the state: a budget passed anywhere is
passed at the end), as ``fused_loop`` does (kernel_memo.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .cxx_text import ident
from .kernel_filters import _filtered_param
from .kernel_reads import counters, state
from .kernel_types import BOOL
from .kernel_unroll import UNROLL_MAX

_DEPTH = 4   # (calls within calls put in place, at most)


class BranchLoops:
    """Gen's loops over a list chosen by a condition (see the module's docstring)."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        tables: Any
        recursive: Any
        counting: Any
        any_order: dict

        def fresh(self, base: str) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e) -> Any: ...
        def ct(self, t) -> str: ...
        def known_value(self, e, depth: int = 0): ...
        def called_plainly(self, e) -> bool: ...
        def kept_here(self, e) -> bool: ...
        def kept_call(self, name: str) -> str: ...
        def pure_recursive(self, name: str) -> bool: ...
        def finds_component(self, name: str, depth: int = 0) -> bool: ...
        def _bound_params(self, fd, args: list, sc: dict) -> tuple[str, dict]: ...
        def _known_lists(self, fd, args) -> dict: ...
        def known_ranges(self, e) -> dict | None: ...
        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    def branch_loop(self, it, sc: dict, var_el_t: tuple, inside) -> str | None:
        """The loop over ``it`` (a condition, or the call of a function whose body is
        one) with each branch's elements walked where they are made (``var_el_t``: the
        loop's variable, the C++ type of the elements, the list's type; ``inside()``:
        the loops within), or None (see the module's docstring)."""
        var, el, t = var_el_t
        if el not in ("Id", "I") or not self._chooses(it, 0):
            return None
        n, visit = self.fresh("n"), self.fresh("visit")
        # (the loops within written once, each branch's elements passed to them)
        code = self._spread(it, sc, (visit, el, t, None, [n]), 0)
        work = "" if self.facts.counted(it) else f"W({counters(sc)}, {n}); "
        return (f"{{ I {n} = 0; auto {visit} = [&](const {el} {var}) MK_AI {{ {inside()} }}; "
                f"{code} {work}}}")

    def _chooses(self, e, depth: int) -> bool:
        """Whether ``e`` is a condition or the call of a function whose body is one,
        put in place (``_callee``), with a branch whose list is not made (``_spares``)."""
        if e.node == "CondExpr":
            return self._spares(e, depth)
        fd = self._callee(e, depth)
        return fd is not None and self._chooses(fd.body, depth + 1)

    def _spares(self, e, depth: int) -> bool:
        """Whether some list of ``e`` is not made in place: a comprehension, a join, in
        a branch or the body of a call put in place (lists written out are not made:
        ``promotions(m)``'s ``[queen, rook, bishop, knight]`` and ``[none]`` are kept
        once)."""
        if e.node == "CondExpr":
            return self._spares(e.then, depth) or self._spares(e.other, depth)
        if e.node == "Comprehension" or self._join_parts(e) is not None:
            return True
        if self._spread_items(e):   # (made at each evaluation: an element not known)
            return any(self.known_value(x) is None for x in e.items)
        fd = self._callee(e, depth)
        return fd is not None and self._in_place(fd.body) and self._spares(fd.body, depth + 1)

    def _callee(self, e, depth: int):
        """The definition of the function ``e`` calls where its body may be put in
        place: a call of a rule function, called plainly, or kept with a keep that may
        be passed by (``_rate``), not one of a filter given a list made for it nor one
        given a list known (put in place by those: kernel_filters.py, kernel_ranged.py);
        else None."""
        if depth >= _DEPTH or e.node != "Call" or self.facts.call_kind(e) != "function" \
                or self.__dict__.get("in_calls_kept"):
            return None
        fd = self.c.functions[e.func]
        if _filtered_param(fd) is not None:
            return None   # (compiled in place otherwise: kernel_filters.py)
        if self._known_lists(fd, e.args):   # (in place with them known, as kernel_ranged.py does)
            return None if e.func in self.recursive or e.func in self.counting else fd
        if not (self.called_plainly(e) or self._rate(e) is not None):
            return None
        return fd

    def _rate(self, e) -> str | None:
        """The table of how a kept function's keep is passed by (kernel_memo.py,
        ``_bypass``), where the call ``e`` reads that keep and nothing else sets it
        apart (no component, no count of calls, not recursive); else None."""
        f = e.func
        if not self.kept_here(e) or f in self.recursive or f in self.counting or self.pure_recursive(f) \
                or (id(e) in self.any_order and (self.facts.component(f) is not None or self.finds_component(f))):
            return None
        self.kept_call(f)   # (made first: its pass-by, where it has one)
        return self.tables.made.get(("KEEP_RATE", f))

    def _spread(self, e, sc: dict, how: tuple, depth: int) -> str:
        """Statements that pass each element of the list ``e`` to the loops within,
        each counted by every counter of ``how`` (the lambda of the loops within, the
        C++ type of the elements, the list's type, None, the counters)."""
        visit, el, t, _, ns = how
        if e.node == "CondExpr":
            return (f"if ({self.expr(e.cond, sc, BOOL)}) {{ {self._spread(e.then, sc, how, depth)} }} "
                    f"else {{ {self._spread(e.other, sc, how, depth)} }}")
        if e.node == "Comprehension":
            return self.loops(e, sc, lambda inner: self._element(self.expr(e.elem, inner, t.arg), how), whole=True)
        if self._spread_items(e):   # (each element passed as it is evaluated: no list)
            return " ".join(self._element(self.expr(x, sc, t.arg), how) for x in e.items)
        parts = self._join_parts(e)
        if parts is not None:
            j = self.fresh("j")
            deeper = (visit, el, t, None, ns + [j])
            code = [self._spread(p, sc, deeper, depth) for p in parts]
            joins = "".join(f" {c} W({counters(sc)}, {j});" for c in code[1:])
            return f"{{ I {j} = 0; {code[0]}{joins} }}"
        fd = self._callee(e, depth)
        if fd is not None and self._in_place(fd.body):
            values = self._known_lists(fd, e.args)
            if values:
                return self._known_spread(e, fd, sc, how, depth, values)
            binds, scope = self._bound_params(fd, e.args, sc)
            rate = None if self.called_plainly(e) else self._rate(e)
            if rate is not None:
                # (the keep read or made as its call would, its work and calls given
                # back: they are counted in place, as where the keep is passed by)
                w, c = self.fresh("w"), self.fresh("c")
                args = "".join(f", {scope[p.name][0]}" for p in fd.params)
                binds += (f"if (__builtin_expect({rate}.skip != 0, 1)) --{rate}.skip; "
                          f"else {{ I {w} = {counters(sc)}.work, {c} = {counters(sc)}.calls; "
                          f"(void){ident('KB', e.func)}({state(sc)}{args}); "
                          f"{counters(sc)}.work = {w}; {counters(sc)}.calls = {c}; }} ")
            return f"{{ {binds}{self._spread(fd.body, scope, how, depth + 1)} }}"
        return self._walked(e, sc, how)

    def _known_spread(self, e, fd, sc: dict, how: tuple, depth: int, values: dict) -> str:
        """The body of the call ``e`` put in place with its arguments' lists and ranges
        known, as kernel_ranged.py's ``ranged_call`` compiles it (its loops over those
        lists written out: kernel_unroll.py)."""
        for a in e.args:   # (compiled here in their order: see kernel_memo.py, mark_order_free)
            self.any_order.pop(id(a), None)
        known = self.facts.arg_ranges(fd, e.args, self.known_ranges(e))
        binds, scope = self._bound_params(fd, e.args, sc)
        before = self.__dict__.get("ranged")
        self.__dict__["ranged"] = ({id(n) for n in ir.walk(fd.body)}, known, values)
        try:
            return f"{{ {binds}{self._spread(fd.body, scope, how, depth + 1)} }}"
        finally:
            self.__dict__["ranged"] = before

    def _in_place(self, body) -> bool:
        """Whether a body is worth putting in place: a condition, a comprehension or a
        join of them."""
        return body.node in ("CondExpr", "Comprehension") or self._join_parts(body) is not None

    def _spread_items(self, e) -> bool:
        """Whether ``e`` is a list written out whose elements are passed one by one:
        ``UNROLL_MAX`` at most (kernel_unroll.py), each a number or an id."""
        return e.node == "ListLit" and 0 < len(e.items) <= UNROLL_MAX \
            and self.ct(self.ty(e).arg) in ("Id", "I")

    def _join_parts(self, e) -> list | None:
        """The parts of ``a + b + ...`` where each is a comprehension of numbers or ids
        (as kernel_joins.py builds them, each ``+`` counting the elements so far), else
        None."""
        if e.node != "BinOp" or e.op != "+" or self.ty(e).tag != "list" or self.ct(self.ty(e).arg) not in ("Id", "I"):
            return None
        parts = []
        while e.node == "BinOp" and e.op == "+" and self.ty(e).tag == "list":
            parts.append(e.right)
            e = e.left
        parts.append(e)
        if any(p.node != "Comprehension" for p in parts):
            return None
        return parts[::-1]

    def _walked(self, e, sc: dict, how: tuple) -> str:
        """The list ``e`` made where it stands (with its own work), then walked."""
        el, t = how[1], how[2]
        xs, x = self.fresh("xs"), self.fresh("x")
        return (f"{{ const {self.ct(t)}& {xs} = {self.expr(e, sc, t)}; "
                f"for (const {el}& {x} : {xs}) {{ {self._element(x, how)} }} }}")

    @staticmethod
    def _element(value: str, how: tuple) -> str:
        """One element counted, then passed to the loops within."""
        visit, ns = how[0], how[4]
        counts = " ".join(f"++{n};" for n in ns)
        return f"{counts} {visit}({value});"
