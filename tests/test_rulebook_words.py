"""A rulebook written for players (issue 39 §3): its steps, conditions, scoring and
messages read as sentences in the locale's language, not as Meeple code, and it shows a
turn of a real game, the same in every build."""
from __future__ import annotations

import re
from pathlib import Path

import bundled
import pytest
from console import meeple_cli
from meeple.interpreter.documents import rulebook, rulebook_view
from meeple.interpreter.documents.rulebook import Code, Diagram, Items, Para, Steps, Table

from meeple import interpreter

SEED_GAMES = ("cherokee", "clans-and-glory", "brotherhood-of-nine")
# what only code has: comparisons, calls and lists, a template's placeholders
OPERATOR = re.compile(r"==|!=|<=|>=|[<>(){}\[\]]|\b(and|or|not)\b")


def _sections(book):
    stack = list(book.sections)
    while stack:
        s = stack.pop(0)
        yield s
        stack[:0] = s.sections


def _texts(block):
    if isinstance(block, Para):
        yield block.text
    elif isinstance(block, Items):
        yield from block.items
    elif isinstance(block, Table):
        yield from block.header
        yield from (c for row in block.rows for c in row)
    elif isinstance(block, Steps):
        stack = list(block.steps)
        while stack:
            st = stack.pop(0)
            yield st.text
            stack[:0] = st.children
    elif isinstance(block, Diagram):
        yield block.caption


def _books():
    for name in bundled.names():
        for locale in [None] + bundled.locales(name):
            yield name, locale


@pytest.mark.parametrize(("name", "locale"), list(_books()), ids=lambda x: x or "base")
def test_the_book_says_the_rules_in_words_not_code(name, locale):
    book = rulebook.build(interpreter.load(name, locale=locale))
    code, braces = [], []
    for s in _sections(book):
        for b in s.blocks:
            for text in _texts(b):
                for p in text:
                    if isinstance(p, Code):
                        # the vocabulary maps the rules' names to the players' words:
                        # there, and only there, a name may be anything the rules wrote
                        if s.id != "vocabulary" and OPERATOR.search(p.text):
                            code.append((s.id, p.text))
                    elif "{" in str(p) or "}" in str(p):
                        braces.append((s.id, str(p)))
    assert not code, code[:5]
    assert not braces, braces[:5]   # every message template reads as a sentence


def _plain(book) -> str:
    return " ".join(rulebook.plain(t) for s in _sections(book) for b in s.blocks for t in _texts(b))


@pytest.mark.parametrize(("locale", "sentence"), [
    ("en", "the active player chases the card away (the strength against the defence)"),
    # (a rule function by its name in the locale, `name card "Karte"`)
    ("de", "der aktive Spieler verjagt Karte (Stärke gegen Verteidigung)"),
    ("ru", "активный игрок изгоняет карта (сила против защита)"),
])
def test_a_message_template_reads_as_a_sentence_in_the_locales_words(locale, sentence):
    text = _plain(rulebook.build(interpreter.load("cherokee", locale=locale)))
    assert sentence in text and "{active}" not in text


TINY = """ruleset words
title "Words"
players 2..2
kind Chip { v: int }
zone pile: Chip
zone hand: Chip per player
var passes: int = 0
deck chips into pile { Chip(v: v) for v in 1..6 }
function worth(c: Chip): int = c.v * 2
function pick(p: player): int = [4, 5][seat(p) - 1]
setup { deal 2 from pile to hand }
turn {
  if not (empty(hand(active)) or passes >= 3) {
    choose c from [x for x in items(hand(active)) if worth(x) != 4] as "play"
    move c to pile
    log gave "{active} gives {c} to {next_player(active)}"
  } else {
    passes = passes + 1
  }
}
end when all(empty(hand(p)) for p in players) or abs(passes - 1) > 2
score(p) = sum(worth(c) for c in items(hand(p)))
"""


def _tiny(tmp_path: Path) -> str:
    root = tmp_path / "words"
    root.mkdir()
    (root / "words.meeple").write_text(TINY, encoding="utf-8")
    return str(root)


