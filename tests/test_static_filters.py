"""Loops over a board's cells whose condition starts with static facts of the cell
(issue 13, "precomputed tables per board"): the fast code walks a tuple of the cells
those conjuncts let through, made once per program, or a table of them by the static
side of ``static == value`` (``IX_N.get(value, ())``), and tests only the rest of the
condition. The same moves, states and errors as the straightforward code; the work
budget counts the board's cells as before; the cells come in board order; a conjunct
that fails on some cell is not hoisted, and the loop fails where it did."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from lockstep import play_both
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, RuleError, compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent

RULES = """ruleset statics
players 2..2
kind Stone { seat: int }
board g: grid(rows: 4, cols: 5) holds Stone
board big: grid(rows: 40, cols: 40) holds Stone
zone pool: Stone
deck stones into pool { 40 of Stone(seat: s) for s in 1..2 }
var got: list of str = []
var x: int = 0
var y: int = 0
var z: bool = false
function row_names(r: int): list of str = [c.name for c in cells(g) if c.row == r]
function col_first(k: int): g = first(c for c in cells(g) if k == c.col)
function diag(): list of g = [c for c in cells(g) if c.row == c.col]
function mine_in_row(r: int, p: player): int =
  count(c for c in cells(g) if c.row == r and occupied(c) and top(c).seat == seat(p))
function odd_in_row(r: int): int = count(c for c in cells(g) if c.row == r and c.col % 2 == 1)
function nobody(k: int): int = count(c for c in cells(g) if c.row > 100 and c.col == k)
function same_row(d: g): int = count(c for c in cells(g) if c.row == d.row and c != d and empty(c))
function divided(): int = sum(12 / (c.col - 3) for c in cells(g) if c.col != 3 and c.row == 1)
function unsafe(r: int): int = count(c for c in cells(g) if 12 / (c.col - 3) > 0 and c.row == r)
function big_row(r: int): int = count(c for c in cells(big) if c.row == r and empty(c))
function any_all(r: int): bool =
  any(occupied(c) for c in cells(g) if c.row == r) or all(empty(c) for c in cells(g) if c.col == r)
function summed(r: int): int = sum(c.col for c in cells(g) if c.row == r and occupied(c))
function lowest(r: int): int = min(c.col * 10 + c.row for c in cells(g) if c.row >= r)
function by_pool(): int = count(c for c in cells(g) if c.row == size(pool) / 20 and empty(c))
function inner(d: g): int = count(c for c in cells(g) if c.col > 1 and c.row == d.row and c.col < 5)
"""

# a game: each turn puts a stone on an empty cell of the small board and one on the big
# board, then reads every function into the variables (compared after every move)
GAME = """turn {
  choose c from [c for c in cells(g) if empty(c)] as "put"
  move first(m for m in items(pool) if m.seat == seat(active)) to c
  choose b from [b for b in cells(big) if b.row <= 2 and empty(b)] as "also"
  move first(m for m in items(pool) if m.seat == seat(active)) to b
  got = row_names(c.row) + [col_first(c.col).name] + [d.name for d in diag()]
  x = mine_in_row(c.row, active) * 1000 + odd_in_row(c.row) * 100 + nobody(c.col) * 10 + same_row(c)
  y = divided() * 100000 + big_row(b.row) * 1000 + summed(c.row) * 10 + lowest(c.row)
  z = any_all(c.row)
  x = x + by_pool() * 100000 + inner(c) * 1000000
}
end when count(c for c in cells(g) if empty(c)) < 4
score(p) = mine_in_row(1, p) + mine_in_row(2, p)
"""


@functools.cache
def parsed(text: str):
    """The rules' text parsed, once for all the compiles of it (as load's disk cache and
    tests/test_compat.py reuse a parsed file)."""
    return parse(text, "statics.meeple")


def program(monkeypatch, text: str, optimize: bool = True, work: int | None = None):
    """The rules compiled for two players, the fast code strict (it fails where it
    fails: no second chance with the straightforward code) unless ``optimize`` is off."""
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    try:
        src = SourceSet(base=parsed(text), sources={"statics.meeple": text})
        budgets = None if work is None else Budgets(work=work)
        return compile_sources(src, budgets=budgets).for_players(2)
    finally:
        monkeypatch.setattr(codegen, "STRICT", False)
        monkeypatch.setattr(codegen, "OPTIMIZE", True)


def outcome(monkeypatch, text: str, optimize: bool, work: int | None = None):
    """The variables after the first turn, or the error (text, rule, place)."""
    prog = program(monkeypatch, text, optimize, work)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    try:
        return json.loads(json.dumps(prog.new_game(2, seed=1).state))["vars"]
    except RuleError as e:
        return str(e), e.rule, e.span
    finally:
        monkeypatch.setattr(codegen, "STRICT", False)


def tables(prog, function: str) -> dict[str, object]:
    """The static tables of cells a function's fast code walks, by name."""
    names = prog.ns[f"F_{function}"].__code__.co_names
    return {n: prog.ns[n] for n in names if n.startswith(("IX_", "PRE_"))}


