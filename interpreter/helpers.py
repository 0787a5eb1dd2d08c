"""Run-time helpers that generated rule code calls, and the errors rules can raise."""
from __future__ import annotations

from itertools import combinations

MAX_RANGE = 100_000       # size budget: the longest range a rule may build
MAX_SUBSET_BASE = 16      # size budget: subsets of at most this many elements
MAX_CALLS = 200_000       # step budget: recursive function calls per move
MAX_STEPS = 100_000       # step budget: statements run per move


class RuleError(Exception):
    """A rule went wrong while a game ran (a budget ran out, a value was missing...).
    The message names the rule and its source line."""

    code = "rule/error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class BudgetError(RuleError):
    code = "rule/budget"


_NO_ITEM = [None]  # `(zone or _NO_ITEM)[-1]`: the top item, or None for an empty zone


def _topn(z: list, n: int) -> list:
    if n <= 0:
        return []
    return z[-n:][::-1]


def _bottom(z: list):
    return z[0] if z else None


def _range(a: int, b: int) -> list:
    if b - a + 1 > MAX_RANGE:
        raise BudgetError(f"the range {a}..{b} has more than {MAX_RANGE} elements")
    return list(range(a, b + 1))


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


def _cell_of(R, item, cells: frozenset):
    z = R.loc[item]
    return z if z in cells else None


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
