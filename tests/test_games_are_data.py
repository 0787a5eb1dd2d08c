"""Games are data: no file of the language, the interpreter, the command line or the web
table names a game or anything from one, not even in a comment or a docstring (the
architecture's rule; a rule that needs a game's name has found a construct the language
lacks). The names are those of the bundled rulesets and of the games the tests hold
(their folders, their ``ruleset`` names and titles), with the names other systems give
them (RBG's, OpenSpiel's) and a few things from them (a chess position's name). Words a
game shares with the language or with English (the ``hex`` board, to go, a suit of
hearts) count only where they are the game's: possessive, capitalised or numbered."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = ("dsl", "interpreter", "cli", "web")
SUFFIXES = {".py", ".hpp", ".cpp", ".h", ".lark", ".html", ".js", ".css", ".jinja", ".j2"}
# the game's names other systems give it, and things from a game
OTHER_NAMES = ["reversi", "draughts", "englishDraughts", "ticTacToe", "connect4", "tic-tac-toe",
               "tic tac toe", "noughts and crosses", "mancala", "kiwipete", "hexostrategy",
               "liar's poker"]
# words a game shares with the language or with English: only these forms are the game's
AMBIGUOUS = {
    "go": r"\bgo's\b|\bGo\b(?! (?:to|on|back|through|over)\b)|\bgo \d|\bgo(?:_| )9",
    "hex": r"\bhex's\b|\bHex\b|\bhex \d+ ?[x×]|\bhex(?:_| )11\b",
    "hearts": r"\bHearts\b|\bhearts'",
    "pig": r"\bPig\b|\bpig's\b",
    "nim": r"\bNim\b|\bnim's\b",
    "checkers": r"(?<!type )(?<!type-)\bcheckers\b",
}
# testdata names that are features, not games
NOT_GAMES = {"around", "consts", "check_errors", "parse_errors", "made_items", "empty_cells",
             "full_lines", "occupied_cells", "related_cells", "snapshots", "top_values", "pure_search",
             "verbs_demo", "verbs_when", "two_dice", "nim_lists", "names", "maps", "cards",
             "attributes", "ruleset", "dark_ships"}


def _declared(path: Path) -> list[str]:
    """The ``ruleset`` name and the title of each ruleset file at ``path`` (a file or a
    folder of them)."""
    files = [path] if path.is_file() else sorted(path.rglob("*.meeple"))
    out = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        out += re.findall(r"^ruleset\s+(\w+)", text, re.M)
        out += [t.split("(")[0].split(":")[0].strip() for t in re.findall(r'^title\s+"([^"]+)"', text, re.M)]
    return out


def game_names() -> list[str]:
    """The names of the games, each as words (``connect_four``: "connect four")."""
    found = set(OTHER_NAMES)
    for p in (ROOT / "rulesets").iterdir():
        if p.is_dir() and not p.name.startswith((".", "_")):
            found.add(p.name)
            found.update(_declared(p / f"{p.name}.meeple") if (p / f"{p.name}.meeple").exists() else [])
    for p in (ROOT / "tests" / "testdata").iterdir():
        if p.suffix in ("", ".meeple") and p.stem not in NOT_GAMES:
            found.add(p.stem)
            found.update(_declared(p))
    words = {re.sub(r"[-_\s]+", " ", n).strip().lower() for n in found}
    return sorted(w for w in words if w and w.replace(" ", "_") not in NOT_GAMES)


def pattern() -> re.Pattern:
    """The names in the code's text: the unambiguous ones in any case, the ambiguous in
    the forms AMBIGUOUS gives (Go is the game, go the verb)."""
    parts = [r"(?i:\b" + r"[-_\s]?".join(re.escape(w) for w in name.split()) + r"(?:'s)?\b)"
             for name in game_names() if name not in AMBIGUOUS]
    parts += [f"(?:{f})" for f in AMBIGUOUS.values()]
    return re.compile("|".join(parts))


def code_files(folder: str) -> list[Path]:
    return sorted(f for f in (ROOT / folder).rglob("*")
                  if f.is_file() and f.suffix in SUFFIXES and "__pycache__" not in f.parts)


def test_the_names_are_found():
    names = game_names()
    for name in ("cherokee", "clans and glory", "brotherhood of nine", "chess", "go", "kalah",
                 "connect four", "othello", "tic tac toe", "breakthrough", "reversi", "dots and boxes"):
        assert name in names
    assert "around" not in names and "two dice" not in names
    p = pattern()
    for text in ("Cherokee's trader", "connect four's landing cell", "chess's e4", "go's groups",
                 "a Go board", "tic-tac-toe", "Othello", "the 11 x 11 hex's cells", "englishDraughts",
                 "connect_four", "Kiwipete"):
        assert p.search(text), text
    for text in ("go to the next step", "a hex board's ring", "type checkers", "enum Suit { hearts, spades }",
                 "Go on with the next", "a grid or a hex board", "breaks through"):
        assert not p.search(text), text


@pytest.mark.parametrize("folder", CODE)
def test_no_code_names_a_game(folder):
    p = pattern()
    found = []
    for f in code_files(folder):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = p.search(line)
            if m:
                found.append(f"{f.relative_to(ROOT)}:{n}: {m.group(0)!r}: {line.strip()[:100]}")
    assert not found, "games named in code (say what the construct is, not which game has it):\n" + "\n".join(found)
