"""Determinization: a whole game consistent with what one seat knows, for search bots.

``determinize(game, seat, rng)`` returns a new game in which everything the seat may not
know has been drawn again from ``rng``:

* the items the seat does not see now (face down, in hands or piles it may not look
  into), in zones whose contents it may not know (``game.unsure_zones(seat)``: hidden
  items came in or left unseen by it, or the zone was shuffled; the hidden items of a
  zone it knows stay put), are dealt again, at random, over the places where such items
  lie: each item goes
  to a place that held an item of the same kind (a zone or board holds one declared
  kind), so the counts of every zone, and what the seat sees, stay as they are. Their
  item variables, which the seat does not see either, go back to their starting values
  (a sample must not carry what they really are, not even which values are about). Every reference to a
  dealt item follows it (variables, item variables, messages, the locals of the rules
  under way, the options of the decision under way), as in the twin games of
  ``meeple test``'s leak check (interpreter/analysis/leaks.py); who sees an item lying face
  down stays with its place. Items that a local of unknown type holds stay where they
  are.
* the items the seat does not see in dark zones (whose views list only the items a seat
  sees: not how many others lie there, nor where) are then laid again at random, each
  in a dark zone holding its kind, one the seat sees empty first (``_scatter_dark``):
  where they really lie is not read, only how many there are (which the seat can count
  from the rest, each item being somewhere);
* the secret choices other seats have already made in a simultaneous decision under
  way are drawn again among their options;
* the values the seat may not see (variables declared ``hidden``, per-player ones
  declared ``owner`` of another seat, of every type: a role, a list of dice) go back
  to their initial values, and the locals of the rules under way that may hold a value
  read from one, or (in a game that hides something) from a roll not shown before a
  decision (``Checked.private_locals``, ``unshown_random``: dsl/check_private.py), to
  the first value of their type;
* the random generator is seeded again from ``rng``: future shuffles, draws and rolls
  are not the game's.

The result depends only on what the seat may see (its view: which places hold hidden
items, which items it sees, which zones it may not know) and on ``rng``: two games whose views for the seat are the
same give the same determinization for the same ``rng`` state.

**Respecting the past** (``past=Past(game, seat)``). Without it, what the seat saw
earlier is not used: a card it passed to another seat is dealt anywhere, and a seat
that did not follow suit may be dealt cards of that suit. With it, a sample must also
agree with the moves played since the game's last random step (the newest move that
used the generator, or a chance outcome: the shuffle and deal of the hand under way),
as the game's undo history holds them (a game resumed or copied has none: nothing
more is used; only the newest ``WINDOW`` moves are checked, a bound on the cost):

* an item the seat saw at some position since then and does not see now (a card it
  passed) keeps its place: it is not dealt again. That it is still there is known only
  if no other seat has since made a move naming items the seat did not see (a card
  discarded face down might be that one): the window then starts later, after the
  seat last saw such items (``_tracked_from``; tested with a card given, then maybe
  discarded face down);
* the others are dealt as above, giving a relabeling σ of the hidden items (the true
  item at a place -> the sample's item there). The position after the last random step
  is relabeled by σ (with the item variables of the items hidden then and the values
  the seat may not see back at their initial values, and a
  fixed generator), and the moves since then, relabeled too, are played again from
  it: each must be among the options the rules give then (a seat that discarded was
  void in the suit led), and after each the seat's view (with the messages of that
  move) must be the one it had (a move naming a dealt item the rules do not offer, when
  they offer a dealt item that looks the same, plays that one: the two trade labels,
  which nothing the seat saw tells apart). The first move that fails rejects the sample; at most
  ``ATTEMPTS`` samples are drawn, then the one that agreed with the most moves is
  taken (the first of those), so a call costs a bounded time; once ``GIVE_UP`` calls
  for the same ``Past`` found none and none did, each draws one sample only (whose
  verdicts, like everything here, follow from what the seat saw).

Why this reads nothing the seat may not know: a sample is a function of the seat's
view now, of ``rng`` and of the past *up to a relabeling of the items the seat has not
seen*. Take two games whose pasts differ only by which unseen item lies where (a twin
of the leak check, made by exchanging two unseen items and playing the same moves).
The places dealt are the same, the items dealt are the same set, so ``rng`` gives the
same sample W in both; σ differs by exactly the exchange, so σ applied to each game's
past gives the same relabeled positions and moves; what is replayed from there is
then the same, and so are the verdicts and the sample returned. What the check takes
from the past otherwise is what the rules and the seat saw: where items moved (places,
not identities), the moves as values relabeled by σ, the seat's own views; the values
it may not see are reset, the generator is not the game's, and steps that used the
game's generator (whose outcomes are not known to the seat) bound the window, and so
do moves of other seats that name items it did not see, which may have moved the items
it lost sight of. (Rules that move an item the seat lost sight of by what hidden items
are, with no move of another seat, are not detected: the sample then keeps it where it
really went. The locals of the rules under way at that position are taken as they
are, as above. Places are taken as known, as above: where the rules move hidden items by what they
are, such as sorting a hand the seat does not see, the order within that place in the
relabeled past follows the true items' order, which only rules that read that order
could tell.) Constraints that a deal at random rarely meets (hidden items whose
properties the rules tie to their places in ways the deal by kind ignores) end in the
best sample drawn, then in one sample per call (``GIVE_UP``).
tests/test_search_bots.py checks that twins give the same samples and moves, and that
a given card a seat may have discarded face down is not placed where it went.
"""
from __future__ import annotations

