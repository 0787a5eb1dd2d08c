"""`meeple lsp`: the language server, tested by speaking the protocol to it (JSON-RPC
with Content-Length headers over its stdin and stdout), as an editor does."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="meeple lsp needs pygls (pip install 'meeple[lsp]')")

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "meeple.tmLanguage.json"

GAME = """ruleset lsp_game
title "LSP game"
players 2..2
enum Suit { red, blue }
kind Card { suit: Suit, value: int }
zone pile: Card
zone hand: Card per player owner
deck cards into pile { Card(suit: s, value: v) for s in [red, blue] for v in 1..3 }
# the points a hand is worth
function worth(p: player): int = sum(c.value for c in items(hand(p)))
setup {
  shuffle pile
  for p in players {
    move top(pile) to hand(p)
    move top(pile) to hand(p)
  }
}
turn {
  choose c from items(hand(active)) as "play"
  move c to pile
}
end when empty(hand(players[1]))
score(p) = worth(p)
"""


class Client:
    """A minimal language client: requests with ids, notifications, and a queue of what
    the server sends."""

    def __init__(self, **environ: str):
        env = dict(os.environ, PYTHONPATH=str(ROOT), **environ)
        self.proc = subprocess.Popen([sys.executable, "-m", "meeple", "lsp"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
        self.pending: list = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def raw(self, data: bytes) -> None:
        """Bytes as they are, whatever the protocol says."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float = 60):
        reply = self.reply(method, params, timeout)
        assert "error" not in reply, reply
        return reply["result"]

    def reply(self, method: str, params: dict, timeout: float = 60) -> dict:
        """The server's whole answer to a request: its result or its error."""
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        while True:
            msg = self.inbox.get(timeout=timeout)   # (a guard: the answer comes or the test fails)
            if msg.get("id") == rid and "method" not in msg:
                return msg
            self.pending.append(msg)

    def errors(self) -> list[dict]:
        """The error answers to no request of ``reply`` (id null, or a text id) received so
        far, taken out."""
        got = [m for m in self.pending if "error" in m and not isinstance(m.get("id"), int)]
        self.pending = [m for m in self.pending if m not in got]
        return got

    def diagnostics(self, uri: str, timeout: float = 60) -> list:
        """The next diagnostics published for ``uri``."""
        for i, msg in enumerate(self.pending):
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                del self.pending[i]
                return msg["params"]["diagnostics"]
        while True:
            msg = self.inbox.get(timeout=timeout)
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]
            self.pending.append(msg)

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=20)
            self.notify("exit", {})
            self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture(scope="module")
def client():
    c = Client()
    init = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    caps = init["capabilities"]
    assert caps["hoverProvider"] and caps["definitionProvider"]
    assert "." in caps["completionProvider"]["triggerCharacters"]
    c.notify("initialized", {})
    yield c
    c.close()


def uri(path: Path) -> str:
    return path.resolve().as_uri()


def open_doc(client, path: Path, text: str) -> None:
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(path), "languageId": "meeple", "version": 1, "text": text}})


def test_diagnostics_as_you_type(client, tmp_path):
    f = tmp_path / "game.meeple"
    f.write_text(GAME, encoding="utf-8")
    open_doc(client, f, GAME)
    assert client.diagnostics(uri(f)) == []
    # the author misspells a zone without saving: the checker's diagnostic comes back
    # at its place, with its code and hint
    bad = GAME.replace("move c to pile", "move c to pyle")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(f), "version": 2}, "contentChanges": [{"text": bad}]})
    ds = client.diagnostics(uri(f))
    assert len(ds) == 1, ds
    d = ds[0]
    line = bad.splitlines().index("  move c to pyle")
    assert d["range"]["start"] == {"line": line, "character": len("  move c to ")}
    assert d["code"].startswith("check/") and d["severity"] == 1
    assert "pyle" in d["message"] and "pile" in d["message"]   # the hint: did you mean 'pile'?
    # fixed again: the diagnostics are cleared
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(f), "version": 3}, "contentChanges": [{"text": GAME}]})
    assert client.diagnostics(uri(f)) == []


def test_a_syntax_error_is_a_diagnostic(client, tmp_path):
    f = tmp_path / "game.meeple"
    text = GAME.replace("turn {", "turn {{", 1)
    f.write_text(text, encoding="utf-8")
    open_doc(client, f, text)
    ds = client.diagnostics(uri(f))
    assert ds and ds[0]["code"].startswith("parse/")
    assert ds[0]["range"]["start"]["line"] == text.splitlines().index("turn {{")


