"""The module a kernel is (interpreter/native/kernel.py): the program's constants, the state's
and frames' structs, the shared C++ of ``cxx/`` and the program's own parts in the
order C++ needs them, what apply needs of each decision and where procedures' values go."""
from __future__ import annotations

from .cxx_text import ident, literal
from .kernel_bridge import Bridge
from .kernel_chance import item_alike_code
from .kernel_layout import Stored, by_size, fit_width, narrow_int, size_of
from .kernel_products import product_count, product_fields, product_functions, product_value
from .kernel_types import Unsupported, read_cxx, runtime_cxx


class ModuleWriter:
    """Writes the C++ source of one program's module around the parts ``Gen`` made."""

    def __init__(self, gen):
        self.gen = gen

    def assemble(self, procs, bodies, driver) -> str:
        c, n = self.gen.c, self.gen.n
        layout = self.gen.layout   # (each field in the narrowest type that holds it)
        wide, narrow = self.var_fields(layout)
        faces = "FaceT facing[NI > 0 ? NI : 1];" if layout.turns_items() else "[[no_unique_address]] Fixed<-1> facing;"
        reveals = ("uint8_t revealed[NZ > 0 ? NZ : 1];" if layout.reveals() else
                   "[[no_unique_address]] Fixed<0> revealed;")
        opt_fields = "".join(f"{t} o{i};" for i, t in enumerate(self.gen.opt_types)) + "".join(
            f"List<{t}> e{j}[NP]; {t} c{j}[NP * MP];" for j, t in enumerate(self.gen.each_types)) + product_fields(self.gen)
        dispatch = "".join(f"case {i}: P{i}(s); break;" for i in range(len(procs)))
        turn = self.gen.proc_index.get("turn")
        setup = self.gen.proc_index.get("setup")
        names = ", ".join(literal(name) for name, *_ in procs)
        bridge = Bridge(self.gen, self.frame_types(layout))
        sites, export = self.sites_code(), bridge.export_code(procs)   # (they may make tables)
        imports, alike = bridge.import_code(procs), item_alike_code(self.gen)
        src = [
            runtime_cxx(),
            "using namespace mk;",
            f"constexpr int NI = {self.gen.ni}; constexpr int NZ = {self.gen.nz}; constexpr int NP = {n};",
            f"constexpr int DIR = {self.gen.p.direction}; constexpr int NPROCS = {len(procs)};",
            f"constexpr I STEPS = {self.gen.b.steps}LL; constexpr I WORK = {self.gen.b.work}LL;",
            f"constexpr I RANGE = {self.gen.b.range}LL; constexpr I LIMIT = {self.gen.b.integer}LL;",
            # (the most picks a seat makes in a simultaneous decision: picks.py)
            f"constexpr int MP = {max_picks(self.gen)};",
            f"constexpr int NTIES = {len(c.tiebreaks)}; constexpr int TURN_PROC = {-1 if turn is None else turn};",
            f"constexpr int SETUP_PROC = {-1 if setup is None else setup};",
            f"static const Str PROC_NAMES[] = {{{names}}};",
            f"static const int PROC_END[] = {{{', '.join(str(e) for e in self.gen.proc_ends)}}};",
            f"static const uint64_t SEERS[NZ > 0 ? NZ : 1] = {{{self.seers()}}};",
            "static inline I pmod(I a) { I r = a % NP; return r < 0 ? r + NP : r; }",
            # (a seat or -1; who sees an item: -1 as its place says, else a mask of seats)
            "typedef Fit<-1, NP> SeatT; typedef Fit<-1, (NP < 62 ? (1LL << NP) - 1 : INT64_MAX)> FaceT;",
            # (every step renews the epoch of kept values, read KEPT_READS times: see
            # kernel_memo.py)
            "static uint64_t EPOCH = 1; static uint64_t KEPT_READS = 0;",
            # (a perft's last decisions: their options counted, not made: kernel_glue.hpp)
            "static bool COUNTING = false; static long long COUNTED = -1;",
            "#define STEP(s) do { ++EPOCH; if (++(s).steps > STEPS) bail(); } while (0)",
            *self.gen.step_defines(),   # (steps that keep the epoch: kernel_epoch.py)
            *self.gen.tops.index_defines(),   # (an item variable's index kept: kernel_tops.py)
            *self.gen.pre_state,
            *self.frame_code(layout, len(procs)),
            f"struct Opts {{ {opt_fields} }};",
            # (the fields by size, the widest first: no padding between them)
            *self.gen.tops.traits(),   # (kernel_tops.py: each item's values indexed)
            "struct St {",
            "  I turn = 0; I moves = 0; uint64_t rng = 0; I work = 0, calls = 0;",
            # (the steps and the nesting of calls of the run in progress, and the deepest
            # nesting reached, see kernel_memo.py, deep_call: set anew by every run, where
            # they are read, never kept between moves, so in no state; the GIL keeps one
            # thread in a kernel at a time; hidden: read where they are, not through the
            # module's table of symbols)
            "  [[gnu::visibility(\"hidden\")]] static inline I depth = 0, steps = 0, peak = 0;",
            # (the chance cursor: where a statement draws; else always 0, in no byte)
            ("  I nchance = 0; int used = 0; int step_n = 0;" if self.gen.draws else
             "  [[no_unique_address]] Always<0> nchance, used, step_n;"),
            # (arrays of no element where the program has no tiebreaks, teams, parts or payoffs:
            # no byte, g++'s and clang's zero-length arrays)
            "  I scores[NP]; I ties[NTIES][NP]; TeamT teams[HAS_TEAMS ? NP : 0]; I parts[NPARTS];",
            "  I payoffs[HAS_PAYOFFS ? NP : 0];",
            "  Opts opts; Frames<Frame> stack;",
            # (explicit chance: see kernel_chance.py; none where no statement draws)
            ("  std::vector<int> taken; PyRef step;" if self.gen.draws else
             "  [[no_unique_address]] NoTaken taken; [[no_unique_address]] NoStep step;"),
            "  " + " ".join(wide),
            "  Id active = 0; int site = -1; Id player = -1; int outcomes[NP];",
            "  " + " ".join(narrow),
            # (stamps: kernel_lasting.py; an index of the occupied cells: kernel_occupancy.py)
            f"  Zones<NI, NZ{self.zones_args()}> z;",
            # (who sees each item: -1 as its place says, else a mask of seats; the zones
            # revealed to all)
            f"  {faces} {reveals}",
            # (a simultaneous decision: the seats asked, those still to choose, those that
            # have chosen in order; their options and choices are in opts; none, in no
            # byte, where the program has no simultaneous decision)
            ("  SeatT each_n = 0, nwaiting = 0; Fit<-1, NP * MP> nchosen = 0; SeatT each_seats[NP]; "
             "SeatT waiting[NP]; SeatT chosen[NP * MP]; bool simul = false;" if self.gen.each_types else
             "  [[no_unique_address]] Always<0> each_n, nwaiting, nchosen, simul; "
             "[[no_unique_address]] Fixed<-1> each_seats, waiting, chosen;"),
            "  int8_t phase = 0; bool end_req = false; bool xchance = false;",
            "  void push(int proc) { stack.emplace_back(proc); }",
            "};",
            "struct Depth { St& s; explicit Depth(St& s_) : s(s_) {} ~Depth() { --s.depth; } };",
            # (a batch of random playouts in progress: a decision's move is drawn and taken
            # where it is asked, and the procedure goes on: cxx/kernel_playout.hpp)
            "static bool AUTO = false; static bool auto_take(St& s);",
            "static int auto_pick(St& s, size_t n); static inline void auto_renew(St& s);",
            "static inline void W(St& s, I n) { s.work -= n; if (s.work < 0) bail(); }",
            # (a value the rules evaluate k times more, the same each time, evaluated once:
            # the work and the calls of its evaluation counted k times more: Gen.count_equal)
            ("template <class F> static auto counted_again(St& s, I k, F&& f) { const I w = s.work, c = s.calls; "
             "auto v = f(); W(s, (w - s.work) * k); s.calls += (s.calls - c) * k; "
             f"if (s.calls > {self.gen.b.calls}) bail(); return v; }}"),
            ("static inline void range_work(St& s, I a, I b) { I n = sub(add(b, 1), a); "
            "if (n > RANGE) bail(); if (n > 0) W(s, n); }"),
            # (its vector made at its size at once: grown push by push, a range of 10 was
            # four allocations and three copies, a tenth of a short game's instructions)
            # (a short one written on the stack first, then in its list's handle or header
            # at once: no vector zeroed)
            ("static List<I> irange(St& s, I a, I b) { range_work(s, a, b); if (b < a) return List<I>(); "
             "const size_t k = (size_t)(b - a + 1); if (k <= 16) { I xs[16]; for (size_t i = 0; i < k; ++i) "
             "xs[i] = a + (I)i; return List<I>::of_n(xs, k); } Vec<I> v(k); I* p = v.data(); "
             "for (I x = a; x <= b; ++x) *p++ = x; return List<I>(std::move(v)); }"),
            ("template <class T> static List<T> wcat(St& s, const List<T>& a, const List<T>& b) "
            "{ W(s, (I)(a.size() + b.size())); return cat(a, b); }"),
            # (a + b of a list just made, that nothing else holds: b appended where its
            # list is, where a third list was made and both copied into it)
            ("template <class T> static List<T> wcat(St& s, List<T>&& a, const List<T>& b) "
             "{ W(s, (I)(a.size() + b.size())); if (a.append(b)) return std::move(a); return cat(a, b); }"),
            # (x = x + b: the same work as wcat, b appended where x's list is when nothing
            # else holds it)
            ("template <class T> static void wappend(St& s, List<T>& x, const List<T>& b) "
            "{ W(s, (I)(x.size() + b.size())); if (!x.append(b)) x = cat(x, b); }"),
            # (x = x + [v]: the same work as wappend, v pushed where x's buffer is when
            # nothing else holds it, a list of lists or texts, where a list of one was made)
            ("template <class T> static void wappend1(St& s, List<T>& x, const typename std::common_type<T>::type& v) "
             "{ W(s, (I)(x.size() + 1)); if constexpr (List<T>::HANDLE == 0) { auto* p = x.h.p; "
             "if (p && p->rc == 1 && !p->inline_()) { p->v.push_back(v); p->d = p->v.data(); ++p->n; p->h = 0; "
             "return; } } List<T> b = List<T>::of({v}); if (!x.append(b)) x = cat(x, b); }"),
            read_cxx("kernel_texts.hpp"),
            # (texts a counted decision tells apart by their keys: kernel_text_keys.py)
            *([read_cxx("kernel_text_keys.hpp")] if self.gen.text_keys else []),
            "static inline I imin(I a, I b) { return nn(a) < nn(b) ? a : b; }",
            "static inline I imax(I a, I b) { return nn(a) > nn(b) ? a : b; }",
            # (the slot of an item's variable, for an item that has it: kernel_layout.ivar)
            "static inline I islot(const I* t, Id i) { I k = t[i]; if (k < 0) bail(); return k; }",
            "static inline bool zin(St& s, Id item, Id z) { Id l = s.z.loc(nn(item)); return z >= 0 && l == z; }",
            ("static inline Id cell_of(St& s, Id item, const bool* inside) { Id l = s.z.loc(nn(item)); "
            "return l >= 0 && inside[l] ? l : NONE_ID; }"),
            "static inline bool face_down(St& s, Id item) { return s.facing[nn(item)] >= 0; }",
            "static inline bool is_none(I x) { return x == NONE_I; }",
            "static inline bool is_none(Id x) { return x < 0; }",
            "static inline bool is_none(const Str& x) { return is_none_s(x); }",
            # (no template for any T: a narrow field reads as its Id or I above)
            "static inline bool is_none(bool) { return false; }",
            # (none as a list or tuple: the move without an object beside them)
            "template <class T> static inline bool is_none(const List<T>& l) { return l.is_none(); }",
            "template <class... P> static inline bool is_none(const Tup<P...>& t) { return t.nil; }",
            # (a list or tuple read where none is an error in Python: the kernel bails)
            "template <class T> static inline const T& nnv(const T& x) { if (x.is_none()) bail(); return x; }",
            # Runtime.move: to the top of a zone, facing as given (-1: as the place says)
            "static inline void mv(St& s, Id item, Id to, I f = -1) { s.z.move(item, to); s.facing[item] = f; }",
            # (the same of an item the rules found in the zone ``from``: kernel.py, _Move)
            "static inline void mv_in(St& s, Id item, Id from, Id to, I f) { s.z.move_in(item, from, to); s.facing[item] = f; }",
            # an item option the decider may not know is ordered by its place (Runtime._ordered):
            # the kernel asks only where it sees every one (Runtime.sees_item)
            ("static inline bool sees(St& s, Id i, Id p) { I f = s.facing[i]; if (f >= 0) return (f >> p) & 1; "
            "Id z = s.z.loc(i); return z >= 0 && (((SEERS[z] >> p) & 1) || s.revealed[z]); }"),
            read_cxx("kernel_state.hpp"),
            read_cxx("kernel_chance.hpp"),
            # the cells a walk has met (connected): a mark per cell, by generation, one
            # array per walk in progress (a walk's condition may walk too)
            "static std::vector<std::vector<uint32_t>> SEEN_POOL; static size_t SEEN_DEPTH = 0;",
            ("static inline int each_index(const St& s, Id seat) { for (int k = 0; k < s.each_n; ++k) "
            "if (s.each_seats[k] == seat) return k; return -1; }"),
            ("static inline bool waiting_for(const St& s, Id seat) { for (int k = 0; k < s.nwaiting; ++k) "
            "if (s.waiting[k] == seat) return true; return false; }"),
            ("struct Seen { uint32_t* m; uint32_t g; Seen(St&) { if (SEEN_DEPTH == SEEN_POOL.size()) "
            "SEEN_POOL.emplace_back(NZ + 1, 0); std::vector<uint32_t>& v = SEEN_POOL[SEEN_DEPTH++]; "
            "m = v.data(); g = ++v[NZ]; if (g == 0) { std::fill(v.begin(), v.end(), 0); g = v[NZ] = 1; } } "
            "~Seen() { --SEEN_DEPTH; } Seen(const Seen&) = delete; "
            "bool add(Id z) { if (m[z] == g) return false; m[z] = g; return true; } };"),
            *self.gen.tables.statics,
            alike,
            *self.gen.protos,
            *self.gen.fns,
            "static void run_top(St& s); static inline bool turn_again(St& s, Frame* f);",
            *self.returns_code(procs),
            *bodies,
            driver,
            f"static void run_top(St& s) {{ switch (s.stack.back().proc) {{ {dispatch} default: bail(); }} }}",
            sites,
            export,
            imports,
            read_cxx("kernel_glue.hpp"),
            read_cxx("kernel_playout.hpp"),
            read_cxx("kernel_rollout.hpp"),
            "static int kernel_init() { " + " ".join(self.gen.tables.inits) + " return 0; }",
        ]
        return "\n".join(src) + "\n"

    def var_fields(self, layout) -> tuple[list[str], list[str]]:
        """The declarations of the rules' variables (global, per player, per item), those
        of 8 bytes and the narrower ones, each list the widest first."""
        c, fields, ivars = self.gen.c, [], {}
        for name, v in c.vars.items():
            t = layout.stored(self.gen.typeref(v.type), name)
            fields.append((t, f"{t} {ident('P', name)}[NP];" if v.per_player else f"{t} {ident('G', name)};"))
        for fs in c.item_vars.values():
            for name, f in fs.items():
                t = self.gen.typeref(f.type)
                if ivars.get(name, t) != t:
                    raise Unsupported(f"item variable '{name}' of two types")
                ivars[name] = t
        for name, t in ivars.items():
            ct = layout.stored(t, name)
            ids = layout.item_slots(name)
            fields.append((ct, f"{ct} {ident('I', name)}[{'NI > 0 ? NI : 1' if ids is None else max(len(ids), 1)}];"))
        fields = by_size(fields)
        return [d for t, d in fields if size_of(t) == 8], [d for t, d in fields if size_of(t) < 8]

    def frame_code(self, layout, nprocs: int) -> list[str]:
        """The structs of the frames: each procedure's locals (``Locals<k>``, the fields
        by size), and ``Frame``, a procedure's pc, where its value goes (``ret``) and the
        locals of that procedure alone (``l<k>``, one of a union: a frame is as large as
        the locals of the procedure that has the most, not as all of them)."""
        by_proc: list[list[tuple[Stored, str]]] = [[] for _ in range(nprocs)]
        for f, t in self.frame_types(layout).items():
            k, name = f.split(".")
            by_proc[int(k[1:])].append((t, f"{t} {name};"))
        out = [f"struct Locals{k} {{ {''.join(d for _t, d in by_size(fs))} }};" for k, fs in enumerate(by_proc)]

        def each(code) -> str:   # (``code(k)`` for the locals of the frame's procedure k)
            cases = "".join(f"case {k}: {code(k)} break; " for k in range(nprocs))
            return f"switch (proc) {{ {cases}default: break; }}"
        union = " ".join(f"Locals{k} l{k};" for k in range(nprocs))
        out.append(
            f"struct Frame {{ union {{ {union} }}; int proc; int pc = 0; int ret = -1; "
            f"explicit Frame(int p) : proc(p) {{ {each(lambda k: f'new (&l{k}) Locals{k}();')} }} "
            "Frame(const Frame& o) : proc(o.proc), pc(o.pc), ret(o.ret) "
            f"{{ {each(lambda k: f'new (&l{k}) Locals{k}(o.l{k});')} }} "
            "Frame(Frame&& o) noexcept : proc(o.proc), pc(o.pc), ret(o.ret) "
            f"{{ {each(lambda k: f'new (&l{k}) Locals{k}(std::move(o.l{k}));')} }} "
            f"Frame& operator=(const Frame&) = delete; ~Frame() {{ {each(lambda k: f'l{k}.~Locals{k}();')} }} }};")
        return out

    def frame_types(self, layout) -> dict[str, Stored]:
        """Each frame field's C++ type: an id's narrow where every local it holds is an
        id of one count (``Layout.stored``), else its type as the rules' code reads it."""
        out = {}
        for f, ct in self.gen.fields.items():
            kept = {layout.stored(t) for t in self.gen.field_types.get(f, ())}
            r = self.gen.field_ranges.get(f)
            if r is not None and kept == {"I"} and fit_width(r[0] - 1, r[1]) < 8:   # (r[0] - 1: none)
                kept = {narrow_int(*r)}
            out[f] = kept.pop() if len(kept) == 1 else ct
        return out

    def returns_code(self, procs) -> list[str]:
        """``ret_K``: a value procedure K returns, written into its caller's frame (the
        one under it) where the call's code says; ``ret_code``: that code from a caller
        and the name of its local (a state's ``$ret``)."""
        out, codes = [], []
        for k, (name, *_rest) in enumerate(procs):
            d = self.gen.c.procedures.get(name)
            if d is None or d.result is None:
                continue
            rt = self.gen.typeref(d.result)
            cases = "".join(f"case {code}: c.{field} = std::move(v); return; "
                            for code, (caller, slot, field, callee, _) in enumerate(self.gen.returns) if callee == k)
            out.append(f"static void ret_{k}(St& s, int code, {self.gen.ct(rt)} v) {{ "
                       f"Frame& c = s.stack[s.stack.size() - 2]; switch (code) {{ {cases}}} bail(); }}")
        for code, (caller, slot, _field, _callee, _) in enumerate(self.gen.returns):
            codes.append(f"if (caller == {caller} && !PyUnicode_CompareWithASCIIString(name, {literal(slot)}.c_str())) "
                         f"return {code};")
        out.append("static int ret_code(int caller, PyObject* name) { if (!PyUnicode_Check(name)) throw PyFail(); "
                   + " ".join(codes) + " throw PyFail(); }")
        out.append("static const Str RET_SLOT[] = {" + ", ".join(
            [literal(slot) for _, slot, _, _, _ in self.gen.returns] + ["Str()"]) + "};")
        return out

    def zones_args(self) -> str:
        """The arguments of the state's ``Zones`` after ``NI, NZ`` (cxx/kernel_zones.hpp):
        whether the zones carry stamps (kernel_lasting.py), the index of the occupied
        cells (kernel_occupancy.py); none where neither."""
        occ = self.gen.occupied.zones_args()
        return (", true" if self.gen.stamped else ", false" if occ else "") + occ + self.gen.tops.zones_args()

    def seers(self) -> str:
        """Per zone, the seats that see its items, as bits (runtime._zone_seers)."""
        from ..play.runtime import _zone_seers
        if self.gen.n > 63:
            raise Unsupported("more than 63 players")
        return ", ".join(f"{m}ULL" for m in _zone_seers(self.gen.p, self.gen.n)) or "0"

    def sites_code(self) -> str:
        """What apply and the glue need of each decision: the count of a seat's options
        (-1: the seat does not decide now), one option as a Python value, and taking one
        (true when the decision is made and the rules go on)."""
        counts, pys, takes, hides = [], [], [], []
        for k, site in enumerate(self.gen.sites):
            el = site["el"]
            if el.tag in ("item", "list") and "item" in site["type"]:
                value = (f"s.opts.{site['opt']}[i]" if site["kind"] == "one"
                         else f"s.opts.e{site['each']}[each_index(s, seat)][i]")
                test = ("v >= 0 && !sees(s, v, seat)" if el.tag == "item"
                        else "[&]() { for (Id x : v) if (x >= 0 && !sees(s, x, seat)) return true; return false; }()")
                hides.append(f"case {k}: {{ const auto& v = {value}; return {test}; }}")
            if site["kind"] == "one":
                o = site["opt"]
                value = product_value(site, k)   # (s.opts.o[i], or a product's: kernel_products.py)
                counts.append(f"case {k}: return seat == s.player ? {product_count(site, k)} : -1;")
                pys.append(f"case {k}: return {site['py'](f's.opts.{o}[i]')};" if "product" not in site else
                           f"case {k}: {{ const auto v_ = {value}; return {site['py']('v_')}; }}")
                takes.append(f"case {k}: s.stack.back().{site['field']} = {value}; {_said(site)}"
                             "s.site = -1; s.player = -1; return true;")
                continue
            j, var = site["each"], ident("P", site["var"])
            if site.get("picks") is not None:
                takes.append(f"case {k}: {picked_code(site, var)}")
            else:
                takes.append(f"case {k}: {{ s.opts.c{j}[s.nchosen] = s.opts.e{j}[each_index(s, seat)][i]; "
                             f"s.chosen[s.nchosen++] = seat; {_UNWAIT} "
                             f"if (w_ > 0) {{ s.player = s.waiting[0]; return false; }} "
                             f"for (int q_ = 0; q_ < s.nchosen; ++q_) s.{var}[s.chosen[q_]] = s.opts.c{j}[q_]; "
                             f"{_DECIDED}")
            counts.append(f"case {k}: return waiting_for(s, seat) ? (int)s.opts.e{j}[each_index(s, seat)].size() : -1;")
            pys.append(f"case {k}: return {site['py'](f's.opts.e{j}[each_index(s, seat)][i]')};")
        return "\n".join([
            *product_functions(self.gen),
            f"static const int NSITES = {len(self.gen.sites)};",
            "static int site_count(St& s, Id seat) { switch (s.site) { " + " ".join(counts) + " } return -1; }",
            "static PyObject* site_py(St& s, int i, Id seat) { switch (s.site) { " + " ".join(pys) + " } Py_RETURN_NONE; }",
            "static bool site_take(St& s, int i, Id seat) { switch (s.site) { " + " ".join(takes) + " } bail(); }",
            # (whether option i names an item the seat may not know: written by its place)
            "static bool site_hidden(St& s, int i, Id seat) { switch (s.site) { " + " ".join(hides) + " } return false; }",
        ])


