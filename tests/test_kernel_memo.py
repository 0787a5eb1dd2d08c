"""Rule functions computed once per position in a kernel (issue 36 item 4, issue 37 item
9: interpreter/core/memo.py decides, interpreter/native/kernel_memo.py writes the C++):
a function called over and over while the state stays the same (go's
``liberties(group(n))`` for each neighbour of each candidate point) is computed once for
the same arguments, and a component (``connected`` from a cell) once for all its cells
where the order of its cells does not matter. The values, the states, the moves and
the work and calls counted against the budgets are Python's; the kernel reads its keep
(``program.kernel_kept_reads`` counts the values read) rather than computing again."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, lists_walked, needs_kernel  # noqa: F401 - the fixtures
from lockstep import kernel_difference, least_budget, program_of
from meeple.interpreter import RuleError
from meeple.interpreter.compiler import codegen
from meeple.interpreter.native.kgame import KernelGame
from test_components import GAME, RULES, TURN

from meeple import interpreter

pytestmark = pytest.mark.kernels


def compiled(text: str, native: bool, budgets=None):
    return program_of(text, "memo.meeple", native, budgets)


def first_turn(prog):
    """The variables after the first turn (no decision: the turn ends the game), or the
    error (text, rule, place)."""
    try:
        return prog.new_game(2, 1).state["vars"]
    except RuleError as e:
        return str(e), e.rule, e.span


@pytest.mark.usefixtures("lists_walked")
@needs_kernel
def test_a_position_s_values_are_read_from_the_keep_counting_python_s_work(monkeypatch):
    # the least work budget with which Python plays the first turn (as the
    # straightforward code counts it, which the kernel follows: the fast code may count
    # less, see tests/test_components.py): the kernel plays it with that budget, with
    # Python's values, reading its keep; with one less, it fails as Python does
    monkeypatch.setattr(codegen, "OPTIMIZE", False)

    def fails(prog) -> bool:
        return not isinstance(first_turn(prog), dict)

    lo = least_budget(lambda work: fails(compiled(RULES + TURN, False, interpreter.Budgets(work=work))), 1 << 16)
    fast = compiled(RULES + TURN, True, interpreter.Budgets(work=lo))
    plain = compiled(RULES + TURN, False, interpreter.Budgets(work=lo))
    assert fast.kernel
    before = fast.kernel_kept_reads
    got = first_turn(fast)
    assert got == first_turn(plain) and fast.native_fallbacks == 0
    assert got["x"] == 41 * 100 + 5 and got["order"] == plain.ns["BOARD_g"][:5]
    # liberty_total and big_groups ask the group of each of the 9 stones, probe the size
    # of each group, then the first row's list as found from (1, 1): each of the 4
    # groups found once per evaluation, read for its other 5 stones in liberty_total
    # (their liberties too: the same list given), for all 9 in big_groups (the same
    # evaluation), for 5 in probe
    assert fast.kernel_kept_reads - before >= 5 + 9 + 5
    fast = compiled(RULES + TURN, True, interpreter.Budgets(work=lo - 1))
    plain = compiled(RULES + TURN, False, interpreter.Budgets(work=lo - 1))
    got, want = first_turn(fast), first_turn(plain)
    assert isinstance(got, tuple) and got == want and "the 'work' budget" in got[0]
    assert fast.native_fallbacks == 1


@pytest.mark.usefixtures("lists_walked")
@needs_kernel
def test_random_games_with_captures_keep_python_s_state_after_every_move():
    fast, plain = compiled(RULES + GAME, True), compiled(RULES + GAME, False)
    before, moves, failed = fast.kernel_kept_reads, 0, 0
    for seed in range(8):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            n = b.move_count()
            assert a.move_count() == n
            i = rnd.randrange(n)
            errors = []
            for game in (a, b):
                try:
                    game.apply(i)
                except RuleError as e:   # (no point left where a stone has a liberty)
                    errors.append(str(e))
            assert len(errors) in (0, 2) and len(set(errors)) <= 1, errors
            if errors:
                failed += 1
                break
            moves += 1
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
    assert moves > 60 and fast.native_fallbacks == failed   # (the kernel played every move)
    assert fast.kernel_kept_reads > before


def test_the_functions_kept_per_position_are_those_called_over_and_over():
    prog = compiled(RULES + GAME, False)
    facts = prog.facts
    # the turn's options call libs(group(n)) for each neighbour n of each cell p
    assert {"group", "libs", "stones"} <= facts.repeated
    assert facts.memoised("libs") and facts.memoised("group")
    assert facts.component("stones") == 0 and facts.component("group") is None
    # called once per evaluation where they are called: nothing to keep
    assert not facts.memoised("liberty_total") and not facts.memoised("probe")
