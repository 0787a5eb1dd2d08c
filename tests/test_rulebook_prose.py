"""Prose for players in a ruleset's files (``prose KEY "..."``, issue 39 §3): the
rulebook puts each text in the section of its rule, ``meeple rulebook --check`` lists
the rules that lack prose in each locale, and a key that names no rule is a located
warning."""
from __future__ import annotations

from pathlib import Path

from console import meeple_cli
from meeple.interpreter.documents import rulebook, rulebook_view

from meeple import interpreter

BASE = """ruleset prosed
title "Prosed"
players 2..2
kind Chip { v: int }
zone pile: Chip
zone hand: Chip per player
deck chips into pile { Chip(v: v) for v in 1..6 }
setup { deal 2 from pile to hand }
turn {
  call take()
}
procedure take() {
  if occupied(hand(active)) {
    choose c from items(hand(active)) as "play"
    move c to pile
  }
}
end when empty(hand(players[0])) and empty(hand(players[1]))
score(p) = 0
prose overview "A tiny game about chips."
prose setup "Each player gets two chips."
prose turn "On your turn you give back a chip."
prose procedure.take "Taking is giving back."
prose action.play "Choose the chip you give back."
prose end "The game ends when both hands are empty."
prose score "Nobody scores."
prose variant.fast "The fast game is shorter."
"""
VARIANT = """variant fast
title "Fast"
replace setup { deal 1 from pile to hand }
"""
LOCALE = """locale de
language "Deutsch"
name variant.fast "Schnell"
prose turn "In deinem Zug gibst du einen Chip zurück."
prose variant.fast "Das schnelle Spiel ist kürzer."
"""


def folder(tmp_path: Path, base: str = BASE, locale: str = LOCALE) -> Path:
    root = tmp_path / "prosed"
    (root / "variants").mkdir(parents=True)
    (root / "locales").mkdir()
    (root / "prosed.meeple").write_text(base, encoding="utf-8")
    (root / "variants" / "fast.meeple").write_text(VARIANT, encoding="utf-8")
    (root / "locales" / "de.meeple").write_text(locale, encoding="utf-8")
    return root


def section(book, sid: str):
    todo = list(book.sections)
    while todo:
        s = todo.pop()
        if s.id == sid:
            return s
        todo += s.sections
    raise KeyError(sid)


def said(sec) -> str:
    return " ".join(rulebook.plain(b.text) for b in sec.blocks if isinstance(b, rulebook.Para))


def test_each_prose_text_opens_the_section_of_its_rule(tmp_path):
    book = rulebook.build(interpreter.load(str(folder(tmp_path)), cache=False))
    assert rulebook.plain(section(book, "overview").blocks[0].text) == "A tiny game about chips."
    assert rulebook.plain(section(book, "goal").blocks[0].text) == "Nobody scores."
    assert rulebook.plain(section(book, "setup").blocks[0].text) == "Each player gets two chips."
    assert rulebook.plain(section(book, "turn").blocks[0].text) == "On your turn you give back a chip."
    assert rulebook.plain(section(book, "procedure-take").blocks[0].text) == "Taking is giving back."
    assert rulebook.plain(section(book, "end").blocks[0].text) == "The game ends when both hands are empty."
    assert "The fast game is shorter." in said(section(book, "variant-fast"))
    actions = section(book, "actions").blocks[-1]
    assert [rulebook.plain(t) for t in actions.items] == ["play: Choose the chip you give back."]
    md = rulebook_view.markdown(book)
    assert "On your turn you give back a chip." in md and "- `play`: Choose the chip you give back." in md
    assert "The fast game is shorter." in rulebook_view.html(book)


def test_a_locale_gives_its_own_prose_and_variant_titles(tmp_path):
    book = rulebook.build(interpreter.load(str(folder(tmp_path)), locale="de", cache=False))
    assert rulebook.plain(section(book, "turn").blocks[0].text) == "In deinem Zug gibst du einen Chip zurück."
    variant = section(book, "variant-fast")
    assert rulebook.plain(variant.title) == "Schnell"
    assert "Das schnelle Spiel ist kürzer." in said(variant)


def test_the_variants_are_in_the_book_when_the_ruleset_comes_from_the_cache(tmp_path):
    # a cached ruleset keeps only its files' texts: the book parses them again
    root = folder(tmp_path)
    interpreter.load(str(root))
    again = interpreter.load(str(root))
    assert again.sources.base is None          # from the disk cache
    book = rulebook.build(again)
    assert "The fast game is shorter." in said(section(book, "variant-fast"))


def test_missing_prose_counts_only_the_locales_own_file(tmp_path):
    root = folder(tmp_path)
    base = [interpreter.load(str(root), vs, cache=False) for vs in ([], ["fast"])]
    assert rulebook.prose_wanted(base[0]) == ["overview", "setup", "turn", "end", "score",
                                              "procedure.take", "action.play", "variant.fast"]
    assert rulebook.missing_prose(base) == []
    german = [interpreter.load(str(root), vs, "de", cache=False) for vs in ([], ["fast"])]
    # the base file's English prose does not count for German
    assert rulebook.missing_prose(german) == ["overview", "setup", "end", "score", "procedure.take",
                                              "action.play"]


