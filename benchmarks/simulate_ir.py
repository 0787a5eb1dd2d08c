"""The games of ``meeple simulate`` (``simulation.play_game``, random bots) of one
ruleset, for counting instructions with callgrind, which gives the same count whatever
the machine's load: only the games are counted (they run inside ``operator.call``,
which callgrind is told to count alone), not Python's start-up, the loading of the
ruleset nor two games played first (what they make once: kept notations, decisions).

    MEEPLE_NO_CACHE=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        --collect-atstart=no --toggle-collect=_operator_call \\
        python3 benchmarks/simulate_ir.py ROOT RULESET PLAYERS GAMES [VARIANT...]

It prints the number of moves played. ROOT is the checkout whose code runs (``git
archive COMMIT | tar -x -C /tmp/old`` for an older one); the games are those of
``meeple simulate RULESET --players PLAYERS --seed 0``, from its third game on.
"""
from __future__ import annotations

import operator
import sys


def main() -> None:
    root, ruleset, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    variants = sys.argv[5:]
    sys.path.insert(0, root)
    from meeple.interpreter.analysis import simulation

    from meeple import interpreter
    rules = interpreter.load(ruleset, variants=variants) if variants else interpreter.load(ruleset)
    plan = simulation.specs(players, lambda i: ["random"] * players, games + 2, 0)
    for spec in plan[:2]:
        simulation.play_game(rules, spec)

    def play() -> int:
        return sum(simulation.play_game(rules, spec)["moves"] for spec in plan[2:])
    print(operator.call(play))


if __name__ == "__main__":
    main()
