"""Checking a ruleset by playing it: the invariants it declares (``invariant``,
``secret``, ``bound``) and those every ruleset gets for free.

``play_and_check`` plays one game down a sequence of choices (each picks a legal move by
index, modulo the number of moves; when they run out, the first move is played) and
raises ``Failure`` at the first broken check; at the probes it is given, it also checks
non-interference (``leaks``: exchanging items a seat has never been shown changes
nothing it is shown). ``explore`` lets Hypothesis draw the games and the probes, and
shrink a failing one to a short move sequence. ``meeple test`` and
``interpreter.testing.check_ruleset`` are built on these.
"""
from __future__ import annotations

import itertools
import json
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from ...dsl.ast import Span
from ..play import display, views
from ..play.game import Game
from ..play.helpers import RuleError
from ..play.record import Record, RecordError, digest, replay
from ..play.runtime import IllegalMove
from . import cycles, leaks, variations

DEFAULT_BOUND = (10_000, "moves")  # for a ruleset that declares no bound
CHECK_EVERY = 16  # of the states read back from JSON, these are checked as a user's would be
SHRINK_BOUND_GAMES = 100  # games played to shrink a failure of the bound (explore)
LEAK = "secrets/non-interference"  # the check of non-interference (interpreter/analysis/leaks.py)


@dataclass(frozen=True)
class Config:
    """One way to play a ruleset: player count, variants, locale."""

    players: int
    variants: tuple[str, ...] = ()
    locale: str | None = None

    def __str__(self) -> str:
        parts = [f"{self.players} players"]
        if self.variants:
            parts.append("variants " + "+".join(self.variants))
        if self.locale:
            parts.append(f"locale {self.locale}")
        return ", ".join(parts)


class Failure(Exception):
    """A broken check, with the game that broke it."""

    def __init__(self, check: str, message: str, span: Span | None = None):
        super().__init__(f"{check}: {message}")
        self.check, self.message, self.span = check, message, span
        self.config: Config | None = None
        self.seed = 0
        self.moves: list[str] = []
        self.ruleset_ref = ""
        self.cycle: cycles.Cycle | None = None   # a bound failure: the moves that go round

    def __reduce__(self):
        # sent back from a worker process (``explore_shards``) with everything it holds
        return (Failure, (self.check, self.message, self.span), self.__dict__)

    def where_said(self) -> str:
        """What the failure's span points at."""
        if self.check == LEAK:
            return "the rule where it shows"
        return f"{self.check} is defined here"

    def record(self) -> Record:
        c = self.config
        return Record(self.ruleset_ref, c.players, self.seed, list(c.variants), c.locale, list(self.moves))


@dataclass(frozen=True)
class Limits:
    """How much of each game is checked in full (``meeple test --check-moves``,
    ``--deadline``): its first ``moves`` moves at most, for ``seconds`` of wall time at
    most (None: no limit). Past a limit, the game is played on to its end (on the
    kernel where there is one), checked only for the bound, a way on, rule errors and
    its results and replay: the invariants, views, JSON round trips and leaks of its
    later states are not checked."""

    moves: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class Cut:
    """A game whose full checks a limit cut short: ``checked`` of its ``moves`` moves were
    checked in full, ``limit`` being "check_moves" or "deadline"; ``example`` counts
    from 1 in its run (with ``explore_shards``: in the whole run)."""

    config: Config
    seed: int
    checked: int
    moves: int
    limit: str
    example: int = 0


@dataclass
class Stats:
    games: int = 0
    states: int = 0
    failures: int = 0
    endless: int = 0       # games stopped at a bound declared ``or endless``
    cycles: int = 0        # of those, stopped early: going round in circles for ever
    probes: int = 0        # twins made to check non-interference
    twin_moves: int = 0    # moves played in them
    moments: dict = field(default_factory=dict)
    kinds: dict = field(default_factory=dict)   # twins made by kind of secret varied
    found: dict = field(default_factory=dict)   # probes that found a secret of each kind
    light: int = 0         # moves played past a limit (Limits), with the light checks only
    cuts: list = field(default_factory=list)    # the games a limit cut short (Cut)


