"""The move loop around the rules (issue 13, "cheap moves and positions") in CPU seconds
(``time.process_time``), best of ``--repeat`` runs: bot games as ``meeple simulate``
plays them (random bots), random playouts of a ruleset whose rules do almost nothing (so
that the loop is what is measured), search-bot games and chess perft.

    python benchmarks/bench_move_loop.py                  # this checkout
    python benchmarks/bench_move_loop.py --root /tmp/old  # another one (``git archive``)

Run it on two checkouts in turn, twice or more, to compare them on a noisy machine.
"""
from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from pathlib import Path

# a ruleset that asks one choice per move and ends after about 100 moves: what a move
# costs around rules that cost nothing
TRIVIAL = """ruleset trivial
players 2..2
var n: int = 0
turn {
  choose x from [1, 2, 3] as "pick"
  n = n + x
}
end when n >= 200
score(p) = 0
"""

# (label, ruleset, players, variants, games)
SIMULATE = [("simulate cherokee 3p", "cherokee", 3, (), 100),
            ("simulate clans-and-glory 4p", "clans-and-glory", 4, (), 100),
            ("simulate brotherhood-of-nine 4p allies+ctf", "brotherhood-of-nine", 4,
             ("allies", "capture_the_flag"), 25)]


def cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def trivial_playouts(interpreter, games: int):
    from meeple.dsl.load import SourceSet
    from meeple.dsl.parse import parse
    program = interpreter.compile_sources(SourceSet(base=parse(TRIVIAL, "t.meeple"),
                                                    sources={"t.meeple": TRIVIAL}))

    def run():
        rnd = random.Random(1)
        for seed in range(games):
            g = program.new_game(2, seed)
            while not g.over:
                legal = g.legal_moves()
                g.apply(legal[rnd.randrange(len(legal))], safe=False)
    return run


def simulated(name: str, players: int, variants, games: int, bot: str):
    from meeple import interpreter
    simulation = importlib.import_module("meeple.interpreter.analysis.simulation")
    rules = interpreter.load(name, list(variants)) if variants else interpreter.load(name)
    specs = simulation.specs(players, lambda i: [bot] * players, games)

    def run():
        for spec in specs:
            simulation.play_game(rules, spec)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    from meeple import interpreter
    out = {}
    out["trivial playouts (300 games)"] = cpu(trivial_playouts(interpreter, 300), args.repeat)
    for label, name, players, variants, games in SIMULATE:
        out[f"{label} ({games} games)"] = cpu(simulated(name, players, variants, games, "random"),
                                               args.repeat)
    out["kalah mcts:iterations=30 (2 games)"] = cpu(
        simulated("kalah", 2, (), 2, "mcts:iterations=30"), args.repeat)
    chess = interpreter.load("chess")
    out["chess perft 4"] = cpu(lambda: interpreter.perft(chess.new_game(2, 0), 4), args.repeat)
    print(json.dumps({k: round(v, 3) for k, v in out.items()}))


if __name__ == "__main__":
    main()
