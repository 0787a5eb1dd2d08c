"""Kalah: one test for every rule, each on a hand-built position, named after the rule
(docs/rulesets/kalah.md, "Rules summary"); then the whole game against an independent
engine written here from the rules, and against OpenSpiel's `mancala` when it is
installed. Places: Player 1's pits a1..a6 and store A, Player 2's pits b1..b6 and store B,
counterclockwise a1 -> a6 -> A -> b1 -> b6 -> B."""
from __future__ import annotations

import random
from functools import cache

import pytest
from meeple.interpreter.analysis import testing

from meeple import interpreter

PLACES = [f"a{i}" for i in range(1, 7)] + ["A"] + [f"b{i}" for i in range(1, 7)] + ["B"]


@cache
def program():
    return interpreter.load("kalah").for_players(2)


def build(seeds: dict[str, int], active: int = 0):
    """A position with these numbers of seeds (the other places empty)."""
    prog = program()
    pool = testing.items(prog, "Seed")
    zones, k = {}, 0
    for place, n in seeds.items():
        zones[f"pits:{place}"] = pool[k:k + n]
        k += n
    zones["bowl"] = pool[k:]
    return testing.position(prog, 2, zones, active=active)


def counts(game) -> dict[str, int]:
    return {p: len(testing.at(game, f"pits:{p}")) for p in PLACES if testing.at(game, f"pits:{p}")}


def test_the_setup_puts_four_seeds_in_each_pit():
    game = program().new_game(2, 0)
    assert counts(game) == {p: 4 for p in PLACES if p not in ("A", "B")}
    assert game.active_player == 0


def test_a_player_sows_one_of_their_non_empty_pits():
    game = build({"a1": 1, "a3": 2, "b2": 5})
    assert testing.options(game, "sow") == ["a1", "a3"]
    game = build({"a1": 1, "b2": 5, "b6": 1}, active=1)
    assert testing.options(game, "sow") == ["b2", "b6"]


def test_sowing_drops_one_seed_in_each_following_place():
    game = build({"a2": 3, "b1": 1})
    testing.play(game, "sow a2")
    assert counts(game) == {"a3": 1, "a4": 1, "a5": 1, "b1": 1}
    assert game.active_player == 1


def test_sowing_goes_through_ones_own_store_and_on_to_the_other_side():
    game = build({"a5": 4, "b6": 1})
    testing.play(game, "sow a5")
    assert counts(game) == {"a6": 1, "A": 1, "b1": 1, "b2": 1, "b6": 1}


def test_sowing_skips_the_opponents_store():
    game = build({"a6": 9, "a2": 1, "b3": 1})     # A, b1..b6, (not B), a1, a2
    testing.play(game, "sow a6")
    assert counts(game) == {"A": 1, "b1": 1, "b2": 1, "b3": 2, "b4": 1, "b5": 1, "b6": 1,
                            "a1": 1, "a2": 2}
    game = build({"b6": 9, "b2": 1, "a3": 1}, active=1)  # B, a1..a6, (not A), b1, b2
    testing.play(game, "sow b6")
    assert counts(game) == {"B": 1, "a1": 1, "a2": 1, "a3": 2, "a4": 1, "a5": 1, "a6": 1,
                            "b1": 1, "b2": 2}


def test_a_last_seed_in_ones_own_store_plays_again():
    game = build({"a4": 3, "b1": 2})
    testing.play(game, "sow a4")
    assert counts(game) == {"a5": 1, "a6": 1, "A": 1, "b1": 2}
    assert game.active_player == 0 and testing.options(game, "sow") == ["a5", "a6"]


def test_a_last_seed_in_an_own_empty_pit_captures_the_opposite_pit():
    game = build({"a1": 2, "b4": 5, "b6": 1}, active=0)   # a3 faces b4 (pos 3 and 11)
    testing.play(game, "sow a1")
    assert counts(game) == {"a2": 1, "A": 6, "b6": 1}
    assert game.active_player == 1


def test_no_capture_when_the_opposite_pit_is_empty():
    game = build({"a1": 2, "b6": 1, "b1": 1})
    testing.play(game, "sow a1")
    assert counts(game) == {"a2": 1, "a3": 1, "b6": 1, "b1": 1}


