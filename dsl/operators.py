"""What each operator of an expression is in the language, in one place: the operation
an operator is (its IR node, its symbol and, where one symbol has several, the class of
the operand type that chooses among them), its type rule (dsl/check_operators.py applies
it), its precedence and its rows of the language reference (docs/language.md §7.1,
written by tools/builtins_docs.py), what it does in a line, and the key of the rulebook's
phrase that says it (interpreter/documents/rulebook_words.py).

The interpreter's side of each operation (its reference meaning, its Python and C++
forms) is interpreter/core/operators.py, keyed by the same names; tests/test_operators.py
proves that both tables name the same operations, that they are exactly the operators of
the grammar (dsl/grammar.lark), bound as tightly as ``LEVELS`` says, and that the
language reference, the editor grammar and the rulebook's catalogs agree with them."""
from __future__ import annotations

from dataclasses import dataclass

from .types import T, list_of

_BOOL, _INT, _STR = T("bool"), T("int"), T("str")


@dataclass(frozen=True)
class Operator:
    name: str           # the operation's name (interpreter/core/operators.py's key)
    node: str           # the IR node: UnOp, BinOp, CondExpr
    symbol: str         # the IR op (``?``: a conditional)
    # the class of the type that chooses it among the operations of its symbol
    # (``type_class`` of the operand ``by``); "" where the symbol alone does
    on: str
    # its type rule: how dsl/check_operators.py finds its type ("each": each operand
    # checked as ``operands`` says in turn; "both": both operands found, then each
    # checked; "equal", "member", "located", "join", "cond": a rule of its own there)
    rule: str
    operands: tuple[T | None, ...]   # the type each operand must have (None: the rule says)
    result: T | None    # its type (None: the rule finds it from its operands')
    context: str        # what a message calls an operand of the wrong type
    doc: str            # what it does, in a line
    words: str          # the rulebook catalog's key of its phrase (``x.*``)
    by: int = -1        # the operand whose type class chooses it (``on``)
    opposite: str = ""  # the operation that holds where it does not (a comparison's)
    # the operation that holds of the operands swapped (a comparison of two values of
    # one type: ``a < b`` where ``b > a``); "" where none does (``in``, arithmetic...)
    mirror: str = ""

    @property
    def shape(self) -> tuple[str, str]:
        """The node and symbol it shares with the other operations of its symbol."""
        return self.node, self.symbol


def _int2(name: str, symbol: str, doc: str, words: str, result: T = _INT, context: str = "",
          opposite: str = "", mirror: str = "") -> Operator:
    """An operation of two ints (both found, then each checked as an int)."""
    return Operator(name, "BinOp", symbol, "", "both", (_INT, _INT), result, context or f"'{symbol}'", doc, words,
                    opposite=opposite, mirror=mirror)


def _bool2(name: str, doc: str) -> Operator:
    """``and`` / ``or``: each operand checked as a bool in turn."""
    return Operator(name, "BinOp", name, "", "each", (_BOOL, _BOOL), _BOOL, f"'{name}'", doc, f"x.{name}")


def _equal(name: str, symbol: str, doc: str, opposite: str) -> Operator:
    return Operator(name, "BinOp", symbol, "", "equal", (None, None), _BOOL, f"comparison '{symbol}'", doc,
                    f"x.{name}", opposite=opposite, mirror=name)


def _member(name: str, symbol: str, on: str, doc: str, opposite: str) -> Operator:
    """``in`` / ``not in``: of a zone or a cell (an item), else of a list (an element)."""
    rule, context = ("located", f"'{symbol}' a zone") if on == "place" else ("member", f"'{symbol}'")
    words = "x.not_in" if symbol == "not in" else "x.in"
    return Operator(name, "BinOp", symbol, on, rule, (None, None), _BOOL, context, doc, words, by=1,
                    opposite=opposite)


