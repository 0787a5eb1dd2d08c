"""The static conditions of loops over a board's cells (a part of ``facts.Facts``, its
methods on the facts' state): one pass over the core's expressions, found once per loop
when first asked, for every engine that walks a board's cells.

Where the first conjuncts of a loop's condition (``for c in cells(b) if cond``, the last
clause of a comprehension) read only static facts of the cell (its coordinates, its
name and constants: ``c.row == c.col``, ``c.row + c.col == 4``, ``c.name == "d4"``),
the loop may walk only the cells they let through, a table made before any game
(the operators the table of operators folds, each by its reference meaning:
core/operators.py ``fold``: arithmetic, the language's division and remainder rounded
down, comparisons, ``in`` and ``not in`` a list written out, ``and``, ``or``, ``not``;
``abs``, ``min`` and ``max`` of two, and calls of rule functions whose bodies are so,
given the cell or such values, that count no work or calls: ``f(c) = c.row % 2 == 0``); where one of
them (the first, or one after static ones) is ``STATIC == value`` (``STATIC`` static,
the value not the cell's: a loop's variable, a parameter, a number, a call of a rule
function, a zone's size..., computed without counting work or calls, as core/once.py
computes a value once for two uses), a table of those cells by the value
(``c.row == r``: the cells of row r; ``(c.row + c.col) % 2 == 0``: the dark cells;
``row(c) == row(d)``), the value computed once before the loop (where the static conjuncts before it let no cell through, the reference
never computes it: the loop walks no cell). Where there is no keyed conjunct, the
static ones may also read the seat of one player, a name that does not change in the
loop (``seat(p)``, or ``p`` given to such a function: ``on_side(c, p)``): a table of
the cells they let through per seat, the player's seat looked up before the loop.
``cells_filter`` says which conjuncts are which, the cells they let through (board
order) and the value each of them has for the keyed conjunct: the engine prints the
tables and the loop. The
work budget counts the board's cells as before, and the conjuncts left are tested per
cell in order: the same values, work and calls as the reference.

The values are the reference's, as the rules compute them; where an engine might
differ (a value beyond ``BIG``, a none in arithmetic or order, a text but compared for
equality, a key that is no integer: the operation's ``fold`` says what it folds) or a
cell's would be the rules' error (by zero, over the integer budget), the loop stays as
it is (None).

Where no static part is found so, ``cells_given`` finds the static conjuncts that also
read names whose values come from before the loop (a parameter, a variable, a loop's
variable around: ``c.row > k``, ``next_to(c, d)`` of a relation between cells, or a
cell computed from such names or constants alone: ``next_to(c, cell(b, row: 1, col:
k))``), and the calls of functions that read nothing of the state (core/pure.py: ``f(c, p)``,
``g(c, seat(p))``) given the cell and such names: their cells are the same whenever
the names' values are, and an engine that can keep them by those values at run time
does (the fast Python code; the kernel tests them per cell).

Both engines read this pass, and only this pass: the kernel (native/kernel_cells.py
prints the tables) and the fast Python code (compiler/codegen_static.py,
``StaticCells._core_cells``, which once had an analysis of its own on the text it
wrote); tests/test_static_filters.py proves that the fast code walks the cells this
pass finds wherever it finds them, on every bundled and test ruleset."""
from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ...dsl.operators import ARITHMETIC, operands
from ...dsl.types import T
from .operators import FOLDED, NotFolded, fold

_INT = T("int")
# the built-ins a static conjunct may call, by their number of arguments (``min`` and
# ``max`` of one argument take a list): Python's, as the reference's
_CALLS: dict[tuple[str, int], Callable[..., int]] = {("abs", 1): abs, ("min", 2): min, ("max", 2): max}
BIG = 1 << 62            # a static value beyond this is left to the loop (a kernel bails near it)


@dataclass(frozen=True, eq=False)
class CellsFilter:
    """The static part of a loop's condition over the cells of ``board``: the conjuncts
    ``preds`` (in order) let through the cells ``passing``; where ``key`` (``(static,
    value)``: ``static == value``, a conjunct among them), the cells by their value
    of ``static`` (``keys``, one per cell of ``passing``: an int or None); ``rest`` the
    conjuncts left, tested per cell in order."""
    board: str
    preds: list
    key: tuple | None
    rest: list
    passing: list
    keys: list
    seat_of: Any = None          # (the player whose seat the static conjuncts read, a name)
    by_seat: list | None = None  # (then per seat 1..n, the cells they let through; key None)


