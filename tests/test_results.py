"""Results: outcomes (win, draw, loss), ranks, drawn games, outcomes by rule, teams
(issue 11 §1), through the API, states, records, `meeple simulate`, `play` and `test`.
Small games of our own, not bundled."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from meeple.cli.main import app
from meeple.dsl.errors import MeepleError
from meeple.interpreter import StateError
from meeple.interpreter.play import record
from typer.testing import CliRunner

from meeple import interpreter

# Each player says a number; the higher wins, equal numbers draw.
DUEL = """ruleset duel
players 2..2
var said: int per player = 0
var turns: int = 0
turn { choose x from [1, 2] as "say"  said(active) = x  turns = turns + 1 }
end when turns == 2
score(p) = said(p)
"""

# One seat against a bank that is not a seat: the bank draws 1..3 cards of value 2 (a
# die roll in the setup); the player then stands on 3, 4 or 5.
BANK = """ruleset bank
players 1..2
var bank: int = 0
var stand: int per player = 0
var turns: int = 0
setup { pick b at random from [2, 4, 6]  bank = b }
turn {
  choose x from [3, 4, 5] as "stand"
  stand(active) = x
  turns = turns + 1
}
end when turns == player_count()
score(p) = stand(p) - bank
outcome(p) {
  win when stand(p) > bank
  draw when stand(p) == bank
  loss otherwise
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.meeple").write_text(text, encoding="utf-8")
    return folder


def load(tmp_path: Path, name: str, text: str):
    return interpreter.load(str(write(tmp_path, name, text)))


def play(ruleset, players: int, moves, seed: int = 0):
    game = ruleset.new_game(players, seed)
    for m in moves:
        game.apply(m)
    assert game.over
    return game


def run(*args, input: str | None = None):
    r = CliRunner().invoke(app, [str(a) for a in args], input=input,
                           env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert "Traceback" not in r.output, r.output
    return r


# ---------------------------------------------------------------- the API

def test_every_line_of_the_duel_has_the_right_outcome(tmp_path):
    duel = load(tmp_path, "duel", DUEL)
    expected = {(0, 0): ["draw", "draw"], (1, 1): ["draw", "draw"],
                (0, 1): ["loss", "win"], (1, 0): ["win", "loss"]}
    for (a, b), outcomes in expected.items():
        r = play(duel, 2, [a, b]).result
        assert r["outcomes"] == outcomes
        assert r["draw"] == (a == b)
        assert r["winners"] == [p for p in (0, 1) if outcomes[p] == "win"]
        assert r["ranks"] == ([1, 1] if a == b else [1, 2] if a > b else [2, 1])


def test_a_one_seat_game_against_the_bank_counts_exact_outcomes(tmp_path):
    """3 bank values x 3 stands: win when the stand beats the bank, and so on; the bank
    is no seat (one score, one outcome) and the exact counts over all 9 lines are known."""
    bank = load(tmp_path, "bank", BANK)
    counts = {"win": 0, "draw": 0, "loss": 0}
    seen_banks = set()
    for seed in range(200):
        for choice in range(3):
            game = bank.new_game(1, seed)
            b = game.state["vars"]["bank"]
            if (b, choice) in seen_banks:
                continue
            seen_banks.add((b, choice))
            game.apply(choice)
            r = game.result
            assert len(r["scores"]) == 1 and r["ranks"] == [1] and r["ranking"] == [[0]]
            assert r["outcomes"] == [("win" if 3 + choice > b else "draw" if 3 + choice == b
                                      else "loss")]
            counts[r["outcomes"][0]] += 1
    assert len(seen_banks) == 9
    # stands 3, 4, 5 against banks 2, 4, 6, counted by hand: bank 2: three wins;
    # bank 4: 5 wins, 4 draws, 3 loses; bank 6: three losses.
    assert counts == {"win": 4, "draw": 1, "loss": 4}


def test_without_an_outcome_declaration_a_one_seat_game_is_won(tmp_path):
    solo = load(tmp_path, "solo", DUEL.replace("players 2..2", "players 1..2")
                .replace("turns == 2", "turns == player_count()"))
    r = play(solo, 1, [0]).result
    assert r["outcomes"] == ["win"] and r["winners"] == [0] and r["draw"] is False


def test_outcomes_by_rule_let_every_player_win_or_lose(tmp_path):
    bank = load(tmp_path, "bank", BANK)
    seed = next(s for s in range(100) if bank.new_game(2, s).state["vars"]["bank"] == 4)
    r = play(bank, 2, [2, 2], seed).result
    assert r["outcomes"] == ["win", "win"] and r["winners"] == [0, 1] and not r["draw"]
    r = play(bank, 2, [1, 1], seed).result
    assert r["outcomes"] == ["draw", "draw"] and r["draw"] is True and r["winners"] == []
    r = play(bank, 2, [0, 1], seed).result
    assert r["outcomes"] == ["loss", "draw"] and r["ranks"] == [2, 1] and not r["draw"]


def test_outcome_words_do_not_take_the_names_of_a_ruleset(tmp_path):
    """Cherokee has a zone called `draw`: an outcome clause may still read it."""
    text = """ruleset names
players 2..2
kind Card { v: int }
zone draw: Card
deck cards into draw { Card(v: i) for i in 1..3 }
var win: int = 0
var loss: int = 0
turn { choose c from items(draw) as "take"  move c to draw  win = win + 1 }
end when win == 2
outcome(p) {
  draw when size(draw) == 3 and loss == 0
  win when seat(p) == 1
  loss otherwise
}
"""
    r = play(load(tmp_path, "names", text), 2, [0, 0]).result
    assert r["outcomes"] == ["draw", "draw"]


@pytest.mark.parametrize("clauses,message", [
    ("win when true\n  draw when false", "must end with an 'otherwise' clause"),
    ("win otherwise\n  loss when true\n  draw otherwise", "a clause after 'otherwise' is never used"),
])
def test_an_outcome_must_end_with_otherwise(tmp_path, clauses, message):
    text = DUEL + f"outcome(p) {{\n  {clauses}\n}}\n"
    with pytest.raises(MeepleError) as e:
        load(tmp_path, "bad", text)
    d = e.value.diagnostics[0]
    assert d.code == "check/outcome" and message in d.message and d.hint
    assert (d.span.line, d.span.column) == (10, 3), d.span


def test_outcome_conditions_and_teams_are_typed(tmp_path):
    with pytest.raises(MeepleError) as e:
        load(tmp_path, "bad", DUEL + "outcome(p) {\n  win when said(p)\n  loss otherwise\n}\n")
    d = e.value.diagnostics[0]
    assert d.code == "check/type-mismatch" and "the 'win' clause" in d.message
    assert (d.span.line, d.span.column) == (9, 12)
    with pytest.raises(MeepleError) as e:
        load(tmp_path, "bad2", DUEL + "team(p) = [1]\n")
    d = e.value.diagnostics[0]
    assert d.code == "check/type-mismatch" and "the team" in d.message


def test_a_variant_can_replace_the_outcome(tmp_path):
    folder = write(tmp_path, "duel", DUEL + "outcome(p) {\n  draw otherwise\n}\n")
    (folder / "variants").mkdir()
    (folder / "variants" / "lowest.meeple").write_text(
        "variant lowest\nreplace outcome(p) {\n  win when said(p) == 1\n  loss otherwise\n}\n",
        encoding="utf-8")
    base = interpreter.load(str(folder))
    assert play(base, 2, [0, 1]).result["outcomes"] == ["draw", "draw"]
    lowest = interpreter.load(str(folder), variants=["lowest"])
    assert play(lowest, 2, [0, 1]).result["outcomes"] == ["win", "loss"]


TEAMS = """ruleset teams
players 4..4
var got: int per player = 0
var turns: int = 0
turn { choose x from [0, 1, 5] as "take"  got(active) = x  turns = turns + 1 }
end when turns == 4
team(p) = if seat(p) <= 2 then 1 else 2
score(p) = got(p)
"""


def test_teams_are_ranked_by_the_sum_and_share_their_outcome(tmp_path):
    teams = load(tmp_path, "teams", TEAMS)
    r = play(teams, 4, [2, 0, 1, 1]).result          # team 1: 5 + 0, team 2: 1 + 1
    assert r["teams"] == [{"seats": [0, 1], "score": 5, "rank": 1},
                          {"seats": [2, 3], "score": 2, "rank": 2}]
    assert r["outcomes"] == ["win", "win", "loss", "loss"] and r["ranks"] == [1, 1, 2, 2]
    assert r["ranking"] == [[0, 1], [2, 3]]
    r = play(teams, 4, [2, 0, 2, 0]).result          # 5 + 0 against 5 + 0
    assert r["outcomes"] == ["draw"] * 4 and r["draw"] is True and r["ranking"] == [[0, 1, 2, 3]]


# ---------------------------------------------------------------- states and records

def test_a_saved_result_is_checked(tmp_path):
    duel = load(tmp_path, "duel", DUEL)
    game = play(duel, 2, [0, 0])
    state = json.loads(game.to_json())
    assert duel.resume(state).result == game.result
    for key, value in (("winners", [0, 1]), ("draw", False), ("outcomes", ["win", "loss"]),
                       ("ranks", [1, 2])):
        bad = json.loads(game.to_json())
        bad["result"][key] = value
        with pytest.raises(StateError):
            duel.resume(bad)


def test_states_and_records_saved_before_outcomes_still_load_and_replay(tmp_path):
    """Before outcomes, a tie of everyone was written as everyone's win."""
    duel = load(tmp_path, "duel", DUEL)
    game = play(duel, 2, [1, 1])
    state = json.loads(game.to_json())
    old = {"scores": [2, 2], "tiebreaks": {}, "ranking": [[0, 1]], "winners": [0, 1]}
    state["result"] = old
    resumed = duel.resume(state)
    assert resumed.over
    rec = record.complete(record.Record("duel", 2, 0, [], None, ["say 2", "say 2"]), duel)
    assert rec.result == game.result and rec.result["winners"] == []
    rec.result = old
    again = record.replay(duel, rec)
    assert again.result["outcomes"] == ["draw", "draw"]
    rec.result = dict(old, scores=[2, 1])
    with pytest.raises(record.RecordError):
        record.replay(duel, rec)


def test_the_record_digest_does_not_change_with_the_new_result_keys(tmp_path):
    """Records keep the digests they were written with: the digest hashes the result in
    its first form (scores, tiebreaks, ranking, first group)."""
    duel = load(tmp_path, "duel", DUEL)
    game = play(duel, 2, [1, 0])
    state = game.state
    state["result"] = {"scores": [2, 1], "tiebreaks": {}, "ranking": [[0], [1]], "winners": [0]}
    del state["unsure"]  # (newer than those records too: left out of digests)
    import hashlib
    old = hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert record.digest(game) == old


# ---------------------------------------------------------------- the CLI

def test_simulate_counts_draws_as_draws(tmp_path):
    folder = write(tmp_path, "duel", DUEL.replace('[1, 2] as "say"', '[1] as "say"'))
    r = run("simulate", folder, "--games", 5, "--json")
    assert r.exit_code == 0, r.output
    stats = json.loads(r.output)
    assert stats["drawn_games"] == 5 and stats["shared_wins"] == 0
    assert [(s["wins"], s["draws"], s["losses"]) for s in stats["seats"]] == [(0, 5, 0)] * 2
    r = run("simulate", folder, "--games", 5)
    assert r.exit_code == 0 and "Draws" in r.output and "drawn games" in r.output
    assert [line.split("│")[2:5] for line in r.output.splitlines() if "Player 1" in line] \
        == [["    0 ", "     5 ", "      0 "]]


def test_simulate_counts_outcomes_by_rule(tmp_path):
    folder = write(tmp_path, "bank", BANK)
    r = run("simulate", folder, "--games", 30, "--players", 1, "--json")
    stats = json.loads(r.output)
    seat = stats["seats"][0]
    assert seat["wins"] + seat["draws"] + seat["losses"] == 30
    assert seat["draws"] > 0 and seat["losses"] > 0 and seat["wins"] > 0


def test_the_end_screen_says_draw(tmp_path):
    folder = write(tmp_path, "duel", DUEL)
    r = run("play", folder, "--bot", "1=first", "--bot", "2=first", "--seed", 1,
            "--record", tmp_path / "r.json")
    assert r.exit_code == 0, r.output
    tail = r.output.split("Result")[-1]
    assert "\nDraw\n" in tail, tail
    assert "Winner" not in tail and "Shared win" not in tail
    assert tail.count("Draw") == 3            # two rows and the line below the table
    r = run("replay", tmp_path / "r.json", "--ruleset", folder, "--json")
    assert json.loads(r.output)["result"]["outcomes"] == ["draw", "draw"]


def test_the_end_screen_shows_teams_and_outcomes(tmp_path):
    folder = write(tmp_path, "teams", TEAMS)
    r = run("play", folder, "--bot", "1=first", "--bot", "2=first", "--bot", "3=first",
            "--bot", "4=first", "--seed", 1, "--record", tmp_path / "r.json")
    assert r.exit_code == 0, r.output
    tail = r.output.split("Result")[-1]
    assert "Team" in tail and "Outcome" in tail and tail.count("Draw") == 5


def test_meeple_test_accepts_drawn_games(tmp_path):
    folder = write(tmp_path, "duel", DUEL)
    r = run("test", folder, "--examples", 20, "--seed", 1, "--quiet", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["ok"] is True


# ---------------------------------------------------------------- participants

DEALER = """ruleset dealer
players 1..2
participant dealer score = dealer_total
participant nature
kind Card { v: int }
zone dealer_hand: Card public
var dealer_total: int = 0
var stand: int per player = 0
var turns: int = 0
setup { pick d at random from [17, 19]  dealer_total = d }
turn { choose x from [18, 20] as "stand"  stand(active) = x  turns = turns + 1 }
end when turns == player_count()
score(p) = stand(p)
outcome(p) {
  win when stand(p) > dealer_total
  loss otherwise
}
name dealer "Dealer"
"""


def test_a_participant_scores_in_the_result_and_on_the_end_screen(tmp_path):
    dealer = load(tmp_path, "dealer", DEALER)
    r = play(dealer, 2, [1, 0]).result
    d = r["participants"]["dealer"]
    assert d in (17, 19) and r["participants"]["nature"] is None
    assert r["outcomes"] == ["win", "win" if d == 17 else "loss"]
    assert len(r["scores"]) == 2 and sorted(p for g in r["ranking"] for p in g) == [0, 1]
    assert dealer.resume(json.loads(play(dealer, 1, [0]).to_json())).result["participants"]
    folder = write(tmp_path, "dealer", DEALER)
    out = run("play", folder, "--players", 1, "--bot", "1=first", "--seed", 3,
              "--record", tmp_path / "r.json").output.split("Result")[-1]
    row = [line for line in out.splitlines() if "Dealer" in line]
    assert len(row) == 1 and ("17" in row[0] or "19" in row[0]), out


@pytest.mark.parametrize("use", ['choose x from [1] by dealer as "go"', "let q = dealer"])
def test_a_participant_is_not_a_seat(tmp_path, use):
    text = DEALER.replace('turn { choose x from [18, 20] as "stand"',
                          f'turn {{ {use}  choose x from [18, 20] as "stand"')
    with pytest.raises(MeepleError) as e:
        load(tmp_path, "bad", text)
    d = e.value.diagnostics[0]
    assert d.code == "check/not-a-seat" and "'dealer' is a participant, not a seat" in d.message
    assert d.span.line == 11 and d.hint
