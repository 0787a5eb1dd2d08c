"""Edges boards: the sides two cells share, where walls stand (docs/language.md §5.4.1,
issue 37). Rule tests on positions built by hand: which edges a board has and their names,
`edge(E, a, b)`, a wall that closes a step both ways (`across(E, a)`), `connected` walking
round the walls; the checker's located errors; and the three engines (the straightforward
Python, the fast Python, the kernel) playing the same maze game move by move."""
from __future__ import annotations

from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_plays_as_python, play_both
from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, merge
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

FILE = "e.meeple"

# a 3 x 3 yard (a1 .. c3) and its sides; `wall("b1", "b2")` puts a wall between two
# squares in the setup
PRELUDE = """ruleset e
players 2..2
kind Wall { }
board yard: grid(rows: 3, cols: 3) named "{col:a}{row}" holds Wall
board side: edges(of: yard) holds Wall
board track: line(length: 4) holds Wall
board rail: edges(of: track) holds Wall
board map: hex(radius: 1) holds Wall
board seams: edges(of: map) holds Wall
supply walls: 12 of Wall()
var found: list of str = []
var n: int = 0
function sq(name: str): yard = cell(yard, name: name)
procedure wall(a: str, b: str) {
  make Wall at edge(side, sq(a), sq(b))
}
"""
PRELUDE_LINES = PRELUDE.count("\n")
END = '\nturn { choose w from [0] as "wait" }\nend when false\n'


def compiled(text: str, budgets: Budgets | None = None):
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    return compile_sources(src, budgets=budgets)


def found(expr: str, walls: tuple = (), budgets: Budgets | None = None) -> list[str]:
    """The names of the cells `expr` gives, after these walls are put up."""
    setup = "".join(f'  call wall("{a}", "{b}")\n' for a, b in walls)
    text = PRELUDE + "setup {\n" + setup + f"  found = [x.name for x in {expr}]\n}}" + END
    return compiled(text, budgets).new_game(2, 0).state["vars"]["found"]


def diagnostics(rules: str):
    text = PRELUDE + rules + END
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    return [(d.code, d.span.line - PRELUDE_LINES) for d in diags.items]


# ---------------------------------------------------------------- the edges
def test_a_grid_has_an_edge_for_each_two_squares_side_by_side():
    edges = found("cells(side)")
    # 3 rows of 2 sides between cols, 2 rows of 3 sides between rows; by the first
    # square, then the second, in cell order
    assert len(edges) == 12
    assert edges[:4] == ["a1-b1", "a1-a2", "b1-c1", "b1-b2"]
    assert edges[-3:] == ["c2-c3", "a3-b3", "b3-c3"]


def test_an_edge_has_the_sum_of_its_squares_coordinates():
    # twice its middle: between rows 1 and 2 of col 2, row 3 and col 4
    text = PRELUDE + 'setup {\n  let e = edge(side, sq("b1"), sq("b2"))\n  n = 10 * e.row + e.col\n}' + END
    assert compiled(text).new_game(2, 0).state["vars"]["n"] == 34


def test_a_line_and_a_hex_have_edges_too():
    assert found("cells(rail)") == ["s1-s2", "s2-s3", "s3-s4"]
    # seven hexes: six round the centre, each touching it and its two neighbours
    assert len(found("cells(seams)")) == 12
    assert found("across(rail, cell(track, pos: 2))") == ["s1", "s3"]
    centre = "cell(map, q: 0, r: 0)"
    assert len(found(f"across(seams, {centre})")) == 6
    ring = found(f"across(seams, cell(map, q: 1, r: 0), [edge(seams, {centre}, cell(map, q: 1, r: 0))])")
    assert len(ring) == 2 and "q0r0" not in ring


def test_edge_is_the_edge_between_two_squares_either_way_or_none():
    assert found('[edge(side, sq("b2"), sq("b1")), edge(side, sq("b1"), sq("b2"))]') == ["b1-b2", "b1-b2"]
    text = PRELUDE + 'setup {\n  if edge(side, sq("a1"), sq("b2")) == none and edge(side, sq("a1"), none) == none ' \
        '{ n = 1 }\n}' + END
    assert compiled(text).new_game(2, 0).state["vars"]["n"] == 1


def test_an_edge_is_named_in_the_rules_by_its_cells_names():
    assert found('[cell(side, name: "a1-b1"), cell(side, row: 2, col: 3)]') == ["a1-b1", "a1-b1"]
    # squares that share no side have no edge: a located error when the ruleset is loaded
    with pytest.raises(Exception, match="no-such-cell") as e:
        found('[cell(side, name: "a1-c1")]')
    assert "a1-c1" in str(e.value)


