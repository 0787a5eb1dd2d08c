"""Loops over a board's occupied cells (core/occupancy.py, ``Facts.occupied_only``;
interpreter/native/kernel_occupancy.py): a loop over ``cells(b)`` whose condition is
false on an empty cell, ``occupied(c)`` first or a function that tests it first
(``own(c, me) = occupied(c) and ...``), walks the bits of the kernel's index of the
occupied cells, kept by every move of an item (placed, taken, stacked, moved from one
board to another, a promotion, castling, en passant in chess); a loop whose condition
(or an ``any``'s element) is false on an occupied cell, ``empty(c)`` first, walks the
bits clear, which must be exact (an empty cell skipped would change the answer); the
same moves, states, work and calls as Python, on a board of more than one word of the index
(tests/testdata/occupied_cells.meeple: 100 cells and 9 beside them) and in chess."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, least_budget, program_of, vars_after, work_counted_as_python
from meeple.interpreter import Budgets
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kgame import KernelGame

from meeple import interpreter

pytestmark = pytest.mark.kernels

RULES = (Path(__file__).resolve().parent / "testdata" / "occupied_cells.meeple").read_text()


def compiled(native: bool, budgets=None):
    return program_of(RULES, "occupied_cells.meeple", native, budgets)


# the functions of the rules whose loop only occupied cells pass (the board), and those
# whose loop walks every cell (None)
WALKED = {"mine_of": "big", "count_mine": "big", "sum_theirs": "big", "held_small": "small",
          "any_far": "big", "first_two": "big", "pairs": "big", "beside": "small",
          "deep_count": None, "next_count": None, "static_count": None, "stacked": None,
          "mixed_count": None}
# those whose loop only empty cells pass (the board: the bits clear walked)
EMPTY_WALKED = {"open_count": "big", "open_small": "small", "any_open": "big"}


def _comprehension(body):
    """The comprehension of a function's body (a list's, an aggregate's; within size())."""
    if body.node == "Call":
        body = body.args[0]
    return body.comp if body.node == "Aggregate" else body


def test_which_loops_only_occupied_cells_pass():
    prog = compiled(False)
    fs = prog.checked.functions
    for name, board in WALKED.items():
        comp = _comprehension(fs[name].body)
        assert prog.facts.occupied_only(comp.clauses[-1], comp.cond) == board, name
    # (a loop whose clause is not the last is not one: mine_of(p)'s in beside)
    comp = _comprehension(fs["beside"].body)
    assert prog.facts.occupied_only(comp.clauses[0], comp.cond) is None
    for name, board in EMPTY_WALKED.items():
        comp = _comprehension(fs[name].body)
        test = comp.cond if comp.cond is not None else comp.elem   # (any's element)
        assert prog.facts.cells_only(comp.clauses[-1], test) == (board, False), name
        assert prog.facts.occupied_only(comp.clauses[-1], test) is None, name
    comp = _comprehension(fs["mixed_count"].body)
    assert prog.facts.cells_only(comp.clauses[-1], comp.cond) is None


@needs_kernel
def test_the_kernel_walks_the_index_where_only_occupied_cells_pass():
    gen = kernel.Gen(compiled(False))
    source = gen.source()
    # (the big board's 100 cells over two words of the index, after the small one's 9)
    assert "Zones<NI, NZ, false, 1, 109> z;" in source
    assert gen.occupied.walked.count("small") == 3 and gen.occupied.walked.count("big") >= 9
    assert "occ_mask(" in source and "s.z.occ[0] & 0x1ffULL" in source
    for name, board in WALKED.items():
        if name != "mine_of":   # (its loop run in place in beside: kernel_filter_loops.py)
            assert (".z.occ[" in function_text(source, name)) == (board is not None), name
    # (the empty cells: the bits clear, within the board's; the small board's 9 first)
    for name in EMPTY_WALKED:
        assert "= ~s.z.occ[" in function_text(source, name), name
    assert "~s.z.occ[0] & 0x1ffULL" in function_text(source, "open_small")


@needs_kernel
def test_chess_walks_its_men_by_the_index():
    gen = kernel.Gen(interpreter.load("chess").for_players(2))
    source = gen.source()
    assert "Zones<NI, NZ, false, 2, 64> z;" in source
    for name in ("king_square", "insufficient_material", "legal"):
        assert "s.z.occ[0]; " in function_text(source, name), name


@needs_kernel
def test_occupied_walks_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    moves = 0
    for seed in range(6):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
            moves += 1
        assert kernel_difference(a.kernel_state(), b) is None and a.result == b.result
    assert moves > 300 and fast.native_fallbacks == 0


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    # (each loop over the board counts its 109 cells, however few are occupied)
    work_counted_as_python(compiled, 6, 1 << 16)


@needs_kernel
def test_the_calls_counted_are_python_s_to_the_last_unit():
    # (deep counts its calls: its loop walks every cell, each call counted)
    def after(native: bool, calls: int):
        return vars_after(compiled(native, Budgets(calls=calls)), 6)
    lo = least_budget(lambda calls: isinstance(after(False, calls), str), 1 << 14)
    assert lo > 100
    for calls in (lo - 1, lo):
        assert after(True, calls) == after(False, calls)
    assert isinstance(after(True, lo - 1), str)
