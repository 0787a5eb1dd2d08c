"""Declared payoffs (``payoff(p) = ...``) are shown: on ``meeple play``'s and ``meeple
replay``'s result table, in ``meeple simulate``'s summary and its --json (mean payoff per
seat), in the rulebook; and a ruleset without them shows none of it."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from console import result_rows
from meeple.cli.main import app
from typer.testing import CliRunner

runner = CliRunner()
AUCTION = Path(__file__).parent / "testdata" / "first_price_auction.meeple"
SCHEMA = Path(__file__).parent.parent / "docs" / "schema" / "cli-simulate.schema.json"


def run(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 0, r.output
    return r


def test_play_and_replay_show_each_seats_payoff(tmp_path):
    rec = tmp_path / "a.json"
    r = run("play", AUCTION, "--bot", "1=random", "--bot", "2=random", "--seed", 3,
            "--record", rec)
    head, *rows = result_rows(r.output)
    assert head[-1] == "Payoff"
    result = json.loads(rec.read_text())["result"]
    players = {f"Player {p + 1}": p for p in range(2)}
    assert {players[row[1]]: int(row[-1]) for row in rows} == dict(enumerate(result["payoffs"]))
    assert sum(result["payoffs"]) > 0       # the winner gains: not all zeros
    r2 = run("replay", rec, "--ruleset", AUCTION)
    assert result_rows(r2.output) == result_rows(r.output)


def test_a_ruleset_without_payoffs_shows_no_payoff_column():
    r = run("play", "kalah", "--bot", "1=random", "--bot", "2=random", "--seed", 1)
    head = result_rows(r.output)[0]
    assert "Payoff" not in head and head[-1] == "Outcome"


def test_simulate_shows_the_mean_payoff_per_seat_and_its_json_has_it():
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    doc = json.loads(run("simulate", AUCTION, "-n", 12, "-q", "--json").stdout)
    validator.validate(doc)
    means = [s["mean_payoff"] for s in doc["seats"]]
    assert all(0 <= m <= 9 for m in means) and sum(means) > 0
    text = run("simulate", AUCTION, "-n", 12, "-q").stdout
    assert "Mean payoff" in text
    for m in means:
        assert f"{m:.2f}" in text
    plain = json.loads(run("simulate", "kalah", "-n", 2, "-q", "--json").stdout)
    validator.validate(plain)
    assert all("mean_payoff" not in s for s in plain["seats"])
    assert "Mean payoff" not in run("simulate", "kalah", "-n", 2, "-q").stdout


def test_the_schema_allows_a_mean_payoff_but_no_other_new_field():
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    seat = validator.schema["properties"]["seats"]["items"]
    assert "mean_payoff" in seat["properties"] and "mean_payoff" not in seat["required"]


def rulebook_of(tmp_path, payoff: str) -> str:
    text = AUCTION.read_text().replace("payoff(p) = gain(p)", payoff)
    path = tmp_path / "auction.meeple"
    path.write_text(text)
    return run("rulebook", path).stdout


def test_the_rulebook_says_how_payoffs_are_computed_beside_the_score(tmp_path):
    book = rulebook_of(tmp_path, "payoff(p) = gain(p)")
    goal = book[book.index("### Goal of the game"):book.index("## Components")]
    assert "Each player's score: *gain* of *p*. The highest wins." in goal
    assert "Each player's payoff: *gain* of *p*." in goal
    assert "add up to" not in goal
    zero = rulebook_of(tmp_path, "payoff(p) = 0 summing to 0")
    assert "Each player's payoff: 0." in zero and "The payoffs always add up to 0." in zero
    shared = rulebook_of(tmp_path, "payoff = winner")
    assert "Every player gets the same payoff: winner." in shared   # (a variable: its name)
    assert "Each player's payoff" not in shared
    assert "payoff" not in rulebook_of(tmp_path, "").lower()


def test_openspiels_utility_range_is_the_payoffs_where_the_analysis_knows_it():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    from meeple.dsl.load import SourceSet, add_text

    from meeple import interpreter, openspiel

    def game(payoff: str, players: int = 3, **params):
        src = SourceSet()
        add_text(src, "bounded.meeple", AUCTION.read_text().replace("payoff(p) = gain(p)", payoff)
                 .replace("ruleset first_price_auction", "ruleset bounded_auction"))
        g = openspiel.load(interpreter.compile_sources(src), players=players, **params)
        return g.min_utility(), g.max_utility()
    assert game("payoff(p) = if seat(p) == winner then 3 else -1") == (-1.0, 3.0)
    assert game("payoff(p) = seat(p) * 2", players=3) == (2.0, 6.0)
    assert game("payoff(p) = seat(p) * 2", players=5) == (2.0, 10.0)
    # value and bid are state: unknown, so the fallback (score_bound)
    assert game("payoff(p) = gain(p)") == (-1000.0, 1000.0)
    assert game("payoff(p) = gain(p)", score_bound=50) == (-50.0, 50.0)
    # other returns keep theirs
    assert game("payoff(p) = seat(p) * 2", returns="outcomes") == (-1.0, 1.0)
    assert game("payoff(p) = seat(p) * 2", returns="scores") == (-1000.0, 1000.0)


def test_replay_json_holds_the_payoffs_and_its_schema_allows_them(tmp_path):
    rec = tmp_path / "a.json"
    run("play", AUCTION, "--bot", "1=random", "--bot", "2=random", "--seed", 3, "--record", rec)
    doc = json.loads(run("replay", rec, "--ruleset", AUCTION, "--json").stdout)
    assert doc["result"]["payoffs"] == json.loads(rec.read_text())["result"]["payoffs"]
    replay_schema = SCHEMA.with_name("cli-replay.schema.json")
    jsonschema.Draft202012Validator(json.loads(replay_schema.read_text())).validate(doc)


ARENA_SCHEMA = SCHEMA.parent / "cli-arena.schema.json"


@pytest.mark.parametrize("native", ["--native", "--no-native"])
def test_simulate_balance_figures_and_report_hold_each_seats_payoffs(tmp_path, native):
    """The balance figures (--json's ``balance``) give each seat's payoff distribution,
    equal to the seats' mean payoffs, whether the kernel or Python played the games; the
    HTML report has a table of them."""
    doc = json.loads(run("simulate", AUCTION, "-n", 30, "-q", "--json", "--jobs", 1,
                         native).stdout)
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)
    for seat, fig in zip(doc["seats"], doc["balance"]["seats"]):
        assert fig["payoff"]["count"] == 30
        assert fig["payoff"]["mean"] == pytest.approx(seat["mean_payoff"])
    report = tmp_path / "r.html"
    run("simulate", AUCTION, "-n", 30, "-q", "--jobs", 1, native, "--report", report)
    html = report.read_text()
    assert "Payoffs per seat" in html
    kalah = json.loads(run("simulate", "kalah", "-n", 4, "-q", "--json", native).stdout)
    assert all("payoff" not in s for s in kalah["balance"]["seats"])


def test_arena_shows_each_bots_mean_payoff_and_its_json_has_it():
    doc = json.loads(run("arena", AUCTION, "random", "first", "--games", 20, "--json").stdout)
    jsonschema.Draft202012Validator(json.loads(ARENA_SCHEMA.read_text())).validate(doc)
    means = [b["mean_payoff"] for b in doc["bots"]]
    assert all(0 <= m <= 9 for m in means) and sum(means) > 0
    text = run("arena", AUCTION, "random", "first", "--games", 20).stdout
    assert "Payoff" in text and f"{means[0]:.2f}" in text
    kalah = json.loads(run("arena", "kalah", "random", "first", "--games", 2, "--json").stdout)
    assert all("mean_payoff" not in b for b in kalah["bots"])
    assert "Payoff" not in run("arena", "kalah", "random", "first", "--games", 2).stdout