def names(prog, cells) -> list[str]:
    return [prog.ns["CELL_NAME"][c] for c in cells]


def test_a_row_of_cells_is_read_from_a_table_by_the_row_in_board_order(monkeypatch):
    prog = program(monkeypatch, RULES + GAME)
    (ix,) = tables(prog, "row_names").values()
    assert sorted(ix) == [1, 2, 3, 4]
    assert names(prog, ix[2]) == ["r2c1", "r2c2", "r2c3", "r2c4", "r2c5"]
    (ix,) = tables(prog, "col_first").values()  # the value on the left of ==
    assert names(prog, ix[3]) == ["r1c3", "r2c3", "r3c3", "r4c3"]
    (pre,) = tables(prog, "diag").values()  # a condition of the cell alone: a tuple
    assert names(prog, pre) == ["r1c1", "r2c2", "r3c3", "r4c4"]
    assert "list" in prog.ns["F_diag"].__code__.co_names  # a fresh list of the tuple
    # the static conjunct after the keyed one goes into the table too
    (ix,) = tables(prog, "odd_in_row").values()
    assert names(prog, ix[4]) == ["r4c1", "r4c3", "r4c5"]
    (ix,) = tables(prog, "inner").values()  # and the one before it
    assert names(prog, ix[1]) == ["r1c2", "r1c3", "r1c4"]
    # the key computed before the loop (a value that does not depend on the cell)
    (ix,) = tables(prog, "by_pool").values()
    assert names(prog, ix[3]) == ["r3c1", "r3c2", "r3c3", "r3c4", "r3c5"]


def after_a_turn(prog, put: int) -> dict:
    """The variables after a turn that puts a stone on the put-th empty cell."""
    game = prog.new_game(2, seed=1)
    for i in (put, 0):
        seat = game.deciding[0]
        game.apply(game.legal_moves(seat)[i], seat=seat)
    return json.loads(json.dumps(game.state))["vars"]


def test_what_the_tables_give_is_what_the_straightforward_code_gives(monkeypatch):
    fast, plain = program(monkeypatch, RULES + GAME), program(monkeypatch, RULES + GAME, optimize=False)
    monkeypatch.setattr(codegen, "STRICT", True)
    for put in (0, 7, 13, 19):  # r1c1, r2c3, r3c4, r4c5
        got = after_a_turn(fast, put)
        assert got == after_a_turn(plain, put)
        row, col = put // 5 + 1, put % 5 + 1
        assert got["got"] == [f"r{row}c{k}" for k in range(1, 6)] + [f"r1c{col}"] + \
            [f"r{k}c{k}" for k in range(1, 5)]
        # by_pool: the empty cells of row 78 / 20 = 3; inner: columns 2 to 4 of c's row
        assert got["x"] == 3000000 + (400000 if row == 3 else 500000) + 1000 + 300 + 4 and got["z"]


