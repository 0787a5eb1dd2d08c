"""A decision's options kept as a product, each made when it is asked for (issue 36).

``choose (c, _, q, d) from [(c, "turn", q, d) for c in cells(b) if at[index(c)] == 0
for q in Quadrant for d in Turn]`` offers up to 288 options; a random game
takes one of them, and made them all at every move: most of its time. Where the options
are a comprehension whose first loop walks any list (``xs``) and whose later loops each
walk a list of a size known before anything runs (an enum's values, a range of
literals, a list of constant numbers), each maybe under a condition (``if C then Quadrant else
[]``, the parser's form of a condition between loops) that reads no later loop's
variable, and whose element is its loops' variables with constants between them, the
options are, in order, each value of ``xs`` that the conditions let through (kept in
the state, ``l<site>``) times the ``P`` combinations of the later lists. The decision
keeps those values alone; option ``i`` is made when it is asked for: the value
``i / P`` of them, the later loops' values by the digits of ``i % P`` (the last loop
the fastest, as the loops make them). A random game counts them and makes the one it
takes; ``options()`` makes each, ``export()`` the whole list.

The list is the one the rules make (``kernel_ordered.ascending_options``: made in the
order of options, each once, so put in order it is itself). What the loops count
against the budgets is counted alike: the first list walked as ``Gen.loops`` walks it;
for each of its values, each later list as the rules evaluate and walk it, as many
times as the loops before it make combinations (a range counted by its evaluation, a
list written out by nothing unless a condition chose it; a condition evaluated that many
times: its work and calls counted again, ``counted_again``), and a condition after the
loops once per combination; the work between two conditions counted at once (the total
the same: where the budget runs out is no matter, the kernel stops and Python plays the
move). The element can fail nowhere (variables and constants), so the options not made
raise no error the rules would have raised.

A state loaded from Python (``import_pending``) holds the options whole: the values
kept are then emptied and the whole list read, as for any other decision.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...dsl.types import T, type_code
from .kernel_ordered import _enum_named, _names, ascending_options
from .kernel_reads import counters
from .kernel_types import BOOL, Unsupported

if TYPE_CHECKING:
    from .kernel import Gen

_MAX_COMBINATIONS = 1 << 16   # (P at most: a count of options far from an int's limit)


@dataclass
class _Inner:
    """A later loop: its variable, its list (``kind``: "enum", "range" or "list"), the
    list's size, its condition (None: always) and whether the condition is negated
    (``if C then [] else xs``), and the work of one evaluation and walk of its list."""
    var: str
    items: Any
    kind: str
    size: int
    cond: Any
    negated: bool
    work: int


def _element(t: T) -> T:
    """The type of a list's elements."""
    if not isinstance(t.arg, T):
        raise Unsupported(f"a loop over a {t}")
    return t.arg


def _static(gen, e, loops: set) -> tuple[str, int] | None:
    """``(kind, size)`` of a list of a size known before anything runs, or None."""
    if _enum_named(gen, e) and e.name not in loops:
        return ("enum", len(gen.c.enums[e.name])) if gen.c.enums[e.name] else None
    if e.node == "BinOp" and e.op == ".." and e.left.node == "IntLit" and e.right.node == "IntLit":
        n = e.right.value - e.left.value + 1
        return ("range", n) if 0 < n <= gen.b.range else None
    if e.node == "ListLit" and e.items and gen._constant(e, dict.fromkeys(loops)):
        return "list", len(e.items)
    return None


def _inner(gen, cl, loops: set, later: set) -> _Inner | None:
    """A later loop as a product walks it, or None where its list is of another form."""
    it, cond, negated = cl.iter, None, False
    if it.node == "CondExpr":
        empty = [x.node == "ListLit" and not x.items for x in (it.then, it.other)]
        if empty[0] == empty[1] or _names(it.cond) & later:
            return None
        cond, negated, it = it.cond, empty[0], it.other if empty[0] else it.then
    known = _static(gen, it, loops)
    if known is None:
        return None
    kind, n = known
    # (a range counts its elements when evaluated; a loop counts its list's unless it
    # is a range or a list written out, facts.counted: a list chosen by a condition is not)
    work = {"enum": n, "range": n, "list": 0}[kind] + (n if cond is not None and kind != "enum" else 0)
    return _Inner(cl.var, it, kind, n, cond, negated, work)


