"""The optimised kernel guided by a profile of its own games (GCC's profile-guided
optimisation), in the background build alone (kernel_quick.py).

The kernel is built three times over in one temporary folder:

1. with ``-fprofile-generate`` (the code counts its branches as it runs);
2. trained: a process of its own (``python -I -S``, nothing but the standard library)
   loads that module and plays, through the module's own entries, ``GAMES`` random games
   from the fixed seed ``SEED`` (``playouts``) and the perft of a new game's start up to
   the first depth with more than ``PERFT_PATHS`` paths; at its end the counts are
   written beside the module (a ``.gcda`` file in the folder);
3. with ``-fprofile-use -fprofile-partial-training`` (the hot paths laid out and
   inlined by those counts; what the training did not run optimised as without them).

The same source, the same games: the profile changes how the code is laid out, never
what it computes (kernels have no floating point). It holds only how often each branch
of random games was taken, and is removed with the folder. The training is the same
every time (fixed seed and counts, no clock). Any failure on the way (an option the
compiler does not have, a compiler other than GCC, a training that errs, dies or
outlasts ``TRAIN_TIMEOUT``, no counts written) gives the plain optimised build instead,
never an error.
``MEEPLE_KERNEL_PGO=0`` builds the plain one. Against the plain build (in one process,
benchmarks/bench_kernel_pgo.py; the figures per game: docs/performance.md): a perft or
random games up to about 6% faster, or the same, or one game's about 2% slower (each
faster than or as fast as before ``-fvisibility=hidden`` and the profile); the build
costs about 2.5 times the CPU of the plain one (the training a few hundredths of a
second).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ...dsl import settings
from . import kernel_build

GENERATE = ["-fprofile-generate"]
USE = ["-fprofile-use", "-fprofile-partial-training"]
GAMES = 128               # the training's random games, in batches of BATCH
BATCH = 8
MAX_MOVES = 2000          # a training game's decisions at most
SEED = 0
PERFT_PATHS = 20_000      # the training's perft stops at the first depth with more paths
PERFT_DEPTH = 6           # (or at this depth)
START_RNG = 0x9E3779B97F4A7C15   # the generator state of the perft's new game
TRAIN_TIMEOUT = 120       # seconds

# The training: run by ``python -I -S`` in the build's folder, with the module's path and
# name; exits 0 once the games were played (the counts are written as it exits).
_TRAIN = r"""
import importlib.machinery, importlib.util, sys
path, name, games, batch, max_moves, seed, paths, depth, start = sys.argv[1:]
games, batch, max_moves, seed, paths, depth, start = map(int, (games, batch, max_moves, seed, paths, depth, start))
loader = importlib.machinery.ExtensionFileLoader(name, path)
mod = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path, loader=loader))
loader.exec_module(mod)
for first in range(0, games, batch):
    mod.playouts((seed, first, min(batch, games - first)), max_moves, None)
state = mod.start(start)
for d in range(1, depth + 1 if state is not None else 1):
    n = state.perft(d)
    if n is None or n > paths:
        break
"""


def enabled() -> bool:
    """False when ``MEEPLE_KERNEL_PGO=0`` (or another off value: dsl/settings.py ``on``)."""
    return settings.on("MEEPLE_KERNEL_PGO")


def build(name: str, key: str, source: str, tmp: Path, options: list[str]) -> Path:
    """The optimised kernel's module built in ``tmp`` with ``options`` (as
    kernel_build._build), guided by its training's profile where that can be had; else
    the plain build's (whose failure alone raises KernelError)."""
    if enabled() and gcc():
        try:
            out = guided(name, key, source, tmp, options)
        except kernel_build.KernelError:
            out = None
        if out is not None:
            return out
    return kernel_build._build(name, key, source, tmp, options)


def gcc() -> bool:
    """Whether the C++ compiler is GCC (its ``--version`` names the Free Software
    Foundation): clang writes no ``.gcda`` (its profiles need a tool of their own)."""
    cxx = kernel_build.compiler()
    if cxx is None:
        return False
    try:
        done = subprocess.run([*cxx, "--version"], capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and "free software foundation" in done.stdout.lower()


def guided(name: str, key: str, source: str, tmp: Path, options: list[str]) -> Path | None:
    """The module built with its profile, or None where the training gave none (raises
    KernelError where a build fails). Neither build uses the precompiled runtime: the
    text compiled must be the same both times."""
    trained = kernel_build._build(name, key, source, tmp, options + GENERATE, pch=False)
    if not train(trained, name) or not any(tmp.glob("*.gcda")):
        return None
    return kernel_build._build(name, key, source, tmp, options + USE, pch=False)


def train(module: Path, name: str) -> bool:
    """Runs the training on the instrumented ``module`` (in its folder); whether it ended
    well."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GCOV_")}   # (its counts: beside it)
    args = [str(module), name, *map(str, (GAMES, BATCH, MAX_MOVES, SEED, PERFT_PATHS, PERFT_DEPTH, START_RNG))]
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", _TRAIN, *args], cwd=module.parent, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=TRAIN_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
