"""Where ``meeple play`` keeps a game when it cannot keep it where asked, and how it
stops on a signal.

- ``fallback_folder()``: the folder for games that cannot be saved in the current folder
  (or where ``--record`` named): ``$XDG_DATA_HOME/meeple/games``, else
  ``~/.local/share/meeple/games``, made ``0700``; used only when it is a folder owned by
  the user that no one else may write into. Else a new private temporary folder.
- ``Signals``: SIGTERM and SIGHUP (a closed terminal) stop the game like ``quit``: the
  handler raises ``Stopped`` in the game's thread, except while a move is being made or
  the game saved (``held``), where the signal waits for the end of that step.
"""
from __future__ import annotations

import os
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..dsl import diskcache

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(Exception):
    """A signal asked the game to stop (SIGTERM, SIGHUP): it is saved, and the exit code
    is 128 + the signal's number, as a shell reports a process the signal ended."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:   # pragma: no cover - only the signals above are caught
            return f"signal {self.signum}"


class Signals:
    """Installs the handlers for the time of a game (``with Signals() as s:``), in the
    main thread only (elsewhere Python cannot catch signals: nothing is installed)."""

    def __init__(self):
        self.pending: int | None = None
        self.depth = 0
        self.stopping = False
        self.saved: dict = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                self.saved[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        for sig, old in self.saved.items():
            signal.signal(sig, old)
        self.saved = {}

    def _handler(self, signum, _frame) -> None:
        if self.stopping:
            return   # already stopping (and saving): once is enough
        if self.depth:
            self.pending = signum
            return
        raise Stopped(signum)

    @contextmanager
    def held(self):
        """A step that a signal must not cut in two (a move and its journal line, a
        save): the signal is acted on when it ends."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if not self.depth and self.pending is not None and not self.stopping:
                # (also when the step failed: an illegal move must not leave it waiting)
                signum, self.pending = self.pending, None
                raise Stopped(signum)


# ---------------------------------------------------------------- where games go

def data_folder() -> Path | None:
    """``$XDG_DATA_HOME/meeple/games``, else ``~/.local/share/meeple/games`` (None when
    there is no home folder)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):   # the XDG spec: a relative path is ignored
        return Path(xdg) / "meeple" / "games"
    try:
        return Path.home() / ".local" / "share" / "meeple" / "games"
    except (RuntimeError, KeyError, OSError):
        return None


def fallback_folder() -> Path:
    """The folder for a game that cannot be kept where asked: the data folder when it can
    be made and is private enough (owned by the user, writable by no one else), else a
    new temporary folder of the user's (``0700``)."""
    folder = data_folder()
    if folder is not None:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if diskcache.untrusted_reason(folder) is None and os.access(folder, os.W_OK):
                return folder
        except OSError:
            pass
    return Path(tempfile.mkdtemp(prefix="meeple-games-"))


def free_target(path: Path) -> Path:
    """``path``, or ``name-2.json``, ``name-3.json``... such that neither it nor its
    journal exists."""
    from ..interpreter import journal
    candidate, k = path, 2
    while os.path.lexists(candidate) or os.path.lexists(journal.path_for(candidate)):
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
        k += 1
    return candidate


def quit_file(name: str, stamp: str) -> Path:
    """Where ``quit`` saves a game played without ``--record``: the current folder (named
    relatively when it was removed: nothing can be written there, and the game then goes
    to the fallback folder, see ``PlaySession.open_journal``)."""
    try:
        folder = Path.cwd()
    except OSError:   # the current folder was removed
        folder = Path(".")
    return free_target(folder / f"meeple-{name}-{stamp}.json")
