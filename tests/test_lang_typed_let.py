"""A local declared with its type, ``let NAME: TYPE = EXPR`` (docs/language.md 6.1):
the gap an author hit writing quoridor from the docs alone, where ``let xs = []`` made a
``list of none`` for good and a later ``xs = xs + [c]`` failed far from its cause.

- The type is written as for a parameter (``list of b``, ``b`` for a cell, ``int``);
  the value must fit it, and the local has it: an empty list takes the declared
  element type, so the list is built up one element at a time.
- Every engine plays such a local alike: the straightforward and the fast Python code,
  and the native kernel (played in lockstep with the reference, compared at every move).
- ``xs = xs + [c]`` (or ``xs += [c]``) on a ``list of none`` local is still an error,
  now with a hint that names the fix; a plain ``let`` parses as before (no type)."""
from __future__ import annotations

import random

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, play_both
from meeple.dsl import ast as ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

RULES = """ruleset typed_lets
players 2..2
kind Stone { owner: player }
board b: grid(rows: 3, cols: 3) holds Stone
zone box: Stone
deck stones into box { 9 of Stone(owner: players[0]) }
var sizes: list of int = []
var firsts: list of int = []

turn {
  let free: list of b = []
  let runs: list of list of int = []
  let first: b = none
  let seats: list of player = []
  for c in cells(b) {
    if empty(c) {
      free += [c]
      if first == none { first = c }
    }
  }
  seats = seats + [active]
  runs = runs + [[size(free)]]
  sizes = sizes + runs[0]
  firsts = firsts + [first.row * 3 + first.col + size(seats)]
  choose c from free as "put"
  move top(box) to c
}
end when size(box) == 0 or size(sizes) > 6
score(p) = size(sizes)
"""

BAD = """ruleset untyped
players 2..2
kind Stone { owner: player }
board b: grid(rows: 3, cols: 3) holds Stone
turn {
  let xs = []
  for c in cells(b) {
    ADD
  }
  end game
}
score(p) = 0
"""


def _rules(text: str = RULES):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


def _errors(text: str) -> list:
    with pytest.raises(MeepleError) as err:
        _rules(text)
    return err.value.diagnostics


def test_a_typed_let_parses_to_a_let_with_its_type_and_a_plain_let_has_none():
    lets = [n for n in ir.walk(parse(RULES)) if getattr(n, "node", "") == "Let"]
    free = next(n for n in lets if n.var == "free")
    assert (free.type.name, free.type.item.name, free.value.node, free.value.items) == ("list", "b", "ListLit", [])
    assert next(n for n in lets if n.var == "first").type.name == "b"
    plain = [n for n in ir.walk(parse(BAD.replace("ADD", "xs = xs"))) if getattr(n, "node", "") == "Let"]
    assert [(n.var, n.type) for n in plain] == [("xs", None)]


@pytest.mark.parametrize("optimize", [False, True], ids=["straightforward", "fast"])
def test_an_empty_list_of_the_declared_type_is_built_up_one_cell_at_a_time(monkeypatch, optimize):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    game = _rules().new_game(2, 0)
    assert len(game.legal_moves()) == 9
    while not game.over:
        game.apply(game.legal_moves()[-1])   # the last free cell: the first one stays free
    assert game.state["vars"]["sizes"] == [9, 8, 7, 6, 5, 4, 3]
    # the first free cell stays row 1, column 1 (1 * 3 + 1), one seat in the list: 5
    assert game.state["vars"]["firsts"] == [5] * 7


def test_the_fast_code_plays_typed_locals_as_the_straightforward_code_does(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = _rules()
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    fast = _rules()
    for seed in (1, 2, 3):
        assert play_both(fast, plain, 2, seed, 40) == 7


@pytest.mark.kernels
@needs_kernel
def test_the_kernel_plays_typed_empty_lists_as_the_reference_does(tmp_path):
    path = tmp_path / "typed_lets.meeple"
    path.write_text(RULES)
    fast = interpreter.load(path)
    assert fast.use_native(report=False, kernel_only=True)
    prog, plain = fast.for_players(2), interpreter.load(path).for_players(2)
    assert prog.kernel
    for seed in (1, 2):
        kern, ref = prog.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not kern.over:
            assert [m.notation for m in kern.legal_moves()] == [m.notation for m in ref.legal_moves()]
            i = rnd.randrange(kern.move_count())
            kern.apply(i, safe=False)
            ref.apply(i, safe=False)
            # the state and the frame's locals (free, runs, first, seats) at every decision
            assert kernel_difference(kern.kernel_state(), ref) is None
        assert ref.over and kern.result == ref.result
        assert ref.state["vars"]["sizes"] == [9, 8, 7, 6, 5, 4, 3]
    assert prog.native_fallbacks == 0


@pytest.mark.parametrize("add", ["xs = xs + [c]", "xs += [c]"])
def test_adding_to_a_list_of_none_local_hints_at_declaring_its_type(add):
    (d,) = _errors(BAD.replace("ADD", add))
    assert d.code == "check/type-mismatch"
    assert "expected list of none, found list of cell of b" in d.message
    assert d.hint == "declare the local's type: let xs: list of b = []"


def test_a_list_of_lists_hint_writes_the_nested_type():
    (d,) = _errors(BAD.replace("ADD", "xs = xs + [[c.row]]"))
    assert d.hint == "declare the local's type: let xs: list of list of int = []"


@pytest.mark.parametrize("let, code, words", [
    ('let n: int = "three"', "check/type-mismatch", "the value of 'n': expected int, found str"),
    ("let n: int = none", "check/type-mismatch", "the value of 'n': expected int, found none"),
    ("let ns: list of int = [cell(b, row: 1, col: 1)]", "check/type-mismatch",
     "expected list of int, found list of cell of b"),
    ("let ns: list of nope = []", "check/unknown-type", "'nope'"),
])
def test_the_value_must_fit_the_declared_type(let, code, words):
    (d,) = _errors(BAD.replace("let xs = []", let).replace("ADD", ""))
    assert d.code == code and words in d.message


def test_a_typed_local_keeps_its_type_for_later_assignments():
    (d,) = _errors(BAD.replace("let xs = []", "let xs: list of b = []").replace("ADD", "xs = xs + [c.row]"))
    assert d.code == "check/type-mismatch" and "found list of int" in d.message
