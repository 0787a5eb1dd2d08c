"""Counts kept per cell of the related cells that pass a test of their own zone (a part
of ``kernel.Gen``, its methods on the generator's state; ``Gen._Aggregate`` asks it
first).

``any(COND for n in REL(c))`` or ``all(...)``, where REL is a relation of two cells and
COND tests ``n``'s zone alone and cannot fail (``empty(n)``, ``occupied(n)``, joined
with ``not``, ``and``, ``or``: a placing rule's "a neighbour of c is empty", asked of every
empty cell at every decision), changes only where a move changes a zone related to ``c``.
The kernel keeps, for each cell ``c``, how many of ``REL(c)`` pass COND (``cnt``) and,
for each zone, whether it passes (``bit``): ``any`` is then ``cnt[c] != 0``, ``all``
``cnt[c] == size(REL(c))``, one read where the loop walked two to four neighbours with
a branch on each that no processor foresees.

The counts are a static table of the module, no part of any state, made for the state
whose lineage (``Lineage``, cxx/kernel_zones.hpp: fresh for each copy) read them last.
Each change of a zone is told to the keep (``ZONE_TOUCH``), which notes the zone
(``dirty``, each once); before a read, in the state of that lineage, COND is evaluated
again for the zones noted alone, and where it changed, the count of each cell related
to the zone moves by one (the relation's inverse, with its repeats); in any other state,
or after a change of every zone, every zone's COND and every count are made anew. A
zone another state changed meanwhile is noted too: evaluated in this state, it gives
the value this state's count holds. A read tests one number (``ok``: the lineage whose
counts hold with no zone noted since, 0 once a zone is), not the three that tell it.

The loop's work is counted as the loop counts it (its list's size, ``W``), and COND
counts none, calls nothing and reads nothing but its zone's items: the budgets run out
where they do in Python, and the value is the loop's. A read in C++ whose reads are
noted for another keep (kernel_reads.py) is printed as the loop, as before; so is one
printed where the zones carry no stamps, or none yet (``Gen.stamped``, kernel_lasting.py:
a whole-board position, made in a game's setup, stamps them first): the stamps and their
lineage are the counts' only cost in the state, and where nothing else asks for them
(a ``complete(b)`` that is ``all`` of a box's four sides, asked of the boxes
beside the line drawn alone) they cost more than the counts save (6–8% more CPU in one
process)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl.types import T
from .kernel_lasting import told
from .kernel_reads import Reads, counters, reading, reads_of, state
from .kernel_types import BOOL

# what COND may read of its zone (kernel_reads.py)
_OWN_READS = ("size",)


def _plain_test(e, var: str) -> bool:
    """Whether ``e`` is ``empty(var)`` or ``occupied(var)`` joined with ``not``, ``and``,
    ``or``: a test of the zone ``var`` that cannot fail and counts nothing."""
    if e.node == "UnOp":
        return e.op == "not" and _plain_test(e.operand, var)
    if e.node == "BinOp":
        return e.op in ("and", "or") and _plain_test(e.left, var) and _plain_test(e.right, var)
    return e.node == "Call" and e.func in ("empty", "occupied") and len(e.args) == 1 \
        and e.args[0].node == "Var" and e.args[0].name == var


class AroundCounts:
    """``Gen``'s ``any``/``all`` of a related cell's own test, kept as counts per cell."""

    if TYPE_CHECKING:
        facts: Any
        tables: Any
        ns: Any
        nz: int
        stamped: bool

        def ty(self, e) -> Any: ...

        def expr(self, e, sc: dict, want=None) -> str: ...

        def fresh(self, base: str) -> str: ...

    def kept_around(self, e, sc: dict) -> str | None:
        """The C++ of the aggregate ``e`` (``any`` or ``all``) read from the counts kept
        per cell (see the module's docstring), or None where it is of another form or
        its reads are noted (``sc`` has a ``Reads``)."""
        comp = e.comp
        if e.func not in ("any", "all") or reads_of(sc) is not None or not self.stamped \
                or len(comp.clauses) != 1 or comp.cond is not None:
            return None
        cl = comp.clauses[0]
        it = cl.iter
        if it.node != "Call" or self.facts.call_kind(it) != "row" or len(it.args) != 1 \
                or self.ty(it.args[0]).tag != "cell" or not _plain_test(comp.elem, cl.var):
            return None
        keep = self._around_keep(it.func, comp.elem, cl.var, self.ty(it).arg)
        if keep is None:
            return None
        lists = self.tables.relation(it.func)[0]
        c, xs = self.fresh("c"), self.fresh("xs")
        s = state(sc)
        test = f"{keep}.cnt[{c}] != 0" if e.func == "any" else f"{keep}.cnt[{c}] == {xs}.size()"
        return (f"([&]() -> bool {{ Id {c} = nn({self.expr(it.args[0], sc)}); const List<Id>& {xs} = {lists}[{c}]; "
                f"W({counters(sc)}, {xs}.size()); if (__builtin_expect({keep}.ok != {s}.z.lin.id, 0)) {keep}_sync({s}); "
                f"return {test}; }}())")

    def _around_keep(self, rel: str, cond_e, var_name: str, el: T) -> str | None:
        """The keep of the counts of ``REL(c)`` passing COND (``cond_e``, of the cell
        ``var_name``), one per relation and COND; its sync is ``keep_sync(s)``. None
        where COND reads anything of the state but its zone's items."""
        reads = Reads()
        cond = self.expr(cond_e, reading({var_name: ("z_", el)}, reads), BOOL)
        if not reads.only_zones(_OWN_READS, "z_", counted=False):
            return None
        rows = self.ns[f"REL_{rel}"]
        inv: list[list[int]] = [[] for _ in range(self.nz)]
        for y in range(min(len(rows), self.nz)):
            for z in rows[y]:
                if 0 <= z < self.nz:
                    inv[z].append(y)
        at = [0]
        for r in inv:
            at.append(at[-1] + len(r))
        widest = max((len(rows[y]) for y in range(min(len(rows), self.nz))), default=0)
        ct = "uint8_t" if widest < 256 else "uint32_t"
        lists = self.tables.relation(rel)[0]
        nz = max(self.nz, 1)
        return self.tables.table(("AROUND", rel, cond), lambda k: (
            f"static struct {{ uint64_t lin = 0, ok = 0; uint32_t all = 1, nd = 0; {ct} cnt[{nz}]; uint8_t bit[{nz}], "
            f"isd[{nz}]; int32_t dirty[{nz}]; }} {k}; "
            f"static const int32_t {k}_at[{len(at)}] = {{{', '.join(map(str, at))}}}; "
            f"static const int32_t {k}_ids[{max(at[-1], 1)}] = {{{', '.join(str(y) for r in inv for y in r) or '0'}}}; "
            # (a zone changed noted, once; every zone: all made anew)
            f"static void {k}_touch(int z_) {{ {k}.ok = 0; if (z_ < 0 || z_ >= NZ) {{ {k}.all = 1; return; }} "
            f"if (!{k}.isd[z_]) {{ {k}.isd[z_] = 1; {k}.dirty[{k}.nd++] = z_; }} }} "
            f"__attribute__((noinline)) static void {k}_sync(St& s) {{ auto& e = {k}; "
            f"if (e.all || e.lin != s.z.lin.id) {{ for (Id z_ = 0; z_ < NZ; ++z_) {{ e.bit[z_] = (uint8_t)(bool)({cond}); "
            f"e.isd[z_] = 0; }} for (Id y_ = 0; y_ < NZ; ++y_) {{ {ct} n_ = 0; for (Id x_ : {lists}[y_]) n_ += e.bit[x_]; "
            f"e.cnt[y_] = n_; }} e.all = 0; e.nd = 0; e.ok = e.lin = s.z.lin.id; return; }} "
            f"for (uint32_t k_ = 0; k_ < e.nd; ++k_) {{ Id z_ = e.dirty[k_]; e.isd[z_] = 0; uint8_t b_ = (uint8_t)(bool)({cond}); "
            f"if (b_ == e.bit[z_]) continue; e.bit[z_] = b_; "
            f"for (int32_t i_ = {k}_at[z_]; i_ < {k}_at[z_ + 1]; ++i_) e.cnt[{k}_ids[i_]] += b_ ? 1 : ({ct})-1; }} "
            f"e.nd = 0; e.ok = s.z.lin.id; }}"),
            lambda k: told(self, f"{k}_touch"))
