"""Random playouts of one ruleset for counting instructions with callgrind, which gives
the same count whatever the machine's load: only the games are counted (they run inside
``operator.call``, which callgrind is told to count alone), not Python's start-up nor
the loading of the ruleset.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \\
        --toggle-collect=_operator_call python3 benchmarks/playouts_ir.py ROOT RULESET PLAYERS GAMES [UNDO_LIMIT] [native]

(with ``MEEPLE_NO_CACHE=1 PYTHONHASHSEED=0`` for the same count run after run, and
python3 the interpreter itself, not a shell wrapper such as pyenv's). It prints the
number of moves played: the instructions callgrind collected divided by it are the
instructions per move. ROOT is the checkout whose code runs (``git archive COMMIT |
tar -x -C /tmp/old`` for an older one); the playouts are those of
benchmarks/bench_playouts_cpu.py, an index drawn from ``move_count()`` and applied.
UNDO_LIMIT, when given, is each game's ``undo_limit`` (0: no history, as the
scoreboard's playouts; a checkout older than ``Game.undo_limit`` has none to set; ``-``
for none); ``native`` plays them natively (a kernel where the ruleset is covered: build
it before, outside callgrind, with the same command).
"""
from __future__ import annotations

import operator
import os
import random
import sys
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)


def main() -> None:
    root, ruleset, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    limit = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] != "-" else None
    native = len(sys.argv) > 6 and sys.argv[6] == "native"
    sys.path.insert(0, root)
    from meeple import interpreter
    path = Path(root) / ruleset
    program = interpreter.load(str(path) if path.exists() else ruleset, native=native)

    def play(n: int, rnd: random.Random) -> int:
        moves = 0
        for seed in range(n):
            game = program.new_game(players, seed)
            if limit is not None:
                game.undo_limit = limit
            while not game.over:
                game.apply(rnd.randrange(game.move_count()), safe=False)
                moves += 1
        return moves

    play(2, random.Random(0))  # (what the first games make once: kept notations, decisions)
    print(operator.call(play, games, random.Random(1)))


if __name__ == "__main__":
    main()
