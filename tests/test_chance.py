"""Chance made explicit (issue 11 §2): every random event is a chance step that the API
lists with exact probabilities, that a test can set, and that a record stores; the
seeded generator stays the default and draws exactly as before. Proved on small games
written here: two dice, Kuhn poker, a private die."""
from __future__ import annotations

import json
from fractions import Fraction

import jsonschema
import pytest
from meeple.interpreter import IllegalMove, histories, perft
from meeple.interpreter.analysis import testing
from meeple.interpreter.play import record, views
from meeple.interpreter.play.helpers import RuleError

from meeple import interpreter

TWO_DICE = """ruleset two_dice
title "Two dice"
players 1..1
var total: int = 0
turn {
  roll a, b from 1..6
  total = a + b
  end game
}
score(p) = total
"""

KUHN = """ruleset kuhn
title "Kuhn poker"
players 2..2
kind Card { value: int }
zone deck: Card hidden
zone hand: Card per player
deck cards into deck { Card(value: v) for v in 1..3 }
label Card "{value}"
var acts: list of int = []
function act(i: int): int = if size(acts) > i then acts[i] else -1
function folded(): bool = acts == [1, 0] or acts == [0, 1, 0]
function done(): bool = folded() or acts == [0, 0] or acts == [0, 1, 1] or acts == [1, 1]
function card(p: player): int = top(hand(p)).value
function stake(): int = if act(1) == 1 or act(2) == 1 then 2 else 1
function winner(): player = if folded() then next_player(active)
  else (if card(players[0]) > card(players[1]) then players[0] else players[1])
setup {
  shuffle deck
  deal 1 from deck to hand
}
turn {
  choose a from [0, 1] as "act"
  acts = acts + [a]
}
end when done()
score(p) = if p == winner() then stake() else 0 - stake()
"""

# a die rolled inside a turn, after a decision; the roll is the owner's secret
PRIVATE_DIE = """ruleset private_die
title "Private die"
players 2..2
var die: int per player owner = 0
var secret_total: int hidden = 0
var rounds: int = 0
turn {
  choose n from [1, 2] as "roll"
  roll d from 1..6
  die(active) = d * n
  secret_total = secret_total + d
  rounds = rounds + 1
}
end when rounds == 2
score(p) = die(p)
"""

ALIKE = """ruleset alike
title "Alike cards"
players 2..2
enum Colour { red, blue }
kind Card { colour: Colour }
zone pile: Card hidden
zone hand: Card per player
deck cards into pile { Card(colour: red) for i in 1..2 }
deck more into pile { Card(colour: blue) }
var picked: int = 0
var best_value: int = 0
setup {
  shuffle pile
  deal 1 from pile to hand
  pick x at random from [1, 1, 2]
  picked = x
  best v in [3, 5, 5, 4] by v % 5 == 0 tie random
  best_value = v
}
turn { end game }
score(p) = picked
"""


def _load(tmp_path, text: str, name: str):
    f = tmp_path / f"{name}.meeple"
    f.write_text(text, encoding="utf-8")
    return interpreter.load(str(f))


@pytest.fixture
def dice(tmp_path):
    return _load(tmp_path, TWO_DICE, "two_dice")


@pytest.fixture
def kuhn(tmp_path):
    return _load(tmp_path, KUHN, "kuhn")


# ---------------------------------------------------------------- dice

def test_roll_lists_each_face_with_probability_one_sixth(dice):
    game = dice.new_game(1, chance="explicit")
    assert game.at_chance and game.chance_kind == "roll"
    outs = game.chance_outcomes()
    assert [o.notation for o in outs] == ["1", "2", "3", "4", "5", "6"]
    assert all(o.probability == Fraction(1, 6) for o in outs)
    assert game.legal_moves() == [] and game.active_player is None


def test_two_dice_sum_seven_has_probability_one_sixth_by_enumeration(dice):
    game = dice.new_game(1, chance="explicit")
    ends = list(histories(game))
    assert len(ends) == 36
    assert sum(p for _, p, _ in ends) == 1
    seven = sum(p for _, p, g in ends if g.result["scores"] == [7])
    assert seven == Fraction(1, 6)
    twelve = sum(p for _, p, g in ends if g.result["scores"] == [12])
    assert twelve == Fraction(1, 36)


