"""What each optimised layer of the pure-Python engine earns (issue 35, item 2): random
games of every bundled ruleset and a few classics of tests/testdata, in Python
(``native=False``), CPU time, with each layer on and off, alternating in one process,
best of N rounds; and the lines of code of each layer.

    python3 benchmarks/bench_fast_python.py [--rounds 3] [--only chess,go] [--sites [SITE,...]]
        [--ways playouts,simulate,bots,moves] [--configs "all on,fused off"]
        [--group NAME=SITE,SITE ...]

The layers: the fast rule code (``codegen.OPTIMIZE``: expressions and functions
compiled a second time, inlined and with loops written out; fused statements are part
of it), the fused statements (``fused.fuse``, switched off alone by making it fuse
nothing), and the runtime's ``FAST_PATHS`` branches (``runtime.FAST_PATHS``, as
tests/lockstep.py's ``straight`` turns them off). With ``--sites`` each ``FAST_PATHS``
branch is also switched off alone: its function rebuilt from its source with that one
test read as False; with ``--group`` the branches named are off at once (a branch is
named as the benchmark prints it, e.g. ``game.Game.find_move#2``). A game's time is four ways of playing it, one after the other:
``interpreter.playouts`` (random playouts), ``simulation.play_game`` with random bots
(``meeple simulate``'s games in Python), random bots through ``bot_move`` (the
documented loop of a bot) and ``legal_moves()``/``apply(move)`` (a user interface's
loop); ``--ways`` picks some. Every configuration must play the same games (their
results are compared). The configurations' order turns by one each round.
"""
from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import inspect
import json
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter import bot_move, bots as bots_module, make_bot, playouts  # noqa: E402
from meeple.interpreter.analysis import simulation  # noqa: E402
from meeple.interpreter.compiler import codegen, fused  # noqa: E402
from meeple.interpreter.play import game as game_module, runtime  # noqa: E402

from meeple import interpreter  # noqa: E402

# (label, ruleset, variants, players, games per way of playing, most moves per game)
GAMES = [
    ("backgammon", "backgammon", (), 2, 8, 300),
    ("brotherhood-of-nine", "brotherhood-of-nine", (), 2, 60, 200),
    ("cherokee", "cherokee", (), 3, 20, None),
    ("chess", "chess", (), 2, 3, 200),
    ("clans-and-glory", "clans-and-glory", (), 2, 100, 200),
    ("dots-and-boxes", "dots-and-boxes", (), 2, 200, None),
    ("go", "go", (), 2, 10, 200),
    ("hearts", "hearts", (), 4, 60, None),
    ("kalah", "kalah", (), 2, 100, None),
    ("ttt", "tests/testdata/ttt", (), 2, 600, None),
    ("connect_four", "tests/testdata/connect_four", (), 2, 200, None),
    ("othello", "tests/testdata/othello", (), 2, 14, None),
    ("checkers", "tests/testdata/checkers", (), 2, 35, 200),
]

# the configurations: (name, fast rule code, fused statements, FAST_PATHS)
CONFIGS = [
    ("all on", True, True, True),
    ("fast code off", False, False, True),
    ("fused off", True, False, True),
    ("FAST_PATHS off", True, True, False),
    ("all off", False, False, False),
]

LAYER_FILES = {
    "fast rule code": ["interpreter/compiler/codegen.py", "interpreter/compiler/codegen_base.py",
                       "interpreter/compiler/codegen_calls.py", "interpreter/compiler/codegen_keys.py",
                       "interpreter/compiler/codegen_ranges.py", "interpreter/compiler/codegen_statements.py",
                       "interpreter/compiler/codegen_static.py"],
    "fused statements": ["interpreter/compiler/fused.py"],
}


def program(label: str, ruleset: str, variants, players: int, fast: bool, fuse: bool):
    """The program, compiled (a program is compiled when first asked for: here, while
    the settings hold)."""
    path = ROOT / ruleset
    real = fused.fuse
    codegen.OPTIMIZE = fast
    if not fuse:
        fused.fuse = lambda prog, pc: None
    try:
        rules = interpreter.load(str(path) if path.exists() else ruleset, variants, cache=False)
        return rules.for_players(players)
    finally:
        codegen.OPTIMIZE = True
        fused.fuse = real