def test_hover_shows_the_declaration_and_its_comment(client, tmp_path):
    f = tmp_path / "game.meeple"
    f.write_text(GAME, encoding="utf-8")
    open_doc(client, f, GAME)
    client.diagnostics(uri(f))
    line = GAME.splitlines().index("score(p) = worth(p)")
    h = client.request("textDocument/hover", {"textDocument": {"uri": uri(f)},
                                              "position": {"line": line, "character": 13}})
    value = h["contents"]["value"]
    assert "function worth(p: player): int" in value
    assert "the points a hand is worth" in value
    # a builtin and a keyword have hover text too
    line = GAME.splitlines().index("end when empty(hand(players[1]))")
    h = client.request("textDocument/hover", {"textDocument": {"uri": uri(f)},
                                              "position": {"line": line, "character": 10}})
    assert "builtin" in h["contents"]["value"] and "no elements" in h["contents"]["value"]
    h = client.request("textDocument/hover", {"textDocument": {"uri": uri(f)},
                                              "position": {"line": line, "character": 1}})
    assert "keyword" in h["contents"]["value"]


def test_go_to_definition(client, tmp_path):
    f = tmp_path / "game.meeple"
    f.write_text(GAME, encoding="utf-8")
    open_doc(client, f, GAME)
    client.diagnostics(uri(f))
    lines = GAME.splitlines()
    at = lines.index("score(p) = worth(p)")
    locs = client.request("textDocument/definition", {"textDocument": {"uri": uri(f)},
                                                      "position": {"line": at, "character": 12}})
    decl = next(i for i, s in enumerate(lines) if s.startswith("function worth"))
    assert locs == [{"uri": uri(f), "range": {"start": {"line": decl, "character": 9},
                                              "end": {"line": decl, "character": 14}}}]
    # an attribute after a dot goes to the kind's attribute
    at = next(i for i, s in enumerate(lines) if s.startswith("function worth"))
    col = lines[at].index("c.value") + 3
    locs = client.request("textDocument/definition", {"textDocument": {"uri": uri(f)},
                                                      "position": {"line": at, "character": col}})
    kind = next(i for i, s in enumerate(lines) if s.startswith("kind Card"))
    assert locs[0]["range"]["start"] == {"line": kind, "character": lines[kind].index("value")}


def test_definition_across_files_of_a_ruleset(client):
    base = ROOT / "rulesets" / "kalah"
    locale = next((base / "locales").glob("*.meeple"))
    text = locale.read_text(encoding="utf-8")
    open_doc(client, locale, text)
    client.diagnostics(uri(locale))
    lines = text.splitlines()
    at = next(i for i, s in enumerate(lines) if s.startswith("name ") and "." not in s.split()[1])
    name = lines[at].split()[1]
    locs = client.request("textDocument/definition", {
        "textDocument": {"uri": uri(locale)},
        "position": {"line": at, "character": lines[at].index(name) + 1}})
    assert locs and locs[0]["uri"] != uri(locale)
    assert locs[0]["uri"].endswith(".meeple") and "/locales/" not in locs[0]["uri"]


def test_completion(client, tmp_path):
    f = tmp_path / "game.meeple"
    text = GAME + "function w2(p: player): int = wo"
    f.write_text(text, encoding="utf-8")
    open_doc(client, f, text)
    client.diagnostics(uri(f))
    last = len(text.splitlines()) - 1
    got = client.request("textDocument/completion", {
        "textDocument": {"uri": uri(f)}, "position": {"line": last, "character": len("function w2(p: player): int = wo")}})
    labels = {i["label"] for i in got["items"]}
    assert "worth" in labels and "pile" not in labels
    got = client.request("textDocument/completion", {
        "textDocument": {"uri": uri(f)}, "position": {"line": last, "character": len("function w2(p: player): int = ")}})
    labels = {i["label"] for i in got["items"]}
    assert {"worth", "hand", "pile", "Suit", "red", "sum", "active", "if", "not"} <= labels
    # the built-ins with a form of their own too: connected, ray, until
    assert {"connected", "ray", "until"} <= labels
    ray = next(i for i in got["items"] if i["label"] == "ray")
    assert "ray(START, COORDINATE: STEP" in json.dumps(ray)
    # after a dot: the attributes of kinds
    text2 = GAME + "function w3(c: Card): int = c.va"
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(f), "version": 9}, "contentChanges": [{"text": text2}]})
    client.diagnostics(uri(f))
    got = client.request("textDocument/completion", {
        "textDocument": {"uri": uri(f)}, "position": {"line": last, "character": len("function w3(c: Card): int = c.va")}})
    assert [i["label"] for i in got["items"]] == ["value"]