def test_a_fixed_roll_yields_the_asked_branch(dice):
    game = testing.new_game(dice, 1, outcomes=["3", "4"])
    assert game.over and game.result["scores"] == [7]
    game = testing.new_game(dice, 1, outcomes=[5])      # by index: the face 6
    assert game.at_chance                                 # the second die waits
    testing.fix_chance(game, "1")
    assert game.result["scores"] == [7]


def test_a_die_rolled_inside_a_turn_can_be_fixed(tmp_path):
    prog = _load(tmp_path, PRIVATE_DIE, "private_die")
    game = testing.new_game(prog, 2, outcomes=["6", "2"])
    testing.play(game, "roll 2", "roll 1")
    assert game.over and game.result["scores"] == [12, 2]


def test_seeded_roll_draws_from_the_generator(dice):
    seeded = dice.new_game(1, seed=3)
    assert seeded.over and "chance" not in seeded.state
    explicit = dice.new_game(1, seed=3, chance="explicit")
    while explicit.at_chance:
        explicit.sample_chance()
    assert explicit.result == seeded.result


def test_a_move_at_a_chance_step_is_illegal_and_a_bad_outcome_is_named(dice):
    game = dice.new_game(1, chance="explicit")
    with pytest.raises(IllegalMove, match="chance step comes first"):
        game.apply(0)
    with pytest.raises(IllegalMove, match="'7' is not an outcome of this chance step"):
        game.apply_chance("7")
    with pytest.raises(IllegalMove, match="no outcome number 6"):
        game.apply_chance(6)
    with pytest.raises(ValueError, match="chance must be one of"):
        dice.new_game(1, chance="dice")


def test_a_die_with_no_faces_at_run_time_is_a_rule_error(tmp_path):
    prog = _load(tmp_path, TWO_DICE.replace("1..6", "1..total"), "no_faces")
    with pytest.raises(RuleError, match="'roll' of a die with no faces"):
        prog.new_game(1)


# ---------------------------------------------------------------- Kuhn poker

def test_kuhn_poker_has_six_deals_and_thirty_terminal_histories(kuhn):
    game = kuhn.new_game(2, chance="explicit")
    ends = list(histories(game))
    assert len(ends) == 30
    deals = {tuple(e["chance"] for e in path if isinstance(e, dict)) for path, _, _ in ends}
    assert len(deals) == 6 and all(len(d) == 2 for d in deals)  # the last card is forced
    # every deal is equally likely; decisions weigh 1, so 5 histories per deal
    assert sum(p for _, p, _ in ends) == 5
    assert {p for _, p, _ in ends} == {Fraction(1, 6)}
    # the game is zero-sum and card 3 never loses at showdown
    assert all(sum(g.result["scores"]) == 0 for _, _, g in ends)


def test_kuhn_poker_has_twelve_information_sets_in_the_views(kuhn):
    infos, stack = set(), [kuhn.new_game(2, chance="explicit")]
    while stack:
        g = stack.pop()
        if g.over:
            continue
        if g.at_chance:
            for o in g.chance_outcomes():
                child = g.copy()
                child.apply_chance(o)
                stack.append(child)
            continue
        seat = g.active_player
        infos.add((seat, json.dumps(views.view(g, seat), sort_keys=True)))
        for m in g.legal_moves():
            child = g.copy()
            child.apply(m)
            stack.append(child)
    assert len(infos) == 12
    assert sum(1 for seat, _ in infos if seat == 0) == 6


def test_perft_counts_chance_branches_only_with_chance(kuhn):
    game = kuhn.new_game(2, chance="explicit")
    assert perft(game, 1, chance=True) == 12        # 6 deals x 2 first actions
    assert perft(game, 3, chance=True) == 12        # pass-bet-pass, pass-bet-bet per deal
    assert perft(game, 0, chance=True) == 6
    seeded = kuhn.new_game(2, seed=1)
    assert perft(seeded, 2) == 4                    # decision-only, one deal


