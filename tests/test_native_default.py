"""Fast by default (docs/cli.md, "Native code"): `simulate`, `arena`, `perft`, `test` and
`play` given neither --native nor --no-native run on a kernel where a C++ compiler is found,
built once and kept in the cache, its build said only on a terminal; where none can be
built they run in pure Python with one note on stderr; --no-native (or
MEEPLE_NO_NATIVE=1, which the test run sets: tests/conftest.py) is pure Python. The
results are the same every way."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from console import meeple_cli
from kernel_support import needs_kernel

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "tests" / "testdata" / "ttt")

COMMANDS = {   # each command on a ruleset, with its --json document
    "simulate": ("simulate", "{}", "-n", "4", "-j", "1", "--json"),
    "arena": ("arena", "{}", "random", "random", "-n", "2", "-j", "1", "--json"),
    "perft": ("perft", "{}", "--depth", "2", "--players", "2", "--json"),
    "test": ("test", "{}", "-n", "3", "-j", "1", "--json"),
}
# a game of `meeple play` that bots play whole, searching (their moves are printed)
PLAY = ("play", "{}", "--seed", "3", "--bot", "1=mcts:iterations=20", "--bot", "2=greedy:samples=2")
TIMINGS = ("seconds", "games_per_second", "seconds_per_move")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(autouse=True)
def _the_default(monkeypatch):
    """The default as a user gets it: kernels on, no MEEPLE_NO_NATIVE."""
    monkeypatch.delenv("MEEPLE_NO_NATIVE", raising=False)
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)


def untimed(doc):
    """A --json document without its timings."""
    if isinstance(doc, dict):
        return {k: untimed(v) for k, v in doc.items() if k not in TIMINGS}
    return [untimed(v) for v in doc] if isinstance(doc, list) else doc


def results(run) -> dict:
    assert run.code == 0, run
    return untimed(json.loads(run.out))


def command_line(command: str, ruleset: str = TTT) -> tuple[str, ...]:
    return tuple(ruleset if a == "{}" else a for a in COMMANDS.get(command, PLAY))


def ttt_copy(folder: Path, mark: str) -> str:
    """tic-tac-toe as a ruleset of its own, with a kernel of its own: a comment added (the
    rulesets compiled in this process are kept by their text) and its move's label
    changed (the kernels loaded in this process are kept by their C++, which a comment
    does not change: an earlier test's tic-tac-toe would be found there, not built)."""
    (folder / "rules").mkdir()
    path = folder / "rules" / "ttt.meeple"
    text = (Path(TTT) / "ttt.meeple").read_text(encoding="utf-8")
    assert 'as "mark"' in text
    label = "mark_" + re.sub(r"\W+", "_", mark)
    path.write_text(text.replace('as "mark"', f'as "{label}"') + f"# {mark}\n", encoding="utf-8")
    return str(path)


def kernels_kept() -> int:
    return interpreter.cache_info()["native"]["entries"]


@needs_kernel
def test_the_default_builds_a_kernel_once_says_so_only_on_a_terminal_and_plays_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    args = command_line("simulate", ttt_copy(tmp_path, "the default"))
    reference = meeple_cli(*args, "--no-native")
    assert reference.err == "" and kernels_kept() == 0      # --no-native: pure Python, nothing built
    piped = meeple_cli(*args)
    assert piped.err == "", piped                           # no build line on a pipe
    assert kernels_kept() == 1                              # the kernel, built and kept
    assert results(piped) == results(reference)
    for pair in (("mcts:iterations=10", "greedy:samples=1"), ("ismcts:iterations=5", "first")):
        arena = ("arena", args[1], *pair, "-n", "2", "-j", "1", "--json")   # every bot on it
        assert results(meeple_cli(*arena)) == results(meeple_cli(*arena, "--no-native"))
    bots = command_line("play", args[1])                    # play's bots search on it
    searched, python = meeple_cli(*bots), meeple_cli(*bots, "--no-native")
    assert (searched.code, searched.out, searched.err) == (0, python.out, ""), searched
    monkeypatch.setenv("FORCE_COLOR", "1")                  # a terminal
    again = meeple_cli(*args)
    assert "building" not in again.err and results(again) == results(reference)   # from the cache
    assert kernels_kept() == 1


@needs_kernel
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_where_no_kernel_can_be_built_the_default_says_so_once_and_runs_in_python(command, tmp_path, monkeypatch):
    # an option the compiler refuses: the build fails at once (one per command, so that
    # each says it: a reason is said once per process)
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", f"--no-such-option-{command}")
    args = command_line(command, ttt_copy(tmp_path, command))
    reference = meeple_cli(*args, "--no-native")
    assert reference.err == "", reference                   # --no-native tries nothing
    monkeypatch.setenv("FORCE_COLOR", "1")                  # a terminal: the build is said
    default = meeple_cli(*args)
    assert results(default) == results(reference)
    assert "building the kernel of ttt (2 players)" in default.err
    said = [line for line in ANSI.sub("", default.err).splitlines() if "no kernel" in line]
    assert len(said) == 1 and said[0].startswith("note: no kernel for ttt: the build failed"), default.err
    assert f"--no-such-option-{command}" in said[0] and said[0].endswith("running in pure Python")
    assert "Traceback" not in default.err and kernels_kept() == 0
    if command == "simulate":
        monkeypatch.setenv("MEEPLE_NO_NATIVE", "1")         # the default made pure Python
        quiet = meeple_cli(*args)
        assert "building" not in quiet.err and "no kernel" not in quiet.err
        assert results(quiet) == results(reference)


@needs_kernel
def test_play_asks_for_a_kernel_new_or_resumed_and_plays_the_same_without_one(tmp_path, monkeypatch):
    # as above, the build failing at once: each play (a reason is said once per process)
    # says it tried, then plays in pure Python what --no-native plays
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    copy = ttt_copy(tmp_path, "play")
    monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", "--no-such-option-play")
    args = command_line("play", copy)
    reference = meeple_cli(*args, "--no-native")
    assert reference.code == 0 and reference.err == "" and "Winner" in reference.out, reference
    default = meeple_cli(*args)
    assert default.out == reference.out
    assert default.err.startswith("note: no kernel for ttt: the build failed") and \
        "--no-such-option-play" in default.err and default.err.count("no kernel") == 1, default.err
    # resumed: a human's move, then the bot's, then quit
    record = tmp_path / "game.json"
    started = meeple_cli("play", copy, "--seed", "3", "--bot", "2=mcts:iterations=20", "--record",
                         record, "--no-native", typed="1\nquit\n")
    assert started.code == 0 and record.exists(), started
    resume = ("play", "--resume", record, "--ruleset", copy)
    saved = record.read_text(encoding="utf-8")
    reference = meeple_cli(*resume, "--no-native", typed="1\nquit\n")
    assert reference.code == 0 and reference.err == "", reference
    record.write_text(saved, encoding="utf-8")
    monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", "--no-such-option-resume")
    default = meeple_cli(*resume, typed="1\nquit\n")
    assert default.out == reference.out and "(bot 'mcts" in default.out, default
    assert default.err.startswith("note: no kernel for ttt: the build failed") and \
        "--no-such-option-resume" in default.err, default.err
    assert kernels_kept() == 0


@needs_kernel
def test_without_a_compiler_the_default_runs_in_python_with_one_note(tmp_path):
    # (in a process of its own: a reason is said once per process)
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CXX", "MEEPLE_NO_NATIVE")}
    env.update(PATH=str(empty), MEEPLE_CACHE_DIR=str(tmp_path))   # no compiler on the PATH
    args = command_line("simulate")
    default = subprocess.run([sys.executable, "-m", "meeple", *args], cwd=ROOT, env=env, check=False,
                             capture_output=True, text=True, timeout=120)
    assert default.returncode == 0, default.stderr
    assert default.stderr == ("note: no kernel for ttt: no C++ compiler was found (set CXX, or install "
                              "g++ or clang++); running in pure Python\n")
    reference = meeple_cli(*args, "--no-native")
    assert untimed(json.loads(default.stdout)) == results(reference)


@pytest.mark.parametrize("name", ["report", "progress"])
@pytest.mark.parametrize("value", [True, "stderr", 1])
def test_use_native_says_which_argument_is_not_a_callable(name, value):
    """``use_native(report=…, progress=…)`` takes a callable, None or False (docs/api.md,
    Native code): anything else is refused at once with a message naming the argument,
    not a TypeError from deep inside the first build."""
    rules = interpreter.load("kalah")
    with pytest.raises(TypeError, match=rf"use_native: {name} must be a callable, None or "
                                        rf"False, not {re.escape(repr(value))}"):
        rules.use_native(**{name: value})
    assert rules.use_native(report=False, progress=None) in (True, False)
