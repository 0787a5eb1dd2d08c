"""Cells picked by their bits in a kernel (interpreter/native/kernel_bit_picks.py): the
last or first cell a static part (``y.col == k``) and a test of the cell's bit
(``empty(y)``, ``occupied(y)``, ``not``, ``or``, a static attribute's value on top) let
through, read as the highest or lowest bit of a word; a decision's options that are such
cells (``[c for c in cells(b) if occupied(c) and top(c).tint == v]``), or the numbers of
a range whose cells are (``[k for k in 1..4 if empty(cell(b, row: 1, col: k))]``), drawn
from the bits in a batch of random playouts, no list made. Not so: an item variable's
value, a range whose cells go down the bits, a board beyond a word of the index, a game
of more than twice as many items as cells. The same
moves, states, games, work and calls as Python, on a game that drops discs into the
columns of a small board."""
from __future__ import annotations

import re

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

RULES = """ruleset bit_picks
players 2..2
kind Disc { tint: int, var mark: int = 0 }
board b: grid(rows: 4, cols: 4) holds Disc
zone box: Disc
deck discs into box { Disc(tint: i % 3) for i in 1..16 }
var placed: int = 0
var seen: int = 0
function landing(k: int): b = last(y for y in cells(b) if y.col == k and empty(y))
function top_disc(k: int): b = first(y for y in cells(b) if y.col == k and occupied(y))
function open_or_pale(): b = last(y for y in cells(b) if empty(y) or top(y).tint == 0)
function first_of(t: int): b = first(y for y in cells(b) if not empty(y) and top(y).tint == t)
function low_open(): b = first(y for y in cells(b) if y.row >= 3 and not occupied(y))
# not so: an item variable's value
function marked(m: int): b = first(y for y in cells(b) if occupied(y) and top(y).mark == m)
turn {
  choose k from [k for k in 1..4 if empty(cell(b, row: 1, col: k))] as "drop"
  let x = landing(k)
  move top(box) to x
  placed = placed + 1
  seen = seen + top_disc(k).row
  let o = open_or_pale()
  if o != none { seen = seen + o.col }
  let f = first_of(placed % 3)
  if f != none { seen = seen + 2 * f.row }
  let l = low_open()
  if l != none { seen = seen + 3 * l.col }
  if placed % 2 == 0 and occupied(cell(b, row: 4, col: 1)) {
    let v = top(cell(b, row: 4, col: 1)).tint
    choose c from [c for c in cells(b) if occupied(c) and top(c).tint == v] as "mark"
    let d = top(c)
    d.mark = d.mark + 1
  }
  if placed % 3 == 0 and empty(cell(b, row: 1, col: 2)) {
    choose r from [r for r in 1..4 if not occupied(cell(b, row: r, col: 2))] as "look"
    seen = seen + r
  }
  # not so: the cells of the range go down the bits
  if placed % 4 == 1 and empty(cell(b, row: 1, col: 3)) {
    choose q from [q for q in 1..4 if empty(cell(b, row: 5 - q, col: 3))] as "peek"
    seen = seen + q
  }
  let m = marked(1)
  if m != none { seen = seen + m.row }
}
end when placed == 16
score(p) = if p == active then seen else seen % 7 + placed
"""

compiled = compiler(RULES, "bit_picks.meeple")


def drawn_from_bits(source: str) -> list[str]:
    """The locals of the decisions drawn from bits in a batch of playouts."""
    found = re.findall(r"const int i_ = auto_pick\(s, n_\); if \(i_ >= 0\) \{ f->(\S+) = [^;]*nth_set\(", source)
    return sorted(v.split("_")[-1] for v in found)


@needs_kernel
def test_cells_and_options_are_picked_by_their_bits():
    source = kernel.Gen(compiled(False)).source()
    for name, bit in (("landing", "clzll"), ("top_disc", "ctzll"), ("open_or_pale", "clzll"),
                      ("first_of", "ctzll"), ("low_open", "ctzll")):
        text = function_text(source, name)
        assert "_bm ? (Id)(" in text and f"__builtin_{bit}(" in text, name
    assert "_bm ? (Id)(" not in function_text(source, "marked")   # (an item variable's value)
    assert drawn_from_bits(source) == ["c", "k", "r"]   # (not q: its cells go down the bits)
    # (a board of more cells than the index's word: as written)
    big = RULES.replace("grid(rows: 4, cols: 4)", "grid(rows: 9, cols: 9)").replace("1..16", "1..81") \
        .replace("placed == 16", "placed == 81")
    text = kernel.Gen(compiler(big, "big.meeple")(False)).source()
    assert drawn_from_bits(text) == [] and "_bm ? (Id)(" not in text
    # (a supply a few more than the cells, up to twice as many: each placed about once,
    # still picked by their bits; more than twice: they may move among the cells at every
    # turn, seeds sown, the index kept by each move costing more than the picks spare; as
    # written)
    for items, bits in ((17, True), (32, True), (33, False)):
        more = RULES.replace("1..16", f"1..{items}")
        text = kernel.Gen(compiler(more, "more.meeple")(False)).source()
        assert (drawn_from_bits(text) == ["c", "k", "r"]) is bits, items
        assert ("_bm ? (Id)(" in text) is bits, items


# (more discs than cells, at most twice as many: the box keeps those never placed)
SPARE = compiler(RULES.replace("1..16", "1..27"), "spare.meeple")


@needs_kernel
def test_picks_by_bits_with_a_spare_supply_play_as_python():
    assert drawn_from_bits(kernel.Gen(SPARE(False)).source()) == ["c", "k", "r"]
    fast, plain = SPARE(True), SPARE(False)
    assert kernel_plays_as_python(fast, plain, 4) >= 60 and fast.native_fallbacks == 0
    games_and_work_as_python(SPARE, 20, 6, 20, 1 << 16)


@needs_kernel
def test_picks_by_bits_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 4) >= 60 and fast.native_fallbacks == 0


@needs_kernel
def test_picks_by_bits_play_python_s_games_and_count_its_work():
    games_and_work_as_python(compiled, 30, 6, 20, 1 << 16)


@needs_kernel
def test_picks_by_bits_count_python_s_work_move_by_move():
    stepped_as_python(compiled, (1, 2, 3))


# (a test read as bits, then one that is not: the whole walked as before, and no index
# kept for the first)
DECLINED = """ruleset declined
players 2..2
kind Disc { tint: int }
board b: grid(rows: 3, cols: 3) holds Disc
zone box: Disc
deck discs into box { Disc(tint: i % 2) for i in 1..9 }
var seen: int = 0
function landing(k: int): b = last(y for y in cells(b) if y.col == k and empty(y) and y.row + seen >= 1)
turn {
  choose k from [1, 2, 3] as "drop"
  let x = landing(k)
  if x != none { move top(box) to x }
  seen = seen + 1
}
end when seen == 9
score(p) = seen + seat(p)
"""


@needs_kernel
def test_a_pick_turned_down_keeps_no_index():
    source = kernel.Gen(compiler(DECLINED, "declined.meeple")(False)).source()
    assert "_bm ? (Id)(" not in function_text(source, "landing") and "Zones<NI, NZ>" in source
