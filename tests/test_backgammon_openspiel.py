"""Backgammon against OpenSpiel's `backgammon` (scoring_type "full_scoring"), an
independent engine (the `open_spiel` package, a test-only dependency: without it these
tests say so and skip). Random games are played in both with the same dice: the
ruleset's game runs in explicit chance mode and is given OpenSpiel's rolls. OpenSpiel's
action is two checker moves (a double is two actions); the ruleset's decision is one
checker move. So at every OpenSpiel decision, every legal move of the ruleset followed
by every legal move after it (or by nothing, when the turn ends there) is turned into
OpenSpiel's action and its text (`action_to_string`, which OpenSpiel uses to tell its
actions apart: "24/18 13/11", "bar/22*", "6/off(2)"), and the two sets of texts must be
equal; then one of them is played in both. At the end, the returns must equal the
scores (1, 2 for a gammon, 3 for a backgammon).

One difference could be expected: in the first half of a double OpenSpiel looks only
two checker moves ahead, where the rules ask for as many numbers as possible over all
four. Should OpenSpiel offer two moves after which the other two numbers cannot be
played, those extra actions are checked to be exactly that and counted
(`difference`), and the game goes on with a move both allow (none was seen so far).

Seats and places: Player 1 (White, "o") is OpenSpiel's player 1 (O), Player 2 (Black,
"x") its player 0 (X); point pN is OpenSpiel's position N - 1, a bar is position 24
(its "Bar")."""
from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); Backgammon is not compared with it here")

PASS = 25
BAR = 24


@cache
def program():
    return interpreter.load("backgammon").for_players(2)


def spiel_game():
    return pyspiel.load_game("backgammon", {"scoring_type": "full_scoring"})


def spiel_player(seat: int) -> int:
    return 1 - seat


def own(seat: int, place: str) -> int:
    """The mover's own number of a place: 1..24, 25 the bar, 0 the tray."""
    if place.startswith("bar"):
        return 25
    if place.startswith("off"):
        return 0
    n = int(place[1:])
    return n if seat == 0 else 25 - n


def spiel_pos(place: str) -> int:
    return BAR if place.startswith("bar") else int(place[1:]) - 1


def checker_move(seat: int, notation: str, dice: list[int]) -> tuple[int, int]:
    """(OpenSpiel position, die) of a move 'move p13+p7'; bearing off uses the smallest
    die that does it, as the ruleset does."""
    src, dst = notation.split()[-1].split("+")
    f, t = own(seat, src), own(seat, dst)
    die = f - t if t > 0 else min(d for d in dice if d >= f)
    return spiel_pos(src), die


def spiel_action(dice: list[int], first: tuple[int, int], second: tuple[int, int] | None) -> int:
    """OpenSpiel's encoding: the two positions as base-26 digits (a pass is 25), plus 676
    when the first move does not use the higher die."""
    high = max(dice)
    dig1 = PASS if second is None else second[0]
    return dig1 * 26 + first[0] + (0 if first[1] == high else 676)


def text(st, player: int, action: int) -> str:
    """OpenSpiel's text of an action without the number it starts with ("137 - 8/5 6/5")."""
    return st.action_to_string(player, action).split(" - ", 1)[-1]


def deciding(game, seat: int) -> bool:
    return not game.over and not game.at_chance and game.active_player == seat


def our_actions(game, seat: int, st, player: int) -> dict[str, tuple]:
    """The ruleset's legal moves, two by two (or one, when the turn ends after it), as
    OpenSpiel's action texts."""
    out = {}
    dice = list(game.state["vars"]["dice"])
    for m1 in game.legal_moves():
        first = checker_move(seat, m1.notation, dice)
        g1 = game.copy()
        g1.apply(m1)
        if not deciding(g1, seat):
            out[text(st, player, spiel_action(dice, first, None))] = (m1.notation,)
            continue
        rest = list((Counter(dice) - Counter([first[1]])).elements())
        for m2 in g1.legal_moves():
            second = checker_move(seat, m2.notation, rest)
            a = spiel_action(dice, first, second)
            out[text(st, player, a)] = (m1.notation, m2.notation)
    return out


