"""The typed IR of the Meeple language: one small pydantic class per construct.

Every node carries a ``span`` (file, line, column) taken from Lark's positions.
Nodes are grouped into discriminated unions by category (``Expr``, ``Stmt``,
``Decl``) on the ``node`` field, so the whole IR exports to JSON and validates
against the schema committed in ``docs/schema/ir.schema.json``.
"""
from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field


class Span(BaseModel):
    """Where a node starts in its source file (1-based line and column)."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    file: str = "<string>"
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    span: Span = Field(default_factory=Span)


# ---------------------------------------------------------------- types

class TypeRef(Node):
    """A type written in the source: ``int``, ``Card``, ``table`` (a cell of that
    board), ``player``, ``zone``, ``list of T``, or a tuple's ``(T1, T2, ...)``."""

    node: Literal["TypeRef"] = "TypeRef"
    name: str
    item: TypeRef | None = None  # element type when name == "list"
    parts: list[TypeRef] = []  # the parts' types when name == "tuple" (two or more)


# ---------------------------------------------------------------- expressions

class IntLit(Node):
    """An integer literal: ``42``."""
    node: Literal["IntLit"] = "IntLit"
    value: int


class StrLit(Node):
    """A string literal: ``"hello"``."""
    node: Literal["StrLit"] = "StrLit"
    value: str


class BoolLit(Node):
    """``true`` or ``false``."""
    node: Literal["BoolLit"] = "BoolLit"
    value: bool


class NoneLit(Node):
    """``none``: no item, no cell."""
    node: Literal["NoneLit"] = "NoneLit"


class Var(Node):
    """A name: a local, a parameter, a global variable, an enum value, a zone, a board,
    or a built-in constant such as ``active`` and ``players``."""
    node: Literal["Var"] = "Var"
    name: str


class Attr(Node):
    """``obj.name``: an item's attribute or a cell's coordinate."""
    node: Literal["Attr"] = "Attr"
    obj: Expr
    name: str


class Index(Node):
    """``xs[i]``: the i-th element (0-based) of a list."""
    node: Literal["Index"] = "Index"
    obj: Expr
    index: Expr


class Call(Node):
    """``f(a, b)``: a built-in, a user function or relation, a per-player zone or
    per-player variable applied to a player."""
    node: Literal["Call"] = "Call"
    func: str
    args: list[Expr] = []


class ForClause(Node):
    """``for x in xs`` inside a comprehension, an aggregate or a deck entry."""
    node: Literal["ForClause"] = "ForClause"
    var: str
    iter: Expr


class Comprehension(Node):
    """``[e for x in xs if cond]``: a list built from one or more for clauses."""
    node: Literal["Comprehension"] = "Comprehension"
    elem: Expr
    clauses: list[ForClause]
    cond: Expr | None = None


class Aggregate(Node):
    """``sum(e for x in xs if cond)``: a built-in applied to a comprehension."""
    node: Literal["Aggregate"] = "Aggregate"
    func: str
    comp: Comprehension


class ListLit(Node):
    """``[a, b, c]``."""
    node: Literal["ListLit"] = "ListLit"
    items: list[Expr] = []


class TupleLit(Node):
    """``(a, b, c)``: a tuple, a fixed number of values of any types (each part its own),
    such as a move made of a cell and a turn. A part is read by a constant index
    (``t[1]``) or by ``choose (c, q) from ...``."""
    node: Literal["TupleLit"] = "TupleLit"
    items: list[Expr]


class BinOp(Node):
    """Arithmetic, comparison, membership, ``and``/``or`` and ranges (``a..b``)."""
    node: Literal["BinOp"] = "BinOp"
    op: str
    left: Expr
    right: Expr


class UnOp(Node):
    """``not x`` and ``-x``."""
    node: Literal["UnOp"] = "UnOp"
    op: str
    operand: Expr


class CondExpr(Node):
    """``if c then a else b``."""
    node: Literal["CondExpr"] = "CondExpr"
    cond: Expr
    then: Expr
    other: Expr


class CellAt(Node):
    """``cell(board, row: 2, col: 3)``, ``cell(board, name: "ford")``: the cell of a board
    with these coordinates (or name); ``none`` when the board has no such cell."""
    node: Literal["CellAt"] = "CellAt"
    board: Expr
    coords: list[NamedArg]


