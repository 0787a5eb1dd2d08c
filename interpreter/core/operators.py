"""What each operator of an expression means, in one place for the interpreter: the
operation an IR ``UnOp``, ``BinOp`` or ``CondExpr`` is (``resolve``: its ``op`` and the
class of its operands' type choose it), its reference meaning (a Python function of the
operands' values, core/evaluate.py), its Python form (the text ``codegen.ExprCompiler``
writes, the straightforward code and the fast code alike), its native form (the C++
text ``kernel.Gen`` writes, native/kernel_operators.py), what a static fold may compute
of it before any game (``fold``, by its reference meaning: core/cells.py, the tables of
a loop's cells). The language's side of each
operation (its node, op and class of type, its type rule, precedence, documentation and
rulebook phrase) is dsl/operators.py, keyed by the same names: an entry here takes its
node, op and class from there. tests/test_operators.py checks that both tables hold
every operator of the grammar and that every engine implements each operation; an
operator the table lacks is an error where it is met (``MissingOperator``), never a
fallback.

The printers' optimisations are passes on top of these base forms, in the printers:
ints of known ranges added, subtracted, multiplied or divided plainly (core/bounds.py),
a count compared early, lists joined once, texts joined in one call, the reads an
``and`` notes (native/kernel_*.py, compiler/codegen_operators.py). Only the choice of
the operation and its base forms are here.

A form is a text (or a function of the operation's call, ``PyOp`` or ``CxxOp``, for
what a text cannot say; ``primitives.emit`` writes either), the operands as ``{0}``,
``{1}``, ``{2}`` (a conditional's: the condition, then, else). In Python, ``{R.t}`` is
the runtime's table ``t`` and ``{B.b}`` the program's budget ``b``. In C++, an operand
wanted as a bool is ``{b0}``, as an int ``{i0}``, as the operation's type ``{t0}``;
``{S}`` is the state given to a helper that reads it, ``{W}`` the state given to one
that reads only the budgets' counters (noted where written, native/kernel_reads.py)."""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from string import Formatter
from types import SimpleNamespace

from ...dsl import operators as language
from ...dsl.operators import operands
from ...dsl.types import T, has_none
from ..play import helpers
from .primitives import Form, NotNative, Span

_INT, _BOOL = T("int"), T("bool")
_ORDERED = ("int", "str", "bool", "player", "item", "cell", "zone")
_IDS = ("player", "item", "cell", "zone")


class MissingOperator(AssertionError):
    """An operator of the IR with no operation in the table (a language construct no
    engine may run: never a fallback)."""


def key_of(e, ty) -> tuple[str, str, str]:
    """What selects the operation of ``e``: its node, its op (``?`` of a conditional),
    the class of its operand's type (``""`` where the op alone chooses). ``ty``: the type of a
    node, as the engine knows it."""
    if e.node == "CondExpr":
        return "CondExpr", "?", ""
    ops = language.SHAPES.get((e.node, e.op), ())
    if len(ops) < 2:
        return e.node, e.op, ""
    # (an op of several operations: the class of the type of the operand that chooses,
    # as the checker chose: dsl/operators.py ``choose``)
    return e.node, e.op, language.type_class(ty(operands(e)[ops[0].by]))


def resolve(e, ty) -> Operator:
    """The operation of the IR operator ``e`` (``ty``: the type of a node); an operator
    the table lacks raises MissingOperator."""
    key = key_of(e, ty)
    op = BY_KEY.get(key)
    if op is None:
        raise MissingOperator(f"no operation for {key[1]!r} ({key[0]}{', of ' + key[2] if key[2] else ''}) "
                              "in interpreter/core/operators.py")
    return op


# ------------------------------------------------------------------ the writers' calls
class PyOp:
    """An operation being compiled to Python: the compiler, the node, its operands'
    texts (written by the compiler, in its order); ``tables``: the text of each of R's
    tables a form reads (``{R.t}``)."""

    def __init__(self, cg, op: Operator, e, args: list[str], tables=None):
        self.cg, self.op, self.e, self.a = cg, op, e, args
        self.name = op.name
        self.tables = tables if tables is not None else SimpleNamespace(loc="R.loc")

    def fill(self, text: str) -> str:
        return text.format(*self.a, R=self.tables, B=self.cg.t.budgets)


