"""The command line's conventions, as a modern tool has them: --version and -h, shell
completion, --json with a published schema per command, NO_COLOR and --no-color,
progress bars only on a terminal, 'meeple list' that never cuts a name, and the
documented exit codes. Every command line runs through the ``meeple`` entry point
(``cli.main.main``) with its own standard output and error."""
from __future__ import annotations

import importlib
import importlib.util
import io
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import typer
from console import Run, meeple_cli
from meeple.cli import cmd_replay, cmd_simulate, complete, jsonout, main as cli, render, schemas
from meeple.dsl.load import bundled_names, read_sources, resolve_path
from meeple.interpreter.bots import BOTS
from meeple.interpreter.play import record as records
from scale import scaled

import meeple

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "docs" / "schema"
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
LEAKY = ROOT / "tests" / "broken" / "leaky_view"
COMMANDS = cli.command_names()       # read from the app, as every list of commands
JSON_COMMANDS = cli.json_commands()   # the commands that take --json
ESC = "\x1b"


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch):
    """No colour or terminal settings from the machine running the tests."""
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS",
                 "LINES", "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    yield
    render.set_colour(True)


def forced_terminal(monkeypatch):
    """Make rich treat both outputs as a colour terminal (FORCE_COLOR, as rich reads it)."""
    monkeypatch.setenv("FORCE_COLOR", "1")


@pytest.fixture(scope="module")
def validators() -> dict:
    out = {}
    for command in JSON_COMMANDS:
        s = json.loads((SCHEMA_DIR / schemas.schema_file(command)).read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(s)
        out[command] = jsonschema.Draft202012Validator(s)
    return out


def document(result: Run, command: str, validators) -> dict:
    doc = result.json()
    validators[command].validate(doc)
    assert doc["format"] == f"meeple-{command}/1"
    return doc


def broken_cherokee(tmp_path: Path) -> Path:
    """A copy of Cherokee with a typo in a zone name (line and column known)."""
    folder = tmp_path / "mygame"
    shutil.copytree(resolve_path("cherokee"), folder)
    base = folder / "cherokee.meeple"
    base.write_text(base.read_text(encoding="utf-8").replace(
        "deal all from draw to hand", "deal all from draw to hnad"), encoding="utf-8")
    return folder


# ---------------------------------------------------------------- --version, -h

def test_version_prints_the_package_version():
    # (and says so when the engine runs compiled: MEEPLE_NATIVE=1 pip install .)
    expected = f"meeple {meeple.__version__}" \
        + (" (compiled engine)" if meeple.interpreter.compiled_engine() else "") + "\n"
    for flag in ("--version", "-V"):
        r = meeple_cli(flag)
        assert (r.code, r.out, r.err) == (0, expected, "")
    assert meeple_cli("--version", "list").out == expected  # eager


@pytest.mark.parametrize("command", [[]] + [[c] for c in COMMANDS])
def test_dash_h_is_help_everywhere(command):
    short, long = meeple_cli(*command, "-h"), meeple_cli(*command, "--help")
    assert short.code == long.code == 0
    assert short.out == long.out and "Usage: meeple" in short.out
    assert "-h, --help" in short.out


# ---------------------------------------------------------------- completion

def test_show_completion_for_bash(monkeypatch):
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")  # the shell is given
    r = meeple_cli("--show-completion", "bash")
    assert r.code == 0, r
    assert "_MEEPLE_COMPLETE=complete_bash" in r.out
    assert re.search(r"^complete .*-F _meeple_completion meeple$", r.out, re.M), r.out
    assert "--install-completion" in meeple_cli("--help").out


def completions(monkeypatch, line: str) -> list[str]:
    """What bash gets for the last word of ``line`` (typed up to its end)."""
    words = line.split(" ")
    monkeypatch.setenv("_MEEPLE_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", line)
    monkeypatch.setenv("COMP_CWORD", str(len(words) - 1))
    r = meeple_cli()
    monkeypatch.delenv("_MEEPLE_COMPLETE")
    assert r.code == 0, r
    return r.out.split()


def test_the_shell_completes_rulesets_variants_locales_and_bots(monkeypatch):
    names = bundled_names()
    cherokee = read_sources(resolve_path("cherokee"))
    assert completions(monkeypatch, "meeple play ") == names
    assert completions(monkeypatch, "meeple simulate c") == [n for n in names if n.startswith("c")]
    assert completions(monkeypatch, "meeple play cherokee --variant ") == sorted(cherokee.variants)
    assert completions(monkeypatch, "meeple simulate cherokee -l ") == sorted(cherokee.locales)
    assert completions(monkeypatch, "meeple simulate cherokee -l n") == ["nl"]
    assert completions(monkeypatch, "meeple test cherokee -v o") == ["open_clans"]
    assert completions(monkeypatch, "meeple simulate cherokee --bot ") == sorted(BOTS)
    assert completions(monkeypatch, "meeple play cherokee --bot 2=") == [f"2={b}" for b in sorted(BOTS)]
    assert completions(monkeypatch, "meeple play --resume r.json --ruleset cherokee --locale d") == ["de"]
    assert completions(monkeypatch, "meeple play nosuchgame --variant ") == []


def test_completion_functions():
    class Ctx:
        def __init__(self, params=None, args=None):
            self.params, self.args = params or {}, args or []

    variants = sorted(read_sources(resolve_path("brotherhood-of-nine")).variants)
    assert complete.rulesets("") == bundled_names() and complete.rulesets("zz") == []
    assert complete.variants(Ctx({"ruleset": "brotherhood-of-nine"}), "") == variants
    assert complete.variants(Ctx(args=["brotherhood-of-nine"]), "cap") == ["capture_the_flag"]
    assert complete.locales(Ctx({"ruleset_path": "cherokee"}), "r") == ["ru"]
    assert complete.locales(Ctx(), "") == []                      # no ruleset yet
    assert complete.locales(Ctx({"ruleset": "/dev/null"}), "") == []   # not a ruleset: nothing
    assert complete.bots("r") == ["random"]
    assert complete.seat_bots("3=f") == ["3=first"] and complete.seat_bots("x=") == []


# ---------------------------------------------------------------- --json: the schemas

@pytest.mark.parametrize("name", sorted(schemas.generated()))
def test_the_published_cli_schemas_are_up_to_date(name):
    path = SCHEMA_DIR / name
    assert path.exists(), f"{path} is missing: run `python -m meeple.cli.schemas`"
    assert path.read_text(encoding="utf-8") == schemas.generated()[name], \
        f"{path} is stale: run `python -m meeple.cli.schemas`"


def test_every_command_with_json_has_a_schema_and_every_schema_a_command():
    """The commands that write a document are read from the app (those with --json):
    each has its schema, and no schema is left of a command without --json."""
    assert "validate" in JSON_COMMANDS and "play" not in JSON_COMMANDS
    assert sorted(schemas.SCHEMAS) == sorted(JSON_COMMANDS) == sorted(schemas.commands())
    published = sorted(p.name for p in SCHEMA_DIR.glob("cli-*.schema.json"))
    assert published == sorted(schemas.schema_file(c) for c in JSON_COMMANDS)


def test_the_schema_writer(tmp_path, capsys):
    assert schemas.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"cli-{c}.schema.json" for c in JSON_COMMANDS)
    assert "cli-replay.schema.json" in capsys.readouterr().out


