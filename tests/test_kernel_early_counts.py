"""A count compared with a number stops once the comparison is decided, in a kernel
(interpreter/native/kernel_early.py: a row of 4 cells, ``count(...) == 4``, stops at the
first cell that is not the player's; a column of 3 is counted whole, SHORT): the same
values, the same work counted and the same errors as Python's, which counts every element."""
from __future__ import annotations

import random
import re

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python, kernel_plays_as_python, work_counted_as_python
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.core.facts import Facts
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = pytest.mark.kernels

# each comparison a count may stop early for, both ways round, over a board's cells (by
# their static part too), a range and a rule function's condition; and counts that must
# not stop: a condition that may fail, one that counts work
RULES = """ruleset early
players 2..2
kind Disc { seat: int }
board b: grid(rows: 3, cols: 4) holds Disc
zone box: Disc
deck discs into box { Disc(seat: s) for s in 1..2 for i in 1..6 }
var marks: int = 0
var ahead: player = none
function mine(c: b, p: player): bool = occupied(c) and top(c).seat == seat(p)
function full(r: int, p: player): bool = count(c for c in cells(b) if c.row == r and mine(c, p)) == 4
function held(p: player): int = count(c for c in cells(b) if mine(c, p))
function risky(s: int): bool = count(c for c in cells(b) if c.col == 1 and top(c).seat == s) > 0
function walked(k: int): bool = count(r for r in 1..3 if full(r, players[k])) > 0
function column(k: int, p: player): bool = count(c for c in cells(b) if c.col == k and mine(c, p)) == 3
turn {
  choose x from [c for c in cells(b) if empty(c)] as "drop"
  move first(d for d in items(box) if d.seat == seat(active)) to x
  marks = (if count(c for c in cells(b) if mine(c, active)) == 3 then 1 else 0)
        + (if count(c for c in cells(b) if mine(c, active)) != 2 then 2 else 0)
        + (if count(c for c in cells(b) if empty(c)) > 5 then 4 else 0)
        + (if 2 <= count(c for c in cells(b) if c.col == 2 and occupied(c)) then 8 else 0)
        + (if count(c for c in cells(b) if c.col <= 2 and mine(c, active)) < 2 then 16 else 0)
        + (if count(k for k in 1..4 if mine(cell(b, row: 3, col: k), active)) <= 1 then 32 else 0)
        + (if 0 < count(c for c in cells(b) if c.row == 1 and not mine(c, active)) then 64 else 0)
        + (if count(c for c in cells(b) if occupied(c)) >= 7 then 128 else 0)
        + (if ahead != none and count(c for c in cells(b) if mine(c, ahead)) == 0 then 256 else 0)
        + (if walked(0) then 512 else 0)
        + (if count(c for c in cells(b) if c.col == 1 and occupied(c)) == 3 and risky(1) then 1024 else 0)
        + (if column(2, active) or column(3, active) then 2048 else 0)
  if held(active) > held(players[1 - seat(active) + 1]) { ahead = active }
}
end when count(c for c in cells(b) if empty(c)) == 0 or count(r for r in 1..3 if full(r, players[0])) > 0
score(p) = count(c for c in cells(b) if mine(c, p) and c.row == 3)
"""
EARLY = re.compile(r"I uV\d+_h = 0[,;]")


def compiled(native: bool, budgets=None, rules: str = RULES):
    src = SourceSet(base=parse(rules, "early.meeple"), sources={"early.meeple": rules})
    prog = compile_sources(src, budgets=budgets) if budgets is not None else compile_sources(src)
    if native:
        assert prog.use_native(report=False, kernel_only=True)
    return prog.for_players(2)


def test_counts_compared_with_numbers_stop_where_nothing_they_skip_could_tell(monkeypatch):
    # (mine's counts are the bits of the index by the top's seat, kernel_tops.py: off here,
    # the loops that stop are written as they would be without it)
    monkeypatch.setattr(Facts, "top_value", lambda *a: None)
    monkeypatch.setattr(Facts, "cell_test", lambda *a: None)
    source = kernel.Gen(compiled(False)).source()
    # (full and held, the end test's empty cells, the turn's comparisons but the one
    # over cells that may be none and those over a column's 3 cells, and the score's)
    assert EARLY.search(function_text(source, "full"))
    assert len(EARLY.findall(source)) >= 9
    # (a player from outside the loop is checked before it: where it is none, Python
    # plays the move, as it would fail on seat(none) at a cell held)
    assert "(void)nn(" in function_text(source, "full")
    # a condition that may fail (the top of an empty cell): every element tested
    assert not EARLY.search(function_text(source, "risky"))
    # a condition that counts work (full's loop): every element tested, the work counted
    assert not EARLY.search(function_text(source, "walked"))
    # a column's 3 cells (SHORT): counted whole, no branch that stops the loop
    assert not EARLY.search(function_text(source, "column"))
    assert "_n += (I)(bool)((uF_mine(" in function_text(source, "column")


@needs_kernel
def test_a_game_of_such_counts_stays_python_s_after_every_move():
    fast, plain = compiled(True), compiled(False)
    marks = set()
    kernel_plays_as_python(fast, plain, 12, each=lambda game, i: marks.add(game.state["vars"]["marks"]))
    assert len(marks) > 12   # (the comparisons both ways)


@needs_kernel
def test_a_batch_of_such_games_is_the_reference_s():
    kernel_playouts_as_python(compiled(True), compiled(False), 60, seed=3)


@needs_kernel
def test_the_work_counted_is_python_s():
    work_counted_as_python(compiled, 6, 2000)


# (after the first move's choice, before its disc is put: the third row is empty)
FIRST = 'as "drop"\n  marks = if {} then 1 else 0'


@needs_kernel
@pytest.mark.parametrize("test, fails", [
    # the first cell of the row decides, a later one is the top of an empty cell: Python
    # fails there, so must the kernel (no value)
    ("count(c for c in cells(b) if c.row == 3 and (c.col == 1 or top(c).seat == 9)) > 0", True),
    # a player that is none, whose seat no cell asks for (all empty): the value
    ("count(c for c in cells(b) if c.row == 3 and mine(c, ahead)) == 0", False),
])
def test_a_count_that_skips_what_python_would_fail_on_is_python_s(test, fails):
    rules = RULES.replace('as "drop"', FIRST.format(test), 1)
    fast, plain = compiled(True, rules=rules), compiled(False, rules=rules)
    a, b = fast.new_game(2, 1), plain.new_game(2, 1)
    i = random.Random(1).randrange(b.move_count())
    if fails:
        with pytest.raises(interpreter.RuleError) as want:
            b.apply(i)
        with pytest.raises(interpreter.RuleError) as got:
            a.apply(i)
        assert str(got.value) == str(want.value)
    else:
        a.apply(i)
        b.apply(i)
        assert a.state == b.state