class Ray(Node):
    """``ray(start, file: 1, rank: -1)``: the cells met stepping from ``start`` by these
    changes of its coordinates, ``start`` left out, up to the edge of the board."""
    node: Literal["Ray"] = "Ray"
    start: Expr
    steps: list[NamedArg]


Expr = Annotated[
    IntLit | StrLit | BoolLit | NoneLit | Var | Attr | Index | Call | Comprehension | Aggregate | ListLit | TupleLit | BinOp | UnOp | CondExpr | CellAt | Ray,
    Field(discriminator="node"),
]


# ---------------------------------------------------------------- statements

class Block(Node):
    """``{ statements }``."""
    node: Literal["Block"] = "Block"
    stmts: list[Stmt] = []


class Let(Node):
    """``let x = e``: a new local variable; ``let x: T = e`` declares its type."""
    node: Literal["Let"] = "Let"
    var: str
    type: TypeRef | None = None  # the declared type, when written
    value: Expr


class Assign(Node):
    """``x = e`` (a local or global variable, or ``active``), ``score(p) = e`` (a
    per-player variable)."""
    node: Literal["Assign"] = "Assign"
    var: str
    player: Expr | None = None
    value: Expr


class AttrAssign(Node):
    """``w.wounds = e``: sets an item variable of the item held by a variable;
    ``top(c).wounds = e``: of the item an expression gives (``obj``; ``var`` is "")."""
    node: Literal["AttrAssign"] = "AttrAssign"
    var: str
    attr: str
    value: Expr
    obj: Expr | None = None


class IndexAssign(Node):
    """``xs[i] = e``, ``grid[r][c] = e``, ``v(p)[i] = e``, ``u.marks[i] = e``: sets an
    element of a list held by a place (``target``: a variable, a per-player variable
    ``v(p)`` or an item variable ``u.marks``), one index per ``[...]`` (``indices``).
    Lists are values: the place gets a new list, the element replaced (the checker
    writes it as an ``Assign`` or an ``AttrAssign`` of ``replace_at(...)``:
    ``Checked.assigns``)."""
    node: Literal["IndexAssign"] = "IndexAssign"
    target: Expr
    indices: list[Expr]
    value: Expr


class If(Node):
    """``if c { } elif c { } else { }``."""
    node: Literal["If"] = "If"
    branches: list[tuple[Expr, Block]]
    other: Block | None = None


class For(Node):
    """``for x in xs { }``: bounded by the length of the list."""
    node: Literal["For"] = "For"
    var: str
    iter: Expr
    body: Block


class While(Node):
    """``while c max N { }``: a loop that may run at most N times."""
    node: Literal["While"] = "While"
    cond: Expr
    limit: int
    body: Block


class Choose(Node):
    """``choose x from options [by player] [as "verb" [or "verb2"]]``: a player decision,
    one move. With ``or "verb2"`` one more move, written as that verb alone, sets ``x``
    to ``none`` (it is offered even when the list is empty); ``more``: the verbs of
    further such moves (``or "draw" or "pass"``). ``said`` (``choose x, how from ...``):
    a local text set to the verb of the move made. ``when``: where a verb without an
    object is offered under a condition (``or "draw" when can_draw``), the condition of
    each (``alone``, then ``more``; None: always offered), else empty."""
    node: Literal["Choose"] = "Choose"
    var: str
    options: Expr
    chooser: Expr | None = None
    verb: str | None = None
    alone: str | None = None
    more: list[str] = []
    said: str | None = None
    # ``choose (c, q, d) from ...``: the options are tuples, each part given to the local
    # of the same place (``_`` for none); ``var`` is then a hidden local holding the tuple,
    # named after the statement (``$(c,q,d)@12:3``: its line and column)
    parts: list[str] | None = None
    when: list[Expr | None] = []


class ChooseEach(Node):
    """``choose v(p) from options for each p in seats [as "verb"]``: a simultaneous
    decision. Each seat of ``seats`` chooses in secret from ``options`` (evaluated with
    ``p`` as that seat), one move each, in any order; once all have chosen, every choice
    is written at once into the per-player variable ``v``. With ``picks`` (``choose 3
    v(p) from ...``), each seat picks that many distinct options, one move each, from its
    options computed once (less its own earlier picks), and ``v`` (a list per player)
    gets them in the order picked."""
    node: Literal["ChooseEach"] = "ChooseEach"
    var: str
    arg: str
    options: Expr
    each: str
    seats: Expr
    verb: str | None = None
    picks: int | None = None


