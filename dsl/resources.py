"""Where Meeple's own data files are: the bundled rulesets and the JSON Schemas.

Installed, Meeple is one package, ``meeple``, with ``meeple/rulesets/`` and
``meeple/schema/`` beside ``meeple/dsl/``. In a source checkout the same folders are
the repository's top-level ``rulesets/`` and ``docs/schema/``, beside ``dsl/``. Both
are found from this file's place, so an editable install, a plain install, a wheel and
a checkout on ``sys.path`` behave the same.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent      # meeple/ installed, the repository in a checkout
RULESETS_DIR = ROOT / "rulesets"


def _schema_dir() -> Path:
    installed = ROOT / "schema"
    return installed if installed.is_dir() else ROOT / "docs" / "schema"


SCHEMA_DIR = _schema_dir()
