"""Every Meeple ruleset as an OpenSpiel game (see docs/api.md, "OpenSpiel").

    import pyspiel
    import meeple.openspiel                      # registers meeple_<name> for the bundled rulesets
    game = pyspiel.load_game("meeple_kalah")
    game = meeple.openspiel.load("path/to/ruleset", players=2, variants=["x"], locale="de")

A state is a Meeple game in explicit chance mode (``chance="explicit"``): its chance steps
are OpenSpiel chance nodes with their exact probabilities, its decisions OpenSpiel
actions, a simultaneous decision (``choose ... for each p``) one simultaneous node. What a
player observes is drawn from Meeple's view of its seat (``views.view``), never from the
state. ``ActionSpace`` and ``Encoding`` (the fixed action ids and the tensor encoding of
a view) are shared with ``meeple.pettingzoo`` and need no OpenSpiel; so is
``played_program``: the games are played by the ruleset's kernel where one can be built
here (the parameter ``native``), the same games as in Python.
"""
from __future__ import annotations

import json
from itertools import repeat
from operator import truediv

from meeple import interpreter
from meeple.interpreter.core import ops
from meeple.interpreter.native.kgame import KernelGame
from meeple.interpreter.play import display, views
from meeple.interpreter.play.runtime import Move

MAX_MOVES = 1024        # default bound of the ordinal block (moves of non-enumerable types)
MAX_GAME_LENGTH = 100_000   # default declared bound on the number of actions of a game
ENUMERATED = ("item", "cell", "zone", "bool", "player")


class ActionSpaceError(ValueError):
    """A decision or chance step has more options than the action space's ordinal block."""


