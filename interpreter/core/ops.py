"""The instruction set of the lowered core: each procedure of a ruleset is a flat list of
these instructions (``core.lower``), as plain data. An instruction is one step of a
procedure's frame: its index in the list is the frame's ``pc`` (saved states hold it), its
fields are ints, strings, jump targets, slot names (the frame's locals) and the checked IR
expressions it evaluates (``Expr``: the expression engines compile or print them).

Every instruction but a jump goes on to the next index when it completes; ``target`` /
``end`` fields name another index. Each kind's meaning is written once for the Python
engines (``core.reference``) and printed once as C++ (``kernel.Proc``); the docstring of
each class says what it does. The operations that the runtime's promises hang on are
explicit: the budgets (``bound``: the integer bound of a stored value; a ``for`` loop's
steps bounded by its list, a ``while`` loop's count by its ``limit``), visibility (the
``face`` of a move or flip, ``Reveal``, and moves between zones: the runtime decides who
sees what) and randomness (``Draw`` instructions take their draws from the state's
generator and are ``chancy``: in explicit chance mode they stop at a chance step, see
``Draw``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

Expr = Any     # a checked IR expression node (dsl/ast.py)
Target = int   # the index of an instruction of the same procedure

# the face a move or flip gives its items (``Move.face``)
AS_PLACE, NOBODY, SEAT = "place", "nobody", "seat"


@dataclass(frozen=True, kw_only=True, eq=False)
class Ins:
    """An instruction. ``span``: the statement it comes from (errors are located there);
    ``scope``: the checker's locals in scope at that statement (what a frame that stops
    here always holds, see frames.py)."""

    span: Any
    scope: tuple = ()
    asks: ClassVar[bool] = False     # a frame stops just after it, waiting for a decision
    chancy: ClassVar[bool] = False   # a random draw: see Draw

    @property
    def jumps(self) -> tuple:
        """The instructions it may go to other than the next one."""
        return ()


# ---------------------------------------------------------------- control flow

@dataclass(frozen=True, kw_only=True, eq=False)
class Jump(Ins):
    """Goes to ``target``."""
    target: Target

    @property
    def jumps(self) -> tuple:
        return (self.target,)


@dataclass(frozen=True, kw_only=True, eq=False)
class Branch(Ins):
    """An ``if`` test: goes on when ``cond`` is true, else to ``target`` (the next test,
    the ``else`` body or the end)."""
    cond: Expr
    target: Target

    @property
    def jumps(self) -> tuple:
        return (self.target,)


@dataclass(frozen=True, kw_only=True, eq=False)
class ForInit(Ins):
    """A ``for`` loop's start: the list ``items`` is kept in the hidden slot ``it``, the
    index ``ix`` set to 0. Budget: the loop runs once per element of that list."""
    it: str
    ix: str
    var: str
    items: Expr


@dataclass(frozen=True, kw_only=True, eq=False)
class ForStep(Ins):
    """A ``for`` loop's head: with no element left goes to ``end``; else the next
    element into ``var``, the index one on. The loop's last instruction jumps back here."""
    it: str
    ix: str
    var: str
    end: Target

    @property
    def jumps(self) -> tuple:
        return (self.end,)


@dataclass(frozen=True, kw_only=True, eq=False)
class WhileInit(Ins):
    """A ``while`` loop's start: its count (the hidden slot ``count``) set to 0."""
    count: str
    limit: int


@dataclass(frozen=True, kw_only=True, eq=False)
class WhileTest(Ins):
    """A ``while`` loop's head: when ``cond`` is false goes to ``end``; else the count one
    on, and the budget: a count over ``limit`` is a BudgetError (the loop at ``where``)."""
    count: str
    cond: Expr
    limit: int
    where: str
    end: Target

    @property
    def jumps(self) -> tuple:
        return (self.end,)


@dataclass(frozen=True, kw_only=True, eq=False)
class Return(Ins):
    """Ends the procedure (goes to ``end``, past its last instruction). A ``value`` goes
    into the caller's frame, in the slot the callee's ``$ret`` local names (a call for a
    result, see Call); checked against ``bound`` like a stored value."""
    value: Expr | None
    bound: int | None
    end: Target

    @property
    def jumps(self) -> tuple:
        return (self.end,)


@dataclass(frozen=True, kw_only=True, eq=False)
class EndGame(Ins):
    """``end game``: the game ends once the runtime is back in its loop."""


# ---------------------------------------------------------------- variables
# Budget: ``bound``, where not None, is the integer budget a stored integer must stay
# within (a number that doubles every move stops instead of growing for ever).

@dataclass(frozen=True, kw_only=True, eq=False)
class SetLocal(Ins):
    """The frame's local ``var`` = ``value``."""
    var: str
    value: Expr
    bound: int | None


