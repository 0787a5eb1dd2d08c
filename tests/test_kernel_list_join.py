"""``a + b`` of lists in a kernel (kernel_module.py: wcat): where ``a`` is a list just
made that nothing else holds (a comprehension, a literal), b is appended where it is;
a list something else holds (a variable's, a kept value's, a parameter's) is never
changed, a new one is made. The same states and work as Python."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)

pytestmark = pytest.mark.kernels

RULES = """ruleset join
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 3) holds Mark
zone supply: Mark
deck marks into supply { 4 of Mark(seat: s) for s in 1..2 }
var seen: list of int = [7]
var total: int = 0
function base(): list of int = seen
function marks(): list of int = [c.row * 3 + c.col for c in cells(b) if occupied(c)]
function grown(xs: list of int): list of int = xs + [size(xs)]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  let a = base() + [x.row]
  let b2 = base() + [x.col, 1]
  let m = marks() + [x.row, x.col] + marks()
  let g = grown(seen) + grown([1, 2, 3]) + grown([x.row])
  seen = seen + [size(a) + size(b2)]
  total = total + sum(v for v in m) + sum(v for v in a) + sum(v for v in b2) + size(g) + sum(v for v in g)
}
end when size(supply) == 0
score(p) = (total + seat(p) + size(seen)) % 5
"""


compiled = compiler(RULES, "join.meeple")


@needs_kernel
def test_its_games_are_python_s():
    fast, python = compiled(True), compiled(False)
    kernel_plays_as_python(fast, python, 6)
    kernel_playouts_as_python(fast, python, 12, seed=3)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 4, 1 << 12)
    fast, python = compiled(True), compiled(False)
    a, b = fast.new_game(2, 1), python.new_game(2, 1)
    while not b.over:
        a.apply(0, safe=False)
        b.apply(0, safe=False)
        assert a.work_spent == b.work_spent