class ActionSpace:
    """The fixed action ids of a ruleset's program (one player count, variants, locale).

    The ids are blocks, in this order: every item (its id), every zone and cell (its
    id), ``false`` and ``true``, every seat, the members of each enum (enums by name,
    members in declaration order), ``none`` (the option of ``choose ... as "a" or "b"``
    written as the verb alone), in a program with a decision of several such moves
    (``or "b" or "c"``) one id per verb (``verb:b``: such a move has its verb's id), then
    ``max_moves`` *ordinal* ids, then ``wait``. An
    option of an enumerated type (item, cell, zone, bool, player, enum) has the id of its
    value, the same in every game and every decision of the program; a decision over any
    other type (int, str, lists: their values are not enumerable from the ruleset) uses the
    ordinal block: id ``ordinal + k`` is its k-th legal move in Meeple's sorted order. A
    decision over items that the decider may not all see uses the ordinal block too, so
    that the ids never tell which hidden item is which. ``wait`` is the one action of a
    seat not asked at an OpenSpiel simultaneous node. Chance outcomes are numbered by
    their index in ``game.chance_outcomes()`` (below ``max_moves``)."""

    def __init__(self, program, max_moves: int = MAX_MOVES):
        self.program, self.max_moves = program, max_moves
        self.offsets: dict[str, int] = {}
        self.labels: list[str] = []
        self._block("item", [it.notation for it in program.items])
        self._block("zone", [display.zone_notation(program, z.id) for z in program.zones])
        self._block("bool", ["false", "true"])
        self._block("player", [f"p{s + 1}" for s in range(program.n)])
        self.enum_index = {}
        for name in sorted(program.checked.enums):
            members = list(program.checked.enums[name])
            self.enum_index[name] = {m: i for i, m in enumerate(members)}
            self._block("enum:" + name, [str(m) for m in members])
        self.none = self._block("none", ["none"])
        # the verbs of the moves without an object of decisions that have several
        # ('as "play" or "draw" or "pass"'): one id each (no block without them)
        verbs = several_verbs(program.checked)
        self.verbs = {v: self._block("verb:" + v, [v]) for v in verbs}
        # decisions over tuples whose parts are all enumerable: a block each (no block without)
        self.tuples: dict[str, TupleBlock] = {}
        for tc, parts in tuple_decisions(program).items():
            block = TupleBlock(self, parts)
            if block.size <= MAX_TUPLE_IDS:
                block.start = self._block(tc, block.labels(program, tc))
                self.tuples[tc] = block
        self.ordinal = self._block("ordinal", [f"move #{k}" for k in range(max_moves)])
        self.wait = self._block("wait", ["wait"])
        self.size = len(self.labels)
        self._known = None   # (a list of legal moves, its game, their ids)
        self._uniform: dict[int, list] = {}   # (equally likely outcomes: see chance_probabilities)
        self._kinds: dict[str, str] = {}   # (a decision's type: "item", "value" or "ordinal": see legal)
        self._ordinals: list[int] = []   # (the ordinal ids made so far: see ordinal_ids)

    def _block(self, name: str, labels: list[str]) -> int:
        self.offsets[name] = start = len(self.labels)
        self.labels.extend(labels)
        return start

    def label(self, action: int) -> str:
        """What an id stands for, out of any position (``"move #3"`` for an ordinal id)."""
        return self.labels[action] if 0 <= action < self.size else f"action {action}"

    def moves(self, game, seat: int) -> dict[int, Move]:
        """The legal moves of ``seat`` now by action id (ascending), drawn from
        ``game.legal_moves(seat)`` and the seat's own knowledge of the items."""
        moves = game.legal_moves(seat)
        if not moves:
            return {}
        known = self._known
        if known is not None and known[0] is moves and known[1] is game:
            return known[2]   # (the same list of the same game: a game makes a new one per position)
        self._known = (moves, game, None)
        by_id = self._moves(game, seat, moves)
        self._known = (moves, game, by_id)
        return by_id

    def action_ids(self, game, seat: int) -> list[int]:
        """The ids of ``moves(game, seat)``, ascending; a decision whose moves take
        ordinal ids is counted, not made (``game.move_count``)."""
        n = self.ordinal_count(game, seat)
        return list(self.moves(game, seat)) if n is None else self.ordinal_ids(n)

    def legal(self, game, seat: int) -> tuple[list[int], object]:
        """The ids of the legal moves of ``seat`` (deciding now), ascending, and how to
        find the move an id names: the count of its moves when they take ordinal ids (id
        ``ordinal + k``: index k); else, where the kernel plays, the ids in the order of
        the moves (no Move is made: ``KernelGame.option_values``); else a dict of each
        id to its move's index. (Plain data: a state keeps it, and copies it.)"""
        pending = game.pending(seat) if game.__class__ is KernelGame else None
        if pending is None:
            n = self.ordinal_count(game, seat)
            if n is not None:
                return self.ordinal_ids(n), n
            by_id = self.moves(game, seat)
            return list(by_id), {a: m.index for a, m in by_id.items()}
        tc, n = pending
        kind = self._kinds.get(tc)
        if kind is None:
            kind = self._kinds[tc] = ("item" if tc == "item" else "value") if self._may_enumerate(tc) \
                else "ordinal"
        if kind == "ordinal" or (kind == "item" and game.options_hidden(seat)):
            if n > self.max_moves:
                raise ActionSpaceError(f"a decision has {n} moves, more than the ordinal "
                                       f"block's {self.max_moves}: raise max_moves")
            known = self._ordinals   # (ordinal_ids(n), without the call)
            return known[:n] if n <= len(known) else self.ordinal_ids(n), n
        values = game.option_values(seat)
        if kind == "item":
            base, none = self.offsets["item"], self.none
            ids = [none if v is None else base + v for v in values]
        else:
            ids = [self.value_id(tc, v) for v in values]
        if self.verbs and None in values:
            alone = game.alone_verbs()
            for i, v in enumerate(alone or ()):
                ids[i] = self.verbs.get(v, ids[i])
        return sorted(ids), ids

    def ordinal_ids(self, n: int) -> list[int]:
        """The first ``n`` ordinal ids (a slice of those made so far: no number is made
        again for each decision)."""
        known = self._ordinals
        if n > len(known):
            known.extend(range(self.ordinal + len(known), self.ordinal + n))
        return known[:n]

    def ordinal_count(self, game, seat: int) -> int | None:
        """How many moves the seat has now when they take ordinal ids by the decision's
        type (None otherwise: see ``moves``)."""
        d = game.decision
        if d is None or self._may_enumerate(d.type):
            return None
        n = game.move_count(seat)
        if n > self.max_moves:
            raise ActionSpaceError(f"a decision has {n} moves, more than the ordinal "
                                   f"block's {self.max_moves}: raise max_moves")
        return n

    def _may_enumerate(self, tc: str) -> bool:
        if tc.startswith("tuple("):
            return tc in self.tuples
        return tc[5:] in self.enum_index if tc.startswith("enum:") else tc in ENUMERATED

    def _moves(self, game, seat: int, moves) -> dict[int, Move]:
        tc = game.decision.type
        if tc == "item" and self._enumerated(game, seat, tc, moves):
            base, none = self.offsets["item"], self.none
            ids = [none if m.value is None else base + m.value for m in moves]
        elif self._enumerated(game, seat, tc, moves):
            ids = [self.value_id(tc, m.value) for m in moves]
        else:
            if len(moves) > self.max_moves:
                raise ActionSpaceError(f"a decision has {len(moves)} moves, more than the ordinal "
                                       f"block's {self.max_moves}: raise max_moves")
            ids = [self.ordinal + m.index for m in moves]
        if self.verbs and ids and ids[0] == self.none:
            # moves without an object of a decision with several: by their verb
            ids = [self.verbs.get(m.notation, a) if a == self.none else a for a, m in zip(ids, moves)]
        return dict(sorted(zip(ids, moves)))

    def _enumerated(self, game, seat: int, tc: str, moves) -> bool:
        if tc.startswith("tuple("):
            return tc in self.tuples
        if tc.startswith("enum:"):
            return tc[5:] in self.enum_index
        if tc not in ENUMERATED:
            return False
        if tc == "item":
            hidden = game.options_hidden(seat) if getattr(game, "live", False) else None
            if hidden is not None:   # (the kernel says it of every option at once)
                return not hidden
            return all(m.value is None or _visible(game, m.value, seat) for m in moves)
        return True

    def value_id(self, tc: str, value) -> int:
        if value is None:
            return self.none
        if tc.startswith("enum:"):
            return self.offsets[tc] + self.enum_index[tc[5:]][value]
        if tc.startswith("tuple("):
            return self.tuples[tc].id_of(value)
        block = "zone" if tc == "cell" else tc
        return self.offsets[block] + int(value)

    def chance_probabilities(self, game) -> list[tuple[int, float]]:
        """The pending chance step's outcomes as ``(id, probability)`` (from their
        weights where the kernel plays: no Outcome is made)."""
        weights = game.chance_weights() if game.__class__ is KernelGame else None
        if weights is None:
            return [(a, float(o.probability)) for a, o in self.chance(game)]
        if len(weights) > self.max_moves:
            raise ActionSpaceError(f"a chance step has {len(weights)} outcomes, more than "
                                   f"{self.max_moves}: raise max_moves")
        n = len(weights)
        if weights.count(1) == n:   # (outcomes alike: the same list for each count)
            known = self._uniform.get(n)
            if known is None:
                known = self._uniform[n] = [(a, 1 / n) for a in range(n)]
            return list(known)
        total = sum(weights)
        return list(zip(range(n), map(truediv, weights, repeat(total))))

    def chance(self, game) -> list[tuple[int, object]]:
        """The pending chance step's outcomes as ``(id, Outcome)``."""
        outs = game.chance_outcomes()
        if len(outs) > self.max_moves:
            raise ActionSpaceError(f"a chance step has {len(outs)} outcomes, more than "
                                   f"{self.max_moves}: raise max_moves")
        return [(o.index, o) for o in outs]


MAX_TUPLE_IDS = 1 << 16   # ids of one block of tuples at most (else: the ordinal block)


class TupleBlock:
    """The ids of the options of one type of tuple (``tuple(cell,str,enum:Turn)``): each
    part's values numbered (a cell by its id among the zones and cells, a seat, ``false``
    and ``true``, an enum's members in declaration order, a string part by the order of
    the strings written at that place of the ruleset's tuples), then ``none``; the id is
    the block's start plus the parts' numbers in a mixed base, the first part the most
    significant: ``((p0 × r1 + p1) × r2 + p2) ...`` where ``r`` is a part's count of
    values, ``none`` included. A tuple type with a part of numbers, or one written other
    than as a string in the rules, takes ordinal ids (``parts``: None)."""

    def __init__(self, space: ActionSpace, parts: list[tuple[str, list]] | None):
        self.parts = parts or []
        self.index = [{v: i for i, v in enumerate(values)} for _, values in self.parts]
        self.radix = [len(values) + 1 for _, values in self.parts]
        self.size = 1
        for r in self.radix:
            self.size *= r
        if parts is None:
            self.size = MAX_TUPLE_IDS + 1
        self.start = 0

    def id_of(self, value: list) -> int:
        k = 0
        for v, index, r in zip(value, self.index, self.radix):
            k = k * r + (r - 1 if v is None else index[v])
        return self.start + k

    def labels(self, program, tc: str) -> list[str]:
        from itertools import product
        values = [[*vs, None] for _, vs in self.parts]
        return [display.value_notation(program, list(v), tc) or "none" for v in product(*values)]


