"""Which rule functions read nothing of the state (a part of ``facts.Facts``, its methods
on the facts' state): a pass over the checked IR that every engine asks, where each once
decided it on the text it wrote (the fast Python code, compiler/compile_functions.py;
the kernel's C++, native/kernel_memo.py).

A rule function is pure by construction (core/memo.py): its value is the same for the
same arguments while the state stays the same. One that reads nothing of the state has
the same value for the same arguments in every position of every game of the program:
an engine may keep its values for good (counting again the work, the calls and the
depth of calls each evaluation counted, as where it keeps them per position). An
evaluation reads nothing of the state where its body, and the body of every function it
may call (``Facts.reach``), reads only

- its parameters and the variables of its own loops;
- constants (``const``), literals, enum values, kinds, zones and boards as names, the
  players (``players``; ``active`` reads the state);
- the static facts of cells, boards and items: coordinates, names, relations, rays,
  ``cell(...)`` look-ups, a kind's attributes (an item's variables are state);
- built-ins that read nothing of the state (dsl/builtins.py says which do: ``state``);
  a per-player zone of a player (its number);
- and, for ``state_reads`` only, global variables of one value (not per player, not a
  list), read by name: the engine keys the kept values by theirs too.

A per-player variable, an item's variable, the active player, a zone's or a cell's
items, where an item lies, the turn's number: each reads the state.

Which variables of the rules an evaluation may read (``variables_read``: global, per
player, of items) is the same walk: the kernel renews the epoch of its kept values only
after a step that sets one of those a kept function reads (native/kernel_epoch.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ...dsl.builtins import BUILTINS, CONSTANTS

_STATE = object()   # (what a node reads: the state, beyond global variables)


class Pure:
    """Facts' methods for the rule functions that read nothing of the state."""

    if TYPE_CHECKING:
        c: Any   # the checked program

        def reach(self, name: str) -> set[str]: ...

        def call_kind(self, e) -> str: ...

        def counts_any(self, e) -> bool: ...

    def state_reads(self, name: str) -> frozenset[str] | None:
        """The global variables of one value (not per player, no list) an evaluation of
        the rule function ``name`` reads, itself or through the functions it may call;
        None where it reads anything else of the state (see the module's docstring)."""
        known = self.__dict__.setdefault("_pure_reads", {})
        if name not in known:
            names: set[str] = set()
            for f in self.reach(name):
                own = self._own_reads(f)
                if own is None:
                    known[name] = None
                    return None
                names |= own
            known[name] = frozenset(names)
        return known[name]

    def reads_nothing(self, name: str) -> bool:
        """Whether an evaluation of the rule function ``name`` reads nothing of the
        state, not even a global variable: its values are those of its arguments."""
        return self.state_reads(name) == frozenset()

    def given_alone(self, e, names: set[str]) -> bool:
        """Whether the value of the expression ``e`` is that of the names ``names`` (bound
        around it) alone: evaluating it reads nothing of the state, not even a global
        variable, and counts no work and no calls, itself or through the rule functions
        it may call (``counts_any``, ``reads_nothing``). A table of its values by theirs,
        made once for every position, gives the same values, work and calls
        (native/kernel_rows.py)."""
        if self.counts_any(e):
            return False
        read: set[str] = set()
        if not self._reads_in(e, names, read) or read:
            return False
        return all(self.reads_nothing(n.func) for n in ir.walk(e) if n.node == "Call" and self.call_kind(n) == "function")

    def variables_read(self, name: str) -> frozenset[tuple[str, str]]:
        """The variables of the rules an evaluation of the rule function ``name`` may
        read, itself or through the functions it may call (``reach``): ``("global", v)``,
        ``("player", v)`` (a per-player variable: by its name or its call) and ``("item",
        v)`` (an item's variable: an attribute of an item of a kind that has it). Nothing
        else reads a variable: no built-in, relation or zone does."""
        known = self.__dict__.setdefault("_variables", {})
        if name not in known:
            out: set[tuple[str, str]] = set()
            for f in self.reach(name):
                out |= self._own_variables(f)
            known[name] = frozenset(out)
        return known[name]

    def _own_variables(self, name: str) -> frozenset[tuple[str, str]]:
        """The variables the body of ``name`` itself reads (see ``variables_read``)."""
        own = self.__dict__.setdefault("_variables_own", {})
        if name not in own:
            fd = self.c.functions[name]
            out: set[tuple[str, str]] = set()
            self._variables_in(fd.body, {p.name for p in fd.params}, out)
            own[name] = frozenset(out)
        return own[name]

    def _variables_in(self, e, local: set[str], out: set[tuple[str, str]]) -> None:
        """Adds to ``out`` the variables ``e`` reads, ``local`` the names bound around it
        (a loop's variable from its next clause on, hiding a variable of its name)."""
        c = self.c
        for n, bound in _scoped(e, local):
            if n.node == "Var" and n.name not in bound and n.name in c.vars:
                out.add(("player" if c.vars[n.name].per_player else "global", n.name))
            elif n.node == "Attr":
                t = c.type_of(n.obj)
                if t.tag == "item" and n.name in c.item_vars.get(t.arg, {}):
                    out.add(("item", n.name))
            elif n.node == "Call" and self.call_kind(n) == "player_var":
                out.add(("player", n.func))

    def _own_reads(self, name: str) -> frozenset[str] | None:
        """What the body of ``name`` itself reads (see ``state_reads``), its calls of
        rule functions apart."""
        own = self.__dict__.setdefault("_pure_own", {})
        if name not in own:
            fd = self.c.functions[name]
            names: set[str] = set()
            own[name] = frozenset(names) if self._reads_in(fd.body, {p.name for p in fd.params}, names) else None
        return own[name]

    def _reads_in(self, e, local: set[str], names: set[str]) -> bool:
        """Adds to ``names`` the global variables ``e`` reads, ``local`` the names bound
        around it (a loop's variable from its next clause on, hiding a global of its
        name); False where it reads anything else of the state."""
        for n, bound in _scoped(e, local):
            got = self._node_reads(n, bound)
            if got is _STATE:
                return False
            if got is not None:
                names.add(got)
        return True

    def _node_reads(self, n, local: set[str]):
        """What the node ``n`` reads by itself (not its operands): None (nothing of the
        state), a global variable's name, or _STATE."""
        c = self.c
        if n.node == "Var":
            v = n.name
            if v in local:
                return None
            if v in CONSTANTS and not c.declares(v):
                return _STATE if CONSTANTS[v].state else None
            d = c.vars.get(v)
            if d is None:
                return None   # (a constant, an enum's value, a kind, a zone, a board)
            return _STATE if d.per_player or d.type.name == "list" else v
        if n.node == "Attr":
            t = c.type_of(n.obj)
            return _STATE if t.tag == "item" and n.name in c.item_vars.get(t.arg, {}) else None
        if n.node == "Call":
            return self._call_reads(n)
        return None

    def _call_reads(self, e):
        kind = self.call_kind(e)
        if kind == "player_var":
            return _STATE
        if kind != "builtin":
            return None   # (a rule function: its own body; a relation, a zone's number)
        state = BUILTINS[e.func].state
        if state == "place":
            return _STATE if self.c.type_of(e.args[0]).tag != "list" else None
        return _STATE if state else None


def _scoped(e, local: set[str]):
    """Each node of ``e`` with the names bound around it (``local``, and a loop's variable
    from its next clause on), a node before the nodes below it; a comprehension (or an
    aggregate's) by its clauses' lists, then its condition and its element, not itself."""
    if e.node in ir.CLAUSED:
        comp = e.comp if e.node == "Aggregate" else e
        inner = local
        for cl in comp.clauses:
            yield from _scoped(cl.iter, inner)
            inner = inner | {cl.var}
        for x in (comp.cond, comp.elem):
            if x is not None:
                yield from _scoped(x, inner)
        return
    yield e, local
    for x in _kids(e):
        yield from _scoped(x, local)


def _kids(n):
    """The nodes right below ``n``."""
    for field, v in n:
        if field == "span":
            continue
        if isinstance(v, ir.Node):
            yield v
        elif isinstance(v, list):
            yield from (x for x in v if isinstance(x, ir.Node))
