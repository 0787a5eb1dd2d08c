"""Matches between bots: one bot per seat, the seats rotated from game to game, and per
bot its wins, draws and losses with a confidence interval on its win rate.

    from meeple import interpreter
    from meeple.interpreter import arena

    ruleset = interpreter.load("path/to/my-game.meeple")   # a ruleset file or a bundled name
    report = arena.play(ruleset, ["random", "first"], games=20, seed=0, jobs=1)
    report["bots"][0]["wins"], report["bots"][0]["ci95"]

With ``k`` bots, game ``i`` seats bot ``b`` at seat ``(b + i) % k`` (``seating``): over any
``k`` games in a row each bot plays each seat once. When the number of games is not a
multiple of ``k``, the last rotation is incomplete: its first games are played, so a bot
plays some seats once more than others (``balanced`` is false). Game ``i`` has the seed
``seed + i`` and the bot at seat ``s`` the seed ``bot_seed(seed, i, s)``, as in
``simulation``; the games can run on every core (``jobs``) or on Ray with the same numbers.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..bots import parse_spec
from ..play.results import payoff_values
from . import simulation
from .stats import Z95, wilson  # noqa: F401 - Z95 and wilson are this module's API too

# the Wilson interval is the balance statistics' (one definition for arena and report)


def seating(bots: int, game: int) -> list[int]:
    """Which bot (its index in the list of bots) sits at each seat in game ``game``:
    bot ``b`` at seat ``(b + game) % bots``."""
    return [(s - game) % bots for s in range(bots)]


def schedule(specs: Sequence[str], count: int, seed: int = 0,
          max_moves: int = simulation.MAX_MOVES, keep_moves: bool = False) -> list[simulation.GameSpec]:
    """The games of a match between the bots ``specs`` (one per seat), seats rotated."""
    if count < 1:
        raise ValueError("a match has at least one game")
    if len(specs) < 1:
        raise ValueError("a match needs bots")
    for spec in specs:
        parse_spec(spec)
    k = len(specs)
    return simulation.specs(k, lambda i: [specs[b] for b in seating(k, i)], count, seed,
                            max_moves, keep_moves)


class Tally:
    """The running totals of a match, fed one game summary at a time, in game order."""

    def __init__(self, specs: Sequence[str]):
        self.specs = list(specs)
        k = len(specs)
        self.games = 0
        self.rows: list[dict[str, Any]] = [{"games": 0, "wins": 0, "draws": 0, "losses": 0, "score": 0.0,
                      "seats": [0] * k, "moves": 0, "think": 0.0} for _ in range(k)]
        self.turns: list[int] = []
        self.moves = 0
        self.shared = 0

    def add(self, summary: dict) -> None:
        """Counts one finished game (a summary of ``simulation.play_game``)."""
        k = len(self.specs)
        res = summary["result"]
        seats = seating(k, summary["game"])
        for seat, b in enumerate(seats):
            row = self.rows[b]
            outcome = res["outcomes"][seat]
            row["games"] += 1
            row["seats"][seat] += 1
            row["wins" if outcome == "win" else "draws" if outcome == "draw" else "losses"] += 1
            row["score"] += res["scores"][seat]
            values = payoff_values(res)   # (exactly: ``per D`` payoffs are fractions)
            if values is not None:
                row["payoff"] = row.get("payoff", Fraction(0)) + values[seat]
            row["think"] += summary["think"][seat]
            row["moves"] += summary["seat_moves"][seat]
        self.games += 1
        self.turns.append(summary["turns"])
        self.moves += summary["moves"]
        self.shared += len(res["winners"]) > 1

    def report(self) -> dict:
        """Per bot (in the order given): ``spec``, ``games``, ``wins``, ``draws``,
        ``losses``, ``win_rate`` (wins / games), ``ci95`` (its Wilson interval, a pair),
        ``mean_score``, ``mean_payoff`` (only when the ruleset declares a payoff),
        ``seats`` (games played at each seat), ``moves`` (its moves in all) and
        ``seconds_per_move`` (its mean time to choose: not reproducible); for the match:
        ``games``, ``balanced``, ``turns`` (mean, min, max), ``moves``, ``shared_wins``."""
        payoffs = any("payoff" in row for row in self.rows)   # (games with a payoff declaration)
        bots = []
        for b, row in enumerate(self.rows):
            n = row["games"]
            bots.append({"bot": b + 1, "spec": self.specs[b], "games": n, "wins": row["wins"],
                         "draws": row["draws"], "losses": row["losses"],
                         "win_rate": row["wins"] / n if n else 0.0,
                         "ci95": list(wilson(row["wins"], n)),
                         "mean_score": row["score"] / n if n else 0.0,
                         **({"mean_payoff": float(row.get("payoff", 0) / n) if n else 0.0}
                            if payoffs else {}),
                         "seats": list(row["seats"]),
                         "moves": row["moves"],
                         "seconds_per_move": row["think"] / row["moves"] if row["moves"] else None})
        turns = self.turns or [0]
        return {"games": self.games, "balanced": self.games % len(self.specs) == 0,
                "bots": bots,
                "turns": {"mean": sum(turns) / len(turns), "min": min(turns), "max": max(turns)},
                "moves": self.moves, "shared_wins": self.shared}


class GameFailed(Exception):
    """A game of a match stopped on an error in the rules (``error``, the RuleError or
    IllegalMove) and ``summary`` is its game's summary."""

    def __init__(self, summary: dict):
        e = summary["error"]
        super().__init__(f"game {summary['game'] + 1} (seed {summary['seed']}): {e}")
        self.summary, self.error = summary, e


def play(ruleset, specs: Sequence[str], games: int, seed: int = 0, jobs: int | None = None,
         backend: str = "local", address: str | None = None,
         on_game: Callable[[], None] | None = None,
         max_moves: int = simulation.MAX_MOVES) -> dict:
    """Plays a match (see ``schedule`` and ``Tally.report``) and returns its report. A game
    that fails raises ``GameFailed`` (the first in game order); a bad spec BotSpecError;
    a number of bots the ruleset cannot seat ValueError."""
    if not ruleset.min_players <= len(specs) <= ruleset.max_players:
        raise ValueError(f"{ruleset.title} is for {ruleset.min_players} to "
                         f"{ruleset.max_players} players: give one bot per seat, not {len(specs)}")
    match = schedule(specs, games, seed, max_moves)
    return tally(specs, simulation.play_games(ruleset, match, jobs, backend, address,
                                              on_game)).report()


def tally(specs: Sequence[str], summaries: Iterable[dict]) -> Tally:
    """The totals of game summaries in order; raises GameFailed at a failed game."""
    t = Tally(specs)
    for summary in summaries:
        if summary["error"] is not None:
            raise GameFailed(summary)
        t.add(summary)
    return t
