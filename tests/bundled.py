"""The bundled rulesets as the tests' parameters need them, cheaply: pytest (and each
pytest-xdist worker) imports every test file before it runs a test, and the files
parametrized by ruleset, variant, locale or player count would each parse every bundled
ruleset again (a second or so each), or load and compile them all for their player
counts. Here each ruleset's files are parsed once a process (``sources``), and the
player counts of a ruleset with variants and a locale are those of the checked ruleset
(``players``), not compiled."""
from __future__ import annotations

from functools import cache

from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, bundled_names, merge, read_sources, resolve_path


def names() -> list[str]:
    """The bundled rulesets' names."""
    return bundled_names()


@cache
def sources(name: str) -> SourceSet:
    """``read_sources`` of a bundled ruleset, made once a process: read it, never change it."""
    return read_sources(resolve_path(name))


def variants(name: str) -> list[str]:
    return sorted(sources(name).variants)


def locales(name: str) -> list[str]:
    return sorted(sources(name).locales)


@cache
def players(name: str, variants: tuple[str, ...] = (), locale: str | None = None) -> tuple[int, int]:
    """The fewest and the most players of a bundled ruleset with these variants (a variant
    may change them) and locale, as its checked ruleset says (``Ruleset.min_players`` and
    ``max_players`` once compiled)."""
    diags = Diagnostics()
    checked, diags = check(merge(sources(name), list(variants), locale, diags), diags)
    assert not diags.errors(), (name, variants, locale, diags.errors())
    return checked.players
