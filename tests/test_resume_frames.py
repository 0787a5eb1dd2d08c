"""A state resumes only if its stack is one the program reaches (interpreter/play/frames.py):
the phase's procedure at the bottom, every frame standing where a procedure can stop
(just after a decision on top, just after a call of the frame above it below, at a
random statement in explicit chance mode), every local one of the procedure's, of a
type it takes, none missing where the procedure always holds it, loop counters and
indices in the range the runtime keeps them in. Anything else is a StateError located
at its JSON path, never a game that stops later with "a bug in Meeple"."""
from __future__ import annotations

import copy
import json
import random
import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from meeple.cli.main import app
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import IllegalMove, RuleError, StateError, compile_sources
from meeple.interpreter.play.views import SPECTATOR, view
from typer.testing import CliRunner

from meeple import interpreter

# every place a frame can stop: after a decision (in a loop, in a procedure called for a
# result that goes into a local or, through a hidden slot, elsewhere), at random
# statements (explicit chance mode), at a simultaneous decision
FRAMES = """ruleset frames
players 2..2
kind Card { value: int }
zone deck: Card
zone hand: Card per player
deck cards into deck { Card(value: v) for v in 1..6 }
var total: int = 0
var bid: int per player = 0
procedure twice(k: int): int {
  choose e from [0, 1] as "extra"
  return 2 * k + e
}
turn {
  for r in 1..2 {
    choose k from [1, 2] as "pick"
    let d = call twice(k)
    bid(active) = call twice(d)
    total = total + d
  }
  let n = 0
  while n < 1 max 3 {
    shuffle deck
    pick c at random from items(deck)
    move c to hand(active)
    n = n + 1
  }
  choose bid(p) from [1, 2] for each p in players as "bid"
  roll a, b from 1..6
  total = total + a - b
}
end when total > 20 or size(deck) == 0
score(p) = bid(p)
"""
LOCATED = re.compile(r"invalid state at (stack|pending|chance)\b")


@cache
def frames_rules():
    src = SourceSet(base=parse(FRAMES, "frames.meeple"), sources={"frames.meeple": FRAMES})
    return compile_sources(src)


@cache
def bundled(name: str):
    return interpreter.load(name)


def states(rules, moves: int, chance: str = "seeded", seed: int = 3) -> list[dict]:
    """The states of one game, one per decision or chance step, up to ``moves`` of them."""
    g = rules.new_game(rules.min_players, seed, chance=chance)
    rnd, out = random.Random(seed), []
    while not g.over and len(out) < moves:
        out.append(json.loads(g.to_json()))
        if g.at_chance:
            g.sample_chance()
        else:
            g.apply(rnd.randrange(g.move_count()))
    return out


def frames_state(top: str, pc: int, chance: str = "seeded", **locals_) -> dict:
    """The first state of a game of FRAMES whose top frame is ``top`` at ``pc`` and holds
    these values."""
    for s in states(frames_rules(), 40, chance):
        f = s["stack"][-1]
        if (f["p"], f["pc"]) == (top, pc) and all(f["L"].get(k) == v for k, v in locals_.items()):
            return s
    raise LookupError((top, pc, locals_))


def refused(rules, state: dict) -> str:
    with pytest.raises(StateError) as e:
        rules.resume(state)
    return str(e.value)


# ---------------------------------------------------------------- the two reported states

@pytest.mark.parametrize("name", ["kalah", "dots-and-boxes"])
def test_a_stack_with_two_identical_frames_is_refused(name):
    state = states(bundled(name), 3)[2]
    state["stack"].append(copy.deepcopy(state["stack"][-1]))
    message = refused(bundled(name), state)
    assert message.startswith("invalid state at stack/0/pc: a frame under another stands just "
                              "after a call of a procedure"), message


