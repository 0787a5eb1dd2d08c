"""Expressions -> Python source, compiled once per ruleset.

The checked IR is turned into Python expressions over the runtime ``R`` (zones
``R.zones``, item locations ``R.loc``, globals ``R.vars``...) and static tables in the
module namespace (``A_value[item]``, ``C_row[cell]``, ``REL_beside[cell]``...). Names
come only from the checked IR (identifiers of the grammar, never free text), and string
literals are written with ``repr``, so no ruleset text is ever executed as code.

The compiler is in parts: ExprCompiler (here: expressions, calls, values computed once)
and its mixins, the statement form of the fast code (codegen_statements), the static
conditions of loops over a board's cells (codegen_static) and the known ranges and
sizes of values (codegen_ranges), what the code written calls (codegen_calls, from the
IR); what they share is in codegen_base, the statement form's lines as data in
codegen_lines and the passes over them in codegen_text.
"""
from __future__ import annotations

from ...dsl import ast as ir
from ...dsl.builtins import BUILTINS, CLOSURES
from ...dsl.check import Checked, walks_edges
from ...dsl.types import T, type_code  # noqa: F401 - compile, kernel and leaks import type_code here
from ..core.operators import resolve
from ..core.primitives import PRIMITIVES, PyCall, PyOver, emit
from ..play import inplace
from .codegen_base import (
    _AVAIL_MAX,
    _INDEXED_MAX,
    _MEMO_LINE,
    Code,
    Env,
    _before,
    _common,
    _counted,
    _Loop,
    in_parens,
    kept_name,
    named_index,
    number_binders,  # noqa: F401 - compile calls codegen.number_binders
    plain_const,
)
from .codegen_calls import CodeCalls
from .codegen_keys import ValueKeys
from .codegen_lines import COMP, MARKED_TABLES, Line, keyed_read, render, top_read, written_len
from .codegen_operators import CodeOperators
from .codegen_ranges import Bounds
from .codegen_statements import StatementForm
from .codegen_static import StaticCells

# (compile and the tests read these as codegen's)
from .codegen_text import (
    _TOPS_LINE,
    localize,
    tabulate_tops,
)


class CodeTooBig(Exception):
    """Generated code grew over the code budget at this place of the source."""

    def __init__(self, span):
        super().__init__("generated code too big")
        self.span = span


# Whether rules are compiled to the fast code (the default) besides the straightforward
# code. Tests turn it off to compare both (tests/test_fast_paths.py); nothing else should.
OPTIMIZE = True

# Tests only: the fast code's errors are raised instead of running the straightforward
# code again, so a test sees the fast code fail where the straightforward code does not
# (tests/test_fast_paths.py).
STRICT = False


class _Call(PyCall):
    """A built-in's call, its reads of R's tables marked while the statement form is
    printed (see codegen_lines)."""

    @property
    def tables(self):
        return MARKED_TABLES if self.cg.marking else PyCall.tables

    def zone_top(self, kind: str) -> str:
        return top_read(kind, self.a[0]) if self.cg.marking else super().zone_top(kind)


