"""The kernel: a program's rules written as C++ over compact state, compiled into an
extension module, that plays moves many times faster than the Python program.

A kernel prints each procedure's instructions of the lowered core (``core.lower``, the
layout the Python engines run too) one by one as C++, each kind doing what its reference
meaning does (``core.reference``), and the expressions as the straightforward Python
code (``codegen.ExprCompiler`` with ``optimize=False``): the same instructions at the
same indices (a game's frames are the same), the same values,
the same order of options, the same draws of the generator, the same steps, work and
calls counted against the budgets. Where a rule could go
wrong (a none where a value is needed, an index outside a list, a budget) it stops
(``mk::Bail``) without saying why: ``kgame.KernelGame`` then plays the moves again in
Python, which gives exactly the game's result or error. So a kernel only has to be
right where it finishes a move; tests/test_kernel.py plays every bundled ruleset both
ways in lockstep and compares the states.

What a kernel does not cover yet (``first`` of a list of bools, an item variable without
a first value...) raises ``Unsupported`` here: the program then runs in Python, the
reason reported once.

The C++ shared by every kernel is in ``cxx/``: ``kernel_rt.hpp`` (values, lists),
``kernel_zones.hpp`` (zones, the generator) and ``kernel_random.hpp`` (Python's generators,
the bots' seeds: the three the runtime every kernel starts with), ``kernel_state.hpp`` (the order of items, reading Python states),
``kernel_driver.hpp`` (the run loop, the scoring) and ``kernel_glue.hpp`` (the Python
type ``KState`` and the module); ``Gen`` writes the program's part around them: its
expressions and functions here (names and attributes in ``kernel_names``, operators in
``kernel_operators``), each procedure as a ``Proc``, with collaborators beside
this file: ``kernel_tables`` (static tables), ``kernel_driver`` (the end, the scoring,
first values), ``kernel_module`` (the module's layout, decisions, returns),
``kernel_bridge`` (states to and from Python), ``kernel_chance`` (random statements)
and ``kernel_types`` (what they share).
"""
from __future__ import annotations

import re
from itertools import count

from ...dsl.ast import LITERALS
from ...dsl.builtins import CONSTANTS
from ...dsl.types import T, type_code
from ..core import ops
from ..core.primitives import PRIMITIVES, CxxCall, CxxOver, NotNative, emit
from . import kernel_pgo, kernel_quick
from .cxx_text import Static, ident, literal
from .kernel_areas import Areas
from .kernel_around import AroundCounts
from .kernel_bit_picks import BitPicks, drawn_in_place
from .kernel_branch_loops import BranchLoops
from .kernel_build import (  # noqa: F401 - read as kernel.X by the package and tests
    KernelError,
    _build,
    compiler,
    enabled,
    flags,
    given_flags,
    module_key,
    module_name,
    obtain,
    status,
)
from .kernel_cells import CellFilters
from .kernel_chance import ChanceStatements
from .kernel_charges import RangeCharges
from .kernel_driver import Driver
from .kernel_early import EarlyCounts
from .kernel_emptiness import EmptyLists
from .kernel_epoch import EpochSteps
from .kernel_filter_loops import FilterLoops
from .kernel_filters import FilteredCalls
from .kernel_first_filled import FirstFilled
from .kernel_first_stops import FirstStops
from .kernel_fold import ConstantJoins
from .kernel_joins import JoinedLists
from .kernel_layout import LOOP_INDEX, Layout, plain
from .kernel_lent import LentLists
from .kernel_memo import MemoCalls
from .kernel_module import ModuleWriter
from .kernel_names import NamedValues
from .kernel_occupancy import OccupiedWalks
from .kernel_operators import Operators
from .kernel_ordered import ascending_options, kept_seen, reserve_size, track_seen
from .kernel_products import ProductOptions
from .kernel_ranged import RangedCalls
from .kernel_reads import ENTRY, StateReads, counters, state, zone_read
from .kernel_rows import SHORT_INLINE, TabledRows, short_loops
from .kernel_tables import Tables
from .kernel_tally import WorkTallies, untallied
from .kernel_text_keys import KeyedLets, TextKeys
from .kernel_text_parts import TextParts
from .kernel_tops import Entry, TopWalks, reached
from .kernel_types import BOOL, IDS, INT, STR, Unsupported, has_none
from .kernel_unread import UnreadLets
from .kernel_unroll import KnownLoops
from .kernel_walk_views import WalkViews
from .kernel_walks import CELL_ID, BoardWalks

MAX_SOURCE = 8_000_000  # characters of C++ a kernel may have (a bundled game's: under 400,000)
# the C++ of a zone the rules name (kernel_names.py: a constant, never a local's)
_ZONE_NAMED = re.compile(r"\(\(Id\)\d+\)")


