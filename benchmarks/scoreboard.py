"""Every figure of issue 13 (speed) in one table, against its target, written into
docs/performance.md with the command that made it.

    python benchmarks/scoreboard.py [--repeat 3] [--baseline 62913b9] [--write]
                                    [--parts playouts perft simulate compile]

- **playouts**: uniformly random playouts (the legal moves enumerated at every decision,
  one picked at random: in Meeple by its number, ``game.move_count()`` and
  ``game.apply(index, safe=False)``, as OpenSpiel's ``legal_actions()`` gives numbers;
  the random bots play so; each game with ``undo_limit = 0``, as a playout that takes no
  move back, as ``simulate`` and the search bots' playouts do) of each bundled game that
  OpenSpiel also has, in Meeple and in
  OpenSpiel (C++ driven from Python), in one process, the two engines' runs alternating,
  best of --repeat, in CPU time (``time.process_time``). Target: OpenSpiel ÷ Meeple at
  most 5 for the board games, at most 3 for the card and dice games.
- **perft**: chess's move paths at depth 4 from the start (197,281), Meeple's
  ``interpreter.perft`` against OpenSpiel's ``child`` driven from Python. Target: at most 5×.
- **simulate**: ``meeple simulate`` on the three seed games, whole processes (start-up
  included, user + system CPU), in this checkout and in --baseline (exported with
  ``git archive``), the two alternating, best of --repeat. --installed measures the
  installed ``meeple`` (e.g. ``MEEPLE_NATIVE=1 pip install .``) instead of the checkout;
  --native runs the rules on native code (``load(native=True)``, ``simulate --native``;
  the native modules are built before the timed runs, as a second run finds them). Target: at least 3× the
  baseline's games per second (issue 13 was measured at 62913b9).
- **compile**: ``meeple.load`` of every bundled ruleset and a new game, in a fresh
  process with the disk cache off (the cold compile), and the whole first screen of
  ``meeple play`` with the cache filled. Target: compile under 0.3 s.

Needs open_spiel for the first two parts (``pip install open_spiel``) and git for the
third. --write replaces the table between the scoreboard's markers in
docs/performance.md (and adds them, under a heading of their own, the first time).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("MEEPLE_KERNEL_QUICK", "0")   # (speed: the optimised kernel, built at once)

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = "--installed" in sys.argv    # the installed meeple (e.g. with its engine compiled)
NATIVE = "--native" in sys.argv          # the rules' code compiled per program (--native)
if not INSTALLED:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_load  # noqa: E402
from bench_openspiel import spiel_perft  # noqa: E402

from meeple import interpreter  # noqa: E402

BOARD, CARDS = 5.0, 3.0
# (label, Meeple ruleset, players, OpenSpiel game, games per run, target)
PLAYOUTS = [
    ("tic-tac-toe", str(ROOT / "tests" / "testdata" / "ttt"), 2, "tic_tac_toe", 400, BOARD),
    ("kalah (6 pits, 4 seeds)", "kalah", 2, "mancala", 100, BOARD),
    ("dots and boxes 3×3", "dots-and-boxes", 2, "dots_and_boxes(num_rows=3,num_cols=3)", 100, BOARD),
    ("go 9×9", "go", 2, "go(board_size=9,komi=7.5)", 10, BOARD),
    ("chess", "chess", 2, "chess", 6, BOARD),
    ("hearts (card game)", "hearts", 4, "hearts", 50, CARDS),
    ("backgammon (dice game)", "backgammon", 2, "backgammon", 10, CARDS),
]
SIMULATE = [
    ["cherokee", "--games", "300", "--players", "3"],
    ["clans-and-glory", "--games", "300", "--players", "4"],
    ["brotherhood-of-nine", "--games", "50", "--players", "4", "--variant", "allies",
     "--variant", "capture_the_flag"],
]
COMPILED = "compiled" if (INSTALLED or NATIVE) else "python"   # which table --write replaces


def meeple_playouts(program, players: int, games: int) -> float:
    rnd = random.Random(1)
    t0 = time.process_time()
    for seed in range(games):
        g = program.new_game(players, seed)
        g.undo_limit = 0      # (no move is taken back: no history, no journal)
        while not g.over:     # as OpenSpiel's legal_actions: the options, by number
            g.apply(rnd.randrange(g.move_count()), safe=False)
    return time.process_time() - t0


def spiel_playouts(game, games: int) -> float:
    rnd = random.Random(1)
    t0 = time.process_time()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rnd.choices(actions, probs)[0])
                continue
            legal = s.legal_actions()
            s.apply_action(legal[rnd.randrange(len(legal))])
    return time.process_time() - t0


def row(what: str, meeple: str, peer: str, ratio: float, target: str, met: bool) -> list[str]:
    return [what, meeple, peer, f"{ratio:.2f}", target, "**met**" if met else "not met"]


def playouts(repeat: int, only: list[str]) -> list[list[str]]:
    import pyspiel
    out = []
    for label, ruleset, players, spiel_name, games, target in PLAYOUTS:
        if only and not any(o in label for o in only):
            continue
        program = interpreter.load(ruleset, native=NATIVE)
        program.new_game(players, 0)    # compiled (natively: built) before the timed runs
        game = pyspiel.load_game(spiel_name)
        m, s = [], []
        for _ in range(repeat):
            m.append(meeple_playouts(program, players, games))
            s.append(spiel_playouts(game, games))
        mg, sg = games / min(m), games / min(s)
        ratio = sg / mg
        out.append(row(f"random playouts, {label}", f"{mg:,.1f} games/s", f"{sg:,.0f} games/s",
                       ratio, f"OpenSpiel ÷ Meeple ≤ {target:g}", ratio <= target))
        print(f"playouts {label}: {ratio:.1f}", file=sys.stderr)
    return out


def perft(repeat: int) -> list[list[str]]:
    import pyspiel
    program = interpreter.load("chess", native=NATIVE)
    program.new_game(2, 0)
    game = pyspiel.load_game("chess")
    m, s = [], []
    for _ in range(repeat):
        g = program.new_game(2, 0)
        t0 = time.process_time()
        count = interpreter.perft(g, 4)
        m.append(time.process_time() - t0)
        t0 = time.process_time()
        spiel_count = spiel_perft(game.new_initial_state(), 4)
        s.append(time.process_time() - t0)
        if count != spiel_count:
            sys.exit(f"chess perft 4: Meeple counts {count}, OpenSpiel {spiel_count}")
    ratio = min(m) / min(s)
    print(f"perft chess 4: {ratio:.1f}", file=sys.stderr)
    return [row(f"chess perft, depth 4 ({count:,} paths)", f"{min(m):.2f} s", f"{min(s):.3f} s",
                ratio, "Meeple ÷ OpenSpiel ≤ 5", ratio <= 5)]


def export(commit: str, into: Path) -> None:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def _simulate_env(tree: Path, cache: str, installed: bool) -> dict:
    env = bench_load.environment(tree, Path(cache), False)
    env["_CWD"] = str(tree)
    if installed:   # not the checkout's code: the installed meeple, from a neutral folder
        env.pop("PYTHONPATH")
        env["_CWD"] = cache
    return env


def simulate(repeat: int, baseline: str) -> list[list[str]]:
    """Each command whole (start-up, loading and the games) and with one game (start-up
    and loading): the difference is the CPU time of the other games, the games per second
    that the command itself reports. Both must be 3 times the baseline's."""
    out = []
    with tempfile.TemporaryDirectory(prefix="meeple-baseline-") as old, \
            tempfile.TemporaryDirectory(prefix="meeple-bench-cache-") as cache:
        export(baseline, Path(old))
        trees = {"old": Path(old), "new": ROOT}
        for tree in trees.values():     # .pyc first: no run measures Python compiling Meeple
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], capture_output=True)
        for args in SIMULATE:
            games = int(args[args.index("--games") + 1])
            one = list(args)
            one[one.index("--games") + 1] = "1"
            cmds = {}
            for name, tree in trees.items():
                native = ["--native"] if NATIVE and name == "new" else []
                env = _simulate_env(tree, cache, INSTALLED and name == "new")
                if not native:   # pure Python (kernels are the default where a compiler is)
                    env["MEEPLE_NO_NATIVE"] = "1"
                cmds[name] = [(cmd + ["-q", "-j", "1"] + native, env) for cmd in
                              ([sys.executable, "-m", "meeple", "simulate", *args],
                               [sys.executable, "-m", "meeple", "simulate", *one])]
            if NATIVE:      # the native modules built and cached before the timed runs
                bench_load.child_cpu(*cmds["new"][1])
            whole = {"old": [], "new": []}
            start = {"old": [], "new": []}
            for _ in range(repeat):
                for name in trees:
                    whole[name].append(bench_load.child_cpu(*cmds[name][0])[0])
                    start[name].append(bench_load.child_cpu(*cmds[name][1])[0])
            rate = {n: (games - 1) / max(min(whole[n]) - min(start[n]), 1e-9) for n in trees}
            speed_whole = min(whole["old"]) / min(whole["new"])
            speed = rate["new"] / rate["old"]
            label = f"`meeple simulate {' '.join(args)} -j 1`"
            out.append(row(label + ", the games", f"{rate['new']:.1f} games/s",
                           f"{rate['old']:.1f} games/s at `{baseline}`", speed,
                           "≥ 3× the baseline", speed >= 3))
            out.append(row(label + ", the whole command", f"{min(whole['new']):.2f} s",
                           f"{min(whole['old']):.2f} s at `{baseline}`", speed_whole,
                           "≥ 3× the baseline", speed_whole >= 3))
            print(f"simulate {args[0]}: {speed:.2f} (whole {speed_whole:.2f})", file=sys.stderr)
    return out


