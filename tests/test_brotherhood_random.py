"""Brotherhood of Nine: many seeded games, checking what must hold in every game.

For 2, 3 and 4 players, the base game and every variant (alone and combined), in English
and Russian, with two kinds of players: uniformly random ones (``RandomBot``: they often
surrender, which ends games early) and a fighting policy that attacks whenever it can,
walks towards the enemy and surrenders only when it can neither attack, move nor defend
at the start of its turn (its games end by elimination, by a captured flag, by that
surrender — two lone flag bearers, which may not move, would stand for ever: the rulebook
has no round limit — or, with the variant round_limit, at the round limit; MAX_MOVES
stops a game that would not end):

- every game ends, and its result agrees with a referee written here from the rules alone
  (the last team standing, the team that captured a flag, a shared win at the round
  limit of the variant round_limit);
- the options of every decision equal what the referee computes independently from the
  position: the warriors that may be enlisted and deployed, the deployment hexes, the
  actions available, which warriors may do them, where they may go (two hexes for a
  Kveblir), whom they may strike (range 2 for a Linda, two enemies for a Surron);
- the effect of every action is what the referee expects: the move, the shield, the
  wounds (2 from an Ekvil to a Drantul), a knocked-off shield, removal at zero health,
  the Surron's rage, the flag left where its bearer fell;
- the 56 pieces are always somewhere, once; a hex holds at most one piece; a player's
  13 warriors are split between reserve, army, field and the destroyed;
- no view shows another player's reserve, army, face-down warrior or secret flag, and no
  message names one of them;
- a game saved as JSON and resumed continues identically; a record (seed + moves)
  replays to the same final state.
"""
from __future__ import annotations

import functools
import json
import random

import pytest
from meeple.interpreter.analysis import testing
from meeple.interpreter.bots import RandomBot
from meeple.interpreter.play import record
from meeple.interpreter.play.views import view
from scale import scaled

from meeple import interpreter

HIDDEN = {"hidden": True}
MAX_MOVES = 2000
HEALTH = {"kveblir": 2, "linda": 2, "surron": 2, "drantul": 3, "ekvil": 2}
WARRIOR_TYPES = ["kveblir", "linda", "surron", "drantul", "ekvil"]
COLOURS = ["red", "blue", "green", "yellow"]
TYPE_WORDS = {"en": ["Kveblir", "Linda", "Surron", "Drantul", "Ekvil"],
              "ru": ["Квеблир", "Линда", "Суррон", "Дрантул", "Эквил"]}


@functools.cache
def ruleset(variants: tuple, locale: str | None):
    return interpreter.load("brotherhood-of-nine", variants=list(variants), locale=locale)


def dist(a: dict, b: dict) -> int:
    return max(abs(a["q"] - b["q"]), abs(a["r"] - b["r"]), abs(a["s"] - b["s"]))


