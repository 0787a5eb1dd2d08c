"""``meeple list`` shows what it kept in the disk cache (keyed by the rulesets' files
and Meeple's code): the same output cold and warm, without loading a ruleset when warm,
and a ruleset whose file changed is loaded afresh."""
from __future__ import annotations

import json
import shutil

import pytest
from console import meeple_cli
from meeple.dsl import files
from meeple.dsl.resources import RULESETS_DIR

from meeple import interpreter


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
