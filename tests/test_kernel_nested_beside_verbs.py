"""Options that are lists or tuples beside moves without an object (``choose xs, how
from [[1, 2], [2, 1]] as "bid" or "draw" or "pass"``, ``choose t from [(k, "x") ...] as
"take" or "pass"``, ``choose (c, _, d) from ... or "pass"``, its parts none after "pass")
in a kernel (issue 37): the kernel keeps none as a list or a tuple of
its own (``List::none``, ``Tup::none``), orders it first, compares it (``xs == none``),
carries it to and from Python, and bails where Python fails on it (``size(xs)`` of
none), so that it plays as Python move by move: the same options, states, frames and
results, with no fallback to Python."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_difference, kernel_plays_as_python, play_both, straight
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen

DATA = Path(__file__).resolve().parent / "testdata"

# lists beside two verbs, one offered under a condition; a second decision after a
# move without an object (the frame holds none across it); none compared and read
LISTS = """ruleset bids
players 2..2
kind Card { v: int }
zone pile: Card
zone hand: Card per player
deck cards into pile { Card(v: v) for v in 1..3 }
var secret: int per player owner = 0
var done: int = 0
var total: int = 0
var passes: int = 0
setup {
  for p in players {
    pick v at random from 1..3
    secret(p) = v
  }
}
turn {
  choose xs, how from [[a, b] for a in 1..3 for b in 1..3 if a != b + secret(active) % 2]
      as "bid" or "draw" when occupied(pile) or "pass"
  if xs == none {
    passes = passes + 1
    if how == "draw" { move top(pile) to hand(active) }
    choose k from 1..2 as "then"
    if xs != none { total = total + 100 }
    total = total + k
  } else {
    total = total + size(xs) * xs[0] + xs[1]
  }
  done = done + 1
}
end when done >= 6
score(p) = total + secret(p) + passes
"""

# tuples beside one verb (a cell, an enum value, a number); none compared both ways and
# read by part
TUPLES = """ruleset takes
players 2..2
enum Turn { left, right }
kind Card { v: int }
board b: grid(rows: 2, cols: 2) named "{col:a}{row}" holds Card
zone pile: Card
deck cards into pile { Card(v: v) for v in 1..4 }
var n: int = 0
var rounds: int = 0
turn {
  choose t from [(c, d, c.row + rounds) for c in cells(b) if empty(c) for d in Turn
                 if (c.col + rounds) % 2 == 0] as "take" or "pass"
  if none != t {
    move top(pile) to t[0]
    if t[1] == right { n = n + t[2] } else { n = n - 1 }
  } else {
    n = n + 10
  }
  rounds = rounds + 1
}
end when rounds >= 6 or empty(pile)
score(p) = n
"""

# the parts of tuples named beside a verb: each none after "pass"
PARTS = TUPLES.replace("""  choose t from [(c, d, c.row + rounds) for c in cells(b) if empty(c) for d in Turn
                 if (c.col + rounds) % 2 == 0] as "take" or "pass"
  if none != t {
    move top(pile) to t[0]
    if t[1] == right { n = n + t[2] } else { n = n - 1 }
  } else {
    n = n + 10
  }""", """  choose (c, _, d) from [(c, "turn", d) for c in cells(b) if empty(c) for d in Turn
                         if (c.col + rounds) % 2 == 0] as "place" or "pass"
  if c != none {
    move top(pile) to c
    if d == right { n = n + c.row + rounds } else { n = n - 1 }
  } elif d == none {
    n = n + 10
  }""")


def _rules(text: str):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


def _pair(text: str):
    rules = _rules(text)
    said: list[str] = []
    rules.use_native(report=said.append, kernel_only=True)
    return rules.for_players(2), _rules(text).for_players(2), said


@needs_kernel
@pytest.mark.parametrize("text", [LISTS, TUPLES, PARTS], ids=["lists", "tuples", "parts"])
def test_the_kernel_plays_lists_and_tuples_beside_verbs_as_python(text, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    fast, plain, said = _pair(text)
    assert fast.kernel, said   # (before: "the kernel does not cover lists among moves ...")
    nones = []

    def each(game, i):
        pending = game.state["pending"]
        if pending is not None and pending["options"][i] is None:
            nones.append(i)
    moves = kernel_plays_as_python(fast, plain, seeds=12, each=each)
    assert moves > 40 and len(nones) > 5 and fast.native_fallbacks == 0


@needs_kernel
def test_the_options_and_the_frame_of_none_read_as_pythons(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    fast, plain, _ = _pair(LISTS)
    a, b = fast.new_game(2, 3), plain.new_game(2, 3)
    assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
    assert [m.notation for m in a.legal_moves()][:2] == ["draw", "pass"]
    for game in (a, b):
        game.apply(0)   # draw (by its index: the kernel plays it): xs is none while the second decision waits
    mine = a.kernel_state()
    assert kernel_difference(mine, b) is None
    assert mine["stack"][-1]["L"]["xs"] is None and mine["stack"][-1]["L"]["how"] == "draw"
    # a kernel takes the frame that holds none from a Python state, and plays on alike
    c = fast.resume(json.loads(b.to_json()))
    for game in (a, b, c):
        game.apply(1)   # then 2
    assert a.live and c.live and a.state == b.state == c.state and b.state["vars"]["total"] == 2


@needs_kernel
def test_a_none_list_read_where_python_fails_fails_alike(monkeypatch):
    # size(xs) of none: Python's located error; the kernel bails, and Python says it
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    text = LISTS.replace("    passes = passes + 1\n", "    passes = passes + size(xs)\n")
    fast, plain, said = _pair(text)
    assert fast.kernel, said
    errors = []
    for rules in (fast, plain):
        game = rules.new_game(2, 3)
        with pytest.raises(Exception) as raised:
            game.apply("pass")
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and "none" in errors[0]


@needs_kernel
def test_liars_poker_takes_the_same_openspiel_actions_by_its_kernel(monkeypatch):
    # tests/testdata/liars_poker: a bid is a list beside "challenge"; Python alone played
    # it before. The OpenSpiel adapter over the kernel gives the same action ids, strings,
    # chance outcomes and returns as over Python, move by move.
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install '.[test]')")
    from meeple.interpreter.native.kgame import KernelGame

    import meeple.openspiel as openspiel
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    path = str(DATA / "liars_poker")
    fast, plain = (openspiel.load(path, players=2, native=n) for n in (True, False))
    played = 0
    for seed in range(15):
        rnd = random.Random(seed)
        a, b = fast.new_initial_state(), plain.new_initial_state()
        while not b.is_terminal():
            assert a.current_player() == b.current_player() and not a.is_terminal()
            if b.is_chance_node():
                assert a.chance_outcomes() == b.chance_outcomes()
                action = rnd.choice(b.chance_outcomes())[0]
            else:
                ids = b.legal_actions()
                assert a.legal_actions() == ids
                assert [a.action_to_string(x) for x in ids] == [b.action_to_string(x) for x in ids]
                action = rnd.choice(ids)
                played += 1
            a.apply_action(action)
            b.apply_action(action)
        assert a.is_terminal() and a.returns() == b.returns()
        assert isinstance(a.game, KernelGame) and a.game.live and not isinstance(b.game, KernelGame)
    assert played > 60


@pytest.mark.parametrize("text", [LISTS, TUPLES, PARTS], ids=["lists", "tuples", "parts"])
def test_the_straightforward_and_the_fast_code_play_them_alike(text, monkeypatch):
    def load(optimize: bool):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        return _rules(text).for_players(2)
    fast, plain = load(True), load(False)
    played = sum(play_both(fast, plain, 2, seed, 60) for seed in range(4))
    with straight():
        played += play_both(fast, plain, 2, 7, 60)
    assert played > 15


def test_the_parts_are_none_after_the_move_without_an_object():
    game = _rules(PARTS).for_players(2).new_game(2, 0)
    assert [m.notation for m in game.legal_moves()] == ["pass", "place b1 turn left", "place b1 turn right",
                                                       "place b2 turn left", "place b2 turn right"]
    game.apply("pass")     # c and d none: ten points
    game.apply("place a2 turn right")
    assert game.state["vars"] == {"n": 13, "rounds": 2}
