"""``any`` over walks along rays that must be longer than one cell, decided from the
first cells' bits where none can be (a part of ``kernel.Gen``, issue 36).

``any(F(d) for d in L)`` where L's value is known (``known_value``: a list written out,
or a function's that is one), and F(d) is, through a call of a rule function, ``size(W)
>= 2 and ...`` (or ``size(W) > 1``), W the call of a rule function whose body is
``until(y for y in ray(c, ...) if P(y))``, its start a name of the scope around, its
steps known for each element of L, and P one cell's test read as a bit (``empty(y)``,
``occupied(y)``, or core/tops.py ``cell_test``'s forms). A walk longer than one cell
starts on a cell that fails P; where no ray of two cells or more from c has its first
cell's bit in "fails P" (``occ & ~row``, ``~occ``...), every walk stops at its first cell
or at the ray's end before it, each F is false at its size test, and the work they count
is, per cell c, the number of rays from c that have a cell (a walk counts the cells it
looks at), plus the list's own where it counts it: known before any game, charged at
once. Else the walks run as written. The same truth, work and calls as the reference
(core/evaluate.py evaluates F's arguments, then its body's first conjunct). A game of
lines closed by a move (``legal(c, s)``): the empty cells no disc of the other seat is
beside."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .kernel_reads import carried, reads_of, state

_WORD = 64


class FirstStops:
    """``Gen``'s test of the first cells before an ``any`` of such walks (see the module)."""

    if TYPE_CHECKING:
        c: Any
        p: Any
        ns: Any
        facts: Any
        tables: Any
        occupied: Any
        tops: Any
        recursive: Any
        nz: int

        def known_value(self, e, depth: int = 0): ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e) -> Any: ...
        def charge(self, sc: dict, n: str | int) -> str: ...
        def fresh(self, base: str) -> str: ...

    def first_stops(self, e, sc: dict) -> str | None:
        """The C++ of the test before ``e`` (an ``any``): true where every walk stops at
        once, its work then counted; None where ``e`` is no such ``any``."""
        if e.func != "any" or len(e.comp.clauses) != 1 or e.comp.cond is not None or reads_of(sc) is not None:
            return None   # (the zones' reads noted: a lasting keep's body, a walk's; not read so)
        cl = e.comp.clauses[0]
        values = self.known_value(cl.iter)
        if not isinstance(values, list) or not values:
            return None
        found = self._sized_walk(e.comp.elem, cl.var)
        if found is None:
            return None
        walk, args = found
        return self._first_test(walk, args, cl, values, sc)

    def _sized_walk(self, elem, var: str):
        """(W's rule function, its arguments) where ``elem`` is ``F(...)`` whose body starts
        with ``size(p) >= 2``, p F's parameter given ``W(...)``, F's other arguments
        harmless and naming not ``var``; else None."""
        fs = self.c.functions
        if elem.node != "Call" or elem.func not in fs or not self._plain_function(elem.func):
            return None
        fd = fs[elem.func]
        first = fd.body
        while first.node == "BinOp" and first.op == "and":
            first = first.left
        p = _sized_name(first)
        names = [q.name for q in fd.params]
        if p is None or p not in names or len(elem.args) != len(names) or not self.c.calls_builtin("size"):
            return None
        w = elem.args[names.index(p)]
        if w.node != "Call" or w.func not in fs or not self._plain_function(w.func):
            return None
        others = [a for q, a in zip(names, elem.args) if q != p]
        if not all(self.facts.harmless(a) and not _names(a, var) for a in others):
            return None
        return fs[w.func], w.args

    def _plain_function(self, name: str) -> bool:
        """A rule function that counts no call and does not call itself."""
        return name not in self.facts.counts_calls and name not in self.recursive

    def _first_test(self, wd, args, cl, values: list, sc: dict) -> str | None:
        body = wd.body
        if body.node != "Aggregate" or body.func != "until" or len(body.comp.clauses) != 1:
            return None
        wc = body.comp.clauses[0]
        ray, test = wc.iter, body.comp.cond
        if ray.node != "Ray" or test is None or len(args) != len(wd.params):
            return None
        bound = {q.name: a for q, a in zip(wd.params, args)}
        var = cl.var
        for a in args:   # (each argument harmless, or known for each element of the list)
            if not self.facts.harmless(a) and any(_known(a, var, v) is None for v in values):
                return None
        start = ray.start
        if start.node != "Var" or start.name not in bound:
            return None
        c = bound[start.name]
        if c.node != "Var" or _names(c, var) or not self.facts.harmless(c):
            return None
        steps = _steps(ray, bound, var, values)
        fails = None if steps is None else self._fails(test, wc.var, bound, var, sc)
        if fails is None or steps is None:
            return None
        tables = self._rays_from(ray, steps)
        if tables is None:
            return None
        self.occupied.keep(self.ty(ray.start).arg)   # (its words read: the zones keep them)
        nb, nr = tables
        list_work = 0 if self.facts.counted(cl.iter) else len(values)
        x = self.fresh("fc")
        return (f"([&]() MK_AI -> bool {{ const Id {x} = {self.expr(c, sc)}; "
                f"if ((uint32_t){x} >= (uint32_t){self.nz}) return false; "
                f"if ({nb}[{x}] & {fails}) return false; {self.charge(sc, f'{list_work} + (I){nr}[{x}]')}"
                f"return true; }}())")

    def _fails(self, test, y: str, bound: dict, var: str, sc: dict) -> str | None:
        """The C++ of the word of the cells that fail ``test`` (of the walk's cell ``y``),
        W's parameters it names given their arguments' C++; None where it is no one cell's
        bit or names the list's variable."""
        occ = self.occupied
        if not 0 < occ.n <= _WORD:
            return None
        st = state(sc)
        if test.node == "Call" and test.func in ("empty", "occupied") and self.c.calls_builtin(test.func) \
                and len(test.args) == 1 and test.args[0].node == "Var" and test.args[0].name == y:
            return f"{st}.z.occ[0]" if test.func == "empty" else f"~{st}.z.occ[0]"
        found = self.facts.cell_test(test)
        if found is None:
            return None
        x, tv, either = found
        if x.node != "Var" or x.name != y or _names(tv.value, y):
            return None
        inner = carried(sc)
        for n in {m.name for m in ir.walk(tv.value) if m.node == "Var"}:
            if n in bound:
                a = bound[n]
                if _names(a, var) or not self.facts.harmless(a):
                    return None
                inner[n] = (self.expr(a, sc), self.ty(a))
            elif n in sc:
                inner[n] = sc[n]
        slot = self.tops.slot_of(tv, self.ty(x).arg)
        if slot is None:
            return None
        value = self.expr(tv.value, inner, tv.at)
        # (either: "empty or top's value", failed by an occupied cell of another value;
        # else "occupied and top's value", failed by every cell not of it; an item
        # variable's value with no slot: every cell may fail, the walks run)
        occupied = f"{st}.z.occ[0] & " if either else ""
        if tv.mutable:
            return (f"([&]() MK_AI -> uint64_t {{ const int k_ = {slot}({value}); "
                    f"return k_ >= 0 ? {occupied}~{st}.z.tops[k_][0] : ~0ULL; }}())")
        return f"({occupied}~{st}.z.tops_of({slot}({value}))[0])"

    def _rays_from(self, ray, steps: list[tuple]) -> tuple[str, str] | None:
        """The tables, per cell, of the bits of the first cells of the rays of two cells or
        more along ``steps``, and of how many of the rays have a cell; None where a cell
        is outside the index's word."""
        board = self.ty(ray.start).arg
        cells = self.p.boards.get(board) or []
        lo = self.occupied.lo
        table = self.ns[self.p.ray_table(board, tuple(a.name for a in ray.steps), ray)]
        nb = [0] * self.nz
        nr = [0] * len(nb)
        for z in cells:
            for st in steps:
                r = table[(z, *st)]
                if len(r) >= 1:
                    nr[z] += 1
                if len(r) >= 2:
                    b = r[0] - lo
                    if not 0 <= b < _WORD:
                        return None
                    nb[z] |= 1 << b
        key = ("FIRSTSTOPS", board, tuple(steps))
        n = len(nb)
        a = self.tables.table(key + ("NB",), lambda t: f"static const uint64_t {t}[{n}] = "
                              f"{{{', '.join(f'{x:#x}ULL' for x in nb)}}};")
        b = self.tables.table(key + ("NR",), lambda t: f"static const uint8_t {t}[{n}] = "
                              f"{{{', '.join(str(x) for x in nr)}}};")
        return a, b


