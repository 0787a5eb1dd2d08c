"""Expressions -> Python source, compiled once per ruleset.

The checked IR is turned into Python expressions over the runtime ``R`` (zones
``R.z``, item locations ``R.loc``, globals ``R.g``...) and static tables in the
module namespace (``A_value[item]``, ``C_row[cell]``, ``REL_beside[cell]``...). Names
come only from the checked IR (identifiers of the grammar, never free text), and string
literals are written with ``repr``, so no ruleset text is ever executed as code.
"""
from __future__ import annotations

import ast
import copy
import math
import re
from itertools import count

from ..dsl import ast as ir
from ..dsl.builtins import BUILTINS, CLOSURES
from ..dsl.check import Checked
from ..dsl.types import T, type_code  # noqa: F401 - compile, kernel and leaks import type_code here
from .orderfree import order_blind, order_free
from .primitives import PRIMITIVES, Primitive, PyCall, PyLoop, PyOver, emit

CMP = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def kind_unsure(c, s) -> bool:
    """Whether a move takes an item of a kind the checker does not know to a place of a
    kind it does not know either (from ``zone`` parameters, as rulesets wrote before
    ``zone of Kind``): its kinds are compared when it is played (``same_kind``)."""
    what, to = c.type_of(s.what), c.type_of(s.to)
    item = what.arg if what.tag == "list" else what
    return (item.tag == "item" and item.arg == "?") or (to.tag == "zone" and to.arg == "?")


