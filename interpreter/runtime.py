"""Running games: the game state (plain data), the driver that runs procedures until
the next player decision, legal moves, applying moves, and the end of the game."""
from __future__ import annotations

import copy
import json
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from itertools import count as _counting, repeat
from operator import attrgetter
from typing import TYPE_CHECKING

from . import rng
from .helpers import (
    BudgetError,
    RuleError,
    _size_then_items,
    over_budget,
    sort_key as helpers_sort_key,
)

if TYPE_CHECKING:  # a game runs what compile made; compile starts games, never the other way
    from .compile import Program

STATE_FORMAT = "meeple-state/1"
_SEAT_PREFIX = re.compile(r"p([1-9][0-9]{0,5}): (.*)\Z", re.S)
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


CHANCE_MODES = ("seeded", "explicit")


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


# The entries of the journal of a move (``Runtime.j``): what each write changed, so that
# ``Game.undo`` can take it back, newest first. An entry is a tuple whose first field
# says what was written.
_MOVE, _FACE, _ZONE, _REVEAL, _G, _PV, _IV, _LOG, _FRAME, _UNSURE = range(10)
_MISSING = object()  # a global variable that had no value yet
_KEEP_MOVES = 16  # how many of the newest moves keep the legal moves before them (for undo)
# the fields of an undo history entry (``Game._begin``) read elsewhere: the generator's
# state before the move, the legal moves kept, the move played (None: a chance outcome)
_H_RNG, _H_LEGAL, _H_MOVE = 0, 11, 12


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
        if FAST_PATHS and "seats" not in pend:
            # one seat decides (as below, without the frozen dataclass's slow __init__)
            d = object.__new__(cls)
            d.__dict__.update(type=pend["type"], verb=pend["verb"], player=player, seats=(player,),
                              waiting=(player,), chosen=())
            return d
        seats = tuple(pend.get("seats", (player,)))
        return cls(pend["type"], pend["verb"], player, seats,
                   tuple(pend.get("waiting", seats)), tuple(s for s, _ in pend.get("chosen", ())))


