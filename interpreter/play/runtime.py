"""Running games: the runtime (``Runtime``: the game state as the rules change it, its
visibility, decisions and undo journal) and the driver that runs procedures until the
next player decision and through the end of the game (``run``).

The public game (``Game``) is in ``game``; the order of a decision's options in
``ordering``; the result of a finished game in ``results``; rule failures as located
errors in ``failures``. (``game`` imports this module, never the other way.)"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING

from . import rng
from .failures import _error, _locate, _within
from .helpers import RuleError, over_budget
from .ordering import ordered
from .picks import picked
from .results import _score
from .seeing import SeatSight

if TYPE_CHECKING:  # a game runs what compile made; compile starts games, never the other way
    from ..compiler.compile import Program

STATE_FORMAT = "meeple-state/1"
LOG_KEEP = 60
# The fast paths around the rules (notations written when first read and kept per
# program, a Move of the position's own list taken as it is...) give exactly what the
# straightforward paths give; False takes the straightforward ones everywhere (for the
# tests that prove it, tests/test_move_paths.py, and for measurements).
FAST_PATHS = True


class ChanceStop(Exception):
    """Raised by a random statement in explicit chance mode when its next outcome is not
    set yet: the game stops at that chance step (the statement runs again, from its
    start, once the outcome is set)."""


@dataclass(frozen=True)
class Outcome:
    """One outcome of a chance step: its position, value, notation and exact probability."""

    index: int
    value: object
    notation: str
    probability: Fraction


class IllegalMove(Exception):
    """A move that is not legal now; the game is unchanged."""

    code = "move/illegal"


class NothingToUndo(IllegalMove):
    """``Game.undo`` with no move to take back; the game is unchanged. (Its code is
    ``move/illegal``, as for any move that cannot be played now.)"""


# The entries of the journal of a move (``Runtime.journal``): what each write changed, so that
# ``Game.undo`` can take it back, newest first. An entry is a tuple whose first field
# says what was written.
_MOVE, _FACE, _ZONE, _REVEAL, _VAR, _PVAR, _IVAR, _LOG, _FRAME, _UNSURE = range(10)
_MISSING = object()  # a global variable that had no value yet


def verb_said(pend: dict, index: int) -> str | None:
    """The verb of the move at ``index`` of a pending decision: the verb of its move
    without an object there (``as "play" or "pass"``), else its verb."""
    said = alone_text(pend.get("alone"), index)
    return pend["verb"] if said is None else said


def alone_text(alone, index: int):
    """The notation of the move at ``index`` when it is a move without an object (its
    verb), else None."""
    if alone is None:
        return None
    if alone.__class__ is str:
        return alone if index == 0 else None
    return alone[index] if index < len(alone) else None


class Move:
    """One legal move: its position in the sorted list, its value, its notation and the
    seat whose move it is. Immutable; two moves are equal when all four are.

    The notation of a move from ``Game.legal_moves`` is written when it is first read
    (most moves a program plays are never read as text): the same text as written at
    once, from what the position was when the list was made. (Inside the interpreter,
    ``notation`` may be given as a function of the value that writes it.)"""

    __slots__ = ("_index", "_value", "_notation", "_player")
    __match_args__ = ("index", "value", "notation", "player")

    def __init__(self, index: int, value, notation, player: int):
        self._index, self._value, self._notation, self._player = index, value, notation, player

    index = property(attrgetter("_index"))
    value = property(attrgetter("_value"))
    player = property(attrgetter("_player"))

    @property
    def notation(self) -> str:
        text = self._notation
        if text.__class__ is not str:
            text = self._notation = text(self._value)
        return text

    def _key(self) -> tuple:
        return (self._index, self._value, self.notation, self._player)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Move(index={self._index!r}, value={self._value!r}, notation={self.notation!r}, "
                f"player={self._player!r})")

    def __reduce__(self):
        return (Move, self._key())


@dataclass(frozen=True)
class Decision:
    """The pending decision, as anyone may know it (no options, no secret choices):
    ``type`` is the type code of its options (``"int"``, ``"item"``, ``"list:item"``...),
    ``verb`` the word its moves begin with (or None), ``player`` the first seat still to
    choose, ``seats`` the seats asked, ``waiting`` those still to choose and ``chosen``
    those that have chosen, in order (a simultaneous decision has several seats)."""

    type: str
    verb: str | None
    player: int
    seats: tuple
    waiting: tuple
    chosen: tuple

    @classmethod
    def of(cls, pend: dict) -> Decision:
        player = pend["player"]
        seats = tuple(pend.get("seats", (player,)))
        return cls(pend["type"], pend["verb"], player, seats,
                   tuple(pend.get("waiting", seats)), tuple(s for s, _ in pend.get("chosen", ())))


class Runtime(SeatSight):
    """The live game state that rule code reads and changes. It shares its containers
    with the plain-data state dict, so saving is cheap."""

    __slots__ = ("prog", "zones", "loc", "facing", "ivars", "vars", "pvars", "active", "n_players", "players", "dir", "turn", "phase",
                 "rng", "stack", "pending", "revealed", "seen", "log", "result", "calls",
                 "end_requested", "vis", "moves", "hook", "work", "work_budget", "depth", "dropped",
                 "chance", "used", "journal", "low", "unsure_seats", "seers", "everyone", "steps", "public", "pairs",
                 "spent", "called", "peak")

    def __init__(self, prog: Program, s: dict):
        self.prog = prog
        self.zones, self.loc, self.vars, self.pvars = s["zones"], s["loc"], s["vars"], s["pvars"]
        self.facing = s["facing"]  # per item: -1 as its place says, else a mask of who sees it
        # per zone, the seats that may not know exactly which items it holds, in which
        # order (a bit per seat); a state saved without it: every zone, for every seat
        self.unsure_seats = s.get("unsure")
        if self.unsure_seats is None:
            self.unsure_seats = s["unsure"] = [(1 << s["players"]) - 1] * len(prog.zones)
        self.ivars = s["ivars"]       # item variables: name -> value per item
        self.active, self.n_players, self.turn, self.phase = s["active"], s["players"], s["turn"], s["phase"]
        self.rng, self.stack, self.pending = s["rng"], s["stack"], s["pending"]
        self.revealed, self.seen, self.log = set(s["revealed"]), s["seen"], s["log"]
        self.dropped = s.get("log_dropped", 0)  # messages said before the kept ones
        self.result, self.moves = s["result"], s["moves"]
        # explicit chance mode (absent: outcomes come from the seeded generator at once)
        self.chance = s.get("chance")
        self.used = 0  # outcomes of the running random statement replayed so far
        self.players = list(range(self.n_players))
        self.dir = prog.direction
        self.calls = self.depth = self.steps = 0
        self.peak = 0  # the deepest nesting of calls reached (see compile_functions._deep_def)
        self.work = self.work_budget = prog.budgets.work  # list elements left for this move
        self.spent = 0  # the work the last run of the rules counted (every engine the same)
        self.called = 0  # the calls it counted (the calls budget, every engine the same)
        self.end_requested = False
        self.vis = _zone_visibility(prog)  # (shared by the program's games: never changed)
        # the same as bit masks of the seats that see each zone (unless revealed)
        self.seers, self.everyone = _zone_seers(prog, self.n_players), (1 << self.n_players) - 1
        self.pairs = _pair_seers(prog, self.n_players)
        self.public = _public(prog)  # whether the game hides nothing (never changes)
        self.hook = None  # called with a moment ("after setup", "at turn end", "at end")
        # the journal of the move being played (None: no move is being played): every
        # write to the state appends what it changed; ``low`` is how many frames at the
        # bottom of the stack are as they were before the move (not saved in it yet)
        self.journal: list | None = None
        self.low = 0

    def to_state(self) -> dict:
        return {"format": STATE_FORMAT, "ruleset": self.prog.name, "variants": self.prog.variants,
                "locale": self.prog.locale, "players": self.n_players, "zones": self.zones, "loc": self.loc,
                "facing": self.facing, "unsure": self.unsure_seats, "ivars": self.ivars,
                "vars": self.vars, "pvars": self.pvars, "active": self.active, "turn": self.turn,
                "phase": self.phase, "rng": self.rng, "stack": self.stack, "pending": self.pending,
                "revealed": sorted(self.revealed), "seen": self.seen, "log": self.log,
                "result": self.result, "moves": self.moves,
                **({"log_dropped": self.dropped} if self.dropped else {}),
                **({"chance": self.chance} if self.chance is not None else {})}

    # ------------------------------------------------------------ visibility
    def visible(self, zone: int, p: int) -> bool:
        return _sees(self.vis[zone], p) or zone in self.revealed

    def sees_item(self, item: int, p: int) -> bool:
        """Whether seat p may know this item now: a face-down item only by its mask,
        any other by the visibility of its place."""
        f = self.facing[item]
        if f >= 0:
            return bool((f >> p) & 1)
        z = self.loc[item]
        return z >= 0 and self.visible(z, p)

    def unsure(self, zone: int, p: int) -> bool:
        """Whether seat p may not know exactly which items the zone holds, in which order:
        set when hidden items came in or left unseen by p, or the zone was shuffled
        unseen by p (what p observes decides it, never which hidden item is where)."""
        return bool((self.unsure_seats[zone] >> p) & 1)

    def _unsure(self, zone: int, mask: int) -> None:
        """Marks the zone unsure for the seats of ``mask`` (journaled, for undo)."""
        old = self.unsure_seats[zone]
        if old | mask != old:
            if self.journal is not None:
                self.journal.append((_UNSURE, zone, old))
            self.unsure_seats[zone] = old | mask

    def _unseen_move(self, src: int, to: int, seen_before: list | None = None) -> None:
        """An item went from src to to: the seats that saw it neither before nor after
        know neither which item came in nor which left (both zones become unsure)."""
        mask = 0
        for p in self.players:
            before = seen_before[p] if seen_before is not None else (src >= 0 and self.visible(src, p))
            if not before and not self.visible(to, p):
                mask |= 1 << p
        if mask:
            if src >= 0:
                self._unsure(src, mask)
            self._unsure(to, mask)

    def _seen_by_each(self, item: int) -> list:
        """Whether each seat sees the item now (``sees_item`` per seat). (Written apart
        from its callers: a comprehension would make them build closure cells at every
        call, the fast ones included.)"""
        return [self.sees_item(item, p) for p in self.players]

    def public_item(self, item: int) -> bool:
        z = self.loc[item]
        return self.facing[item] < 0 and z >= 0 and (self.vis[z] is True or z in self.revealed)

    # ------------------------------------------------------------ effects
    def turn_over(self, item: int, facing: int) -> None:
        """Sets an item's facing (-1: as its place says; else who sees it)."""
        if self.facing[item] == facing:
            return
        before = self._seen_by_each(item)
        if self.journal is not None:
            self.journal.append((_FACE, item, self.facing[item]))
        self.facing[item] = facing
        for p in self.players:
            if not before[p] and self.sees_item(item, p):
                self.seen[p] += 1

    def move(self, item: int, to: int, facing: int = -1) -> None:
        src = self.loc[item]
        if facing >= 0 or self.facing[item] >= 0:
            self._move_facing(item, src, to, facing)
            return
        if src == to:
            return
        if FAST_PATHS:
            # (self._move written in place)
            z, pos, j = self.zones, -1, self.journal
            if src >= 0:
                zs = z[src]
                if zs and zs[-1] == item:
                    zs.pop()
                else:
                    pos = zs.index(item)
                    del zs[pos]
            z[to].append(item)
            self.loc[item] = to
            if j is not None:
                j.append((_MOVE, item, src, pos, to))
            if src >= 0 and self.public:
                return  # (a game that hides nothing: every seat saw it and sees it)
            # (as below, with the seats as bits: who saw it before, who sees it now; with
            # no zone revealed, known once per pair of zones)
            rev = self.revealed
            if rev:
                seeing, unseen = self._pair(src, to)
            else:
                pairs = self.pairs
                key = (src + 1) * len(self.zones) + to
                got = pairs.get(key)
                if got is None:
                    got = pairs[key] = self._pair(src, to)
                seeing, unseen = got
            if seeing:
                seen = self.seen
                for p in seeing:
                    seen[p] += 1
            if unseen:
                u = self.unsure_seats  # (self._unsure written in place)
                if src >= 0:
                    old = u[src]
                    if old | unseen != old:
                        if j is not None:
                            j.append((_UNSURE, src, old))
                        u[src] = old | unseen
                old = u[to]
                if old | unseen != old:
                    if j is not None:
                        j.append((_UNSURE, to, old))
                    u[to] = old | unseen
            return
        self._move_face_up(item, src, to)

    def _move_facing(self, item: int, src: int, to: int, facing: int) -> None:
        """``move`` of an item that lies face down, or will (``facing``: who sees it
        there, -1: as its place says)."""
        before = self._seen_by_each(item)
        if self.journal is not None:
            self.journal.append((_FACE, item, self.facing[item]))
        self.facing[item] = -1
        self._move(item, src, to)
        self.facing[item] = facing
        mask = 0
        for p in self.players:
            if self.sees_item(item, p):
                if not before[p]:
                    self.seen[p] += 1
            elif not before[p]:
                mask |= 1 << p
        if mask and src != to:
            if src >= 0:
                self._unsure(src, mask)
            self._unsure(to, mask)

    def _move_face_up(self, item: int, src: int, to: int) -> None:
        """``move`` of a face-up item to another zone, as the reference says it (the
        fast path in ``move`` does the same with the seats as bits)."""
        self._move(item, src, to)
        vs, vt = self.vis[src] if src >= 0 else False, self.vis[to]
        # (a revealed zone is seen by all whatever its visibility says)
        if vs is not True:
            if vs is not vt or to in self.revealed:
                for p in self.players:
                    if _sees(vt, p) or to in self.revealed:
                        if not (_sees(vs, p) or src in self.revealed):
                            self.seen[p] += 1
            if vt is not True:
                self._unseen_move(src, to)

    def _pair(self, src: int, to: int) -> tuple:
        """What moving a face-up item from zone ``src`` (-1: nowhere) to zone ``to``
        changes of who knows it: the seats that see it now and did not (a tuple, in
        seat order), and those that saw it in neither place (the zones' unsure mask
        grows by them), as a bit mask."""
        seers, rev, everyone = self.seers, self.revealed, self.everyone
        before = 0 if src < 0 else everyone if rev and src in rev else seers[src]
        if before == everyone:
            return (), 0
        after = everyone if rev and to in rev else seers[to]
        new = after & ~before
        return tuple(p for p in self.players if new >> p & 1), everyone & ~(before | after)

    def move_all(self, items: list, to: int) -> None:
        """Moves the items of a list (as it is now), one after the other, to zone ``to``,
        face as their new place says: ``move(item, to)`` for each."""
        if FAST_PATHS:
            items = list(items)
            if self.journal is None and len(items) > 1 and self._move_run(items, to):
                return
            self._move_each(items, repeat(to))
        else:
            for item in list(items):
                self.move(item, to)

    def _move_run(self, items: list, to: int) -> bool:
        """``move_all`` outside a move's journal (a game's setup, a move nothing takes
        back) of different items of one zone, face as their place says: all at once,
        the same as one after the other (what is left of the zone keeps its order, the
        items come on top in theirs). False, having done nothing, where that is not so."""
        loc, facing = self.loc, self.facing
        src = loc[items[0]]
        if src < 0 or src == to:
            return False
        for item in items:
            if loc[item] != src or facing[item] >= 0:
                return False
        gone = set(items)
        if len(gone) != len(items):
            return False
        zs = self.zones[src]
        zs[:] = [] if len(gone) == len(zs) else [x for x in zs if x not in gone]
        self.zones[to].extend(items)
        for item in items:
            loc[item] = to
        self._seen_moved(src, to, len(items))
        return True

    def _seen_moved(self, src: int, to: int, n: int) -> None:
        """Who comes to see ``n`` face-up items moved from zone ``src`` to zone ``to``
        outside a move's journal, and the zones' unsure masks (see _pair)."""
        if self.public:
            return
        seeing, unseen = self._pair(src, to)
        for p in seeing:
            self.seen[p] += n
        if unseen:
            self.unsure_seats[src] |= unseen
            self.unsure_seats[to] |= unseen

    def _move_each(self, items: list, dests) -> None:
        """``move(item, to)`` for each item and its destination in turn (``move``'s fast
        path, with the state's tables read once for all)."""
        z, loc, facing, j, u, seen = self.zones, self.loc, self.facing, self.journal, self.unsure_seats, self.seen
        # (what a move from a zone to a zone changes of who saw what depends on the two
        # zones alone: with no zone revealed, known once per pair of zones; a zone's
        # unsure mask, once set, stays set while they move)
        pairs = self.pairs if not self.revealed else {}
        done = set()  # the pairs whose unsure masks are set in this call
        zones = len(z)
        for item, to in zip(items, dests):
            if facing[item] >= 0:
                self.move(item, to)
                done.clear()  # (move may have changed the unsure masks)
                continue
            src = loc[item]
            if src == to:
                continue
            pos = -1
            if src >= 0:
                zs = z[src]
                if zs and zs[-1] == item:
                    zs.pop()
                else:
                    pos = zs.index(item)
                    del zs[pos]
            z[to].append(item)
            loc[item] = to
            if j is not None:
                j.append((_MOVE, item, src, pos, to))
            key = (src + 1) * zones + to
            got = pairs.get(key)
            if got is None:
                got = pairs[key] = self._pair(src, to)
            seeing, unseen = got
            if unseen and key not in done:
                done.add(key)
                if src >= 0:
                    old = u[src]
                    if old | unseen != old:
                        if j is not None:
                            j.append((_UNSURE, src, old))
                        u[src] = old | unseen
                old = u[to]
                if old | unseen != old:
                    if j is not None:
                        j.append((_UNSURE, to, old))
                    u[to] = old | unseen
            for p in seeing:
                seen[p] += 1

    def _deal_run(self, src: int, dealt: list, hands: list) -> bool:
        """``deal`` outside a move's journal of face-up items (``dealt``: the pile's
        top items, top first) to ``hands`` in turn: each hand's share at once, as one
        after the other. False, having done nothing, where an item is face down."""
        facing = self.facing
        for item in dealt:
            if facing[item] >= 0:
                return False
        del self.zones[src][len(self.zones[src]) - len(dealt):]
        z, loc, n = self.zones, self.loc, len(hands)
        for k, to in enumerate(hands):
            share = dealt[k::n]
            if not share:
                continue
            z[to].extend(share)
            for item in share:
                loc[item] = to
            self._seen_moved(src, to, len(share))
        return True

    def _move(self, item: int, src: int, to: int) -> None:
        if src == to:
            return
        pos = -1  # where it was in its zone (-1: on top)
        if src >= 0:
            zs = self.zones[src]
            if zs and zs[-1] == item:
                zs.pop()
            else:
                pos = zs.index(item)
                del zs[pos]
        self.zones[to].append(item)
        self.loc[item] = to
        if self.journal is not None:
            self.journal.append((_MOVE, item, src, pos, to))

    def shuffle(self, zone: int) -> None:
        if self.chance is None:
            if self.journal is not None:
                self.journal.append((_ZONE, zone, list(self.zones[zone])))
            self.rng = rng.shuffle(self.rng, self.zones[zone])
            self._shuffled(zone)
            return
        self._shuffle_drawn(zone)

    def _shuffle_drawn(self, zone: int) -> None:
        """``shuffle`` in explicit chance mode: the same Fisher-Yates steps, each a chance
        step that says which remaining item goes to the next place from the top (items
        alike are one outcome)."""
        items = list(self.zones[zone])
        for i in range(len(items) - 1, 0, -1):
            j = self.draw(i + 1, "shuffle", lambda: (items[:i + 1], [self.item_key(x) for x in items[:i + 1]],  # noqa: B023 - draw() calls it at once
                                                    "item"))
            items[i], items[j] = items[j], items[i]
        if self.journal is not None:
            self.journal.append((_ZONE, zone, list(self.zones[zone])))
        self.zones[zone][:] = items
        self._shuffled(zone)

    def _shuffled(self, zone: int) -> None:
        """The seats that do not see every item of a shuffled zone lose its order."""
        items = self.zones[zone]
        if len(items) < 2:
            return
        mask = 0
        for p in self.players:
            if not all(self.sees_item(i, p) for i in items):
                mask |= 1 << p
        if mask:
            self._unsure(zone, mask)

    def below(self, n: int, kind: str = "pick", values: list | None = None, type_code: str = "") -> int:
        """A uniform random index in 0..n-1 (of ``values``, when given: equal values
        are one outcome of a chance step in explicit mode)."""
        if self.chance is None:
            self.rng, v = rng.below(self.rng, n)
            return v
        return self._draw_below(n, kind, values, type_code)

    def _draw_below(self, n: int, kind: str, values: list | None, type_code: str) -> int:
        """``below`` in explicit chance mode (apart: its closure's cells are made only here)."""
        vals = values if values is not None else list(range(n))
        return self.draw(n, kind, lambda: (vals, [_value_key(v) for v in vals], type_code or "int"))

    def item_key(self, item: int):
        """What tells an item apart in a chance step: its kind, attributes, item
        variables and facing (items alike in all of these are one outcome)."""
        it = self.prog.items[item]
        return (it.kind, _value_key(it.attrs), tuple(_value_key(t[item]) for _, t in sorted(self.ivars.items())),
                self.facing[item])

    def draw(self, n: int, kind: str, describe) -> int:
        """Explicit chance: the outcome set for this step of the running statement, or a
        stop at a new chance step. ``describe()`` gives each candidate's value, what
        tells it apart, and the values' type code. A step with one outcome is not a step
        (the generator decides which of its alike candidates it is)."""
        ch = self.chance
        taken = ch["taken"]
        if self.used < len(taken):
            self.used += 1
            return taken[self.used - 1]
        values, keys, type_code = describe()
        first: dict = {}
        of, take, weights = [], [], []
        for raw, key in enumerate(keys):
            k = first.get(key)
            if k is None:
                k = first[key] = len(take)
                take.append(raw)
                weights.append(0)
            of.append(k)
            take[k] = raw  # the last candidate of its outcome stands for it
            weights[k] += 1
        if len(take) == 1:
            # no step: the generator still draws which candidate it is, as the seeded
            # mode does, so that sampling every step plays exactly the seeded game
            self.rng, raw = rng.below(self.rng, n)
            taken.append(raw)
            self.used += 1
            return raw
        ch["step"] = {"kind": kind, "type": type_code, "options": [values[r] for r in take],
                      "weights": weights, "take": take, "of": of}
        raise ChanceStop

    def chance_begin(self) -> None:
        self.used = 0

    def chance_end(self) -> None:
        self.chance["taken"] = []

    def reveal(self, zone: int) -> None:
        if zone not in self.revealed:
            before = {(i, p) for i in self.zones[zone] for p in self.players if self.sees_item(i, p)}
            self.revealed.add(zone)
            if self.journal is not None:
                self.journal.append((_REVEAL, zone))
            for i in self.zones[zone]:
                for p in self.players:
                    if (i, p) not in before and self.sees_item(i, p):
                        self.seen[p] += 1

    def deal(self, src: int, base: int, count: int | None) -> None:
        pile = self.zones[src]
        order = [(self.active + k * self.dir) % self.n_players for k in range(self.n_players)]
        if FAST_PATHS and not base <= src < base + self.n_players:
            # (as below: the pile loses its top item each time, so the items dealt are
            # its items from the top down)
            many = len(pile) if count is None else count * self.n_players
            if 0 <= many <= len(pile):
                dealt = pile[len(pile) - many:][::-1]
                if self.journal is None and self._deal_run(src, dealt, [base + p for p in order]):
                    return
                self._move_each(dealt, [base + order[i % self.n_players] for i in range(many)])
                return
        if count is None:
            i = 0
            while pile:
                self.move(pile[-1], base + order[i % self.n_players])
                i += 1
            return
        if len(pile) < count * self.n_players:
            raise RuleError(f"cannot deal {count} to each of {self.n_players} players from "
                            f"{len(pile)} items", hint="deal only as many as the pile holds, e.g. "
                                                       "'deal all from ...', or test size(pile) first")
        for _ in range(count):
            for p in order:
                self.move(pile[-1], base + p)

    def set_active(self, p) -> None:
        if not isinstance(p, int) or not 0 <= p < self.n_players:
            raise RuleError(f"'active' must be a player, got {p!r}",
                            hint="set active to a player: a seat of 'players', e.g. next_player(active)")
        self.active = p

    def say(self, log_id: int, values: list) -> None:
        """A message; for each item in it, which seats could see it when it was said
        (a bit mask), so that later moves of the item never reveal it in old messages."""
        types = self.prog.logs[log_id].types
        masks = list(map(self._masks, values, types))
        # the item variables of the items named, as they are now (labels may show them)
        snapshot: dict[str, dict[str, object]] = {}
        if self.ivars:
            for v, t in zip(values, types):
                for item in _items_of(v, t):
                    for name, table in self.ivars.items():
                        if table[item] is not None:
                            snapshot.setdefault(name, {})[str(item)] = table[item]
        self._said(log_id, values, masks, snapshot)

    def _said(self, log_id: int, values: list, masks: list, snapshot: dict) -> None:
        self.log.append([log_id, values, masks, snapshot])
        gone = None
        if len(self.log) > LOG_KEEP:
            self.dropped += len(self.log) - LOG_KEEP
            gone = self.log[: len(self.log) - LOG_KEEP]
            del self.log[: len(self.log) - LOG_KEEP]
        if self.journal is not None:
            self.journal.append((_LOG, gone))

    def call(self, proc: str, args: dict) -> None:
        self.stack.append({"p": proc, "pc": 0, "L": args})

    def _masks(self, v, t: str):
        if t.startswith("list:"):
            return list(map(self._masks, v, repeat(t[5:])))
        if t != "item" or v is None:
            return None
        if self.public_item(v):
            return -1  # public
        return self._seen_mask(v)

    def _seen_mask(self, item: int) -> int:
        """The seats that see the item now, as bits (apart from ``_masks``: see
        ``_seen_by_each``)."""
        return sum(1 << p for p in self.players if self.sees_item(item, p))

    def hidden_place(self, seat: int):
        """For items a seat may not know: where they lie, written as ``zone#position``
        (1 = bottom) or a cell's name, instead of what they are."""
        def place(item: int) -> str | None:
            if self.sees_item(item, seat):
                return None
            from .display import zone_notation
            z = self.loc[item]
            zone = self.prog.zones[z]
            where = zone_notation(self.prog, z)
            if zone.cell is not None and len(self.zones[z]) == 1:
                return where
            return f"{where}#{self.zones[z].index(item) + 1}"
        return place


    def ask(self, player: int, var: str, options: list, type_code: str, verb: str | None,
            alone: str | tuple | None = None, said: str | None = None) -> None:
        """Asks ``player`` to choose among ``options``. With ``alone`` (``as "play" or
        "pass"``) one more option comes first: ``none``, written as that verb alone; with
        several verbs (a tuple: ``or "draw" or "pass"``) one ``none`` for each, in their
        order. ``said`` (``choose x, how``): the local that the move sets to its verb."""
        if alone is not None:
            options = [o for o in options if o is not None]
        options = ordered(self, player, options, type_code, FAST_PATHS)
        self.pending = {"player": player, "var": var, "options": options, "type": type_code,
                        "verb": verb}
        if alone is not None:
            # only then: the states of every other decision keep their shape
            self._alone(alone, options)
        if said is not None:
            self.pending["said"] = said

    def _alone(self, alone: str | tuple, options: list) -> None:
        """The moves without an object put first in the pending decision (see ask)."""
        if alone.__class__ is str:
            self.pending["options"] = [None] + options
            self.pending["alone"] = alone
        else:
            self.pending["options"] = [None] * len(alone) + options
            self.pending["alone"] = list(alone)

    def ask_plain(self, player: int, var: str, options: list, type_code: str,
                  verb: str | None) -> None:
        """``ask`` (no option alone) for options of a type whose order is the plain one
        (``helpers.sort_key``; no list: compile tells), given as a new list of at least
        one option (the decision may keep it): the same decision, made at once when the
        options are plain numbers or bools (items: ones the decider sees)."""
        first = options[0]
        plain = first.__class__
        if FAST_PATHS and (plain is int or plain is bool):
            # (bools sort as plain numbers too, False before True)
            last, ordered = first - 1, True
            for o in options:
                if o.__class__ is not plain:
                    break
                if o <= last:
                    ordered = False
                last = o
            else:
                # (as ordering._plain_order then says, for such a type; numbers in increasing
                # order, each once, are sorted(set(options)) as they are)
                if type_code != "item" or self._items_known(options, player):
                    self.pending = {"player": player, "var": var,
                                    "options": options if ordered else sorted(set(options)),
                                    "type": type_code, "verb": verb}
                    return
        self.ask(player, var, options, type_code, verb)

    def ask_in_order(self, player: int, var: str, options: list, type_code: str,
                     verb: str | None, alone: str | tuple | None = None,
                     said: str | None = None) -> None:
        """``ask`` for options that compile knows to be distinct cells in increasing
        order (a board's cells walked in order, each kept or not), given as a new list
        (of at least one option, without ``alone``): the same decision, made at once (the
        plain order of cells is theirs; none is not a cell)."""
        if FAST_PATHS:
            self.pending = {"player": player, "var": var, "options": options,
                            "type": type_code, "verb": verb}
            if alone is not None:
                self._alone(alone, options)
            if said is not None:
                self.pending["said"] = said
            return
        self.ask(player, var, options, type_code, verb, alone, said)


    def ask_each(self, var: str, choices: list, type_code: str, verb: str | None,
                 picks: int | None = None) -> None:
        """A simultaneous decision: each ``(seat, options)`` of ``choices`` chooses in
        secret; the choices are written into the per-player variable ``var`` once all are
        made. Only this decision's ``pending`` has the keys ``seats`` (who chooses),
        ``each`` (their options), ``waiting`` (who has still to choose) and ``chosen``
        (``[seat, value]`` pairs in the order they were made); ``player`` and ``options``
        are those of the first seat still waiting; ``picks``: several each (picks.py)."""
        seats = [seat for seat, _ in choices]
        each = [ordered(self, seat, options, type_code, FAST_PATHS) for seat, options in choices]
        self.pending = {"player": seats[0], "var": var, "options": each[0], "type": type_code,
                        "verb": verb, "seats": seats, "each": each, "waiting": list(seats),
                        "chosen": []}
        if picks is not None:
            self.pending["picks"] = picks

    def choose_each(self, seat: int, value) -> None:
        """Records one seat's secret choice in a simultaneous decision; after the last,
        writes them all and ends the decision. (The lists are replaced, never changed in
        place: copies of the state share them.)"""
        pend = self.pending
        if "picks" in pend:
            picked(self, pend, seat, value)
            return
        waiting = [s for s in pend["waiting"] if s != seat]
        pend["chosen"] = pend["chosen"] + [[seat, value]]
        pend["waiting"] = waiting
        if waiting:
            pend["player"] = waiting[0]
            pend["options"] = pend["each"][pend["seats"].index(waiting[0])]
            return
        for s, v in pend["chosen"]:
            self.set_pvar(pend["var"], s, v)
        self.pending = None

    # ------------------------------------------------------------ writes of rule code
    # (compiled statements write variables through these, so that a move's journal
    # can take the writes back)
    def set_var(self, name: str, value) -> None:
        if self.journal is not None:
            self.journal.append((_VAR, name, self.vars.get(name, _MISSING)))
        self.vars[name] = value

    def set_pvar(self, name: str, seat: int, value) -> None:
        table = self.pvars[name]
        if self.journal is not None:
            self.journal.append((_PVAR, name, seat, table[seat]))
        table[seat] = value

    def set_ivar(self, name: str, item: int, value) -> None:
        table = self.ivars[name]
        if self.journal is not None:
            self.journal.append((_IVAR, name, item, table[item]))
        table[item] = value

    def save_frame(self, i: int) -> None:
        """Saves the frame at ``stack[i]`` in the journal before the move changes it
        (its locals and where it stands), if it was there before the move and is not
        saved yet. Frames pushed during the move need no saving: undo drops them."""
        if self.journal is not None and i < self.low:
            f = self.stack[i]
            self.journal.append((_FRAME, f, f["pc"], dict(f["L"])))
            self.low = i

    def undo_writes(self, journal: list) -> None:
        """Takes back the writes of a journal, newest first."""
        z, loc = self.zones, self.loc
        for e in reversed(journal):
            k = e[0]
            if k == _MOVE:
                _, item, src, pos, to = e
                z[to].pop()
                if src >= 0:
                    if pos < 0:
                        z[src].append(item)
                    else:
                        z[src].insert(pos, item)
                loc[item] = src
            elif k == _FACE:
                self.facing[e[1]] = e[2]
            elif k == _VAR:
                if e[2] is _MISSING:
                    del self.vars[e[1]]
                else:
                    self.vars[e[1]] = e[2]
            elif k == _PVAR:
                self.pvars[e[1]][e[2]] = e[3]
            elif k == _IVAR:
                self.ivars[e[1]][e[2]] = e[3]
            elif k == _FRAME:
                e[1]["pc"], e[1]["L"] = e[2], e[3]
            elif k == _LOG:
                self.log.pop()
                if e[1]:
                    self.log[:0] = e[1]
            elif k == _ZONE:
                z[e[1]][:] = e[2]
            elif k == _UNSURE:
                self.unsure_seats[e[1]] = e[2]
            else:  # _REVEAL
                self.revealed.discard(e[1])


