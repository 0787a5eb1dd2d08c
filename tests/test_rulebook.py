"""`meeple rulebook` and interpreter.rulebook: every bundled ruleset, in every one of its
locales and with each variant, gives a rulebook that says every rule (each action and
its verb, each phase and procedure, each scoring rule, each variant's changes), in the
locale's language, as Markdown and as well-formed HTML that say the same."""
from __future__ import annotations

import json
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import bundled
import pytest
from console import meeple_cli
from meeple.dsl import ast as ir, load as dsl_load
from meeple.interpreter.documents import rulebook, rulebook_view
from meeple.interpreter.documents.rulebook import Code

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "interpreter" / "documents" / "rulebook_messages"
LANGUAGES = ("en", "de", "fr", "nl", "ru")


def combinations():
    for name in bundled.names():
        for locale in [None] + bundled.locales(name):
            for variants in [[]] + [[v] for v in bundled.variants(name)]:
                yield name, locale, variants


def _id(c):
    name, locale, variants = c
    return "-".join([name, locale or "base"] + variants)


@pytest.fixture(scope="module")
def sources():
    return {name: dsl_load.read_sources(dsl_load.resolve_path(name)) for name in dsl_load.bundled_names()}


class Tags(HTMLParser):
    """Checks that every element is closed in order; collects code texts and headings."""
    VOID = {"meta", "br", "img", "line", "circle"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.codes, self.headings, self.problems = [], [], [], []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag in ("code", "h2", "h3", "h4", "h5", "h6"):
            self.text = []

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag == "code":
            self.codes.append("".join(self.text))
        elif tag in ("h2", "h3", "h4", "h5", "h6"):
            self.headings.append((int(tag[1]), "".join(self.text)))

    def handle_data(self, data):
        self.text.append(data)


def parse_html(text: str) -> Tags:
    p = Tags()
    p.feed(text)
    p.close()
    assert not p.problems, p.problems[:5]
    assert p.stack == [], p.stack
    return p


MD_CODE = re.compile(r"(`+) ?(.*?) ?\1")


def md_codes(md: str) -> list[str]:
    out = []
    for line in md.splitlines():
        table = line.startswith("|")
        for m in MD_CODE.finditer(line):
            out.append(m.group(2).replace("\\|", "|") if table else m.group(2))
    return out


def md_headings(md: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(r"^(#{2,6}) (.*)$", md, re.M)]


def _strip_md(s: str) -> str:
    s = MD_CODE.sub(lambda m: m.group(2), s)
    s = re.sub(r"(?<!\\)\*(.+?)(?<!\\)\*", r"\1", s)   # a term: *name*
    return re.sub(r"\\(.)", r"\1", s).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def decisions(checked):
    """(verb, node) of every decision of the rules: setup, turn, at end, procedures."""
    blocks = [d.body for d in (checked.setup, checked.turn, checked.at_end) if d is not None]
    blocks += [p.body for p in checked.procedures.values()]
    for b in blocks:
        for n in ir.walk(b):
            if n.node in ("Choose", "ChooseSubset", "ChooseEach"):
                yield n.verb or n.var, n
                if getattr(n, "alone", None):
                    yield n.alone, n
            elif n.node == "Best" and n.tie == "choose":
                yield "tie", n


@pytest.mark.parametrize("combo", list(combinations()), ids=_id)
def test_every_rule_of_every_bundled_ruleset_is_in_its_rulebook(combo, sources):
    name, locale, variants = combo
    src = sources[name]
    ruleset = interpreter.compile_sources(src, variants, locale)
    c = ruleset.checked
    book = rulebook.build(ruleset)
    md, page = rulebook_view.markdown(book), rulebook_view.html(book)
    tags = parse_html(page)
    codes = set(md_codes(md))
    # markdown and html say the same: the same headings, the same code, every text
    assert [(lvl, _strip_md(t)) for lvl, t in md_headings(md)] == tags.headings
    assert sorted(md_codes(md)) == sorted(tags.codes)
    assert not [x for x in codes if re.match(r"\([A-Z][A-Za-z]+ ", x)]   # no statement left unread
    plain_md = _strip_md(md)
    for text in rulebook_view.text_of(book):
        assert text.strip() in plain_md, text
    # no markdown heading above ##, no html in the markdown
    assert not re.search(r"^# ", md, re.M) and "<" not in MD_CODE.sub("", md)
    # every action with its verb and what it is chosen from
    actions = next((s for s in next(s for s in book.sections if s.id == "turn").sections if s.id == "actions"), None)
    table = actions.blocks[1].rows if actions else []
    listed = {p.text for row in table for p in row[0] if isinstance(p, Code)}
    chosen_from = {rulebook.plain(row[2]) for row in table}
    for verb, node in decisions(c):
        assert verb in codes and verb in listed, verb
        assert rulebook.plain(rulebook.expression_words(ruleset, node.options)) in chosen_from, verb
    # every phase and procedure, as a heading of its own
    ids = {s.id for top in book.sections for s in [top] + top.sections}
    ids |= {s.id for top in book.sections for sub in top.sections for s in sub.sections}
    assert {"overview", "goal", "components", "setup", "turn", "end", "vocabulary"} <= ids
    assert ("at-end" in ids) == (c.at_end is not None)
    headings = [(lvl, _strip_md(t)) for lvl, t in md_headings(md)]
    for p in c.procedures:
        assert f"procedure-{p}" in ids and (3, p) in headings, p
    # scoring: score, every tiebreak, every outcome clause, the end
    def said(e):
        return rulebook.plain(rulebook.expression_words(ruleset, e)) in plain_md
    if c.score is not None:
        assert said(c.score.body)
    for t in c.tiebreaks:
        assert said(t.body)
    if c.outcome is not None:
        for cl in c.outcome.clauses:
            assert cl.cond is None or said(cl.cond)
    if c.end is not None:
        assert said(c.end.cond)
    # every variant of the folder, with each of its changes
    for v, f in src.variants.items():
        title = c.names.get(f"variant.{v}", (next((d.text for d in f.decls if d.node == "Title"), v),))[0]
        assert (3, title) in headings, v
        for d in f.decls:
            if d.node == "Replace":
                assert ir.decl_key(d.decl) in codes
            elif d.node == "Remove":
                assert f"{d.what} {d.name}" in codes
            elif d.node == "Extend":
                assert (f"procedure {d.name}" if d.target == "procedure" else d.target) in codes
    # every declared name in the vocabulary, with what players see it called
    vocab = next(s for s in book.sections if s.id == "vocabulary").blocks[0]
    declared = {row[0][0].text: row[1][0] for row in vocab.rows}
    for path, (shown, _) in c.names.items():
        # (a variant's title, `name variant.NAME`, heads the variant's section instead)
        assert path.startswith("variant.") or declared[path] == shown, path
    for z in list(c.zones) + list(c.boards) + list(c.kinds):
        assert z in declared
    # the language of the locale, with no sentence missing
    assert book.missing == set()
    assert book.lang == (rulebook.language_of(c) or "en")


def test_every_board_is_drawn_with_its_cells_in_html():
    ruleset = interpreter.load("go")
    page = rulebook_view.html(rulebook.build(ruleset))
    prog = ruleset.for_players(2)
    svgs = re.findall(r'<figure class="board" id="drawing-[a-z_]+">(<svg.*?</svg>)', page, re.S)
    assert len(svgs) == len(ruleset.checked.boards) == 1
    assert svgs[0].count("<rect") == len(prog.boards["point"]) == 81   # a box per cell
    assert "<line" in svgs[0]   # the adjacency relation is drawn as edges


def test_deck_counts_are_given_per_player_count_when_they_differ():
    md = rulebook_view.markdown(rulebook.build(interpreter.load("cherokee")))
    assert "In every game: 72 pieces (72 × `Member` (member))." in md
    assert "| 2 | 78 | 36 |" in md
    chess = rulebook_view.markdown(rulebook.build(interpreter.load("chess")))
    # the pieces by their labels, with the values they start with (role is set in setup)
    assert "The pieces: White pawn × 8; Black pawn × 8; White rook × 2;" in chess
    assert "| `Piece` | man | `colour: Colour`, `first: Role`, `home: int` | `role: Role`, `moved: bool` |" in chess


def test_a_deck_of_many_pieces_is_a_table_by_their_attributes():
    hearts = rulebook.build(interpreter.load("hearts"))
    md = rulebook_view.markdown(hearts)
    # a row per suit with its 13 cards, not one paragraph of 52 names
    assert "The pieces of kind `Card` (card), by suit:" in md
    # (the attributes' headings by their names, else as words: never code)
    assert "| Suit | Rank |" in md
    for suit in ("clubs", "diamonds", "hearts", "spades"):
        assert f"| {suit} | two, three, four, five, six, seven, eight, nine, ten, jack, queen, king, ace |" in md
    assert "The pieces: two of clubs" not in md and "two of clubs;" not in md
    page = rulebook_view.html(hearts)
    parse_html(page)
    assert "<tr><td>spades</td><td>two, three," in page
    # three attributes: a grid of two of them (clan × sex), the third in the cells
    ru = rulebook_view.markdown(rulebook.build(interpreter.load("cherokee", locale="ru")))
    assert "| Клан | Мужчина | Женщина |" in ru
    assert "| Птицы | 4, 5, 6, 7, 8, 9 | 3, 4, 5, 6, 7, 8 |" in ru
    assert "Фишки: Птицы мужчина 4" not in ru
    # how many of each, in the cells
    nine = rulebook_view.markdown(rulebook.build(interpreter.load("brotherhood-of-nine")))
    assert "| red | Kveblir × 2, Linda × 2, Surron × 3, Drantul × 3, Ekvil × 3, flag |" in nine


def test_a_few_pieces_or_pieces_without_attributes_stay_a_sentence(tmp_path):
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(tiny(tmp_path)))))
    assert "The pieces: Token 1; Token 2; Token 3; Token 4." in md
    many = tmp_path / "many"
    many.mkdir()
    (many / "many.meeple").write_text(RULESET.replace("players_count_or(4)", "30").replace(
        "ruleset tiny", "ruleset many"), encoding="utf-8")
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(many))))
    # one attribute: nothing to group by, however many pieces
    assert "The pieces: Token 1; Token 2; " in md and "Token 30." in md and "by `" not in md


