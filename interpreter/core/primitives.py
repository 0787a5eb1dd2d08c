"""What each built-in function means when it runs, in one place for the interpreter: its
Python form (the text ``codegen.ExprCompiler`` writes for a call, the straightforward code
and the fast code alike), its native form (the C++ text ``kernel.Gen.builtin`` writes),
for an aggregate its forms over a comprehension (Python, C++, and the fast code's loop of
statements), what the fast code may know of its integer value (``span``) and whether its
Python form calls a function (``calls``: the fast code keeps a value computed once only
where computing it again calls, see core/inline.py python_calls), and whether it reads
the runtime ``R`` or gives it to a helper (``reads_r``, ``gives_r``: the fast code's
printer notes them where it writes a call, see codegen.ExprCompiler). Keyed by
the names of ``dsl/builtins.py``, which
holds everything else about a built-in (arities, type rule, what the optimiser may assume,
its entry of the language reference); tests/test_builtins.py checks that both tables name
the same built-ins and that every engine implements each one.

A form is a text with the arguments' texts as ``{0}``, ``{1}`` (in C++, ``{i0}``: the
argument as an int, ``{S}``: the state given to a helper that reads it; in Python, a
table of the runtime R read as ``{R.zones}``), or a function of the call (``PyCall``,
``CxxCall``) for what a text cannot say (in C++, a read of a zone's items is
``CxxCall.zone``'s: the kernel notes what a form reads of the state where it writes it,
native/kernel_reads.py); ``by_arity`` and ``by_list`` choose among forms. A native form raises
``NotNative`` where the kernel does not cover a use (``KERNEL_GAPS`` lists them, and the
program then runs in Python, saying why: see kernel.py)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from string import Formatter
from types import SimpleNamespace
from typing import NamedTuple

from ...dsl.types import T, type_code
from ..play import helpers

_INT = T("int")
# the element types of lists whose first or last element the kernel gives (one number, id
# or text per value, with a none: kernel_types.IDS and texts)
_FLAT = ("int", "str", "player", "item", "cell", "zone", "enum", "none")
# the types whose values are ids (ints) or none: sorted by helpers.sort_key, they are in
# the plain order of ints, none first (helpers._sort_ids)
_ID_TYPES = ("item", "cell", "zone", "player")

# uses of built-ins the kernel does not cover: a program with one runs in Python (the
# reason reported once, see kernel.py). What the reason starts with.
KERNEL_GAPS = {
    "first": "first() of a list of bool or of lists, also first(...) over a comprehension: the "
             "kernel has no none of these types",
    "last": "last() of a list of bool or of lists, also last(...) over a comprehension: the "
            "kernel has no none of these types",
}


class NotNative(Exception):
    """A use of a built-in the kernel does not cover (``str(e)`` says what)."""


# the tables of the runtime R a Python form reads, each as the field ``{R.t}`` (PyCall.fill
# writes it; the fast code's printer marks it: codegen.ExprCompiler)
FORM_TABLES = ("zones", "facing")
# a zone's top item, whether a zone holds items, whether it is empty (PyCall.zone_top):
# the text before the zone's read and after its index. The fast code may read them from
# a table of every zone's top instead (codegen_text.tabulate_tops)
TOP, HOLDS, EMPTY = "top", "holds", "empty"
ZONE_TOPS = {TOP: ("(", " or _NO_ITEM)[-1]"), HOLDS: ("(not not ", ")"), EMPTY: ("(not ", ")")}


class PyCall:
    """A call being compiled to Python: the compiler, the call, its arguments' texts.
    ``tables``: the text of each of R's tables a form reads (FORM_TABLES)."""

    tables = SimpleNamespace(**{t: f"R.{t}" for t in FORM_TABLES})

    def __init__(self, cg, e, args: list[str]):
        self.cg, self.e, self.a = cg, e, args
        self.name = e.func

    def ty(self, i: int) -> T:
        return self.cg.ty(self.e.args[i])

    @property
    def list0(self) -> bool:
        return bool(self.e.args) and self.ty(0).tag == "list"

    def fill(self, text: str) -> str:
        return text.format(*self.a, R=self.tables)

    def zone_top(self, kind: str) -> str:
        """A zone's top item, whether it holds items or is empty (ZONE_TOPS), the zone
        the first argument."""
        head, tail = ZONE_TOPS[kind]
        return self.fill(f"{head}{{R.zones}}[{{0}}]{tail}")


