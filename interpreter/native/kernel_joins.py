"""Lists of numbers or ids joined with ``+`` whose first part is a comprehension or a
list written out (kernel_operators.py, Gen._BinOp): ``[b for b in steps(a) if empty(b)] + [b for
b in takes(a) if foe(b)]``, ``[code(c) for c in cells(board)] + [me, rights]``. Each
part's elements are pushed in turn into one list being built (cxx/kernel_rt.hpp,
``Build``), where ``wcat`` made a list of each part, then a third of both, or grew the
first (a piece's steps and takes, a position's numbers). The same elements in the same
order, and the same work: each part's own as it counts it (its loops, kernel.py
``loops``), then each ``+`` counts the sizes of both its sides, left to right, as the
reference does."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .kernel_reads import counters


def _parts(e, is_list) -> list:
    """The parts of ``a + b + c ...`` (the left operands of + all the way down): a part
    that is itself a join on the right stays whole (its own work, then this one's)."""
    parts = []
    while e.node == "BinOp" and e.op == "+" and is_list(e):
        parts.append(e.right)
        e = e.left
    parts.append(e)
    return parts[::-1]


class JoinedLists:
    """Gen's ``a + b`` of lists of numbers or ids, built once (see the module's docstring)."""

    if TYPE_CHECKING:
        occupied: Any

        def fresh(self, base: str) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e) -> Any: ...
        def ct(self, t) -> str: ...
        def elementwise(self, e, sc: dict) -> str | None: ...
        def _compactable(self, e, el: str) -> bool: ...
        def _static_cells(self, e, sc: dict, t) -> str | None: ...
        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    def joined_lists(self, e, sc: dict, t) -> str | None:
        """The C++ of the join ``e`` of type ``t`` built in one list, or None (elements
        other than numbers or ids, or a first part that is not made for the join alone:
        ``wcat`` appends to a list just made where it is, or shares a kept one)."""
        el = self.ct(t.arg)
        if el not in ("Id", "I"):
            return None
        parts = _parts(e, lambda x: self.ty(x).tag == "list")
        first = parts[0]
        if first.node not in ("Comprehension", "ListLit") or (first.node == "ListLit" and not first.items):
            return None
        if first.node == "Comprehension" and self._compactable(first, el) \
                and all(p.node == "ListLit" for p in parts[1:]):
            return self._compact_then_written(first, parts[1:], sc, t, el)
        out = self.fresh("out")
        code = [self._pushed(p, sc, t, out) for p in parts]
        written = sum(len(p.items) for p in parts if p.node == "ListLit")
        if written:   # (the elements written out expected with the loops' lists)
            code[0] = f"{out}.reserve({written}); {code[0]}"
        joins = "".join(f"{c} W({counters(sc)}, (I){out}.size());" for c in code[1:])
        return f"([&]() -> {self.ct(t)} {{ Build<{el}> {out}; {code[0]}{joins} return {out}.list(); }}())"

    def _compact_then_written(self, first, written: list, sc: dict, t, el: str) -> str | None:
        """``[f(c) for c in xs] + [a, b]``: the comprehension written in place (kernel.py,
        Gen._Comprehension), its list sized with room for the elements written out, then
        those put after its own, where ``wcat`` appended them to a list sized for the
        comprehension's alone (copied into a buffer twice its size once past the stack's);
        None where the comprehension is not written so (one element per cell, a table)."""
        if self.elementwise(first, sc) is not None or self._static_cells(first, sc, t) is not None:
            return None
        out, n = self.fresh("out"), self.fresh("n")
        body = self.occupied.mapped(first, sc, t, out, n) or self.loops(
            first, sc, None, reserve=out, compact=(n, lambda inner: self.expr(first.elem, inner, t.arg)))
        rest = "".join(" ".join(f"{out}.put({self.expr(x, sc, t.arg)});" for x in p.items)
                       + f" W({counters(sc)}, (I){out}.n); " for p in written)
        room = sum(len(p.items) for p in written)
        return (f"([&]() MK_AI -> {self.ct(t)} {{ Grow<{el}> {out}; "
                f"{out}.extra = {room}; size_t {n} = 0; {body} {out}.resize({n}); {rest}"
                f"return {out}.list(); }}())")

    def _pushed(self, part, sc: dict, t, out: str) -> str:
        """The statements that push the elements of ``part`` (a list of type ``t``) onto
        the list being built ``out``, with the work ``part`` counts."""
        if part.node == "ListLit":
            return " ".join(f"{out}.push_back({self.expr(x, sc, t.arg)});" for x in part.items)
        if part.node == "Comprehension" and self.elementwise(part, sc) is None \
                and self._static_cells(part, sc, t) is None:
            if part.cond is not None and part.elem.node == "Var" and any(cl.var == part.elem.name for cl in part.clauses):
                # (a loop's own element kept where the condition holds: no branch on it)
                return self.loops(part, sc, lambda inner, test: f"{out}.push_if({self.expr(part.elem, inner, t.arg)}, "
                                  f"(bool)({test}));", reserve=out, whole=True, truth=True)
            return self.loops(part, sc, lambda inner: f"{out}.push_back({self.expr(part.elem, inner, t.arg)});",
                              reserve=out, whole=True)
        xs, x = self.fresh("xs"), self.fresh("x")
        return (f"{{ const {self.ct(t)}& {xs} = {self.expr(part, sc, t)}; "
                f"for (const {self.ct(t.arg)}& {x} : {xs}) {out}.push_back({x}); }}")
