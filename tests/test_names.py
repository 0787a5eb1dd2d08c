"""Names and paths (issue 10): a bare name is a bundled ruleset, a path a file or folder;
when a bare name could mean both, Meeple says which it used; unknown names, variants and
locales list the choices."""
from __future__ import annotations

import shutil

import pytest
from meeple.cli.main import app
from meeple.dsl import load as dsl_load
from meeple.dsl.errors import MeepleError
from typer.testing import CliRunner

from meeple import interpreter

runner = CliRunner()
BUNDLED = dsl_load.bundled_names()
NAME = BUNDLED[0]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def copy_of_bundled(folder):
    shutil.copytree(dsl_load.RULESETS_DIR / NAME, folder)
    return folder


@pytest.mark.parametrize("arg, path_like", [
    ("cherokee", False), ("my-game", False), ("./cherokee", True), ("rulesets/x", True),
    (".", True), ("..", True), ("~/games/x", True), ("game.meeple", True), ("/abs/x", True),
])
def test_what_looks_like_a_path(arg, path_like):
    assert dsl_load.looks_like_path(arg) is path_like


def test_a_bare_bundled_name_is_the_bundled_ruleset_even_with_a_folder_of_that_name_here(here):
    (here / NAME).mkdir()                       # an unrelated folder named like the game
    found = dsl_load.resolve(NAME)
    assert found.bundled and found.path == dsl_load.RULESETS_DIR / NAME
    assert f"write ./{NAME}" in found.note
    r = run("validate", NAME)
    assert r.exit_code == 0, r.output
    assert f"note: '{NAME}' is the bundled ruleset; for the folder of that name here, " \
           f"write ./{NAME}" in r.output


def test_no_note_when_the_name_is_only_bundled(here):
    found = dsl_load.resolve(NAME)
    assert found.bundled and found.note is None
    assert "note:" not in run("validate", NAME).output


def test_a_path_means_the_local_folder_not_the_bundled_one(here):
    (here / NAME).mkdir()                        # empty: not a ruleset
    found = dsl_load.resolve(f"./{NAME}")
    assert not found.bundled and found.path.resolve() == (here / NAME).resolve()
    r = run("validate", f"./{NAME}")
    assert r.exit_code == 1 and "load/io" in r.output      # it read the empty folder


def test_a_bare_name_that_is_not_bundled_but_exists_here_is_that_folder(here):
    copy_of_bundled(here / "my-copy")
    found = dsl_load.resolve("my-copy")
    assert not found.bundled and found.note is None
    r = run("validate", "my-copy")
    assert r.exit_code == 0 and "ok my-copy" in r.output, r.output


def test_an_unknown_name_lists_the_bundled_rulesets(here):
    r = run("play", NAME + "x")
    assert r.exit_code == 1
    assert f"error: no ruleset '{NAME}x': not a bundled ruleset, nor a file or folder here" in r.output
    assert f"did you mean '{NAME}'?" in r.output
    assert "Bundled rulesets: " + ", ".join(BUNDLED) in r.output
    with pytest.raises(dsl_load.NoRuleset) as e:
        interpreter.load(NAME + "x")
    assert e.value.hint.endswith(", ".join(BUNDLED))


def test_a_missing_path_says_no_file_or_folder(here):
    r = run("simulate", f"./{NAME}", "--games", 1)
    assert r.exit_code == 1 and f"error: no file or folder './{NAME}'" in r.output
    assert "Bundled rulesets" not in r.output


def test_an_unknown_variant_lists_the_variants_and_is_a_usage_error():
    src = dsl_load.read_sources(dsl_load.resolve_path("cherokee"))
    variants = sorted(src.variants)
    r = run("play", "cherokee", "--variant", "nope", "--players", 2)
    assert r.exit_code == 2, r.output
    assert "cherokee has no variant 'nope'" in r.output
    assert "The variants of cherokee: " + ", ".join(variants) in r.output
    assert ":1:1" not in r.output and " | " not in r.output    # no line of the file pointed at


def test_an_unknown_locale_lists_the_locales_with_a_suggestion():
    src = dsl_load.read_sources(dsl_load.resolve_path("cherokee"))
    r = run("simulate", "cherokee", "--locale", "dee", "--games", 1)
    assert r.exit_code == 2, r.output
    assert "cherokee has no locale 'dee'" in r.output
    assert "did you mean 'de'? The locales of cherokee: " + ", ".join(sorted(src.locales)) in r.output


def test_the_api_raises_the_same_listing():
    with pytest.raises(MeepleError) as e:
        interpreter.load("cherokee", variants=["nope"])
    (d,) = e.value.diagnostics
    assert d.code == "load/unknown-variant" and d.span.line == 0
    assert d.hint.startswith("The variants of cherokee: ")


def test_a_record_naming_an_unknown_variant_is_a_problem_with_the_file(here):
    import json
    r = run("play", "cherokee", "--players", 2, "--bot", "1=random", "--bot", "2=random",
            "--seed", 3, "--record", "game.json")
    assert r.exit_code == 0, r.output
    data = json.loads((here / "game.json").read_text())
    data["variants"] = ["nope"]
    (here / "game.json").write_text(json.dumps(data))
    r = run("replay", "game.json")
    assert r.exit_code == 1, r.output
    assert "cherokee has no variant 'nope'" in r.output and "The variants of cherokee" in r.output