def tuple_decisions(program) -> dict[str, list | None]:
    """The tuple types of a program's decisions (``choose``), each with its parts' type
    codes and values as ``TupleBlock`` numbers them (None where a part is not
    enumerable), in the order the rules first ask them."""
    from meeple.dsl import ast as ir
    from meeple.dsl.types import compatible, tuple_parts, type_code
    c = program.checked
    bodies = [p.body for p in c.procedures.values()]
    bodies += [d.body for d in (c.setup, c.turn, c.at_end) if d is not None]
    nodes = [n for body in bodies for n in ir.walk(body)]
    nodes += [n for f in c.functions.values() for n in ir.walk(f.body)]
    literals = [(n, c.type_of(n)) for n in nodes if n.node == "TupleLit"]
    found: dict[str, list | None] = {}
    for n in nodes:
        t = c.type_of(n.options).arg if n.node == "Choose" else None
        if t is None or t.tag != "tuple" or type_code(t) in found:
            continue
        tc = type_code(t)
        made = [lit for lit, lt in literals if compatible(t, lt)]   # (the tuples options may be)
        parts = [(code, _part_values(program, code, [lit.items[i] for lit in made]))
                 for i, code in enumerate(tuple_parts(tc))]
        found[tc] = None if any(values is None for _, values in parts) else parts
    return found


def _part_values(program, code: str, written: list) -> list | None:
    """The values of a part of a tuple, in the order their numbers take (None: not
    enumerable); ``written``: the expressions of the tuples made for it (a text part's
    values are the texts written there, where each is written as a text)."""
    if code == "str":
        return sorted({x.value for x in written}) if all(x.node == "StrLit" for x in written) else None
    if code == "cell":
        return [z for z, zone in enumerate(program.zones) if zone.cell is not None]
    if code == "zone":
        return list(range(len(program.zones)))
    if code == "player":
        return list(range(program.n))
    if code == "bool":
        return [False, True]
    if code == "none":
        return []
    if code.startswith("enum:"):
        return list(program.checked.enums[code[5:]])
    return None


def several_verbs(checked) -> list[str]:
    """The verbs of the moves without an object of a program's decisions that have
    several (``choose x from ... as "play" or "draw" or "pass"``), each once, in order."""
    from meeple.dsl import ast as ir
    bodies = [p.body for p in checked.procedures.values()]
    bodies += [d.body for d in (checked.setup, checked.turn, checked.at_end) if d is not None]
    verbs: dict[str, None] = {}
    for body in bodies:
        for n in ir.walk(body):
            if n.node == "Choose" and n.more:
                verbs.update(dict.fromkeys((n.alone, *n.more)))
    return list(verbs)


def _visible(game, item: int, seat: int) -> bool:
    """``views.item_visible``: by the kernel of a game it plays (no Python game is made)."""
    if getattr(game, "live", False):
        return game.item_visible(item, seat)
    return views.item_visible(game, item, seat)


def played_program(ruleset, players: int, native: bool = True):
    """The program of ``ruleset`` for ``players`` seats whose games the adapters play: with
    ``native``, one its kernel plays where kernels can be built here
    (``interpreter.kernel_status()`` is None; ``MEEPLE_KERNEL=0`` turns them off) and one
    covers the ruleset (built once, then kept in the disk cache), else the Python
    program. The games, their moves, chance outcomes and views are the same either way."""
    if native and interpreter.kernel_status() is None:
        twin = interpreter.compile_sources(ruleset.sources, list(ruleset.variants), ruleset.locale,
                                           ruleset.budgets)
        twin.use_native(report=False, kernel_only=True)
        return twin.for_players(players)
    return ruleset.for_players(players)


# ---------------------------------------------------------------- the view as a tensor

class Encoding:
    """A flat float32 tensor of what one seat sees (its view), in blocks:

    - ``seat`` (players): one-hot of the observing seat; ``deciding`` (players): 1 for
      each seat deciding now; ``state`` (3): the turn number, 1 once over, 1 at a chance step;
    - ``places`` (items x zones): 1 where the view shows item i in zone z (an item the
      seat may not see, or in a zone it may not see, is not placed);
    - ``counts`` (zones): how many items each zone holds (known even when hidden);
    - ``face_down`` (items): 1 for items lying face down that the seat knows all the same;
    - ``vars`` (one per global variable, ``players`` per per-player variable, in the
      order of their names): a number, a bool as 0/1, an enum member as its position, an
      item, zone, cell or player as its id + 1, a list as its length, and 0 for
      a value that is hidden from the seat, missing or of another type (a string).
    """

    def __init__(self, program):
        self.program = program
        c = program.checked
        self.n, self.items, self.zones = program.n, len(program.items), len(program.zones)
        self.zone_index = {z.key: z.id for z in program.zones}
        self.globals = sorted(k for k, d in c.vars.items() if not d.per_player)
        self.per_player = sorted(k for k, d in c.vars.items() if d.per_player)
        self.enums = {name: {m: i for i, m in enumerate(ms)} for name, ms in c.enums.items()}
        self.var_types = {k: d.type for k, d in c.vars.items()}
        self.blocks = {}
        k = 0
        for name, size in (("seat", self.n), ("deciding", self.n), ("state", 3),
                           ("places", self.items * self.zones), ("counts", self.zones),
                           ("face_down", self.items),
                           ("vars", len(self.globals) + self.n * len(self.per_player))):
            self.blocks[name] = (k, size)
            k += size
        self.size = k

    def encode(self, view: dict, game=None):
        import numpy as np
        t = np.zeros(self.size, np.float32)
        self.fill(t, view, game)
        return t

    def fill(self, t, view: dict, game=None) -> None:
        """Writes the encoding of ``view`` into the zeroed array ``t``; ``game`` only
        gives the seats deciding (as anyone may know them)."""
        b = self.blocks
        if isinstance(view["seat"], int) and 0 <= view["seat"] < self.n:
            t[b["seat"][0] + view["seat"]] = 1
        pend = view.get("pending")
        deciding = game.deciding if game is not None else (
            [] if pend is None else pend.get("waiting", [pend["player"]]))
        for s in deciding:
            t[b["deciding"][0] + s] = 1
        st = b["state"][0]
        t[st], t[st + 1], t[st + 2] = view["turn"], view["phase"] == "over", bool(view.get("chance"))
        places, counts = b["places"][0], b["counts"][0]
        for key, content in view["zones"].items():
            z = self.zone_index[key]
            if isinstance(content, dict):
                t[counts + z] = content.get("count", 0)
                continue
            t[counts + z] = len(content)
            for i in content:
                if isinstance(i, int):
                    t[places + i * self.zones + z] = 1
        for i in view.get("face_down", ()):
            t[b["face_down"][0] + i] = 1
        k = b["vars"][0]
        for name in self.globals:
            t[k] = self._number(view["vars"].get(name), self.var_types[name])
            k += 1
        for name in self.per_player:
            values = view["pvars"].get(name, [None] * self.n)
            for s in range(self.n):
                t[k + s] = self._number(values[s] if s < len(values) else None, self.var_types[name])
            k += self.n

    def _number(self, v, type_ref) -> float:
        if v is None or isinstance(v, dict):   # no value, or one hidden from the seat
            return 0.0
        if isinstance(v, bool):
            return float(v)
        if isinstance(v, list):
            return float(len(v))
        if type_ref.name in self.enums:
            return float(self.enums[type_ref.name].get(v, -1) + 1)
        if isinstance(v, (int, float)):
            return float(v) + (1.0 if type_ref.name not in ("int", "float") else 0.0)
        return 0.0


