"""What the web table's tests share: a table held in this process behind Starlette's
TestClient, a real `meeple serve` in a child process, and the secret check: the labels
of the cards one seat holds that another seat has never been shown."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from meeple.interpreter import display, views

import meeple

ROOT = Path(__file__).resolve().parent.parent
JSON = {"Accept": "application/json"}


def hearts_tables(db: Path, seed: int = 3, bots=None):
    """A store in ``db`` holding one table of Hearts: seats 1 and 2 people, 3 and 4 bots."""
    from meeple.web.store import SQLiteStore
    from meeple.web.tables import Tables
    tables = Tables(SQLiteStore(db))
    table = tables.create("hearts", meeple.load("hearts"), 4, [], None, seed,
                          {2: "random", 3: "random"} if bots is None else bots)
    return tables, table


def path_of(table, seat: int) -> str:
    return "/t/" + table.links()[seat]


def wait_for_people(client, url: str, timeout: float = 60) -> dict:
    """The seat's document once no bot is to move (the bots play in the background):
    people are, or the game is over."""
    end = time.monotonic() + timeout
    while True:
        doc = client.get(url, headers=JSON).json()
        if doc["over"] or not any(doc["players"][s]["bot"] for s in doc["to_move"]):
            return doc
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.02)


class Unseen:
    """Follows what one seat has been shown: the labels and notations of the cards
    another seat holds now that the first has never seen (in any view it had)."""

    def __init__(self, game, seat: int):
        self.seat = seat
        self.seen: set[int] = set()
        self.note(game)

    def note(self, game) -> None:
        for content in views.view(game, self.seat)["zones"].values():
            if isinstance(content, list):
                self.seen.update(i for i in content if isinstance(i, int))

    def words(self, game, other: int) -> list[str]:
        prog = game.program
        held = [i for key, content in views.view(game, "all")["zones"].items()
                if key.endswith(f":{other}") for i in content]
        hidden = set(views.secrets(game, self.seat)["hidden items"])
        out = []
        for item in held:
            if item in hidden and item not in self.seen:
                out.append(display.item_label(prog, item))
                out.append(display.value_notation(prog, item, "item"))
        return out


    def never(self, game) -> list[str]:
        """The labels and notations of every item this seat has never been shown."""
        prog = game.program
        unseen = sorted(set(views.secrets(game, self.seat)["hidden items"]) - self.seen)
        return [w for item in unseen
                for w in (display.item_label(prog, item), display.value_notation(prog, item, "item"))]


def assert_hides(text: str, words: list[str]) -> None:
    found = [w for w in words if w.lower() in text.lower()]
    assert not found, f"secret cards shown: {found}"


class Server:
    """`meeple serve ARGS --port 0 --json` in a child process: its links once it listens."""

    def __init__(self, *args: str):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "meeple", "serve", *args, "--port", "0", "--json"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line, self.process.stderr.read()
        self.links = json.loads(line)

    def kill(self) -> None:
        self.process.kill()       # SIGKILL: nothing is flushed or closed
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.process.stderr.close()

    def stop(self) -> str:
        """Stops the server (SIGTERM); what it wrote on stderr."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate(timeout=30)
        return err
