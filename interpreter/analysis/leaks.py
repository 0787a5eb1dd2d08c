"""Leak detection by non-interference, for ``meeple test``.

For a seat S (a player, or the spectator), exchanging two items that S has never been
shown must not change anything S is shown. At a probe point of a game, a **twin** of the
game is made in which two such items ``a`` and ``b`` trade places; both games then go on
with the same moves, and S's view of both is compared after every move:

* the exchange: ``a`` takes ``b``'s place (zone and position) and ``b`` takes ``a``'s;
  who sees the item lying face down at a place stays with the place (``facing``); every
  reference to ``a`` in the state names ``b`` instead and the other way round (variables,
  log entries and the items they name, the options of the pending decision, re-ordered as
  the rules order them). Only items of the same kind, with the same item variables and
  other attributes, are exchanged; the locals of the procedures under way follow too
  (their types come from the ruleset), and items that a local of unknown type might
  hold are not exchanged. The twin is the game as it would be
  had the two cards been dealt the other way round.
* the moves: a decision of S is played by the same index (S's options must be the same
  in both games); a decision of another seat by the same option, with ``a`` and ``b``
  exchanged. When the twin has no such option (that seat saw a different hand and may
  decide differently), the comparison stops: the games differ legitimately from then on.
* the comparison stops without a verdict when either item comes into S's sight in either
  game (it is in a place S sees and not face down to S, or a message names it so that S
  may read it), when both games are over, or after ``MAX_TWIN_MOVES`` moves.
* anything else S is shown that differs is a leak: the view (zones, variables, item
  variables, who decides, the log as S reads it, whether the game is over) and, when S
  decides, its options (notations) and their texts (``display.value_text``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..play import display, views
from ..play.game import Game
from ..play.helpers import RuleError
from ..play.relabel import exchange, held_items, map_value, permute  # noqa: F401 - (leaks.exchange as before)

MAX_TWIN_MOVES = 40   # how long the two games of one probe are compared at most
MAX_PROBES = 3        # probes per game


@dataclass(frozen=True)
class Probe:
    """Where and what to exchange, as Hypothesis draws it: after ``at`` moves; the seat
    is ``seat`` modulo (players + 1), the last one being the spectator; ``first`` and
    ``second`` pick the two items among the candidates (top items of piles first)."""

    at: int
    seat: int = 0
    first: int = 0
    second: int = 0


class Leak(Exception):
    """What differs: where (a sentence) and the rule's place when known."""

    def __init__(self, where: str, span=None):
        super().__init__(where)
        self.where, self.span = where, span


# ---------------------------------------------------------------- what a seat has been shown

class Knowledge:
    """For each item, the seats that have ever been shown it (bit p for seat p, bit n
    for the spectator): in a view, or named in a message they could read."""

    def __init__(self, n_items: int, players: int):
        self.n = players
        self.all = (1 << (players + 1)) - 1
        self.bits = [0] * n_items
        self._last = None  # the last log entry read

    def seen(self, item: int, seat: int) -> bool:
        return bool(self.bits[item] >> _bit(seat, self.n) & 1)

    def update(self, game) -> None:
        """Adds what the seats are shown in ``game`` now (its views and new messages)."""
        R = game.R
        bits, full = self.bits, self.all
        for i in range(len(bits)):
            if bits[i] == full:
                continue
            if R.public_item(i):
                bits[i] = full
                continue
            for p in R.players:
                if R.sees_item(i, p):
                    bits[i] |= 1 << p
        for entry in self._new_entries(R.log):
            types = R.prog.logs[entry[0]].types
            masks = entry[2] if len(entry) > 2 else [None] * len(types)
            for v, t, m in zip(entry[1], types, masks):
                for item, mask in _items_and_masks(v, t, m):
                    bits[item] |= full if mask == -1 else (mask or 0)

    def _new_entries(self, log: list) -> list:
        start = 0
        if self._last is not None:
            for k in range(len(log) - 1, -1, -1):
                if log[k] is self._last:
                    start = k + 1
                    break
        if log:
            self._last = log[-1]
        return log[start:]


def _bit(seat: int, n: int) -> int:
    return n if seat < 0 else seat


def _items_and_masks(v, t: str, m):
    if v is None:
        return []
    if t.startswith("list:"):
        ms = m if isinstance(m, list) else [None] * len(v)
        return [x for e, mm in zip(v, ms) for x in _items_and_masks(e, t[5:], mm)]
    return [(v, m)] if t == "item" else []


