"""A kernel keeps each field of its state in the narrowest integer type that holds every
value the field can have (interpreter/native/kernel_layout.py), and that never changes
a game:

- a variable whose every value is known whatever the state gets that range, and its
  values at both ends of it are kept, exported and loaded again exactly, the kernel
  playing every move (no fallback);
- a variable with a value the rules compute from the state (``x = x * 1024``) has no
  range and keeps 64 bits: a value beyond 32 bits is kept exactly;
- a saved state whose value is beyond the range is not taken by the kernel (it would
  not fit): the game goes on in Python, exactly as Python plays it;
- a frame keeps the locals of its own procedure alone, and an item's zone is found at
  an end of its zone's list (no zone per item): copies, resumed states and items taken
  from the middle of piles play as in Python."""
from __future__ import annotations

import random

import pytest
from lockstep import kernel_difference
from meeple.interpreter.native.kernel_layout import var_ranges
from test_kernel import from_source, needs_kernel

pytestmark = pytest.mark.kernels

NARROW = """ruleset narrow
players 2..2
var small: int = 0      # only 0, 127 or -100: -100..127, one byte
var big: int = 1        # from itself: no range, 64 bits
var far: int = 0        # 0 or 40000: two bytes
turn {
  choose k from [0, 1, 2] as "pick"
  if k == 0 { small = 127 }
  if k == 1 { small = -100 }
  if k == 2 { small = 0 far = 40000 }
  big = big * 1024
}
end when big > 1000000000000000
"""


def test_a_variable_has_the_range_of_every_value_assigned_to_it():
    fast, _plain = from_source(NARROW)
    ranges = var_ranges(fast, fast.facts)
    assert ranges["small"] == (-100, 127) and ranges["far"] == (0, 40000)
    assert "big" not in ranges   # (big * 1024: what big is, the rules say only as they run)


@needs_kernel
def test_values_at_the_ends_of_a_range_and_beyond_32_bits_are_kept_exactly():
    fast, plain = from_source(NARROW)
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    for i, small in ((0, 127), (1, -100), (2, 0), (0, 127), (1, -100)):
        a.apply(i, safe=False)
        b.apply(i, safe=False)
        assert a.live and kernel_difference(a.kernel_state(), b) is None
        mine = a.kernel_state()["vars"]
        assert mine["small"] == small
        if not b.over:   # the state saved and loaded again into a kernel: the same values
            again = fast.resume(a.copy().state)
            assert again.go_live() and again.kernel_state()["vars"] == mine
    assert a.live and a.over and b.over and a.result == b.result
    assert a.kernel_state()["vars"]["big"] == 1024 ** 5 and a.kernel_state()["vars"]["far"] == 40000
    assert fast.native_fallbacks == 0   # the kernel played every move: nothing failed to fit


@needs_kernel
@pytest.mark.parametrize("var,value,loads", [("small", 127, True), ("small", -100, True), ("small", 128, False),
                                             ("small", -101, False), ("far", 40001, False),
                                             ("big", (1 << 40) + 3, True)])
def test_a_saved_value_beyond_the_range_is_played_by_python(var, value, loads):
    fast, plain = from_source(NARROW)
    state = plain.new_game(2, 0).state
    state["vars"][var] = value
    a, b = fast.resume(state), plain.resume(state)
    assert a.go_live() == loads
    a.apply(2, safe=False)
    b.apply(2, safe=False)
    assert a.state == b.state


# A decision inside a procedure's loop: two frames at rest (the turn's, the procedure's),
# each with a loop's index; a roll in the variant that draws.
DEEP = """ruleset deep
players 2..2
var total: int = 0
procedure add(xs: list of int) {
  for x in xs {
    choose k from [x, x + 10] as "add"
    total = total + k
  }
}
turn {
  DRAW
  call add([1, 2, 3])
}
end when total > 60
"""


def _source(text: str) -> str:
    from meeple.interpreter.native.kernel import Gen
    fast, _plain = from_source(text)
    return Gen(fast).source()


def test_a_loop_index_is_kept_in_4_bytes_and_chance_fields_only_where_a_statement_draws():
    plain = _source(DEEP.replace("DRAW", ""))
    add = next(line for line in plain.splitlines() if line.startswith("struct Locals0 {"))   # (add's locals)
    assert "NInt<0LL, 2147483646LL>" in add   # (the loop's index, LOOP_INDEX)
    # (no random statement: the chance steps' outcomes, step and cursor in no byte)
    assert "[[no_unique_address]] NoTaken taken; [[no_unique_address]] NoStep step;" in plain
    assert "[[no_unique_address]] Always<0> nchance, used, step_n;" in plain and "Frames<Frame> stack;" in plain
    drawn = _source(DEEP.replace("DRAW", "roll d from [1, 2, 3, 4, 5, 6] total = total + d"))
    assert "std::vector<int> taken; PyRef step;" in drawn and "I nchance = 0; int used = 0; int step_n = 0;" in drawn


