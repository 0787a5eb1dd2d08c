"""Go: one test for every rule, each on a hand-built position, named after the rule
(docs/rulesets/go.md, "Rules summary"). Points are written as in a Go diagram: columns
A to J without I, rows 1 to 9; Black (X) is Player 1, White (O) Player 2. The random
games against OpenSpiel are in tests/test_go_openspiel.py."""
from __future__ import annotations

from functools import cache

from meeple.interpreter.analysis import testing
from meeple.interpreter.play import display

from meeple import interpreter

COLUMNS = "ABCDEFGHJ"
POINTS = [f"{c}{r}" for r in range(1, 10) for c in COLUMNS]   # the cells' order


@cache
def program(variants: tuple = ()):
    return interpreter.load("go", variants).for_players(2)


def parse(diagram: str) -> dict[str, str]:
    """A 9×9 diagram, row 9 first, '.' empty, 'X' black, 'O' white -> {point: 'X'|'O'}."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 9 and all(len(r) == 9 for r in rows), diagram
    return {f"{COLUMNS[c]}{9 - i}": v for i, r in enumerate(rows) for c, v in enumerate(r) if v != "."}


def code(stones: dict[str, str]) -> list[int]:
    """The ruleset's position(): one number per point, 0 empty, 1 black, 2 white."""
    return [{"X": 1, "O": 2}.get(stones.get(p, "."), 0) for p in POINTS]


def build(black: str = "", white: str = "", active: int = 0, diagram: str | None = None,
          seen: list[dict[str, str]] = (), ko: str | None = None, variants: tuple = ()):
    """A position with these stones ("D4 E5"), the other stones in their bowls, for
    ``active`` (0 Black, 1 White); ``seen``: earlier positions of the game; ``ko``: the
    point the ko rule forbids."""
    prog = program(variants)
    stones = parse(diagram) if diagram else \
        {**dict.fromkeys(black.split(), "X"), **dict.fromkeys(white.split(), "O")}
    pools = {"X": testing.items(prog, "Stone", colour="black"),
             "O": testing.items(prog, "Stone", colour="white")}
    zones = {f"point:{p}": [pools[s].pop()] for p, s in stones.items()}
    zones["bowl:0"], zones["bowl:1"] = pools["X"], pools["O"]
    positions = [code(s) for s in seen] + [code(stones)]
    ko_point = testing.zone(prog, f"point:{ko}") if ko else None
    return testing.position(prog, 2, zones, active=active,
                            vars={"positions": positions, "ko": ko_point})


def stone(game, point: str) -> str:
    """'X', 'O' or '.' on a point."""
    its = testing.at(game, f"point:{point}")
    if not its:
        return "."
    return "X" if game.program.items[its[-1]].attrs["colour"] == "black" else "O"


def last_message(game) -> str:
    return display.render_log(game.program, game.state["log"][-1])


def legal(game) -> set[str]:
    return {n.split()[-1] for n in testing.notations(game)}


# ---------------------------------------------------------------- placing and capturing

def test_black_moves_first_and_may_play_on_any_empty_point_or_pass():
    game = program().new_game(2, 0)
    assert game.active_player == 0
    assert testing.notations(game) == ["pass"] + [f"play {p}" for p in POINTS]


def test_a_stone_without_liberties_is_captured():
    game = build(black="D6 C5 E5", white="D5")
    testing.play(game, "play D4")
    assert stone(game, "D5") == "." and stone(game, "D4") == "X"
    assert len(testing.at(game, "prisoners:0")) == 1
    assert last_message(game) == "Player 1 (black) plays D4 and captures 1"


def test_a_whole_group_without_liberties_is_captured():
    game = build(black="D6 E6 C5 F5 D4", white="D5 E5")
    testing.play(game, "play E4")
    assert stone(game, "D5") == stone(game, "E5") == "."
    assert len(testing.at(game, "prisoners:0")) == 2


def test_a_group_with_a_liberty_left_is_not_captured():
    game = build(black="D6 E6 C5 F5", white="D5 E5")
    testing.play(game, "play D4")                   # E4 is still free
    assert stone(game, "D5") == stone(game, "E5") == "O"
    assert testing.at(game, "prisoners:0") == []


