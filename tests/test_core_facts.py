"""What the printers know of a program's expressions, found once by the core
(interpreter/core/facts.py, bounds.py, orderfree.py: ``prog.facts``) and asked by both the
fast Python code (compiler/codegen*.py) and the kernel's C++ (native/kernel.py): the calls
between rule functions, loops and the work they count, lists read from static tables,
order-freedom, integer ranges and text bounds. The kernel writes a product known to be
within the integer budget without the helper that checks it, as the fast code does."""
from __future__ import annotations

import re

from meeple.dsl import ast as ir
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import kernel

RULES = """ruleset facts
players 2..2
kind Stone { }
board b: grid(rows: 3, cols: 4) holds Stone
relation beside(x: b, y: b) = abs(x.row - y.row) + abs(x.col - y.col) == 1
var big: int = 1
function odd(n: int): bool = if n == 0 then false else even(n - 1)
function even(n: int): bool = if n == 0 then true else odd(n - 1)
function twice(c: b): int = 2 * c.row + 3
function grow(k: int): int = k * k
function many(c: b): int = count(x for x in beside(c))
function uses(c: b): int = many(c) + twice(c)
function spread(xs: list of b): int = size(distinct(xs))
function label(c: b): str = c.name + "!"
function near(c: b): list of b = beside(c) + [c]
function next_to(x: b, y: b): bool = beside(x, y)
turn {
  big = grow(big) + uses(cells(b)[0]) + spread(cells(b))
  if label(cells(b)[1]) == "x" { big = 0 }
  if odd(3) and size(near(cells(b)[2])) > 0 { big = big + 1 }
}
end when big != 0
"""


def program():
    src = SourceSet(base=parse(RULES, "facts.meeple"), sources={"facts.meeple": RULES})
    return compile_sources(src).for_players(2)


def test_the_calls_between_functions_are_found_once_for_every_printer():
    prog = program()
    f = prog.facts
    assert f.calls["uses"] == ["many", "twice"] and f.calls["twice"] == []
    assert f.recursive == {"odd", "even"}
    assert f.calling == {"odd", "even", "uses"}
    assert f.reach("uses") == {"uses", "many", "twice"}
    assert f.loops("many") and not f.loops("uses") and not f.loops("twice")


def test_the_functions_that_count_their_calls_are_said_once_for_every_engine():
    # the recursive ones, and those of which one evaluation may make more than 32 calls
    # of functions that do not count theirs, each call of a body once (f1: 3, f4: 31,
    # f5: 63; top: 1, f5 counting its own); an expression that calls one, or a function
    # that may, counts calls, and no other
    fs = "\n".join(["function f0(n: int): int = n % 7"] +
                   [f"function f{i}(n: int): int = f{i - 1}(n) + f{i - 1}(n + 1)" for i in range(1, 6)])
    text = RULES.replace("turn {", fs + "\nfunction top(n: int): int = f5(n) + 1\n"
                         "function loop(n: int): int = sum(f4(k) for k in 1..n)\nturn {", 1)
    src = SourceSet(base=parse(text, "facts.meeple"), sources={"facts.meeple": text})
    prog = compile_sources(src).for_players(2)
    f, body = prog.facts, {n: d.body for n, d in prog.checked.functions.items()}
    assert f.counts_calls == {"odd", "even", "f5"}   # (loop: f4 once, 32 calls)
    assert f.counts_calls_within("top") and not f.counts_calls_within("loop")
    assert f.counts_any(body["top"].left) and f.counts_any(body["uses"])   # f5; many loops
    assert not f.counts_any(body["f5"].left) and not f.counts_any(body["twice"])


def test_work_counted_and_lists_from_static_tables():
    prog = program()
    f, fs = prog.facts, prog.checked.functions
    near = fs["near"].body                     # beside(c) + [c]: lists joined
    assert f.counts_work(near) and f.counted(near)
    assert f.counted(near.right) and not f.counted(near.left)   # a literal; a relation's row
    assert f.table_list(near.left) == ("relation", "beside")
    label = fs["label"].body                   # texts joined: counted work, no iterable
    assert f.counts_work(label) and not f.counted(label)
    many = fs["many"].body
    assert f.table_list(many.comp.clauses[0].iter) == ("relation", "beside")
    cells = fs["uses"].body                    # (no table: a call of a function)
    assert f.table_list(cells.left) is None


def test_what_a_call_calls_is_said_once_for_both_printers():
    prog = program()
    f, fs = prog.facts, prog.checked.functions
    assert f.call_kind(fs["next_to"].body) == "pair"         # beside(x, y): a test
    assert f.call_kind(fs["near"].body.left) == "row"         # beside(c): the related cells
    assert f.call_kind(fs["uses"].body.left) == "function"    # many(c)
    assert f.call_kind(fs["spread"].body) == "builtin"        # size(...)


def test_order_freedom_from_the_table_of_built_ins():
    prog = program()
    f, fs = prog.facts, prog.checked.functions
    spread = fs["spread"].body                 # size(distinct(xs)): the order of xs never matters
    assert f.order_free_arg(spread, 0, False)
    assert f.order_free_arg(spread.args[0], 0, True)        # distinct: the same elements
    assert not f.order_free_arg(spread.args[0], 0, False)   # ... in another order
    call = next(n for n in ir.walk(prog.checked.turn.body) if n.node == "Call" and n.func == "spread")
    assert f.order_free_arg(call, 0, False)                  # spread(cells(b))
    assert not f.order_free_arg(call.args[0], 0, False)      # cells(b): a built-in's own order


def test_integer_ranges_and_text_bounds():
    prog = program()
    f, fs = prog.facts, prog.checked.functions
    assert f.int_range(fs["twice"].body) == (5, 9)          # rows 1..3
    assert f.within(fs["twice"].body.left, 6) and not f.within(fs["twice"].body.left, 5)
    assert f.int_range(fs["grow"].body) is None              # k is not known
    assert f.int_range(fs["grow"].body, {"k": (-2, 3)}) == (-6, 9)
    assert f.text_bound(fs["label"].body) == max(len(n) for n in prog.ns["CELL_NAME"] if n) + 1


def test_the_kernel_writes_a_product_known_within_the_budget_plainly():
    source = kernel.Gen(program()).source()
    twice = re.search(r"static (?:inline )?I uF_twice\([^;{]*\{[^}]*", source).group(0)
    grow = re.search(r"static (?:inline )?I uF_grow\([^;{]*\{[^}]*", source).group(0)
    assert "mul(" not in twice and "* " in twice             # 2 * c.row: within the budget
    assert "mul(" in grow                                    # k * k: checked
