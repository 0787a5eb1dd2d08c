"""Budgets: the limits that make loading, checking and running a ruleset finish.

Every limit has a default generous enough for the bundled games; a program raises one
with ``interpreter.load(..., budgets=Budgets(steps=1_000_000))`` and the command line
with ``--budget steps=1000000``. A load-time limit that is exceeded is a ``load/budget``
diagnostic at the place in the ruleset; a run-time one is a ``rule/budget`` error that
names the rule and its ``file:line:col``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Budgets:
    # ---- loading
    file_size: int = 200_000     # bytes in one ruleset, variant or locale file
    nesting: int = 100           # depth of nested expressions and blocks in the source
    code: int = 4_000_000        # characters of Python generated for one player count
    items: int = 100_000         # items all decks make together
    cells: int = 100_000         # cells of all boards together
    relation: int = 1_000_000    # (cell, cell) pairs one relation is evaluated on
    # ---- running (per move: from one decision to the next)
    steps: int = 100_000         # statements and turns run
    work: int = 5_000_000        # elements walked and built by comprehensions, list '+' and ranges
    range: int = 100_000         # elements of one range a..b
    calls: int = 200_000         # calls of recursive and call-heavy functions
    depth: int = 500             # nested calls of recursive functions (at most 2,000)
    integer: int = 10 ** 18      # the largest absolute value of an integer a rule computes or stores

    def raised(self, **changes: int) -> Budgets:
        return replace(self, **changes)


DEFAULT = Budgets()

# what each budget bounds, for messages and --help
MEANING = {
    "file_size": "bytes in one ruleset, variant or locale file",
    "nesting": "depth of nested expressions and blocks",
    "code": "characters of generated code for one player count",
    "items": "items made by all decks together",
    "cells": "cells of all boards together",
    "relation": "cell pairs a relation is evaluated on",
    "steps": "statements and turns run in one move",
    "work": "list elements walked or built in one move",
    "range": "elements of one range a..b",
    "calls": "calls of recursive and call-heavy functions in one move",
    "depth": "nested calls of recursive functions (recursion depth)",
    "integer": "the largest absolute value of an integer",
}

NAMES = tuple(f.name for f in fields(Budgets))
MAX_VALUE = 10 ** 30  # no budget may be set above this
MAX_DEPTH = 2_000     # Python's own stack bounds recursion; deeper could crash it


def hint(name: str) -> str:
    """How to raise a budget, for the hint of a diagnostic or the end of an error."""
    return (f"raise the '{name}' budget with --budget {name}=N "
            f"(or interpreter.Budgets({name}=N)); it is {getattr(DEFAULT, name):,} by default")


def parse_setting(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` -> (name, value); ValueError with a readable message if it is not one."""
    name, eq, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not eq:
        raise ValueError(f"'{text}' is not NAME=VALUE (for example steps=1000000)")
    if name not in NAMES:
        raise ValueError(f"unknown budget '{name}'; the budgets are: {', '.join(NAMES)}")
    v = value.strip().replace("_", "").replace(",", "")
    if not v.isascii() or not v.isdigit() or len(v) > 31:
        raise ValueError(f"the budget {name} must be a whole number, not '{value}'")
    n = int(v)
    top = MAX_DEPTH if name == "depth" else MAX_VALUE
    if not 1 <= n <= top:
        raise ValueError(f"the budget {name} must be between 1 and {'10**30' if top == MAX_VALUE else top}, "
                         f"not {value}")
    return name, n


def from_settings(settings) -> Budgets:
    """Budgets from a list of ``NAME=VALUE`` texts (later ones win)."""
    changes = dict(parse_setting(s) for s in settings)
    return replace(DEFAULT, **changes)


def check(b) -> Budgets:
    """Validates a Budgets given through the API (a TypeError/ValueError if it is not one)."""
    if b is None:
        return DEFAULT
    if not isinstance(b, Budgets):
        raise TypeError(f"budgets must be an interpreter.Budgets, not {type(b).__name__}")
    for name in NAMES:
        v = getattr(b, name)
        top = MAX_DEPTH if name == "depth" else MAX_VALUE
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise ValueError(f"the budget {name} must be a whole number from 1 to {top:,}, not {v!r}")
    return b
