"""What the parts of the expression compiler (codegen.ExprCompiler) share: how names
map to Python (Env), the comprehensions around the place compiled (_Loop), what a
text written is where it is a name or a constant (Code, said where it is written),
and the limits of the generated text."""
from __future__ import annotations

from itertools import count
from typing import TYPE_CHECKING, Any

from ..core.inline import plain_text
from ..core.primitives import PRIMITIVES, Primitive, StepLine
from .codegen_lines import keyed_read, table_read

_BINDERS = count(1)  # a number per comprehension variable, so that shadowed names differ


def number_binders() -> None:
    """Numbers the comprehension variables of the program compiled next from 1: a program's
    code is then the same text whenever and wherever it is compiled (the native module
    serves each piece of code by its text, and is kept on disk under its hash)."""
    global _BINDERS
    _BINDERS = count(1)


class Env:
    """How a name in the source maps to Python: a procedure local (``L['x']``), a
    function parameter or comprehension variable (``v_x``), or, inside an inlined
    function body, the Python text of the argument (``subst``). ``ids`` numbers the
    comprehension variables in scope (a name bound again gets a new number). ``ranges``:
    the least and the most value of an inlined function's integer argument, where known
    (see core/bounds.py). ``keys``: inside an inlined function body, what tells the
    argument's value apart (see ExprCompiler._value_key, core/once.py). ``simple``: the
    names of ``subst`` whose argument may be written again (see ExprCompiler._simple_arg);
    ``calling``: those whose argument's code calls a function (see ExprCompiler._calls);
    ``bare``: those whose argument's code is a name or a constant (see ExprCompiler._bare)."""

    def __init__(self, params: set[str] = frozenset(), locals_: set[str] = frozenset(),
                 subst: dict[str, str] | None = None, ids: dict[str, int] | None = None,
                 ranges: dict[str, tuple[int, int]] | None = None, keys: dict | None = None,
                 simple: frozenset[str] = frozenset(), calling: frozenset[str] = frozenset(),
                 bare: frozenset[str] = frozenset()):
        self.params = set(params)
        self.locals = set(locals_)
        self.subst = subst or {}
        self.ids = ids or {}
        self.ranges = ranges or {}
        self.keys = keys or {}
        self.simple = simple
        self.calling = calling
        self.bare = bare

    def bind(self, name: str) -> Env:
        subst = {k: v for k, v in self.subst.items() if k != name}
        ranges = {k: v for k, v in self.ranges.items() if k != name}
        keys = {k: v for k, v in self.keys.items() if k != name}
        return Env(self.params | {name}, self.locals - {name}, subst, {**self.ids, name: next(_BINDERS)},
                   ranges, keys, self.simple - {name}, self.calling - {name}, self.bare - {name})

    def lookup(self, name: str) -> str | None:
        if name in self.subst:
            return self.subst[name]
        if name in self.params:
            return Code(f"v_{name}", "param", name)
        if name in self.locals:
            return Code(f"L[{name!r}]", "local", name)
        return None


class Code(str):
    """A text of Python the printer wrote that is a name or a constant as a whole, with
    what it is, said where it is written (never read back from the text): ``kind`` is
    "param" (a parameter or a comprehension's variable ``v_NAME``: ``ref`` NAME),
    "loop" (a loop's variable of the statement form ``wN_NAME``: ``ref`` N), "kept" (a
    value computed once, ``once_N``, ``lazy_N``) or "temp" (one the statement form
    computed, ``s_N``: ``ref`` the name), "local" (a procedure's local ``L['x']``:
    ``ref`` x), "int" (a number: ``ref`` its value), "word" (True, False, None), "const" (a text
    of letters, digits, ``_`` and spaces, the active player, the number of players) or
    "table" (a name of the program's tables and constants: ``CONST_x``, ``E_x``,
    ``BOARD_x``...); ``parens``: the parentheses written around it, ``bare`` the text
    inside them. Evaluating such a text again costs nothing and cannot fail: but for a
    table's name (which may be a list: each evaluation of the source makes its own),
    the statement form binds no name of its own for it, an inlined function's argument
    so may be written twice, and a value's key reads it as a name
    (ExprCompiler._name_key). Any other text is a plain str."""

    kind: str
    ref: Any
    parens: int
    bare: str

    def __new__(cls, text: str, kind: str, ref: Any = None, parens: int = 0, bare: str | None = None) -> Code:
        self = super().__new__(cls, text)
        self.kind, self.ref, self.parens = kind, ref, parens
        self.bare = text if bare is None else bare
        return self

    def __reduce__(self):  # (copied and pickled with what it is)
        return Code, (str(self), self.kind, self.ref, self.parens, self.bare)


