"""Checking a saved game state before it is used (``Game.from_state``, ``resume``).

A state is plain JSON data (``docs/schema/state.schema.json``). It is checked first
against that schema (only true integers are integers), then for meaning against the
program: the ruleset, variants, locale and players match; every item lies in at most
one place and ``loc`` says where; indices, facing masks, the random generator, the
procedure stack (each frame one the program reaches: frames.py), the pending decision
(or chance step, in explicit chance mode), the messages and the result are well formed.
A bad state is one ``StateError``: ``invalid state at <json path>: <what is wrong>``.
"""
from __future__ import annotations

from functools import lru_cache

from ...dsl.types import tuple_parts
from . import frames
from .staterror import INT_LIMIT, StateError, _bad, _kind

STATE_FORMAT = "meeple-state/1"
PHASES = ("setup", "play", "ending", "over")
MAX_DEPTH = 32             # nesting of values in variables and options

_INT = {"type": "integer", "minimum": -INT_LIMIT, "maximum": INT_LIMIT}
_NAT = {"type": "integer", "minimum": 0, "maximum": INT_LIMIT}
_INTS = {"type": "array", "items": _INT}

STATE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://meeple.dev/schema/state.schema.json",
    "title": "Meeple game state",
    "description": "A game in progress as plain data (Game.state); Program.resume reads it "
                   "back after checking it against this schema and against the program.",
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "ruleset", "variants", "locale", "players", "zones", "loc", "facing",
                 "ivars", "vars", "pvars", "active", "turn", "phase", "rng", "stack", "pending",
                 "revealed", "seen", "log", "result", "moves"],
    "properties": {
        "format": {"const": STATE_FORMAT},
        "ruleset": {"type": "string"},
        "variants": {"type": "array", "items": {"type": "string"}},
        "locale": {"type": ["string", "null"]},
        "players": {"type": "integer", "minimum": 1, "maximum": 1000},
        "zones": {"type": "array", "items": {"type": "array", "items": _NAT},
                  "description": "the items in each zone, bottom first"},
        "loc": {"type": "array", "items": {"type": "integer", "minimum": -1},
                "description": "the zone of each item (-1: nowhere)"},
        "facing": {"type": "array", "items": {"type": "integer", "minimum": -1},
                   "description": "per item: -1 as its place says, else a mask of who sees it"},
        "unsure": {"type": "array", "items": _NAT,
                   "description": "per zone, a mask of the seats that may not know exactly which "
                                  "items it holds, in which order (absent, as in states saved "
                                  "before it was kept: every zone, for every seat)"},
        "ivars": {"type": "object", "additionalProperties": {"type": "array"}},
        "vars": {"type": "object"},
        "pvars": {"type": "object", "additionalProperties": {"type": "array"}},
        "active": _NAT,
        "turn": _NAT,
        "phase": {"enum": list(PHASES)},
        "rng": {"type": "integer", "minimum": 0, "maximum": INT_LIMIT - 1},
        "stack": {"type": "array", "maxItems": 10_000, "items": {
            "type": "object", "required": ["p", "pc", "L"], "additionalProperties": False,
            "properties": {"p": {"type": "string"}, "pc": _NAT, "L": {"type": "object"}}}},
        "pending": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["player", "var", "options", "type", "verb"],
            "additionalProperties": False,
            "properties": {"player": _NAT, "var": {"type": "string"},
                           "options": {"type": "array", "minItems": 1},
                           "type": {"type": "string"}, "verb": {"type": ["string", "null"]},
                           "alone": {"oneOf": [{"type": "string"}, {
                                         "type": "array", "items": {"type": "string"},
                                         "minItems": 1}], "description":
                                     "the verb written alone for the first option, none "
                                     "('as \"play\" or \"pass\"'; absent: no such move); "
                                     "a list: the verbs of as many first options, each none, "
                                     "of a decision that has several (those offered: 'or "
                                     "\"draw\" when c')"},
                           "said": {"type": "string", "description":
                                    "the local set to the verb of the move made "
                                    "('choose x, how'; absent: none)"},
                           "seats": {"type": "array", "items": _NAT, "minItems": 1,
                                     "description": "a simultaneous decision only: the seats "
                                                    "who choose (absent: one seat decides)"},
                           "each": {"type": "array", "items": {"type": "array"},
                                    "description": "the options of each of 'seats' (none "
                                                   "left only to a seat that has made all "
                                                   "its picks)"},
                           "waiting": {"type": "array", "items": _NAT, "minItems": 1,
                                       "description": "the seats still to choose ('player' "
                                                      "is the first)"},
                           "picks": {"type": "integer", "minimum": 1, "description":
                                     "a simultaneous decision of several picks only: how many "
                                     "options each seat picks, one move each ('each' then "
                                     "holds the options a seat has left; absent: one)"},
                           "chosen": {"type": "array", "items": {
                               "type": "array", "minItems": 2, "maxItems": 2,
                               "prefixItems": [_NAT, {}]},
                               "description": "[seat, value] of each secret choice made, in "
                                              "the order they were made"}},
            "dependentRequired": {k: ["seats", "each", "waiting", "chosen"]
                                  for k in ("seats", "each", "waiting", "chosen", "picks")}}]},
        "revealed": {"type": "array", "items": _NAT},
        "seen": {"type": "array", "items": _NAT},
        "log": {"type": "array", "items": {
            "type": "array", "minItems": 2, "maxItems": 4,
            "prefixItems": [_NAT, {"type": "array"}, {"type": "array"}, {"type": "object"}]}},
        "chance": {
            "type": "object", "required": ["taken", "step", "n"], "additionalProperties": False,
            "description": "explicit chance mode (absent: the seeded generator decides at once): "
                           "the outcomes set for the running random statement, the pending "
                           "chance step, and how many outcomes were set so far",
            "properties": {
                "taken": {"type": "array", "items": _NAT},
                "n": _NAT,
                "step": {"oneOf": [{"type": "null"}, {
                    "type": "object", "additionalProperties": False,
                    "required": ["kind", "type", "options", "weights", "take", "of"],
                    "properties": {"kind": {"enum": ["shuffle", "pick", "roll", "tie"]},
                                   "type": {"type": "string"},
                                   "options": {"type": "array", "minItems": 2},
                                   "weights": {"type": "array", "items": {**_NAT, "minimum": 1}},
                                   "take": {"type": "array", "items": _NAT},
                                   "of": {"type": "array", "items": _NAT}}}]}}},
        "log_dropped": {**_NAT, "description": "how many messages were said before the "
                                               "ones kept in 'log' (absent: none)"},
        "result": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["scores", "tiebreaks", "ranking", "winners"],
            "additionalProperties": False,
            "properties": {"scores": _INTS,
                           "tiebreaks": {"type": "object", "additionalProperties": _INTS},
                           "ranking": {"type": "array", "items": {"type": "array", "items": _NAT}},
                           "winners": {"type": "array", "items": _NAT},
                           "ranks": {**_INTS, "description": "each seat's place, from 1"},
                           "outcomes": {"type": "array",
                                        "items": {"enum": ["win", "draw", "loss"]}},
                           "draw": {"type": "boolean"},
                           "payoffs": {**_INTS, "description": "each seat's payoff ('payoff')"},
                           "payoffs_per": {"type": "integer", "minimum": 1, "description":
                                           "the parts of one that 'payoffs' count ('payoff ... per D')"},
                           "participants": {"type": "object", "additionalProperties": {
                               "oneOf": [{"type": "integer"}, {"type": "null"}]}},
                           "teams": {"type": "array", "items": {
                               "type": "object", "required": ["seats", "score", "rank"],
                               "additionalProperties": False,
                               "properties": {"seats": {"type": "array", "items": _NAT},
                                              "score": {"type": "integer"},
                                              "rank": _NAT}}}}}]},
        "moves": _NAT,
    },
}