@pytest.mark.parametrize("value, says", [
    ({}, "an integer is needed, not an object"), ([], "an integer is needed, not a list"),
    ("x", "an integer is needed, not a text"), (True, "an integer is needed, not true/false"),
    (None, "an integer is needed, not none"), (2 ** 62, "a loop's count is 1 to 1000 here"),
    (0, "a loop's count is 1 to 1000 here, not 0"), (-3, "a loop's count is 1 to 1000 here"),
    (2 ** 70, "the integer is too large")])
def test_a_loop_counter_that_the_runtime_never_makes_is_refused(value, says):
    state = states(bundled("kalah"), 3)[2]
    assert state["stack"][0]["L"]["$n1"] == 1
    state["stack"][0]["L"]["$n1"] = value
    message = refused(bundled("kalah"), state)
    assert message.startswith(f"invalid state at stack/0/L/$n1: {says}"), message


def test_the_command_line_refuses_such_a_position_with_exit_1(tmp_path):
    state = states(bundled("kalah"), 3)[2]
    state["stack"][0]["L"]["$n1"] = {}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    r = CliRunner().invoke(app, ["perft", "kalah", "--position", str(path), "-d", "1"],
                           env={"COLUMNS": "200"})
    assert r.exit_code == 1, r.output
    assert f"--position: {path} is not a state of Kalah: invalid state at stack/0/L/$n1: an " \
           f"integer is needed, not an object" in " ".join(r.output.split()), r.output
    assert "Traceback" not in r.output


# ---------------------------------------------------------------- every place, every part

def test_every_state_of_a_game_resumes_as_it_was():
    """Stops of every kind (a decision, a call for a result into a local or a hidden slot,
    a shuffle, a pick, a roll, a simultaneous decision) are accepted as the game leaves
    them, and resume to the same game."""
    rules, seen = frames_rules(), set()
    for chance in ("seeded", "explicit"):
        for s in states(rules, 60, chance):
            assert json.loads(rules.resume(s).to_json()) == s
            kind = "chance" if s["pending"] is None else "each" if "seats" in s["pending"] else "decide"
            seen.add((kind, s["stack"][-1]["pc"], len(s["stack"])))
            seen.update(name for f in s["stack"] for name in f["L"] if name.startswith("$"))
    assert {("decide", 3, 1), ("decide", 1, 2), ("chance", 11, 1), ("chance", 12, 1),
            ("each", 17, 1), ("chance", 17, 1)} <= seen, seen
    assert {"$ret", "$r4", "$i0", "$it0", "$n9"} <= seen, seen


def _drop(key):
    return lambda s: s["stack"][-1]["L"].pop(key)


def _set(k, key, value):
    return lambda s: s["stack"][k]["L"].__setitem__(key, value)