def is_simple(text: str) -> bool:
    """Whether a text is a name or a constant as a whole, but a table's (see Code)."""
    return isinstance(text, Code) and text.kind != "table"


# a text that is a Python name (see Code), where it is written without parentheses
_NAMES = ("param", "loop", "kept", "temp", "word", "table")


def is_name(text: str) -> bool:
    """Whether a text is a Python name (a variable, a value computed before, True, a
    table's name...: see Code)."""
    return isinstance(text, Code) and text.kind in _NAMES and not text.parens


# the kinds of a text whose ``ref`` tells which value it is (see Code): a variable, a
# value computed before, a number
_REFERRED = ("param", "loop", "kept", "temp", "local", "int")


def same_value(a: str, b: str) -> bool:
    """Whether two texts are the same variable, value computed before or number,
    written alike (the same parentheses), as the printer said where it wrote them
    (see Code)."""
    return isinstance(a, Code) and isinstance(b, Code) and a.kind in _REFERRED \
        and (a.kind, a.ref, a.parens) == (b.kind, b.ref, b.parens)


def in_parens(text: str) -> str:
    """``(text)``, a name or a constant still where ``text`` is one."""
    if isinstance(text, Code):
        return Code(f"({text})", text.kind, text.ref, text.parens + 1, text.bare)
    return f"({text})"


def negated(text: str) -> str:
    """``(-text)``: a number where ``text`` is a number written without parentheses."""
    if isinstance(text, Code) and text.kind == "int" and not text.parens:
        return Code(f"(-{text})", "int", -text.ref, 1, f"-{text}")
    return f"(-{text})"


def plain_const(value: str) -> str:
    """The text of a string of the source: a constant (see Code) where it is of
    letters, digits, ``_`` and spaces (core/inline.py, ``plain_text``)."""
    text = repr(value)
    return Code(text, "const") if plain_text(value) else text


# a name of a value computed once or by the statement form, or of a loop's variable
_KEPT = ("kept", "temp")
# an index that the fast code reads twice (see ExprCompiler._Index): a parameter, a loop's
# variable, a value of the statement form or a procedure's local, bound before the
# expression (not a value computed once in it: the list's text may bind it)
_NAMED_INDEX = ("param", "loop", "temp", "local")


def named_index(text: str) -> bool:
    """Whether a text is an index the fast code may read twice (see _NAMED_INDEX)."""
    return isinstance(text, Code) and text.kind in _NAMED_INDEX


def kept_name(text: str) -> bool:
    """Whether a text is the name of a value this code computed (``once_N``, ``lazy_N``,
    ``s_N``, maybe in parentheses: its ``deps``)."""
    return isinstance(text, Code) and text.kind in _KEPT


def int_value(text: str) -> int | None:
    """The value of a text that is a number (see Code), else None."""
    return text.ref if isinstance(text, Code) and text.kind == "int" else None


# the components found in one evaluation of the statement form, by a rule function's
# number and arguments (see ExprCompiler.components, memo_calls)
_MEMO_LINE = "mo_ = {}"

# calls known to be computed at one place at most (each branch copies them: a bound on
# the time a huge expression takes to compile)
_AVAIL_MAX = 256

