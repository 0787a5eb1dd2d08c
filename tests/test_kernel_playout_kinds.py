"""A batch's dicts in a kernel (cxx/kernel_playout.hpp, ``kinds_py``, ``playout_dict``):
each game's kinds of moves made whole per decision where every decision's kind has a
name of its own, added up where two decisions share one, in the order of their first
moves; a game's number the same object as its seed where they are equal. Both as the
Python reference gives them."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

# two decisions a turn: a pile and a count of it; the count's name "take" either its own
# or the pile's too (two decisions of one kind)
RULES = """ruleset piles
players 2..2
var piles: list of int = [3, 4, 5]
turn {
  choose k from [k for k in 0..2 if piles[k] > 0] as "pile"
  choose n from 1..piles[k] as "take"
  piles = [if i == k then piles[i] - n else piles[i] for i in 0..2]
}
end when piles == [0, 0, 0]
score(p) = if p == active then 1 else 0
"""


def compiled(rules: str, native: bool):
    src = SourceSet(base=parse(rules, "piles.meeple"), sources={"piles.meeple": rules})
    prog = compile_sources(src)
    if native:
        assert prog.use_native(report=False, kernel_only=True)
    return prog.for_players(2)


@pytest.mark.parametrize("rules", [RULES, RULES.replace('as "pile"', 'as "take"')])
def test_the_kinds_of_a_batch_s_games_are_the_reference_s(rules):
    fast, plain = compiled(rules, True), compiled(rules, False)
    kernel_playouts_as_python(fast, plain, 40, seed=0)
    got = interpreter.playouts(fast, 40, seed=0)
    kinds = {tuple(g["kinds"]) for g in got}
    assert kinds == ({("pile", "take")} if '"pile"' in rules else {("take",)})
    assert all(sum(sum(v) for v in g["kinds"].values()) == g["moves"] for g in got)
    assert all(g["game"] == g["seed"] == i for i, g in enumerate(got))
    other = interpreter.playouts(fast, 3, seed=9)
    assert [(g["game"], g["seed"]) for g in other] == [(0, 9), (1, 10), (2, 11)]
