"""Payoffs that are not whole numbers (issue 37, item 10): `payoff(p) = EXPR per D`
says that the expression counts D-ths of one (docs/language.md §5.12.3, the `fingers`
example: a point to the seat that shows more fingers, half a point each on a tie). The
result holds the integers (`payoffs`) and D (`payoffs_per`), exact in JSON;
`meeple.payoff_values` gives the values as fractions; `summing to N` is about the
values; the adapters return them, `play`, `simulate` and `arena` show them; the
ruleset's code and rulebook say `per`. A ruleset without `per` is as before (no
`payoffs_per`). The kernel's half is in tests/test_kernel_payoffs.py."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from console import result_rows
from docs_support import RULESETS
from meeple.cli.main import app
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet, add_text
from meeple.interpreter.documents import meeple_code
from typer.testing import CliRunner

from meeple import interpreter

FINGERS = RULESETS["fingers"].text
SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schema"
runner = CliRunner()


def compile_text(text: str, name: str = "per.meeple") -> interpreter.Ruleset:
    src = SourceSet()
    add_text(src, name, text)
    return interpreter.compile_sources(src)


def fingers(shown: tuple[int, int], text: str = FINGERS):
    """A game of fingers in which the seats show these many fingers."""
    game = compile_text(text).for_players(2).new_game(2, 0)
    for seat, n in enumerate(shown):
        game.apply(f"show {n}", seat=seat)
    assert game.over
    return game


def test_a_payoff_counted_per_d_is_exact_in_the_result_and_the_state():
    tie = fingers((2, 2))
    assert tie.result["payoffs"] == [1, 1] and tie.result["payoffs_per"] == 2
    assert interpreter.payoff_values(tie.result) == [Fraction(1, 2), Fraction(1, 2)]
    won = fingers((3, 1))
    assert interpreter.payoff_values(won.result) == [1, 0]
    # the state is plain data: it goes through JSON and back exactly, and its schema allows it
    state = json.loads(tie.to_json())
    jsonschema.Draft202012Validator(json.loads((SCHEMAS / "state.schema.json").read_text())).validate(state)
    again = compile_text(FINGERS).for_players(2).resume(state)
    assert again.result == tie.result
    # without `per`, the result is as before: whole payoffs, no `payoffs_per`
    whole = fingers((2, 2), FINGERS.replace(" per 2 summing to 1", ""))
    assert whole.result["payoffs"] == [1, 1] and "payoffs_per" not in whole.result
    assert interpreter.payoff_values(whole.result) == [1, 1]
    assert interpreter.payoff_values({"scores": [0]}) is None


def test_summing_to_is_about_the_values():
    # (a sum of the integers, 2, that is the declared 1 only in halves)
    assert fingers((2, 2)).result["payoffs"] == [1, 1]
    with pytest.raises(interpreter.RuleError) as e:
        fingers((2, 2), FINGERS.replace("per 2 summing to 1", "per 2 summing to 2"))
    assert "the payoffs [1/2, 1/2] sum to 1, not 2 as declared ('summing to 2')" in str(e.value)
    assert "per.meeple:15" in str(e.value) and "bug" not in str(e.value)
    thirds = FINGERS.replace("per 2 summing to 1", "per 3 summing to 1")
    with pytest.raises(interpreter.RuleError, match=r"\[1/3, 1/3\] sum to 2/3, not 1"):
        fingers((1, 1), thirds)


def test_a_payoff_per_nothing_is_a_located_error():
    with pytest.raises(MeepleError) as e:
        compile_text(FINGERS.replace("per 2", "per 0"))
    assert "check/bad-value" in str(e.value) and "per.meeple:15" in str(e.value)
    with pytest.raises(MeepleError) as e:
        compile_text(FINGERS.replace("per 2", "per halves"))
    assert "parse/" in str(e.value) and "per.meeple:15" in str(e.value)


def test_the_code_and_the_rulebook_say_per(tmp_path):
    decl = compile_text(FINGERS).checked.payoff
    assert decl.per == 2 and decl.total == 1
    assert meeple_code.decl(decl) == "payoff(p) = halves(p) per 2 summing to 1"
    path = tmp_path / "fingers.meeple"
    path.write_text(FINGERS)
    book = run("rulebook", path).stdout
    assert "Each player's payoff: *halves* of *p*." in book   # (in words)
    assert "The payoff is that value divided by 2, exactly (not rounded)." in book
    assert "The payoff is that value divided" not in run("rulebook", "kalah").stdout


def run(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output
    assert r.exit_code == 0, r.output
    return r


def test_play_simulate_and_arena_show_the_values(tmp_path):
    path = tmp_path / "fingers.meeple"
    path.write_text(FINGERS)
    # the result table: each seat's payoff, exactly (some seed gives a tie: 1/2 each)
    shown = set()
    for seed in range(12):
        rec = tmp_path / f"{seed}.json"
        head, *rows = result_rows(run("play", path, "--bot", "1=random", "--bot", "2=random",
                                      "--seed", seed, "--record", rec).output)
        assert head[-1] == "Payoff"
        values = interpreter.payoff_values(json.loads(rec.read_text())["result"])
        assert sorted(row[-1] for row in rows) == sorted(str(v) for v in values)
        shown |= {row[-1] for row in rows}
    assert shown == {"0", "1/2", "1"}
    # simulate and arena average the values (halves), whichever engine plays
    for native in ("--native", "--no-native"):
        doc = json.loads(run("simulate", path, "-n", 40, "-q", "--json", "--jobs", 1, native).stdout)
        jsonschema.Draft202012Validator(json.loads((SCHEMAS / "cli-simulate.schema.json").read_text())) \
            .validate(doc)
        means = [s["mean_payoff"] for s in doc["seats"]]
        assert sum(means) == pytest.approx(1.0) and all(0 < m < 1 for m in means)
        for seat, fig in zip(doc["seats"], doc["balance"]["seats"]):
            assert fig["payoff"]["mean"] == pytest.approx(seat["mean_payoff"])
            assert {fig["payoff"]["min"], fig["payoff"]["median"], fig["payoff"]["max"]} <= {0, 0.5, 1}
            assert sum(b["count"] for b in fig["payoff"]["histogram"]) == 40
    doc = json.loads(run("arena", path, "random", "first", "--games", 20, "--json").stdout)
    means = [b["mean_payoff"] for b in doc["bots"]]
    assert sum(means) == pytest.approx(1.0) and all(0 <= m <= 1 for m in means)


def test_the_adapters_return_the_values():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    from meeple import openspiel
    rules = compile_text(FINGERS)
    game = openspiel.load(rules, players=2, native=False)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    state = game.new_initial_state()
    assert state.is_simultaneous_node()
    names = [state.action_to_string(0, a) for a in state.legal_actions(0)]
    state.apply_actions([state.legal_actions(0)[names.index("show 2")]] * 2)
    assert state.is_terminal() and state.returns() == [0.5, 0.5]
    # a payoff in sixths: the float nearest each value (7/6 is not a float)
    sixths = compile_text(FINGERS.replace("ruleset fingers", "ruleset sixths").replace(
        "halves(p) per 2 summing to 1", "if seat(p) == 1 then 7 else -1 per 6"), "sixths.meeple")
    game = openspiel.load(sixths, players=2, native=False)
    assert (game.min_utility(), game.max_utility()) == (-1 / 6, 7 / 6)
    state = game.new_initial_state()
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[0]])
    assert state.returns() == [7 / 6, -1 / 6]
    assert Fraction(state.returns()[0]) != Fraction(7, 6)   # (no float is)

def test_pettingzoo_rewards_are_the_values(tmp_path):
    pytest.importorskip("pettingzoo")
    from meeple import pettingzoo
    path = tmp_path / "fingers.meeple"
    path.write_text(FINGERS)
    env = pettingzoo.env(str(path))
    env.reset(seed=0)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        # (each seat's first move: both show one finger, a tie)
        env.step(None if terminated or truncated else
                 int(next(i for i, ok in enumerate(obs["action_mask"]) if ok)))
    assert env.unwrapped.game.result["payoffs"] == [1, 1]
    assert list(rewards.values()) == [0.5, 0.5]
