"""The static part of a loop's condition over a board's cells, found once by the core
(interpreter/core/cells.py: ``prog.facts.cells_filter``) and printed by the kernel
(native/kernel_cells.py): which conjuncts read only static facts of the cell, the cells
they let through in board order, the keyed conjunct ``c.attr == value`` and each cell's
value of it; nothing where an engine might compute another value."""
from __future__ import annotations

from meeple.dsl import ast as ir
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

RULES = """ruleset cells
players 2..2
kind Mark { seat: int }
board b: grid(rows: 3, cols: 4) holds Mark
zone supply: Mark
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
var n: int = 0
function row_of(r: int): int = count(c for c in cells(b) if c.row == r and empty(c))
function diag(): int = count(c for c in cells(b) if c.row == c.col and c.col > 1 and empty(c))
function anti(): int = count(c for c in cells(b) if c.row + c.col == 5)
function state_first(): int = count(c for c in cells(b) if empty(c) and c.row == 1)
function huge(): int = count(c for c in cells(b) if c.row * 1000000000000000000 * 8 > 0)
function by_seat(p: player): int = count(c for c in cells(b) if seat(p) == c.col)
function by_size(): int = count(c for c in cells(b) if c.row == size(supply))
function odd(c: b): bool = c.col % 2 == 1 and c.row > 1
function inner(c: b): bool = odd(c) and not (c.row == 3)
function by_call(): int = count(c for c in cells(b) if inner(c) and empty(c))
function busy(c: b): bool = count(x for x in cells(b) if x.row == c.row and empty(x)) > 0
function by_busy(): int = count(c for c in cells(b) if busy(c))
function all_zero(): int = count(c for c in cells(b) if c.col % (c.row - c.row) == 0)
function side(c: b, p: player): bool = c.col > 2 * (seat(p) - 1) and c.col <= 2 * seat(p)
function by_side(p: player): int = count(c for c in cells(b) if side(c, p) and c.row < seat(p) + 2 and empty(c))
function by_two(p: player, q: player): int = count(c for c in cells(b) if side(c, p) and side(c, q))
function own(c: b, p: player, k: int): bool = abs(c.col - 2 * seat(p)) < k and c.row % 2 == 1
function by_own(p: player): int = count(c for c in cells(b) if own(c, p, 1 + 1) and empty(c))
function row_seat(p: player): int = count(c for c in cells(b) if c.col > 1 and c.row == seat(p) and empty(c))
function dark(): int = count(c for c in cells(b) if (c.row + c.col) % 2 == 0 and empty(c))
function halves(p: player): int = count(c for c in cells(b) if c.col / 2 == seat(p) and c.row - 1 != 0)
function by_zero(): int = count(c for c in cells(b) if c.row % (c.col - 1) == 0)
function band(): int = count(c for c in cells(b) if abs(c.row - c.col) <= 1 and max(c.row, c.col) < 3 and empty(c))
function ring(k: int): int = count(c for c in cells(b) if min(c.row, c.col) == k)
function on_diag(c: b): bool = c.row == c.col
function beyond(c: b, k: int): bool = c.row + c.col > k
function wide(c: b): int = c.col * 2
function free(c: b): bool = empty(c)
function seen_diag(): int = count(x for x in cells(b) if on_diag(x) and beyond(x, 1 + 2) and empty(x))
function by_wide(k: int): int = count(x for x in cells(b) if wide(x) == k)
function state_call(): int = count(x for x in cells(b) if free(x))
function near(c: b): bool = count(y for y in cells(b) if y.row == c.row and y.col > c.col) > 1
function loop_call(): int = count(x for x in cells(b) if near(x))
function given_var(): int = count(x for x in cells(b) if beyond(x, n))
function late(r: int): int = count(c for c in cells(b) if c.col > 1 and c.row == r and c.col < 4 and empty(c))
function never(r: int): int = count(c for c in cells(b) if c.col > 9 and c.row == r and empty(c))
function by_mod(k: int): int = count(c for c in cells(b) if c.row == max(k % 3, 1) and empty(c))
function half(c: b): int = c.row / 2
function same_half(d: b): int = count(c for c in cells(b) if half(c) == half(d) and empty(c))
function named(): int = count(c for c in cells(b) if c.name == "r2c3" or c.name in ["r3c4", "r1c1"])
function listed(): int = count(c for c in cells(b) if c.col in [1, 4] and c.row not in [2] and empty(c))
turn {
  n = n + row_of(1) + diag() + anti() + state_first() + huge() + by_seat(active) + by_size() + dark()
    + halves(active) + by_zero() + band() + ring(1) + seen_diag() + by_wide(n) + state_call()
    + loop_call() + given_var() + late(2) + never(2) + by_mod(n)
    + by_call() + by_busy() + all_zero() + by_side(active) + by_two(active, active) + by_own(active)
    + row_seat(active) + same_half(first(cells(b))) + named() + listed()
}
end when n > 10
"""


