"""The random rollouts of the search bots (mcts, ismcts, greedy) in one kernel call
(``KernelGame.random_moves``, cxx/kernel_rollout.hpp): the same steps, the same draws of
the bot's generator and the same final position as the Python loop of
``SearchBot._playout``, so that the bots choose the same moves with and without a kernel;
a step the kernel cannot take (a rule error) is Python's."""
from __future__ import annotations

import json
import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import bot_move, compile_sources, make_bot
from meeple.interpreter.native.kgame import KernelGame

from meeple import interpreter

pytestmark = pytest.mark.kernels


def programs(ruleset, players: int):
    """The program a kernel plays, and the Python one."""
    rules = interpreter.load(ruleset) if isinstance(ruleset, str) else ruleset()
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel
    python = (interpreter.load(ruleset) if isinstance(ruleset, str) else ruleset()).for_players(players)
    return fast, python


def python_steps(game, rng: random.Random, limit: int) -> int:
    """SearchBot._playout's loop, step by step: the steps taken."""
    for done in range(limit):
        if game.over:
            return done
        if game.at_chance:
            game.sample_chance()
            continue
        seat = game.active_player
        game.apply(rng.randrange(game.move_count(seat)), safe=False, seat=seat)
    return limit


@needs_kernel
@pytest.mark.parametrize("ruleset,chance", [("kalah", "seeded"), ("backgammon", "explicit")])
def test_a_kernel_rollout_takes_the_python_loop_s_steps_and_draws(ruleset, chance):
    fast, python = programs(ruleset, 2)
    steps = []
    for seed in range(3):
        game = fast.new_game(2, seed=seed, chance=chance)
        want_game = python.new_game(2, seed=seed, chance=chance)
        rng, want_rng = random.Random(seed), random.Random(seed)
        for _ in range(seed * 300):   # (the generator mid-block: its index kept)
            rng.random(), want_rng.random()
        while not want_game.over:
            limit = 7 + seed
            want = python_steps(want_game, want_rng, limit)
            got = game.random_moves(rng, limit)
            assert game.live and got == want
            steps.append(got)
            assert rng.getstate() == want_rng.getstate()
        assert game.over and game.result == want_game.result
        # (what the kernel played is played again in Python when the state is read)
        assert json.dumps(game.state, sort_keys=True) == json.dumps(want_game.state, sort_keys=True)
        game.undo(), want_game.undo()   # (each of its moves is one to take back)
        assert json.dumps(game.state, sort_keys=True) == json.dumps(want_game.state, sort_keys=True)
    assert len(steps) > 3 and fast.native_fallbacks == 0


def counting(monkeypatch) -> dict:
    """Counts the kernel's rollouts and the steps of the Python loop (it alone asks
    ``move_count``) while a kernel plays."""
    calls = {"rollouts": 0, "steps": 0}
    rollout, move_count = KernelGame.random_moves, KernelGame.move_count

    def rollouts(self, *args):
        calls["rollouts"] += 1
        return rollout(self, *args)

    def steps(self, *args):
        calls["steps"] += 1
        return move_count(self, *args)
    monkeypatch.setattr(KernelGame, "random_moves", rollouts)
    monkeypatch.setattr(KernelGame, "move_count", steps)
    return calls


def bot_games(program, spec: str, moves: int, seed: int = 2, chance: str = "seeded"):
    """``moves`` moves of a game (or fewer: to its end) with the bot in every seat: the
    moves chosen, and the bots."""
    n = program.n
    game = program.new_game(n, seed=seed, chance=chance)
    bots = [make_bot(spec, seed=seed * 10 + s) for s in range(n)]
    chosen = []
    while not game.over and len(chosen) < moves:
        if game.at_chance:
            game.sample_chance()
            continue
        seat = game.deciding[0]
        i = bot_move(bots[seat], game, seat)
        chosen.append((seat, game.apply(i, seat=seat).notation))
    return chosen, bots


@needs_kernel
@pytest.mark.parametrize("ruleset,players,spec,chance", [
    ("kalah", 2, "mcts:iterations=12", "seeded"),
    ("backgammon", 2, "mcts:iterations=6,heuristic=0", "explicit"),
    ("backgammon", 2, "mcts:iterations=6,cutoff=8", "seeded"),   # (the heuristic at the end)
    ("hearts", 4, "ismcts:iterations=6,rollout=60", "seeded"),
    ("kalah", 2, "greedy:samples=2", "seeded"),
], ids=["kalah-mcts", "backgammon-mcts", "backgammon-cutoff", "hearts-ismcts", "kalah-greedy"])
def test_search_bots_choose_the_same_moves_with_rollouts_in_the_kernel(
        ruleset, players, spec, chance, monkeypatch):
    fast, python = programs(ruleset, players)
    want, _ = bot_games(python, spec, 4, chance=chance)
    calls = counting(monkeypatch)
    got, _ = bot_games(fast, spec, 4, chance=chance)
    assert got == want
    assert calls["rollouts"] > 0 and calls["steps"] == 0   # (no rollout step by step)
    assert fast.native_fallbacks == 0


BOOM = """ruleset boom
players 2..2
var n: int = 0
turn {
  choose k from [1, 2, 3] as "pick"
  n = n + k
  if n > 9 { n = 100 / (n - n) }
}
end when n > 50
"""


def boom():
    return compile_sources(SourceSet(base=parse(BOOM, "rules.meeple"), sources={"rules.meeple": BOOM}))


@needs_kernel
def test_a_rollout_step_that_breaks_a_rule_is_python_s(monkeypatch):
    fast, python = programs(boom, 2)
    want, want_bots = bot_games(python, "mcts:iterations=10", 2)
    calls = counting(monkeypatch)
    got, bots = bot_games(fast, "mcts:iterations=10", 2)
    assert got == want and calls["rollouts"] > 0
    # (the rollouts broke the rule: each such iteration failed, in Python as natively)
    assert [b.failed for b in bots] == [b.failed for b in want_bots] and bots[0].failed > 0
    assert [b.rng.getstate() for b in bots] == [b.rng.getstate() for b in want_bots]
    assert fast.native_fallbacks > 0
    # the step the kernel could not play was played in Python: its error, the rng after it
    game, want_game = fast.new_game(2, seed=1), python.new_game(2, seed=1)
    rng, want_rng = random.Random(4), random.Random(4)
    with pytest.raises(interpreter.RuleError, match="division by zero") as err:
        game.random_moves(rng, 100)
    with pytest.raises(interpreter.RuleError, match="division by zero") as want_err:
        python_steps(want_game, want_rng, 100)
    assert str(err.value) == str(want_err.value) and rng.getstate() == want_rng.getstate()
