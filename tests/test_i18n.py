"""The CLI speaks the game's language: every sentence printed during play and replay
goes through ``cli.i18n.tr`` and has a translation in every catalog; a game played with
a locale prints no English CLI sentence; without a locale the prompts say what to type."""
from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import bundled
import pytest
from meeple.cli import i18n
from meeple.cli.i18n import PLURAL_RULES, catalogs, language, plural_category, tr
from meeple.cli.main import app
from meeple.dsl.load import bundled_names, read_sources, resolve_path
from meeple.web.words import LOBBY, REFUSALS, WORDS
from typer.testing import CliRunner

from meeple import interpreter

CLI = Path(i18n.__file__).parent
runner = CliRunner()


def tr_calls() -> dict[str, list[tuple[str, int, set[str]]]]:
    """Each msgid of a ``tr(lang, "...", field=...)`` call in cli/*.py, with its places
    and the fields the call passes (found by walking the AST, not by grepping), and each
    sentence of the web server's pages and refusals (web/words.py)."""
    found: dict[str, list] = {}
    for f in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr":
                msgid = node.args[1]
                assert isinstance(msgid, ast.Constant) and isinstance(msgid.value, str), \
                    f"{f.name}:{node.lineno}: tr() needs a literal msgid"
                fields = {k.arg for k in node.keywords}
                found.setdefault(msgid.value, []).append((f.name, node.lineno, fields))
    # the web server's words, translated by cli/cmd_serve.py's catalog_speech: the table
    # page's and the lobby's (their fields filled in by the page's script) and why a move
    # is refused (filled in by the server)
    for texts in (WORDS, LOBBY, REFUSALS):
        for key, msgid in texts.items():
            found.setdefault(msgid, []).append(("web/words.py", key, fields_of(msgid)))
    return found


