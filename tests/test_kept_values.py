"""Values computed once for all the games of a program (docs/language.md, 5.9): a rule
function that reads nothing of the state but its arguments (and variables of one value)
keeps its values by its arguments in the fast Python code, also where its evaluation
reaches a function that calls itself (a search: each position's value computed once,
however often the search meets it, in every move of every game) and where its arguments
are lists (by their elements). A value read again counts the work, the calls and the
depth of calls its evaluation counted, so the budgets run out at the same move, with the
same error, as in the reference, which computes every call (tests/testdata/pure_search.meeple).
A kernel keeps those of numbers, ids and lists of them (kernel_memo.py, ``deep_call``)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.interpreter import Budgets, RuleError
from test_work_count import busiest, called, differences, reference, spent, stopped

from meeple import interpreter

SEARCH = str(Path(__file__).resolve().parent / "testdata" / "pure_search.meeple")


def play(prog, seed: int) -> list[tuple[int, int]]:
    """A game of the first moves: the (work, calls) each move counted."""
    game = prog.new_game(2, seed)
    out = []
    while not game.over:
        game.apply(0)
        out.append((spent(game), called(game)))
    return out


def test_a_search_is_computed_once_for_all_games_and_counts_every_call():
    fast = interpreter.load(SEARCH, cache=False).for_players(2)
    with reference():
        plain = interpreter.load(SEARCH, cache=False).for_players(2)
    first = play(fast, 0)
    kept = fast.kept_values
    # each position of the searches once (at most 12 * 12 piles, rows of at most 5 cards)
    assert 0 < kept < 400
    assert sum(c for _, c in first) > 10 * kept   # calls counted as if each were computed
    assert play(fast, 0) == first == play(plain, 0)
    assert fast.kept_values == kept   # the second game computed nothing again


def test_the_reference_and_the_kept_values_count_the_same_in_random_games():
    with reference():
        plain = interpreter.load(SEARCH, cache=False).for_players(2)
    fast = interpreter.load(SEARCH, cache=False).for_players(2)
    for seed in range(4):   # (the later games read the values the earlier ones kept)
        assert differences([plain, fast], 2, seed, 20) == []


@pytest.mark.parametrize("budget", ["work", "calls"])
def test_a_budget_one_short_stops_the_same_move_with_the_values_kept(budget):
    with reference():
        plain = interpreter.load(SEARCH, cache=False).for_players(2)
    played, at, most = busiest(plain, 2, 1, 20, spent if budget == "work" else called)
    short = Budgets(**{budget: most - 1})
    with reference():
        want = stopped(interpreter.load(SEARCH, budgets=short, cache=False).for_players(2), 2, 1, played)
    assert want is not None and want[0] == at and f"'{budget}' budget" in want[1]
    fast = interpreter.load(SEARCH, budgets=short, cache=False).for_players(2)
    assert stopped(fast, 2, 1, played) == want
    assert fast.kept_values > 0
    assert stopped(fast, 2, 1, played) == want   # again, its values kept from the first time


def test_the_depth_budget_stops_the_same_move_with_the_values_kept():
    """The deepest nesting a kept value's evaluation reached is counted where it is
    read: a depth budget too small for a search stops it whether it is computed or read."""
    played = [(0, 0), (1, 0), (0, 0)]
    outcomes = set()
    for depth in range(4, 14):
        short = Budgets(depth=depth)
        with reference():
            want = stopped(interpreter.load(SEARCH, budgets=short, cache=False).for_players(2), 2, 1, played)
        fast = interpreter.load(SEARCH, budgets=short, cache=False).for_players(2)
        play(interpreter.load(SEARCH, cache=False).for_players(2), 0)   # (another program's values)
        for _ in range(2):   # computed, then read
            assert stopped(fast, 2, 1, played) == want, depth
        outcomes.add(None if want is None else want[0])
    assert outcomes == {0, None}   # (some depths stop the first move, the deepest search; some none)


@pytest.mark.kernels
@needs_kernel
@pytest.mark.parametrize("budget", [None, Budgets(depth=9), Budgets(calls=3000)], ids=["enough", "depth", "calls"])
def test_a_kernel_keeps_a_search_and_counts_the_same(budget):
    """A kernel keeps the values of a function that calls itself and reads nothing of
    the state (``best`` of numbers, ``gain`` of a list) for good; each value read counts the work, the
    calls and the depth its evaluation counted, and past a budget Python plays the move
    and fails as the reference does."""
    rules = interpreter.load(SEARCH, cache=False, budgets=budget)
    assert rules.use_native(report=False, kernel_only=True)
    fast = rules.for_players(2)
    assert fast.kernel
    with reference():
        plain = interpreter.load(SEARCH, cache=False, budgets=budget).for_players(2)
    before = fast.kernel_kept_reads
    for seed in range(6):
        game, want = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not want.over:
            i = rnd.randrange(want.move_count(want.deciding[0]))
            got = [None, None]
            for k, g in enumerate((game, want)):
                try:
                    g.apply(i)
                except RuleError as e:
                    got[k] = str(e)
            assert got[0] == got[1]
            if got[1] is not None:
                break
            assert (game.work_spent, game.calls_spent) == (want.work_spent, want.calls_spent)
            assert game.state == want.state
    assert fast.kernel_kept_reads - before > 100
