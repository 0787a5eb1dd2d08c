"""A ruleset's sources (parsed, or their texts alone) merged with its variants and
locale, checked and compiled: ``compile_sources``, which ``meeple.interpreter``
exports (its ``load`` reads the files and the disk cache first)."""
from __future__ import annotations

from ...dsl import ast as _ir
from ...dsl.budgets import Budgets, check as _check_budgets
from ...dsl.check import check
from ...dsl.errors import Diagnostic, Diagnostics, MeepleError
from ...dsl.load import merge
from ...dsl.settings import SettingError
from .compile import Ruleset


def compile_sources(src, variants=(), locale: str | None = None,
                    budgets: Budgets | None = None) -> Ruleset:
    budgets = _check_budgets(budgets)
    if src.base is None and not src.diagnostics and src.sources:
        # the texts alone (``ruleset.sources`` of a ruleset loaded from the disk cache,
        # which keeps its files' texts unparsed): parse them now
        src = _parsed(src, budgets)
    if src.diagnostics:
        raise MeepleError(src.diagnostics, src.sources)
    try:
        return _compile(src, variants, locale, budgets)
    except SettingError:   # the environment, not the ruleset (dsl/settings.py)
        raise
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


def _parsed(src, budgets: Budgets):
    from ...dsl.load import SourceSet, add_text
    out = SourceSet()
    for name, text in src.sources.items():
        add_text(out, name, text, budgets)
    return out


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
