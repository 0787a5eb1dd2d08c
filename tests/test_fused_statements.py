"""Fused statements (interpreter/compiler/fused.py): with the fast code, a run of statements that
cannot stop the procedure runs as one generated function instead of one instruction
each. Each test plays the same rules both ways (the fast code, strict, against the
straightforward instructions) and compares everything a game shows: its state after
every move as JSON (the frames' locals, in their order, included), its result, or its
error (message, rule, place, hint)."""
from __future__ import annotations

import json

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, RuleError, compile_sources
from meeple.interpreter.compiler import codegen

HEAD = """ruleset fused
players 2..2
kind Stone { weight: int }
zone bag: Stone public
zone pile: Stone public
deck stones into bag { Stone(weight: w) for w in 1..6 }
var x: int = 0
var y: int = 0
var done: bool = false
var tally: int per player = 0
"""


def program(monkeypatch, rules: str, optimize: bool, steps: int | None = None):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    text = HEAD + rules
    src = SourceSet(base=parse(text, "fused.meeple"), sources={"fused.meeple": text})
    budgets = Budgets(steps=steps) if steps is not None else None
    try:
        return compile_sources(src, budgets=budgets).for_players(2)
    finally:
        monkeypatch.setattr(codegen, "STRICT", False)


def play(prog, moves: int = 10) -> list:
    """What the game shows: its state (JSON, keys in their order) after setup and after
    each move (the legal moves taken in turn), then its result, or the error that
    stopped it."""
    out = []
    try:
        g = prog.new_game(2, seed=3)
        out.append(json.dumps(g.state))
        for k in range(moves):
            if g.over:
                break
            legal = g.legal_moves()
            g.apply(legal[k % len(legal)], safe=False)
            out.append(json.dumps(g.state))
        out.append(g.result)
    except RuleError as e:
        out.append((str(e), e.rule, e.span, e.hint))
    return out


def both_ways(monkeypatch, rules: str, steps: int | None = None) -> tuple[list, list]:
    fast = program(monkeypatch, rules, True, steps)
    assert any(p.fused for p in fast.procs.values()), "the rules have no fused run"
    plain = program(monkeypatch, rules, False, steps)
    assert not any(p.fused for p in plain.procs.values())
    return play(fast), play(plain)


def line_of(text: str, needle: str) -> int:
    return (HEAD + text).splitlines().index(next(r for r in (HEAD + text).splitlines() if needle in r)) + 1


LOOPS = """turn {
  for s in items(bag) {
    x = x + s.weight
    tally(active) = tally(active) + s.weight
    if s.weight > 4 {
      y = y + 2
    } elif s.weight > 2 {
      y = y + 1
    } else {
      log light "{s} is light"
    }
  }
  let n = 0
  while n < 3 max 10 {
    n = n + 1
  }
  choose z from [1, 2] as "pick"
  x = x + z
  move top(bag) to pile
}
end when size(pile) == 6
"""


def test_a_fused_run_leaves_the_same_state_and_locals_in_the_same_order(monkeypatch):
    # the loop's hidden slots ($itN, $iN), its variable, the while's counter: the frame
    # saved at the choice is part of the state
    fast, plain = both_ways(monkeypatch, LOOPS)
    assert fast == plain
    assert '"$it' in fast[0] and len(fast) > 3


@pytest.mark.parametrize("steps", range(1, 81))
def test_a_budget_of_steps_runs_out_inside_a_fused_run_at_the_same_statement(monkeypatch, steps):
    # every budget runs out at another instruction of the run: the loop's step, its
    # body, a branch's test or closing jump, the jump back, the while's test
    fast, plain = both_ways(monkeypatch, LOOPS, steps)
    assert fast == plain


def test_a_budget_of_steps_that_runs_out_in_a_fused_loop_names_the_budget_and_the_turn(monkeypatch):
    fast, plain = both_ways(monkeypatch, "turn {\n  for i in 1..100 {\n    x = x + i\n  }\n}\n"
                                         "end when x > 1000000\n", steps=50)
    assert fast == plain
    message, rule, span, _ = fast[-1]
    assert rule == "turn" and "more than 50 statements in one move" in message
    assert "'steps' budget" in message and span is not None


def test_a_rule_error_inside_a_fused_loop_is_located_at_the_statement_that_failed(monkeypatch):
    rules = "turn {\n  for i in 1..5 {\n    x = x + i\n    y = 10 / (3 - i)\n  }\n}\nend when x > 100\n"
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain
    message, rule, span, _ = fast[-1]
    assert "division by zero" in message and rule == "turn"
    assert span.line == line_of(rules, "y = 10 / (3 - i)")