class ChooseSubset(Node):
    """``choose xs subset of options [where cond] [by player] [as "verb"]``: a
    non-empty subset satisfying ``cond`` (in which ``xs`` names the subset)."""
    node: Literal["ChooseSubset"] = "ChooseSubset"
    var: str
    options: Expr
    where: Expr | None = None
    chooser: Expr | None = None
    verb: str | None = None


class Best(Node):
    """``best x in xs by k1, k2 [tie choose|first|random [by p]]``: the element with
    the highest keys; a remaining tie is settled by the tie rule."""
    node: Literal["Best"] = "Best"
    var: str
    options: Expr
    keys: list[Expr]
    tie: str = "choose"
    chooser: Expr | None = None


class Move(Node):
    """``move what to where [face down [for p]]``: an item or a list of items onto a zone
    or cell (on top). Face down: nobody (or only ``p``) sees the items there, whatever the
    place's visibility, until they move again or are flipped face up."""
    node: Literal["Move"] = "Move"
    what: Expr
    to: Expr
    facing: str | None = None  # None (as the place says), "up", "down"
    seen_by: Expr | None = None


class Flip(Node):
    """``flip what face up`` / ``flip what face down [for p]``: turns items where they lie."""
    node: Literal["Flip"] = "Flip"
    what: Expr
    facing: str
    seen_by: Expr | None = None


class Shuffle(Node):
    """``shuffle zone``: a random order from the game's generator."""
    node: Literal["Shuffle"] = "Shuffle"
    zone: Expr


class Deal(Node):
    """``deal N from pile to perzone`` / ``deal all from pile to perzone``: one card at a
    time round the table, starting with the active player."""
    node: Literal["Deal"] = "Deal"
    count: int | None = None  # None: all
    source: Expr
    to: str


class Fill(Node):
    """``fill board from pile``: the top item of the pile into each empty cell, in
    cell order."""
    node: Literal["Fill"] = "Fill"
    board: str
    source: Expr


class PickRandom(Node):
    """``pick x at random from xs``."""
    node: Literal["PickRandom"] = "PickRandom"
    var: str
    options: Expr


class Roll(Node):
    """``roll x from 1..6`` / ``roll a, b from faces``: each name gets a value of the
    list (a die's faces), each face equally likely; the dice are independent."""
    node: Literal["Roll"] = "Roll"
    vars: list[str]
    faces: Expr


class Log(Node):
    """``log key "text {expr}"``: a message to the players (localisable by key)."""
    node: Literal["Log"] = "Log"
    key: str
    template: str


class CallProc(Node):
    """``call proc(args)``: runs a procedure."""
    node: Literal["CallProc"] = "CallProc"
    proc: str
    args: list[Expr] = []


class Return(Node):
    """``return value``: ends the procedure and gives its caller the value (a procedure
    declared with a result type); a bare ``return`` just ends the procedure."""
    node: Literal["Return"] = "Return"
    value: Expr | None = None


class CallResult(Node):
    """``let v = call proc(args)`` (``new``), ``v = call proc(args)``, ``points(p) = call
    proc(args)``: runs a procedure, which may ask for decisions, and keeps what it returns."""
    node: Literal["CallResult"] = "CallResult"
    var: str
    player: Expr | None = None
    new: bool = False
    proc: str
    args: list[Expr] = []


class Reveal(Node):
    """``reveal zone``: the zone (or cell) is public from now on."""
    node: Literal["Reveal"] = "Reveal"
    zone: Expr


class RevealTo(Node):
    """``reveal what to p``: the item(s) become known to player p too, wherever they lie
    (they lie face down for the players who knew them and p, until they move or are
    flipped)."""
    node: Literal["RevealTo"] = "RevealTo"
    what: Expr
    to: Expr


class EndGame(Node):
    """``end game``: the game ends now; scores are computed."""
    node: Literal["EndGame"] = "EndGame"


class MadeValue(Node):
    """``var = value`` of a ``make ... with``: an item variable of the item made."""
    node: Literal["MadeValue"] = "MadeValue"
    var: str
    value: Expr


class Make(Node):
    """``make Kind at place [face ...] [with v = e, ...]``: the top item of the kind's
    supply onto the place, its item variables at their declared values but those given."""
    node: Literal["Make"] = "Make"
    kind: str
    to: Expr
    facing: str | None = None
    seen_by: Expr | None = None
    values: list[MadeValue] = []


