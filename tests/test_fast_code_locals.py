"""The fast rule code's loops and local names (codegen.ExprCompiler.lines, localize):
the state's tables read through names bound once per call (``z_ = R.zones``), the work
budget counted in a local (``wk_``) where the code gives R to no function, short list
comprehensions, until(), ranges and joined lists written as loops in place, Python's
index for a list, small functions written in place after their arguments. The budgets
must count exactly what they counted before: a move that fits the work budget still
fits it, one element less fails at the same place as the straightforward code; errors
read the same; a string of the rules that reads like R's names is left alone."""
from __future__ import annotations

import json

from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, RuleError, compile_sources
from meeple.interpreter.compiler import codegen

RULES = """ruleset locals
players 2..2
kind Card { value: int }
zone pile: Card public
zone out: Card public
deck cards into pile { Card(value: v) for v in 1..5 }
var x: int = 0
var s: str = ""
function pairs(): int = count(c for c in items(pile) for d in items(pile) if c.value < d.value)
function below(k: int): list of Card = [c for c in items(pile) if c.value < k]
function deep(n: int): int = if n <= 0 then count(c for c in items(pile)) else
  deep(n - 1) + count(c for c in items(pile) for d in items(out))
function upto(k: int): list of Card = until(c for c in items(pile) if c.value >= k)
function joined(k: int): list of Card = [c for c in items(pile) if c.value < k] + [c for c in items(out) if c.value > k]
function pick(ks: list of int, i: int): int = ks[i] * 10 + ks[i]
function spans(k: int): int = sum(i * j for i in 1..k for j in k..3) + count(i for i in 2..1) + sum(i for i in 0 - 2..k)
function held(): int = sum(count(d for d in items(pile) if d.value < c.value) for c in items(pile))
function some(ks: list of Card, k: int): bool = size(ks) > k and size(ks) < 5
function doubled(ks: list of Card): int = size(ks + ks) + size(ks)
function tally(): int = count(k for k in 0..4 if some([c for c in items(pile) if c.value > k], 1))
  * 100 + sum(doubled([c for c in items(pile) if c.value > k]) for k in 0..4)
function around(): int = count(c for c in items(pile)) + deep(2) + sum(c.value for c in items(pile))
"""


def run(monkeypatch, turn: str, optimize: bool, work: int | None = None, strict: bool = False):
    """The game's variables after its first turn, or its error (text, rule, place)."""
    text = RULES + turn
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", strict and optimize)
    try:
        src = SourceSet(base=parse(text, "locals.meeple"), sources={"locals.meeple": text})
        budgets = None if work is None else Budgets(work=work)
        prog = compile_sources(src, budgets=budgets).for_players(2)
        try:
            return json.loads(json.dumps(prog.new_game(2, seed=1).state))["vars"], prog
        except RuleError as e:
            return (str(e), e.rule, e.span), prog
    finally:
        monkeypatch.setattr(codegen, "STRICT", False)
        monkeypatch.setattr(codegen, "OPTIMIZE", True)


def fits(outcome) -> bool:
    return isinstance(outcome, dict)


def least_work(monkeypatch, turn: str) -> int:
    """The smallest work budget with which the straightforward code plays the turn."""
    low, high = 1, 4096
    assert fits(run(monkeypatch, turn, optimize=False, work=high)[0])
    while low < high:
        mid = (low + high) // 2
        if fits(run(monkeypatch, turn, optimize=False, work=mid)[0]):
            high = mid
        else:
            low = mid + 1
    return low


def names_of(prog, function: str) -> set[str]:
    code = prog.ns[f"F_{function}"].__code__
    return set(code.co_varnames) | set(code.co_cellvars)


def nested_code(prog, function: str) -> set[str]:
    return {c.co_name for c in prog.ns[f"F_{function}"].__code__.co_consts if hasattr(c, "co_name")}


def test_the_work_budget_counted_in_a_local_runs_out_at_the_same_element(monkeypatch):
    # pairs walks the pile (5) and, at each turn, the pile again (5 x 5): counted in wk_,
    # written back for the count of the next statement of the move
    turn = "turn {\n  x = pairs()\n  x = x + count(c for c in items(pile))\n}\nend when x > 0\n"
    least = least_work(monkeypatch, turn)
    enough, prog = run(monkeypatch, turn, optimize=True, work=least, strict=True)
    assert enough["x"] == 10 + 5 and {"wk_", "z_"} <= names_of(prog, "pairs")
    short, _ = run(monkeypatch, turn, optimize=True, work=least - 1, strict=True)
    assert not fits(short) and "'work' budget" in short[0]
    # not strict: where the fast code runs out, the straightforward code runs again and
    # reports the error, at the same place
    plain, _ = run(monkeypatch, turn, optimize=False, work=least - 1)
    fast, _ = run(monkeypatch, turn, optimize=True, work=least - 1)
    assert fast == plain and plain[1] == "turn" and "'work' budget" in plain[0]
    assert plain[2].line == RULES.count("\n") + 3  # the second statement


