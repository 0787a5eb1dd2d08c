"""Kept values of rule functions that outlast a step (a part of ``kernel.Gen``, its
methods on the generator's state; kernel_memo.py's keeps use them).

A keep of kernel_memo.py serves while the state stays as it is (its ``EPOCH``): at the
next step every value is computed again, though a move changes a few cells of a board
and most values read none of them (the groups of connected pieces and the empty cells
beside them: a piece placed changes the groups beside it alone). Some keeps last longer:

- **which**: a rule function that calls no rule function and whose compiled body reads
  nothing of the state but the items of zones (``s.z``'s ``size``, ``top``, ``bottom``,
  ``items``, ``topn``), static tables and its arguments (the budgets' counters aside):
  its value, the work and the calls it counts are then those of the same arguments and
  the same items in the zones it read (``lasting``; anything else in its C++, such as a
  variable of the rules, a face or an item's place, and it keeps no longer than a step);
- **how**: its body compiled once more as ``uR_name``, each zone it reads noted once
  with the zone's stamp (``ZR``: the zones' stamps, cxx/kernel_zones.hpp ``Zones<.., true>``:
  a number no other change of any zone of any state was given, copied with a state);
  the keep holds that list (``deps``) with the value (a function that reads nothing of
  the state at all, a function of lists alone, notes nothing: its entry serves
  its arguments for good, a list by its buffer, which the entry holds);
- **when**: an entry of an older epoch, with the same arguments, whose zones all have
  the stamps noted (``fresh``), is the value for this state: whichever state it was
  made in, the zones it read hold the same items now. It is read as an entry of the
  epoch is, counting again the work and the calls its evaluation counted (the budgets
  run out at the same move as in the reference engine, docs/language.md 15.3), and
  marked with the epoch running (with every cell that shares its component's walk).

Nothing of this is part of a state: the stamps are (copied with it, never saved,
compared or exported: a state loaded or started anew has fresh ones), the keeps are
static tables of the module."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cxx_text import ident
from .kernel_reads import Reads, reading

# the C++ shared by the lasting keeps (after the state's struct)
HELPERS = (
    # (the zones a kept value's evaluation reads, each once, with its stamp: zone,
    # stamp, zone, stamp...; an evaluation that records calls no other)
    # (each zone noted once: at most two numbers per zone; no evaluation noting zones
    # runs inside another, as a kept function calls none)
    # (two numbers more: a zone noted again is written past the last, unread)
    "static uint64_t DEPS[2 * (NZ > 0 ? NZ : 1) + 2]; static size_t NDEPS = 0; "
    "static uint32_t DEP_MARK[NZ > 0 ? NZ : 1]; static uint32_t DEP_GEN = 0;",
    # (the list written through a cursor of the evaluation's own, its mark held with
    # it, NDEPS set when it ends: the globals are not read and written at each zone)
    "struct ZR { St& s; uint64_t* out; uint32_t gen; explicit ZR(St& s_) : s(s_), out(DEPS) { "
    "if (++DEP_GEN == 0) { std::fill(DEP_MARK, DEP_MARK + (NZ > 0 ? NZ : 1), 0u); DEP_GEN = 1; } gen = DEP_GEN; } "
    "~ZR() { NDEPS = (size_t)(out - DEPS); } ZR(const ZR&) = delete; "
    # (no branch on whether the zone was noted before: a walk meets its zones in no
    # order a processor foresees; one noted before is written past the end, unread)
    "void note(Id z) { if (z >= 0 && z < NZ) { size_t new_ = DEP_MARK[z] != gen; DEP_MARK[z] = gen; "
    "out[0] = (uint64_t)z; out[1] = s.z.stamp[z]; out += 2 * new_; } } "
    # (the zones of another evaluation's list, each once, with their stamps now, where
    # this one carries it on: kernel_components.py; whether a zone is noted)
    "void take(const List<uint64_t>& d) { const uint64_t* p = d.begin(); for (size_t i = 0, n = d.size(); i < n; i += 2) { "
    "Id z = (Id)p[i]; DEP_MARK[z] = gen; out[0] = p[i]; out[1] = s.z.stamp[z]; out += 2; } } "
    "bool noted(Id z) const { return DEP_MARK[z] == gen; } "
    "I size(Id z) { note(z); return s.z.size(z); } Id top(Id z) { note(z); return s.z.top(z); } "
    "Id top_any(Id z) { note(z); return s.z.top_any(z); } "
    "Id bottom(Id z) { note(z); return s.z.bottom(z); } List<Id> items(Id z) { note(z); return s.z.items(z); } "
    "List<Id> topn(Id z, I n) { note(z); return s.z.topn(z, n); } };",
    # (the numbers copied at once: a vector of the pool's allocator copies a range one
    # element at a time)
    "static inline List<uint64_t> deps_read() { Vec<uint64_t> v(NDEPS); "
    "if (NDEPS) std::memcpy(v.data(), DEPS, NDEPS * sizeof(uint64_t)); return List<uint64_t>(std::move(v)); }",
    # (the list of an entry that holds it alone, made anew: written over in its own buffer
    # where that has room, no list made and the old one dropped; a list shared, such as a
    # walk's, or held in its handle or header, is replaced by a new one)
    "static inline void deps_into(List<uint64_t>& d) { auto* r = d.rep(); "
    "if (r && r->rc == 1 && !r->inline_() && NDEPS > List<uint64_t>::INLINE && r->v.capacity() >= NDEPS) { "
    "r->v.resize(NDEPS); std::memcpy(r->v.data(), DEPS, NDEPS * sizeof(uint64_t)); r->d = r->v.data(); "
    "r->n = (uint32_t)NDEPS; r->h = 0; d.h.k = (uint32_t)NDEPS; return; } d = deps_read(); }",
    # (whether the zones read hold the items they held: their stamps are the same)
    "static inline bool fresh(const St& s, const List<uint64_t>& d) { const uint64_t* p = d.begin(); "
    "for (size_t i = 0, n = d.size(); i < n; i += 2) if (s.z.stamp[p[i]] != p[i + 1]) return false; return true; }",
)


# Put before the definition of a function that makes or checks a kept entry by walking
# what it read (``uR_``, and kernel_components.py's ``uV_``, ``uW_``, ``uX_``, ``uY_``):
# each is a loop run where an entry is made or its zones changed, far less often than
# the entry is read, and compiled in line it made the function reading the entries
# several times the size of its common path (go: 2,188,682 → 1,963,884 first-level
# instruction-cache misses in callgrind for 300 games, the same instructions within
# 0.1%).
APART = "__attribute__((noinline)) "


def told(gen, toucher: str | tuple) -> str:
    """The C++ run when the module loads that tells each change of a zone (cxx/
    kernel_zones.hpp's ``ZONE_TOUCH``) to ``toucher`` and to those given before: each
    such code sets ``ZONE_TOUCH`` to one function calling them all in turn, so the last
    one run calls every one (no list of them walked at each change). A toucher is the
    name of a function of the zone, or a walk (``touch_walk``): the walks over one
    table of related zones are made one walk, each related zone's entries told in
    turn (the table read once)."""
    made = gen.__dict__.setdefault("touchers", [])
    made.append(toucher)
    calls = [f"{t}(z_);" for t in made if isinstance(t, str)]
    walks: dict[str, list[tuple]] = {}
    for t in made:
        if not isinstance(t, str):
            walks.setdefault(t[0], []).append(t)
    for rel, group in walks.items():
        every = " ".join(f"{w[1]}();" for w in group)
        each = " ".join(f"r_ = {w[2]}[y_]; if (r_ >= 0) {w[3]}" for w in group)
        calls.append(f"if (z_ < 0 || z_ >= NZ) {{ {every} }} else for (int32_t k_ = {rel}_at[z_]; "
                     f"k_ < {rel}_at[z_ + 1]; ++k_) {{ int32_t y_ = {rel}_ids[k_], r_; {each} }}")
    return f"ZONE_TOUCH = [](int z_) {{ {' '.join(calls)} }};"


def touch_walk(rel: str, every: str, cells: str, one: str) -> tuple:
    """A toucher for ``told``: for a zone z, each zone y of the table ``rel`` (``rel_at``,
    ``rel_ids``: the zones related to z, from ``rel_at[z]``) whose ``cells[y]`` is an
    entry ``r_`` (-1: none) runs ``one`` (the C++ of ``r_``); every zone changed runs the
    function ``every``."""
    return (rel, every, cells, one)


def args_params(gen, name: str) -> str:
    """The C++ of the parameters of the rule function ``name`` after the state's (each
    ``, type uA_name``)."""
    return "".join(f", {gen.arg_type(gen.param_type(p))} {ident('A', p.name)}" for p in gen.c.functions[name].params)


def stamp_zones(gen) -> None:
    """Gives the zones of ``gen``'s program stamps (its lasting keeps read them) and
    the helpers above."""
    if not gen.stamped:
        gen.stamped = True
        gen.protos[:0] = HELPERS


class LastingKeeps:
    """``Gen``'s methods for the keeps that outlast a step."""

    if TYPE_CHECKING:
        c: Any
        protos: list[str]
        fns: list[str]
        facts: Any
        recursive: set[str]

        def typeref(self, tr) -> Any: ...

        def ct(self, t) -> str: ...

        def arg_type(self, t) -> str: ...

        def param_type(self, p) -> Any: ...

        def expr(self, e, sc: dict, want=None) -> str: ...

        def function(self, name: str, any_order: bool = False) -> str: ...

        def distinct_walked(self, name: str) -> Any: ...

    # (the functions whose keeps outlast a step: name -> their uR_ function, or None)
    lasting_made: dict[str, str | None]
    # (whether a keep outlasts a step: the zones then carry stamps, kernel_module.py)
    stamped: bool = False
    # (the comprehension printed as kernel_components.py's noted_once, or the walk as
    # kernel_walks.py's _noted_walk, while one is)
    noting_once: Any = None

    def lasting(self, name: str) -> str | None:
        """``uR_name`` where the keep of the rule function ``name`` may outlast a step
        (see the module's docstring): its body, the zones it reads noted; ``uF_name``
        where it reads nothing of the state (``notes`` is then false); else None."""
        made = self.__dict__.setdefault("lasting_made", {})
        if name in made:
            return made[name]
        made[name] = None
        if name in self.facts.calling or name in self.recursive:
            return None
        fd = self.c.functions[name]
        rt = self.typeref(fd.result)
        params = [(p.name, self.param_type(p)) for p in fd.params]
        sc = {n: (ident("A", n), t) for n, t in params}
        reads = Reads("RZ")   # (each zone's read printed through RZ, kernel_reads.py)
        # (distinct of a filtered list of cells: each kept the first time its zone is
        # noted, kernel_components.py's noted_once)
        once = self.distinct_walked(name)
        # (a walk, the whole body: its zones noted are the cells it met, kernel_walks.py)
        walk = fd.body if fd.body.node == "Aggregate" and fd.body.func == "connected" else None
        self.noting_once = once if once is not None else walk
        try:
            body = recorded(self.expr(once if once is not None else fd.body, reading(sc, reads), rt), reads)
        finally:
            self.noting_once = None
        if body is not None and once is not None:
            self.__dict__.setdefault("lasting_fused", set()).add(name)
        if body is None:
            return None
        if not body.zones:   # (it reads nothing of the state: its value lasts as it is)
            made[name] = self.function(name)
            self.__dict__.setdefault("lasting_pure", set()).add(name)
            return made[name]
        stamp_zones(self)
        fn = ident("R", name)
        sig = f"static {self.ct(rt)} {fn}(St& s" + "".join(
            f", {self.arg_type(t)} {ident('A', n)}" for n, t in params) + ")"
        self.protos.append(sig + ";")
        self.fns.append(f"{APART}{sig} {{ ZR RZ(s); return {body}; }}")
        self.__dict__.setdefault("lasting_body", {})[name] = body
        made[name] = fn
        return fn

    def notes(self, name: str) -> bool:
        """Whether the lasting keep of ``name`` notes the zones its evaluation read (no:
        it reads nothing of the state, and an entry serves its arguments for good)."""
        return name not in self.__dict__.get("lasting_pure", ())


