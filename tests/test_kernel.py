"""The kernels (interpreter/native/kernel.py): a program's rules in C++ over compact state,
behind a Python game (interpreter/native/kgame.py).

- Every bundled ruleset the kernel covers, played by its kernel and in Python in
  lockstep, keeps the same state (zones, variables, frames and their locals, the
  pending decision, the generator) after every move, with the same moves offered.
- A game played by its kernel is a Game: once anything reads its Python runtime, it is
  exactly the Python game of the same moves (state, log, moves to undo); legal moves,
  decisions, results, heuristics and perft counts are Python's.
- Where a rule fails or a budget runs out, the error is Python's, at the same place,
  and ``safe`` leaves the game as before; the steps and work a move costs are counted
  as in Python, to the last one.
- Rules nobody wrote (mutants of the covered rulesets) play the same both ways.
- A kernel is built once and kept in the disk cache; one that is damaged is built
  again; without a compiler, or where the kernel does not cover a ruleset, the games
  run in Python, saying why once.

The kernels are built with -O0 here (MEEPLE_KERNEL_CXXFLAGS, conftest.py: faster to
build, the same code). The short form (a plain pytest, CI) plays in lockstep the
configurations whose files use, together, every construct of them all, and the examples
of the language reference likewise, and builds a damaged kernel again with a stand-in
that copies the one built first; MEEPLE_TESTS=full plays them all and builds each time.
The tests skip, saying why, where no C++ compiler is found."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference
from meeple.dsl import ast
from meeple.dsl.builtins import BUILTINS
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet, read_sources, resolve_path
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.analysis import testing
from meeple.interpreter.native import kernel_build
from meeple.interpreter.native.kgame import KernelGame
from scale import FULL, scaled
from test_fuzz_rulesets import MUTATIONS, corpus, sources
from test_resume_frames import LOCATED, tampered

from meeple import interpreter

pytestmark = pytest.mark.kernels   # (.ci/lowest leaves them out: see pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "tests" / "testdata" / "ttt")

# every bundled ruleset, with its variants, at its player counts
COVERED = [(TTT, 2, ()), ("kalah", 2, ()), ("dots-and-boxes", 2, ()), ("dots-and-boxes", 2, ("small",)),
           ("go", 2, ()), ("go", 2, ("superko",)), ("chess", 2, ()), ("chess", 2, ("fide_claims",)),
           ("backgammon", 2, ()), ("hearts", 4, ()), ("cherokee", 3, ()), ("cherokee", 4, ("open_clans",)),
           ("clans-and-glory", 4, ()), ("clans-and-glory", 2, ("separate_boards", "chosen_first_player")),
           ("brotherhood-of-nine", 2, ()), ("brotherhood-of-nine", 4, ("allies", "capture_the_flag")),
           ("brotherhood-of-nine", 3, ("archer_lines", "cavalry_jumps", "round_limit")),
           ("brotherhood-of-nine", 4, ("allies_crosswise",))]
IDS = [f"{Path(c[0]).name}-{c[1]}p{'-' + '+'.join(c[2]) if c[2] else ''}" for c in COVERED]
# the short form (CI) of the games in lockstep: the configurations whose files use, together,
# every construct the files of them all use (test_the_short_form_of_the_bundled_games_uses_
# every_construct_of_the_long_one checks it); the long form, every configuration
COVERING = ["ttt-2p", "dots-and-boxes-2p", "go-2p", "chess-2p-fide_claims", "backgammon-2p", "hearts-4p",
            "cherokee-4p-open_clans", "clans-and-glory-4p", "brotherhood-of-nine-4p-allies+capture_the_flag"]
LOCKSTEP = scaled(COVERED, [c for c, i in zip(COVERED, IDS) if i in COVERING])


def programs(ruleset, variants=(), players=2, budgets=None):
    """The program played by its kernel, and the Python one."""
    rules = interpreter.load(ruleset, variants, budgets=budgets)
    assert rules.use_native(report=False)
    fast = rules.for_players(players)
    assert fast.kernel and fast.native
    return fast, interpreter.load(ruleset, variants, budgets=budgets).for_players(players)


def python_program(text: str, budgets=None):
    src = SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})
    return compile_sources(src, budgets=budgets).for_players(2)


def from_source(text: str, budgets=None, players: int = 2):
    src = SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})
    fast = compile_sources(src, budgets=budgets)
    assert fast.use_native(report=False)
    return fast.for_players(players), compile_sources(src, budgets=budgets).for_players(players)


# ---------------------------------------------------------------- the same state

@needs_kernel
@pytest.mark.parametrize("ruleset,players,variants", LOCKSTEP, ids=[IDS[COVERED.index(c)] for c in LOCKSTEP])
def test_a_kernel_keeps_the_state_python_has_after_every_move(ruleset, players, variants):
    fast, plain = programs(ruleset, variants, players)
    moves, seeds = 0, scaled(3, 1)
    for seed in range(seeds):
        a, b = fast.new_game(players, seed), plain.new_game(players, seed)
        assert isinstance(a, KernelGame) and a.live
        rnd = random.Random(seed)
        while True:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            assert a.over == b.over
            if b.over:
                assert a.result == b.result
                break
            assert a.deciding == b.deciding and a.decision == b.decision and a.active_player == b.active_player
            seat = rnd.choice(b.deciding)   # (in a simultaneous decision, any seat still to choose)
            n = b.move_count(seat)
            assert a.move_count(seat) == n
            i = rnd.randrange(n)
            a.apply(i, safe=False, seat=seat)
            b.apply(i, safe=False, seat=seat)
            moves += 1
        assert a.live
    assert moves > 4 * seeds
    assert fast.native_fallbacks == 0   # the kernel decided every move


TEAMS = """ruleset teams
players 4..4
participant bank score = n * 2
participant house
var n: int = 0
turn {
  choose k from [1, 2] as "pick"
  n = n + k
}
end when n > 6
team(p) = seat(p) % 2
score(p) = seat(p) + n % 3
tiebreak order(p) = 0 - seat(p)
outcome(p, place) {
  win when place == 1
  draw when place == 2 and n > 7
  loss otherwise
}
"""

CALLED = """ruleset called
players 2..2
var n: int = 0
var m: int per player = 0
procedure twice(k: int): int {
  choose e from [0, 1] as "extra"
  if e == 1 { return 2 * k + 1 }
  return 2 * k
}
turn {
  choose k from [1, 2] as "pick"
  let d = call twice(k)
  m(active) = call twice(d)
  n = n + d
}
end when n > 12
score(p) = m(p)
"""

UNCOVERED = """ruleset uncovered
players 2..2
var flag: bool = false
var n: int = 0
turn {
  choose k from [1, 2] as "pick"
  flag = first([k == 1, false])
  n = n + k
}
end when n > 6
"""


def _random_lockstep(fast, plain, seed: int):
    """A 2-player game of random moves played on the kernel (``fast``) and in Python,
    the kernel's state checked against Python's before every move: the two games."""
    a, b = fast.new_game(2, seed), plain.new_game(2, seed)
    rnd = random.Random(seed)
    while not b.over:
        assert kernel_difference(a.kernel_state(), b) is None
        i = rnd.randrange(b.move_count())
        a.apply(i)
        b.apply(i)
    return a, b


@needs_kernel
def test_a_procedure_s_value_comes_back_into_the_caller_s_frame():
    fast, plain = from_source(CALLED)
    for seed in range(4):
        a, b = _random_lockstep(fast, plain, seed)
        assert a.result == b.result
    # a game read in the middle of a call (its frame's $ret) is taken over by the kernel
    a, b = fast.new_game(2, 9), plain.new_game(2, 9)
    a.apply(0)
    b.apply(0)
    assert a.state == b.state and a.state["stack"][-1]["L"]["$ret"] == "d"
    a.apply(1)
    b.apply(1)
    assert a.live and kernel_difference(a.kernel_state(), b) is None
    assert fast.native_fallbacks == 0


APPENDS = """ruleset appends
players 2..2
kind Bag { var xs: list of int = [] }
zone shelf: Bag
deck bags into shelf { Bag() }
var kept: list of int = []
var all: list of int = []
var consts: list of list of int = []
turn {
  choose k from [1, 2] as "pick"
  let b = top(shelf)
  let before = b.xs
  b.xs = b.xs + [k]
  b.xs = b.xs + [k + 1]
  kept = before
  all = all + [k, k]
  let mine = all
  all = all + [3]
  mine = mine + [4]
  let c = [5, 6]
  c = c + [k]
  consts = consts + [c, [5, 6], mine]
}
end when size(all) > 12
"""


@needs_kernel
def test_a_list_appended_to_where_it_is_leaves_every_other_holder_s_value():
    # (the kernel appends x = x + xs in place, and makes a list of constants once: a
    # list another name holds, or a constant one, keeps its value)
    fast, plain = from_source(APPENDS)
    for seed in range(3):
        a, b = _random_lockstep(fast, plain, seed)
        assert kernel_difference(a.kernel_state(), b) is None and a.result == b.result
    assert b.state["vars"]["consts"][:2] == [[5, 6, b.state["vars"]["all"][0]], [5, 6]]
    assert fast.native_fallbacks == 0


@needs_kernel
def test_teams_participants_and_outcomes_come_out_as_python_s():
    fast, plain = from_source(TEAMS, players=4)
    for seed in range(4):
        a, b = fast.new_game(4, seed), plain.new_game(4, seed)
        rnd = random.Random(seed)
        while not b.over:
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
        assert a.live and a.result == b.result and "teams" in a.result and a.result["participants"]
    assert fast.native_fallbacks == 0


@needs_kernel
def test_a_ruleset_the_kernel_does_not_cover_says_what_and_runs_in_python():
    src = SourceSet(base=parse(UNCOVERED, "uncovered.meeple"), sources={"uncovered.meeple": UNCOVERED})
    rules = compile_sources(src)
    said = []
    # (kernel_only: no Cython module is built in its place, a build of seconds this
    # test does not need: the reason is said the same way either way)
    rules.use_native(report=said.append, kernel_only=True)
    prog = rules.for_players(2)
    assert not prog.kernel and not prog.native
    assert any("no kernel for uncovered: the kernel does not cover first() of a list of bool yet" in s
               for s in said), said
    game = prog.new_game(2, 1)
    assert not isinstance(game, KernelGame)
    while not game.over:
        game.apply(0)


# ---------------------------------------------------------------- a Game like any other

@needs_kernel
def test_a_kernel_game_answers_as_the_python_game():
    fast, plain = programs("chess")
    a, b = fast.new_game(2, 5), plain.new_game(2, 5)
    rnd = random.Random(5)
    for step in range(40):
        moves = [(m.index, m.value, m.notation, m.player) for m in a.legal_moves()]
        assert moves == [(m.index, m.value, m.notation, m.player) for m in b.legal_moves()], step
        assert a.decision == b.decision and a.deciding == b.deciding and not a.simultaneous
        assert [a.heuristic(p) for p in (0, 1)] == [b.heuristic(p) for p in (0, 1)]
        i = rnd.randrange(len(moves))
        played = a.apply(a.legal_moves()[i])   # a Move of its list: still in the kernel
        assert played == b.apply(i)
        assert a.live
    # a copy is a game of its own (and can be read without the original leaving the kernel)
    twin = a.copy()
    assert twin.live and a.live
    assert twin.state == b.state and not twin.live and a.live
    assert twin.can_undo == 0                   # as a Python game's copy
    twin.apply(0)
    assert a.kernel_state()["moves"] == b.state["moves"]
    # read as a Python game: the same state, log and moves to take back
    assert a.state == b.state and not a.live
    assert a.to_json() == b.to_json()
    assert a.can_undo == b.can_undo == 40
    for _ in range(3):
        a.undo()
        b.undo()
    assert a.state == b.state
    a.apply("e2-e4" if "e2-e4" in [m.notation for m in a.legal_moves()] else 0)


@needs_kernel
def test_a_kernel_game_plays_to_the_same_result_and_its_undo_limit_holds():
    fast, plain = programs("backgammon")
    for seed in range(2):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        a.undo_limit = b.undo_limit = 4
        rnd = random.Random(seed)
        while not b.over:
            i = rnd.randrange(b.move_count())
            a.apply(i)
            b.apply(i)
        assert a.live and a.result == b.result and a.result is not None
        assert a.players == 2 and a.active_player is None and a.legal_moves() == [] and a.decision is None
        assert a.can_undo == b.can_undo == 4
        a.undo()
        b.undo()
        assert a.state == b.state


@needs_kernel
def test_a_move_by_its_notation_or_out_of_range_is_python_s():
    fast, plain = programs("kalah")
    a, b = fast.new_game(2, 1), plain.new_game(2, 1)
    name = b.legal_moves()[1].notation
    assert a.apply(name).notation == b.apply(name).notation
    assert a.state == b.state
    with pytest.raises(interpreter.IllegalMove) as e:
        a.apply(99)
    with pytest.raises(interpreter.IllegalMove) as f:
        b.apply(99)
    assert str(e.value) == str(f.value)
    assert a.state == b.state


@needs_kernel
@pytest.mark.parametrize("ruleset,depth", [("chess", 3), ("go", 2), ("dots-and-boxes", 3), (TTT, 4)])
def test_perft_counts_the_same_in_the_kernel(ruleset, depth):
    fast, plain = programs(ruleset)
    for seed, moves in ((0, 0), (3, 5)):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        for i in range(moves):
            a.apply(i % a.move_count())
            b.apply(i % b.move_count())
        before = a.kernel_state()
        assert interpreter.perft(a, depth) == interpreter.perft(b, depth)
        assert a.live and a.kernel_state() == before   # the game is left as it was
    assert fast.native_fallbacks == 0


@needs_kernel
def test_search_bots_choose_the_same_moves_on_a_kernel_game():
    fast, plain = programs("kalah")
    a, b = fast.new_game(2, 2), plain.new_game(2, 2)
    for spec in ("mcts:iterations=60", "greedy", "random"):
        for turn in range(4):
            seat = b.active_player
            i = interpreter.bot_move(interpreter.make_bot(spec, turn), a, seat)
            assert i == interpreter.bot_move(interpreter.make_bot(spec, turn), b, seat)
            a.apply(i)
            b.apply(i)
    assert a.state == b.state


# ---------------------------------------------------------------- errors and budgets

BOOM = """ruleset boom
players 2..2
var n: int = 0
var spent: int = 0
turn {
  choose k from [1, 2, 3] as "pick"
  n = n + k
  let i = 0
  while i < k * 5 max 1000 { i = i + 1 }
  spent = spent + size([x for x in 1..(k * 7)])
  if n > 9 { n = 100 / (n - n) }
}
end when n > 50
"""


def error_after(prog, moves, safe=True):
    """Plays the moves (by index) from seed 1; the RuleError of the one that fails (as
    its text, rule, place, hint and code), the state just after, and the moves played."""
    game = prog.new_game(2, 1)
    for step, i in enumerate(moves):
        before = game.to_json() if isinstance(game, KernelGame) and not game.live else None
        try:
            game.apply(i, safe=safe)
        except RuleError as e:
            return (str(e), e.rule, e.span, e.hint, e.code), game.state, step, before
    return None, game.state, len(moves), None


@needs_kernel
@pytest.mark.parametrize("safe", [True, False])
def test_a_rule_error_after_kernel_moves_is_python_s(safe):
    fast, plain = from_source(BOOM)
    moves = [2, 2, 2, 0, 1]     # 3 + 3 + 3 + 1 = 10 > 9 on the fourth move
    got, want = error_after(fast, moves, safe), error_after(plain, moves, safe)
    assert got[0] is not None and "division by zero" in got[0][0]
    assert got[:3] == want[:3]
    assert fast.native_fallbacks == 1


@needs_kernel
@pytest.mark.parametrize("budget", ["steps", "work"])
def test_the_steps_and_work_of_a_move_are_counted_as_in_python(budget):
    # the least budget with which Python plays these moves: the kernel plays them with it
    # (without stopping), and with one less fails where Python fails
    moves = [2, 0, 1, 2]

    def fails(prog) -> bool:
        return error_after(prog, moves)[0] is not None

    lo, hi = 1, 100_000
    while lo < hi:
        mid = (lo + hi) // 2
        if fails(python_program(BOOM.replace("n > 9", "n > 90"), interpreter.Budgets(**{budget: mid}))):
            lo = mid + 1
        else:
            hi = mid
    least = lo
    fast, plain = from_source(BOOM.replace("n > 9", "n > 90"), interpreter.Budgets(**{budget: least}))
    assert not fails(fast) and fast.native_fallbacks == 0
    fast, plain = from_source(BOOM.replace("n > 9", "n > 90"), interpreter.Budgets(**{budget: least - 1}))
    got, want = error_after(fast, moves), error_after(plain, moves)
    assert got[0] is not None and got[0][4] == "rule/budget" and got[:3] == want[:3]
    assert fast.native_fallbacks == 1


ODDITIES = r"""ruleset odd
players 2..2
enum Tint { dark, light }
kind Piece { tint: Tint, word: str }
board grid: grid(rows: 2, cols: 3) holds Piece
zone pot: Piece
deck ps into pot { Piece(tint: t, word: "a\"b\\c */ ??= \u00e9😀") for t in Tint }
var said: str = "x\ny"
var big: int = 999999999999999999
turn {
  choose c from [x for x in cells(grid) if empty(x)] as "put"
  move top(pot) to c
  said = said + c.name + "\"" + top(c).word
  big = big - 1
  if top(c).word + c.name != said { big = big - 2 * (big / 3) }
}
end when size(pot) == 0
score(p) = if seat(p) == 1 then big % 1000 else big / 1000000000000
"""


@needs_kernel
def test_texts_and_numbers_of_any_kind_come_through_the_kernel_unchanged():
    fast, plain = from_source(ODDITIES)
    a, b = fast.new_game(2, 3), plain.new_game(2, 3)
    while not b.over:
        assert kernel_difference(a.kernel_state(), b) is None
        a.apply(1 % a.move_count())
        b.apply(1 % b.move_count())
    assert a.result == b.result and fast.native_fallbacks == 0
    assert a.state == b.state


# ---------------------------------------------------------------- rules nobody wrote

CASES = int(os.environ.get("MEEPLE_FUZZ_KERNEL_CASES", scaled(30, 12)))


def kernel_mutant(case: int):
    """A seeded mutant of a covered ruleset's base file."""
    rnd = random.Random(4_000_037 * int(os.environ.get("MEEPLE_FUZZ_SEED", "9")) + case)
    names = {Path(c[0]).name for c in COVERED}
    files = [f for f in corpus() if f[0] in names and "/variants/" not in f[1] and "/locales/" not in f[1]]
    name, path, text = rnd.choice(files)
    for _ in range(rnd.choice([1, 1, 2])):
        text = rnd.choice(MUTATIONS)(rnd, text)
    return name, path, text, rnd.randrange(1 << 30)


