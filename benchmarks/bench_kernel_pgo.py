"""Builds of one kernel with other compiler options, or guided by a profile, in one
process: the C++ this tree writes for a ruleset, built several ways, each build's
compiler CPU time (user + sys of its processes, the training's too), then batches of
random games (or a perft) alternating round by round, CPU time (``time.process_time``).

    python3 benchmarks/bench_kernel_pgo.py go --games 400 --rounds 16
    python3 benchmarks/bench_kernel_pgo.py chess --perft 5 --rounds 8
    python3 benchmarks/bench_kernel_pgo.py kalah --variants old,plain,pgo,o3 \\
        --options "o3=-O3 -fvisibility=hidden"

The variants (``--variants``, the first is what the others are divided by):

- ``old``: the optimised build's options before ``-fvisibility=hidden``
  (kernel_build.CXX_FLAGS without kernel_build.OPTIMISED_ONLY);
- ``plain``: the optimised build's options (kernel_build.flags()), no profile;
- ``pgo``: the background build (kernel_pgo.build: guided by its training's profile);
- any name given by ``--options NAME=OPTIONS``: the optimised build's options with its
  ``-O`` and OPTIMISED_ONLY options replaced by OPTIONS, no profile.

The build CPU of a build that may use the precompiled runtime depends on what the cache
holds (the guided one never does): ``MEEPLE_KERNEL_PCH=0`` compares like with like.
Every build's games (the first 50, or the perft's count) are compared: the same, or it
stops. Each round plays ``--games`` games from seed 0 in one ``interpreter.playouts``
call (dict form), or counts ``interpreter.perft`` of a new game (seed 0) to ``--perft``.
Prints per variant its build's CPU, the best and the median time and their ratios to
the first variant's.
"""
from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.native import kernel, kernel_build, kernel_pgo  # noqa: E402

from meeple import interpreter  # noqa: E402


def source_of(ruleset: str, players: int) -> str:
    """The C++ this tree writes for the ruleset's kernel."""
    seen: list[str] = []
    built = kernel.load_or_build

    def keep(src, on_build=None):
        seen.append(src)
        return built(src, on_build)
    kernel.load_or_build = keep
    try:
        program(ruleset, players)
    finally:
        kernel.load_or_build = built
    if not seen:
        sys.exit(f"{ruleset}: no kernel plays it here")
    return seen[-1]


def program(ruleset: str, players: int):
    try:
        return interpreter.load(ruleset, native=True, cache=False).for_players(players)
    except (interpreter.MeepleError, OSError, ValueError) as e:
        sys.exit(f"{ruleset}: {e}")


def options_of(variant: str, extra: dict[str, str]) -> tuple[list[str], bool]:
    """The options a variant is built with, and whether guided by a profile."""
    base = [f for f in kernel_build.CXX_FLAGS if not f.startswith("-O") and f not in kernel_build.OPTIMISED_ONLY]
    if variant == "old":
        return [f for f in kernel_build.CXX_FLAGS if f not in kernel_build.OPTIMISED_ONLY], False
    if variant in ("plain", "pgo"):
        return kernel_build.flags(), variant == "pgo"
    if variant in extra:
        return base + extra[variant].split(), False
    sys.exit(f"unknown variant {variant!r} (old, plain, pgo, or one of --options)")


def build(source: str, variant: str, options: list[str], guided: bool):
    """The module of a variant, loaded, and its build's CPU seconds."""
    name = f"meeple_kernel_bench_{variant}_{os.getpid()}"
    tmp = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
    os.environ["MEEPLE_KERNEL_PGO"] = "0"   # (a plain build: kernel_pgo.build as it is then)
    try:
        t0 = os.times()
        path = (kernel_pgo.guided if guided else kernel_pgo.build)(name, name, source, tmp, options)
        t1 = os.times()
        if path is None:
            sys.exit(f"{variant}: the training gave no profile")
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        mod = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path, loader=loader))
        loader.exec_module(mod)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return mod, (t1.children_user + t1.children_system) - (t0.children_user + t0.children_system)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variants", default="old,plain,pgo")
    ap.add_argument("--options", action="append", default=[], help="NAME=OPTIONS, a variant of other options")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--perft", type=int, help="count perft to this depth instead of playing games")
    ap.add_argument("--rounds", type=int, default=12)
    args = ap.parse_args()
    extra = dict(o.split("=", 1) for o in args.options)
    source = source_of(args.ruleset, args.players)
    built = kernel.load_or_build
    programs, cpu = {}, {}
    for v in args.variants.split(","):
        mod, cpu[v] = build(source, v, *options_of(v, extra))
        kernel.load_or_build = lambda src, on_build=None, m=mod: (m, 0.0)
        programs[v] = program(args.ruleset, args.players)
        kernel.load_or_build = built
    if args.perft is None:
        def run(p, games=args.games):
            return interpreter.playouts(p, games, seed=0)
    else:
        def run(p, games=None):
            return interpreter.perft(p.new_game(seed=0), args.perft)
    first = {v: run(p, 50) for v, p in programs.items()}
    if len({repr(r) for r in first.values()}) != 1:
        sys.exit("the builds play different games")
    times: dict[str, list[float]] = {v: [] for v in programs}
    for _ in range(args.rounds):
        for v, p in programs.items():
            t0 = time.process_time()
            run(p)
            times[v].append(time.process_time() - t0)
    what = f"perft {args.perft}" if args.perft is not None else f"{args.games} games"
    ref = next(iter(times))
    best = {v: min(t) for v, t in times.items()}
    med = {v: sorted(t)[len(t) // 2] for v, t in times.items()}
    for v in times:
        print(f"{v}: build {cpu[v]:.1f} s CPU; {what}: best {best[v] * 1e3:.1f} ms, median {med[v] * 1e3:.1f} ms; "
              f"÷ {ref}: best {best[v] / best[ref]:.3f}, median {med[v] / med[ref]:.3f}")


if __name__ == "__main__":
    main()
