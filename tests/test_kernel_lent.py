"""``[x for x in xs if cond]`` passed to a rule function that only reads that parameter
(its size, an element, a loop over it, ``in``, or a function that only reads it:
chess's ``dead([c for c in cells(square) if occupied(c) and ...])``) is lent from the
caller's frame, no list made on the heap (kernel_lent.py): short (in the list's
handle), on the stack, and longer than the stack's part. A function that returns its
list, joins it, keeps it in a list, or passes it to a function that does, gets a list
made as ever. The kernel's games, states and work stay Python's."""
from __future__ import annotations

import re

import pytest
from kernel_support import PLACE_A_DISC, discs_on_a_grid, kernels_on, needs_kernel  # noqa: F401 - the fixture
from lockstep import compiler, games_and_work_as_python, program_of
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = discs_on_a_grid("lent", 9, 9) + """\
function far(l: list of b, c: b): int = if c in l then size(l) else 0 - size(l)
function spread(l: list of b, c: b): int =
  if empty(l) then 1
  else size(l) * 3 + l[0].row + last(l).col + count(y for y in l if y.row == c.row) + far(l, c)
    + (if c not in l then 7 else 0)
function keeps(l: list of b): list of b = l
function joins(l: list of b): int = size(l + [first(l)])
function holds(l: list of b): int = size([l, l])
function passes(l: list of b): int = size(keeps(l))
turn {
""" + PLACE_A_DISC + """  seen = seen + spread([c for c in cells(b) if occupied(c) and top(c).seat == s], x)
    + spread([c for c in cells(b) if occupied(c) and c.row == x.row and c.col <= x.col], x)
    + spread([c for c in cells(b) if occupied(c) and c.row == 1 and c.col == 1], x)
    + spread([c for c in cells(b) if occupied(c) or c.row == x.row], x)
    + size(keeps([c for c in cells(b) if occupied(c)]))
    + joins([c for c in cells(b) if occupied(c)]) + holds([c for c in cells(b) if occupied(c)])
    + passes([c for c in cells(b) if occupied(c)])
}
end when size(box) == 0
score(p) = seen % 1000 + seat(p)
"""


compiled = compiler(RULES, "lent.meeple")


def test_lists_only_read_are_lent_and_others_made():
    source = kernel.Gen(compiled(False)).source()
    assert "struct Lent : Grow<T>" in source
    # (its own constructor: Lent<Id>() leaves the buffer unwritten, not zeroed)
    assert "    Lent() {}" in source
    assert len(re.findall(r"uF_spread\(s, \(\[&\]\(Lent<Id>&& uV\d+_out\) MK_AI "
                          r"-> const List<Id>& \{", source)) == 4
    assert len(re.findall(r"return uV\d+_out\.lend\(\); \}\(Lent<Id>\(\)\)", source)) == 4
    # (returned, joined, kept in a list, passed to a function that returns it: made)
    for f in ("keeps", "joins", "holds", "passes"):
        assert re.search(rf"uF_{f}\(s, \(\[&\]\(\) MK_AI -> List<Id> \{{", source), f


def test_a_list_passed_on_to_a_function_that_returns_it_is_not_lent():
    # (spread hands its list to keeps, which returns it: no list lent anywhere)
    source = kernel.Gen(compiled(False)).source()
    plain = kernel.Gen(program_of(RULES.replace("+ far(l, c)", "+ size(keeps(l))"), "lent.meeple", False)).source()
    assert "Lent<" in source and "Lent<" not in plain


@needs_kernel
def test_lent_lists_give_python_s_games_and_work():
    games_and_work_as_python(compiled, 4, 3, 70, 1 << 16)
