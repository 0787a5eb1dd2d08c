"""Undo (issue 13 §1): ``Game.undo()`` takes back the last move (a decision, one seat's
choice in a simultaneous decision, or an explicit chance outcome) from a journal of what
the move wrote, and the game is then exactly as it was: the same state, the same JSON,
the same legal moves. ``apply(safe=True)`` rolls a rule error back from the same journal,
and perft walks the tree with apply/undo. Proved over random games of every bundled
ruleset and of small rulesets written here that use every kind of write a move makes."""
from __future__ import annotations

import pickle
import random

import bundled
import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import IllegalMove, RuleError
from meeple.interpreter.play import record
from meeple.interpreter.play.runtime import NothingToUndo
from scale import scaled

from meeple import interpreter

FILE = "t.meeple"

# shuffle, deal, roll, pick at random, a random tie, choose subset, procedure results
# (`let w = call worth(c)`, and one that asks a decision before it returns into its
# caller's frame), item variables, face-down moves, flip, reveal, log
MIXED = """ruleset mixed
players 2..3
kind Card { value: int, var marks: int = 0 }
zone pile: Card hidden
zone hand: Card per player
zone table: Card public
zone shown: Card hidden
deck cards into pile { Card(value: v) for v in 1..9 }
label Card "{value}"
var points: int per player = 0
var rounds: int = 0
var rolls: list of int = []
var lucky: int = 0
procedure worth(c: Card): int {
  c.marks = c.marks + 1
  log mark "{c} is marked"
  if c.value > 5 {
    return 2 * c.value
  }
  return c.value
}
procedure ask_bonus(): int {
  choose v from [0, 1] as "bonus"
  return v * 3
}
setup {
  shuffle pile
  deal 2 from pile to hand
}
turn {
  roll d from 1..3
  pick k at random from [1, 2, 2]
  best b in [1, 2, 3, 4] by b % 2 tie random
  lucky = lucky + k + b
  rounds = rounds + 1
  if occupied(pile) {
    move top(pile) to hand(active)
  }
  choose two subset of items(hand(active)) where size(two) <= 2 as "play"
  for c in two {
    let w = call worth(c)
    points(active) = points(active) + w + d
    move c to table face down
  }
  if d == 3 and occupied(table) {
    flip top(table) face up
  }
  if rounds % 3 == 0 and occupied(table) {
    move top(table) to shown face down for active
  }
  if rounds == 5 {
    reveal shown
  }
  rolls = rolls + [d]
  let bonus = call ask_bonus()
  points(active) = points(active) + bonus
  log round "{active} rolled {d}"
}
end when rounds == 8 or any(empty(hand(p)) for p in players)
score(p) = points(p)
"""

# a simultaneous decision (`choose v(p) from L for each p in players`), a roll, and a log
# longer than the part a state keeps (undo puts back the messages a move dropped)
SIMUL = """ruleset simul
players 2..3
var bid: int per player = 0
var total: int per player = 0
var rounds: int = 0
turn {
  choose bid(p) from [1, 2, 3] for each p in players as "bid"
  roll d from 1..2
  for p in players {
    total(p) = total(p) + bid(p) * d
  }
  rounds = rounds + 1
  for i in 1..20 {
    log r "round {rounds}, line {i}"
  }
}
end when rounds == 4
score(p) = total(p)
"""

# 'take 0' divides by zero, after the move has already moved a card, set a variable and
# written to the log
DIVZERO = """ruleset divzero
players 2..2
kind Card { value: int }
zone pile: Card public
zone hand: Card per player
deck cards into pile { Card(value: v) for v in 1..6 }
var x: int = 0
var taken: int = 0
turn {
  choose n from [0, 1, 2] as "take"
  move top(pile) to hand(active)
  taken = taken + 1
  log took "{active} takes a card"
  x = 10 / n
}
end when empty(pile)
score(p) = x
"""


def compiled(text: str):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def bundled_games():
    """Every bundled ruleset at its fewest and most players, and the test tic-tac-toe
    (the players checked, not compiled: collecting stays cheap)."""
    out = [("tests/testdata/ttt", 2)]
    for name in bundled.names():
        out += [(name, n) for n in sorted(set(bundled.players(name)))]
    return out


