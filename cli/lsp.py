"""``meeple lsp``: a language server (the Language Server Protocol, over stdio, built on
pygls) for ruleset files. An editor gets, as the author types:

- the checker's diagnostics (the same as ``meeple validate``: every file of the
  ruleset's folder is checked with the open, unsaved texts, the base alone, each variant
  and each locale), with their codes and hints;
- hover text for a declared name (its declaration, the comment above it, what players
  see it called), a builtin, a constant or a keyword;
- go to definition of a declared name (kinds and their attributes, enums and their
  values, boards, zones, decks, variables, relations, functions, procedures...);
- completion of keywords, builtins and the ruleset's names (attributes after a dot).

The analysis (``Workspace``) is plain Python, tested without the protocol; ``serve``
wires it to pygls, an optional dependency (``pip install "meeple[lsp]"``), through a
framing of our own that no client can make hang or crash (``lspio``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from .. import interpreter
from ..dsl import ast as ir, load as dsl_load
from ..dsl.builtins import BUILTINS, CLOSURES, CONSTANTS, FORMS
from ..dsl.errors import Diagnostic, MeepleError
from ..dsl.parse import keywords

SUFFIX = dsl_load.SUFFIX
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# what a keyword does, in one line (hover); the reference has the rest
KEYWORD_HELP = {
    "ruleset": "`ruleset NAME`: the header of a base ruleset file",
    "variant": "`variant NAME`: the header of a variant file (changes laid over the base)",
    "locale": "`locale NAME`: the header of a locale file (names and texts in a language)",
    "players": "`players 2..4`: how many may play; in expressions, all players in seat order",
    "kind": "`kind Card { suit: Suit, value: int }`: a kind of item and its attributes",
    "enum": "`enum Suit { hearts, spades }`: a set of named values",
    "board": "`board b: grid(rows: 3, cols: 3) holds Kind`: cells that hold items",
    "zone": "`zone hand: Card per player owner`: a place that holds items",
    "deck": "`deck cards into supply { ... }`: the items made at the start, and where they go",
    "var": "`var score: int per player = 0`: a variable of the game, of each player or of each item",
    "relation": "`relation beside(a: b, c: b) = ...`: a relation between cells, computed once",
    "function": "`function f(x: T): R = expr`: a pure function",
    "procedure": "`procedure p(x: T) { ... }`: statements that may ask players to decide",
    "setup": "`setup { ... }`: runs once when a game starts",
    "turn": "`turn { ... }`: runs for the active player, then play passes on",
    "end": "`end when cond`: checked after every turn; `end game` ends it at once",
    "score": "`score(p) = expr`: each player's score when the game is over",
    "heuristic": "`heuristic(p) = expr`: how good the position is for a player, a hint for bots",
    "payoff": "`payoff(p) = expr [per D] [summing to N]`: each player's payoff (`payoff = expr`: one shared; "
               "`per 6`: the expression counts sixths)",
    "tiebreak": "`tiebreak name(p) = expr`: breaks ties of the score, in order",
    "outcome": "`outcome(p) { win when ... draw when ... loss otherwise }`",
    "team": "`team(p) = expr`: players with equal values play together",
    "choose": "`choose x from LIST as \"verb\"`: the player deciding picks one option",
    "move": "`move ITEM to PLACE`: moves an item (the top of a zone or cell, or a given item)",
    "deal": "`deal N from ZONE to ZONE`: moves items one by one from the top",
    "shuffle": "`shuffle ZONE`: a chance step: the zone in a random order",
    "roll": "`roll a, b from 1..6`: chance steps: each die a random number",
    "let": "`let x = expr`: a local name",
    "log": "`log key(args)`: a message for every player (a text of the ruleset)",
    "secret": "`secret ZONE [until end]`: what lies there never reaches another player's view",
    "invariant": "`invariant name always: cond`: a condition `meeple test` checks in every game",
    "bound": "`bound N turns`: every game ends within this",
    "participant": "`participant name [score = expr]`: takes part without being a seat",
    "offscreen": "`offscreen NAME`: a variable, zone or board the terminal screens do not draw",
    "return": "`return expr`: ends a procedure with its result",
    "call": "`call p(args)`: runs a procedure (`let v = call f()` keeps its result)",
}


def uri_to_path(uri: str) -> Path:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else Path(uri)


def path_to_uri(path: str | Path) -> str:
    return "file://" + quote(str(Path(path).resolve()))


def ruleset_folder(path: Path) -> Path:
    """The folder of the ruleset a file belongs to (a variant's or locale's: two up)."""
    parent = path.parent
    if parent.name in ("variants", "locales") and any(parent.parent.glob(f"*{SUFFIX}")):
        return parent.parent
    return parent


def _folder_files(folder: Path) -> list[Path]:
    return (sorted(folder.glob(f"*{SUFFIX}")) + sorted((folder / "variants").glob(f"*{SUFFIX}"))
            + sorted((folder / "locales").glob(f"*{SUFFIX}")))


@dataclass
class Symbol:
    name: str
    what: str              # "kind", "function", "attribute of Card", "value of Suit"...
    file: str
    line: int              # 1-based, where the name is written
    column: int            # 1-based
    signature: str         # the declaration's first line
    doc: str = ""          # the comment lines just above it
    shown: list[str] = field(default_factory=list)   # what players see it called


@dataclass
class Analysis:
    """One ruleset folder checked: the diagnostics per file and the declared names."""

    folder: Path
    diagnostics: dict[str, list[Diagnostic]]
    symbols: dict[str, list[Symbol]]
    sources: dict[str, str]


class Workspace:
    """The open documents (their unsaved texts) and the analysis of their folders."""

    def __init__(self, budgets=None):
        self.open: dict[str, str] = {}     # path -> text
        self.budgets = budgets
        self._cache: dict[Path, Analysis] = {}

    def set_text(self, path: Path, text: str | None) -> None:
        key = str(path.resolve())
        if text is None:
            self.open.pop(key, None)
        else:
            self.open[key] = text
        self._cache.pop(ruleset_folder(path.resolve()), None)

    def analysis(self, path: Path) -> Analysis:
        folder = ruleset_folder(path.resolve())
        found = self._cache.get(folder)
        if found is None:
            found = self._cache[folder] = self._analyse(folder, path.resolve())
        return found

    # ------------------------------------------------------------ checking
    def _analyse(self, folder: Path, path: Path) -> Analysis:
        src = dsl_load.SourceSet()
        files = _folder_files(folder)
        if path.suffix == SUFFIX and path not in files:
            files.append(path)
        for f in files:
            key = str(f)
            text = self.open.get(key)
            if text is None:
                try:
                    text = dsl_load.read_text(f, 10_000_000)
                except (OSError, ValueError) as e:
                    src.diagnostics.append(Diagnostic("load/io", ir.Span(file=key), str(e)))
                    continue
            # (a text open in the editor changes at every key: not kept in the disk cache)
            dsl_load.add_text(src, key, text, self.budgets, keep=key not in self.open)
        found: dict[str, list[Diagnostic]] = {str(f): [] for f in files}
        seen: set = set()

        def add(ds) -> None:
            for d in ds:
                k = (d.code, d.span.file, d.span.line, d.span.column, d.message)
                if k not in seen:
                    seen.add(k)
                    found.setdefault(d.span.file, []).append(d)

        add(src.diagnostics)
        if src.base is not None and not [d for d in src.diagnostics if d.severity == "error"]:
            variants = sorted(src.variants)
            combos = [((), None)] + [((v,), None) for v in variants] \
                + [((), loc) for loc in sorted(src.locales)]
            for vs, loc in combos:
                try:
                    prog = interpreter.compile_sources(src, list(vs), loc, self.budgets)
                except MeepleError as e:
                    add(e.diagnostics)
                except interpreter.RuleError as e:
                    base = src.base.span.file
                    add([Diagnostic(getattr(e, "code", "rule/error"),
                                    getattr(e, "span", None) or ir.Span(file=base, line=1, column=1),
                                    str(e))])
                else:
                    add(prog.warnings)
        return Analysis(folder, found, _symbols(src), dict(src.sources))

    # ------------------------------------------------------------ queries
    def word_at(self, path: Path, line: int, column: int) -> tuple[str, bool] | None:
        """The name under a 0-based position, and whether a dot comes just before it."""
        text = self.text(path)
        lines = text.splitlines()
        if not 0 <= line < len(lines):
            return None
        s = lines[line]
        for m in _WORD.finditer(s):
            if m.start() <= column <= m.end():
                return m.group(), s[:m.start()].rstrip().endswith(".")
        return None

    def text(self, path: Path) -> str:
        key = str(path.resolve())
        if key in self.open:
            return self.open[key]
        try:
            return dsl_load.read_text(path, 10_000_000)
        except (OSError, ValueError):
            return ""

    def hover(self, path: Path, line: int, column: int) -> str | None:
        found = self.word_at(path, line, column)
        if found is None:
            return None
        word, after_dot = found
        symbols = self.analysis(path).symbols.get(word, [])
        if after_dot:
            symbols = [s for s in symbols if s.what.startswith("attribute")] or symbols
        if symbols:
            return "\n\n---\n\n".join(_describe(s) for s in symbols[:4])
        if word in BUILTINS and not after_dot:
            b = BUILTINS[word]
            return f"**{word}** (builtin): {b.result}" + \
                (". Also over a comprehension: `" + word + "(e for x in xs)`." if b.aggregate else "")
        if word in CLOSURES and not after_dot:
            return f"**{word}** (builtin): {CLOSURES[word].result}"
        if word in FORMS and not after_dot:
            return f"**{word}** (builtin): {FORMS[word]}"
        if word in CONSTANTS:
            return f"**{word}** (constant): {CONSTANTS[word].meaning}"
        if word in keywords():
            return f"**{word}** (keyword)" + (f": {KEYWORD_HELP[word]}" if word in KEYWORD_HELP else "")
        return None

    def definition(self, path: Path, line: int, column: int) -> list[Symbol]:
        found = self.word_at(path, line, column)
        if found is None:
            return []
        word, after_dot = found
        symbols = self.analysis(path).symbols.get(word, [])
        if after_dot:
            return [s for s in symbols if s.what.startswith("attribute")] or symbols
        return [s for s in symbols if not s.what.startswith("attribute")] or symbols

    def completions(self, path: Path, line: int, column: int) -> list[tuple[str, str, str]]:
        """(label, what, detail) of what may be written at a 0-based position."""
        lines = self.text(path).splitlines()
        before = lines[line][:column] if 0 <= line < len(lines) else ""
        prefix_match = re.search(r"[A-Za-z_][A-Za-z0-9_]*\Z", before)
        prefix = prefix_match.group() if prefix_match else ""
        head = before[:len(before) - len(prefix)]
        symbols = self.analysis(path).symbols
        out: dict[str, tuple[str, str, str]] = {}
        if head.rstrip().endswith("."):
            for name, syms in symbols.items():
                for s in syms:
                    if s.what.startswith("attribute") and name.startswith(prefix):
                        out.setdefault(name, (name, s.what, s.signature))
            for name in ("row", "col", "name", "x", "y", "z"):
                if name.startswith(prefix):
                    out.setdefault(name, (name, "attribute of a cell", ""))
            return sorted(out.values())
        for name, syms in symbols.items():
            s = syms[0]
            if name.startswith(prefix) and not s.what.startswith("attribute"):
                out[name] = (name, s.what, s.signature)
        for name, b in BUILTINS.items():
            if name.startswith(prefix):
                out.setdefault(name, (name, "builtin", b.result))
        specials = {**{n: c.result for n, c in CLOSURES.items()}, **FORMS}
        for name, result in specials.items():
            if name.startswith(prefix):
                out.setdefault(name, (name, "builtin", result))
        for name, c in CONSTANTS.items():
            if name.startswith(prefix):
                out.setdefault(name, (name, "constant", c.meaning))
        for word in keywords():
            if word.startswith(prefix):
                out.setdefault(word, (word, "keyword", KEYWORD_HELP.get(word, "")))
        return sorted(out.values())


def _describe(s: Symbol) -> str:
    parts = [f"```meeple\n{s.signature}\n```", f"*{s.what}*, {Path(s.file).name}:{s.line}"]
    if s.doc:
        parts.append(s.doc)
    if s.shown:
        parts.append("Players see: " + "; ".join(s.shown))
    return "\n\n".join(parts)


# ---------------------------------------------------------------- the names of a ruleset

_NAMED = {"EnumDecl": "enum", "KindDecl": "kind", "BoardDecl": "board", "ZoneDecl": "zone",
          "DeckDecl": "deck", "VarDecl": "variable", "ConstDecl": "const", "RelationDecl": "relation",
          "FunctionDecl": "function", "ProcedureDecl": "procedure", "TiebreakDecl": "tiebreak",
          "InvariantDecl": "invariant", "ParticipantDecl": "participant", "SupplyDecl": "supply"}


def _symbols(src: dsl_load.SourceSet) -> dict[str, list[Symbol]]:
    out: dict[str, list[Symbol]] = {}
    files = ([src.base] if src.base is not None else []) + list(src.variants.values()) \
        + list(src.locales.values())
    shown: dict[str, list[str]] = {}
    for f in files:
        for d in _decls(f):
            if d.node == "NameDecl":
                short = f" / {d.short!r}" if d.short else ""
                shown.setdefault(d.path, []).append(f"{d.text!r}{short} ({_file_kind(f)})")
    for f in files:
        text = src.sources.get(f.span.file, "")
        lines = text.splitlines()
        for d in _decls(f):
            what = _NAMED.get(d.node)
            if what is None or not getattr(d, "name", None):
                continue
            sym = _symbol(d.name, what, d.span, lines)
            sym.shown = shown.get(d.name, [])
            out.setdefault(d.name, []).append(sym)
            if d.node == "EnumDecl":
                for v in d.values:
                    s = _symbol(v, f"value of {d.name}", d.span, lines, search_from=sym)
                    s.shown = shown.get(f"{d.name}.{v}", [])
                    out.setdefault(v, []).append(s)
            elif d.node == "KindDecl":
                for fd in d.fields:
                    s = _symbol(fd.name, f"attribute of {d.name}", fd.span, lines)
                    s.shown = shown.get(f"{d.name}.{fd.name}", [])
                    out.setdefault(fd.name, []).append(s)
    return out


def _decls(f: ir.File):
    """A file's declarations, the one of each ``replace`` too."""
    for d in f.decls:
        yield d.decl if d.node == "Replace" else d


