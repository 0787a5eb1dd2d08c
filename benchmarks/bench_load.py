"""Loading and compiling every bundled ruleset, and the first screen of `meeple play`,
from a cold process: with an empty disk cache (cold), with the cache filled by the run
before (warm), with only the grammar's tables cached (edited: as after editing the
ruleset) and with the cache off (MEEPLE_NO_CACHE=1). "load" is the CPU time of
`meeple.load(NAME)` and starting a game, imports excluded, measured inside a fresh
process; "first screen" is the CPU time (user + system) of a whole
`meeple play NAME </dev/null` process, which draws the first screen and ends at the end
of its input. Best of --runs; a markdown table for docs/performance.md.

    python benchmarks/bench_load.py [--runs 3] [--checkout PATH] [--only NAME ...]
                                    [--modes cold warm edited off]

--checkout runs another tree of the code (e.g. an older commit exported with
`git archive <commit> | tar -x -C /tmp/old`) for comparison.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# in the child: import, load, start a game; prints the load time alone (in-process CPU)
LOAD = """
import json, sys, time
T = time.process_time
t0 = T()
from meeple import interpreter
t1 = T()
r = interpreter.load(sys.argv[1])
r.new_game(players=min(max(r.min_players, 2), r.max_players), seed=1)
print(json.dumps({"import": t1 - t0, "load": T() - t1}))
"""


def child_cpu(cmd: list[str], env: dict, stdin=None) -> tuple[float, str]:
    """The CPU seconds of one child process and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, env=env, stdin=stdin, capture_output=True, text=True, cwd=env["_CWD"])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def environment(code: Path, cache: Path, off: bool) -> dict:
    """The children's environment; they run in the cache's folder, where `play` saves
    its record at the end of input (and which is removed after)."""
    env = dict(os.environ, PYTHONPATH=str(code), MEEPLE_CACHE_DIR=str(cache), TTY_COMPATIBLE="1",
               COLUMNS="120", LINES="40", _CWD=str(cache))
    env.pop("MEEPLE_NO_CACHE", None)
    if off:
        env["MEEPLE_NO_CACHE"] = "1"
    return env


def measure(code: Path, name: str, mode: str, runs: int) -> dict:
    """Best of ``runs``: the load alone (``meeple.load`` and a new game) and the whole
    ``meeple play NAME`` process up to its first screen (it ends at the end of input)."""
    best = {"load": 1e9, "play": 1e9}
    for _ in range(runs):
        cache = Path(tempfile.mkdtemp(prefix="meeple-bench-cache-"))
        try:
            env = environment(code, cache, mode == "off")
            if mode in ("warm", "edited"):      # fill the cache first
                child_cpu([sys.executable, "-c", LOAD, name], env)
            if mode == "edited":    # as after editing the ruleset: only the grammar is cached
                for entry in cache.glob("ruleset-*"):
                    entry.unlink()
            _, out = child_cpu([sys.executable, "-c", LOAD, name], env)
            best["load"] = min(best["load"], json.loads(out)["load"])
            if mode == "cold":
                shutil.rmtree(cache)
                cache.mkdir(mode=0o700)
            if mode == "edited":
                for entry in cache.glob("ruleset-*"):
                    entry.unlink()
            with open(os.devnull) as nothing:
                cpu, _ = child_cpu([sys.executable, "-m", "meeple", "play", name], env, stdin=nothing)
            best["play"] = min(best["play"], cpu)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--checkout", type=Path, default=ROOT)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--modes", nargs="*", default=["cold", "warm", "off"],
                    help="cold, warm, edited, off (a checkout without the cache needs only off)")
    args = ap.parse_args()
    sys.path.insert(0, str(args.checkout))
    from meeple.dsl.load import bundled_names
    names = args.only or bundled_names()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(args.checkout, Path(folder), True)
        helps = [child_cpu([sys.executable, "-m", "meeple", "--help"], env)[0] for _ in range(args.runs)]
    print(f"`meeple --help`: {min(helps):.2f} s CPU\n")
    modes = args.modes
    print("| ruleset | " + " | ".join(f"load, {m}" for m in modes) + " | "
          + " | ".join(f"first screen, {m}" for m in modes) + " |")
    print("|---|" + "---:|" * (2 * len(modes)))
    for name in names:
        got = {mode: measure(args.checkout, name, mode, args.runs) for mode in modes}
        cells = [got[m]["load"] for m in modes] + [got[m]["play"] for m in modes]
        print(f"| {name} | " + " | ".join(f"{c:.2f}" for c in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
