"""Random playouts in RBG (Regular Boardgames, https://github.com/marekesz/rbg1.0), the
general game system whose compiler ``rbg2cpp`` turns a game description into C++, beside
Meeple's batch (``interpreter.playouts``, as in benchmarks/bench_kernel_playouts.py) on the
games both ship, in CPU time, the two alternating round by round, best of ``--repeat``.

    python benchmarks/bench_rbg.py RBG2CPP_DIR [--repeat 3] [--ms 2000] [--only chess,hex]

RBG's figure is its own flat Monte-Carlo benchmark (``test/benchmark.cpp``: uniform
random moves until the game ends, keeper moves applied in between), run for ``--ms``
milliseconds of its wall clock; games per CPU second = the playouts it reports ÷ the
child's user+sys time (``resource.getrusage(RUSAGE_CHILDREN)``, which also counts the
process start, a few milliseconds). Meeple's figure: the games from seed 0 in one
``interpreter.playouts`` call ÷ ``time.process_time()``, a dict per game, and in the
compact form (``compact=True``: per game its numbers, no Python object; RBG's benchmark
keeps nothing of a game but its length). Each batch is sized to last about as long as
RBG's run (the dict form's half a second at most; bench_kernel_playouts.py's games at
least, times ``--scale``): a batch of a few milliseconds, as tic-tac-toe's 4,000 games
were, reads the noise of a moment on a shared machine. Each side's average moves
a game is printed too (RBG's "depth"), since the rules differ in details. The kernels and RBG's
binaries are built first (not counted).

Building RBG (C++17 and Boost ≥ 1.67 headers: ``apt-get install libboost-dev``)::

    git clone https://github.com/uicus/rbg2cpp            # the compiler
    git clone https://github.com/uicus/rbgParser rbg2cpp/rbgParser
    git clone https://github.com/marekesz/rbgGames rbg2cpp/rbgGames
    cd rbg2cpp && make rbg2cpp                             # bin/rbg2cpp

This script then builds each game, as the repository's ``make benchmark_<game>`` does,
into ``RBG2CPP_DIR/bench/<game>/benchmark``::

    bin/rbg2cpp -o reasoner rbgGames/games/<game>.rbg
    g++ -std=c++17 -Ofast -march=native -flto -s -DNDEBUG -DRBG_RANDOM_GENERATOR=0 \
        -Itest -I. -o benchmark reasoner.cpp test/benchmark.cpp

The pairs are the same games, not the same descriptions: the rules differ in details
(see docs/performance.md, "RBG").

Besides each side's best, each round's ratio is printed as their median and the rounds
Meeple was faster in (``rbg_over_meeple_compact_rounds``): the two run one after the
other, a round's ratio reads both in about the same second of a shared machine, where
the best of each may come from different moments.

``--callgrind`` counts instructions instead, which the load of the machine does not
change: RBG's benchmark under ``valgrind --tool=callgrind`` (built again for
``-march=x86-64-v3`` into ``RBG2CPP_DIR/bench-callgrind/<game>``: valgrind runs no
AVX-512), its whole run ÷ the playouts it reports; Meeple's compact batch counted as
docs/performance.md counts it (benchmarks/prof_playouts.py, ``k_playouts`` alone, the
kernel unguided: ``MEEPLE_KERNEL_PGO=0``, in a cache folder of its own), ÷ its games::

    python benchmarks/bench_rbg.py RBG2CPP_DIR --callgrind [--ms 4000] [--only ...]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kernel_playouts import GAMES, batch, interpreter

# Meeple label (bench_kernel_playouts.GAMES) -> RBG game (rbgGames/games/<name>.rbg)
SHARED = {
    "tic-tac-toe": "ticTacToe",
    "connect four": "connect4",
    "breakthrough": "breakthrough",
    "othello": "reversi",
    "checkers": "englishDraughts",
    "hex 11×11": "hex",
    "chess": "chess",
}


# Meeple's games counted under callgrind (docs/performance.md, "Where the time goes")
CALLGRIND_GAMES = {"tic-tac-toe": 2000, "connect four": 2000, "othello": 100, "checkers": 300,
                   "breakthrough": 300, "chess": 20, "hex 11×11": 100}


def build(rbg: Path, game: str, callgrind: bool = False) -> Path:
    out = rbg / ("bench-callgrind" if callgrind else "bench") / game
    exe = out / "benchmark"
    if exe.exists():
        return exe
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(rbg / "bin" / "rbg2cpp"), "-o", "reasoner",
                    str(rbg / "rbgGames" / "games" / f"{game}.rbg")], cwd=out, check=True)
    march = "-march=x86-64-v3" if callgrind else "-march=native"
    subprocess.run(["g++", "-std=c++17", "-Ofast", march, "-flto", "-s", "-DNDEBUG",
                    "-DRBG_RANDOM_GENERATOR=0", f"-I{rbg / 'test'}", "-I.", "-o", "benchmark",
                    "reasoner.cpp", str(rbg / "test" / "benchmark.cpp")], cwd=out, check=True)
    return exe


def _instructions(cmd: list[str], env: dict | None = None, collect: str | None = None) -> tuple[int, str]:
    """(the instructions callgrind counts of ``cmd``, its output); ``collect``: only
    inside the functions of this pattern."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                              *([f"--toggle-collect={collect}"] if collect else []), *cmd],
                             capture_output=True, text=True, check=True, env=env)
        totals = re.findall(r"^(?:totals|summary): (\d+)", out.read_text(), re.M)
        return int(totals[-1]), run.stdout


