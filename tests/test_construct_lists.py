"""No list of the language's constructs is kept by hand outside their tables (issue 35:
each construct defined once). The constructs and their tables: the operators
(dsl/operators.py, interpreter/core/operators.py), the built-ins, aggregates, closures,
forms and constants (dsl/builtins.py, interpreter/core/primitives.py), the kinds of
expression and of statement (dsl/ast.py's ``Expr`` and ``Stmt``) and the instructions
of the lowered core (interpreter/core/ops.py ``KINDS``).

A list, tuple, set or dict of the names of several constructs of one kind written out
in dsl/, interpreter/, cli/, meeple/, web/ or tools/ (``e.op in ("+", "-")``, ``case
"IntLit" | "Var"``) is either derived from a table instead, or a deliberate subset
(a pass that handles only some constructs, the others taking the general way) named
in ``DECIDED`` below with why. A list the scan finds that is not named there fails
(derive it from the table, or decide it here); and a construct added to a table fails
until every decided list of its kind has been looked at again (``SEEN``: the
constructs each decision was made knowing of) - no construct is added without a
decision in each place that picks some of its kind. Not a built-in: its forms in the
table are every engine's way to compute it, and a pass that picks some built-ins is an
optimisation a new one need not join, so adding a built-in stays two files and its test
(README.md, Contributing)."""
from __future__ import annotations

import ast
import typing
from collections import Counter
from pathlib import Path

from meeple.dsl import ast as ir, builtins, operators as language
from meeple.interpreter.core import ops

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("dsl", "interpreter", "cli", "meeple", "web", "tools")


def _kinds(union) -> set[str]:
    return {cls.__name__ for cls in typing.get_args(typing.get_args(union)[0])}


def vocabularies() -> dict[str, set[str]]:
    """The names of each kind of construct, from their tables."""
    return {
        "operator": {op.symbol for op in language.OPERATORS.values() if op.node != "CondExpr"},
        "builtin": {*builtins.BUILTINS, *builtins.CLOSURES, *builtins.FORMS, *builtins.CONSTANTS},
        "expression": _kinds(ir.Expr),
        "statement": _kinds(ir.Stmt),
        "instruction": {k.__name__ for k in ops.KINDS},
    }


def _strings(n: ast.AST) -> list[str] | None:
    """The strings a literal collection or an or-pattern names, where it names nothing else."""
    if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
        parts = n.elts
    elif isinstance(n, ast.Dict):
        parts = [k for k in n.keys if k is not None]
    elif isinstance(n, ast.MatchOr):
        parts = [p.value for p in n.patterns if isinstance(p, ast.MatchValue)]
        if len(parts) != len(n.patterns):
            return None
    else:
        return None
    if not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in parts):
        return None
    return [p.value for p in parts]


def hand_lists(text: str, vocabularies: dict[str, set[str]]) -> list[tuple[str, tuple[str, ...]]]:
    """The lists of the Python source ``text`` that name two constructs or more of one
    kind and nothing else: (the kind, the names sorted)."""
    found = []
    for n in ast.walk(ast.parse(text)):
        names = _strings(n)
        if names is None or len(set(names)) < 2:
            continue
        for kind, known in vocabularies.items():
            if set(names) <= known:
                found.append((kind, tuple(sorted(set(names)))))
    return found


def found_lists() -> Counter:
    """Every such list in the project's code, as (its file, kind, names), counted."""
    kinds = vocabularies()
    found: Counter = Counter()
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for kind, names in hand_lists(path.read_text(encoding="utf-8"), kinds):
                found[rel, kind, names] += 1
    return found


# ------------------------------------------------------------------ the decisions
# Why a list names only these constructs of its kind (each one looked at once more
# whenever a construct of its kind is added to a table):
TABLE = "the table itself, or a fact of it checked with it (core/primitives.py KERNEL_GAPS)"
JSON = "not the built-ins: the keys of a JSON report (a run's first and last seed)"
CHECK = "a rule of the checker about these constructs alone (its message names them)"
FACT = "an analysis of the optimiser (core/): the constructs it knows; any other is unknown to it, left as written"
FAST = "the fast Python code's pass: the constructs it writes better; any other takes the general code"
KERNEL = "the kernel's pass: the constructs it prints better; any other is printed by its form"
WORDS = "the rulebook's own phrase for these; any other is said by the general phrase"
BINDS = "the statements that bind a name to one of their options (its type: the options' element type)"