class CodeTooBig(Exception):
    """Generated code grew over the code budget at this place of the source."""

    def __init__(self, span):
        super().__init__("generated code too big")
        self.span = span


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
    (see ExprCompiler._int_range)."""

    def __init__(self, params: set[str] = frozenset(), locals_: set[str] = frozenset(),
                 subst: dict[str, str] | None = None, ids: dict[str, int] | None = None,
                 ranges: dict[str, tuple[int, int]] | None = None):
        self.params = set(params)
        self.locals = set(locals_)
        self.subst = subst or {}
        self.ids = ids or {}
        self.ranges = ranges or {}

    def bind(self, name: str) -> Env:
        subst = {k: v for k, v in self.subst.items() if k != name}
        ranges = {k: v for k, v in self.ranges.items() if k != name}
        return Env(self.params | {name}, self.locals - {name}, subst, {**self.ids, name: next(_BINDERS)},
                   ranges)

    def lookup(self, name: str) -> str | None:
        if name in self.subst:
            return self.subst[name]
        if name in self.params:
            return f"v_{name}"
        if name in self.locals:
            return f"L[{name!r}]"
        return None


# a comprehension variable or function parameter in generated text (for _once's keys)
_VNAME = re.compile(r"\bv_(\w+)")
# a loop variable of the statement form named by its number (see ExprCompiler._s_bind)
_WNAME = re.compile(r"\bw(\d+)_\w+")

# a value the statement form of the fast code computed before (see ExprCompiler.lines)
_TEMP = re.compile(r"\bs_\d+\b")
_NAME = re.compile(r"[A-Za-z_]\w*")
_INT = re.compile(r"\(*-?\d+\)*")

# the components found in one evaluation of the statement form, by a rule function's
# number and arguments (see ExprCompiler.components)
_MEMO = re.compile(r"\bFC_\w+\(R, mo_\b")
_MEMO_LINE = "mo_ = {}"

# a name of a value computed once (see ExprCompiler.root)
_KEPT = re.compile(r"\(*(once|lazy)_\d+\)*")
# a name or a number in parentheses that are not a call's (see ExprCompiler._key)
_PARENS = re.compile(r"(?<![\w\])])\((v_\w+|w\d+_\w+|L\['\w+'\]|-?\d+|R\.active)\)")
_KEPT_NAME = re.compile(r"\b(?:once|lazy|s)_\d+\b")
# a call in generated text: an inlined function's body worth computing once
_CALL = re.compile(r"[A-Za-z_]\w*\(")

# calls known to be computed at one place at most (each branch copies them: a bound on
# the time a huge expression takes to compile)
_AVAIL_MAX = 256

_INLINE_MAX = 200  # IR nodes of one fully expanded inlined call at most

# an index that the fast code reads twice (see ExprCompiler._Index): a parameter, a loop's
# variable, a value of the statement form or a procedure's local, bound before the
# expression (not a value computed once in it: the list's text may bind it)
_NAMED_INDEX = re.compile(r"\(*(v_\w+|w\d+_\w+|s_\d+|L\['\w+'\])\)*")
_BOARD_LIST = re.compile(r"BOARD_\w+")  # a board's cells, as codegen writes cells(board)
_INDEXED_MAX = 120  # the text of a list indexed so, at most (it is written twice)

_SPLICE_MAX = 60   # IR nodes of a function's body written in place of its calls at most
_SPLICE_DEPTH = 3  # bodies written in place in one another at most

_COMP_MIN = 128  # a list made by a loop of the statement form: a comprehension above this length
_FREE_TEXT = 1024  # a join of texts that cannot be longer is not counted (fast code)
# turns of nested loops over boards and relation rows not counted (fast code), around
# the place compiled or per turn of the nearest counted loop around it
_FREE_LOOPS = 1024

# Whether rules are compiled to the fast code (the default) besides the straightforward
# code. Tests turn it off to compare both (tests/test_fast_paths.py); nothing else should.
OPTIMIZE = True

# Tests only: the fast code's errors are raised instead of running the straightforward
# code again, so a test sees the fast code fail where the straightforward code does not
# (tests/test_fast_paths.py).
STRICT = False

# an argument whose text may be repeated when a function is inlined: a name (a local),
# a number,
# a string or a constant (evaluating it again costs nothing and cannot fail)
_SIMPLE_ARG = re.compile(r"\(*(v_\w+|w\d+_\w+|once_\d+|lazy_\d+|s_\d+|L\['\w+'\]|-?\d+|'[A-Za-z0-9_ ]*'|True|False|None|R\.active|R\.n)\)*")

# function bodies made only of these nodes may be inlined at their call sites: they
# bind no variables, so an argument's text cannot be captured by a comprehension
_INLINABLE = {"IntLit", "StrLit", "BoolLit", "NoneLit", "Var", "Attr", "Call", "BinOp", "UnOp",
              "CondExpr", "ListLit", "Index", "TypeRef", "Param", "Ray", "NamedArg"}


def _arith_range(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """The least and the most of ``x op y`` for x in the range a, y in b (see
    ExprCompiler._int_range), or None."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        corners = [x * y for x in a for y in b]
        return min(corners), max(corners)
    if b[0] <= 0 <= b[1]:
        return None  # (the divisor may be 0)
    if op == "/":  # (floor division is monotonic in each side, divisor's sign fixed)
        corners = [x // y for x in a for y in b]
        return min(corners), max(corners)
    return (0, b[1] - 1) if b[0] > 0 else (b[0] + 1, 0)


def _counted(e, text: str) -> bool:
    """An iterable whose elements are already counted against the work budget (a range,
    a list '+') or written out in the source (a list literal)."""
    return e.node == "ListLit" or (e.node == "BinOp" and text.startswith(("_range(", "_cat(")))


class ExprCompiler:
    """``optimize=False`` makes the straightforward code (the reference: errors are
    located by it); ``optimize=True`` the fast code, which must give the same results.
    ``prefix`` names the generated functions the calls go to."""

    def __init__(self, checked: Checked, tables, optimize: bool = False, prefix: str = "F_"):
        self.c = checked
        self.t = tables  # the Program being built: zone indices, board cells...
        self.inline: set[str] = set()  # user functions expanded at their call sites
        self.optimize = optimize
        self.prefix = prefix
        # parameters used more than once, per inlined function: expanded only where the
        # argument is simple (a name, a constant), else the function is called
        self.repeated: dict[str, set[str]] = {}
        # the fast code walks a board or a relation's row without counting it against the
        # work budget when the loops so walked, nested, make at most _FREE_LOOPS turns
        # and call no function that could loop: this is how many the loops around make
        self.free = 1
        # calls made again with the same arguments are computed once (the fast code),
        # see root(): ``avail`` maps a call's key (its text and which variables its names
        # mean) to the name of its value, known to be computed before the place being
        # compiled (None: not in use)
        self.avail: dict | None = None
        self.used: set[str] | None = None  # second pass: the names that are used
        self.found: set[str] = set()       # the names used so far
        self.calls_seen = 0                # calls numbered so far
        self.no_walrus = False             # in a comprehension's iterable: Python forbids ':='
        self.no_first = False              # in an inlined call's argument (see _unbound)
        self.binds = 0                     # ':=' written so far
        self.iters = 0                     # first iterables computed before their loops
        self.loops: list[_Loop] = []       # the comprehensions around the place compiled
        self.wraps: list[tuple[str, str]] = []  # see _wrapped
        self.pre: dict[int, str] = {}      # statement form: operands already computed (see _s)
        self.temps = 0                     # statement form: s_N names made so far
        # statement form: the most elements of the lists named s_N that a comprehension
        # over fixed tables made (a filter only drops elements), see _s_loop
        self.bounds: dict[str, int] = {}
        self.has_loop: dict[int, tuple] = {}  # see _looped
        self.spliced: set[str] = set()     # functions written in place (see splice)
        self.splicing = 0                  # bodies being written in place around here
        self.deps: dict[str, tuple] = {}    # see _start
        self.tested = None  # (text, yes, no) of the inlined call compiled last (see _test)
        self.cdepth = 0     # branches around the place compiled (code that may not run)
        # the tables of the cells of loops over a board with a static condition, made for
        # this program (see _static_cells): (board, the conjuncts' code) -> (name, reached)
        self.static_tables: dict[tuple, tuple[str, bool]] = {}
        # lists whose order does not matter where they are used (see orderfree.py): the
        # expression compiled next may be computed in any order (perm_next), the one
        # being compiled may (perm_here); the functions that find a component
        # (``connected`` from a parameter: name -> its number, the start's position
        # among the parameters), whose values found from any cell of it serve for the
        # others in one evaluation of the statement form (memo_ok: ``mo_``, see lines)
        self.perm_next = False
        self.perm_here = False
        self.memo_ok = False
        self.components: dict[str, tuple[int, int]] = {}
        # the names of the last walk written out (its cells, its work), and of each
        # component function's (see compile.Program._component_source)
        self.last_closure: tuple[str, str] | None = None
        self.closure_work: dict[str, tuple[str, str] | None] = {}
        self.free_args: dict[tuple, bool] = {}  # see _perm_arg
        # functions of enums and bools read from a table of their values (TAB_name), by
        # name: the combinations of their arguments (see compile.Program._tabled)
        self.tabled: dict[str, list[tuple]] = {}

    def plan_inlining(self, recursive: set[str]) -> None:
        """Small non-recursive functions whose parameters are each used at most once
        are expanded in place: a rule may call them millions of times per benchmark.
        The fast code also expands bigger ones, and those that use a parameter more than
        once where the argument is simple."""
        most = 24 if self.optimize else 12
        for name, f in self.c.functions.items():
            nodes = list(ir.walk(f.body))
            if name in recursive or any(n.node not in _INLINABLE for n in nodes) or len(nodes) > most:
                continue
            uses = [n.name for n in nodes if n.node == "Var"]
            repeated = {p.name for p in f.params if uses.count(p.name) > 1}
            if not repeated or (self.optimize and len(nodes) <= most):
                self.inline.add(name)
                self.repeated[name] = repeated
        # inlined calls of inlined calls can grow exponentially: a function whose full
        # expansion is too big is called instead
        sizes: dict[str, int] = {}

        def size(name: str) -> int:
            if name not in sizes:
                sizes[name] = _INLINE_MAX  # a guard while it is computed
                total = 0
                for n in ir.walk(self.c.functions[name].body):
                    total += size(n.func) if n.node == "Call" and n.func in self.inline else 1
                    if total >= _INLINE_MAX:
                        break
                sizes[name] = total
            return sizes[name]
        big = {name for name in self.inline if size(name) >= _INLINE_MAX}
        self.inline -= big

    def ty(self, e) -> T:
        return self.c.type_of(e)

    def root(self, e, env: Env) -> str:
        """The Python text of a whole expression (a function's body, a rule's value). The
        fast code computes a call of a rule function once where it is made again with
        the same arguments (functions are expressions of the state and their arguments,
        and no expression changes the state):

        - in a comprehension, a call that does not depend on the comprehension's
          variables is computed when first needed, then kept (``lazy_N``) for the next
          turns of the loop;
        - a call made again where an evaluation of it is sure to have run before (earlier
          in the expression, not in a branch or loop that may not run, or earlier in the
          same turn of a loop) reads that one's value (``once_N``).

        Nothing is computed that the straightforward code would not compute, nor earlier,
        so the budgets count no more; an error makes the straightforward code run again
        (see compile.Program._lambda). A first pass finds the calls made again, a second
        binds the first ones to a name."""
        if not self.optimize:
            return self.expr(e, env)
        self._start(None)
        try:
            text = self.expr(e, env)
            if not self.found:
                return text
            self._start(self.found)
            return self.expr(e, env)
        finally:
            self.avail = None

    def _start(self, used: set[str] | None) -> None:
        self.avail, self.used, self.found = {}, used, set()
        self.perm_next = self.perm_here = False
        self.calls_seen = self.binds = self.iters = 0
        self.no_walrus = self.no_first = False
        self.loops = []
        self.wraps: list[tuple[str, str]] = []
        self.pre, self.temps = {}, 0
        self.bounds = {}
        self.cdepth = 0
        # a once_N, lazy_N or s_N: the numbers of the variables its value depends on
        self.deps: dict[str, tuple] = {}

    def _once(self, text: str, env: Env, since: int) -> str:
        """A call's text, or the name of its value (see root); ``since``: how many
        names were bound before its text was made."""
        if self.avail is None:
            return text
        key, ids = self._call_key(text, env, since)
        name = self.avail.get(key)
        if name is not None:
            self.found.add(name)
            return name
        n = self.calls_seen = self.calls_seen + 1
        if self.no_walrus:
            return text
        lazy = self._lazy(key, set(ids), n)
        if lazy is not None:
            name, owner, new = lazy
            self.deps[name] = ids
            if not self.no_first:
                self.avail[key] = name
            self.binds += 1
            if name in owner.eager:
                return name
            if new and owner is self.loops[-1] and self.cdepth == owner.cdepth and owner.first is not None:
                owner.eager[name] = text  # computed before the loop when it has a turn
                return name
            return f"({name} if {name} is not _NOT_YET else ({name} := {text}))"
        if self.no_first or len(self.avail) >= _AVAIL_MAX:
            return text
        name = self.avail[key] = f"once_{n}"
        self.deps[name] = ids
        if self.used is not None and name in self.used:
            self.binds += 1
            return self._wrapped(f"({name} := {text})", text)
        return text

    def _call_key(self, text: str, env: Env, since: int):
        """What tells a value apart (see _once): its text without the names the second
        pass binds, and the numbers of the variables it depends on."""
        plain = self._key(text, since)
        ids = tuple(env.ids.get(n, 0) for n in _VNAME.findall(text))
        ids += tuple(int(n) for n in _WNAME.findall(text))
        for kept in _KEPT_NAME.findall(plain):  # a value computed once: what it depends on
            ids += self.deps.get(kept, ())
        return (plain, ids), ids

    def _wrapped(self, text: str, plain: str) -> str:
        """``text``, noting that it stands for ``plain``: the second pass binds names
        (``once_N := ...``, ``it_N := ...``) that the first did not, and a call's key
        must be the same in both (see _key)."""
        if text != plain and self.avail is not None:
            self.wraps.append((text, plain))
        return text

    def _key(self, text: str, since: int) -> str:
        """A call's text without the names the second pass binds in it."""
        for wrapped, plain in reversed(self.wraps[since:]):  # the outer ones first
            if wrapped in text:
                text = text.replace(wrapped, plain)
        while True:  # '(v_c)' and 'v_c' are one value (an inlined function's argument)
            bare = _PARENS.sub(r"\1", text)
            if bare == text:
                return text
            text = bare

    def _lazy(self, key, ids: set[int], n: int):
        """The name that keeps the call's value for the turns of the outermost
        comprehension around here whose variables (and those of the ones inside it
        around here) the call does not depend on, that comprehension, and whether the
        name is new; or None."""
        best = None
        for loop in reversed(self.loops):
            if loop.barrier:
                break
            if key in loop.kept:
                return loop.kept[key], loop, False
            if loop.ids & ids:
                break
            if loop.walrus:
                best = loop
        if best is None:
            return None
        name = best.kept[key] = f"lazy_{n}"
        return name, best, True

    def _apart(self, fn, *args):
        """``fn(*args)`` for code that may not run (a branch, a loop's body): the calls
        it evaluates are not known to have run after it."""
        saved = None if self.avail is None else dict(self.avail)
        self.cdepth += 1
        try:
            return fn(*args)
        finally:
            self.cdepth -= 1
            if saved is not None:
                self.avail = saved

    def _unbound(self, fn, *args, walrus: bool = False):
        """``fn(*args)`` computing no call for later: code in an iterable of a
        comprehension (``walrus=False``: Python forbids ':=' there), or an argument of an
        inlined call (the function's body may evaluate it later than the other
        arguments, or not at all)."""
        saved = self.no_walrus, self.no_first
        self.no_walrus, self.no_first = self.no_walrus or not walrus, True
        self.cdepth += 1
        try:
            return fn(*args)
        finally:
            self.cdepth -= 1
            self.no_walrus, self.no_first = saved

    # ------------------------------------------------------------ statement form
    def lines(self, e, env: Env, tops: bool = False) -> tuple[list[str], str]:
        """The fast code of a whole expression as Python statements and the text of its
        value after them (``([], text)`` when it has no loop to write out: then ``text``
        is what ``root`` gives). Aggregates (``any``, ``all``, ``sum``, ``count``,
        ``min``, ``max``, ``first``, ``last``) and comprehensions become ``for`` loops
        that stop where the expression stops (``any`` at the first true element...), with
        no generator frame per element, and count the work budget in place
        (``R.work -= len(s_N)``, no call of ``_it``); ``and``, ``or`` and ``if`` around
        them become ``if`` statements, and the operands evaluated before a loop (an
        argument of a call, the left side of ``-``...) are computed first, in Python's
        order, into names ``s_N``. Nothing is evaluated that the expression would not
        evaluate, in the same order, so the results, the budgets and the calls computed
        once (see root) are the same as with the expression form. ``tops``: the zones'
        top items may be read from a table made once before the statements, where that
        pays (see tabulate_tops; for an expression, not a rule function's body)."""
        if not self.optimize or not self._looped(e):
            return [], self.root(e, env)
        self._start(None)
        self.memo_ok = bool(self.components)
        try:
            out: list[str] = []
            text = self._s(e, env, out, "")
            if self.found:
                self._start(self.found)
                out = []
                text = self._s(e, env, out, "")
            table = tops and tabulate_tops(out, text, len(self.t.zones), self._loop_size)
            if table:
                out, text = table
            out, text = localize(out, text)
            if any(_MEMO.search(line) for line in out) or _MEMO.search(text):
                out = [_MEMO_LINE] + out  # (this evaluation's components: see components)
            return ([_TOPS_LINE] + out if table else out), text
        finally:
            self.avail = None
            self.pre, self.temps = {}, 0
            self.bounds = {}
            self.memo_ok = self.perm_next = False

    def _loop_size(self, it: str) -> int | None:
        """How many turns a loop of the statement form over ``it`` makes, where the
        program knows it (a board's cells, a static table); else None."""
        xs = self.t.ns.get(it) if _NAME.fullmatch(it) else None
        return len(xs) if isinstance(xs, (list, tuple, range)) else None

    def _looped(self, e) -> bool:
        """Whether e holds a comprehension or an aggregate (a loop), or, in a loop
        written out, a call of a function written in place (see _s_call)."""
        known = self.has_loop.get(id(e))
        if known is None:
            found = {n.node if n.node != "Call" or n.func not in self.spliced else "spliced" for n in ir.walk(e)}
            known = self.has_loop[id(e)] = (bool(found & {"Comprehension", "Aggregate"}), "spliced" in found)
        return known[0] or (known[1] and bool(self.loops))

    def splice(self, names: set[str]) -> None:
        """The functions whose bodies the statement form writes in place of their calls
        (see _s_call): the caller (compile.Program) gives those that count no calls and
        keep no values by arguments; here, the small ones with a loop or a call that are
        not expanded as expressions already."""
        fs = self.c.functions
        self.spliced = {n for n in names if n not in self.inline
                        and any(x.node in ("Comprehension", "Aggregate", "Call") for x in ir.walk(fs[n].body))
                        and sum(1 for _ in ir.walk(fs[n].body)) <= _SPLICE_MAX}
        self.has_loop = {}

    def _s_call(self, e, env: Env, out: list[str], ind: str) -> str:
        """A call of a rule function written in place: its arguments computed in order
        (as a call computes them), then its body, its loops' variables named apart (they
        must not overwrite the caller's): in a loop, where it depends on the loop's
        variables. A call outside loops, made again, or kept for a loop's turns (see
        root) stays a call computed once; the value of one written in place serves where
        the same call is made again in the turn."""
        since = len(self.wraps)
        perm = self.perm_here
        args = []
        for i, a in enumerate(e.args):
            self._perm(self._perm_arg(e, i))
            args.append(self._s(a, env, out, ind))
        text = f"{self.prefix}{e.func}(R{''.join(', ' + a for a in args)})"
        key = None
        if self.avail is not None:
            key, ids = self._call_key(text, env, since)
            name = self.avail.get(key)
            if name is not None:
                self.found.add(name)
                return name
            if not self.loops or self._keepable(key, set(ids)):  # (in a loop, a turn's own call)
                return self._once(text, env, since)
        fd = self.c.functions[e.func]
        names = [a if _SIMPLE_ARG.fullmatch(a) else self._s_name(a, out, ind) for a in args]
        inner = Env(subst={p.name: v for p, v in zip(fd.params, names)}, ids=env.ids)
        memo = self._memo_key(fd, args, names)
        self.splicing += 1
        try:
            self._perm(perm)  # (the body's value is the call's)
            if memo is None:
                value = self._s_name(self._s(fd.body, inner, out, ind), out, ind)
            else:  # the value for this component, computed once (see _memo_key)
                (key, comp), m, value = memo, self._temp(), self._temp()
                out.extend([f"{ind}{m} = mo_.get({key})", f"{ind}if {m} is not None and {m}[2] is {comp}:",
                            f"{ind}    R.work -= {m}[1]", f"{ind}    if R.work < 0: _out_of_work(R)",
                            f"{ind}    {value} = {m}[0]", f"{ind}else:", f"{ind}    {m} = R.work"])
                body = self._apart(self._s, fd.body, inner, out, ind + "    ")
                out.extend([f"{ind}    {value} = {body}", f"{ind}    mo_[{key}] = ({value}, {m} - R.work, {comp})"])
        finally:
            self.splicing -= 1
        if key is not None and len(self.avail) < _AVAIL_MAX:
            self.avail[key] = value
        return value

    def _memo_key(self, fd, args: list[str], names: list[str]) -> tuple[str, str] | None:
        """A function written in place whose argument is a component found in this
        evaluation (``FC_name``, see components), the other arguments values Python can
        hash: its value is the same for the same component (the same list, whichever of
        its cells found it: see compile.Program._component_source) and the same other
        arguments, and is computed once (the work it counts counted again). The key in
        the evaluation's table (``mo_``), and the component's name (its list is kept with
        the value: an id is not reused while it lives); or None."""
        if not self.memo_ok:
            return None
        comp = next((n for p, a, n in zip(fd.params, args, names)
                     if p.type.name == "list" and _MEMO.search(a)), None)
        if comp is None or any(p.type.name == "list" and n != comp for p, n in zip(fd.params, names)):
            return None
        key = ", ".join(f"id({n})" if n == comp else n for n in names)
        return f"({fd.name!r}, {key})", comp

    def _keepable(self, key, ids: set[int]) -> bool:
        """Whether a call would be kept for the turns of a loop around (see _lazy)."""
        for loop in reversed(self.loops):
            if loop.barrier:
                return False
            if key in loop.kept:
                return True
            if loop.ids & ids:
                return False
            if loop.walrus:
                return True
        return False

    def _temp(self) -> str:
        """A new name of the statement form; its value may change with the variables of
        the loops around its place (what it depends on, for values computed once)."""
        self.temps += 1
        name = f"s_{self.temps}"
        self.deps[name] = tuple(i for loop in self.loops for i in loop.ids)
        return name

    def _s(self, e, env: Env, out: list[str], ind: str) -> str:
        """Statements (appended to ``out``, indented by ``ind``) computing e, and the
        text of e's value after them."""
        perm, self.perm_next = self.perm_next, False
        if not self._looped(e):
            self.perm_next = perm
            return self.expr(e, env)
        saved, self.perm_here = self.perm_here, perm
        try:
            return self._s_node(e, env, out, ind)
        finally:
            self.perm_here = saved

    def _s_node(self, e, env: Env, out: list[str], ind: str) -> str:
        node = e.node
        if node == "Aggregate" and e.func in CLOSURES:
            return self._s_closure(e, env, out, ind)
        if node == "Aggregate" and e.func == "until":
            return self._s_until(e, env, out, ind)
        if node == "Aggregate":
            return self._s_loop(e.func, e.comp, env, out, ind)
        if node == "Comprehension":
            return self._s_loop("list", e, env, out, ind)
        if node == "BinOp" and e.op in ("and", "or"):
            a = self._s(e.left, env, out, ind)
            t = self._temp()
            out.append(f"{ind}{t} = {a}")
            out.append(f"{ind}if {'' if e.op == 'and' else 'not '}{t}:")
            b = self._apart(self._s, e.right, env, out, ind + "    ")
            out.append(f"{ind}    {t} = {b}")
            return t
        if node == "UnOp":
            return f"({'not ' if e.op == 'not' else '-'}{self._s(e.operand, env, out, ind)})"
        if node == "CondExpr":
            c = self._s(e.cond, env, out, ind)
            t = self._temp()
            out.append(f"{ind}if {c}:")
            then = self._apart(self._s, e.then, env, out, ind + "    ")
            out.append(f"{ind}    {t} = {then}")
            out.append(f"{ind}else:")
            other = self._apart(self._s, e.other, env, out, ind + "    ")
            out.append(f"{ind}    {t} = {other}")
            return t
        if node == "Call" and e.func in self.spliced and self.splicing < _SPLICE_DEPTH \
                and not self._memo_call(e):
            return self._s_call(e, env, out, ind)
        if node == "BinOp" and e.op == "+" and self.ty(e).tag in ("list", "str"):
            return self._s_join(e, env, out, ind)
        looped = [i for i, k in enumerate(self._kids(e) or ()) if self._looped(k)]
        if not looped:  # (a call written in place too deep is a call)
            self._perm(self.perm_here)
            return self.expr(e, env)
        # the operands up to the last one with a loop are computed first, in order (all
        # the arguments of an inlined function's call, see _called_anyway)
        kids = self._kids(e)
        last = len(kids) - 1 if node == "Call" and e.func in self.inline else looped[-1]
        done = []
        try:
            for i, k in enumerate(kids[:last + 1]):
                self._perm(node == "Call" and self._perm_arg(e, i))
                v = self._s(k, env, out, ind)
                if not (_SIMPLE_ARG.fullmatch(v) or _TEMP.fullmatch(v)):
                    t = self._temp()
                    out.append(f"{ind}{t} = {v}")
                    v = t
                self.pre[id(k)] = v
                done.append(id(k))
            self._perm(self.perm_here)
            return self.expr(e, env)
        finally:
            for k in done:
                self.pre.pop(k, None)

    def _called_anyway(self, e) -> bool:
        """Whether an inlined function's call is made as a call all the same (an argument
        of a parameter used more than once has a loop: its text is not a name, see
        _may_expand) and its body calls no rule function: its arguments may then be
        computed first, all of them, in order, as the call computes them, and the body
        written in place with their names (the same operations, no call)."""
        fd = self.c.functions[e.func]
        repeated = self.repeated.get(e.func) or set()
        if not any(p.name in repeated and self._looped(a) for p, a in zip(fd.params, e.args)):
            return False
        return not self._counts(fd.body, set())

    def _counts(self, e, seen: set[str]) -> bool:
        """Whether evaluating an inlined function's body may count work (a call of a
        function that is not inlined, lists joined, a range), counting its calls of
        inlined functions."""
        for n in ir.walk(e):
            if n.node == "BinOp" and (n.op == ".." or (n.op == "+" and self.ty(n).tag in ("list", "str"))):
                return True
            if n.node == "Call" and n.func in self.c.functions and n.func not in seen:
                if n.func not in self.inline:
                    return True
                seen.add(n.func)
                if self._counts(self.c.functions[n.func].body, seen):
                    return True
        return False

    def _kids(self, e) -> list | None:
        """The operands of e in the order its Python text evaluates them, each once,
        whatever their values; None when that is not so (an inlined function's body
        may evaluate an argument late or not at all)."""
        n = e.node
        if n == "BinOp" and e.op not in ("and", "or"):
            return [e.left, e.right]
        if n == "Index":
            return [e.obj] if e.index.node == "IntLit" else [e.obj, e.index]
        if n == "ListLit":
            return list(e.items)
        if n == "Attr":
            return [e.obj] if self.ty(e.obj).tag in ("item", "cell") else None
        if n == "Call":
            c, f = self.c, e.func
            if f in c.functions:
                return list(e.args) if f not in self.inline or self._called_anyway(e) else None
            if f in c.relations and len(c.relations[f].params) == 2 and len(e.args) == 2:
                return None  # its second argument is evaluated first
            if c.calls_builtin(f) and f in ("cells", "player_count", "turn_number"):
                return None
            return list(e.args)
        return None

    def _s_bind(self, env: Env, name: str) -> tuple[Env, str]:
        """A variable of a loop written out: its Python name is ``v_NAME``, or ``wN_NAME``
        (N its number) where ``v_NAME`` is bound already (a parameter, a variable of a
        loop around): a statement's loop variable is not a comprehension's own, and
        would overwrite it."""
        taken = env.lookup(name) is not None or self.splicing > 0
        inner = env.bind(name)
        if not taken:
            return inner, f"v_{name}"
        var = inner.subst[name] = f"w{inner.ids[name]}_{name}"
        return inner, var

    def _s_closure(self, e, env: Env, out: list[str], ind: str) -> str:
        """``connected(x for x in REL(START) if COND)`` as loops (what helpers._connected
        does, with the condition in place of a call of a lambda per cell)."""
        cl = e.comp.clauses[0]
        start = cl.iter.args[0]
        s = self._s(start, env, out, ind)
        if self.ty(start).tag != "list":
            s = f"({s},)"
        s = self._s_name(s, out, ind)
        found, seen, work, at, near = (self._temp() for _ in range(5))
        inner, var = self._s_bind(env, cl.var)
        cond = None
        if e.comp.cond is not None:
            cond = self._apart(self._barrier, e.comp.cond, inner)
        keep = [f"{found}.append({var})"] if cond is None else [f"if {cond}:", f"    {found}.append({var})"]
        step = [f"{seen}.add({var})"] + keep
        lines = [f"{found} = []", f"{seen} = set()",
                 f"for {var} in {s}:", f"    if {var} is not None and {var} not in {seen}:",
                 *("        " + x for x in step),
                 f"{work} = len({s})",
                 f"for {at} in {found}:", f"    {near} = REL_{cl.iter.func}[{at}]",
                 f"    {work} += len({near})", f"    for {var} in {near}:",
                 f"        if {var} not in {seen}:", *("            " + x for x in step),
                 f"R.work -= {work}", "if R.work < 0: _out_of_work(R)"]
        out.extend(ind + x for x in lines)
        self.last_closure = (found, work)
        return found

    def _s_range(self, e, env: Env, out: list[str], ind: str) -> str:
        """The iterable of a loop over ``a..b`` written out: a Python range, counted
        against the work budget and checked against the range budget as helpers._range
        does, without making the list."""
        a, b = (self._s_value(x, env, out, ind) for x in (e.left, e.right))  # (in order)
        limit = self.t.budgets.range
        if _INT.fullmatch(a) and _INT.fullmatch(b):  # known now
            n = int(b.strip("()")) - int(a.strip("()")) + 1
            if n > limit:
                out.append(f"{ind}_too_long({a}, {b}, {limit})")
            elif n > 0:
                out.extend([f"{ind}R.work -= {n}", f"{ind}if R.work < 0: _out_of_work(R)"])
            return f"range({a}, {b} + 1)"
        n = self._temp()
        out.extend(ind + x for x in [f"{n} = {b} - {a} + 1", f"if {n} > {limit}: _too_long({a}, {b}, {limit})",
                                     f"if {n} > 0:", f"    R.work -= {n}", "    if R.work < 0: _out_of_work(R)"])
        return f"range({a}, {b} + 1)"

    def _s_value(self, e, env: Env, out: list[str], ind: str) -> str:
        """A value computed now (in a name, unless its text is a name or a constant)."""
        text = self._s(e, env, out, ind)
        return text if _SIMPLE_ARG.fullmatch(text) else self._s_name(text, out, ind)

    def _s_iterable(self, e, env: Env, out: list[str], ind: str) -> str:
        """The iterable of a loop written out; a zone's items are walked in place (the
        loop changes nothing: no copy of the list is needed)."""
        if e.node == "Call" and e.func == "items" and self.c.calls_builtin("items"):
            self._perm(False)
            return f"R.z[{self._s(e.args[0], env, out, ind)}]"
        return self._s(e, env, out, ind)

    def _s_join(self, e, env: Env, out: list[str], ind: str) -> str:
        """``a + b`` of lists or strings, an operand with a loop: both computed in order,
        then counted against the work budget as helpers._cat counts them, in place."""
        joined = self._relations_joined(e, env)
        if joined is not None:  # the two lists joined, from a table
            res = self._s_name(joined, out, ind)
            out.extend([f"{ind}R.work -= len({res})", f"{ind}if R.work < 0: _out_of_work(R)"])
            return res
        a = self._s_name(self._s(e.left, env, out, ind), out, ind)
        b = self._s_name(self._s(e.right, env, out, ind), out, ind)
        out.extend([f"{ind}R.work -= len({a}) + len({b})", f"{ind}if R.work < 0: _out_of_work(R)"])
        return f"({a} + {b})"

    def _relations_joined(self, e, env: Env) -> str | None:
        """``r(x) + q(x)``, two relations of two cells given the same cell ``x`` (a name):
        the text of the two lists joined read from a table made once per program
        (``CAT_...[x]``: the same cells in the same order; relations' lists are never
        changed in place, so one list per cell serves every join), else None."""
        rels = self.c.relations
        kids = (e.left, e.right)
        if not all(k.node == "Call" and k.func in rels and k.func not in self.c.functions
                   and len(rels[k.func].params) == 2 and len(k.args) == 1
                   and k.args[0].node == "Var" for k in kids):  # (names: text written once)
            return None
        x = self.expr(e.left.args[0], env)
        if x != self.expr(e.right.args[0], env) or not _SIMPLE_ARG.fullmatch(x):
            return None
        first, then = e.left.func, e.right.func
        name = f"CAT_{len(first)}_{first}_{then}"  # (one name per pair of relations)
        if name not in self.t.ns:
            self.t.ns[name] = [a + b for a, b in zip(self.t.ns[f"REL_{first}"], self.t.ns[f"REL_{then}"])]
        return f"{name}[{x}]"

    def _s_until(self, e, env: Env, out: list[str], ind: str) -> str:
        """``until(x for x in LIST if COND)`` as a loop (what helpers._until does, with the
        condition in place of a call of a lambda per element; like the lambda's, it keeps
        no value for the loops around)."""
        cl = e.comp.clauses[0]
        xs = self._s_name(self._s(cl.iter, env, out, ind), out, ind)
        res = self._temp()
        inner, var = self._s_bind(env, cl.var)
        cond = self._apart(self._barrier, e.comp.cond, inner)
        out.extend(ind + x for x in [f"{res} = []", f"for {var} in {xs}:", f"    {res}.append({var})",
                                     f"    if {cond}:", "        break",
                                     f"R.work -= len({res})", "if R.work < 0: _out_of_work(R)"])
        return res

    def _joined(self, e, env: Env):
        """``a + b`` of two lists, also as the body of an inlined function (its arguments
        names or constants: see _may_expand), and the names the body reads; else None."""
        if e.node == "Call" and e.func in self.inline:
            body = self.c.functions[e.func].body
            simple = [self._unbound(self.expr, a, env, walrus=True) for a in e.args]
            if body.node == "BinOp" and all(_SIMPLE_ARG.fullmatch(a) for a in simple):
                params = self.c.functions[e.func].params
                return self._joined(body, Env(subst={p.name: f"({a})" for p, a in zip(params, simple)},
                                              ids=env.ids))
            return None, env
        if e.node == "BinOp" and e.op == "+" and self.ty(e).tag == "list":
            return e, env
        return None, env

    def _s_name(self, text: str, out: list[str], ind: str) -> str:
        """A name for a value (a new s_N, unless the text is a name)."""
        if _NAME.fullmatch(text):
            return text
        t = self._temp()
        out.append(f"{ind}{t} = {text}")
        return t

    def _s_loop(self, kind: str, comp, env: Env, out: list[str], ind: str) -> str:
        """A comprehension (``kind`` "list") or an aggregate as ``for`` loops; the name
        of its value."""
        free, saved = self.free, self.avail
        perm = self.perm_here
        loop = _Loop(walrus=True)
        res = self._temp()
        calls = self._calls_loop(comp, spliced=True)
        heads = []  # (line index of each 'for', its indentation)
        sizes: list[int | None] = []  # the most turns of each clause's loop, if known
        try:
            inner, cur = env, ind
            for i, cl in enumerate(comp.clauses):
                where, at = self._joined(cl.iter, inner)
                joined = where is not None
                cat = self._relations_joined(where, at) if joined else None
                if cat is not None:  # 'for x in r(c) + q(c)': the joined lists, from a table
                    it = self._s_name(cat, out, cur)
                elif joined:  # 'for x in a + b': the two lists counted as _cat counts them
                    parts = [self._s_name(self._s(x, at, out, cur), out, cur) for x in (where.left, where.right)]
                    out.append(f"{cur}R.work -= len({parts[0]}) + len({parts[1]})")
                    out.append(f"{cur}if R.work < 0: _out_of_work(R)")
                    it = f"{parts[0]} + {parts[1]}"
                elif cl.iter.node == "BinOp" and cl.iter.op == "..":  # counted as _range counts it
                    it, joined = self._s_range(cl.iter, inner, out, cur), True
                else:
                    # (the elements' order does not matter for a count, or where the list's
                    # own order does not)
                    self._perm(kind == "count" or (kind == "list" and perm))
                    it = self._s_iterable(cl.iter, inner, out, cur)
                if i == 0:
                    if self.avail is not None:
                        self.avail = dict(self.avail)  # the rest may not run
                    self.loops.append(loop)
                inner, var = self._s_bind(inner, cl.var)
                loop.ids.add(inner.ids[cl.var])
                if calls:
                    size = None
                elif cat is not None:  # (as a relation's row: see _fixed_size)
                    size = max(map(len, self.t.ns[cat.split("[", 1)[0]]), default=0)
                else:
                    size = self._fixed_size(cl.iter)
                    if size is None and not joined:
                        size = self.bounds.get(it)  # a list a loop over fixed tables made
                sizes.append(size)
                if size is not None and self.free * size <= _FREE_LOOPS:
                    self.free *= size
                else:
                    if cat is not None or (not joined and not _counted(cl.iter, it)):  # as _it counts it
                        it = self._s_name(it, out, cur)
                        out.append(f"{cur}R.work -= len({it})")
                        out.append(f"{cur}if R.work < 0: _out_of_work(R)")
                    # each counted turn may make up to _FREE_LOOPS uncounted turns of the
                    # loops inside (a small loop inside runs more often than one around it)
                    self.free = 1
                if len(comp.clauses) == 1:  # kept values may be computed before it
                    it = loop.first = self._s_name(it, out, cur)
                    loop.cdepth = self.cdepth
                heads.append((len(out), cur))
                out.append(f"{cur}for {var} in {it}:")
                cur += "    "
            body = len(out)
            cond = None
            if comp.cond is not None:
                if self.avail is not None and not self._looped(comp.cond):
                    cond, yes, _ = self._test(comp.cond, inner)
                    self.avail = dict(yes)  # the element is computed where it holds
                else:
                    cond = self._s(comp.cond, inner, out, cur)
                out.append(f"{cur}if {cond}:")
                cur += "    "
            self.cdepth += cond is not None  # the element is computed where the condition holds
            try:
                el = None if kind == "count" else self._s(comp.elem, inner, out, cur)
            finally:
                self.cdepth -= cond is not None
            static = None
            if cond is not None and len(heads) == 1 and out[body] == f"{heads[0][1]}    if {cond}:":
                static = self._static_cells(comp.clauses[0], var, out[heads[0][0]], cond,
                                            out[body + 1:] + [el or ""])
            if static is not None:  # the cells the condition's static part lets through
                (start, at), (it, cond) = heads[0], static
                out[start] = f"{at}for {var} in {it}:"
                if cond is None:  # nothing left to test: the body one level up
                    out[body:] = [line[4:] for line in out[body + 1:]]
                    cur = cur[:-4]
                else:
                    out[body] = f"{at}    if {cond}:"
            simple = len(heads) == 1 and len(out) == body + (cond is not None)
            if static is not None and simple and cond is None and (kind == "count" or (kind == "list" and el == var)):
                del out[heads[0][0]:]  # the cells themselves, or how many
                out.append(f"{ind}{res} = {'len' if kind == 'count' else 'list'}({static[0]})")
                heads = []
            elif kind == "list" and simple and self._long(comp):  # a Python comprehension
                start, _ = heads[0]
                head = out[start].strip()[:-1]
                del out[start:]
                out.append(f"{ind}{res} = [{el} {head}{'' if cond is None else ' if ' + cond}]")
                heads = []
            else:
                out.extend(cur + line for line in emit(_LOOPS[kind].step, PyLoop(self, kind, res, el)).split("\n"))
            if "break" in _LOOPS[kind].step:  # 'break' leaves every loop
                for _start, at in reversed(heads[1:]):
                    out.extend([f"{at}else:", f"{at}    continue", f"{at}break"])
            if heads:
                start = heads[0][0]
                out.insert(start, f"{ind}{res} = {_LOOPS[kind].step_start}")
            else:
                start = len(out) - 1
            kept = [f"{ind}{name} = _NOT_YET" for name in loop.kept.values() if name not in loop.eager]
            if loop.eager:  # computed at the loop's first turn whatever happens: before it
                kept += [f"{ind}if {loop.first}:"] + [f"{ind}    {n} = {t}" for n, t in loop.eager.items()]
            out[start:start] = kept  # calls kept for the loop's turns
            self.binds += len(loop.kept)
            if _LOOPS[kind].step_end:
                out.append(ind + _LOOPS[kind].step_end.format(r=res))
            if kind == "list" and all(n is not None for n in sizes):
                self.bounds[res] = math.prod(sizes)  # (a filter only drops elements)
            return res
        finally:
            self._leave(loop, free, saved)

    def _static_cells(self, cl, var: str, head: str, cond: str, later: list[str]):
        """The cells a loop over a board's cells walks (``for var in cells(b) if cond``)
        when the condition's first conjuncts read only static facts of the cell (its
        coordinates, relations between cells, constants: see _pure_text): a tuple of the
        cells they let through, or, where one of them is ``static == value`` (the value
        read before the loop: a name, a coordinate of another cell...), a table of those
        cells by the static side (``IX_N.get(value, ())``); and the rest of the
        condition (None: nothing left). The tables are made now, by running the
        conjuncts' own text over the board's cells in order; where that fails for a cell
        (an error the rules may make), nothing is hoisted: the loop fails as it did. The
        value is read once, and only where the loop would read it at least once (a cell
        gets to its conjunct). The work budget counts the board's cells as before (the
        lines before the loop are left alone). None where this does not apply."""
        if cl.iter.node != "Call" or cl.iter.func != "cells" or not self.c.calls_builtin("cells"):
            return None
        board = f"BOARD_{self.ty(cl.iter.args[0]).arg}"
        cells = self.t.ns.get(board)
        if not head.endswith(f" in {board}:") or not cells:
            return None
        if not _STATIC_HINT.search(cond) and not self._kept_hint(cond):
            return None
        parts = _conjuncts(cond)
        if parts is None:
            return None
        text = cond.encode()  # (ast's columns count bytes)

        def segment(node) -> str:
            return text[node.col_offset:node.end_col_offset].decode()
        plan, key, bound = [], None, set()  # the static conjuncts: ("if"|"key"|"kept"|"given", text)
        # the values given from before the loop to a kept call (see _kept_call) or read by
        # the static conjuncts (see _given_conjunct)
        given = None
        for node in parts:
            names = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
            if _pure_text(node, {var} | bound | names, None):
                plan.append(("if", segment(node)))
            elif key is None and given is None and (split := _keyed(node, var, bound | names)) is not None:
                plan.append(("key", segment(split[0])))
                key = segment(split[1])
            elif key is None and given is None and not names \
                    and (call := self._kept_call(node, var, bound, segment)) is not None:
                plan.append(("kept", call[0]))
                given = call[1]
            elif key is None and (by := _given_conjunct(node, var, bound | names, len(given or ()))) is not None:
                plan.append(("given", by[0]))
                given = (given or []) + by[1]
            else:
                break
            bound |= names
        if not plan:
            return None
        rest = [segment(node) for node in parts[len(plan):]]
        # a name bound in the static part (``once_N := ...``) must not be read after it
        if bound and any(re.search(rf"\b{n}\b", t) for n in bound for t in rest + later):
            return None
        if given is not None:  # a table by the values given, filled as they come
            name = self._kept_table(board, var, plan, len(given))
            args = "".join(f"{g}, " for g in given)
            return (f"_kept_cells(R, {name}, ({args}), {name}F)",
                    " and ".join(f"({t})" for t in rest) if rest else None)
        table = self._static_table(board, cells, var, plan)
        if table is None:
            return None
        name, reached = table
        if key is not None:
            it = f"{name}.get({key}, ())" if reached else "()"
        else:
            it = name
        return it, (" and ".join(f"({t})" for t in rest) if rest else None)

    def _kept_hint(self, cond: str) -> bool:
        """Whether a condition may call a kept function (see _kept_call)."""
        return any(isinstance(self.t.ns.get(f"KEPT_{m}"), dict) for m in _CALLED.findall(cond))

    def _kept_call(self, node, var: str, bound: set[str], segment):
        """A call of a rule function whose values are kept by their arguments (it reads
        nothing of the state: compile.Program._kept_functions), each argument either a
        static fact of the loop's cell (see _pure_text) or a value that does not depend
        on the cell, read before the loop (a name bound before it, a local, the active
        player): (the call's text with those values written ``k_0``, ``k_1``..., their
        texts), or None. The call holds for the same cells whenever it is given the
        same values: the loop walks a table of them by those values."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords
                and node.func.id.startswith("F_")
                and isinstance(self.t.ns.get(f"KEPT_{node.func.id[2:]}"), dict) and node.args
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "R"):
            return None
        texts, given, by_cell = ["R"], [], False
        for a in node.args[1:]:
            if isinstance(a, ast.Starred):
                return None
            reads = {x.id for x in ast.walk(a) if isinstance(x, ast.Name)}
            if var in reads and _pure_text(a, {var} | bound, None):
                texts.append(segment(a))
                by_cell = True
            elif var not in reads and _pure_text(a, bound | {var}, var):  # (not a name bound per cell)
                texts.append(f"k_{len(given)}")
                given.append(segment(a))
            else:
                return None
        if not by_cell or not given:
            return None
        return f"{node.func.id}({', '.join(texts)})", given

    def _kept_table(self, board: str, var: str, plan: list, given: int) -> str:
        """The name of the table (a dict: the values given -> the cells, see _kept_call)
        of the cells that ``plan``'s conjuncts let through, and of the function that
        makes an entry (``NAME`` + ``F``): a program's, by its text, as _static_table."""
        params = "".join(f", k_{i}" for i in range(given))
        cond = " and ".join(f"({text})" for _, text in plan)
        src = f"def _kept_(R{params}):\n    return tuple([{var} for {var} in {board} if {cond}])\n"
        known = self.static_tables.get((board, src))
        if known is not None:
            return known[0]
        name = f"KC_{len(self.static_tables) + 1}"
        scope: dict = {}
        exec(compile(src, "<kept cells>", "exec"), self.t.ns, scope)  # noqa: S102 - generated from the checked IR
        self.t.ns[name], self.t.ns[name + "F"] = {}, scope["_kept_"]
        self.static_tables[(board, src)] = name, True
        return name

    def _static_table(self, board: str, cells: list, var: str, plan: list):
        """The name of the table of the cells that the static conjuncts of ``plan`` let
        through (see _static_cells), made now and kept in the program's namespace under
        a number of this program (the same text, the same name, wherever it is compiled:
        native code is kept by its text), and whether a cell got to the keyed conjunct;
        None where running the conjuncts fails."""
        # per cell: None before the keyed conjunct, else (its static side, whether all hold)
        lines, miss = [f"def _static_({var}):"], "None"
        for what, text in plan:
            if what == "if":
                lines.append(f"    if not ({text}): return {miss}")
            else:
                lines.append(f"    key_ = ({text})")
                miss = "(key_, False)"
        keyed = miss != "None"
        lines.append(f"    return {'(key_, True)' if keyed else '(True, True)'}")
        src = "\n".join(lines)
        known = self.static_tables.get((board, src))
        if known is not None:
            return known
        scope: dict = {}
        try:
            exec(compile(src, "<static cells>", "exec"), self.t.ns, scope)  # noqa: S102 - generated from the checked IR
            fn = scope["_static_"]
            found: dict = {}
            reached = False
            for c in cells:
                got = fn(c)
                if got is not None:
                    reached = True
                    cells_of = found.setdefault(got[0], [])  # (a key Python cannot hash fails here)
                    if got[1]:
                        cells_of.append(c)
        except Exception:  # noqa: BLE001 - a rule's error: the loop stays as it was
            return None
        if keyed:
            value = {k: tuple(v) for k, v in found.items()}
            name = f"IX_{len(self.static_tables) + 1}"
        else:
            value = tuple(found.get(True, ()))
            name = f"PRE_{len(self.static_tables) + 1}"
        self.t.ns[name] = value
        self.static_tables[(board, src)] = name, reached
        return name, reached

    def _long(self, comp) -> bool:
        """Whether a list comprehension of one clause with no statement inside is
        written as a Python comprehension rather than a ``for`` loop that appends: where
        its iterable is known to be long (a big board's cells). A comprehension costs a
        function's call (Python 3.11) and makes the names it reads from the code around
        it slower there (cells): a short list is made faster by a loop."""
        size = self._fixed_size(comp.clauses[0].iter)
        return size is not None and size > _COMP_MIN

    def expr(self, e, env: Env) -> str:
        perm, self.perm_next = self.perm_next, False
        if self.pre:
            done = self.pre.get(id(e))
            if done is not None:
                return done
        saved, self.perm_here = self.perm_here, perm
        try:
            return getattr(self, "_" + e.node)(e, env)
        finally:
            self.perm_here = saved

    def _perm(self, flag: bool) -> None:
        """The expression compiled next (by expr or _s) may be computed in any order."""
        self.perm_next = flag

    # ------------------------------------------------------------ leaves
    def _IntLit(self, e, env):
        return repr(e.value)

    def _StrLit(self, e, env):
        return repr(e.value)

    def _BoolLit(self, e, env):
        return "True" if e.value else "False"

    def _NoneLit(self, e, env):
        return "None"

    def _Var(self, e, env):
        n = e.name
        local = env.lookup(n)
        if local is not None:
            return local
        c = self.c
        if n == "active" and not c.declares(n):   # (a declaration hides the built-in)
            return "R.active"
        if n == "players" and not c.declares(n):
            return "R.players"
        if n in c.vars:
            return f"R.g[{n!r}]"
        if n in c.enum_of_value:
            return repr(n)
        if n in c.enums:
            return f"E_{n}"
        if n in c.kinds:
            return f"KIND_{n}"
        if n in c.zones:
            return f"Z_{n}"  # a zone's number, known once the zones are laid out
        if n in c.boards:
            return repr(n)
        raise AssertionError(f"unresolved name {n}")

    def _Attr(self, e, env):
        t = self.ty(e.obj)
        if t.tag == "list" and t.arg.tag == "enum":  # Enum.value
            return repr(e.name)
        since = len(self.wraps)
        obj = self.expr(e.obj, env)
        if t.tag == "item":
            if e.name in self.c.item_vars.get(t.arg, {}):
                text = f"R.iv[{e.name!r}][{obj}]"
            else:
                text = f"A_{e.name}[{obj}]"
        elif e.name == "name":
            text = f"CELL_NAME[{obj}]"
        else:
            text = f"C_{e.name}[{obj}]"
        if _SIMPLE_ARG.fullmatch(obj) and "lazy_" not in obj:
            return text  # an attribute of a name: as cheap as a name of a value kept
        return self._pure(e, env, text, since)

    def _CellAt(self, e, env):
        """``cell(board, row: r, col: c)``: a look-up in a table of the board's cells by
        these coordinates (``None`` when there is no such cell)."""
        table = self.t.cell_table(self.ty(e.board).arg, tuple(a.name for a in e.coords), e)
        since = len(self.wraps)
        key = "(" + "".join(self.expr(a.value, env) + ", " for a in e.coords) + ")"
        return self._pure(e, env, f"{table}.get({key})", since)

    def _Ray(self, e, env):
        """``ray(start, file: 1, rank: 0)``: a look-up in the board's table of rays by the
        start and the steps (each ray walked once, see helpers._RayTable)."""
        keys = tuple(a.name for a in e.steps)
        table = self.t.ray_table(self.ty(e.start).arg, keys, e)
        key = "(" + ", ".join([self.expr(e.start, env)] + [self.expr(a.value, env) for a in e.steps]) + ")"
        return f"{table}[{key}]"

    def _Index(self, e, env):
        if e.index.node == "IntLit":  # a negative literal is a UnOp, so this is >= 0
            return f"{self.expr(e.obj, env)}[{e.index.value}]"
        since = len(self.wraps)
        obj, i = self.expr(e.obj, env), self.expr(e.index, env)
        text = f"_index({obj}, {i})"
        r = self._int_range(e.index, env) if self.optimize and _BOARD_LIST.fullmatch(obj) else None
        if r is not None and r[0] >= 0 and r[1] < len(self.t.ns[obj]):
            text = f"{obj}[{i}]"  # (the fast code: a board's cells, at an index always inside)
        elif self.optimize and _NAMED_INDEX.fullmatch(i) and len(obj) <= _INDEXED_MAX:
            # the fast code: Python's index where it is not negative (past the end, Python
            # fails: the straightforward code runs again and fails as always); the index
            # is a name bound before, so reading it first changes nothing
            text = f"({obj}[{i}] if {i} >= 0 else {text})"
        return self._pure(e, env, text, since)

    def _ListLit(self, e, env):
        return "[" + ", ".join(self.expr(x, env) for x in e.items) + "]"

    def _CondExpr(self, e, env):
        if self.avail is None:
            return f"({self.expr(e.then, env)} if {self.expr(e.cond, env)} else {self.expr(e.other, env)})"
        cond, yes, no = self._test(e.cond, env)  # in the order Python evaluates them
        self.cdepth += 1
        try:
            self.avail = dict(yes)
            then = self.expr(e.then, env)
            self.avail = dict(no)
            other = self.expr(e.other, env)
        finally:
            self.cdepth -= 1
        self.avail = _common(yes, no)
        return f"({then} if {cond} else {other})"

    def _test(self, e, env) -> tuple[str, dict, dict]:
        """A condition's text, and the calls known to have run after it when it holds
        and when it does not (``a and b`` holds: both ran)."""
        perm, self.perm_next = self.perm_next, False
        if e.node == "BinOp" and e.op in ("and", "or"):
            a, a_yes, a_no = self._test(e.left, env)
            self.avail = dict(a_yes if e.op == "and" else a_no)  # b runs only then
            self.cdepth += 1
            try:
                b, b_yes, b_no = self._test(e.right, env)
            finally:
                self.cdepth -= 1
            if e.op == "and":
                return f"({a} and {b})", b_yes, _common(a_no, b_no)
            return f"({a} or {b})", _common(a_yes, b_yes), b_no
        if e.node == "UnOp" and e.op == "not":
            a, a_yes, a_no = self._test(e.operand, env)
            return f"(not {a})", a_no, a_yes
        self.tested = None
        self._perm(perm)
        text = self.expr(e, env)
        tested, self.tested = self.tested, None
        if tested is not None and tested[0] == text:  # an inlined function's body, in place
            return text, tested[1], tested[2]
        return text, self.avail, self.avail

    def _UnOp(self, e, env):
        if e.op == "not":
            return f"(not {self.expr(e.operand, env)})"
        return f"(-{self.expr(e.operand, env)})"

    def _BinOp(self, e, env):
        op = e.op
        if op in ("and", "or") and self.avail is not None:
            # the right side knows what the left computed when it ran (see _test)
            text, yes, no = self._test(e, env)
            self.avail = _common(yes, no)
            return text
        since = len(self.wraps)
        a = self.expr(e.left, env)
        b = self._apart(self.expr, e.right, env) if op in ("and", "or") else self.expr(e.right, env)
        if op in ("and", "or"):
            return f"({a} {op} {b})"
        if op in CMP:
            return f"({a} {CMP[op]} {b})"
        if op in ("in", "not in"):
            rt = self.ty(e.right)
            if rt.tag in ("zone", "cell"):
                test = f"(R.loc[{a}] == {b})" if op == "in" else f"(R.loc[{a}] != {b})"
                return test
            return f"({a} {op} {b})"
        if op == "..":
            return f"_range(R, {a}, {b}, {self.t.budgets.range})"
        if op == "*":
            if self._within(e, env, self.t.budgets.integer):  # (the fast code: no bound to check)
                return self._pure(e, env, f"({a} * {b})", since)
            return self._pure(e, env, f"_mul({a}, {b}, {self.t.budgets.integer})", since)
        if op == "+" and self.ty(e).tag in ("list", "str"):  # lists and strings join
            if self.optimize and self.ty(e).tag == "str" and (bound := self._text_bound(e)) is not None \
                    and bound <= _FREE_TEXT:
                return f"({a} + {b})"  # (short texts: not counted, as small loops are not)
            return f"_cat(R, {a}, {b})"
        if op in ("/", "%"):
            r = self._int_range(e.right, env) if self.optimize else None
            if r is not None and not r[0] <= 0 <= r[1]:  # (the fast code: never by 0)
                return self._pure(e, env, f"({a} {'//' if op == '/' else '%'} {b})", since)
            return self._pure(e, env, f"{'_div' if op == '/' else '_mod'}({a}, {b})", since)
        return f"({a} {op} {b})"

    def _int_range(self, e, env: Env | None = None, depth: int = 0) -> tuple[int, int] | None:
        """The least and the most an integer expression's value can be, where the
        expression says it whatever the state: a literal, a seat or the number of
        players (the program's), a static coordinate of a board's cell, and what
        arithmetic, abs, min, max, a choice and a call of a function whose body is such
        make of them; else None. (A value that is not an integer, such as none where a
        cell is expected, fails before any arithmetic on it: the straightforward code
        runs again and fails as always.)"""
        match e.node:
            case "IntLit":
                return e.value, e.value
            case "UnOp" if e.op == "-":
                r = self._int_range(e.operand, env, depth)
                return None if r is None else (-r[1], -r[0])
            case "CondExpr":
                a, b = self._int_range(e.then, env, depth), self._int_range(e.other, env, depth)
                return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
            case "BinOp" if e.op in ("+", "-", "*", "/", "%"):
                a, b = self._int_range(e.left, env, depth), self._int_range(e.right, env, depth)
                return None if a is None or b is None else _arith_range(e.op, a, b)
            case "Call" if e.func in self.c.functions:  # (a rule function's name comes first)
                if depth >= 8:
                    return None
                fd = self.c.functions[e.func]
                return self._int_range(fd.body, Env(ranges=self._arg_ranges(fd, e.args, env, depth)), depth + 1)
            case "Attr" if e.name != "name" and self.ty(e.obj).tag == "cell":
                values = [self.t.ns[f"C_{e.name}"][c] for c in self.t.ns.get(f"BOARD_{self.ty(e.obj).arg}", ())]
                if values and all(type(v) is int for v in values):
                    return min(values), max(values)
            case "Call" if self.c.calls_builtin(e.func) and PRIMITIVES[e.func].span is not None:
                spans = [self._int_range(a, env, depth) for a in e.args]
                return PRIMITIVES[e.func].span(spans, self.t.n)
            case "Var" if env is not None:
                return env.ranges.get(e.name)
        return None

    def _arg_ranges(self, fd, args, env: Env | None, depth: int = 0) -> dict[str, tuple[int, int]]:
        """The ranges of a call's integer arguments that are known, by parameter."""
        if not self.optimize or depth >= 8:
            return {}
        out = {p.name: self._int_range(a, env, depth + 1) for p, a in zip(fd.params, args)}
        return {k: v for k, v in out.items() if v is not None}

    def _within(self, e, env: Env, limit: int) -> bool:
        """Whether the fast code knows that the integer expression's value is between
        -limit and limit whatever the state (see _int_range)."""
        r = self._int_range(e, env) if self.optimize else None
        return r is not None and -limit <= r[0] and r[1] <= limit

    def _text_bound(self, e, depth: int = 0) -> int | None:
        """The most characters a text expression's value can have, where the expression
        says it whatever the state: a literal, a cell's name, a choice between such, a
        join of such, a call of a function whose body is such; else None."""
        match e.node:
            case "StrLit":
                return len(e.value)
            case "Attr" if e.name == "name" and self.ty(e.obj).tag not in ("item", "list"):
                # (a cell's name, as _Attr reads it: CELL_NAME)
                return max((len(n) for n in self.t.ns["CELL_NAME"] if n is not None), default=0)
            case "CondExpr":
                a, b = self._text_bound(e.then, depth), self._text_bound(e.other, depth)
                return None if a is None or b is None else max(a, b)
            case "BinOp" if e.op == "+":
                a, b = self._text_bound(e.left, depth), self._text_bound(e.right, depth)
                return None if a is None or b is None else a + b
            case "Call" if e.func in self.c.functions and depth < 8:
                return self._text_bound(self.c.functions[e.func].body, depth + 1)
        return None

    # ------------------------------------------------------------ comprehensions
    def _loop(self, comp: ir.Comprehension, env: Env, perm: bool = False) -> tuple[str, str, str]:
        """A comprehension's loops, its element's text and the text computed before the
        loops, if any (see _before): its first iterable when that binds a name (Python
        forbids ':=' in an iterable: ``(it_N := ...), ``), and the names that keep calls
        computed once for all the turns of the loop (``(lazy_N := _NOT_YET), ``)."""
        free = self.free
        saved = self.avail
        loop = _Loop(walrus=not self.no_walrus)
        try:
            parts = []
            inner = env
            pre = ""
            plain = []  # the loops with the first iterable in place (see _wrapped)
            calls = self.optimize and self._calls_loop(comp)
            for i, cl in enumerate(comp.clauses):
                binds = self.binds
                self._perm(perm)  # (its elements' order does not matter where perm)
                if i == 0:
                    it = self.expr(cl.iter, inner)  # evaluated once, before the loop
                    if self.avail is not None:
                        self.avail = dict(self.avail)  # the rest may not run
                    self.loops.append(loop)
                else:
                    it = self._unbound(self.expr, cl.iter, inner)
                inner = inner.bind(cl.var)
                loop.ids.add(inner.ids[cl.var])
                size = None if not self.optimize or calls else self._fixed_size(cl.iter)
                if size is not None and self.free * size <= _FREE_LOOPS:
                    self.free *= size
                else:
                    if not _counted(cl.iter, it):
                        it = f"_it(R, {it})"  # the work budget: nested loops cannot run for ever
                    self.free = 1  # (as in _s_loop)
                plain.append(f"for v_{cl.var} in {it}")
                if i == 0 and self.binds != binds:
                    self.iters += 1
                    pre, it = f"(it_{self.iters} := {it}), ", f"it_{self.iters}"
                parts.append(f"for v_{cl.var} in {it}")
            if comp.cond is not None:
                if self.avail is None:
                    parts.append(f"if {self.expr(comp.cond, inner)}")
                else:  # the element is computed where the condition holds
                    cond, yes, _ = self._test(comp.cond, inner)
                    parts.append(f"if {cond}")
                    self.avail = dict(yes)
                plain.append(parts[-1])
            el = self.expr(comp.elem, inner)
            kept = "".join(f"({name} := _NOT_YET), " for name in loop.kept.values())
            self.binds += len(loop.kept)
            return " ".join(parts), el, pre + kept, (" ".join(plain), kept)
        finally:
            self._leave(loop, free, saved)

    def _leave(self, loop, free, saved) -> None:
        """After a loop's code: the free turns, the loops around and the values known
        before it, as they were."""
        self.free = free
        if self.loops and self.loops[-1] is loop:
            self.loops.pop()
        if saved is not None:
            self.avail = saved

    def _fixed_size(self, e) -> int | None:
        """The most elements the iterable can have when it is a board's cells or a row
        of a relation of two cells (tables made before the fast code), else None."""
        if e.node == "Ray":
            return self.t.ray_bound(self.ty(e.start).arg, tuple(a.name for a in e.steps))
        if e.node == "Aggregate" and e.func == "until":  # a part of its list, counted
            return self._fixed_size(e.comp.clauses[0].iter)
        if e.node != "Call" or len(e.args) != 1:
            return None
        if e.func == "cells" and self.c.calls_builtin("cells"):
            cells = self.t.boards.get(self.ty(e.args[0]).arg)
            return None if cells is None else len(cells)
        r = self.c.relations.get(e.func)
        if r is not None and len(r.params) == 2 and e.func not in self.c.functions:
            table = self.t.ns.get(f"REL_{e.func}")
            return None if table is None else max(map(len, table), default=0)
        return None

    def _calls_loop(self, e, seen=None, spliced: bool = False) -> bool:
        """Whether evaluating e may call a function that loops or calls others (an
        inlined function's body has no loop: only its calls count). ``spliced``: in the
        statement form, where a spliced function's body is written in place (its loops
        are then counted, or not, as the loops around them say), or called where its
        value is kept (a call that loops at most as its own code counts)."""
        seen = set() if seen is None else seen
        for n in ir.walk(e):
            if n.node == "Call" and n.func in self.c.functions and n.func not in seen:
                if n.func not in self.inline and not (spliced and n.func in self.spliced):
                    return True
                seen.add(n.func)
                if self._calls_loop(self.c.functions[n.func].body, seen, spliced):
                    return True
        return False

    def _Comprehension(self, e, env):
        loops, el, pre, (plain, kept) = self._loop(e, env, self.perm_here)
        return self._wrapped(_before(pre, f"[{el} {loops}]"), _before(kept, f"[{el} {plain}]"))

    def _Aggregate(self, e, env):
        if e.func in CLOSURES:
            return self._closure(e, env)
        if e.func == "until":
            return self._until(e, env)
        loops, el, pre, (plain, kept) = self._loop(e.comp, env, e.func == "count")
        return self._wrapped(_before(pre, self._aggregate(e, el, loops)),
                             _before(kept, self._aggregate(e, el, plain)))

    def _aggregate(self, e, el: str, loops: str) -> str:
        return emit(PRIMITIVES[e.func].over, PyOver(self, e, el, loops))

    def _closure(self, e, env):
        """``connected(x for x in REL(START) if COND)``: a walk at run time
        (``helpers._connected``) over the relation's table, the condition a function."""
        cl = e.comp.clauses[0]
        start = cl.iter.args[0]
        s = self.expr(start, env)
        if self.ty(start).tag != "list":
            s = f"[{s}]"
        cond = "None"
        if e.comp.cond is not None:
            cond = f"lambda v_{cl.var}: {self._apart(self._barrier, e.comp.cond, env.bind(cl.var))}"
        return f"_connected(R, {s}, REL_{cl.iter.func}, {cond})"

    def _until(self, e, env):
        """``until(x for x in LIST if COND)``: a walk of the list that stops after the first
        element for which the condition holds (``helpers._until``, the condition a
        function; the work budget counts the elements looked at)."""
        cl = e.comp.clauses[0]
        xs = self.expr(cl.iter, env)
        cond = f"lambda v_{cl.var}: {self._apart(self._barrier, e.comp.cond, env.bind(cl.var))}"
        return f"_until(R, {xs}, {cond})"

    def _barrier(self, e, env):
        """The condition of a closure, a Python lambda: a name it binds is its own, so
        no value computed in it is kept for the loops around it."""
        self.loops.append(_Loop(walrus=False, barrier=True))
        try:
            return self.expr(e, env)
        finally:
            self.loops.pop()

    # ------------------------------------------------------------ calls
    def _Call(self, e, env):
        c, f = self.c, e.func
        if c.calls_builtin(f):
            return self._call_builtin(e, env)
        if f in c.functions:
            return self._call_function(e, env)
        if f in c.relations and len(c.relations[f].params) == 2 and len(e.args) == 2:
            b = self.expr(e.args[1], env)  # in the order Python evaluates them
            return f"({b} in RELSET_{f}[{self.expr(e.args[0], env)}])"
        args = []
        for i, a in enumerate(e.args):
            self._perm(self._perm_arg(e, i))
            args.append(self.expr(a, env))
        if f in c.relations and len(c.relations[f].params) > 2:
            key = "(" + "".join(a + ", " for a in args) + ")"
            if len(args) == len(c.relations[f].params):
                return f"({key} in RELSET_{f})"
            return f"list(REL_{f}.get({key}, ()))"
        if f in c.relations:
            return f"REL_{f}[{args[0]}]"
        if f in c.zones:
            return f"(Z_{f} + {args[0]})"
        if f in c.vars:
            return f"R.pv[{f!r}][{args[0]}]"
        raise AssertionError(f"the checker let an unknown function through: {f}")

    def _call_builtin(self, e, env):
        since = len(self.wraps)
        args = []
        for i, a in enumerate(e.args):
            self._perm(self._perm_arg(e, i))
            args.append(self.expr(a, env))
        text = self._builtin(e, e.func, args)
        return self._pure(e, env, text, since) if BUILTINS[e.func].costly else text

    def _pure(self, e, env, text: str, since: int) -> str:
        """The fast code computes a value that takes some work (a helper's call, the top
        item of a zone, an attribute of a computed item) once, as a call of a rule function
        (see root and _once): a value is an expression of the state, and no expression
        changes the state. Lists are left alone (each evaluation makes its own list)."""
        if self.avail is None or _KEPT.fullmatch(text) or self.ty(e).tag == "list":
            return text
        return self._once(text, env, since)

    def _call_function(self, e, env):
        """A call of a rule function: its body in place (inlined) or a call of ``F_name``,
        computed once where it is made again (see root)."""
        f = e.func
        since = len(self.wraps)  # the names bound inside this call's text come after
        perm = self.perm_here
        if f in self.inline:
            args = []
            for i, a in enumerate(e.args):
                self._perm(self._perm_arg(e, i))
                args.append(self._unbound(self.expr, a, env, walrus=True))
            if self._may_expand(f, args):
                fd = self.c.functions[f]
                subst = {p.name: f"({a})" for p, a in zip(fd.params, args)}
                inner = Env(subst=subst, ids=env.ids, ranges=self._arg_ranges(fd, e.args, env))
                self._perm(perm)  # (the body's value is the call's)
                if self.avail is None:
                    text = f"({self.expr(fd.body, inner)})"
                else:  # what the body computed when it holds, or not (see _test)
                    body, yes, no = self._test(fd.body, inner)
                    self.avail = _common(yes, no)
                    text = f"({body})"
                    self.tested = (text, yes, no)
                return self._once(text, env, since) if _CALL.search(text) and not _KEPT.fullmatch(text) else text
        else:
            args = []
            for i, a in enumerate(e.args):
                self._perm(self._perm_arg(e, i))
                args.append(self.expr(a, env))
        if perm and self._memo_call(e):
            # a component found from any of its cells, in the order found from that one:
            # the value is used in any order (see orderfree.py)
            return self._once(f"FC_{f}(R, mo_{''.join(', ' + a for a in args)})", env, since)
        if f in self.tabled and self.optimize:  # (not written in place) its value, read from its table
            return f"TAB_{f}[{args[0] if len(args) == 1 else '(' + ', '.join(args) + ')'}]"
        return self._once(f"{self.prefix}{f}(R{''.join(', ' + a for a in args)})", env, since)

    def _memo_call(self, e) -> bool:
        """Whether a call in an expression whose order does not matter (perm_here) reads
        the evaluation's values of components (see components)."""
        return self.perm_here and self.memo_ok and e.node == "Call" and e.func in self.components

    def _perm_arg(self, e, i: int) -> bool:
        """Whether the call e's argument i may be computed in any order: a list whose
        order the call's value does not depend on (its size), or depends on only as far as
        that value's own order may be any (distinct; a rule function's body, see
        orderfree.py)."""
        f, c = e.func, self.c
        if not self.components or i >= len(e.args) or self.ty(e.args[i]).tag != "list":
            return False  # (the order matters only where a component may be found)
        if f in c.functions:
            fd = c.functions[f]
            if i >= len(fd.params):
                return False
            key = (f, i, self.perm_here)
            free = self.free_args.get(key)
            if free is None:
                free = self.free_args[key] = order_free(c, fd.body, fd.params[i].name, self.perm_here)
            return free
        if not c.calls_builtin(f):
            return False
        return order_blind(f, self.perm_here)

    def _may_expand(self, f: str, args: list[str]) -> bool:
        repeated = self.repeated.get(f)
        if not repeated:
            return True
        params = self.c.functions[f].params
        return all(_SIMPLE_ARG.fullmatch(a) for p, a in zip(params, args) if p.name in repeated)

    def _builtin(self, e, f, args):
        return emit(PRIMITIVES[f].python, PyCall(self, e, args))


# ------------------------------------------------------------ static conditions of cells
# what the static part of a loop's condition over a board's cells may read (see
# ExprCompiler._static_cells): the tables of the cells' coordinates and names, of the
# relations and of cell(...) look-ups, made before the fast code; pure helpers
_STATIC_TABLES = ("C_", "REL_", "RELSET_", "CELLAT_")
_STATIC_CALLS = {"_mod", "_div", "_mul", "abs", "min", "max", "len"}
_STATIC_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Not, ast.USub, ast.UAdd,
               ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot)
