"""A loop over the call of a filter, its list made on the stack (kernel.py, Gen.loops): a
whole comprehension (one that runs to its end) whose loop walks the call of a rule
function whose body is a comprehension of one loop (``for a in men_of(me)``,
``men_of``'s body ``[c for c in cells(square) if own(c, me)]``), called plainly (no keep,
no count of its calls, not recursive), its elements numbers or ids: that loop run in the
call's place, the elements it keeps pushed onto the stack (``Build``), then walked, where
a list was made on the heap, walked and dropped at each turn (kernel_memo.py's
``fused_loop`` does so for two loops or more). Where the element is the loop's own
variable, each is written and counted by its test's truth, with no branch on it. Where
the filter's cells are the bits of the index of the cells by their top item
(kernel_tops.py, ``filter_walk``), no list is made at all: the loops within run at each
bit, how many the bits are counted before them.

The same elements in the same order and the same work: the function's loop as it counts
it, then the elements walked before the loops within, as the reference counts them; the
room of the list the comprehension fills reserved as for a list walked
(kernel_ordered.py, reserve_size)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .kernel_ordered import reserve_size
from .kernel_reads import counters


class FilterLoops:
    """Gen's loops over the call of a filter (see the module's docstring)."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        tops: Any

        def fresh(self, base: str) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def called_plainly(self, e) -> bool: ...
        def fused_loop(self, it, sc: dict, var_el_t: tuple, inside) -> str | None: ...
        def branch_loop(self, it, sc: dict, var_el_t: tuple, inside) -> str | None: ...
        def _compactable(self, e, el: str) -> bool: ...
        def _bound_params(self, fd, args: list, sc: dict) -> tuple[str, dict]: ...
        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    def loop_in_place(self, it, sc: dict, var_el_t: tuple, inside, how: tuple) -> str | None:
        """A loop of ``loops`` over a function's comprehension run in the call's place:
        two loops or more (kernel_memo.py, fused_loop), or one (``filter_loop``), or
        None. ``how``: whether the loops run whole, their ``compact`` (then none in
        place for one loop), the comprehension, the vector it fills where this is its
        first loop (its room reserved for the elements walked)."""
        whole, compact, comp, reserve = how
        if not whole:
            return None
        fused = self.fused_loop(it, sc, var_el_t, inside)
        if fused is None and compact is None:   # (a list chosen by a condition: kernel_branch_loops.py)
            fused = self.branch_loop(it, sc, var_el_t, inside)
        if fused is not None or compact is not None:
            return fused
        room = (lambda k: f"{reserve}.reserve({reserve_size(self, comp, k, True)}); ") if reserve else None
        return self.filter_loop(it, sc, var_el_t, inside, room)

    def filter_loop(self, it, sc: dict, var_el_t: tuple, inside, room=None) -> str | None:
        """The loop over ``it``, the call of a filter of one loop, its list on the stack
        (``var_el_t``: the loop's variable, the C++ type of the elements, the list's
        type; ``inside()``: the loops within; ``room(k)``: the statement reserving the
        filled list's room for ``k`` elements walked, or None), or None (see the module)."""
        if it.node != "Call" or self.facts.call_kind(it) != "function":
            return None
        var, el, t = var_el_t
        walk = self.tops.filter_walk(it, sc) if el == "Id" else None
        if walk is not None:   # (its bits walked where they are: kernel_tops.py)
            work = "" if self.facts.counted(it) else f"W({counters(sc)}, (I){walk.n}); "
            return (f"{{ {walk.head}{work}{room(walk.n) if room else ''}{walk.decl}"
                    f"{walk.loop(var, '{ ' + inside() + ' }')} }}")
        fd = self.c.functions[it.func]
        body = fd.body
        if body.node != "Comprehension" or len(body.clauses) != 1 or el not in ("Id", "I") \
                or not self.called_plainly(it):
            return None
        out, d, n, k = self.fresh("out"), self.fresh("d"), self.fresh("n"), self.fresh("k")
        binds, scope = self._bound_params(fd, it.args, sc)

        def elem(inner: dict) -> str:
            return self.expr(body.elem, inner, t.arg)
        if self._compactable(body, el):   # (written in place, counted by the test's truth)
            loops = self.loops(body, scope, None, reserve=out, compact=(n, elem))
            head, made = f"Grow<{el}> {out}; size_t {n} = 0; {loops} ", f"{out}.d"
        else:
            loops = self.loops(body, scope, lambda inner: f"{out}.push_back({elem(inner)});", whole=True)
            head, made = f"Build<{el}> {out}; {loops} size_t {n} = {out}.size(); ", f"{out}.data()"
        work = "" if self.facts.counted(it) else f"W({counters(sc)}, {n}); "
        return (f"{{ {binds}{head}const {el}* {d} = {made}; {work}{room(n) if room else ''}"
                f"for (size_t {k} = 0; {k} < {n}; ++{k}) {{ const {el} {var} = {d}[{k}]; {{ {inside()} }} }} }}")