def test_a_move_of_nothing_in_a_fused_run_fails_as_the_instruction_does(monkeypatch):
    rules = "turn {\n  for i in 1..8 {\n    move top(bag) to pile\n  }\n}\nend when x > 100\n"
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and "'move' of nothing" in fast[-1][0]


def test_a_while_loop_past_its_max_in_a_fused_run_fails_as_the_instruction_does(monkeypatch):
    rules = "turn {\n  while true max 7 {\n    x = x + 1\n  }\n}\nend when x > 100\n"
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and "ran more than its max of 7 times" in fast[-1][0]


def test_a_number_past_the_integer_budget_in_a_fused_loop_fails_as_the_instruction_does(monkeypatch):
    rules = "turn {\n  x = 1\n  for i in 1..100 {\n    x = x * 1000\n    y = i\n  }\n}\nend when x > 100\n"
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and "'integer' budget" in fast[-1][0]


def test_end_game_right_after_a_fused_run_ends_the_game_there(monkeypatch):
    rules = ("turn {\n  for s in items(bag) {\n    x = x + s.weight\n  }\n  move top(bag) to pile\n"
             "  if size(pile) == 3 {\n    end game\n  }\n  y = y + 1\n  choose z from [1, 2] as \"pick\"\n}\n"
             "score(p) = x\n")
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and fast[-1] is not None


def test_a_choice_right_after_a_fused_run_stops_the_procedure_there(monkeypatch):
    rules = ("turn {\n  x = x + 1\n  y = y + x\n  choose z from [x, y] as \"pick\"\n  x = z\n  y = 0\n"
             "  move top(bag) to pile\n}\nend when size(pile) == 6\n")
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and len(fast) == 8


def test_a_game_saved_after_a_fused_run_resumes_the_same(monkeypatch):
    fast = program(monkeypatch, LOOPS, True)
    plain = program(monkeypatch, LOOPS, False)
    a, b = fast.new_game(2, seed=5), plain.new_game(2, seed=5)
    a.apply(a.legal_moves()[1], safe=False)
    b.apply(b.legal_moves()[1], safe=False)
    a, b = fast.resume(a.state), plain.resume(b.state)  # each resumed by the other's code too
    c = fast.resume(b.state)
    for g in (a, b, c):
        g.apply(g.legal_moves()[0], safe=False)
    assert json.dumps(a.state) == json.dumps(b.state) == json.dumps(c.state)


CHOICES = """turn {
  let again = true
  while again max 3 {
    choose z from [1, 2] as "pick"
    x = x + z
    y = y + 1
    again = z == 1
  }
  for s in items(bag) {
    if s.weight > 4 {
      choose w from [1, 2] as "pick"
      x = x + w
      y = y + s.weight
    } else {
      y = y + 1
    }
    x = x + 1
  }
  move top(bag) to pile
}
end when size(pile) == 6
"""


@pytest.mark.parametrize("steps", [None, *range(3, 41)])
def test_a_run_that_ends_a_loop_body_after_a_choice_runs_the_jump_back_and_the_test_the_same(
        monkeypatch, steps):
    # the run after each choice goes on with its loop's jump back and step (or test),
    # or its branch's closing jump: every budget stops at the same statement
    fast, plain = both_ways(monkeypatch, CHOICES, steps)
    assert fast == plain


MARKS = """kind Token { var marks: int = 0 }
zone tokens: Token public
deck chips into tokens { 3 of Token() }
turn {
  for t in items(tokens) {
    t.marks = t.marks + x
    x = x + 1
  }
  let last = top(tokens)
  if last != none {
    last.marks = last.marks * 2
  }
  move top(bag) to pile
}
end when size(pile) == 6
score(p) = sum(t.marks for t in items(tokens))
"""


def _instructions_called(prog, name: str) -> list[str]:
    """The names of the program's fused code that call an instruction of ``name``
    rather than writing it in place."""
    return [k for k, v in prog.ns.items()
            if k.startswith("FX_") and f"._{name}.<locals>.ins" in getattr(v, "__qualname__", "")]


def test_an_item_attribute_set_in_a_fused_run_is_written_in_place(monkeypatch):
    fast = program(monkeypatch, MARKS, True)
    assert any(p.fused for p in fast.procs.values())
    assert _instructions_called(fast, "AttrAssign") == []


@pytest.mark.parametrize("steps", [None, *range(1, 25)])
def test_an_item_attribute_set_in_a_fused_loop_plays_as_the_instruction(monkeypatch, steps):
    fast, plain = both_ways(monkeypatch, MARKS, steps)
    assert fast == plain
    if steps is None:
        assert '"marks"' in fast[-2] and fast[-1] is not None


