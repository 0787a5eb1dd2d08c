"""A count compared with a number, stopped as soon as the comparison is decided
(kernel_operators.py, Gen._BinOp): ``count(x for x in xs if cond) == 3`` stops at the first
element cond turns down once xs has only 3, ``count(...) > 0`` at the first it lets
through. The loop keeps the elements let through so far and how many the rest could
add, and gives its value once no further element can change it.

Stopping early gives the count's value only where the elements it skips could change
nothing else: their condition counts no work and no calls (``Facts.counts_any``: the
budgets count the same), and cannot fail (``Safe``: the reference would stop there
with an error). A name from outside the loop that the condition needs to be some
value (a player ``p`` of ``seat(p)``) is checked before the loop; where it is none the
kernel leaves the move to Python (``nn`` bails), as it does for any error.

The same conditions' ``occupied(c) and top(c).seat == s`` take no branch on the cell
(``occupied_and``): the occupancy and the comparisons of the top item's attributes are
joined with ``&``, the top read as item 0 where the cell is empty. And a count of the
elements equal to one value (``count_equal``) finds them by their lists' hashes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ...dsl.operators import comparisons
from ...dsl.types import T
from ..core.operators import FOLDED
from .kernel_reads import counters, zone_read
from .kernel_types import BOOL, Unsupported
from .kernel_walks import CELL_ID

# the comparison of a count with k as "count within [a, b]", or not (count >= 0)
_BIG = 1 << 62
FLIP = comparisons()   # (each comparison's symbol, its operands swapped: the table's mirror)
_DEPTH = 8   # (rule functions looked into, one within another)
# A loop over the cells a static condition lets through (kernel_cells.py) of at most this
# many cells is counted whole, with no branch in it: what stopping could spare, a cell's
# or two's tests of a condition that fails nowhere and reads a table or two, is less than
# the branch that would stop it costs where the processor mispredicts it, as it does in
# random positions (a 3 × 3 board's lines of 3 cells: its random games 6 to 9% faster in
# CPU time, counted whole; longer lines not measured, left as they were)
SHORT = 3


def interval(op: str, k: int) -> tuple[int, int, bool]:
    """``count op k`` as (a, b, negated): the count within [a, b], or (negated) not; read
    from the comparison's reference meaning (core/operators.py) of k - 1, k and k + 1
    with k: where it holds at k alone, or everywhere but at k, [k, k]; else where it
    holds upwards, from the first of k, k + 1 where it does, else where it does not."""
    below, at, above = (FOLDED["BinOp", op].meaning(None, None, n, k) for n in (k - 1, k, k + 1))
    if below == above:
        return k, k, below
    return (k if at == above else k + 1), _BIG, not above


def _count(e) -> bool:
    return e.node == "Aggregate" and e.func == "count"


class Safe:
    """Whether an expression cannot fail, and the names from outside the loop it needs
    to be some value (``pre``: their C++, each checked before the loop). ``env``: what
    each name is known to be: ``"some"`` (never none: a board's cell of the loop, a
    number of a range), ``("outer", cxx)`` (a name from outside the loop), anything else
    a value that may be none; a name it does not hold is the program's (a variable,
    ``active``), read as it is where the loop starts. ``functions``: whether the rules'
    functions are looked into (else a call of one may fail)."""

    def __init__(self, gen, functions: bool = True):
        self.gen, self.functions = gen, functions
        self.pre: list[str] = []

    def some(self, e, env: dict) -> bool:
        """Whether ``e`` is a name that is never none (checked before the loop where it
        comes from outside it)."""
        if e.node == "IntLit":
            return True
        if e.node != "Var":
            return False
        if e.name not in env:   # (a name of the whole program: a variable, active...)
            try:
                self.pre.append(self.gen.expr(e, {}))
            except Unsupported:
                return False
            return True
        k = env[e.name]
        if isinstance(k, tuple):
            self.pre.append(k[1])
            return True
        return k == "some"

    def of(self, e, env: dict, held: frozenset = frozenset(), depth: int = 0) -> bool:
        n = e.node
        if n in ir.LITERALS or n == "Var":
            return True
        if n == "UnOp":
            return e.op == "not" and self.of(e.operand, env, held, depth)
        if n == "BinOp":
            if e.op == "and":
                left = e.left
                holds = held | {left.args[0].name} if self._builtin(left, "occupied") \
                    and left.args[0].node == "Var" else held
                return self.of(left, env, held, depth) and self.of(e.right, env, holds, depth)
            return e.op in ("or", "==", "!=") and self.of(e.left, env, held, depth) \
                and self.of(e.right, env, held, depth)
        if n == "Attr":
            o = e.obj
            if o.node == "Var":   # (a cell's attribute, of a cell that is one)
                return self.gen.ty(o).tag == "cell" and self.some(o, env)
            return self._builtin(o, "top") and len(o.args) == 1 and o.args[0].node == "Var" \
                and o.args[0].name in held and self.some(o.args[0], env)
        if n == "Call":
            return self._call(e, env, held, depth)
        return False

    def _arg(self, a, env: dict):
        """What a call's argument is known to be, for the parameter it binds."""
        if a.node == "IntLit":
            return "some"
        if a.node != "Var":
            return None
        if a.name not in env:   # (a name of the whole program, read where the loop starts)
            try:
                return "outer", self.gen.expr(a, {})
            except Unsupported:
                return None
        return env[a.name]

    def _builtin(self, e, name: str) -> bool:
        return e.node == "Call" and e.func == name and self.gen.c.calls_builtin(name)

    def _call(self, e, env: dict, held: frozenset, depth: int) -> bool:
        gen = self.gen
        f = e.func
        if gen.c.calls_builtin(f):
            # (a zone's size, a player's seat: of something, never of none)
            return f in ("occupied", "empty", "seat") and len(e.args) == 1 and self.some(e.args[0], env) \
                and gen.ty(e.args[0]).tag in ("cell", "zone", "player")
        fd = gen.c.functions.get(f) if self.functions else None
        if fd is None or f in gen.recursive or depth >= _DEPTH or len(fd.params) != len(e.args) \
                or not all(self.of(a, env, held, depth) for a in e.args):
            return False
        inner = {p.name: self._arg(a, env) for p, a in zip(fd.params, e.args)}
        inside = frozenset(p.name for p, a in zip(fd.params, e.args) if a.node == "Var" and a.name in held)
        return self.of(fd.body, inner, inside, depth + 1)


