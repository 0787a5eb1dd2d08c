"""Every ruleset is an OpenSpiel game (issue 15 §1), when OpenSpiel is installed (the
extra meeple[openspiel]; otherwise these tests say so and skip): the bundled rulesets are
registered as meeple_<name> and pass OpenSpiel's own random simulation test; chance
nodes carry exact probabilities; action ids are fixed; what a player observes comes from
its view and nothing else; OpenSpiel's algorithms run on the games: every state of
tic-tac-toe, MCTS, and CFR on Kuhn poker written as a ruleset (tests/testdata), which
converges to the game value computed here independently, -1/18."""
from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")

from meeple.dsl.load import bundled_names  # noqa: E402
from meeple.interpreter.play import views  # noqa: E402

from meeple import interpreter  # noqa: E402 - after the skip

# meeple.openspiel, imported by the first test (_registered): the import registers the
# bundled rulesets, loading them all (about 3 s with an empty disk cache, as a test run
# starts), which each pytest-xdist worker would spend collecting this file
openspiel = None

DATA = Path(__file__).resolve().parent / "testdata"
KUHN = str(DATA / "kuhn_poker.meeple")
TTT = str(DATA / "ttt")
T = pyspiel.GameType

ODDS = """ruleset odds
players 2..2
var shown: int per player = 0
var done: bool = false
turn {
  choose shown(p) from [1, 2] for each p in players as "show"
  done = true
}
end when done
score(p) = if (shown(players[0]) + shown(players[1])) % 2 == seat(p) % 2 then 1 else 0
"""


@pytest.fixture(autouse=True, scope="module")
def _registered():
    global openspiel
    import meeple.openspiel as openspiel


@pytest.fixture(autouse=True)
def _python_by_default(monkeypatch):
    # the games are played in Python here (no kernel to build for every ruleset): the
    # tests marked ``kernels`` play them by their kernels, against Python
    monkeypatch.setenv("MEEPLE_KERNEL", "0")


def _kernels_on(monkeypatch) -> None:
    monkeypatch.delenv("MEEPLE_KERNEL")
    if interpreter.kernel_status() is not None:
        pytest.skip(f"no kernel can be built here: {interpreter.kernel_status()}")


@pytest.fixture(params=[False, pytest.param(True, marks=pytest.mark.kernels)], ids=["python", "kernel"])
def kernels(request, monkeypatch):
    """Both ways: in Python, and by the kernels where they can be built here."""
    if request.param:
        _kernels_on(monkeypatch)
    return request.param


def kuhn():
    return openspiel.load(KUHN, returns="scores", score_bound=2)


def act(state, notation: str) -> None:
    """Plays a move (or chance outcome) of the state by its notation."""
    player = state.current_player()
    for a in state.legal_actions():
        if state.action_to_string(player, a) == notation:
            state.apply_action(a)
            return
    raise AssertionError(f"{notation!r} is not legal in\n{state}")


# ---------------------------------------------------------------- OpenSpiel's own checks

LONG = ("chess", "go", "backgammon")   # long games: OpenSpiel's test on them is in benchmarks/


@pytest.mark.parametrize("name", [n for n in bundled_names() if n not in LONG])
def test_every_bundled_ruleset_is_registered_and_passes_openspiel_random_simulation(name):
    game = pyspiel.load_game(f"meeple_{name.replace('-', '_')}")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", LONG)
def test_the_long_bundled_games_start_as_openspiel_games(name):
    """The start of a long game, checked as OpenSpiel's random simulation test checks
    a whole one (benchmarks/bench_rulesets_as_games.py plays them to the end)."""
    import random
    game = pyspiel.load_game(f"meeple_{name}")
    state, rnd = game.new_initial_state(), random.Random(0)
    for _ in range(30):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1)
        else:
            actions = state.legal_actions()
            assert actions == sorted(actions) and all(0 <= a < game.num_distinct_actions() for a in actions)
            assert len({state.action_to_string(a) for a in actions}) == len(actions)
            for seat in range(game.num_players()):
                state.information_state_string(seat), state.observation_tensor(seat)
        again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
        assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
        state.apply_action(rnd.choice(actions))