def callgrind_row(rbg: Path, label: str, ruleset: str, players: int, ms: int) -> dict:
    """Instructions a game of RBG's benchmark and of Meeple's compact batch (see the
    module)."""
    total, text = _instructions([str(build(rbg, SHARED[label], callgrind=True)), str(ms)])
    playouts = int(re.search(r"number of playouts: (\d+)", text).group(1))
    games = CALLGRIND_GAMES[label]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "MEEPLE_KERNEL_PGO": "0", "MEEPLE_KERNEL_QUICK": "0", "MEEPLE_CACHE_DIR": cache}
        prof = Path(__file__).resolve().parent / "prof_playouts.py"
        mine, said = _instructions([sys.executable, str(prof), ruleset, str(games), "compact", "--players",
                                    str(players)], env, "*k_playouts*")
    moves = float(re.search(r"moves a game: ([\d.]+)", said).group(1))
    depth = float(re.search(r"depth: avg ([\d.]+)", text).group(1))
    return {"game": label, "rbg_game": SHARED[label], "meeple_games": games, "rbg_playouts": playouts,
            "meeple_avg_moves": moves, "rbg_avg_moves": round(depth, 1),
            "meeple_instructions_per_game": round(mine / games),
            "rbg_instructions_per_game": round(total / playouts),
            "meeple_over_rbg": round(mine / games / (total / playouts), 2)}


def rbg_run(exe: Path, ms: int) -> tuple[int, float, float]:
    """(playouts, child CPU seconds, average moves a game) of one run of RBG's benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = subprocess.run([str(exe), str(ms)], capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    playouts = int(re.search(r"number of playouts: (\d+)", text).group(1))
    depth = float(re.search(r"depth: avg ([\d.]+)", text).group(1))
    return playouts, cpu, depth


def sized(program, games: int, compact: bool, seconds: float) -> int:
    """The games of a batch that lasts about ``seconds`` of CPU, ``games`` at least (a
    batch of ``games`` timed first)."""
    spent = batch(program, games, compact=compact)
    return max(games, int(games * seconds / max(spent, 1e-6)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rbg", type=Path, help="the rbg2cpp checkout with bin/rbg2cpp built")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ms", type=int, default=2000, help="RBG benchmark length per run")
    ap.add_argument("--only", default="", help="comma-separated words of the labels")
    ap.add_argument("--scale", type=float, default=1.0, help="Meeple games per batch × this")
    ap.add_argument("--callgrind", action="store_true", help="instructions a game under callgrind instead")
    args = ap.parse_args()
    only = [o for o in args.only.split(",") if o]
    for label, ruleset, players, _spiel, games in GAMES:
        if label not in SHARED or (only and not any(o in label for o in only)):
            continue
        if args.callgrind:
            print(json.dumps(callgrind_row(args.rbg.resolve(), label, ruleset, players, args.ms),
                             ensure_ascii=False), flush=True)
            continue
        exe = build(args.rbg.resolve(), SHARED[label])
        program = interpreter.load(ruleset, native=True).for_players(players)
        if not program.kernel:
            print(f"{label}: no kernel ({interpreter.kernel_status()})", file=sys.stderr)
            continue
        sample = interpreter.playouts(program, min(games, 200))   # (and the start made, not counted)
        meeple_depth = sum(r["moves"] for r in sample) / len(sample)
        # (each batch about as long as RBG's run, the dict form's half a second at most: a
        # batch of milliseconds reads the noise of a moment)
        dicts = max(1, int(sized(program, games, False, min(args.ms, 500) / 1000) * args.scale))
        compacts = max(1, int(sized(program, games, True, args.ms / 1000) * args.scale))
        meeple_best, compact_best, rbg_best, depth = float("inf"), float("inf"), 0.0, 0.0
        paired = []   # (each round's RBG ÷ compact, the two run one after the other)
        for _ in range(args.repeat):
            meeple_best = min(meeple_best, batch(program, dicts))
            spent = batch(program, compacts, compact=True)
            compact_best = min(compact_best, spent)
            playouts, cpu, depth = rbg_run(exe, args.ms)
            rbg_best = max(rbg_best, playouts / cpu)
            paired.append((playouts / cpu) / (compacts / spent))
        meeple_rate, compact_rate = dicts / meeple_best, compacts / compact_best
        print(json.dumps({"game": label, "rbg_game": SHARED[label],
                          "meeple_batch_games_per_s": round(meeple_rate, 1),
                          "meeple_compact_games_per_s": round(compact_rate, 1),
                          "rbg_games_per_s": round(rbg_best, 1),
                          "meeple_avg_moves": round(meeple_depth, 1), "rbg_avg_moves": round(depth, 1),
                          "rbg_over_meeple": round(rbg_best / meeple_rate, 2),
                          "rbg_over_meeple_compact": round(rbg_best / compact_rate, 2),
                          "rbg_over_meeple_compact_rounds": {
                              "median": round(statistics.median(paired), 3),
                              "meeple_faster": sum(r < 1 for r in paired), "of": len(paired)}},
                         ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()

