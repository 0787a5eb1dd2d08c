"""The Meeple interpreter: compile a ruleset once, then play games from it.

    program = interpreter.load("rulesets/my-game", variants=["a_variant"], locale="nl")
    game = program.new_game(players=3, seed=7)
    while not game.over:
        game.apply(game.legal_moves()[0])
"""
from __future__ import annotations

from ..dsl import ast as _ir
from ..dsl.budgets import Budgets
from ..dsl.budgets import check as _check_budgets
from ..dsl.check import check
from ..dsl.errors import Diagnostic, Diagnostics, MeepleError
from ..dsl.load import merge, read_sources, resolve_path

from .bots import BotSpecError, bot_move, bot_seed, make_bot, parse_spec
from .compile import Program, Ruleset
from .determinize import determinize
from .helpers import BudgetError, RuleError
from .perft import divide, histories, perft
from .runtime import Decision, Game, IllegalMove, Move, NothingToUndo, Outcome
from .state import StateError

__all__ = ["load", "compile_sources", "Program", "Game", "Move", "IllegalMove", "RuleError",
           "BudgetError", "MeepleError", "Ruleset", "StateError", "bot_seed", "Budgets",
           "perft", "divide", "histories", "make_bot", "bot_move", "parse_spec", "BotSpecError", "determinize", "Outcome", "NothingToUndo", "Decision"]


def load(ruleset: str, variants=(), locale: str | None = None, budgets: Budgets | None = None) -> Ruleset:
    """Loads, checks and compiles a ruleset (a bundled name or a path). Raises
    MeepleError with every diagnostic when it has problems. ``budgets`` raises (or
    lowers) the limits on loading and running it (see ``Budgets``)."""
    budgets = _check_budgets(budgets)
    src = read_sources(resolve_path(ruleset), budgets)
    return compile_sources(src, variants, locale, budgets)


def compile_sources(src, variants=(), locale: str | None = None,
                    budgets: Budgets | None = None) -> Ruleset:
    budgets = _check_budgets(budgets)
    if src.diagnostics:
        raise MeepleError(src.diagnostics, src.sources)
    try:
        return _compile(src, variants, locale, budgets)
    except (MeepleError, ValueError, TypeError) as e:
        if isinstance(e, MeepleError):
            if not e.sources:
                e.sources.update(src.sources)
                e.args = (e.render(),)
            raise
        raise _internal(src, e) from None
    except RecursionError:
        raise MeepleError([Diagnostic("load/budget", _where(src), "the ruleset is nested too deeply to check",
                                      "lower the 'nesting' budget")], src.sources) from None
    except Exception as e:  # noqa: BLE001 - a safety net: loading raises only MeepleError
        raise _internal(src, e) from None


def _where(src) -> _ir.Span:
    f = src.base.span.file if src.base is not None else next(iter(src.sources), "<string>")
    return _ir.Span(file=f, line=1, column=1)


def _internal(src, e: Exception) -> MeepleError:
    return MeepleError([Diagnostic("load/internal", _where(src),
                                   f"Meeple failed on this ruleset: {type(e).__name__}: {e}",
                                   "this is a bug in Meeple; please report it with the ruleset")],
                       src.sources)


def _compile(src, variants, locale, budgets: Budgets) -> Ruleset:
    diags = Diagnostics()
    merged = merge(src, list(variants), locale, diags)
    checked, diags = check(merged, diags)
    if diags:
        raise MeepleError(diags.errors(), src.sources)
    ruleset = Ruleset(checked, src, [d for d in diags.items if d.severity == "warning"], budgets)
    # compile for every player count now, so that a problem in a board, deck or relation
    # (they may depend on the number of players) is reported when the ruleset is loaded
    problems, seen = [], set()
    counts = range(ruleset.min_players, ruleset.max_players + 1)
    if len(counts) > 8:
        counts = [ruleset.min_players, ruleset.max_players]
    for n in counts:
        try:
            ruleset.for_players(n)
        except MeepleError as e:
            for d in e.diagnostics:
                key = (d.code, d.span.file, d.span.line, d.span.column)
                if key not in seen:
                    seen.add(key)
                    problems.append(d)
    if problems:
        raise MeepleError(problems, src.sources)
    return ruleset
