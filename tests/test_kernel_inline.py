"""Short lists and texts in a kernel (cxx/kernel_rt.hpp ``List::of``, cxx/kernel_texts.hpp
``scatn``): a list written in the rules of at most 16 bytes of numbers, ids or bools
(chess's moves of two squares) keeps its elements in its header, with no buffer of its
own, and grows out of it when it is appended to in place (``xs = xs + [...]`` where
nothing else holds it); a text written in the rules is made once; a text made by ``+``
copies a short part kept inside its object as one block. Each plays as Python does:
the same states, options in the same order, the same work."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

pytestmark = [pytest.mark.kernels, needs_kernel]

# Lists written in the rules, inline (2 ints, 2 to 4 seats, bools), each grown in place
# past what its header holds (3 ints, 5 seats, 17 and more bools) and within it first;
# compared with lists made by comprehensions (a buffer of their own), found by ``in``
# (their hashes), offered as options (their order) and kept in the state.
LISTS = """ruleset inline
players 2..2
var grown: list of int = []
var seats: list of player = []
var bits: list of bool = []
var seen: list of list of int = []
var found: list of bool = []
var turns: int = 0
turn {
  let a = [turns, turns + 1]
  let kept = a
  a = a + [turns + 2]
  let b = [turns, turns + 1]
  b = b + [turns + 2] + [turns + 3]
  let ps = [active, next_player(active)]
  ps = ps + [active, active]
  ps = ps + [next_player(active)]
  let bs = [turns % 2 == 0]
  for k in 1..(16 + turns) {
    bs = bs + [k % 3 == 0]
  }
  let e = [turns]
  e = e + [turns * 2]
  e = e + [turns * 3]
  found = [a == [x for x in turns..(turns + 2)], kept == [turns, turns + 1], kept in seen,
           a in seen + [[turns, turns + 1, turns + 2]], e == [turns, 2 * turns, 3 * turns],
           size(bs) == 17 + turns, size(ps) == 5]
  seen = seen + [kept, a, b, e]
  grown = grown + a + b
  seats = ps
  bits = bs
  choose m from [[turns + 1, 0], a, b, [turns, turns], e, kept, [0, turns + 1, 2]] as "list"
  grown = grown + m
  turns = turns + 1
}
end when turns == 6
score(p) = 0
"""

# Texts made by +, short (at most 64 bytes) with parts of every kind: literals, a part
# kept inside its object and one of more than 15 bytes (a buffer of its own), accents,
# the empty text; options that differ only after their first 8 bytes.
TEXTS = """ruleset short_texts
players 2..2
var said: str = ""
var turns: int = 0
function mid(k: int): str = if k % 2 == 0 then "a text of twenty-two b" else "\u00e9"
function tag(k: int): str = if k % 3 == 0 then "" else "=" + mid(k)
turn {
  let names = [said + "-" + mid(k) + tag(k) + "!" for k in 1..4] + ["x" + "" + "y", "abcdefgh" + tag(turns)]
  choose mv from names as "say"
  said = if turns % 2 == 0 then mv else "q"
  turns = turns + 1
}
end when turns == 6
score(p) = 0
"""


def _both(text: str):
    src = SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})
    fast = compile_sources(src)
    assert fast.use_native(report=False, kernel_only=True)
    fast = fast.for_players(2)
    assert fast.kernel
    return fast, compile_sources(src).for_players(2)


def _lockstep(fast, plain, seeds: int) -> int:
    decisions = 0
    for seed in range(seeds):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, decisions)
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            assert a.work_spent == b.work_spent
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
            decisions += 1
        assert a.live and kernel_difference(a.kernel_state(), b) is None
        assert a.result == b.result and a.state == b.state
    assert fast.native_fallbacks == 0
    return decisions


def test_short_lists_kept_inline_grow_and_compare_as_python_s():
    fast, plain = _both(LISTS)
    source = kernel.Gen(plain).source()
    assert "List<I>::of({" in source and "Vec<I>{" not in source   # (written lists: List::of)
    assert _lockstep(fast, plain, 4) == 24
    game = plain.new_game(2, 0)
    assert game.state["vars"]["found"] == [True, True, False, True, True, True, True]
    while not game.over:
        game.apply(1)
    vars_ = game.state["vars"]
    assert len(vars_["bits"]) == 22 and vars_["bits"][:4] == [False, False, False, True]
    assert len(vars_["seats"]) == 5 and vars_["seen"][-4:] == [[5, 6], [5, 6, 7], [5, 6, 7, 8], [5, 10, 15]]


def test_short_texts_made_by_plus_are_python_s_and_literals_are_made_once():
    fast, plain = _both(TEXTS)
    source = kernel.Gen(plain).source()
    # (each literal a constant of the module, read where it is)
    assert 'static const Str T' in source and 'scatn(s, Str(' not in source
    assert _lockstep(fast, plain, 5) == 30
    game = fast.new_game(2, 0)
    names = [m.notation for m in game.legal_moves()]
    assert "say -a text of twenty-two b=a text of twenty-two b!" in names
    assert "say -\u00e9=\u00e9!" in names and "say xy" in names and "say abcdefgh" in names
