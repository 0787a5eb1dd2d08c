"""Values computed once per number of players (``const NAME: TYPE = EXPR``,
docs/language.md 5.9.1), issue 37 item 9.

- A const is computed once, before any game, in the order written, from what is known
  then (the player count, boards, relations, functions of those); reading it counts no
  work. The straightforward and the fast code read the same value; the kernel reads it
  too (numbers, bools, seats, cells, items, zones, lists of those) and says which consts
  it does not cover (Python plays those rulesets).
- The budgets bound the computation: a const that runs out of one is a ``load/budget``
  error at its name, naming the budget; one that reads the game, a const written after
  it or a value of another type is a located check error with a hint
  (tests/testdata/consts.meeple)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import play_both
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

CONSTS = str(Path(__file__).resolve().parent / "testdata" / "consts.meeple")

RULES = """ruleset table_demo
players 2..3
var total: int = 0
function fib(n: int): int = if n < 2 then n else fib(n - 1) + fib(n - 2)
const fibs: list of int = [fib(k) for k in 0..20]
const seats: int = player_count() * 10
turn {
  choose k from [1, 2, 3] as "add"
  total = total + fibs[k + total % 5] + seats
}
end when total > 200
score(p) = total
"""


def _rules(text: str = RULES):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


@pytest.mark.parametrize("optimize", [False, True], ids=["straightforward", "fast"])
def test_a_const_is_computed_once_per_player_count_and_reading_it_counts_nothing(monkeypatch, optimize):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    rules = _rules()
    for n, seats in ((2, 20), (3, 30)):
        game = rules.new_game(n, 0)
        game.apply("add 1")   # fibs[1] + seats
        assert game.state["vars"]["total"] == 1 + seats
        # computing fibs counted 20,000 calls of fib; a move reads it and counts none
        assert game.calls_spent == 0 and game.work_spent == 0
        game.apply("add 3")   # fibs[3 + total % 5]
        assert game.state["vars"]["total"] == 1 + seats + [0, 1, 1, 2, 3, 5, 8, 13][3 + (1 + seats) % 5] + seats


def test_the_straightforward_and_the_fast_code_play_consts_alike(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(CONSTS, cache=False)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = interpreter.load(CONSTS, cache=False)
    for players in (2, 3):
        for seed in range(3):
            assert play_both(fast.for_players(players), plain.for_players(players), players, seed, 200) > 3


@pytest.mark.parametrize("old,new,code,words,where", [
    ("const seats: int = player_count() * 10", "const seats: int = sum(j for k in 1..3000 for j in 1..3000)",
     "load/budget", "the 'work' budget", (6, 7)),
    ("const seats: int = player_count() * 10", "const seats: int = fib(40)",
     "load/budget", "the 'calls' budget", (6, 7)),
    ("const seats: int = player_count() * 10", "const seats: int = total",
     "check/const-not-constant", "cannot use a variable", (6, 7)),
    ("const seats: int = player_count() * 10", "const seats: int = later\nconst later: int = 3",
     "check/bad-value", "const 'seats' reads const 'later', which is not computed yet", (6, 20)),
    ("const seats: int = player_count() * 10", "const seats: int = fibs",
     "check/type-mismatch", "the value of const 'seats'", (6, 20)),
])
def test_a_bad_const_is_a_located_error(old, new, code, words, where):
    with pytest.raises(MeepleError) as info:
        _rules(RULES.replace(old, new)).for_players(2)
    d = info.value.diagnostics[0]
    assert (d.code, (d.span.line, d.span.column)) == (code, where) and words in d.message, d.render()
    assert d.hint or code == "check/type-mismatch" or "raise the" in d.message


def test_a_variant_replaces_or_removes_a_const():
    base = RULES.replace("+ seats\n", "\n")
    variant = "variant more\nreplace const seats: int = 7\n"
    src = SourceSet(base=parse(base, "rules.meeple"), variants={"more": parse(variant, "more.meeple")},
                    sources={"rules.meeple": base, "more.meeple": variant})
    rules = compile_sources(src, ["more"])
    assert rules.checked.consts["seats"].value.value == 7
    gone = base.replace("const seats: int = player_count() * 10\n", "")
    src = SourceSet(base=parse(base, "rules.meeple"),
                    variants={"less": parse("variant less\nremove const seats\n", "less.meeple")},
                    sources={"rules.meeple": base})
    assert "seats" not in compile_sources(src, ["less"]).checked.consts
    assert "seats" not in _rules(gone).checked.consts


@pytest.mark.kernels
@needs_kernel
def test_a_kernel_reads_the_consts_as_python():
    said: list[str] = []
    rules = interpreter.load(CONSTS, cache=False)
    assert rules.use_native(report=said.append, kernel_only=True)
    plain = interpreter.load(CONSTS, cache=False)
    for players in (2, 3):
        prog = rules.for_players(players)
        assert prog.kernel, said
        for seed in range(3):
            a, b, rnd = prog.new_game(players, seed), plain.for_players(players).new_game(players, seed), random.Random(seed)
            while not b.over:
                assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
                i = rnd.randrange(len(b.legal_moves()))
                a.apply(a.legal_moves()[i])
                b.apply(b.legal_moves()[i])
            assert a.state == b.state and a.result == b.result
        assert prog.native_fallbacks == 0


@pytest.mark.kernels
@needs_kernel
def test_a_kernel_says_which_const_it_does_not_cover():
    said: list[str] = []
    rules = _rules(RULES.replace("const seats: int = player_count() * 10",
                                 "const seats: int = player_count() * 10\nconst rows: list of list of int = [[1], [2]]")
                   .replace("+ seats\n", "+ seats + len(rows)\n"))
    rules.use_native(report=said.append, kernel_only=True)
    assert not rules.for_players(2).kernel
    assert any("const 'rows'" in s for s in said), said


def test_the_rulebook_shows_the_consts():
    from meeple.interpreter.documents import rulebook, rulebook_view
    md = rulebook_view.markdown(rulebook.build(interpreter.load(CONSTS)))
    assert "- *gains*: *best* of *n*, for each *n* of the numbers from 0 to 12" in md
