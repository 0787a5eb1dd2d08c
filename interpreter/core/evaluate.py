"""The reference meaning of expressions: a tree walk of the checked IR, one small method
per kind of node, that gives the value an expression has in a state (``R``, the Runtime)
and counts the budgets as the language says (docs/language.md 15.3, core/facts.py).

It is the meaning the engines are proven against (tests/test_evaluate.py): the Python
engines compile expressions to Python (compiler/codegen.py), the kernel prints them as
C++ (native/kernel.py); this reads them. A built-in means what its Python form in the one
table of primitives says (``primitives.PRIMITIVES``: the text of a call, the arguments'
values in place of the arguments; an aggregate's text over a comprehension, its elements
given one by one); an operator means what its operation's reference meaning in the
table of operators says (``operators.OPERATORS``, chosen by ``operators.resolve``);
``connected`` and ``until`` are the run-time helpers the compiled
code calls (play/helpers.py). Nothing falls back: a node, a built-in or a kind of call
it does not know (an operator too) is an error where it is met.

What it counts, as the compiled code does:

- work: each list a comprehension's clauses walk, unless its evaluation counted it (a
  range, lists joined) or it is written out (``facts.counted``); a range's, a join's
  elements; the cells ``connected`` and the elements ``until`` look at;
- calls: one per call of a function of ``facts.counts_calls``; the depth of calls of a
  function that may call itself (``facts.recursive``), each in the budgets of the program.

An evaluation reads the state and changes nothing but the budgets' counters. The
straightforward engine evaluates its expressions so (those of its procedures, its
ending and scoring, its relations and consts: ``Program._walked``) where ``MODE`` (or
the environment variable ``MEEPLE_EVALUATE``) says ``tree``; ``both`` evaluates each
both ways and checks that value, budgets and error agree, and where the error is
(``Evaluator.beside``). Off (``""``), as by default, the walk is not used. Any other
value is an error where a program is compiled (``mode``: a SettingError naming the
variable and its values)."""
from __future__ import annotations

import os
import types
from types import SimpleNamespace

from ...dsl import ast as ir
from ...dsl.builtins import CLOSURES, CONSTANTS
from ...dsl.check import walks_edges
from ...dsl.settings import choice
from ..play import helpers
from ..play.failures import _describe, _innermost_function, _rule_functions
from .operators import operands, resolve
from .primitives import PRIMITIVES, PyCall, PyOver, emit

# the values of MEEPLE_EVALUATE (tests): the engines' compiled code, this walk, both compared
VARIABLE = "MEEPLE_EVALUATE"
MODES = {"": "the compiled code", "tree": "the tree walk", "both": "both ways, compared"}
MODE = os.environ.get(VARIABLE, "")


def mode() -> str:
    """``MODE``, one of ``MODES``: another value raises SettingError (a typo is not
    taken for one of them)."""
    return choice(VARIABLE, MODE, MODES)


class Scope:
    """The names bound where an expression is evaluated: parameters and comprehension
    variables (``names``), and a procedure's locals (``L``, those of ``local``)."""

    def __init__(self, names: dict, L: dict | None = None, local: frozenset = frozenset()):
        self.names, self.L, self.local = names, ({} if L is None else L), local

    def bind(self, name: str, value) -> Scope:
        return Scope({**self.names, name: value}, self.L, self.local)

    def get(self, name: str, missing):
        if name in self.names:
            return self.names[name]
        if name in self.local:
            return self.L[name]
        return missing


_FREE = object()   # a name bound by no scope


