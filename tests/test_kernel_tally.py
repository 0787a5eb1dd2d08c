"""A rule function's work outside its loops tallied in a local and charged once when it
returns (kernel_tally.py): othello's ``legal`` (its eight directions written out, each a
walk passed by its ends) adds its list's eight and each walk's cells to ``tw_``, one
``W`` a call; so does the body of a loop over a range of at most 16 turns known that
takes them all and counts work (``near``'s -1..1); a longer loop's body (``far``'s
1..17), a ``first``'s (which may stop at its first turn) and one that counts nothing
are as before: each turn counts its own, and so does a walk in a procedure. The kernel's games, states and work stay Python's, and the budget
runs out at the same move."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python, program_of, work_counted_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

# (two seats placing discs on a board of 6 by 6, as othello does; the turn's first lines)
HEAD = """players 2..2
kind Disc { var seat: int = 0 }
board b: grid(rows: 6, cols: 6) holds Disc
zone box: Disc
deck discs into box { Disc() for i in 1..36 }
var seen: int = 0
function closes(l: list of b, s: int): bool = size(l) >= 2 and occupied(last(l)) and top(last(l)).seat == s
"""
PLACE = """turn {
  let s = seat(active)
  let good = [c for c in cells(b) if legal(c, s)]
  choose x from (if empty(good) then [c for c in cells(b) if empty(c)] else good) as "place"
  let d = top(box)
  d.seat = s
  move d to x
"""
END = """}
end when size(box) == 0
score(p) = seen + count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p))
"""

RULES = "ruleset tally\n" + HEAD + """function dirs(): list of list of int = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]
function line(c: b, dr: int, dc: int, s: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).seat == s)
function legal(c: b, s: int): bool = empty(c) and any(closes(line(c, d[0], d[1], s), s) for d in dirs())
function near(c: b, s: int): int = sum(size(line(c, dr, 1, s)) + (if closes(line(c, dr, 0, s), s) then 1 else 0)
  for dr in -1..1)
function far(c: b, s: int): int = sum(if closes(line(c, k % 3 - 1, 0, s), s) then k else 0 for k in 1..17)
function first_close(c: b, s: int): int = first(k for k in 1..3 if closes(line(c, k - 2, 1, s), s))
function grid(c: b, s: int): int =
  sum((if closes(line(c, 1, 0, s), s) then i else 0) + sum(if closes(line(c, 0, 1, s), s) then j else 0 for j in 1..8)
      for i in 1..4)
function evens(c: b): list of int = [k for k in 1..6 if (k + c.row) % 2 == 0]
""" + PLACE + """  seen = seen + near(x, s) + far(x, s) + (if closes(line(x, 0, -1, 3 - s), s) then 2 else 0)
    + (if first_close(x, s) == none then 0 else 1) + size(evens(x)) + grid(x, s) % 3
