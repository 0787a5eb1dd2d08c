"""Oware (tests/testdata/oware, written from the documentation alone; issue 37) against
OpenSpiel's own C++ game `oware` (6 houses a player, 4 seeds in each), an independent
engine (the `open_spiel` package, a test-only dependency: without it these tests say
so and skip). Random games are played move by move in both: at every decision they must
agree on who moves, on the set of legal moves and on the seeds of every house and of
both stores, and at the end on the returns (+1 / -1, 0 for 24 seeds each). The game is
also played by its kernel against Python, the states compared at every move.

A Meeple move, `sow C` or `sow c`, is OpenSpiel's action string `C` (seat 1's houses A to
F) or `c` (seat 2's houses a to f): the houses are cells named so."""
from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_plays_as_python
from meeple.interpreter.views import view
from openspiel_support import both_moves
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); oware is not compared with it here")

DATA = Path(__file__).resolve().parent / "testdata"
HOUSES = "ABCDEFabcdef"   # OpenSpiel's houses 0 to 11, sown in this order


@cache
def program():
    return interpreter.load(str(DATA / "oware")).for_players(2)


def spiel_name(notation: str) -> str:
    """OpenSpiel's string of a Meeple move: 'sow c' -> 'c'."""
    verb, house = notation.split(" ")
    assert verb == "sow" and house in HOUSES, notation
    return house


def board(game) -> tuple[list[int], list[int]]:
    """The seeds of the houses A .. f and of the two stores, as Meeple has them."""
    zones = view(game, "all")["zones"]
    return [len(zones[f"pits:{h}"]) for h in HOUSES], [len(zones[f"store:{s}"]) for s in (0, 1)]


def spiel_board(st) -> tuple[list[int], list[int]]:
    """The same as OpenSpiel has them ('player | score score | seeds ...')."""
    _, scores, seeds = st.observation_string(0).split(" | ")
    return [int(x) for x in seeds.split()], [int(x) for x in scores.split()]


def play_random_games(count: int, seed: int = 0) -> dict[str, int]:
    """Random games in lockstep with OpenSpiel; what they went through."""
    spiel = pyspiel.load_game("oware")
    seen = {"decisions": 0, "wins": 0, "draws": 0, "forced": 0}
    for g in range(count):
        rnd = random.Random(seed + g)
        game, st = program().new_game(2, seed + g), spiel.new_initial_state()
        while not st.is_terminal():
            assert not game.over and game.active_player == st.current_player(), str(st)
            assert board(game) == spiel_board(st), str(st)
            mine, theirs = both_moves(game, st, spiel_name)
            assert sorted(mine) == sorted(theirs), str(st)
            houses = spiel_board(st)[0]
            own = houses[:6] if st.current_player() == 0 else houses[6:]
            seen["forced"] += len(mine) < sum(1 for x in own if x > 0)
            name = rnd.choice(sorted(mine))
            game.apply(mine[name])
            st.apply_action(theirs[name])
            seen["decisions"] += 1
        assert game.over, str(st)
        assert board(game) == spiel_board(st), str(st)
        assert game.result["outcomes"] == [
            "win" if x > 0 else "loss" if x < 0 else "draw" for x in st.returns()], str(st)
        seen["draws" if game.result["draw"] else "wins"] += 1
    return seen


def play(names: str):
    """Meeple's game after OpenSpiel's moves (one letter each), compared at every step."""
    game, st = program().new_game(2, 0), pyspiel.load_game("oware").new_initial_state()
    for name in names:
        mine, theirs = both_moves(game, st, spiel_name)
        assert sorted(mine) == sorted(theirs)
        game.apply(mine[name])
        st.apply_action(theirs[name])
        assert board(game) == spiel_board(st)
    return game


def test_the_first_moves_are_openspiels():
    game = program().new_game(2, 0)
    assert [m.notation for m in game.legal_moves()] == [f"sow {h}" for h in "ABCDEF"]
    game.apply("sow F")
    assert [m.notation for m in game.legal_moves()] == [f"sow {h}" for h in "abcdef"]
    # F's four seeds went to a, b, c and d
    assert board(game) == ([4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4], [0, 0])


def test_a_capture_takes_the_houses_before_the_last_while_they_hold_2_or_3():
    # found by playing random games in OpenSpiel: C's 7 seeds go to D .. d, making b 1,
    # c 2 and d 2: d and c are taken (4 seeds), and b, with 1, stops the capture
    assert board(play("DdAcEdDcEdBb")) == ([2, 1, 7, 1, 1, 9, 7, 0, 1, 1, 10, 8], [0, 0])
    assert board(play("DdAcEdDcEdBbC")) == ([2, 1, 0, 2, 2, 10, 8, 1, 0, 0, 10, 8], [4, 0])


def test_a_grand_slam_captures_nothing():
    # seat 2's f leaves A to D at 2 seeds each and E, F empty: taking them would empty
    # seat 1's row, so nothing is taken
    moves = "AeFcEcCbCcFdCfDeEfDdBbEfAeCbDbEdFf"
    before, after = board(play(moves[:-1])), board(play(moves))
    assert after[0][:6] == [2, 2, 2, 2, 0, 0] and after[1] == before[1]


def test_random_games_of_oware_agree_with_openspiel():
    seen = play_random_games(scaled(300, 40))
    # games were won and drawn (24 seeds each), and moves were forced to feed an empty row
    assert seen["wins"] > 0 and seen["draws"] > 0 and seen["forced"] > 0
    assert seen["decisions"] > 30 * (seen["wins"] + seen["draws"])


@needs_kernel
@pytest.mark.kernels
def test_oware_plays_the_same_in_its_kernel(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = interpreter.load(str(DATA / "oware"))
    assert rules.use_native(report=False)
    fast, plain = rules.for_players(2), program()
    assert fast.kernel
    moves = kernel_plays_as_python(fast, plain, scaled(8, 2))
    assert moves > 50 and fast.native_fallbacks == 0   # the kernel decided every move