# a value bound before a loop, read by the keyed conjunct (see _keyed)
_BEFORE = re.compile(r"v_\w+|w\d+_\w+|s_\d+|once_\d+|lazy_\d+")
_ONCE = re.compile(r"once_\d+")
_LAZY = re.compile(r"lazy_\d+")
# a call of a rule function in generated code (its name)
_CALLED = re.compile(r"\bF_(\w+)\(R\b")
# a condition that may have a static conjunct reads one of those tables, or is a constant
_STATIC_HINT = re.compile(r"\b(?:" + "|".join(_STATIC_TABLES) + r"|CELL_NAME\b|True\b|False\b)")


def _conjuncts(cond: str) -> list | None:
    """The operands of the top-level ``and`` of a condition's text (one line), in
    order (ast nodes), or None."""
    if "\n" in cond:
        return None
    try:
        tree = ast.parse(cond, mode="eval")
    except SyntaxError:
        return None
    out = []

    def walk(n) -> None:
        if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.And):
            for v in n.values:
                walk(v)
        else:
            out.append(n)
    walk(tree.body)
    return out


def _pure_text(n, names: set[str], before: str | None) -> bool:
    """Whether the generated text ``n`` (an ast node) reads only ``names``, constants,
    the static tables and pure helpers (no state, no rule function, no work budget), and
    binds only ``once_N`` names (of ``names``). ``before``: a loop's variable; then
    ``n`` may read, instead of ``names``, values bound before the loop (not the
    variable's), a local (``L['x']``) and ``R.active`` or ``R.n``, and binds nothing."""
    rule = _PURE_RULES.get(type(n))
    if rule is not None:
        return rule(n, names, before)
    if isinstance(n, (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare)):
        ops = [n.op] if not isinstance(n, ast.Compare) else n.ops
        if not all(isinstance(op, _STATIC_OPS) for op in ops):
            return False
    elif not isinstance(n, (ast.IfExp, ast.Tuple, ast.List)):
        return False
    return all(_pure_text(k, names, before) for k in ast.iter_child_nodes(n)
               if not isinstance(k, (ast.expr_context, ast.operator, ast.unaryop, ast.boolop, ast.cmpop)))


