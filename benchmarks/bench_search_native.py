"""Search bots on a kernel: the same bot's moves from the same positions, its game
played in Python and with native code (``load(..., native=True)``: a kernel where the
ruleset is covered), CPU time; the moves chosen must be the same.

    python3 benchmarks/bench_search_native.py chess mcts:iterations=300,heuristic=0
    python3 benchmarks/bench_search_native.py go mcts:iterations=300,heuristic=0
    python3 benchmarks/bench_search_native.py kalah mcts:iterations=1000,heuristic=0

Each run plays ten moves (move i: the i-th legal move, modulo their number), reads the
game's state as the CLI does, then asks a fresh bot (seeded by the turn) for three
moves in a row, reading the state after each. Results go to docs/performance.md
("Kernels").
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from meeple import interpreter


def run(ruleset: str, spec: str, native: bool) -> tuple[float, list[int]]:
    prog = interpreter.load(ruleset, native=native).for_players(2)
    game = prog.new_game(2, 1)
    for i in range(10):
        game.apply(i % game.move_count())
    game.state   # noqa: B018 - read, as the CLI reads it after every move
    t0 = time.process_time()
    chosen = []
    for turn in range(3):
        i = interpreter.bot_move(interpreter.make_bot(spec, turn), game, game.active_player)
        chosen.append(i)
        game.apply(i)
        game.state  # noqa: B018 - as above
    return time.process_time() - t0, chosen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("bot", help="a search bot's spec, e.g. mcts:iterations=300,heuristic=0")
    args = ap.parse_args()
    python, a = run(args.ruleset, args.bot, False)
    native, b = run(args.ruleset, args.bot, True)
    if a != b:
        sys.exit(f"the bot chose {a} in Python and {b} natively")
    print(f"{args.ruleset} {args.bot}: {python:.2f} s in Python, {native:.2f} s natively "
          f"({python / native:.1f}x), the same moves {a}")


if __name__ == "__main__":
    main()