def _value_key(v):
    """A hashable stand-in for a plain-data value."""
    return json.dumps(v, sort_keys=True, default=str)


def _items_of(v, t: str) -> list[int]:
    if v is None:
        return []
    if t.startswith("list:"):
        return [i for x in v for i in _items_of(x, t[5:])]
    return [v] if t == "item" else []


def _sees(v, p: int) -> bool:
    """Whether player p sees a zone of visibility v (True, an owner seat, or False).
    Written with 'is' because False == 0 and True == 1 in Python."""
    return v is True or (v is not False and v == p)


def _visibility(z) -> object:
    """True: everyone sees the zone's items; an int: only that player; False: nobody."""
    if z.visibility == "public":
        return True
    if z.visibility == "owner":
        return z.owner
    return False


# ---------------------------------------------------------------- the driver

def run(R: Runtime) -> None:
    """Runs rules until a player must decide or the game is over."""
    old = sys.getrecursionlimit()
    need = R.prog.frames_per_depth * R.prog.budgets.depth + 1000  # (as _room_for makes room)
    if old >= need:
        _run(R)
        return
    sys.setrecursionlimit(need)
    try:
        _run(R)
    finally:
        sys.setrecursionlimit(old)


def _stopped(R: Runtime) -> bool:
    """Whether the rules stop running: a player is asked, the game is over, or (explicit
    chance) a random statement waits for its outcome."""
    return R.pending is not None or R.phase == "over" or (R.chance is not None and R.chance["step"] is not None)


