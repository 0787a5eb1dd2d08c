"""Cherokee: many seeded random games, checking what must hold in every game.

For 2, 3 and 4 players, the base game and the open-clans variant, a clockwise locale
(en) and the Dutch one (counterclockwise, chosen start player):

- every game ends, and its result agrees with a score computed here from the pyramid;
- the legal moves are sorted, stable and their notations unique;
- a game saved to JSON and resumed gives the same moves and continues identically;
- all 72 members and 6 clan cards are always somewhere, once; the pyramid is full at the
  start of every turn, and has exactly one gap while a turn fills it;
- no player's view shows another player's hand or (before the end, unless the variant
  opens them) clan card, nor the clan cards face down in the box;
- a record (seed + move notations) replays to the same final state.
"""
from __future__ import annotations

import functools
import json
import random

import pytest
from meeple.interpreter.analysis import testing
from meeple.interpreter.bots import RandomBot
from meeple.interpreter.play import display, record
from meeple.interpreter.play.views import view
from scale import scaled

from meeple import interpreter

GAMES_PER_CONFIG = scaled(24, 5)
MAX_MOVES = 3000
CELLS = [f"r{r}c{c}" for r in range(1, 9) for c in range(1, r + 1)]


@functools.cache
def program(variants: tuple, locale: str | None):
    return interpreter.load("cherokee", variants=list(variants), locale=locale)


class Checker:
    """The invariants of one game, checked at each decision."""

    def __init__(self, prog, players: int, open_clans: bool):
        self.prog, self.n, self.open = prog, players, open_clans
        self.members = {i.id for i in prog.items if i.kind == "Member"}
        self.clan_cards = {i.id for i in prog.items if i.kind == "ClanCard"}
        self.labels = {i.id: display.item_label(prog, i.id) for i in prog.items}
        assert len(self.members) == 72 and len(self.clan_cards) == 6

    def zone(self, game, key):
        return testing.at(game, key)

    def conservation(self, game):
        state = game.state
        everywhere = [i for z in state["zones"] for i in z]
        assert sorted(everywhere) == sorted(self.members | self.clan_cards)
        for z, items in enumerate(state["zones"]):
            assert all(state["loc"][i] == z for i in items)
        pyramid = [self.zone(game, f"pyramid:{c}") for c in CELLS]
        assert all(len(x) <= 1 for x in pyramid)
        assert {i for x in pyramid for i in x} <= self.members
        verb = state["pending"]["verb"] if state["pending"] else None
        gaps = [c for c, x in zip(CELLS, pyramid) if not x]
        if verb in ("chase", "start") or game.over:
            assert gaps == []                           # 36 cards at each turn's start
        elif verb == "with":
            assert gaps == []                           # the target is still there
        elif verb == "tie":
            assert len(gaps) == 1 and not gaps[0].startswith("r8")
        elif verb == "play":
            assert len(gaps) == 1 and gaps[0].startswith("r8")
        hands = [self.zone(game, f"hand:{p}") for p in range(self.n)]
        discard = self.zone(game, "discard")
        assert len(discard) + sum(map(len, hands)) + 36 - len(gaps) == 72
        assert [len(self.zone(game, f"clan:{p}")) for p in range(self.n)] == [1] * self.n
        neutral = len(self.zone(game, "neutral")) if self.open else 0
        # (the variant lays out the neutral clans with the clan cards, before even the
        # Dutch start-player choice)
        assert neutral == (2 if self.open else 0)
        assert len(self.zone(game, "clan_pile")) == 6 - self.n - neutral
        assert self.zone(game, "draw") == []

    def views(self, game, seats):
        for seat in seats:
            v = view(game, seat)
            shown = {i for z in v["zones"].values() if isinstance(z, list) for i in z}
            secret = set(self.zone(game, "clan_pile"))
            for other in range(self.n):
                if other == seat:
                    assert v["zones"][f"hand:{seat}"] == self.zone(game, f"hand:{seat}")
                    continue
                secret |= set(self.zone(game, f"hand:{other}"))
                assert v["zones"][f"hand:{other}"] == {"count": len(self.zone(game, f"hand:{other}"))}
                if self.open or game.over:     # open clans; at the end all are revealed
                    assert v["zones"][f"clan:{other}"] == self.zone(game, f"clan:{other}")
                else:
                    secret |= set(self.zone(game, f"clan:{other}"))
                    assert v["zones"][f"clan:{other}"] == {"count": 1}
            assert not shown & secret
            text = "\n".join(v["log"])
            for i in secret & self.members:
                assert self.labels[i] not in text
            pend = v["pending"]
            if pend is not None and pend["player"] != seat:
                assert "options" not in pend

    def result(self, game):
        """The result, computed here from the final pyramid."""
        prog = self.prog
        clan_of = [prog.items[self.zone(game, f"clan:{p}")[0]].attrs["clan"] for p in range(self.n)]
        scores, women = [0] * self.n, [0] * self.n
        for cell in CELLS:
            (item,) = self.zone(game, f"pyramid:{cell}")
            a = prog.items[item].attrs
            for p in range(self.n):
                if a["clan"] == clan_of[p]:
                    scores[p] += 8 - int(cell[1])
                    women[p] += a["sex"] == "woman"
        best = max(zip(scores, women))
        return scores, women, [p for p in range(self.n) if (scores[p], women[p]) == best]


