"""Colonel Blotto (tests/testdata/blotto, written from the documentation alone; issue 37)
against OpenSpiel's own C++ game `blotto` (10 coins, 3 fields, 2 players), an
independent engine (the `open_spiel` package, a test-only dependency: without it these
tests say so and skip). Both seats choose at once, in secret (`choose plan(p) ... for
each p in players`): each seat's moves must be OpenSpiel's actions of that seat, and
every pair of plans must give OpenSpiel's returns (+1 / -1, 0 for equal fields) as the
ruleset's payoffs. The ruleset made an OpenSpiel game by Meeple's adapter
(`meeple.openspiel`) must be typed as OpenSpiel types blotto and give the same returns;
its kernel plays as Python does.

A Meeple move, `send 0+5+5` (the coins sent to each field, a list of numbers), is
OpenSpiel's action string `[0,5,5]`."""
from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_difference
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); blotto is not compared with it here")

DATA = Path(__file__).resolve().parent / "testdata"


@cache
def program():
    return interpreter.load(str(DATA / "blotto")).for_players(2)


def spiel_name(notation: str) -> str:
    """OpenSpiel's string of a Meeple move: 'send 0+5+5' -> '[0,5,5]'."""
    verb, plan = notation.split(" ")
    assert verb == "send", notation
    return "[" + plan.replace("+", ",") + "]"


def spiel_moves(st, seat: int) -> dict[str, int]:
    return {st.action_to_string(seat, a): a for a in st.legal_actions(seat)}


def test_each_seat_chooses_among_openspiels_plans_at_once():
    game, st = program().new_game(2, 0), pyspiel.load_game("blotto").new_initial_state()
    assert st.is_simultaneous_node() and game.simultaneous and game.deciding == [0, 1]
    for seat in (0, 1):
        # in OpenSpiel's order too: by the first field's coins, then the second's
        assert [spiel_name(m.notation) for m in game.legal_moves(seat)] == [
            st.action_to_string(seat, a) for a in st.legal_actions(seat)]
    assert len(game.legal_moves(0)) == 66
    # seat 2 plans first: nothing is set until seat 1 has planned too
    game.apply("send 3+0+7", seat=1)
    assert game.deciding == [0] and game.legal_moves(1) == [] and not game.over
    game.apply("send 0+5+5", seat=0)
    assert game.over and game.result["payoffs"] == [-1, 1] and game.result["scores"] == [1, 2]


def test_every_pair_of_plans_gives_openspiels_returns():
    spiel = pyspiel.load_game("blotto")
    first = spiel.new_initial_state()
    plans = [first.action_to_string(0, a) for a in first.legal_actions(0)]
    pairs = [(a, b) for a in range(len(plans)) for b in range(len(plans))]
    if len(pairs) > scaled(len(pairs), 600):
        pairs = random.Random(0).sample(pairs, scaled(len(pairs), 600))
    names = {spiel_name(m.notation): m.notation for m in program().new_game(2, 0).legal_moves(0)}
    seen = {-1: 0, 0: 0, 1: 0}
    for a, b in pairs:
        st = spiel.new_initial_state()
        st.apply_actions([a, b])
        game = program().new_game(2, 0)
        game.apply(names[plans[a]], seat=0)
        game.apply(names[plans[b]], seat=1)
        assert game.over and st.is_terminal()
        assert game.result["payoffs"] == [int(x) for x in st.returns()], (plans[a], plans[b])
        seen[int(st.returns()[0])] += 1
    assert all(seen.values())   # won, lost and drawn


def test_the_adapters_blotto_is_openspiels():
    from meeple import openspiel
    theirs = pyspiel.load_game("blotto")
    ours = openspiel.load(str(DATA / "blotto"), players=2)
    kind, their_kind = ours.get_type(), theirs.get_type()
    assert kind.dynamics == their_kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.utility == their_kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility())
    rnd = random.Random(1)
    for _ in range(scaled(200, 30)):
        mine, st = ours.new_initial_state(), theirs.new_initial_state()
        assert mine.is_simultaneous_node()
        picks = []
        for seat in (0, 1):
            our_ids = {spiel_name(mine.action_to_string(seat, a)): a for a in mine.legal_actions(seat)}
            their_ids = spiel_moves(st, seat)
            assert sorted(our_ids) == sorted(their_ids)
            picks.append(rnd.choice(sorted(our_ids)))
        mine.apply_actions([our_ids_of(mine, s, p) for s, p in enumerate(picks)])
        st.apply_actions([spiel_moves(st, s)[p] for s, p in enumerate(picks)])
        assert mine.is_terminal() and mine.returns() == st.returns(), picks


def our_ids_of(state, seat: int, name: str) -> int:
    return next(a for a in state.legal_actions(seat) if spiel_name(state.action_to_string(seat, a)) == name)


@needs_kernel
@pytest.mark.kernels
def test_blotto_plays_the_same_in_its_kernel(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = interpreter.load(str(DATA / "blotto"))
    assert rules.use_native(report=False)
    fast, plain = rules.for_players(2), program()
    assert fast.kernel
    rnd = random.Random(2)
    for seed in range(scaled(200, 30)):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        for seat in rnd.sample([0, 1], 2):   # either seat may choose first
            assert kernel_difference(a.kernel_state(), b) is None, seed
            assert a.move_count(seat) == b.move_count(seat) == 66
            i = rnd.randrange(b.move_count(seat))
            a.apply(i, safe=False, seat=seat)
            b.apply(i, safe=False, seat=seat)
        assert a.over and a.result == b.result and a.live
    assert fast.native_fallbacks == 0   # the kernel decided every move
