"""A rule function that another's body calls twice or more with the same arguments (its
parameters' names, numbers), as checkers' ``moves(s)`` calls ``own(s)`` in its test and
again in the list it makes: kept for the step (interpreter/native/kernel_epoch.py,
``called_again``), its second call reading the first's value, its work and calls counted
again. Not a keep that outlasts the step, which would note every zone read. A call
whose argument is a loop's variable is no such call, nor one of a filter walked from the
index of the cells by their top item (kernel_tops.py, ``walked_filter``: walked again
where it is called, no keep). The same games, states and work as Python."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, games_and_work_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset again
players 2..2
kind Man { seat: int }
board b: grid(rows: 5, cols: 5) holds Man
zone box: Man
deck men into box { 12 of Man(seat: s) for s in 1..2 }
var seen: int = 0
function own(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s and size(c) == 1]
function mine(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
function spread(s: int): int = sum(c.row for c in mine(s)) + count(c for c in mine(s) if c.col > 2)
function near(c: b): list of b = [d for d in cells(b) if d.row == c.row and occupied(d)]
function moves(s: int): list of b =
  if count(c for c in own(s) if c.row > 2) > 1 then [c for c in own(s) if c.col > 1] else own(s)
function rows(s: int): int = sum(size(near(c)) for c in own(s)) + sum(size(near(c)) for c in own(s))
turn {
  let s = seat(active)
  choose x from [c for c in cells(b) if empty(c)] as "place"
  move first(m for m in items(box) if m.seat == s) to x
  seen = seen + size(moves(s)) + size(moves(3 - s)) + rows(s) + spread(3 - s)
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


compiled = compiler(RULES, "again.meeple")


def test_a_function_called_again_with_the_same_arguments_is_kept_for_the_step():
    gen = kernel.Gen(compiled(False))
    source = gen.source()
    # (own(s) twice in moves and in rows; near(c), of each c of a loop, is no such
    # call; mine(s), twice in spread, is walked from the index at each)
    assert gen.called_again == {"own"}
    assert len(re.findall(r"uK_own\(s, uA_s\)", source)) == 5
    assert "uK_near" not in source and "uR_own" not in source   # (no keep past the step)
    assert "uK_mine" not in source and "uF_mine(s" not in source


@needs_kernel
def test_a_value_kept_for_a_call_again_gives_python_s_games_and_work():
    games_and_work_as_python(compiled, 8, 1, 9, 1 << 15)
