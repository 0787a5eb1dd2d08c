"""Every built-in function and constant of the language, declared once: its name, the
argument counts it takes, its type rule, what the optimiser may assume of it, and its
reference entry (the rows of the table of docs/language.md §8, generated from here by
``reference_table``; the editor grammar's list of built-ins is ``editor_pattern``).

The checker (``dsl/check.py``: arity, then ``Checker._call_builtin`` applies ``rule``)
reads this table; so do the lexer, the language server and the documentation tests.
What a built-in means when it runs is in ``interpreter/core/primitives.py`` (its Python and
its C++ form), keyed by the same names: tests/test_builtins.py checks that both tables
have exactly the same names and that every engine implements each one.

What the rulebook says of a call is here too (``said``: its phrase in every language of
the rulebook catalogs, which ``rulebook.catalogs`` adds to each; the catalogs' files hold
only the other sentences).

Adding a built-in (README.md, "Contributing"): an entry here, an entry in
``interpreter/core/primitives.py``, its uses in tests/test_builtins.py (``USES``); then
``python3 tools/builtins_docs.py`` rewrites the docs table and the editor grammar
(tests/test_builtins.py says when they are stale)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
# what a rulebook says of a call, in one language: a template with the arguments as {a},
# {b}, {c} (``{a:dat}``: the phrase of the argument in a case), or one template per
# grammatical case (``nom``, ``acc``, ``dat``, ``gen``, ``ins``, ``prep``: the first is
# the one a plain placeholder takes), as a phrase of the rulebook catalogs
# (interpreter/documents/rulebook_messages/*.json; docs/api.md "Rulebooks")
Phrase = str | dict[str, str]
Said = dict[str, Phrase]   # by language: a rulebook catalog's code (en, de, fr, nl, ru)


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
    # what the rulebook says of a call (interpreter/documents/rulebook_words.py), in every
    # language of the rulebook catalogs: one Said per argument count, in the order of
    # ``arities`` (its catalog key: ``f.NAME``, then ``f.NAME2``, ``f.NAME3`` by the count)
    said: tuple[Said, ...] = field(kw_only=True)


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
_SIZE_SAID: tuple[Said, ...] = (
    {"en": "the number of pieces in {a}",
     "de": {"nom": "die Anzahl der Teile in {a:dat}", "acc": "die Anzahl der Teile in {a:dat}",
            "dat": "der Anzahl der Teile in {a:dat}", "gen": "der Anzahl der Teile in {a:dat}"},
     "fr": "le nombre de pièces de {a}",
     "nl": "het aantal stukken in {a}",
     "ru": {"nom": "число фишек в {a:prep}", "gen": "числа фишек в {a:prep}",
            "dat": "числу фишек в {a:prep}", "acc": "число фишек в {a:prep}",
            "ins": "числом фишек в {a:prep}", "prep": "числе фишек в {a:prep}"}},)
_EMPTY = ("`empty(x)`, `occupied(x)`", "bool", "whether a zone, cell or list has no / some elements")
_MIN_MAX = (("`min(a, b)`, `max(a, b)`", "int", "the smaller, larger of two numbers"),
            ("`min(list)`, `max(list)`", "int", "the smallest, largest number of a list (`rule/error` when empty)"))
_ANY_ALL = ("`any(list)`, `all(list)`", "bool", "on a list of `bool`")
_FIRST_LAST = ("`first(list)`, `last(list)`", "element", "the first, last element, or `none` when empty")

_TABLE = (
    Builtin("top", (1, 2), "the top item (or the top n items) of a zone or cell", _top, (
        ("`top(z)`", "item", "the top item, or `none` when `z` is empty"),
        ("`top(z, n)`", "list of items", "the top `n` items, the top one first (fewer if there are fewer)")),
        costly=True, state="always",
        said=({"en": "the top piece of {a}",
               "de": {"nom": "das oberste Teil von {a:dat}", "acc": "das oberste Teil von {a:dat}",
                      "dat": "dem obersten Teil von {a:dat}", "gen": "des obersten Teils von {a:dat}"},
               "fr": "la pièce du dessus de {a}",
               "nl": "het bovenste stuk van {a}",
               "ru": {"nom": "верхняя фишка в {a:prep}", "gen": "верхней фишки в {a:prep}",
                      "dat": "верхней фишке в {a:prep}", "acc": "верхнюю фишку в {a:prep}",
                      "ins": "верхней фишкой в {a:prep}", "prep": "верхней фишке в {a:prep}"}},
              {"en": "the top {b} pieces of {a}",
               "de": {"nom": "die obersten {b} Teile von {a:dat}",
                      "acc": "die obersten {b} Teile von {a:dat}",
                      "dat": "den obersten {b} Teilen von {a:dat}",
                      "gen": "der obersten {b} Teile von {a:dat}"},
               "fr": "les {b} pièces du dessus de {a}",
               "nl": "de bovenste {b} stukken van {a}",
               "ru": {"nom": "верхние {b} фишки в {a:prep}", "gen": "верхних {b} фишек в {a:prep}",
                      "dat": "верхним {b} фишкам в {a:prep}", "acc": "верхние {b} фишки в {a:prep}",
                      "ins": "верхними {b} фишками в {a:prep}", "prep": "верхних {b} фишках в {a:prep}"}})),
    Builtin("bottom", (1,), "the bottom item of a zone or cell", _top,
            (("`bottom(z)`", "item", "the bottom item, or `none`"),), costly=True, state="always",
        said=({"en": "the bottom piece of {a}",
               "de": {"nom": "das unterste Teil von {a:dat}", "acc": "das unterste Teil von {a:dat}",
                      "dat": "dem untersten Teil von {a:dat}", "gen": "des untersten Teils von {a:dat}"},
               "fr": "la pièce du dessous de {a}",
               "nl": "het onderste stuk van {a}",
               "ru": {"nom": "нижняя фишка в {a:prep}", "gen": "нижней фишки в {a:prep}",
                      "dat": "нижней фишке в {a:prep}", "acc": "нижнюю фишку в {a:prep}",
                      "ins": "нижней фишкой в {a:prep}", "prep": "нижней фишке в {a:prep}"}},)),
    Builtin("items", (1,), "the items of a zone or cell, bottom to top", _items,
            (("`items(z)`", "list of items", "all items, bottom to top"),), state="always",
        said=({"en": "the pieces in {a}",
               "de": {"nom": "die Teile in {a:dat}", "acc": "die Teile in {a:dat}",
                      "dat": "den Teilen in {a:dat}", "gen": "der Teile in {a:dat}"},
               "fr": "les pièces de {a}",
               "nl": "de stukken in {a}",
               "ru": {"nom": "фишки в {a:prep}", "gen": "фишек в {a:prep}", "dat": "фишкам в {a:prep}",
                      "acc": "фишки в {a:prep}", "ins": "фишками в {a:prep}", "prep": "фишках в {a:prep}"}},)),
    Builtin("size", (1,), "the number of items of a zone or cell, or elements of a list", _sized(INT),
            (_SIZE,), order="size", state="place",
        said=_SIZE_SAID),
    Builtin("len", (1,), "as size", _sized(INT), (_SIZE,), order="size", state="place",
        said=_SIZE_SAID),
    Builtin("empty", (1,), "whether a zone, cell or list has no elements", _sized(BOOL), (_EMPTY,),
            order="size", state="place",
        said=({"en": "{a} is empty",
               "de": "in {a:dat} ist nichts",
               "fr": "{a} est vide",
               "nl": "in {a} ligt niets",
               "ru": "в {a:prep} нет фишек"},)),
    Builtin("occupied", (1,), "whether a zone, cell or list has some elements", _sized(BOOL), (_EMPTY,),
            order="size", state="place",
        said=({"en": "{a} is not empty",
               "de": "in {a:dat} ist etwas",
               "fr": "{a} n'est pas vide",
               "nl": "in {a} ligt iets",
               "ru": "в {a:prep} есть фишки"},)),
    Builtin("cells", (1,), "the cells of a board, in cell order", _cells,
            (("`cells(board)`", "list of cells", "all cells of the board, in cell order"),),
        said=({"en": "the cells of {a}",
               "de": {"nom": "die Felder von {a:dat}", "acc": "die Felder von {a:dat}",
                      "dat": "den Feldern von {a:dat}", "gen": "der Felder von {a:dat}"},
               "fr": "les cases de {a}",
               "nl": "de velden van {a}",
               "ru": {"nom": "клетки поля {a:gen}", "gen": "клеток поля {a:gen}",
                      "dat": "клеткам поля {a:gen}", "acc": "клетки поля {a:gen}",
                      "ins": "клетками поля {a:gen}", "prep": "клетках поля {a:gen}"}},)),
    Builtin("cell_of", (2,), "the cell of a board an item is in, or none", _cell_of,
            (("`cell_of(item, board)`", "cell", "the cell of that board the item is in, or `none`"),),
            costly=True, state="always",
        said=({"en": "the cell of {b} where {a} lies",
               "de": {"nom": "das Feld von {b:dat}, auf dem {a} liegt",
                      "acc": "das Feld von {b:dat}, auf dem {a} liegt",
                      "dat": "dem Feld von {b:dat}, auf dem {a} liegt",
                      "gen": "des Feldes von {b:dat}, auf dem {a} liegt"},
               "fr": "la case de {b} où se trouve {a}",
               "nl": "het veld van {b} waar {a} ligt",
               "ru": {"nom": "клетка поля {b:gen}, где лежит {a}",
                      "gen": "клетки поля {b:gen}, где лежит {a}",
                      "dat": "клетке поля {b:gen}, где лежит {a}",
                      "acc": "клетку поля {b:gen}, где лежит {a}",
                      "ins": "клеткой поля {b:gen}, где лежит {a}",
                      "prep": "клетке поля {b:gen}, где лежит {a}"}},)),
    Builtin("edge", (3,), "the edge between two cells, or none", _edge, (
        ("`edge(edges, a, b)`", "cell",
         "the cell of the [edges board](#541-edges-walls-between-cells) `edges` between the cells `a` "
         "and `b`, or `none` when they share no side"),),
        said=({"en": "the side of {a} between {b} and {c}",
               "de": {"nom": "die Seite von {a:dat} zwischen {b:dat} und {c:dat}",
                      "acc": "die Seite von {a:dat} zwischen {b:dat} und {c:dat}",
                      "dat": "der Seite von {a:dat} zwischen {b:dat} und {c:dat}",
                      "gen": "der Seite von {a:dat} zwischen {b:dat} und {c:dat}"},
               "fr": "le côté de {a} entre {b} et {c}",
               "nl": "de zijde van {a} tussen {b} en {c}",
               "ru": "сторона поля {a} между {b} и {c}"},)),
    Builtin("across", (2, 3), "the cells beside a cell through its open edges", _across, (
        ("`across(edges, a)`", "list of cells",
         "the cells that share a side with `a` whose [edge](#541-edges-walls-between-cells) holds no "
         "item, in cell order; `connected(x for x in across(edges, start) if cond)` walks them"),
        ("`across(edges, a, closed)`", "list of cells",
         "the same, the edges of the list `closed` taken as closed too (a wall not yet put down)")),
        state="always",
        said=({"en": "the cells next to {b} across an open side of {a}",
               "de": {"nom": "die Nachbarfelder von {b:dat} über eine offene Seite von {a:dat}",
                      "acc": "die Nachbarfelder von {b:dat} über eine offene Seite von {a:dat}",
                      "dat": "den Nachbarfeldern von {b:dat} über eine offene Seite von {a:dat}",
                      "gen": "der Nachbarfelder von {b:dat} über eine offene Seite von {a:dat}"},
               "fr": "les cases voisines de {b} par un côté libre de {a}",
               "nl": "de buurvelden van {b} over een open zijde van {a}",
               "ru": "соседние с {b} клетки через открытую сторону поля {a}"},
              {"en": "the cells next to {b} across an open side of {a} not among {c}",
               "de": {"nom": "die Nachbarfelder von {b:dat} über eine offene Seite von {a:dat}, die nicht unter {c:dat} ist",
                      "acc": "die Nachbarfelder von {b:dat} über eine offene Seite von {a:dat}, die nicht unter {c:dat} ist",
                      "dat": "den Nachbarfeldern von {b:dat} über eine offene Seite von {a:dat}, die nicht unter {c:dat} ist",
                      "gen": "der Nachbarfelder von {b:dat} über eine offene Seite von {a:dat}, die nicht unter {c:dat} ist"},
               "fr": "les cases voisines de {b} par un côté libre de {a} qui n'est pas parmi {c}",
               "nl": "de buurvelden van {b} over een open zijde van {a} die niet bij {c} hoort",
               "ru": "соседние с {b} клетки через открытую сторону поля {a}, не входящую в {c}"})),
    Builtin("face_down", (1,), "whether an item lies face down", _face_down, (
        ("`face_down(item)`", "bool",
         "whether the item lies [face down](#69-move) (for everyone, or seen by one player)"),), state="always",
        said=({"en": "{a} lies face down",
               "de": "{a} liegt verdeckt",
               "fr": "{a} est face cachée",
               "nl": "{a} ligt gedekt",
               "ru": "{a} лежит лицом вниз"},)),
    Builtin("knows", (2,), "whether a player may see an item now", _knows, (
        ("`knows(p, item)`", "bool",
         "whether player `p` may see the item now, as their [view](#10-hidden-information) shows it: "
         "face down, only the player it lies face down for; else as its place's visibility, or "
         "[revealed](#616-reveal)"),), state="always",
        said=({"en": "{a} may see {b}",
               "de": "{a} darf {b:acc} sehen",
               "fr": "{a} peut voir {b}",
               "nl": "{a} mag {b} zien",
               "ru": "{a} может видеть {b}"},)),
    Builtin("abs", (1,), "the absolute value of a number", _of(INT, result=INT),
            (("`abs(n)`", "int", "absolute value"),),
        said=({"en": "the size of {a} (without its sign)",
               "de": {"nom": "der Betrag von {a:dat}", "acc": "den Betrag von {a:dat}",
                      "dat": "dem Betrag von {a:dat}", "gen": "des Betrags von {a:dat}"},
               "fr": "la valeur absolue de {a}",
               "nl": "de absolute waarde van {a}",
               "ru": "модуль {a}"},)),
    Builtin("min", (1, 2), "the smaller of two numbers, the smallest of a list", _min_max, _MIN_MAX,
            aggregate=True, costly=True,
        said=({"en": "the least of {a}",
               "de": {"nom": "das Kleinste von {a:dat}", "acc": "das Kleinste von {a:dat}",
                      "dat": "dem Kleinsten von {a:dat}", "gen": "des Kleinsten von {a:dat}"},
               "fr": "le plus petit de {a}",
               "nl": "de kleinste van {a}",
               "ru": "наименьшее из {a}"},
              {"en": "the lesser of {a} and {b}",
               "de": {"nom": "das Kleinere von {a:dat} und {b:dat}",
                      "acc": "das Kleinere von {a:dat} und {b:dat}",
                      "dat": "dem Kleineren von {a:dat} und {b:dat}",
                      "gen": "des Kleineren von {a:dat} und {b:dat}"},
               "fr": "le plus petit de {a} et {b}",
               "nl": "de kleinste van {a} en {b}",
               "ru": {"nom": "меньшее из {a:gen} и {b:gen}", "gen": "меньшего из {a:gen} и {b:gen}",
                      "dat": "меньшему из {a:gen} и {b:gen}", "acc": "меньшее из {a:gen} и {b:gen}",
                      "ins": "меньшим из {a:gen} и {b:gen}", "prep": "меньшем из {a:gen} и {b:gen}"}})),
    Builtin("max", (1, 2), "the larger of two numbers, the largest of a list", _min_max, _MIN_MAX,
            aggregate=True, costly=True,
        said=({"en": "the greatest of {a}",
               "de": {"nom": "das Größte von {a:dat}", "acc": "das Größte von {a:dat}",
                      "dat": "dem Größten von {a:dat}", "gen": "des Größten von {a:dat}"},
               "fr": "le plus grand de {a}",
               "nl": "de grootste van {a}",
               "ru": "наибольшее из {a}"},
              {"en": "the greater of {a} and {b}",
               "de": {"nom": "das Größere von {a:dat} und {b:dat}",
                      "acc": "das Größere von {a:dat} und {b:dat}",
                      "dat": "dem Größeren von {a:dat} und {b:dat}",
                      "gen": "des Größeren von {a:dat} und {b:dat}"},
               "fr": "le plus grand de {a} et {b}",
               "nl": "de grootste van {a} en {b}",
               "ru": {"nom": "большее из {a:gen} и {b:gen}", "gen": "большего из {a:gen} и {b:gen}",
                      "dat": "большему из {a:gen} и {b:gen}", "acc": "большее из {a:gen} и {b:gen}",
                      "ins": "большим из {a:gen} и {b:gen}", "prep": "большем из {a:gen} и {b:gen}"}})),
    Builtin("sum", (1,), "the total of a list of numbers", _of(list_of(INT), result=INT),
            (("`sum(list)`", "int", "the total of a list of numbers"),), aggregate=True, costly=True,
        said=({"en": "the sum of {a}",
               "de": {"nom": "die Summe von {a:dat}", "acc": "die Summe von {a:dat}",
                      "dat": "der Summe von {a:dat}", "gen": "der Summe von {a:dat}"},
               "fr": "la somme de {a}",
               "nl": "de som van {a}",
               "ru": {"nom": "сумма {a:gen}", "gen": "суммы {a:gen}", "dat": "сумме {a:gen}",
                      "acc": "сумму {a:gen}", "ins": "суммой {a:gen}", "prep": "сумме {a:gen}"}},)),
    Builtin("count", (1,), "the length of a list", _count,
            (("`count(list)`", "int", "the length of a list"),), aggregate=True,
        said=({"en": "the number of {a}",
               "de": {"nom": "die Anzahl von {a:dat}", "acc": "die Anzahl von {a:dat}",
                      "dat": "der Anzahl von {a:dat}", "gen": "der Anzahl von {a:dat}"},
               "fr": "le nombre de {a}",
               "nl": "het aantal van {a}",
               "ru": {"nom": "количество {a:gen}", "gen": "количества {a:gen}", "dat": "количеству {a:gen}",
                      "acc": "количество {a:gen}", "ins": "количеством {a:gen}",
                      "prep": "количестве {a:gen}"}},)),
    Builtin("any", (1,), "whether some bool of a list is true", _of(list_of(BOOL), result=BOOL),
            (_ANY_ALL,), aggregate=True,
        said=({"en": "some of {a} holds",
               "de": "etwas von {a:dat} gilt",
               "fr": "l'un de {a} est vrai",
               "nl": "een van {a} geldt",
               "ru": "хотя бы одно из {a} верно"},)),
    Builtin("all", (1,), "whether every bool of a list is true", _of(list_of(BOOL), result=BOOL),
            (_ANY_ALL,), aggregate=True,
        said=({"en": "all of {a} hold",
               "de": "alles von {a:dat} gilt",
               "fr": "tous de {a} sont vrais",
               "nl": "alle van {a} gelden",
               "ru": "все из {a} верны"},)),
    Builtin("first", (1,), "the first element of a list, or none", _element, (_FIRST_LAST,),
            aggregate=True, costly=True,
        said=({"en": "the first of {a}",
               "de": {"nom": "das Erste von {a:dat}", "acc": "das Erste von {a:dat}",
                      "dat": "dem Ersten von {a:dat}", "gen": "des Ersten von {a:dat}"},
               "fr": "le premier de {a}",
               "nl": "de eerste van {a}",
               "ru": "первый из {a}"},)),
    Builtin("last", (1,), "the last element of a list, or none", _element, (_FIRST_LAST,),
            aggregate=True, costly=True,
        said=({"en": "the last of {a}",
               "de": {"nom": "das Letzte von {a:dat}", "acc": "das Letzte von {a:dat}",
                      "dat": "dem Letzten von {a:dat}", "gen": "des Letzten von {a:dat}"},
               "fr": "le dernier de {a}",
               "nl": "de laatste van {a}",
               "ru": "последний из {a}"},)),
    Builtin("subsets", (1,), "every non-empty subset of a list, smallest first", _subsets, (
        ("`subsets(list)`", "list of lists",
         "every non-empty subset, smallest first, each in list order (at most 16 elements)"),),
        said=({"en": "every group of one or more of {a}",
               "de": {"nom": "jede Gruppe aus einem oder mehr von {a:dat}",
                      "acc": "jede Gruppe aus einem oder mehr von {a:dat}",
                      "dat": "jeder Gruppe aus einem oder mehr von {a:dat}",
                      "gen": "jeder Gruppe aus einem oder mehr von {a:dat}"},
               "fr": "chaque groupe d'un ou plusieurs de {a}",
               "nl": "elke groep van een of meer van {a}",
               "ru": "каждая группа из одного или нескольких из {a}"},)),
    Builtin("sort", (1,), "a list sorted in the order of options", _same_list, (
        ("`sort(list)`", "list", ("sorted in the [order of options](#92-the-order-of-the-options): enum "
                                  "values in declaration order, lists by size then element by element")),),
        said=({"en": "{a}, in order",
               "de": {"nom": "{a}, geordnet", "acc": "{a:acc}, geordnet", "dat": "{a:dat}, geordnet",
                      "gen": "{a:gen}, geordnet"},
               "fr": "{a}, dans l'ordre",
               "nl": "{a}, op volgorde",
               "ru": "{a} по порядку"},)),
    Builtin("reverse", (1,), "a list backwards", _same_list,
            (("`reverse(list)`", "list", "the list backwards"),),
        said=({"en": "{a}, in reverse order",
               "de": {"nom": "{a}, rückwärts", "acc": "{a:acc}, rückwärts", "dat": "{a:dat}, rückwärts",
                      "gen": "{a:gen}, rückwärts"},
               "fr": "{a}, à l'envers",
               "nl": "{a}, achterstevoren",
               "ru": "{a} в обратном порядке"},)),
    Builtin("replace_at", (3,), "a list with one element replaced", _replace_at, (
        ("`replace_at(list, i, x)`", "list",
         ("the list with element `i` (from 0) replaced by `x` (an index outside the list is a "
          "`rule/error`); `xs[i] = x` sets a list variable to it ([6.1.1](#611-setting-an-element-of-a-list))")),),
        said=({"en": "{a} with entry {b} (counting from 0) replaced by {c}",
               "de": "{a}, mit Eintrag {b} (ab 0 gezählt) ersetzt durch {c}",
               "fr": "{a}, l'élément {b} (compté à partir de 0) remplacé par {c}",
               "nl": "{a}, met element {b} (geteld vanaf 0) vervangen door {c}",
               "ru": "{a}, где элемент {b} (считая с 0) заменён на {c}"},)),
    Builtin("distinct", (1,), "a list without repeated elements", _same_list,
            (("`distinct(list)`", "list", "without repeated elements, keeping the first of each"),),
            order="elements",
        said=({"en": "{a}, each once",
               "de": {"nom": "{a}, jedes einmal", "acc": "{a:acc}, jedes einmal",
                      "dat": "{a:dat}, jedes einmal", "gen": "{a:gen}, jedes einmal"},
               "fr": "{a}, chacun une fois",
               "nl": "{a}, elk één keer",
               "ru": "{a}, каждый один раз"},)),
    Builtin("player_count", (0,), "the number of players in this game", _of(result=INT),
            (("`player_count()`", "int", "the number of players in this game"),),
        said=({"en": "the number of players",
               "de": {"nom": "die Anzahl der Spieler", "acc": "die Anzahl der Spieler",
                      "dat": "der Anzahl der Spieler", "gen": "der Anzahl der Spieler"},
               "fr": "le nombre de joueurs",
               "nl": "het aantal spelers",
               "ru": {"nom": "число игроков", "gen": "числа игроков", "dat": "числу игроков",
                      "acc": "число игроков", "ins": "числом игроков", "prep": "числе игроков"}},)),
    Builtin("next_player", (1,), "the player after p in the order of play", _of(PLAYER, result=PLAYER),
            (("`next_player(p)`", "player", "the player after `p` in the order of play"),),
        said=({"en": "the player after {a}",
               "de": {"nom": "der Spieler nach {a:dat}", "acc": "den Spieler nach {a:dat}",
                      "dat": "dem Spieler nach {a:dat}", "gen": "des Spielers nach {a:dat}"},
               "fr": "le joueur après {a}",
               "nl": "de speler na {a}",
               "ru": {"nom": "игрок после {a:gen}", "gen": "игрока после {a:gen}",
                      "dat": "игроку после {a:gen}", "acc": "игрока после {a:gen}",
                      "ins": "игроком после {a:gen}", "prep": "игроке после {a:gen}"}},)),
    Builtin("previous_player", (1,), "the player before p in the order of play", _of(PLAYER, result=PLAYER),
            (("`previous_player(p)`", "player", "the player before `p`"),),
        said=({"en": "the player before {a}",
               "de": {"nom": "der Spieler vor {a:dat}", "acc": "den Spieler vor {a:dat}",
                      "dat": "dem Spieler vor {a:dat}", "gen": "des Spielers vor {a:dat}"},
               "fr": "le joueur avant {a}",
               "nl": "de speler voor {a}",
               "ru": {"nom": "игрок перед {a:ins}", "gen": "игрока перед {a:ins}",
                      "dat": "игроку перед {a:ins}", "acc": "игрока перед {a:ins}",
                      "ins": "игроком перед {a:ins}", "prep": "игроке перед {a:ins}"}},)),
    Builtin("seat", (1,), "the seat number of a player, from 1", _of(PLAYER, result=INT),
            (("`seat(p)`", "int", "the seat number of `p`, from 1"),),
        said=({"en": "the seat of {a}",
               "de": {"nom": "der Platz von {a:dat}", "acc": "den Platz von {a:dat}",
                      "dat": "dem Platz von {a:dat}", "gen": "des Platzes von {a:dat}"},
               "fr": "la place de {a}",
               "nl": "de plaats van {a}",
               "ru": {"nom": "место {a:gen}", "gen": "места {a:gen}", "dat": "месту {a:gen}",
                      "acc": "место {a:gen}", "ins": "местом {a:gen}", "prep": "месте {a:gen}"}},)),
    Builtin("owner", (1,), "the player a per-player zone belongs to", _owner, (
        ("`owner(z)`", "player", "the player a per-player zone belongs to (`none` for a shared zone)"),),
        said=({"en": "the owner of {a}",
               "de": {"nom": "der Besitzer von {a:dat}", "acc": "den Besitzer von {a:dat}",
                      "dat": "dem Besitzer von {a:dat}", "gen": "des Besitzers von {a:dat}"},
               "fr": "le propriétaire de {a}",
               "nl": "de eigenaar van {a}",
               "ru": {"nom": "владелец {a:gen}", "gen": "владельца {a:gen}", "dat": "владельцу {a:gen}",
                      "acc": "владельца {a:gen}", "ins": "владельцем {a:gen}", "prep": "владельце {a:gen}"}},)),
    Builtin("turn_number", (0,), "how many turns have been completed", _of(result=INT), (
        ("`turn_number()`", "int", "how many turns have been completed (0 during the setup and the first turn)"),), state="always",
        said=({"en": "the number of turns played",
               "de": {"nom": "die Anzahl der gespielten Züge", "acc": "die Anzahl der gespielten Züge",
                      "dat": "der Anzahl der gespielten Züge", "gen": "der Anzahl der gespielten Züge"},
               "fr": "le nombre de tours joués",
               "nl": "het aantal gespeelde beurten",
               "ru": {"nom": "число сыгранных ходов", "gen": "числа сыгранных ходов",
                      "dat": "числу сыгранных ходов", "acc": "число сыгранных ходов",
                      "ins": "числом сыгранных ходов", "prep": "числе сыгранных ходов"}},)),
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
