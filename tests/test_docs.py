"""Checks every example of the language reference (docs/language.md, and
docs/tutorial.md when it exists), and that the reference stays in sync with the
implementation.

Conventions (also explained at the top of docs/language.md):

* a ```meeple block starting with ``ruleset NAME`` is a complete file: it must load
  without errors, and games of it are played with random moves;
* a block starting with ``variant NAME`` or ``locale NAME`` has a ``# base: NAME``
  comment naming a ruleset block of the docs (or a bundled ruleset); it is applied to
  that base and must load;
* any other ```meeple block is a fragment: declarations are added to the ``examples``
  ruleset of docs/language.md (replacing its declarations with the same key), and
  statements become a procedure that is called at the end of its setup; the result
  must load and start a 2-player game;
* a ```meeple-error block must fail with the code of its ``# error: CODE`` comment:
  when loaded, or (``rule/...`` codes) while a game is played;
* a ```meeple block with a ``# warning: CODE`` comment must load with exactly that
  warning; every other ```meeple block must load without warnings;
* a Markdown table with the columns "Expression" and "Value" is evaluated in the
  examples ruleset (2 players, after its setup): the two expressions of each row must
  be equal;
* a complete ruleset block must also pass the checks of ``meeple test`` on a few games
  (``interpreter.invariants.play_and_check``), unless a ``# fails: NAME`` comment names
  the invariant it breaks on purpose; a locale block is loaded with the variant blocks of
  its base beside it, as in a folder;
* a ```meeple block whose first line is ``# quoted from FILE`` is an excerpt of that
  bundled file and must appear in it as written;
* a ```python block runs in a folder holding every complete ruleset block as
  ``NAME.meeple`` (and the worked example as ``rulesets/frog_race/``); its ``test_*``
  functions are called, and a ```text block right after it is what it must print.
"""
from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from meeple.dsl import ast as ir, boards, builtins, check, errors
from meeple.dsl.load import SourceSet, read_sources, resolve_path
from meeple.dsl.parse import parse
from meeple.interpreter.analysis import invariants, leaks, testing
from meeple.interpreter.analysis.invariants import Config, Failure, play_and_check
from meeple.interpreter.play import display, helpers, runtime, views
from meeple.interpreter.play.helpers import RuleError

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
              "extend", "remove", "invariant", "bound", "secret", "offscreen"}


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

def test_the_docs_have_examples():
    assert "examples" in RULESETS
    assert len(MEEPLE) > 40 and len(ERRORS) > 10
    assert {b.comment("warning") for b in MEEPLE} >= {"check/unused-text", "check/unknown-placeholder"}


@pytest.mark.parametrize("block", COMPLETE, ids=lambda b: f"{b.id}-{b.header[1]}")
def test_complete_ruleset_blocks_load_and_play(block):
    prog = compile_block(block)
    assert_warnings(block, prog)
    for n in _players(prog):
        for seed in range(2):
            play_randomly(prog.new_game(n, seed), seed)


@pytest.mark.parametrize("block", COMPLETE, ids=lambda b: f"{b.id}-{b.header[1]}")
def test_complete_ruleset_blocks_pass_the_checks_of_meeple_test(block):
    prog = compile_block(block)
    cfgs = [Config(n) for n in _players(prog)]
    fails = block.comment("fails")
    if fails:  # broken on purpose: the search finds the invariant it names
        failure = invariants.explore(lambda c: prog, cfgs, 30, 0, invariants.Stats())
        assert failure is not None and failure.check == f"invariant '{fails}'", failure
        return
    for c in cfgs:
        for seed in range(3):
            play_and_check(prog, c, seed, [seed * 7 + i for i in range(80)])


@pytest.mark.parametrize("block", OVERLAYS, ids=lambda b: f"{b.id}-{b.header[1]}")
def test_variant_and_locale_blocks_load_and_play(block):
    prog = compile_block(block)
    assert_warnings(block, prog)
    for n in _players(prog)[:2]:
        play_randomly(prog.new_game(n, 1), 1)


@pytest.mark.parametrize("block", FRAGMENTS, ids=lambda b: b.id)
def test_fragments_check_and_run_in_the_examples_ruleset(block):
    prog, mode = compile_fragment(block.text, f"{block.doc.name}:{block.line}")
    assert_warnings(block, prog)
    game = prog.new_game(2, 0)  # runs the setup, and the statements of the fragment
    if mode == "statements":
        assert game.state["phase"] != "setup" or game.decision is not None


@pytest.mark.parametrize("block", ERRORS, ids=lambda b: b.id)
def test_error_blocks_fail_with_their_code(block):
    code = block.comment("error")
    assert code, f"{block.id}: a meeple-error block needs an '# error: CODE' comment"
    runtime_error = code.startswith("rule/")
    try:
        if block.header:
            prog = compile_block(block)
        else:
            prog, _ = compile_fragment(block.text, f"{block.doc.name}:{block.line}")
    except errors.MeepleError as e:
        assert not runtime_error, f"expected {code} during a game, got:\n{e.render()}"
        assert e.diagnostics[0].code == code, e.render()
        return
    assert runtime_error, f"{block.id}: loads without the error {code}"
    with pytest.raises(RuleError) as info:
        play_randomly(prog.new_game(max(prog.min_players, 2), 0))
    assert info.value.code == code, str(info.value)


# ---------------------------------------------------------------- quoted files, Python

@pytest.mark.parametrize("block", QUOTES, ids=lambda b: b.id)
def test_quoted_excerpts_are_in_their_files(block):
    real = (ROOT / block.quoted_from).read_text(encoding="utf-8")
    excerpt = block.text.split("\n", 1)[1]
    assert excerpt.strip() and excerpt in real


def _output_of(block: Block) -> str | None:
    """The text block right after a block, if there is one."""
    i = ALL_BLOCKS.index(block)
    if i + 1 < len(ALL_BLOCKS):
        after = ALL_BLOCKS[i + 1]
        between = block.doc.read_text(encoding="utf-8")[block.end:after.start]
        if after.doc == block.doc and after.lang == "text" and not between.strip():
            return after.text
    return None


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: b.id)
def test_python_blocks_run(block, tmp_path, monkeypatch, capsys):
    for name, b in RULESETS.items():
        (tmp_path / f"{name}.meeple").write_text(b.text, encoding="utf-8")
    _frog_race(tmp_path / "rulesets")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "doc_example"}
    exec(compile(block.text, block.id, "exec"), namespace)  # noqa: S102 - the docs' own code
    for name, fn in list(namespace.items()):
        if name.startswith("test_") and callable(fn):
            fn()
    expected = _output_of(block)
    if expected is not None:
        assert capsys.readouterr().out.strip() == expected.strip()


def test_the_python_examples_are_checked():
    outputs = [b for b in PYTHON if _output_of(b) is not None]
    assert len(PYTHON) >= 7 and len(outputs) >= 5
    assert sum("def test_" in b.text for b in PYTHON) >= 1


# ---------------------------------------------------------------- expression tables

def _tables(text: str) -> list[tuple[int, str, str]]:
    """(line, expression, value) for every row of the Expression | Value tables."""
    rows, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"\|\s*Expression\s*\|\s*Value\s*\|", line):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                cells = [c.strip() for c in lines[j].strip().strip("|").split("|")]
                a, b = (re.fullmatch(r"`(.*)`", c).group(1) for c in cells[:2])
                rows.append((j + 1, a, b))
                j += 1
    return rows


TABLE_ROWS = [(d, *row) for d in DOC_FILES for row in _tables(d.read_text(encoding="utf-8"))]


def _evaluate(rows):
    decls, stmts = [], []
    for k, (_, _, a, b) in enumerate(rows):
        decls.append(f"var doc_{k}: bool = false")
        stmts.append(f"doc_{k} = ({a}) == ({b})")
    variant = "variant doc_eval\n" + "\n".join(decls) + "\nextend setup {\n" + "\n".join(stmts) + "\n}\n"
    src = _sources({"examples.meeple": EXAMPLES, "variants/doc_eval.meeple": variant})
    game = interpreter.compile_sources(src, ["doc_eval"]).new_game(2, 0)
    return [game.state["vars"][f"doc_{k}"] for k in range(len(rows))]


def test_expression_tables():
    assert len(TABLE_ROWS) > 60
    try:
        results = _evaluate(TABLE_ROWS)
    except errors.MeepleError:  # find the rows that do not check, one by one
        bad = []
        for row in TABLE_ROWS:
            try:
                _evaluate([row])
            except errors.MeepleError as e:
                bad.append(f"{row[0].name}:{row[1]}: {row[2]}: {e.diagnostics[0].message}")
        pytest.fail("\n".join(bad))
    wrong = [f"{d.name}:{line}: {a} is not {b}"
             for (d, line, a, b), ok in zip(TABLE_ROWS, results) if not ok]
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- what the examples claim

def _program(name: str) -> interpreter.Ruleset:
    return compile_block(RULESETS[name])


def _notations(prog, zone_key: str, game) -> list[str]:
    return [prog.items[i].notation for i in testing.at(game, zone_key)]


def test_examples_ruleset_position_after_setup():
    prog = _program("examples")
    game = prog.new_game(2, 0)
    assert _notations(prog, "hand:0", game) == ["blue-8", "blue-6", "blue-4"]
    assert _notations(prog, "hand:1", game) == ["blue-7", "blue-5", "blue-3"]
    assert _notations(prog, "draw", game) == [f"red-{v}" for v in range(1, 9)] + ["green-1"]
    grid = [_notations(prog, f"grid:r{r}c{c}", game)[0] for r in (1, 2, 3) for c in (1, 2, 3)]
    assert grid == ["blue-2", "blue-1"] + [f"green-{v}" for v in range(8, 1, -1)]
    for n in (3, 4):
        play_randomly(prog.new_game(n, n), n)


def test_deal_goes_round_the_table_from_the_active_player():
    prog = _program("deal_demo")
    game = prog.new_game(3, 0)
    values = {k: [prog.items[i].attrs["value"] for i in testing.at(game, k)]
              for k in ("hand:0", "hand:1", "hand:2", "pile")}
    assert values == {"hand:1": [7, 4], "hand:2": [6, 3], "hand:0": [5, 2], "pile": [1]}


def test_notation_and_option_order():
    game = _program("notation_demo").new_game(2, 0)
    assert testing.notations(game) == ["play spades-2", "play hearts-2"]
    game.apply("play spades-2")
    assert testing.notations(game) == ["call spades", "call hearts"]  # declaration order
    game.apply("SPADES")  # without the verb, in any case
    assert testing.notations(game) == ["take spades-2+hearts-2"]
    game.apply(0)
    assert testing.notations(game) == ["tie spades-2", "tie hearts-2"]
    assert game.active_player == 0


def _line_demo_values(exprs):
    text = RULESETS["line_demo"].text + "".join(
        f"var doc_{k}: bool = false\n" for k in range(len(exprs)))
    text += "setup {\n" + "".join(f"  doc_{k} = ({a}) == ({b})\n"
                                  for k, (a, b) in enumerate(exprs)) + "}\n"
    (tmp := Path(__import__("tempfile").mkdtemp()) / "line_demo.meeple").write_text(text)
    game = interpreter.load(str(tmp)).new_game(2, 0)
    return [game.state["vars"][f"doc_{k}"] for k in range(len(exprs))]


def test_a_relation_of_three_cells():
    claims = [("line(cell(1, 1))",
               "[[cell(1, 2), cell(1, 3)], [cell(2, 1), cell(3, 1)], [cell(2, 2), cell(3, 3)]]"),
              ("line(cell(1, 1), cell(2, 2))", "[cell(3, 3)]"),
              ("line(cell(1, 1), cell(2, 2), cell(3, 3))", "true"),
              ("line(cell(1, 1), cell(2, 2), cell(3, 2))", "false"),
              ("line(cell(2, 2), cell(1, 2))", "[]"),  # r0c2 is off the board
              ("line(cell(1, 2))", "[[cell(2, 2), cell(3, 2)]]")]
    assert _line_demo_values(claims) == [True] * len(claims)
    for a, b in claims[:3]:
        assert f"`{a}` is\n`{b}`" in DOC_TEXT or f"`{a}` is `{b}`" in FLAT_DOC
    game = _program("line_demo").new_game(2, 0)
    for m in ["place r1c1", "place r3c3"]:
        game.apply(m)
    assert not game.over
    game.apply("place r2c2")  # the middle last
    assert game.over
    # the cells of a relation of more than two cells are of one board
    bad = RULESETS["line_demo"].text.replace(
        "board grid: grid(rows: 3, cols: 3) holds Stone",
        "board grid: grid(rows: 3, cols: 3) holds Stone\nboard side: grid(rows: 1, cols: 2) holds Stone"
    ).replace("c: grid) =", "c: side) =")
    d = _load_error(bad)
    assert d.code == "check/type-mismatch"
    assert "relates cells of one board" in d.message