def play(prog, players: int, n: int, most: int | None, ways) -> list:
    """n games each of the ways asked; what they gave (to compare configurations)."""
    cap = most or 100_000
    out: list = []
    if "playouts" in ways:
        out += [(g["result"], g["moves"], str(g["error"])) for g in playouts(prog, n, seed=1, max_moves=cap)]
    if "simulate" in ways:
        for spec in simulation.specs(players, lambda i: ["random"] * players, n, seed=2, max_moves=cap):
            g = simulation.play_game(prog, spec)
            out.append((g["result"], g["moves"], str(g["error"])))
    if "bots" in ways:
        for seed in range(n):
            g = prog.new_game(players, seed)
            bots = [make_bot("random", interpreter.bot_seed(seed, 0, s)) for s in range(players)]
            k = 0
            while not g.over and k < cap:
                seat = g.deciding[0]
                g.apply(bot_move(bots[seat], g, seat), seat=seat)
                k += 1
            out.append((g.result, k))
    if "moves" in ways:
        rnd = random.Random(1)
        for seed in range(n):
            g = prog.new_game(players, seed)
            k = 0
            while not g.over and k < cap:
                legal = g.legal_moves()
                g.apply(legal[rnd.randrange(len(legal))], safe=False)
                k += 1
            out.append((g.result, k))
    return out


# ---------------------------------------------------------------- FAST_PATHS, one by one
def _reads_fast_paths(node) -> bool:
    return (isinstance(node, ast.Name) and node.id == "FAST_PATHS" and isinstance(node.ctx, ast.Load)) \
        or (isinstance(node, ast.Attribute) and node.attr == "FAST_PATHS")


class _Off(ast.NodeTransformer):
    """Reads the k-th tests of FAST_PATHS in a function (k in ``ks``) as False."""

    def __init__(self, ks: set[int]):
        self.ks, self.seen = ks, 0

    def visit(self, node):
        if _reads_fast_paths(node):
            self.seen += 1
            if self.seen - 1 in self.ks:
                return ast.copy_location(ast.Constant(False), node)
            return node
        return self.generic_visit(node)


def sites() -> list[tuple]:
    """Every test of FAST_PATHS: (name, module, owner, attribute, k), k counting the
    tests of that function."""
    out = []
    for mod in (runtime, game_module, bots_module):
        for owner_name, owner in [("", mod)] + [(n, c) for n, c in vars(mod).items()
                                                if inspect.isclass(c) and c.__module__ == mod.__name__]:
            for attr, raw in vars(owner).items():
                fn = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
                if not inspect.isfunction(fn) or fn.__module__ != mod.__name__:
                    continue
                try:
                    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
                except OSError:   # (made by a dataclass)
                    continue
                count = sum(1 for n in ast.walk(tree) if _reads_fast_paths(n))
                line = fn.__code__.co_firstlineno
                for k in range(count):
                    short = mod.__name__.rsplit(".", 1)[-1]
                    if short == "__init__":
                        short = "bots"
                    where = f"{short}.{owner_name + '.' if owner_name else ''}{attr}"
                    out.append((f"{where}#{k + 1}" if count > 1 else where, mod, owner, attr, k, line))
    return out


def switched_off(mod, owner, attr: str, ks: set[int]):
    """The attribute rebuilt with its k-th tests of FAST_PATHS (k in ``ks``) read as False."""
    raw = vars(owner)[attr]
    fn = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    d = tree.body[0]
    d.decorator_list = []
    tree.body[0] = ast.fix_missing_locations(_Off(ks).visit(copy.deepcopy(d)))
    code = compile(tree, inspect.getsourcefile(fn), "exec")
    fcode = next(c for c in code.co_consts if hasattr(c, "co_name") and c.co_name == fn.__name__)
    new = type(fn)(fcode, mod.__dict__, fn.__name__, fn.__defaults__, None)
    new.__kwdefaults__ = fn.__kwdefaults__
    if isinstance(raw, property):
        return property(new, raw.fset, raw.fdel, raw.__doc__)
    if isinstance(raw, classmethod):
        return classmethod(new)
    if isinstance(raw, staticmethod):
        return staticmethod(new)
    return new


