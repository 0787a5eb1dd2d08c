"""Go against OpenSpiel's `go(board_size=9)`, on many random games: each game (by seed)
is played move by move in both engines, which must offer the same moves and end with
the same result (tests/test_go_openspiel.py, which runs a few of them in CI).

    python benchmarks/bench_go_openspiel.py [--games N] [--first SEED]

Prints the move paths from the start (perft) in both engines, the games, the moves compared, how the games ended, the seeds of the games that
ended on a repeated position (a draw in OpenSpiel) and the time taken.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import pyspiel
from meeple.interpreter.analysis.perft import perft
from test_go_openspiel import play_both, program, spiel_perft


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--depth", type=int, default=3, help="move paths from the start up to this depth")
    args = ap.parse_args()
    spiel = pyspiel.load_game("go(board_size=9)")
    for d in range(1, args.depth + 1):
        mine, theirs = perft(program().new_game(2, 0), d), spiel_perft(spiel.new_initial_state(), d)
        print(f"depth {d}: {mine:,} move paths in Meeple, {theirs:,} in OpenSpiel")
        assert mine == theirs
    moves, drawn, t0 = 0, [], time.perf_counter()
    for seed in range(args.first, args.first + args.games):
        n, draw = play_both(spiel, seed)
        moves += n
        if draw:
            drawn.append(seed)
    dt = time.perf_counter() - t0
    print(f"open-spiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '?'}: "
          f"{args.games} games, {moves:,} moves agreed, {len(drawn)} drawn on a repeated "
          f"position (seeds {drawn}), {dt:.1f} s")


if __name__ == "__main__":
    main()