def configs(src, load, variants=None, players=None) -> list[Config]:
    """Every player count, every combination of the declared variants (or the given
    ones), and every locale (locales may patch rules). ``load(config)`` gives the
    ruleset of a config: a variant or locale may change the player counts. The usual
    count (``players A..B default N``, else the fewest) comes first in each: Hypothesis
    shrinks a failing game towards the first configuration."""
    if variants:
        combos = [(tuple(variants), None)]
    else:
        names = sorted(src.variants)
        combos = [(c, None) for k in range(len(names) + 1) for c in itertools.combinations(names, k)]
        combos += [((), loc) for loc in sorted(src.locales)]
    out = []
    for vs, loc in combos:
        rs = load(Config(0, vs, loc))
        counts = list(range(rs.min_players, rs.max_players + 1))
        if players is not None:
            counts = [players] if players in counts else []
        usual = getattr(rs, "default_players", None)
        if usual in counts:   # the usual count first: the one a failure shrinks towards
            counts.remove(usual)
            counts.insert(0, usual)
        out += [Config(n, vs, loc) for n in counts]
    return out


# ---------------------------------------------------------------- one game

class GameChecker:
    """Plays and checks one game. ``bound_only``: only whether the game ends within its
    bound, and plays without a rule error or a dead end (as shrinking a bound failure
    does: see ``explore``). ``limits``: how much of it is checked in full (``Limits``);
    ``on_state(checker)`` is called after every state checked (for a progress display)."""

    def __init__(self, ruleset, config: Config, seed: int, stats: Stats | None = None, probes=(),
                 moments: bool = False, bound_only: bool = False, limits: Limits | None = None,
                 on_state=None):
        self.ruleset, self.config, self.seed = ruleset, config, seed
        self.bound_only = bound_only
        self.stats = stats or Stats()
        self.moves: list[str] = []
        self.indices: list[int] = []   # each move's index among the legal moves
        self.limits = limits or Limits()
        self.on_state = on_state
        self.light = False             # past a limit: the light checks only (see Limits)
        self.cut: Cut | None = None
        self.started = 0.0
        self.game: Game | None = None
        self.round_trips = 0
        prog = ruleset.for_players(config.players)
        self.prog = prog
        self.bound = prog.bound or DEFAULT_BOUND
        # the positions the game goes through (interpreter/analysis/cycles.py); ``tail``: after
        # how many moves the choices ran out (from there on, first moves are played)
        self.positions = cycles.Positions(cycles.reads_turn(prog.checked))
        self.cycle: cycles.Cycle | None = None     # the first time a position came back
        self.tail: int | None = None
        self.stopped = False                       # at a bound declared ``or endless``
        self.secret = _secret_zones(prog, config.players)
        # non-interference: where to vary secrets (see _non_interference); a game that
        # may hide something is probed at its moments too, with or without drawn probes
        self.probes = [p if isinstance(p, leaks.Probe) else leaks.Probe(*p)
                       for p in probes][:leaks.MAX_PROBES]
        self.moments = moments and prog.hidden_information
        probing = self.probes or self.moments
        self.known = leaks.Knowledge(len(prog.items), config.players) if probing else None
        self.history: list = []   # (a copy of each state, what each seat had been shown)
        self.played: list = []    # (each move, the type of its options)

    # -------------------------------------------------------- driving
    def play(self, choices) -> Game:
        self.started = time.monotonic()
        try:
            self.game = self.ruleset.new_game(self.config.players, self.seed,
                                              hook=None if self.bound_only else self.moment)
        except RuleError as e:
            raise self._fail("rule error", f"during setup: {e}") from e
        self.check_state()
        it = iter(choices)
        while not self.game.over and not self.stopped:
            if not self.light and not self.bound_only and self._past_limit():
                self._lighten()
            i = next(it, None)
            if i is None:
                i = 0
                if self.tail is None:
                    self.tail = len(self.moves)
            if self.light:
                self._light_move(i)
                continue
            moves = self.game.legal_moves()
            if not moves:
                raise self._fail("a way on", "the game is not over and no player has a legal move")
            move = moves[i % len(moves)]
            type_code = self.game.R.pending["type"]
            self.moves.append(move.notation)
            self.indices.append(i % len(moves))
            self._apply(move)
            if self.known is not None:
                self.played.append((move, type_code))
            self.check_state()
        if self.known is not None:
            self._non_interference()
        if self.stopped:
            self.stats.endless += 1
        elif not self.bound_only:
            self.check_end()
        if self.cut is not None:
            self.cut = replace(self.cut, moves=len(self.moves))
            self.stats.cuts.append(self.cut)
        self.stats.games += 1
        return self.game

    def _apply(self, move) -> None:
        game = self.game
        assert game is not None   # (made by play)
        try:
            game.apply(move, safe=False)
        except RuleError as e:
            raise self._fail("rule error", str(e)) from e
        except IllegalMove as e:  # pragma: no cover - the move came from legal_moves
            raise self._fail("a way on", f"a legal move was refused: {e}") from e

    # -------------------------------------------------------- past a limit
    def _past_limit(self) -> bool:
        """Whether a limit (``Limits``) ends the full checks now; notes which (``cut``)."""
        lim = self.limits
        if lim.moves is not None and len(self.moves) >= lim.moves:
            why = "check_moves"
        elif lim.seconds is not None and time.monotonic() - self.started > lim.seconds:
            why = "deadline"
        else:
            return False
        self.cut = Cut(self.config, self.seed, len(self.moves), 0, why)
        return True

    def _lighten(self) -> None:
        """From here on, the light checks: the game is played again up to here without
        the invariants' hook, so that the kernel plays it where there is one (a hooked
        game is played in Python), and goes on from there."""
        game = self.ruleset.new_game(self.config.players, self.seed)
        for i in self.indices:
            game.apply(i, safe=False)
        self.game, self.light = game, True

    def _light_move(self, i: int) -> None:
        """One move past a limit: a way on, no rule error, the bound."""
        g = self.game
        assert g is not None   # (made by play)
        count = g.move_count()
        if not count:
            raise self._fail("a way on", "the game is not over and no player has a legal move")
        self.indices.append(i % count)
        self.moves.append("")    # (written by the move itself, once played)
        try:
            move = g.apply(i % count, safe=False)
        except RuleError as e:
            raise self._fail("rule error", str(e)) from e
        self.moves[-1] = move.notation
        self.stats.light += 1
        if not g.over and not g.move_count():
            raise self._fail("a way on", "the game is not over and no player has a legal move")
        self._bound(None)
        if self.on_state is not None:
            self.on_state(self)

    def _fail(self, check: str, message: str, span: Span | None = None) -> Failure:
        f = Failure(check, message, span)
        f.config, f.seed, f.moves = self.config, self.seed, list(self.moves)
        return f

    # -------------------------------------------------------- declared invariants
    def moment(self, when: str, R) -> None:
        """Called by the game "after setup", "at turn end" and "at end"."""
        self.stats.moments[when] = self.stats.moments.get(when, 0) + 1
        self._invariants(when, R)

    def _invariants(self, when: str, R) -> None:
        for name, moment, fn, span in self.prog.invariants:
            if moment != when:
                continue
            try:
                ok = fn(R, {})
            except Exception as e:  # an invariant that fails to evaluate is broken
                raise self._fail(f"invariant '{name}'", f"could not be evaluated: {e}", span) from e
            if not ok:
                at = "" if when == "always" else f" {when}"
                raise self._fail(f"invariant '{name}'", f"does not hold{at} (move {len(self.moves)})",
                                 span)

    # -------------------------------------------------------- every state
    def check_state(self) -> None:
        g, R = self.game, self.game.R
        self.stats.states += 1
        if self.on_state is not None:
            self.on_state(self)
        if self.bound_only:
            if not g.over and not g.legal_moves():
                raise self._fail("a way on", "the game is not over and no player has a legal move")
            self._bound(R)
            return
        self._invariants("always", R)
        # no item created or lost: each is in exactly one place
        seen = set()
        for z, items in enumerate(R.zones):
            for i in items:
                if i in seen or R.loc[i] != z:
                    raise self._fail("conservation", f"item {i} is in two places or its place is wrong")
                seen.add(i)
        if len(seen) != len(self.prog.items):
            raise self._fail("conservation", f"{len(self.prog.items) - len(seen)} item(s) are nowhere")
        if not g.over and not g.legal_moves():
            raise self._fail("a way on", "the game is not over and no player has a legal move")
        self._heuristic()
        self._bound(R)
        self._round_trip()
        self._views()
        self._remember()

    def _bound(self, R) -> None:
        """The game has not gone past its bound, nor come back to a position it was in
        since its choices ran out (it would then go round for ever: see
        interpreter/analysis/cycles.py). Past a bound declared ``or endless``, the game stops."""
        before = self.positions.add(self.game)
        if before is not None and self.cycle is None:
            self.cycle = cycles.Cycle(before, len(self.moves) - before)
        count, unit = self.bound
        if R is not None:
            used = R.moves if unit == "moves" else R.turn
        else:   # (past a limit: the game may be the kernel's, its Python runtime not made)
            game = self.game
            assert game is not None
            used = len(self.moves) if unit == "moves" else game.turn_number
        for_ever = before is not None and self.tail is not None and before >= self.tail
        if used <= count and not for_ever:
            return
        if self.prog.checked.endless:
            self.stopped = True
            self.stats.cycles += for_ever
            return
        said = f"its bound of {count} {unit}"
        if for_ever:
            text = (f"the game never ends, so not within {said}: playing first moves, as the "
                    f"test does once its drawn choices run out, it goes round in circles")
        else:
            text = f"the game did not end within {said}" + ("; it can go round in circles"
                                                             if self.cycle else "")
        if self.cycle is None:
            raise self._fail("bound", text)
        f = self._fail("bound", f"{text}: {self.cycle.text()}")
        f.moves, f.cycle = f.moves[:self.cycle.end], self.cycle
        raise f

    def _heuristic(self) -> None:
        """The ruleset's heuristic (a hint for bots) can be evaluated for every seat."""
        g = self.game
        if not g.has_heuristic:
            return
        for seat in range(g.players):
            try:
                g.heuristic(seat)
            except RuleError as e:
                raise self._fail("heuristic", f"could not be evaluated (move {len(self.moves)}): {e}",
                                 self.prog.checked.heuristic.span) from e

    def _round_trip(self) -> None:
        g = self.game
        text = g.to_json()
        # the state checks (schema and meaning) cost more than playing a move: every
        # CHECK_EVERY-th state is checked, the others only read back
        self.round_trips += 1
        again = self.ruleset.resume(json.loads(text), check=self.round_trips % CHECK_EVERY == 1)
        if again.to_json() != text or [m.notation for m in again.legal_moves()] != \
                [m.notation for m in g.legal_moves()]:
            raise self._fail("json round trip", "the state read back from JSON is not the same game")

    def _views(self) -> None:
        g, R = self.game, self.game.R
        over = g.over
        for seat in list(range(R.n_players)) + [views.SPECTATOR]:
            v = views.view(g, seat, log=False)   # (the items it shows: not the log)
            shown = _items_in_view(v)
            for i in shown:
                if not views.seat_sees(R, i, seat):
                    raise self._fail("views", f"seat {seat + 1}'s view shows item {i}, which it may not see")
            for zone, owner, until_end in self.secret:
                if owner == seat or (until_end and over):
                    continue
                hidden_here = set(R.zones[zone])
                leak = hidden_here & shown
                if leak:
                    item = self.prog.items[min(leak)].notation
                    who = "the spectator" if seat < 0 else f"player {seat + 1}"
                    raise self._fail(f"secret '{self.prog.zones[zone].name}'",
                                     f"{who} can see {item} in "
                                     f"{display.zone_notation(self.prog, zone)}",
                                     self._secret_span(self.prog.zones[zone].name))

    def _secret_span(self, name: str) -> Span | None:
        for d in self.prog.checked.secrets:
            if d.zone == name:
                return d.span
        return None

    # -------------------------------------------------------- non-interference
    def _remember(self) -> None:
        """Keeps a copy of every state and what each seat had been shown by then, for
        the probes, which are made once the game's length is known."""
        if self.known is None:
            return
        self.known.update(self.game)
        self.history.append((self.game.copy(), list(self.known.bits)))

    def _non_interference(self) -> None:
        """Each probe of the game (``variations.plan``): at one of its states, a twin that
        differs in a secret the probe's seat may not see, played along the same moves and
        compared with the game by that seat's view (``leaks.Twin``)."""
        states = [g for g, _ in self.history]
        bits = [b for _, b in self.history]
        stats = self.stats
        for task in variations.plan(states, self.played, bits, self.probes, self.seed, self.moments):
            game = states[task.at]
            if game.over:
                continue
            self.known.bits = bits[task.at]
            nxt = task.at < len(self.played)
            ctx = variations.Context(game, task.seat, self.known, self.played[task.at][0] if nxt else None,
                                     states[task.at + 1] if nxt else None)
            kinds = variations.available(ctx)
            for kind in variations.present(ctx, kinds):
                stats.found[kind] = stats.found.get(kind, 0) + 1
            made = variations.make(ctx, task, kinds)
            if made is None:
                continue
            stats.probes += 1
            for kind in made.kinds:
                stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
            found = self._compare_twin(leaks.Twin(game, task.seat, task.at, made, task.limit))
            if found is None:
                continue
            for part in made.parts() if made.parts else ():   # of several varied, one alone
                alone = self._compare_twin(leaks.Twin(game, task.seat, task.at, part, task.limit))
                if alone is not None:
                    found = alone
                    break
            raise self._leak(*found)

    def _compare_twin(self, twin):
        """(the twin, the leak, the state it shows at), or None when none shows."""
        if twin.broken:
            return None
        j = twin.at + twin.steps
        while j < len(self.history):
            verdict = twin.check(self.history[j][0])
            if isinstance(verdict, leaks.Leak):
                return twin, verdict, j
            if verdict is not None or j + 1 >= len(self.history):
                return None
            move, type_code = self.played[j]
            if not twin.follow(move, type_code):
                return None
            self.stats.twin_moves += 1
            j += 1
        return None

    def _leak(self, t, leak, j: int) -> Failure:
        who = leaks.seat_name(self.prog, t.seat)
        when = "after the setup" if t.at == 0 else f"after move {t.at}"
        later = "at once" if j == t.at else \
            f"{j - t.at} move{'s' if j - t.at > 1 else ''} later (move {j})"
        text = (f"{who} is shown something that depends on {_SECRET[t.v.kinds[0]]}, {leak.where}. "
                f"The two games differ only in {t.v.what} {when}, which {who} has never been "
                f"shown; the difference shows {later}")
        f = self._fail("secrets/non-interference", text, leak.span)
        f.moves = f.moves[:j]
        return f

    # -------------------------------------------------------- the end
    def check_end(self) -> None:
        g, R = self.game, self.game.R
        res = g.result
        if not res or len(res.get("scores", [])) != R.n_players or len(res.get("outcomes", [])) != R.n_players \
                or res.get("winners") != [p for p in range(R.n_players) if res["outcomes"][p] == "win"]:
            raise self._fail("results", f"the results at the end are not complete: {res!r}")
        rec = Record(self.prog.name, R.n_players, self.seed, list(self.config.variants), self.config.locale,
                     list(self.moves))
        try:
            again = replay(self.ruleset, rec)
        except (RecordError, RuleError) as e:
            raise self._fail("replay", f"the record does not replay: {e}") from e
        if digest(again) != digest(g):
            raise self._fail("replay", "replaying the record reaches another state")


