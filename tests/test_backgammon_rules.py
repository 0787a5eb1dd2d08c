"""Backgammon: one test for every rule, each on a hand-built position, named after the
rule (docs/rulesets/backgammon.md, "Rules summary"). Points are named by White's numbers:
White (Player 1, "o") moves from p24 down to p1 and bears off to off1; Black (Player 2,
"x") moves from p1 up to p24 and bears off to off2; bar1 and bar2 are their bars. A move
names the place a checker leaves and the place it reaches: 'move p13+p7'. The comparison
with OpenSpiel is in tests/test_backgammon_openspiel.py."""
from __future__ import annotations

from functools import cache

from meeple.interpreter.analysis import testing
from meeple.interpreter.play.views import view

from meeple import interpreter


@cache
def program():
    return interpreter.load("backgammon").for_players(2)


def build(white: dict[str, int], black: dict[str, int], dice: list[int] | None = None,
          active: int = 0, outcomes: list[str] | None = None):
    """A position with these checkers (15 of each colour) and these dice to play; without
    dice, the turn starts by rolling ``outcomes``."""
    prog = program()
    zones: dict[str, list[int]] = {}
    for colour, where in (("white", white), ("black", black)):
        assert sum(where.values()) == 15
        pool = testing.items(prog, "Checker", colour=colour)
        k = 0
        for place, n in where.items():
            zones.setdefault(f"points:{place}", []).extend(pool[k:k + n])
            k += n
    return testing.position(prog, 2, zones, active=active, vars={"dice": dice or []},
                            outcomes=outcomes if outcomes is not None else [])


def count(game, place: str, colour: str) -> int:
    return sum(1 for it in testing.at(game, f"points:{place}")
               if game.program.items[it].attrs["colour"] == colour)


def moves(game) -> set[str]:
    return set(testing.options(game, "move"))


def said(game) -> str:
    return "\n".join(view(game, -1)["log"])


def test_the_setup_places_fifteen_checkers_each_and_the_higher_die_starts():
    game = testing.new_game(program(), 2, outcomes=["4", "4", "2", "5"])  # a tie: again
    for colour, points in (("white", {"p24": 2, "p13": 5, "p8": 3, "p6": 5}),
                           ("black", {"p1": 2, "p12": 5, "p17": 3, "p19": 5})):
        assert {p: count(game, p, colour) for p in points} == points
    assert game.active_player == 1 and game.state["vars"]["dice"] == [2, 5]
    assert "Player 2 starts" in said(game)
    assert {"move p1+p3", "move p12+p17", "move p17+p22"} <= set(testing.notations(game))
    assert "move p1+p6" not in testing.notations(game)       # White holds p6


def test_a_checker_moves_the_number_of_a_die_towards_home():
    game = build({"p13": 1, "off1": 14}, {"p1": 15}, dice=[3, 1])
    assert moves(game) == {"p13+p10", "p13+p12"}
    testing.play(game, "move p13+p10")
    assert game.state["vars"]["dice"] == [1] and moves(game) == {"p10+p9"}
    game = build({"p24": 15}, {"p12": 1, "off2": 14}, dice=[3, 1], active=1)
    assert moves(game) == {"p12+p15", "p12+p13"}          # Black moves the other way


def test_a_point_held_by_two_opposing_checkers_is_blocked():
    game = build({"p13": 1, "off1": 14}, {"p10": 2, "p1": 13}, dice=[3, 1])
    assert moves(game) == {"p13+p12"}


def test_a_checker_landing_on_a_blot_hits_it_to_the_bar():
    game = build({"p13": 1, "off1": 14}, {"p10": 1, "p1": 14}, dice=[3, 1])
    testing.play(game, "move p13+p10")
    assert count(game, "p10", "white") == 1 and count(game, "p10", "black") == 0
    assert count(game, "bar2", "black") == 1
    assert "hits the checker on p10" in said(game)


