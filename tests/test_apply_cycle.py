"""The cycle of a move (issue 13): ``Game.apply`` (the move found, its journal begun,
the decision's frame saved), the rules run up to the next decision (the next turn, the
end condition) and that decision's options asked (options of a type ordered as plain
numbers asked in fewer steps, ``Runtime.ask_plain``). Its shortcuts must give exactly
what the straightforward paths give: the same options in the same order, the same
states, logs and views of every seat, undo to the exact state before each move, a game
resumed from its JSON state mid-turn that goes on the same way, and a rule error that
a safe apply takes back.

Each game is played twice side by side from the same seed: once with the fast paths
(``runtime.FAST_PATHS``) and ``safe=False`` (an index played before the list is made,
or the list's Move), once with the straightforward paths and ``safe=True`` (the move's
notation), and compared after every move."""
from __future__ import annotations

import json
import random

import pytest
from lockstep import moves_of, straight
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter.play.views import view

from meeple import interpreter

FILE = "t.meeple"
MOVES = 120  # moves per game at most

# board games with public options (cells), card games whose options are hidden cards
# or the decider's own, several decisions in a turn (resumed mid-turn), a simultaneous
# decision in the setup, turn orders set by the rules, options of bools and enums
CASES = [("tests/testdata/ttt", 2, ()), ("kalah", 2, ()), ("dots-and-boxes", 2, ()),
         ("hearts", 4, ()), ("cherokee", 3, ()), ("clans-and-glory", 4, ()),
         ("brotherhood-of-nine", 4, ("allies", "capture_the_flag")), ("backgammon", 2, ())]

# the ways a 'choose' asks: numbers and bools given twice and out of order (one move
# each, in order), seats, cells, items the decider sees in a game that hides some (its own
# hand, the table), items it does not (the pile: ordered by place), a chooser other
# than the active seat, an option alone, text; a turn of several decisions that sets
# the next seat itself, and messages naming items
ASKS = """ruleset asks
players 2..3
kind Card { value: int }
board row: grid(rows: 3, cols: 3) holds Card
zone pile: Card hidden
zone hand: Card per player
zone table: Card public
deck cards into pile { Card(value: v) for v in 1..12 }
label Card "{value}"
var rounds: int = 0
var total: int = 0
setup {
  shuffle pile
  deal 2 from pile to hand
}
turn {
  choose n from [3, 1, 3, 2, 1] as "count"
  total = total + n
  choose c from items(hand(active)) + items(table) as "keep"
  move c to hand(active)
  log kept "{active} keeps {c}"
  if rounds % 2 == 0 {
    choose d from items(pile) + items(hand(active)) as "draw"
    move d to table
    log drawn "{active} draws {d}"
  }
  choose x from [y for y in cells(row) if empty(y)] + [y for y in cells(row) if empty(y)] by next_player(active) as "mark"
  if occupied(pile) {
    move top(pile) to x
  }
  choose q from players as "name"
  choose w from ["b", "a", "b"] as "say" or "pass"
  choose t from [true, false, true] as "flip"
  if t { total = total + 1 }
  choose u from [rounds % 2 == 0] as "sure"
  rounds = rounds + 1
  active = if rounds % 3 == 0 then q else next_player(active)
  active = previous_player(active)
}
end when rounds >= 8 or empty(pile)
score(p) = size(hand(p)) + total
"""

# a rule error after a move (division by zero): a safe apply takes the move back
BREAKS = """ruleset breaks
players 2..2
var total: int = 0
turn {
  choose k from [2, 0, 1] as "divide"
  total = total + 12 / k
}
end when total >= 40
score(p) = total
"""


def compiled(text: str):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def rules_of(case):
    name, players, variants = case
    if name == "asks":
        return compiled(ASKS), players
    return interpreter.load(name, list(variants)), players


def views_of(game) -> list:
    return [view(game, seat) for seat in [-1, "all", *range(game.players)]]


def same_step(fast, slow, n):
    """The decision, the options (counted and listed), the state and every view."""
    where = f"move {n + 1}"
    with straight():
        assert slow.deciding == fast.deciding, where
        assert slow.decision == fast.decision, where
        expected = moves_of(slow) if not slow.over else []
        slow_views = views_of(slow)
    assert fast.over == slow.over, where
    assert fast.move_count() == len(expected), where
    assert fast.to_json() == slow.to_json(), f"{where}: the states differ"
    assert views_of(fast) == slow_views, f"{where}: the views differ"
    return expected


def play_side_by_side(fast, slow, rnd, moves=MOVES) -> int:
    for n in range(moves):
        expected = same_step(fast, slow, n)
        if fast.over:
            assert fast.result == slow.result
            return n
        pick = rnd.randrange(len(expected))
        if n % 2:  # an index, before the list is made: only the Move played is made
            played = fast.apply(pick, safe=False)
        else:
            assert moves_of(fast) == expected, f"move {n + 1}: the options differ"
            played = fast.apply(fast.legal_moves()[pick], safe=False)
        assert (played.index, played.value, played.notation, played.player) == expected[pick]
        with straight():
            slow.apply(slow.move_text(slow.legal_moves()[pick]), safe=True)
    same_step(fast, slow, moves)
    return moves


