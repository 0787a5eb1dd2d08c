"""The native path (interpreter/native/cython_code.py): every bundled ruleset played natively and in
pure Python in lockstep must offer the same moves at every decision, reach the same
state after every move and end with the same result, without the native code failing
once; a rule error must read the same, at the same place; the built modules are kept in
the disk cache and one that is damaged is built again; where Cython is missing, the
games run in Python, saying so once.

The modules are built with -O0 here (MEEPLE_NATIVE_CFLAGS, set by conftest.py: five times
faster to build, the same code); each ruleset once per test session. The short form (a
plain pytest, CI) plays the rulesets whose code uses, together, every construct Cython
translates of them all, and builds a damaged module again with a stand-in that copies
the one built first; MEEPLE_TESTS=full plays every ruleset and builds each time (README,
"Contributing"). The tests that need Cython and a C compiler skip, saying why, where they
are missing."""
from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import importlib.machinery
import json
import os
import random
import re
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

import pytest
from lockstep import play_both as lockstep_play
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.native import cython_code as native
from scale import FULL, scaled

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "tests" / "testdata" / "ttt")
MISSING = interpreter.native_status()
needs_native = pytest.mark.skipif(MISSING is not None, reason=f"native code cannot be built here: {MISSING}")

# every bundled ruleset, with some variants, played 2 games of at most MOVES moves
CONFIGS = [
    (TTT, 2, ()), ("kalah", 2, ()), ("dots-and-boxes", 2, ("small",)), ("go", 2, ()),
    ("chess", 2, ()), ("backgammon", 2, ()), ("hearts", 4, ()), ("cherokee", 3, ()),
    ("clans-and-glory", 4, ("separate_boards",)),
    ("brotherhood-of-nine", 4, ("allies", "capture_the_flag")),
]
MOVES = 150
IDS = [f"{Path(c[0]).name}-{c[1]}p{'-' + '+'.join(c[2]) if c[2] else ''}" for c in CONFIGS]
# the short form (CI): the configurations whose native code uses, together, every
# construct the native code of them all uses (each is a module of its own to build, 5 to
# 15 s of CPU; test_the_short_form_of_the_native_games_translates_every_construct checks
# it); the long form, every configuration
COVERING = ["dots-and-boxes-2p-small", "go-2p", "chess-2p", "backgammon-2p", "hearts-4p",
            "clans-and-glory-4p-separate_boards"]
PLAYED = scaled(CONFIGS, [c for c, i in zip(CONFIGS, IDS) if i in COVERING])


@pytest.fixture(autouse=True)
def _without_kernels(monkeypatch):
    # these tests are about the rule code that Cython compiles, which serves where no
    # kernel does (MEEPLE_KERNEL=0: none; tests/test_kernel.py tests the kernels)
    monkeypatch.setenv("MEEPLE_KERNEL", "0")


def play_both(native, plain, players: int, seed: int) -> int:
    return lockstep_play(native, plain, players, seed, MOVES)


@needs_native
@pytest.mark.parametrize("ruleset,players,variants", PLAYED, ids=[IDS[CONFIGS.index(c)] for c in PLAYED])
def test_native_code_plays_exactly_like_python(ruleset, players, variants):
    native = interpreter.load(ruleset, variants, native=True).for_players(players)
    plain = interpreter.load(ruleset, variants).for_players(players)
    assert native.native and not plain.native
    played = sum(play_both(native, plain, players, seed) for seed in range(scaled(2, 1)))
    assert played > 0
    assert native.native_fallbacks == 0   # the native code did all of it


def recorded(ruleset, players: int) -> tuple:
    """The pieces of code the program records (what its module is built from), and the
    program."""
    from meeple.interpreter.compiler.compile import Program
    from meeple.interpreter.native.cython_code import Pieces
    pieces = Pieces()
    return pieces, Program(ruleset.checked, players, ruleset.budgets, None, native=pieces)


def recorded_code(ruleset, players: int) -> list:
    return recorded(ruleset, players)[0].order


# the helpers the module has in C (its HEADER), whose calls Cython translates as C calls
C_HELPERS = set(re.findall(r"^cdef (?:inline )?object (\w+)\(", native.HEADER, re.M))


