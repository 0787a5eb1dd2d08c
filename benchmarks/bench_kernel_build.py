"""The first build of a ruleset's kernel: the C++ compiler's CPU time (user + sys of the
processes it runs) for each bundled ruleset at its default player count, built into a
fresh cache folder: ``default`` (what a command waits for: the quick build, the
optimised one made in the background, see interpreter/native/kernel_quick.py),
``optimised`` (``MEEPLE_KERNEL_QUICK=0``: the optimised kernel built at once) and any
``MEEPLE_KERNEL_CXXFLAGS`` (e.g. ``-O0``, as the tests build them). Each build runs in
a process of its own, which reports its children's CPU time (``resource.getrusage``;
not the background build's: its process is not the command's child), so nothing of one
build serves another.

- ``cold``: the cache folder is empty (what a user's very first kernel costs);
- ``warm``: two other kernels (``--primers``) were built into that folder first, so
  what kernels share (the precompiled runtime headers, made with the second kernel a
  cache holds) is already there: the cost of a kernel's first build from then on (and
  of the tests' builds: a test run shares one cache folder).

    python benchmarks/bench_kernel_build.py [--repeat R] [--flags default,-O0] [--games a,b]
                                            [--against OTHER_CHECKOUT]

The best of R runs is shown (the machine is shared: CPU time still varies by some
tenths of a second from run to run).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_CHILD = """
import json, resource, sys
sys.path.insert(0, sys.argv[1])
from meeple import interpreter
def build(name):
    rules = interpreter.load(name)
    assert rules.use_native(report=False), name
    prog = rules.for_players(rules.default_players)
    assert prog.kernel, f"no kernel for {name}"
from meeple.interpreter.native import kernel_quick
for name in sys.argv[3:]:
    build(name)
kernel_quick.wait()   # (the primers' optimised kernels, built in the background)
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
build(sys.argv[2])
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))
kernel_quick.wait()   # (untimed: no build left to slow the next one down)
"""


def one_build(name: str, flags: str, primers: list[str], root: Path = ROOT) -> float:
    """CPU seconds the compiler spent on ``name``'s kernel in a fresh cache folder
    (after the ``primers``' kernels, untimed), with the Meeple of the checkout ``root``."""
    with tempfile.TemporaryDirectory(prefix="meeple-bench-build-") as cache:
        env = {**os.environ, "MEEPLE_CACHE_DIR": cache}
        env.pop("MEEPLE_KERNEL", None)
        env.pop("MEEPLE_NO_CACHE", None)
        env.pop("MEEPLE_KERNEL_CXXFLAGS", None)
        env.pop("MEEPLE_KERNEL_QUICK", None)
        if flags == "optimised":
            env["MEEPLE_KERNEL_QUICK"] = "0"
        elif flags != "default":
            env["MEEPLE_KERNEL_CXXFLAGS"] = flags
        args = [sys.executable, "-c", _CHILD, str(root), name, *primers]
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{name} ({flags}) failed:\n{done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def bundled() -> list[str]:
    from meeple.dsl.files import bundled_names
    return bundled_names()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--flags", default="default,-O0", help="comma-separated: 'default', 'optimised' or MEEPLE_KERNEL_CXXFLAGS")
    ap.add_argument("--games", default="", help="comma-separated ruleset names (default: every bundled one)")
    ap.add_argument("--primers", default="kalah,dots-and-boxes,go",
                    help="the kernels built before a warm build (the first two not the one measured)")
    ap.add_argument("--cold-only", action="store_true")
    ap.add_argument("--against", default="", help="another checkout (e.g. the commit before, from git worktree "
                    "add): each build made with it, then with this one, alternating")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g] or bundled()
    flag_sets = [f for f in args.flags.split(",") if f]
    kinds = ["cold"] + ([] if args.cold_only else ["warm"])
    roots = [("before ", Path(args.against).resolve()), ("", ROOT)] if args.against else [("", ROOT)]
    cols = [(f, k, w, r) for f in flag_sets for k in kinds for w, r in roots]
    print("| ruleset | " + " | ".join(f"{f} {k} {w}".strip() for f, k, w, _r in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for name in games:
        best = {}
        for _ in range(args.repeat):   # (alternating: the machine's load varies)
            for f, k, w, r in cols:
                primers = [p for p in args.primers.split(",") if p and p != name][:2] if k == "warm" else []
                t = one_build(name, f, primers, r)
                best[f, k, w, r] = min(best.get((f, k, w, r), t), t)
        print(f"| {name} | " + " | ".join(f"{best[c]:.2f} s" for c in cols) + " |", flush=True)


if __name__ == "__main__":
    main()