check_moves = testing.check_legal_moves  # the checks every decision must pass


def play_game(variants: tuple, locale: str | None, players: int, seed: int):
    prog = program(variants, locale)
    chk = Checker(prog, players, "open_clans" in variants)
    game = prog.new_game(players, seed=seed)
    bots = [RandomBot(seed * 10 + p) for p in range(players)]
    rnd = random.Random(seed)
    fork_at = rnd.randrange(1, 80)
    forked = None
    notations: list[str] = []
    turn_start_hands = None
    while not game.over:
        assert len(notations) < MAX_MOVES, "the game does not end"
        notes = check_moves(game)
        chk.conservation(game)
        verb = game.decision.verb
        if verb == "chase":
            if turn_start_hands is not None:
                # one full turn: one member discarded, one hand card played
                before_hands, before_discard, seat = turn_start_hands
                after = [len(testing.at(game, f"hand:{p}")) for p in range(players)]
                assert sum(before_hands) - sum(after) == len(testing.at(game, "discard")) - before_discard
            turn_start_hands = ([len(testing.at(game, f"hand:{p}")) for p in range(players)],
                                len(testing.at(game, "discard")), game.state["active"])
            chk.views(game, range(players))
        if len(notations) == fork_at:
            forked = prog.resume(json.loads(game.to_json()))
        if forked is not None:
            assert [m.notation for m in forked.legal_moves()] == notes
        seat = game.active_player
        choice = notes[bots[seat].choose(view(game, seat), game.legal_moves())]
        game.apply(choice)
        if forked is not None:
            forked.apply(choice)
        notations.append(choice)
    chk.conservation(game)
    chk.views(game, range(players))
    scores, women, winners = chk.result(game)
    assert game.result["scores"] == scores
    assert game.result["tiebreaks"]["women"] == women
    assert game.result["winners"] == winners
    assert sorted(p for rank in game.result["ranking"] for p in rank) == list(range(players))
    if forked is not None:
        assert forked.over and forked.to_json() == game.to_json()
    rec = record.Record("cherokee", players, seed, list(variants), locale, notations,
                        result=game.result, state_digest=record.digest(game))
    rec = record.from_dict(json.loads(json.dumps(rec.to_dict())))   # through the schema
    replayed = record.replay(prog, rec)
    assert replayed.to_json() == game.to_json()
    return game, notations


CONFIGS = [(variants, locale, players)
           for variants in [(), ("open_clans",)]
           for locale in ["en", "nl"]
           for players in [2, 3, 4]]


@pytest.mark.parametrize("variants, locale, players", CONFIGS,
                         ids=[f"{'+'.join(v) or 'base'}-{loc}-{n}p" for v, loc, n in CONFIGS])
def test_random_games(variants, locale, players):
    lengths = []
    for seed in range(GAMES_PER_CONFIG):
        _game, notations = play_game(variants, locale, players, seed)
        lengths.append(len(notations))
    # the games really are different from one another
    assert len(set(lengths)) > 1


@pytest.mark.parametrize("locale", [None, "de", "fr", "ru"])
def test_random_games_in_the_other_locales(locale):
    for seed in range(scaled(3, 2)):
        play_game((), locale, 3, seed)


def test_a_record_replays_the_same_game_twice():
    game, notations = play_game(("open_clans",), "nl", 3, 99)
    prog = program(("open_clans",), "nl")
    rec = record.Record("cherokee", 3, 99, ["open_clans"], "nl", notations)
    assert record.replay(prog, rec).to_json() == record.replay(prog, rec).to_json() == game.to_json()
    # a record whose moves were changed does not replay
    broken = record.Record("cherokee", 3, 99, ["open_clans"], "nl", notations[:3] + ["chase r9c9"])
    with pytest.raises(record.RecordError):
        record.replay(prog, broken)
