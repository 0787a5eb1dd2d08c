"""Every ruleset is a PettingZoo AEC environment (issue 15 §2), when PettingZoo is
installed (the extra meeple[pettingzoo]; otherwise these tests say so and skip): every
bundled ruleset passes PettingZoo's api_test and seed_test (a few cycles here; longer
runs in benchmarks/bench_rulesets_as_games.py); observations encode the seat's view only,
masks are the legal moves over the fixed action space, rewards come from the results,
render() draws the board as the CLI does."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo (pettingzoo) is not installed")

import numpy as np
from meeple.dsl.load import bundled_names
from meeple.interpreter.play import views
from pettingzoo.test import api_test, seed_test

from meeple import interpreter

# meeple.pettingzoo, imported by the first test (_imported): it imports meeple.openspiel,
# which registers the bundled rulesets where OpenSpiel is installed, loading them all
# (about 3 s with an empty disk cache, as a test run starts), which each pytest-xdist
# worker would spend collecting this file
pettingzoo = None

KUHN = str(Path(__file__).resolve().parent / "testdata" / "kuhn_poker.meeple")


@pytest.fixture(autouse=True, scope="module")
def _imported():
    global pettingzoo
    import meeple.pettingzoo as pettingzoo


@pytest.fixture(autouse=True)
def _python_by_default(monkeypatch):
    # the games are played in Python here (no kernel to build for every ruleset): the
    # tests marked ``kernels`` play them by their kernels, against Python
    monkeypatch.setenv("MEEPLE_KERNEL", "0")


@pytest.fixture(params=[False, pytest.param(True, marks=pytest.mark.kernels)], ids=["python", "kernel"])
def kernels(request, monkeypatch):
    """Both ways: in Python, and by the kernels where they can be built here."""
    if request.param:
        monkeypatch.delenv("MEEPLE_KERNEL")
        if interpreter.kernel_status() is not None:
            pytest.skip(f"no kernel can be built here: {interpreter.kernel_status()}")
    return request.param


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_ruleset_passes_pettingzoo_api_and_seed_tests(name):
    with warnings.catch_warnings():
        # (a dict observation with an action mask, as PettingZoo's own classic games have)
        warnings.simplefilter("ignore", UserWarning)
        api_test(pettingzoo.env(name), num_cycles=15)
        seed_test(lambda: pettingzoo.env(name), num_cycles=8)


def play(env, seed: int = 0):
    """Plays a game with random legal actions; gives the rewards summed per agent."""
    env.reset(seed=seed)
    rnd = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_rewards_are_the_outcomes_of_the_finished_game():
    env = pettingzoo.env("kalah")
    total = play(env, seed=3)
    result = env.unwrapped.game.result
    assert [total[a] for a in env.possible_agents] == [
        {"win": 1.0, "draw": 0.0, "loss": -1.0}[o] for o in result["outcomes"]]


def test_scores_as_rewards_sum_to_zero():
    env = pettingzoo.env(KUHN, returns="scores")
    total = play(env, seed=1)
    scores = env.unwrapped.game.result["scores"]
    assert [total[a] for a in env.possible_agents] == scores and sum(scores) == 0


def test_the_mask_is_the_deciding_seat_legal_moves():
    env = pettingzoo.env("kalah")
    env.reset(seed=0)
    raw = env.unwrapped
    mask = env.observe("player_0")["action_mask"]
    ids = np.flatnonzero(mask).tolist()
    assert [raw.space.moves(raw.game, 0)[a].notation for a in ids] == [
        m.notation for m in raw.game.legal_moves()]
    assert not env.observe("player_1")["action_mask"].any()


def test_an_observation_encodes_the_seat_view_only(kernels):
    env = pettingzoo.env(KUHN)
    raw = env.unwrapped
    seen = {}
    for seed in range(12):   # deals that differ only in the other seat's card
        env.reset(seed=seed)
        assert raw.game.program.kernel == kernels
        key = str(views.view(raw.game, 0))
        obs = env.observe("player_0")["observation"]
        if key in seen:
            assert (seen[key] == obs).all()
        seen[key] = obs
    assert 1 < len(seen) <= 3      # three cards seat 0 may hold


def test_a_simultaneous_decision_asks_each_seat_in_turn():
    env = pettingzoo.env("hearts")
    raw = env.unwrapped
    for seed in range(5):
        env.reset(seed=seed)
        if raw.game.simultaneous:
            break
    asked = []
    for _ in range(12):   # (hearts passes three cards: 'choose 3', a card per step)
        agent = env.agent_selection
        asked.append(agent)
        assert raw.game.simultaneous and len(raw.game.deciding) == 4 - (len(asked) - 1) // 3
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    # each seat in turn, its three cards in a row
    assert asked == [f"player_{s}" for s in range(4) for _ in range(3)]
    assert not raw.game.simultaneous


def test_render_draws_the_board_as_the_cli_does():
    env = pettingzoo.env("tests/testdata/ttt", render_mode="ansi")
    env.reset(seed=0)
    empty = env.render()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert env.render() != empty and isinstance(empty, str) and empty.strip()


MOODS = """ruleset moods
players 2..2
enum Mood { calm, angry }
var mood: Mood per player owner = calm
var done: bool = false
turn {
  choose m from [calm, angry] as "feel"
  mood(active) = m
  done = true
}
end when done
score(p) = 0
"""


def test_a_value_hidden_from_the_seat_encodes_as_zero(tmp_path):
    (tmp_path / "moods.meeple").write_text(MOODS, encoding="utf-8")
    env = pettingzoo.env(str(tmp_path / "moods.meeple"))
    env.reset(seed=0)
    enc = env.unwrapped.encoding
    start, size = enc.blocks["vars"]
    mine = env.observe("player_0")["observation"][start:start + size]
    theirs = env.observe("player_1")["observation"][start:start + size]
    # vars: done, then mood of seat 0 and seat 1 (calm is member 1; hidden is 0)
    assert mine.tolist() == [0.0, 1.0, 0.0] and theirs.tolist() == [0.0, 0.0, 1.0]


@pytest.mark.kernels
def test_the_kernel_plays_the_games_as_python_does(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL")
    if interpreter.kernel_status() is not None:
        pytest.skip(f"no kernel can be built here: {interpreter.kernel_status()}")
    fast, slow = pettingzoo.env(KUHN), pettingzoo.env(KUHN, native=False)
    rnd = np.random.default_rng(3)
    for seed in range(8):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        assert fast.unwrapped.game.live and not slow.unwrapped.game.program.kernel
        for agent in slow.agent_iter():
            assert fast.agent_selection == agent
            mine, theirs = fast.last(), slow.last()
            assert (mine[0]["observation"] == theirs[0]["observation"]).all()
            assert (mine[0]["action_mask"] == theirs[0]["action_mask"]).all() and mine[1:] == theirs[1:]
            action = None if theirs[2] or theirs[3] else int(rnd.choice(np.flatnonzero(theirs[0]["action_mask"])))
            fast.step(action)
            slow.step(action)
            # (each move played by the kernel: the views since read the Python game)
            assert action is None or fast.unwrapped.game.live
        assert fast.unwrapped.game.state == slow.unwrapped.game.state
    assert fast.unwrapped.played.native_fallbacks == 0