# (file, kind, names) -> (how many such lists the file has, why)
DECIDED: dict[tuple[str, str, tuple[str, ...]], tuple[int, str]] = {
    ("cli/cmd_arena.py", "builtin", ("first", "last")): (1, JSON),
    ("cli/cmd_simulate.py", "builtin", ("first", "last")): (1, JSON),
    ("cli/schemas.py", "builtin", ("first", "last")): (2, JSON),
    ("dsl/builtins.py", "builtin", ("ray", "until")): (1, TABLE),
    ("dsl/check.py", "builtin", ("all", "any")): (1, CHECK),
    ("dsl/check.py", "builtin", ("max", "min", "sum")): (1, CHECK),
    ("dsl/check.py", "expression", ("IntLit", "StrLit")): (1, CHECK),
    ("dsl/check_decls.py", "operator", ("*", "+", "-")): (1, CHECK),
    ("dsl/check_options.py", "statement", ("Assign", "Best", "ChooseEach", "ChooseSubset", "For", "Let",
        "PickRandom")):
        (1, CHECK),
    ("dsl/check_private.py", "statement", ("CallProc", "CallResult")): (1, CHECK),
    ("dsl/check_stmts.py", "instruction", ("EndGame", "Return")): (1, CHECK),
    ("dsl/check_stmts.py", "instruction", ("Reveal", "Shuffle")): (1, CHECK),
    ("dsl/check_stmts.py", "statement", ("CallProc", "CallResult")): (1, CHECK),
    ("dsl/check_stmts.py", "statement", ("EndGame", "Return")): (1, CHECK),
    ("dsl/check_stmts.py", "statement", ("Reveal", "Shuffle")): (1, CHECK),
    ("interpreter/compiler/codegen.py", "operator", ("and", "or")): (1, FAST),
    ("interpreter/compiler/codegen_calls.py", "operator", ("%", "/")): (1, FAST),
    ("interpreter/compiler/codegen_statements.py", "builtin", ("cells", "player_count", "turn_number")): (1, FAST),
    ("interpreter/compiler/codegen_statements.py", "expression", ("ListLit", "TupleLit")): (1, FAST),
    ("interpreter/compiler/codegen_statements.py", "operator", ("and", "or")): (1, FAST),
    ("interpreter/core/cells.py", "expression", ("BinOp", "UnOp")): (2, FACT),
    ("interpreter/core/cells.py", "expression", ("BoolLit", "IntLit", "StrLit")): (1, FACT),
    ("interpreter/core/cells.py", "expression", ("IntLit", "Var")): (1, FACT),
    ("interpreter/core/inline.py", "expression", ("Aggregate", "CellAt")): (1, FACT),
    ("interpreter/core/inline.py", "expression", ("BoolLit", "IntLit", "NoneLit")): (1, FACT),
    ("interpreter/core/inline.py", "operator", ("<", "<=", ">", ">=")): (1, FACT),
    ("interpreter/core/lower.py", "statement", ("Best", "Choose", "ChooseSubset", "For", "Let", "PickRandom")):
        (1, FACT),
    ("interpreter/core/occupancy.py", "builtin", ("empty", "occupied")): (2, FACT),
    ("interpreter/core/occupancy.py", "expression", ("BoolLit", "IntLit", "NoneLit")): (1, FACT),
    ("interpreter/core/tops.py", "builtin", ("empty", "occupied")): (2, FACT),
    ("interpreter/core/tops.py", "builtin", ("first", "last")): (1, FACT),
    ("interpreter/core/tops.py", "expression", ("BoolLit", "IntLit", "Var")): (1, FACT),
    ("interpreter/core/tops.py", "operator", ("and", "or")): (1, FACT),
    ("interpreter/core/orderfree.py", "expression", ("Aggregate", "BinOp", "Call", "Comprehension",
        "CondExpr", "UnOp", "Var")):
        (1, FACT),
    ("interpreter/core/primitives.py", "builtin", ("abs", "across", "all", "any", "bottom", "cell_of",
        "cells", "count", "distinct", "edge", "empty", "face_down", "first", "items", "knows", "last", "len",
        "max", "min", "next_player", "occupied", "owner", "player_count", "previous_player", "replace_at",
        "reverse", "seat", "size", "sort", "subsets", "sum", "top", "turn_number")):
        (1, TABLE),
    ("interpreter/core/primitives.py", "builtin", ("first", "last")): (1, TABLE),
    ("interpreter/documents/rulebook.py", "operator", ("+", "-")): (1, WORDS),
    ("interpreter/documents/rulebook.py", "statement", ("Choose", "ChooseEach", "ChooseSubset")): (1, WORDS),
    ("interpreter/documents/rulebook.py", "statement", ("For", "While")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("abs", "count", "len", "size", "sum")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("all", "any")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("cells", "distinct", "items", "replace_at",
        "reverse", "sort", "subsets")):
        (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("connected", "count", "first", "last", "max",
        "min", "sum")):
        (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("count", "sum")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("empty", "occupied")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "builtin", ("len", "size")): (2, WORDS),
    ("interpreter/documents/rulebook_words.py", "expression", ("BinOp", "UnOp")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "expression", ("Comprehension", "ListLit")): (1, WORDS),
    ("interpreter/documents/rulebook_words.py", "operator", ("and", "or")): (3, WORDS),
    ("interpreter/documents/rulebook_words.py", "operator", ("in", "not in")): (1, WORDS),
    ("interpreter/native/kernel.py", "builtin", ("empty", "occupied")): (1, KERNEL),
    ("interpreter/native/kernel.py", "builtin", ("empty", "size")): (1, KERNEL),
    ("interpreter/native/kernel.py", "builtin", ("first", "last")): (1, KERNEL),
    ("interpreter/native/kernel.py", "expression", ("Aggregate", "ListLit")): (1, KERNEL),
    ("interpreter/native/kernel.py", "expression", ("Attr", "Var")): (1, KERNEL),
    ("interpreter/native/kernel.py", "expression", ("CondExpr", "ListLit")): (1, KERNEL),
    ("interpreter/native/kernel_areas.py", "builtin", ("empty", "occupied")): (1, KERNEL),
    ("interpreter/native/kernel_around.py", "builtin", ("all", "any")): (1, KERNEL),
    ("interpreter/native/kernel_around.py", "builtin", ("empty", "occupied")): (1, KERNEL),
    ("interpreter/native/kernel_around.py", "operator", ("and", "or")): (1, KERNEL),
    ("interpreter/native/kernel_bit_picks.py", "builtin", ("empty", "occupied")): (1, KERNEL),
    ("interpreter/native/kernel_bit_picks.py", "operator", ("and", "or")): (1, KERNEL),
    ("interpreter/native/kernel_branch_loops.py", "expression", ("Comprehension", "CondExpr")): (1, KERNEL),
    ("interpreter/native/kernel_early.py", "builtin", ("empty", "occupied", "seat")): (1, KERNEL),
    ("interpreter/native/kernel_early.py", "expression", ("Aggregate", "ListLit")): (1, KERNEL),
    ("interpreter/native/kernel_early.py", "expression", ("BoolLit", "IntLit", "Var")): (1, KERNEL),
    ("interpreter/native/kernel_early.py", "operator", ("!=", "==")): (1, KERNEL),
    ("interpreter/native/kernel_early.py", "operator", ("!=", "==", "or")): (1, KERNEL),
    ("interpreter/native/kernel_emptiness.py", "expression", ("ListLit", "TupleLit")): (1, KERNEL),
    ("interpreter/native/kernel_first_stops.py", "builtin", ("empty", "occupied")): (1, KERNEL),
    ("interpreter/native/kernel_first_stops.py", "operator", ("<", "<=", ">", ">=")): (1, KERNEL),
    ("interpreter/native/kernel_in_place.py", "builtin", ("empty", "len", "occupied", "size")): (1, KERNEL),
    ("interpreter/native/kernel_joins.py", "expression", ("Comprehension", "ListLit")): (1, KERNEL),
    ("interpreter/native/kernel_lent.py", "builtin", ("empty", "first", "last", "size")): (1, KERNEL),
    ("interpreter/native/kernel_lent.py", "operator", ("in", "not in")): (1, KERNEL),
    ("interpreter/native/kernel_ordered.py", "expression", ("ListLit", "TupleLit")): (2, KERNEL),
    ("interpreter/native/kernel_ordered.py", "operator", ("+", "-")): (1, KERNEL),
    ("interpreter/native/kernel_ordered.py", "statement", ("Assign", "Let")): (
        2, "the statements that set a local (a let's list proven in order where every one of them is)"),
    ("interpreter/native/kernel_ranged.py", "operator", ("*", "+", "-")): (1, KERNEL),
    ("interpreter/native/kernel_reads.py", "builtin", ("empty", "occupied")): (1, KERNEL),
    ("interpreter/native/kernel_rows.py", "builtin", ("all", "any")): (1, KERNEL),
    ("interpreter/native/kernel_rows.py", "expression", ("IntLit", "Var")): (1, KERNEL),
    ("interpreter/native/kernel_unroll.py", "expression", ("IntLit", "UnOp")): (1, KERNEL),
    ("interpreter/native/kernel_tops.py", "expression", ("IntLit", "Var")): (1, KERNEL),
    ("interpreter/native/kernel_walk_views.py", "builtin", ("empty", "first", "last", "size")): (1, KERNEL),
    ("interpreter/native/kernel_walks.py", "builtin", ("all", "any", "count", "sum")): (1, KERNEL),
    ("interpreter/play/relabel.py", "statement", ("Best", "Choose", "PickRandom")): (1, BINDS),
}

