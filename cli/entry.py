"""The ``meeple`` console script. It imports the command line only inside ``main``,
so that Ctrl-C while Python loads the program (about a second) also exits 130 quietly
instead of printing a traceback."""
from __future__ import annotations

import sys

from .codes import interrupted


def main() -> None:
    try:
        if sys.argv[1:] in (["--version"], ["-V"]):
            _version()
            return
        try:
            from .main import main as run
        except KeyboardInterrupt:
            _interrupted()
        run()
    finally:
        _forget_interruptions()


def _version() -> None:
    """``meeple --version`` alone: the line the option prints (cli/main.py), without
    importing the command line (Typer: two thirds of the command's time)."""
    from .version import version_line
    try:
        print(version_line())
    except KeyboardInterrupt:
        _interrupted()
    except BrokenPipeError:
        from .main import _drop_stdout
        _drop_stdout()
        sys.exit(1)


def _interrupted() -> None:
    sys.exit(interrupted())


def _forget_interruptions() -> None:
    """Keeps the exit code given (130 after Ctrl-C) under ``python -m meeple``. CPython
    notes when a string it evaluates (``exec``/``eval`` of a text: ``namedtuple``,
    ``dataclasses`` and other modules do it while they are imported) ends with a
    KeyboardInterrupt, even one handled afterwards, and a program run with ``-m`` then
    kills itself by SIGINT instead of exiting with its code (exit -2 for the caller).
    Evaluating a string that ends normally clears that note."""
    exec("")  # noqa: S102 - an empty text: only to clear the note