class RemoveItem(Node):
    """``remove item`` (or a list of items): back on top of its kind's supply."""
    node: Literal["RemoveItem"] = "RemoveItem"
    what: Expr


class Permute(Node):
    """``permute places to places``: at once, the items of each place of the first list
    onto the place at the same index of the second."""
    node: Literal["Permute"] = "Permute"
    what: Expr
    to: Expr


Stmt = Annotated[
    Let | Assign | AttrAssign | IndexAssign | If | For | While | Choose | ChooseEach | ChooseSubset | Best | Move | Flip | Shuffle | Deal | Fill | PickRandom | Roll | Log | CallProc | EndGame | Reveal | RevealTo | Return | CallResult | Make | RemoveItem | Permute,
    Field(discriminator="node"),
]

_EXPR_KINDS = get_args(get_args(Expr)[0])   # (the classes of ``Expr``'s union)

EXPRESSIONS: tuple[str, ...] = tuple(c.__name__ for c in _EXPR_KINDS)
"""The kinds of expression: the nodes that have a value."""

CLAUSED: tuple[str, ...] = tuple(c.__name__ for c in _EXPR_KINDS if {"clauses", "comp"} & set(c.model_fields))
"""The expressions with clauses (``for x in xs``): a comprehension, an aggregate of one."""

LOOPS: tuple[str, ...] = (*CLAUSED, "Ray")
"""The expressions that loop: over lists (those with clauses) or along a ray
(tests/test_construct_lists.py: a new kind of expression is decided there)."""

LITERALS: tuple[str, ...] = tuple(c.__name__ for c in _EXPR_KINDS
                                  if c.__name__.endswith("Lit") and set(c.model_fields) <= {"node", "span", "value"})
"""The expressions that are a value written out: a number, a text, true or false, none."""

DECIDING: tuple[str, ...] = tuple(c.__name__ for c in get_args(get_args(Stmt)[0]) if "verb" in c.model_fields)
"""The statements that ask a player to decide (``choose``, ``choose ... for each``,
``choose ... subset``): those whose moves may be named by a verb (``as "play"``)."""


# ---------------------------------------------------------------- declarations

class NamedArg(Node):
    node: Literal["NamedArg"] = "NamedArg"
    name: str
    value: Expr


class Param(Node):
    node: Literal["Param"] = "Param"
    name: str
    type: TypeRef


class Title(Node):
    """``title "Name"``."""
    node: Literal["Title"] = "Title"
    text: str


class Language(Node):
    """``language "Nederlands"`` (locales)."""
    node: Literal["Language"] = "Language"
    text: str


class Players(Node):
    """``players 2..4``, ``players 3..6 default 4``."""
    node: Literal["Players"] = "Players"
    min: int
    max: int
    default: int | None = None   # the usual count, when the ruleset says one


class Order(Node):
    """``order clockwise`` or ``order counterclockwise``."""
    node: Literal["Order"] = "Order"
    direction: str


class EnumDecl(Node):
    """``enum Suit { a, b, c }``."""
    node: Literal["EnumDecl"] = "EnumDecl"
    name: str
    values: list[str]


class FieldDecl(Node):
    """An attribute of a kind: fixed (``value: int``, set by the deck) or a variable of
    each item (``var wounds: int = 0``), which rules may change."""
    node: Literal["FieldDecl"] = "FieldDecl"
    name: str
    type: TypeRef
    var: bool = False
    init: Expr | None = None


class KindDecl(Node):
    """``kind Card { suit: Suit, value: int }``."""
    node: Literal["KindDecl"] = "KindDecl"
    name: str
    fields: list[FieldDecl] = []


class CellDef(Node):
    node: Literal["CellDef"] = "CellDef"
    name: str
    coords: list[NamedArg] = []


class BoardDecl(Node):
    """``board b: triangle(rows: 8) holds Card`` or ``board b: cells { a(x: 1) ... }``."""
    node: Literal["BoardDecl"] = "BoardDecl"
    name: str
    generator: str | None = None
    args: list[NamedArg] = []
    cells: list[CellDef] = []
    holds: TypeRef
    visibility: str = "public"
    # ``drawn at (X, Y)``: where each cell is drawn, two expressions over the cells'
    # coordinates; empty: the generator's places, or a listed cell's ``x`` and ``y``
    drawn: list[Expr] = []
    # ``named "{col:a}{row}"`` of a generated board: how its cells are named, from their
    # coordinates; None: the generator's names
    named: StrLit | None = None
    # ``holds K hidden dark``: a seat's view of a cell lists only the items it may see
    # (no count, no place for the others: see docs/language.md, Secret positions);
    # None (not False) otherwise, which the IR's printer leaves out
    dark: bool | None = None