class CxxCall:
    """A call being written in C++: the kernel's writer, the call, the names in scope.
    An argument's text is written when asked for, in the order asked."""

    def __init__(self, gen, e, sc: dict):
        self.gen, self.e, self.sc = gen, e, sc
        self.name = e.func

    def arg(self, i: int = 0, want: T | None = None) -> str:
        return self.gen.expr(self.e.args[i], self.sc, want)

    def ty(self, i: int) -> T:
        return self.gen.ty(self.e.args[i])

    @property
    def list0(self) -> bool:
        return bool(self.e.args) and self.ty(0).tag == "list"

    def fill(self, text: str) -> str:
        """``text`` with its arguments' C++ (``{0}``, ``{i0}``: as an int) and the state
        (``{S}``: given to a helper that reads more of it than the zones' items, noted
        where the writer asks, native/kernel_reads.py)."""
        fields = {}
        for _, name, _, _ in Formatter().parse(text):
            if name == "S":
                fields[name] = self.gen.state(self.sc)
            elif name is not None and name not in fields:
                fields[name] = self.arg(int(name.lstrip("i")), _INT if name.startswith("i") else None)
        return text.format(*(fields.get(str(i), "") for i in range(len(self.e.args))),
                           **{k: v for k, v in fields.items() if not k.isdigit()})

    def zone(self, op: str, more: str = "") -> str:
        """The read ``op`` of the zone or cell of the first argument (``more``: a text of
        the arguments after it, ``, `` first), written and noted by the kernel's writer
        (native/kernel_reads.py: through the zones' recorder where a keep asks)."""
        zone = self.arg()
        return self.gen.zone_read(self.sc, op, zone, self.fill(more) if more else "")


class PyOver:
    """An aggregate over a comprehension being compiled to Python: its element's text
    (``{el}``) and its loops' (``{loops}``)."""

    def __init__(self, cg, e, el: str, loops: str):
        self.cg, self.e, self.el, self.loops = cg, e, el, loops
        self.name = e.func

    def fill(self, text: str) -> str:
        return text.format(el=self.el, loops=self.loops)


class PyLoop:
    """An aggregate being compiled to the statements of a loop (the fast code's statement
    form, ``codegen.ExprCompiler._s_loop``): ``{r}`` the name of its value, ``{el}`` the
    element's text (lines apart by newlines)."""

    def __init__(self, cg, name: str, r: str, el: str | None):
        self.cg, self.name, self.r, self.el = cg, name, r, el

    def fill(self, text: str) -> str:
        return text.format(r=self.r, el=self.el)


class CxxOver:
    """An aggregate over a comprehension being written in C++: ``each(make)`` writes the
    comprehension's loops around ``make(names in scope)``, ``elem(inner, want)`` its
    element."""

    def __init__(self, gen, e, sc: dict):
        self.gen, self.e, self.sc, self.comp = gen, e, sc, e.comp
        self.name = e.func

    def each(self, make: Callable[[dict], str], whole: bool = False, passes=None) -> str:
        """``whole``: ``make`` never stops the loops; ``passes``: false where ``make``
        does nothing (see Gen.loops)."""
        return self.gen.loops(self.comp, self.sc, make, whole=whole, passes=passes)

    def elem(self, inner: dict, want: T | None) -> str:
        return self.gen.expr(self.comp.elem, inner, want)


Form = str | Callable


def emit(form: Form, call) -> str:
    """The text of a call by a form (see the module's doc)."""
    return call.fill(form) if isinstance(form, str) else form(call)