class Referee:
    """The rules written again in Python, reading the position from the game state:
    what each decision must offer and what each action must do."""

    def __init__(self, game, variants: tuple):
        self.prog = prog = game.program
        self.n = game.players
        self.cells = {z.cell.name: z.cell.coords for z in prog.zones if z.board == "field"}
        self.zone_id = {z.cell.name: z.id for z in prog.zones if z.board == "field"}
        self.radius = max(c["ring"] for c in self.cells.values())
        self.near = {a: [b for b in self.cells if dist(self.cells[a], self.cells[b]) == 1]
                     for a in self.cells}
        self.flags = "capture_the_flag" in variants
        self.lines = "archer_lines" in variants
        self.jumps = "cavalry_jumps" in variants
        self.limit = "round_limit" in variants
        seating = [v for v in variants if v in ("allies", "allies_crosswise")]
        if self.n == 4 and seating and seating[-1] == "allies":
            self.teams = [1, 1, 2, 2]
        elif self.n == 4 and seating:
            self.teams = [1, 2, 1, 2]
        else:
            self.teams = list(range(1, self.n + 1))
        self.zones = [self.zone(seat) for seat in range(self.n)]
        self.turn = -1
        self.done = 0                     # actions done in the current turn
        self.action = self.chosen = None

    # ------------------------------------------------------------ the position
    def attrs(self, item: int) -> dict:
        return self.prog.items[item].attrs

    def seat_of(self, item: int) -> int:
        return COLOURS.index(self.attrs(item)["colour"])

    def at(self, game, cell: str):
        items = game.state["zones"][self.zone_id[cell]]
        return items[0] if items else None

    def warrior(self, game, cell: str):
        it = self.at(game, cell)
        return it if it is not None and self.attrs(it)["type"] != "flag" else None

    def enemy(self, game, cell: str, seat: int) -> bool:
        it = self.warrior(game, cell)
        return it is not None and self.teams[self.seat_of(it)] != self.teams[seat]

    def mine(self, game, seat: int) -> list[str]:
        return [c for c in self.cells if (it := self.warrior(game, c)) is not None
                and self.seat_of(it) == seat]

    def standing_teams(self, game) -> set[int]:
        return {self.teams[s] for s in range(self.n) if self.mine(game, s)}

    def iv(self, game, name: str, item: int):
        return game.state["ivars"][name][item]

    # ------------------------------------------------------------ the rules
    def zone(self, seat: int) -> set[str]:
        sides = [[0, 3], [0, 2, 4], [0, 1, 3, 4]][self.n - 2]
        R = self.radius

        def depth(c, k):
            return [c["r"] + R, R - c["q"], c["s"] + R, R - c["r"], c["q"] + R, R - c["s"]][k]
        mine = sides[seat]
        return {h for h, c in self.cells.items()
                if depth(c, mine) < 2 and all(depth(c, o) >= 2 for o in sides if o != mine)}

    def can(self, game, item: int, action: str) -> bool:
        acted = self.iv(game, "acted", item)
        return len(acted) < 2 and action not in acted

    def bearer(self, game, item: int) -> bool:
        return self.flags and self.iv(game, "banner", item) == "bearer"

    def destinations(self, game, cell: str) -> set[str]:
        it = self.warrior(game, cell)
        if self.bearer(game, it):
            return set()
        out = {d for d in self.near[cell] if self.at(game, d) is None}
        if self.attrs(it)["type"] == "kveblir":
            for d in self.near[cell]:
                if self.at(game, d) is None or self.jumps:
                    out |= {e for e in self.near[d] if self.at(game, e) is None and e != cell}
        return out

    def targets(self, game, cell: str) -> set[str]:
        it = self.warrior(game, cell)
        seat, c = self.seat_of(it), self.cells[cell]
        reach = 2 if self.attrs(it)["type"] == "linda" else 1
        out = set()
        for d, e in self.cells.items():
            k = dist(c, e)
            if not 1 <= k <= reach:
                continue
            if k == 2 and self.lines and not (c["q"] == e["q"] or c["r"] == e["r"] or c["s"] == e["s"]):
                continue
            if self.enemy(game, d, seat):
                out.add(d)
        return out

    def movers(self, game, seat):
        return {c for c in self.mine(game, seat)
                if self.can(game, self.warrior(game, c), "move") and self.destinations(game, c)}

    def strikers(self, game, seat):
        return {c for c in self.mine(game, seat)
                if self.can(game, self.warrior(game, c), "attack") and self.targets(game, c)}

    def guards(self, game, seat):
        return {c for c in self.mine(game, seat)
                if self.can(game, (it := self.warrior(game, c)), "shield")
                and self.iv(game, "guard", it) == "bare" and not self.bearer(game, it)}

    # ------------------------------------------------------------ decisions
    def check_options(self, game, notes: list[str]) -> None:
        state = game.state
        verb = game.decision.verb
        seat = game.active_player
        values = [n.split(" ", 1)[1] for n in notes]
        assert all(n.split(" ", 1)[0] == verb for n in notes)
        if verb in ("enlist", "deploy"):
            zone = f"barracks:{seat}" if verb == "enlist" else f"army:{seat}"
            held = testing.at(game, zone)
            want = [next(i for i in held if self.attrs(i)["type"] == t)
                    for t in WARRIOR_TYPES if any(self.attrs(i)["type"] == t for i in held)]
            assert values == [self.prog.items[i].notation for i in sorted(want)]
        elif verb == "at":
            assert set(values) == {h for h in self.zones[seat] if self.at(game, h) is None}
        elif verb == "flag":
            want = [self.warrior(game, c) for c in self.mine(game, seat)]
            assert values == [self.prog.items[i].notation for i in sorted(want)]
        elif verb == "action":
            if state["turn"] != self.turn:
                self.turn, self.done = state["turn"], 0
            want = ((["attack"] if self.strikers(game, seat) else [])
                    + (["move"] if self.movers(game, seat) else [])
                    + (["shield"] if self.guards(game, seat) else []) + ["stop"]
                    + ["surrender"]
                    + (["unshield"] if any(self.iv(game, "guard", self.warrior(game, c)) == "shielded"
                                           for c in self.mine(game, seat)) else []))
            assert values == want
        elif verb == "warrior":
            want = {"move": self.movers, "attack": self.strikers, "shield": self.guards}[self.action]
            assert set(values) == want(game, seat)
        elif verb == "to":
            assert set(values) == self.destinations(game, self.chosen)
        elif verb == "target":
            ts = self.targets(game, self.chosen)
            it = self.at(game, self.chosen)
            want = {frozenset([t]) for t in ts}
            if self.attrs(it)["type"] == "surron" and len(ts) >= 2:
                want |= {frozenset([a, b]) for a in ts for b in ts if a != b}
            assert {frozenset(v.split("+")) for v in values} == want
        else:
            raise AssertionError(f"unknown decision {verb}")

    # ------------------------------------------------------------ effects
    def predict(self, game, notation: str):
        """What the move must do, as a function checking the game after it."""
        verb, _, value = notation.partition(" ")
        if verb == "action":
            self.action = value
            if value not in ("stop",):
                self.done += 1
            if value == "surrender":
                seat = game.active_player
                colour = COLOURS[seat]
                keep = {c: it for c in self.cells if (it := self.at(game, c)) is not None
                        and self.attrs(it)["colour"] != colour}

                def check(after):
                    now = {c: it for c in self.cells if (it := self.at(after, c)) is not None}
                    assert now == keep
                return check
            if value == "unshield":
                mine = self.mine(game, game.active_player)

                def check(after):
                    assert all(self.iv(after, "guard", self.warrior(after, c)) == "bare" for c in mine)
                return check
            return None
        if verb == "warrior":
            self.chosen = value
            if self.action != "shield":
                return None
            seat = game.active_player
            mine = self.mine(game, seat)
            turn = game.state["turn"]

            def check(after):
                for c in mine:
                    want = "shielded" if c == value else "bare"
                    assert self.iv(after, "guard", self.warrior(after, c)) == want
                if after.state["turn"] == turn:          # (a new turn forgets the actions done)
                    assert "shield" in self.iv(after, "acted", self.warrior(after, value))
            return check
        if verb == "to":
            src = self.chosen
            it = self.at(game, src)
            guard = self.iv(game, "guard", it)

            def check(after):
                assert self.at(after, src) is None and self.at(after, value) == it
                assert self.iv(after, "guard", it) == guard
            return check
        if verb == "target":
            return self.predict_attack(game, value.split("+"))
        return None

    def predict_attack(self, game, hit: list[str]):
        src = self.chosen
        a = self.at(game, src)
        atype = self.attrs(a)["type"]
        expect: dict[int, tuple] = {}     # item -> (wounds, guard, on the field)
        flags: dict[str, int] = {}        # cell -> the flag that must lie there
        for d in hit:
            v = self.at(game, d)
            w, g = self.iv(game, "wounds", v), self.iv(game, "guard", v)
            if g == "shielded":
                expect[v] = (w, "bare", True)
            else:
                w += 2 if atype == "ekvil" and self.attrs(v)["type"] == "drantul" else 1
                alive = w < HEALTH[self.attrs(v)["type"]]
                expect[v] = (w, "bare" if not alive else g, alive)
                if not alive and self.bearer(game, v):
                    flags[d] = next(i for i in testing.at(game, "box")
                                    if self.attrs(i)["type"] == "flag"
                                    and self.attrs(i)["colour"] == self.attrs(v)["colour"])
        if len(hit) == 2:
            w = self.iv(game, "wounds", a) + 1
            alive = w < HEALTH[atype]
            expect[a] = (w, self.iv(game, "guard", a) if alive else "bare", alive)
            if not alive and self.bearer(game, a):
                flags[src] = next(i for i in testing.at(game, "box")
                                  if self.attrs(i)["type"] == "flag"
                                  and self.attrs(i)["colour"] == self.attrs(a)["colour"])
        cells = {it: c for c in [src] + hit for it in [self.at(game, c)]}

        def check(after):
            for it, (w, g, alive) in expect.items():
                assert self.iv(after, "wounds", it) == w
                assert self.iv(after, "guard", it) == g
                if alive:
                    assert self.at(after, cells[it]) == it
                else:
                    assert it in testing.at(after, f"fallen:{self.seat_of(it)}")
                    assert self.at(after, cells[it]) == flags.get(cells[it])
        return check

    # ------------------------------------------------------------ the result
    def expected_winners(self, game, before: set[int]) -> list[int]:
        standing = self.standing_teams(game)
        capturing = set()
        if self.flags:
            for c in self.cells:
                f = self.at(game, c)
                if f is not None and self.attrs(f)["type"] == "flag":
                    capturing |= {self.teams[self.seat_of(self.warrior(game, d))]
                                  for d in self.near[c] if self.enemy(game, d, self.seat_of(f))}
        active_team = self.teams[game.state["active"]]
        if active_team in capturing:               # only the player who acts captures
            teams = {active_team}
        elif len(standing) <= 1:
            teams = standing or before
        else:
            assert self.limit, "the game ended with several teams standing and no round limit"
            assert game.state["turn"] == 40 * self.n, "the game ended before the round limit"
            teams = standing
        return [s for s in range(self.n) if self.teams[s] in teams]


