"""A ruleset's usual number of players (issue 34, item 11): `players 3..6 default 4`
says it; without one, the fewest. The OpenSpiel game, the PettingZoo environment and the
CLI (play, simulate, perft) take it when given no number: `meeple.pettingzoo.env("hearts")`
has 4 seats, a ruleset for 3 to 6 usually played by 4 has 4."""
from __future__ import annotations

import json

import pytest
from meeple.cli.main import app
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet, add_text
from meeple.dsl.parse import parse
from meeple.interpreter.documents.meeple_code import decl
from typer.testing import CliRunner

from meeple import interpreter

PARTY = """ruleset party
title "Party"
players 3..6 default 4
var points: int per player = 0
turn {
  choose step from [1, 2] as "add"
  points(active) = points(active) + step
}
end when any(points(p) >= 4 for p in players)
score(p) = points(p)
"""
SOLO_OR_MORE = PARTY.replace("ruleset party", "ruleset solo").replace("players 3..6 default 4", "players 1..4")


def load_text(text: str, variants=(), overlay: str | None = None) -> interpreter.Ruleset:
    src = SourceSet()
    add_text(src, "rules.meeple", text)
    if overlay is not None:
        add_text(src, "variants/v.meeple", overlay)
    return interpreter.compile_sources(src, variants)


@pytest.fixture
def party(tmp_path):
    path = tmp_path / "party.meeple"
    path.write_text(PARTY, encoding="utf-8")
    return path


def test_the_usual_count_is_declared_else_the_fewest():
    assert load_text(PARTY).default_players == 4
    assert load_text(SOLO_OR_MORE).default_players == 1
    assert interpreter.load("hearts").default_players == 4
    assert interpreter.load("cherokee").default_players == 2   # (its rules name no usual count)
    # a variant says another
    v = 'variant v\nreplace players 3..6 default 5\n'
    assert load_text(PARTY, ["v"], v).default_players == 5
    assert decl(parse(PARTY).decls[1]) == "players 3..6 default 4"


@pytest.mark.parametrize("players", ["3..6 default 7", "3..6 default 2"])
def test_a_default_outside_the_range_is_an_error(players):
    with pytest.raises(MeepleError) as e:
        load_text(PARTY.replace("3..6 default 4", players))
    (d,) = e.value.diagnostics
    assert d.code == "check/bad-value" and d.span.line == 3
    assert "not one of those counts" in d.message and d.hint == "write a count from 3 to 6"


def test_pettingzoo_starts_from_the_usual_count(monkeypatch):
    monkeypatch.setenv("MEEPLE_KERNEL", "0")   # (the games in Python: no kernel to build)
    pettingzoo = pytest.importorskip("meeple.pettingzoo", reason="PettingZoo is not installed")
    hearts = pettingzoo.env("hearts")
    hearts.reset(seed=1)
    assert hearts.possible_agents == [f"player_{i}" for i in range(4)]
    party = pettingzoo.env(load_text(PARTY))
    party.reset(seed=1)
    assert len(party.possible_agents) == 4
    assert len(pettingzoo.env(load_text(PARTY), players=6).possible_agents) == 6


def test_openspiel_starts_from_the_usual_count():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    import pyspiel

    from meeple import openspiel
    assert openspiel.load("hearts").num_players() == 4
    ruleset = load_text(PARTY)
    assert openspiel.load(ruleset).num_players() == 4
    assert openspiel.load(ruleset, players=3).num_players() == 3
    short = openspiel.register(ruleset)
    assert pyspiel.load_game(short).num_players() == 4
    assert pyspiel.load_game(f"{short}(players=0)").num_players() == 4
    game_type = pyspiel.load_game(short).get_type()
    assert game_type.parameter_specification["players"] == 4


def test_the_cli_plays_the_usual_count(party):
    runner = CliRunner()
    r = runner.invoke(app, ["simulate", str(party), "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["players"] == 4
    r = runner.invoke(app, ["validate", str(party), "--json"])
    assert json.loads(r.output)["rulesets"][0]["players"] == {"min": 3, "max": 6, "default": 4}
    r = runner.invoke(app, ["validate", str(party)])
    assert "players:  3-6, usually 4" in r.output


def test_meeple_test_plays_every_count_the_usual_one_first(party):
    # (every count is tested, as before; the usual one comes first: Hypothesis shrinks a
    # failing game towards the first configuration, and the header names it first)
    from meeple.dsl.load import read_sources
    from meeple.interpreter.analysis.invariants import Config, configs
    src = read_sources(party)

    def load(c):
        return interpreter.compile_sources(src, list(c.variants), c.locale)
    assert [c.players for c in configs(src, load)] == [4, 3, 5, 6]
    assert configs(src, load, players=5) == [Config(5)]
    solo = SourceSet()
    add_text(solo, "rules.meeple", SOLO_OR_MORE)
    assert [c.players for c in configs(solo, lambda c: load_text(SOLO_OR_MORE))] == [1, 2, 3, 4]
    r = CliRunner().invoke(app, ["test", str(party), "--examples", "2", "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert [c["players"] for c in json.loads(r.output)["configurations"]] == [4, 3, 5, 6]


def test_the_allies_variants_of_brotherhood_of_nine_are_played_by_four():
    # "в игре принимают участие 4 стороны": the allies game is one of four sides
    assert interpreter.load("brotherhood-of-nine").default_players == 2
    for variant in ("allies", "allies_crosswise"):
        rules = interpreter.load("brotherhood-of-nine", [variant])
        assert (rules.min_players, rules.max_players, rules.default_players) == (2, 4, 4)
    assert interpreter.load("brotherhood-of-nine", ["round_limit"]).default_players == 2
