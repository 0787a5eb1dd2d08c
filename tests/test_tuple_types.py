"""A tuple's type written in the rules (issue 37): ``(T1, T2, ...)`` for a function's
parameters and result and a local's ``let x: T = ...`` (also inside ``list of``),
docs/language.md 4.

- The parser reads it into a ``TypeRef`` of its parts; the rulebook's code writes it back.
- The checker takes it for a tuple of those parts' types, refuses a value of other
  types, a part that is no tuple part (an item, a list) and a tuple type where values
  are kept (a variable, a const, an attribute, a zone, a procedure), each at its place.
- The straightforward code, the fast code and the kernel play it alike."""
from __future__ import annotations

import random

import pytest
from kernel_support import needs_kernel
from lockstep import play_both, straight
from meeple.dsl import ast as ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen

RULES = """ruleset tuple_types
players 2..2
enum Turn { left, right }
kind Stone { seat: int }
board b: grid(rows: 2, cols: 2) named "{col:a}{row}" holds Stone
zone box: Stone
deck stones into box { Stone(seat: s) for s in 1..2 for i in 1..2 }
var turned: int = 0
function options(): list of (b, Turn) = [(c, d) for c in cells(b) if empty(c) for d in Turn]
function weight(o: (b, Turn)): int = if o[1] == right then o[0].row else 0
function flip(o: (b, Turn)): (b, Turn) = (o[0], if o[1] == left then right else left)
turn {
  let opts: list of (b, Turn) = []
  opts = opts + options()
  choose (c, d) from opts as "place"
  let chosen: (b, Turn) = flip((c, d))
  move top(box) to c
  turned = turned + weight(chosen) * 10 + size(opts)
}
end when all(occupied(c) for c in cells(b))
score(p) = turned
"""


def _rules(text: str = RULES):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


def _errors(text: str) -> list:
    with pytest.raises(MeepleError) as raised:
        _rules(text)
    return raised.value.diagnostics


def test_a_tuple_type_parses_into_its_parts():
    fn = next(d for d in parse(RULES, "rules.meeple").decls if d.node == "FunctionDecl" and d.name == "flip")
    assert ir.show(fn.params[0].type) == "(TypeRef name=tuple [(TypeRef name=b) (TypeRef name=Turn)])"
    assert fn.result.parts[1].name == "Turn"
    # a trailing comma, and a tuple inside a list
    f = parse("ruleset t\nfunction f(x: list of (int, str,)): int = 0\n", "t.meeple").decls[0]
    assert f.params[0].type.item.name == "tuple" and len(f.params[0].type.item.parts) == 2


def test_the_rulebook_writes_a_tuple_type_back():
    from meeple.interpreter.documents import meeple_code
    fn = next(d for d in parse(RULES, "rules.meeple").decls if d.node == "FunctionDecl" and d.name == "options")
    assert meeple_code.decl(fn).startswith("function options(): list of (b, Turn) = ")


def test_functions_and_locals_of_tuple_types_play():
    game = _rules().new_game(2, 0)
    assert [m.notation for m in game.legal_moves()][:3] == ["place a1 left", "place a1 right", "place b1 left"]
    game.apply("place b2 left")   # flipped to right: weight 2; 8 options
    assert game.state["vars"]["turned"] == 28
    game.apply("place a1 right")  # flipped to left: weight 0; 6 options
    assert game.state["vars"]["turned"] == 34


_FN = "function weight(o: (b, Turn)): int = if o[1] == right then o[0].row else 0"


@pytest.mark.parametrize("old, new, code, line, column, words", [
    # a value of other types
    ("let chosen: (b, Turn) = flip((c, d))", "let chosen: (b, int) = flip((c, d))",
     "check/type-mismatch", 16, 26, "expected (cell of b, int), found (cell of b, Turn)"),
    (_FN, "function weight(o: (b, Turn)): int = o", "check/type-mismatch", 10, 38,
     "expected int, found (cell of b, Turn)"),
    ("weight(chosen)", "weight(c)", "check/type-mismatch", 18, 28, "expected (cell of b, Turn)"),
    # a part that a move cannot write by itself
    (_FN, _FN.replace("(o: (b, Turn))", "(o: (Stone, Turn))"), "check/bad-value", 10, 21,
     "not a Stone"),
    ("function options(): list of (b, Turn)", "function options(): list of (b, Turn, list of int)",
     "check/bad-value", 9, 39, "not a list of int"),
    # where values are kept: no tuple type
    ("var turned: int = 0", "var turned: int = 0\nvar last: (b, Turn) = (none, none)",
     "check/bad-value", 9, 11, "written only for a function's parameters and result"),
    ("var turned: int = 0", "var turned: int = 0\nconst k: list of (int, int) = [(1, 2)]",
     "check/bad-value", 9, 18, "written only for"),
    ("kind Stone { seat: int }", "kind Stone { seat: int, at: (int, int) }",
     "check/bad-value", 4, 29, "written only for"),
    ("zone box: Stone", "zone box: Stone\nprocedure p(t: (int, int)) { }",
     "check/bad-value", 7, 16, "written only for"),
    ("zone box: Stone", "zone box: Stone\nzone odd: (int, int)", "check/bad-value", 7, 11, "written only for"),
])
def test_misuse_is_a_located_error_said_once(old, new, code, line, column, words):
    assert old in RULES
    diags = _errors(RULES.replace(old, new, 1))
    said = [d for d in diags if words in d.message]
    assert len(said) == 1 and diags[0] is said[0], diags
    d = said[0]
    assert d.code == code, d
    assert (d.span.line, d.span.column) == (line, column), d.span


def test_an_unknown_part_type_is_located_at_the_part():
    d = _errors(RULES.replace(_FN, _FN.replace("(o: (b, Turn))", "(o: (b, Nope))"), 1))[0]
    assert d.code == "check/unknown-type" and (d.span.line, d.span.column) == (10, 24), d


def test_the_straightforward_and_the_fast_code_play_alike(monkeypatch):
    def load(optimize: bool):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        return _rules()
    fast, plain = load(True), load(False)
    played = sum(play_both(fast, plain, 2, seed, 60) for seed in range(3))
    with straight():
        played += play_both(fast, plain, 2, 7, 60)
    assert played == 16


@needs_kernel
def test_the_kernel_plays_tuple_types_as_python(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = _rules()
    said: list[str] = []
    rules.use_native(report=said.append, kernel_only=True)
    fast, plain = rules.for_players(2), _rules().for_players(2)
    assert fast.kernel, said
    for seed in range(4):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            i = rnd.randrange(b.move_count())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert a.state["vars"] == b.state["vars"] and a.result == b.result
    assert fast.native_fallbacks == 0