def test_get_all_states_walks_every_history_of_tic_tac_toe():
    from meeple.interpreter import load, perft
    from open_spiel.python.algorithms import get_all_states
    # a Meeple state keeps its log, so each history is a state of its own: as many as
    # Meeple's own count of move paths
    states = get_all_states.get_all_states(openspiel.load(TTT), depth_limit=3, include_terminals=True)
    start = load(TTT).new_game(2)
    assert len(states) == 1 + sum(perft(start, d) for d in (1, 2, 3)) == 586


def test_get_all_states_finds_every_kuhn_poker_deal_and_ending():
    from open_spiel.python.algorithms import get_all_states
    states = get_all_states.get_all_states(kuhn(), include_terminals=True, include_chance_states=True)
    finished = [s for s in states.values() if s.is_terminal()]
    assert len(finished) == 30        # 6 deals, 5 ways to end the betting
    assert {tuple(s.returns()) for s in finished} == {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)}
    assert sum(1 for s in states.values() if s.is_chance_node()) == 4   # the first card, then 3


def test_mcts_finds_the_winning_mark():
    import numpy as np
    from open_spiel.python.algorithms import mcts
    game = openspiel.load(TTT)
    state = game.new_initial_state()
    for notation in ("mark r1c1", "mark r2c1", "mark r1c2", "mark r2c2"):
        act(state, notation)
    bot = mcts.MCTSBot(game, 2, 200, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    assert state.action_to_string(0, bot.step(state)) == "mark r1c3"


# ---------------------------------------------------------------- the game type

def test_the_game_type_says_what_the_ruleset_is():
    kalah = pyspiel.load_game("meeple_kalah").get_type()
    assert (kalah.information, kalah.dynamics, kalah.chance_mode, kalah.utility) == (
        T.Information.PERFECT_INFORMATION, T.Dynamics.SEQUENTIAL,
        T.ChanceMode.DETERMINISTIC, T.Utility.ZERO_SUM)
    hearts = pyspiel.load_game("meeple_hearts").get_type()
    assert (hearts.information, hearts.dynamics, hearts.chance_mode, hearts.utility) == (
        T.Information.IMPERFECT_INFORMATION, T.Dynamics.SIMULTANEOUS,
        T.ChanceMode.EXPLICIT_STOCHASTIC, T.Utility.GENERAL_SUM)
    assert pyspiel.load_game("meeple_backgammon").get_type().chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    game = kuhn()
    assert game.get_type().information == T.Information.IMPERFECT_INFORMATION
    assert game.get_type().reward_model == T.RewardModel.TERMINAL
    assert (game.num_players(), game.min_utility(), game.max_utility()) == (2, -2, 2)


def test_scores_as_returns_make_any_game_zero_sum():
    four = pyspiel.load_game("meeple_hearts(returns=scores)")
    assert four.get_type().utility == T.Utility.ZERO_SUM
    assert pyspiel.load_game("meeple_hearts").get_type().utility == T.Utility.GENERAL_SUM


def test_parameters_choose_players_variants_and_locale():
    game = pyspiel.load_game("meeple_cherokee(players=3,variants=open_clans,locale=de)")
    assert game.num_players() == 3
    assert game.program.variants == ["open_clans"] and game.program.locale == "de"
    assert game.get_type().information == T.Information.IMPERFECT_INFORMATION


# ---------------------------------------------------------------- chance and actions

def test_chance_nodes_list_their_outcomes_with_exact_probabilities():
    state = kuhn().new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [p for _, p in outcomes] == [1 / 3] * 3
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes] == ["1", "2", "3"]
    state.apply_action(outcomes[0][0])
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]


def test_an_action_id_names_the_same_move_in_every_game():
    game = pyspiel.load_game("meeple_kalah")
    space = game.space
    first = game.new_initial_state()
    ids = {first.action_to_string(a): a for a in first.legal_actions()}
    assert space.label(ids["sow a1"]) == "a1"      # the id of the cell a1
    assert ids["sow a1"] - space.offsets["zone"] == next(
        z.id for z in game.program.zones if z.key.endswith(":a1"))
    later = game.new_initial_state()
    act(later, "sow a2")
    act(later, "sow b2")
    assert {later.action_to_string(a): a for a in later.legal_actions()}["sow a1"] == ids["sow a1"]
    assert game.num_distinct_actions() == space.size


