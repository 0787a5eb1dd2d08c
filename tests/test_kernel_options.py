"""The order of a decision's options in a kernel (cxx/kernel_rt.hpp ``ordered``,
cxx/kernel_state.hpp ``ordered_items``): a list the rules made already in order is
taken as it is, any other is sorted and its duplicates dropped, items a seat may not
know go by their place; always the options, in the order, that Python gives."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, program_of
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kgame import KernelGame

pytestmark = pytest.mark.kernels

# each turn one decision of each kind: options in order, out of order with a duplicate,
# items the chooser sees (its hand, in order), items it may not know (the stock, hidden)
# among them, in the order of their ids (those it sees go first),
# lists of items in order and out of order, texts out of order with duplicates (some
# alike in their first 8 bytes, one the beginning of another); decisions that may be
# declined (none first, then the options in their order: cxx/kernel_rt.hpp
# ``none_then_ordered``) of numbers out of order and in order, texts, no option but
# none, and items
RULES = """ruleset options
players 2..2
kind Card { v: int }
zone stock: Card hidden
zone hand: Card per player
zone pile: Card public
deck cards into stock { Card(v: k) for k in 1..12 }
var total: int = 0
setup {
  shuffle stock
  deal 3 from stock to hand
}
turn {
  choose a from [1, 2, 3] as "up"
  choose b from [3, 1, 2, 1, a] as "mixed"
  choose c from items(hand(active)) as "own"
  move c to pile
  move top(stock) to hand(active)
  choose d from sort(items(stock) + items(hand(active))) as "blind"
  move d to pile
  choose e from [[x, y] for x in items(hand(active)) for y in items(pile) if x != y] as "pairs"
  choose f from reverse([[x] for x in items(hand(active))]) as "backwards"
  choose g from [w + "!" for w in ["longer text b", "longer text", "b", "longer text a", "longer text b", "a"]] as "texts"
  choose h from [3, 1, 2, 1, a] as "pick" or "skip"
  choose i from [1, 2, 3] as "rise" or "skip"
  choose j from [w + "?" for w in ["b", "longer text", "a", "b", "longer text a"]] as "word" or "skip"
  choose k from [x for x in [1, 2] if x > a + 5] as "never" or "skip"
  choose l from items(hand(active)) as "show" or "skip"
  total = total + a + b + e[0].v + f[0].v + (if h == none then 0 else h) + (if i == none then 0 else i)
}
end when size(stock) == 0
score(p) = total
"""


def compiled(native: bool):
    return program_of(RULES, "options.meeple", native)


@needs_kernel
def test_options_in_any_order_are_python_s_at_every_decision():
    fast, plain = compiled(True), compiled(False)
    decisions = 0
    for seed in range(6):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, decisions)
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
            decisions += 1
        assert a.result == b.result
    assert decisions > 100 and fast.native_fallbacks == 0


# decisions that may be declined among a board's cells, filtered (in the board's order,
# no none: cxx/kernel_rt.hpp ``none_then``, one copy), the first at every turn, the second
# sometimes with no cell but none
BOARD = """ruleset board_options
players 2..2
kind Stone { w: int }
board sq: cells { a1(x: 1) b1(x: 2) c1(x: 3) a2(x: 1) b2(x: 2) c2(x: 3) } holds Stone
zone pot: Stone
deck stones into pot { Stone(w: k) for k in 1..5 }
turn {
  choose c from [x for x in cells(sq) if empty(x)] as "place" or "pass"
  if c != none { move top(pot) to c }
  choose d from [x for x in cells(sq) if occupied(x) and x.x > 1] as "lift" or "keep"
  if d != none and size(pot) < 2 { move top(d) to pot }
}
end when size(pot) == 0 or turn_number() >= 30
score(p) = size(pot)
"""


@needs_kernel
def test_options_of_a_board_s_cells_filtered_are_python_s_with_none_first():
    src = SourceSet(base=parse(BOARD, "board.meeple"), sources={"board.meeple": BOARD})
    rules = compile_sources(src)
    assert rules.use_native(report=False, kernel_only=True)
    fast, plain = rules.for_players(2), compile_sources(src).for_players(2)
    assert kernel.Gen(fast).source().count("none_then(all_, none_of<Id>())") == 2
    declined = 0
    for seed in range(8):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while not b.over:
            moves = [m.notation for m in b.legal_moves()]
            assert [m.notation for m in a.legal_moves()] == moves
            assert kernel_difference(a.kernel_state(), b) is None, seed
            i = rnd.randrange(b.move_count())
            declined += moves[i] in ("pass", "keep")
            a.apply(i)
            b.apply(i)
        assert a.result == b.result
    assert declined > 10 and fast.native_fallbacks == 0
