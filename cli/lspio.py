"""How ``meeple lsp`` reads its client: the Language Server Protocol's framing
(``Content-Length: N`` headers, a blank line, N bytes of JSON), bounded and checked, so
that no client can make the server hang, crash or print a traceback.

- A length must be ASCII digits, at most ``MAX_BODY`` bytes; anything else (``-5``,
  ``1e3``, ``999999999999``, a missing header) is answered with a JSON-RPC parse error
  (code -32700, id null), and the bytes up to the next ``Content-Length:`` header are
  skipped.
- A body shorter than its length does not swallow the messages after it: a JSON text
  cannot hold a raw line break inside a string, nor the words ``Content-Length:`` outside
  one, so ``Content-Length: N`` and a line break inside a body can only be the header of
  the next message. The short body is answered with a parse error and the next message
  is read from its header.
- A body that is not UTF-8 or not JSON gets a parse error (-32700); JSON that is not a
  JSON-RPC message (not an object, no ``"jsonrpc": "2.0"``, a bad id or method) an
  invalid request error (-32600), with the message's id when it has a usable one; a
  request whose params do not fit its method an invalid params error (-32602).
- pygls' own log lines are one line each on stderr, never a traceback.

``Framer`` is plain Python (tested without a process); ``make_server`` builds the pygls
server that reads through it, on stdin/stdout or a TCP connection.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading

MAX_BODY = 16 * 1024 * 1024     # bytes: a longer message is refused (a ruleset file is at most 1 MiB)
MAX_HEADER = 8 * 1024           # bytes in a header line; longer is junk, dropped as it comes
CHUNK = 64 * 1024

_LENGTH = re.compile(rb"content-length:[ \t]*([^\r\n]*?)[ \t]*\r?\n", re.IGNORECASE)
# a header of the next message inside a body (see the module's docstring)
_NEXT = re.compile(rb"content-length:[ \t]{0,16}[0-9]{1,20}\r?\n", re.IGNORECASE)
_NEXT_SPAN = 15 + 16 + 20 + 2       # its longest match: the overlap kept when scanning anew
_WORD = b"content-length:"
# the start of such a header, cut off by the end of the bytes read so far
_PARTIAL = re.compile(b"(?:" + b"|".join(re.escape(_WORD[:k]) for k in range(1, len(_WORD)))
                      + rb"|content-length:[ \t]{0,16}[0-9]{0,20}\r?)\Z", re.IGNORECASE)
_HEADER = re.compile(rb"[A-Za-z0-9-]+:[^\r\n]*\r?\n")

PARSE_ERROR, INVALID_REQUEST = -32700, -32600
NOT_AN_OBJECT = ("Invalid request: a message is a JSON object (batches are not part of the "
                 "Language Server Protocol)")


class Framer:
    """Cuts the bytes a client sends into message bodies. ``feed(data)`` returns what the
    new bytes complete, in order: ``("body", bytes)`` or ``("error", text)``. At most one
    error is given for a run of bad bytes: the rest of the run is skipped quietly, up to
    the next good ``Content-Length`` header."""

    def __init__(self, limit: int = MAX_BODY):
        self.limit = limit
        self.buf = bytearray()
        self.length: int | None = None   # the current message's, once its header was read
        self.in_body = False
        self.headers = False             # a header of the current message was read
        self.faulty = False              # an error was given; skip quietly until a good header
        self.scanned = 0                 # in a body: bytes already searched for a next header

    def feed(self, data: bytes) -> list[tuple[str, bytes | str]]:
        self.buf += data
        out: list[tuple[str, bytes | str]] = []
        while True:
            step = self._body() if self.in_body else self._header()
            if step is None:
                return out
            if step:
                out.append(step)

    def _error(self, text: str):
        """The error to give (once per run of bad bytes), or () when one was given."""
        if self.faulty:
            return ()
        self.faulty = True
        return ("error", text)

    def _header(self):
        """One header line: None when more bytes are needed, else what it gives (an error,
        or () for nothing)."""
        end = self.buf.find(b"\n")
        if end < 0:
            if len(self.buf) > MAX_HEADER:   # no line that long is a header: junk
                del self.buf[: len(self.buf) - _NEXT_SPAN]
                return self._error(f"a header line longer than {MAX_HEADER} bytes")
            return None
        line = bytes(self.buf[: end + 1])
        del self.buf[: end + 1]
        found = _LENGTH.search(line)
        if found:
            # (junk before the header on the same line: the end of a bad message's body)
            return self._length(found.group(1))
        if line.strip() == b"":
            return self._blank()
        if _HEADER.fullmatch(line) and not self.faulty:
            self.headers = True   # another header (Content-Type): allowed, ignored
            return ()
        return self._error("bytes that are not a message header (each message starts with "
                           "'Content-Length: N')")

    def _length(self, value: bytes):
        self.headers = True
        if not value.isdigit() or not value.isascii() or len(value) > 12:
            self.length = None
            self.faulty = False   # a new message: its own error
            shown = value[:40].decode("ascii", "backslashreplace")
            return self._error(f"Content-Length '{shown}' is not a length in bytes (0 to "
                               f"{self.limit}); skipped to the next message")
        n = int(value)
        if n > self.limit:
            self.length = None
            self.faulty = False
            return self._error(f"Content-Length {n} is more than the at most {self.limit} bytes "
                               f"a message may have; skipped to the next message")
        self.length, self.faulty = n, False
        return ()

    def _blank(self):
        """The blank line that ends the headers."""
        if self.length is not None:
            self.in_body, self.scanned = True, 0
            return ()
        had = self.headers
        self.headers = False
        if had:
            return self._error("a message without a Content-Length header")
        return ()   # a stray blank line between messages

    def _body(self):
        """The body, once its bytes are all there; or where it was cut short by the next
        message's header (which may start inside the body's length and end after it)."""
        n, have = self.length, len(self.buf)
        nxt = _NEXT.search(self.buf, max(0, self.scanned - _NEXT_SPAN), min(have, n + _NEXT_SPAN))
        if nxt is not None and nxt.start() < n:
            del self.buf[: nxt.start()]
            self._reset()
            return self._error(f"the message is shorter than its Content-Length ({n} bytes): "
                               f"it ends where the next message's header starts")
        self.scanned = have
        if have < n:
            return None
        if have < n + _NEXT_SPAN:
            # a header may be coming that starts inside the body (no JSON object ends so)
            tail = max(0, n - _NEXT_SPAN)
            cut = _PARTIAL.search(self.buf, tail)
            if cut is not None and cut.start() < n:
                return None
        body = bytes(self.buf[:n])
        del self.buf[:n]
        self._reset()
        return ("body", body)

    def _reset(self) -> None:
        self.length, self.in_body, self.headers, self.scanned = None, False, False, 0


# ---------------------------------------------------------------- messages

def check(body: bytes):
    """The JSON-RPC message a body holds, as a dict, or an error to answer: ``(code,
    text, id)``. (Its params are the protocol's to check.)"""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return (PARSE_ERROR, f"Parse error: the message is not UTF-8 (byte {e.start})", None)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return (PARSE_ERROR, f"Parse error: the message is not JSON: line {e.lineno} column "
                             + f"{e.colno}: {e.msg}", None)
    except (ValueError, RecursionError) as e:   # a 5,000-digit number, deep nesting
        return (PARSE_ERROR, "Parse error: the message is not JSON a server reads: "
                             + str(e)[:120], None)
    if not isinstance(data, dict):
        return (INVALID_REQUEST, NOT_AN_OBJECT, None)
    mid = data.get("id")
    usable = mid if isinstance(mid, (int, str)) and not isinstance(mid, bool) else None
    problem = _envelope(data)
    return data if problem is None else (INVALID_REQUEST, f"Invalid request: {problem}", usable)