def fields_of(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def forms(entry) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [entry]


TRANSLATED = sorted(lang for lang in catalogs() if lang != "en")


def test_the_catalogs_cover_the_bundled_locales_languages():
    locales = {loc for name in bundled_names() for loc in read_sources(resolve_path(name)).locales}
    assert locales - {"en"} <= set(TRANSLATED)
    assert set(TRANSLATED) >= {"de", "fr", "nl", "ru"}


def test_every_msgid_is_translated_everywhere_and_every_entry_is_used():
    calls = tr_calls()
    assert len(calls) > 50
    plural = {m for m in calls if "n" in fields_of(m)}
    # English needs only the plural forms; every other English sentence is its msgid
    assert set(catalogs()["en"]["messages"]) == plural
    for lang in TRANSLATED:
        messages = catalogs()[lang]["messages"]
        assert set(calls) - set(messages) == set(), f"{lang}: untranslated"
        assert set(messages) - set(calls) == set(), f"{lang}: entries no tr() call uses"


@pytest.mark.parametrize("lang", sorted(catalogs()))
def test_placeholders_and_plural_forms_match(lang):
    cat = catalogs()[lang]
    categories = set(PLURAL_RULES[cat["plural"]][1])
    for msgid, entry in cat["messages"].items():
        if "n" in fields_of(msgid):
            assert isinstance(entry, dict) and set(entry) == categories, (lang, msgid)
        else:
            assert isinstance(entry, str), (lang, msgid)
        for text in forms(entry):
            assert fields_of(text) == fields_of(msgid), (lang, msgid, text)
            assert text.strip(), (lang, msgid)
            # a sentence ending in a space (a prompt, a prefix) keeps it
            assert text.endswith(" ") == msgid.endswith(" "), (lang, msgid)


def test_every_call_passes_the_fields_of_its_sentence():
    for msgid, places in tr_calls().items():
        for f, line, fields in places:
            assert fields == fields_of(msgid), f"{f}:{line}: {msgid!r} gets {fields}"


@pytest.mark.parametrize("n, category", [(0, "many"), (1, "one"), (2, "few"), (4, "few"),
                                         (5, "many"), (11, "many"), (12, "many"),
                                         (21, "one"), (22, "few"), (25, "many"),
                                         (111, "many"), (112, "many"), (122, "few")])
def test_russian_has_three_plural_forms(n, category):
    assert plural_category("ru", n) == category


def test_plural_forms_are_chosen_by_n():
    assert tr(None, "{n} moves", n=1) == "1 move" and tr("en", "{n} moves", n=3) == "3 moves"
    assert tr("ru", "{n} players", n=2) == "2 игрока"
    assert tr("ru", "{n} players", n=5) == "5 игроков"
    assert tr("ru", "{n} players", n=21) == "21 игрок"
    assert tr("fr", "{n} moves", n=0) == "0 coup" and tr("fr", "{n} moves", n=2) == "2 coups"
    assert tr("de", "{n} games", n=1) == "1 Partie" and tr("de", "{n} games", n=7) == "7 Partien"


def test_a_language_without_a_catalog_and_an_unknown_sentence_are_english():
    assert tr("xx", "Game over") == "Game over"
    assert tr("de", "Game over") == "Spielende"
    assert tr("de", "not a sentence of the CLI {x}", x=1) == "not a sentence of the CLI 1"


class _Prog:
    def __init__(self, locale, declared=None):
        self.locale = locale
        self.checked = type("Checked", (), {"language": declared})()


def test_the_language_comes_from_the_locale():
    prog = interpreter.compile_sources(read_sources(resolve_path("cherokee")), [], "nl")
    assert language(prog) == "nl"
    assert language(interpreter.compile_sources(read_sources(resolve_path("cherokee")))) is None
    assert language(_Prog("de-CH", "Schweizerdeutsch")) == "de"
    assert language(_Prog("german", "Deutsch")) == "de"      # by the declared language
    assert language(_Prog("eo", "Esperanto")) is None         # no catalog: English


# ---------------------------------------------------------------- whole games

def english_fragments(lang: str) -> list[str]:
    """The English words of every CLI sentence (each stretch between placeholders, in
    every English plural form), but those the language writes the same way."""
    translated = " ".join(t for e in catalogs()[lang]["messages"].values() for t in forms(e))
    out = set()
    for msgid in tr_calls():
        for text in forms(catalogs()["en"]["messages"].get(msgid, msgid)):
            for literal, *_ in string.Formatter().parse(text):
                frag = " ".join(literal.split()).strip(" .:;,—()'")
                if len(frag) >= 4 and frag not in translated and not frag.startswith("<"):
                    out.add(frag)
    return sorted(out)


def assert_no_english(output: str, lang: str) -> None:
    flat = " ".join(output.split())
    for frag in english_fragments(lang):
        # a sentence of several words anywhere; a single word only as a whole word
        pattern = re.escape(frag) if " " in frag else rf"(?<!\w){re.escape(frag)}(?!\w)"
        assert not re.search(pattern, flat), f"English CLI text {frag!r} in a {lang} game"


def run(*args, input: str | None = None):
    r = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r


GAMES = [(name, loc) for name in sorted(bundled.names())
         for loc in bundled.locales(name) if loc != "en"]
# a human's session: the help, an undo refused, two illegal moves, then the first move
# a few times, and the input ends (quit: the record is saved)
HUMAN_INPUT = "help\nundo\nzzz\n999\n" + "1\n" * 5


@pytest.mark.parametrize("name, loc", GAMES)
def test_a_game_with_a_locale_prints_no_english(name, loc, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lang = loc
    # one human (seat 1) against bots (every other seat: a game that hides information
    # shows one seat only when the output is not a terminal), interrupted by the end of
    # the input
    n = interpreter.load(name).min_players
    others = [a for s in range(2, n + 1) for a in ("--bot", f"{s}=random")]
    r = run("play", name, "--locale", loc, *others, "--seed", 5, input=HUMAN_INPUT)
    assert r.exit_code == 0, r.output
    for sentence in ("Commands", "Cannot undo: ", "Illegal move: "):
        assert tr(lang, sentence).strip() in r.output
    assert " ".join(tr(lang, "{n} players", n=n).split()) in r.output
    saved = list(tmp_path.glob("meeple-*.json"))
    assert len(saved) == 1 and json.loads(saved[0].read_text())["locale"] == loc
    played = json.loads(saved[0].read_text())["moves"]
    assert " ".join(tr(lang, "Game stopped after {n} moves. The record is saved to {path}; "
                             "continue it with '{resume}', or replay it with '{replay}'.",
                       n=len(played), path="\0", resume="", replay="").split("\0")[0].split()) \
        in " ".join(r.output.split())
    # the replay of that record (unfinished), then a whole game of bots to its result
    rp = run("replay", saved[0])
    assert rp.exit_code == 0, rp.output
    assert tr(lang, "as seen by a spectator") in rp.output
    bots = run("play", name, "--locale", loc, "--bot", "1=random",
               *[a for s in range(2, n + 1) for a in ("--bot", f"{s}=first")], "--seed", 5)
    assert bots.exit_code == 0, bots.output
    assert tr(lang, "Result") in bots.output and tr(lang, "Game over") in bots.output
    for out in (r.output, rp.output, bots.output):
        assert_no_english(out, lang)


def test_the_english_fragments_are_found_when_present():
    """The check above is not vacuous: an English game fails it."""
    r = run("play", "cherokee", "--bot", "1=random", "--bot", "2=first", "--seed", 5)
    with pytest.raises(AssertionError, match="English CLI text"):
        assert_no_english(r.output, "de")


def test_simulate_speaks_the_locale_too():
    r = run("simulate", "cherokee", "--locale", "fr", "--games", 2, "--quiet")
    assert r.exit_code == 0 and "parties par seconde" in r.output
    assert_no_english(r.output, "fr")


def test_english_prompts_explain_what_to_type(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # the full layout: the hint line is the first thing a compact screen leaves out
    r = run("play", "cherokee", "--bot", "2=random", "--seed", 5, "--layout", "full", input="zzz\n")
    flat = " ".join(r.output.split())
    assert "Player 1, your move (a number from the list, a notation, or help):" in flat
    assert re.search(r"Type a number from the list \(1 to \d+\), a move's notation, or help "
                     r"for the commands\.", flat)
    assert "'zzz' is not a legal move now; type a number from 1 to" in flat


def test_the_hand_over_screen_speaks_the_locale(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # two humans need a terminal (see tests/test_cli.py); 'board' at the hand-over is refused
    r = runner.invoke(app, ["play", "cherokee", "--locale", "fr", "--seed", "5"],
                      input="board\n\nquit\n", env={"TTY_COMPATIBLE": "1", "TERM": "dumb"})
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "Passez le terminal à Joueur 1. Appuyez sur Entrée." in flat
    assert "Seul(e) Joueur 1 peut voir la suite." in flat
    assert_no_english(r.output, "fr")


def test_an_illegal_typed_move_is_explained_in_the_locale():
    from types import SimpleNamespace

    from meeple.cli import render
    from meeple.cli.play import PlaySession
    from meeple.interpreter.play import record

    prog = interpreter.compile_sources(read_sources(resolve_path("cherokee")), [], "de")
    game = prog.new_game(2, 5)
    verb = game.decision.verb
    session = PlaySession(render.console(), game, ["human", "human"], {},
                          record.Record("cherokee", 2, 5, [], "de", [], ["human"] * 2),
                          None, Path("unused.json"))
    # two options alike but for case and spaces: the typed text fits both
    alike = [SimpleNamespace(notation=f"{verb} x  y"), SimpleNamespace(notation=f"{verb} X y")]
    assert session.illegal_text("x y", alike) == (
        f"'x y' passt zu 2 Zügen ('{verb} x  y', '{verb} X y'); schreib ihn genau oder gib "
        f"seine Nummer ein.")
    moves = game.legal_moves()
    near = moves[0].notation[:-1] + "9"
    assert "meintest du" in session.illegal_text(near, moves)
    assert session.illegal_text("zzz", moves) == (
        f"'zzz' ist jetzt kein erlaubter Zug; gib eine Zahl von 1 bis {len(moves)}, die "
        f"Schreibweise eines Zuges oder help ein.")


@pytest.mark.parametrize("name", __import__("meeple.dsl.load", fromlist=["x"]).bundled_names())
def test_every_locale_names_every_zone_board_and_variable_the_screen_shows(name):
    """With a locale every word on the screen is in its language: the names of zones,
    boards and variables come from the ruleset, so the base and each locale name them all
    (an unnamed one would be shown as its identifier, in English). One declared
    ``offscreen`` is never drawn, so it needs no name."""
    from meeple.dsl.load import read_sources, resolve_path
    src = read_sources(resolve_path(name))
    offscreen = {d.name for d in src.base.decls if d.node == "OffscreenDecl"}
    shown = {d.name for d in src.base.decls
             if d.node in ("ZoneDecl", "VarDecl", "BoardDecl")} - offscreen
    assert shown
    for where, f in [("base", src.base), *sorted(src.locales.items())]:
        named = {d.path for d in f.decls if d.node == "NameDecl"}
        assert shown - named == set(), (name, where)
