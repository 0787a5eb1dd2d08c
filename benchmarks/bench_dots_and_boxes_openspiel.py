"""The long comparison of Dots and Boxes with OpenSpiel's `dots_and_boxes` (CI plays a
few hundred games in tests/test_dots_and_boxes_openspiel.py; this plays as many as you
ask): random games move by move, the same legal lines, the same player to move and the
same returns, on 3 × 3 boxes and on 2 × 2 (the variant small).

    python benchmarks/bench_dots_and_boxes_openspiel.py [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import time

from openspiel_compare import load, version

compare = load("test_dots_and_boxes_openspiel")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000, help="games of each size")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"open_spiel {version()}")
    for variant in (None, "small"):
        rows, cols = compare.SIZES[variant]
        t0 = time.perf_counter()
        seen = compare.play_random_games(variant, args.games, args.seed)
        print(f"{rows} x {cols} boxes: {args.games} games agreed, {seen['moves']:,} moves, "
              f"{seen['extra turns']:,} extra turns, {seen['draws']} draws "
              f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
