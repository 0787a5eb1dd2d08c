"""Lists a kernel builds at their size (interpreter/native/kernel_rows.py, filled_range;
cxx/kernel_lists.hpp, ``Fill``): a comprehension over a range with no condition, its
elements numbers or ids, writes each element in its place in a list made at once for
the range's size (empty, in its handle, in its header, in a buffer of its own), a list
a name holds that it indexes read through a view of its elements taken once, and a
comprehension whose later loops' sizes are not known first reserves twice its first
list's size or the most it made lately, if larger (kernel_ordered.py,
reserve_size: ``at_least_seen``, ``keep_seen``). Capacity alone: the kernel's games,
options, states and work are Python's."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)

pytestmark = pytest.mark.kernels

# (xs: 9 numbers, a range of literals that reads the state; picks: 0 to 6 numbers, a
# range of runtime bounds, empty at times; qs: ids, 0 to 6; pairs and the options: a
# later loop of a size not known first, 1 to 4 elements for each of the first's)
RULES = """ruleset lists
players 2..2
enum Q { A, B, C }
var n: int = 0
var xs: list of int = [0 for k in 1..9]
var picks: list of int = []
var qs: list of Q = []
var pairs: list of int = []
var last: int = 0
function reach(k: int): list of int = [j for j in 0..k % 4]
turn {
  n = n + 1
  xs = [xs[(k + n) % 9] + k for k in 0..8]
  let m = n % 7
  picks = [k * 2 + xs[k] for k in 0..m - 1]
  qs = [if (k + n) % 3 == 0 then A elif k % 2 == 0 then B else C for k in 1..m]
  pairs = [k * 10 + j for k in picks for j in reach(k + n)]
  choose (k, j) from [(k, j) for k in xs for j in reach(k * 3 + n)] as "pick"
  last = k * 10 + j + len(picks) + len(qs) + len(pairs)
}
end when n == 20
score(p) = last + seat(p) + xs[seat(p)]
"""


compiled = compiler(RULES, "lists.meeple")


@needs_kernel
def test_lists_of_a_known_size_are_made_at_once_and_guesses_kept():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(compiled(False)).source()
    # (xs, picks, qs, reach and xs's first value: each written in a list made at its size)
    filled = re.findall(r"Fill<(I|Id)> uV\d+_out\(uV\d+_hi >= uV\d+_lo \? \(size_t\)\(uV\d+_hi - uV\d+_lo \+ 1\) : 0\);",
                        source)
    assert sorted(filled) == ["I", "I", "I", "I", "Id"], filled
    assert not re.search(r"Build<I> uV\d+_out; \{ I uV\d+_lo", source)
    # (xs read at each element of xs and of picks: its elements and size taken once)
    assert len(re.findall(r"const ListView<I> uV\d+_view\(s\.uG_xs\); ", source)) == 2
    # (pairs and the options: the size made kept, the next guess the larger)
    seen = re.findall(r"reserve\(at_least_seen\(2 \* uV\d+_xs\.size\(\), (T\d+)\)\)", source)
    kept = re.findall(r"keep_seen\((T\d+), uV\d+_out\.size\(\), 4096\);", source)
    assert len(seen) == 2 and sorted(seen) == sorted(kept), (seen, kept)
    assert all(f"static size_t {t} = 0;" in source for t in seen)


@needs_kernel
def test_lists_made_at_their_size_play_as_python():
    fast, plain = compiled(True), compiled(False)
    assert kernel_plays_as_python(fast, plain, 4) == 4 * 20
    assert fast.native_fallbacks == 0
    kernel_playouts_as_python(fast, plain, 12, 5)
    work_counted_as_python(lambda native, budgets: compiled(native, budgets), 3, 4000)
