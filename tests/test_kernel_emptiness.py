"""``empty(f(...))`` and ``occupied(f(...))`` of a rule function whose body is a
comprehension of two loops or more, its element a list of names (checkers'
``occupied(jumps(c))``): the function's loops in place, its elements counted, no list
made (interpreter/native/kernel_emptiness.py); an element that may fail or count is
made, the function called. The same games, states and work as Python."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, games_and_work_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset hops
players 2..2
kind Man { seat: int }
board b: grid(rows: 5, cols: 5) holds Man
zone box: Man
deck men into box { 12 of Man(seat: s) for s in 1..2 }
var seen: int = 0
function hops(c: b, s: int): list of list of b =
  [[c, t] for dr in [-1, 1] for dc in [-1, 1]
     for o in [cell(b, row: c.row + dr, col: c.col + dc)]
     for t in [cell(b, row: c.row + 2 * dr, col: c.col + 2 * dc)]
     if t != none and empty(t) and occupied(o) and top(o).seat != s]
function rows(c: b): list of list of int = [[c.row * k, d] for k in [1, 2] for d in [c.col, seen % 3] if d > 1]
turn {
  let s = seat(active)
  choose x from [c for c in cells(b) if empty(c)] as "place"
  move first(m for m in items(box) if m.seat == s) to x
  seen = seen + count(c for c in cells(b) if occupied(c) and occupied(hops(c, s)))
    + (if empty(hops(x, 3 - s)) then 1 else 0) + size(hops(x, s))
    + (if occupied(rows(x)) then 2 else 0)
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


compiled = compiler(RULES, "hops.meeple")


def test_emptiness_of_a_function_s_comprehension_counts_its_elements_in_place():
    source = kernel.Gen(compiled(False)).source()
    # (size() makes the list: a call; occupied() and empty() count in place; rows'
    # element, which multiplies, is made: a call)
    assert len(re.findall(r"uF_hops\(s, ", source)) == 1
    assert len(re.findall(r"uF_rows\(s, ", source)) == 1
    assert len(re.findall(r"return uV\d+_n != 0; \}\(\)\)", source)) == 1
    assert len(re.findall(r"return uV\d+_n == 0; \}\(\)\)", source)) == 1


@needs_kernel
def test_emptiness_counted_in_place_gives_python_s_games_and_work():
    games_and_work_as_python(compiled, 8, 2, 9, 1 << 15)