def program():
    src = SourceSet(base=parse(RULES, "cells.meeple"), sources={"cells.meeple": RULES})
    return compile_sources(src).for_players(2)


def filters(prog) -> dict:
    """Per function with a loop: the filter of its loop (the one comprehension of its
    body)."""
    out = {}
    for name, f in prog.checked.functions.items():
        for agg in (n for n in ir.walk(f.body) if n.node == "Aggregate"):
            out[name] = prog.facts.cells_filter(agg.comp.clauses[-1], agg.comp.cond)
    return out


def cell_names(prog, cells) -> list[str]:
    return [prog.ns["CELL_NAME"][z] for z in cells]


def test_the_static_conjuncts_and_the_cells_they_let_through():
    prog = program()
    found = filters(prog)
    diag = found["diag"]
    assert diag.key is None and len(diag.preds) == 2 and len(diag.rest) == 1
    assert cell_names(prog, diag.passing) == ["r2c2", "r3c3"]
    # a static side compared with a number: a table by the value too (row + col == 5)
    anti = found["anti"]
    assert anti.rest == [] and anti.key[1].node == "IntLit"
    assert cell_names(prog, [z for z, k in zip(anti.passing, anti.keys) if k == 5]) == ["r1c4", "r2c3", "r3c2"]
    # the keyed conjunct: every cell, each with its row (board order), the rest per cell
    row = found["row_of"]
    assert row.preds == [] and row.key[0].name == "row" and row.key[1].node == "Var"
    assert row.keys == [1] * 4 + [2] * 4 + [3] * 4 and len(row.passing) == 12
    assert [x.func for x in row.rest] == ["empty"]
    # either way round, a seat's number computed without counting anything
    assert found["by_seat"].keys == [1, 2, 3, 4] * 3
    # a rule function of the cell whose body is static (% too), called in the body of
    # another: its cells
    call = found["by_call"]
    assert [x.func for x in call.preds] == ["inner"] and [x.func for x in call.rest] == ["empty"]
    assert cell_names(prog, call.passing) == ["r2c1", "r2c3"]
    # conjuncts static but for one player's seat (in a call or not): the cells by seat
    side = found["by_side"]
    assert side.seat_of.name == "p" and len(side.preds) == 2 and [x.func for x in side.rest] == ["empty"]
    assert [cell_names(prog, r) for r in side.by_seat] == [
        ["r1c1", "r1c2", "r2c1", "r2c2"], ["r1c3", "r1c4", "r2c3", "r2c4", "r3c3", "r3c4"]]
    two = found["by_two"]   # (two players: the first's seat, the rest per cell)
    assert two.seat_of.name == "p" and len(two.preds) == 1 and len(two.rest) == 1
    # the player given to a function with a static value, abs and % in its body
    own = found["by_own"]
    assert own.seat_of.name == "p" and [x.func for x in own.rest] == ["empty"]
    assert [cell_names(prog, r) for r in own.by_seat] == [
        ["r1c1", "r1c2", "r1c3", "r3c1", "r3c2", "r3c3"], ["r1c3", "r1c4", "r3c3", "r3c4"]]
    # a seat compared with a coordinate after static conjuncts: keyed by its value
    by_row = found["row_seat"]
    assert by_row.by_seat is None and by_row.key[1].func == "seat" and by_row.keys == [1] * 3 + [2] * 3 + [3] * 3
    # the language's division and remainder, rounded down (play/helpers.py _div, _mod)
    dark = found["dark"]   # (keyed by the parity: the cells of key 0)
    assert dark.preds == [] and dark.key[0].op == "%" and dark.keys == [0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1]
    assert cell_names(prog, [z for z, k in zip(dark.passing, dark.keys) if k == 0]) == \
        ["r1c1", "r1c3", "r2c2", "r2c4", "r3c1", "r3c3"]
    halves = found["halves"]
    assert cell_names(prog, halves.passing) == [f"r{r}c{c}" for r in (2, 3) for c in range(1, 5)]
    assert halves.keys == [0, 1, 1, 2] * 2
    # abs, and min and max of two numbers (not of a list), the built-ins' values
    band = found["band"]
    assert len(band.preds) == 2 and cell_names(prog, band.passing) == ["r1c1", "r1c2", "r2c1", "r2c2"]
    assert found["ring"].keys == [1, 1, 1, 1, 1, 2, 2, 2, 1, 2, 3, 3]
    # calls of rule functions whose bodies are static, given the cell or static values
    seen = found["seen_diag"]
    assert [x.func for x in seen.preds] == ["on_diag", "beyond"] and [x.func for x in seen.rest] == ["empty"]
    assert cell_names(prog, seen.passing) == ["r2c2", "r3c3"]
    assert found["by_wide"].key[0].func == "wide" and found["by_wide"].keys == [2, 4, 6, 8] * 3
    # the keyed conjunct after static ones: the cells of them all, by the value
    late = found["late"]
    assert len(late.preds) == 2 and late.key[1].name == "r" and [x.func for x in late.rest] == ["empty"]
    assert cell_names(prog, late.passing) == ["r1c2", "r1c3", "r2c2", "r2c3", "r3c2", "r3c3"]
    assert late.keys == [1, 1, 2, 2, 3, 3]
    # ... where no cell reaches it, its value is never computed (as in the reference)
    never = found["never"]
    assert never.key is None and never.passing == [] and never.rest[0].op == "=="
    # a value computed with a remainder and max (once, before the loop)
    assert found["by_mod"].key[1].func == "max" and found["by_mod"].keys == [1] * 4 + [2] * 4 + [3] * 4
    # a value that reads the state or calls a rule function, computed without counting
    # work or calls (as core/once.py computes a value once for two uses): once, before
    # the loop, each cell's static side a key (the reference reads the same value at
    # every cell)
    assert found["by_size"].key[1].func == "size" and found["by_size"].keys == [1] * 4 + [2] * 4 + [3] * 4
    # a cell's name compared with texts, a coordinate in a list written out
    assert cell_names(prog, found["named"].passing) == ["r1c1", "r2c3", "r3c4"] and found["named"].rest == []
    listed = found["listed"]
    assert cell_names(prog, listed.passing) == ["r1c1", "r1c4", "r3c1", "r3c4"] and len(listed.rest) == 1
    same = found["same_half"]
    assert same.key[0].func == "half" and same.key[1].func == "half" and same.key[1].args[0].name == "d"
    assert same.keys == [0] * 4 + [1] * 8 and [x.func for x in same.rest] == ["empty"]


