"""Search bots on a kernel: the same bot's moves from the same positions, its game
played in Python and with native code (``load(..., native=True)``: a kernel where the
ruleset is covered), CPU time; the moves chosen must be the same.

    python3 benchmarks/bench_search_native.py chess mcts:iterations=300,heuristic=0
    python3 benchmarks/bench_search_native.py go mcts:iterations=300,heuristic=0
    python3 benchmarks/bench_search_native.py kalah mcts:iterations=1000,heuristic=0

Each run plays ten moves (move i: the i-th legal move, modulo their number), reads the
game's state as the CLI does, then asks a fresh bot (seeded by the turn) for three
moves in a row, reading the state after each. Natively it runs twice: the rollouts in
one kernel call each (``KernelGame.random_moves``, the default) and step by step from
Python, one kernel call per move (as before the rollouts moved into the kernel). It
prints the CPU time per decision. Results go to docs/performance.md ("Search bots").
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from meeple import interpreter


def run(ruleset: str, spec: str, native: bool, per_move: bool = False) -> tuple[float, list[int]]:
    from meeple.interpreter.native.kgame import KernelGame
    fast = KernelGame.random_moves
    if per_move:   # (the search's Python loop then plays each step through the kernel)
        KernelGame.random_moves = lambda self, rng, limit: None
    try:
        return _run(ruleset, spec, native)
    finally:
        KernelGame.random_moves = fast


def _run(ruleset: str, spec: str, native: bool) -> tuple[float, list[int]]:
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
    return (time.process_time() - t0) / 3, chosen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("bot", help="a search bot's spec, e.g. mcts:iterations=300,heuristic=0")
    args = ap.parse_args()
    python, a = run(args.ruleset, args.bot, False)
    per_move, c = run(args.ruleset, args.bot, True, per_move=True)
    native, b = run(args.ruleset, args.bot, True)
    if not a == b == c:
        sys.exit(f"the bot chose {a} in Python, {c} natively step by step and {b} natively")
    print(f"{args.ruleset} {args.bot}, CPU per decision: {python:.3f} s in Python, "
          f"{per_move:.3f} s natively with rollouts step by step, {native:.3f} s natively with "
          f"rollouts in the kernel ({python / native:.1f}x Python, {per_move / native:.1f}x "
          f"step by step), the same moves {a}")


if __name__ == "__main__":
    main()
