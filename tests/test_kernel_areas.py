"""The size or emptiness of a component of a board's cells, or of the cells beside one,
read in a kernel from the bits of the zones' index (interpreter/native/kernel_areas.py):
``size(liberties(group(c)))``, ``empty(liberties(group(n)))`` with ``group``,
``stones`` and ``liberties`` as go writes them, rule functions' calls looked through.
Components of a top's value (a start that passes and one that does not), of empty
cells, of every cell; a test through a call, a negated one, a relation whose rows hold
their own cell; the cells beside them by the same relation or another, empty, occupied
or all; a start that is none; on a board whose cells fill less than a word,
and one of two words after a board of other cells (the index's first bits not the
board's). Stones taken and played again change the groups between moves and within one:
the same moves, states, work and games as Python. Where the test is not one cell's bit,
or the list is read otherwise, the list is walked as before; ``MEEPLE_KERNEL_AREAS=0``
walks every one."""
from __future__ import annotations

import random
import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

BOARDS = {"small": "grid(rows: 5, cols: 5)", "big": "grid(rows: 9, cols: 9)"}

HEAD = """ruleset areas
players 2..2
enum Colour { black, white }
kind Stone { colour: Colour }
board side: grid(rows: 2, cols: 3) holds Stone
board point: BOARD holds Stone
zone box: Stone
zone bowl: Stone per player
zone taken: Stone per player
deck stones into box { 32 of Stone(colour: c) for c in Colour }
relation adjacent(a: point, b: point) = abs(a.col - b.col) + abs(a.row - b.row) == 1
relation diagonal(a: point, b: point) = abs(a.col - b.col) == 1 and abs(a.row - b.row) == 1
relation near(a: point, b: point) = abs(a.col - b.col) <= 1 and abs(a.row - b.row) <= 1
var seen: int = 0
var turns: int = 0
var mark: point = none

function colour_of(p: player): Colour = if seat(p) == 1 then black else white
function other(k: Colour): Colour = if k == black then white else black
function is(c: point, k: Colour): bool = occupied(c) and top(c).colour == k
function group(c: point): list of point = stones(c, top(c).colour)
function stones(c: point, k: Colour): list of point =
  connected(x for x in adjacent(c) if occupied(x) and top(x).colour == k)
function liberties(g: list of point): list of point =
  distinct([n for c in g for n in adjacent(c) if empty(n)])
function corners(g: list of point): list of point =
  distinct([n for c in g for n in diagonal(c) if not empty(n)])
function around(g: list of point): list of point = distinct([n for c in g for n in adjacent(c)])
function region(c: point): list of point = connected(x for x in adjacent(c) if empty(x))
function reach(c: point): list of point = connected(x for x in adjacent(c))
# (a relation whose rows hold their own cell; a test through a call; a negated test)
function kin(c: point, k: Colour): list of point = connected(x for x in near(c) if is(x, k))
function holes(g: list of point): list of point = distinct([n for c in g for n in near(c) if not occupied(n)])
# (not so: a test that is not the top's value alone; a test of the group's cell too)
function low(c: point, k: Colour): list of point =
  connected(x for x in adjacent(c) if occupied(x) and top(x).colour == k and x.row > 1)
function others(g: list of point): list of point = distinct([n for c in g for n in adjacent(c) if n != c])
"""

