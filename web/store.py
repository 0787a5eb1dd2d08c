"""Where the tables live: one small layer over the database, so that the rest of the
server never writes SQL. A table is its options (ruleset, players, variants, locale,
seed, bots), its links' tokens and its moves in order, as a record writes them; the game
itself is never stored: a restarted server replays the moves. Each move is committed
before ``add_move`` returns, so a move the server has acknowledged survives ``kill -9``.

Two stores of one shape: SQLite (a file, or ``:memory:``) and PostgreSQL (``--db
postgresql://...``, with the ``postgres`` extra), which several server processes can
share: a move number is taken once (``MoveTaken`` for the second writer), and each
process catches up with the moves the others stored (``moves_from``)."""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL,
    variants TEXT NOT NULL,
    locale TEXT,
    seed TEXT NOT NULL,
    bots TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""

SPECTATOR = -1   # the seat of a spectator's link


class MoveTaken(Exception):
    """The move number was stored already, by another writer: catch up and look again."""


@dataclass
class StoredTable:
    """A table as stored: its options, its links (token -> seat, -1 the spectator's)
    and its moves, in order."""
    id: str
    ruleset: str
    players: int
    variants: list[str]
    locale: str | None
    seed: int
    bots: dict[int, str]          # seat (0-based) -> bot spec
    links: dict[str, int] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)


class _Reads:
    """What both stores read the same way, through their ``_query``."""
    _db: Any
    _lock: threading.Lock

    def _query(self, sql: str, args: tuple = ()) -> list:
        raise NotImplementedError

    def tables(self) -> list[StoredTable]:
        return read_tables(self._query)

    def moves_from(self, table_id: str, start: int) -> list[str]:
        return moves_from(self._query, table_id, start)

    def table_with_token(self, token: str) -> StoredTable | None:
        return table_with_token(self._query, token)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class SQLiteStore(_Reads):
    """The tables in one SQLite file, written in WAL mode with full synchronisation:
    a committed move is on disk."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)

    def create(self, table: StoredTable) -> None:
        """Stores a new table with its links (and no moves), in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, table.ruleset, table.players, json.dumps(table.variants),
                 table.locale, str(table.seed),
                 json.dumps({str(s): b for s, b in table.bots.items()}), time.time()))
            self._db.executemany("INSERT INTO links VALUES (?, ?, ?)",
                                 [(t, table.id, s) for t, s in table.links.items()])
            self._db.execute("COMMIT")

    def add_move(self, table_id: str, number: int, move: str) -> None:
        """Appends move ``number`` (from 0) of a table, committed when this returns; a
        number already taken is an ``sqlite3.IntegrityError`` (two writers)."""
        with self._lock:
            try:
                self._db.execute("INSERT INTO moves VALUES (?, ?, ?)", (table_id, number, move))
            except sqlite3.IntegrityError:
                raise MoveTaken(number) from None

    def add_moves(self, rows: list[tuple[str, int, str]]) -> list[bool]:
        """Stores several moves (table id, number, move) in one transaction, so one sync
        to disk; for each, whether it was stored (False: its number was taken)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT INTO moves VALUES (?, ?, ?)", rows)
                self._db.execute("COMMIT")
                return [True] * len(rows)
            except sqlite3.IntegrityError:
                self._db.execute("ROLLBACK")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return [_stored(self.add_move, row) for row in rows]   # each alone

    def _query(self, sql: str, args: tuple = ()) -> list:
        with self._lock:
            return self._db.execute(sql.replace("%s", "?"), args).fetchall()


def _stored(add_move, row: tuple[str, int, str]) -> bool:
    try:
        add_move(*row)
        return True
    except MoveTaken:
        return False


_TABLES = "SELECT id, ruleset, players, variants, locale, seed, bots FROM tables"


def read_tables(query, where: str = "", args: tuple = ()) -> list[StoredTable]:
    """The stored tables (those ``where`` selects) with their links and moves, oldest
    first; ``query(sql, args)`` runs a statement written with %s placeholders."""
    rows = query(f"{_TABLES} {where} ORDER BY created, id", args)
    found = {r[0]: StoredTable(r[0], r[1], r[2], json.loads(r[3]), r[4], int(r[5]),
                               {int(s): b for s, b in json.loads(r[6]).items()})
             for r in rows}
    if not found:
        return []
    marks = ", ".join(["%s"] * len(found))
    for token, table_id, seat in query(
            f"SELECT token, table_id, seat FROM links WHERE table_id IN ({marks})", tuple(found)):
        found[table_id].links[token] = seat
    for table_id, move in query(f"SELECT table_id, move FROM moves WHERE table_id IN ({marks}) "
                                "ORDER BY table_id, number", tuple(found)):
        found[table_id].moves.append(move)
    return list(found.values())


def moves_from(query, table_id: str, start: int) -> list[str]:
    """A table's stored moves from number ``start`` on, in order."""
    return [m for (m,) in query("SELECT move FROM moves WHERE table_id = %s AND number >= %s "
                                "ORDER BY number", (table_id, start))]


def table_with_token(query, token: str) -> StoredTable | None:
    """The table one of whose links has this token (None when none has)."""
    found = read_tables(query, "WHERE id IN (SELECT table_id FROM links WHERE token = %s)",
                        (token,))
    return found[0] if found else None


class PostgresStore(_Reads):
    """The tables in a PostgreSQL database (``postgresql://...``), which several server
    processes may share. Every statement commits at once (autocommit)."""

    def __init__(self, url: str):
        import psycopg
        self._errors = psycopg.errors
        self._db = psycopg.connect(url, autocommit=True)
        self._lock = threading.Lock()
        with self._lock:
            for statement in SCHEMA.replace("created REAL", "created DOUBLE PRECISION").split(";"):
                if statement.strip():
                    self._db.execute(statement)

    def create(self, table: StoredTable) -> None:
        with self._lock, self._db.transaction():
            self._db.execute(
                "INSERT INTO tables VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (table.id, table.ruleset, table.players, json.dumps(table.variants),
                 table.locale, str(table.seed),
                 json.dumps({str(s): b for s, b in table.bots.items()}), time.time()))
            for token, seat in table.links.items():
                self._db.execute("INSERT INTO links VALUES (%s, %s, %s)", (token, table.id, seat))

    def add_move(self, table_id: str, number: int, move: str) -> None:
        with self._lock:
            try:
                self._db.execute("INSERT INTO moves VALUES (%s, %s, %s)", (table_id, number, move))
            except self._errors.UniqueViolation:
                raise MoveTaken(number) from None

    def add_moves(self, rows: list[tuple[str, int, str]]) -> list[bool]:
        """As SQLiteStore.add_moves: one transaction, else each alone."""
        try:
            with self._lock, self._db.transaction(), self._db.cursor() as cursor:
                cursor.executemany("INSERT INTO moves VALUES (%s, %s, %s)", rows)
            return [True] * len(rows)
        except self._errors.UniqueViolation:
            return [_stored(self.add_move, row) for row in rows]

    def _query(self, sql: str, args: tuple = ()) -> list:
        with self._lock:
            return self._db.execute(sql, args).fetchall()   # type: ignore[arg-type]


Store = SQLiteStore | PostgresStore


def open_store(db: str | Path) -> Store:
    """The store a ``--db`` names: ``postgresql://...`` (or ``postgres://``), else a
    SQLite file (or ``:memory:``)."""
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise ValueError("a PostgreSQL database needs psycopg: pip install "
                             "'meeple[postgres]'") from None
        return PostgresStore(text)
    if "://" in text:
        raise ValueError("a database is a SQLite file or a postgresql:// URL")
    return SQLiteStore(text)
