"""The CPU time of the quick commands, start-up included: ``meeple --version``,
``meeple --help``, ``meeple <command> --help`` for every command (those of the
checkout's cli/main.py) and ``meeple list`` with a cold cache (an empty cache folder:
every ruleset is loaded) and a warm one (what ``list`` shows read from the cache); first,
the floor under them all: ``python3 -c pass``, the Python start-up alone. Each command runs in a child process from a checkout (its working
directory, ``python3 -m meeple``); the user + system CPU seconds of the child
(``getrusage``), best and median of N rounds. CPU time, not wall time: the figures hold
on a busy machine.

As installed: the children write and read the checkout's ``.pyc`` files, as an installed
Meeple has them (``PYTHONDONTWRITEBYTECODE`` is dropped from their environment and, unless
``PYTHONPYCACHEPREFIX`` is set, they are kept in a folder of the run), and every command
runs once, unmeasured, before the rounds: with ``PYTHONDONTWRITEBYTECODE=1`` and no
``.pyc`` every module would be compiled from source at each start (seconds, not tenths).

    python benchmarks/bench_startup.py --rounds 5 [CHECKOUT]
"""
from __future__ import annotations

import argparse
import ast
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def commands(checkout: str) -> dict[str, list[str]]:
    """What is measured, by name, in order (the cold list fills the cache)."""
    main = Path(checkout, "cli", "main.py").read_text(encoding="utf-8")
    names = next(ast.literal_eval(n.value) for n in ast.parse(main).body
                 if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "COMMANDS")
    helps = {f"{m.removeprefix('cmd_')} --help": [m.removeprefix("cmd_"), "--help"] for m in names}
    return {"(python3 -c pass)": [], "--version": ["--version"], "--help": ["--help"], **helps,
            "list (cold cache)": ["list"], "list (warm cache)": ["list"]}


def cpu_of(args: list[str], cwd: str, env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "meeple", *args] if args else [sys.executable, "-c", "pass"]
    subprocess.run(command, cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(checkout: str, rounds: int) -> dict[str, list[float]]:
    wanted = commands(checkout)
    times: dict[str, list[float]] = {name: [] for name in wanted}
    with tempfile.TemporaryDirectory(prefix="meeple-bench-pyc-") as pyc:
        base = dict(os.environ, COLUMNS="100")
        base.setdefault("PYTHONPYCACHEPREFIX", pyc)     # the .pyc files, as installed
        for name in ("PYTHONDONTWRITEBYTECODE", "MEEPLE_NO_CACHE"):
            base.pop(name, None)
        for warming in [True] + [False] * rounds:
            with tempfile.TemporaryDirectory(prefix="meeple-bench-cache-") as cache:
                env = dict(base, MEEPLE_CACHE_DIR=cache)
                for name, args in wanted.items():   # in order: the cold list fills the cache
                    cpu = cpu_of(args, checkout, env)
                    if not warming:
                        times[name].append(cpu)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("checkout", nargs="?", default=".")
    args = ap.parse_args()
    for name, ts in measure(args.checkout, args.rounds).items():
        print(f"{name:<20} best {min(ts):.3f} s  median {statistics.median(ts):.3f} s")


if __name__ == "__main__":
    main()
