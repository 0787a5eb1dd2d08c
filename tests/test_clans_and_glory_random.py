"""Clans and Glory: many seeded random games, checking what must hold in every game.

For 2, 3 and 4 players, the base game and the variants, in English and Russian:

- every game ends, after exactly players x (the smallest hand) turns, and its result
  equals a score computed here from the moves alone (an independent tracker of where each
  card went and of each board's shield stack);
- the options of every decision agree with placement rules computed here independently:
  the cards that fit and their cells ("play", "at"), or, when none fits, any card into
  any free cell ("hide", "at");
- the legal moves are sorted, stable and their notations unique;
- all 42 cards and 20 shields are always somewhere, once; a table cell holds at most one
  card; each player's shields on the table plus in the supply are 5 during the game;
- no view shows another player's hand, the set-aside cards or another player's
  face-down card, and no message names one of them;
- a game saved to JSON and resumed gives the same moves and continues identically;
- a record (seed + move notations) replays to the same final state.
"""
from __future__ import annotations

import functools
import json
import random
import re

import pytest
from meeple.interpreter.analysis import testing
from meeple.interpreter.bots import RandomBot
from meeple.interpreter.play import display, record
from meeple.interpreter.play.views import view
from scale import scaled

from meeple import interpreter

GAMES_PER_CONFIG = scaled(12, 4)
MAX_MOVES = 400
HIDDEN = {"hidden": True}
HANDS = {2: [9, 8], 3: [9, 9, 8], 4: [8, 8, 8, 7]}
CELL = re.compile(r"table\.p(\d+)([eab])([0-4])$")
SIDES = "eab"  # side 0 is a single cell at an end of the table, 1 and 2 the long sides


@functools.cache
def ruleset(variants: tuple, locale: str | None):
    return interpreter.load("clans-and-glory", variants=list(variants), locale=locale)


def col(part: int, slot: int) -> int:
    return (part - 1) * 3 + slot


