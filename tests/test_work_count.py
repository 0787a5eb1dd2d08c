"""The work a move counts (the ``work`` budget, docs/language.md section 15.3) is one
number, whatever engine plays the move: the reference (the straightforward code,
``codegen.OPTIMIZE`` off), the fast Python code (fused statements, loops written out,
static tables, values computed once) and the kernel (C++). A budget then runs out at the
same move, with the same error, in each of them.

- Random games of every ruleset of the docs and of the tests, and of bundled rulesets,
  played by the reference and the fast code side by side: the work of every move
  (``Runtime.spent``) is the same. The long form (``MEEPLE_TESTS=full``) plays more
  games, every bundled ruleset with each variant, and every ruleset the docs and the
  tests ever shipped (tests/compat/).
- The same games played by a kernel count the same work as the reference (marked
  ``kernels``).
- A work budget one short of a game's busiest move stops that move in every engine,
  with the reference's error."""
from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path

import pytest
from docs_support import COMPLETE, compile_block
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.dsl.load import RULESETS_DIR, bundled_names
from meeple.interpreter import Budgets, RuleError
from meeple.interpreter.compiler import codegen
from scale import FULL, scaled

from meeple import interpreter

TESTS = Path(__file__).resolve().parent


@contextmanager
def reference():
    """Rules compiled inside are the straightforward code alone (the reference)."""
    codegen.OPTIMIZE = False
    try:
        yield
    finally:
        codegen.OPTIMIZE = True


def both(make):
    """The rules ``make()`` gives, as the reference and as the fast code."""
    with reference():
        plain = make()
    return plain, make()


def spent(game) -> int:
    """The work the last run of the rules counted in a game (its kernel's while it
    plays the game)."""
    return game.work_spent


def differences(programs, players: int, seed: int, moves: int) -> list:
    """One random game played by each program in lockstep: the moves after which the
    work counted differs, with the work each counted (the first few)."""
    games = [p.new_game(players, seed) for p in programs]
    rnd = random.Random(seed)
    out = []
    for step in range(moves + 1):
        counted = [spent(g) for g in games]
        if len(set(counted)) > 1:
            out.append((step, counted))
        if games[0].over or step == moves or len(out) > 3:
            break
        seat = rnd.choice(games[0].deciding)
        i = rnd.randrange(games[0].move_count(seat))
        for g in games:
            g.apply(i, safe=False, seat=seat)
    return out


# ---------------------------------------------------------------- the corpus

# the bundled rulesets of the short form (each construct the fast code treats apart:
# tables of cells kept by values, joined rows, values computed once, kept functions)
SHORT = ("kalah", "backgammon", "clans-and-glory", "brotherhood-of-nine")


def _bundled() -> list:
    out = []
    for name in bundled_names() if FULL else SHORT:
        variants = sorted(p.stem for p in (RULESETS_DIR / name / "variants").glob("*.meeple"))
        for v in [None, *variants] if FULL else [None]:
            chosen = () if v is None else (v,)
            out.append((f"{name}{'-' + v if v else ''}", lambda name=name, chosen=chosen: interpreter.load(name, chosen)))
    return out


def _docs() -> list:
    return [(f"{b.id}-{b.header[1]}", lambda b=b: compile_block(b)) for b in COMPLETE]


def _tests() -> list:
    files = [TESTS / "testdata" / "ttt", *sorted((TESTS / "testdata").glob("*.meeple"))]
    out = []
    for f in files:
        if f.suffix == ".meeple" and f.read_text(encoding="utf-8").lstrip().startswith("ruleset") \
                and "errors" not in f.stem:
            out.append((f"tests-{f.stem}", lambda f=f: interpreter.load(str(f))))
        elif f.is_dir():
            out.append((f"tests-{f.name}", lambda f=f: interpreter.load(str(f))))
    return out


def _compat() -> list:
    """Every ruleset the docs and the tests shipped before (tests/compat/), each version
    of its rules once (as tests/test_compat.py plays them)."""
    from test_compat import MANIFEST, PLAN, sources
    out = []
    for entry in sorted(PLAN):
        base, variants, _ = PLAN[entry]
        if not MANIFEST[entry]["play"]:
            continue
        for v in ([None] if base else []) + variants:
            chosen = () if v is None else (v,)
            out.append((f"compat-{entry}{'-' + v if v else ''}",
                        lambda entry=entry, chosen=chosen: interpreter.compile_sources(sources(entry, bool(chosen)), chosen)))
    return out


