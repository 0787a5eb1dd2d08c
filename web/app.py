"""The web table's HTTP side (Starlette): each link's page, its JSON, its moves and its
live updates, under ``/t/TOKEN``. A token that names no link gets the same 404 as any
unknown path; every answer carries a Content-Security-Policy without inline script and
no Referer leaves the page (the token is in its address)."""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import interpreter
from . import present
from .lobby import Lobby, LobbyError
from .store import SPECTATOR
from .tables import MoveRefused, Tables
from .words import LOBBY, REFUSALS, WORDS, Speech, english, fill

HERE = Path(__file__).resolve().parent
MAX_BODY = 4096          # bytes of a move's request
MAX_NOTATION = 400       # characters of a move's notation
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
PING_SECONDS = 15
SYNC_SECONDS = 1.0   # how often an event stream looks for moves stored by other processes

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()),
           (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY")]


class SecurityHeaders:
    """Adds the headers above to every answer, and ``Cache-Control: no-store`` to the
    links' (a seat's page must not outlive its visit in a shared cache)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = scope["path"].startswith(("/t/", "/l/"))

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + HEADERS
                if private:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)
        await self.app(scope, receive, sending)


def _not_found() -> Response:
    return PlainTextResponse("Not Found", status_code=404)


def _refused(status: int, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def _refusal(speech: Speech, lang: str | None, status: int, code: str, **fields) -> JSONResponse:
    """A refused move: its stable ``error`` code and its ``message`` in ``lang``."""
    message = fill(speech.say(lang, REFUSALS[code]), **fields)
    return JSONResponse({"ok": False, "error": code, "message": message}, status_code=status)


class WebTable:
    """The endpoints, over the tables a server holds."""

    def __init__(self, tables: Tables, lobby: Lobby | None = None, words: Speech | None = None,
                 locale: str | None = None):
        self.speech = words or english    # the server's words in a table's language
        self.lobby_lang = self.speech.locale_language(locale) if locale else None
        self.tables = tables
        self.lobby = lobby
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                                     autoescape=select_autoescape(default=True,
                                                                  default_for_string=True))

    def _link(self, request: Request):
        token = request.path_params["token"]
        return self.tables.find(token) if TOKEN.fullmatch(token) else None

    async def seat(self, request: Request) -> Response:
        link = self._link(request)
        if link is None:
            return _not_found()
        async with link.table.lock:
            link.table.sync()
            doc = present.document(link.table, link.seat)
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(doc)
        you = None if link.seat == SPECTATOR else doc["players"][link.seat]["name"]
        words = self.speech.words(self.speech.table_language(link.table.program), WORDS)
        page = self.templates.get_template("table.html").render(
            title=doc["title"], you=you, lang=_lang(link.table.program), w=words,
            words=json.dumps(words, ensure_ascii=False))
        return HTMLResponse(page)

    async def move(self, request: Request) -> Response:
        link = self._link(request)
        if link is None:
            return _not_found()
        lang = self.speech.table_language(link.table.program)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refusal(self.speech, lang, 415, "content_type")
        body = await _bounded_body(request)
        if body is None:
            return _refusal(self.speech, lang, 413, "too_large", max=MAX_BODY)
        notation = _notation(body)
        if not isinstance(notation, str):
            code, fields = notation
            return _refusal(self.speech, lang, 400, code, **fields)
        try:
            played = await link.table.play(link.seat, notation)
        except MoveRefused as e:
            return _refusal(self.speech, lang, e.status, e.code, **e.fields)
        return JSONResponse({"ok": True, "played": played, "version": link.table.version})

    async def events(self, request: Request) -> Response:
        link = self._link(request)
        if link is None:
            return _not_found()
        table, seat = link.table, link.seat

        async def stream():
            sent = -1
            while True:
                changed = table.changed
                async with table.lock:
                    table.sync()
                    if table.version != sent:
                        doc = present.document(table, seat)
                        sent = table.version
                    else:
                        doc = None
                if doc is not None:
                    yield {"event": "state", "data": json.dumps(doc, separators=(",", ":"))}
                try:   # (another server process's moves are looked for as often)
                    await asyncio.wait_for(changed.wait(), SYNC_SECONDS)
                except TimeoutError:
                    pass
        return EventSourceResponse(stream(), ping=PING_SECONDS)

    async def record(self, request: Request) -> Response:
        """The game's record, once it is over (it would tell the seed, so every hidden item,
        before)."""
        link = self._link(request)
        if link is None:
            return _not_found()
        table = link.table
        if not table.game.over:
            return _refusal(self.speech, self.speech.table_language(table.program), 409,
                            "record_not_yet")
        return JSONResponse(table.record(), headers={
            "content-disposition": f'attachment; filename="{table.program.name}-{table.id}.json"'})

    def _lobby(self, request: Request) -> Lobby | None:
        token = request.path_params["token"]
        lobby = self.lobby
        if lobby is None or not TOKEN.fullmatch(token):
            return None
        return lobby if secrets.compare_digest(token, lobby.token) else None

    async def lobby_page(self, request: Request) -> Response:
        lobby = self._lobby(request)
        if lobby is None:
            return _not_found()
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(await asyncio.to_thread(lobby.document))
        lang = self.lobby_lang or self.speech.accepted(request.headers.get("accept-language"))
        words = self.speech.words(lang, LOBBY)
        return HTMLResponse(self.templates.get_template("lobby.html").render(
            lang=lang or "en", w=words, words=json.dumps(words, ensure_ascii=False)),
            headers={"vary": "Accept-Language"})

    async def start_table(self, request: Request) -> Response:
        lobby = self._lobby(request)
        if lobby is None:
            return _not_found()
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refused(415, "send the table as JSON: Content-Type: application/json")
        body = await _bounded_body(request)
        if body is None:
            return _refused(413, f"the request is too large (at most {MAX_BODY} bytes)")
        try:
            table = await asyncio.to_thread(lobby.start, json.loads(body))
        except (ValueError, UnicodeDecodeError) as e:     # (LobbyError is a ValueError)
            message = str(e) if isinstance(e, LobbyError) else "the body is not JSON"
            return _refused(400, message)
        except (interpreter.MeepleError, interpreter.RuleError) as e:
            return _refused(422, f"the table cannot start: {e}")
        table.start_bots()
        links = table.links()
        return JSONResponse({"ok": True, "table": table.id, "title": table.program.title,
                             "seats": {str(s + 1): f"/t/{links[s]}" for s in range(table.stored.players)},
                             "spectator": f"/t/{links[SPECTATOR]}"}, status_code=201)


def _lang(prog) -> str:
    """The page's language tag: its locale's first part (en without one)."""
    tag = re.split(r"[-_]", prog.locale or "en")[0]
    return tag if re.fullmatch(r"[A-Za-z]{2,8}", tag) else "en"


async def _bounded_body(request: Request) -> bytes | None:
    """The request's body, or None when it is longer than MAX_BODY."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


