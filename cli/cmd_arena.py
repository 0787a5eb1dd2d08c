"""`meeple arena`: bots against each other, one per seat, the seats rotated; per bot its
wins, draws and losses, its win rate with a 95% confidence interval and its mean score.
The match itself is ``meeple.interpreter.arena``; this draws it."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

import typer

from . import complete, jsonout
from .batch import check_jobs, failed_game, played_games
from .common import (
    bot_spec,
    check_seed,
    fail,
    go_native,
    interruptible,
    load,
    note,
    out,
    parse_budgets,
    progress_bar,
)
from .options import (
    address_option,
    backend_option,
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

NAME = "arena"


def command(
    ruleset: str = ruleset_argument(),
    bots: list[str] = typer.Argument(..., metavar="BOT BOT [BOT...]", show_default=False,
                                     autocompletion=complete.bots,
                                     help="One bot per seat, as NAME[:KEY=VALUE,...] "
                                          "(see meeple bots); the same bot may be given "
                                          "more than once."),
    games: int = typer.Option(100, "--games", "-n", metavar="N", help="How many games to play."),
    variant: list[str] = variant_option(),
    locale: str | None = locale_option(),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S", help="Game i uses seed S+i."),
    max_moves: int = typer.Option(100_000, "--max-moves", metavar="N",
                                  help="Stop a game that runs longer (an error)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    jobs: int | None = jobs_option(),
    backend: str = backend_option(),
    address: str | None = address_option(),
    native: bool | None = native_option(),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("each bot's results"),
    no_color: bool = no_color_option(),
) -> None:
    """Play bots against each other: one bot per seat (as many bots as players),
    the seats rotated from game to game so that each bot plays each seat as often.
    Prints per bot its games, wins, draws, losses, win rate with a 95% confidence
    interval (Wilson) and mean score, and the mean game length."""
    from ..interpreter import arena as matches
    jout = jsonout.begin("arena", json_out)
    if games < 1:
        raise fail("--games must be at least 1", 2)
    check_seed(seed, seed + games - 1)
    check_jobs(jobs, backend, address)
    specs = [bot_spec(b) for b in bots]
    if len(specs) < 2:
        raise fail("give at least two bots, one per seat", 2)
    prog = load(ruleset, variant, locale, parse_budgets(budget))
    if not prog.min_players <= len(specs) <= prog.max_players:
        raise fail(f"{prog.title} is for {prog.min_players} to {prog.max_players} players: "
                   f"give one bot per seat, not {len(specs)} bots", 2)
    go_native(prog, native, len(specs), quiet)
    if games % len(specs):
        note(f"{games} games is not a multiple of {len(specs)} bots: the last rotation "
             f"is incomplete, so some bots play a seat once more than another")
    plan = matches.schedule(specs, games, seed, max_moves)
    totals = matches.Tally(specs)
    progress = progress_bar("playing", quiet=quiet)
    start = time.perf_counter()
    with interruptible(), progress:
        task = progress.add_task("games", total=games)
        for summary in played_games(prog, plan, jobs, backend, address,
                                    lambda: progress.advance(task)):
            if summary["error"] is not None:
                progress.stop()
                raise failed_game(prog, summary, None, jout)
            totals.add(summary)
    elapsed = time.perf_counter() - start
    doc = {"ok": True, "ruleset": ruleset, "title": prog.title,
           "variants": list(prog.variants), "locale": prog.locale, "players": len(specs),
           "seeds": {"first": seed, "last": seed + games - 1}, **totals.report(),
           "seconds": elapsed}
    if jout.on:
        jout.emit(doc)
    else:
        _print(out(), prog, doc)


def _print(console: Console, prog, doc: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    from . import render
    title = prog.title + "".join(f" + {prog.checked.variant_titles.get(v, v)}"
                                 for v in prog.variants)
    seeds = doc["seeds"]
    rotation = "seats rotated" + ("" if doc["balanced"] else " (the last rotation incomplete)")
    console.print(render.safe_text(title, style="bold") + Text(
        f" — {doc['games']} games, {doc['players']} bots, seeds {seeds['first']}..{seeds['last']}, "
        f"{rotation}"), soft_wrap=True)
    t = Table(header_style="bold")
    for name, justify in (("Bot", "left"), ("Games", "right"), ("Wins", "right"),
                          ("Draws", "right"), ("Losses", "right"), ("Win % (95% CI)", "right"),
                          ("Score", "right")):
        t.add_column(name, justify=justify)
    payoffs = any("mean_payoff" in b for b in doc["bots"])   # only with a payoff declaration
    if payoffs:
        t.add_column("Payoff", justify="right")
    for b in doc["bots"]:
        low, high = b["ci95"]
        t.add_row(render.safe_text(f"{b['bot']}: {b['spec']}"), str(b["games"]), str(b["wins"]),
                  str(b["draws"]), str(b["losses"]),
                  f"{100 * b['win_rate']:.1f}% ({100 * low:.1f}–{100 * high:.1f})",
                  f"{b['mean_score']:.2f}", *([f"{b['mean_payoff']:.2f}"] if payoffs else []))
    console.print(t)
    st = Table(show_header=False, box=None, padding=(0, 2))
    st.add_column(style="bold")
    st.add_column()
    turns = doc["turns"]
    st.add_row("game length (turns)",
               f"mean {turns['mean']:.1f}, min {turns['min']}, max {turns['max']}")
    st.add_row("moves per game", f"{doc['moves'] / doc['games']:.1f}")
    st.add_row("shared wins", str(doc["shared_wins"]))
    st.add_row("seconds per move", ", ".join(
        f"{b['bot']}: {b['seconds_per_move']:.4f}" if b["seconds_per_move"] is not None
        else f"{b['bot']}: -" for b in doc["bots"]))
    console.print(st)