class Recorded(str):
    """A function's body as ``recorded`` wrote it, with ``zones``: the reads of a zone's
    items it made go through ``RZ``, counted as the printer printed them (each once,
    though its text may be written twice: a walk's condition; 0: the body reads nothing
    of the state), never searched for in the text it gives."""

    zones: int

    def __new__(cls, text: str, zones: int) -> Recorded:
        self = super().__new__(cls, text)
        self.zones = zones
        return self

    def __reduce__(self):  # (copied and pickled with what it is)
        return Recorded, (str(self), self.zones)


def recorded(body: str, reads: Reads) -> Recorded | None:
    """The C++ of a function's body printed with each read of a zone's items made through
    ``RZ`` (which notes the zone: ``reads``, what the printer noted as it printed it,
    kernel_reads.py), or None where it reads anything else of the state (the budgets'
    counters aside) or calls a function. A zone's read on the right of an ``&&`` whose
    left tests a read of that zone alone (``(RZ.size(x) > 0) && (eq(T0[nn(RZ.s.z.top(x))],
    k))``, a stone of one colour on a cell) is printed without noting it
    (``Gen.noted_right``): the left, always evaluated first, noted it (a zone noted again
    in an evaluation is written past the list's end, unread)."""
    if not reads.only_zones():
        return None
    return Recorded(body, len(reads.zones))
