"""Hearts: one test for every rule, each on a hand-built position or a fixed deal, named
after the rule (docs/rulesets/hearts.md, "Rules summary"). Cards are written as Meeple
writes them in moves: 'queen-spades', 'two-clubs'. Seats 0..3 in the tests are Players
1..4; clockwise, the player to the left of a seat is the next seat."""
from __future__ import annotations

import json
from functools import cache

from meeple.interpreter.analysis import testing
from meeple.interpreter.play import views

from meeple import interpreter

SUITS = ["clubs", "diamonds", "hearts", "spades"]
RANKS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace"]
DECK = [f"{r}-{s}" for s in SUITS for r in RANKS]


@cache
def program():
    return interpreter.load("hearts").for_players(4)


def card(name: str) -> int:
    rank, suit = name.split("-")
    return testing.item(program(), "Card", rank=rank, suit=suit)


def deal(direction: str, hands: list[list[str]]):
    """A new game with this pass direction and these four hands of 13 cards (the deal
    goes round the table from Player 1, one card at a time, from the top of the deck)."""
    order = [hands[k % 4][k // 4] for k in range(52)]
    return testing.new_game(program(), 4, outcomes=[direction] + order[:51])


def four_hands() -> list[list[str]]:
    """Player 1 holds the clubs, Player 2 the diamonds, Player 3 the hearts, Player 4
    the spades."""
    return [[f"{r}-{s}" for r in RANKS] for s in SUITS]


def build(hands: dict[int, list[str]], trick: list[str] = (), active: int = 0,
          tricks: int = 1, broken: bool = False, points=(0, 0, 0, 0), taken=None):
    """A position in the middle of a deal: these hands, the cards of the current trick
    (played by the seats before `active`, in order), `tricks` tricks already played."""
    zones = {f"hand:{p}": [card(c) for c in cs] for p, cs in hands.items()}
    zones["trick"] = [card(c) for c in trick]
    for p, cs in (taken or {}).items():
        zones[f"taken:{p}"] = [card(c) for c in cs]
    leader = (active - len(trick)) % 4
    played = [None] * 4
    for i, c in enumerate(trick):
        played[(leader + i) % 4] = card(c)
    vars = {"tricks": tricks, "broken": broken, "pass_by": "left",
            "leader": leader if trick else None,
            "led": trick[0].split("-")[1] if trick else None}
    return testing.position(program(), 4, zones, active=active, vars=vars,
                            pvars={"played": played, "points": list(points)})


def hand(game, seat: int) -> list[str]:
    prog = program()
    return sorted(f"{prog.items[i].attrs['rank']}-{prog.items[i].attrs['suit']}"
                  for i in testing.at(game, f"hand:{seat}"))


# ---------------------------------------------------------------- the deal and the pass

def test_the_deal_gives_thirteen_cards_to_each_player():
    game = deal("left", four_hands())
    assert [len(testing.at(game, f"hand:{p}")) for p in range(4)] == [13] * 4
    assert hand(game, 0) == sorted(f"{r}-clubs" for r in RANKS)


def test_passing_three_cards_in_secret():
    game = deal("left", four_hands())
    assert game.deciding == [0, 1, 2, 3]                # everyone passes at once
    assert testing.options(game, "pass", 2) == [f"{r}-hearts" for r in RANKS]
    game.apply("pass ace-clubs", seat=0)
    # the choice is secret: the others see neither the card nor that hand
    for seat in (1, 2, 3, views.SPECTATOR):
        v = views.view(game, seat)
        assert v["zones"]["hand:0"] == {"count": 13}
        assert v["pvars"]["passed"] == [[]] * 4 and "ace-clubs" not in json.dumps(v)
    # three cards, one per move, from the seat's own hand less its own picks: the seat
    # picks on, whatever the others have done
    assert game.deciding == [0, 1, 2, 3]
    assert "ace-clubs" not in testing.options(game, "pass", 0)
    assert len(testing.options(game, "pass", 0)) == 12
    game.apply("pass king-clubs", seat=0)
    game.apply("pass queen-clubs", seat=0)
    assert game.deciding == [1, 2, 3] and game.legal_moves(0) == []
    for c in ("ace", "king", "queen"):
        for seat in (1, 2, 3):
            game.apply(f"pass {c}-{SUITS[seat]}", seat=seat)
    # the three cards reach the player to the left, all at once
    assert not game.deciding or game.deciding == [game.active_player]
    assert hand(game, 1) == sorted([f"{r}-diamonds" for r in RANKS[:10]] +
                                   ["queen-clubs", "king-clubs", "ace-clubs"])
    assert hand(game, 0) == sorted([f"{r}-clubs" for r in RANKS[:10]] +
                                   ["queen-spades", "king-spades", "ace-spades"])


def test_each_receiver_is_told_which_cards_arrived():
    game = deal("left", four_hands())
    for c in ("ace", "king", "queen"):
        for seat in range(4):
            game.apply(f"pass {c}-{SUITS[seat]}", seat=seat)
    said = {seat: views.view(game, seat)["log"] for seat in range(4)}
    told = "Player 2 receives ace of clubs, king of clubs, queen of clubs from Player 1"
    assert told in said[1]
    # the others read that three cards arrived, never which
    for seat in (0, 2, 3):
        assert "Player 2 receives a card, a card, a card from Player 1" in said[seat]
        assert told not in said[seat]


def test_passing_across_and_to_the_right():
    for direction, receiver in (("across", 2), ("right", 3)):
        game = deal(direction, four_hands())
        for c in ("ace", "king", "queen"):
            for seat in range(4):
                game.apply(f"pass {c}-{SUITS[seat]}", seat=seat)
        assert {"ace-clubs", "king-clubs", "queen-clubs"} <= set(hand(game, receiver))


def test_no_passing_when_the_cards_are_kept():
    game = deal("keep", four_hands())
    assert game.active_player == 0 and testing.options(game, "play") == ["two-clubs"]


# ---------------------------------------------------------------- the play

def test_the_two_of_clubs_leads_the_first_trick():
    hands = four_hands()
    hands[0], hands[2] = hands[2], hands[0]          # Player 3 holds the clubs
    game = deal("keep", hands)
    assert game.active_player == 2
    assert testing.options(game, "play") == ["two-clubs"]


def test_following_suit():
    game = build({1: ["three-spades", "king-spades", "ace-diamonds", "two-hearts"]},
                 trick=["five-spades"], active=1)
    assert testing.options(game, "play") == ["three-spades", "king-spades"]


def test_a_void_may_discard_any_card():
    game = build({1: ["ace-diamonds", "two-hearts", "queen-spades"]},
                 trick=["five-clubs"], active=1)
    assert testing.options(game, "play") == ["ace-diamonds", "two-hearts", "queen-spades"]


def test_no_points_on_the_first_trick():
    game = build({1: ["ace-diamonds", "two-hearts", "queen-spades"]},
                 trick=["two-clubs"], active=1, tricks=0)
    assert testing.options(game, "play") == ["ace-diamonds"]
    # unless the hand holds nothing else
    game = build({1: ["two-hearts", "queen-spades"]}, trick=["two-clubs"], active=1, tricks=0)
    assert testing.options(game, "play") == ["two-hearts", "queen-spades"]


def test_hearts_cannot_be_led_until_broken():
    hands = {0: ["three-clubs", "two-hearts", "ace-hearts"]}
    assert testing.options(build(hands), "play") == ["three-clubs"]
    assert testing.options(build(hands, broken=True), "play") == \
        ["three-clubs", "two-hearts", "ace-hearts"]
    # a hand of nothing but hearts may lead one
    assert testing.options(build({0: ["two-hearts", "ace-hearts"]}), "play") == \
        ["two-hearts", "ace-hearts"]


def test_a_heart_or_the_queen_of_spades_breaks_hearts():
    for discard in ("two-hearts", "queen-spades"):
        game = build({1: [discard, "ace-diamonds"], 2: ["six-clubs"], 3: ["seven-clubs"]},
                     trick=["five-clubs"], active=1)
        assert game.state["vars"]["broken"] is False
        testing.play(game, f"play {discard}")
        assert game.state["vars"]["broken"] is True


def test_the_highest_card_of_the_suit_led_wins_and_its_winner_leads():
    game = build({3: ["ace-spades", "four-diamonds"], 1: ["six-clubs", "seven-diamonds"]},
                 trick=["five-clubs", "queen-clubs", "three-clubs"], active=3)
    testing.play(game, "play ace-spades")              # off suit: does not win
    assert game.active_player == 1                     # Player 2's queen won
    assert len(testing.at(game, "taken:1")) == 4 and testing.at(game, "trick") == []
    assert game.state["vars"]["tricks"] == 2


def test_each_heart_is_one_point_and_the_queen_of_spades_thirteen():
    game = build({3: ["queen-spades", "four-diamonds"], 0: ["six-clubs"]},
                 trick=["five-clubs", "ace-hearts", "three-hearts"], active=3)
    testing.play(game, "play queen-spades")
    assert game.state["pvars"]["points"] == [15, 0, 0, 0]   # Player 1's five of clubs won


def test_shooting_the_moon():
    # the last trick: Player 1 already holds 25 points and takes the last heart
    rest = [c for c in DECK if c not in ("ace-clubs", "two-clubs", "three-clubs", "two-hearts")]
    taken = {0: [c for c in rest if c.endswith("hearts") or c == "queen-spades"]}
    taken[1] = [c for c in rest if c not in taken[0]]
    game = build({0: ["ace-clubs"], 1: ["two-clubs"], 2: ["three-clubs"], 3: ["two-hearts"]},
                 tricks=12, points=(25, 0, 0, 0), taken=taken, broken=True)
    testing.play(game, "play ace-clubs", "play two-clubs", "play three-clubs",
                 "play two-hearts")
    assert game.over
    assert game.state["pvars"]["points"] == [0, 26, 26, 26]
    assert game.result["scores"] == [0, -26, -26, -26] and game.result["winners"] == [0]


def test_without_the_moon_the_fewest_points_win():
    rest = [c for c in DECK if c not in ("ace-clubs", "two-clubs", "three-clubs", "two-hearts")]
    taken = {0: [c for c in rest if c.endswith("hearts")], 1: ["queen-spades"]}
    taken[2] = [c for c in rest if c not in taken[0] + taken[1]]
    game = build({0: ["ace-clubs"], 1: ["two-clubs"], 2: ["three-clubs"], 3: ["two-hearts"]},
                 tricks=12, points=(12, 13, 0, 0), taken=taken, broken=True)
    testing.play(game, "play ace-clubs", "play two-clubs", "play three-clubs",
                 "play two-hearts")
    assert game.state["pvars"]["points"] == [13, 13, 0, 0]
    assert game.result["scores"] == [-13, -13, 0, 0]
    assert game.result["winners"] == [2, 3] and game.result["ranks"] == [3, 3, 1, 1]


def test_a_deal_is_thirteen_tricks_and_all_26_points():
    game = program().new_game(4, 3)
    while not game.over:
        game.apply(game.legal_moves()[0])
    assert game.state["vars"]["tricks"] == 13
    points = game.state["pvars"]["points"]
    assert sum(points) == 26 or sorted(points) == [0, 26, 26, 26]


def test_hidden_hands_and_passes_never_leak():
    """What `meeple test hearts` checks: the invariants, and that no seat is shown
    anything that depends on a card it has never seen (the hands, the cards passed)."""
    testing.check_ruleset("hearts", examples=20)