def test_two_kinds_on_two_layers():
    game = _program("layers_demo").new_game(2, 0)
    assert testing.notations(game)[0] == "fall field.r1c1"
    game.apply("fall field.r1c1")
    zones = views.view(game, 0)["zones"]
    assert zones["field:r1c1"] == [] and len(zones["flags:r1c1"]) == 1
    assert "there is no\n`holds Piece or Flag`" in DOC_TEXT
    # no union of kinds: a board holds one kind
    d = _load_error(RULESETS["layers_demo"].text.replace(
        "grid(rows: 1, cols: 3) holds Piece", "grid(rows: 1, cols: 3) holds Piece or Flag"))
    assert d.code.startswith("parse/")


def test_a_move_without_an_object():
    rules = _program("pass_demo")
    game = rules.new_game(2, 0)
    assert testing.notations(game) == ["pass", "play 3"]
    game.apply("play 3")
    assert testing.notations(game) == ["pass", "play 2"]
    game.apply("pass")
    assert game.state["pending"]["alone"] == "pass"
    game = rules.resume(json.loads(json.dumps(game.state)))  # a saved state resumes
    assert testing.notations(game) == ["pass"]  # an empty hand: no error, only the verb
    game.apply("PASS")
    assert game.over
    assert "`pass` and\n`play 3`" in DOC_TEXT
    # without 'or', the pending decision keeps its old shape
    assert "alone" not in _program("notation_demo").new_game(2, 0).state["pending"]
    d = _load_error(RULESETS["pass_demo"].text.replace('or "pass"', 'or "play"'))
    assert d.code == "check/bad-value"
    assert "the two verbs are both 'play'" in d.message


def test_a_choose_of_a_local_s_name_sets_that_local():
    # language.md 6.1: asked again in a branch, `choose n` sets the n of the turn
    rules = _load("ruleset ask_again\nplayers 2..2\nvar got: int = 0\nvar done: bool = false\n"
                  "turn {\n  choose n from [1, 2] as \"first\"\n  if n == 1 {\n"
                  "    choose n from [5, 6] as \"second\"\n  }\n  got = n\n  done = true\n}\n"
                  "end when done\nscore(p) = got\n")
    for moves, got in ((["first 1", "second 6"], 6), (["first 2"], 2)):
        game = rules.new_game(2, 0)
        testing.play(game, *moves)
        assert game.over and game.result["scores"] == [got, got]
    assert "and for a `choose` of such a name" in DOC_TEXT


def test_a_move_over_two_cells():
    game = _program("slide_demo").new_game(2, 0)
    assert testing.notations(game) == ["slide r1c1+r1c2", "slide r1c1+r2c1"]
    game.apply("slide r1c1+r1c2")
    assert testing.notations(game) == ["slide r1c2+r1c1", "slide r1c2+r2c2"]
    assert "`slide r1c1+r1c2` and\n`slide r1c1+r2c1`" in DOC_TEXT


def test_hidden_information_in_views_and_messages():
    game = _program("hidden_demo").new_game(2, 0)
    assert game.over
    mine, theirs = views.view(game, 0), views.view(game, 1)
    assert mine["log"] == ["Player 1 draws a card", "Player 1 drew card 2", "Player 1 plays card 2"]
    assert theirs["log"] == ["Player 1 draws a card", "Player 1 drew a card", "Player 1 plays card 2"]
    assert views.view(game, views.SPECTATOR)["log"] == theirs["log"]
    assert theirs["zones"]["hand:0"] == {"count": 1}
    assert theirs["zones"]["pile"] == {"count": 1}
    assert isinstance(mine["zones"]["hand:0"], list)


def test_log_templates_and_their_translation():
    base = _program("message_demo").new_game(2, 0)
    assert views.view(base, 0)["log"] == ["Player 1 plays 3 and keeps 2"]
    fr = next(b for b in OVERLAYS if b.header == ("locale", "fr") and b.comment("base") == "message_demo")
    game = compile_block(fr).new_game(2, 0)
    assert views.view(game, 0)["log"] == ["Joueur 1 joue 3 (il en reste 2)"]


def test_shared_win():
    game = _program("shared_win").new_game(3, 0)
    assert game.result["winners"] == [0, 1] and game.result["ranking"] == [[0, 1], [2]]
    assert game.result["ranks"] == [1, 1, 3] and game.result["outcomes"] == ["win", "win", "loss"]
    assert game.result["draw"] is False
    game = _program("shared_win").new_game(2, 0)
    assert game.result["outcomes"] == ["draw", "draw"] and game.result["draw"] is True
    assert game.result["winners"] == [] and game.result["ranks"] == [1, 1]


def test_against_the_bank_outcomes_by_rule():
    """Standing on 8 beats the bank (6), on 6 draws, on 4 loses, whatever the others do."""
    prog = _program("against_the_bank")
    for n in (1, 2, 3):
        for choice in range(3):
            game = prog.new_game(n, 0)
            while not game.over:
                game.apply(choice)
            expected = ["loss", "draw", "win"][choice]
            assert game.result["outcomes"] == [expected] * n
            assert game.result["draw"] == (expected == "draw" and True)
            assert game.result["winners"] == ([] if expected != "win" else list(range(n)))
    game = prog.new_game(3, 0)
    for c in (2, 0, 1):
        game.apply(c)
    assert game.result["outcomes"] == ["win", "loss", "draw"] and game.result["ranks"] == [1, 3, 2]
    assert game.result["draw"] is False


def test_an_outcome_can_read_the_place():
    for n in (2, 4):
        r = _program("tied_players_share_the_victory").new_game(n, 0).result
        assert r["outcomes"] == ["win"] * n and r["winners"] == list(range(n)) and not r["draw"]


def test_a_dealer_participant_scores_without_being_a_seat():
    prog = _program("dealer_duel")
    seen = set()
    for seed in range(40):
        for choice, outcome in ((0, "loss"), (2, "win")):
            game = prog.new_game(1, seed)
            game.apply(choice)
            r = game.result
            dealer = r["participants"]["dealer"]
            seen.add(dealer)
            assert r["outcomes"] == [outcome] and r["scores"] == [[16, 18, 21][choice]]
            assert len(r["ranks"]) == 1 and dealer in (17, 18, 19, 20)
        game = prog.new_game(1, seed)
        game.apply(1)                                     # 18 against the dealer
        d = game.result["participants"]["dealer"]
        assert game.result["outcomes"] == ["win" if d < 18 else "draw" if d == 18 else "loss"]
    assert seen == {17, 18, 19, 20}


def test_partners_share_their_team_result():
    game = _program("partners").new_game(4, 0)
    for c in (1, 0, 0, 0):      # Player 1 takes 2, the others 1: team (1, 3) has 3, (2, 4) 2
        game.apply(c)
    r = game.result
    assert r["teams"] == [{"seats": [0, 2], "score": 3, "rank": 1},
                          {"seats": [1, 3], "score": 2, "rank": 2}]
    assert r["outcomes"] == ["win", "loss", "win", "loss"] and r["ranks"] == [1, 2, 1, 2]
    assert r["ranking"] == [[0, 2], [1, 3]] and r["winners"] == [0, 2]


def test_active_in_a_score_is_the_player_of_the_last_turn():
    for players, scores in ((2, [0, 1]), (3, [1, 0, 0])):
        game = _program("last_mover_bonus").new_game(players, 0)
        while not game.over:
            game.apply(game.legal_moves()[0])
        assert game.result["scores"] == scores


def test_budget_example():
    prog = compile_block(next(b for b in ERRORS if b.header == ("ruleset", "endless")))
    with pytest.raises(RuleError) as info:
        prog.new_game(2, 0)
    assert info.value.code == "rule/budget"
    assert "max of 1000" in str(info.value)


def _ir(decls) -> list[str]:
    return [ir.show(d) for d in decls]


def test_the_quoted_cherokee_variant_is_the_real_one():
    block = next(b for b in OVERLAYS if b.header == ("variant", "open_clans"))
    real = read_sources(resolve_path("cherokee")).variants["open_clans"]
    assert _ir(parse(block.text).decls) == _ir(real.decls)


def test_the_cherokee_setup_deals_the_clans_in_a_procedure():
    src = read_sources(resolve_path("cherokee"))
    decls = src.base.decls
    setup = next(d for d in decls if d.node == "SetupDecl")
    calls = [s.proc for s in setup.body.stmts if s.node == "CallProc"]
    assert calls == ["deal_clans", "choose_start_player"]
    deal = next(d for d in decls if d.node == "ProcedureDecl" and d.name == "deal_clans")
    assert [ir.show(s) for s in deal.body.stmts] == [
        ir.show(s) for s in parse("ruleset x procedure p() { shuffle clan_pile\n deal 1 from clan_pile to clan }").decls[0].body.stmts]
    assert ("`procedure deal_clans()` (`shuffle clan_pile`, `deal 1 from clan_pile to clan`), called before "
            "`call choose_start_player()`") in FLAT_DOC
    # the variant's neutral clans are laid out before the Dutch start player is chosen
    game = interpreter.load("cherokee", ["open_clans"], "nl").new_game(3, 0)
    assert testing.notations(game)[0] == "start p1" and len(testing.at(game, "neutral")) == 2
    # the two messages of a turn in which the player passes
    logs = {s.key: s.template for s in ir.walk(next(d for d in decls if d.node == "TurnDecl"))
            if s.node == "Log"}
    assert logs == {"no_cards": "{active} has no hand card left and passes",
                    "passes": "{active} cannot attack and passes",
                    "chased": logs["chased"]}
    assert ('"Player 1 has no hand card left and passes" when the hand is empty, '
            '"Player 1 cannot attack and passes" when no attack is possible') in FLAT_DOC


def test_the_quoted_dutch_locale_is_part_of_the_real_one():
    block = next(b for b in OVERLAYS if b.header == ("locale", "nl"))
    real = set(_ir(read_sources(resolve_path("cherokee")).locales["nl"].decls))
    assert set(_ir(parse(block.text).decls)) <= real


def test_dutch_cherokee_turn_order():
    prog = interpreter.load("cherokee", locale="nl")
    assert prog.direction == -1
    game = prog.new_game(3, 5)
    assert testing.notations(game) == ["start p1", "start p2", "start p3"]
    assert game.active_player == 0
    game.apply("start p2")
    seen = {}  # turn number -> active player
    while not game.over and len(seen) < 4:
        seen[game.state["turn"]] = game.state["active"]
        game.apply(0)
    assert len(seen) >= 3
    assert all(active == [1, 0, 2][turn % 3] for turn, active in seen.items())  # seats 2, 1, 3


# ---------------------------------------------------------------- claims of the prose

def _run(body: str, players: int = 2, seed: int = 0, header: str = "") -> interpreter.Game:
    text = f"ruleset claim\nplayers 1..4\n{header}\n{body}\n"
    return interpreter.compile_sources(_sources({"claim.meeple": text})).new_game(players, seed)


def test_end_condition_is_checked_after_setup_and_after_each_turn():
    game = _run("var n: int = 0\nsetup { n = 5 }\nturn { n = n + 1 }\nend when n >= 5")
    assert game.over and game.state["vars"]["n"] == 5 and game.state["turn"] == 0
    game = _run("var n: int = 0\nturn { n = n + 1\n n = n + 1 }\nend when n >= 1")
    assert game.state["vars"]["n"] == 2 and game.state["turn"] == 1  # not in the middle of a turn


def test_end_game_skips_the_rest_then_at_end_then_scores():
    game = _run("var n: int = 0\nturn { n = 1\n end game\n n = 2 }\nat end { n = n + 10 }\n"
                "score(p) = n + seat(p)")
    assert game.state["vars"]["n"] == 11
    assert game.result["scores"] == [12, 13] and game.result["winners"] == [1]


def test_turns_pass_to_the_player_after_active():
    game = _run("var seen: list of int = []\nvar k: int = 0\n"
                "turn { seen = seen + [seat(active)]\n k = k + 1\n"
                " if k == 2 { active = players[2] } }\nend when k >= 5", players=4)
    assert game.state["vars"]["seen"] == [1, 2, 4, 1, 2]
    game = _run("order counterclockwise\nvar seen: list of int = []\n"
                "turn { seen = seen + [seat(active)] }\nend when size(seen) >= 4", players=3)
    assert game.state["vars"]["seen"] == [1, 3, 2, 1]