import copy
import random

from ...dsl.types import T
from ..play import picks, rng as rng_mod
from ..play.game import _H_LEGAL, _H_MOVE, _H_RNG, Game, _copy_state
from ..play.helpers import RuleError
from ..play.relabel import follow, held_items, map_value
from ..play.runtime import _MISSING, IllegalMove
from ..play.views import seat_sees, view, visible_items

#: samples drawn at most by one determinization that respects the past (then the best)
ATTEMPTS = 30
#: after this many determinizations of a position found no sample agreeing with its
#: whole past, and none did, the next ones draw one sample each (the past's constraints
#: are then too tight for drawing at random: the cost stays bounded)
GIVE_UP = 3
#: the newest moves checked at most (a window that starts later only knows less)
WINDOW = 120


def determinize(game: Game, seat: int, rng: random.Random, past: Past | None = None) -> Game:
    """A copy of ``game`` with what ``seat`` may not know drawn again from ``rng`` (see
    the module); with ``past`` (a ``Past`` of this game and seat), one that also agrees
    with the moves played since the last random step. The original game is not changed."""
    if past is None or not past.steps:
        return _complete(game, seat, rng, _shuffled(_slots(game.R, seat, ()), rng))
    best, best_agreed = None, -1
    attempts = 1 if past.missed >= GIVE_UP and not past.found else ATTEMPTS
    for _ in range(attempts):
        mapping = _shuffled(past.slots, rng)
        agreed = past.agreed(mapping)
        if agreed == len(past.steps):
            past.found += 1
            return _complete(game, seat, rng, mapping)
        if agreed > best_agreed:
            best, best_agreed = mapping, agreed
    past.missed += 1
    return _complete(game, seat, rng, best)


def _complete(game: Game, seat: int, rng: random.Random, mapping: dict[int, int]) -> Game:
    """The sample of ``game`` whose hidden items are dealt by ``mapping``."""
    sample = game.copy()
    R = sample.R
    _place(R, mapping)
    if any(a != b for a, b in mapping.items()):
        follow(sample, mapping)
    _scatter_dark(R, seat, rng)
    _forget_item_vars(R, mapping)
    _forget_private(R, seat)
    _redraw_choices(R, seat, rng)   # (after: the others' options are asked of the sample)
    R.rng = rng_mod.seed_state(rng.getrandbits(64))
    return sample


