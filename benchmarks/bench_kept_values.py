"""A ruleset whose every move runs a small search (tests/testdata/pure_search.meeple: rule
functions that read nothing but their arguments and call themselves), played with the
values of such functions kept for all the games (docs/language.md, 5.9) and without (each
call computed, as before: ``compile_functions.KEEP_DEEP`` off for the fast Python code,
``kernel_memo.KEEP_DEEP`` for a kernel), alternately in one process, in CPU time
(time.process_time): the best of several rounds.

    python3 benchmarks/bench_kept_values.py [--games N] [--rounds R] [--kernel]

Both count the same work and calls at every move (checked here too). ``--kernel``: the
kernels (two builds; the Python fast code keeps what it keeps in both).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.compiler import compile_functions  # noqa: E402
from meeple.interpreter.native import kernel_memo  # noqa: E402

from meeple import interpreter  # noqa: E402

RULESET = str(ROOT / "tests" / "testdata" / "pure_search.meeple")


def program(keep: bool, kernel: bool):
    switch = kernel_memo if kernel else compile_functions
    switch.KEEP_DEEP = keep
    try:
        rules = interpreter.load(RULESET, cache=False)
        if kernel:
            assert rules.use_native(report=False, kernel_only=True)
        prog = rules.for_players(2)
        assert prog.kernel == kernel
        prog.new_game(2, 0)   # (the kernel is built now, not timed)
        return prog
    finally:
        switch.KEEP_DEEP = True


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
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kernel", action="store_true")
    a = ap.parse_args()
    best = {"computed": float("inf"), "kept": float("inf")}
    if a.kernel:   # (two builds, once: a kernel's keeps are its module's, for every program)
        before, after = program(False, True), program(True, True)
    for _ in range(a.rounds):   # (Python: a new program each round, whose first game computes)
        if not a.kernel:
            before, after = program(False, False), program(True, False)
        t_before, c_before = games(before, a.games)
        t_after, c_after = games(after, a.games)
        assert c_before == c_after, "the work and calls counted differ"
        best["computed"] = min(best["computed"], t_before)
        best["kept"] = min(best["kept"], t_after)
    moves = len(c_after)
    calls = sum(c for _, c in c_after)
    print(f"{'kernel' if a.kernel else 'Python'}: {a.games} games, {moves} moves, {calls} calls counted; "
          f"best of {a.rounds} rounds, CPU: computed {best['computed']:.3f} s, kept {best['kept']:.3f} s "
          f"({best['computed'] / best['kept']:.0f}x)")


if __name__ == "__main__":
    main()