def _pure_name(n: ast.Name, names: set[str], before: str | None) -> bool:
    if before is None:
        return n.id in names
    return n.id not in names and n.id != before and _BEFORE.fullmatch(n.id) is not None


def _pure_subscript(n: ast.Subscript, names: set[str], before: str | None) -> bool:
    v = n.value
    if not isinstance(v, ast.Name):
        return False
    if v.id == "L":
        return before is not None and isinstance(n.slice, ast.Constant)
    return (v.id.startswith(_STATIC_TABLES) or v.id == "CELL_NAME") and _pure_text(n.slice, names, before)


def _pure_call(n: ast.Call, names: set[str], before: str | None) -> bool:
    f = n.func
    called = (isinstance(f, ast.Name) and f.id in _STATIC_CALLS) or (
        isinstance(f, ast.Attribute) and f.attr == "get" and isinstance(f.value, ast.Name)
        and f.value.id.startswith("CELLAT_"))
    return called and not n.keywords and all(
        not isinstance(a, ast.Starred) and _pure_text(a, names, before) for a in n.args)


_PURE_RULES = {
    ast.Constant: lambda n, names, before: isinstance(n.value, (int, str, type(None))),
    ast.Name: _pure_name,
    ast.Subscript: _pure_subscript,
    ast.Call: _pure_call,
    ast.Attribute: lambda n, names, before: (before is not None and isinstance(n.value, ast.Name)
                                             and n.value.id == "R" and n.attr in ("active", "n")),
    ast.NamedExpr: lambda n, names, before: (before is None and _ONCE.fullmatch(n.target.id) is not None
                                             and _pure_text(n.value, names, before)),
}


