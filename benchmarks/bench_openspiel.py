"""Meeple against OpenSpiel, side by side in one process: uniformly random playouts
(complete games per second, the legal moves enumerated at every decision) and perft
(move paths counted by playing and undoing moves at every node, as `meeple perft` does, and by
OpenSpiel's `child` driven from Python).

    python benchmarks/bench_openspiel.py [--games N] [--repeat R] [--perft-depth D] [--markdown]

Each pair is a Meeple ruleset and the OpenSpiel game with the same rules (the tests
check that they agree move by move: tests/test_kalah_openspiel.py and the like). A pair
whose ruleset is not here (not bundled yet) is left out with a note. Needs open_spiel
(`pip install open_spiel`). The runs of the two engines alternate, best of R each, so a
noisy machine weighs on both alike; the ratio is the figure to compare.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple import interpreter  # noqa: E402

# (label, Meeple ruleset, players, OpenSpiel game, perft depth)
PAIRS = [
    ("tic-tac-toe", str(ROOT / "tests" / "testdata" / "ttt"), 2, "tic_tac_toe", 5),
    ("kalah (6 pits, 4 seeds)", "kalah", 2, "mancala", 4),
    ("dots and boxes 3×3", "dots-and-boxes", 2, "dots_and_boxes(num_rows=3,num_cols=3)", 3),
    ("go 9×9", "go", 2, "go(board_size=9,komi=7.5)", 2),
    ("chess", "chess", 2, "chess", 3),
]


def meeple_playouts(program, players: int, games: int) -> tuple[float, int]:
    rnd = random.Random(1)
    moves = 0
    t0 = time.perf_counter()
    for seed in range(games):
        g = program.new_game(players, seed)
        while not g.over:
            legal = g.legal_moves()
            g.apply(legal[rnd.randrange(len(legal))], safe=False)
            moves += 1
    return time.perf_counter() - t0, moves


def spiel_playouts(game, games: int) -> tuple[float, int]:
    rnd = random.Random(1)
    moves = 0
    t0 = time.perf_counter()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rnd.choices(actions, probs)[0])
                continue
            legal = s.legal_actions()
            s.apply_action(legal[rnd.randrange(len(legal))])
            moves += 1
    return time.perf_counter() - t0, moves


def spiel_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    return sum(spiel_perft(state.child(a), depth - 1) for a in legal)


def best(runs: list[tuple[float, int]]) -> tuple[float, int]:
    return min(runs, key=lambda r: r[0])


def measure(label, ruleset, players, spiel_name, depth, games, repeat, perft_depth):
    import pyspiel
    try:
        program = interpreter.load(ruleset).for_players(players)
    except Exception as e:  # noqa: BLE001 - a pair not bundled yet is left out
        return None, f"{label}: left out ({type(e).__name__}: {str(e).splitlines()[0]})"
    game = pyspiel.load_game(spiel_name)
    m_runs, s_runs = [], []
    for _ in range(repeat):
        m_runs.append(meeple_playouts(program, players, games))
        s_runs.append(spiel_playouts(game, games))
    (mt, mm), (st, sm) = best(m_runs), best(s_runs)
    d = depth if perft_depth is None else min(depth, perft_depth)
    t0 = time.perf_counter()
    m_count = interpreter.perft(program.new_game(players, 0), d)
    m_perft = time.perf_counter() - t0
    t0 = time.perf_counter()
    s_count = spiel_perft(game.new_initial_state(), d)
    s_perft = time.perf_counter() - t0
    return {
        "label": label, "meeple_games_s": games / mt, "spiel_games_s": games / st,
        "meeple_moves_game": mm / games, "spiel_moves_game": sm / games,
        "playout_ratio": (games / st) / (games / mt),
        "depth": d, "meeple_perft": m_count, "spiel_perft": s_count,
        "meeple_perft_s": m_perft, "spiel_perft_s": s_perft,
        "perft_ratio": m_perft / s_perft if s_perft else float("inf"),
    }, None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--perft-depth", type=int, default=None,
                    help="cap every pair's perft depth (default: each pair's own)")
    ap.add_argument("--only", action="append", default=[], help="a label to run (repeatable)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("needs open_spiel: pip install open_spiel")
    rows, notes = [], []
    for pair in PAIRS:
        if args.only and not any(o in pair[0] for o in args.only):
            continue
        row, note = measure(*pair, args.games, args.repeat, args.perft_depth)
        (rows.append(row) if row else notes.append(note))
        if row:
            print(f"{row['label']}: done", file=sys.stderr)
    print(f"# {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, open_spiel {getattr(pyspiel, '__version__', '?')}, "
          f"{args.games} games, best of {args.repeat}")
    head = ("| game | Meeple games/s | OpenSpiel games/s | OpenSpiel ÷ Meeple | moves/game "
            "(Meeple, OpenSpiel) | perft depth | paths (Meeple = OpenSpiel) | Meeple perft s "
            "| OpenSpiel perft s | perft ratio |")
    print(head)
    print("|" + "---|" * 10)
    for r in rows:
        same = "yes" if r["meeple_perft"] == r["spiel_perft"] else \
            f"NO: {r['meeple_perft']} ≠ {r['spiel_perft']}"
        print(f"| {r['label']} | {r['meeple_games_s']:,.1f} | {r['spiel_games_s']:,.1f} | "
              f"{r['playout_ratio']:.1f}× | {r['meeple_moves_game']:.1f}, "
              f"{r['spiel_moves_game']:.1f} | {r['depth']} | {r['meeple_perft']:,} ({same}) | "
              f"{r['meeple_perft_s']:.3f} | {r['spiel_perft_s']:.4f} | {r['perft_ratio']:.0f}× |")
    for n in notes:
        print(f"\n{n}")


if __name__ == "__main__":
    main()
