"""What every command shares: the two consoles, errors with their exit codes (0 ok, 1 a
problem with a file or a game, 2 usage, 130 interrupted), loading a ruleset from a
command line and checking the values given to the common options."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..dsl import budgets as dsl_budgets, settings
from . import jsonout
from .codes import interrupted

# imported where used, so that `meeple <command> --help` loads neither the interpreter
# nor rich (nor `render`, which is made of rich)
if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from .. import interpreter
    from ..interpreter import RuleError


def out() -> Console:
    # no markup, no emoji codes, control characters escaped: text from rulesets and
    # users is printed literally (render.console)
    from . import render
    return render.console()


def err() -> Console:
    from . import render
    return render.console(stderr=True)


def text(s: str = "", style: str = ""):
    """``rich.text.Text``, imported when first needed (see the imports above)."""
    from rich.text import Text
    return Text(s, style=style)


@contextmanager
def interruptible():
    """Long work: Ctrl-C says 'interrupted' on stderr and exits 130 (no --json
    document: the work is not done)."""
    try:
        yield
    except KeyboardInterrupt:
        raise typer.Exit(interrupted()) from None


def progress_bar(label: str, *columns, quiet: bool = False) -> Progress:
    """A progress bar on stderr, shown only when stderr is a terminal (and not with
    --quiet), erased when done: stdout (a --json document, a table) stays clean."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )
    console = err()
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), *columns,
                    TimeElapsedColumn(), console=console, transient=True,
                    disable=quiet or not console.is_terminal)


def fail(message: str, code: int = 1, hint: str | None = None,
         excerpt: str | None = None) -> typer.Exit:
    """Prints 'error: message' (the source ``excerpt``, a line and a caret, if any, and
    'hint: ...') on stderr and returns the exit to raise. With --json, a failure (code 1)
    also writes the command's document with the error; a usage error (code 2) writes none."""
    error(message, hint, excerpt)
    if code == 1:
        jsonout.current().error(message, hint=hint)
    return typer.Exit(code)


def error(message: str, hint: str | None = None, excerpt: str | None = None) -> None:
    console = err()
    console.print(text("error: ", style="bold red") + text(message), soft_wrap=True)
    if excerpt:
        console.print(text(excerpt), soft_wrap=True)
    if hint:
        console.print(text("hint: ") + text(hint), soft_wrap=True)


def rule_fail(message: str, e: RuleError, prog) -> typer.Exit:
    """``fail`` for an error in the rules while a game runs: the message, then the rule's
    source line with a caret and the error's hint."""
    from . import render
    error(message, e.hint, render.rule_excerpt(e, prog))
    jsonout.current().error(message, hint=e.hint, rule=jsonout.rule_error(e))
    return typer.Exit(1)


def note(message: str) -> None:
    err().print(text("note: ", style="bold") + text(message), soft_wrap=True)


# ---------------------------------------------------------------- loading

def resolve(ruleset: str) -> Path:
    """The file or folder a ruleset argument means: a bare name is a bundled ruleset, a
    path a file or folder (see dsl.load.resolve). When a bare name could mean both, a
    note on stderr says which was used."""
    from ..dsl import load as dsl_load
    try:
        found = dsl_load.resolve(ruleset)
    except dsl_load.NoRuleset as e:
        raise fail(str(e), hint=e.hint) from None
    if found.note:
        note(found.note)
    return found.path


def parse_budgets(given: list[str]) -> interpreter.Budgets:
    try:
        return dsl_budgets.from_settings(given)
    except ValueError as e:
        raise fail(f"--budget: {e}", 2) from None


def native_default() -> bool:
    """Whether a command given neither --native nor --no-native runs on a kernel: yes,
    unless ``MEEPLE_NO_NATIVE`` is on (``1``, or another on value: dsl/settings.py)."""
    return not settings.on("MEEPLE_NO_NATIVE")


def go_native(ruleset, on: bool | None, players: int | None = None, quiet: bool = False) -> None:
    """Where the ruleset's programs run; the program for ``players`` is built now (the
    workers then find it in the cache). ``on``: --native (a kernel, else the rule code
    compiled with Cython, else Python; each build and each reason said on stderr),
    --no-native (False: Python), or neither (None: a kernel where one can be built,
    else Python, the reason said once as a note; the line before a build only on a
    terminal, as a progress bar, and not with ``quiet``)."""
    if on is False or (on is None and not native_default()):
        return
    console = err()

    def say(message: str) -> None:
        console.print(text(message), soft_wrap=True)

    if on:
        ruleset.use_native(report=say)
    else:
        ruleset.use_native(report=lambda reason: note(f"{reason}; running in pure Python"),
                           kernel_only=True, progress=say if console.is_terminal and not quiet else False)
    if players is not None:
        ruleset.for_players(players)


