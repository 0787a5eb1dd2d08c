"""Rays and walks over a board in a kernel (a part of ``kernel.Gen``): ``ray(start,
file: 1, rank: -1)``, made once per cell and steps and shared, and ``connected(x for x
in REL(start) if cond)``, the cells reached from a start (helpers._connected), and
``until(x for x in xs if cond)``, a list's elements up to the first that holds."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...dsl import ast as ir
from ...dsl.check import walks_edges
from ...dsl.types import T
from .kernel_reads import NOTED, READS, Reads, counters, reading, reads_of, state
from .kernel_types import BOOL, INT, Unsupported

RAY_STEP = 2           # rays of steps up to this each way are made once and shared...
RAY_MEMO_MAX = 1 << 16  # ...where there are at most this many (cells x steps)
RAY_FOLDS = ("count", "sum", "any", "all")   # folds of a walk along a ray put in line (ray_fold)
LAMBDA = "([&]() -> "   # (an aggregate's loop as C++ writes it: a lambda called where it is made)
# at the head of a loop over a board's cells (a table made before any game, or a part of
# one: kernel_cells.py): each is a cell (a zone: under NZ), never none, which spares the
# tests of each use (none, and a zone's range where a keep notes the zones read)
CELL_ID = "if ((uint32_t){} >= (uint32_t)NZ) __builtin_unreachable(); "


class BoardWalks:
    """Methods of ``kernel.Gen`` (its ``expr``, ``ty``, ``tables``)."""

    if TYPE_CHECKING:
        from typing import Any
        tables: Any
        ns: dict
        nz: int
        c: Any
        facts: Any

        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e) -> T: ...
        def fresh(self, base: str) -> str: ...

    def ray_walk(self, name: str) -> bool:
        """Whether the rule function ``name`` is a walk along a ray alone: its body
        ``until(x for x in ray(...) if cond)`` over a ray of a board whose rays and their
        prefixes are kept (``_ray_memo``), calling no rule function and cond counting
        nothing (no loop, no join: ``Facts.counts_any``). Such a walk reads the kept ray
        and tests a few cells, about what reading a keep of its values costs (a hash,
        its arguments compared, its work counted again): its values are not kept
        (``MemoCalls.kept``), and its body is put in line where it is called, where the
        C++ compiler may fold the steps its callers give (the eight lines from a
        cell, one per direction)."""
        known = self.__dict__.setdefault("ray_walks", {})
        if name not in known:
            body = self.c.functions[name].body
            comp = body.comp if body.node == "Aggregate" and body.func == "until" else None
            if comp is None or len(comp.clauses) != 1:
                known[name] = False
                return False
            ray = comp.clauses[0].iter
            known[name] = ray.node == "Ray" and comp.cond is not None \
                and not self.facts.counts_any(comp.cond) \
                and not any(n.node == "Call" and n.func in self.c.functions for n in ir.walk(body)) \
                and self.nz * (2 * RAY_STEP + 1) ** len(ray.steps) <= RAY_MEMO_MAX
        return known[name]

    def ray_fold(self, name: str) -> bool:
        """Whether the rule function ``name`` folds a walk along a ray: its body ``count``,
        ``sum``, ``any`` or ``all`` of one loop over a kept ray, or over ``until`` of one
        loop over a kept ray, no part of it counting anything (no loop but those, no join,
        no rule function that counts: ``Facts.counts_any``), such as the run of a seat's
        pieces from a cell along a line. Like ``ray_walk`` it tests a few cells, about what
        a keep's look-up costs: its values are not kept, and it is put in line where it is
        called, its fold's lambda with it (``in_line``), so that the compiler folds in the
        steps its callers give (each a constant), where a call of it, then of its lambda,
        passed them through memory."""
        known = self.__dict__.setdefault("ray_folds", {})
        if name not in known:
            body = self.c.functions[name].body
            known[name] = body.node == "Aggregate" and body.func in RAY_FOLDS and self._along_ray(body.comp, True)
        return known[name]

    def _along_ray(self, comp, fold: bool) -> bool:
        """Whether the comprehension ``comp`` is one loop over a kept ray (or, where
        ``fold``, over ``until`` of such a loop with a condition), counting nothing but
        that loop."""
        if len(comp.clauses) != 1 or any(self.facts.counts_any(x) for x in (comp.elem, comp.cond) if x is not None):
            return False
        it = comp.clauses[0].iter
        if fold and it.node == "Aggregate" and it.func == "until":
            return it.comp.cond is not None and self._along_ray(it.comp, False)
        return it.node == "Ray" and not self.facts.counts_any(it) \
            and self.nz * (2 * RAY_STEP + 1) ** len(it.steps) <= RAY_MEMO_MAX

    @staticmethod
    def in_line(text: str) -> str:
        """``text`` (the C++ of an aggregate) with its lambda, called where it is made,
        always put in line (a lambda the compiler left out of line took its captures
        through memory at each call)."""
        if text.startswith(LAMBDA):
            return "([&]() MK_AI -> " + text[len(LAMBDA):]
        return text

    def _Ray(self, e, sc):
        fn = self._ray_fn(e)
        # (a step none fails in Python unless every step is none or 0: the kernel stops)
        steps = "".join(f", nn({self.expr(a.value, sc, INT)})" for a in e.steps)
        return f"{fn}({self.expr(e.start, sc)}{steps})"

    def _ray_fn(self, e) -> str:
        """The C++ function of the rays of ``e``'s board along its coordinates (made once)."""
        board = self.ty(e.start).arg
        keys = tuple(a.name for a in e.steps)
        at = self.tables.cell_at(board, keys)
        if at in self.tables.cell_types:
            raise Unsupported("a ray along coordinates that are not numbers")
        coords = [self.tables.value_table(("C", k), self.ns["C_" + k], INT) for k in keys]
        fn = self.tables.made.get(("RAY", board, keys))
        if fn is None:
            fn = self.tables.made["RAY", board, keys] = f"RAY{len(self.tables.made)}"
            params = "".join(f", I d{i}" for i in range(len(keys)))
            start = " ".join(f"I c{i} = {t}[a];" for i, t in enumerate(coords))
            anyd = " || ".join(f"d{i} != 0" for i in range(len(keys)))
            step = " ".join(f"c{i} = add(c{i}, d{i});" for i in range(len(keys)))
            call = ", ".join(f"c{i}" for i in range(len(keys)))
            self.tables.statics.append(
                f"static List<Id> {fn}_(Id a{params}) {{ if (a < 0 || !({anyd})) "
                f"return List<Id>(); Vec<Id> out; out.reserve(8); {start} for (;;) {{ {step} Id z = {at}({call}); if (z < 0) break; "
                f"out.push_back(z); }} return List<Id>(std::move(out)); }}")
            self.tables.statics.append(self._ray_memo(fn, len(keys)))
        return fn

    def ray_prefixes(self, e, sc) -> tuple[str, str, str] | None:
        """The prefixes of the ray ``e`` (``until``'s values over it, kernel.py
        ``_until``): the C++ that binds its start and steps once, then of a pointer to
        the ray's lists kept for good, the whole ray first, then its prefixes by their
        lengths (0 to its length, each ``prefix``'s), nullptr where the ray is not
        kept (``_ray_memo``), and of the ray itself; None where its rays are never."""
        fn = self._ray_fn(e)
        pres = self._ray_pres()
        if fn not in pres:
            return None
        if pres[fn]:   # (written into the kernel where until first walks the ray)
            self.tables.statics.append(pres[fn])
            pres[fn] = ""
        names = [self.fresh("a")] + [self.fresh("d") for _ in e.steps]
        binds = f"const Id {names[0]} = {self.expr(e.start, sc)}; " + "".join(
            f"const I {d} = nn({self.expr(a.value, sc, INT)}); " for d, a in zip(names[1:], e.steps))
        args = ", ".join(names)
        return binds, f"{fn}_pre({args})", f"{fn}({args})"

    def _ray_memo(self, fn: str, k: int) -> str:
        """``fn``: the ray of ``fn_`` (a list that depends on its cell and steps alone),
        made once per cell and steps of at most RAY_STEP each way and then shared (the
        rules' loops walk the same rays at every turn); other steps are made each time."""
        size, inside, index = self.ray_keep_index(k)
        params = "".join(f", I d{i}" for i in range(k))
        args = "".join(f", d{i}" for i in range(k))
        if size > RAY_MEMO_MAX:
            return f"static inline List<Id> {fn}(Id a{params}) {{ return {fn}_(a{args}); }}"
        # (the tables made when the module loads: no guard at each call; the ray read
        # from its table in the caller, only one not yet made made by a call)
        # ``fn_pre``: the ray and its prefixes, each a list kept for good, made the first
        # time until walks the ray (``ray_prefixes``, which writes it where until does)
        self._ray_pres()[fn] = (
            f"static const List<Id>** const {fn}_pres = new const List<Id>*[{size}](); "
            f"__attribute__((noinline)) static const List<Id>* {fn}_pre_new(Id a{params}, size_t k_) {{ "
            f"const List<Id> r_ = {fn}(a{args}); List<Id>* p_ = new List<Id>[r_.size() + 2]; p_[0] = r_; "
            f"for (size_t i_ = 0; i_ <= r_.size(); ++i_) p_[i_ + 1] = r_.prefix(i_); return {fn}_pres[k_] = p_; }} "
            f"static inline const List<Id>* {fn}_pre(Id a{params}) {{ if (a < 0 || a >= {self.nz} || !({inside})) "
            f"return nullptr; size_t k_ = {index}; const List<Id>* p_ = {fn}_pres[k_]; "
            f"return p_ ? p_ : {fn}_pre_new(a{args}, k_); }}")
        # ``fn_ref``: the ray read where it is kept, with no copy of its list (a loop's,
        # ``ray_ref``); one not kept made into ``spare_``, the caller's
        self._ray_refs().add(fn)
        return (f"static List<Id>* const {fn}_made = new List<Id>[{size}]; "
                f"static uint8_t* const {fn}_known = new uint8_t[{size}](); "
                f"__attribute__((noinline)) static List<Id> {fn}_new(Id a{params}) {{ "
                f"if (a < 0 || a >= {self.nz} || !({inside})) return {fn}_(a{args}); size_t k_ = {index}; "
                f"{fn}_made[k_] = {fn}_(a{args}); {fn}_known[k_] = 1; return {fn}_made[k_]; }} "
                f"static inline List<Id> {fn}(Id a{params}) {{ if (a < 0 || a >= {self.nz} || !({inside})) "
                f"return {fn}_new(a{args}); size_t k_ = {index}; "
                f"if (!{fn}_known[k_]) return {fn}_new(a{args}); return {fn}_made[k_]; }} "
                f"static inline MK_AI const List<Id>& {fn}_ref(Id a{params}, List<Id>& spare_) {{ "
                f"if (a < 0 || a >= {self.nz} || !({inside})) return spare_ = {fn}_(a{args}); size_t k_ = {index}; "
                f"if (!{fn}_known[k_]) {fn}_new(a{args}); return {fn}_made[k_]; }}")

    def ray_ref(self, e, sc) -> tuple[str, str] | None:
        """A loop's list that is the ray ``e``, read where it is kept (``_ray_memo``,
        ``fn_ref``): the C++ that declares the list a ray not kept is made into, and
        of a reference to the ray; None where its rays are never kept."""
        if e.node != "Ray":
            return None
        fn = self._ray_fn(e)
        if fn not in self._ray_refs():
            return None
        spare = self.fresh("spare")
        steps = "".join(f", nn({self.expr(a.value, sc, INT)})" for a in e.steps)
        return f"List<Id> {spare}; ", f"{fn}_ref({self.expr(e.start, sc)}{steps}, {spare})"

    def _ray_refs(self) -> set[str]:
        """The rays' functions that have a ``fn_ref`` (kept rays)."""
        return self.__dict__.setdefault("ray_refs", set())

    def ray_keep_index(self, k: int) -> tuple[int, str, str]:
        """The keep of the rays of ``k`` steps (``_ray_memo``): its size, the C++ test
        that a ray's steps ``d0``... are within it (its cell ``a`` tested apart), and its
        index of the ray from ``a``."""
        span = 2 * RAY_STEP + 1
        inside = " && ".join(f"d{i} >= -{RAY_STEP} && d{i} <= {RAY_STEP}" for i in range(k))
        index = "(size_t)a"
        for i in range(k):
            index = f"({index} * {span} + (size_t)(d{i} + {RAY_STEP}))"
        return self.nz * span ** k, inside, index

    def _ray_pres(self) -> dict[str, str]:
        """The kept rays' functions whose prefixes may be kept, each with the C++ of its
        prefixes' keep, "" once written into the kernel (``ray_prefixes``)."""
        return self.__dict__.setdefault("ray_pres", {})

    def _connected(self, e, sc):
        """``connected(x for x in REL(start) if cond)``: helpers._connected."""
        comp = e.comp
        cl = comp.clauses[0]
        edges = walks_edges(self.c, cl.iter)   # across(EDGES, START): through open edges
        closed = edges and len(cl.iter.args) == 3   # (edges taken as closed too: once, after the start)
        if edges:
            cells, sides = self.tables.edges(self.ty(cl.iter.args[0]).arg)
            near = f"across({state(sc)}, {cells}, {sides}, found_[k_]{', closed_' if closed else ''})"
        else:
            near = f"{self.tables.relation(cl.iter.func)[0]}[found_[k_]]"
        start = cl.iter.args[1 if edges else 0]
        st = self.ty(start)
        s0 = self.expr(start, sc)
        if closed:
            s0 = (f"([&]() -> Id {{ st1_ = {s0}; closed_ = {self.expr(cl.iter.args[2], sc, self.ty(cl.iter.args[2]))}; "
                  f"return st1_; }}())")
        var = self.fresh(cl.var)
        inner = dict(sc)
        inner[cl.var] = (var, T("cell", st.arg if st.tag != "list" else st.arg.arg))
        cond = "true" if comp.cond is None else self.expr(comp.cond, inner, BOOL)
        if st.tag == "list":
            first = (f"const List<Id> st_ = {s0}; I work_ = (I)st_.size(); "
                     f"for (Id {var} : st_) {{ if ({var} >= 0 && seen_.add({var})) {{ if ({cond}) found_.push_back({var}); }} }} ")
        else:   # (one start cell: as a list of one)
            first = (f"I work_ = 1; {{ Id {var} = {s0}; if ({var} >= 0 && seen_.add({var})) {{ "
                     f"if ({cond}) found_.push_back({var}); }} }} ")
        if closed:
            first = "Id st1_ = NONE_ID; List<Id> closed_; " + first
        plain = None if edges or st.tag == "list" else self._noted_walk(e, sc, inner, cl.var)
        if plain is not None:   # (the zones noted are the cells met: no marks of its own)
            return (f"([&]() -> List<Id> {{ Walked found_; I work_ = 1; {{ Id {var} = {s0}; "
                    f"if ({var} >= 0 && ({var} >= NZ || !RZ.noted({var}))) {{ RZ.note({var}); "
                    f"if ({plain}) found_.push_back({var}); }} }} "
                    f"for (size_t k_ = 0; k_ < found_.size(); ++k_) {{ const List<Id>& near_ = {near}; "
                    f"work_ += (I)near_.size(); found_.room(near_.size()); for (Id {var} : near_) {{ "
                    f"{CELL_ID.format(var)}if (!RZ.noted({var})) {{ RZ.note({var}); "
                    f"found_.push_if({var}, (bool)({plain})); }} }} }} "
                    f"W({counters(sc)}, work_); return found_.list(); }}())")
        # (the cells beside each one found: each written at the end, its condition's
        # truth added to the length, no branch on it: Walked, cxx/kernel_walks.hpp)
        return (f"([&]() -> List<Id> {{ Seen seen_({counters(sc)}); Walked found_; {first}"
                f"for (size_t k_ = 0; k_ < found_.size(); ++k_) {{ const List<Id>& near_ = {near}; "
                f"work_ += (I)near_.size(); found_.room(near_.size()); for (Id {var} : near_) {{ "
                f"{'' if edges else CELL_ID.format(var)}"
                f"if (seen_.add({var})) found_.push_if({var}, (bool)({cond})); }} }} "
                f"W({counters(sc)}, work_); return found_.list(); }}())")

    def _noted_walk(self, e, sc: dict, inner: dict, name: str) -> str | None:
        """For ``connected`` ``e``, the whole body of a lasting keep (kernel_lasting.py,
        ``noting_once``: its zones noted through ``RZ``, none before the walk), from one
        start cell a name holds, through a relation's rows, COND reading nothing of the
        state but its cell's zone, counting nothing: COND printed reading the zone through
        the state (its reads through ``RZ``, printed before, are the keep's record of
        what it reads), else None. The walk then notes the zone of each cell it meets, once,
        before COND, and tells the cells met by the zones noted, as its own marks would:
        the same cells in the same order, the same zones noted, the same work."""
        comp = e.comp
        start = comp.clauses[0].iter.args[0]
        reads = reads_of(sc)
        if e is not self.__dict__.get("noting_once") or reads is None or reads.through != "RZ" \
                or start.node != "Var" or comp.cond is None or self.facts.counts_any(comp.cond):
            return None
        own = Reads()
        scope = {k: v for k, v in inner.items() if k not in (READS, NOTED)}
        cond = self.expr(comp.cond, reading(scope, own), BOOL)
        return cond if own.only_zones(("size", "top", "top_any", "bottom", "items"), inner[name][0],
                                      counted=False) else None

    def _until(self, e, sc):
        """``until(x for x in xs if cond)``: helpers._until (the elements looked at counted
        after the walk)."""
        comp = e.comp
        cl = comp.clauses[0]
        t = self.ty(cl.iter)
        var, xs, n = self.fresh(cl.var), self.fresh("xs"), self.fresh("n")
        inner = dict(sc)
        inner[cl.var] = (var, t.arg)
        el = self.ct(t.arg)
        cond = self.expr(comp.cond, inner, BOOL)
        walk = f"size_t {n} = 0; for (const {el}& {var} : {xs}) {{ ++{n}; if ({cond}) break; }} W({counters(sc)}, {n}); "
        # (in line, where the function that holds it keeps the state and arguments in registers)
        head = f"([&]() MK_AI -> {self.ct(t)} {{ "
        pre = self.ray_prefixes(cl.iter, sc) if cl.iter.node == "Ray" else None
        if pre is not None:   # (a ray kept: its prefixes kept with it, one read, no list made)
            p, own = self.fresh("pre"), self.fresh("own")
            return (f"{head}{pre[0]}const List<Id>* {p} = {pre[1]}; List<Id> {own}; if (!{p}) {own} = {pre[2]}; "
                    f"const List<Id>& {xs} = {p} ? {p}[0] : {own}; {walk}"
                    f"return {p} ? {p}[{n} + 1] : {xs}.prefix({n}); }}())")
        # (its value is a prefix of xs: xs itself where the walk ends, no list built)
        return f"{head}const {self.ct(t)} {xs} = {self.expr(cl.iter, sc, t)}; {walk}return {xs}.prefix({n}); }}())"
