"""The reference meaning of expressions (interpreter/core/evaluate.py: a tree walk of the
checked IR, each built-in's meaning its Python form in core/primitives.py) against the
engines' compiled code.

- It has a meaning for every kind of expression node of the IR, every built-in, every
  aggregate and closure, every kind of call and every operator, and random games of two
  rulesets that use them all walk each one (nothing falls back to compiled code).
- "both" (``evaluate.MODE``): the straightforward engine evaluates every expression it
  meets (procedures' values and conditions, options, ``end when``, scores, each rule
  function through the calls made) by its compiled code and by the walk, from the same
  budgets, and checks that they give the same value (its repr), count the same work,
  calls and depth, and raise the same error (its kind and words); its games are played
  in lockstep against the fast engine (legal moves, states after every move, results),
  on every bundled ruleset and every ruleset of tests/testdata.
- "tree": the straightforward engine evaluates its expressions by the walk alone; whole
  games play exactly as the fast engine plays them, and as a kernel (C++) plays them, and
  budgets run out with the same located error as the compiled code.

Longer: ``MEEPLE_WALK_GAMES=5 MEEPLE_WALK_MOVES=1000 python3 -m pytest tests/test_evaluate.py``."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import typing
from pathlib import Path
from types import SimpleNamespace

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_plays_as_python, play_both, program_of
from meeple.dsl import ast as ir
from meeple.dsl.builtins import AGGREGATES, BUILTINS, CLOSURES, FORMS
from meeple.dsl.errors import MeepleError
from meeple.interpreter import Budgets, RuleError, SettingError
from meeple.interpreter.compiler import codegen
from meeple.interpreter.core import evaluate
from meeple.interpreter.core.operators import OPERATORS
from meeple.interpreter.core.primitives import PRIMITIVES
from test_builtins import COVER
from test_fast_paths import CONFIGS

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
GAMES = int(os.environ.get("MEEPLE_WALK_GAMES", "1"))
MOVES = int(os.environ.get("MEEPLE_WALK_MOVES", "150"))  # per game at most

EXPR_KINDS = [cls.__name__ for cls in typing.get_args(typing.get_args(ir.Expr)[0])]
CALL_KINDS = ("builtin", "function", "pair", "row", "tuple", "rows", "zone", "player_var")
# every operator (core/operators.py, whose table tests/test_operators.py checks against the grammar)
OPS = {(op.node, op.op) for op in OPERATORS.values() if op.node != "CondExpr"}

# what the built-ins' ruleset (tests/test_builtins.py, COVER) leaves out: relations of two
# and of three cells, a cell by its coordinates, a ray, tuples, closures, per-player zones
# and variables, every operator, recursion
WALKED = """ruleset walked
players 2..2
enum Colour { red, blue }
kind Stone { colour: Colour, n: int }
board grid: grid(rows: 3, cols: 3) holds Stone
zone supply: Stone
zone hand: Stone per player
deck stones into supply { Stone(colour: k, n: i) for k in Colour for i in 1..5 }
relation line(a: grid, b: grid, c: grid) =
  b.row - a.row == c.row - b.row and b.col - a.col == c.col - b.col
  and abs(b.row - a.row) <= 1 and abs(b.col - a.col) <= 1 and a != b