def by_arity(*forms: Form) -> Callable:
    """The form for the call's number of arguments, from 1."""
    return lambda call: emit(forms[len(call.e.args) - 1], call)


def by_list(on_list: Form, on_zone: Form) -> Callable:
    """One form where the first argument is a list, another where it is a zone or cell."""
    return lambda call: emit(on_list if call.list0 else on_zone, call)


Span = tuple[int, int]   # the least and the most an integer may be


# what a line of an aggregate's loop step does besides its text (``StepLine.kind``):
# opens a block (``if c:``, its lines one deeper), or leaves every loop (``break``)
IF, BREAK = "if", "break"


class StepLine(NamedTuple):
    """A line of an aggregate's loop step (``Primitive.step``): its text (``{r}`` the
    name of the aggregate's value, ``{el}`` the element's text), how many blocks of the
    step are around it, and what it does besides (IF, BREAK, or None)."""
    text: str
    depth: int = 0
    kind: str | None = None


def _decided(cond: str, value: str) -> tuple[StepLine, ...]:
    """any, all: where an element meets ``cond``, the value is ``value``, and the loops
    stop."""
    return StepLine(f"if {cond}:", 0, IF), StepLine(f"{{r}} = {value}", 1), StepLine("break", 1, BREAK)


@dataclass(frozen=True)
class Primitive:
    python: Form        # the reference meaning: the Python text of a call
    cxx: Form           # the native form: the C++ text of a call (kernel.Gen.builtin)
    over: str = ""      # an aggregate's Python text over a comprehension: {el} {loops}
    cxx_over: Form = ""  # an aggregate's C++ text over a comprehension (a CxxOver's)
    # an aggregate as a loop of statements (the fast code, a PyLoop's): its value before
    # the loop, the lines that add an element (StepLines; a BREAK leaves every loop),
    # the line after the loop
    step_start: str = ""
    step: tuple[StepLine, ...] = ()
    step_end: str = ""
    # the least and the most its value may be, whatever the state, from its integer
    # arguments' (each a Span or None) and the number of players; None: not known
    # (what the printers know of integers, see core/bounds.py: int_range)
    span: Callable[[list, int], Span | None] | None = None
    # whether its Python form in the fast code calls a function (a helper, a method, a
    # built-in of Python: ``len(...)``), not only an operator, an attribute or a table's
    # read; by the number of arguments, from 1, where that differs (a tuple). An aggregate
    # over a comprehension always calls. What the fast code keeps computed once for two
    # uses where it calls (codegen.ExprCompiler._expanded, core/inline.py python_calls)
    calls: bool | tuple[bool, ...] = field(kw_only=True)
    # whether its Python form reads the runtime ``R`` (the state, the players' count and
    # their direction) or gives it to a helper: True, or "place" where its first
    # argument is a zone or a cell (a list: it does not). What the fast code knows of a
    # rule function that reads nothing of R (compile_functions: tabled and kept
    # functions; codegen.ExprCompiler.wrote_r)
    reads_r: bool | str = False
    # whether its Python form gives R to a helper (which may count work: the fast code
    # then counts the work budget on R itself, see codegen_text.localize)
    gives_r: bool = False

    @property
    def step_breaks(self) -> bool:
        """Whether its loop step leaves the loop (a BREAK line): the loops stop at the
        first element that decides."""
        return any(line.kind == BREAK for line in self.step)

    def calls_with(self, n: int) -> bool:
        """Whether its Python form calls a function, given ``n`` arguments."""
        return self.calls if isinstance(self.calls, bool) else self.calls[n - 1]

    def reads_r_with(self, list0: bool) -> bool:
        """Whether its Python form reads R, its first argument a list (``list0``) or not."""
        return self.reads_r is True or (self.reads_r == "place" and not list0)


def _abs_span(spans: list, n: int) -> Span | None:
    r = spans[0]
    if r is None:
        return None
    return (0 if r[0] <= 0 <= r[1] else min(abs(r[0]), abs(r[1]))), max(abs(r[0]), abs(r[1]))