class Runtime:
    """The live game state that rule code reads and changes. It shares its containers
    with the plain-data state dict, so saving is cheap."""

    __slots__ = ("prog", "z", "loc", "facing", "iv", "g", "pv", "active", "n", "players", "dir", "turn", "phase",
                 "rng", "stack", "pending", "revealed", "seen", "log", "result", "calls",
                 "end_requested", "vis", "moves", "hook", "work", "work_budget", "depth", "dropped",
                 "chance", "used", "j", "low", "u", "seers", "everyone", "steps", "public", "pairs")

    def __init__(self, prog: Program, s: dict):
        self.prog = prog
        self.z, self.loc, self.g, self.pv = s["zones"], s["loc"], s["vars"], s["pvars"]
        self.facing = s["facing"]  # per item: -1 as its place says, else a mask of who sees it
        # per zone, the seats that may not know exactly which items it holds, in which
        # order (a bit per seat); a state saved without it: every zone, for every seat
        self.u = s.get("unsure")
        if self.u is None:
            self.u = s["unsure"] = [(1 << s["players"]) - 1] * len(prog.zones)
        self.iv = s["ivars"]       # item variables: name -> value per item
        self.active, self.n, self.turn, self.phase = s["active"], s["players"], s["turn"], s["phase"]
        self.rng, self.stack, self.pending = s["rng"], s["stack"], s["pending"]
        self.revealed, self.seen, self.log = set(s["revealed"]), s["seen"], s["log"]
        self.dropped = s.get("log_dropped", 0)  # messages said before the kept ones
        self.result, self.moves = s["result"], s["moves"]
        # explicit chance mode (absent: outcomes come from the seeded generator at once)
        self.chance = s.get("chance")
        self.used = 0  # outcomes of the running random statement replayed so far
        self.players = list(range(self.n))
        self.dir = prog.direction
        self.calls = self.depth = self.steps = 0
        self.work = self.work_budget = prog.budgets.work  # list elements left for this move
        self.end_requested = False
        self.vis = _zone_visibility(prog)  # (shared by the program's games: never changed)
        # the same as bit masks of the seats that see each zone (unless revealed)
        self.seers, self.everyone = _zone_seers(prog, self.n), (1 << self.n) - 1
        self.pairs = _pair_seers(prog, self.n)
        self.public = _public(prog)  # whether the game hides nothing (never changes)
        self.hook = None  # called with a moment ("after setup", "at turn end", "at end")
        # the journal of the move being played (None: no move is being played): every
        # write to the state appends what it changed; ``low`` is how many frames at the
        # bottom of the stack are as they were before the move (not saved in it yet)
        self.j: list | None = None
        self.low = 0

    def to_state(self) -> dict:
        return {"format": STATE_FORMAT, "ruleset": self.prog.name, "variants": self.prog.variants,
                "locale": self.prog.locale, "players": self.n, "zones": self.z, "loc": self.loc,
                "facing": self.facing, "unsure": self.u, "ivars": self.iv,
                "vars": self.g, "pvars": self.pv, "active": self.active, "turn": self.turn,
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
        return bool((self.u[zone] >> p) & 1)

    def _unsure(self, zone: int, mask: int) -> None:
        """Marks the zone unsure for the seats of ``mask`` (journaled, for undo)."""
        old = self.u[zone]
        if old | mask != old:
            if self.j is not None:
                self.j.append((_UNSURE, zone, old))
            self.u[zone] = old | mask

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
        if self.j is not None:
            self.j.append((_FACE, item, self.facing[item]))
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
            z, pos, j = self.z, -1, self.j
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
                key = (src + 1) * len(self.z) + to
                got = pairs.get(key)
                if got is None:
                    got = pairs[key] = self._pair(src, to)
                seeing, unseen = got
            if seeing:
                seen = self.seen
                for p in seeing:
                    seen[p] += 1
            if unseen:
                u = self.u  # (self._unsure written in place)
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
        if self.j is not None:
            self.j.append((_FACE, item, self.facing[item]))
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
            if self.j is None and len(items) > 1 and self._move_run(items, to):
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
        zs = self.z[src]
        zs[:] = [] if len(gone) == len(zs) else [x for x in zs if x not in gone]
        self.z[to].extend(items)
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
            self.u[src] |= unseen
            self.u[to] |= unseen

    def _move_each(self, items: list, dests) -> None:
        """``move(item, to)`` for each item and its destination in turn (``move``'s fast
        path, with the state's tables read once for all)."""
        z, loc, facing, j, u, seen = self.z, self.loc, self.facing, self.j, self.u, self.seen
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
        del self.z[src][len(self.z[src]) - len(dealt):]
        z, loc, n = self.z, self.loc, len(hands)
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
            zs = self.z[src]
            if zs and zs[-1] == item:
                zs.pop()
            else:
                pos = zs.index(item)
                del zs[pos]
        self.z[to].append(item)
        self.loc[item] = to
        if self.j is not None:
            self.j.append((_MOVE, item, src, pos, to))

    def shuffle(self, zone: int) -> None:
        if self.chance is None:
            if self.j is not None:
                self.j.append((_ZONE, zone, list(self.z[zone])))
            self.rng = rng.shuffle(self.rng, self.z[zone])
            self._shuffled(zone)
            return
        self._shuffle_drawn(zone)

    def _shuffle_drawn(self, zone: int) -> None:
        """``shuffle`` in explicit chance mode: the same Fisher-Yates steps, each a chance
        step that says which remaining item goes to the next place from the top (items
        alike are one outcome)."""
        items = list(self.z[zone])
        for i in range(len(items) - 1, 0, -1):
            j = self.draw(i + 1, "shuffle", lambda: (items[:i + 1], [self.item_key(x) for x in items[:i + 1]],  # noqa: B023 - draw() calls it at once
                                                    "item"))
            items[i], items[j] = items[j], items[i]
        if self.j is not None:
            self.j.append((_ZONE, zone, list(self.z[zone])))
        self.z[zone][:] = items
        self._shuffled(zone)

    def _shuffled(self, zone: int) -> None:
        """The seats that do not see every item of a shuffled zone lose its order."""
        items = self.z[zone]
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
        return (it.kind, _value_key(it.attrs), tuple(_value_key(t[item]) for _, t in sorted(self.iv.items())),
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
            before = {(i, p) for i in self.z[zone] for p in self.players if self.sees_item(i, p)}
            self.revealed.add(zone)
            if self.j is not None:
                self.j.append((_REVEAL, zone))
            for i in self.z[zone]:
                for p in self.players:
                    if (i, p) not in before and self.sees_item(i, p):
                        self.seen[p] += 1

    def deal(self, src: int, base: int, count: int | None) -> None:
        pile = self.z[src]
        order = [(self.active + k * self.dir) % self.n for k in range(self.n)]
        if FAST_PATHS and not base <= src < base + self.n:
            # (as below: the pile loses its top item each time, so the items dealt are
            # its items from the top down)
            many = len(pile) if count is None else count * self.n
            if 0 <= many <= len(pile):
                dealt = pile[len(pile) - many:][::-1]
                if self.j is None and self._deal_run(src, dealt, [base + p for p in order]):
                    return
                self._move_each(dealt, [base + order[i % self.n] for i in range(many)])
                return
        if count is None:
            i = 0
            while pile:
                self.move(pile[-1], base + order[i % self.n])
                i += 1
            return
        if len(pile) < count * self.n:
            raise RuleError(f"cannot deal {count} to each of {self.n} players from "
                            f"{len(pile)} items", hint="deal only as many as the pile holds, e.g. "
                                                       "'deal all from ...', or test size(pile) first")
        for _ in range(count):
            for p in order:
                self.move(pile[-1], base + p)

    def set_active(self, p) -> None:
        if not isinstance(p, int) or not 0 <= p < self.n:
            raise RuleError(f"'active' must be a player, got {p!r}",
                            hint="set active to a player: a seat of 'players', e.g. next_player(active)")
        self.active = p

    def say(self, log_id: int, values: list) -> None:
        """A message; for each item in it, which seats could see it when it was said
        (a bit mask), so that later moves of the item never reveal it in old messages."""
        types, plain, items = _log_types(self.prog)[log_id]
        if plain and FAST_PATHS:
            # a message naming no item: no item to mask, none whose variables to keep
            # (a value of a list type still gets its list of masks, all None)
            masks = []
            for v, t in zip(values, types):
                masks.append(self._masks(v, t) if t.startswith("list:") else None)
            self._said(log_id, values, masks, {})
            return
        if items is not None and FAST_PATHS and not self.iv:
            # single items and other values, in a game without item variables: the
            # items' masks alone, the others None (as _masks gives them)
            masks = [None] * len(values)
            for i in items:
                masks[i] = self._masks(values[i], "item")
            self._said(log_id, values, masks, {})
            return
        masks = list(map(self._masks, values, types))
        # the item variables of the items named, as they are now (labels may show them)
        snapshot: dict[str, dict[str, object]] = {}
        if self.iv:
            for v, t in zip(values, types):
                for item in _items_of(v, t):
                    for name, table in self.iv.items():
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
        if self.j is not None:
            self.j.append((_LOG, gone))

    def call(self, proc: str, args: dict) -> None:
        self.stack.append({"p": proc, "pc": 0, "L": args})

    def _masks(self, v, t: str):
        if t.startswith("list:"):
            return list(map(self._masks, v, repeat(t[5:])))
        if t != "item" or v is None:
            return None
        if FAST_PATHS:
            # (as below, with the seats as bits)
            f = self.facing[v]
            if f >= 0:
                return f & self.everyone
            z = self.loc[v]
            if z < 0:
                return 0
            return -1 if self.vis[z] is True or z in self.revealed else self.seers[z]
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
            if zone.cell is not None and len(self.z[z]) == 1:
                return where
            return f"{where}#{self.z[z].index(item) + 1}"
        return place

    def _hidden_key(self, seat: int, type_code: str):
        """Options that hold items the decider may not know are ordered by place, not by
        identity, so that the order of the moves reveals nothing."""
        base = self.prog.sort_key(type_code)

        def item_key(v):
            if v is None or self.sees_item(v, seat):
                return (0, v if v is not None else -1, 0)
            return (1, self.loc[v], self.z[self.loc[v]].index(v))

        if type_code == "item":
            return item_key
        if type_code == "list:item":
            return lambda vs: (len(vs), tuple(item_key(v) for v in vs))
        return base

    def ask(self, player: int, var: str, options: list, type_code: str, verb: str | None,
            alone: str | None = None) -> None:
        """Asks ``player`` to choose among ``options``. With ``alone`` (``as "play" or
        "pass"``) one more option comes first: ``none``, written as that verb alone."""
        if alone is not None:
            options = [o for o in options if o is not None]
        options = self._ordered(player, options, type_code)
        self.pending = {"player": player, "var": var, "options": options, "type": type_code,
                        "verb": verb}
        if alone is not None:
            # only then: the states of every other decision keep their shape
            self.pending["options"] = [None] + options
            self.pending["alone"] = alone

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
                # (as _plain_order then says, for such a type; numbers in increasing
                # order, each once, are sorted(set(options)) as they are)
                if type_code != "item" or self._items_known(options, player):
                    self.pending = {"player": player, "var": var,
                                    "options": options if ordered else sorted(set(options)),
                                    "type": type_code, "verb": verb}
                    return
        self.ask(player, var, options, type_code, verb)

    def ask_in_order(self, player: int, var: str, options: list, type_code: str,
                     verb: str | None, alone: str | None = None) -> None:
        """``ask`` for options that compile knows to be distinct cells in increasing
        order (a board's cells walked in order, each kept or not), given as a new list
        (of at least one option, without ``alone``): the same decision, made at once (the
        plain order of cells is theirs; none is not a cell)."""
        if FAST_PATHS:
            self.pending = {"player": player, "var": var,
                            "options": options if alone is None else [None] + options,
                            "type": type_code, "verb": verb}
            if alone is not None:
                self.pending["alone"] = alone
            return
        self.ask(player, var, options, type_code, verb, alone)

    def _ordered(self, player: int, options: list, type_code: str) -> list:
        """A decider's options, sorted (by place for items it may not know) and distinct."""
        if FAST_PATHS:
            if self._plain_order(type_code, options, player):
                return sorted(set(options))  # (plain ints: as _distinct(sorted(options)))
            if type_code == "list:item":
                if self._all_seen(options, player):
                    # lists of items the decider sees: by size, then item by item (as the
                    # keys below, which are then (0, item, 0) for each item)
                    return _distinct(sorted(options, key=_size_then_items))
            elif type_code.startswith("list:") and _int_lists(options) \
                    and self.prog.sort_key(type_code) is helpers_sort_key:
                # lists of numbers (no bools): by size, then element by element
                return _distinct(sorted(options, key=_size_then_items))
        key = self._hidden_key(player, type_code) if type_code in ("item", "list:item") \
            else self.prog.sort_key(type_code)
        if type_code == "list:item":
            options = self._sets_by_place(player, options)
        return _distinct(sorted(options, key=key))

    def _sets_by_place(self, player: int, options: list) -> list:
        """A set of items that holds some the decider may not know lists them by place,
        so that its order does not tell the hidden order they had in a list. (Apart from
        ``_ordered``, whose every call would otherwise make this closure's cells.)"""
        inner = self._hidden_key(player, "item")
        return [sorted(o, key=inner) if any(not self.sees_item(i, player) for i in o) else o
                for o in options]

    def _plain_order(self, type_code: str, options: list, player: int) -> bool:
        """Whether the options sort as plain values do: numbers (no bools) of a type
        ordered by value, bools or strings alone, or items the decider sees (in a game
        that hides nothing: all in zones), ordered by identity."""
        for o in options:
            if o.__class__ is not int:
                # (bools sort as plain numbers too: False before True)
                if type_code == "bool" and all(x.__class__ is bool for x in options):
                    return self.prog.sort_key(type_code) is helpers_sort_key
                if type_code == "str" and all(x.__class__ is str for x in options):
                    # (strings sort as plain strings too: helpers.sort_key is (3, text))
                    return self.prog.sort_key(type_code) is helpers_sort_key
                return False
        if type_code == "item":
            return self._items_known(options, player)
        return self.prog.sort_key(type_code) is helpers_sort_key

    def _items_known(self, items: list, player: int) -> bool:
        """Whether ``player`` knows exactly where each of these items (ints) is, so that
        they are ordered by identity: in a game that hides nothing, every item in a zone;
        else every item the seat sees."""
        if self.public:
            return _in_zones(self.loc, items)
        return self._seen_all(items, player)

    def _seen_all(self, items: list, p: int) -> bool:
        """Whether seat p sees every one of these items (ints): ``sees_item`` for each."""
        facing, loc, seers, rev = self.facing, self.loc, self.seers, self.revealed
        known = None  # (the zone of the last item found seen: most options lie in one zone)
        for i in items:
            f = facing[i]
            if f >= 0:
                if not f >> p & 1:
                    return False
                continue
            z = loc[i]
            if z != known:
                if z < 0 or not (seers[z] >> p & 1 or z in rev):
                    return False
                known = z
        return True

    def sees_value(self, v, type_code: str, p: int) -> bool:
        """Whether seat p sees every item of an option (True: it is written as it is);
        False also when this quick look cannot tell (a type other than item and
        list:item): the option is then looked at item by item."""
        if type_code == "item":
            return v is None or (v.__class__ is int and self._seen_all((v,), p))
        return type_code == "list:item" and self._all_seen((v,), p)

    def _all_seen(self, options: list, p: int) -> bool:
        """Whether every option is a list of items (ints) that seat p all sees."""
        if not _int_lists(options):
            return False
        for o in options:
            if not self._seen_all(o, p):
                return False
        return True

    def ask_each(self, var: str, choices: list, type_code: str, verb: str | None) -> None:
        """A simultaneous decision: each ``(seat, options)`` of ``choices`` chooses in
        secret; the choices are written into the per-player variable ``var`` once all are
        made. Only this decision's ``pending`` has the keys ``seats`` (who chooses),
        ``each`` (their options), ``waiting`` (who has still to choose) and ``chosen``
        (``[seat, value]`` pairs in the order they were made); ``player`` and ``options``
        are those of the first seat still waiting."""
        seats = [seat for seat, _ in choices]
        each = [self._ordered(seat, options, type_code) for seat, options in choices]
        self.pending = {"player": seats[0], "var": var, "options": each[0], "type": type_code,
                        "verb": verb, "seats": seats, "each": each, "waiting": list(seats),
                        "chosen": []}

    def choose_each(self, seat: int, value) -> None:
        """Records one seat's secret choice in a simultaneous decision; after the last,
        writes them all and ends the decision. (The lists are replaced, never changed in
        place: copies of the state share them.)"""
        pend = self.pending
        waiting = [s for s in pend["waiting"] if s != seat]
        pend["chosen"] = pend["chosen"] + [[seat, value]]
        pend["waiting"] = waiting
        if waiting:
            pend["player"] = waiting[0]
            pend["options"] = pend["each"][pend["seats"].index(waiting[0])]
            return
        for s, v in pend["chosen"]:
            self.set_pv(pend["var"], s, v)
        self.pending = None

    # ------------------------------------------------------------ writes of rule code
    # (compiled statements write variables through these, so that a move's journal
    # can take the writes back)
    def set_g(self, name: str, value) -> None:
        if self.j is not None:
            self.j.append((_G, name, self.g.get(name, _MISSING)))
        self.g[name] = value

    def set_pv(self, name: str, seat: int, value) -> None:
        table = self.pv[name]
        if self.j is not None:
            self.j.append((_PV, name, seat, table[seat]))
        table[seat] = value

    def set_iv(self, name: str, item: int, value) -> None:
        table = self.iv[name]
        if self.j is not None:
            self.j.append((_IV, name, item, table[item]))
        table[item] = value

    def save_frame(self, i: int) -> None:
        """Saves the frame at ``stack[i]`` in the journal before the move changes it
        (its locals and where it stands), if it was there before the move and is not
        saved yet. Frames pushed during the move need no saving: undo drops them."""
        if self.j is not None and i < self.low:
            f = self.stack[i]
            self.j.append((_FRAME, f, f["pc"], dict(f["L"])))
            self.low = i

    def undo_writes(self, journal: list) -> None:
        """Takes back the writes of a journal, newest first."""
        z, loc = self.z, self.loc
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
            elif k == _G:
                if e[2] is _MISSING:
                    del self.g[e[1]]
                else:
                    self.g[e[1]] = e[2]
            elif k == _PV:
                self.pv[e[1]][e[2]] = e[3]
            elif k == _IV:
                self.iv[e[1]][e[2]] = e[3]
            elif k == _FRAME:
                e[1]["pc"], e[1]["L"] = e[2], e[3]
            elif k == _LOG:
                self.log.pop()
                if e[1]:
                    self.log[:0] = e[1]
            elif k == _ZONE:
                z[e[1]][:] = e[2]
            elif k == _UNSURE:
                self.u[e[1]] = e[2]
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


def _int_lists(options: list) -> bool:
    """Whether every option is a list of plain numbers (no bools)."""
    for o in options:
        if o.__class__ is not list:
            return False
        for x in o:
            if x.__class__ is not int:
                return False
    return True


def _in_zones(loc: list, items: list) -> bool:
    """Whether every one of these items (ints) lies in a zone."""
    for i in items:
        if loc[i] < 0:
            return False
    return True


def _distinct(options: list) -> list:
    """Equal options are one move."""
    out = [options[0]] if options else []
    for o in options[1:]:
        if o != out[-1]:
            out.append(o)
    return out


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
    need = 4 * R.prog.budgets.depth + 1000  # (as _room_for makes room)
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
    R.work = R.work_budget  # what views and bots evaluate between moves gets a fresh budget


def _room_for(depth: int) -> int:
    """Makes Python's recursion limit leave room for the depth budget while rules run
    (each level of a rule function may take a few Python frames); returns the limit to
    restore afterwards, or 0 if it was high enough."""
    need = 4 * depth + 1000
    old = sys.getrecursionlimit()
    if old >= need:
        return 0
    sys.setrecursionlimit(need)
    return old


def _error(e: Exception) -> RuleError:
    """A Python failure inside rule code as a rule error (a budget error for a recursion
    or memory that ran out)."""
    if isinstance(e, (RecursionError, MemoryError)):
        err = BudgetError(_describe(e))
    else:
        err = RuleError(_describe(e))
    return err


def _describe(e: Exception) -> str:
    """A Python failure inside rule code in plain words (never Python's own text, except
    for a failure Meeple did not foresee, which is a bug of Meeple's and says so)."""
    if isinstance(e, RecursionError):
        names = _rule_functions(e.__traceback__)
        depth = "(Python's recursion limit; see the 'depth' budget)"
        if len(names) == 1:
            return f"function '{names[0]}' calls itself too deeply (endless recursion?) {depth}"
        if names:
            listed = ", ".join(f"'{n}'" for n in names)
            return f"functions {listed} call each other too deeply (endless recursion?) {depth}"
        return f"functions call each other too deeply (endless recursion?) {depth}"
    if isinstance(e, MemoryError):
        return "the rules ran out of memory (lower the 'work' budget, or simplify the rule)"
    text = str(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, (TypeError, AttributeError, IndexError, KeyError)) and "None" in text:
        return "a value is missing (none) where an item, cell, player or number is needed"
    if isinstance(e, IndexError):
        return "an index is outside its list"
    if isinstance(e, OverflowError):
        return "a number is too large"
    if isinstance(e, ValueError) and "not in list" in text:
        return "the item or value is not where the rule looks for it"
    return (f"the rule failed in a way Meeple does not explain yet; this is a bug in Meeple, "
            f"please report it with the ruleset ({type(e).__name__}: {e})")


_HINTS = {
    "division by zero": "check the divisor first: 'if n != 0 { ... }', or 'if n == 0 then 0 else x / n'",
    "a value is missing (none) where an item, cell, player or number is needed":
        "a value can be none here (an empty zone's top, an empty cell, a variable set to "
        "none): test it first, e.g. 'if occupied(z) { ... }' or 'if x != none { ... }'",
    "an index is outside its list": "lists count from 0: the last element of xs is "
                                    "xs[size(xs) - 1]; check an index first, e.g. "
                                    "'if i < size(xs) { ... }'",
}


def _rule_functions(tb) -> list[str]:
    """The ruleset functions (generated as ``F_name``) in a traceback, in call order."""
    names: dict[str, None] = {}
    while tb is not None:
        code = tb.tb_frame.f_code.co_name
        if code.startswith("F_"):
            names[code[2:]] = None
        tb = tb.tb_next
    return list(names)


def _within(what: str, decl, e: Exception, prog: Program | None = None) -> RuleError:
    """An error in an expression run outside a procedure (the end condition, the
    scoring...), located at its declaration when known."""
    err = e if isinstance(e, RuleError) else _error(e)
    return _placed(err, what, getattr(decl, "span", None), e, prog)


def _locate(e: RuleError, proc, pc: int, cause: Exception | None = None,
            prog: Program | None = None) -> RuleError:
    span = proc.lines[pc] if 0 <= pc < len(proc.lines) else None
    name = proc.name if proc.name in ("setup", "turn", "at end") else f"procedure {proc.name}"
    return _placed(e, name, span, cause, prog)


def _placed(err: RuleError, rule: str, span, cause: Exception | None,
            prog: Program | None) -> RuleError:
    """The error, located: in the innermost ruleset function that failed when there is
    one (its body's place; the rule that called it is named too), else at ``span``."""
    if err.span is not None:  # already located (an error inside a nested rule)
        return err
    where = _where(span)
    detail = err.detail
    fn = None
    if cause is not None:
        names = _rule_functions(cause.__traceback__)
        # a budget (recursion depth, calls) names its functions itself: it is placed at
        # the statement that started them
        fn = names[-1] if names and not isinstance(err, BudgetError) else None
    if fn is not None and span is not None and where:
        detail = f"{detail} (called from {rule} at {where})"
        rule, span = f"function {fn}", None
        decl = prog.checked.functions.get(fn) if prog is not None else None
        if decl is not None:
            span = decl.body.span
        where = _where(span)
    out = type(err)(f"in {rule}{' at ' + where if where else ''}: {detail}", err.code,
                    err.hint or _hint_for(err.detail))
    out.detail, out.rule, out.span = detail, rule, span if where else None
    return out


def _hint_for(detail: str) -> str | None:
    if detail.startswith("index ") and "is outside a list" in detail:
        detail = "an index is outside its list"
    return _HINTS.get(detail)


def _where(span) -> str:
    return f"{span.file}:{span.line}:{span.column}" if span is not None and span.line else ""


def _next_phase(R: Runtime) -> None:
    phase = R.phase
    if phase == "play":  # (the most frequent first)
        R.turn += 1
        if R.hook:
            R.hook("at turn end", R)
        if R.prog.end_fn is not None and _ended(R):
            return
        R.active = (R.active + R.dir) % R.n
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
    if not 0 <= seat < R.n:
        raise ValueError(f"no seat {seat} in a game of {R.n} players")
    old = _room_for(prog.budgets.depth)
    R.calls = R.depth = 0
    R.work = R.work_budget
    try:
        return prog.heuristic_fn(R, seat)
    except Exception as e:  # noqa: BLE001 - any failure inside a rule is the rule's error
        raise _within("the heuristic", prog.checked.heuristic.body, e, prog) from None
    finally:
        R.work = R.work_budget
        if old:
            sys.setrecursionlimit(old)


def _begin_ending(R: Runtime) -> None:
    R.phase = "ending"
    if "at end" in R.prog.procs:
        R.call("at end", {})


def _score(R: Runtime) -> None:
    prog = R.prog
    try:
        scores = [prog.score_fn(R, p) if prog.score_fn else 0 for p in R.players]
        ties = [[fn(R, p) for p in R.players] for _, fn in prog.tiebreaks]
    except Exception as e:  # noqa: BLE001
        raise _within("the scoring", getattr(prog.checked.score, "body", None), e, prog) from None
    try:
        team_of = [prog.team_fn(R, p) for p in R.players] if prog.team_fn else None
    except Exception as e:  # noqa: BLE001
        raise _within("the teams", getattr(prog.checked.team, "body", None), e, prog) from None
    R.result = _results(scores, ties, [name for name, _ in prog.tiebreaks], team_of)
    if prog.participants:
        R.result["participants"] = {}
        for name, fn, decl in prog.participants:
            try:
                R.result["participants"][name] = fn(R, {}) if fn else None
            except Exception as e:  # noqa: BLE001
                raise _within(f"the score of participant {name}", decl.score, e, prog) from None
    if prog.outcomes is not None:
        outcomes = []
        for p in R.players:
            for outcome, fn in prog.outcomes:  # noqa: B007 - the one that breaks
                try:
                    if fn is None or fn(R, p, R.result["ranks"][p]):
                        break
                except Exception as e:  # noqa: BLE001
                    raise _within("the outcomes", prog.checked.outcome, e, prog) from None
            outcomes.append(outcome)
        R.result["outcomes"] = outcomes
        R.result["winners"] = [p for p in R.players if outcomes[p] == "win"]
        R.result["draw"] = all(o == "draw" for o in outcomes)
    R.phase = "over"
    if R.hook:
        R.hook("at end", R)


def _results(scores: list[int], ties: list[list[int]], tie_names: list[str],
            team_of: list | None = None) -> dict:
    """A finished game's result from each seat's score and tiebreaks (and team).

    The ranking orders the seats (or the teams: a team's score and tiebreaks are its
    seats' sums) by score, then by each tiebreak, higher first; equal seats share a
    group. A seat's rank is 1 + the number of seats (teams) placed before it. The
    outcome, unless the ruleset declares ``outcome``: when two or more seats (teams)
    are all in the first group, everyone draws; otherwise the first group wins and the
    others lose (a one-seat game is won)."""
    n = len(scores)
    units = _units(n, team_of)
    keys = [tuple([sum(scores[p] for p in u)] + [sum(t[p] for p in u) for t in ties])
            for u in units]
    groups = [[i for i in range(len(units)) if keys[i] == k] for k in sorted(set(keys), reverse=True)]
    ranking = [sorted(p for i in g for p in units[i]) for g in groups]
    ranks = _ranks(n, units, groups)
    if len(units) > 1 and len(groups) == 1:
        outcomes = ["draw"] * n
    else:
        outcomes = ["win" if p in ranking[0] else "loss" for p in range(n)]
    result = {"scores": scores, "tiebreaks": dict(zip(tie_names, ties)),
              "ranking": ranking, "winners": [p for p in range(n) if outcomes[p] == "win"],
              "ranks": ranks, "outcomes": outcomes, "draw": outcomes == ["draw"] * n}
    if team_of is not None:
        result["teams"] = [{"seats": u, "score": keys[i][0], "rank": ranks[u[0]]}
                           for i, u in enumerate(units)]
    return result


def _units(n: int, team_of: list | None) -> list[list[int]]:
    """The units ranked: each seat alone, or (``team_of``) each team's seats, teams in
    the order of their first seat."""
    if team_of is None:
        return [[p] for p in range(n)]
    units: list[list[int]] = []
    for p in range(n):
        for u in units:
            if team_of[u[0]] == team_of[p]:
                u.append(p)
                break
        else:
            units.append([p])
    return units


def _ranks(n: int, units: list[list[int]], groups: list[list[int]]) -> list[int]:
    """Each seat's rank: 1 + the number of units placed in the groups before its own."""
    ranks = [0] * n
    before = 0
    for g in groups:
        for i in g:
            for p in units[i]:
                ranks[p] = before + 1
        before += len(g)
    return ranks


# ---------------------------------------------------------------- the game API

class Game:
    """One game of a Program. ``state`` is plain JSON-serialisable data."""

    def __init__(self, prog: Program, state: dict):
        self.program = prog
        self.R = Runtime(prog, state)
        self._moves: list[Move] | None = None
        self._decided: tuple | None = None  # (the pending dict, its Decision)
        self._decisions = _decisions(prog)  # (see decision)
        self._writers = _writers(prog)  # (see _found_at_once)
        self.script: list = []  # chance outcomes to set as the game reaches chance steps
        # per move played (newest last): what the game was before it, the move (None for a
        # chance outcome) and the journal of its writes, for undo
        self._history: list[list] = []
        self._undo_limit: int | None = None  # (see undo_limit)

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, prog: Program, players: int, seed: int = 0, hook=None,
            chance: str = "seeded") -> Game:
        """A new game. ``chance="explicit"`` stops it at every chance step (a shuffle's
        next place, a pick or roll, a random tie) until the outcome is set with
        ``apply_chance`` or drawn with ``sample_chance``; by default ("seeded") the
        seeded generator decides at once."""
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        if players != prog.n:
            raise ValueError(f"this program of {prog.title} is compiled for {prog.n} players, "
                             f"not {players}; use the ruleset's new_game")
        at_start = FAST_PATHS and hook is None and chance == "seeded"
        if at_start:
            start = prog.__dict__.get("_start_state")
            if start:
                # (the setup draws nothing: every seed starts the same, but for the generator)
                state = _copy_state(start)
                state["rng"] = rng.seed_state(seed)
                return cls(prog, state)
        nz = len(prog.zones)
        zones = [[] for _ in range(nz)]
        loc = [-1] * len(prog.items)
        for item, z in prog.initial:
            zones[z].append(item)
            loc[item] = z
        state = {"zones": zones, "loc": loc, "facing": [-1] * len(prog.items), "unsure": [0] * nz,
                 "ivars": {},
                 "vars": {},
                 "pvars": {}, "active": 0,
                 "players": players, "turn": 0, "phase": "setup", "rng": rng.seed_state(seed),
                 "stack": [], "pending": None, "revealed": [], "seen": [0] * players, "log": [],
                 "result": None, "moves": 0}
        if chance == "explicit":
            state["chance"] = new_chance()
        game = cls(prog, state)
        R = game.R
        c = prog.checked
        decl = None
        try:
            for name, fn in prog.var_inits.items():
                decl = c.vars[name]
                if c.vars[name].per_player:
                    R.pv[name] = [fn(R, {}) for _ in range(players)]
                else:
                    R.g[name] = fn(R, {})
            decl = None
            R.iv.update(prog.init_item_vars(R))  # after the globals, which they may read
        except Exception as e:  # noqa: BLE001
            raise _within("a variable's initial value", decl, e, prog) from None
        if "setup" in prog.procs:
            R.call("setup", {})
        R.hook = hook
        run(R)
        if at_start and "_start_state" not in prog.__dict__:
            _keep_start(prog, R, seed)
        return game

    @classmethod
    def from_state(cls, prog: Program, state: dict, check: bool = True) -> Game:
        """Resumes a game from a saved state (for example one read back from JSON).
        Raises StateError (a ValueError) when the state is not valid for the program
        (not checked with ``check=False``: for states the program itself produced)."""
        from .state import StateError, validate
        try:
            state = copy.deepcopy(state)
        except RecursionError:
            raise StateError("invalid state at the state: values nested too deeply") from None
        if check:
            validate(prog, state)
        return cls(prog, state)

    @property
    def state(self) -> dict:
        """The game as plain data (what ``to_json`` writes, ``resume`` reads): a copy,
        so that changing it changes nothing in the game."""
        return _copy_state(self.R.to_state())

    def copy(self) -> Game:
        """An independent game in the same state (with no moves to undo: the history
        of moves is not part of the state)."""
        return Game(self.program, _copy_state(self.R.to_state()))

    def to_json(self) -> str:
        # (the state itself, not the copy `state` gives: dumping it changes nothing)
        return json.dumps(self.R.to_state(), sort_keys=True, separators=(",", ":"))

    # ------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.R.phase == "over"

    @property
    def active_player(self) -> int | None:
        """The player who must decide now (None when the game is over); in a
        simultaneous decision, the first seat that has still to choose."""
        return None if self.R.pending is None else self.R.pending["player"]

    @property
    def deciding(self) -> list[int]:
        """The seats that must decide now: one for an ordinary decision, every seat that
        has still to choose in a simultaneous one, none when the game is over."""
        pend = self.R.pending
        if pend is None:
            return []
        return list(pend.get("waiting", [pend["player"]]))

    @property
    def simultaneous(self) -> bool:
        """Whether the decision now is a simultaneous one (several seats choose in secret)."""
        return self.R.pending is not None and "waiting" in self.R.pending

    @property
    def result(self) -> dict | None:
        return self.R.result

    @property
    def players(self) -> int:
        """How many seats play this game."""
        return self.R.n

    @property
    def turn_number(self) -> int:
        """How many turns have been completed (the rules' ``turn_number()``)."""
        return self.R.turn

    def unsure_zones(self, seat: int) -> list[str]:
        """The keys of the zones (as in views) whose contents ``seat`` may not know exactly
        (which items, in which order): hidden items came in or left unseen by the seat, or
        the zone was shuffled while the seat did not see all its items. Other zones hold
        what the seat knows they hold, seen or not. It follows from what the seat
        observed only, so it reveals nothing; a state saved without it has every zone
        unsure for every seat."""
        R = self.R
        return [z.key for z in self.program.zones
                if (z.owner is None or z.owner < R.n) and R.unsure(z.id, seat)]

    @property
    def has_heuristic(self) -> bool:
        """Whether the ruleset declares a ``heuristic`` (see ``heuristic``)."""
        return self.program.heuristic_fn is not None

    def heuristic(self, seat: int) -> int | None:
        """The ruleset's ``heuristic(p)`` for ``seat`` in the position now: how good it is
        for that seat (higher is better), a hint for bots; None when the ruleset declares
        none. Computed from the whole state: a bot asks it of the games it draws, never of
        the real one. Raises RuleError (located at the declaration) if it breaks a rule."""
        return _heuristic(self.R, seat)

    @property
    def decision(self) -> Decision | None:
        """The pending decision (None once over): its type code, verb and seats."""
        pend = self.R.pending
        if pend is None:
            return None
        if not FAST_PATHS:
            return Decision.of(pend)
        known = self._decided
        if known is None or known[0] is not pend:
            # (made once per decision: a move replaces the pending dict, never changes it;
            # a decision of one seat is one of the program's few, shared: it is immutable)
            if "seats" in pend:
                made = Decision.of(pend)
            else:
                key = (pend["type"], pend["verb"], pend["player"])
                made = self._decisions.get(key)
                if made is None:
                    made = self._decisions[key] = Decision.of(pend)
            known = self._decided = (pend, made)
        return known[1]

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of the seat deciding now; with ``seat``, that seat's (none
        unless it must decide now: in a simultaneous decision, any seat still to choose)."""
        pend = self.R.pending
        if seat is not None and (pend is None or seat != pend["player"]):
            if pend is None or seat not in pend.get("waiting", ()):
                return []
            return self._moves_of(seat, pend["each"][pend["seats"].index(seat)])
        if self._moves is None:
            self._moves = [] if pend is None else self._moves_of(pend["player"], pend["options"])
        return self._moves

    def _moves_of(self, who: int, options: list) -> list[Move]:
        """The moves of a decision: their notations are written when first read, except
        those naming an item the decider may not know (written now, by its place as it
        is now)."""
        if not FAST_PATHS:
            return self._written_at_once(who, options)
        pend = self.R.pending
        type_code = pend["type"]
        if "item" not in type_code:
            write = _writer(self.program, pend["verb"], type_code, pend.get("alone"))
            # (as [Move(i, v, write, who) for i, v in enumerate(options)], made faster)
            return list(map(Move, _counting(), options, repeat(write), repeat(who)))
        return list(map(self._maker(who), _counting(), options))

    def _maker(self, who: int):
        """How the moves of ``who`` in the pending decision are made, one at a time
        (``make(index, value)``): as ``_moves_of`` makes them all."""
        R = self.R
        pend = R.pending
        verb, type_code, alone = pend["verb"], pend["type"], pend.get("alone")
        write = _writer(self.program, verb, type_code, alone)
        if "item" not in type_code:
            return lambda i, v: Move(i, v, write, who)
        hidden_at = R.hidden_place(who)
        if _public(self.program):
            loc = R.loc  # every item in a zone is seen by all (none is face down)
            sees = lambda x, _who: loc[x] >= 0  # noqa: E731
        else:
            sees = R.sees_item
        single = type_code == "item"

        def make(i: int, v) -> Move:
            if (v is None or sees(v, who)) if single else \
                    all(sees(x, who) for x in _items_of(v, type_code)):
                return Move(i, v, write, who)
            from .display import value_notation
            return Move(i, v, alone if alone is not None and v is None else
                        (f"{verb} " if verb else "")
                        + value_notation(self.program, v, type_code, hidden_at), who)
        return make

    def move_count(self, seat: int | None = None) -> int:
        """How many legal moves ``legal_moves(seat)`` has, without making them (a
        random playout needs only this and ``apply(index)``)."""
        pend = self.R.pending
        if pend is None:
            return 0
        if seat is None or seat == pend["player"]:
            if self._moves is not None:
                return len(self._moves)
            if FAST_PATHS and (self.R.chance is None or self.R.chance["step"] is None):
                return len(pend["options"])
            return len(self.legal_moves())
        return len(self.legal_moves(seat))

    def _written_at_once(self, who: int, options: list) -> list[Move]:
        """The moves of a decision with every notation written now (the straightforward
        path, which the fast one must match)."""
        from .display import value_notation
        pend = self.R.pending
        verb = pend["verb"]
        hidden_at = self.R.hidden_place(who) if "item" in pend["type"] else None
        alone = pend.get("alone")
        return [Move(i, v, alone if alone is not None and v is None else
                     (f"{verb} " if verb else "")
                     + value_notation(self.program, v, pend["type"], hidden_at), who)
                for i, v in enumerate(options)]

    def find_move(self, move, seat: int | None = None) -> Move:
        """A legal move from a Move, an index, or a notation (with or without its verb);
        an index or a notation is a move of ``seat`` (by default the seat deciding now,
        in a simultaneous decision the first still to choose)."""
        if FAST_PATHS:
            found = self._found_at_once(move, seat)
            if found is not None:
                return found
        if self.over:
            raise IllegalMove("the game is over")
        if self.at_chance:
            raise IllegalMove("a chance step comes first: set its outcome with apply_chance "
                              "or draw it with sample_chance")
        if isinstance(move, Move):
            seat = move.player
        if seat is not None and (isinstance(seat, bool) or seat not in self.deciding):
            raise IllegalMove(self._not_deciding(seat, getattr(move, "notation", None)))
        moves = self.legal_moves(seat)
        if isinstance(move, Move):
            i = move.index
            if FAST_PATHS and 0 <= i < len(moves) and moves[i] is move:
                return move  # a move of this position's own list
            for m in moves:
                if m.value == move.value and m.notation == move.notation:
                    return m
            raise IllegalMove(f"'{move.notation}' is not a legal move now")
        if isinstance(move, int) and not isinstance(move, bool):
            if 0 <= move < len(moves):
                return moves[move]
            raise IllegalMove(f"there is no move number {move}; there are {len(moves)} moves")
        if not isinstance(move, str):
            raise IllegalMove(f"a move is a Move, an index or a notation, not {type(move).__name__}")
        if seat is None and self.simultaneous:
            said = _SEAT_PREFIX.match(move)
            if said:  # "p2: bid 3", as records write the choices of a simultaneous decision
                return self.find_move(said.group(2), int(said.group(1)) - 1)
        return self._match(moves, move)

    def _found_at_once(self, move, seat: int | None) -> Move | None:
        """A move of the list of the seat deciding now (a Move of that very list, or
        an index in it, for that seat), found without looking further: it is legal as
        it is. None: find_move looks as usual (and says what is wrong)."""
        R = self.R
        pend = R.pending
        if pend is None or (R.chance is not None and R.chance["step"] is not None):
            return None
        cls = move.__class__
        if cls is int and (seat is None or (seat.__class__ is int and seat == pend["player"])):
            moves = self._moves
            if moves is not None:
                return moves[move] if 0 <= move < len(moves) else None
            options = pend["options"]
            if 0 <= move < len(options):
                # only the move played is made (the same Move as the list's would be)
                v, type_code, who = options[move], pend["type"], pend["player"]
                if type_code == "item" and v.__class__ is int:
                    # (R.sees_value(v, "item", who), in place)
                    f = R.facing[v]
                    if f >= 0:
                        seen = f >> who & 1
                    else:
                        z = R.loc[v]
                        seen = z >= 0 and (R.seers[z] >> who & 1 or z in R.revealed)
                    if not seen:
                        return self._maker(who)(move, v)
                elif "item" in type_code and not R.sees_value(v, type_code, who):
                    return self._maker(who)(move, v)
                write = self._writers.get((pend["verb"], type_code, pend.get("alone")))
                if write is None:
                    write = _writer(self.program, pend["verb"], type_code, pend.get("alone"))
                return Move(move, v, write, who)
        elif cls is Move:
            known, i = self._moves, move._index
            return move if known is not None and i < len(known) and known[i] is move else None
        return None

    def move_text(self, move: Move) -> str:
        """A legal move as a record writes it (before it is played): its notation; in a
        simultaneous decision, after its seat (``p2: bid 3``), so that the order in which
        the seats chose replays exactly. find_move and apply read both."""
        return f"p{move.player + 1}: {move.notation}" if self.simultaneous else move.notation

    def _not_deciding(self, seat, notation: str | None) -> str:
        what = f"'{notation}' is a move for seat" if notation is not None else "seat"
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.R.n:
            shown = seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else repr(seat)
            return f"there is no seat {shown}; the seats are 1 to {self.R.n}"
        pend = self.R.pending
        if any(s == seat for s, _ in pend.get("chosen", ())):
            return f"{what} {seat + 1}, which has already chosen"
        deciding = ", ".join(str(s + 1) for s in self.deciding)
        return f"{what} {seat + 1}, but seat {deciding} is deciding now" if len(self.deciding) == 1 \
            else f"{what} {seat + 1}, but seats {deciding} are deciding now"

    def _match(self, moves: list[Move], text: str) -> Move:
        """A notation's move: an exact match wins (with its verb, then without); else the
        same text ignoring case and runs of spaces (with, then without the verb), each
        only when it picks exactly one move: an ambiguous text is an IllegalMove."""
        verb = self.R.pending["verb"] or ""

        def bare(m: Move) -> str:
            return m.notation[len(verb) + 1:] if verb and m.notation.startswith(verb + " ") \
                else m.notation

        want = _relaxed(text)
        levels = ((lambda m: m.notation, text), (bare, text),
                  (lambda m: _relaxed(m.notation), want), (lambda m: _relaxed(bare(m)), want))
        for level, (key, wanted) in enumerate(levels):
            found = [m for m in moves if key(m) == wanted]
            if len(found) == 1 or (found and level == 0):
                # (options written exactly alike cannot be told apart: the first is taken)
                return found[0]
            if found:
                listed = ", ".join(repr(m.notation) for m in found[:8])
                raise IllegalMove(f"{text!r} could be any of {len(found)} moves ({listed}); "
                                  f"type it exactly or give its number")
        from .display import old_places
        older = old_places(self.program, text)
        if older != text:
            # a per-player zone's seat counted from 0 (hand:1#3), as older records wrote it
            return self._match(moves, older)
        from ..dsl.errors import did_you_mean
        hint = did_you_mean(want, [m.notation for m in moves])
        raise IllegalMove(f"{text!r} is not a legal move now" + (f"; {hint}" if hint else ""))

    # ------------------------------------------------------------ playing
    def apply(self, move, safe: bool = True, seat: int | None = None) -> Move:
        """Plays a legal move (an index or a notation is a move of ``seat``, by default
        the seat deciding now: see find_move). An illegal one raises IllegalMove and
        changes nothing; a rule error raises RuleError and (with ``safe``) leaves the
        game as it was. In a simultaneous decision each seat's choice is one move; the
        rules go on after the last."""
        m = self._found_at_once(move, seat) if FAST_PATHS else None
        if m is None:
            m = self.find_move(move, seat)
        R = self.R
        pend = R.pending
        if not safe and self._undo_limit == 0:
            return self._apply_bare(m, pend)
        # (self._begin(m), in place)
        h, stack, ch = self._history, R.stack, R.chance
        if len(h) >= _KEEP_MOVES:
            h[-_KEEP_MOVES][_H_LEGAL] = None
        j = []
        h.append([
            R.rng, R.active, R.turn, R.phase, R.moves, R.dropped, R.result, pend,
            tuple(R.seen), tuple(stack),
            None if ch is None else {"taken": list(ch["taken"]), "step": ch["step"], "n": ch["n"]},
            self._moves, m, j])
        R.j = j
        try:
            R.moves += 1
            self._moves = None
            if "waiting" in pend:
                R.low = len(stack)
                R.pending = dict(pend)  # the one before the move stays as it was, for undo
                R.choose_each(m.player, m.value)
            else:
                # (R.save_frame of the top frame, in place: the journal was just begun,
                # so the frame is not saved yet)
                f = stack[-1]
                L = f["L"]
                j.append((_FRAME, f, f["pc"], dict(L)))
                R.low = len(stack) - 1
                L[pend["var"]] = m._value
                R.pending = None
            if R.pending is None:
                run(R)
        except BaseException as e:
            # a rule error in a safe apply is taken back at once; after any other
            # failure the half-played move stays (as before), and undo takes it back
            self._end(keep=not (safe and isinstance(e, RuleError)))
            raise
        R.j, R.low = None, 0  # (the journal ends: self._end())
        if self._undo_limit is not None:
            self._forget()
        if self.script:
            self._follow_script()
        return m

    def _apply_bare(self, m: Move, pend: dict) -> Move:
        """``apply`` of a move nothing can take back (``undo_limit`` 0, not ``safe``):
        no journal at all. A failure leaves the move half played, as an unsafe apply
        does."""
        R = self.R
        R.moves += 1
        self._moves = None
        if "waiting" in pend:
            R.pending = dict(pend)  # (the decision's dict is shared: see decision)
            R.choose_each(m.player, m.value)
        else:
            R.stack[-1]["L"][pend["var"]] = m._value
            R.pending = None
        if R.pending is None:
            run(R)
        if self.script:
            self._follow_script()
        return m

    def undo(self) -> None:
        """Takes back the last move played on this game (a decision, one seat's choice
        in a simultaneous decision, or a chance outcome set or drawn in explicit chance
        mode): the game is then exactly as it was before it (the same state, the same
        legal moves). It costs time in proportion to what the move changed. Raises
        NothingToUndo (an IllegalMove) when no move was played since the game was made
        (``new``, ``resume``, ``copy``: the history of moves is not part of the state)."""
        if not self._history:
            raise NothingToUndo("there is no move to take back: no move was played since "
                                "this game was started, resumed or copied")
        self._restore(self._history.pop())

    @property
    def can_undo(self) -> int:
        """How many moves ``undo`` can take back."""
        return len(self._history)

    @property
    def undo_limit(self) -> int | None:
        """How many of the last moves ``undo`` can take back at most: None (the
        default) every move played on this game; 0 none. A game nobody takes moves back
        on (a game played by bots to its end, a search's playout) is cheaper with 0: it
        keeps no history of its moves, and ``apply(..., safe=False)`` keeps no journal
        at all (a rule error then leaves the move half played, as an unsafe apply does,
        with nothing to take it back). Setting it forgets the older moves at once. A
        game's copy starts with None. (Search bots read the last moves of the game they
        play: give it a limit of 0 only when no search bot plays it.)"""
        return self._undo_limit

    @undo_limit.setter
    def undo_limit(self, n: int | None) -> None:
        if n is not None and (n.__class__ is not int or n < 0):
            raise ValueError(f"undo_limit is a number of moves, 0 or more, or None; not {n!r}")
        self._undo_limit = n
        self._forget()

    def _forget(self) -> None:
        """Forgets the moves older than ``undo_limit`` allows."""
        h, limit = self._history, self._undo_limit
        if limit is not None and len(h) > limit:
            del h[:len(h) - limit]

    def _begin(self, move: Move | None = None) -> None:
        """Starts the journal of a move: what it may change as a whole is noted now (the
        scalars, the pending decision, the stack's frames, the seats' counts of items
        seen, the move itself: None for a chance outcome); the writes into the
        containers are noted as they happen. (apply writes the same in place.)"""
        R = self.R
        ch = R.chance
        h = self._history
        if len(h) >= _KEEP_MOVES:
            # the legal moves of older positions are forgotten (undo to them makes them
            # again): a long game keeps only the newest ones alive
            h[-_KEEP_MOVES][_H_LEGAL] = None
        h.append([
            R.rng, R.active, R.turn, R.phase, R.moves, R.dropped, R.result, R.pending,
            tuple(R.seen), tuple(R.stack),
            None if ch is None else {"taken": list(ch["taken"]), "step": ch["step"], "n": ch["n"]},
            self._moves, move, []])
        R.j = h[-1][-1]
        R.low = len(R.stack)

    def _end(self, keep: bool = True) -> None:
        """Ends the journal of a move; without ``keep`` (a rule error in a safe apply)
        takes the move back at once."""
        R = self.R
        R.j, R.low = None, 0
        if not keep:
            self._restore(self._history.pop())
        elif self._undo_limit is not None:
            self._forget()

    def _restore(self, before: list) -> None:
        R = self.R
        R.undo_writes(before[-1])
        (R.rng, R.active, R.turn, R.phase, R.moves, R.dropped, R.result, R.pending, seen,
         stack, R.chance, self._moves, _, _) = before
        R.seen[:] = seen
        R.stack[:] = stack
        R.end_requested = False

    # ------------------------------------------------------------ chance
    @property
    def chance_mode(self) -> str:
        return "seeded" if self.R.chance is None else "explicit"

    @property
    def at_chance(self) -> bool:
        """Whether the game waits for a chance outcome (explicit chance mode only)."""
        ch = self.R.chance
        return ch is not None and ch["step"] is not None

    @property
    def chance_kind(self) -> str | None:
        """What the pending chance step is: "shuffle", "pick", "roll" or "tie" (or None)."""
        return self.R.chance["step"]["kind"] if self.at_chance else None

    def chance_outcomes(self) -> list[Outcome]:
        """The outcomes of the pending chance step with their exact probabilities (they
        sum to 1); empty when no chance step is pending."""
        return outcomes_of(self.program, self.R.chance["step"]) if self.at_chance else []

    def find_outcome(self, outcome) -> Outcome:
        """A pending chance outcome from an Outcome, an index or a notation."""
        outs = self.chance_outcomes()
        if not outs:
            raise IllegalMove("no chance step is pending")
        if isinstance(outcome, Outcome):
            outcome = outcome.index if outcome in outs else outcome.notation
        if isinstance(outcome, int) and not isinstance(outcome, bool):
            if 0 <= outcome < len(outs):
                return outs[outcome]
            raise IllegalMove(f"there is no outcome number {outcome}; there are {len(outs)}")
        if isinstance(outcome, str):
            for o in outs:
                if o.notation == outcome:
                    return o
            want = _relaxed(outcome)
            found = [o for o in outs if _relaxed(o.notation) == want]
            if len(found) == 1:
                return found[0]
            listed = ", ".join(repr(o.notation) for o in outs[:12])
            raise IllegalMove(f"{outcome!r} is not an outcome of this chance step; they are {listed}")
        raise IllegalMove(f"an outcome is an Outcome, an index or a notation, not {type(outcome).__name__}")

    def apply_chance(self, outcome) -> Outcome:
        """Sets the pending chance step's outcome (an Outcome, index or notation) and
        plays on to the next decision or chance step."""
        o = self.find_outcome(outcome)
        self._resolve(self.R.chance["step"]["take"][o.index])
        self._follow_script()
        return o

    def sample_chance(self) -> Outcome:
        """Draws the pending chance step's outcome from the game's seeded generator (as
        the seeded mode does) and plays on."""
        if not self.at_chance:
            raise IllegalMove("no chance step is pending")
        R = self.R
        step = R.chance["step"]
        self._begin()  # the draw is part of the move that undo takes back
        try:
            R.rng, raw = rng.below(R.rng, len(step["of"]))
            o = self.chance_outcomes()[step["of"][raw]]
        except BaseException:
            self._end(keep=False)
            raise
        self._resolve(raw, begun=True)
        self._follow_script()
        return o

    def _resolve(self, raw: int, begun: bool = False) -> None:
        if not begun:
            self._begin()
        R = self.R
        try:
            R.chance["taken"] = R.chance["taken"] + [raw]
            R.chance["step"] = None
            R.chance["n"] += 1
            self._moves = None
            run(R)
        except BaseException as e:
            self._end(keep=not isinstance(e, RuleError))
            raise
        self._end()

    def _follow_script(self) -> None:
        while self.script and self.at_chance:
            o = self.find_outcome(self.script[0])
            self.script.pop(0)
            self._resolve(self.R.chance["step"]["take"][o.index])


def _log_types(prog: Program) -> list:
    """Per message: the type codes of its values, whether none of them can name an item,
    and where its single items are when no value is a list (else None); known once per
    program."""
    types = prog.__dict__.get("_log_types")
    if types is None:
        types = prog.__dict__["_log_types"] = [
            (t.types, not any("item" in c for c in t.types),
             None if any(c.startswith("list:") or ("item" in c and c != "item") for c in t.types)
             else tuple(i for i, c in enumerate(t.types) if c == "item"))
            for t in prog.logs]
    return types


def _keep_start(prog: Program, R: Runtime, seed: int) -> None:
    """Keeps a new game's state at its first decision as the start of the program's
    games (``Game.new``) when the setup (and what ran up to that decision) drew nothing
    from the generator: a run that draws nothing cannot depend on the seed (the
    generator is the only thing of the state the seed sets, and nothing else reads it),
    so every seed reaches the same state but for the generator's. ``False``: it drew."""
    prog.__dict__["_start_state"] = _copy_state(R.to_state()) \
        if R.rng == rng.seed_state(seed) and R.chance is None else False


