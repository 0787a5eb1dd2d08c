"""The switches: environment variables that turn something on or off (docs/cli.md,
"Environment variables"). Each reads the same words as on and off, its default when
unset or empty, and any other value is an error that names it (exit 2 on the command
line, whichever command runs), never read as on or off."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from console import meeple_cli
from meeple.cli import line_input
from meeple.dsl import diskcache, settings
from meeple.interpreter import SettingError

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


@pytest.fixture
def clean(monkeypatch):
    for name in settings.SWITCHES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("name", sorted(settings.SWITCHES))
def test_every_switch_reads_the_same_words_on_and_off_and_its_default_when_unset(clean, name):
    default = settings.SWITCHES[name][2]
    assert settings.on(name) is default
    for value in ("", "   "):
        clean.setenv(name, value)
        assert settings.on(name) is default
    for value in ("1", "true", "TRUE", "Yes", " on "):
        clean.setenv(name, value)
        assert settings.on(name) is True
    for value in ("0", "false", "No", "OFF "):
        clean.setenv(name, value)
        assert settings.on(name) is False


@pytest.mark.parametrize("name", sorted(settings.SWITCHES))
def test_a_switch_set_to_another_value_is_an_error_naming_it(clean, name):
    clean.setenv(name, "2")
    with pytest.raises(SettingError) as e:
        settings.on(name)
    assert str(e.value) == f"the environment variable {name} is '2', not a value it takes"
    assert e.value.name == name and e.value.value == "2" and set(e.value.allowed) == {"1", "0", ""}
    assert "(also true/false, yes/no, on/off)" in e.value.hint
    with pytest.raises(SettingError):
        settings.check()


def test_the_switches_mean_what_they_say_where_they_are_read(clean):
    """Off words that the old readings took as on (``MEEPLE_KERNEL=false`` was on,
    ``MEEPLE_PLAIN_INPUT=0`` was on) now turn them off, and the reverse."""
    clean.setenv("MEEPLE_KERNEL", "false")
    assert interpreter.kernel_status() == "kernels are turned off (MEEPLE_KERNEL=0)"
    clean.setenv("MEEPLE_NO_CACHE", "yes")
    assert not diskcache.enabled()
    clean.setenv("MEEPLE_NO_CACHE", "no")
    assert diskcache.enabled()
    clean.setenv("MEEPLE_PLAIN_INPUT", "0")
    assert not line_input.plain_input()
    clean.setenv("MEEPLE_PLAIN_INPUT", "on")
    assert line_input.plain_input() and line_input.editor() is None


@pytest.mark.parametrize("name", sorted(settings.SWITCHES))
def test_the_command_line_checks_every_switch_before_any_command(clean, name):
    """Even a command that never reads the switch (``list``) says it is wrong, exit 2,
    nothing on stdout, no traceback."""
    clean.setenv(name, "maybe")
    run = meeple_cli("list")
    assert run.code == 2 and run.out == "", run
    assert run.err.startswith(f"error: the environment variable {name} is 'maybe', not a value it takes\n")
    assert "Traceback" not in run.err and f"hint: {name} takes '1'" in run.err


def test_docs_name_every_switch_and_show_the_error_as_printed():
    table = DOC.split("### Environment variables", 1)[1].split("### ", 1)[0]
    for name in settings.SWITCHES:
        assert f"`{name}" in table.split("The switches", 1)[0], name
        assert f"`{name}`" in table.split("The switches", 1)[1].split("```", 1)[0], name
    command = "MEEPLE_NO_CACHE=maybe meeple list"
    shown = table.split(f"$ {command}\n", 1)[1].split("```", 1)[0].rstrip("\n").splitlines()
    env = {k: v for k, v in os.environ.items() if k not in settings.SWITCHES}
    run = subprocess.run([sys.executable, "-m", "meeple", "list"], cwd=ROOT, check=False, capture_output=True,
                         text=True, timeout=300, env={**env, "MEEPLE_NO_CACHE": "maybe", "NO_COLOR": "1"})
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == shown
    assert re.fullmatch(r"hint: MEEPLE_NO_CACHE takes '1' \(no cache\), .*", shown[1])
