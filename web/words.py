"""The page's own words (headings, buttons, what it says about the game), by the names
its template and script use, in English. ``meeple serve`` gives the server their
translations in the table's language (cli/cmd_serve.py ``page_words``, from the command
line's catalogs: cli/messages/*.json); a sentence's ``{fields}`` are filled in by the
page's script."""
from __future__ import annotations

from collections.abc import Callable

WORDS: dict[str, str] = {
    "you_play": "You play {player}",
    "spectator": "Spectator",
    "loading": "Loading…",
    "your_moves": "Your moves",
    "table": "Table",
    "players": "Players",
    "result": "Result",
    "record": "Download the game's record",
    "log": "Log",
    "over": "The game is over.",
    "your_move": "Your move.",
    "your_choice": "Your choice (everyone chooses at once).",
    "waiting": "Waiting for: {players}",
    "to_move": "To move: {players}",
    "moves_from": "Moves from {name} (click it again for all)",
    "moves_naming": "Moves naming {name} (click it again for all)",
    "moves_none": "No move starts at {name} or names it: all are shown (click it again for all)",
    "none_now": "None now.",
    "yours": "(yours)",
    "you": "(you)",
    "bot": "(bot)",
    "last_move": "Last move: {player}: {move}",
    "hidden": "(hidden)",
    "empty": "empty",
    "count_hidden": "hidden: {count}",
    "refused": "The move was refused ({status}).",
    "unreachable": "The server could not be reached; try again.",
    "reconnecting": "Reconnecting…",
}

#: gives the page's words for a ruleset (a Program), in its locale's language
Words = Callable[[object], dict[str, str]]


def english(prog) -> dict[str, str]:
    """The page's words in English (a server given no translations)."""
    return dict(WORDS)
