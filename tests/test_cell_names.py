"""How cells are written and typed beside other boards (docs/language.md 9.3, "Cells of
several boards"): a board ``named`` the way people name its cells, with names no other
board has, is written without its board's name (``place c3``); a cell is typed by its
name alone when no other board has it, with its board's name in any case, and in any
letter case when that names one cell; ``testing.zone`` and ``testing.position`` take
cells the same ways. Rulesets whose boards are not so named write their moves as before
(clans-and-glory's ``at table.p2a1``), so their records stay the same."""
import random

import pytest
from kernel_support import needs_kernel
from meeple.interpreter import IllegalMove, testing
from meeple.interpreter.record import Record, replay

from meeple import interpreter

TWO_BOARDS = """ruleset two_boards
players 2..2
kind Stone { seat: int }
board grid: grid(rows: 2, cols: 2) named "{col:a}{row}" holds Stone
board tray: line(length: 2) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..3 }
turn {
  choose (c, t) from [(c, none) for c in cells(grid) if empty(c)]
                     + [(none, t) for t in cells(tray) if empty(t)] as "place"
  if c != none { move top(box) to c } else { move top(box) to t }
}
end when all(occupied(c) for c in cells(grid))
"""


def _rules(text: str, tmp_path, name: str = "rules"):
    path = tmp_path / f"{name}.meeple"
    path.write_text(text, encoding="utf-8")
    return interpreter.load(str(path), cache=False)


def test_a_named_board_with_names_of_its_own_is_written_without_its_name(tmp_path):
    game = _rules(TWO_BOARDS, tmp_path).new_game(2, 0)
    assert testing.notations(game) == ["place tray.s1", "place tray.s2", "place a1",
                                       "place b1", "place a2", "place b2"]


def test_named_boards_sharing_a_name_keep_their_names(tmp_path):
    # the tray named s1, s2 like... a grid cell: both boards keep their names
    text = TWO_BOARDS.replace('board tray: line(length: 2)',
                              'board tray: line(length: 2) named "a{pos}"')
    game = _rules(text, tmp_path).new_game(2, 0)
    assert testing.notations(game) == ["place tray.a1", "place tray.a2", "place grid.a1",
                                       "place grid.b1", "place grid.a2", "place grid.b2"]
    with pytest.raises(IllegalMove, match="'a1' is not a legal move"):
        game.apply("a1")   # two cells have that name
    assert game.apply("GRID.A1").notation == "place grid.a1"
    assert game.apply("b1").notation == "place grid.b1"   # the tray has no b1


@pytest.mark.parametrize("typed, played", [
    ("place grid.b1", "place b1"), ("grid.b1", "place b1"), ("B1", "place b1"),
    ("Grid:B1", None), ("s2", "place tray.s2"), ("PLACE TRAY.S2", "place tray.s2"),
    ("place S1", "place tray.s1"), ("b3", None)])
def test_a_cell_is_typed_in_every_way_that_names_it(tmp_path, typed, played):
    game = _rules(TWO_BOARDS, tmp_path).new_game(2, 0)
    if played is None:
        with pytest.raises(IllegalMove, match=f"'{typed}' is not a legal move now"):
            game.find_move(typed)
    else:
        assert game.find_move(typed).notation == played


def test_a_hidden_place_after_a_cell_name_is_not_a_cell(tmp_path):
    # a position after '#' is a number, never read as a cell named "2"
    text = TWO_BOARDS.replace('board tray: line(length: 2)',
                              'board tray: line(length: 2) named "{pos}"')
    game = _rules(text, tmp_path).new_game(2, 0)
    assert testing.notations(game)[:2] == ["place 1", "place 2"]
    with pytest.raises(IllegalMove, match="'deck#2' is not a legal move"):
        game.apply("deck#2")
    assert game.apply("tray.2").notation == "place 2"


