"""Simultaneous decisions: ``choose v(p) from LIST for each p in SEATS [as "VERB"]``
(docs/language.md §6.6, §9.5). Several seats choose in secret, one move each, in any
order; once all have chosen the choices are written into the per-player variable at
once and the rules go on. Proved on small games written here: rock-paper-scissors and a
sealed-bid auction whose bids are cards of each seat's own hand."""
from __future__ import annotations

import itertools
import json

import pytest
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import IllegalMove, RuleError
from meeple.interpreter.analysis.invariants import Config, Stats, explore, play_and_check
from meeple.interpreter.analysis.perft import divide, perft
from meeple.interpreter.play import record, views
from meeple.interpreter.play.state import StateError

from meeple import interpreter

FILE = "t.meeple"

RPS = """ruleset rps
players 2..2
enum Hand { rock, paper, scissors }
var shown: Hand per player = rock
var wins: int per player = 0
var rounds: int = 0
var limit: int = LIMIT
function beats(a: Hand, b: Hand): bool =
  (a == rock and b == scissors) or (a == paper and b == rock) or (a == scissors and b == paper)
turn {
  choose shown(p) from [rock, paper, scissors] for each p in players as "show"
  for p in players {
    if beats(shown(p), shown(next_player(p))) { wins(p) = wins(p) + 1 }
  }
  rounds = rounds + 1
}
end when rounds == limit
score(p) = wins(p)
"""

# each seat holds two coins of its own (dealt from a shuffled pile) and bids one in
# secret; the bids go to the table, the higher one scores
SEALED = """ruleset sealed
players 2..3
kind Coin { value: int }
zone pile: Coin hidden
zone hand: Coin per player
zone table: Coin public
deck coins into pile { Coin(value: v) for v in 1..6 }
var bid: Coin per player = none
var points: int per player = 0
var rounds: int = 0
setup {
  shuffle pile
  deal 2 from pile to hand
}
turn {
  choose bid(p) from items(hand(p)) for each p in players as "bid"
  for p in players { move bid(p) to table }
  best w in players by bid(w).value tie first
  points(w) = points(w) + 1
  log round "{w} wins the round"
  rounds = rounds + 1
}
end when rounds == 2
score(p) = points(p)
"""


def compiled(text: str):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def rps(limit: int = 1):
    return compiled(RPS.replace("LIMIT", str(limit)))


def play_all(game, choices: dict[int, str], order: list[int]):
    for seat in order:
        game.apply(choices[seat], seat=seat)
    return game


# ---------------------------------------------------------------- rock-paper-scissors

def test_rock_paper_scissors_has_nine_joint_outcomes_three_of_them_draws():
    prog = rps()
    hands = ["rock", "paper", "scissors"]
    results = {}
    for a, b in itertools.product(hands, hands):
        game = play_all(prog.new_game(2, 0), {0: f"show {a}", 1: f"show {b}"}, [0, 1])
        assert game.over
        results[a, b] = game.result["outcomes"]
    assert len(results) == 9
    assert sum(o == ["draw", "draw"] for o in results.values()) == 3
    assert results["rock", "scissors"] == ["win", "loss"]
    assert results["rock", "paper"] == ["loss", "win"]
    assert results["scissors", "paper"] == ["win", "loss"]


def test_both_seats_decide_at_once_and_each_choice_is_one_move():
    game = rps().new_game(2, 0)
    assert game.deciding == [0, 1] and game.simultaneous
    assert game.active_player == 0
    assert [m.notation for m in game.legal_moves()] == ["show rock", "show paper", "show scissors"]
    assert [m.player for m in game.legal_moves(1)] == [1, 1, 1]
    m = game.apply("show paper", seat=1)
    assert m.player == 1 and m.notation == "show paper"
    assert game.deciding == [0] and game.active_player == 0
    assert game.legal_moves(1) == []                      # it has chosen
    assert game.state["moves"] == 1
    assert game.state["pvars"]["shown"] == ["rock", "rock"]   # nothing written yet
    game.apply("rock")                                    # the first seat still to choose
    assert game.over and game.state["moves"] == 2
    assert game.state["pvars"]["shown"] == ["rock", "paper"]
    assert game.result["scores"] == [0, 1]


def test_the_decision_says_who_is_asked_and_who_has_chosen_but_not_what():
    game = rps().new_game(2, 0)
    assert game.players == 2
    d = game.decision
    assert (d.type, d.verb, d.player, d.seats, d.waiting, d.chosen) == \
        ("enum:Hand", "show", 0, (0, 1), (0, 1), ())
    game.apply("show paper", seat=1)
    d = game.decision
    assert (d.player, d.seats, d.waiting, d.chosen) == (0, (0, 1), (0,), (1,))
    assert "paper" not in repr(d)
    game.apply("rock")
    assert game.over and game.decision is None


