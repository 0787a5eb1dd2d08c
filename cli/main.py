"""The ``meeple`` command: validate rulesets, play them in the terminal (hot seat, with
bots), simulate many games with bots, and replay game records."""
from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import List, Optional

import typer
import typer.exceptions
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from .. import interpreter
from ..dsl import budgets as dsl_budgets
from ..dsl import load as dsl_load
from ..dsl.errors import MeepleError
from ..interpreter import IllegalMove, RuleError, display
from ..interpreter import record as records
from ..interpreter.bots import BOTS, bot_seed
from ..interpreter.views import SPECTATOR, view

from . import render
from .layout import LAYOUTS, fit_screen, height
from .play import HUMAN, Done, PlaySession

app = typer.Typer(
    name="meeple",
    help="Meeple: validate, play, simulate and replay games written in the Meeple rules language.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _out() -> Console:
    # no markup, no emoji codes, control characters escaped: text from rulesets and
    # users is printed literally (render.console)
    return render.console()


def _err() -> Console:
    return render.console(stderr=True)


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
               "steps=1000000. Budgets: " + ", ".join(dsl_budgets.NAMES) + " (see docs/trust.md).")


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
    return _compile(_resolve(ruleset), ruleset, variants, locale, budgets)


def _compile(path: Path, ruleset: str, variants: list[str], locale: Optional[str],
             budgets: Optional[interpreter.Budgets] = None):
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
    if layout not in LAYOUTS:
        raise fail(f"--layout {layout}: choose one of {', '.join(LAYOUTS)}", 2)


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
    ruleset: Optional[str] = typer.Argument(None, metavar="RULESET", show_default=False,
                                            help="A bundled ruleset name (see meeple list) or "
                                                 "a path (with --resume: the record's ruleset)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: List[str] = typer.Option([], "--variant", "-v", metavar="NAME",
                                      help="A variant to play (repeatable)."),
    locale: Optional[str] = typer.Option(None, "--locale", "-l", metavar="NAME",
                                         help="A locale, e.g. de."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", metavar="S",
                                       help="Random seed: the same seed, the same game (default: 64 "
                                            "random bits from the operating system, shown "
                                            "when the game is over)."),
    bot: List[str] = typer.Option([], "--bot", "-b", metavar="SEAT=BOT",
                                  help="SEAT=BOT: a computer player for a seat (1-based), e.g. "
                                       "2=random (repeatable). Bots: " + ", ".join(sorted(BOTS))),
    record: Optional[Path] = typer.Option(None, "--record", "-r", metavar="FILE",
                                          help="Save the game record here at the end or on quit "
                                               "(checked before the first move)."),
    force: bool = typer.Option(False, "--force", help="Let --record overwrite an existing file."),
    resume: Optional[Path] = typer.Option(None, "--resume", metavar="RECORD",
                                          help="Continue the unfinished game of this record "
                                               "(saved back to it)."),
    ruleset_path: Optional[str] = typer.Option(None, "--ruleset", metavar="PATH",
                                               help="With --resume: the ruleset, when the "
                                                    "record's is not a bundled one."),
    budget: List[str] = budget_option(),
    layout: str = layout_option(),
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
    if record is not None:
        problem = records.check_target(record, force)
        if problem:
            raise fail(f"--record: {problem}", 2)
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
    bots = {s: BOTS[name](bot_seed(seed, 0, s)) for s, name in bot_names.items()}
    try:
        game = prog.new_game(n, seed)
    except RuleError as e:
        raise fail(f"the game cannot start: {e}") from None
    title = prog.title
    if prog.variants:
        title += " + " + ", ".join(prog.checked.variant_titles.get(v, v) for v in prog.variants)
    out.print(render.safe_text(title, style="bold") + Text(
        f" — {n} players" + (f" — seed {seed}" if chosen else "")
        + (f" — locale {prog.locale}" if prog.locale else "")))
    for s in range(n):
        out.print(render.safe_text(f"  {display.player_name(prog, s)}: {seats[s]}"))
    rec = records.Record(_record_name(ruleset), n, seed, list(variant), locale, [], seats)
    # named by the time, not the seed (a random seed would give the hidden cards away);
    # never over another file (see PlaySession.stop)
    quit_path = Path.cwd() / f"meeple-{prog.name}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    session = PlaySession(out, game, seats, bots, rec, record, quit_path, layout)
    code = session.run()
    if code:
        raise typer.Exit(code)