relation beside(a: grid, b: grid) = abs(a.row - b.row) + abs(a.col - b.col) == 1
const middle: grid = cell(grid, row: 2, col: 2)
var pts: int per player = 0
var note: str = ""
var total: int = 0
function half(n: int): int = n / 2
function fall(n: int): int = if n <= 0 then 0 else 1 + fall(n - 1)
turn {
  choose c from [x for x in cells(grid) if empty(x)] as "place"
  move top(supply) to c
  let pairs = [(x, x.row * 3 + x.col) for x in cells(grid) if occupied(x)]
  total = sum(p[1] for p in pairs) % 7 + size(line(c)) + size(line(c, middle))
  total = total + count(a for a in cells(grid) for b in beside(a) if line(a, b, c))
  total = total - half(size(connected(x for x in beside(c) if occupied(x))))
  total = total + size(until(x for x in ray(c, row: 1, col: 0) if occupied(x))) + fall(size(pairs))
  total = if beside(c, middle) then -total else total
  let k = size(pairs) - 1
  let flags = [true, top(c) != none, cell(grid, row: 1, col: k) == none, k not in [5, 6]]
  total = total + count(f for f in flags if f) + size(0..k)
  if not (top(c) in c) or 1 > 2 or total < 0 or total >= 3 or total != 1 or k in 0..2 {
    pts(active) = pts(active) + size(hand(active)) + pairs[k][1]
  }
  if top(c).colour == Colour.red and total > -100 {
    note = note + "r"
  }
}
end when empty(supply) or size([x for x in cells(grid) if empty(x)]) == 0
score(p) = pts(p)
"""

# every ruleset of tests/testdata (ttt is among the bundled rulesets' CONFIGS of
# test_fast_paths), at its least number of players
SAMPLE = [(str(ROOT / "tests" / "testdata" / name), players, ()) for name, players in (
    ("blotto", 2), ("breakthrough", 2), ("checkers", 2), ("clobber", 2), ("connect_four", 2), ("consts.meeple", 2),
    ("dark_hex", 2), ("dark_ships.meeple", 2), ("first_price_auction.meeple", 2), ("hex", 2),
    ("kuhn_poker.meeple", 2), ("liars_poker", 2), ("nim_lists.meeple", 2), ("oshi_zumo.meeple", 2), ("othello", 2),
    ("oware", 2), ("pentago", 2), ("phantom_ttt", 2), ("pig.meeple", 2), ("pure_search.meeple", 2), ("quoridor", 2),
    ("quoridor_fine", 2), ("snapshots.meeple", 2), ("tiny_bridge", 2), ("two_dice.meeple", 1),
    ("verbs_demo.meeple", 2), ("verbs_when.meeple", 2))]


def _id(config) -> str:
    ruleset, players, variants = config
    return f"{Path(ruleset).name}-{players}p{'-' + '+'.join(variants) if variants else ''}"


def play(prog, players: int, seeds: int) -> int:
    """Random games (one per seed), to their end; the moves played."""
    moves = 0
    for seed in range(seeds):
        g = prog.new_game(players, seed)
        rnd = random.Random(seed)
        while not g.over:
            seat = g.deciding[0]
            legal = g.legal_moves(seat)
            g.apply(legal[rnd.randrange(len(legal))], safe=False, seat=seat)
            moves += 1
    return moves


def _node_keys(ev, e) -> list:
    """What a walk of ``e`` shows of the walk's coverage: its kind of node, and its kind of
    call, built-in, aggregate or operator."""
    keys: list = [e.node]
    if e.node == "Call":
        kind = ev.facts.call_kind(e)
        keys += [("call", kind)] + ([("builtin", e.func)] if kind == "builtin" else [])
    elif e.node == "Aggregate":
        keys.append(("over", e.func))
    elif e.node in ("BinOp", "UnOp"):
        keys.append((e.node, e.op))
    return keys


def test_the_walk_has_a_meaning_for_every_kind_of_node_and_builtin():
    for kind in EXPR_KINDS:
        assert callable(getattr(evaluate.Evaluator, "_" + kind, None)), kind
    assert set(PRIMITIVES) == set(BUILTINS) and all(p.python for p in PRIMITIVES.values())
    assert all(PRIMITIVES[f].over for f in AGGREGATES)
    assert set(CLOSURES) == {"connected"} and set(FORMS) == {"ray", "until"}   # (each its own method)
    prog = program_of(WALKED, "walked.meeple", native=False)
    with pytest.raises(AssertionError, match="no meaning for Lambda"):   # (nothing falls back)
        evaluate.Evaluator(prog).value(SimpleNamespace(node="Lambda"), None, evaluate.Scope({}))


def test_every_node_builtin_and_call_is_walked_as_the_compiled_code_computes_it(monkeypatch):
    seen: set = set()
    walk = evaluate.Evaluator.value

    def value(self, e, R, s):
        seen.update(_node_keys(self, e))
        return walk(self, e, R, s)
    monkeypatch.setattr(evaluate.Evaluator, "value", value)
    monkeypatch.setattr(evaluate, "MODE", "both")
    for text, name in ((COVER, "cover.meeple"), (WALKED, "walked.meeple")):
        prog = program_of(text, name, native=False)
        moves = play(prog, 2, 4)
        assert prog.walk.differences == [] and prog.walk.compared > 10 * moves > 0
    want = {*EXPR_KINDS, *(("call", k) for k in CALL_KINDS), *(("builtin", f) for f in BUILTINS),
            *(("over", f) for f in (*AGGREGATES, *CLOSURES, "until")), *OPS}
    assert want - seen == set()


@pytest.mark.parametrize("ruleset,players,variants", CONFIGS + SAMPLE, ids=[_id(c) for c in CONFIGS + SAMPLE])
def test_the_walk_gives_every_value_budget_and_error_the_compiled_code_gives(monkeypatch, ruleset, players,
                                                                              variants):
    monkeypatch.setattr(evaluate, "MODE", "both")
    both = interpreter.load(ruleset, variants).for_players(players)
    monkeypatch.setattr(evaluate, "MODE", "")
    fast = interpreter.load(ruleset, variants).for_players(players)
    assert both.walk is not None and fast.walk is None and fast.optimize
    played = sum(play_both(both, fast, players, seed, MOVES) for seed in range(GAMES))
    assert both.walk.compared > played and both.walk.differences == []   # (two_dice: no move)


@pytest.mark.parametrize("ruleset,players,variants", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_whole_games_walked_play_as_the_fast_engine_plays_them(monkeypatch, ruleset, players, variants):
    monkeypatch.setattr(evaluate, "MODE", "tree")
    walked = interpreter.load(ruleset, variants).for_players(players)
    monkeypatch.setattr(evaluate, "MODE", "")
    fast = interpreter.load(ruleset, variants).for_players(players)
    assert walked.walk is not None and walked.walk.compared == 0
    assert sum(play_both(walked, fast, players, seed, MOVES) for seed in range(GAMES)) > 0


@needs_kernel
@pytest.mark.parametrize("text,name", [(WALKED, "walked.meeple"), ((ROOT / "rulesets" / "kalah" / "kalah.meeple")
                                                                  .read_text(encoding="utf-8"), "kalah.meeple")])
def test_a_kernel_plays_as_the_walk_plays(monkeypatch, text, name):
    """The C++ kernel (native/kernel.py prints the expressions) against the walk alone:
    the same state after every move, no move left to Python."""
    monkeypatch.setattr(evaluate, "MODE", "")
    kernel = program_of(text, name, native=True)
    monkeypatch.setattr(evaluate, "MODE", "tree")
    walked = program_of(text, name, native=False)
    assert kernel.kernel and walked.walk is not None
    assert kernel_plays_as_python(kernel, walked, 3) > 20 and kernel.native_fallbacks == 0


@pytest.mark.parametrize("mode", ["", "tree", "both"])
def test_a_relation_or_const_over_the_code_budget_is_located_at_its_declaration(monkeypatch, mode):
    """The code budget run out compiling a relation or a const (walked or not): the
    diagnostic at the declaration's name, not at its expression."""
    monkeypatch.setattr(evaluate, "MODE", mode)
    lines = WALKED.splitlines()

    def at(decl: str, name: str) -> tuple:
        i = next(k for k, line in enumerate(lines) if line.startswith(decl))
        return i + 1, lines[i].index(name) + 1
    declared = {at("relation line", "line"), at("relation beside", "beside"), at("const middle", "middle")}
    seen = set()
    for code in range(100, 1000, 50):
        with pytest.raises(MeepleError) as e:
            program_of(WALKED, "walked.meeple", native=False, budgets=Budgets(code=code))
        d = e.value.diagnostics[0]
        assert d.code == "load/budget" and "'code' budget" in d.message
        seen.add((d.span.line, d.span.column))
    assert declared <= seen

