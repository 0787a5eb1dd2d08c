"""The lets a counted decision leaves unmade (interpreter/native/kernel_unread.py): where a
perft counts the options of its last decision, a list set just before the ``choose``
and read only after it (the moves its names stand for) is not made, and the counts, the
divides and the budgets' errors are Python's. The kernels are built with -O0 here
(conftest.py)."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, least_budget, program_of
from meeple.interpreter import Budgets, RuleError
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

# A decision among names, the cells and marks they stand for in two lists made beside
# them (the same clauses: left unmade when counted), one list made by other clauses
# (made), and more cells to name at every turn (the second decision counts the most work).
PLANS = """ruleset plans
players 2..2
kind Stone { }
board grid: grid(rows: 4, cols: 4) holds Stone
var turns: int = 0
var total: int = 0
function tags(c: grid): list of str = if c.col % 2 == 0 then ["a", "b"] else ["c"]
turn {
  let spots = [c for c in cells(grid) if c.row <= turns + 1]
  let names = [c.name + t for c in spots for t in tags(c)]
  let plans = [c for c in spots for t in tags(c)]
  let others = [c for c in spots if c.col > 1]
  let marks = [t for c in spots for t in tags(c)]
  choose mv from names as "go"
  let i = first(j for j in 0..(size(names) - 1) if names[j] == mv)
  total = total + plans[i].col + size(others) + (if marks[i] == "a" then 10 else 0)
  turns = turns + 1
}
end when turns == 3
score(p) = total
"""


_program = compiler(PLANS, "plans.meeple")


def test_the_lists_a_counted_decision_does_not_read_are_not_made_and_the_counts_are_pythons():
    fast, plain = _program(True), _program(False)
    source = kernel.Gen(plain).source()
    assert source.count("if (COUNTING && s.work >= uw_") == 2   # (plans and marks; not others)
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    for _ in range(2):
        assert [interpreter.perft(a, d) for d in (1, 2, 3)] == [interpreter.perft(b, d) for d in (1, 2, 3)]
        assert interpreter.divide(a, 2) == interpreter.divide(b, 2)
        a.apply(3)
        b.apply(3)
        assert a.live and a.state == b.state
    assert fast.native_fallbacks == 0


def test_a_list_left_unmade_fails_for_want_of_work_as_in_python():
    """With one unit of work less than the count needs, the work runs out in a list the
    last decision does not read (the second turn names more cells than the first): the
    kernel makes it, and fails as Python does; with just enough, it counts them all."""
    def perft(native: bool, work: int):
        program = _program(native, Budgets(work=work))
        try:
            return interpreter.perft(program.new_game(2, 0), 2), program.native_fallbacks
        except RuleError as e:
            return str(e)
    least = least_budget(lambda work: isinstance(perft(False, work), str), 10_000)
    failed = perft(False, least - 1)
    assert isinstance(failed, str) and "plans.meeple:13:" in failed and "'work' budget" in failed   # (marks)
    assert perft(True, least - 1) == failed
    assert perft(True, least) == (perft(False, least)[0], 0)   # (no move left to Python)


# Two made lists, each the twin of a list left unmade after both (the second's clauses
# walk fewer elements): each unmade list takes its own twin's work, never the last made's.
TWINS = """ruleset twins
players 2..2
kind Stone { }
board grid: grid(rows: 4, cols: 4) holds Stone
var turns: int = 0
var total: int = 0
function tags(c: grid): list of str = if c.col % 2 == 0 then ["a", "b", "c", "d"] else ["c", "e", "f"]
turn {
  let spots = [c for c in cells(grid) if c.row <= turns + 1]
  let big = [c for c in cells(grid) for t in tags(c)]
  let small = [c for c in spots]
  let big2 = [t for c in cells(grid) for t in tags(c)]
  let small2 = [c for c in spots]
  choose mv from small as "go"
  total = total + mv.col + size(big) + size(big2) + size(small2)
  turns = turns + 1
}
end when turns == 3
score(p) = total
"""


def test_each_list_left_unmade_takes_its_own_twins_work():
    def perft(native: bool, work: int):
        program = program_of(TWINS, "twins.meeple", native, Budgets(work=work))
        try:
            return interpreter.perft(program.new_game(2, 0), 2), program.native_fallbacks
        except RuleError as e:
            return str(e)
    assert kernel.Gen(program_of(TWINS, "twins.meeple", False)).source().count(
        "if (COUNTING && s.work >= uw_") == 2   # (big2 and small2)
    least = least_budget(lambda work: isinstance(perft(False, work), str), 10_000)
    failed = perft(False, least - 1)
    assert isinstance(failed, str) and "twins.meeple:13:" in failed and "'work' budget" in failed
    assert perft(True, least - 1) == failed
    assert perft(True, least) == (perft(False, least)[0], 0)
