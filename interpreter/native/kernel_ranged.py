"""Integers whose ranges a call makes known (kernel.py, Gen._Call, _Index, _arith): a
rule function without a loop, called plainly (no keep of its values, no count of its
calls), whose integer arguments' ranges are known where it is called (core/bounds.py:
``at(a.file, (a.rank + b.rank) / 2)``, ``at(5, back_rank(me))``) has its body compiled
in the place of the call with those ranges, where that makes some of its arithmetic
plain (no test of none or of overflow) or an index into a board's cells within them (no
test of the index): a rule's ``at(f, r) = cells(square)[(8 - r) * 8 + f - 1]``, called
for the squares of several moves at every turn, where each call tested
four operations and the index. The same values and the same work (arithmetic and an
index count none); an error the call could raise, it cannot raise with those ranges.
An index into a board's cells whose range is known anywhere is read with no test."""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .kernel_types import INT, PLAIN_MAX

_LOOPS = frozenset(ir.LOOPS)


class RangedCalls:
    """Gen's calls and indexes made plain by known ranges (see the module's docstring)."""

    if TYPE_CHECKING:
        c: Any
        ns: Any
        b: Any
        facts: Any
        any_order: dict
        recursive: Any
        counting: Any

        def known_value(self, e, depth: int = 0): ...
        def finds_component(self, name: str, depth: int = 0) -> bool: ...
        def pure_recursive(self, name: str) -> bool: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def ct(self, t) -> str: ...
        def typeref(self, tr) -> Any: ...
        def called_plainly(self, e) -> bool: ...
        def _bound_params(self, fd, args: list, sc: dict) -> tuple[str, dict]: ...

    def known_ranges(self, e) -> dict | None:
        """The ranges of the parameters of a body compiled in place (``ranged_call``)
        where ``e`` is one of its nodes, else None."""
        ranged = self.__dict__.get("ranged")
        return ranged[1] if ranged is not None and id(e) in ranged[0] else None

    def known_param(self, e):
        """The value of the variable ``e`` where it is a parameter of a body compiled in
        place whose argument's value is known (a list of numbers: ``ranged_call``),
        else None."""
        ranged = self.__dict__.get("ranged")
        return ranged[2].get(e.name) if ranged is not None and id(e) in ranged[0] else None

    @contextmanager
    def calls_kept(self):
        """While inside, calls are compiled as calls, never in place: the same
        expression compiled twice gives the same text (kernel_rows.py finds one's in
        another's; a body in place has locals of fresh names)."""
        self.__dict__["in_calls_kept"] = self.__dict__.get("in_calls_kept", 0) + 1
        try:
            yield
        finally:
            self.__dict__["in_calls_kept"] -= 1

    def ranged_call(self, e, sc: dict) -> str | None:
        """The C++ of the call ``e`` of a rule function compiled in its place with its
        arguments' ranges or values known, or None (see the module's docstring)."""
        f = e.func
        fd = self.c.functions[f]
        if not fd.params or f in self.recursive or f in self.counting or self.__dict__.get("in_calls_kept"):
            return None
        outer = self.known_ranges(e)
        values = self._known_lists(fd, e.args)
        if values:   # (a loop over a list known: written out, kernel_unroll.py)
            known = self.facts.arg_ranges(fd, e.args, outer)
        else:
            if any(n.node in _LOOPS for n in ir.walk(fd.body)) or not self.called_plainly(e):
                return None
            known = self.facts.arg_ranges(fd, e.args, outer)
            if not known or not any(self._plainer(n, known) for n in ir.walk(fd.body)):
                return None
        for a in e.args:   # (compiled here in their order: see kernel_memo.py, mark_order_free)
            self.any_order.pop(id(a), None)
        binds, scope = self._bound_params(fd, e.args, sc)
        rt = self.typeref(fd.result)
        before = self.__dict__.get("ranged")
        self.__dict__["ranged"] = ({id(n) for n in ir.walk(fd.body)}, known, values)
        try:
            body = self.expr(fd.body, scope, rt)
        finally:
            self.__dict__["ranged"] = before
        return f"([&]() -> {self.ct(rt)} {{ {binds}return {body}; }}())"

    def _known_lists(self, fd, args) -> dict:
        """The parameters of ``fd`` whose arguments are lists of numbers (or of lists of
        numbers) known before any game (``known_value``) and that a loop of its body
        walks, by name; none where a loop's variable has a parameter's name, or the
        function is one whose values are found in another way (a component's)."""
        loops = [cl for n in ir.walk(fd.body) if n.node == "Comprehension" for cl in n.clauses]
        walked = {cl.iter.name for cl in loops if cl.iter.node == "Var"}
        names = {p.name for p in fd.params}
        if any(cl.var in names for cl in loops) or self.facts.component(fd.name) is not None \
                or self.finds_component(fd.name) or self.pure_recursive(fd.name):
            return {}
        out = {}
        for p, a in zip(fd.params, args):
            if p.name in walked:
                v = self.known_value(a)
                if isinstance(v, list) and v:
                    out[p.name] = v
        return out

    def _plainer(self, n, known: dict) -> bool:
        """Whether the node ``n`` is written plainer with the ranges ``known``: its
        arithmetic unchecked, or its index into a board's cells untested."""
        if n.node == "BinOp" and n.op in ("+", "-", "*") and self.c.type_of(n).tag == "int":
            limit = PLAIN_MAX if n.op != "*" else min(self.b.integer, PLAIN_MAX)
            return not self.facts.within(n, limit) and self.facts.within(n, limit, known)
        if n.node == "Index":
            size = self._cells_size(n.obj)
            return size is not None and not _inside(self.facts.int_range(n.index), size) \
                and _inside(self.facts.int_range(n.index, known), size)
        return False

    def _cells_size(self, e) -> int | None:
        """The number of cells of the board of ``cells(board)``, else None."""
        table = self.facts.table_list(e)
        if table is None or table[0] != "cells":
            return None
        return len(self.ns.get(f"BOARD_{table[1]}", ()))

    def ranged_index(self, e, sc: dict) -> str | None:
        """``cells(b)[i]`` with i's range known within the board's cells: read with no
        test of the index; else None."""
        size = self._cells_size(e.obj)
        if size is None or not _inside(self.facts.int_range(e.index, self.known_ranges(e.index)), size):
            return None
        return f"{self.expr(e.obj, sc)}[{self.expr(e.index, sc, INT)}]"


def _inside(r, size: int) -> bool:
    return r is not None and r[0] >= 0 and r[1] < size
