"""What the long OpenSpiel comparisons in benchmarks/ share: the checkout's meeple and
the tests' comparison modules on the path, and a clear exit when OpenSpiel is missing.

    compare = openspiel_compare.load("test_hearts_openspiel")
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load(module: str):
    """The comparison module of tests/ (it holds the engines' side-by-side play)."""
    for p in (ROOT, ROOT / "tests"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install open_spiel")
    return importlib.import_module(module)


def version() -> str:
    import pyspiel
    return getattr(pyspiel, "__version__", "?")