@dataclass
class Product:
    """A decision's options as a product (see the module's docstring)."""
    comp: Any
    inner: list[_Inner]
    size: int   # (P: the combinations of the later loops)


def _made_of_loops(gen, comp) -> bool:
    """Whether the comprehension's element (in the order of options, none of it an item)
    is its loops' variables (each its own, none an enum's name) with constants between
    them, and its condition after the loops reads no later loop's variable."""
    el = _element(gen.ty(comp))
    if el.tag == "item" or "item" in type_code(el) or not ascending_options(gen, comp):
        return False
    loops = [cl.var for cl in comp.clauses]
    if len(set(loops)) != len(loops) or any(v in gen.c.enums for v in loops) \
            or (comp.cond is not None and _names(comp.cond) & set(loops[1:])):
        return False
    parts = comp.elem.items if comp.elem.node == "TupleLit" else [comp.elem]
    return all((p.node == "Var" and p.name in loops) or gen._constant(p, dict.fromkeys(loops)) for p in parts)


def plan(gen, ask) -> Product | None:
    """The options of the decision ``ask`` (an ``ops.Ask``) as a product, or None."""
    comp = ask.options
    if ask.when or ask.alone is not None or comp.node != "Comprehension" or len(comp.clauses) < 2 \
            or not _made_of_loops(gen, comp):
        return None
    loops = {cl.var for cl in comp.clauses}
    later = loops - {comp.clauses[0].var}
    inner, size = [], 1
    for cl in comp.clauses[1:]:
        x = _inner(gen, cl, loops, later)
        if x is None:
            return None
        inner.append(x)
        size *= x.size
    return Product(comp, inner, size) if size <= _MAX_COMBINATIONS else None


def _again(code: str, times: int, sc: dict) -> str:
    """A condition the rules evaluate ``times`` times, the same each time, evaluated once."""
    if times == 1:
        return f"({code})"
    return f"counted_again({counters(sc)}, {times - 1}, [&]() -> bool {{ return {code}; }})"


class ProductOptions:
    """The decisions of ``kernel.Proc`` whose options are kept as a product (a mixin:
    ``self.gen`` is the Gen, ``self.sc`` the procedure's scope)."""

    if TYPE_CHECKING:
        gen: Gen
        sc: dict
        keyed: Any

        @property
        def nxt(self) -> int: ...

        def _site(self, var: str, el: T, verb, alone, said=None) -> tuple[int, str]: ...
        def _chooser(self, s) -> str: ...
        def here(self) -> int: ...
        def emit(self, code: str) -> int: ...

    def _product_ask(self, s) -> bool:
        """The decision ``s`` with its options kept as a product, where they can be."""
        g = self.gen
        p = plan(g, s)
        if p is None:
            return False
        first = p.comp.clauses[0]
        outer = g.ct(_element(g.ty(first.iter)))
        el = _element(g.ty(p.comp))
        k, _ = self._site(s.var, el, s.verb, s.alone, s.said)
        out = g.fresh("out")
        one = p.comp.model_copy(update={"clauses": [first], "cond": None})
        loops = g.loops(one, self.sc, lambda inner: self._product_filter(p, inner, first.var, out),
                        reserve=out, whole=True)
        build = "Build" if outer in ("Id", "I") else "Vec"
        done = f"{out}.list()" if build == "Build" else f"List<{outer}>(std::move({out}))"
        body = (f"if (lz_.empty()) bail(); if (COUNTING) COUNTED = (long long)lz_.size() * {p.size}; "
                f"else s.opts.l{k} = lz_;")
        body = f"{self.keyed.counted(self.here(), body)} s.site = {k};"
        g.sites[k]["product"] = {"outer": outer, "el": g.ct(el), "size": p.size, "make": self._product_make(p, k, el)}
        self.emit(f"{{ List<{outer}> lz_ = ([&]() -> List<{outer}> {{ {build}<{outer}> {out}; {loops} "
                  f"return {done}; }}()); Id who_ = {self._chooser(s)}; if (who_ < 0 || who_ >= NP) bail(); "
                  f"{body} s.player = who_; }} STEP(s); f->pc = {self.nxt}; return;")
        return True

    def _product_filter(self, p: Product, inner: dict, var: str, out: str) -> str:
        """The body of the first loop: its value kept where the later loops' conditions
        and the comprehension's let some combination through, their work counted (the
        work between two conditions at once: it only grows, so where it runs out is
        no matter, the kernel stops and Python plays the move)."""
        g = self.gen
        code, work, opens, times = "", 0, 0, 1
        for x in p.inner:
            if x.cond is not None:
                test = _again(g.expr(x.cond, inner, BOOL), times, inner)
                code += (f"W({counters(inner)}, {work}); " if work else "") + f"if ({'!' if x.negated else ''}{test}) {{ "
                work, opens = 0, opens + 1
            work += times * x.work
            times *= x.size
        code += f"W({counters(inner)}, {work}); " if work else ""
        if p.comp.cond is not None:
            code += f"if ({_again(g.expr(p.comp.cond, inner, BOOL), p.size, inner)}) {{ "
            opens += 1
        return code + f"{out}.push_back({inner[var][0]});" + " }" * opens

    def _product_make(self, p: Product, k: int, el: T) -> str:
        """``product_<k>(s, i)``: option ``i`` of the decision, made."""
        g = self.gen
        sc: dict = {}
        lines = [f"size_t r_ = i % {p.size};"]
        for x in reversed(p.inner):
            name = g.fresh(x.var)
            t = _element(g.ty(x.items))
            sc[x.var] = (name, t)
            digit = f"r_ % {x.size}"
            if x.kind == "enum":
                value = f"(Id)({digit})"
            elif x.kind == "range":
                value = f"(I)({x.items.left.value}LL + (I)({digit}))"
            else:
                value = f"{g.expr(x.items, sc, g.ty(x.items))}[{digit}]"
            lines.append(f"const {g.ct(t)} {name} = {value}; (void){name}; r_ /= {x.size};")
        first = p.comp.clauses[0]
        name = g.fresh(first.var)
        sc[first.var] = (name, _element(g.ty(first.iter)))
        lines.append(f"const auto& {name} = s.opts.l{k}[i / {p.size}]; (void){name};")
        return (f"static {g.ct(el)} product_{k}(const St& s, size_t i) {{ {' '.join(lines)} "
                f"return {g.expr(p.comp.elem, sc, el)}; }}")