def test_any_order_of_submission_gives_the_same_game():
    prog = rps(limit=2)
    choices = {0: "scissors", 1: "paper"}
    a = play_all(prog.new_game(2, 0), choices, [0, 1])
    b = play_all(prog.new_game(2, 0), choices, [1, 0])
    assert a.state == b.state
    assert a.state["pvars"]["wins"] == [1, 0] and not a.over


def test_a_seat_not_deciding_or_that_already_chose_cannot_move():
    game = rps().new_game(2, 0)
    first = game.legal_moves(0)[0]
    game.apply(first)
    before = game.state
    with pytest.raises(IllegalMove, match="seat 1, which has already chosen"):
        game.apply(first)
    with pytest.raises(IllegalMove, match="seat 1, which has already chosen"):
        game.apply("rock", seat=0)
    # seats are named from 1 in every message, as 'seat 1, which has already chosen'
    with pytest.raises(IllegalMove, match="there is no seat 6; the seats are 1 to 2"):
        game.apply("rock", seat=5)
    with pytest.raises(IllegalMove, match="there is no seat 9; the seats are 1 to 2"):
        game.apply("p9: rock")
    assert game.state == before


def test_existing_loops_over_the_first_legal_move_still_play_to_the_end():
    game = rps(limit=3).new_game(2, 0)
    moves = 0
    while not game.over:
        game.apply(game.legal_moves()[0])
        moves += 1
    assert moves == 6 and game.result["draw"]


def test_perft_counts_each_seats_choice_as_a_decision():
    prog = rps(limit=2)
    game = prog.new_game(2, 0)
    assert perft(game, 1) == 3
    assert perft(game, 2) == 9            # the joint outcomes of one round
    assert perft(game, 4) == 81
    assert perft(game, 5) == 0            # the game is over after two rounds
    assert divide(game, 2) == {"show rock": 3, "show paper": 3, "show scissors": 3}


def test_a_seat_cannot_see_the_others_choice_before_the_reveal():
    prog = rps(limit=2)
    rock, paper = prog.new_game(2, 0), prog.new_game(2, 0)
    rock.apply("rock", seat=1)
    paper.apply("paper", seat=1)
    assert rock.state != paper.state
    v0 = views.view(rock, 0)
    assert v0 == views.view(paper, 0)                    # the swap test
    assert views.view(rock, views.SPECTATOR) == views.view(paper, views.SPECTATOR)
    assert v0["pending"] == {"player": 0, "verb": "show", "simultaneous": True,
                             "seats": [0, 1], "waiting": [0],
                             "options": ["show rock", "show paper", "show scissors"]}
    # the seat that chose sees that it waits, and no options
    assert "options" not in views.view(rock, 1)["pending"]
    assert views.view(rock, "all")["pending"]["chosen"] == [[1, "rock"]]
    # after the reveal the choices are in everyone's view
    rock.apply("paper")
    assert views.view(rock, 0)["pvars"]["shown"] == ["paper", "rock"]


def test_a_state_in_the_middle_of_a_simultaneous_decision_round_trips_through_json():
    prog = rps(limit=2)
    game = prog.new_game(2, 0)
    game.apply("scissors", seat=1)
    text = game.to_json()
    again = prog.resume(json.loads(text))
    assert again.to_json() == text
    assert again.deciding == [0]
    again.apply("paper")
    assert again.state["pvars"]["wins"] == [0, 1]


@pytest.mark.parametrize("change, where", [
    (lambda p: p.update(waiting=[1]), "pending/waiting"),
    (lambda p: p.update(chosen=[[1, "rock"], [1, "rock"]]), "pending/chosen/1"),
    (lambda p: p.update(chosen=[[1, "lizard"]]), "pending/chosen/0"),
    (lambda p: p.update(each=[["rock"]]), "pending/each"),
    (lambda p: p.update(seats=[0, 0]), "pending/seats/1"),
    (lambda p: p.pop("chosen"), "pending"),
    (lambda p: p.update(player=1), "pending/player"),
    (lambda p: p.update(var="rounds"), "pending/var"),
])
def test_a_bad_simultaneous_decision_in_a_state_is_refused_with_its_place(change, where):
    prog = rps()
    game = prog.new_game(2, 0)
    game.apply("rock", seat=1)
    state = json.loads(game.to_json())
    change(state["pending"])
    with pytest.raises(StateError, match=f"invalid state at {where}"):
        prog.resume(state)