# ---------------------------------------------------------------- the exchange

def candidates(game: Game, seat: int, known: Knowledge) -> list[int]:
    """The items the seat has never been shown and may not see now, in zones whose
    contents it may not know (``unsure``), top of piles first, leaving out those the
    running procedure holds in its locals."""
    R = game.R
    held = held_items(R)
    unsure = [unsure_zone(R, z, seat) for z in range(len(R.zones))]
    out = [i for i, z in enumerate(R.loc)
           if z >= 0 and unsure[z] and i not in held and not known.seen(i, seat)
           and not views.seat_sees(R, i, seat)]
    return sorted(out, key=lambda i: (len(R.zones[R.loc[i]]) - 1 - R.zones[R.loc[i]].index(i), R.loc[i], i))


def unsure_zone(R, zone: int, seat: int) -> bool:
    """Whether the seat may not know which items the zone holds, in which order
    (``Runtime.unsure``; for the spectator: when a player may not). In a zone it knows,
    the items it does not see cannot be anywhere else (a bowl of stones only ever
    emptied): exchanging them would make a game no one could reach."""
    if seat >= 0:
        return R.unsure(zone, seat)
    return any(R.unsure(zone, p) for p in range(R.n_players))


def pick_pair(game: Game, seat: int, known: Knowledge, first: int, second: int):
    """Two items to exchange, or None: same kind, same item variables, other attributes."""
    cands = candidates(game, seat, known)
    if len(cands) < 2:
        return None
    prog, R = game.program, game.R
    a = cands[first % len(cands)]
    key = _class(prog, R, a)
    partners = [b for b in cands if b != a and _class(prog, R, b) == key
                and prog.items[b].attrs != prog.items[a].attrs]
    if not partners:
        return None
    return a, partners[second % len(partners)]


def _class(prog, R, item: int):
    return prog.items[item].kind, repr([R.ivars[k][item] for k in sorted(R.ivars)])


# ---------------------------------------------------------------- seeing

def _log_shows(R, items: tuple, seat: int) -> bool:
    """Whether a message in the log names one of the items so that the seat may read it."""
    return log_shows(R, R.log, items, seat)


def log_shows(R, entries: list, items, seat: int) -> bool:
    """Whether one of these messages names one of the items so that the seat may read it."""
    for entry in entries:
        types = R.prog.logs[entry[0]].types
        masks = entry[2] if len(entry) > 2 else [None] * len(types)
        for v, t, m in zip(entry[1], types, masks):
            for item, mask in _items_and_masks(v, t, m):
                if item in items and (mask == -1 or (seat >= 0 and mask is not None
                                                     and mask >> seat & 1)):
                    return True
    return False


def in_sight(game: Game, items: tuple, seat: int) -> bool:
    R = game.R
    return any(views.seat_sees(R, i, seat) for i in items) or _log_shows(R, items, seat)


# ---------------------------------------------------------------- comparing what a seat is shown

def compare(g1: Game, v1: dict, said1: list, g2: Game, v2: dict, said2: list,
            seat: int, same_decider_only: bool = False, options: bool = True) -> Leak | None:
    """The first thing the seat is shown that differs between the two games (``said``:
    the log entries of each view's log). With ``same_decider_only``, of the decision
    under way only who decides is compared (not what they are asked); without
    ``options``, not the seat's own options."""
    prog = g1.program
    if (g1.over, g1.R.phase) != (g2.over, g2.R.phase):
        return Leak("in whether the game is over: it ends in one game and goes on in the other")
    for key, what in (("active", "who is active"), ("turn", "the turn number")):
        if v1[key] != v2[key]:
            return Leak(f"in {what}: {v1[key]!r} in one game, {v2[key]!r} in the other")
    p1, p2 = v1["pending"], v2["pending"]
    leak = _compare_pending(g1, p1, g2, p2, same_decider_only) or \
        _compare_zones(prog, v1["zones"], v2["zones"]) or _compare_vars(prog, v1, v2)
    if leak:
        return leak
    if v1["ivars"] != v2["ivars"]:
        return Leak("in the item variables of the items it sees")
    if v1["face_down"] != v2["face_down"]:
        return Leak("in which face-down items it knows")
    leak = _compare_log(g1.program, v1["log"], said1, v2["log"], said2)
    if leak:
        return leak
    if options and p1 is not None and "options" in p1:
        return _compare_options(g1, p1["options"], g2, p2.get("options", []), seat)
    return None


