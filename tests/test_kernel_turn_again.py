"""The turn's procedure goes on into the next turn where it ends (kernel.py
``Proc._end``, cxx/kernel_driver.hpp ``turn_again``): where its frame is the only one
and nothing stops the run, the next turn is begun there (the turn counted, the end's
condition tested, the next seat, the frame made anew) and the procedure goes on at its
start, with no return to the run's loop; else its frame is popped as before (a called
procedure's end, the game's end with its ``at end``; an ``end game`` leaves the turn
before its end). The kernel's games, states, work and steps stay Python's, the budgets
run out at the same move."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    counted_as_python,
    games_and_work_as_python,
    kernel_plays_as_python,
    program_of,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

# (seats in the other direction, one of them skipped now and then; a procedure called
# from the setup, the turn and the ending, a turn counting more steps than the setup; a
# list kept in a local of the turn; games ended by the end's condition and by an ``end
# game``, each with an ending that changes the scores)
RULES = """ruleset turned_again
players 2..3
order counterclockwise
kind Chip { seat: int }
board b: grid(rows: 4, cols: 4) holds Chip
zone pool: Chip
zone bank: Chip per player
deck chips into pool { 6 of Chip(seat: s) for s in 1..3 }
var turns: int = 0
var points: int per player = 0

# moves the first of a seat's chips from one place to another, if there is one
procedure take(src: zone of Chip, dst: zone of Chip, p: player) {
  if any(m.seat == seat(p) for m in items(src)) {
    move first(m for m in items(src) if m.seat == seat(p)) to dst
  }
}

setup {
  for p in players {
    call take(pool, bank(p), p)
  }
}

turn {
  let open = [c for c in cells(b) if empty(c)]
  choose x from open as "chip"
  call take(pool, bank(active), active)
  if size(bank(active)) > 0 {
    move first(m for m in items(bank(active))) to x
  }
  points(active) += (x.row + x.col + size(open)) % 3
  for p in players {
    if size(bank(p)) == 0 {
      call take(pool, bank(p), p)
    }
  }
  turns += 1
  if turns % 7 == 5 {
    active = next_player(active)
  }
  if points(active) >= 6 {
    end game
  }
}

at end {
  for p in players {
    points(p) += size(bank(p))
    call take(pool, bank(p), p)
  }
}

end when turns == 11
score(p) = points(p) * 10 + count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p))
"""

compiled = compiler(RULES, "turned_again.meeple")


def test_only_the_turn_goes_on_into_the_next_turn():
    source = kernel.Gen(compiled(False)).source()
    assert source.count("Iend: if (turn_again(s, f)) {") == 1
    # (the setup, the called procedure and the ending end as before)
    assert source.count("Iend: s.stack.pop_back(); return; }") == 3
    # (the end's condition is tested by itself, the ending begun by the caller)
    assert "static bool end_holds(St& s)" in source


@needs_kernel
def test_turns_go_on_with_python_s_states():
    # (three seats: the next seat after the first is the last; two in the tests below)
    fast, plain = (program_of(RULES, "turned_again.meeple", native, players=3) for native in (True, False))
    assert kernel_plays_as_python(fast, plain, 20, players=3) > 150


@needs_kernel
def test_turns_go_on_with_python_s_games_and_work():
    games_and_work_as_python(compiled, 60, 4, 9, 1 << 12)


@needs_kernel
def test_turns_go_on_with_python_s_steps():
    """The least step budget with which Python plays nine moves: the kernel plays them
    with it and fails with one less, as Python does (a turn's end and the next turn's
    beginning each count a step)."""
    assert counted_as_python(compiled, "steps", 9, 1 << 10) > 5


def test_both_ways_of_ending_are_played():
    """The games above end by the end's condition and by an ``end game`` (turn_again
    goes on into the next turn, or begins the ending; an ``end game`` leaves the turn at
    once, with no end of its procedure)."""
    prog, ends = compiled(False), set()
    for seed in range(60):
        g = prog.new_game(2, seed)
        rnd = random.Random(seed)
        while not g.over:
            g.apply(rnd.randrange(g.move_count()))
        ends.add("end when" if g.state["vars"]["turns"] == 11 else "end game")
    assert ends == {"end when", "end game"}
