"""Names are names (issue 34, item 9): a keyword matches whole words only, so a name that
starts or ends with one (`winner`, `xwin`, `win_`, `win2`) is a name everywhere a name may
stand; a reserved word (docs/language.md, Appendix B) used as a name is the located error
"`best` is a reserved word" (parse/reserved-word). The words come from the grammar
(``dsl.parse.keywords``), never from a hand-written list."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet, add_text
from meeple.dsl.parse import NAME_PLACES, keywords, parse, parser, reserved_words

from meeple import interpreter

KEYWORDS = keywords()
LANGUAGE = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def listed_reserved_words() -> tuple[str, ...]:
    """The reserved words docs/language.md lists (Appendix B), sorted."""
    appendix = LANGUAGE.read_text(encoding="utf-8").split("## Appendix B", 1)[1]
    listed = appendix.split("The reserved words", 1)[1].split("\n\n", 1)[0]
    return tuple(sorted(re.findall(r"`([a-z_]+)`", listed)))


# The tests of each word take the words of the reference: finding them from the grammar
# (reserved_words, a parse for each keyword) takes a second that every pytest-xdist
# worker would spend collecting this file; the reference's list is the grammar's
# (test_the_reference_lists_every_reserved_word).
LISTED = listed_reserved_words()

# a name made of a keyword and letters, digits or '_' before or after it; one form for
# each of the nine places a name is declared in below
FORMS = ("{}x", "x{}", "{}_", "_{}", "{}2", "{}_{}", "Q{}", "{}9z", "z{}z")


def compile_text(text: str) -> interpreter.Ruleset:
    src = SourceSet()
    add_text(src, "names.meeple", text)
    return interpreter.compile_sources(src)


def names_ruleset() -> str:
    """A ruleset where, for every keyword, a name made from it is a variable, a zone, an
    enum value, a function, its parameter, a procedure, its parameter, a local and a loop
    variable (each place a different form of the name, every form used by some place),
    each used at the start of a statement and inside expressions."""
    decls, body = [], []
    values = []
    for i, word in enumerate(KEYWORDS):
        var, zone, value, func, fparam, proc, pparam, local, loop = (
            FORMS[(k + i) % len(FORMS)].format(word, word) for k in range(len(FORMS)))
        values.append(value)
        decls += [f"var {var}: int = 0",
                  f"zone {zone}: Token",
                  f"function {func}({fparam}: int): int = {fparam} + {var}",
                  f"procedure {proc}({pparam}: int) {{ {var} = {pparam} + size({zone}) }}"]
        body += [f"  let {local} = {func}({var}) + 1",
                 f"  {local} = {local} * 2",
                 f"  for {loop} in [{local}] {{ {var} = {loop} + {local} }}",
                 f"  if {value} == {value} {{ call {proc}({local}) }}",
                 f"  total = total + {var}"]
    return "\n".join([
        "ruleset names", "players 2..2", "kind Token { }",
        f"enum Names {{ {', '.join(values)} }}", "var total: int = 0", *decls,
        "turn {", *body, "  end game", "}", "score(p) = total"]) + "\n"


def test_the_forms_give_distinct_names_that_are_no_keyword():
    names = [form.format(w, w) for w in KEYWORDS for form in FORMS]
    assert len(set(names)) == len(names)
    assert not set(names) & set(KEYWORDS)


def test_names_that_start_or_end_with_a_keyword_are_names_everywhere():
    game = compile_text(names_ruleset()).new_game(2, seed=1)
    assert game.over
    # every procedure ran: each added its local, at least 2, to the total
    assert game.result["scores"][0] >= 2 * len(KEYWORDS)


def test_a_name_made_from_a_keyword_is_read_as_one_name():
    # Lark's lexer of all the terminals tries every keyword before a name (their priority
    # is higher), so a keyword that could match the start of a name would here; the lexer
    # of each state of the parser tries a part of them, in the same order
    wrong = []
    for word in KEYWORDS:
        for form in FORMS:
            name = form.format(word, word)
            tokens = [(t.type, str(t)) for t in parser().lex(name + " ")]
            if tokens != [("NAME", name)]:
                wrong.append(tokens)
    assert wrong == []


def test_the_reported_prefixes_are_names():
    # issue 34: each of these failed at the start of a statement: "unexpected 'win'"
    text = "ruleset t\nplayers 2..2\nvar wins: int = 0\nturn {\n  let winner = 1\n" + \
           "  winner = winner + 1\n  let drawn = 1\n  drawn = 2\n  let losses = 0\n" + \
           "  losses = 1\n  let bestow = 1\n  bestow = 2\n  let draws = 1\n  draws = 3\n" + \
           "  wins = winner + drawn + losses + bestow + draws\n  end game\n}\n"
    game = compile_text(text).new_game(2, seed=0)
    assert game.over


def test_the_reserved_words_are_keywords_and_begin_statements_or_expressions():
    assert set(reserved_words()) < set(KEYWORDS)
    # the words that begin a statement, the literals and the word operators
    assert {"let", "if", "for", "while", "move", "best", "call", "end", "true", "none",
            "not", "and", "or", "in"} <= set(reserved_words())
    # keywords of declarations, and words the grammar reads as keywords only after
    # another keyword, are names wherever a name may stand
    assert not {"win", "draw", "loss", "score", "name", "roll", "turn", "public", "first",
                "max", "all", "up", "turns", "otherwise"} & set(reserved_words())


def _failing_places(word: str) -> list[str]:
    head = "ruleset t\nplayers 2..2\nkind Card { v: int }\n"
    out = []
    for place in NAME_PLACES:
        text = head + place.replace("W", word) + "\n"
        try:
            parse(text, "t.meeple")
        except MeepleError as e:
            out.append((place, text, e.diagnostics[0]))
    return out


@pytest.mark.parametrize("word", LISTED)
def test_a_reserved_word_used_as_a_name_is_a_located_error(word):
    failing = _failing_places(word)
    assert failing, f"{word} is reserved but works as a name everywhere"
    for place, text, d in failing:
        assert (d.code, d.message) == ("parse/reserved-word", f"`{word}` is a reserved word"), \
            (place, d.code, d.message)
        line = text.splitlines()[d.span.line - 1]
        assert line[d.span.column - 1:].startswith(word) and d.length == len(word), place
        assert f"{word}_" in d.hint and "Appendix B" in d.hint


@pytest.mark.parametrize("word", [w for w in KEYWORDS if w not in LISTED])
def test_a_keyword_that_is_not_reserved_is_a_name_everywhere(word):
    assert _failing_places(word) == []


def test_other_syntax_errors_after_a_keyword_are_not_reserved_words():
    for body, message in (("turn { end gme }", "unexpected 'gme'"),
                          ("turn {\n  let a = 1\nfunction f(): int = 1\n", "unexpected 'function'"),
                          ("turn { move x }", "unexpected '}'")):
        with pytest.raises(MeepleError) as e:
            parse("ruleset t\n" + body)
        assert (e.value.diagnostics[0].code, e.value.diagnostics[0].message) == \
            ("parse/unexpected-token", message)


def test_the_reference_lists_every_reserved_word():
    assert listed_reserved_words() == reserved_words()
