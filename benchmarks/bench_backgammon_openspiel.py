"""The long comparison of Backgammon with OpenSpiel's `backgammon` (CI plays a hundred
games in tests/test_backgammon_openspiel.py; this plays as many as you ask): random
games with the same dice, every turn's legal pairs of checker moves compared as
OpenSpiel's actions, and the same returns (1, 2 for a gammon, 3 for a backgammon).

    python benchmarks/bench_backgammon_openspiel.py [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import time

from openspiel_compare import load

compare = load("test_backgammon_openspiel")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    seen = compare.play_random_games(args.games, args.seed)
    print(f"{args.games} games agreed ({time.perf_counter() - t0:.1f} s): "
          f"{seen['turns compared']:,} decisions compared ({seen['actions']:,} actions), "
          f"{seen['passes']:,} passes; {seen['single']} single games, {seen['gammon']} gammons, "
          f"{seen['backgammon']} backgammons; {seen['difference']} first halves of a double "
          f"where OpenSpiel also offers moves that waste numbers")


if __name__ == "__main__":
    main()