@dataclass(frozen=True, kw_only=True, eq=False)
class SetGlobal(Ins):
    """The global variable ``var`` = ``value`` (``Runtime.set_g``)."""
    var: str
    value: Expr
    bound: int | None


@dataclass(frozen=True, kw_only=True, eq=False)
class SetPlayerVar(Ins):
    """The per-player variable ``var`` of seat ``player`` = ``value`` (the value
    computed first, then the seat; ``Runtime.set_pv``)."""
    var: str
    player: Expr
    value: Expr
    bound: int | None


@dataclass(frozen=True, kw_only=True, eq=False)
class SetActive(Ins):
    """The active player = ``value`` (``Runtime.set_active``, which checks the seat)."""
    value: Expr


@dataclass(frozen=True, kw_only=True, eq=False)
class SetItemVar(Ins):
    """The item variable ``attr`` of the item ``holder`` = ``value`` (``Runtime.set_iv``);
    ``holder`` none is a rule error, worded with ``where`` (variable, attribute, name, the
    test to suggest). ``var``: the local ``holder`` reads, when it is one ("" else)."""
    var: str
    attr: str
    holder: Expr
    value: Expr
    bound: int | None
    where: tuple


@dataclass(frozen=True, kw_only=True, eq=False)
class StoreResult(Ins):
    """After a call for a result whose target is not a local: the value the callee left
    in the hidden slot ``slot`` (removed from the frame) into the per-player variable
    ``var`` of ``player``, else the active player (``active``), else the global ``var``."""
    slot: str
    var: str
    player: Expr | None
    active: bool


# ---------------------------------------------------------------- decisions

@dataclass(frozen=True, kw_only=True, eq=False)
class Ask(Ins):
    """``choose``: seat ``chooser`` (None: the active player) decides ``var`` among the
    values of ``options`` (of type code ``type``); the frame stops just after it. An
    empty list is a rule error unless ``alone`` names the move without an object.
    ``order``: how the runtime orders the options ("any"; "plain": plain numbers, asked
    in fewer steps; "cells": a board's cells already in increasing order). With several
    moves without an object (``or "draw" or "pass"``), ``alone`` is the tuple of their
    verbs; ``said`` (``choose x, how``): the local set to the verb of the move made.
    ``when``: where a move without an object is offered under a condition (``or "draw"
    when c``), the condition of each verb of ``alone`` in order (None: always), evaluated
    before the options; the verbs whose condition is false are not offered (none offered
    and no option: a rule error), else empty."""
    var: str
    options: Expr
    chooser: Expr | None
    type: str
    verb: str | None
    alone: str | tuple[str, ...] | None
    order: str
    said: str | None = None
    when: tuple = ()
    asks: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True, eq=False)
class AskEach(Ins):
    """``choose var(each) from options for each each in seats``: every seat's options
    (``each`` bound to the seat meanwhile, then as it was), asked at once
    (``Runtime.ask_each``); the frame stops just after it. With ``picks``, each seat
    picks that many distinct options, one move each, and ``var`` gets the list."""
    var: str
    each: str
    options: Expr
    seats: Expr
    type: str
    verb: str | None
    picks: int | None = None
    asks: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True, eq=False)
class AskSubset(Ins):
    """``choose var subset of options [where cond]``: the non-empty subsets that satisfy
    ``where`` (``var`` naming each meanwhile), asked of ``chooser``."""
    var: str
    options: Expr
    where: Expr | None
    chooser: Expr | None
    type: str
    verb: str | None
    asks: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True, eq=False)
class Best(Ins):
    """``best var in options by keys``: the option with the highest keys (``var`` naming
    each meanwhile); a tie settled by ``tie``: "first", "random" (a draw: chancy) or
    "choose" (asked of ``chooser``: the frame stops just after it)."""
    var: str
    options: Expr
    keys: tuple
    tie: str
    chooser: Expr | None
    type: str

    @property
    def asks(self) -> bool:  # type: ignore[override]
        return self.tie == "choose"

    @property
    def chancy(self) -> bool:  # type: ignore[override]
        return self.tie == "random"


# ---------------------------------------------------------------- randomness

@dataclass(frozen=True, kw_only=True, eq=False)
class Draw(Ins):
    """A random instruction: its draws come from the state's generator (``Runtime.below``).
    In explicit chance mode it may stop at a chance step (the frame stays at it) and runs
    again from its start with the outcomes set so far, so it changes nothing before its
    last draw; when it completes, those outcomes are spent (``Runtime.chance_begin`` /
    ``chance_end``)."""
    chancy: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True, eq=False)
class PickRandom(Draw):
    """``pick var at random from options``: an empty list is a rule error."""
    var: str
    options: Expr
    type: str


@dataclass(frozen=True, kw_only=True, eq=False)
class Roll(Draw):
    """``roll a, b from faces``: each of ``vars`` a face, one draw each, in order."""
    vars: tuple
    faces: Expr


