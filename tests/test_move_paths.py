"""The fast paths around the rules (issue 13 §1) give exactly what the straightforward
paths give: notations written when first read (and kept per program) read as those
written at once, even when read after the game has moved on; a Move of the position's
own list is taken as it is by apply, and an index played before the list is made makes
only that Move (``move_count``); messages that name no item, decisions made once, bots
given their notations lazily: the same moves, decisions, states (their logs), views and
records, the same simulated games, perft counts and search bots' choices, over random
games of every bundled ruleset (and its variants) and of small rulesets that hide items,
name them in options and decide simultaneously.

Each game is played twice side by side from the same seed: once with the fast paths
(``runtime.FAST_PATHS``, as always), once with the straightforward ones, and compared
after every move."""
from __future__ import annotations

import os
import random

import bundled
import pytest
from lockstep import moves_of, straight
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import bots
from meeple.interpreter.analysis import simulation
from meeple.interpreter.play import record, rng
from meeple.interpreter.play.views import view

from meeple import interpreter

FILE = "t.meeple"
# random games per bundled ruleset and moves per game at most (more for a longer check:
# MEEPLE_MOVE_PATH_GAMES=10 MEEPLE_MOVE_PATH_MOVES=400 python3 -m pytest tests/test_move_paths.py)
GAMES = int(os.environ.get("MEEPLE_MOVE_PATH_GAMES", "2"))
MOVES = int(os.environ.get("MEEPLE_MOVE_PATH_MOVES", "60"))

# options that name items the decider may not know (a face-down draw pile, an opponent's
# hand), lists of items, an option alone ("pass") and a simultaneous decision
HIDDEN = """ruleset hidden_options
players 2..3
kind Card { value: int }
zone pile: Card hidden
zone hand: Card per player
zone table: Card public
deck cards into pile { Card(value: v) for v in 1..9 }
label Card "{value}"
var taken: int = 0
var bid: int per player = 0
setup {
  shuffle pile
  deal 2 from pile to hand
}
turn {
  choose c from items(pile) + items(hand(active)) as "take"
  move c to table
  taken = taken + 1
  if size(hand(active)) >= 2 {
    choose cs from [[items(hand(active))[0]], items(hand(active))] as "drop"
    move cs[0] to pile
  }
  choose t from items(table) as "keep" or "pass"
  if t != none {
    move t to hand(active)
  }
  choose bid(p) from [1, 2] for each p in players as "bid"
}
end when taken >= 6
score(p) = size(hand(p))
"""


# items that move between a hidden pile, the seats' own hands, a public table and a
# zone revealed part-way (who sees them before and after each move, which zones become
# unsure to whom); options that are items or subsets of items the decider sees (ordered
# by identity), mixed with items it does not (ordered by place); messages naming items
SEATS = """ruleset seats_see
players 2..4
kind Card { value: int }
zone pile: Card hidden
zone hand: Card per player
zone table: Card public
zone vault: Card hidden
deck cards into pile { Card(value: v) for v in 1..12 }
label Card "{value}"
var rounds: int = 0
setup {
  shuffle pile
  deal 2 from pile to hand
}
turn {
  choose c from items(hand(active)) + items(table) as "keep"
  move c to hand(active)
  log kept "{active} keeps {c}"
  if size(hand(active)) >= 2 {
    choose two subset of items(hand(active)) where size(two) <= 2 as "stash"
    move two to vault
    log stashed "{active} stashes {two}"
  }
  choose d from items(pile) + items(hand(active)) + items(vault) as "draw" or "pass"
  if d != none {
    move d to table
    log drawn "{active} draws {d}"
  }
  if occupied(pile) {
    move top(pile) to hand(active)
  }
  rounds = rounds + 1
  if rounds == 5 {
    reveal vault
  }
}
end when rounds >= 12
score(p) = size(hand(p))
"""


def compiled(text: str):
    return interpreter.compile_sources(SourceSet(base=parse(text, FILE), sources={FILE: text}))


def cases():
    """Every bundled ruleset at its fewest and most players, and tic-tac-toe."""
    out = [("tests/testdata/ttt", 2)]
    for name in bundled.names():
        out += [(name, n) for n in sorted(set(bundled.players(name)))]
    return out


def views_of(game) -> list:
    return [view(game, seat) for seat in [-1, "all", *range(game.players)]]


