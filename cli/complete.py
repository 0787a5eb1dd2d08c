"""Shell completion of the values the command line knows: bundled ruleset names, a
ruleset's variants and locales, bots and ``SEAT=BOT``. Each function takes what Typer's
``autocompletion=`` gives (the click context, the word being typed) and returns the
candidates that start with it (what it needs is imported when it runs, not with the
command line); a completion never fails (a broken ruleset or an odd
word completes to nothing), since it runs while the user types."""
from __future__ import annotations

import functools

import typer


def _starting(words, incomplete: str) -> list[str]:
    return [w for w in sorted(set(words)) if w.startswith(incomplete or "")]


def rulesets(incomplete: str) -> list[str]:
    """Bundled ruleset names (a path is left to the shell)."""
    from ..dsl import files
    try:
        return _starting(files.bundled_names(), incomplete)
    except OSError:
        return []


@functools.lru_cache(maxsize=8)
def _overlays(ruleset: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(variants, locales) of a ruleset name or path; none when it cannot be read."""
    from ..dsl import load as dsl_load
    try:
        src = dsl_load.read_sources(dsl_load.resolve_path(ruleset))
    except Exception:  # noqa: BLE001 - completing never fails
        return (), ()
    return tuple(src.variants), tuple(src.locales)


def _ruleset_of(ctx: typer.Context) -> str | None:
    """The RULESET (or --ruleset PATH) typed before the word being completed. While an
    option waits for its value, click leaves the command's arguments unparsed, in
    ``ctx.args``: the first word there that is not an option is then the ruleset."""
    params = getattr(ctx, "params", None) or {}
    name = params.get("ruleset") or params.get("ruleset_path")
    if not name:
        name = next((a for a in getattr(ctx, "args", None) or []
                     if isinstance(a, str) and not a.startswith("-")), None)
    return name if isinstance(name, str) and name else None


def variants(ctx: typer.Context, incomplete: str) -> list[str]:
    """The variants of the ruleset named earlier on the command line."""
    name = _ruleset_of(ctx)
    return _starting(_overlays(name)[0], incomplete) if name else []


def locales(ctx: typer.Context, incomplete: str) -> list[str]:
    """The locales of the ruleset named earlier on the command line."""
    name = _ruleset_of(ctx)
    return _starting(_overlays(name)[1], incomplete) if name else []


def bots(incomplete: str) -> list[str]:
    """Bot specs (``simulate --bot``): a name, then after ``NAME:`` (or a comma) its options
    as ``KEY=``: ``mcts:`` completes to ``mcts:iterations=``, ``mcts:time=``..."""
    from ..interpreter.bots import BOTS, OPTIONS
    word = incomplete or ""
    name, colon, rest = word.partition(":")
    if not colon:
        return _starting(BOTS, word)
    options = OPTIONS.get(name.strip().lower())
    if not options:
        return []
    done, _, typing = rest.rpartition(",")
    if "=" in typing:
        return []
    given = {part.partition("=")[0].strip().lower() for part in done.split(",") if part}
    head = f"{name}:{done + ',' if done else ''}"
    return [f"{head}{k}=" for k in _starting(options, typing) if k not in given]


def seat_bots(incomplete: str) -> list[str]:
    """``SEAT=BOT`` (``play --bot``): after ``2=``, ``2=random``, ``2=first``..., and the
    options of a bot as for ``simulate --bot`` (``2=mcts:iterations=``)."""
    seat, eq, spec = (incomplete or "").partition("=")
    if not eq or not seat.isdigit():
        return []
    return [f"{seat}={b}" for b in bots(spec)]