def test_a_key_no_cell_has_walks_no_cell(monkeypatch):
    turn = "turn {\n  x = odd_in_row(9) * 10 + nobody(2)\n  y = size(row_names(0))\n}\nend when x >= 0\n"
    prog = program(monkeypatch, RULES + turn)
    assert 9 not in next(iter(tables(prog, "odd_in_row").values()))
    # no cell gets to 'c.col == k': the loop walks nothing, k is not even read
    assert tables(prog, "nobody") == {} and () in prog.ns["F_nobody"].__code__.co_consts
    fast, plain = outcome(monkeypatch, RULES + turn, True), outcome(monkeypatch, RULES + turn, False)
    assert fast == plain and (fast["x"], fast["y"]) == (0, 0)


def test_a_static_conjunct_that_fails_on_a_cell_is_not_hoisted(monkeypatch):
    prog = program(monkeypatch, RULES + GAME)
    # 12 / (c.col - 3) fails on column 3: the loop tests it on every cell, as before
    assert tables(prog, "unsafe") == {}
    # behind 'c.col != 3' it never fails: hoisted
    assert len(tables(prog, "divided")) == 1
    turn = "turn {\n  x = unsafe(1)\n}\nend when x > 0\n"
    fast, plain = outcome(monkeypatch, RULES + turn, True), outcome(monkeypatch, RULES + turn, False)
    assert fast == plain and plain[1] == "function unsafe" and "division by zero" in plain[0]


def test_names_and_lists_written_out_are_static_facts_of_the_cell(monkeypatch):
    # a cell's name compared with a text, a coordinate in a list written out (core/cells.py,
    # as the kernel's): tables of the cells, in board order
    functions = ('function corners(): list of g = [c for c in cells(g) if c.name in ["r4c5", "r1c1"] or c.name == "r1c5"]\n'
                 'function sides(): int = count(c for c in cells(g) if c.col not in [2, 3, 4] and empty(c))\n')
    rules = RULES.replace("var got:", functions + "var got:")
    turn = "turn {\n  got = [c.name for c in corners()]\n  x = sides()\n  z = true\n}\nend when z\n"
    prog = program(monkeypatch, rules + turn)
    (pre,) = tables(prog, "corners").values()
    assert names(prog, pre) == ["r1c1", "r1c5", "r4c5"]
    (pre,) = tables(prog, "sides").values()
    assert names(prog, pre) == [f"r{r}c{k}" for r in range(1, 5) for k in (1, 5)]
    fast, plain = outcome(monkeypatch, rules + turn, True), outcome(monkeypatch, rules + turn, False)
    assert fast == plain and fast["got"] == ["r1c1", "r1c5", "r4c5"] and fast["x"] == 8


def test_a_condition_that_reads_the_state_first_is_left_alone(monkeypatch):
    text = RULES + "function filled(r: int): int = count(c for c in cells(g) if occupied(c) and c.row == r)\n" + GAME
    prog = program(monkeypatch, text)
    assert tables(prog, "filled") == {}
    # a key read from another cell: hoisted, the rest tested per cell
    assert len(tables(prog, "same_row")) == 1


def least_work(monkeypatch, text: str, optimize: bool = False) -> int:
    """The smallest work budget with which the straightforward code (``optimize``: the
    fast code) plays the turn."""
    low, high = 1, 1 << 16
    assert isinstance(outcome(monkeypatch, text, optimize, high), dict)
    while low < high:
        mid = (low + high) // 2
        if isinstance(outcome(monkeypatch, text, optimize, mid), dict):
            high = mid
        else:
            low = mid + 1
    return low


def played_both_ways(monkeypatch, text: str, games: int, moves: int = 40, fast=None) -> int:
    """Random games of the rules with the fast code (strict: it fails where it fails)
    and the straightforward code side by side, compared at every step (``fast``: the
    fast program, already compiled); the moves played in all."""
    fast = fast or program(monkeypatch, text)
    plain = program(monkeypatch, text, optimize=False)
    monkeypatch.setattr(codegen, "STRICT", True)
    return sum(play_both(fast, plain, 2, seed, moves) for seed in range(games))


def same_at_least_work(monkeypatch, text: str) -> int:
    """The least work budget the straightforward code needs for the turn, after checking
    that the fast code needs it too: the same outcome with it, and with one less the
    same error (both count the same work: core/facts.py, "work")."""
    least = least_work(monkeypatch, text)
    assert outcome(monkeypatch, text, True, least) == outcome(monkeypatch, text, False, least)
    short = outcome(monkeypatch, text, True, least - 1)
    assert not isinstance(short, dict) and "'work' budget" in short[0]
    assert short == outcome(monkeypatch, text, False, least - 1)
    assert least_work(monkeypatch, text, optimize=True) == least
    return least


