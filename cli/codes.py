"""The exit code of Ctrl-C and its message, shared by the console script (cli/entry.py),
the app (cli/main.py) and the commands: standard library only, so that it can be used
before anything else is imported."""
from __future__ import annotations

import sys

INTERRUPTED = 130


def interrupted() -> int:
    """Says 'interrupted' on stderr; the exit code of Ctrl-C."""
    try:
        sys.stderr.write("\ninterrupted\n")
    except (OSError, ValueError):
        pass
    return INTERRUPTED