def _two(f) -> Callable:
    """min(a, b), max(a, b)."""
    def span(spans: list, n: int) -> Span | None:
        if len(spans) != 2 or None in spans:
            return None
        a, b = spans
        return f(a[0], b[0]), f(a[1], b[1])
    return span


# ------------------------------------------------------------------ forms of their own
def _py_occupied(call: PyCall) -> str:
    if call.cg.optimize:  # a list's truth, without a call of len
        return call.fill("(not not {0})") if call.list0 else call.zone_top(HOLDS)
    return call.fill("(len({0}) > 0)" if call.list0 else "(len({R.zones}[{0}]) > 0)")


def _py_sort(call: PyCall) -> str:
    cg, a0 = call.cg, call.a[0]
    t0 = call.ty(0)
    code = type_code(t0.arg) if t0.tag == "list" else "int"
    if cg.t.sort_key(code) is helpers.sort_key:
        arg = call.e.args[0]
        if arg.node == "Call" and arg.func == "items" and cg.c.calls_builtin("items"):
            return f"sorted({a0})"  # (a zone's items: ints, never none)
        if code in _ID_TYPES or code == "int":
            return f"_sort_ids({a0})"
        if code.startswith("list:") and code[5:] in _ID_TYPES + ("int",):
            return f"_sort_int_lists({a0})"
    name = "SORTKEY_" + "".join(ch if ch.isalnum() else "_" for ch in code)
    cg.t.ns[name] = cg.t.sort_key(code)
    return f"sorted({a0}, key={name})"


def _zone(op: str, more: str = "", test: str = "") -> Callable:
    """The native form of a read ``op`` of a zone's items (``more``: the arguments after
    the zone's, ``test``: a comparison the read is put in, parenthesised)."""
    def form(call: CxxCall) -> str:
        read = call.zone(op, more)
        return f"({read}{test})" if test else read
    return form


def _cxx_cells(call: CxxCall) -> str:
    board = call.ty(0).arg
    return call.gen.tables.id_list(("BOARD", board), call.gen.p.boards[board])


def _cxx_cell_of(call: CxxCall) -> str:
    gen, board = call.gen, call.ty(1).arg
    on = set(gen.p.boards[board])
    inside = gen.tables.value_table(("ONBOARD", board), [z in on for z in range(gen.nz)], T("bool"))
    return f"cell_of({call.gen.state(call.sc)}, {call.arg()}, {inside})"


def _cxx_end(f: str) -> Callable:
    """first(list), last(list)."""
    def form(call: CxxCall) -> str:
        el = call.ty(0).arg
        if el.tag not in _FLAT:
            raise NotNative(f"{f}() of a list of {el}")
        return f"{'lfirst' if f == 'first' else 'llast'}({call.arg()})"
    return form


def _cxx_replace_at(call: CxxCall) -> str:
    lt = call.ty(0)
    el = lt.arg if isinstance(lt.arg, T) else None
    return f"replace_at({call.arg(0, lt)}, {call.arg(1, _INT)}, {call.arg(2, el)})"


def _cxx_owner(call: CxxCall) -> str:
    gen = call.gen
    owners = gen.tables.value_table(("ZONE_OWNER",), gen.ns["ZONE_OWNER"], T("player"))
    return f"{owners}[nn({call.arg()})]"


def _cxx_edge(call: CxxCall) -> str:
    cells, edges = call.gen.tables.edges(call.ty(0).arg)
    return (f"([&]() -> Id {{ Id a_ = {call.arg(1)}; Id b_ = {call.arg(2)}; if (a_ < 0 || b_ < 0) "
            f"return NONE_ID; const List<Id>& c_ = {cells}[a_]; for (size_t i_ = 0; i_ < c_.size(); ++i_) "
            f"if (c_[i_] == b_) return {edges}[a_][i_]; return NONE_ID; }}())")


