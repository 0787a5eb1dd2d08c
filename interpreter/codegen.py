"""Expressions -> Python source, compiled once per ruleset.

The checked IR is turned into Python expressions over the runtime ``R`` (zones
``R.z``, item locations ``R.loc``, globals ``R.g``...) and static tables in the
module namespace (``A_value[item]``, ``C_row[cell]``, ``REL_beside[cell]``...). Names
come only from the checked IR (identifiers of the grammar, never free text), and string
literals are written with ``repr``, so no ruleset text is ever executed as code.
"""
from __future__ import annotations

import re

from ..dsl import ast as ir
from ..dsl.builtins import BUILTINS, CLOSURES
from ..dsl.check import Checked
from ..dsl.types import T

CMP = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def type_code(t: T) -> str:
    """How a value of this type is written in moves and records."""
    if t.tag == "list":
        return "list:" + type_code(t.arg)
    if t.tag == "enum":
        return f"enum:{t.arg}"
    return t.tag


class CodeTooBig(Exception):
    """Generated code grew over the code budget at this place of the source."""

    def __init__(self, span):
        super().__init__("generated code too big")
        self.span = span


class Env:
    """How a name in the source maps to Python: a procedure local (``L['x']``), a
    function parameter or comprehension variable (``v_x``), or, inside an inlined
    function body, the Python text of the argument (``subst``)."""

    def __init__(self, params: set[str] = frozenset(), locals_: set[str] = frozenset(),
                 subst: dict[str, str] | None = None):
        self.params = set(params)
        self.locals = set(locals_)
        self.subst = subst or {}

    def bind(self, name: str) -> "Env":
        subst = {k: v for k, v in self.subst.items() if k != name}
        return Env(self.params | {name}, self.locals - {name}, subst)

    def lookup(self, name: str) -> str | None:
        if name in self.subst:
            return self.subst[name]
        if name in self.params:
            return f"v_{name}"
        if name in self.locals:
            return f"L[{name!r}]"
        return None


_INLINE_MAX = 200  # IR nodes of one fully expanded inlined call at most

_FREE_LOOPS = 256  # turns of nested loops over boards and relation rows not counted (fast code)

# Whether rules are compiled to the fast code (the default) besides the straightforward
# code. Tests turn it off to compare both (tests/test_fast_paths.py); nothing else should.
OPTIMIZE = True

# an argument whose text may be repeated when a function is inlined: a name (a local),
# a number,
# a string or a constant (evaluating it again costs nothing and cannot fail)
_SIMPLE_ARG = re.compile(r"\(*(v_\w+|L\['\w+'\]|-?\d+|'[A-Za-z0-9_ ]*'|True|False|None|R\.active|R\.n)\)*")

