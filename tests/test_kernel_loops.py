"""A kernel's loops that make no list: over one element written out (``for t in [x]``,
a name bound in a comprehension), the element bound; over a zone's items, the items
walked where they lie; a count adds its condition's truth (no branch on it), and so
does a list of a loop's own elements where a condition holds (each written in place). The same
games, states and work counted as Python, the element none or not, the loop first or
inner."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, kernel_playouts_as_python, program_of, work_counted_as_python
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset loops
players 2..2
kind Mark { seat: int }
board b: grid(rows: 4, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 8 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
function ahead(c: b, s: int): list of b =
  [t for dc in [-1, 0, 1] for t in [cell(b, row: c.row + s, col: c.col + dc)] if t != none and empty(t)]
turn {
  choose x from [c for c in cells(b) if empty(c) and c.row + seen >= 1] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + size(ahead(x, 1)) + size(ahead(x, -1))
    + count(k for k in [seen % 3] if k > 0) + sum(n for n in [size(supply)])
    + count(m for c in cells(b) for m in items(c) if m.seat == 1) + size([m for m in items(supply)])
}
end when size(supply) == 0
score(p) = seen + seat(p)
"""


compiled = compiler(RULES, "loops.meeple")


def test_loops_make_no_list_and_counts_no_branch_on_their_condition():
    source = kernel.Gen(compiled(False)).source()
    assert "const Id uV" in source and "= CA" in source       # (the cell bound, as a name)
    assert "List<Id>(Vec<Id>{CA" not in source                 # (no list of the one cell)
    # (no list of a zone's items: the rules' zones are a constant or a name)
    assert "s.z.bottom(" in source and not re.search(r"s\.z\.items\((\(\(Id\)|uV)", source)
    assert re.search(r"uV\d+_n \+= \(I\)\(bool\)\(", source)   # (count(... if cond): its truth added)
    # ([c for c in xs if cond]: likewise; where cond is a cell's bit alone, the options are
    # the bits, kernel_bit_picks.py: not so here, as the seen is read)
    assert re.search(r"uV\d+_n \+= \(size_t\)\(bool\)\(", source)


@needs_kernel
def test_its_games_are_python_s():
    kernel_playouts_as_python(compiled(True), compiled(False), 12, seed=3)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 5, 1 << 12)


# lists pushed element by element (more than one loop, a range's), on the stack up to 128
# bytes then in a vector: a board of 36 cells and a range of 40 numbers go past it
BUILT = """ruleset built
players 2..2
kind Mark { seat: int }
board b: grid(rows: 6, cols: 6) holds Mark
zone supply: Mark
deck marks into supply { 18 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
function free(k: int): list of b = [t for c in cells(b) for t in [c] if empty(t) and (t.row + t.col) % 3 != k]
function mine(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
turn {
  choose x from free(seen % 2) as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + size([k for k in 1..40 if k % 3 != seen % 3]) + sum(c.row for c in free(2))
    + size(mine(seat(active))) * 7
}
end when size(free(seen % 2)) == 0 or size(supply) == 0
score(p) = seen + seat(p)
"""


def built(native: bool):
    return program_of(BUILT, "built.meeple", native)


def test_lists_pushed_one_by_one_start_on_the_stack_and_cells_are_never_none():
    source = kernel.Gen(built(False)).source()
    assert "Build<Id> uV" in source and "Build<I> uV" in source
    assert re.search(r"for \(const Id& (uV\d+_c) : uV\d+_xs\) \{ if \(\(uint32_t\)\1 >= \(uint32_t\)NZ\) "
                     r"__builtin_unreachable\(\);", source)


def test_a_filter_of_a_loop_s_own_elements_pushes_them_with_no_branch_on_its_condition():
    # (free's two loops and the range's filter: each element written at the end, its
    # condition's truth added to the length, past the stack's 32 too)
    source = kernel.Gen(built(False)).source()
    assert re.search(r"uV\d+_out\.push_if\(uV\d+_t, \(bool\)\(", source)
    assert re.search(r"uV\d+_out\.push_if\(uV\d+_k, \(bool\)\(", source)


@needs_kernel
def test_lists_pushed_one_by_one_give_python_s_games():
    kernel_playouts_as_python(built(True), built(False), 8, seed=5)


