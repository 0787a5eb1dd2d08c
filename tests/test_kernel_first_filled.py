"""``if any(occupied(f(x)) for x in xs) then [m for x in xs for m in f(x)] else other``
(checkers' moves: a jump of any piece, then every piece's jumps): the list made once,
first, ``other`` where it is empty, with no ``f(x)`` asked twice
(interpreter/native/kernel_first_filled.py), ``xs`` the bits of a filter walked from the
index of the cells by their top item where it is one, no list of it made; the same
games, states and work as Python."""
from __future__ import annotations

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

# moves: mine(s) a rule function's list; seen: the list walked a comprehension, the part
# called with another argument; far: another list for the list than for the condition
# (no pass: the condition asked first)
RULES = """ruleset hopper
players 2..2
kind Man { seat: int }
board b: grid(rows: 5, cols: 5) holds Man
zone box: Man
zone out: Man
deck men into box { 7 of Man(seat: s) for s in 1..2 }
var turns: int = 0
var seen: int = 0
function mine(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
function hops(c: b, s: int): list of list of b =
  [[c, t] for dr in [-1, 1] for dc in [-1, 1]
     for o in [cell(b, row: c.row + dr, col: c.col + dc)]
     for t in [cell(b, row: c.row + 2 * dr, col: c.col + 2 * dc)]
     if t != none and empty(t) and occupied(o) and top(o).seat != s]
function steps(c: b): list of list of b =
  [[c, t] for dr in [-1, 0, 1] for dc in [-1, 1]
     for t in [cell(b, row: c.row + dr, col: c.col + dc)] if t != none and empty(t)]
function moves(s: int): list of list of b =
  if any(occupied(hops(c, s)) for c in mine(s)) then [m for c in mine(s) for m in hops(c, s)]
  else [m for c in mine(s) for m in steps(c)]
function far(s: int): list of list of b =
  if any(occupied(hops(c, s)) for c in mine(s)) then [m for c in mine(3 - s) for m in hops(c, s)]
  else []
turn {
  let s = seat(active)
  turns = turns + 1
  let options = moves(s)
  if any(m.seat == s for m in items(box)) and (turns % 3 == 1 or empty(options)) {
    choose x from [c for c in cells(b) if empty(c)] as "place"
    move first(m for m in items(box) if m.seat == s) to x
  } elif occupied(options) {
    choose m from options as "move"
    if abs(m[1].row - m[0].row) == 2 {
      move top(cell(b, row: (m[0].row + m[1].row) / 2, col: (m[0].col + m[1].col) / 2)) to out
    }
    move top(m[0]) to m[1]
  }
  seen = seen + size(if any(occupied(hops(c, 3 - s)) for c in [c for c in cells(b) if occupied(c)])
                     then [m for c in [c for c in cells(b) if occupied(c)] for m in hops(c, 3 - s)]
                     else [[c, c] for c in cells(b) if empty(c) and c.row == 1])
    + size(far(s))
}
end when turns >= 40
score(p) = seen % 5 + size(mine(seat(p))) * 3 + seat(p)
"""


compiled = compiler(RULES, "hopper.meeple")


def test_a_list_whose_condition_is_a_part_not_empty_is_made_once():
    source = kernel.Gen(compiled(False)).source()
    # (moves and seen: the parts asked up to the first not empty, the list made from
    # it, the work counted so far counted again; far: its list walks other cells than
    # its condition, which is asked first, the list made whole after it)
    again = r"W\(s, uV\d+_w0 - uV\d+_wb\); s\.calls \+= uV\d+_cb - uV\d+_c0;"
    assert len(re.findall(again, source)) == 2
    # (seen's cells a list, walked twice; moves' mine(s) walked from the bits of the
    # index of the cells by their top item, twice, no list made: kernel_tops.py)
    assert len(re.findall(r"for \(; uV\d+_i < uV\d+_xs\.size\(\); \+\+uV\d+_i\)", source)) == 2
    moves = re.search(r"static List<List<Id>> uF_moves\(St& s, I uA_s\) \{.*", source)
    far = re.search(r"static List<List<Id>> uF_far\(St& s, I uA_s\) \{.*", source)
    assert moves is not None and far is not None
    assert re.search(again, moves.group(0)) and not re.search(again, far.group(0))
    walk = r"for \(; (uV\d+_m); \1 &= \1 - 1\)"
    assert len(re.findall(walk, moves.group(0))) == 3 and "uF_mine(s" not in moves.group(0)
    assert re.search(r"if \(uV\d+_m == 0\) return", moves.group(0))
    assert len(re.findall(r"return uV\d+_n != 0; \}\(\)\)", moves.group(0))) == 1


@needs_kernel
def test_a_list_made_once_gives_python_s_games_states_and_work():
    kernel_playouts_as_python(compiled(True), compiled(False), 12, seed=4)
    assert kernel_plays_as_python(compiled(True), compiled(False), 4) > 100
    work_counted_as_python(compiled, 14, 1 << 16)
