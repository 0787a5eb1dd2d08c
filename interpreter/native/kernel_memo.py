"""The kernel's values of rule functions kept while the state stays the same (a part of
``kernel.Gen``, its methods on the generator's state): which calls read a keep, and the
C++ of the keeps. What may be kept, and where it is worth it, are the shared passes
``core/memo.py`` and ``core/hoist.py`` (a call that reads no loop around it); this writes
it as C++.

Every keep is a static table of the module, no part of any state (never copied, saved
or compared), each entry marked with the ``EPOCH`` it was made in: every step, move and
evaluation from outside renews the epoch (kernel_module.py, cxx/kernel_driver.hpp), and
the state changes only in steps, so an entry of the epoch running is a value for the
state as it is. An entry holds the work and the calls its evaluation counted, counted
again when it is read (as the reference, which evaluates the call again, counts them):
the budgets run out at the same moves.

- ``uK_name``: the function's values by its arguments (numbers, ids, lists by their
  buffer: an entry holds its list, so no other list has that buffer meanwhile);
- ``uC_name``: a function that finds a component (``Facts.component``), where the order
  of its cells does not matter: one walk's list kept for every cell of it;
- ``uP_name``: a function whose value is such a function's (a ``group`` of cells), its body
  compiled where the order does not matter."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from .cxx_text import ident
from .kernel_components import TOUCHED, ComponentChecks
from .kernel_early import total_over_cell
from .kernel_elementwise import _SCALARS, ElementwiseKeeps
from .kernel_in_place import InPlaceReads
from .kernel_lasting import LastingKeeps, args_params
from .kernel_reads import called, carried, counters, state
from .kernel_types import has_none

_WRAPPERS = 8   # functions whose value is another's, looked through at most
# what an entry of a keep that outlasts a step holds besides (kernel_lasting.py): the
# zones its evaluation read with their stamps; whether it has them
LASTING_FIELDS = "List<uint64_t> deps; bool last = false; "


# whether values of functions that may call themselves and read nothing of the state are
# kept (off: computed at every call, as before: benchmarks/bench_kept_values.py --kernel)
KEEP_DEEP = True
# the nodes that have a value (whose type the kernel may be asked)
_VALUES = frozenset(ir.EXPRESSIONS)


def _plain(t) -> bool:
    """Whether a parameter's values are numbers, bools or ids, or lists of them."""
    if t.tag == "list":
        return t.arg is not None and t.arg.tag in _SCALARS
    return t.tag in _SCALARS


def _hashed(a: str, listed: bool) -> str:
    """The C++ of a hash of the argument ``a`` (a list: of its elements)."""
    if not listed:
        return f"(uint64_t){a}"
    return (f"[&] {{ uint64_t h_ = 1469598103934665603ULL; for (auto x_ : {a}) "
            f"h_ = (h_ ^ (uint64_t)x_) * 1099511628211ULL; return h_; }}()")


def _slow_sig(sig: str) -> str:
    """The signature ``sig`` of a keep's function renamed for its part out of line (the
    part read in the caller: ``_inline``)."""
    head, rest = sig.split("(", 1)
    return f"__attribute__((noinline)) {head}_slow({rest}"


def _slow(sig: str, args: str) -> str:
    """The call of the part out of line of the keep's function of ``sig``."""
    name = sig.split("(", 1)[0].split()[-1]
    return f"{name}_slow(s{args})"


def _inline(sig: str) -> str:
    """The signature ``sig`` of a keep's function as the definition read in its callers."""
    return sig.replace("static ", "static inline MK_AI ", 1)


def _by_keys(keys: list) -> tuple[str, str, str]:
    """The C++ of a keep's entry by its arguments (``kept_call``'s ``keys``): the hash
    that picks the entry, the test that it holds these arguments (`` && ...`` each) and
    the statements that store them."""
    h = " ^ ".join(f"({k[3]} * {0x9E3779B97F4A7C15 >> i}ULL)" for i, k in enumerate(keys)) or "0"
    return h, "".join(" && " + k[4] for k in keys), " ".join(f"{k[1]} = {k[2]};" for k in keys)


