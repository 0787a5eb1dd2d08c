"""Game records: the ruleset, the options, the seed and the moves (in notation).

A record replays exactly, because all randomness comes from the seeded generator in
the game state. Records are validated against ``docs/schema/record.schema.json`` and
then for meaning (``from_dict``); a bad record is one ``RecordError`` whose message
starts ``invalid record at <json path>: ...``.

A choice of a simultaneous decision is written after its seat (``p2: bid 4``, see
``Game.move_text``), so that the order in which the seats chose replays exactly.

Format ``meeple-record/2`` adds, after each move, a short digest of the state
(``digests``), so that a replay that diverges stops at the first bad move; a digest of
the ruleset's sources (``ruleset_digest``); and ``secrets``/``note``, saying whether the
record gives away hidden information. Records of format ``meeple-record/1`` (no digests)
are still read.

Saving is atomic and, for a game with hidden information, owner-only: see ``write_atomic``.
Reading refuses special files and files over ``MAX_RECORD_BYTES`` before reading them. (A
game's journal, its moves written as they were made, is read by ``journal.load``.)
"""
from __future__ import annotations

import hashlib
import json
import os
import secrets as _secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from ...dsl import files as dsl_files
from ...dsl.resources import SCHEMA_DIR
from .game import Game
from .runtime import IllegalMove

RECORD_FORMAT = "meeple-record/2"
OLD_FORMATS = ("meeple-record/1",)
SCHEMA_PATH = SCHEMA_DIR / "record.schema.json"

MAX_RECORD_BYTES = 64 * 1024 * 1024   # a record file larger than this is refused unread
MAX_MOVES = 1_000_000
MAX_MOVE_TEXT = 1_000                 # characters in one move's notation
MAX_NAME = 4_096                      # a ruleset name or path, a variant, a locale, a seat
MAX_PLAYERS = 1_000
SEED_LIMIT = 2 ** 128                 # |seed| < SEED_LIMIT
DIGEST_HEX = 16                       # per-move digests: the first 64 bits of SHA-256

SECRETS_NOTE = ("This record holds every hidden card of the game (its seed and moves decide "
                "them): keep it from the players until the game is over.")

_SHORT_TEXT = {"type": "string", "maxLength": MAX_NAME}

RECORD_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://meeple.dev/schema/record.schema.json",
    "title": "Meeple game record",
    "description": "A game of a Meeple ruleset: options, seed and every move, in notation. "
                   "Replaying the moves from the seed reaches the same state. Numbers are "
                   "integers (never 3.0 or true). Format meeple-record/1 (no digests) is "
                   "still read.",
    "type": "object",
    "required": ["format", "ruleset", "players", "seed", "moves"],
    "additionalProperties": False,
    "properties": {
        "format": {"enum": [RECORD_FORMAT, *OLD_FORMATS]},
        "ruleset": {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
                    "description": "a bundled ruleset name, or the path it was played from "
                                   "(never opened as given: replay it with --ruleset PATH)"},
        "ruleset_digest": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                           "description": "SHA-256 of the ruleset's source files"},
        "variants": {"type": "array", "items": _SHORT_TEXT, "maxItems": 256, "default": []},
        "locale": {"type": ["string", "null"], "maxLength": MAX_NAME, "default": None},
        "players": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
        "seed": {"type": "integer", "minimum": -SEED_LIMIT + 1, "maximum": SEED_LIMIT - 1},
        "moves": {"type": "array", "maxItems": MAX_MOVES,
                  "items": {"oneOf": [
                      {"type": "string", "maxLength": MAX_MOVE_TEXT},
                      {"type": "object", "required": ["chance"], "additionalProperties": False,
                       "properties": {"chance": {"type": "string", "maxLength": MAX_MOVE_TEXT}},
                       "description": "a chance outcome set in explicit chance mode, in "
                                      "notation"}]},
                  "description": "each move's exact notation (it may be empty); a choice "
                                 "of a simultaneous decision may follow its seat: 'p2: bid 4' "
                                 "(without it, the first seat still to choose); in explicit "
                                 "chance mode each chance outcome as {\"chance\": notation}"},
        "chance": {"enum": ["seeded", "explicit"], "default": "seeded",
                   "description": "how chance steps were resolved: by the seeded generator "
                                  "(the default), or set one by one (explicit: recorded among "
                                  "the moves)"},
        "digests": {"type": "array", "maxItems": MAX_MOVES,
                    "items": {"type": "string", "pattern": f"^[0-9a-f]{{{DIGEST_HEX}}}$"},
                    "description": "after each move, the first 64 bits of the SHA-256 of "
                                   "the state (checked on replay)"},
        "seats": {"type": "array", "items": _SHORT_TEXT, "maxItems": MAX_PLAYERS,
                  "description": "who played each seat (human, random...)"},
        "secrets": {"type": "boolean",
                    "description": "true when the game has hidden information: the record "
                                   "then gives it away (and is written owner-only)"},
        "note": {"type": "string", "maxLength": MAX_NAME,
                 "description": "for people: what the record holds, how to resume it"},
        "result": {"type": ["object", "null"],
                   "description": "the result when the game ended (checked on replay)"},
        "state_digest": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                         "description": "SHA-256 of the final state JSON (checked on replay)"},
    },
}


