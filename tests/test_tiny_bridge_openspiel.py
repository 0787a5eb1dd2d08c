"""Two-player tiny bridge (tests/testdata/tiny_bridge, written from the documentation
alone; issue 37) against OpenSpiel's own C++ game `tiny_bridge_2p` (the `open_spiel`
package, a test-only dependency: without it these tests say so and skip). Eight cards,
two to each partner, dealt in two chance steps (28 hands, then 15, each equally likely);
an auction of passes and rising bids (1H to 2NT); the deal's worth, to both partners,
the mean of the declarer's score over the six ways North and South may hold the other
four cards, each contract played out double dummy.

- Random games are played step by step in both, in explicit chance mode: the same
  chance outcomes and probabilities, the same seat to move and the same legal moves at
  every decision, a seat never seeing the other's hand, and at the end the same
  returns: the worth is a mean of six scores, a payoff counted `per 6` (sixths, exact),
  and OpenSpiel's return is that mean as its C++ sums it in floating point (six scores
  times `1. / 6`: 20 is 19.999999999999996), so it is the exact worth to within that
  rounding (`same_worth`); the adapter's return is the float nearest the exact worth.
- Every deal, contract and declarer (5,040; a seventh of the deals in the short form)
  is worth OpenSpiel's score: its whole table of double-dummy results.
- Made an OpenSpiel game by Meeple's adapter (`meeple.openspiel`), the ruleset is typed
  as OpenSpiel types tiny bridge (identical payoffs, imperfect information, explicit
  chance), and each seat's information states part the histories as OpenSpiel's do.
  (Observations are not compared: OpenSpiel's, the hand and the last bid with its
  bidder, are coarser than a Meeple view, which shows the count of calls made too.)
- Its kernel plays it as Python does.

A Meeple move, `bid 1NT` or `pass`, is OpenSpiel's `1NT` or `Pass`; a chance outcome,
`hearts-jack+spades-ace` (the two cards of a hand), is OpenSpiel's `SAHJ` (the higher
card first: hearts below spades, jack to ace)."""
from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_plays_as_python
from meeple.interpreter.views import view
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); tiny bridge is not compared with it here")

RULES = str(Path(__file__).resolve().parent / "testdata" / "tiny_bridge")
SUITS, RANKS = {"hearts": "H", "spades": "S"}, {"jack": "J", "queen": "Q", "king": "K", "ace": "A"}
CALLS = ["1H", "1S", "1NT", "2H", "2S", "2NT"]


@cache
def program():
    return interpreter.load(RULES).for_players(2)


def spiel_game():
    return pyspiel.load_game("tiny_bridge_2p")


def card_code(card: str) -> int:
    """OpenSpiel's number of a card ('HJ' 0 .. 'SA' 7)."""
    return 4 * "HS".index(card[0]) + "JQKA".index(card[1])


def spiel_hand(notation: str) -> str:
    """OpenSpiel's string of a hand dealt: 'hearts-jack+spades-ace' -> 'SAHJ'."""
    cards = [SUITS[c.split("-")[0]] + RANKS[c.split("-")[1]] for c in notation.split("+")]
    return "".join(sorted(cards, key=card_code, reverse=True))


def spiel_call(notation: str) -> str:
    """OpenSpiel's string of a call: 'bid 1NT' -> '1NT', 'pass' -> 'Pass'."""
    return "Pass" if notation == "pass" else notation.removeprefix("bid ")


def deal_step(game, st, rnd) -> None:
    """One chance step, compared and played in both: a hand dealt."""
    assert game.at_chance, str(st)
    mine = {spiel_hand(o.notation): o for o in game.chance_outcomes()}
    theirs = {st.action_to_string(pyspiel.PlayerId.CHANCE, a): (a, p) for a, p in st.chance_outcomes()}
    assert sorted(mine) == sorted(theirs) and len(mine) in (28, 15), str(st)
    for name, outcome in mine.items():
        assert outcome.probability == Fraction(1, len(mine)) and theirs[name][1] == pytest.approx(1 / len(mine))
    name = rnd.choice(sorted(mine))
    game.apply_chance(mine[name])
    st.apply_action(theirs[name][0])