class MemoCalls(LastingKeeps, ElementwiseKeeps, ComponentChecks, InPlaceReads):
    """``Gen``'s methods for calls that read a keep (some outlast a step:
    kernel_lasting.py; lists made one element per cell: kernel_elementwise.py)."""

    if TYPE_CHECKING:
        c: Any
        b: Any
        facts: Any
        tables: Any
        protos: list[str]
        fns: list[str]
        keepable: dict[str, bool]
        kept_made: set[str | tuple[str, str]]
        recursive: set[str]
        kept_anywhere: frozenset[str]
        called_again: frozenset[str]

        def function(self, name: str, any_order: bool = False) -> str: ...

        def ray_walk(self, name: str) -> bool: ...
        def ray_fold(self, name: str) -> bool: ...

        def walk_view_call(self, e, sc: dict) -> str | None: ...

        def ct(self, t) -> str: ...

        def arg_type(self, t) -> str: ...

        def param_type(self, p) -> Any: ...

        def typeref(self, tr) -> Any: ...

        def expr(self, e, sc: dict, want=None) -> str: ...

        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    # (the nodes whose value, a list, may be computed in any order, by id: its order
    # does not matter where it is used, see core/orderfree.py; the node held, so that
    # its id is no other's meanwhile)
    any_order: dict[int, Any]

    def mark_order_free(self, e) -> None:
        """Marks the arguments of the call ``e`` whose order does not matter for its
        value (itself used in any order or not: core/facts.py, ``order_free_arg``),
        before they are compiled."""
        perm = id(e) in self.any_order
        for i, a in enumerate(e.args):
            # (set again at each compilation: a function's body is compiled both ways)
            if self.facts.order_free_arg(e, i, perm):
                self.any_order[id(a)] = a
            else:
                self.any_order.pop(id(a), None)

    def function_call(self, e, sc: dict) -> str:
        """A call of a rule function: its value read from a keep where one serves."""
        f = e.func
        fd = self.c.functions[f]
        self.mark_order_free(e)
        view = self.walk_view_call(e, sc)   # (a walk passed whole: kernel_walk_views.py)
        if view is not None:
            return view
        given = tuple(self.expr(a, sc, self.param_type(p)) for p, a in zip(fd.params, e.args))
        args = "".join(", " + a for a in given)
        if self.pure_recursive(f):   # (its values kept by its arguments for good)
            return f"{self.deep_call(f)}({state(sc)}{args})"
        if id(e) in self.any_order and self.kept(f):
            if self.facts.component(f) is not None:
                return self.in_place_call(e, self.component_call(f), state(sc), args, given)
            if self.finds_component(f):
                return self.in_place_call(e, self.function(f, any_order=True), state(sc), args, given)
        if self.kept_here(e):
            # (a function called over and over while the state stays the same, or in a
            # loop with the same arguments at every turn, core/hoist.py: computed once
            # per state, kernel_epoch.py, and kept at its other calls too)
            return self.in_place_call(e, self.kept_call(f), state(sc), args, given)
        called(sc, f, given)   # (what it reads: its own, kernel_reads.py)
        return f"{self.function(f)}(s{args})"

    def kept_here(self, e) -> bool:
        """Whether the call ``e`` of a rule function reads its value from a keep."""
        f = e.func
        return self.kept(f) and (self.facts.memoised(f) or self.facts.invariant(e) or f in self.kept_anywhere
                                 or f in self.called_again)

    def called_plainly(self, e) -> bool:
        """Whether ``function_call`` compiles the call ``e`` as a plain call of the
        function (no keep of its values, no component, no count of its calls, not
        recursive): its body may then be compiled in its place (``fused_loop``)."""
        f = e.func
        if id(e) in self.any_order and self.kept(f) and (self.facts.component(f) is not None
                                                         or self.finds_component(f)):
            return False
        return not (f in self.recursive or f in self.counting or self.pure_recursive(f) or self.kept_here(e))

    def fused_loop(self, it, sc: dict, var_el_t: tuple, inside) -> str | None:
        """A loop of a whole comprehension (``loops``: it runs to its end) over the call
        of a rule function whose body is a comprehension of two loops or more
        (``for t in near(c, s)``), compiled as a plain call
        (``called_plainly``): that comprehension's loops in its place, each element it
        would list bound to the loop's variable (``var_el_t``: the variable, the C++ type
        of the elements, the list's type; ``inside()``: the loops within), where a list
        of them was made and dropped at each turn. The same work: the function's own,
        then the elements walked, counted after its loops (nothing between changes the
        state: a budget passed anywhere is passed at the end). Else None."""
        if it.node != "Call" or self.facts.call_kind(it) != "function":
            return None
        fd = self.c.functions[it.func]
        body = fd.body
        if body.node != "Comprehension" or len(body.clauses) < 2 or not self.called_plainly(it):
            return None
        var, el, t = var_el_t
        n = self.fresh("n")
        binds, scope = self._bound_params(fd, it.args, sc)
        work = "" if self.facts.counted(it) else f"W({counters(sc)}, {n}); "
        # (numbers and ids too: where they were pushed on the stack and then walked,
        # a ruleset's batch of games took 1.12 times the CPU time of these loops run in place)
        loops = self.loops(body, scope, lambda inner: (f"const {el} {var} = {self.expr(body.elem, inner, t.arg)}; "
                                                       f"++{n}; {{ {inside()} }}"), whole=True)
        return f"{{ {binds}I {n} = 0; {loops} {work}}}"

    def empty_of_filter(self, e, sc: dict) -> str | None:
        """``empty(f(...))`` where f's body is ``[c for c in cells(b) if cond]``, called
        plainly, and cond cannot fail (``kernel_early.total_over_cell``): the cells walked up to the first that
        cond lets through, where the whole list was made to be tested. The same work: the
        cells are counted before the walk, as the list's loop counts them. Else None."""
        arg = e.args[0] if len(e.args) == 1 else None
        if arg is None or arg.node != "Call" or self.facts.call_kind(arg) != "function":
            return None
        fd = self.c.functions[arg.func]
        body = fd.body
        if body.node != "Comprehension" or len(body.clauses) != 1 or body.cond is None \
                or not self.called_plainly(arg):
            return None
        var = body.clauses[0].var
        table = self.facts.table_list(body.clauses[0].iter)
        if body.elem.node != "Var" or body.elem.name != var or table is None or table[0] != "cells" \
                or not total_over_cell(self, body.cond, var):
            return None
        binds, scope = self._bound_params(fd, arg.args, sc)
        loops = self.loops(body, scope, lambda inner: "return false;")
        return f"([&]() -> bool {{ {binds}{loops} return true; }}())"

    def _bound_params(self, fd, args: list, sc: dict) -> tuple[str, dict]:
        """A function's body compiled in the place of its call (``fused_loop``,
        ``empty_of_filter``): the C++ that binds each parameter to its argument, once,
        and the scope of the body (each parameter by its name)."""
        binds, scope = [], carried(sc)   # (written in place: what it reads is the call's)
        for p, a in zip(fd.params, args):
            pt = self.param_type(p)
            name = self.fresh(p.name)
            binds.append(f"const {self.ct(pt)} {name} = {self.expr(a, sc, pt)}; ")
            scope[p.name] = (name, pt)
        return "".join(binds), scope

    def pure_recursive(self, name: str) -> bool:
        """Whether ``name`` may call itself, takes numbers, bools, ids or lists of them, and
        its evaluation reads nothing of the state (core/pure.py, ``Facts.reads_nothing``)
        nor makes a text (the kernel keeps no texts): its values are then those of its
        arguments, whatever the state, kept for good (``deep_call``)."""
        known = self.__dict__.setdefault("pure_made", {})
        if name not in known:
            reach = self.facts.reach(name)
            known[name] = KEEP_DEEP and name in self.recursive and self.facts.reads_nothing(name) and all(
                _plain(self.param_type(p)) for g in reach for p in self.c.functions[g].params) \
                and not any(self.ty(n).tag == "str" for g in reach for n in ir.walk(self.c.functions[g].body)
                            if n.node in _VALUES)
        return known[name]

    def deep_call(self, name: str) -> str:
        """``uD_name``: a function that may call itself and reads nothing of the state
        (``pure_recursive``), its values kept by its arguments (lists by their elements)
        for good (a table of 4,096
        entries, a later value in the place of an earlier one), each with the work, the
        calls and the deepest nesting of calls (``s.peak``) its evaluation counted,
        counted again where it is read (past a budget: Python plays the move)."""
        key = ("DEEP", name)
        if key in self.kept_made:
            return ident("D", name)
        self.kept_made.add(key)
        fn = self.function(name)
        sig, rt, params, args = self._keep(name, "D")
        keys = [(f"{self.ct(t)} {ident('Q', n)};", f"e.{ident('Q', n)}", ident("A", n), t.tag == "list")
                for n, t in params]
        # (a list by its elements: lists are values, never changed in place)
        h = " ^ ".join(f"({_hashed(k[2], k[3])} * {0x9E3779B97F4A7C15 >> i}ULL)" for i, k in enumerate(keys)) or "0"
        same = "".join(f" && {k[1]}.size() == {k[2]}.size() && std::equal({k[2]}.begin(), {k[2]}.end(), {k[1]}.begin())"
                       if k[3] else f" && {k[1]} == {k[2]}" for k in keys)
        store = " ".join(f"{k[1]} = {k[2]};" for k in keys)
        entry = f"struct {{ bool used = false; {' '.join(k[0] for k in keys)} {rt} v; I work; I calls; I deep; }}"
        table = self.tables.table(key, lambda t: f"static {entry} {t}[4096];")
        limit = min(self.b.depth, 1000)
        self.fns.append(
            f"{sig} {{ auto& e = {table}[(({h}) >> 13) & 4095]; "
            f"if (e.used{same}) {{ ++KEPT_READS; if (s.depth + e.deep > {limit}) bail(); W(s, e.work); "
            f"s.calls += e.calls; if (s.calls > {self.b.calls}) bail(); "
            f"if (s.depth + e.deep > s.peak) s.peak = s.depth + e.deep; return e.v; }} "
            f"I w0_ = s.work, c0_ = s.calls, d0_ = s.depth, p0_ = s.peak; s.peak = d0_; "
            f"{rt} v_ = {fn}(s{args}); I p1_ = s.peak; if (p0_ > p1_) s.peak = p0_; "
            f"e.used = true; {store} e.v = v_; e.work = w0_ - s.work; e.calls = s.calls - c0_; "
            f"e.deep = p1_ - d0_; return v_; }}")
        return ident("D", name)

    def finds_component(self, name: str, depth: int = 0) -> bool:
        """Whether the value of the function ``name`` is that of a function that finds a
        component (its body a call of one, or of such a function)."""
        body = self.c.functions[name].body
        if depth >= _WRAPPERS or body.node != "Call" or body.func not in self.c.functions \
                or self.facts.call_kind(body) != "function" or not self.kept(body.func):
            return False
        return self.facts.component(body.func) is not None or self.finds_component(body.func, depth + 1)

    def kept(self, name: str) -> bool:
        """Whether a function's values may be kept (core/memo.py, ``keepable``), given
        numbers, ids or lists (by identity)."""
        if name in self.keepable:
            return self.keepable[name]
        fd = self.c.functions[name]
        params = [self.param_type(p) for p in fd.params]
        # (a walk along a kept ray costs about what a look-up does: kernel_walks.py)
        ok = not self.ray_walk(name) and not self.ray_fold(name) and not any(t.tag in ("str", "bool") or (t.tag == "list" and has_none(t)) for t in params)
        self.keepable[name] = ok and self.facts.keepable(name)
        return self.keepable[name]

    def _keep(self, name: str, prefix: str) -> tuple[str, str, list, str]:
        """The signature of a keep's function, its result's C++ type, the parameters
        (name, type) and the arguments passed on."""
        fd = self.c.functions[name]
        rt = self.typeref(fd.result)
        params = [(p.name, self.param_type(p)) for p in fd.params]
        sig = f"static {self.ct(rt)} {ident(prefix, name)}(St& s" + "".join(
            f", {self.arg_type(t)} {ident('A', n)}" for n, t in params) + ")"
        args = "".join(f", {ident('A', n)}" for n, _ in params)
        self.protos.append(sig + ";")
        return sig, self.ct(rt), params, args

    def _hit(self, counted: str = "") -> str:
        """The C++ block that returns the value of the keep's entry ``e``, counting again
        the work and the calls its evaluation counted (``counted``: C++ run first)."""
        return f"{{ {self._charged(counted)}return e.v; }}"

    def _charged(self, counted: str = "") -> str:
        """The C++ that reads the keep's entry ``e`` (``_hit``): counts the read, then
        the work and the calls its evaluation counted (``counted``: C++ run first)."""
        return f"++KEPT_READS; {counted}W(s, e.work); s.calls += e.calls; if (s.calls > {self.b.calls}) bail(); "

    def _read(self, same: str, lasting: str = "", noted: bool = True, recheck: str = "", counted: str = "") -> str:
        """The C++ that returns the value of the keep's entry ``e`` where it is of the
        running epoch and ``same`` (its arguments') holds, counting again the work and the
        calls its evaluation counted. ``lasting``: the C++ that marks a lasting entry
        found fresh (kernel_lasting.py) with the running epoch, where it may be read
        too; "" where the keep lasts a step. ``noted``: whether its entries hold the
        zones read (else an entry serves its arguments for good). ``recheck``: the C++
        test of a lasting entry in place of ``fresh`` (its stamps, else a component's
        membership: kernel_components.py). ``counted``: C++ run at each read found."""
        hit = self._hit(counted)
        read = f"if (e.epoch == EPOCH{same}) {hit}"
        if lasting:
            test = f" && {recheck}" if recheck else " && fresh(s, e.deps)" if noted else ""
            read += f" if (e.last{same}{test}) {{ {lasting} {hit} }}"
        return read

    def kept_call(self, name: str) -> str:
        """``uK_name``: ``uF_name`` with its values kept while the state stays the same
        (a table by the arguments, of 256 entries; an entry of another epoch or other
        arguments is made again)."""
        if name in self.kept_made:
            return ident("K", name)
        self.kept_made.add(name)
        fn = self.function(name)
        sig, rt, params, args = self._keep(name, "K")
        keys = []
        for n, t in params:
            a = ident("A", n)
            keys.append((f"{self.ct(t)} {ident('Q', n)};", f"e.{ident('Q', n)}", a,
                         f"{a}.ident()" if t.tag == "list" else f"(uint64_t){a}",
                         f"e.{ident('Q', n)}.same({a})" if t.tag == "list" else f"e.{ident('Q', n)} == {a}"))
        h, same, store = _by_keys(keys)
        # (kept for the body that calls it again alone: the next call, in the same
        # step, reads the entry; one that outlasts a step would note every zone read)
        again = name in self.called_again and not self.facts.memoised(name) and name not in self.kept_anywhere
        rec = None if again else self.lasting(name)   # (kernel_lasting.py)
        # (a list of cells filtered, its cells whose zones changed taken out: kernel_components.py)
        check = self.filter_recheck(name) if rec and self.notes(name) else None
        recheck = f"{check}(s, e.v, e.deps{args})" if check else ""
        hopped = self._kept_hop(name, sig, rec, rt, args, keys, recheck)
        if hopped:
            self.fns.append(hopped)
            return ident("K", name)
        entry = (f"struct {{ uint64_t epoch = 0; {' '.join(k[0] for k in keys)} {rt} v; I work; I calls; "
                 f"{LASTING_FIELDS if rec else ''}}}")
        table = self.tables.table(("KEPT", name), lambda t: f"static {entry} {t}[{256 if keys else 1}];")
        bypass, counted, tally = self._bypass(name, fn, args) if keys and not rec else ("", "", "")
        if bypass:   # (the keep's own body apart, the test of the pass-by in line at each call)
            self.protos[-1] = f"static inline MK_AI {sig[len('static '):]};"
            self.fns.append(f"{sig.replace(ident('K', name), ident('KB', name), 1)};")
            self.fns.append(f"{sig} {{ {bypass}return {ident('KB', name)}(s{args}); }}")
            sig = sig.replace(ident("K", name), ident("KB", name), 1)
            sig = f"__attribute__((noinline)) {sig}"
        self.fns.append(
            f"{sig} {{ auto& e = {table}[{f'(({h}) >> 13) & 255' if keys else '0'}]; "
            f"{self._read(same, 'e.epoch = EPOCH;' if rec else '', self.notes(name), recheck, counted)} {tally}"
            f"I w0_ = s.work, c0_ = s.calls; "
            f"{rt} v_ = {rec or fn}(s{args}); "
            f"e.epoch = EPOCH; {store} e.v = v_; e.work = w0_ - s.work; e.calls = s.calls - c0_; "
            f"{('deps_into(e.deps); ' if self.notes(name) else '') + 'e.last = true; ' if rec else ''}return v_; }}")
        return ident("K", name)

    def _kept_hop(self, name: str, sig: str, rec: str | None, rt: str, args: str, keys: list,
                  recheck: str) -> str | None:
        """The body of ``uK_name`` for a list of the cells one step of a relation from the
        cells of a parameter, filtered (``filter_hop``, kernel_components.py): as
        ``kept_call``'s, each entry clean while no zone it read has changed, for the
        lineage of the state it was made or checked in (as ``_walks``'s): each cell of
        the parameter points at the entry (``CELL``), a change of a zone makes unclean
        the entries the cells related to it point at, a cell pointed elsewhere its
        entry; a clean entry is read with nothing checked, another rechecked (its
        filled cells taken out) and pointed at again, else made again. The entry is the
        one of the list's first cell (a table of ``NZ`` entries, then 256 by the hash for
        a list of none or of other values): by the hash, two groups held at once would
        share an entry about as often as not, each made again at every turn. None where
        ``name``'s keep is no such list (``recheck``: the call of its ``filter_recheck``)."""
        hop = self.filter_hop(name) if recheck and keys and rec else None
        if hop is None:
            return None
        key = ("KEPT", name)
        h, same, store = _by_keys(keys)
        # (the zones changed since it was checked, noted: kernel_components.py's filter_touched)
        touched = self.filter_touched(name)
        entry = (f"struct {{ uint64_t epoch = 0; {' '.join(k[0] for k in keys)} {rt} v; I work; I calls; "
                 f"{LASTING_FIELDS}bool clean = false; bool moved = false; bool took = false; uint32_t nt = 0; Id tz[{TOUCHED} + 1]; "
                 f"uint64_t lin = 0; }}")
        # (an entry per cell, picked by the list's first cell: the lists of cells kept at
        # once, groups of stones, have first cells of their own and are never each other's
        # neighbour in the table; another list by its hash, in 256 more)
        table = self.tables.table(key, lambda t: f"static {entry} {t}[NZ + 256];")
        cell = self.tables.table(key + ("CELL",), lambda t: f"static int32_t {t}[NZ > 0 ? NZ : 1];",
                                 lambda t: f"for (int i_ = 0; i_ < NZ; ++i_) {t}[i_] = -1;")
        point = self.tables.table(key + ("POINT",), lambda t: (
            f"static inline void {t}(Id x_, int32_t r_) {{ int32_t o_ = {cell}[x_]; if (o_ == r_) return; "
            f"{cell}[x_] = r_; if (o_ >= 0) {{ {table}[o_].clean = false; {table}[o_].moved = true; }} }}"))
        self.touches(key, hop[0], cell, table)
        if touched:
            names = [ident("A", p.name) for p in self.c.functions[name].params]
            recheck = f"{touched}(s, e{''.join(', ' + a for a in names)})"
        g = ident("A", hop[1])
        seal = (f"e.clean = true; e.moved = false; e.nt = 0; e.lin = s.z.lin.id; for (Id x_ : {g}) "
                f"if (x_ >= 0 && x_ < NZ) {point}(x_, (int32_t)i_);")
        # (an entry rechecked for its own list: its cells point at it still where none was
        # pointed elsewhere since it was sealed, ``moved``, and are pointed again only then)
        cleaned = "e.clean = true; bool mv_ = e.moved; e.moved = false; e.nt = 0; e.lin = s.z.lin.id; "
        reseal = f"{cleaned}if (mv_) for (Id x_ : {g}) if (x_ >= 0 && x_ < NZ) {point}(x_, (int32_t)i_);"
        hit = self._hit()
        # (an entry carried on for a list whose first cells are its own, ``e_g_``: those
        # point at it still where none moved, and the cells added alone are pointed)
        grown = self._grown(name, keys, g, (
            f"{cleaned}for (size_t j_ = mv_ ? 0 : e_g_.size(); j_ < {g}.size(); ++j_) {{ Id x_ = {g}[j_]; "
            f"if (x_ >= 0 && x_ < NZ) {point}(x_, (int32_t)i_); }}"))
        slot = (f"size_t i_ = {g}.size() && (size_t){g}[0] < (size_t)NZ ? (size_t){g}[0] "
                f": (size_t)NZ + ((({h}) >> 13) & 255); auto& e = {table}[i_]; ")
        # (an entry of this state, or clean, read in the caller: the rest a call of its own)
        # (its tests joined with no branch each: one branch, which the entries read in a
        # scan of the board, some of this state and some kept, do not make unforeseeable)
        every = "".join(f" & ({k[4]})" for k in keys)
        inline = f"{slot}if (((e.epoch == EPOCH) | (e.last & e.clean & (e.lin == s.z.lin.id))){every}) {{ e.epoch = EPOCH; {hit} }} "
        fast = f"{_inline(sig)} {{ {inline}return {_slow(sig, args)}; }}"
        self.offer_in_place(ident("K", name), sig, rt, inline, args)   # (kernel_in_place.py)
        return (f"{_slow_sig(sig)} {{ {slot}"
                f"if (e.epoch == EPOCH{same}) {hit} if (e.last{same}) {{ "
                f"if (e.clean && e.lin == s.z.lin.id) {{ e.epoch = EPOCH; {hit} }} "
                f"if ({recheck}) {{ e.epoch = EPOCH; {reseal} {hit} }} }} {grown}"
                f"I w0_ = s.work, c0_ = s.calls; {rt} v_ = {rec}(s{args}); "
                f"e.epoch = EPOCH; {store} e.v = v_; e.work = w0_ - s.work; e.calls = s.calls - c0_; "
                f"deps_into(e.deps); {'e.took = false; ' if touched else ''}e.last = true; {seal} return v_; }}\n{fast}")

    def _grown(self, name: str, keys: list, g: str, seal: str) -> str:
        """In ``_kept_hop``'s entry ``e``: the C++ that serves a list ``g`` (the
        parameter walked) whose first cells are those of the entry's own list, the
        rest added at its end (a group a stone joined, kernel_components.py's
        ``component_extend``), where the entry's value holds now (its ``filter_recheck``,
        run with the entry's list): the value for the cells added made alone and put after it
        (``filter_extend``), the work of the entry's and theirs counted, the entry then
        ``g``'s. "" where the list is not so made."""
        ext = self.filter_extend(name)
        if ext is None:
            return ""
        others = "".join(" && " + k[4] for k in keys if k[2] != g)
        names = [ident("A", p.name) for p in self.c.functions[name].params]
        touched = self.filter_touched(name)
        old_g = (f"{touched}(s, e" if touched else f"{self.filter_recheck(name)}(s, e.v, e.deps") \
            + "".join(", e_g_" if a == g else f", {a}" for a in names) + ")"
        grown_args = "".join(", add_" if a == g else f", {a}" for a in names)
        field = next(k[1] for k in keys if k[2] == g)
        return (f"if (e.last{others} && {field}.size() && {field}.size() < {g}.size() "
                f"&& std::equal({field}.begin(), {field}.end(), {g}.begin())) {{ const List<Id> e_g_ = {field}; "
                f"if ({old_g}) {{ {self._charged()}"
                f"const List<Id> add_ = List<Id>::of_n({g}.begin() + e_g_.size(), {g}.size() - e_g_.size()); "
                f"I w0_ = s.work; List<Id> v_ = {ext}(s, e.v, e.deps{grown_args}); e.work += w0_ - s.work; "
                f"e.epoch = EPOCH; {field} = {g}; e.v = v_; deps_into(e.deps); {'e.took = false; ' if touched else ''}"
                f"{seal} return v_; }} }} ")

    def _bypass(self, name: str, fn: str, args: str) -> tuple[str, str, str]:
        """A keep of a step that is seldom read (the lines from every empty cell,
        each asked once in a step) is passed by for a while: the C++ that calls the
        function itself while ``skip`` lasts, that counts a read found, and that, after
        each 512 entries made, passes the keep by for the next 4096 calls where fewer
        than 32 reads found theirs, twice as many (up to 32,768) after each such 512 in
        a row (``idle``). The pass-by is tested where the function is called (``uK_name``
        in line: the function itself called there, its keep ``uKB_name`` apart), so that a
        keep passed by costs the call a test. The same values, work and calls either way
        (an entry is of one state; a call made again counts what it counts)."""
        rate = self.tables.table(("KEEP_RATE", name), lambda t: (
            f"static struct {{ uint32_t made = 0, found = 0, skip = 0, idle = 0; }} {t};"))
        return (f"if (__builtin_expect({rate}.skip != 0, 1)) {{ --{rate}.skip; return {fn}(s{args}); }} ",
                f"++{rate}.found; ",
                f"if (++{rate}.made == 512) {{ if ({rate}.found < 32) {{ "
                f"{rate}.skip = 4096u << ({rate}.idle < 3 ? {rate}.idle : 3); ++{rate}.idle; }} "
                f"else {rate}.idle = 0; {rate}.made = {rate}.found = 0; }} ")

    def _walks(self, name: str, sig: str, fn: str, rec: str, start: str, args: str, others: list, rt: str,
               check: str) -> str:
        """The body of ``uC_name`` for a component keep rechecked by its cells'
        membership (kernel_components.py): one entry per walk (a pool of ``NZ + 2``), each
        cell the walk found and its start pointing at it (``CELL``, -1: none), an entry
        no cell points at given back.

        An entry is clean while no zone its walk read has changed, for the lineage of
        the state it was made or checked in (cxx/kernel_zones.hpp's ``Lineage``): a clean
        entry is read with nothing checked (its walk would go the same way). The walk
        read its start and the related cells of the cells it found (COND reads its own
        cell's zone alone), so a change of a zone ``z`` makes unclean the entries that
        ``z`` and the cells related to ``z`` point at (``INV``: the cells whose related
        cells hold ``z``); every cell of a clean entry points at it, as a cell pointed
        elsewhere makes its entry unclean, and an entry checked again points its cells
        at it again. An unclean entry is rechecked by membership (``_rejoin``: where
        only cells outside it that now pass COND, a stone played beside a group, tell it
        apart, its walk carried on from them), a walk made anew where that fails (the
        values, work and calls as before: only which are checked changes)."""
        key = ("COMPONENT", name)
        same = "".join(f" && e.{q} == {a}" for q, a, _ in others)
        every = "".join(f" & (e.{q} == {a})" for q, a, _ in others)   # (no branch each: _kept_hop)
        entry = (f"struct {{ uint32_t refs = 0; bool clean = false; bool moved = false; uint32_t nt = 0; Id tz[{TOUCHED} + 1]; "
                 f"uint64_t lin = 0; Id at = -1; "
                 f"{' '.join(f'{self.ct(t)} {q};' for q, _, t in others)} {rt} v; I work; I calls; List<uint64_t> deps; }}")
        pool = self.tables.table(key + ("POOL",), lambda t: f"static {entry} {t}[NZ + 2]; static int32_t {t}_free[NZ + 2]; "
                                 f"static int32_t {t}_n = 0;",
                                 lambda t: f"for (int i_ = 0; i_ < NZ + 2; ++i_) {t}_free[i_] = i_; {t}_n = NZ + 2;")
        cell = self.tables.table(key + ("CELL",), lambda t: f"static int32_t {t}[NZ > 0 ? NZ : 1];",
                                 lambda t: f"for (int i_ = 0; i_ < NZ; ++i_) {t}[i_] = -1;")
        point = self.tables.table(key + ("POINT",), lambda t: (
            f"static inline void {t}(Id x_, int32_t r_) {{ int32_t o_ = {cell}[x_]; if (o_ == r_) return; "
            f"{cell}[x_] = r_; ++{pool}[r_].refs; if (o_ >= 0) {{ auto& g_ = {pool}[o_]; g_.clean = false; g_.moved = true; "
            f"if (--g_.refs == 0) {{ g_.v = {rt}(); g_.deps = List<uint64_t>(); {pool}_free[{pool}_n++] = o_; }} }} }}"))
        self.touches(key, self.c.functions[name].body.comp.clauses[0].iter.func, cell, pool)
        store = " ".join(f"m_.{q} = {a};" for q, a, _ in others)
        hit = self._hit()
        # (an unclean entry checked again: uJ_name where the walk may be carried on
        # from the cells that joined it, else its recheck alone)
        again = self._rejoin(name, check, args, pool, point, cell)
        # (a clean entry read in the caller: the rest a call of its own)
        inline = (f"if ((uint32_t){start} < (uint32_t)NZ) {{ int32_t r_ = {cell}[{start}]; "
                  f"if (r_ >= 0) {{ auto& e = {pool}[r_]; if (e.clean & (e.lin == s.z.lin.id){every}) {hit} }} }} ")
        fast = f"{_inline(sig)} {{ {inline}return {_slow(sig, args)}; }}"
        self.offer_in_place(ident("C", name), sig, rt, inline, args)   # (kernel_in_place.py)
        return (f"{_slow_sig(sig)} {{ if ({start} < 0 || {start} >= NZ) return {fn}(s{args}); int32_t r_ = {cell}[{start}]; "
                f"if (r_ >= 0) {{ auto& e = {pool}[r_]; if (true{same}) {{ if (e.clean && e.lin == s.z.lin.id) {hit} "
                f"if ({again}) {hit} }} }} "
                f"I w0_ = s.work, c0_ = s.calls; {rt} v_ = {rec}(s{args}); "
                f"int32_t n_ = {pool}_free[--{pool}_n]; auto& m_ = {pool}[n_]; {store} m_.v = v_; m_.at = {start}; "
                f"m_.work = w0_ - s.work; m_.calls = s.calls - c0_; deps_into(m_.deps); "
                f"m_.clean = true; m_.moved = false; m_.nt = 0; m_.lin = s.z.lin.id; "
                f"for (Id x_ : v_) if (x_ >= 0 && x_ < NZ) {point}(x_, n_); {point}({start}, n_); return v_; }}\n{fast}")

    def _rejoin(self, name: str, check: str, args: str, pool: str, point: str, cell: str) -> str:
        """The C++ test of ``_walks``' entry ``r_`` (unclean), true where it holds now,
        made clean and its cells pointed at it (each, where one moved): its recheck by
        membership (``check``: the name of the keep's ``component_recheck``), or, where the walk may be carried on (kernel_components.py,
        ``component_extend``), a call of ``uJ_name(s, r_, args...)``, which carries the
        walk on from the cells that joined it (every other zone changed giving COND its
        old value), the work of the cells found counted into the entry's, and points
        the cells found at the entry."""
        ext = self.component_extend(name)
        renew = (f"e.clean = true; e.nt = 0; e.lin = s.z.lin.id; if (e.moved) {{ e.moved = false; for (Id x_ : e.v) "
                 f"if (x_ >= 0 && x_ < NZ) {point}(x_, r_); {point}(e.at, r_); }}")
        if ext is None:
            return f"({check}(s, e.v, e.deps{args}, nullptr) && [&]() {{ {renew} return true; }}())"
        fn = ident("J", name)
        head = f"static bool {fn}(St& s, int32_t r_{args_params(self, name)})"
        self.protos.append(head + ";")
        # (the zones noted as changed checked alone, where they tell: component_touched)
        touched = self.component_touched(name, cell)
        full = f"!{check}(s, e.v, e.deps{args}, &j_)"
        test = (f"if (!e.moved && e.lin == s.z.lin.id && e.nt <= {TOUCHED} && e.v.size()) {{ {touched} }} "
                f"else if ({full}) return false; " if touched else f"if ({full}) return false; ")
        self.fns.append(
            f"{head} {{ auto& e = {pool}[r_]; Vec<Id> j_; "
            f"{test}if (j_.empty()) {{ {renew} return true; }} "
            f"I w_ = 0; const size_t k0_ = e.v.size(); List<Id> v_ = {ext}(s, e.v, e.deps, j_, w_{args}); "
            f"e.work += w_; e.v = v_; deps_into(e.deps); e.clean = true; e.nt = 0; e.lin = s.z.lin.id; "
            f"for (size_t i_ = e.moved ? 0 : k0_; i_ < v_.size(); ++i_) if (v_[i_] >= 0 && v_[i_] < NZ) "
            f"{point}(v_[i_], r_); e.moved = false; {point}(e.at, r_); return true; }}")
        return f"{fn}(s, r_{args})"

    def component_call(self, name: str) -> str:
        """``uC_name``: a function that finds a component (``Facts.component``), where
        the order of the cells found does not matter: the list one walk finds is kept
        for each of its cells (a table by cell, each entry with the other arguments),
        and read for any of them with the walk's work (the same from each)."""
        key = ("COMPONENT", name)
        if key in self.kept_made:
            return ident("C", name)
        self.kept_made.add(key)
        fn = self.function(name)
        sig, rt, params, args = self._keep(name, "C")
        at = self.facts.component(name)
        start = ident("A", params[at][0])
        others = [(ident("Q", n), ident("A", n), t) for i, (n, t) in enumerate(params) if i != at]
        same = "".join(f" && e.{q} == {a}" for q, a, _ in others)
        store = " ".join(f"m_.{q} = {a};" for q, a, _ in others)
        rec = self.lasting(name)   # (kernel_lasting.py)
        noted = rec is not None and self.notes(name)
        check = self.component_recheck(name) if noted else None   # (kernel_components.py)
        recheck = f"{check}(s, e.v, e.deps{args}, nullptr)" if check else ""
        if check and rec:
            self.fns.append(self._walks(name, sig, fn, rec, start, args, others, rt, check))
            return ident("C", name)
        entry = (f"struct {{ uint64_t epoch = 0; {' '.join(f'{self.ct(t)} {q};' for q, _, t in others)} "
                 f"{rt} v; I work; I calls; {LASTING_FIELDS if rec else ''}}}")
        table = self.tables.table(key, lambda t: f"static {entry} {t}[NZ > 0 ? NZ : 1];")
        # (a lasting entry found fresh: so are those of the other cells of its walk)
        renew = (f"for (Id x_ : e.v) {{ if (x_ < 0 || x_ >= NZ) continue; auto& m_ = {table}[x_]; "
                 f"if (m_.v.shares(e.v)) m_.epoch = EPOCH; }} e.epoch = EPOCH;")
        deps = (" m_.deps = d_;" if noted else "") + (" m_.last = true;" if rec else "")
        self.fns.append(
            f"{sig} {{ if ({start} < 0 || {start} >= NZ) return {fn}(s{args}); auto& e = {table}[{start}]; "
            f"{self._read(same, renew if rec else '', noted, recheck)} I w0_ = s.work, c0_ = s.calls; {rt} v_ = {rec or fn}(s{args}); "
            f"I w_ = w0_ - s.work, c_ = s.calls - c0_; {'List<uint64_t> d_ = deps_read(); ' if noted else ''}"
            f"for (Id x_ : v_) {{ if (x_ < 0 || x_ >= NZ) continue; auto& m_ = {table}[x_]; m_.epoch = EPOCH; "
            f"{store} m_.v = v_; m_.work = w_; m_.calls = c_;{deps} }} "
            # (the start is one of the cells found, or finds nothing but itself)
            f"if (e.epoch != EPOCH) {{ auto& m_ = e; m_.epoch = EPOCH; {store} m_.v = v_; m_.work = w_; "
            f"m_.calls = c_;{deps} }} return v_; }}")
        return ident("C", name)
