"""Random playouts (interpreter.playouts): whole games of random moves played by the
kernel in one call are the games the Python reference plays move by move, game by game
(result, length, kinds of moves), from the start and from a position; a game the kernel
cannot finish is Python's; ``meeple simulate --native`` with random bots plays them so."""
from __future__ import annotations

import json
import multiprocessing
import random
import re
from array import array
from pathlib import Path

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import plain_games as plain
from meeple.cli.main import app
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.analysis import parallel, playouts as playouts_module, simulation, stats
from typer.testing import CliRunner

from meeple import interpreter

pytestmark = pytest.mark.kernels

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "tests" / "testdata" / "ttt")


def programs(ruleset, players: int, variants=()):
    """The program a kernel plays, and the Python one."""
    rules = interpreter.load(ruleset, variants)
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel
    return fast, interpreter.load(ruleset, variants).for_players(players)


@needs_kernel
@pytest.mark.parametrize("ruleset,players,variants", [
    (TTT, 2, ()), ("kalah", 2, ()), ("dots-and-boxes", 2, ("small",)), ("backgammon", 2, ()),
    ("hearts", 4, ()), ("cherokee", 3, ())], ids=["ttt", "kalah", "dots", "backgammon", "hearts", "cherokee"])
def test_kernel_playouts_are_the_reference_s_games_one_by_one(ruleset, players, variants, monkeypatch):
    fast, python = programs(ruleset, players, variants)
    want = interpreter.playouts(python, 3, seed=11)
    assert len({(g["moves"], json.dumps(g["result"], sort_keys=True)) for g in want}) > 1   # (not all alike)
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, 3, seed=11)
    assert plain(got) == plain(want)
    assert [list(g["kinds"]) for g in got] == [list(g["kinds"]) for g in want]   # (in the same order)
    assert fast.native_fallbacks == 0


@needs_kernel
@pytest.mark.parametrize("lanes", ["as the processor has them", pytest.param("without AVX-512", marks=pytest.mark.slow),
                                   pytest.param("without AVX2", marks=pytest.mark.slow)])
def test_many_kernel_games_are_the_reference_s_and_their_results_their_own(lanes, monkeypatch):
    # (games in several groups whose seats' generators the kernel seeds together, a
    # negative seed; games with equal results get results of their own.) The seeds'
    # BLAKE2s takes AVX-512's lanes for a group of more than 8, else AVX2's: built
    # with -DMK_NO_AVX512 the kernel takes AVX2 at most, with -DMK_NO_AVX2 the other
    # way (SSE2, NEON or plain), and with -DMK_NO_POPCNT counts of bits (won(p),
    # cxx/kernel_zones.hpp) without POPCNT; each must give the very same words
    flags = {"without AVX-512": "-DMK_NO_AVX512", "without AVX2": "-DMK_NO_AVX2 -DMK_NO_POPCNT"}.get(lanes)
    if flags:   # (one lone build: no precompiled runtime made for it)
        monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", "-O0 " + flags)
        monkeypatch.setenv("MEEPLE_KERNEL_PCH", "0")
    fast, python = programs(TTT, 2)
    # (groups of 64 games, 128 generators: 8 vectors of 16 lanes; then 30 games, 4
    # vectors; a call of 10 games, 2 vectors, and of 3 games, one of 8 lanes)
    want = interpreter.playouts(python, 94, seed=-7)
    few = [interpreter.playouts(python, n, seed=5) for n in (10, 3)]
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)
        got = interpreter.playouts(fast, 94, seed=-7)
        assert [plain(interpreter.playouts(fast, n, seed=5)) for n in (10, 3)] == [plain(g) for g in few]
    assert plain(got) == plain(want)
    alike = [g for g in got if g["result"] == got[0]["result"]]
    assert len(alike) > 1
    alike[0]["result"]["scores"].append(99)
    alike[0]["result"]["ranking"][0].append(99)     # (a list in a list: a copy of its own too)
    alike[0]["result"]["tiebreaks"]["x"] = 1
    assert alike[1]["result"] == want[got.index(alike[1])]["result"]
    assert [list(g) for g in got] == [list(g) for g in want]   # (each game's keys in the same order)


