"""The Meeple interpreter: compile a ruleset once, then play games from it.

    program = interpreter.load("rulesets/my-game", variants=["a_variant"], locale="nl")
    game = program.new_game(players=3, seed=7)
    while not game.over:
        game.apply(game.legal_moves()[0])
"""
from __future__ import annotations

from dsl.check import check
from dsl.errors import Diagnostics, MeepleError
from dsl.load import merge, read_sources, resolve_path

from .bots import bot_seed
from .compile import Program, Ruleset
from .helpers import BudgetError, RuleError
from .runtime import Game, IllegalMove, Move
from .state import StateError

__all__ = ["load", "compile_sources", "Program", "Game", "Move", "IllegalMove", "RuleError",
           "BudgetError", "MeepleError", "Ruleset", "StateError", "bot_seed"]


def load(ruleset: str, variants=(), locale: str | None = None) -> Ruleset:
    """Loads, checks and compiles a ruleset (a bundled name or a path). Raises
    MeepleError with every diagnostic when it has problems."""
    src = read_sources(resolve_path(ruleset))
    return compile_sources(src, variants, locale)


def compile_sources(src, variants=(), locale: str | None = None) -> Ruleset:
    if src.diagnostics:
        raise MeepleError(src.diagnostics, src.sources)
    diags = Diagnostics()
    merged = merge(src, list(variants), locale, diags)
    checked, diags = check(merged, diags)
    if diags:
        raise MeepleError(diags.errors(), src.sources)
    ruleset = Ruleset(checked, src, [d for d in diags.items if d.severity == "warning"])
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
