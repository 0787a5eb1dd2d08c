"""``meeple replay``: a game record checked and shown move by move, as a seat, a
spectator or everything saw it."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import complete, jsonout
from .common import check_layout, fail, interruptible, out, parse_budgets, progress_bar
from .i18n import language, tr
from .options import budget_option, json_option, layout_option, no_color_option
from .recorded import read_record, record_ruleset, replay_record

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads neither
    # the interpreter nor rich)
    from rich.console import Console

NAME = "replay"

REPLAY_PROGRESS_MOVES = 500   # a record this long replays with a progress bar (on a terminal)


def command(
    record_file: Path = typer.Argument(..., metavar="RECORD", help="A game record (JSON).",
                                       show_default=False),
    as_seat: int | None = typer.Option(None, "--as", metavar="SEAT",
                                          help="Show what this seat (1-based) saw."),
    reveal: bool = typer.Option(False, "--reveal",
                                help="Show everything, hidden items too (a finished game; "
                                     "add --unfinished for one still in play)."),
    unfinished: bool = typer.Option(False, "--unfinished",
                                    help="With --reveal: show everything even though the game "
                                         "is not over (this gives its secrets away)."),
    ruleset: str | None = typer.Option(None, "--ruleset", metavar="PATH",
                                          autocompletion=complete.rulesets,
                                          help="The ruleset to replay with (needed when the "
                                               "record's is not a bundled one)."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="Only the final board and result (no progress bar)."),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("the moves and the result"),
    layout: str = layout_option(),
    no_color: bool = no_color_option(),
) -> None:
    """Replay a game record: check it, print each move, then the final board and result.
    By default shows what a spectator sees."""
    from ..interpreter.play.views import SPECTATOR
    jout = jsonout.begin("replay", json_out)
    check_layout(layout)
    if as_seat is not None and reveal:
        raise fail("use either --as or --reveal, not both", 2)
    if unfinished and not reveal:
        raise fail("--unfinished goes with --reveal", 2)
    rec = read_record(record_file)
    prog = record_ruleset(rec, ruleset, parse_budgets(budget))
    if as_seat is not None and not 1 <= as_seat <= rec.players:
        raise fail(f"--as {as_seat}: there is no such seat; the game has seats 1 to "
                   f"{rec.players}", 2)
    played, game = _replayed(prog, rec, quiet)
    if reveal and not game.over and not unfinished:
        raise fail("the game is not over: --reveal would show the hidden information of a game "
                   "still in play; add --unfinished to show it all the same", 2)
    seat = "all" if reveal else (as_seat - 1 if as_seat is not None else SPECTATOR)
    moves = _moves(prog, played, game, seat, worded=not json_out)
    if jout.on:
        jout.emit(_document(record_file, rec, prog, game, moves, reveal, as_seat, seat))
        return
    _print_replay(out(), record_file, rec, prog, game, moves, reveal, as_seat, seat, layout)


def _replayed(prog, rec, quiet: bool):
    """The record's moves replayed: (game before, notation, seat, type) of each move
    (none with --quiet), and the game at the end."""
    played: list = []
    progress = progress_bar("replaying", quiet=quiet or len(rec.moves) < REPLAY_PROGRESS_MOVES)
    with interruptible(), progress:
        task = progress.add_task("moves", total=len(rec.moves))

        def on_move(game, notation):
            if not quiet:
                played.append((game.copy(), notation, game.active_player, game.decision.type))
            progress.advance(task)

        game = replay_record(prog, rec, on_move)
    return played, game


def _moves(prog, played: list, game, seat, worded: bool = True) -> list:
    """(mover, notation shown, text) of each move as ``seat`` saw it (``worded``: its
    verb in the locale's word, for people; the JSON keeps the notation's verb)."""
    from rich.text import Text

    from . import render
    moves = []
    # the choices of a simultaneous decision still under way at the end are secret
    secret_from = len(played) - (len(game.decision.chosen) if game.simultaneous else 0)
    for k, (before, notation, _, tc) in enumerate(played):
        after = played[k + 1][0] if k + 1 < len(played) else game
        m = before.find_move(notation)
        mover = m.player
        shown, text = render.describe_move(before, m, tc, seat, after, worded=worded)
        if k >= secret_from and seat not in ("all", mover):
            shown = tr(language(prog), "(hidden)")
            text = Text(shown)
        moves.append((mover, shown, text))
    return moves


def _document(record_file: Path, rec, prog, game, moves: list, reveal: bool,
              as_seat: int | None, seat) -> dict:
    """The --json document of a replay."""
    from ..interpreter import display
    return {
        "ok": True, "record": str(record_file), "ruleset": rec.ruleset, "title": prog.title,
        "variants": list(rec.variants), "locale": rec.locale,
        "players": [display.player_name(prog, s) for s in range(rec.players)],
        "seed": rec.seed if game.over or reveal else None,
        "seen_by": "everything" if reveal else ("spectator" if as_seat is None else seat),
        "moves": [{"number": k + 1, "seat": mover, "player": display.player_name(prog, mover),
                   "notation": shown, "text": text.plain}
                  for k, (mover, shown, text) in enumerate(moves)],
        "move_count": len(rec.moves), "over": game.over,
        "result": game.result if game.over else None,
        "to_move": None if game.over else game.active_player}


def _seen_by(lang, prog, reveal: bool, as_seat: int | None, seat) -> str:
    from ..interpreter import display
    if reveal:
        return tr(lang, "as seen by everything")
    if as_seat:
        return tr(lang, "as seen by {player}", player=display.player_name(prog, seat))
    return tr(lang, "as seen by a spectator")


def _print_replay(console: Console, record_file: Path, rec, prog, game, moves: list,
                  reveal: bool, as_seat: int | None, seat, layout: str) -> None:
    """The replay as text: a title line, each move, the final board and the result (or
    who is to move)."""
    from rich.text import Text

    from ..interpreter import display
    from ..interpreter.play.views import view
    from . import render
    lang = language(prog)
    who = _seen_by(lang, prog, reveal, as_seat, seat)
    shown_seed = " — " + tr(lang, "seed {seed}", seed=rec.seed) if game.over or reveal else ""
    console.print(Text(prog.title, style="bold") + Text(
        " — " + tr(lang, "{n} players", n=rec.players) + shown_seed + " — "
        + tr(lang, "{n} moves", n=len(rec.moves)) + " — " + who))
    for mover, shown, text in moves:
        console.print(render.move_line(Text(f"{display.player_name(prog, mover)}: ",
                                            style="cyan"), shown, text))
    console.print()
    from .layout import fit_screen, height
    tail = render.result_table(prog, game.result) if game.over else None
    # the final board fitted in what the other lines leave with --quiet: the title and a
    # blank line above it, a blank line, the result (or the two lines saying who is to
    # move) and the shell's prompt under it
    reserve = 2 + 1 + (height(console, [tail]) if tail is not None else 2) + 1
    for part in fit_screen(console, prog, view(game, seat), seat, layout=layout,
                           reserve=reserve, log_lines=8):
        console.print(part)
    console.print()
    if game.over:
        console.print(tail)
    else:
        nxt = game.active_player
        console.print(tr(lang, "The game is not over: {player} is to move; continue it with "
                               "'{command}'.", player=display.player_name(prog, nxt),
                         command=f"meeple play --resume {record_file}"), markup=False,
                      soft_wrap=True)
