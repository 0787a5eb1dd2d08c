"""Loops over a board's cells by the static part of their condition in a kernel
(interpreter/native/kernel_cells.py): ``c.row == r and ...`` walks row r's cells,
``c.row == c.col and ...`` the diagonal's, ``(c.row + c.col) % 2 == 0`` the dark cells',
``inner(c, 1)`` (a rule function of static facts) the inner cells', ``side(c, active)``
(static but for the active player's seat) a table per seat, ``half(c) == half(x)`` and
``c.row == size(supply) / 4`` (a value computed once before the loop: a rule
function's, the state's) a table by the value, ``c.name == "r1c1" or c.col in [2, 4]``
(a name, a list written out) the cells they let through, the rest of the condition tested per
cell;
the same values, states and work counted as Python, whatever the value looked for
(none, a number no cell has)."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, kernel_plays_as_python, work_counted_as_python

pytestmark = pytest.mark.kernels

RULES = """ruleset cells
players 2..2
kind Mark { seat: int }
board b: grid(rows: 4, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 8 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
var n: int = 0
function mine(c: b, p: player): bool = occupied(c) and top(c).seat == seat(p)
function inner(c: b, k: int): bool = c.row > k and c.col > k and c.row < 5 - k
function line(p: player, r: int): int = count(c for c in cells(b) if c.row == r and mine(c, p))
function diag(p: player): int = count(c for c in cells(b) if c.row == c.col and c.col > 1 and mine(c, p))
function anti(p: player): int = count(c for c in cells(b) if c.row + c.col == 5 and mine(c, p))
function odd(c: b): bool = c.col % 2 == 1 and c.row > 1
function odd_inner(c: b): bool = odd(c) and not (c.row == 4)
function side(c: b, p: player): bool = c.col > 2 * (seat(p) - 1) and c.col <= 2 * seat(p)
function own(c: b, p: player, k: int): bool = abs(c.col - 2 * seat(p)) < k and c.row % 2 == 1
function half(c: b): int = (c.row - 1) / 2
turn {
  n = n + 1
  let gone = first(k for k in [1, 2] if k > n)
  choose x from [c for c in cells(b) if c.col == seat(active) + n % 3 and empty(c)]
    + [c for c in cells(b) if c.row == 7 - n % 5 and empty(c)]
    + [c for c in cells(b) if c.row == gone and empty(c)]
    + [c for c in cells(b) if empty(c) and c.row == 1] + [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + line(active, x.row) + diag(active) + anti(active)
    + size([c for c in cells(b) if c.row > 2 and c.col < 3])
    + count(c for c in cells(b) if c.row == x.col and c.col == x.row)
    + size([c for c in cells(b) if odd_inner(c)]) + count(c for c in cells(b) if odd_inner(c) and mine(c, active))
    + count(c for c in cells(b) if side(c, active) and mine(c, active)) + size([c for c in cells(b) if side(c, active)])
    + count(c for c in cells(b) if (c.row + c.col) % 2 == 0 and mine(c, active))
    + count(c for c in cells(b) if c.col / 2 == seat(active) and c.row % 3 != 0 and empty(c))
    + count(c for c in cells(b) if abs(c.row - c.col) <= 1 and max(c.row, c.col) < 4 and mine(c, active))
    + count(c for c in cells(b) if inner(c, 1) and mine(c, active))
    + count(c for c in cells(b) if c.col > 1 and c.row == x.row and mine(c, active))
    + count(c for c in cells(b) if c.col > 9 and c.row == x.row and mine(c, active))
    + count(c for c in cells(b) if own(c, active, 2) and mine(c, active))
    + count(c for c in cells(b) if half(c) == half(x) and mine(c, active))
    + 100 * count(c for c in cells(b) if c.row == size(supply) / 4 and empty(c))
    + count(c for c in cells(b) if (c.name == "r1c1" or c.col in [2, 4]) and c.row not in [3] and mine(c, active))
}
end when size(supply) == 0 or size([c for c in cells(b) if empty(c) and c.col <= 2]) == 0
score(p) = seen
"""


compiled = compiler(RULES, "cells.meeple")


@needs_kernel
def test_loops_by_static_conditions_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    moves = kernel_plays_as_python(fast, plain, 8)
    assert moves > 40 and fast.native_fallbacks == 0


@needs_kernel
def test_a_list_of_the_cells_a_static_condition_lets_through_is_its_table(monkeypatch):
    # (own(c, active, 2) walked by the index of the top's seat, kernel_tops.py: off here)
    from meeple.interpreter.core.facts import Facts
    monkeypatch.setattr(Facts, "top_value", lambda *a: None)
    monkeypatch.setattr(Facts, "cell_test", lambda *a: None)
    # ([c for c in cells(b) if odd_inner(c)]: odd_inner a rule function of the cell's static
    # facts; the kernel's list is the table, counting the board's cells as the loop)
    from meeple.interpreter.native import kernel
    source = kernel.Gen(compiled(False)).source()
    assert "W(s, uV" in source and "return List<Id>(T" in source, "the whole comprehension is no table"
    # (side(c, active) twice, own(c, active, 2): static but for the active player's seat,
    # given with a static value to a function of abs and %: tables by the seat)
    assert source.count("if (k < 0 || k >= 2) bail(); return T") == 3
    # (half(c) == half(x), c.row == size(supply) / 4: tables by the value, computed once
    # before the loop: a rule function's call, a zone's size)
    assert re.search(r"_sub = T\d+\(uF_half\(s, f->l\d+\.uL0_x\)\);", source)
    assert re.search(r"_sub = T\d+\(floordiv\(s\.z\.size\(", source)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    # the least work budget with which Python plays four moves: the kernel plays them
    # with it, and fails with one less, as Python does
    work_counted_as_python(compiled, 4, 1 << 14)