class Evaluator:
    """The expressions of one program (``prog``: its checked IR, tables and facts)."""

    def __init__(self, prog):
        self.p, self.c, self.facts, self.ns = prog, prog.checked, prog.facts, prog.ns
        self.budgets = prog.budgets
        self._forms: dict[int, object] = {}      # a call's Python form, compiled once
        self._frames = {name: _frame(name) for name in self.c.functions}
        self._constants = {n for n in CONSTANTS if not self.c.declares(n)}
        # MODE "both": the evaluations compared with the compiled code's, and where they
        # differed (each also fails the rule that made it)
        self.compared = 0
        self.differences: list[str] = []
        # what a built-in's form may ask of its writer (primitives.PyCall): the types
        self._writer = SimpleNamespace(optimize=False, t=prog, c=prog.checked, ty=prog.checked.type_of,
                                       table_name=str)

    def value(self, e, R, s: Scope):
        method = getattr(self, "_" + e.node, None)
        if method is None:
            raise AssertionError(f"the evaluator has no meaning for {e.node}")
        return method(e, R, s)

    def function(self, params: str, e, local: frozenset):
        """The expression as a function of ``params`` (as ``Program._lambda`` names
        them: ``R, L`` for a procedure's locals, ``R, v_p, ...`` for parameters)."""
        names = [p.strip() for p in params.split(",")[1:]]
        if names == ["L"]:
            return lambda R, L: self.value(e, R, Scope({}, L, local))
        bound = [n[2:] if n.startswith("v_") else None for n in names]
        return lambda R, *args: self.value(e, R, Scope({n: a for n, a in zip(bound, args) if n}))

    # ------------------------------------------------------------ leaves
    def _IntLit(self, e, R, s):
        return e.value

    _StrLit = _BoolLit = _IntLit

    def _NoneLit(self, e, R, s):
        return None

    def _Var(self, e, R, s):
        """A name: bound where it is read, else the ruleset's (in the order the checker
        resolves them), else a built-in constant no declaration hides."""
        n, c = e.name, self.c
        v = s.get(n, _FREE)
        if v is not _FREE:
            return v
        if n in self._constants:
            return R.active if n == "active" else R.players
        if n in c.vars:
            return R.vars[n]
        for table, prefix in ((c.consts, "CONST_"), (c.enum_of_value, ""), (c.enums, "E_"), (c.kinds, "KIND_"),
                              (c.zones, "Z_"), (c.boards, "")):
            if n in table:   # (an enum's value, a board: its name)
                return self.ns[prefix + n] if prefix else n
        raise AssertionError(f"unresolved name {n}")

    def _Attr(self, e, R, s):
        t = self.c.type_of(e.obj)
        if t.tag == "list" and t.arg.tag == "enum":  # Enum.value
            return e.name
        obj = self.value(e.obj, R, s)
        if t.tag == "item":
            if e.name in self.c.item_vars.get(t.arg, {}):
                return R.ivars[e.name][obj]
            return self.ns[f"A_{e.name}"][obj]
        return self.ns["CELL_NAME" if e.name == "name" else f"C_{e.name}"][obj]

    def _CellAt(self, e, R, s):
        """The cell with these coordinates (none if there is none): the board's table."""
        table = self.p.cell_table(self.c.type_of(e.board).arg, tuple(a.name for a in e.coords), None)
        return self.ns[table].get(tuple(self.value(a.value, R, s) for a in e.coords))

    def _Ray(self, e, R, s):
        """The cells met stepping from the start (helpers._RayTable walks them)."""
        table = self.p.ray_table(self.c.type_of(e.start).arg, tuple(a.name for a in e.steps), e)
        return self.ns[table][tuple([self.value(e.start, R, s)] + [self.value(a.value, R, s) for a in e.steps])]

    def _Index(self, e, R, s):
        xs = self.value(e.obj, R, s)
        if e.index.node == "IntLit":   # a tuple's part, a list's by a literal: Python's index
            return xs[e.index.value]
        return helpers._index(xs, self.value(e.index, R, s))

    def _ListLit(self, e, R, s):
        return [self.value(x, R, s) for x in e.items]

    _TupleLit = _ListLit   # a tuple is held as a list of its parts

    # ------------------------------------------------------------ operators
    def _BinOp(self, e, R, s):
        """An operator: the reference meaning of its operation (core/operators.py), given
        its operands' values in order (after the first, where the operation is lazy, as
        functions that evaluate them)."""
        op = resolve(e, self.c.type_of)
        first, *rest = operands(e)
        a = self.value(first, R, s)
        if op.lazy:
            return op.meaning(R, self.budgets, a, *(lambda x=x: self.value(x, R, s) for x in rest))
        return op.meaning(R, self.budgets, a, *(self.value(x, R, s) for x in rest))

    _UnOp = _CondExpr = _BinOp

    # ------------------------------------------------------------ comprehensions
    def _bindings(self, comp, R, s: Scope, i: int = 0):
        """The scopes of a comprehension's turns where its condition holds, one by one:
        each clause's list evaluated when the clause starts, counted as work unless
        counted already (``facts.counted``)."""
        if i == len(comp.clauses):
            if comp.cond is None or self.value(comp.cond, R, s):
                yield s
            return
        cl = comp.clauses[i]
        xs = self.value(cl.iter, R, s)
        if not self.facts.counted(cl.iter):
            xs = helpers._it(R, xs)
        for x in xs:
            yield from self._bindings(comp, R, s.bind(cl.var, x), i + 1)

    def _Comprehension(self, e, R, s):
        return [self.value(e.elem, R, inner) for inner in self._bindings(e, R, s)]

    def _Aggregate(self, e, R, s):
        """The built-in's form over a comprehension (``over``): its loops give each turn's
        element as a function (``_x()``), evaluated where the form asks for it."""
        if e.func in CLOSURES:
            return self._connected(e, R, s)
        if e.func == "until":
            return self._until(e, R, s)
        over = PRIMITIVES[e.func].over
        if not over:
            raise AssertionError(f"the evaluator has no meaning for {e.func}(...) over a comprehension")
        form = self._form(e, lambda: emit(over, PyOver(None, e, "_x()", "for _x in _G")), "_G")
        elem = e.comp.elem
        return form((lambda inner=inner: self.value(elem, R, inner)) for inner in self._bindings(e.comp, R, s))

    def _connected(self, e, R, s):
        """``connected(x for x in REL(START) if COND)``: the walk of helpers._connected,
        over the relation's rows or an edges board's open edges."""
        cl = e.comp.clauses[0]
        edges = walks_edges(self.c, cl.iter)
        start_e = cl.iter.args[1 if edges else 0]
        start = self.value(start_e, R, s)
        if self.c.type_of(start_e).tag != "list":
            start = [start]
        if edges:   # (the closed edges, when given, after the start)
            closed = self.value(cl.iter.args[2], R, s) if len(cl.iter.args) == 3 else ()
            rows = helpers._Across(R, self.ns[f"ACROSS_{self.c.type_of(cl.iter.args[0]).arg}"], closed)
        else:
            rows = self.ns[f"REL_{cl.iter.func}"]
        cond = e.comp.cond
        test = None if cond is None else (lambda x: self.value(cond, R, s.bind(cl.var, x)))
        return helpers._connected(R, start, rows, test)

    def _until(self, e, R, s):
        cl = e.comp.clauses[0]
        xs = self.value(cl.iter, R, s)
        return helpers._until(R, xs, lambda x: self.value(e.comp.cond, R, s.bind(cl.var, x)))

    # ------------------------------------------------------------ calls
    def _Call(self, e, R, s):
        f, kind = e.func, self.facts.call_kind(e)
        if kind == "pair":   # whether two cells are related (the second evaluated first)
            b = self.value(e.args[1], R, s)
            return b in self.ns[f"RELSET_{f}"][self.value(e.args[0], R, s)]
        args = [self.value(a, R, s) for a in e.args]
        if kind == "builtin":
            names = [f"_a{i}" for i in range(len(args))]
            form = self._form(e, lambda: emit(PRIMITIVES[f].python, PyCall(self._writer, e, names)),
                              ", ".join(["R"] + names))
            return form(R, *args)
        if kind == "function":
            return self._frames[f](self, R, f, args)
        if kind == "tuple":
            return tuple(args) in self.ns[f"RELSET_{f}"]
        if kind == "rows":
            return list(self.ns[f"REL_{f}"].get(tuple(args), ()))
        if kind == "row":
            return self.ns[f"REL_{f}"][args[0]]
        if kind == "zone":
            return self.ns[f"Z_{f}"] + args[0]
        if kind == "player_var":
            return R.pvars[f][args[0]]
        raise AssertionError(f"the evaluator has no meaning for a call of kind {kind}")

    def call(self, R, f: str, args: list):
        """A rule function's value: its body, its parameters bound to ``args``; one call
        counted where the function counts its calls, and its depth where it may call
        itself (in a Python frame named ``F_f``, as the compiled code's: errors are
        located, and runaways named, by the rule functions on the stack)."""
        fd, b, facts = self.c.functions[f], self.budgets, self.facts
        if f in facts.counts_calls:
            R.calls += 1
            if R.calls > b.calls:
                helpers._too_many_calls(f, b.calls, f in facts.recursive)
        scope = Scope({p.name: a for p, a in zip(fd.params, args)})
        if f not in facts.recursive:
            return self.value(fd.body, R, scope)
        R.depth += 1
        if R.depth > b.depth:
            helpers._too_deep(f, b.depth)
        try:
            return self.value(fd.body, R, scope)
        finally:
            R.depth -= 1

    def frames_per_depth(self) -> int:
        """The Python frames one level of the depth budget may take in the walk: a few
        per node from a recursive function's body down to a call in it (``value``, the
        node's method, a comprehension's loops, an aggregate's form), at least the 4 of
        the compiled code; so the depth budget, not Python's recursion limit, stops a
        runaway recursion, as in the compiled code."""
        return max([4] + [4 * _height(self.c.functions[f].body) + 4 for f in self.facts.recursive])

    def beside(self, compiled, walked):
        """``MODE == "both"``: a function that runs an expression's compiled code and its
        walk from the same budgets and checks that they agree (the value, the budgets'
        counters after it, the error raised, the rule functions on the stack and the one
        it is in), then goes on as the compiled code did."""
        def both(R, *args):
            before = (R.work, R.calls, R.depth)
            want, value, error = _outcome(compiled, R, args)
            after = (R.work, R.calls, R.depth)
            R.work, R.calls, R.depth = before
            got = _outcome(walked, R, args)[0]
            if got != want or (R.work, R.calls, R.depth) != after:
                self.differences.append(f"the walk gives {got} (work, calls, depth {(R.work, R.calls, R.depth)}), "
                                        f"the compiled code {want} ({after})")
                raise AssertionError(self.differences[-1])
            self.compared += 1
            if error is not None:
                raise error
            return value
        return both

    def _form(self, e, text, params: str):
        """A built-in's Python form for the call ``e`` (``text()``, written once) as a
        function of ``params``, run in the program's namespace (its tables)."""
        fn = self._forms.get(id(e))
        if fn is None:
            src = f"lambda {params}: {text()}"
            fn = self._forms[id(e)] = eval(compile(src, "<primitive>", "eval"), self.ns)  # noqa: S307 - primitives.py's forms
        return fn