def test_states_of_other_decisions_keep_their_shape():
    prog = compiled(RPS.replace('choose shown(p) from [rock, paper, scissors] for each p in players as "show"',
                                'choose h from [rock, paper] as "show"\n  shown(active) = h')
                    .replace("LIMIT", "1"))
    assert set(prog.new_game(2, 0).state["pending"]) == {"player", "var", "options", "type", "verb"}


def test_records_replay_the_order_in_which_the_seats_chose():
    prog = rps(limit=2)
    game = prog.new_game(2, 0)
    written = []
    for seat, text in [(1, "paper"), (0, "rock"), (0, "scissors"), (1, "rock")]:
        m = game.find_move(text, seat)
        written.append(game.move_text(m))
        game.apply(m)
    assert written == ["p2: show paper", "p1: show rock", "p1: show scissors", "p2: show rock"]
    rec = record.Record("rps", 2, 0, [], None, written)
    rec = record.complete(rec, prog)
    again = record.replay(prog, record.from_dict(json.loads(json.dumps(rec.to_dict()))))
    assert again.state == game.state and again.result["scores"] == [0, 2]
    # a move without its seat is the first seat's still to choose
    plain = record.replay(prog, record.Record("rps", 2, 0, [], None,
                                              ["show paper", "show rock", "p2: rock", "scissors"]))
    assert plain.state["pvars"]["shown"] == ["scissors", "rock"]
    assert plain.state["pvars"]["wins"] == [1, 1]       # paper beat rock, rock scissors


# ---------------------------------------------------------------- a sealed-bid auction

def test_each_seat_bids_from_its_own_hand_and_sees_only_its_own_options():
    prog = compiled(SEALED)
    game = prog.new_game(3, seed=5)
    hands = [game.state["zones"][prog_zone(game.program, f"hand:{s}")] for s in range(3)]
    for seat in range(3):
        values = sorted(prog.items[i].attrs["value"] for i in hands[seat])
        assert sorted(int(m.notation.split()[1]) for m in game.legal_moves(seat)) == values
        v = views.view(game, seat)
        assert v["pending"]["options"] == [m.notation for m in game.legal_moves(seat)]
    assert game.deciding == [0, 1, 2]


def test_the_auction_reveals_the_bids_together_and_the_highest_scores():
    prog = compiled(SEALED)
    game = prog.new_game(2, seed=5)
    high = {s: max(game.legal_moves(s), key=lambda m: int(m.notation.split()[1])) for s in (0, 1)}
    game.apply(high[1])
    table = prog_zone(game.program, "table")
    assert game.state["zones"][table] == []               # nothing is laid before the reveal
    game.apply(high[0])
    assert sorted(game.state["zones"][table]) == sorted([high[0].value, high[1].value])
    winner = max((0, 1), key=lambda s: prog.items[high[s].value].attrs["value"])
    assert game.state["pvars"]["points"][winner] == 1


def test_a_bid_stays_secret_until_the_reveal_swap_test():
    prog = compiled(SEALED)
    low, high = prog.new_game(2, seed=5), prog.new_game(2, seed=5)
    moves = low.legal_moves(1)
    low.apply(moves[0])
    high.apply(high.legal_moves(1)[-1])
    assert moves[0].value != moves[-1].value and low.state != high.state
    assert views.view(low, 0) == views.view(high, 0)
    assert views.view(low, views.SPECTATOR) == views.view(high, views.SPECTATOR)


def test_the_auction_keeps_its_secrets_under_the_leak_check():
    prog = compiled(SEALED)
    stats = Stats()
    assert explore(lambda c: prog, [Config(2), Config(3)], 40, 0, stats) is None
    assert stats.probes > 0


def test_the_leak_check_catches_a_view_that_shows_the_choices(monkeypatch):
    prog = compiled(SEALED)
    real = views._simultaneous

    def leaky(game, pend, seat, pending):
        real(game, pend, seat, pending)
        pending["chosen"] = [[s, v] for s, v in pend["chosen"]]   # the bug: everyone sees the bids
    monkeypatch.setattr(views, "_simultaneous", leaky)
    stats = Stats()
    failure = explore(lambda c: prog, [Config(2)], 40, 0, stats)
    assert failure is not None and failure.check == "secrets/non-interference"
    assert "in the decision under way (chosen)" in failure.message


def test_the_auction_plays_under_meeple_tests_checks_with_any_first_moves():
    prog = compiled(SEALED)
    for seed in range(4):
        assert play_and_check(prog, Config(3), seed, [seed, 1, 2]).over


def prog_zone(prog, key: str) -> int:
    return next(z.id for z in prog.zones if z.key == key)


