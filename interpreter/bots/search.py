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

from ..play.helpers import RuleError
from ..play.runtime import IllegalMove

#: a rollout stops after this many moves by default (the position then counts as even)
ROLLOUT_LIMIT = 400
#: how often a seat in a simultaneous decision tries a move at random during search
EXPLORE_SIMULTANEOUS = 0.25
#: playouts per move when neither iterations nor time is given
ITERATIONS = 200
#: with a ruleset heuristic, a rollout stops after this many moves by default and the
#: heuristic values the position it reached (0: the heuristic values the new leaf itself)
CUTOFF = 0
#: the gain in heuristic lead over the best other seat worth about 3 to 1 (see hint_values)
SCALE = 10.0


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


class HeuristicError(RuleError):
    """The ruleset's heuristic broke a rule: the search stops with it (unlike a drawn game
    the rules cannot play on, which only spoils one iteration)."""


def leads(game) -> list[float] | None:
    """Each seat's heuristic lead over the best other seat (its own heuristic with one
    seat), or None when the ruleset declares no heuristic. Raises HeuristicError."""
    n = game.players
    try:
        h = [game.heuristic(p) for p in range(n)]
    except RuleError as e:
        err = HeuristicError(str(e))
        err.__dict__.update(e.__dict__)
        raise err from None
    if h[0] is None:
        return None
    if n == 1:
        return [float(h[0])]
    return [h[p] - max(h[q] for q in range(n) if q != p) for p in range(n)]


def hint_values(game, scale: float = SCALE, base: list[float] | None = None) -> list[float] | None:
    """Each seat's value in [0, 1] of a position by the ruleset's heuristic (None when it
    declares none): the logistic of how much the seat's lead over the best other seat
    grew since the position ``base`` (its leads; without it, the lead itself),
    ``1 / (1 + exp(-gain / scale))``: 0.5 for no gain, about 0.73 for a gain of ``scale``.
    (Gains, not leads: a game already far ahead or behind would value every move alike.)
    Raises HeuristicError."""
    now = leads(game)
    if now is None:
        return None
    base = base or [0.0] * len(now)
    return [_logistic((x - b) / scale) for x, b in zip(now, base)]


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    if x > 60:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


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
                 c: float = 1.4, rollout: int = ROLLOUT_LIMIT, heuristic: int = 1,
                 cutoff: int = CUTOFF, scale: float = SCALE, history: bool = False):
        self.rng = random.Random(seed)
        if iterations is None:
            iterations = ITERATIONS if time is None else None
        self.iterations, self.time, self.c, self.rollout = iterations, time, c, rollout
        # the ruleset's heuristic cuts rollouts short (heuristic=0: never)
        self.use_hint, self.cutoff, self.scale = bool(heuristic), cutoff, scale
        self.hinted = False  # whether the game being searched has a heuristic
        self.base: list[float] | None = None  # the heuristic leads at the root
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
        self.hinted = self.use_hint and position.has_heuristic
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.monotonic() >= deadline:
                break
            game = position.sample(self.rng, self.history) if fixed is None \
                else position.again(fixed, self.rng)
            if self.hinted and (self.resample or done == 0):
                self.base = leads(game)  # (ismcts: the root of each drawn game)
            game.undo_limit = 0  # (played on and dropped: no move of it is taken back)
            try:
                self._iterate(root, game)
            except HeuristicError:
                raise
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
        """Random moves to the end (at most ``rollout`` of them; with a heuristic, at most
        ``cutoff``, then the heuristic values the position): each seat's reward."""
        rng, n = self.rng, game.players
        left = min(self.cutoff, self.rollout) if self.hinted else self.rollout
        # (a game a kernel plays takes the steps in one call: KernelGame.random_moves)
        fast = getattr(game, "random_moves", None)
        while left > 0:
            if game.over:
                return rewards(game.result, n)
            done = None if fast is None else fast(rng, left)
            if done:
                left -= done
                continue
            left -= 1
            if game.at_chance:
                game.sample_chance()
                continue
            seat = game.active_player
            game.apply(rng.randrange(game.move_count(seat)), safe=False, seat=seat)
        if game.over:
            return rewards(game.result, n)
        if self.hinted:
            return hint_values(game, self.scale, self.base)
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
    the seat knows (hidden items dealt anew; by default agreeing with the moves it saw
    since the last random step, see determinize.Past), so it never reads the hidden state."""

    name = "ismcts"
    resample = True

    def __init__(self, seed: int = 0, history: bool = True, **options):
        super().__init__(seed, history=history, **options)


class GreedyBot:
    """One ply: the move whose result is best for its seat (ties: the first). With a
    ruleset heuristic, the result is the position right after the move (chance steps
    drawn), valued by the heuristic; without one, ``samples`` random playouts of each move."""

    name = "greedy"
    wants_position = True

    def __init__(self, seed: int = 0, samples: int = 4, rollout: int = ROLLOUT_LIMIT,
                 heuristic: int = 1, scale: float = SCALE):
        self.rng = random.Random(seed)
        self.samples, self.rollout = samples, rollout
        self.use_hint, self.scale = bool(heuristic), scale

    def choose_position(self, position) -> int:
        seat, moves = position.seat, position.moves
        if len(moves) == 1:
            return 0
        hinted = self.use_hint and position.has_heuristic
        player = SearchBot(0, rollout=self.rollout, heuristic=int(hinted), cutoff=0,
                           scale=self.scale)
        player.rng, player.hinted = self.rng, hinted
        best, best_value = 0, -1.0
        for i, _ in enumerate(moves):
            total = 0.0
            for _ in range(self.samples):
                game = position.sample(self.rng)
                game.undo_limit = 0  # (played on and dropped: no move of it is taken back)
                try:
                    if hinted:
                        player.base = leads(game)
                    game.apply(i, safe=False, seat=seat)
                    while hinted and game.at_chance:
                        game.sample_chance()
                    total += player._playout(game)[seat]
                except HeuristicError:
                    raise
                except (RuleError, IllegalMove):
                    pass  # a drawn game the rules cannot play on: it counts as lost
            if total > best_value:
                best, best_value = i, total
        return best
