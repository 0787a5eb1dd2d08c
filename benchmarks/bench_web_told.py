"""What the web table's `told` costs a move (docs/performance.md, "The web table under
load"): a table keeps each move as each seat saw it (`web/present.py`, `LastMove`); to
say whether the move's first message tells it (`views.move_told`, per seat) it now
copies the game before the move even where it looks for no chance results. This plays
the first MOVES random moves of a game of each ruleset both ways, alternating round by
round in one process, and prints the CPU time (user + sys, `time.process_time`) per move
of keeping it, old way (no copy unless the game's chance results are told, no `told`)
and new, beside the CPU time of building every seat's document once after each move
(`present.document`, which the server does on every change), for scale.

    python benchmarks/bench_web_told.py [--rounds 5] [--moves 60] [RULESET:PLAYERS ...]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.web import present  # noqa: E402
from meeple.web.store import SPECTATOR  # noqa: E402

import meeple  # noqa: E402


def moves_of(ruleset, players: int, count: int, seed: int) -> list[str]:
    game = ruleset.new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    out = []
    while not game.over and len(out) < count:
        move = rnd.choice(game.legal_moves())
        out.append(game.move_text(move))
        game.apply(move)
    return out


def keep(ruleset, players: int, seed: int, moves: list[str], told: bool) -> tuple[float, list]:
    """CPU seconds spent keeping each move as the table does (``told``: the new way),
    and the moves kept."""
    game = ruleset.new_game(players=players, seed=seed)
    tells_chance = present.may_fall(game)
    made = []
    spent = 0.0
    for text in moves:
        move = game.find_move(text)
        t0 = time.process_time()
        last = present.LastMove(game, move)
        copy = game.copy() if told or tells_chance else None
        game.apply(move)
        fell = present.fallen(copy, game, move) if tells_chance else []
        made.append(last.played(game, fell, copy if told else None))
        spent += time.process_time() - t0
    return spent, made


def documents(ruleset, players: int, seed: int, moves: list[str]) -> float:
    """CPU seconds spent building every seat's document once after each move."""
    game = ruleset.new_game(players=players, seed=seed)
    table = SimpleNamespace(game=game, program=game.program, bots={}, made=deque(maxlen=60),
                            opening={}, version=0, last=None)
    spent = 0.0
    for text in moves:
        move = game.find_move(text)
        last = present.LastMove(game, move)
        copy = game.copy()
        game.apply(move)
        table.made.append(last.played(game, [], copy))
        table.last, table.version = table.made[-1], table.version + 1
        t0 = time.process_time()
        for seat in [*range(players), SPECTATOR]:
            present.document(table, seat)
        spent += time.process_time() - t0
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rulesets", nargs="*", default=["chess:2", "kalah:2", "hearts:4"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--moves", type=int, default=60)
    args = ap.parse_args()
    print("ruleset  moves  keep old (us/move)  keep new (us/move)  documents (us/move)")
    for spec in args.rulesets:
        name, _, count = spec.partition(":")
        try:   # (a ruleset not found, a count not a number or not the ruleset's: said)
            ruleset, players = meeple.load(name), int(count or 2)
            moves = moves_of(ruleset, players, args.moves, seed=1)
        except (meeple.MeepleError, OSError, ValueError) as e:
            sys.exit(f"{spec}: {e}")
        old: list[float] = []
        new: list[float] = []
        for _ in range(args.rounds):          # alternating, round by round
            old.append(keep(ruleset, players, 1, moves, told=False)[0])
            new.append(keep(ruleset, players, 1, moves, told=True)[0])
        docs = documents(ruleset, players, 1, moves)
        n = len(moves)
        print(f"{name:8} {n:5}  {min(old) / n * 1e6:18.0f}  {min(new) / n * 1e6:18.0f}  "
              f"{docs / n * 1e6:19.0f}")


if __name__ == "__main__":
    main()
