"""Chunked golden files for negative tests (the starlark-go style).

A file holds many small sources separated by lines `---`. A marker comment
`### code[@col] "regex"` on a line says that a diagnostic with that code (at that
column, if given) and a message or hint matching the regex is reported on that line;
`### ^ code ...` on a line of its own points at the line above.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

MARK = re.compile(r'###\s*(\^)?\s*([a-z]+/[a-z-]+)(?:@(\d+))?\s+"((?:[^"\\]|\\.)*)"')


def golden_chunks(path: Path, require_marks: bool = False) -> list:
    """pytest params (first line in the file, chunk text, expected marks) per chunk."""
    lines = path.read_text(encoding="utf-8").split("\n")
    chunks, cur, start = [], [], None
    for i, line in enumerate(lines, 1):
        if line.strip() == "---":
            if start is not None:
                chunks.append((start, cur))
            cur, start = [], i + 1
        elif start is not None:
            cur.append(line)
    if start is not None:
        chunks.append((start, cur))
    out = []
    for start, body in chunks:
        expected = []
        for i, line in enumerate(body, 1):
            for m in MARK.finditer(line):
                at = i - 1 if m.group(1) else i
                expected.append((at, m.group(2), int(m.group(3)) if m.group(3) else None, m.group(4)))
        assert expected or not require_marks, f"{path.name}:{start}: a chunk without a marker"
        words = body[0].split() if body else []
        name = words[1] if len(words) > 1 and words[0] in ("ruleset", "variant", "locale") \
            else f"line{start}"
        out.append(pytest.param(start, "\n".join(body), expected, id=name))
    return out
