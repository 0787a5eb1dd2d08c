"""Loops over a board's occupied cells (core/occupancy.py, ``Facts.occupied_only``;
interpreter/native/kernel_occupancy.py): a loop over ``cells(b)`` whose condition is
false on an empty cell, ``occupied(c)`` first or a function that tests it first
(``own(c, me) = occupied(c) and ...``), walks the bits of the kernel's index of the
occupied cells, kept by every move of an item (placed, taken, stacked, moved from one
board to another, a promotion, castling, en passant in chess); the same moves, states,
work and calls as Python, on a board of more than one word of the index
(tests/testdata/occupied_cells.meeple: 100 cells and 9 beside them) and in chess. A
loop whose condition is false on an occupied cell (``empty(c)`` first: go's legal
points) walks the clear bits of the same index, the same way (so does an ``any`` whose
element is so, or an ``or`` of two such tests); the index must be exact there (an empty
cell skipped would change the answer)."""
from __future__ import annotations

from pathlib import Path

import pytest
from kernel_support import comprehension_of, function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    counted_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

RULES = (Path(__file__).resolve().parent / "testdata" / "occupied_cells.meeple").read_text()


compiled = compiler(RULES, "occupied_cells.meeple")


# the functions of the rules whose loop only occupied cells pass (the board), and those
# whose loop walks every cell (None)
WALKED = {"mine_of": "big", "count_mine": "big", "sum_theirs": "big", "held_small": "small",
          "any_far": "big", "first_two": "big", "pairs": "big", "beside": "small",
          "deep_count": None, "next_count": None, "static_count": None, "stacked": None,
          "mixed_count": None}
# those whose loop only empty cells pass (the board: the index's bits clear walked;
# through a function, an or, an any's element), and some whose loop is no such (None)
EMPTY = {"count_free": "big", "free_small": "small", "open_count": "big", "open_small": "small",
         "any_open": "big", "mine_of": None, "deep_count": None}



def test_which_loops_only_occupied_cells_pass():
    prog = compiled(False)
    fs = prog.checked.functions
    for name, board in WALKED.items():
        comp = comprehension_of(fs[name].body)
        assert prog.facts.occupied_only(comp.clauses[-1], comp.cond) == board, name
    # (a loop whose clause is not the last is not one: mine_of(p)'s in beside)
    comp = comprehension_of(fs["beside"].body)
    assert prog.facts.occupied_only(comp.clauses[0], comp.cond) is None
    for name, board in EMPTY.items():
        comp = comprehension_of(fs[name].body)
        test = comp.cond if comp.cond is not None else comp.elem   # (any's element)
        assert prog.facts.occupied_only(comp.clauses[-1], test, occupied=False) == board, name
        if board is not None:
            assert prog.facts.occupied_only(comp.clauses[-1], test) is None, name
    comp = comprehension_of(fs["mixed_count"].body)   # (an or of an empty and an occupied test)
    assert prog.facts.occupied_only(comp.clauses[-1], comp.cond) is None
    assert prog.facts.occupied_only(comp.clauses[-1], comp.cond, occupied=False) is None


@needs_kernel
def test_the_kernel_walks_the_index_where_only_occupied_cells_pass():
    gen = kernel.Gen(compiled(False))
    source = gen.source()
    # (the big board's 100 cells over two words of the index, after the small one's 9)
    # (and, where the top item's seat is tested, by that value: kernel_tops.py)
    assert "Zones<NI, NZ, false, 1, 109, TopSlots> z;" in source
    assert gen.occupied.walked.count("small") == 5 and gen.occupied.walked.count("big") >= 6   # (empty ones too)
    assert "occ_mask(" in source and "s.z.occ[0] & 0x1ffULL" in source
    for name, board in WALKED.items():
        if name != "mine_of":   # (its loop run in place in beside: kernel_filter_loops.py)
            text = function_text(source, name)
            # (static_count's static part first, then mine: the static cells' bits and the
            # seat's, kernel_tops.py)
            assert (".z.occ[" in text or ".z.tops_of(" in text) == (board is not None or name == "static_count"), name
            # (each cell the occupied cells' bits give said to hold an item: Zones::held)
            assert (".z.held(" in text) == (".z.occ[" in text), name
    assert ".z.occ[" in function_text(source, "sum_theirs")   # (top(c).seat != seat(p): no value)
    # (only empty cells pass: the clear bits walked, the board's alone, none said held)
    for name, board in EMPTY.items():
        if board is not None:
            assert "= ~s.z.occ[" in function_text(source, name), name
            assert ".z.held(" not in function_text(source, name), name
    for name in ("free_small", "open_small"):
        assert "~s.z.occ[0] & 0x1ffULL" in function_text(source, name), name
    assert "occ_mask(" in function_text(source, "count_free")
    # (go's legal points: empty(c) first in legal, called with the cell)
    go = kernel.Gen(interpreter.load("go").for_players(2)).source()
    assert "for (uint64_t uV5_m = ~s.z.occ[uV6_w] & occ_mask(uV6_w, 0, 80);" in go


@needs_kernel
def test_a_count_stopped_early_bounds_the_rest_by_the_cells_occupied():
    # (what the rest of the loop could add: the board's bits set, not its 100 or 9 cells,
    # so that a count of fewer occupied cells than it needs stops at once)
    # (three_mine's count of the cells whose top is the player's is a count of the bits
    # of the index by that value: kernel_tops.py)
    source = kernel.Gen(compiled(False)).source()
    small = function_text(source, "two_held")
    # (counted by bits_set, kernel_zones.hpp: no call to libgcc's __popcountdi2 at -O2)
    assert "_u = (I)(bits_set(s.z.occ[0] & 0x1ffULL));" in small
    assert "__builtin_popcountll" not in small
    assert ".size()); for" not in small
    assert "return (I)(bits_set(" in function_text(source, "three_mine")


@needs_kernel
def test_chess_walks_its_men_by_the_index():
    gen = kernel.Gen(interpreter.load("chess").for_players(2))
    source = gen.source()
    assert "Zones<NI, NZ, false, 2, 64, TopSlots> z;" in source
    assert "s.z.occ[0]; " in function_text(source, "insufficient_material")
    assert "s.z.held(" in function_text(source, "insufficient_material")
    for name in ("king_square", "legal"):   # (a man of one colour: by the colour, kernel_tops.py)
        assert "s.z.tops_of(" in function_text(source, name), name
    # (a relation's row walked by its bits: the knights' jumps of attacked)
    assert "s.z.occ[0] & T" in function_text(source, "attacked")
    assert "s.z.held(" in function_text(source, "attacked")


@needs_kernel
def test_occupied_walks_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    moves = kernel_plays_as_python(fast, plain, 6)
    assert moves > 300 and fast.native_fallbacks == 0


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    # (each loop over the board counts its 109 cells, however few are occupied)
    work_counted_as_python(compiled, 6, 1 << 16)


@needs_kernel
def test_the_calls_counted_are_python_s_to_the_last_unit():
    # (deep counts its calls: its loop walks every cell, each call counted)
    assert counted_as_python(compiled, "calls", 6, 1 << 14) > 100