# function bodies made only of these nodes may be inlined at their call sites: they
# bind no variables, so an argument's text cannot be captured by a comprehension
_INLINABLE = {"IntLit", "StrLit", "BoolLit", "NoneLit", "Var", "Attr", "Call", "BinOp", "UnOp",
              "CondExpr", "ListLit", "Index", "TypeRef", "Param"}


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

    def expr(self, e, env: Env) -> str:
        return getattr(self, "_" + e.node)(e, env)

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
        if n == "active":
            return "R.active"
        if n == "players":
            return "R.players"
        c = self.c
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
        obj = self.expr(e.obj, env)
        if t.tag == "item":
            if e.name in self.c.item_vars.get(t.arg, {}):
                return f"R.iv[{e.name!r}][{obj}]"
            return f"A_{e.name}[{obj}]"
        if e.name == "name":
            return f"CELL_NAME[{obj}]"
        return f"C_{e.name}[{obj}]"

    def _CellAt(self, e, env):
        """``cell(board, row: r, col: c)``: a look-up in a table of the board's cells by
        these coordinates (``None`` when there is no such cell)."""
        table = self.t.cell_table(self.ty(e.board).arg, tuple(a.name for a in e.coords), e)
        key = "(" + "".join(self.expr(a.value, env) + ", " for a in e.coords) + ")"
        return f"{table}.get({key})"

    def _Index(self, e, env):
        if e.index.node == "IntLit":  # a negative literal is a UnOp, so this is >= 0
            return f"{self.expr(e.obj, env)}[{e.index.value}]"
        return f"_index({self.expr(e.obj, env)}, {self.expr(e.index, env)})"

    def _ListLit(self, e, env):
        return "[" + ", ".join(self.expr(x, env) for x in e.items) + "]"

    def _CondExpr(self, e, env):
        return f"({self.expr(e.then, env)} if {self.expr(e.cond, env)} else {self.expr(e.other, env)})"

    def _UnOp(self, e, env):
        if e.op == "not":
            return f"(not {self.expr(e.operand, env)})"
        return f"(-{self.expr(e.operand, env)})"

    def _BinOp(self, e, env):
        op = e.op
        a, b = self.expr(e.left, env), self.expr(e.right, env)
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
            return f"_mul({a}, {b}, {self.t.budgets.integer})"
        if op == "+" and self.ty(e).tag in ("list", "str"):  # lists and strings join
            return f"_cat(R, {a}, {b})"
        if op == "/":
            return f"_div({a}, {b})"
        if op == "%":
            return f"_mod({a}, {b})"
        return f"({a} {op} {b})"

    # ------------------------------------------------------------ comprehensions
    def _clauses(self, comp: ir.Comprehension, env: Env) -> tuple[str, Env]:
        """The loops of a comprehension (the caller restores ``self.free`` after it)."""
        parts = []
        inner = env
        calls = self.optimize and self._calls_loop(comp)
        for cl in comp.clauses:
            it = self.expr(cl.iter, inner)
            inner = inner.bind(cl.var)
            size = None if not self.optimize or calls else self._fixed_size(cl.iter)
            if size is not None and self.free * size <= _FREE_LOOPS:
                self.free *= size
            elif not _counted(cl.iter, it):
                it = f"_it(R, {it})"  # the work budget: nested loops cannot run for ever
            parts.append(f"for v_{cl.var} in {it}")
        if comp.cond is not None:
            parts.append(f"if {self.expr(comp.cond, inner)}")
        return " ".join(parts), inner

    def _fixed_size(self, e) -> int | None:
        """The most elements the iterable can have when it is a board's cells or a row
        of a relation of two cells (tables made before the fast code), else None."""
        if e.node != "Call" or len(e.args) != 1:
            return None
        if e.func == "cells" and e.func not in self.c.functions:
            cells = self.t.boards.get(self.ty(e.args[0]).arg)
            return None if cells is None else len(cells)
        r = self.c.relations.get(e.func)
        if r is not None and len(r.params) == 2 and e.func not in self.c.functions:
            table = self.t.ns.get(f"REL_{e.func}")
            return None if table is None else max(map(len, table), default=0)
        return None

    def _calls_loop(self, e, seen=None) -> bool:
        """Whether evaluating e may call a function that loops or calls others (an
        inlined function's body has no loop: only its calls count)."""
        seen = set() if seen is None else seen
        for n in ir.walk(e):
            if n.node == "Call" and n.func in self.c.functions and n.func not in seen:
                if n.func not in self.inline:
                    return True
                seen.add(n.func)
                if self._calls_loop(self.c.functions[n.func].body, seen):
                    return True
        return False

    def _Comprehension(self, e, env):
        free = self.free
        loops, inner = self._clauses(e, env)
        el = self.expr(e.elem, inner)
        self.free = free
        return f"[{el} {loops}]"

    def _Aggregate(self, e, env):
        if e.func in CLOSURES:
            return self._closure(e, env)
        free = self.free
        loops, inner = self._clauses(e.comp, env)
        el = self.expr(e.comp.elem, inner)
        self.free = free
        f = e.func
        if f in ("any", "all"):
            return f"{f}({el} {loops})"
        if f == "sum":
            return f"sum([{el} {loops}])"
        if f == "count":
            return f"len([1 {loops}])"
        if f in ("min", "max"):
            return f"_{f}([{el} {loops}])"
        if f == "first":
            return f"next(({el} {loops}), None)"
        return f"_last([{el} {loops}])"

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
            cond = f"lambda v_{cl.var}: {self.expr(e.comp.cond, env.bind(cl.var))}"
        return f"_connected(R, {s}, REL_{cl.iter.func}, {cond})"

    # ------------------------------------------------------------ calls
    def _Call(self, e, env):
        c, f = self.c, e.func
        args = [self.expr(a, env) for a in e.args]
        if f in c.functions:
            if f in self.inline and self._may_expand(f, args):
                fd = c.functions[f]
                subst = {p.name: f"({a})" for p, a in zip(fd.params, args)}
                return f"({self.expr(fd.body, Env(subst=subst))})"
            return f"{self.prefix}{f}(R{''.join(', ' + a for a in args)})"
        if f in c.relations and len(c.relations[f].params) > 2:
            key = "(" + "".join(a + ", " for a in args) + ")"
            if len(args) == len(c.relations[f].params):
                return f"({key} in RELSET_{f})"
            return f"list(REL_{f}.get({key}, ()))"
        if f in c.relations:
            if len(args) == 1:
                return f"REL_{f}[{args[0]}]"
            return f"({args[1]} in RELSET_{f}[{args[0]}])"
        if f in c.zones:
            return f"(Z_{f} + {args[0]})"
        if f in c.vars:
            return f"R.pv[{f!r}][{args[0]}]"
        if f in BUILTINS:
            return self._builtin(e, f, args)
        raise AssertionError(f"the checker let an unknown function through: {f}")

    def _may_expand(self, f: str, args: list[str]) -> bool:
        repeated = self.repeated.get(f)
        if not repeated:
            return True
        params = self.c.functions[f].params
        return all(_SIMPLE_ARG.fullmatch(a) for p, a in zip(params, args) if p.name in repeated)

    def _builtin(self, e, f, args):
        a0 = args[0] if args else None
        t0 = self.ty(e.args[0]) if e.args else None
        is_list = t0 is not None and t0.tag == "list"
        match f:
            case "top":
                return f"(R.z[{a0}] or _NO_ITEM)[-1]" if len(args) == 1 else f"_topn(R.z[{a0}], {args[1]})"
            case "bottom":
                return f"_bottom(R.z[{a0}])"
            case "items":
                return f"list(R.z[{a0}])"
            case "size" | "len":
                return f"len({a0})" if is_list else f"len(R.z[{a0}])"
            case "empty":
                return f"(not {a0})" if is_list else f"(not R.z[{a0}])"
            case "occupied":
                return f"(len({a0}) > 0)" if is_list else f"(len(R.z[{a0}]) > 0)"
            case "cells":
                return f"BOARD_{self.ty(e.args[0]).arg}"
            case "cell_of":
                return f"_cell_of(R, {a0}, BOARDSET_{self.ty(e.args[1]).arg})"
            case "abs":
                return f"abs({a0})"
            case "min" | "max":
                if len(args) == 2:
                    return f"{f}({a0}, {args[1]})"
                return f"_{f}({a0})"
            case "sum" | "any" | "all":
                return f"{f}({a0})"
            case "count":
                return f"len({a0})"
            case "first":
                return f"_first({a0})"
            case "last":
                return f"_last({a0})"
            case "subsets":
                return f"_subsets({a0})"
            case "sort":
                code = type_code(t0.arg) if is_list else "int"
                name = "SORTKEY_" + "".join(ch if ch.isalnum() else "_" for ch in code)
                self.t.ns[name] = self.t.sort_key(code)
                return f"sorted({a0}, key={name})"
            case "reverse":
                return f"list(reversed({a0}))"
            case "distinct":
                return f"list(dict.fromkeys({a0}))"
            case "player_count":
                return "R.n"
            case "face_down":
                return f"(R.facing[{a0}] >= 0)"
            case "turn_number":
                return "R.turn"
            case "next_player":
                return f"(({a0} + R.dir) % R.n)"
            case "previous_player":
                return f"(({a0} - R.dir) % R.n)"
            case "seat":
                return f"({a0} + 1)"
            case "owner":
                return f"ZONE_OWNER[{a0}]"
        raise AssertionError(f)