# how a report names each kind of secret (views.SECRET_KINDS)
_SECRET = {"hidden items": "items it cannot see", "face-down items": "items it cannot see",
           "item variables": "item variables it cannot see",
           "owner variables": "variables it may not see", "hidden variables": "variables it may not see",
           "secret choices": "choices it may not see", "dark places": "where items it cannot see lie"}


def _secret_zones(prog, players: int) -> list[tuple[int, int | None, bool]]:
    """(zone id, its owner or None, until end) for every zone declared secret."""
    out = []
    for name, until_end in prog.secrets:
        for z in prog.zones:
            if z.name == name and (z.owner is None or z.owner < players):
                out.append((z.id, z.owner, until_end))
    return out


def _items_in_view(v: dict) -> set[int]:
    """Every item id a view holds: in zones, variables, item variables, face-down list."""
    out: set[int] = set()
    for content in v["zones"].values():
        if isinstance(content, list):
            out.update(i for i in content if isinstance(i, int))
    out.update(v.get("face_down", []))
    for values in v.get("ivars", {}).values():
        out.update(int(k) for k in values)
    return out


def play_and_check(ruleset, config: Config, seed: int, choices, stats: Stats | None = None,
                   probes=(), moments: bool = False, limits: Limits | None = None,
                   on_state=None) -> Game:
    """Plays and checks one game. ``probes`` (``leaks.Probe`` or tuples ``(at, seat,
    first, second)``) are the points where non-interference is checked; with
    ``moments``, the game is also probed at its moments (``variations.plan``), as
    ``explore`` does; ``limits``: how much of it is checked in full (``Limits``);
    ``on_state``: see ``GameChecker``. Returns the game over, or stopped at a bound declared ``or endless`` (counted in
    ``stats``)."""
    return GameChecker(ruleset, config, seed, stats, probes, moments, limits=limits,
                       on_state=on_state).play(choices)


