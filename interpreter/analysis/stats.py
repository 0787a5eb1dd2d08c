"""Balance statistics of many finished games: who wins (with 95% confidence intervals),
whether starting helps, how long games last, what the scores are and which kinds of
moves are chosen. Pure data in, plain JSON-ready data out (no printing, no plotting).

    tally = stats.GameTally()
    while not game.over:
        tally.note(game)                    # before each move: who decides, and what kind
        game.apply(choose(game.legal_moves()))
    balance = stats.Balance(players)
    balance.add(tally.summary(game, seed)) # one per game, in any order
    figures = balance.figures()

A game's summary is a plain dict (it may cross processes): ``seed``, ``result`` (at least
``outcomes`` and ``scores`` of ``game.result``), ``moves`` and ``turns`` (the game's length
in decisions and in completed turns), ``first`` (the seat of the first decision, or
None) and ``kinds`` (move kind -> how many moves of that kind each seat made).
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

Z95 = 1.959963984540054   # the standard normal quantile of 97.5%: two-sided 95%
MAX_BINS = 12


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): ``(low, high)``,
    within [0, 1]; ``(0.0, 1.0)`` without trials. Unlike the normal approximation it stays
    sensible near 0 and 1 and for few trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def move_kind(decision) -> str:
    """The kind of a decision's moves: its verb (``"play"``, ``"take"``, ``"pass"``), or
    for a decision without a verb the type of its options in parentheses (``"(int)"``,
    ``"(item)"``); a verb never has parentheses, so the two cannot be confused."""
    return decision.verb if decision.verb else f"({decision.type})"


class GameTally:
    """What one game's statistics need from its moves: call ``note(game)`` before each
    move, then ``summary(game)`` once the game is over."""

    __slots__ = ("_known", "first", "kinds", "moves", "players")

    def __init__(self):
        self.kinds: dict[str, list[int]] = {}
        self.first: int | None = None
        self.moves = 0
        self.players = 0
        # id(decision) -> (the decision, its kind's counts): a game's decisions of one
        # seat are a few shared objects (see Game.decision), met again and again
        self._known: dict[int, tuple] = {}

    def note(self, game, seat: int | None = None, decision=None) -> None:
        """Counts the move about to be made in ``game``, by ``seat`` (default: the seat
        that decides now, ``game.decision.player``); ``decision`` is ``game.decision``
        when the caller has it already."""
        d = game.decision if decision is None else decision
        known = self._known.get(id(d))
        if known is None or known[0] is not d:
            known = self._learn(game, d)
        known[1][d.player if seat is None else seat] += 1
        self.moves += 1

    def _learn(self, game, d) -> tuple:
        """A decision not met before: its kind's counts (kept for the next time when
        one seat decides: a simultaneous decision is made anew for each move)."""
        if self.moves == 0:
            self.players = game.players
            self.first = d.player if len(d.seats) == 1 else None
        counts = self.kinds.get(kind := move_kind(d))
        if counts is None:
            counts = self.kinds[kind] = [0] * game.players
        known = (d, counts)
        if len(d.seats) == 1:
            self._known[id(d)] = known
        return known

    def summary(self, game, seed: int | None = None) -> dict:
        """The finished game's summary (see the module's documentation)."""
        if not game.over:
            raise ValueError("the game is not over")
        res = game.result
        return {"seed": seed,
                "result": summary_result(res),
                "moves": self.moves, "turns": game.turn_number, "first": self.first,
                "kinds": {k: list(v) for k, v in self.kinds.items()}}


def summary_result(res: dict) -> dict:
    """What a game summary keeps of a finished game's result (``game.result``, or the
    kernel's): the outcomes, scores, winners, whether drawn, and the payoffs when the
    ruleset declares them."""
    return {"outcomes": list(res["outcomes"]), "scores": list(res["scores"]),
            "winners": list(res["winners"]), "draw": bool(res["draw"]),
            **({"payoffs": list(res["payoffs"])} if res.get("payoffs") is not None else {}),
            **({"payoffs_per": res["payoffs_per"]} if "payoffs_per" in res else {})}


class Balance:
    """Adds up game summaries (any number, in any order: the figures do not depend on
    the order) for ``players`` seats; ``figures()`` gives the statistics."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.outcomes: list[Counter] = [Counter() for _ in range(players)]
        self.scores: list[Counter] = [Counter() for _ in range(players)]
        # each seat's payoffs, when the games have them (a ``payoff`` declaration)
        self.payoffs: list[Counter] | None = None
        self.turns: Counter = Counter()
        self.moves: Counter = Counter()
        self.started = [0] * players
        self.starter_outcomes: Counter = Counter()
        self.kinds: dict[str, list[int]] = {}
        self.shared = self.drawn = 0

    def add(self, summary: dict) -> None:
        res = summary["result"]
        if len(res["outcomes"]) != self.players:
            raise ValueError(f"a game of {len(res['outcomes'])} players among games of "
                             f"{self.players}")
        self.games += 1
        self._add_result(res, 1)
        self.turns[summary["turns"]] += 1
        self.moves[summary["moves"]] += 1
        first = summary.get("first")
        if first is not None:
            self.started[first] += 1
            self.starter_outcomes[res["outcomes"][first]] += 1
        for kind, counts in summary.get("kinds", {}).items():
            mine = self.kinds.setdefault(kind, [0] * self.players)
            for s, c in enumerate(counts):
                mine[s] += c

    def add_compact(self, batch) -> None:
        """Adds the games of a batch of playouts in the compact form (``playouts.Compact``,
        none stopped by an error): the figures ``add`` gives of their summaries, each
        value first met in the same order (so a mean of values that are not whole is
        summed in the same order, to the last bit)."""
        n = self.players
        if batch.players != n:
            raise ValueError(f"a game of {batch.players} players among games of {n}")
        if batch.errors:
            raise ValueError(f"game {min(batch.errors)} of the batch stopped on an error")
        self.games += len(batch)
        for at, count in Counter(batch.result_of).items():   # (in the order met)
            self._add_result(batch.results[at], count)
        self.turns.update(batch.turns)
        self.moves.update(batch.moves)
        for (first, at), count in Counter(zip(batch.first, batch.result_of)).items():
            if first >= 0:
                self.started[first] += count
                self.starter_outcomes[batch.results[at]["outcomes"][first]] += count
        for kind, col in batch.kinds.items():
            mine = self.kinds.setdefault(kind, [0] * n)
            for s in range(n):
                mine[s] += sum(col[s::n])

    def _add_result(self, res: dict, count: int) -> None:
        """``count`` games that ended with the result ``res``: their outcomes, scores,
        payoffs, shared wins and draws."""
        for s, (outcome, score) in enumerate(zip(res["outcomes"], res["scores"])):
            self.outcomes[s][outcome] += count
            if isinstance(score, (int, float)) and not isinstance(score, bool):
                self.scores[s][score] += count
        if res.get("payoffs") is not None:
            if self.payoffs is None:
                self.payoffs = [Counter() for _ in range(self.players)]
            per = res.get("payoffs_per", 1)   # (``per D``: each payoff's value, D-ths of one)
            for s, payoff in enumerate(res["payoffs"]):
                self.payoffs[s][payoff if per == 1 else payoff / per] += count
        self.shared += count * (len(res.get("winners", ())) > 1)
        self.drawn += count * bool(res.get("draw"))

    def fair_share(self) -> float:
        """The win rate every seat would have if none had an advantage: all wins (a
        shared win counts for each winner) / (games x seats)."""
        wins = sum(o["win"] for o in self.outcomes)
        return wins / (self.games * self.players) if self.games else 0.0

    def figures(self) -> dict:
        """Every figure, as plain data (see docs/api.md, Balance statistics)."""
        fair = self.fair_share()
        return {"games": self.games, "players": self.players, "fair_share": fair,
                "shared_wins": self.shared, "drawn_games": self.drawn,
                "seats": [self._seat(s, fair) for s in range(self.players)],
                "first_player": self._first_player(fair),
                "turns": distribution(self.turns), "moves": distribution(self.moves),
                "score_histogram": joint_histogram(self.scores), "kinds": self._kinds()}

    def _seat(self, s: int, fair: float) -> dict:
        o = self.outcomes[s]
        lo, hi = wilson(o["win"], self.games)
        return {"seat": s, "wins": o["win"], "draws": o["draw"], "losses": o["loss"],
                "win_rate": o["win"] / self.games if self.games else 0.0, "ci95": [lo, hi],
                "significant": not lo <= fair <= hi, "score": distribution(self.scores[s]),
                **({"payoff": distribution(self.payoffs[s])} if self.payoffs is not None else {})}

    def _first_player(self, fair: float) -> dict:
        games = sum(self.started)
        wins = self.starter_outcomes["win"]
        rate = wins / games if games else None
        lo, hi = wilson(wins, games)
        return {"games": games, "started": list(self.started), "wins": wins,
                "draws": self.starter_outcomes["draw"], "losses": self.starter_outcomes["loss"],
                "win_rate": rate, "ci95": [lo, hi],
                "advantage": rate - fair if rate is not None else None,
                "significant": bool(games) and not lo <= fair <= hi}

    def _kinds(self) -> list[dict]:
        total = sum(sum(c) for c in self.kinds.values())
        rows = [{"kind": k, "verb": k if not k.startswith("(") else None, "count": sum(c),
                 "share": sum(c) / total if total else 0.0,
                 "per_game": sum(c) / self.games if self.games else 0.0, "seats": list(c)}
                for k, c in self.kinds.items()]
        return sorted(rows, key=lambda r: (-r["count"], r["kind"]))


