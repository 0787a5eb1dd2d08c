"""No game is lost: `meeple play` saves its record on SIGTERM and SIGHUP, keeps a journal
of the moves as they are made (so that even `kill -9` leaves a game that replays to its
last move and can be continued), and saves where it can when the folder it was meant for
cannot be written, saying where. The signal tests run `meeple play` as a user does, in a
process of its own, synchronised on what it prints (a timeout only guards a hang)."""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from meeple.cli import saving
from meeple.cli.main import app
from meeple.interpreter.play import journal as journals, record as records
from typer.testing import CliRunner

import meeple

ROOT = Path(__file__).resolve().parent.parent
GAME = ["kalah", "--bot", "2=first", "--seed", "1"]   # (nothing hidden: undo is allowed)
PROMPT = b"your move (a number from the list"
POSIX = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def moves_made(typed: int) -> list[str]:
    """The record of GAME after seat 1 typed '1' (its first move) ``typed`` times against
    the 'first' bot (which plays its first move too), up to seat 1's next decision."""
    game = meeple.load(GAME[0]).new_game(2, 1)
    moves: list[str] = []
    while True:
        if game.active_player == 0:
            if typed == 0:
                return moves
            typed -= 1
        m = game.legal_moves()[0]
        moves.append(game.move_text(m))
        game.apply(m)


def replays(rec: records.Record) -> None:
    records.replay(meeple.load(rec.ruleset), rec)   # digests checked move by move


