"""A run-time error inside a rule function is located in that function, whichever engine
runs it (docs/language.md 15.2: "in function NAME at ITS BODY: ... (called from RULE at
ITS PLACE)"), also where the Python code writes the function's body in place of its call
(core/inline.py; play/inplace.py marks where, compiler/codegen.py writes the marks):
the reference walk (MEEPLE_EVALUATE=tree), the straightforward compiled code, the fast
code (its own error, with no second chance, and as it is played: the straightforward code
again), both side by side (MEEPLE_EVALUATE=both, which compares where each error is), a
C++ kernel (it hands the move back to Python, which says where) and the Cython path.

An error in an argument of such a call is the caller's, as where the call is made."""
from __future__ import annotations

import functools

import pytest
from kernel_support import needs_kernel
from lockstep import PY_ENGINES, per_python_engine, program_of
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.compiler import codegen
from meeple.interpreter.core import evaluate
from meeple.interpreter.play import inplace

from meeple import interpreter

FUNCTIONS = """ruleset inlined
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
var nothing: list of int = []
function tenth(n: int): int = 10 / n
function rest(n: int): int = 10 % n
function nth(xs: list of int, i: int): int = xs[i]
function head(xs: list of int): int = first(xs) + 1
function least(xs: list of int): int = min(xs)
function worth(c: Card): int = c.value + 0
function span(n: int): int = size(1..n)
function big(n: int): int = n * 1000000000000000000
function outer(n: int): int = tenth(n) + 1
function looped(n: int): int = sum(tenth(n - k) for k in 0..2)
function twice(n: int): int = tenth(n) + n
"""
NONE = "nothing"   # (an empty list of int: an argument that counts no work is written in place)

# each error: the expression that makes it, the function it is located in (None: the
# turn's statement) and its words
CASES = {
    "a quotient": ("tenth(size(pile))", "tenth", "division by zero"),
    "a remainder": ("rest(size(pile))", "rest", "division by zero"),
    "an index": ("nth([1, 2], 2)", "nth", "index 2 is outside a list of 2 elements"),
    "first of an empty list": (f"head({NONE})", "head", "a value is missing (none)"),
    "min of an empty list": (f"least({NONE})", "least", "min of an empty list"),
    "an attribute of none": ("worth(top(pile))", "worth", "a value is missing (none)"),
    "the range budget": ("span(100000000)", None, "'range' budget"),
    "the integer budget": ("big(3)", None, "'integer' budget"),
    "in a function in place in another": ("outer(size(pile))", "tenth", "division by zero"),
    "in a function in place in one called": ("looped(2)", "tenth", "division by zero"),
    "in place in a comprehension": ("sum(tenth(k) for k in 0..2)", "tenth", "division by zero"),
    "in place in a condition": ("if tenth(size(pile)) > 0 then 1 else 2", "tenth", "division by zero"),
    "a parameter used twice": ("twice(size(pile))", "tenth", "division by zero"),
    "in an argument in place": ("tenth(nth([1, 2], 2))", "nth", "index 2 is outside a list of 2 elements"),
    "an argument": ("tenth([1, 2][size(pile) + 2])", None, "index 2 is outside a list of 2 elements"),
    "an argument of a function in place in another": ("outer(10 / size(pile))", None, "division by zero"),
}
FIRST = len(FUNCTIONS.splitlines()) + 4   # the line of the first case's statement (then every 3)


def text() -> str:
    """The ruleset of every case: its turn's decision picks which (one program, one
    kernel, one native module for them all)."""
    out = FUNCTIONS + f'turn {{\n  choose k from 1..{len(CASES)} as "case"\n'
    for k, (expr, _, _) in enumerate(CASES.values(), 1):
        out += f"  {'if' if k == 1 else 'elif'} k == {k} {{\n    x = {expr}\n  }}\n"
    return out + "}\nend when x > 3\n"


def located(case: str, got: str) -> bool:
    """Whether the error's text ``got`` is the case's: located in its function (its
    body's place, the statement that called it named), or at the statement."""
    k = list(CASES).index(case)
    called = f"turn at inlined.meeple:{FIRST + 3 * k}:5"
    _, fn, words = CASES[case]
    if fn is None:
        return got.startswith(f"in {called}: ") and words in got
    line = next(i for i, row in enumerate(FUNCTIONS.splitlines(), 1) if row.startswith(f"function {fn}("))
    column = FUNCTIONS.splitlines()[line - 1].index(" = ") + 4
    return got.startswith(f"in function {fn} at inlined.meeple:{line}:{column}: {words}") \
        and got.endswith(f" (called from {called})")


