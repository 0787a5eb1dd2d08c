"""The Meeple interpreter: compile a ruleset once, then play games from it.

    program = interpreter.load("cherokee", variants=["open_clans"], locale="nl")
    game = program.new_game(players=3, seed=7)
    while not game.over:
        game.apply(game.legal_moves()[0])
"""
from __future__ import annotations

from dsl.check import check
from dsl.errors import Diagnostics, MeepleError
from dsl.load import merge, read_sources, resolve_path

from .compile import Program
from .helpers import BudgetError, RuleError
from .runtime import Game, IllegalMove, Move

__all__ = ["load", "compile_sources", "Program", "Game", "Move", "IllegalMove", "RuleError",
           "BudgetError", "MeepleError"]


def load(ruleset: str, variants=(), locale: str | None = None) -> Program:
    """Loads, checks and compiles a ruleset (a bundled name or a path). Raises
    MeepleError with every diagnostic when it has problems."""
    src = read_sources(resolve_path(ruleset))
    return compile_sources(src, variants, locale)


def compile_sources(src, variants=(), locale: str | None = None) -> Program:
    if src.diagnostics:
        raise MeepleError(src.diagnostics, src.sources)
    diags = Diagnostics()
    merged = merge(src, list(variants), locale, diags)
    checked, diags = check(merged, diags)
    if diags:
        raise MeepleError(diags.errors(), src.sources)
    prog = Program(checked)
    prog.sources = src
    prog.warnings = [d for d in diags.items if d.severity == "warning"]
    return prog
