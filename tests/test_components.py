"""Components found once per evaluation (issue 13, "rule algorithms that keep what they
computed"): a rule function whose body is ``connected(x for x in REL(c) if COND)`` (go's
groups) finds the same cells from any cell of the component. Where the order of its
cells does not matter (its size, its liberties' size, a count over it: see
interpreter/core/orderfree.py), the fast code's evaluation keeps the component for
all its cells (``FC_name``, a table ``mo_`` per evaluation), and the value of a function
written in place that is given it (its liberties), and counts the same work when it
finds them again; where the order matters (a list kept, ``first``, a walk that
moves them), the component is found from its own start, as always."""
from __future__ import annotations

import json

from meeple.interpreter.compiler import codegen
from test_static_filters import least_work, outcome, played_both_ways, program

RULES = """ruleset comps
players 2..2
kind Stone { seat: int }
board g: grid(rows: 4, cols: 5) holds Stone
zone pool: Stone
deck stones into pool { 20 of Stone(seat: s) for s in 1..2 }
relation adj(a: g, b: g) = abs(a.row - b.row) + abs(a.col - b.col) == 1
var x: int = 0
var y: int = 0
var order: list of g = []
function group(c: g): list of g = stones(c, top(c).seat)
function stones(c: g, s: int): list of g =
  connected(v for v in adj(c) if occupied(v) and top(v).seat == s)
function libs(gr: list of g): list of g = distinct([n for c in gr for n in adj(c) if empty(n)])
function liberty_total(): int = sum(size(libs(group(c))) for c in cells(g) if occupied(c))
function big_groups(): int = count(c for c in cells(g) if occupied(c) and size(group(c)) > 2)
# the first row's group, found first from its last cell (reverse: row 4 comes first) for
# its size, then from its first cell (k) for the list itself
function probe(k: g): list of g =
  if count(c for c in reverse(cells(g)) if occupied(c) and size(group(c)) > 1) > 0
  then group(k) else []
setup {
  # row 1: five stones of seat 1; row 3: seat 2 at columns 1, 2 and 4; seat 1 at (4, 5)
  for c in cells(g) {
    if c.row == 1 or c == cell(g, row: 4, col: 5) {
      move first(m for m in items(pool) if m.seat == 1) to c
    } elif c.row == 3 and c.col != 3 and c.col != 5 {
      move first(m for m in items(pool) if m.seat == 2) to c
    }
  }
}
"""

TURN = ("turn {\n  x = liberty_total() * 100 + big_groups()\n  order = probe(cell(g, row: 1, col: 1))\n}\n"
        "end when x > 0\n")

GAME = """turn {
  choose c from [p for p in cells(g) if empty(p) and (any(empty(n) for n in adj(p))
      or any(occupied(n) and size(libs(group(n))) > 1 for n in adj(p)))] as "put"
  move first(m for m in items(pool) if m.seat == seat(active)) to c
  for n in adj(c) {
    if occupied(n) and top(n).seat != seat(active) and empty(libs(group(n))) {
      for s in group(n) { move top(s) to pool }
    }
  }
}
end when count(p for p in cells(g) if empty(p)) < 3
"""


def names_read(prog, function: str) -> set[str]:
    return set(prog.ns[f"F_{function}"].__code__.co_names)


