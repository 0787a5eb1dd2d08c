"""The ``meeple`` command: validate rulesets, play them in the terminal (hot seat, with
bots), simulate many games with bots, and replay game records."""
from __future__ import annotations

import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

import interpreter
from dsl import budgets as dsl_budgets
from dsl import load as dsl_load
from dsl.errors import MeepleError
from interpreter import IllegalMove, RuleError, display
from interpreter import record as records
from interpreter.bots import BOTS
from interpreter.views import SPECTATOR, view

from . import render
from .play import HUMAN, PlaySession

app = typer.Typer(
    name="meeple",
    help="Meeple: validate, play, simulate and replay games written in the Meeple rules language.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def fail(message: str, code: int = 1) -> "typer.Exit":
    """Prints 'error: message' on stderr and returns the exit to raise."""
    _err().print(Text("error: ", style="bold red") + Text(message), soft_wrap=True)
    return typer.Exit(code)


# ---------------------------------------------------------------- loading

def _resolve(ruleset: str) -> Path:
    try:
        return dsl_load.resolve_path(ruleset)
    except FileNotFoundError:
        names = ", ".join(dsl_load.bundled_names()) or "none"
        raise fail(f"no ruleset '{ruleset}': not a file, a folder or a bundled ruleset "
                   f"(bundled: {names})") from None


BUDGET_HELP = ("NAME=VALUE: raise a limit on loading or running the rules (repeatable), e.g. "
               "steps=1000000. Budgets: " + ", ".join(dsl_budgets.NAMES) + " (see docs/language.md).")


def budget_option():
    """The --budget option of every command that loads a ruleset."""
    return typer.Option([], "--budget", metavar="NAME=VALUE", help=BUDGET_HELP)


def parse_budgets(settings: list[str]) -> interpreter.Budgets:
    try:
        return dsl_budgets.from_settings(settings)
    except ValueError as e:
        raise fail(f"--budget: {e}", 2) from None


def _load(ruleset: str, variants: list[str], locale: Optional[str],
          budgets: Optional[interpreter.Budgets] = None) -> interpreter.Program:
    path = _resolve(ruleset)
    try:
        src = dsl_load.read_sources(path, budgets)
        return interpreter.compile_sources(src, variants, locale, budgets)
    except MeepleError as e:
        _err().print(e.render(), markup=False, soft_wrap=True)
        raise fail(f"the ruleset '{ruleset}' cannot be loaded "
                   f"({len(e.diagnostics)} problem(s))") from None
    except RuleError as e:
        raise fail(f"the ruleset '{ruleset}' cannot be loaded: {e}") from None


def _record_name(ruleset: str) -> str:
    """How a record names its ruleset: a bundled name as is, a path made absolute so the
    record can be replayed from anywhere."""
    p = Path(ruleset)
    if not p.exists() and ruleset in dsl_load.bundled_names():
        return ruleset
    return str(p.resolve())


def _players(prog, players: Optional[int]) -> int:
    if players is None:
        return min(max(prog.min_players, 2), prog.max_players)
    if not prog.min_players <= players <= prog.max_players:
        raise fail(f"{prog.title} is for {prog.min_players} to {prog.max_players} players, "
                   f"not {players}", 2)
    return players


def _bot_class(name: str):
    cls = BOTS.get(name.strip().lower())
    if cls is None:
        raise fail(f"unknown bot '{name}'; bots are: {', '.join(sorted(BOTS))}", 2)
    return cls


def _bot_seed(seed: int, game: int, seat: int) -> int:
    return (seed + game) * 1000 + seat


class LazyView(Mapping):
    """A seat's view, computed only if the bot reads it (a random bot never does):
    simulations run about twice as fast."""

    def __init__(self, game, seat):
        self._game, self._seat, self._view = game, seat, None

    def _get(self) -> dict:
        if self._view is None:
            self._view = view(self._game, self._seat)
        return self._view

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())


# ---------------------------------------------------------------- validate

def _diag_key(d):
    return (d.code, d.span.file, d.span.line, d.span.column, d.message)


