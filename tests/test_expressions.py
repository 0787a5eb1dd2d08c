"""Expressions and statements authors tripped over (issue 11 §4): each construct parses,
is checked with located errors, and runs."""

from __future__ import annotations

from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, merge
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources

FILE = "e.meeple"

PRELUDE = """ruleset e
players 2..2
kind Card { v: int }
zone pile: Card
var n: int = 0
var s: str = ""
"""
PRELUDE_LINES = PRELUDE.count("\n")


def diagnostics(rules: str):
    text = PRELUDE + rules
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    _, diags = check(merge(src, [], None, Diagnostics()), Diagnostics())
    return [(d.code, d.span.line - PRELUDE_LINES, d.span.column) for d in diags.items]


def after_setup(setup: str, extra: str = ""):
    text = PRELUDE + extra + "\nsetup {\n" + setup + "\n}\nturn { choose w from [0] as \"wait\" }\nend when false\n"
    src = SourceSet(base=parse(text, FILE), sources={FILE: text})
    return compile_sources(src).new_game(2, 0)


# ---------------------------------------------------------------- 1. elif in if-expressions

def test_elif_expression_picks_the_first_true_branch():
    g = after_setup("""
  let x = 4
  n = if x > 10 then 1 elif x == 4 then 2 elif x == 4 then 3 else 4
""")
    assert g.state["vars"]["n"] == 2
    g = after_setup("  n = if false then 1 elif false then 2 else 3")
    assert g.state["vars"]["n"] == 3


def test_elif_expression_errors_point_at_the_elif_part():
    got = diagnostics("""setup {
  n = if true then 1 elif 2 then 2 else 3
  n = if true then 1 elif false then "x" else 3
}
turn { choose w from [0] as "wait" }
end when false
""")
    # the condition of the elif part is not bool: located at that condition
    assert got[0] == ("check/type-mismatch", 2, 27)
    # the branches differ in type: as for `else if`
    assert got[1:] and all(c == "check/type-mismatch" and line == 3 for c, line, _ in got[1:])


# ---------------------------------------------------------------- 7. errors that say what to write

def syntax_error(rules: str):
    from meeple.dsl.errors import MeepleError
    text = PRELUDE + rules + '\nturn { choose w from [0] as "wait" }\nend when false\n'
    try:
        parse(text, FILE)
    except MeepleError as e:
        d = e.diagnostics[0]
        return d.code, d.span.line - PRELUDE_LINES, d.span.column, d.message, d.hint
    raise AssertionError("no syntax error")


def test_procedure_without_call_says_write_call():
    code, line, col, message, hint = syntax_error(
        "procedure start(k: int) { n = k }\nsetup {\n  n = 1\n  start(size(pile))\n}")
    assert (code, line, col) == ("parse/unexpected-token", 4, 3)
    assert message == "`start(size(pile))` on its own is not a statement"
    assert hint == "to run the procedure start, write `call start(size(pile))`"
    code, line, col, message, hint = syntax_error(
        "procedure start() { n = 1 }\nsetup {\n  if true { start() }\n}")
    assert (line, col) == (3, 13) and "write `call start()`" in hint


def test_name_with_arguments_alone_names_both_readings():
    _, line, col, _message, hint = syntax_error("setup {\n  gold(1)\n}")
    assert (line, col) == (2, 3)
    assert "`call gold(1)`" in hint and "`gold(1) = VALUE`" in hint


def test_let_in_a_function_says_the_body_is_one_expression():
    for rules, at in [("function f(x: int): int =\n  let y = x\nsetup { }", (2, 3)),
                      ("function f(x: int): int = let y = x\nsetup { }", (1, 27)),
                      ("function f(x: int): int {\n  x }\nsetup { }", (1, 25))]:
        code, line, col, message, hint = syntax_error(rules)
        assert (code, (line, col)) == ("parse/unexpected-token", at)
        assert message.startswith("a function's body is one expression after `=`")
        assert "procedure" in hint


