"""Simultaneous decisions of several picks: ``choose N v(p) from LIST for each p in
SEATS`` (docs/language.md 9.5). Each seat picks N distinct options, one move each, in
any order and whatever the others do, from its options computed once (less its own
picks); ``v(p)`` (a list per player) gets them in order once every seat has picked
all of its own."""
from __future__ import annotations

import json
import random

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_difference
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError
from meeple.interpreter.analysis.perft import perft
from meeple.interpreter.play import record, views
from meeple.interpreter.play.state import StateError

from meeple import interpreter

FILE = "t.meeple"

# each seat is dealt three coins of its own and gives two of them away in secret
GIFTS = """ruleset gifts
players 2..3
kind Coin { value: int }
zone pile: Coin hidden
zone hand: Coin per player
zone table: Coin public
deck coins into pile { Coin(value: v) for v in 1..9 }
var given: list of Coin per player = []
var points: int per player = 0
var rounds: int = 0
setup {
  shuffle pile
  deal 3 from pile to hand
}
turn {
  choose 2 given(p) from items(hand(p)) for each p in players as "give"
  for p in players {
    points(p) = sum(c.value for c in given(p))
    move given(p) to table
  }
  rounds = rounds + 1
}
end when rounds == 1
score(p) = points(p)
"""


def compiled(text: str):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def names(game, seat: int) -> list[str]:
    return [m.notation for m in game.legal_moves(seat)]


def test_each_seat_picks_its_two_in_a_row_from_its_own_options():
    game = compiled(GIFTS).new_game(2, 1)
    mine, theirs = names(game, 0), names(game, 1)
    assert len(mine) == len(theirs) == 3 and game.deciding == [0, 1]
    game.apply(mine[2], seat=0)
    # the seat picks again at once, from its options less its pick; the other's are untouched
    assert game.deciding == [0, 1] and game.active_player == 0
    assert names(game, 0) == [mine[0], mine[1]] and names(game, 1) == theirs
    game.apply(mine[0], seat=0)
    assert game.deciding == [1] and names(game, 0) == []
    assert game.state["pvars"]["given"] == [[], []]     # nothing is written before the last pick
    game.apply(theirs[1], seat=1)
    game.apply(theirs[0], seat=1)
    assert game.over
    labels = [[game.program.items[i].notation for i in g] for g in game.state["pvars"]["given"]]
    assert labels == [[mine[2][5:], mine[0][5:]], [theirs[1][5:], theirs[0][5:]]]


def test_any_order_of_the_picks_gives_the_same_game():
    prog = compiled(GIFTS)
    first = prog.new_game(3, 4)
    picks = {s: names(first, s)[:2] for s in range(3)}
    ends = set()
    for order in ([0, 0, 1, 1, 2, 2], [2, 1, 0, 2, 1, 0], [1, 0, 0, 2, 2, 1]):
        game = prog.new_game(3, 4)
        taken = {s: iter(picks[s]) for s in range(3)}
        for s in order:
            game.apply(next(taken[s]), seat=s)
        ends.add(json.dumps(game.state["pvars"], sort_keys=True))
    assert len(ends) == 1


def test_a_seat_is_shown_its_own_options_left_and_nothing_of_the_others_picks():
    prog = compiled(GIFTS)
    a, b = prog.new_game(2, 1), prog.new_game(2, 1)
    a.apply(names(a, 0)[0], seat=0)
    b.apply(names(b, 0)[2], seat=0)
    assert views.view(a, 1) == views.view(b, 1)             # seat 2 cannot tell them apart
    assert views.view(a, views.SPECTATOR) == views.view(b, views.SPECTATOR)
    assert views.view(a, 0) != views.view(b, 0)             # seat 1 sees its own options left
    assert views.view(a, 0)["pending"]["options"] == names(a, 0)
    # and its own picks so far, as its moves wrote them; the others only how many picks
    mine = views.view(a, 0)["pending"]
    assert mine["picks"] == 2 and mine["picked"] == [names(b, 0)[0]]
    assert views.view(a, 1)["pending"]["picked"] == [] and "picked" not in \
        views.view(a, views.SPECTATOR)["pending"]


def test_perft_counts_each_pick_as_one_decision():
    prog = compiled(GIFTS)
    game = prog.new_game(2, 1)
    # a seat's two picks of three in order: 3 * 2 ways; both seats: 6 * 6 (the seats in order)
    assert perft(game, 1) == 3 and perft(game, 2) == 3 * 2 and perft(game, 4) == 36


def test_a_pick_taken_back_is_an_option_again():
    game = compiled(GIFTS).new_game(2, 1)
    before = names(game, 0)
    game.apply(before[1], seat=0)
    game.undo()
    assert names(game, 0) == before and game.deciding == [0, 1]