class ExprCompiler(StatementForm, StaticCells, Bounds, CodeCalls, ValueKeys, CodeOperators):
    """``optimize=False`` makes the straightforward code (the reference: errors are
    located by it); ``optimize=True`` the fast code, which must give the same results.
    ``prefix`` names the generated functions the calls go to."""

    def __init__(self, checked: Checked, tables, optimize: bool = False, prefix: str = "F_"):
        self.c = checked
        self.t = tables  # the Program being built: zone indices, board cells...
        self.inline: frozenset[str] = frozenset()  # rule functions written in place (see plan_inlining)
        self.optimize = optimize
        self.prefix = prefix
        # parameters used more than once, per inlined function: expanded only where the
        # argument is simple (a name, a constant), else the function is called
        self.repeated: dict[str, frozenset[str]] = {}
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
        self.pre: dict[int, str] = {}      # statement form: operands already computed (see _s)
        self.temps = 0                     # statement form: s_N names made so far
        # statement form: the most elements of the lists named s_N that a comprehension
        # over fixed tables made (a filter only drops elements), see _s_loop
        self.bounds: dict[str, int] = {}
        self.has_loop: dict[int, tuple] = {}  # see _looped
        self.spliced: set[str] = set()     # functions written in place (see splice)
        self.splicing = 0                  # bodies being written in place around here
        self.deps: dict[str, tuple] = {}    # see _start
        self.tested: tuple | None = None  # (text, yes, no) of the inlined call compiled last (see _test)
        self.cdepth = 0     # branches around the place compiled (code that may not run)
        # the tables of the cells of loops over a board with a static condition, made for
        # this program (see StaticCells._core_table, _kept_table): what they hold -> name
        self.static_tables: dict[tuple, str] = {}
        # lists whose order does not matter where they are used (see core/orderfree.py): the
        # expression compiled next may be computed in any order (perm_next), the one
        # being compiled may (perm_here); the functions that find a component
        # (``connected`` from a parameter: name -> its number, the start's position
        # among the parameters), whose values found from any cell of it serve for the
        # others in one evaluation of the statement form (memo_ok: ``mo_``, see lines)
        self.perm_next = False
        self.perm_here = False
        self.memo_ok = False
        self.components: dict[str, tuple[int, int]] = {}
        # the calls of component functions written (``FC_name(R, mo_, ...)``) in this
        # pass: all of them (the statements then make the table ``mo_``, see lines), and
        # those whose text holds the call itself (not a name of its value: see _memo_key)
        self.memo_calls = 0
        self.memo_texts = 0
        # the names of the last walk written out (its cells, its work), and of each
        # component function's whose work is counted on R.work (see
        # compile.Program._component_source); whether the statements written last count
        # the work budget in a local name (``wk_``, see lines and localize)
        self.last_closure: tuple[str, str] | None = None
        self.closure_work: dict[str, tuple[str, str] | None] = {}
        self.work_local = False
        # functions of enums and bools read from a table of their values (TAB_name), by
        # name: the combinations of their arguments (see compile.Program._tabled)
        self.tabled: dict[str, list[tuple]] = {}
        # the nodes the fast code wrote last as a name of a value computed before (False),
        # and the calls written in place whose code calls a function (True) or not (see
        # _once, _expanded, _calls)
        self.wrote: dict[int, bool] = {}
        # the nodes written just now as a name of a value computed before: whether one
        # kept for a loop's turns (lazy_N, see _lazy); and the names of those (see _bare)
        self.named: dict[int, bool] = {}
        self.lazy_names: set[str] = set()
        # the calls written in place last: whether their code calls a function (see
        # does_work); and per rule function, whether its fast code does some work
        self.expanded: dict[int, bool] = {}
        self.works: dict[str, bool] = {}

    def plan_inlining(self) -> None:
        """The rule functions whose bodies are written in place of their calls, and the
        parameters each uses more than once (expanded only where the argument is
        simple): the core's pass (core/inline.py), for this kind of code."""
        plan = self.t.facts.inlined(self.optimize)
        self.inline, self.repeated = plan.names, plan.repeated

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
        self.pre, self.temps = {}, 0
        self.bounds = {}
        self.cdepth = 0
        # a once_N, lazy_N or s_N: the numbers of the variables its value depends on
        self.deps: dict[str, tuple] = {}
        self.lazy_names = set()
        self.memo_calls = self.memo_texts = 0
        self.gave_r = False

    def _once(self, e, text: str, env: Env) -> str:
        """A call's text (of ``e``, its expression), or the name of its value (see root):
        two values are the same where the core says so (core/once.py, _value_key). A
        value whose evaluation may count work is computed at each use, as the
        straightforward code computes it: each use counts its work. (Where it is a
        name, ``wrote`` says so of ``e``.)"""
        out, named = self._once_named(e, text, env)
        if named:
            self.wrote[id(e)] = False
            self.named[id(e)] = out in self.lazy_names
        else:
            self.wrote.pop(id(e), None)
        return out

    def _once_named(self, e, text: str, env: Env) -> tuple[str, bool]:
        """_once's text, and whether it is a name of a value computed before."""
        if self.avail is None:
            return text, False
        got = self._value_key(e, env)
        if got is None:
            return text, False
        key, ids = got
        name = self.avail.get(key)
        if name is not None:
            self.found.add(name)
            return name, True
        n = self.calls_seen = self.calls_seen + 1
        if self.no_walrus:
            return text, False
        lazy = self._lazy(key, set(ids), n)
        if lazy is not None:
            name, owner, new = lazy
            self.deps[name] = ids
            if not self.no_first:
                self.avail[key] = name
            self.binds += 1
            if name in owner.eager:
                return name, True
            if new and owner is self.loops[-1] and self.cdepth == owner.cdepth and owner.first is not None:
                owner.eager[name] = text  # computed before the loop when it has a turn
                return name, True
            return f"({name} if {name} is not _NOT_YET else ({name} := {text}))", False
        if self.no_first or len(self.avail) >= _AVAIL_MAX:
            return text, False
        name = self.avail[key] = Code(f"once_{n}", "kept", f"once_{n}")
        self.deps[name] = ids
        if self.used is not None and name in self.used:
            self.binds += 1
            return f"({name} := {text})", False
        return text, False

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
        name = best.kept[key] = Code(f"lazy_{n}", "kept", f"lazy_{n}")
        self.lazy_names.add(name)
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
        self.work_local = False
        if not self.optimize or not self._looped(e):
            return [], self.root(e, env)
        self._start(None)
        self.memo_ok = bool(self.components)
        self.marking = True  # (the reads of R's tables marked: see codegen_lines)
        try:
            out: list[Line] = []
            text = self._s(e, env, out, "")
            if self.found:
                self._start(self.found)
                out = []
                text = self._s(e, env, out, "")
            value = Line(0, text)
            table = tops and tabulate_tops(out, value, len(self.t.zones), self._loop_size)
            plan, before, after = localize(out, value, self.gave_r, table)
            self.work_local = bool(after)
            lines = render(before + out + after, plan)
            if self.memo_calls:  # (this evaluation's components: see components)
                lines = [_MEMO_LINE] + lines
            return ([_TOPS_LINE] + lines if table else lines), value.render(plan)
        finally:
            self.marking = False
            self.avail = None
            self.pre, self.temps = {}, 0
            self.bounds = {}
            self.memo_ok = self.perm_next = False

    def _loop_size(self, it: str) -> int | None:
        """How many turns a loop of the statement form over ``it`` makes, where the
        program knows it (a board's cells, a static table); else None."""
        xs = self.t.ns.get(it)
        return len(xs) if isinstance(xs, (list, tuple, range)) else None

    def _looped(self, e) -> bool:
        """Whether e holds a comprehension or an aggregate (a loop), or, in a loop
        written out, a call of a function written in place (see _s_call)."""
        known = self.has_loop.get(id(e))
        if known is None:
            found = {n.node if n.node != "Call" or n.func not in self.spliced else "spliced" for n in ir.walk(e)}
            known = self.has_loop[id(e)] = (bool(found.intersection(ir.CLAUSED)), "spliced" in found)
        return known[0] or (known[1] and bool(self.loops))

    def splice(self, kept: set[str]) -> None:
        """The functions whose bodies the statement form writes in place of their calls
        (see _s_call): those the core finds (core/inline.py, ``spliceable``: small, with
        a loop or a call, counting no calls, not expanded as expressions already) but
        those whose values are ``kept`` by their arguments."""
        self.spliced = set(self.t.facts.spliceable) - kept
        self.has_loop = {}

    def expr(self, e, env: Env) -> str:
        perm, self.perm_next = self.perm_next, False
        if self.pre:
            done = self.pre.get(id(e))
            if done is not None:
                return done
        self.named.pop(id(e), None)
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
        return Code(repr(e.value), "int", e.value)

    def _StrLit(self, e, env):
        return plain_const(e.value)

    def _BoolLit(self, e, env):
        return Code("True" if e.value else "False", "word")

    def _NoneLit(self, e, env):
        return Code("None", "word")

    def _Var(self, e, env):
        n = e.name
        local = env.lookup(n)
        if local is not None:
            if self.marking and n not in env.subst and isinstance(local, Code) and local.kind == "local":
                return Code(keyed_read(None, n), "local", n)  # (read by its name: codegen_lines)
            return local
        c = self.c
        if n == "active" and not c.declares(n):   # (a declaration hides the built-in)
            return self._r(Code("R.active", "const"))
        if n == "players" and not c.declares(n):
            return self._r("R.players")
        if n in c.vars:
            return self._r(self._keyed("vars", n))
        if n in c.consts:
            return Code(f"CONST_{n}", "table")   # (computed once, before any game: compile.Program._consts)
        if n in c.enum_of_value:
            return plain_const(n)
        if n in c.enums:
            return Code(f"E_{n}", "table")
        if n in c.kinds:
            return Code(f"KIND_{n}", "table")
        if n in c.zones:
            return Code(f"Z_{n}", "table")  # a zone's number, known once the zones are laid out
        if n in c.boards:
            return plain_const(n)
        raise AssertionError(f"unresolved name {n}")

    def _Attr(self, e, env):
        t = self.ty(e.obj)
        if t.tag == "list" and t.arg.tag == "enum":  # Enum.value
            return plain_const(e.name)
        obj = self.expr(e.obj, env)
        if t.tag == "item":
            if e.name in self.c.item_vars.get(t.arg, {}):
                text = self._r(f"{self._keyed('ivars', e.name)}[{obj}]")
            else:
                text = f"A_{e.name}[{obj}]"
        elif e.name == "name":
            text = f"CELL_NAME[{obj}]"
        else:
            text = f"C_{e.name}[{obj}]"
        if self._bare(e.obj, env):
            return text  # an attribute of a name: as cheap as a name of a value kept
        return self._pure(e, env, text)

    def _CellAt(self, e, env):
        """``cell(board, row: r, col: c)``: a look-up in a table of the board's cells by
        these coordinates (``None`` when there is no such cell)."""
        table = self.t.cell_table(self.ty(e.board).arg, tuple(a.name for a in e.coords), e)
        key = "(" + "".join(self.expr(a.value, env) + ", " for a in e.coords) + ")"
        return self._pure(e, env, f"{table}.get({key})")

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
        obj, i = self.expr(e.obj, env), self.expr(e.index, env)
        text = f"_index({obj}, {i})"
        if self._inside(e, env) is not None:
            text = f"{obj}[{i}]"  # (the fast code: a board's cells, at an index always inside)
        elif self.optimize and named_index(i) and written_len(obj) <= _INDEXED_MAX:
            # the fast code: Python's index where it is not negative (past the end, Python
            # fails: the straightforward code runs again and fails as always); the index
            # is a name bound before, so reading it first changes nothing
            text = f"({obj}[{i}] if {i} >= 0 else {text})"
        return self._pure(e, env, text)

    def _ListLit(self, e, env):
        return "[" + ", ".join(self.expr(x, env) for x in e.items) + "]"

    _TupleLit = _ListLit   # a tuple is held as a list of its parts

    def _CondExpr(self, e, env):
        if self.avail is None:   # (the then written first, as always)
            then = self.expr(e.then, env)
            return self._op(e, env, [self.expr(e.cond, env), then, self.expr(e.other, env)])
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
        return self._op(e, env, [cond, then, other])

    def _test(self, e, env) -> tuple[str, dict, dict]:
        """A condition's text, and the calls known to have run after it when it holds
        and when it does not (``a and b`` holds: both ran)."""
        perm, self.perm_next = self.perm_next, False
        self.named.pop(id(e), None)
        if e.node == "BinOp" and e.op in ("and", "or"):
            a, a_yes, a_no = self._test(e.left, env)
            self.avail = dict(a_yes if e.op == "and" else a_no)  # b runs only then
            self.cdepth += 1
            try:
                b, b_yes, b_no = self._test(e.right, env)
            finally:
                self.cdepth -= 1
            if e.op == "and":
                return self._op(e, env, [a, b]), b_yes, _common(a_no, b_no)
            return self._op(e, env, [a, b]), _common(a_yes, b_yes), b_no
        if e.node == "UnOp" and e.op == "not":
            a, a_yes, a_no = self._test(e.operand, env)
            return self._op(e, env, [a]), a_no, a_yes
        self.tested = None
        self._perm(perm)
        text = self.expr(e, env)
        tested, self.tested = self.tested, None
        if tested is not None and tested[0] == text:  # an inlined function's body, in place
            return text, tested[1], tested[2]
        return text, self.avail, self.avail

    def _UnOp(self, e, env):
        return self._op(e, env, [self.expr(e.operand, env)])

    def _BinOp(self, e, env):
        lazy = resolve(e, self.ty).lazy   # (and, or: core/operators.py)
        if lazy and self.avail is not None:
            # the right side knows what the left computed when it ran (see _test)
            text, yes, no = self._test(e, env)
            self.avail = _common(yes, no)
            return text
        a = self.expr(e.left, env)
        return self._op(e, env, [a, self._apart(self.expr, e.right, env) if lazy else self.expr(e.right, env)])

    # ------------------------------------------------------------ comprehensions
    def _loop(self, comp: ir.Comprehension, env: Env, perm: bool = False) -> tuple[str, str, str]:
        """A comprehension's loops, its element's text and the text computed before the
        loops, if any (see _before): its first iterable when that binds a name (Python
        forbids ':=' in an iterable: ``(it_N := ...), ``), and the names that keep calls
        computed once for all the turns of the loop (``(lazy_N := _NOT_YET), ``)."""
        saved = self.avail
        loop = _Loop(walrus=not self.no_walrus)
        try:
            parts = []
            inner = env
            pre = ""
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
                if not _counted(self.t.facts, cl.iter, self.pre):
                    it = self._gives(f"_it(R, {it})")  # the work budget (core/facts.py, "work")
                if i == 0 and self.binds != binds:
                    self.iters += 1
                    pre, it = f"(it_{self.iters} := {it}), ", f"it_{self.iters}"
                parts.append(f"{COMP if self.marking else ''}for v_{cl.var} in {it}")
            if comp.cond is not None:
                if self.avail is None:
                    parts.append(f"if {self.expr(comp.cond, inner)}")
                else:  # the element is computed where the condition holds
                    cond, yes, _ = self._test(comp.cond, inner)
                    parts.append(f"if {cond}")
                    self.avail = dict(yes)
            el = self.expr(comp.elem, inner)
            kept = "".join(f"({name} := _NOT_YET), " for name in loop.kept.values())
            self.binds += len(loop.kept)
            return " ".join(parts), el, pre + kept
        finally:
            self._leave(loop, saved)

    def _leave(self, loop, saved) -> None:
        """After a loop's code: the loops around and the values known before it, as
        they were."""
        if self.loops and self.loops[-1] is loop:
            self.loops.pop()
        if saved is not None:
            self.avail = saved

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
        loops, el, pre = self._loop(e, env, self.perm_here)
        return _before(pre, f"[{el} {loops}]")

    def _Aggregate(self, e, env):
        if e.func in CLOSURES:
            return self._closure(e, env)
        if e.func == "until":
            return self._until(e, env)
        loops, el, pre = self._loop(e.comp, env, e.func == "count")
        return _before(pre, self._aggregate(e, el, loops))

    def _aggregate(self, e, el: str, loops: str) -> str:
        return emit(PRIMITIVES[e.func].over, PyOver(self, e, el, loops))

    def _closure(self, e, env):
        """``connected(x for x in REL(START) if COND)``: a walk at run time
        (``helpers._connected``) over the relation's table, the condition a function."""
        cl = e.comp.clauses[0]
        edges = walks_edges(self.c, cl.iter)   # across(EDGES, START): through open edges
        start = cl.iter.args[1 if edges else 0]
        s = self.expr(start, env)
        if self.ty(start).tag != "list":
            s = f"[{s}]"
        cond = "None"
        if e.comp.cond is not None:
            cond = f"lambda v_{cl.var}: {self._apart(self._barrier, e.comp.cond, env.bind(cl.var))}"
        rows = f"REL_{cl.iter.func}"
        if edges:   # (the closed edges, when given, once, after the start)
            closed = f", {self.expr(cl.iter.args[2], env)}" if len(cl.iter.args) == 3 else ""
            rows = f"_Across(R, ACROSS_{self.ty(cl.iter.args[0]).arg}{closed})"
        return self._gives(f"_connected(R, {s}, {rows}, {cond})")

    def _until(self, e, env):
        """``until(x for x in LIST if COND)``: a walk of the list that stops after the first
        element for which the condition holds (``helpers._until``, the condition a
        function; the work budget counts the elements looked at)."""
        cl = e.comp.clauses[0]
        xs = self.expr(cl.iter, env)
        cond = f"lambda v_{cl.var}: {self._apart(self._barrier, e.comp.cond, env.bind(cl.var))}"
        return self._gives(f"_until(R, {xs}, {cond})")

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
        f, kind = e.func, self.t.facts.call_kind(e)   # (core/facts.py)
        if kind == "builtin":
            return self._call_builtin(e, env)
        if kind == "function":
            return self._call_function(e, env)
        if kind == "pair":
            b = self.expr(e.args[1], env)  # in the order Python evaluates them
            return f"({b} in RELSET_{f}[{self.expr(e.args[0], env)}])"
        args = []
        for i, a in enumerate(e.args):
            self._perm(self._perm_arg(e, i))
            args.append(self.expr(a, env))
        if kind in ("tuple", "rows"):
            key = "(" + "".join(a + ", " for a in args) + ")"
            return f"({key} in RELSET_{f})" if kind == "tuple" else f"list(REL_{f}.get({key}, ()))"
        if kind == "row":
            return f"REL_{f}[{args[0]}]"
        if kind == "zone":
            return f"(Z_{f} + {args[0]})"
        return self._r(f"{self._keyed('pvars', f)}[{args[0]}]")   # a per-player variable

    def _call_builtin(self, e, env):
        args = []
        for i, a in enumerate(e.args):
            self._perm(self._perm_arg(e, i))
            args.append(self.expr(a, env))
        text = self._builtin(e, e.func, args)
        if self.t.facts.simple_arg(e):  # (the number of players: R.n_players)
            return Code(text, "const")
        return self._pure(e, env, text) if BUILTINS[e.func].costly else text

    def _pure(self, e, env, text: str) -> str:
        """The fast code computes a value that takes some work (a helper's call, the top
        item of a zone, an attribute of a computed item) once, as a call of a rule function
        (see root and _once): a value is an expression of the state, and no expression
        changes the state. Lists are left alone (each evaluation makes its own list)."""
        if self.avail is None or self.ty(e).tag == "list":
            return text
        return self._once(e, text, env)

    def _call_function(self, e, env):
        """A call of a rule function: its body in place (inlined) or a call of ``F_name``,
        computed once where it is made again (see root)."""
        f = e.func
        perm = self.perm_here
        self.expanded.pop(id(e), None)
        if f in self.inline:
            args, perms = [], []
            for i, a in enumerate(e.args):
                perms.append(self._perm_arg(e, i))
                self._perm(perms[-1])
                args.append(self._unbound(self.expr, a, env, walrus=True))
            # (an argument that counts work is computed by the call, as the
            # straightforward code computes it: once, whether the body uses it or not;
            # so is one that may fail where the body may leave it unevaluated: see
            # core/inline.py, must_evaluate; unless the statement form computed it
            # before, see _s_operands)
            simple = [self._simple_arg(a, text, env) for a, text in zip(e.args, args)]
            facts = self.t.facts
            must = facts.must_evaluate(e, self.optimize)
            if self._may_expand(f, simple) and not any(
                    id(a) not in self.pre and (i in must or facts.counts_any(a)) for i, a in enumerate(e.args)):
                return self._expanded(e, env, args, perms, simple, perm)
        else:
            args = []
            for i, a in enumerate(e.args):
                self._perm(self._perm_arg(e, i))
                args.append(self.expr(a, env))
        if perm and self._memo_call(e):
            # a component found from any of its cells, in the order found from that one:
            # the value is used in any order (see core/orderfree.py)
            text = self._once(e, self._gives(f"FC_{f}(R, mo_{''.join(', ' + a for a in args)})"), env)
            self.memo_calls += 1
            self.memo_texts += self.wrote.get(id(e)) is not False  # (see _once)
            return text
        if f in self.tabled and self.optimize:  # (not written in place) its value, read from its table
            self.wrote.pop(id(e), None)
            return f"TAB_{f}[{args[0] if len(args) == 1 else '(' + ', '.join(args) + ')'}]"
        return self._once(e, self._gives(f"{self.prefix}{f}(R{''.join(', ' + a for a in args)})"), env)

    def _expanded(self, e, env: Env, args: list[str], perms: list[bool], simple: list[bool], perm: bool) -> str:
        """The body of the inlined function that ``e`` calls, in place of the call: its
        parameters the arguments' texts ``args`` (``simple``: those that may be written
        twice, see _simple_arg), in any order where the call's value may be (``perm``);
        computed once where its code calls a function (see root, _calls)."""
        fd = self.c.functions[e.func]
        # (the body and the arguments marked, so that an error is located in the function
        # or at the caller, as if the call were made: play/inplace.py; a name or a
        # constant cannot fail)
        subst = {p.name: in_parens(a) if isinstance(a, Code) else inplace.argument(in_parens(a))
                 for p, a in zip(fd.params, args)}
        inner = Env(subst=subst, ids=env.ids, ranges=self._arg_ranges(fd, e.args, env),
                    keys=self._arg_keys(e, env, args, perms),
                    simple=frozenset(p.name for p, ok in zip(fd.params, simple) if ok),
                    bare=frozenset(p.name for p, a in zip(fd.params, e.args) if self._bare(a, env)),
                    calling=frozenset(p.name for p, a, ok in zip(fd.params, e.args, simple)
                                      if not ok and self.avail is not None and self._calls(a, env)))
        self._perm(perm)  # (the body's value is the call's)
        if self.avail is None:
            text = _marked(in_parens(self.expr(fd.body, inner)), e.func)
        else:  # what the body computed when it holds, or not (see _test)
            body, yes, no = self._test(fd.body, inner)
            self.avail = _common(yes, no)
            text = _marked(in_parens(body), e.func)
            self.tested = (text, yes, no)
            self.expanded[id(e)] = calls = self._calls(fd.body, inner)
            if not calls:
                self.wrote[id(e)] = False
                if self._bare(fd.body, inner):   # (a name in parentheses is the name)
                    self.named[id(e)] = False
                return text
            text = self._once(e, text, env)
            self.wrote.setdefault(id(e), True)
        return text

    def _memo_call(self, e) -> bool:
        """Whether a call in an expression whose order does not matter (perm_here) reads
        the evaluation's values of components (see components)."""
        return self.perm_here and self.memo_ok and e.node == "Call" and e.func in self.components

    def _perm_arg(self, e, i: int) -> bool:
        """Whether the call e's argument i may be computed in any order (a list whose
        order the call's value does not depend on: core/facts.py, order_free_arg); asked
        only where a component may be found (the order matters only there)."""
        return bool(self.components) and self.t.facts.order_free_arg(e, i, self.perm_here)

    def _may_expand(self, f: str, simple: list[bool]) -> bool:
        """Whether a call of the inlined function ``f`` is written in place, its
        arguments' ``simple`` (see _simple_arg): each parameter its body uses more than
        once (core/inline.py, ``repeated``) is given an argument that may be written
        twice."""
        repeated = self.repeated.get(f)
        if not repeated:
            return True
        params = self.c.functions[f].params
        return all(ok for p, ok in zip(params, simple) if p.name in repeated)

    def _simple_arg(self, a, text: str, env: Env) -> bool:
        """Whether the argument ``a`` (its text ``text``) may be written twice (see
        _may_expand): a name this code bound for a value it computed (``once_N``,
        ``lazy_N``, ``s_N``: ``deps``; an inlined body's value, in parentheses) or an
        operand the statement form computed before (``pre``); a name bound where it is
        read (a parameter, a loop's variable, a local; an inlined function's parameter
        where its argument is so: ``env.simple``); else as the core says
        (core/inline.py, ``simple_arg``: constants, the active player...)."""
        if kept_name(text) or (self.pre and id(a) in self.pre):
            return True
        if a.node == "Var" and env.lookup(a.name) is not None:
            return a.name not in env.subst or a.name in env.simple
        return self.t.facts.simple_arg(a)

    def table_name(self, name: str) -> Code:
        """The name of one of the program's tables, as a built-in's text (see Code)."""
        return Code(name, "table")

    def _builtin(self, e, f, args):
        call = _Call(self, e, args)
        if PRIMITIVES[f].reads_r_with(call.list0):
            self.wrote_r = True
        if PRIMITIVES[f].gives_r:
            self.gave_r = True
        return emit(PRIMITIVES[f].python, call)


def _marked(text: str, name: str) -> str:
    """The text of rule function ``name``'s body written in place, marked (see
    play/inplace.py); a name or a constant as it is (it cannot fail)."""
    return text if isinstance(text, Code) else inplace.body(text, name)
