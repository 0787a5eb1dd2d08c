"""A loop over the call of a filter of one loop, its list made on the stack
(interpreter/native/kernel_filter_loops.py): the function's loop in the call's place
(a filter walked from the index of the cells by their top item: its bits, no list), the
same games and the same work as Python's."""
from __future__ import annotations

import re

from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, kernel_playouts_as_python, work_counted_as_python
from meeple.interpreter.native import kernel

# mine: the cells kept (the loop's own element: written in place, counted by the test's
# truth); cols: numbers made of the cells kept (pushed); near: two loops' worth walked
# for each of mine's cells, in a comprehension and in a sum
FILTERS = """ruleset filters
players 2..2
kind Mark { seat: int }
board b: grid(rows: 4, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
function mine(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
function cols(s: int): list of int = [c.col * 2 + s for c in cells(b) if occupied(c) and top(c).seat != s]
function near(c: b): list of b = [t for t in cells(b) if abs(t.row - c.row) + abs(t.col - c.col) == 1]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + size([[c, t] for c in mine(seat(active)) for t in near(c) if empty(t)])
    + size([k + t.row for k in cols(seat(active)) for t in near(x) if k > t.col])
}
end when size(supply) == 0
score(p) = seen * 3 + seat(p)
"""


filters = compiler(FILTERS, "filters.meeple")


def test_a_loop_over_a_filter_of_one_loop_walks_its_loop_in_place():
    source = kernel.Gen(filters(False)).source()
    # (mine and cols are never called: their loops run in the comprehensions' place)
    assert not re.search(r"uF_mine\(s, ", source) and not re.search(r"uF_cols\(s, ", source)
    assert re.search(r"Grow<Id> uV\d+_out; size_t uV\d+_n = 0;", source)     # (near's, in place)
    # (mine's cells the bits of the index of the cells by their top item: walked where
    # they are, counted first, no list at all: kernel_tops.py)
    assert re.search(r"const size_t (uV\d+_n) = \(size_t\)\(bits_set\(uV\d+_tw_r\[0\] & uV\d+_tw_m\[0\]\)\); "
                     r"W\(s, \(I\)\1\); uV\d+_out\.reserve\(", source)
    assert re.search(r"Build<I> uV\d+_out; \{ const List<Id>& uV\d+_xs = T\d+; W\(s, ", source)   # (cols')


@needs_kernel
def test_filters_walked_in_place_give_python_s_games_and_work():
    kernel_playouts_as_python(filters(True), filters(False), 12, seed=3)
    work_counted_as_python(filters, 8, 1 << 14)