# the constructs of each kind the decisions above were made knowing of
SEEN: dict[str, tuple[str, ...]] = {
    "operator": ("!=", "%", "*", "+", "-", "..", "/", "<", "<=", "==", ">", ">=", "and", "in", "not", "not in",
        "or",),
    "expression": ("Aggregate", "Attr", "BinOp", "BoolLit", "Call", "CellAt", "Comprehension", "CondExpr",
        "Index", "IntLit", "ListLit", "NoneLit", "Ray", "StrLit", "TupleLit", "UnOp", "Var",),
    "statement": ("Assign", "AttrAssign", "Best", "CallProc", "CallResult", "Choose", "ChooseEach",
        "ChooseSubset", "Deal", "EndGame", "Fill", "Flip", "For", "If", "IndexAssign", "Let", "Log", "Make",
        "Move", "Permute", "PickRandom", "RemoveItem", "Return", "Reveal", "RevealTo", "Roll", "Shuffle",
        "While",),
    "instruction": ("Ask", "AskEach", "AskSubset", "Best", "Branch", "Call", "Deal", "EndGame", "Fill", "Flip",
        "ForInit", "ForStep", "Jump", "Log", "Make", "Move", "Permute", "PickRandom", "Return", "Reveal",
        "RevealTo", "Roll", "SetActive", "SetGlobal", "SetItemVar", "SetLocal", "SetPlayerVar", "Shuffle",
        "StoreResult", "Unmake", "WhileInit", "WhileTest",),
}


