"""The rule functions written in place of their calls, found once by the core
(interpreter/core/inline.py: ``prog.facts.inlined``) and read by the Python printer
(compiler/codegen.py): small bodies that bind no variable and count no calls, in the
fast code also those that use a parameter twice, none whose full expansion is too big;
the code of a caller calls the others; the bodies the fast code's statement form writes
in place of their calls (``prog.facts.spliceable``)."""
from __future__ import annotations

import dataclasses

import pytest
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.core import inline, primitives

RULES = """ruleset inline
players 2..2
kind Card { v: int }
zone pile: Card
deck cards into pile { Card(v: v) for v in 1..6 }
var n: int = 0
function small(x: int): int = x + 1
function square(x: int): int = x * x
function twice(x: int): int = small(x) * 2
function looped(k: int): int = count(i for i in 1..k if i > 1)
function down(k: int): int = if k <= 0 then 0 else down(k - 1)
function h0(x: int): int = x + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9
function h1(x: int): int = h0(x) + h0(x + 1)
function h2(x: int): int = h1(x) + h1(x + 1)
function h3(x: int): int = h2(x) + h2(x + 1)
function h4(x: int): int = h3(x) + h3(x + 1)
function above(k: int): int = count(x for x in items(pile) if x.v > k)
function user(): int = sum(above(i) for i in 1..3)
function caller(k: int): int = twice(k) + square(k) + looped(k) + down(k) + h1(k) + h4(k)
function both(t: str): str = t + t
function lit(): int = square(-3)
function glob(): int = square(n)
function local(k: int): int = square(k)
function counted(): int = square(player_count())
function plain_text(): str = both("ab c")
function dashed(): str = both("a-b")
function sized(): int = size(pile) + 1
function bumped(k: int): int = k + 1
function sized_twice(): int = sized() + sized()
function bumped_twice(k: int): int = bumped(k) + bumped(k)
function far(a: int, b: int): int = abs(a - b)
function worth(c: Card): int = c.v * 3 + c.v
function top_worth(): int = top(pile).v * 3 + top(pile).v
turn {
  n = n + caller(n % 3) + user()
}
end when n > 1000
"""


def program():
    src = SourceSet(base=parse(RULES, "inline.meeple"), sources={"inline.meeple": RULES})
    return compile_sources(src).for_players(2)


def called(fn) -> set[str]:
    """The rule functions a generated function calls (``F_name``, ``PF_name`` in the
    straightforward code, among its globals)."""
    out, codes = set(), [fn.__code__]
    while codes:   # (a comprehension's code is a code of its own)
        code = codes.pop()
        out |= {n.partition("F_")[2] for n in code.co_names if n.startswith(("F_", "PF_"))}
        codes += [k for k in code.co_consts if hasattr(k, "co_names")]
    return out


def test_which_functions_are_written_in_place():
    prog = program()
    fast, plain = prog.facts.inlined(True), prog.facts.inlined(False)
    # small, no variable bound, no call counted: both kinds of code
    assert {"small", "twice"} <= plain.names and {"small", "twice", "h0", "h1"} <= fast.names
    assert plain.sizes["twice"] == plain.sizes["small"] + 3   # (its call written out, and * x 2)
    # a parameter used twice: the fast code alone, where the argument is simple
    assert "square" in fast.names and "square" not in plain.names and "h1" not in plain.names
    # more nodes than the straightforward code writes in place (19)
    assert "h0" not in plain.names
    assert fast.repeated["square"] == {"x"} and fast.repeated["small"] == set()
    # a loop binds a variable; a function that calls itself counts its calls
    assert "looped" not in fast.names and "down" not in fast.names
    # h4 written out in full is too big: called (h3 is not)
    assert fast.sizes["h3"] < inline.EXPANDED_MAX and "h4" not in fast.names
    assert fast.sizes["h1"] == 2 * fast.sizes["h0"] + 5   # (h1's own nodes, its calls written out)
    assert "caller" not in fast.names   # (more than FAST nodes)