def _notation(body: bytes) -> str | tuple[str, dict]:
    """The notation of a move's body ``{"move": NOTATION}``, or why a bad one is refused
    (its code in web/words.py REFUSALS, and its fields)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return "not_json", {}
    if not isinstance(data, dict) or set(data) != {"move"} or not isinstance(data["move"], str):
        return "bad_body", {}
    notation = data["move"].strip()
    if not notation or len(notation) > MAX_NOTATION:
        return "notation_length", {"max": MAX_NOTATION}
    return notation


def create_app(tables: Tables, lobby: Lobby | None = None, words: Speech | None = None,
               locale: str | None = None) -> Starlette:
    """The ASGI application of a server holding ``tables`` (and a lobby to start more);
    ``words`` gives the server's words in a language (web/words.py; English without it),
    ``locale`` the lobby's (without it: each visitor's Accept-Language)."""
    web = WebTable(tables, lobby, words, locale)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for table in tables.by_id.values():   # bots to move in a restored game
            table.start_bots()
        yield

    routes = [
        Route("/t/{token}", web.seat, methods=["GET"]),
        Route("/t/{token}/moves", web.move, methods=["POST"]),
        Route("/t/{token}/events", web.events, methods=["GET"]),
        Route("/t/{token}/record", web.record, methods=["GET"]),
        Route("/l/{token}", web.lobby_page, methods=["GET"]),
        Route("/l/{token}/tables", web.start_table, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: lambda r, e: _not_found(),
                                        405: lambda r, e: PlainTextResponse(
                                            "Method Not Allowed", status_code=405)})
    app.add_middleware(SecurityHeaders)
    return app