def step(game, rnd):
    """Plays one random step: a chance outcome (set or drawn) when one is pending, else
    a move (in a simultaneous decision, of a random seat still to choose)."""
    if game.at_chance:
        if rnd.random() < 0.5:
            game.sample_chance()  # (drawn by the game's own generator, which undo restores)
        else:
            game.apply_chance(rnd.randrange(len(game.chance_outcomes())))
        return
    seat = rnd.choice(game.deciding)
    moves = game.legal_moves(seat)
    game.apply(moves[rnd.randrange(len(moves))])


def snapshot(game):
    # the state deeply copied (nothing of it shared with the game), as copy.deepcopy
    # would, in a tenth of the time: pickled and read back
    state = pickle.loads(pickle.dumps(game.state))  # noqa: S301 - our own bytes, just made
    return (state, game.to_json(),
            [(m.notation, m.value, m.player) for m in game.legal_moves()],
            [o.notation for o in game.chance_outcomes()])


def check_every_undo(game, rnd, max_moves=400):
    """Plays a random game; after every step undoes it, checks that everything is as
    before, and plays the same step again (same digest as the first time). Returns the
    snapshots of the whole game, first to last."""
    history = [snapshot(game)]
    n = 0
    while not game.over and n < max_moves:
        state = rnd.getstate()
        step(game, rnd)
        after, digest = snapshot(game), record.digest(game)
        game.undo()
        assert snapshot(game) == history[-1], f"move {n + 1} was not taken back exactly"
        rnd.setstate(state)
        step(game, rnd)
        assert snapshot(game) == after and record.digest(game) == digest
        history.append(after)
        n += 1
    return history


def undo_to_start(game, history):
    for i in range(len(history) - 2, -1, -1):
        game.undo()
        assert snapshot(game) == history[i]
    with pytest.raises(NothingToUndo, match="no move to take back"):
        game.undo()


@pytest.mark.parametrize("name, players", bundled_games())
def test_undo_takes_back_every_move_of_random_bundled_games(name, players):
    rules = interpreter.load(name)
    for seed in range(scaled(4, 2)):
        game = rules.new_game(players, seed=seed)
        history = check_every_undo(game, random.Random(seed))
        undo_to_start(game, history)


@pytest.mark.parametrize("name, players", [("cherokee", 3), ("clans-and-glory", 3)])
def test_undo_takes_back_chance_outcomes_of_bundled_games_in_explicit_mode(name, players):
    rules = interpreter.load(name)
    for seed in range(2):
        game = rules.new_game(players, seed=seed, chance="explicit")
        history = check_every_undo(game, random.Random(seed), max_moves=250)
        undo_to_start(game, history)


@pytest.mark.parametrize("text, players", [(MIXED, 2), (MIXED, 3), (SIMUL, 2), (SIMUL, 3)],
                         ids=["mixed-2", "mixed-3", "simul-2", "simul-3"])
@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_undo_takes_back_every_kind_of_write(text, players, chance):
    program = compiled(text)
    for seed in range(scaled(25, 10)):
        game = program.new_game(players, seed=seed, chance=chance)
        history = check_every_undo(game, random.Random(seed))
        assert game.over
        undo_to_start(game, history)


def test_the_mixed_game_uses_what_it_is_meant_to_test():
    """The random games of MIXED do reach face-down items, item variables, reveals and
    zones a move makes unsure for a seat."""
    program = compiled(MIXED)
    seen = {"down": False, "marks": False, "revealed": False, "unsure": False}
    for seed in range(25):
        game = program.new_game(3, seed=seed)
        rnd = random.Random(seed)
        while not game.over:
            unsure = game.state["unsure"]
            step(game, rnd)
            state = game.state
            # a move makes a zone unsure for a seat (undo must take the mask back)
            seen["unsure"] |= state["unsure"] != unsure
            seen["down"] |= any(f >= 0 for f in state["facing"])
            seen["marks"] |= any(m for m in state["ivars"]["marks"] if m)
            seen["revealed"] |= bool(state["revealed"])
    assert all(seen.values()), seen