_INDEXED_MAX = 120  # the text of a list indexed so, at most (it is written twice)


_COMP_MIN = 128  # a list made by a loop of the statement form: a comprehension above this length


def _counted(facts, e, pre: dict[int, str]) -> bool:
    """An iterable whose elements are already counted against the work budget (a range,
    a list '+') or written out in the source (a list literal): as ``facts.counted`` says
    (core/facts.py), where its code is the range or the join itself, not the name of a
    value the statement form computed before (``pre``, see ExprCompiler._s_operands)."""
    return facts.counted(e) and (e.node == "ListLit" or id(e) not in pre)



def _common(a: dict, b: dict) -> dict:
    """The calls known to have run (with the same names) both ways."""
    return {k: v for k, v in a.items() if b.get(k) == v}


class _Loop:
    """A comprehension around the place being compiled (see ExprCompiler._lazy): the
    numbers of its variables, whether a name can be bound before it, whether it is a
    closure's condition (a barrier), and the calls kept for its turns (key -> name)."""

    def __init__(self, walrus: bool, barrier: bool = False):
        self.ids: set[int] = set()
        self.walrus, self.barrier = walrus, barrier
        self.kept: dict = {}
        # a loop written out with one 'for' (see ExprCompiler._s_loop): the name of its
        # iterable, how deep in branches its body starts, and the kept values computed
        # before it (its first turn computes them whatever happens: name -> text)
        self.first: str | None = None
        self.cdepth = 0
        self.eager: dict[str, str] = {}


# the statement form of an aggregate (see ExprCompiler._s_loop): the first value of the
# name, and what a turn of the loop does with the element
# a comprehension ("list") or an aggregate as a loop of statements (see
# ExprCompiler._s_loop): the value before the loop, the lines adding an element, the line
# after the loop (an aggregate's are in interpreter/core/primitives.py)
_LOOPS = {"list": Primitive("", "", step_start="[]", step=(StepLine("{r}.append({el})"),), calls=False), **PRIMITIVES}


def _before(pre: str, text: str) -> str:
    """``text`` after ``pre`` (a first iterable computed before its loop), if any."""
    return f"({pre}{text})[-1]" if pre else text


class CompilerPart:
    """A base of ExprCompiler's parts (mixins): their methods run on the compiler and
    use its state and the other parts' methods (for mypy: any attribute)."""

    # whether the code written since it was last set False reads the runtime R or gives
    # it to a function (see _r; compile_functions reads it of each function's fast code)
    wrote_r = False
    # whether the statement form's pass written last gives R to a function (a rule
    # function, a helper: it may count work; see _gives, and codegen_text.localize)
    gave_r = False

    # while the statement form is printed: its reads of R's tables are marked (see
    # codegen_lines, ExprCompiler.lines)
    marking = False

    def _table(self, t: str) -> str:
        """The text of the table ``R.t`` (marked while the statement form is printed)."""
        return table_read(t) if self.marking else f"R.{t}"

    def _keyed(self, t: str, key: str) -> str:
        """The text of ``R.t[key]``, a variable read by its name (marked so too)."""
        return keyed_read(t, key) if self.marking else f"R.{t}[{key!r}]"

    def _r(self, text: str) -> str:
        """A text of code that reads R, noted (``wrote_r``)."""
        self.wrote_r = True
        return text

    def _gives(self, text: str) -> str:
        """A text of code that gives R to a function, noted (``wrote_r``, ``gave_r``)."""
        self.wrote_r = self.gave_r = True
        return text

    if TYPE_CHECKING:
        # the compiler's state that the parts change (see ExprCompiler.__init__)
        avail: dict | None
        pre: dict[int, str]
        binds: int
        cdepth: int
        temps: int
        splicing: int
        perm_next: bool
        perm_here: bool
        last_closure: tuple[str, str] | None

        def __getattr__(self, name: str) -> Any: ...