def aggregate(summaries, players: int) -> dict:
    """The figures of some game summaries (``Balance`` in one call)."""
    balance = Balance(players)
    for s in summaries:
        balance.add(s)
    return balance.figures()


def distribution(counts: Counter) -> dict:
    """Summary statistics of values given as value -> how often: ``count``, ``mean``,
    ``sd`` (population), ``min``, ``median``, ``max`` (None without values) and
    ``histogram`` (see ``histogram``)."""
    n = sum(counts.values())
    if n == 0:
        return {"count": 0, "mean": None, "sd": None, "min": None, "median": None,
                "max": None, "histogram": []}
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / n
    return {"count": n, "mean": mean, "sd": math.sqrt(var), "min": min(counts),
            "median": _median(counts, n), "max": max(counts), "histogram": histogram(counts)}


def _median(counts: Counter, n: int):
    values = sorted(counts)
    lower = upper = None
    seen = 0
    for v in values:
        seen += counts[v]
        if lower is None and seen >= (n + 1) // 2:
            lower = v
        if seen >= n // 2 + 1:
            upper = v
            break
    return lower if n % 2 else (lower + upper) / 2


def histogram(counts: Counter, max_bins: int = MAX_BINS) -> list[dict]:
    """Values (value -> how often) in at most ``max_bins`` bins of equal width, each
    ``{"low", "high", "count"}`` (both ends included); whole numbers get whole bounds
    and, when there are few distinct values, one bin each (low == high)."""
    return [{"low": b["low"], "high": b["high"], "count": b["counts"][0]}
            for b in joint_histogram([counts], max_bins)]


