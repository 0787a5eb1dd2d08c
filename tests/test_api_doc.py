"""Every python example in docs/api.md runs and prints what its text says."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
EXPECTED = ["True", "['draw', 'outcomes', 'ranking', 'ranks', 'scores', 'tiebreaks', 'winners']",
            "['draw', 'draw'] True []", "True [1, 2] [0]", "NothingToUndo\n0 True", "[9, 72, 504] 8", "1/6 [7]", "True {'count': 18}",
            "('ismcts', {'iterations': 400, 'c': 0.7})\n['win', 'loss']\nTrue True", "True", "held"]


def test_every_example_is_checked():
    assert len(BLOCKS) == len(EXPECTED)


@pytest.mark.parametrize("code,expected", list(zip(BLOCKS, EXPECTED)), ids=range(len(BLOCKS)))
def test_api_example_runs(code, expected):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})  # noqa: S102 - our own documentation
    assert out.getvalue().strip().endswith(expected)
