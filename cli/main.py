"""The ``meeple`` command: validate rulesets, play them in the terminal (hot seat, with
bots), simulate many games with bots, and replay game records."""
from __future__ import annotations

import os
import re
import secrets
import sys
import time
from contextlib import closing, contextmanager
from pathlib import Path

import typer
import typer.exceptions
from rich.console import Console, Group
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from .. import __version__, interpreter
from ..dsl import budgets as dsl_budgets, load as dsl_load
from ..dsl.errors import MeepleError
from ..interpreter import (
    PLAY_TIME,
    BotSpecError,
    IllegalMove,
    RuleError,
    display,
    journal as journals,
    make_bot,
    parallel,
    parse_spec,
    record as records,
    simulation,
    stats as balance_stats,
)
from ..interpreter.bots import BOTS, bot_seed, default_budget, describe as describe_bots
from ..interpreter.views import SPECTATOR, view
from . import complete, foreign, jsonout, render, saving
from .i18n import language, tr
from .render import HUMAN, seat_label

app = typer.Typer(
    name="meeple",
    help="Meeple: validate, play, simulate and replay games written in the Meeple rules language.",
    no_args_is_help=True,
    add_completion=True,    # --install-completion, --show-completion
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},   # inherited by every command
)

NO_COLOR_HELP = "No colour nor any other style (also: the NO_COLOR environment variable)."


def _show_version(value: bool) -> None:
    if value:
        print(f"meeple {__version__}" + (" (compiled engine)" if interpreter.compiled_engine() else ""))
        raise typer.Exit(0)


def _no_colour(value: bool) -> bool:
    if value:
        render.set_colour(False)
    return value


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", "-V", callback=_show_version,
                                 is_eager=True, help="Print 'meeple VERSION' and exit."),
    no_color: bool = typer.Option(False, "--no-color", callback=_no_colour, is_eager=True,
                                  help=NO_COLOR_HELP),
    no_cache: bool = typer.Option(False, "--no-cache",
                                  help="Neither read nor write the cache of compiled rulesets "
                                       "(also: MEEPLE_NO_CACHE=1); see 'meeple cache'."),
) -> None:
    """Meeple: validate, play, simulate and replay games written in the Meeple rules language."""
    # the options of one command line only (tests run many in one process)
    jsonout.reset()
    render.set_colour(not no_color)
    interpreter.use_cache(not no_cache)


def no_color_option():
    """--no-color, accepted after the command too."""
    return typer.Option(False, "--no-color", callback=_no_colour, is_eager=True,
                        help=NO_COLOR_HELP)


def json_option(what: str):
    """--json of a command: its document on stdout instead of the text."""
    return typer.Option(False, "--json", help=f"Print {what} as one JSON document on stdout "
                                               "(format meeple-COMMAND/1, see docs/cli.md); "
                                               "messages and progress go to stderr.")


def progress_bar(label: str, *columns, quiet: bool = False) -> Progress:
    """A progress bar on stderr, shown only when stderr is a terminal (and not with
    --quiet), erased when done: stdout (a --json document, a table) stays clean."""
    err = _err()
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), *columns,
                    TimeElapsedColumn(), console=err, transient=True,
                    disable=quiet or not err.is_terminal)


def _out() -> Console:
    # no markup, no emoji codes, control characters escaped: text from rulesets and
    # users is printed literally (render.console)
    return render.console()


def _err() -> Console:
    return render.console(stderr=True)


@contextmanager
def interruptible():
    """Long work: Ctrl-C says 'interrupted' on stderr and exits 130 (no --json
    document: the work is not done)."""
    try:
        yield
    except KeyboardInterrupt:
        raise typer.Exit(_interrupted()) from None


def fail(message: str, code: int = 1, hint: str | None = None,
         excerpt: str | None = None) -> typer.Exit:
    """Prints 'error: message' (the source ``excerpt``, a line and a caret, if any, and
    'hint: ...') on stderr and returns the exit to raise. With --json, a failure (code 1)
    also writes the command's document with the error; a usage error (code 2) writes none."""
    _error(message, hint, excerpt)
    if code == 1:
        jsonout.current().error(message, hint=hint)
    return typer.Exit(code)


def _error(message: str, hint: str | None = None, excerpt: str | None = None) -> None:
    err = _err()
    err.print(Text("error: ", style="bold red") + Text(message), soft_wrap=True)
    if excerpt:
        err.print(Text(excerpt), soft_wrap=True)
    if hint:
        err.print(Text("hint: ") + Text(hint), soft_wrap=True)


def rule_fail(message: str, e: RuleError, prog) -> typer.Exit:
    """``fail`` for an error in the rules while a game runs: the message, then the rule's
    source line with a caret and the error's hint."""
    _error(message, e.hint, render.rule_excerpt(e, prog))
    jsonout.current().error(message, hint=e.hint, rule=jsonout.rule_error(e))
    return typer.Exit(1)




def _note(note: str) -> None:
    _err().print(Text("note: ", style="bold") + Text(note), soft_wrap=True)


# ---------------------------------------------------------------- loading

def _resolve(ruleset: str) -> Path:
    """The file or folder a ruleset argument means: a bare name is a bundled ruleset, a
    path a file or folder (see dsl.load.resolve). When a bare name could mean both, a
    note on stderr says which was used."""
    try:
        found = dsl_load.resolve(ruleset)
    except dsl_load.NoRuleset as e:
        raise fail(str(e), hint=e.hint) from None
    if found.note:
        _note(found.note)
    return found.path


BUDGET_HELP = ("NAME=VALUE: raise a limit on loading or running the rules (repeatable), e.g. "
               "steps=1000000. Budgets: " + ", ".join(dsl_budgets.NAMES) + " (see docs/trust.md).")


def budget_option():
    """The --budget option of every command that loads a ruleset."""
    return typer.Option([], "--budget", metavar="NAME=VALUE", help=BUDGET_HELP)


def parse_budgets(settings: list[str]) -> interpreter.Budgets:
    try:
        return dsl_budgets.from_settings(settings)
    except ValueError as e:
        raise fail(f"--budget: {e}", 2) from None


def native_option():
    return typer.Option(False, "--native",
                        help="Run the rules on native code, built once per ruleset and "
                             "player count, then cached: a kernel (C++, needs a C++ compiler) "
                             "where the ruleset is covered, else the rule code compiled with "
                             "Cython (pip install 'meeple[native]'); the same games. Pure "
                             "Python where neither can be built (said on stderr).")


def go_native(ruleset, on: bool, players: int | None = None) -> None:
    """--native: the ruleset's programs run on native code; the program for ``players``
    is built now (the workers then find it in the cache), saying so on stderr."""
    if not on:
        return
    err = _err()
    ruleset.use_native(report=lambda message: err.print(Text(message), soft_wrap=True))
    if players is not None:
        ruleset.for_players(players)


