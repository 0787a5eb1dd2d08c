"""A generated board's ``named "..."``: its cells named from their coordinates, such as
``a1`` for column 1, row 1 of a hex rhombus, OpenSpiel's hex notation (issue 37, item 8).
Without it, the generator's names (``r1c1``) stay."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import MeepleError, compile_sources

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open_spiel) is needed")

HEX = Path(__file__).parent / "testdata" / "hex" / "hex.meeple"
FILE = "hex.meeple"


def hex_ruleset(size: int, named: str = ' named "{col:a}{row}"'):
    text = HEX.read_text(encoding="utf-8")
    text = text.replace("function n(): int = 11", f"function n(): int = {size}")
    text = text.replace("board b: grid(rows: n(), cols: n())", "board b: grid(rows: n(), cols: n())" + named)
    return compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def test_without_named_the_cells_keep_the_generator_names():
    g = hex_ruleset(3, "").new_game(2)
    assert [m.notation for m in g.legal_moves()][:4] == ["place r1c1", "place r1c2", "place r1c3", "place r2c1"]


@pytest.mark.parametrize("size", [5, 11])
def test_hex_moves_are_named_as_openspiel_names_its_actions(size):
    rs = hex_ruleset(size)
    rng = random.Random(size)
    for _ in range(3):
        g = rs.new_game(2)
        s = pyspiel.load_game(f"hex(board_size={size})").new_initial_state()
        while not s.is_terminal():
            ours = [m.notation for m in g.legal_moves()]
            theirs = [s.action_to_string(s.current_player(), a) for a in s.legal_actions()]
            assert ours == ["place " + t for t in theirs]
            i = rng.randrange(len(ours))
            g.apply(ours[i])
            s.apply_action(s.legal_actions()[i])
        assert g.over


@pytest.mark.parametrize(("named", "code", "words"), [
    (' named "{col:a}{rows}"', "check/unknown-name", "unknown coordinate 'rows'"),
    (' named "{col:a} {row}"', "check/bad-value", "letters, digits, _ and - only"),
    (' named "{col:a}"', "check/bad-value", "two cells are named 'a'"),
])
def test_bad_names_are_located_errors(named, code, words):
    with pytest.raises(MeepleError) as e:
        hex_ruleset(3, named)
    [d] = [d for d in e.value.diagnostics if d.severity == "error"]
    assert d.code == code and words in d.message
    assert (d.span.line, d.span.column) == (9, 43)


def test_a_coordinate_without_a_letter_names_the_player_count():
    with pytest.raises(MeepleError) as e:
        hex_ruleset(27)
    [d] = [d for d in e.value.diagnostics if d.severity == "error"]
    assert re.search(r"col 27 has no letter .* with 2 players", d.message)


def test_the_rules_name_a_cell_by_its_new_name_and_keep_its_coordinates():
    text = """ruleset named_cells
players 2..2
kind Stone { seat: int }
board b: grid(rows: 3, cols: 3) named "{col:A}-{row}" holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..5 }
setup { move top(box) to cell(b, name: "B-3") }
turn {
  choose c from [c for c in cells(b) if empty(c) and c.row == 3] as "place"
  move top(box) to c
}
end when all(occupied(c) for c in cells(b) if c.row == 3)
"""
    g = compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text})).new_game(2)
    assert [m.notation for m in g.legal_moves()] == ["place A-3", "place C-3"]


def test_the_rulebook_code_of_a_board_keeps_named_and_drawn_at():
    from meeple.interpreter.documents import meeple_code
    text = """ruleset r
kind K { v: int }
board m: cells { a(x: 1, y: 2) } drawn at (2 * x, -y) holds K
board g: grid(rows: 2, cols: 2) named "{col:a}{row}" holds K
"""
    m, g = parse(text, FILE).decls[-2:]
    assert meeple_code.decl(m) == "board m: cells { 1 cells } drawn at (2 * x, -y) holds K public"
    assert meeple_code.decl(g) == 'board g: grid(rows: 2, cols: 2) named "{col:a}{row}" holds K public'