def played(prog, seed: int) -> list:
    """What the game shows move after move (by number), and its end or error."""
    out = []
    rnd = random.Random(seed)
    try:
        game = prog.new_game(prog.n, seed)
        for _ in range(40):
            if game.over:
                break
            out.append([m.notation for m in game.legal_moves()])
            game.apply(rnd.randrange(game.move_count()), safe=False)
        out.append(json.dumps(game.state, sort_keys=True))
        out.append(game.result)
    except RuleError as e:
        out.append(("rule error", str(e), e.rule, e.hint))
    return out


@needs_kernel
def test_mutated_rulesets_play_the_same_in_their_kernel_and_in_python():
    compared = 0
    for case in range(CASES):
        name, path, text, seed = kernel_mutant(case)
        src, variants, locale = sources(name, path, text)
        if src.diagnostics:
            continue
        try:
            rules = interpreter.compile_sources(src, variants, locale)
            plain = rules.for_players(rules.min_players)
        except MeepleError:
            continue
        said = []
        rules.use_native(report=said.append)
        fast = rules.for_players(rules.min_players)
        # (a kernel that does not compile is a bug, never a case to pass over)
        assert not [s for s in said if "the build failed" in s], f"case {case} ({path}): {said}"
        if not fast.kernel:
            continue
        assert played(fast, seed) == played(plain, seed), f"case {case} ({path})"
        compared += 1
    assert compared >= CASES // 10