def test_every_json_key_is_documented():
    """Each command's schema says what each of its keys means, and docs/cli.md names them."""
    def keys(node, found):
        if isinstance(node, dict):
            for k, v in node.get("properties", {}).items():
                assert v.get("description") or v.get("oneOf"), k
                found.add(k)
            for name, v in node.items():
                if name != "if":      # the condition "ok is true" describes nothing
                    keys(v, found)
        elif isinstance(node, list):
            for v in node:
                keys(v, found)
        return found
    for command in JSON_COMMANDS:
        section = CLI_DOC.split(f"## `meeple {command}`", 1)[1].split("\n## ", 1)[0]
        for k in keys(schemas.schema(command), set()):
            assert f"`{k}`" in section, (command, k)


# ---------------------------------------------------------------- --json: the outputs

def test_validate_json_of_a_clean_ruleset(validators):
    r = meeple_cli("validate", "cherokee", "--json")
    assert r.code == 0 and r.err == "", r
    (entry,) = document(r, "validate", validators)["rulesets"]
    src = read_sources(resolve_path("cherokee"))
    assert entry["ok"] and entry["name"] == "cherokee" and entry["title"] == "Cherokee"
    assert entry["players"] == {"min": 2, "max": 4, "default": 2} and entry["diagnostics"] == []
    assert [v["name"] for v in entry["variants"]] == sorted(src.variants)
    assert {loc["name"]: loc["language"] for loc in entry["locales"]}["de"] == "Deutsch"
    assert entry["files"] == len(src.sources)