class Past:
    """What a seat has seen since a game's last random step, once per position (what
    ``determinize`` checks a sample against does not depend on the sample): the moves
    played since then, the positions before them, the seat's views after them."""

    def __init__(self, game: Game, seat: int):
        self.seat, self.program = seat, game.program
        self.found = self.missed = 0  # determinizations that found a sample agreeing, or not
        walked = _positions(game)
        walked = walked[_tracked_from(game, seat, walked):]
        #: the moves since the last random step, oldest first: (seat, value, type code)
        self.steps = [(player, value, state["pending"]["type"]) for state, player, value in walked]
        self.first = walked[0][0] if walked else None  # the state after that step
        before = [Game(game.program, state) for state, _, _ in walked]
        # the seat's views after each move, with the messages said since just before it
        self.said = [_said(g.R) for g in before]
        self.views = [_glimpse(g, seat, n) for g, n in zip(before[1:] + [game], self.said)]
        seen = set().union(*(visible_items(g, seat) for g in before))
        #: the items hidden now that the seat saw since the last random step: they stay put
        self.known = seen & {i for _, _, i in _hidden_slots(game.R, seat)}
        self.slots = _slots(game.R, seat, self.known)
        self.dealt = {i for slots in self.slots.values() for _, _, i in slots}
        self.looks = [(info.kind, sorted(info.attrs.items())) for info in game.program.items]
        # the items the seat did not see then, whose item variables are reset there
        shown = visible_items(before[0], seat) if before else set()
        self.hidden_first = {i: i for i, z in enumerate(before[0].R.loc if before else [])
                             if z >= 0 and i not in shown}

    def agreed(self, mapping: dict[int, int]) -> int:
        """How many of the moves since the last random step, oldest first, the game
        relabeled by ``mapping`` agrees with (all: ``len(steps)``). A move naming a
        dealt item that is not among the options, while a dealt item that looks the same
        (same kind and properties) is, plays that one: the two trade labels in the game
        and in ``mapping`` (changed in place), as nothing the seat saw tells them apart."""
        g = self._relabeled(mapping)
        for k, (player, value, code) in enumerate(self.steps):
            options = _options(g.R.pending, player)
            want = map_value(value, code, mapping)
            if options is not None and want not in options and code == "item":
                alike = self._alike(want, options)
                if alike is not None:
                    _trade(g, mapping, want, alike)
                    options = _options(g.R.pending, player)
            if options is None or want not in options:
                return k
            try:
                g.apply(options.index(want), safe=False, seat=player)
            except (RuleError, IllegalMove):
                return k
            if _glimpse(g, self.seat, self.said[k]) != self.views[k]:
                return k
        return len(self.steps)

    def _alike(self, item, options: list) -> int | None:
        """A dealt item among ``options`` that looks like the dealt ``item``, if any."""
        if item not in self.dealt:
            return None
        look = self.looks[item]
        return next((o for o in options if o in self.dealt and self.looks[o] == look), None)

    def agreed_by(self, game: Game, sample: Game) -> bool:
        """Whether ``sample``, a determinization of ``game`` (the game of this past),
        agrees with every move since the last random step."""
        mapping = {a: b for za, zb in zip(game.R.zones, sample.R.zones) for a, b in zip(za, zb) if a != b}
        return self.agreed(mapping) == len(self.steps)

    def _relabeled(self, mapping: dict[int, int]) -> Game:
        """The position after the last random step with its items relabeled by
        ``mapping``, what the seat may not see reset, and a fixed generator."""
        g = Game(self.program, _copy_state(self.first))
        R = g.R
        if any(a != b for a, b in mapping.items()):
            _relabel(R, mapping)
            follow(g, mapping)
        _forget_item_vars(R, self.hidden_first)
        _forget_private(R, self.seat)
        R.rng = rng_mod.seed_state(0)
        return g


def _tracked_from(game: Game, seat: int, walked: list) -> int:
    """Where the window must start so that no item the seat saw in it and does not see
    now was out of its sight when another seat made a move naming items the seat did
    not see (a card discarded face down): that move may have taken it elsewhere, and
    which item it took is not the seat's to know. (A later start knows less.)"""
    prog = game.program
    positions = [Game(prog, state) for state, _, _ in walked]
    shown = [visible_items(g, seat) for g in positions] + [visible_items(game, seat)]
    hidden_now = {i for _, _, i in _hidden_slots(game.R, seat)}
    # (a card played face up is named by a move the seat sees once it is made)
    blind = [k for k, (state, player, value) in enumerate(walked)
             if player != seat and any(i not in shown[k] and i not in shown[k + 1] for i in
                                       _items_in(value, state["pending"]["type"]))]
    start = 0
    while True:
        last = {i: k for k in range(start, len(walked)) for i in shown[k] & hidden_now}
        lost = [k for i, k in last.items() if any(j > k for j in blind)]
        if not lost:
            return start
        start = max(lost) + 1


