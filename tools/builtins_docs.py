"""Writes what is generated from the table of built-ins (dsl/builtins.py) and from the
table of operators (dsl/operators.py) again: the tables of docs/language.md §8 and §7.1
and the editor grammar's pattern of built-in calls
(editors/vscode/syntaxes/meeple.tmLanguage.json). Run it after changing a table
(tests/test_builtins.py and tests/test_operators.py fail until then).

    python3 tools/builtins_docs.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.dsl import builtins, operators  # noqa: E402 - the checkout, on the path just above

LANGUAGE = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "meeple.tmLanguage.json"
SECTION = "## 8. Built-in functions and constants"
OPERATORS = "### 7.1 Operators and precedence"
SCOPE = "support.function.builtin.meeple"


def table_span(text: str) -> tuple[int, int]:
    """Where the table of built-ins is in docs/language.md (start, end)."""
    start = text.index("| Built-in | Result | Meaning |", text.index(SECTION))
    end = text.index("\n\n", start)
    return start, end


def operators_span(text: str) -> tuple[int, int]:
    """Where the table of operators is in docs/language.md (start, end)."""
    start = text.index("| Operators | Meaning | Types | Grammar |", text.index(OPERATORS))
    end = text.index("\n\n", start)
    return start, end


def docs_text(text: str) -> str:
    start, end = table_span(text)
    text = text[:start] + builtins.reference_table() + text[end:]
    start, end = operators_span(text)
    return text[:start] + operators.reference_table() + text[end:]


def grammar_text(text: str) -> str:
    grammar = json.loads(text)
    (rule,) = [p for p in grammar["repository"]["builtin"]["patterns"] if p["name"] == SCOPE]
    rule["match"] = builtins.editor_pattern()
    return json.dumps(grammar, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    for path, make in ((LANGUAGE, docs_text), (GRAMMAR, grammar_text)):
        old = path.read_text(encoding="utf-8")
        new = make(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
