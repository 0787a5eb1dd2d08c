"""An item found among a named zone's items and moved (``move first(m for m in
items(Z) if ...) to x``, or ``last``) is moved from that zone with no search for it
(kernel.py ``Proc._found_in``, cxx/kernel_zones.hpp ``move_in``): where the rules
found it is where it is. A zone the rules name only (no per-player zone's call, no
item's own cell) and the first or last of its items themselves; anything else is moved
as before (``mv``, the zone found from the item's links). The kernel's games and work
stay Python's, and the budget runs out at the same move."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, games_and_work_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

# (two seats draw marks from a shared supply, the first of theirs or the last, and lay
# them on a board; a seat's own pile feeds the board too, and a mark on the board may
# be taken back to the supply from a cell: the ways not moved from a named zone)
RULES = """ruleset moved_in
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 3) holds Mark
zone supply: Mark
zone pile: Mark per player
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var turns: int = 0
setup {
  for p in players {
    move first(m for m in items(supply) if m.seat == seat(p)) to pile(p)
  }
}
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  if turns % 3 == 0 {
    move first(m for m in items(supply) if m.seat == seat(active)) to x
  }
  if turns % 3 == 1 {
    move last(m for m in items(supply) if m.seat == seat(active)) to x
  }
  if turns % 3 == 2 {
    move first(m for m in items(pile(active))) to x
    move first(m for m in items(x)) to supply
    move first(m for m in items(supply) if m.seat == seat(active)) to pile(active)
  }
  turns += 1
}
end when count(c for c in cells(b) if empty(c)) == 0 or turns == 10
score(p) = count(c for c in cells(b) if c.row == 1 and occupied(c) and top(c).seat == seat(p))
"""

compiled = compiler(RULES, "moved_in.meeple")


def test_an_item_found_in_a_named_zone_is_moved_from_it():
    source = kernel.Gen(compiled(False)).source()
    supply = compiled(False).ns["Z_supply"]
    moved_in = re.findall(r"mv_in\(s, nn\(w_\), \(\(Id\)(\d+)\), to_, f_\)", source)
    # (the setup's, the first and the last from the supply, and the supply's after a
    # mark went back to it)
    assert moved_in == [str(supply)] * 4, moved_in
    # (from a seat's pile and from a cell: found as before)
    assert source.count("mv(s, nn(w_), to_, f_)") == 2


@needs_kernel
def test_moved_in_gives_python_s_games_and_work():
    games_and_work_as_python(compiled, 40, 2, 8, 1 << 12)
