"""Go against OpenSpiel's `go(board_size=9)` (when `open-spiel` is installed; otherwise
the test says so and skips): random games played move by move in both engines, which
must offer the same moves (a point `play D4` is OpenSpiel's action 9 * (row - 1) + column
index, `pass` its action 81), agree on who moves, and end together with the same result
(a win by area score with komi 7.5, or OpenSpiel's draw on a repeated position). The
long run is benchmarks/bench_go_openspiel.py; the figures are in docs/rulesets/go.md."""
from __future__ import annotations

import random
from functools import cache

import pytest
from meeple.interpreter.analysis.perft import perft
from scale import scaled

from meeple import interpreter

COLUMNS = "ABCDEFGHJ"
PASS = 81
# Games (by seed) that end on a repeated position, found with benchmarks/bench_go_openspiel.py.
SUPERKO = [818, 1909]


@cache
def program():
    return interpreter.load("go").for_players(2)


def action_of(notation: str) -> int:
    """OpenSpiel's action for a move: `play D4` -> 3 + 9 * 3 = 30, `pass` -> 81."""
    if notation == "pass":
        return PASS
    point = notation.split()[-1]
    return COLUMNS.index(point[0]) + 9 * (int(point[1:]) - 1)


def outcome_of(ret: float) -> str:
    return "win" if ret > 0 else "loss" if ret < 0 else "draw"


def play_both(pyspiel_game, seed: int) -> tuple[int, bool]:
    """Random game number ``seed`` in both engines (moves drawn by random.Random(seed)),
    compared at every decision; returns (moves, drawn)."""
    game, st = program().new_game(2, seed), pyspiel_game.new_initial_state()
    rnd = random.Random(seed)
    moves = 0
    while not st.is_terminal():
        assert not game.over, f"game {seed}: Meeple ended, OpenSpiel goes on after {moves} moves"
        assert game.active_player == st.current_player()
        legal = game.legal_moves()
        assert [action_of(m.notation) for m in legal] == [PASS] + st.legal_actions()[:-1], \
            f"game {seed}, move {moves + 1}: the legal moves differ\n{st}"
        m = legal[rnd.randrange(len(legal))]
        game.apply(m)
        st.apply_action(action_of(m.notation))
        moves += 1
    assert game.over, f"game {seed}: OpenSpiel ended, Meeple goes on after {moves} moves"
    returns = st.returns()
    assert game.result["outcomes"] == [outcome_of(r) for r in returns], f"game {seed}\n{st}"
    return moves, game.result["draw"]


def spiel_perft(state, depth: int) -> int:
    """OpenSpiel's move paths of exactly ``depth`` moves (a game over sooner: none), as
    Meeple's perft counts them."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(spiel_perft(state.child(a), depth - 1) for a in state.legal_actions())


def test_move_paths_from_the_start_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")
    start = pyspiel.load_game("go(board_size=9)").new_initial_state()
    game = program().new_game(2, 0)
    assert [perft(game, d) for d in (1, 2)] == [spiel_perft(start, d) for d in (1, 2)] == [82, 6643]


def test_random_games_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")
    spiel = pyspiel.load_game("go(board_size=9)")
    moves = draws = 0
    games = scaled(250, 100)
    for seed in list(range(games)) + SUPERKO:
        n, drawn = play_both(spiel, seed)
        moves += n
        draws += drawn
    assert moves > 80 * games                      # long games, not only early passes
    assert draws >= len(SUPERKO)                # the repeated positions were compared too
