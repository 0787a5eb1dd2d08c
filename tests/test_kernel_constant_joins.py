"""Joins of lists that are the same wherever they are evaluated (a call of a function of
no parameters whose body is a list written out of constants, such a list, a join of
them: chess's queen steps, ``straight_steps() + diagonal_steps()``), made once by a
kernel (interpreter/native/kernel_fold.py) where ``wcat`` made them at every evaluation
(and a call of such a function read from its table in place, no copy made by a call):
the same values, the same work counted to the last unit, the same games as Python."""
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

# rook(), bishop() and their join (queen) read in a loop; a join of three and one with a
# list written out; a join with a part that is not constant (the seat), one of a
# function that counts its calls (recursive): made at each evaluation
RULES = """ruleset folds
players 2..2
kind Stone { seat: int }
board b: grid(rows: 4, cols: 4) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..6 }
var total: int = 0
function rook(): list of list of int = [[0, 1], [0, -1], [1, 0], [-1, 0]]
function bishop(): list of list of int = [[1, 1], [1, -1], [-1, 1], [-1, -1]]
function queen(): list of list of int = rook() + bishop()
function three(): list of list of int = rook() + [[2, 2]] + bishop()
function mine(): list of int = [1, 2] + [seat(active)]
function deep(n: int): list of int = if n <= 0 then [] else deep(n - 1) + [n]
function deeper(): list of int = deep(2) + [7]
function reach(c: b, steps: list of list of int): int =
  count(d for d in cells(b) for st in steps
        if d.row == c.row + st[0] and d.col == c.col + st[1] and empty(d))
turn {
  choose x from [c for c in cells(b) if empty(c)] as "drop"
  move first(s for s in items(box) if s.seat == seat(active)) to x
  total = total + reach(x, queen()) + reach(x, three()) + sum(v for v in mine()) + 3 * reach(x, rook())
    + size(rook() + bishop() + [[3, 3]]) + sum(v for v in deeper())
}
end when size(box) == 0
score(p) = (total + seat(p)) % 5
"""


compiled = compiler(RULES, "folds.meeple")


def function_text(source: str, name: str) -> str:
    return next(line for line in source.splitlines() if re.match(rf"static (?:inline )?\S+ uF_{name}\(St& s[^;]*\{{", line))


def test_joins_of_constant_lists_are_tables_made_once():
    source = kernel.Gen(compiled(False)).source()
    for name in ("queen", "three"):
        text = function_text(source, name)
        assert "wcat(" not in text and re.search(r"\(W\(s, \d+\), T\d+\)", text), name
    assert "(W(s, 8), T" in function_text(source, "queen")       # (4 + 4)
    assert "(W(s, 14), T" in function_text(source, "three")      # (4 + 1, then 5 + 4)
    for name in ("mine", "deeper"):   # (a part not constant: made at each evaluation)
        assert not re.search(r"\(W\(s, \d+\), T\d+\)", function_text(source, name)), name
    assert source.count("= cat(T") >= 4   # (queen's, three's two, the turn's two: made when the module loads)
    # (a call of rook(), a list written out: its table read in place, no copy of it made
    # by a call; deeper() is called)
    assert "uF_rook(s)" not in source and "uF_deeper(s)" in source


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
