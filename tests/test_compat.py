"""A ruleset that loaded yesterday loads today (issue 34, item 10; the policy is
docs/language.md, section 1.4): every ruleset that the documentation and the tests have
shipped, as it was in every commit (tests/compat/, made from the history by
tools/compat_corpus.py), loads with each of its variants and locales, and a short game of
it (and of each variant) plays. The rulesets of tests/broken/ break a promise on purpose:
they are only loaded.

The corpus holds each ruleset once per content; most of its versions differ from the
one before in a comment or in one file. Here each base file is loaded and played once
per version of its rules (its text without comments and blank lines), and each variant
and locale once per version, with the first base it came with: the same checks, in a few
seconds rather than a minute."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics
from meeple.dsl.load import SourceSet, add_text, merge, source_files

from meeple import interpreter

COMPAT = Path(__file__).resolve().parent / "compat"
MANIFEST = json.loads((COMPAT / "MANIFEST.json").read_text(encoding="utf-8"))
_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|#[^\n]*')


def rules_of(text: str) -> str:
    """A file's text without its comments, blank lines and indentation."""
    text = _COMMENT.sub(lambda m: m.group(1) or "", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def _plan() -> dict[str, tuple[bool, list, list]]:
    """Entry -> (whether to load its base, the variants to load, the locales to load):
    each version of each file once, at its first entry (oldest commit first)."""
    seen, plan = set(), {}
    for entry in sorted(MANIFEST, key=lambda e: (MANIFEST[e]["order"], e)):
        folder = COMPAT / entry
        files = {(f.parent.name if f.parent != folder else "", rules_of(f.read_text(encoding="utf-8"))): f.stem
                 for f in source_files(folder)}
        new = [key for key in files if key not in seen]
        seen.update(files)
        base = any(where == "" for where, _ in new)
        variants = sorted(files[k] for k in new if k[0] == "variants")
        locales = sorted(files[k] for k in new if k[0] == "locales")
        if base or variants or locales:
            plan[entry] = (base, variants, locales)
    return plan


PLAN = _plan()


def play_a_little(rules: interpreter.Ruleset, seed: int, moves: int = 12) -> None:
    game = rules.new_game(rules.min_players, seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        seat = game.deciding[0] if game.deciding else None
        legal = game.legal_moves(seat)
        game.apply(legal[rnd.randrange(len(legal))], seat=seat)


_PARSED: dict[str, object] = {}


def sources(entry: str, overlays: bool) -> SourceSet:
    """The files of an entry (the base alone, or with its variants and locales), each
    text parsed once for the whole corpus."""
    src = SourceSet()
    for f in source_files(COMPAT / entry):
        name = f.relative_to(COMPAT).as_posix()
        if name.count("/") > 1 and not overlays:
            continue
        text = f.read_text(encoding="utf-8")
        if text not in _PARSED:
            add_text(src, name, text)
            _PARSED[text] = src.base if name.count("/") == 1 else \
                next((x for x in (*src.variants.values(), *src.locales.values()) if x.span.file == name), None)
        else:
            add_text(src, name, text, parsed=_PARSED[text])
    return src


def test_the_corpus_is_what_the_history_shipped():
    sources_ = {m["source"].split(":")[0].split("/")[0] for m in MANIFEST.values()}
    assert sources_ == {"rulesets", "tests", "docs"}
    assert sorted(p.name for p in COMPAT.iterdir() if p.is_dir()) == sorted(MANIFEST)
    assert len(MANIFEST) > 100
    # every file of every entry is checked by some test below
    assert len(PLAN) > 60


@pytest.mark.parametrize("entry", sorted(PLAN))
def test_a_ruleset_shipped_before_loads_and_plays(entry):
    base, variants, locales = PLAN[entry]
    src = sources(entry, bool(variants or locales))
    assert not src.diagnostics, [d.render(src.sources) for d in src.diagnostics]
    play = MANIFEST[entry]["play"]
    if base:
        rules = interpreter.compile_sources(src)
        if play:
            play_a_little(rules, seed=len(entry))
    for i, variant in enumerate(variants):
        rules = interpreter.compile_sources(src, [variant])
        if play:
            play_a_little(rules, seed=i)
    for locale in locales:   # (a locale changes no rule: checked, not compiled again)
        diags = Diagnostics()
        _, diags = check(merge(src, [], locale, diags), diags)
        assert not diags.errors(), [d.render(src.sources) for d in diags.errors()]
