"""One cell's test of its top item's item variable, ``occupied(x) and top(x).owner == s``
or ``empty(x) or top(x).owner == s`` (a walk's stop, othello's), read in a kernel as x's
bit in the row of the value of an index the statements keep (core/tops.py,
``cell_test``; interpreter/native/kernel_tops.py, ``cell_bit``; cxx/kernel_zones.hpp,
``retag``): each item's slot of its value kept where a statement sets the variable (an
assignment, a ``make``), where the game starts and where a state is loaded into the
kernel, and the zone's bit where the item is the top. Tested: the four forms (``and``,
``or``, ``not empty``, ``not occupied``), the cell a list's last (``closes``), a truth,
an enum's value,
values with no slot (the turn's number: the test as written), discs placed at the start
with their first values, discs stacked, the one
under the top changed then uncovered, moved off the boards and back, removed and made
again, on a board of two words of the index and on one of a word. The same moves,
states, games, work and calls as Python, and the same from a state saved and loaded
into the kernel at every move."""
from __future__ import annotations

import random
import re

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    games_and_work_as_python,
    kernel_difference,
    kernel_plays_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset variable_tops
players 2..2
enum Tint { pale, dark, grey }
kind Disc { var owner: int = 0, var hot: bool = false, var tint: Tint = pale }
board big: grid(rows: 9, cols: 9) holds Disc
board small: grid(rows: 3, cols: 3) holds Disc
supply discs: 140 of Disc()
zone out: Disc
var turns: int = 0
var seen: int = 0

function dirs(): list of list of int =
  [[0, 1], [1, 0], [1, 1], [-1, 1], [0, -1], [-1, 0], [-1, -1], [1, -1]]
function mine(c: big, s: int): bool = occupied(c) and top(c).owner == s
function stop(c: big, s: int): bool = empty(c) or top(c).owner == s
function clear_or(c: small, s: int): bool = not occupied(c) or s == top(c).owner
function held(c: small, s: int): bool = not empty(c) and top(c).owner == s
function warm(c: big): bool = occupied(c) and top(c).hot == true
function shaded(c: big, k: Tint): bool = occupied(c) and top(c).tint == k
function line(c: big, dr: int, dc: int, s: int): list of big =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).owner == s)
function closes(l: list of big, s: int): bool =
  size(l) >= 2 and occupied(last(l)) and top(last(l)).owner == s
function flank(c: big, s: int): int = count(d for d in dirs() if closes(line(c, d[0], d[1], s), s))
# not so: a value of the cell's own, a test of two cells
function own_row(c: big): bool = occupied(c) and top(c).owner == c.row
function both(c: big, e: small, s: int): bool = occupied(c) and top(e).owner == s

setup {
  for k in 1..4 { move top(discs) to cell(big, row: 5, col: 2 + k) }
}
turn {
  turns = turns + 1
  let s = seat(active)
  choose x from [c for c in cells(big) if empty(c) or turns % 9 == 0] as "place"
  make Disc at x with owner = s
  if turns % 4 == 0 { top(x).hot = true }
  if turns % 3 == 1 { top(x).tint = if s == 1 then dark else grey }
  for d in dirs() {
    let l = line(x, d[0], d[1], s)
    if closes(l, s) {
      for y in l {
        if y != last(l) { top(y).owner = s }
      }
    }
  }
  if turns % 5 == 0 { top(x).owner = turns }
  let pile = first(c for c in cells(big) if size(c) > 1)
  if pile != none {
    let under = first(i for i in items(pile))
    under.owner = 3 - s
    under.hot = not under.hot
    if turns % 3 == 0 { move top(pile) to out }
  }
  let near = cell(small, row: 1 + turns % 3, col: 1 + (turns / 3) % 3)
  if turns % 2 == 0 and occupied(x) { move top(x) to near }
  if turns % 7 == 0 and occupied(near) { remove top(near) }
  if turns % 11 == 0 and size(out) > 0 { move top(out) to x }
  seen = seen + 1000 * flank(x, s) + 3 * count(c for c in cells(big) if mine(c, s))
    + 5 * count(c for c in cells(big) if stop(c, 3 - s)) + 7 * count(c for c in cells(small) if clear_or(c, s))
    + 11 * count(c for c in cells(small) if held(c, 3 - s)) + 13 * count(c for c in cells(big) if warm(c))
    + 17 * count(c for c in cells(big) if mine(c, turns % 7 + 2)) + 19 * count(c for c in cells(big) if stop(c, turns))
    + 23 * count(c for c in cells(big) if own_row(c)) + (if occupied(near) and both(x, near, s) then 29 else 0)
    + 31 * count(c for c in cells(big) if mine(c, 0)) + 37 * count(c for c in cells(big) if shaded(c, dark))
    + 41 * count(c for c in cells(big) if shaded(c, pale))
}
end when turns >= 60
score(p) = count(c for c in cells(big) if mine(c, seat(p))) + (if seat(p) == 1 then seen else 0)
"""

compiled = compiler(RULES, "variable_tops.meeple")


@needs_kernel
def test_a_test_of_an_item_variable_reads_the_index_the_statements_keep():
    gen = kernel.Gen(compiled(False))
    source = gen.source()
    for name in ("mine", "stop", "clear_or", "held", "warm", "shaded", "closes"):
        assert re.search(r"const int k_ = T\d+\(v_\); return k_ >= 0 \? T\d+\(", function_text(source, name)), name
    for name in ("own_row", "both"):
        assert "k_ >= 0" not in function_text(source, name), name
    # (the owner's first value and the seats, 0..2, a truth's two values and the tint's
    # three: eight slots in the state, kept by the statements that set them)
    assert gen.tops.n == 8 and "struct TopSlots { static constexpr int N = 8; static constexpr bool MUT = true;" in source
    assert re.search(r"static inline int T\d+\(I v\) \{ const uint64_t d = \(uint64_t\)v - \(uint64_t\)\(0LL\); "
                     r"return d < 3ULL \? 0 \+ \(int\)d : -1; \}", source)
    assert re.search(r"#define IDX_uI_owner\(s, it\) \(s\)\.z\.retag\(it, 0x[0-9a-f]+u, T\d+\(\(s\)\.uI_owner\[it\]\)\)",
                     source)
    assert source.count("IDX_uI_owner(s, it_);") >= 3 and "IDX_uI_hot(s, it_);" in source   # (the sets, the make)
    for where in ("static void init_vars(St& s) {", "static void import_vars(St& s,"):
        line = next(x for x in source.splitlines() if x.startswith(where))
        assert "INDEX_RENEW(s);" in line, where


@needs_kernel
def test_tests_of_an_item_variable_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 4) >= 200 and fast.native_fallbacks == 0


@needs_kernel
def test_tests_of_an_item_variable_play_python_s_games_and_count_its_work():
    games_and_work_as_python(compiled, 30, 5, 8, 1 << 16)


@needs_kernel
def test_a_state_loaded_into_the_kernel_has_its_index_made_anew():
    fast, plain = compiled(True), compiled(False)
    rnd = random.Random(3)
    for seed in (0, 1):
        b = plain.new_game(2, seed)
        while not b.over:
            i = rnd.randrange(b.move_count())
            again, twin = fast.resume(b.copy().state), plain.resume(b.copy().state)
            assert again.go_live()
            again.apply(i, safe=False)
            twin.apply(i, safe=False)
            assert again.live and kernel_difference(again.kernel_state(), twin) is None, (seed, b.turn_number)
            b.apply(i, safe=False)
    assert fast.native_fallbacks == 0