@app.command()
def validate(
    paths: List[str] = typer.Argument(..., metavar="PATH", show_default=False,
                                      help="Ruleset files or folders (or bundled names)."),
    budget: List[str] = budget_option(),
) -> None:
    """Check rulesets: the base, each variant alone, all variants together and each
    locale. Prints every problem with its place in the source; exit 1 if any."""
    out, err = _out(), _err()
    budgets = parse_budgets(budget)
    bad = False
    for name in paths:
        try:
            path = dsl_load.resolve_path(name)
        except FileNotFoundError:
            err.print(Text("error: ", style="bold red") + Text(f"no such file or folder: '{name}'"))
            bad = True
            continue
        src = dsl_load.read_sources(path, budgets)
        if src.base is None and path.is_file() and path.parent.name in ("variants", "locales"):
            # a variant or locale file alone: check it with the ruleset it belongs to
            out.print(f"{path} is a {path.parent.name[:-1]} file; checking its ruleset folder "
                      f"{path.parent.parent}", soft_wrap=True, markup=False)
            path = path.parent.parent
            src = dsl_load.read_sources(path, budgets)
        diags, seen, progs = [], set(), {}

        def add(ds):
            for d in ds:
                if _diag_key(d) not in seen:
                    seen.add(_diag_key(d))
                    diags.append(d)

        if src.diagnostics:
            add(src.diagnostics)
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
                    add(e.diagnostics)
                except RuleError as e:
                    err.print(Text("error: ", style="bold red") + Text(
                        f"{path}: {e} (variants: {', '.join(vs) or 'none'}, "
                        f"locale: {loc or 'none'})"))
                    bad = True
        if diags:
            bad = True
            err.print("\n\n".join(d.render(src.sources) for d in diags), markup=False,
                      soft_wrap=True)
            err.print(Text(f"\n{path}: {len(diags)} problem(s)", style="bold red"))
            continue
        if not progs:
            continue
        warnings, wseen = [], set()
        for prog in progs.values():
            for w in getattr(prog, "warnings", []):
                if _diag_key(w) not in wseen:
                    wseen.add(_diag_key(w))
                    warnings.append(w)
        if warnings:
            err.print("\n\n".join(w.render(src.sources) for w in warnings) + "\n",
                      markup=False, soft_wrap=True, style="yellow")
        base = progs[((), None)]
        out.print(Text("ok ", style="bold green") + Text(f"{path}: {base.title} ({base.name})"))
        out.print(f"  players:  {base.min_players}-{base.max_players}")
        titles = {v: progs[((v,), None)].checked.variant_titles.get(v, v)
                  for v in sorted(src.variants)}
        out.print("  variants: " + (", ".join(f"{v} ({t})" for v, t in titles.items()) or "none"),
                  markup=False, soft_wrap=True)
        locs = []
        for loc in sorted(src.locales):
            lang = progs[((), loc)].checked.language
            locs.append(f"{loc} ({lang})" if lang and lang != loc else loc)
        out.print("  locales:  " + (", ".join(locs) or "none"), soft_wrap=True, markup=False)
        out.print(f"  files:    {len(src.sources)} checked")
    if bad:
        raise typer.Exit(1)


# ---------------------------------------------------------------- list

@app.command("list")
def list_rulesets() -> None:
    """List the bundled rulesets with their players, variants and locales."""
    out = _out()
    t = Table(header_style="bold")
    for col in ("Name", "Title", "Players", "Variants", "Locales"):
        t.add_column(col)
    for name in dsl_load.bundled_names():
        path = dsl_load.resolve_path(name)
        src = dsl_load.read_sources(path)
        try:
            prog = interpreter.compile_sources(src)
        except (MeepleError, RuleError):
            t.add_row(name, Text("(has errors: run meeple validate)", style="red"), "", "", "")
            continue
        t.add_row(Text(name), Text(prog.title), f"{prog.min_players}-{prog.max_players}",
                  ", ".join(sorted(src.variants)) or "-", ", ".join(sorted(src.locales)) or "-")
    out.print(t)


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
        _bot_class(name)
        bots[seat - 1] = name.strip().lower()
    return bots


