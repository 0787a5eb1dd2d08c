"""`meeple simulate` on the three seed games, natively and not, in CPU time (user + system
of the command's process, --jobs 1), the two runs alternating, best of ``--runs``; the
native module is built first (its build is not counted).

    python benchmarks/bench_native_simulate.py [--runs 3]

Prints one JSON line per game: CPU seconds each way and the ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)

ROOT = Path(__file__).resolve().parent.parent
RUNS = [("cherokee", ["cherokee", "-p", "3", "-n", "300"]),
        ("clans-and-glory", ["clans-and-glory", "-p", "4", "-n", "300"]),
        ("brotherhood-of-nine", ["brotherhood-of-nine", "-p", "4", "--variant", "allies",
                                 "--variant", "capture_the_flag", "-n", "50"])]


def cpu_of(args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "meeple", "simulate", *args, "-j", "1", "-q"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for label, cmd in RUNS:
        cpu_of([*cmd[:-2], "-n", "1", "--native"])   # builds the module (not counted)
        best = {"python": float("inf"), "native": float("inf")}
        for _ in range(args.runs):
            best["python"] = min(best["python"], cpu_of([*cmd, "--no-native"]))
            best["native"] = min(best["native"], cpu_of([*cmd, "--native"]))
        print(json.dumps({"game": label, "python_cpu_s": round(best["python"], 2),
                          "native_cpu_s": round(best["native"], 2),
                          "ratio": round(best["python"] / best["native"], 2)}), flush=True)


if __name__ == "__main__":
    main()
