"""A walk along a ray alone (``until(y for y in ray(c, row: dr, col: dc) if cond)``, cond
calling no rule function and counting nothing: othello's ``line``) is put in line where
it is called and its values are not kept (kernel_walks.py, ``ray_walk``), and a loop
over a short list known in advance (``for d in dirs()``, ``for dc in [-1, 1]``) is
written out element by element, ``d[0]`` the number itself (kernel_unroll.py), an
``any`` over it put in line: the kernel's games, states and work stay Python's."""
from __future__ import annotations

import re

import pytest
from kernel_support import PLACE_A_DISC, discs_on_a_grid, kernels_on, needs_kernel  # noqa: F401 - the fixture
from lockstep import compiler, games_and_work_as_python, program_of
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = discs_on_a_grid("walks", 6, 6) + """\
function dirs(): list of list of int =
  [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]
function compass(): list of list of int = dirs()
function line(c: b, dr: int, dc: int, s: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).seat == s)
function closes(l: list of b, s: int): bool =
  size(l) >= 2 and occupied(last(l)) and top(last(l)).seat == s
function legal(c: b, s: int): bool =
  empty(c) and any(closes(line(c, d[0], d[1], s), s) for d in compass())
turn {
""" + PLACE_A_DISC + """  seen = seen + count(c for c in cells(b) if legal(c, 3 - s))
    + sum(size(line(x, dr, dc, s)) for dr in [-1, 0, 1] for dc in [-1, 1])
    + sum(d[1] * 10 + d[0] for d in dirs() if size(line(x, d[0], d[1], 3 - s)) > 1)
}
end when size(box) == 0
score(p) = seen + seat(p)
"""


compiled = compiler(RULES, "walks.meeple")


def test_a_walk_along_a_ray_is_in_line_unkept_and_its_known_steps_written_in():
    plain = compiled(False)
    assert plain.facts.memoised("line")   # (asked over and over: the kernel would keep it)
    source = kernel.Gen(plain).source()
    assert "static inline MK_AI List<Id> uF_line(St& s" in source
    # (passed to closes as a walk, no list made: kernel_walk_views.py)
    assert "static inline MK_AI WalkEnds<Id> uV_line(St& s" in source
    assert "uK_line" not in source and "uKB_line" not in source
    # (legal, called for each cell, its loops an any over a list written out: in line
    # where it is called, kernel_rows.short_loops)
    legal = next(r for r in source.splitlines()
                 if r.startswith("static inline MK_AI bool uF_legal(St& s") and "{" in r)
    # (compass() is dirs(): its eight steps, each a number written in, no index checked;
    # each walk's work added to legal's tally, kernel_tally.py)
    for dr, dc in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
        assert f"uR0_closes(s, uV_line(s, tw_, uA_c, ((I){dr}LL), ((I){dc}LL), uA_s), uA_s)" in legal
    assert "at(" not in legal and not re.search(r"for \(const List<I>& uV\d+_d :", source)
    # (the any over them put in line: c and s in registers, not read through its captures)
    assert "&& ([&]() MK_AI -> bool {" in legal
    # (the ray's cells, and the walk's last, told to be cells: no test of none where read)
    line = next(r for r in source.splitlines() if r.startswith("static inline MK_AI "
                                                               "WalkEnds<Id> uV_line(St& s") and "{" in r)
    assert re.search(r"const Id& (uV\d+_y) = \*q_; if \(\(uint32_t\)\1 >= \(uint32_t\)NZ\) "
                     r"__builtin_unreachable\(\);", line)
    assert re.search(r"(uV\d+_w\.l) = uV\d+_xs\[uV\d+_n - 1\]; if \(\(uint32_t\)\1 >= \(uint32_t\)NZ\)", line)
    # (the rays' row found from the cell apart from the steps, which fold into a number)
    assert re.search(r"row_ = RAY\d+_rows \+ \(\(size_t\)a \* 25 \+ \(size_t\)\(\(d0 \+ 2\) \* 5 \+ \(d1 \+ 2\) \* 1\)\)",
                     source)
    # (the numbers of a list written out: each its own turn)
    assert len(re.findall(r"\{ const I uV\d+_dr = \(\(I\)0LL\); \{", source)) == 1
    assert len(re.findall(r"\{ const I uV\d+_dc = \(\(I\)1LL\); \{", source)) == 3


def test_an_index_past_a_known_element_is_checked_as_ever():
    # (d[2] of a pair: no number known, the index checked where it is read: the kernel
    # stops, Python fails)
    rules = RULES.replace("d[1] * 10 + d[0]", "d[2] * 10 + d[0]")
    prog = program_of(rules, "walks.meeple", False)
    assert re.search(r"at\(uV\d+_d, \(\(I\)2LL\)\)", kernel.Gen(prog).source())


@needs_kernel
def test_walks_in_line_and_loops_written_out_give_python_s_games_and_work():
    games_and_work_as_python(compiled, 8, 3, 9, 1 << 15)