def test_a_component_whose_order_does_not_matter_is_found_once_per_evaluation(monkeypatch):
    fast = outcome(monkeypatch, RULES + TURN, True)
    plain = outcome(monkeypatch, RULES + TURN, False)
    assert fast == plain
    # liberties: each of row 1's 5 stones counts row 2's 5 cells (25); (3, 1) and (3, 2)
    # the 5 around them (10); (3, 4) its 4 neighbours; (4, 5) its 2: 41. Groups of more
    # than 2 stones: row 1's 5 stones
    assert fast["x"] == 41 * 100 + 5
    prog = program(monkeypatch, RULES + TURN)
    for f in ("liberty_total", "big_groups"):
        assert "FC_stones" in names_read(prog, f) and "F_stones" not in names_read(prog, f), f
    # the liberties of a component, written in place, are computed once for it too
    assert "libs" in prog.ns["F_liberty_total"].__code__.co_consts
    # the evaluation's table of components, where the code finds one (see codegen.lines)
    assert "mo_" in prog.ns["F_liberty_total"].__code__.co_varnames
    assert not {"mo_", "FC_stones"} & set(prog.ns["F_libs"].__code__.co_varnames + prog.ns["F_libs"].__code__.co_names)


def test_a_component_whose_order_matters_is_found_from_its_own_start(monkeypatch):
    # probe's size(group(c)) keeps row 1 as found from (1, 5); the list it gives is
    # group((1, 1)): found from (1, 1), in that order
    fast = outcome(monkeypatch, RULES + TURN, True)
    plain = outcome(monkeypatch, RULES + TURN, False)
    prog = program(monkeypatch, RULES + TURN)
    cells = prog.ns["BOARD_g"]
    assert fast["order"] == plain["order"] == cells[:5]
    assert {"FC_stones", "F_stones"} <= names_read(prog, "probe")  # (the list: the plain call)


def test_a_component_found_again_counts_the_same_work(monkeypatch):
    # the fast code needs as much work with the components kept as without (it never
    # needs more than the straightforward code)
    kept = least_work(monkeypatch, RULES + TURN, optimize=True)
    monkeypatch.setattr(codegen.ExprCompiler, "_memo_call", lambda self, e: False)
    assert "FC_stones" not in names_read(program(monkeypatch, RULES + TURN), "liberty_total")
    assert least_work(monkeypatch, RULES + TURN, optimize=True) == kept <= least_work(monkeypatch, RULES + TURN)


def test_random_games_with_captures_play_the_same(monkeypatch):
    assert played_both_ways(monkeypatch, RULES + GAME, 6, moves=30) > 60
    prog = program(monkeypatch, RULES + GAME)
    options = [k for k in prog.ns if k.startswith("FAST_")]
    reads = set().union(*(prog.ns[k].__code__.co_names for k in options))
    assert "FC_stones" in reads and "F_stones" in reads  # (the captures walk the group found)


def test_without_the_fast_code_no_component_is_kept(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    prog = program(monkeypatch, RULES + TURN, optimize=False)
    assert not any(k.startswith("FC_") for k in prog.ns)
    assert json.dumps(outcome(monkeypatch, RULES + TURN, False))


def test_a_walk_that_is_not_the_same_from_each_of_its_cells_is_not_kept(monkeypatch):
    # a relation one way (to the right: from (1, 3) only columns 3 to 5) and a condition
    # that reads the start (the rows from the start's down): found from each cell anew
    rules = RULES + """relation right(a: g, b: g) = a.row == b.row and b.col == a.col + 1
function ahead(c: g): list of g = connected(v for v in right(c) if occupied(v))
function below(c: g): list of g = connected(v for v in adj(c) if v.row >= c.row)
function lengths(): int = sum(size(ahead(c)) * 100 + size(below(c)) for c in cells(g))
turn {
  x = lengths()
}
end when x > 0
"""
    fast, plain = outcome(monkeypatch, rules, True), outcome(monkeypatch, rules, False)
    # ahead: row 1's cells 5 + 4 + 3 + 2 + 1, (3, 1) 2, (3, 2) 1, (3, 4) 1, (4, 5) 1;
    # below: from row r, rows r to 4 (every cell), 5 * (20 + 15 + 10 + 5)
    assert fast == plain and fast["x"] == (15 + 2 + 1 + 1 + 1) * 100 + 5 * 50
    read = names_read(program(monkeypatch, rules), "lengths")
    assert "FC_ahead" not in read and "FC_below" not in read
