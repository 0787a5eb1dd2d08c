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



def _bundled() -> list[str]:
    return sorted(p.name for p in (ROOT / "rulesets").iterdir()
                  if p.is_dir() and any(p.glob("*.meeple")))


def on_files(files, config):
    """Adds `rulesets/NAME-rulebook.md` for each bundled game: its rulebook, generated
    from the ruleset (in English; `meeple rulebook NAME --locale L` gives the others)."""
    from meeple.interpreter.documents import rulebook, rulebook_view
    from mkdocs.structure.files import File

    from meeple import interpreter

    for name in _bundled():
        book = rulebook.build(interpreter.load(name))
        head = (f"# {book.title}: the rulebook\n\n"
                f"*Generated from the ruleset `{name}` by `meeple rulebook {name} --format md`; "
                f"every rule of the ruleset is in it. In another language: "
                f"`meeple rulebook {name} --locale L`.*\n\n")
        body = rulebook_view.markdown(book)
        body = body.split("\n", 1)[1] if body.startswith("**") else body   # the title is the heading
        files.append(File.generated(config, f"rulesets/{name}-rulebook.md", content=head + body))
    return files
