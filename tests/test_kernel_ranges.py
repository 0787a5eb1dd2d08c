"""A range of numbers written out (``1..6``, ``-2..2``) in a kernel: its list made once
when the module loads and shared by every game (kernel_unroll.py, ``range_list``), where
it was made anew each time it was read (the first-price auction's ``pick v at random
from 1..10``, a game's whole setup). Checked against the Python reference: the states
after every move, the work counted, a batch of playouts; and the shared list never
changed by the rules that append to a copy of it. And ``max``/``min`` of numbers over a
comprehension, the extreme kept as they come with no list made (``_over_list`` in
interpreter/core/primitives.py): of one element, of many, of some that tie."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

# ranges as options, draws, values kept and appended to, joined, empty, of one number,
# negative, and one whose ends are not written out (made where it is read)
RULES = """ruleset ranges
players 2..2
var kept: list of int = 1..3
var rolls: int = 0
var seen: int = 0
var last_draw: int = 0
var top_: int = 0
setup {
  pick v at random from 1..10
  last_draw = v
}
turn {
  choose k from 1..6 as "take"
  pick d at random from -2..2
  last_draw = d
  kept = kept + [k]
  kept = kept + (1..3)
  rolls = rolls + k + d + size(1..3) + sum(1..3) + size(4..4) + size(3..1) + size(0..(k - 1))
  seen = seen + size([x for x in (1..3) + (5..6) if x > k]) + last(kept) * 100
  top_ = max(x for x in kept if x > 1) + min(x * 2 - k for x in 1..k) + max(x for x in [k]) * 3
         + min(x for x in kept if x > 2)
  if size(kept) > 20 { kept = 1..3 }
}
end when rolls > 120
score(p) = if seat(p) == 1 then rolls % 7 + sum(1..3) else (seen + top_) % 5 + size(kept)
"""


compiled = compiler(RULES, "ranges.meeple")


def test_a_range_written_out_is_a_list_made_once():
    source = kernel.Gen(compiled(False)).source()
    # (its length counted as a constant: kernel_charges.py)
    assert "List<I>::of_n(" in source and "(W(s, 3), List<I>(T" in source
    assert "(W(s, 5), List<I>(T" in source
    assert "irange(s, ((I)1LL), ((I)3LL))" not in source
    assert "irange(s, ((I)0LL)" in source   # (an end not written out: made where it is read)
    assert "lmax(List<" not in source and "lmin(List<" not in source   # (max, min of numbers: no list)


@needs_kernel
def test_such_games_stay_python_s_after_every_move():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, seeds=8) > 40
    assert fast.native_fallbacks == 0


@needs_kernel
def test_the_work_of_a_range_kept_is_counted_as_python_counts_it():
    work_counted_as_python(compiled, moves=3, hi=4000)


@needs_kernel
def test_a_batch_of_such_games_is_the_reference_s():
    kernel_playouts_as_python(compiled(True), compiled(False), games=60, seed=11)