def _end_now(R: Runtime) -> None:
    """'end game': what runs stops; the ending begins (unless it runs already)."""
    R.end_requested = False
    R.stack.clear()
    if R.phase != "ending":  # 'end game' inside 'at end' just stops it: scoring follows
        _begin_ending(R)


def _new_turn(R: Runtime, steps: int, max_steps: int) -> int:
    """The next turn (or phase) begins; ``steps`` counts it. A new turn counts as a step
    too: turns that never ask a player and never end the game would otherwise loop for
    ever."""
    if steps > max_steps:
        raise _within("the turn", R.prog.checked.turn, over_budget(
            "steps", f"more than {max_steps} statements and turns in one move "
                     f"(the game goes on without asking any player)"))
    _next_phase(R)
    return steps


def _run(R: Runtime) -> None:
    prog = R.prog
    steps, max_steps = 0, prog.budgets.steps
    R.calls = R.depth = 0
    R.work = R.work_budget
    stack, procs = R.stack, prog.procs  # (the same list for the game's life: undo refills it in place)
    while not _stopped(R):
        if R.end_requested:
            _end_now(R)
            continue
        if not stack:
            steps = _new_turn(R, steps + 1, max_steps)
            continue
        if len(stack) <= R.low:
            R.save_frame(len(stack) - 1)
        frame = stack[-1]
        proc = procs[frame["p"]]
        code, L, pc = proc.code, frame["L"], frame["pc"]
        end = len(code)
        try:
            if proc.fused:
                # (some instructions run several statements: they read the steps counted
                # so far in R.steps and leave there what they counted, see fused.py)
                while True:
                    if pc >= end:
                        stack.pop()
                        break
                    R.steps = steps
                    pc = code[pc](R, L)
                    steps = R.steps + 1
                    if steps > max_steps:
                        raise over_budget("steps", f"more than {max_steps} statements in one move")
                    if R.pending is not None or R.end_requested or stack[-1] is not frame:
                        frame["pc"] = pc
                        break
            else:
                while True:
                    if pc >= end:
                        stack.pop()
                        break
                    pc = code[pc](R, L)
                    steps += 1
                    if steps > max_steps:
                        raise over_budget("steps", f"more than {max_steps} statements in one move")
                    if R.pending is not None or R.end_requested or stack[-1] is not frame:
                        frame["pc"] = pc
                        break
        except ChanceStop:
            frame["pc"] = pc  # the random statement runs again once its outcome is set
            break
        except RuleError as e:  # (a fused run says which of its statements failed)
            raise _locate(e, proc, getattr(e, "meeple_pc", pc), e, prog) from None
        except Exception as e:  # noqa: BLE001 - any failure inside a rule is the rule's error
            raise _locate(_error(e), proc, getattr(e, "meeple_pc", pc), e, prog) from None
    R.spent, R.called = R.work_budget - R.work, R.calls
    # what views and bots evaluate between moves gets fresh budgets
    R.work, R.calls = R.work_budget, 0


