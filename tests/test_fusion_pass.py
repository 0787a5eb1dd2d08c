"""Fusion is a pass over the core's instructions alone (issue 35): which runs of a
procedure are fused (interpreter/compiler/fused.py) is decided from its instructions,
whose structure of statements core/blocks.py recovers from the flat list (loops and
their ends, the tests of an ``if``, the instructions that stop). The tests: the
structure recovered is the IR's, statement for statement; fusing the instructions alone
(copies, with nothing of the IR given and ``ast.walk`` out of reach) fuses the same runs
into the same code; and an ``elif`` is told from an ``if`` alone in an ``else`` (the
same instructions but for their spans), each fused as before."""
from __future__ import annotations

import dataclasses

import pytest
from meeple.dsl import ast as ir
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen, compile_procs, fused
from meeple.interpreter.core import blocks, ops

HEAD = """ruleset passes
players 2..2
kind Stone { weight: int }
zone bag: Stone public
zone pile: Stone public
deck stones into bag { Stone(weight: w) for w in 1..6 }
var x: int = 0
var y: int = 0
var done: bool = false
var tally: int per player = 0
end when done
procedure helper(n: int) {
  x = x + n
  y = y + 1
}
procedure value(n: int): int {
  return n + 1
}
"""

RULES = HEAD + """setup {
  for s in items(bag) {
    move s to pile
  }
}
turn {
  if x > 3 {
    choose a from [1, 2] as "pick"
    x = a
  } elif x > 1 {
    x = x + 1
    y = y + 2
  } else {
    x = x + 2
  }
  if y > 5 {
    choose b from [1, 2] as "take"
    y = b
  } else {
    if x > 2 {
      x = x - 1
      y = y - 1
    }
  }
  if y > 7 {
    call helper(2)
  } else {
    if x > 9 {
      x = 1
    } elif x > 8 {
      x = 2
    } else {
    }
    y = y + 1
  }
  let k = 0
  while k < 3 max 10 {
    k = k + 1
    if k == 2 {
      done = true
      let r = call value(k)
      x = x + r
    }
    y = y + 1
  }
  y = call value(y)
  tally(active) = call value(1)
  for s in items(pile) {
    if s.weight > 3 {
      move s to bag
    } elif s.weight > 2 {
      pick q at random from [1, 2]
      x = x + q
    } else {
      x = x + 1
    }
  }
  best w in items(bag) by w.weight tie first
  if w != none {
    move w to pile
  }
  if x > 100 {
    end game
  }
}
"""


def program(monkeypatch, text: str = RULES):
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    src = SourceSet(base=parse(text, "passes.meeple"), sources={"passes.meeple": text})
    return compile_sources(src).for_players(2)


def bodies(prog) -> dict:
    c = prog.checked
    out = {name: p.body for name, p in c.procedures.items()}
    out.update({name: d.body for name, d in (("setup", c.setup), ("turn", c.turn)) if d is not None})
    return out


def fused_at(proc) -> dict:
    """By index, the code of each fused run (its bytecode, names and constants)."""
    return {k: (f.__code__.co_code, f.__code__.co_names, f.__code__.co_consts)
            for k, f in enumerate(proc.code) if getattr(f, "__name__", "").startswith("FUSED_")}


def same_structure(b: ir.Block, got: blocks.Block, code: list) -> None:
    """The block recovered from the instructions is the IR's, statement for statement."""
    stmts = iter(got.stmts)
    for s in b.stmts:
        st = next(stmts)
        if s.node == "If":
            assert isinstance(code[st.start], ops.Branch) and len(st.tests) == len(s.branches)
            for (_, body), t in zip(s.branches, st.tests, strict=True):
                same_structure(body, t.body, code)
            if s.other is not None and s.other.stmts:
                same_structure(s.other, st.other, code)
            else:
                assert st.other is None
        elif s.node in ("For", "While"):
            assert isinstance(code[st.start], (ops.ForInit, ops.WhileInit))
            same_structure(s.body, st.body, code)
        else:
            assert st.end == st.start + 1 and not st.blocks()
            if isinstance(code[st.start], ops.Call) and code[st.start].fresh:
                st = next(stmts)  # (its StoreResult)
                assert isinstance(code[st.start], ops.StoreResult)
    assert next(stmts, None) is None


def test_the_structure_recovered_from_the_instructions_is_the_statements(monkeypatch):
    prog = program(monkeypatch)
    for name, body in bodies(prog).items():
        code = prog.procs[name].core
        got = blocks.structure(code)
        assert (got.start, got.end) == (0, len(code))
        same_structure(body, got, code)


def test_fusing_the_instructions_alone_fuses_the_same_runs_into_the_same_code(monkeypatch):
    want = {name: fused_at(p) for name, p in program(monkeypatch).procs.items()}
    assert sum(len(v) for v in want.values()) >= 8

    real = fused.fuse

    def alone(prog, pc):
        # copies of the instructions, nothing of the IR's statements, no walk of them,
        # and no text it wrote read again (neither parsed nor matched)
        code = [dataclasses.replace(i) for i in pc.code]
        with pytest.MonkeyPatch.context() as m:
            m.setattr(ir, "walk", None)
            m.setattr(fused, "ast", None, raising=False)
            m.setattr(fused, "re", None, raising=False)
            real(prog, compile_procs.FuseInput(pc.proc, code, pc.made))

    monkeypatch.setattr(fused, "fuse", alone)
    got = {name: fused_at(p) for name, p in program(monkeypatch).procs.items()}
    assert got == want


def test_an_elif_is_fused_as_a_test_of_its_if_and_an_if_in_an_else_as_a_statement(monkeypatch):
    """Both lower to the same instructions but for their spans: after a test that asks,
    an ``elif``'s body is a run closed by its jump; an ``if`` alone in an ``else`` is
    one run from its test."""
    turn = ("turn {\n  if x > 3 {\n    choose a from [1, 2] as \"pick\"\n  } %s x > 1 {\n"
            "    x = x + 1\n    y = y + 2\n  }%s\n}\n")
    chained = program(monkeypatch, HEAD + turn % ("elif", "")).procs["turn"]
    nested = program(monkeypatch, HEAD + turn % ("else {\n  if", "\n  }")).procs["turn"]
    assert [type(i) for i in chained.core] == [type(i) for i in nested.core]
    # Branch 0, Ask 1, Jump 2, Branch 3, SetGlobal 4, SetGlobal 5, Jump 6
    assert list(fused_at(chained)) == [4]
    assert list(fused_at(nested)) == [3]
