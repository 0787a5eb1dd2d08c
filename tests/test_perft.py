"""Counting move paths (`meeple perft`, `interpreter.perft`/`divide`): tic-tac-toe, a
game of our own, against its well-known counts; the CLI's text, --divide, --after and
--json; errors."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from meeple.cli.main import app
from typer.testing import CliRunner

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
TTT = ROOT / "tests" / "testdata" / "ttt"

# Move sequences of tic-tac-toe of 1..6 plies on which nobody has won before the last
# one (a game won at ply 5 has no 6th ply: 15,120 - 1,440 wins at ply 5 = 13,680, x 4).
TTT_PERFT = [9, 72, 504, 3024, 15120, 54720]


def run(*args):
    r = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "100"})
    assert "Traceback" not in r.output, r.output
    return r


@pytest.fixture(scope="module")
def ttt():
    return interpreter.load(str(TTT))


def test_tic_tac_toe_has_its_known_counts(ttt):
    game = ttt.new_game(2, 0)
    before = game.to_json()
    assert [interpreter.perft(game, d) for d in range(1, 6)] == TTT_PERFT[:5]
    assert interpreter.perft(game, 0) == 1
    assert game.to_json() == before                                  # left unchanged


def test_divide_sums_to_perft_and_a_finished_game_counts_nothing(ttt):
    game = ttt.new_game(2, 0)
    d = interpreter.divide(game, 3)
    assert len(d) == 9 and sum(d.values()) == 504 and d["mark r2c2"] == 56
    for m in ("mark r1c1", "mark r2c1", "mark r1c2", "mark r2c2", "mark r1c3"):  # X wins
        game.apply(m)
    assert game.over and interpreter.perft(game, 1) == 0 and interpreter.perft(game, 0) == 1
    with pytest.raises(ValueError):
        interpreter.divide(game, 0)


def test_the_cli_counts_divides_and_starts_after_moves():
    r = run("perft", TTT, "--depth", 4, "--quiet")
    assert r.exit_code == 0 and r.output.startswith("depth 4: 3,024 paths"), r.output
    r = run("perft", TTT, "-d", 2, "--divide", "--quiet")
    lines = r.output.splitlines()
    assert lines[:9] == [f"mark r{i}c{j}: 8" for i in (1, 2, 3) for j in (1, 2, 3)]
    assert lines[9].startswith("depth 2: 72 paths")
    r = run("perft", TTT, "-d", 2, "--after", "mark r2c2", "--after", "r1c1")
    assert r.exit_code == 0 and r.output.startswith("depth 2: 42 paths"), r.output


def test_the_cli_json_follows_its_schema():
    r = run("perft", TTT, "--depth", 2, "--divide", "--json")
    doc = json.loads(r.output)
    schema = json.loads((ROOT / "docs" / "schema" / "cli-perft.schema.json").read_text())
    jsonschema.validate(doc, schema)
    assert doc["paths"] == 72 and doc["divide"]["mark r3c3"] == 8 and doc["after"] == []
    assert doc["format"] == "meeple-perft/1" and doc["ok"] is True


@pytest.mark.parametrize("args,message", [
    (("--depth", 0), "--depth must be at least 1"),
    (("--depth", 1, "--after", "mark r9c9"), "--after: move 1 'mark r9c9' is illegal"),
    (("--depth", 1, "--after", "mark r1c1", "--after", "mark r1c1"),
     "--after: move 2 'mark r1c1' is illegal"),
])
def test_bad_arguments_are_usage_errors(args, message):
    r = run("perft", TTT, *args)
    assert r.exit_code == 2 and message in r.output, r.output


def test_the_cli_counts_from_a_saved_position(ttt, tmp_path):
    game = ttt.new_game(2, 0)
    game.apply("mark r2c2")
    state = tmp_path / "state.json"
    state.write_text(game.to_json(), encoding="utf-8")
    r = run("perft", TTT, "-d", 2, "--position", state, "--quiet")
    assert r.exit_code == 0 and r.output.startswith("depth 2: 56 paths"), r.output
    r = run("perft", TTT, "-d", 1, "--position", state, "--after", "mark r1c1", "--json")
    doc = json.loads(r.output)
    assert doc["paths"] == 7 and doc["position"] == str(state) and doc["after"] == ["mark r1c1"]
    assert json.loads(run("perft", TTT, "-d", 1, "--json").output)["position"] is None


def test_a_bad_position_is_an_error(tmp_path):
    missing = tmp_path / "missing.json"
    r = run("perft", TTT, "-d", 1, "--position", missing)
    assert r.exit_code == 2 and "--position: cannot read" in r.output, r.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    r = run("perft", TTT, "-d", 1, "--position", bad)
    assert r.exit_code == 1 and "is not JSON" in r.output, r.output
    bad.write_text('{"players": 2, "ruleset": "other"}', encoding="utf-8")
    r = run("perft", TTT, "-d", 1, "--position", bad)
    assert r.exit_code == 1 and "is not a state of" in r.output, r.output


def test_a_position_that_is_no_regular_file_or_nests_too_deeply_is_refused(tmp_path):
    """A fifo is refused unread (never a hang), a device too; JSON nested past Python's
    recursion limit is a clear error, not a traceback."""
    import os
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    r = run("perft", TTT, "-d", 1, "--position", fifo)
    assert r.exit_code == 2 and "not a regular file" in r.output, r.output
    r = run("perft", TTT, "-d", 1, "--position", "/dev/zero")   # (it hung on /dev/zero)
    assert r.exit_code == 2 and "a device, not a regular file" in r.output, r.output
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    r = run("perft", TTT, "-d", 1, "--position", deep)
    assert r.exit_code == 1 and "nested too deeply" in r.output, r.output
