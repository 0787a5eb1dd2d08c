"""Two kernels of one ruleset in one process: the C++ another tree writes for it (kept in
a file) against the one this tree writes, batches of random games alternating round by
round with OpenSpiel's C++ loop, CPU time (``time.process_time``): on a loaded machine a
change of a few percent is seen here where separate processes (bench_kernel_playouts.py)
differ by more from run to run.

    # in the other tree (or this one's --tree): the C++ it writes for go
    python3 benchmarks/bench_kernel_source_ab.py go --dump /tmp/old.cpp --tree /path/to/old
    python3 benchmarks/bench_kernel_source_ab.py go --against /tmp/old.cpp --games 300 --rounds 16 \\
        --openspiel "go(board_size=9,komi=7.5)"

Both kernels are built with ``MEEPLE_KERNEL_QUICK=0`` (the -O2 build), their first 50
games compared (the same results, or it stops; ``--other-games``: not, for a change of
what the games are, such as the bots' draws); each round plays ``--games`` games from
seed 0 in one ``interpreter.playouts`` call each (dict form; ``--compact``: the compact
form, no Python object per game), then OpenSpiel's
``evaluate_bots`` with uniform random bots for as many seeds. Prints the best and the
median of each, new ÷ old, and OpenSpiel ÷ each (at most 1.0: the batch is at least as
fast). ``--new FILE`` takes the new kernel's C++ from a file too (a dump edited by hand,
to measure a change before writing the pass that makes it). The file of C++ must be of a tree whose kernels this one loads (the same module
interface): it replaces the text the kernel is built from, nothing else.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--dump", help="write the C++ this tree (or --tree) writes for the ruleset here, and stop")
    ap.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent), help="the tree to import")
    ap.add_argument("--against", help="the C++ another tree wrote (--dump)")
    ap.add_argument("--new", help="C++ in a file (a --dump edited by hand) in place of this tree's")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--compact", action="store_true", help="the batches in the compact form")
    ap.add_argument("--other-games", action="store_true",
                    help="a change of the games themselves (the bots' draws): their first 50 not compared")
    ap.add_argument("--openspiel", help="OpenSpiel's game string, e.g. go(board_size=9,komi=7.5)")
    args = ap.parse_args()
    sys.path.insert(0, args.tree)
    from meeple.interpreter.native import kernel

    from meeple import interpreter

    built = kernel.load_or_build

    def program():   # (a ruleset not found or not loaded, a player count it has not: said)
        try:
            return interpreter.load(args.ruleset, native=True, cache=False).for_players(args.players)
        except (interpreter.MeepleError, OSError, ValueError) as e:
            sys.exit(f"{args.ruleset}: {e}")

    if args.dump:
        def dumped(src, on_build=None):   # (written whole, then put in place)
            part = Path(args.dump + ".part")
            part.write_text(src)
            os.replace(part, args.dump)
            return built(src, on_build)
        kernel.load_or_build = dumped
        program()
        return
    if not args.against:
        sys.exit("--against FILE (or --dump FILE) is needed")
    try:
        old = Path(args.against).read_text()
    except OSError as e:
        sys.exit(f"--against: {e.strerror}: {args.against}")
    kernel.load_or_build = lambda src, on_build=None: built(old, on_build)
    a = program()
    if args.new:
        try:
            mine = Path(args.new).read_text()
        except OSError as e:
            sys.exit(f"--new: {e.strerror}: {args.new}")
        kernel.load_or_build = lambda src, on_build=None: built(mine, on_build)
    else:
        kernel.load_or_build = built
    b = program()
    if not (a.kernel and b.kernel):
        sys.exit("no kernel plays the ruleset here")
    if not args.other_games and interpreter.playouts(a, 50, seed=0) != interpreter.playouts(b, 50, seed=0):
        sys.exit("the two kernels play different games")
    runs = {"old": (lambda: interpreter.playouts(a, args.games, seed=0, compact=args.compact)),
            "new": (lambda: interpreter.playouts(b, args.games, seed=0, compact=args.compact))}
    if args.openspiel:
        import pyspiel
        game = pyspiel.load_game(args.openspiel)
        bots = [pyspiel.make_uniform_random_bot(p, 1) for p in range(args.players)]
        runs["openspiel"] = lambda: [pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
                                     for seed in range(args.games)]
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(args.rounds):
        for k, run in runs.items():
            t0 = time.process_time()
            run()
            times[k].append(time.process_time() - t0)
    best = {k: min(v) for k, v in times.items()}
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    for k in runs:
        print(f"{k}: best {best[k] * 1e3:.1f} ms, median {med[k] * 1e3:.1f} ms ({args.games} games)")
    print(f"new ÷ old: best {best['new'] / best['old']:.3f}, median {med['new'] / med['old']:.3f}")
    if args.openspiel:
        print(f"OpenSpiel ÷ old {best['old'] / best['openspiel']:.2f}, "
              f"OpenSpiel ÷ new {best['new'] / best['openspiel']:.2f} (best times)")


if __name__ == "__main__":
    main()