def _decisions(prog: Program) -> dict:
    """The decisions of one seat met so far in the program's games, by (type, verb, seat)."""
    made = prog.__dict__.get("_decisions")
    if made is None:
        made = prog.__dict__["_decisions"] = {}
    return made


def _zone_visibility(prog: Program) -> list:
    """Each zone's visibility (see _visibility), known once per program."""
    vis = prog.__dict__.get("_zone_visibility")
    if vis is None or not FAST_PATHS:
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


_TEXTS_KEPT = 50_000  # notations kept per program and kind of decision


def _writer(prog: Program, verb: str | None, type_code: str, alone: str | None):
    """How the moves of one kind of decision (verb, type of options) are written, for
    values that name no item the decider may not know: such a notation depends on the
    program only, so each is written once per program and kept."""
    writers = _writers(prog)
    key = (verb, type_code, alone)
    write = writers.get(key)
    if write is None:
        write = writers[key] = _new_writer(prog, verb, type_code, alone)
    return write


def _writers(prog: Program) -> dict:
    """The program's writers made so far (see _writer), by (verb, type, alone)."""
    writers = prog.__dict__.get("_move_writers")
    if writers is None:
        writers = prog.__dict__["_move_writers"] = {}
    return writers


def _new_writer(prog: Program, verb: str | None, type_code: str, alone: str | None):
    """A writer for ``_writer`` (made apart: the cells of its closure are then made
    once per kind of decision, not at every look-up)."""
    from .display import value_notation
    prefix = f"{verb} " if verb else ""
    texts: dict = {}

    def write(v) -> str:
        if v is None and alone is not None:
            return alone
        t = v.__class__
        k = v if t is int or t is str else _text_key(v)
        text = texts.get(k) if k is not None else None
        if text is None:
            text = prefix + value_notation(prog, v, type_code)
            if k is not None and len(texts) < _TEXTS_KEPT:
                texts[k] = text
        return text

    return write


