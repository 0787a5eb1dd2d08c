"""``offscreen BOARD`` (issue 37): a board the rules use for book-keeping, such as a
scratch board to turn another through, is not drawn by the terminal screens (``meeple
play``, ``meeple replay``, every layout) nor by the web table; it changes nothing else
(docs/language.md 12.5)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from meeple.cli import render
from meeple.cli.play import HUMAN, PlaySession
from meeple.web import present

from meeple import interpreter

TURNTABLE = """ruleset turntable
players 2..2
kind Stone { seat: int }
board grid: grid(rows: 2, cols: 2) named "{col:a}{row}" holds Stone
board spare: grid(rows: 2, cols: 2) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for i in 1..2 for s in 1..2 }
name grid "Turntable"
name spare "Scratch"
turn {
  choose c from [c for c in cells(grid) if empty(c)] as "place"
  move top(box) to c
  # a quarter turn of the grid, through the spare board
  for x in cells(grid) {
    if occupied(x) { move top(x) to cell(spare, row: x.col, col: 3 - x.row) }
  }
  for y in cells(spare) {
    if occupied(y) { move top(y) to cell(grid, row: y.row, col: y.col) }
  }
}
end when all(occupied(c) for c in cells(grid))
offscreen spare
"""


def _rules(tmp_path, text: str = TURNTABLE):
    path = tmp_path / "turntable.meeple"
    path.write_text(text, encoding="utf-8")
    return interpreter.load(str(path), cache=False)


def _screen(game, layout: str) -> str:
    c = render.console(file=io.StringIO(), record=True, width=100, height=40)
    PlaySession(c, game, [HUMAN, HUMAN], {}, None, None, Path("unused.json"), layout=layout).show(0)
    return c.export_text(styles=False)


@pytest.mark.parametrize("layout", ["full", "compact"])
def test_an_offscreen_board_is_not_drawn(tmp_path, layout):
    game = _rules(tmp_path).new_game(2, 0)
    game.apply("place a1")
    text = _screen(game, layout)
    assert "Turntable" in text and "Scratch" not in text, text
    # without the declaration both are drawn
    shown = _rules(tmp_path, TURNTABLE.replace("offscreen spare\n", "")).new_game(2, 0)
    shown.apply("place a1")
    assert "Scratch" in _screen(shown, layout)


def test_the_web_table_leaves_it_out_and_nothing_else_changes(tmp_path):
    rules = _rules(tmp_path)
    assert [b["name"] for b in present.boards(rules.for_players(2))] == ["grid"]
    plain = _rules(tmp_path, TURNTABLE.replace("offscreen spare\n", ""))
    assert [b["name"] for b in present.boards(plain.for_players(2))] == ["grid", "spare"]
    a, b = rules.new_game(2, 0), plain.new_game(2, 0)
    for move in ("place a1", "place a1", "place a2"):
        assert a.apply(move).notation == b.apply(move).notation
    assert a.state == b.state and "spare:r1c1" in interpreter.views.view(a, 0)["zones"]


def test_offscreen_names_a_variable_a_zone_or_a_board(tmp_path):
    with pytest.raises(interpreter.MeepleError) as raised:
        _rules(tmp_path, TURNTABLE.replace("offscreen spare", "offscreen spair"))
    d = raised.value.diagnostics[0]
    assert d.code == "check/unknown-name" and "variable, zone or board 'spair'" in d.message
    assert "spare" in (d.hint or "")