def observation(game, seat: int) -> str:
    """The observation string of a seat: its view as canonical JSON."""
    return json.dumps(views.view(game, seat), sort_keys=True, separators=(",", ":"))


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def view_delta(old: str, new: str) -> str:
    """What changed from one observation of a seat (``observation``: a view as canonical
    JSON) to the next, as canonical JSON: a list of edits, each a list whose first
    element says what it does to the value at ``path`` (a list of keys from the view's
    top):

    * ``["=", path, value]``: the value there is now ``value`` (a key added, or a value
      changed: a list that changed otherwise than below is written whole);
    * ``["-", path]``: the key there is gone;
    * ``["+", path, k, items]``: the list there lost its first ``k`` elements and gained
      ``items`` at its end (messages said, the oldest dropped; cards laid on a pile).

    The next view follows from the one before and the edits (``read_information_state``),
    so an information state written with them tells exactly what the whole views would."""
    edits: list = []
    _delta(json.loads(old), json.loads(new), [], edits)
    return _canonical(edits)


def _delta(old, new, path: list, edits: list) -> None:
    if old.__class__ is dict and new.__class__ is dict:
        for k in sorted(old.keys() - new.keys()):
            edits.append(["-", path + [k]])
        for k in sorted(new):
            if k not in old:
                edits.append(["=", path + [k], new[k]])
            elif not _same(old[k], new[k]):
                _delta(old[k], new[k], path + [k], edits)
        return
    if old.__class__ is list and new.__class__ is list:
        for k in range(len(old)):   # the fewest dropped from the front, then appended
            kept = len(old) - k
            if kept <= len(new) and _same(new[:kept], old[k:]):
                edits.append(["+", path, k, new[kept:]])
                return
    edits.append(["=", path, new])


def _same(a, b) -> bool:
    """Equal as JSON writes them (``1``, ``1.0`` and ``true`` differ, as in the text)."""
    cls = a.__class__
    if cls is not b.__class__:
        return False
    if cls is list:
        return len(a) == len(b) and all(map(_same, a, b))
    if cls is dict:
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    return a == b


def read_information_state(text: str) -> list:
    """The lines of an information state string, read back: ``("view", dict)`` for each
    view the seat had (in full, every edit applied) and ``("move", notation)`` for each
    of its own moves, in order."""
    out: list = []
    view = None
    for line in text.split("\n"):
        if line.startswith("> "):
            out.append(("move", line[2:]))
            continue
        if view is None or line.startswith("{"):   # (a whole view: the first one)
            view = json.loads(line)
        else:
            view = json.loads(_canonical(view))   # (a copy the edits change)
            for edit in json.loads(line):
                _edit(view, edit)
        out.append(("view", view))
    return out


def _edit(view: dict, edit: list) -> None:
    op, path = edit[0], edit[1]
    parent = view
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "=":
        parent[key] = edit[2]
    elif op == "-":
        del parent[key]
    else:
        parent[key] = parent[key][edit[2]:] + edit[3]


RETURNS = ("outcomes", "scores", "payoffs")


def returns_of(result: dict | None, players: int, mode: str = "outcomes") -> list[float]:
    """The returns of a finished game from its result: ``"outcomes"``: +1 a win, 0 a
    draw, -1 a loss; ``"scores"``: each seat's score less the seats' mean score (so they
    sum to 0); ``"payoffs"``: each seat's payoff as the ruleset declares it (``payoff``),
    exactly (one counted ``per D`` is its integer divided by D, the float nearest the
    fraction). All zeros while the game goes on."""
    if result is None:
        return [0.0] * players
    if mode == "scores":
        scores = [float(s) for s in result["scores"]]
        mean = sum(scores) / len(scores)
        return [s - mean for s in scores]
    if mode == "payoffs":
        per = result.get("payoffs_per", 1)
        return [x / per for x in result["payoffs"]]
    return [{"win": 1.0, "draw": 0.0, "loss": -1.0}[o] for o in result["outcomes"]]


def default_returns(ruleset) -> str:
    """The returns a ruleset's games give unless told otherwise: ``"payoffs"`` when it
    declares a ``payoff``, else ``"outcomes"``."""
    return "payoffs" if ruleset.checked.payoff is not None else "outcomes"


def check_returns(ruleset, mode: str) -> None:
    """A ValueError saying what is wrong with ``returns=mode`` for this ruleset."""
    if mode not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(map(repr, RETURNS))}, not {mode!r}")
    if mode == "payoffs" and ruleset.checked.payoff is None:
        raise ValueError(f"returns='payoffs': ruleset {ruleset.name!r} declares no payoff "
                         "(add 'payoff(p) = ...', or use returns='outcomes' or 'scores')")


# the statements that draw from the state's generator: those whose instruction is a
# random draw (interpreter/core/ops.py ``Draw``: shuffle, roll, pick at random)
RANDOM_NODES = tuple(k.__name__ for k in ops.KINDS if issubclass(k, ops.Draw))


def has_chance(checked) -> bool:
    """Whether games of a ruleset may take a chance step: a shuffle, a roll, a ``pick ...
    at random`` or a ``best ... tie random`` anywhere in its rules."""
    roots = [checked.setup, checked.turn, checked.at_end, *checked.procedures.values(),
             *checked.functions.values()]
    return any(_random(r) for r in roots if r is not None)