class ZoneDecl(Node):
    """``zone hand: Card per player owner``."""
    node: Literal["ZoneDecl"] = "ZoneDecl"
    name: str
    holds: TypeRef
    per_player: bool = False
    visibility: str = "public"
    # ``dark``: a seat's view lists only the items of the zone it may see (no count);
    # None otherwise
    dark: bool | None = None


class DeckEntry(Node):
    node: Literal["DeckEntry"] = "DeckEntry"
    count: int = 1
    kind: str
    args: list[NamedArg] = []
    clauses: list[ForClause] = []


class SupplyDecl(Node):
    """``supply name: N of Kind(attr: e)``: the zone ``name`` (shared, hidden) and the
    deck of N items put there when a game starts; ``make`` draws from it."""
    node: Literal["SupplyDecl"] = "SupplyDecl"
    name: str
    entry: DeckEntry


class DeckDecl(Node):
    """``deck name into zone { [N of] Kind(attr: e) for x in xs ... }``."""
    node: Literal["DeckDecl"] = "DeckDecl"
    name: str
    into: str
    entries: list[DeckEntry]


class VarDecl(Node):
    """``var passes: int = 0`` or ``var gold: int per player = 3``; ``var die: int per
    player owner = 0``: only its owner sees a seat's value (``hidden``: nobody)."""
    node: Literal["VarDecl"] = "VarDecl"
    name: str
    type: TypeRef
    per_player: bool = False
    visibility: str | None = None  # "public" (None), "owner" or "hidden"
    init: Expr


class ConstDecl(Node):
    """``const scores: list of int = [...]``: a value computed once per number of players,
    before any game, from what is known then (the player count, boards, relations, the
    functions of those); reading it counts nothing."""
    node: Literal["ConstDecl"] = "ConstDecl"
    name: str
    type: TypeRef
    value: Expr


class RelationDecl(Node):
    """``relation beside(a: b, c: b) = expr``: precomputed between cells of boards."""
    node: Literal["RelationDecl"] = "RelationDecl"
    name: str
    params: list[Param]
    body: Expr


class FunctionDecl(Node):
    """``function f(x: T): R = expr``: a pure function."""
    node: Literal["FunctionDecl"] = "FunctionDecl"
    name: str
    params: list[Param] = []
    result: TypeRef
    body: Expr


class ProcedureDecl(Node):
    """``procedure p(x: T) { statements }``: may contain player decisions. With a result
    type (``procedure p(x: T): R { ... return e }``) it gives a value to its caller."""
    node: Literal["ProcedureDecl"] = "ProcedureDecl"
    name: str
    params: list[Param] = []
    body: Block
    result: TypeRef | None = None


class SetupDecl(Node):
    """``setup { statements }``: runs once when a game starts."""
    node: Literal["SetupDecl"] = "SetupDecl"
    body: Block


class TurnDecl(Node):
    """``turn { statements }``: runs for the active player, then play passes on."""
    node: Literal["TurnDecl"] = "TurnDecl"
    body: Block


class EndDecl(Node):
    """``end when cond``: checked after every turn."""
    node: Literal["EndDecl"] = "EndDecl"
    cond: Expr


class AtEndDecl(Node):
    """``at end { statements }``: runs once when the game ends, before scoring."""
    node: Literal["AtEndDecl"] = "AtEndDecl"
    body: Block


class ScoreDecl(Node):
    """``score(p) = expr``."""
    node: Literal["ScoreDecl"] = "ScoreDecl"
    param: str
    body: Expr


class PayoffDecl(Node):
    """``payoff(p) = expr [per D] [summing to N]``: each seat's payoff when the game ends
    (its return to a learning agent), or ``payoff = expr``: one payoff every seat shares
    (a cooperative game). ``per`` is how many parts of one the expression counts (``per
    6``: the payoff is the expression's sixths, exactly; None: whole numbers). ``total``
    is the sum every game's payoffs declare (``summing to N``, in whole numbers), checked
    when each game ends."""
    node: Literal["PayoffDecl"] = "PayoffDecl"
    param: str | None = None
    body: Expr
    per: int | None = None
    total: int | None = None


