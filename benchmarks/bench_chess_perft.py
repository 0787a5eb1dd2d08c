"""Chess perft, the long counts that the tests leave out: the number of move paths from
the start (depth 5: 4,865,609) and from "Kiwipete" (depth 4: 4,085,603), each checked
against its published count (https://www.chessprogramming.org/Perft_Results), with the
time the Meeple interpreter takes, wall clock and CPU (meeple.interpreter.perft: a copy of the game and one
move per path, the legal moves computed by the rules of rulesets/chess).

    python benchmarks/bench_chess_perft.py [--start-depth 5] [--kiwipete-depth 4]
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from chess_fen import KIWIPETE, START, fen_position  # noqa: E402

from meeple import interpreter  # noqa: E402

PUBLISHED = {
    "start": [20, 400, 8902, 197281, 4865609, 119060324],
    "kiwipete": [48, 2039, 97862, 4085603, 193690690],
}


def run(name: str, fen: str, depth: int) -> bool:
    game = fen_position(fen)
    ok = True
    for d in range(1, depth + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        n = interpreter.perft(game, d)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        want = PUBLISHED[name][d - 1]
        ok &= n == want
        print(f"{name:9} depth {d}: {n:>11,} paths  {dt:8.2f} s ({cpu:.2f} s of CPU)  "
              f"{n / cpu if cpu else 0:>9,.0f} paths per CPU second  "
              f"{'ok' if n == want else f'WRONG, published {want:,}'}", flush=True)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start-depth", type=int, default=5)
    ap.add_argument("--kiwipete-depth", type=int, default=4)
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    ok = run("start", START, args.start_depth)
    ok &= run("kiwipete", KIWIPETE, args.kiwipete_depth)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
