"""Dots and Boxes: one test for every rule, each on a hand-built position, named after the
rule (docs/rulesets/dots-and-boxes.md, "Rules summary"); then the move counts (perft),
and whole random games against an independent engine written here from the rules (the
comparison with OpenSpiel is tests/test_dots_and_boxes_openspiel.py). Places: the dots
a1..d4 (column letter, row number from the top), the lines between two neighbouring
dots named by them (a1b1 across, a1a2 down), the boxes A1..C3 (by their top left dot)."""
from __future__ import annotations

import random
from functools import cache

import pytest
from meeple.interpreter.analysis import testing

from meeple import interpreter

LETTERS = "abcdefgh"


def lattice(rows: int, cols: int) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """The dots, the lines (in the ruleset's cell order) and each box's four sides."""
    dots = [f"{LETTERS[c]}{r}" for r in range(1, rows + 2) for c in range(cols + 1)]
    lines, sides = [], {}
    for r in range(1, rows + 2):
        lines += [f"{LETTERS[c]}{r}{LETTERS[c + 1]}{r}" for c in range(cols)]
        if r <= rows:
            lines += [f"{LETTERS[c]}{r}{LETTERS[c]}{r + 1}" for c in range(cols + 1)]
    for r in range(1, rows + 1):
        for c in range(cols):
            a, b = LETTERS[c], LETTERS[c + 1]
            sides[f"{a.upper()}{r}"] = [f"{a}{r}{b}{r}", f"{a}{r + 1}{b}{r + 1}",
                                        f"{a}{r}{a}{r + 1}", f"{b}{r}{b}{r + 1}"]
    return dots, lines, sides


DOTS, LINES, SIDES = lattice(3, 3)


@cache
def program(variant: str | None = None):
    return interpreter.load("dots-and-boxes", variants=[variant] if variant else []).for_players(2)


def across(line: str) -> bool:
    return line[1] == line[3]


def build(drawn: list[str], owned: dict[str, int] | None = None, active: int = 0,
          variant: str | None = None):
    """A position with the dots, these lines drawn and these boxes owned (box: seat)."""
    prog = program(variant)
    dots, _, _ = lattice(2, 2) if variant == "small" else (DOTS, LINES, SIDES)
    pool = {s: testing.items(prog, "Mark", shape=s)
            for s in ("dot", "across", "down", "first", "second")}
    zones = {f"paper:{d}": [pool["dot"].pop()] for d in dots}
    for line in drawn:
        zones[f"paper:{line}"] = [pool["across" if across(line) else "down"].pop()]
    for box, seat in (owned or {}).items():
        zones[f"paper:{box}"] = [pool["first" if seat == 0 else "second"].pop()]
    return testing.position(prog, 2, zones, active=active)


def shape_on(game, place: str) -> str | None:
    items = testing.at(game, f"paper:{place}")
    assert len(items) <= 1, (place, items)
    return str(game.program.items[items[0]].attrs["shape"]) if items else None


def drawn(game) -> list[str]:
    return [line for line in LINES if shape_on(game, line)]


def owners(game) -> dict[str, str]:
    return {b: shape_on(game, b) for b in SIDES if shape_on(game, b)}


# ---------------------------------------------------------------- the rules

def test_the_setup_puts_the_sixteen_dots_and_draws_no_line():
    game = program().new_game(2, 0)
    assert [d for d in DOTS if shape_on(game, d) == "dot"] == DOTS
    assert drawn(game) == [] and owners(game) == {}
    assert game.active_player == 0 and testing.options(game, "draw") == LINES


def test_a_player_draws_any_line_not_yet_drawn():
    game = build(["a1b1", "b2b3", "c4d4"], active=1)
    assert testing.options(game, "draw") == [x for x in LINES if x not in ("a1b1", "b2b3", "c4d4")]


def test_drawing_a_line_puts_it_between_its_two_dots():
    game = program().new_game(2, 0)
    testing.play(game, "draw a1b1")
    assert shape_on(game, "a1b1") == "across" and drawn(game) == ["a1b1"]
    testing.play(game, "draw c2c3")
    assert shape_on(game, "c2c3") == "down" and drawn(game) == ["a1b1", "c2c3"]


