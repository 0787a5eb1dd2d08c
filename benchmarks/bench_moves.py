"""The cost of a move around the rules (issue 13 §1): random playouts
(``legal_moves()`` + ``apply(move, safe=False)``, no notation read) and perft (apply and
undo), in CPU seconds (``time.process_time``), best of ``--repeat`` runs.

    python benchmarks/bench_moves.py                 # this checkout
    python benchmarks/bench_moves.py --root /tmp/old # another one (``git archive``)

Run it on two checkouts one after the other, twice, to compare them on a noisy machine.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

PLAYOUTS = [("tests/testdata/ttt", 2, 2000), ("cherokee", 3, 100), ("chess", 2, 8),
            ("kalah", 2, 200)]
PERFT = [("tests/testdata/ttt", 6), ("kalah", 7), ("dots-and-boxes", 4), ("chess", 3)]


def playouts(interpreter, name: str, players: int, games: int, repeat: int) -> tuple[int, float]:
    rules = interpreter.load(name)
    best, moves = float("inf"), 0
    for _ in range(repeat):
        rnd, moves = random.Random(1), 0
        start = time.process_time()
        for seed in range(games):
            game = rules.new_game(players, seed)
            while not game.over:
                legal = game.legal_moves()
                game.apply(legal[rnd.randrange(len(legal))], safe=False)
                moves += 1
        best = min(best, time.process_time() - start)
    return moves, best


def perft(interpreter, name: str, depth: int, repeat: int) -> tuple[int, float]:
    rules = interpreter.load(name)
    best, paths = float("inf"), 0
    for _ in range(repeat):
        game = rules.new_game(2, 0)
        start = time.process_time()
        paths = interpreter.perft(game, depth)
        best = min(best, time.process_time() - start)
    return paths, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="the checkout to measure (default: this one)")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    os.chdir(args.root)
    from meeple import interpreter
    print("| what | moves or paths | CPU | per CPU second |\n|---|---:|---:|---:|")
    for name, players, games in PLAYOUTS:
        moves, cpu = playouts(interpreter, name, players, games, args.repeat)
        print(f"| random playouts, {name} ({games} games) | {moves:,} | {cpu:.2f} s | "
              f"{moves / cpu:,.0f} |", flush=True)
    for name, depth in PERFT:
        paths, cpu = perft(interpreter, name, depth, args.repeat)
        print(f"| perft {name}, depth {depth} | {paths:,} | {cpu:.2f} s | {paths / cpu:,.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