def test_the_heuristic_example_values_each_player_by_its_own_standing():
    block = next(b for b in ALL_BLOCKS if b.lang == "meeple" and "ruleset race_to_ten" in b.text)
    game = interpreter.compile_sources(_sources({"race_to_ten.meeple": block.text})).new_game(2, 0)
    assert (game.has_heuristic, game.heuristic(0), game.heuristic(1)) == (True, 0, 0)
    game.apply("run 3")
    assert (game.heuristic(0), game.heuristic(1)) == (30, 0)   # as the text says
    plain = _run("var done: bool = false\nturn { done = true }\nend when done")
    assert not plain.has_heuristic and plain.heuristic(0) is None


def test_a_heuristic_is_an_int_and_its_errors_are_located():
    assert _load_error(CLAIM + "var n: int = 0\nturn { n = 1 }\nend when n == 1\n"
                       "heuristic(p) = n == 1").code == "check/type-mismatch"
    game = _run("var n: int = 0\nturn { n = 1 }\nend when n == 1\nheuristic(p) = 10 / (n - 1)")
    with pytest.raises(RuleError, match=r"in the heuristic at claim.meeple:7:16: division by zero"):
        game.heuristic(0)


def test_meeple_test_evaluates_the_heuristic_in_every_state():
    turn = "var n: int = 0\nturn { choose x from [1] as \"go\"\n n = n + x }\nend when n >= 3\n"
    prog = _load(CLAIM + turn + "heuristic(p) = 6 / (2 - n)\n")
    with pytest.raises(Failure) as info:
        play_and_check(prog, Config(2), 0, [])
    assert info.value.check == "heuristic" and info.value.moves == ["go 1", "go 1"]
    assert "could not be evaluated (move 2): in the heuristic at" in info.value.message
    assert "division by zero" in info.value.message and info.value.span.line == 7
    play_and_check(_load(CLAIM + turn + "heuristic(p) = 6 / (5 - n)\n"), Config(2), 0, [])


def test_tiebreaks_in_order_and_higher_is_better():
    game = _run("var done: bool = false\nturn { done = true }\nend when done\n"
                "score(p) = 1\ntiebreak a(p) = if seat(p) == 1 then 0 else 1\n"
                "tiebreak b(p) = seat(p)", players=3)
    assert game.result["ranking"] == [[2], [1], [0]]
    assert game.result["tiebreaks"] == {"a": [0, 1, 1], "b": [1, 2, 3]}


CARDS = """kind Card { value: int }
zone pile: Card
zone other: Card hidden
zone hand: Card per player
deck cards into pile { Card(value: v) for v in 1..4 }
"""


def test_move_and_lists():
    game = _run(CARDS + "var order: list of int = []\nvar done: bool = false\n"
                "turn { move bottom(pile) to pile\n"          # already there: no change
                " move top(pile, 2) to other\n"                 # 4 then 3: 3 on top
                " move items(other) to hand(active)\n"          # keeps the stack order
                " for c in items(pile) { move c to other }\n"   # the loop list is fixed
                " order = [c.value for c in items(hand(active))] + [c.value for c in items(other)]\n"
                " done = true }\nend when done")
    assert game.state["vars"]["order"] == [4, 3, 1, 2]


def test_reveal_makes_a_zone_public_for_good():
    game = _run(CARDS + "var done: bool = false\n"
                "turn { reveal other\n move top(pile) to other\n done = true }\nend when done")
    assert views.view(game, views.SPECTATOR)["zones"]["other"] == testing.at(game, "other")


def test_decisions():
    game = _run(CARDS + "var done: bool = false\n"
                "turn { choose c from [top(pile)] as \"take\"\n"
                " best b in items(pile) by b.value > 2 tie first\n"
                " best x in items(pile) by 0 tie choose by players[1]\n done = true }\nend when done")
    assert testing.notations(game) == ["take 4"]  # a single option is still a move
    game.apply(0)
    assert game.active_player == 1 and testing.notations(game) == ["tie 1", "tie 2", "tie 3", "tie 4"]
    assert game.state["stack"][-1]["L"]["b"] == testing.item(game.program, value=3)  # tie first


def test_randomness_is_seeded():
    body = CARDS + ("var seen: list of int = []\nsetup { shuffle pile }\n"
                    "turn { pick c at random from items(pile)\n"
                    " best b in items(pile) by 0 tie random\n"
                    " seen = seen + [c.value, b.value] }\nend when size(seen) >= 8")
    runs = [_run(body, seed=s).state["vars"]["seen"] for s in (1, 1, 2, 3, 4)]
    assert runs[0] == runs[1]
    assert len({tuple(r) for r in runs}) > 1


def test_a_rule_error_undoes_the_move():
    game = _run(CARDS + "var done: bool = false\n"
                "turn { choose c from items(pile)\n move c to other\n move top(hand(active)) to pile\n"
                " done = true }\nend when done")
    before = game.to_json()
    with pytest.raises(RuleError) as info:
        game.apply(0)
    assert info.value.code == "rule/error" and "claim.meeple:" in str(info.value)
    assert game.to_json() == before


def test_budgets():
    with pytest.raises(RuleError) as info:
        _run("function f(n: int): int = f(n + 1)\nvar n: int = 0\nturn { n = f(0) }\nend when n > 0")
    assert info.value.code == "rule/budget"
    with pytest.raises(RuleError) as info:
        _run("var n: int = 0\nturn { n = size(1..100001) }\nend when n > 0")
    assert info.value.code == "rule/budget"
    with pytest.raises(RuleError) as info:
        _run("var n: int = 0\nturn { n = size(subsets([i for i in 1..17])) }\nend when n > 0")
    assert info.value.code == "rule/budget"
    with pytest.raises(RuleError) as info:
        _run("var n: int = 0\nturn { n = n + 1 }\nend when n < 0")  # nobody ever decides
    assert info.value.code == "rule/budget"


def test_variants_apply_in_order_and_locales_last(tmp_path):
    base = "ruleset v\ntitle \"V\"\nplayers 2..2\nvar n: int = 1\nturn { n = n * 10 }\nend when n > 5\n"
    a = "variant a\ntitle \"A\"\nreplace var n: int = 2\nextend turn { n = n + 1 }\n"
    b = "variant b\nreplace var n: int = 3\nextend turn { n = n + 2 }\n"
    loc = "locale xx\nlanguage \"Xx\"\ntitle \"Vé\"\nreplace var n: int = 4\n"
    src = _sources({"v.meeple": base, "variants/a.meeple": a, "variants/b.meeple": b,
                    "locales/xx.meeple": loc})
    prog = interpreter.compile_sources(src, ["a", "b"])
    assert prog.new_game(2).state["vars"]["n"] == 33  # 3 * 10 + 1 + 2
    assert prog.title == "V" and prog.checked.variant_titles == {"a": "A", "b": "b"}
    prog = interpreter.compile_sources(src, ["b", "a"], "xx")
    assert prog.new_game(2).state["vars"]["n"] == 43  # the locale comes last
    assert prog.title == "Vé" and prog.checked.language == "Xx"


def test_overlay_conflicts():
    base = "ruleset v\nplayers 2..2\nvar n: int = 1\nname n \"N\"\nturn { n = 2 }\nend when n > 1\n"
    for overlay, ok in [("variant a\nvar n: int = 2\n", False),
                        ("variant a\nname n \"M\"\n", False),
                        ("variant a\nreplace name n \"M\"\n", True),
                        ("variant a\nreplace var m: int = 2\n", False),
                        ("variant a\nremove zone n\n", False),
                        ("variant a\nextend procedure p { n = 3 }\n", False),
                        ("variant a\nextend at end { n = 3 }\n", True),
                        ("locale a\nname n \"M\"\n", True),
                        ("locale a\nvar n: int = 2\n", False)]:
        src = _sources({"v.meeple": base, "x/a.meeple": overlay})
        kind = overlay.split()[0]
        try:
            interpreter.compile_sources(src, ["a"] if kind == "variant" else [],
                                        "a" if kind == "locale" else None)
            assert ok, overlay
        except errors.MeepleError as e:
            assert not ok, e.render()
            assert e.diagnostics[0].code == "overlay/conflict"


def test_load_errors(tmp_path):
    (tmp_path / "empty").mkdir()
    assert read_sources(tmp_path / "empty").diagnostics[0].code == "load/io"
    two = tmp_path / "two"
    two.mkdir()
    for n in ("a", "b"):
        (two / f"{n}.meeple").write_text(f"ruleset {n}\nplayers 1..1\nturn {{ end game }}\n")
    assert read_sources(two).diagnostics[0].code == "load/two-bases"
    src = read_sources(two / "a.meeple")
    for variants, locale, code in [(["nope"], None, "load/unknown-variant"),
                                   ([], "nope", "load/unknown-locale")]:
        with pytest.raises(errors.MeepleError) as info:
            interpreter.compile_sources(src, variants, locale)
        assert info.value.diagnostics[0].code == code


def test_a_move_that_is_not_legal():
    game = _program("notation_demo").new_game(2, 0)
    with pytest.raises(interpreter.IllegalMove) as info:
        game.apply("play clubs-1")
    assert info.value.code == "move/illegal"


def test_rendered_error_sample():
    """The sample error of section 15.1 is what the checker prints."""
    block = next(b for b in ERRORS if b.header == ("ruleset", "typo"))
    i = ALL_BLOCKS.index(block)
    shown = ALL_BLOCKS[i + 1]
    assert shown.lang == "text"
    with pytest.raises(errors.MeepleError) as info:
        compile_block(block)
    assert info.value.render().strip() == shown.text.strip()


# ---------------------------------------------------------------- the worked example

def _frog_race(tmp_path) -> Path:
    folder = tmp_path / "frog_race"
    (folder / "variants").mkdir(parents=True)
    (folder / "locales").mkdir()
    (folder / "frog_race.meeple").write_text(RULESETS["frog_race"].text, encoding="utf-8")
    for b in OVERLAYS:
        if b.comment("base") == "frog_race":
            kind, name = b.header
            (folder / f"{kind}s" / f"{name}.meeple").write_text(b.text, encoding="utf-8")
    return folder


def test_worked_example_plays_to_the_end(tmp_path):
    folder = _frog_race(tmp_path)
    src = read_sources(folder)
    assert not src.diagnostics
    assert set(src.variants) == {"long_pond", "big_hands"} and set(src.locales) == {"fr"}
    for variants, locale in [((), None), (("long_pond",), None), (("big_hands",), None),
                             (("long_pond", "big_hands"), "fr")]:
        prog = interpreter.load(str(folder), variants, locale)
        last = 15 if "long_pond" in variants else 10
        for n in (2, 3, 4):
            for seed in range(4):
                game = play_randomly(prog.new_game(n, seed), seed, max_moves=1000)
                assert game.over
                res = game.result
                assert len(res["scores"]) == n and set(res["winners"]) == set(res["ranking"][0])
                assert max(res["scores"]) <= last
                assert all(1 <= h <= n for h in res["tiebreaks"]["on_top"])


def test_worked_example_moves_and_messages(tmp_path):
    folder = _frog_race(tmp_path)
    game = interpreter.load(str(folder)).new_game(2, 1)
    notations = testing.notations(game)
    assert notations and all(re.fullmatch(r"jump [123]", m) for m in notations)
    assert notations == sorted(notations)
    game.apply(notations[-1])
    length = int(notations[-1].split()[1])
    log = views.view(game, 0)["log"]
    assert re.fullmatch(r"Player [12] starts", log[0])
    assert re.fullmatch(rf"Player [12] jumps {length} to pad {1 + length}", log[1])
    fr = interpreter.load(str(folder), locale="fr").new_game(2, 1)
    fr.apply(notations[-1])
    log = views.view(fr, 0)["log"]
    assert re.fullmatch(r"Joueur [12] commence", log[0])
    assert re.fullmatch(rf"Joueur [12] saute de {length} jusqu'au nénuphar {1 + length}", log[1])
    assert testing.notations(fr) == testing.notations(game)  # notation ignores the locale


# ---------------------------------------------------------------- the docs stay in sync

def test_the_embedded_grammar_is_the_grammar():
    lark = [b for b in ALL_BLOCKS if b.doc == LANGUAGE and b.lang == "lark"]
    assert len(lark) == 1
    assert lark[0].text.strip() == GRAMMAR.read_text(encoding="utf-8").strip()


