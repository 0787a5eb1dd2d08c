"""A determinization asks the other seats' part of a simultaneous decision under way
again of its sample: their options may follow from what the seat may not see (their
hands, a hidden limit), and a search bot reads its samples (the secrets promise: a
bot's input). They used to be the real game's options."""
from __future__ import annotations

import random

from meeple import interpreter

LIMIT = """ruleset limit
players 2..2
var limit: int per player owner = 3
var pick: int per player = 0
setup {
  roll l from 3..4
  limit(players[1]) = l
}
turn {
  choose pick(p) from 1..limit(p) for each p in players as "pick"
  end game
}
score(p) = pick(p)
"""


def _options(game, seat: int) -> list:
    pend = game.state["pending"]
    return pend["each"][pend["seats"].index(seat)]


def test_the_others_options_follow_from_the_sample_not_the_game(tmp_path):
    """Player 2's options are 1..limit, its limit hidden from Player 1 (3 or 4): Player 1's
    samples offer Player 2 the same options whichever it is."""
    path = tmp_path / "limit.meeple"
    path.write_text(LIMIT, encoding="utf-8")
    prog = interpreter.load(str(path))
    seen = {}
    for seed in range(40):
        game = prog.new_game(2, seed=seed)
        limit = game.state["pvars"]["limit"][1]
        assert len(_options(game, 1)) == limit   # (the game itself offers 1..limit)
        sample = interpreter.determinize(game, 0, random.Random(0))
        seen.setdefault(limit, set()).add(tuple(_options(sample, 1)))
        assert _options(sample, 0) == _options(game, 0)   # (its own, as it is shown them)
    assert set(seen) == {3, 4}
    assert seen[3] == seen[4]


def test_a_sample_of_hearts_passing_offers_each_other_seat_its_sampled_hand():
    """Hearts' passing: in Player 1's sample, each other seat chooses among the cards of
    its hand in the sample, not among those it holds in the game (options of items were
    relabelled with the sample before; asked again, they still are)."""
    prog = interpreter.load("hearts")
    for seed in range(1, 40):
        game = prog.new_game(4, seed=seed)
        if game.state["pending"] is not None and "waiting" in game.state["pending"]:
            break
    hand = prog.zone_index["hand"]
    sample = interpreter.determinize(game, 0, random.Random(2))
    moved = 0
    for seat in (1, 2, 3):
        held = sample.state["zones"][hand + seat]
        assert sorted(_options(sample, seat)) == sorted(held)
        moved += sorted(held) != sorted(game.state["zones"][hand + seat])
    assert moved   # (the sample dealt the others' hands anew: the check means something)
    assert _options(sample, 0) == _options(game, 0)
