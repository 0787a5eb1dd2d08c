"""Every operator of an expression is defined once: interpreter/core/operators.py, one
entry per operation (which ``op`` and class of operand type select it, its reference
meaning, its Python form, its C++ form, its documentation).

- The table holds exactly the operators of the grammar: the list is read from
  dsl/grammar.lark (its rules of expressions, each operator parsed by dsl/parse.py into
  its IR node), never written by hand here.
- Every engine implements every operation: one ruleset uses each (``in`` of a zone, of a
  cell and of a list, ``+`` of ints, lists and texts...), and the reference walk
  (core/evaluate.py), the straightforward Python, the fast Python and the C++ kernel
  each write or evaluate every one of them by its entry; the walk agrees with the
  compiled code on every value it meets (``MODE`` "both").
- An operator missing from the table is an error where an engine meets it, never a
  fallback.
- The language's table (dsl/operators.py) names the same operations; the checker
  chooses for each node the operation the engines run, and types each by its rule (what
  it says of each operation misused, ``MISUSES``); the operators bind as tightly as its
  levels say and the grammar's rules do; the table of docs/language.md §7.1 is written
  from it, the editor grammar marks each operator and every rulebook catalog has each
  operation's phrase; what the optimiser assumes (core/facts.py, core/inline.py) is the
  table's."""
from __future__ import annotations

import itertools
import json
import random
import re
import sys
from pathlib import Path

import pytest
from lockstep import program_of
from meeple.dsl import ast as ir, check_operators, operators as language
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen, codegen_operators
from meeple.interpreter.core import evaluate, operators, primitives
from meeple.interpreter.documents import meeple_code, rulebook
from meeple.interpreter.native import kernel, kernel_operators
from meeple.interpreter.play.helpers import RuleError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import builtins_docs  # noqa: E402 - from tools/, on the path just above

GRAMMAR = ROOT / "dsl" / "grammar.lark"


def grammar_operators() -> set[tuple[str, str]]:
    """The operators of the grammar's expressions, as (IR node, op)."""
    return set(grammar_places())


def grammar_places() -> dict[tuple[str, str], tuple[int, str]]:
    """Each operator of the grammar's expressions, as (IR node, op), with where the
    grammar has it: how many rules of precedence (``?...``) come before it (the more, the
    tighter it binds) and the rule that holds it. Each alternative of the rules from
    ``?expr`` to ``?postfix`` that has a keyword or symbol of its own (an operator
    rule's, ``!..._op``: each alternative one infix operator) written with operands and
    parsed."""
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = text[text.index("\n?expr:"):text.index("\n?postfix:")]
    found, rank = {}, 0
    for line in rules.strip().splitlines():
        name, _, body = line.partition(":")
        if not name.startswith(("?", "!")):   # (a part of a rule: an elif's)
            continue
        rank += name.startswith("?")
        for alt in body.split("|"):
            alt = alt.split("->")[0]
            if '"' not in alt:
                continue
            if name.startswith("!"):
                source = "a " + " ".join(re.findall(r'"([^"]+)"', alt)) + " b"
            else:   # the alternative with each operand a name (repeated parts left out)
                source = " ".join(w.strip('"') if w.startswith('"') else "a"
                                  for w in alt.split() if not w.endswith("*"))
            e = _parsed(source)
            assert e.node in ("UnOp", "BinOp", "CondExpr"), (source, e.node)
            found[e.node, getattr(e, "op", "?")] = (rank, name[1:])
    return found


def _parsed(source: str):
    f = parse(f"ruleset t\nconst k: int = {source}\n", "t.meeple")
    (const,) = [d for d in f.decls if d.node == "ConstDecl"]
    return const.value


# every operation in use: ``in`` of a cell, a zone and a list, ``+`` of ints, lists and
# texts, a range of numbers not written out, ``and`` not of an occupancy (the passes the
# printers apply on top of the forms leave these to the forms)
RULES = """ruleset ops
players 2..2
enum Colour { red, blue }
kind Stone { colour: Colour, n: int }
board grid: grid(rows: 3, cols: 3) holds Stone
zone supply: Stone
zone hand: Stone per player
deck stones into supply { Stone(colour: k, n: i) for k in Colour for i in 1..5 }
var total: int = 0
var note: str = ""
var ns: list of int = []
var flags: list of bool = []
setup {
  shuffle supply
}
turn {
  choose c from [x for x in cells(grid) if empty(x)] as "place"
  move top(supply) to c
  let k = size(supply)
  let s = top(c)
  let xs = [x.n for x in items(supply)]
  total = (total + k) * (k - 3) / 2 % 7 + -k
  ns = xs + ns + (1..k)
  note = note + "a"
  flags = [not (k > 3), s in c, s not in supply, k in xs, k not in xs, k == 2 or k != 3, k < 4 and k <= 5, k > 1, k >= 0]
  total = if k > 4 then total else size(ns) - k
}
end when size(supply) < 3
score(p) = total
"""