def constructs(ruleset, players: int) -> set[str]:
    """What Cython translates of a program's module: each kind of node of its code (the
    code as built, after the rewrites: statements, expressions, operators...), the types
    of its constants, the built-in functions and the module's C helpers it calls, the
    methods it calls, and the work budget counted in a C integer."""
    pieces, prog = recorded(ruleset, players)
    text = native.module_source(pieces, prog.ns).split("\ndef make(dict ns, dict twins):\n", 1)[1]
    text = "def make(ns, twins):\n" + text.replace("&_w", "_W_ADDR").replace("cdef Py_ssize_t _w", "_W_DECL")
    out = set()
    for n in ast.walk(ast.parse(text)):
        out.add(type(n).__name__)
        if isinstance(n, ast.Constant):
            out.add(f"constant {type(n.value).__name__}")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
                and (n.func.id in C_HELPERS or hasattr(builtins, n.func.id)):
            out.add(f"call {n.func.id}")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            out.add(f"method {n.func.attr}")
        elif isinstance(n, ast.Name) and n.id in ("_W_ADDR", "_W_DECL"):
            out.add(n.id)
    return out


def test_the_short_form_of_the_native_games_translates_every_construct():
    uses = {i: constructs(interpreter.load(c[0], c[2]), c[1]) for c, i in zip(CONFIGS, IDS)}
    every = set().union(*uses.values())
    missing = every - set().union(*(uses[i] for i in COVERING))
    assert not missing, {i: sorted(u & missing) for i, u in uses.items() if u & missing}
    assert len(COVERING) < len(CONFIGS) and set(COVERING) <= set(IDS)
    assert {"_W_DECL", "call _sub", "call _top", "ListComp", "Try"} <= every   # (it sees what it should)


def test_a_program_is_the_same_code_whenever_it_is_compiled():
    # the native module serves each piece of code by its text (and is kept on disk under
    # its hash): programs compiled before (other player counts, other rulesets) must not
    # change the names in it, such as those of comprehension variables
    ruleset = interpreter.load("cherokee")
    first = recorded_code(ruleset, 3)
    assert any("for w" in src for _, src in first)   # it has comprehension variables
    ruleset.for_players(4)
    interpreter.load("chess").for_players(2)
    assert recorded_code(ruleset, 3) == first


RULES = """ruleset broken
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
function worth(c: Card, k: int): int = c.value + c.value * k
function total(k: int): int = worth(top(pile), k) + k
function deeper(n: int): int = deeper(n + 1) + 1
function ping(n: int): int = pong(n) + 1
function pong(n: int): int = ping(n) + 1
function walk(n: int): int = size([k for k in 1..n])
function tally(n: int): int = if n <= 0 then 0 else size([k for k in 1..n]) + tally(0)
"""

# each error, as the statement of the turn that makes it (the turn's first decision picks
# which: one program, one native module for them all)
ERRORS = {
    "a missing value in an inlined function": "x = total(2)",
    "a missing value in a comprehension": "x = sum([worth(c, 2) for c in [top(pile)]])",
    "endless recursion": "x = deeper(1)",
    "functions that call each other": "x = ping(1)",
    "a runaway range": "x = sum([n for n in 1..9000000])",
    "a runaway loop": "x = size([a + b for a in 1..3000 for b in 1..3000])",
    "work running out inside a function called in a loop": "x = sum([walk(n) for n in 1..3300])",
    "work running out in a loop that counts and calls a function":
        "x = size([n for n in 1..4000 if tally(n) > 0 and size([k for k in 1..n]) > 0])",
    "an index outside its list": "x = [n for n in 1..3][x + 5]",
    "a negative index": "x = [n for n in 1..3][x - 1] + size([worth(c, 1) for c in items(pile)])",
    "division by zero": "x = 7 / (x - x) + size([worth(c, 1) for c in items(pile)])",
}


