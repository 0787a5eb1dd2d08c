"""Options in their order by construction in a kernel (interpreter/native/kernel_ordered.py):
a decision's options made by loops over ascending lists (a board's cells, an enum's
values, a range, one of them or nothing by a condition), their element the loops'
variables in the loops' order with constants between them, are taken as made, not
checked and sorted at each decision; options that may be out of order (the variables
in another order, a loop's variable left out: equal options, a list written out) are
still ordered, as Python orders them. The vector of a comprehension of several loops is
first reserved the later loops' known sizes times the first one's. A part of a list's
elements that reads nothing of the state, made of the list's index over a range of
literals and of enum locals (interpreter/native/kernel_rows.py), is read from a row made
once for the locals' values: the same lists as Python's. An ``any`` or ``all`` over a
few literal numbers is written in line, and so is a rule function whose loops are only
such, where it is called."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    program_of,
    work_counted_as_python,
)

pytestmark = pytest.mark.kernels

RULES = """ruleset ordered
players 2..2
enum Q { A, B, C }
kind M { seat: int }
board b: grid(rows: 3, cols: 3) holds M
var n: int = 0
var marks: list of int = [0 for k in 1..9]
var last: int = 0
function index(c: b): int = (c.row - 1) * 3 + c.col - 1
function qi(q: Q): int = if q == A then 0 elif q == B then 1 else 2
turn {
  n = n + 1
  if n % 5 == 1 {
    choose (c, _, q) from [(c, "turn", q) for c in cells(b) if marks[index(c)] == 0 for q in Q] as "place"
    marks[index(c)] = 1
    last = index(c) * 3 + qi(q)
  } elif n % 5 == 2 {
    choose (q, c) from [(q, c) for c in cells(b) for q in Q if marks[index(c)] == 0] as "swap"
    last = index(c) * 3 + qi(q)
  } elif n % 5 == 3 {
    choose (c, k) from [(c, 1) for c in cells(b) for q in Q] as "twice"
    last = index(c) + k
  } elif n % 5 == 4 {
    choose (c, k) from [(c, k) for c in cells(b) if c.row == 2 for k in [3, 1, 2]] as "listed"
    last = index(c) * 3 + k
  } else {
    choose (k, j) from [(k, j) for k in 1..3 for j in 2..n] as "range"
    last = k * 10 + j
  }
}
end when n == 24
score(p) = last + seat(p)
"""

def _asks(source: str) -> list[str]:
    """The kernel's decisions over a list (``all_``), a line each."""
    return [line for line in source.split("\n") if "s.site = " in line and "all_" in line]


def _taken_and_ordered(source: str) -> tuple[list, list]:
    """Of the decisions over a list, those that take their options as made, and those
    that order them first."""
    asks = _asks(source)
    return ([a for a in asks if "COUNTED = (long long)all_.size(); else s.opts." in a],
            [a for a in asks if "count_ordered(all_)" in a])



def compiled(native: bool):
    return program_of(RULES, "ordered.meeple", native)


@needs_kernel
def test_options_in_order_by_construction_are_taken_as_made():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(compiled(False)).source()
    taken, ordered = _taken_and_ordered(source)
    # (range: made in order; place: made in order, kept as a product, kernel_products.py;
    # swap, twice and listed: ordered as before)
    products = [line for line in source.split("\n") if "s.site = " in line and "COUNTED = (long long)lz_.size() * 3;" in line]
    assert len(taken) == 1 and len(products) == 1 and len(ordered) == 3, (len(taken), len(products), len(ordered))
    # (twice: 9 cells, then 3 values of Q for each: 27 reserved, not 18; the board's
    # cells a static list, its size written out: kernel_tables.size_of)
    assert re.search(r"\.reserve\(std::min<size_t>\(3 \* \(size_t\)9, 4096\)\)", source)


@needs_kernel
def test_options_in_order_or_not_play_as_python():
    fast, plain = compiled(True), compiled(False)
    moves = 0
    for seed in range(6):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        while not b.over:
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            i = (seed * 7 + moves) % b.move_count()
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            moves += 1
        assert a.result == b.result
    assert moves >= 6 * 24
    assert kernel_plays_as_python(fast, plain, 4) >= 4 * 24 and fast.native_fallbacks == 0


