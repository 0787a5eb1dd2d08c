"""Two-player tiny bridge (tests/testdata/tiny_bridge) against OpenSpiel's
``tiny_bridge_2p``, in CPU time (``time.process_time``), the ways alternating in one
process, best of ``--repeat``: uniformly random games, the deal's worth computed at the
end of each (a double-dummy search of the two tricks for each of the six ways North and
South may hold the other cards).

    python benchmarks/bench_tiny_bridge.py [--games 2000] [--repeat 3]

- **Python**: the Python program (``native=False``), ``game.apply(rnd.randrange(...))``
  until the game is over (chance by the game's seeded generator);
- **kernel, batch**: ``interpreter.playouts(program, games, seed=0)``;
- **kernel, per move**: the kernel driven a move at a time from Python, as Python above;
- **OpenSpiel**: ``pyspiel.evaluate_bots`` with uniform random bots (the whole game in C++).

Each way plays one game before its timed runs, untimed, and is measured apart from a
first run where its values are first computed (``--cold``: a new process per way, the
first ``games`` games timed): Meeple keeps the values of a rule function that reads
nothing of the game (``worth``, ``tricks``) for every game of the process, OpenSpiel
computes its table of scores (every deal, contract and declarer) at the first score.
Prints one JSON line per way: games per CPU second, and OpenSpiel's rate over it.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))   # (--cold imports this file from ROOT)

from bench_kernel_playouts import batch, per_move  # noqa: E402  (the same timed games)

from meeple import interpreter  # noqa: E402

RULES = str(ROOT / "tests" / "testdata" / "tiny_bridge")


def spiel(game, games: int) -> float:
    import pyspiel
    bots = [pyspiel.make_uniform_random_bot(p, 1) for p in range(2)]
    t0 = time.process_time()
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return time.process_time() - t0


def programs() -> dict:
    python = interpreter.load(RULES, native=False).for_players(2)
    kernel = interpreter.load(RULES, native=True).for_players(2)
    if not kernel.kernel:
        raise SystemExit(f"no kernel: {interpreter.kernel_status()}")
    return {"python": python, "kernel": kernel}


def run(way: str, games: int, progs: dict | None = None, spiel_game=None) -> float:
    if way == "python":
        return per_move(progs["python"], 2, games)
    if way == "kernel_batch":
        return batch(progs["kernel"], games)
    if way == "kernel_per_move":
        return per_move(progs["kernel"], 2, games)
    return spiel(spiel_game, games)


WAYS = ("python", "kernel_batch", "kernel_per_move", "openspiel")


def cold(games: int) -> None:
    """Each way's first ``games`` games in a process of its own (values not yet kept)."""
    for way in WAYS:
        code = (f"import sys; sys.argv = ['x']; sys.path.insert(0, {str(ROOT)!r}); "
                f"import benchmarks.bench_tiny_bridge as b; import pyspiel; "
                f"progs = b.programs() if {way!r} != 'openspiel' else None; "
                f"print(b.run({way!r}, {games}, progs, pyspiel.load_game('tiny_bridge_2p')))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
        print(json.dumps({"way": way, "cold": True, "games": games, "cpu_s": round(float(out.stdout.split()[-1]), 4)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="also each way's first games, in a process of its own")
    args = ap.parse_args()
    import pyspiel
    progs, game = programs(), pyspiel.load_game("tiny_bridge_2p")
    for way in WAYS:   # (one game each first, untimed: built, and values kept)
        run(way, 1, progs, game)
    best = dict.fromkeys(WAYS, float("inf"))
    for _ in range(args.repeat):
        for way in WAYS:
            best[way] = min(best[way], run(way, args.games, progs, game))
    spiel_rate = args.games / best["openspiel"]
    for way in WAYS:
        rate = args.games / best[way]
        print(json.dumps({"way": way, "games": args.games, "games_per_s": round(rate, 1),
                          "openspiel_over_this": round(spiel_rate / rate, 2)}))
    if args.cold:
        cold(args.games)


if __name__ == "__main__":
    main()
