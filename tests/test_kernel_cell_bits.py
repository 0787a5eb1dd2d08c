"""One cell's test ``occupied(x) and top(x).A == V`` (or ``not empty(x) and ...``), x a
name of a board's cell and A an attribute no statement changes, read in a kernel as x's
bit in the row of V of the index of the cells by their top item's value
(interpreter/native/kernel_tops.py, ``TopWalks.cell_bit``), where it read the zone's
size, its top item and the item's value. A walk along a ray testing each cell it meets
(``mine(z, p)``), on a board of two words of the index and on one of a word; values in
consecutive numbers (a seat: its slot by a subtraction), numbers apart and an enum's
(their slot by a search), a value no item has; tops that change (stacked, taken, the
bottom one taken from under another, moved back): the same moves, states, work and
games as Python."""
from __future__ import annotations

import re

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset cell_bits
players 2..2
enum Colour { red, blue, green }
kind Mark { seat: int, colour: Colour, weight: int, var mark: int = 0 }
zone supply: Mark
board big: grid(rows: 9, cols: 9) holds Mark
board small: grid(rows: 3, cols: 3) holds Mark
zone taken: Mark per player
deck marks into supply {
  30 of Mark(seat: s, colour: if s == 1 then red else blue, weight: if s == 1 then 5 else 9) for s in 1..2
}
var seen: int = 0
var turns: int = 0

function mine(c: big, p: player): bool = occupied(c) and top(c).seat == seat(p)
function heavy(c: big): bool = occupied(c) and top(c).weight == 9
function tinted(c: small, k: Colour): bool = not empty(c) and k == top(c).colour
function sevens(c: big): bool = occupied(c) and top(c).seat == 7
# not so: a value of the cell's own (an attribute a statement changes: its slot where
# it is tested)
function marked(c: big, k: int): bool = occupied(c) and top(c).mark == k
function own_row(c: big): bool = occupied(c) and top(c).seat == c.row
function run(c: big, dr: int, dc: int, p: player): int =
  count(y for y in until(z for z in ray(c, row: dr, col: dc) if not mine(z, p)) if mine(y, p))
function line(c: big, p: player): int =
  max(run(c, 0, 1, p) + run(c, 0, -1, p), run(c, 1, 0, p) + run(c, -1, 0, p))

turn {
  turns = turns + 1
  choose x from [c for c in cells(big) if empty(c) or turns % 7 == 0] as "place"
  let m = first(m for m in items(supply) if m.seat == seat(active))
  m.mark = turns % 3
  move m to x
  let foe = first(c for c in cells(big) if occupied(c) and top(c).seat != seat(active) and c.row == x.row)
  if foe != none and turns % 3 == 0 {
    move top(foe) to taken(active)
  }
  let pile = first(c for c in cells(big) if size(c) > 1)
  if pile != none and turns % 5 == 0 {
    move first(i for i in items(pile)) to cell(small, row: 1 + turns % 3, col: 1 + turns % 2)
  }
  let back = cell(small, row: 1 + (turns + 1) % 3, col: 3 - seat(active))
  if turns % 4 == 0 and occupied(back) {
    move top(back) to x
  }
  seen = seen + 100 * line(x, active) + (if heavy(x) then 7 else 0) + (if sevens(x) then 1000 else 0)
    + 3 * count(r for r in 1..3 if tinted(cell(small, row: r, col: 1 + turns % 3), red))
    + 11 * count(r for r in 1..3 if tinted(cell(small, row: r, col: 2), green))
    + (if marked(x, turns % 3) then 13 else 0) + (if own_row(x) then 17 else 0)
}
end when turns >= 50
score(p) = if seat(p) == 1 then seen else size(taken(p))
"""

compiled = compiler(RULES, "cell_bits.meeple")


@needs_kernel
def test_one_cell_s_test_reads_its_bit_in_the_index():
    gen = kernel.Gen(compiled(False))
    source = gen.source()
    for name in ("mine", "heavy", "tinted", "sevens"):
        assert re.search(r"return T\d+\(s\.z\.tops_of\(T\d+\(", function_text(source, name)), name
    assert ".z.tops_of(" not in function_text(source, "own_row")
    # (an item variable: its slot found where it is tested, the index kept by the
    # statements: test_kernel_variable_tops.py)
    assert "return k_ >= 0 ? T" in function_text(source, "marked")
    # (the seats 1 and 2, the weights 5 and 9, the colours red and blue: 6 slots; the
    # mark's 0..2, its range: 3 more)
    assert gen.tops.n == 9 and "struct TopSlots { static constexpr int N = 9; static constexpr bool MUT = true;" in source
    # (a seat's slot by a subtraction; a weight's or a colour's by a search)
    assert re.search(r"static inline int T\d+\(I v\) \{ const uint64_t d = \(uint64_t\)v - \(uint64_t\)\(1LL\); "
                     r"return d < 2ULL \? 0 \+ \(int\)d : TopSlots::N; \}", source)
    assert len(re.findall(r"static inline int T\d+\(\w+ v\) \{ return eq\(", source)) == 2


@needs_kernel
def test_tests_of_one_cell_by_its_bit_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 5) > 200 and fast.native_fallbacks == 0


@needs_kernel
def test_tests_of_one_cell_by_its_bit_play_python_s_games_and_count_its_work():
    kernel_playouts_as_python(compiled(True), compiled(False), 30, seed=4)
    work_counted_as_python(compiled, 8, 1 << 16)
