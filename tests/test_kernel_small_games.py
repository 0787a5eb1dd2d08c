"""What every short game pays in a kernel (issue 36, "speed at the limit"): ``last(...)``
of a comprehension kept as it goes, with no list made (``_over_last`` in
interpreter/core/primitives.py: connect four's landing cell); ``count``, ``sum`` and
``last`` over ``until(...)`` walking its list once, with no prefix made (connect four's
runs), and over a rule function's comprehension in its place; the bots' generators seeded
in blocks (cxx/kernel_random.hpp). Checked against the Python reference: the states after
every move, and batches of playouts."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, program_of
from meeple.interpreter.analysis import playouts as playouts_module
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kgame import KernelGame

from meeple import interpreter

pytestmark = pytest.mark.kernels

# last(...) of cells, numbers, texts and items, over boards, ranges, lists and zones,
# filtered or not, empty (none) or not, in functions, procedures and the end test
RULES = """ruleset lasts
players 2..2
kind Disc { seat: int, w: int }
board b: grid(rows: 4, cols: 4) holds Disc
zone box: Disc
deck discs into box { Disc(seat: s, w: i) for s in 1..2 for i in 1..8 }
var heaviest: int = 0
var lows: int = 0
var word: str = ""
var last_of_box: int = 0
var runs: int = 0
function landing(k: int): b = last(y for y in cells(b) if y.col == k and empty(y))
function mine(c: b, s: int): bool = occupied(c) and top(c).seat == s
function run(c: b, dr: int, dc: int, s: int): int =
  count(y for y in until(z for z in ray(c, row: dr, col: dc) if not mine(z, s)) if mine(y, s))
function weight(c: b, dr: int, dc: int): int =
  sum(top(y).w for y in until(z for z in ray(c, row: dr, col: dc) if empty(z)) if occupied(y))
function stop(c: b, dr: int): b = last(y for y in until(z for z in ray(c, row: dr, col: 0) if empty(z)))
function owned(s: int): list of b = [t for c in cells(b) for t in [c] if occupied(c) and top(c).seat == s]
function top_w(r: int): int = last(top(c).w for c in cells(b) if c.row == r and occupied(c))
turn {
  choose k from [k for k in 1..4 if empty(cell(b, row: 1, col: k))] as "drop"
  let x = landing(k)
  move last(p for p in items(box) if p.seat == seat(active)) to x
  heaviest = sum(if top_w(r) == none then 0 else top_w(r) for r in 1..4)
  runs = run(x, 1, 0, seat(active)) + run(x, 0, 1, seat(active)) + run(x, 0, -1, seat(active))
         + 10 * weight(x, 1, 0) + 100 * count(c for c in owned(seat(active)) if c.row > 1)
         + 1000 * sum(c.row for c in owned(1)) + 10000 * (if stop(x, 1) == none then 0 else stop(x, 1).row)
  lows = if landing(k) == none then 0 else landing(k).row
  word = last(t for t in ["a", "bb", "ccc"]
              if size([c for c in cells(b) if occupied(c)]) % 3 == (if t == "a" then 0 else if t == "bb" then 1 else 2))
  last_of_box = if last(p.w for p in items(box)) == none then -1 else last(p.w for p in items(box))
}
end when last(c for c in cells(b) if empty(c)) == none
score(p) = count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p) and c.row == 4)
"""


def compiled(native: bool):
    return program_of(RULES, "lasts.meeple", native)


def test_last_count_and_sum_of_a_comprehension_make_no_list_in_the_kernel():
    source = kernel.Gen(compiled(False)).source()
    assert "llast(List<" not in source   # (where a list of the elements was made for it)
    # (landing, stop, the end test: kept as they come, or the highest bit of the cells
    # that pass, kernel_bit_picks.py: landing's and the end test's)
    assert source.count("_last = NONE_ID;") >= 1 and source.count("_bm ? (Id)(") >= 2
    # (over until(...): the ray walked once, no prefix of it made to be walked again)
    assert ".prefix(" not in source


@needs_kernel
def test_last_of_a_comprehension_stays_python_s_after_every_move():
    fast, plain = compiled(True), compiled(False)
    words, weights, runs = set(), set(), set()
    for seed in range(6):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while not b.over:
            i = rnd.randrange(b.move_count())
            assert a.move_count() == b.move_count()
            a.apply(i)
            b.apply(i)
            assert kernel_difference(a.kernel_state(), b) is None, (seed, b.state["vars"])
            words.add(b.state["vars"]["word"])
            weights.add(b.state["vars"]["last_of_box"])
            runs.add(b.state["vars"]["runs"])
        assert a.result == b.result
    assert words == {"a", "bb", "ccc"} and -1 in weights and len(weights) > 3
    assert len(runs) > 20   # (runs, weights, counts and stops of many sizes)
    assert fast.native_fallbacks == 0


@needs_kernel
@pytest.mark.parametrize("games", [1, 14, 40])
def test_a_batch_of_such_games_is_the_reference_s(games, monkeypatch):
    # (the seats' generators seeded in groups of 64, as many blocks of 8 lanes as a
    # group uses, rounded up to 1, 2, 4 or 8: 2 generators, 28, then 64 and 16)
    fast, plain = compiled(True), compiled(False)
    want = interpreter.playouts(plain, games, seed=5)
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, games, seed=5)
    assert got == want


@needs_kernel
@pytest.mark.parametrize("seed", [-(10 ** 18) - 12345, 10 ** 18 + 99])
def test_a_batch_from_a_seed_of_many_digits_is_the_reference_s(seed, monkeypatch):
    # (the bots' seeds' messages at their longest in one block of SHA-256, written lane
    # by lane, each game's part once for its seats: cxx/kernel_random.hpp, bot_lanes)
    fast, plain = compiled(True), compiled(False)
    want = interpreter.playouts(plain, 20, seed=seed)
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, 20, seed=seed)
    assert got == want and len({str(g["result"]["scores"]) for g in got}) > 1
