"""The arguments and options several commands share, each made the same way everywhere:
RULESET, --variant, --locale, --players, --seed, --bot, --no-color, --json, --budget,
--native, --layout, --jobs, --backend and --address."""
from __future__ import annotations

import os
from pathlib import Path

import typer

from ..dsl import budgets as dsl_budgets
from . import complete

NO_COLOR_HELP = "No colour nor any other style (also: the NO_COLOR environment variable)."



def bot_names() -> str:
    """The bots' names, for the help of --bot: the keys of ``BOTS`` read from the source
    of meeple.interpreter.bots, not imported (so that ``meeple play --help`` loads no
    interpreter), or imported where that source is not at hand."""
    import importlib.util
    try:
        origin = importlib.util.find_spec("meeple.interpreter.bots").origin  # type: ignore[union-attr]
        names = _dict_keys(Path(origin or "").read_text(encoding="utf-8"), "BOTS")
    except (OSError, ValueError, SyntaxError, StopIteration, AttributeError):
        from ..interpreter.bots import BOTS
        names = tuple(BOTS)
    return ", ".join(sorted(names))


def _dict_keys(source: str, name: str) -> tuple:
    """The keys of the dict a module's source assigns to ``name`` at its top level: read
    from that statement alone (up to the next blank line) where it reads as one, else
    from the whole module (parsing all of it was a tenth of ``meeple play --help``)."""
    import ast
    start = source.find(f"\n{name} = ") + 1
    end = source.find("\n\n", start) if start else -1
    try:
        head = ast.parse(source[start:end]).body if start and end > 0 else []
    except SyntaxError:
        head = []
    body = head if len(head) == 1 else ast.parse(source).body
    return next(ast.literal_eval(ast.Tuple(elts=n.value.keys))  # type: ignore[attr-defined]
                for n in body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == name)


BUDGET_HELP = ("NAME=VALUE: raise a limit on loading or running the rules (repeatable), e.g. "
               "steps=1000000. Budgets: " + ", ".join(dsl_budgets.NAMES) + " (see docs/trust.md).")


def ruleset_argument(help: str = "A bundled ruleset name or a path.", optional: bool = False):
    """The RULESET argument: a bundled ruleset's name or a path (``optional``: may be
    left out, None)."""
    return typer.Argument(None if optional else ..., metavar="RULESET", show_default=False,
                          autocompletion=complete.rulesets, help=help)


def variant_option(help: str = "A variant (repeatable)."):
    """--variant NAME, repeatable."""
    return typer.Option([], "--variant", "-v", metavar="NAME", autocompletion=complete.variants,
                        help=help)


def locale_option(help: str = "A locale."):
    """--locale NAME."""
    return typer.Option(None, "--locale", "-l", metavar="NAME", autocompletion=complete.locales,
                        help=help)


def players_option(help: str):
    """--players N (default: None, the command's own default)."""
    return typer.Option(None, "--players", "-p", metavar="N", help=help)


def seed_option(help: str):
    """--seed S (default: None, random bits from the operating system)."""
    return typer.Option(None, "--seed", "-s", metavar="S", help=help)


def seat_bots_option(help: str):
    """--bot SEAT=BOT, repeatable: a bot plays a seat."""
    return typer.Option([], "--bot", "-b", metavar="SEAT=BOT", autocompletion=complete.seat_bots,
                        help=help)


_colour = True   # False after --no-color (see set_colour)


def set_colour(enabled: bool) -> None:
    """Turns colour (and every other style) on or off for the consoles made after
    (``render.console``; kept here, where the command line sets it without loading rich)."""
    global _colour
    _colour = enabled


def colour_enabled() -> bool:
    """False with ``--no-color`` or a non-empty ``NO_COLOR`` (https://no-color.org).
    ``FORCE_COLOR`` is rich's: it makes the output count as a terminal, with colour
    unless one of these turns it off."""
    return _colour and not os.environ.get("NO_COLOR")


def no_colour(value: bool) -> bool:
    """The callback of --no-color (eager: it holds for the errors of the options too)."""
    if value:
        set_colour(False)
    return value


def no_color_option():
    """--no-color, accepted after the command too."""
    return typer.Option(False, "--no-color", callback=no_colour, is_eager=True,
                        help=NO_COLOR_HELP)


def json_option(what: str):
    """--json of a command: its document on stdout instead of the text."""
    return typer.Option(False, "--json", help=f"Print {what} as one JSON document on stdout "
                                               "(format meeple-COMMAND/1, see docs/cli.md); "
                                               "messages and progress go to stderr.")


def budget_option():
    """The --budget option of every command that loads a ruleset."""
    return typer.Option([], "--budget", metavar="NAME=VALUE", help=BUDGET_HELP)


def native_option():
    """--native/--no-native; neither: None, the default (cli.common.go_native)."""
    return typer.Option(None, "--native/--no-native", show_default=False,
                        help="Where the rules run. Default: on a kernel (the rules in C++, "
                             "built once per ruleset, player count and compiler, then cached) "
                             "where a C++ compiler is found and the kernel covers the "
                             "ruleset, else in pure Python (said once on stderr). --native: "
                             "also the rule code compiled with Cython where no kernel serves "
                             "(pip install 'meeple[native]'), every build said on stderr. "
                             "--no-native: pure Python, the reference (also: "
                             "MEEPLE_NO_NATIVE=1). The same results every way.")


def layout_option():
    return typer.Option("auto", "--layout", metavar="auto|compact|full",
                        help="How screens fit the terminal: compact (fits its size; the "
                             "details are a command away), full (everything, it may scroll), "
                             "auto (full when it fits, else compact).")


def jobs_option():
    return typer.Option(None, "--jobs", "-j", metavar="J",
                        help="Worker processes (default: every core; 1: none). The results "
                             "are the same whatever J is.")


def backend_option():
    return typer.Option("local", "--backend", metavar="local|ray",
                        help="Where the work runs: local processes (default) or a Ray "
                             "cluster (pip install 'meeple[ray]').")


def address_option():
    return typer.Option(None, "--address", metavar="ADDR",
                        help="With --backend ray: the cluster's address (default: the one "
                             "RAY_ADDRESS names, else a new local Ray instance).")