def play_side_by_side(fast, slow, rnd, max_moves):
    """Plays the same random moves on both games and compares them after each: the fast
    game plays the Move itself or its index (with or without its seat) and reads the
    notations of the list it came from only afterwards (every other move), or, every
    fourth move, plays an index knowing only ``move_count`` (no list made); the
    straightforward one plays the record's text. The decisions, the states and (every
    third move) every seat's view must be the same."""
    texts = []
    for n in range(max_moves):
        if fast.over:
            break
        assert not slow.over
        seat = rnd.choice(fast.deciding)
        with straight():
            assert slow.deciding == fast.deciding
            assert slow.decision == fast.decision
            expected = moves_of(slow, seat)
            slow_views = views_of(slow) if n % 3 == 0 else None
        if slow_views is not None:
            assert views_of(fast) == slow_views, f"move {n + 1}: the views differ"
        assert fast.move_count(seat) == len(expected)
        if n % 4 == 3:
            text = play_unlisted(fast, slow, seat, expected, rnd)
            texts.append(text)
            assert fast.to_json() == slow.to_json(), f"move {n + 1}: the states differ"
            continue
        listed = fast.legal_moves(seat)
        pick = rnd.randrange(len(listed))
        late = n % 2 == 1
        if not late:
            assert moves_of(fast, seat) == expected, f"move {n + 1}: the moves differ"
        move = listed[pick]
        how = n % 3  # the Move itself, its index for its seat, its index alone
        if how == 2 and seat != fast.active_player:
            how = 1
        played = fast.apply(move if how == 0 else pick, seat=seat if how == 1 else None)
        assert played == move
        with straight():
            text = slow.move_text(slow.legal_moves(seat)[pick])
            slow.apply(text)
        if late:  # written now, after the move, as they read before it
            assert [(m.index, m.value, m.notation, m.player) for m in listed] == expected, \
                f"move {n + 1}: the notations read after the move differ"
        texts.append(text)
        assert fast.to_json() == slow.to_json(), f"move {n + 1}: the states differ"
    return texts


def play_unlisted(fast, slow, seat, expected, rnd) -> str:
    """Plays a random index of ``seat`` on the fast game before its moves are listed
    (only the Move played is made), the same move's text on the other; the Move played
    must be the one the list would have had, its notation read after the move too."""
    pick = rnd.randrange(len(expected))
    played = fast.apply(pick, seat=seat if seat != fast.active_player or rnd.random() < 0.5 else None)
    with straight():
        text = slow.move_text(slow.legal_moves(seat)[pick])
        slow.apply(text)
    assert (played.index, played.value, played.notation, played.player) == expected[pick]
    return text


# the bundled rulesets' variants (each changes rules the cases above do not play)
VARIANTS = [("dots-and-boxes", 2, ("small",)), ("go", 2, ("superko",)), ("chess", 2, ("fide_claims",)),
            ("cherokee", 4, ("open_clans",)), ("clans-and-glory", 2, ("chosen_first_player",)),
            ("clans-and-glory", 4, ("separate_boards",)),
            ("brotherhood-of-nine", 2, ("archer_lines", "cavalry_jumps", "round_limit")),
            ("brotherhood-of-nine", 4, ("allies", "capture_the_flag")),
            ("brotherhood-of-nine", 4, ("allies_crosswise",))]


@pytest.mark.parametrize("name, players, variants", [(n, p, ()) for n, p in cases()] + VARIANTS)
def test_the_fast_paths_play_bundled_games_exactly_as_the_straightforward_ones(name, players, variants):
    rules = interpreter.load(name, list(variants))
    for seed in range(GAMES):
        with straight():
            slow = rules.new_game(players, seed=seed)
        fast = rules.new_game(players, seed=seed)
        texts = play_side_by_side(fast, slow, random.Random(seed), max_moves=MOVES)
        assert texts, "no move was played"
        # the same record (its digests), replayed with the fast paths and without
        rec = record.Record(rules.name, players, seed, list(variants), None, texts)
        with straight():
            assert record.digest(record.replay(rules, rec)) == record.digest(slow)
        assert record.digest(record.replay(rules, rec)) == record.digest(fast)


