"""A call of a filter over a list made for it, in one loop (kernel.py, Gen._Call): a rule
function whose body is ``[m for m in ms if cond]`` (one loop over its list parameter,
its own elements kept), called plainly (no keep of its values, no count of its calls)
with a list just made for that parameter, a comprehension or a join of parts with
``+`` (``safe_moves([[a, b] for a in men for b in reach(a)] + castlings(me), ...)``):
each element of the argument tested where it is made, the ones kept pushed into the
value, where a list of them all was made (and joined to the other parts), walked by
the filter and dropped (a seat's moves, made and filtered at every turn).

The same elements in the same order, and the same work and calls: the parts' own, as
they count them (their loops, kernel.py ``loops``), each ``+`` the sizes of both its
sides, and the filter's loop the elements walked, the three counted once the loops have
run (the budgets are counters that only go down, so a budget is passed by the end
where it was passed anywhere; the rules read the state, never change it, meanwhile)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .kernel_ordered import kept_seen, track_seen
from .kernel_reads import counters
from .kernel_types import BOOL

_PARTS = 8   # parts of a join at most


class FilteredCalls:
    """Gen's calls of a filter over a list made for it (see the module's docstring)."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        any_order: dict

        def fresh(self, base: str) -> str: ...
        def ty(self, e) -> Any: ...
        def ct(self, t) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def param_type(self, p) -> Any: ...
        def called_plainly(self, e) -> bool: ...
        def _bound_params(self, fd, args: list, sc: dict) -> tuple[str, dict]: ...
        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    def filtered_call(self, e, sc: dict) -> str | None:
        """The C++ of the call ``e`` of a filter given a list made for it, in one loop,
        or None (see the module's docstring)."""
        if self.facts.call_kind(e) != "function":
            return None
        fd = self.c.functions[e.func]
        k = _filtered_param(fd)
        if k is None or not self.called_plainly(e):
            return None
        parts = self._made_parts(e.args[k])
        if parts is None:
            return None
        for a in e.args:   # (compiled here in their order: see kernel_memo.py, mark_order_free)
            self.any_order.pop(id(a), None)
        body, p = fd.body, fd.params[k]
        pt = self.param_type(p)
        if pt.tag != "list" or pt.arg is None:
            return None
        rest = [(q, a) for i, (q, a) in enumerate(zip(fd.params, e.args)) if i != k]
        binds, scope = self._bound_params(_Params([q for q, _ in rest]), [a for _, a in rest], sc)
        el, lt = self.ct(pt.arg), self.ct(pt)
        out, n = self.fresh("out"), self.fresh("n")
        var = self.fresh(body.clauses[0].var)
        inner = dict(scope)
        inner[body.clauses[0].var] = (var, pt.arg)
        test = self.expr(body.cond, inner, BOOL)

        def kept(i: int, elem: str) -> str:   # (each element counted, tested, kept)
            return f"{{ const {el} {var} = {elem}; ++{n}[{i}]; if ({test}) {out}.push_back({var}); }}"

        code = []
        for i, part in enumerate(parts):
            if part.node == "Comprehension":
                if i == 0:
                    track_seen(self, part)
                code.append(self.loops(part, sc, lambda within, i=i, part=part: kept(
                    i, self.expr(part.elem, within, pt.arg)), reserve=out if i == 0 else None, whole=True))
            else:
                xs, x = self.fresh("xs"), self.fresh("x")
                code.append(f"{{ const {lt}& {xs} = {self.expr(part, sc, pt)}; "
                            f"for (const {el}& {x} : {xs}) {kept(i, x)} }}")
        # (the work: the filter's loop, its elements, unless counted already; each +,
        # the parts on both its sides: part j is on the left of the joins after it)
        terms = [] if self.facts.counted(body.clauses[0].iter) else [f"{n}[{j}]" for j in range(len(parts))]
        terms += [f"{len(parts) - max(j, 1)} * {n}[{j}]" for j in range(len(parts)) if len(parts) > 1]
        work = f"W({counters(sc)}, {' + '.join(terms)}); " if terms else ""
        work += kept_seen(self, parts[0], out) if parts[0].node == "Comprehension" else ""
        return (f"([&]() -> {lt} {{ {binds}Vec<{el}> {out}; I {n}[{len(parts)}] = {{}}; "
                f"{' '.join(code)} {work}return {lt}(std::move({out})); }}())")

    def _made_parts(self, a) -> list | None:
        """The parts of the argument ``a``, a list made for the call: a comprehension,
        or a join with ``+`` whose first part is one (the others any lists); else None."""
        parts = []
        while a.node == "BinOp" and a.op == "+" and self.ty(a).tag == "list":
            parts.append(a.right)
            a = a.left
        parts.append(a)
        parts.reverse()
        if parts[0].node != "Comprehension" or len(parts) > _PARTS:
            return None
        if any(p.node == "BinOp" and p.op == "+" for p in parts[1:]):
            return None   # (a join on the right: its own work, in its own order)
        return parts


class _Params:
    """A function's parameters but the filtered one (what ``_bound_params`` binds)."""

    def __init__(self, params: list):
        self.params = params


def _filtered_param(fd) -> int | None:
    """The index of the parameter the function ``fd`` filters (its body ``[m for m in
    p if cond]``, cond reading m and the other parameters, never p), or None."""
    body = fd.body
    if body.node != "Comprehension" or len(body.clauses) != 1 or body.cond is None:
        return None
    cl = body.clauses[0]
    if cl.iter.node != "Var" or body.elem.node != "Var" or body.elem.name != cl.var:
        return None
    names = [q.name for q in fd.params]
    if cl.iter.name not in names or cl.var in names:
        return None
    if any(n.node == "Var" and n.name == cl.iter.name for n in ir.walk(body.cond)):
        return None
    return names.index(cl.iter.name)
