"""What the web table's `told` costs a move (docs/performance.md, "The web table under
load"): a table keeps each move as each seat saw it (`web/present.py`, `LastMove`); to
say whether the move's first message tells it (`told`) it once copied the game before
every move and asked `views.move_told` per seat; now it asks `views.told_by` once, from
what it kept before the move (the messages said, the seats that may not see the
choice), and copies the game only where its chance results are told. This plays the
first MOVES random moves of a game of each ruleset both ways, alternating round by round
in one process, and prints the CPU time (user + sys, `time.process_time`) per move of
keeping it, the old way (a copy, `move_told` per seat: the same seats found, checked)
and the table's, beside the CPU time of building every seat's document once after each
move (`present.document`, which the server does on every change), for scale.

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

from meeple.interpreter.play.views import move_told  # noqa: E402
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


def keep(ruleset, players: int, seed: int, moves: list[str], old: bool) -> tuple[float, list]:
    """CPU seconds spent keeping each move as the table does (``old``: a copy of the game
    before each move and ``move_told`` asked per seat instead), and the seats each move
    was told to."""
    game = ruleset.new_game(players=players, seed=seed)
    tells_chance = present.may_fall(game)
    told = []
    spent = 0.0
    for text in moves:
        move = game.find_move(text)
        t0 = time.process_time()
        last = present.LastMove(game, move)
        copy = game.copy() if old or tells_chance else None
        game.apply(move)
        fell = present.fallen(copy, game, move) if tells_chance else []
        last.played(game, fell)
        if old:
            last.told = {s for s in [*range(players), SPECTATOR]
                         if s not in last.hidden and move_told(copy, move, game.state, s)}
        spent += time.process_time() - t0
        told.append(last.told)
    return spent, told


def documents(ruleset, players: int, seed: int, moves: list[str]) -> float:
    """CPU seconds spent building every seat's document once after each move."""
    game = ruleset.new_game(players=players, seed=seed)
    table = SimpleNamespace(game=game, program=game.program, bots={}, made=deque(maxlen=60),
                            opening={}, version=0, last=None)
    spent = 0.0
    for text in moves:
        move = game.find_move(text)
        last = present.LastMove(game, move)
        game.apply(move)
        table.made.append(last.played(game, []))
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
    print("ruleset  moves  keep, old way (us/move)  keep (us/move)  documents (us/move)")
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
            spent, told = keep(ruleset, players, 1, moves, old=True)
            old.append(spent)
            spent, same = keep(ruleset, players, 1, moves, old=False)
            new.append(spent)
            if same != told:
                sys.exit(f"{spec}: the seats told differ from move_told's: {same} != {told}")
        docs = documents(ruleset, players, 1, moves)
        n = len(moves)
        print(f"{name:8} {n:5}  {min(old) / n * 1e6:18.0f}  {min(new) / n * 1e6:18.0f}  "
              f"{docs / n * 1e6:19.0f}")


if __name__ == "__main__":
    main()
