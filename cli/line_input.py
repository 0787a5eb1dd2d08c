"""Typing moves at a terminal: line editing, history and completion of the legal moves
with prompt_toolkit (the optional extra ``play``), when it is installed and both the
input and the output are a terminal; else ``None`` and play reads plain lines.

Each seat has its own history: the arrow keys never bring back what another player
typed at the same terminal (a card passed in secret, say). The completions are the
words the caller gives (the seat's legal moves as they may be typed, and the commands),
matched from the start of the line, ignoring case.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable


def completions(typed: str, words: Iterable[str]) -> list[str]:
    """The words that begin with what was typed (ignoring case and runs of spaces), in
    their order, each once."""
    want = " ".join(typed.split()).casefold()
    if typed.endswith(" ") and want:
        want += " "
    seen: dict[str, None] = {}
    for w in words:
        if w.casefold().startswith(want):
            seen.setdefault(w, None)
    return list(seen)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class LineEditor:
    """Reads a line with prompt_toolkit: ``read(prompt, seat, words)``; ``seat`` None
    (the hand-over) keeps no history and completes nothing."""

    def __init__(self) -> None:
        from prompt_toolkit.history import InMemoryHistory
        self._history_type = InMemoryHistory
        self.histories: dict[int, InMemoryHistory] = {}

    def read(self, prompt: str, seat: int | None, words: Callable[[], list[str]]) -> str:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion

        class Moves(Completer):
            def get_completions(self, document, complete_event):
                typed = document.text_before_cursor
                for w in completions(typed, words()):
                    yield Completion(w, start_position=-len(typed))

        history = None
        if seat is not None:
            history = self.histories.setdefault(seat, self._history_type())
        session: PromptSession = PromptSession(
            history=history, completer=Moves() if seat is not None else None,
            complete_while_typing=False, enable_history_search=False)
        return session.prompt(prompt)


def editor() -> LineEditor | None:
    """A line editor when prompt_toolkit is installed, stdin and stdout are terminals and
    ``MEEPLE_PLAIN_INPUT`` is not set; else None (plain ``input()``)."""
    if os.environ.get("MEEPLE_PLAIN_INPUT") or not (_isatty(sys.stdin) and _isatty(sys.stdout)):
        return None
    try:
        import prompt_toolkit  # noqa: F401
    except ImportError:
        return None
    return LineEditor()
