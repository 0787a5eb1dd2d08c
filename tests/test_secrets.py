"""Secrets at the terminal: the seed, bots' randomness, hot-seat hand-overs, piped
output, literal ruleset/user text, Ctrl-C and whatever is typed at a prompt."""
from __future__ import annotations

import builtins
import io
import json
import re
import secrets
import tomllib
from pathlib import Path
from unittest import mock

import meeple.cli.main  # noqa: F401 - loads cli.main for the attributes below
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from meeple.cli import entry, render
from meeple.cli.main import app
from meeple.cli.play import HUMAN, PlaySession, Quit
from meeple.interpreter.analysis import simulation
from meeple.interpreter.bots import bot_seed
from meeple.interpreter.play import display, record
from typer.testing import CliRunner

from meeple import cli, interpreter

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "dumb"}   # an output that says it is a terminal

TINY = """\
ruleset tiny
title "Tiny"
players 2..2
enum Color { red, blue }
kind Card { color: Color, value: int }
zone deck: Card hidden
zone hand: Card per player owner
zone table: Card public
deck cards into deck {
  Card(color: c, value: v) for c in Color for v in 1..6
}
setup {
  shuffle deck
  deal 2 from deck to hand
}
turn {
  choose first from items(hand(active)) as "play"
  move first to table
  move top(deck) to hand(active)
}
end when empty(deck)
score(p) = count(c for c in items(table) if c.color == red)
"""

# a public game whose every text tries to act on the terminal
NASTY = r"""
ruleset nasty
title "T\u001b[2J [bold]x[/] :100: \u202eevil"
players 2..2
enum Color { red, blue, green }
kind Card { color: Color }
zone table: Card public
zone pile: Card public
deck cards into pile { Card(color: c) for c in Color }
turn {
  choose c from items(pile) as "take"
  move c to table
  log took "{active} took \u001b[31m [red]r[/] :100: \u202e\u0007\u000d\u0008\u0000\u009b"
}
end when empty(pile)
score(p) = 0
name Color.red "R\u001b[2J[bold]x[/]:100:\u202e" "r\u001b[5m"
name table "tab\u001b]0;pwned\u0007"
text player "P\u001b[2J [bold]{n}[/] :100: \u2066"
text take "Pick\u001b[2J [bold]one[/] :100:"
"""

UNSAFE = ["\x1b", "\u202e", "\u2066", "\x07", "\r", "\x08", "\x00", "\x9b", "\U0001f4af"]


