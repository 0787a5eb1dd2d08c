"""`bound N turns|moves [or endless]` and games that go round in circles: a game that
comes back to a position, once `meeple test` plays only first moves, never ends, so the
test stops it at once and reports the cycle (a failure of the bound), or, when the
ruleset declares that a game may go on for ever, counts it and goes on."""
from __future__ import annotations

import json

import pytest
from meeple.cli.main import app
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import cycles
from meeple.interpreter.analysis.invariants import (
    Config,
    Failure,
    GameChecker,
    Stats,
    explore,
    play_and_check,
)
from typer.testing import CliRunner

from meeple import interpreter

# A token on squares 0 to 4: each player in turn moves it on or back (not below 0); the
# options come in the enum's order: back first, so a game of first moves never ends
# (with the order "on, back", on first: it goes on past any square).
SHUTTLE = """ruleset shuttle
title "Shuttle"
players 2..2
enum Step { ORDER }
var square: int = 0
turn {
  choose s from [back, on] as "step"
  square = if s == on then square + 1 else max(0, square - 1)
}
end when END
score(p) = if p == active then 1 else 0
BOUND
"""


def shuttle(bound: str = "bound 40 turns", end: str = "square == 4", order: str = "back, on"):
    text = source(bound, end, order)
    return interpreter.compile_sources(SourceSet(base=parse(text, "shuttle.meeple"),
                                                 sources={"shuttle.meeple": text}))


def test_a_game_of_first_moves_that_comes_back_to_a_position_fails_at_once_with_its_cycle():
    with pytest.raises(Failure) as e:
        play_and_check(shuttle(), Config(2), 0, [])
    f = e.value
    assert f.check == "bound" and "never ends" in f.message and "goes round in circles" in f.message
    assert "the first 2 moves come back to the position the game started in" in f.message
    assert f.cycle == cycles.Cycle(0, 2)
    # stopped as soon as the position came back, not at the bound of 40 turns (81 moves)
    assert f.moves == ["step back", "step back"]


def test_the_cycle_reported_is_the_first_and_the_record_ends_with_it():
    # on, on, back: square 1 with the second player to move comes back after 3 moves;
    # then first moves (back) go round square 0, which stops the game
    with pytest.raises(Failure) as e:
        play_and_check(shuttle(), Config(2), 0, [1, 1, 0])
    f = e.value
    assert f.cycle == cycles.Cycle(1, 2) and f.moves == ["step on", "step on", "step back"]
    assert "after 1 move, the next 2 moves come back to the same position" in f.message
    rec = f.record()
    assert rec.moves == f.moves


def test_a_game_that_reaches_its_bound_names_a_cycle_it_went_round_earlier():
    # on then back: the drawn choices come back to the start; then first moves (on) go on
    # for ever without coming back, so the game reaches its bound
    with pytest.raises(Failure) as e:
        play_and_check(shuttle("bound 10 turns", "false", "on, back"), Config(2), 0, [0, 1])
    f = e.value
    assert f.message.startswith("the game did not end within its bound of 10 turns; it can go "
                                "round in circles: the first 2 moves come back to the position "
                                "the game started in")
    assert f.cycle == cycles.Cycle(0, 2) and f.moves == ["step on", "step back"]


def test_first_moves_going_round_positions_drawn_before_are_caught_too():
    # back, on, on, back (drawn: square 1 comes back), then back, back...: the first
    # moves go round square 0, positions the drawn moves reached already (after 0 and 1
    # moves), and again
    with pytest.raises(Failure) as e:
        play_and_check(shuttle(), Config(2), 0, [0, 1, 1, 0])
    f = e.value
    assert "never ends" in f.message and f.cycle == cycles.Cycle(2, 2)
    assert f.moves == ["step back", "step on", "step on", "step back"]


def test_a_bound_failure_without_a_cycle_is_as_before():
    with pytest.raises(Failure) as e:
        play_and_check(shuttle("bound 10 turns", "false", "on, back"), Config(2), 0, [])
    assert e.value.message == "the game did not end within its bound of 10 turns"
    assert e.value.cycle is None and len(e.value.moves) == 11


def test_rules_that_read_the_turn_number_make_it_part_of_the_position():
    # first moves go round in circles, but the rules end the game after 30 turns: not
    # cut short as a cycle
    game = play_and_check(shuttle("bound 40 turns", "square == 4 or turn_number() >= 30"),
                          Config(2), 0, [])
    assert game.over and game.turn_number == 30
    assert cycles.reads_turn(shuttle(end="turn_number() > 50 or square == 4").checked)
    assert not cycles.reads_turn(shuttle().checked)


def test_or_endless_stops_a_game_at_its_bound_and_counts_it():
    stats = Stats()
    game = play_and_check(shuttle("bound 40 turns or endless"), Config(2), 0, [], stats)
    assert not game.over and game.turn_number == 2       # stopped at the cycle, not a failure
    assert (stats.games, stats.endless, stats.cycles) == (1, 1, 1)
    stats = Stats()
    game = play_and_check(shuttle("bound 5 turns or endless", "false", "on, back"), Config(2), 0,
                          [], stats)
    assert not game.over and game.turn_number == 6       # past its bound: stopped there
    assert (stats.endless, stats.cycles) == (1, 0)
    stats = Stats()
    game = play_and_check(shuttle("bound 40 turns or endless", order="on, back"), Config(2), 0,
                          [], stats)
    assert game.over and (stats.games, stats.endless, stats.cycles) == (1, 0, 0)   # it ended
    stats = Stats()
    assert explore(lambda c: shuttle("bound 40 turns or endless"), [Config(2)], 10, 0, stats) is None
    # (how many of Hypothesis's 10 games come round depends on the examples it draws: run
    # alone, some end; in the whole suite, twice, all 10 came round, for a reason not
    # found yet: the game above checks that a game that ends is not counted)
    assert stats.games == 10 and 0 < stats.endless <= 10 and stats.cycles > 0


