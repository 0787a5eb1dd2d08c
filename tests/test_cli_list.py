"""``meeple list`` shows what it kept in the disk cache (keyed by the rulesets' files
and Meeple's code): the same output cold and warm, without loading a ruleset when warm,
and a ruleset whose file changed is loaded afresh; ``--version``, ``--help`` and a warm
``list`` import neither the parser nor the interpreter (nor pydantic)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from console import meeple_cli
from meeple.dsl import files
from meeple.dsl.resources import RULESETS_DIR

import meeple
from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def bundled(tmp_path, monkeypatch):
    """Two bundled rulesets in a folder of their own, with a cache folder of its own."""
    root = tmp_path / "rulesets"
    for name in ("kalah", "dots-and-boxes"):
        shutil.copytree(RULESETS_DIR / name, root / name)
    monkeypatch.setattr(files, "RULESETS_DIR", root)
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    return root


def _list(*args) -> tuple[str, str]:
    table, doc = meeple_cli(*args, "list", "--no-color"), meeple_cli(*args, "list", "--json")
    assert table.code == doc.code == 0, (table, doc)
    return table.out, doc.out


def _no_loading(monkeypatch):
    def refuse(*a, **kw):
        raise AssertionError("a ruleset was loaded")
    monkeypatch.setattr(interpreter, "compile_sources", refuse)


def test_list_is_the_same_cold_and_warm(bundled, tmp_path, monkeypatch):
    fresh = _list("--no-cache")
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").glob("list-*"))
    cold = _list()                       # loads each ruleset and keeps what it shows
    assert len(list((tmp_path / "cache").glob("list-*"))) == 2
    with monkeypatch.context() as m:
        _no_loading(m)
        warm = _list()
    assert fresh == cold == warm
    names = [e["name"] for e in json.loads(warm[1])["rulesets"]]
    assert names == ["dots-and-boxes", "kalah"] and "Kalah" in warm[0]


def test_list_follows_a_changed_file(bundled, monkeypatch):
    _list()
    base = bundled / "kalah" / "kalah.meeple"
    base.write_text(base.read_text(encoding="utf-8").replace('title "Kalah"', 'title "Kalah Two"'),
                    encoding="utf-8")
    (bundled / "kalah" / "variants").mkdir()
    (bundled / "kalah" / "variants" / "quick.meeple").write_text("variant quick\n", encoding="utf-8")
    table, doc = _list()
    entry = {e["name"]: e for e in json.loads(doc)["rulesets"]}["kalah"]
    assert entry["title"] == "Kalah Two" and entry["variants"] == ["quick"]
    assert "Kalah Two" in table and "quick" in table
    # a file with an error: the entry says so, the next list too (not the old entry)
    base.write_text("ruleset kalah\nnonsense here\n", encoding="utf-8")
    for _ in range(2):
        table, doc = _list()
        entry = {e["name"]: e for e in json.loads(doc)["rulesets"]}["kalah"]
        assert not entry["ok"] and entry["title"] is None and "has errors" in table
    with monkeypatch.context() as m:      # warm again: the other ruleset is not loaded
        _no_loading(m)
        assert _list() == (table, doc)


# the quick commands, in a process of their own: which heavy modules did they import?
QUICK = """
import contextlib, io, sys
from pathlib import Path
from meeple.cli import main as cli
from meeple.dsl import files
files.RULESETS_DIR = Path(sys.argv[1])
out = io.StringIO()
for args in (["--version"], ["--help"], ["list", "--help"], ["list"], ["list", "--json"]):
    sys.argv = ["meeple", *args]
    with contextlib.redirect_stdout(out):
        try:
            cli.main()
        except SystemExit as e:
            assert not e.code, (args, e.code)
print(sorted(m for m in ("meeple.interpreter", "meeple.dsl.ast", "lark", "pydantic")
             if m in sys.modules))
print("Kalah" in out.getvalue())
"""


def test_version_help_and_a_warm_list_load_neither_the_parser_nor_the_interpreter(bundled):
    _list()                               # warms the cache
    run = subprocess.run([sys.executable, "-c", QUICK, str(bundled)], capture_output=True,
                         text=True, cwd=ROOT, env=os.environ)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["[]", "True"], run.stdout


def test_version_says_whether_the_engine_is_compiled_as_the_interpreter_does():
    from meeple.cli import main as cli
    assert cli.compiled_engine() == interpreter.compiled_engine()
    compiled = " (compiled engine)" if interpreter.compiled_engine() else ""
    assert meeple_cli("--version").out == f"meeple {meeple.__version__}{compiled}\n"


# `meeple --version` alone, as the console script runs it: which modules did it import?
VERSION_ALONE = """
import sys
from meeple.cli import entry
sys.argv = ["meeple", sys.argv[1]]
entry.main()
print(sorted(m for m in ("typer", "rich", "meeple.cli.main") if m in sys.modules))
"""


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_alone_prints_the_apps_line_without_loading_the_command_line(flag):
    """``meeple --version`` on its own is answered before Typer is imported (two thirds
    of its time, docs/performance.md), with the very line of the app's option."""
    run = subprocess.run([sys.executable, "-c", VERSION_ALONE, flag], capture_output=True,
                         text=True, cwd=ROOT, env=os.environ)
    assert run.returncode == 0, run.stderr
    assert run.stdout == meeple_cli(flag).out + "[]\n"
    assert meeple_cli("--version", "list").out == meeple_cli(flag).out   # the option elsewhere


# a warm `list` on a terminal too narrow for the table, in a process of its own
NARROW = """
import contextlib, io, os, sys
from pathlib import Path
from meeple.cli import main as cli
from meeple.dsl import files
files.RULESETS_DIR = Path(sys.argv[1])
already = set(sys.argv[2:])
os.environ["COLUMNS"] = "40"
sys.argv = ["meeple", "list"]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        cli.main()
    except SystemExit as e:
        assert not e.code, e.code
print(sorted(m for m in ("json", "rich.table", "fractions", "importlib.resources", "hashlib")
             if m in sys.modules and m not in already))
print(out.getvalue())
"""


def test_a_narrow_warm_list_makes_no_table_and_writes_no_json(bundled):
    """The blocks of a terminal too narrow for the table are printed without making the
    table (rich.table, with fractions), without json (only --json needs it) and without
    hashlib (the keys of the cache are made without OpenSSL): what was imported before
    the command line (by site, e.g. a .pth file) is not counted, nor what rich's console
    brings itself (rich 14.3's imports rich.table; 15's does not)."""
    _list()                               # warms the cache
    already = subprocess.run([sys.executable, "-c",
                              "import sys, rich.console; print(*sys.modules)"],
                             capture_output=True, text=True, cwd=ROOT, env=os.environ)
    run = subprocess.run([sys.executable, "-c", NARROW, str(bundled), *already.stdout.split()],
                         capture_output=True, text=True, cwd=ROOT, env=os.environ)
    assert run.returncode == 0, run.stderr
    imported, shown = run.stdout.split("\n", 1)
    assert imported == "[]", run.stdout
    assert "kalah — Kalah\n  players  2-2\n" in shown     # the blocks, all the same