def _grammar_names() -> set[str]:
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = set(re.findall(r"^[?!]?([a-z][a-z0-9_]*)\s*:", text, re.M))
    aliases = set(re.findall(r"->\s*([a-z][a-z0-9_]*)", text))
    terminals = set(re.findall(r"^([A-Z][A-Z_]*)\s*:", text, re.M))
    return rules | aliases | terminals


def test_every_grammar_rule_is_documented():
    prose = _prose(DOC_TEXT)
    missing = sorted(n for n in _grammar_names() if f"`{n}`" not in prose)
    assert not missing, f"grammar rules not mentioned in docs/language.md: {missing}"


def test_every_builtin_is_documented():
    prose = _prose(DOC_TEXT)
    missing = sorted(n for n in builtins.BUILTINS if f"`{n}(" not in prose)
    assert not missing
    assert all(f"`{n}(e for" in prose for n in builtins.AGGREGATES)
    assert all(f"`{n}` ({c.meaning})" in prose for n, c in builtins.CONSTANTS.items())


def test_every_board_generator_is_documented():
    prose = _prose(DOC_TEXT)
    for name, g in boards.GENERATORS.items():
        row = next((ln for ln in prose.splitlines() if ln.startswith(f"| `{name}(")), None)
        assert row, name
        for word in g.names() + g.coords:
            assert f"`{word}`" in row, (name, word)


def test_every_colour_is_documented():
    assert all(f"`{c}`" in DOC_TEXT for c in check.COLORS)


def _error_codes() -> set[str]:
    """Every error code written in dsl/ and interpreter/, including the codes that
    interpreter/compiler/compile.py makes for what it builds before a game (``_static("deck", ...)``
    gives ``check/deck-not-constant``)."""
    codes = set()
    for folder in ("dsl", "interpreter"):
        for f in sorted((ROOT / folder).rglob("*.py")):
            text = f.read_text(encoding="utf-8")
            codes |= set(re.findall(r"[\"']((?:parse|check|load|overlay|rule|move|record)/[a-z-]+)[\"']", text))
            if 'f"check/{what}-not-constant"' in text:
                codes |= {f"check/{w}-not-constant" for w in re.findall(r'_static\(\s*"(\w+)"', text)}
    return codes


def test_every_error_code_is_documented():
    codes = _error_codes()
    assert {"check/board-not-constant", "check/deck-not-constant", "check/relation-not-constant",
            "check/board-size"} <= codes
    missing = sorted(c for c in codes if f"| `{c}` |" not in DOC_TEXT)
    assert not missing
    # and the table lists no code that does not exist (any more)
    table = set(re.findall(r"^\| `((?:parse|check|load|overlay|rule|move|record)/[a-z-]+)` \|", DOC_TEXT, re.M))
    assert table - codes == set()
    assert "relation-not-static" not in DOC_TEXT


def test_keywords_appendix_lists_the_grammar_words():
    words = set(re.findall(r'"([a-z]+)"', GRAMMAR.read_text(encoding="utf-8")))
    appendix = DOC_TEXT.split("## Appendix B", 1)[1]
    assert set(re.findall(r"`([a-z_]+)`", appendix)) == words


def test_budgets_are_documented_with_their_values():
    for value in (helpers.MAX_STEPS, helpers.MAX_CALLS, helpers.MAX_RANGE):
        assert f"| {value:,} |" in DOC_TEXT, value
    assert f"| {helpers.MAX_SUBSET_BASE} |" in DOC_TEXT
    assert f"{helpers.MAX_SUBSET_BASE} elements" in DOC_TEXT
    assert f"up to {errors.MAX_DIAGNOSTICS}" in DOC_TEXT
    assert f"latest {runtime.LOG_KEEP} messages" in DOC_TEXT


def test_internal_links_resolve():
    def anchor(title: str) -> str:
        t = re.sub(r"[^\w\- ]", "", title.strip().lower())
        return t.replace(" ", "-")
    for doc in DOC_FILES:
        text = doc.read_text(encoding="utf-8")
        anchors = {anchor(m) for m in re.findall(r"^#+ (.*)$", _no_code(text), re.M)}
        links = re.findall(r"\]\(#([^)]+)\)", text)
        assert links or doc.name == "tutorial.md"   # the tutorial links to the reference
        assert not [a for a in links if a not in anchors]


def test_variables_are_public_but_hidden_items_are_not():
    game = _run(CARDS + "var mine: Card = none\nvar k: int per player = 3\nvar done: bool = false\n"
                "turn { move top(pile) to other\n mine = top(other)\n done = true }\nend when done")
    theirs = views.view(game, 1)
    assert theirs["pvars"]["k"] == [3, 3] and theirs["vars"]["done"] is True
    assert theirs["vars"]["mine"] != game.state["vars"]["mine"]  # the item in a hidden zone is masked
    assert views.view(game, "all")["vars"]["mine"] == game.state["vars"]["mine"]


# ---------------------------------------------------------------- scopes, none, zone, order, texts

def _load(text: str, fname: str = "claim.meeple") -> interpreter.Ruleset:
    return interpreter.compile_sources(_sources({fname: text}))


def _load_error(text: str) -> errors.Diagnostic:
    with pytest.raises(errors.MeepleError) as info:
        _load(text)
    return info.value.diagnostics[0]


CLAIM = "ruleset claim\nplayers 1..4\n"


def test_block_scoping():
    block = next(b for b in FRAGMENTS if "let doubled" in b.text)
    prog, _ = compile_fragment(block.text, "scope.meeple")
    assert prog.new_game(2, 0).state["pvars"]["points"][0] == 36
    # a local is known in its block and the blocks nested in it, not after
    for stmts in ["if true { let x = 1 }\n n = x",
                  "for i in 1..3 { n = i }\n n = i",
                  "while n < 3 max 5 { let y = 1\n n = n + y }\n n = y",
                  "if false { n = 1 } elif true { let z = 2 } else { n = 3 }\n n = z",
                  "if true { choose c from [1, 2] }\n n = c",
                  "if true { best b in [1, 2] by b }\n n = b",
                  "if true { pick r at random from [1] }\n n = r",
                  "if true { choose s subset of [1, 2] }\n n = size(s)",
                  "if true { if true { let w = 1 }\n n = w }"]:
        d = _load_error(CLAIM + "var n: int = 0\nturn { " + stmts + " }\nend when n > 0")
        assert d.code == "check/unknown-name", stmts
    # nested blocks see the outer locals; assignment to an outer local persists; a
    # 'let' or 'for' of an outer local's name sets that local
    game = _run("var n: int = 0\nturn { let x = 1\n if true { if true { x = x + 4 } }\n"
                " for i in 1..2 { x = x + i }\n n = x }\nend when n > 0")
    assert game.state["vars"]["n"] == 8
    game = _run("var n: int = 0\nturn { let x = 1\n if true { let x = 5 }\n n = x }\nend when n > 0")
    assert game.state["vars"]["n"] == 5
    game = _run("var n: int = 0\nturn { let i = 10\n for i in 1..3 { n = n + i }\n n = n * 100 + i }\n"
                "end when n > 0")
    assert game.state["vars"]["n"] == 603
    # sibling blocks may use one name for locals of different types
    game = _run("enum C { a, b }\nvar n: int = 0\nvar m: C = a\n"
                "turn { if true { let x = 1\n n = x }\n for x in C { m = x } }\nend when n > 0")
    assert (game.state["vars"]["n"], game.state["vars"]["m"]) == (1, "b")


def test_anything_compares_with_none():
    game = _run("var ok: list of bool = []\n"
                "turn { ok = [last([1]) != none, first([x for x in [1] if x > 1]) == none,\n"
                " none == first([\"a\"]), last([true]) == none, 3 != none] }\nend when size(ok) > 0")
    assert game.state["vars"]["ok"] == [True, True, False, False, True]


def test_the_zone_types():
    block = RULESETS["zone_demo"]
    game = compile_block(block).new_game(2, 0)
    assert game.over
    values = {k: [game.program.items[i].attrs["value"] for i in testing.at(game, k)]
              for k in ("hand:0", "hand:1", "discard", "pile")}
    assert values == {"hand:0": [6, 4], "hand:1": [5, 3], "discard": [2, 1], "pile": []}
    demo = block.text
    # 'zone of Card' accepts zones, per-player zones and cells that hold cards; the items
    # taken from it are cards: they can be moved and their attributes read
    game = _run(CARDS + "board b: line(length: 2) holds Card\nvar done: bool = false\nvar seen: int = 0\n"
                "procedure give(src: zone of Card, dst: zone of Card) { seen = seen + top(src).value\n"
                " move top(src) to dst }\n"
                "turn { call give(pile, hand(active))\n call give(pile, cells(b)[0])\n"
                " call give(cells(b)[0], other)\n done = true }\nend when done")
    assert [len(testing.at(game, k)) for k in ("pile", "hand:0", "b:s1", "other")] == [2, 1, 0, 1]
    assert game.state["vars"]["seen"] == 4 + 3 + 3
    # ... and no place of another kind
    d = _load_error(demo + "\nkind Pawn { n: int }\nzone bag: Pawn\nsetup { call take(bag, discard) }\n")
    assert d.code == "check/type-mismatch" and "expected zone of Card, found zone of Pawn" in d.message
    # the plain 'zone' accepts any place, to count and inspect, shuffle and reveal
    game = _run(CARDS + "kind Pawn { n: int }\nzone bag: Pawn\ndeck pawns into bag { Pawn(n: 1) }\n"
                "board b: line(length: 2) holds Card\nvar ok: list of bool = []\n"
                "function look(z: zone): list of bool = [size(z) > 0, empty(z), occupied(z), top(z) == none,\n"
                " size(items(z)) == len(z), owner(z) == none]\n"
                "procedure mix(z: zone) { shuffle z\n reveal z }\n"
                "turn { call mix(pile)\n ok = look(bag) + look(cells(b)[0]) + [owner(hand(active)) == active] }\n"
                "end when size(ok) > 0")
    assert game.state["vars"]["ok"] == [True, False, True, False, True, True,
                              False, True, False, True, True, True, True]
    # moving into a plain 'zone' is an error, with a hint to write 'zone of Kind'
    block = next(b for b in ERRORS if "procedure put(z: zone)" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "put.meeple")
    d = info.value.diagnostics[0]
    assert d.code == "check/type-mismatch" and "zone of Card" in d.message, d.message
    # the items of a plain 'zone' have an unknown kind
    d = _load_error(demo + "\nfunction v(z: zone): int = top(z).value\n")
    assert d.code == "check/unknown-attribute"
    d = _load_error(demo + "\nprocedure drop(z: zone) { move top(z) to discard }\n")
    assert d.code == "check/type-mismatch" and "'zone of Kind'" in d.message
    # from a plain 'zone' to another loads, as it did before 'zone of Kind' (issue 34): the
    # kinds are compared when it is played (test_the_plain_zone_messages_are_quoted)
    _load(demo + "\nprocedure drop(z: zone of Card) { move top(pile) to z }\n"
          "procedure pass(z: zone, y: zone) { move top(z) to y }\n")
    d = _load_error(demo + "\nfunction same(z: zone): bool = top(z) == top(pile)\n")
    assert d.code == "check/type-mismatch"
    d = _load_error(demo + "\nfunction n(z: zone of Crd): int = 1\n")
    assert d.code == "check/unknown-kind"


def test_option_order_and_equal_options():
    game = _run("enum Suit { spades, hearts, diamonds }\nvar done: bool = false\n"
                "var sorted: list of Suit = []\n"
                "turn { choose s from Suit as \"call\"\n"
                " choose t subset of [diamonds, spades, hearts] where size(t) <= 2 as \"pick\"\n"
                " choose n from [3, 1, 3, 2, 1] as \"n\"\n"
                " choose y from [hearts, spades, hearts] as \"y\"\n"
                " sorted = sort([diamonds, spades, hearts])\n done = true }\nend when done")
    assert testing.notations(game) == ["call spades", "call hearts", "call diamonds"]
    game.apply(0)
    assert testing.notations(game) == ["pick spades", "pick hearts", "pick diamonds",
                                       "pick spades+hearts", "pick diamonds+spades",
                                       "pick diamonds+hearts"]
    game.apply(0)
    assert testing.notations(game) == ["n 1", "n 2", "n 3"]
    game.apply(0)
    assert testing.notations(game) == ["y spades", "y hearts"]
    game.apply(0)
    assert game.state["vars"]["sorted"] == ["spades", "hearts", "diamonds"]


