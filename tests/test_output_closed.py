"""`meeple play ... | head`: when the output is closed mid-game, the game stops like quit
(its record saved and resumable, a note on stderr), never a traceback; other commands
stop quietly with exit 1."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ["--bot", "1=random", "--bot", "2=random", "--bot", "3=random"]


def _closed_after(args: list[str], nbytes: int, cwd: Path) -> tuple[int, str]:
    """Runs meeple, reads ``nbytes`` of its output, then closes the pipe (as head does)."""
    p = subprocess.Popen([sys.executable, "-m", "meeple", *args], cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"})
    p.stdout.read(nbytes)
    p.stdout.close()
    err = p.stderr.read().decode()
    return p.wait(timeout=120), err


def test_a_game_whose_output_is_closed_saves_its_record(tmp_path):
    record = tmp_path / "game.json"
    code, err = _closed_after(["play", "cherokee", "--players", "3", *BOTS, "--seed", "3",
                               "--record", str(record)], 400, tmp_path)
    assert code == 1
    assert "Traceback" not in err
    assert "The output was closed." in err and str(record) in err
    saved = json.loads(record.read_text())
    assert saved["moves"] and saved.get("result") is None  # stopped mid-game
    # it continues where it stopped
    from meeple.interpreter.play import record as records

    import meeple
    rec = records.load(record)
    game = records.replay(meeple.load("cherokee"), rec)
    assert not game.over and game.legal_moves()


def test_a_game_without_record_saves_to_the_quit_file(tmp_path):
    code, err = _closed_after(["play", "cherokee", "--players", "3", *BOTS, "--seed", "3"],
                              400, tmp_path)
    assert code == 1 and "Traceback" not in err
    saved = list(tmp_path.glob("meeple-cherokee-*.json"))
    assert len(saved) == 1 and saved[0].name in err


def test_an_output_closed_before_the_game_starts_is_no_traceback(tmp_path):
    code, err = _closed_after(["play", "cherokee", "--players", "3", *BOTS, "--seed", "3"],
                              1, tmp_path)
    assert code == 1 and "Traceback" not in err