def test_a_shuffle_step_says_which_card_goes_on_top(kuhn):
    game = kuhn.new_game(2, chance="explicit")
    assert game.chance_kind == "shuffle"
    outs = game.chance_outcomes()
    assert [o.notation for o in outs] == ["1", "2", "3"]
    assert [o.probability for o in outs] == [Fraction(1, 3)] * 3
    game.apply_chance("3")            # the top card: dealt first, to seat 1
    assert [o.probability for o in game.chance_outcomes()] == [Fraction(1, 2)] * 2
    game.apply_chance("1")
    hands = [testing.at(game, f"hand:{s}") for s in (0, 1)]
    assert [game.program.items[h[0]].attrs["value"] for h in hands] == [3, 1]


# ---------------------------------------------------------------- alike items, pick, ties

def test_alike_items_are_one_outcome_with_summed_probability(tmp_path):
    prog = _load(tmp_path, ALIKE, "alike")
    game = prog.new_game(2, chance="explicit")
    outs = game.chance_outcomes()
    assert [(o.notation, o.probability) for o in outs] == [("red", Fraction(2, 3)), ("blue", Fraction(1, 3))]
    game.apply_chance("blue")         # the two reds left are alike: no further shuffle step
    assert game.chance_kind == "pick"
    assert [(o.value, o.probability) for o in game.chance_outcomes()] == \
        [(1, Fraction(2, 3)), (2, Fraction(1, 3))]
    game.apply_chance("2")
    # the tie between 5 and 5 is no chance step: both are one value
    assert game.over and game.state["vars"]["best_value"] == 5 and game.result["scores"] == [2, 2]


def test_a_sampled_game_with_alike_cards_is_the_seeded_game(tmp_path):
    prog = _load(tmp_path, ALIKE, "alike")
    for seed in range(6):
        seeded = prog.new_game(2, seed=seed)
        explicit = prog.new_game(2, seed=seed, chance="explicit")
        while explicit.at_chance:
            explicit.sample_chance()
        state = explicit.state
        state.pop("chance")
        assert state == seeded.state


def test_distinguishable_orders_of_alike_cards_are_counted_once(tmp_path):
    prog = _load(tmp_path, ALIKE.replace("[3, 5, 5, 4]", "[3, 5, 10, 4]"), "alike")
    game = prog.new_game(2, chance="explicit")
    ends = list(histories(game))
    orders = {tuple(e["chance"] for e in path if e["chance"] in ("red", "blue")) for path, _, _ in ends}
    # blue on top, in the middle (red on top, then blue), or at the bottom (red, red)
    assert orders == {("blue",), ("red", "blue"), ("red", "red")}
    assert sum(p for _, p, _ in ends) == 1
    ties = {g.state["vars"]["best_value"] for _, _, g in ends}
    assert ties == {5, 10}


# ---------------------------------------------------------------- the seeded default

@pytest.mark.parametrize("name", ["cherokee", "clans-and-glory"])
def test_a_sampled_explicit_game_is_the_seeded_game(name):
    """Sampling each chance step draws exactly what the seeded mode draws: the two games
    have the same state at every decision (the seeded one as it always was)."""
    rules = interpreter.load(name)
    n = rules.min_players
    seeded = rules.new_game(n, seed=11)
    explicit = rules.new_game(n, seed=11, chance="explicit")
    steps = 0
    while True:
        while explicit.at_chance:
            explicit.sample_chance()
            steps += 1
        state = explicit.state
        assert state.pop("chance")["step"] is None
        assert state == seeded.state
        if seeded.over:
            break
        k = seeded.state["moves"] % len(seeded.legal_moves())
        seeded.apply(k)
        explicit.apply(k)
    assert steps > 10


def test_the_seeded_mode_keeps_no_chance_state():
    game = interpreter.load("cherokee").new_game(2, seed=5)
    assert "chance" not in game.state and game.chance_mode == "seeded" and not game.at_chance
    assert game.chance_outcomes() == []


# ---------------------------------------------------------------- views and secrets

