"""Kept values that outlast a step in a kernel (issue 36 item 4: go's groups and their
liberties, interpreter/native/kernel_lasting.py): a keep made in one position serves a
later one (or another game's) only where the zones it read hold the same items. Go's
hand-built positions where a kept group or its liberties must be made again (a
capture empties points next to other groups, a move fills a liberty so that a point
becomes suicide, a ko taken and retaken), played by the kernel and by the reference
side by side: the legal points, the state and the work counted after every move are
the reference's. Two games from one position, played in turns, share the keeps (static
tables of the module): neither reads a value made for the other's position."""
from __future__ import annotations

import json
import random
import re
from functools import cache

import pytest
from kernel_support import kernels_on, lists_walked, needs_kernel  # noqa: F401 - the fixtures
from lockstep import kernel_difference
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kgame import KernelGame
from meeple.interpreter.play.game import Game
from test_go_rules import build, legal

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]


@cache
def kernel_go():
    """Go's program on a kernel that keeps its groups and liberties as lists (their sizes
    not counted by bits: tests/kernel_support.py ``lists_walked``)."""
    with pytest.MonkeyPatch.context() as m:
        m.setenv("MEEPLE_KERNEL_AREAS", "0")
        rules = interpreter.load("go")
        assert rules.use_native(report=False, kernel_only=True)
        prog = rules.for_players(2)
    assert prog.kernel
    return prog


def both(**position):
    """The position as the kernel plays it and as the reference (build's program, the
    Python code) does."""
    ref = build(**position)
    kern = KernelGame.adopt(Game(kernel_go(), json.loads(json.dumps(ref.state))))
    return kern, ref


def play(game, move: str) -> None:
    """The move of this notation, given by its index (a kernel plays moves so)."""
    game.apply([m.notation for m in game.legal_moves()].index(move))


def same(kern, ref, moves) -> None:
    """Plays ``moves`` in both games, comparing the legal points, the state and the work
    counted after each (the kernel takes the game over at its first move)."""
    assert legal(kern) == legal(ref)
    for step, move in enumerate(moves):
        step_both(kern, ref, step, move)
    assert kern.program.native_fallbacks == 0


def step_both(kern, ref, step: int, move: str) -> None:
    """Plays ``move`` in both games and compares the legal points, the state and the
    work counted."""
    play(kern, move)
    play(ref, move)
    assert kern.live and legal(kern) == legal(ref), (step, move, legal(kern) ^ legal(ref))
    assert kernel_difference(kern.kernel_state(), ref) is None, (step, move)
    assert kern.work_spent == ref.work_spent, (step, move)


# A white group of two (D5 E5) in atari beside a black wall, and a white stone (G5)
# with two black neighbours: Black takes D5 E5 (the points freed are liberties of the
# black groups around, kept one move earlier with those points taken), White plays D5
# again, where E5 is then suicide for White; Black takes G5, then D5, where G5 is
# suicide for White.
CAPTURE = dict(black="D6 E6 C5 F5 D4 H5", white="D5 E5 G5 A9", active=0)
CAPTURE_MOVES = ["play E4", "play D5", "play G6", "play J9", "play G4", "play J1", "play E5", "play J2"]


def test_a_capture_makes_the_kept_liberties_of_the_groups_beside_it_again():
    kern, ref = both(**CAPTURE)
    same(kern, ref, CAPTURE_MOVES)


# Black's B1 is in atari (A1 its last liberty: White may play A1, which takes it) until
# Black takes White's C1 with C2, away from B1: C1 is B1's liberty again, and A1 is then
# suicide for White. B1's group and liberties were kept with C1 taken, and B1 is not
# beside the stone played: only the stone taken away from C1 says they are old.
ESCAPE = dict(black="A2 B1 D1 G7", white="C1 B2 G3", active=1)
ESCAPE_MOVES = ["play J9", "play C2", "play J8", "play J1", "play H9"]


def test_a_group_out_of_atari_by_a_capture_away_from_it_is_seen_so():
    kern, ref = both(**ESCAPE)
    assert "A1" in legal(ref)   # (White would take B1)
    same(kern, ref, ESCAPE_MOVES)
    assert "A1" not in legal(build(black="A2 B1 D1 G7 C2", white="B2 G3 J9", active=1))


# Points next to White's groups that become suicide for White as Black fills their
# liberties, and legal again as captures free others.
SUICIDE = dict(black="C7 D7 E7 B6 F6 C5 E5 D4", white="E6 C4 B5 A6", active=1)
SUICIDE_MOVES = ["play J9", "play C6", "play J8", "play D6", "play A7", "play D5", "play H1", "play J7"]