def _text_key(v):
    """A key for a value's notation (None: not kept): ints, strings and lists of them
    (a bool is written as a bool, never kept with the int it equals)."""
    t = type(v)
    if t is int or t is str:
        return v
    if t is list and all(type(x) is int for x in v):
        return tuple(v)
    return None


def _without_copy(notation: str) -> str:
    base, sep, number = notation.rpartition("#")
    return base if sep and base and number.isdigit() else notation


def outcomes_of(prog: Program, step: dict) -> list[Outcome]:
    """The outcomes of a chance step (``Runtime.draw``'s) with their exact probabilities."""
    from .display import value_notation
    total = len(step["of"])
    names = [value_notation(prog, v, step["type"]) for v in step["options"]]
    if step["type"] == "item":
        # an outcome stands for every item alike: written without a copy's number
        # (red#2), unless two outcomes would then read the same
        bare = [_without_copy(n) for n in names]
        names = [b if bare.count(b) == 1 else n for b, n in zip(bare, names)]
    return [Outcome(k, v, name, Fraction(w, total))
            for k, (v, w, name) in enumerate(zip(step["options"], step["weights"], names))]


def new_chance() -> dict:
    """The chance state of explicit mode: the outcomes set for the running random
    statement, the pending step (None: none) and how many outcomes were set so far."""
    return {"taken": [], "step": None, "n": 0}


