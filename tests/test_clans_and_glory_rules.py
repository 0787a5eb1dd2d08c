"""Clans and Glory: one test for every rule of the rulebook, each on a hand-built position.

The rulebook is shared/rulebooks/clans-and-glory.ru.txt; the facts from public sources
and the assumptions are in shared/rulebooks/NOTES.md; every choice made in the ruleset
is documented in docs/rulesets/clans-and-glory.md.

Cards are written as colour letter + value: "R5" is the red 5 (R red, Y yellow, G green,
S sky blue, B blue, P purple, W white). Cells are named like the move notation without
the board: "p2a3" is board 2, side a (the top long side), slot 3; "p2b3" is across the
table from it. Stone tables (the shield stacks) are "s1" .. "sN", one per board. With the
first player in seat 1 (index 0), the last seat holds the fewest cards and moves last.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from meeple.interpreter import IllegalMove
from meeple.interpreter.analysis import testing
from meeple.interpreter.play.game import Game
from meeple.interpreter.play.runtime import run
from meeple.interpreter.play.views import view

from meeple import interpreter

COLOURS = {"R": "red", "Y": "yellow", "G": "green", "S": "sky", "B": "blue", "P": "purple",
           "W": "white"}
SHIELD_COLOURS = ["black", "silver", "gold", "crimson"]
ALL_CODES = [f"{c}{v}" for c in COLOURS for v in range(3, 9)]
HIDDEN = {"hidden": True}


# ---------------------------------------------------------------- helpers

@functools.cache
def ruleset(variants: tuple = (), locale: str | None = None):
    return interpreter.load("clans-and-glory", variants=list(variants), locale=locale)


def prog_for(players: int, variants: tuple = (), locale: str | None = None):
    return ruleset(tuple(variants), locale).for_players(players)


def card(prog, code: str) -> int:
    return testing.item(prog, "Card", colour=COLOURS[code[0]], value=int(code[1:]))


def code(prog, item: int) -> str:
    a = prog.items[item].attrs
    return {v: k for k, v in COLOURS.items()}[a["colour"]] + str(a["value"])


def notation(code_: str) -> str:
    return f"{COLOURS[code_[0]]}-{code_[1:]}"


def position(prog, players: int, zones: dict, active: int, vars: dict, pvars: dict,
             face_down: dict[int, int]) -> Game:
    """``testing.position`` (a game at the start of ``active``'s turn), plus items lying
    face down: ``face_down`` maps an item to the mask of the seats who know it. (The
    testing API cannot lay items face down, so their facing is set just before the turn
    starts running.)"""
    def run_face_down(R):
        for it, mask in face_down.items():
            R.facing[it] = mask
        run(R)
    real = testing.run
    testing.run = run_face_down
    try:
        return testing.position(prog, players, zones=zones, active=active, vars=vars,
                                pvars=pvars)
    finally:
        testing.run = real


def build(players: int = 2, table: dict[str, str] | None = None,
          hands: list[list[str]] | None = None, stones: dict[str, list[int]] | None = None,
          face_down: dict[str, tuple[str, int]] | None = None, supply: list[int] | None = None,
          active: int = 0, starter: int = 0, variants: tuple = (), locale: str | None = None):
    """A game at the start of ``active``'s turn. ``table`` puts face-up cards in cells,
    ``face_down`` puts a card face down in a cell, known to the seat given; ``stones``
    lists each stone table's shields bottom to top, by the seat that owns them; each seat
    has its colour and the rest of its 5 shields (or ``supply[seat]`` of them)."""
    prog = prog_for(players, variants, locale)
    table, face_down, stones = dict(table or {}), dict(face_down or {}), dict(stones or {})
    hands = hands if hands is not None else [[] for _ in range(players)]
    used = list(table.values()) + [c for c, _ in face_down.values()] + [c for h in hands for c in h]
    assert len(used) == len(set(used)), "a card is used twice"
    zones: dict = {f"table:{cell}": card(prog, c) for cell, c in table.items()}
    masks = {}
    for cell, (c, seat) in face_down.items():
        zones[f"table:{cell}"] = card(prog, c)
        masks[card(prog, c)] = 1 << seat
    for p, h in enumerate(hands):
        zones[f"hand:{p}"] = [card(prog, c) for c in h]
    free = {p: testing.items(prog, "Shield", colour=SHIELD_COLOURS[p]) for p in range(players)}
    for s, owners in stones.items():
        zones[f"stones:{s}"] = [free[p].pop() for p in owners]
    for p in range(players):
        n = len(free[p]) if supply is None else supply[p]
        zones[f"shields:{p}"] = free[p][:n]
    return position(prog, players, zones, active, {"starter": starter},
                    {"colour": SHIELD_COLOURS[:players]}, masks)


def at(game, cell: str) -> list[str]:
    return [code(game.program, i) for i in testing.at(game, f"table:{cell}")]


def hand(game, seat: int) -> list[str]:
    return [code(game.program, i) for i in testing.at(game, f"hand:{seat}")]


def clan(game, seat: int) -> list[str]:
    return sorted(code(game.program, i) for i in testing.at(game, f"clan:{seat}"))


def stack(game, s: str) -> list[int]:
    """The owners (seats) of the shields on a stone table, bottom to top."""
    prog = game.program
    return [SHIELD_COLOURS.index(prog.items[i].attrs["colour"])
            for i in testing.at(game, f"stones:{s}")]


moves = testing.options  # the legal moves of one verb, without it


def cells_for(game, code_: str) -> set[str]:
    """The cells offered for a hand card (without the board prefix 'table.')."""
    g = game.copy()
    g.apply(f"play {notation(code_)}")
    return {m.removeprefix("table.") for m in moves(g, "at")}


def place(game, code_: str, cell: str, shield: bool | None = False) -> None:
    """Plays a whole turn: the card, the cell, and the shield answer (if asked)."""
    game.apply(f"play {notation(code_)}")
    game.apply(f"at table.{cell}")
    if shield is not None:
        game.apply(f"shield {'true' if shield else 'false'}")


def log(game, seat=0) -> list[str]:
    return view(game, seat)["log"]


# The last card of a game: the player with the fewest cards (the last seat) plays the
# white 7 beside the white 8 on board 1, which holds no shield, without a shield. The
# other tests' cards stay off board 1 and the white 7 and 8.
LAST_CARD = {"p1a2": "W8"}


def finished(players: int = 2, table=None, stones=None, face_down=None, hands=None,
             locale=None, variants: tuple = ()) -> Game:
    """A finished game: ``table`` and ``stones`` as given, and the last turn played."""
    last = players - 1
    hands = [list(h) for h in (hands or [[] for _ in range(players)])]
    hands[last] = hands[last] + ["W7"]
    g = build(players, table={**LAST_CARD, **(table or {})}, stones=stones,
              face_down=face_down, hands=hands, active=last, locale=locale, variants=variants)
    place(g, "W7", "p1a1", shield=False)
    assert g.over
    return g


def test_helpers_build_the_position_they_are_told():
    g = build(3, table={"p2a2": "R5"}, hands=[["R3"], ["Y4"], []], stones={"s2": [1, 0, 1]},
              face_down={"p4b1": ("G6", 2)})
    assert at(g, "p2a2") == ["R5"] and at(g, "p4b1") == ["G6"]
    assert hand(g, 0) == ["R3"] and hand(g, 1) == ["Y4"] and hand(g, 2) == []
    assert stack(g, "s2") == [1, 0, 1]
    assert [len(testing.at(g, f"shields:{p}")) for p in range(3)] == [4, 3, 5]
    assert g.active_player == 0 and testing.notations(g) == ["play red-3"]
    assert view(g, 2)["zones"]["table:p4b1"] == [card(g.program, "G6")]
    assert view(g, 0)["zones"]["table:p4b1"] == [HIDDEN]


# ---------------------------------------------------------------- the table

@pytest.mark.parametrize("players", [2, 3, 4])
def test_table_is_players_plus_two_boards_of_six_cells_each_with_a_stone_table(players):
    prog = prog_for(players)
    boards = players + 2
    cells = [z.cell for z in prog.zones if z.board == "table"]
    # 3 cells on each long side of every board, and the 2 single cells of the note
    assert len(cells) == 6 * boards + 2
    for b in range(1, boards + 1):
        mine = [c.name for c in cells if c.coords["part"] == b and c.coords["side"] != 0]
        assert sorted(mine) == sorted(f"p{b}{s}{k}" for s in "ab" for k in (1, 2, 3))
    stones = [z.cell.name for z in prog.zones if z.board == "stones"]
    assert stones == [f"s{b}" for b in range(1, boards + 1)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_note_the_two_end_boards_have_two_single_cells_one_at_each_end_of_the_table(players):
    # "На двух крайних полях собраний есть 2 одиночные ячейки": two in all, one on each
    # bonfire board, at the short ends of the table (between the two long sides)
    prog = prog_for(players)
    last = players + 2
    single = {z.cell.name: z.cell for z in prog.zones
              if z.board == "table" and z.cell.coords["side"] == 0}
    assert sorted(single) == ["p1e0", f"p{last}e4"]
    assert single["p1e0"].coords["part"] == 1 and single[f"p{last}e4"].coords["part"] == last
    ends = [c.coords["col"] for c in single.values()]
    assert ends == [0, 3 * last + 1]           # before the first column, after the last


def test_opposite_is_the_cell_across_the_table():
    # a lone red 5 in the middle of board 2's top side: a red card may go beside it or
    # into the cell across the table, and nowhere else (not diagonally across)
    g = build(table={"p2a2": "R5"}, hands=[["R3"], []])
    assert cells_for(g, "R3") == {"p2a1", "p2a3", "p2b2"}
    g = build(table={"p3b1": "R5"}, hands=[["R3"], []])
    assert cells_for(g, "R3") == {"p3a1", "p2b3", "p3b2"}


def test_beside_crosses_the_join_between_boards():
    g = build(table={"p2a3": "R5"}, hands=[["R3"], []])
    assert cells_for(g, "R3") == {"p2a2", "p3a1", "p2b3"}
    g = build(table={"p3b1": "Y5", "p3a1": "R4"}, hands=[["Y3"], []])
    assert cells_for(g, "Y3") == {"p2b3", "p3b2"}


def test_variant_separate_boards_beside_stays_on_one_board():
    kw = dict(hands=[["R3"], []], variants=("separate_boards",))
    assert cells_for(build(table={"p2a3": "R5"}, **kw), "R3") == {"p2a2", "p2b3"}
    assert cells_for(build(table={"p3a1": "R5"}, **kw), "R3") == {"p3a2", "p3b1"}
    # inside a board nothing changes
    assert cells_for(build(table={"p2a2": "R5"}, **kw), "R3") == {"p2a1", "p2a3", "p2b2"}


def single_cells(players: int) -> tuple[str, str]:
    return "p1e0", f"p{players + 2}e4"


@pytest.mark.parametrize("variants", [(), ("separate_boards",)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_note_single_cells_count_as_opposite_each_other_across_the_whole_table(players, variants):
    # "Эти ячейки считаются противоположными друг другу": a card in one single cell makes
    # the single cell at the other end of the table its opposite cell, however long the
    # table is, and nothing else is across from it
    last = players + 2
    first_end, last_end = single_cells(players)
    others = [[]] * (players - 1)
    for single, across, left, right in [(first_end, last_end, "p1a1", "p1b1"),
                                        (last_end, first_end, f"p{last}a3", f"p{last}b3")]:
        g = build(players, table={single: "R5"}, hands=[["R3"]] + others, variants=variants)
        assert cells_for(g, "R3") == {across, left, right}
        # opposite is enough on its own: the far single cell matches by value
        g = build(players, table={across: "Y3"}, hands=[["R3"]] + others, variants=variants)
        assert single in cells_for(g, "R3")
    # with both its neighbours taken, the far single cell is the only place left for a
    # card matching it
    g = build(players, table={first_end: "R5", "p1a1": "G6", "p1b1": "B6"},
              hands=[["R3"]] + others, variants=variants)
    assert cells_for(g, "R3") == {last_end}


@pytest.mark.parametrize("variants", [(), ("separate_boards",)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_note_single_cells_neighbours_are_the_nearest_cells_on_their_left_and_right(players, variants):
    # "а ближайшие ячейки слева и справа будут для них соседними": the end cell of each
    # long side, on the same board; a card beside one of them fits the single cell
    last = players + 2
    first_end, last_end = single_cells(players)
    others = [[]] * (players - 1)
    for single, near, across_near, along in [
            (first_end, "p1a1", "p1b1", "p1a2"), (first_end, "p1b1", "p1a1", "p1b2"),
            (last_end, f"p{last}a3", f"p{last}b3", f"p{last}a2"),
            (last_end, f"p{last}b3", f"p{last}a3", f"p{last}b2")]:
        g = build(players, table={near: "R5"}, hands=[["R3"]] + others, variants=variants)
        assert cells_for(g, "R3") == {single, across_near, along}
    # the next cells further along are not its neighbours
    g = build(players, table={"p1a2": "R5", "p1b2": "Y5"}, hands=[["R3"]] + others,
              variants=variants)
    assert first_end not in cells_for(g, "R3")


def test_single_cells_belong_to_their_bonfire_board_for_the_shield_and_the_scoring():
    # a card in a single cell is placed "на поле собраний" of its bonfire board: the shield
    # goes on that board's stone table, and the card is scored with that board
    g = build(table={"p1a1": "R5"}, hands=[["R3"], ["Y3"]])
    place(g, "R3", "p1e0", shield=True)
    assert stack(g, "s1") == [0]
    g = finished(table={"p4e4": "R3", "p4a3": "R4"}, stones={"s4": [1]})
    assert clan(g, 1) == ["R3"] and at(g, "p4a3") == ["R4"]


# The variant paired_single_cells: the note's other reading, 2 single cells on *each* end
# board, one at the outer end of each long side, opposite each other on their own board.
PAIRED = ("paired_single_cells",)


def paired_cells(players: int) -> dict[str, tuple[str, str, str]]:
    """Each single cell of the variant: (the single cell across its board, the nearest
    cell of its long side, the next cell further along)."""
    last = players + 2
    return {"p1a0": ("p1b0", "p1a1", "p1a2"), "p1b0": ("p1a0", "p1b1", "p1b2"),
            f"p{last}a4": (f"p{last}b4", f"p{last}a3", f"p{last}a2"),
            f"p{last}b4": (f"p{last}a4", f"p{last}b3", f"p{last}b2")}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_variant_paired_single_cells_two_on_each_end_board_at_the_ends_of_the_long_sides(players):
    # "На двух крайних полях собраний есть 2 одиночные ячейки" read as 2 on each end board:
    # 4 in all, one closing each long side of each bonfire board, and none in the middle
    prog = prog_for(players, PAIRED)
    last = players + 2
    cells = {z.cell.name: z.cell.coords for z in prog.zones if z.board == "table"}
    assert len(cells) == 6 * last + 4
    assert not [n for n, c in cells.items() if c["side"] == 0]
    single = {n: c for n, c in cells.items() if c["slot"] in (0, 4)}
    assert single == {"p1a0": {"part": 1, "side": 1, "slot": 0, "col": 0},
                      "p1b0": {"part": 1, "side": 2, "slot": 0, "col": 0},
                      f"p{last}a4": {"part": last, "side": 1, "slot": 4, "col": 3 * last + 1},
                      f"p{last}b4": {"part": last, "side": 2, "slot": 4, "col": 3 * last + 1}}


@pytest.mark.parametrize("variants", [PAIRED, PAIRED + ("separate_boards",)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_variant_paired_single_cells_count_as_opposite_each_other_on_their_own_board(players, variants):
    # "Эти ячейки считаются противоположными друг другу": the two single cells of one
    # board face each other across it; the far end of the table is out of reach
    others = [[]] * (players - 1)
    for single, (across, near, _) in paired_cells(players).items():
        g = build(players, table={single: "R5"}, hands=[["R3"]] + others, variants=variants)
        assert cells_for(g, "R3") == {across, near}
        # opposite is enough on its own: matching by value
        g = build(players, table={across: "Y3"}, hands=[["R3"]] + others, variants=variants)
        assert single in cells_for(g, "R3")
    # the base reading's far single cell does not exist: with both its neighbours taken,
    # a red card has nowhere to go, not even at the other end of the table
    g = build(players, table={"p1a0": "R5", "p1b0": "G6", "p1a1": "B6"},
              hands=[["R3"]] + others, variants=variants)
    assert testing.notations(g) == ["hide red-3"]


@pytest.mark.parametrize("variants", [PAIRED, PAIRED + ("separate_boards",)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_variant_paired_single_cells_neighbours_are_the_nearest_cells_of_their_long_side(players, variants):
    # "а ближайшие ячейки слева и справа будут для них соседними": the nearest cell along
    # its long side, on the same board; the cell further along is not a neighbour
    others = [[]] * (players - 1)
    for single, (_across, near, along) in paired_cells(players).items():
        g = build(players, table={near: "R5"}, hands=[["R3"]] + others, variants=variants)
        assert single in cells_for(g, "R3")
        g = build(players, table={along: "R5"}, hands=[["R3"]] + others, variants=variants)
        assert single not in cells_for(g, "R3")


def test_variant_paired_single_cells_belong_to_their_bonfire_board():
    # the shield goes on the bonfire board's stone table, the card is scored with it
    g = build(table={"p1b1": "R5"}, hands=[["R3"], ["Y3"]], variants=PAIRED)
    place(g, "R3", "p1b0", shield=True)
    assert stack(g, "s1") == [0]
    g = finished(table={"p4b4": "R3", "p4a4": "R4"}, stones={"s4": [1]}, variants=PAIRED)
    assert clan(g, 1) == ["R3"] and at(g, "p4a4") == ["R4"]


def test_variant_titles_are_translated_by_the_locales():
    # `name variant.NAME "..."` in a locale: the title players read
    rs = ruleset(PAIRED + ("separate_boards",), "ru")
    assert rs.checked.variant_titles == {
        "paired_single_cells": "По 2 одиночные ячейки на каждом крайнем поле",
        "separate_boards": "Раздельные поля собраний"}
    assert ruleset(PAIRED, "en").checked.variant_titles == {
        "paired_single_cells": "Two single cells on each end board"}
    assert ruleset(PAIRED).checked.variant_titles == {
        "paired_single_cells": "Two single cells on each end board"}



def test_a_variant_title_for_no_variant_is_a_located_error(tmp_path):
    import shutil
    folder = tmp_path / "cg"
    shutil.copytree(Path(__file__).parents[1] / "rulesets" / "clans-and-glory", folder)
    with open(folder / "locales" / "en.meeple", "a", encoding="utf-8") as f:
        f.write('name variant.paired_singles "Typo"\n')
    with pytest.raises(interpreter.MeepleError) as e:
        interpreter.load(str(folder), locale="en")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.file.endswith("en.meeple")) == ("check/unknown-name", True)
    assert "paired_single_cells" in (d.hint or "")


# ---------------------------------------------------------------- placing a card

def test_card_must_match_colour_or_value_of_a_neighbour():
    g = build(table={"p2a2": "R5"}, hands=[["R3", "Y5", "G4", "B6"], []])
    # the red 3 (colour) and the yellow 5 (value) fit; the green 4 and blue 6 do not
    assert moves(g, "play") == ["red-3", "yellow-5"]
    assert cells_for(g, "Y5") == {"p2a1", "p2a3", "p2b2"}


def test_one_matching_neighbour_among_several_is_enough():
    # p2a2 lies between a green 4 (no match) and a red 6 (colour), opposite a blue 8
    g = build(table={"p2a1": "G4", "p2a3": "R6", "p2b2": "B8"}, hands=[["R3"], []])
    assert "p2a2" in cells_for(g, "R3")
    # when every neighbour differs in colour and value, the card fits nowhere
    g = build(table={"p2a1": "G4", "p2a3": "Y6", "p2b2": "B8"}, hands=[["R3", "G5"], []])
    assert moves(g, "play") == ["green-5"]
    assert cells_for(g, "G5") == {"p1a3", "p2a2", "p2b1"}


def test_card_must_touch_a_face_up_card():
    # far from every card: not offered, even though the colour would match a card elsewhere
    g = build(table={"p1a2": "R5"}, hands=[["R3"], []])
    assert cells_for(g, "R3") == {"p1a1", "p1a3", "p1b2"}


def test_placed_card_lies_face_up_and_is_logged():
    g = build(table={"p2a2": "R5"}, hands=[["R3", "Y4"], ["G3"]])
    place(g, "R3", "p2b2")
    assert at(g, "p2b2") == ["R3"] and hand(g, 0) == ["Y4"]
    for seat in (0, 1, -1):
        assert view(g, seat)["zones"]["table:p2b2"] == [card(g.program, "R3")]
    assert log(g, 1) == ["Player 1 places red 3 at table.p2b2"]


def test_face_down_cards_count_for_nothing_when_matching():
    # a face-down red 5 beside the only free spaces: a red card cannot use it
    g = build(table={"p2a2": "Y8"}, face_down={"p1a1": ("R5", 1)},
              hands=[["R3", "Y3"], []])
    assert moves(g, "play") == ["yellow-3"]
    assert cells_for(g, "Y3") == {"p2a1", "p2a3", "p2b2"}


# ---------------------------------------------------------------- no fitting card: face down

def test_no_card_fits_any_card_goes_face_down_into_any_free_cell():
    g = build(table={"p2a2": "R5", "p3b3": "Y6"}, hands=[["G3", "B4"], ["G4"]])
    assert moves(g, "hide") == ["green-3", "blue-4"]
    g.apply("hide green-3")
    free = ({f"p{b}{s}{k}" for b in range(1, 5) for s in "ab" for k in (1, 2, 3)}
            | {"p1e0", "p4e4"}) - {"p2a2", "p3b3"}
    assert {m.removeprefix("table.") for m in moves(g, "at")} == free
    g.apply("at table.p4b1")
    # the shield may still be placed, on the board where the card went
    assert moves(g, "shield") == ["false", "true"]
    g.apply("shield true")
    assert at(g, "p4b1") == ["G3"] and hand(g, 0) == ["B4"]
    assert stack(g, "s4") == [0]
    assert log(g, 1) == ["Player 1 cannot place a card and places one face down at table.p4b1",
                         "Player 1 puts a shield on stone table 4"]


def test_face_down_card_is_hidden_from_the_other_players_and_the_logs():
    g = build(players=3, table={"p2a2": "R5"}, hands=[["G3"], ["B4"], ["Y4"]])
    g.apply("hide green-3")
    g.apply("at table.p5b3")
    g.apply("shield false")
    item = card(g.program, "G3")
    assert view(g, 0)["zones"]["table:p5b3"] == [item]          # its owner knows it
    for seat in (1, 2, -1):                                      # nobody else does
        v = view(g, seat)
        assert v["zones"]["table:p5b3"] == [HIDDEN]
        shown = {i for z in v["zones"].values() if isinstance(z, list) for i in z
                 if isinstance(i, int)}
        assert item not in shown
        assert v["log"] == ["Player 1 cannot place a card and places one face down at table.p5b3"]
    # it is still there for everyone to see that a card lies there
    assert view(g, 1)["zones"]["table:p5b3"] != []


def test_a_fitting_card_forbids_the_face_down_placement():
    g = build(table={"p2a2": "R5"}, hands=[["R3", "G3"], []])
    assert testing.notations(g) == ["play red-3"]
    with pytest.raises(IllegalMove):
        g.apply("hide green-3")


def test_a_face_down_card_blocks_its_cell_until_the_end():
    g = build(table={"p2a2": "R5"}, face_down={"p2a1": ("R6", 1)}, hands=[["R3"], []])
    assert cells_for(g, "R3") == {"p2a3", "p2b2"}


# ---------------------------------------------------------------- shields

def test_shield_is_optional():
    g = build(table={"p2a2": "R5"}, hands=[["R3", "Y3"], ["Y4"]])
    place(g, "R3", "p2a1", shield=False)
    assert stack(g, "s2") == [] and len(testing.at(g, "shields:0")) == 5
    assert g.state["active"] == 1 and not g.over


def test_shield_goes_on_top_of_the_stack_of_the_board_of_the_card():
    # seat 0 already has a shield on board 3, under seat 1's: it may add another
    g = build(players=3, table={"p3a3": "R5"}, hands=[["R3"], ["Y3"], ["G3"]],
              stones={"s3": [0, 1], "s4": [2]})
    place(g, "R3", "p4a1", shield=True)        # across the join: board 4
    assert stack(g, "s4") == [2, 0] and stack(g, "s3") == [0, 1]
    g = build(players=3, table={"p3a3": "R5"}, hands=[["R3"], ["Y3"], ["G3"]],
              stones={"s3": [0, 1], "s4": [2]})
    place(g, "R3", "p3a2", shield=True)        # board 3: on top of seat 1's shield
    assert stack(g, "s3") == [0, 1, 0] and len(testing.at(g, "shields:0")) == 3
    assert log(g)[-1] == "Player 1 puts a shield on stone table 3"


def test_no_shield_question_when_the_supply_is_empty():
    g = build(table={"p2a2": "R5"}, hands=[["R3", "Y3"], ["Y4"]], supply=[0, 5])
    place(g, "R3", "p2a1", shield=None)
    assert g.state["active"] == 1 and stack(g, "s2") == []
    assert testing.notations(g) == ["hide yellow-4"]      # the turn went on to seat 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_five_shields_each_of_one_colour(players):
    g = ruleset().new_game(players, seed=4)
    colours = []
    for p in range(players):
        mine = [g.program.items[i].attrs["colour"] for i in testing.at(g, f"shields:{p}")]
        assert len(mine) == 5 and len(set(mine)) == 1
        colours.append(mine[0])
    assert colours == SHIELD_COLOURS[:players]
    assert len(testing.at(g, "shield_box")) == 5 * (4 - players)


# ---------------------------------------------------------------- turn order

@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_passes_clockwise(players):
    for seat in range(players):
        hands = [["Y3", "Y4"] if p == seat else [f"G{3 + p}"] for p in range(players)]
        g = build(players, table={"p2a2": "Y6"}, hands=hands, active=seat)
        place(g, "Y3", "p2a1")
        assert g.state["active"] == (seat + 1) % players and g.active_player == (seat + 1) % players


# ---------------------------------------------------------------- setup

SETUP = {2: dict(removed={7, 8}, set_aside=3, per_board=2, hands=[9, 8]),
         3: dict(removed={8}, set_aside=4, per_board=1, hands=[9, 9, 8]),
         4: dict(removed=set(), set_aside=5, per_board=1, hands=[8, 8, 8, 7])}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_by_player_count(players):
    want = SETUP[players]
    boards = players + 2
    prog = prog_for(players)
    for seed in range(3):
        g = ruleset().new_game(players, seed=seed)
        p = g.program
        # the values not used with this many players, all 7 of each, out of the game
        box = [p.items[i].attrs["value"] for i in testing.at(g, "box")]
        assert set(box) == want["removed"] and len(box) == 7 * len(want["removed"])
        # random cards set aside unseen
        assert len(testing.at(g, "set_aside")) == want["set_aside"]
        # start cards in the middle cells: the top side, and the bottom side with 2 per board
        filled = {z.cell.name for z in prog.zones if z.board == "table" and testing.at(g, z.key)}
        sides = "ab" if want["per_board"] == 2 else "a"
        assert filled == {f"p{b}{s}2" for b in range(1, boards + 1) for s in sides}
        assert all(len(testing.at(g, f"table:{c}")) == 1 for c in filled)
        # unequal hands, in the order of play from the first player (seat 1)
        assert [len(testing.at(g, f"hand:{s}")) for s in range(players)] == want["hands"]
        assert g.state["active"] == 0 and g.active_player == 0
        # every card is somewhere, once; none of the removed values is in play
        cards = [i.id for i in p.items if i.kind == "Card"]
        everywhere = [i for z in ["draw", "box", "set_aside"] + [f"hand:{s}" for s in range(players)]
                      for i in testing.at(g, z)] + [i for c in filled for i in testing.at(g, f"table:{c}")]
        assert len(cards) == 42 and sorted(everywhere) == sorted(cards)
        assert testing.at(g, "draw") == []
        in_play = [p.items[i].attrs["value"] for i in everywhere if i not in testing.at(g, "box")]
        assert not set(in_play) & want["removed"]
        # the player with the fewest cards is the last to move
        assert log(g) == [f"Player 1 starts; Player {players} holds the fewest cards and moves last"]


def test_deck_is_seven_colours_times_values_three_to_eight():
    prog = prog_for(2)
    cards = sorted((i.attrs["colour"], i.attrs["value"]) for i in prog.items if i.kind == "Card")
    assert cards == sorted((c, v) for c in COLOURS.values() for v in range(3, 9))


def test_start_cards_and_set_aside_cards_are_random():
    starts, aside = set(), set()
    for seed in range(12):
        g = ruleset().new_game(3, seed=seed)
        starts.add(tuple(at(g, "p1a2")))
        aside.add(tuple(sorted(testing.at(g, "set_aside"))))
    assert len(starts) > 4 and len(aside) > 4
    a, b = ruleset().new_game(3, seed=9), ruleset().new_game(3, seed=9)
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_variant_chosen_first_player(players):
    rs = ruleset(("chosen_first_player",))
    for chosen in range(players):
        g = rs.new_game(players, seed=1)
        assert g.active_player == 0
        assert testing.notations(g) == [f"start p{p + 1}" for p in range(players)]
        g.apply(f"start p{chosen + 1}")
        assert g.state["active"] == chosen and g.active_player == chosen
        sizes = [len(testing.at(g, f"hand:{s}")) for s in range(players)]
        # the hands follow the order of play from the chosen player
        assert [sizes[(chosen + k) % players] for k in range(players)] == SETUP[players]["hands"]
        last = (chosen - 1) % players
        assert log(g)[-1] == (f"Player {chosen + 1} starts; Player {last + 1} holds the fewest "
                              f"cards and moves last")


# ---------------------------------------------------------------- the end

def test_game_ends_after_the_turn_of_the_player_who_started_with_fewest_cards():
    g = build(table={"p2a2": "R5"}, hands=[["R3", "Y3"], ["R4"]], active=0)
    place(g, "R3", "p2a1")
    assert not g.over and g.state["active"] == 1
    g.apply("play red-4")
    g.apply("at table.p2b2")
    # the turn is not finished yet: the shield may still be placed
    assert not g.over and moves(g, "shield") == ["false", "true"]
    g.apply("shield true")
    assert g.over and g.result is not None and testing.notations(g) == []
    with pytest.raises(IllegalMove):
        g.apply(0)


def test_game_goes_on_while_the_player_with_fewest_cards_holds_a_card():
    # 3 players, first player seat 1 (index 0): seat 3 holds the fewest and moves last
    g = build(players=3, table={"p2a2": "R5"}, hands=[["R3"], ["R4"], ["R6"]])
    place(g, "R3", "p2a1")
    assert not g.over
    place(g, "R4", "p2a3")
    assert not g.over and g.state["active"] == 2
    place(g, "R6", "p2b2")
    assert g.over


def test_the_player_with_fewest_cards_follows_the_first_player():
    # with the first player in seat 2, seat 1 moved last: its last card ends the game
    g = build(players=3, table={"p2a2": "R5"}, hands=[["R3"], ["R4"], ["R6"]], active=0,
              starter=1)
    place(g, "R3", "p2a1")
    assert g.over


def test_at_the_end_the_others_discard_their_hands():
    g = finished(hands=[["R3", "Y5"], []])
    assert hand(g, 0) == [] and hand(g, 1) == []
    assert sorted(code(g.program, i) for i in testing.at(g, "discard")) == ["R3", "Y5"]
    assert view(g, 1)["zones"]["discard"] == {"count": 2}


def test_face_down_cards_are_removed_and_not_scored():
    # the face-down red 3 would be the lowest card of board 3; it is removed unseen
    g = finished(table={"p3a2": "R5", "p3a3": "R6"}, face_down={"p3a1": ("R3", 0)},
                 stones={"s3": [0]})
    assert at(g, "p3a1") == [] and clan(g, 0) == ["R5"]
    assert g.result["scores"] == [5, 0]
    assert card(g.program, "R3") in testing.at(g, "discard")
    for seat in (1, -1):
        assert not any("red 3" in line for line in log(g, seat))
        assert view(g, seat)["zones"]["discard"] == {"count": 1}


# ---------------------------------------------------------------- scoring

def test_first_placed_shield_takes_all_the_cards_of_the_lowest_value():
    # board 2: seat 1's shield was placed first (bottom), then seat 0's
    g = finished(table={"p2a1": "R3", "p2a2": "G5", "p2b1": "Y3", "p2b3": "B6"},
                 stones={"s2": [1, 0]})
    assert clan(g, 1) == ["R3", "Y3"] and clan(g, 0) == ["G5"]
    assert g.result["scores"] == [5, 6]
    assert g.result["tiebreaks"]["villagers"] == [1, 2]
    # the blue 6 is left for nobody: it stays on the table
    assert at(g, "p2b3") == ["B6"]
    assert log(g)[-2:] == ["Board 2: Player 2 takes red 3, yellow 3",
                           "Board 2: Player 1 takes green 5"]


def test_more_shields_than_values_the_last_ones_get_nothing():
    g = finished(table={"p3a1": "R4", "p3b2": "Y6", "p3b3": "Y4"}, stones={"s3": [0, 1, 0]})
    assert clan(g, 0) == ["R4", "Y4"] and clan(g, 1) == ["Y6"]
    assert g.result["scores"] == [8, 6]
    assert log(g)[-1] == "Board 3: nothing is left for Player 1"
    # every shield goes back to its owner
    assert stack(g, "s3") == [] and [len(testing.at(g, f"shields:{p}")) for p in (0, 1)] == [5, 5]


def test_leftover_cards_go_to_nobody():
    g = finished(table={"p2a1": "R3", "p2a2": "G4", "p2a3": "B5", "p2b2": "P8"},
                 stones={"s2": [0]})
    assert clan(g, 0) == ["R3"] and g.result["scores"] == [3, 0]
    assert at(g, "p2a2") == ["G4"] and at(g, "p2a3") == ["B5"] and at(g, "p2b2") == ["P8"]


def test_a_board_without_shields_scores_for_nobody():
    g = finished(table={"p2a1": "R3", "p4a1": "G6"}, stones={"s4": [1]})
    assert clan(g, 0) == [] and clan(g, 1) == ["G6"]
    assert at(g, "p2a1") == ["R3"] and at(g, "p1a1") == ["W7"] and at(g, "p1a2") == ["W8"]


def test_score_is_the_sum_of_the_values_taken_on_every_board():
    g = finished(players=3,
                 table={"p2a1": "R3", "p2a2": "G5", "p3b1": "Y8", "p4a3": "B4", "p4b3": "S4",
                        "p5a1": "P6"},
                 stones={"s2": [2, 0], "s3": [0], "s4": [1], "s5": [0]})
    assert clan(g, 0) == ["G5", "P6", "Y8"] and clan(g, 1) == ["B4", "S4"] and clan(g, 2) == ["R3"]
    assert g.result["scores"] == [19, 8, 3]
    assert g.result["winners"] == [0] and g.result["ranking"] == [[0], [1], [2]]


def test_tie_broken_by_most_cards_taken():
    g = finished(table={"p2a1": "R6", "p3a1": "R3", "p3a2": "Y3"},
                 stones={"s2": [0], "s3": [1]})
    assert g.result["scores"] == [6, 6]
    assert g.result["tiebreaks"]["villagers"] == [1, 2]
    assert g.result["winners"] == [1] and g.result["ranking"] == [[1], [0]]


def test_still_tied_is_a_shared_win():
    g = finished(table={"p2a1": "R6", "p3a1": "Y6"}, stones={"s2": [0], "s3": [1]})
    assert g.result["scores"] == [6, 6] and g.result["tiebreaks"]["villagers"] == [1, 1]
    assert g.result["winners"] == [0, 1] and g.result["ranking"] == [[0, 1]]
    # "все претенденты празднуют общую победу": a shared victory, not a draw
    assert g.result["outcomes"] == ["win", "win"] and g.result["draw"] is False


# The two examples of the rulebook's hints for experienced players.

def test_hint_a_three_in_the_last_free_cell_means_nobody_gets_the_sixes():
    # Board 2 holds only 4s and 6s, with two shields (seat 1 first, then seat 2) and one
    # free cell. Seat 2 plays its last card, a green 3, without a shield.
    table = {"p2a1": "R4", "p2a2": "Y6", "p2a3": "G4", "p2b1": "B6", "p2b2": "P4"}

    def last_card_at(cell):
        g = build(table=table, stones={"s2": [0, 1]}, hands=[[], ["G3"]], active=1)
        assert cells_for(g, "G3") == {"p2b3", "p3a1"}
        place(g, "G3", cell, shield=False)
        assert g.over
        return g
    # elsewhere (board 3, no shield): seat 1 takes the 4s, seat 2 the 6s
    g = last_card_at("p3a1")
    assert clan(g, 0) == ["G4", "P4", "R4"] and clan(g, 1) == ["B6", "Y6"]
    assert g.result["scores"] == [12, 12]
    # into the last free cell of board 2: only the 3 and the 4s are taken
    g = last_card_at("p2b3")
    assert clan(g, 0) == ["G3"] and clan(g, 1) == ["G4", "P4", "R4"]
    assert g.result["scores"] == [3, 12]
    assert at(g, "p2a2") == ["Y6"] and at(g, "p2b1") == ["B6"]     # the 6s: nobody's


def test_hint_b_four_threes_beat_two_fours():
    g = finished(table={"p3a1": "R3", "p3a2": "Y3", "p3a3": "G3", "p3b1": "S3",
                        "p3b2": "R4", "p3b3": "Y4"},
                 stones={"s3": [0, 1]})
    assert clan(g, 0) == ["G3", "R3", "S3", "Y3"] and clan(g, 1) == ["R4", "Y4"]
    assert g.result["scores"] == [12, 8] and g.result["winners"] == [0]


# ---------------------------------------------------------------- hidden information

@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_and_set_aside_cards_are_hidden(players):
    g = ruleset().new_game(players, seed=2)
    for seat in range(players):
        v = view(g, seat)
        assert v["zones"][f"hand:{seat}"] == testing.at(g, f"hand:{seat}")
        secret = set(testing.at(g, "set_aside"))
        for other in set(range(players)) - {seat}:
            assert v["zones"][f"hand:{other}"] == {"count": len(testing.at(g, f"hand:{other}"))}
            secret |= set(testing.at(g, f"hand:{other}"))
        assert v["zones"]["set_aside"] == {"count": SETUP[players]["set_aside"]}
        shown = {i for z in v["zones"].values() if isinstance(z, list) for i in z}
        assert not shown & secret
        # the start cards and the removed values are public
        assert v["zones"]["table:p1a2"] == testing.at(g, "table:p1a2")
        assert v["zones"]["box"] == testing.at(g, "box")


# ---------------------------------------------------------------- locales

def test_russian_locale_speaks_the_rulebook_words():
    g = build(table={"p2a2": "R5", "p3b3": "Y6"}, hands=[["R3", "B7"], ["G4", "B8"]],
              locale="ru")
    place(g, "R3", "p2b2", shield=True)
    g.apply("hide green-4")
    g.apply("at table.p4b1")
    g.apply("shield false")
    assert log(g, 0) == ["Игрок 1 выкладывает жителя красный 3 в ячейку table.p2b2",
                         "Игрок 1 выкладывает щит на каменный стол поля собраний 2",
                         "Игрок 2 не может выложить карту по правилам и кладёт карту лицом вниз "
                         "в ячейку table.p4b1"]
    prog = g.program
    assert prog.title == "Кланы и слава"
    from meeple.interpreter.play import display
    assert display.name(prog, "Card") == "житель" and display.name(prog, "Shield") == "щит"
    assert display.name(prog, "stones") == "каменные столы"
    assert display.name(prog, "score") == "победные очки"
    assert display.text(prog, "shield", "") == "Выложить щит на каменный стол этого поля собраний?"


def test_russian_scoring_messages():
    g = finished(table={"p3a1": "R4", "p3b2": "Y4"}, stones={"s3": [1, 0]}, locale="ru")
    assert log(g)[-2:] == ["Поле собраний 3: Игрок 2 забирает красный 4, жёлтый 4",
                           "Поле собраний 3: Игрок 1 не получает карт — они закончились"]


def test_locales_change_words_not_rules():
    games = {loc: ruleset((), loc).new_game(3, seed=11) for loc in (None, "en", "ru")}
    for _ in range(200):
        notes = {loc: testing.notations(g) for loc, g in games.items()}
        assert len({tuple(n) for n in notes.values()}) == 1
        if games[None].over:
            break
        for g in games.values():
            g.apply(len(notes[None]) // 2)
    assert games[None].over
    states = {json.dumps({k: v for k, v in json.loads(g.to_json()).items() if k != "locale"},
                         sort_keys=True) for g in games.values()}
    assert len(states) == 1
    # English is the base file's own words
    assert log(games["en"]) == log(games[None])


# ---------------------------------------------------------------- the terminal drawing

def test_terminal_draws_both_long_sides_every_stack_and_face_down_marks():
    from meeple.cli import render
    g = build(3, table={"p2a2": "R5", "p3b3": "Y6", "p1e0": "W8"},
              hands=[["G3", "B4"], ["G4"], ["S3"]], stones={"s2": [1, 0, 2]})
    g.apply("hide green-3")
    g.apply("at table.p4b1")
    g.apply("shield true")
    prog = g.program
    table = [t.plain for t in render.board_lines(prog, view(g, 1), "table")]
    # side a above side b, the cells' names under each row; the face-down card a mark
    assert table[0].split() == ["·"] * 4 + ["5R"] + ["·"] * 10
    assert table[1].split()[:4] == ["p1a1", "p1a2", "p1a3", "p2a1"]
    # the single cells between the two sides, before the first and after the last column
    assert table[2].split() == ["8W", "·"] and table[3].split() == ["p1e0", "p5e4"]
    assert table[3].index("p1e0") < table[1].index("p1a1")
    assert table[3].index("p5e4") > table[1].index("p5a3")
    assert table[4].split()[8] == "6Y" and table[4].split()[9] == render.FACE_DOWN
    assert table[5].split()[-1] == "p5b3"
    # its owner sees the card itself
    mine = [t.plain for t in render.board_lines(prog, view(g, 0), "table")]
    assert mine[4].split()[9] == "3G"
    # each stack listed from its top shield down to the first one placed
    stones = [t.plain for t in render.board_lines(prog, view(g, 1), "stones")]
    assert stones == ["·   G   ·   K   ·", "    K", "    S", "s1  s2  s3  s4  s5"]
    # too wide for the screen: drawn in bands of whole boards
    narrow = [t.plain for t in render.board_lines(prog, view(g, 1), "table", width=40)]
    assert narrow[1].split() == ["p1a1", "p1a2", "p1a3"] and narrow[3].split() == ["p1e0"]
    assert max(len(line) for line in narrow) <= 40
