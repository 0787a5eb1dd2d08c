"""The meeple command line: validate, play (hot seat, bots, undo, hidden information),
simulate and replay, driven through Typer's CliRunner with piped input."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from meeple.cli.main import app
from meeple.dsl.load import resolve_path
from meeple.interpreter.play import display, record
from typer.testing import CliRunner

from meeple import interpreter

runner = CliRunner()
CHEROKEE = resolve_path("cherokee")

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
# two plays per turn, each followed by a draw: the draw shows the player a hidden card
turn {
  choose first from items(hand(active)) as "play"
  move first to table
  move top(deck) to hand(active)
  choose second from items(hand(active)) as "play"
  move second to table
  move top(deck) to hand(active)
}
end when empty(deck)
score(p) = count(c for c in items(table) if c.color == red)
"""


# Hot seat with several humans needs a terminal (the screen is cleared between players);
# CliRunner's output is not one, so those tests say it is one the way a user can:
# rich's documented TTY_COMPATIBLE=1 (TERM=dumb keeps colours and styles out of it).
TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "dumb"}


def run(*args, input: str | None = None, env: dict | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def prog():
    return interpreter.load("cherokee")


def seed_where_seat_starts(prog, players: int, seat: int) -> int:
    for s in range(1000):
        if prog.new_game(players, s).active_player == seat:
            return s
    raise AssertionError("no such seed")


def labels(prog, items) -> set[str]:
    """Every way the CLI may write these items: full and short labels, notations."""
    out = set()
    for i in items:
        out |= {display.item_label(prog, i), display.item_label(prog, i, True),
                prog.items[i].notation}
    return out


# ---------------------------------------------------------------- validate

def test_validate_bundled_ruleset_is_clean():
    r = run("validate", "cherokee")
    assert r.exit_code == 0, r.output
    assert "ok" in r.output and "Cherokee" in r.output
    assert "open_clans" in r.output and "nl" in r.output


def test_validate_reports_every_problem_with_place_caret_and_hint(tmp_path):
    folder = tmp_path / "cherokee"
    shutil.copytree(CHEROKEE, folder)
    base = folder / "cherokee.meeple"
    base.write_text(base.read_text().replace("deal all from draw to hand",
                                             "deal all from draw to hnad"))
    loc = folder / "locales" / "de.meeple"
    loc.write_text(loc.read_text().replace("name Clan.deer ", "name Clan.dear "))
    r = run("validate", folder)
    assert r.exit_code == 1
    out = r.output
    assert re.search(r"cherokee\.meeple:\d+:\d+: unknown zone 'hnad'", out), out
    assert re.search(r"de\.meeple:\d+:\d+: .*'dear'", out), out   # a locale file is checked too
    assert re.search(r"^\s*\|\s*\^+\s*$", out, re.M), out          # the caret line
    assert "deal all from draw to hnad" in out                        # the source line
    assert "did you mean 'hand'?" in out


def test_validate_missing_path_is_a_clear_error(tmp_path):
    r = run("validate", tmp_path / "nope.meeple")
    assert r.exit_code == 1
    assert f"no file or folder '{tmp_path / 'nope.meeple'}'" in r.output


# ---------------------------------------------------------------- simulate

def wins_per_seat(output: str) -> list[int]:
    return [int(w) for w in re.findall(r"Player \d+\s*│\s*(\d+)\s*│", output)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_prints_wins_per_seat(players):
    r = run("simulate", "cherokee", "--games", 5, "--players", players, "--seed", 3)
    assert r.exit_code == 0, r.output
    wins = wins_per_seat(r.output)
    assert len(wins) == players
    assert sum(wins) >= 5          # shared wins count for every winner
    assert "game length" in r.output and "moves per turn" in r.output
    assert "total moves" in r.output and "games per second" in r.output


def test_simulate_variant_and_same_seed_same_results():
    a = run("simulate", "cherokee", "--games", 5, "--players", 3, "--variant", "open_clans")
    b = run("simulate", "cherokee", "--games", 5, "--players", 3, "--variant", "open_clans")
    assert a.exit_code == 0, a.output
    assert "Open clans" in a.output
    assert sum(wins_per_seat(a.output)) >= 5
    assert wins_per_seat(a.output) == wins_per_seat(b.output)


def test_simulate_reports_a_rule_error_with_its_game(tmp_path):
    broken = TINY.replace("  move second to table\n", "  move second to table\n"
                          + "  move top(deck) to hand(active)\n" * 3)   # the deck runs out
    (tmp_path / "tiny.meeple").write_text(broken)
    r = run("simulate", tmp_path / "tiny.meeple", "--games", 3, "--seed", 7)
    assert r.exit_code == 1
    assert "game 1 (seed 7)" in r.output and "move" in r.output


def test_simulate_bad_options():
    assert run("simulate", "cherokee", "--players", 9).exit_code == 2
    assert run("simulate", "cherokee", "--bot", "genius").exit_code == 2
    r = run("simulate", "cherokee", "--variant", "open_clan")
    assert r.exit_code == 2 and "did you mean 'open_clans'?" in r.output
    r = run("simulate", "nosuchgame")
    assert r.exit_code == 1 and "no ruleset 'nosuchgame'" in r.output


# ---------------------------------------------------------------- play

def test_play_with_bots_only_finishes_and_shows_the_result(tmp_path):
    rec = tmp_path / "game.json"
    r = run("play", "cherokee", "--players", 3, "--bot", "1=random", "--bot", "2=random",
            "--bot", "3=random", "--seed", 4, "--record", rec)
    assert r.exit_code == 0, r.output
    assert re.search(r"(Winner|Shared win): Player \d", r.output)
    assert "Result" in r.output and "women" in r.output
    data = json.loads(rec.read_text())
    assert data["result"]["winners"] and len(data["moves"]) > 30
    assert "Pass the terminal" not in r.output   # no humans, no hand-over


def test_play_human_against_bot_then_replay(tmp_path, prog):
    seed = seed_where_seat_starts(prog, 2, 0)
    rec = tmp_path / "game.json"
    r = run("play", "cherokee", "--players", 2, "--bot", "2=random", "--seed", seed,
            "--record", rec, input="1\nchase r9c9\n1\nhelp\nquit\n")
    out = r.output
    assert r.exit_code == 0, out
    assert "Pass the terminal" not in out          # one human: never a hand-over
    assert "Illegal move: 'chase r9c9' is not a legal move now" in out
    assert "Commands" in out and "undo" in out and "How moves are written" in out
    assert f"record is saved to {rec}" in out.replace("\n", "")
    data = json.loads(rec.read_text())
    assert len(data["moves"]) == 2 and data["moves"][0].startswith("chase ")
    assert data["seats"] == ["human", "random"]
    r2 = run("replay", rec)
    assert r2.exit_code == 0, r2.output
    assert f"Player 1: {data['moves'][0]} — " in r2.output
    assert "Player 1 is to move" in r2.output


def test_the_triangle_board_is_drawn_as_a_pyramid(tmp_path):
    r = run("play", "cherokee", "--players", 3, "--bot", "2=first", "--bot", "3=first",
            "--seed", 1, "--record", tmp_path / "r.json", input="board\nquit\n")
    lines = r.output.splitlines()   # 'board': the board with its cells' names
    top = next(line for line in lines if line.strip() == "r1c1")
    base = next(line for line in lines if line.strip().startswith("r8c1"))
    assert base.split() == [f"r8c{c}" for c in range(1, 9)]
    centre_top = top.index("r1c1")
    centre_base = (base.index("r8c1") + base.index("r8c8")) / 2
    assert abs(centre_top - centre_base) <= 1          # row 1 sits over the middle of row 8
    for row in range(2, 8):                             # each row is half a cell wider each side
        line = next(x for x in lines if x.strip().startswith(f"r{row}c1"))
        assert line.index(f"r{row}c1") < top.index("r1c1")
        assert line.split() == [f"r{row}c{c}" for c in range(1, row + 1)]


def test_play_quit_without_record_saves_in_cwd_and_eof_quits(tmp_path, monkeypatch, prog):
    monkeypatch.chdir(tmp_path)
    seed = seed_where_seat_starts(prog, 2, 0)
    r = run("play", "cherokee", "--bot", "2=first", "--seed", seed, input="1\n")  # then EOF
    assert r.exit_code == 0, r.output
    [saved] = tmp_path.glob("meeple-cherokee-*.json")   # named by the time, not the seed
    assert saved.name != f"meeple-cherokee-{seed}.json"
    assert json.loads(saved.read_text())["moves"] and saved.name in r.output.replace("\n", "")
    # quitting again never overwrites the first record
    again = run("play", "cherokee", "--bot", "2=first", "--seed", seed, input="1\n")
    assert again.exit_code == 0 and len(list(tmp_path.glob("meeple-cherokee-*.json"))) == 2


def test_play_bad_user_input_is_a_clear_error():
    for args, code, text in [
        (["play", "nosuchgame"], 1, "no ruleset"),
        (["play", "cherokee", "--players", "7"], 2, "2 to 4 players"),
        (["play", "cherokee", "--bot", "x=random"], 2, "SEAT=BOT"),
        (["play", "cherokee", "--bot", "5=random"], 2, "no seat 5"),
        (["play", "cherokee", "--bot", "2=genius"], 2, "unknown bot"),
        (["play", "cherokee", "--locale", "xx"], 2, "cherokee has no locale 'xx'"),
    ]:
        r = run(*args, input="quit\n")
        assert r.exit_code == code, (args, r.output)
        assert text in r.output, (args, r.output)


def test_hot_seat_never_shows_the_other_hand(tmp_path, prog):
    """Two humans: everything printed from the hand-over to Player 1 until the
    hand-over to Player 2 is what Player 1 sees; it must not name any card that is
    in Player 2's hand then. Cherokee hands only shrink after the deal, so the cards
    still in Player 2's hand at the end were there during all of Player 1's turns."""
    rec = tmp_path / "hot.json"
    r = run("play", "cherokee", "--players", 2, "--seed", 11, "--record", rec,
            input="\n1\n" * 40 + "quit\n", env=TERMINAL)   # Enter passes a hand-over
    assert r.exit_code == 0, r.output
    game = record.replay(prog, record.load(rec))
    hand1 = game.state["zones"][prog.zone_index["hand"] + 0]
    hand2 = game.state["zones"][prog.zone_index["hand"] + 1]
    secret2, secret1 = labels(prog, hand2), labels(prog, hand1)
    parts = re.split(r"Pass the terminal to (Player \d)\. Press Enter\.", r.output)
    seat1 = [parts[i + 1] for i in range(1, len(parts), 2) if parts[i] == "Player 1"]
    seat2 = [parts[i + 1] for i in range(1, len(parts), 2) if parts[i] == "Player 2"]
    assert len(seat1) >= 2 and len(seat2) >= 2     # several turns each were played
    for seg in seat1:
        assert not [s for s in secret2 if s in seg]
    # the check is meaningful: each player's screens do show their own hand
    short = lambda items: {display.item_label(prog, i, True) for i in items}  # noqa: E731
    assert all(s in seat1[-1] for s in short(hand1))
    assert all(s in seat2[-1] for s in short(hand2))
    for seg in seat2:
        assert not [s for s in secret1 if s in seg]


def decisions_of_first_turn(prog, players: int, seed: int) -> int:
    game = prog.new_game(players, seed)
    seat, n = game.active_player, 0
    while game.active_player == seat:
        game.apply(0)
        n += 1
    return n


def test_undo_right_after_choosing_a_target(tmp_path, prog):
    seed = seed_where_seat_starts(prog, 2, 0)
    rec = tmp_path / "u.json"
    r = run("play", "cherokee", "--players", 2, "--seed", seed, "--record", rec,
            input="\n1\nundo\nquit\n", env=TERMINAL)
    assert r.exit_code == 0, r.output
    first = prog.new_game(2, seed).legal_moves()[0].notation
    assert f"Undone: {first}" in r.output
    after = r.output.split("Undone:")[1]
    assert "Choose: chase" in after              # the same decision is asked again
    assert json.loads(rec.read_text())["moves"] == []


def test_undo_is_refused_when_the_latest_move_is_another_players(tmp_path, prog):
    seed = seed_where_seat_starts(prog, 2, 0)
    k = decisions_of_first_turn(prog, 2, seed)
    rec = tmp_path / "u.json"
    r = run("play", "cherokee", "--players", 2, "--seed", seed, "--record", rec,
            input="\n" + "1\n" * k + "\nundo\nquit\n", env=TERMINAL)
    assert r.exit_code == 0, r.output
    assert "Pass the terminal to Player 2" in r.output
    assert "Cannot undo" in r.output and "was made by Player 1" in r.output
    assert len(json.loads(rec.read_text())["moves"]) == k


TTT = Path(__file__).parent / "testdata" / "ttt"


def test_undo_takes_back_the_bots_moves_after_yours_and_the_record_follows(tmp_path):
    rec = tmp_path / "u.json"
    r = run("play", TTT, "--bot", "2=first", "--record", rec,
            input="5\nundo\n1\nquit\n", env=TERMINAL)
    assert r.exit_code == 0, r.output
    # mark r2c2, the bot's first move (r1c1), then undo both: seat 1 decides again
    assert "Undone: mark r2c2 (and 1 bot move after it)" in r.output
    after = r.output.split("Undone:")[1]
    assert "Player 1: mark r1c1" in after
    saved = json.loads(rec.read_text())
    assert saved["moves"] == ["mark r1c1", "mark r1c2"]   # the undone moves are gone
    rules = interpreter.load(str(TTT))
    game = record.replay(rules, record.load(rec))
    assert not game.over and game.can_undo == 2
    assert [m.notation for m in game.legal_moves()][:2] == ["mark r1c3", "mark r2c1"]


def test_undo_after_resuming_takes_back_the_replayed_moves(tmp_path):
    rec = tmp_path / "u.json"
    first = run("play", TTT, "--bot", "2=first", "--record", rec, input="5\nquit\n",
                env=TERMINAL)
    assert first.exit_code == 0, first.output
    assert json.loads(rec.read_text())["moves"] == ["mark r2c2", "mark r1c1"]
    again = run("play", "--resume", rec, "--ruleset", TTT, input="undo\nundo\nquit\n",
                env=TERMINAL)
    assert again.exit_code == 0, again.output
    assert "Undone: mark r2c2 (and 1 bot move after it)" in again.output
    assert "Cannot undo: no move has been made yet." in again.output
    assert json.loads(rec.read_text())["moves"] == []


def test_undo_is_refused_after_a_hidden_card_was_seen(tmp_path):
    (tmp_path / "tiny.meeple").write_text(TINY)
    rec = tmp_path / "t.json"
    r = run("play", tmp_path / "tiny.meeple", "--seed", 3, "--record", rec,
            input="\n1\nundo\nquit\n", env=TERMINAL)
    assert r.exit_code == 0, r.output
    assert "Cannot undo" in r.output and "hidden information" in r.output
    assert len(json.loads(rec.read_text())["moves"]) == 1
    # a path inside a record is never opened: the ruleset is given again
    refused = run("replay", rec)
    assert refused.exit_code == 2 and "--ruleset PATH" in refused.output
    assert run("replay", rec, "--ruleset", tmp_path / "tiny.meeple").exit_code == 0


# ---------------------------------------------------------------- replay

@pytest.fixture()
def good_record(tmp_path) -> Path:
    rec = tmp_path / "good.json"
    r = run("play", "cherokee", "--players", 3, "--bot", "1=first", "--bot", "2=random",
            "--bot", "3=random", "--seed", 2, "--record", rec)
    assert r.exit_code == 0
    return rec


def test_replay_shows_moves_board_and_result(good_record):
    r = run("replay", good_record)
    assert r.exit_code == 0, r.output
    assert "as seen by a spectator" in r.output
    assert re.search(r"Player \d: chase r\dc\d — ", r.output)
    assert re.search(r"(Winner|Shared win): Player \d", r.output)
    quiet = run("replay", good_record, "--quiet", "--as", 2)
    assert quiet.exit_code == 0 and "chase r" not in quiet.output.split("Recent events")[0]
    assert run("replay", good_record, "--reveal").exit_code == 0


def tamper(path: Path, tmp_path: Path, name: str, change) -> Path:
    data = json.loads(path.read_text())
    change(data)
    out = tmp_path / name
    out.write_text(json.dumps(data))
    return out


def test_replay_refuses_tampered_records(good_record, tmp_path):
    illegal = tamper(good_record, tmp_path, "illegal.json",
                     lambda d: d["moves"].__setitem__(3, "chase r9c9"))
    r = run("replay", illegal)
    assert r.exit_code == 1 and "invalid record: move 4 'chase r9c9' is illegal" in r.output

    schema = tamper(good_record, tmp_path, "schema.json", lambda d: d["moves"].__setitem__(3, 42))
    r = run("replay", schema)
    assert r.exit_code == 1 and "invalid record at moves/3:" in r.output

    digest = tamper(good_record, tmp_path, "digest.json",
                    lambda d: d.__setitem__("state_digest", "0" * 64))
    r = run("replay", digest)
    assert r.exit_code == 1 and "recorded final state" in r.output

    bad_json = tmp_path / "bad.json"
    bad_json.write_text(good_record.read_text()[:50])
    r = run("replay", bad_json)
    assert r.exit_code == 1 and "is not JSON" in r.output

    r = run("replay", tmp_path / "missing.json")
    assert r.exit_code == 1 and "cannot read" in r.output


def test_list_shows_bundled_rulesets():
    r = run("list")
    assert r.exit_code == 0 and "cherokee" in r.output and "open_clans" in r.output


# ---------------------------------------------------------------- test (the claims of docs/cli.md)

ROOT = Path(__file__).resolve().parent.parent
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def _doc_sample(command: str) -> list[str]:
    """The lines a docs/cli.md sample prints after '$ COMMAND'."""
    block = CLI_DOC.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    return block.rstrip("\n").splitlines()


SHRUNK = re.compile(r"\(move \d+\)|\d+ move\(s\)|moves: .*")  # what shrinking found


def test_meeple_test_samples_of_the_docs(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    out = tmp_path / "failure.json"
    r = run("test", ROOT / "tests" / "broken" / "leaky_view", "--players", 3, "--out", out)
    assert r.exit_code == 1
    got = r.output.replace(f"{ROOT}/", "").replace(str(out), "failure.json").rstrip("\n").splitlines()
    expected = _doc_sample("meeple test tests/broken/leaky_view --players 3 --out failure.json")
    assert [SHRUNK.sub("#", g) for g in got] == [SHRUNK.sub("#", e) for e in expected], r.output
    # the record replays; as player 1, player 2's hand is in full view (the leak)
    shown = run("replay", out, "--ruleset", ROOT / "tests" / "broken" / "leaky_view", "--as", 1, "--quiet",
                "--layout", "full")
    assert shown.exit_code == 0 and re.search(r"Player 2\s+\d\w\w\w \d\w\w\w", shown.output), shown.output
    # a ruleset that holds: the same header, then 'ok'
    r = run("test", "cherokee", "--examples", 3, "--quiet")
    assert r.exit_code == 0, r.output
    header, ok = _doc_sample("meeple test cherokee")
    assert r.output.splitlines()[0] == header
    ok_line = (r"every invariant held \(turn ends checked \d+ times\); no leak in \d+ exchanges "
               r"\(hidden items \d+\)")
    assert re.fullmatch(r"ok 3 games, \d+ states checked; " + ok_line, r.output.splitlines()[1])
    assert re.fullmatch(r"ok 100 games, \d+ states checked; " + ok_line, ok)


def test_meeple_test_exit_codes_and_narrowing():
    r = run("test", "cherokee", "--examples", 0)
    assert r.exit_code == 2 and "--examples must be at least 1" in r.output
    r = run("test", "cherokee", "--players", 9)
    assert r.exit_code == 2 and "error: Cherokee is for 2 to 4 players" in r.output
    assert "error: Cherokee is for 2 to 4 players" in CLI_DOC
    r = run("test", "cherokee", "--variant", "open_clan")
    assert r.exit_code == 2 and "load/unknown-variant" in r.output
    r = run("test", "nosuchgame")
    assert r.exit_code == 1
    r = run("test", "cherokee", "--variant", "open_clans", "--players", 2, "--examples", 2, "--quiet")
    assert r.exit_code == 0 and "1 configuration(s): 2 players, variants open_clans" in r.output


def test_bots_receive_the_view_and_the_notations_only(monkeypatch):
    from meeple.interpreter import bots
    calls = []

    class Checking:
        def __init__(self, seed: int = 0):
            pass

        def choose(self, view, moves):
            assert isinstance(view, dict) or hasattr(view, "__getitem__")
            assert moves and all(isinstance(m, str) for m in moves), moves
            calls.append(len(moves))
            return 0

    monkeypatch.setitem(bots.BOTS, "first", Checking)
    assert run("simulate", "cherokee", "--games", 1, "--bot", "first", "--quiet").exit_code == 0
    n = len(calls)
    assert n > 30
    r = run("play", "cherokee", "--players", 2, "--bot", "1=first", "--bot", "2=first", "--seed", 1)
    assert r.exit_code == 0, r.output
    assert len(calls) > n
    assert "the notations of its legal moves only" in CLI_DOC


def test_the_play_sample_of_the_docs_is_what_play_prints(tmp_path, monkeypatch):
    """docs/cli.md shows a real 80x24 turn screen: the same command prints it today."""
    monkeypatch.chdir(tmp_path)             # quitting saves the game in the working folder
    command = "meeple play cherokee --players 3 --bot 2=random --bot 3=random --seed 1"
    expected = _doc_sample(command)
    r = runner.invoke(app, command.split()[1:], input="1\nquit\n",
                      env={"COLUMNS": "80", "LINES": "24"})
    got = [line.rstrip() for line in r.output.splitlines()]
    assert got[:len(expected) - 1] == expected[:-1], r.output
    assert got[len(expected) - 1].startswith(expected[-1]), r.output
    assert [p.name.startswith("meeple-cherokee-") for p in tmp_path.iterdir()] == [True]
