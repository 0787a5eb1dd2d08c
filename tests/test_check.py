"""The checker (and the overlay merge before it): every problem is reported, where it
is, with a stable code and a helpful message.

Most cases live in the chunked golden file testdata/check_errors.meeple (its header
explains the marker comments)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from golden import golden_chunks
from meeple.dsl import errors
from meeple.dsl.check import check
from meeple.dsl.errors import Diagnostics, MeepleError
from meeple.dsl.load import SourceSet, bundled_names, merge, read_sources, resolve_path
from meeple.dsl.parse import parse

from meeple import interpreter

TESTDATA = Path(__file__).resolve().parent / "testdata"


def diagnostics(text: str, file: str = "c.meeple") -> list[errors.Diagnostic]:
    """Parses, merges (no overlays) and checks one file; returns every diagnostic."""
    src = SourceSet(base=parse(text, file), sources={file: text})
    diags = Diagnostics()
    _checked, diags = check(merge(src, [], None, diags), diags)
    return diags.items




CHECK_CHUNKS = golden_chunks(TESTDATA / "check_errors.meeple")


def text_of(d) -> str:
    return f"{d.message}\nhint: {d.hint}"


def test_check_golden_file_covers_every_code():
    codes = {code for p in CHECK_CHUNKS for (_, code, _, _) in p.values[2]}
    for code in ("check/unknown-name", "check/unknown-attribute", "check/type-mismatch", "check/arity",
                 "check/duplicate", "check/unknown-zone", "check/missing", "check/misplaced",
                 "check/reserved-name", "check/unknown-kind", "check/unknown-type",
                 "check/unknown-function", "check/unknown-variable", "check/unknown-procedure",
                 "check/shadowing", "check/missing-attribute", "check/bad-value",
                 "check/no-result", "check/missing-return", "check/no-such-cell"):
        assert code in codes, f"no golden case for {code}"


@pytest.mark.parametrize("start, text, expected", CHECK_CHUNKS)
def test_check_golden(start, text, expected):
    got = diagnostics(text)
    unmatched = list(got)
    missing = []
    for (line, code, column, regex) in expected:
        for d in unmatched:
            if d.code == code and d.span.line == line and (column is None or d.span.column == column) \
                    and re.search(regex, text_of(d), re.S):
                unmatched.remove(d)
                break
        else:
            missing.append(f"check_errors.meeple:{start + line - 1}: {code}"
                           f"{'@' + str(column) if column else ''} {regex!r}")
    extra = [f"check_errors.meeple:{start + d.span.line - 1}:{d.span.column}: {d.code}: {text_of(d)!r}"
             for d in unmatched]
    assert not missing and not extra, "\nnot reported:\n  " + "\n  ".join(missing) + \
        "\nunexpected:\n  " + "\n  ".join(extra)


# ---------------------------------------------------------------- every problem, in place

SEVERAL = """ruleset several
players 2..4
kind Card { v: int }
zone hand: Card per player
zone pile: Card
turn {
  deal 1 from pile to hnad
  let n = size(pil) + true
  move top(pile) to discard
  choose c from items(hand(active)) as "play"
  let w = c.valeu
}
end when lenght(pile) > 0
"""


def test_every_problem_is_reported_with_line_and_column():
    got = [(d.code, d.span.line, d.span.column) for d in diagnostics(SEVERAL)]
    assert got == [
        ("check/unknown-zone", 7, 23),
        ("check/unknown-name", 8, 16),
        ("check/type-mismatch", 8, 23),
        ("check/unknown-name", 9, 21),
        ("check/unknown-attribute", 11, 13),
        ("check/unknown-function", 13, 10),
    ]


def test_load_raises_with_every_diagnostic_rendered(tmp_path):
    path = tmp_path / "several.meeple"
    path.write_text(SEVERAL, encoding="utf-8")
    with pytest.raises(MeepleError) as e:
        interpreter.load(str(path))
    assert len(e.value.diagnostics) == 6
    text = e.value.render()
    assert text.count("error[") == 6
    assert f"error[check/unknown-zone]: {path}:7:23: unknown zone 'hnad'\n" \
           f" 7 |   deal 1 from pile to hnad\n" \
           f"   |                       ^^^^\n" \
           f"hint: did you mean 'hand'?" in text
    assert f"error[check/unknown-function]: {path}:13:10: unknown function 'lenght'\n" \
           f" 13 | end when lenght(pile) > 0\n" \
           f"    |          ^^^^^^" in text


def test_diagnostic_rendering_of_a_two_digit_line():
    text = "ruleset t\nplayers 2..4\nkind Card { value: int }\nzone pile: Card\n" + "\n" * 6 + \
        "turn { let x = top(pile).valeu }\nend when true\n"
    (d,) = diagnostics(text, "t.meeple")
    assert d.render({"t.meeple": text}) == (
        "error[check/unknown-attribute]: t.meeple:11:26: Card has no attribute 'valeu'\n"
        " 11 | turn { let x = top(pile).valeu }\n"
        "    |                          ^^^^^\n"
        "hint: did you mean 'value'?")


def test_the_number_of_diagnostics_is_capped():
    body = "\n".join(f"  let x{i} = nope{i}" for i in range(errors.MAX_DIAGNOSTICS + 20))
    got = diagnostics(f"ruleset t\nplayers 1..1\nturn {{\n{body}\n}}\nend when true\n")
    assert len(got) == errors.MAX_DIAGNOSTICS
    assert all(d.code == "check/unknown-name" for d in got)


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_rulesets_check_clean_with_every_overlay(name):
    src = read_sources(resolve_path(name))
    assert not src.diagnostics
    combos = [([], None)] + [([v], None) for v in src.variants] + [(sorted(src.variants), None)] + \
        [([], loc) for loc in src.locales] + [(sorted(src.variants), loc) for loc in src.locales]
    for variants, locale in combos:
        diags = Diagnostics()
        _checked, diags = check(merge(src, variants, locale, diags), diags)
        assert not diags.items, (variants, locale, [d.render(src.sources) for d in diags.items])


@pytest.mark.parametrize("a, candidates, hint", [
    ("hnad", ["hand", "pile"], "did you mean 'hand'?"),          # two letters swapped
    ("Hand", ["hand"], "did you mean 'hand'?"),                  # case does not matter
    ("wildpotato", ["wild_potato"], "did you mean 'wild_potato'?"),
    ("pile", ["hand"], None),                                     # too far: no guess
    ("x", [], None),
])
def test_did_you_mean(a, candidates, hint):
    assert errors.did_you_mean(a, candidates) == hint


# ---------------------------------------------------------------- overlays

BASE = """ruleset cards
title "Cards"
players 2..4
kind Card { v: int }
zone pile: Card
zone hand: Card per player
deck cards into pile { Card(v: i) for i in 1..9 }
var passes: int = 0
function bonus(): int = 0
procedure start() { active = players[0] }
setup { deal 2 from pile to hand  call start() }
turn { choose c from items(hand(active)) as "play"  move c to pile }
end when all(empty(hand(p)) for p in players)
name hand "hand"
"""


def make_ruleset(tmp_path: Path, variants: dict[str, str] | None = None,
                 locales: dict[str, str] | None = None) -> Path:
    root = tmp_path / "cards"
    (root / "variants").mkdir(parents=True)
    (root / "locales").mkdir()
    (root / "cards.meeple").write_text(BASE, encoding="utf-8")
    for n, text in (variants or {}).items():
        (root / "variants" / f"{n}.meeple").write_text(text, encoding="utf-8")
    for n, text in (locales or {}).items():
        (root / "locales" / f"{n}.meeple").write_text(text, encoding="utf-8")
    return root


def overlay_diagnostics(root: Path, variants=(), locale=None):
    src = read_sources(root)
    assert not src.diagnostics, [d.render(src.sources) for d in src.diagnostics]
    diags = Diagnostics()
    _checked, diags = check(merge(src, list(variants), locale, diags), diags)
    return diags.items


@pytest.mark.parametrize("overlay, line, regex", [
    ("replace zone discard: Card", 2,
     "'replace' of zone discard, which the ruleset does not declare\nhint: drop 'replace' to add a new declaration"),
    ("replace function bonsu(): int = 1", 2,
     "'replace' of function bonsu, which the ruleset does not declare\nhint: did you mean 'function bonus'\\?"),
    ("zone pile: Card hidden", 2,
     "zone pile is already declared by the base ruleset\nhint: write 'replace zone ...' to replace it"),
    ("function bonus(): int = 2", 2, "function bonus is already declared"),
    ("players 2..6", 2, "^players is already declared by the base ruleset"),
    ('name hand "cards in hand"', 2, "name hand is already declared"),    # variants don't rename
    ("remove var pases", 2, "'remove' of var pases, which is not declared\nhint: did you mean 'var passes'\\?"),
    ("remove zone discard", 2, "'remove' of zone discard, which is not declared"),
    ("extend procedure strat { }", 2,
     "'extend' of procedure strat, which is not declared\nhint: did you mean 'procedure start'\\?"),
])
def test_overlay_conflicts(tmp_path, overlay, line, regex):
    root = make_ruleset(tmp_path, variants={"v": f"variant v\n{overlay}\n"})
    got = overlay_diagnostics(root, ["v"])
    assert [d.code for d in got] == ["overlay/conflict"], [text_of(d) for d in got]
    (d,) = got
    assert d.span.file.endswith("v.meeple") and d.span.line == line
    assert re.search(regex, text_of(d)), text_of(d)


def test_every_overlay_conflict_of_a_variant_is_reported(tmp_path):
    root = make_ruleset(tmp_path, variants={"v": "variant v\nreplace zone discard: Card\n"
                                                 "zone pile: Card\nremove var nope\n"})
    got = overlay_diagnostics(root, ["v"])
    assert [(d.code, d.span.line) for d in got] == [("overlay/conflict", 2), ("overlay/conflict", 3),
                                                   ("overlay/conflict", 4)]


def test_removing_what_is_still_used_is_a_check_error(tmp_path):
    root = make_ruleset(tmp_path, variants={"v": "variant v\nremove procedure start\n"})
    got = overlay_diagnostics(root, ["v"])
    assert [(d.code, d.message) for d in got] == [("check/unknown-procedure", "unknown procedure 'start'")]
    assert got[0].span.file.endswith("cards.meeple")


def test_unknown_variant_and_locale(tmp_path):
    root = make_ruleset(tmp_path, variants={"fast": "variant fast\n"}, locales={"de": "locale de\n"})
    (d,) = overlay_diagnostics(root, ["fsat"])
    assert (d.code, d.message, d.hint) == ("load/unknown-variant", "cards has no variant 'fsat'",
                                           "did you mean 'fast'? The variants of cards: fast")
    assert d.span.line == 0 and d.location() == d.span.file     # about the ruleset, not a line
    (d,) = overlay_diagnostics(root, [], "fr")
    assert (d.code, d.message, d.hint) == ("load/unknown-locale", "cards has no locale 'fr'",
                                           "The locales of cards: de")
    with pytest.raises(MeepleError) as e:
        interpreter.load(str(root), variants=["nope"], locale="xx")
    assert [d.code for d in e.value.diagnostics] == ["load/unknown-variant", "load/unknown-locale"]


def test_locales_rename_silently_but_variants_cannot(tmp_path):
    root = make_ruleset(tmp_path, locales={"de": 'locale de\nlanguage "Deutsch"\nname hand "Hand"\n'
                                                 'text play "Spiele"\ntitle "Karten"\n'})
    assert overlay_diagnostics(root, [], "de") == []


def test_a_locale_cannot_change_rules_without_replace(tmp_path):
    root = make_ruleset(tmp_path, locales={"de": "locale de\nplayers 2..6\n"})
    (d,) = overlay_diagnostics(root, [], "de")
    assert d.code == "overlay/conflict" and d.message == "players is already declared by the base ruleset"


def test_parse_errors_in_overlay_files_are_reported_with_their_file(tmp_path):
    root = make_ruleset(tmp_path, variants={"v": "variant v\nreplace\n"}, locales={"de": "locale de\nname\n"})
    src = read_sources(root)
    assert sorted((Path(d.span.file).name, d.code) for d in src.diagnostics) == [
        ("de.meeple", "parse/unexpected-end"), ("v.meeple", "parse/unexpected-end")]
    with pytest.raises(MeepleError):
        interpreter.load(str(root))


def test_two_base_files_in_one_folder(tmp_path):
    root = make_ruleset(tmp_path)
    (root / "more.meeple").write_text("ruleset more\n", encoding="utf-8")
    src = read_sources(root)
    assert [d.code for d in src.diagnostics] == ["load/two-bases"]


def test_a_folder_without_ruleset_files(tmp_path):
    src = read_sources(tmp_path)
    assert [d.code for d in src.diagnostics] == ["load/io"]


# ---------------------------------------------------------------- types by node

def test_a_type_belongs_to_its_very_node_even_after_the_node_is_freed():
    import gc
    import weakref

    from meeple.dsl import ast as ir
    from meeple.dsl.check import NodeMap
    from meeple.dsl.types import INT, STR

    types = NodeMap()
    node = ir.IntLit(value=1)
    types[node] = INT
    twin = ir.IntLit(value=1)                 # equal, but another place of the source
    assert types.get(node) == INT and types.get(twin, STR) == STR
    alive = weakref.ref(node)
    del node
    gc.collect()
    assert alive() is not None                # kept: its id cannot name a new node
    fresh = [ir.IntLit(value=2) for _ in range(1000)]
    assert all(types.get(n) is None for n in fresh)


def test_the_checker_types_each_expression_of_a_ruleset():
    text = "ruleset t\nplayers 2..2\nvar n: int = 1 + 2\nturn { n = n + 1 }\nend when n > 3\n"
    merged = merge(SourceSet(base=parse(text, "t.meeple"), sources={"t.meeple": text}))
    c, d = check(merged)
    assert not d.items
    init = c.vars["n"].init
    assert str(c.type_of(init)) == "int" and str(c.type_of(init.left)) == "int"