def _cxx_across(call: CxxCall) -> str:
    cells, edges = call.gen.tables.edges(call.ty(0).arg)
    closed = f", {call.arg(2, call.ty(2))}" if len(call.e.args) == 3 else ""
    return f"across({call.gen.state(call.sc)}, {cells}, {edges}, {call.arg(1)}{closed})"


def _py_across(call: PyCall) -> str:
    closed = f", {call.a[2]}" if len(call.a) == 3 else ""
    return f"_across(R, ACROSS_{call.ty(0).arg}, {call.a[1]}{closed})"


# ------------------------------------------------------------------ aggregates in C++
def _over_any_all(f: str) -> Callable:
    hit = "true" if f == "any" else "false"
    test = "" if f == "any" else "!"

    def form(x: CxxOver) -> str:
        # (an element of any that is false: nothing done, as where the loop passes it by)
        body = x.each(lambda inner: f"if ({test}({x.elem(inner, T('bool'))})) return {hit};",
                      passes=x.comp.elem if f == "any" else None)
        # (loops over a few numbers, or over a short list known, written out: in line,
        # where the compiler may unroll them and fold the caller's constants into them)
        short = " MK_AI" if short_ranges(x.comp) or x.gen.written_out(x.comp) else ""
        return f"([&](){short} -> bool {{ {body} return {'false' if f == 'any' else 'true'}; }}())"
    return form


SHORT_RANGE = 8   # numbers of a range of literals a loop put in line walks at most


def short_ranges(comp) -> bool:
    """Whether each loop of the comprehension ``comp`` walks a range of literals of at
    most ``SHORT_RANGE`` numbers."""
    return all(cl.iter.node == "BinOp" and cl.iter.op == ".." and cl.iter.left.node == "IntLit"
               and cl.iter.right.node == "IntLit" and cl.iter.right.value - cl.iter.left.value < SHORT_RANGE
               for cl in comp.clauses)


def _over_count(x: CxxOver) -> str:
    equal = x.gen.count_equal(x.comp, x.sc)   # (the elements equal to one value)
    if equal is not None:
        return equal
    n = x.gen.fresh("n")
    body = x.gen.loops(x.comp, x.sc, lambda inner: f"++{n};", count=n, whole=True)
    return f"([&]() -> I {{ I {n} = 0; {body} return {n}; }}())"


def _over_sum(x: CxxOver) -> str:
    acc = x.gen.fresh("sum")
    body = x.each(lambda inner: f"{acc} = add({acc}, {x.elem(inner, _INT)});", whole=True)
    return f"([&]() -> I {{ I {acc} = 0; {body} return {acc}; }}())"


def _over_first(x: CxxOver) -> str:
    gen, t = x.gen, x.gen.ty(x.e)
    gen.ty(x.comp.elem)
    if t.tag not in _FLAT:
        raise NotNative(f"first(...) of a list of {t}")
    lowest = gen.bits_end(x.e, x.sc, False)   # (the lowest bit of the cells that pass: kernel_bit_picks.py)
    if lowest is not None:
        return lowest
    body = x.each(lambda inner: f"return {gen.ct(t)}({x.elem(inner, t)});")
    return f"([&]() -> {gen.ct(t)} {{ {body} return {gen.none_of(t)}; }}())"


def _over_last(x: CxxOver) -> str:
    """last(...): each element kept in the place of the one before (no list made); none
    where there is none, as ``llast`` of the list gives."""
    gen, t = x.gen, x.gen.ty(x.e)
    gen.ty(x.comp.elem)
    if t.tag not in _FLAT:
        raise NotNative(f"last(...) of a list of {t}")
    # (the highest bit of the cells that pass, kernel_bit_picks.py; else a board's cells
    # walked from the last, kernel_early.py)
    backward = gen.bits_end(x.e, x.sc, True) or gen.last_backward(x.e, x.sc)
    if backward is not None:
        return backward
    v = gen.fresh("last")
    body = x.each(lambda inner: f"{v} = {gen.ct(t)}({x.elem(inner, t)});", whole=True)
    return f"([&]() -> {gen.ct(t)} {{ {gen.ct(t)} {v} = {gen.none_of(t)}; {body} return {v}; }}())"