def joint_histogram(counters: list[Counter], max_bins: int = MAX_BINS) -> list[dict]:
    """Several sets of values (one Counter each, e.g. one per seat) in the same bins
    (as ``histogram``, over all of them): ``{"low", "high", "counts"}``, one count per
    set."""
    merged: Counter = Counter()
    for c in counters:
        merged.update(c)
    if not merged:
        return []
    lo, hi = min(merged), max(merged)
    whole = all(float(v).is_integer() for v in merged)
    if whole:
        lo, hi = int(lo), int(hi)
        width = max(1, math.ceil((hi - lo + 1) / max_bins))
        edges = [(a, min(hi, a + width - 1)) for a in range(lo, hi + 1, width)]
    elif hi == lo:
        width, edges = 0, [(lo, hi)]
    else:
        width = (hi - lo) / max_bins
        edges = [(lo + i * width, hi if i == max_bins - 1 else lo + (i + 1) * width)
                 for i in range(max_bins)]
    bins: list[dict[str, Any]] = [{"low": a, "high": b, "counts": [0] * len(counters)} for a, b in edges]
    for k, c in enumerate(counters):
        for v, n in c.items():
            i = int(v - lo) // width if whole else min(len(edges) - 1, int((v - lo) / width)) if width else 0
            bins[i]["counts"][k] += n
    return bins