def test_a_state_between_picks_round_trips_and_a_bad_one_is_refused():
    prog = compiled(GIFTS)
    game = prog.new_game(2, 1)
    game.apply(names(game, 1)[0], seat=1)
    text = game.to_json()
    state = json.loads(text)
    assert state["pending"]["picks"] == 2 and len(state["pending"]["each"][1]) == 2
    again = prog.resume(json.loads(text))
    assert again.to_json() == text and names(again, 1) == names(game, 1)
    picked = state["pending"]["chosen"][0][1]
    for change, where in ((lambda p: p["each"][1].append(picked), "pending/chosen/0"),
                          (lambda p: p.update(chosen=p["chosen"] * 2), "pending/chosen/1"),
                          (lambda p: p.update(picks=0), "pending/picks")):
        bad = json.loads(text)
        change(bad["pending"])
        with pytest.raises(StateError, match=f"invalid state at {where}"):
            prog.resume(bad)


def test_a_record_replays_the_order_of_the_picks():
    prog = compiled(GIFTS)
    game = prog.new_game(2, 1)
    written = []
    for s in (1, 0, 1, 0):
        m = game.legal_moves(s)[0]
        written.append(game.move_text(m))
        game.apply(m)
    assert [m.split(":")[0] for m in written] == ["p2", "p1", "p2", "p1"]
    rec = record.complete(record.Record("gifts", 2, 1, [], None, written), prog)
    again = record.replay(prog, record.from_dict(json.loads(json.dumps(rec.to_dict()))))
    assert again.state == game.state


def test_fewer_options_than_picks_is_a_rule_error():
    prog = compiled(GIFTS.replace("choose 2 ", "choose 4 "))
    with pytest.raises(RuleError, match=r"seat 1 has only 3 distinct option\(s\) to pick 4 from"):
        prog.new_game(2, 1)


def check_errors(turn: str, var: str) -> list:
    text = f"ruleset t\nplayers 2..3\nvar bid: {var} per player = VALUE\nvar total: int = 0\n" \
           f"turn {{\n{turn}\n}}\nend when total == 1\n".replace("VALUE", "[]" if "list" in var else "0")
    with pytest.raises(MeepleError) as e:
        compiled(text)
    return [(d.code, d.span.line, d.span.column, d.message) for d in e.value.diagnostics]


@pytest.mark.parametrize("turn, var, code, column, words", [
    ('  choose 2 bid(p) from [1, 2] for each p in players', "int", "check/type-mismatch", 12,
     "'bid', which gets 2 picks of each seat: expected a list per player, found int"),
    ('  choose 2 bid(p) from ["a"] for each p in players', "list of int", "check/type-mismatch", 24,
     "the options of 'bid': expected a list of int"),
    ('  choose 0 bid(p) from [1, 2] for each p in players', "list of int", "check/bad-value", 3,
     "'choose 0' picks nothing"),
])
def test_the_checker_locates_a_bad_choice_of_several_picks(turn, var, code, column, words):
    errs = check_errors(turn, var)
    assert any(c == code and line == 6 and col == column and words in msg
               for c, line, col, msg in errs), errs


def test_a_number_after_choose_reads_only_as_picks():
    # (an existing 'choose' reads as before: a name, or a tuple, after it)
    text = GIFTS.replace("choose 2 given(p)", "choose 2given(p)")
    assert compiled(text).new_game(2, 1).deciding == [0, 1]


def test_a_searching_bot_picks_between_picks_on_games_drawn_again():
    """ISMCTS draws the others' hands and picks again (determinize, with the seat's own
    picks kept): it chooses one of the seat's options left."""
    from meeple.interpreter.bots import bot_move, make_bot
    game = compiled(GIFTS).new_game(3, 2)
    game.apply(names(game, 1)[0], seat=1)
    game.apply(names(game, 0)[1], seat=0)
    bot = make_bot("ismcts:iterations=20")
    for seat in (0, 1, 2):
        left = names(game, seat)
        assert 0 <= bot_move(bot, game, seat) < len(left)


@needs_kernel
@pytest.mark.kernels
def test_a_kernel_plays_the_picks_as_python_does():
    """The C++ kernel keeps each seat's options left, its picks and who still waits as
    Python's state has them, after every move of random games; perft counts alike."""
    src = SourceSet(base=parse(GIFTS, FILE), sources={FILE: GIFTS})
    native = interpreter.compile_sources(src)
    assert native.use_native(report=False)
    fast, plain = native.for_players(3), compiled(GIFTS).for_players(3)
    assert fast.kernel
    for seed in range(4):
        a, b = fast.new_game(3, seed), plain.new_game(3, seed)
        assert [perft(a, d) for d in (1, 2, 3, 4)] == [perft(b, d) for d in (1, 2, 3, 4)] == [3, 6, 18, 36]
        rnd = random.Random(seed)
        while not b.over:
            assert a.live and kernel_difference(a.kernel_state(), b) is None
            assert a.deciding == b.deciding and a.decision == b.decision
            seat = rnd.choice(b.deciding)
            assert a.option_values(seat) == [m.value for m in b.legal_moves(seat)]
            i = rnd.randrange(b.move_count(seat))
            a.play(i, seat=seat)
            b.apply(i, seat=seat)
        assert a.result == b.result and a.state == b.state
