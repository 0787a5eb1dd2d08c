"""Whole commands (start-up included) in CPU time, several checkouts run in turn, for A/B
comparisons on a busy machine: the user + system CPU seconds of each child process
(``getrusage``, microseconds: finer than ``/usr/bin/time``'s hundredths), best of N.

    python benchmarks/bench_commands_cpu.py --rounds 5 /tmp/old . -- \\
        python3 -m meeple simulate clans-and-glory --games 300 --players 4 -q -j 1

Each round runs the command once in each checkout (its working directory: a checkout
runs its own code with ``python3 -m meeple``), in the order given. Export an older
commit with ``git archive <commit> | tar -x -C /tmp/old``. The first run of a checkout
may fill the disk cache of compiled rulesets (its code is part of the key): best of
several rounds leaves it out. The commands run with ``MEEPLE_NO_NATIVE=1`` unless the
environment sets it: pure Python in every checkout (kernels are the default of
``simulate``, ``arena``, ``perft`` and ``test`` where a C++ compiler is found, not in older
checkouts), unless the command says ``--native``.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys


def cpu_of(cmd: list[str], cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {"MEEPLE_NO_NATIVE": "1", **os.environ}
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    if "--" not in sys.argv:
        sys.exit("usage: bench_commands_cpu.py [--rounds N] DIR... -- COMMAND...")
    cut = sys.argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args(sys.argv[1:cut])
    cmd = sys.argv[cut + 1:]
    times: dict[str, list[float]] = {d: [] for d in args.dirs}
    for _ in range(args.rounds):
        for d in args.dirs:
            times[d].append(cpu_of(cmd, d))
    for d in args.dirs:
        best = min(times[d])
        runs = ", ".join(f"{t:.3f}" for t in times[d])
        print(f"{d}: best {best:.3f} s  ({runs})")


if __name__ == "__main__":
    main()
