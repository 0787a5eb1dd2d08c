"""The Meeple interpreter: compile a ruleset once, then play games from it.

    program = interpreter.load("rulesets/my-game", variants=["a_variant"], locale="nl")
    game = program.new_game(players=3, seed=7)
    while not game.over:
        game.apply(game.legal_moves()[0])
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..dsl import diskcache as _diskcache
from ..dsl.budgets import Budgets, check as _check_budgets

if TYPE_CHECKING:   # (imported when first used: see __getattr__)
    from ..dsl.errors import MeepleError
    from ..dsl.settings import SettingError
    from .analysis.perft import divide, histories, perft
    from .analysis.playouts import playouts
    from .bots import PLAY_TIME, BotSpecError, bot_move, bot_seed, make_bot, parse_spec
    from .bots.determinize import determinize, determinize_past
    from .compiler.compile import Program, Ruleset
    from .compiler.loading import compile_sources
    from .native.cython_code import NativeWarning
    from .play.game import Game
    from .play.helpers import BudgetError, RuleError
    from .play.runtime import Decision, IllegalMove, Move, NothingToUndo, Outcome
    from .play.state import StateError

# each name of the API with the module it comes from, imported when first asked for: a
# command imports what it uses (``meeple simulate --help`` loads no compiler)
_LAZY = {**dict.fromkeys(("divide", "histories", "perft"), ".analysis.perft"),
         "playouts": ".analysis.playouts",
         **dict.fromkeys(("PLAY_TIME", "BotSpecError", "bot_move", "bot_seed", "make_bot",
                          "parse_spec"), ".bots"),
         **dict.fromkeys(("determinize", "determinize_past"), ".bots.determinize"),
         **dict.fromkeys(("Program", "Ruleset"), ".compiler.compile"),
         "compile_sources": ".compiler.loading", "NativeWarning": ".native.cython_code",
         "Game": ".play.game", "BudgetError": ".play.helpers", "RuleError": ".play.helpers",
         **dict.fromkeys(("Decision", "IllegalMove", "Move", "NothingToUndo", "Outcome"),
                         ".play.runtime"),
         "StateError": ".play.state", "MeepleError": "..dsl.errors",
         "SettingError": "..dsl.settings",
         "payoff_values": ".play.results"}

__all__ = ["load", "compile_sources", "Program", "Game", "Move", "IllegalMove", "RuleError",
           "BudgetError", "MeepleError", "Ruleset", "StateError", "bot_seed", "Budgets",
           "perft", "divide", "histories", "playouts", "use_cache", "cache_info", "clear_cache", "make_bot", "bot_move",
           "PLAY_TIME", "compiled_engine", "parse_spec", "BotSpecError", "determinize", "determinize_past", "Outcome", "NothingToUndo", "Decision",
           "native_status", "kernel_status", "NativeWarning", "payoff_values", "SettingError"]


def __getattr__(name: str):
    """A name of the API (``_LAZY``), or the modules ``rulebook`` and ``rulebook_view``,
    imported when first asked for; then kept here."""
    import importlib
    if name in ("rulebook", "rulebook_view"):
        return importlib.import_module(f"{__name__}.documents.{name}")
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def load(ruleset, variants=(), locale: str | None = None, budgets: Budgets | None = None,
         cache: bool = True, native: bool = False) -> Ruleset:
    """Loads, checks and compiles a ruleset (a bundled name, or a path: a ``Path`` is
    always a path). Raises MeepleError with every diagnostic when it has problems.
    ``budgets`` raises (or lowers) the limits on loading and running it (see
    ``Budgets``). A ruleset that loads without problems is kept in the disk cache
    (see docs/cli.md), and each of its files parsed, unless ``cache=False`` (nothing
    read from the cache nor written) or the cache is off. ``native=True``: its
    games run on native code where it can be built (``Ruleset.use_native``)."""
    out = _load(ruleset, variants, locale, budgets, cache)
    if native:
        out.use_native()
    return out


def _load(ruleset, variants, locale, budgets, cache) -> Ruleset:
    from ..dsl.load import read_sources, resolve_path
    from .compiler import cache as _cache
    from .compiler.compile import Ruleset
    compile_sources = globals().get("compile_sources") or __getattr__("compile_sources")
    budgets = _check_budgets(budgets)
    path = ruleset if isinstance(ruleset, Path) else resolve_path(ruleset)
    raw = _cache.read(path, budgets) if cache and _diskcache.enabled() else None
    if raw is None:
        return compile_sources(read_sources(path, budgets, cache), variants, locale, budgets)
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
            "native": _native().info()}


def clear_cache() -> int:
    """Removes every entry of the disk cache (the native modules too); returns how many
    there were."""
    return _diskcache.clear() + _native().clear()


def native_status() -> str | None:
    """None when the rule code compiled by Cython (``Ruleset.use_native``) can be built
    here; else why not, in one sentence (Cython is not installed, no C compiler)."""
    return _native().status()


def kernel_status() -> str | None:
    """None when kernels (``Ruleset.use_native``: the rules in C++) can be built here;
    else why not, in one sentence (no C++ compiler, no Python headers, ``MEEPLE_KERNEL=0``)."""
    from .native import kernel
    if not kernel.enabled():
        return "kernels are turned off (MEEPLE_KERNEL=0)"
    return kernel.status()


def _native():
    from .native import cython_code
    return cython_code
