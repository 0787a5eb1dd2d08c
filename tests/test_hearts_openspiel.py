"""Hearts against OpenSpiel's `hearts`, an independent engine (the `open_spiel` package,
a test-only dependency: without it these tests say so and skip). Both engines get the
same pass direction and the same deal (Meeple in explicit chance mode, its outcomes set
to OpenSpiel's), the same passes and the same plays, chosen at random; at every decision
they must agree on who decides and on the legal cards, and at the end on the points.

OpenSpiel's actions (open_spiel/games/hearts/hearts.cc): the first chance outcome is the
pass direction (0 no pass, 1 left, 2 across, 3 right: the receiver is seat + direction);
the next 52 deal the cards round the table from player 0; a card is rank * 4 + suit,
suits clubs, diamonds, hearts, spades, ranks 2..A from 0. Players 0..3 then pass three
cards each, one card per action, player 0 first; Meeple's seats pick their three cards
at once, one card per move, each seat in any order: the passes are played in OpenSpiel's
order in both. OpenSpiel's returns are 26 minus the penalty points; Meeple's score is minus
the penalty points."""
from __future__ import annotations

import random
from functools import cache

import pytest
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); Hearts is not compared with it here")

SUITS = ["clubs", "diamonds", "hearts", "spades"]
RANKS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace"]
DIRECTIONS = ["keep", "left", "across", "right"]


@cache
def rules():
    return interpreter.load("hearts")


@cache
def spiel_game():
    return pyspiel.load_game("hearts")


def card(action: int) -> str:
    """Meeple's notation of OpenSpiel's card `action`."""
    return f"{RANKS[action // 4]}-{SUITS[action % 4]}"


def cards(moves) -> list[str]:
    return sorted(m.notation.split()[-1] for m in moves)


def test_card_actions_map_to_openspiels_cards():
    st = spiel_game().new_initial_state()
    st.apply_action(0)
    names = {a: st.action_to_string(a) for a in range(52)}
    assert names[0] == "2C" and card(0) == "two-clubs"
    assert names[43] == "QS" and card(43) == "queen-spades"
    assert names[51] == "AS" and card(51) == "ace-spades"
    assert len({card(a) for a in range(52)}) == 52


def deal(game, st, rnd: random.Random, seen: dict) -> None:
    """The same pass direction and the same deal in both engines."""
    outcomes = st.chance_outcomes()
    assert [DIRECTIONS[a] for a, _ in outcomes] == [o.notation for o in game.chance_outcomes()]
    direction = rnd.randrange(4)
    st.apply_action(direction)
    game.apply_chance(DIRECTIONS[direction])
    while st.is_chance_node():
        outcomes = st.chance_outcomes()
        a = outcomes[rnd.randrange(len(outcomes))][0]
        if game.at_chance:                  # the last card is no chance step in Meeple
            assert sorted(o.notation for o in game.chance_outcomes()) == \
                sorted(card(x) for x, _ in outcomes)
            game.apply_chance(card(a))
        st.apply_action(a)
    assert not game.at_chance
    seen["deals"] += 1


def pass_cards(game, st, rnd: random.Random, seen: dict) -> None:
    """OpenSpiel's players pass one after the other, three cards each; Meeple's seats
    pick their three cards at once (`choose 3 ... for each p`), each in any order, so
    the passes are played in OpenSpiel's order, action by action, in both."""
    for p in range(4):
        for _ in range(3):
            assert st.current_player() == p
            assert game.deciding == list(range(p, 4))
            legal = st.legal_actions()
            assert cards(game.legal_moves(p)) == sorted(card(x) for x in legal)
            a = legal[rnd.randrange(len(legal))]
            st.apply_action(a)
            game.apply(f"pass {card(a)}", seat=p)
            seen["decisions"] += 1


def play_random_games(games: int, seed: int) -> dict[str, int]:
    rnd = random.Random(seed)
    seen = {"deals": 0, "decisions": 0, "passes": 0, "moons": 0}
    for g in range(games):
        game = rules().new_game(4, g, chance="explicit")
        st = spiel_game().new_initial_state()
        deal(game, st, rnd, seen)
        if game.deciding and len(game.deciding) == 4:
            pass_cards(game, st, rnd, seen)
            seen["passes"] += 1
        while not st.is_terminal():
            assert not game.over
            assert game.active_player == st.current_player()
            legal = st.legal_actions()
            assert cards(game.legal_moves()) == sorted(card(a) for a in legal)
            a = legal[rnd.randrange(len(legal))]
            game.apply(f"play {card(a)}")
            st.apply_action(a)
            seen["decisions"] += 1
        assert game.over
        points = [26 - r for r in st.returns()]
        assert game.state["pvars"]["points"] == points
        assert game.result["scores"] == [-x for x in points]
        seen["moons"] += sorted(points) == [0, 26, 26, 26]
    return seen


# the short form: 100 deals (some 6,000 decisions compared, passes in three of four);
# the long form (MEEPLE_TESTS=full): 300
DEALS = scaled(300, 100)


def test_random_deals_agree_with_openspiel_at_every_decision():
    seen = play_random_games(DEALS, 5)
    assert seen["deals"] == DEALS and seen["passes"] > DEALS * 3 // 5
    assert seen["decisions"] == DEALS * 52 + seen["passes"] * 12