@app.command()
def play(
    ruleset: str = typer.Argument(..., metavar="RULESET", show_default=False,
                                  help="A bundled ruleset name (see meeple list) or a path."),
    players: Optional[int] = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: List[str] = typer.Option([], "--variant", "-v", metavar="NAME",
                                      help="A variant to play (repeatable)."),
    locale: Optional[str] = typer.Option(None, "--locale", "-l", metavar="NAME",
                                         help="A locale, e.g. de."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", metavar="S",
                                       help="Random seed (default: random)."),
    bot: List[str] = typer.Option([], "--bot", "-b", metavar="SEAT=BOT",
                                  help="SEAT=BOT: a computer player for a seat (1-based), e.g. "
                                       "2=random (repeatable). Bots: " + ", ".join(sorted(BOTS))),
    record: Optional[Path] = typer.Option(None, "--record", "-r", metavar="FILE",
                                          help="Save the game record here at the end or on quit."),
    budget: List[str] = budget_option(),
) -> None:
    """Play a game in the terminal: hot seat for the humans, bots for the --bot seats."""
    out = _out()
    prog = _load(ruleset, variant, locale, parse_budgets(budget))
    n = _players(prog, players)
    bot_names = _parse_bots(bot, n)
    if seed is None:
        seed = random.randrange(1, 1_000_000)
    seats = [bot_names.get(s, HUMAN) for s in range(n)]
    bots = {s: BOTS[name](_bot_seed(seed, 0, s)) for s, name in bot_names.items()}
    try:
        game = prog.new_game(n, seed)
    except RuleError as e:
        raise fail(f"the game cannot start: {e}") from None
    title = prog.title
    if prog.variants:
        title += " + " + ", ".join(prog.checked.variant_titles.get(v, v) for v in prog.variants)
    out.print(Text(f"{title}", style="bold") + Text(
        f" — {n} players — seed {seed}"
        + (f" — locale {prog.locale}" if prog.locale else "")))
    for s in range(n):
        out.print(f"  {display.player_name(prog, s)}: {seats[s]}", markup=False)
    rec = records.Record(_record_name(ruleset), n, seed, list(variant), locale, [], seats)
    quit_path = Path.cwd() / f"meeple-{prog.name}-{seed}.json"
    session = PlaySession(out, game, seats, bots, rec, record, quit_path)
    code = session.run()
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------- simulate

@app.command()
def simulate(
    ruleset: str = typer.Argument(..., metavar="RULESET", show_default=False,
                                  help="A bundled ruleset name or a path."),
    games: int = typer.Option(100, "--games", "-n", metavar="N", help="How many games to play."),
    players: Optional[int] = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: List[str] = typer.Option([], "--variant", "-v", metavar="NAME",
                                      help="A variant (repeatable)."),
    locale: Optional[str] = typer.Option(None, "--locale", "-l", metavar="NAME", help="A locale."),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S", help="Game i uses seed S+i."),
    bot: str = typer.Option("random", "--bot", "-b", metavar="BOT",
                            help="The bot for every seat: " + ", ".join(sorted(BOTS))),
    max_moves: int = typer.Option(100_000, "--max-moves", metavar="N",
                                  help="Stop a game that runs longer (an error)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    budget: List[str] = budget_option(),
) -> None:
    """Play many games with bots and show statistics: wins per seat, game length,
    moves per turn and speed."""
    out = _out()
    if games < 1:
        raise fail("--games must be at least 1", 2)
    prog = _load(ruleset, variant, locale, parse_budgets(budget))
    n = _players(prog, players)
    bot_cls = _bot_class(bot)
    wins = [0] * n
    shared = 0
    lengths, total_moves, total_turns = [], 0, 0
    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=out,
                        disable=quiet or not out.is_terminal, transient=True)
    start = time.perf_counter()
    with progress:
        task = progress.add_task("games", total=games)
        for i in range(games):
            gseed = seed + i
            bots = [bot_cls(_bot_seed(seed, i, s)) for s in range(n)]
            try:
                game = prog.new_game(n, gseed)
                moves = 0
                while not game.over:
                    if moves >= max_moves:
                        raise RuleError(f"the game did not end after {max_moves} moves")
                    seat = game.active_player
                    legal = game.legal_moves()
                    game.apply(legal[bots[seat].choose(LazyView(game, seat), [x.notation for x in legal])])
                    moves += 1
            except (RuleError, IllegalMove) as e:
                progress.stop()
                raise fail(f"game {i + 1} (seed {gseed}): {e}") from None
            res = game.result
            for w in res["winners"]:
                wins[w] += 1
            if len(res["winners"]) > 1:
                shared += 1
            turns = view(game, SPECTATOR)["turn"]
            lengths.append(turns)
            total_turns += turns
            total_moves += moves
            progress.advance(task)
    elapsed = time.perf_counter() - start
    title = prog.title + "".join(f" + {prog.checked.variant_titles.get(v, v)}"
                                 for v in prog.variants)
    out.print(Text(title, style="bold") + Text(f" — {games} games, {n} players, {bot} bots, "
                                               f"seeds {seed}..{seed + games - 1}"))
    t = Table(header_style="bold")
    t.add_column("Seat")
    t.add_column("Wins", justify="right")
    t.add_column("Win %", justify="right")
    for s in range(n):
        t.add_row(Text(display.player_name(prog, s)), str(wins[s]),
                  f"{100 * wins[s] / games:.1f}%")
    out.print(t)
    st = Table(show_header=False, box=None, padding=(0, 2))
    st.add_column(style="bold")
    st.add_column()
    st.add_row("shared wins", str(shared))
    st.add_row("game length (turns)",
               f"mean {sum(lengths) / games:.1f}, min {min(lengths)}, max {max(lengths)}")
    st.add_row("moves per turn", f"{total_moves / total_turns:.2f}" if total_turns else "-")
    st.add_row("total moves", str(total_moves))
    st.add_row("games per second", f"{games / elapsed:.1f}" if elapsed > 0 else "-")
    out.print(st)


