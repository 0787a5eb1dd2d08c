"""The bytes of one copied game state, Meeple's kernel against OpenSpiel, per game.

    python benchmarks/bench_state_size.py [--plies 0,10,20] [--copies 2000] [--only chess]

Meeple: the kernel's state (``KernelGame._k.copy()``: what the bots, ``interpreter.playouts``
and the OpenSpiel adapter copy); OpenSpiel: ``state.clone()`` of its own game. Both are
measured the same way, after the same number of random moves (plies) from the start:
``--copies`` copies of the state are made and kept, and a copy's bytes are the growth
of the C/C++ heap in use (glibc ``mallinfo2``: ``uordblks + hblkhd``, every allocation the
copy owns, with malloc's own bytes per block) divided by the copies, plus the Python
object that holds it where Python's own allocator made it (pymalloc: an object of at
most 512 bytes, ``sys.getsizeof``, in a block of the next multiple of 16 bytes, as
pymalloc gives it: so both sides count each block as its allocator hands it out; a
larger object is malloc's, in the heap's growth already). What copies share is not
counted (Meeple's lists are shared until changed; OpenSpiel's states share their game).
Meeple's copy is one Python object (its ``KState`` holds the state); OpenSpiel's is a
Python object (pybind11's) and its C++ state (``Clone()``: the board and the history). OpenSpiel's state
keeps the game's history (it grows by the move), Meeple's does not (a rule that keeps
positions, as chess's and go's, holds a list shared by the copies).

Prints one JSON line per game and ply count, and with --markdown a table for
docs/performance.md. Linux (glibc) only.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple import interpreter  # noqa: E402
from meeple.openspiel import played_program  # noqa: E402

# (label, Meeple ruleset, OpenSpiel game)
GAMES = [
    ("chess", "chess", "chess"),
    ("go 9×9", "go", "go(board_size=9,komi=7.5)"),
    ("kalah", "kalah", "mancala"),
]


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ["arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"]]


_libc = ctypes.CDLL("libc.so.6")
_libc.mallinfo2.restype = _Mallinfo2


def heap_in_use() -> int:
    m = _libc.mallinfo2()
    return m.uordblks + m.hblkhd


PYMALLOC_MAX = 512   # (CPython's SMALL_REQUEST_THRESHOLD: larger objects are malloc's)
PYMALLOC_BLOCK = 16  # (CPython's ALIGNMENT on 64 bits: a block's size is a multiple of it)


def copy_bytes(copy, copies: int) -> float:
    """The bytes one call of ``copy()`` keeps (see the module's text)."""
    gc.collect()
    keep = [None] * copies
    before = heap_in_use()
    for i in range(copies):
        keep[i] = copy()
    obj = sys.getsizeof(keep[0])
    block = -(-obj // PYMALLOC_BLOCK) * PYMALLOC_BLOCK
    return (heap_in_use() - before) / copies + (block if obj <= PYMALLOC_MAX else 0)


def meeple_state(ruleset: str, plies: int):
    """The kernel's state of a game after ``plies`` random moves."""
    prog = played_program(interpreter.load(ruleset), 2)
    game, rnd = prog.new_game(2, 0), random.Random(1)
    for _ in range(plies):
        game.apply(rnd.randrange(game.move_count()), safe=False)
    if getattr(game, "_k", None) is None:
        raise SystemExit(f"{ruleset}: no kernel plays this game here ({interpreter.kernel_status()})")
    return game._k


def spiel_state(name: str, plies: int):
    import pyspiel
    state, rnd = pyspiel.load_game(name).new_initial_state(), random.Random(1)
    for _ in range(plies):
        state.apply_action(rnd.choice(state.legal_actions()))
    return state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", default="0,10,20", help="random moves played before the copy")
    ap.add_argument("--copies", type=int, default=2000)
    ap.add_argument("--only", default="", help="comma-separated words of the labels")
    ap.add_argument("--markdown", action="store_true", help="also print a table")
    args = ap.parse_args()
    only = [w for w in args.only.split(",") if w]
    rows = []
    for label, ruleset, spiel in GAMES:
        if only and not any(w in label for w in only):
            continue
        for plies in (int(p) for p in args.plies.split(",")):
            k, s = meeple_state(ruleset, plies), spiel_state(spiel, plies)
            row = {"game": label, "plies": plies, "meeple_bytes": round(copy_bytes(k.copy, args.copies)),
                   "openspiel_bytes": round(copy_bytes(s.clone, args.copies))}
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.markdown:
        print("\n| game | plies | Meeple kernel | OpenSpiel |\n|---|---:|---:|---:|")
        for r in rows:
            print(f"| {r['game']} | {r['plies']} | {r['meeple_bytes']:,} B | {r['openspiel_bytes']:,} B |")


if __name__ == "__main__":
    main()
