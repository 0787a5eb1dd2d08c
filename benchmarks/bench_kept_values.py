"""A ruleset whose every move runs a small search (tests/testdata/pure_search.meeple: rule
functions that read nothing but their arguments and call themselves), played by the fast
Python code with the values of such functions kept for all the games (docs/language.md,
5.9) and without (``compile_functions.KEEP_DEEP`` off: each call computed, as before),
alternately in one process, in CPU time (time.process_time): the best of several rounds.

    python3 benchmarks/bench_kept_values.py [--games N] [--rounds R]

Both count the same work and calls at every move (checked here too).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.compiler import compile_functions  # noqa: E402

from meeple import interpreter  # noqa: E402

RULESET = str(ROOT / "tests" / "testdata" / "pure_search.meeple")


def program(keep: bool):
    compile_functions.KEEP_DEEP = keep
    try:
        return interpreter.load(RULESET, cache=False).for_players(2)
    finally:
        compile_functions.KEEP_DEEP = True


def games(prog, n: int) -> tuple[float, list]:
    """n games, each seat taking the first, then the last option in turn: the CPU
    seconds and the (work, calls) of every move."""
    counted = []
    t0 = time.process_time()
    for seed in range(n):
        g = prog.new_game(2, seed)
        while not g.over:
            g.apply(0 if (seed + g.turn_number) % 2 else g.move_count(g.deciding[0]) - 1, safe=False)
            counted.append((g.work_spent, g.calls_spent))
    return time.process_time() - t0, counted


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    best = {"computed": float("inf"), "kept": float("inf")}
    for _ in range(a.rounds):   # (a new program each round: the first game computes the values)
        before, after = program(False), program(True)
        t_before, c_before = games(before, a.games)
        t_after, c_after = games(after, a.games)
        assert c_before == c_after, "the work and calls counted differ"
        best["computed"] = min(best["computed"], t_before)
        best["kept"] = min(best["kept"], t_after)
    moves = len(c_after)
    calls = sum(c for _, c in c_after)
    print(f"{a.games} games, {moves} moves, {calls} calls counted; best of {a.rounds} rounds, CPU: "
          f"computed {best['computed']:.3f} s, kept {best['kept']:.3f} s "
          f"({best['computed'] / best['kept']:.0f}x)")


if __name__ == "__main__":
    main()
