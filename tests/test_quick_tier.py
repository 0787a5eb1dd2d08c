"""The quick tier, ``pytest -m "not slow"`` (README, Contributing): tests/conftest.py names
the slow tests by file and name. A name there must be a test of its file (a renamed test
would otherwise slip back into the quick tier unnoticed, or a list entry linger), and
every area keeps tests in the quick tier: parsing, checking, playing, the CLI, records,
views and secrets, and a kernel build."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import conftest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _tests_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test")}


def test_every_slow_name_is_a_test_of_its_file():
    for name in (*conftest.SLOW, *conftest.SLOW_FILES):
        assert (TESTS / name).is_file(), f"tests/conftest.py SLOW names {name}, which is gone"
    for name, slow in conftest.SLOW.items():
        missing = set(slow) - _tests_of(TESTS / name)
        assert not missing, f"tests/conftest.py SLOW names {sorted(missing)} of {name}: no such test"
        assert len(set(slow)) == len(slow), name


def test_every_area_keeps_quick_tests():
    """At least one test of each area's file stays out of SLOW (among the kernel's, one
    that builds a kernel and compares its state with Python's: kernel_state)."""
    areas = ["test_parse.py", "test_check.py", "test_runtime.py", "test_cli.py",
             "test_cli_conventions.py", "test_records.py", "test_secrets.py", "test_leaks.py",
             "test_kernel.py", "test_native.py", "test_chance.py", "test_undo.py"]
    for name in areas:
        quick = _tests_of(TESTS / name) - set(conftest.SLOW.get(name, ()))
        assert name not in conftest.SLOW_FILES and quick, f"{name} has no test in the quick tier"
    source = (TESTS / "test_kernel.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    quick_kernel = [n for n in tree.body if isinstance(n, ast.FunctionDef)
                    and n.name.startswith("test") and n.name not in conftest.SLOW["test_kernel.py"]]
    assert any("kernel_state" in ast.unparse(n) for n in quick_kernel)


def test_the_slow_marker_is_declared():
    ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert any(m.startswith("slow:") for m in ini["markers"])