def test_a_filled_liberty_makes_a_kept_point_suicide_and_a_capture_undoes_it():
    kern, ref = both(**SUICIDE)
    same(kern, ref, SUICIDE_MOVES)


# Black takes at E5 (a ko), White may not retake at once, plays elsewhere, retakes,
# and Black, after a move elsewhere, takes again: the single stones' groups and their
# liberties change at every take.
KO = dict(black="D6 C5 D4", white="E6 D5 F5 E4")
KO_MOVES = ["play E5", "play J9", "play A1", "play D5", "play J1", "play A9", "play E5", "play H9"]


def test_a_ko_taken_and_retaken_is_seen_as_the_reference_sees_it():
    kern, ref = both(**KO)
    assert "E5" in legal(kern)
    same(kern, ref, KO_MOVES)


def test_two_games_played_in_turns_share_no_value_made_for_the_other():
    # the same position, then each its own moves, one move of each in turn: the keeps
    # made in one game's position are there when the other moves
    a, ra = both(**KO)
    b, rb = both(**KO)
    other = ["play J9", "play J8", "play E5", "play A1", "play A2", "play D5", "play H1", "play H2"]
    for ma, mb in zip(KO_MOVES, other):
        for kern, ref, move in ((a, ra, ma), (b, rb, mb)):
            play(kern, move)
            play(ref, move)
            assert kern.live and legal(kern) == legal(ref), (move, legal(kern) ^ legal(ref))
            assert kernel_difference(kern.kernel_state(), ref) is None, move
            assert kern.work_spent == ref.work_spent, move
    # and a copy goes its own way from the position it was copied in
    c, rc = a.copy(), ra.copy()
    for move in ["play G5", "play G4"]:
        for kern, ref in ((c, rc), (a, ra)):
            play(kern, move)
            play(ref, move)
            assert kern.live and legal(kern) == legal(ref), move
            assert kernel_difference(kern.kernel_state(), ref) is None, move


def test_random_games_read_no_kept_value_whose_zones_changed():
    # groups grow, are taken and grow again, their keeps made again over and over with
    # more or fewer zones read than before: a zone read and not noted (kernel_lasting.py,
    # ZR) would go unseen when it changes, and a stale value be read
    rnd = random.Random(7)
    for _ in range(2):
        kern, ref = both()
        for step in range(90):
            moves = [m.notation for m in ref.legal_moves()]
            if not moves or ref.over:
                break
            move = rnd.choice([m for m in moves if m != "pass"] or moves)
            step_both(kern, ref, step, move)
    assert kern.program.native_fallbacks == 0


@pytest.mark.usefixtures("lists_walked")
def test_only_functions_that_read_zones_alone_have_keeps_that_last():
    # go's walk and liberties read the points' stones alone; legal reads the ko variable
    # and calls functions, position calls one: their keeps (if any) last a step
    gen = kernel.Gen(kernel_go())
    source = gen.source()
    assert "uR_stones(" in source and "uR_liberties(" in source and "Zones<NI, NZ, true, " in source   # (stamped; its empty points walked: 1, 81)
    assert gen.lasting("legal") is None and gen.lasting("position") is None
    # (what a body may read besides zones' items, as the printer notes it: the budgets'
    # helpers, walks' marks; any other field of the state, and the keep lasts no longer
    # than a step: test_kernel_facts.py, test_each_decision_reads_what_the_printer_noted)


def test_a_kept_walk_notes_each_cell_it_meets_once_and_reads_it_through_the_state():
    # (the whole body of the keep, from a cell through a relation, COND of its own
    # cell's zone: the zones noted are the cells met, each noted before COND, no marks
    # of the walk's own; a zone tested on the left of ``and`` and read on its right
    # through RZ, noted once, is test_kernel_facts.py's)
    source = kernel.Gen(kernel_go()).source()
    at = source.index("static List<Id> uR_stones(St& s, Id uA_c, Id uA_k) {")
    walk = source[at:source.index("\n", at)]
    assert "Seen seen_" not in walk and "RZ.size(" not in walk and "RZ.s.z." not in walk
    assert re.search(r"if \(!RZ\.noted\((\w+)\)\) \{ RZ\.note\(\1\); found_\.push_if\(\1, "
                     r"\(bool\)\(\(\(bool\)\(\(s\.z\.size\(\1\) > 0\)", walk)