ROWS = """ruleset rows
players 2..2
enum Q { A, B, C }
enum D { left, right }
var xs: list of int = [k * 7 % 10 for k in 0..11]
var n: int = 0
var last: Q = A
function src(k: int, q: Q, d: D): int = if q == A then k elif d == left then (k + 1) % 12 else 11 - k
turn {
  n = n + 1
  choose (q, d) from [(q, d) for q in Q for d in D] as "turn"
  xs = [xs[src(k, q, d)] for k in 0..11]
  xs = [xs[(k + n) % 12] + 0 * src(k, q, d) for k in 0..11]
  if n == 7 { last = none }
  let e = last
  if n > 8 { xs = [xs[src(k, e, d)] for k in 0..11] }
  if n < 7 { last = q }
}
end when n == 10
function same(a: int): bool = all(xs[(a + k) % 12] == xs[a] for k in 0..2)
function far(a: int): bool = any(xs[k] > a for k in 0..11)
score(p) = xs[0] * 10 + xs[5] + seat(p) + (if same(seat(p)) then 100 else 0) + (if far(8) then 1000 else 0)
"""


@needs_kernel
def test_a_pure_part_of_a_list_s_elements_is_read_from_a_row_made_once():
    # (xs[src(k, q, d)]: src reads nothing of the state, q and d are enum locals: a row
    # of 12 for each of their 6 values; (k + n) % 12 reads n, a variable: in place, the
    # part beside it a row; the third list's local may be none: its row stops the
    # kernel, Python plays the move)
    from meeple.interpreter.native import kernel
    plain = program_of(ROWS, "rows.meeple", False)
    source = kernel.Gen(plain).source()
    assert len(re.findall(r"const I\* uV\d+_row = uP_\w+\(s, ", source)) == 3, "no rows"
    assert "static I T" in source and "[6][12]; static uint8_t T" in source
    assert re.search(r"at\(uV\d+_view, mod\(add\(uV\d+_k, s\.uG_n\)", source)   # (xs: kernel_lists.hpp, ListView)
    never = ROWS.replace("if n == 7 { last = none }", "")
    fast = program_of(never, "rows.meeple", True)
    assert kernel_plays_as_python(fast, program_of(never, "rows.meeple", False), 6) == 6 * 10
    assert fast.native_fallbacks == 0
    fast = program_of(ROWS, "rows.meeple", True)
    for seed in range(4):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        while not b.over:
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            i = (seed + b.state["vars"]["n"]) % b.move_count()
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert a.result == b.result and a.state["vars"] == b.state["vars"]
    assert fast.native_fallbacks > 0   # (the none local: played by Python, alike)


@needs_kernel
def test_any_and_all_over_a_few_literal_numbers_are_written_in_line():
    # (same: all over 0..2, in line, and so is the function; far: any over 0..11, as before)
    from meeple.interpreter.native import kernel
    source = kernel.Gen(program_of(ROWS, "rows.meeple", False)).source()
    assert re.search(r"static inline MK_AI bool uF_same\(St& s, I uA_a\) \{ "
                     r"return \(\[&\]\(\) "
                     r"MK_AI -> bool", source)
    assert re.search(r"static bool uF_far\(St& s, I uA_a\) \{ return \(\[&\]\(\) -> bool", source)