@functools.cache
def broken() -> tuple:
    """The ruleset of every error (its turn: choose which, then make it), compiled as
    Python and natively (built once: the module serves every case)."""
    text = RULES + f'turn {{\n  choose k from 1..{len(ERRORS)} as "error"\n'
    for k, statement in enumerate(ERRORS.values(), 1):
        text += f"  {'if' if k == 1 else 'elif'} k == {k} {{\n    {statement}\n  }}\n"
    text += "}\nend when x > 3\n"
    src = SourceSet(base=parse(text, "broken.meeple"), sources={"broken.meeple": text})
    plain = compile_sources(src).for_players(2)
    ruleset = compile_sources(src)
    assert ruleset.use_native()
    return ruleset.for_players(2), plain


def error_of(program, what: str) -> tuple:
    game = program.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as e:
        game.apply(list(ERRORS).index(what))
    return str(e.value), e.value.rule, e.value.span, e.value.hint, e.value.code


@needs_native
@pytest.mark.parametrize("what", list(ERRORS))
def test_a_rule_error_reads_the_same_natively(what):
    native, plain = broken()
    assert native.native
    fallbacks = native.native_fallbacks
    assert error_of(native, what) == error_of(plain, what)
    assert native.native_fallbacks > fallbacks   # the native code failed, then Python said how


