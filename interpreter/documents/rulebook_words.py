"""Expressions of a ruleset said in words, for the rulebook's steps, conditions and
message templates: ``empty(hand(active))`` reads "the hand cards of the active player
are empty", ``{active} chases {card(target)} away`` reads "the active player chases the
card away".

Every phrase is a template of the book's catalog (``x.*`` for the operators and forms,
``f.*`` for the built-in functions), filled with the ruleset's own names (``name``
declarations of its locale) and, for what has no name (a rule function, a local
value), its identifier with spaces for underscores, marked as a ``Term``. What it says
follows from the expression's form and what each name is (a zone, a per-player value,
a relation, a function and its result type, a local), never from a game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...dsl import ast as ir, operators, parse as dsl_parse
from ...dsl.builtins import AGGREGATES, BUILTINS, CONSTANTS
from ...dsl.operators import ARITHMETIC, operands

TEMPLATE_PART = re.compile(r"\{([^{}]*)\}")


def builtin_key(name: str, n: int) -> str:
    """The catalog key of what a call of a built-in with ``n`` arguments reads as: its
    phrase of dsl/builtins.py (``said``) for that count, ``f.NAME`` for its first count,
    ``f.NAME2``, ``f.NAME3`` for the others (rulebook.catalogs puts them in every catalog)."""
    return f"f.{name}" if n == BUILTINS[name].arities[0] else f"f.{name}{n}"


@dataclass(frozen=True)
class Term:
    """A name from the rules that players have no word for (a rule function, a value
    the steps name): its identifier with spaces, set apart from the sentence; with the
    gender and forms by case its ``name`` in the locale gives (as a ``Name``'s)."""
    text: str
    gender: str | None = None
    forms_given: tuple = ()      # (case, form) pairs

    @property
    def forms(self) -> dict:
        return dict(self.forms_given)


class Name(str):
    """A declared thing's name as players see it (``name`` in the locale): a word the
    catalog has no forms of, which a language may set apart where a case is needed,
    unless the locale gives its grammatical ``gender`` (for the article a language puts
    before it) and its ``forms`` by case (``{"gen": "Nachziehstapels"}``)."""
    gender: str | None
    forms: dict

    def __new__(cls, text: str, gender: str | None = None, forms: dict | None = None):
        out = super().__new__(cls, text)
        out.gender = gender
        out.forms = forms or {}
        return out


class Said(tuple):
    """A phrase of the catalog in its first form (a Text), with its other forms by case
    (``forms``), for a template around it that needs one (``{of:gen}``)."""
    forms: dict

    def __new__(cls, text: tuple, forms: dict):
        out = super().__new__(cls, text)
        out.forms = forms
        return out


# the binary operators, by the catalog key that says them (dsl/operators.py's ``words``;
# ``+`` of lists says its join_lists' phrase, below)
_OPS = operators.words_by_symbol()
_WORDS = {name: op.words for name, op in operators.OPERATORS.items()}
# how a message names a value the steps hold, by its type (the others by their bare
# name: a template says "at {cell}" or "takes {won}", with the noun it needs)
_TYPED = {"player": "x.the_player"}
# a comparison and the one that holds when it does not
_OPPOSITE = {op.symbol: operators.OPERATORS[op.opposite].symbol
             for op in operators.OPERATORS.values() if op.opposite}
# the built-ins whose argument is a list, said over a comprehension
_AGGREGATE = {"any": "x.some", "all": "x.every"}
# the forms that give a list (a `+` of them joins lists)
_LISTS = {"Comprehension", "ListLit"}
_LIST_CALLS = {"cells", "items", "subsets", "sort", "reverse", "distinct", "replace_at"}


def words_of(name: str) -> str:
    """An identifier as words: ``base_row`` → ``base row``."""
    return name.replace("_", " ").strip() or name


class Words:
    """Says the expressions of one checked ruleset in the words of one catalog (``say``:
    the rulebook's ``_Say``); ``name(path)`` is what players see a declared thing called."""

    def __init__(self, checked, say, name):
        self.c = checked
        self.say = say
        self.name = name
        self.enum_of = {v: e for e, values in checked.enums.items() for v in values}
        self.attr_kinds = {a: k for k, attrs in checked.kinds.items() for a in attrs}

    # -- public
    def expr(self, e) -> tuple:
        """An expression in words (a Text: str and Term parts; a phrase of the catalog
        keeps its forms by case)."""
        said = self._expr(e)
        return said if isinstance(said, Said) else tuple(p for p in said if p != "")

    def template(self, text: str, types: list | None = None) -> tuple:
        """A message template (``{active} chases {card(target)} away``) as a sentence:
        each placeholder a short noun (``the active player``, ``the card``). ``types``:
        the placeholders of the message as the rules wrote them, each with its type
        (``[("card(target)", "item"), ...]``), which a translation may name by position
        (``{1}``) and which say which values the steps hold are players (``the player
        chief``). A placeholder
        that does not parse is kept as written, without its braces."""
        out: list = []
        pos = 0
        typed = dict(types or ())
        for m in TEMPLATE_PART.finditer(text):
            out.append(text[pos:m.start()])
            raw = m.group(1).strip()
            if raw.isdigit() and types and 0 < int(raw) <= len(types):
                raw = types[int(raw) - 1][0]
            try:
                e = dsl_parse.parse_expr(raw, ir.Span())
            except Exception:  # noqa: BLE001 - checked when the ruleset loaded; words only
                out.append(raw)
            else:
                out.extend(self.short(e, typed.get(raw, "")))
            pos = m.end()
        out.append(text[pos:])
        return tuple(p for p in out if p != "")

    def short(self, e, type_code: str = "") -> tuple:
        """A short noun for a value a message shows: a rule function's result by its
        name alone (``the card``), an attribute by its name (``value``), a value the
        steps name by its name, as a player when it is one (``the player chief``)."""
        s = self.say
        if e.node == "Var" and self._local(e.name):
            name = (self.term(e.name),)
            return s(_TYPED[type_code], name=name) if type_code in _TYPED else name
        match e.node:
            case "Call" if e.func in self.c.functions:
                return s("x.the", name=(self.term(e.func),))
            case "Attr":
                return (self.attr_name(e.name),)
        return self.expr(e)

    def term(self, name: str, strip_of: bool = False) -> Term:
        """A name from the rules players have no word for (a rule function, a value the
        steps name): its ``name`` in the locale, else its identifier as words (a
        function named for what it is of, ``clan_of``, with ``strip_of``: as ``clan``,
        or by the name of ``clan``)."""
        bare = name.removesuffix("_of") if strip_of else name
        got = self.c.names.get(name) or self.c.names.get(bare)
        if got and got[0]:
            gender, forms = self.c.name_grammar.get(name if name in self.c.names else bare, (None, {}))
            return Term(got[0], gender, tuple(forms.items()))
        return Term(words_of(bare))

    def attr_name(self, a: str) -> str:
        kind = self.attr_kinds.get(a)
        return self.name(f"{kind}.{a}") if kind else self.board_word(a)

    def board_word(self, ident: str) -> Name:
        """A board generator, its argument or a coordinate of its cells in the
        catalog's word (with its gender and forms), else the identifier as words."""
        got = self.say.board_words.get(ident)
        if not got:
            return Name(words_of(ident))
        return Name(got[0], got[1] if len(got) > 1 else None, got[2] if len(got) > 2 else None)

    # -- the forms
    def _expr(self, e) -> tuple:
        s = self.say
        match e.node:
            case "IntLit":
                return (str(e.value),)
            case "StrLit":
                return ("“" + e.value + "”",)
            case "BoolLit":
                return s("x.true" if e.value else "x.false")
            case "NoneLit":
                return s("x.none")
            case "Var":
                return self.var(e.name)
            case "Attr":
                if e.obj.node == "Var" and e.name in self.c.enums.get(e.obj.name, ()):   # `Action.move`
                    return (self.value_name(e.obj.name, e.name),)
                return s("x.attr", attr=self.attr_name(e.name), obj=self.expr(e.obj))
            case "Index":
                n = _counted_from_1(e.index)
                if n is not None:
                    return s("x.index", n=self.expr(n), obj=self.expr(e.obj))
                return s("x.index_from_0", i=self.expr(e.index), obj=self.expr(e.obj))
            case "BinOp":
                return self.binop(e)
            case "UnOp":
                return self.unop(e)
            case "CondExpr":
                return s(_WORDS["cond"], cond=self.expr(e.cond), then=self.expr(e.then), other=self.expr(e.other))
        return self.compound(e)

    def compound(self, e) -> tuple:
        s = self.say
        match e.node:
            case "Call":
                return self.call(e)
            case "Comprehension":
                return self.comprehension(e)
            case "Aggregate":
                return self.aggregate(e.func, e.comp)
            case "ListLit":
                return self.listed([self.expr(a) for a in e.items])
            case "TupleLit":
                return join([self.expr(a) for a in e.items], ", ")
            case "CellAt":
                return s("x.cell_at", board=self.expr(e.board), coords=self.named_args(e.coords))
            case "Ray":
                return s("x.ray", start=self.expr(e.start), steps=self.named_args(e.steps))
        return (Term(ir.show(e)),)

    def named_args(self, args) -> tuple:
        return join([self.say("x.named_arg", name=(self.board_word(a.name),), value=self.expr(a.value)) for a in args], ", ")

    def listed(self, parts: list) -> tuple:
        if not parts:
            return self.say("x.nothing")
        if len(parts) == 1:
            return parts[0]
        return self.say("x.list", items=join(parts[:-1], ", "), last=parts[-1])

    def _local(self, name: str) -> bool:
        c = self.c
        return not (name in CONSTANTS or name in self.enum_of or name in c.enums
                    or name in c.kinds or name in c.zones or name in c.boards or name in c.vars or name in c.consts)

    def var(self, name: str) -> tuple:
        s, c = self.say, self.c
        if name == "active":
            return s("w.active")
        if name == "players":
            return s("x.players")
        if name in self.enum_of:
            return (self.value_name(self.enum_of[name], name),)
        if name in c.kinds:      # (a kind standing for all its pieces)
            return s("x.kind_pieces", kind=(self.name(name),))
        if name in c.enums or name in c.zones or name in c.boards or name in c.vars:
            return (self.name(name),)
        return (self.term(name),)

    def value_name(self, enum: str, value: str):
        """An enum value as players see it called, without the punctuation that joins it
        to a label (``, shielded``); by its identifier when it shows as nothing."""
        shown = self.name(f"{enum}.{value}").strip(" ,;:")
        return shown or self.term(value)

    def binop(self, e) -> tuple:
        s = self.say
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op in ("and", "or"):      # (a quantifier or the other connective: in brackets)
            a, b = self.operand(e.left, e.op), self.operand(e.right, e.op)
        else:
            a, b = (("(", *w, ")") if x.node == "CondExpr" or _ends_in_condition(x) else w
                    for x, w in ((e.left, a), (e.right, b)))
        if e.op == "+" and (_is_list(e.left, self.c) or _is_list(e.right, self.c)):
            return s(_WORDS["join_lists"], a=a, b=b)
        if e.op in ("in", "not in") and e.right.node == "BinOp" and e.right.op == "..":
            key = "x.between" if e.op == "in" else "x.not_between"
            return s(key, a=a, lo=self.expr(e.right.left), hi=self.expr(e.right.right))
        return s(_OPS.get(e.op, "x.op"), a=a, b=b, op=e.op)

    def operand(self, e, op: str) -> tuple:
        """An operand of ``and`` / ``or``, bracketed when it is the other one or a
        quantifier (so that what it covers is clear)."""
        words = self.expr(e)
        nested = (e.node == "BinOp" and e.op in ("and", "or") and e.op != op) or (
            e.node == "Aggregate" and e.func in _AGGREGATE)
        return ("(", *words, ")") if nested else words

    def unop(self, e) -> tuple:
        s = self.say
        x = e.operand
        if e.op != "not":
            return s(_WORDS["neg"], a=self.expr(x))
        if x.node == "Call" and x.func in ("empty", "occupied") and len(x.args) == 1:
            flip = "occupied" if x.func == "empty" else "empty"
            return self.call(ir.Call(func=flip, args=x.args))
        if x.node == "BinOp" and x.op in _OPPOSITE:
            return self.binop(ir.BinOp(op=_OPPOSITE[x.op], left=x.left, right=x.right))
        if x.node == "BinOp" and x.op in ("and", "or"):      # neither a nor b: not a and not b
            return self.binop(ir.BinOp(op="or" if x.op == "and" else "and", left=ir.UnOp(op="not", operand=x.left),
                                       right=ir.UnOp(op="not", operand=x.right)))
        return s(_WORDS["not"], a=self.expr(x))

    def call(self, e) -> tuple:
        s, c = self.say, self.c
        args = [self.expr(a) for a in e.args]
        f = e.func
        if (f in c.zones or f in c.vars) and len(args) == 1:      # a player's own
            return s("x.of_player", thing=self.name(f), player=args[0])
        if f in c.relations:
            rel = (self.term(f),)
            if len(args) == 1:
                return s("x.related", rel=rel, a=args[0])
            if len(args) == 2:
                return s("x.relation_holds", rel=rel, a=args[0], b=args[1])
            return s("x.holds_for", f=rel, args=join(args, s("x.and_sep")))
        if f in BUILTINS:
            return self.builtin(f, e.args, args)
        d = c.functions.get(f)
        # (a function named for what it is *of*, `clan_of(p)`, reads "clan of p")
        fn = (self.term(f, strip_of=bool(args)),)
        if not args:
            return s("x.the", name=fn)
        key = "x.holds_for" if d is not None and d.result is not None and d.result.name == "bool" else "x.fn_of"
        return s(key, f=fn, args=join(args, s("x.and_sep")))

    def builtin(self, f: str, nodes, args: list) -> tuple:
        s = self.say
        if f in AGGREGATES and len(nodes) == 1 \
                and nodes[0].node == "Comprehension":
            return self.aggregate(f, nodes[0])
        if f in ("size", "len") and _is_list(nodes[0], self.c):    # (of a list, not a place)
            return s("x.count", of=args[0])
        if f in ("size", "len") and nodes[0].node == "Var" and nodes[0].name in self.c.kinds:
            return s("x.kind_count", kind=(self.name(nodes[0].name),))
        if f == "abs" and nodes[0].node == "BinOp" and nodes[0].op == "-":
            return s("x.difference", a=self.expr(nodes[0].left), b=self.expr(nodes[0].right))
        return s(builtin_key(f, len(args)), **dict(zip("abc", args)))

    # -- lists
    def is_list(self, e) -> bool:
        """Whether ``e`` surely gives a list (not a place, nor a number)."""
        return _is_list(e, self.c)

    def is_number(self, e) -> bool:
        """Whether ``e`` surely gives a number: a numeral, a count or sum, a number
        the rules declare (a value, a function's result, an attribute), sums of those."""
        c = self.c
        match e.node:
            case "IntLit":
                return True
            case "UnOp" | "BinOp":   # (arithmetic of numbers: core/operators.py)
                return (e.node, e.op) in ARITHMETIC and all(self.is_number(x) for x in operands(e))
            case "Aggregate":
                return e.func in ("sum", "count")
            case "Var":
                decl = c.vars.get(e.name) or c.consts.get(e.name)
                return decl is not None and decl.type.name == "int"
            case "Attr":
                kind = self.attr_kinds.get(e.name)
                return kind is not None and c.kinds[kind][e.name].tag == "int"
            case "Call":
                if e.func in ("size", "len", "count", "sum", "abs"):
                    return True
                decl = c.functions.get(e.func) or c.vars.get(e.func)
                typ = getattr(decl, "result", None) or getattr(decl, "type", None)
                return typ is not None and typ.name == "int"
        return False

    def selection(self, e) -> bool:
        """Whether ``e`` is a list of those of a list that ... (``[t for t in xs if c]``)."""
        return e.node == "Comprehension" and len(e.clauses) == 1 and e.elem.node == "Var" \
            and e.elem.name == e.clauses[0].var

    def clauses(self, comp, key: str = "x.each_of", where: str = "x.where") -> tuple:
        """``for x in xs if c`` clauses: ``each x of xs for which c`` (``key``: how one
        clause reads, ``where``: how its condition does)."""
        s = self.say
        parts = []
        conds = []
        for cl in comp.clauses:
            it = cl.iter
            if it.node == "CondExpr" and it.other.node == "ListLit" and not it.other.items:
                conds.append(it.cond)
                it = it.then
            parts.append(s(key, var=(self.term(cl.var),), xs=self.expr(it)))
        if comp.cond is not None:
            conds.append(comp.cond)
        out = join(parts, ", ")
        if conds:
            out = extended(out, s(where, cond=join([self.expr(x) for x in conds], s("x.and_sep"))))
        return out

    def comprehension(self, comp) -> tuple:
        s = self.say
        only = len(comp.clauses) == 1 and comp.elem.node == "Var" and comp.elem.name == comp.clauses[0].var
        if only:
            return s("x.those", each=self.clauses(comp))
        return s("x.map", elem=self.expr(comp.elem), each=self.clauses(comp))

    def aggregate(self, f: str, comp) -> tuple:
        s = self.say
        if f in _AGGREGATE:
            return s(_AGGREGATE[f], each=self.clauses(comp, "x.var_of"), cond=self.expr(comp.elem))
        if f == "count" and len(comp.clauses) == 1 and comp.elem.node == "Var" and comp.elem.name == comp.clauses[0].var:
            return s("x.count", of=self.clauses(comp, "x.var_of"))
        key = {"sum": "x.sum", "count": "x.count", "min": "x.least", "max": "x.most",
               "first": "x.first", "last": "x.last", "connected": "x.connected"}.get(f)
        if key is None:
            return s("x.fn_of", f=(self.term(f),), args=self.comprehension(comp))
        return s(key, of=self.comprehension(comp))


def _counted_from_1(i):
    """An index (counted from 0) as a position counted from 1, when that is as simple:
    ``0`` is 1, ``k - 1`` is ``k``, ``k - 3`` is ``k - 2``, ``k + 1`` is ``k + 2``; else None."""
    if i.node == "IntLit":
        return ir.IntLit(value=i.value + 1)
    if i.node != "BinOp" or i.op not in "+-" or i.right.node != "IntLit":
        return None
    shift = i.right.value + 1 if i.op == "+" else i.right.value - 1
    if shift == 0:
        return i.left
    return ir.BinOp(op="+" if i.op == "+" else "-", left=i.left, right=ir.IntLit(value=shift))


def _ends_in_condition(e) -> bool:
    """Whether an expression's words end with a list's condition (``... for which c is
    empty``), which an operator after them would seem to continue."""
    if e.node == "Comprehension":
        return _filtered(e)
    if e.node == "Aggregate":
        return e.func not in _AGGREGATE and _filtered(e.comp)
    return e.node == "Call" and bool(e.args) and _ends_in_condition(e.args[-1])


def _filtered(comp) -> bool:
    """Whether a comprehension keeps only some elements (an ``if``, or a clause over
    ``xs if c else []``)."""
    return comp.cond is not None or any(
        cl.iter.node == "CondExpr" and cl.iter.other.node == "ListLit" and not cl.iter.other.items
        for cl in comp.clauses)


def _is_list(e, c) -> bool:
    """Whether an expression surely gives a list (not a place, nor a number)."""
    if e.node in _LISTS:
        return True
    if e.node == "Var" and e.name in c.vars:
        return c.vars[e.name].type.name == "list"
    if e.node == "Call":
        return e.func in _LIST_CALLS or (e.func in c.relations and len(e.args) == 1) or (
            e.func in c.functions and (c.functions[e.func].result or ir.TypeRef(name="")).name == "list")
    return e.node == "BinOp" and e.op == "+" and (_is_list(e.left, c) or _is_list(e.right, c))


def extended(text: tuple, tail: tuple) -> tuple:
    """A text with more words after it; a phrase of the catalog keeps its forms by case,
    each with those words after it."""
    forms = getattr(text, "forms", None)
    if forms is None:
        return text + tail
    return Said(text + tail, {case: form + tail for case, form in forms.items()})


def join(parts, sep=", ") -> tuple:
    """Texts (tuples of parts, or single parts) one after the other, ``sep`` (a part or
    a Text) between them."""
    if len(parts) == 1 and isinstance(parts[0], tuple):   # (one phrase keeps its forms)
        return parts[0]
    out = _joined(parts, sep)
    cases = list(dict.fromkeys(c for p in parts if isinstance(p, Said) for c in p.forms))
    if not cases:
        return out
    # (phrases with forms by case joined keep them: each case, each part in it)
    return Said(out, {c: _joined([p.forms.get(c, p) if isinstance(p, Said) else p for p in parts], sep)
                      for c in cases})


def _joined(parts, sep) -> tuple:
    out: list = []
    for i, p in enumerate(parts):
        if i:
            out.extend(sep if isinstance(sep, tuple) else (sep,))
        out.extend(p if isinstance(p, tuple) else (p,))
    return tuple(out)
