"""The rule functions of a program as Python code (``F_name``): the straightforward
code, and beside it the fast code with its tables (values kept by arguments, tabled
functions, components found once), each function's calls and depth counted where
they must be. ``compile.Program`` makes one ``FunctionCompiler``: ``plain`` first
(board sizes may call functions), ``fast`` once the boards and relations are known.
"""
from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from ...dsl.errors import MeepleError
from ..play.helpers import _too_deep, _too_many_calls
from . import codegen
from .codegen import Env, ExprCompiler

if TYPE_CHECKING:
    from .compile import Program

_KEPT_MAX = 4096  # values kept per function that reads nothing of the state (then forgotten)
# whether the values of functions whose evaluation may count the depth of calls are kept
# (see _deep_def; off: computed at every call, as before: benchmarks/bench_kept_values.py)
KEEP_DEEP = True
_TABLED_MAX = 256  # combinations of arguments of a function whose values are a table, at most


def _kept_table(name: str, names: list[str], deep: bool = False) -> str:
    """The table of the values kept by a function (see Program._kept_functions):
    ``KEPT_name`` when it reads nothing of the state, ``KEPTV_name`` when it reads
    variables (the fast code tabulates the cells by the values of the former only),
    ``KEPTD_name`` when its evaluation may count the depth of calls (see _deep_def)."""
    return f"KEPTD_{name}" if deep else f"KEPTV_{name}" if names else f"KEPT_{name}"


def _frozen(xs) -> tuple:
    """A list argument as a key of a kept function's values (its elements, lists as
    tuples in turn: lists are values, never changed in place)."""
    return tuple(_frozen(x) if isinstance(x, list) else x for x in xs)


def _indented(lines: list[str], n: int) -> str:
    """Statements of the fast code (see ExprCompiler.lines), indented by n spaces."""
    pad = " " * n
    return "".join(f"{pad}{line}\n" for line in lines)


