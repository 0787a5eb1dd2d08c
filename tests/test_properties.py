"""Properties of the interpreter that hold for every bundled ruleset, with every player
count, variant and locale: random games drawn by Hypothesis (a seed and the index of
each move) are checked move by move.

- legal moves: numbered 0..n-1, sorted by value, with unique notations, stable;
- the state is plain JSON: a game resumed from it continues identically;
- the record of a game (seed + notations) replays to the same state;
- items are conserved: each is in exactly one zone, and ``loc`` says which;
- a seat's view holds no item of a zone that seat cannot see, and never the generator,
  the procedure stack or the item locations;
- games end within MAX_MOVES moves.

A locale that holds only display declarations (names, texts, labels, colours, its title
and language) changes what people read, never a rule: a game in it makes the same moves
and states as in its ruleset (``test_a_locale_of_texts_only_plays_as_its_ruleset``), so
in the short form its configurations play one example each, the
rest of the random games being those of the ruleset's own configurations. A locale that
patches a rule (Cherokee's Dutch one) plays as many as any configuration.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache

import bundled
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import DISPLAY, merge
from meeple.interpreter.play import record, views
from scale import FULL as FULL_FORM, scaled

from meeple import interpreter

MAX_MOVES = 2000
EXAMPLES = scaled(4, 2)   # per configuration; there are many configurations
TEXTS_EXAMPLES = scaled(EXAMPLES, 1)   # per configuration in a locale of texts only
SEATS_CHECK_EVERY = 7  # views are checked every few moves (and at the end)
LOCKSTEP_MOVES = 24   # moves of a game in a locale of texts only played beside its ruleset's


def texts_only(name: str, locale: str | None) -> bool:
    """Whether a bundled ruleset's locale holds display declarations only."""
    return locale is not None and all(d.node in TEXTS for d in bundled.sources(name).locales[locale].decls)


TEXTS = (*DISPLAY, "Title", "Language")


def configurations(texts: bool = False):
    """The configurations whose locale is not of texts only (``texts``: those whose locale
    is)."""
    out = []
    for name in bundled.names():
        variants, locales = bundled.variants(name), bundled.locales(name)
        overlays = [((), None)] + [((v,), None) for v in variants]
        if len(variants) > 1:
            overlays.append((tuple(variants), None))
        overlays += [((), loc) for loc in locales]
        if variants and locales:
            overlays.append((tuple(variants), locales[-1]))
        for vs, loc in overlays:
            if texts_only(name, loc) != texts:
                continue
            # a variant may change the player counts: the checked ruleset says them (only
            # checked, not compiled: collecting stays cheap where these tests are deselected)
            low, high = bundled.players(name, vs, loc)
            # a locale changes names and texts, not rules: in the short form its games are
            # played at the largest table only (the most seats, names and views to check)
            for players in range(low if loc is None or FULL_FORM else high, high + 1):
                label = f"{name}-{players}p" + "".join(f"+{v}" for v in vs) + (f"@{loc}" if loc else "")
                out.append(pytest.param(name, vs, loc, players, id=label))
    return out


@cache
def program(name: str, variants: tuple, locale: str | None):
    return interpreter.load(name, variants=list(variants), locale=locale)


# ---------------------------------------------------------------- the checks

def check_moves(game) -> list:
    moves = game.legal_moves()
    if game.over:
        assert moves == [] and game.active_player is None and game.result is not None
        return moves
    assert moves, "a game that is not over must offer a move"
    assert [m.index for m in moves] == list(range(len(moves)))
    values = [m.value for m in moves]
    pend = game.state["pending"]
    if "item" not in pend["type"]:  # items a decider may not know are ordered by place
        assert values == sorted(values, key=game.program.sort_key(pend["type"])), \
            "legal moves are sorted by value (enum values in declaration order)"
    lowered = [m.notation.lower() for m in moves]
    assert len(set(lowered)) == len(lowered), f"notations are not unique: {lowered}"
    assert all(m.notation and m.notation == " ".join(m.notation.split()) for m in moves)
    assert {m.player for m in moves} == {game.active_player}
    assert game.legal_moves() == moves, "legal moves are stable"
    return moves


