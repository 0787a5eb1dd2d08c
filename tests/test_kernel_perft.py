"""Perft on a kernel (interpreter/native/cxx/kernel_glue.hpp: count_paths, divide): the
counts of ``interpreter.perft`` and ``divide`` from any position, made by the kernel
(the first moves of a divide in batches, one call each, no Python copy of the game per
move), are Python's; and what the kernel makes faster for them (a board's rays made
once, a decision's texts ordered by their addresses, a text made by ``+`` in place)
offers the same moves in the same order as Python. The kernels are built with -O0 here
(conftest.py)."""
from __future__ import annotations

import json

import pytest
from chess_fen import KIWIPETE, fen_position
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kgame import KernelGame

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

# Rays of steps the kernel keeps (at most 2 each way) and of one it makes each time (3),
# from every cell the game goes to; options that are texts made with +, two equal ones,
# and texts that sort by code point ("Z" < "a" < "to ..." < "é").
RAYS = """ruleset rays
players 2..2
kind Stone { }
board grid: grid(rows: 5, cols: 5) holds Stone
zone box: Stone
deck stones into box { Stone() for i in 1..2 }
var at: grid = none
function steps(): list of list of int = [[1, 0], [0, 2], [-1, -1], [3, 1], [2, -2], [-2, 0], [0, -1]]
function label(c: grid): str = "to " + c.name + "!"
setup { at = cell(grid, row: 3, col: 3) }
turn {
  let names = [label(c) for d in steps() for c in ray(at, row: d[0], col: d[1])] + ["é", "Z", "é", "a"]
  choose mv from names as "go"
  let next = first(c for c in cells(grid) if label(c) == mv)
  if next != none {
    at = next
  }
}
end when false
score(p) = 0
"""

# Texts made by chains of + (one text each in the kernel: scatn), with accents, empty
# texts, one made longer at every turn (past 64 bytes), and options that sort by more
# than their first 8 bytes ("abcdefg" < "abcdefgh" < "abcdefgh0"), or are equal ("Z").
TEXTS = """ruleset texts
players 2..2
var turns: int = 0
var said: str = ""
function accent(k: int): str = if k % 2 == 0 then "\u00e9" else ""
function long(): str = "0123456789012345678901234567890123456789012345678901234567890123456789"
turn {
  let names = ["to " + accent(k) + "x" + "!" for k in 1..3]
    + ["abcdefgh" + "1", "abcdefgh" + "0", "abcdefg" + "", "abcdefgh", "\u00e9" + "\u00e8", "Z", "" + "Z"]
    + [long() + said + "y", said + "-" + accent(turns) + "-" + said]
  choose mv from names as "go"
  said = mv
  turns = turns + 1
}
end when turns == 5
score(p) = 0
"""

# Slides up to the first stone of a line (until), in a list (walked once by the kernel,
# no list made for until) and in aggregates (first, any: until's list made), with a
# stone dropped at every move.
SLIDES = """ruleset slides
players 2..2
kind Stone { }
board grid: grid(rows: 5, cols: 5) holds Stone
zone box: Stone
deck stones into box { Stone() for i in 1..6 }
var at: grid = none
function steps(): list of list of int = [[1, 0], [0, 1], [-1, -1], [0, -1], [-1, 1], [0, 2]]
function reach(a: grid): list of grid =
  [b for d in steps() for b in until(c for c in ray(a, row: d[0], col: d[1]) if occupied(c)) if b != a]
function blocked(a: grid): bool =
  any(occupied(b) for b in until(c for c in ray(a, row: 1, col: 0) if occupied(c)))
setup { at = cell(grid, row: 3, col: 3) }
turn {
  let far = first(b for b in until(c for c in ray(at, row: 0, col: 1) if occupied(c)) if b != at)
  choose b from reach(at) + (if blocked(at) and far != none then [far] else []) as "go"
  move top(box) to at
  at = b
}
end when size(box) == 0
score(p) = 0
"""


def _both(text: str):
    """The program played by its kernel, and the Python one."""
    src = SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})
    fast = compile_sources(src)
    assert fast.use_native(report=False)
    fast = fast.for_players(2)
    assert fast.kernel
    return fast, compile_sources(src).for_players(2)


def test_a_divide_is_counted_by_the_kernel_without_a_copy_per_first_move(monkeypatch):
    rules = interpreter.load("chess")
    assert rules.use_native(report=False)
    want = interpreter.divide(fen_position(KIWIPETE), 2)   # (in Python)
    game = rules.resume(json.loads(fen_position(KIWIPETE).to_json()))
    assert isinstance(game, KernelGame)

    def no_copy(self):
        raise AssertionError("a copy of the game per first move")
    monkeypatch.setattr(KernelGame, "copy", no_copy)
    told = []
    counts = interpreter.divide(game, 2, lambda m, n: told.append((m, n)))
    assert counts == want and sum(counts.values()) == 2039 and len(counts) == 48
    assert told == list(want.items())               # each first move told, in order
    assert game.live and game.state == fen_position(KIWIPETE).state   # left as it was
    assert rules.for_players(2).native_fallbacks == 0