class CxxOp:
    """An operation being written in C++: the kernel's writer, the node, the names in
    scope, the type wanted of its value (a conditional's), and the scope of an operand
    where it differs (``scopes``: by position; the right of an ``and``, which knows what
    its left read). An operand's text is written when asked for, in the order asked."""

    def __init__(self, gen, op: Operator, e, sc: dict, want: T | None = None, scopes: dict | None = None):
        self.gen, self.op, self.e, self.sc, self.want = gen, op, e, sc, want
        self.name = op.name
        self.parts, self.scopes = operands(e), scopes or {}

    def arg(self, i: int, want: T | None = None) -> str:
        return self.gen.expr(self.parts[i], self.scopes.get(i, self.sc), want)

    def ty(self, i: int) -> T:
        return self.gen.ty(self.parts[i])

    def fill(self, text: str) -> str:
        """``text`` with its operands' C++ (``{0}``, as a bool ``{b0}``, an int ``{i0}``, the
        operation's type ``{t0}``), the state (``{S}``, ``{W}``) and budgets (``{B.b}``)."""
        fields: dict[str, str] = {}
        for name in _fields(text):
            if name == "S":
                fields[name] = self.gen.state(self.sc)
            elif name == "W":
                fields[name] = self.gen.counters(self.sc)
            else:
                kind = name[0] if name[0] in "bit" else ""
                want = _BOOL if kind == "b" else _INT if kind == "i" else self.gen.ty(self.e) if kind else None
                fields[name] = self.arg(int(name[len(kind):]), want)
        plain = [fields.get(str(i), "") for i in range(len(self.parts))]
        return text.format(*plain, B=self.gen.b, **{k: v for k, v in fields.items() if not k.isdigit()})


@functools.cache
def _fields(text: str) -> tuple[str, ...]:
    """The fields of a C++ form but the budgets', each once, in the order written."""
    names = (name for _, name, _, _ in Formatter().parse(text) if name is not None and not name.startswith("B"))
    return tuple(dict.fromkeys(names))


# ------------------------------------------------------------------ forms of their own
def _cxx_compared(neg: str) -> Callable:
    """``==``, ``!=``: both operands compared as the type of the one that is not none."""
    def form(call: CxxOp) -> str:
        u = call.gen.unify(call.ty(0), call.ty(1))
        a, b = (call.gen._compared(call.parts[i], call.sc, u) for i in (0, 1))
        return f"({neg}eq({a}, {b}))"
    return form


def _cxx_order(fmt: str) -> Callable:
    """``<``, ``<=``, ``>``, ``>=`` (``fmt``: of the operands' texts, ``lt``/``le``)."""
    def form(call: CxxOp) -> str:
        u = call.gen.unify(call.ty(0), call.ty(1))
        if u.tag == "enum":
            raise NotNative("an order of enum values (Python compares their names)")
        if u.tag not in _ORDERED:
            raise NotNative(f"an order of {u}")
        a, b = call.arg(0, u), call.arg(1, u)
        if u.tag in _IDS:
            a, b = f"nn({a})", f"nn({b})"
        elif u.tag == "bool":
            a, b = f"(I){a}", f"(I){b}"
        return fmt.format(a, b)
    return form


def _cxx_in_list(neg: str) -> Callable:
    """``x in xs``: the list searched for the element as the list's elements are (or as
    ``x`` is, where the list's elements may be none: ``[]``)."""
    def form(call: CxxOp) -> str:
        lt, rt = call.ty(0), call.ty(1)
        if rt.tag != "list":
            raise NotNative(f"'in' a {rt}")
        el = rt.arg if isinstance(rt.arg, T) and not has_none(rt.arg) else lt
        right = call.arg(1, T("list", el))
        return f"({neg}contains({right}, {call.arg(0, el)}))"
    return form