# (site_take of a simultaneous decision: the seat out of those still to choose, w_ of
# them left; then, the last seat's choice taken, the decision made)
_UNWAIT = ("int w_ = 0; for (int q_ = 0; q_ < s.nwaiting; ++q_) "
           "if (s.waiting[q_] != seat) s.waiting[w_++] = s.waiting[q_]; s.nwaiting = w_;")
_DECIDED = "s.simul = false; s.site = -1; s.player = -1; return true; }"


def _said(site: dict) -> str:
    """The code that sets the local of ``choose x, how`` to the verb of move ``i``."""
    if "said" not in site:
        return ""
    alone = site["alone"]
    alone = () if alone is None else (alone,) if isinstance(alone, str) else alone
    verb = literal(site["verb"])
    for j in reversed(range(len(alone))):
        verb = f"(i == {j} ? {literal(alone[j])} : {verb})"
    return f"s.stack.back().{site['said']} = {verb}; "


def max_picks(gen) -> int:
    """The most picks a seat makes in one simultaneous decision of the program (1
    without ``choose N v(p) ...``): how many choices the state keeps per seat."""
    return max([site.get("picks") or 1 for site in gen.sites if site["kind"] == "each"] or [1])


def picked_code(site: dict, var: str) -> str:
    """``site_take`` of a simultaneous decision of several picks (picks.picked): the
    pick leaves the seat's options; after its last pick the seat stops waiting; after
    the last seat's, each seat's picks, in order, become its list."""
    j, n = site["each"], site["picks"]
    return (f"{{ int e_ = each_index(s, seat); const auto& l_ = s.opts.e{j}[e_]; "
            f"s.opts.c{j}[s.nchosen] = l_[i]; s.chosen[s.nchosen++] = seat; "
            f"{{ Vec<std::decay_t<decltype(l_[0])>> v_; for (size_t q_ = 0; q_ < l_.size(); ++q_) "
            f"if (q_ != (size_t)i) v_.push_back(l_[q_]); s.opts.e{j}[e_] = List<std::decay_t<decltype(l_[0])>>(std::move(v_)); }} "
            f"int n_ = 0; for (int q_ = 0; q_ < s.nchosen; ++q_) n_ += s.chosen[q_] == seat; "
            f"if (n_ >= {n}) {{ {_UNWAIT} }} "
            f"if (s.nwaiting > 0) {{ s.player = s.waiting[0]; return false; }} "
            f"for (int k_ = 0; k_ < s.each_n; ++k_) {{ Id p_ = s.each_seats[k_]; "
            f"Vec<std::decay_t<decltype(s.opts.c{j}[0])>> v_; for (int q_ = 0; q_ < s.nchosen; ++q_) "
            f"if (s.chosen[q_] == p_) v_.push_back(s.opts.c{j}[q_]); "
            f"s.{var}[p_] = List<std::decay_t<decltype(s.opts.c{j}[0])>>(std::move(v_)); }} "
            f"{_DECIDED}")