OPERATORS: dict[str, Operator] = {op.name: op for op in [
    Operator("not", "UnOp", "not", "", "each", (_BOOL,), _BOOL, "'not'", "whether a bool is false", "x.not"),
    Operator("neg", "UnOp", "-", "", "each", (_INT,), _INT, "'-'", "an int negated", "x.neg"),
    _bool2("and", "whether both hold (the right evaluated only where the left holds)"),
    _bool2("or", "whether either holds (the right evaluated only where the left does not)"),
    _equal("eq", "==", "whether two values are equal", "ne"),
    _equal("ne", "!=", "whether two values differ", "eq"),
    _int2("lt", "<", "whether the left is less", "x.lt", _BOOL, opposite="ge", mirror="gt"),
    _int2("le", "<=", "whether the left is at most the right", "x.le", _BOOL, opposite="gt", mirror="ge"),
    _int2("gt", ">", "whether the left is more", "x.gt", _BOOL, opposite="le", mirror="lt"),
    _int2("ge", ">=", "whether the left is at least the right", "x.ge", _BOOL, opposite="lt", mirror="le"),
    _member("in_place", "in", "place", "whether an item lies in a zone or on a cell", "not_in_place"),
    _member("not_in_place", "not in", "place", "whether an item lies elsewhere than in a zone or on a cell",
            "in_place"),
    _member("in_list", "in", "list", "whether a list holds a value", "not_in_list"),
    _member("not_in_list", "not in", "list", "whether a list lacks a value", "in_list"),
    _int2("range", "..", "the ints from the left to the right (counted as work, at most the range budget)",
          "x.range", list_of(_INT), "a range"),
    Operator("add", "BinOp", "+", "int", "both", (_INT, _INT), _INT, "'+'", "the sum of two ints", "x.add",
             by=0),
    Operator("join_lists", "BinOp", "+", "list", "join", (None, None), None, "'+' of lists",
             "two lists joined (their elements counted as work)", "x.concat", by=0),
    # (the left a text chose it: only the right is checked)
    Operator("join_texts", "BinOp", "+", "str", "both", (_STR, _STR), _STR, "'+' of strings",
             "two texts joined", "x.add", by=0),
    _int2("sub", "-", "the difference of two ints", "x.sub"),
    _int2("mul", "*", "the product of two ints (at most the integer budget)", "x.mul"),
    _int2("div", "/", "an int divided by another, rounded down (an error by 0)", "x.div"),
    _int2("mod", "%", "the remainder of that division (an error by 0)", "x.mod"),
    Operator("cond", "CondExpr", "?", "", "cond", (_BOOL, None, None), None, "the condition",
             "the then value where the condition holds, else the else value", "x.cond"),
]}

def operands(e) -> tuple:
    """An operator's operands, in the order they are evaluated: ``(operand,)``, ``(left,
    right)``, ``(cond, then, other)``."""
    if e.node == "UnOp":
        return (e.operand,)
    if e.node == "CondExpr":
        return (e.cond, e.then, e.other)
    return (e.left, e.right)


SHAPES: dict[tuple[str, str], list[Operator]] = {}
"""The operations of each node and symbol, in the table's order."""
for _op in OPERATORS.values():
    SHAPES.setdefault(_op.shape, []).append(_op)

# the classes of type an operation is chosen by (``on``), and what a message calls them
_CLASSES = {"list": "list", "zone": "place", "cell": "place", "str": "str"}
_CLASS_NAMES = {"list": "a list", "place": "a zone", "str": "a string", "int": "an int"}


def type_class(t: T) -> str:
    """The class of an operand's type that chooses among the operations of a symbol: a
    list, a place (a zone or a cell), a text, else an int."""
    return _CLASSES.get(t.tag, "int")


def chosen(node: str, symbol: str, types: list[T]) -> Operator | None:
    """The operation of an operator whose operands are of ``types`` (as the checker
    knows them): the symbol's only one, else the one ``on`` the class of the type of
    its operand ``by`` (that ``on`` "int" where no other is); None where none is."""
    return choose(SHAPES[node, symbol], types)


def choose(ops: list[Operator], types: list[T]) -> Operator | None:
    """``chosen`` among the operations of one node and symbol (``SHAPES``)."""
    if len(ops) == 1:
        return ops[0]
    cls = type_class(types[ops[0].by])
    return next((o for o in ops if o.on == cls), next((o for o in ops if o.on == "int"), None))