def test_a_deck_entry_without_attributes_has_no_dangling_with():
    chess = rulebook_view.markdown(rulebook.build(interpreter.load("chess")))
    assert "\n- a scoresheet\n" in chess      # (`1 Sheet`: no attributes to list)
    assert " with \n" not in chess


def test_a_translated_ruleset_gets_a_translated_rulebook():
    md = rulebook_view.markdown(rulebook.build(interpreter.load("cherokee", locale="fr")))
    assert "## Mise en place" in md and "## Un tour" in md
    assert "| `draw` | pioche |" in md          # the locale's name for the zone
    assert "(coup `chase` (expulser: Choisissez un membre à expulser))" in md   # its word, its text
    ru = rulebook_view.markdown(rulebook.build(interpreter.load("cherokee", locale="ru")))
    assert "## Подготовка" in ru


RULESET = """ruleset tiny
title "Tiny <script>alert(1)</script>"
players 2..3
kind Token { value: int }
zone pile: Token
zone hand: Token per player owner
deck tokens into pile { Token(value: v) for v in 1..players_count_or(4) }
setup { deal 1 from pile to hand }
procedure bonus(): int {
  if size(pile) > 2 { return 2 }
  return 1
}
procedure nothing() { return }
turn {
  choose t from items(hand(active)) as "play" or "pass"
  if t != none { move t to pile }
  let k = call bonus()
  call nothing()
}
end when all(empty(hand(p)) for p in players)
score(p) = 0
name pile "<b>pile</b> & co"
text play "Play a <i>token</i>"
"""


