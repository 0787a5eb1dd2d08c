"""Fuzzing the loading path: seeded mutations of the bundled rulesets' base, variant and
locale files (lines and tokens deleted, duplicated or swapped, numbers made huge or
negative, random words, unicode and control characters inserted, files truncated,
deep nesting) are loaded, checked, compiled for their player counts and played for a
few dozen moves, with every seat's view taken. Only MeepleError (diagnostics) and
RuleError/BudgetError may escape, every diagnostic has a real location, and every case
finishes within a hard time limit.

The suite runs a short form (60 cases; 200 with ``MEEPLE_TESTS=full``, tests/scale.py);
``MEEPLE_FUZZ_CASES=5000 pytest tests/test_fuzz_rulesets.py``
runs more (``MEEPLE_FUZZ_SEED`` picks another series)."""
from __future__ import annotations

import faulthandler
import os
import random
import re
import signal
from functools import cache
from pathlib import Path

from meeple.dsl.errors import MeepleError
from meeple.dsl.load import RULESETS_DIR, SourceSet, add_text, bundled_names
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError
from meeple.interpreter.play.views import SPECTATOR, view
from scale import scaled

from meeple import interpreter

SEED = int(os.environ.get("MEEPLE_FUZZ_SEED", "9"))
CASES = int(os.environ.get("MEEPLE_FUZZ_CASES", scaled(200, 60)))
# cases enough to reach every outcome the test asks for at its end (the default series's
# first 60 reach them all; another series is asked from 100 cases on)
ENOUGH = 60 if SEED == 9 else 100
MOVES = 30
CASE_SECONDS = 20  # a case that takes longer hangs

KEYWORDS = ["ruleset", "variant", "locale", "turn", "setup", "end", "when", "game", "if", "else", "elif",
            "for", "in", "while", "max", "choose", "from", "move", "to", "deal", "all", "let", "var",
            "zone", "board", "deck", "kind", "enum", "function", "procedure", "relation", "replace",
            "extend", "remove", "score", "tiebreak", "players", "per", "player", "not", "and", "or",
            "{", "}", "(", ")", "[", "]", ",", ":", "=", "==", "..", ".", "+", "-", "*", "/", "%",
            "none", "true", "false", "subset", "of", "where", "by", "as", "best", "tie", "pick",
            "random", "log", "text", "name", "label", "color", "face", "down", "up", "flip", "reveal"]
ODD = ["\x00", "\x1b[31m", "\t", "\r", "\u00e9", "\u2603", "\U0001F600", "\u202e", "\ufeff", "\\",
       '"', "\\uD800", "\\u0000", ":100:", "[bold]", "#", "²", "\u0660", "\uFF11"]
NUMBERS = ["0", "-1", "-999999", "99999999999", "1000000000000000000", "999999999999999999999",
           "9" * 400, "9" * 5000, "200", "201", "100000"]


@cache
def corpus() -> list[tuple[str, str, str]]:
    """(ruleset name, file path, text) of every bundled file."""
    out = []
    for name in bundled_names():
        folder = RULESETS_DIR / name
        for f in sorted(folder.glob("*.meeple")) + sorted(folder.glob("variants/*.meeple")) \
                + sorted(folder.glob("locales/*.meeple")):
            out.append((name, str(f), f.read_text(encoding="utf-8")))
    return out


@cache
def parsed(path: str):
    text = Path(path).read_text(encoding="utf-8")
    return parse(text, path)


# ---------------------------------------------------------------- mutations

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\w+|\.\.|==|!=|<=|>=|\S')


def _lines(rnd, text):
    lines = text.split("\n")
    i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
    op = rnd.choice(["delete", "duplicate", "swap"])
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _tokens(rnd, text):
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return text
    a, b = spans[rnd.randrange(len(spans))]
    op = rnd.choice(["delete", "duplicate", "swap", "replace"])
    if op == "delete":
        return text[:a] + text[b:]
    if op == "duplicate":
        return text[:b] + " " + text[a:b] + text[b:]
    if op == "replace":
        return text[:a] + rnd.choice(KEYWORDS) + text[b:]
    c, d = spans[rnd.randrange(len(spans))]
    if (a, b) > (c, d):
        (a, b), (c, d) = (c, d), (a, b)
    if b > c:
        return text
    return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]


def _numbers(rnd, text):
    found = [m.span() for m in re.finditer(r"\b\d+\b", text)]
    if not found:
        return text
    a, b = rnd.choice(found)
    return text[:a] + rnd.choice(NUMBERS) + text[b:]


def _insert(rnd, text):
    at = rnd.randrange(len(text) + 1)
    what = rnd.choice([rnd.choice(KEYWORDS), rnd.choice(ODD), chr(rnd.randrange(0x20, 0x3000))])
    return text[:at] + " " + what + " " + text[at:]