def test_booleans_are_written_with_the_yes_and_no_texts():
    body = ("kind Chip { lucky: bool }\nzone bag: Chip\ndeck chips into bag { Chip(lucky: b) for b in [true, false] }\n"
            "var done: bool = false\nlabel Chip \"chip {lucky}\"\n{texts}\n"
            "turn { log l \"{top(bag)} {done} {[true, false]}\"\n done = true }\nend when done")
    game = _run(body.replace("{texts}", ""))
    assert views.view(game, 0)["log"] == ["chip no no yes, no"]
    game = _run(body.replace("{texts}", "text yes \"ja\"\ntext no \"nein\""))
    assert views.view(game, 0)["log"] == ["chip nein nein ja, nein"]
    assert not game.program.warnings


def test_an_index_outside_its_list():
    for index, message in [("5", "an index is outside its list"),
                           ("k", "index 5 is outside a list of 2 elements"),
                           ("-1", "index -1 is outside a list of 2 elements")]:
        with pytest.raises(RuleError) as info:
            _run(f"var n: int = 0\nturn {{ let k = 5\n let xs = [1, 2]\n n = xs[{index}] }}\nend when n > 0")
        assert info.value.code == "rule/error"
        assert message in str(info.value) and "claim.meeple:7" in str(info.value), str(info.value)


def test_names_in_two_roles():
    for decls, line in [("zone x: Card\nvar x: int = 0", 10), ("enum E { a, pile }", 9),
                        ("function done(): bool = true", 9), ("board pile: line(length: 2) holds Card", 9)]:
        d = _load_error(CLAIM + CARDS + "var done: bool = false\n" + decls + "\nturn { done = true }\nend when done")
        assert (d.code, d.span.line) == ("check/duplicate", line), d.render()
    # an enum value may not be named like an enum, its own included; the messages name both roles
    for decls, message in [("enum C { red, C }", "'C' names both an enum and a value of enum C"),
                           ("enum C { red }\nenum D { C }", "'C' names both an enum and a value of enum D"),
                           ("enum E { a, pile }", "'pile' names both a zone and a value of enum E"),
                           ("var pile: int = 0", "'pile' names both a zone and a variable")]:
        d = _load_error(CLAIM + CARDS + decls + "\nturn { end game }")
        assert (d.code, d.message) == ("check/duplicate", message)
        assert message in FLAT_DOC or decls.startswith(("enum C { red }", "var"))
    block = next(b for b in ERRORS if "enum Shade" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "shade.meeple")
    assert info.value.diagnostics[0].message == "'Shade' names both an enum and a value of enum Shade"
    # two enums may share a value name, written with its enum
    game = _run("enum A { x, y }\nenum B { x, z }\nvar done: bool = false\n"
                "turn { done = A.x == A.x and B.x != none }\nend when done")
    assert game.state["vars"]["done"] is True


def test_deck_and_relation_errors_point_at_their_declaration():
    d = _load_error(CLAIM + CARDS + "var k: int = 2\ndeck more into pile {\n  Card(value: 1)\n  Card(value: k)\n}\n"
                    "turn { end game }")
    assert (d.code, d.span.line, d.span.column) == ("check/deck-not-constant", 11, 3)
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: line(length: 3) holds Card\n"
                    "relation r(a: g, b: g) = a.pos < size(items(b))\nturn { end game }")
    assert (d.code, d.span.line) == ("check/relation-not-constant", 5)
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: line(length: 3) holds Card\n"
                    "relation r(a: g, b: g) = seat(active) == a.pos\nturn { end game }")
    assert (d.code, d.span.line) == ("check/relation-not-constant", 5)
    # constants, functions of constants, other relations and the number of players are fine
    _load(CLAIM + CARDS + "function f(): int = 3\ndeck more into pile { Card(value: f()) }\n"
          "deck seats into pile { Card(value: seat(p)) for p in players }\n"
          "board g: line(length: 3) holds Card\nrelation r(a: g, b: g) = a.pos < b.pos\nrelation s(a: g, b: g) = r(b, a)\n"
          "relation t(a: g, b: g) = a.pos < player_count() and b.pos == 1\n"
          "turn { end game }")


def test_boards_sized_by_the_number_of_players():
    rules = _program("board_demo")
    for n, field, table in [(2, 37, 24), (3, 91, 30), (4, 91, 36)]:
        prog = rules.for_players(n)
        assert (len(prog.boards["field"]), len(prog.boards["table"])) == (field, table)
        game = rules.new_game(n, 0)
        assert game.program is prog
        assert len(game.program.items) == n  # one stone per player
        centre = next(z.key for z in prog.zones if z.board == "field" and z.cell.coords["ring"] == 0)
        assert [prog.items[i].attrs["seat"] for i in testing.at(game, centre)] == [n]
    assert ("field has 37 cells (radius 3) and the table 2 × 12 = 24; with 3 players 91 and "
            "2 × 15 = 30; with 4 players 91 and 2 × 18 = 36") in FLAT_DOC


def test_a_board_size_is_checked_for_every_number_of_players():
    block = next(b for b in ERRORS if b.header == ("ruleset", "too_long"))
    with pytest.raises(errors.MeepleError) as info:
        compile_block(block)
    assert [d.code for d in info.value.diagnostics] == ["check/board-size"]
    d = info.value.diagnostics[0]
    assert d.message == "board 'track': length is 250 with 5 players; sizes are 1 to 200"
    assert f'the error says "{d.message}"' in FLAT_DOC
    assert (d.span.line, d.span.column) == (5, 19)  # at the argument
    # sizes are whole numbers; they may not read the game
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: grid(rows: 2, cols: true) holds Card\nturn { end game }")
    assert d.code == "check/type-mismatch" and d.message.startswith("the board size 'cols': expected int")
    block = next(b for b in ERRORS if b.comment("error") == "check/board-not-constant" and "size(draw)" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "lane.meeple")
    d = info.value.diagnostics[0]
    assert "cannot use a zone" in d.message
    assert (d.span.line, d.span.column) == (2, block.text.splitlines()[1].index("length") + 1)
    d = _load_error(CLAIM + "kind Card { value: int }\nboard g: line(length: 12 / (player_count() - 1)) holds Card\n"
                    "turn { end game }")
    assert d.code == "check/board-not-constant" and "for 1 players" in d.message
    # a ruleset for more than 8 numbers of players: the others when a game starts
    rules = _load("ruleset claim\nplayers 1..12\nkind Card { value: int }\n"
                  "board g: line(length: if player_count() == 5 then 0 else 3) holds Card\nturn { end game }")
    rules.new_game(4)
    with pytest.raises(errors.MeepleError) as info:
        rules.new_game(5)
    assert info.value.diagnostics[0].code == "check/board-size"


def test_a_deck_that_depends_on_the_number_of_players():
    block = next(b for b in FRAGMENTS if "player_count() == 2 then 6 else 8" in b.text)
    rules, _ = compile_fragment(block.text, "deck.meeple")
    counts = {n: len(rules.for_players(n).items) - 3 for n in (2, 3, 4)}  # without the 3 pawns
    assert counts == {2: 18, 3: 24, 4: 24}
    assert "It makes 18 cards with 2 players and 24 with 3 or 4 players." in DOC_TEXT
    assert max(i.attrs["value"] for i in rules.for_players(2).items if i.kind == "Card") == 6
    assert max(i.attrs["value"] for i in rules.for_players(3).items if i.kind == "Card") == 8


def test_per_player_zones_and_the_ruleset_api():
    rules = _program("examples")
    assert isinstance(rules, interpreter.Ruleset) and rules.warnings == []
    for n in (2, 3, 4):
        prog = rules.for_players(n)
        assert isinstance(prog, interpreter.Program)
        assert [z.key for z in prog.zones if z.name == "hand"] == [f"hand:{p}" for p in range(n)]
        assert rules.for_players(n) is prog
    assert rules.zones is rules.for_players(2).zones  # the smallest number of players
    with pytest.raises(ValueError):
        rules.for_players(5)
    game = rules.new_game(3, 0)
    assert game.program is rules.for_players(3)
    again = rules.resume(game.state)
    assert again.program is game.program and again.to_json() == game.to_json()
    # testing.position takes the ruleset and uses the program for that number of players
    blue8 = testing.item(rules, colour="blue", value=8)
    pos = testing.position(rules, 4, zones={"hand:3": [blue8]}, active=3)
    assert pos.program is rules.for_players(4) and testing.at(pos, "hand:3")[-1] == blue8
    assert testing.notations(pos)[-1] == "play blue-8"


def _warnings(text: str) -> list[tuple[str, str | None]]:
    return [(w.code, w.hint) for w in _load(text).warnings]


def test_text_warnings():
    rules = (CLAIM + "var done: bool = false\nend when done\n"
             "turn { choose c from [1, 2] as \"take\"\n log says \"{active} says {c}\"\n done = true }\n")
    fine = ("text player \"P{n}\"\ntext hidden \"some {kind}\"\ntext yes \"ja\"\ntext no \"nee\"\n"
            "text take \"Take one\"\ntext says \"{active}: {c} {1} {2}\"\n")
    assert _warnings(rules + fine) == []
    assert _warnings(rules + "text tie \"Pick\"\n")[0][0] == "check/unused-text"  # no tie choose
    assert _warnings(rules.replace("done = true", "best b in [1] by 0\n done = true")
                     + "text tie \"Pick\"\n") == []
    assert _warnings(rules + "text sayz \"x\"\n") == [("check/unused-text", "did you mean 'says'?")]
    assert _warnings(rules + "text says \"{activ}\"\n") == [("check/unknown-placeholder",
                                                            "did you mean 'active'?")]
    assert _warnings(rules + "text says \"{3}\"\n")[0][0] == "check/unknown-placeholder"
    assert _warnings(rules + "text take \"{n}\"\n")[0][0] == "check/unknown-placeholder"
    assert _warnings(rules + "text player \"P{seat}\"\n") == [("check/unknown-placeholder",
                                                              "available: {n}")]
    # both point at the text's key
    for text, code in [("text   sayz \"x\"\n", "check/unused-text"),
                       ("text  says \"{activ}\"\n", "check/unknown-placeholder")]:
        (w,) = _load(rules + text).warnings
        key = text.split()[1]
        assert (w.code, w.span.line, w.span.column) == (code, rules.count("\n") + 1, text.index(key) + 1)
    assert "Both point at the text's key (`paly`, `player`)" in FLAT_DOC