class Gen(BitPicks, FirstStops, MemoCalls, EpochSteps, TextParts, BoardWalks, EarlyCounts, JoinedLists, KnownLoops, WorkTallies,
          EmptyLists, WalkViews, TabledRows, ConstantJoins, FilteredCalls,
          RangedCalls, StateReads, FilterLoops, BranchLoops, NamedValues, Operators, TextKeys, AroundCounts,
          LentLists, RangeCharges, FirstFilled):
    """Writes the C++ of one program (``source()``)."""

    def __init__(self, prog):
        self.p = prog
        self.c = prog.checked
        self.n = prog.n
        self.ni = len(prog.items)
        self.nz = len(prog.zones)
        self.b = prog.budgets
        self.ns = prog.ns
        self.ids = count(1)
        self.tables = Tables(prog)        # static tables and the functions over them
        self.fns: list[str] = []          # rule functions
        self.fns_made: set[str] = set()   # their names
        self.protos: list[str] = []
        self.fields: dict[str, str] = {}  # frame fields: name -> C++ type
        self.field_names: dict[str, tuple] = {}  # frame field -> (procedure, local, type)
        self.field_types: dict[str, list] = {}   # frame field -> every type it holds
        self.field_ranges: dict[str, tuple] = {}  # frame field -> the least and most it holds
        self.facts = prog.facts              # what is known of the expressions (core/facts.py)
        self.recursive = self.facts.recursive   # (the functions that may call themselves)
        self.counting = self.facts.counts_calls  # (the functions that count their calls)
        self.sites: list[dict] = []       # choose statements: what apply needs
        self.draws = False                # whether a statement draws (kernel_chance.py)
        self.text_keys = False            # whether a let's texts are counted by keys (kernel_text_keys.py)
        self.keepable: dict[str, bool] = {}  # see kept (kernel_memo.py)
        self.kept_made: set = set()
        self.any_order: dict[int, object] = {}
        self.lending: set[int] = set()   # (comprehensions lent to the call printed: kernel_lent.py)
        self.proc_ends: list[int] = []     # each procedure's end (its instructions' count)
        self.pre_state: list[str] = []     # declarations the state's struct needs
        # where procedures' values go (by the code a callee's frame holds): (caller,
        # the local's name, its field, the callee, the value's type)
        self.returns: list[tuple] = []
        self.opt_types: dict[str, T] = {}  # C++ type of options -> a type of them
        self.each_types: dict[str, T] = {}  # the same for simultaneous decisions
        self.proc_index = {}
        self.layout = Layout(self)         # the types the state keeps its fields in
        self.cells = CellFilters(self)     # loops over a board's cells by their static conditions
        self.occupied = OccupiedWalks(self)  # loops over a board's occupied cells
        self.tops = TopWalks(self)  # loops over the cells by their top item's value
        self.areas = Areas(self)    # the sizes of components counted by bits
        # the locals a decision may set to a list or tuple that is none (its move without
        # an object): read where Python would fail on none, the kernel bails (nnv)
        self.maybe_none = frozenset(
            i.var for proc in prog.procs.values() for i in proc.core
            if isinstance(i, ops.Ask) and i.alone is not None and self._nested(i.options))

    def _nested(self, options) -> bool:
        """Whether a decision's options are lists or tuples."""
        t = self.c.type_of(options)
        return t.tag == "list" and isinstance(t.arg, T) and t.arg.tag in ("list", "tuple")

    # ------------------------------------------------------------ types
    def ct(self, t: T) -> str:
        tag = t.tag
        if tag == "int":
            return "I"
        if tag == "bool":
            return "bool"
        if tag == "str":
            return "Str"
        if tag in IDS:
            return "Id"
        if tag == "list":
            return f"List<{self.ct(t.arg)}>"
        if tag == "tuple":   # (docs/language.md 6.6; a part that is none: an Id, as none is)
            return f"Tup<{', '.join(self.ct(p) for p in t.parts)}>"
        raise Unsupported(f"a value of type {t}")

    def arg_type(self, t: T) -> str:
        """How a function takes a parameter: lists and texts by reference (no function
        changes its arguments)."""
        c = self.ct(t)
        return f"const {c}&" if t.tag in ("list", "str") else c

    def ty(self, e) -> T:
        t = self.c.type_of(e)
        if t.is_error:
            raise Unsupported(f"an expression without a type ({e.node})")
        return t

    def none_of(self, t: T) -> str:
        if t.tag == "int":
            return "NONE_I"
        if t.tag == "str":
            return "NONE_S"
        if t.tag in IDS:
            return "NONE_ID"
        raise Unsupported(f"none as a {t}")

    def coerce(self, code: str, have: T, want: T) -> str:
        """A value of type ``have`` where ``want`` is expected: the same C++ type, or none
        and empty lists written as ``want``'s."""
        if have.tag == "none":
            return self.none_of(want)
        if have.tag == "list" and want.tag == "list" and have.arg.tag == "none":
            return f"(({code}).empty() ? {self.ct(want)}() : (bail(), {self.ct(want)}()))"
        if self.ct(have) == self.ct(want):
            return code
        raise Unsupported(f"a {have} where a {want} is expected")

    @staticmethod
    def unify(a: T, b: T) -> T:
        if has_none(a):
            return b
        return a

    # ------------------------------------------------------------ names
    def frame_field(self, k: int, name: str, t: T) -> str:
        """The field of a frame of procedure ``k`` that holds its local ``name`` (a
        member of the frame's ``l<k>``, the locals of procedure k: kernel_module.py)."""
        f = f"l{k}.{ident(f'L{k}', name)}"
        have = self.fields.get(f)
        if have is not None and have != self.ct(t):
            raise Unsupported(f"local '{name}' of two types")
        self.fields[f] = plain(self.ct(t), t)   # (as a frame keeps it: kernel_layout.py)
        self.field_names[f] = (k, name, t)
        self.field_types.setdefault(f, []).append(t)
        return f

    def fresh(self, base: str) -> str:
        return ident(f"V{next(self.ids)}", base)

    # ------------------------------------------------------------ expressions
    def expr(self, e, sc: dict, want: T | None = None) -> str:
        held = sc.get(id(e))   # (a part whose value is read, not computed: kernel_rows.py)
        if held is not None:
            return held[0] if want is None else self.coerce(held[0], held[1], want)
        if want is not None and e.node == "TupleLit":
            return self._TupleLit(e, sc, want)   # (each part as the part wanted)
        if want is not None and e.node in ("ListLit", "CondExpr") and has_none(self.ty(e)) \
                and not has_none(want):
            # written as the type wanted: [none], [] or 'if c then [] else xs' as such a list
            return getattr(self, "_" + e.node)(e, sc, want)
        code = getattr(self, "_" + e.node)(e, sc)
        if want is not None:
            return self.coerce(code, self.ty(e), want)
        return code

    def _IntLit(self, e, sc):
        if not -(1 << 62) < e.value < (1 << 62):
            raise Unsupported("a literal number beyond 62 bits")
        return f"((I){e.value}LL)"

    def _StrLit(self, e, sc):
        # (a text of the rules is made once, when the module loads: a text made by + or
        # compared reads it where it is, with no text made at each evaluation)
        code = literal(e.value)
        return self.tables.table(("STR", code), lambda n: f"static const Str {n} = {code};")

    def _BoolLit(self, e, sc):
        return "true" if e.value else "false"

    def _NoneLit(self, e, sc):
        return "NONE_ID"

    def _ListLit(self, e, sc, want: T | None = None):
        t = want or self.ty(e)
        if not e.items:
            return f"{self.ct(t)}()"
        el = t.arg
        items = ", ".join(self.expr(x, sc, el) for x in e.items)
        # (List::of: a short list of numbers, ids or bools kept inline, with no buffer)
        code = f"{self.ct(t)}::of({{{items}}})"
        if not self._constant(e, sc):
            return code
        # (a list of constants is made once, when the module loads, and shared: a list is
        # never changed in place, and a memo that knows a list by its buffer knows it again)
        return self.tables.table(("LIST", code), lambda n: f"static {self.ct(t)} {n};",
                                 lambda n: f"{n} = {code};")

    def _TupleLit(self, e, sc, want: T | None = None):
        t = want if want is not None and want.tag == "tuple" else self.ty(e)
        parts = ", ".join(self.expr(x, sc, p) for x, p in zip(e.items, t.parts))
        return f"{self.ct(t)}({parts})"

    def _constant(self, e, sc: dict) -> bool:
        """Whether an expression is the same value wherever it is evaluated: literals, an
        enum's member, a zone, the negation of a number, lists of them."""
        node = e.node
        if node in LITERALS:
            return True
        if node == "UnOp":
            return e.op != "not" and e.operand.node == "IntLit"
        if node == "ListLit":
            return all(self._constant(x, sc) for x in e.items)
        if node == "Var":
            n, c = e.name, self.c
            return n not in sc and n not in CONSTANTS and n not in c.vars \
                and (n in c.enum_of_value or (n in c.zones and n not in c.enums and n not in c.kinds))
        return False

    def _CellAt(self, e, sc):
        board = self.ty(e.board).arg
        fn = self.tables.cell_at(board, tuple(a.name for a in e.coords))
        types = self.tables.cell_types.get(fn) or ["I"] * len(e.coords)
        return f"{fn}({', '.join(self.expr(a.value, sc, STR if t == 'Str' else INT) for a, t in zip(e.coords, types))})"

    # ------------------------------------------------------------ comprehensions
    def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
              count: str | None = None, compact: tuple | None = None, truth: bool = False,
              size=None, passes=None) -> str:
        """The C++ statements of a comprehension's loops around ``body(scope)`` (a
        statement), its condition tested first. Each iterable is counted against the
        work budget before its loop, as ``_it`` does (nested ones each time).
        ``reserve``: a vector the loops fill, reserved the size of the first loop's list
        (one element a turn at most where it is the only loop). ``whole``: the loops
        always run to their end (no body stops them): a loop over ``until(...)`` then
        walks its list, with no list of its own (``_until_loop``). ``count``: the body
        adds one to this counter where the condition holds, its truth added (no branch
        on the condition's last test, which random positions make unpredictable).
        ``compact``: (a counter, the element's C++ of a scope) for one loop whose vector
        ``reserve`` is sized to its list: each element written at the counter, which adds
        the condition's truth (the vector cut to it after the loop). ``truth``: the body
        is ``body(scope, test)``, given the condition's C++ (``true`` without one) to use
        as a value, not an ``if`` around it. ``size``: for one loop over a range or a list,
        ``size(n)`` is a statement put before it, given the C++ of how many elements it
        walks (kernel_early.py). ``passes``: an expression false where ``body`` does
        nothing (an ``any``'s element), where the comprehension has no condition."""
        def sized(n: str) -> str:
            return size(n) if size is not None and len(comp.clauses) == 1 else ""

        def clause(i: int, inner: dict, cond: list) -> str:
            if i == len(comp.clauses):
                if truth:
                    return body(inner, self._truth(cond, inner))
                return self._innermost(inner, cond, body, count, compact, reserve)
            cl = comp.clauses[i]
            it = cl.iter
            t = self.ty(it)
            if t.tag != "list":
                raise Unsupported(f"a loop over a {t}")
            var = self.fresh(cl.var)
            el = self.ct(t.arg)
            deeper = dict(inner)
            deeper[cl.var] = (var, t.arg)
            if it.node == "BinOp" and it.op == "..":   # (its work maybe tallied: kernel_tally.py)
                return self.range_loop(it, inner, deeper, var, lambda scope: clause(i + 1, scope, cond),
                                       whole, sized)
            # (a short list known: kernel_unroll.py; the first loop of a list reserved
            # for, where it walks a parameter known of a body in place: kernel_ranged.py)
            if compact is None and (reserve is None or i > 0 or (it.node == "Var" and self.known_param(it))):
                room = (lambda ys: f"{reserve}.reserve({reserve_size(self, comp, ys)}); ") \
                    if reserve is not None and i == 0 else None
                unrolled = self.unrolled_loop(it, inner, (var, el, t), lambda: clause(i + 1, deeper, cond),
                                              self.facts.counted(it), sized, room)
                if unrolled is not None:
                    return unrolled
            # (a loop's body counts its work at each turn: no tally, kernel_tally.py)
            deeper = untallied(deeper)
            fused = self.loop_in_place(it, inner, (var, el, t), lambda: clause(i + 1, deeper, cond),
                                       (whole, compact, comp, reserve if i == 0 else None))
            if fused is not None:
                return fused
            listless = self._listless_loop(it, inner, (var, el, t), reserve if i == 0 else None,
                                           lambda: clause(i + 1, deeper, cond))
            if listless is not None:
                return listless
            if whole and it.node == "Aggregate" and it.func == "until" and it.comp.cond is not None:
                inside = clause(i + 1, deeper, cond)
                return self._until_loop(it, inner, (var, el), inside, reserve if i == 0 else None)
            return self._list_loop(comp, cl, (var, el, t), (inner, deeper), cond,
                                   (reserve if i == 0 else None, compact, passes, i == len(comp.clauses) - 1),
                                   sized, lambda scope, rest: clause(i + 1, scope, rest))
        return clause(0, sc, [] if comp.cond is None else [comp.cond])

    def _list_loop(self, comp, cl, v: tuple, scopes: tuple, cond: list, how: tuple, sized, rest) -> str:
        """``loops``' loop over a list, the clause ``cl`` of ``comp`` (``v``: its variable's
        C++ name, its element's C++ type and the list's type; ``scopes``: the scope around
        the loop and the one inside it; ``how``: the vector reserved where this is the
        first loop, ``compact``, ``passes``, whether it is the last loop; ``sized``: see
        ``loops``; ``rest(scope, cond)``: the C++ inside, given the conjuncts to test)."""
        var, el, t = v
        inner, deeper = scopes
        reserve, compact, passes, last = how
        it = cl.iter
        span = self.ray_span(it, inner) if reserve is None else None
        if span is not None:   # (a kept ray read from its row: kernel_walk_views.py)
            work = "" if self.facts.counted(it) else f"W({counters(inner)}, {span[2]}); "
            return f"{{ {span[0]}{work}{sized(span[2])}{self.span_loop(span, var, rest(deeper, cond))} }}"
        xs = self.fresh("xs")
        # (a list a name holds is walked where it is: nothing changes it meanwhile;
        # so is one of two such lists chosen by a condition)
        either = self._named_either(it, inner, t)
        ray = self.ray_ref(it, inner)   # (a kept ray read where it is: kernel_walks.py)
        src = either or (ray[1] if ray else self.expr(it, inner, t))
        size = self.tables.size_of(xs, src)
        work = "" if self.facts.counted(it) else f"W({counters(inner)}, {size}); "
        if reserve is not None:
            # (one loop: its size bounds the vector's; more: a first guess, which spares
            # the vector's growing from one element, twice its size where a later loop
            # walks more than one written out: a piece's steps listed, two a piece)
            # (kernel_ordered.py: the later loops' sizes, where known, multiplied)
            work += f"{reserve}.{'resize' if compact else 'reserve'}({reserve_size(self, comp, size, count=True)}); "
            if compact:   # (written through a pointer of its own, held in a register)
                work += f"auto* const {reserve}_p = {reserve}.d; "
        ref = "&" if either or ray or self._named(it, inner) else ""
        head = f"{{ {ray[0] if ray else ''}const {self.ct(t)}{ref} {xs} = {src}; {work}"
        # (the last loop over a board's cells whose top item has a value: kernel_tops.py)
        tops = self.tops.loop(cl, comp.cond, inner, var, lambda left: rest(deeper, left)) if last else None
        if tops is not None:
            return f"{head}{tops[0]}{sized(tops[1])}{tops[2]} }}"
        # (the last loop over a board's cells may walk only those its condition's
        # static part lets through: kernel_cells.py)
        walk = self.cells.walk(cl, comp.cond, inner) if last else None
        if walk is not None:
            sub = self.fresh("sub")
            inside = rest(deeper, walk[1])
            return (f"{head}const List<Id>& {sub} = {walk[0]}; {sized(self.tables.size_of(sub, walk[0]))}"
                    f"for (const Id& {var} : {sub}) {{ {CELL_ID.format(var)}{inside} }} }}")
        # (the last loop over a board's cells that only occupied ones pass walks those
        # alone, or the empty ones: kernel_occupancy.py)
        gate = comp.cond if comp.cond is not None else passes
        occupied = self.occupied.loop(cl, gate, inner, var, lambda: rest(deeper, cond)) if last else None
        if occupied is not None:
            return f"{head}{sized(occupied[1] or size)}{occupied[0]} }}"
        inside = rest(deeper, cond)
        table = self.facts.table_list(it)
        # (a board's cells and a relation's related cells are cells, never none)
        known = CELL_ID.format(var) if table is not None and table[0] in ("cells", "relation") else ""
        return f"{head}{sized(size)}for (const {el}& {var} : {xs}) {{ {known}{inside} }} }}"

    def _innermost(self, inner: dict, cond: list, body, count: str | None, compact: tuple | None,
                   reserve: str | None) -> str:
        """The innermost statement of ``loops``: the body where the condition holds, or
        (``count``, ``compact``) its truth added to a counter."""
        if compact is not None:
            n, elem = compact
            truth = self._truth(cond, inner)
            return f"{reserve}_p[{n}] = {elem(inner)}; {n} += (size_t)(bool)({truth});"
        stmt = body(inner)
        if not cond:
            return stmt
        test = self._truth(cond, inner)
        if count is not None:
            return f"{count} += (I)(bool)({test});"
        return f"if ({test}) {{ {stmt} }}"

    def _truth(self, cond: list, inner: dict) -> str:
        """The C++ of a comprehension's conditions all holding (``true`` without one)."""
        return " && ".join(f"({self.expr(c, inner, BOOL)})" for c in cond) or "true"

    def _listless_loop(self, it, inner: dict, var_el_t: tuple, reserve: str | None, inside) -> str | None:
        """A loop of ``loops`` that makes no list (``var_el_t``: its variable, the C++ type
        of the elements, the list's type; ``inside()``: the loops within), or None: over
        one element written out, ``for t in [x]``, x bound (no work counted, as for any
        list written out); over a zone's items, walked where they lie, bottom to top as
        items() lists them (nothing changes a zone while an expression is evaluated)."""
        var, el, t = var_el_t
        if it.node == "ListLit" and len(it.items) == 1:
            want = t.arg if isinstance(t.arg, T) else None
            return f"{{ const {el} {var} = {self.expr(it.items[0], inner, want)}; {{ {inside()} }} }}"
        if it.node == "Call" and it.func == "items" and len(it.args) == 1 and self.c.calls_builtin("items") \
                and self.ty(it.args[0]).tag != "list":
            zone = self.fresh("zone")
            more = f"{reserve}.reserve((size_t){zone_read(inner, 'size', zone)}); " if reserve is not None else ""
            return (f"{{ const Id {zone} = {self.expr(it.args[0], inner)}; W({counters(inner)}, {zone_read(inner, 'size', zone)}); "
                    f"{more}for (Id {var} = {zone_read(inner, 'bottom', zone)}; {var} >= 0; {var} = {state(inner)}.z.nxt[{var}]) "
                    f"{{ {inside()} }} }}")
        return None

    def _until_loop(self, it, sc: dict, var_el: tuple[str, str], inside: str, reserve: str | None) -> str:
        """The loop of a whole comprehension over ``until(x for x in xs if cond)``: xs
        walked once, each element the loop's (``inside``, then cond), up to the first
        that meets cond; the same work as the list until makes and the loop over it
        (each element looked at counted twice, after the walk). ``var_el``: the loop's
        variable and the C++ type of the elements."""
        var, el = var_el
        comp = it.comp
        cl = comp.clauses[0]
        t = self.ty(cl.iter)
        inner = dict(sc)
        inner[cl.var] = (var, t.arg)
        cond = self.expr(comp.cond, inner, BOOL)
        xs, n = self.fresh("xs"), self.fresh("n")
        span = self.ray_span(cl.iter, sc)   # (a kept ray read from its row: kernel_walk_views.py)
        if span is not None:
            more = f"{reserve}.reserve({span[2]}); " if reserve is not None else ""
            return (f"{{ {span[0]}{more}I {n} = 0; "
                    + self.span_loop(span, var, f"++{n}; {{ {inside} }} if ({cond}) break; ")
                    + f" W({counters(sc)}, 2 * {n}); }}")
        ray = self.ray_ref(cl.iter, sc)
        ref = "&" if ray or self._named(cl.iter, sc) else ""
        more = f"{reserve}.reserve({xs}.size()); " if reserve is not None else ""
        return (f"{{ {ray[0] if ray else ''}const {self.ct(t)}{ref} {xs} = "
                f"{ray[1] if ray else self.expr(cl.iter, sc, t)}; {more}I {n} = 0; "
                f"for (const {el}& {var} : {xs}) {{ ++{n}; {{ {inside} }} if ({cond}) break; }} "
                f"W({counters(sc)}, 2 * {n}); }}")

    def _named_either(self, e, sc: dict, t: T) -> str | None:
        """``(if c then xs else ys)``, both a table's lists (a relation's, a board's cells)
        of the loop's list type ``t``: the C++ of the one chosen, read where it is (no
        copy of either); else None."""
        if e.node != "CondExpr" or self.facts.table_list(e.then) is None or self.facts.table_list(e.other) is None \
                or not self.ct(self.ty(e.then)) == self.ct(self.ty(e.other)) == self.ct(t):
            return None
        a, b = self.expr(e.then, sc, t), self.expr(e.other, sc, t)
        if not (isinstance(a, Static) and isinstance(b, Static)):   # (static tables: lvalues, cxx_text.py)
            return None
        return f"({self.expr(e.cond, sc, BOOL)} ? {a} : {b})"

    def _named(self, e, sc: dict) -> bool:
        """Whether an expression is a list held by a name (a local, a parameter, a
        variable, a table, a list of constants made once: ``_ListLit``): C++ may read it
        in place (an lvalue that outlives the loop)."""
        if e.node == "ListLit":
            return bool(e.items) and self._constant(e, sc)
        if e.node == "Var":
            n = e.name
            return n in sc or n in self.c.vars or n in self.c.enums or n in self.c.kinds \
                or (n == "players" and not self.c.declares(n))
        return self.facts.table_list(e) is not None

    def _Comprehension(self, e, sc):
        return self.made_whole(e, self.made_list(e, sc))

    def made_whole(self, e, made) -> str:
        """The list of ``made_list``'s parts, made whole (a lambda called at once)."""
        if isinstance(made, str):
            return made
        kind, el, out, n, body = made
        t = self.ty(e)
        if kind == "grow":
            if id(e) in self.lending:   # (in the caller's frame, read alone: kernel_lent.py)
                return (f"([&]({self.lent_type(el)}&& {out}) MK_AI -> const {self.ct(t)}& {{ "
                        f"size_t {n} = 0; {body} {out}.resize({n}); return {out}.lend(); }}({self.lent_type(el)}()))")
            # (inlined where it is used: the state and the arguments in registers, not
            # read again through the lambda's captures after each element written)
            return (f"([&]() MK_AI -> {self.ct(t)} {{ Grow<{el}> {out}; size_t {n} = 0; "
                    f"{body} {out}.resize({n}); "
                    f"return {out}.list(); }}())")
        if kind == "build":   # (numbers or ids: the first of them on the stack, cxx/kernel_rt.hpp)
            return f"([&]() -> {self.ct(t)} {{ Build<{el}> {out}; {body} return {out}.list(); }}())"
        return f"([&]() -> {self.ct(t)} {{ Vec<{el}> {out}; {body} return {self.ct(t)}(std::move({out})); }}())"

    def made_list(self, e, sc) -> str | tuple[str, str, str, str, str]:
        """The C++ of the comprehension ``e``: an expression where it is made another
        way, else (kind, element type, buffer, count, body): the body writes the
        elements into the buffer, a ``Grow`` counted by the count (kind "grow", the
        compact form), a ``Build`` (kind "build") or a ``Vec`` ("vec"), each declared
        by the caller (a decision's options drawn from the buffer where they were
        made: ``Proc._drawn_here``)."""
        if e is self.noting_once:   # (a lasting keep's distinct cells: kernel_components.py)
            return self.noted_once(e, sc)
        kept = self.elementwise(e, sc) or self.tabled_rows(e, sc)   # (kernel_elementwise.py, kernel_rows.py)
        if kept is not None:
            return kept
        t = self.ty(e)
        static = self._static_cells(e, sc, t)
        if static is not None:
            return static
        filled = self.filled_range(e, sc)   # (a range's, its size known first: kernel_rows.py)
        if filled is not None:
            return filled
        arg = t.arg
        assert isinstance(arg, T)   # (a list's elements' type)
        el = self.ct(arg)
        out = self.fresh("out")
        if self._compactable(e, el):
            # (one loop over a list, its own elements kept where the condition holds:
            # written in place, no branch on the condition's last test)
            n = self.fresh("n")
            body = self.occupied.mapped(e, sc, t, out, n) or self.loops(
                e, sc, None, reserve=out, compact=(n, lambda inner: self.expr(e.elem, inner, arg)))
            return "grow", el, out, n, body
        if el in ("Id", "I") and e.cond is not None and e.elem.node == "Var" \
                and any(cl.var == e.elem.name for cl in e.clauses):
            # (a loop's own element kept where the condition holds: written at the end
            # of the list whatever its truth, which is added to its length, no branch)
            body = self.loops(e, sc, lambda inner, test: f"{out}.push_if({self.expr(e.elem, inner, arg)}, "
                              f"(bool)({test}));", reserve=out, whole=True, truth=True)
        else:
            track_seen(self, e)   # (its size kept for its next first guess: kernel_ordered.py)
            body = self.loops(e, sc, lambda inner: f"{out}.push_back({self.expr(e.elem, inner, arg)});",
                              reserve=out, whole=True)
            body += kept_seen(self, e, out)
        return ("build" if el in ("Id", "I") else "vec"), el, out, "", body

    def _compactable(self, e, el: str) -> bool:
        """Whether ``[x for x in xs if cond]`` (one clause, its element the loop's
        variable, an id or an int), or ``[f(x) for x in xs]`` (any element, an id or an
        int, one for each of xs), loops over a list of its own (not a range, a list
        written out, a zone's items or until's walk): its vector sized to that list."""
        if len(e.clauses) != 1 or el not in ("Id", "I"):
            return False
        if e.cond is not None and (e.elem.node != "Var" or e.elem.name != e.clauses[0].var):
            return False
        it = e.clauses[0].iter
        return not (it.node in ("ListLit", "Aggregate") or (it.node == "BinOp" and it.op == "..")
                    or (it.node == "Call" and it.func == "items"))

    def _static_cells(self, e, sc: dict, t: T) -> str | None:
        """``[c for c in cells(b) if cond]`` whose whole condition is static (a table of
        the cells it lets through, kernel_cells.py): that table itself, shared (a list
        is never changed where another holds it), the board's cells counted against the
        work budget as the loop counts them; else None."""
        if len(e.clauses) != 1 or e.cond is None or e.elem.node != "Var" or e.elem.name != e.clauses[0].var \
                or self.ct(t) != "List<Id>":
            return None
        cl = e.clauses[0]
        walk = self.cells.walk(cl, e.cond, sc)
        if walk is None or walk[1]:
            return None
        it = self.ty(cl.iter)
        xs = self.fresh("xs")
        return (f"([&]() -> List<Id> {{ const {self.ct(it)}& {xs} = {self.expr(cl.iter, sc, it)}; "
                f"W({counters(sc)}, {xs}.size()); return List<Id>({walk[0]}); }}())")

    def _Aggregate(self, e, sc):
        """An aggregate over a comprehension: its native form (interpreter/core/primitives.py)."""
        f = e.func
        if f == "connected":
            return self._connected(e, sc)
        if f == "until":
            return self._until(e, sc)
        # (kernel_tops.py: a run along a ray by the bits of its cells; a count of bits)
        counted = (self.tops.ray_run(e, sc) or self.tops.count(e.comp, sc)) if f == "count" else None
        if counted is not None:
            return counted
        kept = self.kept_around(e, sc)   # (counts kept per cell: kernel_around.py)
        if kept is not None:
            return kept
        # (walks that all stop at once, known from their first cells: kernel_first_stops.py)
        stops = self.first_stops(e, sc) if f == "any" else None
        try:
            made = emit(PRIMITIVES[f].cxx_over, CxxOver(self, e, sc))
        except NotNative as why:
            raise Unsupported(str(why)) from None
        return made if stops is None else f"(!{stops} && {made})"

    # ------------------------------------------------------------ calls
    def _Call(self, e, sc):
        f = e.func
        kind = self.facts.call_kind(e)   # (core/facts.py)
        if kind == "builtin":
            return self.builtin(e, f, sc)
        if kind == "function":   # (a filter over a list made for it: kernel_filters.py; a table: kernel_fold.py)
            found = self.constant_call(e, sc) or self.filtered_call(e, sc) or self.ranged_call(e, sc)
            if found:
                return found
            outer, self.lending = self.lending, self.lend_args(e)   # (lists lent: kernel_lent.py)
            try:
                return self.function_call(e, sc)
            finally:
                self.lending = outer
        if kind in ("tuple", "rows"):
            fn = self.tables.relation_n(f, len(e.args))
            return f"{fn}({', '.join(self.expr(a, sc) for a in e.args)})"
        if kind in ("pair", "row"):
            lists, test = self.tables.relation(f)
            if kind == "pair":
                b = self.expr(e.args[1], sc)
                return f"{test}({self.expr(e.args[0], sc)}, {b})"
            return Static(f"{lists}[nn({self.expr(e.args[0], sc)})]")   # (a row of the table: an lvalue)
        if kind == "zone":
            return f"((Id)({self.ns[f'Z_{f}']} + nn({self.expr(e.args[0], sc)})))"
        return f"{state(sc)}.{ident('P', f)}[nn({self.expr(e.args[0], sc)})]"   # a per-player variable

    def param_type(self, p) -> T:
        return self.typeref(p.type)

    def typeref(self, tr) -> T:
        name = tr.name
        if name == "list":
            return T("list", self.typeref(tr.item))
        if name == "tuple" and tr.parts:   # (a function's parameter or result)
            return T("tuple", None, tuple(self.typeref(p) for p in tr.parts))
        if name in ("int", "bool", "str", "player"):
            return T(name)
        c = self.c
        if name in c.enums:
            return T("enum", name)
        if name in c.kinds:
            return T("item", name)
        if name in c.boards:
            return T("cell", name)
        if name == "zone":
            return T("zone", tr.item.name if tr.item is not None else "?")
        raise Unsupported(f"a parameter of type {name}")

    def builtin(self, e, f, sc):
        """A built-in's call: its native form (interpreter/core/primitives.py)."""
        self.mark_order_free(e)   # (kernel_memo.py)
        found = self.areas.count(e, sc) if f in ("size", "empty") else None   # (kernel_areas.py)
        if found is None:
            found = self.empty_of_filter(e, sc) if f == "empty" else self.top_any_read(e, sc) if f == "top" else None
        if found is None and f in ("empty", "occupied"):   # (no list made: kernel_emptiness.py)
            found = self.emptiness(e, sc)
        if found:
            return found
        self.measured(e)   # (a kept list read where it is kept: kernel_in_place.py)
        text = ""
        try:
            text = emit(PRIMITIVES[f].cxx, CxxCall(self, e, sc))
        except NotNative as why:
            raise Unsupported(str(why)) from None
        finally:
            text = self.unmeasured(e, text)
        return text

    # ------------------------------------------------------------ functions
    def function(self, name: str, any_order: bool = False) -> str:
        """``uF_name``: a rule function (written once, when first called); its name.
        ``any_order``: ``uP_name``, its body compiled where the order of its value does
        not matter (see kernel_memo.py)."""
        prefix = "P" if any_order else "F"
        made = ident(prefix, name)
        if made in self.fns_made:
            return made
        self.fns_made.add(made)
        fd = self.c.functions[name]
        rt = self.typeref(fd.result)
        params = [(p.name, self.param_type(p)) for p in fd.params]
        # (a function without a loop, called at every turn of the rules' loops, such as a
        # test of a cell's piece ``is(c, me, r)``: inline, which lets the compiler put it in
        # line where it would have called it)
        # (kernel_rows.py; where it is called in a loop, its any over a short list known too)
        loops = self.facts.loops(name, ray=True)
        short = short_loops(fd.body, self.written_out if name in self.facts.called_in_loops else None)
        hint = "" if (loops and not short) or name in self.recursive else SHORT_INLINE if short else "inline "
        folds = self.ray_fold(name)   # (in line wherever called, its loop with it: kernel_walks.py)
        in_line = bool(self.ray_walk(name) or folds)
        if in_line:
            hint = "inline MK_AI "
        sig = f"static {hint}{self.ct(rt)} {made}(St& s" + "".join(
            f", {self.arg_type(t)} {ident('A', n)}" for n, t in params) + ")"
        self.protos.append(sig + ";")
        sc: dict = {n: (ident("A", n), t) for n, t in params}
        # (rows of the index read once, first, where a loop the body reaches reads them:
        # kernel_tops.py; not where the body is put in line elsewhere)
        entry = None if in_line else Entry((a for a, _t in sc.values()), lambda: reached(self, fd.body))
        if entry is not None:
            sc[ENTRY] = (entry, None)
        if any_order:
            self.any_order[id(fd.body)] = fd.body

        def compiled(scope):
            return self.in_line(self.expr(fd.body, scope, rt)) if folds else self.expr(fd.body, scope, rt)

        def walk() -> str:
            """``made_walk``: the body as it is compiled without a run's bits (kernel_tops.py
            ``ray_run``), written once, apart (its walk's loop not put in line where the
            bits are read); the C++ of its call."""
            walker = made + "_walk"
            if walker not in self.fns_made:
                self.fns_made.add(walker)
                wsig = f"__attribute__((noinline, cold)) static {self.ct(rt)} {walker}(St& s" + "".join(
                    f", {self.arg_type(t)} {ident('A', n)}" for n, t in params) + ")"
                self.protos.append(wsig + ";")
                self.tops.running = True
                try:
                    wbody = self.tallied_body(compiled, {n: (ident("A", n), t) for n, t in params})
                finally:
                    self.tops.running = False
                self.fns.append(f"{wsig} {{ return {wbody}; }}")
            return f"{walker}(s" + "".join(f", {ident('A', n)}" for n, _t in params) + ")"
        outer, self.tops.whole = self.tops.whole, (None if any_order or name in self.recursive else (fd.body, walk))
        try:
            # (its work outside its loops tallied, charged once: kernel_tally.py)
            body = self.tallied_body(compiled, sc)
        finally:
            self.tops.whole = outer
            if any_order:
                self.any_order.pop(id(fd.body), None)
        pre = ""
        if name in self.recursive:
            # (the C++ stack holds at most 1,000 nested calls: deeper, Python goes on)
            pre = (f"if (++s.calls > {self.b.calls}) bail(); if (++s.depth > {min(self.b.depth, 1000)}) bail(); "
                   f"Depth d_(s); if (s.depth > s.peak) s.peak = s.depth; ")
        elif name in self.counting:   # (the calls budget: core/facts.py, counts_calls)
            pre = f"if (++s.calls > {self.b.calls}) bail(); "
        pre += entry.declarations() if entry is not None else ""
        self.fns.append(f"{sig} {{ {pre}return {body}; }}")
        if not pre:
            self.offer_wrapper(made, sig, self.ct(rt), fd.body, body)   # (kernel_in_place.py)
        return made

    # ------------------------------------------------------------ the program
    def source(self) -> str:
        c = self.c
        for v in c.vars.values():
            self.ct(self.typeref(v.type))
        # each procedure: its name and its parameters' types (its statements are its
        # instructions, the program's core: Proc reads those alone)
        procs = [(name, {p.name: self.param_type(p) for p in d.params}) for name, d in c.procedures.items()]
        procs += [(name, {}) for name, d in (("setup", c.setup), ("turn", c.turn), ("at end", c.at_end))
                  if d is not None]
        for i, (name, _ptypes) in enumerate(procs):
            self.proc_index[name] = i
        bodies = [Proc(self, i, name, ptypes).compiled() for i, (name, ptypes) in enumerate(procs)]
        driver = Driver(self).code()
        return ModuleWriter(self).assemble(procs, bodies, driver)

    def py_conv(self, t: T):
        """A function of a C++ expression: the code that makes its Python value."""
        if t.tag == "int":
            return lambda x: f"py_int({x})"
        if t.tag == "bool":
            return lambda x: f"py_bool({x})"
        if t.tag == "str":
            return lambda x: f"py_str({x})"
        if t.tag == "enum":
            names = self.tables.enum_names(t.arg)
            return lambda x: f"py_enum({x}, {names})"
        if t.tag in IDS:
            return lambda x: f"py_id({x})"
        if t.tag == "list":
            inner = self.py_conv(t.arg)
            el = self.ct(t.arg)
            return lambda x: f"py_list({x}, [](const {el}& y) {{ return {inner('y')}; }})"
        if t.tag == "tuple":
            convs = [self.py_conv(p) for p in t.parts]
            # (none, the move without an object beside tuples: None)
            return lambda x: (f"({x}.nil ? py_none() : py_parts({{"
                              + ", ".join(f(f"std::get<{k}>({x})") for k, f in enumerate(convs)) + "}))")
        raise Unsupported(f"a value of type {t} for Python")