def test_rays_and_texts_offer_the_same_moves_in_the_kernel_and_in_python():
    fast, plain = _both(RAYS)
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    for step in range(6):
        moves = [m.notation for m in b.legal_moves()]
        assert [m.notation for m in a.legal_moves()] == moves
        assert moves[:2] == ["go Z", "go a"] and moves[-1] == "go é" and moves.count("go é") == 1
        assert interpreter.divide(a, 2) == interpreter.divide(b, 2)
        i = (3 * step + 2) % (len(moves) - 3)     # (a cell: the game moves on)
        a.apply(i)
        b.apply(i)
        assert a.live and a.state == b.state
    assert fast.native_fallbacks == 0


def test_the_kernel_counts_the_published_chess_perfts():
    """https://www.chessprogramming.org/Perft_Results, each count one call into the
    kernel (deeper ones: benchmarks/bench_chess_perft.py)."""
    rules = interpreter.load("chess")
    assert rules.use_native(report=False)
    start = rules.new_game(2, 0)
    kiwipete = rules.resume(json.loads(fen_position(KIWIPETE).to_json()))
    assert [interpreter.perft(start, d) for d in (1, 2, 3)] == [20, 400, 8902]
    assert [interpreter.perft(kiwipete, d) for d in (1, 2, 3)] == [48, 2039, 97_862]
    assert start.live and kiwipete.live and rules.for_players(2).native_fallbacks == 0


def test_texts_joined_by_plus_are_made_once_with_pythons_texts_order_and_work():
    fast, plain = _both(TEXTS)
    source = kernel.Gen(plain).source()
    assert "scat(" not in source and source.count("scatn(s, ") == 8   # (one text per chain)
    for pick in range(4):
        a, b = fast.new_game(2, 0), plain.new_game(2, 0)
        assert a.work_spent == b.work_spent
        while not b.over:
            moves = [m.notation for m in b.legal_moves()]
            assert [m.notation for m in a.legal_moves()] == moves
            i = [len(moves) - 1, len(moves) - 2, 0, pick][pick]   # (the long text grows)
            a.apply(i)
            b.apply(i)
            assert a.live and a.state == b.state and a.work_spent == b.work_spent
    known = ["go Z", "go abcdefg", "go abcdefgh", "go abcdefgh0", "go abcdefgh1", "go to x!", "go to \u00e9x!"]
    assert [m for m in moves if m in known] == known
    assert fast.native_fallbacks == 0


def test_a_list_over_until_walks_the_line_once_with_pythons_moves_and_work():
    fast, plain = _both(SLIDES)
    assert kernel.Gen(plain).source().count("W(s, 2 * ") == 1     # (reach's list alone)
    for pick in range(3):
        a, b = fast.new_game(2, 0), plain.new_game(2, 0)
        assert a.work_spent == b.work_spent
        while not b.over:
            moves = [m.notation for m in b.legal_moves()]
            assert [m.notation for m in a.legal_moves()] == moves
            assert interpreter.divide(a, 2) == interpreter.divide(b, 2)
            i = (pick * 5 + len(moves) // 2) % len(moves)
            a.apply(i)
            b.apply(i)
            assert a.live and a.state == b.state and a.work_spent == b.work_spent
    assert fast.native_fallbacks == 0


def test_the_last_decision_of_a_count_is_counted_without_its_options_made():
    """The options of a count's last decisions are counted, not ordered and kept
    (kernel_glue.hpp, counted_after; kernel_rt.hpp, count_ordered): equal texts once,
    texts past 7 bytes, accents, and texts in their order already, as Python counts them."""
    for rules in (RAYS, TEXTS):
        fast, plain = _both(rules)
        site = "if (COUNTING) COUNTED = (long long)count_ordered(all_); else s.opts.o0 = ordered(all_);"
        assert site in kernel.Gen(plain).source()
        a, b = fast.new_game(2, 0), plain.new_game(2, 0)
        for step in range(3):
            assert [interpreter.perft(a, d) for d in (1, 2, 3)] == [interpreter.perft(b, d) for d in (1, 2, 3)]
            assert interpreter.divide(a, 3) == interpreter.divide(b, 3)
            i = step % b.move_count()
            a.apply(i)
            b.apply(i)
        assert a.live and a.state == b.state and fast.native_fallbacks == 0
