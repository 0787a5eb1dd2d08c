"""tools/mypy_baseline.py, the type checker's baseline that only shrinks: its entries
outlive line moves, count duplicates, and a new error or a fixed one is reported. (It
runs mypy itself in .ci/run; here only its bookkeeping, which needs no mypy run.)"""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("mypy_baseline", ROOT / "tools" / "mypy_baseline.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


tool = _tool()

TODAY = """\
dsl/check.py:120: error: Need type annotation for "seen"  [var-annotated]
dsl/check.py:340: error: Item "None" of "Span | None" has no attribute "line"  [union-attr]
dsl/check.py:612: error: Item "None" of "Span | None" has no attribute "line"  [union-attr]
dsl/check.py:700: note: Both left and right operands are unions
cli/main.py:9: error: Name "x" already defined on line 4  [no-redef]
Found 4 errors in 2 files (checked 75 source files)
"""


def test_an_entry_has_no_line_number_and_notes_are_not_entries():
    assert tool.entry(TODAY.splitlines()[0]) == \
        'dsl/check.py: [var-annotated] Need type annotation for "seen"'
    assert tool.entry("dsl/check.py:700: note: Both left and right operands are unions") is None
    assert tool.entry("Found 4 errors in 2 files (checked 75 source files)") is None
    # a line number inside the message goes too
    assert tool.entry(TODAY.splitlines()[4]) == 'cli/main.py: [no-redef] Name "x" already defined on line N'


def test_lines_that_move_are_still_the_baselines_errors():
    baseline = tool.entries(TODAY.splitlines())
    assert sum(baseline.values()) == 4
    moved = [ln.replace(":120:", ":131:").replace(":340:", ":12:").replace("line 4", "line 6")
             for ln in TODAY.splitlines()]
    assert tool.compare(tool.entries(moved), baseline) == (Counter(), Counter())


def test_a_new_error_fails_even_when_the_same_one_is_in_the_baseline():
    baseline = tool.entries(TODAY.splitlines())
    third = 'dsl/check.py:900: error: Item "None" of "Span | None" has no attribute "line"  [union-attr]'
    new, gone = tool.compare(tool.entries([*TODAY.splitlines(), third]), baseline)
    assert new == Counter({'dsl/check.py: [union-attr] Item "None" of "Span | None" has no attribute "line"': 1})
    assert not gone
    # the same message in another file is another error
    elsewhere = third.replace("dsl/check.py", "dsl/parse.py")
    new, _ = tool.compare(tool.entries([*TODAY.splitlines(), elsewhere]), baseline)
    assert list(new) == ['dsl/parse.py: [union-attr] Item "None" of "Span | None" has no attribute "line"']


def test_a_fixed_error_is_reported_and_pruned(tmp_path):
    path = tmp_path / "baseline.txt"
    tool.write_baseline(tool.entries(TODAY.splitlines()), path)
    baseline = tool.read_baseline(path)
    assert sum(baseline.values()) == 4
    fixed = [ln for ln in TODAY.splitlines() if ":612:" not in ln]
    new, gone = tool.compare(tool.entries(fixed), baseline)
    assert not new and sum(gone.values()) == 1
    tool.write_baseline(baseline - gone, path)
    assert tool.read_baseline(path) == tool.entries(fixed)


def test_the_checked_in_baseline_is_well_formed():
    lines = [ln for ln in tool.BASELINE.read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    assert lines == sorted(lines)
    for ln in lines:
        path, _, rest = ln.partition(": [")
        assert (ROOT / path).is_file(), ln
        assert path.split("/")[0] in ("dsl", "interpreter", "cli", "meeple"), ln
        assert "]" in rest, ln


def test_ci_runs_the_linter_and_the_type_checker_before_the_tests():
    """.ci/run installs the pinned lint extra and runs ruff and the baseline check before
    pytest (set -e: either failing fails CI)."""
    import tomllib
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    steps = [ln.strip() for ln in script.splitlines() if ln.strip() and not ln.startswith("#")]
    assert "set -euo pipefail" in steps
    install = next(s for s in steps if "pip install" in s)
    assert ".[test,lint]" in install
    order = [steps.index(s) for s in ("python3 -m ruff check .", "python3 tools/mypy_baseline.py",
                                      "python3 -m pytest")]
    assert steps.index(install) < order[0] < order[1] < order[2]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    assert sorted(r.split("==")[0] for r in extras["lint"]) == ["mypy", "ruff"]
    assert all("==" in r for r in extras["lint"])   # pinned: findings depend on the version