def _file_kind(f: ir.File) -> str:
    return "base" if f.kind == "ruleset" else f"{f.kind} {f.name}"


def _symbol(name: str, what: str, span: ir.Span, lines: list[str],
            search_from: Symbol | None = None) -> Symbol:
    """Where ``name`` is written in its declaration (from the declaration's start)."""
    line, col = span.line, span.column
    if search_from is not None:
        line, col = search_from.line, search_from.column
    for i in range(max(line, 1) - 1, min(len(lines), max(line, 1) + 40)):
        start = col - 1 if i == line - 1 else 0
        m = re.compile(rf"\b{re.escape(name)}\b").search(_code(lines[i]), max(start, 0))
        if m:
            line, col = i + 1, m.start() + 1
            break
    first = lines[span.line - 1].strip() if 0 < span.line <= len(lines) else name
    doc = []
    j = span.line - 2
    while 0 <= j < len(lines) and lines[j].strip().startswith("#"):
        doc.insert(0, lines[j].strip().lstrip("#").strip())
        j -= 1
    return Symbol(name, what, span.file, line, col, first, " ".join(doc))


def _code(line: str) -> str:
    """A line with its strings and comment blanked (same length)."""
    return re.sub(r'"(?:[^"\\]|\\.)*"|#.*', lambda m: " " * len(m.group()), line)