def _load(ruleset: str, variants: list[str], locale: str | None,
          budgets: interpreter.Budgets | None = None) -> interpreter.Program:
    return _compile(_resolve(ruleset), ruleset, variants, locale, budgets)


UNKNOWN_CHOICE = {"load/unknown-variant", "load/unknown-locale"}


def _compile(path: Path, ruleset: str, variants: list[str], locale: str | None,
             budgets: interpreter.Budgets | None = None, from_options: bool = True):
    """The compiled ruleset. ``from_options``: the variants and locale were typed on the
    command line, so one the ruleset does not have is a usage error (exit 2); from a
    record it is a problem with the file (exit 1)."""
    try:
        return interpreter.load(path, variants, locale, budgets)
    except MeepleError as e:
        _err().print(e.render(), markup=False, soft_wrap=True)
        if from_options and {d.code for d in e.diagnostics} <= UNKNOWN_CHOICE:
            # a --variant or --locale the ruleset does not have: a usage error
            raise typer.Exit(2) from None
        raise fail(f"the ruleset '{ruleset}' cannot be loaded "
                   f"({len(e.diagnostics)} problem(s))") from None
    except RuleError as e:
        raise fail(f"the ruleset '{ruleset}' cannot be loaded: {e}") from None


def _record_name(ruleset: str) -> str:
    """How a record names its ruleset: a bundled name as is, a path made absolute so the
    record can be replayed from anywhere."""
    found = dsl_load.resolve(ruleset)
    return ruleset if found.bundled else str(found.path.resolve())


def _check_seed(first: int, last: int) -> None:
    """A seed must fit in a record (so that the game can be replayed)."""
    limit = records.SEED_LIMIT
    if not (-limit < first < limit and -limit < last < limit):
        raise fail("--seed: a seed is a whole number between -(2^128 - 1) and 2^128 - 1 "
                   "(the games' seeds must fit in a record)", 2)


def layout_option():
    return typer.Option("auto", "--layout", metavar="auto|compact|full",
                        help="How screens fit the terminal: compact (fits its size; the "
                             "details are a command away), full (everything, it may scroll), "
                             "auto (full when it fits, else compact).")


def _check_layout(layout: str) -> None:
    from .layout import LAYOUTS  # (the screens of play and replay: imported by them only)
    if layout not in LAYOUTS:
        raise fail(f"--layout {layout}: choose one of {', '.join(LAYOUTS)}", 2)


def _player_counts(ruleset) -> dict:
    return {"min": ruleset.min_players, "max": ruleset.max_players, "default": ruleset.default_players}


def _counts_text(counts: dict) -> str:
    """``2-4``, or ``2-6, usually 4`` when the usual count is not the fewest."""
    text = f"{counts['min']}-{counts['max']}"
    return text if counts["default"] == counts["min"] else f"{text}, usually {counts['default']}"


def _players(prog, players: int | None) -> int:
    """The number of players asked for, checked; without one, the ruleset's usual count
    (``players A..B default N``), else its fewest, as the adapters take it."""
    if players is None:
        return prog.default_players
    if not prog.min_players <= players <= prog.max_players:
        raise fail(f"{prog.title} is for {prog.min_players} to {prog.max_players} players, "
                   f"not {players}", 2)
    return players


def _bot_spec(spec: str) -> str:
    """A bot's spec, checked, as the records and the seat labels write it: the name in
    lower case, then its options (``mcts:iterations=400``)."""
    try:
        name, options = parse_spec(spec)
    except BotSpecError as e:
        raise fail(str(e), 2) from None
    return name + (":" + ",".join(f"{k}={_option_text(v)}" for k, v in options.items())
                   if options else "")


def _option_text(value) -> str:
    """A bot option's value as a spec writes it (a switch: on or off)."""
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


# ---------------------------------------------------------------- validate

def _diag_key(d):
    return (d.code, d.span.file, d.span.line, d.span.column, d.message)


def _unique(found: list, seen: set, ds) -> None:
    for d in ds:
        if _diag_key(d) not in seen:
            seen.add(_diag_key(d))
            found.append(d)


@app.command()
def validate(
    paths: list[str] = typer.Argument(..., metavar="PATH", show_default=False,
                                      autocompletion=complete.rulesets,
                                      help="Ruleset files or folders (or bundled names)."),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("every ruleset's problems (or what it holds)"),
    no_color: bool = no_color_option(),
) -> None:
    """Check rulesets: the base, each variant alone, all variants together and each
    locale. Prints every problem with its place in the source; exit 1 if any."""
    jout = jsonout.begin("validate", json_out)
    budgets = parse_budgets(budget)
    checked = [_validate_one(name, budgets, jout.on) for name in paths]
    ok = all(c["ok"] for c in checked)
    jout.emit({"ok": ok, "rulesets": checked})
    if not ok:
        raise typer.Exit(1)


def _validate_one(name: str, budgets, as_json: bool) -> dict:
    """Checks one PATH; prints what it found (problems on stderr, a summary on stdout
    unless ``as_json``) and returns it as a --json entry."""
    out, err = _out(), _err()
    entry = {"input": name, "path": None, "ok": False, "name": None, "title": None,
             "players": None, "variants": [], "locales": [], "files": 0, "diagnostics": []}
    try:
        found = dsl_load.resolve(name)
    except dsl_load.NoRuleset as e:
        _error(str(e), e.hint)
        entry["diagnostics"].append(jsonout.cli_diagnostic("load/io", name, str(e), e.hint))
        return entry
    if found.note:
        _note(found.note)
    path = found.path
    src = dsl_load.read_sources(path, budgets)
    if src.base is None and path.is_file() and path.parent.name in ("variants", "locales"):
        # a variant or locale file alone: check it with the ruleset it belongs to
        if not as_json:
            out.print(f"{path} is a {path.parent.name[:-1]} file; checking its ruleset folder "
                      f"{path.parent.parent}", soft_wrap=True, markup=False)
        path = path.parent.parent
        src = dsl_load.read_sources(path, budgets)
    entry["path"], entry["files"] = str(path), len(src.sources)
    diags, seen, progs, rule_errors = [], set(), {}, []
    if src.diagnostics:
        _unique(diags, seen, src.diagnostics)
    else:
        variants = sorted(src.variants)
        combos = [((), None)] + [((v,), None) for v in variants]
        if len(variants) > 1:
            combos.append((tuple(variants), None))
        combos += [((), loc) for loc in sorted(src.locales)]
        for vs, loc in combos:
            try:
                progs[(vs, loc)] = interpreter.compile_sources(src, list(vs), loc, budgets)
            except MeepleError as e:
                _unique(diags, seen, e.diagnostics)
            except RuleError as e:
                message = (f"{e} (variants: {', '.join(vs) or 'none'}, "
                           f"locale: {loc or 'none'})")
                err.print(Text("error: ", style="bold red") + Text(f"{path}: {message}"))
                rule_errors.append(jsonout.cli_diagnostic(getattr(e, "code", "rule/error"),
                                                          str(path), message))
    if diags:
        err.print("\n\n".join(d.render(src.sources) for d in diags), markup=False,
                  soft_wrap=True)
        err.print(Text(f"\n{path}: {len(diags)} problem(s)", style="bold red"))
    warnings, wseen = [], set()
    for prog in progs.values():
        _unique(warnings, wseen, getattr(prog, "warnings", []))
    if warnings and not diags:
        err.print("\n\n".join(w.render(src.sources) for w in warnings) + "\n",
                  markup=False, soft_wrap=True, style="yellow")
    entry["diagnostics"] = [jsonout.diagnostic(d) for d in diags + warnings] + rule_errors
    entry["ok"] = not diags and not rule_errors
    if diags or ((), None) not in progs:
        return entry
    base = progs[((), None)]
    entry.update(name=base.name, title=base.title,
                 players=_player_counts(base))
    for v in sorted(src.variants):
        prog = progs.get(((v,), None))
        title = prog.checked.variant_titles.get(v, v) if prog else v
        entry["variants"].append({"name": v, "title": title})
    for loc in sorted(src.locales):
        prog = progs.get(((), loc))
        entry["locales"].append({"name": loc, "language": prog.checked.language if prog else None})
    if not as_json and entry["ok"]:
        _print_validated(out, path, entry)
    return entry