CYCLE = CASES + [("asks", 2, ()), ("asks", 3, ())]


@pytest.mark.parametrize("case", CYCLE, ids=lambda c: f"{c[0]}-{c[1]}")
def test_moves_play_exactly_as_on_the_straightforward_path(case):
    rules, players = rules_of(case)
    played = 0
    for seed in range(3):
        fast = rules.new_game(players, seed=seed)
        with straight():
            slow = rules.new_game(players, seed=seed)
        played += play_side_by_side(fast, slow, random.Random(seed))
    assert played > 10


@pytest.mark.parametrize("case", CYCLE, ids=lambda c: f"{c[0]}-{c[1]}")
def test_undo_restores_the_exact_state_and_options_before_each_move(case):
    rules, players = rules_of(case)
    rnd = random.Random(7)
    game = rules.new_game(players, seed=5)
    before = []
    while not game.over and len(before) < MOVES:
        state, listed = game.to_json(), moves_of(game)
        pick = rnd.randrange(game.move_count())
        game.apply(pick, safe=len(before) % 2 == 0)
        after = game.to_json()
        game.undo()  # back and forth: the same state, the same options
        assert game.to_json() == state and moves_of(game) == listed
        game.apply(pick, safe=False)
        assert game.to_json() == after
        before.append((state, listed))
    assert game.can_undo == len(before)
    for state, listed in reversed(before):  # every move back to the start
        game.undo()
        assert game.to_json() == state and moves_of(game) == listed


@pytest.mark.parametrize("case", CYCLE, ids=lambda c: f"{c[0]}-{c[1]}")
def test_a_game_resumed_from_its_json_state_at_any_decision_goes_on_the_same_way(case):
    # several decisions in a turn: most states are saved mid-turn, their frames on the stack
    rules, players = rules_of(case)
    rnd = random.Random(3)
    game = rules.new_game(players, seed=2)
    mid_turn = 0
    for n in range(MOVES):
        if game.over:
            break
        resumed = rules.resume(json.loads(game.to_json()))
        mid_turn += any(frame["pc"] > 0 for frame in game.state["stack"])
        with straight():
            listed = moves_of(resumed)
        assert moves_of(game) == listed and resumed.to_json() == game.to_json(), n
        pick = rnd.randrange(len(listed))
        game.apply(pick, safe=False)
        resumed.apply(pick)
        assert resumed.to_json() == game.to_json(), f"move {n + 1}: the states differ"
    if case[0] in ("asks", "clans-and-glory", "cherokee"):
        assert mid_turn > 0


def test_options_of_plain_numbers_are_asked_once_each_and_in_order():
    game = compiled(ASKS).new_game(2, seed=1)
    assert [m.notation for m in game.legal_moves()] == ["count 1", "count 2", "count 3"]
    game.apply(2, safe=False)
    assert game.state["vars"]["total"] == 3
    keep = game.legal_moves()  # its own cards, which it sees: by identity
    assert len(keep) == 2 and keep[0].value < keep[1].value
    game.apply(0, safe=False)
    draw = [m.notation for m in game.legal_moves()]  # its own cards, then the pile's by place
    assert draw[2:] == [f"draw pile#{k}" for k in range(1, len(draw) - 1)]
    game.apply(0, safe=False)
    assert game.decision.player == 1  # 'by next_player(active)': each cell offered once
    assert [m.notation for m in game.legal_moves()] == [f"mark r{r}c{c}" for r in (1, 2, 3)
                                                        for c in (1, 2, 3)]
    game.apply(4, safe=False)
    assert [m.value for m in game.legal_moves()] == [0, 1]
    game.apply(1, safe=False)
    assert [m.notation for m in game.legal_moves()] == ["pass", "say a", "say b"]
    game.apply(1, safe=False)
    # bools, given twice and out of order: each once, false first (as plain numbers)
    assert [m.value for m in game.legal_moves()] == [False, True]
    game.apply(1, safe=False)
    assert game.state["vars"]["total"] == 3 + 1
    assert [m.value for m in game.legal_moves()] == [True]


def test_a_rule_error_in_a_safe_apply_leaves_the_game_as_it_was():
    rules = compiled(BREAKS)
    game = rules.new_game(2, seed=0)
    game.apply(1)  # the options in order: 0, 1, 2; 12 / 1
    before, listed = game.to_json(), moves_of(game)
    with pytest.raises(interpreter.RuleError, match="division by zero"):
        game.apply(0, safe=True)  # 12 / 0
    assert game.to_json() == before and moves_of(game) == listed and game.can_undo == 1
    with pytest.raises(interpreter.RuleError, match="division by zero"):
        game.apply(0, safe=False)  # the half-played move stays, undo takes it back
    assert game.to_json() != before and game.can_undo == 2
    game.undo()
    assert game.to_json() == before and moves_of(game) == listed
    game.apply(2)  # 12 / 2: the game goes on
    assert game.state["vars"]["total"] == 18 and game.state["moves"] == 2