def tiny(tmp_path: Path, locale: str | None = None) -> Path:
    folder = tmp_path / "tiny"
    (folder / "locales").mkdir(parents=True)
    (folder / "tiny.meeple").write_text(RULESET.replace("players_count_or(4)", "4"), encoding="utf-8")
    (folder / "locales" / "es.meeple").write_text(
        'locale es\nlanguage "Español"\nname pile "montón"\ntext play "Juega una ficha"\n', encoding="utf-8")
    return folder


def test_text_from_the_ruleset_is_escaped_in_html_and_markdown(tmp_path):
    book = rulebook.build(interpreter.load(str(tiny(tmp_path))))
    page = rulebook_view.html(book)
    parse_html(page)
    assert "<script" not in page and "<b>" not in page and "<i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&amp; co" in page
    md = rulebook_view.markdown(book)
    assert "<script" not in md and "<b>" not in md and "&lt;b&gt;pile&lt;/b&gt; &amp; co" in md


def test_a_language_without_sentences_gets_english_ones_and_a_note(tmp_path):
    book = rulebook.build(interpreter.load(str(tiny(tmp_path)), locale="es"))
    md = rulebook_view.markdown(book)
    assert book.lang == "en"
    assert "Meeple has no rulebook sentences in Español yet" in md
    assert "## Setup" in md and "| `pile` | montón |" in md
    assert "`play` (Juega una ficha)" in md and "`pass`" in md