def _room_for(prog) -> int:
    """Makes Python's recursion limit leave room for the depth budget while rules run
    (each level of a rule function may take a few Python frames, ``frames_per_depth``);
    returns the limit to restore afterwards, or 0 if it was high enough."""
    need = prog.frames_per_depth * prog.budgets.depth + 1000
    old = sys.getrecursionlimit()
    if old >= need:
        return 0
    sys.setrecursionlimit(need)
    return old


def _next_phase(R: Runtime) -> None:
    phase = R.phase
    if phase == "play":  # (the most frequent first)
        R.turn += 1
        if R.hook:
            R.hook("at turn end", R)
        if R.prog.end_fn is not None and _ended(R):
            return
        R.active = (R.active + R.dir) % R.n_players
        R.stack.append({"p": "turn", "pc": 0, "L": {}})  # (R.call("turn", {}))
    elif phase == "setup":
        R.phase = "play"
        if R.hook:
            R.hook("after setup", R)
        if _ended(R):
            return
        R.call("turn", {})
    elif phase == "ending":
        _score(R)
    else:  # pragma: no cover - phases are fixed
        raise RuleError(f"unknown phase {R.phase}")


def _ended(R: Runtime) -> bool:
    end = R.prog.end_fn
    if end is not None:
        try:
            over = end(R, {})
        except Exception as e:  # noqa: BLE001
            raise _within("the end condition", R.prog.checked.end.cond, e, R.prog) from None
        if over:
            _begin_ending(R)
            return True
    return False


