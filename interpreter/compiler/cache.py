"""Loading a ruleset through the disk cache (dsl/diskcache.py).

A checked ruleset is kept under the sha256 of everything it is made from: the bytes and
names of every file of the ruleset (base, variants, locales), the variants and locale
chosen, the budgets, Meeple's own code (its version and the bytes of dsl/ and
interpreter/, subpackages included) and the Python version. A hit skips reading the grammar, parsing, merging,
checking and compiling every player count (a program is then compiled for a player
count when a game first needs it); it carries the warnings of the fresh load. Only a
ruleset that loaded without problems is stored: one with problems is always loaded
afresh, so its diagnostics are exactly those of a fresh load.
"""
from __future__ import annotations

from pathlib import Path

from ...dsl import diskcache, errors, files, load as dsl_load
from ...dsl.budgets import Budgets

KIND = "ruleset"


# the sha256 of Meeple's own code (dsl/ and interpreter/, Lark, pydantic, Python): it
# lives with the cache, which ``meeple list`` reads without loading the interpreter
code_fingerprint = diskcache.code_fingerprint


def read(path: Path, budgets: Budgets) -> list[tuple[str, bytes]] | None:
    """The names and bytes of a ruleset's files, or None when one cannot be read as a
    ruleset file (the uncached load then reports why)."""
    found = dsl_load.source_files(path)
    out = []
    for f in found:
        try:
            data = files.read_regular_file(f, budgets.file_size)
            data.decode("utf-8")
        except (ValueError, OSError):
            return None
        out.append((str(f), data))
    return out or None


def entry_key(raw: list[tuple[str, bytes]], variants, locale, budgets: Budgets) -> str:
    parts: list = [KIND, code_fingerprint(), repr(budgets), repr(list(variants)), repr(locale)]
    for name, data in raw:
        parts += [name, data]
    return diskcache.key(*parts)


def sources_of(path: Path, raw: list[tuple[str, bytes]], budgets: Budgets) -> dsl_load.SourceSet:
    """The files parsed (as ``dsl.load.read_sources`` does) from the very bytes the key
    was made of."""
    src = dsl_load.SourceSet()
    for name, data in raw:
        dsl_load.add_text(src, name, data.decode("utf-8"), budgets)
    if src.base is None and not src.diagnostics:
        src.diagnostics.append(errors.io_error(str(path), "no file with a 'ruleset NAME' header"))
    return src


def texts_of(raw: list[tuple[str, bytes]]) -> dsl_load.SourceSet:
    """A source set with the files' texts only (for rendering problems met later)."""
    return dsl_load.SourceSet(sources={name: data.decode("utf-8") for name, data in raw})
