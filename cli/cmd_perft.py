"""``meeple perft``: count the move paths of N decisions from a position."""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import jsonout
from .common import (
    check_seed,
    fail,
    go_native,
    interruptible,
    load,
    out,
    parse_budgets,
    players as player_count,
    progress_bar,
    rule_fail,
)
from .i18n import language, tr
from .options import (
    budget_option,
    json_option,
    native_option,
    no_color_option,
    ruleset_argument,
    variant_option,
)

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

NAME = "perft"


def command(
    ruleset: str = ruleset_argument(),
    depth: int = typer.Option(..., "--depth", "-d", metavar="N", show_default=False,
                              help="How many decisions deep to count."),
    players: int | None = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: list[str] = variant_option(),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S",
                             help="The game's seed (the deal, for a game with chance)."),
    after: list[str] = typer.Option([], "--after", "-a", metavar="MOVE",
                                    help="Play this move first, from the start (repeatable, "
                                         "in order): count from the position it leads to."),
    position: Path | None = typer.Option(None, "--position", metavar="STATE",
                                            help="Count from the position of this game state "
                                                 "(JSON, meeple-state/1, as Game.to_json() "
                                                 "writes it) instead of the start; --after "
                                                 "moves are played from it."),
    divide_moves: bool = typer.Option(False, "--divide",
                                      help="Also count the paths of each first move."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    native: bool | None = native_option(),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("the counts"),
    no_color: bool = no_color_option(),
) -> None:
    """Count the move paths of N decisions from the start of a game (or from a saved
    --position, or after --after moves): compare with a game's published perft counts
    to check a ruleset's moves. A path on which the game ends earlier is not counted."""
    from rich.text import Text

    from .. import interpreter
    from ..interpreter import IllegalMove, RuleError
    jout = jsonout.begin("perft", json_out)
    if depth < 1:
        raise fail("--depth must be at least 1", 2)
    check_seed(seed, seed)
    prog = load(ruleset, variant, None, parse_budgets(budget))
    lang = language(prog)
    go_native(prog, native, players if position is None else None, quiet)
    saved = _perft_position(prog, position, players) if position is not None else None
    n = saved.players if saved is not None else player_count(prog, players)
    try:
        game = saved if saved is not None else prog.new_game(n, seed)
        for i, m in enumerate(after, 1):
            if game.over:
                raise fail(f"--after: the game is over before move {i} '{m}'", 2)
            game.apply(m)
    except IllegalMove as e:
        raise fail(f"--after: move {i} '{m}' is illegal: {e}", 2) from None
    except RuleError as e:
        raise rule_fail(f"the rules fail: {e}", e, prog) from None
    progress = progress_bar(tr(lang, "counting"), quiet=quiet)
    start = time.perf_counter()
    with interruptible(), progress:
        task = progress.add_task("moves", total=len(game.legal_moves()) if not game.over else 0)
        try:
            counts = interpreter.divide(game, depth, lambda _m, _n: progress.advance(task)) \
                if not game.over else {}
        except RuleError as e:
            progress.stop()
            raise rule_fail(f"the rules fail: {e}", e, prog) from None
    elapsed = time.perf_counter() - start
    nodes = sum(counts.values())
    doc = {"ok": True, "ruleset": ruleset, "title": prog.title, "variants": list(prog.variants),
           "players": n, "seed": seed, "position": str(position) if position else None,
           "after": list(after), "depth": depth, "paths": nodes,
           "divide": counts if divide_moves else None, "seconds": elapsed}
    if jout.on:
        jout.emit(doc)
        return
    console = out()
    if divide_moves:
        for notation, count in counts.items():
            console.print(Text(f"{notation}: {count}"))
    console.print(Text(tr(lang, "depth {depth}: {paths} paths ({seconds} s)", depth=depth,
                          paths=f"{nodes:,}", seconds=f"{elapsed:.2f}")))


def _perft_position(prog, path: Path, players: int | None):
    """The game of a saved state (--position), checked against the ruleset."""
    import json

    from ..dsl import files as dsl_files
    from ..interpreter.play import record as records
    from ..interpreter.play.state import StateError
    try:
        # a regular file of a record's size at most: never blocks on a fifo or a device
        raw = dsl_files.read_regular_file(path, records.MAX_RECORD_BYTES)
    except dsl_files.Refused as e:
        reason = str(e).removeprefix("cannot read: ")
        raise fail(f"--position: cannot read {path}: {reason}", 2) from None
    try:
        state = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise fail(f"--position: {path} is nested too deeply to be a state") from None
    except ValueError as e:   # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise fail(f"--position: {path} is not JSON: {e}") from None
    try:
        game = prog.resume(state)
    except StateError as e:
        raise fail(f"--position: {path} is not a state of {prog.title}: {e}") from None
    if players is not None and players != game.players:
        raise fail(f"--position: the state is a game of {game.players} players, not {players}", 2)
    return game
