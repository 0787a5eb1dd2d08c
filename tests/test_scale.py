"""The short and the long form of the tests (tests/scale.py, README "Contributing")."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def _form(value: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MEEPLE_TESTS": value}
    code = "import scale; print(scale.FORM, scale.scaled('long', 'short'))"
    return subprocess.run([sys.executable, "-c", code], cwd=TESTS, env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_short_form_is_the_default_and_full_the_long_one():
    assert _form("").stdout.split() == ["short", "short"]
    assert _form("short").stdout.split() == ["short", "short"]
    assert _form("full").stdout.split() == ["full", "long"]


def test_an_unknown_form_stops_the_run_with_a_message_not_a_traceback():
    run = _form("ful")
    assert run.returncode != 0
    assert "MEEPLE_TESTS='ful'" in run.stderr and "'full'" in run.stderr
    assert "Traceback" not in run.stderr
