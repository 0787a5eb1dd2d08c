"""Every built-in function is declared once, in dsl/builtins.py: the checker's type rules
and the compiler's code cover exactly the names of that table (no more, no fewer), the
aggregates too. (What each one does is tested by the examples of docs/language.md §8.)"""
from __future__ import annotations

import ast
import inspect
import textwrap

from meeple.dsl import builtins, check
from meeple.interpreter import codegen


def _method(cls, name: str) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(inspect.getsource(getattr(cls, name)))).body[0]


def _case_names(fn: ast.FunctionDef) -> set[str]:
    """The string patterns of the cases of a function's match statements."""
    out = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.match_case):
            out |= {p.value.value for p in ast.walk(node.pattern)
                    if isinstance(p, ast.MatchValue) and isinstance(p.value, ast.Constant)}
    return out


def _compared_names(fn: ast.FunctionDef) -> set[str]:
    """The strings a function compares ``f`` with (``f == "sum"``, ``f in ("any", ...)``)."""
    return {c.value for node in ast.walk(fn) if isinstance(node, ast.Compare)
            for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)}


def test_the_checker_types_exactly_the_declared_builtins():
    assert _case_names(_method(check.Checker, "_call_builtin")) == set(builtins.BUILTINS)
    assert {n: b.arities for n, b in builtins.BUILTINS.items()} == check.BUILTINS
    assert set(builtins.AGGREGATES) == check.AGGREGATES
    assert set(check.CONSTANTS) == set(builtins.CONSTANTS)


def test_the_compiler_compiles_exactly_the_declared_builtins():
    assert _case_names(_method(codegen.ExprCompiler, "_builtin")) == set(builtins.BUILTINS)


def test_the_compiler_compiles_every_declared_aggregate():
    # _aggregate ends with `last`, the one left when no comparison matched
    compared = _compared_names(_method(codegen.ExprCompiler, "_aggregate"))
    assert compared | {"last"} == set(builtins.AGGREGATES)


def test_every_declared_builtin_has_arities_and_a_result():
    for b in builtins.BUILTINS.values():
        assert b.arities and all(0 <= n <= 2 for n in b.arities) and b.result, b.name