def _heuristic(R: Runtime, seat: int) -> int | None:
    prog = R.prog
    if prog.heuristic_fn is None:
        return None
    if not 0 <= seat < R.n_players:
        raise ValueError(f"no seat {seat} in a game of {R.n_players} players")
    return _run_rule(R, prog.heuristic_fn, seat, "the heuristic", prog.checked.heuristic.body)


def _run_rule(R: Runtime, fn, arg, what: str, body):
    """``fn(R, arg)``, a compiled declaration that never changes the game (the heuristic,
    an alias), run with fresh budgets; a failure is the RuleError of ``what``, located at
    its ``body``."""
    old = _room_for(R.prog)
    R.calls = R.depth = 0
    R.work = R.work_budget
    try:
        return fn(R, arg)
    except Exception as e:  # noqa: BLE001 - any failure inside a rule is the rule's error
        raise _within(what, body, e, R.prog) from None
    finally:
        R.work = R.work_budget
        if old:
            sys.setrecursionlimit(old)


def _aliases(R: Runtime, verb: str | None, value) -> list[str]:
    """The texts the ruleset's ``alias`` for ``verb`` gives the option ``value`` of the
    pending decision, in the position now (none without an alias): they never change
    the game."""
    prog = R.prog
    fn = prog.alias_fns.get(verb)
    if fn is None:
        return []
    got = _run_rule(R, fn, value, "the alias", prog.checked.aliases[verb].body)
    return [got] if isinstance(got, str) else [t for t in got if t is not None]