def _compare_pending(g1: Game, p1, g2: Game, p2, same_decider_only: bool) -> Leak | None:
    """Who decides, and what the seat is shown of the decision under way."""
    prog = g1.program
    verbs = (p1 or {}).get("verb"), (p2 or {}).get("verb")
    if (p1 or {}).get("player") != (p2 or {}).get("player") or \
            (verbs[0] != verbs[1] and not same_decider_only):
        return Leak(f"in who decides: {_decider(prog, p1)} in one game, {_decider(prog, p2)} in "
                    f"the other", _choose_span(g1) or _choose_span(g2))
    # a simultaneous decision: who chooses and who has chosen, and (when the same seats
    # are asked the same) anything else it shows, but the seat's own options
    keys = ("simultaneous", "seats", "waiting") if same_decider_only else \
        sorted((set(p1 or {}) | set(p2 or {})) - {"options"})
    for key in keys:
        if (p1 or {}).get(key) != (p2 or {}).get(key):
            return Leak(f"in the decision under way ({key}): {(p1 or {}).get(key)!r} in one "
                        f"game, {(p2 or {}).get(key)!r} in the other",
                        _choose_span(g1) or _choose_span(g2))
    return None


def _compare_vars(prog, v1: dict, v2: dict) -> Leak | None:
    for k in sorted(set(v1["vars"]) | set(v2["vars"])):
        x, y = v1["vars"].get(k), v2["vars"].get(k)
        if x != y:
            return Leak(f"in variable {k}: {_show(x)} in one game, {_show(y)} in the other",
                        _var_span(prog, k))
    for k in sorted(set(v1["pvars"]) | set(v2["pvars"])):
        xs, ys = v1["pvars"].get(k, []), v2["pvars"].get(k, [])
        for p, (x, y) in enumerate(zip(xs, ys)):
            if x != y:
                return Leak(f"in variable {k} of {display.player_name(prog, p)}: {_show(x)} in one "
                            f"game, {_show(y)} in the other", _var_span(prog, k))
    return None


def _compare_zones(prog, z1: dict, z2: dict) -> Leak | None:
    for key in z1:
        x, y = z1[key], z2.get(key)
        if x != y:
            return Leak(f"in zone {key}: {_zone_text(prog, x)} in one game, {_zone_text(prog, y)} "
                        f"in the other")
    return None


def _zone_text(prog, content) -> str:
    if isinstance(content, dict):
        return f"{content.get('count')} item(s)"
    return "[" + ", ".join("hidden" if isinstance(i, dict) else display.item_label(prog, i)
                           for i in content) + "]"


def _compare_log(prog, l1: list, said1: list, l2: list, said2: list) -> Leak | None:
    if l1 == l2:
        return None
    # the logs keep the same number of messages unless one game said more
    for k in range(max(len(l1), len(l2))):
        x = l1[k] if k < len(l1) else None
        y = l2[k] if k < len(l2) else None
        if x != y:
            entry = said1[k] if k < len(said1) else said2[k]
            span = prog.logs[entry[0]].span
            if x is None or y is None:
                said = x if y is None else y
                return Leak(f"in the log: {said!r} is said in one game and not in the other", span)
            return Leak(f"in the log: {x!r} in one game, {y!r} in the other", span)
    return None  # pragma: no cover - the lists differ somewhere


def _compare_options(g1: Game, o1: list, g2: Game, o2: list, seat: int) -> Leak | None:
    if o1 != o2:
        only1 = [o for o in o1 if o not in o2]
        only2 = [o for o in o2 if o not in o1]
        span = _choose_span(g1)
        if only1 or only2:
            odd = (only1 or only2)[0]
            return Leak(f"in the options: {odd!r} exists in one game and not in the other", span)
        return Leak(f"in the order of the options: {o1} in one game, {o2} in the other", span)
    t1, t2 = option_texts(g1, seat), option_texts(g2, seat)
    for x, y in zip(t1, t2):
        if x != y:
            return Leak(f"in the option texts: {x!r} in one game, {y!r} in the other", _choose_span(g1))
    return None