def test_validate_json_with_errors_gives_every_diagnostic(tmp_path, validators):
    folder = broken_cherokee(tmp_path)
    r = meeple_cli("validate", "cherokee", folder, tmp_path / "nope", "--json")
    assert r.code == 1, r
    doc = document(r, "validate", validators)
    assert doc["ok"] is False
    good, bad, missing = doc["rulesets"]
    assert good["ok"] and not bad["ok"] and not missing["ok"]
    (d,) = bad["diagnostics"]
    base = (folder / "cherokee.meeple").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(base, 1) if "to hnad" in text)
    assert d == {"severity": "error", "code": "check/unknown-zone",
                 "file": str(folder / "cherokee.meeple"), "line": line,
                 "column": base[line - 1].index("hnad") + 1,
                 "message": "unknown zone 'hnad'", "hint": "did you mean 'hand'?"}
    assert missing["path"] is None and missing["diagnostics"][0]["code"] == "load/io"
    assert missing["diagnostics"][0]["message"] == f"no file or folder '{tmp_path / 'nope'}'"
    assert missing["diagnostics"][0]["line"] is None
    # the text of the problems still goes to stderr: only stdout changes
    assert "error[check/unknown-zone]" in r.err and f"no file or folder '{tmp_path / 'nope'}'" in r.err


def test_list_json(validators):
    r = meeple_cli("list", "--json")
    assert r.code == 0, r
    doc = document(r, "list", validators)
    assert [e["name"] for e in doc["rulesets"]] == bundled_names()
    for e in doc["rulesets"]:
        src = read_sources(resolve_path(e["name"]))
        assert e["ok"] and e["variants"] == sorted(src.variants)
        assert e["locales"] == sorted(src.locales)


def test_simulate_json(validators):
    r = meeple_cli("simulate", "cherokee", "--games", 4, "--players", 3, "--seed", 5, "--json")
    assert r.code == 0 and r.err == "", r
    doc = document(r, "simulate", validators)
    assert doc["ok"] and doc["games"] == 4 and doc["seeds"] == {"first": 5, "last": 8}
    assert [s["seat"] for s in doc["seats"]] == [0, 1, 2]
    assert sum(s["wins"] for s in doc["seats"]) >= 4
    assert doc["turns"]["min"] <= doc["turns"]["mean"] <= doc["turns"]["max"]
    # the same games as the text output
    text = meeple_cli("simulate", "cherokee", "--games", 4, "--players", 3, "--seed", 5)
    assert f"total moves            {doc['moves']}" in text.out


TINY = """ruleset tiny
title "Tiny"
players 2..2
kind Card { value: int }
zone deck: Card hidden
zone hand: Card per player owner
deck cards into deck { Card(value: v) for v in 1..4 }
var done: bool = false
turn {
  move top(deck) to hand(active)
  move top(deck) to hand(active)
  move top(deck) to hand(active)
  choose c from items(hand(active)) as "keep"
  done = true
}
end when done
score(p) = count(c for c in items(hand(p)))
"""


def test_simulate_json_of_a_failing_game(tmp_path, validators):
    path = tmp_path / "tiny.meeple"
    path.write_text(TINY.replace("  done = true\n", "  move top(deck) to hand(active)\n" * 2
                                 + "  done = true\n"), encoding="utf-8")   # the deck runs out
    r = meeple_cli("simulate", path, "--games", 3, "--seed", 7, "--json",
                   "--records", tmp_path / "rec", "--failed-only")
    assert r.code == 1, r
    doc = document(r, "simulate", validators)
    assert doc["ok"] is False and doc["error"]["message"].startswith("game 1 (seed 7): ")
    assert doc["failed_game"]["game"] == 1 and doc["failed_game"]["seed"] == 7
    assert Path(doc["failed_game"]["record"]).exists()
    assert "error: game 1 (seed 7)" in r.err
    # the same ruleset without the bug: a finished simulation
    path.write_text(TINY, encoding="utf-8")
    assert document(meeple_cli("simulate", path, "--games", 2, "--json"), "simulate", validators)["ok"]


def test_json_errors_keep_their_exit_codes(validators):
    r = meeple_cli("simulate", "nosuchgame", "--json")                  # a file problem: 1
    assert r.code == 1 and "no ruleset 'nosuchgame'" in r.err
    doc = document(r, "simulate", validators)
    assert doc["ok"] is False and "no ruleset 'nosuchgame'" in doc["error"]["message"]
    assert doc["error"]["hint"].startswith("Bundled rulesets: ")   # the choices
    for args in (["simulate", "cherokee", "--games", 0], ["simulate", "cherokee", "--players", 9],
                 ["test", "cherokee", "--examples", 0], ["replay", "x.json", "--as", 1, "--reveal"],
                 ["simulate", "cherokee", "--games", "many"], ["list", "--bogus"],
                 ["simulate", "cherokee", "--variant", "open_clan"]):
        r = meeple_cli(*args, "--json")                                  # usage: 2, no document
        assert r.code == 2 and r.out == "" and r.err.strip(), (args, r)
    r = meeple_cli("replay", "missing.json", "--json")
    assert r.code == 1 and document(r, "replay", validators)["error"]["message"]
    r = meeple_cli("test", "nosuchgame", "--json")
    assert r.code == 1 and document(r, "test", validators)["ok"] is False