def test_without_pygls_it_says_how_to_get_it(tmp_path):
    # a pygls that cannot be imported (a shadowing module) stands for a missing one
    (tmp_path / "pygls.py").write_text("raise ImportError('no pygls here')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    r = subprocess.run([sys.executable, "-m", "meeple", "lsp"], check=False, cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert "meeple[lsp]" in r.stderr and "Traceback" not in r.stderr


def test_textmate_grammar_knows_every_keyword():
    from meeple.dsl.parse import keywords
    grammar = json.loads((GRAMMAR).read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.meeple"
    text = json.dumps(grammar)
    missing = [k for k in keywords() if f"\\\\b{k}\\\\b" not in text and f"|{k}|" not in text
               and f"({k}|" not in text and f"|{k})" not in text]
    assert missing == []


def test_the_vscode_extension_points_at_the_grammar():
    pkg = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    (grammar,) = pkg["contributes"]["grammars"]
    assert (ROOT / "editors" / "vscode" / grammar["path"]).resolve() == GRAMMAR
    assert grammar["scopeName"] == "source.meeple"
    (language,) = pkg["contributes"]["languages"]
    assert language["extensions"] == [".meeple"]
    assert (ROOT / "editors" / "vscode" / language["configuration"]).is_file()


def test_textmate_grammar_regexes_compile():
    # vscode-textmate uses Oniguruma; the patterns here keep to what Python's re reads too
    import re
    grammar = json.loads((GRAMMAR).read_text(encoding="utf-8"))

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("match", "begin", "end") and isinstance(v, str):
                    re.compile(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(grammar)


@pytest.mark.parametrize("value", ["x y", "host:", "99999999", ""])
def test_a_bad_tcp_address_is_a_usage_error(value):
    from console import meeple_cli
    r = meeple_cli("lsp", "--tcp", value)
    assert r.code == 2 and "--tcp" in r.err and "PORT" in r.err, r


# ---------------------------------------------------------------- hostile clients

def _framed(body: bytes, length=None) -> bytes:
    length = len(body) if length is None else length
    return b"Content-Length: %s\r\n\r\n" % (length if isinstance(length, bytes) else
                                             str(length).encode()) + body


HOSTILE = [
    # (what the client sends, the error code answered, words of its message); the answer's
    # id is null, or the message's when it has one (text ids: never one of Client.reply's)
    (_framed(b'{"jsonrpc": "2.0", "id": "h1", "method": "shutdown"}', -5), -32700,
     "Content-Length"),
    (_framed(b'{"jsonrpc": "2.0"}', 999999), -32700, "shorter than"),
    (_framed(b'{"jsonrpc": "2.0", "method": "initialized"}', 5), -32700, "JSON"),   # too long
    (_framed(b'{"a": 1}', 8 + 5), -32700, "shorter than"),   # the next header starts inside
    (b"\r\n\r\n", None, ""),                                # blank lines between messages
    (_framed(b"{}", "1e3"), -32700, "Content-Length"),
    (_framed(b"{}", "99999999999999999999"), -32700, "Content-Length"),
    (_framed(b"{}", 10 ** 9), -32700, "at most"),
    (_framed(b"{}", "\xd9\xa3".encode("latin-1")), -32700, "Content-Length"),
    (b"Content-Length:\r\n\r\n{}", -32700, "Content-Length"),
    (b"Content-Type: text/plain\r\n\r\n{}", -32700, "Content-Length"),
    (b"garbage without any header\r\n\r\n", -32700, "Content-Length"),
    (_framed(b'\xff\xfe{"jsonrpc": "2.0"}'), -32700, "UTF-8"),
    (_framed(b"not json at all"), -32700, "JSON"),
    (_framed(b'{"jsonrpc": "2.0", "id": "h2", "method": '), -32700, "JSON"),
    (_framed(b"[" * 100_000 + b"]" * 100_000), -32700, "JSON"),
    (_framed(b"1" * 5000), -32700, "JSON"),
    (_framed(b"[1, 2]"), -32600, "object"),
    (_framed(b'"a string"'), -32600, "object"),
    (_framed(b'{"id": "h3", "method": "shutdown"}'), -32600, "jsonrpc"),
    (_framed(b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "textDocument/hover"}'), -32600, "id"),
    (_framed(b'{"jsonrpc": "2.0", "id": "h4", "method": 12}'), -32600, "method"),
    (_framed(b'{"jsonrpc": "2.0", "id": "h5"}'), -32600, "method"),
]


def test_a_hostile_client_gets_errors_and_answers_again(tmp_path):
    """Whatever a client sends — lengths that are negative, huge, not numbers or longer
    than the body, bodies that are not UTF-8, not JSON or not a request — the server
    answers with a JSON-RPC error, prints no traceback, and answers the next request."""
    c = Client()
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        f = tmp_path / "game.meeple"
        f.write_text(GAME, encoding="utf-8")
        open_doc(c, f, GAME)
        line = GAME.splitlines().index("score(p) = worth(p)")
        where = {"textDocument": {"uri": uri(f)}, "position": {"line": line, "character": 13}}
        for sent, code, words in HOSTILE:
            c.raw(sent)
            h = c.request("textDocument/hover", where)
            assert "function worth" in h["contents"]["value"], sent[:60]
            errors = c.errors()
            assert [e["error"]["code"] for e in errors] == [code] * (code is not None), (sent[:60], errors)
            if code is None:
                continue
            assert words in errors[0]["error"]["message"], (sent[:60], errors)
            assert errors[0]["id"] == ("h3" if b'"h3"' in sent else "h4" if b'"h4"' in sent
                                       else "h5" if b'"h5"' in sent else None), errors
        # a request with an id whose params do not fit its method: an error with its id
        bad = c.reply("textDocument/hover", {"textDocument": 7})
        assert bad["error"]["code"] == -32602, bad
        assert "function worth" in c.request("textDocument/hover", where)["contents"]["value"]
    finally:
        c.close()
    err = c.proc.stderr.read().decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert all(line.startswith("meeple lsp: ") for line in err.splitlines()), err


def test_the_framing_is_the_same_however_the_bytes_arrive():
    """The reader gives the same messages and errors whether the client's bytes come all
    at once or a few at a time; a valid body is never cut, even one spread over lines or
    whose texts speak of Content-Length."""
    from meeple.cli.lspio import Framer
    valid = [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "m",
                         "params": {"text": "Content-Length: 5\r\n\r\nx"}}).encode(),
             json.dumps({"jsonrpc": "2.0", "method": "n", "params": {"a": [1, 2]}},
                        indent=2).replace("\n", "\r\n").encode(),
             b"{}", "{\"é\": \"ü\"}".encode()]
    stream = b"".join(_framed(b) for b in valid)
    stream += b"".join(sent for sent, _, _ in HOSTILE) + _framed(valid[0])
    whole = Framer().feed(stream)
    assert [v for k, v in whole if k == "body"][:4] == valid
    assert whole[-1] == ("body", valid[0])
    for size in (1, 2, 3, 7, 64, 1000):
        f = Framer()
        got = [x for i in range(0, len(stream), size) for x in f.feed(stream[i:i + size])]
        assert got == whole, size


def test_go_to_definition_of_a_supply(client, tmp_path):
    text = (ROOT / "tests" / "testdata" / "made_items" / "amazons.meeple").read_text(encoding="utf-8") \
        + "invariant supplied: size(arrows) >= 0\n"
    f = tmp_path / "amazons.meeple"
    f.write_text(text, encoding="utf-8")
    open_doc(client, f, text)
    client.diagnostics(uri(f))
    lines = text.splitlines()
    at = len(lines) - 1
    locs = client.request("textDocument/definition", {"textDocument": {"uri": uri(f)},
                                                      "position": {"line": at, "character": lines[at].index("arrows") + 2}})
    decl = next(i for i, s in enumerate(lines) if s.startswith("supply arrows"))
    assert locs == [{"uri": uri(f), "range": {"start": {"line": decl, "character": 7},
                                              "end": {"line": decl, "character": 13}}}]


def test_a_text_being_edited_is_not_kept_parsed_and_a_file_beside_it_is(tmp_path):
    # (dsl/load.py, parsed_file: the files of a ruleset are kept parsed in the disk
    # cache; the text of an open document changes at every key and would fill it)
    cache = tmp_path / "cache"
    folder = tmp_path / "lsp_game"
    (folder / "locales").mkdir(parents=True)
    f = folder / "lsp_game.meeple"
    f.write_text(GAME, encoding="utf-8")
    (folder / "locales" / "xx.meeple").write_text('locale xx\nlanguage "Xx"\n', encoding="utf-8")
    c = Client(MEEPLE_CACHE_DIR=str(cache))
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        open_doc(c, f, GAME)
        assert c.diagnostics(uri(f)) == []
        for version, text in ((2, GAME.replace("move c to pile", "move c to pyle")), (3, GAME)):
            c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri(f), "version": version}, "contentChanges": [{"text": text}]})
            c.diagnostics(uri(f))
    finally:
        c.close()
    kept = [e.read_bytes() for e in cache.glob("parsed-*.cache")]
    assert len(kept) == 1 and b"xx.meeple" in kept[0] and b"lsp_game.meeple" not in kept[0]
