"""Random playouts: many whole games of uniformly random moves, from the start or from a
position, played by the program's kernel in one call where it has one
(cxx/kernel_playout.hpp), else (and for any game the kernel cannot finish) in Python,
with the same games either way.

Game ``i`` of a batch from ``seed`` is defined so (and ``meeple simulate --bot random
--seed S`` plays exactly these games):

- it starts as ``program.new_game(seed=seed + i)``; from a position, as that position
  with its generator set to ``rng.seed_state(seed + i)`` (each game draws its chance
  anew);
- seat ``s`` draws its moves as ``RandomBot(bot_seed(seed, i, s))`` does: a move is
  ``rng.randrange(n)`` of its ``n`` legal moves, with ``rng = random.Random(bot_seed(...))``;
- a chance step (a position in explicit chance mode) is drawn by ``sample_chance()``.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..bots import _random_mover, bot_seed
from ..play import rng
from ..play.helpers import RuleError
from ..play.runtime import IllegalMove
from .stats import GameTally

MAX_MOVES = 100_000


def playouts(program, games: int, seed: int = 0, start=None, players: int | None = None,
             max_moves: int = MAX_MOVES) -> list[dict]:
    """Plays ``games`` uniformly random games of ``program`` (a Program, or a Ruleset
    with ``players``: default its fewest, at least 2) and returns one dict per game, in
    order (see the module's documentation for which games): ``game`` (its number),
    ``seed`` (``seed + game``), ``result`` (``game.result``; None when the game failed),
    ``moves`` (the decisions made in the playout), ``turns`` (``game.turn_number`` at
    its end), ``first`` (the seat of its first decision, None when several seats
    decide it or there is none), ``kinds`` (move kind -> each seat's moves, as
    ``stats.GameTally``) and ``error`` (None, or the RuleError or IllegalMove that
    stopped it; after ``max_moves`` decisions a RuleError that says so). ``start``: None
    (new games), a ``Game`` or a plain-data state (left unchanged)."""
    if games < 0:
        raise ValueError("games must be 0 or more")
    program = _program(program, players)
    plan = [(seed + i, tuple(bot_seed(seed, i, s) for s in range(program.n))) for i in range(games)]
    out = play_batch(program, plan, start, max_moves)
    for i, game in enumerate(out):
        game["game"] = i
    return out


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
    got = _in_kernel(program, plan, start, max_moves)
    out = []
    for k, (game_seed, seats) in enumerate(plan):
        done = None if got is None else got[k]
        if done is None:
            if got is not None:
                program._kernel.fallbacks += 1
            out.append(reference(program, game_seed, seats, start, max_moves))
        else:
            out.append(_from_kernel(program, game_seed, done))
    return out


def reference(program, game_seed: int, seats: Sequence[int], start=None,
              max_moves: int = MAX_MOVES) -> dict:
    """One playout played move by move through the ``Game`` API (by Python, or by a
    kernel a move at a time): what the kernel's batch must give."""
    game = _begin(program, game_seed, start)
    game.undo_limit = 0
    movers = [_random_mover(random.Random(s)) for s in seats]
    tally = GameTally()
    out: dict[str, Any] = {"seed": game_seed, "result": None, "moves": 0, "turns": 0,
                           "first": None, "kinds": {}, "error": None}
    moves = 0
    try:
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


def _begin(program, game_seed: int, start):
    if start is None:
        return program.new_game(program.n, game_seed)
    state = start if isinstance(start, dict) else start.state
    return program.resume(dict(state, rng=rng.seed_state(game_seed)), check=False)


def _in_kernel(program, plan, start, max_moves: int) -> list | None:
    """The kernel's answers for the games of ``plan`` (None for a game it cannot finish),
    or None where no kernel plays the program or the position."""
    k = getattr(program, "_kernel", None)
    if k is None or not plan:
        return None
    if start is None:
        target = k.module
    elif getattr(start, "_k", None) is not None and start.program is program:
        target = start._k
    else:
        go_live = getattr(start, "go_live", None)
        if go_live is not None and start.program is program and go_live():
            target = start._k
        else:
            target = k.load(start if isinstance(start, dict) else start.state)
            if target is None:
                return None
    games = [(rng.seed_state(s), tuple(_words(b) for b in seats)) for s, seats in plan]
    return target.playouts(games, max_moves)


def _words(seed: int) -> tuple[int, ...]:
    """The 32-bit words ``random.Random(seed)`` seeds its generator with (least
    significant first; the seed's absolute value)."""
    seed = abs(seed)
    return tuple((seed >> (32 * j)) & 0xFFFFFFFF for j in range(max(1, (seed.bit_length() + 31) // 32)))


def _from_kernel(program, game_seed: int, done: tuple) -> dict:
    from ..native.kgame import kernel_result
    res, moves, turns, first, counts = done
    sites, kinds = program._kernel.sites, {}
    for j in range(0, len(counts), 3):
        tc, verb, _alone = sites[counts[j]]
        kind = verb if verb else f"({tc})"
        mine = kinds.get(kind)
        if mine is None:
            mine = kinds[kind] = [0] * program.n
        mine[counts[j + 1]] += counts[j + 2]
    return {"seed": game_seed, "result": kernel_result(program, res), "moves": moves, "turns": turns,
            "first": first, "kinds": kinds, "error": None}
