"""Chess perft, the long counts that the tests leave out: the number of move paths from
the start (depth 5: 4,865,609) and from "Kiwipete" (depth 4: 4,085,603), each checked
against its published count (https://www.chessprogramming.org/Perft_Results), with the
CPU time of Meeple (meeple.interpreter.perft: the legal moves computed by the rules of
rulesets/chess; on the kernel with --native, the whole count in one call), side by side
with OpenSpiel (its chess's ``legal_actions`` and ``child``, the recursion in Python)
and Stockfish (``go perft N``, a chess engine's own move generator in C++).

    python benchmarks/bench_chess_perft.py [--start-depth 5] [--kiwipete-depth 4]
        [--native] [--openspiel] [--stockfish PATH] [--repeat 3]

Each figure is the best CPU time (user + system) of --repeat runs. Meeple and OpenSpiel
are timed in this process (``time.process_time``), from a fresh copy of the position.
Stockfish is timed as a child process (``resource.getrusage``): a process that counts
the paths once and one that counts them ``1 + --stockfish-runs`` times, so that the
difference is the count's time alone, not the engine's start-up (tens of ms, more than a
short count). Stockfish's positions are the same FEN texts (the start, Kiwipete).
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from chess_fen import KIWIPETE, START, fen_position  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_openspiel import spiel_perft  # noqa: E402

from meeple import interpreter  # noqa: E402

PUBLISHED = {
    "start": [20, 400, 8902, 197281, 4865609, 119060324],
    "kiwipete": [48, 2039, 97862, 4085603, 193690690],
}
FENS = {"start": START, "kiwipete": KIWIPETE}


def meeple_cpu(ruleset, fen: str, depth: int, repeat: int) -> tuple[int, float]:
    """The count from the FEN position (a saved state resumed, as ``meeple perft
    --position`` reads it) and its best CPU time."""
    state = fen_position(fen).state
    best, n = float("inf"), -1
    for _ in range(repeat):
        game = ruleset.resume(state)
        t0 = time.process_time()
        n = interpreter.perft(game, depth)
        best = min(best, time.process_time() - t0)
    return n, best


def spiel_cpu(fen: str, depth: int, repeat: int) -> tuple[int, float]:
    import pyspiel
    game = pyspiel.load_game("chess")
    best, n = float("inf"), -1
    for _ in range(repeat):
        t0 = time.process_time()
        n = spiel_perft(game.new_initial_state(fen), depth)
        best = min(best, time.process_time() - t0)
    return n, best


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _stockfish_run(exe: str, fen: str, depth: int, times: int) -> tuple[int, float]:
    script = f"position fen {fen}\n" + f"go perft {depth}\n" * times + "quit\n"
    c0 = _children_cpu()
    out = subprocess.run([exe], input=script, capture_output=True, text=True, check=True).stdout
    cpu = _children_cpu() - c0
    counts = [int(line.split(":")[1]) for line in out.splitlines() if line.startswith("Nodes searched")]
    if len(counts) != times or len(set(counts)) != 1:
        sys.exit(f"stockfish: unexpected output for go perft {depth}:\n{out[-2000:]}")
    return counts[0], cpu


def stockfish_cpu(exe: str, fen: str, depth: int, repeat: int, runs: int) -> tuple[int, float]:
    """The count and the best CPU time of one count: (a process counting 1 + runs times
    less one counting once) / runs."""
    best, n = float("inf"), -1
    for _ in range(repeat):
        n, once = _stockfish_run(exe, fen, depth, 1)
        _, more = _stockfish_run(exe, fen, depth, 1 + runs)
        best = min(best, max(more - once, 0.0) / runs)
    return n, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start-depth", type=int, default=5)
    ap.add_argument("--kiwipete-depth", type=int, default=4)
    ap.add_argument("--native", action="store_true", help="Meeple on the kernel (C++)")
    ap.add_argument("--openspiel", action="store_true", help="also OpenSpiel (pip install open_spiel)")
    ap.add_argument("--stockfish", metavar="PATH", default=os.environ.get("STOCKFISH") or shutil.which("stockfish"),
                    help="Stockfish's program (default: $STOCKFISH, else stockfish on the PATH)")
    ap.add_argument("--stockfish-runs", type=int, default=20, metavar="N")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; CPU seconds, best of {args.repeat}")
    ruleset = interpreter.load("chess", native=args.native)
    ok = True
    rows = []
    for name, depth in (("start", args.start_depth), ("kiwipete", args.kiwipete_depth)):
        fen, want = FENS[name], PUBLISHED[name][depth - 1]
        n, mine = meeple_cpu(ruleset, fen, depth, args.repeat)
        ok &= n == want
        row = [f"{name}, {depth}", f"{n:,}", f"{mine:.3f} s"]
        if args.openspiel:
            ns, spiel = spiel_cpu(fen, depth, args.repeat)
            ok &= ns == want
            row += [f"{spiel:.3f} s", f"{mine / spiel:.2f}"]
        if args.stockfish:
            nf, fish = stockfish_cpu(args.stockfish, fen, depth, args.repeat, args.stockfish_runs)
            ok &= nf == want
            row += [f"{fish:.4f} s", f"{mine / fish:.0f}" if fish else "-"]
        row.append("ok" if n == want else f"WRONG, published {want:,}")
        rows.append(row)
        print(" | ".join(row), flush=True)
    head = ["position, depth", "paths", "Meeple" + (" (kernel)" if args.native else "")]
    if args.openspiel:
        head += ["OpenSpiel", "Meeple ÷ OpenSpiel"]
    if args.stockfish:
        head += ["Stockfish", "Meeple ÷ Stockfish"]
    head.append("count")
    print("\n| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