# ---------------------------------------------------------------- replay

@app.command()
def replay(
    record_file: Path = typer.Argument(..., metavar="RECORD", help="A game record (JSON).",
                                       show_default=False),
    as_seat: Optional[int] = typer.Option(None, "--as", metavar="SEAT",
                                          help="Show what this seat (1-based) saw."),
    reveal: bool = typer.Option(False, "--reveal", help="Show everything, hidden items too."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the final board and result."),
    budget: List[str] = budget_option(),
) -> None:
    """Replay a game record: check it, print each move, then the final board and result.
    By default shows what a spectator sees."""
    out = _out()
    try:
        rec = records.load(record_file)
    except records.RecordError as e:
        raise fail(str(e)) from None
    if as_seat is not None and reveal:
        raise fail("use either --as or --reveal, not both", 2)
    prog = _load(rec.ruleset, rec.variants, rec.locale, parse_budgets(budget))
    if not prog.min_players <= rec.players <= prog.max_players:
        raise fail(f"invalid record: {prog.title} is for {prog.min_players} to "
                   f"{prog.max_players} players, the record has {rec.players}")
    if as_seat is not None and not 1 <= as_seat <= rec.players:
        raise fail(f"--as {as_seat}: there is no such seat; the game has seats 1 to "
                   f"{rec.players}", 2)
    seat = "all" if reveal else (as_seat - 1 if as_seat is not None else SPECTATOR)
    who = "everything" if reveal else (
        display.player_name(prog, seat) if as_seat else "a spectator")
    out.print(Text(prog.title, style="bold") + Text(
        f" — {rec.players} players — seed {rec.seed} — {len(rec.moves)} moves — "
        f"as seen by {who}"))
    pending: list = []   # (game before, notation, seat, type) of the move being played

    def flush(after):
        if pending and not quiet:
            before, notation, mover, tc = pending.pop()
            m = before.find_move(notation)
            shown, text = render.describe_move(before, m, tc, seat, after)
            line = Text(f"{display.player_name(prog, mover)}: ", style="cyan")
            line.append(shown)
            line.append(" — ")
            line.append_text(text)
            out.print(line)
        pending.clear()

    def on_move(game, notation):
        flush(game)
        if not quiet:
            try:
                game.find_move(notation)
            except IllegalMove:
                return  # replay reports it
            pending.append((game.copy(), notation, game.active_player, game.R.pending["type"]))

    try:
        game = records.replay(prog, rec, on_move)
    except records.RecordError as e:
        raise fail(f"invalid record: {e}") from None
    except RuleError as e:
        raise fail(f"the replay hits an error in the rules: {e}") from None
    except ValueError as e:
        raise fail(f"invalid record: {e}") from None
    flush(game)
    out.print()
    out.print(render.screen(prog, view(game, seat), seat, log_lines=8))
    out.print()
    if game.over:
        out.print(render.result_table(prog, game.result))
    else:
        nxt = game.active_player
        out.print(f"The game is not over: {display.player_name(prog, nxt)} is to move.",
                  markup=False)


if __name__ == "__main__":  # pragma: no cover
    app()


# ---------------------------------------------------------------- test

from . import proptest  # noqa: E402 - registered last, on the app defined above

proptest.register(app, _out, _err, fail, _resolve)