# ---------------------------------------------------------------- walls
def test_a_wall_closes_the_step_between_two_squares_both_ways():
    assert found('across(side, sq("b2"))') == ["b1", "a2", "c2", "b3"]
    assert found('across(side, sq("b2"))', walls=[("b1", "b2")]) == ["a2", "c2", "b3"]
    assert "b2" not in found('across(side, sq("b1"))', walls=[("b2", "b1")])
    # the corner's two sides walled: no step at all; none has no cells beside it
    assert found('across(side, sq("a1"))', walls=[("a1", "b1"), ("a1", "a2")]) == []
    assert found("across(side, none)") == []


def test_connected_goes_round_the_walls():
    # a wall from the top: b1|c1 and b2|c2 closed, c1 is reached the long way round
    walls = [("b1", "c1"), ("b2", "c2")]
    got = found('connected(x for x in across(side, sq("a1")))', walls)
    assert len(got) == 9 and got.index("c1") == 8
    # closed in: the third wall b3|c3 cuts the c column off
    got = found('connected(x for x in across(side, sq("a1")))', walls + [("b3", "c3")])
    assert sorted(got) == ["a1", "a2", "a3", "b1", "b2", "b3"]
    assert found('connected(x for x in across(side, sq("a1")) if x.col < 3 and x != sq("b2"))') == \
        ["a1", "b1", "a2", "a3", "b3"]


def test_edges_may_be_taken_as_closed_before_a_wall_stands_there():
    b1b2 = 'edge(side, sq("b1"), sq("b2"))'
    assert found(f'across(side, sq("b2"), [{b1b2}])') == ["a2", "c2", "b3"]
    assert found(f'across(side, sq("b2"), [{b1b2}, edge(side, sq("b2"), sq("b3"))])') == ["a2", "c2"]
    assert found('across(side, sq("b2"), [])') == ["b1", "a2", "c2", "b3"]
    # the wall b2|c2 taken as closed, b1|c1 and b3|c3 standing: the c column is cut off
    shut = 'connected(x for x in across(side, sq("a1"), [edge(side, sq("b2"), sq("c2"))]))'
    assert sorted(found(shut, walls=[("b1", "c1"), ("b3", "c3")])) == ["a1", "a2", "a3", "b1", "b2", "b3"]
    # nothing was put down: without the list, c1 is reached
    assert "c1" in found('connected(x for x in across(side, sq("a1")))', walls=[("b1", "c1"), ("b3", "c3")])


def test_connected_through_edges_counts_the_open_sides_it_looks_at():
    # the start, then each square's open sides: 4 corners with 2, 4 borders with 3, the
    # middle 4 (24 in all); one wall takes one side from two squares
    expr = 'connected(x for x in across(side, sq("a1")))'
    text = PRELUDE + f"setup {{\n  n = size({expr})\n}}" + END
    assert compiled(text, Budgets(work=25)).new_game(2, 0).state["vars"]["n"] == 9
    with pytest.raises(Exception, match="work"):
        compiled(text, Budgets(work=24)).new_game(2, 0)
    walled = PRELUDE + f'setup {{\n  call wall("a1", "b1")\n  n = size({expr})\n}}' + END
    assert compiled(walled, Budgets(work=23)).new_game(2, 0).state["vars"]["n"] == 9


# ---------------------------------------------------------------- quoridor's walls
# (tests/testdata/quoridor: a wall lies on two gaps of an edges board and on the corner
# between them; these need no OpenSpiel, tests/test_quoridor_openspiel.py compares)
QUORIDOR = Path(__file__).resolve().parent / "testdata" / "quoridor"


def quoridor_moves(*played: str) -> set[str]:
    game = interpreter.load(str(QUORIDOR)).for_players(2).new_game(2, 0)
    for m in played:
        game.apply(m)
    return {m.notation for m in game.legal_moves()}


def test_a_quoridor_wall_may_not_cross_or_overlap_another():
    # b2 v stands between cols b and c on rows 2 and 3
    moves = quoridor_moves("wall.b2 v")
    assert "wall.b2 h" not in moves                              # across it: one middle
    assert "wall.b1 v" not in moves and "wall.b3 v" not in moves  # on one of its gaps
    assert {"wall.a2 h", "wall.c2 h", "wall.b1 h", "wall.b4 v"} <= moves


