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

    def __init__(self):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "meeple", "lsp"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
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

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float = 60):
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        while True:
            msg = self.inbox.get(timeout=timeout)
            if msg.get("id") == rid and "method" not in msg:
                assert "error" not in msg, msg
                return msg["result"]
            self.pending.append(msg)

    pending: list = []

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
    c.pending = []
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
    r = subprocess.run([sys.executable, "-m", "meeple", "lsp"], cwd=tmp_path, env=env,
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
