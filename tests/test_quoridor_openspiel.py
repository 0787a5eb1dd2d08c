"""Quoridor on 5 × 5 squares (tests/testdata/quoridor: tuple options, walls made from a
supply, standing in the gaps between squares, the edges of the board of squares:
`across` for a pawn's steps, `connected` over it for the last path to the goal; issue 37) against OpenSpiel's own C++ game `quoridor(board_size=5)` (3 walls a
player), an independent engine (the `open_spiel` package, a test-only dependency:
without it these tests say so and skip). Random games are played move by move in both:
at every decision they must agree on who moves and on the set of legal moves, and at
the end on the returns (+1 / -1, 0 for the draw after 100 moves). The game is also
played by its kernel against Python, the states compared at every move.

A Meeple move is mapped to OpenSpiel's action string, which the action ids of the
state's legal actions are looked up by: a step or jump of the pawn, `pawn.c4`, is
OpenSpiel's `c4` (the square it goes to), and a wall, `wall.a1 v`, is `a1v` (the wall
whose middle is the corner right of and below a1, `v` standing, `h` lying)."""
from __future__ import annotations

import random
import re
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
                      "pip install '.[test]'); quoridor is not compared with it here")

DATA = Path(__file__).resolve().parent / "testdata"
SPIEL = "quoridor(board_size=5)"


@cache
def program():
    return interpreter.load(str(DATA / "quoridor")).for_players(2)


def spiel_name(notation: str) -> str:
    """OpenSpiel's string of a Meeple move: 'pawn.c4' -> 'c4', 'wall.a1 v' -> 'a1v'."""
    step = re.fullmatch(r"pawn\.([a-e][1-5])", notation)
    if step:
        return step.group(1)
    wall = re.fullmatch(r"wall\.([a-d][1-4]) ([hv])", notation)
    assert wall, notation
    return wall.group(1) + wall.group(2)


def step_kind(before: str, after: str) -> str:
    """'step', 'jump' (straight over the other pawn) or 'side' (a diagonal jump)."""
    dc, dr = abs(ord(after[0]) - ord(before[0])), abs(int(after[1]) - int(before[1]))
    return "step" if dc + dr == 1 else "jump" if dc + dr == 2 and dc * dr == 0 else "side"


def play_random_games(count: int, seed: int = 0) -> dict[str, int]:
    """Random games in lockstep with OpenSpiel; what they went through."""
    spiel = pyspiel.load_game(SPIEL)
    seen = {"games": count, "decisions": 0, "walls": 0, "step": 0, "jump": 0, "side": 0,
            "wins": 0, "draws": 0}
    for g in range(count):
        rnd = random.Random(seed + g)
        game, st = program().new_game(2, seed + g), spiel.new_initial_state()
        where = {0: "c5", 1: "c1"}
        while not st.is_terminal():
            assert not game.over and game.active_player == st.current_player(), str(st)
            mine, theirs = both_moves(game, st, spiel_name)
            assert sorted(mine) == sorted(theirs), str(st)
            name, who = rnd.choice(sorted(mine)), st.current_player()
            game.apply(mine[name])
            st.apply_action(theirs[name])
            seen["decisions"] += 1
            if len(name) == 3:
                seen["walls"] += 1
            else:
                seen[step_kind(where[who], name)] += 1
                where[who] = name
        assert game.over, str(st)
        assert game.result["outcomes"] == [
            "win" if x > 0 else "loss" if x < 0 else "draw" for x in st.returns()], str(st)
        seen["draws" if game.result["draw"] else "wins"] += 1
    return seen


def play_sequence(names: list[str]):
    """OpenSpiel's moves (by their strings) played in both, compared at every step."""
    game, st = program().new_game(2, 0), pyspiel.load_game(SPIEL).new_initial_state()
    for name in names:
        mine, theirs = both_moves(game, st, spiel_name)
        assert sorted(mine) == sorted(theirs) and game.active_player == st.current_player()
        game.apply(mine[name])
        st.apply_action(theirs[name])
    mine, theirs = both_moves(game, st, spiel_name)
    assert sorted(mine) == sorted(theirs)
    return game, set(mine)


def test_the_first_moves_are_openspiels_with_readable_notations():
    game = program().new_game(2, 0)
    notations = [m.notation for m in game.legal_moves()]
    # the walls first (none before a cell), corner by corner, lying before standing
    assert notations[:3] == ["wall.a1 h", "wall.a1 v", "wall.b1 h"]
    assert notations[-3:] == ["pawn.c4", "pawn.b5", "pawn.d5"]
    assert len(notations) == 32 + 3
    st = pyspiel.load_game(SPIEL).new_initial_state()
    assert {spiel_name(n) for n in notations} == {st.action_to_string(a) for a in st.legal_actions()}


