"""A run-time error inside rule functions that call each other, or themselves, is located
in the function it is in: the innermost call (docs/language.md 15.2: "in function NAME at
ITS BODY: ... (called from RULE at ITS PLACE)", the place where the rule called the
first of them), whichever engine runs it: the reference walk (MEEPLE_EVALUATE=tree), the
straightforward compiled code, the fast code (its own error, and as it is played), both
side by side (MEEPLE_EVALUATE=both, which compares the function each error is in), a C++
kernel (it hands the move back to Python, which says where) and the Cython path.

With f calling g calling f again, a failure in the last f is f's, not g's (the function
first called last): play/failures.py takes the innermost function of the stack, not the
last one of those found on it. A small function is written in place of its call
(core/inline.py, play/inplace.py), also in a function that calls itself; an argument of
such a call is the code of the function that makes it."""
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

from meeple import interpreter

NAME = "recursive.meeple"
FUNCTIONS = """ruleset recursive
players 2..2
var x: int = 0
function tenth(n: int): int = 10 / n
function f(n: int): int = if n == 0 then 10 / n else g(n - 1) + 1
function g(n: int): int = f(n) + 2
function s(n: int): int = if n == 0 then 10 / n else s(n - 1) + 1
function a(n: int): int = if n == 0 then 10 / n else b(n, 2)
function b(n: int, k: int): int = if k == 0 then a(n - 1) else b(n, k - 1) + 1
function p(n: int): int = if n == 0 then tenth(n) else q(n - 1)
function q(n: int): int = p(n) + 1
function pa(n: int): int = if n == 0 then tenth(10 / n) else qa(n - 1)
function qa(n: int): int = pa(n) + 1
function pc(n: int): int = if n == 0 then 10 / n else qc(n - 1)
function qc(n: int): int = tenth(pc(n)) + 1
function sp(n: int): int = if n == 0 then tenth(n) + 1 else sp(n - 1) + 1
function w(n: int): int = if n == 0 then sum(10 / n for k in 0..1) else v(n - 1)
function v(n: int): int = w(n) + 1
function big(n: int): int = sum(10 / (n - k) for k in 0..1)
function u(n: int): int = if n == 0 then big(1) else u(n - 1)
function deep(n: int): int = deep(n + 1) + 1
function into(n: int): int = deep(n) + 1
function ping(n: int): int = if n < 0 then 0 else pong(n + 1) + 1
function pong(n: int): int = 1 + 2 * (3 + (4 - (ping(n + 1) - 5)))
function spread(n: int): int = sum(spread(n + k) * k for k in 0..1 if n + k >= 0)
"""

# each case: the expression that fails, the function it fails in (the innermost call)
CASES = {
    "each other, from f": ("f(2)", "f"),            # f g f g f: in the last f
    "each other, from g": ("g(2)", "f"),            # g f g f g f
    "itself": ("s(3)", "s"),                        # s s s s
    "itself, in a cycle": ("a(1)", "a"),            # a b b b a
    "in place in them": ("p(2)", "tenth"),          # p q p q p, then tenth's body in p
    "in an argument in place in them": ("pa(2)", "pa"),   # the argument is pa's code
    "a call in an argument in place": ("pc(1)", "pc"),    # pc qc pc: tenth never reached
    "in place in itself": ("sp(2)", "tenth"),       # sp sp sp, then tenth's body in sp
    "in a comprehension of theirs": ("w(2)", "w"),  # w v w v w, in its sum's loop
    "in one they call": ("u(2)", "big"),            # u u u big, in its sum's loop
}
# runaway recursions (the depth budget, placed at the statement that started them): the
# expression, the functions named; the walk takes more Python frames per call than the
# compiled code, and a function that is no part of the recursion is not named
RUNAWAYS = {
    "itself, from a function in place": ("into(1)", "function 'deep' calls itself"),
    "each other": ("ping(1)", "functions 'ping', 'pong' call each other"),
    "itself in a comprehension": ("spread(1)", "function 'spread' calls itself"),
}
FIRST = len(FUNCTIONS.splitlines()) + 4   # the line of the first case's statement (then every 3)
STATEMENTS = [expr for expr, _ in CASES.values()] + [expr for expr, _ in RUNAWAYS.values()]


def text() -> str:
    """The ruleset of every case: its turn's decision picks which."""
    out = FUNCTIONS + f'turn {{\n  choose k from 1..{len(STATEMENTS)} as "case"\n'
    for k, expr in enumerate(STATEMENTS, 1):
        out += f"  {'if' if k == 1 else 'elif'} k == {k} {{\n    x = {expr}\n  }}\n"
    return out + "}\nend when x > 100\n"