# Two procedures with locals of their own: a frame holds those of its procedure alone.
TWO = """ruleset two
players 2..2
var total: int = 0
procedure add(xs: list of int) {
  for x in xs {
    choose k from [x, x + 10] as "add"
    total = total + k
  }
}
turn {
  let a = total
  let b = [total, 1]
  call add(b)
  if total == a { total = total + 1 }
}
end when total > 60
"""


def test_a_frame_holds_the_locals_of_its_own_procedure_alone():
    lines = _source(TWO).splitlines()
    add, turn = (next(line for line in lines if line.startswith(f"struct Locals{k} {{")) for k in (0, 1))
    assert "uL0_xs;" in add and "uL0_k;" in add and "uL1_" not in add
    assert "uL1_a;" in turn and "uL1_b;" in turn and "uL0_" not in turn
    frame = next(line for line in lines if line.startswith("struct Frame {"))
    # (one procedure's locals or another's, in the same bytes: the frame is as large as the
    # larger, not as both; the steps and calls of a run are no state's)
    assert frame.startswith("struct Frame { union { Locals0 l0; Locals1 l1; }; int proc;")
    assert '  [[gnu::visibility("hidden")]] static inline I depth = 0, steps = 0, peak = 0;' in lines


@needs_kernel
def test_a_frame_of_each_procedure_is_copied_resumed_and_played_as_python():
    fast, plain = from_source(TWO)
    a, b = fast.new_game(2, 1), plain.new_game(2, 1)
    rnd = random.Random(4)
    while not b.over:
        twin = a.copy()   # (two frames, of two procedures: copied, moved into a buffer, dropped)
        before = twin.kernel_state()
        again = fast.resume(a.copy().state)   # (read from Python's state: work spent aside)
        assert again.go_live() and again.kernel_state()["stack"] == before["stack"] == a.kernel_state()["stack"]
        assert before == a.kernel_state()
        i = rnd.randrange(b.move_count())
        a.apply(i, safe=False)
        b.apply(i, safe=False)
        assert a.live and kernel_difference(a.kernel_state(), b) is None
        assert twin.kernel_state() == before
    assert a.over and a.result == b.result and fast.native_fallbacks == 0


# Chips taken from anywhere in piles, the middle ones too, and asked where they are: a
# zone's ends hold the zone, an item finds it at the nearer end (kernel_zones.hpp, Zones).
PILES = """ruleset piles
players 2..2
kind Chip { }
board table: cells { p1(n: 1) p2(n: 2) p3(n: 3) p4(n: 4) } holds Chip
zone box: Chip
deck chips into box { 12 of Chip() }
var moved: int = 0
setup {
  for c in cells(table) {
    for i in 1..3 { move top(box) to c }
  }
}
turn {
  choose x from items(first(c for c in cells(table) if size(c) == max(size(d) for d in cells(table)))) as "take"
  let here = cell_of(x, table)
  choose to from [c for c in cells(table) if c != here] as "put"
  move x to to
  if bottom(to) == x or top(here) == x { moved = moved + 2 } else { moved = moved + 1 }
}
end when moved >= 30
score(p) = sum(cell_of(x, table).n for x in items(cells(table)[seat(p)]))
"""


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_items_taken_from_the_middle_of_piles_are_found_where_python_finds_them(seed):
    fast, plain = from_source(PILES)
    a, b = fast.new_game(2, seed), plain.new_game(2, seed)
    rnd = random.Random(seed)
    while not b.over:
        assert a.live and kernel_difference(a.kernel_state(), b) is None
        i = rnd.randrange(b.move_count())
        a.apply(i, safe=False)
        b.apply(i, safe=False)
    assert a.over and a.result == b.result and fast.native_fallbacks == 0


@needs_kernel
@pytest.mark.parametrize("draw", ["", "roll d from [1, 2, 3, 4, 5, 6] total = total + d"])
def test_copies_of_a_state_with_two_frames_are_independent(draw):
    # (the first frame lies in the state, the second in a buffer of its own: a copy
    # changed, the original, its earlier copy and Python's game stay as they were)
    fast, plain = from_source(DEEP.replace("DRAW", draw))
    a, b = fast.new_game(2, 3), plain.new_game(2, 3)
    for n in range(40):
        if b.over:
            break
        twin = a.copy()
        before = a.kernel_state()
        twin.apply(1, safe=False)
        if not twin.over:
            twin.copy().apply(0, safe=False)
        assert a.kernel_state() == before and len(before["stack"]) == 2
        a.apply(n % 2, safe=False)
        b.apply(n % 2, safe=False)
        assert a.live and kernel_difference(a.kernel_state(), b) is None
    assert b.over and a.over and a.result == b.result
    assert fast.native_fallbacks == 0
