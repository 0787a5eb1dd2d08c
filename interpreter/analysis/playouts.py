"""Random playouts: many whole games of uniformly random moves, from the start or from a
position, played by the program's kernel in one call where it has one
(cxx/kernel_playout.hpp), else (and for any game the kernel cannot finish) in Python,
with the same games either way.

Game ``i`` of a batch from ``seed`` is defined so (and ``meeple simulate --bot random
--seed S`` plays exactly these games):

- it starts as ``program.new_game(seed=seed + i)``; from a position, as that position
  with its generator set to ``rng.seed_state(seed + i)`` (each game draws its chance
  anew);
- seat ``s`` draws its moves as ``RandomBot(bot_seed(seed, i, s))`` does: its generator's
  state is ``rng.seed_state(bot_seed(...))`` (play/rng.py, SplitMix64) and a move among
  its ``n`` legal moves is ``rng.pick(state, n)``;
- a chance step (a position in explicit chance mode) is drawn by ``sample_chance()``.
"""
from __future__ import annotations

import copy
import gc
import marshal
import operator
from array import array
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..bots import _random_mover, bot_seed
from ..play import rng
from ..play.game import Game
from ..play.helpers import RuleError
from ..play.runtime import IllegalMove
from .stats import GameTally

MAX_MOVES = 100_000


def playouts(program, games: int, seed: int = 0, start=None, players: int | None = None,
             max_moves: int = MAX_MOVES, compact: bool = False):
    """Plays ``games`` uniformly random games of ``program`` (a Program, or a Ruleset
    with ``players``: default its fewest, at least 2) and returns one dict per game, in
    order (see the module's documentation for which games): ``game`` (its number),
    ``seed`` (``seed + game``), ``result`` (``game.result``; None when the game failed),
    ``moves`` (the decisions made in the playout), ``turns`` (``game.turn_number`` at
    its end), ``first`` (the seat of its first decision, None when several seats
    decide it or there is none), ``kinds`` (move kind -> each seat's moves, as
    ``stats.GameTally``) and ``error`` (None, or the RuleError or IllegalMove that
    stopped it; after ``max_moves`` decisions a RuleError that says so). ``start``: None
    (new games), a ``Game`` or a plain-data state (left unchanged). ``compact``: the
    same games' numbers in one ``Compact`` instead of the dicts."""
    _check_arguments(games, seed, start, max_moves)
    program = _program(program, players)
    n = program.n
    in_range = seed >= -(1 << 63) and seed + games < (1 << 63)
    run = (seed, 0, games) if in_range and games else None
    if compact:
        return _compact(program, games, seed, start, max_moves, run)
    got = _in_kernel(program, run, start, max_moves, range(seed, seed + games), True)
    out: list = [None] * games if got is None else got
    for i in range(games):
        if out[i] is None:
            seats = [bot_seed(seed, i, s) for s in range(n)]
            out[i] = _python(program, got, seed + i, seats, start, max_moves)
            out[i]["game"] = i
    return out


