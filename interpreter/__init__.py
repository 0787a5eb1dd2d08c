"""The Meeple interpreter: compile a ruleset once, then play games from it.

    program = interpreter.load("rulesets/my-game", variants=["a_variant"], locale="nl")
    game = program.new_game(players=3, seed=7)
    while not game.over:
        game.apply(game.legal_moves()[0])
"""
from __future__ import annotations

from pathlib import Path

from ..dsl import ast as _ir, diskcache as _diskcache
from ..dsl.budgets import Budgets, check as _check_budgets
from ..dsl.check import check
from ..dsl.errors import Diagnostic, Diagnostics, MeepleError
from ..dsl.load import merge, read_sources, resolve_path
from .analysis.perft import divide, histories, perft
from .analysis.playouts import playouts
from .bots import PLAY_TIME, BotSpecError, bot_move, bot_seed, make_bot, parse_spec
from .bots.determinize import determinize, determinize_past
from .compiler import cache as _cache
from .compiler.compile import Program, Ruleset
from .native import cython_code as _native
from .native.cython_code import NativeWarning
from .play.game import Game
from .play.helpers import BudgetError, RuleError
from .play.runtime import Decision, IllegalMove, Move, NothingToUndo, Outcome

__all__ = ["load", "compile_sources", "Program", "Game", "Move", "IllegalMove", "RuleError",
           "BudgetError", "MeepleError", "Ruleset", "StateError", "bot_seed", "Budgets",
           "perft", "divide", "histories", "playouts", "use_cache", "cache_info", "clear_cache", "make_bot", "bot_move",
           "PLAY_TIME", "compiled_engine", "parse_spec", "BotSpecError", "determinize", "determinize_past", "Outcome", "NothingToUndo", "Decision",
           "native_status", "kernel_status", "NativeWarning"]


def __getattr__(name: str):
    """What only some commands need, imported when first asked for (``meeple simulate``
    never loads them): the modules ``rulebook`` and ``rulebook_view``, and ``StateError``
    (with the state's schema)."""
    if name in ("rulebook", "rulebook_view"):
        import importlib
        return importlib.import_module(f"{__name__}.documents.{name}")
    if name == "StateError":
        from .play.state import StateError
        return StateError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load(ruleset, variants=(), locale: str | None = None, budgets: Budgets | None = None,
         cache: bool = True, native: bool = False) -> Ruleset:
    """Loads, checks and compiles a ruleset (a bundled name, or a path: a ``Path`` is
    always a path). Raises MeepleError with every diagnostic when it has problems.
    ``budgets`` raises (or lowers) the limits on loading and running it (see
    ``Budgets``). A ruleset that loads without problems is kept in the disk cache
    (see docs/cli.md) unless ``cache=False`` or the cache is off. ``native=True``: its
    games run on native code where it can be built (``Ruleset.use_native``)."""
    out = _load(ruleset, variants, locale, budgets, cache)
    if native:
        out.use_native()
    return out


def _load(ruleset, variants, locale, budgets, cache) -> Ruleset:
    budgets = _check_budgets(budgets)
    path = ruleset if isinstance(ruleset, Path) else resolve_path(ruleset)
    raw = _cache.read(path, budgets) if cache and _diskcache.enabled() else None
    if raw is None:
        return compile_sources(read_sources(path, budgets), variants, locale, budgets)
    key = _cache.entry_key(raw, variants, locale, budgets)
    hit = _diskcache.get(_cache.KIND, key)
    if isinstance(hit, tuple) and len(hit) == 3:
        try:
            return Ruleset(hit[0], _cache.texts_of(raw), hit[1], budgets, hit[2])
        except Exception:  # noqa: BLE001 - not what this version writes: compile afresh
            pass
    ruleset = compile_sources(_cache.sources_of(path, raw, budgets), variants, locale, budgets)
    _diskcache.put(_cache.KIND, key, (ruleset.checked, ruleset.warnings, ruleset.relation_tables()))
    return ruleset


def compiled_engine() -> bool:
    """Whether the run loop and its helpers (``meeple.interpreter.play.runtime``,
    ``helpers``, ``game`` and ``ordering``) run compiled, as ``MEEPLE_NATIVE=1 pip install .`` builds them with
    Cython, rather than as Python: the same games either way, faster compiled."""
    import importlib.machinery

    from .play import game, helpers, ordering, runtime
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return all((getattr(m.__spec__, "origin", None) or "").endswith(suffixes)
               for m in (runtime, helpers, game, ordering))


def use_cache(on: bool = True) -> None:
    """Turns the disk cache of compiled rulesets on or off for this process (it is on
    unless the environment sets ``MEEPLE_NO_CACHE``)."""
    _diskcache.set_enabled(on)


def cache_info() -> dict:
    """The disk cache: ``folder`` (a string, or None without a home folder), ``enabled`` (not turned off), ``trusted``
    (the folder is the user's own and nobody else may write into it; else ``reason``
    says why and it is not used), ``entries`` and ``bytes``; ``native``: the native
    modules kept (``entries``, ``bytes``; see ``Ruleset.use_native``)."""
    folder = _diskcache.folder()
    if folder is None:
        return {"folder": None, "enabled": False, "trusted": False, "entries": 0, "bytes": 0,
                "reason": "there is no home folder to keep it in (set MEEPLE_CACHE_DIR)"}
    reason = _diskcache.untrusted_reason(folder) if folder.exists() else None
    found = _diskcache.entries(folder)
    return {"folder": str(folder), "enabled": _diskcache.enabled(), "trusted": reason is None,
            "reason": reason, "entries": len(found), "bytes": _diskcache.total_size(found),
            "native": _native.info()}


def clear_cache() -> int:
    """Removes every entry of the disk cache (the native modules too); returns how many
    there were."""
    return _diskcache.clear() + _native.clear()


def native_status() -> str | None:
    """None when the rule code compiled by Cython (``Ruleset.use_native``) can be built
    here; else why not, in one sentence (Cython is not installed, no C compiler)."""
    return _native.status()


def kernel_status() -> str | None:
    """None when kernels (``Ruleset.use_native``: the rules in C++) can be built here;
    else why not, in one sentence (no C++ compiler, no Python headers, ``MEEPLE_KERNEL=0``)."""
    from .native import kernel
    if not kernel.enabled():
        return "kernels are turned off (MEEPLE_KERNEL=0)"
    return kernel.status()


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
    from ..dsl.load import SourceSet, add_text
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
