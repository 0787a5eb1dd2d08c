"""`meeple test` on long games (issue 37, item 13): progress while a game is under way,
limits on each game's full checks (`--check-moves`, `--deadline`) past which the game
is played on to its end with the light checks (on the kernel where there is one), the
games a limit cut short named in the report, and the full checks themselves cheaper
(a view without its messages, a state read back without a second deep copy)."""
from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from meeple.cli.main import app
from meeple.dsl.load import SourceSet, read_sources, resolve_path
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import invariants, parallel, testing
from meeple.interpreter.analysis.invariants import (
    Config,
    Failure,
    GameChecker,
    Limits,
    Stats,
    explore_shards,
    play_and_check,
)
from meeple.interpreter.play import views
from typer.testing import CliRunner

from meeple import interpreter

OSHI_ZUMO = Path(__file__).resolve().parent / "testdata" / "oshi_zumo.meeple"
runner = CliRunner()

# a game of 300 moves, whatever is chosen; `total` reaches 3 only if the invariant breaks
LONG = """ruleset long
players 2..2
var n: int = 0
var total: int = 0
turn {
  choose x from [1, 2] as "go"
  n = n + 1
  if n == 250 and x == 2 { total = 3 }
}
end when n == 300
score(p) = n
invariant small: total < 3
"""


def compile_text(text: str, name: str = "t.meeple"):
    return interpreter.compile_sources(SourceSet(base=parse(text, name), sources={name: text}))


