"""A range whose ends are numbers written out counts its elements against the work
budget as one constant in a kernel (interpreter/native/kernel_charges.py): no call of
``range_work``, nothing for an empty range, ``range_work`` still where an end is not
written out or the range is longer than the range budget (it bails there as before). The
same work at the same place as Python's: the kernel plays as Python plays, and a work
budget runs out at the same move with the same error."""
from __future__ import annotations

import re

from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_plays_as_python, work_counted_as_python
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, compile_sources
from meeple.interpreter.native import kernel

# rows of three: loops over ranges of numbers written out (nested within an any, in a
# function called for each line, an empty one, one that makes the board), and one whose
# end is a parameter
RULES = """ruleset lines
players 2..2
var at: list of int = [0 for k in 1..9]
var moves: int = 0
var spread: int = 0
function line(r: int, c: int, dr: int, dc: int, s: int): bool =
  all(at[(r + k * dr) * 3 + c + k * dc] == s for k in 0..2)
function three(s: int): bool =
  any(line(r, 0, 0, 1, s) for r in 0..2) or any(line(r, c, 1, 0, s) for r in 0..0 for c in 0..2)
  or line(0, 0, 1, 1, s) or line(0, 2, 1, -1, s) or any(line(0, 0, 0, 0, s) for k in 3..1)
function upto(n: int): int = sum(k for k in 1..n)
turn {
  choose k from [k for k in 0..8 if at[k] == 0] as "put"
  at = [if j == k then seat(active) else at[j] for j in 0..8]
  moves = moves + 1
  spread = upto(k)
}
end when three(1) or three(2) or moves == 9
score(p) = if three(seat(p)) then 1 else 0
"""


def compiled(native: bool, budgets=None):
    src = SourceSet(base=parse(RULES, "lines.meeple"), sources={"lines.meeple": RULES})
    prog = compile_sources(src, budgets=budgets) if budgets is not None else compile_sources(src)
    if native:
        assert prog.use_native(report=False, kernel_only=True)
    return prog.for_players(2)


def test_a_range_of_numbers_written_out_counts_one_constant():
    source = kernel.Gen(compiled(False)).source()
    line, three = function_text(source, "line"), function_text(source, "three")
    assert "W(s, 3);" in line and "range_work" not in line
    # (0..2, 0..0, 0..2 within it; 3..1 counts nothing)
    assert re.findall(r"W\(s, (\d+)\)", three) == ["3", "1", "3"] and "range_work" not in three
    assert "W(s, 9);" in source   # (the board made anew: 0..8)
    # an end that is a parameter: its length counted as it is walked
    assert "range_work(s, " in function_text(source, "upto")


def test_a_range_longer_than_the_range_budget_is_left_to_range_work():
    source = kernel.Gen(compiled(False, Budgets(range=2))).source()
    assert "range_work(s, " in function_text(source, "line")
    assert "W(s, 3)" not in function_text(source, "three")


@needs_kernel
def test_games_of_such_ranges_stay_python_s_after_every_move():
    assert kernel_plays_as_python(compiled(True), compiled(False), 8) > 40


@needs_kernel
def test_the_work_counted_is_python_s():
    work_counted_as_python(compiled, 5, 2000)