def test_each_form_of_expression_reads_as_words(tmp_path):
    md = rulebook_view.markdown(rulebook.build(interpreter.load(_tiny(tmp_path), cache=False)))
    # neither a nor b: not a and not b
    assert "1. If hand of the active player is not empty and passes is less than 3:" in md
    # a list comprehension, a function call, a comparison, a message's placeholders
    assert ("The active player chooses *c* from each *x* of the pieces in hand of the active "
            "player for which *worth* of *x* is not 4 (move `play`).") in md
    assert "Announce: “the active player gives *c* to the player after the active player”." in md
    # (a number raised by an amount: "increase")
    assert "Increase passes by 1." in md and "Set passes to passes plus 1." not in md
    # a quantifier in brackets beside `or`; abs of a difference
    assert ("The game ends after a turn when (for every *p* of the players: hand of *p* is empty) "
            "or the difference between passes and 1 is more than 2 holds.") in md
    assert "the sum of *worth* of *c*, for each *c* of the pieces in hand of *p*" in md
    assert "- *worth* of *c*: the value of *c* times 2" not in md   # (an attribute without a name)
    assert "- *worth* of *c*: the v of *c* times 2" in md
    assert "- *pick* of *p*: entry the seat of *p* of 4 and 5" in md   # (xs[k - 1]: counted from 1)
    assert not [c for c in re.findall(r"`([^`]*)`", md) if OPERATOR.search(c)]


def _example(book):
    (ex,) = [s for s in _sections(book) if s.id == "example"]
    return ex


@pytest.mark.parametrize("name", bundled.names())
def test_every_bundled_game_has_a_worked_example_the_same_in_every_build(name):
    ruleset = interpreter.load(name)
    book = rulebook.build(ruleset)
    ex = _example(book)
    moves = next(b for b in ex.blocks if isinstance(b, Items))
    assert moves.items and all(isinstance(p, Code) for m in moves.items for p in m if not isinstance(p, str))
    drawings = [b for b in ex.blocks if isinstance(b, Diagram)]
    tables = [b for b in ex.blocks if isinstance(b, Table)]
    assert tables and all(t.rows for t in tables)     # something changed, and is listed
    for before, after in zip(drawings[::2], drawings[1::2]):
        assert (before.tag, after.tag) == ("-before", "-after") and before.board == after.board
        assert after.marked and not before.marked
        assert all(before.labels[i] != after.labels[i] for i in after.marked)
    again = rulebook.build(interpreter.load(name))
    assert rulebook_view.markdown(again) == rulebook_view.markdown(book)
    assert rulebook_view.html(again) == rulebook_view.html(book)


def test_the_example_draws_the_board_before_and_after_with_the_changes_marked():
    page = rulebook_view.html(rulebook.build(interpreter.load("cherokee", locale="en")))
    before = re.search(r'<figure class="board" id="drawing-pyramid-before">(.*?)</figure>', page, re.S)
    after = re.search(r'<figure class="board" id="drawing-pyramid-after">(.*?)</figure>', page, re.S)
    assert before and after
    assert 'fill="#ffd966"' in after.group(1) and 'fill="#ffd966"' not in before.group(1)
    assert "Hierarchy pyramid before the turn" in before.group(1)
    # each cell's item by its short label, the cell's name as the box's title
    assert "<title>r1c1</title>" in after.group(1) and re.search(r">\d[mw][A-Z][A-Za-z]?</text>", after.group(1))


def test_rulebook_check_with_a_variant_checks_the_game_with_it(tmp_path):
    root = tmp_path / "checked"
    (root / "variants").mkdir(parents=True)
    (root / "locales").mkdir()
    (root / "checked.meeple").write_text(TINY.replace("ruleset words", "ruleset checked"), encoding="utf-8")
    (root / "variants" / "fast.meeple").write_text('variant fast\ntitle "Fast"\n', encoding="utf-8")
    (root / "variants" / "slow.meeple").write_text('variant slow\ntitle "Slow"\n', encoding="utf-8")
    (root / "locales" / "de.meeple").write_text('locale de\nprose variant.fast "Schnell."\n', encoding="utf-8")
    every = meeple_cli("rulebook", root, "--check", "--locale", "de")
    assert every.code == 1 and "variant.slow" in every.out and "variant.fast" not in every.out, every
    fast = meeple_cli("rulebook", root, "--check", "--locale", "de", "--variant", "fast")
    assert fast.code == 1 and "variant.slow" not in fast.out and "action.play" in fast.out, fast
    bad = meeple_cli("rulebook", root, "--check", "--variant", "quick")
    assert bad.code != 0 and "quick" in bad.err and "Traceback" not in bad.err, bad


