"""The work a move counts (the ``work`` budget, docs/language.md section 15.3) is one
number, whatever engine plays the move: the reference (the straightforward code,
``codegen.OPTIMIZE`` off), the fast Python code (fused statements, loops written out,
static tables, values computed once) and the kernel (C++). So are the calls it counts
(the ``calls`` budget: the calls of the functions that count theirs, core/facts.py
``counts_calls``). A budget then runs out at the same move, with the same error, in each
of them.

- Random games of every ruleset of the docs and of the tests, and of bundled rulesets,
  played by the reference and the fast code side by side: the work and the calls of
  every move (``Game.work_spent``, ``Game.calls_spent``) are the same. The long form
  (``MEEPLE_TESTS=full``) plays more games, every bundled ruleset with each variant, and
  every ruleset the docs and the tests ever shipped (tests/compat/).
- The same games played by a kernel count the same work and calls as the reference
  (marked ``kernels``).
- A work or calls budget one short of a game's busiest move stops that move in every
  engine, with the reference's error."""
from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path

import pytest
from docs_support import COMPLETE, RULESETS, compile_block
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.dsl.load import RULESETS_DIR, SourceSet, bundled_names
from meeple.dsl.parse import parse
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


def called(game) -> int:
    """The calls the last run of the rules counted in a game (its kernel's while it
    plays the game)."""
    return game.calls_spent


COUNTS = {"work": spent, "calls": called}


def differences(programs, players: int, seed: int, moves: int) -> list:
    """One random game played by each program in lockstep: the moves after which the
    work or the calls counted differ, with the (work, calls) each counted (the first
    few)."""
    games = [p.new_game(players, seed) for p in programs]
    rnd = random.Random(seed)
    out = []
    for step in range(moves + 1):
        counted = [(spent(g), called(g)) for g in games]
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
def test_the_reference_and_the_fast_code_count_the_same_work_and_calls_after_every_move(make):
    plain, fast = both(make)
    players = plain.min_players if plain.min_players > 0 else 1
    for seed in range(scaled(3, 1)):
        got = differences([plain.for_players(players), fast.for_players(players)], players, seed, scaled(200, 40))
        assert got == [], f"seed {seed}: (move, [reference, fast] as (work, calls)): {got}"


def test_every_new_game_counts_the_setup_s_work_and_calls_as_the_first_did():
    # (a new game after the first starts from the program's kept start, where the setup
    # drew nothing: it reports the work and the calls of that run, as the first game
    # and a kernel's games do; chess's first decision counts calls)
    for optimize in (False, True):
        codegen.OPTIMIZE = optimize
        try:
            prog = interpreter.load("chess").for_players(2)
        finally:
            codegen.OPTIMIZE = True
        counted = [(g.work_spent, g.calls_spent) for g in (prog.new_game(2, seed) for seed in range(3))]
        assert len(set(counted)) == 1 and counted[0][1] > 0, (optimize, counted)


# ---------------------------------------------------------------- the kernel

def doubling(budgets=None):
    """The language reference's ``doubling`` (15.3): functions that each call the next
    twice, the last one counting its calls."""
    text = RULESETS["doubling"].text
    src = SourceSet(base=parse(text, "doubling.meeple"), sources={"doubling.meeple": text})
    return interpreter.compile_sources(src, budgets=budgets)


def _kernel_cases() -> list:
    """(id, the rules given budgets, players): the covered bundled rulesets (the short
    form: two of them), and a ruleset whose functions count their calls."""
    from test_kernel import COVERED, IDS
    cases = [(i, lambda budgets=None, c=c: interpreter.load(c[0], c[2], budgets=budgets), c[1])
             for i, c in zip(IDS, COVERED) if FULL or i in ("ttt-2p", "kalah-2p")]
    return [*cases, ("docs-doubling", doubling, 2)]


def kernel_of(make, players: int, budgets=None):
    rules = make(budgets=budgets)
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel
    return fast


@needs_kernel
@pytest.mark.kernels
@pytest.mark.parametrize("make,players", [c[1:] for c in _kernel_cases()], ids=[c[0] for c in _kernel_cases()])
def test_a_kernel_counts_the_work_and_calls_the_reference_counts_after_every_move(make, players):
    with reference():
        plain = make().for_players(players)
    fast = kernel_of(make, players)
    for seed in range(scaled(3, 1)):
        got = differences([plain, fast], players, seed, scaled(200, 60))
        assert got == [], f"seed {seed}: (move, [reference, kernel] as (work, calls)): {got}"
    assert fast.native_fallbacks == 0   # (the kernel played every move)


# ---------------------------------------------------------------- a budget that runs out

def busiest(prog, players: int, seed: int, moves: int, count=spent) -> tuple[list, int, int]:
    """A random game of the reference: the moves (seat, index), and the first move that
    counts the most (``count``: work or calls; -1: the setup), with that count."""
    game = prog.new_game(players, seed)
    rnd = random.Random(seed)
    played, most, at = [], count(game), -1
    for step in range(moves):
        if game.over:
            break
        seat = rnd.choice(game.deciding)
        i = rnd.randrange(game.move_count(seat))
        game.apply(i, safe=False, seat=seat)
        played.append((seat, i))
        if count(game) > most:
            most, at = count(game), step
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


def _bundled_rules(name: str):
    return lambda budgets=None: interpreter.load(name, budgets=budgets)


# (budget, rules, players): the short form, the first two of each budget
ONE_SHORT = [("work", "kalah", 2), ("work", "clans-and-glory", 2), ("calls", "backgammon", 2),
             ("calls", "docs-doubling", 2),
             *([("work", "backgammon", 2), ("calls", "brotherhood-of-nine", 2)] if FULL else [])]


@pytest.mark.parametrize("budget,ruleset,players", ONE_SHORT, ids=[f"{b}-{r}" for b, r, _ in ONE_SHORT])
def test_a_budget_one_short_of_the_busiest_move_stops_it_in_each_engine(budget, ruleset, players):
    make = doubling if ruleset == "docs-doubling" else _bundled_rules(ruleset)
    with reference():
        plain = make().for_players(players)
    played, at, most = busiest(plain, players, 1, scaled(120, 40), COUNTS[budget])
    assert most > 0
    short = Budgets(**{budget: most - 1})
    with reference():
        plain = make(budgets=short).for_players(players)
    fast = make(budgets=short).for_players(players)
    want = stopped(plain, players, 1, played)
    assert want is not None and want[0] == at and want[4] == "rule/budget" and f"'{budget}' budget" in want[1]
    assert stopped(fast, players, 1, played) == want
    enough = Budgets(**{budget: most})
    assert stopped(make(budgets=enough).for_players(players), players, 1, played) is None


@needs_kernel
@pytest.mark.kernels
@pytest.mark.parametrize("budget,make", [("work", lambda budgets=None: interpreter.load(str(TESTS / "testdata" / "ttt"), budgets=budgets)),
                                         ("calls", doubling)], ids=["work-ttt", "calls-docs-doubling"])
def test_a_budget_one_short_stops_the_same_move_in_a_kernel(budget, make):
    with reference():
        plain = make().for_players(2)
    played, at, most = busiest(plain, 2, 1, 9, COUNTS[budget])
    short = Budgets(**{budget: most - 1})
    with reference():
        want = stopped(make(budgets=short).for_players(2), 2, 1, played)
    fast = kernel_of(make, 2, short)
    assert want is not None and want[0] == at and stopped(fast, 2, 1, played) == want
    assert fast.native_fallbacks == 1   # (the kernel stopped: Python played the move and failed)
