"""The payoff declaration in the kernel (issue 35: every engine implements every
construct; issue 36: the kernel wherever a game is played): the kernel computes the
payoffs when a game ends, as it computes the scores, so

- a game of a payoff ruleset played by its kernel (the auction of tests/testdata, the
  pennies of docs/language.md §5.12.3) keeps Python's state after every move and ends
  with Python's result, payoffs included, read from the kernel (the game stays live: no
  Python game is made to compute them);
- a batch of playouts of a payoff ruleset is played in the kernel, in one call, and
  gives the reference's games;
- payoffs whose sum is not the one declared stop the game with the reference's rule
  error, at the same place, in a game and in playouts."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, plain_games as plain
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.analysis import playouts as playouts_module
from meeple.interpreter.native.kgame import KernelGame

from meeple import interpreter

pytestmark = pytest.mark.kernels

AUCTION = str(Path(__file__).resolve().parent / "testdata" / "first_price_auction.meeple")


def _pennies() -> str:
    from docs_support import COMPLETE
    return next(b.text for b in COMPLETE if b.header == ("ruleset", "pennies"))


def _fingers() -> str:
    """docs/language.md's payoff counted in halves (``per 2 summing to 1``)."""
    from docs_support import COMPLETE
    return next(b.text for b in COMPLETE if b.header == ("ruleset", "fingers"))


def from_text(text: str, players: int):
    """The program its kernel plays, and the Python one."""
    src = SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})
    rules = compile_sources(src)
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel
    return fast, compile_sources(src).for_players(players)


def from_file(path: str, players: int):
    rules = interpreter.load(path)
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel
    return fast, interpreter.load(path).for_players(players)


@needs_kernel
@pytest.mark.parametrize("which,players", [("auction", 2), ("auction", 3), ("pennies", 2), ("fingers", 2)])
def test_a_kernel_ends_a_payoff_game_with_python_s_result(which, players):
    fast, python = from_file(AUCTION, players) if which == "auction" else \
        from_text(_pennies() if which == "pennies" else _fingers(), players)
    payoffs = set()
    for seed in range(6):
        a, b = fast.new_game(players, seed), python.new_game(players, seed)
        assert isinstance(a, KernelGame)
        rnd = random.Random(seed)
        while not b.over:
            assert a.live and kernel_difference(a.kernel_state(), b) is None, seed
            seat = rnd.choice(b.deciding)   # (in a simultaneous decision, any seat still to choose)
            i = rnd.randrange(b.move_count(seat))
            a.apply(i, safe=False, seat=seat)
            b.apply(i, safe=False, seat=seat)
        assert a.over and a.result == b.result and "payoffs" in a.result
        assert a.live   # (the result is the kernel's: no Python game was made to compute it)
        payoffs.add(tuple(a.result["payoffs"]))
    assert len(payoffs) > 1   # (games that end in different ways)
    assert fast.native_fallbacks == 0


@needs_kernel
def test_playouts_of_a_payoff_ruleset_are_the_kernel_s_and_the_reference_s():
    fast, python = from_file(AUCTION, 3)
    want = interpreter.playouts(python, 20, seed=5)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game, in one call)
        got = interpreter.playouts(fast, 20, seed=5)
    assert plain(got) == plain(want)
    assert all(g["error"] is None and g["result"]["payoffs"] == g["result"]["scores"] for g in got)
    assert len({tuple(g["result"]["payoffs"]) for g in got}) > 3
    assert fast.native_fallbacks == 0
    # the shared form: one payoff every seat has
    shared = _pennies().replace("ruleset pennies", "ruleset shared").replace(
        "payoff(p) = if matched() == (seat(p) == 1) then 1 else -1 summing to 0",
        "payoff = if matched() then 2 else 3")
    fast, python = from_text(shared, 2)
    want = interpreter.playouts(python, 12, seed=1)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts_module, "reference", None)
        got = interpreter.playouts(fast, 12, seed=1)
    assert plain(got) == plain(want)
    assert {tuple(g["result"]["payoffs"]) for g in got} == {(2, 2), (3, 3)}


# a zero-sum declaration whose sum is not 0 when three play
GIFTS = """ruleset gifts
players 2..3
var given: int per player = 0
var done: bool = false
turn {
  choose g from [1, 2, 3] as "give"
  given(active) = g
  if seat(active) == player_count() { done = true }
}
end when done
score(p) = given(p)
payoff(p) = if seat(p) == 1 then given(p) else 0 - given(players[0]) summing to 0
"""


@needs_kernel
def test_a_sum_other_than_the_declared_one_is_the_reference_s_rule_error():
    fast, python = from_text(GIFTS, 3)
    errors = []
    for program in (fast, python):
        game = program.new_game(3, 0)
        for _ in range(2):
            game.apply(0)
        with pytest.raises(RuleError) as e:
            game.apply(2)
        errors.append(str(e.value))
    assert errors[0] == errors[1]
    assert "sum to -1, not 0" in errors[0] and "rules.meeple:12" in errors[0] and "bug" not in errors[0]
    # in playouts: every game ends so, the same error as the reference's
    got, want = interpreter.playouts(fast, 4, seed=2), interpreter.playouts(python, 4, seed=2)
    assert plain(got) == plain(want)
    assert all("as declared ('summing to 0')" in g["error"][1] for g in plain(got))
    # two seats: the sum is 0, and the kernel computes it
    fast, python = from_text(GIFTS, 2)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts_module, "reference", None)
        got = interpreter.playouts(fast, 6, seed=2)
    assert plain(got) == plain(interpreter.playouts(python, 6, seed=2))
    assert all(sum(g["result"]["payoffs"]) == 0 for g in got)


@needs_kernel
def test_payoffs_counted_per_d_are_python_s_and_their_sum_is_the_values():
    """``per 2 summing to 1``: the kernel's integers sum to 2 (its declared sum is N x D),
    its result says ``payoffs_per``; a sum the values miss is the reference's rule error."""
    fast, python = from_text(_fingers(), 2)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game, in one call)
        got = interpreter.playouts(fast, 30, seed=3)
    assert plain(got) == plain(interpreter.playouts(python, 30, seed=3))
    assert all(g["error"] is None and g["result"]["payoffs_per"] == 2 and sum(g["result"]["payoffs"]) == 2
               for g in got)
    assert {tuple(g["result"]["payoffs"]) for g in got} == {(2, 0), (1, 1), (0, 2)}
    assert fast.native_fallbacks == 0
    fast, python = from_text(_fingers().replace("per 2 summing to 1", "per 2 summing to 2"), 2)
    errors = []
    for program in (fast, python):
        game = program.new_game(2, 0)
        game.apply(0, seat=0)
        with pytest.raises(RuleError) as e:
            game.apply(0, seat=1)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "the payoffs [1/2, 1/2] sum to 1, not 2" in errors[0]
