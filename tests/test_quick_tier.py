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


def test_every_whole_name_is_a_slow_test():
    for name, whole in conftest.WHOLE.items():
        missing = set(whole) - set(conftest.SLOW.get(name, ()))
        assert not missing, f"tests/conftest.py WHOLE names {sorted(missing)} of {name}, not in SLOW"


class _Item:
    def __init__(self, file: str, name: str):
        self.path, self.name = Path(file), name
        self.originalname = name.split("[")[0]
        self.marks: list = []

    def add_marker(self, mark):
        self.marks.append(mark.name)

    def get_closest_marker(self, name):
        return name if name in self.marks else None


class _Config:
    def __init__(self, args, keyword="", **options):
        self.args, self.deselected = args, []
        self.options = {"keyword": keyword, **options}
        self.hook = self

    def getoption(self, name, default=None):
        return self.options.get(name, default)

    def pytest_deselected(self, items):
        self.deselected += items


def _collected(args, keyword="", full=False, monkeypatch=None, **options):
    monkeypatch.setattr(conftest.scale, "FULL", full)
    slow, whole = "test_evaluate.py", "test_compat.py"
    items = [_Item(slow, f"test_whole_games_walked_play_as_the_fast_engine_plays_them[{k}]") for k in range(9)]
    items += [_Item(whole, f"test_a_ruleset_shipped_before_loads_and_plays[{k}]") for k in range(5)]
    items += [_Item("test_parse.py", f"test_quick[{k}]") for k in range(6)]
    config = _Config(args, keyword, **options)
    conftest.pytest_collection_modifyitems(config, items)
    return items, config.deselected


def test_the_short_form_runs_a_sample_of_a_slow_test_s_cases(monkeypatch):
    kept, dropped = _collected(["tests"], monkeypatch=monkeypatch)
    names = [i.name for i in kept]
    sampled = [n for n in names if n.startswith("test_whole_games")]
    # (the first case and every SAMPLE-th after it; a slow test kept whole, and the quick
    # ones, all there)
    assert sampled == [f"test_whole_games_walked_play_as_the_fast_engine_plays_them[{k}]"
                       for k in range(0, 9, conftest.SAMPLE)]
    assert len(dropped) == 9 - len(sampled) and len(names) == len(sampled) + 5 + 6
    assert all("slow" in i.marks for i in kept if not i.name.startswith("test_quick"))


def test_the_long_form_or_tests_named_run_every_case(monkeypatch):
    for args, keyword, full in ((["tests"], "", True), (["tests/test_evaluate.py::test_whole"], "", False),
                                (["tests"], "walked", False)):
        kept, dropped = _collected(args, keyword, full, monkeypatch)
        assert len(kept) == 20 and not dropped, (args, keyword, full)
    # (pytest's runs of the last failures and stepwise: every case, so none is lost)
    for option in ("lf", "failedfirst", "stepwise"):
        kept, dropped = _collected(["tests"], monkeypatch=monkeypatch, **{option: True})
        assert len(kept) == 20 and not dropped, option
