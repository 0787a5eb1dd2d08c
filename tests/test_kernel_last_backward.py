"""``last(y for y in cells(b) if S and R)`` with a static part S (kernel_cells.py:
``y.col == k``) and conjuncts R that count nothing and cannot fail (kernel_early.py,
``last_backward``): the cells S lets through walked from the last, the first that passes R
the value, where the walk from the first tested every one (connect four's landing cell).
The same cell, work and moves as Python, on a hand-built game that drops discs into the
columns of a small board; a last whose R may fail (the top of an empty cell), or with no
static part, is walked as before. (Where R is a test of the cell's bit, the landing cell
is the highest bit of the cells that pass: kernel_bit_picks.py, tests/test_kernel_bit_picks.py.)"""
from __future__ import annotations

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    kernel_playouts_as_python,
    kernel_plays_as_python,
    program_of,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset drops
players 2..2
kind Disc { seat: int }
board b: grid(rows: 4, cols: 3) holds Disc
zone stock: Disc per player public
deck discs into box { Disc(seat: s) for s in 1..2 for i in 1..6 }
zone box: Disc
var placed: int = 0
var seen: int = 0
function landing(k: int): b = last(y for y in cells(b) if y.col == k and empty(y))
function highest(k: int, s: int): b = last(y for y in cells(b) if y.col == k and top(y).seat == s)
function lowest_empty(): b = last(y for y in cells(b) if empty(y))
function open_or_top(k: int): b = last(y for y in cells(b) if y.col == k and (empty(y) or y.row == 1))
setup {
  for d in items(box) { move d to stock(players[d.seat - 1]) }
}
turn {
  choose k from [k for k in 1..3 if empty(cell(b, row: 1, col: k))] as "drop"
  let x = landing(k)
  move top(stock(active)) to x
  placed = placed + 1
  let h = lowest_empty()
  seen = seen + open_or_top(k).row
  if h != none { seen = seen + h.row }
  if occupied(cell(b, row: 1, col: k)) {   # (the column full: no top of an empty cell)
    let m = highest(k, 3 - seat(active))
    if m != none { seen = seen + 1 }
  }
}
end when placed == 12
score(p) = seen
"""


def compiled(native: bool, budgets=None):
    return program_of(RULES, "drops.meeple", native, budgets)


@needs_kernel
def test_a_last_with_a_static_part_is_walked_from_the_last():
    source = kernel.Gen(compiled(False)).source()
    # (R a test read as bits: the highest bit of the cells that pass, kernel_bit_picks.py)
    for name in ("landing", "lowest_empty"):
        assert "__builtin_clzll" in function_text(source, name) and "-- > 0;)" not in function_text(source, name)
    assert "-- > 0;)" in function_text(source, "open_or_top")   # (R read per cell)
    assert "-- > 0;)" not in function_text(source, "highest")   # (R may fail)


@needs_kernel
def test_the_landing_cells_are_python_s():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 6) > 40 and fast.native_fallbacks == 0
    kernel_playouts_as_python(fast, plain, 30, 1)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 8, 1 << 14)
