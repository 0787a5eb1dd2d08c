"""What the fast code's printer says of the texts it writes (codegen_base.Code): a name
or a constant as a whole, its kind said where the text is written and never read back
from it. Every Code made while compiling each bundled ruleset is what its kind says,
as Python's own parser reads the text; the printer's wrappers keep or drop the kind
as they must."""
from __future__ import annotations

import ast
import copy
import pickle

import pytest
from meeple.dsl.load import bundled_names
from meeple.interpreter import load
from meeple.interpreter.compiler import codegen, codegen_base, codegen_text, compile_functions
from meeple.interpreter.compiler.codegen_base import (
    Code,
    ForLine,
    dedented,
    in_parens,
    indented,
    int_value,
    is_name,
    is_simple,
    negated,
    same_value,
)


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _local(node: ast.expr) -> bool:
    return isinstance(node, ast.Subscript) and _name(node.value) == "L" \
        and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)


def _number(node: ast.expr, ref) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, ref = node.operand, -ref
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == ref


def _const(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return _name(node.value) == "R" and node.attr in ("active", "n_players")
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


# what the parsed text of a Code of each kind is (parentheses removed)
_KINDS = {
    "param": lambda node, ref: _name(node) == f"v_{ref}",
    "loop": lambda node, ref: (_name(node) or "").startswith(f"w{ref}_"),
    "kept": lambda node, ref: _name(node) == ref and ref.startswith(("once_", "lazy_")),
    "temp": lambda node, ref: _name(node) == ref and ref.startswith("s_"),
    "local": lambda node, ref: _local(node) and node.slice.value == ref,
    "int": _number,
    "word": lambda node, ref: isinstance(node, ast.Constant) and node.value in (True, False, None)
    and type(node.value) is not int,
    "const": lambda node, ref: _const(node),
    "table": lambda node, ref: _name(node) is not None,
}


@pytest.mark.parametrize("name", bundled_names())
def test_every_code_is_what_it_says(monkeypatch, name):
    made: list[Code] = []
    monkeypatch.setattr(Code, "__init__", lambda self, *args, **kwargs: made.append(self))
    load(name, cache=False)
    assert len({c.kind for c in made}) >= 5   # (the printer wrote names and constants)
    for code in made:
        p = code.parens
        assert code.startswith("(" * p) and code.endswith(")" * p) and code[p:len(code) - p] == code.bare, code
        assert _KINDS[code.kind](ast.parse(code, mode="eval").body, code.ref), (code, code.kind, code.ref)


def _reads_r(lines: list[str], body: str) -> bool:
    code = "".join(f"    {line}\n" for line in lines) + f"    return {body}\n"
    tree = ast.parse(f"def f(R):\n{code}")
    return any(isinstance(n, ast.Name) and n.id == "R" for n in ast.walk(tree))


@pytest.mark.parametrize("name", bundled_names())
def test_a_function_reads_r_where_the_printer_says(monkeypatch, name):
    # (compile_functions tables and keeps functions by the printer's note, never by
    # reading their text: Python's parser reads the text here)
    seen: dict[str, tuple[bool, bool]] = {}
    define = compile_functions.FunctionCompiler._function_def

    def noted(self, fname, lines, body, *args):
        if self.p.optimize and self.p._fast_ready:
            seen[fname] = (self.reads_r[fname], _reads_r(lines, body))
        return define(self, fname, lines, body, *args)
    monkeypatch.setattr(compile_functions.FunctionCompiler, "_function_def", noted)
    load(name, cache=False)
    assert seen and any(said for said, _ in seen.values())
    assert all(said == read for said, read in seen.values()), {k: v for k, v in seen.items() if v[0] != v[1]}


def _gives_r(lines: list[str]) -> bool:
    code = "".join(f"    {line}\n" for line in lines)
    tree = ast.parse(f"def f(R):\n{code}")
    return any(isinstance(n, ast.Lambda) or (isinstance(n, ast.Call) and _name(n.func) != "_out_of_work"
               and any(_name(a) == "R" for a in n.args)) for n in ast.walk(tree))


def test_statements_give_r_to_a_function_where_the_printer_says(monkeypatch):
    # (the statement form counts the work budget in a local name only where it gives R
    # to no function, codegen_text.localize, as the printer noted: ExprCompiler.gave_r)
    seen: list[tuple[bool, bool]] = []
    localize = codegen.localize

    def noted(out, text, gives_r):
        seen.append((gives_r, _gives_r([*out, f"v_ = {text}"])))
        return localize(out, text, gives_r)
    monkeypatch.setattr(codegen, "localize", noted)
    for name in ("go", "chess", "brotherhood-of-nine", "clans-and-glory"):
        load(name, cache=False)
    assert {said for said, _ in seen} == {True, False}
    assert all(said == gives for said, gives in seen), seen.count((True, False))


def test_a_for_line_says_what_it_walks(monkeypatch):
    # (tabulate_tops estimates a loop's turns from what its for line walks, as the
    # printer said where it wrote it: Python's parser reads the line here)
    seen: list[str] = []
    turns = codegen_text._turns

    def noted(out, size):
        seen.extend(line for line in out if line.lstrip().startswith("for "))
        return turns(out, size)
    monkeypatch.setattr(codegen_text, "_turns", noted)
    for name in ("go", "brotherhood-of-nine", "clans-and-glory"):
        load(name, cache=False)
    assert len(seen) > 20
    for line in seen:
        assert isinstance(line, ForLine), line
        loop = ast.parse(line.strip() + " pass").body[0]
        assert ast.dump(loop.iter) == ast.dump(ast.parse(line.walks, mode="eval").body), line
    loop = ForLine("for v_x in BOARD_g:", "BOARD_g")
    for again in (indented("    ", loop), dedented(indented("    ", indented("    ", loop))),
                  copy.deepcopy(loop), pickle.loads(pickle.dumps(loop))):  # noqa: S301 - its own bytes
        assert isinstance(again, ForLine) and again.walks == "BOARD_g" and again.strip() == loop
    assert type(indented("  ", "x = 1")) is str


def test_wrappers_keep_what_a_text_is():
    v = Code("v_x", "param", "x")
    assert in_parens(v) == "(v_x)" and is_simple(in_parens(v)) and not is_name(in_parens(v))
    assert in_parens(v).bare == "v_x" and is_name(v)
    assert int_value(negated(Code("3", "int", 3))) == -3 and negated(Code("3", "int", 3)).bare == "-3"
    assert int_value(negated(in_parens(Code("3", "int", 3)))) is None   # "(-(3))" is not a number's text
    assert not is_simple(negated(v)) and not is_simple("(v_x + 1)")
    assert not is_simple(Code("CONST_xs", "table")) and is_name(Code("CONST_xs", "table"))
    for again in (copy.deepcopy(in_parens(v)), pickle.loads(pickle.dumps(in_parens(v)))):  # noqa: S301 - its own bytes
        assert again == "(v_x)" and (again.kind, again.ref, again.parens, again.bare) == ("param", "x", 1, "v_x")
    assert codegen_base.named_index(Code("L['i']", "local")) and not codegen_base.named_index(Code("once_1", "kept", "once_1"))


def test_the_same_value_is_told_by_what_the_printer_said():
    v = Code("v_x", "param", "x")
    assert same_value(v, Code("v_x", "param", "x")) and same_value(in_parens(v), in_parens(v))
    assert not same_value(v, Code("v_y", "param", "y")) and not same_value(v, in_parens(v))
    assert same_value(Code("L['c']", "local", "c"), Code("L['c']", "local", "c"))
    assert not same_value(Code("L['c']", "local", "c"), Code("L['d']", "local", "d"))
    assert same_value(Code("w3_x", "loop", 3), Code("w3_x", "loop", 3))
    assert not same_value(Code("w3_x", "loop", 3), Code("w4_x", "loop", 4))
    # a table's name may be a list that each evaluation makes; a plain str is no value told
    assert not same_value(Code("CONST_c", "table"), Code("CONST_c", "table"))
    assert not same_value("(v_x + 1)", "(v_x + 1)")