# ---------------------------------------------------------------- checker and rule errors

def check_errors(turn: str, extra: str = "") -> list:
    text = ("ruleset t\nplayers 2..3\nkind Coin { value: int }\nzone hand: Coin per player\n"
            "var bid: int per player = 0\nvar total: int = 0\n" + extra
            + "turn {\n" + turn + "\n}\nend when total == 1\n")
    with pytest.raises(MeepleError) as e:
        interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))
    return [(d.code, d.span.line, d.span.column, d.message) for d in e.value.diagnostics]


@pytest.mark.parametrize("turn, code, column, words", [
    ('  choose bids(p) from [1, 2] for each p in players', "check/unknown-name", 10,
     "unknown per-player variable 'bids'"),
    ('  choose total(p) from [1, 2] for each p in players', "check/unknown-name", 10,
     "unknown per-player variable 'total'"),
    ('  choose bid(p) from ["a", "b"] for each p in players', "check/type-mismatch", 22,
     "the options of 'bid'"),
    ('  choose bid(q) from [1, 2] for each p in players', "check/bad-value", 10,
     "'bid(q)' must name the seat of 'for each p'"),
    ('  choose bid(p) from [1, 2] for each p in []', "check/bad-value", 43,
     "no seat chooses"),
    ('  choose bid(p) from [1, 2] for each p in [1, 2]', "check/type-mismatch", 43,
     "the seats who choose"),
    ('  choose bid(p) from 3 for each p in players', "check/type-mismatch", 22, "expected a list"),
])
def test_the_checker_locates_a_bad_simultaneous_choice(turn, code, column, words):
    errs = check_errors(turn)
    assert any(c == code and line == 8 and col == column and words in msg
               for c, line, col, msg in errs), errs


def test_the_seat_name_lives_only_in_the_statement():
    errs = check_errors("  choose bid(p) from [seat(p)] for each p in players\n  total = seat(p)")
    assert [(c, line, col) for c, line, col, _ in errs] == [("check/unknown-name", 9, 16)], errs


def test_at_end_cannot_ask_the_seats():
    errs = check_errors("  total = 1", "at end { choose bid(p) from [1] for each p in players }\n")
    assert any(c == "check/misplaced" for c, *_ in errs), errs


def test_a_seat_with_nothing_to_choose_is_a_rule_error():
    prog = compiled("""ruleset t
players 2..2
kind Coin { value: int }
zone hand: Coin per player
var bid: Coin per player = none
turn { choose bid(p) from items(hand(p)) for each p in players as "bid" }
end when false
""")
    with pytest.raises(RuleError, match=r"seat 1 has nothing to choose from") as e:
        prog.new_game(2, 0)
    assert "t.meeple:6" in str(e.value)


def test_no_seats_is_a_rule_error_and_a_seat_listed_twice_too():
    base = """ruleset t
players 2..2
var bid: int per player = 0
turn { choose bid(p) from [1, 2] for each p in SEATS }
end when false
"""
    with pytest.raises(RuleError, match="has no seat to ask"):
        compiled(base.replace("SEATS", "[s for s in players if false]")).new_game(2, 0)
    with pytest.raises(RuleError, match="seat 1 is listed twice"):
        compiled(base.replace("SEATS", "[active, active]")).new_game(2, 0)


def test_options_may_depend_on_the_seat():
    prog = compiled("""ruleset t
players 3..3
var bid: int per player = 0
var done: bool = false
turn {
  choose bid(p) from 0..seat(p) - 1 for each p in players as "bid"
  done = true
}
end when done
""")
    game = prog.new_game(3, 0)
    assert [len(game.legal_moves(s)) for s in range(3)] == [1, 2, 3] and game.legal_moves(2)[-1].notation == "bid 2"


# ---------------------------------------------------------------- the hot seat (meeple play)

BIDS = """ruleset secret_bids
players 2..2
var bid: int per player = 0
var rounds: int = 0
turn {
  choose bid(p) from [seat(p) * 100 + k for k in 1..3] for each p in players as "bid"
  log bids "the bids: {bid(players[0])} and {bid(players[1])}"
  choose k from [1, 2] by players[1] as "nod"
  rounds = rounds + 1
}
end when rounds == 1
score(p) = bid(p)
"""
TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "dumb"}


def play(tmp_path, *args, input: str, env=None):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    (tmp_path / "bids.meeple").write_text(BIDS)
    result = CliRunner().invoke(app, ["play", str(tmp_path / "bids.meeple"), "--seed", "0",
                                      "--record", str(tmp_path / "r.json"), *args],
                                input=input, env=env)
    assert "Traceback" not in result.output and result.exit_code == 0, result.output
    return result.output


