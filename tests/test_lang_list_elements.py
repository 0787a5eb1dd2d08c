"""Setting an element of a list (``xs[i] = e``, docs/language.md 6.1.1) and comprehensions
with several ``for`` and ``if`` clauses in Python's order (7.5), issue 37 items 2 and 3.

- ``xs[i] = e``, ``grid[r][c] = e``, ``v(p)[i] = e``, ``u.marks[i] = e`` parse (they were
  ``parse/unexpected-token``), and give the place a new list: another holder of the old
  list keeps it.
- Misuse is a located check error with a hint; an index outside the list is the same
  located ``rule/error`` in the straightforward code, the fast code and the kernel.
- Comprehensions and aggregates nest their clauses as Python does: the values are
  Python's, an ``if`` guards the ``for`` after it, and a syntax error inside one points
  to the reference.
- tests/testdata/nim_lists.meeple (both constructs) plays as OpenSpiel's ``nim`` (where
  the ``open_spiel`` package is installed; in normal play, not its default misère), and the same in the straightforward code,
  the fast code and its kernel, move after move (its work counts: tests/test_work_count.py,
  which plays every ruleset of tests/testdata)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, play_both
from meeple.dsl import ast as ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

NIM = str(Path(__file__).resolve().parent / "testdata" / "nim_lists.meeple")


def _source(text: str) -> SourceSet:
    return SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})


def _rules(text: str, optimize: bool = True, monkeypatch=None):
    if monkeypatch is not None:
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
    return compile_sources(_source(text))


def _turn(body: str, head: str = "") -> str:
    return ("ruleset lists\nplayers 2..2\n"
            "kind Unit { strength: int, var marks: list of int = [0, 0, 0] }\n"
            "zone field: Unit\ndeck units into field { Unit(strength: s) for s in 1..3 }\n"
            "var xs: list of int = [1, 2, 3]\nvar kept: list of int = []\n"
            "var grid: list of list of int = [[1, 2], [3, 4]]\n"
            "var mine: list of int per player = [0, 0]\n"
            f"{head}turn {{\n  choose i from [0, 1, 2, 3] as \"pick\"\n{body}\n  end game\n}}\n"
            "score(p) = 0\n")


def _stmt(body: str):
    text = _turn(body)
    turn = next(d for d in parse(text, "rules.meeple").decls if d.node == "TurnDecl")
    return turn.body.stmts[1]


# ---------------------------------------------------------------- xs[i] = e

@pytest.mark.parametrize("body,shown", [
    ("xs[1] = 2", "(IndexAssign (Var name=xs) [(IntLit value=1)] (IntLit value=2))"),
    ("grid[i][0] = 5",
     "(IndexAssign (Var name=grid) [(Var name=i) (IntLit value=0)] (IntLit value=5))"),
    ("mine(active)[1] = 2",
     "(IndexAssign (Call func=mine [(Var name=active)]) [(IntLit value=1)] (IntLit value=2))"),
    ("top(field).marks[2] = 1",
     "(IndexAssign (Attr (Call func=top [(Var name=field)]) name=marks) [(IntLit value=2)] (IntLit value=1))"),
])
def test_an_element_of_a_list_is_a_statement_of_its_own(body, shown):
    assert ir.show(_stmt(body)) == shown


SETS = """  let before = xs
  xs[i % 3] = xs[i % 3] + 10
  kept = before
  grid[1][i % 2] = grid[0][1] * 10
  mine(active)[1] = mine(active)[1] + i
  let u = top(field)
  u.marks[i % 3] = 7
  top(field).marks[0] = u.marks[0] + 1"""


@pytest.mark.parametrize("optimize", [False, True], ids=["straightforward", "fast"])
def test_each_place_gets_a_new_list_and_other_holders_keep_the_old_one(monkeypatch, optimize):
    game = _rules(_turn(SETS), optimize, monkeypatch).new_game(2, 1)
    game.apply(game.legal_moves()[1])   # i = 1
    v = game.state["vars"]
    assert v["xs"] == [1, 12, 3] and v["kept"] == [1, 2, 3]
    assert v["grid"] == [[1, 2], [3, 20]]
    assert game.state["pvars"]["mine"] == [[0, 1], [0, 0]]
    marks = [m for m in game.state["ivars"]["marks"] if m != [0, 0, 0]]
    assert marks == [[1, 7, 0]]


@pytest.mark.parametrize("body,code,where,words", [
    ("items(field)[0] = top(field)", "check/bad-value", (12, 3), "'items(field)' is not a variable"),
    ("xs[0] = \"a\"", "check/type-mismatch", (12, 11), "an element of 'xs': expected int, found str"),
    ("xs[true] = 1", "check/type-mismatch", (12, 6), "an index: expected int, found bool"),
    ("grid[0][0][0] = 1", "check/type-mismatch", (12, 3), "'grid[...][...][...] = ...': expected a list"),
    ("i[0] = 1", "check/type-mismatch", (12, 3), "expected a list, found int"),
    ("field[0] = top(field)", "check/bad-value", (12, 3), "'field' is not a variable"),
    ("players[0] = active", "check/bad-value", (12, 3), "'players' is not a variable"),
    ("top(field).strength[0] = 1", "check/type-mismatch", (12, 14), "expected a list, found int"),
    ("nothing[0] = 1", "check/unknown-name", (12, 3), "unknown name 'nothing'"),
])
def test_setting_what_is_no_list_variable_is_a_located_check_error(body, code, where, words):
    with pytest.raises(MeepleError) as info:
        compile_sources(_source(_turn("  " + body)))
    d = info.value.diagnostics[0]
    assert (d.code, (d.span.line, d.span.column)) == (code, where) and words in d.message, d.render()


def test_a_list_kept_nowhere_is_told_to_be_kept_in_a_local_first():
    source = _turn("  items(field)[0] = top(field)")
    with pytest.raises(MeepleError) as info:
        compile_sources(_source(source))
    text = info.value.diagnostics[0].render({"rules.meeple": source})
    assert "rules.meeple:12:3" in text and "let xs = items(field)" in text
    assert " 12 |   items(field)[0] = top(field)\n    |   ^" in text, text


def test_a_ruleset_function_named_replace_at_is_its_own_and_xs_i_says_so():
    head = "function replace_at(a: int, b: int, c: int): int = a\n"
    with pytest.raises(MeepleError) as info:
        compile_sources(_source(_turn("  xs[0] = 1", head)))
    d = info.value.diagnostics[0]
    assert d.code == "check/bad-value" and "hides" in d.message and (d.span.line, d.span.column) == (13, 3)
    # the ruleset's own function is still called as before
    game = compile_sources(_source(_turn("  xs = [replace_at(5, 6, 7)]", head))).new_game(2, 1)
    game.apply(game.legal_moves()[0])
    assert game.state["vars"]["xs"] == [5]


SHORT = """  xs[i % 3] += 10
  grid[1][i % 2] -= i
  mine(active)[1] += i
  top(field).marks[0] += 2
  let u = bottom(field)
  u.marks[i % 3] -= 1
  kept += xs
  kept -= [0]"""
LONG = """  xs[i % 3] = xs[i % 3] + 10
  grid[1][i % 2] = grid[1][i % 2] - i
  mine(active)[1] = mine(active)[1] + i
  top(field).marks[0] = top(field).marks[0] + 2
  let u = bottom(field)
  u.marks[i % 3] = u.marks[i % 3] - 1
  kept = kept + xs
  kept = kept - [0]"""


def test_plus_equals_and_minus_equals_are_short_for_the_place_plus_or_minus_the_value():
    assert ir.show(_stmt("  xs[i] += 2")) == ir.show(_stmt("  xs[i] = xs[i] + 2"))
    assert ir.show(_stmt("  grid(active)[i][0] -= 2")) == ir.show(_stmt("  grid(active)[i][0] = grid(active)[i][0] - 2"))
    with pytest.raises(MeepleError) as info:   # (a list is not taken from a list)
        compile_sources(_source(_turn(SHORT)))
    assert {(d.code, d.span.line) for d in info.value.diagnostics} == {("check/type-mismatch", 19)}
    short, long = (compile_sources(_source(_turn(t.replace("  kept -= [0]", "").replace("  kept = kept - [0]", ""))))
                   for t in (SHORT, LONG))
    for i in range(4):
        a, b = short.new_game(2, 1), long.new_game(2, 1)
        a.apply(a.legal_moves()[i % 3])
        b.apply(b.legal_moves()[i % 3])
        assert a.state == b.state and a.state["vars"]["xs"] != [1, 2, 3]


@pytest.mark.parametrize("body,shown", [
    ("n += 2", "(Assign var=n (BinOp op=+ (Var name=n) (IntLit value=2)))"),
    ("mine(active) -= 1",
     "(Assign var=mine (Var name=active) (BinOp op=- (Call func=mine [(Var name=active)]) (IntLit value=1)))"),
    ("u.hp -= 1", "(AttrAssign var=u attr=hp (BinOp op=- (Attr (Var name=u) name=hp) (IntLit value=1)))"),
    ("top(field).hp += 1", "(AttrAssign var= attr=hp (BinOp op=+ (Attr (Call func=top [(Var name=field)]) name=hp) "
                           "(IntLit value=1)) (Call func=top [(Var name=field)]))"),
])
def test_each_place_takes_plus_equals(body, shown):
    assert ir.show(_stmt("  " + body)) == shown


OUTSIDE = _turn("  xs[i] = 0")


def _error_at_pick(prog, i: int) -> str:
    game = prog.new_game(2, 1)
    with pytest.raises(RuleError) as info:
        game.apply(game.legal_moves()[i])
    return str(info.value)


@needs_kernel
def test_an_index_outside_the_list_is_the_same_located_error_in_every_engine(monkeypatch):
    plain = _rules(OUTSIDE, False, monkeypatch).for_players(2)
    fast = _rules(OUTSIDE, True, monkeypatch)
    assert fast.use_native(report=False)
    native = fast.for_players(2)
    assert native.kernel
    want = _error_at_pick(plain, 3)
    assert want == "in turn at rules.meeple:12:3: index 3 is outside a list of 3 elements"
    assert _error_at_pick(_rules(OUTSIDE, True, monkeypatch).for_players(2), 3) == want
    assert _error_at_pick(native, 3) == want
    ok = native.new_game(2, 1)
    ok.apply(ok.legal_moves()[2])
    assert ok.state["vars"]["xs"] == [1, 2, 0]


# ---------------------------------------------------------------- comprehensions

# (Meeple, Python) of the same comprehension
SAME = [
    ("[a * 10 + b for a in 1..4 if a % 2 == 1 for b in 1..a if b != a]",
     "[a * 10 + b for a in range(1, 5) if a % 2 == 1 for b in range(1, a + 1) if b != a]"),
    ("[a + b + c for a in 0..2 for b in 0..a if a + b > 1 if b < 2 for c in [a, b] if c != 1]",
     "[a + b + c for a in range(3) for b in range(a + 1) if a + b > 1 if b < 2 for c in [a, b] if c != 1]"),
    ("[x for x in 1..9 if x % 2 == 1 if x > 4]", "[x for x in range(1, 10) if x % 2 == 1 if x > 4]"),
    ("[b for a in 1..3 if a > 1 for b in 1..a]", "[b for a in range(1, 4) if a > 1 for b in range(1, a + 1)]"),
    ("[size(ys) for ys in [[1], [], [2, 3]] if size(ys) > 0 for y in ys if y > 1]",
     "[len(ys) for ys in [[1], [], [2, 3]] if len(ys) > 0 for y in ys if y > 1]"),
]


@pytest.mark.parametrize("optimize", [False, True], ids=["straightforward", "fast"])
def test_clauses_nest_as_python_nests_them(monkeypatch, optimize):
    head = "".join(f"var c{k}: list of int = []\nvar s{k}: int = 0\n" for k in range(len(SAME)))
    body = "\n".join(f"  c{k} = {m}\n  s{k} = sum({m[1:-1]})" for k, (m, _) in enumerate(SAME))
    game = _rules(_turn(body, head), optimize, monkeypatch).new_game(2, 1)
    game.apply(game.legal_moves()[0])
    for k, (_, py) in enumerate(SAME):
        want = eval(py)  # noqa: S307 - the test's own Python comprehensions
        assert game.state["vars"][f"c{k}"] == want and game.state["vars"][f"s{k}"] == sum(want), SAME[k][0]


def test_an_if_guards_the_for_after_it():
    # xs[i] would be outside the list for i = 3: the `if` before the `for` keeps it from
    # being computed, as in Python; with the same `if` at the end it is computed
    guarded = "  kept = [x for j in 0..3 if j < size(xs) for x in [xs[j]]]"
    game = compile_sources(_source(_turn(guarded))).new_game(2, 1)
    game.apply(game.legal_moves()[0])
    assert game.state["vars"]["kept"] == [1, 2, 3]
    late = "  kept = [x for j in 0..3 for x in [xs[j]] if j < size(xs)]"
    game = compile_sources(_source(_turn(late))).new_game(2, 1)
    with pytest.raises(RuleError, match="index 3 is outside a list of 3 elements"):
        game.apply(game.legal_moves()[0])


def test_a_comprehension_prints_back_as_written():
    from meeple.interpreter.documents import meeple_code
    e = _stmt("  kept = [a for a in xs if a > 1 for b in 1..a if b != a if b > 0]").value
    assert meeple_code.expr(e) == "[a for a in xs if a > 1 for b in 1..a if b != a and b > 0]"


@pytest.mark.parametrize("expr,col", [
    ("[x if x > 1 for x in xs]", 13),
    ("[x for x in xs where x > 1]", 25),
    ("sum(x for x in xs, 3)", 27),
])
def test_a_syntax_error_in_a_comprehension_points_to_the_reference(expr, col):
    with pytest.raises(MeepleError) as info:
        parse(_turn(f"  kept = {expr}"), "rules.meeple")
    d = info.value.diagnostics[0]
    assert d.code == "parse/unexpected-token" and (d.span.line, d.span.column) == (12, col)
    assert "section 7.5" in d.hint and "if CONDITION" in d.hint


def test_a_syntax_error_elsewhere_keeps_its_plain_hint():
    with pytest.raises(MeepleError) as info:
        parse(_turn("  kept = [1, 2 3]"), "rules.meeple")
    assert "7.5" not in info.value.diagnostics[0].hint


# ---------------------------------------------------------------- every engine

def test_the_straightforward_and_the_fast_code_play_nim_alike(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(NIM)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = interpreter.load(NIM)
    for seed in range(4):
        assert play_both(fast, plain, 2, seed, 100) > 5


@pytest.mark.kernels
@needs_kernel
def test_the_kernel_plays_nim_as_python():
    rules = interpreter.load(NIM)
    assert rules.use_native(report=False)
    prog, plain = rules.for_players(2), interpreter.load(NIM).for_players(2)
    assert prog.kernel
    for seed in range(4):
        a, b, rnd = prog.new_game(2, seed), plain.new_game(2, seed), random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            i = rnd.randrange(len(b.legal_moves()))
            a.apply(a.legal_moves()[i])
            b.apply(b.legal_moves()[i])
        assert a.state == b.state and a.result == b.result
    assert prog.native_fallbacks == 0


def test_random_games_of_nim_agree_with_openspiel():
    # OpenSpiel's nim, piles 1, 3, 5, 7 in normal play (its default is misère): action (take - 1) * 4 + pile
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    prog, spiel, rnd = interpreter.load(NIM).for_players(2), pyspiel.load_game("nim(is_misere=false)"), random.Random(5)
    decisions = 0
    for seed in range(60):
        game, st = prog.new_game(2, seed), spiel.new_initial_state()
        while not st.is_terminal():
            assert game.active_player == st.current_player()
            legal = {(int(m.notation.split()[-1]) % 10 - 1) * 4 + int(m.notation.split()[-1]) // 10: m
                     for m in game.legal_moves()}
            assert sorted(legal) == st.legal_actions(), str(st)
            a = rnd.choice(st.legal_actions())
            game.apply(legal[a])
            st.apply_action(a)
            decisions += 1
        assert game.over
        assert game.result["outcomes"] == ["win" if x > 0 else "loss" for x in st.returns()]
    assert decisions > 5 * 60


@pytest.mark.kernels
@needs_kernel
def test_the_kernel_counts_the_work_and_calls_the_reference_counts_in_nim(monkeypatch):
    # (tests/test_work_count.py compares the reference and the fast code on nim_lists; its
    # kernel cases are bundled rulesets)
    from test_work_count import differences
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(NIM).for_players(2)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    rules = interpreter.load(NIM)
    assert rules.use_native(report=False)
    fast = rules.for_players(2)
    assert fast.kernel
    for seed in range(3):
        assert differences([plain, fast], 2, seed, 100) == []
    assert fast.native_fallbacks == 0 and plain.new_game(2, 0).work_spent > 0
