"""The statement form of the fast code (a part of codegen.ExprCompiler, its methods on
the compiler's state): aggregates and comprehensions written out as ``for`` loops, with
the operands before them computed first into ``s_N`` names (see ExprCompiler.lines)."""
from __future__ import annotations

import math

from ...dsl import ast as ir
from ...dsl.builtins import CLOSURES
from ...dsl.check import walks_edges
from ..core.inline import SPLICE_DEPTH
from ..core.operators import LAZY
from ..core.primitives import PyLoop
from .codegen_base import (
    _AVAIL_MAX,
    _LOOPS,
    Code,
    CompilerPart,
    Env,
    _Loop,
    in_parens,
    int_value,
    is_name,
    is_simple,
    same_value,
)
from .codegen_lines import BREAK, COMP, Line, else_line, for_line, if_line, step_lines, table_read

_WORK = table_read("work")  # (the statement form is printed with its reads marked: codegen_lines)


class _Written:
    """A loop of the statement form being written out (see StatementForm._s_loop): its
    kind and the name of its value, its ``for`` lines (their index in the lines, their
    indentation) and what each walks, the most turns of each where known, the last
    one's variable, where its body starts, its condition's text, its element's, the
    cells of the static part of its condition (see StaticCells._core_cells) and the
    indentation of the element."""

    def __init__(self, kind: str, res: str):
        self.kind, self.res = kind, res
        self.heads: list[tuple[int, str]] = []
        self.its: list[str] = []
        self.sizes: list[int | None] = []
        self.var = ""
        self.body = 0
        self.cond: str | None = None
        self.el: str | None = None
        self.static: tuple | None = None
        self.cur = ""


