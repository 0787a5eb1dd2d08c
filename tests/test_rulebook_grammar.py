"""The rulebook's sentences agree as written for players in each language (issue 39
§3): a phrase of the catalog takes the case its place needs (German "aus den Zahlen",
"vom obersten Teil"; Russian "из игроков", "из чисел"), a count the plural form of its
number ("1 piece", "72 фишки", "144 хода"), and a name the locale lacks reads as words,
never as code."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.interpreter import display
from meeple.interpreter.documents import rulebook, rulebook_view

from meeple import interpreter


def book(name: str, locale: str | None = None) -> str:
    return rulebook_view.markdown(rulebook.build(interpreter.load(name, locale=locale)))


def test_german_phrases_take_the_case_their_preposition_needs():
    de = book("cherokee", "de")
    # (dative after aus, von, mit: the generated phrases' own forms)
    assert "für jedes *v* aus den Zahlen von 4 bis 9" in de
    assert "jedes *a* aus den Feldern *neben* *t* zusammen mit den Feldern *unter* *t*" in de
    assert "der Klan vom obersten Teil von der Klankarte von *p*" in de
    assert "Für jedes *p* aus den Spielern:" in de
    assert "in den Handkarten des aktiven Spielers ist nichts" in de
    for wrong in ("aus die ", "mit die ", "von das ", "von die ", "von der aktive"):
        assert wrong not in de, wrong
    # (a name in quotes, as the value it names: without its article)
    assert "Bei Gleichstand entscheidet der Wert „Frauen in der Pyramide“:" in de
    # (a list of arguments keeps the case of each: "für c und den aktiven Spieler")
    assert "*eigene Mulde* gilt für *c* und den aktiven Spieler und in *c* ist etwas" in book("kalah", "de")
    hearts = book("hearts", "de")
    # (a list after "von": "allen", dative too)
    assert "das Erste von allen *i* aus den Zahlen von 0 bis 12" in hearts
    assert "Setze den aktiven Spieler auf *Besitzer der Kreuz Zwei*." in hearts


def test_russian_phrases_take_the_case_and_a_name_its_form_or_quotes(tmp_path):
    ru = book("cherokee", "ru")
    assert "для каждого *v* из чисел от 4 до 9" in ru
    assert "Выберите *первого игрока* случайно из игроков." in ru
    # (names with their forms by case in the locale: declined)
    assert "для каждого *c* из клеток поля пирамиды иерархии" in ru
    assert "Если в картах в руке активного игрока нет фишек:" in ru
    assert "пасов подряд не меньше числа игроков" in ru
    for wrong in ("из игроки", "из клетки поля", "(активный игрок)", "из числа от"):
        assert wrong not in ru, wrong
    assert "Содержимое карты клана *p* теперь открыто для всех." in ru
    # (a name without them stands in quotes where a case is needed)
    assert "Ничья разрешается по признаку «женщины в пирамиде»" in ru
    root = counted(tmp_path, 2)
    (root / "locales" / "ru.meeple").write_text('locale ru\nname row "ряд"\n', encoding="utf-8")
    assert "из клеток поля «ряд»" in book(str(root), "ru")
    # (a number is no name: never in quotes)
    assert "не больше 1" in ru and "«1»" not in ru


@pytest.mark.parametrize("game, sentences, wrong", [
    ("cherokee", ["Активный игрок выбирает *сыгранную карту* из фишек в картах в руке активного игрока",
                  "1. Выберите *первого игрока* случайно из игроков.",
                  "Увеличьте число пасов подряд на 1."],
     ["выбирает *сыгранная карта*", "*первый игрок* случайно", "Теперь пасов подряд"]),
    ("clans-and-glory", ["1. Активный игрок выбирает *карту* из *подходящих карт*",
                         "в картах в руке *игрока с наименьшим числом карт* нет фишек",
                         "(считая с 0) из *размеров руки*",
                         "сторона *x* не больше *числа стартовых карт на поле*",
                         "- *каждая карта жителя по одному разу* (после подготовки)",
                         "Переместите: фишки в картах в руке *p* → сброшенные карты."],
     ["выбирает *карта*", "«*игрок с наименьшим", "«*размеры руки*»", "*one card each*"]),
    ("brotherhood-of-nine", ["*счётчик* меньше *числа действий за ход*",
                             "Пусть *u* — это верхняя фишка в *исходной клетке*.",
                             "*p* выбирает *u* из *воинов по одному каждого типа*",
                             "Активный игрок выбирает *клетку назначения* из *клеток для хода*",
                             "число фишек в *целях удара* не больше *числа ударов* (тип *u*)",
                             "1. Выберите *первого игрока* случайно из игроков.",
                             "- *победители известны* (в конце игры)",
                             "Переместите: *v* → павшие *p*."],
     ["«*действий на воина*»", "«*откуда*»", "«*кто может ходить*»", "*first player*", "*winners known*"]),
])
def test_a_russian_book_declines_the_rules_own_words(game, sentences, wrong):
    # (the seed games' Russian names give their gender and forms by case: the book
    # declines them where a case is needed instead of quoting them or leaving them in
    # the nominative)
    ru = book(game, "ru")
    for sentence in sentences:
        assert sentence in ru, sentence
    for text in wrong:
        assert text not in ru, text


@pytest.mark.parametrize("locale, sentences", [
    ("en", ["In every game: 72 pieces", "Every game ends within 144 turns."]),
    ("de", ["In jedem Spiel: 72 Teile", "Jedes Spiel endet nach höchstens 144 Zügen."]),
    ("fr", ["Dans chaque partie : 72 pièces", "Chaque partie se termine en au plus 144 tours."]),
    ("nl", ["In elk spel: 72 stukken", "Elk spel eindigt binnen 144 beurten."]),
    ("ru", ["В каждой партии: 72 фишки", "Каждая партия заканчивается не более чем за 144 хода."]),
])
def test_a_count_takes_the_plural_form_of_its_number(locale, sentences):
    md = book("cherokee", locale)
    for sentence in sentences:
        assert sentence in md, (locale, sentence)


def counted(tmp_path: Path, n: int) -> Path:
    """A ruleset of n chips on a board of n cells, in each language of the catalogs."""
    root = tmp_path / f"chips{n}"
    (root / "locales").mkdir(parents=True)
    (root / f"chips{n}.meeple").write_text(f"""ruleset chips
