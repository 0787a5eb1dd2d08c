"""Kept groups and liberties made unclean by the changes of their points (issue 36 item
4, interpreter/native/kernel_memo.py's ``_walks`` and ``_kept_hop``): a group's walk is
kept once for all its points, and it and the liberties kept for it are read with
nothing checked while no point they read has changed in that game; a change of a point
(in any game) makes unclean the entries of the points beside it, and a copy of a game
is a game of its own. Go's positions where a copy changes a group the original keeps,
and the original then reads it, played by the kernel and the reference side by side:
the legal points, the state and the work counted after every move are the reference's."""
from __future__ import annotations

import random
import re

import pytest
from kernel_support import kernels_on, lists_walked, needs_kernel  # noqa: F401 - the fixtures
from lockstep import compiler, kernel_playouts_as_python, work_counted_as_python
from meeple.interpreter.native import kernel
from test_go_rules import legal
from test_kernel_lasting import both, kernel_go, same, step_both

pytestmark = [pytest.mark.kernels, needs_kernel]

# White's D5 E5 in atari (E4 takes them) beside Black's wall; Black's C3 alone.
ATARI = dict(black="D6 E6 C5 F5 D4 C3", white="D5 E5 G5 A9", active=0)


def test_a_copy_that_takes_a_group_leaves_the_originals_group_as_it_was():
    kern, ref = both(**ATARI)
    assert legal(kern) == legal(ref)   # (the groups kept, clean, in the original)
    copy, ref_copy = kern.copy(), ref.copy()
    step_both(copy, ref_copy, 0, "play E4")   # (the copy takes D5 E5)
    # the original reads its groups again: D5 E5 still stand there, in atari
    assert legal(kern) == legal(ref)
    step_both(kern, ref, 1, "play J9")
    step_both(copy, ref_copy, 2, "play D5")   # (White plays back into the points freed)
    step_both(kern, ref, 3, "play E4")        # (the original takes them now)
    step_both(copy, ref_copy, 4, "play G6")
    assert legal(kern) != legal(copy)


def test_games_copied_at_every_move_read_their_own_groups():
    # a game and a copy of it, each playing its own move, then the copy another: the
    # copy reads groups the original kept (clean there) after the copy's first move
    # changed a point beside them
    rnd = random.Random(11)
    kern, ref = both(**ATARI)
    for step in range(40):
        moves = [m.notation for m in ref.legal_moves() if m.notation != "pass"]
        if ref.over or len(moves) < 2:
            return
        copy, ref_copy = kern.copy(), ref.copy()
        first, other = rnd.sample(moves, 2)
        step_both(copy, ref_copy, step, other)
        step_both(kern, ref, step, first)
        later = [m.notation for m in ref_copy.legal_moves() if m.notation != "pass"]
        if not ref_copy.over and later:
            step_both(copy, ref_copy, step, rnd.choice(later))


def test_captures_and_joins_in_turn_free_and_reuse_the_walks_kept():
    # stones joining groups and groups taken, so that walks are made, left and given back
    kern, ref = both(black="C3 D3 E3 C6 D6 E6 B5 F5", white="C4 D4 A1", active=1)
    same(kern, ref, ["play E4", "play F3", "play B3", "play C5", "play G3", "play D5", "play J9",
                     "play E5", "play J8", "play B4", "play J7", "play F4", "play D4", "play H1"])


@pytest.mark.usefixtures("lists_walked")
def test_go_keeps_a_walk_per_group_and_its_liberties_by_their_points():
    gen = kernel.Gen(kernel_go())
    source = gen.source()
    assert gen.filter_hop("liberties") == ("adjacent", "g")   # (one step from the group's points)
    assert gen.filter_hop("stones") is None                   # (a walk, not a filtered list)
    # (the position, the counts of empty neighbours (kernel_around.py), the walks and the
    # liberties told each change of a zone: the last function set tells the four, the
    # walks' and the liberties' entries in one walk of the points related to the zone)
    told = [t[:t.index("};")] for t in source.split("ZONE_TOUCH = [](int z_) {")[1:]]
    assert [len(re.findall(r"\bT\d+(?:_touch)?\(z_\);", t)) + t.count("g_.tz[n_ % ") for t in told] == [1, 2, 3, 4]
    assert [t.count("_at[z_]; ") for t in told] == [0, 0, 1, 1]
    assert "e.clean && e.lin == s.z.lin.id" in source
    assert "m_.v.p == e.v.p) m_.epoch = EPOCH" not in source   # (no renewal cell by cell)


