"""Kept lists read where they are kept (interpreter/native/kernel_in_place.py): a kept
list only measured (``size``, ``empty``) is read by reference from its keep, no copy
made, its argument too where that is such a call; a kept list used otherwise is copied
as before. Go's liberties of groups, played by the kernel and the reference side by
side, and the C++ printed for them."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, lists_walked, needs_kernel  # noqa: F401 - the fixtures
from lockstep import kernel_playouts_as_python
from meeple.interpreter.native import kernel
from test_kernel_components import BESIDE, BESIDE_MOVES
from test_kernel_lasting import both, kernel_go, same

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]


@pytest.mark.usefixtures("lists_walked")
def test_measured_liberties_of_a_group_are_read_in_place():
    source = kernel.Gen(kernel_go()).source()
    # (size(liberties(group(n))) in legal, empty(liberties(group(n))) in the turn: each
    # read from the keeps, its measure in a function of its own)
    reads = re.findall(r"\(\[&\]\(\) MK_AI \{ return \(\(I\)\(uKR_liberties\(s, "
                       r"uPR_group\(s, \w+\)\)\)\.size\(\)\); \}\(\)\)", source)
    assert len(reads) == 2
    assert "(uKR_liberties(s, uPR_group(s, f->l1.uL1_n))).empty(); }())" in source
    assert "uK_liberties(s, uP_group(" not in source
    # (a group walked by the turn's loop is held by value: the loop calls on meanwhile)
    assert re.search(r"= uK_group\(s, f->l1\.uL1_n\);", source)
    # (read in place: the entry's list where it serves, else the part out of line given a
    # copy of its argument, its value held until the next call)
    at = source.index("static inline MK_AI const List<Id>& uKR_liberties(St& s, const List<Id>& uA_g) {")
    body = source[at:source.index("\n", at)]
    assert "return e.v;" in body and body.endswith("return uKR_liberties_slow(s, uA_g); }")
    assert ("static const List<Id>& uKR_liberties_slow(St& s, const List<Id>& uA_g) { uKR_liberties_out = "
            "uK_liberties_slow(s, std::decay_t<decltype(uA_g)>(uA_g)); return uKR_liberties_out; }") in source
    assert "static inline MK_AI const List<Id>& uPR_group(St& s, Id uA_c) { return uCR_stones(" in source


@pytest.mark.usefixtures("lists_walked")
def test_kept_entries_write_their_zones_over_their_own_list():
    source = kernel.Gen(kernel_go()).source()
    assert "deps_into(e.deps);" in source and "deps_into(m_.deps);" in source
    assert "e.deps = deps_read();" not in source and "m_.deps = deps_read();" not in source


def test_groups_measured_in_place_play_as_the_reference():
    # stones beside kept groups, joining them and taking them: the legal points, the
    # state and the work after every move are the reference's
    kern, ref = both(**BESIDE)
    same(kern, ref, BESIDE_MOVES)


def test_go_games_measured_in_place_are_the_references():
    kernel_playouts_as_python(kernel_go(), interpreter.load("go", native=False).for_players(2), 2, 5)