def expected(case: str) -> str:
    """The error's text: in the function's body, called from the turn's statement (a
    runaway's: at the statement)."""
    if case in RUNAWAYS:
        k = len(CASES) + list(RUNAWAYS).index(case)
        return (f"in turn at {NAME}:{FIRST + 3 * k}:5: {RUNAWAYS[case][1]} more than 500 deep "
                "(endless recursion?) (the 'depth' budget)")
    k = list(CASES).index(case)
    fn = CASES[case][1]
    rows = FUNCTIONS.splitlines()
    line = next(i for i, row in enumerate(rows, 1) if row.startswith(f"function {fn}("))
    column = rows[line - 1].index(" = ") + 4
    return (f"in function {fn} at {NAME}:{line}:{column}: division by zero "
            f"(called from turn at {NAME}:{FIRST + 3 * k}:5)")


def error_of(program, case: str) -> tuple:
    """The rule error the case raises: its text, rule, place, hint and code."""
    game = program.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as e:
        game.apply(list(CASES).index(case) if case in CASES else len(CASES) + list(RUNAWAYS).index(case))
    err = e.value
    return str(err), err.rule, err.span, err.hint, err.code


@pytest.fixture(scope="module")
def programs():
    """Each Python engine's program of the cases (compiled once)."""
    return per_python_engine(text(), NAME)


def test_the_cases_are_what_they_say(programs):
    facts = programs["straightforward"].facts
    assert {"f", "g", "s", "a", "b", "p", "q", "pa", "qa", "pc", "qc", "sp", "w", "v", "u"} <= facts.recursive
    for fast in (False, True):   # (a function that calls itself is never written in place)
        assert facts.inlined(fast).names & {"tenth", "f", "g", "s", "a", "b"} == {"tenth"}


@pytest.mark.parametrize("case", list(CASES))
def test_an_error_is_in_the_innermost_function_with_every_python_engine(programs, case):
    walked = error_of(programs["walk"], case)
    assert walked[0] == expected(case)
    assert walked[1] == f"function {CASES[case][1]}"
    for name, program in programs.items():
        assert error_of(program, case) == walked, name
    assert programs["both"].walk.differences == []


@pytest.mark.parametrize("case", list(RUNAWAYS))
def test_a_runaway_recursion_is_the_same_depth_budget_with_every_python_engine(programs, case):
    walked = error_of(programs["walk"], case)
    assert walked[0].startswith(expected(case)), walked[0]
    assert walked[4] == "rule/budget"
    for name, program in programs.items():
        assert error_of(program, case) == walked, name
    assert programs["both"].walk.differences == []


def test_an_error_is_in_the_innermost_function_in_the_end_condition_and_a_procedure(monkeypatch):
    base = FUNCTIONS.replace("var x: int = 0\n", "var x: int = 2\n")
    rulesets = {
        "the end condition": base + 'turn {\n  choose k from 1..2 as "k"\n  x = x - k\n}\nend when x < 2 and f(x) > 3\n',
        "procedure go": base + "procedure go() {\n  x = a(x - 1)\n}\n"
                               'turn {\n  choose k from 1..2 as "k"\n  call go()\n}\nend when x > 100\n',
    }
    for rule, source in rulesets.items():
        got = {}
        for name, (optimize, strict, mode) in PY_ENGINES.items():
            monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
            monkeypatch.setattr(codegen, "STRICT", strict)
            monkeypatch.setattr(evaluate, "MODE", mode)
            game = program_of(source, NAME, native=False).new_game(players=2, seed=1)
            with pytest.raises(RuleError) as e:
                game.apply(0)
            got[name] = str(e.value)
        assert len(set(got.values())) == 1, got
        fn = "f" if rule == "the end condition" else "a"
        assert got["walk"].startswith(f"in function {fn} at {NAME}:"), got["walk"]
        assert f"(called from {rule} at {NAME}:" in got["walk"], got["walk"]


@functools.cache
def _native(kernel: bool):
    src = SourceSet(base=parse(text(), NAME), sources={NAME: text()})
    ruleset = compile_sources(src)
    assert ruleset.use_native(report=False, kernel_only=kernel)
    return ruleset.for_players(2)


@needs_kernel
def test_an_error_is_in_the_innermost_function_with_a_kernel(monkeypatch):
    """The kernel hands the move back to Python, which says where."""
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    monkeypatch.setattr(evaluate, "MODE", "")
    kernel = _native(True)
    assert kernel.kernel
    for case in [*CASES, *RUNAWAYS]:
        fallbacks = kernel.native_fallbacks
        assert error_of(kernel, case)[0].startswith(expected(case)), case
        assert kernel.native_fallbacks == fallbacks + 1


native_status = interpreter.native_status()


@pytest.mark.skipif(native_status is not None, reason=f"native code cannot be built here: {native_status}")
def test_an_error_is_in_the_innermost_function_with_the_cython_path(monkeypatch):
    monkeypatch.setenv("MEEPLE_KERNEL", "0")
    monkeypatch.setattr(evaluate, "MODE", "")
    native = _native(False)
    assert native.native and not native.kernel
    for case in [*CASES, *RUNAWAYS]:
        assert error_of(native, case)[0].startswith(expected(case)), case
    assert native.native_fallbacks > 0