# Moves of two cells as breakthrough's and checkers' are made (tests/testdata): a piece's
# cells ahead (``cell(b, row: c.row + fwd(s), col: c.col + dc)`` for dc in [-1, 0, 1],
# none left out), a piece's jumps (two cells on by a row of rows_of(c), a man's one or a
# king's two, and a column of [-1, 1]), each list a rule function's; steps, jumps and the
# waits are made in their order (taken as made), backs (columns descending), swapped (the
# target before the piece), hops (a jump alone, not known to begin with its piece) and
# crossed (the coordinates given column first) are ordered at each decision.
STEPS = """ruleset stepping
players 2..2
kind P { seat: int }
board b: grid(rows: 5, cols: 5) holds P
zone box: P
deck ps into box { P(seat: s) for s in 1..2 for i in 1..5 }
var n: int = 0
var last: int = 0
function fwd(s: int): int = if s == 1 then 1 else -1
function own(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
function ahead(c: b, s: int): list of b =
  [t for dc in [-1, 0, 1] for t in [cell(b, row: c.row + fwd(s), col: c.col + dc)] if t != none and empty(t)]
function behind(c: b, s: int): list of b =
  [t for dc in [-1, 0, 1] for t in [cell(b, row: c.row + fwd(s), col: c.col - dc)] if t != none and empty(t)]
function across(c: b, s: int): list of b =
  [t for dc in [-1, 0, 1] for t in [cell(b, col: c.col + dc, row: c.row + fwd(s))] if t != none and empty(t)]
function rows_of(c: b): list of int = if c.col <= 2 then [-1, 1] else [fwd(top(c).seat)]
function jumps(c: b): list of list of b =
  [[c, t] for dr in rows_of(c) for dc in [-1, 1]
     for o in [cell(b, row: c.row + dr, col: c.col + dc)]
     for t in [cell(b, row: c.row + 2 * dr, col: c.col + 2 * dc)] if t != none and empty(t) and o != none]
function steps(s: int): list of list of b = [[c, t] for c in own(s) for t in ahead(c, s)]
function backs(s: int): list of list of b = [[c, t] for c in own(s) for t in behind(c, s)]
function swapped(s: int): list of list of b = [[t, c] for c in own(s) for t in ahead(c, s)]
function crossed(s: int): list of list of b = [[c, t] for c in own(s) for t in across(c, s)]
function hops(s: int): list of list of b = [m for c in own(s) for m in jumps(c)]
setup {
  for c in cells(b) {
    if c.row == 1 { move first(p for p in items(box) if p.seat == 1) to c }
    if c.row == 5 { move first(p for p in items(box) if p.seat == 2) to c }
  }
}
turn {
  n = n + 1
  let s = seat(active)
  let k = n % 5
  if k == 1 and occupied(steps(s)) {
    choose m from steps(s) as "step"
    move top(m[0]) to m[1]
  } elif k == 2 and occupied(backs(s)) {
    choose m from backs(s) as "back"
    move top(m[0]) to m[1]
  } elif k == 3 and occupied(swapped(s)) {
    choose m from swapped(s) as "swap"
    move top(m[1]) to m[0]
  } elif k == 4 and occupied(hops(s)) {
    choose m from hops(s) as "hop"
    move top(m[0]) to m[1]
    if occupied(jumps(m[1])) {
      choose j from jumps(m[1]) as "again"
      move top(j[0]) to j[1]
    }
  } elif k == 0 and occupied(crossed(s)) {
    choose m from crossed(s) as "cross"
    move top(m[0]) to m[1]
  } else {
    choose w from [1, 2] as "wait"
    last = last + w
  }
}
end when n == 30
score(p) = last + sum(c.row * c.col for c in own(seat(p)))
"""


stepping = compiler(STEPS, "stepping.meeple")


@needs_kernel
def test_moves_of_cells_stepped_by_their_coordinates_are_taken_as_made():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(stepping(False)).source()
    taken, ordered = _taken_and_ordered(source)
    # (step, hop, again and wait: made in order, hop's moves each jumps(c)'s, which
    # start with c; back, swap and cross: ordered)
    assert len(taken) == 4 and len(ordered) == 3, (len(taken), len(ordered))
    # (ahead's cells are walked in steps' place, each pushed as a move of two cells as
    # it is found: no list of them made first and walked)
    assert "uF_ahead(s, " not in source
    assert not re.search(r"const Id\* uV\d+_d = uV\d+_out\.data\(\); size_t uV\d+_n = uV\d+_out\.size\(\);",
                         source)


@needs_kernel
def test_moves_of_cells_in_order_or_not_play_as_python():
    fast, plain = stepping(True), stepping(False)
    kinds = set()
    for seed in range(8):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        while not b.over:
            legal = [m.notation for m in b.legal_moves()]
            assert [m.notation for m in a.legal_moves()] == legal
            kinds.add(legal[0].split(" ")[0])
            i = (seed * 5 + b.state["vars"]["n"]) % b.move_count()
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert a.result == b.result and a.state == b.state
    assert kinds == {"step", "back", "swap", "hop", "again", "cross"} and fast.native_fallbacks == 0
    kernel_playouts_as_python(stepping(True), plain, 12, seed=5)
    work_counted_as_python(stepping, 12, 1 << 14)