def play_random_games(count: int, seed: int = 0) -> dict[str, int]:
    """Random games in lockstep with OpenSpiel; what they went through."""
    spiel = spiel_game()
    seen = {"deals": 0, "calls": 0, "passed out": 0, "made": 0, "down": 0}
    for g in range(count):
        rnd = random.Random(seed + g)
        game, st = program().new_game(2, seed + g, chance="explicit"), spiel.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                deal_step(game, st, rnd)
                seen["deals"] += 1
                continue
            assert not game.at_chance and not game.over, str(st)
            assert game.active_player == st.current_player(), str(st)
            hands = view(game, game.active_player)["zones"]
            assert hands[f"hand:{1 - game.active_player}"] == {"count": 2} and len(hands[f"hand:{game.active_player}"]) == 2
            mine = {spiel_call(m.notation): m for m in game.legal_moves()}
            theirs = {st.action_to_string(a): a for a in st.legal_actions()}
            assert sorted(mine) == sorted(theirs), str(st)
            # (a pass half the time at most: auctions of every length)
            name = rnd.choice(sorted(mine)) if rnd.random() < 0.7 else "Pass"
            game.apply(mine[name])
            st.apply_action(theirs[name])
            seen["calls"] += 1
        assert game.over, str(st)
        worth = interpreter.payoff_values(game.result)
        assert worth[0] == worth[1] and all(same_worth(worth[0], r) for r in st.returns()), str(st)
        seen["passed out" if game.state["vars"]["bid"] == 0 else "made" if worth[0] > 0 else "down"] += 1
    return seen


def same_worth(exact: Fraction, theirs: float) -> bool:
    """Whether OpenSpiel's return is the exact worth (a mean of six whole scores, each
    at most 45 away from 0) but for the rounding of its sum of six products by `1. / 6`
    (each rounding at most 2**-53 of a term's size: far below 10**-12)."""
    return abs(Fraction(theirs) - exact) < Fraction(1, 10**12) and exact * 6 == round(6 * theirs)


def test_the_hands_are_dealt_then_the_partners_bid():
    game = program().new_game(2, 0, chance="explicit")
    assert len(game.chance_outcomes()) == 28
    game.apply_chance("hearts-ace+spades-ace")
    assert len(game.chance_outcomes()) == 15 and "hearts-ace+hearts-king" not in \
        [o.notation for o in game.chance_outcomes()]
    game.apply_chance("hearts-king+spades-king")
    assert [m.notation for m in game.legal_moves()] == ["pass", "bid 1H", "bid 1NT", "bid 1S", "bid 2H",
                                                       "bid 2NT", "bid 2S"]
    game.apply("pass")                 # West's first pass does not end the auction
    game.apply("bid 1NT")
    assert [m.notation for m in game.legal_moves()] == ["pass", "bid 2H", "bid 2NT", "bid 2S"]
    game.apply("pass")
    # East plays 1NT, North leads: East and West hold both aces and kings, two tricks
    # whoever holds what: 20 points six times over, a payoff of 20
    assert game.over and game.result["payoffs"] == [120, 120] and game.result["payoffs_per"] == 6
    assert interpreter.payoff_values(game.result) == [20, 20]


def test_random_games_of_tiny_bridge_agree_with_openspiel():
    seen = play_random_games(scaled(600, 120))
    assert seen["passed out"] > 0 and seen["made"] > 0 and seen["down"] > 0
    assert seen["deals"] == 2 * (seen["passed out"] + seen["made"] + seen["down"])


