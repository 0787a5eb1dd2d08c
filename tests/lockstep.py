"""Two compiled forms of the same rules played side by side (the fast code against the
straightforward one, native code against Python): one random game both ways, compared
at every step."""
from __future__ import annotations

import json
import random
from contextlib import contextmanager

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import Budgets, RuleError, compile_sources
from meeple.interpreter.analysis import playouts as playouts_module
from meeple.interpreter.compiler import codegen
from meeple.interpreter.core import evaluate
from meeple.interpreter.play import runtime

from meeple import interpreter


def program_of(text: str, name: str, native: bool, budgets=None, players: int = 2):
    """The rules of ``text`` (read as the file ``name``) compiled for ``players``: on a
    kernel (``native``; the test fails if none is built) or in Python."""
    rules = compile_sources(SourceSet(base=parse(text, name), sources={name: text}), budgets=budgets)
    if native:
        assert rules.use_native(report=False, kernel_only=True)
    return rules.for_players(players)


def plain_games(games: list[dict]) -> list[dict]:
    """Playouts' games (``interpreter.playouts``) with their errors as text (an exception
    equals only itself), to compare two engines' games."""
    return [dict(g, error=None if g["error"] is None else (type(g["error"]).__name__, str(g["error"])))
            for g in games]


def least_budget(fails, hi: int) -> int:
    """The least budget in 1..``hi`` with which ``fails(budget)`` is False (a rule runs
    with it), found by bisection: ``fails`` must be True below it and False from it."""
    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        if fails(mid):
            lo = mid + 1
        else:
            hi = mid
    return lo


def vars_after(prog, moves: int):
    """The variables of a game of two (seed 3) after its first move is played ``moves``
    times, or the text of the rule error that stopped it with the moves played before it
    (a budget's message is the same at every move: an engine that ran out a move later
    is told apart)."""
    played = 0
    try:
        g = prog.new_game(2, 3)
        while played < moves:
            g.apply(0)
            played += 1
        return g.state["vars"]
    except RuleError as e:
        return f"after {played} moves: {e}"


def counted_as_python(compiled, budget: str, moves: int, hi: int) -> int:
    """The least budget ``budget`` (a field of ``Budgets``: "work", "steps", "calls"; up
    to ``hi``) with which Python (``compiled(False, budgets)``) plays ``moves`` moves
    (``vars_after``): the kernel (``compiled(True, budgets)``) plays them with it, and
    fails with one less, as Python does. Returns that budget."""
    def after(native: bool, n: int):
        return vars_after(compiled(native, Budgets(**{budget: n})), moves)
    lo = least_budget(lambda n: isinstance(after(False, n), str), hi)
    for n in (lo - 1, lo):
        assert after(True, n) == after(False, n)
    assert isinstance(after(True, lo - 1), str)
    return lo


def work_counted_as_python(compiled, moves: int, hi: int) -> None:
    """``counted_as_python`` of the work budget."""
    counted_as_python(compiled, "work", moves, hi)


def compiler(text: str, name: str):
    """``compiled(native, budgets=None)``: the rules of ``text`` (read as the file
    ``name``) compiled for two, on a kernel or in Python (``program_of``)."""
    def compiled(native: bool, budgets=None):
        return program_of(text, name, native, budgets)
    return compiled


def games_and_work_as_python(compiled, games: int, seed: int, moves: int, hi: int) -> None:
    """The kernel's playouts are Python's (``kernel_playouts_as_python``: ``games``
    from ``seed``), and so is the work it counts (``work_counted_as_python``: ``moves``
    moves, a budget up to ``hi``); ``compiled`` as ``compiler`` makes it."""
    kernel_playouts_as_python(compiled(True), compiled(False), games, seed=seed)
    work_counted_as_python(compiled, moves, hi)


def kernel_playouts_as_python(fast, python, games: int, seed: int) -> None:
    """``games`` playouts from ``seed``, every one played by the kernel (``fast``), are
    Python's (``python``), with no fallback, and not all of the same first score."""
    want = interpreter.playouts(python, games, seed=seed)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts_module, "reference", None)   # (the kernel plays every game)
        got = interpreter.playouts(fast, games, seed=seed)
    assert got == want and fast.native_fallbacks == 0
    assert len({g["result"]["scores"][0] for g in got}) > 1


def play_both(a_rules, b_rules, players: int, seed: int, moves: int) -> int:
    """One random game both ways, compared at every step; returns its moves."""
    a, b = a_rules.new_game(players, seed), b_rules.new_game(players, seed)
    rnd = random.Random(seed)
    assert a.state == b.state
    for step in range(moves):
        assert a.over == b.over and a.deciding == b.deciding, step
        if a.over:
            assert a.result == b.result
            return step
        seat = a.deciding[0]
        legal = a.legal_moves(seat)
        assert [m.notation for m in legal] == [m.notation for m in b.legal_moves(seat)], step
        i = rnd.randrange(len(legal))
        a.apply(legal[i], safe=False, seat=seat)
        b.apply(b.legal_moves(seat)[i], safe=False, seat=seat)
        assert json.dumps(a.state, sort_keys=True) == json.dumps(b.state, sort_keys=True), step
    return moves


