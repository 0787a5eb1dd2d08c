"""How many cells a component of a board's cells has, or the cells beside it, counted by
the bits of the zones' index (a part of ``kernel.Gen``: ``Gen.areas``, asked by
``Gen.builtin`` for ``size`` and ``empty``).

Where a list's size or emptiness is all that is read of it (``size(liberties(group(c)))
> 1``, ``empty(liberties(group(n)))``), and the list is, rule functions' calls looked
through (each argument evaluated once, as a call evaluates it; a list argument that is
itself such a list followed where the body reads it):

- a component: ``connected(x for x in REL(c) if P(x))``, REL a relation of two cells
  (its rows, not an edges board's), c one cell, P a test of the cell alone that the
  index reads (``empty(x)``, ``occupied(x)``, their negations, or exactly ``occupied(x)
  and top(x).A == V``, A a static attribute: core/tops.py) or none;
- or the cells beside one: ``distinct([n for y in G for n in REL2(y) if Q(n)])``, G a
  component, REL2 such a relation, Q such a test or none;

its count is read from bits: the component is flooded a word at a time (each cell's row
of REL as bits ORed in, the cells that pass P and are new taken), and the cells beside it
are the union of its cells' rows of REL2 that pass Q. No list is made and no cell is
looked at twice. The walk from any cell of the component reads P and Q only on the
component and its cells' rows, so the count is kept with the bits of P's and Q's rows
there (cxx/kernel_walks.hpp ``area_keep``), and read again, from any cell of it, in any
state whose rows have those bits there (``area_same``): the next point of the same
group, and the same group a move later where no stone came beside it, read a table.

The same count, work and calls as the reference: the walk's work is the start's 1 and
each cell found's row (helpers._connected), the comprehension's is the component's
length and each row walked, where those lists are not counted already
(``Facts.counted``); the whole charged at once (work only goes down, so the budget runs
out at the same move). P and Q count nothing and fail nowhere; no function looked
through counts its calls or may call itself; a start that is none finds no cell, as
``_connected`` skips it. Not where the zones' reads are noted (a lasting keep's body, a
walk's: ``reads_of``), nor where a row of a relation holds a cell outside the index.
docs/performance.md measures it."""
from __future__ import annotations

from dataclasses import dataclass

from ...dsl import ast as ir, settings
from ...dsl.builtins import CLOSURES
from ...dsl.check import walks_edges
from .kernel_reads import reads_of, state

_WORD = 64
_DEPTH = 8   # (rule functions looked through, at most)


@dataclass(frozen=True)
class _Mask:
    """A cell's test read from bits: the row (C++ of a ``const uint64_t*``), flipped (an
    empty cell's test: the occupied cells' row). ``kind``: what the test is, for the
    shape of the C++ function."""
    row: str
    flip: bool
    kind: str


_ALL = _Mask("", False, "all")   # (no test: its row, of every bit, made where asked: ``Areas._row``)


@dataclass(frozen=True)
class _Walk:
    """``connected(x for x in REL(start) if P(x))``: the relation, the C++ of the start
    (an ``Id``), P's mask."""
    rel: str
    start: str
    mask: _Mask


@dataclass(frozen=True)
class _Near:
    """``distinct([n for y in WALK for n in REL(y) if Q(n)])``: the walk, the relation,
    Q's mask, whether the comprehension counts the walk's cells and each row."""
    walk: _Walk
    rel: str
    mask: _Mask
    each: bool
    rows: bool