def test_the_work_counted_around_a_call_adds_up_with_the_work_of_the_call(monkeypatch):
    # around counts the pile, then calls deep (recursive: a call given R, so around counts
    # in R.work itself), then counts the pile again; deep counts in its own turn
    turn = "turn {\n  x = around()\n}\nend when x > 0\n"
    least = least_work(monkeypatch, turn)
    enough, prog = run(monkeypatch, turn, optimize=True, work=least, strict=True)
    assert enough["x"] == 5 + 5 + 15 and "wk_" not in names_of(prog, "around")
    short, _ = run(monkeypatch, turn, optimize=True, work=least - 1, strict=True)
    assert not fits(short) and "'work' budget" in short[0]
    plain, _ = run(monkeypatch, turn, optimize=False, work=least - 1)
    fast, _ = run(monkeypatch, turn, optimize=True, work=least - 1)
    assert fast == plain and "'work' budget" in plain[0]


def test_a_short_list_comprehension_is_a_loop_that_sees_the_state_of_each_call(monkeypatch):
    # below's list is made by a loop (no comprehension's code object); z_ is bound at
    # every call: after a card moves, the next call sees the pile without it
    turn = ("turn {\n  x = size(below(4))\n  move top(pile) to out\n  x = x * 10 + size(below(4))\n"
            "  move bottom(pile) to out\n  x = x * 10 + size(below(4))\n}\nend when x > 0\n")
    fast, prog = run(monkeypatch, turn, optimize=True, strict=True)
    plain, _ = run(monkeypatch, turn, optimize=False)
    assert fast == plain and fast["x"] == 332
    assert "<listcomp>" not in nested_code(prog, "below")


def test_a_string_of_the_rules_that_reads_like_the_code_is_left_alone(monkeypatch):
    turn = ('turn {\n  s = first("R.zones[0] R.work (R, z_)" for c in items(pile) for d in items(pile))\n'
            "  x = pairs()\n}\nend when x > 0\n")
    fast, _ = run(monkeypatch, turn, optimize=True, strict=True)
    plain, _ = run(monkeypatch, turn, optimize=False)
    assert fast == plain and fast["s"] == "R.zones[0] R.work (R, z_)"


def test_until_written_out_stops_at_the_same_element_and_counts_the_elements_looked_at(monkeypatch):
    # upto(3) looks at 1, 2, 3 and stops; upto(9) at all five (none holds)
    turn = "turn {\n  x = size(upto(3)) * 10 + size(upto(9))\n  x = x + count(c for c in items(pile))\n}\nend when x > 0\n"
    least = least_work(monkeypatch, turn)
    enough, prog = run(monkeypatch, turn, optimize=True, work=least, strict=True)
    plain, _ = run(monkeypatch, turn, optimize=False, work=least)
    assert enough == plain and enough["x"] == 35 + 5
    assert "<lambda>" not in nested_code(prog, "upto")
    short, _ = run(monkeypatch, turn, optimize=True, work=least - 1, strict=True)
    assert not fits(short) and "'work' budget" in short[0]


def test_lists_joined_after_a_loop_are_counted_in_place(monkeypatch):
    # joined's '+' has loops on both sides: computed in order, then counted as _cat
    # counts them (both lengths), without a call of _cat
    turn = ("turn {\n  move top(pile) to out\n  move top(pile) to out\n"
            "  x = size(joined(3)) * 10 + size(joined(9))\n  x = x + count(c for c in items(pile))\n}\nend when x > 0\n")
    least = least_work(monkeypatch, turn)
    enough, prog = run(monkeypatch, turn, optimize=True, work=least, strict=True)
    plain, _ = run(monkeypatch, turn, optimize=False, work=least)
    # pile 1..3 after two moves, out 5, 4: joined(3) = [1, 2] + [5, 4]; joined(9) = 1..3
    assert enough == plain and enough["x"] == 4 * 10 + 3 + 3
    assert "_cat" not in prog.ns["F_joined"].__code__.co_names
    short, _ = run(monkeypatch, turn, optimize=True, work=least - 1, strict=True)
    assert not fits(short) and "'work' budget" in short[0]


def test_an_index_read_by_python_fails_as_the_straightforward_code_does(monkeypatch):
    # the fast code reads ks[i] with Python's index where i >= 0: a negative index and
    # one past the end fail with the straightforward code's error, at the same place
    fast, prog = run(monkeypatch, "turn {\n  x = pick([4, 5, 6], 2) + pick([7], 0)\n}\nend when x > 0\n",
                     optimize=True, strict=True)
    assert fast["x"] == 66 + 77
    checked = []  # the helper that checks an index: not called where Python's index serves
    helper = prog.ns["_index"]
    monkeypatch.setitem(prog.ns, "_index", lambda xs, i: checked.append(i) or helper(xs, i))
    assert prog.new_game(2, seed=1).state["vars"]["x"] == 66 + 77 and checked == []
    for i in ("3", "0 - 1", "0 - 4"):
        turn = f"turn {{\n  x = pick([4, 5, 6], {i})\n}}\nend when x > 0\n"
        fast, _ = run(monkeypatch, turn, optimize=True)
        plain, _ = run(monkeypatch, turn, optimize=False)
        assert fast == plain and plain[1] == "function pick" and "outside a list of 3 elements" in plain[0]