RULES = HEAD + """
setup {
  for s in items(box) { move s to bowl(if s.colour == black then players[0] else players[1]) }
}
turn {
  turns = turns + 1
  let me = colour_of(active)
  choose c from [x for x in cells(point) if empty(x)] as "play"
  move top(bowl(active)) to c
  for n in adjacent(c) {
    if is(n, other(me)) and empty(liberties(group(n))) {
      for s in group(n) { move top(s) to taken(active) }
    }
  }
  if turns % 7 == 0 and size(taken(active)) > 0 and any(empty(x) for x in cells(point)) {
    move top(taken(active)) to first(x for x in cells(point) if empty(x))
  }
  let far = last(x for x in cells(point) if empty(x))
  seen = seen + size(liberties(group(c))) + 3 * size(stones(c, other(me))) + 7 * size(stones(c, me))
    + 11 * size(region(mark)) + 13 * (if far == none then 0 else size(region(far)))
    + 17 * size(corners(group(c))) + 19 * size(around(stones(c, me))) + 23 * size(reach(c))
    + (if empty(corners(stones(c, other(me)))) then 29 else 0)
    + 31 * size(low(c, me)) + 37 * size(others(group(c))) + 43 * size(holes(kin(c, me)))
    + 41 * sum(size(liberties(group(x))) + size(corners(group(x))) for x in cells(point) if occupied(x))
  mark = if turns % 3 == 0 then none else c
}
end when turns >= 60 or all(occupied(x) for x in cells(point))
score(p) = if seat(p) == 1 then seen else size(taken(p))
"""

# (only lists the kernel walks: no component counted by bits)
WALKED = HEAD + """
turn {
  turns = turns + 1
  let me = colour_of(active)
  choose c from [x for x in cells(point) if empty(x)] as "play"
  move first(s for s in items(box) if s.colour == me) to c
  let g = group(c)
  seen = seen + size(low(c, me)) + 3 * size(others(group(c))) + size(g) + size([x for x in group(c) if x.row > 2])
}
end when turns >= 20
score(p) = if seat(p) == 1 then seen else size(taken(p))
"""

compiled = {name: compiler(RULES.replace("BOARD", board), f"areas_{name}.meeple") for name, board in BOARDS.items()}


def _counts(source: str) -> list[str]:
    """The C++ functions of the counts' shapes (one per shape)."""
    return re.findall(r"static I (T\d+)_slow\(St& s, uint32_t b_, [^;]*\{", source)


@needs_kernel
@pytest.mark.parametrize("board,words", [("small", 1), ("big", 2)])
def test_sizes_of_groups_and_the_cells_beside_them_are_counted_by_bits(board, words):
    source = kernel.Gen(compiled[board](False)).source()
    # (liberties, stones, region, reach, corners, around, holes: seven shapes; low's
    # and others' lists walked as before)
    assert len(_counts(source)) == 7
    assert f"area_walk<{words}>(" in source
    # (corners' cells by another relation: its rows read again; around's by the walk's own)
    assert source.count(f"area_near<{words}>(") == 1
    assert "uF_low(" in source or "uK_low(" in source or "uC_low(" in source


@needs_kernel
def test_lists_read_otherwise_are_walked_and_the_switch_turns_the_bits_off(monkeypatch):
    source = kernel.Gen(compiler(WALKED.replace("BOARD", BOARDS["small"]), "walked.meeple")(False)).source()
    assert "area_walk<" not in source.split("static I T", 1)[-1] and not _counts(source)
    monkeypatch.setenv("MEEPLE_KERNEL_AREAS", "0")
    assert not _counts(kernel.Gen(compiled["small"](False)).source())


@needs_kernel
@pytest.mark.parametrize("board", list(BOARDS))
def test_counted_groups_keep_python_s_state_after_every_move(board):
    fast, plain = compiled[board](True), compiled[board](False)
    assert kernel_plays_as_python(fast, plain, 4) > 60 and fast.native_fallbacks == 0


@needs_kernel
@pytest.mark.parametrize("board", list(BOARDS))
def test_each_move_counts_python_s_work_and_calls(board):
    fast, plain = compiled[board](True), compiled[board](False)
    moves = 0
    for seed in range(3):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            i = rnd.randrange(b.move_count())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            moves += 1
            assert (a.work_spent, a.calls_spent) == (b.work_spent, b.calls_spent), (seed, moves)
    assert moves > 40 and fast.native_fallbacks == 0


@needs_kernel
@pytest.mark.parametrize("board", list(BOARDS))
def test_counted_groups_play_python_s_games_and_count_its_work(board):
    kernel_playouts_as_python(compiled[board](True), compiled[board](False), 20, seed=5)
    work_counted_as_python(compiled[board], 14, 1 << 16)
