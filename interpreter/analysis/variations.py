"""Where and how ``meeple test``'s leak check varies a secret (interpreter/analysis/leaks.py).

**What is varied.** A view keeps several kinds of things from a seat
(``views.SECRET_KINDS``, listed for a game by ``views.secrets``); each has a variation
here (``VARIATIONS``), which makes a twin of the game that differs in such a secret and
in nothing the seat is shown:

* hidden items, face-down items: two items the seat has never been shown, of the same
  kind and with the same item variables, trade places (``leaks.exchange``), or, to vary
  many at once, several such pairs (``leaks.permute``);
* item variables: the value of an item variable of such an item changes;
* owner variables, hidden variables: a value the seat may not see changes;
* secret choices: another seat chooses something else in a simultaneous decision (a
  choice made and not yet revealed, or the one it makes next);
* dark places: an item of a dark zone the seat has never been shown moves to another
  dark zone that holds its kind and in which the seat sees nothing (an empty one
  first: a twin the rules could have made, where a cell holds one item).

A value changes to another of its type (``other_value``): a whole number to another
value the same variable has (for another seat, or elsewhere in the same list), else to
one more; a truth value to the other; an enum value, a player, a cell to the next one;
an item to another the seat has never been shown (or, for an item it sees, another
item it sees); in a list, one element.

**Where.** Up to ``leaks.MAX_PROBES`` probes a game are drawn by Hypothesis (a state, a
seat, two numbers that pick what is varied). Besides, every game with hidden information
is probed at its *moments*: the states just before a move that says something (a
message), changes a public variable, reveals an item to a seat, or makes a secret
choice; there, a seat other than the one moving (or the spectator) is probed with
everything of one kind varied at once, and the twin is followed for ``TARGET_MOVES``
moves. Of all the (moment, seat) pairs of a game, ``TARGETS`` are probed, picked from
the game's seed, length and drawn probes (so a game is probed the same way wherever it
is played); a game without moments gets one probe at a state picked the same way.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..play import display, picks, views
from ..play.game import Game
from . import leaks

TARGETS = 6        # probes per game at its moments
TARGET_MOVES = 4   # moves for which the twins of those probes are followed


@dataclass(frozen=True)
class Task:
    """One probe: at state ``at``, seen by ``seat`` (-1: the spectator); ``kind`` None
    lets ``first`` pick the kind among those the state has; ``whole``: everything of the
    kind at once; ``limit``: moves the twin is followed for."""

    at: int
    seat: int
    kind: str | None
    first: int = 0
    second: int = 0
    whole: bool = False
    limit: int = leaks.MAX_TWIN_MOVES


@dataclass
class Context:
    """A state to vary, for a seat: ``known`` what each seat had been shown by then,
    ``move`` the move played next in the game (None at the end), ``after`` the state
    after it."""

    game: Game
    seat: int
    known: leaks.Knowledge
    move: object = None
    after: Game | None = None

    def __post_init__(self):
        self.cands = leaks.candidates(self.game, self.seat, self.known)
        self.cand_set = set(self.cands)
        self.secrets = views.secrets(self.game, self.seat)
        self.mover = self.move.player if self.move is not None else None
        self.peers: dict = {}   # the type and the other values of each variable (_type_and_peers)


# ---------------------------------------------------------------- where: the plan of a game

def moments(states: list[Game], played: list, bits: list) -> list[tuple[int, int]]:
    """(k, the seat moving) for each move k that says something, changes a public
    variable, shows an item to a seat that had never been shown it, or makes a secret
    choice (``states[k]`` is the state before move k; ``bits`` what each seat had been
    shown at each state)."""
    if not states:
        return []
    declared = states[0].program.checked.vars
    public = [n for n, d in declared.items() if d.visibility is None]
    out = []
    for k, (move, _) in enumerate(played):
        a, b = states[k].R, states[k + 1].R
        said = len(a.log) != len(b.log) or a.dropped != b.dropped or \
            (bool(a.log) and a.log[-1] is not b.log[-1])
        shown = any(a.vars[n] != b.vars[n] if n in a.vars else a.pvars[n] != b.pvars[n] for n in public)
        secret = a.pending is not None and "waiting" in a.pending
        if said or shown or secret or bits[k] != bits[k + 1]:
            out.append((k, move.player))
    return out


def plan(states: list[Game], played: list, bits: list, probes, seed: int,
         at_moments: bool = True) -> list[Task]:
    """The probes of a game: those drawn (``leaks.Probe``), then (``at_moments``) those
    of its moments (see the module)."""
    n = len(states)
    if not n:
        return []
    players = states[0].R.n_players
    tasks = []
    for p in probes:
        seat = p.seat % (players + 1)
        tasks.append(Task(p.at % n, views.SPECTATOR if seat == players else seat, None,
                          p.first, p.second))
    if not at_moments:
        return tasks
    rng = random.Random(f"{seed}/{n}/{[(p.at, p.seat, p.first, p.second) for p in probes]}")
    # each moment is seen by a seat other than the one moving (or the spectator)
    spots = [(k, rng.choice([s for s in [*range(players), views.SPECTATOR] if s != mover]))
             for k, mover in moments(states, played, bits)]
    for i, (k, s) in enumerate(sorted(rng.sample(spots, min(TARGETS, len(spots))))):
        pend = states[k].R.pending
        kind = "secret choices" if pend is not None and "waiting" in pend else None
        tasks.append(Task(k, s, kind, i, rng.randrange(64), whole=True, limit=TARGET_MOVES))
    if n > 1 and not spots:    # a game without moments: one probe all the same
        seat = rng.randrange(players + 1)
        tasks.append(Task(rng.randrange(n - 1), views.SPECTATOR if seat == players else seat,
                          None, rng.randrange(64), rng.randrange(64)))
    return sorted(tasks, key=lambda task: task.at)   # the earliest leak is the one reported


# ---------------------------------------------------------------- how: one kind each

def available(ctx: Context) -> list[str]:
    """The kinds of secret that can be varied in this state for this seat."""
    return [k for k in views.SECRET_KINDS if VARIATIONS[k](ctx, 0, 0, False, probe=True)]


def present(ctx: Context, kinds: list[str]) -> list[str]:
    """The kinds of secret the seat's view keeps from it here that could make a
    difference: those ``available`` (items alike but for their place hide nothing), and
    values it may not see even when none can be varied."""
    values = ("item variables", "owner variables", "hidden variables")
    return [k for k in views.SECRET_KINDS if k in kinds or (k in values and _targets(ctx, k))]


def make(ctx: Context, task: Task, kinds: list[str] | None = None) -> leaks.Variation | None:
    """The twin of a probe, or None when nothing can be varied there."""
    kinds = available(ctx) if kinds is None else kinds
    if not kinds:
        return None
    kind = task.kind if task.kind in kinds else kinds[task.first % len(kinds)]
    return VARIATIONS[kind](ctx, task.first // len(kinds), task.second, task.whole)


# ---- items

def _item_kind(ctx: Context, item: int) -> str:
    R = ctx.game.R
    z = R.loc[item]
    return "face-down items" if R.facing[item] >= 0 and views.zone_shown(R, z, ctx.seat) \
        and not ctx.game.program.zones[z].dark \
        else "hidden items"


def _items(kind: str):
    def vary(ctx: Context, first: int, second: int, whole: bool, probe: bool = False):
        mine = [i for i in ctx.cands if _item_kind(ctx, i) == kind]
        if probe:
            return any(_partners(ctx, a) for a in mine)
        if whole:
            return _permutation(ctx, mine, first)
        if not mine:
            return None
        a = mine[first % len(mine)]
        partners = _partners(ctx, a)
        if not partners:
            return None
        return _exchange(ctx, [(a, partners[second % len(partners)])])
    return vary


def _partners(ctx: Context, a: int) -> list[int]:
    prog, R = ctx.game.program, ctx.game.R
    key = leaks._class(prog, R, a)
    return [b for b in ctx.cands if b != a and leaks._class(prog, R, b) == key
            and prog.items[b].attrs != prog.items[a].attrs]


def _permutation(ctx: Context, mine: list[int], first: int):
    """Pairs of the seat's unseen items (of this kind, each with a partner alike but for
    its attributes), as many as can be made: going through them, those of the seat
    moving next first (what it does may show them), then top of piles first, each takes
    the partner left that differs from it in the most attributes (``first`` picks among
    equals). Items that come into the seat's sight at the next move are left out."""
    prog, R = ctx.game.program, ctx.game.R
    soon = _seen_next(ctx)
    groups: dict = {}
    for i in sorted(ctx.cands, key=lambda i: prog.zones[R.loc[i]].owner != ctx.mover or ctx.mover is None):
        if i not in soon:
            groups.setdefault(leaks._class(prog, R, i), []).append(i)
    want, pairs = set(mine), []
    for left in groups.values():
        while len(left) > 1:
            a = left.pop(0)
            attrs = prog.items[a].attrs
            differ = [sum(attrs[x] != v for x, v in prog.items[b].attrs.items()) for b in left]
            best = [b for b, d in zip(left, differ) if d == max(differ)]
            b = best[first % len(best)]
            if max(differ) and (a in want or b in want):
                left.remove(b)
                pairs.append((a, b))
    return _exchange(ctx, pairs) if pairs else None