# ---------------------------------------------------------------- many games, with Hypothesis

def explore(load, cfgs: list[Config], examples: int, seed: int | None, stats: Stats,
            on_example=None, max_choices: int = 400, limits: Limits | None = None,
            on_state=None, first: int = 1) -> Failure | None:
    """Plays ``examples`` games drawn by Hypothesis over ``cfgs`` (``load(config)`` gives
    the ruleset for a config). Returns the shrunk failure, or None when all hold.
    ``limits`` (``Limits``): how much of each game is checked in full; the games a limit
    cuts short are noted in ``stats.cuts``, numbered from ``first``, until a check fails
    (the deadline then no longer applies: the shrinking replays games, whose checks
    must not depend on the machine's speed). ``on_state(checker)``: called after every
    state checked (``GameChecker``)."""
    from hypothesis import HealthCheck, Phase, given, seed as hseed, settings, strategies as st
    from hypothesis.reporting import with_reporter

    last: list[Failure] = []
    drawn = [0]   # examples played so far
    # once a game fails its bound, the shrinking looks for a smaller one that fails it,
    # checking only that (a long game fully checked costs seconds; see interpreter/analysis/cycles.py)
    bound_only: dict = {}   # (config, seed, choices) -> the failure of that game, or None

    @settings(max_examples=examples, deadline=None, database=None, print_blob=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=[Phase.generate, Phase.shrink])
    @given(config=st.sampled_from(cfgs), game_seed=st.integers(0, 2**31 - 1),
           choices=st.lists(st.integers(0, 255), max_size=max_choices),
           probes=st.lists(st.tuples(st.integers(0, 4095), st.integers(0, 8),
                                     st.integers(0, 63), st.integers(0, 63)),
                           max_size=leaks.MAX_PROBES))
    def prop(config, game_seed, choices, probes):
        cuts = len(stats.cuts)
        drawn[0] += 1
        try:
            if bound_only:
                _bound_only(load, config, game_seed, choices, bound_only)
            else:
                lim = limits if not last or limits is None else replace(limits, seconds=None)
                play_and_check(load(config), config, game_seed, choices, stats, probes,
                               moments=True, limits=lim, on_state=on_state)
            if last:   # (a game of the shrinking: not one of the examples)
                del stats.cuts[cuts:]
            for j in range(cuts, len(stats.cuts)):
                stats.cuts[j] = replace(stats.cuts[j], example=first + drawn[0] - 1)
        except Failure as f:
            stats.failures += 1
            last.append(f)
            if f.check == "bound" and not bound_only:
                bound_only[(config, game_seed, tuple(choices))] = f
            raise
        finally:
            if on_example:
                on_example()

    if seed is not None:
        prop = hseed(seed)(prop)
    try:
        with with_reporter(_note):   # (Hypothesis prints on stdout, which is the command's)
            prop()
    except Failure as f:
        return f
    return None


