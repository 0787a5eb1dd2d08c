"""Every built-in function is defined once per side: dsl/builtins.py (its arities, type
rule, what the optimiser may assume, its reference entry) and interpreter/core/primitives.py
(its Python form and its C++ form), keyed by the same names.

- Both tables name exactly the same built-ins, the aggregates too.
- Every engine implements every built-in: one ruleset calls each (in each of its
  arities, over a list and over a zone, over a comprehension), and the straightforward
  Python, the fast Python and the C++ kernel each write every one of them; they agree on
  its values move after move (the kernel: tests/test_statement_forms.py, one kernel
  for every statement form and every built-in). Where the kernel does not cover a use, it says so
  (``primitives.KERNEL_GAPS``), and the program runs in Python, saying why: nothing falls
  back silently.
- Every built-in reads as its own phrase in every language of the rulebook: its
  phrases are declared with it (``said``), one per argument count and language.
- The table of docs/language.md §8 and the editor grammar's list of built-ins are
  generated from the table (tools/builtins_docs.py).

Adding a built-in (README.md, "Contributing"): its entry in dsl/builtins.py, its entry in
interpreter/core/primitives.py, its uses in ``USES`` below; then
``python3 tools/builtins_docs.py``."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from lockstep import play_both
from meeple.dsl import ast as ir, builtins, check
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen, codegen_lines, codegen_statements
from meeple.interpreter.core import primitives
from meeple.interpreter.documents import rulebook, rulebook_view, rulebook_words
from meeple.interpreter.native import kernel

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import builtins_docs  # noqa: E402 - from tools/, on the path just above

# every built-in in use: (expression, the type of the variable that keeps its value);
# ``g`` is a cell, ``xs`` a list of cards, ``ns`` their values, ``names`` texts
# (tests/test_statement_forms.py plays them in the kernel too)
USES = [
    ("top(pile)", "Card"), ("top(pile, 2)", "list of Card"), ("top(g, 2)", "list of Card"),
    ("bottom(pile)", "Card"), ("items(hand(active))", "list of Card"),
    ("size(pile)", "int"), ("size(xs)", "int"), ("len(g)", "int"), ("len(ns)", "int"),
    ("empty(g)", "bool"), ("empty(ns)", "bool"), ("occupied(pile)", "bool"), ("occupied(ns)", "bool"),
    ("cells(grid)", "list of grid"), ("cell_of(top(g), grid)", "grid"), ("cell_of(first(xs), grid)", "grid"),
    ("face_down(top(g))", "bool"), ("knows(next_player(active), top(g))", "bool"),
    ("abs(3 - size(pile))", "int"), ("min(size(pile), 7)", "int"), ("max(size(pile), 7)", "int"),
    ("min(ns)", "int"), ("max(ns)", "int"), ("sum(ns)", "int"), ("count(xs)", "int"),
    ("any([x.v > 2 for x in xs])", "bool"), ("all([x.v > 1 for x in xs])", "bool"),
    ("first(xs)", "Card"), ("last(ns)", "int"), ("first(names)", "str"), ("last(xs)", "Card"),
    ("min(x.v for x in xs)", "int"), ("max(x.v for x in xs)", "int"), ("sum(x.v for x in xs)", "int"),
    ("count(x for x in xs if x.v > 1)", "int"), ("any(x.v > 3 for x in xs)", "bool"),
    ("all(x.v > 0 for x in xs)", "bool"), ("first(x for x in xs if x.v > 1)", "Card"),
    ("last(x.v for x in xs)", "int"),
    ("subsets(ns)", "list of list of int"), ("sort(ns)", "list of int"),
    ("sort([x.colour for x in xs])", "list of Colour"), ("sort(items(pile))", "list of Card"),
    ("sort(names)", "list of str"),
    ("reverse(ns)", "list of int"), ("distinct(ns)", "list of int"), ("distinct(names)", "list of str"),
    ("distinct([x.v > 2 for x in xs])", "list of bool"), ("distinct(xs + top(pile, 2))", "list of Card"),
    ("replace_at(ns, 1, size(pile))", "list of int"), ("replace_at(xs, 0, top(pile))", "list of Card"),
    ("player_count()", "int"), ("next_player(active)", "player"), ("previous_player(active)", "player"),
    ("seat(active)", "int"), ("owner(hand(active))", "player"), ("owner(pile)", "player"),
    ("turn_number()", "int"),
    # an edges board: its edge between two cells, the cells across its open edges
    ("edge(side, g, first(cells(grid)))", "side"), ("edge(side, first(cells(grid)), last(cells(grid)))", "side"),
    ("across(side, g)", "list of grid"), ("across(side, g, [first(cells(side))])", "list of grid"),
    # (as the rulebook says them by their phrases: of a list, not a comprehension; of a
    # number, not a difference)
    ("any([empty(pile), size(ns) > 2])", "bool"), ("all([occupied(g), size(ns) > 1])", "bool"),
    ("abs(min(ns))", "int"),
]


def first_value(t: str) -> str:
    return "[]" if t.startswith("list") else {"int": "0", "bool": "false", "str": '""'}.get(t, "none")


COVER = "\n".join([
    "ruleset cover", "players 2..3", "enum Colour { red, green, blue }",
    "kind Card { colour: Colour, v: int }", "board grid: grid(rows: 2, cols: 3) holds Card",
    "board side: edges(of: grid) holds Card",
    "zone pile: Card", "zone hand: Card per player",
    "deck cards into pile { Card(colour: k, v: n) for k in Colour for n in 1..4 }",
    *(f"var r{i}: {t} = {first_value(t)}" for i, (_, t) in enumerate(USES)),
    "setup {", "  shuffle pile", "  deal 2 from pile to hand", "}",
    "turn {",
    '  choose g from [x for x in cells(grid) if empty(x)] as "put"',
    "  if size(pile) % 2 == 0 { move top(pile) to g face down } else { move top(pile) to g }",
    "  let a1 = first(cells(grid))",
    "  if size(pile) % 3 == 0 and g != a1 and occupied(a1) { move top(a1) to first(cells(side)) }",
    "  let xs = items(hand(active)) + top(pile, 3)",
    "  let ns = [x.v for x in xs]",
    '  let names = [if x.v > 2 then "b" else "a" for x in xs]',
    *(f"  r{i} = {e}" for i, (e, _) in enumerate(USES)),
    "}",
    "end when size(pile) < 3",
    "score(p) = seat(p)", ""])


def _compiled(monkeypatch, text: str, optimize: bool):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    monkeypatch.setattr(codegen, "STRICT", optimize)
    src = SourceSet(base=parse(text, "cover.meeple"), sources={"cover.meeple": text})
    return compile_sources(src)


def _written(monkeypatch, module, engine: str, seen: set) -> None:
    """Notes (engine, built-in, whether over a comprehension) for each call an engine
    writes by its form."""
    def emit(form, call):
        over = isinstance(call, (primitives.PyOver, primitives.PyLoop, primitives.CxxOver))
        seen.add((engine if engine != "python" else ("fast" if call.cg.optimize else "plain"), call.name, over))
        return primitives.emit(form, call)
    monkeypatch.setattr(module, "emit", emit)


def _looped(monkeypatch, seen: set) -> None:
    """Notes ("fast", aggregate, True) for each aggregate the fast code writes as a loop
    of statements (its step's lines, core/primitives.py StepLine)."""
    def step_lines(ind, step, loop):
        seen.add(("fast", loop.name, True))
        return codegen_lines.step_lines(ind, step, loop)
    monkeypatch.setattr(codegen_statements, "step_lines", step_lines)


def test_both_sides_name_the_same_builtins():
    assert set(primitives.PRIMITIVES) == set(builtins.BUILTINS)
    assert {n for n, p in primitives.PRIMITIVES.items() if p.over} == set(builtins.AGGREGATES)
    assert {n for n, p in primitives.PRIMITIVES.items() if p.cxx_over} == set(builtins.AGGREGATES)
    assert {n for n, p in primitives.PRIMITIVES.items() if p.step and p.step_start} == set(builtins.AGGREGATES)
    assert set(primitives.KERNEL_GAPS) <= set(builtins.BUILTINS)
    assert {n: b.arities for n, b in builtins.BUILTINS.items()} == check.BUILTINS
    assert set(builtins.AGGREGATES) == check.AGGREGATES
    assert set(check.CONSTANTS) == set(builtins.CONSTANTS)
    for b in builtins.BUILTINS.values():
        assert b.arities and all(0 <= n <= 3 for n in b.arities) and b.result and b.doc, b.name
        assert any(f"`{b.name}(" in usage for usage, _, _ in b.doc), b.name
        assert b.order in ("", "size", "elements"), b.name


def test_the_ruleset_calls_every_builtin_in_every_form():
    prog = compile_sources(SourceSet(base=parse(COVER, "cover.meeple"), sources={"cover.meeple": COVER}))
    c = prog.checked
    nodes = [n for s in ir.walk(c.turn.body) for n in ir.walk(s)]
    calls = {(n.func, len(n.args)) for n in nodes if n.node == "Call" and c.calls_builtin(n.func)}
    assert calls == {(n, k) for n, b in builtins.BUILTINS.items() for k in b.arities}
    on_list = {n.func for n in nodes if n.node == "Call" and n.args and c.type_of(n.args[0]).tag == "list"}
    on_zone = {n.func for n in nodes if n.node == "Call" and n.args and c.type_of(n.args[0]).tag in ("zone", "cell")}
    # (those that read a zone's or a cell's items where given one take a list too)
    assert {n for n, b in builtins.BUILTINS.items() if b.state == "place"} <= on_list & on_zone
    assert {n.func for n in nodes if n.node == "Aggregate"} == set(builtins.AGGREGATES)


def test_every_engine_writes_every_builtin(monkeypatch):
    seen: set = set()
    _written(monkeypatch, codegen, "python", seen)
    _looped(monkeypatch, seen)  # (the fast code's loops)
    _written(monkeypatch, kernel, "kernel", seen)
    plain = _compiled(monkeypatch, COVER, False).for_players(2)
    fast = _compiled(monkeypatch, COVER, True).for_players(2)
    kernel.Gen(fast).source()   # (raises Unsupported where the kernel does not cover a use)
    for engine in ("plain", "fast", "kernel"):
        assert {f for e, f, over in seen if e == engine and not over} == set(builtins.BUILTINS), engine
        # (the fast code's loops write comprehensions too, as "list")
        assert {f for e, f, over in seen if e == engine and over} - {"list"} == set(builtins.AGGREGATES), engine
    assert plain.new_game(2, 1).state["vars"] == fast.new_game(2, 1).state["vars"]


def test_every_builtin_says_whether_its_python_form_calls(monkeypatch):
    # (the fast code keeps a value computed once for two uses where its code calls a
    # function: core/inline.py python_calls reads this fact, never the text)
    for name, p in primitives.PRIMITIVES.items():
        arities = builtins.BUILTINS[name].arities
        assert isinstance(p.calls, bool) or (isinstance(p.calls, tuple) and len(p.calls) == max(arities)), name
    seen: dict = {}

    def emit(form, call):
        if isinstance(call, primitives.PyCall) and call.cg.optimize:
            alone = primitives.PyCall(call.cg, call.e, [f"a{i}" for i in range(len(call.a))])
            written = primitives.emit(form, alone)   # (its own form, the arguments names)
            calls = re.search(r"[A-Za-z_]\w*\(", written) is not None
            seen.setdefault((call.name, len(call.a)), set()).add(calls)
        return primitives.emit(form, call)
    monkeypatch.setattr(codegen, "emit", emit)
    _compiled(monkeypatch, COVER, True).for_players(2)
    assert set(seen) == {(n, k) for n, b in builtins.BUILTINS.items() for k in b.arities}
    for (name, n), calls in seen.items():
        assert calls == {primitives.PRIMITIVES[name].calls_with(n)}, (name, n)


def test_every_builtin_says_whether_its_python_form_reads_r(monkeypatch):
    # (whether a rule function's fast code reads the runtime R, compile_functions reads
    # of the printer's note, codegen.ExprCompiler.wrote_r, which this fact sets; and
    # whether it gives R to a helper, codegen_text.localize of ExprCompiler.gave_r)
    seen: dict = {}

    def emit(form, call):
        if isinstance(call, primitives.PyCall):
            alone = primitives.PyCall(call.cg, call.e, [f"a{i}" for i in range(len(call.a))])
            written = primitives.emit(form, alone)   # (its own form, the arguments names)
            reads, gives = re.search(r"\bR\b", written), re.search(r"\bR\s*[,)]", written)
            seen.setdefault((call.name, call.list0), set()).add((reads is not None, gives is not None))
        return primitives.emit(form, call)
    monkeypatch.setattr(codegen, "emit", emit)
    _compiled(monkeypatch, COVER, True).for_players(2)
    assert {name for name, _ in seen} == set(builtins.BUILTINS)
    assert {name for (name, _), said in seen.items() if (True, False) in said} >= {"top", "size", "player_count"}
    assert {name for (name, _), said in seen.items() if (True, True) in said} >= {"knows", "cell_of"}
    for (name, list0), said in seen.items():
        p = primitives.PRIMITIVES[name]
        assert said == {(p.reads_r_with(list0), p.gives_r)}, (name, list0)


def test_the_straightforward_and_the_fast_code_agree_on_every_builtin(monkeypatch):
    plain = _compiled(monkeypatch, COVER, False)
    fast = _compiled(monkeypatch, COVER, True)
    for players, seed in ((2, 1), (3, 7)):
        moves = play_both(fast, plain, players, seed, 20)
        assert moves > 3
    game = fast.new_game(2, 3)
    while not game.over:
        game.apply(0)
    assert len({json.dumps(v) for v in game.state["vars"].values()}) > 10   # (values, not defaults)


@pytest.mark.parametrize("use", ["first([true, false])", "last([[1], [2]])", "first(x for x in [true])",
                                 "last([n] for n in [1, 2])"])
def test_what_the_kernel_does_not_cover_is_said_and_listed(monkeypatch, use):
    text = COVER.replace("  r0 = top(pile)\n", f"  r0 = top(pile)\n  let gap = {use}\n")
    prog = _compiled(monkeypatch, text, True).for_players(2)
    with pytest.raises(kernel.Unsupported) as why:
        kernel.Gen(prog).source()
    f = use.split("(")[0]
    assert str(why.value).startswith(f"{f}") and ("of a list of" in str(why.value))
    assert primitives.KERNEL_GAPS[f].startswith(f"{f}() of a list of bool or of lists")


def test_every_builtin_has_a_phrase_in_every_rulebook_language():
    languages = set(rulebook.catalogs())
    assert {"en", "de", "fr", "nl", "ru"} <= languages
    for b in builtins.BUILTINS.values():
        assert len(b.said) == len(b.arities), b.name   # (one per argument count)
        for n, said in zip(b.arities, b.said):
            assert set(said) == languages, (b.name, n, languages - set(said))
            for lang, phrase in said.items():
                texts = phrase.values() if isinstance(phrase, dict) else [phrase]
                fields = {f for t in texts for f in re.findall(r"\{([a-z_]+)(?::[a-z]+)?\}", t)}
                assert fields == set("abc"[:n]), (b.name, n, lang, fields)   # (each argument)


def test_the_rulebook_says_every_builtin_by_its_phrase_in_every_language(tmp_path, monkeypatch):
    folder = tmp_path / "cover"
    (folder / "locales").mkdir(parents=True)
    (folder / "cover.meeple").write_text(COVER, encoding="utf-8")
    for lang in rulebook.catalogs():
        (folder / "locales" / f"{lang}.meeple").write_text(f"locale {lang}\n", encoding="utf-8")
    said: set = set()
    real = rulebook_words.builtin_key

    def key(name: str, n: int) -> str:
        said.add((name, n))
        return real(name, n)
    monkeypatch.setattr(rulebook_words, "builtin_key", key)
    for lang in rulebook.catalogs():
        said.clear()
        book = rulebook.build(interpreter.load(str(folder), locale=lang))
        md = rulebook_view.markdown(book)
        assert book.lang == lang and not {k for k in book.missing if k.startswith("f.")}, lang
        assert said == {(n, k) for n, b in builtins.BUILTINS.items() for k in b.arities}, lang
        assert "{" not in md.replace("{{", ""), lang


def test_the_language_reference_table_is_generated_from_the_table():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert builtins_docs.docs_text(text) == text, "run python3 tools/builtins_docs.py"
    start, end = builtins_docs.table_span(text)
    for b in [*builtins.BUILTINS.values(), *builtins.CLOSURES.values()]:
        assert all(f"| {u} | {r} | {m} |" in text[start:end] for u, r, m in b.doc), b.name


def test_the_editor_grammar_lists_every_builtin_from_the_table():
    path = builtins_docs.GRAMMAR
    text = path.read_text(encoding="utf-8")
    assert builtins_docs.grammar_text(text) == text, "run python3 tools/builtins_docs.py"
    grammar = json.loads(text)
    (rule,) = [p for p in grammar["repository"]["builtin"]["patterns"] if p["name"] == builtins_docs.SCOPE]
    named = set(rule["match"].split("(", 1)[1].split(")", 1)[0].split("|"))
    assert named == {*builtins.BUILTINS, *builtins.CLOSURES, *builtins.FORMS}