title "Chips"
players 2..2
kind Chip {{ }}
zone pile: Chip
board row: line(length: {n}) holds Chip public
deck chips into pile {{ {n} of Chip() }}
turn {{
  choose c from cells(row) as "put"
  move top(pile) to c
}}
end when empty(pile)
score(p) = 0
""", encoding="utf-8")
    for lang in ("de", "fr", "nl", "ru"):
        (root / "locales" / f"{lang}.meeple").write_text(f"locale {lang}\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("n, expected", [
    (1, {"en": "1 piece (", "de": "1 Teil (", "fr": "1 pièce (", "nl": "1 stuk (", "ru": "1 фишка ("}),
    (3, {"en": "3 pieces (", "de": "3 Teile (", "fr": "3 pièces (", "nl": "3 stukken (", "ru": "3 фишки ("}),
    (5, {"en": "5 pieces (", "de": "5 Teile (", "fr": "5 pièces (", "nl": "5 stukken (", "ru": "5 фишек ("}),
    (21, {"ru": "21 фишка ("}),
])
def test_one_few_and_many_in_every_language(tmp_path, n, expected):
    root = counted(tmp_path, n)
    for lang, words in expected.items():
        md = book(str(root), None if lang == "en" else lang)
        assert words in md, (lang, words)
        cells = {"en": "cell", "de": "Feld", "fr": "case", "nl": "veld", "ru": "клет"}[lang]
        assert re.search(rf": {n} {cells}", md), (lang, n)


def test_an_attribute_without_a_name_reads_as_words_never_code():
    # (hearts' rules name no attribute: the table of its cards is headed by words)
    md = book("hearts")
    assert "| Suit | Rank |" in md and "`suit`" not in md.split("### Boards")[0].split("by suit:")[1]
    # (cherokee's German names its attributes: the deck's entries and the table say them)
    de = book("cherokee", "de")
    assert "- Mitglied mit Klan *c*, Geschlecht Mann, Wert *v*" in de
    assert "| Klan | Mann | Frau |" in de


def test_every_seed_and_classic_locale_names_what_players_see():
    for name in ("cherokee", "clans-and-glory", "brotherhood-of-nine", "hearts", "chess", "go",
                 "backgammon", "dots-and-boxes", "kalah"):
        base = interpreter.load(name)
        src = rulebook.sources_of(base)
        for locale in src.locales:
            progs = [interpreter.load(name, [], locale)] + [interpreter.load(name, [v], locale) for v in src.variants]
            assert rulebook.missing_names(progs) == [], (name, locale)


def test_a_locale_names_the_rules_own_words_and_the_book_says_them():
    # (`name feathers "Federn"`, `name targets "Ziele"`: a rule function, a value the
    # steps name; `clan_of` by the name of `clan_of`, `attackers_of` by that of `attackers`)
    de = book("cherokee", "de")
    assert "- *Federn* von *c*: *Basisreihe* minus die Reihe von *c*" in de
    assert "1. *Ziele* sind alle *t* aus den Feldern von der Hierarchie-Pyramide, für die gilt:" in de
    assert "- *Klan* von *p*: der Klan vom obersten Teil von der Klankarte von *p*" in de
    assert "aus *Angreifer* des aktiven Spielers und *Ziel*" in de
    assert "*feathers*" not in de and "*targets*" not in de


def test_a_name_for_no_word_of_the_rules_is_a_located_error(tmp_path):
    root = counted(tmp_path, 2)
    (root / "locales" / "de.meeple").write_text('locale de\nname c "Feld"\nname nosuch "x"\n', encoding="utf-8")
    with pytest.raises(interpreter.MeepleError) as got:
        interpreter.load(str(root), locale="de")
    text = str(got.value)
    assert "unknown name 'nosuch'" in text and "de.meeple:3" in text and "'c'" not in text


def test_steps_and_boards_read_as_sentences_not_as_code():
    # (a `let` of those of a list that ...: "are all t of ... for which"; a number
    # raised by an amount, `x = x + 1`: "increase x by 1"; a board's generator, its
    # arguments and the coordinates of its cells in the catalog's words)
    de, ru, en = book("cherokee", "de"), book("cherokee", "ru"), book("cherokee")
    assert ("1. *Ziele* sind alle *t* aus den Feldern von der Hierarchie-Pyramide, für die gilt: "
            "*angreifbar* gilt für den aktiven Spieler und *t*.") in de
    assert "1. Erhöhe das Passen in Folge um 1." in de
    assert "Die Form: *Dreieck* (Reihen: 8)." in de
    assert "Jedes Feld hat die Koordinaten `col` (Spalte), `row` (Reihe)." in de
    assert "falls gilt: die Reihe von *a* ist die Reihe von *b* und der Abstand zwischen der Spalte von *a*" in de
    assert ("1. *цели* — все *t* из клеток поля пирамиды иерархии, для которых "
            "*можно атаковать* (активный игрок и *t*) верно.") in ru
    assert "Увеличьте " in ru and " на 1." in ru
    assert "Форма: *треугольник* (ряды: 8)." in ru
    assert "У каждой клетки есть координаты `col` (столбец), `row` (ряд)." in ru
    # (an equality with no verb to agree: "A — B")
    assert "- Победа, если *место* — 1" in ru and "ряд *b* — ряд *a* плюс 1" in ru
    # (an attribute takes the case its place needs: "между столбцом")
    assert "разность между столбцом *a* и столбцом *b* — 1" in ru
    for wrong in ("Sei *Ziele* gleich", "Пусть *цели*", "plus 1.", "плюс 1.", " равно ", "triangle", "row von", "row *"):
        assert wrong not in de + ru, wrong
    assert "1. Let *targets* be all *t* of the cells of pyramid for which" in en
    assert "1. Increase passes in a row by 1." in en
    assert "Its shape: *triangle* with rows 8." in en      # (English: the identifiers' words)
    # (a kind standing for all its pieces: those pieces, in the plural)
    assert "die Anzahl der Teile der Art „Mitglied“ ist 72 und (für jedes *m* aus den Teilen der Art „Mitglied“:" in de
    assert "число фишек вида «соплеменник» — 72 и (для каждого *m* из фишек вида «соплеменник»:" in ru
    assert "the number of pieces of kind member is 72 and (for every *m* of the pieces of kind member:" in en
    for wrong in ("im Mitglied", "aus dem Mitglied", "из соплеменника"):
        assert wrong not in de + ru, wrong


def test_a_locale_names_what_a_variant_declares_chosen_or_not():
    """Cherokee's German locale names `neutral`, the zone of the open_clans variant: the
    locale loads without the variant (it was `check/unknown-name`), and the book says
    the zone in German in that variant's section and in a game of the variant."""
    text = book("cherokee", "de")
    assert "Lege die obersten 2 Teile von den übrigen Klankarten auf die *neutralen Klane*." in text
    assert "auf *neutral*" not in text
    chosen = interpreter.load("cherokee", locale="de", variants=["open_clans"])
    assert display.name(chosen.for_players(3), "neutral") == "neutrale Klane"
