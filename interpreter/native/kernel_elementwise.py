"""Kept lists made one element per cell (a part of ``kernel.Gen``, its methods on the
generator's state; ``Gen._Comprehension`` asks them first).

A list made from a board's cells, ``[E(c) for c in cells(b)]`` with no condition
(a whole-board ``position()``, made at every move against repeated positions), where ``E``
reads no name of the rule around it but ``c`` and nothing of the state but the items
of the zone ``c`` itself (its compiled C++ reads, as the printer notes it,
kernel_reads.py, ``s.z``'s ``size``, ``top``, ``bottom``, ``items`` or ``topn`` of ``c``
alone, static tables, and calls rule functions of ``c`` alone that do the same, or rule
functions that read nothing of the state), changes where a move changes the cells, and only there: a stone played changes
one number of a 9 × 9 board's 81 (where an element reads an item's variable, such as a
piece's role, which a promotion changes in place, the list is made as before). Its
value is kept (``uE_$listN``, a static table of the module, no part of any state)
with, for each element, the stamp its cell had when the element was made (``Zones<.., true>``'s stamps, cxx/kernel_zones.hpp: a number no other
change of any zone of any state was given, copied with a state) and the work and calls
its evaluation counted. A later call, in any state:

- counts the list's work as the loop does (each cell, ``W``), then, for each cell whose
  stamp is the one noted, the element kept and the work and calls its evaluation
  counted (the budgets run out at the same move as in the reference engine: the work
  and calls only grow, so the totals decide), and for each other cell ``E`` evaluated
  again;
- returns the list kept where no element changed (one more read of ``kept_reads``
  for each element served), else a new list: the kept one copied, the new elements in
  their places (the kept list may be held by the state: lists are not changed in place
  where another holds them).

Which stamps to compare: each change of a zone is told to the keep (cxx/kernel_zones.hpp's
``ZONE_TOUCH``), which notes the element of that cell (``dirty``, each once); in the
state whose lineage (``Lineage``: fresh for each copy) made or checked the list last,
only the elements noted since may have changed, so only their stamps are compared;
in any other state, or after a change of every zone, each cell's stamp is.

An evaluation stopped midway (a budget, ``mk::Bail``) leaves the keep to be made anew
at the next call."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .cxx_text import ident
from .kernel_lasting import stamp_zones, told
from .kernel_reads import Reads, reading, state
from .kernel_types import IDS

_DEPTH = 8   # rule functions called inside an element, looked through at most
# what an element may read of its own cell's zone (kernel_reads.py)
_OWN_READS = ("size", "top", "bottom", "items", "topn")
# element types kept by value (C++ scalars)
_SCALARS = ("int", "bool", "enum", "cell", "player", "item", "zone")


class ElementwiseKeeps:
    """``Gen``'s methods for lists kept one element per cell."""

    if TYPE_CHECKING:
        c: Any
        b: Any
        facts: Any
        tables: Any
        protos: list[str]
        fns: list[str]
        recursive: set[str]
        counting: set[str]
        stamped: bool
        p: Any
        nz: int

        def typeref(self, tr) -> Any: ...

        def ct(self, t) -> str: ...

        def ty(self, e) -> Any: ...

        def param_type(self, p) -> Any: ...

        def expr(self, e, sc: dict, want=None) -> str: ...

    def elementwise(self, e, sc: dict) -> str | None:
        """The C++ call of the keep of the comprehension ``e`` (compiled in the scope
        ``sc``) where it makes a list one element per cell, each reading its own cell
        alone and no name of the scope (see the module's docstring); else None."""
        made = self.__dict__.setdefault("elementwise_made", {})
        if id(e) not in made:
            made[id(e)] = (None, e)   # (the node held: its id is no other's meanwhile)
            made[id(e)] = (self._from_comprehension(len(made), e, sc), e)
        fn = made[id(e)][0]
        return f"{fn}({state(sc)})" if fn else None

    def _from_comprehension(self, n: int, comp, sc: dict) -> str | None:
        """``uE_$listN``: the keep of the comprehension ``comp``, or None."""
        if len(comp.clauses) != 1 or comp.cond is not None:
            return None
        cl = comp.clauses[0]
        table = self.facts.table_list(cl.iter)
        t = self.ty(comp)
        if table is None or table[0] != "cells" or t.arg.tag not in _SCALARS or any(
                x.node == "Var" and x.name != cl.var and x.name in sc for x in ir.walk(comp.elem)):
            return None
        el = self.ct(t.arg)
        x = "xE_"   # (a name no printer gives: the element's cell)
        reads = Reads()   # (what it reads, noted as it is printed: kernel_reads.py)
        elem = self.expr(comp.elem, reading({cl.var: (x, self.ty(cl.iter).arg)}, reads), t.arg)
        if not self._own_cell(reads, x, 0):
            return None
        stamp_zones(self)   # (the zones carry stamps: kernel_lasting.py)
        lt = self.ct(t)
        xs = self.expr(cl.iter, {}, self.ty(cl.iter))
        work = "" if self.facts.counted(cl.iter) else "W(s, (I)n_); "
        calls = f"if (s.calls > {self.b.calls}) bail();"
        keep = self.tables.table(("ELEMENTWISE", n), lambda k: (
            f"static struct {{ bool made = false; {lt} v; std::vector<uint64_t> st; std::vector<I> w, c; "
            f"I ws = 0, cs = 0; uint64_t lin = 0; bool all = true; std::vector<uint32_t> dirty; "
            f"std::vector<uint8_t> isd; }} {k};"))
        self._touched(keep, self.p.boards.get(table[1], []))
        fn = ident("E", f"$list{n}")
        sig = f"static {lt} {fn}(St& s)"
        self.protos.append(sig + ";")
        # (one element made: its value in o_[i_], its cell's stamp, work and calls noted
        # and added to nw_, nc_)
        one = (f"Id {x} = xs_[i_]; I w0_ = s.work, c0_ = s.calls; o_[i_] = {elem}; e.st[i_] = s.z.stamp[{x}]; "
               f"e.w[i_] = w0_ - s.work; e.c[i_] = s.calls - c0_; nw_ += e.w[i_]; nc_ += e.c[i_];")
        # (a list of numbers, ids or bools made again from the kept one: its hash from
        # the kept one's, each element made again changing its share, List::hash)
        hashed = t.arg.tag in ("int", "bool") or t.arg.tag in IDS
        again = (f"{el} was_ = o_[i_]; {one} h_ += hash_share((uint32_t)i_, (uint64_t)(int64_t)o_[i_]) "
                 f"- hash_share((uint32_t)i_, (uint64_t)(int64_t)was_);") if hashed else one
        rehash = "if (h0_) e.v.set_hash(h0_ + h_); " if hashed else ""
        # (the elements that may have changed noted as this state's: none since)
        seen = "for (uint32_t d_ : e.dirty) e.isd[d_] = 0; e.dirty.clear(); e.lin = s.z.lin.id; e.all = false; "
        self.fns.append(
            f"{sig} {{ auto& e = {keep}; const List<Id>& xs_ = {xs}; size_t n_ = xs_.size(); {work}I nw_ = 0, nc_ = 0; "
            f"if (!e.made || e.st.size() != n_) {{ e.made = false; e.st.assign(n_, 0); e.w.assign(n_, 0); "
            f"e.c.assign(n_, 0); e.isd.assign(n_, 0); e.dirty.clear(); Vec<{el}> o_(n_); "
            f"for (size_t i_ = 0; i_ < n_; ++i_) {{ {one} }} e.lin = s.z.lin.id; e.all = false; "
            f"e.v = {lt}(std::move(o_)); e.ws = nw_; e.cs = nc_; e.made = true; return e.v; }} "
            # (in the state whose elements were made last, only those of the cells
            # changed since may differ: _touched; else each cell's stamp is compared)
            f"bool fast_ = e.lin == s.z.lin.id && !e.all; size_t i_ = 0; "
            f"if (fast_ ? e.dirty.empty() : ([&] {{ while (i_ < n_ && s.z.stamp[xs_[i_]] == e.st[i_]) ++i_; "
            f"return i_ == n_; }}())) {{ {seen}KEPT_READS += n_; W(s, e.ws); s.calls += e.cs; {calls} return e.v; }} "
            # (the work and calls of the elements kept: all less those made again)
            f"e.made = false; Vec<{el}> o_(n_); std::copy(e.v.begin(), e.v.end(), o_.begin()); I wk_ = e.ws, ck_ = e.cs; size_t k_ = 0; "
            f"{'uint32_t h0_ = e.v.known_hash(), h_ = 0; ' if hashed else ''}"
            f"auto one_ = [&](size_t i_) {{ if (s.z.stamp[xs_[i_]] == e.st[i_]) return; ++k_; wk_ -= e.w[i_]; "
            f"ck_ -= e.c[i_]; {again} }}; if (fast_) {{ for (uint32_t d_ : e.dirty) one_(d_); }} "
            f"else {{ for (; i_ < n_; ++i_) one_(i_); }} {seen}KEPT_READS += n_ - k_; W(s, wk_); s.calls += ck_; {calls} "
            f"e.v = {lt}(std::move(o_)); {rehash}e.ws = wk_ + nw_; e.cs = ck_ + nc_; e.made = true; return e.v; }}")
        return fn

    def _touched(self, keep: str, cells: list) -> None:
        """Tells a change of a zone (cxx/kernel_zones.hpp's ``ZONE_TOUCH``) to the keep
        ``keep`` of a list made one element per cell of ``cells``: the element of a cell
        changed is noted (``dirty``), once; a change of every zone (-1) makes every
        element one to compare (``all``)."""
        pos = [-1] * self.nz
        for i, z in enumerate(cells):
            if isinstance(z, int) and 0 <= z < self.nz and pos[z] < 0:
                pos[z] = i
        self.tables.table((keep, "TOUCH"), lambda t: (
            f"static const int32_t {t}_pos[{max(self.nz, 1)}] = {{{', '.join(map(str, pos)) or '-1'}}}; "
            f"static void {t}(int z_) {{ auto& e = {keep}; if (z_ < 0 || z_ >= NZ) {{ e.all = true; return; }} "
            f"int32_t i_ = {t}_pos[z_]; if (i_ < 0 || e.all || (size_t)i_ >= e.isd.size() || e.isd[i_]) return; "
            f"e.isd[i_] = 1; e.dirty.push_back((uint32_t)i_); }}"),
            lambda t: told(self, t))

    def _own_cell(self, reads: Reads, var: str | None, depth: int) -> bool:
        """Whether C++ whose reads of the state the printer noted in ``reads`` reads
        nothing of the state but the items of the zone ``var`` (a C++ name; None: nothing
        at all) and the budgets' counters, directly or through rule functions given
        ``var`` alone that read nothing else of theirs, or through rule functions that
        read nothing of the state."""
        if depth > _DEPTH or reads.other or not all(op in _OWN_READS and z == var for op, z in reads.zones):
            return False
        called = {g for g, _args in reads.calls}
        for g, fd in self.c.functions.items():
            if g not in called:
                continue
            if g in self.recursive or g in self.counting:
                return False
            sc = {p.name: (ident("A", p.name), self.param_type(p)) for p in fd.params}
            inner = Reads()
            self.expr(fd.body, reading(sc, inner), self.typeref(fd.result))
            if self._own_cell(inner, None, depth + 1):   # (it reads nothing of the state)
                continue
            if var is None or len(fd.params) != 1 or not self._own_cell(inner, sc[fd.params[0].name][0], depth + 1):
                return False
            if any(args != (var,) for h, args in reads.calls if h == g):
                return False
        return True