def test_moves_of_a_type_that_cannot_be_enumerated_take_ordinal_ids():
    state = pyspiel.load_game("meeple_chess").new_initial_state()
    space = state.get_game().space
    legal = state.legal_actions()
    assert legal == list(range(space.ordinal, space.ordinal + 20))
    assert state.action_to_string(0, legal[0]) == "move a2-a3"
    assert space.label(legal[0]) == "move #0"


def test_cards_in_a_hand_take_their_item_ids():
    import random
    game = pyspiel.load_game("meeple_hearts")
    state, rnd = game.new_initial_state(), random.Random(0)
    while state.is_chance_node():   # a random deal (they pass cards)
        state.apply_action(rnd.choice(state.chance_outcomes())[0])
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    for seat in range(4):
        for a in state.legal_actions(seat):
            card = a - game.space.offsets["item"]
            assert state.action_to_string(seat, a) == "pass " + game.program.items[card].notation


def test_a_simultaneous_decision_is_one_simultaneous_node(tmp_path):
    (tmp_path / "odds.meeple").write_text(ODDS, encoding="utf-8")
    game = openspiel.load(str(tmp_path / "odds.meeple"))
    assert game.get_type().dynamics == T.Dynamics.SIMULTANEOUS
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    one, two = state.legal_actions(0)
    assert [state.action_to_string(0, a) for a in (one, two)] == ["show 1", "show 2"]
    state.apply_actions([two, one])      # 2 + 1 is odd: p1 (seat(p1) == 1) wins
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert "> show 2" in state.information_state_string(0)
    assert "> show 2" not in state.information_state_string(1)


# ---------------------------------------------------------------- what a player observes

def deal(first: str, second: str):
    state = kuhn().new_initial_state()
    act(state, first)
    act(state, second)
    return state


def test_strings_are_drawn_from_the_view_and_leak_nothing(kernels):
    a, b = deal("1", "2"), deal("1", "3")
    assert a.game.program.kernel == kernels
    # seat 0 holds the same card: its view, so its strings, are the same
    assert json.dumps(views.view(a.game, 0)) == json.dumps(views.view(b.game, 0))
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    # seat 1 does not: its strings differ, and name its own card only
    assert a.information_state_string(1) != b.information_state_string(1)
    act(a, "act 1")
    act(b, "act 1")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(1) == openspiel.observation(a.game, 1)


def test_kuhn_poker_has_six_information_sets_per_seat():
    from open_spiel.python.algorithms import get_all_states
    states = get_all_states.get_all_states(kuhn(), include_terminals=False, include_chance_states=False)
    infos = {(s.current_player(), s.information_state_string()) for s in states.values()}
    assert len(infos) == 12
    assert sum(1 for seat, _ in infos if seat == 0) == 6


def test_a_serialized_state_comes_back_the_same(kernels):
    game = kuhn()
    state = deal("3", "1")
    act(state, "act 0")
    assert state.game.program.kernel == kernels
    text = pyspiel.serialize_game_and_state(game, state)
    again = pyspiel.deserialize_game_and_state(text)[1]
    assert again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    assert again.legal_actions() == state.legal_actions()
    clone = state.clone()
    act(clone, "act 1")
    assert state.legal_actions() == again.legal_actions() and len(clone.history()) == 4


# ---------------------------------------------------------------- CFR on Kuhn poker

def equilibrium_value() -> Fraction:
    """The first seat's value of Kuhn poker, exactly, playing the known equilibrium (with
    alpha = 0) in Meeple's own game tree: each seat decides from its view only."""
    bet = {  # (seat, acts so far) -> card -> probability of 1 (bet or call)
        (0, ()): {1: 0, 2: 0, 3: 0},
        (1, (0,)): {1: Fraction(1, 3), 2: 0, 3: 1},
        (1, (1,)): {1: 0, 2: Fraction(1, 3), 3: 1},
        (0, (0, 1)): {1: 0, 2: Fraction(1, 3), 3: 1}}

    def value(game) -> Fraction:
        if game.over:
            return Fraction(game.result["scores"][0])
        if game.at_chance:
            return sum(o.probability * value(_after(game, o, chance=True)) for o in game.chance_outcomes())
        seat = game.active_player
        seen = views.view(game, seat)
        card = seen["zones"][f"hand:{seat}"][0]
        p = bet[(seat, tuple(seen["vars"]["acts"]))][game.program.items[card].attrs["value"]]
        moves = {m.notation: m for m in game.legal_moves()}
        return p * value(_after(game, moves["act 1"])) + (1 - p) * value(_after(game, moves["act 0"]))

    from meeple import interpreter
    return value(interpreter.load(KUHN).new_game(2, chance="explicit"))