def _sized_name(e) -> str | None:
    """p where ``e`` is ``size(p) >= 2``, ``size(p) > 1``, ``2 <= size(p)`` or ``1 <
    size(p)``, p a name; else None."""
    if e.node != "BinOp":
        return None
    pairs = {">=": (e.left, e.right, 2), ">": (e.left, e.right, 1), "<=": (e.right, e.left, 2),
             "<": (e.right, e.left, 1)}
    if e.op not in pairs:
        return None
    s, k, want = pairs[e.op]
    if k.node != "IntLit" or k.value != want or s.node != "Call" or s.func != "size" or len(s.args) != 1:
        return None
    return s.args[0].name if s.args[0].node == "Var" else None


def _steps(ray, bound: dict, var: str, values: list) -> list[tuple] | None:
    """The steps of ``ray`` (a walk's body, its parameters given ``bound``'s arguments)
    for each element of the list (``var`` each of ``values``), or None where one is not
    known so."""
    steps = []
    for v in values:
        row = []
        for a in ray.steps:
            x = a.value
            if x.node == "Var" and x.name in bound:
                x = bound[x.name]
            elif _names(x, *bound):
                return None
            k = _known(x, var, v)
            if type(k) is not int:
                return None
            row.append(k)
        steps.append(tuple(row))
    return steps


def _names(e, *names: str) -> bool:
    """Whether ``e`` names any of ``names``."""
    return any(n.node == "Var" and n.name in names for n in ir.walk(e))


def _known(e, var: str, v):
    """The value of ``e`` where ``var`` is ``v``: a number, ``var``, ``var[k]``, a
    negation; else None."""
    if e.node == "IntLit":
        return e.value
    if e.node == "UnOp" and e.op == "-":
        x = _known(e.operand, var, v)
        return -x if type(x) is int else None
    if e.node == "Var" and e.name == var:
        return v
    if e.node == "Index" and e.obj.node == "Var" and e.obj.name == var and e.index.node == "IntLit" \
            and isinstance(v, list) and 0 <= e.index.value < len(v):
        return v[e.index.value]
    return None
