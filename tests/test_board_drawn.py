"""A listed board's ``drawn at (X, Y)``: where its cells are drawn, from their
coordinates, so that coordinates named ``x`` and ``y`` keep their own meaning (issue 37,
item 8). Without it, the coordinates ``x`` and ``y`` place the cells, as before."""
from __future__ import annotations

from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, merge
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources

FILE = "r.meeple"
HEAD = """ruleset r
players 2..2
kind Stone { seat: int }
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..3 }
"""
TAIL = """turn {
  choose c from [c for c in cells(plot) if empty(c) and c.y == 1] as "place"
  move top(box) to c
}
end when all(occupied(c) for c in cells(plot) if c.y == 1)
"""
CELLS = """board plot: cells {
  a1(x: 1, y: 1) b1(x: 2, y: 1)
  a2(x: 1, y: 2) b2(x: 2, y: 2)
}"""


def checked(board: str):
    text = HEAD + board + " holds Stone\n" + TAIL
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    return check(merge(src, [], None, Diagnostics()), Diagnostics())


def positions(board: str) -> dict[str, tuple[int, int]]:
    c, diags = checked(board)
    assert not [d for d in diags.items if d.severity == "error"], [d.message for d in diags.errors()]
    return {cell.name: (cell.x, cell.y) for cell in c.boards["plot"].cells}


def test_without_drawn_at_the_coordinates_x_and_y_place_the_cells():
    assert positions(CELLS) == {"a1": (1, 1), "b1": (2, 1), "a2": (1, 2), "b2": (2, 2)}


def test_drawn_at_places_the_cells_and_leaves_x_and_y_to_the_rules():
    assert positions(CELLS + " drawn at (2 * x, 2 - y)") == \
        {"a1": (2, 1), "b1": (4, 1), "a2": (2, 0), "b2": (4, 0)}
    text = HEAD + CELLS + " drawn at (2 * x, 2 - y) holds Stone\n" + TAIL
    rs = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))
    g = rs.new_game(2)
    assert sorted(m.notation for m in g.legal_moves()) == ["place a1", "place b1"]   # c.y is the coordinate


def test_drawn_at_reads_any_coordinate_and_negative_values():
    board = """board plot: cells {
  a1(col: 1, row: 1, x: 0, y: 0) b1(col: 2, row: 1, x: 0, y: 0)
  a2(col: 1, row: 2, x: 0, y: 0) b2(col: 2, row: 2, x: 0, y: 0)
} drawn at (-col + 3 * row, -(row - 2))"""
    assert positions(board) == {"a1": (2, 1), "b1": (1, 1), "a2": (5, 0), "b2": (4, 0)}


def test_a_name_that_is_not_a_coordinate_is_a_located_error():
    _, diags = checked(CELLS + " drawn at (2 * col, y)")
    [e] = [d for d in diags.items if d.severity == "error"]
    assert e.code == "check/unknown-name" and "coordinate 'col'" in e.message
    assert (e.span.line, e.span.column) == (9, 17)


def test_another_operator_is_a_located_error_for_each_position():
    _, diags = checked(CELLS + " drawn at (x / 2, y % 2)")
    assert [(e.code, e.span.column) for e in [d for d in diags.items if d.severity == "error"]] == \
        [("check/bad-value", 13), ("check/bad-value", 20)]


def test_a_generated_board_may_be_drawn_at_its_own_places():
    text = """ruleset r
players 2..2
kind K { v: int }
board rhombus: grid(rows: 2, cols: 3) drawn at (2 * col + row, row - 1) holds K
board plain: grid(rows: 2, cols: 3) holds K
turn { end game }
"""
    prog = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text})).for_players(2)

    def cells(board):
        return {prog.zones[z].cell.name: (prog.zones[z].cell.x, prog.zones[z].cell.y)
                for z in prog.boards[board]}
    assert cells("rhombus") == {"r1c1": (3, 0), "r1c2": (5, 0), "r1c3": (7, 0),
                                "r2c1": (4, 1), "r2c2": (6, 1), "r2c3": (8, 1)}
    assert cells("plain")["r2c1"] == (0, 1)     # the generator's places without it
    bad = text.replace("row - 1)", "ring)")
    _, diags = check(merge(SourceSet(base=parse(bad, FILE), sources={FILE: bad}), [], None,
                           Diagnostics()), Diagnostics())
    assert [(d.code, "coordinate 'ring'" in d.message) for d in diags.errors()] == \
        [("check/unknown-name", True)]