def _print_validated(out: Console, path: Path, entry: dict) -> None:
    out.print(Text("ok ", style="bold green") + Text(f"{path}: {entry['title']} ({entry['name']})"))
    out.print(f"  players:  {_counts_text(entry['players'])}")
    out.print("  variants: " + (", ".join(f"{v['name']} ({v['title']})" for v in entry["variants"])
                                or "none"), markup=False, soft_wrap=True)
    locs = [f"{loc['name']} ({loc['language']})"
            if loc["language"] and loc["language"] != loc["name"] else loc["name"]
            for loc in entry["locales"]]
    out.print("  locales:  " + (", ".join(locs) or "none"), soft_wrap=True, markup=False)
    out.print(f"  files:    {entry['files']} checked")


# ---------------------------------------------------------------- list

LIST_COLUMNS = ("Name", "Title", "Players", "Variants", "Locales")


@app.command("list")
def list_rulesets(
    json_out: bool = json_option("the bundled rulesets"),
    no_color: bool = no_color_option(),
) -> None:
    """List the bundled rulesets with their players, variants and locales. A table when
    the terminal is wide enough for it, else one block per ruleset: names are never cut."""
    jout = jsonout.begin("list", json_out)
    entries = []
    for name in dsl_load.bundled_names():
        src = dsl_load.read_sources(dsl_load.resolve_path(name))
        entry = {"name": name, "ok": False, "title": None, "players": None,
                 "variants": sorted(src.variants), "locales": sorted(src.locales)}
        try:
            prog = interpreter.compile_sources(src)
            entry.update(ok=True, title=prog.title,
                         players=_player_counts(prog))
        except (MeepleError, RuleError):
            pass
        entries.append(entry)
    if jout.on:
        jout.emit({"ok": True, "rulesets": entries})
        return
    out = _out()
    table = _list_table(entries)
    natural = Measurement.get(out, out.options.update_width(10_000), table).maximum
    if natural <= out.width:
        out.print(table)
    else:
        out.print(_list_blocks(out, entries))


@app.command("bots")
def list_bots(
    json_out: bool = json_option("the bots and their options"),
    no_color: bool = no_color_option(),
) -> None:
    """List the bots with their options and defaults. A bot is given as
    NAME[:KEY=VALUE,...], e.g. --bot 2=ismcts:iterations=400 or --bot 2=mcts:time=1.5."""
    jout = jsonout.begin("bots", json_out)
    bots = describe_bots()
    if jout.on:
        jout.emit({"ok": True, "bots": bots})
        return
    out = _out()
    for b in bots:
        out.print(Text(b["name"], style="bold") + Text(f": {b['description']}"))
        table = Table(box=None, show_header=False, padding=(0, 1, 0, 4))
        for o in b["options"]:
            default = "-" if o["default"] is None else str(o["default"])
            table.add_row(f"{o['name']}={o['type']}", default, o["help"])
        if b["options"]:
            out.print(table)


def _list_cells(e: dict) -> list[Text]:
    players = _counts_text(e["players"]) if e["ok"] else ""
    title = render.safe_text(e["title"]) if e["ok"] else Text(
        "(has errors: run meeple validate)", style="red")
    return [render.safe_text(e["name"], style="bold"), title, Text(players),
            render.safe_text("\n".join(e["variants"]) or "-"),
            render.safe_text(", ".join(e["locales"]) or "-")]


def _list_table(entries: list[dict]) -> Table:
    """One row per ruleset, a variant per line: for a terminal wide enough for all of it."""
    t = Table(header_style="bold")
    for col in LIST_COLUMNS:
        t.add_column(col, overflow="fold")
    for e in entries:
        t.add_row(*_list_cells(e))
    return t


def _list_blocks(out: Console, entries: list[dict]) -> Group:
    """One block per ruleset, for a narrow terminal: the name and title, then players,
    variants and locales on lines of their own; long lists wrap between names (a name
    longer than the line folds onto the next one, never cut)."""
    parts = []
    for k, e in enumerate(entries):
        name, title, players, _, locales = _list_cells(e)
        if k:
            parts.append(Text(""))
        parts.extend(_wrapped(out, Text.assemble(name, " — ", title), 0))
        fields = [("players", players)] if e["ok"] else []
        fields += [("variants", render.safe_text(", ".join(e["variants"]) or "-")),
                   ("locales", locales)]
        for label, value in fields:
            for i, line in enumerate(_wrapped(out, value, LIST_INDENT)):
                head = f"  {label}".ljust(LIST_INDENT) if i == 0 else " " * LIST_INDENT
                parts.append(Text.assemble((head, "dim"), line))
    return Group(*parts)


LIST_INDENT = len("  variants ")


def _wrapped(out: Console, text: Text, indent: int) -> list[Text]:
    """``text`` in lines that fit beside ``indent`` columns, broken between words, a word
    too long for a line folded; no trailing spaces."""
    lines = text.wrap(out, max(out.width - indent, 8), overflow="fold")
    for line in lines:
        line.rstrip()
    return list(lines)


# ---------------------------------------------------------------- play