def test_the_work_budget_counts_the_board_as_before(monkeypatch):
    # the big board (1,600 cells: more than codegen._FREE_LOOPS) is counted at every
    # walk, hoisted or not
    turn = "turn {\n  x = big_row(2) + big_row(3) + count(m for m in items(pool))\n}\nend when x > 0\n"
    prog = program(monkeypatch, RULES + turn)
    assert len(tables(prog, "big_row")) == 1
    least = same_at_least_work(monkeypatch, RULES + turn)
    assert least > 3200
    assert outcome(monkeypatch, RULES + turn, True, least)["x"] == 80 + 80
    short = outcome(monkeypatch, RULES + turn, True, least - 1)
    assert not isinstance(short, dict) and "'work' budget" in short[0]


def test_random_games_play_the_same_with_the_tables(monkeypatch):
    assert played_both_ways(monkeypatch, RULES + GAME, 4) > 20


def bundled(monkeypatch, ruleset: str):
    """A bundled ruleset's program with the fast code (strict) and without."""
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(ruleset).for_players(2)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    fast = interpreter.load(ruleset).for_players(2)
    monkeypatch.setattr(codegen, "STRICT", True)
    return fast, plain


def test_bundled_rules_walk_the_tables_and_play_the_same(monkeypatch):
    fast, plain = bundled(monkeypatch, str(ROOT / "tests" / "testdata" / "ttt"))
    (ix,) = tables(fast, "full_row").values()
    assert names(fast, ix[2]) == ["r2c1", "r2c2", "r2c3"]
    diagonals = sorted(names(fast, pre) for pre in tables(fast, "full_diag").values())
    assert diagonals == [["r1c1", "r2c2", "r3c3"], ["r1c3", "r2c2", "r3c1"]]  # row == col, row + col == 4
    assert play_both(fast, plain, 2, 1, 20) > 4
    fast, plain = bundled(monkeypatch, "kalah")
    (ix,) = tables(fast, "at").values()  # first(c for c in cells(pits) if c.pos == k)
    assert sorted(ix) == list(range(1, 15)) and names(fast, ix[7]) == ["A"]
    assert play_both(fast, plain, 2, 1, 30) > 10
    fast, plain = bundled(monkeypatch, "dots-and-boxes")
    (pre,) = tables(fast, "edges").values()  # neither a dot nor a box, by arithmetic on x, y
    x, y = fast.ns["C_x"], fast.ns["C_y"]
    assert pre == tuple(c for c in fast.ns["BOARD_paper"]
                        if not (x[c] % 4 == 0 and y[c] % 2 == 0) and not (x[c] % 4 == 2 and y[c] % 2 == 1))
    assert play_both(fast, plain, 2, 1, 30) > 10


# A function kept by its arguments (it reads nothing of the state and loops) called first
# in a loop's condition, with the cell and values that do not depend on the cell: the
# loop walks a table of the cells it lets through, by those values, filled as they come.
KEPT = RULES.replace("var got:", """function band(r: int, k: int): bool = any(r == x for x in k..k + 1)
function home(c: g, p: player): bool = band(c.row, seat(p) + 1)
function homes(p: player): list of g = [c for c in cells(g) if home(c, p) and empty(c)]
function odd_homes(p: player): list of g = [c for c in cells(g) if c.col % 2 == 1 and home(c, p)]
function by_count(p: player): int = count(c for c in cells(g) if band(size(pool), seat(p)) and empty(c))
function risky(c: g, k: int): bool = any(12 / (c.col - k) == x for x in 1..12)
function fails(p: player): int = count(c for c in cells(g) if risky(c, seat(p)) and empty(c))
var got:""")
KEPT_GAME = """turn {
  choose c from homes(active) as "put"
  move first(m for m in items(pool) if m.seat == seat(active)) to c
  got = [d.name for d in homes(active)] + ["|"] + [d.name for d in odd_homes(active)]
  x = by_count(active)
}
end when empty(homes(active))
"""


