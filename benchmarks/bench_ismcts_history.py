"""What ismcts's samples that respect the past cost: CPU time per move with and without.

    python3 benchmarks/bench_ismcts_history.py hearts --players 4 --games 3
    python3 benchmarks/bench_ismcts_history.py cherokee --players 3 --games 3

Plays ``--games`` games at random (game k from seed k); at every decision of seat 0
with more than one move, asks ``ismcts:iterations=N,history=on`` and ``...history=off``
(same bot seed) for their move, one after the other on the same position, and adds up
the CPU time (time.process_time) of each. Prints the mean time per move of both, their
ratio, how often the two chose the same move, and how many determinizations found a
sample agreeing with the whole past (the others fell back on the best one drawn).
Results go to docs/performance.md ("ISMCTS samples that respect the past").
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import importlib

from meeple.interpreter import bot_move, make_bot

from meeple import interpreter

det = importlib.import_module("meeple.interpreter.bots.determinize")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=100)
    args = ap.parse_args()
    ruleset = interpreter.load(args.ruleset)
    cpu = {"on": 0.0, "off": 0.0}
    moves = 0
    counts = {"found": 0, "missed": 0}
    real = det.Past.__init__
    pasts: list = []  # the Pasts made while a bot chooses (to count their verdicts)

    def counting(self, *a):
        real(self, *a)
        pasts.append(self)

    det.Past.__init__ = counting
    for k in range(args.games):
        game = ruleset.new_game(players=args.players, seed=k)
        rnd = random.Random(k)
        while not game.over:
            seat = game.deciding[0]
            legal = game.legal_moves(seat)
            if seat == 0 and len(legal) > 1:
                chosen = {}
                for h in ("on", "off"):
                    pasts.clear()
                    bot = make_bot(f"ismcts:iterations={args.iterations},history={h}", k)
                    t = time.process_time()
                    chosen[h] = bot_move(bot, game, seat)
                    cpu[h] += time.process_time() - t
                    for p in pasts:
                        counts["found"] += p.found
                        counts["missed"] += p.missed
                moves += 1
            game.apply(legal[rnd.randrange(len(legal))], seat=seat)
    on, off = cpu["on"] / moves, cpu["off"] / moves
    print(f"{args.ruleset}: {moves} moves of seat 0; CPU per move: history=on {on:.3f} s, "
          f"history=off {off:.3f} s (x{on / off:.1f}); "
          f"samples agreeing with the whole past: {counts['found']} of "
          f"{counts['found'] + counts['missed']}")


if __name__ == "__main__":
    main()