class FunctionCompiler:
    """Compiles the rule functions of ``prog`` into its namespace."""

    def __init__(self, prog: Program):
        self.p, self.checked = prog, prog.checked
        self.deep: set[str] = set()  # the kept functions that may count the depth of calls
        # per rule function, whether its fast code (as compiled last) reads the runtime R
        # or gives it to a function, as the printer noted (codegen.ExprCompiler.wrote_r)
        self.reads_r: dict[str, bool] = {}

    def plain(self) -> None:
        """Every function as ``F_name``. With the fast code, the straightforward
        functions are kept as ``PF_name`` (their Python name stays ``F_name``: errors are
        located by the rule functions on the stack): an expression whose fast code fails
        runs its straightforward code again, which fails at the same place as always."""
        c = self.checked
        recursive = self._recursive()
        self.p.exprc.plan_inlining()  # (core/inline.py)
        src = self._source(self.p.exprc, recursive)
        span = next((f.span for f in c.functions.values()), None)
        self.p.ns["_too_many_calls"] = _too_many_calls
        self.p.ns["_too_deep"] = _too_deep
        if span is None or not self.p._count_code(src, span):
            return
        try:
            self.p._run(src, "<functions>", "exec")
        except (SyntaxError, RecursionError, MemoryError):
            self.p.diags.append(self.p._budget_diag(span, "nesting", "the functions are too complex to compile"))
            raise MeepleError(self.p.diags) from None
        if not self.p.optimize:
            return
        for name in c.functions:
            if f"F_{name}" in self.p.ns:
                self.p.ns[f"PF_{name}"] = self.p.ns.pop(f"F_{name}")

    def fast(self) -> None:
        """The fast ``F_name`` of every function (the straightforward ones serve where
        the fast code cannot be made)."""
        if not self.p.optimize:
            return
        c = self.checked
        recursive = self._recursive()
        self.p.fastc.plan_inlining()  # (core/inline.py)
        self.p._fast_ready = True
        try:
            fast = self._source(self.p.fastc, recursive)
            self.p._run(fast, "<functions>", "exec")
            self._fill_tables(self.p.fastc)
        except Exception:
            if codegen.STRICT:
                raise
            for name in c.functions:
                if f"PF_{name}" in self.p.ns:
                    self.p.ns[f"F_{name}"] = self.p.ns[f"PF_{name}"]

    def _source(self, gen: ExprCompiler, recursive: set[str]) -> str:
        c = self.checked
        counted = self._counted_functions(recursive)
        facts = self.p.facts
        # (whose values are found each time: an evaluation may count calls, or the depth
        # of calls, that a value computed once or read from a table would not)
        calling = {n for n in c.functions if facts.counts_calls_within(n)}
        deep = {n for n in c.functions if not recursive.isdisjoint(facts.reach(n))}
        bodies, steps = self._function_bodies(gen)
        kept = self._kept_functions(gen.works, deep) if gen.optimize else {}
        self.deep = deep & set(kept)
        for name, names in kept.items():
            self.p.ns[_kept_table(name, names, name in deep)] = {}
        self.p.ns["_frozen"] = _frozen
        if gen.optimize:  # the bodies again, with calls written in place (see ExprCompiler.splice)
            gen.splice(set(kept))
            gen.components = self._components(calling | set(kept))
            gen.tabled = self._tabled({name: self.reads_r[name] for name in bodies}, calling)
            if gen.spliced or gen.components or gen.tabled:
                bodies, steps = self._function_bodies(gen)
        sources = []
        for name, body in bodies.items():
            lines = steps.get(name, [])
            sources.append(self._function_def(name, lines, body, kept, recursive, counted))
            if name in gen.components:
                sources.append(self._component_source(gen, name, lines, body))
        return "\n".join(sources)

    def _function_def(self, name: str, lines: list[str], body: str, kept: dict,
                      recursive: set[str], counted: set[str]) -> str:
        """``F_name``, the rule function's code: its value kept by its arguments, its
        calls and depth counted (recursive), its calls counted, or its value alone."""
        params = [p.name for p in self.checked.functions[name].params]
        args = "".join(f", v_{p}" for p in params)
        if name in self.deep:  # the same arguments, the same value, and depth
            return self._deep_def(name, lines, body, kept[name], name in recursive, name in counted)
        if name in kept:  # the same arguments (and variables), the same value
            return self._kept_def(name, lines, body, kept[name], name in counted)
        b = self.p.budgets
        if name in recursive:  # the calls and depth budgets (the deepest reached: see _deep_def)
            peak = "    if R.depth > R.peak: R.peak = R.depth\n" if self.deep and kept else ""
            return (f"def F_{name}(R{args}):\n"
                    f"    R.calls += 1\n    if R.calls > {b.calls}: _too_many_calls({name!r}, {b.calls})\n"
                    f"    R.depth += 1\n    if R.depth > {b.depth}: _too_deep({name!r}, {b.depth})\n{peak}"
                    f"    try:\n{_indented(lines, 8)}        return {body}\n    finally:\n        R.depth -= 1\n")
        if name in counted:  # calls that call calls: 2**n of them
            return (f"def F_{name}(R{args}):\n"
                    f"    R.calls += 1\n    if R.calls > {b.calls}: _too_many_calls({name!r}, {b.calls}, False)\n"
                    f"{_indented(lines, 4)}    return {body}\n")
        return f"def F_{name}(R{args}):\n{_indented(lines, 4)}    return {body}\n"

    def _kept_def(self, name: str, lines: list[str], body: str, names: list[str], counted: bool) -> str:
        """``F_name`` of a kept function (see _kept_functions): its value kept by its
        arguments and the variables ``names`` (a program is for one number of players,
        and the kept values are the program's); with the work and the calls its
        evaluation counted, counted again at each read (the work and the calls of a call
        are the same however its value is found, core/facts.py), its own call first
        where it counts its calls (``counted``)."""
        params = [p.name for p in self.checked.functions[name].params]
        args = "".join(f", v_{p}" for p in params)
        key = [f"v_{p}" for p in params] + [f"R.vars[{v!r}]" for v in names]
        key_text = key[0] if len(key) == 1 else "(" + "".join(k + ", " for k in key) + ")"
        table, facts, b = _kept_table(name, names), self.p.facts, self.p.budgets
        work = facts.function_counts(name) and self.reads_r[name]
        calls = facts.counts_calls_within(name)
        head = f"def F_{name}(R{args}):\n"
        many = f"_too_many_calls({name!r}, {b.calls}, {name in facts.recursive})"
        if counted:
            head += f"    R.calls += 1\n    if R.calls > {b.calls}: {many}\n"
        head += (f"    k = {key_text}\n    v = {table}.get(k, _NOT_YET)\n"
                 f"    if v is _NOT_YET:\n        if len({table}) >= {_KEPT_MAX}: {table}.clear()\n")
        if not work and not calls:
            return head + f"{_indented(lines, 8)}        v = {table}[k] = {body}\n    return v\n"
        # (a budget run out on a read: the straightforward code runs again, and says which)
        if not calls:
            return (head + f"        w0_ = R.work\n{_indented(lines, 8)}        v = {table}[k] = ({body}, w0_ - R.work)\n"
                    f"        return v[0]\n    R.work -= v[1]\n    if R.work < 0: _out_of_work(R)\n    return v[0]\n")
        return (head + f"        w0_, c0_ = R.work, R.calls\n{_indented(lines, 8)}"
                f"        v = {table}[k] = ({body}, w0_ - R.work, R.calls - c0_)\n        return v[0]\n"
                f"    R.work -= v[1]\n    if R.work < 0: _out_of_work(R)\n"
                f"    R.calls += v[2]\n    if R.calls > {b.calls}: {many}\n    return v[0]\n")

    def _deep_def(self, name: str, lines: list[str], body: str, names: list[str],
                  recursive: bool, counted: bool) -> str:
        """``F_name`` of a kept function whose evaluation may count the depth of calls
        (it reaches a function that may call itself; see _kept_functions): its value kept
        by its arguments (lists by their elements) and the variables ``names``, with the
        work, the calls and the deepest nesting of calls its evaluation counted (beyond
        the depth it was called at: ``R.peak``, the deepest reached, which every function
        that may call itself notes). A value is read where the budgets allow it all
        (the work, the calls, the depth it reached, from the depth of this call), else
        computed again, and fails where the straightforward code fails. Its own call and
        depth are counted as a recursive function's, within the evaluation."""
        fd, b, facts = self.checked.functions[name], self.p.budgets, self.p.facts
        args = "".join(f", v_{p.name}" for p in fd.params)
        key = [f"_frozen(v_{p.name})" if p.type.name == "list" else f"v_{p.name}" for p in fd.params]
        key += [f"R.vars[{v!r}]" for v in names]
        key_text = key[0] if len(key) == 1 else "(" + "".join(k + ", " for k in key) + ")"
        table = _kept_table(name, names, True)
        many = f"_too_many_calls({name!r}, {b.calls}, {name in facts.recursive})"
        own = ""
        if recursive or counted:
            own += f"    R.calls += 1\n    if R.calls > {b.calls}: {many}\n"
        if recursive:
            own += (f"    R.depth += 1\n    if R.depth > {b.depth}: _too_deep({name!r}, {b.depth})\n"
                    f"    R.peak = R.depth\n    try:\n{_indented(lines, 8)}        r_ = {body}\n"
                    f"    finally:\n        R.depth -= 1\n")
        else:
            own += f"{_indented(lines, 4)}    r_ = {body}\n"
        return (f"def F_{name}(R{args}):\n    k = {key_text}\n    v = {table}.get(k, _NOT_YET)\n"
                f"    if v is not _NOT_YET and R.work >= v[1] and R.calls + v[2] <= {b.calls} "
                f"and R.depth + v[3] <= {b.depth}:\n"
                f"        R.work -= v[1]\n        R.calls += v[2]\n"
                f"        if R.depth + v[3] > R.peak: R.peak = R.depth + v[3]\n        return v[0]\n"
                f"    if len({table}) >= {_KEPT_MAX}: {table}.clear()\n"
                f"    w0_, c0_, d0_, p0_ = R.work, R.calls, R.depth, R.peak\n    R.peak = d0_\n"
                f"{own}    p1_ = R.peak\n    if p0_ > p1_: R.peak = p0_\n"
                f"    {table}[k] = (r_, w0_ - R.work, R.calls - c0_, p1_ - d0_)\n    return r_\n")

    def _tabled(self, reads_r: dict[str, bool], excluded: set[str]) -> dict[str, list[tuple]]:
        """The rule functions of enum and bool parameters only (at most _TABLED_MAX
        combinations), that give no list and whose fast code reads nothing of the state
        nor calls a rule function (reads no ``R`` and gives it to no function: ``reads_r``,
        by name, of those with a body): their values are a table made once the functions
        are compiled (see _fill_tables), read in place of a call (see
        ExprCompiler.tabled). By name: the combinations of their arguments."""
        c, out = self.checked, {}
        for name, fd in c.functions.items():
            if name in excluded or name not in reads_r or not fd.params or fd.result.name == "list" \
                    or reads_r[name]:
                continue
            domains = []
            for p in fd.params:
                if p.type.name == "bool":
                    domains.append((False, True))
                elif p.type.name in c.enums:
                    domains.append(tuple(c.enums[p.type.name]))
                else:
                    break
            else:
                if math.prod(len(d) for d in domains) <= _TABLED_MAX:
                    out[name] = list(itertools.product(*domains))
        return out

    def _fill_tables(self, gen: ExprCompiler) -> None:
        """The tables of the tabled functions (see _tabled), by the arguments (alone
        when there is one): the fast function's value for each; one that fails (a rule
        error for that value) is left out, so reading it fails and the straightforward
        code runs again, and fails as always."""
        for name, keys in gen.tabled.items():
            fn, table = self.p.ns.get(f"F_{name}"), {}
            for key in keys:
                try:
                    table[key[0] if len(key) == 1 else key] = fn(None, *key)
                except Exception:  # noqa: BLE001 - (the straightforward code says what)
                    continue
            self.p.ns[f"TAB_{name}"] = table

    def _components(self, excluded: set[str]) -> dict[str, tuple[int, int]]:
        """The rule functions that find a component (core/memo.py, ``Facts.component``:
        ``connected(x for x in REL(p) if COND)``, the same cells found from any cell of
        it), but those ``excluded``: where the order of its cells does not matter (see
        core/orderfree.py), one evaluation finds it once (see _component_source). By
        name: (its number, the position of p)."""
        out = {}
        for n, name in enumerate(self.checked.functions):
            at = None if name in excluded else self.p.facts.component(name)
            if at is not None:
                out[name] = (n, at)
        return out

    def _component_source(self, gen: ExprCompiler, name: str, lines: list[str], body: str) -> str:
        """``FC_name(R, mp_, ...)``: the component function's value, kept in the
        evaluation's table ``mp_`` for every cell of the component (the key: the
        function's number and its arguments, that cell in place of the start); found
        there, the work the walk counts is counted again (the walk's own count, the same
        from any of its cells: the start, then each cell's row of the relation). Where
        the statement form did not note the walk as the value, counted on ``R.work`` (see
        _function_bodies: ``closure_work``), a call of ``F_name``."""
        n, at = gen.components[name]
        params = [f"v_{p.name}" for p in self.checked.functions[name].params]
        found, work = gen.closure_work.get(name) or (None, None)
        if found != body:  # (the walk is not the value, or its work is counted in wk_)
            return f"def FC_{name}(R, mp_{''.join(', ' + p for p in params)}):\n" \
                   f"    return F_{name}(R{''.join(', ' + p for p in params)})\n"
        key = "(" + ", ".join([str(n)] + params) + ")"
        member = "(" + ", ".join([str(n)] + [("x_" if i == at else p) for i, p in enumerate(params)]) + ")"
        return (f"def FC_{name}(R, mp_{''.join(', ' + p for p in params)}):\n"
                f"    m_ = mp_.get({key})\n    if m_ is not None:\n"
                f"        R.work -= m_[1]\n        if R.work < 0: _out_of_work(R)\n        return m_[0]\n"
                f"{_indented(lines, 4)}"
                f"    m_ = ({body}, {work})\n    for x_ in {body}:\n        mp_[{member}] = m_\n"
                f"    return {body}\n")

    def _function_bodies(self, gen: ExprCompiler) -> tuple[dict, dict]:
        """Every function's body: its Python text, and for the fast code the statements
        before it (see ExprCompiler.lines)."""
        bodies, steps = {}, {}
        for name, f in self.checked.functions.items():
            env = Env({p.name for p in f.params})
            if gen is self.p.exprc:
                body = self.p._gen(f.body, env)
            else:  # the fast code: loops written out as statements
                gen.last_closure = None
                gen.wrote_r = False
                steps[name], body = gen.lines(f.body, env)
                self.reads_r[name] = gen.wrote_r
                gen.works[name] = gen.does_work(f.body, env)
                if name in gen.components:  # (its walk's names: see _component_source)
                    gen.closure_work[name] = None if gen.work_local else gen.last_closure
            if body is not None:
                bodies[name] = body
        return bodies, steps

    def _kept_functions(self, works: dict[str, bool], deep: set[str]) -> dict[str, list[str]]:
        """The functions whose evaluation reads nothing of the state but global variables
        of one value (core/pure.py, ``Facts.state_reads``: their arguments, those
        variables, the players and the program's fixed tables), whose fast code does
        some work (calls something or loops: ``works``, see ExprCompiler.does_work) and
        that take no list; with KEEP_DEEP on,
        also the ``deep`` ones (reaching a function that may call itself, whose depth of
        calls is counted: see _deep_def), which may take lists of plain values
        (_plain_list): their values are kept by arguments and those variables' values for the whole
        program (at most _KEPT_MAX at a time), so a value is computed once for all the
        games' moves, the work and calls it counted counted again (see _kept_def). A
        value that fails is not kept. Each with the variables it reads, itself or
        through the functions it calls (none: it reads nothing of the state)."""
        fs, facts = self.checked.functions, self.p.facts
        free = {name for name in works if facts.state_reads(name) is not None}
        if not KEEP_DEEP:
            free -= deep
        return {name: sorted(facts.state_reads(name) or ()) for name in free if works[name]
                and all(p.type.name != "list" or (name in deep and self._plain_list(p.type))
                        for p in fs[name].params)}

    def _plain_list(self, t) -> bool:
        """Whether the values of the type ``t`` are numbers, texts or lists of them
        (a list argument is a key by its elements, see _frozen)."""
        c = self.checked
        if t.name == "list":
            return t.item is not None and self._plain_list(t.item)
        return t.name in ("int", "bool", "str", "player") or t.name in c.enums \
            or t.name in c.kinds or t.name in c.boards

    def _counted_functions(self, recursive: set[str]) -> set[str]:
        """The non-recursive functions that count their calls against the calls budget,
        in the straightforward and the fast code alike (core/facts.py, ``counts_calls``:
        those that may make more than CALLS_FREE calls in one evaluation)."""
        return self.p.facts.counts_calls - recursive

    def _recursive(self) -> set[str]:
        return self.p.facts.recursive