def test_meeple_validate_prints_warnings_and_succeeds(tmp_path):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    path = tmp_path / "w.meeple"
    path.write_text(CLAIM + "var done: bool = false\nturn { done = true }\nend when done\n"
                    "text bye \"Goodbye\"\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert re.search(r"warning\[check/unused-text\]: \S*w\.meeple:6:\d+: ", result.output), result.output
    assert "ok " in result.output


def test_a_bad_literal_has_a_position_and_a_hint():
    with pytest.raises(errors.MeepleError) as info:
        _load(CLAIM + "var done: bool = false\nfunction f(): str = \"a \\x b\"\nturn { done = true }\nend when done")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("parse/bad-literal", 4, 24)  # the backslash
    assert d.message == "unknown escape '\\x' in a string"
    assert "\\\\" in d.hint and "\\n" in d.hint
    assert "with the message \"unknown escape '\\x' in a string\"" in FLAT_DOC
    # in every string, at the backslash
    rules = ("ruleset claim\ntitle \"T\"\nplayers 1..4\nkind Card { value: int }\nzone pile: Card\n"
             "var done: bool = false\nturn { choose c from [1] as \"take\"\n log said \"{c}\"\n"
             " done = \"a\" == \"b\" }\nend when done\nname done \"D\"\ntext said \"S\"\nlabel Card \"C\"\n")
    _load(rules)
    for good in ['"a"', '"\\u00e9 \\" \\\\ \\n \\t"']:
        _load(rules.replace('"a"', good))
    for string in ('"T"', '"take"', '"{c}"', '"a"', '"D"', '"S"', '"C"'):
        line = rules[:rules.index(string)].count("\n") + 1
        column = rules.index(string) - rules.rfind("\n", 0, rules.index(string))
        for bad, shown in [("\\x", "\\x"), ("\\u00g9", "\\u"), ("\\U0041", "\\U")]:
            with pytest.raises(errors.MeepleError) as info:
                _load(rules.replace(string, string[0] + bad + string[1:], 1))
            d = info.value.diagnostics[0]
            assert (d.code, d.span.line, d.span.column) == ("parse/bad-literal", line, column + 1), (string, bad)
            assert d.message == f"unknown escape '{shown}' in a string"
    game = _run("var s: str = \"\"\nturn { s = \"\\u00e9\\\"\\\\\\t\" }\nend when s != \"\"")
    assert game.state["vars"]["s"] == "é\"\\\t"


def test_the_warning_examples_and_their_hints():
    hints = {}
    for block in FRAGMENTS:
        if block.comment("warning"):
            prog, _ = compile_fragment(block.text, block.id)
            hints[block.comment("warning")] = prog.warnings[0].hint
    assert hints == {"check/unused-text": "did you mean 'play'?",
                     "check/unknown-placeholder": "available: {n}"}
    assert "The first warning asks \"did you mean 'play'?\"" in DOC_TEXT
    assert "the second lists the placeholder that\nexists, `{n}`" in DOC_TEXT


# ---------------------------------------------------------------- face down, the strip, item variables

def test_the_plain_zone_messages_are_quoted():
    d = _load_error(RULESETS["zone_demo"].text + "\nprocedure put(z: zone) { move top(pile) to z }\n")
    assert d.code == "check/type-mismatch"
    assert f'here "{d.message}"' in FLAT_DOC
    # from a plain zone to another: the kinds are compared when played (issue 34: it
    # loaded before zone of Kind, so it loads; tests/test_compat.py)
    text = RULESETS["zone_demo"].text.replace("end when empty(pile)", "") + \
        "kind Pawn { }\nzone camp: Pawn\ndeck pawns into camp { Pawn() }\n" + \
        "procedure pass(a: zone, b: zone) { move top(a) to b }\n" + \
        "setup { call pass(pile, discard)\n call pass(camp, discard) }\nend when empty(pile)\n"
    src = SourceSet(base=parse(text, "zone_demo.meeple"), sources={"zone_demo.meeple": text})
    with pytest.raises(RuleError) as e:
        interpreter.compile_sources(src).new_game(2, 0)
    assert e.value.code == "rule/error"
    assert str(e.value).endswith("'move' of a Pawn to discard, which holds Card")
    assert f'("{str(e.value).split(": ", 1)[1]}")' in FLAT_DOC


def test_item_variables():
    rules = _program("squad")
    game = rules.new_game(2, 0)
    assert game.over and game.result["scores"] == [5, 5]
    field = testing.at(game, "field")
    assert [game.program.items[i].attrs for i in field] == [{"strength": s} for s in (1, 2, 3)]
    assert [game.state["ivars"]["wounds"][i] for i in field] == [1, 1, 3]
    assert views.view(game, 1)["ivars"] == {"wounds": {str(i): w for i, w in zip(field, [1, 1, 3])}}
    assert ("the top unit (strength 3) ends with 3 wounds and the other two with 1 each, so "
            "both players score 5") in FLAT_DOC
    # the declaration fragment: every item starts with the value, the deck leaves it out
    block = next(b for b in FRAGMENTS if "var tags: list of str" in b.text)
    text = block.text + "zone barracks: Unit\ndeck units into barracks { Unit(colour: c) for c in Colour }\n"
    prog, _ = compile_fragment(text, "unit.meeple")
    game = prog.new_game(2, 0)
    units = testing.at(game, "barracks")
    assert [(game.state["ivars"]["wounds"][u], game.state["ivars"]["tags"][u]) for u in units] == [(0, [])] * 3
    assert game.state["ivars"]["wounds"][testing.at(game, "draw")[0]] is None  # a Card has no wounds
    # a global variable holds the item too; the value is computed once, the same for all
    game = _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = player_count() * 10 }")
                + "var kept: Card = none\nvar done: bool = false\n"
                "turn { kept = top(pile)\n kept.w = kept.w + 1\n done = true }\nend when done", players=3)
    assert [game.state["ivars"]["w"][i] for i in testing.at(game, "pile")] == [30, 30, 30, 31]
    # only items the seat may know show their item variables
    game = _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = 1 }")
                + "var done: bool = false\nturn { move top(pile) to other\n move top(pile) to hand(active)\n"
                "done = true }\nend when done")
    pile, other, mine = (testing.at(game, k) for k in ("pile", "other", "hand:0"))
    assert views.view(game, 0)["ivars"]["w"] == {str(i): 1 for i in pile + mine}
    assert views.view(game, 1)["ivars"]["w"] == {str(i): 1 for i in pile}
    assert views.view(game, "all")["ivars"]["w"] == {str(i): 1 for i in pile + other + mine}
    # the mistakes of section 5.3 and 6.2, and setting through 'none'
    codes = sorted(b.comment("error") for b in ERRORS if "kind Unit" in b.text or "c.value = 9" in b.text)
    assert codes == ["check/bad-value", "check/bad-value", "check/bad-value", "check/missing",
                     "check/type-mismatch"]
    with pytest.raises(RuleError) as info:
        _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = 1 }")
             + "turn { let c = top(other)\n c.w = 2 }\nend when false")
    assert info.value.code == "rule/error"
    # any item expression may stand before the dot (issue 11 §4; a syntax error before)
    _load(CLAIM + "kind Unit { var w: int = 0 }\nzone field: Unit\nturn { top(field).w = 1 }\nend when true")
    with pytest.raises(RuleError) as info:
        _run(CARDS.replace("kind Card { value: int }", "kind Card { value: int, var w: int = 1 }")
             + "turn { top(other).w = 2 }\nend when false")
    assert info.value.code == "rule/error"


def _cells_of(prog, board: str):
    return [z.cell for z in prog.zones if z.board == board]


def test_the_strip_generator():
    block = next(b for b in FRAGMENTS if "board bench: strip(parts: 3, slots: 2)" in b.text)
    prog, _ = compile_fragment(block.text, "bench.meeple")
    cells = _cells_of(prog.for_players(2), "bench")
    names = [c.name for c in cells]
    assert names == ["p1a1", "p1a2", "p2a1", "p2a2", "p3a1", "p3a2",
                     "p1b1", "p1b2", "p2b1", "p2b2", "p3b1", "p3b2"]
    assert ("`p1a2`, `p2a1`, `p2a2`, `p3a1`, `p3a2` (side 1, in this order), then `p1b1` .. "
            "`p3b2` (side 2)") in FLAT_DOC
    by_name = {c.name: c for c in cells}
    assert by_name["p2b1"].coords == {"part": 2, "side": 2, "slot": 1, "col": 3}
    assert "`p2b1` has `part` 2, `side` 2, `slot` 1 and `col` 3" in FLAT_DOC
    # facing cells share their col; side 1 above side 2, a free row between; a gap between parts
    assert all(by_name[n.replace("a", "b", 1)].coords["col"] == by_name[n].coords["col"]
               for n in names[:6])
    assert {c.y for c in cells if c.coords["side"] == 1} == {0} and {c.y for c in cells if c.coords["side"] == 2} == {2}
    xs = [by_name[n].x for n in names[:6]]
    assert [b - a for a, b in itertools.pairwise(xs)] == [2, 3, 2, 3, 2]
    row = next(ln for ln in DOC_TEXT.splitlines() if ln.startswith("| `strip("))
    assert "`p3a2` (part 3, side 1, slot 2)" in row and "side 1 from left to right, then side 2" in row



def test_strip_single_cells_at_the_ends():
    # issue 11 §5: `ends: 1` adds a cell at each short end; the relations of the example
    # make them face each other across the whole strip and touch both long sides
    rules = _program("end_cells_demo")
    prog = rules.for_players(2)
    cells = _cells_of(prog, "table")
    assert [c.name for c in cells] == ["p1a1", "p1a2", "p2a1", "p2a2", "p1b1", "p1b2", "p2b1",
                                       "p2b2", "p1e0", "p2e3"]
    assert "The table has 10 cells: `p1a1` .. `p2a2`, `p1b1` .. `p2b2`, then `p1e0` and `p2e3`." in FLAT_DOC
    by_name = {c.name: c for c in cells}
    assert by_name["p1e0"].coords == {"part": 1, "side": 0, "slot": 0, "col": 0}
    assert by_name["p2e3"].coords == {"part": 2, "side": 0, "slot": 3, "col": 5}
    # drawn between the two long sides, before the first and after the last column
    assert (by_name["p1e0"].y, by_name["p2e3"].y) == (1, 1)
    xs = [c.x for c in cells if c.coords["side"] == 1]
    assert by_name["p1e0"].x < min(xs) and by_name["p2e3"].x > max(xs)
    game = rules.new_game(2, 0)
    assert testing.at(game, "table:p1e0")
    assert sorted(testing.options(game, "at")) == ["p1a1", "p1b1", "p2e3"]
    assert ("the first turn offers `p1a1` and `p1b1` (beside it) and `p2e3` (across the table "
            "from it)") in FLAT_DOC
    # the other end: beside the last cell of both sides, across from the first end cell
    game.apply("at p2e3")
    assert sorted(testing.options(game, "at")) == ["p1a1", "p1b1", "p2a2", "p2b2"]
    # without `ends` (or with 0) a strip is what it always was
    plain = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2) holds C\n"
                            "turn { end game }").for_players(2), "t")
    zero = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, ends: 0) "
                           "holds C\nturn { end game }").for_players(2), "t")
    assert plain == zero and len(plain) == 12 and all(c.coords["side"] for c in plain)
    big = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, ends: 1) "
                          "holds C\nturn { end game }").for_players(2), "t")
    assert big[:12] == plain and big[-1].name == "p3e3" and big[-1].coords["col"] == 7
    assert "with `strip(parts: 3, slots: 2, ends: 1)` it is `p3e3` (`col` 7)" in FLAT_DOC
    # one part: the two end cells are still two
    one = _cells_of(_load(CLAIM + "kind C { v: int }\nboard t: strip(parts: 1, slots: 2, ends: 1) "
                          "holds C\nturn { end game }").for_players(2), "t")
    assert [c.name for c in one][-2:] == ["p1e0", "p1e3"]


def test_strip_ends_other_than_0_or_1_are_located_errors():
    for value, bad in [("2", "2"), ("player_count() - 2", "-1")]:
        err = _load_error(CLAIM + "kind C { v: int }\n"
                          f"board t: strip(parts: 3, slots: 2, ends: {value}) holds C\nturn {{ end game }}")
        assert (err.code, err.span.line, err.span.column) == ("check/board-size", 4, 36)
        assert err.message.startswith(f"board 't': ends is {bad} with ")
        assert err.message.endswith("; ends may be 0 or 1")
    assert "\"board 'bench': ends is 2 with 2 players; ends may be 0 or 1\"" in FLAT_DOC
    err = _load_error(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, slots: 2, end: 1) holds C\n"
                      "turn { end game }")
    assert (err.code, err.span.column, err.hint) == ("check/unknown-name", 36, "did you mean 'ends'?")
    err = _load_error(CLAIM + "kind C { v: int }\nboard t: strip(parts: 3, ends: 1) holds C\n"
                      "turn { end game }")
    assert err.code == "check/arity" and "strip needs slots" in err.message

