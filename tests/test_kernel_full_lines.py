"""Counts of the cells of a line whose top item has a value (interpreter/native/
kernel_tops.py): ``count(c for c in cells(b) if c.row == r and mine(c, p)) == K``, where
every line the count may be of has K cells (the key's values known: a loop over a
range, a literal), tests whether the value's row of the index holds all the line's
bits (no popcount; ``!=`` its negation); lines of other lengths, or a key of no known
value, are counted as before. A rule function reads each row of the index its body
reads by a value of its parameters alone once, at its entry, where a loop every
evaluation of the body reaches reads it (a loop behind a guard, ``if p == none then 1
else count(...)``, reads it itself: the seat of none would bail at the entry); a row by
a loop's variable is read in the loop. The same moves, states, work and calls as Python
(tests/testdata/full_lines.meeple: a board of two words of the index and one of one),
and tic-tac-toe's wins so."""
from __future__ import annotations

from pathlib import Path

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    kernel_playouts_as_python,
    kernel_plays_as_python,
    program_of,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

DATA = Path(__file__).resolve().parent / "testdata"
RULES = (DATA / "full_lines.meeple").read_text()


def compiled(native: bool, budgets=None):
    return program_of(RULES, "full_lines.meeple", native, budgets)


@needs_kernel
def test_a_line_of_as_many_cells_as_counted_is_tested_full_by_its_bits():
    source = kernel.Gen(compiled(False)).source()
    for name in ("full_rows", "open_cols", "anti", "small_rows"):
        text = function_text(source, name)
        assert "bits_set(" not in text and "_tw_r[1] & uV" in text and "_tw_m[1]) == uV" in text, name
    assert "return !((" in function_text(source, "open_cols")
    # (the diagonals of 1, 2 and 3 cells; a row by a parameter, of any value)
    for name in ("diags", "row_of"):
        assert "bits_set(" in function_text(source, name), name
    # (the value's row read once, at the entry, whatever the loops in the body reach)
    for name in ("full_rows", "open_cols", "anti", "small_rows", "diags", "row_of"):
        text = function_text(source, name)
        assert text.count(".z.tops_of(") == 1 and text.split("{", 1)[1].lstrip().startswith(
            "const uint64_t* uV"), name
    # (but where only a branch the body may not take reads it: read there, no earlier)
    text = function_text(source, "guarded")
    assert "_th = " not in text and text.split("?", 1)[1].count("_tw_r = s.z.tops_of(") == 1


@needs_kernel
def test_a_row_by_a_loop_s_value_is_read_in_the_loop():
    # (top_values.meeple's pairs: the seat k of a loop over [1, 2])
    prog = program_of((DATA / "top_values.meeple").read_text(), "top_values.meeple", False)
    text = function_text(kernel.Gen(prog).source(), "pairs")
    assert "_th = " not in text and "_tw_r = s.z.tops_of(" in text


@needs_kernel
def test_full_lines_play_as_python():
    # (guarded's player is none every other turn: the guard keeps the body from the
    # count and its read of the row, so no move is left to Python)
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 4) > 200 and fast.native_fallbacks == 0


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 8, 1 << 16)


@needs_kernel
def test_tic_tac_toe_s_wins_by_full_lines_play_as_python():
    fast = interpreter.load(str(DATA / "ttt"), native=True)
    plain = interpreter.load(str(DATA / "ttt"))
    text = function_text(kernel.Gen(plain.for_players(2)).source(), "full_row")
    assert "bits_set(" not in text and "_tw_m[0]) == uV" in text
    kernel_playouts_as_python(fast, plain, 60, 2)