def test_test_json_when_every_check_holds(validators):
    r = meeple_cli("test", "cherokee", "--examples", 2, "--players", 2, "--variant", "open_clans",
                   "--json")
    assert r.code == 0 and r.err == "", r
    doc = document(r, "test", validators)
    assert doc["ok"] and doc["failure"] is None and doc["games"] == 2 and doc["states"] > 0
    assert doc["configurations"] == [{"players": 2, "variants": ["open_clans"], "locale": None}]
    assert doc["bound"] == {"count": 144, "unit": "turns", "default": False, "endless": False}
    assert doc["endless_games"] == doc["endless_cycles"] == 0


def test_test_json_of_a_failure(tmp_path, validators):
    out = tmp_path / "failure.json"
    r = meeple_cli("test", LEAKY, "--players", 3, "--out", out, "--json")
    assert r.code == 1, r
    doc = document(r, "test", validators)
    f = doc["failure"]
    assert doc["ok"] is False and f["check"] == "secret 'hand'"
    assert f["file"].endswith("cherokee.meeple") and f["line"] and f["column"]
    source = Path(f["file"]).read_text(encoding="utf-8").splitlines()[f["line"] - 1]
    assert source[f["column"] - 1:].startswith("hand")
    assert f["record"] == str(out) and out.exists()
    assert f["moves"] == json.loads(out.read_text(encoding="utf-8"))["moves"]
    assert "FAILED secret 'hand'" in r.err     # the report is on stderr as without --json


@pytest.fixture(scope="module")
def finished_record(tmp_path_factory) -> Path:
    rec = tmp_path_factory.mktemp("records") / "game.json"
    r = meeple_cli("play", "cherokee", "--players", 3, "--bot", "1=random", "--bot", "2=random",
                   "--bot", "3=random", "--seed", 4, "--record", rec)
    assert r.code == 0, r
    return rec


def test_replay_json_shows_what_the_text_shows(finished_record, validators, monkeypatch):
    monkeypatch.setenv("COLUMNS", "500")   # one text line per move
    r = meeple_cli("replay", finished_record, "--json")
    assert r.code == 0 and r.err == "", r
    doc = document(r, "replay", validators)
    rec = json.loads(finished_record.read_text(encoding="utf-8"))
    assert doc["over"] and doc["seed"] == 4 and doc["to_move"] is None
    assert doc["result"] == rec["result"] and doc["move_count"] == len(rec["moves"])
    assert doc["seen_by"] == "spectator" and doc["players"] == ["Player 1", "Player 2", "Player 3"]
    # each move as a spectator reads it in the text replay: a hidden card is never named
    text = meeple_cli("replay", finished_record).out
    shown = [f"{m['player']}: {m['notation']} — {m['text']}" for m in doc["moves"]]
    moves_part = text.split("\n\n", 1)[0]     # the header and the moves, before the final board
    assert shown == [line for line in moves_part.splitlines() if re.match(r"Player \d: ", line)]
    assert len(shown) == len(rec["moves"])
    as_two = document(meeple_cli("replay", finished_record, "--as", 2, "--quiet", "--json"),
                      "replay", validators)
    assert as_two["seen_by"] == 1 and as_two["moves"] == []


def test_replay_json_of_an_unfinished_game_keeps_the_seed_secret(tmp_path, validators):
    rec = tmp_path / "half.json"
    r = meeple_cli("play", "cherokee", "--players", 2, "--bot", "2=random", "--seed", 11,
                   "--record", rec, typed="1\n1\nquit\n")
    assert r.code == 0, r
    doc = document(meeple_cli("replay", rec, "--json"), "replay", validators)
    assert doc["over"] is False and doc["result"] is None and doc["seed"] is None
    assert doc["to_move"] in (0, 1)
    revealed = document(meeple_cli("replay", rec, "--reveal", "--unfinished", "--json"),
                        "replay", validators)
    assert revealed["seed"] == 11 and revealed["seen_by"] == "everything"