class StatementForm(CompilerPart):
    """ExprCompiler's methods for the statement form of the fast code (see ExprCompiler.lines)."""

    def _s_call(self, e, env: Env, out: list[Line], ind: str) -> str:
        """A call of a rule function written in place: its arguments computed in order
        (as a call computes them), then its body, its loops' variables named apart (they
        must not overwrite the caller's): in a loop, where it depends on the loop's
        variables. A call outside loops, made again, or kept for a loop's turns (see
        root) stays a call computed once; the value of one written in place serves where
        the same call is made again in the turn."""
        perm = self.perm_here
        args, perms, found = [], [], []
        for i, a in enumerate(e.args):
            perms.append(self._perm_arg(e, i))
            self._perm(perms[-1])
            before = self.memo_texts
            args.append(self._s(a, env, out, ind))
            found.append(self.memo_texts > before)  # (a component's call: see _memo_key)
        text = f"{self.prefix}{e.func}(R{''.join(', ' + a for a in args)})"
        key = None
        if self.avail is not None and (got := self._value_key(e, env)) is not None:  # (see _once)
            key, ids = got
            name = self.avail.get(key)
            if name is not None:
                self.found.add(name)
                self.wrote[id(e)] = False
                self.named[id(e)] = name in self.lazy_names
                return name
            if not self.loops or self._keepable(key, set(ids)):  # (in a loop, a turn's own call)
                return self._once(e, self._gives(text), env)
        fd = self.c.functions[e.func]
        simple = [self._simple_arg(x, a, env) for x, a in zip(e.args, args)]
        names = [a if ok else self._s_name(a, out, ind) for a, ok in zip(args, simple)]
        inner = self._spliced_env(e, env, args, names, perms, simple)
        memo = self._memo_key(fd, found, names)
        self.splicing += 1
        try:
            self._perm(perm)  # (the body's value is the call's)
            if memo is None:
                value = self._s_name(self._s(fd.body, inner, out, ind), out, ind)
            else:  # the value for this component, computed once (see _memo_key)
                (key, comp), m, value = memo, self._temp(), self._temp()
                self.wrote_r = True  # (the work counted again)
                inside = ind + "    "
                out.extend([Line(ind, f"{m} = mo_.get({key})"), if_line(ind, f"{m} is not None and {m}[2] is {comp}"),
                            Line(inside, f"{_WORK} -= {m}[1]"), Line(inside, f"if {_WORK} < 0: _out_of_work(R)"),
                            Line(inside, f"{value} = {m}[0]"), else_line(ind), Line(inside, f"{m} = {_WORK}")])
                body = self._apart(self._s, fd.body, inner, out, inside)
                out.extend([Line(inside, f"{value} = {body}"), Line(inside, f"mo_[{key}] = ({value}, {m} - {_WORK}, {comp})")])
        finally:
            self.splicing -= 1
        if key is not None and len(self.avail) < _AVAIL_MAX:
            self.avail[key] = value
        self.wrote[id(e)] = False   # (a name, see _calls)
        self.named[id(e)] = False
        return value

    def _spliced_env(self, e, env: Env, args: list[str], names: list[str], perms: list[bool],
                     simple: list[bool]) -> Env:
        """The names inside the body of a call written in place (see _s_call): each
        parameter its argument's text ``args`` where that is ``simple``, else the name
        ``names`` gave it. (No argument's code calls a function then, see _calls.)"""
        params = self.c.functions[e.func].params
        return Env(subst={p.name: v for p, v in zip(params, names)}, ids=env.ids,
                   keys=self._arg_keys(e, env, names, perms, [n == a for n, a in zip(names, args)]),
                   simple=frozenset(p.name for p, ok, n, a in zip(params, simple, names, args) if ok or n != a),
                   bare=frozenset(p.name for p, x, n, a in zip(params, e.args, names, args)
                                  if n != a or self._bare(x, env)))

    def _memo_key(self, fd, found: list[bool], names: list[str]) -> tuple[str, str] | None:
        """A function written in place whose argument is a component found in this
        evaluation (its text holds a call of ``FC_name``, as the printer noted: ``found``,
        per argument, see ExprCompiler.memo_texts and components), the other arguments
        values Python can
        hash: its value is the same for the same component (the same list, whichever of
        its cells found it: see compile.Program._component_source) and the same other
        arguments, and is computed once (the work it counts counted again). The key in
        the evaluation's table (``mo_``), and the component's name (its list is kept with
        the value: an id is not reused while it lives); or None."""
        if not self.memo_ok:
            return None
        comp = next((n for p, f, n in zip(fd.params, found, names) if p.type.name == "list" and f), None)
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
        name = Code(f"s_{self.temps}", "temp", f"s_{self.temps}")
        self.deps[name] = tuple(i for loop in self.loops for i in loop.ids)
        return name

    def _s(self, e, env: Env, out: list[Line], ind: str) -> str:
        """Statements (appended to ``out``, indented by ``ind``) computing e, and the
        text of e's value after them."""
        perm, self.perm_next = self.perm_next, False
        if not self._looped(e):
            self.perm_next = perm
            return self.expr(e, env)
        self.named.pop(id(e), None)
        saved, self.perm_here = self.perm_here, perm
        try:
            text = self._s_node(e, env, out, ind)
        finally:
            self.perm_here = saved
        if text in self.deps:   # (a value named by the statements: s_N)
            self.named.setdefault(id(e), text in self.lazy_names)
        return text

    def _s_node(self, e, env: Env, out: list[Line], ind: str) -> str:
        form = self._s_form(e)
        if form is not None:
            return form(e, env, out, ind)
        return self._s_operands(e, env, out, ind)

    def _s_form(self, e):
        """The method that writes e out where e has a statement form of its own (a loop,
        a branch, a call written in place, lists joined), else None."""
        node = e.node
        if node == "Aggregate":
            if e.func in CLOSURES:
                return self._s_closure
            return self._s_until if e.func == "until" else self._s_aggregate
        if node == "Comprehension":
            return self._s_comprehension
        if node == "BinOp" and e.op in ("and", "or"):
            return self._s_bool
        if node == "BinOp" and e.op == "+" and self.ty(e).tag in ("list", "str"):
            return self._s_join
        if node == "UnOp":
            return self._s_unop
        if node == "CondExpr":
            return self._s_cond
        if node == "Call" and e.func in self.spliced and self.splicing < SPLICE_DEPTH \
                and not self._memo_call(e):
            return self._s_call
        return None

    def _s_aggregate(self, e, env: Env, out: list[Line], ind: str) -> str:
        return self._s_loop(e.func, e.comp, env, out, ind)

    def _s_comprehension(self, e, env: Env, out: list[Line], ind: str) -> str:
        return self._s_loop("list", e, env, out, ind)

    def _s_bool(self, e, env: Env, out: list[Line], ind: str) -> str:
        """``a and b``, ``a or b``: b computed where a does not decide."""
        a = self._s(e.left, env, out, ind)
        t = self._temp()
        out.append(Line(ind, f"{t} = {a}"))
        out.append(if_line(ind, f"{'' if e.op == 'and' else 'not '}{t}"))
        b = self._apart(self._s, e.right, env, out, ind + "    ")
        out.append(Line(ind + "    ", f"{t} = {b}"))
        return t

    def _s_unop(self, e, env: Env, out: list[Line], ind: str) -> str:
        operand = self._s(e.operand, env, out, ind)
        return self._op(e, env, [operand])   # (its form: codegen_operators.py)

    def _s_cond(self, e, env: Env, out: list[Line], ind: str) -> str:
        """``a if c else b`` as an ``if`` statement."""
        c = self._s(e.cond, env, out, ind)
        t = self._temp()
        out.append(if_line(ind, c))
        then = self._apart(self._s, e.then, env, out, ind + "    ")
        out.append(Line(ind + "    ", f"{t} = {then}"))
        out.append(else_line(ind))
        other = self._apart(self._s, e.other, env, out, ind + "    ")
        out.append(Line(ind + "    ", f"{t} = {other}"))
        return t

    def _s_operands(self, e, env: Env, out: list[Line], ind: str) -> str:
        """Any other expression: the operands up to the last one with a loop computed
        first, in order (all the arguments of an inlined function's call, see
        _called_anyway), then the expression over their names."""
        node = e.node
        looped = [i for i, k in enumerate(self._kids(e) or ()) if self._looped(k)]
        if not looped:  # (a call written in place too deep is a call)
            self._perm(self.perm_here)
            return self.expr(e, env)
        kids = self._kids(e)
        last = len(kids) - 1 if node == "Call" and e.func in self.inline else looped[-1]
        done = []
        try:
            for i, k in enumerate(kids[:last + 1]):
                self._perm(node == "Call" and self._perm_arg(e, i))
                v = self._s(k, env, out, ind)
                if not is_simple(v):
                    t = self._temp()
                    out.append(Line(ind, f"{t} = {v}"))
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
            if self.t.facts.counts_work(n):
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
        if n == "BinOp" and (n, e.op) not in LAZY:   # (and, or: the right maybe not)
            return [e.left, e.right]
        if n == "Index":
            return [e.obj] if e.index.node == "IntLit" else [e.obj, e.index]
        if n in ("ListLit", "TupleLit"):
            return list(e.items)
        if n == "Attr":
            return [e.obj] if self.ty(e.obj).tag in ("item", "cell") else None
        if n == "Call":
            c, f = self.c, e.func
            if f in c.functions:
                return list(e.args) if f not in self.inline or self._called_anyway(e) else None
            if self.t.facts.call_kind(e) == "pair":
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
        var = inner.subst[name] = Code(f"w{inner.ids[name]}_{name}", "loop", inner.ids[name])
        inner.simple = inner.simple | {name}
        inner.bare = inner.bare | {name}
        return inner, var

    def _s_closure(self, e, env: Env, out: list[Line], ind: str) -> str:
        """``connected(x for x in REL(START) if COND)`` as loops (what helpers._connected
        does, with the condition in place of a call of a lambda per cell)."""
        cl = e.comp.clauses[0]
        edges = walks_edges(self.c, cl.iter)   # across(EDGES, START): through open edges
        start = cl.iter.args[1 if edges else 0]
        rows = f"REL_{cl.iter.func}[{{}}]"
        s = self._s(start, env, out, ind)
        if self.ty(start).tag != "list":
            s = f"({s},)"
        s = self._s_name(s, out, ind)
        if edges:   # (the closed edges, when given, once, after the start)
            closed = ""
            if len(cl.iter.args) == 3:
                closed = ", " + self._s_name(self._s(cl.iter.args[2], env, out, ind), out, ind)
            rows = self._gives(f"_across(R, ACROSS_{self.ty(cl.iter.args[0]).arg}, {{}}{closed})")
        found, seen, work, at, near = (self._temp() for _ in range(5))
        self.wrote_r = True  # (the walk's work)
        inner, var = self._s_bind(env, cl.var)
        cond = None
        if e.comp.cond is not None:
            cond = self._apart(self._barrier, e.comp.cond, inner)
        keep = [Line(0, f"{found}.append({var})")] if cond is None \
            else [if_line(0, cond), Line(1, f"{found}.append({var})")]
        step = [Line(0, f"{seen}.add({var})")] + keep
        lines = [Line(0, f"{found} = []"), Line(0, f"{seen} = set()"),
                 for_line(0, var, s), if_line(1, f"{var} is not None and {var} not in {seen}"),
                 *(x.deeper(2) for x in step),
                 Line(0, f"{work} = len({s})"),
                 for_line(0, at, found), Line(1, f"{near} = {rows.format(at)}"),
                 Line(1, f"{work} += len({near})"), for_line(1, var, near),
                 if_line(2, f"{var} not in {seen}"), *(x.deeper(3) for x in step),
                 Line(0, f"{_WORK} -= {work}"), Line(0, f"if {_WORK} < 0: _out_of_work(R)")]
        out.extend(x.deeper(len(ind) // 4) for x in lines)
        self.last_closure = (found, work)
        return found

    def _s_range(self, e, env: Env, out: list[Line], ind: str) -> str:
        """The iterable of a loop over ``a..b`` written out: a Python range, counted
        against the work budget and checked against the range budget as helpers._range
        does, without making the list."""
        a, b = (self._s_value(x, env, out, ind) for x in (e.left, e.right))  # (in order)
        limit = self.t.budgets.range
        first, last = int_value(a), int_value(b)
        if first is not None and last is not None:  # known now
            n = last - first + 1
            if n > limit:
                out.append(Line(ind, f"_too_long({a}, {b}, {limit})"))
            elif n > 0:
                out.extend([Line(ind, self._r(f"{_WORK} -= {n}")), Line(ind, f"if {_WORK} < 0: _out_of_work(R)")])
            return f"range({a}, {b} + 1)"
        n = self._r(self._temp())  # (counted against the work budget)
        out.extend([Line(ind, f"{n} = {b} - {a} + 1"), Line(ind, f"if {n} > {limit}: _too_long({a}, {b}, {limit})"),
                    if_line(ind, f"{n} > 0"), Line(ind + "    ", f"{_WORK} -= {n}"),
                    Line(ind + "    ", f"if {_WORK} < 0: _out_of_work(R)")])
        return f"range({a}, {b} + 1)"

    def _s_value(self, e, env: Env, out: list[Line], ind: str) -> str:
        """A value computed now (in a name, unless its text is a name or a constant)."""
        text = self._s(e, env, out, ind)
        return text if is_simple(text) else self._s_name(text, out, ind)

    def _s_iterable(self, e, env: Env, out: list[Line], ind: str) -> str:
        """The iterable of a loop written out; a zone's items are walked in place (the
        loop changes nothing: no copy of the list is needed)."""
        if e.node == "Call" and e.func == "items" and self.c.calls_builtin("items"):
            self._perm(False)
            return self._r(f"{table_read('zones')}[{self._s(e.args[0], env, out, ind)}]")
        return self._s(e, env, out, ind)

    def _s_join(self, e, env: Env, out: list[Line], ind: str) -> str:
        """``a + b`` of lists or strings, an operand with a loop: both computed in order,
        then counted against the work budget as helpers._cat counts them, in place."""
        joined = self._relations_joined(e, env)
        if joined is not None:  # the two lists joined, from a table
            res = self._s_name(joined[1], out, ind)
            out.extend([Line(ind, self._r(f"{_WORK} -= len({res})")), Line(ind, f"if {_WORK} < 0: _out_of_work(R)")])
            return res
        a = self._s_name(self._s(e.left, env, out, ind), out, ind)
        b = self._s_name(self._s(e.right, env, out, ind), out, ind)
        out.extend([Line(ind, self._r(f"{_WORK} -= len({a}) + len({b})")), Line(ind, f"if {_WORK} < 0: _out_of_work(R)")])
        return f"({a} + {b})"

    def _relations_joined(self, e, env: Env) -> tuple[str, str] | None:
        """``r(x) + q(x)``, two relations of two cells given the same cell ``x`` (a name):
        the name of a table made once per program (``CAT_...``: the same cells in the
        same order; relations' lists are never changed in place, so one list per cell
        serves every join) and the text of the two lists joined read from it
        (``CAT_...[x]``), else None."""
        kids = (e.left, e.right)
        if not all((self.t.facts.table_list(k) or ("",))[0] == "relation"
                   and k.args[0].node == "Var" for k in kids):  # (names: text written once)
            return None
        x = self.expr(e.left.args[0], env)
        if not same_value(x, self.expr(e.right.args[0], env)):
            return None
        first, then = e.left.func, e.right.func
        name = f"CAT_{len(first)}_{first}_{then}"  # (one name per pair of relations)
        if name not in self.t.ns:
            self.t.ns[name] = [a + b for a, b in zip(self.t.ns[f"REL_{first}"], self.t.ns[f"REL_{then}"])]
        return name, f"{name}[{x}]"

    def _s_until(self, e, env: Env, out: list[Line], ind: str) -> str:
        """``until(x for x in LIST if COND)`` as a loop (what helpers._until does, with the
        condition in place of a call of a lambda per element; like the lambda's, it keeps
        no value for the loops around)."""
        cl = e.comp.clauses[0]
        xs = self._s_name(self._s(cl.iter, env, out, ind), out, ind)
        res = self._r(self._temp())  # (counted against the work budget)
        inner, var = self._s_bind(env, cl.var)
        cond = self._apart(self._barrier, e.comp.cond, inner)
        inside = ind + "    "
        out.extend([Line(ind, f"{res} = []"), for_line(ind, var, xs), Line(inside, f"{res}.append({var})"),
                    if_line(inside, cond), Line(inside + "    ", "break", BREAK),
                    Line(ind, f"{_WORK} -= len({res})"), Line(ind, f"if {_WORK} < 0: _out_of_work(R)")])
        return res

    def _joined(self, e, env: Env):
        """``a + b`` of two lists, also as the body of an inlined function (its arguments
        names or constants: see _may_expand), and the names the body reads; else None."""
        if e.node == "Call" and e.func in self.inline:
            body = self.c.functions[e.func].body
            simple = [self._unbound(self.expr, a, env, walrus=True) for a in e.args]
            if body.node == "BinOp" and all(self._simple_arg(x, a, env) for x, a in zip(e.args, simple)):
                params = self.c.functions[e.func].params
                return self._joined(body, Env(subst={p.name: in_parens(a) for p, a in zip(params, simple)},
                                              ids=env.ids, keys=self._arg_keys(e, env, simple, [False] * len(simple)),
                                              simple=frozenset(p.name for p in params),
                                              bare=frozenset(p.name for p, x in zip(params, e.args) if self._bare(x, env))))
            return None, env
        if e.node == "BinOp" and e.op == "+" and self.ty(e).tag == "list":
            return e, env
        return None, env

    def _s_name(self, text: str, out: list[Line], ind: str) -> str:
        """A name for a value (a new s_N, unless the text is a name)."""
        if is_name(text):
            return text
        t = self._temp()
        out.append(Line(ind, f"{t} = {text}"))
        return t

    def _s_loop(self, kind: str, comp, env: Env, out: list[Line], ind: str) -> str:
        """A comprehension (``kind`` "list") or an aggregate as ``for`` loops; the name
        of its value."""
        saved = self.avail
        perm = self.perm_here
        loop = _Loop(walrus=True)
        w = _Written(kind, self._temp())
        try:
            inner = self._s_heads(w, comp, env, out, ind, loop, perm)
            w.body = len(out)
            self._s_filter(w, comp, inner, out, w.heads[-1][1] + "    " if w.heads else ind)
            self.cdepth += w.cond is not None  # the element is computed where the condition holds
            try:
                w.el = None if kind == "count" else self._s(comp.elem, inner, out, w.cur)
            finally:
                self.cdepth -= w.cond is not None
            if w.static is not None:  # the cells the condition's static part lets through
                self._s_hoisted(w, w.static, out)
            self._s_step(w, comp, out, ind)
            self._s_around(w, loop, out, ind)
            if kind == "list" and all(n is not None for n in w.sizes):
                self.bounds[w.res] = math.prod(w.sizes)  # (a filter only drops elements)
            return w.res
        finally:
            self._leave(loop, saved)

    def _s_heads(self, w: _Written, comp, env: Env, out: list[Line], ind: str, loop: _Loop, perm: bool) -> Env:
        """The ``for`` lines of a loop written out, one per clause, each iterable counted
        against the work budget (see _s_turns); the names inside."""
        calls = self._calls_loop(comp, spliced=True)
        inner, cur = env, ind
        for i, cl in enumerate(comp.clauses):
            it, joined, cat = self._s_clause_iter(w.kind, cl, inner, out, cur, perm)
            if i == 0:
                if self.avail is not None:
                    self.avail = dict(self.avail)  # the rest may not run
                self.loops.append(loop)
            inner, w.var = self._s_bind(inner, cl.var)
            loop.ids.add(inner.ids[cl.var])
            size = None if calls else self._s_clause_size(cl, it, joined, cat)
            w.sizes.append(size)
            it = self._s_turns(cl, it, joined, cat, out, cur)
            if len(comp.clauses) == 1:  # kept values may be computed before it
                it = loop.first = self._s_name(it, out, cur)
                loop.cdepth = self.cdepth
            w.heads.append((len(out), cur))
            w.its.append(it)
            out.append(for_line(cur, w.var, it))
            cur += "    "
        return inner

    def _s_clause_iter(self, kind: str, cl, inner: Env, out: list[Line], cur: str, perm: bool):
        """The iterable of a clause of a loop written out: its text, whether it is lists
        joined or a range (counted as they are made), and the name of the table the
        joined lists are read from (see _relations_joined), or None."""
        where, at = self._joined(cl.iter, inner)
        joined = where is not None
        table = self._relations_joined(where, at) if joined else None
        cat = None if table is None else table[0]
        if table is not None:  # 'for x in r(c) + q(c)': the joined lists, from a table
            it = self._s_name(table[1], out, cur)
        elif joined:  # 'for x in a + b': the two lists counted as _cat counts them
            parts = [self._s_name(self._s(x, at, out, cur), out, cur) for x in (where.left, where.right)]
            out.append(Line(cur, self._r(f"{_WORK} -= len({parts[0]}) + len({parts[1]})")))
            out.append(Line(cur, f"if {_WORK} < 0: _out_of_work(R)"))
            it = f"{parts[0]} + {parts[1]}"
        elif cl.iter.node == "BinOp" and cl.iter.op == "..":  # counted as _range counts it
            it, joined = self._s_range(cl.iter, inner, out, cur), True
        else:
            # (the elements' order does not matter for a count, or where the list's
            # own order does not)
            self._perm(kind == "count" or (kind == "list" and perm))
            it = self._s_iterable(cl.iter, inner, out, cur)
        return it, joined, cat

    def _s_clause_size(self, cl, it: str, joined: bool, cat: str | None) -> int | None:
        """The most turns of a clause's loop, where known."""
        if cat is not None:  # (as a relation's row: see _fixed_size)
            return max(map(len, self.t.ns[cat]), default=0)
        size = self._fixed_size(cl.iter)
        if size is None and not joined:
            size = self.bounds.get(it)  # a list a loop over fixed tables made
        return size

    def _s_turns(self, cl, it: str, joined: bool, cat: str | None, out: list[Line], cur: str) -> str:
        """A clause's iterable counted against the work budget (as ``_it`` counts it:
        core/facts.py, "work"); its text."""
        # the lists joined from a table, as _cat counts them; the walk, as _it counts it,
        # unless the source's iterable is counted as it is made (a join or a range written
        # there, not the body of a function called: core/facts.py, "work")
        times = (cat is not None) + (not self.t.facts.counted(cl.iter))
        if times:
            it = self._s_name(it, out, cur)
            out.append(Line(cur, self._r(f"{_WORK} -= {'2 * ' if times == 2 else ''}len({it})")))
            out.append(Line(cur, f"if {_WORK} < 0: _out_of_work(R)"))
        return it

    def _s_filter(self, w: _Written, comp, inner: Env, out: list[Line], cur: str) -> None:
        """The ``if`` line of a loop's condition, if any (``w.cond``; ``w.cur``: the
        indentation of the element)."""
        if comp.cond is not None and len(w.heads) == 1 \
                and (core := self._core_cells(w, comp, inner, w.its[0])) is not None:
            w.static, w.cond = core, core[1] or "True"  # (the static part: see _core_cells)
            out.append(if_line(cur, w.cond))
            cur += "    "
        elif comp.cond is not None:
            if self.avail is not None and not self._looped(comp.cond):
                w.cond, yes, _ = self._test(comp.cond, inner)
                self.avail = dict(yes)  # the element is computed where it holds
            else:
                w.cond = self._s(comp.cond, inner, out, cur)
            out.append(if_line(cur, w.cond))
            cur += "    "
        w.cur = cur

    def _s_hoisted(self, w: _Written, static: tuple, out: list[Line]) -> None:
        """The loop over the cells that the static part of its condition lets through
        (see _core_cells), testing only the rest, if any."""
        (start, at), (it, w.cond) = w.heads[0], static
        out[start] = for_line(at, w.var, it)
        w.its[0] = it
        if w.cond is None:  # nothing left to test: the body one level up
            out[w.body:] = [line.deeper(-1) for line in out[w.body + 1:]]
            w.cur = w.cur[:-4]
        else:
            out[w.body] = if_line(at + "    ", w.cond)

    def _s_step(self, w: _Written, comp, out: list[Line], ind: str) -> None:
        """What a turn of the loop does with the element; or the loop as one line: the
        static cells themselves or how many, or a Python comprehension (then no heads
        are left)."""
        kind, cond, el = w.kind, w.cond, w.el
        simple = len(w.heads) == 1 and len(out) == w.body + (cond is not None)
        if w.static is not None and simple and cond is None and (kind == "count" or (kind == "list" and el == w.var)):
            del out[w.heads[0][0]:]  # the cells themselves, or how many
            out.append(Line(ind, f"{w.res} = {'len' if kind == 'count' else 'list'}({w.static[0]})"))
            w.heads = []
        elif kind == "list" and simple and self._long(comp):  # a Python comprehension
            start, _ = w.heads[0]
            head = f"{COMP}for {w.var} in {w.its[0]}"
            del out[start:]
            out.append(Line(ind, f"{w.res} = [{el} {head}{'' if cond is None else ' if ' + cond}]"))
            w.heads = []
        else:
            out.extend(step_lines(w.cur, _LOOPS[kind].step, PyLoop(self, kind, w.res, el)))

    def _s_around(self, w: _Written, loop: _Loop, out: list[Line], ind: str) -> None:
        """The lines around the loop: leaving every loop at a 'break', the value's first
        value before, the calls kept for the loop's turns, the value's last step after."""
        step = _LOOPS[w.kind]
        if step.step_breaks:  # 'break' leaves every loop
            for _start, at in reversed(w.heads[1:]):
                out.extend([else_line(at), Line(at + "    ", "continue"), Line(at, "break", BREAK)])
        if w.heads:
            start = w.heads[0][0]
            out.insert(start, Line(ind, f"{w.res} = {step.step_start}"))
        else:
            start = len(out) - 1
        kept = [Line(ind, f"{name} = _NOT_YET") for name in loop.kept.values() if name not in loop.eager]
        if loop.eager:  # computed at the loop's first turn whatever happens: before it
            kept += [if_line(ind, f"{loop.first}")] + [Line(ind + "    ", f"{n} = {t}") for n, t in loop.eager.items()]
        out[start:start] = kept  # calls kept for the loop's turns
        self.binds += len(loop.kept)
        if step.step_end:
            out.append(Line(ind, step.step_end.format(r=w.res)))
