"""A move's verb in the locale's words (``name action.VERB "..."``, issue 39 §1): the
terminal's move lists and lines, the web table's move texts and the rulebook read the
word, the notation (records, what is typed) stays the verb, and the word may be typed
too. A word for a verb no decision has is a located warning."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from console import meeple_cli
from meeple.cli.main import app
from meeple.dsl import ast as ir
from meeple.interpreter import display
from meeple.interpreter.play import record
from meeple.web import present
from meeple.web.store import SQLiteStore
from meeple.web.tables import Tables
from typer.testing import CliRunner

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}


def _play(tmp_path, *lines: str):
    rec = tmp_path / "c.json"
    r = CliRunner().invoke(app, ["play", "cherokee", "--locale", "de", "--players", "2",
                                 "--bot", "2=first", "--seed", "11", "--no-color",
                                 "--layout", "full", "--record", str(rec)],
                           input="".join(f"{line}\n" for line in lines) + "quit\n", env=TERMINAL)
    assert "Traceback" not in r.output, r.output
    return r.output, record.load(rec).moves


def test_a_german_screen_lists_the_moves_with_the_german_verb(tmp_path):
    output, _ = _play(tmp_path)
    listed = re.findall(r"^ ?\d+\. +(\S+) r\d+c\d+", output, re.M)
    assert listed and set(listed) == {"verjagen"}, output
    assert "chase" not in output


def test_the_german_verb_may_be_typed_and_the_record_keeps_the_notation(tmp_path):
    game = interpreter.load("cherokee", locale="de").new_game(2, seed=11)
    target = game.legal_moves()[0].notation.split()[1]
    output, moves = _play(tmp_path, f"Verjagen {target}", "1")
    assert moves[0] == f"chase {target}" and moves[1].startswith("with ")
    assert f"Spieler 1: verjagen {target} — " in output
    assert re.search(r"Spieler 1: angreifen r\d+c\d+ — ", output)
    # the game itself reads the word (so do records typed by hand and the web table)
    assert game.apply(f"  VERJAGEN   {target} ").notation == f"chase {target}"
    assert game.apply("angreifen " + game.legal_moves()[0].notation.split()[1]).notation.startswith("with ")


def test_a_replay_reads_the_word_and_its_json_keeps_the_notation(tmp_path):
    _, moves = _play(tmp_path, "1", "1")
    shown = CliRunner().invoke(app, ["replay", str(tmp_path / "c.json"), "--no-color"])
    assert f"Spieler 1: verjagen {moves[0].split()[1]} — " in shown.output, shown.output
    data = CliRunner().invoke(app, ["replay", str(tmp_path / "c.json"), "--json"])
    assert [m["notation"] for m in json.loads(data.stdout)["moves"]] == moves


def test_a_wrong_move_in_the_german_verb_is_refused_as_typed():
    game = interpreter.load("cherokee", locale="de").new_game(2, seed=11)
    try:
        game.apply("verjagen r9c9")
    except interpreter.IllegalMove as e:
        assert str(e).startswith("'verjagen r9c9' is not a legal move now"), e
    else:
        raise AssertionError("an illegal move was played")


def test_the_web_table_writes_the_german_verb_and_sends_the_notation(tmp_path):
    tables = Tables(SQLiteStore(tmp_path / "t.sqlite"))
    table = tables.create("cherokee", interpreter.load("cherokee", locale="de"), 2, [], "de", 4, {})
    seat = table.game.deciding[0]
    doc = present.document(table, seat)
    assert doc["moves"]
    for m in doc["moves"]:
        assert m["notation"].startswith("chase ") and m["text"].startswith("verjagen "), m
    table._apply(table.game.legal_moves()[0])
    other = present.document(table, 1 - seat)
    assert other["last_move"]["text"].startswith("verjagen ")
    rnd = random.Random(1)
    while table.game.decision.verb != "play":
        table._apply(rnd.choice(table.game.legal_moves()))
    seat = table.game.deciding[0]
    doc = present.document(table, seat)
    assert all(m["text"].startswith("auffüllen ") and m["notation"].startswith("play ")
               for m in doc["moves"]), doc["moves"]


def test_without_a_word_the_verb_is_shown_as_it_is():
    prog = interpreter.load("cherokee")
    assert display.verb_word(prog, "chase") == "chase"
    assert display.worded(prog, "chase r2c1", "chase") == "chase r2c1"
    german = interpreter.load("cherokee", locale="de")
    assert display.worded(german, "chase r2c1", "chase") == "verjagen r2c1"
    assert display.worded(german, "r2c1", None) == "r2c1"


def test_the_rulebook_names_the_verb_with_its_word():
    r = meeple_cli("rulebook", "cherokee", "--locale", "de")
    assert r.code == 0, r
    assert "(verjagen: Wähle ein Mitglied, das verjagt wird)" in r.out, r.out[:3000]


def test_a_word_for_no_verb_is_a_located_warning(tmp_path):
    root = tmp_path / "words"
    (root / "locales").mkdir(parents=True)
    (root / "words.meeple").write_text("""ruleset words
