"""What `make` and `permute` cost beside the workarounds they replace (issue 37, items 5
and 6), in CPU time (``time.process_time``), both forms in one process, round by round:

- pentago (tests/testdata/made_items/pentago.meeple): a quadrant turned by one `permute`,
  against the same rules turning it through a scratch board (each marble moved to the
  scratch board's cell of its new place, then back: up to 18 moves), the new places found
  for the occupied cells only, or for all nine first as `permute`'s list does;
- amazons 6 × 6 (tests/testdata/made_items/amazons.meeple): each arrow made from the
  supply by `make`, against arrows kept in a plain zone filled by a deck and moved from
  its top (the pre-made pool).

The same random choices play the same games in both forms (checked: the same number of
decisions). Prints games per CPU second for each form and engine (the median of the
rounds).

    python benchmarks/bench_made_items.py [--games N] [--rounds R] [--native]
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from bench_playouts_ruleset import playouts  # the same random games, timed

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "testdata" / "made_items"


TURN = "  permute q to [turned(x, t / 2, t % 2 == 1) for x in q]\n"
BACK = "  for x in q {\n    let z = cell(tmp, row: x.row, col: x.col)\n    if occupied(z) { move top(z) to x }\n  }\n"


def scratch_pentago(text: str, every: bool = False) -> str:
    """Pentago with its quadrant turned through a scratch board instead of `permute`: the
    new place found for the occupied cells only, or (``every``) for each of the nine
    cells first, as `permute`'s list does."""
    assert TURN in text
    text = text.replace("board b: grid(rows: 6, cols: 6) holds Marble\n",
                        "board b: grid(rows: 6, cols: 6) holds Marble\nboard tmp: grid(rows: 6, cols: 6) holds Marble\n")
    if every:
        return text.replace(TURN, "  let ys = [turned(x, t / 2, t % 2 == 1) for x in q]\n  for i in 0..8 {\n"
                                  "    if occupied(q[i]) { move top(q[i]) to cell(tmp, row: ys[i].row, col: ys[i].col) }\n"
                                  "  }\n" + BACK)
    return text.replace(TURN, "  for x in q {\n    if occupied(x) {\n      let y = turned(x, t / 2, t % 2 == 1)\n"
                              "      move top(x) to cell(tmp, row: y.row, col: y.col)\n    }\n  }\n" + BACK)


def pool_amazons(text: str) -> str:
    """Amazons with its arrows in a pre-made pool moved from, instead of `make`."""
    return text.replace("supply arrows: 28 of Piece(seat: 0)\n",
                        "zone arrows: Piece\ndeck spare into arrows { 28 of Piece(seat: 0) }\n") \
        .replace("  make Piece at a\n", "  move top(arrows) to a\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--native", action="store_true", help="also the kernels (built first, not timed)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from meeple.dsl.load import SourceSet
    from meeple.dsl.parse import parse
    from meeple.interpreter import compile_sources

    def program(name: str, text: str, native: bool):
        rules = compile_sources(SourceSet(base=parse(text, f"{name}.meeple"), sources={f"{name}.meeple": text}))
        if native:
            rules.use_native(report=False)
        prog = rules.for_players(2)
        assert not native or prog.kernel, f"no kernel for {name}"
        return prog

    pentago = (DATA / "pentago.meeple").read_text(encoding="utf-8")
    amazons = (DATA / "amazons.meeple").read_text(encoding="utf-8")
    forms = {("pentago", "permute"): pentago, ("pentago", "scratch board"): scratch_pentago(pentago),
             ("pentago", "scratch board, every new place found"): scratch_pentago(pentago, every=True),
             ("amazons", "make"): amazons, ("amazons", "pre-made pool"): pool_amazons(amazons)}
    engines = ["python"] + (["kernel"] if args.native else [])
    progs = {(g, f, e): program(g, text, e == "kernel") for (g, f), text in forms.items() for e in engines}
    times: dict[tuple, list[float]] = {k: [] for k in progs}
    seen: dict[tuple, int] = {}
    for _ in range(args.rounds):   # (round by round: both forms of a game in each round)
        for key, prog in progs.items():
            cpu, decisions = playouts(prog, args.games)
            times[key].append(cpu)
            seen[key] = decisions
    for game in ("pentago", "amazons"):
        for e in engines:
            keys = [k for k in progs if k[0] == game and k[2] == e]
            assert len({seen[k] for k in keys}) == 1, {k: seen[k] for k in keys}   # the same games
            line = ", ".join(f"{k[1]} {args.games / statistics.median(times[k]):,.1f}" for k in keys)
            print(f"{game} ({e}, {seen[keys[0]]:,} decisions): games per CPU second: {line}")


if __name__ == "__main__":
    main()
