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
(as the printer noted printing it, kernel_reads.py; else nothing of this applies): its
value for a cell is that of the cell's items and the other arguments, the same in the
entry. So where every zone noted whose stamp changed gives COND the value the walk had for it (true for a
cell found, false for any other), the walk would go the same way now: the same cells in
the same order, the same work counted (COND counts none and calls no rule function:
core/memo.py), the same zones read. ``uV_name`` checks that, evaluating COND only for
the zones whose stamps changed, and notes a zone's stamp now as soon as its COND gives
the walk's value, in the same pass (so a later read finds the entry fresh by its stamps
alone; an entry checked in another state is then checked again the same way: every
stamp noted is one whose items give COND the walk's value, each zone alone, so a check
that fails at a later zone leaves the stamps it noted true). The deps list is the walk's own (kernel_lasting.py's
``deps_read`` makes one for each walk, shared by the entries of its cells alone).

Where the zones that fail that check are all outside the walk, now passing COND (a
stone played beside its group, of its colour), the walk is carried on from them
(``component_extend``: the old cells first, then those reached), not made again; and
the kept liberties of the group, a list made cell by cell from the group's cells, are
carried on for the cells added at its end (``filter_extend``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ...dsl.types import T
from .cxx_text import ident
from .kernel_lasting import APART, args_params, stamp_zones, told, touch_walk
from .kernel_reads import NOTED, READS, Reads, reading
from .kernel_types import BOOL
from .kernel_walks import CELL_ID

# the zones an entry of a walk notes as changed since it was checked (``touches``)
TOUCHED = 7
# what COND may read of its cell's zone (kernel_reads.py)
_OWN_READS = ("size", "top", "top_any", "bottom", "items")


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

        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

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
        start = self.ty(cl.iter.args[0])
        # (``j_``, where not null, takes the zones out of the walk whose COND became
        # true, a cell beside it that joins it: true is then returned where every other
        # zone checked kept its value, the walk to be carried on from them: uX_name)
        made[name] = self._recheck("V", name, comp.cond, cl.var, T("cell", start.arg), "const ",
                                   lambda var, cond, changed: (
                                       f"{changed}if ((bool)({cond}) != was_) {{ if (was_ || !j_) return false; "
                                       f"j_->push_back({var}); continue; }} p_[i_ + 1] = t_; }} return true; }}"),
                                   ", Vec<Id>* j_")
        return made[name]

    def component_extend(self, name: str) -> str | None:
        """``uX_name(s, v, deps, j, args...)`` for the component function ``name``
        rechecked by membership (``component_recheck``) whose walk goes through a
        relation's rows from one cell: the walk that found ``v`` and read the zones of
        ``deps``, carried on where the zones ``j`` (of ``deps``, outside ``v``) now
        pass COND and every other zone of ``deps`` gives COND the value the walk had for
        it (uV_name's ``j_``). Then the walk from the start now finds ``v``, ``j`` and
        the cells reached from ``j`` through cells that pass COND (any cell it reads
        outside those is of ``deps``, its COND false as before, or is reached from
        ``j``): that list is returned, ``v`` first (a component keep's order does not
        matter), the zones read noted (``deps`` with their stamps now, then those of
        the cells met beyond) and the work of the cells found beyond ``v`` counted (the
        walk counts its start and the related cells of each cell found: ``v``'s were
        counted when it was made). None where the walk is of another form."""
        made = self.__dict__.setdefault("extend_made", {})
        if name in made:
            return made[name]
        made[name] = None
        check = self.component_recheck(name)
        fd = self.c.functions[name]
        cl = fd.body.comp.clauses[0]
        if check is None or cl.iter.node != "Call" or cl.iter.func not in self.c.relations \
                or len(cl.iter.args) != 1 or self.ty(cl.iter.args[0]).tag != "cell":
            return None
        var = self.fresh(cl.var)
        cond = self._own_cond(name, fd.body.comp.cond, cl.var, var, T("cell", self.ty(cl.iter.args[0]).arg))
        if cond is None:
            return None
        stamp_zones(self)
        rel = self.tables.relation(cl.iter.func)[0]
        fn = ident("X", name)
        sig = (f"static List<Id> {fn}(St& s, const List<Id>& v0_, const List<uint64_t>& d0_, const Vec<Id>& j_, I& w_"
               + args_params(self, name) + ")")
        self.protos.append(sig + ";")
        # (a zone read is one noted: COND reads its cell's zone alone, noted before)
        self.fns.append(
            # (v and j copied at once into the room made for them)
            f"{APART}{sig} {{ ZR RZ(s); RZ.take(d0_); Walked found_; size_t k0_ = v0_.size(); "
            f"found_.room(k0_ + j_.size()); if (k0_) std::memcpy(found_.v.data(), v0_.begin(), k0_ * sizeof(Id)); "
            f"if (j_.size()) std::memcpy(found_.v.data() + k0_, j_.data(), j_.size() * sizeof(Id)); "
            f"found_.n = k0_ + j_.size(); I work_ = 0; "
            f"for (size_t k_ = k0_; k_ < found_.size(); ++k_) {{ const List<Id>& near_ = {rel}[found_[k_]]; "
            f"work_ += (I)near_.size(); found_.room(near_.size()); for (Id {var} : near_) {{ {CELL_ID.format(var)}"
            f"if (!RZ.noted({var})) {{ RZ.note({var}); found_.push_if({var}, (bool)({cond})); }} }} }} "
            f"w_ = work_; return found_.list(); }}")
        made[name] = fn
        return fn

    def component_touched(self, name: str, cell: str) -> str | None:
        """For an entry ``e`` (index ``r_``) of the component function ``name``'s walks
        (``component_extend``; ``cell``: the entry each cell points at): the C++ loop
        that checks ``e`` by the zones noted as changed since it was last made or checked
        (``touches``'s ``tz``), where its cells all point at it still (not ``moved``),
        in the state's lineage, its walk found cells and no more than ``TOUCHED`` zones
        were noted. Then every zone that changed, here, is among those noted (another
        state's change may be too), and every one noted is read by the walk (it, or a
        cell beside it, points at ``e``: a cell of the walk, whose related cells the
        walk read); a zone is in the walk where its cell points at ``e`` (a cell pointed
        at an entry is the walk's or its start, one of its cells). As ``component_recheck``
        with ``j_``: ``return false`` where a cell of the walk fails COND, the cells
        outside it that pass COND now added to ``j_`` (each once), the zones' stamps in
        the deps left (a stamp that differs is checked again: the same result). The
        test that the loop applies: ``ok_`` (C++ of ``e``, ``s``). None where the walk
        is of another form."""
        if self.component_extend(name) is None:
            return None
        var = "z_"
        fd = self.c.functions[name]
        cl = fd.body.comp.clauses[0]
        cond = self._own_cond(name, fd.body.comp.cond, cl.var, var, T("cell", self.ty(cl.iter.args[0]).arg))
        if cond is None:
            return None
        return (f"for (uint32_t t_ = 0; t_ < e.nt; ++t_) {{ Id {var} = e.tz[t_]; {CELL_ID.format(var)}"
                f"bool was_ = {cell}[{var}] == r_; if ((bool)({cond}) == was_) continue; if (was_) return false; "
                f"if (std::find(j_.begin(), j_.end(), {var}) == j_.end()) j_.push_back({var}); }}")

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
        comp = _filter(fd.body, {p.name for p in fd.params}, lambda e: self.facts.call_kind(e) == "row")
        if comp is None or self.facts.counts_any(comp.cond):
            return None
        cl = comp.clauses[-1]
        t = self.ty(comp.elem)
        if t.tag != "cell":
            return None
        made[name] = self._recheck("W", name, comp.cond, cl.var, t, "", lambda var, cond, changed: (
            # (``gone_``: the places in the deps of the cells taken out, whose stamps alone
            # are renewed once ``v`` is without them: the others' were as they were checked)
            f"Vec<Id> gone_; {changed}bool now_ = (bool)({cond}); "
            f"if (now_ == was_) {{ p_[i_ + 1] = t_; continue; }} if (now_) return false; gone_.push_back((Id)i_); }} "
            f"if (gone_.empty()) return true; take_out(v_, [&](Id x_) {{ bool out_ = false; "
            f"for (Id g_ : gone_) out_ |= (Id)p_[g_] == x_; return out_; }}); "
            f"for (Id g_ : gone_) p_[g_ + 1] = s.z.stamp[p_[g_]]; return true; }}"))
        return made[name]

    def filter_touched(self, name: str) -> str | None:
        """``uT_name(s, e, args...)`` for a rule function ``name`` rechecked by
        ``filter_recheck``, ``e`` its entry (``_kept_hop``'s): where every cell of the
        entry's parameter points at it still (not ``moved``), in the state's lineage, and
        no more than ``TOUCHED`` zones were noted as changed since it was last made or
        checked (``touches``'s ``tz``), those zones alone are checked (every zone that
        changed here is among them; a zone noted that the list did not read, a cell of
        the parameter, can only fail: the list is then made again, the same); else
        ``filter_recheck`` with the deps. The same result and ``v`` as that: the cells
        whose COND became false taken out (in place where the entry alone holds the list:
        cxx/kernel_walks.hpp's ``take_out``), false where one became true. The stamps of the
        zones checked are left: the list the same, a stamp that differs is checked again,
        the same; a cell taken out, ``took`` is set (the entry's until its deps are read
        again, made or carried on): a state of another lineage, whose cell may be as when
        the list was made, its stamp the same, then makes the list again (this state's
        cell changed: its stamp is not the one noted)."""
        made = self.__dict__.setdefault("ftouched_made", {})
        if name in made:
            return made[name]
        made[name] = None
        check = self.filter_recheck(name)
        fd = self.c.functions[name]
        comp = _filter(fd.body, {p.name for p in fd.params}, lambda e: self.facts.call_kind(e) == "row")
        if check is None or comp is None:
            return None
        var = self.fresh(comp.clauses[-1].var)
        cond = self._own_cond(name, comp.cond, comp.clauses[-1].var, var, self.ty(comp.elem))
        if cond is None:
            return None
        fn = ident("T", name)
        names = "".join(f", {ident('A', p.name)}" for p in fd.params)
        sig = (f"template <class E> static bool {fn}(St& s, E& e"
               + args_params(self, name) + ")")
        self.protos.append(sig + ";")
        self.fns.append(
            f"{sig} {{ if (e.moved || e.lin != s.z.lin.id || e.nt > {TOUCHED}) "
            f"return !(e.took && e.lin != s.z.lin.id) && {check}(s, e.v, e.deps{names}); "
            f"Id gone_[{TOUCHED}]; uint32_t ng_ = 0; for (uint32_t t_ = 0; t_ < e.nt; ++t_) {{ Id {var} = e.tz[t_]; "
            f"{CELL_ID.format(var)}bool was_ = false; for (Id x_ : e.v) if (x_ == {var}) {{ was_ = true; break; }} "
            f"bool now_ = (bool)({cond}); if (now_ == was_) continue; if (now_) return false; "
            f"bool in_ = false; for (uint32_t k_ = 0; k_ < ng_; ++k_) in_ |= gone_[k_] == {var}; "
            f"if (!in_) gone_[ng_++] = {var}; }} "
            f"if (ng_ == 0) return true; take_out(e.v, [&](Id x_) {{ bool o_ = false; "
            f"for (uint32_t k_ = 0; k_ < ng_; ++k_) o_ |= gone_[k_] == x_; return o_; }}); "
            f"e.took = true; return true; }}")
        made[name] = fn
        return fn

    def distinct_walked(self, name: str):
        """The comprehension of a rule function ``name`` whose body is ``distinct`` of a
        list of cells filtered by COND (``_filter``), its last loop over a relation's row
        (cells of a board), COND reading no zone but its cell's, counting no work and
        calling nothing (a group's empty neighbours): its lasting keep's body
        (kernel_lasting.py) is then that list with each cell kept the first time its zone
        is read (``noted_once``), not a list made and then made distinct. None for any
        other."""
        fd = self.c.functions[name]
        body = fd.body
        if body.node != "Call" or body.func != "distinct" or len(body.args) != 1:
            return None
        comp = _filter(body, {p.name for p in fd.params}, lambda e: self.facts.call_kind(e) == "row")
        if comp is None or comp.cond is None or self.facts.counts_any(comp.cond):
            return None
        last = comp.clauses[-1]
        el = self.ty(comp.elem)
        if el.tag != "cell" or last.iter.node != "Call" or self.facts.call_kind(last.iter) != "row":
            return None
        if self._own_cond(name, comp.cond, last.var, "z_", el) is None:
            return None
        return comp

    def noted_once(self, e, sc: dict) -> str:
        """The C++ of the comprehension ``e`` (``distinct_walked``'s) in a lasting keep's
        body, where each zone read is noted once (``ZR``, kernel_lasting.py): a cell is
        kept where its COND holds and its zone was not noted before (it is then noted).
        The loops read no zone and COND none but its cell's, so a cell's zone is noted
        first at its first place in the list: the list is ``distinct``'s (the first of
        equal ones, in order), the work counted as the loops count it, the zones noted
        the same. Where the walk carries on from another's zones (``RZ.take``,
        ``filter_extend``), the cells of those are left out too. (COND is printed reading
        the zone through the state, the zone noted once before it: its reads through
        ``RZ``, ``test``, are printed for the keep's record of what it reads alone.)"""
        t = self.ty(e)
        out = self.fresh("out")
        last = e.clauses[-1].var

        def keep(inner: dict, test: str) -> str:
            # (the cell copied out of the list walked: held in a register across the
            # writes of the note, which the compiler may not assume leave the list alone)
            x = self.fresh(last)
            plain = {k: v for k, v in inner.items() if k not in (READS, NOTED)}
            plain[last] = (x, inner[last][1])
            cond = self.expr(e.cond, plain, BOOL)
            return (f"{{ const Id {x} = {self.expr(e.elem, inner, t.arg)}; const bool new_ = !RZ.noted({x}); "
                    f"RZ.note({x}); {out}.push_if({x}, (bool)(new_ & (bool)({cond}))); }}")
        loops = self.loops(e, sc, keep, reserve=out, whole=True, truth=True)
        return f"([&]() -> List<Id> {{ Build<Id> {out}; {loops} return {out}.list(); }}())"

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

    def filter_extend(self, name: str) -> str | None:
        """``uY_name(s, v, deps, args...)`` for a rule function ``name`` rechecked by
        ``filter_recheck`` whose list is one step of a relation from the cells of a
        parameter (``filter_hop``), that parameter given as the cells ``g`` added at the
        end of a list ``k`` whose value ``v`` (read in the zones of ``deps``) holds now:
        the value for ``k`` then ``g`` (each cell's part of the list is its own, in the
        order of the cells): ``v``, then the list for ``g`` (with ``distinct``: those of
        its cells not in ``v``), the zones read noted (``deps`` with their stamps now,
        then those ``g``'s part read) and the work of ``g``'s part counted (each loop
        counts its own list). None where COND reads that parameter."""
        made = self.__dict__.setdefault("fextend_made", {})
        if name in made:
            return made[name]
        made[name] = None
        hop = self.filter_hop(name)
        body = self.__dict__.get("lasting_body", {}).get(name)
        if hop is None or body is None:
            return None
        fd = self.c.functions[name]
        comp = _filter(fd.body, {p.name for p in fd.params}, lambda e: self.facts.call_kind(e) == "row")
        if comp is None or any(x.node == "Var" and x.name == hop[1] for x in ir.walk(comp.cond)):
            return None
        fn = ident("Y", name)
        sig = (f"static List<Id> {fn}(St& s, const List<Id>& v0_, const List<uint64_t>& d0_"
               + args_params(self, name) + ")")
        self.protos.append(sig + ";")
        # (with distinct, the list for g loses the cells of v: distinct keeps the first)
        # (a body that keeps the first of each cell read, noted_once: those of v, noted by
        # ``take``, left out already)
        keep = "std::find(v0_.begin(), v0_.end(), x_) == v0_.end()" \
            if fd.body.node == "Call" and name not in self.__dict__.get("lasting_fused", ()) else "true"
        self.fns.append(
            f"{APART}{sig} {{ List<Id> n_; {{ ZR RZ(s); RZ.take(d0_); n_ = {body}; }} "
            f"if (n_.size() == 0) return v0_; Vec<Id> w_; w_.reserve(v0_.size() + n_.size()); "
            f"for (Id x_ : v0_) w_.push_back(x_); for (Id x_ : n_) if ({keep}) w_.push_back(x_); "
            f"return List<Id>(std::move(w_)); }}")
        made[name] = fn
        return fn

    def touches(self, key: tuple, rel: str, cells: str, entries: str) -> None:
        """Tells a change of a zone ``z`` (cxx/kernel_zones.hpp's ``ZONE_TOUCH``) to the entries
        that ``z`` and the cells related to ``z`` by ``rel`` point at (``cells[y]``, an
        index in the table ``entries``, -1: none), each made unclean; every entry, where
        every zone changed. Each entry also notes ``z`` (``TOUCHED`` of them in ``tz``,
        ``nt`` their count, past ``TOUCHED`` where more, or every zone, changed:
        ``component_touched``, ``filter_touched``)."""
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
        # (no branch: the zones noted past TOUCHED, unread, are written over the first;
        # a zone the entry noted last is not counted again, its copy written past the
        # end, unread: the cells of a group all point at its entry, so one change is
        # told to it once for each of them beside the zone, and the list would fill)
        one = (f"{{ auto& g_ = {entries}[r_]; g_.clean = false; uint32_t n_ = g_.nt; "
               f"g_.nt = n_ + ((n_ <= {TOUCHED}) & ((n_ == 0) | (g_.tz[(n_ + {TOUCHED}) % ({TOUCHED} + 1)] != (Id)z_))); "
               f"g_.tz[n_ % ({TOUCHED} + 1)] = (Id)z_; }}")
        # (the table of related zones made once, however many keeps it tells: one walk)
        table = self.tables.table(("TOUCHED ZONES", tuple(at), ids), lambda t: (
            f"static const int32_t {t}_at[{len(at)}] = {{{', '.join(map(str, at))}}}; "
            f"static const int32_t {t}_ids[{max(at[-1], 1)}] = {{{ids}}};"))
        self.tables.table(key + ("TOUCH",), lambda t: (
            f"static void {t}() {{ for (auto& g_ : {entries}) {{ g_.clean = false; g_.nt = {TOUCHED} + 1; }} }}"),
            lambda t: told(self, touch_walk(table, t, cells, one)))

    def _own_cond(self, name: str, cond_e, var_name: str, var: str, el: T) -> str | None:
        """COND (``cond_e``) of the rule function ``name`` compiled, its cell
        ``var_name`` (of type ``el``) named ``var``: None where it reads anything of the
        state but the items of that cell's zone (``size``, ``top``, ``top_any``,
        ``bottom``, ``items`` of it: no other use of the state, no count, no call), as
        the printer noted what it printed (kernel_reads.py)."""
        sc = {p.name: (ident("A", p.name), self.param_type(p)) for p in self.c.functions[name].params}
        sc[var_name] = (var, el)
        reads = Reads()
        cond = self.expr(cond_e, reading(sc, reads), BOOL)
        return cond if reads.only_zones(_OWN_READS, var, counted=False) else None

    def _recheck(self, tag: str, name: str, cond_e, var_name: str, el: T, const: str,
                 body, extra: str = "") -> str | None:
        """``u<tag>_name(s, v, deps, args...)`` (``const``: "const " where it leaves ``v``
        as it is), COND (``cond_e``, of the cell ``var_name`` of type ``el``) compiled,
        or None where it reads anything of the state but its cell's zone.
        ``body(var, cond, changed)``: the C++ after the deps' pointer ``p_`` and size
        ``n_``, ``changed`` the head of the loop over the zones noted whose stamps
        changed (``t_`` the stamp now, ``was_`` whether the zone is in ``v``)."""
        var = self.fresh(var_name)
        cond = self._own_cond(name, cond_e, var_name, var, el)
        if cond is None:
            return None
        fn = ident(tag, name)
        sig = (f"static bool {fn}(St& s, {const}List<Id>& v_, const List<uint64_t>& d_"
               + args_params(self, name) + extra + ")")
        self.protos.append(sig + ";")
        changed = (f"for (size_t i_ = 0; i_ < n_; i_ += 2) {{ Id {var} = (Id)p_[i_]; uint64_t t_ = s.z.stamp[{var}]; "
                   f"if (t_ == p_[i_ + 1]) continue; bool was_ = false; "
                   f"for (Id x_ : v_) if (x_ == {var}) {{ was_ = true; break; }} ")
        self.fns.append(f"{APART}{sig} {{ uint64_t* p_ = const_cast<uint64_t*>(d_.begin()); size_t n_ = d_.size(); "
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