class HeuristicDecl(Node):
    """``heuristic(p) = expr``: how good the position is for player ``p`` (higher is
    better), a hint for computer players; it never changes how the game is played."""
    node: Literal["HeuristicDecl"] = "HeuristicDecl"
    param: str
    body: Expr


class AliasDecl(Node):
    """``alias "verb"(m) = expr``: other texts a player may type for the move ``m`` of a
    decision with this verb (``verb`` None: the decisions without one), as well as its
    notation: a ``str`` or a ``list of str``, computed in the position of the decision.
    It never changes the game, nor a record (which keeps the notation)."""
    node: Literal["AliasDecl"] = "AliasDecl"
    verb: str | None = None
    param: str
    body: Expr


class TiebreakDecl(Node):
    """``tiebreak name(p) = expr``: applied in order of declaration."""
    node: Literal["TiebreakDecl"] = "TiebreakDecl"
    name: str
    param: str
    body: Expr


class OutcomeClause(Node):
    """``win when cond`` / ``loss otherwise`` (``cond`` is None for ``otherwise``)."""
    node: Literal["OutcomeClause"] = "OutcomeClause"
    outcome: str  # win | draw | loss
    cond: Expr | None = None


class OutcomeDecl(Node):
    """``outcome(p) { win when ... draw when ... loss otherwise }``: each player's
    outcome, the first clause that holds."""
    node: Literal["OutcomeDecl"] = "OutcomeDecl"
    param: str
    rank: str | None = None  # ``outcome(p, place)``: the name bound to the player's rank
    clauses: list[OutcomeClause]


class TeamDecl(Node):
    """``team(p) = expr``: players with equal values play together."""
    node: Literal["TeamDecl"] = "TeamDecl"
    param: str
    body: Expr


class ParticipantDecl(Node):
    """``participant name [score = expr]``: someone who takes part by the rules (a
    dealer, a bank) without being a seat: never asked, never ranked."""
    node: Literal["ParticipantDecl"] = "ParticipantDecl"
    name: str
    score: Expr | None = None


class InvariantDecl(Node):
    """``invariant name [always|after setup|at turn end|at end]: cond``: a condition
    that ``meeple test`` checks at that moment of every game it plays."""
    node: Literal["InvariantDecl"] = "InvariantDecl"
    name: str
    moment: str = "always"
    cond: Expr


class BoundDecl(Node):
    """``bound N turns`` / ``bound N moves``: every game ends within this; with ``or
    endless``, a game may also go on for ever (``meeple test`` stops it there)."""
    node: Literal["BoundDecl"] = "BoundDecl"
    count: int
    unit: str
    endless: bool = False


class SecretDecl(Node):
    """``secret zone [until end]``: what lies there never reaches another player's view
    (for a per-player zone: anyone but its owner; for a shared one: anyone) — while the
    game runs, or for ever."""
    node: Literal["SecretDecl"] = "SecretDecl"
    zone: str
    until_end: bool = False


# a name's grammatical genders (masculine, feminine, neuter, common as Dutch "de" words,
# a plural noun) and cases (nominative, accusative, dative, genitive, instrumental,
# prepositional), as ``name`` declarations write them
GENDERS = ("m", "f", "n", "c", "pl")
CASES = ("nom", "acc", "dat", "gen", "ins", "prep")


class NameForm(Node):
    """``gen: "Nachziehstapels"``: a name's form in one grammatical case (a rulebook's
    sentences put it where that case is needed)."""
    node: Literal["NameForm"] = "NameForm"
    case: str
    text: str


class NameDecl(Node):
    """``name Path "full name" ["short"] [gender] [{case: "form", ...}]``: what players
    see for a declared name; its grammatical gender (``m``, ``f``, ``n``, ``c``, ``pl``)
    and its forms by case are for the rulebook's sentences (articles, declension)."""
    node: Literal["NameDecl"] = "NameDecl"
    path: str
    text: str
    short: str | None = None
    gender: str | None = None
    gender_span: Span | None = None     # where the gender is written (for its errors)
    forms: list[NameForm] = []