def test_undo_of_a_simultaneous_choice_takes_back_one_seat():
    game = compiled(SIMUL).new_game(3, seed=1)
    game.apply("bid 2", seat=1)
    game.apply("bid 3", seat=0)
    assert game.deciding == [2]
    game.undo()
    assert game.deciding == [0, 2] and game.state["pending"]["chosen"] == [[1, 2]]
    game.undo()
    assert game.deciding == [0, 1, 2] and game.state["pending"]["chosen"] == []
    for _ in range(3):
        for seat in (0, 1, 2):
            game.apply("bid 1", seat=seat)
    before = snapshot(game)
    assert len(before[0]["log"]) == 60 and "log_dropped" not in before[0]
    game.apply("bid 1", seat=2)
    game.apply("bid 1", seat=1)
    game.apply("bid 1", seat=0)  # the last choice: the last round is played, 20 lines said
    assert game.over and game.state["log_dropped"] == 20
    for _ in range(3):
        game.undo()
    assert snapshot(game) == before


def test_apply_again_after_undo_replays_a_record_to_the_same_digests():
    rules = interpreter.load("cherokee")
    game = rules.new_game(3, seed=4)
    rnd = random.Random(4)
    played, digests = [], []
    while not game.over:
        moves = game.legal_moves()
        m = moves[rnd.randrange(len(moves))]
        played.append(m.notation)
        game.apply(m)
        digests.append(record.digest(game))
    for _ in played:
        game.undo()
    assert game.to_json() == rules.new_game(3, seed=4).to_json()
    for notation, digest in zip(played, digests):
        game.apply(notation)
        assert record.digest(game) == digest


def test_undo_at_the_start_is_a_clear_error():
    game = interpreter.load("kalah").new_game(2, seed=0)
    before = game.to_json()
    with pytest.raises(NothingToUndo) as e:
        game.undo()
    assert isinstance(e.value, IllegalMove) and "no move to take back" in str(e.value)
    assert game.to_json() == before
    game.apply(0)
    copied = game.copy()  # the history of moves is not part of a state
    assert copied.can_undo == 0 and game.can_undo == 1
    with pytest.raises(NothingToUndo):
        copied.undo()


def test_safe_apply_leaves_the_game_exactly_as_it_was_after_a_rule_error():
    game = compiled(DIVZERO).new_game(2, seed=0)
    game.apply("take 1")
    before, moves = snapshot(game), game.can_undo
    with pytest.raises(RuleError, match="division by zero"):
        game.apply("take 0")
    assert snapshot(game) == before and game.can_undo == moves
    game.apply("take 2")  # and the game goes on as if the bad move had not been tried
    game.undo()
    assert snapshot(game) == before


def test_unsafe_apply_after_a_rule_error_can_still_be_undone():
    game = compiled(DIVZERO).new_game(2, seed=0)
    before = snapshot(game)
    with pytest.raises(RuleError, match="division by zero"):
        game.apply("take 0", safe=False)
    assert game.to_json() != before[1]  # half played, as before
    game.undo()
    assert snapshot(game) == before


def test_undo_limit_keeps_the_last_moves_only():
    game = interpreter.load("kalah").new_game(2, seed=0)
    assert game.undo_limit is None
    states = [game.to_json()]
    game.undo_limit = 2
    for _ in range(5):
        game.apply(0)
        states.append(game.to_json())
    assert game.can_undo == 2
    game.undo()
    game.undo()  # back two moves, exactly as the game was then
    assert game.to_json() == states[3]
    with pytest.raises(NothingToUndo):
        game.undo()
    assert game.to_json() == states[3]
    game.undo_limit = None  # every move from now on
    for _ in range(3):
        game.apply(0)
    assert game.can_undo == 3
    game.undo_limit = 1  # forgets the older ones at once
    assert game.can_undo == 1


def test_no_undo_history_plays_the_same_game():
    kept, lean = (interpreter.load("kalah").new_game(2, seed=3) for _ in range(2))
    lean.undo_limit = 0
    rnd = random.Random(3)
    while not kept.over:
        i = rnd.randrange(kept.move_count())
        kept.apply(i)
        lean.apply(i)
        assert lean.to_json() == kept.to_json() and lean.can_undo == 0
    assert kept.can_undo > 10 and lean.result == kept.result
    assert lean.copy().undo_limit is None


@pytest.mark.parametrize("name, players", [("kalah", 2), ("hearts", 4), ("backgammon", 2),
                                           ("cherokee", 3), ("chess", 2)])
