"""Native code against pure Python (interpreter/native/cython_code.py), in CPU time: random playouts
of the bundled classics (as benchmarks/bench_playouts_cpu.py plays them), each game's
runs alternating between the two programs in one process, best of ``--runs``; and the
build of each native module (Cython and the C compiler, CPU seconds of those processes,
in a fresh cache folder).

    python benchmarks/bench_native.py [--only ttt,chess] [--runs 3]

Prints one JSON line per game: games per CPU second in Python and natively, the ratio,
and the build's CPU and wall seconds.
"""
from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("ttt", "tests/testdata/ttt", 2, 400), ("kalah", "kalah", 2, 100),
         ("dots", "dots-and-boxes", 2, 100), ("go", "go", 2, 10), ("chess", "chess", 2, 6),
         ("cherokee", "cherokee", 3, 40)]


def playouts(prog, players: int, n: int) -> float:
    """CPU seconds of ``n`` random games (the same seeds and choices every time)."""
    rnd = random.Random(1)
    t0 = time.process_time()
    for seed in range(n):
        g = prog.new_game(players, seed)
        while not g.over:
            legal = g.legal_moves()
            g.apply(legal[rnd.randrange(len(legal))], safe=False)
    return time.process_time() - t0


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated labels")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="meeple-bench-native-")
    atexit.register(shutil.rmtree, cache, True)
    os.environ["MEEPLE_CACHE_DIR"] = cache
    sys.path.insert(0, str(ROOT))
    from meeple import interpreter
    only = set(filter(None, args.only.split(",")))
    for label, ruleset, players, n in GAMES:
        if only and label not in only:
            continue
        path = ROOT / ruleset
        name = str(path) if path.exists() else ruleset
        plain = interpreter.load(name).for_players(players)
        native_rs = interpreter.load(name, native=True)
        cpu, wall = children_cpu(), time.perf_counter()
        native = native_rs.for_players(players)
        build_cpu, build_wall = children_cpu() - cpu, time.perf_counter() - wall
        assert native.native, "native code could not be built"
        best = {"python": float("inf"), "native": float("inf")}
        for _ in range(args.runs):
            for kind, prog in (("python", plain), ("native", native)):
                best[kind] = min(best[kind], playouts(prog, players, n))
        print(json.dumps({"game": label, "python": round(n / best["python"], 1),
                          "native": round(n / best["native"], 1),
                          "ratio": round(best["python"] / best["native"], 2),
                          "build_cpu_s": round(build_cpu, 1), "build_wall_s": round(build_wall, 1),
                          "fallbacks": native.native_fallbacks}), flush=True)


if __name__ == "__main__":
    main()
