"""The random bots' generators of a batch of games seeded in a kernel (cxx/kernel_random.hpp,
``bot_generators``: each seat's seed BLAKE2s of the game and the seat keyed with a hash
of the game seed, its generator ``rng.seed_state`` of it), each way the kernel can take,
in CPU time (``time.process_time``), the ways alternating round by round, best of
``--rounds``.

    python3 benchmarks/bench_seeding.py [--rounds 20] [--generators 2,8,4000] [--against TREE]

The kernels' runtime (``kernel_types.runtime_cxx``) is compiled with the kernels'
compiler and ``-O2`` and a few C functions around it, once per way: as the processor has
them, then with -DMK_NO_AVX512 (AVX2's 8 lanes at most) and -DMK_NO_AVX2 (the
compiler's target: SSE2 on x86-64). Each way seeds the same generators (each run checks
the first word every generator gives). Prints, per way and number of generators seeded
in one call (2: a game of two seats), the nanoseconds a generator; each call is of a
run of its own (another seed: its key hashed anew, as a call of one game does).
``--against TREE``: another checkout's runtime too (its ``runtime_cxx``, as the
processor has them), in the same rounds: the tree before a change (before
``MK_BOT_STATES``, Python's ``random.Random`` seeded in lanes: ``Generators``; the
seeds SHA-256 before ``kernel_blake2s.hpp``: its words are then not this tree's, and the
check of the first words is left out).
"""
from __future__ import annotations

import argparse
import ctypes
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.native import kernel_build, kernel_types  # noqa: E402

HARNESS = """
extern "C" {
// ``reps`` times the n generators of games 0.. of a run from seed + r (np seats) seeded
// as a batch of games seeds them (cxx/kernel_playout.hpp): in groups of a seeding group
// (whole games), into the generators of one group, kept from call to call (their memory
// touched once); a hash of the first word each gives, each time
unsigned long long mk_bench_seed(long long seed, size_t n, int np, int reps) {
#ifdef MK_BOT_STATES
    const size_t group = std::max(1, SEED_GROUP / np) * (size_t)np;
    static std::vector<uint64_t> g;
    g.resize(std::min(n, group));
    unsigned long long x = 0;
    for (int r = 0; r < reps; ++r)
        for (size_t t0 = 0; t0 < n; t0 += group) {
            const size_t count = std::min(group, n - t0);
            bot_generators(seed + r, (long long)(t0 / (size_t)np), g.data(), count, np);
            for (size_t t = 0; t < count; ++t) x = x * 31 + mk::next_u64(g[t]);
        }
    return x;
#else
    static Generators* held = nullptr;
    const size_t group = std::max(1, MT_GROUP / np) * (size_t)np;
    if (!held || held->g.size() != std::min(n, group)) {
        delete held;
        held = new Generators(std::min(n, group));
    }
    Generators& g = *held;
    unsigned long long x = 0;
    for (int r = 0; r < reps; ++r)
        for (size_t t0 = 0; t0 < n; t0 += group) {
            const size_t count = std::min(group, n - t0);
            bot_generators(seed + r, (long long)(t0 / (size_t)np), g, count, np);
            for (size_t t = 0; t < count; ++t) x = x * 31 + g.g[t].next();
        }
    return x;
#endif
}
}
"""
WAYS = {"as the processor has them": [], "without AVX-512": ["-DMK_NO_AVX512"], "without AVX2": ["-DMK_NO_AVX2"]}


def runtime(tree: str | None) -> str:
    """The kernels' runtime of this tree, or of ``tree`` (its own code imported apart)."""
    if tree is None:
        return kernel_types.runtime_cxx()
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from meeple.interpreter.native import kernel_types; "
            "sys.stdout.write(kernel_types.runtime_cxx())")
    done = subprocess.run([sys.executable, "-c", code, tree], capture_output=True, text=True, cwd=tree)
    if done.returncode:
        sys.exit(f"{tree}: no kernels' runtime read ({done.stderr.strip().splitlines()[-1:]})")
    return done.stdout


def build(folder: Path, name: str, options: list[str], tree: str | None = None):
    src = folder / f"{name}.cpp"
    src.write_text(runtime(tree) + HARNESS, encoding="utf-8")
    lib = folder / f"{name}.so"
    cxx = kernel_build.compiler()
    if cxx is None:
        sys.exit("no C++ compiler here")
    cmd = [*cxx, "-O2", "-std=c++17", "-fPIC", "-shared", "-w", *options,
           f"-I{sysconfig.get_paths()['include']}", str(src), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        sys.exit(done.stderr[-2000:])
    f = ctypes.PyDLL(str(lib)).mk_bench_seed
    f.restype = ctypes.c_ulonglong
    f.argtypes = [ctypes.c_longlong, ctypes.c_size_t, ctypes.c_int, ctypes.c_int]
    return f


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--generators", default="2,8,4000", help="generators seeded in one call, comma-separated")
    ap.add_argument("--seeds", type=int, default=20000, help="generators seeded a round, each way and size")
    ap.add_argument("--against", help="another checkout (the tree before a change): its runtime too")
    args = ap.parse_args()
    try:
        sizes = [int(x) for x in args.generators.split(",")]
    except ValueError:
        sys.exit(f"--generators: whole numbers apart by commas, not {args.generators!r}")
    if min(sizes) < 1 or args.rounds < 1 or args.seeds < 1:
        sys.exit("--generators, --rounds and --seeds must be 1 or more")
    if args.against and not Path(args.against, "interpreter", "native", "kernel_types.py").is_file():
        sys.exit(f"--against: {args.against} is not a checkout of Meeple")
    with tempfile.TemporaryDirectory() as tmp:
        ways = {name: build(Path(tmp), f"w{k}", options) for k, (name, options) in enumerate(WAYS.items())}
        if args.against:
            ways["the other tree"] = build(Path(tmp), "other", [], args.against)
        best = {(w, n): float("inf") for w in ways for n in sizes}
        names = list(ways)
        for r in range(args.rounds):
            for n in sizes:
                reps = max(1, args.seeds // n)
                said = set()
                for w in names[r % len(names):] + names[:r % len(names)]:   # (each way first in turn)
                    f = ways[w]
                    f(7, n, 2, 1)   # (untimed: the generators of n made, their memory touched)
                    t0 = time.process_time()
                    word = f(7, n, 2, reps)
                    best[w, n] = min(best[w, n], (time.process_time() - t0) / (reps * n))
                    if w != "the other tree":   # (another tree's generators may be another kind)
                        said.add(word)
                if len(said) != 1:
                    sys.exit(f"the ways seeded other words ({n} generators)")
    for n in sizes:
        print(f"{n} generators a call: " + ", ".join(f"{w} {best[w, n] * 1e9:.1f} ns" for w in ways))


if __name__ == "__main__":
    main()
