"""``meeple play``: a game in the terminal, hot seat for the humans, bots for the other
seats, or an unfinished game resumed from its record (the game itself: ``cli/play.py``)."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import complete, saving
from .common import (
    check_layout,
    check_seed,
    err,
    fail,
    go_native,
    load,
    out,
    parse_budgets,
    players as player_count,
    record_name,
    rule_fail,
    seat_bots,
)
from .i18n import language, tr
from .options import (
    bot_names,
    budget_option,
    layout_option,
    locale_option,
    native_option,
    no_color_option,
    players_option,
    ruleset_argument,
    seat_bots_option,
    seed_option,
    variant_option,
)
from .recorded import mover, read_record, record_ruleset, replay_record

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads neither
    # the interpreter nor rich)
    from rich.console import Console

NAME = "play"

HOT_SEAT_NOT_A_TERMINAL = (
    "{title} hides information from the players, and the output is not a terminal (it is "
    "piped or redirected), where the screen cannot be cleared between players: every "
    "player's hand would end up in it. Play in a terminal, or let bots play every seat "
    "but one (e.g. {bots}): then only that seat's view is shown. (An output "
    "that is a terminal in disguise can say so with TTY_COMPATIBLE=1.)")


def command(
    ruleset: str | None = ruleset_argument("A bundled ruleset name (see meeple list) or a "
                                           "path (with --resume: the record's ruleset).",
                                           optional=True),
    players: int | None = players_option("Number of players (default: the ruleset's "
                                         "minimum, at least 2)."),
    variant: list[str] = variant_option("A variant to play (repeatable)."),
    locale: str | None = locale_option("A locale, e.g. de."),
    seed: int | None = seed_option("Random seed: the same seed, the same game (default: 64 "
                                   "random bits from the operating system, shown "
                                   "when the game is over)."),
    bot: list[str] = seat_bots_option("SEAT=BOT: a computer player for a seat (1-based), e.g. "
                                      "2=random or 2=ismcts:iterations=400 (repeatable). Bots: "
                                      + bot_names() + " (see meeple bots)"),
    record: Path | None = typer.Option(None, "--record", "-r", metavar="FILE",
                                          help="Save the game record here at the end or on quit "
                                               "(checked before the first move)."),
    force: bool = typer.Option(False, "--force", help="Let --record overwrite an existing file."),
    resume: Path | None = typer.Option(None, "--resume", metavar="RECORD",
                                          help="Continue the unfinished game of this record "
                                               "(saved back to it)."),
    ruleset_path: str | None = typer.Option(None, "--ruleset", metavar="PATH",
                                               autocompletion=complete.rulesets,
                                               help="With --resume: the ruleset, when the "
                                                    "record's is not a bundled one."),
    native: bool | None = native_option(),
    budget: list[str] = budget_option(),
    layout: str = layout_option(),
    no_color: bool = no_color_option(),
) -> None:
    """Play a game in the terminal: hot seat for the humans, bots for the --bot seats.
    With no --seed the seed is random (64 bits from the operating system) and shown
    only at the end. When the output is not a terminal, a game with hidden information
    needs bots for all seats but one."""
    console = out()
    check_layout(layout)
    _stdin_keeps_bad_bytes()
    if resume is not None:
        if players is not None or variant or locale or seed is not None or bot or record:
            raise fail("with --resume the players, variants, locale, seed, bots and record file "
                       "come from the record; give only --resume RECORD (and --ruleset PATH)", 2)
        if ruleset is not None and ruleset_path is not None:
            raise fail("give the ruleset either as RULESET or as --ruleset, not both", 2)
        raise typer.Exit(_resume(console, resume, ruleset_path or ruleset, parse_budgets(budget),
                                 layout, native))
    if ruleset is None:
        raise fail("missing RULESET: name a bundled ruleset or a path (or --resume RECORD)", 2)
    if ruleset_path is not None:
        raise fail("--ruleset goes with --resume; name the ruleset as RULESET", 2)
    code = _new_game(console, ruleset, players, variant, locale, seed, bot, record, force,
                     parse_budgets(budget), layout, native)
    if code:
        raise typer.Exit(code)


def _new_game(console: Console, ruleset: str, players: int | None, variant: list[str],
              locale: str | None, seed: int | None, bot: list[str],
              record: Path | None, force: bool, budgets, layout: str,
              native: bool | None = None) -> int:
    """A new game of ``ruleset``, played to its end or until quit: its exit code. Its
    rules run where ``native`` says (--native/--no-native, see ``go_native``): by default
    on the ruleset's kernel, built first (a line says so on a terminal) or found in the
    cache, which plays the bots' searches, the same moves as in Python."""
    from ..interpreter import PLAY_TIME, RuleError, make_bot
    from ..interpreter.bots import bot_seed
    from ..interpreter.play import record as records
    from .render import HUMAN
    prog = load(ruleset, variant, locale, budgets)
    _check_record(record, force)
    n = player_count(prog, players)
    bot_names = seat_bots(bot, n)
    seats = [bot_names.get(s, HUMAN) for s in range(n)]
    _check_hot_seat(console, prog, seats, n)
    chosen = seed is not None
    if chosen:
        check_seed(seed, seed)
    else:
        # 64 bits from the operating system: the seed decides every hidden card, so it
        # must not be guessable; it is shown only when the game is over
        import secrets
        seed = secrets.randbits(64)
    bots = {s: make_bot(name, bot_seed(seed, 0, s), play_time=PLAY_TIME)
            for s, name in bot_names.items()}
    go_native(prog, native, n)
    try:
        game = prog.new_game(n, seed)
    except RuleError as e:
        raise rule_fail(f"the game cannot start: {e}", e, prog) from None
    _print_start(console, prog, n, seed if chosen else None, seats)
    rec = records.Record(record_name(ruleset), n, seed, list(variant), locale, [], seats)
    # named by the time, not the seed (a random seed would give the hidden cards away);
    # never over another file (see PlaySession.stop)
    quit_path = saving.quit_file(prog.name, time.strftime('%Y%m%d-%H%M%S'))
    from .play import PlaySession  # (the terminal game: only play loads it)
    session = PlaySession(console, game, seats, bots, rec, record, quit_path, layout)
    return session.run()


