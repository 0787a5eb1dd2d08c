"""Liar's poker, small (tests/testdata/liars_poker, written from the documentation alone;
issue 37: hands of 3 digits from 1 to 3, dealt at random, each seen only by its holder)
against OpenSpiel's `python_liars_poker(hand_length=3,num_digits=3)` (the Python game
that the `open_spiel` package ships, a test-only dependency: without it these tests say
so and skip). That game plays 2 players whatever its `players` parameter says (its game
info fixes 2), so the ruleset, written for 2 or 3, is compared with it for 2. Random games are played step by step in both, in
explicit chance mode: at every chance step they must agree on the outcomes and their
probabilities, at every decision on who moves and on the set of legal moves, and at the
end on the returns (the ruleset's payoffs). A seat never sees another's hand. (Its kernel
plays it as Python does, the same OpenSpiel actions: tests/test_kernel_nested_beside_verbs.py.)

A Meeple move is mapped to OpenSpiel's action string: `bid 2+3` (at least two 3s in all
the hands) is `Bid: 2 of 3`, `challenge` is `Challenge`, and the chance outcome `2` (a
digit dealt) is `Deal: 2`."""
from __future__ import annotations

import random
import re
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from meeple.interpreter.views import view
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); liar's poker is not compared with it here")
pytest.importorskip("open_spiel.python.games", reason="OpenSpiel's Python games are missing")

DATA = Path(__file__).resolve().parent / "testdata"


@cache
def program(players: int):
    return interpreter.load(str(DATA / "liars_poker")).for_players(players)


def spiel_game(players: int):
    return pyspiel.load_game(f"python_liars_poker(players={players},hand_length=3,num_digits=3)")


def spiel_name(notation: str) -> str:
    """OpenSpiel's string of a Meeple move: 'bid 2+3' -> 'Bid: 2 of 3', 'challenge'."""
    if notation == "challenge":
        return "Challenge"
    bid = re.fullmatch(r"bid (\d+)\+(\d)", notation)
    assert bid, notation
    return f"Bid: {bid.group(1)} of {bid.group(2)}"


def deal_step(game, st, rnd) -> None:
    """One chance step, compared and played in both: the digit dealt."""
    assert game.at_chance and game.chance_kind == "pick", str(st)
    mine = {f"Deal: {o.notation}": o for o in game.chance_outcomes()}
    theirs = {st.action_to_string(pyspiel.PlayerId.CHANCE, a): (a, p) for a, p in st.chance_outcomes()}
    assert sorted(mine) == sorted(theirs), str(st)
    for name, outcome in mine.items():
        assert outcome.probability == Fraction(1, 3) and theirs[name][1] == pytest.approx(1 / 3)
    name = rnd.choice(sorted(mine))
    game.apply_chance(mine[name])
    st.apply_action(theirs[name][0])


def play_random_games(players: int, count: int, seed: int = 0) -> dict[str, int]:
    """Random games in lockstep with OpenSpiel; what they went through."""
    spiel = spiel_game(players)
    seen = {"deals": 0, "decisions": 0, "rebids": 0, "bidder wins": 0, "bidder loses": 0}
    for g in range(count):
        rnd = random.Random(seed + g)
        game, st = program(players).new_game(players, seed + g, chance="explicit"), spiel.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                deal_step(game, st, rnd)
                seen["deals"] += 1
                continue
            assert not game.at_chance and not game.over, str(st)
            assert game.active_player == st.current_player(), str(st)
            hands = view(game, game.active_player)["pvars"]["hand"]
            assert all(h == {"hidden": True} for s, h in enumerate(hands) if s != game.active_player)
            mine = {spiel_name(m.notation): m for m in game.legal_moves()}
            theirs = {st.action_to_string(a): a for a in st.legal_actions()}
            assert sorted(mine) == sorted(theirs), str(st)
            # challenges are played more often than a uniform pick would, so that games end
            # with bids of every size, and rebids happen
            name = "Challenge" if "Challenge" in mine and rnd.random() < 0.5 else rnd.choice(sorted(mine))
            seen["rebids"] += name != "Challenge" and game.state["vars"]["bidder"] == game.active_player
            game.apply(mine[name])
            st.apply_action(theirs[name])
            seen["decisions"] += 1
        assert game.over, str(st)
        assert game.result["payoffs"] == [int(x) for x in st.returns()], str(st)
        winner = st.returns()[game.state["vars"]["bidder"]] > 0
        seen["bidder wins" if winner else "bidder loses"] += 1
    return seen


def test_the_hands_are_dealt_one_digit_a_player_at_a_time():
    game = program(2).new_game(2, 0, chance="explicit")
    for digit in "123321":
        assert [o.notation for o in game.chance_outcomes()] == ["1", "2", "3"]
        game.apply_chance(digit)
    assert not game.at_chance and game.state["pvars"]["hand"] == [[1, 3, 2], [2, 3, 1]]
    assert [m.notation for m in game.legal_moves()][:4] == ["bid 1+1", "bid 1+2", "bid 1+3", "bid 2+1"]
    assert len(game.legal_moves()) == 18   # counts 1 to 6 of numbers 1 to 3
    game.apply("bid 2+3")
    game.apply("challenge")
    # every other seat challenged: the bidder may challenge too, or bid again (once)
    assert [m.notation for m in game.legal_moves()][:2] == ["challenge", "bid 3+1"]
    game.apply("challenge")
    # two 3s are held: the bidder wins one point from the other
    assert game.over and game.result["payoffs"] == [1, -1]


def test_openspiels_game_is_for_two_players():
    assert spiel_game(3).num_players() == 2


def test_random_games_of_liars_poker_agree_with_openspiel():
    seen = play_random_games(2, scaled(300, 40))
    assert seen["bidder wins"] > 0 and seen["bidder loses"] > 0 and seen["rebids"] > 0
    assert seen["deals"] == 6 * (seen["bidder wins"] + seen["bidder loses"])
