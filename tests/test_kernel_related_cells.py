"""Loops over the cells a relation relates to a cell, of which only occupied ones pass
(core/occupancy.py, ``Facts.occupied_related``; interpreter/native/kernel_occupancy.py):
``count(s for s in line(x) if occupied(s))``, ``any(s != x and mine(s, p) for s in
near(x))`` walk the bits set in both the kernel's index of the occupied cells and the
relation's row; the same moves, states, work and calls as Python, on boards of one word
of the index and of more (tests/testdata/related_cells.meeple) and in chess."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_support import comprehension_of, function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, counted_as_python, kernel_difference, work_counted_as_python
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

RULES = (Path(__file__).resolve().parent / "testdata" / "related_cells.meeple").read_text()

# the functions whose loop only occupied related cells pass (the relation), and those
# whose loop walks every related cell (None)
WALKED = {"guarded": "near", "lined": "line", "seats_near": "near", "first_on_line": "line",
          "far_sum": "far", "far_any": "far", "high_near": None, "deep_line": None, "all_near": None}


compiled = compiler(RULES, "related_cells.meeple")



def test_which_related_loops_only_occupied_cells_pass():
    prog = compiled(False)
    fs = prog.checked.functions
    for name, relation in WALKED.items():
        comp = comprehension_of(fs[name].body)
        gate = comp.cond if comp.cond is not None else comp.elem   # (any's element: guarded, far_any)
        assert prog.facts.occupied_related(comp.clauses[-1], gate) == relation, name
    # (a loop over a board's cells is not one: occupied_only's)
    assert prog.facts.occupied_related(comprehension_of(fs["guarded"].body).clauses[-1], None) is None


@needs_kernel
def test_the_kernel_walks_the_bits_of_the_related_cells():
    source = kernel.Gen(compiled(False)).source()
    # (the two boards' 164 cells: three words of the index; and the index by the top's
    # seat, which mine's test of one cell reads: kernel_tops.py, cell_bit)
    assert "Zones<NI, NZ, false, 1, 164, TopSlots> z;" in source
    for name, relation in WALKED.items():
        assert (".z.occ[" in function_text(source, name)) == (relation is not None), name


@needs_kernel
def test_chess_finds_its_attackers_by_the_bits():
    source = kernel.Gen(interpreter.load("chess").for_players(2)).source()
    # (knights, kings, rooks and queens, bishops and queens: one word, 64 cells)
    assert function_text(source, "attacked").count("s.z.occ[0] & T") == 4


@needs_kernel
def test_related_walks_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    moves = 0
    for seed in range(5):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
            moves += 1
        assert kernel_difference(a.kernel_state(), b) is None and a.result == b.result
        assert b.state["vars"]["seen"] > 0
    assert moves == 200 and fast.native_fallbacks == 0


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    # (each loop counts its relation's whole row, however few of its cells are occupied)
    work_counted_as_python(compiled, 6, 1 << 14)


@needs_kernel
def test_the_calls_counted_are_python_s_to_the_last_unit():
    assert counted_as_python(compiled, "calls", 6, 1 << 12) > 10   # (deep_line counts its calls)