def check_conservation(game) -> None:
    prog, state = game.program, game.state
    assert sum(len(z) for z in state["zones"]) == len(prog.items)
    where = Counter(item for z in state["zones"] for item in z)
    assert all(where[i] == 1 for i in range(len(prog.items))), "each item is in exactly one zone"
    for zid, items in enumerate(state["zones"]):
        for item in items:
            assert state["loc"][item] == zid


def may_see(game, zid: int, seat: int, state: dict | None = None) -> bool:
    """Whether a seat may see a zone's items, from the declarations and the zones the
    rules revealed (an oracle for the views). ``state``: the game's, read once by the
    caller (``game.state`` is a fresh copy at each reading)."""
    z = game.program.zones[zid]
    if zid in (game.state if state is None else state)["revealed"] or z.visibility == "public":
        return True
    return z.visibility == "owner" and seat >= 0 and z.owner == seat


def check_views(game) -> None:
    prog, state = game.program, game.state
    by_key = {z.key: z.id for z in prog.zones}
    kinds = prog.checked.kinds
    for seat in list(range(state["players"])) + [views.SPECTATOR]:
        v = views.view(game, seat)
        json.dumps(v)
        assert not {"rng", "stack", "loc"} & set(v)
        assert set(v["zones"]) == set(by_key), "a view has every zone"
        for key, content in v["zones"].items():
            zid = by_key[key]
            assert isinstance(content, list) == may_see(game, zid, seat, state), (key, seat)
            if isinstance(content, list):
                # items face down in sight show only that something is there
                expected = [i if face_up_for(state["facing"][i], seat) else views.HIDDEN_ITEM
                            for i in state["zones"][zid]]
                assert content == expected
            else:
                assert content == {"count": len(state["zones"][zid])}
        pend = v["pending"]
        # a seat sees the options only of its own decision: the deciding player's, or in a
        # simultaneous decision each seat still to choose its own
        deciding = pend is not None and (pend["player"] == seat or
                                         (pend.get("simultaneous") and seat in pend["waiting"]))
        if pend is not None and not deciding:
            assert "options" not in pend
        elif pend is not None and pend.get("simultaneous") and "options" in pend:
            assert pend["options"] == [m.notation for m in game.legal_moves(seat)]
        for name, value in v["vars"].items():
            check_masked(game, seat, prog.checked.vars[name].type, value, kinds, state)
        for name, values in v["pvars"].items():
            for value in values:
                check_masked(game, seat, prog.checked.vars[name].type, value, kinds, state)


def check_masked(game, seat, type_ref, value, kinds, state) -> None:
    if value is None:
        return
    if type_ref.name == "list":
        for x in value:
            check_masked(game, seat, type_ref.item, x, kinds, state)
    elif type_ref.name in kinds and value != views.HIDDEN_ITEM:
        assert may_see(game, state["loc"][value], seat, state) and face_up_for(state["facing"][value], seat), \
            f"a variable shows seat {seat} a hidden item"


def face_up_for(facing: int, seat: int) -> bool:
    """Whether a seat may know an item with this facing mask (-1: not face down)."""
    return facing < 0 or (seat >= 0 and bool(facing >> seat & 1))


def same_game(a, b) -> None:
    assert a.to_json() == b.to_json()
    assert [(m.notation, m.value) for m in a.legal_moves()] == [(m.notation, m.value) for m in b.legal_moves()]


# ---------------------------------------------------------------- the property

@pytest.mark.parametrize("name, variants, locale, players", configurations())
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_games(name, variants, locale, players, data):
    play_and_check(name, variants, locale, players, data)