def _after(game, move, chance: bool = False):
    child = game.copy()
    child.apply_chance(move.index) if chance else child.apply(move)
    return child


def test_cfr_converges_on_kuhn_poker_to_its_value():
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
    assert equilibrium_value() == Fraction(-1, 18)
    game = kuhn()
    solver = cfr.CFRSolver(game)
    gaps = []
    for i in range(1, 61):
        solver.evaluate_and_update_policy()
        if i in (1, 5, 20, 60):
            gaps.append(exploitability.exploitability(game, solver.average_policy()))
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < 0.02 < gaps[0]
    value = expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=0.01)
    assert value[0] + value[1] == pytest.approx(0)


# ---------------------------------------------------------------- played by the kernel

def _lockstep(fast, slow, seed: int) -> int:
    """A random game through pyspiel's API on both games, every answer compared; the
    game played by the kernel stays live until something reads its Python game."""
    rnd = random.Random(seed)
    a, b = fast.new_initial_state(), slow.new_initial_state()
    steps = 0
    while not b.is_terminal():
        assert a.current_player() == b.current_player() and not a.is_terminal()
        if b.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes()
            act = rnd.choice(b.chance_outcomes())[0]
            assert a.action_to_string(act) == b.action_to_string(act)
            a.apply_action(act)
            b.apply_action(act)
        elif b.is_simultaneous_node():
            acts = [rnd.choice(b.legal_actions(p)) for p in range(fast.num_players())]
            assert [a.legal_actions(p) for p in range(fast.num_players())] == \
                [b.legal_actions(p) for p in range(fast.num_players())]
            a.apply_actions(acts)
            b.apply_actions(acts)
        else:
            assert a.legal_actions() == b.legal_actions()
            act = rnd.choice(b.legal_actions())
            assert a.action_to_string(act) == b.action_to_string(act)
            a.apply_action(act)
            b.apply_action(act)
        steps += 1
        assert a.game.live and not getattr(b.game, "live", False), steps   # (played by the kernel)
        if steps % 3 == 0:   # (a clone, and the strings: these read the Python game)
            assert a.clone().history() == b.clone().history()
            for p in range(fast.num_players()):
                assert a.information_state_string(p) == b.information_state_string(p)
                assert a.observation_string(p) == b.observation_string(p)
                assert a.observation_tensor(p) == b.observation_tensor(p)
    assert a.is_terminal() and a.returns() == b.returns() and a.history() == b.history()
    text = pyspiel.serialize_game_and_state(fast, a)
    again = pyspiel.deserialize_game_and_state(text)[1]
    assert again.information_state_string(0) == b.information_state_string(0)
    return steps


@pytest.mark.kernels
@pytest.mark.parametrize("which", ["kuhn", "odds"])
def test_the_kernel_plays_the_states_as_python_does(which, tmp_path, monkeypatch):
    _kernels_on(monkeypatch)
    path = KUHN
    if which == "odds":
        path = str(tmp_path / "odds.meeple")
        Path(path).write_text(ODDS, encoding="utf-8")
    fast, slow = openspiel.load(path), openspiel.load(path, native=False)
    assert fast.new_initial_state().game.program.kernel and not slow.new_initial_state().game.program.kernel
    steps = sum(_lockstep(fast, slow, seed) for seed in range(6))
    assert steps >= 6
    assert fast.played.native_fallbacks == 0



def _random_play(state, rnd, seats: int) -> None:
    """One random step of a state through pyspiel's API (as benchmarks/ play them)."""
    if state.is_chance_node():
        outs, probs = zip(*state.chance_outcomes())
        state.apply_action(rnd.choices(outs, probs)[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rnd.choice(state.legal_actions(p)) for p in range(seats)])
    else:
        state.apply_action(rnd.choice(state.legal_actions()))