def _sites(gen):
    return [(k, site["product"]) for k, site in enumerate(gen.sites) if "product" in site]


def product_fields(gen) -> str:
    """The fields of ``Opts`` that keep the first loop's values of each product."""
    return "".join(f"List<{x['outer']}> l{k};" for k, x in _sites(gen))


def product_functions(gen) -> list[str]:
    """Per product, the function that makes option i, and the one that makes them all."""
    out = []
    for k, x in _sites(gen):
        ce = x["el"]
        out += [x["make"],
                f"static List<{ce}> product_all_{k}(const St& s) {{ const size_t n_ = s.opts.l{k}.size() * {x['size']}; "
                f"Vec<{ce}> v_; v_.reserve(n_); for (size_t i_ = 0; i_ < n_; ++i_) v_.push_back(product_{k}(s, i_)); "
                f"return List<{ce}>(std::move(v_)); }}"]
    return out


def product_value(site: dict, k: int) -> str:
    """The C++ of option ``i`` of the decision ``site`` (a product's where it keeps one)."""
    o = site["opt"]
    if "product" not in site:
        return f"s.opts.{o}[i]"
    return f"(s.opts.l{k}.size() ? product_{k}(s, (size_t)i) : s.opts.{o}[i])"


def product_count(site: dict, k: int) -> str:
    """The C++ of how many options the decision ``site`` offers."""
    o = site["opt"]
    if "product" not in site:
        return f"(int)s.opts.{o}.size()"
    return f"(s.opts.l{k}.size() ? (int)(s.opts.l{k}.size() * {site['product']['size']}) : (int)s.opts.{o}.size())"


def export_opts(gen) -> tuple[str, str]:
    """What export_pending puts before its options are read, and the options it reads:
    a product's whole list made in a copy of them (the state is not changed)."""
    cases = " ".join(f"case {k}: if (s.opts.l{k}.size()) {{ m_ = s.opts; m_.{gen.sites[k]['opt']} = product_all_{k}(s); "
                     f"o_ = &m_; }} break;" for k, _ in _sites(gen))
    if not cases:
        return "", "&s.opts"
    return f"const Opts* o_ = &s.opts; Opts m_; switch (s.site) {{ {cases} default: break; }} ", "o_"


def import_opts(gen) -> str:
    """What import_pending does after the options are read: no product kept."""
    return " ".join(f"s.opts.l{k} = List<{x['outer']}>();" for k, x in _sites(gen))