players 2..2
var total: int = 0
turn {
  choose n from [1, 2] as "add" or "pass"
  if n != none { total = total + n } else { total = total + 1 }
}
end when total >= 4
score(p) = total
""", encoding="utf-8")
    (root / "locales" / "de.meeple").write_text(
        'locale de\nlanguage "Deutsch"\nname action.add "addiere"\nname action.pass "passe"\n'
        'name action.ad "x"\n', encoding="utf-8")
    r = meeple_cli("validate", root)
    text = r.out + r.err
    assert "warning[check/unknown-verb]" in text and "de.meeple:5:6" in text, text
    assert "no decision has the verb 'ad'" in text and "did you mean 'add'?" in text
    assert text.count("check/unknown-verb") == 1     # the words of 'add' and 'pass' are fine
    game = interpreter.load(str(root), locale="de").new_game(2)
    assert [display.worded(game.program, m.notation, "add") for m in game.legal_moves()] == \
        ["passe", "addiere 1", "addiere 2"]
    assert game.apply("Passe").notation == "pass"


# The verbs each bundled game's German locale gives a word, as a German rulebook of the
# game says the move (tests below: every verb of every bundled locale has one).
GERMAN_WORDS = {
    "chess": ("2", ["ziehen"]), "go": ("2", ["setzen", "passen"]), "hearts": ("4", ["weitergeben"]),
    "kalah": ("2", ["säen"]), "backgammon": ("2", ["ziehen"]), "dots-and-boxes": ("2", ["ziehen"]),
}


def _base_verbs(prog) -> set[str]:
    """Every verb a decision of the ruleset's rules (not of a variant) may be asked
    with: ``as "VERB"``, each ``or "VERB"``, and ``tie`` of a ``best ... tie choose``."""
    checked = prog.checked
    roots = [checked.setup, checked.turn, checked.at_end, checked.end,
             *checked.procedures.values(), *checked.functions.values()]
    verbs: set[str] = set()
    for root in roots:
        for n in (ir.walk(root) if isinstance(root, ir.Node) else ()):
            if n.node in ("Choose", "ChooseEach", "ChooseSubset") and n.verb:
                verbs |= {v for v in (n.verb, getattr(n, "alone", None), *getattr(n, "more", ())) if v}
            elif n.node == "Best" and n.tie == "choose":
                verbs.add("tie")
    return verbs


def _bundled_locales():
    for folder in sorted((ROOT / "rulesets").iterdir()):
        for path in sorted((folder / "locales").glob("*.meeple")):
            if path.stem != "en":
                yield folder.name, path.stem


@pytest.mark.parametrize(("game", "locale"), list(_bundled_locales()))
def test_every_verb_of_a_bundled_game_has_its_word_in_every_locale(game, locale):
    """An English locale needs no word: the verbs are written in English (``pass``,
    ``play``, ``move``), as the rules are; every other locale says each one in its
    language."""
    prog = interpreter.load(game, locale=locale)
    verbs = _base_verbs(prog)
    assert verbs, game
    missing = sorted(v for v in verbs if f"action.{v}" not in prog.checked.names)
    assert not missing, f"{game} ({locale}) has no word for {missing}"


@pytest.mark.parametrize("game", sorted(GERMAN_WORDS))
def test_a_german_move_list_says_the_german_verb(tmp_path, game):
    players, words = GERMAN_WORDS[game]
    bots = [arg for s in range(2, int(players) + 1) for arg in ("--bot", f"{s}=first")]
    r = CliRunner().invoke(app, ["play", game, "--locale", "de", "--players", players, *bots,
                                 "--seed", "1", "--no-color", "--layout", "full",
                                 "--record", str(tmp_path / "r.json")],
                           input="quit\n", env=TERMINAL)
    assert "Traceback" not in r.output, r.output
    for word in words:
        assert re.search(rf"^ *\d+\. +{word}(\s|$)", r.output, re.M), r.output