CORPUS = _bundled() + _docs() + _tests() + (_compat() if FULL else [])


@pytest.mark.parametrize("make", [m for _, m in CORPUS], ids=[i for i, _ in CORPUS])
def test_the_reference_and_the_fast_code_count_the_same_work_after_every_move(make):
    plain, fast = both(make)
    players = plain.min_players if plain.min_players > 0 else 1
    for seed in range(scaled(3, 1)):
        got = differences([plain.for_players(players), fast.for_players(players)], players, seed, scaled(200, 40))
        assert got == [], f"seed {seed}: (move, [reference, fast]): {got}"


# ---------------------------------------------------------------- the kernel

def _kernel_cases() -> list:
    from test_kernel import COVERED, IDS
    cases = list(zip(IDS, COVERED))
    return cases if FULL else [c for c in cases if c[0] in ("ttt-2p", "kalah-2p")]


@needs_kernel
@pytest.mark.kernels
@pytest.mark.parametrize("case", [c for _, c in _kernel_cases()], ids=[i for i, _ in _kernel_cases()])
def test_a_kernel_counts_the_work_the_reference_counts_after_every_move(case):
    ruleset, players, variants = case
    with reference():
        plain = interpreter.load(ruleset, variants).for_players(players)
    rules = interpreter.load(ruleset, variants)
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel
    for seed in range(scaled(3, 1)):
        got = differences([plain, fast], players, seed, scaled(200, 60))
        assert got == [], f"seed {seed}: (move, [reference, kernel]): {got}"
    assert fast.native_fallbacks == 0   # (the kernel played every move)


# ---------------------------------------------------------------- a budget that runs out

def busiest(prog, players: int, seed: int, moves: int) -> tuple[list, int, int]:
    """A random game of the reference: the moves (seat, index), and the first move that
    counts the most work (-1: the setup), with that work."""
    game = prog.new_game(players, seed)
    rnd = random.Random(seed)
    played, most, at = [], spent(game), -1
    for step in range(moves):
        if game.over:
            break
        seat = rnd.choice(game.deciding)
        i = rnd.randrange(game.move_count(seat))
        game.apply(i, safe=False, seat=seat)
        played.append((seat, i))
        if spent(game) > most:
            most, at = spent(game), step
    return played, at, most


def stopped(prog, players: int, seed: int, played: list):
    """The moves played until one fails: (its number, its error's text, rule and place)."""
    try:
        game = prog.new_game(players, seed)
    except RuleError as e:
        return -1, str(e), e.rule, e.span, e.code
    for step, (seat, i) in enumerate(played):
        try:
            game.apply(i, seat=seat)
        except RuleError as e:
            return step, str(e), e.rule, e.span, e.code
    return None


@pytest.mark.parametrize("ruleset,players", [("kalah", 2), ("clans-and-glory", 2), ("backgammon", 2)][:scaled(3, 2)])
def test_a_work_budget_one_short_of_the_busiest_move_stops_it_in_each_engine(ruleset, players):
    with reference():
        plain = interpreter.load(ruleset).for_players(players)
    played, at, most = busiest(plain, players, 1, scaled(120, 40))
    assert most > 0
    short = Budgets(work=most - 1)
    with reference():
        plain = interpreter.load(ruleset, budgets=short).for_players(players)
    fast = interpreter.load(ruleset, budgets=short).for_players(players)
    want = stopped(plain, players, 1, played)
    assert want is not None and want[0] == at and want[4] == "rule/budget" and "'work' budget" in want[1]
    assert stopped(fast, players, 1, played) == want
    enough = Budgets(work=most)
    assert stopped(interpreter.load(ruleset, budgets=enough).for_players(players), players, 1, played) is None


@needs_kernel
@pytest.mark.kernels
def test_a_work_budget_one_short_stops_the_same_move_in_a_kernel():
    ttt = str(TESTS / "testdata" / "ttt")
    with reference():
        plain = interpreter.load(ttt).for_players(2)
    played, at, most = busiest(plain, 2, 1, 9)
    short = Budgets(work=most - 1)
    with reference():
        want = stopped(interpreter.load(ttt, budgets=short).for_players(2), 2, 1, played)
    rules = interpreter.load(ttt, budgets=short)
    assert rules.use_native(report=False)
    fast = rules.for_players(2)
    assert fast.kernel
    assert want is not None and want[0] == at and stopped(fast, 2, 1, played) == want
    assert fast.native_fallbacks == 1   # (the kernel stopped: Python played the move and failed)