class RecordError(Exception):
    """A record that cannot be read, is invalid, or does not replay."""

    code = "record/invalid"


class SaveError(Exception):
    """A file could not be written (the old file, if any, is left as it was)."""

    code = "record/save"


_VALIDATOR = None


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        from .state import strict_validator  # (the schema checker: only records read need it)
        _VALIDATOR = strict_validator(RECORD_SCHEMA)
    return _VALIDATOR


def printable(text: str, limit: int = 80) -> str:
    """A text from a record as it may be shown: control characters escaped, cut short."""
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return out if len(out) <= limit else out[: limit - 1] + "…"


@dataclass
class Record:
    ruleset: str
    players: int
    seed: int
    variants: list[str]
    locale: str | None
    moves: list  # notations; in explicit chance mode also {"chance": notation}
    seats: list[str] | None = None
    result: dict | None = None
    state_digest: str | None = None
    digests: list[str] | None = None
    ruleset_digest: str | None = None
    secrets: bool | None = None
    note: str | None = None
    format: str = RECORD_FORMAT
    chance: str | None = None  # "explicit": chance outcomes are among the moves
    recovered: str | None = None  # read from a journal: what was left out (never saved)

    def to_dict(self) -> dict:
        d = {"format": RECORD_FORMAT, "ruleset": self.ruleset, "variants": self.variants,
             "locale": self.locale, "players": self.players, "seed": self.seed, "moves": self.moves}
        if self.chance and self.chance != "seeded":
            d["chance"] = self.chance
        if self.ruleset_digest:
            d["ruleset_digest"] = self.ruleset_digest
        if self.digests is not None and len(self.digests) == len(self.moves):
            d["digests"] = self.digests
        if self.secrets is not None:
            d["secrets"] = self.secrets
        if self.note:
            d["note"] = self.note
        if self.seats:
            d["seats"] = self.seats
        if self.result is not None:
            d["result"] = self.result
        if self.state_digest:
            d["state_digest"] = self.state_digest
        return d

    def save(self, path: str | Path) -> None:
        """Writes the record atomically; owner-only when it holds secrets. Raises SaveError."""
        text = json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"
        write_atomic(path, text.encode("utf-8"), private=self.secrets is not False)


# ---------------------------------------------------------------- digests

def digest(game: Game) -> str:
    """SHA-256 of the game's state, without the count of log messages no longer kept
    (``log_dropped``: it follows from the moves, and leaving it out keeps the digests of
    records saved before it was counted) nor which zones each seat is unsure of
    (``unsure``: it follows from the moves too), and with the result as it was written before
    outcomes and ranks were added (they follow from the state too)."""
    state = game.state  # a new dict on each call: dropping a key changes nothing else
    state.pop("log_dropped", None)
    state.pop("unsure", None)
    if state.get("result"):
        state["result"] = _legacy_result(state["result"])
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


_RESULT_FACTS = ("scores", "tiebreaks", "ranking")


def _legacy_result(res: dict) -> dict:
    """The result's first form: scores, tiebreaks, ranking, and the first group as winners."""
    old = {k: res[k] for k in _RESULT_FACTS}
    old["winners"] = res["ranking"][0] if res["ranking"] else []
    return old


def _same_result(recorded: dict, got: dict) -> bool:
    """Whether a replayed game's result is the recorded one. A record written before
    outcomes existed has no ``outcomes`` and counted a draw as everyone's win: its
    ``winners`` is then not compared (the ranking it follows from is)."""
    keys = [k for k in recorded if k != "winners" or "outcomes" in recorded]
    return all(k in got and got[k] == recorded[k] for k in keys)


def short_digest(game: Game) -> str:
    """The per-move digest: 64 bits are plenty to notice a divergence, and keep records small
    (about 0.15 ms a move on the bundled games, a third to a half of a random move's cost)."""
    return digest(game)[:DIGEST_HEX]


def ruleset_digest(program) -> str | None:
    """SHA-256 of a ruleset's source files (names relative to its folder, and texts)."""
    src = getattr(program, "sources", None)
    files = getattr(src, "sources", None)
    if not files:
        return None
    named = []
    for path, text in files.items():
        p = Path(path)
        name = f"{p.parent.name}/{p.name}" if p.parent.name in ("variants", "locales") else p.name
        named.append([name, text])
    return hashlib.sha256(json.dumps(sorted(named), ensure_ascii=False).encode()).hexdigest()