def compile_times(repeat: int) -> list[list[str]]:
    from meeple.dsl.load import bundled_names
    out = []
    for name in bundled_names():
        cold = bench_load.measure(ROOT, (name, (), None), "off", repeat)["load"]
        warm = bench_load.measure(ROOT, (name, (), None), "warm", repeat)["play"]
        met = cold < 0.3 and warm < 0.8
        out.append([f"{name}: compile (cache off); first screen of `meeple play` (cache filled)",
                    f"{cold:.2f} s; {warm:.2f} s", "", "", "< 0.3 s; well under 1 s",
                    "**met**" if met else "not met"])
        print(f"compile {name}: {cold:.2f} s, first screen {warm:.2f} s", file=sys.stderr)
    return out


def table(rows: list[list[str]], command: str) -> str:
    from meeple import __version__
    engine = "the compiled engine" if getattr(interpreter, "compiled_engine", lambda: False)() \
        else "the Python engine"
    where = f"the installed meeple {__version__}" if INSTALLED else "the checkout"
    if NATIVE:
        where += ", the rules on native code"
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    try:
        import pyspiel
        spiel = f", open_spiel {pyspiel.__version__}"
    except (ImportError, AttributeError):
        spiel = ""
    head = (f"Measured on {datetime.date.today().isoformat()} at commit `{commit}` "
            f"({os.cpu_count()} cores, {platform.python_implementation()} "
            f"{platform.python_version()}, {platform.machine()}{spiel}), {where} with "
            f"{engine}, CPU time:\n\n"
            f"    {command}\n\n"
            "| figure | Meeple | peer | ratio | target | |\n|---|---:|---:|---:|---|---|\n")
    return head + "".join("| " + " | ".join(r) + " |\n" for r in rows)


