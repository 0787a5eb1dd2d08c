"""Five classic games written from the documentation alone (tests/testdata: connect four,
othello, hex, breakthrough, checkers; issue 36) against OpenSpiel's own C++ games, an
independent engine (the `open_spiel` package, a test-only dependency: without it these
tests say so and skip). Random games are played move by move in both: at every decision
they must agree on who moves and on the set of legal moves, and at the end on the
returns (+1 / -1, 0 for a draw). A Meeple move is mapped to OpenSpiel's action by the
encoding of each game's source (open_spiel/games/<game>/<game>.cc), not by its strings:

- connect four: the column, from 0;
- othello: row × 8 + column (from 0, a1 = 0 at the top left), `pass` 64;
- hex: row × size + column;
- breakthrough: (row, column, direction, capture) in the mixed base (8, 8, 6, 2), the
  directions (1,-1), (1,0), (1,1) of black (down) and (-1,-1), (-1,0), (-1,1) of white;
- checkers: (row, column, direction, jump) in the mixed base (8, 8, 4, 2), the directions
  up-left, up-right, down-right, down-left.

Each game is also played by its kernel against Python, the states compared at every
move (as tests/test_kernel.py does for the bundled rulesets)."""
from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_plays_as_python
from meeple.interpreter import testing
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); the classic games are not compared with it here")

DATA = Path(__file__).resolve().parent / "testdata"


def cells_of(notation: str) -> list[tuple[int, int]]:
    """The cells a move names, as (row, column) from 0: 'move r6c1+r5c2' -> [(5, 0), (4, 1)]."""
    return [(int(r) - 1, int(c) - 1) for r, c in re.findall(r"r(\d+)c(\d+)", notation)]


def connect_four_action(game, notation: str) -> int:
    return int(notation.split()[-1]) - 1


def othello_action(game, notation: str) -> int:
    if notation == "pass":
        return 64
    (r, c), = cells_of(notation)
    return r * 8 + c


def hex_action(size: int):
    def action(game, notation: str) -> int:
        (r, c), = cells_of(notation)
        return r * size + c
    return action


BREAKTHROUGH_DIRECTIONS = [(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1)]


def breakthrough_action(game, notation: str) -> int:
    (r1, c1), (r2, c2) = cells_of(notation)
    direction = BREAKTHROUGH_DIRECTIONS.index((r2 - r1, c2 - c1))
    capture = c2 != c1 and bool(testing.at(game, f"b:r{r2 + 1}c{c2 + 1}"))
    return ((r1 * 8 + c1) * 6 + direction) * 2 + capture


CHECKERS_DIRECTIONS = [(-1, -1), (-1, 1), (1, 1), (1, -1)]