def kept_tables(prog, function: str) -> dict[str, object]:
    names = prog.ns[f"F_{function}"].__code__.co_names
    return {n: prog.ns[n] for n in names if n.startswith("KC_") and not n.endswith("F")}


def test_a_kept_call_first_in_the_condition_walks_a_table_by_its_values(monkeypatch):
    prog = program(monkeypatch, KEPT + KEPT_GAME)
    (table,) = kept_tables(prog, "homes").values()
    assert "_kept_cells" in prog.ns["F_homes"].__code__.co_names
    game = prog.new_game(2, seed=1)
    # seat 1's home is rows 2 and 3, seat 2's rows 3 and 4: one entry per value given
    # (p: home reads nothing of the state, core/pure.py)
    # (each with the work its conditions counted: counted again at each read)
    assert sorted(table) == [(0,)] and names(prog, table[(0,)][0]) == [f"r{r}c{k}" for r in (2, 3) for k in range(1, 6)]
    game.apply(0, seat=0)
    assert sorted(table) == [(0,), (1,)]
    assert names(prog, table[(1,)][0]) == [f"r{r}c{k}" for r in (3, 4) for k in range(1, 6)]
    # the cells still empty: the rest of the condition is tested on each
    assert json.loads(json.dumps(game.state))["vars"]["got"][:3] == ["r2c2", "r2c3", "r2c4"]
    # a static conjunct before the call: the core's static part (core/cells.py, as the
    # kernel's), the call tested on the cells it lets through
    (odd,) = tables(prog, "odd_homes").values()
    assert kept_tables(prog, "odd_homes") == {}
    assert names(prog, odd) == [f"r{r}c{k}" for r in range(1, 5) for k in (1, 3, 5)]


def test_a_call_given_something_of_the_state_is_left_alone(monkeypatch):
    prog = program(monkeypatch, KEPT + KEPT_GAME)
    assert kept_tables(prog, "by_count") == {}  # size(pool) is read from the state


def test_kept_tables_play_as_the_straightforward_code(monkeypatch):
    assert played_both_ways(monkeypatch, KEPT + KEPT_GAME, 3) > 20
    # a kept call that fails for some cell fails as it did (the fast code then gives way)
    turn = "turn {\n  x = fails(active)\n  z = true\n}\nend when z\n"
    monkeypatch.setattr(codegen, "STRICT", False)
    fast, plain = outcome(monkeypatch, KEPT + turn, True), outcome(monkeypatch, KEPT + turn, False)
    assert len(kept_tables(program(monkeypatch, KEPT + turn), "fails")) == 1
    assert fast == plain and plain[1] == "function risky" and "division by zero" in plain[0]


def test_a_deployment_zone_is_walked_from_a_table(monkeypatch):
    fast, plain = bundled(monkeypatch, "brotherhood-of-nine")
    (name,) = [n for n in fast.ns if n.startswith("KC_") and not n.endswith("F")]
    assert play_both(fast, plain, 2, 1, 40) == 40
    zones = fast.ns[name]
    assert len(zones) == 2 and all(len(kept[0]) == 9 for kept in zones.values())  # 9 hexes each


# Two relations of a cell joined, walked in a loop: one list per cell, from a table.
JOINED = RULES.replace("var got:", """relation right(a: g, b: g) = a.row == b.row and b.col == a.col + 1
relation down(a: g, b: g) = b.col == a.col and b.row == a.row + 1
function near(c: g): int = count(n for n in right(c) + down(c) if occupied(n))
var got:""")
JOINED_GAME = """turn {
  choose c from [c for c in cells(g) if empty(c)] as "put"
  move first(m for m in items(pool) if m.seat == seat(active)) to c
  x = sum(near(d) for d in cells(g))
}
end when count(c for c in cells(g) if empty(c)) < 4
"""


