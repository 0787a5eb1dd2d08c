"""connected(x for x in REL(START) if COND): the cells reachable from some cells through a
relation while a condition holds (docs/language.md §7.7): what it finds, in which order, its
edge cases, the checker's located errors, the work budget, and that it finds exactly what the
same rule written with recursive functions finds."""
from __future__ import annotations

import random

import pytest
from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, merge
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, compile_sources
from meeple.interpreter.play.helpers import RuleError

FILE = "c.meeple"

# a 3 × 4 grid; `stone(r, c, k)` puts a stone of colour k on a cell in the setup
PRELUDE = """ruleset c
players 2..2
enum Colour { black, white }
kind Stone { colour: Colour }
board grid: grid(rows: 3, cols: 4) holds Stone
board other: grid(rows: 1, cols: 2) holds Stone
zone box: Stone
deck stones into box { 6 of Stone(colour: k) for k in Colour }
relation adjacent(a: grid, b: grid) = abs(a.row - b.row) + abs(a.col - b.col) == 1
relation rightward(a: grid, b: grid) = a.row == b.row and b.col == a.col + 1
relation around(a: grid, b: grid) = a.row == b.row and b.col == a.col % 4 + 1
relation across(a: grid, b: other) = a.col == b.col
var found: list of str = []
var n: int = 0
function at(r: int, c: int): grid = cell(grid, row: r, col: c)
function is(c: grid, k: Colour): bool = occupied(c) and top(c).colour == k
procedure stone(r: int, c: int, k: Colour) {
  move first(s for s in items(box) if s.colour == k) to at(r, c)
}
"""
PRELUDE_LINES = PRELUDE.count("\n")
END = '\nturn { choose w from [0] as "wait" }\nend when false\n'

# . = empty, X = black, O = white
BOARD = """
  call stone(1, 1, black)
  call stone(1, 2, black)
  call stone(2, 2, black)
  call stone(3, 2, black)
  call stone(3, 3, black)
  call stone(1, 4, black)
  call stone(2, 1, white)
  call stone(2, 3, white)
"""
#   X X . X
#   O X O .
#   . X X .


def compiled(text: str, budgets: Budgets | None = None):
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    return compile_sources(src, budgets=budgets)


def found(expr: str, budgets: Budgets | None = None) -> list[str]:
    """The names of the cells `expr` gives, after the stones of BOARD are placed."""
    text = PRELUDE + "setup {\n" + BOARD + f"  found = [x.name for x in {expr}]\n}}" + END
    return compiled(text, budgets).new_game(2, 0).state["vars"]["found"]


def diagnostics(rules: str):
    text = PRELUDE + rules + END
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    return [(d.code, d.span.line - PRELUDE_LINES, d.span.column) for d in diags.items]


# ---------------------------------------------------------------- what it finds

def test_connected_finds_the_group_of_a_stone_breadth_first():
    # the start cell, then its neighbours in the relation's order, then theirs...
    assert found("connected(x for x in adjacent(at(1, 1)) if is(x, black))") == \
        ["r1c1", "r1c2", "r2c2", "r3c2", "r3c3"]


def test_connected_does_not_step_over_cells_that_fail_the_condition():
    # r1c4 is black too, but an empty cell lies between
    assert "r1c4" not in found("connected(x for x in adjacent(at(1, 1)) if is(x, black))")
    assert found("connected(x for x in adjacent(at(1, 4)) if is(x, black))") == ["r1c4"]


def test_connected_from_a_start_cell_that_fails_the_condition_is_empty():
    assert found("connected(x for x in adjacent(at(2, 1)) if is(x, black))") == []
    assert found("connected(x for x in adjacent(at(1, 3)) if occupied(x))") == []


def test_connected_from_a_list_of_cells_keeps_those_that_hold_first():
    # r2c1 fails the condition: it is left out and not walked from
    got = found("connected(x for x in adjacent([at(1, 4), at(2, 1), at(3, 3)]) if is(x, black))")
    assert got == ["r1c4", "r3c3", "r3c2", "r2c2", "r1c2", "r1c1"]


def test_connected_from_an_empty_list_or_none_is_empty():
    assert found("connected(x for x in adjacent([]) if is(x, black))") == []
    assert found("connected(x for x in adjacent(at(9, 9)) if is(x, black))") == []


def test_connected_finds_each_cell_once_on_cycles_and_repeated_starts():
    # around: each cell of a row to the next, the last back to the first (a cycle)
    assert found("connected(x for x in around(at(2, 3)))") == ["r2c3", "r2c4", "r2c1", "r2c2"]
    # adjacent on a grid has cycles too (every square of four cells), and starts repeat
    got = found("connected(x for x in adjacent([at(1, 1), at(1, 1), at(1, 2)]))")
    assert len(got) == 12 and len(set(got)) == 12 and got[:3] == ["r1c1", "r1c2", "r2c1"]


def test_connected_follows_the_relation_one_way():
    assert found("connected(x for x in rightward(at(2, 2)))") == ["r2c2", "r2c3", "r2c4"]
    assert found("connected(x for x in rightward(at(2, 2)) if empty(x) or is(x, black))") == ["r2c2"]


def test_connected_condition_sees_the_variables_around_it():
    text = PRELUDE + "function stones(c: grid, k: Colour): list of grid =\n" \
        "  connected(x for x in adjacent(c) if is(x, k))\nsetup {\n" + BOARD + \
        "  found = [x.name for x in stones(at(2, 3), white)] + [x.name for x in stones(at(3, 3), black)]\n" \
        "  for c in connected(x for x in adjacent(at(1, 1)) if is(x, top(at(1, 1)).colour)) {\n" \
        "    n = n + size(connected(y for y in adjacent(c) if y == c))\n  }\n}" + END
    g = compiled(text).new_game(2, 0)
    assert g.state["vars"]["found"] == ["r2c3", "r3c3", "r3c2", "r2c2", "r1c2", "r1c1"]
    assert g.state["vars"]["n"] == 5


