"""ray(START, COORDINATE: STEP, ...) and until(x for x in LIST if COND) (docs/language.md
§7.8): the cells along a direction to the edge of the board, in order, on grids, hex boards
and listed boards (against the same cells found by hand); a list cut after the first
element where a condition holds; the work budget; the checker's located errors."""
from __future__ import annotations

import pytest
from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, merge
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, MeepleError, compile_sources
from meeple.interpreter.play.helpers import RuleError

FILE = "r.meeple"

PRELUDE = """ruleset r
players 2..3
kind Stone { seat: int }
board grid: grid(rows: 4, cols: 5) holds Stone
board map: hex(radius: 2) holds Stone
board river: cells {
  spring(x: 0, y: 0) ford(x: 2, y: 0) bend(x: 4, y: 0) mouth(x: 4, y: 2)
} holds Stone
zone box: Stone
deck stones into box { 4 of Stone(seat: s) for s in 1..2 }
var found: list of str = []
var ints: list of int = []
var n: int = 0
function at(r: int, c: int): grid = cell(grid, row: r, col: c)
"""
PRELUDE_LINES = PRELUDE.count("\n")
END = '\nturn { choose w from [0] as "wait" }\nend when false\n'

# stones on r1c3, r2c2 and r4c4 (the ray tests read them)
STONES = """
  move top(box) to at(1, 3)
  move top(box) to at(2, 2)
  move top(box) to at(4, 4)
"""


def compiled(text: str, budgets: Budgets | None = None):
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    return compile_sources(src, budgets=budgets)


def run(setup: str, budgets: Budgets | None = None) -> dict:
    text = PRELUDE + "setup {\n" + STONES + setup + "\n}" + END
    return compiled(text, budgets).new_game(2, 0).state["vars"]


def found(expr: str) -> list[str]:
    """The names of the cells `expr` gives, with the stones of STONES placed."""
    return run(f"  found = [x.name for x in {expr}]")["found"]


def diagnostics(rules: str):
    text = PRELUDE + rules + END
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    return [(d.code, d.span.line - PRELUDE_LINES, d.span.column) for d in diags.items]


# ---------------------------------------------------------------- ray: what it gives

def test_ray_gives_the_cells_along_a_direction_from_the_start_to_the_edge():
    assert found("ray(at(1, 1), row: 0, col: 1)") == ["r1c2", "r1c3", "r1c4", "r1c5"]
    assert found("ray(at(1, 1), row: 1, col: 1)") == ["r2c2", "r3c3", "r4c4"]
    assert found("ray(at(4, 3), row: -1, col: 1)") == ["r3c4", "r2c5"]


def test_ray_leaves_the_start_out_and_is_empty_at_the_edge():
    assert found("ray(at(1, 5), row: 0, col: 1)") == []
    assert found("ray(at(2, 2), row: -1, col: 0)") == ["r1c2"]


def test_ray_steps_by_more_than_one_cell():
    assert found("ray(at(1, 1), row: 0, col: 2)") == ["r1c3", "r1c5"]
    assert found("ray(at(1, 1), row: 3, col: 0)") == ["r4c1"]


def test_ray_with_no_step_or_no_start_gives_no_cell():
    assert found("ray(at(2, 2), row: 0, col: 0)") == []
    assert found("ray(at(9, 9), row: 1, col: 0)") == []


def test_ray_steps_may_be_computed():
    assert found("[c for d in [[0, 1], [1, 0]] for c in ray(at(3, 4), row: d[0], col: d[1])]") \
        == ["r3c5", "r4c4"]


def test_ray_on_a_hex_board_is_the_line_of_cells_found_by_hand():
    prog = compiled(PRELUDE + "setup {\n  found = [x.name for x in ray(cell(map, q: 0, r: 0), "
                    "q: 1, r: -1)] + [x.name for x in ray(cell(map, q: -2, r: 2), q: 1, r: 0)]\n}" + END)
    assert prog.new_game(2, 0).state["vars"]["found"] == ["q1r-1", "q2r-2", "q-1r2", "q0r2"]


