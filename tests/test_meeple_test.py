"""`meeple test` and the invariants behind it: the bundled rulesets hold, and rulesets
broken on purpose (tests/broken/) are caught, shrunk to a short game, reported with the
rule's source line and saved as a record that `meeple replay` opens."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from meeple.cli.main import app
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import testing
from meeple.interpreter.analysis.invariants import Config, Failure, play_and_check
from scale import scaled
from typer.testing import CliRunner

from meeple import interpreter

BROKEN = Path(__file__).resolve().parent / "broken"
FULL_GAME = 100  # a random 3-player Cherokee game has about 114 moves

runner = CliRunner()


def meeple(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.mark.parametrize("name,check,source_line,max_moves", [
    ("duplicate_card", "invariant 'one_member_each': does not hold after setup",
     "invariant one_member_each after setup", 0),
    ("endless_loop", "rule error", None, 40),
    ("leaky_view", "secret 'hand'", "secret hand", 30),
    ("rare_break", "invariant 'no_two_nines_on_top': does not hold at turn end",
     "invariant no_two_nines_on_top at turn end", FULL_GAME),
])
def test_meeple_test_finds_and_shrinks_each_broken_ruleset(tmp_path, name, check, source_line, max_moves):
    out = tmp_path / "failure.json"
    code, text = meeple("test", BROKEN / name, "--players", 3, "--examples", 60, "--seed", 1,
                        "--out", out, "--quiet")
    assert code == 1, text
    assert f"FAILED {check}" in text
    if source_line:
        assert source_line in text and "^" in text      # the rule's line with a caret
    rec = json.loads(out.read_text())
    assert rec["format"] == "meeple-record/2" and rec["players"] == 3
    assert len(rec["moves"]) <= max_moves, rec["moves"]  # shrunk to a short game
    code, shown = meeple("replay", out, "--ruleset", BROKEN / name)
    if check == "rule error":   # replaying the minimal game hits the same error
        assert code == 1 and "more than 100000 statements" in shown
    else:
        assert code == 0, shown


def test_the_rare_break_is_rare_so_shrinking_matters():
    # most random games never break it: the failure Hypothesis finds is a search result
    prog = interpreter.load(str(BROKEN / "rare_break"))
    # (in the short form 10 seeds, 2 of which break it; in the long form 20, 3 of them)
    seeds = scaled(20, 10)
    broken = 0
    for seed in range(seeds):
        try:
            play_and_check(prog, Config(3), seed, [seed * 7 + i for i in range(300)])
        except Failure:
            broken += 1
    assert 0 < broken < seeds


# Brotherhood of Nine's printed rules do not force a battle to end (the players may avoid
# each other for ever: its ruleset says so, with 'bound 1000 turns or endless', and
# tests/test_bound.py checks it); its variant round_limit, which ends a game after 40
# rounds, is checked here (its games are long, seconds each: two in the short form).
@pytest.mark.parametrize("ruleset,options,short", [("cherokee", (), 3), ("clans-and-glory", (), 3),
                                                   ("brotherhood-of-nine", ("--variant", "round_limit"), 2),
                                                   ("go", (), 3)])
def test_bundled_rulesets_hold_their_invariants(ruleset, options, short):
    code, text = meeple("test", ruleset, *options, "--examples", scaled(8, short), "--seed", 5, "--quiet")
    assert code == 0, text
    assert "every invariant held" in text


def test_the_pytest_entry_point_passes_and_fails():
    testing.check_ruleset("cherokee", players=2, examples=scaled(5, 2))
    with pytest.raises(AssertionError, match=r"secret 'hand'.*leaky_view/cherokee.meeple:\d+"):
        testing.check_ruleset(str(BROKEN / "leaky_view"), players=3, examples=40, seed=1)


# ---------------------------------------------------------------- the checks on small rulesets

def ruleset(text: str):
    text = "ruleset t\nplayers 2..2\nkind Card { v: int }\nzone pile: Card\nzone hand: Card per player owner\n" \
           "deck d into pile { Card(v: i) for i in 1..6 }\nvar n: int = 0\n" + text
    return interpreter.compile_sources(SourceSet(base=parse(text, "t.meeple"), sources={"t.meeple": text}))


def test_a_game_longer_than_its_bound_fails():
    # (n counts the turns: the game never comes back to a position, see tests/test_bound.py)
    rs = ruleset('bound 5 turns\nturn {\n  choose x from [1] as "go"\n  n = n + 1\n}\nend when false\n')
    with pytest.raises(Failure, match="did not end within its bound of 5 turns"):
        play_and_check(rs, Config(2), 0, [])


def test_an_invariant_always_is_checked_after_every_move():
    rs = ruleset('invariant small: n < 3\nturn {\n  choose x from [1] as "go"\n  n = n + 1\n}\n'
                 'end when n > 5\n')
    with pytest.raises(Failure) as e:
        play_and_check(rs, Config(2), 0, [])
    assert e.value.check == "invariant 'small'" and e.value.moves == ["go 1"] * 3


def test_a_secret_zone_shown_to_another_player_fails_but_not_after_the_end_when_allowed():
    leak = 'setup { deal 2 from pile to hand }\nturn {\n  reveal hand(active)\n  choose x from [1] as "go"\n' \
           '  n = 1\n}\nend when n > 0\n'
    with pytest.raises(Failure, match="secret 'hand': player 2 can see"):
        play_and_check(ruleset("secret hand\n" + leak), Config(2), 0, [])
    at_end = 'setup { deal 2 from pile to hand }\nturn {\n  choose x from [1] as "go"\n  n = 1\n}\n' \
             'at end {\n  reveal hand(players[0])\n}\nend when n > 0\n'
    play_and_check(ruleset("secret hand until end\n" + at_end), Config(2), 0, [])
    with pytest.raises(Failure, match="secret 'hand'"):
        play_and_check(ruleset("secret hand\n" + at_end), Config(2), 0, [])


@pytest.mark.parametrize("decl,code", [
    ("invariant x: 3", "check/type-mismatch"),
    ("secret hnad", "check/unknown-zone"),
    ("bound 0 turns", "check/bad-value"),
])
def test_mistakes_in_test_declarations_are_reported(decl, code):
    from meeple.dsl.errors import MeepleError
    with pytest.raises(MeepleError) as e:
        ruleset(decl + '\nturn {\n  choose x from [1] as "go"\n}\nend when true\n')
    assert [d.code for d in e.value.diagnostics] == [code]


def test_a_kind_name_is_the_list_of_its_items():
    rs = ruleset('var total: int = sum(c.v for c in Card)\nturn { end game }\n')
    assert rs.new_game(2).state["vars"]["total"] == 21


def test_what_hypothesis_says_while_it_plays_never_reaches_stdout(monkeypatch):
    # Hypothesis prints on stdout (e.g. "spent more than five minutes shrinking"); stdout
    # is the command's: with --json, exactly one JSON document
    from hypothesis.reporting import report
    from meeple.interpreter.analysis import invariants
    played = invariants.play_and_check

    def chatty(*args, **kwargs):
        report("Hypothesis has something to say")
        return played(*args, **kwargs)

    monkeypatch.setattr(invariants, "play_and_check", chatty)
    result = runner.invoke(app, ["test", "kalah", "--examples", "2", "--seed", "1", "--jobs", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True
    assert "note: Hypothesis has something to say" in result.stderr


def test_meeple_test_refuses_an_out_that_is_no_regular_file_before_it_plays(tmp_path):
    """`--out` is checked before any game: a fifo (or /dev/null) is refused with exit 2 and
    stays what it was; it was replaced by the saved record once a test failed."""
    import os
    import stat
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, text = meeple("test", BROKEN / "duplicate_card", "--players", 3, "--examples", 5,
                        "--out", fifo, "--quiet")
    assert code == 2 and "--out:" in text and "not a regular file" in text, text
    assert "FAILED" not in text                     # refused before the games
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
