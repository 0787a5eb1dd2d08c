"""Every built-in function and constant of the language, declared once: its name, the
argument counts it takes, what it gives, and whether it is also an aggregate
(``sum(e for x in list)``). The checker (``dsl/check.py``: arity, then the type rule of
``_call_builtin``), the compiler (``interpreter/codegen.py``: ``_builtin`` and
``_Aggregate``) and the documentation test read this table; tests/test_builtins.py
checks that their rules cover exactly its names. docs/language.md §8 documents them."""
from __future__ import annotations

from dataclasses import dataclass

from .types import PLAYER, T, list_of


@dataclass(frozen=True)
class Builtin:
    name: str
    arities: tuple[int, ...]  # the argument counts it takes
    result: str               # what it gives, as docs/language.md §8 says
    aggregate: bool = False   # also written over a comprehension: `sum(e for x in l)`


@dataclass(frozen=True)
class Constant:
    name: str
    type: T
    meaning: str


_TABLE = (
    Builtin("top", (1, 2), "the top item (or the top n items) of a zone or cell"),
    Builtin("bottom", (1,), "the bottom item of a zone or cell"),
    Builtin("items", (1,), "the items of a zone or cell, bottom to top"),
    Builtin("size", (1,), "the number of items of a zone or cell, or elements of a list"),
    Builtin("empty", (1,), "whether a zone, cell or list has no elements"),
    Builtin("occupied", (1,), "whether a zone, cell or list has some elements"),
    Builtin("cells", (1,), "the cells of a board, in cell order"),
    Builtin("cell_of", (2,), "the cell of a board an item is in, or none"),
    Builtin("abs", (1,), "the absolute value of a number"),
    Builtin("min", (1, 2), "the smaller of two numbers, the smallest of a list", aggregate=True),
    Builtin("max", (1, 2), "the larger of two numbers, the largest of a list", aggregate=True),
    Builtin("sum", (1,), "the total of a list of numbers", aggregate=True),
    Builtin("count", (1,), "the length of a list", aggregate=True),
    Builtin("any", (1,), "whether some bool of a list is true", aggregate=True),
    Builtin("all", (1,), "whether every bool of a list is true", aggregate=True),
    Builtin("first", (1,), "the first element of a list, or none", aggregate=True),
    Builtin("last", (1,), "the last element of a list, or none", aggregate=True),
    Builtin("len", (1,), "as size"),
    Builtin("subsets", (1,), "every non-empty subset of a list, smallest first"),
    Builtin("player_count", (0,), "the number of players in this game"),
    Builtin("next_player", (1,), "the player after p in the order of play"),
    Builtin("previous_player", (1,), "the player before p in the order of play"),
    Builtin("seat", (1,), "the seat number of a player, from 1"),
    Builtin("owner", (1,), "the player a per-player zone belongs to"),
    Builtin("turn_number", (0,), "how many turns have been completed"),
    Builtin("sort", (1,), "a list sorted in the order of options"),
    Builtin("reverse", (1,), "a list backwards"),
    Builtin("distinct", (1,), "a list without repeated elements"),
    Builtin("face_down", (1,), "whether an item lies face down"),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _TABLE}
AGGREGATES = frozenset(b.name for b in _TABLE if b.aggregate)


@dataclass(frozen=True)
class Closure:
    """A built-in written only over a comprehension whose one ``for`` clause walks a
    relation from some cells: ``connected(x for x in adjacent(c) if cond)``. It applies the
    clause again and again to the cells it finds (checker: ``Checker._closure``, compiler:
    ``ExprCompiler._closure``, run time: ``interpreter/helpers._connected``)."""
    name: str
    result: str


CLOSURES: dict[str, Closure] = {c.name: c for c in (
    Closure("connected", "the cells reachable from some cells through a relation, stepping "
                         "only on cells for which the condition holds"),
)}
# Built-ins with a form of their own (checker: ``Checker._ray`` and ``Checker._until``,
# compiler: ``ExprCompiler._Ray`` and ``ExprCompiler._until``, run time:
# ``interpreter/helpers._RayTable`` and ``_until``); like the others, their names cannot
# be declared.
FORMS: dict[str, str] = {
    "ray": "ray(START, COORDINATE: STEP, ...): the cells met stepping from START by these "
           "changes of its coordinates, START left out, up to the edge of the board",
    "until": "until(x for x in LIST if CONDITION): the elements of LIST up to the first one "
             "for which CONDITION holds, that one included",
}
CONSTANTS: dict[str, Constant] = {c.name: c for c in (
    Constant("active", PLAYER, "the active player"),
    Constant("players", list_of(PLAYER), "all players in seat order"),
)}
