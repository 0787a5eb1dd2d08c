"""Complete random 3-player Cherokee games per second, in one process, with the legal
moves enumerated at every decision: the Meeple interpreter against a hand-written
Python engine (benchmarks/reference_cherokee.py).

    python benchmarks/bench_cherokee.py [--games N] [--players P] [--repeat R]
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference_cherokee

from meeple import interpreter


def run_interpreter(prog, games: int, players: int, safe: bool) -> tuple[float, int]:
    rnd = random.Random(1)
    moves = 0
    t0 = time.perf_counter()
    for seed in range(games):
        g = prog.new_game(players, seed)
        while not g.over:
            legal = g.legal_moves()
            g.apply(legal[rnd.randrange(len(legal))], safe=safe)
            moves += 1
    return time.perf_counter() - t0, moves


def run_reference(games: int, players: int) -> tuple[float, int]:
    rnd = random.Random(1)
    moves = 0
    t0 = time.perf_counter()
    for seed in range(games):
        g = reference_cherokee.random_game(seed, players)
        while not g.over:
            legal = g.legal()
            g.apply(rnd.randrange(len(legal)))
            moves += 1
    return time.perf_counter() - t0, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    a = ap.parse_args()
    t0 = time.perf_counter()
    prog = interpreter.load("cherokee")
    compile_s = time.perf_counter() - t0
    rows = []
    for label, fn in (
        ("interpreter, apply(safe=True)", lambda: run_interpreter(prog, a.games, a.players, True)),
        ("interpreter, apply(safe=False)", lambda: run_interpreter(prog, a.games, a.players, False)),
        ("hand-written reference engine", lambda: run_reference(a.games, a.players)),
    ):
        best = min((fn() for _ in range(a.repeat)), key=lambda x: x[0])
        rows.append((label, a.games / best[0], best[1] / best[0], best[1] / a.games))
    print(f"Python {platform.python_version()} on {platform.machine()}, {a.players} players, "
          f"{a.games} games, best of {a.repeat}; ruleset load+check+compile {compile_s * 1000:.0f} ms")
    print(f"{'engine':34} {'games/s':>9} {'moves/s':>9} {'moves/game':>11}")
    for label, gps, mps, mpg in rows:
        print(f"{label:34} {gps:9.1f} {mps:9.0f} {mpg:11.1f}")
    print(f"interpreter / reference: {rows[0][1] / rows[2][1]:.2f} (safe), {rows[1][1] / rows[2][1]:.2f} (unsafe)")


if __name__ == "__main__":
    main()