class Tracker:
    """Follows a game from its moves alone: where each card went, which cards lie face
    down and who knows them, each board's shield stack; and checks the game against it."""

    def __init__(self, game, players: int, separate: bool, paired: bool = False):
        self.prog, self.n, self.separate, self.paired = game.program, players, separate, paired
        self.cards = {i.id for i in self.prog.items if i.kind == "Card"}
        self.shields = {i.id for i in self.prog.items if i.kind == "Shield"}
        assert len(self.cards) == 42 and len(self.shields) == 20
        self.by_notation = {i.notation: i.id for i in self.prog.items}
        self.boards = players + 2
        # (part, side, slot) -> card, from the start cards on
        self.table: dict[tuple, int] = {}
        for z in self.prog.zones:
            if z.board == "table":
                c = z.cell.coords
                for it in game.state["zones"][z.id]:
                    self.table[(c["part"], c["side"], c["slot"])] = it
        self.down: dict[int, int] = {}         # face-down card -> the seat who placed it
        self.stacks = {b: [] for b in range(1, self.boards + 1)}
        self.card = None
        self.hidden = False
        self.last_part = None
        labels = {i: display.item_label(self.prog, i) for i in self.cards}
        self.labels = labels
        words = sorted(set(labels.values()), key=len, reverse=True)
        self.label_re = re.compile("|".join(re.escape(w) for w in words))

    # ------------------------------------------------------------ geometry
    # The rulebook's note: the single cell at each end of the table (side 0, on the first
    # and the last board) is opposite the single cell at the other end, and its
    # neighbours are the nearest cells on its left and right: the end cell of each side.
    # The variant paired_single_cells: 2 single cells on each end board, one closing each
    # long side (slot 0 or 4): the long sides' rules below give their neighbours.
    def single_cells(self):
        if self.paired:
            return [(1, 1, 0), (1, 2, 0), (self.boards, 1, 4), (self.boards, 2, 4)]
        return [(1, 0, 0), (self.boards, 0, 4)]

    def neighbours(self, part, side, slot):
        if side == 0:
            across = [c for c in self.single_cells() if c != (part, side, slot)]
            k = 1 if slot == 0 else 3
            return across + [(part, 1, k), (part, 2, k)]
        out = [(part, 3 - side, slot)]
        for other in self.table_cells():
            p, s, k = other
            if s in (0, side) and abs(col(p, k) - col(part, slot)) == 1:
                if not self.separate or p == part:
                    out.append(other)
        return out

    def table_cells(self):
        return [(p, s, k) for p in range(1, self.boards + 1) for s in (1, 2)
                for k in (1, 2, 3)] + self.single_cells()

    def fits(self, card: int, cell) -> bool:
        if cell in self.table:
            return False
        a = self.prog.items[card].attrs
        for n in self.neighbours(*cell):
            other = self.table.get(n)
            if other is not None and other not in self.down:
                b = self.prog.items[other].attrs
                if a["colour"] == b["colour"] or a["value"] == b["value"]:
                    return True
        return False

    @staticmethod
    def cell_name(cell) -> str:
        p, s, k = cell
        return f"table.p{p}{SIDES[s]}{k}"

    # ------------------------------------------------------------ decisions
    def check_options(self, game, notes: list[str]):
        verb = game.decision.verb
        seat = game.active_player
        hand = testing.at(game, f"hand:{seat}")
        if verb in ("play", "hide"):
            fitting = [c for c in hand if any(self.fits(c, x) for x in self.table_cells())]
            if fitting:
                assert verb == "play"
                assert notes == [f"play {self.prog.items[c].notation}" for c in sorted(fitting)]
            else:
                assert verb == "hide"
                assert notes == [f"hide {self.prog.items[c].notation}" for c in sorted(hand)]
        elif verb == "at":
            if self.hidden:
                want = [x for x in self.table_cells() if x not in self.table]
            else:
                want = [x for x in self.table_cells() if self.fits(self.card, x)]
            assert sorted(notes) == sorted(f"at {self.cell_name(x)}" for x in want)
        elif verb == "shield":
            assert notes == ["shield false", "shield true"]
            assert testing.at(game, f"shields:{seat}")
        else:
            assert verb == "start", verb

    def moved(self, seat: int, notation: str):
        verb, _, value = notation.partition(" ")
        if verb in ("play", "hide"):
            self.card, self.hidden = self.by_notation[value], verb == "hide"
        elif verb == "at":
            m = CELL.match(value)
            cell = (int(m[1]), SIDES.index(m[2]), int(m[3]))
            self.table[cell] = self.card
            if self.hidden:
                self.down[self.card] = seat
            self.last_part = cell[0]
        elif verb == "shield" and value == "true":
            self.stacks[self.last_part].append(seat)

    # ------------------------------------------------------------ invariants
    def conservation(self, game):
        state = game.state
        everywhere = [i for z in state["zones"] for i in z]
        assert sorted(everywhere) == sorted(self.cards | self.shields)
        for z, items in enumerate(state["zones"]):
            assert all(state["loc"][i] == z for i in items)
        on_table = []
        for z in self.prog.zones:
            if z.board == "table":
                assert len(state["zones"][z.id]) <= 1 and set(state["zones"][z.id]) <= self.cards
                on_table += state["zones"][z.id]
            elif z.board == "stones":
                assert set(state["zones"][z.id]) <= self.shields
        if not game.over:
            assert sorted(on_table) == sorted(self.table.values())
            for p in range(self.n):
                colour = state["pvars"]["colour"][p]
                mine = [i for i in self.shields if self.prog.items[i].attrs["colour"] == colour]
                placed = sum(stack.count(p) for stack in self.stacks.values())
                assert len(testing.at(game, f"shields:{p}")) == 5 - placed
                assert set(testing.at(game, f"shields:{p}")) <= set(mine)
        for it in self.cards:
            assert (state["facing"][it] >= 0) == (it in self.down and it in on_table)

    def views(self, game):
        for seat in list(range(self.n)) + [-1]:
            v = view(game, seat)
            secret = set(testing.at(game, "set_aside"))
            for other in range(self.n):
                if other == seat:
                    assert v["zones"][f"hand:{seat}"] == testing.at(game, f"hand:{seat}")
                    continue
                secret |= set(testing.at(game, f"hand:{other}"))
                assert v["zones"][f"hand:{other}"] == {"count": len(testing.at(game, f"hand:{other}"))}
            secret |= {c for c, owner in self.down.items() if owner != seat}
            if game.over:
                secret |= set(testing.at(game, "discard"))
                assert v["zones"]["discard"] == {"count": len(testing.at(game, "discard"))}
            for z in self.prog.zones:
                if z.board == "table":
                    items = testing.at(game, z.key)
                    want = [HIDDEN if i in self.down and self.down[i] != seat else i for i in items]
                    assert v["zones"][z.key] == want
            shown = {i for z in v["zones"].values() if isinstance(z, list) for i in z
                     if isinstance(i, int)}
            assert not shown & secret
            said = set(self.label_re.findall("\n".join(v["log"])))
            assert not said & {self.labels[i] for i in secret}
            pend = v["pending"]
            if pend is not None and pend["player"] != seat:
                assert "options" not in pend

    def result(self):
        """Scores and villager counts from the tracked table and stacks."""
        scores, counts = [0] * self.n, [0] * self.n
        for b, stack in self.stacks.items():
            left = [c for (p, _, _), c in self.table.items() if p == b and c not in self.down]
            values = sorted(self.prog.items[c].attrs["value"] for c in left)
            for seat in stack:
                if values:
                    low = values[0]
                    won = [v for v in values if v == low]
                    values = values[len(won):]
                    scores[seat] += sum(won)
                    counts[seat] += len(won)
        best = max(zip(scores, counts))
        return scores, counts, [p for p in range(self.n) if (scores[p], counts[p]) == best]