def checkers_action(game, notation: str) -> int:
    (r1, c1), (r2, c2) = cells_of(notation)
    jump = abs(r2 - r1) == 2
    direction = CHECKERS_DIRECTIONS.index(((r2 - r1) // (1 + jump), (c2 - c1) // (1 + jump)))
    return ((r1 * 8 + c1) * 4 + direction) * 2 + jump


# name: (folder, variants, OpenSpiel game, action of a move, games short, games full)
GAMES = {
    "connect_four": ("connect_four", (), "connect_four", connect_four_action, 150, 2000),
    "othello": ("othello", (), "othello", othello_action, 10, 200),
    "hex": ("hex", (), "hex", hex_action(11), 8, 200),
    "hex_5x5": ("hex", ("small",), "hex(board_size=5)", hex_action(5), 80, 2000),
    "breakthrough": ("breakthrough", (), "breakthrough", breakthrough_action, 12, 300),
    "checkers": ("checkers", (), "checkers", checkers_action, 20, 600),
}


@cache
def program(name: str):
    folder, variants = GAMES[name][:2]
    return interpreter.load(str(DATA / folder), variants=list(variants)).for_players(2)


def games(name: str) -> int:
    """How many random games of it to play: the short form, or the long one."""
    return scaled(GAMES[name][5], GAMES[name][4])


def outcome(spiel_return: float) -> str:
    return "win" if spiel_return > 0 else "loss" if spiel_return < 0 else "draw"


def play_random_games(name: str, count: int, seed: int = 0) -> dict[str, int]:
    """Random games in lockstep with OpenSpiel; what they went through."""
    spiel_name, action = GAMES[name][2:4]
    prog, spiel = program(name), pyspiel.load_game(spiel_name)
    rnd = random.Random(seed)
    seen = {"games": count, "decisions": 0, "again": 0, "draws": 0, "passes": 0, "kings": 0}
    for g in range(count):
        game, st = prog.new_game(2, seed + g), spiel.new_initial_state()
        while not st.is_terminal():
            assert not game.over and game.active_player == st.current_player(), str(st)
            legal = game.legal_moves()
            assert sorted(action(game, m.notation) for m in legal) == st.legal_actions(), str(st)
            m = legal[rnd.randrange(len(legal))]
            a, before = action(game, m.notation), st.current_player()
            game.apply(m)
            st.apply_action(a)
            seen["decisions"] += 1
            seen["passes"] += m.notation == "pass"
            seen["again"] += not st.is_terminal() and st.current_player() == before
        assert game.over, str(st)
        assert game.result["outcomes"] == [outcome(x) for x in st.returns()], str(st)
        seen["draws"] += game.result["draw"]
        seen["kings"] += any(game.state["ivars"].get("king") or [])   # (checkers' item variable)
    return seen


def play_sequence(name: str, actions: list[int]) -> dict:
    """OpenSpiel's actions played in both, compared at every step; Meeple's result."""
    spiel_name, action = GAMES[name][2:4]
    game, st = program(name).new_game(2, 0), pyspiel.load_game(spiel_name).new_initial_state()
    for a in actions:
        legal = {action(game, m.notation): m for m in game.legal_moves()}
        assert sorted(legal) == st.legal_actions() and game.active_player == st.current_player()
        game.apply(legal[a])
        st.apply_action(a)
    assert st.is_terminal() and game.over
    assert game.result["outcomes"] == [outcome(x) for x in st.returns()]
    return game.result


def test_moves_map_to_the_actions_openspiel_names_alike():
    # the encodings above name the squares OpenSpiel's own strings name, on the first moves
    for name, spiel_name in (("connect_four", "connect_four"), ("othello", "othello"),
                             ("hex", "hex"), ("breakthrough", "breakthrough"), ("checkers", "checkers")):
        game, st = program(name).new_game(2, 0), pyspiel.load_game(spiel_name).new_initial_state()
        action = GAMES[name][3]
        names = {st.action_to_string(action(game, m.notation)) for m in game.legal_moves()}
        assert names == {st.action_to_string(a) for a in st.legal_actions()}
    game = program("checkers").new_game(2, 0)
    assert checkers_action(game, "move r6c1+r5c2") == 322            # OpenSpiel: a3b4
    assert checkers_action(game, "move r6c1+r4c3") == 323            # a jump a3c5
    game = program("breakthrough").new_game(2, 0)
    assert breakthrough_action(game, "move r2c1+r3c1") == 98          # a7a6
    assert othello_action(None, "place r3c4") == 19 and othello_action(None, "pass") == 64


def test_random_games_of_connect_four_agree_with_openspiel():
    seen = play_random_games("connect_four", games("connect_four"))
    assert seen["decisions"] > 10 * seen["games"]


def test_a_full_board_of_connect_four_without_four_in_a_row_is_a_draw_in_both():
    # (a random game of OpenSpiel's: 42 discs, the columns from 0)
    result = play_sequence("connect_four", [int(k) for k in "361313645534311043046626105524515600224220"])
    assert result["draw"] and result["scores"] == [0, 0]


def test_random_games_of_othello_agree_with_openspiel_passes_included():
    seen = play_random_games("othello", games("othello"), seed=3)
    assert seen["decisions"] > 50 * seen["games"] and seen["passes"] > 0


@pytest.mark.parametrize("name", ["hex", "hex_5x5"])
def test_random_games_of_hex_agree_with_openspiel(name):
    seen = play_random_games(name, games(name))
    assert seen["decisions"] > 10 * seen["games"] and seen["draws"] == 0   # hex is never drawn


def test_random_games_of_breakthrough_agree_with_openspiel():
    seen = play_random_games("breakthrough", games("breakthrough"))
    assert seen["decisions"] > 30 * seen["games"]


def test_random_games_of_checkers_agree_with_openspiel_jumps_and_draws_included():
    seen = play_random_games("checkers", games("checkers"), seed=1)
    # the same player jumps on ("again"), men are crowned, and 40 moves without a jump draw
    assert seen["again"] > 0 and seen["kings"] > 0 and seen["draws"] > 0


# ---------------------------------------------------------------- the same in the kernel

# the long form builds a kernel for each game (about 5 s of CPU each at -O0); the short one
# for the two that use the most constructs: rays cut by until, item variables set, a
# decision asked again in a loop (checkers' jumps), end game
KERNEL = scaled(list(GAMES), ["othello", "checkers"])


@needs_kernel
@pytest.mark.kernels
@pytest.mark.parametrize("name", KERNEL)
def test_a_classic_game_plays_the_same_in_its_kernel(name, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    folder, variants = GAMES[name][:2]
    rules = interpreter.load(str(DATA / folder), variants=list(variants))
    assert rules.use_native(report=False)
    fast, plain = rules.for_players(2), program(name)
    assert fast.kernel
    moves = kernel_plays_as_python(fast, plain, scaled(3, 1))
    assert moves > 10 and fast.native_fallbacks == 0   # the kernel decided every move