# ---------------------------------------------------------------- building and keeping

def meeple(*args, env=None):
    return subprocess.run([sys.executable, "-m", "meeple", *map(str, args)], cwd=ROOT, env=env, check=False,
                          capture_output=True, text=True, timeout=300)


# a stand-in for a kernel's build (the C++ compiler) in a probe: a copy of the kernel a real
# build made before (the cache does the same whatever makes the kernel it keeps)
STAND_IN = """import shutil
from meeple.interpreter.native import kernel_build
def _copy(name, key, source, folder, *args):
    out = folder / (name + ".so")
    shutil.copyfile({module!r}, out)
    return out
kernel_build._build = _copy
"""


def probe(cache: Path | None, extra: dict | None = None, processes: int = 1, built: Path | None = None):
    """In a new process: tic-tac-toe natively; whether a kernel plays it, and whether it
    was built now (``cache``: the cache folder; None: the test run's, conftest.py).
    With ``processes``, as many started at once: the list of their answers. ``built``:
    a build there copies that kernel, built before."""
    code = (STAND_IN.format(module=str(built)) if built is not None else "") + (
            "import json, warnings; from meeple import interpreter\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            f"    p = interpreter.load({TTT!r}, native=True).for_players(2)\n"
            "    g = p.new_game(2, 0); g.apply(0)\n"
            "print(json.dumps({'kernel': p.kernel, 'built': p.kernel_build_seconds > 0, "
            "'said': [str(x.message) for x in w]}))")
    env = {**os.environ, **({} if cache is None else {"MEEPLE_CACHE_DIR": str(cache)}), **(extra or {})}
    started = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(processes)]
    answers = []
    for p in started:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        answers.append(json.loads(out))
    return answers if processes > 1 else answers[0]


