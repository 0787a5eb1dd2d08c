"""What the engines may know of a program's expressions before they run: the passes over
the checked IR that every printer of expressions shares (the Python code of
``compiler/codegen*.py``, the C++ of ``native/kernel.py``), each fact derived once here
rather than by each printer on its own.

- the calls between rule functions: which call which (``calls``), which may call
  themselves (``recursive``: they count their depth), which call any (``calling``), which
  an evaluation of one may reach (``reach``), which count their calls against the calls
  budget (``counts_calls``);
- loops and work: whether an expression holds a loop (``loops``), whether a node counts
  work against the budget by itself (``counts_work``: a range, lists or texts joined),
  whether an iterable's elements are counted by its own evaluation (``counted``), and
  whether evaluating an expression or a function may count any (``counts_any``,
  ``function_counts``);
- what a call calls (``call_kind``: a built-in, a rule function, a relation's test or
  rows, a per-player zone or variable);
- lists read from the program's static tables (``table_list``: a board's cells, a row of
  a relation of two cells);
- whether a call's value is the same whatever the order of a list it is given
  (``order_free_arg``, by ``orderfree.py`` from what dsl/builtins.py says of each built-in);
- the least and the most an integer can be, the longest a text can be (``int_range``,
  ``within``, ``text_bound``: bounds.py);
- the loops of an expression around each of its parts, and which of them its value
  changes with (``loops_around``, ``loops_read``, ``invariant``: hoist.py);
- the static part of a loop's condition over a board's cells: the cells it lets
  through, by the value of a keyed conjunct (``cells_filter``: cells.py), or by values
  given from before the loop (``cells_given``); whether only its occupied cells can
  pass the condition, which is false on an empty one (``occupied_only``: occupancy.py);
- the rule functions worth computing once per position, their values kept while the
  state stays the same (``repeated``, ``memoised``: memo.py);
- the rule functions whose evaluation reads nothing of the state, or only global
  variables of one value, their values the same in every position (``state_reads``,
  ``reads_nothing``: pure.py), the variables an evaluation may read
  (``variables_read``: pure.py), and the expressions whose value is that of their
  names alone, reading and counting nothing (``given_alone``: pure.py);
- the rule functions a printer writes in place of their calls, in the straightforward
  and in the fast code, and the arguments of such a call it must evaluate all the same
  (``inlined``, ``must_evaluate``: inline.py);
- which evaluations of an expression have the same value, an engine computing it once
  for two uses (``value_key``: once.py).

The work budget has one meaning, which every engine counts exactly (docs/language.md,
15.3; tests/test_work_count.py): each evaluation the rules make of a comprehension or an
aggregate counts the length of each list its clauses walk, unless ``counted``; a range,
a join of lists or texts, its elements or characters (``counts_work``); connected and
until, the cells or elements they look at; a call, the work of its arguments and body,
at every call. An engine may find a value another way (computed once for two uses, kept
from another move, read from a table of cells) only where it counts that work all the
same: where ``counts_any`` says an expression counts none, or by counting again the work
kept with the value (compile_functions' kept functions, helpers._kept_cells, the
kernel's keeps in native/kernel_memo.py).

The calls budget has one meaning too (docs/language.md, 15.3; tests/test_work_count.py):
each call the rules make of a function of ``counts_calls`` counts one, at every call,
whatever the engine (never written in place, computed once for two uses, kept or read
from a table); the other functions' calls count nothing. A function counts its calls
when it may call itself, or when one evaluation of it may make more than CALLS_FREE
calls of functions that do not count theirs, itself included, each call in its body
counted once (a loop's body as if it ran once: the further turns are counted by the
work budget). Calls that call calls can make 2**n of them; each evaluation of a
function that does not count makes at most CALLS_FREE calls counted nowhere (per turn
of a loop), so the budget still stops any runaway, and no engine counts the calls of
small helpers. An expression may count calls where it holds a call of a function that
counts, or that calls one (``counts_calls_within``, ``counts_any``).

A program (``compile.Program``) makes its ``Facts`` once, as ``prog.facts``, and each
printer asks it; a fact is found when first asked and kept."""
from __future__ import annotations