# (the state: top frame's procedure and pc, chance mode), the change, the error
TAMPERED = {
    "callee without its caller": (("twice", 1), lambda s: s["stack"].pop(0),
                                  "stack/0/p: in the play phase the stack starts with 'turn', not 'twice'"),
    "caller without its callee": (("twice", 1), lambda s: s["stack"].pop(),
                                  ("stack/0/pc: the frame on top stands just after a decision: "
                                   "in 'turn' at instruction 3, 17, not 4")),
    "frames swapped": (("twice", 1), lambda s: s["stack"].reverse(), "stack/0/p: in the play phase"),
    "a frame above its callee's place": (("twice", 1), lambda s: s["stack"].append(copy.deepcopy(s["stack"][0])),
                                         "stack/1/pc: a frame under another stands just after a call"),
    "a caller of another procedure": (("twice", 1), lambda s: s["stack"][1].update(p="turn", pc=3, L={"r": 1, "$i0": 1, "$it0": [1, 2]}),
                                      "stack/1/p: the frame under it called 'twice', not 'turn'"),
    "pc between stops": (("turn", 3), lambda s: s["stack"][0].update(pc=2),
                         "stack/0/pc: the frame on top stands just after a decision"),
    "pc past the end": (("turn", 3), lambda s: s["stack"][0].update(pc=25),
                        "stack/0/pc: procedure 'turn' has"),
    "an unknown local": (("turn", 3), _set(0, "zz", 1), "stack/0/L/zz: 'turn' has no local 'zz'"),
    "a loop variable missing": (("turn", 3), _drop("r"), "stack/0/L: the local 'r' is missing"),
    "a loop's list missing": (("turn", 3), _drop("$it0"), "stack/0/L: the local '$it0' is missing"),
    "a local of the wrong type": (("twice", 1), _set(0, "k", "x"), "stack/0/L/k: an integer is needed, not a text"),
    "an item that is not": (("turn", 17), _set(0, "c", 99), "stack/0/L/c: there is no item 99"),
    "a seat that is not": (("turn", 17), _set(0, "p", 5), "stack/0/L/p: there is no player 5"),
    "a list of the wrong elements": (("turn", 3), _set(0, "$it0", [1, "x"]), "stack/0/L/$it0/1: an integer is needed"),
    "a loop's list that is no list": (("turn", 3), _set(0, "$it0", {}), "stack/0/L/$it0: a list is needed, not an object"),
    "a loop index past its list": (("turn", 3), _set(0, "$i0", 3), "stack/0/L/$i0: a loop's index is 1 to 2 here, not 3"),
    "a loop index before its first step": (("turn", 3), _set(0, "$i0", 0), "stack/0/L/$i0: a loop's index is 1 to 2 here, not 0"),
    "a counter past the loop's max": (("turn", 17), _set(0, "$n9", 4), "stack/0/L/$n9: a loop's count is 0 to 3 here, not 4"),
    "a result that goes elsewhere": (("twice", 1), _set(1, "$ret", "k"), "stack/1/L/$ret: the caller's result goes to 'd', not 'k'"),
    "a result that goes nowhere": (("twice", 1), _drop("$ret"), "stack/1/L: the local '$ret' is missing"),
    "a result from the bottom frame": (("turn", 3), _set(0, "$ret", "d"), "stack/0/L/$ret: the procedure was not called for a result"),
    "a result slot that holds a value": (("twice", 1, "$r4"), _set(0, "$r4", 7), "stack/0/L/$r4: a call's result slot is none"),
    "a decision of another variable": (("twice", 1), lambda s: s["pending"].update(var="k"),
                                       "pending/var: 'twice' stands after the decision of 'e', not of 'k'"),
    "options the variable cannot hold": (("turn", 3), lambda s: s["pending"].update(type="str", options=["a", "b"]),
                                         "pending/options/0: an integer is needed, not a text"),
    "a random statement that is not": (("turn", 11, "explicit"), lambda s: s["stack"][0].update(pc=13),
                                       "stack/0/pc: the frame on top stands at a random statement: in 'turn' at instruction 11, 12, 17, not 13"),
    "the wrong phase": (("turn", 3), lambda s: s.update(phase="ending"),
                        "stack/0/p: in the ending phase the stack starts with 'at end', not 'turn'"),
}


def _tampered_state(place) -> dict:
    top, pc, *rest = place
    chance = "explicit" if "explicit" in rest else "seeded"
    slot = [x for x in rest if x.startswith("$")]
    for s in states(frames_rules(), 60, chance):
        f = s["stack"][-1]
        if (f["p"], f["pc"]) == (top, pc) and all(x in s["stack"][0]["L"] for x in slot) \
                and (top != "turn" or pc != 17 or s["pending"] is not None):
            return s
    raise LookupError(place)


@pytest.mark.parametrize("what", list(TAMPERED))
def test_a_frame_no_game_reaches_is_refused_where_it_is_wrong(what):
    place, change, says = TAMPERED[what]
    state = _tampered_state(place)
    frames_rules().resume(copy.deepcopy(state))   # (as the game left it: accepted)
    change(state)
    message = refused(frames_rules(), state)
    assert message.startswith(f"invalid state at {says}"), message