def complete(rec: Record, program) -> Record:
    """Fills what a record learns from replaying it: a digest after every move, the final
    digest and result, the ruleset digest and whether it holds secrets. Raises RecordError
    when the moves do not replay."""
    digests: list[str] = []
    game = replay(program, Record(rec.ruleset, rec.players, rec.seed, rec.variants, rec.locale,
                                  rec.moves, chance=rec.chance),
                  after_move=lambda g: digests.append(short_digest(g)))
    rec.digests = digests
    rec.state_digest = digest(game)
    rec.result = game.result if game.over else None
    rec.ruleset_digest = ruleset_digest(program) or rec.ruleset_digest
    rec.secrets = program.hidden_information
    return rec


def resume_command(rec: Record, path: str | Path) -> str:
    """The command that continues the game of a record saved at ``path``."""
    from ...dsl.load import bundled_names
    extra = "" if rec.ruleset in bundled_names() else " --ruleset PATH"
    return f"meeple play --resume {path}{extra}"


def describe(rec: Record, path: str | Path, finished: bool) -> str:
    """The human note of a saved record."""
    parts = [SECRETS_NOTE] if rec.secrets else []
    if not finished:
        parts.append(f"The game is not over: continue it with '{resume_command(rec, path)}'.")
    return " ".join(parts)


# ---------------------------------------------------------------- reading

def from_dict(data) -> Record:
    from .state import best_match
    err = best_match(_validator().iter_errors(data))
    if err is not None:
        where = "/".join(str(x) for x in err.absolute_path) or "the record"
        raise RecordError(f"invalid record at {where}: {printable(err.message, 200)}")
    _check_meaning(data)
    return Record(data["ruleset"], data["players"], data["seed"], list(data.get("variants", [])),
                  data.get("locale"), list(data["moves"]), data.get("seats"), data.get("result"),
                  data.get("state_digest"), data.get("digests"), data.get("ruleset_digest"),
                  data.get("secrets"), data.get("note"), data["format"], data.get("chance"))


def _check_meaning(data: dict) -> None:
    def bad(where, message):
        raise RecordError(f"invalid record at {where}: {message}")

    if data.get("chance", "seeded") == "seeded":
        for k, m in enumerate(data["moves"]):
            if not isinstance(m, str):
                bad(f"moves/{k}", "a chance outcome in a record whose chance is not 'explicit'")
    if "digests" in data and len(data["digests"]) != len(data["moves"]):
        bad("digests", f"{len(data['digests'])} digests for {len(data['moves'])} moves")
    if data.get("seats") is not None and len(data["seats"]) != data["players"]:
        bad("seats", f"{len(data['seats'])} seats for {data['players']} players")
    where = _bad_text(data, "")
    if where is not None:
        bad(where or "the record", "a text that is not valid Unicode (a lone surrogate)")