def _seen_next(ctx: Context) -> set[int]:
    """The seat's unseen items that the next move shows it (where they lie, or in a
    message it may read)."""
    if ctx.after is None:
        return set()
    R, before = ctx.after.R, {id(e) for e in ctx.game.R.log}
    said = [e for e in R.log if id(e) not in before]
    return {i for i in ctx.cands if views.seat_sees(R, i, ctx.seat) or leaks.log_shows(R, said, (i,), ctx.seat)}


def _exchange(ctx: Context, pairs: list[tuple[int, int]]) -> leaks.Variation:
    game, prog = ctx.game, ctx.game.program
    mapping = {}
    for a, b in pairs:
        mapping[a], mapping[b] = b, a
    kinds = tuple(sorted({_item_kind(ctx, i) for i in mapping}, key=views.SECRET_KINDS.index))
    what = ", ".join(f"{display.item_label(prog, a)} ({leaks.place(game, a)}) and "
                     f"{display.item_label(prog, b)} ({leaks.place(game, b)})" for a, b in pairs)
    out = leaks.Variation(leaks.permute(game, mapping), what + ", exchanged", kinds,
                          items=tuple(mapping), mapping=mapping)
    if len(pairs) > 1:
        out.parts = lambda: [_exchange(ctx, [pair]) for pair in pairs]
    return out