from functools import cached_property

from ...dsl import ast as ir
from . import operators, orderfree
from .bounds import Bounds
from .cells import Cells
from .hoist import Hoist
from .inline import Inline
from .memo import Memo
from .occupancy import Occupancy
from .once import Once
from .pure import Pure
from .tops import Tops

# the nodes that loop over a list (a comprehension, an aggregate over one, a ray's walk)
_LOOPS = frozenset(ir.CLAUSED)
_RAY = "Ray"
# a function that makes at most this many calls in one evaluation, itself included and
# loops counted once, counts none against the calls budget (``Facts.counts_calls``)
CALLS_FREE = 32


class Facts(Bounds, Cells, Hoist, Inline, Memo, Occupancy, Once, Pure, Tops):
    """The facts of one program (``p``, its checked program ``c``), found when first
    asked."""

    def __init__(self, prog):
        self.p = prog
        self.c = prog.checked
        self._loops: dict[tuple[str, bool], bool] = {}
        self._free: dict[tuple[str, int, bool], bool] = {}
        self._counts: dict[str, bool] = {}
        self._calls_within: dict[str, bool] = {}

    # ------------------------------------------------------------ calls
    @cached_property
    def calls(self) -> dict[str, list[str]]:
        """Per rule function, the rule functions its body calls, in the order of its
        nodes, as often as it calls them."""
        fs = self.c.functions
        return {n: [x.func for x in ir.walk(f.body) if x.node == "Call" and x.func in fs]
                for n, f in fs.items()}

    @cached_property
    def recursive(self) -> set[str]:
        """The functions that can call themselves, directly or not: they get a call
        budget."""
        calls = self.calls
        out = set()
        for start in calls:
            stack, seen = list(calls[start]), set()
            while stack:
                n = stack.pop()
                if n == start:
                    out.add(start)
                    break
                if n not in seen:
                    seen.add(n)
                    stack.extend(calls[n])
        return out

    @cached_property
    def calling(self) -> set[str]:
        """The functions whose body calls a rule function."""
        return {n for n, called in self.calls.items() if called}

    @cached_property
    def counts_calls(self) -> set[str]:
        """The functions whose every call counts one against the calls budget (see the
        module's docstring): those that may call themselves, and those of which one
        evaluation may make more than CALLS_FREE calls of functions that do not count
        theirs, itself included, each call in its body counted once (the bodies of the
        functions it calls written out, but those that count)."""
        calls, recursive = self.calls, self.recursive
        free: dict[str, int] = {}   # the calls counted nowhere one evaluation may make

        def made(name: str) -> int:   # (the functions that never call themselves: no cycle)
            if name not in free:
                total = 1
                for g in calls[name]:
                    if g not in recursive and made(g) <= CALLS_FREE:
                        total += made(g)
                free[name] = total
            return free[name]
        return {n for n in calls if n in recursive or made(n) > CALLS_FREE}

    def counts_calls_within(self, name: str) -> bool:
        """Whether an evaluation of the rule function ``name`` may count calls: it, or a
        function it may call, counts its calls (``counts_calls``)."""
        if name not in self._calls_within:
            self._calls_within[name] = not self.counts_calls.isdisjoint(self.reach(name))
        return self._calls_within[name]

    def reach(self, name: str) -> set[str]:
        """The functions an evaluation of ``name`` may run, itself included."""
        seen, stack = set(), [name]
        while stack:
            f = stack.pop()
            if f not in seen:
                seen.add(f)
                stack.extend(self.calls[f])
        return seen

    # ------------------------------------------------------------ loops and work
    def loops(self, name: str, ray: bool = False) -> bool:
        """Whether the body of the function ``name`` holds a loop (a comprehension or an
        aggregate; with ``ray``, a ray's walk too)."""
        key = (name, ray)
        if key not in self._loops:
            self._loops[key] = has_loop(self.c.functions[name].body, ray)
        return self._loops[key]

    def counts_work(self, n) -> bool:
        """Whether evaluating the node ``n`` counts work against the budget by itself (not
        counting its operands'): a range ``a..b``, two lists or texts joined."""
        return n.node == "BinOp" and operators.resolve(n, self.c.type_of).counts

    def counts_any(self, e) -> bool:
        """Whether evaluating the expression ``e`` may count work or calls against the
        budgets: it holds a loop, a range or a join, or calls a rule function that may
        count either (itself or through the functions it calls: ``function_counts``,
        ``counts_calls_within``). Such a value is never computed once for two of its uses:
        each use counts its work and its calls, in every engine (docs/language.md, 15.3)."""
        fs = self.c.functions
        for n in ir.walk(e):
            if n.node in _LOOPS or self.counts_work(n):
                return True
            if n.node == "Call" and n.func in fs and (self.counts_calls_within(n.func) or self.function_counts(n.func)):
                return True
        return False

    def function_counts(self, name: str) -> bool:
        """Whether an evaluation of the rule function ``name`` may count work (see
        ``counts_any``)."""
        if name not in self._counts:
            fs = self.c.functions
            self._counts[name] = any(has_loop(fs[f].body) or any(self.counts_work(n) for n in ir.walk(fs[f].body))
                                     for f in self.reach(name))
        return self._counts[name]

    def counted(self, it) -> bool:
        """Whether the elements of an iterable are already counted against the work
        budget by its own evaluation (a range, lists joined) or written out in the
        source (a list literal): a loop over it counts them no further."""
        return it.node == "ListLit" or (it.node == "BinOp" and (it.op == ".." or (
            it.op == "+" and self.c.type_of(it).tag == "list")))

    # ------------------------------------------------------------ calls by kind
    def call_kind(self, e) -> str:
        """What the call ``e`` calls: "builtin", "function" (a rule function), "pair"
        (whether two cells are related), "row" (the cells related to one), "tuple"
        (whether cells are related, a relation of more), "rows" (the rest of the tuples
        that start with the cells given), "zone" (a per-player zone), "player_var" (a
        per-player variable). A declaration hides a built-in of its name."""
        c, f = self.c, e.func
        if c.calls_builtin(f):
            return "builtin"
        if f in c.functions:
            return "function"
        r = c.relations.get(f)
        if r is not None and len(r.params) == 2:
            return "pair" if len(e.args) == 2 else "row"
        if r is not None:
            return "tuple" if len(e.args) == len(r.params) else "rows"
        if f in c.zones:
            return "zone"
        if f in c.vars:
            return "player_var"
        raise AssertionError(f"the checker let an unknown function through: {f}")

    # ------------------------------------------------------------ static tables
    def table_list(self, e) -> tuple[str, str] | None:
        """A list read from a table the program makes before any game: ``("cells",
        board)`` for ``cells(board)``, ``("relation", name)`` for the row of a relation of
        two cells; else None."""
        if e.node != "Call" or len(e.args) != 1:
            return None
        c, f = self.c, e.func
        if f == "cells" and c.calls_builtin("cells"):
            return "cells", c.type_of(e.args[0]).arg
        r = c.relations.get(f)
        if r is not None and len(r.params) == 2 and f not in c.functions:
            return "relation", f
        return None

    # ------------------------------------------------------------ order
    def order_free_arg(self, e, i: int, perm: bool) -> bool:
        """Whether the value of the call ``e`` is the same whatever the order of its
        argument ``i``, a list (``perm``: the same elements in any order will do for the
        call's own value, see orderfree.py): a list whose order the value does not depend
        on (its size), or depends on only as far as the value's own order may be any
        (distinct; a rule function's body)."""
        c, f = self.c, e.func
        if i >= len(e.args) or c.type_of(e.args[i]).tag != "list":
            return False
        if f in c.functions:
            fd = c.functions[f]
            if i >= len(fd.params):
                return False
            key = (f, i, perm)
            if key not in self._free:
                self._free[key] = orderfree.order_free(c, fd.body, fd.params[i].name, perm)
            return self._free[key]
        return c.calls_builtin(f) and orderfree.order_blind(f, perm)


def has_loop(e, ray: bool = False) -> bool:
    """Whether the expression holds a loop (a comprehension or an aggregate; with
    ``ray``, a ray's walk too)."""
    return any(n.node in _LOOPS or (ray and n.node == _RAY) for n in ir.walk(e))

