"""``meeple simulate``: many games with bots, and their statistics (and an HTML balance
report with --report)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import complete, jsonout
from .batch import check_jobs, compact_games, failed_game, played_games
from .common import (
    bot_spec,
    check_seed,
    err,
    fail,
    go_native,
    interruptible,
    load,
    out,
    parse_budgets,
    players as player_count,
    progress_bar,
    record_name,
)
from .i18n import language, tr
from .options import (
    address_option,
    backend_option,
    bot_names,
    budget_option,
    jobs_option,
    json_option,
    locale_option,
    native_option,
    no_color_option,
    ruleset_argument,
    variant_option,
)

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads neither
    # the interpreter nor rich)
    from rich.console import Console

NAME = "simulate"


def command(
    ruleset: str = ruleset_argument(),
    games: int = typer.Option(100, "--games", "-n", metavar="N", help="How many games to play."),
    players: int | None = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Number of players (default: the ruleset's "
                                               "minimum, at least 2)."),
    variant: list[str] = variant_option(),
    locale: str | None = locale_option(),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S", help="Game i uses seed S+i."),
    bot: str = typer.Option("random", "--bot", "-b", metavar="BOT",
                            autocompletion=complete.bots,
                            help="The bot for every seat, NAME[:KEY=VALUE,...]: "
                                 + bot_names() + " (see meeple bots)"),
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
    native: bool | None = native_option(),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("the statistics"),
    report: Path | None = typer.Option(None, "--report", metavar="FILE.html",
                                          help="Also write a balance report (charts and "
                                               "tables) to this HTML file."),
    no_color: bool = no_color_option(),
) -> None:
    """Play many games with bots and show statistics: wins per seat, game length,
    moves per turn and speed."""
    from ..interpreter.analysis import simulation, stats as balance_stats
    jout = jsonout.begin("simulate", json_out)
    if games < 1:
        raise fail("--games must be at least 1", 2)
    if report is not None:
        _check_report_path(report)
    check_seed(seed, seed + games - 1)
    if failed_only and records_dir is None:
        raise fail("--failed-only goes with --records DIR", 2)
    check_jobs(jobs, backend, address)
    spec = bot_spec(bot)
    prog = load(ruleset, variant, locale, parse_budgets(budget))
    lang = language(prog)
    n = player_count(prog, players)
    go_native(prog, native, n, quiet)
    keep = _Keeper(records_dir, prog, record_name(ruleset), n, list(variant), locale,
                   failed_only, force, seed, games) if records_dir is not None else None
    # random bots on a kernel: the games in batches of numbers (no dict per game)
    whole = simulation.random_in_kernel(prog, n, spec) if keep is None and backend == "local" else None
    totals = simulation.Tally(n)
    balance = balance_stats.Balance(n)
    progress = progress_bar(tr(lang, "simulating"), quiet=quiet)
    start = time.perf_counter()
    with interruptible(), progress:
        task = progress.add_task("games", total=games)
        if whole is not None:
            for first, batch in compact_games(whole, games, seed, max_moves, jobs,
                                              lambda k: progress.advance(task, k)):
                if batch.errors:
                    progress.stop()
                    i = min(batch.errors)
                    raise failed_game(prog, {"error": batch.errors[i], "game": first + i,
                                             "seed": seed + first + i}, None, jout)
                totals.add_compact(batch)
                balance.add_compact(batch)
        else:
            plan = simulation.specs(n, lambda i: [spec] * n, games, seed, max_moves,
                                    keep_moves=keep is not None)
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
        _print_simulation(out(), prog, stats, lang)


def _check_report_path(path: Path) -> None:
    from . import report as html_report  # only when a report is asked for
    try:
        html_report.check_path(path)
    except html_report.ReportError as e:
        raise fail(str(e), 2) from None


def _write_report(path: Path, stats: dict) -> None:
    """simulate --report: the HTML balance report (charts need matplotlib: without it,
    the tables and a warning saying how to get them)."""
    from rich.text import Text

    from . import render, report as html_report
    text, charts = html_report.render(stats, stats["balance"], path)
    try:
        html_report.write(path, text)
    except OSError as e:
        raise fail(f"cannot write the report {path}: {e.strerror or e}") from None
    if not charts:
        err().print(Text("warning: ", style="bold yellow") + render.safe_text(
            f"the report has no charts: matplotlib is not installed (install it with: "
            f"{html_report.INSTALL})"), soft_wrap=True)
    err().print(render.safe_text(f"report written to {path}"), soft_wrap=True)


def _print_simulation(console: Console, prog, stats: dict, lang: str | None) -> None:
    from rich.table import Table
    from rich.text import Text

    from . import render
    from .render import seat_label
    title = prog.title + "".join(f" + {prog.checked.variant_titles.get(v, v)}"
                                 for v in prog.variants)
    seeds = stats["seeds"]
    console.print(render.safe_text(title, style="bold") + Text(
        " — " + tr(lang, "{n} games", n=stats["games"]) + ", "
        + tr(lang, "{n} players", n=stats["players"]) + ", " + seat_label(lang, stats["bot"]) + ", "
        + tr(lang, "seeds {first}..{last}", first=seeds["first"], last=seeds["last"])))
    t = Table(header_style="bold")
    t.add_column(tr(lang, "Seat"))
    t.add_column(tr(lang, "Wins"), justify="right")
    t.add_column(tr(lang, "Draws"), justify="right")
    t.add_column(tr(lang, "Losses"), justify="right")
    t.add_column(tr(lang, "Win %"), justify="right")
    payoffs = "mean_payoff" in stats["seats"][0]   # only when the ruleset declares a payoff
    if payoffs:
        t.add_column(tr(lang, "Mean payoff"), justify="right")
    for s in stats["seats"]:
        t.add_row(render.safe_text(s["player"]), str(s["wins"]), str(s["draws"]), str(s["losses"]),
                  f"{100 * s['win_rate']:.1f}%", *([f"{s['mean_payoff']:.2f}"] if payoffs else []))
    console.print(t)
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
    console.print(st)


class _Keeper:
    """Saves the records of simulated games (``--records DIR``), each as play saves one."""

    def __init__(self, folder: Path, prog, ruleset: str, n: int, variants: list, locale,
                 failed_only: bool, force: bool, seed: int, games: int):
        from ..interpreter.play import record as records
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
        from ..interpreter.play import record as records
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