def test_hypothesis_shrinks_a_bound_failure_to_a_short_cycle():
    failure = explore(lambda c: shuttle(), [Config(2)], 30, 3, Stats())
    assert failure.check == "bound" and failure.cycle is not None
    assert failure.cycle.length == 2 and len(failure.moves) <= 4


def test_bound_only_checks_nothing_but_the_bound():
    broken = shuttle().checked
    rs = shuttle("invariant never: false\nbound 40 turns")
    with pytest.raises(Failure, match="invariant 'never'"):
        play_and_check(rs, Config(2), 0, [1, 1, 1, 1])
    GameChecker(rs, Config(2), 0, bound_only=True).play([1, 1, 1, 1])   # ends: square 4
    with pytest.raises(Failure, match="goes round in circles"):
        GameChecker(rs, Config(2), 0, bound_only=True).play([])
    assert not broken.endless


def source(bound: str = "bound 40 turns", end: str = "square == 4", order: str = "back, on") -> str:
    return SHUTTLE.replace("END", end).replace("BOUND", bound).replace("ORDER", order)


runner = CliRunner()


def test_meeple_test_reports_the_cycle_and_the_endless_games(tmp_path):
    (tmp_path / "s.meeple").write_text(source(), encoding="utf-8")
    out = tmp_path / "f.json"
    r = runner.invoke(app, ["test", str(tmp_path / "s.meeple"), "-o", str(out), "-q", "-n", "20"])
    assert r.exit_code == 1, r.output
    assert "FAILED bound: the game never ends" in r.output
    assert "then, again and again: step back / step back" in r.output
    assert json.loads(out.read_text())["moves"] == ["step back", "step back"]
    r = runner.invoke(app, ["test", str(tmp_path / "s.meeple"), "-o", str(out), "-n", "20",
                            "--json"])
    doc = json.loads(r.stdout)
    assert doc["failure"]["cycle"] == {"start": 0, "length": 2} and not doc["bound"]["endless"]
    (tmp_path / "s.meeple").write_text(source("bound 40 turns or endless"), encoding="utf-8")
    r = runner.invoke(app, ["test", str(tmp_path / "s.meeple"), "-q", "-n", "20"])
    assert r.exit_code == 0, r.output
    assert "bound 40 turns or endless" in r.output
    assert "did not end within the bound, which says 'or endless': not a failure" in r.output
    r = runner.invoke(app, ["test", str(tmp_path / "s.meeple"), "-n", "20", "--json"])
    doc = json.loads(r.stdout)
    assert doc["ok"] and doc["bound"]["endless"] and 0 < doc["endless_games"] <= 20
    assert 0 < doc["endless_cycles"] <= doc["endless_games"]


# A trap: a jump sends the token to square 10, from where it goes round 10 and 11 for
# ever, whatever the players choose.
TRAP = """ruleset trap
players 2..2
enum Step { on, back, jump }
var square: int = 0
turn {
  choose s from [on, back, jump] as "step"
  square = if square >= 10 then 21 - square else if s == on then square + 1
           else if s == back then max(0, square - 1) else 10
}
end when square == 4
score(p) = 0
bound 100 turns
"""


def test_shrinking_a_bound_failure_plays_a_limited_number_of_games(monkeypatch):
    from meeple.interpreter.analysis import invariants
    trap = interpreter.compile_sources(SourceSet(base=parse(TRAP, "trap.meeple"),
                                                 sources={"trap.meeple": TRAP}))
    played = []
    init = GameChecker.__init__

    def counting(self, *args, **kwargs):
        init(self, *args, **kwargs)
        played.append(self.bound_only)
    monkeypatch.setattr(GameChecker, "__init__", counting)
    failure = explore(lambda c: trap, [Config(2)], 10, 1, Stats())
    assert failure.moves == ["step jump", "step on", "step on"] and failure.cycle == cycles.Cycle(1, 2)
    assert played.count(True) > 10        # shrinking it took many games, checking the bound only
    played.clear()
    monkeypatch.setattr(invariants, "SHRINK_BOUND_GAMES", 3)
    failure = explore(lambda c: trap, [Config(2)], 10, 1, Stats())
    assert failure.check == "bound" and failure.cycle is not None
    assert played.count(True) <= 4


# Brotherhood of Nine: `meeple test brotherhood-of-nine --seed 1` once failed after 7
# minutes ("the game did not end within its bound of 10000 moves"): 3 players, a game in
# which, after 632 moves, 26 moves (a shield knocked off and put back, warriors walking
# back and forth) come back to the same position. Its rules end a battle only when one
# Brotherhood is left (or surrenders): the ruleset now says so.
BROTHERHOOD = (Config(3, ("allies", "allies_crosswise")), 244516, [20, 19, 20, 62, 19, 39, 20])


def test_the_brotherhood_game_that_went_round_in_circles_is_declared_endless():
    config, seed, choices = BROTHERHOOD
    rules = interpreter.load("brotherhood-of-nine", list(config.variants))
    stats = Stats()
    checker = GameChecker(rules, config, seed, stats, bound_only=True)
    game = checker.play(choices)
    assert not game.over and (stats.endless, stats.cycles) == (1, 1)
    assert len(checker.moves) == 658 and checker.cycle == cycles.Cycle(632, 26)