def _items_in(value, type_code: str) -> list[int]:
    """The items a move's value names."""
    if value is None or "item" not in type_code:
        return []
    if type_code.startswith("list:"):
        return [i for v in value for i in _items_in(v, type_code[5:])]
    return [value] if type_code == "item" else []


def _trade(g: Game, mapping: dict[int, int], a: int, b: int) -> None:
    """Items a and b trade labels in ``g`` and in ``mapping``."""
    swap = {a: b, b: a}
    _relabel(g.R, swap)
    follow(g, swap)
    g._moves = None
    for x, y in mapping.items():
        mapping[x] = swap.get(y, y)


def determinize_past(game: Game, seat: int) -> Past:
    """What ``determinize`` checks samples against for ``seat`` now (see Past)."""
    return Past(game, seat)


def _positions(game: Game) -> list[tuple[dict, int, object]]:
    """(the state before, the seat, the value) of each move played on ``game`` since its
    last random step (a move that used the generator, or a chance outcome), the newest
    ``WINDOW`` at most, oldest first, read from its undo history (on a copy: the game is
    not changed)."""
    history = game._history
    if not history:
        return []
    # the state and its history copied together (the frames they share stay shared);
    # the legal moves kept for undo are left out
    memo = {id(_MISSING): _MISSING}
    trimmed = [e[:_H_LEGAL] + [None] + e[_H_LEGAL + 1:] for e in history]
    state, trimmed = copy.deepcopy((game.R.to_state(), trimmed), memo)
    walk = Game(game.program, state)
    walk._history = trimmed
    out = []
    while walk._history and len(out) < WINDOW:
        entry = walk._history[-1]
        move = entry[_H_MOVE]
        if move is None or entry[_H_RNG] != walk.R.rng:
            break
        walk.undo()
        out.append((_copy_state(walk.R.to_state()), move.player, move.value))
    out.reverse()
    return out


def _said(R) -> int:
    """How many messages were said so far (kept or dropped)."""
    return R.dropped + len(R.log)


def _glimpse(game: Game, seat: int, said: int) -> dict:
    """The seat's view with only the messages said after the first ``said``."""
    R = game.R
    full = R.log
    R.log = full[max(0, said - R.dropped):]
    try:
        return view(game, seat)
    finally:
        R.log = full


def _options(pend: dict | None, player: int) -> list | None:
    """The options of ``player`` in a pending decision (None: it does not decide now)."""
    if pend is None:
        return None
    if "waiting" in pend:
        if player not in pend["waiting"]:
            return None
        return pend["each"][pend["seats"].index(player)]
    return pend["options"] if pend["player"] == player else None


def _relabel(R, mapping: dict[int, int]) -> None:
    """Every item ``a`` of ``mapping`` put where it was: ``mapping[a]`` takes its place,
    its facing and its item variables (whose values _follow then relabels)."""
    for items in R.zones:
        for pos, i in enumerate(items):
            if i in mapping:
                items[pos] = mapping[i]
    loc, facing = list(R.loc), list(R.facing)
    for a, b in mapping.items():
        R.loc[b], R.facing[b] = loc[a], facing[a]
    for table in R.ivars.values():
        old = list(table)
        for a, b in mapping.items():
            table[b] = old[a]


def _hidden_slots(R, seat: int) -> list[tuple[int, int, int]]:
    """(zone, position, item) of each item the seat may not see now, in a zone whose
    contents it may not know (``Runtime.unsure``), in the order of places (zone, then
    position). The hidden items of a zone the seat knows (a bowl of stones the setup
    filled, that only ever gave stones to the board) stay where they are: none of them
    can be anywhere else."""
    held = held_items(R) if R.stack else set()
    out: list[tuple[int, int, int]] = []
    dark: list[tuple[int, int, int]] = []
    zones = R.prog.zones
    for z, items in enumerate(R.zones):
        if seat >= 0 and not R.unsure(z, seat):
            continue
        for pos, i in enumerate(items):
            if i not in held and not seat_sees(R, i, seat):
                # (a dark zone's come last: which items are dealt to them, as a set, then
                # does not depend on which dark zones they lie in)
                (dark if zones[z].dark else out).append((z, pos, i))
    return out + dark