class Proc(ChanceStatements, ProductOptions):
    """One procedure as a C++ function that runs its top frame from its pc: its
    instructions (``core.ops``, as ``core.lower`` laid them out, ``Program.procs[name].core``)
    and nothing else of it, one C++ statement per instruction at the same index, labelled
    ``I<pc>``, printed by the method of its kind (``printer``). The C++ is the instruction
    list as it is, its jumps ``goto``s and the frame's pc the entry (a ``switch``): it needs
    no structure of statements (core/blocks.py serves the engines that write blocks and
    loops, fused.py), and a frame resumes at any instruction, as in Python."""

    def __init__(self, gen: Gen, index: int, name: str, ptypes: dict):
        self.gen, self.k, self.name = gen, index, name
        self.core = gen.p.procs[name].core   # its instructions (core.lower), printed by index
        self.slots: dict[str, T] = {}        # a loop's hidden list: its type
        self.code: list[str] = []   # C++ of each instruction, by pc
        self.locals: dict[str, T] = dict(ptypes)
        self._types()
        self.unread = UnreadLets(self.core, gen.b.calls)   # (lets a counted decision leaves unmade)
        self.keyed = KeyedLets(self)   # (texts a counted decision tells apart by their keys)
        self.sc = {n: (f"f->{self.field(n)}", t) for n, t in self.locals.items()}

    # ------------------------------------------------------------ locals
    def field(self, name: str, t: T | None = None) -> str:
        return self.gen.frame_field(self.k, name, t if t is not None else self.locals[name])

    def _bind(self, name: str, t: T) -> None:
        old = self.locals.get(name)
        if old is None or has_none(old):
            self.locals[name] = t
        elif not has_none(t) and self.gen.ct(old) != self.gen.ct(t):
            raise Unsupported(f"local '{name}' of two types in {self.name}")

    def _types(self) -> None:
        """The type of each local, from the instructions that bind it, in order."""
        g = self.gen
        for i in self.core:
            match i:
                case ops.SetLocal():
                    self._bind(i.var, g.ty(i.value))
                case ops.ForInit():
                    self._bind(i.var, g.ty(i.items).arg)
                case ops.Ask() | ops.PickRandom() | ops.Best():
                    self._bind(i.var, g.ty(i.options).arg)
                    said = getattr(i, "said", None)
                    if said is not None:   # choose x, how: a text
                        self._bind(said, STR)
                case ops.Roll():
                    for v in i.vars:
                        self._bind(v, g.ty(i.faces).arg)
                case ops.Call() if i.new and i.slot is not None:
                    self._bind(i.slot, g.typeref(g.c.procedures[i.proc].result))
                case ops.AskSubset():
                    self._bind(i.var, T("list", g.ty(i.options).arg))
                case ops.AskEach():
                    self._bind(i.each, T("player"))
        for name, t in list(self.locals.items()):
            if has_none(t):
                self.locals[name] = T("list", T("cell")) if t.tag == "list" else T("cell")

    # ------------------------------------------------------------ instructions
    def emit(self, code: str) -> int:
        self.code.append(code)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def x(self, e, want: T | None = None) -> str:
        return self.gen.expr(e, self.sc, want)

    def compiled(self):
        self.instructions()
        end = self.here()
        self.gen.proc_ends.append(end)
        labels = "".join(f"case {i}: goto I{i};" for i in range(end + 1))
        out = [(f"static void P{self.k}(St& s) {{ Frame* f = &s.stack.back(); {self.unread.locals()}"
               f"switch (f->pc) {{ {labels} default: bail(); }}")]
        for i, c in enumerate(self.code):
            out.append(f"I{i}: {c}")
        out.append(f"I{end}: Iend: {self._end()} return; }}")
        return "\n".join(out)

    def _end(self) -> str:
        """The end of the procedure: its frame popped; the turn's goes on into the next
        turn where run() would begin it and call it again (turn_again,
        cxx/kernel_driver.hpp): at its start, in its frame made anew."""
        if self.k != self.gen.proc_index.get("turn"):
            return "s.stack.pop_back();"
        return f"if (turn_again(s, f)) {{ {self.unread.reset()}goto I0; }}"

    @property
    def nxt(self) -> int:
        """The index of the instruction after the one being written (each instruction's
        code is written with its targets in place: nothing is replaced in it later)."""
        return self.here() + 1

    # the step after an instruction (``_run``; the epoch of kept values renewed or not:
    # kernel_epoch.py), then on to ``target`` (an index, or "end": the end of the procedure)
    step = "STEP(s)"

    def go(self, target) -> str:
        return f"{self.step}; goto I{target};"

    def instructions(self) -> None:
        """Each instruction of the procedure's core (``core.ops``) as C++, by index."""
        for pc, ins in enumerate(self.core):
            self.step = self.gen.step_after(ins)
            self.printer(type(ins))(self, ins)
            assert self.here() == pc + 1, (self.name, pc, ins)

    @classmethod
    def printer(cls, kind: type):
        """The method that prints an instruction of this kind, ``_<Kind>``: one for each
        kind of core/ops.py (tests/test_statement_forms.py). A kind without one is a bug
        of Meeple's, not a construct the kernel leaves to Python (no Unsupported)."""
        got = getattr(cls, "_" + kind.__name__, None) if kind in ops.KINDS else None
        if got is None:
            raise TypeError(f"kernel.Proc prints no instruction {kind.__name__} (core/ops.py)")
        return got

    # ------------------------------------------------------------ control flow
    def _Jump(self, i: ops.Jump):
        self.emit(self.go(i.target))

    def _Branch(self, i: ops.Branch):
        self.emit(f"if ({self.x(i.cond, BOOL)}) {{ {self.go(self.nxt)} }} {self.go(i.target)}")

    def _ForInit(self, i: ops.ForInit):
        t = self.slots[i.it] = self.gen.ty(i.items)
        it, ix = self.field(i.it, t), self.field(i.ix, INT)
        self.gen.field_ranges[ix] = LOOP_INDEX   # (its only writers: this and ForStep)
        self.emit(f"f->{it} = {self.x(i.items, t)}; f->{ix} = 0; {self.go(self.nxt)}")

    def _ForStep(self, i: ops.ForStep):
        it, ix, var = self.field(i.it, self.slots[i.it]), self.field(i.ix, INT), self.field(i.var)
        self.emit(f"{{ I i_ = f->{ix}; if (i_ >= (I)f->{it}.size()) {{ {self.go(i.end)} }} "
                  f"f->{var} = f->{it}[(size_t)i_]; f->{ix} = i_ + 1; }} {self.go(self.nxt)}")

    def _WhileInit(self, i: ops.WhileInit):
        self.gen.field_ranges[self.field(i.count, INT)] = (0, i.limit + 1)   # (its only writers)
        self.emit(f"f->{self.field(i.count, INT)} = 0; {self.go(self.nxt)}")

    def _WhileTest(self, i: ops.WhileTest):
        cnt = self.field(i.count, INT)
        self.gen.field_ranges[cnt] = (0, i.limit + 1)   # (0, then 1 more a turn up to limit + 1)
        self.emit(f"if (!({self.x(i.cond, BOOL)})) {{ {self.go(i.end)} }} if (++f->{cnt} > {i.limit}) bail(); "
                  f"{self.go(self.nxt)}")

    def _Return(self, i: ops.Return):
        if i.value is not None:
            g = self.gen
            rt = g.typeref(g.c.procedures[self.name].result)
            self.emit(f"{{ {g.ct(rt)} v_ = {self._value(i.value, rt)}; if (f->ret >= 0) "
                      f"ret_{self.k}(s, f->ret, std::move(v_)); }} {self.go('end')}")
            return
        self.emit(self.go("end"))   # (i.end: the label of the end, I{end}, is Iend)

    def _EndGame(self, i: ops.EndGame):
        self.emit(f"s.end_req = true; STEP(s); f->pc = {self.nxt}; return;")

    # ------------------------------------------------------------ variables
    def _value(self, e, t: T) -> str:
        v = self.x(e, t)
        if t.tag == "int":
            return f"stored({v}, LIMIT)"
        return v

    def _appended(self, target: str, e, t: T, where: str | None = None) -> str | None:
        """``x = x + xs`` (``target``, ``e``) as an append to the list where it is (the
        same work counted, the same value: ``wappend`` copies a list another holds):
        the C++ statement, or None for any other assignment. ``where``: the target as
        written in the statement, if not as read."""
        if not (t.tag == "list" and e.node == "BinOp" and e.op == "+" and e.left.node in ("Var", "Attr")
                and self.gen.ty(e) == t and self.x(e.left, t) == target):
            return None
        r = e.right
        if r.node == "ListLit" and len(r.items) == 1:
            # (x = x + [v]: v pushed where x's list is, no list of one made and dropped)
            elem = t.arg if isinstance(t.arg, T) else None   # (a list's: always a type)
            return f"wappend1(s, {where or target}, {self.x(r.items[0], elem)});"
        return f"wappend(s, {where or target}, {self.x(e.right, t)});"

    def _SetLocal(self, i: ops.SetLocal):
        t = self.locals[i.var]
        target = f"f->{self.field(i.var)}"
        done = self._appended(target, i.value, t)
        made = self.keyed.let(self.here(), done or f"{target} = {self._value(i.value, t)};",
                              None if done else target)
        self.emit(f"{self.unread.let(self.here(), made)} {self.go(self.nxt)}")

    def _SetGlobal(self, i: ops.SetGlobal):
        t = self.gen.typeref(self.gen.c.vars[i.var].type)
        target = f"s.{ident('G', i.var)}"
        done = self._appended(target, i.value, t)
        self.emit(f"{done or f'{target} = {self._value(i.value, t)};'} {self.go(self.nxt)}")

    def _SetPlayerVar(self, i: ops.SetPlayerVar):
        g = self.gen
        t = g.typeref(g.c.vars[i.var].type)
        v = self._value(i.value, t)
        self.emit(f"{{ {g.ct(t)} v_ = {v}; s.{ident('P', i.var)}[nn({self.x(i.player)})] = std::move(v_); }} "
                  f"{self.go(self.nxt)}")

    def _SetActive(self, i: ops.SetActive):
        self.emit(f"{{ Id p_ = {self.x(i.value, T('player'))}; if (p_ < 0 || p_ >= NP) bail(); "
                  f"s.active = p_; }} {self.go(self.nxt)}")

    def _SetItemVar(self, i: ops.SetItemVar):
        g = self.gen
        if i.var:
            holder, ht = self.sc[i.var]
            kind = ht.arg
        else:
            holder = self.x(i.holder)
            kind = g.ty(i.holder).arg
        t = g.typeref(g.c.item_vars[kind][i.attr].type)
        at = g.layout.ivar(i.attr, "it_")
        done = self._appended(g.layout.ivar(i.attr, f"nn({holder})"), i.value, t, at)
        self.emit(f"{{ Id it_ = nn({holder}); {done or f'{at} = {self._value(i.value, t)};'} "
                  f"IDX_{ident('I', i.attr)}(s, it_); }} {self.go(self.nxt)}")

    def _StoreResult(self, i: ops.StoreResult):
        g = self.gen
        field = self.field(i.slot)
        if i.player is not None:
            t = g.typeref(g.c.vars[i.var].type)
            self.emit(f"{{ {g.ct(t)} v_ = std::move(f->{field}); s.{ident('P', i.var)}[nn({self.x(i.player)})] = "
                      f"std::move(v_); }} {self.go(self.nxt)}")
        elif i.active:
            self.emit(f"{{ Id p_ = f->{field}; if (p_ < 0 || p_ >= NP) bail(); s.active = p_; }} "
                      f"{self.go(self.nxt)}")
        else:
            self.emit(f"s.{ident('G', i.var)} = std::move(f->{field}); {self.go(self.nxt)}")

    # ------------------------------------------------------------ decisions
    @staticmethod
    def order(el: T, v: str, who: str, listed: bool = False) -> str:
        """A decision's options (the vector ``v``, or the list where ``listed``: itself
        where already in order) in their order for seat ``who``."""
        v = v if listed else f"std::move({v})"
        if Proc.by_value(el):
            return f"ordered({v})"
        return f"ordered_items(s, {v}, {who})" if el.tag == "item" else f"ordered_item_lists(s, {v}, {who})"

    @staticmethod
    def by_value(el: T) -> bool:
        """Whether options of type ``el`` are put in order by their values alone
        (``ordered``), not as a seat sees items (``order``)."""
        return el.tag != "item" and not (el.tag == "list" and el.arg.tag == "item")

    def _options(self, s) -> tuple[str, T]:
        t = self.gen.ty(s.options)
        if t.tag != "list":
            raise Unsupported(f"options of a {t}")
        return self.x(s.options, t), t

    def _site(self, var: str, el: T, verb, alone, said=None) -> tuple[int, str]:
        g = self.gen
        ctype = f"List<{g.ct(el)}>"
        if ctype not in g.opt_types:
            g.opt_types[ctype] = el
        o = f"o{list(g.opt_types).index(ctype)}"
        k = len(g.sites)
        g.sites.append({"kind": "one", "opt": o, "py": g.py_conv(el), "el": el, "field": self.field(var),
                        "type": type_code(el),
                        "verb": verb, "alone": alone, "var": var, "proc": self.k, "pc": self.here() + 1})
        if said is not None:   # choose x, how: the local set to the verb of the move made
            g.sites[-1].update(said=self.field(said), var_said=said)
        return k, o

    def _chooser(self, s) -> str:
        if s.chooser is None:
            return "s.active"
        return self.x(s.chooser, T("player"))

    def _Ask(self, s):
        if self._product_ask(s):   # (options kept as a product: kernel_products.py)
            return
        t = self.gen.ty(s.options)
        el = t.arg
        if t.tag != "list" or not isinstance(el, T):
            raise Unsupported(f"options of a {t}")
        if not s.when:
            k, o = self._site(s.var, el, s.verb, s.alone, s.said)
            plain = self._plain_options(s.options)
            body = self._ask_body(el, s.alone, o, plain)
            if s.alone is None and s.said is None and plain and self.by_value(el) \
                    and self.here() not in self.keyed.asks:
                self._drawn_here(s, el, k, o, body)
                return
            body = f"{self.keyed.counted(self.here(), body)} s.site = {k};"
        opts, t = self._options(s)
        ce = self.gen.ct(el)
        if s.when:   # verbs offered under a condition: a site per set of verbs offered
            body = self._ask_when(s, el)
        # (in a batch of random playouts the move is drawn and taken here and the
        # procedure goes on, where it returned to the playout's loop, which took the
        # move and ran the rules again from here: the same steps, cxx/kernel_playout.hpp)
        self.emit(f"{{ {self._conds(s)}List<{ce}> all_ = {opts}; Id who_ = {self._chooser(s)}; "
                  f"if (who_ < 0 || who_ >= NP) bail(); {body} s.player = who_; }} "
                  f"STEP(s); f->pc = {self.nxt}; if (AUTO && auto_take(s)) goto I{self.nxt}; return;")

    def _drawn_here(self, s, el, k: int, o: str, body: str) -> None:
        """``_Ask``'s C++ for a decision whose options are values in their order, none of
        them none (``body`` puts them in ``s.opts``): in a batch of random playouts the
        move is drawn from them where they were made (a comprehension's buffer, or the
        list) and the procedure goes on (cxx/kernel_playout.hpp, ``auto_pick``); they are
        put in the state only where the playout stops there, or for every other caller."""
        g, e = self.gen, s.options
        ce, nxt = g.ct(el), self.nxt
        bits = g.option_bits(e, self.sc)   # (options kept as bits: kernel_bit_picks.py)
        if bits is not None:
            self.emit(g.drawn_bits(bits, (ce, k, o, self.field(s.var), nxt, self._chooser(s)), body))
            return
        made = g.made_list(e, self.sc) if e.node == "Comprehension" and id(e) not in self.sc else None
        if isinstance(made, tuple) and made[0] in ("grow", "build"):
            kind, _, out, n, mbody = made
            make = (f"Grow<{ce}> {out}; size_t {n} = 0; {mbody} {out}.resize({n});" if kind == "grow" else
                    f"Build<{ce}> {out}; {mbody}")
            size, data, listed = (f"{out}.n", f"{out}.d", f"{out}.list()") if kind == "grow" else \
                (f"{out}.size()", f"{out}.data()", f"{out}.list()")
        else:
            whole = self.x(e, self.gen.ty(e)) if made is None else g.made_whole(e, made)
            make, size, data, listed = f"List<{ce}> all_ = {whole};", "all_.size()", "all_", "all_"
        self.emit(drawn_in_place(make, size, f"{data}[i_]", ("", listed),
                                 (ce, k, o, self.field(s.var), nxt, self._chooser(s)), body))

    def _conds(self, s) -> str:
        """The C++ that sets ``m_`` to the verbs offered under a condition (a bit per
        condition, in order), evaluated before the options as core/reference.py does."""
        conds = [c for c in s.when if c is not None]
        if not conds:
            return ""
        return "int m_ = 0; " + "".join(f"if ({self.x(c, BOOL)}) m_ |= {1 << i}; " for i, c in enumerate(conds))

    def _ask_when(self, s, el) -> str:
        """The decision's options where verbs are offered under a condition: a site for
        each set of verbs offered (at most 3 conditions: 8 sites), chosen by ``m_``, so
        that the state of a pending decision (its site) says which verbs it offers."""
        several = isinstance(s.alone, tuple)
        verbs = s.alone if several else (s.alone,)
        conds = [i for i, c in enumerate(s.when) if c is not None]
        if len(conds) > 3:
            raise Unsupported("more than 3 verbs offered under a condition in one decision")
        cases = []
        for m in range(1 << len(conds)):
            offered = tuple(v for i, v in enumerate(verbs)
                            if i not in conds or m >> conds.index(i) & 1)
            alone = None if not offered else offered if several else offered[0]
            k, o = self._site(s.var, el, s.verb, alone, s.said)
            cases.append(f"case {m}: {{ {self._ask_body(el, alone, o)} s.site = {k}; break; }}")
        return f"switch (m_) {{ {' '.join(cases)} default: bail(); }}"

    def _plain_options(self, e) -> bool:
        """Whether the options ``e`` are made in their order, no none among them (cells
        of a board in the board's order, filtered; tuples of loops' variables over
        ascending lists: kernel_ordered.py)."""
        return ascending_options(self.gen, e)   # (and others made in order: kernel_ordered.py)

    def _ask_body(self, el, alone, o: str, plain: bool = False) -> str:
        """The C++ that puts a decision's options (``all_``, for ``who_``) into ``s.opts.o``,
        the moves without an object ``alone`` first (a none each); ``plain``: the
        options hold no none and are in their order (``_plain_options``)."""
        ce = self.gen.ct(el)
        order = self.order(el, "v_", "who_")
        if plain and alone is not None and not isinstance(alone, tuple) and el.tag == "cell":   # (ordered)
            return f"s.opts.{o} = none_then(all_, none_of<{ce}>());"
        if isinstance(alone, tuple):   # several moves without an object: a none each
            return (f"std::vector<{ce}> v_; v_.reserve(all_.size()); "
                    f"for (const {ce}& x_ : all_) if (!is_none(x_)) v_.push_back(x_); "
                    f"List<{ce}> o_ = {order}; std::vector<{ce}> w_; w_.reserve(o_.size() + {len(alone)}); "
                    f"w_.insert(w_.end(), {len(alone)}, none_of<{ce}>()); w_.insert(w_.end(), o_.begin(), o_.end()); "
                    f"s.opts.{o} = List<{ce}>(std::move(w_));")
        if alone is not None and self.by_value(el):
            return (f"Vec<{ce}> w_(all_.size() + 1); {ce}* q_ = w_.data(); *q_++ = none_of<{ce}>(); "
                    f"for (const {ce}& x_ : all_) if (!is_none(x_)) *q_++ = x_; "
                    f"w_.resize((size_t)(q_ - w_.data())); s.opts.{o} = none_then_ordered(std::move(w_));")
        if alone is not None:
            return (f"std::vector<{ce}> v_; v_.reserve(all_.size()); "
                    f"for (const {ce}& x_ : all_) if (!is_none(x_)) v_.push_back(x_); "
                    f"List<{ce}> o_ = {order}; std::vector<{ce}> w_; w_.reserve(o_.size() + 1); "
                    f"w_.push_back(none_of<{ce}>()); w_.insert(w_.end(), o_.begin(), o_.end()); "
                    f"s.opts.{o} = List<{ce}>(std::move(w_));")
        order = self.order(el, 'all_', 'who_', True)
        if self.by_value(el) and plain:   # (in order already: taken as made)
            return f"if (all_.empty()) bail(); if (COUNTING) COUNTED = (long long)all_.size(); else s.opts.{o} = all_;"
        if self.by_value(el):   # (ordered(all_): the last decision of a perft, counted alone)
            return (f"if (all_.empty()) bail(); if (COUNTING) COUNTED = (long long)count_ordered(all_); "
                    f"else s.opts.{o} = {order};")
        return f"if (all_.empty()) bail(); s.opts.{o} = {order};"

    def _AskSubset(self, s):
        g = self.gen
        opts, t = self._options(s)
        el = t.arg
        ce = g.ct(el)
        k, o = self._site(s.var, T("list", el), s.verb, None)
        var = self.field(s.var)
        if s.where is not None:
            keep = f"f->{var} = sub_; if ({self.x(s.where, BOOL)}) ok_.push_back(sub_);"
        else:
            keep = "ok_.push_back(sub_);"
        self.emit(f"{{ List<{ce}> all_ = {opts}; List<List<{ce}>> subs_ = subsets(all_); "
                  f"std::vector<List<{ce}>> ok_; for (const List<{ce}>& sub_ : subs_) {{ {keep} }} "
                  f"if (ok_.empty()) bail(); Id who_ = {self._chooser(s)}; if (who_ < 0 || who_ >= NP) bail(); "
                  f"s.opts.{o} = {self.order(T('list', el), 'ok_', 'who_')}; s.site = {k}; s.player = who_; }} "
                  f"STEP(s); f->pc = {self.nxt}; return;")

    def _AskEach(self, s):
        """``choose v(p) from ... for each p in seats``: every seat's options (``p`` bound
        to it meanwhile, then as it was), asked at once (Runtime.ask_each)."""
        g = self.gen
        t = g.ty(s.options)
        el = t.arg
        ce = g.ct(el)
        vt = g.typeref(g.c.vars[s.var].type)
        if g.ct(vt) != (ce if s.picks is None else g.ct(T("list", el))):
            raise Unsupported(f"'choose {s.var}(...)' of options that are not its type")
        k, j = self._each_site(s.var, el, s.verb)
        g.sites[k]["picks"] = s.picks
        # (fewer options than picks: Python says which rule broke, see picks.enough)
        few = "" if s.picks is None else f" if ((I)o_.size() < {s.picks}) bail();"
        each = self.field(s.each)
        seats = self.x(s.seats, T("list", T("player")))
        opts = self.x(s.options, t)
        self.emit(f"{{ List<Id> seats_ = {seats}; if (seats_.empty()) bail(); Id before_ = f->{each}; s.each_n = 0; "
                  f"for (Id seat_ : seats_) {{ if (seat_ < 0 || seat_ >= NP || each_index(s, seat_) >= 0) bail(); "
                  f"f->{each} = seat_; List<{ce}> o_ = {opts}; if (o_.empty()) bail(); "
                  f"o_ = {self.order(el, 'o_', 'seat_', True)};{few} "
                  f"s.opts.e{j}[s.each_n] = o_; s.each_seats[s.each_n++] = seat_; }} "
                  f"f->{each} = before_; s.nwaiting = s.each_n; for (int k_ = 0; k_ < s.each_n; ++k_) "
                  f"s.waiting[k_] = s.each_seats[k_]; s.nchosen = 0; s.simul = true; s.site = {k}; "
                  f"s.player = s.each_seats[0]; }} STEP(s); f->pc = {self.nxt}; return;")

    def _each_site(self, var: str, el: T, verb) -> tuple[int, int]:
        g = self.gen
        ctype = g.ct(el)
        if ctype not in g.each_types:
            g.each_types[ctype] = el
        j = list(g.each_types).index(ctype)
        k = len(g.sites)
        g.sites.append({"kind": "each", "each": j, "py": g.py_conv(el), "el": el, "type": type_code(el),
                        "verb": verb, "alone": None, "var": var, "proc": self.k, "pc": self.here() + 1})
        return k, j

    def _Best(self, s):
        g = self.gen
        opts, t = self._options(s)
        el = t.arg
        var = self.field(s.var)
        keys = [self.x(k) for k in s.keys]
        ktypes = [g.ty(k) for k in s.keys]
        for kt in ktypes:
            if kt.tag not in ("int", "bool"):
                raise Unsupported("a 'best' key that is not int or bool")
        nkeys = len(keys)
        comp = "".join(f"k_[{i}] = (I)nn((I)({kx})); " for i, kx in enumerate(keys))
        ce = g.ct(el)
        if s.tie == "choose":
            k, o = self._site(s.var, el, "tie", None)
            tie = (f"else {{ Id who_ = {self._chooser(s)}; if (who_ < 0 || who_ >= NP) bail(); "
                   f"s.opts.{o} = {self.order(el, 'tied_', 'who_')}; s.site = {k}; s.player = who_; "
                   f"STEP(s); f->pc = {self.nxt}; return; }}")
        elif s.tie == "random":
            tie = f"else {{ {self.tie_random(var, el)} }}"
        else:
            tie = f"else {{ f->{var} = tied_[0]; }}"
        code = (f"{{ List<{ce}> all_ = {opts}; if (all_.empty()) bail(); I best_[{nkeys or 1}]; bool have_ = false; "
                f"std::vector<{ce}> tied_; for (const {ce}& o_ : all_) {{ f->{var} = o_; I k_[{nkeys or 1}]; {comp}"
                f"int c_ = have_ ? 0 : 1; for (int i_ = 0; i_ < {nkeys} && !c_ && have_; ++i_) "
                f"c_ = k_[i_] > best_[i_] ? 1 : k_[i_] < best_[i_] ? -1 : 0; "
                f"if (c_ > 0) {{ have_ = true; for (int i_ = 0; i_ < {nkeys}; ++i_) best_[i_] = k_[i_]; "
                f"tied_.clear(); tied_.push_back(o_); }} else if (c_ == 0) tied_.push_back(o_); }} "
                f"if (tied_.size() == 1) {{ f->{var} = tied_[0]; }} {tie} }}")
        self.emit(self._chancy(code) if s.tie == "random" else f"{code} {self.go(self.nxt)}")

    def _facing(self, s) -> str:
        """The facing a move or flip gives (``Builder.face`` of core.reference): -1 as the
        place says, else a mask of the seats that see the item."""
        if s.face == ops.AS_PLACE:
            return "(I)-1"
        if s.face == ops.NOBODY:
            return "(I)0"
        return f"((I)1 << nn({self.x(s.seen_by, T('player'))}))"

    def _Move(self, s):
        if s.unsure:
            raise Unsupported("a move whose kinds are known only when it is played")
        to = self.x(s.to)
        what = self.x(s.what)
        f = self._facing(s)
        if s.many:
            self.emit(f"{{ Id to_ = {to}; List<Id> w_ = {what}; I f_ = {f}; for (Id it_ : w_) mv(s, nn(it_), to_, f_); }} "
                      f"{self.go(self.nxt)}")
        else:
            zone = self._found_in(s.what)
            put = "mv(s, nn(w_), to_, f_)" if zone is None else f"mv_in(s, nn(w_), {zone}, to_, f_)"
            self.emit(f"{{ Id to_ = {to}; Id w_ = {what}; I f_ = {f}; {put}; }} {self.go(self.nxt)}")

    def _found_in(self, e) -> str | None:
        """The C++ of the zone named in the rules (a constant, no local: kernel_names.py)
        whose items the item ``e`` is found among, ``first(m for m in items(Z) if ...)``
        or ``last(...)``: the zone it is in when it is moved (``mv_in``: the place to go
        is evaluated before it, and nothing moves between); else None."""
        if e.node != "Aggregate" or e.func not in ("first", "last") or len(e.comp.clauses) != 1:
            return None
        cl = e.comp.clauses[0]
        it = cl.iter
        if e.comp.elem.node != "Var" or e.comp.elem.name != cl.var or it.node != "Call" \
                or it.func != "items" or len(it.args) != 1 or it.args[0].node != "Var" \
                or self.gen.facts.call_kind(it) != "builtin":
            return None
        zone = self.x(it.args[0])   # (a name: its C++ as the names give it, none printed twice)
        return zone if _ZONE_NAMED.fullmatch(zone) else None

    def _items(self, s) -> str:
        """The C++ list of the items a statement moves, flips or shows (one, or ``many``)."""
        what = self.x(s.what)
        return what if s.many else f"List<Id>(Vec<Id>{{{what}}})"

    def _Flip(self, s):
        items = self._items(s)
        self.emit(f"{{ List<Id> w_ = {items}; I f_ = {self._facing(s)}; for (Id it_ : w_) s.facing[nn(it_)] = f_; }} "
                  f"{self.go(self.nxt)}")

    def _RevealTo(self, s):
        # (reference._show_to: a seat that does not know the item comes to know it, with
        # those that do; it then lies face down for them)
        items = self._items(s)
        seat = self.x(s.seat, T('player'))
        self.emit(f"{{ List<Id> w_ = {items}; Id p_ = (Id)nn({seat}); for (Id it_ : w_) {{ Id i_ = nn(it_); "
                  f"if (!sees(s, i_, p_)) {{ I m_ = (I)1 << p_; for (Id q_ = 0; q_ < NP; ++q_) "
                  f"if (sees(s, i_, q_)) m_ |= (I)1 << q_; s.facing[i_] = m_; }} }} }} {self.go(self.nxt)}")

    def _Reveal(self, s):
        self.emit(f"{{ s.revealed[nn({self.x(s.zone)})] = 1; }} {self.go(self.nxt)}")

    def _Deal(self, s):
        base = s.base
        src = self.x(s.source)
        if s.count is None:
            body = (f"I i_ = 0; while (s.z.len[z_] > 0) {{ mv(s, s.z.tail[z_], {base} + order_[i_ % NP]); ++i_; }}")
        else:
            body = (f"if (s.z.len[z_] < {s.count} * NP) bail(); for (int c_ = 0; c_ < {s.count}; ++c_) "
                    f"for (int k_ = 0; k_ < NP; ++k_) mv(s, s.z.tail[z_], {base} + order_[k_]);")
        self.emit(f"{{ Id z_ = nn({src}); Id order_[NP]; for (int k_ = 0; k_ < NP; ++k_) "
                  f"order_[k_] = (Id)pmod(s.active + k_ * DIR); {body} }} {self.go(self.nxt)}")

    def _Fill(self, s):
        cells = self.gen.tables.id_list(("BOARD", s.board), list(s.cells))
        self.emit(f"{{ Id z_ = nn({self.x(s.source)}); for (Id c_ : {cells}) if (s.z.len[c_] == 0) {{ "
                  f"if (s.z.len[z_] == 0) bail(); mv(s, s.z.tail[z_], c_); }} }} {self.go(self.nxt)}")

    def _Make(self, s):
        g = self.gen
        fields = g.c.item_vars.get(s.kind, {})
        vals, sets = [], []
        for k, (name, e, _) in enumerate(s.sets):
            t = g.typeref(fields[name].type)
            vals.append(f"{g.ct(t)} v{k}_ = {self._value(e, t)};")
            sets.append(f"{g.layout.ivar(name, 'it_')} = std::move(v{k}_); IDX_{ident('I', name)}(s, it_);")
        # (an empty supply bails: Python then gives the rule error)
        self.emit(f"{{ Id to_ = {self.x(s.to)}; {' '.join(vals)} if (s.z.len[{s.supply}] == 0) bail(); "
                  f"Id it_ = s.z.tail[{s.supply}]; mv(s, it_, nn(to_), {self._facing(s)}); {' '.join(sets)} }} "
                  f"{self.go(self.nxt)}")

    def _Unmake(self, s):
        items = self._items(s)
        self.emit(f"{{ List<Id> w_ = {items}; for (Id it_ : w_) mv(s, nn(it_), {s.supply}); }} {self.go(self.nxt)}")

    def _Permute(self, s):
        # (anything core.reference.permutation refuses bails: Python then gives the error;
        # a place twice is found by pairs for a few places, by a mark per zone for more)
        twice = ("if (n_ <= 32) { for (size_t i_ = 0; i_ < n_; ++i_) { Id a_ = nn(f_[i_]), b_ = nn(t_[i_]); "
                 "for (size_t j_ = 0; j_ < i_; ++j_) if (f_[j_] == a_ || t_[j_] == b_) bail(); } } "
                 "else { std::vector<char> in_(NZ, 0), out_(NZ, 0); for (size_t i_ = 0; i_ < n_; ++i_) { "
                 "Id a_ = nn(f_[i_]), b_ = nn(t_[i_]); if (in_[a_] || out_[b_]) bail(); in_[a_] = out_[b_] = 1; } }")
        # the stacks' items, in order, in a buffer on the stack (on the heap when many)
        gather = ("size_t m_ = 0; for (size_t i_ = 0; i_ < n_; ++i_) m_ += (size_t)s.z.len[f_[i_]]; "
                  "Id sb_[64]; size_t sa_[33]; std::vector<Id> hb_; std::vector<size_t> ha_; Id* it_ = sb_; "
                  "size_t* at_ = sa_; if (n_ > 32 || m_ > 64) { hb_.resize(m_); ha_.resize(n_ + 1); "
                  "it_ = hb_.data(); at_ = ha_.data(); } m_ = 0; for (size_t i_ = 0; i_ < n_; ++i_) { at_[i_] = m_; "
                  "for (Id k_ = s.z.head[f_[i_]]; k_ >= 0; k_ = s.z.nxt[k_]) it_[m_++] = k_; } at_[n_] = m_;")
        self.emit(f"{{ List<Id> f_ = {self.x(s.what)}; List<Id> t_ = {self.x(s.to)}; size_t n_ = f_.size(); "
                  f"if (t_.size() != n_) bail(); {twice} {gather} "
                  f"for (size_t i_ = 0; i_ < n_; ++i_) for (size_t k_ = at_[i_]; k_ < at_[i_ + 1]; ++k_) "
                  f"mv(s, it_[k_], t_[i_], s.facing[it_[k_]]); }} {self.go(self.nxt)}")

    def _Log(self, s):
        vals = [self.x(p[1]) for p in s.parts if isinstance(p, tuple)]
        body = " ".join(f"(void)({v});" for v in vals)
        self.emit(f"{{ {body} }} {self.go(self.nxt)}")

    def _call(self, s, ret: int | None = None) -> str:
        """A call's frame: the arguments computed in order, then the frame pushed (the
        caller stands at its next instruction, as ``_run`` leaves it); ``ret``: where
        its value goes (see returns_code)."""
        g = self.gen
        d = g.c.procedures[s.proc]
        k = g.proc_index[s.proc]
        tmp, sets = [], []
        for i, (p, a) in enumerate(zip(d.params, s.args)):
            t = g.param_type(p)
            tmp.append(f"{g.ct(t)} a{i}_ = {self.x(a, t)};")
            sets.append(f"nf_.{g.frame_field(k, p.name, t)} = std::move(a{i}_);")
        if ret is not None:
            sets.append(f"nf_.ret = {ret};")
        return (f"{{ {' '.join(tmp)} f->pc = {self.nxt}; s.push({k}); Frame& nf_ = s.stack.back(); "
                f"{' '.join(sets)} }} {self.step}; return;")

    def _Call(self, s: ops.Call):
        """A call (for a result: the callee's frame knows where its value goes, the
        caller's local ``slot``; a fresh one is set to none first)."""
        if s.slot is None:
            self.emit(self._call(s))
            return
        g = self.gen
        rt = g.typeref(g.c.procedures[s.proc].result)
        if s.fresh:
            self.locals[s.slot] = rt
        field = self.field(s.slot, rt if s.fresh else None)
        code = len(g.returns)
        g.returns.append((self.k, s.slot, field, g.proc_index[s.proc], rt))
        clear = f"f->{field} = {g.none_of(rt) if rt.tag in ('int', 'str', *IDS) else g.ct(rt) + '()'}; " \
            if s.fresh else ""
        self.emit(clear + self._call(s, code))


