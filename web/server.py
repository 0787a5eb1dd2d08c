"""Running a web table server: uvicorn on the app of ``web/app.py``, telling its caller
the links once it accepts connections. The access log is off: links carry their seat's
secret token."""
from __future__ import annotations

import ipaddress
from collections.abc import Callable

import uvicorn

from .app import create_app
from .lobby import Lobby
from .tables import Table, Tables


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def base_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def links(table: Table, base: str) -> dict:
    """A table's links: ``{"seats": {"1": URL, ...}, "spectator": URL}`` (seats from 1)."""
    by_seat = table.links()
    return {"seats": {str(s + 1): f"{base}/t/{by_seat[s]}" for s in range(table.stored.players)},
            "spectator": f"{base}/t/{by_seat[-1]}"}


class _Server(uvicorn.Server):
    """uvicorn's server, calling ``ready(port)`` once its sockets listen."""

    def __init__(self, config: uvicorn.Config, ready: Callable[[int], None]):
        super().__init__(config)
        self.ready = ready

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        if self.started:
            port = self.config.port
            for server in self.servers:
                for sock in server.sockets:
                    port = sock.getsockname()[1]
            self.ready(port)


def run(tables: Tables, host: str, port: int, ready: Callable[[int], None],
        lobby: Lobby | None = None, words=None, locale: str | None = None) -> None:
    """Serves ``tables`` (and the lobby) until interrupted (Ctrl-C, SIGTERM)."""
    config = uvicorn.Config(create_app(tables, lobby, words, locale), host=host, port=port, access_log=False,
                            log_level="warning", lifespan="on", server_header=False,
                            h11_max_incomplete_event_size=16384)
    _Server(config, ready).run()