def _cxx_texts(call: CxxOp) -> str:
    """Texts joined: the parts of ``a + b + c ...`` (``Gen.text_chain``) made one text
    once (scatn: no text per ``+``; each part: native/kernel_text_parts.py)."""
    gen, t = call.gen, call.gen.ty(call.e)
    s = gen.state(call.sc)
    return f"scatn({s}, {', '.join(gen._text_part(x, call.sc, t) for x in gen.text_chain(call.e))})"


def _cxx_cond(call: CxxOp) -> str:
    """``c ? a : b``, each branch as the type wanted (else the conditional's)."""
    t = call.want or call.gen.ty(call.e)
    ct = call.gen.ct(t)
    return f"({call.arg(0, _BOOL)} ? {ct}({call.arg(1, t)}) : {ct}({call.arg(2, t)}))"


# ------------------------------------------------------------------ the operations
@dataclass(frozen=True)
class Operator:
    name: str           # the operation's name (dsl/operators.py's key: its node, op, type rule, doc)
    # the reference meaning: a function of the runtime R, the program's budgets and the
    # operands' values; where ``lazy``, the operands after the first are functions that
    # evaluate them (evaluated only where the operation needs them)
    meaning: Callable
    python: Form        # the Python form (codegen.ExprCompiler)
    cxx: Form           # the C++ form (kernel.Gen)
    lazy: bool = False
    # what its Python form does besides computing: reads the runtime R (``{R.t}``),
    # gives R to a helper, or takes work the fast code computes once (``_pure``)
    reads_r: bool = False
    gives_r: bool = False
    costly: bool = False
    # what the optimiser may assume of it (core/facts.py, core/inline.py): it counts
    # work against the budget by itself (``counts``); it cannot fail and counts nothing
    # (``harmless``: an inlined argument of it may be evaluated where it is not used)
    counts: bool = False
    harmless: bool = True
    # what a static fold (``fold``: core/cells.py, the tables of a loop's cells made
    # before any game) may compute it of: "int", "bool" (each operand of that type:
    # ints, bools), "equal" (two values of one type, or one of them none), "member" (a
    # value and a list of values each of its type or none); "" never (it reads the
    # state, counts work, or is chosen by a type the fold's values do not tell)
    fold: str = ""
    # the least and the most its int value can be (core/bounds.py), given ``r``: ``r(i)``
    # the least and the most of its operand i (or None where not known); None where
    # nothing is known of it (it is no int, or its operands' ranges tell nothing)
    span: Callable[[Callable[[int], Span | None]], Span | None] | None = None

    @property
    def language(self) -> language.Operator:
        """Its entry in the language's table (dsl/operators.py)."""
        return language.OPERATORS[self.name]

    @property
    def node(self) -> str:
        """The IR node: UnOp, BinOp, CondExpr."""
        return self.language.node

    @property
    def op(self) -> str:
        """The IR op (``?``: a conditional)."""
        return self.language.symbol

    @property
    def on(self) -> str:
        """The class of the type that selects it ("" where the op alone does)."""
        return self.language.on

    @property
    def doc(self) -> str:
        return self.language.doc

    @property
    def key(self) -> tuple[str, str, str]:
        return self.node, self.op, self.on

    @property
    def calls(self) -> bool:
        """Whether its Python form calls a helper (``_mul(...)``, ``_range(R, ...)``)."""
        return isinstance(self.python, str) and re.match(r"_\w+\(", self.python) is not None


# ------------------------------------------------------------------ ranges
def _of_two(corners: Callable[[Span, Span], Span | None]) -> Callable:
    """The span of an operation of two ints whose operands' spans are both known."""
    def span(r: Callable[[int], Span | None]) -> Span | None:
        a, b = r(0), r(1)
        return None if a is None or b is None else corners(a, b)
    return span


def _products(f: Callable[[int, int], int]) -> Callable[[Span, Span], Span]:
    """The span of an operation monotonic in each operand (the divisor's sign fixed):
    the least and the most of its values at the corners."""
    def corners(a: Span, b: Span) -> Span:
        values = [f(x, y) for x in a for y in b]
        return min(values), max(values)
    return corners