def _check_arguments(games, seed, start, max_moves) -> None:
    """A TypeError or ValueError that names the argument a caller got wrong."""
    for name, value in (("games", games), ("seed", seed), ("max_moves", max_moves)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    if games < 0:
        raise ValueError("games must be 0 or more")
    if max_moves < 1:
        raise ValueError("max_moves must be 1 or more")
    if start is not None and not isinstance(start, dict) and not hasattr(start, "state"):
        raise TypeError(f"start must be None, a Game or a state (a dict), not {type(start).__name__}")


def _program(program, players: int | None):
    if hasattr(program, "for_players"):
        if players is None:
            players = min(max(2, program.min_players), program.max_players)
        return program.for_players(players)
    if players is not None and players != program.n:
        raise ValueError(f"a program for {program.n} players, not {players}")
    return program


def play_batch(program, plan: Sequence[tuple[int, Sequence[int]]], start=None,
               max_moves: int = MAX_MOVES) -> list[dict]:
    """The playouts of ``plan``: per game its seed and each seat's bot seed (``playouts``
    without the numbering); by the kernel where the program has one."""
    games = [(rng.seed_state(s), tuple(map(rng.seed_state, seats))) for s, seats in plan]
    got = _in_kernel(program, games or None, start, max_moves, [s for s, _ in plan], False)
    out: list = [None] * len(plan) if got is None else got
    for k, (game_seed, seats) in enumerate(plan):
        if out[k] is None:
            out[k] = _python(program, got, game_seed, seats, start, max_moves)
    return out


def _python(program, got, game_seed: int, seats, start, max_moves: int) -> dict:
    """A game played by ``reference`` (``got``: the kernel's answers, None where no kernel
    plays: where it has some, a game it could not finish counts as a fallback)."""
    if got is None:
        return reference(program, game_seed, seats, start, max_moves)
    program._kernel.fallbacks += 1
    return reference(program, game_seed, seats, start, max_moves, kernel=False)


def reference(program, game_seed: int, seats: Sequence[int], start=None,
              max_moves: int = MAX_MOVES, kernel: bool = True) -> dict:
    """One playout played move by move through the ``Game`` API (by Python, or by a
    kernel a move at a time; not by it without ``kernel``): what the kernel's batch must
    give."""
    movers = [_random_mover(s) for s in seats]
    tally = GameTally()
    out: dict[str, Any] = {"seed": game_seed, "result": None, "moves": 0, "turns": 0,
                           "first": None, "kinds": {}, "error": None}
    moves = 0
    try:
        game = _begin(program, game_seed, start, kernel)   # (the setup may fail: the game's error)
        game.undo_limit = 0
        while not game.over:
            if game.at_chance:
                game.sample_chance()
                continue
            if moves >= max_moves:
                raise RuleError(f"the game did not end after {max_moves} moves")
            decision = game.decision
            seat = decision.player
            tally.note(game, seat, decision)
            game.apply(movers[seat](game, seat), seat=seat, safe=False)
            moves += 1
        out["result"] = game.result
        out["turns"] = game.turn_number
    except (RuleError, IllegalMove) as e:
        out["error"] = e
    out["moves"], out["first"] = moves, tally.first
    out["kinds"] = {k: list(v) for k, v in tally.kinds.items()}
    return out


def _begin(program, game_seed: int, start, kernel: bool):
    if start is None:
        return program.new_game(program.n, game_seed) if kernel else Game.new(program, program.n, game_seed)
    state = dict(start if isinstance(start, dict) else start.state, rng=rng.seed_state(game_seed))
    return program.resume(state, check=False) if kernel else Game.from_state(program, state, check=False)


def _in_kernel(program, games, start, max_moves: int, seeds: Sequence[int], numbered: bool | None):
    """The kernel's playouts of ``games`` (a list of (generator, seeds' bytes), or a run
    (seed, first, count); see cxx/kernel_playout.hpp), game k of seed ``seeds[k]`` (and
    numbered k where ``numbered``): None for a game it cannot finish; None for all where
    no kernel plays the program or the position, or ``games`` is None. The kernel makes
    each game's dict, its result a copy of the one ``_Results`` made for an equal one.
    ``numbered`` None: the compact form, (columns, results, unfinished) (see
    ``Compact``)."""
    k = getattr(program, "_kernel", None)
    if k is None or games is None:
        return None
    if start is None:
        target = k.module
    elif getattr(start, "program", None) is program and getattr(start, "go_live", None) is not None \
            and start.go_live():
        target = start._k
    else:
        target = k.load(start if isinstance(start, dict) else start.state)
        if target is None:
            return None
    shape = None if numbered is None else (_kind_names(k), _Results.of(program).made, seeds, numbered)
    # (the games' answers are many small dicts and lists: no collection walks the heap
    # meanwhile)
    was = gc.isenabled()
    gc.disable()
    try:
        return target.playouts(games, max_moves, shape)
    finally:
        if was:
            gc.enable()


class Compact:
    """The numbers of a batch of playouts (``playouts(..., compact=True)``): the same
    games as the dicts, without a Python object per game. Per game ``i``: ``moves[i]``,
    ``turns[i]``, ``first[i]`` (-1 for None), ``result_of[i]`` (the place of its result
    in ``results``, -1 where the game stopped on an error: ``errors[i]``); per game and
    seat ``p``: ``scores[i * players + p]`` and, where the ruleset declares a payoff,
    ``payoffs[i * players + p]`` (counted in ``payoffs_per`` parts of one; else None);
    ``kinds``: per kind of move some game made (the dict form's ``kinds``), its moves
    ``kinds[kind][i * players + p]``. The arrays are ``array.array('q')``; ``results``
    holds the games' different ``game.result`` dicts (an equal one may recur)."""

    def __init__(self, players: int, games: int, columns: Sequence[array | None], results: list, paid: bool,
                 per: int, names: Sequence[str] = ()):
        self.players, self.games, self.results, self.payoffs_per = players, games, results, per
        self.errors: dict[int, Exception] = {}
        cols = [col if col is not None else _zeros(width * games)
                for col, width in zip(columns, (1, 1, 1, 1, players, players if paid else 0))]
        self.moves, self.turns, self.first, self.result_of, self.scores, payoffs = cols
        self.payoffs: array | None = payoffs if paid else None
        # (the kernel's counts per decision and seat, None where no game made a move at
        # it, the decisions of one kind added up)
        self.kinds: dict[str, array] = {}
        for name, col in zip(names, columns[6:]):
            if col is not None:
                had = self.kinds.get(name)
                self.kinds[name] = col if had is None else array("q", map(operator.add, had, col))

    def __len__(self) -> int:
        return self.games

    def result(self, i: int) -> dict | None:
        """Game ``i``'s ``game.result`` (None where it stopped on an error)."""
        at = self.result_of[i]
        return None if at < 0 else self.results[at]

    def outcome_counts(self) -> dict[str, list[int]]:
        """Per outcome (``"win"``, ``"draw"``...), per seat the games that seat ended so."""
        out: dict[str, list[int]] = {}
        for at, count in Counter(self.result_of).items():
            if at >= 0:
                for p, name in enumerate(self.results[at]["outcomes"]):
                    out.setdefault(name, [0] * self.players)[p] += count
        return out

    def _put(self, i: int, got: dict) -> None:
        """Game ``i``'s numbers from its dict (a game played in Python)."""
        n, res = self.players, got["result"]
        self.moves[i], self.turns[i] = got["moves"], got["turns"]
        self.first[i] = -1 if got["first"] is None else got["first"]
        for kind, counts in got["kinds"].items():
            col = self.kinds.get(kind)
            if col is None:
                col = self.kinds[kind] = _zeros(self.games * n)
            col[i * n:(i + 1) * n] = array("q", counts)
        if got["error"] is not None:   # (its scores and payoffs: 0 already)
            self.errors[i], self.result_of[i] = got["error"], -1
            return
        self.result_of[i] = len(self.results)
        self.results.append(res)
        self.scores[i * n:(i + 1) * n] = array("q", res["scores"])
        if self.payoffs is not None:
            self.payoffs[i * n:(i + 1) * n] = array("q", res["payoffs"])


def _zeros(size: int) -> array:
    """``size`` 64-bit zeros."""
    return array("q", [0]) * size


def _compact(program, games: int, seed: int, start, max_moves: int, run, first: int = 0) -> Compact:
    """``playouts`` in the compact form: the kernel's numbers where it plays the games (its
    results each made once), the rest played in Python and put in their place: game ``k``
    of the batch is game ``first + k`` of the run from ``seed``; ``run`` (seed, first,
    games) for the kernel, or None (Python plays them all)."""
    n, payoff = program.n, program.checked.payoff
    paid = payoff is not None
    per = 1 if payoff is None or payoff.per is None else payoff.per
    got = _in_kernel(program, run, start, max_moves, range(seed + first, seed + first + games), None)
    names: Sequence[str] = ()
    columns: Sequence[array | None] = (None,) * 6
    unfinished = games
    if got is None:
        results = []
    else:
        columns, raws, unfinished = got
        made = _Results.of(program).made
        results = _copies([made(raw) for raw in raws])
        names = _kind_names(program._kernel)
    out = Compact(n, games, columns, results, paid, per, names)
    # (the games the kernel could not finish, as many as it says)
    todo = range(games) if got is None else \
        [i for i, at in enumerate(out.result_of) if at < 0] if unfinished else ()
    for i in todo:
        seats = [bot_seed(seed, first + i, s) for s in range(n)]
        out._put(i, _python(program, got, seed + first + i, seats, start, max_moves))
    return out


def _copies(values: list) -> list:
    """A copy of each of ``values`` that shares nothing with it or with another but its
    atoms (numbers, strings), as ``copy.deepcopy`` makes each: by marshal (version 2,
    which keeps no references) in one step where they are plain data, ten times as fast."""
    try:
        return marshal.loads(marshal.dumps(values, 2))
    except ValueError:
        return [copy.deepcopy(v) for v in values]


def run_compact(program, seed: int, first: int, count: int, max_moves: int = MAX_MOVES) -> Compact:
    """Games ``first`` to ``first + count - 1`` of ``playouts(program, ..., seed,
    compact=True)`` (those of ``meeple simulate --seed SEED`` with random bots), as one
    ``Compact`` whose game ``k`` is game ``first + k`` of the run."""
    _check_arguments(count, seed, None, max_moves)
    if not isinstance(first, int) or first < 0:
        raise ValueError("first must be a whole number, 0 or more")
    in_range = seed >= -(1 << 63) and seed + first + count < (1 << 63)
    run = (seed, first, count) if in_range and count else None
    return _compact(program, count, seed, None, max_moves, run, first)


def _kind_names(kernel) -> tuple[str, ...]:
    """The kind of move of each of the kernel's decisions, as ``stats.move_kind`` names it."""
    return tuple(verb if verb else f"({tc})" for tc, verb, _alone in kernel.sites)


class _Results:
    """``game.result`` of a kernel's results (the tuple ``result()`` gives), each made once
    per program (a batch's games end in few different ways) and kept: the kernel gives
    each game a copy of it (cxx/kernel_playout.hpp, ``result_copy``), never the one kept."""

    def __init__(self, program):
        from ..native.kgame import kernel_result
        self.program, self.make, self.known = program, kernel_result, {}

    @classmethod
    def of(cls, program) -> _Results:
        """The program's own (kept on it: simulate asks for one game at a time)."""
        made = program.__dict__.get("_playout_results")
        if made is None:
            made = program.__dict__["_playout_results"] = cls(program)
        return made

    def made(self, got: tuple):
        """``game.result`` of the kernel's ``got`` (kept where marshal can key it)."""
        try:
            key = marshal.dumps(got)
        except ValueError:
            return self.make(self.program, copy.deepcopy(got))
        made = self.known.get(key)
        if made is None:
            if len(self.known) > 4096:
                self.known.clear()
            # (the kernel's tuple read back from its bytes: a copy of it, as deepcopy
            # makes, in a tenth of the time)
            made = self.known[key] = self.make(self.program, marshal.loads(key))
        return made