# ---- dark places

def _dark_places(ctx: Context, first: int, second: int, whole: bool, probe: bool = False):
    moving = [(i, _dark_targets(ctx, i)) for i in ctx.secrets["dark places"] if i in ctx.cand_set]
    moving = [(i, t) for i, t in moving if t]
    if probe or not moving:
        return bool(moving)
    item, targets = moving[first % len(moving)]
    to = targets[second % len(targets)]
    game, prog = ctx.game, ctx.game.program
    was = leaks.place(game, item)
    twin = game.copy()
    R = twin.R
    R.zones[R.loc[item]].remove(item)
    R.zones[to].append(item)
    R.loc[item] = to
    return leaks.Variation(twin, f"{display.item_label(prog, item)} ({was}) moved to {prog.zones[to].key}",
                           ("dark places",), items=(item,))


def _dark_targets(ctx: Context, item: int) -> list[int]:
    """The other dark zones the item could lie in for the seat: holding its kind, with no
    item it sees; the empty ones, if any."""
    R, prog = ctx.game.R, ctx.game.program
    kind, here = prog.items[item].kind, R.loc[item]
    fits = [z.id for z in prog.zones if z.dark and z.kind == kind and z.id != here
            and (z.owner is None or z.owner < R.n_players)
            and not any(views.seat_sees(R, i, ctx.seat) for i in R.zones[z.id])]
    return [z for z in fits if not R.zones[z]] or fits


# ---- values: variables and item variables

def _values(kind: str):
    def vary(ctx: Context, first: int, second: int, whole: bool, probe: bool = False):
        targets = [t for t in _targets(ctx, kind) if _new_value(ctx, t, second) is not None]
        if probe or not targets:
            return bool(targets)
        if whole:
            # the secrets of the seat moving next, when it has some of this kind
            own = [t for t in targets if kind == "owner variables" and t[2] == ctx.mover]
            return _set_values(ctx, kind, own or targets, second)
        return _set_values(ctx, kind, [targets[first % len(targets)]], second)
    return vary