def test_other_syntax_errors_are_unchanged():
    _code, _, _, message, hint = syntax_error("setup {\n  n = = 1\n}")
    assert message.startswith("unexpected") and hint.startswith("expected one of")


# ---------------------------------------------------------------- 3. strings join with +

def test_plus_joins_strings():
    g = after_setup('  s = "a" + "b"\n  s = s + "-" + s')
    assert g.state["vars"]["s"] == "ab-ab"


def test_plus_of_a_string_and_a_number_is_a_located_type_error():
    got = diagnostics("""setup {
  s = "a" + 1
  n = 1 + "a"
}
turn { choose w from [0] as "wait" }
end when false
""")
    assert got == [("check/type-mismatch", 2, 13), ("check/type-mismatch", 3, 11)]


def test_joining_strings_counts_against_the_work_budget():
    import pytest
    from meeple.interpreter import BudgetError
    with pytest.raises(BudgetError):
        after_setup('  s = "ab"\n  for i in 1..40 { s = s + s }')


# ---------------------------------------------------------------- 5. item variables of any item

def test_attribute_assignment_on_an_item_expression():
    extra = "kind Unit { s: int, var w: int = 0 }\nzone field: Unit\ndeck us into field { Unit(s: s) for s in 1..3 }\n"
    g = after_setup("""
  top(field).w = 5
  items(field)[0].w = 2
  items(field)[0].w = items(field)[0].w + 1
  gold(players[1]) = 4
""", extra=extra + "var gold: int per player = 0\n")
    assert g.state["ivars"]["w"] == [3, 0, 5]
    assert g.state["pvars"]["gold"] == [0, 4]


def test_attribute_assignment_errors_are_located():
    extra = "kind Unit { s: int, var w: int = 0 }\nzone field: Unit\n"
    got = diagnostics(extra + """setup {
  top(field).s = 1
  top(field).w = "x"
  size(field).w = 1
}
turn { choose w from [0] as "wait" }
end when false
""")
    assert [c for c, _, _ in got] == ["check/bad-value", "check/type-mismatch", "check/type-mismatch"]
    assert [line for _, line, _ in got] == [4, 5, 6]
    assert got[2][2] == 3  # at the expression that is not an item


def test_a_per_player_variable_takes_one_player():
    code, line, col, message, _hint = syntax_error("setup {\n  gold(1, 2) = 3\n}")
    assert (code, line, col) == ("parse/unexpected-token", 2, 3)
    assert "takes one player" in message


# ---------------------------------------------------------------- 4. conditional parts in labels

def test_label_with_conditional_parts():
    from meeple.interpreter.play import display
    extra = ('kind Unit { s: int, elite: bool, var hurt: bool = false }\nzone field: Unit\n'
             'deck us into field { Unit(s: s, elite: s == 2) for s in 1..2 }\n'
             'label Unit "unit {s}{if elite: *}{if not elite: -}{if hurt: (hurt)}"\n')
    g = after_setup("  top(field).hurt = true", extra=extra)
    units = g.state["loc"] and [i for i, it in enumerate(g.program.items) if it.kind == "Unit"]
    assert display.item_label(g.program, units[0], ivars=g.state["ivars"]) == "unit 1-"
    assert display.item_label(g.program, units[1], ivars=g.state["ivars"]) == "unit 2*(hurt)"
    assert display.item_label(g.program, units[1]) == "unit 2*"  # hurt unknown: not shown


def test_label_condition_must_be_a_bool_attribute():
    extra = 'kind Unit { s: int }\nzone field: Unit\nlabel Unit "{if s: x}{if nope: y}"\n'
    got = diagnostics(extra + 'turn { choose w from [0] as "wait" }\nend when false\n')
    assert [c for c, _, _ in got] == ["check/type-mismatch", "check/unknown-attribute"]
