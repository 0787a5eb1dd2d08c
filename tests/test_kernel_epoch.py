"""Kept values that outlast steps which change nothing they read (issue 36 item 3:
interpreter/native/kernel_epoch.py). A step that writes only the frames (a ``let``, a
test, a call) or a variable that no kept value's evaluation reads keeps the epoch of the
kernel's keeps: a rule function's value computed by one statement serves a later call
with the same arguments (chess's ``position(me)``, written on the scoresheet and then
compared with each position on it). A variable a kept value reads, set between, makes it
computed again. The values, the states and the work counted are Python's."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, program_of

pytestmark = pytest.mark.kernels

RULES = """ruleset epoch
players 2..2
kind Stone { seat: int }
board g: grid(rows: 3, cols: 3) holds Stone
zone pool: Stone
deck stones into pool { 9 of Stone(seat: s) for s in 1..2 }
var bonus: int = 0
var x: int = 0
var y: int = 0
var z: int = 0
var marks: list of int = []
# filled() loops (a keep is worth it) and reads the stones and bonus; above(n) calls it
# with the same arguments at each turn of its loop, so it is kept there, and so at the
# turn's own calls too
function filled(): int = count(c for c in cells(g) if occupied(c)) + bonus
function above(n: int): int = count(k for k in 1..n if k <= filled())
setup {
  for c in cells(g) {
    if c.row == 1 { move first(m for m in items(pool) if m.seat == 1) to c }
  }
}
"""

# filled() made by the first statement (marks: read by no kept value), then read at each
# of above(5)'s 5 turns and above(4)'s 4 (x, y: read by none either); bonus, which filled()
# reads, set: above(9) computes it again (5 + 3 = 8 of 9 turns), then reads it 8 times
SAME = """turn {
  marks = marks + [filled()]
  let t = above(5)
  x = t
  y = above(4)
  bonus = 5
  z = above(9)
}
end when x > 0
"""

# a stone moved between the calls: the zones changed, filled() computed again
MOVED = """turn {
  x = filled()
  move first(m for m in items(pool) if m.seat == 2) to cell(g, row: 3, col: 3)
  y = above(9)
}
end when x > 0
"""


def compiled(text: str, native: bool):
    return program_of(text, "epoch.meeple", native)


def played(fast, plain) -> dict:
    """The kernel's state after the first turn (the game ends), checked against Python's
    (``state`` of a kernel's game plays it again in Python: the kernel's own is read)."""
    game = fast.new_game(2, 1)
    got = game.kernel_state()
    assert kernel_difference(got, plain.new_game(2, 1)) is None and fast.native_fallbacks == 0
    return got


@needs_kernel
def test_a_value_kept_by_one_statement_serves_the_next_while_nothing_it_reads_changes():
    fast, plain = compiled(RULES + SAME, True), compiled(RULES + SAME, False)
    assert fast.kernel
    before = fast.kernel_kept_reads
    got = played(fast, plain)
    assert got["vars"]["marks"] == [3] and (got["vars"]["x"], got["vars"]["y"]) == (3, 3)
    assert got["vars"]["z"] == 8   # (bonus read again: 3 + 5 stones' worth)
    # above(5) and above(4) read the value of the first statement at each of their 9
    # turns; above(9), after bonus changed, computes it once and reads it 8 times
    assert fast.kernel_kept_reads - before == 5 + 4 + 8


@needs_kernel
def test_a_move_between_two_calls_makes_the_value_again():
    fast, plain = compiled(RULES + MOVED, True), compiled(RULES + MOVED, False)
    before = fast.kernel_kept_reads
    got = played(fast, plain)
    assert (got["vars"]["x"], got["vars"]["y"]) == (3, 4)
    assert fast.kernel_kept_reads - before == 8
