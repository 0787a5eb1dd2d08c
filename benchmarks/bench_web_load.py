"""The web table under load, on loopback only: N tables (default 100) of a ruleset
(default kalah) stored first, then one `meeple serve --db` serves them all while every
seat of every table is played at once by a client here, a random bot speaking HTTP: it
follows its seat's event stream and posts a random legal move whenever it is to move.
Bounded in count (--tables) and time (--timeout). Prints the moves made, the latency of
the moves (POST until acknowledged, i.e. committed) and of the event that follows them
(wall time: on a loaded machine it mostly measures the machine), and the server's CPU
time per move (user + sys, from /proc), the figure to compare between commits, beside
the CPU time of the clients (this process), which share the machine with it.

    python benchmarks/bench_web_load.py [--tables 100] [--ruleset kalah] [--timeout 600]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx2  # noqa: E402
from meeple.web.store import SQLiteStore  # noqa: E402
from meeple.web.tables import Tables  # noqa: E402

import meeple  # noqa: E402


def store_tables(db: Path, ruleset: str, count: int, players: int) -> None:
    tables = Tables(SQLiteStore(db))
    loaded = meeple.load(ruleset)
    for k in range(count):
        tables.create(ruleset, loaded, players, [], None, k, {})
    tables.store.close()


def cpu_seconds(pid: int) -> float:
    """user + sys of a process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def seat_bot(client: httpx2.AsyncClient, url: str, seat: int, rnd: random.Random,
                   posts: list[float], events: list[float]) -> int:
    """Plays one seat to the end of its game: the moves it made."""
    made = 0
    posted_at: float | None = None
    version = -1
    async with client.stream("GET", url + "/events", timeout=None) as answer:
        kind = None
        async for line in answer.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
                continue
            if not (line.startswith("data: ") and kind == "state"):
                continue
            doc = json.loads(line[6:])
            if posted_at is not None and doc["version"] > version:
                events.append(time.perf_counter() - posted_at)
                posted_at = None
            if doc["over"]:
                return made
            if seat in doc["to_move"] and doc["moves"]:
                move = rnd.choice(doc["moves"])["notation"]
                version = doc["version"]
                start = time.perf_counter()
                reply = await client.post(url + "/moves", json={"move": move})
                posts.append(time.perf_counter() - start)
                if reply.status_code != 200:
                    raise RuntimeError(f"{url}: {reply.status_code} {reply.text}")
                posted_at, made = start, made + 1
    return made


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    q = statistics.quantiles(values, n=100)
    return (f"median {statistics.median(values) * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, "
            f"p99 {q[98] * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")


async def play_all(links: list[dict], timeout: float) -> tuple[int, list[float], list[float]]:
    posts: list[float] = []
    events: list[float] = []
    limits = httpx2.Limits(max_connections=4 * len(links) * 4, max_keepalive_connections=64)
    async with httpx2.AsyncClient(limits=limits, timeout=60) as client:
        jobs = [seat_bot(client, url, int(s) - 1, random.Random(f"{t['id']}/{s}"), posts, events)
                for t in links for s, url in t["seats"].items()]
        made = await asyncio.wait_for(asyncio.gather(*jobs), timeout)
    return sum(made), posts, events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--ruleset", default="kalah")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="meeple-web-load-") as tmp:
        db = Path(tmp) / "tables.sqlite"
        store_tables(db, args.ruleset, args.tables, args.players)
        server = subprocess.Popen([sys.executable, "-m", "meeple", "serve", "--db", str(db),
                                   "--port", "0", "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                                  text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        try:
            links = json.loads(server.stdout.readline())["tables"]
            cpu0, mine0 = cpu_seconds(server.pid), time.process_time()
            t0 = time.perf_counter()
            made, posts, events = asyncio.run(play_all(links, args.timeout))
            wall = time.perf_counter() - t0
            cpu, mine = cpu_seconds(server.pid) - cpu0, time.process_time() - mine0
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"{args.tables} tables of {args.ruleset}, {args.players} seats each, all at once: "
          f"{made} moves in {wall:.1f} s (wall)")
    print(f"move acknowledged (committed): {percentiles(posts)}")
    print(f"next event after a move:       {percentiles(events)}")
    print(f"server CPU: {cpu:.2f} s, {cpu / max(made, 1) * 1000:.2f} ms per move; "
          f"the clients' (this process): {mine:.2f} s")


if __name__ == "__main__":
    main()
