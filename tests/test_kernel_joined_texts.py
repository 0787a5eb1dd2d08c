"""Texts joined by ``+`` in a kernel (interpreter/native/cxx/kernel_texts.hpp: scatn):
one text made of its parts, the work counted as Python counts it (each ``+`` the
characters of both its sides), whether the parts are ASCII (each byte a character,
tested once for the whole) or not (ü, 漢: characters counted part by part), short (made
from the stack) or long; a part ``if c then x else y`` read where it is. The same moves,
in the same order, as Python."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    program_of,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset joined
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var said: str = ""
function tag(c: b): str = if c.row == 1 then "ü" elif c.row == 2 then "漢字" else "x"
function long(c: b): str = if c.col == 3 then "a text longer than sixty-four bytes, made on the heap, not the stack" else ""
function name(c: b): str =
  c.name + "-" + tag(c) + (if c.col == 1 then "" else ":" + c.name) + long(c)
  + (if size(supply) == 12 then "" elif c.col == 2 then "漢字ü" else "!漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字ü漢字漢字漢字漢字漢字")
turn {
  let names = [name(c) for c in cells(b) if empty(c)]
  let cs = [c for c in cells(b) if empty(c)]
  choose n from names as "mark"
  let i = first(j for j in 0..(size(names) - 1) if names[j] == n)
  move first(m for m in items(supply) if m.seat == seat(active)) to cs[i]
  said = said + n
}
end when size(supply) == 0
score(p) = count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p) and c.row == 1)
  + (if said == "" then 1 else 0)
"""


compiled = compiler(RULES, "joined.meeple")


def test_a_part_taken_under_a_condition_is_read_where_it_is():
    source = kernel.Gen(compiled(False)).source()
    assert "? static_cast<const Str&>(" in source


def test_the_parts_never_none_are_read_with_no_test_for_none():
    """A text written in the rules, a cell's name, a join, and a choice between them are
    given to the join as never none (kernel_text_parts.py); a function's text is tested."""
    source = kernel.Gen(compiled(False)).source()
    name = source[source.index("uF_name(St& s, Id uA_c) {"):].split("\n")[0]
    assert name.count("sure(") == 12 and name.startswith("uF_name(St& s, Id uA_c) { return scatn(s, sure(T")
    assert "sure(uF_" not in source   # (tag(c), long(c): functions, their texts tested)


@needs_kernel
def test_its_games_are_python_s():
    kernel_playouts_as_python(compiled(True), compiled(False), 12, seed=3)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 5, 1 << 14)
    fast, python = compiled(True), compiled(False)
    for seed in range(4):   # (each move's work, as the kernel counts it, as Python does)
        a, b = fast.new_game(2, seed), python.new_game(2, seed)
        spent = []
        while not b.over:
            i = len(spent) % b.move_count()
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            spent.append((a.work_spent, b.work_spent))
        assert all(x == y for x, y in spent) and a.over, spent


# options that are short texts (at most 7 bytes, as a move's name "e7-e8=Q"): sorted
# by their bytes as numbers with their places (cxx/kernel_rt.hpp: ordered_short_texts),
# each once, as Python orders them: a text before the longer ones it begins, an empty
# one first, é (bytes above 0x7f) after ASCII; a list with a longer one is sorted as before
SHORT = """ruleset short_texts
players 2..2
kind Mark { seat: int }
board b: grid(rows: 2, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 4 of Mark(seat: s) for s in 1..2 }
function word(c: b): str =
  if c.col == 1 then "b" elif c.col == 2 then "ab" elif c.col == 3 then "a" + c.name else "abcdefg"
function extra(): list of str = if size(supply) % 2 == 0 then ["", "é", "a", "b"] else ["abcdefgh", "é"]
turn {
  let cs = [c for c in cells(b) if empty(c)]
  let names = [word(c) for c in cs] + extra()
  choose n from names as "say"
  let i = first(j for j in 0..(size(names) - 1) if names[j] == n)
  move first(m for m in items(supply) if m.seat == seat(active)) to cs[i % size(cs)]
}
end when size(supply) == 0
score(p) = count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p) and c.col == 1)
"""


def short(native: bool):
    return program_of(SHORT, "short.meeple", native)


@needs_kernel
def test_short_texts_are_ordered_as_python_orders_them():
    fast, python = short(True), short(False)
    a, b = fast.new_game(2, 1), python.new_game(2, 1)
    first = [m.notation for m in a.legal_moves()]
    assert first == [m.notation for m in b.legal_moves()]
    assert first == [f"say {x}" for x in sorted({"b", "ab", "abcdefg", "", "é", "a", "ar1c3", "ar2c3"})]
    kernel_plays_as_python(fast, python, 6)
    kernel_playouts_as_python(fast, python, 12, seed=3)
