"""A fold of a walk along a ray (``count``, ``sum``, ``any`` or ``all`` of a loop over a
ray, or over ``until`` of one, counting nothing else: the run of a player's discs from a
cell along a line) is put in line where it is called, its fold's lambda with it, and its
values are not kept (kernel_walks.py, ``ray_fold``): the kernel's games, states and work
stay Python's."""
from __future__ import annotations

import re

import pytest
from kernel_support import PLACE_A_DISC, discs_on_a_grid, kernels_on, needs_kernel  # noqa: F401 - the fixture
from lockstep import compiler, games_and_work_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = discs_on_a_grid("folds", 5, 5) + """\
var done: bool = false
function mine(c: b, s: int): bool = occupied(c) and top(c).seat == s
function run(c: b, dr: int, dc: int, s: int): int =
  count(y for y in until(z for z in ray(c, row: dr, col: dc) if not mine(z, s)) if mine(y, s))
function weight(c: b, dr: int, dc: int): int = sum(y.row * 2 + y.col for y in ray(c, row: dr, col: dc))
function open(c: b, dr: int, dc: int): bool = any(empty(y) for y in ray(c, row: dr, col: dc))
function wide(c: b, dr: int, dc: int): bool = all(y.col > 0 for y in ray(c, row: dr, col: dc))
function three(c: b, s: int): bool =
  any(run(c, d[0], d[1], s) + run(c, -d[0], -d[1], s) >= 2 for d in [[0, 1], [1, 0], [1, 1], [1, -1]])
# (a fold whose condition counts work, a loop in the rule function it calls: as before)
function crowded(c: b): bool = count(y for y in cells(b) if occupied(y) and y.row == c.row) > 1
function busy(c: b, dr: int, dc: int): int = count(y for y in ray(c, row: dr, col: dc) if crowded(y))
# (a ray whose steps may be past those kept: made as a list where they are)
function far(c: b, dr: int): int = count(y for y in ray(c, row: dr, col: 0) if occupied(y))
turn {
""" + PLACE_A_DISC + """  done = three(x, s)
  seen = seen + weight(x, 1, 1) + (if open(x, -1, 0) then 3 else 0) + (if wide(x, 0, -1) then 5 else 0)
    + busy(x, 0, 1) + busy(x, 1, 0) + far(x, 3) * 7 + far(x, -1) * 11
}
end when done or size(box) == 0
score(p) = if done and p == active then seen else 0
"""


compiled = compiler(RULES, "folds.meeple")


def test_a_fold_along_a_ray_is_in_line_with_its_loop_and_unkept():
    plain = compiled(False)
    assert plain.facts.memoised("run")   # (asked over and over: the kernel would keep it)
    source = kernel.Gen(plain).source()
    for name, rt in (("run", "I"), ("weight", "I"), ("open", "bool"), ("wide", "bool")):
        head = f"static inline MK_AI {rt} uF_{name}(St& s"
        assert head + ", " in source
        body = next(r for r in source.splitlines() if r.startswith(head) and "{" in r)
        # (its loop's lambda in line too: the steps its callers give, constants, folded in)
        assert "return ([&]() MK_AI -> " in body
        assert f"uK_{name}" not in source and f"uKB_{name}" not in source
        # (the kept ray's cells read from its flat row, no list's handle followed)
        assert re.search(r"if \(!RAY\d+_span\(", body) and "_ref(" not in body
    # (three's eight runs call the walk itself, each with its two steps written in)
    three = next(r for r in source.splitlines() if re.match(r"static (inline )?bool uF_three\(St& s", r) and "{" in r)
    assert three.count("uF_run(s, uA_c, ") == 8
    # (busy's condition counts work: not a fold along a ray, written as any function is)
    assert "static I uF_busy(St& s, Id uA_c, I uA_dr, I uA_dc) { return ([&]() -> I {" in source


@needs_kernel
def test_folds_in_line_give_python_s_games_and_work():
    games_and_work_as_python(compiled, 12, 5, 9, 1 << 15)