def test_a_checker_on_the_bar_enters_first_in_the_opponents_home_board():
    game = build({"bar1": 1, "p13": 1, "off1": 13}, {"p1": 15}, dice=[5, 3])
    assert moves(game) == {"bar1+p20", "bar1+p22"}
    game = build({"p24": 15}, {"bar2": 1, "p12": 14}, dice=[5, 3], active=1)
    assert moves(game) == {"bar2+p5", "bar2+p3"}


def test_a_player_who_cannot_enter_from_the_bar_cannot_move():
    game = build({"bar1": 1, "p13": 1, "off1": 13}, {"p20": 2, "p22": 2, "p1": 11}, dice=[5, 3])
    assert game.at_chance and game.state["vars"]["dice"] == []        # Black's roll comes next
    assert count(game, "bar1", "white") == 1 and count(game, "p13", "white") == 1
    assert "Player 1 cannot play 5, 3" in said(game)


def test_both_dice_must_be_used_when_possible():
    # 1 from p5 is a move, but then the 6 cannot be played; 1 from p20, then 6, plays both
    game = build({"p20": 1, "p5": 1, "off1": 13}, {"p14": 2, "p1": 13}, dice=[6, 1])
    assert moves(game) == {"p20+p19"}
    testing.play(game, "move p20+p19")
    assert moves(game) == {"p19+p13"}


def test_when_only_one_die_can_be_used_it_must_be_the_larger():
    # either number alone is a move, but not both: the 6 must be played
    game = build({"p20": 1, "off1": 14}, {"p9": 2, "p1": 13}, dice=[5, 6])
    assert moves(game) == {"p20+p14"}
    testing.play(game, "move p20+p14")
    assert game.at_chance and "cannot play 5" in said(game)


def test_when_only_the_smaller_die_can_be_used_it_is_played():
    game = build({"p20": 1, "off1": 14}, {"p14": 2, "p10": 2, "p1": 11}, dice=[5, 6])
    assert moves(game) == {"p20+p15"}


def test_a_double_is_played_four_times():
    game = build({"p13": 2, "off1": 13}, {"p1": 15}, outcomes=["2", "2"])
    assert game.state["vars"]["dice"] == [2, 2, 2, 2]
    for m in ("move p13+p11", "move p11+p9", "move p13+p11", "move p9+p7"):
        assert game.active_player == 0
        testing.play(game, m)
    assert game.at_chance and count(game, "p11", "white") == 1 and count(game, "p7", "white") == 1


def test_a_double_plays_as_many_numbers_as_it_can():
    # 3-3: p10 -> p7 -> p4 -> p1 are open, p20 -> p17 is open but p14 is blocked: the
    # turn is three moves of the checker on p10 and one of the checker on p20, in any order
    game = build({"p20": 1, "p10": 1, "off1": 13}, {"p14": 2, "p1": 13}, dice=[3, 3, 3, 3])
    assert moves(game) == {"p20+p17", "p10+p7"}
    testing.play(game, "move p20+p17")
    assert moves(game) == {"p10+p7"}                         # p17 -> p14 is blocked
    game = build({"p20": 1, "off1": 14}, {"p14": 2, "p1": 13}, dice=[3, 3, 3, 3])
    testing.play(game, "move p20+p17")                       # one number only
    assert game.at_chance and "cannot play 3, 3, 3" in said(game)


def test_bearing_off_needs_all_fifteen_checkers_in_the_home_board():
    game = build({"p7": 1, "p3": 14}, {"p24": 15}, dice=[3, 1])
    assert "p3+off1" not in moves(game)
    testing.play(game, "move p7+p6")                         # now all are home
    assert moves(game) == {"p6+p3", "p3+off1"}


def test_bearing_off_with_the_exact_number():
    game = build({"p6": 5, "p3": 10}, {"p24": 15}, dice=[3, 1])
    assert "p3+off1" in moves(game)
    testing.play(game, "move p3+off1")
    assert count(game, "off1", "white") == 1 and game.state["vars"]["dice"] == [1]


