"""Bot games, one at a time or many in parallel: what ``meeple simulate`` and
``meeple arena`` play.

``play_game(ruleset, spec)`` plays one game (a ``GameSpec``: its number, its seed, the bot
of each seat and its seed) and returns a small summary of plain data; ``play_games``
plays many on every core (see ``interpreter.parallel``), handing the summaries back in
game order, so that the same games give the same numbers whatever the number of
workers. Game ``i`` of a run started from seed ``S`` has the seed ``S+i`` and its seat
``s`` bot the seed ``bot_seed(S, i, s)`` (``specs``).
"""
from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..bots import bot_seed, make_bot, mover, parse_spec
from ..play.helpers import RuleError
from ..play.record import digest, short_digest
from ..play.results import payoff_values
from ..play.runtime import IllegalMove
from . import parallel, playouts
from .stats import GameTally, summary_result

MAX_MOVES = 100_000


@dataclass(frozen=True)
class GameSpec:
    """One game to play: its number (from 0), its seed, the bot spec of each seat and
    each bot's seed."""

    game: int
    seed: int
    bots: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    max_moves: int = MAX_MOVES
    keep_moves: bool = False   # the summary lists every move (for a record)


def specs(players: int, bots: Callable[[int], Sequence[str]], games: int, seed: int = 0,
          max_moves: int = MAX_MOVES, keep_moves: bool = False) -> list[GameSpec]:
    """The games of a run from ``seed``: game ``i`` has seed ``seed + i`` and the bots
    ``bots(i)`` (one spec per seat), seeded with ``bot_seed(seed, i, seat)``."""
    out = []
    for i in range(games):
        seated = tuple(bots(i))
        if len(seated) != players:
            raise ValueError(f"game {i}: {len(seated)} bots for {players} players")
        out.append(GameSpec(i, seed + i, seated, tuple(bot_seed(seed, i, s) for s in range(players)),
                            max_moves, keep_moves))
    return out


def play_game(ruleset, spec: GameSpec) -> dict:
    """Plays one game with bots and returns its summary (plain data):

    - ``game``, ``seed``, ``bots``: as in the spec;
    - ``result``: ``game.result`` (None when the game failed);
    - ``turns``: completed turns; ``moves``: player decisions;
    - ``verbs``: how many moves began with each verb (``""`` for moves without one);
    - ``seat_moves``: each seat's moves; ``think``: the seconds each seat's bot took
      to choose, in all (not reproducible);
    - with ``keep_moves``: ``played``, each move as ``[notation, short digest]`` (a
      record's moves and digests), and ``digest``, the final state's;
    - ``balance``: the game's summary for balance statistics (``stats.GameTally``), None
      when the game failed;
    - ``error``: None, or the ``RuleError`` / ``IllegalMove`` that stopped the game
      (after ``max_moves`` moves: a RuleError that says so).
    """
    program = _whole_in_kernel(ruleset, spec)
    if program is not None:
        return _random_game(program, spec)
    players = len(spec.bots)
    bots = [make_bot(b, s) for b, s in zip(spec.bots, spec.bot_seeds)]
    out: dict[str, Any] = {"game": spec.game, "seed": spec.seed, "bots": list(spec.bots), "result": None,
           "turns": 0, "moves": 0, "verbs": {}, "think": [0.0] * players, "seat_moves": [0] * players,
           "balance": None, "error": None}
    tally = GameTally()
    played: list = []
    game = None
    # (what each move needs, looked up once per game)
    movers = [mover(b) for b in bots]
    think, seat_moves, keep, max_moves = out["think"], out["seat_moves"], spec.keep_moves, spec.max_moves
    clock, note = time.perf_counter, tally.note
    moves = 0
    try:
        game = ruleset.new_game(players, spec.seed)
        if not any(getattr(b, "wants_position", False) for b in bots):
            # (no move is taken back, and no search bot reads the last moves played)
            game.undo_limit = 0
        while not game.over:
            if moves >= max_moves:
                raise RuleError(f"the game did not end after {max_moves} moves")
            decision = game.decision
            seat = decision.player  # (game.active_player)
            note(game, seat, decision)
            start = clock()
            index = movers[seat](game, seat)
            think[seat] += clock() - start
            # (unsafe unless the moves are kept: a failed move ends the game, and only a
            # record's digest reads the game after it)
            m = game.apply(index, seat=seat, safe=keep)
            if keep:
                played.append([m.notation, short_digest(game)])
            moves += 1
            seat_moves[seat] += 1
        out["moves"] = moves
        out["result"] = game.result
        out["balance"] = tally.summary(game, spec.seed)
        out["turns"] = out["balance"]["turns"]
    except (RuleError, IllegalMove) as e:
        out["moves"] = moves
        out["error"] = e
    # (the moves by verb, from the tally's moves by kind: a kind without a verb is in
    # parentheses, see stats.move_kind)
    verbs: Counter = Counter()
    for kind, counts in tally.kinds.items():
        verbs["" if kind.startswith("(") else kind] += sum(counts)
    out["verbs"] = dict(verbs)
    if spec.keep_moves:
        out["played"] = played
        out["digest"] = digest(game) if game is not None else None
    return out


