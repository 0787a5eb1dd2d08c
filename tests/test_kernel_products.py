"""A decision's options kept as a product in a kernel (interpreter/native/kernel_products.py,
issue 36): where the options are a comprehension whose later loops walk lists of sizes
known before anything runs (an enum's values, a range of literals, a list of constant
numbers), each maybe under a condition that reads no later loop's variable, the kernel
keeps the first loop's values the conditions let through and makes an option only where
it is asked for (a random game's move, ``options()``, the whole list for ``export()``).
The same moves, states, work and calls as Python's, move by move; the same playouts; a
state loaded from Python at such a decision plays on; options of any other form are made
whole as before."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    in_turns_with_a_copy,
    kernel_difference,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    program_of,
)

from meeple import interpreter

pytestmark = pytest.mark.kernels

PENTAGO = str(Path(__file__).resolve().parent / "testdata" / "pentago")

# mark: a condition between loops (a function's), a range under it (counted by its
# evaluation and by its loop), a list of numbers written out (counted by nothing), a
# constant part; add: a range first, an enum's values under a negated condition, a
# condition after the loops (evaluated once per combination: its calls counted so);
# pair: a later loop that reads an earlier one (no product: made whole)
RULES = """ruleset products
players 2..2
enum Side { h, v }
kind M { seat: int }
var marks: list of int = [0 for k in 1..9]
var total: int = 0
var last: int = 0
board b: grid(rows: 3, cols: 3) holds M
function index(c: b): int = (c.row - 1) * 3 + c.col - 1
function free(c: b): bool = marks[index(c)] == 0
function odd(k: int): bool = k % 2 == 1
function low(): bool = total < 60
turn {
  choose (c, _, k, w) from [(c, "at", k, w) for c in cells(b) if free(c) for k in 1..2 for w in [3, 5]] as "mark"
  marks[index(c)] = seat(active)
  last = index(c) * 10 + k * w
  choose (n, s) from [(n, s) for n in 1..4 for s in (if odd(n + total) then [] else Side) if low()] as "add"
  total = total + n + (if s == h then 1 else 0)
  choose (j, m) from [(j, m) for j in 1..2 for m in j..3] as "pair"
  last = last + j * m
}
end when all(not free(c) for c in cells(b)) or total >= 60
score(p) = total + last * seat(p)
"""


def compiled(native: bool):
    return program_of(RULES, "products.meeple", native)


@needs_kernel
def test_options_of_later_loops_of_known_sizes_are_kept_as_a_product():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(compiled(False)).source()
    # (mark and add: their first loops' values kept; pair: its later list reads j)
    assert len(re.findall(r"static Tup<[^>]*> product_\d+\(const St& s, size_t i\)", source)) == 2
    assert "COUNTED = (long long)lz_.size() * 4;" in source and "COUNTED = (long long)lz_.size() * 2;" in source
    # (the range under the condition counted twice for each cell, the list written out not at all)
    assert re.search(r"if \(\(uF_free\(s, uV\d+_c\)\)\) \{ W\(s, 4\); uV\d+_out\.push_back", source)
    # (the condition after the loops: its calls counted for each of the 2 values of Side)
    assert "counted_again(s, 1, [&]() -> bool { return uF_low(s); })" in source
    pentago = kernel.Gen(interpreter.load(PENTAGO).for_players(2)).source()
    assert "COUNTED = (long long)lz_.size() * 8;" in pentago and "product_all_0(s)" in pentago


@needs_kernel
def test_options_kept_as_a_product_play_as_python_move_by_move():
    fast, plain = compiled(True), compiled(False)
    # (states, the options' count and the results; the work and calls of every move)
    assert kernel_plays_as_python(fast, plain, 4) > 4 * 6
    for seed in range(3):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            assert (a.work_spent, a.calls_spent) == (b.work_spent, b.calls_spent)
            i = rnd.randrange(b.move_count())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert a.result == b.result and a.live
    # (games in turns, then a copy beside them: the values a state keeps are its own)
    in_turns_with_a_copy(fast, plain, 4)
    # (a perft counts a product's options without making them: COUNTING)
    assert [interpreter.perft(fast.new_game(2, 0), d) for d in (1, 2, 3)] == \
        [interpreter.perft(plain.new_game(2, 0), d) for d in (1, 2, 3)]
    assert fast.native_fallbacks == 0


@needs_kernel
def test_options_kept_as_a_product_give_python_s_playouts():
    kernel_playouts_as_python(compiled(True), compiled(False), 12, 3)


@needs_kernel
def test_a_state_loaded_at_such_a_decision_reads_its_options_whole():
    # (Python's state holds the options whole: the kernel's load keeps no product, and
    # plays on from the list it was given)
    fast, plain = compiled(True), compiled(False)
    b = plain.new_game(2, 1)
    b.apply(5)   # (mark: then add, a product, pending)
    a = fast.resume(json.loads(b.to_json()))
    assert a.state == b.state and [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
    rnd = random.Random(2)
    while not b.over:
        i = rnd.randrange(b.move_count())
        a.apply(i, safe=False)
        b.apply(i, safe=False)
        assert a.live and kernel_difference(a.kernel_state(), b) is None
    assert a.result == b.result
