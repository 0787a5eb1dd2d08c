"""Lists of a value per cell of a board that is a literal on an empty cell
(core/occupancy.py, ``Facts.empty_default``; interpreter/native/kernel_occupancy.py,
``OccupiedWalks.mapped``): ``[code(c) for c in cells(b)]`` where ``code(c) = if empty(c)
then 0 elif ...`` (chess's position, kept for the repetition rule) writes the literal for
every cell, then evaluates the element on the occupied cells alone, by the kernel's index
of them; the same lists, work and calls as Python (tests/testdata/empty_cells.meeple: a
call through two functions, a condition written in place, and a join after it)."""
from __future__ import annotations

from pathlib import Path

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, kernel_plays_as_python, work_counted_as_python
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

RULES = (Path(__file__).resolve().parent / "testdata" / "empty_cells.meeple").read_text()


compiled = compiler(RULES, "empty_cells.meeple")


def test_which_lists_are_a_literal_on_an_empty_cell():
    prog = compiled(False)
    fs, facts = prog.checked.functions, prog.facts
    snap = fs["snap_of"].body.left   # (the comprehension, then [turns, 9])
    assert facts.empty_default(snap)[0] == "grid" and facts.empty_default(snap)[1].value == 0
    assert facts.empty_default(fs["plain_of"].body)[1].value == 7
    assert facts.empty_default(fs["other_of"].body) is None   # (a literal on an occupied cell)


@needs_kernel
def test_the_kernel_writes_the_literal_then_walks_the_occupied_cells():
    source = kernel.Gen(compiled(False)).source()
    for name in ("snap_of", "plain_of"):
        assert "std::fill(" in function_text(source, name) and ".z.occ[0]" in function_text(source, name)
    assert "std::fill(" not in function_text(source, "other_of")


@needs_kernel
def test_chess_writes_its_position_so():
    chess = kernel.Gen(interpreter.load("chess").for_players(2)).source()
    assert "std::fill(" in function_text(chess, "position")


@needs_kernel
def test_the_lists_are_python_s_after_every_move():
    fast, plain = compiled(True), compiled(False)
    moves = kernel_plays_as_python(fast, plain, 4)
    assert moves >= 96 and fast.native_fallbacks == 0


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 10, 1 << 14)