def _is_int(_checker, x) -> bool:
    return type(x) is int   # not 3.0, not True


@lru_cache(maxsize=1)
def _strict_class():
    import jsonschema  # only when a state or record is checked: it costs start-up time
    from jsonschema import Draft202012Validator
    return jsonschema.validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_int))


def strict_validator(schema: dict):
    """A validator for which only true integers are integers (3.0 and true are not);
    records are checked with one too."""
    return _strict_class()(schema)


def best_match(errors):
    """jsonschema's best error of an ``iter_errors``."""
    from jsonschema.exceptions import best_match as best
    return best(errors)


_VALIDATOR = None


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = strict_validator(STATE_SCHEMA)
    return _VALIDATOR


def validate(prog, state) -> None:
    """Raises StateError unless ``state`` is a valid state of a game of ``prog``."""
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise StateError(f"invalid state at format: not a Meeple game state "
                         f"(format {STATE_FORMAT})")
    err = best_match(_validator().iter_errors(state))
    if err is not None:
        where = "/".join(str(x) for x in err.absolute_path) or "the state"
        msg = err.message if len(err.message) <= 200 else err.message[:199] + "…"
        raise StateError(f"invalid state at {where}: {msg}")
    _Meaning(prog, state).check()


class _Meaning:
    def __init__(self, prog, s: dict):
        self.prog, self.s = prog, s
        self.n = s["players"]
        self.items = len(prog.items)
        self.zones = len(prog.zones)
        c = prog.checked
        self.kinds, self.enums = set(c.kinds), c.enums

    def check(self) -> None:
        for step in (self.program, self.places, self.facing, self.numbers, self.variables,
                     self.stack, self.pending, self.chance, self.frames, self.log, self.result):
            step()

    def frames(self) -> None:
        """Every frame is one a game of the program reaches (frames.py)."""
        frames.check(self, self.s)

    def program(self) -> None:
        s, p = self.s, self.prog
        if s["ruleset"] != p.name:
            raise _bad("ruleset", f"the state is of '{s['ruleset']}', not of '{p.name}'")
        if sorted(s["variants"]) != sorted(p.variants):
            raise _bad("variants", "the state's variants are not the program's")
        if (s["locale"] or None) != (p.locale or None):
            raise _bad("locale", "the state's locale is not the program's")
        if self.n != p.n:
            raise _bad("players", f"the program is for {p.n} players, the state has {self.n}")

    def places(self) -> None:
        s = self.s
        if len(s["zones"]) != self.zones:
            raise _bad("zones", f"{len(s['zones'])} zones, the program has {self.zones}")
        if len(s["loc"]) != self.items:
            raise _bad("loc", f"{len(s['loc'])} items, the program has {self.items}")
        where = [-1] * self.items
        for z, content in enumerate(s["zones"]):
            for k, item in enumerate(content):
                if item >= self.items:
                    raise _bad(f"zones/{z}/{k}", f"there is no item {item}")
                if where[item] != -1:
                    raise _bad(f"zones/{z}/{k}", f"item {item} is in two places")
                where[item] = z
        for item, z in enumerate(s["loc"]):
            if z != where[item]:
                raise _bad(f"loc/{item}", f"says zone {z}, but the item is in "
                                          f"{'no zone' if where[item] < 0 else f'zone {where[item]}'}")

    def facing(self) -> None:
        s = self.s
        if len(s["facing"]) != self.items:
            raise _bad("facing", f"{len(s['facing'])} entries for {self.items} items")
        for i, f in enumerate(s["facing"]):
            if f >= 1 << self.n:
                raise _bad(f"facing/{i}", f"the mask {f} names seats beyond {self.n}")
        unsure = s.get("unsure")
        if unsure is not None:
            if len(unsure) != self.zones:
                raise _bad("unsure", f"{len(unsure)} entries for {self.zones} zones")
            for z, m in enumerate(unsure):
                if m >= 1 << self.n:
                    raise _bad(f"unsure/{z}", f"the mask {m} names seats beyond {self.n}")
        for k, z in enumerate(s["revealed"]):
            if z >= self.zones:
                raise _bad(f"revealed/{k}", f"there is no zone {z}")

    def numbers(self) -> None:
        s = self.s
        if s["active"] >= self.n:
            raise _bad("active", f"there is no seat {s['active']}")
        if len(s["seen"]) != self.n:
            raise _bad("seen", f"{len(s['seen'])} entries for {self.n} players")

    def variables(self) -> None:
        s, c = self.s, self.prog.checked
        per = {k for k, v in c.vars.items() if v.per_player}
        glob = set(c.vars) - per
        if set(s["vars"]) != glob:
            raise _bad("vars", f"the variables are {sorted(glob)}, not {sorted(s['vars'])}")
        if set(s["pvars"]) != per:
            raise _bad("pvars", f"the per-player variables are {sorted(per)}, "
                                f"not {sorted(s['pvars'])}")
        for k in glob:
            self.value(s["vars"][k], self.code_of(c.vars[k].type), f"vars/{k}")
        for k in per:
            values = s["pvars"][k]
            if len(values) != self.n:
                raise _bad(f"pvars/{k}", f"{len(values)} values for {self.n} players")
            code = self.code_of(c.vars[k].type)
            for p, v in enumerate(values):
                self.value(v, code, f"pvars/{k}/{p}")
        expected = {name for _, name, _ in self.prog.item_var_inits}
        if set(s["ivars"]) != expected:
            raise _bad("ivars", f"the item variables are {sorted(expected)}, "
                                f"not {sorted(s['ivars'])}")
        for name, values in s["ivars"].items():
            if len(values) != self.items:
                raise _bad(f"ivars/{name}", f"{len(values)} values for {self.items} items")
            for i, v in enumerate(values):
                if v is None:
                    continue
                decl = c.item_vars.get(self.prog.items[i].kind, {}).get(name)
                if decl is None:
                    raise _bad(f"ivars/{name}/{i}", "this item has no such variable")
                self.value(v, self.code_of(decl.type), f"ivars/{name}/{i}")

    def code_of(self, ref) -> str:
        name = getattr(ref, "name", None)
        if name == "list":
            return "list:" + self.code_of(ref.item)
        if name in self.kinds:
            return "item"
        if name in self.enums:
            return f"enum:{name}"
        return name or "?"

    def value(self, v, code: str, where: str, depth: int = 0) -> None:
        """A value of a type (written as a type code): None is allowed for any."""
        if depth > MAX_DEPTH:
            raise _bad(where, "values nested too deeply")
        if v is None:
            return
        if code.startswith("list:"):
            if not isinstance(v, list):
                raise _bad(where, f"a list is needed, not {_kind(v)}")
            for k, x in enumerate(v):
                self.value(x, code[5:], f"{where}/{k}", depth + 1)
            return
        if code.startswith("tuple("):
            parts = tuple_parts(code)
            if not isinstance(v, list) or len(v) != len(parts):
                raise _bad(where, f"a tuple of {len(parts)} parts is needed, not {_kind(v)}")
            for k, (x, t) in enumerate(zip(v, parts)):
                self.value(x, t, f"{where}/{k}", depth + 1)
            return
        if code in ("int", "item", "cell", "zone", "player"):
            if type(v) is not int:
                raise _bad(where, f"{_ARTICLED.get(code, 'a ' + code)} is needed, not {_kind(v)}")
            if code == "int" and abs(v) >= INT_LIMIT:
                raise _bad(where, "the integer is too large")
            limit = {"item": self.items, "cell": self.zones, "zone": self.zones,
                     "player": self.n}.get(code)
            if limit is not None and not 0 <= v < limit:
                raise _bad(where, f"there is no {code} {v}")
            if code == "cell" and self.prog.zones[v].cell is None:
                raise _bad(where, f"zone {v} is not a cell")
            return
        if code == "bool":
            if type(v) is not bool:
                raise _bad(where, f"true or false is needed, not {_kind(v)}")
            return
        if code.startswith("enum:"):
            if v not in self.enums.get(code[5:], ()):
                raise _bad(where, f"not a value of {code[5:]}")
            return
        if code == "str":
            if not isinstance(v, str):
                raise _bad(where, f"a text is needed, not {_kind(v)}")
            return
        _plain(v, where, depth)

    def stack(self) -> None:
        procs = self.prog.procs
        for k, frame in enumerate(self.s["stack"]):
            proc = procs.get(frame["p"])
            if proc is None:
                raise _bad(f"stack/{k}/p", f"there is no procedure '{frame['p']}'")
            if frame["pc"] > len(proc.code):
                raise _bad(f"stack/{k}/pc", f"procedure '{frame['p']}' has "
                                            f"{len(proc.code)} instructions")
            for name, v in frame["L"].items():
                _plain(v, f"stack/{k}/L/{name}", 0)
        s = self.s
        if s["phase"] == "over":
            if s["stack"] or s["pending"] is not None or s["result"] is None:
                raise _bad("phase", "a game that is over has a result and nothing running")
        elif s["result"] is not None:
            raise _bad("result", "a game that is not over has no result")

    def pending(self) -> None:
        pend = self.s["pending"]
        if pend is None:
            if self.s["phase"] != "over" and (self.s.get("chance") or {}).get("step") is None:
                raise _bad("pending", "a game that is not over waits for a decision")
            return
        if not self.s["stack"]:
            raise _bad("pending", "a decision with no procedure running")
        if pend["player"] >= self.n:
            raise _bad("pending/player", f"there is no seat {pend['player']}")
        code = pend["type"]
        if not self.known(code):
            raise _bad("pending/type", f"unknown type '{code}'")
        for k, o in enumerate(pend["options"]):
            self.value(o, code, f"pending/options/{k}")
        if "seats" in pend:
            self.simultaneous(pend, code)

    def chosen(self, pend: dict, code: str) -> list[int]:
        """The seats of a simultaneous decision's choices made, in order: each an option
        of the seat's (in a decision of several picks, one that has left its options,
        and no more picks than ``picks``)."""
        seats = pend["seats"]
        chose = [c[0] for c in pend["chosen"]]
        picks = pend.get("picks")
        for k, (seat, value) in enumerate(pend["chosen"]):
            if seat not in seats or chose[:k].count(seat) >= (picks or 1):
                raise _bad(f"pending/chosen/{k}", f"seat {seat} does not choose, or chose more "
                                                  f"than {picks or 1} time(s)")
            self.value(value, code, f"pending/chosen/{k}")
            left = pend["each"][seats.index(seat)]
            if (value in left or value in [v for s, v in pend["chosen"][:k] if s == seat]) \
                    if picks else value not in left:
                raise _bad(f"pending/chosen/{k}", "not one of the seat's options")
        return chose

    def simultaneous(self, pend: dict, code: str) -> None:
        """A simultaneous decision: distinct seats, options for each, the seats that chose
        (each once, an option of theirs) and the seats waiting make up the seats."""
        if pend["var"] not in self.s["pvars"]:
            raise _bad("pending/var", f"'{pend['var']}' is not a per-player variable")
        seats = pend["seats"]
        for k, seat in enumerate(seats):
            if seat >= self.n or seat in seats[:k]:
                raise _bad(f"pending/seats/{k}", f"seat {seat} is not a seat, or is listed twice")
        if len(pend["each"]) != len(seats):
            raise _bad("pending/each", f"{len(pend['each'])} lists of options for "
                                       f"{len(seats)} seats")
        for j, options in enumerate(pend["each"]):
            if not options and seats[j] in pend["waiting"]:
                raise _bad(f"pending/each/{j}", "a seat still to choose has no options")
            for k, o in enumerate(options):
                self.value(o, code, f"pending/each/{j}/{k}")
        chose = self.chosen(pend, code)
        picks = pend.get("picks")
        waiting = pend["waiting"]
        done = [s for s in seats if chose.count(s) == (picks or 1)]
        if sorted(waiting + done) != sorted(seats) or waiting != [s for s in seats if s in waiting]:
            raise _bad("pending/waiting", "the seats waiting are not, in order, those of "
                                          "'seats' that have not chosen")
        if pend["player"] != waiting[0] or pend["options"] != pend["each"][seats.index(waiting[0])]:
            raise _bad("pending/player", "not the first seat waiting, with its options")
        if "alone" in pend:
            raise _bad("pending/alone", "a simultaneous decision has no move without an object")

    def chance(self) -> None:
        ch = self.s.get("chance")
        step = ch["step"] if ch is not None else None
        if step is None:
            return
        if self.s["pending"] is not None or not self.s["stack"]:
            raise _bad("chance/step", "a chance step waits with no decision pending and a "
                                      "procedure running")
        if not self.known(step["type"]):
            raise _bad("chance/step/type", f"unknown type '{step['type']}'")
        k = len(step["options"])
        if len(step["weights"]) != k or len(step["take"]) != k or sum(step["weights"]) != len(step["of"]) \
                or any(t >= len(step["of"]) or step["of"][t] != i for i, t in enumerate(step["take"])) \
                or any(o >= k for o in step["of"]):
            raise _bad("chance/step", "its options, weights and candidates do not agree")
        for i, o in enumerate(step["options"]):
            self.value(o, step["type"], f"chance/step/options/{i}")

    def known(self, code: str) -> bool:
        while code.startswith("list:"):
            code = code[5:]
        if code.startswith("tuple(") and code.endswith(")") and code.count("(") == 1:
            return all(self.known(t) or t == "none" for t in tuple_parts(code))   # (flat parts)
        if code.startswith("enum:"):
            return code[5:] in self.enums
        return code in ("int", "bool", "str", "player", "item", "cell", "zone")

    def log(self) -> None:
        logs = self.prog.logs
        for k, entry in enumerate(self.s["log"]):
            if entry[0] >= len(logs):
                raise _bad(f"log/{k}/0", f"there is no message {entry[0]}")
            types = logs[entry[0]].types
            values = entry[1]
            if len(values) != len(types):
                raise _bad(f"log/{k}/1", f"{len(values)} values for {len(types)} places")
            for j, (v, t) in enumerate(zip(values, types)):
                self.value(v, t, f"log/{k}/1/{j}")
            if len(entry) > 2:
                masks = entry[2]
                if len(masks) != len(types):
                    raise _bad(f"log/{k}/2", f"{len(masks)} masks for {len(types)} places")
                for j, (m, v, t) in enumerate(zip(masks, values, types)):
                    self.mask(m, v, t, f"log/{k}/2/{j}")
            if len(entry) > 3:
                for name, table in entry[3].items():
                    if name not in self.s["ivars"] or not isinstance(table, dict):
                        raise _bad(f"log/{k}/3/{name}", "not an item variable")
                    for key, v in table.items():
                        if not key.isdigit() or int(key) >= self.items:
                            raise _bad(f"log/{k}/3/{name}/{key}", "not an item")
                        _plain(v, f"log/{k}/3/{name}/{key}", 0)

    def mask(self, m, v, t: str, where: str) -> None:
        if t.startswith("list:"):
            if v is None:
                return
            if not isinstance(m, list) or len(m) != len(v):
                raise _bad(where, "the masks do not match the values")
            for j, (mm, vv) in enumerate(zip(m, v)):
                self.mask(mm, vv, t[5:], f"{where}/{j}")
            return
        if m is None:
            return
        if t != "item" or type(m) is not int or not -1 <= m < 1 << self.n:
            raise _bad(where, "not a mask of seats")

    def result(self) -> None:
        res = self.s["result"]
        if res is None:
            return
        self.result_shape(res)
        outcomes = res.get("outcomes")
        if outcomes is None:  # a state saved before outcomes: the first group won
            if res["winners"] != res["ranking"][0]:
                raise _bad("result/winners", "the winners are not the first in the ranking")
            return
        self.result_outcomes(res, outcomes)
        self.result_ranks(res)

    def result_shape(self, res: dict) -> None:
        """A score and tiebreak values for each seat, and a ranking of every seat once."""
        n = self.n
        if len(res["scores"]) != n:
            raise _bad("result/scores", f"{len(res['scores'])} scores for {n} players")
        for name, values in res["tiebreaks"].items():
            if len(values) != n:
                raise _bad(f"result/tiebreaks/{name}", f"{len(values)} values for {n} players")
        flat = [p for group in res["ranking"] for p in group]
        if sorted(flat) != list(range(n)) or any(not g for g in res["ranking"]):
            raise _bad("result/ranking", "the ranking does not list every seat once")

    def result_outcomes(self, res: dict, outcomes: list) -> None:
        """An outcome for each seat, the winners and ``draw`` as the outcomes say."""
        n = self.n
        if len(outcomes) != n:
            raise _bad("result/outcomes", f"{len(outcomes)} outcomes for {n} players")
        if res["winners"] != [p for p in range(n) if outcomes[p] == "win"]:
            raise _bad("result/winners", "the winners are not the players whose outcome is 'win'")
        if "draw" in res and res["draw"] != all(o == "draw" for o in outcomes):
            raise _bad("result/draw", "'draw' does not say whether every outcome is a draw")

    def result_ranks(self, res: dict) -> None:
        """The ranks, if given, follow the ranking (unless the seats play in teams)."""
        ranks = res.get("ranks")
        if ranks is None:
            return
        n = self.n
        place = {p: 1 + sum(len(g) for g in res["ranking"][:i])
                 for i, group in enumerate(res["ranking"]) for p in group}
        if len(ranks) != n or (res.get("teams") is None and ranks != [place[p] for p in range(n)]):
            raise _bad("result/ranks", "the ranks do not follow the ranking")


_ARTICLED = {"int": "an integer", "item": "an item"}


def _plain(v, where: str, depth: int) -> None:
    """Any plain value: numbers are integers of bounded size, nesting is bounded."""
    stack = [(v, where, depth)]
    while stack:
        x, w, d = stack.pop()
        if d > MAX_DEPTH:
            raise _bad(w, "values nested too deeply")
        if type(x) is int:
            if abs(x) >= INT_LIMIT:
                raise _bad(w, "the integer is too large")
        elif isinstance(x, list):
            stack.extend((y, f"{w}/{k}", d + 1) for k, y in enumerate(x))
        elif isinstance(x, dict):
            stack.extend((y, f"{w}/{k}", d + 1) for k, y in x.items())
        elif x is not None and not isinstance(x, (str, bool)):
            raise _bad(w, f"{_kind(x)} is not allowed in a state")