def _outcome(monkeypatch, mode: str, budgets: Budgets):
    """The walked ruleset's random game (seed 1) with these budgets: its result, or the
    rule error that stopped it (its text, place and rule), with ``mode``'s expressions."""
    monkeypatch.setattr(evaluate, "MODE", mode)
    prog = program_of(WALKED, "walked.meeple", native=False, budgets=budgets)
    try:
        play(prog, 2, 1)
    except RuleError as e:
        assert mode != "both" or prog.walk.differences == []
        return str(e), e.rule, e.span
    return "played"


@pytest.mark.parametrize("budget", ["work", "calls", "depth"])
def test_a_budget_runs_out_walked_where_and_as_it_runs_out_compiled(monkeypatch, budget):
    """Budgets from too small to enough: each fails (or not) at the same move, with the
    same error at the same place, walked or compiled."""
    errors = set()
    for limit in (range(40, 400, 24) if budget == "work" else range(1, 12)):
        budgets = Budgets(**{budget: limit})
        compiled = _outcome(monkeypatch, "", budgets)
        assert _outcome(monkeypatch, "tree", budgets) == compiled == _outcome(monkeypatch, "both", budgets)
        errors.add(compiled[0] if compiled != "played" else compiled)
    assert "played" in errors and any(f"'{budget}' budget" in e for e in errors)