def test_the_reference_plays_the_games_of_simulate_with_random_bots():
    python = interpreter.load("kalah").for_players(2)
    specs = simulation.specs(2, lambda i: ["random", "random"], 3, seed=5)
    games = interpreter.playouts(python, 3, seed=5)
    for spec, game in zip(specs, games):
        summary = simulation.play_game(python, spec)
        assert summary["result"] == game["result"] and summary["moves"] == game["moves"]
        assert summary["balance"]["kinds"] == game["kinds"] and summary["turns"] == game["turns"]


@needs_kernel
@pytest.mark.parametrize("ruleset", ["kalah", "backgammon"])
def test_playouts_from_a_position_are_the_reference_s(ruleset, monkeypatch):
    fast, python = programs(ruleset, 2)
    game = fast.new_game(2, seed=3)
    rnd = random.Random(3)
    for _ in range(6):
        game.apply(rnd.randrange(game.move_count()))
    state = game.state    # (the game is then a Python game: the kernel takes it over again)
    before = json.dumps(state, sort_keys=True)
    want = interpreter.playouts(python, 3, seed=2, start=state)
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        from_game = interpreter.playouts(fast, 3, seed=2, start=game)
        assert game.live
        from_state = interpreter.playouts(fast, 3, seed=2, start=state)
    assert plain(from_game) == plain(want) == plain(from_state)
    assert json.dumps(game.state, sort_keys=True) == before == json.dumps(state, sort_keys=True)
    assert all(g["turns"] >= game.turn_number for g in want)
    assert len({g["moves"] for g in want}) > 1   # (each game draws its own chance and moves)


@needs_kernel
def test_playouts_from_a_chance_step_draw_it_as_sample_chance():
    fast, python = programs("backgammon", 2)
    want_game = python.new_game(2, seed=4, chance="explicit")
    game = fast.new_game(2, seed=4, chance="explicit")
    assert game.at_chance and want_game.at_chance
    want = interpreter.playouts(python, 2, seed=9, start=want_game)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, 2, seed=9, start=game)
    assert plain(got) == plain(want) and fast.native_fallbacks == 0
    assert all(g["result"] is not None for g in got)


BOOM = """ruleset boom
players 2..2
var n: int = 0
turn {
  choose k from [1, 2, 3] as "pick"
  n = n + k
  if n > 9 { n = 100 / (n - n) }
}
end when n > 50
"""


@needs_kernel
def test_a_game_the_kernel_cannot_finish_is_python_s():
    src = SourceSet(base=parse(BOOM, "rules.meeple"), sources={"rules.meeple": BOOM})
    rules = compile_sources(src)
    assert rules.use_native(report=False)
    fast = rules.for_players(2)
    python = compile_sources(src).for_players(2)
    got, want = interpreter.playouts(fast, 3, seed=1), interpreter.playouts(python, 3, seed=1)
    assert plain(got) == plain(want)
    assert all("division by zero" in g["error"][1] for g in plain(got))
    assert fast.native_fallbacks == 3
    # stopped after max_moves: the same error, the same moves
    got = interpreter.playouts(fast, 2, seed=1, max_moves=2)
    assert plain(got) == plain(interpreter.playouts(python, 2, seed=1, max_moves=2))
    assert "did not end after 2 moves" in plain(got)[0]["error"][1]


SETUP_BOOM = """ruleset setup_boom
players 2..2
var n: int = 0
turn {
  n = 10 / n
  choose k from [1, 2] as "pick"
}
end when n > 5
"""


def test_a_game_whose_rules_fail_before_its_first_decision_has_that_error():
    # (as every other game's error: in the game's summary, as `meeple simulate` reports it;
    # the kernel hands such a game to this same Python loop)
    src = SourceSet(base=parse(SETUP_BOOM, "rules.meeple"), sources={"rules.meeple": SETUP_BOOM})
    got = plain(interpreter.playouts(compile_sources(src).for_players(2), 2, seed=4))
    assert [g["seed"] for g in got] == [4, 5]
    for g in got:
        assert g["error"][0] == "RuleError" and "division by zero" in g["error"][1], g
        assert g["result"] is None and g["moves"] == 0


