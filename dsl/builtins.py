"""Every built-in function and constant of the language, declared once: its name, the
argument counts it takes, its type rule, what the optimiser may assume of it, and its
reference entry (the rows of the table of docs/language.md §8, generated from here by
``reference_table``; the editor grammar's list of built-ins is ``editor_pattern``).

The checker (``dsl/check.py``: arity, then ``Checker._call_builtin`` applies ``rule``)
reads this table; so do the lexer, the language server and the documentation tests.
What a built-in means when it runs is in ``interpreter/core/primitives.py`` (its Python and
its C++ form), keyed by the same names: tests/test_builtins.py checks that both tables
have exactly the same names and that every engine implements each one.

Adding a built-in: an entry here, an entry in ``interpreter/core/primitives.py``, a test
(then ``python3 -m tools.builtins_docs`` rewrites the docs table and the editor grammar;
tests/test_builtins.py says when they are stale)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .types import BOOL, ERROR, INT, PLAYER, T, list_of


class Typing(Protocol):
    """What a type rule may ask of the checker (``Checker._call_builtin``), about the
    built-in being called."""

    def holds(self, t: T, node) -> str | None:
        """The kind a zone or cell holds, or None after reporting that it is neither."""

    def want(self, node, got: T, want: T, quoted: bool = False) -> None:
        """Reports an argument whose type is not ``want``."""

    def elem(self, node, t: T) -> T:
        """The element type of a list, or ERROR after reporting that it is no list."""

    def mismatch(self, node, wanted: str, got: T) -> None:
        """Reports an argument that is not ``wanted``."""

    def edges_of(self, board: str) -> str | None:
        """The board whose sides an edges board's cells are, or None when it is none."""


Rule = Callable[[Typing, Sequence, list], T]   # (checker, argument nodes, their types) -> type
Row = tuple[str, str, str]                     # a row of docs/language.md §8: usage, result, meaning


@dataclass(frozen=True)
class Builtin:
    name: str
    arities: tuple[int, ...]  # the argument counts it takes
    result: str               # what it gives, in a line (the language server's hover)
    rule: Rule                # its type, from its arguments' (reporting what is wrong)
    doc: tuple[Row, ...]      # its rows of the table of docs/language.md §8
    aggregate: bool = False   # also written over a comprehension: `sum(e for x in l)`
    # the optimiser (interpreter/compiler/codegen.py): a value worth computing once in the fast
    # code (it takes some work, and is no list)
    costly: bool = False
    # how its value depends on the order of its list argument: "" it may; "size" only
    # on its size; "elements" its value holds the same elements in any order
    order: str = ""
    # what it reads of the state (interpreter/core/pure.py: the rule functions whose
    # values are the same in every position): "" nothing; "place" a zone's or a cell's
    # items where it is given one (a list: nothing); "always" something at every call
    state: str = ""


@dataclass(frozen=True)
class Constant:
    name: str
    type: T
    meaning: str
    state: bool = False   # whether it reads the state (interpreter/core/pure.py)


# ------------------------------------------------------------------ type rules
def _top(ck: Typing, a, ts) -> T:
    k = ck.holds(ts[0], a[0])
    if len(ts) == 2:
        ck.want(a[1], ts[1], INT, quoted=True)
        return list_of(T("item", k)) if k else ERROR
    return T("item", k) if k else ERROR


def _items(ck: Typing, a, ts) -> T:
    k = ck.holds(ts[0], a[0])
    return list_of(T("item", k)) if k else ERROR


def _sized(result: T) -> Rule:
    """A zone, a cell or a list."""
    def rule(ck: Typing, a, ts) -> T:
        if ts[0].tag != "list":
            ck.holds(ts[0], a[0])
        return result
    return rule


def _cells(ck: Typing, a, ts) -> T:
    if ts[0].tag != "board":
        if not ts[0].is_error:
            ck.mismatch(a[0], "a board", ts[0])
        return ERROR
    return list_of(T("cell", ts[0].arg))


