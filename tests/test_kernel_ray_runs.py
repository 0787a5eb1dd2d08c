"""A count of the cells along a ray that pass one cell's test before the first that does
not, ``count(y for y in until(z for z in ray(c, ...) if not mine(z, p)) if mine(y, p))``
(a line's length from a cell, each direction two rays), read in a kernel from the ray's
cells as the bits of a word (interpreter/native/kernel_tops.py, ``TopWalks.ray_run``;
kernel_walk_views.py, ``ray_bits``): the first of them whose bit is clear in the row of
the index the test reads (``TopWalks.cell_bit``), and the ray's cells before it counted,
where it walked the ray cell by cell. Rays up and down the cells' numbers, in steps of 1
and 2, from every kind of cell (a corner: rays of no cell), on a board whose cells fill a
word (8 x 8) and on one of fewer; a board of more cells than a word walks as before; tops
that change (stacked, taken, moved back): the same moves, states, work and games as
Python."""
from __future__ import annotations

import re

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    stepped_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

BOARDS = {"small": "grid(rows: 6, cols: 7)", "full": "grid(rows: 8, cols: 8)", "big": "grid(rows: 9, cols: 9)"}

RULES = """ruleset ray_runs
players 2..2
kind Disc { seat: int, var mark: int = 0 }
zone supply: Disc
board b: BOARD holds Disc
zone taken: Disc per player
deck discs into supply { 60 of Disc(seat: s) for s in 1..2 }
var seen: int = 0
var turns: int = 0

function mine(c: b, p: player): bool = occupied(c) and top(c).seat == seat(p)
function run(c: b, dr: int, dc: int, p: player): int =
  count(y for y in until(z for z in ray(c, row: dr, col: dc) if not mine(z, p)) if mine(y, p))
# (the same count of a test written out, a step of two cells)
function hop(c: b, dc: int, p: player): int =
  count(y for y in until(z for z in ray(c, row: 2, col: dc) if not (occupied(z) and top(z).seat == seat(p)))
        if occupied(y) and top(y).seat == seat(p))
# (not so: the count's test another than the until's)
function mixed(c: b, p: player): int =
  count(y for y in until(z for z in ray(c, row: 1, col: 1) if not mine(z, p)) if occupied(y))
function lines(c: b, p: player): int =
  sum(run(c, d[0], d[1], p) + run(c, -d[0], -d[1], p) for d in [[0, 1], [1, 0], [1, 1], [1, -1]])

turn {
  turns = turns + 1
  choose x from [c for c in cells(b) if empty(c) or turns % 9 == 0] as "place"
  let m = first(m for m in items(supply) if m.seat == seat(active))
  move m to x
  let foe = first(c for c in cells(b) if occupied(c) and top(c).seat != seat(active) and c.row == x.row)
  if foe != none and turns % 4 == 0 {
    move top(foe) to taken(active)
  }
  if turns % 6 == 0 and size(taken(active)) > 0 {
    move top(taken(active)) to x
  }
  seen = seen + 100 * lines(x, active) + 7 * hop(x, 1, active) + 5 * hop(x, -2, active)
    + 3 * mixed(x, active) + run(cell(b, row: 1, col: 1), -1, -1, active)
}
end when turns >= 48
score(p) = if seat(p) == 1 then seen else size(taken(p))
"""

compiled = {name: compiler(RULES.replace("BOARD", board), f"ray_runs_{name}.meeple") for name, board in BOARDS.items()}


@needs_kernel
def test_a_run_along_a_ray_is_read_from_its_cells_bits():
    for name in ("small", "full"):
        source = kernel.Gen(compiled[name](False)).source()
        for fn in ("run", "hop"):
            assert re.search(r"const RayBits\* \w+ = RAY\d+_bits_at\(", function_text(source, fn)), (name, fn)
        assert "_bits_at(" not in function_text(source, "mixed"), name
        # (the rays' cells as bits, made from their rows when the module loads)
        assert re.search(r"static RayBits RAY\d+_bits\[\d+\]; static void RAY\d+_bits_fill\(\)", source), name
    # (81 cells: more than a word of bits, walked as before)
    assert "RayBits" not in kernel.Gen(compiled["big"](False)).source()


@needs_kernel
@pytest.mark.parametrize("board", list(BOARDS))
def test_runs_along_rays_keep_python_s_state_after_every_move(board):
    fast, plain = compiled[board](True), compiled[board](False)
    assert kernel_plays_as_python(fast, plain, 4) > 150 and fast.native_fallbacks == 0


@needs_kernel
@pytest.mark.parametrize("board", ["small", "full"])
def test_runs_along_rays_play_python_s_games_and_count_its_work(board):
    kernel_playouts_as_python(compiled[board](True), compiled[board](False), 30, seed=2)
    work_counted_as_python(compiled[board], 8, 1 << 16)


# (runs that reach the ray's end, up and down the cells' numbers: every move counts them)
ENDS = """ruleset ray_ends
players 2..2
kind Disc { seat: int }
zone supply: Disc
board b: grid(rows: 3, cols: 5) holds Disc
deck discs into supply { 8 of Disc(seat: s) for s in 1..2 }
var seen: int = 0
var turns: int = 0
function mine(c: b, p: player): bool = occupied(c) and top(c).seat == seat(p)
function run(c: b, dr: int, dc: int, p: player): int =
  count(y for y in until(z for z in ray(c, row: dr, col: dc) if not mine(z, p)) if mine(y, p))
setup {
  for k in 1..5 { move first(m for m in items(supply) if m.seat == 1) to cell(b, row: 1, col: k) }
}
turn {
  turns = turns + 1
  choose x from [c for c in cells(b) if empty(c)] as "place"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + run(cell(b, row: 1, col: 1), 0, 1, players[0]) + 10 * run(cell(b, row: 1, col: 5), 0, -1, players[0])
}
end when turns == 6
score(p) = seen + seat(p)
"""


@needs_kernel
def test_runs_to_the_ray_s_end_count_python_s_work():
    ends = compiler(ENDS, "ray_ends.meeple")
    assert re.search(r"RAY\d+_bits_at\(", function_text(kernel.Gen(ends(False)).source(), "run"))
    work_counted_as_python(ends, 3, 1 << 14)
    stepped_as_python(ends, (3, 4))   # (too much counted caught too)
