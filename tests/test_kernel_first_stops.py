"""``any`` over walks along rays that must be longer than one cell (``size(l) >= 2``,
``size(l) > 1``), decided in a kernel from the bits of the rays' first cells where none
can be (interpreter/native/kernel_first_stops.py): othello's ``legal(c, s)`` (a stop of
an item variable's value, ``empty(y) or top(y).seat == s``), a stop that is a cell's
emptiness, one of a static attribute's value (``occupied(y) and top(y).tint == 1``); the
work of the walks that stop at once counted as the reference counts it. Not so: a walk
that must be longer than two cells, a board beyond a word of the index. The same moves,
states, games, work and calls as Python."""
from __future__ import annotations

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    games_and_work_as_python,
    kernel_plays_as_python,
    stepped_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset first_stops
players 2..2
kind Disc { tint: int, var seat: int = 0 }
board b: grid(rows: 6, cols: 6) holds Disc
zone box: Disc
deck discs into box { Disc(tint: i % 2) for i in 1..36 }
var over: bool = false
var seen: int = 0
function dirs(): list of list of int =
  [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]
function line(c: b, dr: int, dc: int, s: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).seat == s)
function closes(l: list of b, s: int): bool =
  size(l) >= 2 and occupied(last(l)) and top(last(l)).seat == s
function legal(c: b, s: int): bool =
  empty(c) and any(closes(line(c, d[0], d[1], s), s) for d in dirs())
# a stop that is a cell's emptiness, a test of more than one cell
function run(c: b, dr: int, dc: int): list of b = until(y for y in ray(c, row: dr, col: dc) if empty(y))
function longer(l: list of b): bool = size(l) > 1 and empty(last(l))
function hops(c: b): bool = any(longer(run(c, d[0], d[1])) for d in dirs())
# a static attribute's value, the directions written out
function path(c: b, dr: int, dc: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if occupied(y) and top(y).tint == 1)
function ends(l: list of b): bool = 2 <= size(l)
function reach(c: b): bool = any(ends(path(c, d[0], d[1])) for d in [[0, 1], [1, 0], [0, -1], [-1, 0]])
# not so: a walk that must be longer than two cells
function far(c: b, s: int): bool = any(size(line(c, d[0], d[1], s)) >= 3 for d in dirs())
procedure put(c: b, s: int) {
  let d = top(box)
  d.seat = s
  move d to c
}
setup {
  call put(cell(b, row: 3, col: 3), 2)
  call put(cell(b, row: 3, col: 4), 1)
  call put(cell(b, row: 4, col: 3), 1)
  call put(cell(b, row: 4, col: 4), 2)
}
turn {
  let s = seat(active)
  let options = [c for c in cells(b) if legal(c, s)]
  if empty(options) {
    choose none_ from options as "place" or "pass"
  } else {
    choose x from options as "place"
    let turned = [y for d in dirs() for l in [line(x, d[0], d[1], s)] for y in l
                    if closes(l, s) and y != last(l)]
    call put(x, s)
    for y in turned {
      let t = top(y)
      t.seat = s
    }
    over = not any(legal(c, 1) or legal(c, 2) for c in cells(b))
  }
  seen = seen + count(c for c in cells(b) if hops(c)) + 10 * count(c for c in cells(b) if reach(c))
    + 100 * count(c for c in cells(b) if far(c, s))
}
end when over
score(p) = count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p)) + (if seat(p) == 1 then seen else 0)
"""

compiled = compiler(RULES, "first_stops.meeple")


@needs_kernel
def test_walks_that_all_stop_at_once_are_found_from_the_first_cells_bits():
    source = kernel.Gen(compiled(False)).source()
    for name in ("legal", "hops", "reach"):
        text = function_text(source, name)
        assert "_fc = " in text and "return true; }()) && " in text, name
    assert "_fc = " not in function_text(source, "far")
    # (a board of more cells than the index's word: the walks as written)
    big = RULES.replace("grid(rows: 6, cols: 6)", "grid(rows: 9, cols: 9)").replace("1..36", "1..81")
    assert "_fc = " not in kernel.Gen(compiler(big, "big.meeple")(False)).source()


@needs_kernel
def test_such_walks_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 4) >= 80 and fast.native_fallbacks == 0


@needs_kernel
def test_such_walks_play_python_s_games_and_count_its_work():
    games_and_work_as_python(compiled, 30, 6, 6, 1 << 16)


# (a stop that is a cell's emptiness in a game where nothing else reads the zones' index:
# the zones keep it for the words the test reads)
ALONE = """ruleset hops_only
players 2..2
kind Disc { tint: int }
board b: grid(rows: 4, cols: 4) holds Disc
zone box: Disc
deck discs into box { Disc(tint: i % 2) for i in 1..16 }
var seen: int = 0
function dirs(): list of list of int = [[0, 1], [1, 0], [0, -1], [-1, 0]]
function run(c: b, dr: int, dc: int): list of b = until(y for y in ray(c, row: dr, col: dc) if empty(y))
function longer(l: list of b): bool = size(l) > 1
function hops(c: b): bool = any(longer(run(c, d[0], d[1])) for d in dirs())
turn {
  choose k from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as "pick"
  let x = cells(b)[k - 1]
  if empty(x) { move top(box) to x }
  if hops(x) { seen = seen + 1 }
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


@needs_kernel
def test_the_index_is_kept_where_only_the_first_cells_read_it():
    alone = compiler(ALONE, "hops_only.meeple")
    source = kernel.Gen(alone(False)).source()
    assert "_fc = " in function_text(source, "hops") and "Zones<NI, NZ, false, 1, 16>" in source
    stepped_as_python(alone, (1, 2))
