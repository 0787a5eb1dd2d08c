"""The ``meeple`` console script. It imports the command line only inside ``main``,
so that Ctrl-C while Python loads the program (about a second) also exits 130 quietly
instead of printing a traceback."""
from __future__ import annotations

import sys

INTERRUPTED = 130


def main() -> None:
    try:
        from .main import main as run
    except KeyboardInterrupt:
        _interrupted()
    run()


def _interrupted() -> None:
    try:
        sys.stderr.write("\ninterrupted\n")
    except (OSError, ValueError):
        pass
    sys.exit(INTERRUPTED)