def test_a_stone_in_the_corner_has_two_liberties():
    game = build(black="B1", white="A1")
    testing.play(game, "play A2")
    assert stone(game, "A1") == "."


# ---------------------------------------------------------------- suicide

def test_suicide_is_forbidden():
    game = build(black="D6 C5 E5 D4", active=1)      # D5 has no liberty for White
    assert "D5" not in legal(game)
    assert "D7" in legal(game)


def test_a_move_that_fills_its_own_groups_last_liberty_is_suicide():
    game = build(black="C6 D6 B5 E5 C4 D4", white="C5 A4", active=1)
    # D5 joins C5, whose only other liberty it is: the group would have none
    assert "D5" not in legal(game)


def test_a_move_without_liberties_that_captures_is_not_suicide():
    game = build(black="C4 E4 D3", white="D6 C5 E5 D4")
    # D5 is surrounded by White, but White's D4 has no other liberty: Black takes it
    assert "D5" in legal(game)
    testing.play(game, "play D5")
    assert stone(game, "D4") == "." and stone(game, "D5") == "X"


def test_joining_a_group_with_other_liberties_is_allowed():
    game = build(black="D6 C5 E5 D4", white="C6 B5")
    assert "D5" in legal(game)       # every neighbour is black, and the group has liberties


# ---------------------------------------------------------------- ko

KO = dict(black="D6 C5 D4", white="E6 D5 F5 E4")


def test_ko_forbids_retaking_a_single_stone_at_once():
    game = build(**KO)
    testing.play(game, "play E5")                    # takes D5, in White's eye
    assert stone(game, "D5") == "."
    assert "D5" not in legal(game)                   # White may not take back at once


def test_ko_may_be_retaken_after_a_move_elsewhere():
    game = build(**KO)
    testing.play(game, "play E5", "play A9", "play J1")
    assert "D5" in legal(game)
    testing.play(game, "play D5")                    # White takes E5 back
    assert stone(game, "E5") == "."


def test_taking_two_stones_is_no_ko():
    # Black's E5, in White's eye, takes C5 and D5: White may take E5 back at once
    game = build(black="B5 C6 C4 D6 D4", white="C5 D5 E6 F5 E4")
    testing.play(game, "play E5")
    assert stone(game, "C5") == stone(game, "D5") == "."
    assert "D5" in legal(game)
    testing.play(game, "play D5")
    assert stone(game, "E5") == "."


# ---------------------------------------------------------------- superko

def test_a_move_that_brings_back_an_earlier_position_ends_the_game_in_a_draw():
    # White's D5 takes E5 back and gives the position `earlier` (the ko before Black took
    # it), which the game has seen before: the game ends at once, a draw.
    earlier = {"D6": "X", "C5": "X", "D4": "X", "E6": "O", "F5": "O", "E4": "O", "D5": "O"}
    game = build(black="D6 C5 D4 E5", white="E6 F5 E4", active=1, seen=[earlier])
    testing.play(game, "play D5")
    assert game.over
    assert game.result["draw"] and game.result["outcomes"] == ["draw", "draw"]


def test_a_position_not_seen_before_goes_on():
    game = build(black="D6 C5 D4 E5", white="E6 F5 E4", active=1)
    testing.play(game, "play D5")
    assert not game.over


# ---------------------------------------------------------------- passing and the end

def test_two_passes_in_a_row_end_the_game():
    game = build(black="E5", white="D5")
    testing.play(game, "pass")
    assert not game.over
    testing.play(game, "pass")
    assert game.over


def test_a_move_between_two_passes_keeps_the_game_going():
    game = build(black="E5", white="D5")
    testing.play(game, "pass", "play C3", "pass")
    assert not game.over


def test_the_game_ends_after_162_moves():
    game = build(black="E5", white="D5")
    game = game.program.resume({**game.state, "turn": 161})
    testing.play(game, "play C3")
    assert game.over


# ---------------------------------------------------------------- scoring

def test_area_scoring_counts_stones_and_surrounded_points_and_komi():
    game = build(diagram="""
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .""")
    testing.play(game, "pass", "pass")
    r = game.result
    assert game.state["pvars"]["area"] == [45, 36]
    # Black 45 against White 36 + 7.5: Black wins by 1.5 (scores in half-points)
    assert r["scores"] == [90, 87] and r["outcomes"] == ["win", "loss"]


