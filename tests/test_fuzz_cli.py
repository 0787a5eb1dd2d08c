"""Fuzzing the command line: any arguments given to any command end with a documented
exit code (0, 1, 2) and a message, never a Python traceback or a hang. Arguments are
drawn from each command's real options, with odd values (empty, huge, negative, floats,
control characters, paths of special files) and stray words."""
from __future__ import annotations

import io
import os
import signal
import sys
from contextlib import redirect_stderr, redirect_stdout

from hypothesis import HealthCheck, given, settings, strategies as st
from meeple.cli.main import main
from scale import scaled

ODD = ["", "0", "-1", "2.5", "1e9", "99999999999999999999999", "²", "nan", "x" * 300,
       "\x1b[2J", "[bold]x[/]", ":100:", "\u202e", "/dev/zero", "/proc/self/environ", "/",
       "cherokee", "clans-and-glory", "no-such", "steps=0", "steps=-5", "work=abc", "=",
       "2=random", "9=random", "1=nobot", "open_clans", "de", "xx"]

COMMANDS = {
    "validate": ["--json"],
    "list": ["--json"],
    "play": ["--players", "--variant", "--locale", "--seed", "--bot", "--record", "--force",
             "--resume", "--ruleset", "--budget"],
    "simulate": ["--games", "--players", "--variant", "--locale", "--seed", "--bot",
                 "--max-moves", "--quiet", "--records", "--failed-only", "--budget", "--json"],
    "test": ["--variant", "--players", "--examples", "--seed", "--out", "--quiet", "--budget",
             "--json"],
    "replay": ["--as", "--reveal", "--unfinished", "--ruleset", "--quiet", "--budget", "--json"],
}
SMALL = {"--games": ["1", "2"], "--examples": ["1", "2"], "--max-moves": ["5", "50"]}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(sorted(COMMANDS)))
    args = draw(st.sampled_from([[], ["--no-color"], ["-V"]])) + [command]
    if command != "list":
        args.append(draw(st.sampled_from(ODD)))
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from(COMMANDS[command] + ["--help", "-h", "--no-color", "--nope", "-z"]))
        args.append(opt)
        if opt in SMALL:
            args.append(draw(st.sampled_from(SMALL[opt])))
        elif draw(st.booleans()):
            args.append(draw(st.sampled_from(ODD)))
    return args


def _alarm(signum, frame):
    raise TimeoutError("the command did not finish within 60 s")


def run_meeple(args: list[str], typed: str) -> tuple[int, str]:
    """Runs the ``meeple`` console script's ``main`` as a user would (its usage errors
    are escaped there), with standard input, output and error replaced."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, sys.stdin
    sys.argv, sys.stdin = ["meeple", *args], io.StringIO(typed)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv, sys.stdin = saved
    return code, out.getvalue() + err.getvalue()


@settings(max_examples=int(os.environ.get("MEEPLE_FUZZ_CLI_CASES", scaled(60, 25))), deadline=None,
          derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(args=command_lines())
def test_any_command_line_ends_with_a_documented_exit_code(args, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    here = os.getcwd()
    os.chdir(folder)   # records a game writes land in a fresh folder
    try:
        # 'play' reads moves from standard input: the first move, then 'quit'
        code, out = run_meeple(args, "1\nquit\n")
    finally:
        os.chdir(here)
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert "Traceback" not in out, (args, out)
    assert code in (0, 1, 2), (args, code, out)
    assert "\x1b[2J" not in out and "\u202e" not in out, (args, out)   # printed literally
    if code:
        assert out.strip(), args   # a failure always says why


def test_a_ruleset_name_the_system_cannot_look_up_is_no_such_ruleset(tmp_path, monkeypatch):
    """Found by the fuzzing above: a 300-character name raised OSError (File name too
    long) from the lookup of the ruleset."""
    monkeypatch.chdir(tmp_path)
    for name in ("x" * 300, "a/" + "y" * 5000):
        for command in (["play", name], ["validate", name], ["simulate", name], ["test", name]):
            code, out = run_meeple(command, "")
            assert code == 1 and "Traceback" not in out, (command[0], out)
            assert "no ruleset" in out or "no file or folder" in out, out
