"""A component kept across moves checked by its cells' membership (a part of
``kernel.Gen``, its methods on the generator's state; kernel_memo.py's component keeps
use it).

A component keep (``uC_name``, kernel_memo.py: a function whose body is ``connected(x
for x in REL(p) if COND)``, core/memo.py ``component``) that outlasts a step
(kernel_lasting.py) is found stale where a zone its walk read has changed since: a
stone played beside a group changes a zone the group's walk read (to find that it was
no stone of the group), though the group is the same. Walking it again costs a list,
the zones noted and an entry for each of its cells.

The walk reads each zone through COND alone, and COND reads no zone but its cell's
(checked on its C++ here, else nothing of this applies): its value for a cell is that
of the cell's items and the other arguments, the same in the entry. So where every
zone noted whose stamp changed gives COND the value the walk had for it (true for a
cell found, false for any other), the walk would go the same way now: the same cells in
the same order, the same work counted (COND counts none and calls no rule function:
core/memo.py), the same zones read. ``uV_name`` checks that, evaluating COND only for
the zones whose stamps changed, and notes a zone's stamp now as soon as its COND gives
the walk's value, in the same pass (so a later read finds the entry fresh by its stamps
alone; an entry checked in another state is then checked again the same way: every
stamp noted is one whose items give COND the walk's value, each zone alone, so a check
that fails at a later zone leaves the stamps it noted true). The deps list is the walk's own (kernel_lasting.py's
``deps_read`` makes one for each walk, shared by the entries of its cells alone)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ...dsl.types import T
from .cxx_text import ident
from .kernel_lasting import _STATE, told  # (_STATE: anything of the state but the zones)
from .kernel_types import BOOL

# a read of a zone's items, and what follows its opening parenthesis
_ZONE_READ = re.compile(r"\bs\.z\.(\w+)\(")


class ComponentChecks:
    """``Gen``'s methods for rechecking a component keep by membership."""

    if TYPE_CHECKING:
        c: Any
        ns: Any
        nz: int
        tables: Any
        protos: list[str]
        fns: list[str]
        facts: Any

        def ty(self, e) -> Any: ...

        def arg_type(self, t) -> str: ...

        def param_type(self, p) -> Any: ...

        def expr(self, e, sc: dict, want=None) -> str: ...

        def fresh(self, base: str) -> str: ...

    # (the component functions rechecked by membership: name -> uV_name, or None)
    recheck_made: dict[str, str | None]

    def component_recheck(self, name: str) -> str | None:
        """``uV_name(s, v, deps, args...)`` for the component function ``name`` (see the
        module's docstring): whether the walk that found ``v`` and read the zones of
        ``deps`` (zone, stamp, ...) would find it now; the stamp of each zone checked
        renewed as it is checked. None where COND reads anything of the state but its
        own cell's zone."""
        made = self.__dict__.setdefault("recheck_made", {})
        if name in made:
            return made[name]
        made[name] = None
        fd = self.c.functions[name]
        comp = fd.body.comp
        if comp.cond is None:
            return None
        cl = comp.clauses[0]
        params = [(p.name, self.param_type(p)) for p in fd.params]
        start = self.ty(cl.iter.args[0])
        made[name] = self._recheck("V", name, params, comp.cond, cl.var, T("cell", start.arg), "const ",
                                   lambda var, cond, changed: (f"{changed}if ((bool)({cond}) != was_) return false; "
                                                               "p_[i_ + 1] = t_; } return true; }"))
        return made[name]

    def filter_recheck(self, name: str) -> str | None:
        """``uW_name(s, v, deps, args...)`` for a rule function ``name`` whose lasting
        keep notes its zones and whose body is a list of cells filtered by COND
        (``_filter``: ``distinct([n for c in g for n in adjacent(c) if empty(n)])``),
        COND reading no zone but its cell's, counting no work and calling nothing: where
        the zones noted whose stamps changed give COND the value it had for them, or
        false now for a cell of the list (a liberty filled), the value now is ``v``
        without those cells (each of their places in the list gone; ``distinct`` keeps
        the first of the others, in the same order), the loops the same and so the work
        counted; ``v`` is set so and the stamps renewed (a zone whose COND kept its value at
once, as it is checked: see the module's docstring). False where a cell's COND
        became true (the list is made again). None where the body is no such list."""
        made = self.__dict__.setdefault("filter_made", {})
        if name in made:
            return made[name]
        made[name] = None
        fd = self.c.functions[name]
        params = [(p.name, self.param_type(p)) for p in fd.params]
        comp = _filter(fd.body, {n for n, _ in params}, lambda e: self.facts.call_kind(e) == "row")
        if comp is None or self.facts.counts_any(comp.cond):
            return None
        cl = comp.clauses[-1]
        t = self.ty(comp.elem)
        if t.tag != "cell":
            return None
        made[name] = self._recheck("W", name, params, comp.cond, cl.var, t, "", lambda var, cond, changed: (
            f"Vec<Id> gone_; {changed}bool now_ = (bool)({cond}); "
            f"if (now_ == was_) {{ p_[i_ + 1] = t_; continue; }} if (now_) return false; gone_.push_back({var}); }} "
            f"if (gone_.empty()) return true; {{ Vec<Id> w_; w_.reserve(v_.size()); "
            f"for (Id x_ : v_) if (std::find(gone_.begin(), gone_.end(), x_) == gone_.end()) w_.push_back(x_); "
            f"v_ = List<Id>(std::move(w_)); }} "
            f"for (size_t i_ = 0; i_ < n_; i_ += 2) p_[i_ + 1] = s.z.stamp[p_[i_]]; return true; }}"))
        return made[name]

    def filter_hop(self, name: str) -> tuple[str, str] | None:
        """The relation and the parameter of a rule function ``name`` rechecked by
        ``filter_recheck`` whose list is one step of that relation from the cells of that
        parameter (``[n for c in g for n in REL(c) if COND]``, or ``distinct`` of it):
        the zones it reads are then those related to the cells of ``g`` (``touches``).
        None for any other."""
        if self.filter_recheck(name) is None:
            return None
        fd = self.c.functions[name]
        comp = _filter(fd.body, {p.name for p in fd.params}, lambda e: self.facts.call_kind(e) == "row")
        if comp is None or len(comp.clauses) != 2:
            return None
        first, second = comp.clauses
        if first.iter.node != "Var" or second.iter.node != "Call" or len(second.iter.args) != 1 \
                or second.iter.args[0].node != "Var" or second.iter.args[0].name != first.var:
            return None
        return second.iter.func, first.iter.name

    def touches(self, key: tuple, rel: str, cells: str, entries: str) -> None:
        """Tells a change of a zone ``z`` (cxx/kernel_zones.hpp's ``ZONE_TOUCH``) to the entries
        that ``z`` and the cells related to ``z`` by ``rel`` point at (``cells[y]``, an
        index in the table ``entries``, -1: none), each made unclean; every entry, where
        every zone changed."""
        rows = self.ns[f"REL_{rel}"]
        inv: list[list[int]] = [[z] for z in range(self.nz)]
        for y in range(min(len(rows), self.nz)):
            for z in rows[y]:
                if 0 <= z < self.nz and z != y:
                    inv[z].append(y)
        at = [0]
        for r in inv:
            at.append(at[-1] + len(r))
        ids = ", ".join(str(y) for r in inv for y in r) or "0"
        self.tables.table(key + ("TOUCH",), lambda t: (
            f"static const int32_t {t}_at[{len(at)}] = {{{', '.join(map(str, at))}}}; "
            f"static const int32_t {t}_ids[{max(at[-1], 1)}] = {{{ids}}}; "
            f"static void {t}(int z_) {{ if (z_ < 0 || z_ >= NZ) {{ for (auto& g_ : {entries}) g_.clean = false; return; }} "
            f"for (int32_t k_ = {t}_at[z_]; k_ < {t}_at[z_ + 1]; ++k_) {{ int32_t r_ = {cells}[{t}_ids[k_]]; "
            f"if (r_ >= 0) {entries}[r_].clean = false; }} }}"),
            lambda t: told(self, t))

    def _recheck(self, tag: str, name: str, params: list, cond_e, var_name: str, el: T, const: str,
                 body) -> str | None:
        """``u<tag>_name(s, v, deps, args...)`` (``const``: "const " where it leaves ``v``
        as it is), COND (``cond_e``, of the cell ``var_name`` of type ``el``) compiled,
        or None where it reads anything of the state but its cell's zone.
        ``body(var, cond, changed)``: the C++ after the deps' pointer ``p_`` and size
        ``n_``, ``changed`` the head of the loop over the zones noted whose stamps
        changed (``t_`` the stamp now, ``was_`` whether the zone is in ``v``)."""
        sc = {n: (ident("A", n), t) for n, t in params}
        var = self.fresh(var_name)
        sc[var_name] = (var, el)
        cond = self.expr(cond_e, sc, BOOL)
        if not own_zone_only(cond, var):
            return None
        fn = ident(tag, name)
        sig = (f"static bool {fn}(St& s, {const}List<Id>& v_, const List<uint64_t>& d_"
               + "".join(f", {self.arg_type(t)} {ident('A', n)}" for n, t in params) + ")")
        self.protos.append(sig + ";")
        changed = (f"for (size_t i_ = 0; i_ < n_; i_ += 2) {{ Id {var} = (Id)p_[i_]; uint64_t t_ = s.z.stamp[{var}]; "
                   f"if (t_ == p_[i_ + 1]) continue; bool was_ = false; "
                   f"for (Id x_ : v_) if (x_ == {var}) {{ was_ = true; break; }} ")
        self.fns.append(f"{sig} {{ uint64_t* p_ = const_cast<uint64_t*>(d_.begin()); size_t n_ = d_.size(); "
                        + body(var, cond, changed))
        return fn


