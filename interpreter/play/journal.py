"""A game's journal: its record written as the game is played, one move a line, each
line flushed to the disk (fsync) before the game goes on. A game whose process dies
without saving (``kill -9``, a crash, a power cut) can then be replayed and continued up
to its last move: ``load`` reads a journal as the record it stands for (and a record as
``record.load`` does).

The format (``meeple-journal/1``) is JSON lines::

    {"format": "meeple-journal/1", "record": {...a record, with the moves made before...}}
    {"move": "sow 3", "digest": "0123456789abcdef"}
    {"undo": 2}

The first line is a record (``meeple-record/2``: ruleset, options, seed, seats, the moves
already made when the journal began, their digests); each next line is a move, with the
64-bit digest of the state after it, or ``{"undo": N}``: the last N moves were taken back.
A last line cut short (no line break at its end: the process died while writing it) is
left out, and the record read says so in ``Record.recovered``; any other bad line is a
``RecordError`` naming it.

A journal holds the seed, like a record: for a game with hidden information it is
written owner-only, never widened. Each line is written with one ``write`` on a file
opened for appending, then fsynced.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from . import record as records

JOURNAL_FORMAT = "meeple-journal/1"
SUFFIX = ".journal"
_DIGEST = re.compile(f"[0-9a-f]{{{records.DIGEST_HEX}}}")

NOTE = ("This journal holds the seed and the moves of a game as they were made (like a "
        "record, it gives every hidden card away): continue the game with 'meeple play "
        "--resume {path}' or replay it with 'meeple replay {path}'.")


def path_for(target: str | Path) -> Path:
    """The journal of the record to be saved at ``target``: ``target`` + ``.journal``."""
    target = Path(target)
    return target.with_name(target.name + SUFFIX)


def target_of(path: str | Path) -> Path:
    """The record a journal stands for: its path without ``.journal`` (a file named
    otherwise is its own)."""
    path = Path(path)
    return path.with_name(path.name[: -len(SUFFIX)]) if path.name.endswith(SUFFIX) else path


class Journal:
    """A journal being written. ``start`` writes its first line (atomically: an older
    journal at the path stays whole until the new one is); ``move`` and ``undo`` append a
    line each and fsync it. Raises ``record.SaveError`` when it cannot be written."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd = fd

    @classmethod
    def start(cls, path: str | Path, rec: records.Record):
        path = Path(path)
        head = dict(rec.to_dict())
        for key in ("result", "state_digest"):   # (an unfinished game)
            head.pop(key, None)
        head["note"] = NOTE.format(path=path)[: records.MAX_NAME]
        line = json.dumps({"format": JOURNAL_FORMAT, "record": head}, ensure_ascii=False)
        records.write_atomic(path, (line + "\n").encode("utf-8"), private=rec.secrets is not False)
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags)
        except OSError as e:
            raise records.SaveError(f"cannot write {path}: {e.strerror or e}") from None
        return cls(path, fd)

    def move(self, text: str, digest: str) -> None:
        self._line({"move": text, "digest": digest})

    def undo(self, n: int) -> None:
        self._line({"undo": n})

    def _line(self, entry: dict) -> None:
        data = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8", "surrogateescape")
        try:
            os.write(self.fd, data)
            os.fsync(self.fd)
        except OSError as e:
            raise records.SaveError(f"cannot write {self.path}: {e.strerror or e}") from None

    def close(self) -> None:
        """Stops writing; the journal stays (the game may be continued from it)."""
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1

    def remove(self) -> None:
        """The game is saved (or over): the journal is no longer needed."""
        self.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass


# ---------------------------------------------------------------- reading

def load(path: str | Path) -> records.Record:
    """The record in a file: a record, or a journal read as the record it stands for."""
    raw = records.read_regular_file(path, records.MAX_RECORD_BYTES)
    return loads(raw, str(path)) if is_journal(raw) else records.loads(raw, str(path))


def is_journal(raw: bytes) -> bool:
    """Whether a file's bytes are a journal (its first line names the format)."""
    first = raw[: raw.find(b"\n")] if b"\n" in raw else raw
    return b'"meeple-journal/' in first[:200]


def loads(raw: bytes, name: str = "the journal") -> records.Record:
    """The record a journal stands for: its first line's record with the moves after it
    (taken back where an ``undo`` line says so)."""
    lines = raw.split(b"\n")
    torn = lines.pop()   # after the last line break: b"" unless the last line was cut short
    if not lines:
        raise records.RecordError(f"{name} is not a journal: its first line is not whole")
    head = _line(lines[0], name, 1)
    if head.get("format") != JOURNAL_FORMAT or not isinstance(head.get("record"), dict):
        raise records.RecordError(f"invalid journal {name} at line 1: not a {JOURNAL_FORMAT} "
                                  f"header")
    data = dict(head["record"])
    moves = list(data.get("moves") or [])
    digests = data.get("digests", [] if not moves else None)
    digests = list(digests) if isinstance(digests, list) and len(digests) == len(moves) else None
    for k, raw_line in enumerate(lines[1:], 2):
        _apply(_line(raw_line, name, k), moves, digests, name, k)
        if len(moves) > records.MAX_MOVES:
            raise records.RecordError(f"invalid journal {name} at line {k}: more than "
                                      f"{records.MAX_MOVES:,} moves")
    data["moves"] = moves
    if digests is None:
        data.pop("digests", None)
    else:
        data["digests"] = digests
    rec = records.from_dict(data)
    if torn.strip():
        rec.recovered = (f"the last line of {name} was cut short (the game stopped while "
                         f"writing it) and is left out")
    return rec


def _line(raw: bytes, name: str, k: int):
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise records.RecordError(f"invalid journal {name} at line {k}: not UTF-8 text "
                                  f"(byte {e.start})") from None
    except (ValueError, RecursionError) as e:
        raise records.RecordError(f"invalid journal {name} at line {k}: not JSON: "
                                  f"{records.printable(str(e), 120)}") from None
    if not isinstance(value, dict):
        raise records.RecordError(f"invalid journal {name} at line {k}: not a JSON object")
    return value


def _apply(entry: dict, moves: list, digests: list | None, name: str, k: int) -> None:
    """One line after the first: a move (and its digest) or an undo."""
    def bad(message):
        raise records.RecordError(f"invalid journal {name} at line {k}: {message}")

    if set(entry) == {"move", "digest"}:
        if not isinstance(entry["move"], str):
            bad("a move is a text")
        if not isinstance(entry["digest"], str) or not _DIGEST.fullmatch(entry["digest"]):
            bad(f"a digest is {records.DIGEST_HEX} hexadecimal digits")
        moves.append(entry["move"])
        if digests is not None:
            digests.append(entry["digest"])
    elif set(entry) == {"undo"}:
        n = entry["undo"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(moves):
            bad(f"an undo takes back 1 to {len(moves)} moves")
        del moves[len(moves) - n:]
        if digests is not None:
            del digests[len(digests) - n:]
    else:
        bad("a line is {\"move\": ..., \"digest\": ...} or {\"undo\": N}")
