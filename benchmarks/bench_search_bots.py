"""How strong the search bots are: a bot against random bots, over many games.

    python3 benchmarks/bench_search_bots.py kalah mcts:iterations=200 --games 20
    python3 benchmarks/bench_search_bots.py dots-and-boxes mcts:iterations=200 --games 20
    python3 benchmarks/bench_search_bots.py cherokee ismcts:iterations=30 --players 3 --games 9
    python3 benchmarks/bench_search_bots.py two-player mcts:iterations=200 --games 10

``two-player`` runs every bundled two-player game without hidden information in turn
(``TWO_PLAYER``; issue 14: mcts:iterations=200 should win at least 90% of them).

The bot under test takes each seat in turn (game k: seat k mod players), every other seat
is ``random``; game k uses seed k, and every bot is seeded with bot_seed(0, k, seat), so a
run is reproducible. Prints wins, draws and losses of the bot, its win rate with a 95%
Wilson interval, what random bots would win on average, and the CPU time per game.
Results go to docs/performance.md ("Search bots (issue 14)").
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from meeple.interpreter import bot_move, bot_seed, make_bot

from meeple import interpreter


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    mid = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def play(ruleset, players: int, specs: list[str], seed: int, game_index: int) -> dict:
    game = ruleset.new_game(players=players, seed=seed)
    bots = [make_bot(spec, bot_seed(0, game_index, s)) for s, spec in enumerate(specs)]
    while not game.over:
        seat = game.deciding[0]
        game.apply(bot_move(bots[seat], game, seat), seat=seat)
    return game.result


#: the bundled two-player games without hidden information (tic-tac-toe from the test
#: data). Go's bowls and the supply of dots-and-boxes are hidden zones, but of items all
#: alike: nothing a player could want to know is hidden there.
TWO_PLAYER = ["tests/testdata/ttt", "dots-and-boxes", "kalah", "chess", "go", "backgammon"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("bot")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--first", type=int, default=0, help="the first game's number (to split a "
                    "run over several processes)")
    args = ap.parse_args(argv)
    if args.ruleset == "two-player":
        for name in TWO_PLAYER:
            rest = [name, args.bot, "--games", str(args.games), "--first", str(args.first)]
            main(rest + [a for v in args.variant for a in ("--variant", v)])
        return 0
    ruleset = interpreter.load(args.ruleset, variants=args.variant)
    n = args.players or max(2, ruleset.min_players)
    wins = draws = losses = 0
    start = time.process_time()
    for k in range(args.first, args.first + args.games):
        me = k % n
        specs = ["random"] * n
        specs[me] = args.bot
        outcome = play(ruleset, n, specs, k, k)["outcomes"][me]
        wins += outcome == "win"
        draws += outcome == "draw"
        losses += outcome == "loss"
        print(f"  game {k + 1}: seat {me + 1} {outcome}", flush=True)
    cpu = time.process_time() - start
    lo, hi = wilson(wins, args.games)
    name = args.ruleset + "".join(f" --variant {v}" for v in args.variant)
    print(f"{name}, {n} players: {args.bot} vs random: {wins} wins, {draws} draws, {losses} "
          f"losses of {args.games} (win rate {wins / args.games:.0%}, 95% CI {lo:.0%}-{hi:.0%}; "
          f"random alone would win about {1 / n:.0%}), {cpu / args.games:.1f} s CPU per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
