"""The parser's tables shipped beside the grammar (dsl/grammar.tables): they are those of
dsl/grammar.lark as it is, and tables made from another grammar, by another Lark or
damaged are never used (the parser makes its own instead). With another Lark than the
one that made them (.ci/lowest), the parser makes its own tables: the tests say so."""
from __future__ import annotations

import lark
import pytest
from meeple.dsl import parse as dsl_parse

GRAMMAR_TEXT = dsl_parse.GRAMMAR.read_text(encoding="utf-8")
KEY, _, MADE_BY = dsl_parse.TABLES.read_bytes().split(b"\n", 2)[1].decode("ascii").split(" ")
SAME_LARK = lark.__version__ == MADE_BY
# a grammar changed after the tables were made: `game NAME` is a header too
CHANGED = GRAMMAR_TEXT.replace('HEADER_KIND: "ruleset" | "variant" | "locale"',
                               'HEADER_KIND: "ruleset" | "variant" | "locale" | "game"')


@pytest.fixture
def fresh_parser(monkeypatch):
    """The parser made again, with the disk cache off; made again after the test too."""
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    dsl_parse.parser.cache_clear()
    yield
    dsl_parse.parser.cache_clear()


def test_the_shipped_tables_are_those_of_the_grammar():
    assert dsl_parse.tables_key(GRAMMAR_TEXT) == KEY, \
        "dsl/grammar.tables is stale: run python3 tools/grammar_tables.py"


def test_the_shipped_tables_parse_like_fresh_ones():
    shipped = dsl_parse.shipped_tables(GRAMMAR_TEXT, lark.__version__)
    if not SAME_LARK:       # made by another Lark: not used
        assert shipped is None
        return
    fresh = dsl_parse.make_parser(GRAMMAR_TEXT)
    chess = dsl_parse.GRAMMAR.parent.parent / "rulesets" / "chess" / "chess.meeple"
    source = chess.read_text(encoding="utf-8")
    assert shipped[0].parse(source, start="start") == fresh.parse(source, start="start")


def test_tables_of_another_grammar_are_never_used(tmp_path, monkeypatch, fresh_parser):
    changed = tmp_path / "grammar.lark"
    changed.write_text(CHANGED, encoding="utf-8")
    if SAME_LARK:
        shipped, _ = dsl_parse.shipped_tables(GRAMMAR_TEXT, lark.__version__)
        with pytest.raises(lark.exceptions.UnexpectedInput):     # what stale tables would do
            shipped.parse("game g\n", start="start")
    assert dsl_parse.shipped_tables(CHANGED, lark.__version__) is None
    monkeypatch.setattr(dsl_parse, "GRAMMAR", changed)     # the shipped tables are now stale
    assert dsl_parse.parse("game g\n", "g.meeple").kind == "game"


def test_tables_of_another_lark_are_never_used():
    assert dsl_parse.shipped_tables(GRAMMAR_TEXT, "0.0.1") is None


def test_damaged_tables_are_not_used_and_the_parser_makes_its_own(tmp_path, monkeypatch, fresh_parser):
    data = dsl_parse.TABLES.read_bytes()
    for damaged in (data[:len(data) // 2], data[:-1] + bytes([data[-1] ^ 1]), b""):
        (tmp_path / "grammar.tables").write_bytes(damaged)
        assert dsl_parse.shipped_tables(GRAMMAR_TEXT, lark.__version__, tmp_path / "grammar.tables") is None
    monkeypatch.setattr(dsl_parse, "TABLES", tmp_path / "grammar.tables")
    assert dsl_parse.parse("ruleset r\n", "r.meeple").name == "r"


def test_the_parser_uses_the_shipped_tables_made_by_its_lark(monkeypatch, fresh_parser):
    made, init = [], lark.Lark.__init__

    def counted(self, *args, **kwargs):
        made.append(args)
        init(self, *args, **kwargs)
    monkeypatch.setattr(lark.Lark, "__init__", counted)
    assert dsl_parse.parse("ruleset r\n", "r.meeple").name == "r"
    assert len(made) == (0 if SAME_LARK else 1)