def _bad_text(value, path: str):
    """The path of a string that cannot be written as UTF-8 (a lone surrogate), or None."""
    stack = [(value, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return p
        elif isinstance(v, dict):
            stack.extend((x, f"{p}/{k}".lstrip("/")) for k, x in v.items())
            stack.extend((k, p) for k in v)
        elif isinstance(v, list):
            stack.extend((x, f"{p}/{i}".lstrip("/")) for i, x in enumerate(v))
    return None


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of a record file (``dsl.files.read_regular_file``); RecordError if refused."""
    try:
        return dsl_files.read_regular_file(path, limit)
    except dsl_files.Refused as e:
        raise RecordError(f"cannot read {path}: {e}") from None


def loads(raw: bytes, name: str = "the record") -> Record:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{name} is not UTF-8 text (byte {e.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{name} is not JSON: line {e.lineno} column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # a 5,000-digit number, deep nesting
        raise RecordError(f"{name} is not a record: {printable(str(e), 120)}") from None
    return from_dict(data)


def load(path: str | Path) -> Record:
    return loads(read_regular_file(path, MAX_RECORD_BYTES), str(path))


# ---------------------------------------------------------------- replaying

def check_program(program, rec: Record) -> None:
    """The record's game fits the program: players, variants and locale."""
    lo = getattr(program, "min_players", rec.players)
    hi = getattr(program, "max_players", rec.players)
    if not lo <= rec.players <= hi:
        raise RecordError(f"{program.title} is for {lo} to {hi} players, the record has "
                          f"{rec.players}")
    if sorted(program.variants) != sorted(rec.variants):
        raise RecordError(f"the record's variants ({', '.join(rec.variants) or 'none'}) are not "
                          f"the program's ({', '.join(program.variants) or 'none'})")
    if (program.locale or None) != (rec.locale or None):
        raise RecordError(f"the record's locale ({rec.locale or 'none'}) is not the "
                          f"program's ({program.locale or 'none'})")


def replay(program, rec: Record, on_move=None, after_move=None) -> Game:
    """Replays a record move by move; ``on_move(game, move)`` is called before each and
    ``after_move(game)`` after (a chance outcome, ``{"chance": notation}``, is set with
    ``apply_chance``: ``after_move`` only). With per-move digests, a replay that diverges stops at
    the first move whose state differs from the recorded one."""
    check_program(program, rec)
    try:
        if rec.chance and rec.chance != "seeded":
            game = program.new_game(rec.players, rec.seed, chance=rec.chance)
        else:
            game = program.new_game(rec.players, rec.seed)
    except ValueError as e:
        raise RecordError(str(e)) from None
    digests = rec.digests if rec.digests is not None and len(rec.digests) == len(rec.moves) else None
    for i, m in enumerate(rec.moves, 1):
        if isinstance(m, dict):
            _replay_chance(game, i, m["chance"])
            if after_move:
                after_move(game)
            if digests is not None and short_digest(game) != digests[i - 1]:
                raise RecordError(f"chance outcome {i} '{printable(m['chance'])}': the replayed "
                                  f"state differs from the recorded one")
            continue
        shown = printable(m)
        if game.over:
            raise RecordError(f"move {i} '{shown}' comes after the end of the game")
        if on_move:
            on_move(game, m)
        try:
            game.apply(m)
        except IllegalMove as e:
            raise RecordError(f"move {i} '{shown}' is illegal: {e}") from None
        if after_move:
            after_move(game)
        if digests is not None and short_digest(game) != digests[i - 1]:
            raise RecordError(f"move {i} '{shown}': the replayed state differs from the "
                              f"recorded one")
    if rec.state_digest and digest(game) != rec.state_digest:
        raise RecordError("the replayed game does not reach the recorded final state")
    if rec.result is not None and not _same_result(rec.result, game.result):
        raise RecordError("the replayed game does not reach the recorded result")
    return game


def _replay_chance(game: Game, i: int, outcome: str) -> None:
    shown = printable(outcome)
    if game.over:
        raise RecordError(f"chance outcome {i} '{shown}' comes after the end of the game")
    try:
        game.apply_chance(outcome)
    except IllegalMove as e:
        raise RecordError(f"chance outcome {i} '{shown}' cannot be set: {e}") from None


def entry(played) -> str | dict:
    """How a record writes what was just played: a Move's notation, or a chance Outcome
    as ``{"chance": notation}``."""
    from .runtime import Outcome
    return {"chance": played.notation} if isinstance(played, Outcome) else played.notation


# ---------------------------------------------------------------- writing

def write_atomic(path: str | Path, data: bytes, private: bool = True) -> None:
    """Writes a file so that it is either the old one or the new one, never a part:
    a temp file beside the target (created owner-only when ``private``, never widened
    after), write, flush, fsync, ``os.replace``, fsync of the folder. Raises SaveError."""
    path = Path(path)
    _regular_or_none(path)
    folder = path.parent if str(path.parent) else Path(".")
    tmp = folder / f".{path.name}.{_secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(tmp, flags, 0o600 if private else 0o666)
    except OSError as e:
        raise SaveError(f"cannot save {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        _regular_or_none(path)   # (again: it may have been made meanwhile)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise SaveError(f"cannot save {path}: {e.strerror or e}") from None
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is done all the same
    finally:
        os.close(fd)


def _regular_or_none(path: Path) -> None:
    """Raises SaveError when a file that is no regular file (a device such as /dev/null,
    a fifo, a folder) stands at ``path``: replacing it would destroy it (as root, /dev/null
    itself). A symbolic link is replaced as a link, as before."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise SaveError(f"cannot save {path}: it is {dsl_files.kind_of(st.st_mode)}, "
                        "not a regular file")


def check_target(path: str | Path, overwrite: bool) -> str | None:
    """Why a record cannot be saved at ``path`` (None when it can): its folder must exist
    and be writable, it must not be a special file, and an existing file is kept unless
    ``overwrite``. Checked by creating (and removing) a file beside it."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        return f"cannot use {path}: {e.strerror or e}"
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            try:
                st = os.stat(path)
            except OSError:
                return f"{path} is a broken symbolic link"
        if not stat.S_ISREG(st.st_mode):
            return f"{path} is {dsl_files.kind_of(st.st_mode)}, not a regular file"
        if not overwrite:
            return f"{path} already exists; use --force to overwrite it"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    probe = folder / f".{path.name}.{_secrets.token_hex(6)}.probe"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot write in the folder {folder}: {e.strerror or e}"
    return None


def free_path(path: str | Path) -> Path:
    """``path``, or ``name-2.json``, ``name-3.json``... when it exists: never overwrite."""
    path = Path(path)
    k = 2
    candidate = path
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
        k += 1
    return candidate
