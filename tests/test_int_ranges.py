"""Arithmetic the fast code knows the range of (issue 13 §2): where an integer expression's
least and most value follow from the ruleset alone (literals, seats, the number of
players, static coordinates of a board's cells, and what arithmetic, abs, min, max, a
choice and rule functions make of them), the fast code multiplies, divides and indexes a
board's cells with Python's operators, without the helper that checks the integer
budget, a division by zero or an index outside the list (codegen.ExprCompiler._int_range).
Elsewhere it keeps the helper, and every error reads as without the fast code."""
from __future__ import annotations

import json
import types

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.compiler import codegen

GRID = """ruleset ranges
players 2..3
kind Stone { }
board b: grid(rows: 3, cols: 4) holds Stone
var x: int = 0
var big: int = 1
function at(c: int, r: int): b = cells(b)[(3 - r) * 4 + c - 1]
function far(p: player): int = 5 * seat(p) - player_count() * 2
function mid(c: b): int = (c.row + c.col) / 2 + abs(c.row - c.col) % 3
function pick(p: player): int = (if seat(p) == 1 then 7 else -7) * max(2, 1) / min(seat(p), 9)
function grow(k: int): int = k * k
function half(k: int): int = 12 / k
function same(c: b): bool = c == at(c.col, 4 - c.row)
"""


def program(monkeypatch, rules: str, optimize: bool, players: int = 2, strict: bool = False):
    text = GRID + rules
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", strict)
    src = SourceSet(base=parse(text, "ranges.meeple"), sources={"ranges.meeple": text})
    return compile_sources(src).for_players(players)


def outcome(prog, players: int = 2):
    try:
        return json.dumps(prog.new_game(players, seed=1).state["vars"], sort_keys=True)
    except RuleError as e:
        return str(e), e.rule, e.span


def both(monkeypatch, rules: str, players: int = 2):
    """The game's variables (or its error) with the fast code and without, and the fast
    program. Where the game has no error, the fast code is strict: where it fails, the
    game fails (it does not run the straightforward code again); an error reads as the
    player sees it, where the straightforward code ran again to locate it."""
    fast = program(monkeypatch, rules, True, players, strict=True)
    if not isinstance(outcome(fast, players), str):
        fast = program(monkeypatch, rules, True, players)
    got = outcome(fast, players)
    plain = outcome(program(monkeypatch, rules, False, players), players)
    monkeypatch.setattr(codegen, "STRICT", False)
    return got, plain, fast


def names_read(prog, function: str) -> set[str]:
    """The global names a rule function's fast code reads (its nested code included)."""
    out, todo = set(), [prog.ns[f"F_{function}"].__code__]
    while todo:
        code = todo.pop()
        out |= set(code.co_names)
        todo += [k for k in code.co_consts if isinstance(k, types.CodeType)]
    return out


def test_bounded_arithmetic_is_python_s_and_gives_the_same_values(monkeypatch):
    rules = ("turn {\n  x = far(active) * 100 + mid(at(4, 3)) * 10 + pick(active) + at(2, 1).col\n}\n"
             "end when x != 0\n")
    for players in (2, 3):
        fast, plain, prog = both(monkeypatch, rules, players)
        # far: 5 - 2 * players; mid of the cell of row 1, column 4: 5 / 2 + 3 % 3;
        # pick: 7 * 2 / 1; the cell of row 3, column 2
        assert fast == plain and json.loads(fast)["x"] == 100 * (5 - 2 * players) + 20 + 14 + 2
        for f in ("far", "mid", "pick"):
            assert not names_read(prog, f) & {"_mul", "_div", "_mod"}, f


def test_an_index_computed_from_bounded_values_reads_the_right_cell(monkeypatch):
    # every cell, by its column and row, through at() written in place with the cell's
    # coordinates (1..4, 1..3): an index always inside the board's cells
    rules = "turn {\n  x = count(c for c in cells(b) if same(c))\n}\nend when x != 0\n"
    fast, plain, prog = both(monkeypatch, rules)
    assert fast == plain and json.loads(fast)["x"] == 12
    assert "_index" not in names_read(prog, "same") and "_index" in names_read(prog, "at")


def test_unbounded_arithmetic_keeps_its_checks(monkeypatch):
    # a parameter (any integer) or a variable of the game: the helpers stay, and their
    # errors read the same with the fast code
    rules = "turn {\n  x = grow(big) + half(big)\n}\nend when x != 0\n"
    fast, plain, prog = both(monkeypatch, rules)
    assert fast == plain
    assert "_mul" in names_read(prog, "grow") and "_div" in names_read(prog, "half")
    for rules, says in (("turn {\n  x = grow(1000000000000)\n}\nend when x != 0\n", "integer"),
                        ("turn {\n  x = half(0)\n}\nend when x != 0\n", "division by zero"),
                        ("turn {\n  x = at(5, 1).row\n}\nend when x != 0\n", "outside a list")):
        fast, plain, _ = both(monkeypatch, rules)
        assert fast == plain and says in plain[0], rules


def test_a_divisor_whose_range_holds_zero_is_checked(monkeypatch):
    # seat(p) - 1 is 0 for the first player: the division keeps its check
    rules = ("function split(p: player): int = 6 / (seat(p) - 1) + 6 % (seat(p) - 1)\n"
             "turn {\n  x = split(active)\n}\nend when x != 0\n")
    fast, plain, prog = both(monkeypatch, rules)
    assert fast == plain and "division by zero" in plain[0]
    assert {"_div", "_mod"} <= names_read(prog, "split")


def test_a_product_that_may_pass_the_integer_budget_is_checked(monkeypatch):
    # bounded, but beyond the budget: 10^10 * 10^10 > 10^18
    rules = ("function huge(p: player): int = 10000000000 * seat(p) * 10000000000\n"
             "turn {\n  x = huge(active)\n}\nend when x != 0\n")
    fast, plain, prog = both(monkeypatch, rules)
    assert fast == plain and "integer" in plain[0]
    assert "_mul" in names_read(prog, "huge")


@pytest.mark.parametrize("players", [2, 3])
def test_the_range_of_a_seat_is_the_program_s_own_number_of_players(monkeypatch, players):
    # 9 / (seat - 3): never 0 for 2 players (seats 1, 2), 0 for the third of 3
    rules = ("function odd(p: player): int = 9 / (seat(p) - 3)\n"
             "turn {\n  x = sum(odd(p) for p in players)\n}\nend when x != 0\n")
    fast, plain, prog = both(monkeypatch, rules, players)
    assert fast == plain
    if players == 2:
        assert json.loads(fast)["x"] == 9 // -2 + 9 // -1
        assert "_div" not in names_read(prog, "odd")
    else:
        assert "division by zero" in plain[0] and "_div" in names_read(prog, "odd")