def _random(node) -> bool:
    name = getattr(node, "node", None)
    if name in RANDOM_NODES or (name == "Best" and getattr(node, "tie", None) == "random"):
        return True
    if isinstance(node, (list, tuple)):
        return any(_random(x) for x in node)
    if isinstance(node, dict):
        return any(_random(x) for x in node.values())
    fields = getattr(type(node), "model_fields", None)
    if fields is None:
        return False
    return any(_random(getattr(node, f)) for f in fields if f != "span")


def zero_sum(ruleset, players: int, mode: str) -> bool:
    """Returns sum to zero in every finished game: always with ``"scores"`` (centred);
    with ``"outcomes"`` when two seats play and the outcomes follow the ranking (no
    ``outcome`` or ``team`` declaration): then one wins and one loses, or both draw;
    with ``"payoffs"`` when the ruleset declares them ``summing to 0``."""
    return utility(ruleset, players, mode) == ("zero_sum", 0)


def utility_bounds(program, mode: str, bound: float) -> tuple[float, float]:
    """The least and the most a seat's return can be: with ``"payoffs"``, the range of
    the payoff expression where the program's analysis knows it whatever the state (a
    literal, a seat, arithmetic and choices of such: ``interpreter/core/bounds.py``),
    else -bound..bound (``score_bound``; 1 for ``"outcomes"``). A payoff counted ``per
    D`` has that range divided by D."""
    if mode == "payoffs" and program.checked.payoff is not None:
        known = program.facts.int_range(program.checked.payoff.body)
        if known is not None:
            per = program.checked.payoff.per or 1
            return known[0] / per, known[1] / per
    return -bound, bound


def utility(ruleset, players: int, mode: str) -> tuple[str, int | None]:
    """What the returns of every finished game are known to have in common, and their
    sum when it is known: ``("zero_sum", 0)``, ``("constant_sum", N)`` (payoffs declared
    ``summing to N``), ``("identical", None)`` (one payoff shared: ``payoff = ...``) or
    ``("general_sum", None)``. Only what follows from the declarations is claimed."""
    c = ruleset.checked
    if mode == "scores" or (mode == "outcomes" and players == 2 and c.outcome is None
                            and c.team is None):
        return "zero_sum", 0
    if mode == "payoffs" and c.payoff is not None:
        if c.payoff.param is None:
            return "identical", None
        if c.payoff.total is not None:
            return ("zero_sum" if c.payoff.total == 0 else "constant_sum"), c.payoff.total
    return "general_sum", None


def secret_beyond_simultaneous(ruleset) -> bool:
    """Whether a seat may be kept from seeing something other than the choices of a
    simultaneous decision while they are made (which OpenSpiel's simultaneous nodes
    keep apart themselves): what ``ruleset.hidden_information`` says, that one reason
    left out."""
    if not ruleset.hidden_information:
        return False
    c = ruleset.checked
    if c.secrets or any(v.visibility is not None for v in c.vars.values()) \
            or any(z.visibility != "public" for z in c.zones.values()) \
            or any(b.decl.visibility != "public" for b in c.boards.values()):
        return True
    return any(getattr(n, "facing", None) == "down" for n in _nodes(c))   # (a move, flip, make)


# ---------------------------------------------------------------- OpenSpiel

try:
    import pyspiel
except ImportError:  # pragma: no cover - the extra meeple[openspiel] is not installed
    pyspiel = None

PARAMETERS = {"players": 0, "variants": "", "locale": "", "returns": "outcomes",
              "max_moves": MAX_MOVES, "max_game_length": MAX_GAME_LENGTH, "score_bound": 1000.0,
              "native": True}


def load(ruleset, players: int | None = None, variants=(), locale: str | None = None,
         returns: str | None = None, max_moves: int = MAX_MOVES,
         max_game_length: int = MAX_GAME_LENGTH, score_bound: float = 1000.0,
         native: bool = True) -> MeepleGame:
    """An OpenSpiel game of any ruleset: a bundled name, a path, or a loaded ``Ruleset``
    (its variants and locale are kept unless others are given; ``players`` defaults to
    its usual count, ``players A..B default N``, else its smallest). The ruleset is
    registered first (``register``), so that ``pyspiel.deserialize_game_and_state``
    finds it again in this process. See ``MeepleGame`` for the parameters."""
    if pyspiel is None:
        raise ImportError("OpenSpiel is not installed: pip install 'meeple[openspiel]'")
    if not isinstance(ruleset, str):
        variants, locale = variants or ruleset.variants, locale or ruleset.locale
    short = register(ruleset)
    base = _REGISTERED[short][0]
    params = {"players": players or base.default_players, "variants": " ".join(variants),
              "locale": locale or "", "returns": returns or default_returns(base),
              "max_moves": max_moves,
              "max_game_length": max_game_length, "score_bound": float(score_bound),
              "native": bool(native)}
    return pyspiel.load_game(short, params)


def _game_type(ruleset, short_name: str):
    """The game type of a ruleset's games with the default parameters (a game with
    others retypes its utility: ``MeepleGame``)."""
    c = ruleset.checked
    T = pyspiel.GameType
    simultaneous = any(getattr(n, "node", None) == "ChooseEach" for n in _nodes(c))
    returns = default_returns(ruleset)
    spec = dict(PARAMETERS, players=ruleset.default_players, returns=returns)
    return T(short_name=short_name, long_name=f"Meeple: {ruleset.title}",
             dynamics=T.Dynamics.SIMULTANEOUS if simultaneous else T.Dynamics.SEQUENTIAL,
             chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if has_chance(c) else T.ChanceMode.DETERMINISTIC,
             information=T.Information.IMPERFECT_INFORMATION if secret_beyond_simultaneous(ruleset)
             else T.Information.PERFECT_INFORMATION,
             utility=_UTILITY[utility(ruleset, ruleset.default_players, returns)[0]],
             reward_model=T.RewardModel.TERMINAL,
             max_num_players=ruleset.max_players, min_num_players=ruleset.min_players,
             provides_information_state_string=True, provides_information_state_tensor=False,
             provides_observation_string=True, provides_observation_tensor=True,
             parameter_specification=spec)


def _nodes(c):
    bodies = [p.body for p in c.procedures.values()]
    bodies += [d.body for d in (c.setup, c.turn, c.at_end) if d is not None]
    from meeple.dsl import ast as ir
    return [n for body in bodies for n in ir.walk(body)]