def _note(value: object) -> None:
    """What Hypothesis says while it plays (e.g. that shrinking takes long): a note on
    stderr, never on stdout, which carries the command's output (``--json``)."""
    print(f"note: {value}", file=sys.stderr, flush=True)


def _bound_only(load, config: Config, seed: int, choices, done: dict) -> None:
    """Plays a game checking only its bound (``GameChecker(bound_only=True)``), or raises
    again the failure of the same game played before (the probes change nothing then):
    the same exception, whose traceback still ends where it was first raised, which is
    how Hypothesis tells one failure from another. After ``SHRINK_BOUND_GAMES`` games,
    the games not played yet pass unplayed: the shrinking stops there."""
    key = (config, seed, tuple(choices))
    if key not in done and len(done) > SHRINK_BOUND_GAMES:
        return
    if key not in done:
        try:
            GameChecker(load(config), config, seed, Stats(), bound_only=True).play(choices)
            done[key] = None
        except Failure as f:
            done[key] = f
    if done[key] is not None:
        raise done[key]


# ---------------------------------------------------------------- in shards, on every core

SHARD = 25   # examples per shard: a run of N examples is ceil(N / SHARD) Hypothesis runs
_SHARD_TAG = b"meeple/test-shard/v1"


def shards(examples: int, seed: int) -> list[tuple[int, int]]:
    """The shards of a run: (examples, Hypothesis seed) each. The first has the run's
    seed; the others a seed hashed from it and their number. They depend only on the
    run's examples and seed, never on how many workers play them."""
    import hashlib
    out = []
    for k, start in enumerate(range(0, examples, SHARD)):
        if k == 0:
            hseed = seed
        else:
            data = b"\0".join([_SHARD_TAG, str(int(seed)).encode(), str(k).encode()])
            hseed = int.from_bytes(hashlib.sha256(data).digest()[:8], "big")
        out.append((min(SHARD, examples - start), hseed))
    return out