def meeple(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


# ---------------------------------------------------------------- the full checks, cheaper

def test_a_view_without_its_log_is_the_view_less_the_messages():
    game = interpreter.load("hearts").new_game(players=4, seed=3)
    for _ in range(20):
        game.apply(game.legal_moves()[-1])
    for seat in (0, 2, views.SPECTATOR):
        whole, light = views.view(game, seat), views.view(game, seat, log=False)
        assert whole["log"] and "log" not in light and "log_dropped" not in light
        assert {k: v for k, v in whole.items() if k not in ("log", "log_dropped")} == light
        assert list(light) == [k for k in whole if k not in ("log", "log_dropped")]


def test_a_state_read_back_is_copied_deeply_as_before():
    rules = interpreter.load("hearts")
    game = rules.new_game(players=4, seed=3)
    for _ in range(10):
        game.apply(game.legal_moves()[0])
    state = json.loads(game.to_json())
    kept = copy.deepcopy(state)
    again = rules.resume(state)
    # the game owns its state: changing the dict it was read from changes nothing in it
    state["zones"][0].append(999)
    state["log"].clear()
    next(iter(state["pvars"].values()))[0] = "changed"
    assert json.loads(again.to_json()) == kept
    with pytest.raises(ValueError, match="nested too deeply"):
        deep: list = []
        for _ in range(100_000):
            deep = [deep]
        rules.resume(dict(kept, vars={"x": deep}))


# ---------------------------------------------------------------- the limits

def test_past_check_moves_the_same_game_is_played_to_its_end_with_the_light_checks():
    rules = compile_text(LONG)
    full, light = Stats(), Stats()
    choices = [0] * 400   # (never the move that breaks the invariant)
    checked = GameChecker(rules, Config(2), 7, full)
    whole = checked.play(choices)
    checker = GameChecker(rules, Config(2), 7, light, limits=Limits(moves=10))
    cut = checker.play(choices)
    assert cut.over and checker.moves == checked.moves and len(checker.moves) == 300
    assert json.loads(cut.to_json())["vars"] == json.loads(whole.to_json())["vars"]
    assert full.states == 301 and full.light == 0 and full.cuts == []
    assert light.states == 11 and light.light == 290     # the setup and 10 moves in full
    assert light.cuts == [invariants.Cut(Config(2), 7, 10, 300, "check_moves")]
    assert light.moments.get("at turn end", 0) < full.moments["at turn end"]


def test_the_light_checks_still_find_the_bound_and_rule_errors_but_not_invariants():
    rules = compile_text(LONG)
    breaks = [0] * 249 + [1]   # (the 250th move breaks the invariant)
    with pytest.raises(Failure, match="invariant 'small'"):
        play_and_check(rules, Config(2), 0, breaks)
    play_and_check(rules, Config(2), 0, breaks, limits=Limits(moves=100))   # not checked
    tight = compile_text(LONG.replace("invariant small", "bound 200 moves\ninvariant small"))
    with pytest.raises(Failure, match="did not end within its bound of 200 moves") as e:
        play_and_check(tight, Config(2), 0, [], limits=Limits(moves=5))
    assert len(e.value.moves) == 201 and e.value.moves[-1] == "go 1"
    looping = compile_text(LONG.replace("  n = n + 1\n", "  n = n + 1\n  while true max 5 { n = n }\n"))
    with pytest.raises(Failure) as e:
        play_and_check(looping, Config(2), 0, [], limits=Limits(moves=0))
    assert e.value.check == "rule error"


def test_a_game_that_goes_round_in_circles_is_found_past_the_limit():
    with pytest.raises(Failure, match="goes round in circles") as e:
        play_and_check(compile_text(SHUTTLE), Config(2), 0, [1, 1, 0], limits=Limits(moves=1))
    assert e.value.cycle is not None


SHUTTLE = ('ruleset shuttle\nplayers 2..2\nenum Step { back, on }\nvar square: int = 0\n'
           'turn {\n  choose s from [back, on] as "step"\n'
           '  square = if s == on then square + 1 else max(0, square - 1)\n}\n'
           'end when square == 4\nbound 40 turns\n')


@needs_kernel
def test_past_the_limit_the_kernel_plays_and_cycles_are_still_found(monkeypatch):
    from meeple.interpreter.native.kgame import KernelGame
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = compile_text(SHUTTLE.replace("bound 40 turns", "bound 40 turns or endless"))
    assert rules.use_native(report=False, kernel_only=True)
    stats = Stats()
    checker = GameChecker(rules, Config(2), 0, stats, limits=Limits(moves=2))
    game = checker.play([1, 1, 0])   # on, on, back: then back for ever (first moves)
    assert isinstance(game, KernelGame) and game.live   # (its Python game never made)
    assert stats.endless == 1 and stats.cycles == 1 and stats.light == len(checker.moves) - 2
    python = compile_text(SHUTTLE.replace("bound 40 turns", "bound 40 turns or endless"))
    again = GameChecker(python, Config(2), 0, Stats())
    again.play([1, 1, 0])
    assert checker.moves == again.moves   # the same moves, checked in full or not


def test_a_deadline_cuts_the_full_checks_and_is_named():
    stats = Stats()
    game = play_and_check(compile_text(LONG), Config(2), 3, [], stats, limits=Limits(seconds=1e-9))
    assert game.over and stats.states == 1 and stats.light == 300
    assert [(c.checked, c.moves, c.limit) for c in stats.cuts] == [(0, 300, "deadline")]


def test_the_games_cut_short_are_numbered_in_the_whole_run_and_progress_comes_during_games(monkeypatch):
    monkeypatch.setattr(invariants, "TICK_EVERY", 0.0)
    src = SourceSet(base=parse(LONG, "long.meeple"), sources={"long.meeple": LONG})
    rules = parallel.Rules.from_sources(src)
    seen = []
    stats = Stats()
    failure = explore_shards(rules, [Config(2)], 30, 0, stats,
                             lambda live: seen.append((live.games, live.states, live.moves)),
                             jobs=1, limits=Limits(moves=40))
    assert failure is None and stats.games == 30
    assert [c.example for c in stats.cuts] == list(range(1, 31))   # (two shards: 25 + 5)
    assert all(c.checked == 40 and c.moves == 300 for c in stats.cuts)
    # while the first game was under way, the display heard of its moves and states
    first = [s for s in seen if s[0] == 0]
    assert max(m for _, _, m in first) >= 290 and max(s for _, s, _ in first) == 41


def test_the_pytest_entry_point_takes_the_limits():
    testing.check_ruleset(str(OSHI_ZUMO), examples=2, check_moves=20)


# ---------------------------------------------------------------- the command

def test_meeple_test_names_the_games_a_limit_cut_short(tmp_path):
    code, text = meeple("test", OSHI_ZUMO, "--examples", 3, "--check-moves", 50, "--jobs", 1)
    assert code == 0, text
    assert "3 games cut short by a limit" in text
    assert "game 1 (2 players, seed 0): 50 of its " in text and "(--check-moves 50)" in text
    code, out = meeple("test", OSHI_ZUMO, "--examples", 3, "--check-moves", 50, "--jobs", 1, "--json")
    doc = json.loads(out)
    assert doc["ok"] and doc["check_moves"] == 50 and doc["deadline"] is None
    assert [c["example"] for c in doc["cut_short"]] == [1, 2, 3]
    assert all(c["checked_moves"] == 50 and c["limit"] == "check_moves" for c in doc["cut_short"])
    assert doc["light_moves"] == sum(c["moves"] - 50 for c in doc["cut_short"])
    from jsonschema import validate
    from meeple.cli.schemas import meeple_test_schema
    validate(doc, meeple_test_schema())


def test_without_limits_nothing_is_cut_and_the_keys_say_so():
    code, out = meeple("test", "kalah", "--examples", 2, "--jobs", 1, "--json", "--no-native")
    doc = json.loads(out)
    assert code == 0 and doc["cut_short"] == [] and doc["light_moves"] == 0
    assert doc["check_moves"] is None and doc["deadline"] is None


@pytest.mark.parametrize("option,value,said", [
    ("--check-moves", "-1", "--check-moves must be at least 0"),
    ("--deadline", "0", "--deadline must be more than 0 seconds"),
    ("--deadline", "nan", "--deadline must be more than 0 seconds"),
    ("--deadline", "soon", "Invalid value for '--deadline'"),
])
def test_bad_limits_are_usage_errors(option, value, said):
    code, text = meeple("test", "kalah", option, value, "--examples", 1)
    assert code == 2 and said in text, text


def test_the_long_test_ruleset_is_long():
    # (what the tests above rely on: oshi-zumo's games run to their 1,000-round horizon
    # once the choices run out, as OpenSpiel's oshi_zumo with min_bid 0 does)
    rules = interpreter.compile_sources(read_sources(resolve_path(str(OSHI_ZUMO))))
    game = rules.new_game(players=2, seed=0)
    while not game.over:
        game.apply(game.legal_moves()[0])
    assert game.state["vars"]["rounds"] == 1000 and game.state["moves"] == 2000
    assert math.isclose(sum(game.result["scores"]), 0)


def test_the_sample_of_the_docs(monkeypatch):
    # docs/cli.md, "Long games": the header and the first games cut short, as a shorter
    # run prints them (its first two games are the sample's: the same seed; Hypothesis
    # draws the later ones by how many it will draw)
    monkeypatch.setenv("COLUMNS", "200")
    doc = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    sample = doc.split("$ meeple test tests/testdata/oshi_zumo.meeple --check-moves 200\n", 1)[1]
    sample = sample.split("```", 1)[0].splitlines()
    code, text = meeple("test", OSHI_ZUMO, "--check-moves", 200, "--examples", 3, "--jobs", 1)
    got = text.splitlines()
    assert code == 0 and got[0] == sample[0]
    assert got[2].replace("3 games", "100 games") == sample[2]
    assert got[3:5] == sample[3:5]