def test_no_capture_in_the_opponents_empty_pit():
    game = build({"a6": 2, "a1": 1, "b5": 3}, active=0)   # ends in b1 (empty before)
    testing.play(game, "sow a6")
    assert counts(game) == {"A": 1, "b1": 1, "a1": 1, "b5": 3}


def test_the_game_ends_when_one_side_is_empty_and_each_keeps_their_seeds():
    game = build({"a6": 1, "A": 20, "b2": 3, "B": 24})    # a6 -> A: a side is empty
    testing.play(game, "sow a6")
    assert game.over
    assert game.result["scores"] == [21, 27] and game.result["outcomes"] == ["loss", "win"]


def test_a_level_end_is_a_draw():
    game = build({"a6": 1, "A": 23, "b2": 4, "B": 20})
    testing.play(game, "sow a6")
    assert game.over and game.result["scores"] == [24, 24]
    assert game.result["outcomes"] == ["draw", "draw"] and game.result["winners"] == []


# ---------------------------------------------------------------- an independent engine

START = [0] + [4] * 6 + [0] + [4] * 6      # 0: B; 1..6: a1..a6; 7: A; 8..13: b1..b6


class Kalah:
    """Kalah written here from the rules, on 14 numbers (OpenSpiel's numbering)."""

    def __init__(self):
        self.b, self.p = list(START), 0

    def moves(self) -> list[int]:
        own = range(1, 7) if self.p == 0 else range(8, 14)
        return [i for i in own if self.b[i]]

    def over(self) -> bool:
        return not any(self.b[1:7]) or not any(self.b[8:14])

    def play(self, i: int) -> None:
        b, p = self.b, self.p
        n, b[i], cur = b[i], 0, i
        for _ in range(n):
            cur = (cur + 1) % 14
            if cur == (0 if p == 0 else 7):
                cur += 1
            b[cur] += 1
        own = 1 <= cur <= 6 if p == 0 else 8 <= cur <= 13
        if own and b[cur] == 1 and b[14 - cur]:
            b[7 if p == 0 else 0] += 1 + b[14 - cur]
            b[cur] = b[14 - cur] = 0
        if cur != (7 if p == 0 else 0):
            self.p = 1 - p

    def totals(self) -> list[int]:
        return [sum(self.b[1:8]), sum(self.b[8:14]) + self.b[0]]


def index_of(notation: str) -> int:
    place = notation.split()[-1]
    return int(place[1:]) + (0 if place[0] == "a" else 7)


def test_random_games_agree_with_an_independent_engine():
    rnd = random.Random(11)
    for seed in range(60):
        game, ref = program().new_game(2, seed), Kalah()
        while not ref.over():
            assert game.active_player == ref.p
            legal = game.legal_moves()
            assert sorted(index_of(m.notation) for m in legal) == ref.moves()
            m = legal[rnd.randrange(len(legal))]
            game.apply(m)
            ref.play(index_of(m.notation))
        assert game.over and game.result["scores"] == ref.totals()


def test_random_games_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")
    spiel = pyspiel.load_game("mancala")
    rnd = random.Random(5)
    moves = draws = 0
    for seed in range(200):
        game, st = program().new_game(2, seed), spiel.new_initial_state()
        while not st.is_terminal():
            assert game.active_player == st.current_player()
            legal = game.legal_moves()
            assert sorted(index_of(m.notation) for m in legal) == st.legal_actions()
            m = legal[rnd.randrange(len(legal))]
            game.apply(m)
            st.apply_action(index_of(m.notation))
            moves += 1
        r, returns = game.result, st.returns()
        assert game.over
        assert r["outcomes"][0] == ("win" if returns[0] > 0 else "loss" if returns[0] < 0 else "draw")
        draws += r["draw"]
    assert moves > 5000 and draws > 0          # long enough, and draws were compared too


def test_a_pit_shows_its_seeds_as_one_line_with_their_number(tmp_path, monkeypatch):
    """Alike items lying one on another are drawn as one line, "o×4", not four lines."""
    from meeple.cli.main import app
    from typer.testing import CliRunner
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["play", "kalah", "--bot", "2=first", "--seed", 1],
                           input="quit\n", env={"COLUMNS": "90", "LINES": "40"})
    board = r.output.split("Choose")[0]
    assert board.count("o×4") == 12 and "\n    o\n" not in board, board
