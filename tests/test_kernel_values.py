"""A kernel's state carried to and from Python by the runtime's code, from tables each
program's kernel writes (interpreter/native/kernel_bridge.py, cxx/kernel_values.hpp):

- every kind of value a variable, an item variable, a local or a decision holds (ints
  kept narrow and wide, texts, bools, enums, ids kept narrow, lists of them, lists of
  lists, and lists of lists of lists) is exported as
  Python holds it after every move, and a state saved at any decision of one seat is
  loaded again into a kernel with the same values, the kernel playing every move;
- the options of a choice among bools are ordered as Python orders them (false, then
  true, each once), whatever the order of the list they come from."""
from __future__ import annotations

import pytest
from lockstep import kernel_difference
from meeple.interpreter.native import kernel, kernel_pch
from test_kernel import from_source, needs_kernel

pytestmark = pytest.mark.kernels

VALUES = """ruleset values
players 2..2
enum Hue { red, green, blue }
kind Gem { hue: Hue, var shine: int = 0, var tags: list of Hue = [] }
kind Rock { }
zone pile: Gem
zone bin: Rock
deck gems into pile { Gem(hue: h) for h in Hue }
deck rocks into bin { 5 of Rock() }
var small: int = 0
var word: str = "a"
var flag: bool = false
var hues: list of Hue = []
var deep: list of list of list of int = []
var pairs: list of list of int = []
var picked: Gem per player = none
var told: int per player = 0
var rounds: int = 0
turn {
  choose b from [true, false, true] as "flip"
  flag = b
  deep = deep + [[[rounds]], [[1, 2], []]]
  pairs = pairs + [[rounds, small]]
  choose g from items(pile) as "take"
  picked(active) = g
  g.shine = g.shine + 1
  g.tags = g.tags + [g.hue]
  hues = hues + [g.hue]
  choose told(p) from [1, 2] for each p in players as "tell"
  if flag { small = 100 } else { small = -5 word = word + "b" }
  rounds = rounds + 1
}
end when rounds >= 3
score(p) = told(p)
"""


def test_the_tables_name_each_value_and_its_type():
    _fast, plain = from_source(VALUES)
    own = kernel.Gen(plain).source()[len(kernel_pch.runtime()):]
    rows = [r for r in own.splitlines() if r.startswith("static const VT ")]
    kinds = {r.split("{'")[1][0] for r in rows}
    assert kinds == {"i", "s", "b", "e", "l", "d"}, rows
    assert "{'i', 1, 0, -5LL, 100LL," in own   # (small: -5..100, kept in a byte)
    assert "list_py<List<List<I>>>, list_from_py<List<List<I>>>}" in own   # (deep: each level by its type)
    assert '"shine", \'i\'' in own and '"told", \'p\'' in own and '"deep", \'g\'' in own


@needs_kernel
def test_every_kind_of_value_is_exported_and_loaded_as_python_holds_it():
    fast, plain = from_source(VALUES)
    loaded = 0
    for seed in range(3):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        n = 0
        while not b.over:
            assert a.live
            assert kernel_difference(a.kernel_state(), b) is None
            if "seats" not in b.state["pending"]:   # (a simultaneous decision: Python's)
                again = fast.resume(a.copy().state)
                assert again.go_live() and kernel_difference(again.kernel_state(), b) is None
                loaded += 1
            if b.decision.verb == "flip":
                assert [m.notation for m in b.legal_moves()] == ["flip false", "flip true"]
                assert a.kernel_state()["pending"]["options"] == [False, True]
            i = (seed + n) % len(b.legal_moves())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            n += 1
        assert a.state == b.state and a.result == b.result
        mine = a.state   # (the game over: Python's, the same as the kernel's at its last move)
        assert len(mine["vars"]["deep"]) == 6 and mine["vars"]["deep"][:2] == [[[0]], [[1, 2], []]]
        assert sum(x for x in mine["ivars"]["shine"] if x is not None) == 3   # (one gem taken a round)
    assert loaded == 18 and fast.native_fallbacks == 0