def run(*args, input=None, env=None):
    result = runner.invoke(app, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def prog():
    return interpreter.load("cherokee")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("rulesets")
    (d / "tiny.meeple").write_text(TINY)
    (d / "nasty.meeple").write_text(NASTY)
    return d


def labels(prog, items) -> set[str]:
    out = set()
    for i in items:
        out |= {display.item_label(prog, i), display.item_label(prog, i, True),
                prog.items[i].notation}
    return out


def hand(prog, game, seat) -> list[int]:
    return list(game.state["zones"][prog.zone_index["hand"] + seat])


def seed_where_seat_starts(prog, players: int, seat: int) -> int:
    return next(s for s in range(1000) if prog.new_game(players, s).active_player == seat)


# ---------------------------------------------------------------- hidden information

def test_hidden_information_says_whether_anything_can_be_hidden(files, prog):
    assert prog.hidden_information and prog.for_players(3).hidden_information
    assert interpreter.load("clans-and-glory").hidden_information
    assert interpreter.load(str(files / "tiny.meeple")).hidden_information
    public = interpreter.load(str(files / "nasty.meeple"))
    assert not public.hidden_information
    face_down = files / "facedown.meeple"
    face_down.write_text(NASTY.replace("  move c to table\n", "  move c to table face down\n"))
    assert interpreter.load(str(face_down)).hidden_information
    secret = files / "secret.meeple"
    secret.write_text(NASTY + "secret pile\n")
    assert interpreter.load(str(secret)).hidden_information


# ---------------------------------------------------------------- seeds

def test_bot_seeds_are_hashes_of_the_game_seed(files):
    a = bot_seed(7, 0, 1)
    assert a == bot_seed(7, 0, 1) and a.bit_length() > 200          # deterministic, wide
    others = {bot_seed(7, 0, 0), bot_seed(7, 1, 1), bot_seed(8, 0, 1), bot_seed(6, 1, 1)}
    assert a not in others and len(others) == 4
    # no arithmetic relation to the seed that would let a bot's moves give it away
    assert bot_seed(8, 0, 1) - bot_seed(8, 0, 0) != bot_seed(7, 0, 1) - bot_seed(7, 0, 0)
    assert a != (7 + 0) * 1000 + 1


def test_simulate_seeds_each_bot_with_bot_seed(monkeypatch):
    calls = []

    def recording(seed, game, seat):
        calls.append((seed, game, seat))
        return bot_seed(seed, game, seat)

    # the games are played by meeple.interpreter.simulation (in this process: --jobs 1)
    monkeypatch.setattr(simulation, "bot_seed", recording)
    r1 = run("simulate", "cherokee", "--games", 2, "--players", 3, "--seed", 5, "--quiet",
             "--jobs", 1)
    assert r1.exit_code == 0, r1.output
    assert calls == [(5, g, s) for g in range(2) for s in range(3)]
    r2 = run("simulate", "cherokee", "--games", 2, "--players", 3, "--seed", 5, "--quiet")
    strip = lambda out: re.sub(r"games per second.*", "", out)  # noqa: E731
    assert strip(r1.output) == strip(r2.output)                     # same seed, same numbers


def test_default_seed_is_64_os_bits_shown_only_when_the_game_is_over(monkeypatch, tmp_path):
    secret_seed = 0xC0FFEE_1234_5678_9A
    asked = []

    def randbits(k):
        asked.append(k)
        return secret_seed

    monkeypatch.setattr(secrets, "randbits", randbits)
    rec = tmp_path / "g.json"
    r = run("play", "cherokee", "--players", 3, "--bot", "1=random", "--bot", "2=random",
            "--bot", "3=random", "--record", rec)
    assert r.exit_code == 0, r.output
    assert asked and asked[0] >= 64
    during, after = r.output.split("Game over")
    assert str(secret_seed) not in during
    assert f"Seed: {secret_seed}" in after
    assert json.loads(rec.read_text())["seed"] == secret_seed
    # the same seed given back plays the same game, and may be shown from the start
    rec2 = tmp_path / "g2.json"
    r2 = run("play", "cherokee", "--players", 3, "--bot", "1=random", "--bot", "2=random",
             "--bot", "3=random", "--record", rec2, "--seed", secret_seed)
    assert f"seed {secret_seed}" in r2.output.split("Game over")[0]
    assert json.loads(rec2.read_text())["moves"] == json.loads(rec.read_text())["moves"]


def test_a_quit_game_shows_no_random_seed_not_even_in_the_file_name(monkeypatch, tmp_path,
                                                                    prog):
    monkeypatch.chdir(tmp_path)
    secret_seed = 987654321987654321
    monkeypatch.setattr(secrets, "randbits", lambda k: secret_seed)
    r = run("play", "cherokee", "--bot", "2=random", input="quit\n")
    assert r.exit_code == 0, r.output
    assert str(secret_seed) not in r.output
    saved = list(tmp_path.glob("meeple-cherokee-*.json"))
    assert len(saved) == 1 and str(secret_seed) not in saved[0].name
    assert json.loads(saved[0].read_text())["seed"] == secret_seed


# ---------------------------------------------------------------- hot seat

def test_commands_and_quit_at_the_handover_show_no_hand(tmp_path, prog):
    seed = seed_where_seat_starts(prog, 2, 0)
    game = prog.new_game(2, seed)
    k = 0
    while game.active_player == 0:
        game.apply(0)
        k += 1
    secret2 = labels(prog, hand(prog, game, 1))
    rec = tmp_path / "h.json"
    attempts = ["board", "help", "undo", "1", "moves", "show", "?"]
    r = run("play", "cherokee", "--players", 2, "--seed", seed, "--record", rec, env=TERMINAL,
            input="\n" + "1\n" * k + "\n".join(attempts) + "\nquit\n")
    assert r.exit_code == 0, r.output
    after = r.output.split("Pass the terminal to Player 2")[1]
    assert after.count("Only Player 2 may see what comes next") == len(attempts)
    assert "Game stopped" in after
    assert not [s for s in secret2 if s in r.output], "player 2's hand was shown"
    assert "Choose" not in after and "Commands" not in after          # nothing was drawn
    assert len(json.loads(rec.read_text())["moves"]) == k


@pytest.mark.parametrize("players,bots", [(2, []), (3, ["--bot", "3=random"]), (4, [])])
def test_piped_hot_seat_of_a_hidden_game_is_refused_and_shows_no_hand(prog, players, bots):
    seed = 3
    r = run("play", "cherokee", "--players", players, "--seed", seed, *bots, input="\n1\n" * 5)
    assert r.exit_code == 2, r.output
    assert "not a terminal" in r.output and "--bot 2=random" in r.output
    game = prog.new_game(players, seed)
    for seat in range(players):
        assert not [s for s in labels(prog, hand(prog, game, seat)) if s in r.output]


def test_piped_public_game_with_two_humans_is_allowed(files):
    r = run("play", files / "nasty.meeple", "--seed", 1, input="\n1\n" * 5)
    assert r.exit_code == 0, r.output
    assert "Game over" in r.output


def test_one_human_against_a_bot_piped_shows_only_the_humans_hand(tmp_path, prog):
    seed = seed_where_seat_starts(prog, 2, 0)
    rec = tmp_path / "one.json"
    r = run("play", "cherokee", "--players", 2, "--bot", "2=random", "--seed", seed,
            "--record", rec, input="1\n" * 30 + "quit\n")
    assert r.exit_code == 0, r.output
    game = record.replay(prog, record.load(rec))
    # cherokee hands only shrink after the deal: what the bot still holds, it held all along
    bot_hand = hand(prog, game, 1)
    assert bot_hand and len(json.loads(rec.read_text())["moves"]) > 10
    assert not [s for s in labels(prog, bot_hand) if s in r.output]
    short = {display.item_label(prog, i, True) for i in hand(prog, game, 0)}
    assert short and all(s in r.output for s in short)   # the check can see a hand


# ---------------------------------------------------------------- literal text

def test_ruleset_and_typed_text_is_printed_literally(files, tmp_path):
    rec = tmp_path / "n.json"
    typed = "\x1b[2J [bold]y[/] :100: \u202e\x07"
    r = run("play", files / "nasty.meeple", "--seed", 1, "--record", rec,
            input=f"\n{typed}\n1\n\n1\n\n1\n", env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    out = r.output
    for bad in UNSAFE:
        assert bad not in out, repr(bad)
    assert "[bold]x[/]" in out and ":100:" in out and "[bold]1[/]" in out
    assert "\\x1b[2J [bold]y[/] :100: \\u202e\\x07" in out          # the typed line
    assert "took \\x1b[31m [red]r[/] :100: \\u202e\\x07\\x0d\\x08\\x00\\x9b" in out  # a log line
    assert "Pick\\x1b[2J [bold]one[/] :100:" in out                  # a text
    r2 = run("replay", rec, "--ruleset", files / "nasty.meeple")
    assert r2.exit_code == 0, r2.output
    assert not [bad for bad in UNSAFE if bad in r2.output]
    r3 = run("validate", files / "nasty.meeple")
    assert not [bad for bad in UNSAFE if bad in r3.output] and "\\x1b[2J" in r3.output
    r4 = run("play", "no\x1b[2Jsuch")
    assert r4.exit_code == 1 and "no\\x1b[2Jsuch" in r4.output and "\x1b" not in r4.output


def test_literal_escapes_every_control_and_is_idempotent():
    s = "a\x1b[1m\r\b\x00\x7f\x85\u202a\u2069\u200f\udcff\tb\nc"
    out = render.literal(s)
    assert out == "a\\x1b[1m\\x0d\\x08\\x00\\x7f\\x85\\u202a\\u2069\\u200f\\udcff\tb\nc"
    assert render.literal(out) == out
    assert render.literal("x\ny", newlines=False) == "x\\x0ay"
    buf = io.StringIO()
    c = render.console(file=buf, width=80)
    c.print("[red]r[/] :100: \x1b[2J")
    assert buf.getvalue() == "[red]r[/] :100: \\x1b[2J\n"


# ---------------------------------------------------------------- Ctrl-C

def test_ctrl_c_at_a_prompt_saves_the_record_and_exits_130(tmp_path, prog, monkeypatch):
    seed = seed_where_seat_starts(prog, 2, 0)
    lines = iter(["1"])

    def typed(prompt=""):
        for line in lines:
            return line
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", typed)
    rec = tmp_path / "c.json"
    r = run("play", "cherokee", "--bot", "2=random", "--seed", seed, "--record", rec)
    assert r.exit_code == 130, r.output
    assert len(json.loads(rec.read_text())["moves"]) == 1


def test_the_console_script_exits_130_on_ctrl_c_anywhere(monkeypatch):
    def interrupted(**kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.main, "app", interrupted)
    with pytest.raises(SystemExit) as e:
        cli.main.main()
    assert e.value.code == 130
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["meeple"] == "meeple.cli.entry:main"
    with pytest.raises(SystemExit) as e:
        entry.main()                      # the script's main runs cli.main.main
    assert e.value.code == 130


# ---------------------------------------------------------------- typed at a prompt

def test_odd_input_at_the_prompt_gets_a_clear_answer(files, tmp_path):
    odd = ["²", "0", "-1", "1e9", "99999999999999999999", "1" * 5000, "x" * 100_000, "\x00",
           "\x1b[2J", "١", "０", "play", "play  ", "+", "#", "undo", "help", "board"]
    data = ("\n".join(odd) + "\nquit\n").encode() + b""
    bad = b"\xff\xfe\xed\n"          # not UTF-8: read as lone surrogates, shown escaped
    r = run("play", files / "tiny.meeple", "--seed", 2, "--record", tmp_path / "o.json",
            env=TERMINAL, input=b"\n" + bad + data)
    assert r.exit_code == 0, r.output[-2000:]
    assert r.output.count("Illegal move") >= 12
    assert "there is no move number 0;" in r.output and "no move number 99999999999999999999" \
        not in r.output.replace("...", "")
    assert "\\udcff\\udcfe\\udced" in r.output
    assert json.loads((tmp_path / "o.json").read_text())["moves"] == []


def _session(prog) -> PlaySession:
    game = prog.new_game(2, 5)
    c = render.console(file=io.StringIO(), width=100)
    s = PlaySession(c, game, [HUMAN, HUMAN], {}, None, None, Path("unused.json"))
    s.last_human = game.active_player          # no hand-over: straight to the prompt
    return s


@pytest.fixture(scope="module")
def tiny(files):
    return interpreter.load(str(files / "tiny.meeple"))


typed_text = st.one_of(
    st.text(max_size=60),
    st.text(st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF), max_size=4),
    st.sampled_from(["1", "2", "3", "0", "²", "-1", "1e9", "99999999999999999999", "play",
                     "undo", "help", "board", "\x1b[2J", "\x00"]),
    st.integers().map(str),
).map(lambda s: s.replace("\n", " ").replace("\r", " "))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=typed_text)
def test_anything_typed_at_the_prompt_is_a_legal_move_or_changes_nothing(tiny, text):
    s = _session(tiny)
    before = s.game.copy()
    legal = before.legal_moves()
    lines = iter([text, "quit"])
    with mock.patch.object(builtins, "input", lambda prompt="": next(lines)):
        try:
            s.human_turn(before.active_player)
        except Quit:
            pass
    after = s.game.to_json()
    if after != before.to_json():
        successors = set()
        for m in legal:
            g = before.copy()
            g.apply(m)
            successors.add(g.to_json())
        assert after in successors
        assert len(s.history) == 1
    else:
        assert s.history == []
    out = s.console.file.getvalue()
    assert "Traceback" not in out and "\x1b" not in out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=typed_text)
def test_nothing_typed_at_a_handover_draws_the_next_hand(tiny, text):
    assume(text.strip())                       # Enter passes the hand-over, as it should
    s = _session(tiny)
    seat = s.game.active_player
    s.last_human = 1 - seat                    # the other player decided last: hand-over
    # (a label inside the typed text may be echoed: that is the typist's, not a leak)
    secret = {x for x in labels(tiny, hand(tiny, s.game, seat)) if x not in text}
    lines = iter([text, "quit", "quit"])
    with mock.patch.object(builtins, "input", lambda prompt="": next(lines)), pytest.raises(Quit):
        s.human_turn(seat)
    out = s.console.file.getvalue()
    assert "Pass the terminal" in out
    assert not [x for x in secret if x in out]


def test_the_console_script_escapes_typed_values_in_usage_errors(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["meeple", "play", "cherokee", "--players", "\x1b[2J7"])
    with pytest.raises(SystemExit) as e:
        cli.main.main()
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Invalid value for '--players'" in err
    assert "\x1b" not in err
    monkeypatch.setattr("sys.argv", ["meeple", "list"])
    with pytest.raises(SystemExit) as e:
        cli.main.main()
    assert e.value.code == 0 and "cherokee" in capsys.readouterr().out