def _begin_ending(R: Runtime) -> None:
    R.phase = "ending"
    if "at end" in R.prog.procs:
        R.call("at end", {})


def _zone_visibility(prog: Program) -> list:
    """Each zone's visibility (see _visibility), known once per program."""
    vis = prog.__dict__.get("_zone_visibility")
    if vis is None:
        vis = prog.__dict__["_zone_visibility"] = [_visibility(z) for z in prog.zones]
    return vis


def _zone_seers(prog: Program, n: int) -> list:
    """Per zone, the seats of a game of ``n`` that see it (unless it is revealed), as a bit
    mask: ``visible(zone, p)`` for every seat p at once (known once per program)."""
    seers = prog.__dict__.get("_zone_seers")
    if seers is None or seers[0] != n:
        everyone = (1 << n) - 1
        masks = [everyone if v is True else (1 << v) & everyone if v.__class__ is int and v >= 0 else 0
                 for v in _zone_visibility(prog)]
        seers = prog.__dict__["_zone_seers"] = (n, masks)
    return seers[1]


def _pair_seers(prog: Program, n: int) -> dict:
    """The program's table of ``Runtime._pair`` by pair of zones for games of ``n``
    (filled as pairs come; with no zone revealed, the zones' seers alone decide)."""
    pairs = prog.__dict__.get("_pair_seers")
    if pairs is None or pairs[0] != n:
        pairs = prog.__dict__["_pair_seers"] = (n, {})
    return pairs[1]


def _public(prog: Program) -> bool:
    """Whether the program's games hide nothing (known once per program)."""
    public = prog.__dict__.get("_public")
    if public is None:
        public = prog.__dict__["_public"] = not prog.hidden_information
    return public


def revealed_since(before: dict, after: dict, player: int) -> bool:
    """Whether ``player`` learnt something hidden between two states (an item came
    into their sight, or the random generator was used): undoing would then let them
    play again knowing it, so a move may be undone only when this is false."""
    return before["rng"] != after["rng"] or before["seen"][player] != after["seen"][player] \
        or before.get("chance", {}).get("n") != after.get("chance", {}).get("n")