def _targets(ctx: Context, kind: str) -> list[tuple]:
    """("iv", name, item) or ("var", name, seat or None) for each value of this kind."""
    found = ctx.secrets[kind]
    if kind == "item variables":
        return [("iv", name, item) for name, item in found if item in ctx.cand_set]
    return [("var", name, p) for name, p in found]


def _current(R, target: tuple):
    where, name, who = target
    if where == "iv":
        return R.ivars[name][who]
    return R.vars[name] if who is None else R.pvars[name][who]


def _type_and_peers(ctx: Context, target: tuple):
    """The type of a value, and the other values of the same variable: of each seat, or
    of each item of the same kind."""
    where, name, who = target
    key = (name, ctx.game.program.items[who].kind) if where == "iv" else (name, who is None)
    got = ctx.peers.get(key)
    if got is None:
        R, prog = ctx.game.R, ctx.game.program
        if where == "iv":
            got = prog.checked.item_vars[key[1]][name].type, \
                [x for i, x in enumerate(R.ivars[name]) if x is not None and prog.items[i].kind == key[1]]
        else:
            got = prog.checked.vars[name].type, ([] if who is None else list(R.pvars[name]))
        ctx.peers[key] = got
    return got


def _new_value(ctx: Context, target: tuple, pick: int):
    t, peers = _type_and_peers(ctx, target)
    return other_value(ctx, t, _current(ctx.game.R, target), peers, pick)


def _set_values(ctx: Context, kind: str, targets: list[tuple], pick: int) -> leaks.Variation | None:
    game, prog = ctx.game, ctx.game.program
    twin = game.copy()
    R = twin.R
    said, items = [], set()
    for target in targets:
        where, name, who = target
        old, new = _current(R, target), _new_value(ctx, target, pick)
        t, _ = _type_and_peers(ctx, target)
        items |= {i for v in (old, new) for i in _items_in(v, t, prog) if i in ctx.cand_set}
        if where == "iv":
            R.ivars[name][who] = new
            items.add(who)
            said.append(f"{name} of {display.item_label(prog, who)}{_both(old, new)}")
        elif who is None:
            R.vars[name] = new
            said.append(f"{name}{_both(old, new)}")
        else:
            R.pvars[name][who] = new
            said.append(f"{name} of {display.player_name(prog, who)}{_both(old, new)}")
    what = ("the values of " if len(said) > 1 else "the value of ") + ", ".join(said) + ", changed"
    out = leaks.Variation(twin, what, (kind,), items=tuple(sorted(items)), value=True)
    if len(targets) > 1:
        out.parts = lambda: [_set_values(ctx, kind, [t], pick) for t in targets]
    return out


def _both(old, new) -> str:
    return f" ({old!r} in one game, {new!r} in the other)"


def _items_in(value, t, prog) -> list[int]:
    if value is None:
        return []
    if t.name == "list":
        return [i for v in value for i in _items_in(v, t.item, prog)]
    return [value] if t.name in prog.checked.kinds else []


def other_value(ctx: Context, t, value, peers: list, pick: int):
    """Another value of type ``t`` than ``value`` (see the module), or None when there is
    none. ``peers``: other values of the same variable."""
    c, R, prog = ctx.game.program.checked, ctx.game.R, ctx.game.program
    name = t.name
    if name == "list":
        # one element changes: the one ``pick`` points at among those that can
        new = [other_value(ctx, t.item, x, value, pick) for x in value] if isinstance(value, list) else []
        can = [i for i, y in enumerate(new) if y is not None]
        if not can:
            return None
        i = can[pick % len(can)]
        return value[:i] + [new[i]] + value[i + 1:]
    if name == "bool":
        return None if value is None else not value
    if name == "int":
        if value is None:
            return None
        others = sorted({p for p in peers if type(p) is int} - {value})
        return others[pick % len(others)] if others else value + 1
    if name == "str":
        return None if value is None else value + "?"
    if name in c.enums:
        return _next(c.enums[name], value, pick)
    if name == "player":
        return _next(list(range(R.n_players)), value, pick)
    if name in prog.boards:
        return _next(prog.boards[name], value, pick)
    if name in c.kinds and value is not None:
        return _other_item(ctx, value, pick)
    return None


