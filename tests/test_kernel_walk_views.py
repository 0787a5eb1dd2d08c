"""``until``'s value passed to a rule function that reads it only by ``size``, ``empty``,
``first`` and ``last`` (othello's ``closes(line(c, dr, dc, s), s)``) is passed as the
walk itself, with no list made (kernel_walk_views.py): along a ray kept for good, along
one that is not (steps past its keep), over a list written in the rules, straight or
through a function whose body is the walk. A function that reads its list otherwise
gets the list as ever. The kernel's games, states and work stay Python's."""
from __future__ import annotations

import re

import pytest
from kernel_support import PLACE_A_DISC, discs_on_a_grid, kernels_on, needs_kernel  # noqa: F401 - the fixture
from lockstep import compiler, games_and_work_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = discs_on_a_grid("views", 6, 6) + """\
function line(c: b, dr: int, dc: int, s: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).seat == s)
function ends(l: list of b, s: int): int =
  if empty(l) then 0 else size(l) * 3 + (if occupied(last(l)) and top(last(l)).seat == s then 1 else 0)
    + (if occupied(first(l)) then 5 else 0)
function total(l: list of b): int = size(l) + count(y for y in l if occupied(y))
function digits(k: int): list of int = until(x for x in [3, 1, 4, 1, 5, 9, 2, 6] if x > k)
function span(l: list of int): int = if empty(l) then 1 else size(l) * 10 + last(l) + first(l) * 100
turn {
""" + PLACE_A_DISC + """  seen = seen + sum(ends(line(x, dr, dc, s), s) for dr in [-1, 0, 1] for dc in [-1, 1])
    + ends(line(x, 3, 0, 3 - s), s) + ends(line(x, 0, -4, s), 3 - s)
    + total(line(x, 1, 1, s))
    + span(until(k for k in [3, 1, 4, 1, 5, 9, 2, 6] if k > seen % 7))
    + span(digits(size(box) % 10))
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


compiled = compiler(RULES, "views.meeple")


def test_walks_read_at_their_ends_are_passed_whole_and_other_reads_get_lists():
    source = kernel.Gen(compiled(False)).source()
    assert re.search(r"static [A-Za-z_ ()]*I uR0_ends\(St& s, const WalkEnds<Id>& uA_l, I uA_s\)", source)
    assert re.search(r"static [A-Za-z_ ()]*I uR0_span\(St& s, const WalkEnds<I>& uA_l\)", source)
    # (a function that reads a walk's ends and loops over nothing put in line where it
    # is called, as the walk is: no call left to the C++ compiler's budget)
    assert "static inline MK_AI I uR0_ends(St& s, const WalkEnds<Id>& uA_l, I uA_s)" in source
    assert "static inline MK_AI WalkEnds<Id> uV_line(St& s" in source
    # (a walk adds its work to the tally it is given: kernel_tally.py)
    assert re.search(r"static [A-Za-z_ ]*WalkEnds<I> uV_digits\(St& s, I& tw_, I uA_k\)", source)
    # (each call of ends and span with a walk: the ray's, kept or not, the list's; in
    # a procedure, its work charged where it is, in a tally of its own)
    tallied = r"tallied\(s, \[&\]\(I& tw_\) MK_AI \{ return "
    assert len(re.findall(rf"uR0_ends\(s, {tallied}uV_line\(s, tw_, ", source)) == 8
    assert re.search(r"uR0_span\(s, \(\[&\]\(\) MK_AI -> WalkEnds<I> \{", source)
    assert re.search(rf"uR0_span\(s, {tallied}uV_digits\(s, tw_, ", source)
    # (total reads its list whole: the list made, as ever)
    assert "uF_total(s, uF_line(s, " in source and "uR0_total" not in source
    # (no prefix of a list made where a walk is passed)
    views = [r for r in source.splitlines() if r.startswith(("static inline MK_AI WalkEnds<",
                                                             "static inline WalkEnds<")) and "{" in r]
    assert len(views) == 2 and not any("prefix(" in r for r in views)
    # (the ray's cells and their number read from one table, not its kept prefixes)
    line = next(r for r in views if "uV_line(" in r)
    assert re.search(r"if \(RAY\d+_span\(", line) and "_pre(" not in line
    # (its ends taken while the ray is read: no list held in what is passed, nor on the
    # stack where the ray is kept: one made only where it is not)
    assert re.search(r"uV\d+_w\.l = uV\d+_xs\[uV\d+_n - 1\];", line) and ".own" not in line
    assert re.search(r"\) (uV\d+_on)\(uV\d+_xs, uV\d+_xs_n\); else \{ const List<Id> (uV\d+_xs_own) = RAY\d+\([^;]*\); "
                     r"\1\(\2\.begin\(\), \2\.size\(\)\); \}", line)
    # (always in line: the steps, numbers the callers give, fold into its index)
    assert re.search(r"static inline MK_AI bool RAY\d+_span\(Id a, I d0, I d1, "
                     r"const Id\*& d_, size_t& n_\) \{ if \(a < 0 \|\| a >= \d+\) \{ d_ = nullptr; n_ = 0; return true; \}",
                     source)
    # (the walk's first cell apart, its test written twice: where it stops there, it
    # is seen to hold one cell; a ray of none told by its number, no end reckoned)
    assert re.search(r"do \{ const Id\* q_ = (uV\d+_xs); const Id\* const e_ = \1 \+ \1_n; if \(!\1_n\) break; "
                     r"\{ (const Id& uV\d+_y = \*q_; .*?) \} for \(\+\+q_; q_ != e_; \+\+q_\) \{ \2 \} \} while \(0\);",
                     line)


@needs_kernel
def test_walks_passed_whole_give_python_s_games_and_work():
    games_and_work_as_python(compiled, 8, 5, 9, 1 << 15)


def test_kept_rays_are_read_from_one_flat_table_of_rows():
    # (a 6 x 6 grid: a ray has at most 5 cells, a row of 6 ids per cell and steps, the
    # cells in place: no pointer followed to reach them)
    source = kernel.Gen(compiled(False)).source()
    nz = int(re.search(r"RAY\d+_span\(Id a, I d0, I d1, const Id\*& d_, size_t& n_\) \{ if \(a < 0 \|\| a >= (\d+)\)",
                       source)[1])
    assert re.search(rf"alignas\(64\) static Id RAY\d+_rows\[{nz * 25 * 6}\];", source)
    assert not re.search(r"RAY\d+_spans\[", source)
    # (every row of the board's cells made when the module loads: a walk reads the
    # number of cells as it is, with no test that its row is made)
    fn = re.search(r"static Id (RAY\d+)_rows\[", source)[1]
    assert re.search(rf"static int kernel_init\(\) \{{.*\b{fn}_fill\(\);", source)
    assert re.search(rf"const Id\* row_ = {fn}_rows \+ \(\(size_t\)a \* 25 \+ \(size_t\)\(\(d0 \+ 2\) \* 5 \+ "
                     rf"\(d1 \+ 2\) \* 1\)\) \* 6; d_ = row_ \+ 1; n_ = \(size_t\)\(uint32_t\)row_\[0\];", source)
    assert "n1_" not in source and f"{fn}_row_new" not in source
    # (the board's cells alone kept: from the box, which no cell's type allows, it bails)
    kept = re.search(rf"static const bool {fn}_kept\[{nz}\] = \{{([a-z, ]*)\}};", source)[1].split(", ")
    assert kept.count("true") == 36 and len(kept) == nz
    assert f"if (!{fn}_kept[a]) bail();" in source


EDGES = """ruleset edges
players 2..2
kind Disc { var seat: int = 0 }
board h: hex(radius: 2) holds Disc
board t: triangle(rows: 4) holds Disc
zone box: Disc
deck discs into box { Disc() for i in 1..29 }
var seen: int = 0
function line(c: h, dq: int, dr: int, s: int): list of h =
  until(y for y in ray(c, q: dq, r: dr) if empty(y) or top(y).seat == s)