# a loop over the call of a function whose body is a comprehension of two loops: the
# function's loops in its place (no list of its own), in a comprehension, which runs
# whole; in an aggregate (any() may stop early: its work is the whole list's) a call.
# empty() of a function's filter of a board's cells whose condition cannot fail: the
# cells walked up to the first it lets through
FUSED = """ruleset fused
players 2..2
kind Mark { seat: int }
board b: grid(rows: 5, cols: 5) holds Mark
zone supply: Mark
deck marks into supply { 12 of Mark(seat: s) for s in 1..2 }
var seen: int = 0
function ahead(c: b, s: int): list of b =
  [t for dc in [-1, 0, 1] for t in [cell(b, row: c.row + s, col: c.col + dc)]
     if t != none and (empty(t) or top(t).seat != s)]
function mine(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
function pairs(s: int): list of list of b = [[c, t] for c in mine(s) for t in ahead(c, 1)]
function low(k: int): list of b = [c for c in cells(b) if c.row + k > 6]
turn {
  choose x from [c for c in cells(b) if empty(c) and c.row + seen >= 1] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  seen = seen + size(pairs(seat(active))) + sum(t.col for c in cells(b) for t in ahead(c, -1))
    + size([t.col for c in cells(b) for t in ahead(c, -1) if t.col > 2 + seen % 2])
    + count(t for t in ahead(x, 1) if occupied(t)) + (if any(empty(t) for t in ahead(x, -1)) then 1 else 0)
    + (if empty(mine(3 - seat(active))) then 1 else 0) + (if empty(low(seen % 5)) then 2 else 0)
}
end when size(supply) == 0
score(p) = seen + seat(p)
"""


fused = compiler(FUSED, "fused.meeple")


def test_a_loop_over_a_function_s_comprehension_walks_its_loops_in_place():
    source = kernel.Gen(fused(False)).source()
    # (the lists of pairs and of columns, sum and count walk ahead's loops; any, which
    # may stop at its first, calls it; the four loops over [-1, 0, 1] in place written
    # out, their numbers known, kernel_unroll.py; ahead's own, which fills its list, a loop)
    assert len(re.findall(r"uF_ahead\(s, ", source)) == 1
    assert len(re.findall(r"\{ const I uV\d+_dc = \(\(I\)-1LL\); \{", source)) == 4
    assert len(re.findall(r"for \(const I& uV\d+_dc : uV\d+_xs\)", source)) == 1


def test_empty_of_a_filter_of_cells_that_cannot_fail_walks_the_cells():
    source = kernel.Gen(fused(False)).source()
    # (empty(mine(...)) walks the cells up to the first mine lets through; pairs' loop
    # walks mine's in place, kernel_filter_loops.py; low's condition adds, which may
    # fail: a call)
    assert len(re.findall(r"uF_mine\(s, ", source)) == 0 and len(re.findall(r"uF_low\(s, ", source)) == 1
    assert re.search(r"\[&\]\(\) -> bool \{ const I uV\d+_s = [^;]*; \{ const List<Id>& uV\d+_xs = T\d+; W\(s, ", source)


@needs_kernel
def test_loops_in_place_give_python_s_games_and_work():
    kernel_playouts_as_python(fused(True), fused(False), 10, seed=4)
    work_counted_as_python(fused, 6, 1 << 14)


def test_a_rule_function_hiding_a_built_in_is_no_condition_that_cannot_fail():
    # (occupied(c) the rules' own, which may fail: every cell's condition is tested, as
    # Python tests them making the list, not the cells up to the first let through)
    rules = FUSED.replace("function low(", "function occupied(c: b): bool = 6 / (c.row * 5 + c.col - 7) != 9\n"
                          "function low(")
    src = SourceSet(base=parse(rules, "fused.meeple"), sources={"fused.meeple": rules})
    source = kernel.Gen(compile_sources(src).for_players(2)).source()
    assert "uF_occupied(s, " in source
    assert len(re.findall(r"uF_mine\(s, ", source)) == 1   # (empty's; pairs' walks it in place)
    assert not re.search(r"\[&\]\(\) -> bool \{ const I uV\d+_s = ", source)
