"""Determinization: a whole game consistent with what one seat knows, for search bots.

``determinize(game, seat, rng)`` returns a new game in which everything the seat may not
know has been drawn again from ``rng``:

* the items the seat does not see now (face down, in hands or piles it may not look
  into) are dealt again, at random, over the places where such items lie: each item goes
  to a place that held an item of the same kind (a zone or board holds one declared
  kind), so the counts of every zone, and what the seat sees, stay as they are. Their
  item variables, which the seat does not see either, go back to their starting values
  (a sample must not carry what they really are, not even which values are about). Every reference to a
  dealt item follows it (variables, item variables, messages, the locals of the rules
  under way, the options of the decision under way), as in the twin games of
  ``meeple test``'s leak check (interpreter/leaks.py); who sees an item lying face
  down stays with its place. Items that a local of unknown type holds stay where they
  are.
* the secret choices other seats have already made in a simultaneous decision under
  way are drawn again among their options;
* whole numbers and truth values the seat may not see (variables declared ``hidden``,
  per-player ones declared ``owner`` of another seat) go back to their initial values;
* the random generator is seeded again from ``rng``: future shuffles, draws and rolls
  are not the game's.

The result depends only on what the seat may see (its view: which places hold hidden
items, which items it sees) and on ``rng``: two games whose views for the seat are the
same give the same determinization for the same ``rng`` state. What the seat saw
earlier and no longer sees (a card it passed to another seat) is not used: such an item
is dealt over the hidden places like any other.
"""
from __future__ import annotations

import random

from . import rng as rng_mod
from .leaks import _held, _local_code, local_types
from .runtime import Game


