"""`meeple test`: play many games down random move sequences (drawn and shrunk by
Hypothesis) and check the ruleset's declared invariants and the generic ones."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..dsl import budgets as dsl_budgets
from . import jsonout
from .batch import backend_errors, check_jobs
from .common import (
    err,
    fail,
    go_native,
    interruptible,
    native_default,
    out,
    progress_bar,
    resolve,
)
from .options import (
    address_option,
    backend_option,
    budget_option,
    jobs_option,
    json_option,
    native_option,
    no_color_option,
    ruleset_argument,
    variant_option,
)

if TYPE_CHECKING:
    from ..interpreter.analysis.invariants import Config

NAME = "test"


def command(
    ruleset: str = ruleset_argument(),
    variant: list[str] = variant_option("Test only this combination of variants (repeatable)."),
    players: int | None = typer.Option(None, "--players", "-p", metavar="N",
                                          help="Test only this number of players."),
    examples: int = typer.Option(100, "--examples", "-n", metavar="N",
                                 help="How many games Hypothesis plays (before shrinking)."),
    seed: int = typer.Option(0, "--seed", "-s", metavar="S", help="Hypothesis's seed."),
    out_file: Path = typer.Option(Path("meeple-test-failure.json"), "--out", "-o", metavar="FILE",
                                  help="Where the minimal failing record is written."),
    check_moves: int | None = typer.Option(
        None, "--check-moves", metavar="N", help="Check each game in full for its first N moves "
        "at most; past them, play it on to its end checking only its bound, a way on, rule "
        "errors and its results (default: every move)."),
    deadline: float | None = typer.Option(
        None, "--deadline", metavar="SECONDS", help="The full checks of each game take SECONDS "
        "at most (wall time); past them, as past --check-moves (default: no limit)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display."),
    jobs: int | None = jobs_option(),
    backend: str = backend_option(),
    address: str | None = address_option(),
    native: bool | None = native_option(),
    budget: list[str] = budget_option(),
    json_out: bool = json_option("the checks and the failure, if any,"),
    no_color: bool = no_color_option(),
) -> None:
    """Check a ruleset's invariants on many random games: the invariants it declares
    (invariant, secret, bound) and those every ruleset gets (the game ends within
    its bound, there is always a way on, no item is created or lost, the state
    round-trips through JSON, the record replays, views hide what is hidden,
    results are defined), and non-interference: varying what a seat (or the
    spectator) may not see (hidden and face-down items, item variables, owner and
    hidden variables, secret choices, where items of dark places lie) changes
    nothing it is shown, neither its view, nor its log, nor its options and their
    texts. A failure is shrunk to a
    short game, printed with the rule's source line, and saved as a record for
    `meeple replay`; exit 1 (also when the games kept secrets and none could be
    varied)."""
    from rich.progress import TextColumn
    from rich.text import Text

    from ..dsl import load as dsl_load
    from ..dsl.errors import MeepleError
    from ..interpreter import RuleError
    from ..interpreter.analysis import parallel
    from ..interpreter.analysis.invariants import (  # only here: start-up
        Config,
        Limits,
        Stats,
        configs,
        explore_shards,
        unchecked,
    )
    from ..interpreter.play import record as records
    jout = jsonout.begin("test", json_out)
    o, e = out(), err()
    if examples < 1:
        raise fail("--examples must be at least 1", 2)
    limits = _limits(Limits, check_moves, deadline)
    check_jobs(jobs, backend, address)
    problem = records.check_target(out_file, overwrite=True)
    if problem:   # refused before the games, not after them (never onto a device)
        raise fail(f"--out: {problem}", 2)
    try:
        budgets = dsl_budgets.from_settings(budget)
    except ValueError as ex:
        raise fail(f"--budget: {ex}", 2) from None
    path = resolve(ruleset)
    src = dsl_load.read_sources(path, budgets)
    if src.diagnostics:   # the workers rebuild the ruleset from its texts: it must read
        load_problems(e, src, ruleset)
    rules = parallel.Rules.from_sources(src, budgets, native=native_default() if native is None else native,
                                        kernel_only=native is None)

    def load(c: Config):
        return rules.ruleset(c.variants, c.locale)

    try:
        base = load(Config(0, tuple(variant)))
        if players is not None and not base.min_players <= players <= base.max_players:
            raise fail(f"{base.title} is for {base.min_players} to {base.max_players} players", 2)
        cfgs = configs(src, load, variant or None, players)
        for c in cfgs if rules.native else ():   # built here, with progress: the workers find them
            go_native(load(c), native, c.players, quiet)
    except MeepleError as ex:
        e.print(ex.render(), markup=False, soft_wrap=True)
        if {d.code for d in ex.diagnostics} <= {"load/unknown-variant", "load/unknown-locale"}:
            raise typer.Exit(2) from None  # a --variant the ruleset does not have: usage
        raise fail(f"the ruleset '{ruleset}' cannot be loaded ({len(ex.diagnostics)} problem(s))") from None
    except RuleError as ex:
        raise fail(f"the ruleset '{ruleset}' cannot be loaded: {ex}") from None

    declared = base.checked
    if not jout.on:
        o.print(Text(f"{base.title}: ", style="bold") + Text(
            f"{len(declared.invariants)} declared invariant(s), {len(declared.secrets)} secret "
            f"zone(s), bound {_bound(base)}; {len(cfgs)} configuration(s): "
            f"{', '.join(str(c) for c in cfgs[:4])}{' ...' if len(cfgs) > 4 else ''}"),
            soft_wrap=True)
    stats = Stats()
    progress = progress_bar("{task.description}", TextColumn("{task.fields[states]} states"),
                            TextColumn("{task.fields[now]}"), quiet=quiet)
    with interruptible(), progress:
        task = progress.add_task("games", total=examples, states=0, now="")

        def tick(live):
            progress.update(task, completed=min(live.games + live.failures, examples),
                            states=live.states, now=_under_way(live),
                            description="shrinking" if live.failures else "games")
        with backend_errors():
            failure = explore_shards(rules, cfgs, examples, seed, stats, tick, jobs,
                                     backend, address, limits)
    doc = {"ok": failure is None, "ruleset": ruleset, "title": base.title,
           "invariants": len(declared.invariants), "secrets": len(declared.secrets),
           "bound": _bound_json(base), "configurations": [_config_json(c) for c in cfgs],
           "examples": examples, "seed": seed, "games": stats.games, "states": stats.states,
           "turn_end_checks": stats.moments.get("at turn end", 0),
           "exchanges": stats.probes, "exchanges_by_kind": _by_kind(stats.kinds),
           "secrets_found": _by_kind(stats.found), "endless_games": stats.endless,
           "endless_cycles": stats.cycles, "check_moves": check_moves, "deadline": deadline,
           "light_moves": stats.light, "cut_short": [_cut_json(c) for c in stats.cuts],
           "failure": None}
    if failure is None and unchecked(stats) is not None:
        return _unchecked(e, jout, doc, unchecked(stats))
    if failure is None:
        if jout.on:
            jout.emit(doc)
            return
        _print_ok(o, stats, base, limits)
        return
    failure.ruleset_ref = _ref(ruleset, path)
    saved = _report(e, failure, src.sources, out_file, load(failure.config))
    doc["failure"] = _failure_json(failure, saved)
    jout.emit(doc)
    raise typer.Exit(1)


def _limits(make, check_moves: int | None, deadline: float | None):
    """The limits of each game's full checks (``Limits``), checked: exit 2 if bad."""
    if check_moves is not None and check_moves < 0:
        raise fail("--check-moves must be at least 0", 2)
    if deadline is not None and not deadline > 0:   # (also nan)
        raise fail("--deadline must be more than 0 seconds", 2)
    return make(check_moves, deadline)


