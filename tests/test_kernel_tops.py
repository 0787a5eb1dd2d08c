"""Loops over the cells whose top item has one value of an attribute no statement
changes (core/tops.py, ``Facts.top_value``; interpreter/native/kernel_tops.py): a loop
over ``cells(b)`` whose condition is ``occupied(c) and top(c).seat == seat(p)`` (through
calls, after a static part) walks the bits of the kernel's index of the cells by their
top item's value, kept by every move of an item (placed, stacked, the bottom one taken
from under another, taken, moved back), and a count of exactly those cells counts the
bits; an attribute a statement changes (``var mark``) keeps no index. The same moves,
states, work and calls as Python, on a board of more than one word of the index
(tests/testdata/top_values.meeple: 100 cells and 9 beside them), in tic-tac-toe,
checkers, breakthrough and chess."""
from __future__ import annotations

from pathlib import Path

import pytest
from kernel_support import comprehension_of, function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

DATA = Path(__file__).resolve().parent / "testdata"
RULES = (DATA / "top_values.meeple").read_text()


compiled = compiler(RULES, "top_values.meeple")


# the functions whose loop only cells of a top's value pass: (the attribute, whether
# the condition holds exactly there: a count of the bits); None: no such loop
FOUND = {"count_mine": ("seat", True), "three_mine": ("seat", True), "reds": ("colour", True),
         "greens": ("colour", True), "sevens": ("seat", True), "mine_of": ("seat", True),
         "far_mine": ("seat", False), "first_blue": ("colour", False), "pairs": ("seat", True),
         "count_marked": None, "either": None, "own_row": None}


def test_which_loops_only_cells_of_a_top_s_value_pass():
    prog = compiled(False)
    fs = prog.checked.functions
    for name, want in FOUND.items():
        body = fs[name].body
        comp = comprehension_of(body.left if body.node == "BinOp" else body)   # (three_mine's count >= 3)
        got = prog.facts.top_value(comp.cond, comp.clauses[-1].var)
        assert (got and (got.attr, got.exact)) == want, name
    # (after the static part, c.row == r: the conjunct it leaves)
    comp = comprehension_of(fs["row_mine"].body)
    f = prog.facts.cells_filter(comp.clauses[-1], comp.cond)
    got = prog.facts.top_value(f.rest[0], "c")
    assert (got.attr, got.exact, got.env["p"].name) == ("seat", True, "p")
    # (a var of the kind, assigned by a statement: no index, even where it is tested alone)
    assert prog.facts.top_value(fs["marked"].body, "c") is None


@needs_kernel
def test_the_kernel_walks_and_counts_the_index_by_value():
    gen = kernel.Gen(compiled(False))
    source = gen.source()
    # (the seats 1 and 2 and the colours red and blue: 4 slots; green none, as seat 7;
    # the mark's 0..2, which marked's test of one cell reads, not a loop: 3 more)
    assert gen.tops.n == 7 and "Zones<NI, NZ, false, 1, 109, TopSlots> z;" in source
    assert "struct TopSlots { static constexpr int N = 7;" in source
    # (the row of a value no item has, of no bit, not in the state: a row per value)
    assert "uint64_t tops[NT][" in source and "? tops[k] : no_tops" in source
    for name, want in FOUND.items():
        text = function_text(source, name) if name != "mine_of" else source
        if want is None:
            assert ".z.tops_of(" not in text, name
        else:
            assert ".z.tops_of(" in text, name
    for name in ("count_mine", "three_mine", "reds", "greens", "sevens", "row_mine"):
        text = function_text(source, name)
        assert "return (I)(bits_set(" in text and "for (" not in text, name
    # (two words of the index: both walked; the row's cells a table by the row)
    assert "_r[1] & " in function_text(source, "count_mine")
    for name in ("far_mine", "first_blue"):
        assert "&= uV" in function_text(source, name), name   # (the bits walked)


@needs_kernel
def test_top_walks_keep_python_s_state_after_every_move():
    fast, plain = compiled(True), compiled(False)
    moves = kernel_plays_as_python(fast, plain, 6)
    assert moves > 300 and fast.native_fallbacks == 0


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    # (each count of the bits counts the board's 100 cells, however few are set)
    work_counted_as_python(compiled, 6, 1 << 16)


@needs_kernel
@pytest.mark.parametrize("game", ["ttt", "checkers", "breakthrough"])
def test_games_by_their_tops_play_as_python(game):
    fast = interpreter.load(str(DATA / game), native=True)
    plain = interpreter.load(str(DATA / game))
    assert ".z.tops_of(" in kernel.Gen(plain.for_players(2)).source()
    kernel_plays_as_python(fast, plain, 3)
    kernel_playouts_as_python(fast, plain, 40, 1)


@needs_kernel
def test_a_bundled_variant_by_its_tops_plays_as_python():
    # (brotherhood of nine's capture the flag, three players: each seat's men by the index)
    def load(native: bool):
        return interpreter.load("brotherhood-of-nine", variants=["capture_the_flag"], native=native)
    fast, plain = load(True), load(False)
    assert ".z.tops_of(" in kernel.Gen(plain.for_players(3)).source()
    assert kernel_plays_as_python(fast, plain, 2, players=3) > 100 and fast.native_fallbacks == 0