_CELL = object()   # a name that is the loop's cell (in a function's body: a parameter given it)
_SEAT = object()   # a name that is the player whose seat the static conjuncts read (see _Seat)
_GIVEN = object()  # a name whose value is given from before the loop (see cells_given)
_VALUES = "<values>"  # (a key of the names: values given from before the loop may be more than names)
# the nodes that do some work (see _kept_given): a call, a loop
_WORKS = ("Call", *ir.LOOPS)
# the types of the values a table of cells may be kept by (see cells_given)
_KEYS = ("int", "bool", "enum", "player", "cell", "str")


@dataclass(frozen=True, eq=False)
class CellsGiven:
    """The static part of a loop's condition over the cells of ``board`` that reads,
    besides the cell, values that come from before the loop (``given``: names, Vars in
    the order first read, then the cells given to relations computed from such names
    or constants alone, the expressions): the conjuncts ``preds`` (in order) let
    through the same cells whenever the values are the same; ``rest`` the conjuncts
    left."""
    board: str
    preds: list
    given: list
    rest: list


@dataclass(frozen=True)
class _Seat:
    """The value of the player whose seat the static conjuncts read, for the seat ``n``
    (1..the program's players): only its seat is read (``seat(p)``)."""
    n: int


class _Unknown(Exception):
    """A static conjunct whose value is not found here (the loop then stays as it is)."""


