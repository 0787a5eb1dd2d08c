"""Sums and differences in a kernel (``Gen._arith``, kernel_operators.py): where
both sides are ints whose ranges are known whatever the state (core/bounds.py: literals,
a board's coordinates, functions made of them), ``a + b`` and ``a - b`` are plain C++,
with no check of overflow or none; any other goes through ``add``/``sub``, which stop
where Python's value would leave 64 bits (or be none). Both play as Python does."""
from __future__ import annotations

import random
import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

pytestmark = [pytest.mark.kernels, needs_kernel]

# Differences of coordinates (known: plain, some negative), a function of literals and
# coordinates (known), and a running total of the state's (unknown: checked).
RULES = """ruleset arith
players 2..2
kind Stone { }
board grid: grid(rows: 4, cols: 5) holds Stone
var at: grid = none
var total: int = 0
var turns: int = 0
function shift(c: grid): int = if c.row > 2 then c.col - 7 else 3 + c.row
setup { at = cell(grid, row: 1, col: 1) }
turn {
  choose b from [c for c in cells(grid) if c != at] as "go"
  total = total + (b.row - at.row) * 10 + (at.col - b.col) + shift(b) - 1
  at = b
  turns = turns + 1
}
end when turns == 8
score(p) = total
"""


def _played_as_python(fast, plain, seeds: int):
    """Random games (a seed each below ``seeds``) by the kernel and by Python in step, the
    kernel's state Python's at every move and both at the end: Python's game at each end."""
    for seed in range(seeds):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, seed
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
            assert a.live
        assert a.result == b.result and a.state == b.state
        yield b


def test_sums_of_known_ranges_are_plain_and_play_as_python_s():
    src = SourceSet(base=parse(RULES, "arith.meeple"), sources={"arith.meeple": RULES})
    plain = compile_sources(src).for_players(2)
    source = kernel.Gen(plain).source()
    # (a rule function without a loop is written `static inline`)
    body = source[re.search(r"static (inline )?I uF_shift\(St& s, Id uA_c\) \{", source).start():]
    body = body[:body.index("\n")]
    assert "sub(" not in body and "add(" not in body and " - (I)(" in body and " + (I)(" in body
    assert "add(add(add(s.uG_total, " in source   # (the state's total: checked)
    fast = compile_sources(src)
    assert fast.use_native(report=False, kernel_only=True)
    fast = fast.for_players(2)
    for b in _played_as_python(fast, plain, 4):
        assert b.state["vars"]["total"] != 0
    assert fast.native_fallbacks == 0


# Counts over lists whose lengths are known whatever the state (core/bounds.py,
# length_bound): a ray (its board's cells at most), ``until`` of one, a range, a list
# written out, and a comprehension over them; a count over the stones of a zone is not.
COUNTS = """ruleset counts
players 2..2
kind Stone { seat: int }
board g: grid(rows: 4, cols: 4) holds Stone
zone pile: Stone
deck stones into pile { Stone(seat: s) for s in 1..2 for i in 1..8 }
var top_run: int = 0
var held: int = 0
function mine(c: g, s: int): bool = occupied(c) and top(c).seat == s
function run(c: g, dr: int, dc: int, s: int): int =
  count(y for y in until(z for z in ray(c, row: dr, col: dc) if not mine(z, s)) if mine(y, s))
function line(c: g, s: int): int = run(c, 0, 1, s) + run(c, 0, -1, s)
function spread(c: g): int = count(k for k in 1..c.col for d in [1, 2] if k > d) + count(x for x in cells(g) if empty(x))
turn {
  choose c from [c for c in cells(g) if empty(c)] as "put"
  move top(pile) to c
  top_run = line(c, seat(active)) - spread(c)
  held = held + count(x for x in items(pile) if x.seat == 1) + spread(c)
}
end when count(c for c in cells(g) if occupied(c)) == 10
score(p) = top_run + held
"""


def test_counts_over_lists_of_known_length_are_summed_plainly_and_play_as_python_s():
    src = SourceSet(base=parse(COUNTS, "counts.meeple"), sources={"counts.meeple": COUNTS})
    plain = compile_sources(src).for_players(2)
    f, fs = plain.facts, plain.checked.functions
    assert f.int_range(fs["run"].body) == (0, 16) and f.int_range(fs["line"].body) == (0, 32)
    assert f.int_range(fs["spread"].body) is None   # (cells(g) is not bounded here)
    source = kernel.Gen(plain).source()
    body = source[re.search(r"static (inline )?I uF_line\(St& s, Id uA_c, I uA_s\) \{", source).start():]
    body = body[:body.index("\n")]
    assert "add(" not in body and " + (I)(" in body
    fast = compile_sources(src)
    assert fast.use_native(report=False, kernel_only=True)
    fast = fast.for_players(2)
    scores = set()
    for b in _played_as_python(fast, plain, 4):
        scores.add(b.state["vars"]["top_run"])
    assert fast.native_fallbacks == 0 and len(scores) > 1