def _parse_bots(specs: list[str], players: int) -> dict[int, str]:
    bots = {}
    for spec in specs:
        seat_s, _, name = spec.partition("=")
        name = name or "random"
        try:
            seat = int(seat_s)
        except ValueError:
            raise fail(f"--bot '{spec}': write SEAT=BOT, e.g. --bot 2=random "
                       f"(seats count from 1)", 2) from None
        if not 1 <= seat <= players:
            raise fail(f"--bot '{spec}': there is no seat {seat}; this game has seats 1 to "
                       f"{players}", 2)
        bots[seat - 1] = _bot_spec(name)
    return bots


HOT_SEAT_NOT_A_TERMINAL = (
    "{title} hides information from the players, and the output is not a terminal (it is "
    "piped or redirected), where the screen cannot be cleared between players: every "
    "player's hand would end up in it. Play in a terminal, or let bots play every seat "
    "but one (e.g. {bots}): then only that seat's view is shown. (An output "
    "that is a terminal in disguise can say so with TTY_COMPATIBLE=1.)")


def _stdin_keeps_bad_bytes() -> None:
    """Input bytes that are not valid text become lone surrogates (printed escaped)
    instead of an error."""
    try:
        sys.stdin.reconfigure(errors="surrogateescape")
    except (AttributeError, ValueError, OSError):
        pass


@app.command()
def play(
    ruleset: str | None = typer.Argument(None, metavar="RULESET", show_default=False,
                                            autocompletion=complete.rulesets,
                                            help="A bundled ruleset name (see meeple list) or "
                                                 "a path (with --resume: the record's ruleset)."),
    players: int | None = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: list[str] = typer.Option([], "--variant", "-v", metavar="NAME",
                                      autocompletion=complete.variants,
                                      help="A variant to play (repeatable)."),
    locale: str | None = typer.Option(None, "--locale", "-l", metavar="NAME",
                                         autocompletion=complete.locales,
                                         help="A locale, e.g. de."),
    seed: int | None = typer.Option(None, "--seed", "-s", metavar="S",
                                       help="Random seed: the same seed, the same game (default: 64 "
                                            "random bits from the operating system, shown "
                                            "when the game is over)."),
    bot: list[str] = typer.Option([], "--bot", "-b", metavar="SEAT=BOT",
                                  autocompletion=complete.seat_bots,
                                  help="SEAT=BOT: a computer player for a seat (1-based), e.g. "
                                       "2=random or 2=ismcts:iterations=400 (repeatable). Bots: "
                                       + ", ".join(sorted(BOTS)) + " (see meeple bots)"),
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
    budget: list[str] = budget_option(),
    layout: str = layout_option(),
    no_color: bool = no_color_option(),
) -> None:
    """Play a game in the terminal: hot seat for the humans, bots for the --bot seats.
    With no --seed the seed is random (64 bits from the operating system) and shown
    only at the end. When the output is not a terminal, a game with hidden information
    needs bots for all seats but one."""
    out = _out()
    _check_layout(layout)
    _stdin_keeps_bad_bytes()
    if resume is not None:
        if players is not None or variant or locale or seed is not None or bot or record:
            raise fail("with --resume the players, variants, locale, seed, bots and record file "
                       "come from the record; give only --resume RECORD (and --ruleset PATH)", 2)
        if ruleset is not None and ruleset_path is not None:
            raise fail("give the ruleset either as RULESET or as --ruleset, not both", 2)
        raise typer.Exit(_resume(out, resume, ruleset_path or ruleset, parse_budgets(budget),
                                 layout))
    if ruleset is None:
        raise fail("missing RULESET: name a bundled ruleset or a path (or --resume RECORD)", 2)
    if ruleset_path is not None:
        raise fail("--ruleset goes with --resume; name the ruleset as RULESET", 2)
    prog = _load(ruleset, variant, locale, parse_budgets(budget))
    _check_record(record, force)
    n = _players(prog, players)
    bot_names = _parse_bots(bot, n)
    seats = [bot_names.get(s, HUMAN) for s in range(n)]
    if prog.hidden_information and seats.count(HUMAN) > 1 and not out.is_terminal:
        raise fail(HOT_SEAT_NOT_A_TERMINAL.format(
            title=prog.title, bots=" ".join(f"--bot {s + 1}=random" for s in range(1, n))), 2)
    chosen = seed is not None
    if chosen:
        _check_seed(seed, seed)
    if seed is None:
        # 64 bits from the operating system: the seed decides every hidden card, so it
        # must not be guessable; it is shown only when the game is over
        seed = secrets.randbits(64)
    bots = {s: make_bot(name, bot_seed(seed, 0, s), play_time=PLAY_TIME)
            for s, name in bot_names.items()}
    try:
        game = prog.new_game(n, seed)
    except RuleError as e:
        raise rule_fail(f"the game cannot start: {e}", e, prog) from None
    title = prog.title
    if prog.variants:
        title += " + " + ", ".join(prog.checked.variant_titles.get(v, v) for v in prog.variants)
    lang = language(prog)
    out.print(render.safe_text(title, style="bold") + Text(
        " — " + tr(lang, "{n} players", n=n)
        + (" — " + tr(lang, "seed {seed}", seed=seed) if chosen else "")
        + (" — " + tr(lang, "locale {locale}", locale=render.literal(prog.locale))
           if prog.locale else "")))
    for s in range(n):
        out.print(render.safe_text(_seat_line(lang, prog, s, seats[s])))
    rec = records.Record(_record_name(ruleset), n, seed, list(variant), locale, [], seats)
    # named by the time, not the seed (a random seed would give the hidden cards away);
    # never over another file (see PlaySession.stop)
    quit_path = saving.quit_file(prog.name, time.strftime('%Y%m%d-%H%M%S'))
    from .play import PlaySession  # (the terminal game: only play loads it)
    session = PlaySession(out, game, seats, bots, rec, record, quit_path, layout)
    code = session.run()
    if code:
        raise typer.Exit(code)


def _check_record(record: Path | None, force: bool) -> None:
    """--record FILE, before the first move: a file that can be written (see
    ``records.check_target``), with no journal beside it of a game that was stopped
    before it could be saved (kept unless --force)."""
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
    line = f"  {display.player_name(prog, seat)}: {seat_label(lang, kind)}"
    if kind != HUMAN and default_budget(*parse_spec(kind), PLAY_TIME):
        line += " " + tr(lang, "(at most {seconds} s per move)", seconds=f"{PLAY_TIME:g}")
    return line


def _known_bot(kind) -> bool:
    try:
        parse_spec(kind)
    except BotSpecError:
        return False
    return True