# ---------------------------------------------------------------- invariants

check_moves = testing.check_legal_moves  # the checks every decision must pass


def check_conservation(game, ref: Referee) -> None:
    state, prog = game.state, game.program
    everywhere = sorted(i for z in state["zones"] for i in z)
    assert everywhere == list(range(len(prog.items))) == list(range(56))
    for z, items in enumerate(state["zones"]):
        assert all(state["loc"][i] == z for i in items)
    for c in ref.cells:
        assert len(state["zones"][ref.zone_id[c]]) <= 1
        it = ref.warrior(game, c)
        if it is not None:
            assert state["ivars"]["wounds"][it] < HEALTH[ref.attrs(it)["type"]]
    for seat in range(ref.n):
        colour = COLOURS[seat]
        on_field = [c for c in ref.cells if (it := ref.warrior(game, c)) is not None
                    and ref.attrs(it)["colour"] == colour]
        parts = [testing.at(game, f"barracks:{seat}"), testing.at(game, f"army:{seat}"),
                 on_field, [i for i in testing.at(game, f"fallen:{seat}")
                            if ref.attrs(i)["type"] != "flag"]]
        assert sum(len(p) for p in parts) == 13
        shields = [c for c in on_field if state["ivars"]["guard"][ref.warrior(game, c)] == "shielded"]
        assert len(shields) <= 1                                 # one shield per player