@pytest.mark.kernels
def test_hearts_through_pyspiel_is_the_same_game_by_the_kernel_without_moves_made(monkeypatch):
    # chance steps, decisions among the cards of a hand (ids of items) and passes (one
    # simultaneous node): the kernel answers from its options' values, makes no Move
    _kernels_on(monkeypatch)
    from meeple.interpreter.native.kgame import KernelGame

    def no_moves(game, seat=None):
        raise AssertionError("a list of Moves was made while the kernel plays")
    fast, slow = openspiel.load("hearts"), openspiel.load("hearts", native=False)
    simultaneous = 0
    for seed in range(2):
        a, b = fast.new_initial_state(), slow.new_initial_state()
        ra, rb = random.Random(seed), random.Random(seed)
        with monkeypatch.context() as m:
            m.setattr(KernelGame, "legal_moves", no_moves)
            while not b.is_terminal():
                assert a.current_player() == b.current_player() and not a.is_terminal()
                if b.is_chance_node():
                    assert a.chance_outcomes() == b.chance_outcomes()
                else:
                    seats = range(4) if b.is_simultaneous_node() else [b.current_player()]
                    simultaneous += b.is_simultaneous_node()
                    assert [a.legal_actions(p) for p in seats] == [b.legal_actions(p) for p in seats]
                _random_play(a, ra, 4)
                _random_play(b, rb, 4)
                assert a.game.live
            assert a.is_terminal() and a.returns() == b.returns() and a.history() == b.history()
        # (the strings, in Python, read the seats' own moves)
        assert [a.information_state_string(p) for p in range(4)] == \
            [b.information_state_string(p) for p in range(4)]
    assert simultaneous > 0
    assert fast.played.native_fallbacks == 0


@pytest.mark.kernels
@pytest.mark.parametrize("seed", [0, 1])
def test_actions_taken_from_python_need_no_round_trip_and_pyspiel_records_them(seed, monkeypatch):
    # A state's apply_action and apply_actions, called from Python, take the action
    # without pyspiel asking the state back (current_player, _apply_action); pyspiel's
    # own record (history, move number, serialization, a child made in C++) is the one
    # of a twin whose every action went through pyspiel's C++, read at any time.
    _kernels_on(monkeypatch)
    game = openspiel.load("hearts")
    cls = type(game.new_initial_state())
    asked = []

    def counting(name: str):
        base = getattr(cls, name)

        def counted(self, *args):
            asked.append(name)
            return base(self, *args)
        return counted
    for name in ("current_player", "_apply_action", "_apply_actions"):
        monkeypatch.setattr(cls, name, counting(name))
    a, b = game.new_initial_state(), game.new_initial_state()
    rnd = random.Random(seed)
    steps = 0
    while not b.is_terminal():
        if b.is_chance_node():
            outs, probs = zip(*b.chance_outcomes())
            act = rnd.choices(outs, probs)[0]
            a.apply_action(act)
            pyspiel.State.apply_action(b, act)
        elif b.is_simultaneous_node():
            acts = [rnd.choice(b.legal_actions(p)) for p in range(4)]
            a.apply_actions(acts)
            pyspiel.State.apply_actions(b, acts)
        else:
            act = rnd.choice(b.legal_actions())
            a.apply_action(act)
            pyspiel.State.apply_action(b, act)
        steps += 1
        assert a.move_number() == b.move_number() == steps
        if rnd.random() < 0.1:   # (pyspiel's record read: the actions taken are in it)
            if b.is_player_node():
                act = b.legal_actions()[0]
                assert a.child(act).history() == b.child(act).history() == b.history() + [act]
            assert a.history() == pyspiel.State.history(a) == b.history()
            assert a.history_str() == b.history_str() and not a.is_initial_state()
        elif rnd.random() < 0.1:   # (the record written with a state, and read back)
            again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, a))[1]
            assert again.history() == b.history() and again.move_number() == steps
            assert again.legal_actions() == b.legal_actions()
    asked.clear()
    fast = game.new_initial_state()
    for act in b.history()[:60]:   # (the deal, then the passes if any: from Python)
        if fast.is_simultaneous_node():
            break
        fast.apply_action(act)
    assert asked == []
    assert [(h.player, h.action) for h in a.full_history()] == [(h.player, h.action) for h in b.full_history()]
    assert a.serialize() == b.serialize() and a.returns() == b.returns()


