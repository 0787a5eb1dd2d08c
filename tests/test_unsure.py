"""Which zones a seat may not know (issue 14): per zone, the seats that cannot know
exactly which items it holds, in which order (``game.unsure_zones(seat)``, the state's
``unsure`` masks). A zone becomes unsure for a seat when it is shuffled while the seat
does not see all its items, or when an item the seat sees neither before nor after a
move comes in or leaves; a deterministic setup leaves every zone sure (go's bowls are
hidden but known). The masks follow from what the seats observe, are taken back by undo,
survive JSON, and a state saved without them has every zone unsure for every seat."""
from __future__ import annotations

import json
import random

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import StateError
from meeple.interpreter.play import record

from meeple import interpreter

FILE = "t.meeple"

# hands seen by their owner, a pile nobody sees, a public box, table and a hidden stash
HIDE = """ruleset hide
players 2..3
kind Card { value: int }
zone box: Card public
zone pile: Card hidden
zone hand: Card per player owner
zone table: Card public
zone stash: Card hidden
deck cards into box { Card(value: v) for v in 1..9 }
label Card "{value}"
var rounds: int = 0
setup {
  for c in items(box) {
    if c.value <= 6 {
      move c to hand(players[(c.value - 1) % size(players)])
    } else {
      move c to pile
    }
  }
}
turn {
  rounds = rounds + 1
  choose c from items(hand(active)) as "play" or "hide"
  if c == none {
    move top(hand(active)) to stash face down
  } else {
    move c to table
  }
  if rounds == 3 {
    move top(table) to pile
    shuffle table
  }
  if rounds == 4 {
    shuffle pile
  }
}
end when rounds == 5
score(p) = 0
"""


def compiled(text: str):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def unsure_for_each(game) -> list[list[str]]:
    return [game.unsure_zones(p) for p in range(game.players)]


def test_a_deterministic_setup_leaves_every_zone_sure():
    game = compiled(HIDE).new_game(2, seed=1)
    assert unsure_for_each(game) == [[], []]
    assert game.state["unsure"] == [0] * len(game.state["zones"])


def test_go_bowls_stay_sure_for_both_players():
    game = interpreter.load("go").new_game(players=2, seed=3)
    assert unsure_for_each(game) == [[], []]
    rnd = random.Random(3)
    for _ in range(30):
        moves = game.legal_moves()
        game.apply(moves[rnd.randrange(len(moves))])
        assert unsure_for_each(game) == [[], []]
    assert any(game.state["zones"][z] for z in range(len(game.state["zones"])))


@pytest.mark.parametrize("name, deck, players", [("hearts", "deck", 4), ("cherokee", "draw", 2)])
def test_after_the_shuffle_and_deal_the_deck_and_other_hands_are_unsure(name, deck, players):
    game = interpreter.load(name).new_game(players=players, seed=2)
    for seat in range(players):
        unsure = game.unsure_zones(seat)
        assert deck in unsure
        others = {f"hand:{p}" for p in range(players) if p != seat}
        assert others <= set(unsure)
        # its own hand: every card came in seen by the seat
        assert f"hand:{seat}" not in unsure


def test_a_face_down_move_of_a_hidden_item_makes_both_places_unsure_for_the_others():
    game = compiled(HIDE).new_game(3, seed=0)
    game.apply("hide")  # seat 0 lays a card of its hand face down in the stash
    assert game.unsure_zones(0) == []  # it saw the card leave its hand
    for other in (1, 2):
        assert sorted(game.unsure_zones(other)) == ["hand:0", "stash"]


def test_a_move_seen_by_every_seat_and_a_shuffle_of_what_all_see_change_nothing():
    game = compiled(HIDE).new_game(2, seed=0)
    game.apply(game.legal_moves()[1])  # a card of seat 0's hand goes to the public table
    game.apply(game.legal_moves()[1])
    assert unsure_for_each(game) == [[], []]
    game.apply(game.legal_moves()[1])  # round 3: table to the pile, the table shuffled
    # seat 1 sees the top card leave the table: it knows what the pile holds
    assert unsure_for_each(game) == [[], []]
    game.apply(game.legal_moves()[1])  # round 4: the pile, hidden from all, shuffled
    assert unsure_for_each(game) == [["pile"], ["pile"]]


def test_a_shuffle_in_explicit_chance_mode_marks_the_same_zones():
    seeded = compiled(HIDE).new_game(2, seed=0)
    explicit = compiled(HIDE).new_game(2, seed=0, chance="explicit")
    for game in (seeded, explicit):
        while not game.over:
            if game.at_chance:
                game.apply_chance(0)
            else:
                game.apply(game.legal_moves()[1])
    assert seeded.state["unsure"] == explicit.state["unsure"]
    assert unsure_for_each(explicit) == [["pile"], ["pile"]]


def test_undo_restores_the_masks_exactly():
    game = compiled(HIDE).new_game(3, seed=0)
    before = game.state["unsure"]
    game.apply("hide")
    assert game.state["unsure"] != before
    game.undo()
    assert game.state["unsure"] == before


def test_the_masks_survive_json_and_a_copy():
    game = interpreter.load("cherokee").new_game(players=2, seed=5)
    rules = interpreter.load("cherokee")
    again = rules.resume(json.loads(game.to_json()))
    assert unsure_for_each(again) == unsure_for_each(game)
    assert unsure_for_each(game.copy()) == unsure_for_each(game)


def test_a_state_saved_without_the_masks_has_every_zone_unsure_for_every_seat():
    rules = interpreter.load("go")
    game = rules.new_game(players=2, seed=1)
    state = game.state
    del state["unsure"]
    old = rules.resume(state)
    keys = list(view_keys(old))
    assert unsure_for_each(old) == [keys, keys]
    # the digest of a record leaves the masks out: old and new states digest alike
    assert record.digest(old) == record.digest(game)


def view_keys(game):
    from meeple.interpreter.play.views import view
    return view(game, "all")["zones"].keys()


@pytest.mark.parametrize("bad, message", [
    (lambda n: [0], "unsure: 1 entries for"),
    (lambda n: [4] * n, "unsure/0: the mask 4 names seats beyond 2"),
    (lambda n: [-1] * n, "unsure/[0-9]+: -1 is less than"),
    (lambda n: None, "unsure"),
], ids=["short", "seat-beyond", "negative", "null"])
def test_bad_masks_are_refused(bad, message):
    rules = interpreter.load("go")
    state = rules.new_game(players=2, seed=1).state
    state["unsure"] = bad(len(state["zones"]))
    with pytest.raises(StateError, match=message):
        rules.resume(state)
