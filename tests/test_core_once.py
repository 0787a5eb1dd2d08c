"""Values computed once, decided by the core (interpreter/core/once.py:
``prog.facts.value_key``) on the checked IR: two evaluations of the same expression, the
names it reads bound to the same values, have one key; a value whose evaluation counts
work or calls has none (each use counts them); the fast Python code (codegen.py) keeps a
value for its second use by that key, not by the text it prints."""
from __future__ import annotations

import json

from meeple.dsl import ast as ir
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen

RULES = """ruleset once
players 2..2
enum Colour { white, black }
kind Man { colour: Colour, rank: int }
board b: grid(rows: 2, cols: 2) holds Man
zone supply: Man
deck men into supply { Man(colour: c, rank: r) for c in Colour for r in 1..2 }
var x: int = 0
function total(): int = size(supply) * 2
function shift(k: int): int = k + size(supply)
function walked(k: int): int = k + count(m for m in items(supply))
function pair(k: int): int = total() + total() + shift(k) + shift(k + 0) + walked(k) + walked(k)
function own(c: b, me: Colour): bool = not empty(c) and top(c).colour == me
function is(c: b, me: Colour, r: int): bool = own(c, me) and top(c).rank == r
function second(): bool = is(first(c for c in cells(b) if not empty(c)), white, 2)
setup {
  move top(supply) to cell(b, row: 1, col: 1)
}
turn {
  x = (if second() then 2 else 1) + pair(1)
}
end when x > 0
"""


def program(optimize: bool = True):
    saved = codegen.OPTIMIZE
    codegen.OPTIMIZE = optimize
    try:
        src = SourceSet(base=parse(RULES, "once.meeple"), sources={"once.meeple": RULES})
        return compile_sources(src).for_players(2)
    finally:
        codegen.OPTIMIZE = saved


def calls(prog, function: str, called: str) -> list:
    body = prog.checked.functions[function].body
    return [n for n in ir.walk(body) if n.node == "Call" and n.func == called]


def test_the_same_expression_at_two_places_has_one_key_and_another_expression_another():
    prog = program()
    facts = prog.facts
    k = ("param k", (7,))   # (how the engine names the parameter: its key and binding)

    def named(n):
        return k if n.node == "Var" and n.name == "k" else None
    first, again = calls(prog, "pair", "total")
    assert first.span != again.span
    assert facts.value_key(first, named) == facts.value_key(again, named) == (("Call", "total", ()), ())
    shift, shifted = calls(prog, "pair", "shift")
    key, ids = facts.value_key(shift, named)
    assert ids == (7,) and key != facts.value_key(shifted, named)[0]   # (k, k + 0: another expression)
    assert facts.value_key(shift, named, "any order")[0] != key   # (a value the engine computes otherwise)


def test_a_value_whose_evaluation_counts_work_has_no_key():
    prog = program()
    walked = calls(prog, "pair", "walked")
    assert walked and all(prog.facts.value_key(w, lambda n: None) is None for w in walked)


def test_the_fast_code_computes_once_a_value_its_text_writes_two_ways():
    # top(c) is read in own and in is, both written in place in second, their argument
    # a value the statement form computed before (s_N) and written in parentheses one
    # level deeper in own: one expression, one value, whatever its text
    fast, plain = program(), program(optimize=False)
    code = fast.ns["F_second"].__code__
    assert any(n.startswith("once_") for n in code.co_varnames + code.co_cellvars)
    states = [json.dumps(p.new_game(2, seed=1).state, sort_keys=True) for p in (fast, plain)]
    assert states[0] == states[1] and json.loads(states[0])["vars"]["x"] > 0
