"""The fast code of an expression that reads zones' top items many times in its loops
reads them from a table of every zone's top made once before its statements (issue 13,
codegen.tabulate_tops); where the reads would not pay for the table, and in rule
functions (made at every call), it reads the zones. The same values, the same work
budget, the same errors as the straightforward code."""
from __future__ import annotations

import json
from pathlib import Path

from lockstep import play_both
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, RuleError, compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent

RULES = """ruleset tops
players 2..2
kind Stone { seat: int }
board g: grid(rows: 4, cols: 5) holds Stone
zone pool: Stone
deck stones into pool { 20 of Stone(seat: s) for s in 1..2 }
var x: int = 0
var y: int = 0
var z: int = 0
var w: bool = false
function crowded(c: g): bool =
  count(d for d in cells(g) if occupied(d) and top(d).seat == top(c).seat) > 2
function crowds(): int = count(c for c in cells(g) if occupied(c) and crowded(c))
"""

# a turn puts a stone on an empty cell, then reads the tops: x in nested loops over the
# board (a table pays), y in one loop (it does not), z through functions
TURN = """turn {
  choose c from [c for c in cells(g) if empty(c)] as "put"
  move first(m for m in items(pool) if m.seat == seat(active)) to c
  x = count(c for c in cells(g) if occupied(c) and count(d for d in cells(g) if occupied(d) and top(d).seat == top(c).seat) > 2)
  y = count(c for c in cells(g) if occupied(c) and top(c).seat == 1)
  z = crowds() + count(c for c in cells(g) if occupied(c) and crowded(c))
  w = all(any(occupied(d) and top(d).seat == top(c).seat for d in cells(g)) for c in cells(g) if occupied(c))
}
end when count(c for c in cells(g) if empty(c)) < 4
score(p) = 0
"""


def program(monkeypatch, text: str, optimize: bool = True, work: int | None = None):
    """The rules for two players, the fast code strict (no second chance with the
    straightforward code) unless ``optimize`` is off."""
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    try:
        src = SourceSet(base=parse(text, "tops.meeple"), sources={"tops.meeple": text})
        return compile_sources(src, budgets=None if work is None else Budgets(work=work)).for_players(2)
    finally:
        monkeypatch.setattr(codegen, "STRICT", False)
        monkeypatch.setattr(codegen, "OPTIMIZE", True)


def tabulated(prog) -> dict[str, bool]:
    """Per generated function of the program (an expression's ``<line N>``, a rule
    function's name), whether it makes the table of tops."""
    found = {}
    for name, fn in prog.ns.items():
        if name.startswith(("FAST_", "F_")) and hasattr(fn, "__code__"):
            key = fn.__code__.co_filename if name.startswith("FAST_") else name
            found[key] = found.get(key, False) or "T_" in fn.__code__.co_varnames
    return found


def line_of(text: str, start: str) -> str:
    return f"<line {next(i for i, s in enumerate(text.splitlines(), 1) if s.strip().startswith(start))}>"


def test_an_expression_reading_tops_in_nested_loops_reads_them_from_a_table(monkeypatch):
    text = RULES + TURN
    made = tabulated(program(monkeypatch, text))
    assert made[line_of(text, "x = ")]
    # one loop over 20 cells: 20 reads do not pay for a table of 21 zones
    assert not made[line_of(text, "y = ")]
    # nor loops that stop at the first cell found (any, all)
    assert not made[line_of(text, "w = ")]
    # a rule function would make it at every call
    assert not made["F_crowds"] and not made["F_crowded"]
    # a function's body written in the expression in place of its call: the expression's
    assert made[line_of(text, "z = ")]
    # without the table, the same reads of the zones
    assert not any(tabulated(program(monkeypatch, text, optimize=False)).values())