def test_a_game_of_one_turn_gets_that_turn_with_its_values_as_example():
    # (blotto: both seats send their troops at once, and the game is over)
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(Path(__file__).parent / "testdata" / "blotto"))))
    example = md[md.index("### A turn played out"):]
    example = example[:example.index("\n## ")]
    assert "- Player 1: `send " in example and "- Player 2: `send " in example
    assert "This turn ends the game." in example
    assert re.search(r"\| plan of Player 1 \|   \| \d, \d, \d \|", example), example


def test_a_message_names_a_player_it_holds_as_a_player_and_other_values_bare():
    md = rulebook_view.markdown(rulebook.build(interpreter.load("clans-and-glory", locale="en")))
    # (`takes "Board {s.pos}: {chief} takes {won}"`: chief a player, won a list of cards)
    assert "| `takes` | Board pos: the player *chief* takes *won* |" in md
    assert "| `player` | Player *n* |" in md          # a text that is no message
    assert "Announce: “the active player places *card* at *cell*”." in md


def test_a_language_makes_its_contractions_where_words_meet():
    text = _plain(rulebook.build(interpreter.load("cherokee", locale="fr")))
    assert "Si la main du joueur actif est vide" in text
    assert " de le " not in text and " de les " not in text
    text = _plain(rulebook.build(interpreter.load("cherokee", locale="de")))
    assert "Handkarten des aktiven Spielers" in text and "von der aktive Spieler" not in text


def test_the_example_says_what_lies_on_a_chosen_cell():
    md = rulebook_view.markdown(rulebook.build(interpreter.load("cherokee", locale="en")))
    example = md[md.index("### A turn played out"):]
    # (the member chased, as players read it, with the cell the move names)
    assert re.search(r"- Player 1: `chase (r\dc\d)` \(\1: [A-Z][a-z]+( [A-Z][a-z]+)? (wo)?man \d\)", example), example


TESTDATA = Path(__file__).resolve().parent / "testdata"
GAMES = sorted(str(p.relative_to(TESTDATA)) for p in TESTDATA.rglob("*.meeple")
               if not p.stem.endswith("_errors") and p.parent.name not in ("variants", "locales"))


@pytest.mark.parametrize("name", GAMES)
def test_every_test_game_has_a_book_in_words(name):
    """Every ruleset of tests/testdata builds its book (a built-in new to the language
    reads as words: quoridor's walls on the sides between cells failed here once)."""
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(TESTDATA / name))))
    assert "{" not in md.replace("{{", "")


def test_the_sides_between_cells_read_as_words():
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(TESTDATA / "quoridor"))))
    assert "the cells next to *square* of *p* across an open side of gap not among *shut*" in md
    for lang, catalog in rulebook.catalogs().items():
        assert {"f.edge", "f.across", "f.across3", "f.knows"} <= set(catalog["messages"]), lang


def test_an_enum_value_reads_by_its_name_without_label_punctuation():
    # (`name Guard.shielded ", shielded"`, `name Guard.bare ""`: parts of a label;
    # `Action.move` a value named through its enum)
    md = rulebook_view.markdown(rulebook.build(interpreter.load("brotherhood-of-nine", locale="en")))
    assert "If the guard of *v* is shielded:" in md
    assert "Set the guard of *v* to *bare*." in md
    assert "If *act* is move:" in md
    assert " is , " not in md and "the move of Action" not in md


def test_a_filtered_list_before_an_operator_is_in_brackets():
    # (`count(c for c in cells(pyramid) if empty(c)) <= 1`: the comparison is not part
    # of the list's condition)
    md = rulebook_view.markdown(rulebook.build(interpreter.load("cherokee", locale="en")))
    assert ("*one gap at most* (always): (the number of *c* of the cells of hierarchy pyramid "
            "for which *c* is empty) is at most 1") in md