def _check_hot_seat(console: Console, prog, seats: list[str], n: int) -> None:
    """Several humans at a game with hidden information need a terminal (to clear the
    screen between them)."""
    from .render import HUMAN
    if prog.hidden_information and seats.count(HUMAN) > 1 and not console.is_terminal:
        raise fail(HOT_SEAT_NOT_A_TERMINAL.format(
            title=prog.title, bots=" ".join(f"--bot {s + 1}=random" for s in range(1, n))), 2)


def _print_start(console: Console, prog, n: int, seed: int | None, seats: list[str]) -> None:
    """The title line (the seed only when chosen) and who plays each seat."""
    from rich.text import Text

    from . import render
    title = prog.title
    if prog.variants:
        title += " + " + ", ".join(prog.checked.variant_titles.get(v, v) for v in prog.variants)
    lang = language(prog)
    console.print(render.safe_text(title, style="bold") + Text(
        " — " + tr(lang, "{n} players", n=n)
        + (" — " + tr(lang, "seed {seed}", seed=seed) if seed is not None else "")
        + (" — " + tr(lang, "locale {locale}", locale=render.literal(prog.locale))
           if prog.locale else "")))
    for s in range(n):
        console.print(render.safe_text(_seat_line(lang, prog, s, seats[s])))


def _stdin_keeps_bad_bytes() -> None:
    """Input bytes that are not valid text become lone surrogates (printed escaped)
    instead of an error."""
    try:
        sys.stdin.reconfigure(errors="surrogateescape")
    except (AttributeError, ValueError, OSError):
        pass


def _check_record(record: Path | None, force: bool) -> None:
    """--record FILE, before the first move: a file that can be written (see
    ``records.check_target``), with no journal beside it of a game that was stopped
    before it could be saved (kept unless --force)."""
    from ..interpreter.play import journal as journals, record as records
    if record is None:
        return
    problem = records.check_target(record, force)
    old = journals.path_for(record)
    if problem is None and not force and os.path.lexists(old):
        problem = (f"{old} holds a game that was stopped before it could be saved: continue "
                   f"it with 'meeple play --resume {old}', or remove it (--force starts over)")
    if problem:
        raise fail(f"--record: {problem}", 2)