def test_procedures_with_results_read_as_steps(tmp_path):
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(tiny(tmp_path)))))
    assert "### `bonus`" in md and "It gives a result: `int`." in md
    assert ("1. If the number of pieces in &lt;b&gt;pile&lt;/b&gt; &amp; co is more than 2:\n"
            "    1. The result is 2.\n2. The result is 1.") in md
    assert "Do `bonus` (see Procedures) and set *k* to its result." in md
    assert "### `nothing`\n\n1. Stop here." in md


SAID = {"en": "*how* is the verb of the move played.",
        "de": "*how* ist das Verb des gespielten Zugs.",
        "fr": "*how* est le verbe du coup joué.",
        "nl": "*how* is het werkwoord van de gespeelde zet.",
        "ru": "*how* — глагол сыгранного хода."}


def test_a_choice_that_names_its_verb_says_what_the_local_holds(tmp_path):
    folder = tmp_path / "verbs_demo"
    (folder / "locales").mkdir(parents=True)
    demo = (ROOT / "tests" / "testdata" / "verbs_demo.meeple").read_text(encoding="utf-8")
    (folder / "verbs_demo.meeple").write_text(demo, encoding="utf-8")
    for lang in LANGUAGES[1:]:
        (folder / "locales" / f"{lang}.meeple").write_text(f"locale {lang}\n", encoding="utf-8")
    for lang, sentence in SAID.items():
        book = rulebook.build(interpreter.load(str(folder), locale=None if lang == "en" else lang))
        md = rulebook_view.markdown(book)
        assert book.lang == lang and md.count(sentence) == 1, (lang, md)
        # a child of its choice, after the verbs played alone
        alone = re.search(r"\n    2\. .*`pass`.*\n    3\. (.*)\n", md)
        assert alone and alone.group(1) == sentence, lang
        assert sentence.replace("*how*", "*which*") in md and "`card`" not in sentence
    # a choice without a local for its verb reads as before: no such sentence
    md = rulebook_view.markdown(rulebook.build(interpreter.load(str(tiny(tmp_path)))))
    assert "`pass`" in md and "is the verb of the move played" not in md