def _resume(out: Console, path: Path, ruleset: str | None, budgets=None,
            layout: str = "auto") -> int:
    """Continues the unfinished game of a record; saving goes back to the same file. A
    journal (``NAME.journal``) is continued and saved to its record ``NAME``; a record with
    a journal beside it goes on from the journal, which holds the later moves."""
    from .play import Done, PlaySession
    target = journals.target_of(path)
    beside = journals.path_for(target)
    if path != beside and os.path.lexists(beside):
        _err().print(Text("note: ", style="cyan") + Text(
            f"{beside} holds moves made after {path} was last saved: the game goes on from "
            f"there"), soft_wrap=True)
        path = beside
    rec = _read_record(path)
    problem = records.check_target(target, overwrite=True)
    if problem:
        raise fail(f"--resume: {problem}", 2)
    if rec.chance == "explicit":
        raise fail(f"the game in {path} sets its chance outcomes one by one (explicit chance); "
                   f"'meeple play' plays with the seeded generator: replay it with "
                   f"'meeple replay {path}' or continue it from Python")
    prog = _record_ruleset(rec, ruleset, budgets)
    seats = list(rec.seats or [HUMAN] * rec.players)
    for s, kind in enumerate(seats):
        if kind != HUMAN and not _known_bot(kind):
            raise fail(f"invalid record: seat {s + 1} was played by '{records.printable(kind)}', "
                       f"which is neither a human nor a bot ({', '.join(sorted(BOTS))})")
    history: list = []

    def on_move(game, notation):
        history.append(Done.before(game, _mover(game, notation), notation))

    game = _replay_record(prog, rec, on_move)
    if game.over:
        raise fail(f"the game in {path} is over; replay it with 'meeple replay {path}'")
    if prog.hidden_information and seats.count(HUMAN) > 1 and not out.is_terminal:
        raise fail(HOT_SEAT_NOT_A_TERMINAL.format(
            title=prog.title, bots=" ".join(f"--bot {s + 1}=random"
                                            for s in range(1, rec.players))), 2)
    _stdin_keeps_bad_bytes()
    # game index = moves made so far: a resumed bot does not repeat its first game's choices
    bots = {s: make_bot(kind, bot_seed(rec.seed, len(rec.moves), s), play_time=PLAY_TIME)
            for s, kind in enumerate(seats) if kind != HUMAN}
    lang = language(prog)
    out.print(render.safe_text(prog.title, style="bold") + Text(
        " — " + tr(lang, "{n} players", n=rec.players)
        + " — " + tr(lang, "resumed after {n} moves", n=len(rec.moves))))
    for s in range(rec.players):
        out.print(render.safe_text(_seat_line(lang, prog, s, seats[s])))
    rec.seats = seats
    session = PlaySession(out, game, seats, bots, rec, target, target, layout)
    session.history = history
    return session.run()


# ---------------------------------------------------------------- perft

@app.command()
def perft(
    ruleset: str = typer.Argument(..., metavar="RULESET", show_default=False,
                                  autocompletion=complete.rulesets,
                                  help="A bundled ruleset name or a path."),
    depth: int = typer.Option(..., "--depth", "-d", metavar="N", show_default=False,
                              help="How many decisions deep to count."),
    players: int | None = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: list[str] = typer.Option([], "--variant", "-v", metavar="NAME",
                                      autocompletion=complete.variants,
                                      help="A variant (repeatable)."),
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
    native: bool = native_option(),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("the counts"),
    no_color: bool = no_color_option(),
) -> None:
    """Count the move paths of N decisions from the start of a game (or from a saved
    --position, or after --after moves): compare with published counts (chess perft) to
    check a ruleset's moves. A path on which the game ends earlier is not counted."""
    jout = jsonout.begin("perft", json_out)
    if depth < 1:
        raise fail("--depth must be at least 1", 2)
    _check_seed(seed, seed)
    prog = _load(ruleset, variant, None, parse_budgets(budget))
    lang = language(prog)
    go_native(prog, native, players if position is None else None)
    saved = _perft_position(prog, position, players) if position is not None else None
    n = saved.players if saved is not None else _players(prog, players)
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
    out = _out()
    if divide_moves:
        for notation, count in counts.items():
            out.print(Text(f"{notation}: {count}"))
    out.print(Text(tr(lang, "depth {depth}: {paths} paths ({seconds} s)", depth=depth,
                      paths=f"{nodes:,}", seconds=f"{elapsed:.2f}")))


def _perft_position(prog, path: Path, players: int | None):
    """The game of a saved state (--position), checked against the ruleset."""
    import json

    from ..dsl import files as dsl_files
    from ..interpreter.state import StateError
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


# ---------------------------------------------------------------- many games at once

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


def check_jobs(jobs: int | None, backend: str, address: str | None) -> None:
    """--jobs, --backend and --address: usage errors (exit 2). With --backend ray, what
    Ray prints from its own threads goes to stderr from now on (cli/foreign.py)."""
    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}", 2)
    if backend not in parallel.BACKENDS:
        raise fail(f"--backend {backend}: choose one of {', '.join(parallel.BACKENDS)}", 2)
    if address is not None and backend != "ray":
        raise fail("--address goes with --backend ray", 2)
    if backend == "ray":
        try:
            parallel.require_ray()
        except parallel.BackendError as e:
            raise fail(str(e), 2, hint=e.hint) from None
        foreign.keep_stdout()


@contextmanager
def backend_errors():
    try:
        yield
    except parallel.BackendError as e:
        raise fail(str(e), 1, hint=e.hint) from None
    except parallel.WorkerDied as e:
        raise fail(str(e)) from None


def played_games(prog, plan, jobs, backend, address, on_game):
    """The summaries of the games of ``plan`` in order (simulation.play_games), the
    workers stopped when the loop ends early; a backend that fails is an error (exit 1)."""
    with backend_errors():
        games = simulation.play_games(prog, plan, jobs, backend, address, on_game, settle=True)
    with closing(games), backend_errors():
        yield from games


def bot_spec(spec: str) -> str:
    """A bot spec the workers can make, checked and written as records write it (a bad
    one is a usage error, exit 2)."""
    return _bot_spec(spec)


def failed_game(prog, summary: dict, keep, jout) -> typer.Exit:
    """The exit of a run stopped by a game that failed: it names the game and its seed
    (and its record with --records), as text and in the --json document."""
    e, number, gseed = summary["error"], summary["game"] + 1, summary["seed"]
    path = keep.save(summary, failed=str(e)) \
        if keep is not None and summary.get("digest") is not None else None
    message = f"game {number} (seed {gseed}): {e}" + (f" (its record: {path})" if path else "")
    error = {"message": message}
    if isinstance(e, RuleError):
        error.update(hint=e.hint, rule=jsonout.rule_error(e))
    jout.emit({"ok": False, "error": error,
               "failed_game": {"game": number, "seed": gseed, "record": str(path) if path else None}})
    if isinstance(e, RuleError):
        return rule_fail(message, e, prog)
    return fail(message)