# ---------------------------------------------------------------- lines of code
def lines_of_code() -> dict:
    """Source lines (radon raw's SLOC) of the files of each layer, and the number of
    tests of FAST_PATHS."""
    out: dict = {}
    for layer, files in LAYER_FILES.items():
        raw = subprocess.run(["radon", "raw", "-s", *files], cwd=ROOT, capture_output=True, text=True)
        sloc = [int(x.split(":")[1]) for x in raw.stdout.splitlines() if x.strip().startswith("SLOC:")]
        out[layer] = sloc[-1] if sloc else None
    out["FAST_PATHS tests"] = len(sites())
    return out


def configurations(a) -> tuple[list, dict]:
    """The configurations asked for, and for each one that switches FAST_PATHS
    branches off, what to patch: (owner, attribute, new value)."""
    each = [c for c in CONFIGS if c[0] in a.configs.split(",") or c[0] == "all on"]
    patches: dict[str, list] = {}
    found = sites()
    if a.sites:
        for name, mod, owner, attr, k, _line in found:
            if a.sites == "all" or name in a.sites.split(","):
                patches[name] = [(owner, attr, switched_off(mod, owner, attr, {k}))]
                each.append((name, True, True, True))
    for group in a.group:   # (NAME=SITE,SITE...: those branches off at once)
        label, names = group.split("=", 1)
        by: dict = {}
        for name, mod, owner, attr, k, _line in found:
            if name in names.split(","):
                by.setdefault((mod, owner, attr), set()).add(k)
        patches[label] = [(owner, attr, switched_off(mod, owner, attr, ks)) for (mod, owner, attr), ks in by.items()]
        each.append((label, True, True, True))
    return each, patches


def timed(prog, game: tuple, paths: bool, patch: list, ways) -> tuple[float, str]:
    """The CPU seconds of a game's plays in one configuration, and a digest of what
    they gave."""
    _label, _ruleset, _variants, players, n, most = game
    runtime.FAST_PATHS = paths
    old = [(owner, attr, vars(owner)[attr]) for owner, attr, _ in patch]
    for owner, attr, new in patch:
        setattr(owner, attr, new)
    try:
        t0 = time.process_time()
        got = play(prog, players, n, most, ways)
        t = time.process_time() - t0
    finally:
        runtime.FAST_PATHS = True
        for owner, attr, was in old:
            setattr(owner, attr, was)
    return t, hashlib.sha256(repr(got).encode()).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated labels")
    ap.add_argument("--sites", nargs="?", const="all", default="",
                    help="each FAST_PATHS branch off alone too (or those named, comma-separated)")
    ap.add_argument("--group", action="append", default=[],
                    help="NAME=SITE,SITE,...: those FAST_PATHS branches off at once (repeatable)")
    ap.add_argument("--configs", default=",".join(c[0] for c in CONFIGS),
                    help="the layers' configurations timed (comma-separated)")
    ap.add_argument("--ways", default="playouts,simulate,bots,moves",
                    help="the ways of playing timed (comma-separated)")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    ways = set(a.ways.split(","))
    each, patches = configurations(a)
    table = {}
    for game in [g for g in GAMES if not only or g[0] in only]:
        label, ruleset, variants, players = game[:4]
        progs = {(f, u): program(label, ruleset, variants, players, f, u)
                 for f, u in {(c[1], c[2]) for c in each}}
        best = {c[0]: float("inf") for c in each}
        want = None
        for r in range(a.rounds + 1):   # (round 0 warms up: values kept by the programs)
            for name, fast, fuse, paths in each[r % len(each):] + each[:r % len(each)]:   # (rotated)
                t, digest = timed(progs[(fast, fuse)], game, paths, patches.get(name, []), ways)
                want = want or digest
                assert digest == want, (label, name, "played other games")
                if r:
                    best[name] = min(best[name], t)
        table[label] = best
        base = best["all on"]
        row = "  ".join(f"{k}: {v:.3f}s ({(v / base - 1) * 100:+.0f}%)" for k, v in best.items())
        print(f"{label}: {row}", flush=True)
    print(json.dumps({"cpu_seconds": table, "sloc": lines_of_code()}))


if __name__ == "__main__":
    main()