def write(text: str) -> None:
    doc = ROOT / "docs" / "performance.md"
    old = doc.read_text(encoding="utf-8")
    begin, end = f"<!-- scoreboard:{COMPILED}:begin -->", f"<!-- scoreboard:{COMPILED}:end -->"
    block = f"{begin}\n{text}{end}"
    if begin in old and end in old:
        new = old[:old.index(begin)] + block + old[old.index(end) + len(end):]
    else:   # the first time: the second section of the page, after its opening line
        at = old.index("\n## ")
        new = (old[:at] + "\n## Issue 13: the scoreboard\n\nEvery target of issue 13 (speed) "
               "against its figure, written by the benchmark itself:\n\n" + block + "\n" + old[at:])
    tmp = doc.with_suffix(".md.tmp")
    tmp.write_text(new, encoding="utf-8")
    os.replace(tmp, doc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", default="62913b9", help="the commit simulate is compared with")
    ap.add_argument("--parts", nargs="*", default=["playouts", "perft", "simulate", "compile"])
    ap.add_argument("--only", nargs="*", default=[], help="playout games whose label has one of these")
    ap.add_argument("--write", action="store_true", help="write the table into docs/performance.md")
    ap.add_argument("--native", action="store_true",
                    help="run the rules on native code (load(native=True), simulate --native)")
    ap.add_argument("--installed", action="store_true",
                    help="measure the installed meeple, not the checkout's code (e.g. after "
                         "MEEPLE_NATIVE=1 pip install .)")
    args = ap.parse_args()
    if {"playouts", "perft"} & set(args.parts):
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            sys.exit("the playouts and perft need open_spiel: pip install open_spiel")
    rows = []
    if "playouts" in args.parts:
        rows += playouts(args.repeat, args.only)
    if "perft" in args.parts:
        rows += perft(args.repeat)
    if "simulate" in args.parts:
        if shutil.which("git") is None:
            sys.exit("simulate needs git (to export the baseline)")
        rows += simulate(args.repeat, args.baseline)
    if "compile" in args.parts:
        rows += compile_times(args.repeat)
    command = "python benchmarks/scoreboard.py " + " ".join(sys.argv[1:])
    text = table(rows, command.strip())
    print(text)
    if args.write:
        write(text)


if __name__ == "__main__":
    main()
