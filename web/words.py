"""The server's own words, in English, by the names its templates, scripts and answers
use: the table page's (``WORDS``), the lobby page's (``LOBBY``) and why a move is refused
(``REFUSALS``, by the stable ``error`` code the answer gives). ``meeple serve`` gives
the server their translations (cli/cmd_serve.py ``CatalogSpeech``, from the command
line's catalogs: cli/messages/*.json): a table's in its locale's language, the lobby's
in the server's ``--locale`` or else the visitor's ``Accept-Language``. A page's
``{fields}`` are filled in by its script, a refusal's by the server."""
from __future__ import annotations

import re

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
    "your_picks": "Your choice (everyone chooses at once); chosen so far: {items}.",
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
    "choose": "Choose: {verb}",
    "since_last": "Since your last move",
    "since_start": "Since the game began",
    "latest": "Latest moves",
    "earlier": "… and {count} before",
    "key": "Key:",
    "rolled": "{player} rolled {values}",
    "tie_broken": "Tie broken at random: {values}",
    "drawn": "Drawn at random: {values}",
    "and_last": "{values} and {last}",
    "hidden": "(hidden)",
    "empty": "empty",
    "count_hidden": "hidden: {count}",
    "refused": "The move was refused ({status}).",
    "unreachable": "The server could not be reached; try again.",
    "reconnecting": "Reconnecting…",
}

LOBBY: dict[str, str] = {
    "lobby_title": "Meeple — start a table",
    "start_heading": "Start a table",
    "game": "Game",
    "players": "Players",
    "variants": "Variants",
    "seats": "Seats",
    "seat": "Seat {seat}",
    "start": "Start the table",
    "links": "Links",
    "give_links": "Give each player their seat's link: whoever holds it plays that seat.",
    "link_seat": "{title}, seat {seat} ({who}): ",
    "spectators": "Spectators: ",
    "not_started": "The table could not be started.",
    "needs_script": "This page needs JavaScript.",
}

#: why a move is refused, by its ``error`` code (docs/web.md)
REFUSALS: dict[str, str] = {
    "not_json": 'The body is not JSON; send an object with one key, "move": the notation.',
    "bad_body": 'Send an object with one key only, "move": the notation, a string.',
    "notation_length": "The notation must have 1 to {max} characters.",
    "too_large": "The request is too large (at most {max} bytes).",
    "content_type": "Send the move as JSON: Content-Type: application/json.",
    "spectator": "A spectator cannot move.",
    "bot_seat": "A bot plays this seat.",
    "game_over": "The game is over.",
    "not_your_turn": "It is not your turn to move.",
    "illegal": "'{notation}' is not one of your legal moves now.",
    "rules_fail": "This move makes the rules fail (an error in the ruleset); the game is as it was.",
    "move_taken": "Another move was made first; look at the game again.",
    "record_not_yet": "The record can be downloaded once the game is over.",
}


class Speech:
    """The server's words in a language: English here (a server given no translations);
    ``meeple serve`` gives one that reads the command line's catalogs."""

    def languages(self) -> list[str]:
        """The language codes it speaks."""
        return ["en"]

    def table_language(self, prog) -> str | None:
        """The language of a table's ruleset (a Program); None for English."""
        return None

    def locale_language(self, locale: str | None) -> str | None:
        """The language of a locale (``--locale``), if it speaks it."""
        return None

    def say(self, lang: str | None, text: str) -> str:
        """An English sentence in ``lang``."""
        return text

    def words(self, lang: str | None, texts: dict[str, str]) -> dict[str, str]:
        return {key: self.say(lang, text) for key, text in texts.items()}

    def accepted(self, header: str | None) -> str | None:
        """The language of an ``Accept-Language`` header it speaks, the most wanted first;
        None (English) when it speaks none of them."""
        spoken = set(self.languages())
        best: tuple[float, int, str] | None = None
        for place, part in enumerate((header or "")[:1000].split(",")):
            found = re.fullmatch(r"\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*",
                                 part)
            if found is None or found.group(1).lower() not in spoken:
                continue
            q = float(found.group(2)) if found.group(2) else 1.0
            if q > 0 and (best is None or (q, -place) > (best[0], best[1])):
                best = (q, -place, found.group(1).lower())
        return None if best is None or best[2] == "en" else best[2]


english = Speech()


def fill(text: str, **fields) -> str:
    """``text`` with its ``{field}`` placeholders filled in (other braces kept)."""
    return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), text)
