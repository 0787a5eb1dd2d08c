"""The documentation site (mkdocs.yml, mkdocs-material): it builds with --strict (every
link and anchor resolves), has a page per part of the docs and per bundled game, and
highlights Meeple code with Meeple's own Pygments lexer."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from meeple.dsl.load import SourceSet, add_text

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("material", reason="the site needs mkdocs-material (pip install 'meeple[docs]')")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def test_every_page_is_built(site):
    for page in ("index.html", "tutorial/index.html", "language/index.html", "cli/index.html",
                 "api/index.html", "editors/index.html", "trust/index.html",
                 "performance/index.html"):
        assert (site / page).is_file(), page
    bundled = sorted(p.name for p in (ROOT / "rulesets").iterdir() if p.is_dir())
    for name in bundled:
        assert (site / "rulesets" / name / "index.html").is_file(), name
        # its rulebook, generated from the ruleset when the site is built
        page = (site / "rulesets" / f"{name}-rulebook" / "index.html").read_text(encoding="utf-8")
        assert "the rulebook" in page and 'id="components"' in page and 'id="vocabulary"' in page, name


def test_meeple_code_is_highlighted(site):
    html = (site / "tutorial" / "index.html").read_text(encoding="utf-8")
    # `ruleset` is a declaration keyword, `pig_first` a name: Pygments' classes kd and n
    assert re.search(r'<span class="kd">ruleset</span><span class="w"> </span>'
                     r'<span class="n">pig_first</span>', html)
    assert '<span class="nb">sum</span>' in (site / "language" / "index.html").read_text(encoding="utf-8")


def test_the_home_page_example_is_a_ruleset_that_plays():
    text = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```meeple\n(.*?)```", text, re.S)
    src = SourceSet()
    add_text(src, "index.meeple", code)
    prog = interpreter.compile_sources(src).for_players(2)
    game = prog.new_game(2, 1)
    while not game.over:
        game.apply(0)   # always `roll`: the turn limit ends the game
    assert game.result["scores"] == [0, 0]