def _cell_of(ck: Typing, a, ts) -> T:
    ck.want(a[0], ts[0], T("item", ts[0].arg) if ts[0].tag == "item" else T("item", "?"))
    if ts[1].tag != "board":
        ck.mismatch(a[1], "a board", ts[1])
        return ERROR
    return T("cell", ts[1].arg)


def _edges(ck: Typing, a, ts) -> str | None:
    """The board whose sides the first argument's cells are (an edges board), or None
    after reporting that it is none."""
    base = ck.edges_of(ts[0].arg) if ts[0].tag == "board" else None
    if base is None and not ts[0].is_error:
        ck.mismatch(a[0], "a board of edges (board NAME: edges(of: BOARD))", ts[0])
    return base


def _edge(ck: Typing, a, ts) -> T:
    base = _edges(ck, a, ts)
    if base is None:
        return ERROR
    for node, got in zip(a[1:], ts[1:]):
        ck.want(node, got, T("cell", base))
    return T("cell", ts[0].arg)


def _across(ck: Typing, a, ts) -> T:
    base = _edges(ck, a, ts)
    if base is None:
        return ERROR
    ck.want(a[1], ts[1], T("cell", base))
    if len(a) == 3:   # the edges taken as closed too
        ck.want(a[2], ts[2], list_of(T("cell", ts[0].arg)))
    return list_of(T("cell", base))


def _of(*want: T, result: T) -> Rule:
    """Arguments of these types."""
    def rule(ck: Typing, a, ts) -> T:
        for node, got, w in zip(a, ts, want):
            ck.want(node, got, w)
        return result
    return rule


def _min_max(ck: Typing, a, ts) -> T:
    if len(ts) == 2:
        return _of(INT, INT, result=INT)(ck, a, ts)
    return _of(list_of(INT), result=INT)(ck, a, ts)


def _count(ck: Typing, a, ts) -> T:
    ck.elem(a[0], ts[0])
    return INT


def _element(ck: Typing, a, ts) -> T:
    return ck.elem(a[0], ts[0])


def _subsets(ck: Typing, a, ts) -> T:
    return list_of(list_of(ck.elem(a[0], ts[0])))


def _same_list(ck: Typing, a, ts) -> T:
    return list_of(ck.elem(a[0], ts[0]))


def _replace_at(ck: Typing, a, ts) -> T:
    el = ck.elem(a[0], ts[0])
    ck.want(a[1], ts[1], INT)
    if not el.is_error:
        ck.want(a[2], ts[2], el)
    return ts[0] if not el.is_error else ERROR


def _face_down(ck: Typing, a, ts) -> T:
    if ts[0].tag != "item" and not ts[0].is_error:
        ck.mismatch(a[0], "an item", ts[0])
    return BOOL


def _knows(ck: Typing, a, ts) -> T:
    ck.want(a[0], ts[0], PLAYER)
    if ts[1].tag != "item" and not ts[1].is_error:
        ck.mismatch(a[1], "an item", ts[1])
    return BOOL


def _owner(ck: Typing, a, ts) -> T:
    if ts[0].tag != "zone" and not ts[0].is_error:
        ck.mismatch(a[0], "a per-player zone", ts[0])
    return PLAYER


# ------------------------------------------------------------------ the table
_SIZE = ("`size(x)`, `len(x)`", "int", "the number of items in a zone or cell, or of elements in a list")
_EMPTY = ("`empty(x)`, `occupied(x)`", "bool", "whether a zone, cell or list has no / some elements")
_MIN_MAX = (("`min(a, b)`, `max(a, b)`", "int", "the smaller, larger of two numbers"),
            ("`min(list)`, `max(list)`", "int", "the smallest, largest number of a list (`rule/error` when empty)"))
_ANY_ALL = ("`any(list)`, `all(list)`", "bool", "on a list of `bool`")
_FIRST_LAST = ("`first(list)`, `last(list)`", "element", "the first, last element, or `none` when empty")

