"""Random playouts of the bundled classics in CPU time (``time.process_time``), for A/B
comparisons of two checkouts on a busy machine: run it once per checkout, alternating.

    python benchmarks/bench_playouts_cpu.py [--root CHECKOUT] [--only ttt,chess]

Prints one JSON line: games per CPU second for each game (best of 2 runs; the same
seeds and the same random choices in every checkout). Export an older commit with
``git archive <commit> | tar -x -C /tmp/old`` and pass ``--root /tmp/old``.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

GAMES = [("ttt", "tests/testdata/ttt", 2, 400), ("kalah", "kalah", 2, 100),
         ("dots", "dots-and-boxes", 2, 100), ("go", "go", 2, 10), ("chess", "chess", 2, 6),
         ("cherokee", "cherokee", 3, 40)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--only", default="", help="comma-separated labels")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    from meeple import interpreter
    only = set(filter(None, args.only.split(",")))
    out = {}
    for label, ruleset, players, n in GAMES:
        if only and label not in only:
            continue
        path = Path(args.root) / ruleset
        prog = interpreter.load(str(path) if path.exists() else ruleset)
        best = float("inf")
        for _ in range(2):
            rnd = random.Random(1)
            t0 = time.process_time()
            for seed in range(n):
                g = prog.new_game(players, seed)
                while not g.over:
                    legal = g.legal_moves()
                    g.apply(legal[rnd.randrange(len(legal))], safe=False)
            best = min(best, time.process_time() - t0)
        out[label] = round(n / best, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
