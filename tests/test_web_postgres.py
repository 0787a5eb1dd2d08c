"""The web table on PostgreSQL (`meeple serve --db postgresql://...`): two servers
sharing one database see each other's tables and moves, a move number is taken once
(the second writer is refused and catches up), and the store survives its servers. A
PostgreSQL server is started for the tests in a temporary folder (initdb, pg_ctl; as
root, as the user nobody); where none can be, the tests skip saying why."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install 'meeple[web]') is not installed")
pytest.importorskip("psycopg", reason="psycopg (pip install 'meeple[postgres]') is not installed")

from meeple.web.app import create_app
from meeple.web.store import MoveTaken, PostgresStore, open_store
from meeple.web.tables import Tables
from starlette.testclient import TestClient
from web_support import JSON, path_of, wait_for_people

import meeple


def _free_port() -> int:
    """A port no one listens on now (the server listens on a socket file in its folder,
    but PostgreSQL names that file by its port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).is_file():
            return str(folder / name)
    return None


@pytest.fixture(scope="module")
def postgres():
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not (initdb and pg_ctl):
        pytest.skip("no PostgreSQL server here (initdb and pg_ctl; apt-get install postgresql)")
    # (a folder of its own in the temporary folder: as nobody, PostgreSQL cannot reach
    # pytest's, which only its owner may enter)
    folder = Path(tempfile.mkdtemp(prefix="meeple-postgres-"))
    as_user: list[str] = []
    if os.geteuid() == 0:            # PostgreSQL refuses to run as root
        if not shutil.which("runuser"):
            pytest.skip("running as root without runuser: PostgreSQL cannot be started")
        shutil.chown(folder, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data = folder / "data"
    port = _free_port()
    made = subprocess.run([*as_user, initdb, "-D", str(data), "-A", "trust", "-U", "meeple"],
                          capture_output=True, text=True)
    if made.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"initdb failed: {made.stderr.strip()[-300:]}")
    started = subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w",
                              "-o", f"-k {folder} -p {port} -c listen_addresses=''", "start"],
                             capture_output=True, text=True)
    if started.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"pg_ctl could not start PostgreSQL: {started.stderr.strip()[-300:]}")
    try:
        yield f"postgresql://meeple@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "fast", "stop"],
                       capture_output=True, text=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def url(postgres):
    """The database emptied."""
    store = PostgresStore(postgres)
    store._db.execute("DROP TABLE IF EXISTS moves, links, tables")
    store.close()
    return postgres


def test_two_servers_share_tables_and_moves(url):
    """Seat 1 plays at one server, seat 2 at the other, bots run at both: each server
    sees the table the other made and every move, and the store holds one game."""
    a = Tables(open_store(url))
    table = a.create("hearts", meeple.load("hearts"), 4, [], None, 5, {2: "random", 3: "random"})
    b = Tables(open_store(url))      # started before nothing: finds the table by its token
    assert b.by_id == {}
    with TestClient(create_app(a)) as ca, TestClient(create_app(b)) as cb:
        one, two = path_of(table, 0), path_of(table, 1)
        assert cb.get(two, headers=JSON).status_code == 200 and table.id in b.by_id
        clients = {0: (ca, one), 1: (cb, two)}
        for _ in range(60):
            doc = wait_for_people(ca, one)
            if doc["over"]:
                break
            seat = next(s for s in doc["to_move"] if s in clients)
            client, link = clients[seat]
            moves = wait_for_people(client, link)["moves"]
            if not moves:            # that server has not caught up yet
                continue
            answer = client.post(link + "/moves", json={"move": moves[0]["notation"]})
            assert answer.status_code in (200, 409), answer.text
        seen_a = wait_for_people(ca, one)
        seen_b = wait_for_people(cb, one)
        assert seen_a["version"] == seen_b["version"] >= 30
        assert seen_a["view"] == seen_b["view"]
    stored = PostgresStore(url)
    try:
        (again,) = stored.tables()
        assert again.moves == a.by_id[table.id].stored.moves == b.by_id[table.id].stored.moves
    finally:
        stored.close()


def test_a_move_number_is_taken_once(url):
    """Two servers that both make move 1: the second store write is refused (MoveTaken),
    that server's game takes its move back and catches up with the stored one."""
    a = Tables(open_store(url))
    table = a.create("kalah", meeple.load("kalah"), 2, [], None, 1, {})
    b = Tables(open_store(url))
    other = b.find(table.links()[0]).table
    moves = other.game.legal_moves(0)
    with TestClient(create_app(a)) as ca:
        assert ca.post(path_of(table, 0) + "/moves",
                       json={"move": moves[0].notation}).status_code == 200
    with pytest.raises(MoveTaken):   # (as a move in flight when the other server stored its own)
        asyncio.run(other._commit(moves[1]))
    assert other.stored.moves == table.stored.moves == [moves[0].notation]
    assert other.game.to_json() == table.game.to_json()
    with pytest.raises(MoveTaken):
        b.store.add_move(table.id, 0, moves[1].notation)
    assert b.store.add_moves([(table.id, 0, "x"), (table.id, 1, moves[1].notation)]) == [False, True]


def test_serve_takes_a_postgresql_url(url, tmp_path):
    from web_support import Server
    server = Server("kalah", "--db", url)
    try:
        seats = server.links["seats"]
        import httpx2
        doc = httpx2.get(seats["1"], headers=JSON, timeout=30).json()
        assert httpx2.post(seats["1"] + "/moves", json={"move": doc["moves"][0]["notation"]},
                          timeout=30).status_code == 200
    finally:
        server.kill()
    again = Server("--db", url)
    try:
        import httpx2
        assert httpx2.get(again.links["tables"][0]["seats"]["1"], headers=JSON,
                         timeout=30).json()["version"] == 1
        assert json.loads(json.dumps(again.links))["tables"][0]["id"] == server.links["table"]
    finally:
        again.stop()
