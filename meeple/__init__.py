"""Meeple: a rules language and a generic interpreter for board and card games.

    import meeple
    program = meeple.load("cherokee", variants=["open_clans"], locale="de")
    game = program.new_game(players=3, seed=7)
    while not game.over:
        game.apply(game.legal_moves()[0])

The names of ``meeple.interpreter`` (``load``, ``Program``, ``Game``, ``Move`` ...) are
available here too; see docs/api.md. The stages are subpackages: ``meeple.dsl`` (parse,
check), ``meeple.interpreter`` (compile, run, view), ``meeple.cli`` (the command line);
the bundled rulesets are in ``meeple/rulesets`` and the JSON Schemas in ``meeple/schema``.
"""
import os as _os

__version__ = "0.2.0"

_here = _os.path.dirname(_os.path.abspath(__file__))
if not _os.path.isdir(_os.path.join(_here, "dsl")):
    # A source checkout: the stages are the repository's top-level folders (dsl/,
    # interpreter/, cli/, rulesets/), beside this one. Installed, they are inside it.
    __path__.append(_os.path.dirname(_here))


def _interpreter():
    import importlib
    return importlib.import_module(__name__ + ".interpreter")


def __getattr__(name: str):
    """``meeple.load`` and the other public names of the interpreter, imported on first
    use so that ``import meeple.dsl`` does not load the interpreter."""
    if not name.startswith("_") and name not in ("dsl", "interpreter", "cli"):
        interpreter = _interpreter()
        if name in interpreter.__all__:
            return getattr(interpreter, name)
    raise AttributeError(f"module 'meeple' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_interpreter().__all__))