# ---------------------------------------------------------------- simulate

@app.command()
def simulate(
    ruleset: str = typer.Argument(..., metavar="RULESET", show_default=False,
                                  autocompletion=complete.rulesets,
                                  help="A bundled ruleset name or a path."),
    games: int = typer.Option(100, "--games", "-n", metavar="N", help="How many games to play."),
    players: int | None = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: list[str] = typer.Option([], "--variant", "-v", metavar="NAME",
                                      autocompletion=complete.variants,
                                      help="A variant (repeatable)."),
    locale: str | None = typer.Option(None, "--locale", "-l", metavar="NAME",
                                         autocompletion=complete.locales, help="A locale."),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S", help="Game i uses seed S+i."),
    bot: str = typer.Option("random", "--bot", "-b", metavar="BOT",
                            autocompletion=complete.bots,
                            help="The bot for every seat, NAME[:KEY=VALUE,...]: "
                                 + ", ".join(sorted(BOTS)) + " (see meeple bots)"),
    max_moves: int = typer.Option(100_000, "--max-moves", metavar="N",
                                  help="Stop a game that runs longer (an error)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    records_dir: Path | None = typer.Option(None, "--records", metavar="DIR",
                                               help="Save the record of every game in this "
                                                    "folder (created if needed)."),
    failed_only: bool = typer.Option(False, "--failed-only",
                                     help="With --records: save only the game that fails."),
    force: bool = typer.Option(False, "--force", help="Let --records overwrite existing files."),
    jobs: int | None = jobs_option(),
    backend: str = backend_option(),
    address: str | None = address_option(),
    native: bool = native_option(),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("the statistics"),
    report: Path | None = typer.Option(None, "--report", metavar="FILE.html",
                                          help="Also write a balance report (charts and "
                                               "tables) to this HTML file."),
    no_color: bool = no_color_option(),
) -> None:
    """Play many games with bots and show statistics: wins per seat, game length,
    moves per turn and speed."""
    jout = jsonout.begin("simulate", json_out)
    if games < 1:
        raise fail("--games must be at least 1", 2)
    if report is not None:
        _check_report_path(report)
    _check_seed(seed, seed + games - 1)
    if failed_only and records_dir is None:
        raise fail("--failed-only goes with --records DIR", 2)
    check_jobs(jobs, backend, address)
    spec = bot_spec(bot)
    prog = _load(ruleset, variant, locale, parse_budgets(budget))
    lang = language(prog)
    n = _players(prog, players)
    go_native(prog, native, n)
    keep = _Keeper(records_dir, prog, _record_name(ruleset), n, list(variant), locale,
                   failed_only, force, seed, games) if records_dir is not None else None
    plan = simulation.specs(n, lambda i: [spec] * n, games, seed, max_moves,
                            keep_moves=keep is not None)
    totals = simulation.Tally(n)
    balance = balance_stats.Balance(n)
    progress = progress_bar(tr(lang, "simulating"), quiet=quiet)
    start = time.perf_counter()
    with interruptible(), progress:
        task = progress.add_task("games", total=games)
        for summary in played_games(prog, plan, jobs, backend, address,
                                    lambda: progress.advance(task)):
            if summary["error"] is not None:
                progress.stop()
                raise failed_game(prog, summary, keep, jout)
            if keep is not None and not failed_only:
                keep.save(summary)
            totals.add(summary)
            balance.add(summary["balance"])
    elapsed = time.perf_counter() - start
    stats = {
        "ok": True, "ruleset": ruleset, "title": prog.title, "variants": list(prog.variants),
        "locale": prog.locale, "players": n, "bot": bot, "games": games,
        "seeds": {"first": seed, "last": seed + games - 1},
        **totals.report(prog),
        "seconds": elapsed, "games_per_second": games / elapsed if elapsed > 0 else None,
        "balance": balance.figures(),
    }
    if report is not None:
        _write_report(report, stats)
    if jout.on:
        jout.emit(stats)
    else:
        _print_simulation(_out(), prog, stats, lang)


def _check_report_path(path: Path) -> None:
    from . import report as html_report  # only when a report is asked for
    try:
        html_report.check_path(path)
    except html_report.ReportError as e:
        raise fail(str(e), 2) from None


def _write_report(path: Path, stats: dict) -> None:
    """simulate --report: the HTML balance report (charts need matplotlib: without it,
    the tables and a warning saying how to get them)."""
    from . import report as html_report
    text, charts = html_report.render(stats, stats["balance"], path)
    try:
        html_report.write(path, text)
    except OSError as e:
        raise fail(f"cannot write the report {path}: {e.strerror or e}") from None
    if not charts:
        _err().print(Text("warning: ", style="bold yellow") + render.safe_text(
            f"the report has no charts: matplotlib is not installed (install it with: "
            f"{html_report.INSTALL})"), soft_wrap=True)
    _err().print(render.safe_text(f"report written to {path}"), soft_wrap=True)


def _print_simulation(out: Console, prog, stats: dict, lang: str | None) -> None:
    title = prog.title + "".join(f" + {prog.checked.variant_titles.get(v, v)}"
                                 for v in prog.variants)
    seeds = stats["seeds"]
    out.print(render.safe_text(title, style="bold") + Text(
        " — " + tr(lang, "{n} games", n=stats["games"]) + ", "
        + tr(lang, "{n} players", n=stats["players"]) + ", " + seat_label(lang, stats["bot"]) + ", "
        + tr(lang, "seeds {first}..{last}", first=seeds["first"], last=seeds["last"])))
    t = Table(header_style="bold")
    t.add_column(tr(lang, "Seat"))
    t.add_column(tr(lang, "Wins"), justify="right")
    t.add_column(tr(lang, "Draws"), justify="right")
    t.add_column(tr(lang, "Losses"), justify="right")
    t.add_column(tr(lang, "Win %"), justify="right")
    for s in stats["seats"]:
        t.add_row(render.safe_text(s["player"]), str(s["wins"]), str(s["draws"]), str(s["losses"]),
                  f"{100 * s['win_rate']:.1f}%")
    out.print(t)
    st = Table(show_header=False, box=None, padding=(0, 2))
    st.add_column(style="bold")
    st.add_column()
    turns = stats["turns"]
    st.add_row(tr(lang, "shared wins"), str(stats["shared_wins"]))
    st.add_row(tr(lang, "drawn games"), str(stats["drawn_games"]))
    st.add_row(tr(lang, "game length (turns)"),
               tr(lang, "mean {mean}, min {min}, max {max}", mean=f"{turns['mean']:.1f}",
                  min=turns["min"], max=turns["max"]))
    per_turn, speed = stats["moves_per_turn"], stats["games_per_second"]
    st.add_row(tr(lang, "moves per turn"), f"{per_turn:.2f}" if per_turn is not None else "-")
    st.add_row(tr(lang, "total moves"), str(stats["moves"]))
    st.add_row(tr(lang, "games per second"), f"{speed:.1f}" if speed is not None else "-")
    out.print(st)