@pytest.mark.parametrize("players", [2, 3])
def test_moves_naming_hidden_items_read_as_written_at_once(players):
    program = compiled(HIDDEN)
    assert program.hidden_information
    kinds = set()
    for seed in range(20):
        with straight():
            slow = program.new_game(players, seed=seed)
        fast = program.new_game(players, seed=seed)
        for m in fast.legal_moves():
            kinds.add(m.notation.split()[0])
        play_side_by_side(fast, slow, random.Random(seed), max_moves=60)
        assert fast.over and slow.over
    assert {"take"} <= kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_what_each_seat_sees_of_moves_between_its_zones_is_the_same_with_the_fast_paths(players):
    # the seats' counts of items seen, the zones unsure to each seat, the masks of the
    # messages (all in the state) and the order of the options, compared after each move
    program = compiled(SEATS)
    for seed in range(6):
        with straight():
            slow = program.new_game(players, seed=seed)
        fast = program.new_game(players, seed=seed)
        play_side_by_side(fast, slow, random.Random(seed), max_moves=200)
        assert fast.over and slow.over
        for seat in range(players):
            assert fast.unsure_zones(seat) == slow.unsure_zones(seat)
        vault = next(z.id for z in program.zones if z.key == "vault")
        state = fast.state
        assert state["revealed"] == [vault] and all(state["seen"])
        assert any(fast.unsure_zones(seat) for seat in range(players))


def test_a_hidden_item_is_written_by_its_place_when_the_list_was_made():
    program = compiled(HIDDEN)
    fast = program.new_game(2, seed=1)
    moves = fast.legal_moves()
    with straight():
        slow = program.new_game(2, seed=1)
        written = [m.notation for m in slow.legal_moves()]
    assert any("pile#" in w for w in written)  # the pile's cards are written by place
    fast.apply(moves[0])  # the pile changes: the notations stay those of the position
    assert [m.notation for m in moves] == written


def test_a_move_from_another_position_is_still_found_by_value_and_notation():
    rules = interpreter.load("tests/testdata/ttt")
    one, other = rules.new_game(2), rules.new_game(2)
    m = other.legal_moves()[4]
    assert one.apply(m) == m and one.to_json() != rules.new_game(2).to_json()
    # a move of the list before the last apply is not taken as it is: it is looked up
    stale = one.legal_moves()[0]
    one.apply(stale)
    with pytest.raises(interpreter.IllegalMove, match="seat 2"):
        one.apply(stale)


def test_move_is_immutable_and_compares_by_its_four_fields():
    rules = interpreter.load("tests/testdata/ttt")
    lazy = rules.new_game(2).legal_moves()[3]
    eager = interpreter.Move(lazy.index, lazy.value, lazy.notation, lazy.player)
    assert lazy == eager and hash(lazy) == hash(eager) and repr(lazy) == repr(eager)
    assert repr(eager).startswith("Move(index=3, value=")
    with pytest.raises(AttributeError):
        lazy.notation = "x"
    with pytest.raises(AttributeError):
        eager.index = 1
    assert eager != interpreter.Move(lazy.index, lazy.value, lazy.notation + "!", lazy.player)


def summary_both_ways(rules, players: int, bots: tuple, seed: int) -> tuple[dict, dict]:
    """One simulated game (with its record's moves and digests) both ways, without the
    bots' thinking times (not reproducible)."""
    spec = simulation.specs(players, lambda i: bots, 1, seed=seed, keep_moves=True)[0]
    with straight():
        slow = simulation.play_game(rules, spec)
    fast = simulation.play_game(rules, spec)
    for out in (slow, fast):
        assert out["error"] is None, out["error"]
        del out["think"]
    return fast, slow


@pytest.mark.parametrize("name, players", cases())
def test_simulated_games_are_the_same_with_the_fast_paths(name, players):
    # the random and first bots are given the number of moves alone (their notations
    # are made only if read); the summaries, moves, digests and statistics are the same
    rules = interpreter.load(name)
    fast, slow = summary_both_ways(rules, players, ("random",) * (players - 1) + ("first",), 1)
    assert fast == slow and fast["played"]


@pytest.mark.parametrize("players", [2, 3])
def test_simulated_games_with_hidden_options_are_the_same_with_the_fast_paths(players):
    program = compiled(HIDDEN)
    for seed in range(3):
        fast, slow = summary_both_ways(program, players, ("random",) * players, seed)
        assert fast == slow


@pytest.mark.parametrize("name, depth", [("tests/testdata/ttt", 4), ("kalah", 3), ("chess", 2),
                                         ("dots-and-boxes", 2), ("hearts", 2)])