def _print_ok(o, stats, base, limits) -> None:
    """The report of a run where every check held."""
    from rich.text import Text
    o.print(Text("ok ", style="bold green") + Text(
        f"{stats.games} games, {stats.states} states checked; every invariant held "
        f"(turn ends checked {stats.moments.get('at turn end', 0)} times); "
        f"{_leaks_text(stats, base.hidden_information)}"))
    if base.checked.endless:
        o.print(f"  {_endless(stats)}", soft_wrap=True, markup=False)
    _print_cuts(o, stats.cuts, limits)


def _under_way(live) -> str:
    """The progress bar's word on the longest game under way (and the moves played past
    a limit), while games are long enough for it to matter."""
    parts = [f"a game at move {live.moves:,}"] if live.moves >= 100 else []
    if live.light:
        parts.append(f"{live.light:,} moves past a limit")
    return "".join(f"· {p} " for p in parts).rstrip()


CUTS_SHOWN = 5   # the games cut short that the report names (--json lists them all)


def _print_cuts(o, cuts: list, limits) -> None:
    """The games whose full checks a limit (--check-moves, --deadline) cut short."""
    if not cuts:
        return
    n = len(cuts)
    o.print(f"  {n} game{'s' if n != 1 else ''} cut short by a limit: checked in full up to it, "
            f"then played to {'their' if n != 1 else 'its'} end checking only the bound, a way "
            f"on, rule errors and the results:", soft_wrap=True, markup=False)
    for c in cuts[:CUTS_SHOWN]:
        limit = f"--check-moves {limits.moves}" if c.limit == "check_moves" else \
            f"--deadline {limits.seconds:g} s"
        o.print(f"    game {c.example} ({c.config}, seed {c.seed}): {c.checked:,} of its "
                f"{c.moves:,} moves checked in full ({limit})", soft_wrap=True, markup=False)
    if n > CUTS_SHOWN:
        o.print(f"    ... and {n - CUTS_SHOWN} more (--json lists them all)", soft_wrap=True,
                markup=False)