def test_every_template_key_is_in_every_language_with_the_same_fields():
    # (the catalogs as the rulebook reads them: the files, with the phrases of the
    # built-ins, which dsl/builtins.py declares with each)
    english = rulebook.catalogs()["en"]["messages"]
    source = (ROOT / "interpreter" / "documents" / "rulebook.py").read_text(encoding="utf-8")
    used = set(re.findall(r'\bs(?:\.word)?\("([a-z_]+\.[a-z_]+)"', source))
    assert used and used <= set(english), used - set(english)
    for lang in LANGUAGES:
        cat = rulebook.catalogs()[lang]
        assert cat["language"] and set(cat["messages"]) == set(english), lang
        # (a built-in's phrase is in dsl/builtins.py alone, not in a catalog's file)
        in_file = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))["messages"]
        assert not [k for k in in_file if k.startswith("f.")], lang
        for key, text in cat["messages"].items():
            # (a phrase may have forms: by case, or plural ones chosen by its n; a
            # placeholder may ask for a case of what it holds, {a:gen})
            forms = text if isinstance(text, dict) else {"": text}
            # (or the name without its article, {a:bare}, as a form too)
            cases = {*rulebook.CASES, rulebook.BARE}
            assert set(forms) <= {""} | cases or set(forms) <= set(rulebook.PLURALS), (lang, key)
            assert fields_of(text) == fields_of(english[key]), (lang, key)
            assert {c for t in forms.values() for c in re.findall(r"\{[a-z_]+:([a-z]+)\}", t)} <= cases, (lang, key)
    assert set(rulebook.catalogs()) == set(LANGUAGES)


def fields_of(text) -> set:
    """The fields a catalog's phrase fills, in any of its forms."""
    texts = text.values() if isinstance(text, dict) else [text]
    return {f for t in texts for f in re.findall(r"\{([a-z_]+)(?::[a-z]+)?\}", t)}


# ---------------------------------------------------------------- the command