def check_views(game, ref: Referee, locale: str | None) -> None:
    state = game.state
    words = TYPE_WORDS.get(locale or "en")
    for seat in list(range(ref.n)) + [-1]:
        v = view(game, seat)
        json.dumps(v)
        secret = set()
        for other in range(ref.n):
            if other == seat:
                assert v["zones"][f"barracks:{seat}"] == testing.at(game, f"barracks:{seat}")
                continue
            for zone in (f"barracks:{other}", f"army:{other}"):
                assert v["zones"][zone] == {"count": len(testing.at(game, zone))}
                secret |= set(testing.at(game, zone))
        for c in ref.cells:
            items = testing.at(game, f"field:{c}")
            want = [HIDDEN if state["facing"][i] >= 0 and (seat < 0 or not state["facing"][i] >> seat & 1)
                    else i for i in items]
            assert v["zones"][f"field:{c}"] == want
            secret |= {i for i in items if want == [HIDDEN]}
        shown = {i for z in v["zones"].values() if isinstance(z, list) for i in z if isinstance(i, int)}
        assert not shown & secret
        for name, values in v["ivars"].items():
            assert not {str(i) for i in secret} & set(values), name     # no secret flag, no wounds
        pend = v["pending"]
        if pend is not None and pend["player"] != seat:
            assert "options" not in pend
        if any(f >= 0 for f in state["facing"]):
            # before the reveal: messages name no warrior of another player
            for line in v["log"]:
                if seat >= 0 and line.split(" ")[1].rstrip(":") == str(seat + 1):
                    continue
                assert not any(w in line for w in words), (seat, line)