# ---------------------------------------------------------------- the protocol

def utf16_column(line_text: str, column: int) -> int:
    """A 0-based character column as UTF-16 code units (the protocol's default)."""
    return len(line_text[:column].encode("utf-16-le")) // 2


def char_column(line_text: str, column16: int) -> int:
    """A UTF-16 column back to characters."""
    units = 0
    for i, ch in enumerate(line_text):
        if units >= column16:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line_text)


def serve(tcp: str | None = None) -> None:  # pragma: no cover - run in a subprocess by tests
    from lsprotocol import types as T

    from .. import __version__
    from .lspio import make_server

    server = make_server("meeple", __version__)   # pygls', reading through a bounded framing
    ws = Workspace()
    published: dict[Path, set[str]] = {}

    def line_of(path: Path, line: int) -> str:
        lines = ws.text(path).splitlines()
        return lines[line] if 0 <= line < len(lines) else ""

    def position(path: Path, pos) -> tuple[int, int]:
        return pos.line, char_column(line_of(path, pos.line), pos.character)

    def lsp_range(path: str, line: int, col: int, length: int):
        text = line_of(Path(path), line - 1)
        start = utf16_column(text, col - 1)
        end = utf16_column(text, col - 1 + max(length, 1))
        return T.Range(T.Position(line - 1, start), T.Position(line - 1, max(end, start + 1)))

    def publish(path: Path) -> None:
        a = ws.analysis(path)
        files = set(a.diagnostics) | published.get(a.folder, set())
        for f in sorted(files):
            items = []
            for d in a.diagnostics.get(f, []):
                line, col = max(d.span.line, 1), max(d.span.column, 1)
                message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
                items.append(T.Diagnostic(
                    range=lsp_range(f, line, col, d.length), message=message, code=d.code,
                    source="meeple",
                    severity=T.DiagnosticSeverity.Warning if d.severity == "warning"
                    else T.DiagnosticSeverity.Error))
            server.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=path_to_uri(f), diagnostics=items))
        published[a.folder] = {f for f, ds in a.diagnostics.items() if ds}

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams):
        path = uri_to_path(params.text_document.uri)
        ws.set_text(path, params.text_document.text)
        publish(path)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams):
        path = uri_to_path(params.text_document.uri)
        doc = ls.workspace.get_text_document(params.text_document.uri)
        ws.set_text(path, doc.source)
        publish(path)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: T.DidSaveTextDocumentParams):
        path = uri_to_path(params.text_document.uri)
        ws.set_text(path, ws.open.get(str(path.resolve())))
        publish(path)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: T.DidCloseTextDocumentParams):
        path = uri_to_path(params.text_document.uri)
        ws.set_text(path, None)
        publish(path)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: T.HoverParams):
        path = uri_to_path(params.text_document.uri)
        text = ws.hover(path, *position(path, params.position))
        if text is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params: T.DefinitionParams):
        path = uri_to_path(params.text_document.uri)
        return [T.Location(uri=path_to_uri(s.file), range=lsp_range(s.file, s.line, s.column, len(s.name)))
                for s in ws.definition(path, *position(path, params.position))] or None

    kinds = {"keyword": T.CompletionItemKind.Keyword, "builtin": T.CompletionItemKind.Function,
             "constant": T.CompletionItemKind.Constant, "const": T.CompletionItemKind.Constant,
             "function": T.CompletionItemKind.Function,
             "procedure": T.CompletionItemKind.Method, "relation": T.CompletionItemKind.Function,
             "kind": T.CompletionItemKind.Class, "enum": T.CompletionItemKind.Enum,
             "variable": T.CompletionItemKind.Variable, "zone": T.CompletionItemKind.Variable,
             "board": T.CompletionItemKind.Variable, "deck": T.CompletionItemKind.Variable}

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def completion(ls, params: T.CompletionParams):
        path = uri_to_path(params.text_document.uri)
        items = []
        for label, what, detail in ws.completions(path, *position(path, params.position)):
            kind = kinds.get(what) or (T.CompletionItemKind.Field if what.startswith("attribute")
                                       else T.CompletionItemKind.EnumMember if what.startswith("value")
                                       else T.CompletionItemKind.Text)
            items.append(T.CompletionItem(label=label, kind=kind, detail=what,
                                          documentation=detail or None))
        return T.CompletionList(is_incomplete=False, items=items)

    if tcp:
        host, _, port = tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