def wanted(node: str, symbol: str) -> str:
    """What a message says an operand of a symbol that chooses no operation should be
    (``a list or a zone``)."""
    return " or ".join(sorted(_CLASS_NAMES[o.on] for o in SHAPES[node, symbol]))


NODES: frozenset[str] = frozenset(op.node for op in OPERATORS.values())
"""The IR nodes of operators: UnOp, BinOp, CondExpr."""

ARITHMETIC: frozenset[tuple[str, str]] = frozenset(
    op.shape for op in OPERATORS.values() if op.result == _INT and all(t == _INT for t in op.operands))
"""The nodes and symbols of arithmetic, operations of ints whose value is an int (``-x``,
``+``, ``-``, ``*``, ``/``, ``%``)."""


def comparisons() -> dict[str, str]:
    """The symbol of each comparison (an operation with a ``mirror``) and its mirror's:
    ``a < b`` is ``b > a`` (``{"<": ">", "==": "==", ...}``)."""
    return {op.symbol: OPERATORS[op.mirror].symbol for op in OPERATORS.values() if op.mirror}


def words_by_symbol() -> dict[str, str]:
    """The rulebook phrase of each binary symbol: its first operation's (``+``: of ints)."""
    return {symbol: ops[0].words for (node, symbol), ops in SHAPES.items() if node == "BinOp"}


# ------------------------------------------------------------------ the reference
@dataclass(frozen=True)
class Level:
    """A row of the language reference's table of operators (docs/language.md §7.1),
    loosest binding first: the operations of one precedence (none: the forms that bind
    tightest, which are not operators), how the reference shows them, what they mean,
    their types and the grammar's rules (dsl/grammar.lark) that parse them."""
    ops: tuple[str, ...]
    shown: str
    meaning: str
    types: str
    rules: tuple[str, ...]


LEVELS: tuple[Level, ...] = (
    Level(("cond",), "`if C then A else B`, `if C then A elif D then B else E`",
          "`A` when `C` is true, else `B` (with `elif`: the first branch whose condition is true, else `E`)",
          "`C`, `D` bool; `A`, `B`, `E` the same type", ("cond_expr", "if_expr", "cond_elif")),
    Level(("or",), "`a or b`", "either (`b` is not evaluated when `a` is true)", "bool", ("or_op", "or_expr")),
    Level(("and",), "`a and b`", "both (`b` is not evaluated when `a` is false)", "bool", ("and_op", "and_expr")),
    Level(("not",), "`not a`", "negation", "bool", ("not_op", "not_expr")),
    Level(("eq", "ne", "lt", "le", "gt", "ge", "in_place", "not_in_place", "in_list", "not_in_list"),
          "`==` `!=` `<` `<=` `>` `>=` `in` `not in`", "comparison, membership", "see below",
          ("compare_op", "compare", "comp_op")),
    Level(("range",), "`a..b`", "the list `a, a+1, ..., b` (empty when `b < a`)", "int", ("range_op", "range_expr")),
    Level(("add", "join_lists", "join_texts", "sub"), "`+` `-`",
          "addition, subtraction; `+` also joins two lists or two strings", "int, list, str",
          ("arith_op", "sum_expr", "add_op")),
    Level(("mul", "div", "mod"), "`*` `/` `%`", "product, division, remainder", "int",
          ("arith_op", "product", "mul_op")),
    Level(("neg",), "`-a`", "negation", "int", ("neg_op", "unary")),
    Level((), "`x.name`, `xs[i]`", "attribute or coordinate; list element", "", ("attr", "index", "postfix")),
    Level((), "literals, names, calls, `( )`", "", "", ("atom", "expr")),
)

PRECEDENCE: dict[str, int] = {name: i for i, level in enumerate(LEVELS) for name in level.ops}
"""How tightly each operation binds: its level's place in ``LEVELS`` (higher: tighter)."""


def reference_table() -> str:
    """The table of operators of docs/language.md §7.1 (markdown)."""
    rows = ["|" + "|".join(f" {c} " if c else " " for c in (lv.shown, lv.meaning, lv.types,
                                                              ", ".join(f"`{r}`" for r in lv.rules))) + "|"
            for lv in LEVELS]
    return "\n".join(["| Operators | Meaning | Types | Grammar |", "|---|---|---|---|", *rows])