function slope(c: h, dq: int, dr: int, s: int): list of h =
  until(y for y in ray(c, q: dq, r: dr, s: 0 - dq - dr) if occupied(y) and top(y).seat != s)
function fall(c: t, dr: int, dc: int): list of t = until(y for y in ray(c, row: dr, col: dc) if occupied(y))
function ends(l: list of h, s: int): int =
  if empty(l) then 0 else size(l) * 3 + (if occupied(last(l)) and top(last(l)).seat == s then 1 else 0)
    + (if occupied(first(l)) then 5 else 0)
function tends(l: list of t): int = if empty(l) then 7 else size(l) * 2 + (if occupied(last(l)) then 1 else 0)
turn {
  let s = seat(active)
  let free = [c for c in cells(h) if empty(c)]
  if empty(free) {
    choose y from [c for c in cells(t) if empty(c)] as "drop"
    let d = top(box)
    d.seat = s
    move d to y
    seen = seen + sum(tends(fall(c, dr, dc)) for c in cells(t) for dr in [-2, -1, 0, 1, 2] for dc in [-1, 1])
      + tends(fall(y, 3, 0)) + tends(fall(y, 0, -3))
  } else {
    choose x from free as "place"
    let d = top(box)
    d.seat = s
    move d to x
    seen = seen + sum(ends(line(c, dq, dr, s), s) for c in cells(h) for dq in [-2, -1, 0, 1, 2]
                      for dr in [-1, 1])
      + sum(ends(slope(x, dq, dr, 3 - s), s) for dq in [-1, 0, 1] for dr in [-2, 0, 2])
      + ends(line(x, 3, 0, s), s) + ends(line(x, 0, -4, 3 - s), s)
  }
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


edges = compiler(EDGES, "edges.meeple")


def test_rays_at_the_edges_of_boards_not_square_are_in_rows_as_wide_as_their_longest():
    # (a hex board of radius 2: q and r from -2 to 2, a ray of at most 4 cells; a
    # triangle of 4 rows: row 1..4, col 1..4, at most 3; each a table of its own)
    source = kernel.Gen(edges(False)).source()
    rows = re.findall(r"static Id (RAY\d+)_rows\[(\d+)\]; .*? if \(r_\.size\(\) > (\d+)\)", source)
    nz = int(re.search(r"RAY\d+_span\(Id a, I d0, I d1, const Id\*& d_, size_t& n_\) \{ if \(a < 0 \|\| a >= (\d+)\)",
                       source)[1])
    widths = sorted((int(size) // nz, int(most)) for _, size, most in rows)
    assert widths == [(25 * 4, 3), (25 * 5, 4), (125 * 5, 4)]


@needs_kernel
def test_rays_at_the_edges_give_python_s_games_and_work():
    games_and_work_as_python(edges, 8, 7, 9, 1 << 15)