def test_no_filter_where_an_engine_might_differ_or_the_state_comes_first():
    found = filters(program())
    assert found["state_first"] is None      # (the first conjunct reads the state)
    assert found["huge"] is None             # (a value beyond what a kernel computes)
    assert found["by_busy"] is None          # (a function that counts work: its calls are made)
    assert found["all_zero"] is None          # (% by zero everywhere: the rules' error, left to the loop)
    assert found["by_zero"] is None          # (by zero at the cells of column 1: the rules' error)
    assert found["state_call"] is None       # (a function that reads the state)
    assert found["loop_call"] is None        # (a function that loops: it counts work)
    assert found["given_var"] is None        # (an argument that reads the state)


def test_static_conjuncts_that_read_values_from_before_the_loop_are_found_by_those_values():
    # (core/cells.py, cells_given: where cells_filter finds nothing; the fast Python code
    # keeps a table of the cells by the values, filled as they come)
    prog = program()
    given = {}
    for name, f in prog.checked.functions.items():
        for agg in (n for n in ir.walk(f.body) if n.node == "Aggregate"):
            given[name] = prog.facts.cells_given(agg.comp.clauses[-1], agg.comp.cond)
    g = given["given_var"]   # beyond(x, n): n, a variable, read before the loop
    assert [v.name for v in g.given] == ["n"] and len(g.preds) == 1 and g.rest == []
    assert given["diag"] is None and given["row_of"] is None   # (cells_filter's)
    assert given["state_first"] is None and given["by_size"] is None and given["loop_call"] is None


def test_the_kernel_prints_the_core_s_filter(monkeypatch):
    prog = program()
    source = kernel.Gen(prog).source()
    assert source.count("if (k == NONE_I) return") == 14   # (row_of, anti, by_seat, busy, dark, halves, ring, by_wide, near, late, by_mod,
    # row_seat, by_size, same_half: tables by the value)
    assert source.count("if (k < 0 || k >= 2) bail();") == 3   # (by_side, by_two, by_own: tables by the seat)
    monkeypatch.setattr(type(prog.facts), "cells_filter", lambda self, cl, cond: None)
    assert "if (k == NONE_I) return" not in kernel.Gen(program()).source()
    assert "bail(); return T" not in kernel.Gen(program()).source()
