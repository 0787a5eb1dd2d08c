"""Dots and Boxes against OpenSpiel's `dots_and_boxes`, an independent engine (the
`open_spiel` package, a test-only dependency: without it these tests say so and skip).
Random games are played move by move in both: at every decision they must agree on who
moves and on the legal lines, and at the end on the returns, both OpenSpiel's default
ones (+1 / -1, 0 for a draw) and its margin (`utility_margin`: the difference of boxes).
A line's name (a1b1: the dots it joins, columns a.., rows 1.. from the top) is mapped to
OpenSpiel's action: the lines across first, row by row (`P1(h,row,col)`), then the lines
down (`P1(v,row,col)`), rows and columns from 0 at the top left, as in
open_spiel/games/dots_and_boxes/dots_and_boxes.cc."""
from __future__ import annotations

import random
from functools import cache

import pytest

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); Dots and Boxes is not compared with it here")

SIZES = {None: (3, 3), "small": (2, 2)}      # variant: (rows, cols) of boxes


@cache
def program(variant: str | None):
    return interpreter.load("dots-and-boxes", variants=[variant] if variant else []).for_players(2)


def spiel_game(variant: str | None, margin: bool = False):
    rows, cols = SIZES[variant]
    return pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": cols,
                                                "utility_margin": margin})


def action_of(notation: str, rows: int, cols: int) -> int:
    """OpenSpiel's action for a move 'draw a1b1' (a line across) or 'draw a1a2' (down)."""
    line = notation.split()[-1]
    c1, c2 = ord(line[0]) - ord("a"), ord(line[2]) - ord("a")
    r1, r2 = int(line[1]) - 1, int(line[3]) - 1
    if r1 == r2:                                   # across: (h, row, col)
        assert c2 == c1 + 1
        return r1 * cols + c1
    assert c1 == c2 and r2 == r1 + 1               # down: (v, row, col)
    return (rows + 1) * cols + r1 * (cols + 1) + c1


def test_line_names_map_to_openspiels_actions():
    st = spiel_game(None).new_initial_state()
    names = [m.notation for m in program(None).new_game(2, 0).legal_moves()]
    spiel = {action_of(n, 3, 3): st.action_to_string(0, action_of(n, 3, 3)) for n in names}
    assert sorted(spiel) == list(range(24))
    assert spiel[action_of("draw a1b1", 3, 3)] == "P1(h,0,0)"
    assert spiel[action_of("draw c4d4", 3, 3)] == "P1(h,3,2)"
    assert spiel[action_of("draw a1a2", 3, 3)] == "P1(v,0,0)"
    assert spiel[action_of("draw d3d4", 3, 3)] == "P1(v,2,3)"


def outcome(spiel_return: float) -> str:
    return "win" if spiel_return > 0 else "loss" if spiel_return < 0 else "draw"


def play_random_games(variant: str | None, games: int, seed: int) -> dict[str, int]:
    rows, cols = SIZES[variant]
    prog, plain, margin = program(variant), spiel_game(variant), spiel_game(variant, True)
    rnd = random.Random(seed)
    seen = {"moves": 0, "extra turns": 0, "draws": 0}
    for g in range(games):
        game = prog.new_game(2, g)
        st, sm = plain.new_initial_state(), margin.new_initial_state()
        while not st.is_terminal():
            assert not game.over
            assert game.active_player == st.current_player() == sm.current_player()
            legal = game.legal_moves()
            assert sorted(action_of(m.notation, rows, cols) for m in legal) == st.legal_actions()
            m = legal[rnd.randrange(len(legal))]
            game.apply(m)
            before = st.current_player()
            st.apply_action(action_of(m.notation, rows, cols))
            sm.apply_action(action_of(m.notation, rows, cols))
            seen["moves"] += 1
            seen["extra turns"] += not st.is_terminal() and st.current_player() == before
        assert game.over and sm.is_terminal()
        r = game.result
        assert r["outcomes"] == [outcome(x) for x in st.returns()]
        assert sm.returns() == [r["scores"][0] - r["scores"][1], r["scores"][1] - r["scores"][0]]
        seen["draws"] += r["draw"]
    return seen


def test_random_games_of_three_by_three_boxes_agree_with_openspiel():
    seen = play_random_games(None, 300, 12)
    assert seen["moves"] == 300 * 24 and seen["extra turns"] > 500
    assert seen["draws"] == 0                     # 9 boxes: never a draw


def test_random_games_of_two_by_two_boxes_agree_with_openspiel_draws_included():
    seen = play_random_games("small", 200, 13)
    assert seen["moves"] == 200 * 12 and seen["extra turns"] > 100 and seen["draws"] > 10
