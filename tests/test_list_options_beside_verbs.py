"""Options that are lists beside a move without an object (`choose xs, how from
[[1, 2], [2, 1]] as "bid" or "pass"`, a liar's-poker bid or a challenge): ``meeple test``
reads the options' texts of such a decision (the leak checker compares them) without a
traceback, and a kernel plays it (none as a list: ``List::none``)."""
from __future__ import annotations

import json

from kernel_support import needs_kernel
from meeple.cli.main import app
from typer.testing import CliRunner

from meeple import interpreter

RULES = """ruleset bids
players 2..2
var secret: int per player owner = 0
var done: int = 0
setup {
  for p in players {
    pick v at random from 1..3
    secret(p) = v
  }
}
turn {
  choose xs, how from [[1, 2], [2, 1]] as "bid" or "pass"
  done = done + 1
}
end when done >= 4
score(p) = secret(p)
"""


def test_meeple_test_reads_the_texts_of_list_options_beside_a_verb(tmp_path):
    path = tmp_path / "bids.meeple"
    path.write_text(RULES)
    r = CliRunner().invoke(app, ["test", str(path), "--examples", "6", "--json"])
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["ok"] and doc["exchanges"] > 0     # the leak checker compared its options


def test_the_moves_of_such_a_decision_read_as_written(tmp_path):
    path = tmp_path / "bids.meeple"
    path.write_text(RULES)
    game = interpreter.load(str(path), cache=False).for_players(2).new_game(2, 0)
    assert [m.notation for m in game.legal_moves()] == ["pass", "bid 1+2", "bid 2+1"]


@needs_kernel
def test_a_kernel_plays_lists_beside_a_verb(tmp_path, monkeypatch):
    # (it refused them once, before it built: no none of a list in C++; now List::none,
    # tests/test_kernel_nested_beside_verbs.py)
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    path = tmp_path / "bids.meeple"
    path.write_text(RULES)
    rules = interpreter.load(str(path), cache=False)
    said: list[str] = []
    rules.use_native(report=said.append, kernel_only=True)
    prog = rules.for_players(2)
    assert prog.kernel and not any("no kernel" in x for x in said), said
    game = prog.new_game(2, 0)
    game.apply(2)   # bid 2+1 (by its index: the kernel plays it)
    assert [m.notation for m in game.legal_moves()] == ["pass", "bid 1+2", "bid 2+1"]
    game.apply(0)
    assert game.live and game.state["vars"]["done"] == 2 and not game.over
