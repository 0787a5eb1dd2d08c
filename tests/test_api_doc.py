"""Every python example in docs/api.md runs and prints what its text says: the ```text
block right after each ```python block is what the example prints last (the end of its
output). In the short form (tests/scale.py) an example that does not ask for native code
runs with kernels off (``MEEPLE_KERNEL=0``, as tests/test_openspiel_game.py plays its
games: the OpenSpiel section's would build two kernels, seconds each); it prints the
same, since a kernel plays the same games (the tests marked ``kernels`` check it). The
long form runs every example as a user would, kernels on where they build."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest
from scale import FULL

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```\n(?:\n?```text\n(.*?)```\n)?", TEXT, re.S)

OPTIONAL = {"pyspiel": "OpenSpiel (open-spiel)", "pettingzoo": "PettingZoo (pettingzoo)"}


def test_every_example_says_what_it_prints():
    assert BLOCKS and all(expected.strip() for _, expected in BLOCKS), \
        "a ```python block of docs/api.md without a ```text block of what it prints after it"
    assert len(BLOCKS) == TEXT.count("```python\n")


@pytest.mark.parametrize("code,expected", BLOCKS, ids=range(len(BLOCKS)))
def test_api_example_runs(code, expected, monkeypatch):
    for module, what in OPTIONAL.items():   # the sections on an optional extra
        if re.search(rf"\b{module}\b", code) and importlib.util.find_spec(module) is None:
            pytest.skip(f"{what} is not installed")
    if not FULL and not re.search(r"native|kernel", code):
        monkeypatch.setenv("MEEPLE_KERNEL", "0")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})  # noqa: S102 - our own documentation
    assert out.getvalue().strip().endswith(expected.strip())


def test_the_public_names_listed_are_exactly_the_interpreter_s():
    from meeple import interpreter
    listed = re.search(r"public names of `meeple\.interpreter` \((.*?)\) are also", TEXT, re.S)
    assert listed, "docs/api.md lists the public names of meeple.interpreter"
    names = re.findall(r"`(\w+)`", listed.group(1))
    assert len(names) == len(set(names)), "a name listed twice"
    assert set(names) == set(interpreter.__all__)
