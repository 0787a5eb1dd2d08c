"""What walls on an edges board cost beside the finer board they replace (issue 37), in
CPU time (``time.process_time``), both forms in one process, round by round, with
OpenSpiel's own quoridor(board_size=5) (C++) as the peer:

- tests/testdata/quoridor: the walls stand in the gaps of ``edges(of: pawn)``; a pawn's
  steps are ``across``, the last path to a goal ``connected`` over it (a new wall's gaps
  given as closed: ``across(gap, square, gaps)``);
- tests/testdata/quoridor_fine: the same rules on a 9 x 9 board of squares, gaps and
  corners, gaps closed by functions of the walls' corners (the workaround).

The same random choices play the same games in both forms (checked: the same number of
decisions). OpenSpiel plays its own random games (as many, the same policy: a legal
action drawn uniformly). Prints games per CPU second for each form and engine (the median
of the rounds).

    python benchmarks/bench_edges.py [--games N] [--rounds R] [--native]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from bench_playouts_ruleset import playouts  # the same random games, timed

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "testdata"


def spiel_playouts(games: int) -> tuple[float, int] | None:
    """The same for OpenSpiel's quoridor, or None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game, rnd, decisions = pyspiel.load_game("quoridor(board_size=5)"), random.Random(1), 0
    t0 = time.process_time()
    for _ in range(games):
        st = game.new_initial_state()
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply_action(legal[rnd.randrange(len(legal))])
            decisions += 1
    return time.process_time() - t0, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--native", action="store_true", help="also the kernels (built first, not timed)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from meeple import interpreter

    def program(folder: str, native: bool):
        rules = interpreter.load(str(DATA / folder))
        if native:
            rules.use_native(report=False)
        prog = rules.for_players(2)
        assert not native or prog.kernel, f"no kernel for {folder}"
        return prog

    forms = {"edges": "quoridor", "finer board": "quoridor_fine"}
    engines = ["python"] + (["kernel"] if args.native else [])
    progs = {(f, e): program(folder, e == "kernel") for f, folder in forms.items() for e in engines}
    times: dict = {k: [] for k in [*progs, "openspiel"]}
    seen: dict = {}
    for _ in range(args.rounds):   # (round by round: every form in each round)
        for key, prog in progs.items():
            cpu, seen[key] = playouts(prog, args.games)
            times[key].append(cpu)
        spiel = spiel_playouts(args.games)
        if spiel is not None:
            times["openspiel"].append(spiel[0])
            seen["openspiel"] = spiel[1]
    for e in engines:
        keys = [k for k in progs if k[1] == e]
        assert len({seen[k] for k in keys}) == 1, {k: seen[k] for k in keys}   # the same games
        line = ", ".join(f"{k[0]} {args.games / statistics.median(times[k]):,.1f}" for k in keys)
        print(f"quoridor 5 x 5 ({e}, {seen[keys[0]]:,} decisions): games per CPU second: {line}")
    if times["openspiel"]:
        print(f"OpenSpiel quoridor(board_size=5) ({seen['openspiel']:,} decisions): games per CPU second: "
              f"{args.games / statistics.median(times['openspiel']):,.1f}")


if __name__ == "__main__":
    main()
