"""A batch of random games in a kernel, for callgrind to count (docs/performance.md):
the kernel is loaded (built with MEEPLE_KERNEL_QUICK=0 for the -O2 figures), one game
played first so that what a first call makes is not counted, then GAMES games from seed
0 in one ``interpreter.playouts`` call, as a dict per game or in the compact form. The
kernel is left unsealed (its symbols readable), so ``--toggle-collect`` finds
``k_playouts``:

    MEEPLE_KERNEL_QUICK=0 valgrind --tool=callgrind --toggle-collect='*k_playouts*' \\
        $(python3 -c 'import sys; print(sys.executable)') benchmarks/prof_playouts.py GAME GAMES dict|compact

(valgrind wants the Python executable itself: a shell shim in front of it, as pyenv's,
leaves the kernel uncounted.) GAME is a bundled ruleset or a path; ``--players N``
(default 2).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.interpreter.native import cython_code  # noqa: E402

from meeple import interpreter  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("games", type=int)
    ap.add_argument("form", choices=["dict", "compact"])
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    cython_code._sealed = lambda *a: None   # (the kernel's symbols kept for callgrind)
    try:
        program = interpreter.load(args.game, native=True).for_players(args.players)
    except (interpreter.MeepleError, FileNotFoundError, ValueError) as e:
        # (a ruleset not found or not loaded, a player count it has not: said, no traceback)
        sys.exit(str(e))
    if not program.kernel:
        sys.exit(f"no kernel plays {args.game} here")
    interpreter.playouts(program, 1)
    games = interpreter.playouts(program, args.games, seed=0, compact=args.form == "compact")
    moves = games.moves if args.form == "compact" else [g["moves"] for g in games]
    print(f"moves a game: {sum(moves) / max(1, len(moves)):.1f}")


if __name__ == "__main__":
    main()
