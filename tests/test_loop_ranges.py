"""The range of a loop's variable (core/bounds.py, ``_loop_range``): over a list written
out of known numbers (breakthrough's ``for dc in [-1, 0, 1]``), from the least to the most
of them; over ``a..b``, from the least a to the most b. A sum of such and a cell's
coordinate is then plain C++ in a kernel, no check of overflow or none, and plays as
Python does."""
from __future__ import annotations

import re

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_plays_as_python
from meeple.dsl import ast as ir
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

RULES = """ruleset steps
players 2..2
kind Stone { }
board g: grid(rows: 4, cols: 4) holds Stone
zone box: Stone
deck stones into box { 16 of Stone() }
var total: int = 0
function near(c: g): list of g =
  [t for dc in [-1, 0, 1] for t in [cell(g, row: c.row, col: c.col + dc)] if t != none and empty(t)]
function spread(k: int): int = sum(dr * 10 + k for dr in 2..4)
function shadow(dc: int): int = sum(dc + 1 for dc in [0, 5]) + sum(dc + 1 for d in [1])
function unknown(k: int): int = sum(x + 1 for x in [k, 2])
turn {
  choose x from [c for c in cells(g) if empty(c)] as "put"
  move first(items(box)) to x
  total = total + size(near(x)) + spread(x.col) + shadow(x.row) + unknown(x.row)
}
end when empty(items(box))
score(p) = total
"""


def program():
    src = SourceSet(base=parse(RULES, "steps.meeple"), sources={"steps.meeple": RULES})
    return compile_sources(src).for_players(2)


def var_named(body, name: str):
    return [n for n in ir.walk(body) if n.node == "Var" and n.name == name]


def test_a_loop_s_variable_ranges_over_its_known_list():
    prog = program()
    f, fs = prog.facts, prog.checked.functions
    (dc,) = var_named(fs["near"].body, "dc")
    assert f.int_range(dc) == (-1, 1)
    (dr,) = var_named(fs["spread"].body, "dr")
    assert f.int_range(dr) == (2, 4)
    # (a loop's own name hides the parameter's inside it, and only there)
    inner, outer = var_named(fs["shadow"].body, "dc")
    assert f.int_range(inner) == (0, 5)
    assert f.int_range(outer) is None and f.int_range(outer, {"dc": (1, 4)}) == (1, 4)
    (x,) = var_named(fs["unknown"].body, "x")
    assert f.int_range(x) is None                  # (k: not known)


def test_a_coordinate_plus_such_a_variable_is_plain_in_a_kernel():
    source = kernel.Gen(program()).source()
    near = re.search(r"static [^\n]*uF_near\(St& s, Id uA_c\) \{[^\n]*", source).group(0)
    assert "add(" not in near and re.search(r"\(\(I\)\(T\d+\[nn\(uA_c\)\]\) \+ \(I\)\(uV\d+_dc\)\)", near)


@needs_kernel
@pytest.mark.kernels
def test_such_games_stay_python_s():
    plain = program()
    src = SourceSet(base=parse(RULES, "steps.meeple"), sources={"steps.meeple": RULES})
    native = compile_sources(src)
    assert native.use_native(report=False, kernel_only=True)
    assert kernel_plays_as_python(native.for_players(2), plain, 6) == 6 * 16
