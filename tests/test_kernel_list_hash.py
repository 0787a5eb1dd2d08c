"""Lists of numbers compared in a kernel (issue 36 item 4: go's positions seen, ``now in
positions``): by their bytes, and inside ``in`` by a hash each list keeps once made
(cxx/kernel_rt.hpp, ``List::hash``). A list changed in place after its hash was made
(``xs = xs + [...]`` where nothing else holds it) forgets it: a later ``in`` finds the
list as it is now, as Python does."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import program_of
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

RULES = """ruleset hashes
players 2..2
var seen: list of list of int = []
var cur: list of int = []
var found: list of bool = []
var done: bool = false
turn {
  choose k from [1, 2] as "pick"
  cur = 1..20
  seen = [0..19, 2..21]
  # xs's hash made here (not in seen)...
  let xs = 1..20
  found = found + [xs in seen]
  # ...then xs made 1..21 in place (nothing else holds it)
  xs = xs + [21]
  found = found + [1..21 in [xs]]
  cur = xs
  seen = seen + [cur]
  found = found + [1..21 in seen, 1..20 in seen, 2..21 in seen, [1, 2] in [[1, 2]]]
  found = found + [[true, false] in [[true, true], [true, false]], [[1]] in [[[1]]]]
  done = true
}
end when done
"""


def first_vars(native: bool) -> dict:
    src = SourceSet(base=parse(RULES, "hashes.meeple"), sources={"hashes.meeple": RULES})
    rules = compile_sources(src)
    if native:
        assert rules.use_native(report=False, kernel_only=True)
    prog = rules.for_players(2)
    if native:
        assert prog.kernel
    game = prog.new_game(2, 1)
    game.undo_limit = 0   # (no copy kept: the lists are held once)
    game.apply(0)   # (the kernel plays the turn: it takes a game over at its first move)
    return game.state["vars"]


def test_a_list_changed_in_place_after_its_hash_is_found_as_it_is_now():
    kern, ref = first_vars(True), first_vars(False)
    assert ref["found"] == [False, True, True, False, True, True, True, True]
    assert kern == ref


# A 4×4 board whose stones are put on and taken off (in its first row: 16 boards), the
# whole board noted one number per cell (a list the kernel keeps, remaking the cells changed: kernel_elementwise.py)
# and looked for among those seen: a board seen before comes back often, found by the
# hash the remade list takes from the kept one's (its elements' shares changed), which
# must be the hash made afresh. Played in the kernel's batch (no copy of the state made
# between moves, as in go's playouts) and by the reference.
BOARDS = """ruleset boards
players 2..2
kind Stone { n: int }
board b: grid(rows: 4, cols: 4) holds Stone
zone box: Stone
deck stones into box { 16 of Stone(n: 1) }
var seen: list of list of int = []
var back: int = 0
function code(c: b): int = if empty(c) then 0 else 1 + c.row
function picture(): list of int = [code(c) for c in cells(b)]
setup { seen = [picture()] }
turn {
  choose c from [x for x in cells(b) if x.row == 1] as "spot"
  if empty(c) { move top(box) to c } else { move top(c) to box }
  let now = picture()
  if now in seen { back = back + 1 } else { seen = seen + [now] }
}
end when turn_number() >= 60
score(p) = back
"""


def boards(native: bool):
    """The program of BOARDS, played by a kernel or by the reference."""
    prog = program_of(BOARDS, "boards.meeple", native)
    assert bool(prog.kernel) == native
    return prog


def test_a_board_remade_from_a_kept_one_is_found_among_those_seen():
    kern, ref = boards(True), boards(False)
    games = interpreter.playouts(ref, 6, seed=1)
    assert all(g["result"]["scores"][0] > 20 for g in games)   # (boards came back, found)
    assert interpreter.playouts(kern, 6, seed=1) == games


def test_boards_seen_by_a_game_and_its_copies_are_found_in_each():
    # the list of boards seen, shared by a game and its copy until one adds to it, is
    # looked up by the hashes of its boards (an index the list keeps, grown as boards
    # are added: cxx/kernel_rt.hpp ``HashIndex``); each game finds its own boards
    kern, ref = boards(True), boards(False)
    rnd = random.Random(5)
    a, b = kern.new_game(2, 3), ref.new_game(2, 3)
    pairs = [(a, b)]
    for step in range(59):
        if step in (10, 25, 40):
            pairs.append((pairs[0][0].copy(), pairs[0][1].copy()))
        for k, r in pairs:
            if r.over:
                continue
            i = rnd.randrange(r.move_count())
            k.apply(i)
            r.apply(i)
            assert k.state["vars"]["back"] == r.state["vars"]["back"], step
    assert max(r.state["vars"]["back"] for _, r in pairs) > 10


# The boards seen, each a list of 16 numbers, and at every turn how many of them are the
# board now (chess's repetitions: ``count(q for q in seen if q == picture())``). The
# board now is the same at every turn of the count's loop: a kernel computes it once (a
# kept value read once, not once per board seen) and counts the boards equal to it by
# their hashes (cxx/kernel_rt.hpp ``count_eq``), counting the work of the others the
# reference computes (16 cells each) all the same: the same counts, the same work after
# every move, and a work budget one short of the busiest move stops that move.
REPEATS = BOARDS.replace(
    "  if now in seen { back = back + 1 } else { seen = seen + [now] }\n",
    "  seen = seen + [now]\n  back = back + count(q for q in seen if q == picture()) - 1\n"
    "  back = back + count(q for q in seen if picture() == q) - 1\n")


def repeats(native: bool, budgets=None):
    """The program of REPEATS, played by a kernel or by the reference."""
    src = SourceSet(base=parse(REPEATS, "repeats.meeple"), sources={"repeats.meeple": REPEATS})
    rules = compile_sources(src, budgets=budgets)
    if native:
        assert rules.use_native(report=False, kernel_only=True)
    prog = rules.for_players(2)
    assert bool(prog.kernel) == native
    return prog


def lockstep(kern, ref, moves: int) -> list[tuple[int, int]]:
    """One random game of each, move by move: the same state and the same work after
    every move (checked); the moves played (seat, index)."""
    rnd = random.Random(3)
    k, r = kern.new_game(2, 3), ref.new_game(2, 3)
    played = []
    for step in range(moves):
        seat = r.deciding[0]
        i = rnd.randrange(r.move_count(seat))
        k.apply(i, seat=seat)
        r.apply(i, seat=seat)
        played.append((seat, i))
        # (the kernel's own work and state, read where it plays: kernel_state)
        assert (k.work_spent, k.calls_spent) == (r.work_spent, r.calls_spent), step
        assert k.kernel_state()["vars"] == r.state["vars"], step
    return played


def test_boards_equal_to_the_one_now_are_counted_with_the_reference_s_work():
    kern, ref = repeats(True), repeats(False)
    before = kern.kernel_kept_reads
    lockstep(kern, ref, 40)
    # (the board now read once per count, with its 16 cells kept one by one
    # (kernel_elementwise.py) 17 values a turn: a read per board seen made
    # 2 * (1 + 2 + ... + 40) = 1640 more)
    assert kern.kernel_kept_reads - before <= 20 * 40
    games = interpreter.playouts(ref, 4, seed=1)
    assert all(g["result"]["scores"][0] > 20 for g in games)
    assert interpreter.playouts(kern, 4, seed=1) == games


def test_a_work_budget_one_short_of_counting_the_boards_stops_the_same_move():
    from meeple.interpreter import Budgets, RuleError
    ref = repeats(False)
    played = lockstep(repeats(True), ref, 30)
    game, most = ref.new_game(2, 3), 0
    for seat, i in played:
        game.apply(i, seat=seat)
        most = max(most, game.work_spent)
    short = Budgets(work=most - 1)

    def stopped(prog):
        game = prog.new_game(2, 3)
        for step, (seat, i) in enumerate(played):
            try:
                game.apply(i, seat=seat)
            except RuleError as e:
                return step, str(e), e.code
        return None
    want = stopped(repeats(False, short))
    assert want is not None and want[2] == "rule/budget"
    assert stopped(repeats(True, short)) == want


# Counts of values equal to one value of every kind: numbers either side of ==, texts,
# lists of numbers and none, a value of an outer loop's turn, a value that fails (an
# index outside its list: never evaluated over an empty list, the reference's error over
# a list with elements), a list made by a comprehension.
KINDS = """ruleset kinds
players 2..2
var ns: list of int = []
var ts: list of str = []
var ls: list of list of int = []
var out: list of int = []
var none_: list of int = []
var done: bool = false
function f(k: int): list of int = [k, k + 1]
turn {
  choose k from [1, 2, 3] as "pick"
  ns = ns + [k, 1, k]
  ts = ts + ["a{k}", "a1"]
  ls = ls + [f(k), f(1), [k]]
  out = out + [count(x for x in ns if x == k), count(x for x in ns if 1 == x), count(t for t in ts if t == "a{k}")]
  out = out + [count(q for q in ls if q == f(k)), count(q for q in ls if q == none), count(x for x in none_ if x == ns[99])]
  out = out + [sum(count(x for x in ns if x == y) for y in [1, 2, 3])]
  out = out + [count(q for q in ls if q == [x for x in f(k) if x > 0])]
  if turn_number() > 12 { done = true }
}
end when done
score(p) = sum(out)
"""


def kinds(native: bool, text: str = KINDS):
    prog = program_of(text, "kinds.meeple", native)
    assert bool(prog.kernel) == native
    return prog


def test_counts_of_values_equal_to_one_value_of_every_kind_are_the_reference_s():
    kern, ref = kinds(True), kinds(False)
    games = interpreter.playouts(ref, 5, seed=2)
    assert interpreter.playouts(kern, 5, seed=2) == games and kern.native_fallbacks == 0
    failing = KINDS.replace("x for x in none_ if x == ns[99]", "x for x in ns if x == ns[99]")
    from meeple.interpreter import RuleError
    for native in (True, False):
        with pytest.raises(RuleError, match="an index is outside its list"):
            kinds(native, failing).new_game(2, 1).apply(0)
