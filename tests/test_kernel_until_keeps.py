"""``until(...)`` written as a prefix of the list it walks, and keeps of a step seldom
read passed by (issue 36 item 3: othello's lines, interpreter/native/kernel.py ``_until``,
``List::prefix`` in cxx/kernel_rt.hpp, ``_bypass`` in kernel_memo.py), a ray's prefixes
kept with it (kernel_walks.py, ``ray_prefixes``). Lines of every length (none at the edge,
a few inline in the list's header, more in a buffer of their own, the whole ray where
nothing stops it) are asked over and over in each step, more than the keep's table
holds, so that the keep is passed by and asked again, and along steps of 3 (a ray not
kept, its prefix made): the kernel's states, values and work stay Python's after every
move. (Its condition calls a rule function, so the walk is kept: a walk alone is not,
test_kernel_ray_walks.py.)"""
from __future__ import annotations

import random
import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, program_of
from meeple.interpreter.native.kgame import KernelGame

pytestmark = pytest.mark.kernels

RULES = """ruleset rays
players 2..2
kind Stone { seat: int }
board b: grid(rows: 9, cols: 9) holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..41 }
var total: int = 0
var lens: list of int = []
var longest: list of b = []
var far: list of b = []
function dirs(): list of list of int =
  [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]
function below(n: int): bool = n < 0
function line(c: b, dr: int, dc: int, s: int): list of b =
  until(y for y in ray(c, row: dr, col: dc) if empty(y) or top(y).seat == s or below(total))
function reach(s: int): int = sum(size(line(c, d[0], d[1], s)) for c in cells(b) for d in dirs())
turn {
  let s = seat(active)
  choose x from [c for c in cells(b) if empty(c)] as "place"
  move first(p for p in items(box) if p.seat == s) to x
  lens = [size(line(x, d[0], d[1], s)) for d in dirs()]
  longest = line(cell(b, row: 1, col: 1), 1, 1, 3)
  far = line(x, 0, 3, s) + line(x, -3, 0, 3 - s)
  total = reach(1) + reach(2) + reach(1) + size(line(x, 0, 1, s))
}
end when count(c for c in cells(b) if empty(c)) == 0
score(p) = 0
"""


def compiled(native: bool):
    return program_of(RULES, "rays.meeple", native)


@needs_kernel
def test_lines_of_every_length_asked_more_than_a_keep_holds_stay_python_s():
    fast, plain = compiled(True), compiled(False)
    assert plain.facts.memoised("line")   # (asked over and over in a step: kept)
    lengths: set[int] = set()
    fars: set[int] = set()
    whole = 0
    for seed in range(3):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while not b.over:
            i = rnd.randrange(b.move_count())
            assert a.move_count() == b.move_count()
            a.apply(i)
            b.apply(i)
            assert kernel_difference(a.kernel_state(), b) is None, (seed, b.state["vars"])
            lengths.update(b.state["vars"]["lens"])
            fars.add(len(b.state["vars"]["far"]))
            whole += len(b.state["vars"]["longest"]) == 8
    # none (a ray off the board), inline (up to 4 cells), in a buffer, the whole ray
    assert {0, 1, 2, 3, 4, 5} <= lengths and whole > 0 and {0, 1, 2, 3} <= fars
    assert fast.native_fallbacks == 0


def test_a_keep_passed_by_is_tested_where_it_is_called_and_rays_keep_their_prefixes():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(compiled(False)).source()
    # (the test in line at each call, the keep itself apart)
    assert "static inline MK_AI List<Id> uK_line(" in source
    assert "__attribute__((noinline)) static List<Id> uKB_line(" in source
    # (until over a ray kept: its prefix read from the ray's, no list made)
    body = next(line for line in source.splitlines() if line.startswith("static List<Id> uF_line(St& s") and "{" in line)
    assert re.search(r"RAY\d+_pre\(", body) and re.search(r"return uV\d+_pre \? uV\d+_pre\[uV\d+_n \+ 1\]", body)
