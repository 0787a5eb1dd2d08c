"""``x = x + [v]`` in a kernel (kernel.py, ``Proc._appended``; kernel_module.py:
``wappend1``): v pushed where x's list is when nothing else holds it (go's positions,
chess's scoresheet: no list of one made and dropped at every move), else a new list
made; a list another variable, a local or a copied state holds is never changed. The
same states, results and work as Python."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import (
    compiler,
    kernel_playouts_as_python,
    kernel_plays_as_python,
    work_counted_as_python,
)
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset pushes
players 2..2
kind Mark { seat: int }
kind Sheet { var rows: list of list of int = [] }
board b: grid(rows: 3, cols: 3) holds Mark
zone supply: Mark
zone table: Sheet
deck marks into supply { 4 of Mark(seat: s) for s in 1..2 }
deck sheets into table { 1 of Sheet() }
var seen: list of list of int = []
var kept: list of list of int = []
var words: list of str = []
var codes: list of int = [0]
function position(): list of int = [if empty(c) then 0 else top(c).seat for c in cells(b)]
turn {
  choose x from [c for c in cells(b) if empty(c)] as "mark"
  move first(m for m in items(supply) if m.seat == seat(active)) to x
  if size(seen) % 2 == 1 { kept = seen }
  seen = seen + [position()]
  words = words + ["{x}"]
  codes = codes + [x.row * 3 + x.col]
  let acc = [x.row]
  for c in cells(b) { if occupied(c) { acc = acc + [c.col] } }
  top(table).rows = top(table).rows + [acc]
  let rows = [[x.col]]
  rows = rows + [acc]
  codes = codes + [size(rows) + size(kept)]
}
end when size(supply) == 0
score(p) = (size(seen) + size(kept) + sum(v for v in codes) + seat(p)) % 5
"""


compiled = compiler(RULES, "pushes.meeple")


def test_a_list_appended_one_element_is_pushed_where_it_is():
    source = kernel.Gen(compiled(False)).source()
    for target in (r"s\.uG_seen", r"s\.uG_words", r"s\.uG_codes", r"f->l\d+\.uL\d+_acc", r"f->l\d+\.uL\d+_rows",
                   r"s\.uI_rows\[islot\(T\d+, it_\)\]"):
        assert re.search(rf"wappend1\(s, {target}, ", source), target
    assert "::of({" not in "".join(re.findall(r"wappend1\([^;]*;", source))


@needs_kernel
def test_its_games_are_python_s_the_lists_held_elsewhere_unchanged():
    fast, python = compiled(True), compiled(False)
    kernel_plays_as_python(fast, python, 6)
    kernel_playouts_as_python(fast, python, 12, seed=3)
    game = fast.new_game(2, 0)
    for _ in range(4):
        game.apply(0, safe=False)
    state = game.kernel_state()
    seen, kept = state["vars"]["seen"], state["vars"]["kept"]
    assert len(seen) == 4 and kept == seen[:3]   # (kept shared seen's list before a push)


@needs_kernel
def test_the_work_counted_is_python_s_to_the_last_unit():
    work_counted_as_python(compiled, 4, 1 << 12)
