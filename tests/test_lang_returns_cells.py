"""Two constructs of issue 11 §4, at run time: procedures that return a value
(``return EXPR``, ``let v = call p(...)``, ``x = call p(...)``), also across player
decisions and a JSON round trip of the state in the middle; and the cell literal
``cell(board, coordinate: value, ...)`` / ``cell(board, name: "...")`` on every kind of
board, ``none`` off the board. (Parsing: tests/test_parse.py; check errors:
testdata/check_errors.meeple.)"""
from __future__ import annotations

import json

import pytest
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.analysis import testing

FILE = "r.meeple"

HEAD = """ruleset r
players 2..2
kind Card { v: int }
zone pile: Card
zone hand: Card per player
zone used: Card
deck cards into pile { Card(v: i) for i in 1..6 }
var n: int = 0
var done: bool = false
var gold: int per player = 0
"""
WAIT = 'turn { choose w from [0] as "wait" }\nend when done\n'


def load(rules: str, head: str = HEAD):
    text = head + rules
    return compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


def round_trip(ruleset, game):
    """The game resumed from its state written as JSON and read back."""
    return ruleset.resume(json.loads(game.to_json()))


# ---------------------------------------------------------------- return

def test_return_gives_the_value_to_let_and_to_a_global():
    rs = load("""
procedure double(x: int): int { return x * 2 }
setup {
  let v = call double(4)
  n = call double(v + 1)
}
""" + WAIT)
    assert rs.new_game(2).state["vars"]["n"] == 18


def test_return_into_a_per_player_variable_a_local_and_active():
    rs = load("""
procedure seat_after(p: player): player { return next_player(p) }
procedure ten(): int { return 10 }
setup {
  gold(players[1]) = call ten()
  let x = 1
  x = call ten()
  n = x + 1
  active = call seat_after(active)
}
""" + WAIT)
    g = rs.new_game(2)
    assert g.state["pvars"]["gold"] == [0, 10]
    assert g.state["vars"]["n"] == 11
    assert g.active_player == 1


def test_return_across_a_decision_survives_a_json_round_trip():
    rs = load("""
procedure pick_value(p: player): int {
  choose c from items(pile) by p as "take"
  move c to hand(p)
  return c.v * 10
}
setup {
  gold(players[0]) = call pick_value(players[0])
  done = true
}
turn { }
end when done
""")
    g = rs.new_game(2)
    frames = g.state["stack"]
    assert [f["p"] for f in frames] == ["setup", "pick_value"]
    assert frames[1]["L"]["$ret"] in frames[0]["L"]  # the caller's slot, in plain data
    resumed = round_trip(rs, g)
    resumed.apply("take 4")
    g.apply("take 4")
    assert resumed.state["pvars"]["gold"] == g.state["pvars"]["gold"] == [40, 0]
    assert resumed.state == g.state


def test_nested_returns_across_decisions_with_a_round_trip_at_every_move():
    rs = load("""
procedure take(): int {
  choose c from items(pile) as "take"
  move c to used
  return c.v
}
procedure take_two(): int {
  let a = call take()
  let b = call take()
  return a * 10 + b
}
turn {
  n = call take_two()
  done = true
}
end when done
""")
    g = rs.new_game(2)
    for move in ("take 2", "take 5"):
        assert [f["p"] for f in g.state["stack"]][-1] == "take"
        g = round_trip(rs, g)
        g.apply(move)
    assert g.over
    assert g.state["vars"]["n"] == 25


def test_bare_return_ends_the_procedure_early():
    rs = load("""
procedure count_to(k: int) {
  for i in 1..10 {
    if i > k {
      return
    }
    n = n + 1
  }
  n = 100
}
setup { call count_to(3) }
""" + WAIT)
    assert rs.new_game(2).state["vars"]["n"] == 3


def test_return_inside_a_loop_and_a_recursive_procedure():
    rs = load("""
procedure first_over(k: int): int {
  for c in items(pile) {
    if c.v > k {
      return c.v
    }
  }
  return 0
}
procedure factorial(k: int): int {
  if k <= 1 {
    return 1
  }
  let rest = call factorial(k - 1)
  return k * rest
}
setup {
  let a = call first_over(3)
  let b = call factorial(5)
  n = a * 1000 + b
}
""" + WAIT)
    assert rs.new_game(2).state["vars"]["n"] == 4120


def test_a_value_procedure_run_with_call_drops_its_value():
    rs = load("""
procedure bump(): int {
  n = n + 1
  return n
}
setup {
  call bump()
  call bump()
}
""" + WAIT)
    assert rs.new_game(2).state["vars"]["n"] == 2


def test_an_error_in_a_returned_value_names_the_procedure_and_its_place():
    rules = """
procedure ratio(k: int): int {
  return 10 / k
}
setup { n = call ratio(0) }
""" + WAIT
    rs = load(rules)
    with pytest.raises(RuleError) as e:
        rs.new_game(2)
    line = line_of(HEAD + rules, "return 10 / k")
    assert str(e.value).startswith(f"in procedure ratio at {FILE}:{line}:3: division by zero")


