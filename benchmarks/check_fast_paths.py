"""The long form of tests/test_fast_paths.py: many more random games of every bundled
ruleset, played with the fast rule code and with the straightforward code in lockstep
(same legal moves, same states, same results), each game to its end.

    python benchmarks/check_fast_paths.py [--games N]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="games per configuration")
    args = ap.parse_args()
    env = dict(os.environ, MEEPLE_FAST_PATH_GAMES=str(args.games), MEEPLE_FAST_PATH_MOVES="100000")
    return subprocess.call([sys.executable, "-m", "pytest", "-p", "no:randomly", "-n", "0", "-q",
                            str(ROOT / "tests" / "test_fast_paths.py")], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
