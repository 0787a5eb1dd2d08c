"""Whole random games in the kernel, in one call (``interpreter.playouts``), against the
same kernel driven a move at a time from Python and against OpenSpiel's own C++ game
loop (``pyspiel.evaluate_bots`` with uniform random bots), in CPU time
(``time.process_time``), the three alternating in one process, best of ``--repeat``;
the kernels are built first (not counted).

    python benchmarks/bench_kernel_playouts.py [--repeat 3] [--only kalah,ttt] [--scale 1]

- **batch**: ``interpreter.playouts(program, games, seed=0)``, every game played in C++
  (each seat's moves drawn by its random bot's generator, as ``meeple simulate`` does);
- **compact**: ``interpreter.playouts(program, games, seed=0, compact=True)``, the same
  games, their numbers in flat arrays (no dict per game; freeing them is timed too);
- **per move**: ``game.apply(rnd.randrange(game.move_count()), safe=False)`` until the
  game is over (benchmarks/scoreboard.py's loop, ``undo_limit = 0``);
- **OpenSpiel**: ``pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)`` per
  game, with ``pyspiel.make_uniform_random_bot`` for every seat (the whole game in C++).

Prints one JSON line per game (games per CPU second each way, and OpenSpiel ÷ batch and
÷ compact: at most 1.0 means the batch is at least as fast), and with --markdown a table for
docs/performance.md.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple import interpreter  # noqa: E402

# (label, Meeple ruleset, players, OpenSpiel game, games per run)
GAMES = [
    ("tic-tac-toe", str(ROOT / "tests" / "testdata" / "ttt"), 2, "tic_tac_toe", 4000),
    ("kalah", "kalah", 2, "mancala", 2000),
    ("dots and boxes 3×3", "dots-and-boxes", 2, "dots_and_boxes(num_rows=3,num_cols=3)", 2000),
    ("go 9×9", "go", 2, "go(board_size=9,komi=7.5)", 60),
    ("chess", "chess", 2, "chess", 30),
    ("hearts", "hearts", 4, "hearts", 400),
    ("backgammon", "backgammon", 2, "backgammon", 100),
    # classic games written from the docs alone (tests/testdata, issue 36)
    ("connect four", str(ROOT / "tests" / "testdata" / "connect_four"), 2, "connect_four", 4000),
    ("breakthrough", str(ROOT / "tests" / "testdata" / "breakthrough"), 2, "breakthrough", 1000),
    ("othello", str(ROOT / "tests" / "testdata" / "othello"), 2, "othello", 300),
    ("checkers", str(ROOT / "tests" / "testdata" / "checkers"), 2, "checkers", 1000),
    ("hex 11×11", str(ROOT / "tests" / "testdata" / "hex"), 2, "hex", 1000),
    # a move of a cell, a quadrant and a turn: a tuple (issue 37)
    ("pentago", str(ROOT / "tests" / "testdata" / "pentago"), 2, "pentago", 1000),
    # results beyond win and loss: each seat's payoff (payoff(p) = ..., computed in the kernel)
    ("first-price auction, 3 players", str(ROOT / "tests" / "testdata" / "first_price_auction.meeple"), 3,
     "first_sealed_auction(players=3)", 4000),
]


def per_move(program, players: int, games: int) -> float:
    rnd = random.Random(1)
    t0 = time.process_time()
    for seed in range(games):
        g = program.new_game(players, seed)
        g.undo_limit = 0
        while not g.over:
            g.apply(rnd.randrange(g.move_count()), safe=False)
    return time.process_time() - t0


def batch(program, games: int, compact: bool = False) -> float:
    t0 = time.process_time()
    got = interpreter.playouts(program, games, seed=0, compact=compact)
    del got     # (the games' objects freed inside the timing)
    return time.process_time() - t0


def spiel(game, players: int, games: int) -> float:
    import pyspiel
    bots = [pyspiel.make_uniform_random_bot(p, 1) for p in range(players)]
    t0 = time.process_time()
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated words of the labels")
    ap.add_argument("--scale", type=float, default=1.0, help="games per run × this")
    ap.add_argument("--markdown", action="store_true", help="also print a table")
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    only = [o for o in args.only.split(",") if o]
    rows = []
    for label, ruleset, players, spiel_name, games in GAMES:
        if only and not any(o in label for o in only):
            continue
        games = max(1, int(games * args.scale))
        program = interpreter.load(ruleset, native=True).for_players(players)
        if not program.kernel:
            print(f"{label}: no kernel ({interpreter.kernel_status()})", file=sys.stderr)
            continue
        interpreter.playouts(program, 1)      # (built, and the start made, before the runs)
        game = pyspiel.load_game(spiel_name) if pyspiel else None
        best = {"batch": float("inf"), "compact": float("inf"), "per_move": float("inf"),
                "openspiel": float("inf")}
        for _ in range(args.repeat):
            best["batch"] = min(best["batch"], batch(program, games))
            best["compact"] = min(best["compact"], batch(program, games, compact=True))
            best["per_move"] = min(best["per_move"], per_move(program, players, games))
            if game is not None:
                best["openspiel"] = min(best["openspiel"], spiel(game, players, games))
        rate = {k: games / v if v not in (0, float("inf")) else None for k, v in best.items()}
        row = {"game": label, "games": games, **{f"{k}_games_per_s": round(v, 1) if v else None
                                                  for k, v in rate.items()},
               "batch_over_per_move": round(rate["batch"] / rate["per_move"], 2),
               "openspiel_over_batch": round(rate["openspiel"] / rate["batch"], 2) if rate["openspiel"] else None,
               "openspiel_over_compact": round(rate["openspiel"] / rate["compact"], 2) if rate["openspiel"] else None}
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.markdown:
        print("| game | batch (games/s) | per move (games/s) | batch ÷ per move | OpenSpiel C++ loop (games/s) "
              "| OpenSpiel ÷ batch | compact (games/s) | OpenSpiel ÷ compact |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            spiel_rate = f"{r['openspiel_games_per_s']:,.0f}" if r["openspiel_games_per_s"] else "—"
            ratio = f"{r['openspiel_over_batch']:.2f}" if r["openspiel_over_batch"] is not None else "—"
            ratio_c = f"{r['openspiel_over_compact']:.2f}" if r["openspiel_over_compact"] is not None else "—"
            print(f"| {r['game']} | {r['batch_games_per_s']:,.0f} | {r['per_move_games_per_s']:,.0f} | "
                  f"{r['batch_over_per_move']:.2f} | {spiel_rate} | {ratio} | {r['compact_games_per_s']:,.0f} "
                  f"| {ratio_c} |")


if __name__ == "__main__":
    main()
