"""The engine's cost per move (issue 13): a move of a list of items and a deal move the
items with the state's tables read once for all of them (``Runtime.move_all``), and
``Game.apply`` saves the decision's frame and checks an index's item in place. The
games must stay exactly the same: the same states (who has seen how many items, which
zones are unsure to whom), the same views, the same moves and notations in the same
order, and undo must restore the exact state before each move.

Each game is played twice side by side from the same seed, with the fast paths
(``runtime.FAST_PATHS``) and with the straightforward ones (``move`` item by item)."""
from __future__ import annotations

import random

import pytest
from lockstep import moves_of, straight
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter.play.views import view, visible_items

from meeple import interpreter

FILE = "t.meeple"

# lists of items moved between a hidden pile, the seats' own hands, public zones, a
# hidden vault revealed part-way, some of them face down (for a seat or for nobody);
# deals of a count and of the whole pile; options that are items the decider sees or not
LISTS = """ruleset lists_move
players 2..3
kind Card { value: int }
zone pile: Card hidden
zone hand: Card per player
zone table: Card public
zone heap: Card public
zone vault: Card hidden
zone spare: Card hidden
zone box: Card per player
deck cards into pile { Card(value: v) for v in 1..14 }
label Card "{value}"
var rounds: int = 0
setup {
  shuffle pile
  deal 2 from pile to hand
  move [items(pile)[0], items(pile)[1]] to spare
}
turn {
  choose c from items(hand(active)) + items(table) + items(spare) as "play" or "pass"
  if c != none {
    move c to table
  }
  if size(table) >= 3 {
    move items(table) to heap
  }
  choose k from [1, 2, 3, 4, 5] as "take"
  if k == 1 {
    move items(heap) to box(active)
  }
  if k == 2 and size(pile) >= 2 {
    move [top(pile)] to vault face down for active
    move items(vault) to hand(active)
  }
  if k == 3 and occupied(pile) {
    move [top(pile)] to table face down
    move items(table) to heap
  }
  if k == 4 {
    move items(box(active)) + items(hand(active)) to pile
    shuffle pile
    if size(pile) >= 2 * size(players) { deal 1 from pile to hand }
  }
  if k == 5 {
    move items(spare) to pile
    deal all from pile to hand
  }
  if occupied(pile) {
    move top(pile) to hand(active)
  }
  rounds = rounds + 1
  if rounds == 6 {
    reveal vault
  }
}
end when rounds >= 14
score(p) = size(hand(p))
"""


@pytest.fixture(scope="module")
def rules():
    return interpreter.compile_sources(SourceSet(base=parse(LISTS, FILE), sources={FILE: LISTS}))


def seen_by_each(game) -> list:
    return [sorted(visible_items(game, seat)) for seat in range(game.players)]


@pytest.mark.parametrize("players", [2, 3])
def test_moving_lists_and_dealing_play_exactly_as_moving_item_by_item(rules, players):
    for seed in range(6):
        rnd = random.Random(seed)
        fast = rules.new_game(players, seed=seed)
        with straight():
            slow = rules.new_game(players, seed=seed)
        assert fast.to_json() == slow.to_json()
        n = 0
        while not fast.over:
            with straight():
                expected = moves_of(slow)
                slow_views = [view(slow, seat) for seat in range(players)]
                slow_seen = seen_by_each(slow)
            assert moves_of(fast) == expected, f"seed {seed}, move {n + 1}: the moves differ"
            assert [view(fast, seat) for seat in range(players)] == slow_views
            assert seen_by_each(fast) == slow_seen
            pick = rnd.randrange(len(expected))
            # an index played before the list is made (its Move made alone), or the Move
            played = fast.apply(pick if n % 2 else fast.legal_moves()[pick], safe=False)
            assert (played.index, played.value, played.notation, played.player) == expected[pick]
            with straight():
                slow.apply(expected[pick][2])
            assert fast.to_json() == slow.to_json(), f"seed {seed}, move {n + 1}: the states differ"
            n += 1
        assert slow.over and fast.result == slow.result


def test_undo_after_moving_lists_and_dealing_restores_the_exact_state(rules):
    for seed in range(6):
        rnd = random.Random(seed)
        game = rules.new_game(3, seed=seed)
        states = []
        while not game.over:
            before, moves = game.to_json(), moves_of(game)
            pick = rnd.randrange(game.move_count())
            game.apply(pick)
            after = game.to_json()
            game.undo()  # one move back and forth: the same state, the same moves
            assert game.to_json() == before
            assert moves_of(game) == moves
            game.apply(pick)
            assert game.to_json() == after
            states.append(before)
        assert game.can_undo == len(states)
        for before in reversed(states):  # every move back to the start
            game.undo()
            assert game.to_json() == before


def test_a_list_dealt_or_moved_into_hands_stays_hidden_from_the_other_seats(rules):
    game = rules.new_game(2, seed=3)
    assert game.state["seen"] == [2, 2]  # each seat has seen its own two cards only
    for seat in range(2):
        seen = view(game, seat)["zones"]
        assert isinstance(seen[f"hand:{seat}"], list) and len(seen[f"hand:{seat}"]) == 2
        assert seen[f"hand:{1 - seat}"] == {"count": 2}
    rnd = random.Random(5)
    while not game.over:
        game.apply(rnd.randrange(game.move_count()))
        for seat in range(2):
            other = view(game, seat)["zones"][f"hand:{1 - seat}"]
            assert isinstance(other, dict) and set(other) == {"count"}  # never its cards


def test_a_hidden_option_played_by_index_is_the_move_the_list_has(rules):
    """An index played before the list is made: the Move made alone is the list's (an
    item the decider may not know written by its place), in the list's order."""
    for seed in range(6):
        rnd = random.Random(seed)
        game = rules.new_game(2, seed=seed)
        while not game.over:
            expected = moves_of(game.copy())
            pick = rnd.randrange(game.move_count())
            played = game.apply(pick)
            assert (played.index, played.value, played.notation, played.player) == expected[pick]
