"""The long comparison of Hearts with OpenSpiel's `hearts` (CI plays a few hundred deals
in tests/test_hearts_openspiel.py; this plays as many as you ask): the same pass
direction, deal, passes and plays in both engines, chosen at random; the same player to
move and the same legal cards at every decision, the same points at the end.

    python benchmarks/bench_hearts_openspiel.py [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import time

from openspiel_compare import load, version

compare = load("test_hearts_openspiel")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000, help="deals to play")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"open_spiel {version()}")
    t0 = time.perf_counter()
    seen = compare.play_random_games(args.games, args.seed)
    print(f"{seen['deals']} deals agreed ({seen['passes']} with a pass), "
          f"{seen['decisions']:,} decisions compared, {seen['moons']} shot the moon "
          f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