def _given_conjunct(n, var: str, names: set[str], first: int):
    """A conjunct that reads the loop's variable ``var`` only through the static tables
    and pure helpers (see _pure_text), and values that do not depend on it: ones read
    before the loop (names bound before it, a local, the active player) and what pure
    helpers compute from them, a value kept lazily for the loop's turns included
    (``(lazy_N if lazy_N is not _NOT_YET else (lazy_N := VALUE))``: VALUE). (The
    conjunct's text with those values written ``k_<first>``, ``k_<first + 1>``..., their
    texts), or None. ``names``: the names bound in the static part, the conjunct's own
    included (never a value from before the loop). The cells it lets through are the
    same whenever the values are: the loop walks a table of them by the values."""
    given: list[str] = []

    class Values(ast.NodeTransformer):
        def visit(self, node):
            if isinstance(node, ast.IfExp) and isinstance(node.orelse, ast.NamedExpr) \
                    and isinstance(node.body, ast.Name) and _LAZY.fullmatch(node.body.id) \
                    and node.orelse.target.id == node.body.id:
                node = node.orelse.value  # (computed before the loop instead)
            if isinstance(node, ast.expr) and not isinstance(node, ast.Constant) \
                    and not any(isinstance(x, ast.Name) and x.id == var for x in ast.walk(node)) \
                    and _pure_text(node, names | {var}, var):
                given.append(ast.unparse(node))
                return ast.Name(f"k_{first + len(given) - 1}", ast.Load())
            return self.generic_visit(node)
    node = Values().visit(copy.deepcopy(n))
    if not given or not any(isinstance(x, ast.Name) and x.id == var for x in ast.walk(node)):
        return None
    ks = {f"k_{i}" for i in range(first, first + len(given))}
    if not _pure_text(node, names | ks | {var}, None):
        return None
    return ast.unparse(node), given