def test_every_deal_contract_and_declarer_is_worth_openspiels_score():
    spiel = spiel_game()
    start = spiel.new_initial_state()
    compared = 0
    for west in range(0, 28, scaled(1, 7)):
        one = start.child(west)
        for east, _ in one.chance_outcomes():
            two = one.child(east)
            deal = [spiel_hand_notation(two.action_to_string(pyspiel.PlayerId.CHANCE, d)) for d in (west, east)]
            for b in range(1, 7):
                for auction in ([b, 0], [0, b, 0]):   # West declares, or East
                    st, game = two.clone(), program().new_game(2, 0, chance="explicit")
                    for hand in deal:
                        game.apply_chance(hand)
                    for a in auction:
                        st.apply_action(a)
                        game.apply("pass" if a == 0 else f"bid {CALLS[a - 1]}")
                    assert game.over and st.is_terminal()
                    assert same_worth(interpreter.payoff_values(game.result)[0], st.returns()[0]), str(st)
                    compared += 1
    assert compared == scaled(5040, 4 * 15 * 12)


def spiel_hand_notation(hand: str) -> str:
    """The Meeple outcome of OpenSpiel's hand: 'SAHJ' -> 'hearts-jack+spades-ace'."""
    names = {v: k for k, v in SUITS.items()}, {v: k for k, v in RANKS.items()}
    cards = sorted((hand[0:2], hand[2:4]), key=card_code)
    return "+".join(f"{names[0][c[0]]}-{names[1][c[1]]}" for c in cards)


def test_as_an_openspiel_game_it_is_typed_and_informed_as_openspiels(monkeypatch):
    monkeypatch.setenv("MEEPLE_KERNEL", "0")
    import meeple.openspiel as openspiel
    mine, theirs = openspiel.load(RULES, native=False), spiel_game()
    a, b = mine.get_type(), theirs.get_type()
    assert (a.utility, a.information, a.chance_mode, a.dynamics) == (b.utility, b.information, b.chance_mode,
                                                                     b.dynamics)
    # each seat's information states part the histories as OpenSpiel's do (a state of
    # one is a state of the other, both ways), over random games
    ours: dict = {}
    back: dict = {}
    for g in range(scaled(300, 60)):
        rnd = random.Random(g)
        x, y = mine.new_initial_state(), theirs.new_initial_state()
        while not y.is_terminal():
            if y.is_chance_node():
                name = rnd.choice([y.action_to_string(pyspiel.PlayerId.CHANCE, o) for o, _ in y.chance_outcomes()])
                x.apply_action(next(o for o, _ in x.chance_outcomes()
                                    if spiel_hand(x.action_to_string(pyspiel.PlayerId.CHANCE, o)) == name))
                y.apply_action(next(o for o, _ in y.chance_outcomes()
                                    if y.action_to_string(pyspiel.PlayerId.CHANCE, o) == name))
                continue
            for p in range(2):
                key, other = (p, x.information_state_string(p)), (p, y.information_state_string(p))
                assert ours.setdefault(key, other) == other and back.setdefault(other, key) == key
            name = rnd.choice([y.action_to_string(a) for a in y.legal_actions()])
            x.apply_action(next(a for a in x.legal_actions() if spiel_call(x.action_to_string(a)) == name))
            y.apply_action(next(a for a in y.legal_actions() if y.action_to_string(a) == name))
        # the adapter's returns: the floats nearest the exact worth, the mean of the six
        # whole scores OpenSpiel's return rounds (its own return is within a rounding)
        exact = Fraction(round(6 * y.returns()[0]), 6)
        assert x.is_terminal() and x.returns() == [float(exact)] * 2, str(y)
        assert all(same_worth(exact, r) for r in y.returns()), str(y)
    assert len(ours) > 200


@needs_kernel
def test_its_kernel_plays_as_python(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    fast = interpreter.load(RULES, cache=False)
    said: list[str] = []
    fast.use_native(report=said.append, kernel_only=True)
    fast = fast.for_players(2)
    assert fast.kernel, said
    moves = kernel_plays_as_python(fast, interpreter.load(RULES, cache=False).for_players(2), seeds=scaled(60, 20))
    assert moves > 40 and fast.native_fallbacks == 0
