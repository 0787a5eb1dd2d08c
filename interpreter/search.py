"""Search bots: UCT (``mcts``), information-set MCTS (``ismcts``) and one-ply ``greedy``.

A search bot is given a ``Position`` (see bots.bot_move), never the game: it may ask for
games consistent with what its seat knows (``position.sample(rng)``: a determinization,
see determinize.py, with the random generator seeded again) and play them out.

The tree is "open loop": a node is a sequence of decisions (seat, move notation) from the
root, not a state, and each iteration plays its sampled game down the tree again. So
chance (dice, shuffles: drawn anew in every sample) and hidden items (dealt anew in every
ismcts sample) need nothing special; a move that is legal in some samples only is chosen
among those available now (UCB over its availability count, as in single-observer
ISMCTS). A simultaneous decision is one node where each seat still to choose picks its
own move from its own statistics (decoupled UCT), so no seat's choice depends on
another's. Rewards are per seat, from the game's result (see ``rewards``), and every node
keeps each move's statistics from the view of the seat that makes it (max^n).
"""
from __future__ import annotations

import math
import random
import time

from .helpers import RuleError
from .runtime import IllegalMove

#: a rollout stops after this many moves by default (the position then counts as even)
ROLLOUT_LIMIT = 400
#: how often a seat in a simultaneous decision tries a move at random during search
EXPLORE_SIMULTANEOUS = 0.25
#: playouts per move when neither iterations nor time is given
ITERATIONS = 200


def rewards(result: dict, n: int) -> list[float]:
    """Each seat's reward in [0, 1] for a finished game: a win 1, a draw 0.5, a loss 0;
    with more than two seats a loss is worth up to 0.5 by rank (the last place 0)."""
    outcomes, ranks = result.get("outcomes"), result.get("ranks")
    out = []
    for p in range(n):
        o = outcomes[p] if outcomes else None
        if o == "win":
            out.append(1.0)
        elif o == "draw":
            out.append(0.5)
        elif n > 2 and ranks:
            out.append(0.5 * (n - ranks[p]) / (n - 1))
        else:
            out.append(0.0)
    return out


class _Node:
    __slots__ = ("stats", "children")

    def __init__(self):
        self.stats: dict = {}     # (seat, notation) -> [visits, reward sum, availability]
        self.children: dict = {}  # the choices made here (a tuple of keys) -> _Node