def _keyed(n, var: str, names: set[str]):
    """``static == value`` (or ``value == static``), the static side reading the loop's
    variable ``var``, the value what was bound before the loop: (static, value), or None."""
    if not isinstance(n, ast.Compare) or len(n.ops) != 1 or not isinstance(n.ops[0], ast.Eq):
        return None
    for static, value in ((n.left, n.comparators[0]), (n.comparators[0], n.left)):
        reads = {x.id for x in ast.walk(static) if isinstance(x, ast.Name)}
        if var in reads and _pure_text(static, names | {var}, None) and _pure_text(value, names | {var}, var):
            return static, value
    return None


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
# after the loop (an aggregate's are in interpreter/primitives.py)
_LOOPS = {"list": Primitive("", "", step_start="[]", step="{r}.append({el})"), **PRIMITIVES}


def _before(pre: str, text: str) -> str:
    """``text`` after ``pre`` (a first iterable computed before its loop), if any."""
    return f"({pre}{text})[-1]" if pre else text


# what fast code may read of R and still read nothing of the state: the player count,
# the players and the direction of play (fixed for a program), and R given to helpers
# that only count the work budget, and to rule functions (checked in turn); the tables
# of cells by values given (_kept_cells) read static tables and kept values alone
_FIXED = {"n", "players", "dir"}
_BUDGET = {"work"}  # the work budget, counted in place by the statement form
_R = re.compile(r"\bR\b")
_GIVEN_R = re.compile(r"(?:\b_it|\b_cat|\b_range|\b_connected|\b_until|\b_out_of_work|\b_kept_cells"
                      r"|\bF_(\w+))\($")


