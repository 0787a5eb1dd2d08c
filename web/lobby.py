"""The lobby: a page, behind its own secret link, to start new tables. It offers the
bundled rulesets and those of ``--rulesets DIR``, each by a name from that list: the
server never opens a path a visitor names. A new table's links are given to whoever
started it, and to nobody else."""
from __future__ import annotations

import secrets
from pathlib import Path

from .. import interpreter
from ..dsl import files
from ..dsl.load import read_sources, resolve_path
from ..interpreter import BotSpecError, parse_spec
from ..interpreter.bots import describe
from .tables import TOKEN_BYTES, Table, Tables

MAX_VARIANTS = 16
HUMAN = "human"


class LobbyError(ValueError):
    """A request to start a table that cannot be met; the message says why."""


class Lobby:
    def __init__(self, tables: Tables, folder: Path | None = None):
        self.tables = tables
        self.token = secrets.token_urlsafe(TOKEN_BYTES)
        self.sources: dict[str, str] = {name: name for name in files.bundled_names()}
        if folder is not None:
            for path in sorted(folder.iterdir()):
                if path.is_dir() or path.suffix == ".meeple":
                    self.sources.setdefault(path.stem, str(path.resolve()))
        self._catalog: list[dict] | None = None

    def catalog(self) -> list[dict]:
        """The rulesets offered, each with its title, player counts and variants (those
        that do not load are left out)."""
        if self._catalog is None:
            found = []
            for name, source in self.sources.items():
                try:
                    ruleset = interpreter.load(source)
                    variants = sorted(read_sources(resolve_path(source)).variants)
                except (OSError, ValueError, interpreter.MeepleError, interpreter.RuleError):
                    continue
                found.append({"name": name, "title": ruleset.title,
                              "min_players": ruleset.min_players,
                              "max_players": ruleset.max_players,
                              "default_players": ruleset.default_players,
                              "variants": variants})
            self._catalog = found
        return self._catalog

    def document(self) -> dict:
        return {"format": "meeple-web-lobby/1", "rulesets": self.catalog(),
                "bots": [HUMAN] + [b["name"] for b in describe()]}

    def start(self, body) -> Table:
        """A new table from a request ``{"ruleset", "players", "variants", "seats"}``
        (seats: one entry per seat, "human" or a bot spec). LobbyError when it cannot be."""
        if not isinstance(body, dict) or not set(body) <= {"ruleset", "players", "variants", "seats"}:
            raise LobbyError('send {"ruleset": NAME, "players": N, "variants": [...], '
                             '"seats": ["human", "random", ...]}')
        entry = next((e for e in self.catalog() if e["name"] == body.get("ruleset")), None)
        if entry is None:
            raise LobbyError("no such ruleset here; choose one the lobby lists")
        players = body.get("players", entry["default_players"])
        if not isinstance(players, int) or isinstance(players, bool) \
                or not entry["min_players"] <= players <= entry["max_players"]:
            raise LobbyError(f"{entry['title']} is played by {entry['min_players']} to "
                             f"{entry['max_players']} players")
        variants = body.get("variants", [])
        if not isinstance(variants, list) or len(variants) > MAX_VARIANTS \
                or not all(isinstance(v, str) for v in variants) \
                or not set(variants) <= set(entry["variants"]) or len(set(variants)) != len(variants):
            raise LobbyError(f"the variants are a list of {', '.join(entry['variants']) or 'none'}")
        bots = _bots(body.get("seats", [HUMAN] * players), players)
        source = self.sources[entry["name"]]
        ruleset = interpreter.load(source, variants=variants)
        return self.tables.create(source, ruleset, players, variants, None,
                                  secrets.randbits(63), bots)


def _bots(seats, players: int) -> dict[int, str]:
    if not isinstance(seats, list) or len(seats) != players \
            or not all(isinstance(s, str) and len(s) <= 200 for s in seats):
        raise LobbyError(f"seats: one entry per seat ({players}), each \"human\" or a bot")
    bots = {}
    for seat, spec in enumerate(seats):
        if spec == HUMAN:
            continue
        try:
            parse_spec(spec)
        except BotSpecError as e:
            raise LobbyError(f"seat {seat + 1}: {e}") from None
        bots[seat] = spec
    return bots