class _Keeper:
    """Saves the records of simulated games (``--records DIR``), each as play saves one."""

    def __init__(self, folder: Path, prog, ruleset: str, n: int, variants: list, locale,
                 failed_only: bool, force: bool, seed: int, games: int):
        self.folder, self.prog, self.ruleset, self.n = folder, prog, ruleset, n
        self.variants, self.locale = variants, locale
        self.secrets = prog.hidden_information
        self.rdigest = records.ruleset_digest(prog)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise fail(f"--records: cannot make the folder {folder}: {e.strerror or e}", 2) from None
        firsts = range(seed, seed + (1 if failed_only else games))
        for gseed in firsts:   # every name is checked before the first game
            problem = records.check_target(self.path(gseed), force)
            if problem:
                raise fail(f"--records: {problem}", 2)
        self.force = force

    def path(self, gseed: int) -> Path:
        return self.folder / f"{self.prog.name}-seed-{gseed}.json"

    def save(self, summary: dict, failed: str | None = None) -> Path:
        """Saves a game from its summary (simulation.play_game with keep_moves)."""
        gseed, played = summary["seed"], summary["played"]
        rec = records.Record(self.ruleset, self.n, gseed, self.variants, self.locale,
                             [m for m, _ in played], list(summary["bots"]), summary["result"],
                             summary["digest"], [d for _, d in played], self.rdigest, self.secrets)
        path = self.path(gseed)
        rec.note = records.describe(rec, path, True) + (
            f" The next move failed: {failed}" if failed else "")
        rec.note = rec.note.strip()[: records.MAX_NAME]
        try:
            rec.save(path)
        except records.SaveError as e:
            raise fail(str(e)) from None
        return path


# ---------------------------------------------------------------- replay

def _mover(game, notation: str) -> int:
    """The seat of a record's move (in a simultaneous decision, ``p2: ...`` is seat 2's)."""
    try:
        return game.find_move(notation).player
    except IllegalMove:
        return game.active_player   # the replay reports the illegal move itself

def _read_record(path: Path) -> records.Record:
    """A record, or a game's journal read as its record (with a note when its last line
    was cut short)."""
    try:
        rec = journals.load(path)
    except records.RecordError as e:
        raise fail(str(e)) from None
    if rec.recovered:
        _err().print(Text("note: ", style="cyan") + Text(rec.recovered), soft_wrap=True)
    return rec


def _record_ruleset(rec: records.Record, explicit: str | None, budgets=None):
    """The ruleset of a record: the explicit --ruleset PATH, else the bundled ruleset the
    record names. A path written inside a record is never opened."""
    if explicit is not None:
        path, label = _resolve(explicit), explicit
        if not (path.is_dir() or path.is_file()):   # stat only: a FIFO is never opened
            raise fail(f"--ruleset {explicit}: not a ruleset file or folder", 2)
    elif rec.ruleset in dsl_load.bundled_names():
        path, label = dsl_load.RULESETS_DIR / rec.ruleset, rec.ruleset
    else:
        raise fail(f"the record's ruleset '{records.printable(rec.ruleset)}' is not a bundled "
                   f"ruleset, and a path inside a record is never opened: give the ruleset "
                   f"with --ruleset PATH", 2)
    prog = _compile(path, label, rec.variants, rec.locale, budgets, from_options=False)
    recorded, now = rec.ruleset_digest, records.ruleset_digest(prog)
    lang = language(prog)
    if recorded and now and recorded != now:
        _err().print(Text(tr(lang, "warning: "), style="bold yellow") + Text(
            tr(lang, "the ruleset {ruleset} differs from the one the record was played with; "
                     "the replay stops at the first move whose state differs", ruleset=label)),
            soft_wrap=True)
    elif not rec.digests and rec.moves:
        _err().print(Text(tr(lang, "warning: "), style="bold yellow") + Text(
            tr(lang, "this record has no per-move digests (an older format): a diverging "
                     "replay is found only at its end, if at all")), soft_wrap=True)
    return prog


def _replay_record(prog, rec: records.Record, on_move=None):
    try:
        return records.replay(prog, rec, on_move)
    except records.RecordError as e:
        raise fail(f"invalid record: {e}") from None
    except RuleError as e:
        raise rule_fail(f"the replay hits an error in the rules: {e}", e, prog) from None


REPLAY_PROGRESS_MOVES = 500   # a record this long replays with a progress bar (on a terminal)


