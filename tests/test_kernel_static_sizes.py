"""The size of a static list (a board's cells, a kind's items, a constant list: a
static table of the kernel, kernel_tables.py) written out as a number where a loop
over it counts its work (``Tables.size_of``), so the compiler folds the work a rule
function counts: tic-tac-toe's win test counted its lines' work with the cells'
size read from memory each time (3-4% of a game's time, docs/performance.md). A list
the state holds is still asked its size. The kernel's games and work stay Python's,
and the budget runs out at the same move."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import compiler, games_and_work_as_python
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

# (tic-tac-toe as the test data writes it, with a list the state holds counted too)
RULES = """ruleset sizes
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 3) holds Mark
zone supply: Mark
deck marks into supply { 5 of Mark(seat: s) for s in 1..2 }
function mine(c: b, p: player): bool = occupied(c) and top(c).seat == seat(p)
function full_row(p: player): bool = count(r for r in 1..3 if count(c for c in cells(b) if c.row == r and mine(c, p)) == 3) > 0
function full_col(p: player): bool = count(k for k in 1..3 if count(c for c in cells(b) if c.col == k and mine(c, p)) == 3) > 0
function won(p: player): bool = full_row(p) or full_col(p)
function left(p: player): int = count(m for m in items(supply) if m.seat == seat(p))
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
}
end when won(players[0]) or won(players[1]) or count(c for c in cells(b) if empty(c)) == 0
score(p) = if won(p) then 1 + left(p) else 0
"""

compiled = compiler(RULES, "sizes.meeple")


def _fn(source: str, name: str) -> str:
    return next(line for line in source.split("\n")
                if line.startswith((f"static bool {name}(", f"static I {name}(")) and not line.endswith(";"))


def test_the_work_over_a_static_list_is_a_number():
    source = kernel.Gen(compiled(False)).source()
    for name in ("uF_full_row", "uF_full_col"):
        body = _fn(source, name)
        assert "tw_ += (size_t)9;" in body, name
        assert not re.search(r"tw_ \+= uV\d+_xs\.size\(\)", body), name
    # (the empty cells listed and counted: their work a number; drawn from their bits,
    # kernel_bit_picks.py, or, with more than twice as many marks as cells, listed, the
    # list's room a number too)
    assert source.count("W(s, (size_t)9);") >= 2 and "+ nth_set(uV" in source
    many = kernel.Gen(compiler(RULES.replace("5 of Mark", "10 of Mark"), "many.meeple")(False)).source()
    assert many.count("W(s, (size_t)9);") >= 2 and "+ nth_set(uV" not in many
    assert re.search(r"\.resize\(\(size_t\)9\)", many)


def test_a_list_the_state_holds_is_asked_its_size():
    body = _fn(kernel.Gen(compiled(False)).source(), "uF_left")
    assert "s.z.size(" in body and "(size_t)10" not in body


@needs_kernel
def test_static_sizes_give_python_s_games_and_work():
    games_and_work_as_python(compiled, 40, 1, 7, 1 << 12)