def _over_list(fn: str) -> Callable:
    """min, max: the elements in a list, then ``fn`` of it; of numbers, the extreme kept
    as they come (no list made), as ``fn`` gives it: an error where there is none, the
    one element where there is one, else the first extreme with none an error."""
    def form(x: CxxOver) -> str:
        gen = x.gen
        t, elt = gen.ty(x.e), gen.ty(x.comp.elem)
        if elt.tag == "int" and t.tag == "int":
            n, one, m, v = gen.fresh("n"), gen.fresh("one"), gen.fresh("m"), gen.fresh("v")
            beats = f"nn({v}) {'>' if fn == 'lmax' else '<'} {m}"
            body = x.each(lambda inner: f"{{ const I {v} = {x.elem(inner, elt)}; if ({n}++ == 0) {one} = {v}; "
                                        f"else {{ if ({n} == 2) {m} = nn({one}); if ({beats}) {m} = {v}; }} }}")
            return (f"([&]() -> I {{ size_t {n} = 0; I {one} = NONE_I, {m} = NONE_I; {body} "
                    f"if ({n} == 0) bail(); return {n} == 1 ? {one} : {m}; }}())")
        lt = T("list", elt)
        out = gen.fresh("out")
        body = x.each(lambda inner: f"{out}.push_back({x.elem(inner, elt)});")
        return (f"([&]() -> {gen.ct(t)} {{ std::vector<{gen.ct(elt)}> {out}; {body} "
                f"return {fn}({gen.ct(lt)}(std::move({out}))); }}())")
    return form


def _extreme(less: str, f: str) -> dict:
    """min, max as a loop: as Python's min() keeps the first of equal elements, and
    compares 'element < smallest so far'; no element: the error of min([])."""
    return {"step_start": "_NOT_YET",
            "step": (StepLine("m_ = {el}"), StepLine(f"if {{r}} is _NOT_YET or m_ {less} {{r}}: {{r}} = m_")),
            "step_end": f"if {{r}} is _NOT_YET: _{f}([])"}


