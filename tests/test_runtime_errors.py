"""Errors in the rules while a game runs (issue 11 §4): each names its code, the rule
(turn, procedure, function, end condition, scoring), its FILE:LINE:COLUMN, says what went
wrong in plain words (never Python's own text, never a place like <string>:0:0), has a
hint, and renders with the source line and a caret, in the API and on the command line."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources

FILE = "broken.meeple"

HEAD = """ruleset broken
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
"""

PYTHON_WORDS = ("NoneType", "Error:", "object has no attribute", "not subscriptable",
                "list index", "<string>", ":0:0", "Traceback")


def start(rules: str):
    """The error that starting a game of HEAD + rules raises."""
    text = HEAD + rules
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    ruleset = compile_sources(src)
    with pytest.raises(RuleError) as e:
        ruleset.new_game(players=2, seed=1)
    return e.value, text, ruleset


def place(text: str, fragment: str) -> tuple[int, int]:
    for n, line in enumerate(text.splitlines(), 1):
        if fragment in line:
            return n, line.index(fragment) + 1
    raise AssertionError(fragment)


def assert_plain(err: RuleError) -> None:
    for word in PYTHON_WORDS:
        assert word not in str(err), str(err)
    assert err.hint, str(err)


CASES = {
    # name: (rules, the statement or expression where it fails, the rule, the words)
    "index": ("turn {\n  let l = [1, 2]\n  x = l[5]\n}\nend when x > 3\n",
              "x = l[5]", "turn", "an index is outside its list"),
    "none": ("turn {\n  x = x + top(pile).value\n}\nend when x > 3\n",
             "x = x + top(pile).value", "turn", "a value is missing (none)"),
    "division": ("procedure share(n: int) {\n  x = 10 / n\n}\nturn {\n  call share(0)\n}\n"
                 "end when x > 3\n", "x = 10 / n", "procedure share", "division by zero"),
    "move": ("turn {\n  move top(pile) to pile\n}\nend when x > 3\n",
             "move top(pile) to pile", "turn", "'move' of nothing"),
    "end": ("turn {\n  x = x + 1\n}\nend when 10 / (x - 1) > 3\n",
            "10 / (x - 1) > 3", "the end condition", "division by zero"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_rule_error_names_its_rule_place_and_what_went_wrong(name):
    rules, where, rule, words = CASES[name]
    err, text, _ = start(rules)
    line, column = place(text, where)
    assert err.code == "rule/error"
    assert err.rule == rule and words in err.detail
    assert (err.span.file, err.span.line, err.span.column) == (FILE, line, column)
    assert str(err).startswith(f"in {rule} at {FILE}:{line}:{column}: {words}"), str(err)
    assert_plain(err)


# a function called (its parameter n used twice), and one the Python code writes in place
# of its call (core/inline.py): the same place
@pytest.mark.parametrize("body", ["(n + m + n) / m", "n / m"])
def test_an_error_inside_a_function_points_into_the_function_and_names_the_caller(body):
    rules = (f"function ratio(n: int, m: int): int = {body}\n"
             "turn {\n  x = x + ratio(x, x)\n}\nend when x > 3\n")
    err, text, _ = start(rules)
    assert err.rule == "function ratio" and err.detail.startswith("division by zero")
    assert (err.span.line, err.span.column) == place(text, body)
    call_line, call_col = place(text, "x = x + ratio")
    assert f"(called from turn at {FILE}:{call_line}:{call_col})" in str(err)
    assert_plain(err)


def test_a_rule_error_renders_its_source_line_with_a_caret():
    err, text, ruleset = start(CASES["index"][0])
    shown = err.diagnostic().render(ruleset.sources.sources).splitlines()
    line, column = place(text, "x = l[5]")
    assert shown[0] == f"error[rule/error]: {FILE}:{line}:{column}: in turn: an index is outside its list"
    assert shown[1].endswith("|   x = l[5]")
    assert shown[2].index("^") - shown[2].index("|") - 1 == column
    assert shown[3].startswith("hint: lists count from 0")


def test_a_budget_error_stays_at_the_statement_that_started_the_recursion():
    rules = ("function f(n: int): int = f(n + 1)\nturn {\n  x = f(0)\n}\nend when x > 3\n")
    err, text, _ = start(rules)
    assert err.code == "rule/budget" and err.rule == "turn"
    assert (err.span.line, err.span.column) == place(text, "x = f(0)")
    assert "'f'" in err.detail


def test_the_command_line_shows_the_rule_error_with_its_caret_and_hint(tmp_path):
    path = tmp_path / "broken.meeple"
    path.write_text(HEAD + CASES["division"][0], encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "meeple", "simulate", str(path), "--games", "1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    lines = run.stderr.splitlines()
    assert lines[0].startswith("error: game 1 (seed 0): in procedure share at ")
    assert lines[0].endswith(": division by zero")
    assert lines[1].endswith("|   x = 10 / n") and "^" in lines[2]
    assert lines[3].startswith("hint: check the divisor first")
    assert "Traceback" not in run.stderr

    run = subprocess.run([sys.executable, "-m", "meeple", "simulate", str(path), "--games", "1",
                          "--json"], capture_output=True, text=True, timeout=120)
    doc = json.loads(run.stdout)
    rule = doc["error"]["rule"]
    line, column = place(HEAD + CASES["division"][0], "x = 10 / n")
    assert rule == {"code": "rule/error", "rule": "procedure share", "detail": "division by zero",
                    "file": str(path), "line": line, "column": column}
    assert doc["error"]["hint"].startswith("check the divisor first")