@pytest.mark.parametrize("name, variants, locale, players", configurations(texts=True))
@settings(max_examples=TEXTS_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_games_in_a_locale_of_texts_only(name, variants, locale, players, data):
    play_and_check(name, variants, locale, players, data)


def play_and_check(name, variants, locale, players, data):
    prog = program(name, variants, locale)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    resume_at = data.draw(st.integers(0, 150), label="resume at move")
    game = prog.new_game(players, seed)
    bounded = prog.for_players(players).bound is not None and not prog.checked.endless
    shadow = None                       # the game resumed from JSON, played alongside
    notations = []
    while True:
        check_conservation(game)
        moves = check_moves(game)
        step = len(notations)
        if step % SEATS_CHECK_EVERY == 0 or game.over:
            check_views(game)
        if shadow is None and (step == resume_at or game.over):
            shadow = prog.resume(json.loads(game.to_json()))
            same_game(shadow, game)
        if game.over:
            break
        if step >= MAX_MOVES and bounded:
            raise AssertionError(f"the game did not end within {MAX_MOVES} moves")
        if step >= MAX_MOVES:       # no bound, or "or endless": the rules promise no end (checked so far)
            break
        i = data.draw(st.integers(0, len(moves) - 1), label="move")
        played = game.apply(i)
        assert played == moves[i]
        notations.append(played.notation)
        if shadow is not None:
            shadow.apply(played.notation)
            assert shadow.to_json() == game.to_json()

    same_game(shadow, game)
    rec = record.Record(name, players, seed, list(variants), locale, notations)
    replayed = record.replay(prog, rec)
    assert replayed.to_json() == game.to_json()
    if not game.over:
        return
    check_result(prog, game.result, players)
    assert record.digest(replayed) == record.digest(game)


def check_result(prog, res: dict, players: int) -> None:
    assert set(res) >= {"scores", "ranking", "winners", "ranks", "outcomes", "draw"}
    assert sorted(p for group in res["ranking"] for p in group) == list(range(players))
    assert res["winners"] == [p for p in range(players) if res["outcomes"][p] == "win"]
    assert res["draw"] == (res["outcomes"] == ["draw"] * players)
    assert all(res["ranks"][p] == 1 for p in res["ranking"][0])
    if not prog.for_players(players).checked.outcome:    # outcomes follow the ranking
        tie = len(res["ranking"]) == 1 and players > 1
        assert res["outcomes"] == ["draw" if tie else "win" if p in res["ranking"][0] else "loss"
                                   for p in range(players)]


def test_there_are_configurations():
    assert configurations() and configurations(texts=True)
    # a locale that patches a rule plays as many games as its ruleset
    assert not texts_only("cherokee", "nl") and texts_only("cherokee", "fr")
    assert any(loc == "nl" for _, _, loc, _ in (p.values for p in configurations()))


def _without_texts(name: str, variants: tuple, locale: str | None) -> list:
    return [d for d in merge(bundled.sources(name), list(variants), locale, Diagnostics()).decls
            if d.node not in TEXTS]


@pytest.mark.parametrize("name, locale", [(n, loc) for n in bundled.names() for loc in bundled.locales(n)
                                          if texts_only(n, loc)])
def test_a_locale_of_texts_only_plays_as_its_ruleset(name, locale):
    """With every overlay of its configurations (no variant, each alone, all), the ruleset
    in the locale has the declarations of the ruleset but the display ones; the first moves of a random game at
    the largest table, with every variant, are the same (values and notations) and leave
    the same states (but the locale's name) as without the locale, and show each seat the
    same views but the log's texts (the rules being the same declarations, a longer game
    tells little more; tests/test_overlays.py: a locale's texts change no notation)."""
    every = tuple(bundled.variants(name))
    for vs in {(), every, *((v,) for v in every)}:
        assert _without_texts(name, vs, locale) == _without_texts(name, vs, None), (name, vs, locale)
    players = bundled.players(name, every, locale)[1]
    ours, theirs = program(name, every, locale).new_game(players, 7), program(name, every, None).new_game(players, 7)
    rng = random.Random(f"{name}@{locale}")

    def state(game) -> dict:
        s = json.loads(game.to_json())
        assert s.pop("locale") == game.program.locale
        return s

    for step in range(LOCKSTEP_MOVES):
        moves = ours.legal_moves()
        assert [(m.notation, m.value) for m in moves] == [(m.notation, m.value) for m in theirs.legal_moves()]
        assert state(ours) == state(theirs)
        if step % SEATS_CHECK_EVERY == 0 or ours.over:
            for seat in [*range(players), views.SPECTATOR]:
                a, b = views.view(ours, seat), views.view(theirs, seat)
                assert len(a.pop("log")) == len(b.pop("log")) and a == b, (step, seat)
        if ours.over:
            break
        i = rng.randrange(len(moves))
        assert ours.apply(i).notation == theirs.apply(i).notation
    assert ours.result == theirs.result
