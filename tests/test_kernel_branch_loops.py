"""A loop over the call of a function whose body chooses its list by a condition
(interpreter/native/kernel_branch_loops.py): the condition tested in the loop's place,
each branch's elements passed to the loops within, no list made for the branch nor for
the function's value; the same games and the same work as Python's."""
from __future__ import annotations

import re

from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, kernel_playouts_as_python, work_counted_as_python
from meeple.interpreter.native import kernel

# reach: by the mark's seat and the cell, a comprehension, a join of two, a call given a
# list known (its loop written out), a list written out, a join made (its first part a
# kept call's); called for each mark's cell with the mark (kept per position, its keep
# passed by)
BRANCHES = """ruleset branches
players 2..2
kind Mark { seat: int }
board b: grid(rows: 4, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
function near(c: b): list of b = [t for t in cells(b) if abs(t.row - c.row) + abs(t.col - c.col) == 1]
function sides(c: b, s: int): list of b =
  [t for t in cells(b) if t.row == c.row and t != c and empty(t)]
  + [t for t in cells(b) if t.col == c.col and t != c and occupied(t) and top(t).seat != s]
function steps(c: b, ds: list of list of int): list of b =
  [t for d in ds for t in cells(b) if t.row == c.row + d[0] and t.col == c.col + d[1]]
function reach(c: b, x: Mark): list of b =
  if x.seat == 1 and c.row < 2 then [t for t in near(c) if empty(t)]
  elif x.seat == 1 then [t for t in cells(b) if t.row == c.row and t != c and empty(t)]
    + [t for t in cells(b) if t.col == c.col and occupied(t) and top(t).seat != x.seat]
  elif c.col < 2 then steps(c, [[1, 1], [-1, 1], [0, 2]])
  elif c.row == 3 then [c]
  else sides(c, 3 - x.seat) + [t for t in near(c) if occupied(t)]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + size([[c, t] for c in cells(b) if occupied(c) for t in reach(c, top(c)) if t != x])
}
end when size(supply) == 0
score(p) = seen * 3 + seat(p)
"""


branches = compiler(BRANCHES, "branches.meeple")


def test_a_loop_over_a_list_chosen_by_a_condition_walks_its_branches_in_place():
    source = kernel.Gen(branches(False)).source()
    # (reach's value is made only where its keep is made: its branches run in the
    # loop's place, their elements passed to the loop within, counted, then its work)
    step = re.search(r"I2: .*", source)
    assert step is not None
    loop = step.group(0)
    assert re.search(r"I uV\d+_n = 0; auto uV\d+_visit = \[&\]\(const Id uV\d+_t\)", loop)
    assert re.search(r"if \(__builtin_expect\(T\d+\.skip != 0, 1\)\) --T\d+\.skip; else \{ I uV\d+_w = s\.work", loop)
    assert "uF_reach(s" not in loop and "uK_reach(s" not in loop
    assert re.search(r"\(void\)uKB_reach\(s, ", loop)
    assert re.search(r"W\(s, uV\d+_j\);", loop)          # (the join's sides, counted after it)
    assert loop.count("uV") and "uF_steps(s" not in loop  # (steps' loop written out, in place)


@needs_kernel
def test_branches_walked_in_place_give_python_s_games_and_work():
    kernel_playouts_as_python(branches(True), branches(False), 12, seed=3)
    work_counted_as_python(branches, 8, 1 << 14)


# rows: a list written out in each branch, one of them made at each evaluation (an
# element read from the state); fixed: both lists known before the game (kept once,
# walked where they are)
WRITTEN = """ruleset written
players 2..2
kind Mark { seat: int }
board b: grid(rows: 4, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
function rows(c: b): list of int = if top(c).seat == 1 then [-1, 1] else [top(c).seat - 3, c.col - 2]
function fixed(c: b): list of int = if top(c).seat == 1 then [-1, 1] else [2]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + size([t for c in cells(b) if occupied(c) for d in rows(c)
                      for t in [cell(b, row: c.row + d, col: c.col)] if t != none and empty(t)])
    + sum(d * c.col for c in cells(b) if occupied(c) for d in fixed(c))
}
end when size(supply) == 0
score(p) = seen * 3 + seat(p)
"""


written = compiler(WRITTEN, "written.meeple")


def test_a_list_written_out_in_a_branch_passes_its_elements_with_no_list_made():
    source = kernel.Gen(written(False)).source()
    step = re.search(r"I2: .*", source)
    assert step is not None
    loop = step.group(0)
    # (rows' elements each passed as evaluated; fixed's lists made once, walked)
    assert re.search(r"\+\+uV\d+_n; uV\d+_visit\(neg\(\(\(I\)1LL\)\)\); \+\+uV\d+_n; uV\d+_visit\(\(\(I\)1LL\)\); \} "
                     r"else \{ \+\+uV\d+_n; uV\d+_visit\(", loop)
    assert "uF_rows(s" not in loop and "List<I>::of(" not in loop
    assert "uF_fixed(s" in loop


@needs_kernel
def test_lists_written_out_passed_in_place_give_python_s_games_and_work():
    kernel_playouts_as_python(written(True), written(False), 12, seed=5)
    work_counted_as_python(written, 8, 1 << 14)
