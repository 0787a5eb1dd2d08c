"""Clobber on 4 × 4 squares (tests/testdata/clobber, written from the documentation
alone; issue 37) against OpenSpiel's own C++ game `clobber(rows=4,columns=4)`, an
independent engine (the `open_spiel` package, a test-only dependency: without it these
tests say so and skip). Random games are played move by move in both: at every decision
they must agree on who moves and on the set of legal moves, and at the end on the
returns (+1 for the last player to move, -1 for the one left without a move). The game
is also played by its kernel against Python, the states compared at every move.

A Meeple move, `clobber b4+c4` (the stone on b4 takes the one on c4), is OpenSpiel's
action string `b4c4`: the cells are named as OpenSpiel names them (`named
"{col:a}{row}"`), so the notation only loses its verb and its `+`."""
from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_plays_as_python
from openspiel_support import both_moves
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); clobber is not compared with it here")

DATA = Path(__file__).resolve().parent / "testdata"
SPIEL = "clobber(rows=4,columns=4)"


@cache
def program():
    return interpreter.load(str(DATA / "clobber")).for_players(2)


def spiel_name(notation: str) -> str:
    """OpenSpiel's string of a Meeple move: 'clobber b4+c4' -> 'b4c4'."""
    verb, step = notation.split(" ")
    assert verb == "clobber", notation
    return step.replace("+", "")


def play_random_games(count: int, seed: int = 0) -> dict[str, int]:
    """Random games in lockstep with OpenSpiel; what they went through."""
    spiel = pyspiel.load_game(SPIEL)
    seen = {"decisions": 0, "first wins": 0, "second wins": 0, "longest": 0}
    for g in range(count):
        rnd = random.Random(seed + g)
        game, st = program().new_game(2, seed + g), spiel.new_initial_state()
        moves = 0
        while not st.is_terminal():
            assert not game.over and game.active_player == st.current_player(), str(st)
            mine, theirs = both_moves(game, st, spiel_name)
            assert sorted(mine) == sorted(theirs), str(st)
            name = rnd.choice(sorted(mine))
            game.apply(mine[name])
            st.apply_action(theirs[name])
            moves += 1
        assert game.over, str(st)
        returns = st.returns()
        assert game.result["outcomes"] == ["win" if x > 0 else "loss" for x in returns], str(st)
        seen["decisions"] += moves
        seen["first wins" if returns[0] > 0 else "second wins"] += 1
        seen["longest"] = max(seen["longest"], moves)
    return seen


def test_the_first_moves_are_openspiels():
    game = program().new_game(2, 0)
    notations = [m.notation for m in game.legal_moves()]
    # the stones in cell order (a1, c1, b2 ...), each towards its neighbours in cell order
    assert notations[:3] == ["clobber a1+b1", "clobber a1+a2", "clobber c1+b1"]
    st = pyspiel.load_game(SPIEL).new_initial_state()
    assert len(notations) == 24
    assert {spiel_name(n) for n in notations} == {st.action_to_string(a) for a in st.legal_actions()}


def test_a_clobbered_stone_leaves_the_board():
    game = program().new_game(2, 0)
    game.apply("clobber b4+c4")
    after = {spiel_name(m.notation) for m in game.legal_moves()}
    # b4 is empty and c4 holds seat 1's stone among seat 1's stones (b4, d4, c3 are its
    # neighbours): seat 2's a4 may only go down to a3, and nothing may take c4
    assert {m for m in after if m.startswith("a4")} == {"a4a3"}
    assert not any(m.endswith(("b4", "c4")) for m in after)
    assert after == {st for st in after if st[:2] != "b4"}
    assert len(after) == 19


def test_random_games_of_clobber_agree_with_openspiel():
    seen = play_random_games(scaled(400, 60))
    # both seats won games, and games ran long enough to matter
    assert seen["first wins"] > 0 and seen["second wins"] > 0
    assert seen["longest"] >= 8


@needs_kernel
@pytest.mark.kernels
def test_clobber_plays_the_same_in_its_kernel(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = interpreter.load(str(DATA / "clobber"))
    assert rules.use_native(report=False)
    fast, plain = rules.for_players(2), program()
    assert fast.kernel
    moves = kernel_plays_as_python(fast, plain, scaled(20, 4))
    assert moves > 20 and fast.native_fallbacks == 0   # the kernel decided every move
