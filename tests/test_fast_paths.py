"""The fast rule code (issue 13 §2) against the straightforward code it replaces: random
games of every bundled ruleset, played both ways in lockstep, must offer the same legal
moves (notations) at every decision, reach the same state (JSON) after every move and
end with the same result; an error in a rule must read the same, at the same place.

The short form runs here; a longer one: ``MEEPLE_FAST_PATH_GAMES=50
MEEPLE_FAST_PATH_MOVES=100000 python3 -m pytest -n 0 tests/test_fast_paths.py`` (or
``python benchmarks/check_fast_paths.py``)."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from lockstep import play_both as lockstep_play
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.compiler import codegen

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
GAMES = int(os.environ.get("MEEPLE_FAST_PATH_GAMES", "2"))
MOVES = int(os.environ.get("MEEPLE_FAST_PATH_MOVES", "120"))  # per game at most

# (ruleset, players, variants): every bundled ruleset, each of its variants, and the
# smallest and largest player counts
CONFIGS = [
    (str(ROOT / "tests" / "testdata" / "ttt"), 2, ()),
    ("kalah", 2, ()), ("dots-and-boxes", 2, ()), ("dots-and-boxes", 2, ("small",)),
    ("go", 2, ()), ("go", 2, ("superko",)), ("chess", 2, ()), ("chess", 2, ("fide_claims",)),
    ("backgammon", 2, ()), ("hearts", 4, ()),
    ("cherokee", 2, ()), ("cherokee", 4, ("open_clans",)),
    ("clans-and-glory", 2, ("chosen_first_player",)), ("clans-and-glory", 4, ("separate_boards",)),
    ("brotherhood-of-nine", 2, ("archer_lines", "cavalry_jumps", "round_limit")),
    ("brotherhood-of-nine", 4, ("allies", "capture_the_flag")),
    ("brotherhood-of-nine", 4, ("allies_crosswise",)),
]


def both(monkeypatch, ruleset: str, variants, players: int) -> tuple:
    """The ruleset's program for this many players compiled with the fast code and with
    the straightforward code alone (a program is compiled when first asked for: here,
    while the setting holds). The fast code is strict: where it fails, the game fails
    (it does not run the straightforward code again), so a fast code that fails where
    the straightforward code does not is seen."""
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(ruleset, variants).for_players(players)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = interpreter.load(ruleset, variants).for_players(players)
    monkeypatch.setattr(codegen, "STRICT", False)
    return fast, plain


def play_both(fast, plain, players: int, seed: int) -> int:
    return lockstep_play(fast, plain, players, seed, MOVES)


@pytest.mark.parametrize("ruleset,players,variants", CONFIGS,
                         ids=[f"{Path(c[0]).name}-{c[1]}p{'-' + '+'.join(c[2]) if c[2] else ''}"
                              for c in CONFIGS])
def test_fast_code_plays_exactly_like_the_straightforward_code(monkeypatch, ruleset, players, variants):
    fast, plain = both(monkeypatch, ruleset, variants, players)
    played = sum(play_both(fast, plain, players, seed) for seed in range(GAMES))
    assert played > 0


RULES = """ruleset broken
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
function worth(c: Card, k: int): int = c.value + c.value * k
function total(k: int): int = worth(top(pile), k) + k
"""


def error_both_ways(monkeypatch, rules: str) -> list[str]:
    text = RULES + rules
    out = []
    for optimize in (False, True):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        src = SourceSet(base=parse(text, "broken.meeple"), sources={"broken.meeple": text})
        with pytest.raises(RuleError) as e:
            compile_sources(src).new_game(players=2, seed=1)
        out.append((str(e.value), e.value.rule, e.value.span, e.value.hint))
    return out


def test_an_error_in_a_function_the_fast_code_inlines_is_located_in_that_function(monkeypatch):
    # 'worth' uses its parameter c twice: the fast code expands it where the argument is
    # a name; here it is called with top(pile) of an empty pile, a missing value
    plain, fast = error_both_ways(monkeypatch, "turn {\n  let c = top(pile)\n  x = worth(c, 2)\n}\n"
                                               "end when x > 3\n")
    assert fast == plain and plain[1] == "function worth"
    plain, fast = error_both_ways(monkeypatch, "turn {\n  x = sum([worth(c, 2) for c in [top(pile)]])\n}\n"
                                               "end when x > 3\n")
    assert fast == plain and plain[1] == "function worth"
    plain, fast = error_both_ways(monkeypatch, "turn {\n  x = total(2)\n}\nend when x > 3\n")
    assert fast == plain and plain[1] == "function worth"


def test_a_runaway_of_functions_the_fast_code_does_not_count_is_still_stopped(monkeypatch):
    # f0 makes 1 call, f_i twice f_(i-1)'s: only those beyond 32 count their calls
    # (core/facts.py counts_calls), in the straightforward and the fast code alike
    fs = "\n".join(["function f0(x: int): int = x"] +
                   [f"function f{i}(x: int): int = f{i - 1}(x) + f{i - 1}(1)" for i in range(1, 40)])
    plain, fast = error_both_ways(monkeypatch, fs + "\nturn {\n  x = f39(1)\n}\nend when x > 3\n")
    assert fast == plain and "'calls' budget" in plain[0]


def test_an_index_outside_its_list_reads_the_same_in_the_fast_code(monkeypatch):
    # the fast code reads xs[i] at once (i and xs names): an index too large, and a
    # negative one (which Python would count from the end), must fail as without it
    for i in ("3", "0 - 1"):
        rules = (f"function at(xs: list of int, i: int): int = xs[i] + xs[i]\n"
                 f"turn {{\n  let i = {i}\n  x = sum(at([1, 2, 3], k) for k in [0, i])\n}}\n"
                 f"end when x > 3\n")
        plain, fast = error_both_ways(monkeypatch, rules)
        assert fast == plain and "is outside a list of 3 elements" in plain[0]


def test_an_index_inside_its_list_gives_the_element_in_the_fast_code(monkeypatch):
    rules = ("function at(xs: list of int, i: int): int = xs[i] + xs[i]\n"
             "turn {\n  x = sum(at([1, 2, 3], k) for k in [0, 2])\n}\nend when x > 3\n")
    for optimize in (False, True):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        text = RULES + rules
        src = SourceSet(base=parse(text, "broken.meeple"), sources={"broken.meeple": text})
        game = compile_sources(src).new_game(players=2, seed=1)
        assert game.over and game.state["vars"]["x"] == 8


# ---------------------------------------------------------------- calls computed once
# The fast code computes a call of a rule function once where it is made again with the
# same arguments (codegen.ExprCompiler.root): later in the same evaluation where the
# first call is sure to have run (once_N), or, in a comprehension, for all the turns of
# the loop when the call does not depend on the loop's variables (lazy_N).

ONCE = """ruleset once
players 2..2
kind Card { value: int }
zone pile: Card public
zone out: Card public
deck cards into pile { Card(value: v) for v in 1..5 }
var x: int = 0
var y: int = 0
function total(): int = size(pile) * (size(pile) + 1) / 2
function shift(k: int): int = k + size(out)
function ratio(k: int): int = 10 / k + size(pile)
function strolled(k: int): int = k + count(c for c in items(out))
"""


def once_both(monkeypatch, rules: str, strict: bool = True) -> tuple:
    """The game's state (or its error) with the fast code (strict: where it fails, the
    game fails) and with the straightforward code, and the fast program."""
    text = ONCE + rules
    out = []
    for optimize in (True, False):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", strict and optimize)
        src = SourceSet(base=parse(text, "once.meeple"), sources={"once.meeple": text})
        prog = compile_sources(src).for_players(2)
        try:
            out.append((json.dumps(prog.new_game(2, seed=1).state, sort_keys=True), prog))
        except RuleError as e:
            out.append(((str(e), e.rule, e.span), prog))
    monkeypatch.setattr(codegen, "STRICT", False)
    (fast, prog), (plain, _) = out
    return fast, plain, prog


def local_names(prog, function: str) -> set[str]:
    """The names the fast code of a rule function binds (its locals and cells)."""
    code = prog.ns[f"F_{function}"].__code__
    return set(code.co_varnames) | set(code.co_cellvars)


def made_once(prog, function: str) -> bool:
    """Whether a rule function's fast code computes a call made twice once: a value
    computed once (once_N), or a body written in place once (one copy of its loop's
    variable, wN_NAME: see codegen.ExprCompiler._s_call)."""
    names = local_names(prog, function)
    copies = [n for n in names if re.fullmatch(r"w\d+_\w+", n)]
    return any(n.startswith("once_") for n in names) or len(copies) == 1


def game_vars(state: str) -> dict:
    return json.loads(state)["vars"]


def test_a_function_called_again_with_the_same_arguments_is_computed_once(monkeypatch):
    fast, plain, prog = once_both(monkeypatch, "function twice(): int = total() + total()\n"
                                  "turn {\n  x = twice()\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == 2 * sum(range(1, 6))
    assert any(n.startswith("once_") for n in local_names(prog, "twice"))


def test_a_call_that_counts_work_is_made_at_each_use_as_the_straightforward_code_makes_it(monkeypatch):
    # strolled(k) walks a zone: each use counts its work (the budget counts the same in
    # every engine, core/facts.py), so it is neither computed once nor kept for a loop's
    # turns; the least work budget is the straightforward code's
    rules = ("function again(): int = strolled(1) + strolled(1) + sum(strolled(2) for c in items(pile))\n"
             "setup {\n  move top(pile) to out\n  move top(pile) to out\n}\n"
             "turn {\n  x = again()\n}\nend when x > 0\n")
    fast, plain, prog = once_both(monkeypatch, rules)
    assert fast == plain and game_vars(fast)["x"] == 3 + 3 + 3 * 4
    assert not any(n.startswith(("lazy_", "once_")) for n in local_names(prog, "again"))
    text = ONCE + rules
    least: dict = {}
    for optimize in (True, False):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        src = SourceSet(base=parse(text, "once.meeple"), sources={"once.meeple": text})
        prog = compile_sources(src).for_players(2)
        game = prog.new_game(2, seed=1)
        least[optimize] = game.work_spent   # (the setup and the first turn: one run)
    # (out: 2 cards, each call walks them; the pile: 3 cards, walked once)
    assert least[True] == least[False] == 2 + 2 + 3 + 3 * 2


def test_a_call_that_does_not_depend_on_the_loop_is_kept_for_its_turns(monkeypatch):
    fast, plain, prog = once_both(monkeypatch, "function over(k: int): int = "
                                  "count(c for c in items(pile) if c.value > shift(k))\n"
                                  "turn {\n  x = over(2)\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == 3
    assert any(n.startswith("lazy_") for n in local_names(prog, "over"))


def test_a_call_with_the_loop_variable_is_made_at_every_turn(monkeypatch):
    fast, plain, prog = once_both(monkeypatch, "function shifted(): int = sum(shift(c.value) for c in items(pile))\n"
                                  "turn {\n  x = shifted()\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == sum(range(1, 6))
    assert not any(n.startswith(("lazy_", "once_")) for n in local_names(prog, "shifted"))


def test_a_kept_call_that_fails_is_not_made_when_the_loop_does_not_run(monkeypatch):
    # ratio(0) divides by zero, but out is empty: the loop never asks for it
    fast, plain, prog = once_both(monkeypatch, "function tenths(k: int): int = sum(ratio(k) for c in items(out))\n"
                                  "turn {\n  x = tenths(0) + 1\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == 1
    assert any(n.startswith("lazy_") for n in local_names(prog, "tenths"))


def test_a_kept_call_that_fails_when_the_loop_runs_fails_as_without_the_fast_code(monkeypatch):
    fast, plain, _ = once_both(monkeypatch, "function tenths(k: int): int = sum(ratio(k) for c in items(pile))\n"
                               "turn {\n  x = tenths(0) + 1\n}\nend when x > 0\n", strict=False)
    # (ratio, small, is written in place in tenths by both: the error is ratio's, as
    # where it is called, play/inplace.py)
    assert fast == plain and plain[1] == "function ratio" and "division by zero" in plain[0]


def test_a_call_in_a_branch_that_did_not_run_is_made_again(monkeypatch):
    # the first shift(1) is skipped ('and'), the second must compute its own value; in
    # the loop, the value of one turn's branch must not serve the next turn
    fast, plain, _ = once_both(monkeypatch, "function pick(): int =\n"
                               "  (if (y > 5 and shift(1) > 0) or shift(1) == 1 then 1 else 2)\n"
                               "  + sum((if c.value == 1 then shift(c.value) else 0) + shift(c.value) * 10\n"
                               "        for c in items(pile))\n"
                               "turn {\n  x = pick()\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == 1 + 1 + 10 * sum(range(1, 6))


def test_the_state_changed_between_two_calls_is_seen(monkeypatch):
    fast, plain, _ = once_both(monkeypatch, "turn {\n  x = total()\n  move top(pile) to out\n"
                               "  y = total()\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] - game_vars(fast)["y"] == 5


def test_a_name_bound_again_by_a_nested_comprehension_is_not_mixed_up(monkeypatch):
    # the inner c shadows the outer one: shift(c.value) inside is another call; shift(j)
    # does not depend on the inner loop and is kept for its turns
    fast, plain, prog = once_both(monkeypatch,
                                  "function nested(): int =\n"
                                  "  sum(shift(c.value) + sum(shift(c.value) * 100 for c in items(out)) for c in items(pile))\n"
                                  "  + sum(sum(shift(j) * 1000 for i in 1..2) for j in 1..3)\n"
                                  "setup {\n  move top(pile) to out\n}\n"
                                  "turn {\n  x = nested()\n}\nend when x > 0\n")
    # out holds the deck's last card (5), pile the others (1..4); shift(k) = k + 1
    expected = sum((v + 1) + (5 + 1) * 100 for v in range(1, 5)) + sum(2 * (j + 1) * 1000 for j in range(1, 4))
    assert fast == plain and game_vars(fast)["x"] == expected
    assert any(n.startswith("lazy_") for n in local_names(prog, "nested"))


def test_a_call_in_an_argument_of_an_inlined_function_is_not_counted_on_later(monkeypatch):
    # either() is expanded in place: its body evaluates shift(1) only when y > 0, so the
    # shift(1) after it computes its own value
    fast, plain, _ = once_both(monkeypatch, "function either(a: int, b: int, c: bool): int = if c then a else b\n"
                               "turn {\n  x = either(shift(1), shift(2), y > 0) * 10 + shift(1)\n}\n"
                               "end when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == 2 * 10 + 1


def test_a_call_in_a_condition_that_held_is_not_made_again(monkeypatch):
    # the element is computed where the condition held: its shift(c.value) ran; an 'or'
    # that failed ran both sides; an 'and' that failed may not have run its right side
    fast, plain, prog = once_both(monkeypatch,
                                  "function kept(): int = sum(shift(c.value) * 10 for c in items(pile) if shift(c.value) > 2)\n"
                                  "function failed(): int = if y > 5 or shift(2) == 0 then 0 else shift(2)\n"
                                  "function mixed(): int = sum((if c.value > 3 and shift(c.value) > 0 then 1 else shift(c.value))\n"
                                  "                            for c in items(pile))\n"
                                  "turn {\n  x = kept() + failed() * 1000 + mixed() * 100000\n}\nend when x > 0\n")
    # shift(k) = k (out is empty): kept = 10 * (3 + 4 + 5), failed = 2,
    # mixed = 1 + 2 + 3 (values 1..3) + 1 + 1 (values 4, 5)
    assert fast == plain and game_vars(fast)["x"] == 10 * (3 + 4 + 5) + 2 * 1000 + 8 * 100000
    assert made_once(prog, "kept") and made_once(prog, "failed")


# ---------------------------------------------------------------- values kept by arguments
# A function whose fast code reads nothing of the state (its arguments, the player count,
# the fixed tables: cells, relations, items' attributes) keeps its values by arguments
# for the whole program (compile.Program._kept_functions): computed once for all moves.

KEPT = """function tens(k: int): int = sum(k * 10 for i in 1..3) / 3
function doubled(k: int): int = tens(k) * 2 + count(i for i in 1..2)
function inverse(k: int): int = 60 / k + count(i for i in 1..2)
function stacked(k: int): int = tens(k) + shift(k)
function sized(ks: list of int): int = sum(k for k in ks)
"""


def kept_functions(prog) -> set[str]:
    return {name[len("KEPT_"):] for name in prog.ns if name.startswith("KEPT_")}


def test_a_function_that_reads_nothing_of_the_state_keeps_its_values(monkeypatch):
    fast, plain, prog = once_both(monkeypatch, KEPT + "turn {\n  x = doubled(2) + doubled(2)\n"
                                  "  move top(pile) to out\n  y = doubled(2) + stacked(1) + sized([1, 2])\n}\n"
                                  "end when x > 0\n")
    assert fast == plain and game_vars(fast) == {"x": 2 * (20 * 2 + 2), "y": (20 * 2 + 2) + (10 + 2) + 3}
    # tens and doubled read nothing of the state; stacked calls shift (it counts the
    # cards in out), total counts those in pile; sized takes a list
    assert {"tens", "doubled"} <= kept_functions(prog)
    assert not {"shift", "stacked", "total", "sized"} & kept_functions(prog)


def kept_by_variables(prog) -> set[str]:
    return {name[len("KEPTV_"):] for name in prog.ns if name.startswith("KEPTV_")}


def test_a_function_that_reads_global_variables_keeps_its_values_by_theirs(monkeypatch):
    # step reads the global y (and calls tens): kept by its argument and y's value, so
    # that its value follows y as it changes; scaled reads y too, through step; listed
    # reads a global list (kept by no value), heads a zone (state)
    rules = (KEPT + "var base: int = 2\nvar ys: list of int = [1]\n"
             "function step(k: int): int = tens(k) + y * base + count(i for i in 1..2)\n"
             "function scaled(k: int): int = step(k) * 2 + count(i for i in 1..2)\n"
             "function listed(k: int): int = k + sum(v for v in ys)\n"
             "function heads(k: int): int = k + count(c for c in items(pile) if c.value > y)\n"
             "turn {\n  x = x + step(1) + scaled(1) + listed(1) + heads(1)\n  y = y + 1\n"
             "  x = x + step(1) + scaled(1)\n}\nend when y >= 3\n")
    fast, plain, prog = once_both(monkeypatch, rules)
    # y = 0, 1, 2 before each turn's second half: step(1) = 10 + 2y + 2, scaled = 2 step + 2
    step = [10 + 2 * y + 2 for y in range(4)]
    want = sum(step[y] + 2 * step[y] + 2 + 2 + (1 + max(0, 5 - y)) + step[y + 1] + 2 * step[y + 1] + 2
               for y in range(3))
    assert fast == plain and game_vars(fast)["x"] == want
    assert {"step", "scaled"} <= kept_by_variables(prog) and "tens" in kept_functions(prog)
    assert not {"listed", "heads", "step", "scaled"} & kept_functions(prog)
    assert not {"listed", "heads", "tens"} & kept_by_variables(prog)
    # the values kept: by the argument and the values of the variables, by name
    assert set(prog.ns["KEPTV_step"]) == {(1, 2, y) for y in range(4)}


def test_a_kept_function_that_fails_fails_as_without_the_fast_code(monkeypatch):
    fast, plain, prog = once_both(monkeypatch, KEPT + "turn {\n  x = inverse(2) + inverse(y)\n}\n"
                                  "end when x > 0\n", strict=False)
    assert "inverse" in kept_functions(prog)
    assert fast == plain and plain[1] == "function inverse" and "division by zero" in plain[0]


def test_kept_values_are_the_program_s_own_for_its_number_of_players(monkeypatch):
    # a program is for one number of players: its kept values are keyed by the arguments
    # alone, and a value that depends on the player count is not shared by programs for
    # another count
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    text = ("ruleset seats\nplayers 2..4\nvar x: int = 0\n"
            "function spread(k: int): int = sum(k * i for i in 1..player_count())\n"
            "turn {\n  x = spread(3) + spread(3)\n  end game\n}\n")
    src = SourceSet(base=parse(text, "seats.meeple"), sources={"seats.meeple": text})
    rules = compile_sources(src)
    got = {}
    for n in (2, 3, 4):
        prog = rules.for_players(n)
        g = prog.new_game(n, seed=1)
        assert "spread" in kept_functions(prog)
        got[n] = (g.state["vars"]["x"], dict(prog.ns["KEPT_spread"]))
    # (each kept with the work it counted: the range's length, counted again at each read)
    assert got == {2: (18, {3: (9, 2)}), 3: (36, {3: (18, 3)}), 4: (60, {3: (30, 4)})}


def test_a_call_whose_argument_is_a_value_of_the_turn_is_made_at_every_turn(monkeypatch):
    # shift(c.value) is computed once per turn (once_N); the call of shift with that value
    # depends on the turn too: it must not be kept for the loop's other turns
    fast, plain, _ = once_both(monkeypatch, "function chained(): int =\n"
                               "  sum(shift(c.value) * 100 + shift(shift(c.value)) for c in items(pile))\n"
                               "turn {\n  x = chained()\n}\nend when x > 0\n")
    # out is empty: shift(k) = k
    assert fast == plain and game_vars(fast)["x"] == sum(v * 100 + v for v in range(1, 6))


# ---------------------------------------------------------------- loops written out
# The fast code writes aggregates, comprehensions and `connected` out as Python loops in
# the function's body (codegen.ExprCompiler.lines): no generator per element, the work
# budget counted in place. They must stop where the expression stops, count the same
# budget, keep the names of nested loops apart and fail as the straightforward code does.

def nested_code(prog, function: str) -> set[str]:
    """The names of the code objects nested in a rule function's fast code (a Python
    comprehension or generator makes one; a loop written out does not)."""
    return {c.co_name for c in prog.ns[f"F_{function}"].__code__.co_consts if hasattr(c, "co_name")}


def test_aggregates_are_loops_in_the_function_body(monkeypatch):
    fast, plain, prog = once_both(monkeypatch,
                                  "function has(k: int): bool = any(c.value == k for c in items(pile))\n"
                                  "function every(k: int): bool = all(c.value <= k for c in items(pile))\n"
                                  "function pairs(): int = count(i for i in 1..3 for j in 1..4 if i < j)\n"
                                  "function least(): int = min(c.value * 10 for c in items(pile) if c.value > 2)\n"
                                  "function most(): int = max(c.value - 10 for c in items(pile))\n"
                                  "function found(): int = first(i * j for i in 1..4 for j in 1..4 if i * j > 5)\n"
                                  "function final(): int = last(c.value for c in items(pile))\n"
                                  "turn {\n  x = (if has(3) and not has(9) then 1 else 0) + (if every(5) and not every(4) then 10 else 0)\n"
                                  "    + pairs() * 100 + least() * 1000 + most() * 10000\n"
                                  "  y = found() + final() * 100\n}\nend when y > 0\n")
    # pairs (i < j, i in 1..3, j in 1..4): 3 + 2 + 1; least: 3 * 10; most: 5 - 10;
    # found: 2 * 3 (i = 2, j = 3 comes first); final: the pile's top card
    assert fast == plain
    assert game_vars(fast)["x"] == 1 + 10 + 6 * 100 + 30 * 1000 - 5 * 10000
    assert game_vars(fast)["y"] == 6 + 5 * 100
    for name in ("has", "every", "pairs", "least", "most", "found", "final"):
        assert not nested_code(prog, name) & {"<genexpr>", "<listcomp>"}, name


def test_a_loop_written_out_stops_where_the_expression_stops(monkeypatch):
    # each loop meets an element that divides by zero after the one that decides (the
    # pile holds 1..5, walked from the bottom): any stops at the first true element (also
    # from inside a nested loop: i = 1, j = 1, before i = 2), all at the first false one,
    # first at the first that passes its condition, 'and' before its right side; the
    # fast code is strict here, so a loop that went on would fail the test
    fast, plain, _ = once_both(monkeypatch,
                               "function stops(): bool = any(10 / (4 - c.value) > 3 for c in items(pile))\n"
                               "function nested_stop(): bool = any(10 / (2 - i) > 0 and j == 1 for i in 1..3 for j in 0..2)\n"
                               "function all_stop(): bool = all(10 / (5 - c.value) >= 3 for c in items(pile))\n"
                               "function first_stop(): int = first(10 / (5 - c.value) for c in items(pile) if c.value > 3)\n"
                               "function guarded(): bool = y > 0 and any(10 / y > 0 for c in items(pile))\n"
                               "turn {\n  x = (if stops() then 1 else 0) + (if nested_stop() then 10 else 0)\n"
                               "    + (if all_stop() then 1000 else 100) + first_stop() * 10000 + (if guarded() then 7 else 0)\n"
                               "}\nend when x != 0\n")
    assert fast == plain and game_vars(fast)["x"] == 1 + 10 + 100 + 10 * 10000


def test_an_aggregate_that_would_fail_later_fails_as_without_the_fast_code(monkeypatch):
    fast, plain, _ = once_both(monkeypatch, "function all_stop(): bool = all(10 / (5 - c.value) >= 0 for c in items(pile))\n"
                               "turn {\n  x = if all_stop() then 1 else 2\n}\nend when x > 0\n", strict=False)
    assert fast == plain and plain[1] == "function all_stop" and "division by zero" in plain[0]
    fast, plain, _ = once_both(monkeypatch, "function least(): int = min(c.value for c in items(out))\n"
                               "turn {\n  x = least()\n}\nend when x > 0\n", strict=False)
    assert fast == plain and plain[1] == "function least" and "min of an empty list" in plain[0]


def test_a_loop_variable_does_not_overwrite_a_name_it_hides(monkeypatch):
    # the loops' c hides the parameter c (and the outer loop's c): after each loop, c is
    # the one around it again
    fast, plain, _ = once_both(monkeypatch,
                               "function hidden(c: int): int = count(c for c in 1..3) * 100 + c\n"
                               "function layered(): int = sum(count(c for c in 1..2 if c > 0) * 10 + c for c in 1..3)\n"
                               "function walked(c: int): int = sum(sum(c for c in 1..c) * 10 + c for c in 1..c)\n"
                               "turn {\n  x = hidden(7)\n  y = layered() * 1000 + walked(3)\n}\nend when x > 0\n")
    assert fast == plain
    assert game_vars(fast) == {"x": 307, "y": sum(20 + c for c in (1, 2, 3)) * 1000
                               + sum(sum(range(1, c + 1)) * 10 + c for c in (1, 2, 3))}


def test_loops_written_out_count_the_work_budget(monkeypatch):
    # 2000 * 3000 elements walked: more than the 5,000,000 of the work budget, in a loop
    # written out (the inner range is counted at every turn of the outer one)
    fast, plain, _ = once_both(monkeypatch, "function huge(): int = count(i for i in 1..2000 for j in 1..3000)\n"
                               "turn {\n  x = huge()\n}\nend when x > 0\n", strict=False)
    assert fast == plain and "'work' budget" in plain[0]
    fast, plain, _ = once_both(monkeypatch, "function wide(ks: list of int): bool = any(k < 0 for k in ks + ks)\n"
                               "function grow(): int = count(k for k in 1..3000 if wide(k..k + 2000))\n"
                               "turn {\n  x = grow()\n}\nend when x > 0\n", strict=False)
    assert fast == plain and "'work' budget" in plain[0]


def test_connected_written_out_finds_the_same_cells(monkeypatch):
    # connected() in a function's body is a loop in place (no lambda per cell): the same
    # cells in the same order, with and without a condition, from one cell or a list, and
    # with its variable hiding a parameter of the same name
    rules = ("board grid: grid(rows: 4, cols: 4) holds Card\n"
             "relation adjacent(a: grid, b: grid) = abs(a.row - b.row) + abs(a.col - b.col) == 1\n"
             "function near(c: grid): list of grid = connected(x for x in adjacent(c) if c.row + x.row > 2)\n"
             "function reached(c: grid): list of grid = connected(x for x in adjacent([c, c]))\n"
             "function hidden(x: grid): int = size(connected(x for x in adjacent(x) if x.col < 3)) * 100\n"
             "  + count(y for y in connected(x for x in adjacent(x) if x.row < 3) if y.col > 1) + x.row\n"
             "turn {\n  x = size(near(cell(grid, row: 1, col: 1))) * 100 + size(reached(cell(grid, row: 2, col: 2)))\n"
             "  y = hidden(cell(grid, row: 1, col: 1)) * 10\n"
             "    + (if near(cell(grid, row: 2, col: 1))[0] == cell(grid, row: 2, col: 1) then 1 else 0)\n"
             "}\nend when x > 0\n")
    fast, plain, prog = once_both(monkeypatch, rules)
    # near(1,1): the start cell fails r + r > 2, so nothing is found; reached: all 16
    # hidden: c < 3 makes 8 cells, r < 3 and c > 1 six, and x.r is the parameter's row, 1
    assert fast == plain and game_vars(fast) == {"x": 0 * 100 + 16, "y": (8 * 100 + 6 + 1) * 10 + 1}
    assert "<lambda>" not in nested_code(prog, "near")


def test_a_kept_value_is_computed_before_the_loop_only_where_every_turn_needs_it(monkeypatch):
    # shift(2) is needed by every turn: computed before the loop (when it has a turn);
    # ratio(0) only where c.value > 9, which never holds: never computed (it would fail)
    fast, plain, prog = once_both(monkeypatch,
                                  "function early(): int = sum(shift(2) + c.value for c in items(pile))\n"
                                  "function late(): int = sum(if c.value > 9 then ratio(0) else shift(1) for c in items(pile))\n"
                                  "function never(): int = sum(ratio(0) for c in items(out) if c.value > 0)\n"
                                  "turn {\n  x = early() * 100 + late() + never()\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == (5 * 2 + 15) * 100 + 5
    source = prog.ns["F_early"].__code__
    assert any(n.startswith("lazy_") for n in source.co_varnames)


def test_a_function_written_in_place_keeps_its_names_apart(monkeypatch):
    # tally takes a list: the fast code writes its body in place of the calls made where
    # loops are written out; its loop's k must not overwrite the caller's k, and its
    # argument is computed once, as a call computes it
    fast, plain, prog = once_both(monkeypatch,
                                  "function tally(ks: list of int): int = sum(k * 10 for k in ks) + size(ks)\n"
                                  "function spread(): int = sum(tally([k, k + 1]) + k for k in 1..3)\n"
                                  "turn {\n  x = spread()\n}\nend when x > 0\n")
    assert fast == plain and game_vars(fast)["x"] == sum((2 * k + 1) * 10 + 2 + k for k in (1, 2, 3))
    assert "F_tally" not in prog.ns["F_spread"].__code__.co_names


def test_an_error_in_a_function_written_in_place_is_located_in_that_function(monkeypatch):
    fast, plain, _ = once_both(monkeypatch,
                               "function split(ks: list of int): int = sum(10 / k for k in ks)\n"
                               "function spread(): int = sum(split([k - 2]) for k in 1..3)\n"
                               "turn {\n  x = spread()\n}\nend when x > 0\n", strict=False)
    assert fast == plain and plain[1] == "function split" and "division by zero" in plain[0]
