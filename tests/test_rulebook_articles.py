"""A locale's names say their grammatical gender and forms by case (``name draw
"Nachziehstapel" m {gen: "Nachziehstapels"}``, issue 39 §3), and the rulebook puts
them in its sentences: the article of the name's gender in the case its place needs
(German der/den/dem/des, French le/la/l'/les, Dutch de/het), the name's own form
where the locale gives one (Russian: declined, else in quotes). A name without them
reads as before; an unknown gender or case is a located error with a hint."""
from __future__ import annotations

from pathlib import Path

import pytest
from meeple.dsl import ast as ir, parse as dsl_parse
from meeple.interpreter.documents import meeple_code, rulebook, rulebook_view

from meeple import interpreter

CHIPS = """ruleset chips
title "Chips"
players 2..2
kind Chip { }
zone pile: Chip
board row: line(length: 3) holds Chip public
deck chips into pile { 3 of Chip() }
setup { shuffle pile }
turn {
  choose c from cells(row) as "put"
  move top(pile) to c
}
end when empty(pile)
score(p) = 0
"""


def chips(tmp_path: Path, lang: str, names: str) -> Path:
    root = tmp_path / "chips"
    (root / "locales").mkdir(parents=True, exist_ok=True)
    (root / "chips.meeple").write_text(CHIPS, encoding="utf-8")
    (root / "locales" / f"{lang}.meeple").write_text(f"locale {lang}\n{names}", encoding="utf-8")
    return root


def book(name: str, locale: str | None = None) -> str:
    return rulebook_view.markdown(rulebook.build(interpreter.load(name, locale=locale)))


def test_german_names_take_the_article_of_their_gender_in_each_case():
    de = book("cherokee", "de")
    assert "1. Mische den Nachziehstapel." in de                          # accusative
    assert "2. Lege das oberste Teil vom Nachziehstapel auf jedes leere Feld von der Hierarchie-Pyramide." in de
    assert "3. Teile alles aus dem Nachziehstapel an die Handkarten der Spieler aus" in de
    assert "Lege *Karte* von *Ziel* auf den Ablagestapel." in de
    assert "Setze das Passen in Folge auf 0." in de                       # neuter
    assert "die Summe vom Wert von *Karte* von *a*" in de                 # an attribute, dative
    assert "1. Mische die übrigen Klankarten." in de                      # the locale's own forms
    # (where the name is a label or in quotes: without its article)
    assert "- Mitglied mit Klan *c*" in de and "„Frauen in der Pyramide“" in de
    assert "mit dem höchsten Wert von *Karte* von *Anführer*" in de
    for wrong in ("Mische Nachziehstapel", "von Hierarchie-Pyramide", "in die Handkarten", "der der ",
                  "den den "):
        assert wrong not in de, wrong


def test_french_and_dutch_names_take_their_articles():
    fr = book("cherokee", "fr")
    assert "1. Mélanger la pioche." in fr
    assert "Placer la pièce du dessus de la pioche sur chaque case vide de la pyramide hiérarchique." in fr
    assert "1. Mélanger les cartes Clan restantes." in fr
    assert "Mélanger pioche" not in fr
    nl = book("cherokee", "nl")
    assert "1. Schud de trekstapel." in nl and "het geslacht van *m*" in nl


def test_french_elides_le_and_la_before_a_vowel_and_contracts_de_le(tmp_path):
    root = chips(tmp_path, "fr", 'name pile "urne" f\nname row "rang" m\n')
    fr = book(str(root), "fr")
    assert "1. Mélanger l'urne." in fr
    assert "Placer la pièce du dessus de l'urne sur *c*." in fr
    assert "parmi les cases du rang" in fr                                # de + le: du


def test_russian_names_take_their_forms_by_case_else_quotes(tmp_path):
    root = chips(tmp_path, "ru", 'name pile "урна" f {gen: "урны", prep: "урне"}\nname row "ряд"\n')
    ru = book(str(root), "ru")
    assert "когда выполнено условие: в урне нет фишек." in ru            # prepositional form
    assert "верхняя фишка в урне" in ru
    assert "из клеток поля «ряд»" in ru                                   # no forms: quoted
    # (a term, a rule function's name, is declined too, and keeps its mark)
    assert "клан *карты* (*c*)" in book("cherokee", "ru")


def test_a_name_without_gender_reads_as_before(tmp_path):
    plain = book(str(chips(tmp_path / "a", "de", 'name pile "Urne"\n')), "de")
    assert "1. Mische Urne." in plain and "in Urne ist nichts" in plain
    gendered = book(str(chips(tmp_path / "b", "de", 'name pile "Urne" f\n')), "de")
    assert "1. Mische die Urne." in gendered and "in der Urne ist nichts" in gendered
    # (only the sentences change: the tables show the name alone)
    assert gendered.replace("die Urne", "Urne").replace("der Urne", "Urne") == plain


@pytest.mark.parametrize("line, code, column, hint", [
    ('name pile "Urne" x\n', "check/unknown-gender", 18, "A name's gender is one of m, f, n, c, pl"),
    ('name pile "Urne" fem\n', "check/unknown-gender", 18, "did you mean 'f'?"),
    ('name pile "Urne" f {dativ: "Urne"}\n', "check/unknown-case", 21, "did you mean 'dat'?"),
])
def test_an_unknown_gender_or_case_is_a_located_error_with_a_hint(tmp_path, line, code, column, hint):
    root = chips(tmp_path, "de", line)
    with pytest.raises(interpreter.MeepleError) as got:
        interpreter.load(str(root), locale="de")
    d = got.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == (code, 2, column)
    assert hint in d.hint


def test_a_name_with_gender_and_forms_is_written_back_as_it_reads():
    src = 'locale ru\nname draw "колода" "К" f {gen: "колоды", dat: "колоде"}\n'
    f = dsl_parse.parse(src, "ru.meeple")
    d = f.decls[0]
    assert isinstance(d, ir.NameDecl) and (d.gender, [(x.case, x.text) for x in d.forms]) == (
        "f", [("gen", "колоды"), ("dat", "колоде")])
    assert meeple_code.decl(d) == 'name draw "колода" "К" f {gen: "колоды", dat: "колоде"}'