def test_the_hot_seat_asks_each_human_in_turn_and_hides_the_first_choice(tmp_path):
    out = play(tmp_path, input="\n2\n\n3\n\n1\n", env=TERMINAL)
    parts = out.split("Pass the terminal to ")
    assert [p[:8] for p in parts[1:]] == ["Player 1", "Player 2"]   # the nod follows on
    first, second = parts[1], parts[2]
    assert "bid 101" in first and "bid 201" not in first      # each sees only its own options
    assert "bid 201" in second and "bid 101" not in second
    before_reveal = second.split("Player 2: bid 203")[0]
    assert "102" not in before_reveal                          # player 1's bid stays secret
    assert "the bids: 102 and 203" in out                      # then both are revealed
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["moves"] == ["p1: bid 102", "p2: bid 203", "nod 1"]
    assert data["secrets"] is True


def test_a_bot_choice_is_announced_without_what_it_chose(tmp_path):
    out = play(tmp_path, "--bot", "1=first", input="2\nquit\n")
    assert "Player 1 (first-move bot) has chosen in secret." in out
    before_reveal = out.split("Player 2: bid 202")[0]
    assert "Player 1: bid: 0" in before_reveal and "101" not in before_reveal
    assert "Player 1: bid: 101" in out and "the bids: 101 and 202" in out


def test_undo_is_refused_once_the_secret_choices_are_revealed(tmp_path):
    out = play(tmp_path, "--bot", "1=first", input="2\nundo\n1\n")
    assert "Cannot undo: 'bid 202' revealed the secret choices, so the move stands." in out
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["moves"] == ["p1: bid 101", "p2: bid 202", "nod 1"]
    prog = compiled(BIDS)
    again = record.replay(prog, record.load(tmp_path / "r.json"))
    assert again.result["scores"] == [101, 202]


def test_a_replay_hides_the_choices_of_a_decision_still_under_way(tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    path = tmp_path / "bids.meeple"
    path.write_text(BIDS)
    prog = compiled(BIDS)
    game = prog.new_game(2, 0)
    m = game.find_move("bid 203", 1)
    rec = record.Record(str(path), 2, 0, [], None, [game.move_text(m)])
    rec.save(tmp_path / "r.json")
    runner = CliRunner()
    spectator = runner.invoke(app, ["replay", str(tmp_path / "r.json"), "--ruleset", str(path)])
    assert spectator.exit_code == 0, spectator.output
    # (the record's path, in the note on resuming it, may hold the digits too: pytest's
    # numbered folder, pytest-203)
    shown = spectator.output.replace(str(tmp_path), "")
    assert "Player 2: (hidden)" in shown and "203" not in shown
    own = runner.invoke(app, ["replay", str(tmp_path / "r.json"), "--ruleset", str(path),
                              "--as", "2"])
    assert "Player 2: bid 203" in own.output
    game.apply(m)
    game.apply("bid 101")
    rec.moves = ["p2: bid 203", "p1: bid 101"]
    rec.save(tmp_path / "r.json")
    done = runner.invoke(app, ["replay", str(tmp_path / "r.json"), "--ruleset", str(path)])
    assert "Player 2: bid 203" in done.output and "Player 1: bid 101" in done.output


def test_a_game_stopped_in_the_middle_of_a_simultaneous_decision_resumes_there(tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    play(tmp_path, input="\n2\nquit\n", env=TERMINAL)          # player 1 bids, then quits
    rec = tmp_path / "r.json"
    assert json.loads(rec.read_text())["moves"] == ["p1: bid 102"]
    r = CliRunner().invoke(app, ["play", "--resume", str(rec), "--ruleset", str(tmp_path / "bids.meeple")],
                           input="\n3\n1\n", env=TERMINAL)
    assert r.exit_code == 0, r.output
    asked = r.output.split("Pass the terminal to Player 2")[1].split("Player 2: bid 203")[0]
    assert "bid 201" in asked and "102" not in asked             # still secret after the resume
    assert json.loads(rec.read_text())["moves"] == ["p1: bid 102", "p2: bid 203", "nod 1"]


def test_the_testing_helpers_take_a_seat():
    from meeple.interpreter.analysis import testing
    game = rps().new_game(2, 0)
    assert testing.options(game, "show", seat=1) == ["rock", "paper", "scissors"]
    testing.play(game, "p2: scissors")
    assert testing.notations(game, 1) == [] and testing.notations(game, 0)[0] == "show rock"
    testing.play(game, "paper")
    assert game.result["scores"] == [0, 1]