def test_views_at_a_chance_step_say_only_that_it_waits(kuhn):
    game = kuhn.new_game(2, chance="explicit")
    game.apply_chance("3")
    for seat in (0, 1, views.SPECTATOR):
        v = views.view(game, seat)
        assert v["chance"] is True and v["pending"] is None
        assert "taken" not in json.dumps(v) and "weights" not in json.dumps(v)
    # the outcome set (which card lies on top) changes no seat's view before it is dealt
    seen = set()
    for o in game.chance_outcomes():
        child = game.copy()
        child.apply_chance(o)
        assert not child.at_chance
        seen.add(json.dumps(views.view(child, 1)["zones"]["hand:1"]))
    assert len(seen) == 2             # once dealt, seat 2 holds one of the two cards left
    other = kuhn.new_game(2, chance="explicit")
    other.apply_chance("1")
    assert views.view(other, 0) == views.view(game, 0)


def test_a_private_die_is_seen_by_its_owner_only(tmp_path):
    prog = _load(tmp_path, PRIVATE_DIE, "private_die")
    game = testing.new_game(prog, 2, outcomes=["5"])
    testing.play(game, "roll 1")
    assert game.state["pvars"]["die"] == [5, 0]
    assert views.view(game, 0)["pvars"]["die"] == [5, {"hidden": True}]
    assert views.view(game, 1)["pvars"]["die"] == [{"hidden": True}, 0]
    assert views.view(game, views.SPECTATOR)["pvars"]["die"] == [{"hidden": True}] * 2
    assert views.view(game, "all")["pvars"]["die"] == [5, 0]
    assert views.view(game, 0)["vars"]["secret_total"] == {"hidden": True}
    assert views.view(game, "all")["vars"]["secret_total"] == 5
    assert views.view(game, 0)["vars"]["rounds"] == 1


# ---------------------------------------------------------------- states and records

def test_a_game_waiting_at_a_chance_step_resumes_from_json(kuhn):
    game = kuhn.new_game(2, chance="explicit")
    game.apply_chance("2")
    again = kuhn.resume(json.loads(game.to_json()))
    assert again.at_chance and again.chance_outcomes() == game.chance_outcomes()
    again.apply_chance("3")
    game.apply_chance("3")
    assert again.state == game.state
    broken = json.loads(game.to_json())
    broken["pending"] = None
    with pytest.raises(interpreter.StateError):
        kuhn.resume(broken)