def test_an_item_attribute_set_on_nothing_in_a_fused_run_fails_as_the_instruction_does(monkeypatch):
    rules = ("kind Token { var marks: int = 0 }\nzone tokens: Token public\nturn {\n  x = x + 1\n"
             "  let t = top(tokens)\n  t.marks = 1\n  y = 2\n}\nend when x > 5\n")
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain
    message, rule, span, hint = fast[-1]
    assert message.endswith("'t.marks = ...' on nothing (t is none)") and rule == "turn"
    assert span.line == line_of(rules, "t.marks = 1") and "if t != none" in hint


def test_an_item_attribute_past_the_integer_budget_in_a_fused_loop_fails_as_the_instruction_does(monkeypatch):
    rules = ("kind Token { var marks: int = 0 }\nzone tokens: Token public\ndeck chips into tokens { 2 of Token() }\n"
             "turn {\n  x = 1\n  for i in 1..100 {\n    x = x * 1000\n    top(tokens).marks = x\n  }\n}\n"
             "end when x > 100\n")
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and "'integer' budget" in fast[-1][0]


# 'for x in xs { move x to Z }', Z the same zone at every turn: the items moved at once
SORTS = """zone hand: Stone per player hidden
zone spare: Stone per player hidden
setup {
  for p in players {
    for s in items(bag) { move s to hand(p) }
    if p == players[0] { move top(hand(p)) to bag }
  }
}
turn {
  x = x + 1
  for s in sort(items(hand(active))) { move s to spare(active) }
  let last = x
  for s in reverse(items(spare(active))) { move s to hand(active) }
  choose k from [1, 2] as "go"
}
end when x > 6
"""


def _fused_sources(prog) -> list[str]:
    """The names each fused function of the program reads."""
    return [v.__code__.co_names for k, v in prog.ns.items() if k.startswith("FUSED_")]


def test_a_loop_that_moves_its_items_to_one_zone_moves_them_at_once(monkeypatch):
    fast = program(monkeypatch, SORTS, True)
    assert any("move_all" in names and "move" in names for names in _fused_sources(fast))
    fast, plain = both_ways(monkeypatch, SORTS)
    assert fast == plain and len(fast) > 5
    # the loops' locals after them (in the frame saved at the choice): each loop's list,
    # its count, the last element
    (frame,) = json.loads(fast[0])["stack"]
    assert [v for k, v in frame["L"].items() if k.startswith("$i") and not k.startswith("$it")] == [5, 5]
    assert frame["L"]["s"] == 0 and [v for k, v in frame["L"].items() if k.startswith("$it")][1] == [4, 3, 2, 1, 0]


@pytest.mark.parametrize("steps", range(1, 60))
def test_a_loop_that_moves_its_items_runs_out_of_steps_where_the_instructions_do(monkeypatch, steps):
    fast, plain = both_ways(monkeypatch, SORTS, steps)
    assert fast == plain


def test_a_loop_that_moves_to_a_zone_of_its_element_is_left_alone(monkeypatch):
    rules = SORTS.replace("{ move s to spare(active) }", "{ move s to spare(players[s.weight % 2]) }")
    rules = rules.replace("  for s in reverse(items(spare(active))) { move s to hand(active) }\n", "")
    fast = program(monkeypatch, rules, True)
    turn = [names for names in _fused_sources(fast)
            if {"sorted", "_sort_ids"} & set(names)]  # (the turn's run)
    assert turn and all("move" in names and "move_all" not in names for names in turn)
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain


def test_a_loop_that_moves_to_a_zone_of_a_local_moves_them_at_once(monkeypatch):
    """The zone is told the same at every turn from the instruction's expressions (a
    per-player zone given a local other than the loop's variable)."""
    rules = SORTS.replace("  for s in sort(items(hand(active))) { move s to spare(active) }\n",
                          "  let q = active\n  for s in sort(items(hand(active))) { move s to spare(q) }\n")
    rules = rules.replace("reverse(items(spare(active)))", "reverse(items(spare(q)))")
    fast = program(monkeypatch, rules, True)
    turn = [names for names in _fused_sources(fast) if {"sorted", "_sort_ids"} & set(names)]
    assert turn and all("move_all" in names for names in turn)
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and len(fast) > 5


def test_a_loop_that_moves_nothing_fails_as_the_instructions_do(monkeypatch):
    rules = ("turn {\n  x = x + 1\n  for s in [top(bag), top(pile)] { move s to pile }\n}\n"
             "end when x > 100\n")
    fast, plain = both_ways(monkeypatch, rules)
    assert fast == plain and "'move' of nothing" in fast[-1][0]