def _truncate(rnd, text):
    return text[:rnd.randrange(len(text) + 1)]


def _nest(rnd, text):
    found = [m.span() for m in re.finditer(r"= ([^\n{}]+)$", text, re.M)]
    depth = rnd.choice([50, 150, 1000, 5000])
    if found and rnd.random() < 0.6:
        a, b = rnd.choice(found)
        a += 2
        kind = rnd.choice(["paren", "plus", "not", "neg", "list"])
        expr = text[a:b]
        if kind == "paren":
            expr = "(" * depth + expr + ")" * depth
        elif kind == "plus":
            expr = " + ".join([expr] * depth)
        elif kind == "not":
            expr = "not " * depth + expr
        elif kind == "neg":
            expr = "- " * depth + expr
        else:
            expr = "[" * depth + expr + "]" * depth
        return text[:a] + expr + text[b:]
    at = text.find("turn {")
    if at < 0:
        return text
    at += len("turn {")
    return text[:at] + "\n" + "if true {\n" * depth + "}\n" * depth + text[at:]


MUTATIONS = [_lines, _tokens, _tokens, _numbers, _insert, _truncate, _nest]


def mutant(case: int):
    rnd = random.Random(SEED * 1_000_003 + case)
    name, path, text = rnd.choice(corpus())
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        text = rnd.choice(MUTATIONS)(rnd, text)
    return name, path, text, rnd.randrange(1 << 30)


# ---------------------------------------------------------------- one case

def sources(name: str, path: str, text: str) -> tuple[SourceSet, list[str], str | None]:
    """The ruleset's files with the mutated one read from ``text``, and the variants and
    locale to load it with (the mutated file's, when it is one)."""
    src = SourceSet()
    for n, p, t in corpus():
        if n != name:
            continue
        if p == path:
            add_text(src, p, text)
        else:
            add_text(src, p, t, parsed=parsed(p))
    mutated = next((f for f in [src.base, *src.variants.values(), *src.locales.values()]
                    if f is not None and f.span.file == path), None)
    variants, locale = [], None
    if mutated is not None and mutated.kind == "variant":
        variants = [mutated.name]
    elif mutated is not None and mutated.kind == "locale":
        locale = mutated.name
    return src, variants, locale


def run_case(name: str, path: str, text: str, seed: int) -> str:
    """Loads the ruleset with the mutated file and plays it; returns what happened."""
    src, variants, locale = sources(name, path, text)
    if src.diagnostics:
        _located(src.diagnostics)
        return "not read"
    try:
        ruleset = interpreter.compile_sources(src, variants, locale)
    except MeepleError as e:
        _located(e.diagnostics)
        assert not any(d.code == "load/internal" for d in e.diagnostics), e.render()
        return "diagnostics"
    rnd = random.Random(seed)
    for players in sorted({ruleset.min_players, ruleset.max_players}):
        try:
            game = ruleset.new_game(players, seed)
            for _ in range(MOVES):
                for seat in [SPECTATOR, *range(players)]:
                    view(game, seat)
                if game.over:
                    break
                moves = game.legal_moves()
                game.apply(moves[0] if rnd.random() < 0.3 else rnd.choice(moves))
        except RuleError:
            return "rule error"
    return "played"


def _located(diags) -> None:
    for d in diags:
        assert d.span.file and d.span.file != "<string>", d.render()
        if d.code != "load/io":
            assert d.span.line >= 1 and d.span.column >= 1, d.render()
        d.render()


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def test_mutated_rulesets_fail_only_with_diagnostics_or_rule_errors():
    old = signal.signal(signal.SIGALRM, _alarm)
    failures, outcomes = [], {}
    try:
        for case in range(CASES):
            name, path, text, seed = mutant(case)
            # a hang inside C code is not interrupted by the alarm: the process is then
            # stopped with every thread's traceback
            faulthandler.dump_traceback_later(CASE_SECONDS * 3, exit=True)
            signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
            try:
                what = run_case(name, path, text, seed)
                outcomes[what] = outcomes.get(what, 0) + 1
            except Hang:
                failures.append(f"case {case}: hung ({path})\n{text[:3000]}")
            except Exception as e:  # noqa: BLE001 - what the test is about
                failures.append(f"case {case}: {type(e).__name__}: {str(e)[:500]} ({path})\n{text[:3000]}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                faulthandler.cancel_dump_traceback_later()
    finally:
        signal.signal(signal.SIGALRM, old)
    assert not failures, f"{len(failures)} of {CASES} mutants failed:\n\n" + "\n\n".join(failures[:5])
    # the mutants reach every stage, so the test would notice a crash in any of them
    if CASES >= ENOUGH:
        assert outcomes.get("diagnostics", 0) > 0 and outcomes.get("played", 0) > 0, outcomes