# ------------------------------------------------------------ building and loading

def load_or_build(source: str, on_build=None):
    """The extension module of this source: (module, seconds spent building; 0.0 when
    found in this process or on disk). Raises KernelError when it cannot be built or
    loaded. Where the default options serve, a quick build may serve first: see
    kernel_quick.py; else (``MEEPLE_KERNEL_QUICK=0``) the optimised kernel is built at
    once as the background would build it, guided by a profile (kernel_pgo.py), so that
    the kernel kept under its key is the same either way. Options given
    (``MEEPLE_KERNEL_CXXFLAGS``) are built as they are."""
    quick = kernel_quick.plan(source)
    if quick is not None:
        return quick.obtain(on_build)
    return obtain(source, flags(), on_build, builder=None if given_flags() else kernel_pgo.build)


def build(prog, on_build=None) -> Kernel:
    """The kernel of a program (raises Unsupported or KernelError)."""
    gen = Gen(prog)
    try:
        source = gen.source()
    except RecursionError:
        raise Unsupported("expressions nested so deeply") from None
    if len(source) > MAX_SOURCE:
        raise Unsupported(f"a program of more than {MAX_SOURCE:,} characters of C++")
    mod, seconds = load_or_build(source, on_build)
    return Kernel(mod, gen, seconds)


class Kernel:
    """A loaded kernel and what the Python side needs of its decisions."""

    def __init__(self, module, gen: Gen, seconds: float):
        self.module = module
        self.start = module.start
        self.load = module.load
        self.build_seconds = seconds
        self.fallbacks = 0   # what the kernel could not decide (moves, setups, perfts...)
        # per decision (choose statement): its option type code, verb and option alone
        self.sites = [(s["type"], s["verb"], s["alone"]) for s in gen.sites]
        self.each = [s["kind"] == "each" for s in gen.sites]   # simultaneous decisions
        self.items = ["item" in s["type"] for s in gen.sites]   # decisions among items
