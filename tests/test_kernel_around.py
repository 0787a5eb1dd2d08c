"""Counts a kernel keeps per cell of the related cells that pass a test of their own
zone (issue 36: go's ``any(empty(n) for n in adjacent(c))``, asked of every empty point
at every decision: interpreter/native/kernel_around.py). In tests/testdata/around.meeple
``any(empty(n) ...)`` and ``all(occupied(n) and not empty(n) ...)`` over a cell's
neighbours are read from the counts, ``near(c, k)`` (its test reads a parameter) walks
the neighbours as before; in go, the first test of ``legal`` is read from the counts;
in dots and boxes, whose zones carry no stamps, ``complete(b)`` walks a box's sides.
Played by the kernel and by the reference side by side, random games agree at every
move (the states, the work counted), where cells fill and empty again, in one game, in
two played in turns and in a copy (the counts are shared by every state: made anew for
a state of another lineage), and batches of games are the reference's."""
from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import in_turns_with_a_copy, step_both
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

RULES = Path(__file__).parent / "testdata" / "around.meeple"


@cache
def programs(rules=RULES):
    """The ruleset's program played by a kernel, and by the reference (Python)."""
    fast = interpreter.load(rules)
    assert fast.use_native(report=False, kernel_only=True)
    prog = fast.for_players(2)
    assert prog.kernel
    return prog, interpreter.load(rules).for_players(2)


def body(src: str, head: str) -> str:
    return next(line for line in src.splitlines() if line.startswith(head) and "{" in line)


def test_a_neighbour_s_own_test_is_read_from_counts_one_reading_a_parameter_is_not():
    _, plain = programs()
    src = kernel.Gen(plain).source()
    playable = body(src, "static bool uF_playable(St& s")
    assert playable.count("_sync(s)") == 2 and ".cnt[" in playable and "for (" not in playable
    near = body(src, "static bool uF_near(St& s")
    assert "_sync" not in near and "for (" in near
    legal = body(kernel.Gen(interpreter.load("go").for_players(2)).source(), "static bool uF_legal(St& s")
    assert legal.count("_sync(s)") == 1
    # (a read tests one number, the lineage whose counts hold with no zone noted since,
    # which a change of a zone clears and a sync sets)
    assert re.search(r"if \(__builtin_expect\(T\d+\.ok != s\.z\.lin\.id, 0\)\) T\d+_sync\(s\);", playable)
    assert re.search(r"static void (T\d+)_touch\(int z_\) \{ \1\.ok = 0;", src)
    # (no other keep stamps the zones of dots and boxes: its boxes' sides are walked)
    complete = body(kernel.Gen(interpreter.load("dots-and-boxes").for_players(2)).source(),
                    "static bool uF_complete(St& s")
    assert "_sync" not in complete and "for (" in complete


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_agree_with_the_reference(seed):
    prog, plain = programs()
    games = (prog.new_game(2, seed), plain.new_game(2, seed))
    rnd = random.Random(seed)
    while not games[0].over:
        step_both(games, rnd)
    assert games[1].over and games[0].result == games[1].result
    assert prog.native_fallbacks == 0
    # (stones were put on and taken off: the counts moved both ways)
    assert games[0].kernel_state()["vars"]["lifts"] > 0


def test_two_games_in_turns_and_a_copy_share_the_counts_rightly():
    prog, plain = programs()
    in_turns_with_a_copy(prog, plain, 12)
    assert prog.native_fallbacks == 0


def test_playouts_are_the_reference_s():
    prog, plain = programs()
    assert interpreter.playouts(prog, 12, seed=3) == interpreter.playouts(plain, 12, seed=3)
