"""Run-time helpers that generated rule code calls, and the errors rules can raise."""
from __future__ import annotations

import sys
from collections import Counter
from itertools import combinations
from types import FrameType

from ...dsl.ast import Span as _Span
from ...dsl.budgets import DEFAULT as _DEFAULT, hint as _hint
from ...dsl.errors import Diagnostic as _Diagnostic

MAX_RANGE = _DEFAULT.range      # size budget: the longest range a rule may build
MAX_SUBSET_BASE = 16            # size budget: subsets of at most this many elements
MAX_CALLS = _DEFAULT.calls      # step budget: recursive function calls per move
MAX_STEPS = _DEFAULT.steps      # step budget: statements run per move


class RuleError(Exception):
    """A rule went wrong while a game ran (a budget ran out, a value was missing...).

    ``str(e)`` is one line that names the rule and its source place (``in turn at
    FILE:LINE:COLUMN: what went wrong``). Once located, ``span`` is that place (a
    ``meeple.dsl.ast.Span``), ``rule`` the rule (``turn``, ``procedure deal_cards``,
    ``function ratio``...), ``detail`` what went wrong in plain words and ``hint`` what to
    do, if known; ``diagnostic()`` is the same as a ``Diagnostic`` that renders the source
    line with a caret, like a problem found before the game."""

    code = "rule/error"
    span = None
    rule: str | None = None
    hint: str | None = None

    def __init__(self, message: str, code: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.detail = message
        if code:
            self.code = code
        if hint:
            self.hint = hint

    def diagnostic(self):
        """This error as a ``meeple.dsl.errors.Diagnostic`` (at the rule's place, or at
        no place when it is not known)."""
        span = self.span if self.span is not None else _Span(file="?")
        message = f"in {self.rule}: {self.detail}" if self.rule else self.detail
        return _Diagnostic(self.code, span, message, self.hint)


class BudgetError(RuleError):
    code = "rule/budget"


def over_budget(name: str, what: str) -> BudgetError:
    """The error for a run-time budget: says what ran out, which budget and how to raise it."""
    return BudgetError(f"{what} (the '{name}' budget); {_hint(name)}")


_NO_ITEM = [None]  # `(zone or _NO_ITEM)[-1]`: the top item, or None for an empty zone
_NOT_YET = object()  # a call the fast code keeps for a loop's turns, not computed yet


def _topn(z: list, n: int) -> list:
    if n <= 0:
        return []
    return z[-n:][::-1]


def _kept_cells(R, table: dict, given: tuple, make) -> tuple:
    """The cells a loop walks whose condition starts with a call of a function that
    reads nothing of the state or static facts of the cell compared with values from
    before the loop (core/cells.py, ``cells_given``; codegen's _given_conjunct): ``table``'s entry for the values given, made by
    ``make(R, *given)`` the first time (kept as long as kept values are), with the work
    and the calls its conditions counted: counted again at each read, as the loop that
    evaluates them counts them (core/facts.py, "work", "calls"; a budget run out here:
    the straightforward code runs again and says where)."""
    try:
        kept = table.get(given, _NOT_YET)
    except TypeError:  # (a value Python cannot hash: a list)
        return make(R, *given)
    if kept is _NOT_YET:
        if len(table) >= _KEPT_CELLS_MAX:
            table.clear()
        w, c = R.work, R.calls
        cells = make(R, *given)
        table[given] = (cells, w - R.work, R.calls - c)
        return cells
    R.work -= kept[1]
    if R.work < 0:
        _out_of_work(R)
    if kept[2]:
        R.calls += kept[2]
        if R.calls > R.prog.budgets.calls:
            raise over_budget("calls", f"more than {R.prog.budgets.calls} calls in one move")
    return kept[0]


_KEPT_CELLS_MAX = 4096  # (as compile._KEPT_MAX)


def _bottom(z: list):
    return z[0] if z else None


def _range(R, a: int, b: int, limit: int = MAX_RANGE) -> list:
    n = b - a + 1
    if n > limit:
        _too_long(a, b, limit)
    if n > 0:
        R.work -= n
        if R.work < 0:
            _out_of_work(R)
    return list(range(a, b + 1))


def _too_long(a: int, b: int, limit: int):
    """The error of a range longer than the range budget (the fast code's loops over a
    range check its length in place, see codegen.ExprCompiler._s_range)."""
    raise over_budget("range", f"the range {a}..{b} has more than {limit} elements")


def _it(R, xs):
    """An iterable of a comprehension, counted against the work budget."""
    R.work -= len(xs)
    if R.work < 0:
        _out_of_work(R)
    return xs


def _cat(R, a: list, b: list) -> list:
    """List '+', counted against the work budget (a list that doubles every step)."""
    R.work -= len(a) + len(b)
    if R.work < 0:
        _out_of_work(R)
    return a + b


def _too_deep(name: str, limit: int):
    """The depth budget run out in ``name``: the rule functions on the stack (the Python
    frames named ``F_name``, of the compiled code or of core/evaluate.py) are named."""
    calls: list[str] = []
    f: FrameType | None = sys._getframe(1)
    while f is not None:  # the rule functions on the stack, innermost first
        if f.f_code.co_name.startswith("F_"):
            calls.append(f.f_code.co_name[2:])
        f = f.f_back
    names = _runaway(calls[::-1], name)
    who = f"function '{name}' calls itself" if len(names) <= 1 else \
        "functions " + ", ".join(f"'{n}'" for n in names) + " call each other"
    raise over_budget("depth", f"{who} more than {limit} deep (endless recursion?)")


def _runaway(calls: list[str], last: str | None = None) -> list[str]:
    """Of the rule functions on the stack (``calls``, outermost first, one per call),
    those that call themselves or each other without end, each once, in the order of
    their first calls: those called from the first call to the last of ``last`` (the one
    that ran out of depth), or else of the innermost function called more than once
    (not those that called the first of them, nor those the last one called; all of
    them where that one is called once)."""
    times = Counter(calls)
    if last is None:
        last = next((n for n in reversed(calls) if times[n] > 1), None)
    if last is None or times[last] < 2:
        return list(dict.fromkeys(calls))
    end = len(calls) - calls[::-1].index(last)
    within = set(calls[calls.index(last):end])
    return [n for n in dict.fromkeys(calls) if n in within]


def _too_many_calls(name: str, limit: int = MAX_CALLS, recursive: bool = True):
    """The calls budget run out in ``name``: "endless recursion?" only where it may call
    itself (a function that calls others that call others runs out too, and does not)."""
    why = " (endless recursion?)" if recursive else ""
    raise over_budget("calls", f"function '{name}' was called more than {limit} times in one "
                               f"move{why}")


def _out_of_work(R):
    R.work = 0
    raise over_budget("work", f"more than {R.work_budget} list elements walked or built in one move")


def _mul(a: int, b: int, limit: int):
    r = a * b
    if -limit <= r <= limit:
        return r
    raise _too_big(r, limit)


def _too_big(v: int, limit: int) -> BudgetError:
    digits = len(str(abs(v))) if abs(v).bit_length() < 10_000 else f"about {int(abs(v).bit_length() * 0.30103):,}"
    return over_budget("integer", f"an integer of {digits} digits is larger than {limit}")


def _div(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("division by zero")
    return a % b


def _index(xs: list, i: int):
    if not 0 <= i < len(xs):
        raise RuleError(f"index {i} is outside a list of {len(xs)} elements")
    return xs[i]


def _replace_at(xs: list, i: int, x) -> list:
    """``replace_at(xs, i, x)``: a new list, element ``i`` replaced (as ``_index``, an
    index outside the list is an error)."""
    if not 0 <= i < len(xs):
        raise RuleError(f"index {i} is outside a list of {len(xs)} elements")
    out = list(xs)
    out[i] = x
    return out


def _min(xs: list):
    if not xs:
        raise RuleError("min of an empty list")
    return min(xs)


def _max(xs: list):
    if not xs:
        raise RuleError("max of an empty list")
    return max(xs)


def _first(xs: list):
    return xs[0] if xs else None


def _last(xs: list):
    return xs[-1] if xs else None


def _subsets(xs: list) -> list:
    """All non-empty subsets, smallest first, each in the list's order."""
    if len(xs) > MAX_SUBSET_BASE:
        raise BudgetError(f"subsets of {len(xs)} elements (more than {MAX_SUBSET_BASE})")
    return [list(c) for k in range(1, len(xs) + 1) for c in combinations(xs, k)]


def _connected(R, start: list, rel: list, cond) -> list:
    """``connected(x for x in rel(start) if cond)``: the start cells for which ``cond``
    holds, then the cells ``rel`` relates to the cells found for which it holds, until no
    new one comes: each cell once, breadth first (the start cells in their order, then the
    cells related to the first cell found, in the relation's order, and so on); ``cond`` is
    None when every cell will do. The work budget counts every cell looked at."""
    seen = set()
    found = []
    for c in start:
        if c is not None and c not in seen:
            seen.add(c)
            if cond is None or cond(c):
                found.append(c)
    work = len(start)
    add, keep = seen.add, found.append
    for c in found:  # grows while it is walked
        near = rel[c]
        work += len(near)
        for n in near:
            if n not in seen:
                add(n)
                if cond is None or cond(n):
                    keep(n)
    R.work -= work
    if R.work < 0:
        _out_of_work(R)
    return found


def _across(R, rows: list, c, closed: list = ()) -> list:  # type: ignore[assignment]
    """``across(edges, c[, closed])``: the cells beside ``c`` (``rows[c]``: each (cell,
    edge), in cell order) whose edge holds no item and is not in ``closed``; none for
    ``c`` none."""
    if c is None:
        return []
    zones = R.zones
    if closed:
        return [n for n, e in rows[c] if not zones[e] and e not in closed]
    return [n for n, e in rows[c] if not zones[e]]


class _Across:
    """The rows of ``connected(x for x in across(edges, start[, closed]) ...)``'s walk:
    the cells beside a cell through its open edges, as they are when the walk reads
    them."""

    def __init__(self, R, rows: list, closed: list = ()):  # type: ignore[assignment]
        self.R, self.rows, self.closed = R, rows, closed

    def __getitem__(self, c) -> list:
        return _across(self.R, self.rows, c, self.closed)


_RAYS_KEPT = 1 << 14  # rays a table keeps at most (steps computed while a game runs vary)


class _RayTable(dict):
    """The rays of one board stepping by some of its coordinates, by ``(start, step,
    ...)``: the cells met adding the steps to the start's coordinates again and again
    (``cells`` maps their values to a cell), the start left out, up to the first values
    no cell has. A ray is walked once, when first asked for, then kept; ``None`` as the
    start, or steps all 0, give no cell."""

    def __init__(self, cells: dict):
        super().__init__()
        self.cells = cells
        self.coords: list = []

    def reset(self, coords: list) -> None:
        """The coordinate tables (``C_file``...) of the steps, once the board is laid out."""
        self.clear()
        self.coords = coords

    def __missing__(self, key: tuple) -> list:
        start, steps = key[0], key[1:]
        out: list = []
        if start is not None and any(steps):
            at = tuple(c[start] for c in self.coords)
            get = self.cells.get
            while True:
                at = tuple(v + d for v, d in zip(at, steps))
                cell = get(at)
                if cell is None:
                    break
                out.append(cell)
        if len(self) < _RAYS_KEPT:
            self[key] = out
        return out


def _until(R, xs, cond) -> list:
    """``until(x for x in xs if cond)``: the elements of ``xs`` up to the first for which
    ``cond`` holds, that one included (all of them if none does). The work budget counts
    the elements looked at."""
    out = []
    keep = out.append
    for x in xs:
        keep(x)
        if cond(x):
            break
    R.work -= len(out)
    if R.work < 0:
        _out_of_work(R)
    return out


def _knows(R, p, item) -> bool:
    """``knows(p, item)``: whether seat p may see the item now (``Runtime.sees_item``,
    the rule views follow); a player or an item that is none fails as none does."""
    if p is None or item is None:
        raise TypeError("knows() of None")
    return R.sees_item(item, p)


def _cell_of(R, item, cells: frozenset):
    z = R.loc[item]
    return z if z in cells else None


_INT_OR_NONE = frozenset((int, type(None)))
_INT = frozenset((int,))


def _sort_ids(xs) -> list:
    """``sorted(xs, key=sort_key)`` for ids and plain numbers: where they are all ints
    (no bool, as the rules' types say), their plain order; with none among them (which
    plain ``sorted`` cannot compare with an int) or anything else, by the key."""
    if set(map(type, xs)) <= _INT_OR_NONE:
        try:
            return sorted(xs)
        except TypeError:
            pass
    return sorted(xs, key=sort_key)


def _sort_int_lists(xs) -> list:
    """``sorted(xs, key=sort_key)`` for lists of ids or numbers: where each is a list of
    ints alone, by size and then element by element (what the key compares)."""
    for v in xs:
        if v.__class__ is not list or not set(map(type, v)) <= _INT:
            return sorted(xs, key=sort_key)
    return sorted(xs, key=_size_then_items)


def _size_then_items(v: list) -> tuple:
    return (len(v), v)


def sort_key(v):
    """A total order on rule values, for stable sorted move lists."""
    if v is None:
        return (0,)
    if isinstance(v, bool):
        return (1, int(v))
    if isinstance(v, int):
        return (2, v)
    if isinstance(v, str):
        return (3, v)
    if isinstance(v, (list, tuple)):
        return (4, len(v), tuple(sort_key(x) for x in v))
    return (5, repr(v))


NAMESPACE = {k: v for k, v in globals().items() if k.startswith("_") and callable(v)
             and not k.startswith("__")}
NAMESPACE["_NO_ITEM"] = _NO_ITEM
NAMESPACE["_NOT_YET"] = _NOT_YET
