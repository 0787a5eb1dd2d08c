"""Loading and compiling every bundled ruleset, and the first screen of `meeple play`,
from a cold process: with an empty disk cache (cold), with the cache filled by the run
before (warm), with the grammar's tables and the files parsed cached (edited: as loading
another locale or variant, or after editing a small file of the ruleset), with only the
grammar's tables cached (unparsed: as edited before the files were kept parsed) and with
the cache off (MEEPLE_NO_CACHE=1: the cold compile of issue 13, parse,
overlays, check and compile for every player count). "load" is the CPU time of
`meeple.load(NAME)` and starting a game, imports excluded, measured inside a fresh
process; "first screen" is the CPU time (user + system) of a whole
`meeple play NAME </dev/null` process, which draws the first screen and ends at the end
of its input. Best of --runs; a markdown table for docs/performance.md. --overlays adds a
row for each variant (alone) and each locale of every ruleset.

    python benchmarks/bench_load.py [--runs 3] [--checkout PATH] [--only NAME ...]
                                    [--modes cold warm edited unparsed off] [--overlays]

--checkout runs another tree of the code (e.g. an older commit exported with
`git archive <commit> | tar -x -C /tmp/old`) for comparison. The code's .pyc files are
made first (and PYTHONDONTWRITEBYTECODE is dropped for the children), so that no run
measures Python compiling Meeple's own source.
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
name, variants, locale = sys.argv[1], [v for v in sys.argv[2].split(",") if v], sys.argv[3] or None
r = interpreter.load(name, variants=variants, locale=locale)
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
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if off:
        env["MEEPLE_NO_CACHE"] = "1"
    return env


def forget(cache: Path, mode: str) -> None:
    """Edited: the compiled rulesets left out of the cache (the grammar and the files
    parsed kept); unparsed: the files parsed too (the grammar alone kept)."""
    kinds = {"edited": ("ruleset-*",), "unparsed": ("ruleset-*", "parsed-*")}.get(mode, ())
    for kind in kinds:
        for entry in cache.glob(kind):
            entry.unlink()


def measure(code: Path, row: tuple, mode: str, runs: int) -> dict:
    """Best of ``runs``: the load alone (``meeple.load`` and a new game) and the whole
    ``meeple play NAME`` process up to its first screen (it ends at the end of input).
    ``row`` is (name, variants, locale)."""
    name, variants, locale = row
    load_args = [name, ",".join(variants), locale or ""]
    play_args = [name] + [a for v in variants for a in ("--variant", v)] \
        + (["--locale", locale] if locale else [])
    best = {"load": 1e9, "play": 1e9}
    for _ in range(runs):
        cache = Path(tempfile.mkdtemp(prefix="meeple-bench-cache-"))
        try:
            env = environment(code, cache, mode == "off")
            if mode in ("warm", "edited", "unparsed"):      # fill the cache first
                child_cpu([sys.executable, "-c", LOAD, *load_args], env)
            forget(cache, mode)
            _, out = child_cpu([sys.executable, "-c", LOAD, *load_args], env)
            try:
                best["load"] = min(best["load"], json.loads(out)["load"])
            except ValueError:
                best["load"] = float("nan")     # it does not load: see the command
            if mode == "cold":
                shutil.rmtree(cache)
                cache.mkdir(mode=0o700)
            forget(cache, mode)
            with open(os.devnull) as nothing:
                cpu, _ = child_cpu([sys.executable, "-m", "meeple", "play", *play_args], env, stdin=nothing)
            best["play"] = min(best["play"], cpu)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    return best


def rows(code: Path, names: list[str], overlays: bool) -> list[tuple]:
    """(name, variants, locale) per row: each ruleset alone, then (with ``overlays``)
    with each of its variants alone and in each of its locales."""
    out = []
    for name in names:
        out.append((name, (), None))
        if not overlays:
            continue
        folder = code / "rulesets" / name
        for kind in ("variants", "locales"):
            for f in sorted((folder / kind).glob("*.meeple")):
                words = f.read_text(encoding="utf-8").split(None, 2)
                if len(words) >= 2 and words[0] == "variant":
                    out.append((name, (words[1],), None))
                elif len(words) >= 2 and words[0] == "locale":
                    out.append((name, (), words[1]))
    return out


def label(row: tuple) -> str:
    name, variants, locale = row
    return name + "".join(f" +{v}" for v in variants) + (f" @{locale}" if locale else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--checkout", type=Path, default=ROOT)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--modes", nargs="*", default=["cold", "warm", "off"],
                    help="cold, warm, edited, unparsed, off (a checkout without the cache needs only off)")
    ap.add_argument("--overlays", action="store_true",
                    help="also each variant alone and each locale of every ruleset")
    args = ap.parse_args()
    code = args.checkout.resolve()
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(code / d) for d in
                    ("meeple", "dsl", "interpreter", "cli") if (code / d).is_dir())],
                   capture_output=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    sys.path.insert(0, str(code))
    from meeple.dsl.load import bundled_names
    names = args.only or bundled_names()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(code, Path(folder), True)
        helps = [child_cpu([sys.executable, "-m", "meeple", "--help"], env)[0] for _ in range(args.runs)]
    print(f"`meeple --help`: {min(helps):.2f} s CPU\n")
    modes = args.modes
    print("| ruleset | " + " | ".join(f"load, {m}" for m in modes) + " | "
          + " | ".join(f"first screen, {m}" for m in modes) + " |")
    print("|---|" + "---:|" * (2 * len(modes)))
    for row in rows(code, names, args.overlays):
        got = {mode: measure(code, row, mode, args.runs) for mode in modes}
        cells = [got[m]["load"] for m in modes] + [got[m]["play"] for m in modes]
        print(f"| {label(row)} | " + " | ".join(f"{c:.2f}" for c in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