@dataclass(frozen=True, kw_only=True, eq=False)
class Shuffle(Draw):
    """``shuffle zone``: a random order of its items (``Runtime.shuffle``)."""
    zone: Expr


# ---------------------------------------------------------------- items and visibility

@dataclass(frozen=True, kw_only=True, eq=False)
class Move(Ins):
    """``move what to to``: an item (none is a rule error), or each item of a list
    (``many``), onto the zone or cell ``to``. ``face``: AS_PLACE (seen as the place says),
    NOBODY (face down), SEAT (face down, seen by seat ``seen_by``). ``unsure``: the kinds
    are compared when it runs (a rule error if the place holds another kind)."""
    what: Expr
    to: Expr
    many: bool
    face: str
    seen_by: Expr | None
    unsure: bool


@dataclass(frozen=True, kw_only=True, eq=False)
class Flip(Ins):
    """``flip what face up|down [for p]``: turns the item(s) where they lie
    (``Runtime.turn_over``); ``face`` as Move's."""
    what: Expr
    many: bool
    face: str
    seen_by: Expr | None


@dataclass(frozen=True, kw_only=True, eq=False)
class Reveal(Ins):
    """``reveal zone``: the zone is public from now on (``Runtime.reveal``)."""
    zone: Expr


@dataclass(frozen=True, kw_only=True, eq=False)
class RevealTo(Ins):
    """``reveal what to seat``: the item(s) become known to ``seat`` too, where they lie
    (``reference._show_to``)."""
    what: Expr
    many: bool
    seat: Expr


@dataclass(frozen=True, kw_only=True, eq=False)
class Deal(Ins):
    """``deal count|all from source to the per-player zones from base`` round the table
    (``Runtime.deal``)."""
    source: Expr
    base: int
    count: int | None


@dataclass(frozen=True, kw_only=True, eq=False)
class Fill(Ins):
    """``fill board from source``: the top item of the zone into each empty cell of
    ``cells`` (the board's), in order; running out is a rule error."""
    source: Expr
    board: str
    cells: tuple


@dataclass(frozen=True, kw_only=True, eq=False)
class Make(Ins):
    """``make kind at to [face ...] [with v = e, ...]``: the top item of the zone
    ``supply`` onto the place ``to`` (as Move's, ``face`` and ``seen_by``), then each item
    variable of ``sets`` ((name, value, bound): every item variable of the kind, the value
    given or the declared one) set, the values computed before the item moves. An empty
    supply is a rule error: the supply's size is the budget of the items made."""
    kind: str
    supply: int
    to: Expr
    face: str
    seen_by: Expr | None
    sets: tuple


@dataclass(frozen=True, kw_only=True, eq=False)
class Unmake(Ins):
    """``remove what``: the item (none is a rule error), or each item of a list
    (``many``), back on top of the zone ``supply``, seen as the supply says."""
    what: Expr
    many: bool
    supply: int


@dataclass(frozen=True, kw_only=True, eq=False)
class Permute(Ins):
    """``permute what to to``: two lists of places of the same length, each place once in
    each; at once, the items of ``what[i]`` (in their order, each lying as it lay) go on
    top of what stays at ``to[i]``. Anything else is a rule error."""
    what: Expr
    to: Expr


# ---------------------------------------------------------------- messages and calls

@dataclass(frozen=True, kw_only=True, eq=False)
class Log(Ins):
    """``log key "..."``: a message; ``parts``: text (str) and values ``(raw text, Expr,
    type code)`` in order (``Runtime.say`` keeps the values)."""
    key: str
    parts: tuple


@dataclass(frozen=True, kw_only=True, eq=False)
class Call(Ins):
    """Runs the procedure ``proc`` (its ``params`` given ``args``, computed in order): a new
    frame on the stack (``Runtime.call``); this frame stops just after it until the callee
    is done. A call for a result names ``slot``, the caller's local the callee's ``return``
    writes (the callee's ``$ret``); a ``fresh`` slot (hidden, ``$rN``) is set to none
    first and a StoreResult follows; ``new``: the call declares the local ``slot``
    (``let v = call ...``)."""
    proc: str
    args: tuple
    params: tuple
    slot: str | None
    fresh: bool
    new: bool = False


# every kind of instruction, for the tests that prove each engine implements each
KINDS: tuple[type, ...] = (Jump, Branch, ForInit, ForStep, WhileInit, WhileTest, Return, EndGame,
                           SetLocal, SetGlobal, SetPlayerVar, SetActive, SetItemVar, StoreResult,
                           Ask, AskEach, AskSubset, Best, PickRandom, Roll, Shuffle,
                           Move, Flip, Reveal, RevealTo, Deal, Fill, Log, Call, Make, Unmake, Permute)
