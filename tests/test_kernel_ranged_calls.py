"""A rule function without a loop called with integer arguments whose ranges are known
there (chess's ``at(a.file, (a.rank + b.rank) / 2)``), compiled by a kernel in the
place of the call with those ranges (interpreter/native/kernel_ranged.py): its
arithmetic unchecked where they keep it within bounds, its index into a board's cells
untested where they keep it among them. The same values, the same work to the last
unit, the same games as Python, and the same rule errors where a range is not known."""
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

# at(c, r): the cell of a column and a row (cells listed row by row); called with a
# cell's coordinates and a function's number (known), a loop's numbers written out, the
# total (not known: a call, as before) and the total with a number (in place, the
# part not known checked)
RULES = """ruleset ranged
players 2..2
kind Stone { seat: int }
board b: grid(rows: 3, cols: 4) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..5 }
var total: int = 0
function at(c: int, r: int): b = cells(b)[(r - 1) * 4 + c - 1]
function side(): int = if seat(active) == 1 then 1 else 3
function mirror(x: b): b = at(5 - x.col, side())
function near(x: b): int = count(k for k in [1, 2, 3] if empty(at(k, x.row)))
function far(): b = at(total % 4 + 1, total % 3 + 1)
function wild(): b = at(total % 4 + 1, 2)
turn {
  choose x from [c for c in cells(b) if empty(c)] as "drop"
  move first(s for s in items(box) if s.seat == seat(active)) to x
  total = total + mirror(x).row + near(x) + far().col + wild().col
}
end when size(box) == 0
score(p) = (total + seat(p)) % 5
"""


compiled = compiler(RULES, "ranged.meeple")


def function_text(source: str, name: str) -> str:
    return next(line for line in source.splitlines()
                if re.match(rf"static (?:inline )?\S+ uF_{name}\(St& s[^;]*\{{", line))


def test_a_call_with_known_ranges_is_compiled_in_place_unchecked():
    source = kernel.Gen(compiled(False)).source()
    for name in ("mirror", "near"):
        text = function_text(source, name)
        # (in place, the index read from the cells' table untested: no at(), no mul())
        assert "uF_at(" not in text and "mul(" not in text and re.search(r"T\d+\[\(\(I\)", text), name
    assert "uF_at(" in function_text(source, "far")   # (no range known: a call)
    wild = function_text(source, "wild")   # (in place; the column not known: the index checked)
    assert "uF_at(" not in wild and "mul(" not in wild and "at(T" in wild
    assert "mul(" in function_text(source, "at")   # (the function itself, as before)


@needs_kernel
def test_their_games_are_python_s():
    fast, python = compiled(True), compiled(False)
    kernel_plays_as_python(fast, python, 8)
    kernel_playouts_as_python(fast, python, 16, seed=3)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 5, 1 << 13)
    fast, python = compiled(True), compiled(False)
    a, b = fast.new_game(2, 1), python.new_game(2, 1)
    while not b.over:
        a.apply(0, safe=False)
        b.apply(0, safe=False)
        assert a.work_spent == b.work_spent and a.state == b.state
