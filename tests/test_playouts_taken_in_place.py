"""In a batch of random playouts a kernel takes each decision of one seat where the rules
ask it (cxx/kernel_playout.hpp, ``auto_take``): the move drawn and counted as the
playout's loop draws and counts it, the run begun again as a take begins it, and the
procedure goes on, where it returned to the loop, which took the move and ran the rules
again from there. The games must be the reference's move for move: decisions in a
called procedure, two in a turn, one in the setup (before the playout), one with a move
without an object, a playout stopped by its moves' limit between two decisions of a
turn, a budget run out just after a decision."""
from __future__ import annotations

import json
import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import plain_games as plain, program_of
from meeple.interpreter.analysis import playouts as playouts_module
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

# a decision in the setup, two in each turn (the second in a called procedure, with a
# move without an object), and a rule that counts on
NESTED = """ruleset nested
players 2..2
var total: int = 0
var last: int = 0
var start: int = 0
procedure add(k: int) {
  choose j from [j for j in 1..k if j != last] as "add" or "skip"
  if j != none {
    total = total + j
    last = j
  }
}
setup {
  choose s from [1, 2, 3] as "start"
  start = s
}
turn {
  choose k from [k for k in 2..4 if k != start] as "pick"
  call add(k)
  total = total + 1
}
end when total >= 20
score(p) = if p == active then total else 0
"""

# the rules loop on after the third decision until the steps' budget runs out
RUNAWAY = """ruleset runaway
players 2..2
var n: int = 0
var t: int = 0
turn {
  choose k from [1, 2, 3] as "pick"
  t = t + 1
  if t >= 3 {
    while k > 0 max 10000000 {
      n = n + 1
    }
  }
}
end when t >= 10
"""


def programs(text: str):
    """The program a kernel plays, and the Python one."""
    return program_of(text, "rules.meeple", True), program_of(text, "rules.meeple", False)


def kernel_games(program, monkeypatch, games: int, **options) -> list[dict]:
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        return interpreter.playouts(program, games, **options)


@needs_kernel
def test_decisions_taken_where_they_are_asked_are_the_reference_s_moves(monkeypatch):
    fast, python = programs(NESTED)
    want = interpreter.playouts(python, 40, seed=3)
    assert len({(g["moves"], json.dumps(g["result"])) for g in want}) > 5   # (not all alike)
    got = kernel_games(fast, monkeypatch, 40, seed=3)
    assert plain(got) == plain(want)
    assert [list(g["kinds"]) for g in got] == [list(g["kinds"]) for g in want]
    assert [g["first"] for g in got] == [g["first"] for g in want]
    assert fast.native_fallbacks == 0
    # (the compact form: the same numbers)
    compact = kernel_games(fast, monkeypatch, 40, seed=3, compact=True)
    assert list(compact.moves) == [g["moves"] for g in want]


@needs_kernel
@pytest.mark.parametrize("max_moves", [1, 2, 3, 4, 7])
def test_a_playout_stopped_between_two_decisions_of_a_turn_is_the_reference_s(max_moves, monkeypatch):
    # (the limit reached at a decision taken in place: the procedure returns, the
    # playout's loop stops there and hands the game to Python, which says so)
    fast, python = programs(NESTED)
    want = plain(interpreter.playouts(python, 6, seed=8, max_moves=max_moves))
    got = plain(interpreter.playouts(fast, 6, seed=8, max_moves=max_moves))
    assert got == want
    assert all(g["error"] and f"did not end after {max_moves} moves" in g["error"][1] for g in got)
    assert fast.native_fallbacks == 6   # (every game stopped by the kernel, none finished)
    # (a limit the games do not reach: every game the kernel's)
    fast, python = programs(NESTED)
    assert plain(kernel_games(fast, monkeypatch, 6, seed=8, max_moves=200)) == \
        plain(interpreter.playouts(python, 6, seed=8, max_moves=200))


@needs_kernel
def test_a_budget_run_out_after_a_decision_taken_in_place_is_the_reference_s_error(monkeypatch):
    fast, python = programs(RUNAWAY)
    want = plain(interpreter.playouts(python, 3, seed=5))
    assert all(g["error"] and "step" in g["error"][1] for g in want), want
    got = plain(interpreter.playouts(fast, 3, seed=5))   # (the kernel stops; Python says why)
    assert got == want
    assert fast.native_fallbacks == 3


def test_every_decision_of_one_seat_is_taken_in_place_in_a_playout():
    # (the C++ of each such decision: the move taken there in a playout, else the
    # procedure returns as it does for every other caller)
    gen = kernel.Gen(program_of(NESTED, "rules.meeple", False))
    source = gen.source()
    asked = [s for s in gen.sites if s["kind"] == "one"]
    taken = re.findall(r"f->pc = (\d+); if \(AUTO && auto_take\(s\)\) goto I(\d+); return;", source)
    assert len(asked) == len(taken) == 3   # (start, pick, add: "skip" is add's site too)
    assert all(a == b for a, b in taken)
    assert "static bool AUTO = false;" in source and "AutoOn on(seats, max_moves, out);" in source
