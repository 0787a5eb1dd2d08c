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
  fallback."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from lockstep import program_of
from meeple.dsl import ast as ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen, codegen_operators
from meeple.interpreter.core import evaluate, operators, primitives
from meeple.interpreter.native import kernel, kernel_operators

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "dsl" / "grammar.lark"


def grammar_operators() -> set[tuple[str, str]]:
    """The operators of the grammar's expressions, as (IR node, op): each alternative of
    the rules from ``?expr`` to ``?postfix`` that has a keyword or symbol of its own (an
    operator rule's, ``!..._op``: each alternative one infix operator) written with
    operands and parsed."""
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = text[text.index("\n?expr:"):text.index("\n?postfix:")]
    found = set()
    for line in rules.strip().splitlines():
        name, _, body = line.partition(":")
        if not name.startswith(("?", "!")):   # (a part of a rule: an elif's)
            continue
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
            found.add((e.node, getattr(e, "op", "?")))
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