class OffscreenDecl(Node):
    """``offscreen NAME``: a variable, zone or board the screens do not draw (book-keeping;
    it stays in the state, the views and the API: this is not a secret)."""
    node: Literal["OffscreenDecl"] = "OffscreenDecl"
    name: str


class ProseDecl(Node):
    """``prose KEY "text"``: what the rulebook says to players about one rule, in the
    file's language: KEY is ``overview``, ``setup``, ``turn``, ``end``, ``score``,
    ``procedure.NAME``, ``action.VERB`` or ``variant.NAME``."""
    node: Literal["ProseDecl"] = "ProseDecl"
    key: str
    text: str


class TextDecl(Node):
    """``text key "template"``: a message or prompt text."""
    node: Literal["TextDecl"] = "TextDecl"
    key: str
    text: str


class LabelDecl(Node):
    """``label Kind "template" ["short template"]``: how an item is written."""
    node: Literal["LabelDecl"] = "LabelDecl"
    kind: str
    template: str
    short: str | None = None


class ColorDecl(Node):
    """``color Enum.value colour``."""
    node: Literal["ColorDecl"] = "ColorDecl"
    path: str
    color: str


class KindColorDecl(Node):
    """``color Kind by attribute``: an item takes the colour of an attribute's value."""
    node: Literal["KindColorDecl"] = "KindColorDecl"
    kind: str
    attr: str


class Replace(Node):
    """``replace <declaration>`` in a variant or locale."""
    node: Literal["Replace"] = "Replace"
    decl: Decl


class Extend(Node):
    """``extend setup|turn|procedure NAME { statements }``: appends statements."""
    node: Literal["Extend"] = "Extend"
    target: str
    name: str | None = None
    body: Block


class Remove(Node):
    """``remove zone|deck|var|... NAME``."""
    node: Literal["Remove"] = "Remove"
    what: str
    name: str


Decl = Annotated[
    Title | Language | Players | Order | EnumDecl | KindDecl | BoardDecl | ZoneDecl | DeckDecl | VarDecl | ConstDecl | RelationDecl | FunctionDecl | ProcedureDecl | SetupDecl | TurnDecl | EndDecl | AtEndDecl | ScoreDecl | PayoffDecl | HeuristicDecl | AliasDecl | TiebreakDecl | OutcomeDecl | TeamDecl | ParticipantDecl | InvariantDecl | BoundDecl | SecretDecl | NameDecl | ProseDecl | TextDecl | LabelDecl | ColorDecl | KindColorDecl | OffscreenDecl | Replace | Extend | Remove | SupplyDecl,
    Field(discriminator="node"),
]


class File(Node):
    """One source file: a ruleset, a variant or a locale."""
    node: Literal["File"] = "File"
    kind: str  # ruleset | variant | locale
    name: str
    decls: list[Decl] = []


# No model_rebuild() here: with defer_build each class makes its validator when first
# used (its forward references resolve then), which keeps importing the IR cheap (a
# ruleset loaded from the disk cache is unpickled, never validated).


def trusted(cls, **fields):
    """The node ``cls(**fields)`` for fields that already have their types (the parser's:
    str, int, bool, nodes and lists of them), made without pydantic's validation.
    Validating a ruleset's IR, and building the validators the first time, took half
    of a cold load; tests/test_trusted_ir.py checks that both ways give the same IR, down to
    the type of every value. A missing or unknown field is still a TypeError."""
    try:
        plan = _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(cls)
    values, used = {}, 0
    for name, make, default in plan:
        if name in fields:
            values[name] = fields[name]
            used += 1
        elif make is not None:
            values[name] = make()
        elif default is _REQUIRED:
            raise TypeError(f"{cls.__name__}: the field {name!r} is missing")
        else:
            values[name] = default
    if used != len(fields):
        raise TypeError(f"{cls.__name__}: unknown fields {sorted(fields.keys() - values.keys())}")
    node = object.__new__(cls)
    _set(node, "__dict__", values)
    _set(node, "__pydantic_fields_set__", set(fields))
    _set(node, "__pydantic_extra__", None)
    _set(node, "__pydantic_private__", None)
    return node


def copied(e):
    """A fresh copy of an expression: a node stands in one place of the IR, and is typed
    once, where it stands."""
    return e.model_copy(deep=True)


_REQUIRED = object()
_PLANS: dict = {}
_set = object.__setattr__