BROKEN = """ruleset broken
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
function ratio(a: int, b: int): int = a / b + a % b
function at(xs: list of int, i: int): int = xs[i] + xs[i]
function worth(c: Card, k: int): int = c.value + c.value * k
function tenth(n: int): int = 10 / n
function pick(a: int, b: int): int = a
function either(a: bool, b: int): int = if a then b else 4
turn {
  x = STATEMENT
}
end when x > 3
"""


@pytest.mark.parametrize("statement,error", [
    ("ratio(3, size(pile))", "division by zero"), ("at([1, 2], 2)", "index 2 is outside a list of 2 elements"),
    ("at([1, 2], 0 - 1)", "index -1 is outside"), ("worth(top(pile), 2)", "a value is missing (none)"),
    ("min(c.value for c in items(pile))", "min of an empty list"), ("[4, 5][2]", "an index is outside its list"),
    ("size(subsets(1..17))", "subsets of 17 elements"), ("size(1..100000000)", "'range' budget"),
    ("3 * 1000000000000000000", "'integer' budget"), ("sum(1..5) / (size(pile) * 1)", "division by zero")])
def test_a_rule_error_is_walked_where_and_as_it_is_compiled(monkeypatch, statement, error):
    compiled = _raised(monkeypatch, "", statement)
    assert error in compiled[0] and _raised(monkeypatch, "tree", statement) == compiled
    assert _raised(monkeypatch, "both", statement) == compiled


def _raised(monkeypatch, mode: str, statement: str, budgets: Budgets | None = None) -> tuple:
    """The rule error a game of BROKEN raises at its first turn, its expressions compiled
    or walked (``mode``): its text, rule, place and hint."""
    monkeypatch.setattr(evaluate, "MODE", mode)
    with pytest.raises(RuleError) as e:
        program_of(BROKEN.replace("STATEMENT", statement), "broken.meeple", native=False, budgets=budgets).new_game(2, 1)
    return str(e.value), e.value.rule, e.value.span, e.value.hint


@pytest.mark.parametrize("mode", ["", "tree", "both"])
def test_an_error_in_a_function_the_compiled_code_writes_in_place_is_located_in_it(monkeypatch, mode):
    # the straightforward code writes 'tenth' in place of its call (core/inline.py), the
    # walk calls it: the error is the function's, called from the turn, both ways (every
    # engine and kind of error: tests/test_inlined_errors.py)
    got = _raised(monkeypatch, mode, "tenth(size(pile))")
    assert got[0] == ("in function tenth at broken.meeple:9:31: division by zero "
                      "(called from turn at broken.meeple:13:3)")
    assert got[1] == "function tenth" and got[2].line == 9 and "divisor" in got[3]


# a call evaluates every argument (docs/language.md, 15.3), also where the Python code
# writes the function's body in place (core/inline.py) and the body never evaluates the
# argument ('pick'), or not always ('either'): the argument that may fail, or counts a
# budget, is evaluated all the same (the call is made)
UNUSED = [("pick(4, 10 / size(pile))", None, "in turn at broken.meeple:13:3: division by zero"),
          ("either(false, [1, 2][size(pile) + 2])", None,
           "in turn at broken.meeple:13:3: index 2 is outside a list of 2 elements"),
          ("pick(4, worth(top(pile), 2))", None, "a value is missing (none)"),
          ("pick(4, size(1..2000))", Budgets(work=1000), "'work' budget"),
          ("either(size(pile) > 0, 3 * 1000000000000000000)", None, "'integer' budget")]


