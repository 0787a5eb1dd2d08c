"""Pure parts of a list's elements tabled by the list's index (a part of ``kernel.Gen``;
``Gen._Comprehension`` asks it first, after ``elementwise``).

A list made over a range of literals, ``[E(k) for k in A..B]`` with no condition, its
elements numbers or ids, where ``E`` holds a number ``P(k, q, d)`` that reads nothing
of the state (rule functions that read nothing of it, arithmetic) and no name of the
rule around it but ``k`` and locals of enum types (``q``, ``d``): a board's quadrant
turned, ``[at[source(k / 6, k % 6, q, d)] for k in 0..35]``, where ``P`` is the index
whose marble comes to ``k``. ``P`` is then a row of numbers for each of the locals'
values (4 quadrants times 2 directions: 8 rows of 36), made the first time it is
needed by the same C++ that computed it in place (each ``k`` in order), kept in a
static table of the module (no part of any state: it reads none), and read by ``k``
in the loop: ``at[row[k - A]]``, the element printed with that read in the part's
place (a scope entry keyed by the part's node, which ``Gen.expr`` reads), the list's
room for its ``B - A + 1`` elements made at once (``Fill``, cxx/kernel_lists.hpp).

The same values, work and calls as in place: ``P``'s value is that of ``k`` and the
locals alone, a fact of the IR (core/pure.py, ``given_alone``: it reads nothing of
the state, not even a global variable, and counts no work and no calls, itself or
through the rule functions it may call; no table else); the range's work is counted
as the loop counts it. A local out of its enum's values (none) stops the
kernel (``bail``: Python plays the move), as does an error computing a row (the row
is then kept unmade); either error is one the loop would meet, for the same locals,
at one of its elements.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ..core.primitives import short_ranges
from .cxx_text import ident
from .kernel_reads import counters, state
from .kernel_types import INT, Unsupported

_MAX_ROW = 1024    # elements of the range at most
_MAX_ROWS = 256    # rows (values of the locals) at most
# (a rule function whose loops are only an any or all over a few literals: put in line
# where it is called, the caller's constants folded into it: a line(r, c, 0, 1, s))
SHORT_INLINE = "inline MK_AI "


class TabledRows:
    """``Gen``'s methods for pure parts of elements tabled by the index."""

    if TYPE_CHECKING:
        c: Any
        tables: Any
        facts: Any
        protos: list[str]
        fns: list[str]

        def ct(self, t) -> str: ...

        def ty(self, e) -> Any: ...

        def fresh(self, base: str) -> str: ...

        def expr(self, e, sc: dict, want=None) -> str: ...
        def calls_kept(self) -> Any: ...

        def _named(self, e, sc: dict) -> bool: ...

    def tabled_rows(self, e, sc: dict) -> str | None:
        """The C++ of the comprehension ``e`` (compiled in the scope ``sc``) with a pure
        part of its element read from a row of a table (see the module's docstring), or
        None."""
        if len(e.clauses) != 1 or e.cond is not None:
            return None
        cl = e.clauses[0]
        it = cl.iter
        if not (it.node == "BinOp" and it.op == ".." and it.left.node == "IntLit" and it.right.node == "IntLit"):
            return None
        lo, hi = it.left.value, it.right.value
        t = self.ty(e)
        el = self.ct(t.arg)
        if not 0 < hi - lo + 1 <= _MAX_ROW or el not in ("I", "Id"):
            return None
        for part, locals_ in self._pure_parts(e.elem, cl.var, sc):
            row = self._row_fn(part, cl.var, (lo, hi), locals_)
            if row is not None:
                break
        else:
            return None
        k, r = self.fresh(cl.var), self.fresh("row")
        inner = dict(sc)
        inner[cl.var] = (k, self.ty(it).arg)
        inner[id(part)] = (f"{r}[{k} - ({lo}LL)]", self.ty(part))   # (the part read from its row: Gen.expr)
        views = self._views(e.elem, cl.var, sc, inner)
        with self.calls_kept():   # (as a call is printed where the part is tabled: kernel_ranged.py)
            elem = self.expr(e.elem, inner, t.arg)
        out, a, b = self.fresh("out"), self.fresh("lo"), self.fresh("hi")
        given = "".join(f", {sc[n][0]}" for n, _t in locals_)
        return (f"([&]() -> {self.ct(t)} {{ I {a} = ((I){lo}LL), {b} = ((I){hi}LL); "
                f"range_work({counters(sc)}, {a}, {b}); Fill<{el}> {out}({hi - lo + 1}); {views}"
                f"const I* {r} = {row}({state(sc)}{given}); "
                f"for (I {k} = {a}; {k} <= {b}; ++{k}) {{ {out}.push_back({elem}); }} return {out}.list(); }}())")

    def filled_range(self, e, sc: dict) -> str | None:
        """The C++ of ``[E(k) for k in a..b]`` (no condition, numbers or ids): the range
        walked as ``Gen.loops`` walks it (its work counted first), each element written in
        its place in a list made at once for ``b - a + 1`` of them (``Fill``,
        cxx/kernel_lists.hpp), where ``Build`` copied them from the stack into a vector,
        then into the list; else None."""
        if len(e.clauses) != 1 or e.cond is not None:
            return None
        cl = e.clauses[0]
        it = cl.iter
        t = self.ty(e)
        el = self.ct(t.arg)
        if not (it.node == "BinOp" and it.op == "..") or el not in ("I", "Id") or self.ty(it).tag != "list":
            return None
        a, b = self.expr(it.left, sc, INT), self.expr(it.right, sc, INT)
        out, lo, hi, k = self.fresh("out"), self.fresh("lo"), self.fresh("hi"), self.fresh(cl.var)
        inner = dict(sc)
        inner[cl.var] = (k, self.ty(it).arg)
        views = self._views(e.elem, cl.var, sc, inner)
        elem = self.expr(e.elem, inner, t.arg)
        return (f"([&]() -> {self.ct(t)} {{ I {lo} = {a}, {hi} = {b}; range_work({counters(sc)}, {lo}, {hi}); "
                f"Fill<{el}> {out}({hi} >= {lo} ? (size_t)({hi} - {lo} + 1) : 0); {views}"
                f"for (I {k} = {lo}; {k} <= {hi}; ++{k}) {{ {out}.push_back({elem}); }} return {out}.list(); }}())")

    def _views(self, elem, var: str, sc: dict, inner: dict) -> str:
        """The C++ that takes, before a list's loop over ``var``, a view (``ListView``,
        cxx/kernel_lists.hpp) of each list of numbers or ids a name holds (a local, a
        variable, a table: ``Gen._named``; not ``var``) that ``elem`` indexes (not
        inside a loop of its own), each entered in ``inner`` as the list's C++ there
        (``Gen.expr``): its elements and size read once, not at each element."""
        code = ""
        todo = [elem]
        while todo:
            n = todo.pop(0)
            todo.extend(_children(n))
            if n.node != "Index" or n.obj.node != "Var" or n.obj.name == var or not self._named(n.obj, sc):
                continue
            lt = self.ty(n.obj)
            if lt.tag != "list" or lt.arg is None or self.ct(lt.arg) not in ("I", "Id"):
                continue
            v = self.fresh("view")
            code += f"const ListView<{self.ct(lt.arg)}> {v}({self.expr(n.obj, sc)}); "
            inner[id(n.obj)] = (v, lt)
        return code

    def _pure_parts(self, elem, var: str, sc: dict):
        """The parts of ``elem``, largest first, that are numbers made of ``var`` and
        locals of enum types alone (no other name of the scope, no variable of the
        state), each with those locals (sorted: their names and types)."""
        todo = [elem]
        while todo:
            n = todo.pop(0)
            names = {x.name for x in ir.walk(n) if x.node == "Var"}
            if n.node not in ("Var", "IntLit") and var in names and self.c.type_of(n).tag == "int" \
                    and not names & set(self.c.vars):
                locals_ = [(x, self.ty_of_local(sc, x)) for x in sorted(names & set(sc) - {var})]
                if all(lt is not None for _x, lt in locals_):
                    yield n, locals_
            todo.extend(_children(n))

    def ty_of_local(self, sc: dict, name: str):
        """The enum of the local ``name`` of the scope ``sc`` (its type), or None."""
        t = sc[name][1]
        return t if t.tag == "enum" and t.arg in self.c.enums else None

    def _row_fn(self, part, var: str, span: tuple[int, int], locals_: list) -> str | None:
        """The name of the C++ function that gives the row of ``part`` for its locals'
        values (made once, kept), or None where ``part`` reads the state."""
        lo, hi = span
        sizes = [len(self.c.enums[lt.arg]) for _x, lt in locals_]
        rows = 1
        for n in sizes:
            rows *= max(n, 1)
        if rows > _MAX_ROWS:
            return None
        sc = {var: ("k_", INT)}
        for i, (x, lt) in enumerate(locals_):
            sc[x] = (f"a{i}_", lt)
        try:   # (a part the kernel writes only in its own place: none tabled)
            code = self.expr(part, sc, INT)
        except Unsupported:
            return None
        if not self.facts.given_alone(part, set(sc)):   # (core/pure.py)
            return None
        n = hi - lo + 1
        params = "".join(f", Id a{i}_" for i in range(len(locals_)))
        checks = "".join(f"if ((uint32_t)a{i}_ >= {m}u) bail(); " for i, m in enumerate(sizes))
        at = "0" if not locals_ else " + ".join(
            f"(size_t)a{i}_ * {_stride(sizes, i)}" for i in range(len(locals_)))
        key = self.tables.table(("ROWS", code, lo, hi), lambda tk: (
            f"static I {tk}[{rows}][{n}]; static uint8_t {tk}_made[{rows}];"))
        fn = ident("P", f"$row{key}")
        made = self.__dict__.setdefault("rows_made", set())
        if fn in made:   # (the same part in another list, or this one compiled again)
            return fn
        made.add(fn)
        sig = f"static const I* {fn}(St& s{params})"
        self.protos.append(sig + ";")
        self.fns.append(
            f"{sig} {{ (void)s; {checks}size_t r_ = {at}; if (!{key}_made[r_]) {{ I* o_ = {key}[r_]; "
            f"for (I k_ = {lo}LL; k_ <= {hi}LL; ++k_) o_[k_ - ({lo}LL)] = {code}; {key}_made[r_] = 1; }} "
            f"return {key}[r_]; }}")
        return fn



