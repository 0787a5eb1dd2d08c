"""The long form of the `meeple test` runs of the test suite: every bundled ruleset (or
the ones named), with `meeple test`'s default number of examples, at several seeds;
one line per run (ok or the failure, games, states, games stopped at an endless bound,
CPU seconds), exit 1 if any run fails. A failing run's minimal game is saved in the
--failures folder (default: a new temporary folder), named after the ruleset and seed.
(The suite plays a few games of some of them.)

    python benchmarks/check_bundled_rulesets.py [--seeds 1,2,3] [--examples N] [RULESET...]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="bundled rulesets (default: all)")
    ap.add_argument("--seeds", default="1,2,3", help="Hypothesis seeds, comma-separated")
    ap.add_argument("--examples", type=int, default=100, help="games per run")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes per run")
    ap.add_argument("--failures", type=Path, default=None,
                    help="folder for the records of failing runs (default: a temporary one)")
    args = ap.parse_args()
    folder = args.failures or Path(tempfile.mkdtemp(prefix="meeple-check-"))
    folder.mkdir(parents=True, exist_ok=True)
    names = args.rulesets or sorted(p.name for p in (ROOT / "rulesets").iterdir()
                                    if p.is_dir() and any(p.glob("*.meeple")))
    failed = 0
    for name in names:
        for seed in [int(s) for s in args.seeds.split(",")]:
            before = cpu_of_children()
            cmd = [sys.executable, "-m", "meeple", "test", name, "--seed", str(seed),
                   "--examples", str(args.examples), "--json", "--quiet",
                   "--out", str(folder / f"{name}-seed-{seed}.json")]
            if args.jobs:
                cmd += ["--jobs", str(args.jobs)]
            r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            cpu = cpu_of_children() - before
            try:
                doc = json.loads(r.stdout)
            except json.JSONDecodeError:
                doc = {}
            if "failure" not in doc:    # not tested: no document, or an error
                print(f"{name} seed {seed}: exit {r.returncode}\n{r.stderr}", flush=True)
                failed += 1
                continue
            f = doc["failure"]
            what = "ok" if doc["ok"] else (f"FAILED {f['check']}: {f['message']} "
                                           f"({len(f['moves'])} moves; {f.get('record')})")
            print(f"{name} seed {seed}: {what}; {doc['games']} games, {doc['states']} states, "
                  f"{doc['endless_games']} stopped at an endless bound "
                  f"({doc['endless_cycles']} going round in circles); {cpu:.0f} s CPU", flush=True)
            failed += not doc["ok"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