@app.command()
def replay(
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
    jout = jsonout.begin("replay", json_out)
    _check_layout(layout)
    if as_seat is not None and reveal:
        raise fail("use either --as or --reveal, not both", 2)
    if unfinished and not reveal:
        raise fail("--unfinished goes with --reveal", 2)
    rec = _read_record(record_file)
    prog = _record_ruleset(rec, ruleset, parse_budgets(budget))
    if as_seat is not None and not 1 <= as_seat <= rec.players:
        raise fail(f"--as {as_seat}: there is no such seat; the game has seats 1 to "
                   f"{rec.players}", 2)
    played: list = []   # (game before, notation, seat, type) of each move
    progress = progress_bar("replaying", quiet=quiet or len(rec.moves) < REPLAY_PROGRESS_MOVES)
    with interruptible(), progress:
        task = progress.add_task("moves", total=len(rec.moves))

        def on_move(game, notation):
            if not quiet:
                played.append((game.copy(), notation, game.active_player, game.decision.type))
            progress.advance(task)

        game = _replay_record(prog, rec, on_move)
    if reveal and not game.over and not unfinished:
        raise fail("the game is not over: --reveal would show the hidden information of a game "
                   "still in play; add --unfinished to show it all the same", 2)
    seat = "all" if reveal else (as_seat - 1 if as_seat is not None else SPECTATOR)
    moves = []
    # the choices of a simultaneous decision still under way at the end are secret
    secret_from = len(played) - (len(game.decision.chosen) if game.simultaneous else 0)
    for k, (before, notation, mover, tc) in enumerate(played):
        after = played[k + 1][0] if k + 1 < len(played) else game
        m = before.find_move(notation)
        mover = m.player
        shown, text = render.describe_move(before, m, tc, seat, after)
        if k >= secret_from and seat not in ("all", mover):
            shown = tr(language(prog), "(hidden)")
            text = Text(shown)
        moves.append((mover, shown, text))
    if jout.on:
        jout.emit({
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
            "to_move": None if game.over else game.active_player})
        return
    out = _out()
    lang = language(prog)
    if reveal:
        who = tr(lang, "as seen by everything")
    elif as_seat:
        who = tr(lang, "as seen by {player}", player=display.player_name(prog, seat))
    else:
        who = tr(lang, "as seen by a spectator")
    shown_seed = " — " + tr(lang, "seed {seed}", seed=rec.seed) if game.over or reveal else ""
    out.print(Text(prog.title, style="bold") + Text(
        " — " + tr(lang, "{n} players", n=rec.players) + shown_seed + " — "
        + tr(lang, "{n} moves", n=len(rec.moves)) + " — " + who))
    for mover, shown, text in moves:
        out.print(render.move_line(Text(f"{display.player_name(prog, mover)}: ", style="cyan"),
                                   shown, text))
    out.print()
    from .layout import fit_screen, height
    tail = render.result_table(prog, game.result) if game.over else None
    # the final board fitted in what the other lines leave with --quiet: the title and a
    # blank line above it, a blank line, the result (or the two lines saying who is to
    # move) and the shell's prompt under it
    reserve = 2 + 1 + (height(out, [tail]) if tail is not None else 2) + 1
    for part in fit_screen(out, prog, view(game, seat), seat, layout=layout,
                                  reserve=reserve, log_lines=8):
        out.print(part)
    out.print()
    if game.over:
        out.print(tail)
    else:
        nxt = game.active_player
        out.print(tr(lang, "The game is not over: {player} is to move; continue it with "
                           "'{command}'.", player=display.player_name(prog, nxt),
                     command=f"meeple play --resume {record_file}"), markup=False,
                  soft_wrap=True)


def _prog_name() -> str:
    """How usage lines and completion scripts name the command: 'python -m meeple' when
    run so, else 'meeple' (the console script, or main() called by another program)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return "python -m meeple" if spec is not None and spec.name in ("meeple", "meeple.__main__") \
        else "meeple"


def _interrupted() -> int:
    try:
        sys.stderr.write("\ninterrupted\n")
    except (OSError, ValueError):
        pass
    return 130


class _LiteralStream:
    """A text stream that writes everything through ``render.literal``: click's own
    messages (a bad option value, a missing argument) quote what the user typed."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, s: str) -> int:
        return self._stream.write(render.literal(s))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _run_app():
    try:
        return app(standalone_mode=False, prog_name=_prog_name())
    finally:
        foreign.command_over()


def main() -> None:
    """The ``meeple`` command (see cli/entry.py): the app, with Ctrl-C anywhere exiting
    130 and never a traceback (``play`` saves its record before), and click's usage
    errors printed with the typed values escaped. Exit codes: 0, 1, 2, 130."""
    jsonout.reset()
    try:
        code = _run_app()
    except typer.exceptions.TyperException as e:   # click's usage errors: exit 2
        stream = _LiteralStream(sys.stderr)
        if callable(getattr(e, "show", None)):
            e.show(file=stream)
        else:  # pragma: no cover - every such error has show() today
            stream.write(f"error: {e.format_message()}\n")
        code = e.exit_code
    except typer.Abort as e:
        # click turns Ctrl-C (and the end of the input in its own prompts) into Abort
        if isinstance(e.__context__, KeyboardInterrupt):
            code = _interrupted()
        else:
            sys.stderr.write("Aborted!\n")
            code = 1
    except KeyboardInterrupt:
        code = _interrupted()
    except BrokenPipeError:
        # the output was closed (`meeple ... | head`): stop quietly, as other tools do
        # (`play` saves its game first); what Python still holds for it is dropped
        _drop_stdout()
        code = 1
    sys.exit(code if isinstance(code, int) else 0)


def _drop_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


# ---------------------------------------------------------------- lsp

@app.command()
def lsp(
    tcp: str | None = typer.Option(None, "--tcp", metavar="[HOST:]PORT",
                                      help="Listen on a TCP port instead of stdin/stdout."),
    stdio: bool = typer.Option(True, "--stdio", hidden=True,
                               help="Speak on stdin/stdout (the default; editors pass it)."),
) -> None:
    """A language server for ruleset files (the Language Server Protocol): the checker's
    diagnostics as you type, hover text, go to definition and completion. Editors start
    it themselves; see docs/editors.md. Needs pygls: pip install "meeple[lsp]"."""
    del stdio
    try:
        import pygls  # noqa: F401 - only to say clearly when it is missing
    except ImportError:
        raise fail("meeple lsp needs pygls, which is not installed", 2,
                   hint='pip install "meeple[lsp]"') from None
    if tcp is not None and not re.fullmatch(r"(?:[\w.-]+:)?\d{1,5}", tcp):
        raise fail(f"--tcp '{tcp}': write PORT or HOST:PORT, e.g. --tcp 2087", 2)
    from . import lsp as server
    server.serve(tcp)


# ---------------------------------------------------------------- cache

@app.command()
def cache(
    action: str = typer.Argument("info", metavar="[info|clear]",
                                 help="info: where the cache is and what it holds; "
                                      "clear: remove every entry."),
    no_color: bool = no_color_option(),
) -> None:
    """The cache of compiled rulesets (and of the grammar's tables) that makes loading
    a ruleset fast the second time: where it is, how big, or clear it. Its folder is
    MEEPLE_CACHE_DIR, else XDG_CACHE_HOME/meeple, else ~/.cache/meeple; MEEPLE_NO_CACHE=1
    or --no-cache turns it off."""
    if action not in ("info", "clear"):
        raise fail(f"unknown action '{action}'; choose info or clear", 2)
    out = _out()
    if action == "clear":
        n = interpreter.clear_cache()
        out.print(f"removed {n} entr{'y' if n == 1 else 'ies'} from {interpreter.cache_info()['folder']}",
                  markup=False, soft_wrap=True)
        return
    info = interpreter.cache_info()
    state = "on" if info["enabled"] and info["trusted"] else \
        ("off" if not info["enabled"] else f"not used: {info['reason']}")
    out.print(f"folder:  {info['folder']}", markup=False, soft_wrap=True)
    out.print(f"state:   {state}", markup=False, soft_wrap=True)
    out.print(f"entries: {info['entries']} ({info['bytes'] / 1e6:.1f} MB)", markup=False)
    native = info["native"]
    if native["entries"]:
        out.print(f"native:  {native['entries']} module(s) ({native['bytes'] / 1e6:.1f} MB; --native)",
                  markup=False)


# ---------------------------------------------------------------- test

from . import proptest  # noqa: E402 - registered last, on the app defined above

proptest.register(app, _out, _err, fail, _resolve)

from . import rulebook  # noqa: E402 - registered last, on the app defined above

rulebook.register(app, fail, _resolve, _compile)

from . import arena  # noqa: E402 - registered last, on the app defined above

arena.register(app)


if __name__ == "__main__":  # pragma: no cover
    main()