def test_bearing_off_with_a_higher_number_only_from_the_highest_point():
    game = build({"p4": 2, "p3": 13}, {"p24": 15}, dice=[6, 5])
    assert moves(game) == {"p4+off1"}
    testing.play(game, "move p4+off1", "move p4+off1")
    assert count(game, "off1", "white") == 2 and game.at_chance
    game = build({"p24": 15}, {"p22": 15}, dice=[6, 5], active=1)   # Black's home: p19..p24
    assert moves(game) == {"p22+off2"}


def test_a_single_game_is_worth_one_point():
    game = build({"p1": 1, "off1": 14}, {"p24": 12, "off2": 3}, dice=[2, 1])
    testing.play(game, "move p1+off1")
    assert game.over and game.result["scores"] == [1, -1]
    assert game.result["outcomes"] == ["win", "loss"]


def test_a_gammon_is_worth_two_points_when_the_loser_has_borne_off_none():
    game = build({"p1": 1, "off1": 14}, {"p24": 15}, dice=[2, 1])
    testing.play(game, "move p1+off1")
    assert game.over and game.result["scores"] == [2, -2]


def test_a_backgammon_is_worth_three_points_with_a_checker_in_the_winners_home_board():
    game = build({"p1": 1, "off1": 14}, {"p6": 1, "p24": 14}, dice=[2, 1])
    testing.play(game, "move p1+off1")
    assert game.over and game.result["scores"] == [3, -3]
    game = build({"bar1": 1, "p10": 14}, {"p24": 1, "off2": 14}, dice=[2, 1], active=1)
    testing.play(game, "move p24+off2")
    assert game.over and game.result["scores"] == [-3, 3]    # a checker on the bar


def test_a_game_plays_to_the_end_with_bots():
    game = program().new_game(2, seed=3)
    while not game.over:
        game.apply(game.legal_moves()[0])
    assert sorted(game.result["scores"]) in ([-1, 1], [-2, 2], [-3, 3])


def test_the_board_shows_each_point_as_one_stack_with_its_count():
    from meeple.cli import render
    game = program().new_game(2, 0)
    lines = [t.plain for t in render.board_lines(game.program, view(game, 0), "points")]
    assert lines[0].split() == ["o×5", "·", "·", "·", "x×3", "·", "·", "x×5", "·", "·", "·", "·",
                                "o×2", "·"]
    assert lines[1].split() == [f"p{n}" for n in range(13, 19)] + ["bar2"] + \
        [f"p{n}" for n in range(19, 25)] + ["off2"]
    assert lines[2].split() == ["x×5", "·", "·", "·", "o×3", "·", "·", "o×5", "·", "·", "·", "·",
                                "x×2", "·"]
    assert lines[3].split() == [f"p{n}" for n in range(12, 6, -1)] + ["bar1"] + \
        [f"p{n}" for n in range(6, 0, -1)] + ["off1"]


# ---------------------------------------------------------------- the hint for bots

def test_the_heuristic_is_the_pip_count_to_run_fewer_is_better():
    # White: 14 borne off and one checker on its 13 point; Black: all 15 on White's 1
    # point, its own 24 point (Black counts the points the other way round)
    game = build({"p13": 1, "off1": 14}, {"p1": 15}, dice=[3, 1])
    assert game.heuristic(0) == -13
    assert game.heuristic(1) == -15 * 24
    testing.play(game, "move p13+p10")
    assert game.heuristic(0) == -10
    # a checker on the bar has the whole way still to run: 25 pips
    game = build({"bar1": 1, "off1": 14}, {"p1": 15}, dice=[3, 1])
    assert game.heuristic(0) == -25


def test_the_heuristic_of_a_player_who_has_borne_off_every_checker_is_1000():
    game = build({"p1": 1, "off1": 14}, {"p12": 15}, dice=[3, 1])
    testing.play(game, "move p1+off1")
    assert game.over and game.heuristic(0) == 1000 and game.heuristic(1) == -15 * 13