def _cut_json(c) -> dict:
    return {"example": c.example, "configuration": _config_json(c.config), "seed": c.seed,
            "checked_moves": c.checked, "moves": c.moves, "limit": c.limit}


def _by_kind(counts: dict) -> dict:
    """Counts by kind of secret (views.SECRET_KINDS), keyed as in the JSON output."""
    from ..interpreter.play.views import SECRET_KINDS
    return {kind.replace(" ", "_").replace("-", "_"): counts.get(kind, 0) for kind in SECRET_KINDS}


def _leaks_text(stats, hidden: bool) -> str:
    """What the leak check did: the exchanges by kind of secret (a kind found in the
    games and never varied shows 0)."""
    from ..interpreter.play.views import SECRET_KINDS
    if not stats.probes:
        return "no leak: nothing is hidden" if not hidden else \
            "no leak: the states probed hid nothing that could differ, so nothing was exchanged"
    kinds = ", ".join(f"{kind} {stats.kinds.get(kind, 0)}" for kind in SECRET_KINDS
                      if stats.kinds.get(kind) or stats.found.get(kind))
    return f"no leak in {stats.probes} exchanges ({kinds})"


def _unchecked(e, jout, doc: dict, failure) -> None:
    """Secrets found, none varied: a failure without a game (exit 1)."""
    from rich.text import Text
    e.print(Text("FAILED ", style="bold red") + Text(f"{failure.check}: {failure.message}"), soft_wrap=True)
    doc["ok"] = False
    doc["failure"] = {"check": failure.check, "message": failure.message, "file": None, "line": None,
                      "column": None, "configuration": None, "seed": None, "moves": [], "record": None,
                      "cycle": None}
    jout.emit(doc)
    raise typer.Exit(1)


def load_problems(e, src, ruleset: str):
    """A ruleset whose files cannot be read or parsed: its diagnostics, exit 1."""
    from ..dsl.errors import MeepleError
    ex = MeepleError(src.diagnostics, src.sources)
    e.print(ex.render(), markup=False, soft_wrap=True)
    raise fail(f"the ruleset '{ruleset}' cannot be loaded ({len(ex.diagnostics)} problem(s))")


def _config_json(c: Config) -> dict:
    return {"players": c.players, "variants": list(c.variants), "locale": c.locale}


def _bound_json(ruleset) -> dict:
    from ..interpreter.analysis.invariants import DEFAULT_BOUND
    count, unit = ruleset.checked.bound or DEFAULT_BOUND
    return {"count": count, "unit": unit, "default": not ruleset.checked.bound,
            "endless": ruleset.checked.endless}