def test_rulebook_check_lists_what_lacks_prose_per_locale(tmp_path):
    root = folder(tmp_path)
    r = meeple_cli("rulebook", root, "--check")
    assert r.code == 1, r
    # (and, as missing strings too, what players see that the locale gives no name:
    # the book would call it by its identifier)
    assert r.out == ("de: 6 without prose: overview, setup, end, score, procedure.take, "
                     "action.play\nde: 4 without a name: Chip, Chip.v, pile, hand\n")
    named = LOCALE + 'name Chip "Chip"\nname Chip.v "Wert"\nname pile "Stapel"\nname hand "Hand"\n'
    r = meeple_cli("rulebook", folder(tmp_path / "named", locale=named), "--check")
    # (and, listed only, the names German needs a gender of for its articles)
    assert (r.code, r.out) == (1, "de: 6 without prose: overview, setup, end, score, procedure.take, "
                                  "action.play\nde: 4 without a gender: Chip, Chip.v, pile, hand\n"), r
    named = LOCALE + 'name Chip "Chip" m\nname Chip.v "Wert" m\nname pile "Stapel" m\nname hand "Hand" f\n'
    r = meeple_cli("rulebook", folder(tmp_path / "gendered", locale=named), "--check")
    assert (r.code, r.out) == (1, "de: 6 without prose: overview, setup, end, score, procedure.take, "
                                  "action.play\n"), r
    full = named + "".join(f'prose {k} "x"\n' for k in
                           ("overview", "setup", "end", "score", "procedure.take", "action.play"))
    root = folder(tmp_path / "full", locale=full)
    r = meeple_cli("rulebook", root, "--check")
    assert (r.code, r.out) == (0, "de: every rule has prose\n"), r


def test_prose_for_no_rule_is_a_located_warning(tmp_path):
    root = folder(tmp_path, locale=LOCALE + 'prose action.plya "typo"\nprose variant.slow "no"\n')
    r = meeple_cli("validate", root)
    assert "check/unknown-prose" in r.out + r.err, r
    text = r.out + r.err
    assert "de.meeple:6" in text and "no rule is called 'action.plya'" in text
    assert "action.play" in text                      # did you mean
    assert "de.meeple:7" in text and "no rule is called 'variant.slow'" in text


def test_the_seed_games_have_prose_for_every_rule_in_every_locale():
    for _ in range(2):     # the second time from the disk cache (files kept as texts only)
        r = meeple_cli("rulebook", "clans-and-glory", "--check")
        assert (r.code, r.out) == (0, "en: every rule has prose\nru: every rule has prose\n"), r
    r = meeple_cli("rulebook", "cherokee", "--check")
    # (and every name of its German, French and Dutch locales has a gender)
    assert (r.code, r.out) == (0, "".join(f"{loc}: every rule has prose\n"
                                          for loc in ("de", "en", "fr", "nl", "ru"))), r
    r = meeple_cli("rulebook", "brotherhood-of-nine", "--check")
    assert (r.code, r.out) == (0, "en: every rule has prose\nru: every rule has prose\n"), r
    r = meeple_cli("rulebook", "kalah", "--check", "--locale", "de")
    assert (r.code, r.out) == (1, "de: 6 without prose: overview, setup, turn, end, score, action.sow\n"), r


def test_clans_and_glory_has_prose_for_every_variant_and_says_which_reading_is_the_default():
    for locale, default, turn in [("en", "2 in all", "(2 single cells in all)"),
                                  ("ru", "2 ячейки всего", "(2 одиночные ячейки всего)")]:
        progs = [interpreter.load("clans-and-glory", vs, locale)
                 for vs in ([], ["separate_boards"], ["chosen_first_player"], ["paired_single_cells"])]
        assert not [k for k in rulebook.missing_prose(progs) if k.startswith("variant.") or k == "turn"]
        book = rulebook.build(progs[0])
        assert default in said(section(book, "variant-paired_single_cells"))
        assert turn in said(section(book, "turn"))


def test_brotherhood_of_nine_tells_every_variant_in_the_words_of_each_locale():
    names = ["allies", "allies_crosswise", "archer_lines", "capture_the_flag", "cavalry_jumps", "round_limit"]
    for locale, title, words in [("en", "Capture the flag", "The flag bearer may attack"),
                                 ("ru", "Захват флага", "Воин с флагом может атаковать")]:
        progs = [interpreter.load("brotherhood-of-nine", vs, locale) for vs in [[]] + [[n] for n in names]]
        assert rulebook.missing_prose(progs) == []
        book = rulebook.build(progs[0])
        assert words in said(section(book, "variant-capture_the_flag"))
        assert rulebook.plain(section(book, "variant-capture_the_flag").title) == title
        assert all(said(section(book, f"variant-{n}")) for n in names)