def test_the_python_printer_reads_the_core_s_pass(monkeypatch):
    prog = program()
    assert called(prog.ns["F_caller"]) == {"looped", "down", "h4"}   # the fast code
    assert called(prog.ns["PF_caller"]) == {"square", "looped", "down", "h1", "h4"}   # straightforward
    none = inline.Inlined(frozenset(), {}, {})
    monkeypatch.setattr(type(prog.facts), "inlined", lambda self, fast: none)
    prog = program()
    assert called(prog.ns["F_caller"]) == called(prog.ns["PF_caller"]) == \
        {"twice", "square", "looped", "down", "h1", "h4"}


def test_the_bodies_the_statement_form_writes_in_place(monkeypatch):
    prog = program()
    spliceable = prog.facts.spliceable
    # a loop or a call, small, counting no calls, not an expression written in place
    assert {"above", "user", "h4", "looped"} <= spliceable
    assert not {"small", "twice", "h1", "down"} & spliceable
    assert "caller" in prog.facts.counts_calls and "caller" not in spliceable   # (h4's 31 calls and more)
    # the printer leaves out those whose values it keeps by arguments (looped reads no state)
    assert called(prog.ns["F_user"]) == set() and called(prog.ns["PF_user"]) == {"above"}
    monkeypatch.setattr(type(prog.facts), "spliceable", frozenset())
    assert called(program().ns["F_user"]) == {"above"}


def test_an_argument_written_twice_is_one_the_core_says_may_be(monkeypatch):
    # square(x) = x * x uses x twice: the fast code writes it in place where the argument
    # may be evaluated again at no cost (core/inline.py, simple_arg: a number, a plain
    # text, the number of players; a name bound where it is read is the printer's), and
    # calls it where the argument is a global variable or a text of other characters
    prog = program()
    arg = {name: prog.checked.functions[name].body.args[0] for name in ("lit", "glob", "counted", "plain_text", "dashed")}
    assert [name for name, a in arg.items() if prog.facts.simple_arg(a)] == ["lit", "counted", "plain_text"]
    assert called(prog.ns["F_lit"]) == called(prog.ns["F_local"]) == called(prog.ns["F_counted"]) == set()
    assert called(prog.ns["F_glob"]) == {"square"} and called(prog.ns["F_dashed"]) == {"both"}
    assert called(prog.ns["F_plain_text"]) == set()
    # the printer reads the core's rule (for a name it binds, its own)
    monkeypatch.setattr(type(prog.facts), "simple_arg", lambda self, e: False)
    prog = program()
    assert called(prog.ns["F_lit"]) == called(prog.ns["F_counted"]) == {"square"}
    assert called(prog.ns["F_local"]) == set()


def kept(fn) -> set[str]:
    """The names of the values a generated function computes once (``once_N``)."""
    return {n for n in fn.__code__.co_varnames if n.startswith("once_")}


def test_a_body_written_in_place_is_kept_where_its_code_calls(monkeypatch):
    # sized() + sized(): the body's code calls (len(...): size's Python form calls, as
    # primitives.py says), so its value is computed once and named; bumped(k) + bumped(k):
    # k + 1 calls nothing, and is written twice
    prog = program()
    assert called(prog.ns["F_sized_twice"]) == called(prog.ns["F_bumped_twice"]) == set()
    assert len(kept(prog.ns["F_sized_twice"])) == 1 and kept(prog.ns["F_bumped_twice"]) == set()
    body = prog.checked.functions["sized"].body
    assert prog.facts.python_calls(body, lambda n: None)
    assert not prog.facts.python_calls(prog.checked.functions["bumped"].body, lambda n: None)
    # the printer reads the fact of the table, not the text it wrote
    monkeypatch.setitem(primitives.PRIMITIVES, "size", dataclasses.replace(primitives.PRIMITIVES["size"], calls=False))
    prog = program()
    assert kept(prog.ns["F_sized_twice"]) == set()
    assert not prog.facts.python_calls(body, lambda n: None)