def test_a_quoridor_pawn_goes_round_a_wall():
    # seat 1 on c5 lays b4 h, the gaps under b4 and c4 closed: it may not go up to c4
    moves = quoridor_moves("wall.b4 h", "pawn.c2")
    assert {m for m in moves if m.startswith("pawn.")} == {"pawn.b5", "pawn.d5"}


def test_a_quoridor_wall_may_not_shut_a_pawn_off():
    # a4 v and d3 h down: b3 h would leave seat 1 (c5) only a4 and a5 beyond it
    assert "wall.b3 h" not in quoridor_moves("wall.a4 v", "wall.d3 h")
    assert "wall.b3 h" in quoridor_moves("wall.a4 v")


# ---------------------------------------------------------------- the checker
def test_edges_are_made_of_an_earlier_grid_hex_or_line_board():
    assert diagnostics("board banks: edges(of: river) holds Wall") == [("check/unknown-name", 1)]
    assert diagnostics("board banks: edges(of: yard, rows: 2) holds Wall") == [("check/bad-value", 1)]
    assert diagnostics("board river: cells { a(x: 0, y: 0) b(x: 2, y: 0) } holds Wall\n"
                       "board banks: edges(of: river) holds Wall") == [("check/bad-value", 2)]
    assert diagnostics("board pyramid: triangle(rows: 3) holds Wall\n"
                       "board steps: edges(of: pyramid) holds Wall") == [("check/bad-value", 2)]
    assert diagnostics("board banks: edgez(of: yard) holds Wall")[0][0] == "check/unknown-name"
    # the message says why, the hint how
    text = PRELUDE + "board pyramid: triangle(rows: 3) holds Wall\nboard steps: edges(of: pyramid) holds Wall" + END
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    d = diags.items[0]
    assert d.message == "the sides of board 'pyramid' are not known: edges are made for grid, hex and line boards"
    assert d.hint == "write edges(of: BOARD), BOARD a grid, hex or line board declared before"


def test_edge_and_across_take_an_edges_board_and_its_cells():
    assert diagnostics("function f(c: yard): list of yard = across(yard, c)") == [("check/type-mismatch", 1)]
    assert diagnostics("function f(c: map): list of yard = across(side, c)") == [("check/type-mismatch", 1)]
    assert diagnostics("function f(c: yard): side = edge(side, c, 3)") == [("check/type-mismatch", 1)]
    assert diagnostics("function f(c: yard): list of yard = connected(x for x in across(side, c))") == []


def test_a_function_called_across_hides_the_built_in():
    # (a ruleset written before the built-in goes on calling its own)
    rules = "function across(n: int): int = n + 1\nsetup { n = across(2) }\n"
    text = PRELUDE + rules + END
    assert compiled(text).new_game(2, 0).state["vars"]["n"] == 3


# ---------------------------------------------------------------- every engine
MAZE = """ruleset maze
players 2..2
kind Pawn { }
kind Wall { }
board yard: grid(rows: 4, cols: 4) holds Pawn
board side: edges(of: yard) holds Wall
zone box: Pawn
deck pawns into box { Pawn() }
supply walls: 24 of Wall()
var turns: int = 0
function here(): yard = first(c for c in cells(yard) if occupied(c))
function room(): list of yard = connected(x for x in across(side, here()))
setup { move top(box) to cell(yard, row: 1, col: 1) }
turn {
  if seat(active) == 1 {
    choose to from across(side, here()) as "step" or "stay"
    if to != none { move top(here()) to to }
  } else {
    # a wall that leaves the pawn more than 4 squares (looked at before it stands)
    choose e from [e for e in cells(side) if empty(e)
                   and size(connected(x for x in across(side, here(), [e]))) > 4] as "wall" or "pass"
    if e != none { make Wall at e }
  }
  turns += 1
}
end when turns == 30 or size(room()) <= 4
score(p) = if seat(p) == 1 then size(room()) else 16 - size(room())
"""


def _maze(optimize: bool, monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    return compiled(MAZE)


def test_the_straightforward_and_the_fast_code_play_the_maze_alike(monkeypatch):
    plain, fast = _maze(False, monkeypatch), _maze(True, monkeypatch)
    for seed in range(6):
        assert play_both(fast, plain, 2, seed, 40) > 4


@needs_kernel
@pytest.mark.kernels
def test_the_kernel_plays_the_maze_as_python(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    src = SourceSet(base=parse(MAZE, FILE), sources={FILE: MAZE})
    rules, plain = compile_sources(src), compile_sources(src).for_players(2)
    assert rules.use_native(report=False)
    fast = rules.for_players(2)
    assert fast.kernel
    assert kernel_plays_as_python(fast, plain, 4) > 20 and fast.native_fallbacks == 0