def test_every_list_of_constructs_written_out_is_derived_or_decided():
    found = found_lists()
    new = {k: n for k, n in found.items() if DECIDED.get(k, (0,))[0] != n}
    gone = [k for k in DECIDED if k not in found]
    assert not new, ("lists of constructs written out by hand: derive each from its table (dsl/operators.py, "
                     "dsl/builtins.py, dsl/ast.py, interpreter/core/ops.py), or name it in DECIDED with why: "
                     f"{sorted(new)}")
    assert not gone, f"lists no longer written out: take them out of DECIDED: {gone}"
    assert all(why for _, why in DECIDED.values())


def test_a_construct_added_to_a_table_asks_again_in_every_list_of_its_kind():
    for kind, names in vocabularies().items():
        if kind not in SEEN:
            continue   # (a built-in: see the module's documentation)
        added, removed = names - set(SEEN[kind]), set(SEEN[kind]) - names
        lists = [f"{path}: {', '.join(k)}" for (path, of, k) in DECIDED if of == kind]
        assert not added and not removed, (
            f"the {kind}s {sorted(added)} were added (removed: {sorted(removed)}): decide in each list of "
            f"{kind}s written out whether it holds them (or derive the list), then update SEEN: {lists}")


def test_the_scan_finds_lists_sets_dicts_and_patterns_of_constructs():
    kinds = vocabularies()
    source = """
ops = ("+", "-")
if e.node in {"IntLit", "Var"}: pass
words = {"count": 1, "sum": 2}
match e.node:
    case "Choose" | "Best": pass
mixed = ("+", "x")
one = ("+",)
"""
    assert sorted(hand_lists(source, kinds)) == [
        ("builtin", ("count", "sum")), ("expression", ("IntLit", "Var")), ("operator", ("+", "-")),
        ("statement", ("Best", "Choose"))]


def test_the_lists_derived_from_the_tables():
    from meeple.dsl.lexer import MeepleLexer
    from meeple.interpreter.core import operators

    from meeple import openspiel
    statements = vocabularies()["statement"]
    # the kinds of expression (native/kernel_memo.py: the nodes that have a value)
    assert set(ir.EXPRESSIONS) == vocabularies()["expression"]
    # the loops: the kinds of expression with clauses (a comprehension's, or one's), and a ray
    assert set(ir.CLAUSED) == {"Comprehension", "Aggregate"}
    assert set(ir.LOOPS) == {*ir.CLAUSED, "Ray"} <= vocabularies()["expression"]
    # the values written out (a pass's constants)
    assert set(ir.LITERALS) == {"IntLit", "StrLit", "BoolLit", "NoneLit"} <= vocabularies()["expression"]
    # the decisions: the statements whose moves a verb may name
    assert set(ir.DECIDING) == {"Choose", "ChooseEach", "ChooseSubset"} <= statements
    # the random statements: those whose instruction is a draw
    assert set(openspiel.RANDOM_NODES) == {"Shuffle", "Roll", "PickRandom"} <= statements
    # arithmetic (core/cells.py, the rulebook's numbers) and what may leave an operand unevaluated
    assert {("UnOp", "-"), *(("BinOp", s) for s in "+-*/%")} == language.ARITHMETIC
    assert {("BinOp", "and"), ("BinOp", "or"), ("CondExpr", "?")} == operators.LAZY
    # the words of operators are highlighted alike (dsl/lexer.py)
    tokens = {text: kind for kind, text in MeepleLexer().get_tokens("a and b or not c in d not in e")}
    assert len({tokens[w] for w in ("and", "or", "not", "in")}) == 1 and tokens["and"] != tokens["a"]