# ---------------------------------------------------------------- players

def fighting_choice(game, ref: Referee, rnd: random.Random, notes: list[str]) -> str:
    """Attacks when it can, else walks towards the nearest enemy; surrenders only when, at
    the start of its turn, none of its warriors can attack, move or take the shield (the rulebook has no round limit:
    two lone flag bearers, which may not move, would otherwise stand for ever)."""
    verb = game.decision.verb
    seat = game.active_player
    if verb == "action":
        if ref.done == 0 and set(notes) <= {"action stop", "action surrender", "action unshield"}:
            return "action surrender"
        if "action attack" in notes and rnd.random() < 0.9:
            return "action attack"
        if "action move" in notes and rnd.random() < 0.85:
            return "action move"
        return rnd.choice([n for n in notes if n != "action surrender"])
    if verb == "to":
        foes = [c for c in ref.cells if ref.enemy(game, c, seat)]
        flags = [c for c in ref.cells if (f := ref.at(game, c)) is not None
                 and ref.attrs(f)["type"] == "flag" and ref.teams[ref.seat_of(f)] != ref.teams[seat]]
        goals = flags or foes

        def closeness(n):
            h = ref.cells[n.split(" ")[1]]
            return min((dist(h, ref.cells[g]) for g in goals), default=0)
        best = min(closeness(n) for n in notes)
        return rnd.choice([n for n in notes if closeness(n) == best])
    if verb == "target":
        pairs = [n for n in notes if "+" in n]
        return rnd.choice(pairs if pairs and rnd.random() < 0.5 else notes)
    return rnd.choice(notes)


# ---------------------------------------------------------------- one game

class Position:
    """The game as it stands, its state read once: ``game.state`` is a new copy at every
    read, and the referee reads the cells one by one. Anything else is the game's."""

    def __init__(self, game):
        self._game = game
        self.state = game.state

    def __getattr__(self, name):
        return getattr(self._game, name)


# the views are checked at every decision while a warrior lies face down, then at every
# few (every seat's: the views cost most of a game's checks)
VIEWS_EVERY = scaled(4, 8)


def play_game(variants: tuple, locale: str | None, players: int, seed: int, fighting: bool,
              views_every: int = VIEWS_EVERY):
    rs = ruleset(variants, locale)
    game = rs.new_game(players, seed=seed)
    ref = Referee(game, variants)
    rnd = random.Random(seed)
    bots = [RandomBot(seed * 10 + p) for p in range(players)]
    fork_at = rnd.randrange(1, 200)
    forked = None
    notations: list[str] = []
    before = ref.standing_teams(game)
    while not game.over:
        assert len(notations) < MAX_MOVES, "the game does not end"
        now = Position(game)   # (until the move is applied)
        notes = check_moves(game)
        ref.check_options(now, notes)
        check_conservation(now, ref)
        if any(f >= 0 for f in now.state["facing"]) or len(notations) % views_every == 0:
            check_views(now, ref, locale)
        if len(notations) == fork_at:
            forked = game.program.resume(json.loads(game.to_json()))
        if forked is not None:
            assert [m.notation for m in forked.legal_moves()] == notes
        seat = game.active_player
        if fighting and game.decision.verb not in ("enlist", "deploy", "at", "flag"):
            choice = fighting_choice(now, ref, rnd, notes)
        else:
            choice = notes[bots[seat].choose(view(game, seat), game.legal_moves())]
        if game.decision.verb == "action":
            before = ref.standing_teams(now)
        check = ref.predict(now, choice)
        game.apply(choice)
        if check is not None:
            check(Position(game))
        if forked is not None:
            forked.apply(choice)
        notations.append(choice)
    check_conservation(game, ref)
    check_views(game, ref, locale)
    first = ref.expected_winners(game, before)      # the first place
    assert game.result["ranking"][0] == first
    several = len({ref.teams[s] for s in first}) > 1  # teams sharing it draw
    assert game.result["outcomes"] == ["loss" if s not in first else "draw" if several else "win"
                                       for s in range(ref.n)]
    assert game.result["scores"] == [int(p in first) for p in range(players)]
    if forked is not None:
        assert forked.over and forked.to_json() == game.to_json()
    rec = record.Record("brotherhood-of-nine", players, seed, list(variants), locale, notations,
                        result=game.result, state_digest=record.digest(game))
    rec = record.from_dict(json.loads(json.dumps(rec.to_dict())))   # through the schema
    assert record.replay(rs, rec).to_json() == game.to_json()
    return game, notations, ref