class SearchBot:
    """Shared by mcts and ismcts: budget, exploration, rollouts and the tree search."""

    name = "search"
    resample = True  # a new determinization every iteration (ismcts), else one per move

    def __init__(self, seed: int = 0, iterations: int | None = None, time: float | None = None,
                 c: float = 1.4, rollout: int = ROLLOUT_LIMIT, history: bool = False):
        self.rng = random.Random(seed)
        if iterations is None:
            iterations = ITERATIONS if time is None else None
        self.iterations, self.time, self.c, self.rollout = iterations, time, c, rollout
        self.history = history  # samples agree with the moves seen (see determinize.Past)
        self.failed = 0  # iterations whose drawn game broke a rule (see choose_position)

    # a search bot reads the position, not the view
    wants_position = True

    def choose_position(self, position) -> int:
        seat, moves = position.seat, position.moves
        if len(moves) == 1:
            return 0
        root = _Node()
        deadline = None if self.time is None else time.monotonic() + self.time
        fixed = None if self.resample else position.sample(self.rng)
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.monotonic() >= deadline:
                break
            game = position.sample(self.rng, self.history) if fixed is None \
                else position.again(fixed, self.rng)
            try:
                self._iterate(root, game)
            except (RuleError, IllegalMove):
                # a drawn game the rules cannot play on (a hidden item dealt where the
                # rules never put one): the iteration counts, but teaches nothing
                self.failed += 1
            done += 1
        visits = [root.stats.get((seat, m), [0])[0] for m in moves]
        best = max(visits)
        if best == 0:  # no iteration could be played: a random move
            return self.rng.randrange(len(moves))
        return visits.index(best)

    def _iterate(self, root: _Node, game) -> None:
        path = []  # (node, keys chosen there)
        node = root
        expanded = False
        while not game.over and not expanded:
            if game.at_chance:
                game.sample_chance()
                continue
            keys = []
            deciding = game.deciding
            for seat in deciding:
                moves = game.legal_moves(seat)
                key, new = self._select(node, seat, moves, len(deciding) > 1)
                keys.append((key, seat, moves))
                expanded = expanded or new
            for key, seat, moves in keys:
                game.apply(_index(moves, key[1]), safe=False, seat=seat)
            chosen = tuple(k for k, _, _ in keys)
            path.append((node, chosen))
            node = node.children.setdefault(chosen, _Node())
        values = self._playout(game)
        for node, chosen in path:
            for key in chosen:
                st = node.stats[key]
                st[0] += 1
                st[1] += values[key[0]]

    def _select(self, node: _Node, seat: int, moves, simultaneous: bool) -> tuple[tuple, bool]:
        """UCB1 among the moves available now (each move's availability counted); an
        untried move first, at random. In a simultaneous decision, a move at random
        one time in EXPLORE_SIMULTANEOUS, so that the seats, each choosing from its own
        statistics, do not fall into choosing alike in step. Returns the key and
        whether it was untried."""
        stats = node.stats
        untried = []
        best, best_value = None, -1.0
        for m in moves:
            key = (seat, m.notation)
            st = stats.get(key)
            if st is None:
                st = stats[key] = [0, 0.0, 0]
            st[2] += 1
            if st[0] == 0:
                untried.append(key)
        if untried:
            return untried[self.rng.randrange(len(untried))], True
        if simultaneous and self.rng.random() < EXPLORE_SIMULTANEOUS:
            return (seat, moves[self.rng.randrange(len(moves))].notation), False
        for m in moves:
            n, w, avail = stats[(seat, m.notation)]
            value = w / n + self.c * math.sqrt(math.log(avail) / n)
            if value > best_value:
                best, best_value = (seat, m.notation), value
        return best, False

    def _playout(self, game) -> list[float]:
        """Random moves to the end (at most ``rollout`` of them): each seat's reward."""
        rng, n = self.rng, game.players
        for _ in range(self.rollout):
            if game.over:
                return rewards(game.result, n)
            if game.at_chance:
                game.sample_chance()
                continue
            seat = game.active_player
            moves = game.legal_moves(seat)
            game.apply(rng.randrange(len(moves)), safe=False, seat=seat)
        if game.over:
            return rewards(game.result, n)
        return [1.0 / n if n > 2 else 0.5] * n


def _index(moves, notation: str) -> int:
    for m in moves:
        if m.notation == notation:
            return m.index
    raise ValueError(f"no move {notation!r}")


class MctsBot(SearchBot):
    """UCT with random rollouts, for games without hidden information: one determinized
    game per move, played again each iteration with the random generator (and the other
    seats' secret choices in a simultaneous decision under way) drawn anew."""

    name = "mcts"
    resample = False


class IsmctsBot(SearchBot):
    """Information-set MCTS: every iteration plays a new game drawn consistent with what
    the seat knows (hidden items dealt anew), so it never reads the hidden state."""

    name = "ismcts"
    resample = True


class GreedyBot:
    """One ply: the move whose result is best for its seat, after ``samples`` random
    playouts of each move (ties: the first)."""

    name = "greedy"
    wants_position = True

    def __init__(self, seed: int = 0, samples: int = 4, rollout: int = ROLLOUT_LIMIT):
        self.rng = random.Random(seed)
        self.samples, self.rollout = samples, rollout

    def choose_position(self, position) -> int:
        seat, moves = position.seat, position.moves
        if len(moves) == 1:
            return 0
        player = SearchBot(0, rollout=self.rollout)
        player.rng = self.rng
        best, best_value = 0, -1.0
        for i, _ in enumerate(moves):
            total = 0.0
            for _ in range(self.samples):
                game = position.sample(self.rng)
                try:
                    game.apply(i, safe=False, seat=seat)
                    total += player._playout(game)[seat]
                except (RuleError, IllegalMove):
                    pass  # a drawn game the rules cannot play on: it counts as lost
            if total > best_value:
                best, best_value = i, total
        return best