@needs_kernel
def test_simulate_native_with_random_bots_plays_the_games_in_the_kernel(monkeypatch):
    calls = []
    batch = playouts_module.run_compact

    def counted(program, seed, first, count, *args):
        calls.append(count)
        return batch(program, seed, first, count, *args)
    programs("kalah", 2)     # (the kernel built first: no message of its build in the output)
    runner = CliRunner()
    base = ["simulate", "kalah", "-n", "4", "--seed", "3", "-j", "1", "--json", "-q"]
    python = runner.invoke(app, [*base, "--no-native"])
    monkeypatch.setattr(playouts_module, "run_compact", counted)
    monkeypatch.setattr(playouts_module, "play_batch", None)   # (no dict per game)
    monkeypatch.setattr(simulation, "make_bot", None)   # (no bot is made: no move by move)
    native = runner.invoke(app, [*base, "--native"])
    assert python.exit_code == native.exit_code == 0, native.output
    assert calls == [4]    # (in one call, not one a game)

    def figures(out: str) -> dict:
        doc = json.loads(out)
        return {k: v for k, v in doc.items() if k not in ("seconds", "games_per_second")}
    assert figures(native.output) == figures(python.output)


@needs_kernel
def test_the_kernel_plays_the_same_games_whatever_jobs_and_however_the_workers_start(monkeypatch):
    # enough games that each worker gets them in shares (simulation.SHARE), the shares
    # played in one call each; the same summaries as game by game, in order
    fast, _ = programs("kalah", 2)
    plan = simulation.specs(2, lambda i: ("random", "random"), 40, seed=9)
    want = plain([simulation.play_game(fast, g) for g in plan])
    assert len({json.dumps(g["result"], sort_keys=True) for g in want}) > 1    # (not all alike)
    assert plain(list(simulation.play_games(fast, plan, jobs=1))) == want
    for start in ("fork", "spawn"):
        if start in multiprocessing.get_all_start_methods():
            monkeypatch.setattr(parallel, "START", start)
            assert plain(list(simulation.play_games(fast, plan, jobs=2))) == want, start


@pytest.mark.parametrize("arguments, error, says", [
    (dict(games=-1), ValueError, "games must be 0 or more"),
    (dict(games="3"), TypeError, "games must be an integer, not str"),
    (dict(games=2, seed=1.5), TypeError, "seed must be an integer, not float"),
    (dict(games=2, max_moves=0), ValueError, "max_moves must be 1 or more"),
    (dict(games=2, start="x"), TypeError, "start must be None, a Game or a state"),
])
def test_bad_arguments_get_an_error_that_names_them(arguments, error, says):
    with pytest.raises(error, match=re.escape(says)):
        interpreter.playouts(interpreter.load("kalah"), **arguments)


def numbers(games: list[dict], players: int) -> dict:
    """The numbers of the games' dicts, laid out as ``Compact`` lays them out."""
    done = [g for g in games if g["error"] is None]
    paid = any("payoffs" in g["result"] for g in done)
    return {"moves": [g["moves"] for g in games], "turns": [g["turns"] for g in games],
            "first": [-1 if g["first"] is None else g["first"] for g in games],
            "results": [g["result"] for g in games],
            "errors": {i: (type(g["error"]).__name__, str(g["error"]))
                       for i, g in enumerate(games) if g["error"] is not None},
            "scores": [s for g in games for s in (g["result"]["scores"] if g["result"] else [0] * players)],
            "payoffs": [s for g in games for s in (g["result"]["payoffs"] if g["result"] else [0] * players)]
            if paid else None,
            "per": next((g["result"].get("payoffs_per", 1) for g in done), 1),
            "kinds": {k: [s for g in games for s in g["kinds"].get(k, [0] * players)]
                      for k in {k for g in games for k in g["kinds"]}}}