def _seat_line(lang, prog, seat: int, kind: str) -> str:
    """Who plays a seat, for the list at the start of a game; a search bot given no
    budget says the time it takes at most per move (PLAY_TIME)."""
    from ..interpreter import PLAY_TIME, parse_spec
    from ..interpreter.bots import default_budget
    from ..interpreter.play import display
    from .render import HUMAN, seat_label
    line = f"  {display.player_name(prog, seat)}: {seat_label(lang, kind)}"
    if kind != HUMAN and default_budget(*parse_spec(kind), PLAY_TIME):
        line += " " + tr(lang, "(at most {seconds} s per move)", seconds=f"{PLAY_TIME:g}")
    return line


def _known_bot(kind) -> bool:
    from ..interpreter import BotSpecError, parse_spec
    try:
        parse_spec(kind)
    except BotSpecError:
        return False
    return True


def _resume(console: Console, path: Path, ruleset: str | None, budgets=None,
            layout: str = "auto", native: bool | None = None) -> int:
    """Continues the unfinished game of a record; saving goes back to the same file. A
    journal (``NAME.journal``) is continued and saved to its record ``NAME``; a record with
    a journal beside it goes on from the journal, which holds the later moves."""
    from rich.text import Text

    from ..interpreter import PLAY_TIME, make_bot
    from ..interpreter.bots import BOTS, bot_seed
    from ..interpreter.play import journal as journals, record as records
    from . import render
    from .play import Done, PlaySession
    from .render import HUMAN
    target = journals.target_of(path)
    beside = journals.path_for(target)
    if path != beside and os.path.lexists(beside):
        err().print(Text("note: ", style="cyan") + Text(
            f"{beside} holds moves made after {path} was last saved: the game goes on from "
            f"there"), soft_wrap=True)
        path = beside
    rec = read_record(path)
    problem = records.check_target(target, overwrite=True)
    if problem:
        raise fail(f"--resume: {problem}", 2)
    if rec.chance == "explicit":
        raise fail(f"the game in {path} sets its chance outcomes one by one (explicit chance); "
                   f"'meeple play' plays with the seeded generator: replay it with "
                   f"'meeple replay {path}' or continue it from Python")
    prog = record_ruleset(rec, ruleset, budgets)
    seats = list(rec.seats or [HUMAN] * rec.players)
    for s, kind in enumerate(seats):
        if kind != HUMAN and not _known_bot(kind):
            raise fail(f"invalid record: seat {s + 1} was played by '{records.printable(kind)}', "
                       f"which is neither a human nor a bot ({', '.join(sorted(BOTS))})")
    go_native(prog, native, rec.players)   # (as a new game: see _new_game)
    history: list = []

    def on_move(game, notation):
        history.append(Done.before(game, mover(game, notation), notation))

    game = replay_record(prog, rec, on_move)
    if game.over:
        raise fail(f"the game in {path} is over; replay it with 'meeple replay {path}'")
    _check_hot_seat(console, prog, seats, rec.players)
    _stdin_keeps_bad_bytes()
    # game index = moves made so far: a resumed bot does not repeat its first game's choices
    bots = {s: make_bot(kind, bot_seed(rec.seed, len(rec.moves), s), play_time=PLAY_TIME)
            for s, kind in enumerate(seats) if kind != HUMAN}
    lang = language(prog)
    console.print(render.safe_text(prog.title, style="bold") + Text(
        " — " + tr(lang, "{n} players", n=rec.players)
        + " — " + tr(lang, "resumed after {n} moves", n=len(rec.moves))))
    for s in range(rec.players):
        console.print(render.safe_text(_seat_line(lang, prog, s, seats[s])))
    rec.seats = seats
    session = PlaySession(console, game, seats, bots, rec, target, target, layout)
    session.history = history
    return session.run()
