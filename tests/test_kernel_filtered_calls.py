"""A call of a filter (a rule function whose body is ``[m for m in ms if cond]``) given
a list made for it, a comprehension or a join of one with other lists (chess's
``safe_moves([[a, b] for a in men for b in reach(a)] + castlings(me), ...)``), compiled
by a kernel in one loop (interpreter/native/kernel_filters.py): each element tested
where it is made, no list of them all made, joined and dropped. The same elements in
the same order, the same work and calls counted to the last unit, the same games as
Python."""
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

# keep() filters pairs: given a comprehension of two loops joined with a function's list
# and a list written out (pairs), a comprehension alone (near), a join of three with a
# condition in the first part (wide); fussy() reads its own list in its condition, and
# a join on the right (odd): neither is fused
RULES = """ruleset filters
players 2..2
kind Stone { seat: int }
board b: grid(rows: 3, cols: 4) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..6 }
var total: int = 0
function ok(m: list of b, k: int): bool = empty(m[1]) and (m[0].row + m[1].col + k) % 3 != 0
function keep(ms: list of list of b, k: int): list of list of b = [m for m in ms if ok(m, k)]
function extra(c: b): list of list of b = [[c, d] for d in cells(b) if d.row == c.row]
function pairs(c: b): list of list of b =
  keep([[a, d] for a in cells(b) if occupied(a) for d in cells(b) if a.col == d.col] + extra(c)
       + [[c, c]], seat(active))
function near(c: b): list of list of b = keep([[c, d] for d in cells(b) if d.col == c.col], 2)
function wide(c: b): list of list of b =
  keep([[d, c] for d in cells(b) if empty(d)] + extra(c) + [[c, c], [c, c]], total % 4)
function fussy(ms: list of list of b): list of list of b = [m for m in ms if size(ms) > 3 and empty(m[0])]
function odd(c: b): list of list of b = keep(extra(c) + ([[c, c]] + extra(c)), 1)
function both(c: b): int = size(fussy([[c, d] for d in cells(b)])) + size(odd(c))
turn {
  choose x from [c for c in cells(b) if empty(c)] as "drop"
  move first(s for s in items(box) if s.seat == seat(active)) to x
  total = total + size(pairs(x)) + size(near(x)) + size(wide(x)) + both(x)
    + sum(m[1].row * 4 + m[1].col for m in pairs(x)) % 7
}
end when size(box) == 0
score(p) = (total + seat(p)) % 5
"""


compiled = compiler(RULES, "filters.meeple")


def function_text(source: str, name: str) -> str:
    return next(line for line in source.splitlines()
                if re.match(rf"static (?:inline )?\S+ uF_{name}\(St& s[^;]*\{{", line))


def test_a_filter_given_a_list_made_for_it_tests_each_element_where_it_is_made():
    source = kernel.Gen(compiled(False)).source()
    for name, parts in (("pairs", 3), ("near", 1), ("wide", 3)):
        text = function_text(source, name)
        assert "uF_keep(" not in text and "wcat(" not in text and f"_n[{parts}] = {{}};" in text, name
    assert "uF_fussy(" in function_text(source, "both")   # (its condition reads its list)
    assert "uF_keep(" in function_text(source, "odd")     # (a join on the right: its own order)


@needs_kernel
def test_their_games_are_python_s():
    fast, python = compiled(True), compiled(False)
    kernel_plays_as_python(fast, python, 8)
    kernel_playouts_as_python(fast, python, 16, seed=3)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 5, 1 << 14)
    fast, python = compiled(True), compiled(False)
    a, b = fast.new_game(2, 1), python.new_game(2, 1)
    while not b.over:
        a.apply(0, safe=False)
        b.apply(0, safe=False)
        assert a.work_spent == b.work_spent and a.state == b.state
