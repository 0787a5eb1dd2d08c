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
from lockstep import kernel_plays_as_python, plain_games as plain, program_of
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

# decisions whose options are values in their order, drawn where they are made (a
# board's empty cells, the compact form; a range filtered; a list written out in a
# called procedure), and three whose options go through the state as before: a list
# held by a local and items (each put in order first), and one with a move without an
# object
DRAWN = """ruleset drawn
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var total: int = 0
var turns: int = 0
procedure bump() {
  choose j from [1, 2, 3] as "bump"
  total = total + j
}
turn {
  turns = turns + 1
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  choose w from [m for m in items(supply) if m.seat == seat(active)] as "use"
  move w to x
  choose k from [k for k in 1..5 if k != x.col] as "add"
  total = total + k
  let odd = [c.col for c in cells(b) if occupied(c) and c.row == x.row]
  choose y from odd as "echo"
  total = total + y
  if turns % 3 == 0 {
    call bump()
  }
  choose z from [z for z in 1..2 if z != 2] as "stay" or "skip"
}
end when turns >= 11
score(p) = if p == active then total else turns
"""


def programs(text: str):
    """The program a kernel plays, and the Python one."""
    return program_of(text, "rules.meeple", True), program_of(text, "rules.meeple", False)


def kernel_games(program, monkeypatch, games: int, **options) -> list[dict]:
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        return interpreter.playouts(program, games, **options)


def games_as_the_reference(text: str, monkeypatch, games: int, seed: int) -> None:
    """The kernel plays every game of the playouts of ``text`` (``games`` from ``seed``),
    and they are the reference's, in the dict form and the compact one."""
    fast, python = programs(text)
    want = interpreter.playouts(python, games, seed=seed)
    assert len({(g["moves"], json.dumps(g["result"])) for g in want}) > 5   # (not all alike)
    got = kernel_games(fast, monkeypatch, games, seed=seed)
    assert plain(got) == plain(want)
    assert [list(g["kinds"]) for g in got] == [list(g["kinds"]) for g in want]
    assert [g["first"] for g in got] == [g["first"] for g in want]
    assert fast.native_fallbacks == 0
    # (the compact form: the same numbers)
    compact = kernel_games(fast, monkeypatch, games, seed=seed, compact=True)
    assert list(compact.moves) == [g["moves"] for g in want]


def stopped_as_the_reference(text: str, games: int, seed: int, max_moves: int) -> None:
    """Each of the playouts of ``text`` stopped by ``max_moves`` before its end, by the
    kernel (which hands it to Python, which says so), as the reference stops it."""
    fast, python = programs(text)
    want = plain(interpreter.playouts(python, games, seed=seed, max_moves=max_moves))
    got = plain(interpreter.playouts(fast, games, seed=seed, max_moves=max_moves))
    assert got == want
    assert all(g["error"] and f"did not end after {max_moves} moves" in g["error"][1] for g in got)
    assert fast.native_fallbacks == games   # (every game stopped by the kernel, none finished)


@needs_kernel
def test_decisions_taken_where_they_are_asked_are_the_reference_s_moves(monkeypatch):
    games_as_the_reference(NESTED, monkeypatch, 40, seed=3)


@needs_kernel
@pytest.mark.parametrize("max_moves", [1, 2, 3, 4, 7])
def test_a_playout_stopped_between_two_decisions_of_a_turn_is_the_reference_s(max_moves, monkeypatch):
    # (the limit reached at a decision taken in place: the procedure returns, the
    # playout's loop stops there and hands the game to Python, which says so)
    stopped_as_the_reference(NESTED, 6, 8, max_moves)
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


@needs_kernel
def test_options_drawn_where_they_are_made_are_the_reference_s_moves(monkeypatch):
    games_as_the_reference(DRAWN, monkeypatch, 30, seed=11)


@needs_kernel
@pytest.mark.parametrize("max_moves", [1, 2, 3, 5, 9, 14])
def test_a_playout_stopped_at_options_drawn_where_they_are_made_is_the_reference_s(max_moves):
    # (the limit reached at such a decision: its options put in the state, the
    # procedure returns, and the playout's loop stops there and hands the game over)
    stopped_as_the_reference(DRAWN, 4, 2, max_moves)


@needs_kernel
def test_a_decision_drawn_where_it_is_made_is_python_s_outside_playouts():
    # (moves applied one by one, not a playout: the options are in the state as before)
    fast, python = programs(DRAWN)
    assert kernel_plays_as_python(fast, python, 4) > 40


def test_options_in_their_order_are_drawn_where_they_are_made():
    # (the C++ of each decision whose options are values in their order, no move
    # without an object: drawn from the buffer a comprehension writes, from the list, or
    # from the bits of the cells that pass)
    gen = kernel.Gen(program_of(DRAWN, "rules.meeple", False))
    source = gen.source()
    drawn = re.findall(r"const int i_ = auto_pick\(s, n_\); if \(i_ >= 0\) \{ f->(\S+) = (\S+)\[i_\];", source)
    # (mark, add, and bump in a procedure; not echo nor use, whose lists are put in
    # order first, nor stay, with its move without an object)
    where = {v.split("_")[-1]: d for v, d in drawn}
    assert sorted(where) == ["j", "k"]
    assert where["k"].endswith(".data()")    # (a Build's: the range)
    assert where["j"] == "all_"              # (the list: [1, 2, 3])
    # (the empty cells kept as bits: the option drawn is the cell of its bit among them,
    # kernel_bit_picks.py)
    bits = re.findall(r"const int i_ = auto_pick\(s, n_\); if \(i_ >= 0\) \{ f->(\S+) = \(Id\)\(\d+ \+ nth_set\(", source)
    assert [v.split("_")[-1] for v in bits] == ["x"]
    taken = re.findall(r"f->pc = (\d+); if \(AUTO && auto_take\(s\)\) goto I(\d+); return;", source)
    assert len(taken) == len([s for s in gen.sites if s["kind"] == "one"]) == 6   # (each one-seat decision)
    assert all(a == b for a, b in taken)
