"""A log key that is also a verb or a fixed text key collides: one `text` would replace
both. The checker says so (check/text-collision, a warning at the log key)."""
from __future__ import annotations

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources

RULES = """ruleset t
players 2..2
var n: int = 0
turn {{
  choose k from [1, 2] as "play"
  {stmt}
  n = n + k
}}
end when n >= 6
"""


def warnings(stmt: str):
    text = RULES.format(stmt=stmt)
    return compile_sources(SourceSet(base=parse(text, "t.meeple"), sources={"t.meeple": text})).warnings


@pytest.mark.parametrize("key,what", [("play", "the verb of a decision"), ("player", "the UI text"),
                                      ("yes", "the UI text"), ("hidden", "the UI text")])
def test_a_log_key_that_is_also_a_verb_or_a_ui_text_is_a_collision(key, what):
    [w] = warnings(f'log {key} "{{active}} took {{k}}"')
    assert w.code == "check/text-collision" and w.severity == "warning"
    assert (w.span.line, w.span.column, w.length) == (6, 7, len(key))
    assert f"the log key '{key}' is also {what} '{key}'" in w.message
    assert f"log {key}_message" in w.hint


def test_a_log_key_of_its_own_is_no_collision():
    assert warnings('log played "{active} took {k}"') == []