def test_a_loop_over_a_range_counts_it_as_the_list_would_be_counted(monkeypatch):
    # the ranges of a loop written out are Python ranges: counted as the lists were
    # (empty ones not at all), and one longer than the range budget fails as before
    turn = "turn {\n  x = spans(2) * 100 + spans(0) + held()\n  x = x + count(c for c in items(pile))\n}\nend when x > 0\n"
    least = least_work(monkeypatch, turn)
    enough, prog = run(monkeypatch, turn, optimize=True, work=least, strict=True)
    plain, _ = run(monkeypatch, turn, optimize=False, work=least)
    # spans(2): 1*2+1*3+2*2+2*3 + 0 + (-2-1+0+1+2); spans(0): i in 1..0 is empty, + (-2-1+0)
    # held: 0+1+2+3+4 cards below each card
    assert enough == plain and enough["x"] == 15 * 100 - 3 + 10 + 5
    assert "range" in prog.ns["F_spans"].__code__.co_names  # Python's ranges, not lists
    short, _ = run(monkeypatch, turn, optimize=True, work=least - 1, strict=True)
    assert not fits(short) and "'work' budget" in short[0]
    turn = "turn {\n  x = spans(200000)\n}\nend when x > 0\n"
    fast, _ = run(monkeypatch, turn, optimize=True)
    plain, _ = run(monkeypatch, turn, optimize=False)
    assert fast == plain, (fast, plain)
    assert plain[1] == "turn" and "'range' budget" in plain[0], plain


def test_a_small_function_called_with_a_loop_is_written_in_place_after_its_arguments(monkeypatch):
    # some uses ks twice: called with a comprehension, the fast code made it a call; its
    # arguments are now computed first, in order, as the call computes them, and its body
    # written in place; doubled joins lists (it counts work): it stays a call
    turn = "turn {\n  x = tally()\n  x = x + count(c for c in items(pile))\n}\nend when x > 0\n"
    least = least_work(monkeypatch, turn)
    enough, prog = run(monkeypatch, turn, optimize=True, work=least, strict=True)
    plain, _ = run(monkeypatch, turn, optimize=False, work=least)
    # some: k = 0 (5 cards, not < 5), 1, 2, 3 (4, 3, 2 cards); doubled: 3 * (5 + 4 + 3 + 2 + 1)
    assert enough == plain and enough["x"] == 3 * 100 + 45 + 5
    names = prog.ns["F_tally"].__code__.co_names
    assert "F_some" not in names and "F_doubled" in names
    short, _ = run(monkeypatch, turn, optimize=True, work=least - 1, strict=True)
    assert not fits(short) and "'work' budget" in short[0]


KEYED = """ruleset keyed
players 2..2
kind Chip { var worth: int = 1 }
zone pot: Chip public
deck chips into pot { 4 of Chip() }
var x: int = 0
var gold: int per player = 0
var bonus: int = 3
function total(): int = sum(c.worth + bonus for c in items(pot)) * 100 + sum(gold(p) for p in players)
function once(): int = top(pot).worth + count(c for c in items(pot))
"""


def test_a_variable_read_in_a_loop_is_read_through_a_local(monkeypatch):
    # worth's table by item, gold's by seat, bonus and the turn's local k, read at each
    # turn of the loops: read once into ivk_worth, pvk_gold, gk_bonus and lk_k; a read
    # made once stays as it is
    turn = ("turn {\n  for c in items(pot) { c.worth = c.worth + 1 }\n  gold(active) = 7\n  let k = 1\n"
            "  x = total() + once() * 10000 + count(c for c in items(pot) if c.worth > k and k < 5)"
            " * 1000000\n}\nend when x > 0\n")
    out = []
    for optimize in (True, False):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        src = SourceSet(base=parse(KEYED + turn, "keyed.meeple"), sources={"keyed.meeple": KEYED + turn})
        prog = compile_sources(src).for_players(2)
        out.append((prog.new_game(2, seed=1).state["vars"], prog))
    monkeypatch.setattr(codegen, "STRICT", False)
    (fast, prog), (plain, _) = out
    assert fast == plain and fast["x"] == 4 * 1000000 + (2 + 4) * 10000 + (8 + 4 * 3) * 100 + 7
    assert {"ivk_worth", "pvk_gold", "gk_bonus"} <= names_of(prog, "total")
    # a local of the turn (k), read at each turn of the loop of the turn's expression
    fasts = [prog.ns[n].__code__.co_varnames for n in prog.ns if n.startswith("FAST_")]
    assert any("lk_k" in names for names in fasts)
    assert "ivk_worth" not in names_of(prog, "once")
