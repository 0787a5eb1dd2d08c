"""MkDocs hooks of the documentation site (mkdocs.yml: `hooks:`).

- Highlighting: the Meeple lexer (meeple.dsl.lexer) is registered with Pygments for this
  build, so ```meeple blocks are highlighted from a checkout too (an installed Meeple
  registers it through its `pygments.lexers` entry point).
- Rulebooks: each bundled game gets a page `rulesets/NAME-rulebook.md`, generated at
  build time by `meeple rulebook NAME --format md`, so the site always shows the
  rulebook of the rules as they are.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))   # the checkout's meeple, as tests use it


def on_config(config):
    import pygments.lexers

    pygments.lexers.LEXERS.setdefault(
        "MeepleLexer", ("meeple.dsl.lexer", "Meeple", ("meeple",), ("*.meeple",), ("text/x-meeple",)))
    return config

