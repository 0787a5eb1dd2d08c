"""Results beyond win and loss (issue 37, item 10): `payoff(p) = ...` declares what each
seat gets (an auction's gain), `summing to N` what every game's payoffs add up to, and
`payoff = ...` one payoff every seat shares. The result holds them (`payoffs`), the
OpenSpiel and PettingZoo adapters return them exactly (`returns="payoffs"`, the default
of a ruleset that declares them), and the game type says what the declaration proves.

A first-price sealed-bid auction written from docs/ (tests/testdata/first_price_auction.meeple)
is played in lockstep with OpenSpiel's `first_sealed_auction` (max_value 10, its
default): at every node the same player, chance probabilities and bids, and at the end
the same returns, exactly. OpenSpiel always breaks the tie with a chance node, one
outcome when one bid is highest; Meeple takes a chance step only when there is a choice
(`pick ... at random` from one seat takes none), so that node is played in OpenSpiel
alone."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet, add_text
from scale import scaled

from meeple import interpreter

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, or the test extra: "
                      "pip install '.[test]'); the auction is not compared with it here")
from meeple import openspiel  # noqa: E402 - needs pyspiel

T = pyspiel.GameType
DATA = Path(__file__).resolve().parent / "testdata"
AUCTION = str(DATA / "first_price_auction.meeple")


def compile_text(text: str) -> interpreter.Ruleset:
    src = SourceSet()
    add_text(src, "payoffs.meeple", text)
    return interpreter.compile_sources(src)


def lockstep(players: int, count: int, native: bool, seed: int = 0) -> dict[str, int]:
    """Random games of the auction in Meeple's adapter and OpenSpiel's, compared node by
    node; what they went through."""
    ours = openspiel.load(AUCTION, players=players, native=native)
    theirs = pyspiel.load_game("first_sealed_auction", {"players": players})
    rnd = random.Random(seed)
    seen = {"ties": 0, "won": 0, "differ_from_outcomes": 0}
    for _ in range(count):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            if b.is_chance_node() and len(b.chance_outcomes()) == 1 and not a.is_chance_node():
                b.apply_action(b.chance_outcomes()[0][0])   # (a tie-break without a tie)
                continue
            assert a.current_player() == b.current_player(), (str(b), a.game.state)
            if b.is_chance_node():
                # a value: the outcome is the value; a tie-break: the seat ('p2' is seat 1)
                name = (lambda s: int(s)) if b.move_number() < players else (lambda s: int(s[1:]) - 1)
                got = {name(a.action_to_string(x)): p for x, p in a.chance_outcomes()}
                assert got == pytest.approx(dict(b.chance_outcomes())), str(b)
                seen["ties"] += b.move_number() >= players
                pick = rnd.choice(sorted(got))
                a.apply_action(next(x for x, _ in a.chance_outcomes() if name(a.action_to_string(x)) == pick))
                b.apply_action(pick)
                continue
            bids = {int(a.action_to_string(x).removeprefix("bid ")): x for x in a.legal_actions()}
            assert sorted(bids) == b.legal_actions(), str(b)
            bid = rnd.choice(sorted(bids))
            a.apply_action(bids[bid])
            b.apply_action(bid)
        assert a.is_terminal()
        assert a.returns() == b.returns(), str(b)   # exactly: the same floats
        seen["won"] += any(b.returns())
        outcomes = openspiel.returns_of(a.game.result, players, "outcomes")
        seen["differ_from_outcomes"] += outcomes != b.returns()
    return seen


@pytest.mark.parametrize("players,native", [(2, True), (3, True), (3, False)])
def test_the_auctions_returns_are_openspiels_exactly(players, native):
    count = scaled(300, 60)
    seen = lockstep(players, count, native, seed=players)
    # real ties broken at random happened, and positive gains; the returns of
    # outcomes (+1/-1) would have differed from OpenSpiel's in most games
    assert seen["ties"] > 0 and seen["won"] > count // 2
    assert seen["differ_from_outcomes"] > count // 2


def test_the_auctions_game_type_is_openspiels():
    ours, theirs = openspiel.load(AUCTION).get_type(), pyspiel.load_game("first_sealed_auction").get_type()
    for field in ("dynamics", "chance_mode", "information", "utility"):
        assert getattr(ours, field) == getattr(theirs, field), field
    assert ours.utility == T.Utility.GENERAL_SUM
    assert openspiel.load(AUCTION).get_parameters()["returns"] == "payoffs"


def test_a_simultaneous_game_with_nothing_else_hidden_has_perfect_information():
    # as OpenSpiel types its own oshi-zumo: the simultaneous node keeps the bids apart
    ours = openspiel.load(str(DATA / "oshi_zumo.meeple")).get_type()
    assert ours.information == pyspiel.load_game("oshi_zumo").get_type().information \
        == T.Information.PERFECT_INFORMATION
    assert ours.dynamics == T.Dynamics.SIMULTANEOUS


GIFTS = """ruleset gifts
players 2..3
var given: int per player = 0
var done: bool = false
turn {
  choose g from [1, 2, 3] as "give"
  given(active) = g
  if seat(active) == player_count() { done = true }
}
end when done
score(p) = given(p)
"""


def play(ruleset: interpreter.Ruleset, players: int, gifts: list[int]):
    game = ruleset.for_players(players).new_game(players, 0)
    for g in gifts:
        game.apply(next(m for m in game.legal_moves() if m.notation == f"give {g}"))
    return game


def test_declared_payoffs_are_in_the_result_and_sums_are_checked():
    general = compile_text(GIFTS + "payoff(p) = 10 - given(p)\n")
    assert play(general, 3, [1, 2, 3]).result["payoffs"] == [9, 8, 7]
    assert "payoffs" not in play(compile_text(GIFTS), 2, [1, 2]).result   # as before
    shared = compile_text(GIFTS + "payoff = sum(given(p) for p in players)\n")
    assert play(shared, 3, [1, 2, 3]).result["payoffs"] == [6, 6, 6]
    zero = compile_text(GIFTS + "payoff(p) = if seat(p) == 1 then given(p) else 0 - given(players[0])"
                                " summing to 0\n")
    assert play(zero, 2, [3, 1]).result["payoffs"] == [3, -3]
    with pytest.raises(interpreter.RuleError) as e:
        play(zero, 3, [3, 1, 2])   # two seats lose the first seat's gift: -3
    assert "sum to -3, not 0" in str(e.value) and "payoffs.meeple:12" in str(e.value)
    assert "bug" not in str(e.value)
    negative = compile_text(GIFTS + "payoff(p) = 0 - given(p) summing to -4\n")
    assert play(negative, 2, [1, 3]).result["payoffs"] == [-1, -3]


def test_a_payoff_is_an_int():
    with pytest.raises(MeepleError) as e:
        compile_text(GIFTS + "payoff(p) = given(p) > 1\n")
    assert "check/type-mismatch" in str(e.value) and "payoffs.meeple:12" in str(e.value)


def test_the_utility_is_what_the_declaration_proves():
    kinds = {"payoff(p) = given(p)": (T.Utility.GENERAL_SUM, None),
             "payoff(p) = 0 summing to 0": (T.Utility.ZERO_SUM, 0.0),
             "payoff(p) = 5 summing to 10": (T.Utility.CONSTANT_SUM, 10.0),
             "payoff = given(players[0])": (T.Utility.IDENTICAL, None)}
    for i, (decl, (kind, total)) in enumerate(kinds.items()):
        ruleset = compile_text(GIFTS.replace("ruleset gifts", f"ruleset gifts_{i}") + decl + "\n")
        game = openspiel.load(ruleset, players=2)
        assert game.get_type().utility == kind, decl
        if total is not None:
            assert game.utility_sum() == total
        state = game.new_initial_state()
        for a in (state.legal_actions()[0], state.legal_actions()[0]):
            state.apply_action(a)
        assert state.returns() == [float(x) for x in state.game.result["payoffs"]]
    # outcomes still as before, on request
    assert openspiel.load(ruleset, returns="outcomes").get_type().utility == T.Utility.ZERO_SUM


def test_payoffs_asked_of_a_ruleset_without_them_is_a_clear_error():
    with pytest.raises(ValueError, match="declares no payoff"):
        openspiel.load("kalah", returns="payoffs")
    with pytest.raises(ValueError, match="returns must be one of"):
        openspiel.load("kalah", returns="gains")


def test_pettingzoo_rewards_are_the_payoffs():
    pytest.importorskip("pettingzoo")
    from meeple import pettingzoo
    env = pettingzoo.env(AUCTION)
    env.reset(seed=4)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        env.step(None if terminated or truncated else
                 int(next(i for i, ok in enumerate(obs["action_mask"]) if ok)))
    payoffs = env.unwrapped.game.result["payoffs"]
    assert [rewards[a] for a in env.possible_agents] == [float(x) for x in payoffs]
    with pytest.raises(ValueError, match="declares no payoff"):
        pettingzoo.env("kalah", returns="payoffs")


def test_playouts_give_the_payoffs_in_every_engine():
    # the kernel's batch of playouts computes the payoffs (tests/test_kernel_payoffs.py):
    # the same results as the Python game of each seed
    python = interpreter.load(AUCTION).for_players(3)
    prog = openspiel.played_program(interpreter.load(AUCTION), 3, True)   # (a kernel's, where one is built)
    got = interpreter.playouts(prog, 12, seed=5)
    assert [g["result"] for g in got] == [g["result"] for g in interpreter.playouts(python, 12, seed=5)]
    for g in got:
        assert g["error"] is None and "payoffs" in g["result"]
        assert g["result"]["payoffs"] == g["result"]["scores"]   # the winner's gain, 0 else
    assert any(sum(g["result"]["payoffs"]) > 0 for g in got)