def _next(values: list, value, pick: int):
    if value is None:
        return values[0] if values else None
    if len(values) < 2 or value not in values:
        return None
    i = values.index(value)
    return values[(i + 1 + pick % (len(values) - 1)) % len(values)]


def _other_item(ctx: Context, item: int, pick: int):
    """Another item of the same kind that the seat may not know either (if it may not
    know this one), or that it sees (if it sees this one)."""
    prog, R = ctx.game.program, ctx.game.R
    kind = prog.items[item].kind
    if item in ctx.cand_set:
        pool = [i for i in ctx.cands if i != item and prog.items[i].kind == kind]
    else:
        pool = [i for i, z in enumerate(R.loc) if i != item and z >= 0 and prog.items[i].kind == kind
                and views.seat_sees(R, i, ctx.seat)]
    return pool[pick % len(pool)] if pool else None


# ---- secret choices

def _choices(ctx: Context, first: int, second: int, whole: bool, probe: bool = False):
    """Another choice of another seat in the simultaneous decision under way: one it
    made (and that is not revealed yet), or the one it makes at the next move."""
    R, game = ctx.game.R, ctx.game
    pend = R.pending
    if pend is None or "waiting" not in pend:
        return None
    made = [(s, v) for s, v in pend["chosen"] if s != ctx.seat and picks.instead(pend, s, v)]
    nxt = ctx.move if ctx.mover is not None and ctx.mover != ctx.seat and ctx.mover in pend["waiting"] \
        and len(game.legal_moves(ctx.mover)) > 1 else None
    if probe:
        return bool(made or nxt)
    if not whole:
        if made and (nxt is None or first % 2 == 0):
            made = [made[first // 2 % len(made)]]
            nxt = None
        else:
            made = []
    if not made and nxt is None:
        return None
    return _choose_otherwise(ctx, made, nxt, second)


def _choose_otherwise(ctx: Context, made: list, nxt, pick: int) -> leaks.Variation:
    game, prog = ctx.game, ctx.game.program
    pend = game.R.pending
    twin = game.copy()
    R = twin.R
    code, said, items = pend["type"], [], set()
    new_chosen = []
    for s, v in pend["chosen"]:
        if (s, v) in made:
            options = picks.instead(pend, s, v)
            w = options[pick % len(options)]
            said.append(f"the secret choice of {display.player_name(prog, s)}"
                        + _both(display.value_text(prog, v, code, views.can_see(game, ctx.seat)),
                                display.value_text(prog, w, code, views.can_see(game, ctx.seat))))
            items |= {i for x in (v, w) for i, _ in leaks._items_and_masks(x, code, None)}
            v = w
        new_chosen.append((s, v))
    if made:
        R.ask_each(pend["var"], list(zip(pend["seats"], picks.asked(pend))), code, pend["verb"],
                   pend.get("picks"))
        for s, v in new_chosen:
            R.choose_each(s, v)
    first = None
    if nxt is not None:
        moves = [m for m in twin.legal_moves(nxt.player) if m.index != nxt.index]
        first = moves[pick % len(moves)]
        said.append(f"what {display.player_name(prog, nxt.player)} chooses next in secret"
                    + _both(nxt.notation, first.notation))
        items |= {i for v in (nxt.value, first.value) for i, _ in leaks._items_and_masks(v, code, None)}
    items = {i for i in items if i in ctx.cand_set}
    return leaks.Variation(twin, ", ".join(said) + ", changed", ("secret choices",), items=tuple(sorted(items)),
                           value=True, first=first, var=pend["var"], after=len(pend["waiting"]))


VARIATIONS = {
    "hidden items": _items("hidden items"),
    "face-down items": _items("face-down items"),
    "item variables": _values("item variables"),
    "owner variables": _values("owner variables"),
    "hidden variables": _values("hidden variables"),
    "secret choices": _choices,
    "dark places": _dark_places,
}
if set(VARIATIONS) != set(views.SECRET_KINDS):  # pragma: no cover - a kind without a variation
    raise ImportError("interpreter/analysis/variations.py: every kind of views.SECRET_KINDS needs a variation")
