"""Keeping the standard output Meeple's own while a library runs threads of its own in
this process: Ray's driver prints what its cluster reports (``(raylet) A worker
died...``) on ``sys.stdout``, from threads it starts, and again when it disconnects at
exit. Where that can happen (``--backend ray``), ``keep_stdout()`` puts a guard in
place of ``sys.stdout``: what Meeple's own thread writes goes to the standard output
as before, what any other thread writes goes to the standard error, and so does
everything once the command is over (``command_over()``, called by ``main``)."""
from __future__ import annotations

import sys
import threading


class OwnStdout:
    """``sys.stdout`` for the main thread (until the command is over), ``sys.stderr``
    (as it was when the guard was put in place) for the rest."""

    def __init__(self, inner, other):
        self.inner, self.other = inner, other
        self.main = threading.main_thread()
        self.over = False

    def _target(self):
        return self.inner if not self.over and threading.current_thread() is self.main else self.other

    def write(self, s: str) -> int:
        return self._target().write(s)

    def writelines(self, lines) -> None:
        self._target().writelines(lines)

    def flush(self) -> None:
        self._target().flush()

    def __getattr__(self, name):
        return getattr(self.inner, name)


def keep_stdout() -> None:
    """Puts the guard in place (once)."""
    if not isinstance(sys.stdout, OwnStdout):
        sys.stdout = OwnStdout(sys.stdout, sys.stderr)


def command_over() -> None:
    """From now on everything written to ``sys.stdout`` through the guard goes to the
    standard error: the command's output is complete."""
    guard = sys.stdout
    if isinstance(guard, OwnStdout) and not guard.over:
        try:
            guard.inner.flush()
        except (OSError, ValueError):
            pass
        guard.over = True
