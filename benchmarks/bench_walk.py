"""What the reference meaning of expressions costs (issue 35, item 2): random games of
every bundled ruleset in Python, CPU time, with expressions evaluated by the tree walk
(``interpreter/core/evaluate.py``, ``MODE = "tree"``), by the straightforward compiled
code alone (``codegen.OPTIMIZE = False``) and by the fast code (the default), alternating
in one process (the configurations' order turns by one each round), best of N rounds.
Every configuration must play the same games (their moves are compared).

    python3 benchmarks/bench_walk.py [--rounds 3] [--games 2] [--only chess,go]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.compiler import codegen  # noqa: E402
from meeple.interpreter.core import evaluate  # noqa: E402

from meeple import interpreter  # noqa: E402

# (ruleset, players, most moves per game)
GAMES = [("backgammon", 2, 300), ("brotherhood-of-nine", 2, 200), ("cherokee", 3, None), ("chess", 2, 200),
         ("clans-and-glory", 2, 200), ("dots-and-boxes", 2, None), ("go", 2, 200), ("hearts", 4, None),
         ("kalah", 2, None)]
CONFIGS = {"walk": ("tree", False), "straightforward": ("", False), "fast": ("", True)}


def program(ruleset: str, players: int, config: str):
    evaluate.MODE, codegen.OPTIMIZE = CONFIGS[config]
    try:
        return interpreter.load(ruleset).for_players(players)
    finally:
        evaluate.MODE, codegen.OPTIMIZE = "", True


def play(prog, players: int, games: int, most: int | None) -> tuple[float, list]:
    """CPU seconds of ``games`` random games (seeds 0, 1, ...) and their moves."""
    moves: list = []
    start = time.process_time()
    for seed in range(games):
        g, rnd = prog.new_game(players, seed), random.Random(seed)
        while not g.over and (most is None or len(moves) < most * (seed + 1)):
            legal = g.legal_moves()
            m = legal[rnd.randrange(len(legal))]
            moves.append(m.notation)
            g.apply(m, safe=False)
    return time.process_time() - start, moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    print(f"{'ruleset':<22}" + "".join(f"{c:>17}" for c in CONFIGS) + "   walk ÷ straightforward")
    for ruleset, players, most in GAMES:
        if only and ruleset not in only:
            continue
        progs = {c: program(ruleset, players, c) for c in CONFIGS}
        best = {c: float("inf") for c in CONFIGS}
        order = list(CONFIGS)
        for r in range(args.rounds):
            played = {}
            for c in order[r % len(order):] + order[:r % len(order)]:
                t, played[c] = play(progs[c], players, args.games, most)
                best[c] = min(best[c], t)
            assert len({tuple(m) for m in played.values()}) == 1, ruleset
        print(f"{ruleset:<22}" + "".join(f"{best[c]:>16.3f}s" for c in CONFIGS)
              + f"   {best['walk'] / best['straightforward']:.1f}×")


if __name__ == "__main__":
    main()