def state_free(text: str) -> set[str] | None:
    """The rule functions a function's fast code calls, when it reads nothing else of
    the state (see _FIXED); else None."""
    reads = state_reads(text)
    return None if reads is None or reads[1] else reads[0]


def reads_r(text: str) -> bool:
    """Whether generated text reads R (the state, the budgets) or gives it to a
    function."""
    return _R.search(text) is not None


def state_reads(text: str) -> tuple[set[str], set[str]] | None:
    """As state_free, where the fast code may also read global variables by name
    (``R.g['x']``, or ``g_['x']`` through the local ``g_ = R.g`` of the statement form):
    the rule functions it calls and the variables it reads; None if it reads anything
    else of the state."""
    called, names = set(), set()
    for m in _R.finditer(text):
        after = text[m.end():m.end() + 1]
        if after == ".":
            attr = re.match(r"\.(\w+)", text[m.end():])
            if attr is not None and attr.group(1) == "g":
                read = _GLOBAL_READ.match(text, m.end() + 2)
                if read is not None:
                    names.add(read.group(1))
                    continue
                start = text.rfind("\n", 0, m.start()) + 1
                end = text.find("\n", m.start())
                line = text[start:] if end < 0 else text[start:end]
                if line.strip() != "g_ = R.g" or not _g_local_reads(text, names):
                    return None
                continue
            if attr is None or attr.group(1) not in _FIXED | _BUDGET:
                return None
            continue
        given = _GIVEN_R.search(text[max(0, m.start() - 80):m.start()])
        if given is None or after not in (",", ")"):
            return None
        if given.group(1):
            called.add(given.group(1))
    return called, names


# a global variable read by name (after 'R.g' or 'g_')
_GLOBAL_READ = re.compile(r"\['(\w+)'\]")
_G_LOCAL = re.compile(r"\bg_\b")


def _g_local_reads(text: str, names: set[str]) -> bool:
    """Whether every use of the local ``g_`` reads a variable by name (adding the names),
    the one that binds it apart."""
    for m in _G_LOCAL.finditer(text):
        if text.startswith("g_ = R.g", m.start()):
            continue
        read = _GLOBAL_READ.match(text, m.end())
        if read is None:
            return False
        names.add(read.group(1))
    return True