check_moves = testing.check_legal_moves  # the checks every decision must pass


def play_game(variants: tuple, locale: str | None, players: int, seed: int):
    rs = ruleset(variants, locale)
    game = rs.new_game(players, seed=seed)
    prog = game.program
    bots = [RandomBot(seed * 10 + p) for p in range(players)]
    rnd = random.Random(seed)
    fork_at = rnd.randrange(1, 40)
    forked = None
    notations: list[str] = []
    tracker = None
    while not game.over:
        assert len(notations) < MAX_MOVES, "the game does not end"
        notes = check_moves(game)
        verb = game.decision.verb
        if tracker is None and verb != "start":
            tracker = Tracker(game, players, "separate_boards" in variants,
                              "paired_single_cells" in variants)
            sizes = [len(testing.at(game, f"hand:{p}")) for p in range(players)]
            first = game.state["active"]
            assert [sizes[(first + k) % players] for k in range(players)] == HANDS[players]
        if tracker is not None:
            tracker.check_options(game, notes)
            tracker.conservation(game)
            if verb in ("play", "hide"):
                tracker.views(game)
        if len(notations) == fork_at:
            forked = prog.resume(json.loads(game.to_json()))
        if forked is not None:
            assert [m.notation for m in forked.legal_moves()] == notes
        seat = game.active_player
        choice = notes[bots[seat].choose(view(game, seat), game.legal_moves())]
        game.apply(choice)
        if tracker is not None:
            tracker.moved(seat, choice)
        if forked is not None:
            forked.apply(choice)
        notations.append(choice)
    assert game.state["turn"] == players * min(HANDS[players])
    tracker.conservation(game)
    tracker.views(game)
    # at the end: hands discarded, face-down cards removed, nothing face down remains
    assert all(testing.at(game, f"hand:{p}") == [] for p in range(players))
    assert set(tracker.down) <= set(testing.at(game, "discard"))
    assert all(f < 0 for f in game.state["facing"])
    assert all(testing.at(game, z.key) == [] for z in prog.zones if z.board == "stones")
    scores, counts, winners = tracker.result()
    assert game.result["scores"] == scores
    assert game.result["tiebreaks"]["villagers"] == counts
    assert game.result["winners"] == winners
    for p in range(players):
        clan = testing.at(game, f"clan:{p}")
        assert sum(prog.items[i].attrs["value"] for i in clan) == scores[p] and len(clan) == counts[p]
    if forked is not None:
        assert forked.over and forked.to_json() == game.to_json()
    rec = record.Record("clans-and-glory", players, seed, list(variants), locale, notations,
                        result=game.result, state_digest=record.digest(game))
    rec = record.from_dict(json.loads(json.dumps(rec.to_dict())))   # through the schema
    assert record.replay(rs, rec).to_json() == game.to_json()
    return game, notations, tracker