def test_json_text_is_printed_literally(tmp_path, validators):
    path = tmp_path / "odd.meeple"
    path.write_text(TINY.replace('title "Tiny"', 'title "Ti\u202eny\u0085"'), encoding="utf-8")
    r = meeple_cli("validate", path, "--json")
    assert r.code == 0, r
    assert "\u202e" not in r.out and "\u0085" not in r.out and "\\u202e" in r.out
    assert document(r, "validate", validators)["rulesets"][0]["title"] == "Ti\u202eny\u0085"
    assert jsonout.dumps({"t": "\x1b[2J\u2028"}) == '{\n  "t": "\\u001b[2J\\u2028"\n}'


# ---------------------------------------------------------------- colour

def plain_text(out: str) -> str:
    """The text without styles, spacing, nor the speed of a simulation."""
    return re.sub(r"gamespersecond[\d.]+", "", re.sub(r"\s|\x1b\[[0-9;]*m", "", out))


STYLED = [["list"], ["validate", "cherokee"], ["simulate", "cherokee", "--games", 2, "--quiet"]]


@pytest.mark.parametrize("args", STYLED, ids=lambda a: a[0])
def test_no_color_and_NO_COLOR_leave_no_escape_on_a_terminal(args, monkeypatch, tmp_path):
    forced_terminal(monkeypatch)
    coloured = meeple_cli(*args)
    assert coloured.code == 0 and ESC in coloured.out       # the styles are there by default
    for run in (lambda: meeple_cli("--no-color", *args), lambda: meeple_cli(*args, "--no-color")):
        r = run()
        assert r.code == 0 and ESC not in r.out + r.err, r
        assert plain_text(r.out) == plain_text(coloured.out)
    monkeypatch.setenv("NO_COLOR", "1")
    r = meeple_cli(*args)
    assert r.code == 0 and ESC not in r.out + r.err, r
    monkeypatch.setenv("NO_COLOR", "")     # empty: not set (no-color.org)
    assert ESC in meeple_cli(*args).out


def test_errors_on_stderr_have_no_colour_either(monkeypatch, tmp_path):
    forced_terminal(monkeypatch)
    folder = broken_cherokee(tmp_path)
    assert ESC in meeple_cli("validate", folder).err
    r = meeple_cli("validate", folder, "--no-color")
    assert r.code == 1 and "error[check/unknown-zone]" in r.err and ESC not in r.err
    monkeypatch.setenv("NO_COLOR", "yes")
    r = meeple_cli("simulate", "nosuchgame")
    assert r.code == 1 and "error: no ruleset" in r.err and ESC not in r.err