_TABLE = (
    Builtin("top", (1, 2), "the top item (or the top n items) of a zone or cell", _top, (
        ("`top(z)`", "item", "the top item, or `none` when `z` is empty"),
        ("`top(z, n)`", "list of items", "the top `n` items, the top one first (fewer if there are fewer)")),
        costly=True, state="always"),
    Builtin("bottom", (1,), "the bottom item of a zone or cell", _top,
            (("`bottom(z)`", "item", "the bottom item, or `none`"),), costly=True, state="always"),
    Builtin("items", (1,), "the items of a zone or cell, bottom to top", _items,
            (("`items(z)`", "list of items", "all items, bottom to top"),), state="always"),
    Builtin("size", (1,), "the number of items of a zone or cell, or elements of a list", _sized(INT),
            (_SIZE,), order="size", state="place"),
    Builtin("len", (1,), "as size", _sized(INT), (_SIZE,), order="size", state="place"),
    Builtin("empty", (1,), "whether a zone, cell or list has no elements", _sized(BOOL), (_EMPTY,),
            order="size", state="place"),
    Builtin("occupied", (1,), "whether a zone, cell or list has some elements", _sized(BOOL), (_EMPTY,),
            order="size", state="place"),
    Builtin("cells", (1,), "the cells of a board, in cell order", _cells,
            (("`cells(board)`", "list of cells", "all cells of the board, in cell order"),)),
    Builtin("cell_of", (2,), "the cell of a board an item is in, or none", _cell_of,
            (("`cell_of(item, board)`", "cell", "the cell of that board the item is in, or `none`"),),
            costly=True, state="always"),
    Builtin("edge", (3,), "the edge between two cells, or none", _edge, (
        ("`edge(edges, a, b)`", "cell",
         "the cell of the [edges board](#541-edges-walls-between-cells) `edges` between the cells `a` "
         "and `b`, or `none` when they share no side"),)),
    Builtin("across", (2, 3), "the cells beside a cell through its open edges", _across, (
        ("`across(edges, a)`", "list of cells",
         "the cells that share a side with `a` whose [edge](#541-edges-walls-between-cells) holds no "
         "item, in cell order; `connected(x for x in across(edges, start) if cond)` walks them"),
        ("`across(edges, a, closed)`", "list of cells",
         "the same, the edges of the list `closed` taken as closed too (a wall not yet put down)")),
        state="always"),
    Builtin("face_down", (1,), "whether an item lies face down", _face_down, (
        ("`face_down(item)`", "bool",
         "whether the item lies [face down](#69-move) (for everyone, or seen by one player)"),), state="always"),
    Builtin("knows", (2,), "whether a player may see an item now", _knows, (
        ("`knows(p, item)`", "bool",
         "whether player `p` may see the item now, as their [view](#10-hidden-information) shows it: "
         "face down, only the player it lies face down for; else as its place's visibility, or "
         "[revealed](#616-reveal)"),), state="always"),
    Builtin("abs", (1,), "the absolute value of a number", _of(INT, result=INT),
            (("`abs(n)`", "int", "absolute value"),)),
    Builtin("min", (1, 2), "the smaller of two numbers, the smallest of a list", _min_max, _MIN_MAX,
            aggregate=True, costly=True),
    Builtin("max", (1, 2), "the larger of two numbers, the largest of a list", _min_max, _MIN_MAX,
            aggregate=True, costly=True),
    Builtin("sum", (1,), "the total of a list of numbers", _of(list_of(INT), result=INT),
            (("`sum(list)`", "int", "the total of a list of numbers"),), aggregate=True, costly=True),
    Builtin("count", (1,), "the length of a list", _count,
            (("`count(list)`", "int", "the length of a list"),), aggregate=True),
    Builtin("any", (1,), "whether some bool of a list is true", _of(list_of(BOOL), result=BOOL),
            (_ANY_ALL,), aggregate=True),
    Builtin("all", (1,), "whether every bool of a list is true", _of(list_of(BOOL), result=BOOL),
            (_ANY_ALL,), aggregate=True),
    Builtin("first", (1,), "the first element of a list, or none", _element, (_FIRST_LAST,),
            aggregate=True, costly=True),
    Builtin("last", (1,), "the last element of a list, or none", _element, (_FIRST_LAST,),
            aggregate=True, costly=True),
    Builtin("subsets", (1,), "every non-empty subset of a list, smallest first", _subsets, (
        ("`subsets(list)`", "list of lists",
         "every non-empty subset, smallest first, each in list order (at most 16 elements)"),)),
    Builtin("sort", (1,), "a list sorted in the order of options", _same_list, (
        ("`sort(list)`", "list", ("sorted in the [order of options](#92-the-order-of-the-options): enum "
                                  "values in declaration order, lists by size then element by element")),)),
    Builtin("reverse", (1,), "a list backwards", _same_list,
            (("`reverse(list)`", "list", "the list backwards"),)),
    Builtin("replace_at", (3,), "a list with one element replaced", _replace_at, (
        ("`replace_at(list, i, x)`", "list",
         ("the list with element `i` (from 0) replaced by `x` (an index outside the list is a "
          "`rule/error`); `xs[i] = x` sets a list variable to it ([6.1.1](#611-setting-an-element-of-a-list))")),)),
    Builtin("distinct", (1,), "a list without repeated elements", _same_list,
            (("`distinct(list)`", "list", "without repeated elements, keeping the first of each"),),
            order="elements"),
    Builtin("player_count", (0,), "the number of players in this game", _of(result=INT),
            (("`player_count()`", "int", "the number of players in this game"),)),
    Builtin("next_player", (1,), "the player after p in the order of play", _of(PLAYER, result=PLAYER),
            (("`next_player(p)`", "player", "the player after `p` in the order of play"),)),
    Builtin("previous_player", (1,), "the player before p in the order of play", _of(PLAYER, result=PLAYER),
            (("`previous_player(p)`", "player", "the player before `p`"),)),
    Builtin("seat", (1,), "the seat number of a player, from 1", _of(PLAYER, result=INT),
            (("`seat(p)`", "int", "the seat number of `p`, from 1"),)),
    Builtin("owner", (1,), "the player a per-player zone belongs to", _owner, (
        ("`owner(z)`", "player", "the player a per-player zone belongs to (`none` for a shared zone)"),)),
    Builtin("turn_number", (0,), "how many turns have been completed", _of(result=INT), (
        ("`turn_number()`", "int", "how many turns have been completed (0 during the setup and the first turn)"),), state="always"),
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
    doc: tuple[Row, ...] = ()


CLOSURES: dict[str, Closure] = {c.name: c for c in (
    Closure("connected", "the cells reachable from some cells through a relation, stepping "
                         "only on cells for which the condition holds", (
        ("`connected(x for x in R(start) if cond)`", "list of cells",
         ("the cells reachable from `start` (a cell or a list of cells) through the relation `R` "
          "while `cond` holds for each, breadth first ([7.7](#77-connected-cells-connected))")),)),
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
    Constant("active", PLAYER, "the active player", state=True),
    Constant("players", list_of(PLAYER), "all players in seat order"),
)}


def reference_table() -> str:
    """The table of built-in functions of docs/language.md §8 (markdown)."""
    rows = [r for b in _TABLE for r in b.doc] + [r for c in CLOSURES.values() for r in c.doc]
    return "\n".join(["| Built-in | Result | Meaning |", "|---|---|---|"]
                     + [f"| {u} | {r} | {m} |" for u, r, m in dict.fromkeys(rows)])


def editor_pattern() -> str:
    """The editor grammar's pattern of a built-in's call (editors/vscode/syntaxes/
    meeple.tmLanguage.json, ``support.function.builtin.meeple``): every built-in name,
    longest first (a regex alternation takes the first that matches)."""
    names = sorted({*BUILTINS, *CLOSURES, *FORMS}, key=lambda n: (-len(n), n))
    return r"\b(" + "|".join(names) + r")\b(?=\s*\()"