def how_it_ended(game) -> str:
    log = view(game, -1)["log"]
    if any("surrenders" in line or "сдаётся" in line for line in log[-3:]):
        return "surrender"
    if "round_limit" in game.program.variants and game.state["turn"] >= 40 * game.players:
        return "limit"
    return "battle"


CONFIGS = [
    ((), "en", 2), ((), "ru", 3), ((), None, 4),
    (("capture_the_flag",), "ru", 2), (("capture_the_flag",), "en", 3),
    (("archer_lines", "cavalry_jumps"), None, 2), (("cavalry_jumps",), "ru", 4),
    (("allies", "capture_the_flag"), "en", 4), (("allies_crosswise",), "ru", 4),
    (("allies", "allies_crosswise", "archer_lines", "capture_the_flag", "cavalry_jumps"), None, 4),
    (("round_limit",), "en", 3),
    (("allies", "allies_crosswise", "archer_lines", "capture_the_flag", "cavalry_jumps", "round_limit"), "ru", 4),
]
# the short form: every variant, locale and player count still
CONFIGS = scaled(CONFIGS, [CONFIGS[i] for i in (1, 3, 5, 7, 8, 11)])
# each configuration's games: fighting ones (in each configuration the first two end in
# battle) and ones of random players (who surrender early)
FIGHTING_SEEDS = scaled(range(3), range(2))
RANDOM_SEEDS = scaled(range(3, 5), range(3, 4))


@pytest.mark.parametrize("variants, locale, players", CONFIGS,
                         ids=[f"{'+'.join(v) or 'base'}-{loc}-{n}p" for v, loc, n in CONFIGS])
def test_random_games(variants, locale, players):
    endings = []
    for seed in FIGHTING_SEEDS:
        game, _, _ = play_game(variants, locale, players, seed, fighting=True)
        endings.append(how_it_ended(game))
    for seed in RANDOM_SEEDS:
        play_game(variants, locale, players, seed, fighting=False)
    assert "battle" in endings


def test_flags_are_captured_in_fighting_games():
    # the capture rule is exercised (and its winners checked above), not only written
    captured = 0
    for seed in range(scaled(6, 3)):     # (the short form's three: one captures)
        game, _, ref = play_game(("capture_the_flag",), None, 2, 100 + seed, fighting=True,
                                 views_every=10)
        flags = [c for c in ref.cells if (f := ref.at(game, c)) is not None
                 and ref.attrs(f)["type"] == "flag"]
        if any(ref.enemy(game, d, ref.seat_of(ref.at(game, c))) for c in flags for d in ref.near[c]):
            captured += 1
    assert captured > 0


def test_random_players_surrender_and_games_end_early():
    lengths = []
    for seed in range(scaled(6, 3)):
        game, _, _ = play_game((), None, 2, 200 + seed, fighting=False, views_every=10)
        lengths.append(game.state["turn"])
    assert min(lengths) < 40 * 2


def test_a_record_replays_the_same_game_twice():
    game, notations, _ = play_game(("capture_the_flag",), "ru", 3, 99, fighting=True)
    rs = ruleset(("capture_the_flag",), "ru")
    rec = record.Record("brotherhood-of-nine", 3, 99, ["capture_the_flag"], "ru", notations)
    assert record.replay(rs, rec).to_json() == record.replay(rs, rec).to_json() == game.to_json()
    broken = record.Record("brotherhood-of-nine", 3, 99, ["capture_the_flag"], "ru",
                           notations[:3] + ["enlist flag-red"])
    with pytest.raises(record.RecordError):
        record.replay(rs, broken)