# Options a local holds: in order where every let and assignment of it makes them so
# (mine: each piece's steps, which start with its cell, piece by piece), else ordered
# (theirs: the steps start with the cell stepped to; some: once mine, then theirs).
LEADS = """ruleset leads
players 2..2
kind Man { seat: int }
board b: grid(rows: 5, cols: 5) holds Man
zone box: Man
deck men into box { 5 of Man(seat: s) for s in 1..2 }
var n: int = 0
function own(s: int): list of b = [c for c in cells(b) if occupied(c) and top(c).seat == s]
function near(c: b): list of list of b =
  [[c, t] for dr in [-1, 1] for dc in [-1, 0, 1]
     for t in [cell(b, row: c.row + dr, col: c.col + dc)] if t != none and empty(t)]
function back(c: b): list of list of b =
  [[t, c] for dr in [-1, 1] for dc in [-1, 0, 1]
     for t in [cell(b, row: c.row + dr, col: c.col + dc)] if t != none and empty(t)]
setup {
  for c in cells(b) {
    if c.row == 1 { move first(p for p in items(box) if p.seat == 1) to c }
    if c.row == 5 { move first(p for p in items(box) if p.seat == 2) to c }
  }
}
turn {
  n = n + 1
  let s = seat(active)
  let mine = [m for c in own(s) for m in near(c)]
  let theirs = [m for c in own(s) for m in back(c)]
  let some = mine
  if n % 3 == 2 { some = theirs }
  if n % 3 == 0 and occupied(mine) {
    choose m from mine as "walk"
    move top(m[0]) to m[1]
  } elif n % 3 == 1 and occupied(theirs) {
    choose m from theirs as "return"
    move top(m[1]) to m[0]
  } elif occupied(some) {
    choose m from some as "some"
    move top(m[1]) to m[0]
  }
}
end when n == 30
score(p) = sum(c.row * c.col for c in own(seat(p)))
"""


leads = compiler(LEADS, "leads.meeple")


@needs_kernel
def test_options_a_local_holds_made_in_order_are_taken_as_made():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(leads(False)).source()
    taken, ordered = _taken_and_ordered(source)
    assert len(taken) == 1 and len(ordered) == 2, (len(taken), len(ordered))
    assert kernel_plays_as_python(leads(True), leads(False), 6) > 60
    kernel_playouts_as_python(leads(True), leads(False), 12, seed=1)


# A local, a parameter or a comprehension's variable named as an enum hides it: a list
# of any order, never taken as the enum's values in their order.
SHADOWED = """ruleset shadowed
players 2..2
enum Dir { north, south }
var n: int = 0
function given(Dir: list of int): list of int = [d for d in Dir]
function bound(): list of int = [x for Dir in [[6, 4, 5]] for x in Dir]
turn {
  n = n + 1
  let Dir = [3, 1, 2]
  choose x from Dir as "local"
  choose y from given([5, 4]) as "param"
  choose z from bound() as "loop"
  choose w from [d for d in Dir] as "inner"
}
end when n == 3
score(p) = n
"""


@needs_kernel
def test_a_name_that_hides_an_enum_is_no_list_in_order():
    from meeple.interpreter.native import kernel
    source = kernel.Gen(program_of(SHADOWED, "shadowed.meeple", False)).source()
    asks = _asks(source)
    assert len(asks) == 4 and all("count_ordered(all_)" in a for a in asks)
    fast, plain = program_of(SHADOWED, "shadowed.meeple", True), program_of(SHADOWED, "shadowed.meeple", False)
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    seen = []
    while not b.over:
        legal = [m.notation for m in b.legal_moves()]
        assert [m.notation for m in a.legal_moves()] == legal
        seen.append(legal)
        a.apply(len(seen) % 2, safe=False)
        b.apply(len(seen) % 2, safe=False)
    assert a.state == b.state and fast.native_fallbacks == 0
    assert seen[:4] == [["local 1", "local 2", "local 3"], ["param 4", "param 5"], ["loop 4", "loop 5", "loop 6"],
                        ["inner 1", "inner 2", "inner 3"]]
