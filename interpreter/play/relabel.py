"""Items relabelled in a game: ``permute`` (and ``exchange``, two items) makes a twin in
which items trade places and ``follow`` makes every reference to an item name its new
one (variables, item variables, messages, the locals of the rules under way, the
options of the decision under way). The leak check's twin games (analysis/leaks.py) and
the determinization's deals (bots/determinize.py) are made with it."""
from __future__ import annotations

from ...dsl import ast as ir, types as ir_types
from ...dsl.types import type_code
from . import picks
from .game import Game


def local_types(prog) -> dict[str, dict[str, str]]:
    """For each procedure, the type code of each local ("?" when a name has several
    types): parameters, let, for (and its hidden list ``$itN``), choose, best, pick."""
    got = _LOCAL_TYPES.get(id(prog))
    if got is not None and got[0] is prog:
        return got[1]
    c = prog.checked

    def elem(t) -> str:
        return type_code(t.arg) if t.tag == "list" and t.arg is not None else "?"
    bodies = {name: (list(d.params), d.body) for name, d in c.procedures.items()}
    for name, d in (("setup", c.setup), ("turn", c.turn), ("at end", c.at_end)):
        if d is not None:
            bodies[name] = ([], d.body)
    out: dict[str, dict[str, str]] = {}
    for name, (params, body) in bodies.items():
        types: dict[str, str] = {}

        def note(var: str, code: str) -> None:
            types[var] = code if types.get(var, code) == code else "?"  # noqa: B023 - called in this iteration only
        for prm in params:
            note(prm.name, _ref_code(prm.type, c.kinds))
        fors = {}
        for n in ir.walk(body):
            kind = getattr(n, "node", "")
            if kind == "Let":
                note(n.var, type_code(c.type_of(n.value)))
            elif kind == "For":
                note(n.var, elem(c.type_of(n.iter)))
                fors[n.span] = "list:" + elem(c.type_of(n.iter))
            elif kind in ("Choose", "Best", "PickRandom"):
                note(n.var, elem(c.type_of(n.options)))
                if getattr(n, "said", None) is not None:   # choose x, how: a text
                    note(n.said, "str")
                for part, t in _named_parts(c, n):   # choose (a, b): each part's type
                    note(part, type_code(t))
            elif kind == "ChooseSubset":
                note(n.var, "list:" + elem(c.type_of(n.options)))
            elif kind == "CallResult" and n.new:  # let v = call p(...)
                note(n.var, type_code(c.type_of(n)))
            elif kind == "ChooseEach":
                note(n.each, "player")
            elif kind == "Roll":
                for v in n.vars:
                    note(v, "int")
        proc = prog.procs.get(name)
        for pc, span in enumerate(proc.lines if proc is not None else []):
            if span in fors:
                types[f"$it{pc}"] = fors[span]
        out[name] = types
    _LOCAL_TYPES[id(prog)] = (prog, out)
    return out


_LOCAL_TYPES: dict = {}


def _named_parts(c, n) -> list:
    """The parts a ``choose (a, _, b)`` names, with their types ((name, T) pairs)."""
    t = c.type_of(n.options).arg if getattr(n, "parts", None) else None
    if not isinstance(t, ir_types.T) or t.tag != "tuple":
        return []
    return [(name, p) for name, p in zip(n.parts, t.parts) if name != "_"]


def _ref_code(type_ref, kinds) -> str:
    if type_ref.name == "list" and type_ref.item is not None:
        return "list:" + _ref_code(type_ref.item, kinds)
    return "item" if type_ref.name in kinds else type_ref.name


def _local_code(types: dict, var: str) -> str:
    if var.startswith(("$i", "$n")) and not var.startswith("$it"):
        return "int"  # the counters of for and while loops
    code = types.get(var, "?")
    return "?" if "?" in code else code


def held_items(R) -> set[int]:
    """Every whole number in the locals of the procedures under way whose types are not
    known (items among them, perhaps): such items are not exchanged."""
    out: set[int] = set()
    types = local_types(R.prog)

    def scan(v):
        if isinstance(v, bool):
            return
        if isinstance(v, int):
            out.add(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                scan(x)
        elif isinstance(v, dict):
            for x in v.values():
                scan(x)
    for frame in R.stack:
        known = types.get(frame["p"], {})
        for var, value in frame["L"].items():
            if _local_code(known, var) == "?":
                scan(value)
    return out


def exchange(game: Game, a: int, b: int) -> Game:
    """The twin of a game in which items a and b have traded places (see the module)."""
    return permute(game, {a: b, b: a})


def permute(game: Game, mapping: dict[int, int]) -> Game:
    """The twin of a game in which, for each item x of ``mapping`` (a permutation of
    items), ``mapping[x]`` lies where x lay, facing as x did, and every reference to x
    names ``mapping[x]`` instead (``follow``)."""
    twin = game.copy()
    R = twin.R
    places = {x: (R.loc[x], R.zones[R.loc[x]].index(x), R.facing[x]) for x in mapping}
    for x, (z, i, facing) in places.items():
        y = mapping[x]
        R.zones[z][i] = y
        R.loc[y], R.facing[y] = z, facing
    follow(twin, mapping)
    return twin


def follow(game: Game, mapping: dict[int, int]) -> None:
    """Every reference to an item of ``mapping`` names its new item: variables, item
    variables, messages, the locals of the rules under way, the options of the decision
    under way (and the secret choices already made in a simultaneous one). Used by the
    exchange of the twin games and by the determinization's deals."""
    R, prog = game.R, game.program
    declared, kinds = prog.checked.vars, prog.checked.kinds
    for k, v in list(R.vars.items()):
        R.vars[k] = _map_ref(v, declared[k].type, kinds, mapping)
    for k, vs in R.pvars.items():
        vs[:] = [_map_ref(v, declared[k].type, kinds, mapping) for v in vs]
    item_vars = prog.checked.item_vars
    for name, table in R.ivars.items():
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
        R.ask(pend["player"], pend["var"], options, pend["type"], pend["verb"], pend.get("alone"),
              pend.get("said"))
    elif pend is not None and "item" in pend["type"]:
        code, chosen = pend["type"], pend["chosen"]
        R.ask_each(pend["var"], [(s, [map_value(o, code, mapping) for o in options])
                                 for s, options in zip(pend["seats"], picks.asked(pend))],
                   code, pend["verb"], pend.get("picks"))
        for s, value in chosen:
            R.choose_each(s, map_value(value, code, mapping))


def map_value(v, type_code: str, mapping: dict[int, int]):
    """A value with its items renamed by ``mapping`` (type codes as in moves: item,
    list:item...)."""
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
        back = {str(a): str(b) for a, b in mapping.items()}
        out.append({name: {back.get(k, k): x for k, x in table.items()}
                    for name, table in entry[3].items()})
    return out