def _filter(body, params: set[str], row):
    """The comprehension of a body ``[n for .. for n in ... if COND]`` (or ``distinct``
    of one) whose element is its last loop's variable, each loop over a parameter or a
    relation's row (``row``) of a parameter or an earlier loop's variable (nothing of
    the state),
    COND reading no loop's variable but the last: else None."""
    if body.node == "Call" and body.func == "distinct" and len(body.args) == 1:
        body = body.args[0]
    if body.node != "Comprehension" or body.cond is None:
        return None
    names = set(params)
    for cl in body.clauses:
        it = cl.iter
        ok = (it.node == "Var" and it.name in params) or (
            it.node == "Call" and row(it) and all(a.node == "Var" and a.name in names for a in it.args))
        if not ok:
            return None
        names.add(cl.var)
    last = body.clauses[-1].var
    if body.elem.node != "Var" or body.elem.name != last:
        return None
    inner = {cl.var for cl in body.clauses[:-1]} - set(params)
    if any(x.node == "Var" and x.name in inner for x in ir.walk(body.cond)):
        return None
    return body


def own_zone_only(cond: str, var: str) -> bool:
    """Whether the C++ ``cond`` reads nothing of the state but the items of the zone
    ``var`` (each read of ``s.z`` given ``var`` alone, no other use of the state), and
    holds no text (which this does not look into)."""
    if '"' in cond:
        return False
    uses = 0
    for m in _ZONE_READ.finditer(cond):
        if m.group(1) not in ("size", "top", "bottom", "items") or not cond.startswith(f"{var})", m.end()):
            return False
        uses += 1
    return len(_STATE.findall(cond)) == uses
