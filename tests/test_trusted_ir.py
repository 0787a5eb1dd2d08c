"""The parser makes its IR nodes without pydantic's validation (``dsl.ast.trusted``):
every source there is — the bundled rulesets with their variants and locales, the test
data, the chunks of the golden error files and every example of the docs — gives the
very IR that validating each node gives (the same classes, fields, fields set and the
type of every value, lists not tuples, str not Lark tokens), or the same diagnostics.

The compatibility corpus (tests/compat: every version of the rulesets ever shipped, most
of the text) is taken whole in the long form (``MEEPLE_TESTS=full``); the short form
takes the files of it that together have every pair of neighbouring tokens the corpus
has (``corpus_cover``: keywords and symbols as written, names, numbers and strings as
their kind), every other source whole."""
from __future__ import annotations

import re
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from meeple.dsl import ast as ir, parse as dsl_parse
from meeple.dsl.errors import MeepleError
from scale import FULL

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```([\w-]+)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
CHUNKS = ("parse_errors.meeple", "check_errors.meeple")


# a token of a ruleset as the cover sees it: a string, a word, a number, a comment or
# one symbol
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*|\d+|#[^\n]*|[^\s\w]')


@cache
def _keywords() -> frozenset[str]:
    return frozenset(dsl_parse.keywords())


def token_pairs(text: str) -> set[tuple[str, str]]:
    """The pairs of neighbouring tokens of a ruleset, a keyword or a symbol as written, a
    name as ``N``, a number as ``0``, a string as ``S`` (comments left out)."""
    keywords = _keywords()
    kinds = []
    for m in TOKEN.finditer(text):
        t = m.group()
        if t[0] == "#":
            continue
        kinds.append("S" if t[0] == '"' else "0" if t[0].isdigit()
                     else "N" if (t[0].isalpha() or t[0] == "_") and t not in keywords else t)
    return set(pairwise(kinds))


def corpus_cover(files: list[Path]) -> set[Path]:
    """Files that together have every pair of neighbouring tokens that ``files`` have
    (greedily: the file with the most pairs still missing first, the shorter on a tie)."""
    texts = {f: f.read_text(encoding="utf-8") for f in files}
    pairs = {f: token_pairs(t) for f, t in texts.items()}
    missing = set().union(*pairs.values())
    out: set[Path] = set()
    while missing:
        best = max(files, key=lambda f: (len(pairs[f] & missing), -len(texts[f])))
        out.add(best)
        missing -= pairs[best]
    return out


@cache
def _sources() -> list:
    out = []
    compat = sorted((ROOT / "tests" / "compat").rglob("*.meeple"))
    taken = set(compat) if FULL else corpus_cover(compat)
    for folder in (ROOT / "rulesets", ROOT / "tests"):
        for f in sorted(folder.rglob("*.meeple")):
            if f in compat and f not in taken:
                continue
            out.append(pytest.param(f.read_text(encoding="utf-8"), id=str(f.relative_to(ROOT))))
    for name in CHUNKS:
        text = (ROOT / "tests" / "testdata" / name).read_text(encoding="utf-8")
        for i, chunk in enumerate(text.split("\n---\n")):
            out.append(pytest.param(chunk, id=f"{name}#{i}"))
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for m in BLOCK.finditer(doc.read_text(encoding="utf-8")):
            if m.group(1).startswith("meeple"):
                line = doc.read_text(encoding="utf-8").count("\n", 0, m.start()) + 1
                out.append(pytest.param(m.group(2), id=f"{doc.name}:{line}"))
    return out


def _validating(cls, **fields):
    return cls(**fields)


def parsed(text: str, monkeypatch, validate: bool):
    """The IR of ``text`` (or its diagnostics), made the parser's way or by validating."""
    with monkeypatch.context() as m:
        if validate:
            m.setattr(dsl_parse, "_new", _validating)
        try:
            return dsl_parse.parse(text, "f.meeple")
        except MeepleError as e:
            return [(d.code, d.span, d.message, d.hint) for d in e.diagnostics]


def assert_same(a, b, where: str = "") -> None:
    """``a`` and ``b`` are equal and of the same type all the way down."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (ir.Node, ir.Span)):
        assert list(a.__dict__) == list(b.__dict__), where
        assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__, where
        assert a.__pydantic_extra__ == b.__pydantic_extra__, where
        assert a.__pydantic_private__ == b.__pydantic_private__, where
        for name, value in a.__dict__.items():
            assert_same(value, b.__dict__[name], f"{where}.{name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


@pytest.mark.parametrize("text", _sources())
def test_the_parsers_ir_is_the_validated_ir(text, monkeypatch):
    fast = parsed(text, monkeypatch, validate=False)
    assert_same(fast, parsed(text, monkeypatch, validate=True), "file")
    if isinstance(fast, ir.File):
        assert fast == ir.File.model_validate(fast.model_dump())


def test_template_expressions_are_the_validated_ones(monkeypatch):
    at = ir.Span(file="f.meeple", line=3, column=4)
    for text in ("a.b + count(x for x in hand(p) if x.rank > 2)", "[1, 2][0]", "if a then b else c"):
        fast = dsl_parse.parse_expr(text, at)
        with monkeypatch.context() as m:
            m.setattr(dsl_parse, "_new", _validating)
            assert_same(fast, dsl_parse.parse_expr(text, at), text)


def test_a_trusted_node_still_refuses_a_missing_or_unknown_field():
    with pytest.raises(TypeError, match="'name' is missing"):
        ir.trusted(ir.Var, span=ir.Span())
    with pytest.raises(TypeError, match="unknown fields \\['nam'\\]"):
        ir.trusted(ir.Var, name="x", nam="y")


def test_a_trusted_node_gets_its_own_default_list():
    a, b = ir.trusted(ir.Call, func="f"), ir.trusted(ir.Call, func="g")
    a.args.append(ir.trusted(ir.IntLit, value=1))
    assert b.args == [] and ir.Call(func="h").args == []
    assert a.span is not b.span and a.span == ir.Span()


def walked(node) -> list:
    """Every node below ``node``, depth first, the way ``ir.walk`` was written first: by
    recursion over every field."""
    out = [node]
    for name in type(node).model_fields:
        out += _walked_value(getattr(node, name))
    return out


def _walked_value(value) -> list:
    if isinstance(value, ir.Node):
        return walked(value)
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _walked_value(v)]
    return []


@pytest.mark.parametrize("text", [p for p in _sources() if "testdata" not in p.id and ".md" not in p.id])
def test_walk_visits_every_node_in_order(text):
    try:
        f = dsl_parse.parse(text, "f.meeple")
    except MeepleError:
        return
    for top in [f, *f.decls]:
        got, expected = list(ir.walk(top)), walked(top)
        assert len(got) == len(expected) and all(a is b for a, b in zip(got, expected))
