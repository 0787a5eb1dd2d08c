"""``until``'s values read only at their ends (a part of ``kernel.Gen``): where a rule
function's parameter is read only by ``size``, ``empty``, ``first`` and ``last``
(a rule's ``closes(l, s)``: ``size(l) >= 2 and occupied(last(l)) and ...``) and its
argument is ``until(x for x in xs if cond)``, or the plain call of a rule function whose
body is one (``line(c, dr, dc, s)``), the kernel passes the walk's ends, a ``WalkEnds``
(its number of elements, its first and last, ``_ends_type``), and makes no list of them:
no prefix copied, no list's count raised and dropped, which was most of a short walk's
cost. The function is compiled a second time for such arguments (``uR<k>_name``, its
k-th parameter a ``const WalkEnds<T>&``; the walk's function ``uV_name``), from the same
body: the same work and calls, counted where the plain call counts them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .cxx_text import ident
from .kernel_reads import state
from .kernel_tally import TALLY, TALLY_NAME, reads_work, untallied
from .kernel_types import BOOL, INT
from .kernel_walks import CELL_ID, RAY_STEP

ENDS = ("size", "empty", "first", "last")   # (built-ins that read a list's size and ends)
_FLAT = ("I", "Id")
RAY_ROWS_MAX = 1 << 22   # (bytes: rays kept in one flat table up to this, else by pointer)


class WalkViews:
    """``Gen``'s walks passed to functions that read their ends alone (see the module)."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        recursive: set[str]
        fns_made: set[str]
        ns: Any
        p: Any
        protos: list[str]
        fns: list[str]

        def fresh(self, base: str) -> str: ...
        def ct(self, t) -> str: ...
        def ty(self, e) -> Any: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def typeref(self, tr) -> Any: ...
        def param_type(self, p) -> Any: ...
        def arg_type(self, t) -> str: ...
        def called_plainly(self, e) -> bool: ...
        def charge(self, sc: dict, n: str | int) -> str: ...
        def tallied_call(self, sc: dict, call) -> str: ...
        def mark_order_free(self, e) -> None: ...
        def ray_walk(self, name: str) -> bool: ...
        def _ray_fn(self, e) -> str: ...
        def _ray_pres(self) -> dict[str, str]: ...
        def ray_keep_index(self, k: int) -> tuple[int, str, str]: ...
        tables: Any
        nz: int

    def reads_ends(self, f: str, param: str) -> bool:
        """Whether the rule function ``f`` reads its parameter ``param`` only as the
        argument of ``size``, ``empty``, ``first`` or ``last`` (at least once; no name
        of its body binds the same name)."""
        known = self.__dict__.setdefault("reads_ends_of", {})
        if (f, param) not in known:
            body = self.c.functions[f].body
            uses, ends, shadowed = set(), set(), False
            for n in ir.walk(body):
                if n.node == "Var" and n.name == param:
                    uses.add(id(n))
                elif n.node == "Call" and n.func in ENDS and len(n.args) == 1 and n.args[0].node == "Var" \
                        and n.args[0].name == param and self.facts.call_kind(n) == "builtin":
                    ends.add(id(n.args[0]))
                shadowed = shadowed or getattr(n, "var", None) == param
            known[f, param] = bool(uses) and uses <= ends and not shadowed
        return known[f, param]

    def walk_until(self, e):
        """The ``until`` aggregate whose value ``e`` is, where it can be passed as a walk:
        ``e`` itself, or the body of the rule function ``e`` calls plainly; else None."""
        if e.node == "Call" and self.facts.call_kind(e) == "function" and e.func not in self.recursive \
                and self.called_plainly(e):
            e = self.c.functions[e.func].body
        if e.node != "Aggregate" or e.func != "until" or len(e.comp.clauses) != 1 or e.comp.cond is None:
            return None
        t = self.ty(e.comp.clauses[0].iter)
        return e if t.tag == "list" and self.ct(t.arg) in _FLAT else None

    def walk_view_call(self, e, sc: dict) -> str | None:
        """The call ``e`` of a rule function with a walk passed for the first parameter
        it reads at its ends alone whose argument is a walk (``walk_until``); else None."""
        f = e.func
        if f in self.recursive or not self.called_plainly(e):
            return None
        fd = self.c.functions[f]
        for k, (p, a) in enumerate(zip(fd.params, e.args)):
            if self.param_type(p).tag == "list" and self.walk_until(a) is not None and self.reads_ends(f, p.name):
                args = "".join(", " + (self.walk_value(x, sc) if i == k else self.expr(x, sc, self.param_type(q)))
                               for i, (q, x) in enumerate(zip(fd.params, e.args)))
                return f"{self._reader(f, k)}({state(sc)}{args})"
        return None

    def walk_value(self, e, sc: dict) -> str:
        """The C++ of the walk ``e`` (``walk_until``): a ``WalkEnds``."""
        if e.node == "Call":
            self.mark_order_free(e)
            params = self.c.functions[e.func].params
            args = "".join(", " + self.expr(a, sc, self.param_type(p)) for p, a in zip(params, e.args))
            # (its walk's work added to the caller's tally: kernel_tally.py)
            walker, s = self._walker(e.func), state(sc)
            return self.tallied_call(sc, lambda tally: f"{walker}({s}, {tally}{args})")
        return self.until_walk(e, sc)

    def until_walk(self, e, sc: dict) -> str:
        """``until(x for x in xs if cond)`` as a ``WalkEnds`` (kernel_walks.py ``_until``'s
        walk, the same work): its number of elements and its first and last, taken
        while its list is held (a ray's kept for good: read in place)."""
        cl = e.comp.clauses[0]
        t = self.ty(cl.iter)
        el = self.ct(t.arg)
        var, xs, n, w = self.fresh(cl.var), self.fresh("xs"), self.fresh("n"), self.fresh("w")
        inner = untallied(sc)   # (the test, at each step: its work counted there)
        inner[cl.var] = (var, t.arg)
        cond = self.expr(e.comp.cond, inner, BOOL)
        ends = f"{w}.n = {n}; if ({n}) {{ {w}.f = {xs}[0]; {w}.l = {xs}[{n} - 1]; }} return {w}; }}())"
        walk = f"size_t {n} = 0; for (const {el}& {var} : {xs}) {{ ++{n}; if ({cond}) break; }} {self.charge(sc, n)}{ends}"
        head = f"([&]() MK_AI -> {self._ends_type(el)} {{ {self._ends_type(el)} {w}; "
        spans = self._ray_spans(cl.iter) if cl.iter.node == "Ray" else None
        if spans is not None:   # (a ray kept for good: its cells and their number read where kept)
            names = [self.fresh("a")] + [self.fresh("d") for _ in cl.iter.steps]
            binds = f"const Id {names[0]} = {self.expr(cl.iter.start, sc)}; " + "".join(
                f"const I {d} = nn({self.expr(a.value, sc, INT)}); "
                for d, a in zip(names[1:], cl.iter.steps))
            args = ", ".join(names)
            # (a ray's elements are cells, never none: each told so, and its last, which
            # spares the tests of each use, kernel_walks.CELL_ID)
            last = f"{w}.l = {xs}[{n} - 1]; {CELL_ID.format(f'{w}.l')}"
            # (the walk written once, run on the kept ray's cells, or on the ray made
            # where it is not kept, a list held in that branch alone: none on the stack
            # of the walk along a kept ray, made and dropped at each walk)
            # (its first cell apart, its test written twice: a walk that stops at its
            # first cell, most walks of a legal, is seen to hold one, and what the caller
            # reads of it, closes's size(l) >= 2, is known where it stops; a ray of no
            # cell told by its number, read from its row, not by its end's address)
            step = f"const Id& {var} = *q_; {CELL_ID.format(var)}++{n}; if ({cond}) break; "
            on = self.fresh("on")
            return (f"{head}{binds}auto {on} = [&](const Id* {xs}, size_t {xs}_n) MK_AI {{ "
                    f"size_t {n} = 0; do {{ const Id* q_ = {xs}; const Id* const e_ = {xs} + {xs}_n; "
                    f"if (!{xs}_n) break; {{ {step}}} for (++q_; q_ != e_; ++q_) {{ {step}}} }} while (0); "
                    f"{self.charge(sc, n)}{w}.n = {n}; if ({n}) {{ {w}.f = {xs}[0]; {last}}} }}; "
                    f"const Id* {xs}; size_t {xs}_n; if ({spans}_span({args}, {xs}, {xs}_n)) {on}({xs}, {xs}_n); "
                    f"else {{ const List<Id> {xs}_own = {spans}({args}); {on}({xs}_own.begin(), {xs}_own.size()); }} "
                    f"return {w}; }}())")
        return f"{head}const {self.ct(t)} {xs} = {self.expr(cl.iter, sc, t)}; {walk}"

    def ray_span(self, ray, sc: dict) -> tuple[str, str, str] | None:
        """A loop's list that is the kept ray ``ray``, read from where its cells are kept
        (``_ray_spans``: a flat row, else a ``RaySpan``), no list's handle followed: the
        C++ that binds its start and steps once, then a pointer to its cells and their
        number (a ray not kept, its steps past RAY_STEP, made into a list of the loop's
        own, as ``fn_ref`` made it), and the names of the pointer and of the number; None
        where its rays are never kept. The loop then walks the same cells, its work
        counted as before."""
        spans = self._ray_spans(ray) if ray.node == "Ray" else None
        if spans is None:
            return None
        names = [self.fresh("a")] + [self.fresh("d") for _ in ray.steps]
        binds = f"const Id {names[0]} = {self.expr(ray.start, sc)}; " + "".join(
            f"const I {d} = nn({self.expr(a.value, sc, INT)}); " for d, a in zip(names[1:], ray.steps))
        args = ", ".join(names)
        xs, own = self.fresh("xs"), self.fresh("own")
        return (f"{binds}List<Id> {own}; const Id* {xs}; size_t {xs}_n; if (!{spans}_span({args}, {xs}, {xs}_n)) "
                f"{{ {own} = {spans}({args}); {xs} = {own}.begin(); {xs}_n = {own}.size(); }} ", xs, f"{xs}_n")

    @staticmethod
    def span_loop(span: tuple[str, str, str], var: str, inside: str) -> str:
        """The loop over a ray's cells read in place (``ray_span``): each a cell, never
        none (kernel_walks.CELL_ID), bound to ``var`` around ``inside``."""
        _, xs, n = span
        q = xs + "_q"
        return (f"for (const Id* {q} = {xs}, * const {q}e = {xs} + {n}; {q} != {q}e; ++{q}) "
                f"{{ const Id& {var} = *{q}; {CELL_ID.format(var)}{inside} }}")

    def _ends_type(self, el: str) -> str:
        """``WalkEnds<el>``: a walk's number of elements and its first and last, all a
        function that reads its ends alone reads of it (``lfirst``, ``llast``, ``size``,
        ``empty``), held in registers; written into the kernel once."""
        if not self.__dict__.get("walk_ends"):
            self.__dict__["walk_ends"] = True
            self.tables.statics.append(
                "template <class T> struct WalkEnds { T f{}; T l{}; size_t n = 0; "
                "size_t size() const { if (n >> 40) __builtin_unreachable(); return n; } "
                "bool empty() const { return n == 0; } }; "
                "template <class T> static inline T lfirst(const WalkEnds<T>& w) { return w.n == 0 ? none_of<T>() : w.f; } "
                "template <class T> static inline T llast(const WalkEnds<T>& w) { return w.n == 0 ? none_of<T>() : w.l; }")
        return f"WalkEnds<{el}>"

    def _ray_spans(self, ray) -> str | None:
        """The C++ function of ``ray``'s rays (kernel_walks.py ``_ray_fn``) where they
        are kept for good, with ``fn_span(a, d0..., d_, n_)`` beside it, written once:
        the kept ray's cells and their number, read from one table (a ``RaySpan`` per
        ray, made the first time; none where the cell is none, as ``fn_`` gives), false
        where the ray is not kept (its steps past RAY_STEP: a walk in line whose steps
        are numbers the C++ compiler folds then never holds a list); else None."""
        fn = self._ray_fn(ray)
        if fn not in self._ray_pres():
            return None
        made = self.__dict__.setdefault("ray_spans", set())
        if fn not in made:
            made.add(fn)
            k = len(ray.steps)
            size, inside, index = self.ray_keep_index(k)
            params = "".join(f", I d{i}" for i in range(k))
            args = "".join(f", d{i}" for i in range(k))
            most = self._ray_most(ray)
            if most is not None and size * (most + 1) * 4 <= RAY_ROWS_MAX:
                cells = self.p.boards.get(self.ty(ray.start).arg, [])
                self.tables.statics.append(self._ray_rows(fn, (size, k), cells, params, args, most))
                return fn
            self.tables.statics.append(
                f"static RaySpan* const {fn}_spans = new RaySpan[{size}](); "
                f"__attribute__((noinline)) static RaySpan {fn}_span_new(Id a{params}, size_t k_) {{ "
                f"const List<Id> r_ = {fn}(a{args}); RaySpan& e_ = {fn}_spans[k_]; e_.n1 = (uint32_t)r_.size() + 1; "
                f"if (r_.size() <= List<Id>::HANDLE) {{ std::copy(r_.begin(), r_.end(), e_.at); e_.d = e_.at; }} "
                f"else e_.d = r_.begin(); return e_; }} "
                f"static inline MK_AI bool {fn}_span(Id a{params}, const Id*& d_, size_t& n_) {{ "
                f"if (a < 0 || a >= {self.nz}) {{ d_ = nullptr; n_ = 0; return true; }} if (!({inside})) return false; "
                f"size_t k_ = {index}; RaySpan r_ = {fn}_spans[k_]; "
                f"if (!r_.n1) r_ = {fn}_span_new(a{args}, k_); d_ = r_.d; n_ = r_.n1 - 1; return true; }}")
        return fn

    def _ray_most(self, ray) -> int | None:
        """The most cells a ray of ``ray``'s board along its coordinates can have: the
        widest span of one coordinate over the board's cells (each step moves a
        coordinate whose step is not 0 by 1 or more, and every cell of the ray is a
        cell of the board); None where a coordinate is not a whole number."""
        board = self.ty(ray.start).arg
        keys = [a.name for a in ray.steps]
        most = 0
        for k in keys:
            vals: list[Any] = [self.ns[f"C_{k}"][z] for z in self.p.boards.get(board, [])] if k != "name" else [None]
            if any(type(v) is not int for v in vals):
                return None
            nums: list[int] = vals
            most = max(most, max(nums, default=0) - min(nums, default=0))
        return max(most, 1)

    def _ray_rows(self, fn: str, size_k: tuple[int, int], cells: list[int], params: str, args: str,
                  most: int) -> str:
        """``fn_span`` reading the kept rays from one flat table (``_ray_spans``): a row
        of ``most`` + 1 ids per ray, its number of cells then its cells, the row's place
        known from the cell and steps alone, no pointer followed to reach the cells. The
        rows of the board's ``cells`` (their rays never longer than ``most``, which
        ``_ray_most`` makes sure of) are all made when the module loads (``fn_fill``, in
        the tables' inits): none tested at a walk, the number read as it is. From a zone
        not of the board (``fn_kept``, a constant the C++ compiler tests once for the
        walks from one cell), which a cell's type rules out, the kernel bails: the rules
        run in Python. Steps past RAY_STEP are not kept (``fn_span`` false)."""
        w = most + 1
        size, k = size_k
        # (ray_keep_index's index, the cell's part apart: the steps' part, numbers the
        # callers give, folds into a constant, and the cell's rays are found once for
        # all the walks from one cell, not again for each: a legal's eight)
        # (fn_span always in line, so that it folds: GCC left it a call in a rule's
        # places, its index computed at each of the eight walks of each cell)
        index = f"(size_t)a * {size // self.nz} + (size_t)(" + " + ".join(
            f"(d{i} + {RAY_STEP}) * {(2 * RAY_STEP + 1) ** (k - 1 - i)}" for i in range(k)) + ")"
        inside = " && ".join(f"d{i} >= -{RAY_STEP} && d{i} <= {RAY_STEP}" for i in range(k))
        on = set(cells)
        kept = ", ".join("true" if z in on else "false" for z in range(self.nz))
        loops = "".join(f"for (I d{i} = -{RAY_STEP}; d{i} <= {RAY_STEP}; ++d{i}) " for i in range(k))
        self.tables.inits.append(f"{fn}_fill();")
        self.__dict__.setdefault("ray_rows_shape", {})[fn] = (size, w, index, inside, params, cells)
        return (f"alignas(64) static Id {fn}_rows[{size * w}]; "
                f"static const bool {fn}_kept[{max(self.nz, 1)}] = {{{kept}}}; "
                f"static void {fn}_fill() {{ for (Id a = 0; a < {self.nz}; ++a) {{ if (!{fn}_kept[a]) continue; "
                f"{loops}{{ const List<Id> r_ = {fn}_(a{args}); if (r_.size() > {most}) bail(); "
                f"Id* row_ = {fn}_rows + ({index}) * {w}; row_[0] = (Id)r_.size(); "
                f"std::copy(r_.begin(), r_.end(), row_ + 1); }} }} }} "
                f"static inline MK_AI bool {fn}_span(Id a{params}, const Id*& d_, size_t& n_) {{ "
                f"if (a < 0 || a >= {self.nz}) {{ d_ = nullptr; n_ = 0; return true; }} "
                f"if (!({inside})) return false; if (!{fn}_kept[a]) bail(); "
                f"const Id* row_ = {fn}_rows + ({index}) * {w}; d_ = row_ + 1; n_ = (size_t)(uint32_t)row_[0]; "
                f"if (n_ > {most}) __builtin_unreachable(); return true; }}")

    def ray_bits(self, ray, lo: int) -> str | None:
        """``fn_bits_at(a, d0...)`` of ``ray``'s rays where they are kept in flat rows
        (``_ray_rows``), written once: per kept ray its cells as bits (cell ``lo + k``:
        bit k, the occupancy index's), their number and their order, made from the rows
        when the module loads: 1 where the cells' numbers go up along the ray, 0 where
        they go down, 2 where neither (or a cell outside the word): a reader walks that
        ray. A ray of one cell or none goes both ways: it is given its direction's way,
        that of the first ray of two cells or more along the same steps (the rays are
        kept by zone, then steps), so that a reader's branch on it goes one way for
        each steps (near the board's edges it went the other way: about two branches
        mispredicted a move in a game of lines of four). nullptr for a ray from a zone that is not one of the board's cells (none
        among them) or with steps past RAY_STEP: the reader walks it as before. None
        where the rays are not kept in rows."""
        fn = self._ray_spans(ray) if ray.node == "Ray" else None
        shape = self.__dict__.get("ray_rows_shape", {}).get(fn) if fn is not None else None
        if fn is None or shape is None:
            return None
        made = self.__dict__.setdefault("ray_bits_made", set())
        if fn not in made:
            made.add(fn)
            size, w, index, inside, params, cells = shape
            if len(made) == 1:
                self.tables.statics.append("struct RayBits { uint64_t m; uint32_t n, up; };")
            self.tables.inits.append(f"{fn}_bits_fill();")   # (after {fn}_fill: its rows first)
            self.tables.statics.append(
                f"static RayBits {fn}_bits[{size}]; static void {fn}_bits_fill() {{ "
                f"for (size_t k_ = 0; k_ < {size}; ++k_) {{ const Id* row_ = {fn}_rows + k_ * {w}; "
                f"const uint32_t n_ = (uint32_t)row_[0]; uint64_t m_ = 0; bool up_ = true, down_ = true; "
                f"for (uint32_t i_ = 0; i_ < n_; ++i_) {{ const uint64_t b_ = (uint64_t)(uint32_t)(row_[1 + i_] - {lo}); "
                f"if (b_ >= 64) {{ up_ = down_ = false; break; }} m_ |= 1ULL << b_; "
                f"if (i_) {{ up_ = up_ && row_[1 + i_] > row_[i_]; down_ = down_ && row_[1 + i_] < row_[i_]; }} }} "
                f"{fn}_bits[k_] = RayBits{{m_, n_, up_ ? 1u : down_ ? 0u : 2u}}; }} "
                f"for (size_t d_ = 0; d_ < {size // max(self.nz, 1)}; ++d_) {{ uint32_t up_ = 1; "
                f"for (size_t a_ = 0; a_ < {self.nz}; ++a_) {{ const RayBits& r_ = {fn}_bits[a_ * {size // max(self.nz, 1)} + d_]; "
                f"if (r_.n >= 2 && r_.up < 2) {{ up_ = r_.up; break; }} }} "
                f"for (size_t a_ = 0; a_ < {self.nz}; ++a_) {{ RayBits& r_ = {fn}_bits[a_ * {size // max(self.nz, 1)} + d_]; "
                f"if (r_.n < 2 && r_.up < 2) r_.up = up_; }} }} }} "
                f"static inline MK_AI const RayBits* {fn}_bits_at(Id a{params}) {{ "
                f"if ({_board_cell(fn, cells, self.nz)} && {inside}) return &{fn}_bits[{index}]; return nullptr; }}")
        return f"{fn}_bits_at"

    def _walker(self, name: str) -> str:
        """``uV_name``: the rule function ``name`` (its body an ``until``) giving a ``WalkEnds``."""
        made = ident("V", name)
        if made not in self.fns_made:
            self.fns_made.add(made)
            fd = self.c.functions[name]
            params = [(p.name, self.param_type(p)) for p in fd.params]
            el = self.ct(self.typeref(fd.result).arg)
            hint = "inline MK_AI " if self.ray_walk(name) else "inline "
            # (its walk's work added to the tally it is given, its caller's: kernel_tally.py)
            sig = f"static {hint}{self._ends_type(el)} {made}(St& s, I& {TALLY_NAME}" + "".join(
                f", {self.arg_type(t)} {ident('A', n)}" for n, t in params) + ")"
            self.protos.append(sig + ";")
            sc = {n: (ident("A", n), t) for n, t in params}
            body = self.until_walk(fd.body, {**sc, TALLY: (TALLY_NAME, [0])})
            if reads_work(body):   # (a count made again measures the work: none tallied)
                body = self.until_walk(fd.body, sc)
            self.fns.append(f"{sig} {{ return {body}; }}")
        return made

    def _reader(self, name: str, k: int) -> str:
        """``uR<k>_name``: the rule function ``name`` taking its k-th parameter as a ``WalkEnds``."""
        made = ident(f"R{k}", name)
        if made not in self.fns_made:
            self.fns_made.add(made)
            fd = self.c.functions[name]
            params = [(p.name, self.param_type(p)) for p in fd.params]
            rt = self.typeref(fd.result)
            # (one that loops over nothing, closes's few tests, always put in line: left
            # to the C++ compiler's budget, a caller grown larger calls it instead)
            hint = "inline MK_AI " if not self.facts.loops(name, ray=True) else ""
            sig = f"static {hint}{self.ct(rt)} {made}(St& s" + "".join(
                f", {f'const {self._ends_type(self.ct(t.arg))}&' if i == k else self.arg_type(t)} {ident('A', n)}"
                for i, (n, t) in enumerate(params)) + ")"
            self.protos.append(sig + ";")
            sc = {n: (ident("A", n), t) for n, t in params}
            self.fns.append(f"{sig} {{ return {self.expr(fd.body, sc, rt)}; }}")
        return made


def _board_cell(fn: str, cells: list[int], nz: int) -> str:
    """The C++ test that the zone ``a`` is one of ``cells``, a board's, whose rays ``fn``
    keeps: a range where they are consecutive, else the kept rays' table."""
    if cells and cells == list(range(cells[0], cells[0] + len(cells))):
        return f"(uint32_t)(a - {cells[0]}) < {len(cells)}u"
    return f"(a >= 0 && a < {nz} && {fn}_kept[a])"