class Areas:
    """The counts of components read from bits, of one program (``gen``: its kernel.Gen)."""

    def __init__(self, gen):
        self.gen = gen
        self.on = settings.on("MEEPLE_KERNEL_AREAS")   # (off: the lists walked, to compare)

    def count(self, e, sc: dict) -> str | None:
        """The C++ of ``size(X)`` or ``empty(X)`` (``e``), X a component or the cells beside
        one (see the module), else None."""
        g = self.gen
        if len(e.args) != 1 or g.ty(e.args[0]).tag != "list" or reads_of(sc) is not None or not self.on:
            return None
        occ = g.occupied
        if not occ.n:
            return None
        if self._list(e.args[0], sc, {}, None, 0) is None:   # (first its shape alone: nothing written)
            return None
        pre: list[str] = []
        found = self._list(e.args[0], sc, {}, pre, 0)
        if found is None:
            return None
        call = self._call(found, sc)
        n = f"{call}" if e.func == "size" else f"({call} == 0)"
        return f"([&]() -> {'I' if e.func == 'size' else 'bool'} {{ {''.join(pre)}return {n}; }}())"

    # ------------------------------------------------------------ the shapes
    def _list(self, x, sc: dict, lazy: dict, pre: list[str] | None, depth: int):
        """``x`` as a ``_Walk`` or a ``_Near`` (``lazy``: the parameters bound to a list
        argument that is one, by name: the argument and its scopes), its arguments'
        C++ declarations added to ``pre``; None where it is neither. ``pre`` None: its
        shape alone, no C++ written (no name, table, slot of the index nor function made
        for a list that is neither)."""
        g = self.gen
        if x.node == "Var" and x.name in lazy:
            arg, outer, outer_lazy = lazy[x.name]
            return self._list(arg, outer, outer_lazy, pre, depth)
        if x.node == "Aggregate" and x.func == "connected" and x.func in CLOSURES:
            return self._walk(x, sc, lazy, pre)
        if x.node != "Call":
            return None
        kind = g.facts.call_kind(x)
        if kind == "builtin" and x.func == "distinct" and len(x.args) == 1:
            return self._near(x.args[0], sc, lazy, pre, depth)
        if kind == "function":
            return self._through(x, sc, lazy, pre, depth)
        return None

    def _through(self, x, sc: dict, lazy: dict, pre: list[str] | None, depth: int):
        """A rule function's call looked through: its body in a scope of its parameters,
        each argument evaluated once where the call evaluates it (a list argument that is
        a component or the cells beside one, left to where the body reads it)."""
        g = self.gen
        facts = g.facts
        name = x.func
        if depth >= _DEPTH or name in facts.recursive or name in facts.counts_calls:
            return None
        fd = g.c.functions[name]
        lists = [p.name for p in fd.params if g.param_type(p).tag == "list"]
        if any(sum(n.node == "Var" and n.name == q for n in ir.walk(fd.body)) != 1 for q in lists):
            return None   # (a list argument the body reads not once: evaluated as the call does)
        inner: dict = {}
        inner_lazy: dict = {}
        for p, a in zip(fd.params, x.args):
            t = g.param_type(p)
            if t.tag == "list":
                inner_lazy[p.name] = (a, sc, lazy)
                continue
            if any(n.node == "Var" and n.name in lazy for n in ir.walk(a)):
                return None
            v = g.fresh("aa") if pre is not None else ""
            if pre is not None:
                pre.append(f"const {g.ct(t)} {v} = {g.expr(a, sc, t)}; ")
            inner[p.name] = (v, t)
        return self._list(fd.body, inner, inner_lazy, pre, depth + 1)

    def _walk(self, x, sc: dict, lazy: dict, pre: list[str] | None) -> _Walk | None:
        g = self.gen
        comp = x.comp
        if len(comp.clauses) != 1:
            return None
        cl = comp.clauses[0]
        it = cl.iter
        if walks_edges(g.c, it) or it.node != "Call" or len(it.args) != 1 or g.facts.call_kind(it) != "row":
            return None
        start_e = it.args[0]
        t = g.ty(start_e)
        if t.tag != "cell" or any(n.node == "Var" and n.name in lazy for n in ir.walk(start_e)):
            return None
        if not self._rows_fit(it.func):
            return None
        mask = self._mask(comp.cond, cl.var, sc, lazy, pre)
        if mask is None:
            return None
        if pre is None:
            return _Walk(it.func, "", mask)
        v = g.fresh("as")
        pre.append(f"const Id {v} = {g.expr(start_e, sc, t)}; ")
        return _Walk(it.func, v, mask)

    def _near(self, comp, sc: dict, lazy: dict, pre: list[str] | None, depth: int) -> _Near | None:
        g = self.gen
        if comp.node != "Comprehension" or len(comp.clauses) != 2:
            return None
        c1, c2 = comp.clauses
        if comp.elem.node != "Var" or comp.elem.name != c2.var or c1.var == c2.var:
            return None
        it = c2.iter
        if (it.node != "Call" or len(it.args) != 1 or it.args[0].node != "Var" or it.args[0].name != c1.var
                or g.facts.call_kind(it) != "row" or not self._rows_fit(it.func)):
            return None
        if comp.cond is not None and any(n.node == "Var" and n.name == c1.var for n in ir.walk(comp.cond)):
            return None
        mask = self._mask(comp.cond, c2.var, sc, lazy, pre)
        if mask is None:
            return None
        walk = self._list(c1.iter, sc, lazy, pre, depth)
        if not isinstance(walk, _Walk):
            return None
        return _Near(walk, it.func, mask, not g.facts.counted(c1.iter), not g.facts.counted(it))

    def _mask(self, cond, var: str, sc: dict, lazy: dict, pre: list[str] | None) -> _Mask | None:
        """A test of the cell ``var`` alone read from bits (see the module), or None."""
        g = self.gen
        if cond is None:
            return _ALL
        flip = False
        e = cond
        while e.node == "UnOp" and e.op == "not":
            flip, e = not flip, e.operand
        if (e.node == "Call" and e.func in ("empty", "occupied") and g.c.calls_builtin(e.func)
                and len(e.args) == 1 and e.args[0].node == "Var" and e.args[0].name == var):
            empty = (e.func == "empty") != flip
            return _Mask(f"{state(sc)}.z.occ", empty, "empty" if empty else "occupied")
        return self._top_mask(cond, var, sc, lazy, pre)

    def _top_mask(self, cond, var: str, sc: dict, lazy: dict, pre: list[str] | None) -> _Mask | None:
        """``occupied(var) and top(var).A == V`` exactly (core/tops.py ``top_value``), V
        naming no list left to where it is read: the row of V's slot in the index."""
        g = self.gen
        tv = g.facts.top_value(cond, var)
        if tv is None or not tv.exact:
            return None
        names = [n.name for n in ir.walk(tv.value) if n.node == "Var"]
        names += [n.name for a in (tv.env or {}).values() if a is not None for n in ir.walk(a) if n.node == "Var"]
        if any(n in lazy for n in names):
            return None
        if pre is None:
            return _Mask("", False, f"top {tv.attr} {tv.at}")
        tops = g.tops
        slot = tops._slot_fn(tv.attr, tv.at)
        if slot is None:
            return None
        k = g.fresh("ak")
        pre.append(f"const int {k} = {slot}({tops.value_of(tv, sc)}); ")
        return _Mask(f"{state(sc)}.z.tops_of({k})", False, f"top {tv.attr} {tv.at}")

    def _rows_fit(self, rel: str) -> bool:
        """Whether every row of the relation ``rel`` from a cell of the index holds cells
        of the index alone (the bits of one row)."""
        occ = self.gen.occupied
        rows = self.gen.ns.get(f"REL_{rel}")
        if rows is None:
            return False
        lo, n = occ.lo, occ.n
        return all(lo <= y < lo + n for z in range(lo, min(lo + n, len(rows))) for y in rows[z])

    # ------------------------------------------------------------ the C++
    def _call(self, found, sc: dict) -> str:
        """The C++ of the count of ``found``, its work charged: a call of the shape's
        function (made where first asked)."""
        walk = found if isinstance(found, _Walk) else found.walk
        near = found if isinstance(found, _Near) else None
        q = near.mask if near is not None else _ALL
        occ = self.gen.occupied
        for rel in (walk.rel, near.rel if near is not None else walk.rel):
            occ.keep(rel)   # (the index kept: the boards' cells, as occ's)
        fn = self._function(walk, near)
        return (f"{fn}({state(sc)}, {walk.start}, {self._row(walk.mask)}, {_flip(walk.mask)}, "
                f"{self._row(q)}, {_flip(q)})")

    def _row(self, m: _Mask) -> str:
        """The C++ of a mask's row (no test: a row of every bit)."""
        if m is not _ALL:
            return m.row
        occ = self.gen.occupied
        words = (occ.n + _WORD - 1) // _WORD
        return self.gen.tables.table(("AREAALL", words), lambda t: (
            f"static const uint64_t {t}[{words}] = {{{', '.join(['~0ULL'] * words)}}};"))

    def _rows(self, rel: str) -> str:
        """The table of the relation's rows from the cells of the index, each as bits of
        the index and its length (``AreaRow``)."""
        g = self.gen
        occ = g.occupied
        rows = g.ns[f"REL_{rel}"]
        words = (occ.n + _WORD - 1) // _WORD

        def decl(t: str) -> str:
            body = []
            for z in range(occ.lo, occ.lo + occ.n):
                row = list(rows[z]) if z < len(rows) else []
                bits = [0] * words
                for y in row:
                    bits[(y - occ.lo) // _WORD] |= 1 << ((y - occ.lo) % _WORD)
                body.append("{{" + ", ".join(f"{b:#x}ULL" for b in bits) + f"}}, {len(row)}}}")
            return f"static const AreaRow<{words}> {t}[{occ.n}] = {{{', '.join(body)}}};"
        return g.tables.table(("AREAROWS", rel), decl)

    def _function(self, walk: _Walk, near: _Near | None) -> str:
        """``T…(s, start, p, pf, q, qf)``: the count of the shape (the walk's relation,
        its cells' or the cells beside them by a relation, with or without the
        comprehension's work), kept at the component's lowest cell with the bits of the
        tests' rows its walk read (``area_keep``, ``area_same``), each cell of it pointed
        at it."""
        g = self.gen
        occ = g.occupied
        words = (occ.n + _WORD - 1) // _WORD
        rows = self._rows(walk.rel)
        shape = ("AREA", walk.rel, walk.mask.kind) + (
            (near.rel, near.mask.kind, near.each, near.rows) if near is not None else ())
        made = g.tables.made.get(shape)
        if made is not None:
            return made
        keep = g.tables.table(shape + ("keep",), lambda t: (
            f"static struct {{ uint64_t g[{words}], r[{words}], ps[{words}], qs[{words}]; I v, w; }} {t}[{occ.n}]; "
            f"static uint32_t {t}_of[{occ.n}];"))
        if near is None:
            count, work = "(I)(" + " + ".join(f"bits_set(g_[{w}])" for w in range(words)) + ")", "1 + d_"
            extra = ""
        else:
            same = near.rel == walk.rel
            rows2 = rows if same else self._rows(near.rel)
            extra = ("" if same else   # (the cells beside by REL2: m_, read with the walk's, n_)
                     f"I d2_ = 0; uint64_t m_[{words}] = {{}}; area_near<{words}>({rows2}, g_, m_, d2_); "
                     f"for (int w_ = 0; w_ < {words}; ++w_) r_[w_] |= m_[w_]; ")
            beside = "n_" if same else "m_"
            count = "(I)(" + " + ".join(f"bits_set({beside}[{w}] & (q[{w}] ^ qf))" for w in range(words)) + ")"
            size = " + ".join(f"bits_set(g_[{w}])" for w in range(words))
            work = "1 + d_" + (f" + (I)({size})" if near.each else "") + (
                (" + d_" if same else " + d2_") if near.rows else "")
        name = g.tables.table(shape, lambda t: f"// {t}: a count of a component's cells (kernel_areas.py)")
        slow = f"__attribute__((noinline)) static I {name}_slow(St& s, uint32_t b_, {_ROWS})"
        _define(g, slow, f"uint64_t g_[{words}], n_[{words}], r_[{words}]; I d_ = 0; "
                f"area_walk<{words}>({rows}, b_, p, pf, g_, n_, d_); "
                f"for (int w_ = 0; w_ < {words}; ++w_) r_[w_] = g_[w_] | n_[w_]; {extra}"
                f"const I v_ = {count}, w_ = {work}; "
                f"area_keep<{words}>({keep}, {keep}_of, g_, r_, p, q, v_, w_); W(s, w_); return v_;")
        _define(g, f"static inline I {name}(St& s, Id at, {_ROWS})",
                f"if (at < 0) {{ W(s, 1); return 0; }} "
                f"const uint32_t b_ = (uint32_t)(at - {occ.lo}); if (b_ >= {occ.n}u) bail(); "
                f"const auto& e_ = {keep}[{keep}_of[b_]]; "
                f"if (area_same<{words}>(e_, b_, p, q)) {{ W(s, e_.w); return e_.v; }} "
                f"return {name}_slow(s, b_, p, pf, q, qf);")
        return name


# (the tests' rows a count's functions take, and whether each is flipped)
_ROWS = "const uint64_t* p, uint64_t pf, const uint64_t* q, uint64_t qf"


def _define(g, head: str, body: str) -> None:
    """A C++ function of the kernel (``g``: its kernel.Gen) declared first, then defined."""
    g.protos.append(head + ";")
    g.fns.append(f"{head} {{ {body} }}")


def _flip(m: _Mask) -> str:
    return "~0ULL" if m.flip else "0ULL"
