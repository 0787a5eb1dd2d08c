"""``--json``: the machine-readable output of ``validate``, ``list``, ``simulate``,
``test`` and ``replay``, and its JSON Schemas.

With ``--json`` a command writes exactly one JSON document on the standard output when
it ends with exit code 0 or 1, and nothing else there (warnings, diagnostics as text and
progress go to the standard error); a usage error (exit 2) or an interruption (130)
writes no document. Each document has ``"format": "meeple-<command>/1"`` and
``"ok"``; a command that fails (exit 1) writes ``"ok": false`` and an ``"error"`` (or,
for ``validate`` and ``test``, its diagnostics or its failure). Seats count from 0, as in
the Python API and in records.

The schemas are written in ``cli/schemas.py``, once, and published in
``docs/schema/cli-<command>.schema.json`` (refreshed with ``python -m meeple.cli.schemas``;
a test fails when they are stale). A key is never renamed nor removed within a format
version; a new key may be added (with its schema), so readers should ignore keys they do
not know.
"""
from __future__ import annotations

import re
import sys

VERSION = 1


def format_name(command: str) -> str:
    return f"meeple-{command}/{VERSION}"


# ---------------------------------------------------------------- writing a document

# characters a terminal would act on that json.dumps leaves as they are (it escapes
# C0 controls already): DEL, C1 controls, bidi controls, line/paragraph separators and
# lone surrogates; written as \\uXXXX, the same string for a JSON reader (compiled, as
# json is imported, when a document is first written: not by every command line)
_UNSAFE = "[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"


def dumps(doc: dict, ascii_only: bool = False) -> str:
    """A document as JSON text that is safe to print: one line per key (indented),
    every character a terminal would act on escaped."""
    import json
    text = json.dumps(doc, indent=2, ensure_ascii=ascii_only)
    return re.sub(_UNSAFE, lambda m: f"\\u{ord(m.group()):04x}", text)


def _write(doc: dict) -> None:
    stream = sys.stdout
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    stream.write(dumps(doc, ascii_only=encoding not in ("utf8", "utf_8")) + "\n")
    stream.flush()


class Output:
    """The JSON output of one command run: off, or on and not yet written."""

    def __init__(self, command: str | None = None):
        self.command = command
        self.written = False

    @property
    def on(self) -> bool:
        return self.command is not None

    def emit(self, doc: dict) -> None:
        """Writes the command's document (once: a second one is dropped)."""
        if self.on and not self.written:
            self.written = True
            _write({"format": format_name(self.command), **doc})

    def error(self, message: str, hint: str | None = None, rule: dict | None = None) -> None:
        """The document of a command that fails with exit code 1 (``rule``: where, for an
        error in the rules, see ``rule_error``)."""
        error = {"message": message, "hint": hint}
        if rule is not None:
            error["rule"] = rule
        self.emit({"ok": False, "error": error})


def rule_error(e) -> dict:
    """Where an error in the rules happened (a RuleError), for the ``--json`` documents."""
    span = e.span
    return {"code": e.code, "rule": e.rule, "detail": e.detail,
            "file": span.file if span is not None else None,
            "line": span.line if span is not None else None,
            "column": span.column if span is not None else None}


_current = Output()


def begin(command: str, enabled: bool) -> Output:
    """Called first by each command: its JSON output, on with ``--json``."""
    global _current
    _current = Output(command if enabled else None)
    return _current


def reset() -> None:
    """No JSON output (before each command line)."""
    begin("", False)


def current() -> Output:
    return _current


# ---------------------------------------------------------------- pieces of documents

def diagnostic(d) -> dict:
    """A ``dsl.errors.Diagnostic`` as JSON (line and column null when it is about a
    whole file)."""
    located = d.span.line > 0
    return {"severity": d.severity, "code": d.code, "file": d.span.file,
            "line": d.span.line if located else None,
            "column": d.span.column if located else None,
            "message": d.message, "hint": d.hint}


def cli_diagnostic(code: str, file: str, message: str, hint: str | None = None) -> dict:
    """A problem found by the command line itself (no place in a source file)."""
    return {"severity": "error", "code": code, "file": file, "line": None, "column": None,
            "message": message, "hint": hint}