def random_in_kernel(ruleset, players: int, bot: str):
    """The program whose kernel plays whole the games of ``players`` seats each played
    by ``bot`` (a random bot), else None: where ``play_compact`` can play them."""
    return _whole_in_kernel(ruleset, GameSpec(0, 0, (bot,) * players, (0,) * players))


#: the most games ``play_compact`` plays in one call (a progress bar moves by as many)
COMPACT_SHARE = 1024


def play_compact(program, games: int, seed: int = 0, max_moves: int = MAX_MOVES,
                 jobs: int | None = None, on_games: Callable[[int], None] | None = None,
                 settle: bool = False) -> Generator[tuple[int, Any], None, None]:
    """The games of ``specs(program.n, random bots, games, seed, max_moves)`` (those
    ``play_games`` plays), played in batches of random playouts in the compact form
    (``playouts.run_compact``: by the program's kernel, see ``random_in_kernel``), by
    ``jobs`` worker processes as ``play_games``: per batch, in game order, the number of
    its first game and its ``playouts.Compact``. ``on_games(k)``: k more games done."""
    n = jobs or parallel.default_jobs()
    size = COMPACT_SHARE if n <= 1 else max(1, min(COMPACT_SHARE, games // (n * 8)))
    tasks = [(program.n, seed, first, min(size, games - first), max_moves) for first in range(0, games, size)]

    def done(i: int, info) -> None:
        if info is None and on_games is not None:
            on_games(tasks[i][3])
    results = parallel.run(_play_compact_share, parallel.Rules.of(program), tasks, jobs, "local", None,
                           done if on_games else None, settle)
    return ((task[2], batch) for task, batch in zip(tasks, results))


def _play_compact_share(rules: parallel.Rules, task: tuple, tick):
    players, seed, first, count, max_moves = task
    ruleset = rules.ruleset()
    program = ruleset.for_players(players) if hasattr(ruleset, "for_players") else ruleset
    return playouts.run_compact(program, seed, first, count, max_moves)


def _whole_in_kernel(ruleset, spec: GameSpec):
    """The program whose kernel plays the game of ``spec`` whole (random bots, no move
    kept, a kernel for its players), else None."""
    players = len(spec.bots)
    if spec.keep_moves or not _all_random(spec.bots):
        return None
    program = ruleset.for_players(players) if hasattr(ruleset, "for_players") else ruleset
    return program if program.kernel and program.n == players else None


@functools.lru_cache(maxsize=64)
def _all_random(bots: tuple[str, ...]) -> bool:
    return all(parse_spec(b)[0] == "random" for b in bots)


def _random_game(program, spec: GameSpec) -> dict:
    """``play_game`` of random bots on a program a kernel plays: the whole game in the
    kernel (playouts.play_batch: the same game; ``think`` is 0.0, the bots' draws being
    part of the kernel's moves)."""
    got = playouts.play_batch(program, [(spec.seed, spec.bot_seeds)], max_moves=spec.max_moves)[0]
    return _kernel_summary(spec, got)


def _play_many(ruleset, specs: Sequence[GameSpec]) -> list[dict]:
    """``play_game`` of each spec, in order: the games a kernel plays whole (random bots)
    in one call per program (playouts.play_batch: the same games, without a call and its
    set-up per game)."""
    out: list = [None] * len(specs)
    batches: dict = {}
    for k, spec in enumerate(specs):
        program = _whole_in_kernel(ruleset, spec)
        if program is None:
            out[k] = play_game(ruleset, spec)
        else:
            batches.setdefault((id(program), spec.max_moves), (program, []))[1].append(k)
    for (_, max_moves), (program, ks) in batches.items():
        got = playouts.play_batch(program, [(specs[k].seed, specs[k].bot_seeds) for k in ks],
                                  max_moves=max_moves)
        for k, game in zip(ks, got):
            out[k] = _kernel_summary(specs[k], game)
    return out


def _kernel_summary(spec: GameSpec, got: dict) -> dict:
    """The summary of a game the kernel played whole (a playout of ``play_batch``)."""
    players, kinds, error = len(spec.bots), got["kinds"], got["error"]
    seat_moves = [sum(counts[s] for counts in kinds.values()) for s in range(players)]
    verbs: Counter = Counter()
    for kind, counts in kinds.items():
        verbs["" if kind.startswith("(") else kind] += sum(counts)
    res = got["result"]
    balance = None if error is not None else {
        "seed": spec.seed,
        "result": summary_result(res),
        "moves": got["moves"], "turns": got["turns"], "first": got["first"],
        "kinds": {k: list(v) for k, v in kinds.items()}}
    return {"game": spec.game, "seed": spec.seed, "bots": list(spec.bots), "result": res,
            "turns": 0 if error is not None else got["turns"], "moves": got["moves"],
            "verbs": dict(verbs), "think": [0.0] * players, "seat_moves": seat_moves,
            "balance": balance, "error": error}


def _play(rules: parallel.Rules, spec: GameSpec, tick) -> dict:
    return play_game(rules.ruleset(), spec)


def play_games(ruleset, games: Sequence[GameSpec], jobs: int | None = None,
               backend: str = "local", address: str | None = None,
               on_game: Callable[[], None] | None = None, settle: bool = False) -> Iterator[dict]:
    """The summaries of ``games`` (see ``play_game``), in game order, played by ``jobs``
    worker processes (None: every core; 1: in this process) or on Ray (``backend="ray"``,
    see ``parallel.run``). ``on_game()`` is called as each game finishes, in any order
    (for a progress bar). Every bot spec is checked first (BotSpecError). ``settle``:
    see ``parallel.run`` (for a process that plays the games and little else)."""
    for spec in {b for g in games for b in g.bots}:
        parse_spec(spec)
    games = list(games)
    size = _share(ruleset, games, jobs, backend)
    if size == 1:
        progress = (lambda i, info: on_game() if info is None else None) if on_game else None
        return parallel.run(_play, parallel.Rules.of(ruleset), games, jobs, backend, address,
                            progress, settle)
    shares = [games[i:i + size] for i in range(0, len(games), size)]

    def done(i: int, info) -> None:
        if info is None and on_game is not None:
            for _ in shares[i]:
                on_game()
    results = parallel.run(_play_share, parallel.Rules.of(ruleset), shares, jobs, backend, address,
                           done if on_game else None, settle)
    return (summary for share in results for summary in share)


#: the most games a worker process is sent at once (its results come back together)
SHARE = 64


def _share(ruleset, games: Sequence[GameSpec], jobs: int | None, backend: str) -> int:
    """How many games go to a worker process at once: 1 on Ray (each game its own task);
    in this process 1 too, but ``SHARE`` when the kernel plays every game whole (the
    games of a share in one call, ``_play_many``); else enough that a game's trip to a
    worker and back costs little beside it (a game the kernel plays whole takes about as
    long as the trip), while each worker still gets eight shares or more to balance the
    load, and at most ``SHARE``."""
    n = jobs or parallel.default_jobs()
    if backend != "local":
        return 1
    if n <= 1:
        whole = bool(games) and all(_whole_in_kernel(ruleset, g) is not None for g in games)
        return SHARE if whole else 1
    return max(1, min(SHARE, len(games) // (n * 8)))


def _play_share(rules: parallel.Rules, specs: list[GameSpec], tick) -> list[dict]:
    return _play_many(rules.ruleset(), specs)


class Tally:
    """The totals of a simulation, per seat, fed one game summary at a time."""

    def __init__(self, players: int):
        self.n = players
        self.wins, self.draws, self.losses = [0] * players, [0] * players, [0] * players
        self.shared = self.drawn = self.moves = self.turns = 0
        self.lengths: list[int] = []
        # summed per seat, exactly (``per D``: fractions), when the games have payoffs
        self.payoffs: list[Fraction] | None = None

    def add(self, summary: dict) -> None:
        """Counts one finished game (a summary of ``play_game``)."""
        self._add_result(summary["result"], 1)
        self.lengths.append(summary["turns"])
        self.turns += summary["turns"]
        self.moves += summary["moves"]

    def add_compact(self, batch) -> None:
        """Counts the games of a batch of playouts in the compact form (``playouts.Compact``,
        none stopped by an error) as ``add`` would count their summaries one by one."""
        if batch.errors:
            raise ValueError(f"game {min(batch.errors)} of the batch stopped on an error")
        for at, count in Counter(batch.result_of).items():
            self._add_result(batch.results[at], count)
        self.lengths.extend(batch.turns)
        self.turns += sum(batch.turns)
        self.moves += sum(batch.moves)

    def _add_result(self, res: dict, count: int) -> None:
        """``count`` games that ended with the result ``res``."""
        for p, outcome in enumerate(res["outcomes"]):
            (self.wins if outcome == "win" else self.draws if outcome == "draw" else self.losses)[p] += count
        self.shared += count * (len(res["winners"]) > 1)
        self.drawn += count * bool(res["draw"])
        got = payoff_values(res)
        if got is not None:
            self.payoffs = [a + b * count for a, b in zip(self.payoffs or [Fraction(0)] * self.n, got)]

    def report(self, program) -> dict:
        """``seats`` (per seat: ``seat``, ``player``, ``wins``, ``draws``, ``losses``,
        ``win_rate`` and, when the ruleset declares a payoff, ``mean_payoff``),
        ``shared_wins``, ``drawn_games``, ``turns`` (mean, min, max),
        ``moves``, ``moves_per_turn``: as ``meeple simulate --json`` writes them."""
        from ..play.display import player_name
        games = len(self.lengths)
        lengths = self.lengths or [0]
        seats = [{"seat": s, "player": player_name(program, s), "wins": self.wins[s],
                  "draws": self.draws[s], "losses": self.losses[s],
                  "win_rate": self.wins[s] / games if games else 0.0} for s in range(self.n)]
        if self.payoffs is not None:
            for s, total in enumerate(self.payoffs):
                seats[s]["mean_payoff"] = float(total / games)
        return {
            "seats": seats,
            "shared_wins": self.shared,
            "drawn_games": self.drawn,
            "turns": {"mean": sum(lengths) / len(lengths), "min": min(lengths), "max": max(lengths)},
            "moves": self.moves,
            "moves_per_turn": self.moves / self.turns if self.turns else None,
        }