class EarlyCounts:
    """Gen's counts compared with a number, stopped once decided (see the module)."""

    # (occupied_and printing its right side: the name whose ``top`` reads as ``top_any``,
    # and the reads printed so far)
    top_any_of: tuple[str, list[str]] | None = None

    if TYPE_CHECKING:
        facts: Any
        cells: Any
        tops: Any
        tables: Any

        c: Any

        def fresh(self, base: str) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e) -> Any: ...
        def ct(self, t) -> str: ...
        def unify(self, a: T, b: T) -> T: ...
        def _compared(self, e, sc, u: T) -> str: ...
        def _named(self, e, sc: dict) -> bool: ...
        def noted_right(self, left, sc: dict) -> dict: ...
        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    def early_count(self, e, sc: dict) -> str | None:
        """The C++ of ``e``, a comparison, where it compares a count that may stop early
        with a number written out; else None."""
        op, agg, k = e.op, e.left, e.right
        if not _count(agg) and _count(k):
            op, agg, k = FLIP[op], k, agg
        if not _count(agg) or k.node != "IntLit" or k.value < 0 or op not in FLIP:
            return None
        comp = agg.comp
        # (a count of the bits of the cells whose top item has a value: kernel_tops.py)
        if len(comp.clauses) != 1 or comp.cond is None or self.facts.counts_any(comp.cond) or self.tops.exact(comp):
            return None
        cl = comp.clauses[0]
        table = self.facts.table_list(cl.iter)
        ranged = cl.iter.node == "BinOp" and cl.iter.op == ".."
        env: dict[str, Any] = {name: ("outer", code) for name, (code, _t) in sc.items() if name != cl.var}
        env[cl.var] = "some" if ranged or (table is not None and table[0] in ("cells", "relation")) else None
        walk = self._walk(cl, comp.cond, sc, table)
        if walk == SHORT:
            return None
        safe = Safe(self)
        if not all(safe.of(c, env) for c in (walk[1] if walk is not None else [comp.cond])):
            return None
        return self._stopping(comp, sc, interval(op, k.value), safe.pre)

    def last_backward(self, e, sc: dict) -> str | None:
        """``last(y for y in cells(b) if S and R)`` whose condition has a static part S
        (kernel_cells.py: the cells it lets through, ``c.col == k``) and conjuncts R left
        that count nothing and cannot fail (``Safe``): the cells S lets through walked
        from the last, the first that passes R the value (the cell a piece dropped in a
        column lands on, found from the bottom of its column where the walk from the top
        tested all six): the board's cells counted against the work budget as before, the
        same value, as the conjuncts the walk skips could change nothing else. Else None."""
        comp = e.comp
        if len(comp.clauses) != 1 or comp.cond is None or self.facts.counts_any(comp.cond):
            return None
        cl = comp.clauses[0]
        table = self.facts.table_list(cl.iter)
        if table is None or table[0] != "cells" or comp.elem.node != "Var" or comp.elem.name != cl.var:
            return None
        walk = self.cells.walk(cl, comp.cond, sc)
        if walk is None or not walk[1]:
            return None
        env: dict[str, Any] = {name: ("outer", code) for name, (code, _t) in sc.items() if name != cl.var}
        env[cl.var] = "some"
        safe = Safe(self)
        if not all(safe.of(c, env) for c in walk[1]):
            return None
        it = self.ty(cl.iter)
        xs, sub, i, var = self.fresh("xs"), self.fresh("sub"), self.fresh("i"), self.fresh(cl.var)
        inner = {**sc, cl.var: (var, it.arg)}
        test = " && ".join(f"({self.expr(c, inner, BOOL)})" for c in walk[1])
        src = self.expr(cl.iter, sc, it)
        work = "" if self.facts.counted(cl.iter) else f"W({counters(sc)}, {self.tables.size_of(xs, src)}); "
        checks = "".join(f"(void)nn({x}); " for x in dict.fromkeys(safe.pre))
        return (f"([&]() -> Id {{ {checks}const {self.ct(it)}& {xs} = {src}; {work}"
                f"const List<Id>& {sub} = {walk[0]}; for (size_t {i} = {sub}.size(); {i}-- > 0;) {{ "
                f"const Id {var} = {sub}[{i}]; {CELL_ID.format(var)}if ({test}) return {var}; }} "
                f"return NONE_ID; }}())")

    def _walk(self, cl, cond, sc: dict, table):
        """A loop over a board's cells tests only the conjuncts its static part leaves
        (Gen.loops, kernel_cells.py): its walk, (cells, conjuncts left), or None where it
        has none; SHORT where it walks at most SHORT cells (counted whole)."""
        walk = self.cells.walk(cl, cond, sc) if table is not None and table[0] == "cells" else None
        if walk is not None and (self.cells.longest(cl, cond) or 0) <= SHORT:
            return SHORT
        return walk

    def occupied_and(self, e, sc: dict) -> str | None:
        """``occupied(x) and R`` with no branch, where R compares values of ``top(x)``'s
        attributes, names, numbers and seats (``top(c).seat == seat(p)``): R read of the
        top item, or of item 0 where ``x`` holds none (``top_any``), the two tests joined
        with ``&``: in a random position whether a cell is occupied is a branch the
        processor often mispredicts (a ``won(p)`` over the lines of a 3 × 3 board:
        callgrind's simulated mispredictions a third fewer), while R reads a table and
        compares, its value dropped where the zone is empty. R counts no work and fails
        nowhere the ``and`` would not but on a seat of none, where the kernel leaves the
        move to Python, which gives the same answer. Else None.

        Decided from the expression, never from the printed text: ``occupied(x)`` of a
        name is printed as one parenthesised test (``(s.z.size(x) > 0)``, primitives.py)
        and each R, a comparison, as one parenthesised call (``(eq(a, b))``,
        ``Gen._BinOp``), so ``&`` joins them as they are; while R is printed, a
        ``top(x)`` is printed as ``s.z.top_any(x)`` from the start (``top_any_read``), and
        an R that reads no ``top(x)`` leaves the ``and`` as written."""
        rights = [e.right]   # (``occupied(c) and R1 and R2 ...``: each R so)
        left = e.left
        while left.node == "BinOp" and left.op == "and":
            rights.append(left.right)
            left = left.left
        if not (left.node == "Call" and left.func == "occupied" and self.c.calls_builtin("occupied")
                and len(left.args) == 1 and left.args[0].node == "Var"
                and all(r.node == "BinOp" and self._plain_on_top(r, left.args[0].name) for r in rights)):
            return None
        a = self.expr(left, sc, BOOL)
        reads: list[str] = []
        self.top_any_of, outer = (left.args[0].name, reads), self.top_any_of
        try:
            # (the first R read after the left's test: a zone it noted is not noted again)
            parts = [self.expr(r, self.noted_right(left, sc) if k == 0 else sc, BOOL)
                     for k, r in enumerate(reversed(rights))]
        finally:
            self.top_any_of = outer
        return f"((bool)({a} & {' & '.join(parts)}))" if reads else None

    def top_any_read(self, e, sc: dict) -> str | None:
        """``top(x)`` while occupied_and prints its right side, ``x`` its cell's name: the
        top item or item 0 where ``x`` holds none (``s.z.top_any``), noted as read. Else None."""
        held = self.top_any_of
        if held is None or len(e.args) != 1 or e.args[0].node != "Var" or e.args[0].name != held[0]:
            return None
        read = zone_read(sc, "top_any", self.expr(e.args[0], sc))
        held[1].append(read)
        return read

    def _plain_on_top(self, e, x: str) -> bool:
        """Whether ``e`` is made of names, literals, ``==``, ``!=``, seats of names and the
        attributes of ``top(x)`` kept in tables of the items (occupied_and)."""
        n = e.node
        if n in ("IntLit", "BoolLit", "Var"):
            return True
        if n == "BinOp":
            return e.op in ("==", "!=") and self._plain_on_top(e.left, x) and self._plain_on_top(e.right, x)
        if n == "Call":
            return e.func == "seat" and self.c.calls_builtin("seat") and len(e.args) == 1 and e.args[0].node == "Var"
        if n != "Attr":
            return False
        o = e.obj
        if not (o.node == "Call" and o.func == "top" and self.c.calls_builtin("top") and len(o.args) == 1
                and o.args[0].node == "Var" and o.args[0].name == x):
            return False
        kind = self.ty(o)
        return kind.tag == "item" and e.name not in self.c.item_vars.get(kind.arg, {}) \
            and self.ty(e).tag in ("int", "bool", "enum", "player", "item", "cell", "zone")

    def _stopping(self, comp, sc: dict, within: tuple[int, int, bool], pre: list[str]) -> str | None:
        """The count's loop, stopped once the count is known to be within [a, b] or not
        (``within``: a, b and whether the comparison is that it is not), after the
        checks of the names ``pre`` needs to be some value; None where the comparison
        holds whatever the count (``>= 0``). Each element adds its truth to the count and
        takes one from how many the rest could give (``u``, the loop's size first: not
        known, it never comes under a), with no branch on it (random positions make it
        unpredictable); the one branch is on the comparison being decided."""
        a, b, neg = within
        if a == 0 and b == _BIG:
            return None
        h, u, t = self.fresh("h"), self.fresh("u"), self.fresh("t")
        yes, no = ("false", "true") if neg else ("true", "false")
        out = ([f"{h} > {b}LL"] if b != _BIG else []) + ([f"{u} < {a}LL"] if a > 0 else [])
        step = f"const bool {t} = (bool)({{}}); {h} += {t}; " + (f"{u} -= !{t}; " if a > 0 else "")
        step += f"if ({' || '.join(out)}) return {no}; " if out else ""
        step += f"if ({h} >= {a}LL) return {yes}; " if b == _BIG else ""
        body = self.loops(comp, sc, lambda inner, test: step.replace("{}", test, 1), truth=True,
                          size=(lambda n: f"{u} = (I)({n}); ") if a > 0 else None)
        checks = "".join(f"(void)nn({x}); " for x in dict.fromkeys(pre))
        last = f"{h} >= {a}LL" + (f" && {h} <= {b}LL" if b != _BIG else "")
        return (f"([&]() MK_AI -> bool {{ {checks}I {h} = 0{f', {u} = {_BIG}LL' if a > 0 else ''}; {body} "
                f"return ({last}) != {'true' if neg else 'false'}; }}())")

    def count_equal(self, comp, sc: dict) -> str | None:
        """``count(q for q in xs if q == x)`` (or ``x == q``), x the same at every turn
        (no name q in it: core/hoist.py), over a list: x computed once,
        where xs has an element, and the elements equal to it counted by ``count_eq``
        (cxx/kernel_rt.hpp: lists of numbers by their hashes); the work and the calls of
        x's other evaluations counted all the same, as many as the reference makes (one
        per element: core/facts.py). None for any other count."""
        cond = comp.cond
        if len(comp.clauses) != 1 or cond is None or cond.node != "BinOp" or cond.op != "==":
            return None
        cl = comp.clauses[0]
        it = cl.iter
        if (it.node == "BinOp" and it.op == "..") or it.node in ("ListLit", "Aggregate"):
            return None
        sides = (cond.left, cond.right)
        mine = [s.node == "Var" and s.name == cl.var for s in sides]
        if mine.count(True) != 1:
            return None
        other = sides[mine.index(False)]
        if any(n.node == "Var" and n.name == cl.var for n in ir.walk(other)):
            return None
        t = self.ty(it)
        if t.tag != "list" or not isinstance(t.arg, T):
            return None
        u = self.unify(t.arg, self.ty(other))
        if self.ct(u) != self.ct(t.arg):
            return None
        xs = self.fresh("xs")
        ref = "&" if self._named(it, sc) else ""
        work = "" if self.facts.counted(it) else f"W({counters(sc)}, {xs}.size()); "
        x = f"[&]() -> {self.ct(u)} {{ return {self._compared(other, sc, u)}; }}"
        return (f"([&]() -> I {{ const {self.ct(t)}{ref} {xs} = {self.expr(it, sc, t)}; {work}"
                f"if ({xs}.empty()) return 0; "
                f"return count_eq({xs}, counted_again({counters(sc)}, (I){xs}.size() - 1, {x})); }}())")


def total_over_cell(gen, cond, var: str) -> bool:
    """Whether a condition on the cell ``var`` of a board's loop cannot fail, reading
    nothing else that must be some value and calling no function of the rules: names,
    literals, ``and``, ``or``, ``not``, ``==`` and ``!=`` of such, ``occupied(var)``,
    ``empty(var)``, the cell's attributes, and the attributes of ``top(var)`` on the right
    of an ``and`` whose left is ``occupied(var)`` (kernel_memo.py, ``empty_of_filter``)."""
    safe = Safe(gen, functions=False)
    return safe.of(cond, {var: "some"}) and not safe.pre