@pytest.mark.parametrize("statement,budgets,error", UNUSED)
def test_an_argument_a_function_written_in_place_never_uses_is_evaluated_by_every_engine(
        monkeypatch, statement, budgets, error):
    want = None
    for optimize in (False, True):   # the straightforward code, the fast code (no second chance)
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        for mode in ("", "tree", "both"):
            got = _raised(monkeypatch, mode, statement, budgets)
            assert error in got[0] and got == (want or got)
            want = got


COUNTED = [("pick(4, size(1..50))", 50), ("either(true, 4)", 0), ("either(size(pile) > 0, size([3, 4] + [5]))", 3)]


@pytest.mark.parametrize("statement,work", COUNTED)
def test_an_unused_argument_counts_its_work_in_every_engine(monkeypatch, statement, work):
    # the move's value and work, compiled (straightforward and fast code), walked, and
    # both side by side (the value and the work of every evaluation compared)
    for optimize in (False, True):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        for mode in ("", "tree", "both"):
            monkeypatch.setattr(evaluate, "MODE", mode)
            prog = program_of(BROKEN.replace("STATEMENT", statement), "broken.meeple", native=False)
            game = prog.new_game(2, 1)
            assert game.over and game.state["vars"]["x"] == 4 and game.work_spent == work
            assert mode != "both" or (prog.walk.differences == [] and prog.walk.compared > 0)


@needs_kernel
def test_an_argument_a_function_never_uses_is_evaluated_by_a_kernel(monkeypatch):
    # the kernel calls each function (the C++ compiler may write it in place): the
    # error is its own (it falls back to Python once, for the located error), and so is
    # the work counted
    monkeypatch.setattr(evaluate, "MODE", "")
    for statement, _, error in UNUSED[:2]:
        kernel = program_of(BROKEN.replace("STATEMENT", statement), "broken.meeple", native=True)
        with pytest.raises(RuleError) as e:
            kernel.new_game(2, 1)
        assert str(e.value) == error and kernel.native_fallbacks == 1
    statement, work = COUNTED[0]
    kernel = program_of(BROKEN.replace("STATEMENT", statement), "broken.meeple", native=True)
    game = kernel.new_game(2, 1)
    assert game.over and game.state["vars"]["x"] == 4 and game.work_spent == work and kernel.native_fallbacks == 0


@pytest.mark.parametrize("typo", ["tre", "Both", "1"])
def test_a_mode_of_evaluation_that_is_none_is_an_error_naming_the_variable(monkeypatch, typo):
    """MEEPLE_EVALUATE set to a value that is no mode is not read as "both": loading (from
    the disk cache or afresh) and compiling a program raise SettingError, which names the
    variable, the value and the values it takes."""
    monkeypatch.setattr(evaluate, "MODE", typo)
    for load in (lambda: interpreter.load("kalah"), lambda: interpreter.load("kalah", cache=False),
                 lambda: program_of(WALKED, "walked.meeple", native=False)):
        with pytest.raises(SettingError) as e:
            load()
        assert str(e.value) == f"the environment variable MEEPLE_EVALUATE is {typo!r}, not a value it takes"
        assert e.value.name == "MEEPLE_EVALUATE" and e.value.value == typo
        assert set(e.value.allowed) == {"", "tree", "both"} and isinstance(e.value, ValueError)
        assert all(f"'{mode}'" in e.value.hint for mode in ("tree", "both")) and "unset" in e.value.hint


def test_the_command_line_says_which_mode_of_evaluation_is_wrong_and_exits_2():
    """As docs/cli.md shows it (Conventions, "Environment variables"): no traceback, no
    game played."""
    command = "MEEPLE_EVALUATE=tre meeple simulate kalah"
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    shown = doc.split(f"$ {command}\n", 1)[1].split("```", 1)[0].rstrip("\n").splitlines()
    run = subprocess.run([sys.executable, "-m", "meeple", *command.split()[2:]], cwd=ROOT, check=False,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "MEEPLE_EVALUATE": "tre", "NO_COLOR": "1"})
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == shown == [
        "error: the environment variable MEEPLE_EVALUATE is 'tre', not a value it takes",
        "hint: MEEPLE_EVALUATE takes nothing (unset or empty: the compiled code), 'tree' (the tree walk), "
        "'both' (both ways, compared)"]