def determinize(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with what ``seat`` may not know drawn again from ``rng`` (see
    the module). The original game is not changed."""
    sample = game.copy()
    R = sample.R
    mapping = _deal(R, seat, rng)
    if any(a != b for a, b in mapping.items()):
        _follow(sample, mapping)
    _forget_item_vars(R, mapping)
    _redraw_choices(R, seat, rng)
    _forget_private(R, seat)
    R.rng = rng_mod.seed_state(rng.getrandbits(64))
    return sample


def _hidden_slots(R, seat: int) -> list[tuple[int, int, int]]:
    """(zone, position, item) of each item the seat may not see now, in the order of
    places (zone, then position)."""
    held = _held(R) if R.stack else set()
    out = []
    for z, items in enumerate(R.z):
        for pos, i in enumerate(items):
            if i not in held and not (R.public_item(i) or (seat >= 0 and R.sees_item(i, seat))):
                out.append((z, pos, i))
    return out


def _deal(R, seat: int, rng: random.Random) -> dict[int, int]:
    """Deals the hidden items again, class by class; returns old item -> new item per place."""
    prog = R.prog
    by_class: dict[str, list[tuple[int, int, int]]] = {}
    for slot in _hidden_slots(R, seat):
        by_class.setdefault(prog.items[slot[2]].kind, []).append(slot)
    mapping: dict[int, int] = {}
    for key in sorted(by_class):
        slots = by_class[key]
        items = sorted(i for _, _, i in slots)
        rng.shuffle(items)
        for (z, pos, old), new in zip(slots, items):
            mapping[old] = new
    if not mapping:
        return mapping
    facing = list(R.facing)
    for (z, pos, old) in (s for key in by_class for s in by_class[key]):
        new = mapping[old]
        R.z[z][pos] = new
        R.loc[new] = z
        R.facing[new] = facing[old]
    return mapping


def _forget_item_vars(R, dealt) -> None:
    """The item variables of the items dealt again (those the seat does not see) go
    back to their starting values."""
    if not dealt or not R.iv:
        return
    start = R.prog.init_item_vars(R)
    for name, table in R.iv.items():
        first = start.get(name)
        if first is None:
            continue
        for item in dealt.values():
            if table[item] is not None:
                table[item] = first[item]


def _follow(game: Game, mapping: dict[int, int]) -> None:
    """Every reference to a dealt item names its new item."""
    R, prog = game.R, game.program
    declared, kinds = prog.checked.vars, prog.checked.kinds
    for k, v in list(R.g.items()):
        R.g[k] = _map_ref(v, declared[k].type, kinds, mapping)
    for k, vs in R.pv.items():
        vs[:] = [_map_ref(v, declared[k].type, kinds, mapping) for v in vs]
    item_vars = prog.checked.item_vars
    for name, table in R.iv.items():
        for i, v in enumerate(table):
            if v is not None:
                table[i] = _map_ref(v, item_vars[prog.items[i].kind][name].type, kinds, mapping)
    R.log[:] = [_map_entry(prog, e, mapping) for e in R.log]
    types = local_types(prog)
    for frame in R.stack:
        known = types.get(frame["p"], {})
        L = frame["L"]
        for var, value in L.items():
            L[var] = map_value(value, _local_code(known, var), mapping)
    pend = R.pending
    if pend is not None and "item" in pend["type"] and "waiting" not in pend:
        options = [map_value(o, pend["type"], mapping) for o in pend["options"]]
        R.ask(pend["player"], pend["var"], options, pend["type"], pend["verb"], pend.get("alone"))
    elif pend is not None and "item" in pend["type"]:
        code = pend["type"]
        chosen = pend["chosen"]
        R.ask_each(pend["var"], [(s, [map_value(o, code, mapping) for o in options])
                                 for s, options in zip(pend["seats"], pend["each"])],
                   code, pend["verb"])
        for s, value in chosen:
            R.choose_each(s, map_value(value, code, mapping))


def _redraw_choices(R, seat: int, rng: random.Random) -> None:
    """The secret choices of other seats in a simultaneous decision under way, drawn
    again among their options."""
    pend = R.pending
    if pend is None or "waiting" not in pend or not pend["chosen"]:
        return
    chosen = pend["chosen"]
    if all(s == seat for s, _ in chosen):
        return
    R.ask_each(pend["var"], list(zip(pend["seats"], pend["each"])), pend["type"], pend["verb"])
    for s, value in chosen:
        if s != seat:
            options = R.pending["each"][R.pending["seats"].index(s)]
            value = options[rng.randrange(len(options))]
        R.choose_each(s, value)


def _forget_private(R, seat: int) -> None:
    """Whole numbers and truth values the seat may not see go back to their initial values."""
    prog = R.prog
    declared = prog.checked.vars
    for name in list(R.g):
        d = declared[name]
        if d.visibility is not None and d.type.name in ("int", "bool"):
            R.g[name] = _initial(prog, R, name)
    for name, values in R.pv.items():
        d = declared[name]
        if d.visibility is not None and d.type.name in ("int", "bool"):
            for p in range(R.n):
                if d.visibility == "hidden" or p != seat:
                    values[p] = _initial(prog, R, name)


def _initial(prog, R, name: str):
    try:
        return prog.var_inits[name](R, {})
    except Exception:  # noqa: BLE001 - an initial value that needs more than the state
        return False if prog.checked.vars[name].type.name == "bool" else 0


def map_value(v, type_code: str, mapping: dict[int, int]):
    """A value with its items renamed by ``mapping`` (type codes as in moves)."""
    if v is None:
        return v
    if type_code.startswith("list:"):
        return [map_value(x, type_code[5:], mapping) for x in v]
    if type_code == "item":
        return mapping.get(v, v)
    return v


def _map_ref(v, type_ref, kinds, mapping: dict[int, int]):
    if v is None:
        return v
    if type_ref.name == "list" and isinstance(v, list):
        return [_map_ref(x, type_ref.item, kinds, mapping) for x in v]
    if type_ref.name in kinds and isinstance(v, int):
        return mapping.get(v, v)
    return v


def _map_entry(prog, entry: list, mapping: dict[int, int]) -> list:
    types = prog.logs[entry[0]].types
    values = [map_value(v, t, mapping) for v, t in zip(entry[1], types)]
    out = [entry[0], values] + list(entry[2:3])
    if len(entry) > 3:
        snap = {}
        back = {str(a): str(b) for a, b in mapping.items()}
        for name, table in entry[3].items():
            snap[name] = {back.get(k, k): x for k, x in table.items()}
        out.append(snap)
    return out


def redrawn(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of a determinized game with the secret choices of the other seats and its
    random generator drawn anew from ``rng`` (its items stay where they are)."""
    out = game.copy()
    _redraw_choices(out.R, seat, rng)
    out.R.rng = rng_mod.seed_state(rng.getrandbits(64))
    return out
