"""The short and the long form of the tests that play many games.

A plain ``python3 -m pytest`` (and so CI, ``.ci/run``) runs every test in its short
form: each long test on fewer seeds, games or configurations, still every area, path
and check it has. ``MEEPLE_TESTS=full python3 -m pytest`` runs the long form, the
counts that once ran in CI (README, "Contributing": before a release, or after a change
to the engines). A test says both with ``scaled(long, short)``.
"""
from __future__ import annotations

import os

_FORMS = ("short", "full")
FORM = os.environ.get("MEEPLE_TESTS", "") or "short"
if FORM not in _FORMS:
    raise SystemExit(f"MEEPLE_TESTS={FORM!r}: give 'full' (the long form) or 'short' (the default)")
FULL = FORM == "full"


def scaled(full, short):
    """``full`` in the long form, ``short`` in the short one (a count, seeds, cases)."""
    return full if FULL else short