class Player:
    """`meeple play ARGS` in a process of its own, its stdin and stdout pipes."""

    def __init__(self, args: list[str], cwd: Path, data: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", XDG_DATA_HOME=str(data))
        self.proc = subprocess.Popen([sys.executable, "-m", "meeple", "play", *args], cwd=cwd,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.out = b""

    def prompt(self, n: int) -> None:
        """Waits until the n-th prompt for a move has been printed."""
        while self.out.count(PROMPT) < n:
            ready, _, _ = select.select([self.proc.stdout], [], [], 120)   # a guard only
            assert ready, self.out[-2000:]
            data = os.read(self.proc.stdout.fileno(), 1 << 16)
            assert data, self.out[-2000:]
            self.out += data

    def type(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def end(self, sig: int) -> tuple[int, str, str]:
        self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=120)
        return self.proc.returncode, (self.out + out).decode(), err.decode()


@POSIX
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_saves_the_record_of_the_moves_made(tmp_path, name):
    sig = getattr(signal, name)
    args = GAME + (["--record", "r.json"] if name == "SIGTERM" else [])
    p = Player(args, tmp_path, tmp_path / "data")
    for n in (1, 2):
        p.prompt(n)
        p.type("1")
    p.prompt(3)
    code, out, err = p.end(sig)
    assert code == 128 + sig, (code, out, err)
    assert f"Stopped by {name}." in out and "Traceback" not in out + err, (out, err)
    saved = [f for f in tmp_path.iterdir() if f.suffix == ".json"]
    assert len(saved) == 1 and saved[0].name in out, (saved, out)
    if name == "SIGTERM":
        assert saved[0].name == "r.json"
    rec = journals.load(saved[0])
    assert rec.moves == moves_made(2)
    replays(rec)
    assert not list(tmp_path.glob("*.journal"))   # saved: the journal is gone


@POSIX
def test_kill_9_leaves_a_journal_that_replays_and_resumes(tmp_path):
    p = Player(GAME + ["--record", "r.json"], tmp_path, tmp_path / "data")
    for n, line in enumerate(["1", "1", "undo"], 1):
        p.prompt(n)
        p.type(line)
    p.prompt(4)   # after the undo: the journal has its line
    code, _, _ = p.end(signal.SIGKILL)
    assert code == -signal.SIGKILL
    record, journal = tmp_path / "r.json", tmp_path / "r.json.journal"
    assert not record.exists() and journal.exists()
    rec = journals.load(journal)
    assert rec.moves == moves_made(1) and len(rec.digests) == len(rec.moves)
    replays(rec)
    r = run("replay", journal, "-q")
    assert r.exit_code == 0, r.output
    # a new game may not take the place of the one the journal holds
    r = run("play", *GAME, "--record", record, input="quit\n")
    assert r.exit_code == 2 and "stopped before it could be saved" in r.output, r.output
    assert journal.exists()
    # resuming the record goes on from its journal, and saves to the record
    r = run("play", "--resume", record, input="1\nquit\n")
    assert r.exit_code == 0, r.output
    assert "holds moves made after" in r.output
    again = journals.load(record)
    assert again.moves == moves_made(2)
    replays(again)
    assert not journal.exists()


def test_a_journal_cut_short_reads_up_to_its_last_whole_line(tmp_path):
    prog = meeple.load("dots-and-boxes")
    game = prog.new_game(2, 1)
    path = tmp_path / "g.json.journal"
    rec = records.Record("dots-and-boxes", 2, 1, [], None, [], ["human", "human"],
                         digests=[], secrets=prog.hidden_information)
    j = journals.Journal.start(path, rec)
    made = []
    for _ in range(5):
        m = game.legal_moves()[0]
        made.append(game.move_text(m))
        game.apply(m)
        j.move(made[-1], records.short_digest(game))
    j.undo(2)
    j.close()
    assert path.stat().st_mode & 0o077 == 0   # a game with hidden information: owner-only
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"move": "draw a1')   # the process died writing a line
    got = journals.load(path)
    assert got.moves == made[:3] and got.recovered and "cut short" in got.recovered
    replays(got)
    r = run("replay", path, "-q")
    assert r.exit_code == 0 and "cut short" in r.output, r.output
    # a bad line that is not the last one is an error that names it
    lines = whole.split(b"\n")
    lines[2] = b'{"move": 5, "digest": "0123456789abcdef"}'
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(records.RecordError, match="at line 3: a move is a text"):
        journals.load(path)
    # a move changed in the journal: the replay stops at it (digests)
    path.write_bytes(whole.replace(made[1].encode(), made[3].encode(), 1))
    with pytest.raises(records.RecordError, match="move 2"):
        replays(journals.load(path))


def _unwritable(folder: Path, how: str) -> None:
    if how == "removed":
        folder.rmdir()
        return
    folder.chmod(0o555)
    try:
        (folder / "probe").touch()
    except OSError:
        return
    (folder / "probe").unlink()
    folder.chmod(0o755)
    pytest.skip("a read-only folder is still written by this user (root): the 'removed' case "
                "covers it")


@pytest.mark.parametrize("how", ["removed", "read-only"])
def test_quit_where_the_folder_cannot_be_written_saves_elsewhere_and_says_where(
        tmp_path, monkeypatch, how):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    _unwritable(here, how)
    try:
        r = run("play", *GAME, input="1\nquit\n")
    finally:
        if here.exists():
            here.chmod(0o755)
    assert r.exit_code == 0, r.output
    folder = tmp_path / "data" / "meeple" / "games"
    saved = list(folder.glob("meeple-kalah-*.json"))
    assert len(saved) == 1 and f"The record is saved to {saved[0]}" in " ".join(r.output.split())
    assert f"kept in {folder}" in " ".join(r.output.split())
    assert journals.load(saved[0]).moves == moves_made(1)
    assert not list(folder.glob("*.journal"))
    assert folder.stat().st_mode & 0o077 == 0   # made private


def test_a_record_file_that_cannot_be_written_goes_to_the_fallback_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    target = tmp_path / "r.json"
    write = records.write_atomic

    def full(path, data, private=True):   # the disk holding --record fills up mid-game
        if Path(path) == target:
            raise records.SaveError(f"cannot save {path}: No space left on device")
        write(path, data, private)

    monkeypatch.setattr(records, "write_atomic", full)
    r = run("play", *GAME, "--record", target, input="1\nquit\n")
    assert r.exit_code == 1, r.output   # not where it was asked: a failed save
    out = " ".join(r.output.split())
    saved = tmp_path / "data" / "meeple" / "games" / "r.json"
    assert "No space left on device" in out and f"the record is saved to {saved} instead" in out
    assert journals.load(saved).moves == moves_made(1)
    assert not (tmp_path / "r.json.journal").exists()


@POSIX
def test_a_signal_waits_for_the_end_of_a_held_step():
    before = signal.getsignal(signal.SIGTERM)
    reached = []
    with pytest.raises(saving.Stopped) as e, saving.Signals() as s, s.held():
        os.kill(os.getpid(), signal.SIGTERM)
        reached.append("the end of the step")   # not cut short: the signal waits
    assert reached and e.value.signum == signal.SIGTERM and e.value.name == "SIGTERM"
    # a step that fails (an illegal move) does not keep the signal waiting
    with pytest.raises(saving.Stopped), saving.Signals() as s, s.held():
        os.kill(os.getpid(), signal.SIGTERM)
        raise ValueError("illegal")
    with saving.Signals() as s:
        s.stopping = True   # already stopping: a second signal changes nothing
        os.kill(os.getpid(), signal.SIGHUP)
        reached.append("after")
    assert reached[-1] == "after"
    assert signal.getsignal(signal.SIGTERM) is before   # the handlers are given back


def test_the_journal_of_a_finished_game_is_removed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("play", "kalah", "--bot", "1=first", "--bot", "2=first", "--seed", "1",
            "--record", "done.json")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "done.json").read_text())["result"] is not None
    assert sorted(f.name for f in tmp_path.iterdir()) == ["done.json"]