TICK_EVERY = 0.25   # seconds between two progress reports of a game under way


def _explore_shard(rules, task, tick):
    cfgs, examples, hseed, limits, first = task
    stats = Stats()
    sent = [0.0]

    def report(moves: int) -> None:
        tick({"games": stats.games, "states": stats.states, "failures": stats.failures,
              "light": stats.light, "moves": moves})

    def on_example():
        report(0)

    def on_state(checker):
        now = time.monotonic()
        if now - sent[0] >= TICK_EVERY:
            sent[0] = now
            report(len(checker.moves))

    with _same_examples_everywhere():
        failure = explore(lambda c: rules.ruleset(c.variants, c.locale), cfgs, examples, hseed,
                          stats, on_example, limits=limits, on_state=on_state, first=first)
    return stats, failure


@contextmanager
def _same_examples_everywhere():
    """Recent Hypothesis versions mix into the values they draw the literals of the
    non-library modules loaded in the process, and which are loaded differs between
    this process, a worker and a Ray worker (and between a checkout and an install):
    while a shard runs, they are left out, so that a seed draws the same games wherever
    it runs. (A Hypothesis without that feature is left as it is.)"""
    try:
        from hypothesis.internal.conjecture import providers
        before, empty = providers._get_local_constants, providers.Constants()
        # the constants already picked per kind of draw are cached for the process (a
        # test run draws with the literals before a shard runs): a fresh cache meanwhile
        cache = getattr(providers, "CONSTANTS_CACHE", None)
        fresh = type(cache)(1024) if cache is not None else None
    except (ImportError, AttributeError, TypeError):
        yield
        return
    providers._get_local_constants = lambda: empty
    if cache is not None:
        providers.CONSTANTS_CACHE = fresh
    try:
        yield
    finally:
        providers._get_local_constants = before
        if cache is not None:
            providers.CONSTANTS_CACHE = cache