def _envelope(data: dict) -> str | None:
    if data.get("jsonrpc") != "2.0":
        return "the message has no \"jsonrpc\": \"2.0\""
    if "id" in data:
        mid = data["id"]
        if isinstance(mid, bool) or not isinstance(mid, (int, str, type(None))):
            return "an id is a number or a string"
    if "method" in data:
        if not isinstance(data["method"], str):
            return "a method is a string"
    elif "id" not in data or not ("result" in data or "error" in data):
        return "the message has no method (nor is it an answer with an id)"
    return None


def answer(mid, code: int, text: str) -> bytes:
    """A JSON-RPC error answer, framed."""
    body = json.dumps({"jsonrpc": "2.0", "id": mid, "error": {"code": code, "message": text}}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


# ---------------------------------------------------------------- the server

class OneLine(logging.Formatter):
    """A log record as one line: 'meeple lsp: LEVEL: first line of the message' (pygls
    writes tracebacks into its messages and as exc_info: neither is shown)."""

    def format(self, record: logging.LogRecord) -> str:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):   # a message whose arguments do not fit it
            message = str(record.msg)
        first = (message.splitlines() or [""])[0][:300]
        return f"meeple lsp: {record.levelname.lower()}: {first}"


def quiet_logs() -> None:
    """pygls' warnings and errors, one line each on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    log = logging.getLogger("pygls")
    log.handlers[:] = [handler]
    log.setLevel(logging.WARNING)
    log.propagate = False


def make_server(name: str, version: str):
    """A pygls ``LanguageServer`` that reads its client through ``Framer``."""
    from pygls.exceptions import JsonRpcException
    from pygls.io_ import StdoutWriter
    from pygls.lsp.server import LanguageServer

    quiet_logs()
    log = logging.getLogger("pygls.meeple")

    class Server(LanguageServer):
        def dispatch(self, body: bytes, write) -> None:
            got = check(body)
            if isinstance(got, tuple):
                code, text, mid = got
                log.warning(text)
                write(answer(mid, code, text))
                return
            try:
                message = self.protocol.structure_message(got)
            except JsonRpcException as e:   # params that do not fit the method
                if "method" in got and "id" in got:
                    write(answer(got["id"], e.code, f"{e.message}: the params do not fit "
                                                    f"{got['method'][:100]}"))
                return
            self.protocol.handle_message(message)

        async def pump(self, read, write) -> None:
            """Reads chunks with ``read()`` until it gives b"", and handles each message."""
            framer = Framer()
            while True:
                data = await read()
                if not data:
                    return
                for kind, value in framer.feed(data):
                    if kind == "body":
                        self.dispatch(value, write)
                    else:
                        log.warning(value)
                        write(answer(None, PARSE_ERROR, f"Parse error: {value}"))

        def start_io(self, stdin=None, stdout=None) -> None:
            writer = StdoutWriter(stdout or sys.stdout.buffer)
            self.protocol.set_writer(writer)
            stream = stdin or sys.stdin.buffer

            async def main():
                read = _thread_reader(stream, asyncio.get_running_loop())
                await self.pump(read, writer.write)

            try:
                asyncio.run(main())
            except BrokenPipeError:
                log.warning("the client closed the connection")
            except (KeyboardInterrupt, SystemExit):
                pass
            finally:
                self.shutdown()

        def start_tcp(self, host: str, port: int) -> None:
            """Serves one client on a TCP port, then stops (as pygls does)."""
            async def serve():
                done = asyncio.Event()

                async def connection(reader, writer):
                    self.protocol.set_writer(writer)
                    try:
                        await self.pump(lambda: reader.read(CHUNK), writer.write)
                    except ConnectionError:
                        log.warning("the client closed the connection")
                    except SystemExit:   # the client's exit notification: the server stops
                        pass
                    finally:
                        done.set()

                async with await asyncio.start_server(connection, host, port):
                    await done.wait()

            try:
                asyncio.run(serve())
            except (KeyboardInterrupt, SystemExit):
                pass
            finally:
                self.shutdown()

    return Server(name, version)


def _thread_reader(stream, loop: asyncio.AbstractEventLoop):
    """``read()`` for the pump: a daemon thread reads ``stream`` as bytes come, from its
    file descriptor (a read that blocks then holds no lock of Python's buffered stream,
    and never holds the process at its exit)."""
    queue: asyncio.Queue = asyncio.Queue()
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):   # not a file (a stream in a test)
        fd = None

    def run() -> None:
        while True:
            try:
                data = os.read(fd, CHUNK) if fd is not None else stream.read1(CHUNK)
            except (OSError, ValueError):
                data = b""
            try:
                loop.call_soon_threadsafe(queue.put_nowait, data)
            except RuntimeError:   # the loop is closed: the server has stopped
                return
            if not data:
                return

    threading.Thread(target=run, name="meeple-lsp-stdin", daemon=True).start()
    return queue.get
