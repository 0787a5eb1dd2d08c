"""Functions of enums and bools read from a table (issue 13 §2): a rule function whose
parameters are all enums or bools (few combinations), that gives no list and reads
nothing of the state, has its values computed once when the program is compiled
(``TAB_name``, compile.Program._tabled); the fast code reads the table where it would
call the function. A value that fails (a rule error) is not in the table, nor is an
argument outside the enum (none): the straightforward code then runs again, with the
same value or error as without the table."""
from __future__ import annotations

import json

from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.compiler import codegen

RULES = """ruleset tabled
players 2..2
enum Role { pawn, knight, bishop, rook }
kind Man { role: Role }
zone box: Man
deck men into box { Man(role: r) for r in Role }
var x: int = 0
var y: int = 0
# each parameter read more than once, with arguments that are not names: called
function code(r: Role, white: bool): int =
  (if r == pawn then 1 elif r == knight then 2 elif r == bishop then 3 else 4)
  + (if white then 0 else 10) + (if r == rook and not white then 100 else 0)
function ratio(r: Role): int = 12 / (if r == bishop then 0 else 3) + (if r == bishop then 1 else 2)
"""


def both(monkeypatch, rules: str):
    out = []
    for optimize in (True, False):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        text = RULES + rules
        src = SourceSet(base=parse(text, "tabled.meeple"), sources={"tabled.meeple": text})
        prog = compile_sources(src).for_players(2)
        try:
            out.append((json.dumps(prog.new_game(2, seed=1).state["vars"], sort_keys=True), prog))
        except RuleError as e:
            out.append(((str(e), e.rule, e.span), prog))
    (fast, prog), (plain, _) = out
    return fast, plain, prog


def test_a_function_of_enums_is_read_from_its_table_with_the_same_values(monkeypatch):
    rules = ("turn {\n  x = sum(code(first(m for m in items(box) if m.role == r).role, r != pawn)"
             " * k for r in Role for k in [1])\n"
             "  y = code(first(m for m in items(box)).role, false)\n}\nend when x > 0\n")
    fast, plain, prog = both(monkeypatch, rules)
    # pawn not white 11, knight 2, bishop 3, rook 4; the first man (a pawn), not white: 11
    assert fast == plain and json.loads(fast) == {"x": 11 + 2 + 3 + 4, "y": 11}
    table = prog.ns["TAB_code"]
    assert len(table) == 8 and table[("rook", False)] == 114 and table[("pawn", True)] == 1
    assert any("TAB_code" in prog.ns[k].__code__.co_names for k in prog.ns if k.startswith("FAST_"))


def test_a_value_that_fails_is_not_in_the_table_and_fails_as_always(monkeypatch):
    assert both(monkeypatch, "turn {\n  x = ratio(first(m for m in items(box)).role)\n}\n"
                             "end when x > 0\n")[0] == '{"x": 6, "y": 0}'
    fast, plain, prog = both(monkeypatch, "turn {\n  x = ratio(first(m for m in items(box) "
                                          "if m.role == bishop).role)\n}\nend when x > 0\n")
    assert fast == plain and "division by zero" in plain[0] and plain[1] == "function ratio"
    assert "bishop" not in prog.ns["TAB_ratio"] and prog.ns["TAB_ratio"]["rook"] == 6


def test_an_argument_outside_the_enum_gives_what_the_function_gives(monkeypatch):
    # none is no role: the table has no such key, and the function gives 4 (else) + 10
    fast, plain, _ = both(monkeypatch, "turn {\n  let m = first(m for m in items(box) if false)\n"
                                       "  x = code(if m == none then none else m.role, false)\n}\n"
                                       "end when x > 0\n")
    assert fast == plain and json.loads(fast)["x"] == 14


def test_a_text_that_says_R_is_no_read_of_the_state(monkeypatch):
    # (the fast code of letter holds the text 'R', which is not the runtime R: whether
    # a function's code reads R is what the printer noted where it wrote it, see
    # codegen.ExprCompiler.wrote_r); seated reads the state (the players' count): called
    rules = ("function letter(r: Role): str = if r == rook then \"R\" elif r == bishop then \"B\" else \"N R\"\n"
             "function seated(white: bool): int = if white then player_count() else 0\n"
             "turn {\n  x = (if letter(first(m for m in items(box) if m.role == rook).role) == \"R\" then 10 else 0)"
             " + (if letter(pawn) == \"N R\" then 3 else 0) + seated(first(m for m in items(box)).role == pawn)\n}\n"
             "end when x > 0\n")
    fast, plain, prog = both(monkeypatch, rules)
    assert fast == plain and json.loads(fast)["x"] == 10 + 3 + 2
    assert prog.ns["TAB_letter"] == {"pawn": "N R", "knight": "N R", "bishop": "B", "rook": "R"}
    assert "TAB_seated" not in prog.ns
