"""Kernel coverage: the games a kernel plays where they used to run in Python, side by
side in one process (CPU time, best of R alternating runs):

- random games through pyspiel's own API (``new_initial_state``, ``legal_actions``,
  ``chance_outcomes``, ``apply_action``, ``apply_actions`` at a simultaneous node):
  OpenSpiel's ``backgammon``, ``hearts`` and ``chess`` against ``meeple_backgammon``,
  ``meeple_hearts`` and ``meeple_chess`` played by their kernels (the default where one
  can be built) and in Python (``native=false``);
- ``meeple perft chess --position STATE --depth 3`` from Kiwipete, as the command counts
  it (the state resumed, then ``interpreter.divide``), with and without ``--native``.

    python benchmarks/bench_kernel_coverage.py [--games N] [--repeat R] [--depth D]

Kernels are built once (at -O2 unless MEEPLE_KERNEL_CXXFLAGS says otherwise) and kept in
the disk cache: the first run takes a few minutes more.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from meeple import interpreter  # noqa: E402 - the checkout, on the path just above

PAIRS = [("backgammon", "backgammon"), ("hearts", "hearts"), ("chess", "chess")]


def random_games(game, games: int, seed: int = 1) -> tuple[float, int]:
    """CPU seconds and actions of ``games`` uniformly random games through pyspiel's API."""
    rnd = random.Random(seed)
    actions = 0
    t0 = time.process_time()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs, probs = zip(*s.chance_outcomes())
                s.apply_action(rnd.choices(outs, probs)[0])
            elif s.is_simultaneous_node():
                s.apply_actions([rnd.choice(s.legal_actions(p)) for p in range(game.num_players())])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rnd.randrange(len(legal))])
            actions += 1
    return time.process_time() - t0, actions


def best(runs):
    return min(runs, key=lambda r: r[0])


def games_part(games: int, repeat: int) -> list[str]:
    import pyspiel

    import meeple.openspiel  # noqa: F401 - registers meeple_<name>
    rows = []
    for meeple_name, spiel_name in PAIRS:
        engines = {"OpenSpiel": pyspiel.load_game(spiel_name),
                   "kernel": pyspiel.load_game(f"meeple_{meeple_name}"),
                   "Python": pyspiel.load_game(f"meeple_{meeple_name}(native=false)")}
        state = engines["kernel"].new_initial_state()
        if not state.game.program.kernel:
            raise SystemExit(f"no kernel plays meeple_{meeple_name}: {interpreter.kernel_status()}")
        runs = {k: [] for k in engines}
        for _ in range(repeat):
            for label, game in engines.items():
                runs[label].append(random_games(game, games if label != "Python" else max(1, games // 5)))
        per_game = {k: best(v)[0] / (games if k != "Python" else max(1, games // 5)) for k, v in runs.items()}
        per_action = {k: best(v)[0] / best(v)[1] for k, v in runs.items()}
        rows.append(f"| {meeple_name} | {per_game['OpenSpiel'] * 1e3:.1f} ms | {per_game['kernel'] * 1e3:.1f} ms | "
                    f"{per_game['Python'] * 1e3:.1f} ms | **{per_game['kernel'] / per_game['OpenSpiel']:.2f}×** | "
                    f"{per_action['OpenSpiel'] * 1e6:.0f} / {per_action['kernel'] * 1e6:.0f} / "
                    f"{per_action['Python'] * 1e6:.0f} µs |")
        print(rows[-1], flush=True)
    return rows


def perft_part(depth: int, repeat: int) -> list[str]:
    from chess_fen import KIWIPETE, fen_position
    state = json.loads(fen_position(KIWIPETE).to_json())   # (what --position reads)
    runs: dict[bool, list] = {False: [], True: []}
    counts = set()
    for _ in range(repeat):
        for native in (False, True):
            ruleset = interpreter.load("chess")
            if native:
                ruleset.use_native(report=False)
            game = ruleset.resume(state)
            t0 = time.process_time()
            counts.add(sum(interpreter.divide(game, depth).values()))
            runs[native].append(time.process_time() - t0)
            assert getattr(game, "live", False) == native
    (paths,) = counts
    plain, fast = min(runs[False]), min(runs[True])
    row = (f"| Kiwipete, depth {depth} | {paths:,} | {plain:.3f} s | {fast:.3f} s | **{plain / fast:.1f}×** |")
    print(row, flush=True)
    return [row]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--skip-games", action="store_true")
    args = ap.parse_args()
    print(f"Python {platform.python_version()}, {platform.machine()}; CPU time, best of {args.repeat}")
    print("| ruleset | OpenSpiel per game | kernel per game | Python per game | kernel / OpenSpiel "
          "| per action (OpenSpiel / kernel / Python) |")
    print("|---|---:|---:|---:|---:|---:|")
    if not args.skip_games:
        games_part(args.games, args.repeat)
    print()
    print("| `meeple perft chess --position` | paths | without `--native` | with `--native` | speed-up |")
    print("|---|---:|---:|---:|---:|")
    perft_part(args.depth, args.repeat)


if __name__ == "__main__":
    main()