def meeple(*args, env=None, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meeple", *map(str, args)], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, timeout=300)


# a stand-in for a build (Cython, then the C compiler) in a probe: a copy of the module a
# real build made before (the cache does the same whatever makes the module it keeps)
STAND_IN = """
import shutil
from meeple.interpreter.native import cython_code
def _copy(name, text, folder):
    out = folder / (name + cython_code._suffix())
    shutil.copyfile({module!r}, out)
    return out
cython_code._build = _copy
"""


def probe(cache: Path, built: Path | None = None) -> dict:
    """In a new process: the tic-tac-toe program natively, with the build's seconds
    (``built``: a build there copies that module, built before)."""
    code = (STAND_IN.format(module=str(built)) if built is not None else "") + (
            "import json; from meeple import interpreter; "
            f"p = interpreter.load({TTT!r}, native=True).for_players(2); "
            "g = p.new_game(2, 0); g.apply(g.legal_moves()[0]); "
            "print(json.dumps({'native': p.native, 'built': p.native_build_seconds > 0}))")
    env = {**os.environ, "MEEPLE_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=False, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_native
def test_a_module_is_built_once_kept_in_the_cache_and_built_again_when_damaged(tmp_path, tmp_path_factory):
    assert probe(tmp_path) == {"native": True, "built": True}
    assert probe(tmp_path) == {"native": True, "built": False}   # from the cache
    kept = [p for p in (tmp_path / "native").iterdir() if p.name.startswith("meeple_native_")
            and not p.name.endswith(".sha256")]
    assert len(kept) == 1
    # built again: in the long form by Cython and the C compiler, in the short one by a
    # stand-in that copies the module built first (the cache's part is the same)
    first = None if FULL else tmp_path_factory.mktemp("stand-in") / "first.so"
    if first is not None:
        first.write_bytes(kept[0].read_bytes())
    kept[0].write_bytes(kept[0].read_bytes()[:1000])   # truncated: its digest differs
    assert probe(tmp_path, first) == {"native": True, "built": True}
    (tmp_path / "native" / (kept[0].name.split(".")[0] + ".sha256")).write_text("0" * 64)
    assert probe(tmp_path, first) == {"native": True, "built": True}   # a digest that lies
    assert probe(tmp_path) == {"native": True, "built": False}
    env = {**os.environ, "MEEPLE_CACHE_DIR": str(tmp_path)}
    done = meeple("cache", "clear", env=env)
    assert done.returncode == 0, done.stderr
    assert not list((tmp_path / "native").iterdir())


@needs_native
def test_simulate_native_plays_the_same_games():
    args = ("simulate", TTT, "-n", "6", "-j", "2", "--json")
    plain, native = meeple(*args, "--no-native"), meeple(*args, "--native")
    assert plain.returncode == native.returncode == 0, native.stderr
    uncached = meeple("--no-cache", *args, "--native")   # built for the process, then removed
    assert uncached.returncode == 0, uncached.stderr
    assert "compiling ttt natively (2 players)…" in uncached.stderr
    a, b, c = json.loads(plain.stdout), json.loads(native.stdout), json.loads(uncached.stdout)
    for doc in (a, b, c):
        for k in ("seconds", "games_per_second"):
            doc.pop(k)
    assert a == b == c


@needs_native
def test_a_build_that_fails_says_why_once_and_the_games_run_in_python(tmp_path):
    # a compiler option the C compiler refuses (MEEPLE_NATIVE_CFLAGS is the user's to set)
    env = {**os.environ, "MEEPLE_CACHE_DIR": str(tmp_path), "MEEPLE_NATIVE_CFLAGS": "--no-such-option"}
    args = ("simulate", TTT, "-n", "4", "-j", "1", "--json")
    plain, native = meeple(*args, "--no-native", env=env), meeple(*args, "--native", env=env)
    assert plain.returncode == native.returncode == 0, native.stderr
    assert "Traceback" not in native.stderr
    assert native.stderr.count("native code unavailable: the build failed") == 1
    assert "--no-such-option" in native.stderr and "running in pure Python" in native.stderr
    a, b = json.loads(plain.stdout), json.loads(native.stdout)
    for doc in (a, b):
        for k in ("seconds", "games_per_second"):
            doc.pop(k)
    assert a == b
    assert not list((tmp_path / "native").iterdir())   # nothing kept


def test_without_cython_the_games_run_in_python_saying_so_once(tmp_path):
    # a Cython that cannot be imported (as where it is not installed)
    (tmp_path / "Cython").mkdir()
    (tmp_path / "Cython" / "__init__.py").write_text("raise ImportError('not here')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    args = ("simulate", TTT, "-n", "4", "-j", "1", "-q")
    plain, native = meeple(*args, "--no-native", env=env), meeple(*args, "--native", env=env)
    assert plain.returncode == native.returncode == 0
    assert "Traceback" not in native.stderr
    assert native.stderr.count("native code unavailable: Cython cannot be imported") == 1
    strip = [line for line in native.stdout.splitlines() if "per second" not in line]
    assert strip == [line for line in plain.stdout.splitlines() if "per second" not in line]
    code = ("import warnings; from meeple import interpreter\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            f"    r = interpreter.load({TTT!r}, native=True); p = r.for_players(2)\n"
            "print(r.native, p.native, [str(x.message) for x in w])")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=False, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True False ['native code unavailable: Cython cannot be imported")
    assert done.stdout.count("unavailable") == 1


# (each one's module built by test_native_code_plays_exactly_like_python: the budget is not in it)
LARGE_BUDGET = scaled([CONFIGS[7], CONFIGS[8]], [CONFIGS[6], CONFIGS[8]])


@needs_native
@pytest.mark.parametrize("ruleset,players,variants", LARGE_BUDGET, ids=[IDS[CONFIGS.index(c)] for c in LARGE_BUDGET])
def test_a_work_budget_larger_than_a_c_integer_plays_the_same(ruleset, players, variants):
    # natively the work budget is counted in a C integer: one that does not fit makes
    # the native code fail and the Python code run, the same games
    budgets = interpreter.Budgets(work=10 ** 25)
    native = interpreter.load(ruleset, variants, budgets=budgets, native=True).for_players(players)
    plain = interpreter.load(ruleset, variants, budgets=budgets).for_players(players)
    assert native.native
    assert play_both(native, plain, players, 0) > 0
    assert native.native_fallbacks > 0


DEEP = """ruleset deep
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
function deep(n: int): int = if n == 0 then 0 else deep(n - 1) + 1
function deeper(n: int): int = if n == 0 then 0 else sum([deeper(n - 1) + 1 for k in [1]])
function anyd(n: int): bool = n == 0 or any(anyd(n - 1) for k in [1])
turn {
  x = deep(1990) + deeper(1990) + (if anyd(1990) then 1 else 0)
}
end when x > 3
"""


@needs_native
def test_recursion_as_deep_as_the_largest_depth_budget_runs_natively():
    # 1990 nested calls of compiled functions (through comprehensions too): no stack
    # overflow, the same values as in Python
    src = SourceSet(base=parse(DEEP, "deep.meeple"), sources={"deep.meeple": DEEP})
    budgets = interpreter.Budgets(depth=2000)
    plain = compile_sources(src, budgets=budgets).for_players(2).new_game(2, 1)
    ruleset = compile_sources(src, budgets=budgets)
    ruleset.use_native()
    native = ruleset.for_players(2)
    game = native.new_game(2, 1)
    assert native.native and native.native_fallbacks == 0
    assert game.state == plain.state and game.over == plain.over


def test_a_text_that_spells_a_placeholder_of_the_rewrite_stays_that_text():
    # work_in_c writes its C (&_w, cdef ...) where two placeholder names stand once the
    # code is unparsed: where names stand, never inside a string (a ruleset's text)
    code = ("def f(R):\n    return ['__w_addr__', \"__w_decl__\", '''x\n__w_addr__''', "
            "f'{R}__w_decl__']\n")
    assert native.work_in_c(code) == code


SAME_TEXT = """ruleset same_text
players 2..2
var n: int = 0
function okk(k: int): int = k + 1
turn { choose k from [1, 2] as "pick"  n = n + okk(k) }
end when n > 6
score(p) = n
"""


@needs_native
def test_a_function_whose_fast_code_reads_as_its_plain_code_runs_natively():
    # okk's fast code is the same text as its straightforward code, which is left in
    # Python: the native module must still have it, or the second compile of the program
    # misses it and the games fall back to Python
    ruleset = compile_sources(SourceSet(base=parse(SAME_TEXT, "rules.meeple"),
                                        sources={"rules.meeple": SAME_TEXT}))
    said = []
    ruleset.use_native(report=said.append)
    prog = ruleset.for_players(2)
    assert prog.native, said
    plain = compile_sources(SourceSet(base=parse(SAME_TEXT, "rules.meeple"),
                                      sources={"rules.meeple": SAME_TEXT})).for_players(2)
    assert sum(play_both(prog, plain, 2, seed) for seed in range(2)) > 0
    assert prog.native_fallbacks == 0


# ---------------------------------------------------------------- both compiles alike
# A program is compiled twice natively: in Python, recording its pieces of code (what the
# module is built from), then with each piece served by the module. These tests replace
# the module by a stand-in serving the recorded pieces as Python (no Cython, no build):
# the second compile must ask for nothing the first did not record.

class Replay:
    """A native module's stand-in: ``make`` serves exactly the recorded pieces."""

    def __init__(self, pieces: native.Pieces):
        self.order = pieces.order

    def make(self, ns: dict, twins: dict):
        served = {}
        for mode, src in self.order:
            if mode == "exec":
                served[(mode, src)] = defined = {}
                exec(compile(src, "<replay>", "exec"), ns, defined)  # noqa: S102 - generated code
            else:
                served[(mode, src)] = eval(compile(src, "<replay>", "eval"), ns)  # noqa: S307 - generated code
        return served, (lambda: None), [0]


def compiled_twice(ruleset, players: int) -> None:
    """Compiles the program as the native path does; NativeError if the compiles differ."""
    pieces = native.Pieces()
    first = interpreter.Program(ruleset.checked, players, ruleset.budgets, None, native=pieces)
    served = native.Served(Replay(pieces), pieces, first)
    interpreter.Program(ruleset.checked, players, ruleset.budgets, None, native=served)


def from_text(text: str):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


def test_a_function_whose_fast_code_reads_as_its_plain_code_is_recorded():
    compiled_twice(from_text(SAME_TEXT), 2)   # (without a build: fails as the test above)


def test_every_ruleset_of_the_language_reference_compiles_twice_alike():
    # language.md's examples use every construct of the language
    from docs_support import COMPLETE, compile_block
    for block in COMPLETE:
        ruleset = compile_block(block)
        try:
            compiled_twice(ruleset, max(ruleset.min_players, 1))
        except native.NativeError as e:
            pytest.fail(f"{block.id} ({block.header[1]}): {e}")


def random_rules(rnd: random.Random) -> str:
    """A small ruleset whose functions, board size, variables, turn, end and score are
    random expressions built of the same parts (so that texts recur in other places)."""
    funcs = []

    def expr(names: list[str], depth: int) -> str:
        if depth == 0 or rnd.random() < 0.25:
            return rnd.choice([*names, "1", "2"])
        a, b = expr(names, depth - 1), expr(names, depth - 1)
        shapes = [f"{a} + {b}", f"{a} * {b}", f"min({a}, {b})", f"max({a}, 3)",
                  f"if {a} > {b} then {a} else 2", f"sum(x{depth} + {a} for x{depth} in [{b}, 1])"]
        shapes += [f"{f}({a})" for f in funcs]
        return f"({rnd.choice(shapes)})"

    lines = ["ruleset random_rules", "players 2..2", "kind Pawn { size: int }", "var n: int = 0"]
    for i in range(rnd.randint(1, 4)):
        lines.append(f"function f{i}(k: int): int = {expr(['k'], rnd.randint(0, 3))}")
        funcs.append(f"f{i}")
    lines.append(f"board track: line(length: min({expr([], 2)}, 4) + 1) holds Pawn")
    lines.append(f"var m: int = {expr([], 2)}")
    lines.append(f'turn {{ choose k from [1, 2] as "pick"  n = n + min({expr(["k", "n"], 3)}, 3) }}')
    lines.append(f"end when {expr(['n'], 2)} > 6 or n > 6")
    lines.append(f"score(p) = {expr(['n', 'm'], 2)}")
    return "\n".join(lines) + "\n"


def test_random_rulesets_compile_twice_alike():
    rnd = random.Random(34)
    for case in range(25):
        text = random_rules(rnd)
        try:
            compiled_twice(from_text(text), 2)
        except native.NativeError as e:
            pytest.fail(f"case {case}: {e}\n{text}")


# ---------------------------------------------------------------- the modules kept, as files
# (interpreter/native/cython_code.py's obtain: the path of the Cython modules and of the kernels)

TINY = """#include <Python.h>
static PyObject *make(PyObject *self, PyObject *args) { Py_RETURN_NONE; }
static PyMethodDef methods[] = {{"make", make, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "%(name)s", NULL, -1, methods};
PyMODINIT_FUNC PyInit_%(name)s(void) {
    PyObject *m = PyModule_Create(&def);
    if (m && (PyModule_AddStringConstant(m, "KEY", "%(key)s") || PyModule_AddStringConstant(m, "WHO", "%(who)s"))) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
"""


def tiny_module(folder: Path, name: str, key: str, who: str) -> bytes:
    """The bytes of a tiny extension module (KEY, WHO and make, as obtain wants),
    compiled with the C compiler Python was built with; skips where there is none."""
    if sys.platform == "win32":
        pytest.skip("builds with a POSIX C compiler")
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    src, out = folder / f"{name}-{who}.c", folder / f"{name}-{who}.so"
    src.write_text(TINY % {"name": name, "key": key, "who": who}, encoding="utf-8")
    cmd = [*cc, "-shared", "-fPIC", "-O0", "-w", f"-I{sysconfig.get_paths()['include']}", str(src), "-o", str(out)]
    if sys.platform == "darwin":
        cmd[1:1] = ["-undefined", "dynamic_lookup"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    except OSError as e:
        pytest.skip(f"no C compiler: {e}")
    if done.returncode != 0:
        pytest.skip(f"no C compiler to build a module: {done.stderr[-300:]}")
    return out.read_bytes()


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """A module of its own (a name no other test loads), its bytes, the cache's native
    folder, and where the module and its digest are kept there."""
    from meeple.interpreter.native import cython_code as native
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MEEPLE_NO_CACHE", raising=False)
    name = f"meeple_native_test_{os.urandom(8).hex()}"
    key = "key-" + name
    data = tiny_module(tmp_path, name, key, "genuine")
    where = native.folder()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return {"name": name, "key": key, "data": data, "where": where, "so": where / (name + suffix),
            "digest": where / (name + ".sha256"), "tmp": tmp_path}


def keep(k: dict) -> None:
    """The module kept in the cache as obtain keeps it: the file, its sha256 beside it."""
    k["so"].write_bytes(k["data"])
    k["digest"].write_text(hashlib.sha256(k["data"]).hexdigest())
    os.chmod(k["so"], 0o600)
    os.chmod(k["digest"], 0o600)


def copied(data: bytes):
    """A build: writes ``data`` as the module in the folder it is given."""
    def build(folder: Path) -> Path:
        out = folder / "built.so"
        out.write_bytes(data)
        return out
    return build


def not_built(folder: Path) -> Path:
    raise AssertionError("built: the module kept should have been used")


def test_a_kept_module_loads_from_the_bytes_checked_even_if_its_file_changes_after(kept, monkeypatch):
    # the file replaced between the check of its digest and the load: what is loaded is
    # what was checked, never the file read again
    from meeple.interpreter.native import cython_code as native
    keep(kept)
    impostor = kept["tmp"] / "impostor.so"
    impostor.write_bytes(tiny_module(kept["tmp"], kept["name"], kept["key"], "impostor"))
    real = hashlib.sha256

    def sha256_then_swap(data=b"", **kw):
        h = real(data, **kw)
        if bytes(data) == kept["data"]:
            os.replace(impostor, kept["so"])     # the point between the check and the load
        return h
    monkeypatch.setattr(hashlib, "sha256", sha256_then_swap)
    mod, built, _ = native.obtain({}, kept["key"], kept["name"], not_built)
    assert not built and mod.WHO == "genuine"
    assert kept["so"].read_bytes() != kept["data"]   # (the swap did happen)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("which", ["so", "digest"])
def test_a_fifo_in_place_of_a_kept_module_or_its_digest_is_never_waited_for(kept, which):
    from meeple.interpreter.native import cython_code as native
    keep(kept)
    kept[which].unlink()
    os.mkfifo(kept[which], 0o600)
    got = []
    t = threading.Thread(target=lambda: got.append(native.obtain({}, kept["key"], kept["name"],
                                                                 copied(kept["data"]))), daemon=True)
    t.start()
    t.join(120)    # (only against a hang: no time is asserted)
    if t.is_alive():
        _unblock(kept[which])
        t.join(10)
        pytest.fail("obtain waited for a writer on the FIFO")
    mod, built, _ = got[0]
    assert built and mod.WHO == "genuine"       # built again, and kept as a regular file
    assert kept["so"].read_bytes() == kept["data"]


def _unblock(fifo: Path) -> None:
    """Opens a FIFO for writing (without waiting) and closes it: a reader blocked on it
    goes on."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


@pytest.mark.parametrize("cache", ["on", "off"])
@pytest.mark.parametrize("memory_files", [True, False], ids=["memory file", "private file"])
def test_no_build_folder_is_left_behind_built_or_failed(kept, monkeypatch, cache, memory_files):
    from meeple.interpreter.native import cython_code as native
    temp = kept["tmp"] / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    if cache == "off":
        monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    if not memory_files:      # as where there is no memfd_create: a file of the user's own
        monkeypatch.setattr(native, "MAX_HELD", 0)
    folders = []

    def build(folder: Path) -> Path:
        folders.append(folder)
        return copied(kept["data"])(folder)

    def fails(folder: Path) -> Path:
        folders.append(folder)
        (folder / "half.o").write_bytes(b"...")
        raise native.NativeError("the build failed: as a test asks")
    mod, built, _ = native.obtain({}, kept["key"], kept["name"], build)
    assert built and mod.WHO == "genuine"
    with pytest.raises(native.NativeError, match="as a test asks"):
        native.obtain({}, kept["key"] + "-other", kept["name"] + "_other", fails)
    assert [f.parent for f in folders] == [temp, temp]      # (built in the temporary folder)
    assert list(temp.iterdir()) == []


def test_no_build_folder_is_left_behind_by_the_workers(tmp_path, monkeypatch):
    # --no-cache: each worker builds its own kernel (here failing at once: an option the
    # compiler refuses) and the workers end without running their exit handlers
    monkeypatch.delenv("MEEPLE_KERNEL")
    if interpreter.kernel_status() is not None:
        pytest.skip(f"no kernel can be built here: {interpreter.kernel_status()}")
    temp = tmp_path / "temp"
    temp.mkdir()
    (tmp_path / "Cython").mkdir()      # no Cython: no second kind of build to wait for
    (tmp_path / "Cython" / "__init__.py").write_text("raise ImportError('not here')\n")
    env = {**os.environ, "TMPDIR": str(temp), "MEEPLE_KERNEL_CXXFLAGS": "--no-such-option",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = meeple("--no-cache", "simulate", TTT, "-n", "2", "-j", "2", "--native", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert "no kernel for ttt: the build failed" in done.stderr
    assert list(temp.iterdir()) == []