def test_perft_counts_the_same_with_the_fast_paths(name, depth):
    # perft counts the moves of the last level (and plays indexes) without making them
    rules = interpreter.load(name)
    players = rules.min_players
    game = rules.new_game(players, seed=2)
    with straight():
        slow = interpreter.divide(rules.new_game(players, seed=2), depth)
    assert interpreter.divide(game, depth) == slow and sum(slow.values()) > 0
    assert interpreter.perft(game, depth) == sum(slow.values())
    assert game.to_json() == rules.new_game(players, seed=2).to_json()


@pytest.mark.parametrize("bot", ["mcts:iterations=12", "greedy:samples=2"])
def test_search_bots_choose_the_same_with_the_fast_paths(bot):
    # their playouts count the moves and play indexes without listing them
    for name, players in [("kalah", 2), ("dots-and-boxes", 2)]:
        fast, slow = summary_both_ways(interpreter.load(name), players, (bot, "random"), 3)
        assert fast == slow
    program = compiled(HIDDEN)
    fast, slow = summary_both_ways(program, 2, ("ismcts:iterations=8", "greedy:samples=1"), 1)
    assert fast == slow


# lists moved at once where no journal is kept (a setup, a move nothing takes back): a
# deal, a zone's items in another order, some of them, the same item twice, a face-down one
RUNS = """ruleset runs
players 2..2
kind Card { value: int }
zone pile: Card hidden
zone hand: Card per player
zone table: Card public
deck cards into pile { Card(value: v) for v in 1..9 }
var n: int = 0
setup {
  shuffle pile
  deal 1 from pile to hand
  move reverse(items(pile)) to hand(players[0])
  move [c for c in items(hand(players[0])) if c.value % 2 == 0] to table
  move top(table) to pile face down for players[1]
  move items(table) + [top(pile)] to hand(players[1])
  move [top(hand(players[0])), top(hand(players[0]))] to table
}
turn {
  choose c from items(hand(active)) as "play"
  move items(hand(active)) to table
  move [c] + items(table) to hand(active)
  n = n + 1
}
end when n > 6
"""


@pytest.mark.parametrize("bare", [False, True])
def test_lists_moved_at_once_end_where_moved_one_by_one(bare):
    program = compiled(RUNS)
    with straight():
        slow = program.new_game(2, seed=2)
    fast = program.new_game(2, seed=2)
    if bare:
        fast.undo_limit = 0
    assert fast.state == slow.state and fast.state["zones"] != program.new_game(2, seed=3).state["zones"]
    rnd = random.Random(2)
    while not slow.over:
        i = rnd.randrange(slow.move_count())
        with straight():
            slow.apply(i, safe=False)
        fast.apply(i, safe=False)
        assert fast.state == slow.state
    assert fast.result == slow.result


class Counted:
    """A game as a bot's mover reads it: the number of moves of a seat, one after another."""

    def __init__(self, counts):
        self.counts = iter(counts)

    def move_count(self, seat=None) -> int:
        return next(self.counts)


class Listed:
    """A list of ``n`` moves as a bot reads it (its length)."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n


@pytest.mark.parametrize("seed", [0, 1, -5, bots.bot_seed(7, 3, 1)])
def test_the_random_playouts_mover_draws_as_the_random_bot(seed):
    # the mover of interpreter.playouts draws what RandomBot draws (the same moves, so the
    # same simulated games), each draw the top bits of the next SplitMix64 output, as many
    # as n - 1 has, until below n (none for n == 1); a count of 0 fails
    rnd = random.Random(99)
    counts = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 100, 128, 1000, 4096, 4097, 2 ** 40 + 1]
    counts += [rnd.randrange(1, 300) for _ in range(2000)]
    move = bots._random_mover(seed)   # (interpreter.playouts' bots)
    bot = bots.RandomBot(seed)
    game = Counted(counts)
    got = [move(game, 0) for _ in counts]
    assert got == [bot.choose({}, Listed(n)) for n in counts]
    state, want = rng.seed_state(seed), []
    for n in counts:
        r = None
        while n > 1 and (r is None or r >= n):
            state, z = rng.next_u64(state)
            r = z >> (64 - (n - 1).bit_length())
        want.append(r or 0)
    assert got == want and all(0 <= r < n for r, n in zip(got, counts))
    assert len(set(got[19:])) > 250   # (not all alike)
    with pytest.raises(ValueError):
        move(Counted([0]), 0)