def _plan(cls) -> list:
    """Each field of ``cls`` in order: its name, what makes its default afresh (a
    factory, or the type of an empty list default, which pydantic copies for each
    node) and its default (``_REQUIRED`` when it has none)."""
    plan = []
    for name, f in cls.model_fields.items():
        if f.default_factory is not None:
            plan.append((name, f.default_factory, None))
        elif f.is_required():
            plan.append((name, None, _REQUIRED))
        elif isinstance(f.default, (list, dict, set)):
            assert not f.default, f"{cls.__name__}.{name}: only empty mutable defaults"
            plan.append((name, type(f.default), None))
        else:
            plan.append((name, None, f.default))
    return plan


def decl_key(decl) -> str:
    """The name under which a declaration is overlaid by variants and locales."""
    d = decl
    match d.node:
        case "Title" | "Language" | "Players" | "Order" | "SetupDecl" | "TurnDecl" \
                | "EndDecl" | "ScoreDecl" | "PayoffDecl" | "HeuristicDecl" | "OutcomeDecl" | "TeamDecl":
            return d.node.removesuffix("Decl").lower()
        case "AtEndDecl":
            return "at end"
        case "BoundDecl":
            return "bound"
        case "InvariantDecl":
            return f"invariant {d.name}"
        case "SecretDecl":
            return f"secret {d.zone}"
        case "SupplyDecl":   # a supply is a zone: `remove zone NAME` removes it
            return f"zone {d.name}"
        case "EnumDecl" | "KindDecl" | "BoardDecl" | "ZoneDecl" | "DeckDecl" | "VarDecl" | "ConstDecl" \
                | "RelationDecl" | "FunctionDecl" | "ProcedureDecl" | "TiebreakDecl" \
                | "ParticipantDecl":
            return f"{d.node.removesuffix('Decl').lower()} {d.name}"
        case "NameDecl":
            return f"name {d.path}"
        case "TextDecl":
            return f"text {d.key}"
        case "ProseDecl":
            return f"prose {d.key}"
        case "LabelDecl":
            return f"label {d.kind}"
        case "ColorDecl":
            return f"color {d.path}"
        case "KindColorDecl":
            return f"color {d.kind}"
        case "OffscreenDecl":
            return f"offscreen {d.name}"
        case "AliasDecl":
            return f"alias {d.verb}" if d.verb is not None else "alias"
    raise ValueError(d.node)


def walk(node):
    """Yields ``node`` and every node below it, depth first (a node, then each of its
    fields in order, lists and tuples item by item)."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        n = pop()
        yield n
        below: list = []
        values = n.__dict__
        for name in _field_names(type(n)):
            v = values[name]
            if isinstance(v, Node):
                below.append(v)
            elif isinstance(v, (list, tuple)):
                _nodes_in(v, below)
        if below:
            below.reverse()
            push(below)


def children(node) -> list:
    """The nodes just below ``node``, in the order of its fields (as ``walk`` visits them)."""
    below: list = []
    values = node.__dict__
    for name in _field_names(type(node)):
        _nodes_in(values[name], below)
    return below


def _nodes_in(value, out: list) -> None:
    if isinstance(value, Node):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _nodes_in(v, out)


_FIELD_NAMES: dict = {}


def _field_names(cls) -> tuple:
    """The fields of a node class that may hold nodes (not ``node``, ``span`` or a field
    of a str, int or bool), in order."""
    try:
        return _FIELD_NAMES[cls]
    except KeyError:
        names = _FIELD_NAMES[cls] = tuple(
            name for name, f in cls.model_fields.items()
            if name not in ("node", "span") and f.annotation not in ("str", "int", "bool", str, int, bool))
        return names


def show(node) -> str:
    """A one-line printer of the IR, for readable tests: ``(BinOp op=+ (Var x) (IntLit 1))``."""
    if isinstance(node, list):
        return "[" + " ".join(show(n) for n in node) + "]"
    if isinstance(node, tuple):
        return "(" + " ".join(show(n) for n in node) + ")"
    if not isinstance(node, Node):
        return repr(node) if isinstance(node, str) else str(node)
    parts = [node.node]
    for name in type(node).model_fields:
        if name in ("span", "node") or name.endswith("_span"):   # (where, not what)
            continue
        value = getattr(node, name)
        if value is None or value == []:
            continue
        if isinstance(value, (Node, list, tuple)):
            parts.append(show(value))
        else:
            parts.append(f"{name}={value}")
    return "(" + " ".join(parts) + ")"