def test_two_relations_joined_in_a_loop_are_read_from_a_table(monkeypatch):
    prog = program(monkeypatch, JOINED + JOINED_GAME)
    (name,) = [n for n in prog.ns["F_near"].__code__.co_names if n.startswith("CAT_")]
    table = prog.ns[name]
    right, down = prog.ns["REL_right"], prog.ns["REL_down"]
    assert all(table[c] == right[c] + down[c] for c in prog.ns["BOARD_g"])
    corner = prog.ns["BOARD_g"][0]
    assert names(prog, table[corner]) == ["r1c2", "r2c1"]  # right first, then down
    assert played_both_ways(monkeypatch, JOINED + JOINED_GAME, 3, fast=prog) > 20
    # the joined list is counted as the straightforward code counts it, where the loops
    # around make few turns (near) or many (far: 20 x 20 x 20 cells): the same least
    # work budget
    far = ("function far(c: g): int =\n  sum(count(n for n in right(d) + down(d) if occupied(n))\n"
           "      for d in cells(g) for e in cells(g) for f in cells(g))\n")
    turn = "turn {\n  x = sum(near(d) for d in cells(g)) + far(d) + big_row(2)\n  z = true\n}\nend when z\n"
    turn = turn.replace("far(d)", "far(first(cells(g)))")
    same_at_least_work(monkeypatch, JOINED + far + turn)
    prog = program(monkeypatch, JOINED + far + turn)
    assert "_out_of_work" in prog.ns["F_near"].__code__.co_names
    assert "_out_of_work" in prog.ns["F_far"].__code__.co_names
    # the relations of two cells are joined as they are
    apart = "function apart(c: g, d: g): int = count(n for n in right(c) + down(d) if occupied(n))\n"
    turn = "turn {\n  x = apart(first(cells(g)), last(cells(g)))\n  z = true\n}\nend when z\n"
    prog = program(monkeypatch, JOINED + apart + turn)
    assert not [n for n in prog.ns["F_apart"].__code__.co_names if n.startswith("CAT_")]
    assert outcome(monkeypatch, JOINED + apart + turn, True) == outcome(monkeypatch, JOINED + apart + turn, False)


def test_a_relation_given_a_cell_looked_up_walks_a_table_by_that_cell(monkeypatch):
    # right(cell(g, row: 1, col: 1), c): the cell looked up is a value given from before
    # the loop (core/cells.py, cells_given), the cells related to it kept by it; with a
    # row read from a parameter too, by both
    functions = ("function right_of_corner(): int = count(c for c in cells(g) if right(cell(g, row: 1, col: 1), c) and empty(c))\n"
                 "function right_of(k: int): int = count(c for c in cells(g) if right(cell(g, row: k, col: 1), c) and empty(c))\n")
    rules = JOINED.replace("var got:", functions + "var got:")
    game = JOINED_GAME.replace("  x = sum(", "  y = right_of_corner() * 10 + right_of(c.row)\n  x = sum(")
    prog = program(monkeypatch, rules + game)
    assert "_kept_cells" in prog.ns["F_right_of_corner"].__code__.co_names
    assert "_kept_cells" in prog.ns["F_right_of"].__code__.co_names
    game = prog.new_game(2, seed=1)
    game.apply(0, seat=game.deciding[0])
    (table,) = kept_tables(prog, "right_of_corner").values()
    ((corner,),) = table   # (the one value given: the cell r1c1)
    assert names(prog, [corner]) == ["r1c1"] and names(prog, table[(corner,)][0]) == ["r1c2"]
    assert played_both_ways(monkeypatch, rules + JOINED_GAME.replace(
        "  x = sum(", "  y = right_of_corner() * 10 + right_of(c.row)\n  x = sum("), 3, fast=prog) > 20


