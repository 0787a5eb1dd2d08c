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
    for seed in range(4):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, seed
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
            assert a.live
        assert a.result == b.result and a.state == b.state
        assert b.state["vars"]["total"] != 0
    assert fast.native_fallbacks == 0