def compact_numbers(got) -> dict:
    return {"moves": list(got.moves), "turns": list(got.turns), "first": list(got.first),
            "results": [got.result(i) for i in range(len(got))],
            "errors": {i: (type(e).__name__, str(e)) for i, e in got.errors.items()},
            "scores": list(got.scores), "payoffs": None if got.payoffs is None else list(got.payoffs),
            "per": got.payoffs_per, "kinds": {k: list(v) for k, v in got.kinds.items()}}


BOUND = 40


@needs_kernel
@pytest.mark.parametrize("ruleset,players,games,max_moves", [
    (TTT, 2, 40, 100_000), ("kalah", 2, 12, 100_000), ("hearts", 4, 3, 100_000),
    ("backgammon", 2, 3, 100_000), (str(ROOT / "tests" / "testdata" / "tiny_bridge"), 2, 12, 100_000),
    ("kalah", 2, 12, BOUND), ("cherokee", 3, 6, 100_000)],
    ids=["ttt", "kalah", "hearts", "backgammon", "payoffs per 6", "bound", "cherokee"])
def test_the_compact_form_has_the_numbers_of_the_dicts(ruleset, players, games, max_moves, monkeypatch):
    fast, python = programs(ruleset, players)
    want = numbers(interpreter.playouts(python, games, seed=3, max_moves=max_moves), players)
    assert len({(m, json.dumps(r, sort_keys=True)) for m, r in zip(want["moves"], want["results"])}) > 1
    assert (0 < len(want["errors"]) < games) == (max_moves == BOUND)   # (some games end by the bound)
    with monkeypatch.context() as m:
        if max_moves != BOUND:
            m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, games, seed=3, max_moves=max_moves, compact=True)
    assert isinstance(got.moves, array) and compact_numbers(got) == want
    assert compact_numbers(interpreter.playouts(python, games, seed=3, max_moves=max_moves, compact=True)) == want
    counts = got.outcome_counts()
    finished = [g for g in want["results"] if g is not None]
    for name, seats in counts.items():
        assert seats == [sum(r["outcomes"][p] == name for r in finished) for p in range(players)]
    assert sum(sum(s) for s in counts.values()) == players * len(finished)
    if ruleset.endswith("tiny_bridge"):
        assert got.payoffs_per == 6 and got.payoffs is not None


@needs_kernel
def test_the_compact_form_of_games_the_kernel_cannot_finish_is_python_s():
    src = SourceSet(base=parse(BOOM, "rules.meeple"), sources={"rules.meeple": BOOM})
    rules = compile_sources(src)
    assert rules.use_native(report=False)
    fast, python = rules.for_players(2), compile_sources(src).for_players(2)
    got = interpreter.playouts(fast, 3, seed=1, compact=True)
    assert compact_numbers(got) == numbers(interpreter.playouts(python, 3, seed=1), 2)
    assert sorted(got.errors) == [0, 1, 2] and list(got.result_of) == [-1, -1, -1]


@needs_kernel
def test_the_compact_form_from_a_position_has_the_numbers_of_the_dicts(monkeypatch):
    fast, python = programs("backgammon", 2)
    game = fast.new_game(2, seed=3)
    rnd = random.Random(3)
    for _ in range(6):
        game.apply(rnd.randrange(game.move_count()))
    want = numbers(interpreter.playouts(python, 4, seed=2, start=game.state), 2)
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, 4, seed=2, start=game, compact=True)
    assert compact_numbers(got) == want and len(set(want["moves"])) > 1


@needs_kernel
def test_the_compact_form_adds_up_the_decisions_of_a_kind_of_move(monkeypatch):
    # (Cherokee asks "tie" at two places of its rules: the kernel counts the moves of each
    # decision, the batch gives them per kind, as the dicts do; a kind no game made a
    # move of has no column)
    fast, python = programs("cherokee", 3)
    names = playouts_module._kind_names(fast._kernel)
    assert names.count("tie") == 2
    dicts = interpreter.playouts(python, 8, seed=5)
    with monkeypatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, 8, seed=5, compact=True)
    assert compact_numbers(got)["kinds"] == numbers(dicts, 3)["kinds"]
    assert sum(got.kinds["tie"]) == sum(sum(g["kinds"].get("tie", [0])) for g in dicts) > 0
    assert all(len(col) == 8 * 3 and col.count(0) < len(col) for col in got.kinds.values())
    assert set(got.kinds) == {k for g in dicts for k in g["kinds"]}