def test_the_console_without_colour(monkeypatch):
    from rich.text import Text

    def shown() -> str:
        c = render.console(file=io.StringIO(), force_terminal=True)
        c.print(Text("x", style="bold red"))
        return c.file.getvalue()
    assert ESC in shown()
    render.set_colour(False)
    assert shown() == "x\n"
    render.set_colour(True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert shown() == "x\n"


def test_a_later_command_line_has_its_colour_back(monkeypatch):
    forced_terminal(monkeypatch)
    assert ESC not in meeple_cli("--no-color", "list").out
    assert ESC in meeple_cli("list").out


# ---------------------------------------------------------------- progress

def test_progress_only_on_a_terminal(monkeypatch):
    args = ("simulate", "cherokee", "--games", 3)
    plain = meeple_cli(*args)
    assert plain.code == 0 and plain.err == "" and ESC not in plain.out
    forced_terminal(monkeypatch)
    shown = meeple_cli(*args)
    assert shown.code == 0 and "simulating" in shown.err and "3/3" in shown.err
    assert "simulating" not in shown.out
    assert "\x1b[2K" in shown.err or "\x1b[1A" in shown.err   # erased at the end (transient)
    quiet = meeple_cli(*args, "--quiet")
    assert "simulating" not in quiet.err
    as_json = meeple_cli(*args, "--json")
    assert "simulating" in as_json.err and as_json.json()["games"] == 3  # stdout stays clean


def test_progress_of_test_and_replay(monkeypatch, finished_record):
    r = meeple_cli("test", "cherokee", "--examples", 2, "--players", 2, "--variant", "open_clans")
    assert r.code == 0 and r.err == "", r
    monkeypatch.setattr(cmd_replay, "REPLAY_PROGRESS_MOVES", 1)
    assert meeple_cli("replay", finished_record, "--quiet").err == ""
    forced_terminal(monkeypatch)
    r = meeple_cli("test", "cherokee", "--examples", 2, "--players", 2, "--variant", "open_clans")
    assert r.code == 0 and "states" in r.err and "states checked" in r.out, r
    r = meeple_cli("replay", finished_record)
    assert r.code == 0 and "replaying" in r.err and "replaying" not in r.out
    monkeypatch.setattr(cmd_replay, "REPLAY_PROGRESS_MOVES", 10_000)     # a short record: no bar
    assert "replaying" not in meeple_cli("replay", finished_record).err


# ---------------------------------------------------------------- meeple list

def whole_words(text: str) -> set[str]:
    return set(re.findall(r"[\w-]+", text))


@pytest.mark.parametrize("width", [80, 40])
def test_list_never_cuts_a_name(width, monkeypatch):
    monkeypatch.setenv("COLUMNS", str(width))
    r = meeple_cli("list")
    assert r.code == 0 and "…" not in r.out, r
    assert max(len(line) for line in r.out.splitlines()) <= width
    words = whole_words(r.out)
    for name in bundled_names():
        src = read_sources(resolve_path(name))
        for word in [name, *src.variants, *src.locales]:
            assert word in words, (word, r.out)


def test_list_is_a_table_when_it_fits(monkeypatch):
    """A table exactly when the terminal is as wide as the table or wider (one column
    less: the blocks), the same table at any such width."""
    monkeypatch.setenv("COLUMNS", "200")
    wide = meeple_cli("list").out
    assert "┃ Name" in wide and "…" not in wide
    natural = max(len(line) for line in wide.splitlines())
    monkeypatch.setenv("COLUMNS", str(natural))
    assert meeple_cli("list").out == wide
    for width in (natural - 1, 80):
        monkeypatch.setenv("COLUMNS", str(width))
        assert "┃ Name" not in meeple_cli("list").out


# ---------------------------------------------------------------- exit codes

@pytest.mark.parametrize("args", [
    [], ["nosuchcommand"], ["list", "--bogus"], ["validate"], ["play", "cherokee", "--players", "x"],
    ["simulate"], ["simulate", "cherokee", "--games", 0], ["test", "cherokee", "--examples", 0],
    ["replay"], ["replay", "r.json", "--unfinished"], ["--no-color", "--nope"],
])
def test_usage_errors_exit_2(args):
    r = meeple_cli(*args)
    assert r.code == 2 and r.err.strip(), r


@pytest.mark.parametrize("args", [
    ["validate", "nope"], ["simulate", "nope"], ["test", "nope"], ["replay", "nope.json"],
    ["play", "nope"],
])
def test_a_missing_file_or_ruleset_exits_1(args):
    r = meeple_cli(*args)
    assert r.code == 1 and "error: " in r.err, r


def test_ctrl_c_during_long_work_exits_130(monkeypatch, finished_record):
    from meeple.interpreter import bots

    class Interrupting:
        def __init__(self, seed: int = 0):
            pass

        def choose(self, view, moves):
            raise KeyboardInterrupt

    monkeypatch.setitem(bots.BOTS, "first", Interrupting)    # in this process: --jobs 1
    r = meeple_cli("simulate", "cherokee", "--bot", "first", "--json", "--jobs", 1)
    assert r.code == 130 and r.out == "" and "interrupted" in r.err, r

    def interrupted(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(records, "replay", interrupted)
    r = meeple_cli("replay", finished_record, "--json")
    assert r.code == 130 and r.out == "" and "interrupted" in r.err, r
    monkeypatch.setattr(cmd_simulate, "load", interrupted)   # anywhere else: still 130
    assert meeple_cli("simulate", "cherokee").code == 130


def test_click_abort_after_ctrl_c_is_130_and_other_aborts_1(monkeypatch):
    """click turns Ctrl-C (and an end of input in its prompts) into Abort."""
    def aborting(cause: BaseException):
        def app(**kw):
            try:
                raise cause
            except BaseException:  # noqa: BLE001 - as click does: Abort in the cause's context
                raise typer.Abort()  # noqa: B904 - the context is what is tested
        return app
    monkeypatch.setattr(cli, "app", aborting(KeyboardInterrupt()))
    r = meeple_cli("list")
    assert r.code == 130 and "interrupted" in r.err
    monkeypatch.setattr(cli, "app", aborting(EOFError()))
    r = meeple_cli("list")
    assert r.code == 1 and "Aborted!" in r.err


# ---------------------------------------------------------------- docs

def _all_options() -> dict[str, list[str]]:
    group = typer.main.get_command(cli.app)
    out = {"": [o for p in group.params for o in p.opts + p.secondary_opts if o.startswith("--")]}
    for name, command in group.commands.items():   # (secondary: --no-native of --native/--no-native)
        out[name] = [o for p in command.params for o in p.opts + p.secondary_opts if o.startswith("--")]
    return out


def test_one_module_per_command_each_registered_the_same_way():
    """Each command is a module cli/cmd_NAME.py that names its command and defines it as
    ``command``; the app is assembled in cli/main.py only, from those modules."""
    modules = sorted(p.stem for p in (ROOT / "cli").glob("cmd_*.py"))
    assert sorted(cli.COMMANDS) == modules
    # each module is imported when its command is first needed (--version needs none)
    commands = [importlib.import_module(f"meeple.cli.{m}") for m in cli.COMMANDS]
    assert [m.NAME for m in commands] == COMMANDS
    group = typer.main.get_command(cli.app)
    for m in commands:
        assert m.__name__.endswith(f".cmd_{m.NAME}")
        assert group.commands[m.NAME].callback.__wrapped__ is m.command   # typer's wrapper
    for path in (ROOT / "cli").glob("*.py"):
        if path.name != "main.py":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"\.command\(|typer\.Typer\(|\.callback\(", text), path


# every command's --help, in a process of its own: which heavy modules did it import?
HELPS = """
import contextlib, io, sys
from meeple.cli import main as cli
heavy = ("meeple.interpreter.", "meeple.dsl.ast", "meeple.dsl.parse", "lark", "pydantic",
         "rich", "meeple.cli.render", "hashlib", "pickle")
for name in cli.COMMANDS:
    sys.argv = ["meeple", name.removeprefix("cmd_"), "--help"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            cli.main()
        except SystemExit as e:
            assert not e.code, (name, e.code)
    assert "Usage:" in out.getvalue(), name
    print(name, sorted(m for m in sys.modules if m.startswith(heavy)))
"""


def test_a_commands_help_loads_neither_the_interpreter_nor_the_parser_nor_rich():
    """``meeple <command> --help`` builds the command from its module, which imports the
    interpreter (its engines, the game, the bots), the parser, rich (what draws the
    output: ``render``) and the cache's hashing and pickles only where the command runs,
    so that the help comes quickly (docs/performance.md)."""
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", HELPS], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    loaded = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert sorted(loaded) == sorted(cli.COMMANDS)
    assert set(loaded.values()) == {"[]"}, loaded


def test_the_help_of_bot_names_the_bots_there_are(monkeypatch):
    """--bot's help names the bots read from the bots' source without importing it: the
    names of BOTS, and the same when that source is not at hand (an installed copy
    compiled without it)."""
    from meeple.cli import options
    assert options.bot_names() == ", ".join(sorted(BOTS))
    for cmd in ("play", "simulate"):
        assert all(name in meeple_cli(cmd, "--help").out for name in BOTS), cmd
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)   # no source
    assert options.bot_names() == ", ".join(sorted(BOTS))


