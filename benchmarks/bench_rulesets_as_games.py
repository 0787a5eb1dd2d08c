"""The long runs of issue 15 (tests/test_openspiel_game.py and tests/test_pettingzoo.py
run short ones in CI): every bundled ruleset as an OpenSpiel game through OpenSpiel's own
random simulation test (whole games, serialization round trips at every state), and as a
PettingZoo environment through PettingZoo's api_test and seed_test with more cycles;
then CFR on Kuhn poker (tests/testdata/kuhn_poker.meeple) for more iterations.

    python benchmarks/bench_rulesets_as_games.py [--sims N] [--cycles C] [--cfr I] [NAME ...]

Needs open_spiel and pettingzoo (pip install 'meeple[openspiel,pettingzoo]'). Prints
each check with its CPU time; exits non-zero when one fails.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=2, help="OpenSpiel random simulations per game")
    ap.add_argument("--cycles", type=int, default=200, help="PettingZoo api_test cycles")
    ap.add_argument("--cfr", type=int, default=500, help="CFR iterations on Kuhn poker")
    ap.add_argument("names", nargs="*", help="bundled rulesets (default: all)")
    args = ap.parse_args()
    try:
        import pyspiel
        from pettingzoo.test import api_test, seed_test
    except ImportError as e:
        sys.exit(f"{e.name} is not installed: pip install 'meeple[openspiel,pettingzoo]'")
    from meeple.dsl.load import bundled_names

    from meeple import openspiel, pettingzoo
    failed = 0
    for name in args.names or bundled_names():
        for what, check in (
                ("openspiel random_sim_test", lambda name=name: pyspiel.random_sim_test(
                    pyspiel.load_game(f"meeple_{name.replace('-', '_')}"), num_sims=args.sims,
                    serialize=True, verbose=False)),
                ("pettingzoo api_test+seed_test", lambda name=name: (
                    api_test(pettingzoo.env(name), num_cycles=args.cycles),
                    seed_test(lambda: pettingzoo.env(name), num_cycles=args.cycles)))):
            t = time.process_time()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    check()
                status = "ok"
            except Exception as e:  # noqa: BLE001 - report every failure, go on
                status, failed = f"FAILED: {type(e).__name__}: {e}", failed + 1
            print(f"{name:22} {what:30} {time.process_time() - t:7.1f} s  {status}", flush=True)
    from open_spiel.python.algorithms import cfr, exploitability
    game = openspiel.load(str(ROOT / "tests" / "testdata" / "kuhn_poker.meeple"),
                          returns="scores", score_bound=2)
    solver, t = cfr.CFRSolver(game), time.process_time()
    for i in range(1, args.cfr + 1):
        solver.evaluate_and_update_policy()
        if i & (i - 1) == 0 or i == args.cfr:
            gap = exploitability.exploitability(game, solver.average_policy())
            print(f"kuhn poker CFR {i:6} iterations: exploitability {gap:.5f} "
                  f"({time.process_time() - t:.1f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
