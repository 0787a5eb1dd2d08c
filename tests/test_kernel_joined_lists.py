"""``a + b`` of lists of numbers or ids whose first part is a comprehension or a list
written out, built in one list by a kernel (interpreter/native/kernel_joins.py: chess's
pawn steps and takes), where ``wcat`` made a list of each part: the same elements in the
same order, the same work counted to the last unit and the same games as Python. And a
loop over one of two tables' lists chosen by a condition (chess's pawn steps by colour)
walks the one chosen where it is, with no copy of it."""
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

# joins of comprehensions (filtered by their own variable, mapped, two loops, a range),
# list literals first and later, a variable's list, a call and a join on the right; one
# of more than the stack's 16 numbers; one a kernel makes one element per cell, then
# appends to (wcat still); and two a kernel writes in place with room for the numbers
# written out after it (a comprehension of one loop, within the stack's 32 numbers or past)
RULES = """ruleset joins
players 2..2
kind Stone { seat: int }
board b: grid(rows: 3, cols: 4) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..5 }
var said: list of int = []
var total: int = 0
function near(c: b): list of b =
  [d for d in cells(b) if empty(d) and d.row == c.row] + [d for d in cells(b) if occupied(d) and d.col == c.col]
function mixed(c: b): list of int =
  [c.row, c.col] + [d.row * 4 + d.col for d in cells(b) if occupied(d)] + said
  + [k for k in 1..c.row for j in 1..2 if k != j]
function seats(): list of int = [x % 5 for x in said if x > 2] + ([size(box)] + [x for x in said if x < 3])
function many(): list of int = [k for k in 1..20] + [k * 2 for k in 1..size(said)] + [size(said)]
relation beside(c: b, d: b) = c != d and abs(c.row - d.row) + abs(c.col - d.col) == 1
function side(c: b, s: int): list of b = [d for d in (if s == 1 then beside(c) else cells(b)) if empty(d)]
  + [d for d in (if s == 2 then cells(b) else beside(c)) if occupied(d)]
function codes(): list of int = [if occupied(c) then top(c).seat else 0 for c in cells(b)] + [size(box), 7]
function wide(): list of int = [k * 3 for k in many() + many()] + [size(said), 3] + [4]
function narrow(): list of int = [k * 2 for k in seats()] + [total % 7]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "drop"
  move first(s for s in items(box) if s.seat == seat(active)) to x
  said = [v % 9 for v in mixed(x)] + [size(near(x)), size(side(x, seat(active)))]
  total = total + sum(v for v in seats()) + sum(v for v in many()) + sum(v for v in codes()) + sum(v for v in wide())
  total = total + sum(v for v in narrow())
}
end when size(box) == 0
score(p) = (total + seat(p) + size(said)) % 4
"""


compiled = compiler(RULES, "joins.meeple")


def test_joins_whose_first_part_is_made_for_them_are_built_in_one_list_and_tables_read_in_place():
    source = kernel.Gen(compiled(False)).source()
    for name in ("near", "mixed", "seats", "many"):
        text = function_text(source, name)
        assert "wcat(" not in text and "Build<" in text, name
    assert function_text(source, "seats").count(".list()") == 2   # (the join on the right: its own)
    # (a list made one element per cell, the numbers written out appended where it is)
    assert "wcat(" in function_text(source, "codes")
    # (a list written in place with room for the numbers written out, put after it)
    for name, room, puts in (("narrow", 1, 1), ("wide", 3, 3)):
        text = function_text(source, name)
        assert "return wcat(" not in text and f".extra = {room};" in text and text.count(".put(") == puts, name
    # (a table's list chosen by a condition: walked where it is)
    assert len(re.findall(r"const List<Id>& uV\d+_xs = \(", function_text(source, "side"))) == 2


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