def test_the_main_help_lists_the_commands_as_built():
    """``meeple --help`` lists the commands from their docstrings read without importing
    their modules: the same text as from the commands built."""
    shown = meeple_cli("--help").out
    group = typer.main.get_command(cli.app)
    for name, command in group.commands.items():       # every command built
        assert group.commands.outline(name) is command
    with group.make_context("meeple", ["--no-color"]) as ctx:
        assert shown == group.get_help(ctx) + "\n"
    assert all(f"  {name}  " in shown for name in COMMANDS)
    fresh = typer.main.get_command(cli.app)             # none built: the outlines
    for name, command in group.commands.items():
        assert fresh.commands.outline(name).get_short_help_str(80) == \
            command.get_short_help_str(80)


def test_the_main_help_parses_only_each_commands_head(monkeypatch):
    # (parsing each command's whole module was a quarter of `meeple --help`)
    import ast
    parsed, parse = [], ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *a, **kw: parsed.append(text) or parse(text, *a, **kw))
    fresh = typer.main.get_command(cli.app)              # none built: the outlines
    helps = [fresh.commands.outline(name).help for name in COMMANDS]
    assert all(helps) and len(parsed) == len(COMMANDS)
    assert all(text.startswith("def command(") and text.endswith('"""') for text in parsed)


def test_docs_name_every_option_of_every_command():
    options = _all_options()
    assert sorted(options) == sorted([""] + COMMANDS)
    assert {"validate", "play", "simulate", "replay", "test", "arena"} <= set(COMMANDS)
    for command, opts in options.items():
        if command:
            section = CLI_DOC.split(f"## `meeple {command}`", 1)[1].split("\n## ", 1)[0]
        else:
            section = CLI_DOC.split("\n## ", 1)[0] + CLI_DOC.split("## Conventions", 1)[1]
        for opt in opts:
            assert re.search(rf"(?<![\w-]){opt}(?![\w-])", section), (command, opt)