def test_a_walk_and_the_zones_it_notes_take_no_branch_on_random_truths():
    source = kernel.Gen(kernel_go()).source()
    # (each cell looked at written at the end of the walk, kept by its condition's truth;
    # each zone read written with its stamp, the cursor moved by whether it is new)
    assert re.search(r"if \(seen_\.add\(uV\d+_x\)\) found_\.push_if\(uV\d+_x, \(bool\)\(", source)
    assert "Walked found_;" in source and "out += 2 * new_;" in source


# walks of more cells than a walk's first buffer holds (a region of up to 90 empty
# cells), and walks inside a walk's condition (each a buffer of its own, the outer one's
# cells kept while the inner ones run: cxx/kernel_walks.hpp, Walked)
NESTED = """ruleset nested
players 2..2
kind Mark { seat: int }
board b: grid(rows: 9, cols: 10) holds Mark
zone supply: Mark
deck marks into supply { 20 of Mark(seat: s) for s in 1..2 }
relation adjacent(a: b, c: b) = abs(a.row - c.row) + abs(a.col - c.col) == 1
var seen: int = 0
function region(c: b): list of b = connected(x for x in adjacent(c) if empty(x))
function mine(c: b, s: int): list of b = connected(x for x in adjacent(c) if occupied(x) and top(x).seat == s)
function open(c: b): list of b =
  connected(x for x in adjacent(c) if empty(x) and size(connected(y for y in adjacent(x) if occupied(y)
    or (y.row + y.col) % 4 == 0)) < 3)
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  let corner = cell(b, row: 1, col: 1)
  seen = seen + size(mine(x, seat(active))) * 1000 + size(region(corner)) * 10 + size(open(corner))
    + sum(c.row * c.col for c in open(corner))
}
end when size(supply) == 0
score(p) = seen % 997 + seat(p)
"""


nested = compiler(NESTED, "nested.meeple")


@pytest.mark.usefixtures("lists_walked")
def test_long_walks_and_walks_inside_a_walk_s_condition_are_python_s():
    source = kernel.Gen(nested(False)).source()
    assert source.count("Walked found_;") >= 4
    kernel_playouts_as_python(nested(True), nested(False), 6, seed=5)
    work_counted_as_python(nested, 6, 1 << 16)


# distinct of ids past a few (cxx/kernel_walks.hpp: met in a table by id, as go's liberties
# are made again): cells, items and none, with repeats anywhere or none, and a few
DISTINCT = """ruleset distinct
players 2..2
kind Mark { seat: int }
board b: grid(rows: 4, cols: 5) holds Mark
zone supply: Mark
deck marks into supply { 9 of Mark(seat: s) for s in 1..2 }
relation adjacent(a: b, c: b) = abs(a.row - c.row) + abs(a.col - c.col) == 1
var seen: int = 0
function near(g: list of b): list of b = distinct([n for c in g for n in adjacent(c) if empty(n)])
function taken(): list of b = [c for c in cells(b) if occupied(c)]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  let g = taken()
  let l = near(g)
  let more = distinct(g + g + [x] + l)
  let ms = distinct([top(c) for c in g + g])
  let some = distinct([cell(b, row: c.row, col: 5 - c.col + 1) for c in g] + [none, none] + [x for k in 1..9])
  seen = seen + size(l) * 7 + size(more) * 3 + size(ms) + size(some) * 11 + sum(c.row * c.col for c in l)
    + sum(k * (c.row + c.col) for k in 1..size(more) for c in [more[k - 1]])
}
end when size(supply) == 0
score(p) = seen % 1009 + seat(p)
"""


distinct_rules = compiler(DISTINCT, "distinct.meeple")


def test_distinct_ids_past_a_few_are_python_s():
    kernel_playouts_as_python(distinct_rules(True), distinct_rules(False), 8, seed=2)
    work_counted_as_python(distinct_rules, 8, 1 << 14)