def test_a_line_that_completes_no_box_ends_the_turn():
    game = build(["a1b1", "a1a2"])                     # A1 gets its third side: not closed
    testing.play(game, "draw b1b2")
    assert owners(game) == {} and game.active_player == 1


def test_completing_a_box_owns_it_and_gives_another_turn():
    game = build(["a1b1", "a1a2", "b1b2"])
    testing.play(game, "draw a2b2")
    assert owners(game) == {"A1": "first"}
    assert game.active_player == 0 and not game.over
    assert testing.options(game, "draw") == [x for x in LINES if x not in SIDES["A1"]]
    game = build(["c3d3", "c3c4", "d3d4"], active=1)   # Player 2 closes C3 for themselves
    testing.play(game, "draw c4d4")
    assert owners(game) == {"C3": "second"} and game.active_player == 1


def test_the_extra_turn_goes_on_while_each_line_completes_a_box():
    # A1 needs a2b2; with it A2 needs a3b3: close A1, draw again, close A2, draw again,
    # then a line that closes nothing ends the turn
    game = build(["a1b1", "a1a2", "b1b2", "a2a3", "b2b3"])
    testing.play(game, "draw a2b2")
    assert owners(game) == {"A1": "first"} and game.active_player == 0
    testing.play(game, "draw a3b3")
    assert owners(game) == {"A1": "first", "A2": "first"} and game.active_player == 0
    testing.play(game, "draw c3d3")
    assert game.active_player == 1 and owners(game) == {"A1": "first", "A2": "first"}


def test_completing_two_boxes_with_one_line_owns_both_and_gives_one_more_turn():
    game = build(["a1b1", "a2b2", "a1a2", "b1c1", "b2c2", "c1c2"])
    testing.play(game, "draw b1b2")                    # the side A1 and B1 share
    assert owners(game) == {"A1": "first", "B1": "first"}
    assert game.active_player == 0
    testing.play(game, "draw d1d2")                    # one more line, then the turn ends
    assert game.active_player == 1


def test_a_box_belongs_to_who_closed_it_for_the_rest_of_the_game():
    # Player 2 closed A1; Player 1 closes B1, whose side b1b2 is also A1's
    game = build(SIDES["A1"] + ["b1c1", "b2c2"], owned={"A1": 1})
    testing.play(game, "draw c1c2")
    assert owners(game) == {"A1": "second", "B1": "first"} and game.active_player == 0


def test_the_game_ends_when_every_line_is_drawn_and_more_boxes_wins():
    owned = {"A1": 0, "B1": 0, "C1": 0, "A2": 0, "B2": 0, "C2": 1, "A3": 1, "B3": 1}
    game = build([x for x in LINES if x != "c4d4"], owned=owned, active=1)
    testing.play(game, "draw c4d4")                    # Player 2 closes C3: 5 to 4
    assert game.over and owners(game)["C3"] == "second"
    assert game.result["scores"] == [5, 4] and game.result["outcomes"] == ["win", "loss"]
    assert game.result["winners"] == [0]


def test_the_last_line_closes_a_box_but_there_is_no_turn_after_it():
    owned = {b: 1 for b in SIDES if b != "C3"}
    game = build([x for x in LINES if x != "d3d4"], owned=owned, active=0)
    testing.play(game, "draw d3d4")
    assert game.over and game.legal_moves() == []
    assert game.result["scores"] == [1, 8] and game.result["outcomes"] == ["loss", "win"]


def test_a_game_is_not_over_while_a_line_is_left():
    game = build([x for x in LINES if x not in ("a1b1", "c4d4")],
                 owned={b: 0 for b in SIDES if b not in ("A1", "C3")})
    testing.play(game, "draw a1b1")                    # closes A1: draws again, the last line
    assert not game.over and testing.options(game, "draw") == ["c4d4"]


def test_equal_boxes_are_a_draw_on_two_by_two_boxes():
    lines = lattice(2, 2)[1]
    game = build([x for x in lines if x != "b3c3"], owned={"A1": 0, "B1": 1, "A2": 0},
                 active=1, variant="small")
    testing.play(game, "draw b3c3")                    # Player 2 closes B2: 2 to 2
    assert game.over and game.result["scores"] == [2, 2]
    assert game.result["outcomes"] == ["draw", "draw"] and game.result["draw"]
    assert game.result["winners"] == []


