"""The log keeps the latest 60 messages, and says how many earlier ones it no longer
keeps (issue 11 §4: it used to drop them silently)."""
from __future__ import annotations

import hashlib
import json

from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.play import record as records
from meeple.interpreter.play.runtime import LOG_KEEP
from meeple.interpreter.play.views import view

TEXT = """ruleset chatter
players 2..2
var n: int = 0
turn {
  choose k from [1, 2] as "say"
  for i in 1..k {
    n = n + 1
    log said "message {n}"
  }
}
end when n >= 100
"""


def ruleset():
    return compile_sources(SourceSet(base=parse(TEXT, "chatter.meeple"),
                                     sources={"chatter.meeple": TEXT}))


def test_the_log_counts_the_messages_it_no_longer_keeps():
    game = ruleset().new_game(players=2, seed=1)
    said = 0
    while not game.over:
        said += int(game.legal_moves()[-1].notation.split()[-1])
        game.apply(game.legal_moves()[-1])
        v = view(game, 0)
        assert len(v["log"]) == min(said, LOG_KEEP)
        assert v["log_dropped"] == max(0, said - LOG_KEEP)
        assert v["log"][-1] == f"message {said}"
        if said > LOG_KEEP:
            assert v["log"][0] == f"message {said - LOG_KEEP + 1}"
    assert game.state["log_dropped"] == 100 - LOG_KEEP


def test_the_count_survives_a_saved_state_and_is_absent_before_anything_is_dropped():
    rules = ruleset()
    game = rules.new_game(players=2, seed=1)
    for _ in range(10):
        game.apply(1)
    assert "log_dropped" not in game.state
    for _ in range(30):
        game.apply(1)
    state = json.loads(game.to_json())
    assert state["log_dropped"] == 80 - LOG_KEEP
    again = rules.resume(state)
    assert view(again, 1)["log_dropped"] == 80 - LOG_KEEP
    again.apply(0)
    assert again.state["log_dropped"] == 81 - LOG_KEEP


def test_a_records_digest_leaves_the_count_out_so_older_records_still_match():
    game = ruleset().new_game(players=2, seed=1)
    for _ in range(40):
        game.apply(1)
    state = game.state
    assert state.pop("log_dropped") == 20
    del state["unsure"]  # (newer than those records too: left out of digests)
    old_style = hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode())
    assert records.digest(game) == old_style.hexdigest()
    assert "log_dropped" in game.state  # the digest changed nothing


def test_the_log_command_of_play_says_how_many_earlier_messages_are_not_kept(tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    path = tmp_path / "chatter.meeple"
    path.write_text(TEXT, encoding="utf-8")
    # Player 1 types "say 2" 20 times against a bot that says 1: 60 messages, then 3 more
    moves = "say 2\n" * 21
    r = CliRunner().invoke(app, ["play", str(path), "--bot", "2=first", "--seed", "1",
                                 "--record", str(tmp_path / "r.json")],
                           input=moves + "log\nquit\n")
    assert "Traceback" not in r.output
    said = 21 * 2 + 21   # 21 turns of each seat
    assert f"… {said - LOG_KEEP} earlier messages are no longer kept" in r.output
    assert "the latest 60 are kept" not in r.output
    r = CliRunner().invoke(app, ["play", str(path), "--bot", "2=first", "--seed", "1",
                                 "--record", str(tmp_path / "r2.json")], input="help\nquit\n")
    assert "the messages of the game so far (the latest 60 are kept)" in r.output