def _divided(corners: Callable[[Span, Span], Span]) -> Callable[[Span, Span], Span | None]:
    """A division's span: none where the divisor may be 0."""
    return lambda a, b: None if b[0] <= 0 <= b[1] else corners(a, b)


def _negated(r: Callable[[int], Span | None]) -> Span | None:
    a = r(0)
    return None if a is None else (-a[1], -a[0])


def _either(r: Callable[[int], Span | None]) -> Span | None:
    """A conditional's: the span of both branches (its condition's not asked)."""
    a, b = r(1), r(2)
    return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))


_SPAN_ADD = _of_two(lambda a, b: (a[0] + b[0], a[1] + b[1]))
_SPAN_SUB = _of_two(lambda a, b: (a[0] - b[1], a[1] - b[0]))
_SPAN_MUL = _of_two(_products(lambda x, y: x * y))
_SPAN_DIV = _of_two(_divided(_products(lambda x, y: x // y)))
# (a remainder: from 0 up to below a positive divisor, from above a negative one up to 0)
_SPAN_MOD = _of_two(_divided(lambda a, b: (0, b[1] - 1) if b[0] > 0 else (b[0] + 1, 0)))


# ------------------------------------------------------------------ the table
def _binary(name: str, meaning: Callable, python: Form, cxx: Form, **kw) -> Operator:
    return Operator(name, meaning, python, cxx, **kw)


def _compare(name: str, meaning: Callable, cxx: Form, fold: str = "int") -> Operator:
    return _binary(name, meaning, f"({{0}} {language.OPERATORS[name].symbol} {{1}})", cxx, fold=fold)


OPERATORS: dict[str, Operator] = {op.name: op for op in [
    Operator("not", lambda R, B, a: not a, "(not {0})", "(!{b0})", fold="bool"),
    # (the fast code writes the negation of a number written out as a number: codegen_base.negated)
    Operator("neg", lambda R, B, a: -a, "(-{0})", "neg({i0})", fold="int", span=_negated),
    _binary("and", lambda R, B, a, b: a and b(), "({0} and {1})", "({b0} && {b1})", lazy=True, fold="bool"),
    _binary("or", lambda R, B, a, b: a or b(), "({0} or {1})", "({b0} || {b1})", lazy=True, fold="bool"),
    _compare("eq", lambda R, B, a, b: a == b, _cxx_compared(""), "equal"),
    _compare("ne", lambda R, B, a, b: a != b, _cxx_compared("!"), "equal"),
    _compare("lt", lambda R, B, a, b: a < b, _cxx_order("lt({0}, {1})")),
    _compare("le", lambda R, B, a, b: a <= b, _cxx_order("le({0}, {1})")),
    _compare("gt", lambda R, B, a, b: a > b, _cxx_order("lt({1}, {0})")),
    _compare("ge", lambda R, B, a, b: a >= b, _cxx_order("le({1}, {0})")),
    _binary("in_place", lambda R, B, a, b: R.loc[a] == b, "({R.loc}[{0}] == {1})", "(zin({S}, {0}, {1}))",
            reads_r=True, harmless=False),
    _binary("not_in_place", lambda R, B, a, b: R.loc[a] != b, "({R.loc}[{0}] != {1})", "(!zin({S}, {0}, {1}))",
            reads_r=True, harmless=False),
    _binary("in_list", lambda R, B, a, b: a in b, "({0} in {1})", _cxx_in_list(""), fold="member"),
    _binary("not_in_list", lambda R, B, a, b: a not in b, "({0} not in {1})", _cxx_in_list("!"), fold="member"),
    _binary("range", lambda R, B, a, b: helpers._range(R, a, b, B.range), "_range(R, {0}, {1}, {B.range})",
            "irange({W}, {i0}, {i1})", gives_r=True, counts=True, harmless=False),
    _binary("add", lambda R, B, a, b: a + b, "({0} + {1})", "add({i0}, {i1})", fold="int", span=_SPAN_ADD),
    _binary("join_lists", lambda R, B, a, b: helpers._cat(R, a, b), "_cat(R, {0}, {1})", "wcat({W}, {t0}, {t1})",
            gives_r=True, counts=True, harmless=False),
    _binary("join_texts", lambda R, B, a, b: helpers._cat(R, a, b), "_cat(R, {0}, {1})", _cxx_texts,
            gives_r=True, counts=True, harmless=False),
    _binary("sub", lambda R, B, a, b: a - b, "({0} - {1})", "sub({i0}, {i1})", fold="int", span=_SPAN_SUB),
    _binary("mul", lambda R, B, a, b: helpers._mul(a, b, B.integer), "_mul({0}, {1}, {B.integer})",
            "mul({i0}, {i1}, {B.integer}LL)", costly=True, harmless=False,
            fold="int", span=_SPAN_MUL),
    _binary("div", lambda R, B, a, b: helpers._div(a, b), "_div({0}, {1})", "floordiv({i0}, {i1})",
            costly=True, harmless=False, fold="int", span=_SPAN_DIV),
    _binary("mod", lambda R, B, a, b: helpers._mod(a, b), "_mod({0}, {1})", "mod({i0}, {i1})",
            costly=True, harmless=False, fold="int", span=_SPAN_MOD),
    Operator("cond", lambda R, B, c, a, b: a() if c else b(), "({1} if {0} else {2})", _cxx_cond, lazy=True,
             span=_either),
]}

BY_KEY: dict[tuple[str, str, str], Operator] = {op.key: op for op in OPERATORS.values()}

LAZY: frozenset[tuple[str, str]] = frozenset((op.node, op.op) for op in OPERATORS.values() if op.lazy)
"""The nodes and ops that may leave an operand unevaluated (``and``, ``or``, a conditional)."""


# ------------------------------------------------------------------ static folding
class NotFolded(Exception):
    """An operation a static fold leaves to the engines: its operands are not of its
    ``fold`` (a value an engine might compute otherwise: an int beside a bool, a none
    in arithmetic), or the reference meets an error there (by zero, over the integer
    budget), which the rules must meet where they compute it."""


FOLDED: dict[tuple[str, str], Operator] = {(op.node, op.op): op for op in OPERATORS.values() if op.fold}
"""The operation a static fold computes of each node and op (``("BinOp", "+")``: of
ints), where one of its operations folds (at most one does: tests/test_operators.py)."""

_EACH = {"int": int, "bool": bool}   # (each operand of exactly this type)


def _alike(a, b) -> bool:
    """Values ``==`` compares alike in every engine: of one type, or one of them none."""
    return a is None or b is None or type(a) is type(b)


_ALL: dict[str, Callable[..., bool]] = {
    "equal": _alike,
    "member": lambda a, xs: type(xs) is list and all(_alike(a, x) for x in xs),
}


def fold(op: Operator, budgets, parts: list[Callable]):
    """The value of the operation ``op`` (``FOLDED``'s) by its reference meaning, with
    no state (``budgets``: the program's), each operand given as a function that
    computes it (where the operation is lazy, called only where its meaning needs it);
    NotFolded where its operands are not of its ``fold`` or the reference fails."""
    if op.fold in _EACH:
        want = _EACH[op.fold]

        def value(part: Callable):
            v = part()
            if type(v) is not want:
                raise NotFolded(op.name)
            return v
        first, *rest = parts
        a = value(first)
        later = [functools.partial(value, p) for p in rest] if op.lazy else [value(p) for p in rest]
        return _meaning(op, budgets, a, *later)
    values = [p() for p in parts]
    if op.fold not in _ALL or not _ALL[op.fold](*values):
        raise NotFolded(op.name)
    return _meaning(op, budgets, *values)


def _meaning(op: Operator, budgets, *args):
    try:
        return op.meaning(None, budgets, *args)
    except helpers.RuleError:   # (by zero, over the integer budget: the rules' error)
        raise NotFolded(op.name) from None
