"""Search bots (mcts, ismcts, greedy), their specs, and the determinizer they search with."""
from __future__ import annotations

import math
import random

import pytest
from meeple.cli.main import app
from meeple.interpreter import (
    BotSpecError,
    bot_move,
    bot_seed,
    determinize,
    determinize_past,
    make_bot,
    parse_spec,
)
from meeple.interpreter.analysis import leaks
from meeple.interpreter.bots import search
from meeple.interpreter.play import views
from typer.testing import CliRunner

from meeple import interpreter

TESTDATA = "tests/testdata"


def compiled(tmp_path, text: str, name: str = "t"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{name}.meeple").write_text(text)
    return interpreter.load(str(folder))


def play(ruleset, players: int, specs: list[str], seed: int) -> dict:
    """One game, bot against bot (seat s plays specs[s]): its result."""
    game = ruleset.new_game(players=players, seed=seed)
    bots = [make_bot(spec, bot_seed(seed, 0, s)) for s, spec in enumerate(specs)]
    while not game.over:
        seat = game.deciding[0]
        game.apply(bot_move(bots[seat], game, seat), seat=seat)
    return game.result


def wins_against_random(ruleset, spec: str, games: int) -> tuple[int, int]:
    """(wins, draws) of ``spec`` against random over ``games`` two-player games, seats
    alternating."""
    wins = draws = 0
    for k in range(games):
        me = k % 2
        specs = ["random", "random"]
        specs[me] = spec
        outcome = play(ruleset, 2, specs, seed=k)["outcomes"][me]
        wins += outcome == "win"
        draws += outcome == "draw"
    return wins, draws


# ---------------------------------------------------------------- specs

def test_a_spec_gives_the_bot_and_its_options_with_their_types():
    assert parse_spec("mcts") == ("mcts", {})
    assert parse_spec(" ISMCTS:iterations=400, c=0.7 ") == ("ismcts", {"iterations": 400, "c": 0.7})
    assert parse_spec("mcts:time=1.5") == ("mcts", {"time": 1.5})
    assert parse_spec("greedy:samples=2") == ("greedy", {"samples": 2})
    bot = make_bot("mcts:iterations=7,rollout=20", seed=3)
    assert (bot.iterations, bot.rollout, bot.time) == (7, 20, None)
    # time alone: as many iterations as the time allows
    assert make_bot("mcts:time=0.5").iterations is None
    assert make_bot("ismcts").iterations == 200
    bot = make_bot("ismcts:heuristic=0,cutoff=3,scale=2.5")
    assert (bot.use_hint, bot.cutoff, bot.scale) == (False, 3, 2.5)
    assert (make_bot("mcts").use_hint, make_bot("mcts").cutoff) == (True, 0)
    # ismcts's samples agree with the past unless told not to; mcts's never
    assert parse_spec("ismcts:history=off") == ("ismcts", {"history": False})
    assert (make_bot("ismcts").history, make_bot("ismcts:history=OFF").history) == (True, False)
    assert make_bot("mcts").history is False


@pytest.mark.parametrize("spec, said", [
    ("minimax", "unknown bot 'minimax'; bots are: first, greedy, ismcts, mcts, random"),
    ("mcts:depth=3", "bot 'mcts' has no option 'depth'; its options are: iterations, time, c, rollout"),
    ("mcts:iterations=many", "option iterations='many' must be a whole number"),
    ("mcts:heuristic=2", "option heuristic=2 must be at most 1"),
    ("greedy:scale=0", "option scale=0 must be at least 0.001"),
    ("mcts:iterations=0", "option iterations=0 must be at least 1"),
    ("mcts:time=-1", "option time=-1 must be at least 0.001"),
    ("mcts:time=nan", "must be at least"),
    ("mcts:iterations", "write options as KEY=VALUE"),
    ("mcts:iterations=3,iterations=4", "option 'iterations' is given twice"),
    ("random:iterations=3", "bot 'random' has no option 'iterations'; it takes no options"),
    ("ismcts:history=maybe", "option history='maybe' must be on or off, e.g. 'ismcts:history=off'"),
    ("mcts:history=on", "bot 'mcts' has no option 'history'"),
])
def test_a_bad_spec_says_what_is_wrong(spec, said):
    with pytest.raises(BotSpecError) as e:
        make_bot(spec)
    assert said in str(e.value)


# ---------------------------------------------------------------- determinization

def midgame(name: str, players: int, moves: int, seed: int = 0):
    game = interpreter.load(name).new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        seat = game.deciding[0]
        legal = game.legal_moves(seat)
        game.apply(legal[rnd.randrange(len(legal))], seat=seat)
    return game


def hidden_twin(game, seat: int):
    """The game with two items the seat has never seen exchanged: the same view for it."""
    known = leaks.Knowledge(len(game.program.items), game.players)
    known.update(game)
    pair = leaks.pick_pair(game, seat, known, 0, 0)
    assert pair is not None
    twin = leaks.exchange(game, *pair)
    assert views.view(twin, seat) == views.view(game, seat)
    assert twin.to_json() != game.to_json()
    return twin


@pytest.mark.parametrize("name, players, moves", [("hearts", 4, 5), ("cherokee", 3, 4)])
def test_a_determinized_game_shows_the_seat_what_it_saw_and_plays_on(name, players, moves):
    game = midgame(name, players, moves)
    seat = game.deciding[0]
    moved = False
    for k in range(6):
        sample = determinize(game, seat, random.Random(k))
        assert views.view(sample, seat) == views.view(game, seat)
        assert [m.notation for m in sample.legal_moves(seat)] == \
            [m.notation for m in game.legal_moves(seat)]
        moved = moved or sample.state["zones"] != game.state["zones"]
        # the sample is a game like any other: it plays on to its end
        rnd = random.Random(k)
        while not sample.over:
            s = sample.deciding[0]
            legal = sample.legal_moves(s)
            sample.apply(legal[rnd.randrange(len(legal))], seat=s)
    assert moved  # the hidden items were dealt anew
    assert game.state == midgame(name, players, moves).state  # the game is left as it was


@pytest.mark.parametrize("name, players, moves", [("hearts", 4, 5), ("cherokee", 3, 4),
                                                  ("hearts", 4, 0)])
def test_the_determinization_depends_only_on_what_the_seat_sees(name, players, moves):
    game = midgame(name, players, moves)
    seat = game.deciding[0]
    twin = hidden_twin(game, seat)
    for k in range(3):
        assert determinize(game, seat, random.Random(k)).state == \
            determinize(twin, seat, random.Random(k)).state


def test_the_determinization_does_not_carry_hidden_item_variables():
    # Brotherhood of Nine's pieces lie face down with item variables (wounds...): a twin
    # whose hidden piece is wounded has the same view, and must give the same sample
    game = midgame("brotherhood-of-nine", 2, 6)
    seat = game.deciding[0]
    state = game.state
    hidden = [i for i in range(len(game.program.items))
              if state["ivars"]["wounds"][i] is not None and not views.item_visible(game, i, seat)
              and any(i in z for z in state["zones"])]
    assert hidden
    state["ivars"]["wounds"][hidden[-1]] = 2   # one in the box, not among the options under way
    twin = game.program.resume(state)
    assert views.view(twin, seat) == views.view(game, seat) and twin.state != game.state
    for k in range(3):
        a, b = determinize(game, seat, random.Random(k)), determinize(twin, seat, random.Random(k))
        assert a.state == b.state
        assert views.view(a, seat) == views.view(game, seat)


def test_a_determinization_draws_the_secret_choices_of_the_other_seats_again(tmp_path):
    ruleset = compiled(tmp_path, SHOW_THREE)
    game = ruleset.new_game(players=2, seed=0)
    game.apply("show 2", seat=1)          # seat 1 has chosen in secret
    drawn = {str(determinize(game, 0, random.Random(k)).decision.chosen) for k in range(12)}
    assert drawn == {"(1,)"}              # still chosen, by seat 1...
    values = set()
    for k in range(12):
        sample = determinize(game, 0, random.Random(k))
        sample.apply("show 1", seat=0)
        values.add(sample.state["pvars"]["shown"][1])
    assert values == {1, 2, 3}            # ...but what it chose is drawn again


# ---------------------------------------------------------------- samples that respect the past

def hand_of(game, sample, player: int) -> list[int]:
    zones = [z.key for z in game.program.zones]
    return sample.state["zones"][zones.index(f"hand:{player}")]


def suit(game, card: int) -> str:
    return game.program.items[card].attrs["suit"]


def hearts_until(stop, seed: int):
    """A game of Hearts played at random (from ``seed``) until ``stop(game, seat, move)``
    says so before a move; returns the game and what ``stop`` returned."""
    game = interpreter.load("hearts").new_game(players=4, seed=seed)
    rnd = random.Random(seed)
    while True:
        seat = game.deciding[0]
        legal = game.legal_moves(seat)
        move = legal[rnd.randrange(len(legal))]
        found = stop(game, seat, move)
        if found:
            return game, found
        game.apply(move, seat=seat)


def discards(game, seat, move):
    """(seat, suit) when ``seat`` is about to play off the suit led (it has none) while
    two other seats still hold cards of that suit (one of them hidden from any seat)."""
    led = game.state["vars"]["led"]
    trick = game.state["zones"][[z.key for z in game.program.zones].index("trick")]
    if move.notation.startswith("play") and trick and suit(game, move.value) != led:
        holders = [p for p in range(4) if p != seat and
                   any(suit(game, c) == led for c in hand_of(game, game, p))]
        if len(holders) >= 2:
            return seat, led
    return None


def samples(game, seat, history: bool, n: int):
    past = determinize_past(game, seat) if history else None
    return [determinize(game, seat, random.Random(k), past) for k in range(n)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_seat_that_did_not_follow_suit_is_dealt_no_card_of_that_suit(seed):
    game, (void, led) = hearts_until(discards, seed)
    rnd = random.Random(seed)
    while True:  # on to the next decision of another seat, which samples the void seat
        seat = game.deciding[0]
        legal = game.legal_moves(seat)
        game.apply(legal[rnd.randrange(len(legal))], seat=seat)
        if game.deciding[0] != void:
            break
    seat = game.deciding[0]
    past = determinize_past(game, seat)
    assert past.steps
    drawn = samples(game, seat, True, 40)
    for sample in drawn:
        assert past.agreed_by(game, sample)
        assert not [c for c in hand_of(game, sample, void) if suit(game, c) == led]
        assert views.view(sample, seat) == views.view(game, seat)
    # a search bot's position samples so with history
    position = interpreter.bots.Position(game, seat)
    for k in range(10):
        sample = position.sample(random.Random(k), history=True)
        assert not [c for c in hand_of(game, sample, void) if suit(game, c) == led]
    # without the past, the same seat is dealt cards of that suit
    plain = samples(game, seat, False, 40)
    assert any(suit(game, c) == led for s in plain for c in hand_of(game, s, void))


@pytest.mark.parametrize("seed", [0, 3])
def test_the_cards_a_seat_passed_stay_with_the_seat_that_received_them(seed):
    passed = {p: [] for p in range(4)}

    def passes_done(game, seat, move):
        if move.notation.startswith("pass"):
            passed[seat].append(move.value)
        return move.notation.startswith("play")

    game, _ = hearts_until(passes_done, seed)
    seat = next(s for s in range(4) if s != game.deciding[0])
    mine = set(passed[seat])
    receivers = {p for p in range(4) if mine & set(hand_of(game, game, p))}
    assert len(mine) == 3 and len(receivers) == 1 and seat not in receivers
    (receiver,) = receivers
    for sample in samples(game, seat, True, 30):
        assert mine <= set(hand_of(game, sample, receiver))
    plain = samples(game, seat, False, 30)
    assert any(not mine <= set(hand_of(game, s, receiver)) for s in plain)


@pytest.mark.parametrize("name, players, moves", [("hearts", 4, 30), ("cherokee", 3, 12),
                                                  ("brotherhood-of-nine", 2, 10)])
def test_a_sample_that_respects_the_past_shows_what_the_seat_saw_and_plays_on(name, players, moves):
    game = midgame(name, players, moves)
    seat = game.deciding[0]
    past = determinize_past(game, seat)
    for k in range(4):
        sample = determinize(game, seat, random.Random(k), past)
        assert views.view(sample, seat) == views.view(game, seat)
        assert [m.notation for m in sample.legal_moves(seat)] == \
            [m.notation for m in game.legal_moves(seat)]
        rnd = random.Random(k)
        # (Brotherhood of Nine's samples may break its rules while the armies are laid
        # out, with or without the past: search counts them as failed iterations)
        while not sample.over and name != "brotherhood-of-nine":
            s = sample.deciding[0]
            legal = sample.legal_moves(s)
            sample.apply(legal[rnd.randrange(len(legal))], seat=s)
    assert game.state == midgame(name, players, moves).state  # the game is left as it was


def twins_with_a_past(seed: int, moves: int):
    """Two games of Hearts with the same past as seat 0 sees it: two cards of other
    seats exchanged at the start, then the same moves (those legal in both, the two
    cards never played nor passed, so that seat 0 never sees them), up to a decision of
    seat 0 after ``moves`` moves."""
    game = interpreter.load("hearts").new_game(players=4, seed=seed)
    seat = 0
    a, b = hand_of(game, game, 1)[-1], hand_of(game, game, 2)[-1]  # (not the two of clubs)
    twin = leaks.exchange(game, a, b)
    rnd = random.Random(seed)
    played = 0
    while played < moves or game.deciding[0] != seat:
        s = game.deciding[0]
        both = {m.value for m in twin.legal_moves(s)}
        legal = [m for m in game.legal_moves(s) if m.value not in (a, b) and m.value in both]
        m = legal[rnd.randrange(len(legal))]
        game.apply(m, seat=s)
        twin.apply(m.notation, seat=s)
        played += 1
        assert views.view(twin, seat) == views.view(game, seat)
    assert twin.state != game.state
    return game, twin, seat


@pytest.mark.parametrize("seed, moves", [(0, 20), (1, 33)])
def test_samples_that_respect_the_past_depend_only_on_what_the_seat_saw(seed, moves):
    game, twin, seat = twins_with_a_past(seed, moves)
    assert determinize_past(twin, seat).steps == determinize_past(game, seat).steps != []
    for k in range(4):
        assert determinize(game, seat, random.Random(k), determinize_past(game, seat)).state == \
            determinize(twin, seat, random.Random(k), determinize_past(twin, seat)).state


@pytest.mark.parametrize("spec", ["ismcts:iterations=20,rollout=30,history=on",
                                  "ismcts:iterations=20,rollout=30"])
def test_a_search_bot_that_respects_the_past_does_not_peek(spec):
    game, twin, seat = twins_with_a_past(2, 25)
    for seed in range(2):
        assert bot_move(make_bot(spec, seed), game, seat) == bot_move(make_bot(spec, seed), twin, seat)


HANDOFF = """ruleset handoff
players 2..2
kind Card { n: int }
zone deck: Card hidden
zone hand: Card per player
zone pile: Card hidden
deck cards into deck { Card(n: i) for i in 1..6 }
var stage: int = 0
setup {
  shuffle deck
  deal 3 from deck to hand
}
turn {
  if stage == 0 {
    choose c from items(hand(players[0])) by players[0] as "give"
    move c to hand(players[1])
  }
  if stage == 1 {
    choose d from items(hand(players[1])) by players[1] as "discard"
    move d to pile
  }
  if stage == 2 {
    choose e from items(hand(players[0])) by players[0] as "keep"
  }
  stage = stage + 1
}
end when stage == 3
score(p) = 0
"""


def test_a_card_given_then_maybe_discarded_face_down_is_not_placed_where_it_went(tmp_path):
    # seat 0 gives a card to seat 1, which discards a card face down: whether it was
    # that one, seat 0 cannot know, so its samples must not depend on it
    ruleset = compiled(tmp_path, HANDOFF)
    games = []
    for same in (True, False):
        game = ruleset.new_game(players=2, seed=4)
        given = game.legal_moves(0)[0]
        game.apply(given, seat=0)
        discards = game.legal_moves(1)
        game.apply(next(m for m in discards if (m.value == given.value) == same), seat=1)
        games.append(game)
    a, b = games
    assert views.view(a, 0) == views.view(b, 0) and a.state != b.state
    for k in range(6):
        assert determinize(a, 0, random.Random(k), determinize_past(a, 0)).state == \
            determinize(b, 0, random.Random(k), determinize_past(b, 0)).state


# ---------------------------------------------------------------- the bots never peek

@pytest.mark.parametrize("spec", ["ismcts:iterations=20,rollout=30", "mcts:iterations=20,rollout=30",
                                  "greedy:samples=1,rollout=30"])
@pytest.mark.parametrize("name, players, moves", [("hearts", 4, 5), ("cherokee", 3, 4)])
def test_for_the_same_seed_and_view_the_choice_does_not_depend_on_the_hidden_state(
        spec, name, players, moves):
    game = midgame(name, players, moves)
    seat = game.deciding[0]
    twin = hidden_twin(game, seat)
    for seed in range(2):
        assert bot_move(make_bot(spec, seed), game, seat) == bot_move(make_bot(spec, seed), twin, seat)


# ---------------------------------------------------------------- strength

def test_mcts_beats_random_at_tic_tac_toe():
    wins, draws = wins_against_random(interpreter.load(f"{TESTDATA}/ttt"), "mcts:iterations=80", 12)
    assert wins >= 9 and wins + draws == 12


def test_mcts_beats_random_at_small_dots_and_boxes():
    ruleset = interpreter.load("dots-and-boxes", variants=["small"])
    wins, draws = wins_against_random(ruleset, "mcts:iterations=150", 6)
    assert wins >= 5 and wins + draws == 6   # (no loss: two boxes each is a draw)


def test_mcts_beats_random_at_kalah():
    wins, _ = wins_against_random(interpreter.load("kalah"), "mcts:iterations=12,rollout=40", 2)
    assert wins == 2


def test_greedy_takes_a_winning_move():
    game = interpreter.load(f"{TESTDATA}/ttt").new_game(players=2, seed=0)
    for move in ("mark r1c1", "mark r2c1", "mark r1c2", "mark r2c2"):
        game.apply(move)
    moves = [m.notation for m in game.legal_moves()]
    assert moves[bot_move(make_bot("greedy"), game, 0)] == "mark r1c3"
    assert moves[bot_move(make_bot("mcts:iterations=30"), game, 0)] == "mark r1c3"


# ---------------------------------------------------------------- the ruleset's heuristic

# A race where the heuristic (a wrong one, on purpose) likes standing on 2 best: a bot
# that follows it runs 2, a bot that plays the race out runs 3.
RACE = """ruleset race
players 2..2
var at: int per player = 0
turn {
  choose step from [1, 2, 3] as "run"
  at(active) = at(active) + step
}
end when at(active) >= 6
score(p) = at(p)
heuristic(p) = if at(p) == 2 then 100 else at(p)
"""


def first_run(ruleset, spec: str) -> str:
    game = ruleset.new_game(players=2, seed=0)
    return game.legal_moves()[bot_move(make_bot(spec, 3), game, 0)].notation


def test_greedy_plays_the_move_whose_position_the_heuristic_values_best(tmp_path):
    race = compiled(tmp_path, RACE)
    assert first_run(race, "greedy") == "run 2"
    assert first_run(race, "greedy:heuristic=0,samples=20") == "run 3"


def test_mcts_values_the_positions_it_reaches_by_the_heuristic(tmp_path):
    race = compiled(tmp_path, RACE)
    # three iterations value each run once (by the heuristic, at once: cutoff=0), the
    # fourth goes to the best of them; played out, the race is won by running 3
    assert first_run(race, "mcts:iterations=4") == "run 2"
    assert first_run(race, "ismcts:iterations=4") == "run 2"
    assert first_run(race, "mcts:iterations=300,heuristic=0") == "run 3"
    # with a long cutoff the playouts reach the end of the race and its result counts
    assert first_run(race, "mcts:iterations=300,cutoff=50") == "run 3"


def test_the_heuristic_lead_over_the_best_other_seat_becomes_a_value_between_0_and_1(tmp_path):
    three = compiled(tmp_path, "ruleset three\nplayers 3..3\n"
                               "turn { choose x from [1, 2] as \"pick\"\n end game }\n"
                               "heuristic(p) = 10 * seat(p)\n")
    game = three.new_game(players=3, seed=0)
    values = search.hint_values(game)
    # seat 3 leads seat 2 by 10: about 0.73; seats 1 and 2 trail seat 3 by 20 and 10
    assert values[2] == pytest.approx(1 / (1 + math.exp(-1)))
    assert values[1] == pytest.approx(1 / (1 + math.exp(1)))
    assert values[0] == pytest.approx(1 / (1 + math.exp(2)))
    assert search.hint_values(game, scale=20)[2] == pytest.approx(1 / (1 + math.exp(-0.5)))
    # in a search, the gain since the position the bot decides in: no gain is even
    assert search.leads(game) == [-20, -10, 10]
    assert search.hint_values(game, base=[-20, -10, 10]) == [0.5, 0.5, 0.5]
    assert search.hint_values(game, base=[-30, -10, 20])[0] == pytest.approx(1 / (1 + math.exp(-1)))
    assert search.hint_values(compiled(tmp_path, RISK, "risk").new_game(players=2)) is None


def test_a_heuristic_that_breaks_a_rule_stops_the_bot_with_a_located_error(tmp_path):
    broken = compiled(tmp_path, RACE.replace("heuristic(p) = if at(p) == 2 then 100 else at(p)",
                                             "heuristic(p) = 100 / at(p)"))
    game = broken.new_game(players=2, seed=0)
    with pytest.raises(interpreter.RuleError, match=r"in the heuristic at .*t.meeple:10:16"):
        game.heuristic(0)
    with pytest.raises(interpreter.RuleError, match="division by zero"):
        bot_move(make_bot("greedy"), game, 0)


# ---------------------------------------------------------------- chance and simultaneous decisions

RISK = """ruleset risk
players 2..2
var victor: int = 0
turn {
  choose x from [1, 2] as "plan"
  roll d from 1..6
  victor = if (x == 1 and d == 6) or (x == 2 and d > 1) then 1 else 2
  end game
}
score(p) = if seat(p) == victor then 1 else 0
"""

SHOW_THREE = """ruleset show
players 2..2
var shown: int per player = 0
var done: bool = false
turn {
  choose shown(p) from [1, 2, 3] for each p in players as "show"
  done = true
}
end when done
score(p) = shown(p)
"""


@pytest.mark.parametrize("spec", ["mcts:iterations=40", "ismcts:iterations=40", "greedy:samples=20"])
def test_a_search_bot_weighs_the_chance_outcomes(tmp_path, spec):
    # plan 2 wins five times in six, plan 1 once: seeded and explicit chance alike
    ruleset = compiled(tmp_path, RISK)
    for chance in ("seeded", "explicit"):
        game = ruleset.new_game(players=2, seed=1, chance=chance)
        assert game.legal_moves()[bot_move(make_bot(spec, 5), game, 0)].notation == "plan 2"


@pytest.mark.parametrize("spec", ["mcts:iterations=40", "ismcts:iterations=40"])
def test_a_search_bot_chooses_in_a_simultaneous_decision(tmp_path, spec):
    game = compiled(tmp_path, SHOW_THREE).new_game(players=2, seed=0)
    assert game.legal_moves(1)[bot_move(make_bot(spec, 1), game, 1)].notation == "show 3"
    game.apply("show 1", seat=1)
    assert game.legal_moves(0)[bot_move(make_bot(spec, 1), game, 0)].notation == "show 3"


# ---------------------------------------------------------------- the command line

def test_meeple_bots_lists_each_bot_with_its_options_and_defaults():
    r = CliRunner().invoke(app, ["bots"])
    assert r.exit_code == 0, r.output
    for name in ("random", "first", "mcts", "ismcts", "greedy"):
        assert f"{name}:" in r.output
    assert "c=float" in r.output and "1.4" in r.output and "samples=int" in r.output


def test_play_and_simulate_take_bot_specs(tmp_path):
    ttt = f"{TESTDATA}/ttt"
    r = CliRunner().invoke(app, ["play", ttt, "--seed", "1", "--bot", "1=mcts:iterations=20",
                                 "--bot", "2=greedy:samples=1", "--record", str(tmp_path / "g.json")])
    assert r.exit_code == 0, r.output
    assert "bot 'mcts:iterations=20'" in r.output and "Result" in r.output
    # the record keeps each seat's spec, and the game resumes and replays
    assert '"mcts:iterations=20"' in (tmp_path / "g.json").read_text()
    r = CliRunner().invoke(app, ["simulate", ttt, "--games", "2", "--bot", "mcts:iterations=10,c=1",
                                 "--quiet"])
    assert r.exit_code == 0 and "bot 'mcts:iterations=10,c=1'" in r.output, r.output


def test_interactive_play_caps_a_search_bot_given_no_budget_at_play_time():
    capped = make_bot("ismcts", 1, play_time=interpreter.PLAY_TIME)
    assert (capped.iterations, capped.time) == (200, interpreter.PLAY_TIME)
    # a budget in the spec is kept as it is
    assert (make_bot("mcts:iterations=50", 1, play_time=3).time) is None
    assert (make_bot("mcts:time=2", 1, play_time=3).time, make_bot("mcts:time=2", 1).iterations) \
        == (2, None)
    # without play_time (simulate, arena) the bot stops after its iterations only
    assert (make_bot("mcts", 1).iterations, make_bot("mcts", 1).time) == (200, None)
    assert make_bot("greedy", 1, play_time=3).samples == 4   # (greedy has no time option)


def test_meeple_play_says_how_long_a_search_bot_given_no_budget_thinks():
    ttt = f"{TESTDATA}/ttt"
    r = CliRunner().invoke(app, ["play", ttt, "--seed", "1", "--bot", "1=mcts", "--bot",
                                 "2=mcts:iterations=20"])
    assert r.exit_code == 0, r.output
    assert f"bot 'mcts' (at most {interpreter.PLAY_TIME:g} s per move)" in r.output
    assert "bot 'mcts:iterations=20'\n" in r.output and "Result" in r.output


@pytest.mark.parametrize("args", [["play", f"{TESTDATA}/ttt", "--bot", "2=mcts:time=soon"],
                                  ["simulate", f"{TESTDATA}/ttt", "--bot", "ismcts:depth=2"]])
def test_a_bad_bot_spec_is_a_usage_error(args):
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "error: bot '" in r.output and "Traceback" not in r.output


def test_meeple_play_stops_with_a_located_error_when_the_heuristic_breaks_a_rule(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # (the stopped game's journal stays in the folder)
    broken = tmp_path / "broken.meeple"
    broken.write_text(RACE.replace("heuristic(p) = if at(p) == 2 then 100 else at(p)",
                                   "heuristic(p) = 100 / at(p)"))
    r = CliRunner().invoke(app, ["play", str(broken), "--bot", "1=greedy", "--bot", "2=greedy"])
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert "while Player 1 (bot 'greedy') was thinking: in the heuristic at" in r.output
    assert "broken.meeple:10:16: division by zero" in r.output.replace("\n", "")


def test_hidden_items_of_a_zone_the_seat_knows_stay_where_they_are():
    """Go's bowls are hidden zones, but the setup filled them (black stones in Black's,
    white in White's) and they only ever gave stones to the board: a drawn game keeps
    every stone in its bowl; the deck of a shuffled card game is dealt anew."""
    go = interpreter.load("go").new_game(players=2, seed=0)
    for _ in range(6):
        moves = go.legal_moves()
        go.apply(moves[len(moves) // 2])   # a stone (the first move is the pass)
    for seed in range(5):
        for seat in (0, 1):
            assert determinize(go, seat, random.Random(seed)).state["zones"] == go.state["zones"]
    hearts = interpreter.load("hearts").new_game(players=4, seed=2)
    assert "hand:1" in hearts.unsure_zones(0)
    assert any(determinize(hearts, 0, random.Random(s)).state["zones"] != hearts.state["zones"]
               for s in range(3))
