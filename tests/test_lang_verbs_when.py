"""A verb offered under a condition (``choose c from LIST as "play" or "draw" when
occupied(pile) or "pass"``, docs/language.md 6.6), issue 37 item 4.

- A verb whose condition is false is not offered: the decision's moves, its state
  (``pending.alone``: the verbs offered), records and the OpenSpiel adapter's ids follow.
  The conditions are evaluated before the options, in the straightforward and the fast
  code alike; none offered and an empty list is the usual ``rule/error``.
- A condition that is not a ``bool``, or names the chosen local, is a located check error.
- A kernel plays it as Python (a site per set of verbs offered: its pending decision
  says which), resumes a state waiting on it, and gives the same OpenSpiel ids
  (tests/testdata/verbs_when.meeple)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import play_both
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.analysis import testing
from meeple.interpreter.compiler import codegen

from meeple import interpreter

WHEN = str(Path(__file__).resolve().parent / "testdata" / "verbs_when.meeple")

RULES = """ruleset draws
players 2..2
kind Card { value: int }
zone pile: Card
zone hand: Card per player
zone table: Card
deck cards into pile { Card(value: v) for v in 1..3 }
var passes: int = 0
var last: str = ""
setup { deal 1 from pile to hand }
turn {
  choose card, how from items(hand(active)) as "play" or "draw" when occupied(pile) or "pass"
  last = how
  if how == "play" {
    move card to table
    passes = 0
  } elif how == "draw" {
    move top(pile) to hand(active)
    passes = 0
  } else {
    passes = passes + 1
  }
}
end when passes == 2
"""


def _rules(text: str = RULES):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


@pytest.mark.parametrize("optimize", [False, True], ids=["straightforward", "fast"])
def test_a_verb_is_offered_only_while_its_condition_holds(monkeypatch, optimize):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    game = _rules().new_game(2, 0)
    assert testing.notations(game) == ["draw", "pass", "play 3"]
    assert game.state["pending"]["alone"] == ["draw", "pass"]
    game.apply("draw")   # (the pile's last card)
    assert testing.notations(game) == ["pass", "play 2"]
    assert game.state["pending"]["alone"] == ["pass"] and game.state["pending"]["options"][0] is None
    game.apply("pass")
    assert game.state["vars"]["last"] == "pass"
    assert testing.notations(game) == ["pass", "play 1", "play 3"]
    with pytest.raises(interpreter.IllegalMove):
        game.apply("draw")


def test_one_verb_under_a_condition_keeps_the_shape_of_one_verb_or_none():
    game = _rules(RULES.replace(' or "pass"', "").replace("passes = passes + 1", "passes = 2")).new_game(2, 0)
    assert testing.notations(game) == ["draw", "play 3"] and game.state["pending"]["alone"] == "draw"
    game.apply("draw")
    assert testing.notations(game) == ["play 2"] and "alone" not in game.state["pending"]


def test_no_verb_offered_and_nothing_to_choose_is_a_rule_error():
    rules = _rules(RULES.replace('or "pass"', "").replace(
        "setup { deal 1 from pile to hand }", "setup { }").replace("deck cards into pile { Card(value: v) for v in 1..3 }",
                                                                   "deck cards into pile { Card(value: v) for v in 1..1 }"))
    game = rules.new_game(2, 0)
    assert testing.notations(game) == ["draw"]
    with pytest.raises(RuleError, match="nothing to choose from"):
        game.apply("draw")   # the next seat: an empty hand, and the pile is empty


def test_a_state_waiting_on_the_verbs_offered_is_plain_data_and_resumes():
    rules = _rules()
    game = rules.new_game(2, 0)
    game.apply("draw")
    again = rules.resume(json.loads(json.dumps(game.state)))
    assert testing.notations(again) == testing.notations(game) == ["pass", "play 2"]
    again.apply("pass")
    game.apply("pass")
    assert again.state == game.state


def test_a_record_replays_to_the_same_digest():
    from meeple.interpreter import record
    ruleset = interpreter.load(WHEN)
    game, rnd, moves = ruleset.new_game(players=2, seed=3), random.Random(3), []
    while not game.over:
        m = rnd.choice(game.legal_moves())
        moves.append(game.move_text(m))
        game.apply(m)
    assert {"draw", "raise", "stop"} <= set(moves)
    rec = record.Record("verbs_when", 2, 3, [], None, moves)
    again = record.replay(ruleset, record.from_dict(json.loads(json.dumps(rec.to_dict()))))
    assert record.digest(again) == record.digest(game) and again.result == game.result


def test_the_straightforward_and_the_fast_code_play_alike(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(WHEN, cache=False)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = interpreter.load(WHEN, cache=False)
    assert sum(play_both(fast, plain, 2, seed, 200) for seed in range(6)) > 40


@pytest.mark.parametrize("cond,code,words,column", [
    ("pile", "check/type-mismatch", "the condition of the verb 'draw'", 70),
    ("card != none", "check/bad-value", "reads 'card', which the choice sets", 70),
    ("how == \"play\"", "check/bad-value", "reads 'how', which the choice sets", 70),
])
def test_a_bad_condition_is_a_located_check_error(cond, code, words, column):
    with pytest.raises(MeepleError) as info:
        _rules(RULES.replace("when occupied(pile)", f"when {cond}"))
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == (code, 12, column) and words in d.message, d.render()
    assert d.hint


def test_a_condition_with_or_needs_brackets():
    with pytest.raises(MeepleError) as info:
        _rules(RULES.replace("when occupied(pile)", "when occupied(pile) or passes > 0"))
    assert info.value.diagnostics[0].code == "parse/unexpected-token"
    game = _rules(RULES.replace("when occupied(pile)", "when (occupied(pile) or passes > 0)")).new_game(2, 0)
    assert testing.notations(game) == ["draw", "pass", "play 3"]


@pytest.mark.kernels
@needs_kernel
def test_the_kernel_plays_the_verbs_offered_as_python():
    rules = interpreter.load(WHEN, cache=False)
    assert rules.use_native(report=False, kernel_only=True)
    prog, plain = rules.for_players(2), interpreter.load(WHEN, cache=False).for_players(2)
    assert prog.kernel
    offered = set()
    for seed in range(6):
        a, b, rnd = prog.new_game(2, seed), plain.new_game(2, seed), random.Random(seed)
        while not b.over:
            assert testing.notations(a) == testing.notations(b)
            alone = b.state["pending"].get("alone")
            offered.add(tuple(alone) if isinstance(alone, list) else alone)
            i = rnd.randrange(len(b.legal_moves()))
            a.apply(a.legal_moves()[i])
            b.apply(b.legal_moves()[i])
            assert (a.work_spent, a.calls_spent) == (b.work_spent, b.calls_spent)
        assert a.state == b.state and a.result == b.result
    assert prog.native_fallbacks == 0
    # every set of verbs the conditions give was met: each its own site
    assert {("draw", "pass"), ("pass",), ("raise", "fold"), ("fold",), "stop", None} <= offered
    # a state waiting on some of the verbs goes into the kernel and out again
    game = plain.new_game(2, 0)
    for move in ("draw", "fold", "take 1", "draw", "fold", "stop", "pass"):
        live = prog.resume(json.loads(json.dumps(game.state)))
        assert live.go_live()
        assert testing.notations(live) == testing.notations(game)
        if move not in testing.notations(game):
            break
        live.apply(move)
        game.apply(move)
        assert live.state == game.state


def _openspiel_ids(native: bool) -> list:
    openspiel = pytest.importorskip("meeple.openspiel")
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    game = openspiel.load(WHEN, native=native)
    seen = []
    for seed in range(4):
        state, rnd = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            seen.append([(a, state.action_to_string(state.current_player(), a)) for a in legal])
            state.apply_action(rnd.choice(legal))
    return seen


@pytest.mark.kernels
@needs_kernel
def test_openspiel_ids_of_the_verbs_offered_are_the_same_from_the_kernel():
    assert _openspiel_ids(native=True) == _openspiel_ids(native=False)


def test_openspiel_gives_each_verb_offered_its_id():
    openspiel = pytest.importorskip("meeple.openspiel")
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    game = openspiel.load(WHEN, native=False)
    space = openspiel.ActionSpace(interpreter.load(WHEN).for_players(2))
    seen: dict[str, set] = {}
    for seed in range(4):
        state, rnd = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outs, probs = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(outs, probs)[0])
                continue
            legal = state.legal_actions()
            for a in legal:
                seen.setdefault(state.action_to_string(state.current_player(), a), set()).add(a)
            state.apply_action(rnd.choice(legal))
    # a verb of a decision of several has its own id whichever of them are offered
    assert len(seen["draw"]) == 1 and space.label(next(iter(seen["draw"]))) == "draw"
    assert len(seen["pass"]) == 1 and space.label(next(iter(seen["pass"]))) == "pass"