def test_the_small_variant_has_two_by_two_boxes():
    game = program("small").new_game(2, 0)
    assert testing.options(game, "draw") == lattice(2, 2)[1]
    assert len(testing.options(game, "draw")) == 12


# ---------------------------------------------------------------- move counts

def test_perft_counts_every_order_of_lines():
    """A move always draws one of the lines left, whoever draws it (an extra turn changes
    the player, not the count): 24 · 23 · 22 paths of three moves (no box can be closed
    in three), 12 · 11 · 10 · 9 on 2 × 2 boxes (closing one in four moves is counted)."""
    assert interpreter.perft(program().new_game(2, 0), 3) == 24 * 23 * 22 == 12_144
    assert interpreter.perft(program("small").new_game(2, 0), 4) == 12 * 11 * 10 * 9
    game = build(["a1b1", "a1a2", "b1b2"])
    assert interpreter.divide(game, 2)["draw a2b2"] == 20   # then Player 1 draws again
    assert interpreter.perft(game, 2) == 21 * 20


# ---------------------------------------------------------------- an independent engine

class DotsAndBoxes:
    """Dots and Boxes written here from the rules, on the lines' names."""

    def __init__(self, rows: int = 3, cols: int = 3):
        _, self.lines, self.sides = lattice(rows, cols)
        self.drawn: set[str] = set()
        self.owner: dict[str, int] = {}
        self.p = 0

    def moves(self) -> list[str]:
        return [x for x in self.lines if x not in self.drawn]

    def over(self) -> bool:
        return len(self.drawn) == len(self.lines)

    def play(self, line: str) -> None:
        self.drawn.add(line)
        closed = [b for b, s in self.sides.items()
                  if line in s and all(x in self.drawn for x in s)]
        for b in closed:
            self.owner[b] = self.p
        if not closed:
            self.p = 1 - self.p

    def scores(self) -> list[int]:
        return [sum(1 for o in self.owner.values() if o == p) for p in (0, 1)]


@pytest.mark.parametrize("variant,size", [(None, (3, 3)), ("small", (2, 2))])
def test_random_games_agree_with_an_independent_engine(variant, size):
    rnd = random.Random(7)
    outcomes = set()
    for seed in range(60):
        game, ref = program(variant).new_game(2, seed), DotsAndBoxes(*size)
        while not ref.over():
            assert not game.over and game.active_player == ref.p
            legal = game.legal_moves()
            assert [m.notation.split()[1] for m in legal] == ref.moves()
            m = legal[rnd.randrange(len(legal))]
            game.apply(m)
            ref.play(m.notation.split()[1])
        assert game.over and game.result["scores"] == ref.scores()
        assert {b: ("first", "second")[o] for b, o in ref.owner.items()} == \
            {b: s for b, s in ((b, shape_on(game, b)) for b in ref.sides) if s}
        outcomes.add(tuple(game.result["outcomes"]))
    assert ("win", "loss") in outcomes and ("loss", "win") in outcomes
    assert (("draw", "draw") in outcomes) == (variant == "small")


# ---------------------------------------------------------------- the terminal board

def test_the_board_shows_the_dots_the_lines_and_the_owners_of_the_boxes(tmp_path, monkeypatch):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["play", "dots-and-boxes", "--bot", "1=random", "--bot", "2=random",
                                 "--seed", "3"], env={"COLUMNS": "80", "LINES": "24"})
    assert r.exit_code == 0, r.output
    end = r.output.split("Game over")[1].splitlines()
    first = next(i for i, line in enumerate(end) if line.split()[:1] == ["+"])
    board = end[first:first + 7]
    assert [line.split() for line in board[0::2]] == [["+", "───"] * 3 + ["+"]] * 4, board
    for line in board[1::2]:                           # sides and owners: 1 or 2
        words = line.split()
        assert words[0::2] == ["│"] * 4 and set(words[1::2]) <= {"1", "2"}, board
    assert sum(line.split().count("2") for line in board) == 8     # Player 2 wins 8 to 1
    assert sum(line.split().count("1") for line in board) == 1
    assert "Winner: Player 2" in r.output