def _frame(name: str):
    """``Evaluator.call`` in a frame named ``F_name``."""
    def call(ev, R, f, args):
        return ev.call(R, f, args)
    code = call.__code__.replace(co_name=f"F_{name}", co_qualname=f"F_{name}")
    return types.FunctionType(code, call.__globals__, f"F_{name}")


def _height(e) -> int:
    """The nodes on the longest path from ``e`` down its tree."""
    return 1 + max((_height(x) for x in ir.children(e)), default=0)


def _outcome(fn, R, args) -> tuple:
    """What ``fn(R, *args)`` gives, as compared: ``("value", its repr)`` or ``("error",
    its kind, its plain words, the rule functions on the stack and the innermost, that
    it is in)`` (where it is located: play/failures.py); the value; the error."""
    try:
        v = fn(R, *args)
    except helpers.RuleError as e:
        return ("error", type(e).__name__, str(e), *_functions(e)), None, e
    except Exception as e:  # noqa: BLE001 - a failure of Python, in plain words as the runtime says it
        return ("error", "failure", _describe(e), *_functions(e)), None, e
    return ("value", repr(v)), v, None


def _functions(e: Exception) -> tuple:
    """The rule functions on the stack where ``e`` was raised, and the one it is in."""
    return _rule_functions(e.__traceback__), _innermost_function(e.__traceback__)