def load(ruleset: str, variants: list[str], locale: str | None,
         budgets: interpreter.Budgets | None = None) -> interpreter.Program:
    return compile_ruleset(resolve(ruleset), ruleset, variants, locale, budgets)


UNKNOWN_CHOICE = {"load/unknown-variant", "load/unknown-locale"}


def compile_ruleset(path: Path, ruleset: str, variants: list[str], locale: str | None,
                    budgets: interpreter.Budgets | None = None, from_options: bool = True):
    """The compiled ruleset. ``from_options``: the variants and locale were typed on the
    command line, so one the ruleset does not have is a usage error (exit 2); from a
    record it is a problem with the file (exit 1)."""
    from .. import interpreter
    from ..dsl.errors import MeepleError
    from ..interpreter import RuleError
    try:
        return interpreter.load(path, variants, locale, budgets)
    except MeepleError as e:
        err().print(e.render(), markup=False, soft_wrap=True)
        if from_options and {d.code for d in e.diagnostics} <= UNKNOWN_CHOICE:
            # a --variant or --locale the ruleset does not have: a usage error
            raise typer.Exit(2) from None
        raise fail(f"the ruleset '{ruleset}' cannot be loaded "
                   f"({len(e.diagnostics)} problem(s))") from None
    except RuleError as e:
        raise fail(f"the ruleset '{ruleset}' cannot be loaded: {e}") from None


def record_name(ruleset: str) -> str:
    """How a record names its ruleset: a bundled name as is, a path made absolute so the
    record can be replayed from anywhere."""
    from ..dsl import load as dsl_load
    found = dsl_load.resolve(ruleset)
    return ruleset if found.bundled else str(found.path.resolve())


# ---------------------------------------------------------------- checking options

def check_seed(first: int, last: int) -> None:
    """A seed must fit in a record (so that the game can be replayed)."""
    from ..interpreter.play import record as records
    limit = records.SEED_LIMIT
    if not (-limit < first < limit and -limit < last < limit):
        raise fail("--seed: a seed is a whole number between -(2^128 - 1) and 2^128 - 1 "
                   "(the games' seeds must fit in a record)", 2)


def check_layout(layout: str) -> None:
    from .layout import (
        LAYOUTS,  # (the screens of play and replay: imported by them only)
    )
    if layout not in LAYOUTS:
        raise fail(f"--layout {layout}: choose one of {', '.join(LAYOUTS)}", 2)


def player_counts(ruleset) -> dict:
    return {"min": ruleset.min_players, "max": ruleset.max_players, "default": ruleset.default_players}


def players(prog, wanted: int | None) -> int:
    """The number of players asked for, checked; without one, the ruleset's usual count
    (``players A..B default N``), else its fewest, as the adapters take it."""
    if wanted is None:
        return prog.default_players
    if not prog.min_players <= wanted <= prog.max_players:
        raise fail(f"{prog.title} is for {prog.min_players} to {prog.max_players} players, "
                   f"not {wanted}", 2)
    return wanted


def bot_spec(spec: str) -> str:
    """A bot's spec, checked, as the records and the seat labels write it: the name in
    lower case, then its options (``mcts:iterations=400``); a bad one is a usage error
    (exit 2)."""
    from ..interpreter import BotSpecError, parse_spec
    try:
        name, options = parse_spec(spec)
    except BotSpecError as e:
        raise fail(str(e), 2) from None
    return name + (":" + ",".join(f"{k}={option_text(v)}" for k, v in options.items())
                   if options else "")


def seat_bots(specs: list[str], players: int) -> dict[int, str]:
    """The --bot SEAT=BOT settings (``options.seat_bots_option``): seat (0-based) -> the
    bot's checked spec (``bot_spec``; "random" when only the seat is given); a bad one
    is a usage error (exit 2)."""
    bots = {}
    for spec in specs:
        seat_s, _, name = spec.partition("=")
        try:
            seat = int(seat_s)
        except ValueError:
            raise fail(f"--bot '{spec}': write SEAT=BOT, e.g. --bot 2=random "
                       f"(seats count from 1)", 2) from None
        if not 1 <= seat <= players:
            raise fail(f"--bot '{spec}': there is no seat {seat}; this game has seats 1 to "
                       f"{players}", 2)
        bots[seat - 1] = bot_spec(name or "random")
    return bots


def option_text(value) -> str:
    """A bot option's value as a spec writes it (a switch: on or off)."""
    return ("on" if value else "off") if isinstance(value, bool) else str(value)
