"""Where the tables live: one small layer over the database, so that the rest of the
server never writes SQL. A table is its options (ruleset, players, variants, locale,
seed, bots), its links' tokens and its moves in order, as a record writes them; the game
itself is never stored: a restarted server replays the moves. Each move is committed
before ``add_move`` returns, so a move the server has acknowledged survives ``kill -9``.

SQLite only for now (a file, or ``:memory:``); every statement is here, so that another
database (PostgreSQL, for several server processes) is one more class of this shape."""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

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


class SQLiteStore:
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
            self._db.execute("INSERT INTO moves VALUES (?, ?, ?)", (table_id, number, move))

    def tables(self) -> list[StoredTable]:
        """Every stored table with its links and moves, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, ruleset, players, variants, locale, seed, bots FROM tables "
                "ORDER BY created, id").fetchall()
            links = self._db.execute("SELECT token, table_id, seat FROM links").fetchall()
            moves = self._db.execute(
                "SELECT table_id, move FROM moves ORDER BY table_id, number").fetchall()
        found = {r[0]: StoredTable(r[0], r[1], r[2], json.loads(r[3]), r[4], int(r[5]),
                                   {int(s): b for s, b in json.loads(r[6]).items()})
                 for r in rows}
        for token, table_id, seat in links:
            found[table_id].links[token] = seat
        for table_id, move in moves:
            found[table_id].moves.append(move)
        return list(found.values())

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_store(db: str | Path) -> SQLiteStore:
    """The store a ``--db`` names: a SQLite file (or ``:memory:``)."""
    text = str(db)
    if "://" in text:
        raise ValueError(f"--db {text}: only a SQLite file is supported for now")
    return SQLiteStore(text)