def test_a_list_a_filter_made_from_fixed_tables_is_walked_as_they_are(monkeypatch):
    # group(c): for each occupied cell among c's right and down neighbours (a list a
    # filter made from a joined row: at most 2 cells), those of the same seat; a list
    # made from a zone's items: each loop counted as the straightforward code counts it
    functions = ("function group(c: g): int =\n"
                 "  sum(count(b for b in [n for n in right(c) + down(c) if occupied(n)] if top(b).seat == top(a).seat)\n"
                 "      for a in [n for n in right(c) + down(c) if occupied(n)])\n"
                 "function pooled(): int = count(m for m in [m for m in items(pool)] if m.seat == 1)\n")
    rules = JOINED.replace("var got:", functions + "var got:")
    game = JOINED_GAME.replace("  x = sum(near(d) for d in cells(g))",
                               "  x = sum(near(d) for d in cells(g))\n  y = sum(group(d) for d in cells(g)) + pooled()")
    fast = program(monkeypatch, rules + game)
    assert "_out_of_work" in fast.ns["F_group"].__code__.co_names
    assert "_out_of_work" in fast.ns["F_pooled"].__code__.co_names
    assert played_both_ways(monkeypatch, rules + game, 3, fast=fast) > 20
    # the same work as the straightforward code
    turn = "turn {\n  x = sum(group(d) for d in cells(g)) + pooled()\n  z = true\n}\nend when z\n"
    same_at_least_work(monkeypatch, rules + turn)


def test_loops_over_boards_nested_in_loops_count_every_turn(monkeypatch):
    # around(): 20 x 20 cells, then the pool's stones, then for each stone the joined
    # rows of a cell and 20 cells again: every loop counts its list at every turn of
    # the loops around it, small or not (the fast code once left small nested loops
    # uncounted, and a budget ran out at another move than in the straightforward code)
    import dis
    functions = ("function around(): int =\n"
                 "  sum(count(n for n in right(c) + down(c) for e in cells(g) if occupied(n))\n"
                 "      for c in cells(g) for d in cells(g) for m in items(pool) if m.seat == 1 and c == d)\n")
    rules = JOINED.replace("var got:", functions + "var got:")
    game = rules + JOINED_GAME.replace("  x = sum(", "  y = around()\n  x = sum(")
    prog = program(monkeypatch, game)
    checks = [i for i in dis.get_instructions(prog.ns["F_around"]) if i.argval == "_out_of_work"]
    assert len(checks) == 5   # (cells, cells, the pool; the joined rows, cells)
    assert played_both_ways(monkeypatch, game, 2, 12, fast=prog) > 10
    turn = "turn {\n  x = around()\n  z = true\n}\nend when z\n"
    same_at_least_work(monkeypatch, rules + turn)


def test_short_texts_and_texts_that_grow_are_counted_alike(monkeypatch):
    # label(c): a cell's name, a dash and a letter chosen from literals (at most a few
    # characters, whatever the state); doubled(n): a text that doubles n times (no
    # bound): both counted as the straightforward code counts them, which runs out of
    # work where it does
    functions = ('function letter(k: int): str = if k == 1 then "A" elif k == 2 then "B" else "CD"\n'
                 'function label(c: g): str = c.name + "-" + letter(c.col)\n'
                 'function doubled(t: str, n: int): str = if n == 0 then t else doubled(t + t, n - 1)\n')
    rules = RULES.replace("var got:", functions + "var got:")
    turn = ('turn {\n  got = [label(c) for c in cells(g) if c.row == 2] + [doubled("ab", 12)]\n'
            '  z = true\n}\nend when z\n')
    fast = program(monkeypatch, rules + turn)
    assert "_cat" in fast.ns["F_doubled"].__code__.co_names
    got = outcome(monkeypatch, rules + turn, True)["got"]
    assert got[:4] == ["r2c1-A", "r2c2-B", "r2c3-CD", "r2c4-CD"]
    assert got == outcome(monkeypatch, rules + turn, False)["got"] and len(got[-1]) == 2 * 4096
    # the same work as the straightforward code
    assert same_at_least_work(monkeypatch, rules + turn) > 8192   # the doubling text alone


# conditions that compare static facts of the cell with values from before the loop
# (arguments, what they compute, the active player): kalah's "own pits" of a player
GIVEN = RULES.replace("var got:", """function own(c: g, p: player): bool = c.col > 2 * (seat(p) - 1) and c.col <= 2 * seat(p)
function seeds(p: player): int = count(c for c in cells(g) if own(c, p) and occupied(c))
function rowed(r: int, xs: list of int): int = count(c for c in cells(g) if c.row > r and c.col in xs)
function over(k: int): int = count(c for c in cells(g) if c.col * 12 / (k - 2) > 3 and empty(c))
var got:""")
GIVEN_GAME = """turn {
  choose c from [c for c in cells(g) if own(c, active) and empty(c)] + [c for c in cells(g) if c.col == 5 and empty(c)] as "put"
  move first(m for m in items(pool) if m.seat == seat(active)) to c
  x = seeds(active) * 100 + seeds(players[0]) * 10 + rowed(c.row - 1, [1, c.col])
  y = over(c.row + 3)
}
end when count(c for c in cells(g) if empty(c)) < 4
"""