CONFIGS = [(variants, locale, players)
           for variants in [(), ("separate_boards",)]
           for locale in ["en", "ru"]
           for players in [2, 3, 4]]


@pytest.mark.parametrize("variants, locale, players", CONFIGS,
                         ids=[f"{'+'.join(v) or 'base'}-{loc}-{n}p" for v, loc, n in CONFIGS])
def test_random_games(variants, locale, players):
    outcomes = set()
    for seed in range(GAMES_PER_CONFIG):
        game, _notations, _tracker = play_game(variants, locale, players, seed)
        outcomes.add(tuple(game.result["scores"]))
    # the games really are different from one another
    assert len(outcomes) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_a_chosen_first_player_and_both_variants(players):
    for seed in range(3):
        play_game(("chosen_first_player", "separate_boards"), None, players, seed)


@pytest.mark.parametrize("variants", [("paired_single_cells",),
                                      ("paired_single_cells", "separate_boards")])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_two_single_cells_on_each_end_board(variants, players):
    # the tracker's own geometry (4 single cells, each opposite the other of its board)
    # agrees with the ruleset's move by move; the single cells do get filled
    filled = 0
    for seed in range(4):
        _game, _notations, tracker = play_game(variants, "ru" if seed % 2 else "en", players, seed)
        filled += sum(1 for (_, _, slot) in tracker.table if slot in (0, 4))
    assert filled > 0


@pytest.mark.parametrize("variants", [(), ("separate_boards",)])
def test_face_down_placements_happen_in_random_games(variants):
    # the rule for a card that fits nowhere is exercised (and its secrecy checked above),
    # not only written: with 2 players (4 values in play) it happens in about 1 game of 20
    # of random bots (of games 100..123 in game 118; with separate boards, of 100..129 in
    # 108 and 109)
    hides = sum(len(play_game(variants, None, 2, 100 + seed)[2].down) for seed in range(8, 20))
    assert hides > 0


@pytest.mark.parametrize("variants", [(), ("separate_boards",)])
def test_single_cells_are_played_in_random_games(variants):
    # the note's single cells are really offered and filled, not only declared
    filled = 0
    for seed in range(6):
        tracker = play_game(variants, None, 3, 200 + seed)[2]
        filled += sum(1 for (_, side, _) in tracker.table if side == 0)
    assert filled > 0

def test_a_record_replays_the_same_game_twice():
    game, notations, _ = play_game(("separate_boards",), "ru", 3, 99)
    rs = ruleset(("separate_boards",), "ru")
    rec = record.Record("clans-and-glory", 3, 99, ["separate_boards"], "ru", notations)
    assert record.replay(rs, rec).to_json() == record.replay(rs, rec).to_json() == game.to_json()
    broken = record.Record("clans-and-glory", 3, 99, ["separate_boards"], "ru",
                           notations[:3] + ["at table.p9a9"])
    with pytest.raises(record.RecordError):
        record.replay(rs, broken)
