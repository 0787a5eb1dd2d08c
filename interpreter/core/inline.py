"""Which rule functions a printer of expressions writes in place of their calls (a part
of ``facts.Facts``, its methods on the facts' state): one pass over the rule functions'
bodies, found once per program and per kind of code, for every engine that expands
calls (the Python code of ``compiler/codegen.py``: its straightforward code and its fast
code; the kernel's C++ calls each function, and its compiler expands them).

A call of a rule function is its body with the arguments in place of the parameters:
no expression changes the state, so the value is the same, and the work the body counts
is counted where it is written. A body may be written so where

- it binds no variable (no comprehension, aggregate or closure: an argument written in
  it cannot be captured by a loop of the body), its nodes all of ``INLINABLE``;
- it is small: ``SMALL`` nodes at most, ``FAST`` for the fast code, which runs where
  a rule calls small functions millions of times;
- its calls count nothing against the calls budget (not of ``counts_calls``: each such
  call counts one, and those that may call themselves count their depth);
- a parameter it uses more than once (``repeated``) is not evaluated twice: the
  straightforward code never writes such a body in place; the fast code does where
  the argument may be written twice (``simple_arg``: a constant, a name, or a value the
  printer computed before and named), else it calls the function;
- written out in full, the calls in it of functions written in place written out too,
  it holds fewer than ``EXPANDED_MAX`` nodes (calls of calls can grow exponentially:
  a bigger one is called instead).

``inlined(fast)`` says which (``Inlined``); a printer reads it and writes the bodies,
marking each one and its arguments, so that an error in a body is located in its
function, as where the call is made (play/inplace.py).

A call evaluates each of its arguments (docs/language.md, 15.3); a body written in place
evaluates an argument only where it reads its parameter, so not at all where it never
does or where it reads it only on some paths (a branch of ``if``, the right of ``and``
or ``or``). Such a call is written in place only where each argument its body may leave
unevaluated (``evaluated``: the parameters it evaluates every time) is ``harmless``:
it cannot fail and counts nothing, so leaving it out changes nothing
(``must_evaluate``: the others, for which the printer makes the call, unless it
computed them before).

Where the fast code writes an expression's loops out as statements (``lines`` in
compiler/codegen.py), it may also write in place a body that loops or calls, its loops
as statements too and their variables named apart (``spliceable``): a body of
``SPLICE_MAX`` nodes at most that holds a comprehension, an aggregate or a call, of a
function that counts no calls and is not written in place as an expression already;
``SPLICE_DEPTH`` such bodies in one another at most. (The printer leaves out those
whose values it keeps by their arguments.)"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ...dsl.builtins import CLOSURES
from . import operators
from .primitives import PRIMITIVES

# the nodes of a body that may be written in place: they bind no variables, so an
# argument's text cannot be captured by a comprehension
INLINABLE = frozenset({"IntLit", "StrLit", "BoolLit", "NoneLit", "Var", "Attr", "Call", "BinOp",
                       "UnOp", "CondExpr", "ListLit", "TupleLit", "Index", "TypeRef", "Param", "Ray", "NamedArg"})
SMALL = 12          # nodes of a body written in place at most (the straightforward code)
FAST = 24           # ... in the fast code
EXPANDED_MAX = 200  # nodes of one body written in place, fully expanded, at most
SPLICE_MAX = 60     # nodes of a body the statement form writes in place at most
SPLICE_DEPTH = 3    # bodies the statement form writes in place in one another at most
_SPLICED = frozenset({*ir.CLAUSED, "Call"})   # (a body without these: an expression)
# a text that may be written twice (see simple_arg): letters, digits, spaces
_PLAIN_TEXT = re.compile(r"[A-Za-z0-9_ ]*")
# the nodes of a harmless expression (see Inline.harmless; the operators among them: those
# harmless in core/operators.py)
_HARMLESS = frozenset({"IntLit", "StrLit", "BoolLit", "NoneLit", "Var", "TypeRef", "ListLit", "TupleLit",
                       "CondExpr", "UnOp", "BinOp", "Attr", "Call"})


def plain_text(value: str) -> bool:
    """Whether a string of the source is of letters, digits, ``_`` and spaces (written
    as is between quotes)."""
    return _PLAIN_TEXT.fullmatch(value) is not None


@dataclass(frozen=True)
class Inlined:
    """The rule functions written in place of their calls (``names``), and per function
    the parameters its body uses more than once (``repeated``: written in place only
    where the argument is simple, in the fast code; empty in the straightforward
    code's); ``sizes``, the nodes of each one's body fully expanded."""
    names: frozenset[str]
    repeated: dict[str, frozenset[str]]
    sizes: dict[str, int]


class Inline:
    """Facts' methods for the rule functions written in place of their calls."""

    if TYPE_CHECKING:
        c: Any   # the checked program

        @property
        def counts_calls(self) -> set[str]: ...

        def call_kind(self, e) -> str: ...

        def counts_work(self, n) -> bool: ...

        def counted(self, it) -> bool: ...

    def inlined(self, fast: bool) -> Inlined:
        """The rule functions the straightforward code (``fast=False``) or the fast code
        writes in place of their calls (see the module's docstring)."""
        found = self.__dict__.setdefault("_inline_plans", {})
        if fast not in found:
            found[fast] = self._inlined(fast)
        return found[fast]

    @property
    def spliceable(self) -> frozenset[str]:
        """The rule functions whose bodies the fast code's statement form may write in
        place of their calls (see the module's docstring)."""
        found = self.__dict__.get("_spliceable")
        if found is None:
            fs, inlined = self.c.functions, self.inlined(True).names
            found = self.__dict__["_spliceable"] = frozenset(
                n for n, f in fs.items() if n not in self.counts_calls and n not in inlined
                and any(x.node in _SPLICED for x in ir.walk(f.body))
                and sum(1 for _ in ir.walk(f.body)) <= SPLICE_MAX)
        return found

    def simple_arg(self, e) -> bool:
        """Whether the argument ``e`` may be written twice where a body written in place
        uses its parameter more than once (see ``repeated``): evaluating it again costs
        nothing and cannot fail. A number (negative too), a text of letters, digits and
        spaces, true, false, none, an enum's value (``Enum.value`` too), a board, the
        active player and the number of players. (A name bound where the call is made, a parameter, a loop's
        variable or a local, is the printer's to say, with the values it computed
        before and named: compiler/codegen.py, ``_simple_arg``; here a name is one the
        program declares.)"""
        node = e.node
        if node in ("IntLit", "BoolLit", "NoneLit"):
            return True
        if node == "StrLit":
            return plain_text(e.value)
        if node == "UnOp":
            return e.op == "-" and e.operand.node == "IntLit"
        c = self.c
        if node == "Var":
            return self._simple_name(e.name)
        if node == "Attr":   # (an enum's value: Enum.value)
            t = c.type_of(e.obj)
            return t is not None and t.tag == "list" and t.arg.tag == "enum"
        return node == "Call" and e.func == "player_count" and not e.args and c.calls_builtin(e.func)

    def python_calls(self, e, own: Callable[[Any], bool | None], bound: frozenset[str] = frozenset()) -> bool:
        """Whether the fast Python code of ``e`` calls a function (``f(...)``), rather
        than only reading names, tables and attributes and applying operators: what
        makes a value worth computing once for two uses where a body written in place
        is used again (compiler/codegen.py, ``_expanded``). It calls where a node of it
        has a form that calls (``calls_itself``), or where the printer says so of a
        node it writes its own way: ``own(n)`` is True or False for such a node (a
        value computed before and named, a parameter's argument, a call written in
        place, an index or a product known to be in bounds...), None for the others.
        ``bound``: the variables of the comprehensions around (never the printer's)."""
        if e.node == "Var" and e.name in bound:
            return False
        got = own(e)
        if got is not None:
            return got
        if self.calls_itself(e):
            return True
        if e.node == "Comprehension":
            bound = bound | {cl.var for cl in e.clauses}
        return any(self.python_calls(x, own, bound) for x in ir.children(e))

    def calls_itself(self, e) -> bool:
        """Whether the node ``e``'s own Python form calls a function, its operands
        aside: a built-in whose form does (primitives.py, ``calls``), an aggregate or a
        closure, a rule function, a relation's rows, a cell by its coordinates, a range,
        lists or texts joined, a product, a quotient or an index by a value (the
        helpers ``_mul``, ``_div``, ``_index`` check their bounds), a loop over a list
        whose elements it counts (``_it``). (Where the fast code knows a bound, or
        writes a rule function's body in place, the printer says so: python_calls.)"""
        node = e.node
        if node in ("Aggregate", "CellAt"):
            return True
        if node == "Call":
            kind = self.call_kind(e)
            if kind == "builtin":
                return PRIMITIVES[e.func].calls_with(len(e.args))
            return kind in ("function", "rows")
        if node == "BinOp":   # (a range, a product, a quotient, a remainder, a join: helpers)
            return operators.resolve(e, self.c.type_of).calls or self.counts_work(e)
        if node == "Index":
            return e.index.node != "IntLit"
        if node == "Comprehension":
            return any(not self.counted(cl.iter) for cl in e.clauses)
        return False

    def must_evaluate(self, e, fast: bool) -> list[int]:
        """The arguments (their positions) of the call ``e`` of a function the
        straightforward code (``fast=False``) or the fast code writes in place that its
        body may leave unevaluated (see ``evaluated``) and that are not ``harmless``: a
        printer writes the call in place only where it computed these before, else it
        makes the call (which evaluates them)."""
        params = self.c.functions[e.func].params
        done = self.evaluated(e.func, fast)
        return [i for i, (p, a) in enumerate(zip(params, e.args)) if p.name not in done and not self.harmless(a)]

    def evaluated(self, name: str, fast: bool) -> frozenset[str]:
        """The parameters of the rule function ``name`` that every evaluation of its body
        evaluates, in the straightforward code (``fast=False``) or the fast code (at
        least those: a loop's clauses but its first, a closure's walk, are not looked
        into)."""
        found = self.__dict__.setdefault("_evaluated", {})
        key = (name, fast)
        if key not in found:
            found[key] = frozenset()   # (a guard: a function that calls itself)
            fd = self.c.functions[name]
            found[key] = frozenset(self._always(fd.body, fast)) & {p.name for p in fd.params}
        return found[key]

    def _always(self, e, fast: bool) -> set[str]:
        """The names every evaluation of ``e`` reads (see ``evaluated``). A call of a rule
        function evaluates its arguments, but those of a call written in place that its
        body may leave unevaluated (a harmless one: see must_evaluate)."""
        node = e.node
        if node == "Var":
            return {e.name}
        if node == "BinOp" and (node, e.op) in operators.LAZY:   # (and, or: the left always)
            return self._always(e.left, fast)
        if node == "CondExpr":
            return self._always(e.cond, fast) | (self._always(e.then, fast) & self._always(e.other, fast))
        if node in ir.CLAUSED:
            first = (e if node == "Comprehension" else e.comp).clauses[0]
            return set() if node == "Aggregate" and e.func in CLOSURES else self._always(first.iter, fast)
        kids = ir.children(e)
        if node == "Call" and e.func in self.inlined(fast).names:
            done = self.evaluated(e.func, fast)
            kids = [a for p, a in zip(self.c.functions[e.func].params, e.args) if p.name in done or not self.harmless(a)]
        return set().union(*(self._always(x, fast) for x in kids))

    def harmless(self, e) -> bool:
        """Whether evaluating ``e`` cannot fail and counts nothing against the budgets:
        literals, names, lists and tuples written out, ``if``, ``not``, a negation,
        ``+`` and ``-`` of integers, comparisons (of integers, but ``==`` and ``!=``),
        ``in`` a list, an enum's value, the number of players, a call of a rule function
        whose body is harmless, of such parts. (Not a product, a quotient, an index, an
        item's or a cell's attribute, which may be of none, nor any other call.)"""
        c = self.c
        for n in ir.walk(e):
            node = n.node
            if node not in _HARMLESS:
                return False
            if node == "BinOp" and (not operators.resolve(n, c.type_of).harmless or (
                    n.op in ("<", "<=", ">", ">=") and c.type_of(n.left).tag != "int")):
                return False
            if node == "Attr" and not self.simple_arg(n):
                return False
            if node == "Call" and not (self.simple_arg(n) or self._harmless_function(n.func)):
                return False
        return True

    def _harmless_function(self, name: str) -> bool:
        """Whether a call of ``name`` is a call of a rule function whose body is
        harmless (and counts no call: it cannot call itself)."""
        found = self.__dict__.setdefault("_harmless", {})
        if name not in found:
            fd = self.c.functions.get(name)
            found[name] = fd is not None and name not in self.counts_calls and self.harmless(fd.body)
        return found[name]

    def _simple_name(self, n: str) -> bool:
        """Whether a name the program declares (or a built-in constant) is a simple
        argument (see simple_arg): the active player, an enum's value, a board; not a
        variable, a constant computed once (a list...), the players."""
        c = self.c
        if n == "active" and not c.declares(n):
            return True
        if n in c.vars or n in c.consts or (n == "players" and not c.declares(n)):
            return False
        return n in c.enum_of_value or (n in c.boards and n not in c.enums and n not in c.kinds and n not in c.zones)

    def _inlined(self, fast: bool) -> Inlined:
        most = FAST if fast else SMALL
        small: dict[str, frozenset[str]] = {}
        for name, f in self.c.functions.items():
            nodes = list(ir.walk(f.body))
            if name in self.counts_calls or len(nodes) > most or any(n.node not in INLINABLE for n in nodes):
                continue
            uses = [n.name for n in nodes if n.node == "Var"]
            repeated = frozenset(p.name for p in f.params if uses.count(p.name) > 1)
            if fast or not repeated:
                small[name] = repeated
        sizes: dict[str, int] = {}
        for name in small:
            _expanded(self.c.functions, small, name, sizes)
        names = frozenset(n for n in small if sizes[n] < EXPANDED_MAX)
        return Inlined(names, {n: small[n] for n in names}, {n: sizes[n] for n in names})


def _expanded(fs: dict, small: dict, name: str, sizes: dict[str, int]) -> int:
    """The nodes of the body of ``name`` with the calls of ``small`` in it written out,
    counted up to EXPANDED_MAX (no function of ``small`` may call itself: each one's
    calls count nothing, so that none is of ``counts_calls``)."""
    if name not in sizes:
        sizes[name] = EXPANDED_MAX  # (a guard while it is counted)
        total = 0
        for n in ir.walk(fs[name].body):
            total += _expanded(fs, small, n.func, sizes) if n.node == "Call" and n.func in small else 1
            if total >= EXPANDED_MAX:
                break
        sizes[name] = total
    return sizes[name]
