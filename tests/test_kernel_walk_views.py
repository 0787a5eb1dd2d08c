"""``until``'s value passed to a rule function that reads it only by ``size``, ``empty``,
``first`` and ``last`` (othello's ``closes(line(c, dr, dc, s), s)``) is passed as the
walk itself, with no list made (kernel_walk_views.py): along a ray kept for good, along
one that is not (steps past its keep), over a list written in the rules, straight or
through a function whose body is the walk. A function that reads its list otherwise
gets the list as ever. The kernel's games, states and work stay Python's."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python, program_of, work_counted_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset views
players 2..2
kind Disc { var seat: int = 0 }
board b: grid(rows: 6, cols: 6) holds Disc
zone box: Disc
deck discs into box { Disc() for i in 1..36 }
var seen: int = 0
function line(c: b, dr: int, dc: int, s: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).seat == s)
function ends(l: list of b, s: int): int =
  if empty(l) then 0 else size(l) * 3 + (if occupied(last(l)) and top(last(l)).seat == s then 1 else 0)
    + (if occupied(first(l)) then 5 else 0)
function total(l: list of b): int = size(l) + count(y for y in l if occupied(y))
function digits(k: int): list of int = until(x for x in [3, 1, 4, 1, 5, 9, 2, 6] if x > k)
function span(l: list of int): int = if empty(l) then 1 else size(l) * 10 + last(l) + first(l) * 100
turn {
  let s = seat(active)
  choose x from [c for c in cells(b) if empty(c)] as "place"
  let d = top(box)
  d.seat = s
  move d to x
  seen = seen + sum(ends(line(x, dr, dc, s), s) for dr in [-1, 0, 1] for dc in [-1, 1])
    + ends(line(x, 3, 0, 3 - s), s) + ends(line(x, 0, -4, s), 3 - s)
    + total(line(x, 1, 1, s))
    + span(until(k for k in [3, 1, 4, 1, 5, 9, 2, 6] if k > seen % 7))
    + span(digits(size(box) % 10))
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


def compiled(native: bool, budgets=None):
    return program_of(RULES, "views.meeple", native, budgets)


def test_walks_read_at_their_ends_are_passed_whole_and_other_reads_get_lists():
    source = kernel.Gen(compiled(False)).source()
    assert re.search(r"static [a-z_ ()]*I uR0_ends\(St& s, const Walk<Id>& uA_l, I uA_s\)", source)
    assert re.search(r"static [a-z_ ()]*I uR0_span\(St& s, const Walk<I>& uA_l\)", source)
    assert "static inline __attribute__((always_inline)) Walk<Id> uV_line(St& s" in source
    assert re.search(r"static [a-z_ ]*Walk<I> uV_digits\(St& s, I uA_k\)", source)
    # (each call of ends and span with a walk: the ray's, kept or not, the list's)
    assert len(re.findall(r"uR0_ends\(s, uV_line\(s, ", source)) == 8
    assert re.search(r"uR0_span\(s, \(\[&\]\(\) __attribute__\(\(always_inline\)\) -> Walk<I> \{", source)
    assert "uR0_span(s, uV_digits(s, " in source
    # (total reads its list whole: the list made, as ever)
    assert "uF_total(s, uF_line(s, " in source and "uR0_total" not in source
    # (no prefix of a list made where a walk is passed)
    views = [r for r in source.splitlines() if r.startswith(("static inline __attribute__((always_inline)) Walk<",
                                                             "static inline Walk<")) and "{" in r]
    assert len(views) == 2 and not any("prefix(" in r for r in views)
    # (the ray's cells and their number read from one table, not its kept prefixes)
    line = next(r for r in views if "uV_line(" in r)
    assert re.search(r"if \(!RAY\d+_span\(", line) and "_pre(" not in line
    assert re.search(r"static inline bool RAY\d+_span\(Id a, I d0, I d1, const Id\*& d_, size_t& n_\) "
                     r"\{ if \(a < 0 \|\| a >= \d+\) \{ d_ = nullptr; n_ = 0; return true; \}", source)


@needs_kernel
def test_walks_passed_whole_give_python_s_games_and_work():
    kernel_playouts_as_python(compiled(True), compiled(False), 8, seed=5)
    work_counted_as_python(compiled, 9, 1 << 15)