def test_unsafe_moves_without_an_undo_history_play_the_same_game(name, players):
    # (no journal at all: simultaneous choices, dice, hidden cards, captures)
    rules = interpreter.load(name)
    kept, bare = rules.new_game(players, seed=5), rules.new_game(players, seed=5)
    bare.undo_limit = 0
    rnd = random.Random(5)
    for _ in range(150):
        if kept.over:
            break
        i = rnd.randrange(kept.move_count())
        kept.apply(i, safe=False)
        bare.apply(i, safe=False)
        assert bare.to_json() == kept.to_json() and bare.can_undo == 0
        assert [m.notation for m in bare.legal_moves()] == [m.notation for m in kept.legal_moves()]
    assert kept.can_undo > 20 and bare.result == kept.result


def test_an_unsafe_move_without_an_undo_history_stays_half_played():
    game = compiled(DIVZERO).new_game(2, seed=0)
    game.undo_limit = 0
    before = snapshot(game)
    with pytest.raises(RuleError, match="division by zero"):
        game.apply("take 0", safe=False)
    assert game.to_json() != before[1] and game.can_undo == 0  # as an unsafe apply leaves it
    with pytest.raises(NothingToUndo):
        game.undo()


def test_a_rule_error_is_rolled_back_without_an_undo_history():
    game = compiled(DIVZERO).new_game(2, seed=0)
    game.undo_limit = 0
    game.apply("take 1")
    before = snapshot(game)
    with pytest.raises(RuleError, match="division by zero"):
        game.apply("take 0")  # the move's journal lives as long as the move
    assert snapshot(game) == before and game.can_undo == 0


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_undo_limit_is_a_number_of_moves_or_none(bad):
    game = interpreter.load("kalah").new_game(2, seed=0)
    with pytest.raises(ValueError, match="undo_limit"):
        game.undo_limit = bad
    assert game.undo_limit is None


def test_perft_leaves_the_game_as_it_was():
    game = interpreter.load("dots-and-boxes").new_game(2, seed=0)
    game.apply(0)
    before = game.to_json()
    assert interpreter.perft(game, 2) == sum(interpreter.divide(game, 2).values())
    assert game.to_json() == before and game.can_undo == 1


def test_perft_after_a_rule_error_leaves_the_game_as_it_was():
    game = compiled(DIVZERO).new_game(2, seed=0)
    before = game.to_json()
    with pytest.raises(RuleError):
        interpreter.perft(game, 3)
    assert game.to_json() == before and game.can_undo == 0


def perft_by_copies(game, depth, chance=False):
    """The straightforward count: a copy of the game for every child."""
    if chance and game.at_chance:
        total = 0
        for o in game.chance_outcomes():
            child = game.copy()
            child.apply_chance(o.index)
            total += perft_by_copies(child, depth, chance)
        return total
    if depth == 0:
        return 1
    if game.over:
        return 0
    total = 0
    for m in game.legal_moves():
        child = game.copy()
        child.apply(m.index)
        total += perft_by_copies(child, depth - 1, chance)
    return total


@pytest.mark.parametrize("name, players, depth", [("cherokee", 3, 2), ("kalah", 2, 3),
                                                  ("dots-and-boxes", 2, 2), ("clans-and-glory", 2, 2),
                                                  ("brotherhood-of-nine", 2, 2)])
def test_perft_by_undo_counts_what_copies_count_from_random_positions(name, players, depth):
    rules = interpreter.load(name)
    for seed in range(3):
        game = rules.new_game(players, seed=seed)
        rnd = random.Random(seed)
        for _ in range(rnd.randrange(12)):
            if not game.over:
                step(game, rnd)
        before = game.to_json()
        assert interpreter.perft(game, depth) == perft_by_copies(game, depth)
        assert game.to_json() == before


@pytest.mark.parametrize("text, players", [(MIXED, 2), (SIMUL, 3)], ids=["mixed-2", "simul-3"])
def test_perft_by_undo_counts_chance_branches_as_copies_do(text, players):
    game = compiled(text).new_game(players, seed=3, chance="explicit")
    while game.at_chance:  # the setup's shuffle alone has 9! branches: drawn here
        game.sample_chance()
    before = game.to_json()
    assert interpreter.perft(game, 2, chance=True) == perft_by_copies(game, 2, chance=True) > 0
    assert game.to_json() == before
