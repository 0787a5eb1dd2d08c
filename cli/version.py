"""What ``meeple --version`` prints, made without importing the command line (Typer):
``cli/entry.py`` answers ``meeple --version`` alone with it, ``cli/main.py`` the option
anywhere else on a command line."""
from __future__ import annotations

from .. import __version__


def version_line() -> str:
    """``meeple VERSION``, with `` (compiled engine)`` when the engine is compiled."""
    return f"meeple {__version__}" + (" (compiled engine)" if compiled_engine() else "")


def compiled_engine() -> bool:
    """``interpreter.compiled_engine()`` without importing the interpreter: whether the
    modules of its run loop would be imported compiled (an extension module is found
    before a ``.py`` of the same name, as ``import`` does)."""
    import importlib.machinery
    import importlib.util
    spec = importlib.util.find_spec(f"{__package__.rpartition('.')[0]}.interpreter")
    where = list(spec.submodule_search_locations or []) if spec else []
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in ("runtime", "helpers", "game", "ordering"):
        found = importlib.machinery.PathFinder.find_spec(
            name, [f"{w}/play" for w in where])
        if not (found and (found.origin or "").endswith(suffixes)):
            return False
    return True