def test_static_facts_compared_with_values_given_walk_a_table_by_the_values(monkeypatch):
    prog = program(monkeypatch, GIVEN + GIVEN_GAME)
    # own(c, p) reads the cell and the seat of p: the core's table by seat (core/cells.py,
    # as the kernel's), the player's row read before the loop
    assert kept_tables(prog, "seeds") == {}
    (table,) = [prog.ns[n] for n in prog.ns["F_seeds"].__code__.co_names if n.startswith("ST_")]
    # seat 1's pits are columns 1 and 2, seat 2's columns 3 and 4
    assert [names(prog, cells) for cells in table] == [[f"r{r}c{k}" for r in range(1, 5) for k in ks]
                                                       for ks in ((1, 2), (3, 4))]
    # a value Python cannot hash (a list) is walked without a table, the same cells
    assert "_kept_cells" in prog.ns["F_rowed"].__code__.co_names
    assert played_both_ways(monkeypatch, GIVEN + GIVEN_GAME, 3, fast=prog) > 20
    # a division by zero in the static part (over(2)) fails as the straightforward code
    # does; the same work counted
    monkeypatch.setattr(codegen, "STRICT", False)
    turn = "turn {\n  x = over(2)\n  z = true\n}\nend when z\n"
    fast, plain = outcome(monkeypatch, GIVEN + turn, True), outcome(monkeypatch, GIVEN + turn, False)
    assert fast == plain and "division by zero" in plain[0]
    turn = "turn {\n  x = seeds(active) + rowed(1, [2, 3]) + over(4)\n  z = true\n}\nend when z\n"
    same_at_least_work(monkeypatch, GIVEN + turn)


def test_where_the_core_finds_the_static_part_the_fast_code_walks_its_cells(monkeypatch):
    # core/cells.py decides the static part of a loop's condition for both engines: at
    # every loop of one clause over a board's cells the fast code writes out, in every
    # bundled ruleset and every ruleset of tests/testdata, the fast code walks the core's
    # cells wherever the core finds a static part (as the kernel does,
    # native/kernel_cells.py; or one that reads values given from before the loop,
    # cells_given, which the kernel does not print); it has no analysis of its own (it
    # once had one on the text it wrote: codegen_static reads no text now)
    from meeple.interpreter.compiler import codegen_static
    core = codegen_static.StaticCells._core_cells
    places: list[tuple[bool, bool]] = []

    def found(facts, cl, cond) -> bool:   # (the core's static part: of the cell, or given values)
        return facts.cells_filter(cl, cond) is not None or facts.cells_given(cl, cond) is not None

    def by_core(self, w, comp, inner, head):
        got = core(self, w, comp, inner, head)
        places.append((found(self.t.facts, comp.clauses[0], comp.cond), got is not None))
        return got
    monkeypatch.setattr(codegen_static.StaticCells, "_core_cells", by_core)
    files = [*ROOT.glob("rulesets/*/*.meeple"), *ROOT.glob("tests/testdata/**/*.meeple")]
    for path in sorted(files):
        if "locales" not in path.parts and path.parent.name != "variants" and "error" not in path.name:
            ruleset = interpreter.load(path, cache=False)
            for n in range(ruleset.min_players, ruleset.max_players + 1):
                ruleset.for_players(n)
    assert all(used for found, used in places if found)
    assert not any(used for found, used in places if not found)
    # (chess, go, kalah, ttt, clans, oware's rows by row(c): a rule function's value...)
    assert sum(used for found, used in places) >= 50   # (45 before oware's)
    assert not any(name.startswith("_static") for name in vars(codegen_static.StaticCells))