def unchecked(stats: Stats) -> Failure | None:
    """The failure of a run whose games kept from a seat something that could differ
    (``Stats.found``) but in which no twin could be made: no leak was looked for, which
    is no success. (None when a twin was made, or nothing was kept.)"""
    if stats.probes or not any(stats.found.values()):
        return None
    found = ", ".join(f"{kind} at {stats.found[kind]}" for kind in views.SECRET_KINDS
                      if stats.found.get(kind))
    return Failure("secrets/unchecked", f"the games kept secrets from the seats ({found} of the states "
                              f"probed), but none could be varied: no leak was looked for. "
                              f"Please report it: meeple test should vary every secret")


def add_stats(total: Stats, more: Stats) -> None:
    total.games += more.games
    total.states += more.states
    total.failures += more.failures
    total.endless += more.endless
    total.cycles += more.cycles
    total.probes += more.probes
    total.twin_moves += more.twin_moves
    total.light += more.light
    total.cuts += more.cuts
    for mine, theirs in ((total.moments, more.moments), (total.kinds, more.kinds),
                         (total.found, more.found)):
        for k, v in theirs.items():
            mine[k] = mine.get(k, 0) + v


@dataclass
class Live(Stats):
    """The totals of a run so far, for a progress display: ``moves``, the moves played
    by the longest game under way (0: none)."""

    moves: int = 0