def _slots(R, seat: int, keep) -> dict[str, list[tuple[int, int, int]]]:
    """The places to deal again, by kind: those of the hidden items not in ``keep``."""
    prog = R.prog
    by_class: dict[str, list[tuple[int, int, int]]] = {}
    for slot in _hidden_slots(R, seat):
        if slot[2] not in keep:
            by_class.setdefault(prog.items[slot[2]].kind, []).append(slot)
    return by_class


def _shuffled(by_class: dict, rng: random.Random) -> dict[int, int]:
    """A new deal of the hidden items over their places, kind by kind: old item -> new
    item per place."""
    mapping: dict[int, int] = {}
    for key in sorted(by_class):
        slots = by_class[key]
        items = sorted(i for _, _, i in slots)
        rng.shuffle(items)
        for (_z, _pos, old), new in zip(slots, items):
            mapping[old] = new
    return mapping


def _place(R, mapping: dict[int, int]) -> None:
    """Puts each dealt item where ``mapping`` deals it (the place of the item it maps from)."""
    if not mapping:
        return
    where = {i: (z, pos) for z, items in enumerate(R.zones) for pos, i in enumerate(items) if i in mapping}
    facing = list(R.facing)
    for old, new in mapping.items():
        z, pos = where[old]
        R.zones[z][pos] = new
        R.loc[new] = z
        R.facing[new] = facing[old]


def _scatter_dark(R, seat: int, rng: random.Random) -> None:
    """The items the seat may not see in dark zones, whose places it does not know either
    (its view neither lists nor counts them), laid again at random: each, in an order
    drawn from ``rng``, goes to a dark zone that holds its kind, at a place in it drawn
    too; a zone in which the seat sees no item and that got none yet is preferred (a cell
    where it saw nothing may hold one item it did not see). How many such items there
    are is what the seat can count from the rest (each item is somewhere); where they
    lay is not read. Items a local of the rules under way holds stay where they are."""
    dark = [z.id for z in R.prog.zones if z.dark and (z.owner is None or z.owner < R.n_players)]
    if not dark or seat == "all":
        return
    held = held_items(R) if R.stack else set()
    gone = sorted(i for z in dark for i in R.zones[z] if i not in held and not seat_sees(R, i, seat))
    if not gone:
        return
    out = set(gone)
    for z in dark:
        if any(i in out for i in R.zones[z]):
            R.zones[z][:] = [i for i in R.zones[z] if i not in out]
    rng.shuffle(gone)
    got: set[int] = set()
    for item in gone:
        _lay(R, item, dark, got, rng)
        if seat >= 0:
            R.unsure_seats[R.loc[item]] |= 1 << seat


def _lay(R, item: int, dark: list[int], got: set[int], rng: random.Random) -> None:
    """Puts the item at a place drawn from ``rng`` in one of the ``dark`` zones that hold
    its kind: one still empty that got none yet (``got``), if any."""
    zones, kind = R.prog.zones, R.prog.items[item].kind
    fits = [z for z in dark if zones[z].kind == kind]
    free = [z for z in fits if z not in got and not R.zones[z]]
    z = rng.choice(free or fits)
    got.add(z)
    R.zones[z].insert(rng.randrange(len(R.zones[z]) + 1), item)
    R.loc[item] = z


def _forget_item_vars(R, dealt) -> None:
    """The item variables of the items dealt again (those the seat does not see) go
    back to their starting values."""
    if not dealt or not R.ivars:
        return
    start = R.prog.init_item_vars(R)
    for name, table in R.ivars.items():
        first = start.get(name)
        if first is None:
            continue
        for item in dealt.values():
            if table[item] is not None:
                table[item] = first[item]