def _program(text: str, optimize: bool, monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
    return compile_sources(SourceSet(base=parse(text, "ops.meeple"), sources={"ops.meeple": text})).for_players(2)


def _play(prog, moves: int = 8) -> None:
    g, rnd = prog.new_game(2, 1), random.Random(1)
    for _ in range(moves):
        if g.over:
            break
        legal = g.legal_moves(g.deciding[0])
        g.apply(legal[rnd.randrange(len(legal))], safe=False, seat=g.deciding[0])


def test_the_table_holds_every_operator_of_the_grammar():
    from_grammar = grammar_operators()
    assert {("BinOp", "in"), ("BinOp", "not in"), ("UnOp", "-"), ("BinOp", "-"), ("CondExpr", "?")} <= from_grammar
    assert {(op.node, op.op) for op in operators.OPERATORS.values()} == from_grammar
    assert set(operators.BY_KEY) == {op.key for op in operators.OPERATORS.values()}   # (one entry per key)
    for op in operators.OPERATORS.values():
        assert op.python and op.cxx and op.doc and callable(op.meaning), op.name
        assert op.lazy == (op.name in ("and", "or", "cond")), op.name


def test_the_ruleset_uses_every_operation():
    prog = compile_sources(SourceSet(base=parse(RULES, "ops.meeple"), sources={"ops.meeple": RULES}))
    c = prog.checked
    nodes = [n for s in ir.walk(c.turn.body) for n in ir.walk(s) if n.node in ("UnOp", "BinOp", "CondExpr")]
    assert {operators.resolve(n, c.type_of).name for n in nodes} == set(operators.OPERATORS)


def test_every_engine_implements_every_operation(monkeypatch):
    seen: set = set()

    def emit(form, call):
        engine = "kernel" if isinstance(call, operators.CxxOp) else "fast" if call.cg.optimize else "plain"
        seen.add((engine, call.name))
        return primitives.emit(form, call)
    monkeypatch.setattr(codegen_operators, "emit", emit)
    monkeypatch.setattr(kernel_operators, "emit", emit)
    resolve = evaluate.resolve

    def walked(e, ty):
        op = resolve(e, ty)

        def meaning(*args):
            seen.add(("reference", op.name))
            return op.meaning(*args)
        return operators.Operator(**{**op.__dict__, "meaning": meaning})
    monkeypatch.setattr(evaluate, "resolve", walked)
    _program(RULES, False, monkeypatch)
    fast = _program(RULES, True, monkeypatch)
    kernel.Gen(fast).source()   # (raises Unsupported where the kernel does not cover a use)
    monkeypatch.setattr(evaluate, "MODE", "both")
    both = _program(RULES, False, monkeypatch)
    _play(both)
    assert both.walk.compared > 0 and both.walk.differences == []
    for engine in ("reference", "plain", "fast", "kernel"):
        assert {name for e, name in seen if e == engine} == set(operators.OPERATORS), engine


MISSING = ("BinOp", "%", "")


def test_an_operator_missing_from_the_table_fails_loudly_in_python(monkeypatch):
    monkeypatch.delitem(operators.BY_KEY, MISSING)
    for optimize in (False, True):
        with pytest.raises(MeepleError, match=r"no operation for '%' \(BinOp\) in interpreter/core/operators.py"):
            _program(RULES, optimize, monkeypatch)


def test_an_operator_missing_from_the_table_fails_loudly_in_the_kernel(monkeypatch):
    prog = _program(RULES, True, monkeypatch)
    kernel.Gen(prog).source()
    monkeypatch.delitem(operators.BY_KEY, MISSING)
    with pytest.raises(operators.MissingOperator, match="no operation for '%'"):
        kernel.Gen(prog).source()


def test_an_operator_missing_from_the_table_fails_loudly_in_the_walk(monkeypatch):
    monkeypatch.setattr(evaluate, "MODE", "tree")
    prog = program_of(RULES, "ops.meeple", native=False)
    monkeypatch.delitem(operators.BY_KEY, MISSING)
    with pytest.raises(Exception, match="no operation for '%'"):
        _play(prog)


# ------------------------------------------------------------------ the language's side
def test_the_language_and_the_interpreter_name_the_same_operations():
    assert list(language.OPERATORS) == list(operators.OPERATORS)
    assert {op.shape for op in language.OPERATORS.values()} == grammar_operators()
    for op in language.OPERATORS.values():
        assert op.rule in check_operators.RULES, op.name
        assert len(op.operands) == {"UnOp": 1, "BinOp": 2, "CondExpr": 3}[op.node], op.name
        assert op.doc and op.words.startswith("x.") and op.context, op.name
        assert operators.OPERATORS[op.name].key == (op.node, op.symbol, op.on)
    for shape, ops in language.SHAPES.items():
        # (a symbol of several operations: one operand's type class chooses, one each)
        several = len(ops) > 1
        assert len({o.by for o in ops}) == 1 and (ops[0].by >= 0) == several, shape
        assert len({o.on for o in ops}) == len(ops) and all(bool(o.on) == several for o in ops), shape
    for op in language.OPERATORS.values():   # (a comparison and the one that holds where it does not)
        if op.opposite:
            other = language.OPERATORS[op.opposite]
            assert other.opposite == op.name and other.on == op.on and other.node == op.node, op.name


def test_the_checker_chooses_the_operation_every_engine_runs():
    prog = compile_sources(SourceSet(base=parse(RULES, "ops.meeple"), sources={"ops.meeple": RULES}))
    c = prog.checked
    nodes = [n for s in ir.walk(c.turn.body) for n in ir.walk(s) if n.node in ("UnOp", "BinOp", "CondExpr")]
    chosen = {language.chosen(n.node, getattr(n, "op", "?"), [c.type_of(x) for x in language.operands(n)]).name
              for n in nodes}
    assert chosen == set(language.OPERATORS)
    for n in nodes:
        types = [c.type_of(x) for x in language.operands(n)]
        assert language.chosen(n.node, getattr(n, "op", "?"), types).name == operators.resolve(n, c.type_of).name


# each operation misused, and what the checker says (its type rule in dsl/operators.py):
# (the operation, the expression, the column of the message, the message)
MISUSES = [
    ("not", "not 1", 15, "'not': expected bool, found int"),
    ("neg", "-true", 12, "'-': expected int, found bool"),
    ("and", "1 and true", 11, "'and': expected bool, found int"),
    ("or", "true or 2", 19, "'or': expected bool, found int"),
    ("eq", '1 == "a"', 16, "comparison '==': expected int, found str"),
    ("ne", "1 != true", 16, "comparison '!=': expected int, found bool"),
    ("lt", '"a" < 1', 11, "'<': expected int, found str"),
    ("le", "1 <= true", 16, "'<=': expected int, found bool"),
    ("gt", "true > 1", 11, "'>': expected int, found bool"),
    ("ge", '1 >= "b"', 16, "'>=': expected int, found str"),
    ("in_list", "1 in [true]", 11, "'in': expected bool, found int"),
    ("not_in_list", "[1] not in [1]", 11, "'not in': expected int, found list of int"),
    ("in_place", "1 in supply", 11, "'in' a zone: expected an item, found int"),
    ("not_in_place", "1 not in supply", 11, "'not in' a zone: expected an item, found int"),
    ("range", "1..true", 14, "a range: expected int, found bool"),
    ("add", "1 + true", 15, "'+': expected int, found bool"),
    ("join_lists", "[1] + [true]", 17, "'+' of lists: expected list of int, found list of bool"),
    ("join_texts", '"a" + 1', 17, "'+' of strings: expected str, found int"),
    ("sub", '1 - "a"', 15, "'-': expected int, found str"),
    ("mul", "true * 1", 11, "'*': expected int, found bool"),
    ("div", '1 / "a"', 15, "'/': expected int, found str"),
    ("mod", '"x" % 2', 11, "'%': expected int, found str"),
    ("cond", 'if true then 1 else "a"', 31, "the 'else' branch: expected int, found str"),
    ("", "1 in 2", 16, "'in': expected a list or a zone, found int"),       # (no operation of 'in' fits)
    ("", "if 1 then 2 else 3", 14, "the condition: expected bool, found int"),
    ("", "none == 1", 0, ""),                                              # (anything may be none)
    ("", "top(supply) not in hand(active)", 0, ""),
]
MISUSED = """ruleset t
players 2..2
kind Stone { n: int }
zone supply: Stone
zone hand: Stone per player
deck stones into supply { Stone(n: i) for i in 1..3 }
var w: int = 0
turn {
  let v = %s
  w = 1
}
end when true
score(p) = 0
"""


@pytest.mark.parametrize(("name", "source", "column", "message"), MISUSES, ids=[m[1] for m in MISUSES])
def test_the_checker_types_each_operation_by_its_rule(name, source, column, message):
    text = MISUSED % source
    if not message:
        compile_sources(SourceSet(base=parse(text, "t.meeple"), sources={"t.meeple": text}))
        return
    with pytest.raises(MeepleError) as err:
        compile_sources(SourceSet(base=parse(text, "t.meeple"), sources={"t.meeple": text}))
    (d,) = err.value.diagnostics
    assert (d.code, d.span.line, d.span.column, d.message) == ("check/type-mismatch", 9, column, message)


def test_every_operation_is_misused_above():
    assert {m[0] for m in MISUSES} - {""} == set(language.OPERATORS)


def test_the_operators_bind_as_the_grammar_says():
    places = grammar_places()
    shapes = {op.name: op.shape for op in language.OPERATORS.values()}
    assert set(language.PRECEDENCE) == set(language.OPERATORS)   # (each at one level)
    for a in language.OPERATORS:
        for b in language.OPERATORS:
            assert (language.PRECEDENCE[a] < language.PRECEDENCE[b]) == (places[shapes[a]][0] < places[shapes[b]][0]), (a, b)
    grammar = GRAMMAR.read_text(encoding="utf-8")
    for level in language.LEVELS:
        for name in level.ops:   # (the rule that holds its operator is one its row names)
            assert places[shapes[name]][1] in level.rules, name
        for rule in level.rules:
            assert re.search(rf"^[?!]?{rule}:|-> {rule}\b", grammar, re.M), rule


def test_the_reference_table_of_operators_is_the_table():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert builtins_docs.docs_text(text) == text, "run python3 tools/builtins_docs.py"
    start, end = builtins_docs.operators_span(text)
    assert text[start:end] == language.reference_table()
    assert text.index(builtins_docs.OPERATORS) < start < text.index("### 7.2")


def _alternatives(pattern: str) -> set[str]:
    """The words of an editor grammar's ``\\b(a|b|c)\\b``."""
    return set(re.fullmatch(r"\\b\((.*)\)\\b", pattern).group(1).split("|"))


def test_the_editor_grammar_marks_every_operator():
    grammar = json.loads((ROOT / "editors" / "vscode" / "syntaxes" / "meeple.tmLanguage.json").read_text(encoding="utf-8"))
    symbols = grammar["repository"]["operator"]["match"]
    keywords = {p["name"]: _alternatives(p["match"]) for p in grammar["repository"]["keyword"]["patterns"]}
    logical = keywords["keyword.operator.logical.meeple"]
    words = set()
    for op in language.OPERATORS.values():
        if op.node == "CondExpr":   # (if, then, else: keywords of statements too)
            assert {"if", "then", "else"} <= keywords["keyword.control.meeple"]
            continue
        for part in op.symbol.split():
            if part.isalpha():
                words.add(part)
                assert part in logical | keywords["keyword.control.meeple"], part
            else:
                assert re.fullmatch(symbols, part), part
    assert logical <= words


def test_every_operation_has_its_phrase_in_every_rulebook_language():
    for lang, cat in rulebook.catalogs().items():
        assert {op.words for op in language.OPERATORS.values()} <= set(cat["messages"]), lang


def test_what_the_optimiser_assumes_of_each_operation(monkeypatch):
    # (core/facts.py: what counts work; core/inline.py: what cannot fail and counts nothing)
    prog = _program(RULES, True, monkeypatch)
    c = prog.checked
    nodes = [n for s in ir.walk(c.turn.body) for n in ir.walk(s) if n.node in ("UnOp", "BinOp", "CondExpr")]
    counting = {operators.resolve(n, c.type_of).name for n in nodes if prog.facts.counts_work(n)}
    assert counting == {"range", "join_lists", "join_texts"}
    # (of the ruleset's operators, whose operands are names and numbers, but the
    # conditional's, which calls a built-in)
    harmless = {operators.resolve(n, c.type_of).name for n in nodes if prog.facts.harmless(n)}
    assert harmless == {"not", "neg", "and", "or", "eq", "ne", "lt", "le", "gt", "ge", "in_list", "not_in_list",
                        "add", "sub"}
    for op in operators.OPERATORS.values():   # (harmless: cannot fail, counts nothing)
        assert not (op.harmless and (op.counts or op.costly or op.reads_r)), op.name


@pytest.mark.parametrize("source", ["(1 + 2) * 3", "-(1 - 2)", "not (true and false) or true", "1..2 + 3",
                                    "(if true then 1 else 2) + 1", "1 - (2 - 3)", "not -1 in [1]",
                                    "(true or false) and true", "-(1..2) == [1]", "2 * -3 % 4 / (5 % 6)",
                                    "(1 < 2) == true", "(1 in [1]) != (2 in [2])", "1..2 == [1, 2]"])
def test_meeple_code_writes_the_operators_back_as_they_bind(source):
    # (interpreter/documents/meeple_code.py: brackets where the table's levels need them)
    assert meeple_code.expr(_parsed(source)) == source


# ------------------------------------------------------------------ static folding
def test_every_operation_decides_whether_a_static_fold_computes_it():
    # (core/cells.py computes the static conditions of a loop's cells before any game
    # by each operation's reference meaning: ``fold`` says of what, "" never; an
    # operation added to the table is folded or refused there by its own entry)
    folds = {"", "int", "bool", "equal", "member"}
    for op in operators.OPERATORS.values():
        assert op.fold in folds, op.name
        if op.fold:   # (no state to read, no work to count, chosen by its values' type)
            assert not (op.reads_r or op.gives_r or op.counts), op.name
            assert operators.FOLDED[op.node, op.op] is op, op.name   # (one per node and op)
    assert {op.name for op in operators.OPERATORS.values() if not op.fold} == {
        "in_place", "not_in_place", "range", "join_lists", "join_texts", "cond"}


def _folded(symbol: str, *values, node: str = "BinOp"):
    from meeple.dsl import budgets
    return operators.fold(operators.FOLDED[node, symbol], budgets.DEFAULT, [lambda v=v: v for v in values])


@pytest.mark.parametrize(("node", "symbol", "values", "value"), [
    ("BinOp", "+", (2, 3), 5), ("BinOp", "-", (2, 3), -1), ("BinOp", "*", (-2, 3), -6),
    ("BinOp", "/", (-7, 2), -4), ("BinOp", "%", (-7, 2), 1), ("UnOp", "-", (4,), -4), ("UnOp", "not", (True,), False),
    ("BinOp", "<", (1, 2), True), ("BinOp", ">=", (1, 2), False), ("BinOp", "==", ("a", "a"), True),
    ("BinOp", "!=", (None, 1), True), ("BinOp", "in", (2, [1, 2]), True), ("BinOp", "not in", (3, [1, None]), True),
    ("BinOp", "and", (False, 1), False), ("BinOp", "or", (True, "never read"), True)])
def test_a_fold_is_the_reference_meaning(node, symbol, values, value):
    assert _folded(symbol, *values, node=node) == value


@pytest.mark.parametrize(("node", "symbol", "values"), [
    ("BinOp", "/", (1, 0)), ("BinOp", "%", (1, 0)), ("BinOp", "*", (10 ** 10, 10 ** 10)),   # (the rules' errors)
    ("BinOp", "+", ("a", "b")), ("BinOp", "+", (True, 1)), ("BinOp", "<", ("a", "b")), ("BinOp", "-", (None, 1)),
    ("UnOp", "-", (True,)), ("UnOp", "not", (0,)), ("BinOp", "==", (1, True)), ("BinOp", "in", (1, [True])),
    ("BinOp", "and", (True, 1)), ("BinOp", "or", (0, True))])
def test_a_fold_leaves_to_the_engines_what_they_might_compute_otherwise(node, symbol, values):
    with pytest.raises(operators.NotFolded):
        _folded(symbol, *values, node=node)


def test_the_static_cells_fold_what_the_table_folds(monkeypatch):
    # (core/cells.py keeps no list of operators of its own: an operation the table
    # stops folding is no longer static there, and its loops walk every cell)
    from meeple.interpreter.core import cells
    text = """ruleset t
players 2..2
kind Stone { n: int }
board grid: grid(rows: 4, cols: 4) holds Stone
zone supply: Stone
deck stones into supply { Stone(n: i) for i in 1..3 }
turn {
  choose c from [x for x in cells(grid) if (x.row + x.col) % 2 < 1 and empty(x)] as "place"
  move top(supply) to c
}
end when size(supply) == 0
score(p) = 0
"""
    def found():
        prog = _program(text, True, monkeypatch)
        comp = next(n for s in ir.walk(prog.checked.turn.body) for n in ir.walk(s) if n.node == "Comprehension")
        return prog.facts.cells_filter(comp.clauses[-1], comp.cond)
    f = found()
    assert f is not None and len(f.passing) == 8 and [p.op for p in f.preds] == ["<"]
    monkeypatch.delitem(operators.FOLDED, ("BinOp", "%"))
    assert found() is None
    assert cells.FOLDED is operators.FOLDED


# ------------------------------------------------------------------ comparisons
def test_a_comparison_holds_as_its_mirror_with_the_operands_swapped():
    mirrored = [op for op in language.OPERATORS.values() if op.mirror]
    assert {op.name for op in mirrored} == {"eq", "ne", "lt", "le", "gt", "ge"}
    for op in mirrored:
        mine, mirror = operators.OPERATORS[op.name], operators.OPERATORS[op.mirror]
        assert language.OPERATORS[op.mirror].mirror == op.name and op.result == language.OPERATORS["eq"].result
        assert mine.fold and mirror.fold, op.name   # (the kernel's early counts read the meaning)
        for a in range(-2, 3):
            for b in range(-2, 3):
                assert mine.meaning(None, None, a, b) == mirror.meaning(None, None, b, a), (op.name, a, b)
    assert language.comparisons() == {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def test_a_count_compared_early_holds_where_the_comparison_does():
    # (native/kernel_early.py: ``count op k`` as the counts within an interval, or not,
    # read from the comparison's reference meaning)
    from meeple.interpreter.native import kernel_early
    assert language.comparisons() == kernel_early.FLIP
    for symbol in language.comparisons():
        meaning = operators.FOLDED["BinOp", symbol].meaning
        for k in range(4):
            a, b, negated = kernel_early.interval(symbol, k)
            assert all(((a <= n <= b) != negated) == meaning(None, None, n, k) for n in range(k + 4)), (symbol, k)


def test_the_kernel_compares_counts_early_for_the_tables_comparisons(monkeypatch):
    asked: set = set()

    def early_count(self, e, sc):
        asked.add(e.op)
        return None
    monkeypatch.setattr(kernel.Gen, "early_count", early_count)
    prog = _program(RULES, True, monkeypatch)
    kernel.Gen(prog).source()
    assert asked == {"==", "!=", "<", "<=", ">", ">="}
    asked.clear()   # (an operation the table no longer calls a comparison: no early count)
    monkeypatch.setitem(language.OPERATORS, "lt", language.Operator(**{**language.OPERATORS["lt"].__dict__,
                                                                      "mirror": ""}))
    kernel.Gen(prog).source()
    assert asked == {"==", "!=", "<=", ">", ">="}


# ------------------------------------------------------------------ ranges
@pytest.mark.parametrize("name", [op.name for op in operators.OPERATORS.values() if op.span is not None])
def test_an_operations_span_holds_every_value_it_gives(name):
    # (core/bounds.py reads each operation's span: the fast code and the kernel leave
    # checks out by it, so a span too narrow would be a wrong game)
    op = operators.OPERATORS[name]
    spans = [(-3, -1), (-2, 2), (0, 0), (1, 4), (-5, 3), (2, 2)]
    for a in spans:
        for b in spans:
            ranges = {"CondExpr": ((0, 1), a, b), "UnOp": (a,), "BinOp": (a, b)}[op.node]
            got = op.span(ranges.__getitem__)
            values = []
            for xs in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges)):
                try:
                    values.append(_meaning_of(op, xs))
                except RuleError:
                    assert got is None, (name, a, b)   # (by zero: nothing is known)
            if got is not None:
                assert got[0] <= min(values) and max(values) <= got[1], (name, a, b, got)
                assert got == (min(values), max(values)) or name == "mod", (name, a, b, got)   # (as narrow as can be)
            assert op.span(lambda i: None) is None, name


def _meaning_of(op, xs):
    from meeple.dsl import budgets
    if op.lazy:
        return op.meaning(None, budgets.DEFAULT, bool(xs[0]), *(lambda x=x: x for x in xs[1:]))
    return op.meaning(None, budgets.DEFAULT, *xs)


def test_the_operations_of_ints_have_a_span():
    assert {op.name for op in operators.OPERATORS.values() if op.span} == {
        "neg", "add", "sub", "mul", "div", "mod", "cond"}