def explore_shards(rules, cfgs: list[Config], examples: int, seed: int, stats: Stats,
                   on_example=None, jobs: int | None = None, backend: str = "local",
                   address: str | None = None, limits: Limits | None = None) -> Failure | None:
    """``explore`` in shards (see ``shards``) played by ``jobs`` workers or on Ray (see
    ``interpreter.parallel``; ``rules`` is a ``parallel.Rules``): the first failure in
    shard order, shrunk, or None. ``stats`` sums the shards up to that one, so the result
    is the same whatever ``jobs`` is (but for what a ``limits.seconds`` deadline cuts).
    ``on_example(live)`` is called as games end, and every ``TICK_EVERY`` seconds while
    one is under way, with the totals so far (a ``Live``, in any order: for a progress
    display)."""
    from . import parallel
    plan = [(cfgs, n, hseed, limits, 1 + k * SHARD) for k, (n, hseed) in enumerate(shards(examples, seed))]
    latest: dict = {}
    live = Live()

    def progress(i, info):
        if on_example is None or (info is None and i not in latest):
            return
        if info is None:   # (the shard is done: no game of it is under way)
            info = dict(latest[i], moves=0)
        latest[i] = info
        live.games = sum(x["games"] for x in latest.values())
        live.states = sum(x["states"] for x in latest.values())
        live.failures = sum(x["failures"] for x in latest.values())
        live.light = sum(x["light"] for x in latest.values())
        live.moves = max(x["moves"] for x in latest.values())
        on_example(live)

    results = parallel.run(_explore_shard, rules, plan, jobs, backend, address, progress)
    try:
        for shard_stats, failure in results:
            add_stats(stats, shard_stats)
            if failure is not None:
                return failure
    finally:
        close = getattr(results, "close", None)
        if close:
            close()
    return None