def test_connected_counts_the_cells_it_looks_at_against_the_work_budget():
    # the start cell, then the neighbours of each of the 12 cells: 4 corners with 2,
    # 6 border cells with 3, 2 inner cells with 4
    text = PRELUDE + "setup {\n  n = size(connected(x for x in adjacent(at(1, 1))))\n}" + END
    assert compiled(text, Budgets(work=1 + 4 * 2 + 6 * 3 + 2 * 4)).new_game(2, 0).state["vars"]["n"] == 12
    with pytest.raises(RuleError) as e:
        compiled(text, Budgets(work=34)).new_game(2, 0)
    assert e.value.code == "rule/budget" and "'work' budget" in str(e.value)


# ---------------------------------------------------------------- the checker

def test_connected_with_a_start_of_another_type_is_a_located_type_error():
    assert diagnostics("var v: list of grid = connected(x for x in adjacent(3) if empty(x))\n") == \
        [("check/type-mismatch", 1, 53)]


def test_connected_condition_must_be_a_bool():
    assert diagnostics("var v: list of grid = connected(x for x in adjacent(at(1, 1)) if x)\n") == \
        [("check/type-mismatch", 1, 66)]


def test_connected_must_walk_a_relation_of_one_board():
    assert diagnostics("var v: list of grid = connected(x for x in cells(grid) if empty(x))\n") == \
        [("check/bad-value", 1, 44)]
    assert diagnostics("var v: list of grid = connected(x for x in adjacent(at(1, 1), at(1, 2)))\n") == \
        [("check/bad-value", 1, 44)]
    assert diagnostics("var v: list of grid = connected(x for x in across(at(1, 1)))\n") == \
        [("check/bad-value", 1, 44)]


def test_connected_gives_the_cells_themselves_in_one_clause():
    assert diagnostics("var v: list of grid = connected(x.row for x in adjacent(at(1, 1)))\n")[0] == \
        ("check/bad-value", 1, 35)
    assert diagnostics("var v: list of grid = connected(x for x in adjacent(at(1, 1)) for y in [1])\n") \
        == [("check/bad-value", 1, 67)]


def test_connected_called_without_a_comprehension_says_how_to_write_it():
    text = PRELUDE + "var v: list of grid = connected(at(1, 1))\n" + END
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    (d,) = diags.items
    assert (d.code, d.span.line - PRELUDE_LINES) == ("check/bad-value", 1)
    assert "connected(x for x in adjacent(c)" in d.hint


def test_a_function_called_connected_hides_the_built_in():
    # (issue 34: a declaration named like a built-in hides it; tests/test_shadowing.py)
    assert diagnostics("function connected(c: grid): bool = true\n") == []


# ---------------------------------------------------------------- the same as recursive rules

# the groups of the stones of a position, found by recursive functions (as rulesets did before
# connected existed) and by connected: both lists are compared after every move
SAME = """ruleset same
players 2..2
enum Colour { black, white }
kind Stone { colour: Colour }
board grid: grid(rows: 4, cols: 5) holds Stone
zone box: Stone
deck stones into box { 10 of Stone(colour: k) for k in Colour }
relation adjacent(a: grid, b: grid) = abs(a.row - b.row) + abs(a.col - b.col) == 1
function alike(c: grid, k: Colour): bool = if k == none then empty(c) else occupied(c) and top(c).colour == k
function grow(g: list of grid, edge: list of grid, k: Colour): list of grid =
  if empty(edge) then g
  else grown(g, distinct([n for c in edge for n in adjacent(c) if alike(n, k) and n not in g]), k)
function grown(g: list of grid, new: list of grid, k: Colour): list of grid = grow(g + new, new, k)
function old(c: grid): list of grid = grow([c], [c], if empty(c) then none else top(c).colour)
function new(c: grid): list of grid =
  connected(x for x in adjacent(c) if alike(x, if empty(c) then none else top(c).colour))
var old_groups: list of list of grid = []
var new_groups: list of list of grid = []
turn {
  choose c from [x for x in cells(grid) if empty(x)] as "place"
  choose s from items(box) as "stone"
  move s to c
  old_groups = [old(x) for x in cells(grid)]
  new_groups = [new(x) for x in cells(grid)]
}
end when empty(box)
"""


def test_connected_finds_what_recursive_rules_find_on_random_positions():
    program = compiled(SAME)
    rnd = random.Random(13)
    compared = 0
    for seed in range(15):
        g = program.new_game(2, seed)
        while not g.over:
            legal = g.legal_moves()
            g.apply(legal[rnd.randrange(len(legal))])
            v = g.state["vars"]
            if v["old_groups"]:
                assert v["new_groups"] == v["old_groups"]
                compared += 1
    assert compared == 15 * 39  # every decision but the first


def test_connected_is_declared_once_and_documented():
    from pathlib import Path

    from meeple.dsl import builtins, check as checker
    assert checker.CLOSURES == set(builtins.CLOSURES) == {"connected"}
    assert not set(builtins.CLOSURES) & (set(builtins.BUILTINS) | builtins.AGGREGATES)
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    assert all(f"`{n}(x for x in " in doc for n in builtins.CLOSURES)