""" + END


def compiled(native: bool, budgets=None):
    return program_of(RULES, "tally.meeple", native, budgets)


def _fn(source: str, name: str) -> str:
    return next(r for r in source.splitlines() if re.match(rf"static [A-Za-z_ ()]*\S+ {name}\(St& s.*\{{", r))


def test_a_body_s_work_outside_its_loops_is_tallied_and_charged_once():
    source = kernel.Gen(compiled(False)).source()
    legal = _fn(source, "uF_legal")
    # (the directions' list and each walk added to the tally, charged once at the end)
    assert "return tallied(s, [&](I& tw_) MK_AI { return " in legal
    assert "tw_ += 8;" in legal and "W(s, 8)" not in legal
    assert len(re.findall(r"uV_line\(s, tw_, uA_c, ", legal)) == 8
    assert "template <class F> static inline MK_AI auto tallied(St& s, F&& f) " \
           "{ I t_ = 0; auto v_ = f(t_); W(s, t_); return v_; }" in source
    # (the walk adds to the tally it is given)
    walk = _fn(source, "uV_line")
    assert walk.startswith("static inline MK_AI WalkEnds<Id> uV_line(St& s, I& tw_, ")
    assert re.search(r"tw_ \+= uV\d+_n;", walk) and "W(s," not in walk
    # (a loop over a range of a few turns known, -1..1: its body's work tallied too, the
    # range's three and each turn's walk)
    near = _fn(source, "uF_near")
    assert near.startswith("static I uF_near(St& s, Id uA_c, I uA_s) { return tallied(s, [&](I& tw_) ")
    assert "tw_ += 3;" in near and "uV_line(s, tw_, uA_c, uV" in near and "W(s," not in near
    # (a longer one, 1..17: each turn's walk is charged at that turn, no tally of the body's)
    far = _fn(source, "uF_far")
    assert "tallied(s, [&](I& tw_) MK_AI { return uV_line(s, tw_, " in far
    assert "return tallied(" not in far and "W(s, 17)" in far
    # (ranges in a range: tallied while their turns, multiplied, are at most 16; 4 × 8
    # are not, so the inner one's body counts at each turn)
    grid = _fn(source, "uF_grid")
    assert grid.startswith("static I uF_grid(St& s, Id uA_c, I uA_s) { return tallied(s, ")
    assert "tw_ += 4;" in grid and "W(s, 8);" in grid
    # (nor a few turns a first may stop at the first of, nor a body that counts nothing)
    for name, n in (("uF_first_close", 3), ("uF_evens", 6)):
        fn = _fn(source, name)
        assert "tallied(s, [&](I& tw_) MK_AI { return (" not in fn and f"W(s, {n})" in fn, name
    # (a procedure's walk likewise, charged where it is)
    assert re.search(r"uR0_closes\(s, tallied\(s, \[&\]\(I& tw_\) MK_AI "
                     r"\{ return uV_line\(s, tw_, ", source)


def test_a_body_that_counts_nothing_outside_its_loops_is_as_before():
    source = kernel.Gen(compiled(False)).source()
    closes = _fn(source, "uR0_closes")
    assert "tallied(" not in closes and "tw_" not in closes


@needs_kernel
def test_tallied_work_gives_python_s_games_and_work():
    kernel_playouts_as_python(compiled(True), compiled(False), 8, seed=3)
    work_counted_as_python(compiled, 9, 1 << 15)


# A walk (a function whose body is an ``until``, read by its ends) whose list counts a
# count again (kernel_early.py's ``counted_again``, which measures the work the count
# takes): nothing of that work may wait in a tally, in a range's body (``pick``) or in
# the walk's straight-line part (``pick2``, where the kernel makes it a walk).
AGAIN = "ruleset again\n" + HEAD + """function dirs(): list of int = [1, 2, 3, 4]
function rows(): list of int = [x.row for x in cells(b)]
function pick(c: b, s: int, t: bool): list of b =
  until(y for y in [c for k in 1..3 if count(v for v in rows() if v == count(d for d in dirs() if d > s)) > k]
        if empty(y))
function pick2(c: b, s: int): list of b =
  until(y for y in (if count(v for v in rows() if v == count(d for d in dirs() if d > s)) > 2 then [c] else [])
        if empty(y))
function legal(c: b, s: int): bool = empty(c) and (closes(pick(c, s, true), s) or closes(pick2(c, s), s))
""" + PLACE + """  seen = seen + size(good)
""" + END


@needs_kernel
def test_a_walk_whose_list_counts_a_count_again_holds_no_work_in_a_tally():
    source = kernel.Gen(program_of(AGAIN, "again.meeple", False)).source()
    walk = _fn(source, "uV_pick")
    assert "counted_again(" in walk and "tw_ +=" not in walk
    fast, plain = program_of(AGAIN, "again.meeple", True), program_of(AGAIN, "again.meeple", False)
    a, b = fast.new_game(2, 3), plain.new_game(2, 3)
    for i in range(10):
        assert (a.work_spent, a.calls_spent) == (b.work_spent, b.calls_spent), i
        a.apply(i % 3), b.apply(i % 3)
    assert fast.native_fallbacks == 0
    work_counted_as_python(lambda native, budgets=None: program_of(AGAIN, "again.meeple", native, budgets), 3, 1 << 17)