# the parts of R read through a local name in the statement form (see localize): the
# state's tables, never rebound while an expression runs (no expression changes the
# state; a move changes them in place)
_LOCAL_TABLES = ("z", "loc", "facing", "iv", "g", "pv")
# a string literal of generated code (repr of a ruleset's string): never rewritten
_STRING = re.compile(r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_TABLE = re.compile(r"\bR\.(" + "|".join(_LOCAL_TABLES) + r")\b")
_WORK = re.compile(r"\bR\.work\b")
# R given to a function (a rule function, a helper) other than to fail: it may count work
_R_GIVEN = re.compile(r"(?<!_out_of_work\()\bR\s*[,)]")


def localize(out: list[str], text: str) -> tuple[list[str], str]:
    """The statement form of a whole expression (``out``, then its value ``text``) with
    the tables of R that it reads in loops or more than once (``R.z``...) read through
    local names bound once before (``z_ = R.z``), and, where it gives R to no function,
    the work budget counted in a local (``wk_``) written back to ``R.work`` after the
    statements (nothing reads it before; after a failure, the straightforward code runs
    from the budget as it was, see compile.Program._lambda). A variable read so, the
    table of an item's or a seat's variable (``R.iv['x']``), a global variable's value
    (``R.g['x']``) or a procedure's local (``L['x']``), is read once into a local name
    too (``ivk_x``, ``gk_x``, ``lk_x``).
    The same operations, in the same order (what is read once instead of at each use
    cannot change while an expression runs)."""
    lines = out + [text]
    looped = _in_loops(out) + [False]
    pre_keyed = []
    keyed = _keyed_locals(lines, looped)
    if keyed:  # (first: what is left of R.iv, R.pv and R.g is counted below)
        lines = [_keyed_sub(line, keyed) if "R." in line or "L[" in line else line for line in lines]
        pre_keyed = [f"{name} = {read}" for read, name in keyed.items()]
        out, text = lines[:-1], lines[-1]
    code: dict[int, list[str]] = {}  # the lines that read R: code at even places, strings at odd
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        if "R." not in line:
            continue
        parts = code[i] = _STRING.split(line) if "'" in line or '"' in line else [line]
        for part in parts[::2]:
            for t in _TABLE.findall(part):
                counts[t] = counts.get(t, 0) + (2 if looped[i] or " for " in part else 1)
            counts["work"] = counts.get("work", 0) + (2 if looped[i] else 1) * len(_WORK.findall(part))
    local = {t for t, c in counts.items() if c >= 2 and t != "work"}
    # (one count and its test outside loops: a local name would not pay)
    work = counts.get("work", 0) > 2 and not any(_gives_r(line) for line in lines)
    if not local and not work:
        return pre_keyed + out, text

    def table(m) -> str:
        return m.group(1) + "_" if m.group(1) in local else m.group(0)

    def sub(parts: list[str]) -> str:
        for i in range(0, len(parts), 2):
            parts[i] = _TABLE.sub(table, parts[i])
            if work:
                parts[i] = _WORK.sub("wk_", parts[i])
        return "".join(parts)
    new = [sub(code[i]) if i in code else line for i, line in enumerate(lines)]
    pre = [f"{t}_ = R.{t}" for t in _LOCAL_TABLES if t in local] + (["wk_ = R.work"] if work else [])
    return pre_keyed + pre + new[:-1] + (["R.work = wk_"] if work else []), new[-1]


# a variable read by its name: the table of an item's variable, of a seat's, a global
# variable's value or a procedure's local (see localize)
_KEYED = re.compile(r"\b(?:R\.(iv|pv|g)|(L))\['(\w+)'\]")


def _keyed_matches(line: str) -> list:
    """The reads of _KEYED in a line of generated code, out of its string literals."""
    spans = [m.span() for m in _STRING.finditer(line)] if "'" in line or '"' in line else []
    return [m for m in _KEYED.finditer(line) if not any(a <= m.start() < b for a, b in spans)]


def _keyed_locals(lines: list[str], looped: list[bool]) -> dict[str, str]:
    """The variables (see _KEYED) read in loops or more than once: read -> local name."""
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        if "R." in line or "L[" in line:
            for m in _keyed_matches(line):
                counts[m.group(0)] = counts.get(m.group(0), 0) + (2 if looped[i] or " for " in line else 1)
    out = {}
    for read, c in counts.items():
        if c >= 2:
            table, _local, name = _KEYED.fullmatch(read).groups()
            out[read] = f"{table or 'l'}k_{name}"
    return out


def _keyed_sub(line: str, keyed: dict[str, str]) -> str:
    """The line with those reads (out of its strings) replaced by their local names."""
    for m in reversed(_keyed_matches(line)):
        name = keyed.get(m.group(0))
        if name is not None:
            line = line[:m.start()] + name + line[m.end():]
    return line


def _gives_r(line: str) -> bool:
    """Whether a line of fast code gives R to a function (out of its strings)."""
    if "R" not in line:
        return False
    parts = _STRING.split(line) if "'" in line or '"' in line else [line]
    return any(_R_GIVEN.search(p) or "lambda" in p for p in parts[::2])


def _in_loops(out: list[str]) -> list[bool]:
    """Per line of statements, whether it is inside a ``for`` loop."""
    fors: list[int] = []  # the indentations of the loops around
    found = []
    for line in out:
        body = line.lstrip(" ")
        depth = len(line) - len(body)
        while fors and fors[-1] >= depth:
            fors.pop()
        found.append(bool(fors))
        if body.startswith("for "):
            fors.append(depth)
    return found


def walks_kept(text: str, kept: set[str]) -> bool:
    """Whether fast code walks a board's cells and calls one of the ``kept`` functions
    (made again once they are known, see ExprCompiler._kept_call)."""
    return " in BOARD_" in text and any(m in kept for m in _CALLED.findall(text))


def does_work(text: str) -> bool:
    """Whether fast code calls something or loops (worth keeping its value)."""
    return bool(_CALL.search(text)) or bool(re.search(r"\bfor v_", text))


# The zones' top items read from a table (see tabulate_tops): made once, before the
# statements of an expression, from the zones as they are then. No expression changes
# the state: the code this module writes assigns nothing of R but its budgets
# (R.work, R.calls, R.depth); it calls rule functions (expressions too, written by this
# module), the helpers of helpers.py (_it, _range, _cat, _connected, _cell_of...: they
# read the state, count work and fail, and build only lists of their own) and the
# static tables; no built-in moves, draws or shuffles (moves are statements of
# procedures, run between expressions). So a zone's top stays what it was when the
# table was made, for as long as the expression runs. Items are numbers, never None:
# None in the table is an empty zone. Not in rule functions' bodies (ExprCompiler.lines
# is told by its caller): a function is called many times per move, often in the loops
# of an expression, and would make the table at every call.
_TOPS_LINE = "T_ = [(q[-1] if q else None) for q in R.z]"
# a read of a zone through R.z, a top or a test of emptiness, as codegen writes them:
# (text before the zone's index, text after it) -> the same read through the table
_TOP_READS = {("(", " or _NO_ITEM)[-1]"): ("T_[", "]"),
              ("(not not ", ")"): ("(T_[", "] is not None)"),
              ("(not ", ")"): ("(T_[", "] is None)")}
_ZONE = re.compile(r"\bR\.z\[")
_OPERAND_END = re.compile(r"[\w)\]]")
_FOR = re.compile(r"for \w+ in (.+):$")
# what a read saves, in time per table entry to make (measured, CPython 3.11: making
# the table costs about 25 ns a zone, reading a top through it 20 ns less than through
# its zone, a test of emptiness 5 ns less)
_TOP_SAVES, _EMPTY_SAVES = 0.8, 0.2
_TURNS_GUESS = 4  # turns of a loop whose length is not known before it runs
_BREAK_TURNS = 2  # turns of a loop that may stop early, at most
_BRANCH_RUNS = 0.5  # the share of the runs of an ``if`` or ``else`` block's statements
# the reads, as counted, must save this many times the cost of the table (set by
# timing the bundled rulesets' expressions with and without it on the states of random
# games: those below 2 lost 10 to 60 %, one at 3.2 neither lost nor won, one at 9 won
# 17 to 20 %; see docs/performance.md)
_TOPS_MARGIN = 4


def tabulate_tops(out: list[str], text: str, zones: int, size) -> tuple[list[str], str] | None:
    """The statement form of a whole expression (``out``, then its value ``text``)
    with the zones' top items and emptiness (``(R.z[x] or _NO_ITEM)[-1]``,
    ``(not not R.z[x])``, ``(not R.z[x])``) read from a table of every zone's top
    ``T_`` made before the statements (_TOPS_LINE): the same values, in the same order
    (an index out of the zones fails the same way), no work counted either way. None
    where it would not pay, by a static estimate: the reads, each weighed by what it
    saves (_TOP_SAVES, _EMPTY_SAVES) and counted as many times as its line is expected
    to run (see _turns; a comprehension in the line: _TURNS_GUESS times more), must save
    at least _TOPS_MARGIN times what making a table of all ``zones`` costs (the zones'
    count and the boards' sizes are the program's, for its number of players)."""
    lines = out + [text]
    if _tops_saved(lines, _turns(out, size) + [1]) < _TOPS_MARGIN * zones:
        return None
    new = [_tabulated(line) if "R.z[" in line else line for line in lines]
    return new[:-1], new[-1]


def _tops_saved(lines: list[str], turns: list[float]) -> float:
    """What the table would save, in tables' entries made (see tabulate_tops): the
    lines' reads, each as many times as its line is expected to run (``turns``)."""
    saved = 0.0
    for line, n in zip(lines, turns):
        if "R.z[" in line:
            parts = _STRING.split(line) if "'" in line or '"' in line else [line]
            for part in parts[::2]:
                more = _TURNS_GUESS if " for " in part else 1
                for before, _after, _index in _top_reads(part):
                    saved += n * more * (_TOP_SAVES if before == "(" else _EMPTY_SAVES)
    return saved


def _turns(out: list[str], size) -> list[float]:
    """Per line of statements, how many times it is expected to run (see
    tabulate_tops): the product, over the blocks around it, of a loop's turns (its
    length, ``size(iterable)``, or _TURNS_GUESS; _BREAK_TURNS at most for a loop that
    may stop early: ``any``, ``all``, ``first``...) and _BRANCH_RUNS for a branch."""
    stops = _stopping_loops(out)
    around: list[tuple[int, float]] = []  # the indentations of the blocks around, their factors
    found = []
    for i, line in enumerate(out):
        body = line.lstrip(" ")
        depth = len(line) - len(body)
        while around and around[-1][0] >= depth:
            around.pop()
        total = 1.0
        for _depth, n in around:
            total *= n
        found.append(total)
        m = _FOR.match(body)
        if m:
            n = size(m.group(1).strip())
            n = _TURNS_GUESS if n is None else n
            around.append((depth, min(n, _BREAK_TURNS) if i in stops else n))
        elif body.startswith(("if ", "elif ", "else:")) and body.endswith(":"):
            around.append((depth, _BRANCH_RUNS))
    return found


def _stopping_loops(out: list[str]) -> set[int]:
    """The places of the ``for`` lines whose loop holds a ``break`` of its own."""
    fors: list[tuple[int, int]] = []  # the loops around: indentation, place
    found = set()
    for i, line in enumerate(out):
        body = line.lstrip(" ")
        depth = len(line) - len(body)
        while fors and fors[-1][0] >= depth:
            fors.pop()
        if body == "break" and fors:
            found.add(fors[-1][1])
        if body.startswith("for "):
            fors.append((depth, i))
    return found


def _top_reads(code: str):
    """The reads of a zone's top or emptiness in generated code (out of strings): per
    read, its text before and after the zone's index, and the index's span in ``code``."""
    for m in _ZONE.finditer(code):
        end = _closing(code, m.end())
        if end is None:
            continue
        for before, after in _TOP_READS:
            start = m.start() - len(before)
            if code[start:m.start()] == before and code.startswith(after, end + 1):
                # (not the parentheses of a call: ``f(R.z[x] or _NO_ITEM)[-1]``)
                if before != "(" or start == 0 or not _OPERAND_END.match(code[start - 1]):
                    yield before, after, (m.end(), end)
                break


def _tabulated(line: str) -> str:
    """A line of generated code with its reads of zones' tops through the table."""
    parts = _STRING.split(line) if "'" in line or '"' in line else [line]
    for i in range(0, len(parts), 2):
        parts[i] = _tabulated_code(parts[i])
    return "".join(parts)


def _tabulated_code(code: str) -> str:
    for before, after, (start, end) in _top_reads(code):
        head, tail = _TOP_READS[(before, after)]
        index = _tabulated_code(code[start:end])  # a read inside the index too
        code = (code[:start - len("R.z[") - len(before)] + head + index + tail
                + _tabulated_code(code[end + 1 + len(after):]))
        return code
    return code


def _closing(code: str, at: int) -> int | None:
    """The place of the ``]`` closing the bracket opened just before ``at`` (brackets of
    any kind nested in between); None if the code ends before."""
    depth = 0
    for i in range(at, len(code)):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i if ch == "]" else None
            depth -= 1
    return None