def kernel_plays_as_python(fast, plain, seeds: int, players: int = 2, each=None) -> int:
    """Random games (one for each seed below ``seeds``) played by the kernel (``fast``)
    and by Python (``plain``) move by move, their states compared at every move and at
    the end, and their results; ``each(game, i)`` sees Python's game before its move
    ``i``. Returns the moves played."""
    moves = 0
    for seed in range(seeds):
        a, b = fast.new_game(players, seed), plain.new_game(players, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            assert a.move_count() == b.move_count()
            i = rnd.randrange(b.move_count())
            if each:
                each(b, i)
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            moves += 1
        assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
        assert a.over and a.result == b.result and a.live
    return moves


@contextmanager
def straight():
    """The straightforward paths only (``runtime.FAST_PATHS`` off), while inside."""
    runtime.FAST_PATHS = False
    try:
        yield
    finally:
        runtime.FAST_PATHS = True


def moves_of(game, seat=None) -> list:
    """A seat's legal moves (by default the one deciding now) as plain tuples."""
    return [(m.index, m.value, m.notation, m.player) for m in game.legal_moves(seat)]


# the parts of the state a kernel keeps (interpreter/native/kernel.py), compared as Python has them
KERNEL_KEYS = ("zones", "loc", "facing", "revealed", "vars", "pvars", "ivars", "active", "turn", "phase",
               "rng", "moves")


def kernel_difference(mine: dict, game) -> str | None:
    """Where a kernel's state (``KernelGame.kernel_state()``) differs from the Python
    game's, or None: every zone, variable and counter, each frame's procedure,
    instruction and locals (those the Python frame has), and the pending decision."""
    theirs = game.state
    for key in KERNEL_KEYS:
        if mine[key] != theirs[key]:
            return f"{key}: {str(mine[key])[:300]} != {str(theirs[key])[:300]}"
    if len(mine["stack"]) != len(theirs["stack"]):
        return f"stack: {mine['stack']} != {theirs['stack']}"
    for a, b in zip(mine["stack"], theirs["stack"]):
        if (a["p"], a["pc"]) != (b["p"], b["pc"]):
            return f"frame: {a['p']}@{a['pc']} != {b['p']}@{b['pc']}"
        for name, value in b["L"].items():
            if name not in a["L"] or a["L"][name] != value:
                return f"local {name} of {b['p']}: {str(a['L'].get(name))[:200]} != {str(value)[:200]}"
    a, b = mine["pending"], theirs["pending"]
    if (a is None) != (b is None):
        return f"pending: {a} != {b}"
    if b is not None:
        for key in ("player", "var", "options", "type", "verb", "alone", "said", "seats", "each", "waiting",
                    "chosen"):
            if a.get(key) != b.get(key):
                return f"pending {key}: {str(a.get(key))[:300]} != {str(b.get(key))[:300]}"
    return None


# the Python engines: the straightforward code, the fast code as it is played (where it
# fails, the straightforward code runs again), the fast code's own error, the walk, and
# the compiled code beside the walk (codegen.OPTIMIZE, codegen.STRICT, evaluate.MODE)
PY_ENGINES = {"straightforward": (False, False, ""), "fast": (True, False, ""), "fast, strict": (True, True, ""),
              "walk": (False, False, "tree"), "both": (False, False, "both")}


def per_python_engine(text: str, name: str) -> dict:
    """Each Python engine's program of the rules ``text`` (file ``name``), compiled once."""
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        for engine, (optimize, strict, mode) in PY_ENGINES.items():
            mp.setattr(codegen, "OPTIMIZE", optimize)
            mp.setattr(codegen, "STRICT", strict)
            mp.setattr(evaluate, "MODE", mode)
            out[engine] = program_of(text, name, native=False)
    return out


def step_both(games, rnd: random.Random) -> None:
    """One random move, the same in both games of the pair ``games`` (kernel, reference),
    then both compared: the legal moves before it, the state as the kernel holds it and
    the work counted after it."""
    kern, ref = games
    assert [m.notation for m in kern.legal_moves()] == [m.notation for m in ref.legal_moves()]
    i = rnd.randrange(kern.move_count())
    kern.apply(i, safe=False)
    ref.apply(i, safe=False)
    assert kern.live and kernel_difference(kern.kernel_state(), ref) is None
    assert kern.work_spent == ref.work_spent


def stepped_as_python(compiled, seeds) -> None:
    """A game of each seed played to its end by the kernel and by Python (``compiled`` as
    ``compiler`` makes them), random moves, every move compared (``step_both``): its
    work too, where too much counted is caught, which a budget is not (the kernel leaves
    a move whose budget it passes to Python, which gives the same answer)."""
    for seed in seeds:
        pair, rnd = (compiled(True).new_game(2, seed), compiled(False).new_game(2, seed)), random.Random(seed)
        while not pair[1].over:
            step_both(pair, rnd)


def in_turns_with_a_copy(prog, plain, rounds: int) -> None:
    """Two games of each program (seeds 4 and 5) played in turns for ``rounds`` moves
    each, then a copy of the first beside them until it ends, every move compared
    (``step_both``): what a kernel keeps across states serves each state rightly."""
    rnd = random.Random(7)
    pairs = [(prog.new_game(2, s), plain.new_game(2, s)) for s in (4, 5)]
    for _ in range(rounds):
        for pair in pairs:
            step_both(pair, rnd)
    copied = (pairs[0][0].copy(), pairs[0][1].copy())
    while not pairs[0][0].over:
        for pair in (pairs[0], copied, pairs[1]):
            if not pair[0].over:
                step_both(pair, rnd)