def test_board_sizes_may_call_functions_and_count_enums_and_earlier_boards():
    rules = _program("strip_demo")
    for n, market, stock in [(2, 12, 6), (3, 12, 6), (4, 18, 9)]:
        prog = rules.for_players(n)
        assert (len(prog.boards["market"]), len(prog.boards["stock"])) == (market, stock)
        names = [c.name for c in _cells_of(prog, "market")]
        assert names[0] == "p1a1" and names[market // 2 - 1] == f"p{market // 6}a3"
        assert names[market // 2] == "p1b1" and names[-1] == f"p{market // 6}b3"
        game = rules.new_game(n, 0)
        assert all(len(testing.at(game, f"market:{c}")) == 1 for c in names)
    assert ("With 2 or 3 players the market has 2 parts of 3 slots a side, 12 cells (`p1a1` .. "
            "`p2a3`, then `p1b1` .. `p2b3`), and the stock 6; with 4 players 3 parts, 18 cells, and "
            "the stock 9.") in FLAT_DOC
    # a board sized by a later board, reported at the argument
    block = next(b for b in ERRORS if "size(cells(track))" in b.text)
    with pytest.raises(errors.MeepleError) as info:
        compile_fragment(block.text, "later.meeple")
    d = info.value.diagnostics[0]
    assert d.code == "check/board-not-constant"
    assert (d.span.line, d.span.column) == (2, block.text.splitlines()[1].index("length") + 1)
    # ... and so is a function that reads the game
    d = _load_error(CLAIM + CARDS + "function w(): int = size(pile)\nboard b: line(length: w()) holds Card\n"
                    "turn { end game }")
    assert d.code == "check/board-not-constant" and "cannot use a zone" in d.message


def test_face_down_views_messages_and_undo():
    rules = _program("face_down_demo")
    game = rules.new_game(2, 0)
    card = {testing.item(game.program, value=v): v for v in range(1, 7)}
    c = {v: i for i, v in card.items()}
    hidden = {"hidden": True}
    assert testing.at(game, "table") == [c[6], c[5], c[4]]
    assert views.view(game, 0)["zones"]["table"] == [hidden, c[5], c[4]]
    for seat in (1, views.SPECTATOR):
        v = views.view(game, seat)
        assert v["zones"]["table"] == [hidden, hidden, c[4]]
        assert v["vars"]["bid"] == hidden
        assert v["log"] == ["Player 1 bids a card"]
    assert views.view(game, 0)["vars"]["bid"] == c[5]
    assert views.view(game, 0)["log"] == ["Player 1 bids card 5"]
    assert testing.notations(game) == ["show false", "show true"]
    before = game.copy().state
    game.apply("show true")
    for seat in (0, 1, views.SPECTATOR):
        assert views.view(game, seat)["zones"]["table"] == [hidden, c[5], c[4]]
    assert views.view(game, 1)["log"] == ["Player 1 bids a card"]
    assert runtime.revealed_since(before, game.state, 1) and not runtime.revealed_since(before, game.state, 0)
    assert "player 1's view lists the table as `{\"hidden\": true}`, card 5, card 4" in FLAT_DOC
    assert '"Player 1 bids card 5", the others "Player 1 bids a card"' in FLAT_DOC
    # not showing: nothing newly seen
    game = rules.new_game(2, 0)
    before = game.copy().state
    game.apply("show false")
    assert not runtime.revealed_since(before, game.state, 1)


def test_face_down_moves_and_flips():
    def run(stmts: str):
        prog, _ = compile_fragment(stmts, "faces.meeple")
        return prog.new_game(2, 0)
    hidden = {"hidden": True}
    # the fragment of 'move': face down, face down for the active player, face up
    block = next(b for b in FRAGMENTS if "move top(draw) to discard face down" in b.text)
    game = run(block.text)
    green1, red8, red7 = (testing.item(game.program, colour=col, value=v)
                          for col, v in (("green", 1), ("red", 8), ("red", 7)))
    assert testing.at(game, "discard") == [green1, red7]
    assert [game.state["facing"][i] for i in (green1, red8, red7)] == [0, 1, -1]
    assert views.view(game, 0)["zones"]["discard"] == [hidden, red7]
    assert views.view(game, 0)["zones"]["tableau:0"] == [red8]
    assert views.view(game, 1)["zones"]["tableau:0"] == [hidden]
    # the fragment of 'flip': turns items where they lie
    block = next(b for b in FRAGMENTS if "flip top(cell(1, 1)) face up" in b.text)
    game = run(block.text)
    row1 = [testing.at(game, f"grid:r1c{k}")[0] for k in (1, 2, 3)]
    assert [game.state["facing"][i] for i in row1] == [-1, 1, 0]
    assert views.view(game, 1)["zones"]["grid:r1c2"] == [hidden]
    assert views.view(game, 0)["zones"]["grid:r1c2"] == [row1[1]]
    # face_down() with or without 'for'; a plain move follows the new place; moving to the
    # same place only sets the facing; reveal leaves face-down items unknown; a face-up
    # flip in a hidden pile leaves the item unseen; a list; none
    game = run("move top(draw) to discard face down\nmove top(draw) to discard face down for active\n"
               "points(players[0]) = count(c for c in items(discard) if face_down(c))\n"
               "move bottom(discard) to hand(active)\nmove top(discard) to discard\n"
               "move top(draw) to discard\nmove top(discard) to discard face down\n"
               "flip top(draw) face down\nflip top(draw) face up\n"
               "reveal draw\nflip items(hand(players[1])) face down for players[1]\n"
               "round = count(c for c in items(hand(players[1])) if face_down(c))\n")
    assert game.state["pvars"]["points"][0] == 2 and game.state["vars"]["round"] == 3
    green1 = testing.item(game.program, colour="green", value=1)
    red8, red7 = (testing.item(game.program, colour="red", value=v) for v in (8, 7))
    assert testing.at(game, "discard") == [red8, red7] and testing.at(game, "hand:0")[-1] == green1
    assert game.state["facing"][green1] == -1 and game.state["facing"][red8] == -1 and game.state["facing"][red7] == 0
    assert views.view(game, views.SPECTATOR)["zones"]["discard"] == [red8, hidden]
    assert views.view(game, 0)["zones"]["hand:1"] == {"count": 3}
    assert views.view(game, 1)["zones"]["hand:1"] == testing.at(game, "hand:1")
    game = run("move top(draw) to discard face down\nreveal discard\n")
    assert views.view(game, 1)["zones"]["discard"] == [hidden]
    game = run("move top(draw) to draw face down for players[1]\n")
    assert views.item_visible(game, testing.at(game, "draw")[-1], 1)
    game = run("move top(draw) to draw face down for players[1]\nflip top(draw) face up\n")
    assert not views.item_visible(game, testing.at(game, "draw")[-1], 1)
    assert views.view(game, 1)["zones"]["draw"] == {"count": 9}
    for stmts in ("flip top(discard) face up", "move top(discard) to draw face down"):
        with pytest.raises(RuleError) as info:
            run(stmts)
        assert info.value.code == "rule/error"
    d = _load_error(CLAIM + CARDS + "turn { flip top(pile) face down for 3 }\nend when true")
    assert d.code == "check/type-mismatch"


# ---------------------------------------------------------------- options a player may not know

def test_options_a_player_may_not_know_are_named_and_ordered_by_place():
    rules = _program("blind_pick")
    game = rules.new_game(2, 0)
    assert testing.notations(game) == ["take 4", "take 8", "take deck#1", "take deck#2", "take deck#3",
                                       "take table#2", "take s1", "take hand:p2#1"]
    assert ("Player 1's moves are `take 4`, `take 8` (the cards they know, in creation order), then "
            "`take deck#1`, `take deck#2`, `take deck#3`, `take table#2`, `take s1`, `take hand:p2#1`") in FLAT_DOC
    # the older notation, with the seat counted from 0, is still accepted (older records)
    assert game.find_move("take hand:1#1").notation == "take hand:p2#1"
    assert game.find_move("TAKE HAND:1#1").notation == "take hand:p2#1"
    with pytest.raises(runtime.IllegalMove):
        game.find_move("take hand:0#1")  # seat 1's hand: not an option
    # messages (test failures, leaks) write places as moves do; view keys stay 0-based
    in_hand = testing.at(game, "hand:1")[0]
    assert leaks.place(game, in_hand) == "hand:p2#1"
    assert display.zone_notation(game.program, testing.zone(game.program, "hand:1")) == "hand:p2"
    # what player 1 does not know is there all the same: deck 1..3, table 8 and 7, 6, 5, 4
    prog = game.program
    value = {i: prog.items[i].attrs["value"] for i in range(len(prog.items))}
    assert [value[i] for i in testing.at(game, "deck")] == [1, 2, 3]
    assert [value[i] for i in testing.at(game, "table")] == [8, 7]
    assert [value[i] for k in ("hand:1", "row:s1", "row:s2") for i in testing.at(game, k)] == [6, 5, 4]
    game.apply("take deck#2")
    assert [value[i] for i in testing.at(game, "hand:0")] == [2]
    assert views.view(game, 0)["zones"]["hand:0"] == testing.at(game, "hand:0")
    # a subset of the table: 8 and the face-down 7
    text = RULESETS["blind_pick"].text.replace(
        "turn {\n", "turn {\n  choose s subset of items(table) as \"pair\"\n")
    game = interpreter.compile_sources(_sources({"b.meeple": text})).new_game(2, 0)
    assert testing.notations(game) == ["pair 8", "pair table#2", "pair 8+table#2"]
    # the same place names for subsets (shorter first, element by element) and for a tie;
    # with two boards a cell is board.cell, with two items in it cell#n; per-player zones
    # come zone by zone, each seat by seat
    game = _run("kind Card { value: int }\nzone deck: Card hidden\nzone table: Card\nzone hand: Card per player\n"
                "zone bag: Card per player\nboard a: line(length: 1) holds Card\nboard b: line(length: 1) holds Card\n"
                "deck cards into deck { Card(value: v) for v in 1..9 }\nvar done: bool = false\n"
                "setup { move top(deck) to table\n move top(deck) to table face down\n"
                " move top(deck) to bag(players[0]) face down\n move top(deck) to hand(players[1])\n"
                " move top(deck) to cells(a)[0] face down\n move top(deck) to cells(b)[0]\n"
                " move top(deck) to cells(b)[0] face down }\n"
                "turn { choose s subset of items(table) where size(s) == 2 as \"pair\"\n"
                " choose c from items(bag(players[0])) + items(hand(players[1])) + items(cells(a)[0])"
                " + items(cells(b)[0]) as \"take\"\n"
                " best t in items(deck) by 0 tie choose\n done = true }\nend when done")
    assert testing.notations(game) == ["pair 9+table#2"]
    game.apply(0)
    assert testing.notations(game) == ["take 4", "take a.s1", "take b.s1#2", "take hand:p2#1",
                                       "take bag:p1#1"]  # bag:p1: not known to its owner either
    game.apply("take a.s1")
    assert testing.notations(game) == ["tie deck#1", "tie deck#2"]
    assert "`take deck#1`" in FLAT_DOC and "`8+table#2`" in FLAT_DOC and "`s1#2`" in FLAT_DOC


def test_views_list_the_face_down_items_the_seat_knows():
    game = _program("face_down_demo").new_game(2, 0)
    card5 = testing.item(game.program, value=5)
    assert views.view(game, 0)["face_down"] == [card5]
    assert views.view(game, 1)["face_down"] == [] and views.view(game, views.SPECTATOR)["face_down"] == []
    assert set(views.view(game, "all")["face_down"]) == {card5, testing.item(game.program, value=6)}
    game.apply("show true")
    assert views.view(game, 0)["face_down"] == []
    assert "player 1's view has card 5 there" in FLAT_DOC


def test_bots_get_the_view_and_the_notations_only():
    import inspect

    from meeple.interpreter import bots
    game = _program("blind_pick").new_game(2, 0)
    notations = testing.notations(game)
    for name, cls in bots.BOTS.items():
        if getattr(cls, "wants_position", False):
            # a search bot gets a Position: the seat, its notations, its view, and games
            # drawn from what the seat knows (never the game itself)
            assert list(inspect.signature(cls.choose_position).parameters) == ["self", "position"]
            position = bots.Position(game, 0)
            assert position.moves == list(notations) and position.view == views.view(game, 0)
            i = bots.make_bot(f"{name}:iterations=4" if name != "greedy" else name, 1).choose_position(position)
        else:
            i = cls(1).choose(views.view(game, 0), list(notations))
            assert list(inspect.signature(cls.choose).parameters) == ["self", "view", "moves"]
        assert 0 <= i < len(notations)
    assert "`bot.choose(view, notations)`" in FLAT_DOC and "`Position`" in FLAT_DOC


def test_a_label_may_show_item_variables():
    block = next(b for b in FRAGMENTS if 'label Unit "{colour} unit"' in b.text)
    prog, _ = compile_fragment(block.text + "zone barracks: Unit\n"
                               "deck units into barracks { Unit(colour: c) for c in Colour }\n", "label.meeple")
    game = prog.new_game(2, 0)
    red = testing.item(game.program, "Unit", colour="red")
    assert display.item_label(game.program, red) == "red unit"
    assert display.item_label(game.program, red, True) == "red?"
    assert display.item_label(game.program, red, True, game.state["ivars"]) == "red0"
    assert display.item_label(game.program, red, True, views.view(game, 0)["ivars"]) == "red0"


def test_a_locale_may_translate_the_texts_of_a_variant_not_chosen():
    fr = next(b for b in OVERLAYS if b.header == ("locale", "fr") and b.comment("base") == "toss")
    variant = next(b for b in OVERLAYS if b.header == ("variant", "commentary"))
    base = RULESETS["toss"].text
    files = {"toss.meeple": base, "variants/commentary.meeple": variant.text, "locales/fr.meeple": fr.text}
    assert interpreter.compile_sources(_sources(files), (), "fr").warnings == []
    rules = interpreter.compile_sources(_sources(files), ["commentary"], "fr")
    assert rules.warnings == []
    log = views.view(rules.new_game(2, 0), 0)["log"]
    assert len(log) == 4 and all(re.fullmatch(r"Joueur [12] lance : [0-4] face\(s\) jusqu'ici", m) for m in log)
    del files["variants/commentary.meeple"]
    assert [w.code for w in interpreter.compile_sources(_sources(files), (), "fr").warnings] == ["check/unused-text"]
    # a typo in a variant's text is still reported when the variant is chosen
    files["variants/commentary.meeple"] = variant.text
    files["locales/fr.meeple"] = fr.text.replace("{heads}", "{head}")
    assert interpreter.compile_sources(_sources(files), (), "fr").warnings == []
    assert [w.code for w in interpreter.compile_sources(_sources(files), ["commentary"], "fr").warnings] \
        == ["check/unknown-placeholder"]


# ---------------------------------------------------------------- invariants and meeple test

def _section_18_fragments() -> str:
    blocks = [b for b in FRAGMENTS if re.match(r"\s*(invariant|bound|secret)\b", b.text)]
    assert len(blocks) == 3
    return "".join(b.text for b in blocks)


def test_the_declared_checks_of_section_18_hold_for_the_examples_ruleset():
    prog, mode = compile_fragment(_section_18_fragments(), "checks.meeple")
    assert mode == "declarations"
    stats = invariants.Stats()
    for n in (2, 3, 4):
        for seed in range(4):
            play_and_check(prog, Config(n), seed, [seed * 3 + i for i in range(20)], stats)
    assert stats.moments == {"after setup": 12, "at turn end": 3 * 4 * (2 + 3 + 4), "at end": 12}
    p2 = prog.for_players(2)
    assert [(name, moment) for name, moment, _, _ in p2.invariants] == [
        ("all_cards", "after setup"), ("full_grid", "always"), ("three_cards_at_most", "at turn end"),
        ("all_played", "at end")]
    assert p2.bound == (12, "turns") and p2.secrets == [("hand", False), ("draw", True)]
    # the bound is tight: 4 players play 12 cards
    tight, _ = compile_fragment(_section_18_fragments().replace("bound 12 turns", "bound 11 turns"), "b.meeple")
    play_and_check(tight, Config(3), 0, [])
    with pytest.raises(Failure) as info:
        play_and_check(tight, Config(4), 0, [])
    assert info.value.check == "bound" and "within its bound of 11 turns" in info.value.message
    assert f"within {invariants.DEFAULT_BOUND[0]:,} {invariants.DEFAULT_BOUND[1]}" in FLAT_DOC
    assert f"| `bound` | the game goes on after its bound (declared, or {invariants.DEFAULT_BOUND[0]:,} moves), " \
        in DOC_TEXT


def test_the_moments_of_the_invariants():
    def moments(body):
        seen = []
        game = interpreter.compile_sources(_sources({"m.meeple": CLAIM + body})).new_game(
            2, 0, hook=lambda moment, R: seen.append((moment, R.turn, R.phase, R.result is not None)))
        while not game.over:
            game.apply(0)
        return seen
    turn = "var n: int = 0\nturn { choose x from [1] as \"go\"\n n = n + 1 }\n"
    assert moments(turn + "end when n >= 2") == [
        ("after setup", 0, "play", False), ("at turn end", 1, "play", False),
        ("at turn end", 2, "play", False), ("at end", 2, "over", True)]
    # a turn cut short by 'end game' is not completed
    assert moments(turn.replace("n = n + 1", "n = n + 1\n if n == 2 { end game }") + "end when false") == [
        ("after setup", 0, "play", False), ("at turn end", 1, "play", False), ("at end", 1, "over", True)]
    # ... nor a setup that ends the game
    assert moments("var n: int = 0\nsetup { end game }\nturn { n = 1 }\nend when n >= 5") == [
        ("at end", 0, "over", True)]
    # 'after setup' comes before the end condition is first checked
    assert moments("var n: int = 0\nsetup { n = 5 }\nturn { n = 1 }\nend when n >= 5") == [
        ("after setup", 0, "play", False), ("at end", 0, "over", True)]
    # 'always': at the start and after every move
    prog = _load(CLAIM + turn + "end when n >= 3\ninvariant small: n < 2\n")
    with pytest.raises(Failure) as info:
        play_and_check(prog, Config(2), 0, [])
    assert (info.value.check, info.value.message, info.value.moves) == (
        "invariant 'small'", "does not hold (move 2)", ["go 1", "go 1"])
    # one that cannot be evaluated breaks too; a condition must be a bool; names are unique
    prog = _load(CLAIM + turn + "end when n >= 3\ninvariant odd at turn end: min([x for x in [n] if x > 5]) > 0\n")
    with pytest.raises(Failure, match="could not be evaluated"):
        play_and_check(prog, Config(2), 0, [])
    for decls, code in [("invariant a: 1", "check/type-mismatch"), ("invariant a: true\ninvariant a: true",
                        "check/duplicate"), ("bound 0 moves", "check/bad-value"), ("secret nowhere",
                        "check/unknown-zone"), ("board b: line(length: 2) holds Card\nsecret b", "check/unknown-zone"),
                        ("bound 3 turns\nbound 3 moves", "check/duplicate")]:
        d = _load_error(CLAIM + CARDS + turn + "end when n >= 3\n" + decls)
        assert d.code == code, decls
    # plain games ignore them
    game = _load(CLAIM + turn + "end when n >= 3\ninvariant never: false\nbound 1 moves\n").new_game(2, 0)
    play_randomly(game)
    assert game.over


def test_secrets():
    body = CARDS + "var n: int = 0\nsetup { deal 1 from pile to hand }\n"
    turn = "turn { choose x from [1] as \"go\"\n n = n + 1 }\nend when n >= 2\n"
    play_and_check(_load(CLAIM + body + turn + "secret hand\nsecret other\n"), Config(2), 0, [])
    # a shared secret zone: nobody's view, not even a face_down list
    leak = turn.replace("n = n + 1", "n = n + 1\n move top(pile) to other face down for players[0]")
    with pytest.raises(Failure) as info:
        play_and_check(_load(CLAIM + body + leak + "secret other\n"), Config(2), 0, [])
    assert info.value.check == "secret 'other'" and info.value.message.startswith("player 1 can see")
    assert info.value.span.line == (CLAIM + body + leak).count("\n") + 1
    play_and_check(_load(CLAIM + body + leak + "secret hand\n"), Config(2), 0, [])
    # a public zone shows it at once; 'until end' lets 'at end' show it
    shown = turn + "at end { reveal other }\n"
    with pytest.raises(Failure, match="secret 'other'"):
        play_and_check(_load(CLAIM + body + shown.replace("n = n + 1", "n = n + 1\n move top(pile) to other")
                             + "secret other\n"), Config(2), 0, [])
    at_end = CLAIM + body.replace("deal 1 from pile to hand", "deal 1 from pile to hand\n move top(pile) to other") \
        + shown
    play_and_check(_load(at_end + "secret other until end\n"), Config(2), 0, [])
    with pytest.raises(Failure) as info:
        play_and_check(_load(at_end + "secret other\n"), Config(2), 0, [])
    assert info.value.message.startswith("player 1 can see") and info.value.moves == ["go 1", "go 1"]


def test_overlays_add_replace_and_remove_checks():
    base = EXAMPLES + _section_18_fragments()
    overlay = ("variant v\nremove invariant all_played\nremove secret draw\nreplace bound 50 turns\n"
               "replace invariant full_grid: size(draw) <= 9\nreplace secret hand until end\n"
               "invariant nine_at_most: size(draw) <= 9\n")
    prog = interpreter.compile_sources(_sources({"examples.meeple": base, "variants/v.meeple": overlay}), ["v"])
    p2 = prog.for_players(2)
    assert [(n, m) for n, m, _, _ in p2.invariants] == [
        ("all_cards", "after setup"), ("full_grid", "always"), ("three_cards_at_most", "at turn end"),
        ("nine_at_most", "always")]
    assert p2.bound == (50, "turns") and p2.secrets == [("hand", True)]
    # Cherokee's open clans: without 'remove secret clan' the face-up clan cards leak
    src = read_sources(resolve_path("cherokee"))
    real = src.sources[src.variants["open_clans"].span.file]
    assert "remove secret clan\n" in real
    files = {src.base.span.file: src.sources[src.base.span.file],
             "variants/open_clans.meeple": real.replace("remove secret clan\n", "")}
    rules = interpreter.compile_sources(_sources(files), ["open_clans"])
    with pytest.raises(Failure) as info:
        play_and_check(rules, Config(2, ("open_clans",)), 0, [])
    assert info.value.check == "secret 'clan'" and info.value.moves == []
    play_and_check(interpreter.load("cherokee", ["open_clans"]), Config(2, ("open_clans",)), 0, [])


def test_the_table_of_checks_names_every_check():
    source = (ROOT / "interpreter" / "analysis" / "invariants.py").read_text(encoding="utf-8")
    names = set(re.findall(r'(?:_fail|Failure)\("([a-z /-]+)"', source))
    assert 'f"invariant \'{name}\'"' in source and "f\"secret '{" in source
    table = DOC_TEXT.split("### 18.5", 1)[1].split("###", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \|", table, re.M)
    assert set(rows) == names | {"invariant 'NAME'", "secret 'ZONE'"}
    assert len(rows) == len(set(rows))


def test_the_samples_of_a_game_that_may_not_end(tmp_path, monkeypatch):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "300")
    text = RULESETS["shuttle"].text
    assert text.rstrip().endswith("bound 40 turns or endless")
    numbers = re.compile(r"\d+")

    def shown(start: str) -> list[str]:
        block = next(b for b in ALL_BLOCKS if b.lang == "text" and b.text.startswith(start))
        return [numbers.sub("#", ln) for ln in block.text.strip().splitlines()]
    (tmp_path / "shuttle.meeple").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["test", "shuttle.meeple"])
    assert result.exit_code == 0, result.output
    got = [numbers.sub("#", ln) for ln in result.output.strip().splitlines()]
    assert got == shown("$ meeple test shuttle.meeple")[1:]
    # without its last two words: the failure shown in 18.2
    (tmp_path / "shuttle.meeple").write_text(text.replace(" or endless", ""), encoding="utf-8")
    result = CliRunner().invoke(app, ["test", "shuttle.meeple"])
    assert result.exit_code == 1
    got = [numbers.sub("#", ln) for ln in result.output.strip().splitlines()]
    assert got[1:4] == shown("FAILED bound: the game never ends"), result.output


def test_games_are_drawn_from_choices_modulo_the_moves_then_first_moves():
    checker = invariants.GameChecker(_program("race_to_ten"), Config(2), 0)
    game = checker.play([4, 256 + 7])  # 4 % 3 = 1 and 263 % 3 = 2, then the first move
    assert game.state["vars"]["total"] == 10 and checker.moves == ["add 2", "add 3"] + ["add 1"] * 5
    src = read_sources(resolve_path("cherokee"))

    def load(c):
        return interpreter.compile_sources(src, list(c.variants), c.locale)
    cfgs = invariants.configs(src, load)
    assert len(cfgs) == 3 * 2 + 3 * len(src.locales)  # counts x (no variant, open_clans), locales alone
    assert Config(3, ("open_clans",)) in cfgs and Config(2, (), "nl") in cfgs
    assert invariants.configs(src, load, ["open_clans"], 3) == [Config(3, ("open_clans",))]


def test_the_sample_failure_of_meeple_test(tmp_path, monkeypatch):
    from meeple.cli.main import app
    from typer.testing import CliRunner
    (tmp_path / "race_to_ten.meeple").write_text(RULESETS["race_to_ten"].text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["test", "race_to_ten.meeple"])
    assert result.exit_code == 1
    shown = next(b for b in ALL_BLOCKS if b.lang == "text" and "$ meeple test race_to_ten.meeple" in b.text)
    expected = shown.text.strip().splitlines()[1:]
    got = result.output.strip().splitlines()
    assert len(got) == len(expected), result.output
    shrunk = re.compile(r"\(move \d+\)|\d+ move\(s\)|moves: .*")  # what shrinking found
    for g, e in zip(got, expected):
        assert shrunk.sub("#", g) == shrunk.sub("#", e), (g, e)
    rec = json.loads((tmp_path / "meeple-test-failure.json").read_text(encoding="utf-8"))
    assert rec["ruleset"].endswith("race_to_ten.meeple") and rec["players"] == 2
    game = play_and_check(_program("race_to_ten"), Config(2), 0, [])  # the first moves never fail
    assert game.over
    replayed = CliRunner().invoke(app, ["replay", "meeple-test-failure.json", "--ruleset",
                                        "race_to_ten.meeple", "--quiet"])
    assert replayed.exit_code == 0, replayed.output
