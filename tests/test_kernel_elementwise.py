"""Lists a kernel keeps one element per cell (issue 36 item 4, go's whole-board
position made at every move for the superko: interpreter/native/kernel_elementwise.py).
A list ``[E(c) for c in cells(b)]`` whose elements each read their own cell alone is
kept, and only the elements of the cells a move changed are made again: in
tests/testdata/snapshots.meeple, ``picture()`` and ``filled()`` (noted after every
turn) are so kept, ``crowding()`` (each element reads the neighbours) and
``shifted(k)`` (each reads the parameter) are not. Played by the kernel and by the
reference side by side, random games agree at every move (the lists, the states, the
work counted), in one game, in two played in turns (the keep is shared by every state:
a list kept for one serves the other only where its cells hold the same items) and in
a copy; and the kernel reads kept elements (``kernel_kept_reads``) instead of making
them again."""
from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import in_turns_with_a_copy, step_both
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

RULES = Path(__file__).parent / "testdata" / "snapshots.meeple"


@cache
def programs():
    """The ruleset's program played by a kernel, and by the reference (Python)."""
    fast = interpreter.load(RULES)
    assert fast.use_native(report=False, kernel_only=True)
    prog = fast.for_players(2)
    assert prog.kernel
    return prog, interpreter.load(RULES).for_players(2)


def test_a_list_of_each_cell_s_own_number_is_kept_one_made_of_neighbours_is_not():
    _, plain = programs()
    src = kernel.Gen(plain).source()

    def body(name: str) -> str:
        return next(line for line in src.splitlines() if line.startswith(f"static List<I> uF_{name}(St& s") and "{" in line)
    assert "uE_" in body("picture") and "uE_" not in body("crowding") and "uE_" not in body("shifted")
    assert "uE_" in next(line for line in src.splitlines() if line.startswith("static List<bool> uF_filled(St& s) {"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_agree_with_the_reference_and_read_kept_elements(seed):
    prog, plain = programs()
    games = (prog.new_game(2, seed), plain.new_game(2, seed))
    rnd = random.Random(seed)
    moves = 0
    before = prog.kernel_kept_reads
    while not games[0].over:
        step_both(games, rnd)
        moves += 1
    assert games[1].over and games[0].result == games[1].result
    assert len(games[0].kernel_state()["vars"]["seen"]) == moves + 1 and prog.native_fallbacks == 0
    # each move changes one cell of nine: the other eight elements of each list kept
    # (picture, filled) are read from the keep (from the second move: the lists of the
    # first were kept for another game's state)
    assert prog.kernel_kept_reads - before >= 2 * 8 * (moves - 1)


def test_two_games_in_turns_and_a_copy_share_the_keep_rightly():
    prog, plain = programs()
    in_turns_with_a_copy(prog, plain, 6)
    assert prog.native_fallbacks == 0


def test_playouts_are_the_reference_s():
    prog, plain = programs()
    assert interpreter.playouts(prog, 12, seed=3) == interpreter.playouts(plain, 12, seed=3)
