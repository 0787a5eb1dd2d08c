"""Game records: the ruleset, the options, the seed and the moves (in notation).

A record replays exactly, because all randomness comes from the seeded generator in
the game state. Records are validated against ``docs/schema/record.schema.json``.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from .runtime import Game, IllegalMove

RECORD_FORMAT = "meeple-record/1"
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "schema" / "record.schema.json"

RECORD_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://meeple.dev/schema/record.schema.json",
    "title": "Meeple game record",
    "description": "A game of a Meeple ruleset: options, seed and every move, in notation. "
                   "Replaying the moves from the seed reaches the same state.",
    "type": "object",
    "required": ["format", "ruleset", "players", "seed", "moves"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": RECORD_FORMAT},
        "ruleset": {"type": "string", "minLength": 1,
                    "description": "a bundled ruleset name or a path to a ruleset"},
        "variants": {"type": "array", "items": {"type": "string"}, "default": []},
        "locale": {"type": ["string", "null"], "default": None},
        "players": {"type": "integer", "minimum": 1},
        "seed": {"type": "integer"},
        "moves": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "seats": {"type": "array", "items": {"type": "string"},
                  "description": "who played each seat (human, random...)"},
        "result": {"type": ["object", "null"],
                   "description": "the result when the game ended (checked on replay)"},
        "state_digest": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                         "description": "SHA-256 of the final state JSON (checked on replay)"},
    },
}


class RecordError(Exception):
    code = "record/invalid"


@dataclass
class Record:
    ruleset: str
    players: int
    seed: int
    variants: list[str]
    locale: str | None
    moves: list[str]
    seats: list[str] | None = None
    result: dict | None = None
    state_digest: str | None = None

    def to_dict(self) -> dict:
        d = {"format": RECORD_FORMAT, "ruleset": self.ruleset, "variants": self.variants,
             "locale": self.locale, "players": self.players, "seed": self.seed, "moves": self.moves}
        if self.seats:
            d["seats"] = self.seats
        if self.result is not None:
            d["result"] = self.result
        if self.state_digest:
            d["state_digest"] = self.state_digest
        return d

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")


def digest(game: Game) -> str:
    return hashlib.sha256(game.to_json().encode()).hexdigest()


def from_dict(data) -> Record:
    try:
        jsonschema.validate(data, RECORD_SCHEMA)
    except jsonschema.ValidationError as e:
        where = "/".join(str(x) for x in e.absolute_path) or "the record"
        raise RecordError(f"invalid record at {where}: {e.message}") from None
    return Record(data["ruleset"], data["players"], data["seed"], data.get("variants", []),
                  data.get("locale"), data["moves"], data.get("seats"), data.get("result"),
                  data.get("state_digest"))


def load(path: str | Path) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not JSON: line {e.lineno} column {e.colno}: {e.msg}") from None
    return from_dict(data)


def replay(program, rec: Record, on_move=None) -> Game:
    """Replays a record move by move; ``on_move(game, move)`` is called before each."""
    game = program.new_game(rec.players, rec.seed)
    for i, m in enumerate(rec.moves, 1):
        if game.over:
            raise RecordError(f"move {i} '{m}' comes after the end of the game")
        if on_move:
            on_move(game, m)
        try:
            game.apply(m)
        except IllegalMove as e:
            raise RecordError(f"move {i} '{m}' is illegal: {e}") from None
    if rec.state_digest and digest(game) != rec.state_digest:
        raise RecordError("the replayed game does not reach the recorded final state")
    if rec.result is not None and game.result != rec.result:
        raise RecordError("the replayed game does not reach the recorded result")
    return game