def test_jumps_straight_and_to_the_side_of_a_pawn_backed_by_a_wall():
    # seat 1 c5-c4, seat 2 c1-c2, a wall behind c2 (b1h), a wall away (a4h), c4-c3: seat 2
    # may jump straight over c3 to c4; after its wall d4v, seat 1 on c3 faces c2 with the
    # wall behind it and jumps to its sides, b2 or d2
    game, moves = play_sequence(["c4", "c2", "b1h", "a4h", "c3"])
    assert {m for m in moves if len(m) == 2} == {"b2", "d2", "c4"}
    game, moves = play_sequence(["c4", "c2", "b1h", "a4h", "c3", "d4v"])
    assert {m for m in moves if len(m) == 2} == {"b2", "b3", "c4", "d2", "d3"}
    assert not game.over


def test_a_wall_may_not_cut_the_last_path_to_a_goal():
    # after a4v and d3h, b3h would shut seat 1 (on c5) away from row 1: only a4 and a5
    # are left beyond it, and a4v fences them off; b3h is free of other walls all the same
    _, moves = play_sequence(["a4v", "d3h"])
    assert "b3h" not in moves and "b3v" in moves and "c3h" not in moves
    _, before = play_sequence(["a4v"])
    assert "b3h" in before


def test_a_wall_may_not_cross_or_overlap_another():
    # b2v stands between cols b and c on rows 2 and 3: b2h would cross it (one middle),
    # b1v and b3v would cover one of its gaps; a2h and c2h lie beside it
    _, moves = play_sequence(["b2v"])
    assert not {"b2h", "b1v", "b3v"} & moves
    assert {"a2h", "c2h"} <= moves and "b2v" not in moves


def test_a_pawn_steps_only_through_open_gaps():
    # seat 1 lays b4h, closing the gaps between rows 4 and 5 in cols b and c; seat 2, on
    # c1, may go anywhere; seat 1, on c5, no longer forwards to c4, only sideways
    _, moves = play_sequence(["b4h"])
    assert {m for m in moves if len(m) == 2} == {"b1", "d1", "c2"}
    _, moves = play_sequence(["b4h", "c2"])
    assert {m for m in moves if len(m) == 2} == {"b5", "d5"}


def test_the_edges_play_as_the_finer_board_they_replace():
    # tests/testdata/quoridor_fine: the same rules on a 9 x 9 board of squares, gaps and
    # corners (benchmarks/bench_edges.py times both): the same moves at every step
    fine = interpreter.load(str(DATA / "quoridor_fine")).for_players(2)
    for seed in range(scaled(6, 2)):
        a, b, rnd = program().new_game(2, seed), fine.new_game(2, seed), random.Random(seed)
        while not a.over:
            moves = [m.notation for m in a.legal_moves()]
            assert moves == [m.notation for m in b.legal_moves()]
            i = rnd.randrange(len(moves))
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert b.over and a.result == b.result


def test_walls_come_from_a_supply_of_six_and_three_a_player():
    game = program().new_game(2, 0)
    for _ in range(6):
        wall = next(m for m in game.legal_moves() if m.notation.startswith("wall."))
        game.apply(wall)
    # every wall is down: only the pawns move now
    assert all(m.notation.startswith("pawn.") for m in game.legal_moves())


def test_random_games_of_quoridor_agree_with_openspiel():
    seen = play_random_games(scaled(300, 30))
    # walls, steps and both jumps were played; games were won and drawn (100 moves)
    assert seen["walls"] > 0 and seen["step"] > 0 and seen["jump"] > 0 and seen["side"] > 0
    assert seen["wins"] > 0 and seen["draws"] > 0
    assert seen["decisions"] > 20 * seen["games"]


@needs_kernel
@pytest.mark.kernels
def test_quoridor_plays_the_same_in_its_kernel(monkeypatch):
    # walls made from the supply on the edges of the board, tuple options, across and
    # connected over it, in the kernel against Python
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = interpreter.load(str(DATA / "quoridor"))
    assert rules.use_native(report=False)
    fast, plain = rules.for_players(2), program()
    assert fast.kernel
    walls = []
    moves = kernel_plays_as_python(fast, plain, scaled(4, 1), each=lambda b, i: walls.append(
        b.legal_moves()[i].notation.startswith("wall.")))
    assert moves > 10 and any(walls) and fast.native_fallbacks == 0   # the kernel decided every move


def test_the_adapter_plays_quoridor_through_pyspiels_api():
    """The OpenSpiel adapter numbers a tuple's cell part by the board cells only (a
    zone that is no cell, such as the walls' supply, has no notation); it used to fail
    labelling its actions."""
    from meeple import openspiel
    game = openspiel.load(str(DATA / "quoridor"))
    state = game.new_initial_state()
    rng = random.Random(3)
    labels = set()
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        labels.add(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    assert any(label.startswith("pawn.") for label in labels)
    assert any(label.startswith("wall.") for label in labels)
    assert len(state.returns()) == 2