@needs_kernel
def test_a_kernel_is_built_once_kept_in_the_cache_and_built_again_when_damaged(tmp_path, tmp_path_factory):
    # two processes at once: one builds, the other waits for it (or comes after) and takes
    # it from the cache
    assert sorted(p["built"] for p in probe(tmp_path, processes=2)) == [False, True]
    kept = [p for p in (tmp_path / "native").iterdir() if p.name.startswith("meeple_kernel_")
            and not p.name.endswith(".sha256")]
    assert len(kept) == 1
    # built again: in the long form by the compiler (with the precompiled runtime, made
    # then), in the short one by a stand-in that copies the kernel built first (the
    # cache's part is the same)
    first = None if FULL else tmp_path_factory.mktemp("stand-in") / "first.so"
    if first is not None:
        first.write_bytes(kept[0].read_bytes())
    kept[0].write_bytes(kept[0].read_bytes()[:1000])   # truncated: its digest differs
    assert probe(tmp_path, built=first)["built"] is True
    (tmp_path / "native" / (kept[0].name.split(".")[0] + ".sha256")).write_text("0" * 64)
    assert probe(tmp_path, built=first)["built"] is True    # a digest that lies
    assert probe(tmp_path)["built"] is False
    assert interpreter.cache_info()["native"]["entries"] >= 0
    done = meeple("cache", "clear", env={**os.environ, "MEEPLE_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert not list((tmp_path / "native").iterdir())


@needs_kernel
def test_kernels_can_be_turned_off_and_a_failed_build_says_why_once():
    # (in the test run's cache: the Cython module that plays instead, the same as
    # tests/test_native.py's, is built once for the run; a failed build keeps nothing)
    off = probe(None, {"MEEPLE_KERNEL": "0"})
    assert off["kernel"] is False and not any("kernel" in s for s in off["said"])
    failed = probe(None, {"MEEPLE_KERNEL_CXXFLAGS": "--no-such-option"})
    assert failed["kernel"] is False
    assert [s for s in failed["said"] if "no kernel for ttt: the build failed" in s and "--no-such-option" in s]
    args = ("simulate", TTT, "-n", "6", "-j", "1", "--json")
    env = {**os.environ, "MEEPLE_KERNEL_CXXFLAGS": "--no-such-option"}
    plain, native = meeple(*args, "--no-native", env=env), meeple(*args, "--native", env=env)
    assert plain.returncode == native.returncode == 0, native.stderr
    assert native.stderr.count("no kernel for ttt: the build failed") == 1
    assert "Traceback" not in native.stderr


@needs_kernel
def test_without_a_compiler_the_games_run_in_python_saying_so(monkeypatch):
    monkeypatch.setattr(kernel_build, "compiler", lambda: None)
    rules = interpreter.load("kalah")
    said = []
    rules.use_native(report=said.append, kernel_only=True)   # (no Cython build in its place)
    prog = rules.for_players(2)
    assert not prog.kernel and not prog.native
    assert any("no kernel for kalah: no C++ compiler was found" in s for s in said), said


@needs_kernel
def test_simulate_natively_plays_the_same_games():
    args = ("simulate", "kalah", "-n", "8", "-j", "2", "--json")
    plain, native = meeple(*args, "--no-native"), meeple(*args, "--native")
    assert plain.returncode == native.returncode == 0, native.stderr
    a, b = json.loads(plain.stdout), json.loads(native.stdout)
    for doc in (a, b):
        for k in ("seconds", "games_per_second"):
            doc.pop(k)
    assert a == b


def test_no_warning_reaches_a_program_that_asked_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game = interpreter.load("kalah").new_game(2, 0)
    assert not isinstance(game, KernelGame)


# ---------------------------------------------------------------- the kernel taking over

@needs_kernel
@pytest.mark.parametrize("ruleset", ["chess", "backgammon", "go"])
def test_the_kernel_takes_over_a_python_game_where_it_stands(ruleset):
    fast, plain = programs(ruleset)
    a, b = fast.new_game(2, 7), plain.new_game(2, 7)
    rnd = random.Random(7)
    for step in range(60):
        if b.over:
            break
        assert a.state == b.state, step        # read: a Python game again
        assert not a.live
        i = rnd.randrange(b.move_count())
        a.apply(i)                              # the kernel takes over from there
        b.apply(i)
        assert a.live and kernel_difference(a.kernel_state(), b) is None, step
    assert a.can_undo == b.can_undo
    for _ in range(5):
        a.undo()
        b.undo()
        assert a.state == b.state
    assert fast.native_fallbacks == 0


@needs_kernel
def test_a_resumed_game_and_a_copy_of_a_python_game_are_played_by_the_kernel():
    fast, plain = programs("chess")
    b = plain.new_game(2, 3)
    for i in range(21):
        b.apply(i % b.move_count())
    a = fast.resume(json.loads(b.to_json()))
    assert isinstance(a, KernelGame) and not a.live
    twin = a.copy()
    for game in (a, twin):
        game.apply(0)
        assert game.live
    b.apply(0)
    assert kernel_difference(a.kernel_state(), b) is None and a.state == b.state
    assert twin.state == b.state and twin.can_undo == 1   # a copy's own move only


# ---------------------------------------------------------------- explicit chance, positions

CHANCY = [("backgammon", 2, ()), ("hearts", 4, ()), ("cherokee", 3, ()), ("clans-and-glory", 4, ()),
          ("brotherhood-of-nine", 2, ())]   # (every bundled ruleset with chance)


@needs_kernel
@pytest.mark.parametrize("ruleset,players,variants", CHANCY, ids=[IDS[COVERED.index(c)] for c in CHANCY])
def test_in_explicit_chance_mode_a_kernel_stops_at_every_chance_step_as_python(ruleset, players, variants):
    fast, plain = programs(ruleset, variants, players)
    steps = chances = 0
    for seed in (0, 1):
        a, b = fast.new_game(players, seed, chance="explicit"), plain.new_game(players, seed, chance="explicit")
        assert isinstance(a, KernelGame) and a.live and a.chance_mode == "explicit"
        rnd = random.Random(seed)
        while not b.over and steps < 600:
            mine = a.kernel_state()
            assert kernel_difference(mine, b) is None and mine["chance"] == b.state["chance"], (seed, steps)
            assert a.at_chance == b.at_chance and a.chance_kind == b.chance_kind and a.deciding == b.deciding
            if b.at_chance:
                chances += 1
                outs = b.chance_outcomes()
                assert [(o.index, o.value, o.notation, o.probability) for o in a.chance_outcomes()] == \
                    [(o.index, o.value, o.notation, o.probability) for o in outs]
                if rnd.random() < 0.5:
                    o = outs[rnd.randrange(len(outs))].notation
                    assert a.apply_chance(o) == b.apply_chance(o)
                else:
                    assert a.sample_chance() == b.sample_chance()
            else:
                assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
                i = rnd.randrange(b.move_count())
                assert a.apply(i).notation == b.apply(i).notation
            assert a.live, (seed, steps)
            steps += 1
        assert a.result == b.result
        twin = a.copy()
        assert twin.live and twin.kernel_state() == a.kernel_state()
        for _ in range(min(8, b.can_undo)):   # the Python game of the same steps, chance ones too
            a.undo()
            b.undo()
            assert a.state == b.state
    assert chances >= 2
    assert fast.native_fallbacks == 0


@needs_kernel
def test_a_game_at_a_chance_step_resumed_or_scripted_is_played_by_the_kernel():
    fast, plain = programs("backgammon")
    b = plain.new_game(2, 4, chance="explicit")
    b.apply_chance(2)
    assert b.at_chance
    a = fast.resume(json.loads(b.to_json()))
    assert isinstance(a, KernelGame) and not a.live
    assert a.apply_chance("5") == b.apply_chance("5")   # the kernel takes over at the chance step
    assert a.live and kernel_difference(a.kernel_state(), b) is None
    assert a.kernel_state()["chance"] == b.state["chance"]
    # testing.new_game's outcomes set in order, by the kernel
    c, d = testing.new_game(fast, 2, ["3", "3"], seed=1), testing.new_game(plain, 2, ["3", "3"], seed=1)
    assert c.live and c.state == d.state
    assert fast.native_fallbacks == 0


@needs_kernel
def test_perft_from_a_resumed_position_and_a_built_one_is_counted_by_the_kernel():
    from chess_fen import KIWIPETE, fen_position
    fast, _plain = programs("chess")
    b = fen_position(KIWIPETE)                      # (as meeple perft --position reads it)
    a = fast.resume(json.loads(b.to_json()))
    assert not a.live
    assert interpreter.divide(a, 2) == interpreter.divide(b, 2)
    assert a.live and a.state == b.state            # counted by the kernel, left as it was
    kf, kp = programs("kalah")
    seeds = iter(range(48))
    zones = {f"pits:{side}{k}": [next(seeds) for _ in range(k)] for side in "ab" for k in range(1, 6)}
    pos, want = testing.position(kf, 2, zones, active=1), testing.position(kp, 2, zones, active=1)
    assert isinstance(pos, KernelGame) and interpreter.perft(pos, 3) == interpreter.perft(want, 3) and pos.live
    assert fast.native_fallbacks == kf.native_fallbacks == 0


BLIND = """ruleset blind_pick
players 2..2
kind Card { value: int }
zone deck: Card hidden
zone table: Card
zone hand: Card per player
board row: line(length: 2) holds Card
deck cards into deck { Card(value: v) for v in 1..8 }
var done: int = 0
setup {
  move top(deck) to table
  move top(deck) to table face down
  move top(deck) to hand(players[1])
  move top(deck) to cells(row)[0] face down
  move top(deck) to cells(row)[1]
}
turn {
  choose c from items(deck) + items(table) + items(hand(players[1])) + [top(x) for x in cells(row)] as "take"
  move c to hand(active)
  choose some subset of items(deck) + items(hand(next_player(active))) where size(some) <= 2 as "peek"
  done = done + 1
}
end when done == 4
"""


@needs_kernel
def test_options_a_seat_may_not_know_are_ordered_and_written_by_their_place():
    # language.md 9.4: the known items first, then the others by place, named by place
    fast, plain = from_source(BLIND)
    a, b = fast.new_game(2, 1), plain.new_game(2, 1)
    first = [m.notation for m in b.legal_moves()]
    assert first == ["take 4", "take 8", "take deck#1", "take deck#2", "take deck#3", "take table#2",
                     "take s1", "take hand:p2#1"]
    rnd = random.Random(3)
    while not b.over:
        want = [(m.index, m.value, m.notation, m.player) for m in b.legal_moves()]
        assert [(m.index, m.value, m.notation, m.player) for m in a.legal_moves()] == want
        i = rnd.randrange(len(want))
        assert a.apply(i).notation == b.apply(i).notation == want[i][2]   # written before it is played
        assert kernel_difference(a.kernel_state(), b) is None
    assert fast.native_fallbacks == 0 and a.live


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_items_nobody_sees_traded_between_places_change_nothing_the_kernel_tells_a_seat(seed):
    # the swap test on what the kernel answers itself: two cards of the hidden deck trade
    # places; in both games, played by the kernel, every seat deciding is offered the same
    # moves in the same order, written the same (by place), while the moves' values are
    # the traded cards' (until a card of the deck is taken, which the test does not do)
    fast, _plain = from_source(BLIND)
    state = fast.new_game(2, seed).state
    a, b = state["zones"][0][:2]
    traded = {a: b, b: a}
    twin = json.loads(json.dumps(state))
    twin["zones"] = [[traded.get(i, i) for i in z] for z in twin["zones"]]
    twin["pending"]["options"] = [traded.get(i, i) for i in twin["pending"]["options"]]
    g1, g2 = fast.resume(state), fast.resume(twin)

    def trade(v):
        return [traded.get(x, x) for x in v] if isinstance(v, list) else traded.get(v, v)
    rnd, played, differed = random.Random(seed), 0, 0
    while not g1.over:
        m1, m2 = g1.legal_moves(), g2.legal_moves()
        assert [(m.notation, m.player) for m in m1] == [(m.notation, m.player) for m in m2]
        assert [trade(m.value) for m in m1] == [m.value for m in m2]
        assert g1.decision == g2.decision and g1.move_count() == g2.move_count()
        differed += played > 0 and [m.value for m in m1] != [m.value for m in m2]
        allowed = [i for i, m in enumerate(m1) if "deck#" not in m.notation and m.value is not None]
        i = rnd.choice(allowed)
        assert g1.apply(i).notation == g2.apply(i).notation
        assert g1.live and g2.live
        played += 1
    assert g2.over and played >= 4 and fast.native_fallbacks == 0
    assert differed   # (the kernel offered the traded cards themselves: the test bites)


# ---------------------------------------------------------------- the whole language

# the words of a node that name a construct (not something the ruleset named)
WORDS = {"BinOp.op", "BoardDecl.generator", "BoardDecl.visibility", "ZoneDecl.visibility", "VarDecl.visibility",
         "Move.facing", "Flip.facing", "Aggregate.func", "Best.tie", "BoundDecl.unit", "InvariantDecl.moment",
         "OutcomeClause.outcome", "OutcomeDecl.rank", "File.kind", "Attr.name"}


def constructs(text: str) -> set[str]:
    """The constructs a ruleset's text uses: each kind of node of its syntax tree, each
    part a node has (an optional clause given, a list not empty), the words of WORDS
    (operators, board shapes, facings, visibilities...), the types it names that it does
    not declare, and the built-in functions it calls."""
    return constructs_of([parse(text, "rules.meeple")])


def constructs_of(files: list) -> set[str]:
    """The constructs of a ruleset's files (syntax trees), as ``constructs`` says."""
    nodes = [n for f in files for n in ast.walk(f)]
    declared = {n.name for n in nodes if type(n).__name__ in ("KindDecl", "EnumDecl")}
    out = set()
    for n in nodes:
        kind = type(n).__name__
        out.add(kind)
        for field, v in n.__dict__.items():
            if field == "span" or v is None or v == [] or v == ():
                continue
            if isinstance(v, bool) or (isinstance(v, str) and f"{kind}.{field}" in WORDS):
                out.add(f"{kind}.{field}={v}")
            elif isinstance(v, ast.Node | list | tuple | str):
                out.add(f"{kind}.{field}")
        if kind == "Call" and n.func in BUILTINS:
            out.add(f"call {n.func}")
        if kind == "ChooseEach" and n.picks is not None:   # (a number: several picks each)
            out.add("ChooseEach.picks")
        if kind == "TypeRef" and n.name not in declared:
            out.add(f"type {n.name}")
    return out


def covering(blocks: list) -> list:
    """Fewer blocks that use, together, every construct the blocks use: the one that adds
    the most constructs not yet used, then the next, in the order of the documents."""
    uses = [constructs(b.text) for b in blocks]
    left, chosen = set().union(*uses), []
    while left:
        best = max(range(len(blocks)), key=lambda i: len(uses[i] & left))
        chosen.append(best)
        left -= uses[best]
    return [blocks[i] for i in sorted(chosen)]


def _doc_rulesets():
    # the short form (CI): the examples that use, together, every construct the examples
    # use (about half of them, each a kernel of its own to build); the long form, every example
    from docs_support import COMPLETE
    return COMPLETE if FULL else covering(COMPLETE)


def test_the_short_form_of_the_language_reference_uses_every_construct_of_the_long_one():
    from docs_support import COMPLETE
    short = covering(COMPLETE)
    assert set().union(*(constructs(b.text) for b in short)) == set().union(*(constructs(b.text) for b in COMPLETE))
    assert len(short) < len(COMPLETE) and {"Choose", "ChooseEach", "ChooseEach.picks", "Move.facing=down", "call top",
                                           "PayoffDecl", "PayoffDecl.param"} <= \
        set().union(*(constructs(b.text) for b in short))


def test_the_short_form_of_the_bundled_games_uses_every_construct_of_the_long_one():
    read = cache(lambda ruleset: read_sources(resolve_path(ruleset)))   # (parsed only)

    def uses(ruleset, variants) -> set[str]:
        src = read(ruleset)
        files = [src.base, *(src.variants[v] for v in variants)]
        named = {getattr(n, "name", None) for f in files for n in ast.walk(f) if type(n).__name__.endswith("Decl")}
        # (not the types a variant names that its base declares: the same type)
        return {u for u in constructs_of(files) if not (u.startswith("type ") and u[5:] in named)}
    found = {i: uses(c[0], c[2]) for c, i in zip(COVERED, IDS)}
    missing = set().union(*found.values()) - set().union(*(found[i] for i in COVERING))
    assert not missing, {i: sorted(u & missing) for i, u in found.items() if u & missing}
    assert len(COVERING) < len(COVERED) and set(COVERING) <= set(IDS)
    assert {"ChooseEach", "ChooseEach.picks", "Roll", "Remove", "call top"} <= set().union(*found.values())


@needs_kernel
@pytest.mark.parametrize("block", _doc_rulesets(), ids=lambda b: f"{b.id}-{b.header[1]}")
def test_every_ruleset_of_the_language_reference_plays_the_same_in_its_kernel(block):
    # language.md's examples use every construct of the language: a kernel covers them,
    # and random games (any seat of a simultaneous decision) agree move by move
    from docs_support import compile_block
    prog = compile_block(block)
    n = max(prog.min_players, 1)
    plain = prog.for_players(n)
    rules = compile_block(block)
    rules.use_native(report=False)
    fast = rules.for_players(n)
    assert fast.kernel, "every construct of the language has a kernel"
    for seed in range(2):
        try:
            b = plain.new_game(n, seed)
        except RuleError as e:
            with pytest.raises(RuleError) as raised:
                fast.new_game(n, seed)
            assert str(raised.value) == str(e)
            continue
        a = fast.new_game(n, seed)
        rnd = random.Random(seed)
        for _ in range(200):
            assert kernel_difference(a.kernel_state(), b) is None
            if b.over:
                assert a.result == b.result
                break
            seat = rnd.choice(b.deciding)
            assert [m.notation for m in a.legal_moves(seat)] == [m.notation for m in b.legal_moves(seat)]
            i = rnd.randrange(b.move_count(seat))
            errors = []
            for game in (a, b):
                try:
                    game.apply(i, safe=False, seat=seat)
                    errors.append(None)
                except RuleError as e:
                    errors.append(str(e))
            assert errors[0] == errors[1]
            if errors[0]:
                break


# ---------------------------------------------------------------- states resumed

@needs_kernel
@pytest.mark.parametrize("change", ["two identical frames", "no loop counter", "a counter none",
                                    "a counter {}"])
def test_a_state_python_refuses_never_reaches_the_kernel(change):
    """Frames no game reaches are refused the same way natively and in Python (before this
    check, the kernel played on from a frame without its loop counter where Python
    stopped with "a bug in Meeple")."""
    fast, plain = programs("dots-and-boxes")
    b = plain.new_game(2, 1)
    for i in range(3):
        b.apply(i)
    state = json.loads(b.to_json())
    frame = state["stack"][-1]
    if change == "two identical frames":
        state["stack"].append(json.loads(json.dumps(frame)))
    elif change == "no loop counter":
        del frame["L"]["$n1"]
    else:
        frame["L"]["$n1"] = None if change == "a counter none" else {}
    messages = []
    for prog in (fast, plain):
        with pytest.raises(interpreter.StateError) as e:
            prog.resume(json.loads(json.dumps(state)))
        messages.append(str(e.value))
    assert messages[0] == messages[1] and messages[0].startswith("invalid state at stack/0/")


@cache
def _kernel_programs(name: str):
    return programs(name)


@needs_kernel
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=tampered(("kalah", "dots-and-boxes")))
def test_a_tampered_state_is_refused_or_played_the_same_by_the_kernel_and_python(case):
    name, state = case
    fast, plain = _kernel_programs(name)
    got = []
    for prog in (fast, plain):
        try:
            got.append(prog.resume(json.loads(json.dumps(state))))
        except interpreter.StateError as e:
            got.append(str(e))
    a, b = got
    if isinstance(b, str):
        assert a == b and LOCATED.match(b), (a, b)
        return
    for _ in range(4):
        assert a.over == b.over and a.deciding == b.deciding
        if b.over:
            assert a.result == b.result
            return
        i = b.move_count() - 1
        assert a.move_count() == i + 1
        errors = []
        for game in (a, b):
            try:
                game.apply(i)
                errors.append(None)
            except RuleError as e:
                errors.append(str(e))
        assert errors[0] == errors[1] and "a bug in Meeple" not in (errors[1] or "")
        if errors[1]:
            return
        assert not a.live or kernel_difference(a.kernel_state(), b) is None
