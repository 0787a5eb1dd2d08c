"""Every python example in docs/api.md runs and prints what its text says."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
EXPECTED = ["True", "['draw', 'outcomes', 'ranking', 'ranks', 'scores', 'tiebreaks', 'winners']",
            "['draw', 'draw'] True []", "True [1, 2] [0]", "NothingToUndo\n0 True", "[9, 72, 504] 8", "1/6 [7]", "True {'count': 18}",
            "0 ['act 0', 'act 1']\nTrue", "{'player_0': -1.0, 'player_1': 1.0}", "True", "held"]

OPTIONAL = {"pyspiel": "OpenSpiel (open-spiel)", "pettingzoo": "PettingZoo (pettingzoo)"}


def test_every_example_is_checked():
    assert len(BLOCKS) == len(EXPECTED)


@pytest.mark.parametrize("code,expected", list(zip(BLOCKS, EXPECTED)), ids=range(len(BLOCKS)))
def test_api_example_runs(code, expected):
    for module, what in OPTIONAL.items():   # the sections on an optional extra
        if re.search(rf"\b{module}\b", code) and importlib.util.find_spec(module) is None:
            pytest.skip(f"{what} is not installed")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})  # noqa: S102 - our own documentation
    assert out.getvalue().strip().endswith(expected)