def test_a_record_stores_and_replays_chance_outcomes(kuhn, tmp_path):
    game = kuhn.new_game(2, seed=4, chance="explicit")
    entries = []
    for outcome in ("2", "1"):
        entries.append(record.entry(game.apply_chance(outcome)))
    for move in ("act 1", "act 1"):
        entries.append(record.entry(game.apply(move)))
    assert entries == [{"chance": "2"}, {"chance": "1"}, "act 1", "act 1"]
    rec = record.Record("kuhn", 2, 4, [], None, entries, chance="explicit")
    rec = record.complete(rec, kuhn)
    data = rec.to_dict()
    assert data["chance"] == "explicit" and len(data["digests"]) == 4
    schema = json.loads((record.SCHEMA_PATH).read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    rec.save(tmp_path / "kuhn.json")
    back = record.load(tmp_path / "kuhn.json")
    replayed = record.replay(kuhn, back)
    assert record.digest(replayed) == record.digest(game)
    assert replayed.result["scores"] == [2, -2]
    # a chance outcome in a record of the seeded mode is refused, as is a wrong one
    seeded = dict(data, chance="seeded")
    seeded.pop("digests")
    with pytest.raises(record.RecordError, match="moves/0: a chance outcome in a record"):
        record.from_dict(seeded)
    wrong = dict(data, moves=[{"chance": "9"}] + data["moves"][1:])
    wrong.pop("digests")
    wrong.pop("state_digest")
    wrong.pop("result")
    with pytest.raises(record.RecordError, match="chance outcome 1 '9' cannot be set"):
        record.replay(kuhn, record.from_dict(wrong))


def test_the_command_line_replays_a_record_of_explicit_chance_but_does_not_resume_it(kuhn, tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    rules = tmp_path / "kuhn.meeple"
    game = kuhn.new_game(2, seed=4, chance="explicit")
    entries = [record.entry(game.apply_chance("3")), record.entry(game.apply_chance("2")),
               record.entry(game.apply("act 0"))]
    rec = record.complete(record.Record(str(rules), 2, 4, [], None, entries, chance="explicit"), kuhn)
    rec.save(tmp_path / "kuhn.json")
    runner = CliRunner()
    replayed = runner.invoke(app, ["replay", str(tmp_path / "kuhn.json"), "--ruleset", str(rules)])
    assert replayed.exit_code == 0, replayed.output
    resumed = runner.invoke(app, ["play", "--resume", str(tmp_path / "kuhn.json"), "--ruleset", str(rules)])
    assert resumed.exit_code != 0 and "explicit chance" in resumed.output


def test_testing_position_sets_outcomes_as_they_come(tmp_path):
    prog = _load(tmp_path, PRIVATE_DIE, "private_die")
    game = testing.position(prog, 2, zones={}, active=1, outcomes=["4"])
    testing.play(game, "roll 2")
    assert game.state["pvars"]["die"] == [0, 8]
    testing.play(game, "roll 1")
    assert game.at_chance              # the script ran out: the next roll waits
    with pytest.raises(ValueError, match="explicit chance mode"):
        testing.fix_chance(prog.new_game(2), "1")


# ---------------------------------------------------------------- meeple test and private values

LEAKY_DIE = """ruleset leaky_die
title "Leaky die"
players 2..2
var die: int per player owner = 0
var points: int per player = 0
var turns: int = 0
turn {
  roll d from 1..6
  die(active) = d
  choose c from 1..2 as "claim"
  points(active) = points(active) + die(active) * c
  turns = turns + 1
}
end when turns == 4
score(p) = points(p)
"""


def test_meeple_test_finds_a_private_die_that_leaks_into_a_public_variable(tmp_path):
    f = tmp_path / "leaky_die.meeple"
    f.write_text(LEAKY_DIE, encoding="utf-8")
    with pytest.raises(AssertionError, match=r"secrets/non-interference .*depends on variables it "
                                             r"may not see, in variable points .*the value of die"):
        testing.check_ruleset(str(f), examples=20)


def test_a_private_die_kept_private_passes_meeple_test(tmp_path):
    f = tmp_path / "private_die.meeple"
    f.write_text(PRIVATE_DIE, encoding="utf-8")
    testing.check_ruleset(str(f), examples=20)
    assert _load(tmp_path, PRIVATE_DIE, "private_die").hidden_information


# ---------------------------------------------------------------- the checker

def test_a_bad_roll_is_a_located_checker_error(tmp_path):
    text = TWO_DICE.replace("roll a, b from 1..6", "roll a, b from 6..1\n  roll c from [true]")
    f = tmp_path / "bad_dice.meeple"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(interpreter.MeepleError) as e:
        interpreter.load(str(f))
    got = {(d.code, d.span.line, d.span.column) for d in e.value.diagnostics}
    assert got == {("check/bad-value", 6, 18), ("check/type-mismatch", 7, 15)}
    assert f"{f}:6:18" in str(e.value) and "the die has no faces: 6..1 is empty" in str(e.value)


def test_a_variable_named_roll_still_works(tmp_path):
    """Backward compatible: 'roll' starts a roll only before a name; a ruleset written
    before the roll statement, with a variable called roll, still loads and plays."""
    rules = _load(tmp_path, """
ruleset old_roll
players 2..2
var roll: int = 0
var rolls: int per player = 0
turn {
  choose n from [1, 2] as "add"
  roll = roll + n
  rolls(active) = roll
  roll d from 1..2
}
end when roll > 5
score(p) = rolls(p)
""", "old_roll")
    game = rules.new_game(2, 0)
    while not game.over:
        game.apply(game.legal_moves()[-1])
    assert game.state["vars"]["roll"] == 6 and sorted(game.state["pvars"]["rolls"]) == [4, 6]
