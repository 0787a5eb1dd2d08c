"""Random playouts of a bundled ruleset, timed in CPU time (time.process_time), for A/B
comparisons of two checkouts on a busy machine: run it from each checkout's root,
alternately, and keep the best of several runs.

    python3 benchmarks/bench_playouts_ruleset.py [RULESET] [--games N] [--repeat R]

Prints the CPU seconds of the best run, the moves played and the moves per CPU second
(the same games every time: seeds 0..N-1, moves picked by random.Random(1)).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple import interpreter  # noqa: E402


def playouts(program, games: int) -> tuple[float, int]:
    rnd = random.Random(1)
    moves = 0
    t0 = time.process_time()
    for seed in range(games):
        g = program.new_game(2, seed)
        while not g.over:
            legal = g.legal_moves()
            g.apply(legal[rnd.randrange(len(legal))], safe=False)
            moves += 1
    return time.process_time() - t0, moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset", nargs="?", default="go")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    program = interpreter.load(a.ruleset)
    best, moves = min(playouts(program, a.games) for _ in range(a.repeat))
    print(f"{a.ruleset}: {a.games} games, {moves} moves, best {best:.3f} s CPU, "
          f"{moves / best:.0f} moves/s")


if __name__ == "__main__":
    main()
