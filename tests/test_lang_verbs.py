"""Several moves without an object in one decision (``choose x, how from LIST as "play"
or "draw" or "pass"``, docs/language.md 6.6), issue 37 item 4.

- Each extra verb is a move of its own, written as that verb alone, first and in the
  order written; each sets ``x`` to ``none``, and ``how`` (when named) to the verb of
  the move made. One extra verb (``or "pass"``) keeps its old notation and state shape.
- Misuse is a located ``check/bad-value`` with a hint.
- A state waiting on such a decision is plain data: saved and resumed, it has the same
  moves.
- tests/testdata/verbs_demo.meeple plays the same in the straightforward code, the fast
  code and its kernel, move after move, with the same work counted (its work counts
  beside Python's: tests/test_work_count.py plays every ruleset of tests/testdata).
- The OpenSpiel adapter gives each extra verb an id of its own (the same from the
  kernel and from Python); a ruleset with one extra verb keeps its ids.
- The rulebook says every verb."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference, moves_of, play_both, straight
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.analysis import testing
from meeple.interpreter.compiler import codegen
from meeple.interpreter.documents import rulebook, rulebook_view

from meeple import interpreter

VERBS = str(Path(__file__).resolve().parent / "testdata" / "verbs_demo.meeple")

RULES = """ruleset draws
players 2..2
kind Card { value: int }
zone pile: Card
zone hand: Card per player
zone table: Card
deck cards into pile { Card(value: v) for v in 1..4 }
var passes: int = 0
var last: str = ""
setup { deal 1 from pile to hand }
turn {
  choose card, how from items(hand(active)) as "play" or "draw" or "pass"
  last = how
  if how == "play" {
    move card to table
    passes = 0
  } elif how == "draw" and occupied(pile) {
    move top(pile) to hand(active)
    passes = 0
  } else {
    passes = passes + 1
  }
}
end when passes == 2
"""


def _source(text: str) -> SourceSet:
    return SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})


def _rules(text: str = RULES):
    return compile_sources(_source(text))


@pytest.mark.parametrize("optimize", [False, True], ids=["straightforward", "fast"])
def test_each_extra_verb_is_a_move_of_its_own_and_the_rules_read_which(monkeypatch, optimize):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    game = _rules().new_game(2, 0)
    assert testing.notations(game) == ["draw", "pass", "play 4"]
    assert [m.value for m in game.legal_moves()][:2] == [None, None]
    game.apply("draw")
    assert game.state["vars"]["last"] == "draw"
    assert testing.notations(game) == ["draw", "pass", "play 3"]
    game.apply("PASS")   # (any letter case, as every move)
    assert game.state["vars"]["last"] == "pass" and game.state["vars"]["passes"] == 1
    assert testing.notations(game) == ["draw", "pass", "play 2", "play 4"]
    game.apply("play 2")
    assert game.state["vars"]["last"] == "play" and game.state["vars"]["passes"] == 0
    table = next(z.id for z in game.program.zones if z.key == "table")
    assert [it.notation for it in game.program.items if game.state["loc"][it.id] == table] == ["2"]


def test_a_state_waiting_on_several_verbs_is_plain_data_and_resumes():
    rules = _rules()
    game = rules.new_game(2, 0)
    game.apply("draw")
    pend = game.state["pending"]
    assert pend["alone"] == ["draw", "pass"] and pend["said"] == "how" and pend["options"][:2] == [None, None]
    again = rules.resume(json.loads(json.dumps(game.state)))
    assert testing.notations(again) == testing.notations(game)
    again.apply("pass")
    game.apply("pass")
    assert again.state == game.state
    # a state whose decision names another local for the verb is refused where it says so
    wrong = json.loads(json.dumps(game.state))
    wrong["pending"]["said"] = "passes"
    with pytest.raises(interpreter.StateError, match="pending/said"):
        rules.resume(wrong)


def test_one_extra_verb_keeps_its_notation_and_state_shape():
    one = _rules(RULES.replace(' or "draw"', "").replace("choose card, how", "choose card")
                 .replace("last = how", 'last = "x"').replace('how == "play"', "card != none")
                 .replace('how == "draw"', "false"))
    game = one.new_game(2, 0)
    assert testing.notations(game) == ["pass", "play 4"]
    pend = game.state["pending"]
    assert pend["alone"] == "pass" and "said" not in pend
    # with a name for the verb, one extra verb too says which
    named = _rules(RULES.replace(' or "draw"', "")).new_game(2, 0)
    named.apply("pass")
    assert named.state["vars"]["last"] == "pass" and named.state["pending"]["alone"] == "pass"


def test_a_record_of_the_verbs_replays_to_the_same_digest():
    from meeple.interpreter import record
    ruleset = interpreter.load(VERBS)
    game, rnd, moves = ruleset.new_game(players=2, seed=5), random.Random(5), []
    while not game.over:
        m = rnd.choice(game.legal_moves())
        moves.append(game.move_text(m))
        game.apply(m)
    assert {"draw", "pass", "hold", "fold", "wait", "stop"} & set(moves)
    rec = record.Record("verbs_demo", 2, 5, [], None, moves)
    again = record.replay(ruleset, record.from_dict(json.loads(json.dumps(rec.to_dict()))))
    assert record.digest(again) == record.digest(game) and again.result == game.result


@pytest.mark.parametrize("old,new,words", [
    ('or "draw" or "pass"', 'or "pass" or "pass"', "the verb 'pass' is offered twice"),
    ('or "draw" or "pass"', 'or "draw" or "play"', "the verb 'play' is offered twice"),
    ('as "play" or "draw" or "pass"', "", "has no verb to say"),
    ("choose card, how", "choose card, card", "'card' is named twice"),
])
def test_misused_verbs_are_a_located_check_error(old, new, words):
    with pytest.raises(MeepleError) as info:
        _rules(RULES.replace(old, new))
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("check/bad-value", 12, 3) and words in d.message, d.render()
    assert d.hint


def test_the_straightforward_and_the_fast_code_play_verbs_demo_alike(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(VERBS, cache=False)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = interpreter.load(VERBS, cache=False)
    for seed in range(4):
        assert play_both(fast, plain, 2, seed, 200) > 10


def test_the_fast_paths_and_the_straightforward_ones_write_and_play_the_verbs_alike():
    # (moves found by index, by Move and by notation; written lazily or all at once)
    prog = interpreter.load(VERBS, cache=False).for_players(2)
    for seed in range(4):
        fast, rnd = prog.new_game(2, seed), random.Random(seed)
        played = []
        while not fast.over:
            moves = moves_of(fast)
            with straight():
                slow = prog.resume(json.loads(json.dumps(fast.state)))
                assert moves_of(slow) == moves
            i = rnd.randrange(len(moves))
            played.append(moves[i][2])
            fast.apply(i) if seed % 2 else fast.apply(moves[i][2])
        with straight():
            again = prog.new_game(2, seed)
            for text in played:
                again.apply(text)
            assert again.state == fast.state


@pytest.mark.kernels
@needs_kernel
def test_the_kernel_plays_verbs_demo_as_python_and_counts_the_same_work(monkeypatch):
    from test_work_count import differences
    rules = interpreter.load(VERBS, cache=False)
    assert rules.use_native(report=False)
    prog, plain = rules.for_players(2), interpreter.load(VERBS, cache=False).for_players(2)
    assert prog.kernel
    said = set()
    for seed in range(6):
        a, b, rnd = prog.new_game(2, seed), plain.new_game(2, seed), random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None
            assert testing.notations(a) == testing.notations(b)
            i = rnd.randrange(len(b.legal_moves()))
            a.apply(a.legal_moves()[i])
            b.apply(b.legal_moves()[i])
            said.add(b.state["vars"]["said"])
        assert a.state == b.state and a.result == b.result
        assert differences([plain, prog], 2, seed, 100) == []
    assert said == {"play", "draw", "pass"}
    assert prog.native_fallbacks == 0
    # a state waiting on several verbs goes into the kernel and out again
    game = plain.new_game(2, 3)
    for move in ("draw", "fold", "stop", "skip"):   # (items, numbers, cells; then one verb)
        live = prog.resume(json.loads(json.dumps(game.state)))
        assert live.go_live()
        assert testing.notations(live) == testing.notations(game)
        live.apply(move)
        game.apply(move)
        assert live.state == game.state


def _openspiel_ids(native: bool, seeds: int = 3) -> list:
    openspiel = pytest.importorskip("meeple.openspiel")
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    game = openspiel.load(VERBS, native=native)
    seen = []
    for seed in range(seeds):
        state, rnd = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outs, probs = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(outs, probs)[0])
                continue
            legal = state.legal_actions()
            seen.append([(a, state.action_to_string(state.current_player(), a)) for a in legal])
            state.apply_action(rnd.choice(legal))
    return seen


def test_openspiel_gives_each_extra_verb_an_id_of_its_own(monkeypatch):
    monkeypatch.setenv("MEEPLE_KERNEL", "0")
    seen = _openspiel_ids(native=False)
    ids = {text: a for moves in seen for a, text in moves if " " not in text}
    assert {"draw", "pass", "hold", "fold", "wait", "stop", "skip"} <= set(ids)
    openspiel = pytest.importorskip("meeple.openspiel")
    space = openspiel.ActionSpace(interpreter.load(VERBS).for_players(2))
    # a decision among items or cells: each verb its id, named by it
    verbs = ("draw", "pass", "wait", "stop")
    assert [space.label(ids[v]) for v in verbs] == list(verbs)
    # among numbers (ordinal ids, by position): the verbs first, in order
    assert [space.label(ids[v]) for v in ("hold", "fold", "skip")] == ["move #0", "move #1", "move #0"]
    # one extra verb alone: its move keeps the id none, and no id is added
    one = openspiel.ActionSpace(interpreter.load(
        str(Path(__file__).resolve().parent / "testdata" / "kuhn_poker.meeple")).for_players(2))
    assert not any(k.startswith("verb:") for k in one.offsets)


@pytest.mark.kernels
@needs_kernel
def test_openspiel_ids_of_the_verbs_are_the_same_from_the_kernel():
    assert _openspiel_ids(native=True) == _openspiel_ids(native=False)


def test_the_rulebook_says_every_verb():
    book = rulebook.build(interpreter.load(VERBS))
    md = rulebook_view.markdown(book)
    for verb in ("draw", "pass", "hold", "fold", "wait", "stop", "skip"):
        assert verb in md, verb