def _endless(stats) -> str:
    """How many games a bound declared ``or endless`` stopped."""
    n = stats.endless
    text = (f"{n} game{'s' if n != 1 else ''} did not end within the bound, which says "
            f"'or endless': not a failure")
    if stats.cycles:
        text += (f"; {stats.cycles} stopped before the bound, going round in circles (played "
                 f"by first moves, {'it' if stats.cycles == 1 else 'they'} would never end)")
    return text


def _failure_json(failure, saved: Path | None) -> dict:
    span = failure.span if failure.span is not None and failure.span.line else None
    cycle = failure.cycle
    return {"check": failure.check, "message": failure.message,
            "file": span.file if span else None, "line": span.line if span else None,
            "column": span.column if span else None,
            "configuration": _config_json(failure.config), "seed": failure.seed,
            "moves": list(failure.moves), "record": str(saved) if saved else None,
            "cycle": {"start": cycle.start, "length": cycle.length} if cycle else None}


def _bound(ruleset) -> str:
    from ..interpreter.analysis.invariants import DEFAULT_BOUND
    count, unit = ruleset.checked.bound or DEFAULT_BOUND
    return f"{count} {unit}" + ("" if ruleset.checked.bound else " (default)") \
        + (" or endless" if ruleset.checked.endless else "")


def _ref(ruleset: str, path: Path) -> str:
    from ..dsl import load as dsl_load
    return ruleset if dsl_load.resolve(ruleset).bundled else str(path.resolve())


def _shown_path(path: str) -> str:
    """A path as short as it can be written from the current folder."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _print_cycle(e, moves: list[str], cycle) -> None:
    """The moves up to a cycle (the last 12), then the cycle's (at most 60)."""
    before, round_ = moves[:cycle.start], moves[cycle.start:cycle.end]
    if before:
        more = "... / " if len(before) > 12 else ""
        e.print(f"  moves: {more}{' / '.join(before[-12:])}", soft_wrap=True, markup=False)
    rest = f" / ... ({len(round_) - 60} more)" if len(round_) > 60 else ""
    e.print(f"  then, again and again: {' / '.join(round_[:60])}{rest}", soft_wrap=True,
            markup=False)


def _report(e, failure, sources, out_file: Path, program) -> Path | None:
    """Prints the failure on stderr and saves its game; returns the file (None if it
    could not be saved)."""
    from rich.text import Text

    from ..dsl import load as dsl_load
    from ..dsl.errors import Diagnostic
    from ..interpreter import RuleError
    from ..interpreter.play import record as records
    c = failure.config
    e.print(Text("FAILED ", style="bold red") + Text(f"{failure.check}: {failure.message}"),
            soft_wrap=True)
    if failure.span is not None and failure.span.line:
        d = Diagnostic("test/failed", failure.span, failure.where_said())
        e.print(d.render(sources), markup=False, soft_wrap=True)
    e.print(f"  game: {c}, seed {failure.seed}, {len(failure.moves)} move(s) after shrinking",
            soft_wrap=True, markup=False)
    if failure.cycle is not None:
        _print_cycle(e, failure.moves, failure.cycle)
    elif failure.moves:
        shown = " / ".join(failure.moves[-12:])
        more = "... / " if len(failure.moves) > 12 else ""
        e.print(f"  moves: {more}{shown}", soft_wrap=True, markup=False)
    rec = failure.record()
    try:
        records.complete(rec, program)
    except (records.RecordError, RuleError):
        rec.secrets = program.hidden_information  # saved all the same, without digests
    rec.note = records.describe(rec, out_file, rec.result is not None)
    try:
        rec.save(out_file)
        again = f"meeple replay {out_file}" + (
            "" if rec.ruleset in dsl_load.bundled_names() else f" --ruleset {_shown_path(rec.ruleset)}")
        e.print(f"  the minimal game is saved in {out_file}: {again}", soft_wrap=True,
                markup=False)
        return out_file
    except records.SaveError as ex:
        e.print(f"  (could not save the record: {ex})", markup=False, soft_wrap=True)
        return None