def test_an_attribute_of_a_name_is_read_in_place(monkeypatch):
    # c.v twice: an attribute of a parameter (a name) is read where it is used; of a
    # value computed (top(pile)), it is computed once and named (ExprCompiler._bare)
    prog = program()
    assert kept(prog.ns["F_worth"]) == set() and len(kept(prog.ns["F_top_worth"])) >= 1


def test_a_function_that_does_work_is_kept_by_its_arguments(monkeypatch):
    # far and bumped read nothing of the state; far's code calls (abs(...)), so its
    # values are kept for the whole program (KEPT_far), bumped's (k + 1) are not: as
    # the table of primitives says (ExprCompiler.does_work), not the text
    prog = program()
    assert "KEPT_far" in prog.ns and "KEPT_bumped" not in prog.ns
    monkeypatch.setitem(primitives.PRIMITIVES, "abs", dataclasses.replace(primitives.PRIMITIVES["abs"], calls=False))
    assert "KEPT_far" not in program().ns


UNUSED = """ruleset unused
players 2..2
kind Card { v: int }
zone pile: Card
deck cards into pile { Card(v: v) for v in 1..6 }
var n: int = 0
function pick(a: int, b: int): int = a
function either(a: bool, b: int): int = if a then b else 0
function flag(k: int): bool = k > 0 and k < 9
function pass_on(a: int, b: int): int = pick(a, b + 1)
function pass_div(a: int, b: int): int = pick(a, b / 2)
function other(k: int): int = if k == 1 then 2 else 1
function u_div(k: int): int = pick(1, 10 / k)
function u_other(k: int): int = pick(1, other(k))
function u_attr(c: Card): int = pick(1, c.v)
function u_if(k: int): int = either(k > 0, k + 1)
function u_index(k: int): int = either(k > 0, [1, 2][k])
turn {
  n = n + u_div(n) + u_other(n) + u_attr(top(pile)) + u_if(n) + u_index(0)
}
end when n > 10
"""


def test_a_call_written_in_place_evaluates_an_argument_its_body_may_not(monkeypatch):
    # a call evaluates its arguments: one the body may leave unevaluated (never read, read
    # in a branch of 'if' or on the right of 'and') is left out only where it cannot
    # fail and counts nothing (core/inline.py: evaluated, harmless, must_evaluate);
    # else the printers call the function
    def prog():
        src = SourceSet(base=parse(UNUSED, "unused.meeple"), sources={"unused.meeple": UNUSED})
        return compile_sources(src).for_players(2)
    p = prog()
    facts, fs = p.facts, p.checked.functions
    for fast in (False, True):
        assert {n: facts.evaluated(n, fast) for n in ("pick", "either", "flag", "pass_on", "pass_div")} == {
            "pick": {"a"}, "either": {"a"}, "flag": {"k"}, "pass_on": {"a"}, "pass_div": {"a", "b"}}
        assert {n: facts.must_evaluate(fs[n].body, fast) for n in ("u_div", "u_other", "u_attr", "u_if", "u_index")} \
            == {"u_div": [1], "u_other": [], "u_attr": [1], "u_if": [], "u_index": [1]}
    assert facts.harmless(fs["other"].body) and not facts.harmless(fs["u_attr"].body)
    for prefix in ("F_", "PF_"):   # the fast code, the straightforward code
        assert {n for n in ("u_div", "u_other", "u_attr", "u_if", "u_index") if called(p.ns[prefix + n])} == {
            "u_div", "u_attr", "u_index"}
        assert p.ns[prefix + "u_div"](None, 5) == 1   # (R unread)
        with pytest.raises(RuleError, match="division by zero"):   # (10 / k evaluated by the call)
            p.ns[prefix + "u_div"](None, 0)
    # the printers read the core's rule
    monkeypatch.setattr(type(facts), "must_evaluate", lambda self, e, fast: [])
    p = prog()
    assert not any(called(p.ns[prefix + n]) for prefix in ("F_", "PF_") for n in ("u_div", "u_attr", "u_index"))