def test_rulebook_command_writes_markdown_and_html(tmp_path):
    r = meeple_cli("rulebook", "kalah", "--locale", "de")
    assert r.code == 0, r
    assert r.out.startswith("**Kalaha**") and "## Spielvorbereitung" in r.out
    out = tmp_path / "kalah.html"
    r = meeple_cli("rulebook", "kalah", "--format", "html", "-o", out)
    assert r.code == 0 and r.out == "", r
    parse_html(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("args, code, words", [
    (["--locale", "xx"], 2, "no locale 'xx'"),
    (["--variant", "nope"], 2, "no variant 'nope'"),
    (["--format", "docx"], 2, "--format must be md, html or pdf"),
    (["-o", "/nonexistent/folder/book.md"], 1, "cannot write the rulebook to /nonexistent/folder/book.md"),
])
def test_rulebook_command_errors_are_clear(args, code, words):
    r = meeple_cli("rulebook", "kalah", *args)
    assert r.code == code and words in r.err, r
    assert r.out == ""


def test_each_action_says_when_it_is_asked():
    md = rulebook_view.markdown(rulebook.build(interpreter.load("clans-and-glory")))
    assert ("| `hide` (No villager fits anywhere: choose one to place face down) | the active player "
            "| the pieces in hand of the active player | *playable* is empty | turn |") in md
    assert "| `shield` (Put a shield on this board's stone table?) | the active player | no and yes " \
           "| shields of the active player is not empty | turn |" in md


def test_a_ruleset_with_problems_gets_its_diagnostics_and_exit_1(tmp_path):
    bad = tmp_path / "bad.meeple"
    bad.write_text("ruleset bad\nplayers 2..2\nturn { shuffle nowhere }\n", encoding="utf-8")
    r = meeple_cli("rulebook", bad)
    assert r.code == 1 and "bad.meeple:3:" in r.err and "cannot be loaded" in r.err, r
    assert r.out == ""


def test_the_rulebook_is_written_whole_and_never_into_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = meeple_cli("rulebook", "kalah", "-o", fifo)
    assert r.code == 1 and "cannot write the rulebook" in r.err and "not a regular file" in r.err, r  # no hang
    out = tmp_path / "book.md"
    out.write_text("old", encoding="utf-8")
    r = meeple_cli("rulebook", "kalah", "-o", out)
    assert r.code == 0 and out.read_text(encoding="utf-8").startswith("**Kalah**"), r
    assert sorted(os.listdir(tmp_path)) == ["book.md", "pipe"]   # no temporary file left


# ---------------------------------------------------------------- the styled page and the PDF

def _sections(book):
    stack = list(book.sections)
    while stack:
        s = stack.pop(0)
        yield s
        stack[:0] = s.sections


def test_the_html_book_is_styled_has_contents_and_draws_the_boards_inline():
    book = rulebook.build(interpreter.load("go", locale="de"))
    page = rulebook_view.html(book)
    parse_html(page)
    # self-contained: the stylesheet inline (screen and print rules), nothing fetched
    (style,) = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert style.strip() == rulebook_view.stylesheet().strip()
    assert "@page" in style and "@media print" in style and "&#34;" not in style
    assert not re.search(r"<(link|script|img)\b", page) and "http" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    # the contents: a link to every chapter and to each of its sections, in order, in
    # the book's language, before the first chapter
    (nav,) = re.findall(r'<nav class="toc" aria-label="Inhalt">(.*?)</nav>', page, re.S)
    wanted = [s.id for top in book.sections for s in [top, *top.sections]]
    assert re.findall(r'<a href="#([^"]+)">', nav) == wanted
    ids = re.findall(r'<section id="([^"]+)"', page)
    assert set(wanted) <= set(ids) and len(ids) == len(set(ids)) == len(list(_sections(book)))
    assert page.index("<nav") < page.index('<section id="overview"')
    # each board drawn inline, as a figure with its name
    (figure,) = re.findall(r'<figure class="board" id="drawing-point">(.*?)</figure>', page, re.S)
    assert figure.startswith("<svg") and figure.count("<rect") == 81
    assert figure.endswith('<figcaption id="drawing-point-end" class="mono">point</figcaption>')


def test_a_long_list_of_short_entries_is_set_in_columns():
    page = rulebook_view.html(rulebook.build(interpreter.load("chess")))
    lists = re.findall(r"<ul( class=\"columns\")?>(.*?)</ul>", page, re.S)
    columns = [body for cls, body in lists if cls]
    # the 64 cells of the board, not the long definitions nor the short lists
    assert len(columns) == 1 and columns[0].count("<li>") == 64 and "<code>a8</code>" in columns[0]
    assert any(body.count("<li>") > 12 for cls, body in lists if not cls)


def test_the_page_is_made_from_the_packaged_templates():
    import tomllib
    folder = ROOT / "interpreter" / "documents" / "templates"
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["rulebook.css", "rulebook.html"]
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = data["tool"]["setuptools"]["package-data"]["meeple.interpreter.documents"]
    assert {"templates/*.html", "templates/*.css"} <= set(globs)
    # Jinja2, which draws the page, is a dependency of the package itself (not an extra)
    assert any(d.startswith("jinja2>=") for d in data["project"]["dependencies"])


def _pdf_tools():
    weasyprint = pytest.importorskip("weasyprint", reason="the pdf extra (WeasyPrint) is not installed")
    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (of the test extra) is not installed")
    return weasyprint, pdfium


# A4 at 72 dpi (1 pixel = 1 pt); the margins of the stylesheet's @page are 20 mm (top),
# 18 mm (sides) and 22 mm (bottom, where the page number is): nothing may be drawn in
# the outer 15 mm of the sides and the top, nor in the bottom's but in its middle
A4 = (595, 842)
MM = 72 / 25.4
BAND = round(15 * MM)


def _ink(image, box) -> int:
    """How many pixels of ``box`` (x0, y0, x1, y1) are not white (a gray below 235)."""
    hist = image.crop(box).convert("L").histogram()
    return sum(hist[:235])


# (cherokee in the quick tier; go and clans-and-glory, its board wide, with the slow tests)
@pytest.mark.parametrize("name", ["cherokee", pytest.param("go", marks=pytest.mark.slow),
                                  pytest.param("clans-and-glory", marks=pytest.mark.slow)])
def test_the_pdf_book_has_full_pages_and_nothing_beyond_their_margins(name, tmp_path):
    _, pdfium = _pdf_tools()
    out = tmp_path / f"{name}.pdf"
    r = meeple_cli("rulebook", name, "--format", "pdf", "-o", out)
    assert r.code == 0 and r.out == "" and r.err == "", r
    data = out.read_bytes()
    assert data.startswith(b"%PDF-")
    book = rulebook.build(interpreter.load(name))
    doc = pdfium.PdfDocument(data)
    headings = {" ".join(rulebook.plain(s.title).split()) for s in _sections(book)}
    # a cover with the contents, then each chapter from a new page: more pages than
    # chapters, but not a page per paragraph
    assert len(book.sections) + 1 <= len(doc) <= 3 * len(book.sections) + 6, len(doc)
    text = ""
    for i in range(len(doc)):
        page = doc[i]
        assert tuple(round(v) for v in page.get_size()) == A4
        image = page.render(scale=1).to_pil()
        w, h = image.size
        # not blank: at least a line of text (a chapter's last page may hold one)
        assert _ink(image, (BAND, BAND, w - BAND, h - BAND)) > 400, f"page {i + 1} is blank"
        for side, box in {"left": (0, 0, BAND, h), "right": (w - BAND, 0, w, h),
                          "top": (0, 0, w, BAND),
                          "bottom": (0, h - BAND, w // 2 - 60, h),
                          "bottom-right": (w // 2 + 60, h - BAND, w, h)}.items():
            assert _ink(image, box) == 0, f"page {i + 1}: drawn beyond the {side} margin"
        if i:   # the page number, from the second page
            assert _ink(image, (w // 2 - 60, h - BAND, w // 2 + 60, h)) > 0, i
        lines = [ln.strip() for ln in page.get_textpage().get_text_range().splitlines()]
        lines = [ln for ln in lines if ln and not re.fullmatch(r"\d+ / \d+", ln)]
        # no heading left alone at the foot of a page: it goes with what follows it
        if i:
            assert lines and lines[-1] not in headings, f"page {i + 1} ends with the heading {lines[-1]}"
        text += "\n".join(lines) + "\n"
        # (kept for the person running the tests: python3 -m pytest --basetemp=DIR)
        image.save(tmp_path / f"{name}-{i + 1}.png")
    # every chapter's heading is in the text, after the contents that name it too
    flat = " ".join(text.split())
    for top in book.sections:
        title = rulebook.plain(top.title)
        assert flat.count(title) >= 2, title


@pytest.mark.parametrize("name", ["go", pytest.param("clans-and-glory", marks=pytest.mark.slow)])
def test_the_pdf_keeps_each_board_drawing_whole_on_one_page(name):
    weasyprint, _ = _pdf_tools()
    book = rulebook.build(interpreter.load(name))
    # (the worked example's drawings, before and after its turn, too)
    boards = [b.board + b.tag for s in _sections(book) for b in s.blocks if isinstance(b, rulebook.Diagram)]
    assert boards
    pages = weasyprint.HTML(string=rulebook_view.html(book)).render().pages
    for board in boards:
        (page,) = [p for p in pages if f"drawing-{board}" in p.anchors]   # on one page only
        top, end = page.anchors[f"drawing-{board}"], page.anchors[f"drawing-{board}-end"]
        # the figure starts and its caption (after the drawing) ends on the same page,
        # inside the page's margins (x0, y0, x1, y1 in CSS pixels: 96 a inch)
        px = 96 / 25.4
        assert top[1] >= 20 * px - 1 and end[3] <= page.height - 22 * px + 1, (board, top, end)
        assert top[0] >= 18 * px - 1 and top[2] <= page.width - 18 * px + 1, (board, top)


def test_a_pdf_without_weasyprint_is_a_usage_error_saying_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "weasyprint", None)   # an import of it fails
    out = tmp_path / "book.pdf"
    r = meeple_cli("rulebook", "go", "--format", "pdf", "-o", out)
    assert r.code == 2 and "a PDF needs WeasyPrint" in r.err and "pip install 'meeple[pdf]'" in r.err, r
    assert r.out == "" and not out.exists()
    with pytest.raises(rulebook_view.PdfUnavailable, match="WeasyPrint"):
        rulebook_view.pdf(rulebook.build(interpreter.load("go")))


def test_a_pdf_is_not_written_to_a_text_stream(tmp_path):
    _pdf_tools()
    r = meeple_cli("rulebook", "go", "--format", "pdf")   # (stdout: a StringIO, no bytes)
    assert r.code == 2 and "give -o FILE" in r.err and r.out == "", r