def test_a_ruleset_with_returns_and_hidden_hands_passes_meeple_test(tmp_path):
    path = tmp_path / "returns.meeple"
    path.write_text(HEAD + """
procedure discard_one(p: player): int {
  choose c from items(hand(p)) by p as "discard"
  move c to used
  return c.v
}
setup { deal 3 from pile to hand }
turn {
  if occupied(hand(active)) {
    gold(active) = call discard_one(active)
  } else {
    done = true
  }
}
end when done
score(p) = gold(p)
""", encoding="utf-8")
    testing.check_ruleset(str(path), examples=8)


# ---------------------------------------------------------------- cell(board, ...)

BOARDS = """ruleset b
players 2..3
kind Stone { v: int }
board square: grid(rows: 3, cols: 4) holds Stone
board pyramid: triangle(rows: 4) holds Stone
board field: hex(radius: player_count()) holds Stone
board track: line(length: 5) holds Stone
board bench: strip(parts: 2, slots: 2) holds Stone
board river: cells {
  spring(x: 0, y: 0)
  ford(x: 2, y: 0)
  mouth(x: 4, y: 1)
} holds Stone
zone bag: Stone
deck stones into bag { Stone(v: i) for i in 1..20 }
var names: list of str = []
var done: bool = false
"""


@pytest.mark.parametrize("expr, name", [
    ("cell(square, row: 2, col: 3)", "r2c3"),
    ("cell(square, name: \"r3c4\")", "r3c4"),
    ("cell(pyramid, row: 4, col: 1)", "r4c1"),
    ("cell(field, q: -1, r: 2)", "q-1r2"),
    ("cell(field, r: 1, s: 0)", "q-1r1"),
    ("cell(track, pos: 5)", "s5"),
    ("cell(bench, part: 2, side: 2, slot: 1)", "p2b1"),
    ("cell(bench, col: 3, side: 1)", "p2a1"),
    ("cell(river, x: 2)", "ford"),
    ("cell(river, name: \"mouth\")", "mouth"),
])
def test_cell_by_coordinates_or_name_on_every_kind_of_board(expr, name):
    text = BOARDS + f"setup {{\n  move top(bag) to {expr}\n  names = [{expr}.name]\n}}\n" + WAIT
    rs = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))
    g = rs.new_game(2)
    assert g.state["vars"]["names"] == [name]
    board = expr[5:expr.index(",")]
    assert len(testing.at(g, f"{board}:{name}")) == 1


def test_a_computed_cell_off_the_board_is_none():
    text = BOARDS + """
function at(r: int, c: int): square = cell(square, row: r, col: c)
setup {
  let k = 4
  let off = [cell(square, row: k, col: 1) == none, at(0, 1) == none, cell(track, pos: k + 2) == none,
             cell(river, name: "se" + "a") == none, at(3, 4) == none]
  names = [if x then "none" else "cell" for x in off]
}
""" + WAIT
    g = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text})).new_game(2)
    assert g.state["vars"]["names"] == ["none", "none", "none", "none", "cell"]


def test_using_a_cell_off_the_board_is_a_located_rule_error():
    rules = """
var k: int = 7
setup {
  move top(pile) to cell(grid, row: k, col: 1)
}
""" + WAIT
    head = HEAD + "board grid: grid(rows: 3, cols: 3) holds Card\n"
    rs = load(rules, head)
    with pytest.raises(RuleError) as e:
        rs.new_game(2)
    line = line_of(head + rules, "move top(pile) to cell(")
    assert str(e.value).startswith(f"in setup at {FILE}:{line}:3: ")
    assert "none" in e.value.detail and "Error" not in e.value.detail


def test_cells_in_relations_and_functions_are_looked_up_after_the_boards_are_made():
    text = BOARDS + """
relation right_of(a: square, b: square) = b == cell(square, row: a.row, col: a.col + 1)
function corner(): square = cell(square, row: 1, col: 1)
setup {
  names = [c.name for c in right_of(corner())] + [c.name for c in right_of(cell(square, row: 1, col: 4))]
}
""" + WAIT
    g = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text})).new_game(2)
    assert g.state["vars"]["names"] == ["r1c2"]


def test_a_literal_off_a_board_sized_by_the_player_count_is_a_load_error():
    text = BOARDS + "setup {\n  move top(bag) to cell(field, q: 3, r: 0)\n}\n" + WAIT
    with pytest.raises(MeepleError) as e:
        compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))
    (d,) = e.value.diagnostics
    assert d.code == "check/no-such-cell"
    assert (d.span.line, d.span.column) == (line_of(text, "cell(field, q: 3"), 35)
    assert d.message == "board 'field' has no cell with q 3 (2 players)"
    assert d.hint == "its cells have q -2 to 2"


def test_coordinates_that_do_not_pick_one_cell_of_a_generated_board_are_a_load_error():
    text = BOARDS + "setup {\n  move top(bag) to cell(field, ring: 1)\n}\n" + WAIT
    with pytest.raises(MeepleError) as e:
        compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))
    (d,) = e.value.diagnostics
    assert d.code == "check/bad-value"
    assert d.message.startswith("ring alone does not pick one cell of 'field': 6 cells have ring 1")