def option_texts(game: Game, seat: int) -> list[str]:
    """The texts the seat reads for its options (``display.value_text``)."""
    pend = game.R.pending
    fn = views.can_see(game, seat)
    return [display.value_text(game.program, m.value, pend["type"], fn)
            for m in game.legal_moves(seat if seat >= 0 else None)]


def _decider(prog, pending) -> str:
    if pending is None:
        return "nobody"
    who = display.player_name(prog, pending["player"])
    return f"{who} ({pending['verb']})" if pending.get("verb") else who


def _show(value) -> str:
    return "hidden" if value == views.HIDDEN_ITEM else repr(value)


def _var_span(prog, name: str):
    d = prog.checked.vars.get(name)
    return d.span if d is not None else None


def _choose_span(game: Game):
    """The place of the decision under way: the instruction before the frame's next one."""
    R = game.R
    if R.pending is None or not R.stack:
        return None
    frame = R.stack[-1]
    proc = game.program.procs.get(frame["p"])
    pc = frame["pc"] - 1
    if proc is None or not 0 <= pc < len(proc.lines):
        return None
    return proc.lines[pc]


def place(game: Game, item: int) -> str:
    """Where an item lies: ``zone#position`` (1 = bottom), or a cell's name."""
    R, prog = game.R, game.program
    z = R.loc[item]
    zone = prog.zones[z]
    where = display.zone_notation(prog, z)
    if zone.cell is not None and len(R.zones[z]) == 1:
        return where
    return f"{where}#{R.zones[z].index(item) + 1}"


def seat_name(prog, seat: int) -> str:
    return "the spectator" if seat < 0 else display.player_name(prog, seat)


# ---------------------------------------------------------------- one probe under way

@dataclass
class Variation:
    """A twin of a game, made by varying one kind of secret (``views.SECRET_KINDS``):

    ``game`` is the twin; ``what`` says what differs (in a report: "Card red 2 (draw#8)
    and Card blue 1 (hand:p1#2), exchanged"); ``kinds`` the kinds of secret varied;
    ``items`` the items whose coming into the seat's sight ends the comparison;
    ``mapping`` turns an option of another seat in the game into the twin's (the items
    exchanged); ``value``: a value was changed (not only items exchanged), see ``Twin``;
    ``first``: a move the twin plays first, in place of the game's next one (another
    choice of a seat in a simultaneous decision); ``var``: the variable a simultaneous
    decision varied writes, and ``after`` the number of moves after which it does;
    ``parts``: for a variation of several things, a function that gives a variation of
    each one alone (made only when needed: to name the one that shows)."""

    game: Game
    what: str
    kinds: tuple[str, ...]
    items: tuple[int, ...] = ()
    mapping: dict = field(default_factory=dict)
    value: bool = False
    first: object = None
    var: str | None = None
    after: int = 0
    parts: object = None   # of several things: a function giving a variation of each alone