def test_testing_takes_a_cell_as_it_is_typed(tmp_path):
    rules = _rules(TWO_BOARDS, tmp_path)
    program = rules.for_players(2)
    grid_b2 = testing.zone(program, "grid:b2")
    for key in ("b2", "B2", "grid.b2", "GRID:B2", "Grid.B2"):
        assert testing.zone(program, key) == grid_b2
    assert testing.zone(program, "S1") == testing.zone(program, "tray:s1")
    assert testing.zone(program, "BOX") == testing.zone(program, "box")
    with pytest.raises(LookupError, match="no zone 'c9'"):
        testing.zone(program, "c9")
    game = testing.position(rules, 2, zones={"A1": [0], "s2": [1]})
    assert testing.at(game, "a1") == [0] and testing.at(game, "TRAY:S2") == [1]
    assert testing.notations(game) == ["place tray.s1", "place b1", "place a2", "place b2"]


def test_a_record_of_the_board_prefixed_moves_still_replays(tmp_path):
    # a record made before the board was named writes grid.b1: it replays the same
    rules = _rules(TWO_BOARDS, tmp_path)
    game = rules.new_game(2, 0)
    for text in ("place grid.b1", "place tray.s1", "place grid.a1"):
        game.apply(text)
    old = Record(ruleset="two_boards", players=2, seed=0, variants=[], locale=None,
                 moves=["place grid.b1", "place tray.s1", "place grid.a1"])
    again = replay(rules.for_players(2), old)
    assert again.state == game.state


def test_boards_not_named_are_written_as_before():
    # clans-and-glory's boards keep their names: its moves and records do not change,
    # and a cell may now be typed by its name alone, in any case
    game = interpreter.load("clans-and-glory").new_game(3, 1)
    game.apply(0)
    notations = testing.notations(game)
    assert notations[:2] == ["at table.p2a1", "at table.p2a3"]
    assert game.find_move("p2a3").notation == "at table.p2a3"
    assert game.find_move("AT P2A3").notation == "at table.p2a3"
    assert game.find_move("at Table.P2a3").notation == "at table.p2a3"


def test_quoridor_keeps_its_board_names():
    # two named boards sharing a1 .. d4: both keep their names
    game = interpreter.load("tests/testdata/quoridor", cache=False).new_game(2, 1)
    assert testing.notations(game)[:2] == ["wall.a1 h", "wall.a1 v"]


@needs_kernel
def test_the_kernel_writes_and_reads_the_same_notation(tmp_path, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    fast = _rules(TWO_BOARDS, tmp_path, "fast")
    said: list[str] = []
    fast.use_native(report=said.append, kernel_only=True)
    plain = _rules(TWO_BOARDS, tmp_path, "plain")
    fast_p, plain_p = fast.for_players(2), plain.for_players(2)
    assert fast_p.kernel, said
    for seed in range(3):
        a, b = fast_p.new_game(2, seed), plain_p.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert testing.notations(a) == testing.notations(b)
            typed = rnd.choice(testing.notations(b)).split()[-1].upper()   # the cell alone
            assert a.apply(typed).notation == b.apply(typed).notation
        assert a.state["zones"] == b.state["zones"] and a.result == b.result


def test_a_board_named_in_capitals_is_typed_in_lower_case(tmp_path):
    text = TWO_BOARDS.replace('named "{col:a}{row}"', 'named "{col:A}{row}"')
    rules = _rules(text, tmp_path)
    game = rules.new_game(2, 0)
    assert testing.notations(game)[2:4] == ["place A1", "place B1"]
    assert game.apply("b1").notation == "place B1"
    assert game.apply("place grid.a2").notation == "place A2"
    assert testing.zone(rules.for_players(2), "b2") == testing.zone(rules.for_players(2), "grid:B2")


def test_meeple_play_takes_a_cell_as_it_is_typed_and_records_its_notation(tmp_path):
    from meeple.cli.main import app
    from meeple.interpreter import record
    from typer.testing import CliRunner
    path = tmp_path / "two_boards.meeple"
    path.write_text(TWO_BOARDS, encoding="utf-8")
    r = CliRunner().invoke(app, ["play", str(path), "--seed", "0", "--bot", "2=first",
                                 "--record", str(tmp_path / "p.json")],
                           input="S2\nGrid.B2\nquit\n", env={"COLUMNS": "100", "LINES": "40"})
    assert "Traceback" not in r.output and "Illegal move" not in r.output, r.output
    assert "Player 1: place tray.s2" in r.output and "Player 1: place b2" in r.output, r.output
    moves = record.load(tmp_path / "p.json").moves
    assert moves[0] == "place tray.s2" and moves[2] == "place b2"