def test_docs_give_the_exit_codes_and_trust_links_them():
    for code, words in [(0, "ok"), (1, "file"), (2, "usage"), (130, "Ctrl-C")]:
        assert re.search(rf"^\| `{code}` \|.*{words}", CLI_DOC, re.M | re.I), code
    trust = (ROOT / "docs" / "trust.md").read_text(encoding="utf-8")
    assert "cli.md#exit-codes" in trust


# ---------------------------------------------------------------- --json under odd command lines

JSON_OPTIONS = {
    "validate": [["--budget", "steps=0"], ["--budget", "x"]],
    "list": [],
    "simulate": [["--games", "1"], ["--games", "0"], ["--players", "9"], ["--variant", "open_clans"],
                 ["--variant", "nope"], ["--locale", "de"], ["--bot", "first"], ["--bot", "x"],
                 ["--max-moves", "5"], ["--seed", "-3"], ["--budget", "steps=10"]],
    "test": [["--examples", "1"], ["--players", "2"], ["--players", "9"], ["--variant", "nope"],
             ["--budget", "steps=10"]],
    "perft": [["--depth", "1"], ["--depth", "0"], ["--players", "9"], ["--variant", "nope"],
              ["--after", "chase r1c1"], ["--after", "x"], ["--divide"], ["--seed", "-3"],
              ["--budget", "steps=10"]],
    "replay": [["--as", "1"], ["--as", "9"], ["--reveal"], ["--unfinished"], ["--quiet"],
               ["--ruleset", "cherokee"]],
}
TARGETS = {"validate": ["cherokee", "nope", "/dev/null", "tests/broken/leaky_view"],
           "list": [], "simulate": ["cherokee", "nope", "/dev/null"],
           "test": ["nope", "/dev/null"], "perft": ["cherokee", "nope", "/dev/null"], "replay": ["RECORD", "nope.json", "/dev/null"]}


def test_json_command_lines_give_one_valid_document_or_a_usage_error(finished_record, validators):
    """Whatever the options: exit 0 or 1 with exactly one valid document on stdout, or
    exit 2 with nothing on stdout."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    @st.composite
    def lines(draw):
        command = draw(st.sampled_from(sorted(JSON_OPTIONS)))
        args = [command]
        if TARGETS[command]:
            target = draw(st.sampled_from(TARGETS[command]))
            args.append(str(finished_record) if target == "RECORD" else target)
        if command == "test" and "--examples" not in args:
            args += ["--examples", "1", "--players", "2"]
        if command == "simulate":
            args += ["--games", "1"]
        for opt in draw(st.lists(st.sampled_from(JSON_OPTIONS[command] or [[]]), max_size=3)):
            args += opt
        return args + ["--json"]

    @settings(max_examples=scaled(25, 10), deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(args=lines())
    def check(args):
        r = meeple_cli(*args)
        assert r.code in (0, 1, 2), (args, r)
        if r.code == 2:
            assert r.out == "" and r.err.strip(), (args, r)
            return
        doc = document(r, args[0], validators)
        assert doc["ok"] is (r.code == 0), (args, r)
        if r.code == 1:
            assert r.err.strip(), (args, r)
    check()


def test_bots_json_lists_every_bot_with_its_options(validators):
    r = meeple_cli("bots", "--json")
    assert r.code == 0 and r.err == "", r
    bots = {b["name"]: b for b in document(r, "bots", validators)["bots"]}
    assert sorted(bots) == ["first", "greedy", "ismcts", "mcts", "random"]
    options = {o["name"]: o for o in bots["mcts"]["options"]}
    assert sorted(options) == ["c", "cutoff", "heuristic", "iterations", "rollout", "scale", "time"]
    assert options["c"] == {"name": "c", "type": "float", "default": 1.4,
                            "help": "exploration constant of UCB1"}
    assert bots["random"]["options"] == []


def test_bot_options_complete():
    assert complete.bots("mcts:") == ["mcts:c=", "mcts:cutoff=", "mcts:heuristic=", "mcts:iterations=",
                                      "mcts:rollout=", "mcts:scale=", "mcts:time="]
    assert complete.bots("ismcts:iterations=9,t") == ["ismcts:iterations=9,time="]
    assert complete.seat_bots("2=greedy:s") == ["2=greedy:samples=", "2=greedy:scale="]
    assert complete.bots("random:") == [] and complete.bots("nobot:") == []