@pytest.mark.parametrize("which", ["hearts", "odds", "kuhn"])
def test_pyspiel_answers_given_in_python_are_pyspiels_own(which, tmp_path):
    # (legal_actions and the node tests are answered in Python, for a caller in Python:
    # the same answers as pyspiel's own, which a caller in C++ gets)
    path = {"hearts": "hearts", "kuhn": KUHN}.get(which)
    if path is None:
        path = str(tmp_path / "odds.meeple")
        Path(path).write_text(ODDS, encoding="utf-8")
    game = openspiel.load(path)
    n = game.num_players()
    kinds = set()
    for seed in range(3):
        state, rnd = game.new_initial_state(), random.Random(seed)
        while True:
            for ask in ("is_chance_node", "is_simultaneous_node", "is_player_node", "is_terminal"):
                assert getattr(state, ask)() == getattr(pyspiel.State, ask)(state)
            kinds.add(state.current_player() if state.current_player() < 0 else "seat")
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for p in range(-5, n + 1):
                try:
                    ours = state.legal_actions(p)
                except pyspiel.SpielError as e:
                    ours = str(e)
                try:
                    theirs = pyspiel.State.legal_actions(state, p)
                except pyspiel.SpielError as e:
                    theirs = str(e)
                assert ours == theirs, (p, state.current_player())
            if state.is_terminal():
                break
            _random_play(state, rnd, n)
    assert kinds == {"hearts": {"seat", -1, -2, -4}, "odds": {-2, -4}, "kuhn": {"seat", -1, -4}}[which]


# ---------------------------------------------------------------- information states of bounded size

def _random_play(state, rng, steps: int, on_step=None) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if on_step:
            on_step(state)


def test_an_information_state_is_the_first_view_then_what_changed():
    # (issue 37 item 11: a crazy-eights seat's string had reached 160,117 characters at
    # step 133, every distinct view written whole): the first view, then each own move
    # and the edits that make each next view; read back, the very views the seat had
    game = openspiel.load("hearts")
    state = game.new_initial_state()
    had: list[list] = [[("view", json.loads(state.observation_string(p)))] for p in range(4)]

    def note(s):
        for p in range(4):
            view = json.loads(s.observation_string(p))
            if view != had[p][-1][1]:
                had[p].append(("view", view))

    moves = []
    _random_play(state, random.Random(4), 100, note)
    for p in range(4):
        text = state.information_state_string(p)
        read = openspiel.read_information_state(text)
        assert [v for kind, v in read if kind == "view"] == [v for _, v in had[p]]
        assert read[-1] == ("view", json.loads(state.observation_string(p)))
        whole = sum(len(json.dumps(v, sort_keys=True, separators=(",", ":"))) for _, v in had[p])
        assert len(text) < whole / 3, (len(text), whole)   # (about 1/3.4 after 100 steps)
        moves.append([m for kind, m in read if kind == "move"])
    # a seat's own moves only, in order
    assert all(moves) and not set(moves[0]) & set(moves[1])


def test_view_edits_write_only_what_changed_and_read_back_exactly():
    old = {"log": ["a", "b", "c"], "zones": {"pile": [1, 2], "hand": {"count": 3}}, "x": 1, "y": True}
    new = {"log": ["b", "c", "d"], "zones": {"pile": [1, 2, 5], "hand": {"count": 2}}, "x": 1.0, "z": None}
    text = openspiel.view_delta(json.dumps(old), json.dumps(new))
    assert json.loads(text) == [["-", ["y"]], ["+", ["log"], 1, ["d"]], ["=", ["x"], 1.0],
                                ["=", ["z"], None], ["=", ["zones", "hand", "count"], 2],
                                ["+", ["zones", "pile"], 0, [5]]]
    both = json.dumps(old, sort_keys=True, separators=(",", ":")) + "\n> go\n" + text
    assert openspiel.read_information_state(both) == [("view", old), ("move", "go"), ("view", new)]
    # (1.0 and true are written apart from 1: the edits say so)
    assert json.dumps(openspiel.read_information_state(both)[-1][1]["x"]) == "1.0"


def test_two_seats_still_tell_apart_exactly_what_they_did_before():
    # the strings split the histories as the whole views did: Kuhn poker's 12 sets
    # (test_kuhn_poker_has_six_information_sets_per_seat), and deals a seat cannot tell apart
    a, b = deal("1", "2"), deal("1", "3")
    for s in (a, b):
        act(s, "act 0")
        act(s, "act 1")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.information_state_string(0).split("\n")[-1].startswith("[[")   # (edits, not a view)