def simulate_runs(arguments: list[str], monkeypatch, jobs: str = "1") -> dict:
    """``meeple simulate`` of ``arguments`` three ways: on the kernel in compact batches,
    on the kernel a dict per game (as before the batches), and in Python (--no-native);
    for each its --json document (without the times) and its text (without the speed)."""
    runner = CliRunner()
    calls: list = []
    run = playouts_module.run_compact

    def counted(program, seed, first, count, *more):
        calls.append(count)
        return run(program, seed, first, count, *more)
    out = {}
    for way in ("compact", "dicts", "python"):
        with monkeypatch.context() as m:
            m.setattr(playouts_module, "run_compact", counted)
            if way == "dicts":
                m.setattr(simulation, "random_in_kernel", lambda *a: None)
            engine = "--no-native" if way == "python" else "--native"
            base = ["simulate", *arguments, "-j", jobs, "-q", engine]
            doc, text = runner.invoke(app, [*base, "--json"]), runner.invoke(app, base)
        assert doc.exit_code == text.exit_code, (way, doc.output, text.output)
        figures = json.loads(doc.stdout)
        for k in ("seconds", "games_per_second"):
            figures.pop(k, None)
        out[way] = (doc.exit_code, figures, re.sub(r"games per second.*", "", text.output), len(calls))
        calls.clear()
    return out


@needs_kernel
@pytest.mark.parametrize("arguments", [
    [TTT, "-n", "300", "--seed", "4"], ["kalah", "-n", "60"], ["hearts", "-n", "12", "-p", "4"],
    ["cherokee", "-n", "40", "-p", "3", "--seed", "2"], ["backgammon", "-n", "6"],
    [str(ROOT / "tests" / "testdata" / "tiny_bridge"), "-n", "40"],
    ["clans-and-glory", "-n", "20", "-p", "4"],
    [str(ROOT / "tests" / "testdata" / "two_dice.meeple"), "-n", "30", "-p", "1"]],
    ids=["ttt", "kalah", "hearts", "cherokee", "backgammon", "payoffs per 6", "clans", "no decision"])
def test_simulate_in_compact_batches_says_what_it_said_a_dict_per_game(arguments, monkeypatch):
    players = int(arguments[arguments.index("-p") + 1]) if "-p" in arguments else 2
    programs(arguments[0], players)   # (the kernel built first: no message of its build in the output)
    runs = simulate_runs(arguments, monkeypatch)
    assert runs["compact"][3] >= 1 and runs["dicts"][3] == runs["python"][3] == 0   # (the way each took)
    assert runs["compact"][:3] == runs["dicts"][:3] == runs["python"][:3]
    code, figures, text, _ = runs["compact"]
    assert code == 0 and figures["balance"]["games"] == figures["games"]
    assert bool(figures["balance"]["kinds"]) == (figures["moves"] > 0)
    assert "total moves" in text and str(figures["moves"]) in text


@needs_kernel
def test_simulate_in_compact_batches_on_two_workers_says_the_same(monkeypatch):
    # (more games than a share: several batches, each on a worker, in order)
    programs("kalah", 2)
    monkeypatch.setattr(simulation, "COMPACT_SHARE", 16)
    monkeypatch.setattr(parallel, "START", "fork" if "fork" in multiprocessing.get_all_start_methods()
                        else "spawn")
    runs = simulate_runs(["kalah", "-n", "150", "--seed", "7"], monkeypatch, jobs="2")
    assert runs["compact"][:3] == runs["dicts"][:3] == runs["python"][:3]