def half_double_that_wastes_dice(st, player: int, action: int) -> bool:
    """After this first half of a double, OpenSpiel's second half cannot play two
    numbers (its only actions pass or play one)."""
    after = st.clone()
    after.apply_action(action)
    if after.is_chance_node() or after.is_terminal() or after.current_player() != player:
        return True
    return all(text(after, player, a).endswith("Pass") for a in after.legal_actions())


def set_roll(game, st, rnd) -> None:
    """One of OpenSpiel's rolls, read from its text ("chance outcome 3 O starts, (roll:
    31)", "chance outcome 17 (roll: 33)"), given to both games. The opening roll says who
    starts: each player's die in the ruleset, the higher one the starter's."""
    outcome = rnd.choice([a for a, _ in st.chance_outcomes()])
    said = st.action_to_string(pyspiel.PlayerId.CHANCE, outcome)
    d1, d2 = sorted(int(c) for c in said.split("roll: ")[1][:2])
    if "starts" in said:
        x_starts = "X starts" in said             # X is Player 2 (black)
        white, black = (d1, d2) if x_starts else (d2, d1)
        game.apply_chance(str(white))
        game.apply_chance(str(black))
    else:
        game.apply_chance(str(d1))
        game.apply_chance(str(d2))
    st.apply_action(outcome)


def play_random_games(games: int, seed: int) -> Counter:
    rnd = random.Random(seed)
    seen = Counter()
    for g in range(games):
        game = program().new_game(2, g, chance="explicit")
        st = spiel_game().new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                assert game.at_chance
                set_roll(game, st, rnd)
                continue
            player = st.current_player()
            seat = 1 - player
            legal = {text(st, player, a): a for a in st.legal_actions()}
            if list(legal) == ["Pass"]:
                assert not deciding(game, seat)
                st.apply_action(legal["Pass"])
                seen["passes"] += 1
                continue
            assert deciding(game, seat)
            ours = our_actions(game, seat, st, player)
            extra = set(legal) - set(ours)
            assert set(ours) <= set(legal), (set(ours) - set(legal), str(st))
            if extra:
                dice = game.state["vars"]["dice"]
                assert len(dice) == 4 and len(set(dice)) == 1, (extra, str(st))
                assert all(half_double_that_wastes_dice(st, player, legal[s]) for s in extra)
                seen["difference"] += 1
            seen["turns compared"] += 1
            seen["actions"] += len(ours)
            pick = rnd.choice(sorted(ours))
            for m in ours[pick]:
                game.apply(m)
            st.apply_action(legal[pick])
        assert game.over
        scores = game.result["scores"]
        assert st.returns() == [scores[1], scores[0]]
        seen["games"] += 1
        seen[{1: "single", 2: "gammon", 3: "backgammon"}[max(scores)]] += 1
    return seen


def test_place_names_map_to_openspiels_actions():
    st = spiel_game().new_initial_state()
    st.apply_action(3)                           # "O starts, (roll: 31)": White, 3 and 1
    game = program().new_game(2, 0, chance="explicit")
    game.apply_chance("3")
    game.apply_chance("1")
    ours = our_actions(game, 0, st, 1)
    assert set(ours) == {text(st, 1, a) for a in st.legal_actions()}
    assert ours["8/5 6/5"] in {("move p8+p5", "move p6+p5"), ("move p6+p5", "move p8+p5")}


# (the short form: 30 games, some 2,800 turns compared, every kind of result and passes
# among them; the long form, MEEPLE_TESTS=full: 100 games, over 8,000 turns)
GAMES = scaled(100, 30)


def test_random_games_agree_with_openspiel():
    seen = play_random_games(GAMES, 21)
    assert seen["games"] == GAMES and seen["turns compared"] > 80 * GAMES
    assert seen["gammon"] > 0 and seen["backgammon"] > 0 and seen["passes"] > 0