class Twin:
    """A twin game of one probe (a ``Variation`` of the game at state ``at``), compared
    with the game by what ``seat`` is shown, move after move (see the module).

    A twin that changes a value (of a variable, an item variable, a secret choice) has
    no item that would come into sight when the rules show it: its comparison also ends
    without a verdict when the difference shows only in what the seat alone may see (its
    own ``owner`` variables, its own zones: the rules told it privately, as a card given
    to it), when one game ends and the other does not (what ends a game may depend on
    secrets; the scores are not compared), and once a simultaneous decision whose
    choice was varied writes its variable, if that variable is public (the choices are
    revealed together, by design)."""

    def __init__(self, game: Game, seat: int, at: int, variation: Variation,
                 limit: int = MAX_TWIN_MOVES):
        self.seat, self.at, self.steps, self.limit = seat, at, 0, limit
        self.v = variation
        self.game = variation.game
        # the messages said before the exchange read the same to the seat in both games
        # (each names a or b only where the seat may not read it): only the new ones
        # are compared (kept alive here, so that their ids stay theirs)
        self._said = (list(game.R.log), list(self.game.R.log))
        self._old = ({id(e) for e in self._said[0]}, {id(e) for e in self._said[1]})
        self.broken = False
        if variation.first is not None:
            try:
                self.game.apply(variation.first, safe=False)
                self.steps = 1
            except RuleError:
                self.broken = True

    @property
    def items(self) -> tuple[int, ...]:
        return self.v.items

    def follow(self, move, type_code: str) -> bool:
        """Plays in the twin the move matching the one just played; False when there is
        none (the games differ legitimately from now on) or the twin breaks a rule."""
        moves = self.game.legal_moves(move.player)
        if move.player == self.seat:
            if move.index >= len(moves):
                return False
            twin_move = moves[move.index]
        else:
            want = map_value(move.value, type_code, self.v.mapping)
            twin_move = next((m for m in moves if m.value == want), None)
            if twin_move is None:
                return False
        try:
            self.game.apply(twin_move, safe=False)
        except RuleError:
            return False
        self.steps += 1
        return True

    def check(self, game: Game) -> Leak | str | None:
        """After a move (or right after the exchange): a Leak, "stop" when the comparison
        ends without a verdict, or None to go on."""
        items, v = self.items, self.v
        if items and (in_sight(game, items, self.seat) or in_sight(self.game, items, self.seat)):
            return "stop"
        if game.over and self.game.over:
            return "stop"
        if v.value and (game.over or self.game.over or self._revealed_by_design()):
            return "stop"
        # another seat decides, and what it may choose (even what it is asked) differs:
        # it sees a different hand, and the games may differ legitimately from now on
        diverged = not self._same_decision(game.R.pending, self.game.R.pending)
        v1, said1 = _fresh_view(game, self.seat, self._old[0])
        v2, said2 = _fresh_view(self.game, self.seat, self._old[1])
        # what the seat alone sees (and its options, which may come from it) may differ
        # when the rules told it something: anything else that differs is a leak
        told = v.value and _own_part(game, v1, self.seat) != _own_part(self.game, v2, self.seat)
        leak = compare(game, v1, said1, self.game, v2, said2, self.seat, same_decider_only=diverged,
                       options=not told)
        if leak is not None:
            return leak
        return "stop" if told or diverged or self.steps >= self.limit else None

    def _revealed_by_design(self) -> bool:
        if self.v.var is None or self.steps < self.v.after:
            return False
        return self.game.program.checked.vars[self.v.var].visibility is None

    def _same_decision(self, p1, p2) -> bool:
        """False when another seat decides in both games and its options are not the
        same (with the items exchanged)."""
        if p1 is None or p2 is None or p1["player"] != p2["player"] or p1["player"] == self.seat:
            return True
        if (p1["verb"], p1["type"], len(p1["options"])) != (p2["verb"], p2["type"], len(p2["options"])):
            return False
        mapped = [map_value(o, p1["type"], self.v.mapping) for o in p1["options"]]
        return all(o in p2["options"] for o in mapped)


def _own_part(game: Game, view: dict, seat: int) -> list:
    """Takes out of a view (and returns) what only the seat may see: its values of the
    variables declared ``owner``, the contents of its own zones that only it sees, and
    the items of dark zones it sees that are not in public view (its own marks on a
    dark board, or those the rules showed it alone)."""
    if seat < 0:
        return []
    R, prog = game.R, game.program
    declared = prog.checked.vars
    out = []
    for k, values in view["pvars"].items():
        if declared[k].visibility == "owner":
            out.append(values[seat])
            values[seat] = None
    for z in prog.zones:
        if z.owner == seat and z.key in view["zones"] and R.vis[z.id] is not True \
                and z.id not in R.revealed and not any(R.visible(z.id, p) for p in range(R.n_players) if p != seat):
            out.append(view["zones"][z.key])
            view["zones"][z.key] = None
        elif z.dark and isinstance(view["zones"].get(z.key), list):
            _own_dark(R, view, z.key, out)
    return out


def _own_dark(R, view: dict, key: str, out: list) -> None:
    """``_own_part`` of a dark zone: the items the seat sees there that are not in public
    view, taken out of the zone and of the face-down items it knows."""
    mine = [i for i in view["zones"][key] if isinstance(i, int) and not R.public_item(i)]
    if mine:
        out.append((key, mine, [i for i in view["face_down"] if i in mine]))
        view["zones"][key] = [i for i in view["zones"][key] if i not in mine]
        view["face_down"] = [i for i in view["face_down"] if i not in mine]


def _fresh_view(game: Game, seat: int, old: set) -> tuple[dict, list]:
    """The seat's view with only the messages said since the exchange in its log, and
    those messages."""
    R = game.R
    full = R.log
    R.log = new = [e for e in full if id(e) not in old]
    try:
        return views.view(game, seat), new
    finally:
        R.log = full