def test_komi_gives_white_the_win_on_a_close_board():
    game = build(diagram="""
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X . O . . .""")
    testing.play(game, "pass", "pass")
    # E1 touches both colours: nobody's; Black 36, White 44 + 7.5
    assert game.state["pvars"]["area"] == [36, 44]
    assert game.result["outcomes"] == ["loss", "win"]


def test_an_empty_region_touching_both_colours_counts_for_nobody():
    game = build(black="C3", white="G7")
    testing.play(game, "pass", "pass")
    assert game.state["pvars"]["area"] == [1, 1]
    assert game.result["outcomes"] == ["loss", "win"]     # komi


def test_an_empty_board_is_a_win_for_white_by_komi():
    game = build()
    testing.play(game, "pass", "pass")
    assert game.state["pvars"]["area"] == [0, 0]
    assert game.result["outcomes"] == ["loss", "win"]


# ---------------------------------------------------------------- the board on the screen

def test_the_board_is_drawn_in_go_coordinates():
    from meeple.cli import render
    from meeple.interpreter.play.views import view
    game = build(black="E5 C3", white="D5")
    lines = [line.plain for line in render.board_lines(game.program, view(game, 0), "point")]
    assert lines[0] == "9 · · · · · · · · ·"             # row 9 at the top
    assert lines[4] == "5 · · · O X · · · ·"
    assert lines[6] == "3 · · X · · · · · ·"
    assert lines[9] == "  A B C D E F G H J"             # no column I


def test_the_screen_leaves_out_the_positions_kept_for_superko():
    import io

    from meeple.cli import render
    from meeple.interpreter.play.views import view
    game = build(black="E5", white="D5")
    testing.play(game, "play C3")
    console = render.console(file=io.StringIO(), record=True, width=120, height=80)
    console.print(render.screen(game.program, view(game, 1), 1))
    text = console.export_text(styles=False)
    assert "passes in a row: 0" in text and "ko: -" in text
    assert "positions" not in text and "superko" not in text and "box" not in text
    assert len(game.state["vars"]["positions"]) == 2      # kept in the state all the same


# ---------------------------------------------------------------- the variant superko

def test_with_positional_superko_a_move_that_repeats_a_position_is_not_allowed():
    earlier = {"D6": "X", "C5": "X", "D4": "X", "E6": "O", "F5": "O", "E4": "O", "D5": "O"}
    game = build(black="D6 C5 D4 E5", white="E6 F5 E4", active=1, seen=[earlier],
                 variants=("superko",))
    assert "D5" not in legal(game)                   # it would bring back `earlier`
    assert "D7" in legal(game)


def test_with_positional_superko_a_retake_on_the_ko_point_that_takes_more_is_allowed():
    # Black has just taken D5 with E5; White's D5 takes E5 and D6 back: a new position
    earlier = {"D6": "X", "C5": "X", "D4": "X", "E6": "O", "F5": "O", "E4": "O", "D7": "O",
               "C6": "O", "D5": "O"}
    stones = dict(black="D6 C5 D4 E5", white="E6 F5 E4 D7 C6", active=1, seen=[earlier], ko="D5")
    assert "D5" not in legal(build(**stones))        # OpenSpiel's ko point forbids it
    game = build(**stones, variants=("superko",))
    assert "D5" in legal(game)
    testing.play(game, "play D5")
    assert stone(game, "E5") == stone(game, "D6") == "." and not game.over


# ---------------------------------------------------------------- the hint for bots

def test_the_heuristic_counts_stones_and_the_empty_points_beside_one_colour_only():
    game = build(black="A2 B1", white="H2")
    # Black: its 2 stones and the 4 empty points beside them (A1, A3, B2, C1), in half
    # points as the score; White: 1 stone, its 4 neighbours and the komi (15 half points)
    assert game.heuristic(0) == 2 * (2 + 4)
    assert game.heuristic(1) == 2 * (1 + 4) + 15
    # an empty point beside both colours is nobody's: a white stone on C2 takes B2 and C1
    # from Black and gives White C3 and D2 only
    game = build(black="A2 B1", white="H2 C2")
    assert game.heuristic(0) == 2 * (2 + 2)
    assert game.heuristic(1) == 2 * (2 + 4 + 2) + 15
