"""Loop invariance, found once by the core (interpreter/core/hoist.py, ``prog.facts``):
the loops of an expression around each of its parts, and which of them its value
changes with. The kernel's C++ keeps a call's value for the turns of the loops around it
exactly where the pass says it reads none of them (native/kernel_memo.py), and the
functions worth keeping per position (core/memo.py) are found from the same table."""
from __future__ import annotations

from meeple.dsl import ast as ir
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

RULES = """ruleset hoist
players 2..2
kind Stone { }
board b: grid(rows: 3, cols: 4) holds Stone
relation beside(x: b, y: b) = abs(x.row - y.row) + abs(x.col - y.col) == 1
var big: int = 1
function lim(n: int): int = count(x for x in cells(b) if x.row == n)
function reach(c: b): int = count(x for x in beside(c))
function edge(n: int): int = count(x for x in cells(b) if x.col == n)
function step(c: b): int = count(x for x in beside(c) if x.row > 0)
function pairs(k: int): int = sum(lim(k) + count(y for y in beside(c) if reach(y) > lim(c.row)) for c in cells(b))
function later(k: int): int = count(d for c in cells(b) for d in beside(c) if lim(k) > c.col)
function shadow(k: int): list of int = [lim(count(c for c in cells(b) if c.row == k)) for c in cells(b)]
turn {
  big = sum(edge(big) + step(c) for c in cells(b)) + pairs(big) + later(1) + size(shadow(0))
}
end when big != 0
"""


def program():
    src = SourceSet(base=parse(RULES, "hoist.meeple"), sources={"hoist.meeple": RULES})
    return compile_sources(src).for_players(2)


def _calls(body, func: str) -> list:
    return [n for n in ir.walk(body) if n.node == "Call" and n.func == func]


def _vars(loops) -> list[str]:
    return sorted(loop.var for loop in loops)


def test_the_loops_around_an_expression_and_those_it_reads():
    prog = program()
    f, fs = prog.facts, prog.checked.functions
    outer, inner = _calls(fs["pairs"].body, "lim")     # lim(k) in the loop over c; lim(c.row) in the one over y
    reach = _calls(fs["pairs"].body, "reach")[0]       # reach(y)
    assert _vars(f.loops_around(outer)) == ["c"] and _vars(f.loops_read(outer)) == []
    assert f.invariant(outer)                           # the same k at every turn
    assert _vars(f.loops_around(inner)) == ["c", "y"] and _vars(f.loops_read(inner)) == ["c"]
    assert not f.invariant(inner)                       # changes with c (not with y)
    assert _vars(f.loops_read(reach)) == ["y"] and not f.invariant(reach)
    # the first clause's list is evaluated once, before the turns; a later one's at each
    # turn of the clauses before it
    later = fs["later"].body.comp
    assert f.loops_around(later.clauses[0].iter) == ()
    assert _vars(f.loops_around(later.clauses[1].iter)) == ["c"]
    assert _vars(f.loops_read(later.clauses[1].iter)) == ["c"]
    assert f.invariant(_calls(fs["later"].body, "lim")[0])
    # a name is the innermost variable of its name: the c counted inside the argument is
    # that count's own, not the loop's around the call
    kept = _calls(fs["shadow"].body, "lim")[0]
    assert _vars(f.loops_around(kept)) == ["c"] and f.invariant(kept)
    assert not f.invariant(fs["pairs"].body)            # (in no loop: nothing to keep it for)


def test_the_kernel_keeps_for_the_turns_exactly_the_calls_that_read_no_loop():
    prog = program()
    f = prog.facts
    # edge(big) in the turn's loop reads none of it; step(c) reads it, once per cell;
    # neither is called over and over otherwise (memo.py), as lim(c.row) is
    turn = [n for n in ir.walk(prog.checked.turn) if n.node == "Call" and n.func in ("edge", "step")]
    assert [f.invariant(n) for n in turn] == [True, False]
    assert not f.memoised("edge") and not f.memoised("step") and f.memoised("lim")
    source = kernel.Gen(prog).source()
    assert "uK_edge(s" in source and "uK_step(s" not in source and "uF_step(s" in source