# ---------------------------------------------------------------- tampered frames, at random

# rulesets whose states have what frames can hold: calls for results and hidden slots
# (FRAMES), procedure calls from the setup and loops around them (brotherhood-of-nine),
# 'while' counters and random statements (kalah, dots-and-boxes, backgammon), a
# simultaneous decision (hearts)
SOURCES = ["frames", "kalah", "dots-and-boxes", "backgammon", "brotherhood-of-nine", "hearts"]
ODD = [{}, [], "x", "", True, False, None, -1, 0, 1, 2, 3, 7, 1000, 1001, 2 ** 62, 2 ** 64,
       -(2 ** 70), [1], [None], [[1]], {"a": 1}, "$r4", "d"]
OPS = ["duplicate", "drop", "swap", "pc", "procedure", "value", "counter", "other local",
       "forget", "unknown"]


def rules_of(name: str):
    return frames_rules() if name == "frames" else bundled(name)


@cache
def base_states(name: str) -> list[dict]:
    rules = rules_of(name)
    out = [s for chance in ("seeded", "explicit") for s in states(rules, 25, chance, seed=5)]
    return [s for s in out if s["stack"]]


@st.composite
def tampered(draw, sources=tuple(SOURCES)):
    """(a ruleset of ``sources``, one of its states with one or two of its frames changed)"""
    name = draw(st.sampled_from(sources))
    s = copy.deepcopy(draw(st.sampled_from(base_states(name))))
    procs = sorted(rules_of(name).for_players(s["players"]).procs)
    for _ in range(draw(st.integers(1, 2))):
        stack = s["stack"]
        if not stack:
            break
        k = draw(st.integers(0, len(stack) - 1))
        frame, op = stack[k], draw(st.sampled_from(OPS))
        L, hidden = frame["L"], sorted(x for x in frame["L"] if x.startswith("$"))
        if op == "duplicate":
            stack.insert(draw(st.integers(0, len(stack))), copy.deepcopy(frame))
        elif op == "drop":
            stack.pop(k)
        elif op == "swap" and len(stack) > 1:
            j = draw(st.integers(0, len(stack) - 1))
            stack[k], stack[j] = stack[j], stack[k]
        elif op == "pc":
            frame["pc"] = max(0, frame["pc"] + draw(st.integers(-3, 3)))
        elif op == "procedure":
            frame["p"] = draw(st.sampled_from(procs))
        elif op in ("value", "counter", "other local", "forget") and L:
            key = draw(st.sampled_from(hidden if op == "counter" and hidden else sorted(L)))
            if op == "forget":
                del L[key]
            else:
                L[key] = copy.deepcopy(draw(st.sampled_from(ODD)) if op != "other local"
                                       else L[draw(st.sampled_from(sorted(L)))])
        elif op == "unknown":
            L[draw(st.sampled_from(["zz", "$n99", "$i0", "$it0", "$ret", "$r4", "k", "e"]))] = \
                copy.deepcopy(draw(st.sampled_from(ODD)))
    return name, s


def plays_on(game, moves: int = 3) -> None:
    """What a program does with a resumed game: views, legal moves, a few moves. A rule
    may fail (the tampered values are the rules' to judge), Meeple may not."""
    try:
        for seat in [SPECTATOR, "all"] + list(range(game.players)):
            json.dumps(view(game, seat))
        for _ in range(moves):
            if game.over:
                return
            if game.at_chance:
                game.sample_chance()
            else:
                game.apply(game.move_count() - 1)
    except RuleError as e:
        assert "a bug in Meeple" not in str(e), str(e)
    except (IllegalMove, MeepleError):
        pass


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=tampered())
def test_tampered_frames_are_refused_where_they_are_wrong_or_play_on(case):
    name, state = case
    try:
        game = rules_of(name).resume(state)
    except StateError as e:
        assert LOCATED.match(str(e)), str(e)
        return
    plays_on(game)