# ------------------------------------------------------------------ the table
PRIMITIVES: dict[str, Primitive] = {
    "top": Primitive(by_arity(lambda call: call.zone_top(TOP), "_topn({R.zones}[{0}], {1})"),
                     by_arity(_zone("top"), _zone("topn", ", nn({i1})")), calls=(False, True), reads_r=True),
    "bottom": Primitive("_bottom({R.zones}[{0}])", _zone("bottom"), calls=True, reads_r=True),
    "items": Primitive("list({R.zones}[{0}])", _zone("items"), calls=True, reads_r=True),
    "size": Primitive(by_list("len({0})", "len({R.zones}[{0}])"), by_list("((I)({0}).size())", _zone("size")), calls=True, reads_r="place"),
    "len": Primitive(by_list("len({0})", "len({R.zones}[{0}])"), by_list("((I)({0}).size())", _zone("size")), calls=True, reads_r="place"),
    "empty": Primitive(by_list("(not {0})", lambda call: call.zone_top(EMPTY)), by_list("({0}).empty()", _zone("size", test=" == 0")), calls=False, reads_r="place"),
    "occupied": Primitive(_py_occupied, by_list("(!({0}).empty())", _zone("size", test=" > 0")), calls=False, reads_r="place"),
    "cells": Primitive(lambda call: call.cg.table_name(f"BOARD_{call.ty(0).arg}"), _cxx_cells, calls=False),
    "cell_of": Primitive(lambda call: f"_cell_of(R, {call.a[0]}, BOARDSET_{call.ty(1).arg})", _cxx_cell_of, calls=True, reads_r=True, gives_r=True),
    # an edges board's tables (compile.py: _edge_tables); across reads the edges' items
    "edge": Primitive(lambda call: f"EDGE_{call.ty(0).arg}.get(({call.a[1]}, {call.a[2]}))", _cxx_edge, calls=True),
    "across": Primitive(_py_across, _cxx_across, calls=True, reads_r=True, gives_r=True),
    "face_down": Primitive("({R.facing}[{0}] >= 0)", "face_down({S}, {0})", calls=False, reads_r=True),
    # (Runtime.sees_item; the C++ sees(...) is the same rule)
    "knows": Primitive("_knows(R, {0}, {1})", "sees({S}, nn({1}), nn({0}))", calls=True, reads_r=True, gives_r=True),
    "abs": Primitive("abs({0})", "iabs({i0})", span=_abs_span, calls=True),
    "min": Primitive(by_arity("_min({0})", "min({0}, {1})"), by_arity("lmin({0})", "imin({i0}, {i1})"),
                     over="_min([{el} {loops}])", cxx_over=_over_list("lmin"), span=_two(min),
                     **_extreme("<", "min"), calls=True),
    "max": Primitive(by_arity("_max({0})", "max({0}, {1})"), by_arity("lmax({0})", "imax({i0}, {i1})"),
                     over="_max([{el} {loops}])", cxx_over=_over_list("lmax"), span=_two(max),
                     **_extreme(">", "max"), calls=True),
    "sum": Primitive("sum({0})", "isum({0})", over="sum([{el} {loops}])", cxx_over=_over_sum,
                     step_start="0", step=(StepLine("{r} += {el}"),), calls=True),
    "count": Primitive("len({0})", "((I)({0}).size())", over="len([1 {loops}])", cxx_over=_over_count,
                       step_start="0", step=(StepLine("{r} += 1"),), calls=True),
    "any": Primitive("any({0})", "lany({0})", over="any({el} {loops})", cxx_over=_over_any_all("any"),
                     step_start="False", step=_decided("{el}", "True"), calls=True),
    "all": Primitive("all({0})", "lall({0})", over="all({el} {loops})", cxx_over=_over_any_all("all"),
                     step_start="True", step=_decided("not {el}", "False"), calls=True),
    "first": Primitive("_first({0})", _cxx_end("first"), over="next(({el} {loops}), None)",
                       cxx_over=_over_first, step_start="None", step=(StepLine("{r} = {el}"), StepLine("break", 0, BREAK)), calls=True),
    "last": Primitive("_last({0})", _cxx_end("last"), over="_last([{el} {loops}])", cxx_over=_over_last,
                      step_start="None", step=(StepLine("{r} = {el}"),), calls=True),
    "subsets": Primitive("_subsets({0})", "subsets({0})", calls=True),
    # (enum values are ids in declaration order: in C++ they sort as Python sorts them)
    "sort": Primitive(_py_sort, "sorted({0})", calls=True),
    "reverse": Primitive("list(reversed({0}))", "reversed({0})", calls=True),
    "replace_at": Primitive("_replace_at({0}, {1}, {2})", _cxx_replace_at, calls=True),
    "distinct": Primitive("list(dict.fromkeys({0}))", "distinct({0})", calls=True),
    "player_count": Primitive("R.n_players", lambda call: f"((I){call.gen.n})", span=lambda spans, n: (n, n), calls=False, reads_r=True),
    "next_player": Primitive("(({0} + R.dir) % R.n_players)", "((Id)pmod(nn({0}) + DIR))", calls=False, reads_r=True),
    "previous_player": Primitive("(({0} - R.dir) % R.n_players)", "((Id)pmod(nn({0}) - DIR))", calls=False, reads_r=True),
    "seat": Primitive("({0} + 1)", "((I)nn({0}) + 1)", span=lambda spans, n: (1, n), calls=False),
    "owner": Primitive("ZONE_OWNER[{0}]", _cxx_owner, calls=False),
    "turn_number": Primitive("R.turn", "((I){S}.turn)", calls=False, reads_r=True),
}
