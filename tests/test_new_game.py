"""A new game (issue 13): when a program's setup, and what runs up to the first
decision, draws nothing from the random generator, every seed reaches the same state but
for the generator's, so later games start from a copy of the first one's state instead
of running the setup again. The games must be exactly those the setup gives: the same
states, the same moves, however many games were played before (a game never changes
the state the next one starts from), and a setup that draws is run for every game."""
from __future__ import annotations

import json
import random

import pytest
from lockstep import straight
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse

from meeple import interpreter

FILE = "t.meeple"

# a setup that draws nothing but writes every kind of state: lists held by variables
# (global, per player, per item), items moved and turned over, a message; the turns
# change all of them, in ways a shared start would show
STILL = """ruleset still
players 2..3
kind Card { value: int, var marks: list of int = [] }
zone pile: Card hidden
zone hand: Card per player
zone table: Card
deck cards into pile { Card(value: v) for v in 1..8 }
var xs: list of int = []
var got: list of Card per player = []
var done: bool = false
setup {
  xs = [1, 2]
  for p in players {
    move top(pile) to hand(p)
    got(p) = items(hand(p))
  }
  let t = top(pile)
  t.marks = [0]
  move t to table face down
  log ready "ready"
}
turn {
  choose c from items(hand(active)) + items(table) as "play"
  xs = xs + [c.value]
  c.marks = c.marks + [turn_number()]
  move c to pile
  if size(pile) > 0 { move top(pile) to hand(active) }
  got(active) = got(active) + items(hand(active))
  done = size(xs) > 8
}
end when done
score(p) = size(got(p))
"""

# the same, but the first turn rolls before its decision: the state at the first
# decision depends on the seed
ROLLS = STILL.replace('turn {\n', 'var roll: int = 0\nturn {\n  roll d from 1..6\n  roll = d\n', 1)


def program(text):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def state(game) -> str:
    return json.dumps(game.state, sort_keys=True)


def play_out(game, rnd) -> None:
    while not game.over:
        game.apply(game.legal_moves()[rnd.randrange(game.move_count())])


@pytest.mark.parametrize("players", [2, 3])
def test_games_whose_setup_draws_nothing_start_as_the_setup_leaves_them(players):
    rules = program(STILL)
    for seed in range(6):
        game = rules.new_game(players, seed)
        with straight():
            slow = rules.new_game(players, seed)
        assert state(game) == state(slow)
        # played to the end (the first game too), none changes the next one's start
        play_out(game, random.Random(seed))
        play_out(slow, random.Random(seed))
        assert state(game) == state(slow) and game.result == slow.result
    # the start differs between seeds in the generator alone
    a, b = rules.new_game(players, 1).state, rules.new_game(players, 2).state
    assert a["rng"] != b["rng"] and {**a, "rng": 0} == {**b, "rng": 0}


def test_a_decision_reached_through_a_draw_is_not_shared_between_seeds():
    rules = program(ROLLS)
    rolls = set()
    for seed in range(12):
        game = rules.new_game(2, seed)
        with straight():
            assert state(game) == state(rules.new_game(2, seed))
        rolls.add(game.state["vars"]["roll"])
    assert len(rolls) > 1


@pytest.mark.parametrize("name", ["tests/testdata/ttt", "kalah", "dots-and-boxes", "go", "hearts"])
def test_bundled_games_start_the_same_after_games_were_played(name):
    rules = interpreter.load(name)
    players = 4 if name == "hearts" else 2
    first = rules.new_game(players, 0)
    game = rules.new_game(players, 1)
    game.undo_limit = 0
    for _ in range(40):
        if game.over:
            break
        game.apply(random.Random(1).randrange(game.move_count()), safe=False)
    for seed in (0, 5):
        with straight():
            slow = rules.new_game(players, seed)
        assert state(rules.new_game(players, seed)) == state(slow)
    assert state(rules.new_game(players, 0)) == state(first)