if pyspiel is not None:
    class MeepleGame(pyspiel.Game):
        """A ruleset as an OpenSpiel game. Parameters: ``players``, ``variants`` (names
        joined by spaces), ``locale``, ``returns`` (``"outcomes"``: +1/0/-1 by win, draw,
        loss; ``"scores"``: score less the mean score; ``"payoffs"``: the declared
        payoffs, the default of a ruleset that declares them), ``max_moves`` (the ordinal block
        and the bound on chance outcomes), ``max_game_length`` and ``score_bound`` (the
        bounds OpenSpiel asks for, where Meeple cannot derive them: ``utility_bounds``), ``native``
        (the games played by the ruleset's kernel where one can be built: ``played_program``)."""

        def __init__(self, ruleset, params, game_type):
            params = {**dict(game_type.parameter_specification.items()), **params}
            players = int(params["players"]) or ruleset.default_players
            if params["variants"] or params["locale"]:
                ruleset = interpreter.compile_sources(
                    ruleset.sources, params["variants"].split(),
                    params["locale"] or None, ruleset.budgets)
            self.ruleset, self.program = ruleset, ruleset.for_players(players)
            self.mode = params["returns"]
            check_returns(ruleset, self.mode)
            self.space = ActionSpace(self.program, int(params["max_moves"]))
            self.encoding = Encoding(self.program)
            bound = 1.0 if self.mode == "outcomes" else float(params["score_bound"])
            low, high = utility_bounds(self.program, self.mode, bound)
            kind, total = utility(ruleset, players, self.mode)
            if _UTILITY[kind] != game_type.utility:
                game_type = _retyped(game_type, _UTILITY[kind])
            info = pyspiel.GameInfo(
                num_distinct_actions=self.space.size, max_chance_outcomes=int(params["max_moves"]),
                num_players=players, min_utility=low, max_utility=high,
                utility_sum=None if total is None else float(total),
                max_game_length=int(params["max_game_length"]))
            super().__init__(game_type, info, params)
            self.native = bool(params["native"])
            self._initial = self._played = None

        def new_initial_state(self):
            return MeepleState(self)

        @property
        def played(self):
            """The program the states play (``played_program``: made with the first state)."""
            if self._played is None:
                self._played = played_program(self.ruleset, self.program.n, self.native)
            return self._played

        def initial(self):
            """A new Meeple game in explicit chance mode (a copy of the first one made)."""
            if self._initial is None:
                self._initial = self.played.new_game(self.program.n, chance="explicit")
            return self._initial.copy()

        def revive(self, text: str):
            """The Meeple game of a state serialized as JSON: checked unless this process
            wrote that very text (``Live``)."""
            known = _digest(text) in _WRITTEN
            return self.played.resume(json.loads(text), check=not known)

        def make_py_observer(self, iig_obs_type=None, params=None):
            recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return MeepleObserver(self, recall)

    def _retyped(t, utility):
        T = pyspiel.GameType
        return T(short_name=t.short_name, long_name=t.long_name, dynamics=t.dynamics,
                 chance_mode=t.chance_mode, information=t.information, utility=utility,
                 reward_model=t.reward_model, max_num_players=t.max_num_players,
                 min_num_players=t.min_num_players,
                 provides_information_state_string=True, provides_information_state_tensor=False,
                 provides_observation_string=True, provides_observation_tensor=True,
                 parameter_specification=t.parameter_specification)

    _UTILITY = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
                "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
                "identical": pyspiel.GameType.Utility.IDENTICAL,
                "general_sum": pyspiel.GameType.Utility.GENERAL_SUM}

    _TERMINAL, _CHANCE, _SIMULTANEOUS = (int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.CHANCE),
                                         int(pyspiel.PlayerId.SIMULTANEOUS))

    _MAX_ACTION = (1 << 63) - 1   # (pyspiel's actions are 64-bit)

    def _recorded(name: str):
        """pyspiel's method ``name`` of a state, read once pyspiel has recorded the
        actions taken (``MeepleState.apply_action``)."""
        base = getattr(pyspiel.State, name)

        def method(self, *args, **kwargs):
            self._record()
            return base(self, *args, **kwargs)
        method.__name__ = method.__qualname__ = name
        method.__doc__ = base.__doc__
        return method

    class MeepleState(pyspiel.State):
        """A Meeple game in explicit chance mode, with what each seat has observed so
        far (``observed()``: its distinct successive views and its own moves: its
        information state). The views are drawn when asked for: ``trail`` holds them as
        far as the game ``seen`` (a copy the steps since, ``unseen``, are played again
        on), so that a game nobody observes is played by its kernel alone."""

        def __init__(self, game):
            super().__init__(game)
            # (made when first used: OpenSpiel clones a Python state by making a new
            # initial state and then setting its attributes)
            self.live, self.trail, self.seen, self.unseen = None, None, None, Steps()
            self.last = None     # (each seat's latest view, as the trail stands)
            self.acting = None   # (current_player, known until the next action)
            self.legal = None    # (ActionSpace.legal of the seat deciding, known until the next action)
            # (the actions taken that pyspiel's record does not hold yet, and the one it is
            # being given: see apply_action)
            self.unrecorded, self.replay = Steps(), None

        @property
        def game(self):
            """The Meeple game of this state."""
            live = self.live
            if live.__class__ is Live and self.seen is not None:
                return live.game
            return self._made().game

        def _made(self) -> Live:
            """The state's Live, made where it is not yet (a new state, or one just
            deserialized)."""
            live = self.live
            if live.__class__ is not Live:
                game = self.get_game()
                live = self.live = Live(game.initial() if live is None else game.revive(live), game.space)
            if self.seen is None:
                self.seen = Live(live.game.copy(), live.space)   # (where the trail starts, or stands)
            return live

        def observed(self) -> list[list[str]]:
            """Every seat's distinct successive views and its own moves until now."""
            _ = self.game  # (makes a state not used yet)
            seen = self.seen
            if isinstance(seen, str):  # just deserialized
                seen = self.seen = Live(self.get_game().revive(seen), self.space)
            if self.trail is None:
                self.trail = [[observation(seen.game, s)] for s in range(seen.game.players)]
                self.last = [t[0] for t in self.trail]
            elif self.last is None:   # (a state pickled before the trail held edits)
                self.last = [next(x for x in reversed(t) if x.startswith("{")) for t in self.trail]
            for step in self.unseen:
                self._observe(seen.game, _again(seen.game, step))
            self.unseen = Steps()
            return self.trail

        @property
        def space(self) -> ActionSpace:
            return self.get_game().space

        @property
        def mode(self) -> str:
            return self.get_game().mode

        # ------------------------------------------------------------ queries
        def current_player(self):
            if self.replay is not None:   # (pyspiel recording an action taken before: _record)
                return self.replay
            acting = self.acting
            if acting is None:
                acting = self.acting = self._who()
            return acting

        def _who(self) -> int:
            """Who acts now (``current_player``, not kept)."""
            live = self.live
            g = live.game if live.__class__ is Live and self.seen is not None else self._made().game
            # (the kernel says it in one call: -4, -1, -2 are OpenSpiel's terminal,
            # chance, simultaneous)
            acting = g.acting() if g.__class__ is KernelGame else None
            return self._acting(g) if acting is None else acting

        def _acting(self, g) -> int:
            if g.over:
                return _TERMINAL
            if g.at_chance:
                return _CHANCE
            if g.simultaneous:
                return _SIMULTANEOUS
            return g.active_player

        # (pyspiel's own answers, given here to a caller in Python: without the round trip
        # through pyspiel, which asks current_player three times for legal_actions)
        def is_chance_node(self):
            acting = self.acting
            if acting is None:
                acting = self.acting = self._who()
            return acting == _CHANCE

        def is_simultaneous_node(self):
            acting = self.acting
            if acting is None:
                acting = self.acting = self._who()
            return acting == _SIMULTANEOUS

        def is_player_node(self):
            return self.current_player() >= 0

        def legal_actions(self, player=None):
            acting = self.acting
            if acting is None:
                acting = self.acting = self._who()
            if acting >= 0 and (player is None or player == acting):
                legal = self.legal
                if legal is None:
                    live = self.live
                    if live.__class__ is not Live or self.seen is None:
                        live = self._made()
                    legal = self.legal = live.space.legal(live.game, acting)
                return list(legal[0])
            if acting == _SIMULTANEOUS and player is not None and player >= 0:
                return list(self._legal_actions(player))
            return pyspiel.State.legal_actions(self) if player is None else \
                pyspiel.State.legal_actions(self, player)

        def _legal_actions(self, player):
            acting = self.current_player()
            live = self.live
            if live.__class__ is not Live or self.seen is None:
                live = self._made()
            if acting == _SIMULTANEOUS:
                return live.space.legal(live.game, player)[0] or [live.space.wait]
            if player != acting:
                return []
            legal = self.legal
            if legal is None:
                legal = self.legal = live.space.legal(live.game, player)
            return legal[0]

        def chance_outcomes(self):
            live = self.live
            if live.__class__ is not Live or self.seen is None:
                live = self._made()
            return live.space.chance_probabilities(live.game)

        def is_terminal(self):
            acting = self.acting
            if acting is None:
                acting = self.acting = self._who()
            return acting == _TERMINAL

        def returns(self):
            return returns_of(self.game.result, self.game.players, self.mode)

        def rewards(self):
            return self.returns()

        # ------------------------------------------------------------ acting
        # pyspiel's apply_action asks the state twice through pybind11 (current_player,
        # then _apply_action) before it records the action in its history: round trips
        # that cost more than the move a kernel plays. A caller in Python is answered
        # here: the action is taken at once, and pyspiel records it (``_record``) when its
        # record is next read (history, move_number, serialize, ...: below) or before
        # pyspiel's C++ takes an action (C++ algorithms, child, apply_actions of a list
        # that is not one of ints), in the order taken. (pyspiel.serialize_game_and_state
        # reads the record itself: it writes the actions not recorded yet with the state's
        # attributes, and the state it reads back records them in their turn.)
        def apply_action(self, action):
            acting = self.acting
            if acting is None:
                acting = self.acting = self._who()
            if action.__class__ is not int or not 0 <= action <= _MAX_ACTION or self.replay is not None \
                    or (acting < 0 and acting != _CHANCE):
                self._record()
                return pyspiel.State.apply_action(self, action)
            self._act(action)
            self.unrecorded.append((acting, action))

        def apply_actions(self, actions):
            if actions.__class__ is not list or self.replay is not None \
                    or any(a.__class__ is not int or not 0 <= a <= _MAX_ACTION for a in actions):
                self._record()
                return pyspiel.State.apply_actions(self, actions)
            self._act_all(actions)
            self.unrecorded.append((_SIMULTANEOUS, list(actions)))

        def _record(self) -> None:
            """Has pyspiel record the actions taken since its record was last read, as its
            apply_action and apply_actions record them (the state answering who acted, and
            taking no action again)."""
            steps = self.unrecorded
            if not steps:
                return
            self.unrecorded = Steps()
            try:
                for who, action in steps:
                    self.replay = who
                    if who == _SIMULTANEOUS:
                        pyspiel.State.apply_actions(self, action)
                    else:
                        pyspiel.State.apply_action(self, action)
            finally:
                self.replay = None

        def move_number(self):
            return pyspiel.State.move_number(self) + len(self.unrecorded)

        history = _recorded("history")
        full_history = _recorded("full_history")
        history_str = _recorded("history_str")
        is_initial_state = _recorded("is_initial_state")
        is_initial_non_chance_state = _recorded("is_initial_non_chance_state")
        serialize = _recorded("serialize")
        undo_action = _recorded("undo_action")
        starting_state = _recorded("starting_state")
        starting_state_str = _recorded("starting_state_str")
        to_dict = _recorded("to_dict")
        to_json = _recorded("to_json")
        to_struct = _recorded("to_struct")
        __getstate__ = _recorded("__getstate__")

        def _apply_action(self, action):
            if self.replay is not None:   # (pyspiel recording an action taken before)
                return
            if self.unrecorded:
                self._record()
            self._act(action)

        def _act(self, action):
            """Takes ``action`` (pyspiel's DoApplyAction)."""
            acting, legal = self.acting, self.legal
            if acting is None:
                acting = self._who()
            live = self.live
            if live.__class__ is not Live or self.seen is None:
                live = self._made()
            g = live.game
            self.acting = self.legal = None
            if acting == _CHANCE:
                action = int(action)
                if g.__class__ is KernelGame:
                    self.acting = g.set_chance(action)   # (who acts now, as play says it)
                else:
                    g.apply_chance(action)
                self.unseen.append(-1 - action)
                return
            if legal is None:
                legal = live.space.legal(g, acting)
            how = legal[1]
            cls = how.__class__
            if g.__class__ is KernelGame and (cls is int or cls is list):   # (_play's, inline)
                if cls is int:
                    index = action - live.space.ordinal
                    if not 0 <= index < how:
                        raise KeyError(action)
                else:
                    try:
                        index = how.index(action)
                    except ValueError:
                        raise KeyError(action) from None
                self.acting = g.play(index)   # (who acts now, from the same call)
            else:
                index = _play(g, live.space, how, action, None)
            self.unseen.append(index)

        def _apply_actions(self, actions):
            if self.replay is not None:
                return
            if self.unrecorded:
                self._record()
            self._act_all(actions)

        def _act_all(self, actions):
            """Takes the seats' ``actions`` at a simultaneous node (pyspiel's DoApplyActions)."""
            self.acting = self.legal = None
            g, space = self.game, self.space
            chosen = []
            for seat in g.decision.seats:
                chosen.append((seat, _play(g, space, space.legal(g, seat)[1], actions[seat], seat)))
            self.unseen.append(("m", tuple(chosen)))

        def _observe(self, game, chosen) -> None:
            last = self.last
            for s, trail in enumerate(self.trail):
                if chosen and s in chosen:
                    trail.append("> " + chosen[s])
                obs = observation(game, s)
                if obs != last[s]:   # (the edits from the view before: view_delta)
                    trail.append(view_delta(last[s], obs))
                    last[s] = obs

        def _action_to_string(self, player, action):
            g = self.game
            if player == pyspiel.PlayerId.CHANCE:
                outs = dict(self.space.chance(g)) if g.at_chance else {}
                return outs[action].notation if action in outs else f"chance #{action}"
            moves = self.space.moves(g, player) if player in g.deciding else {}
            return moves[action].notation if action in moves else self.space.label(action)

        def __str__(self):
            return self.game.to_json()

    def _play(g, space: ActionSpace, how, action: int, seat: int | None) -> int:
        """Plays the move ``action`` names (``how``: see ``ActionSpace.legal``) for ``seat``
        (None: the seat deciding alone); returns its index (KeyError for an id that names
        no move of the seat now)."""
        cls = how.__class__
        if cls is int:
            index = action - space.ordinal
            if not 0 <= index < how:
                raise KeyError(action)
        elif cls is list:
            try:
                index = how.index(action)
            except ValueError:
                raise KeyError(action) from None
        else:
            index = how[action]
        if g.__class__ is KernelGame:
            g.play(index, seat)
        else:
            g.apply(index, seat=seat)
        return index

    class Steps(list):
        """A state's steps not observed yet (``MeepleState.unseen``): numbers (a move of
        the seat deciding alone: its index; a chance outcome ``a``: ``-1 - a``; plain
        ints, which the garbage collector does not track), or tuples (moves at a
        simultaneous node, and the steps of states pickled before); also the actions
        pyspiel has not recorded yet (``MeepleState.unrecorded``: pairs of who acted and
        the action, or the list of actions at a simultaneous node). A clone shares them (a
        deep copy of the list copies the list only: none is changed once there)."""

        def __deepcopy__(self, memo):
            return Steps(self)

    def _again(game, step) -> dict | None:
        """Plays a step of a state (``MeepleState.unseen``) again on ``game``: the moves'
        notations by seat (None for a chance outcome)."""
        if step.__class__ is int:
            if step < 0:
                game.apply_chance(-1 - step)
                return None
            seat = game.active_player
            return {seat: game.apply(step, seat=seat).notation}
        kind, what = step
        if kind == "c":
            game.apply_chance(what)
            return None
        return {seat: game.apply(index, seat=seat).notation for seat, index in what}

    class Live:
        """Holds a state's Meeple game; OpenSpiel serializes a Python state by pickling
        its attributes, and this pickles as the game's state, as JSON. OpenSpiel clones
        a state by copying its attributes deeply: this copies as a copy of the game."""

        def __init__(self, game, space: ActionSpace):
            self.game, self.space = game, space

        def __deepcopy__(self, memo):
            return Live(self.game.copy(), self.space)

        def __reduce__(self):
            text = self.game.to_json()
            _WRITTEN[_digest(text)] = None
            if len(_WRITTEN) > 4096:
                _WRITTEN.pop(next(iter(_WRITTEN)))
            return (str, (text,))

    _WRITTEN: dict[bytes, None] = {}   # digests of the states this process serialized

    def _digest(text: str) -> bytes:
        import hashlib
        return hashlib.sha256(text.encode()).digest()

    class MeepleObserver:
        """OpenSpiel's observer of a Meeple state: the seat's view as a string (with
        perfect recall, every distinct view it has had and its own moves) and as a tensor
        (``Encoding``)."""

        def __init__(self, game, perfect_recall: bool):
            import numpy as np
            self.encoding, self.recall = game.encoding, perfect_recall
            self.tensor = np.zeros(self.encoding.size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            self.tensor.fill(0)
            self.encoding.fill(self.tensor, views.view(state.game, player), state.game)

        def string_from(self, state, player):
            if self.recall:
                return "\n".join(state.observed()[player])
            return observation(state.game, player)

    _REGISTERED: dict[str, tuple] = {}   # short name -> (ruleset, its game type)

    def register(ruleset) -> str:
        """Registers a ruleset (a bundled name, a path or a loaded ``Ruleset``; without
        its variants and locale, which are parameters) for ``pyspiel.load_game``, as
        ``meeple_<its name>``; returns that name. A different ruleset of a name already
        registered gets the name followed by ``_`` and 8 hex digits of its sources."""
        if isinstance(ruleset, str):
            ruleset = interpreter.load(ruleset)
        elif ruleset.variants or ruleset.locale:
            ruleset = interpreter.compile_sources(ruleset.sources, budgets=ruleset.budgets)
        short = f"meeple_{ruleset.name}"
        if short in _REGISTERED:
            if _REGISTERED[short][0].sources.sources == ruleset.sources.sources:
                return short
            short += "_" + _digest(json.dumps(ruleset.sources.sources, sort_keys=True)).hex()[:8]
            if short in _REGISTERED:
                return short
        game_type = _game_type(ruleset, short)
        _REGISTERED[short] = (ruleset, game_type)
        pyspiel.register_game(game_type, type(f"MeepleGame_{ruleset.name}", (RegisteredGame,),
                                              {"short_name": short}))
        return short

    class RegisteredGame(MeepleGame):
        """The class OpenSpiel's registry makes a registered ruleset's games with. (A
        class, not a function: the registry outlives the interpreter, and a function
        in it makes the process abort on exit.)"""

        short_name = ""

        def __init__(self, params=None):
            ruleset, game_type = _REGISTERED[self.short_name]
            super().__init__(ruleset, dict(params or {}), game_type)

    from meeple.dsl.load import bundled_names
    REGISTERED = [register(_name) for _name in bundled_names()]
else:  # pragma: no cover
    MeepleGame = MeepleState = MeepleObserver = None