def error_of(program, case: str) -> tuple:
    """The rule error the case raises: its text, rule, place, hint and code."""
    game = program.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as e:
        game.apply(list(CASES).index(case))
    err = e.value
    return str(err), err.rule, err.span, err.hint, err.code


@pytest.fixture(scope="module")
def programs():
    """Each Python engine's program of the cases (compiled once)."""
    return per_python_engine(text(), "inlined.meeple")


def test_the_python_code_writes_the_functions_of_the_cases_in_place(programs):
    # (else the cases would test calls: core/inline.py says which are written in place)
    plain, fast = programs["straightforward"].facts.inlined(False).names, programs["fast"].facts.inlined(True).names
    assert {"tenth", "rest", "nth", "head", "least", "worth", "span", "big", "outer"} <= plain
    assert "twice" in fast - plain and "looped" not in fast


@pytest.mark.parametrize("case", list(CASES))
def test_an_error_in_a_function_is_located_in_it_by_every_python_engine(programs, case):
    walked = error_of(programs["walk"], case)
    assert located(case, walked[0])
    for name, program in programs.items():
        assert error_of(program, case) == walked, name
    assert programs["both"].walk.differences == []


def test_an_error_in_a_function_is_located_in_it_in_the_end_condition_and_the_scoring(monkeypatch):
    base = FUNCTIONS + 'turn {\n  choose k from 1..2 as "k"\n  x = x + k\n}\n'
    for rest, rule in (("end when tenth(x - 1) > 3\n", "the end condition"),
                       ("end when x > 0\nscore(p) = worth(top(pile))\n", "the scoring")):
        got = {}
        for name, (optimize, strict, mode) in PY_ENGINES.items():
            monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
            monkeypatch.setattr(codegen, "STRICT", strict)
            monkeypatch.setattr(evaluate, "MODE", mode)
            game = program_of(base + rest, "inlined.meeple", native=False).new_game(players=2, seed=1)
            with pytest.raises(RuleError) as e:
                game.apply(0)
            got[name] = str(e.value)
        fn = "tenth" if rule == "the end condition" else "worth"
        assert len(set(got.values())) == 1, got
        assert got["walk"].startswith(f"in function {fn} at inlined.meeple:")
        assert f"(called from {rule} at inlined.meeple:" in got["walk"]


@functools.cache
def _native(kernel: bool):
    src = SourceSet(base=parse(text(), "inlined.meeple"), sources={"inlined.meeple": text()})
    ruleset = compile_sources(src)
    assert ruleset.use_native(report=False, kernel_only=kernel)
    return ruleset.for_players(2)


@needs_kernel
def test_an_error_in_a_function_is_located_in_it_by_a_kernel(monkeypatch):
    """The kernel calls every function (the C++ compiler may write it in place); where a
    rule fails it hands the move back to Python, which says where."""
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    monkeypatch.setattr(evaluate, "MODE", "")
    kernel = _native(True)
    assert kernel.kernel
    for case in CASES:
        fallbacks = kernel.native_fallbacks
        assert located(case, error_of(kernel, case)[0]), case
        assert kernel.native_fallbacks == fallbacks + 1


native_status = interpreter.native_status()


@pytest.mark.skipif(native_status is not None, reason=f"native code cannot be built here: {native_status}")
def test_an_error_in_a_function_is_located_in_it_by_the_cython_path(monkeypatch):
    monkeypatch.setenv("MEEPLE_KERNEL", "0")
    monkeypatch.setattr(evaluate, "MODE", "")
    native = _native(False)
    assert native.native and not native.kernel
    for case in CASES:
        assert located(case, error_of(native, case)[0]), case
    assert native.native_fallbacks > 0


def test_both_ways_an_error_located_elsewhere_is_a_difference(monkeypatch):
    """MEEPLE_EVALUATE=both compares where an error is too: with the places of the
    bodies written in place unknown (the error then at the caller, as before), the
    compiled code and the walk differ."""
    monkeypatch.setattr(inplace, "functions_at", lambda code, lasti: [])
    monkeypatch.setattr(evaluate, "MODE", "both")
    program = program_of(text(), "inlined.meeple", native=False)
    with pytest.raises((RuleError, AssertionError)):
        program.new_game(players=2, seed=1).apply(list(CASES).index("a quotient"))
    assert len(program.walk.differences) == 1 and "['tenth']" in program.walk.differences[0]