def outcome(monkeypatch, text: str, optimize: bool, work: int | None = None, puts=(0,)):
    """The variables after turns putting stones on the given empty cells, or the error."""
    prog = program(monkeypatch, text, optimize, work)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    try:
        game = prog.new_game(2, seed=1)
        for put in puts:
            seat = game.deciding[0]
            game.apply(game.legal_moves(seat)[put], seat=seat)
        return json.loads(json.dumps(game.state))["vars"]
    except RuleError as e:
        return str(e), e.rule, e.span
    finally:
        monkeypatch.setattr(codegen, "STRICT", False)


def test_the_table_gives_what_the_zones_give(monkeypatch):
    puts = (0, 0, 3, 5, 1, 0, 2)
    fast = outcome(monkeypatch, RULES + TURN, True, puts=puts)
    assert fast == outcome(monkeypatch, RULES + TURN, False, puts=puts)
    assert fast["x"] == 7 and fast["z"] == 2 * 7 and fast["y"] == 4 and fast["w"]


def test_random_games_play_the_same_with_the_table(monkeypatch):
    fast, plain = program(monkeypatch, RULES + TURN), program(monkeypatch, RULES + TURN, optimize=False)
    monkeypatch.setattr(codegen, "STRICT", True)
    assert sum(play_both(fast, plain, 2, seed, 40) for seed in range(4)) > 20


def least_work(monkeypatch, text: str, puts, optimize: bool) -> int:
    """The smallest work budget with which the code plays the turns."""
    low, high = 1, 1 << 16
    assert isinstance(outcome(monkeypatch, text, optimize, high, puts), dict)
    while low < high:
        mid = (low + high) // 2
        if isinstance(outcome(monkeypatch, text, optimize, mid, puts), dict):
            high = mid
        else:
            low = mid + 1
    return low


def test_the_work_budget_counts_the_same_with_the_table(monkeypatch):
    text = RULES + TURN.replace("  y = ", "  x = x + count(m for m in items(pool))\n  y = ")
    assert tabulated(program(monkeypatch, text))[line_of(text, "x = count(c")]
    puts = (0, 0, 1, 0, 2)  # three stones of the first seat, two of the second
    least = least_work(monkeypatch, text, puts, True)
    # (the fast code counts what the straightforward code counts, core/facts.py)
    assert 0 < least == least_work(monkeypatch, text, puts, False)
    enough = outcome(monkeypatch, text, True, least, puts)
    assert enough == outcome(monkeypatch, text, False, puts=puts) and enough["x"] == 3 + 35
    short = outcome(monkeypatch, text, True, least - 1, puts)
    assert not isinstance(short, dict) and "'work' budget" in short[0]
    # the fast code without the table: the same least budget, the same error below it
    monkeypatch.setattr(codegen, "tabulate_tops", lambda *args: None)
    assert not tabulated(program(monkeypatch, text))[line_of(text, "x = count(c")]
    assert least_work(monkeypatch, text, puts, True) == least
    assert outcome(monkeypatch, text, True, least - 1, puts) == short


def test_an_error_after_the_reads_is_the_same_with_the_table(monkeypatch):
    # a division by zero in the inner loop, once the first stone is down
    text = RULES + TURN.replace("top(d).seat == top(c).seat) > 2", "top(d).seat / (top(c).seat - 1) == 1) > 2")
    assert tabulated(program(monkeypatch, text))[line_of(text, "x = count(c")]
    fast, plain = outcome(monkeypatch, text, True), outcome(monkeypatch, text, False)
    assert fast == plain and "division by zero" in plain[0]


def test_a_bundled_expression_of_nested_loops_reads_the_table_and_plays_the_same(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load("cherokee").for_players(3)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    fast = interpreter.load("cherokee").for_players(3)
    assert any(tabulated(fast).values())
    assert not any(tabulated(interpreter.load(str(ROOT / "tests" / "testdata" / "ttt")).for_players(2)).values())
    monkeypatch.setattr(codegen, "STRICT", True)
    assert play_both(fast, plain, 3, 1, 60) > 20
