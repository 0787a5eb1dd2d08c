"""Lists of numbers compared in a kernel (issue 36 item 4: go's positions seen, ``now in
positions``): by their bytes, and inside ``in`` by a hash each list keeps once made
(cxx/kernel_rt.hpp, ``List::hash``). A list changed in place after its hash was made
(``xs = xs + [...]`` where nothing else holds it) forgets it: a later ``in`` finds the
list as it is now, as Python does."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources

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