def _stride(sizes: list[int], i: int) -> int:
    n = 1
    for m in sizes[i + 1:]:
        n *= max(m, 1)
    return n


def _children(n) -> list:
    """The expressions directly inside ``n`` (not into a loop's own scope)."""
    if n.node in ir.CLAUSED:
        return []
    out = []
    for v in n.__dict__.values():
        for x in v if isinstance(v, list) else [v]:
            if hasattr(x, "node") and x.node not in ("ForClause", "Block"):
                out.append(x)
    return out


def short_loops(body, written_out=None) -> bool:
    """Whether the loops of the expression ``body`` (a rule function's; it has some) are
    each an ``any`` or ``all`` over ranges of a few literals (``primitives.short_ranges``)
    or over short lists known, written out (``written_out(comp)``, kernel_unroll.py:
    a ``legal`` over eight directions), one at least (the loops of the functions
    it calls are theirs): the function is then put in line where it is called
    (``SHORT_INLINE``), its registers saved and restored once per loop that calls it,
    not at every call."""
    nodes = list(ir.walk(body))
    inside = {id(n.comp) for n in nodes if n.node == "Aggregate"}   # (an aggregate's own loops)
    loops = [n for n in nodes if n.node in ir.LOOPS and id(n) not in inside]
    return bool(loops) and all(n.node == "Aggregate" and n.func in ("any", "all")
                               and (short_ranges(n.comp) or (written_out is not None and written_out(n.comp)))
                               for n in loops)