def _redraw_choices(R, seat: int, rng: random.Random) -> None:
    """The other seats' part of a simultaneous decision under way, on the sample: their
    options asked again of it (they may follow from what the seat may not see: the
    others' hands, a hidden limit), their secret choices drawn again among them."""
    pend = R.pending
    if pend is None or "waiting" not in pend:
        return
    each = _asked_again(R, seat)
    if each is None and not pend["chosen"]:
        return
    chosen = pend["chosen"]
    R.ask_each(pend["var"], list(zip(pend["seats"], each or picks.asked(pend))), pend["type"],
               pend["verb"], pend.get("picks"))
    for s, value in chosen:
        if s != seat:
            options = R.pending["each"][R.pending["seats"].index(s)]
            value = options[rng.randrange(len(options))]
        R.choose_each(s, value)


def _asked_again(R, seat: int) -> list | None:
    """The options of each seat of the simultaneous decision under way, the other seats'
    asked again of the sample by the instruction that asked them (the seat's own as it
    was shown them); None where that cannot be done (the decision is not the frame's
    last instruction, or asking again breaks a rule of the sample)."""
    from ..core import ops
    pend = R.pending
    if not R.stack:
        return None
    frame = R.stack[-1]
    proc = R.prog.procs.get(frame["p"])
    i = frame["pc"] - 1
    if proc is None or proc.plain is None or proc.core is None or not 0 <= i < len(proc.core):
        return None
    ins = proc.core[i]
    if not isinstance(ins, ops.AskEach) or ins.var != pend["var"]:
        return None
    R.pending = None
    try:
        proc.plain[i](R, dict(frame["L"]))
        again = R.pending
    except Exception:  # noqa: BLE001 - the sample breaks a rule there: as it was asked
        again = None
    R.pending = pend
    if again is None or again["seats"] != pend["seats"]:
        return None
    return [mine if s == seat else theirs
            for s, mine, theirs in zip(pend["seats"], picks.asked(pend), again["each"])]


def _forget_private(R, seat: int) -> None:
    """The values the seat may not see go back to their initial values: variables
    declared ``hidden``, the other seats' values of those declared ``owner`` (of every
    type: a role, a list of dice, a cell), and the locals of the rules under way that
    hold a value read from them (``Checked.private_locals``)."""
    prog = R.prog
    declared = prog.checked.vars
    for name in list(R.vars):
        if declared[name].visibility is not None:
            R.vars[name] = _initial(prog, R, name)
    for name, values in R.pvars.items():
        d = declared[name]
        if d.visibility is not None:
            for p in range(R.n_players):
                if d.visibility == "hidden" or p != seat:
                    values[p] = _initial(prog, R, name)
    _forget_private_locals(R)


def _forget_private_locals(R) -> None:
    """A local that may hold a value read from a private variable (``let x = limit(p)``)
    takes the first value of its type: what it holds is not the seat's to know, and a
    sample made from the seat's view cannot tell it either."""
    prog = R.prog
    private = prog.checked.private_locals
    # (a game that hides nothing tells its random steps as they fall: views.chance_seen)
    unseen = prog.checked.unshown_random if prog.hidden_information else {}
    for frame in R.stack:
        local = frame["L"]
        for name, t in [*private.get(frame["p"], {}).items(), *unseen.get(frame["p"], {}).items()]:
            if name in local:
                local[name] = _blank(prog, t)


def _blank(prog, t):
    """The first value of type ``t`` as a state holds it: 0, false, "", the first
    player, an enum's first value, an empty list; none for an item, a cell or a tuple."""
    match t.tag:
        case "int" | "player":
            return 0
        case "bool":
            return False
        case "str":
            return ""
        case "enum":
            return prog.checked.enums[t.arg][0]
        case "list":
            return []
    return None


def _initial(prog, R, name: str):
    try:
        return copy.deepcopy(prog.var_inits[name](R, {}))
    except Exception:  # noqa: BLE001 - an initial value that needs more than the state
        t = prog.checked.vars[name].type.name   # (the first value of its type)
        return _blank(prog, T("enum", t) if t in prog.checked.enums else T(t if t in _TAGS else "item"))


_TAGS = ("int", "bool", "str", "player", "list")


def redrawn(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of a determinized game with the secret choices of the other seats and its
    random generator drawn anew from ``rng`` (its items stay where they are)."""
    out = game.copy()
    _redraw_choices(out.R, seat, rng)
    out.R.rng = rng_mod.seed_state(rng.getrandbits(64))
    return out