class Cells:
    """Facts' methods for the static conditions of loops over a board's cells."""

    if TYPE_CHECKING:
        c: Any   # the checked program
        p: Any   # the program (its boards and tables: ``boards``, ``ns``)
        def table_list(self, e) -> tuple[str, str] | None: ...
        def call_kind(self, e) -> str: ...
        def counts_any(self, e) -> bool: ...
        def reach(self, name: str) -> set[str]: ...
        def reads_nothing(self, name: str) -> bool: ...
        def _node_reads(self, n, local: set[str]) -> Any: ...

        @property
        def recursive(self) -> set[str]: ...

    def cells_filter(self, cl, cond) -> CellsFilter | None:
        """For the last clause ``cl`` of a comprehension over ``cells(board)`` with the
        condition ``cond``: its static part (``CellsFilter``), or None where the
        condition has none."""
        found = self.__dict__.setdefault("_cells_filters", {})
        if (id(cl), id(cond)) not in found:
            found[id(cl), id(cond)] = self._cells_filter(cl, cond)
        return found[id(cl), id(cond)]

    def _cells_filter(self, cl, cond) -> CellsFilter | None:
        table = self.table_list(cl.iter)
        if cond is None or table is None or table[0] != "cells":
            return None
        cells = self.p.boards.get(table[1]) or []
        if not cells:
            return None
        parts, env = conjuncts(cond), {cl.var: _CELL}
        preds, key, at, who = self._split(parts, cl.var, env)
        if key is None and not preds:
            return None
        if who is not None:
            return self._seat_filter(table[1], cells, preds, who, parts[len(preds):], cl.var)
        try:
            if at and not any(all(self._value(p, z, env) is True for p in preds[:at]) for z in cells):
                # (no cell reaches the keyed conjunct: its value is never computed)
                return CellsFilter(table[1], preds[:at], None, parts[at:], [], [])
            passing = [z for z in cells if all(self._value(p, z, env) is True for p in preds)]
            keys = [] if key is None else [self._value(key[0], z, env) for z in passing]
        except _Unknown:
            return None
        if any(k is not None and type(k) is not int for k in keys):
            return None
        rest = parts[(1 if key else 0) + len(preds):]
        return CellsFilter(table[1], preds, key, rest, passing, keys)

    def _seat_filter(self, board: str, cells: list, preds: list, who, rest: list, var: str) -> CellsFilter | None:
        """The filter whose static conjuncts read the seat of the player ``who`` (a
        Var): per seat (1..the program's players) the cells they let through."""
        try:
            by_seat = [[z for z in cells if all(self._value(p, z, {var: _CELL, who.name: _Seat(s)}) is True
                                                for p in preds)]
                       for s in range(1, self.p.n + 1)]
        except _Unknown:
            return None
        return CellsFilter(board, preds, None, rest, [], [], who, by_seat)

    def cells_given(self, cl, cond) -> CellsGiven | None:
        """Where ``cells_filter`` finds no static part: the static conjuncts at the
        start of the condition that also read names from before the loop (not the
        cell: a parameter, a loop's variable around, a local, a global variable, of a
        type a table may be kept by: ``_KEYS``) and relations between cells
        (``beside(c, d)``); None where there are none. The cells they let through are
        found when the loop runs, per values of those names (an engine keeps them by
        the values: the same work and calls counted, none)."""
        table = self.table_list(cl.iter)
        if cond is None or table is None or table[0] != "cells" or not self.p.boards.get(table[1]) \
                or self.cells_filter(cl, cond) is not None:
            return None
        parts, preds = conjuncts(cond), []
        given: dict[Any, Any] = {}   # (name -> its first Var; a value's id -> the value)
        for part in parts:
            if not self._given_part(part, cl.var, given):
                break
            preds.append(part)
        if not preds or not given:
            return None
        return CellsGiven(table[1], preds, list(given.values()), parts[len(preds):])

    def _given_part(self, part, var: str, given: dict) -> bool:
        """Whether the conjunct ``part`` is static given values from before the loop
        (see cells_given); if so, the values it reads added to ``given``: the names (by
        name, their first Var), then the cells given to relations (by their id)."""
        names = {n.name: n for n in ir.walk(part) if n.node == "Var" and n.name != var and self._keyed_type(n)}
        env = {var: _CELL, _VALUES: True, **dict.fromkeys(names, _GIVEN)}
        if not _reads(part, var) or not (self._static(part, env) or self._kept_given(part, env)):
            return False
        for name, n in names.items():
            if _reads(part, name):
                given.setdefault(name, n)
        for n in ir.walk(part):   # (a relation's argument computed before the loop: see _related)
            if n.node == "Call" and self.call_kind(n) == "pair":
                given.update((id(a), a) for a in n.args if self._given_value(a, env))
        return True

    def _kept_given(self, e, names: dict) -> bool:
        """Whether ``e`` is a call of a rule function whose values are its arguments'
        alone (it reads nothing of the state: core/pure.py, and reaches no function that
        may call itself: the depth of calls is counted), that does some work (calls
        something or loops: else it is no more than its body, which ``_static`` reads),
        given the cell or static facts of it, and names from before the loop or values
        computed from them alone (``_from_given``; see cells_given): it lets through the
        same cells whenever the names have the same values."""
        if e.node != "Call" or self.call_kind(e) != "function":
            return False
        fd = self.c.functions[e.func]
        reach = self.reach(e.func)
        if len(fd.params) != len(e.args) or not self.reads_nothing(e.func) or not reach.isdisjoint(self.recursive) \
                or not any(n.node in _WORKS for f in reach for n in ir.walk(self.c.functions[f].body)):
            return False
        cell = given = False
        for a in e.args:
            read = {names.get(n.name, 0) for n in ir.walk(a) if n.node == "Var"}
            if _CELL in read and not (a.node == "Var" or self._static(a, names)):
                return False
            if _CELL not in read and not self._from_given(a, names):
                return False
            cell, given = cell or _CELL in read, given or _GIVEN in read
        return cell and given

    def _from_given(self, e, names: dict, boards: bool = False) -> bool:
        """Whether ``e`` is computed from the names given from before the loop alone (see
        cells_given), constants and enum values (``boards``: and boards), with no loop,
        and reads nothing of the state (core/pure.py): the same value whenever the
        names have the same values."""
        given = {n for n, k in names.items() if k is _GIVEN}
        for n in ir.walk(e):
            if n.node in (*ir.CLAUSED, "ForClause") or self._node_reads(n, given) is not None:
                return False
            if n.node == "Var" and n.name not in given and n.name not in self.c.consts \
                    and n.name not in self.c.enum_of_value and not (boards and n.name in self.c.boards):
                return False
            if n.node == "Call" and self.call_kind(n) == "function" and not self.reads_nothing(n.func):
                return False
        return True

    def _keyed_type(self, n) -> bool:
        """Whether the name ``n`` (a Var) holds a value a table may be kept by (see
        cells_given): not a list, a board or a zone..."""
        t = self.c.type_of(n)
        return t is not None and t.tag in _KEYS and n.name not in self.c.zones and n.name not in self.c.boards

    # ------------------------------------------------------------ which conjuncts
    def _split(self, parts: list, var: str, env: dict) -> tuple[list, tuple | None, int, Any]:
        """The static conjuncts the condition starts with (in order), the keyed one among
        them (the first conjunct, or one after static ones; or None), how many static
        ones come before it, and, where there is no keyed one, the player (a Var) whose
        seat the static ones may read (``_seated``; or None). A conjunct that could be
        either is the keyed one."""
        key = self._keyed(parts[0], var)
        preds: list = []
        at, who, names = 0, None, env
        for part in parts[1 if key else 0:]:
            if self._static(part, names):
                preds.append(part)
            elif key is None and who is None and (keyed := self._keyed(part, var)) is not None:
                key, at = keyed, len(preds)
            elif key is None and (seated := self._seated(part, var, names, who)) is not None:
                who, names = seated, {**env, seated.name: _SEAT}
                preds.append(part)
            else:
                break
        return preds, key, at, who

    def _seated(self, part, var: str, names: dict, who):
        """Whether the conjunct ``part`` is static but for the seat of one player (a
        name of type player that is not the loop's, ``who`` where one is found before):
        that player's Var, or None."""
        players = {n.name for n in ir.walk(part) if n.node == "Var" and n.name != var
                   and str(self.c.type_of(n)) == "player"}
        if len(players) != 1 or (who is not None and who.name not in players):
            return None
        name = next(iter(players))
        if not self._static(part, {**names, name: _SEAT}):
            return None
        return next(n for n in ir.walk(part) if n.node == "Var" and n.name == name)

    def _keyed(self, e, var: str):
        """``static == value`` (either way round) where the static side reads the loop's
        variable ``c`` (``c.attr``, a static function of the cell) and the value is an
        integer that does not depend on the cell and that is computed without counting
        anything (``_once``): (the static side, the value), or None."""
        if e.node != "BinOp" or e.op != "==":
            return None
        for static, value in ((e.left, e.right), (e.right, e.left)):
            if self._static(static, {var: _CELL}) and _reads(static, var) and not _reads(value, var) \
                    and self.c.type_of(value) == _INT and self._once(value, var):
                return static, value
        return None

    def _once(self, value, var: str) -> bool:
        """Whether the value of a keyed conjunct may be computed once before the loop
        (see _keyed): plain (``_plain``), or, where it is not static itself (then the
        conjunct is one of the static ones: ``_split``), any value whose evaluation
        counts no work and no calls (a rule function's call, a zone's size...: as
        core/once.py computes a value once for two uses, ``counts_any``). No expression
        changes the state: each cell that reaches the conjunct reads the same value."""
        return self._plain(value) or (not self.counts_any(value) and not self._static(value, {var: _CELL}))

    def _static(self, e, names: dict) -> bool:
        """Whether ``e`` reads only static facts of the loop's cell and constants:
        ``names`` maps each name it may read to _CELL (the cell: its coordinates and name
        may be read, it may be given to a function), _SEAT (a player: its seat may be read, it
        may be given to a function) or None (a function's parameter given a static
        value). A rule function's call is static where its arguments are, its body is
        (its parameters so given), and it counts no work or calls."""
        node = e.node
        if node in ir.LITERALS:
            return True
        if node == "Var":
            return e.name in names and (names[e.name] is None or names[e.name] is _GIVEN)
        if node == "Attr":   # (a coordinate, the cell's name)
            return e.obj.node == "Var" and names.get(e.obj.name, 0) is _CELL
        if node in ("UnOp", "BinOp"):   # (an operation the table folds: core/operators.py)
            op = FOLDED.get((node, e.op))
            if op is not None and op.fold == "member":   # (in a list written out)
                return e.right.node == "ListLit" and self._static(e.left, names) \
                    and all(self._static(x, names) for x in e.right.items)
            return op is not None and all(self._static(x, names) for x in operands(e))
        return node == "Call" and self._static_call(e, names)

    def _static_call(self, e, names: dict) -> bool:
        """Whether the call ``e`` is static (see _static): a rule function's whose body
        is, given its arguments; whether two cells are related (the cell, a cell given
        from before the loop: see cells_given); a seat, ``abs``, ``min``, ``max``."""
        kind = self.call_kind(e)
        if kind == "function":
            inner = self._given(e, names)
            return inner is not None and self._static(self.c.functions[e.func].body, inner)
        if kind == "pair":
            return self._related(e, names)
        if e.func == "seat" and len(e.args) == 1 and self.c.calls_builtin(e.func):
            return e.args[0].node == "Var" and names.get(e.args[0].name, 0) is _SEAT
        return (e.func, len(e.args)) in _CALLS and self.c.calls_builtin(e.func) \
            and all(self._static(a, names) for a in e.args)

    def _related(self, e, names: dict) -> bool:
        """Whether the relation's test ``e`` (of two cells) is static given values from
        before the loop (see cells_given): its arguments the cell, names given, or a
        cell computed from them alone (``_given_value``: ``beside(c, cell(b, row: 1,
        col: 1))``), one of them at least a value given."""
        read = [names.get(a.name, 0) if a.node == "Var" else _GIVEN if self._given_value(a, names) else 0
                for a in e.args]
        return all(r in (_CELL, _GIVEN) for r in read) and (_GIVEN in read or _GIVEN in names.values())

    def _given_value(self, e, names: dict) -> bool:
        """Whether ``e``, no name, is a value given from before the loop as a whole (see
        cells_given: ``names`` holds ``_VALUES``): a cell computed from the names given,
        constants, enum values and boards alone (``cell(b, row: k, col: 1)``), reading
        nothing of the state, with no loop."""
        return names.get(_VALUES) is True and e.node != "Var" and self.c.type_of(e).tag == "cell" \
            and self._from_given(e, names, boards=True)

    def _given(self, e, names: dict) -> dict | None:
        """What the parameters of the rule function ``e`` calls are given (see _static):
        the cell, the player whose seat is read, or a static value; None where an
        argument is none of them or the call may count work or calls (a loop, a function
        that calls itself...)."""
        fd = self.c.functions[e.func]
        if self.counts_any(e) or len(fd.params) != len(e.args):
            return None
        inner: dict = {}
        for q, a in zip(fd.params, e.args):
            if a.node == "Var" and names.get(a.name, 0) in (_CELL, _SEAT, _GIVEN):
                inner[q.name] = names[a.name]
            elif self._static(a, names):
                inner[q.name] = None
            else:
                return None
        return inner

    def _plain(self, e) -> bool:
        """Whether ``e`` is computed without counting work or calls and without a loop:
        names, coordinates and attributes, numbers, arithmetic (division and remainder
        too: by zero, the rules' error where the reference computes it, the kernel's
        bail), a seat's number, ``abs``, ``min`` and ``max`` of two."""
        node = e.node
        if node in ("IntLit", "Var"):
            return True
        if node == "Attr":
            return self._plain(e.obj)
        if node in ("UnOp", "BinOp"):   # (arithmetic: of ints, an int)
            return (node, e.op) in ARITHMETIC and all(self._plain(x) for x in operands(e))
        if node == "Call" and self.call_kind(e) == "builtin":
            return (e.func == "seat" or (e.func, len(e.args)) in _CALLS) and len(e.args) >= 1 \
                and all(self._plain(a) for a in e.args)
        return False

    # ------------------------------------------------------------ their values
    def _value(self, e, z: int, env: dict):
        """The value of a static expression for the cell ``z`` (Python's, as the rules
        compute it; ``env``: the values of the names it reads, the cell's _CELL, the
        player's whose seat it reads a _Seat);
        raises _Unknown where an engine might differ (a value out of range, a none in
        arithmetic or order, a text but in ``==``, ``!=``, ``in``)."""
        node = e.node
        if node in ("IntLit", "BoolLit", "StrLit"):
            return e.value
        if node == "NoneLit":
            return None
        if node == "Var":
            return env[e.name]   # (a parameter given a value: see _static)
        if node == "Attr" and e.name == "name":
            return self.p.ns["CELL_NAME"][z]
        if node == "Attr":
            return _checked(self.p.ns.get(f"C_{e.name}", [None] * (z + 1))[z])
        if node == "ListLit":   # (the right of ``in``: see _static)
            return [self._value(x, z, env) for x in e.items]
        if node == "Call":
            return self._call_value(e, z, env)
        # an operator: its operation's reference meaning (core/operators.py ``fold``)
        try:
            return _checked(fold(FOLDED[e.node, e.op], self.p.budgets,
                                 [functools.partial(self._value, x, z, env) for x in operands(e)]))
        except NotFolded:
            raise _Unknown from None

    def _call_value(self, e, z: int, env: dict):
        """The value of a static call (a built-in's, or a rule function's body with its
        parameters given the arguments' values) for the cell ``z``."""
        if self.call_kind(e) == "function":
            fd = self.c.functions[e.func]
            inner = {q.name: _CELL if a.node == "Var" and env.get(a.name, 0) is _CELL else self._value(a, z, env)
                     for q, a in zip(fd.params, e.args)}
            return self._value(fd.body, z, inner)
        args = [self._value(a, z, env) for a in e.args]
        if e.func == "seat":   # (of the player whose seat is read: see _static)
            if len(args) != 1 or type(args[0]) is not _Seat:
                raise _Unknown
            return args[0].n
        if any(type(a) is not int for a in args):
            raise _Unknown
        return _checked(_CALLS[e.func, len(args)](*args))


def _checked(v):
    if v is None or type(v) is bool:
        return v
    if type(v) is not int or not -BIG < v < BIG:
        raise _Unknown
    return v


def conjuncts(e) -> list:
    """The operands of a condition's top-level ``and``, in order."""
    if e.node == "BinOp" and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def _reads(e, var: str) -> bool:
    """Whether ``e`` reads the name ``var``."""
    return any(n.node == "Var" and n.name == var for n in ir.walk(e))