SOMETIMES_BOOM = """ruleset sometimes_boom
players 2..2
var n: int = 0
var t: int = 0
turn {
  choose k from [1, 2, 3] as "pick"
  n = n + k
  t = t + 1
  if n == 9 and t == 3 { n = 100 / (n - n) }
}
end when t >= 4
"""


@needs_kernel
def test_simulate_in_compact_batches_stops_at_the_first_game_that_fails(tmp_path, monkeypatch):
    # (a game fails where its first three picks are 3s: from seed 10 the first such is
    # game 28, in the seventh batch of four; the kernel hands it to Python, which says why)
    rules = tmp_path / "boom.meeple"
    rules.write_text(SOMETIMES_BOOM)
    monkeypatch.setattr(simulation, "COMPACT_SHARE", 4)
    runs = simulate_runs([str(rules), "-n", "60", "--seed", "10"], monkeypatch)
    assert runs["compact"][3] >= 5
    assert runs["compact"][:3] == runs["dicts"][:3] == runs["python"][:3]
    code, figures, _, _ = runs["compact"]
    assert code == 1 and figures["ok"] is False and figures["failed_game"] == {"game": 28, "seed": 37, "record": None}
    assert "division by zero" in figures["error"]["message"]
    # stopped after --max-moves: the same error each way
    runs = simulate_runs([str(rules), "-n", "6", "--max-moves", "3"], monkeypatch)
    assert runs["compact"][:3] == runs["dicts"][:3] == runs["python"][:3]
    assert "did not end after 3 moves" in runs["compact"][1]["error"]["message"]


@needs_kernel
def test_the_compact_form_s_results_are_its_own():
    # (copies of the results the program keeps, none shared with another game's)
    fast, _ = programs(TTT, 2)
    one = interpreter.playouts(fast, 40, seed=1, compact=True)
    want = json.dumps(one.results)
    assert len(one.results) > 1 and len({id(r["ranking"][0]) for r in one.results}) == len(one.results)
    for r in one.results:
        r["scores"].append(99)
        r["ranking"][0].append(99)
    assert json.dumps(interpreter.playouts(fast, 40, seed=1, compact=True).results) == want


def test_a_batch_with_a_failed_game_is_not_counted():
    src = SourceSet(base=parse(BOOM, "rules.meeple"), sources={"rules.meeple": BOOM})
    batch = interpreter.playouts(compile_sources(src).for_players(2), 2, seed=1, compact=True)
    assert sorted(batch.errors) == [0, 1] and list(batch.kinds["pick"][:2]) != [0, 0]
    for totals in (simulation.Tally(2), stats.Balance(2)):
        with pytest.raises(ValueError, match="game 0 of the batch stopped on an error"):
            totals.add_compact(batch)


@needs_kernel
def test_the_compact_form_holds_each_number_once():
    # (the kernel makes the columns and writes each game's numbers in them, no bytes of
    # all the numbers copied into them after: a batch's memory at its largest is its
    # columns', not twice theirs)
    import tracemalloc

    fast, _ = programs(TTT, 2)
    games, players = 20_000, 2
    interpreter.playouts(fast, 2, seed=7, compact=True)   # (the kernel built and loaded)
    tracemalloc.start()
    try:
        got = interpreter.playouts(fast, games, seed=7, compact=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    held = sum(8 * len(col) for col in (got.moves, got.turns, got.first, got.result_of, got.scores,
                                        *got.kinds.values()))
    assert held >= 8 * games * (4 + 2 * players) and peak < 1.25 * held, (peak, held)
    assert all(isinstance(col, array) and col.typecode == "q" for col in got.kinds.values())


@needs_kernel
def test_the_compact_form_of_no_games_is_empty():
    fast, _ = programs(TTT, 2)
    got = interpreter.playouts(fast, 0, seed=7, compact=True)
    assert len(got) == 0 and got.kinds == {} and got.results == [] and got.errors == {}
    assert [len(c) for c in (got.moves, got.turns, got.first, got.result_of, got.scores)] == [0] * 5
    assert got.outcome_counts() == {}
