"""The Pygments lexer (dsl/lexer.py): every bundled ruleset file lexes without an error
token, every word of the grammar is highlighted as a keyword, and the text comes back
unchanged."""
from __future__ import annotations

from pathlib import Path

import pytest
from meeple.dsl.lexer import MeepleLexer
from meeple.dsl.parse import keywords
from pygments.token import Comment, Error, Keyword, Name, Operator, String

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rulesets").rglob("*.meeple")) + sorted((ROOT / "tests" / "testdata").rglob("*.meeple"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_ruleset_file_lexes_cleanly(path):
    text = path.read_text(encoding="utf-8")
    tokens = list(MeepleLexer().get_tokens(text))
    assert [t for t in tokens if t[0] in Error] == []
    assert "".join(v for _, v in tokens) == text if text.endswith("\n") else text + "\n"


def test_every_keyword_is_highlighted_as_one():
    for word in keywords():
        (kind, value), *_ = MeepleLexer().get_tokens(word)
        assert value == word and (kind in Keyword or kind in Operator.Word), (word, kind)


def test_tokens_of_a_line():
    line = 'function worth(p: player): int = sum(c.value for c in items(hand(p))) # total\n'
    got = [(k, v) for k, v in MeepleLexer().get_tokens(line) if v.strip()]
    assert (Keyword.Declaration, "function") in got
    assert (Name.Function, "worth") in got
    assert (Name.Builtin, "sum") in got and (Name.Builtin, "items") in got
    assert (Name, "hand") in got        # a zone: a name, not a builtin
    assert got[-1] == (Comment.Single, "# total")
    strings = [k for k, v in MeepleLexer().get_tokens('log said("{who} plays")\n') if k in String]
    assert String.Interpol in strings
