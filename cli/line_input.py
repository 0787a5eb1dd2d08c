"""Typing moves at a terminal: line editing, history and completion of the legal moves
with prompt_toolkit (the optional extra ``play``), when it is installed and both the
input and the output are a terminal; else ``None`` and play reads plain lines.

Each seat has its own history: the arrow keys never bring back what another player
typed at the same terminal (a card passed in secret, say). The completions are the
words the caller gives (the seat's legal moves as they may be typed, and the commands),
matched from the start of the line, ignoring case.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from ..dsl import settings


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


def common_start(words: list[str]) -> str:
    """The text every word begins with ('' for none)."""
    if not words:
        return ""
    first, n = words[0], len(words[0])
    for w in words[1:]:
        n = next((i for i, (a, b) in enumerate(zip(first[:n], w)) if a != b), min(n, len(w)))
    return first[:n]


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class LineEditor:
    """Reads a line with prompt_toolkit: ``read(prompt, seat, words)``; ``seat`` None
    (the hand-over) keeps no history and completes nothing."""

    def __init__(self, pt_input=None, pt_output=None) -> None:
        from prompt_toolkit.history import InMemoryHistory
        self._history_type = InMemoryHistory
        self.histories: dict[int, InMemoryHistory] = {}
        self.pt_input, self.pt_output = pt_input, pt_output   # (the terminal's by default)

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
            complete_while_typing=False, enable_history_search=False,
            key_bindings=_tab(words) if seat is not None else None,
            input=self.pt_input, output=self.pt_output)
        return session.prompt(prompt)


def _tab(words: Callable[[], list[str]]):
    """Tab at once: the one word the line begins replaces it, several words their
    common beginning and the menu of them (so Enter right after Tab plays the completed
    move, however fast it is typed)."""
    from prompt_toolkit.key_binding import KeyBindings
    kb = KeyBindings()

    @kb.add("tab")
    def _complete(event) -> None:
        b = event.current_buffer
        if b.complete_state:
            b.complete_next()
            return
        typed = b.document.text_before_cursor
        found = completions(typed, words())
        common = common_start(found)
        if len(common) > len(typed):
            b.delete_before_cursor(len(typed))
            b.insert_text(common)
        if len(found) > 1:
            b.start_completion(select_first=False)
    return kb


def plain_input() -> bool:
    """Whether ``MEEPLE_PLAIN_INPUT`` is on (``1``, or another on value: dsl/settings.py)."""
    return settings.on("MEEPLE_PLAIN_INPUT")


def editor() -> LineEditor | None:
    """A line editor when prompt_toolkit is installed, stdin and stdout are terminals and
    ``MEEPLE_PLAIN_INPUT`` is not on; else None (plain ``input()``)."""
    if plain_input() or not (_isatty(sys.stdin) and _isatty(sys.stdout)):
        return None
    try:
        import prompt_toolkit  # noqa: F401
    except ImportError:
        return None
    return LineEditor()