def _resume(out: Console, path: Path, ruleset: Optional[str], budgets=None,
            layout: str = "auto") -> int:
    """Continues the unfinished game of a record; saving goes back to the same file."""
    rec = _read_record(path)
    problem = records.check_target(path, overwrite=True)
    if problem:
        raise fail(f"--resume: {problem}", 2)
    prog = _record_ruleset(rec, ruleset, budgets)
    seats = list(rec.seats or [HUMAN] * rec.players)
    for s, kind in enumerate(seats):
        if kind != HUMAN and kind not in BOTS:
            raise fail(f"invalid record: seat {s + 1} was played by '{records.printable(kind)}', "
                       f"which is neither a human nor a bot ({', '.join(sorted(BOTS))})")
    history: list = []

    def on_move(game, notation):
        history.append(Done(game.active_player, notation, game.copy()))

    game = _replay_record(prog, rec, on_move)
    if game.over:
        raise fail(f"the game in {path} is over; replay it with 'meeple replay {path}'")
    if prog.hidden_information and seats.count(HUMAN) > 1 and not out.is_terminal:
        raise fail(HOT_SEAT_NOT_A_TERMINAL.format(
            title=prog.title, bots=" ".join(f"--bot {s + 1}=random"
                                            for s in range(1, rec.players))), 2)
    _stdin_keeps_bad_bytes()
    # game index = moves made so far: a resumed bot does not repeat its first game's choices
    bots = {s: BOTS[kind](bot_seed(rec.seed, len(rec.moves), s))
            for s, kind in enumerate(seats) if kind != HUMAN}
    out.print(render.safe_text(prog.title, style="bold") + Text(
        f" — {rec.players} players — resumed after {len(rec.moves)} "
        f"move{'' if len(rec.moves) == 1 else 's'}"))
    for s in range(rec.players):
        out.print(render.safe_text(f"  {display.player_name(prog, s)}: {seats[s]}"))
    rec.seats = seats
    session = PlaySession(out, game, seats, bots, rec, path, path, layout)
    session.history = history
    return session.run()


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
    records_dir: Optional[Path] = typer.Option(None, "--records", metavar="DIR",
                                               help="Save the record of every game in this "
                                                    "folder (created if needed)."),
    failed_only: bool = typer.Option(False, "--failed-only",
                                     help="With --records: save only the game that fails."),
    force: bool = typer.Option(False, "--force", help="Let --records overwrite existing files."),
    budget: List[str] = budget_option(),
) -> None:
    """Play many games with bots and show statistics: wins per seat, game length,
    moves per turn and speed."""
    out = _out()
    if games < 1:
        raise fail("--games must be at least 1", 2)
    _check_seed(seed, seed + games - 1)
    if failed_only and records_dir is None:
        raise fail("--failed-only goes with --records DIR", 2)
    prog = _load(ruleset, variant, locale, parse_budgets(budget))
    n = _players(prog, players)
    bot_cls = _bot_class(bot)
    keep = _Keeper(records_dir, prog, _record_name(ruleset), n, list(variant), locale, bot,
                   failed_only, force, seed, games) if records_dir is not None else None
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
            bots = [bot_cls(bot_seed(seed, i, s)) for s in range(n)]
            played: list = []   # (notation, digest) of each move, when records are kept
            game = None
            try:
                game = prog.new_game(n, gseed)
                moves = 0
                while not game.over:
                    if moves >= max_moves:
                        raise RuleError(f"the game did not end after {max_moves} moves")
                    seat = game.active_player
                    legal = game.legal_moves()
                    m = game.apply(legal[bots[seat].choose(LazyView(game, seat),
                                                           [x.notation for x in legal])])
                    if keep is not None:
                        played.append((m.notation, records.short_digest(game)))
                    moves += 1
            except (RuleError, IllegalMove) as e:
                progress.stop()
                saved = keep.save(gseed, game, played, failed=str(e)) if keep and game else ""
                raise fail(f"game {i + 1} (seed {gseed}): {e}{saved}") from None
            if keep is not None and not failed_only:
                keep.save(gseed, game, played)
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
    out.print(render.safe_text(title, style="bold") + Text(f" — {games} games, {n} players, {bot} bots, "
                                               f"seeds {seed}..{seed + games - 1}"))
    t = Table(header_style="bold")
    t.add_column("Seat")
    t.add_column("Wins", justify="right")
    t.add_column("Win %", justify="right")
    for s in range(n):
        t.add_row(render.safe_text(display.player_name(prog, s)), str(wins[s]),
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


class _Keeper:
    """Saves the records of simulated games (``--records DIR``), each as play saves one."""

    def __init__(self, folder: Path, prog, ruleset: str, n: int, variants: list, locale,
                 bot: str, failed_only: bool, force: bool, seed: int, games: int):
        self.folder, self.prog, self.ruleset, self.n = folder, prog, ruleset, n
        self.variants, self.locale, self.bot = variants, locale, bot
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

    def save(self, gseed: int, game, played: list, failed: str | None = None) -> str:
        rec = records.Record(self.ruleset, self.n, gseed, self.variants, self.locale,
                             [m for m, _ in played], [self.bot] * self.n,
                             game.result if game.over else None, records.digest(game),
                             [d for _, d in played], self.rdigest, self.secrets)
        path = self.path(gseed)
        rec.note = records.describe(rec, path, True) + (
            f" The next move failed: {failed}" if failed else "")
        rec.note = rec.note.strip()[: records.MAX_NAME]
        try:
            rec.save(path)
        except records.SaveError as e:
            raise fail(str(e)) from None
        return f" (its record: {path})"


# ---------------------------------------------------------------- replay

def _read_record(path: Path) -> records.Record:
    try:
        return records.load(path)
    except records.RecordError as e:
        raise fail(str(e)) from None


def _record_ruleset(rec: records.Record, explicit: Optional[str], budgets=None):
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
    prog = _compile(path, label, rec.variants, rec.locale, budgets)
    recorded, now = rec.ruleset_digest, records.ruleset_digest(prog)
    if recorded and now and recorded != now:
        _err().print(Text("warning: ", style="bold yellow") + Text(
            f"the ruleset {label} differs from the one the record was played with; the "
            f"replay stops at the first move whose state differs"), soft_wrap=True)
    elif not rec.digests and rec.moves:
        _err().print(Text("warning: ", style="bold yellow") + Text(
            "this record has no per-move digests (an older format): a diverging replay is "
            "found only at its end, if at all"), soft_wrap=True)
    return prog


def _replay_record(prog, rec: records.Record, on_move=None):
    try:
        return records.replay(prog, rec, on_move)
    except records.RecordError as e:
        raise fail(f"invalid record: {e}") from None
    except RuleError as e:
        raise fail(f"the replay hits an error in the rules: {e}") from None


@app.command()
def replay(
    record_file: Path = typer.Argument(..., metavar="RECORD", help="A game record (JSON).",
                                       show_default=False),
    as_seat: Optional[int] = typer.Option(None, "--as", metavar="SEAT",
                                          help="Show what this seat (1-based) saw."),
    reveal: bool = typer.Option(False, "--reveal",
                                help="Show everything, hidden items too (a finished game; "
                                     "add --unfinished for one still in play)."),
    unfinished: bool = typer.Option(False, "--unfinished",
                                    help="With --reveal: show everything even though the game "
                                         "is not over (this gives its secrets away)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", metavar="PATH",
                                          help="The ruleset to replay with (needed when the "
                                               "record's is not a bundled one)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the final board and result."),
    budget: List[str] = budget_option(),
    layout: str = layout_option(),
) -> None:
    """Replay a game record: check it, print each move, then the final board and result.
    By default shows what a spectator sees."""
    out = _out()
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

    def on_move(game, notation):
        if not quiet:
            played.append((game.copy(), notation, game.active_player, game.R.pending["type"]))

    game = _replay_record(prog, rec, on_move)
    if reveal and not game.over and not unfinished:
        raise fail("the game is not over: --reveal would show the hidden information of a game "
                   "still in play; add --unfinished to show it all the same", 2)
    seat = "all" if reveal else (as_seat - 1 if as_seat is not None else SPECTATOR)
    who = "everything" if reveal else (
        display.player_name(prog, seat) if as_seat else "a spectator")
    shown_seed = f" — seed {rec.seed}" if game.over or reveal else ""
    out.print(Text(prog.title, style="bold") + Text(
        f" — {rec.players} players{shown_seed} — {len(rec.moves)} moves — as seen by {who}"))
    for k, (before, notation, mover, tc) in enumerate(played):
        after = played[k + 1][0] if k + 1 < len(played) else game
        m = before.find_move(notation)
        shown, text = render.describe_move(before, m, tc, seat, after)
        line = Text(f"{display.player_name(prog, mover)}: ", style="cyan")
        line.append(shown)
        line.append(" — ")
        line.append_text(text)
        out.print(line)
    out.print()
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
        out.print(f"The game is not over: {display.player_name(prog, nxt)} is to move; "
                  f"continue it with 'meeple play --resume {record_file}'.", markup=False,
                  soft_wrap=True)


class _LiteralStream:
    """A text stream that writes everything through ``render.literal``: click's own
    messages (a bad option value, a missing argument) quote what the user typed."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, s: str) -> int:
        return self._stream.write(render.literal(s))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main() -> None:
    """The ``meeple`` command (see cli/entry.py): the app, with Ctrl-C anywhere exiting
    130 and never a traceback (``play`` saves its record before), and click's usage
    errors printed with the typed values escaped. Exit codes: 0, 1, 2, 130."""
    try:
        code = app(standalone_mode=False)
    except typer.exceptions.TyperException as e:   # click's usage errors: exit 2
        stream = _LiteralStream(sys.stderr)
        if callable(getattr(e, "show", None)):
            e.show(file=stream)
        else:  # pragma: no cover - every such error has show() today
            stream.write(f"error: {e.format_message()}\n")
        code = e.exit_code
    except typer.Abort:
        sys.stderr.write("Aborted!\n")
        code = 1
    except KeyboardInterrupt:
        try:
            sys.stderr.write("\ninterrupted\n")
        except (OSError, ValueError):
            pass
        code = 130
    sys.exit(code if isinstance(code, int) else 0)


# ---------------------------------------------------------------- test

from . import proptest  # noqa: E402 - registered last, on the app defined above

proptest.register(app, _out, _err, fail, _resolve)


if __name__ == "__main__":  # pragma: no cover
    main()
