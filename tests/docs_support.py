"""What the documentation tests share: the blocks of docs/language.md and
docs/tutorial.md (their conventions: tests/test_docs.py), and compiling them."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from meeple.dsl import ast as ir, errors
from meeple.dsl.load import SourceSet, read_sources, resolve_path
from meeple.dsl.parse import parse

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "docs" / "language.md"
DOC_FILES = [p for p in (LANGUAGE, ROOT / "docs" / "tutorial.md") if p.exists()]
GRAMMAR = ROOT / "dsl" / "grammar.lark"

BLOCK = re.compile(r"^```([\w-]+)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
HEADER = re.compile(r"(ruleset|variant|locale)\s+(\w+)")
DECL_WORDS = {"title", "players", "order", "language", "enum", "kind", "board", "zone",
              "deck", "var", "relation", "function", "procedure", "setup", "turn", "end",
              "at", "score", "heuristic", "tiebreak", "name", "text", "label", "color", "replace",
              "extend", "remove", "invariant", "bound", "secret", "offscreen", "supply"}


# ---------------------------------------------------------------- reading the docs

@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    text: str
    start: int = 0  # offsets of the whole fenced block in the document
    end: int = 0

    @property
    def id(self) -> str:
        return f"{self.doc.name}:{self.line}"

    def code_lines(self) -> list[str]:
        return [ln for ln in self.text.splitlines() if ln.strip() and not ln.strip().startswith("#")]

    @property
    def header(self) -> tuple[str, str] | None:
        lines = self.code_lines()
        m = HEADER.match(lines[0].strip()) if lines else None
        return (m.group(1), m.group(2)) if m else None

    def comment(self, key: str) -> str | None:
        m = re.search(rf"#\s*{key}:\s*(\S+)", self.text)
        return m.group(1) if m else None

    @property
    def quoted_from(self) -> str | None:
        """The bundled file a '# quoted from FILE' block is an excerpt of."""
        m = re.match(r"#\s*quoted from\s+(\S+)\s*\n", self.text)
        return m.group(1) if m else None


def _blocks(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    out = []
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append(Block(doc, line, m.group(1), m.group(2), m.start(), m.end()))
    return out


ALL_BLOCKS = [b for d in DOC_FILES for b in _blocks(d)]
MEEPLE = [b for b in ALL_BLOCKS if b.lang == "meeple"]
ERRORS = [b for b in ALL_BLOCKS if b.lang == "meeple-error"]
COMPLETE = [b for b in MEEPLE if b.header and b.header[0] == "ruleset"]
OVERLAYS = [b for b in MEEPLE if b.header and b.header[0] != "ruleset"]
QUOTES = [b for b in MEEPLE if b.quoted_from]
FRAGMENTS = [b for b in MEEPLE if not b.header and not b.quoted_from]
PYTHON = [b for b in ALL_BLOCKS if b.lang == "python"]
RULESETS = {b.header[1]: b for b in COMPLETE}
EXAMPLES = RULESETS["examples"].text
DOC_TEXT = LANGUAGE.read_text(encoding="utf-8")
FLAT_DOC = " ".join(DOC_TEXT.split())  # the prose with every line break and indent as one space


def _prose(text: str) -> str:
    """The document without its grammar block."""
    return BLOCK.sub(lambda m: "" if m.group(1) == "lark" else m.group(0), text)


def _no_code(text: str) -> str:
    return re.sub(r"^```\n.*?^```\n", "", BLOCK.sub("", text), flags=re.M | re.S)


# ---------------------------------------------------------------- compiling

def _sources(files: dict[str, str]) -> SourceSet:
    """A SourceSet from file names and texts, as dsl.load.read_sources would make."""
    src = SourceSet()
    for fname, text in files.items():
        src.sources[fname] = text
        try:
            f = parse(text, fname)
        except errors.MeepleError as e:
            src.diagnostics.extend(e.diagnostics)
            continue
        if f.kind == "ruleset":
            src.base = f
        elif f.kind == "variant":
            src.variants[f.name] = f
        else:
            src.locales[f.name] = f
    return src


def _base_text(name: str) -> tuple[str, str]:
    """(file name, text) of a ruleset block of the docs, or of a bundled ruleset."""
    if name in RULESETS:
        return f"{name}.meeple", RULESETS[name].text
    src = read_sources(resolve_path(name))
    fname = src.base.span.file
    return fname, src.sources[fname]


def compile_block(block: Block) -> interpreter.Ruleset:
    """Loads a complete block (with its base for a variant or a locale)."""
    kind, name = block.header
    if kind == "ruleset":
        return interpreter.compile_sources(_sources({f"{name}.meeple": block.text}))
    base = block.comment("base")
    assert base, f"{block.id}: a {kind} block needs a '# base: NAME' comment"
    bname, btext = _base_text(base)
    files = {bname: btext}
    if kind == "locale":  # the variants of the same base lie beside it, as in a folder
        files.update({f"variants/{b.header[1]}.meeple": b.text for b in OVERLAYS
                      if b.header[0] == "variant" and b.comment("base") == base})
    src = _sources({**files, f"{kind}s/{name}.meeple": block.text})
    if kind == "variant":
        return interpreter.compile_sources(src, [name])
    return interpreter.compile_sources(src, (), name)


def _examples_file() -> ir.File:
    return parse(EXAMPLES, "examples.meeple")


def _decl_key(d) -> str | None:
    try:
        return ir.decl_key(d)
    except ValueError:  # replace / extend / remove
        return None


def _first_words(text: str) -> list[str]:
    words = re.findall(r"[A-Za-z_]+", "\n".join(
        ln for ln in text.splitlines() if not ln.strip().startswith("#")))
    return words[:2]


def compile_fragment(text: str, fname: str) -> tuple[interpreter.Ruleset, str]:
    """A fragment inside the examples ruleset: ('declarations' | 'statements')."""
    ctx = _examples_file()
    words = _first_words(text)
    as_decls = bool(words) and words[0] in DECL_WORDS and words[:2] != ["end", "game"]
    if as_decls:
        frag = parse("ruleset examples " + text, fname)  # same line: line numbers match
        mode = "declarations"
    else:
        frag = parse("ruleset examples procedure doc_example() {" + text + "\n}", fname)
        mode = "statements"
    keys = {_decl_key(d) for d in frag.decls} - {None}
    decls = [d for d in ctx.decls if _decl_key(d) not in keys] + list(frag.decls)
    if mode == "statements":
        for i, d in enumerate(decls):
            if d.node == "SetupDecl":
                call = ir.CallProc(span=d.span, proc="doc_example")
                body = d.body.model_copy(update={"stmts": list(d.body.stmts) + [call]})
                decls[i] = d.model_copy(update={"body": body})
    src = SourceSet(base=ctx.model_copy(update={"decls": decls}),
                    sources={"examples.meeple": EXAMPLES, fname: text})
    return interpreter.compile_sources(src), mode


def assert_warnings(block: Block, prog: interpreter.Ruleset) -> None:
    """A block gives exactly the warning of its '# warning: CODE' comment, or none."""
    expected = [block.comment("warning")] if block.comment("warning") else []
    got = [w.code for w in prog.warnings]
    assert got == expected, "\n\n".join(w.render(prog.sources.sources) for w in prog.warnings)


def play_randomly(game, seed: int = 0, max_moves: int = 400):
    rnd = random.Random(seed)
    moves = 0
    while not game.over and moves < max_moves:
        game.apply(rnd.randrange(len(game.legal_moves())))
        moves += 1
    return game


def _players(prog) -> list[int]:
    return list(range(max(prog.min_players, 1), prog.max_players + 1))


# ---------------------------------------------------------------- the examples


def _program(name: str) -> interpreter.Ruleset:
    return compile_block(RULESETS[name])


def _run(body: str, players: int = 2, seed: int = 0, header: str = "") -> interpreter.Game:
    text = f"ruleset claim\nplayers 1..4\n{header}\n{body}\n"
    return interpreter.compile_sources(_sources({"claim.meeple": text})).new_game(players, seed)


CARDS = """kind Card { value: int }
zone pile: Card
zone other: Card hidden
zone hand: Card per player
deck cards into pile { Card(value: v) for v in 1..4 }
"""


def _load(text: str, fname: str = "claim.meeple") -> interpreter.Ruleset:
    return interpreter.compile_sources(_sources({fname: text}))


def _load_error(text: str) -> errors.Diagnostic:
    with pytest.raises(errors.MeepleError) as info:
        _load(text)
    return info.value.diagnostics[0]


CLAIM = "ruleset claim\nplayers 1..4\n"