def _relaxed(text: str) -> str:
    return " ".join(text.split()).casefold()


def revealed_since(before: dict, after: dict, player: int) -> bool:
    """Whether ``player`` learnt something hidden between two states (an item came
    into their sight, or the random generator was used): undoing would then let them
    play again knowing it, so a move may be undone only when this is false."""
    return before["rng"] != after["rng"] or before["seen"][player] != after["seen"][player] \
        or before.get("chance", {}).get("n") != after.get("chance", {}).get("n")


def _copy_state(s: dict) -> dict:
    """A cheap copy of a state: the containers that rules change in place are copied;
    values inside them (lists held by variables, options) are only ever replaced,
    never changed in place, so they can be shared."""
    out = dict(s)
    out["zones"] = [list(z) for z in s["zones"]]
    out["loc"] = list(s["loc"])
    out["facing"] = list(s["facing"])
    if "unsure" in s:
        out["unsure"] = list(s["unsure"])
    out["ivars"] = {k: list(v) for k, v in s["ivars"].items()}
    out["vars"] = dict(s["vars"])
    out["pvars"] = {k: list(v) for k, v in s["pvars"].items()}
    out["stack"] = [{"p": f["p"], "pc": f["pc"], "L": dict(f["L"])} for f in s["stack"]]
    out["pending"] = dict(s["pending"]) if s["pending"] is not None else None
    out["revealed"] = list(s["revealed"])
    out["seen"] = list(s["seen"])
    out["log"] = list(s["log"])
    if s["result"] is not None:
        out["result"] = copy.deepcopy(s["result"])
    if "chance" in s:
        out["chance"] = copy.deepcopy(s["chance"])
    return out