def test_ray_on_every_cell_and_direction_of_a_hex_board_matches_the_coordinates():
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
    exprs = " + ".join(f"[x.name + \"@\" + c.name for c in cells(map) for x in ray(c, q: {dq}, r: {dr})]"
                       for dq, dr in dirs)
    got = run(f"  found = {exprs}")["found"]
    cells = {(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2}
    want = []
    for dq, dr in dirs:
        for r in range(-2, 3):          # the board's cell order: by r, then q
            for q in range(-2, 3):
                if (q, r) not in cells:
                    continue
                k = 1
                while (q + k * dq, r + k * dr) in cells:
                    want.append(f"q{q + k * dq}r{r + k * dr}@q{q}r{r}")
                    k += 1
    assert got == want


def test_ray_on_a_listed_board_follows_its_coordinates():
    prog = compiled(PRELUDE + "setup {\n  found = [x.name for x in ray(cell(river, name: \"spring\"), "
                    "x: 2, y: 0)]\n}" + END)
    assert prog.new_game(2, 0).state["vars"]["found"] == ["ford", "bend"]


def test_ray_serves_in_a_relation_and_a_variables_first_value():
    text = PRELUDE + "relation below(a: grid, b: grid) = b in ray(a, row: 1, col: 0)\n" \
        "var column: list of grid = ray(at(1, 1), row: 1, col: 0)\n" \
        "setup {\n  found = [x.name for x in below(at(2, 2)) + column]\n}" + END
    assert compiled(text).new_game(2, 0).state["vars"]["found"] == ["r3c2", "r4c2", "r2c1", "r3c1", "r4c1"]


# ---------------------------------------------------------------- until

def test_until_cuts_a_ray_after_the_first_cell_where_the_condition_holds():
    assert found("until(x for x in ray(at(1, 1), row: 0, col: 1) if occupied(x))") == ["r1c2", "r1c3"]
    assert found("until(x for x in ray(at(1, 1), row: 1, col: 1) if occupied(x))") == ["r2c2"]


def test_until_keeps_the_whole_list_when_the_condition_never_holds():
    assert found("until(x for x in ray(at(3, 1), row: 0, col: 1) if occupied(x))") == \
        ["r3c2", "r3c3", "r3c4", "r3c5"]
    assert found("until(x for x in ray(at(1, 5), row: 0, col: 1) if occupied(x))") == []


def test_until_cuts_any_list_and_sees_the_names_around_it():
    assert run("  n = 3\n  ints = until(i for i in [5, 1, 3, 2, 3] if i == n)")["ints"] == [5, 1, 3]


def test_until_counts_the_elements_it_looks_at_against_the_work_budget():
    # a list written out is not counted; until looks at 6 elements, then at 2
    setup = "  n = size(until(i for i in [1, 2, 3, 4, 5, 6] if i == {}))"
    assert run(setup.format(6), Budgets(work=6))["n"] == 6
    assert run(setup.format(2), Budgets(work=2))["n"] == 2
    with pytest.raises(RuleError) as e:
        run(setup.format(6), Budgets(work=5))
    assert e.value.code == "rule/budget" and "'work' budget" in str(e.value)


def test_a_missing_value_in_the_condition_of_until_is_a_located_rule_error():
    with pytest.raises(RuleError) as e:
        found("until(x for x in ray(at(1, 1), row: 0, col: 1) if top(x).seat == 9)")  # r1c2 is empty
    assert e.value.code == "rule/error" and "r.meeple:" in str(e.value) and "none" in str(e.value)


# ---------------------------------------------------------------- the checker

def test_ray_from_something_else_than_a_cell_is_a_located_type_error():
    assert diagnostics("var v: list of grid = ray(3, row: 1, col: 0)\n") == [("check/type-mismatch", 1, 27)]


def test_ray_steps_are_ints_named_by_coordinates_of_the_board():
    assert diagnostics("var v: list of grid = ray(at(1, 1), row: 1, col: true)\n") == \
        [("check/type-mismatch", 1, 50)]
    assert diagnostics("var v: list of grid = ray(at(1, 1), row: 1, colum: 1)\n") == \
        [("check/unknown-attribute", 1, 45)]
    assert diagnostics("var v: list of grid = ray(at(1, 1), row: 1, row: 1)\n")[0][0] == "check/duplicate"


def test_ray_steps_must_tell_the_cells_apart():
    assert diagnostics("var v: list of grid = ray(at(1, 1), row: 1)\n") == [("check/bad-value", 1, 23)]
    text = PRELUDE + "var v: list of str = [c.name for c in ray(cell(river, name: \"ford\"), y: 1)]\n" + END
    with pytest.raises(MeepleError) as e:
        compiled(text)
    (d,) = e.value.diagnostics
    assert d.code == "check/bad-value" and "do not tell the cells of 'river' apart" in d.message


def test_ray_on_a_generated_board_is_checked_for_each_player_count():
    text = PRELUDE.replace("board map: hex(radius: 2)", "board map: hex(radius: player_count())") + \
        "var v: list of map = ray(cell(map, q: 0, r: 0), ring: 1)\n" + END
    with pytest.raises(MeepleError) as e:
        compiled(text).for_players(2)
    assert any(d.code == "check/bad-value" and "(2 players)" in d.message for d in e.value.diagnostics)


def test_ray_without_named_steps_says_how_to_write_it():
    text = PRELUDE + "var v: list of grid = ray(at(1, 1))\n" + END
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    (d,) = diags.items
    assert d.code == "check/bad-value" and "ray(c, row: 1, col: 0)" in d.hint


def test_until_needs_one_clause_the_element_itself_and_a_condition():
    assert diagnostics("var v: list of grid = until(x for x in cells(grid))\n") == [("check/bad-value", 1, 23)]
    assert diagnostics("var v: list of grid = until(x for x in cells(grid) for y in [1] if empty(x))\n") == \
        [("check/bad-value", 1, 56)]
    assert diagnostics("var v: list of int = until(x.row for x in cells(grid) if empty(x))\n")[0] == \
        ("check/bad-value", 1, 30)


def test_functions_called_ray_and_until_hide_the_built_ins():
    # issue 34: 'ray' became a built-in and broke every ruleset that declared its own;
    # a declaration named like a built-in hides it (tests/test_shadowing.py)
    assert diagnostics("function ray(c: grid): bool = true\nfunction until(c: grid): bool = true\n") == []
