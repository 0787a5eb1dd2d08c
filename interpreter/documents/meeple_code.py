"""Meeple code from the IR: expressions, types and declarations written back as a
ruleset author would write them (for rulebooks and other readable output)."""
from __future__ import annotations

from ...dsl import ast as ir, operators

# binding strength of the operators (higher binds tighter): their levels in the table of
# operators (dsl/operators.py, the grammar's, tests/test_operators.py); then the forms
# that bind tightest (``x.name``, ``xs[i]``), which need no parentheses
_PREC = {symbol: operators.PRECEDENCE[ops[0].name]
         for (node, symbol), ops in operators.SHAPES.items() if node == "BinOp"}
_NOT, _NEG, _COND = (operators.PRECEDENCE[name] for name in ("not", "neg", "cond"))
_ATOM = _NEG + 1
# the operators that do not chain (the grammar's ``compare`` and ``range_expr``: ``a < b
# == c`` is no expression): their left operand bracketed like their right
_UNCHAINED = {symbol for symbol, p in _PREC.items() if p in (_PREC["=="], _PREC[".."])}


def type_code(t: ir.TypeRef | None) -> str:
    if t is None:
        return ""
    if t.name == "list" and t.item is not None:
        return f"list of {type_code(t.item)}"
    if t.name == "tuple" and t.parts:
        return "(" + ", ".join(map(type_code, t.parts)) + ")"
    return t.name


def expr(e) -> str:
    """An expression as Meeple code."""
    return _expr(e)[0]


def _wrap(e, prec: int) -> str:
    text, p = _expr(e)
    return f"({text})" if p < prec else text


def _expr(e) -> tuple[str, int]:
    """An expression as Meeple code, with the binding strength of its outermost operator
    (``_ATOM`` for one that needs no parentheses)."""
    match e.node:
        case "BinOp":
            p = _PREC.get(e.op, 4)
            op = ".." if e.op == ".." else f" {e.op} "
            return f"{_wrap(e.left, p + 1 if e.op in _UNCHAINED else p)}{op}{_wrap(e.right, p + 1)}", p
        case "UnOp":
            if e.op == "not":
                return f"not {_wrap(e.operand, _NOT)}", _NOT
            return f"-{_wrap(e.operand, _NEG)}", _NEG
        case "CondExpr":
            return f"if {expr(e.cond)} then {expr(e.then)} else {expr(e.other)}", _COND
    return _atom(e), _ATOM


def _atom(e) -> str:
    """An expression that needs no parentheses: a literal, a name, a call..."""
    match e.node:
        case "IntLit":
            return str(e.value)
        case "StrLit":
            return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        case "BoolLit":
            return "true" if e.value else "false"
        case "NoneLit":
            return "none"
        case "Var":
            return e.name
        case "Attr":
            return f"{_wrap(e.obj, _ATOM)}.{e.name}"
        case "Index":
            return f"{_wrap(e.obj, _ATOM)}[{expr(e.index)}]"
    return _call_like(e)


def _call_like(e) -> str:
    """A call, a comprehension, a list, a ``cell(...)`` or ``ray(...)``."""
    match e.node:
        case "Call":
            return f"{e.func}({', '.join(expr(a) for a in e.args)})"
        case "Comprehension":
            return f"[{_comp(e)}]"
        case "Aggregate":
            return f"{e.func}({_comp(e.comp)})"
        case "ListLit":
            return f"[{', '.join(expr(a) for a in e.items)}]"
        case "TupleLit":
            return f"({', '.join(expr(a) for a in e.items)})"
        case "CellAt":
            args = ", ".join(f"{a.name}: {expr(a.value)}" for a in e.coords)
            return f"cell({expr(e.board)}, {args})"
        case "Ray":
            args = ", ".join(f"{a.name}: {expr(a.value)}" for a in e.steps)
            return f"ray({expr(e.start)}, {args})"
    return ir.show(e)


def _comp(c: ir.Comprehension) -> str:
    text = expr(c.elem) + "".join(_clause(cl) for cl in c.clauses)
    return text + (f" if {expr(c.cond)}" if c.cond is not None else "")


def _clause(cl: ir.ForClause) -> str:
    """A ``for`` clause; one whose list is ``if c then xs else []`` (what the parser makes
    of ``if c for x in xs``) as written."""
    it = cl.iter
    if it.node == "CondExpr" and it.other.node == "ListLit" and not it.other.items:
        return f" if {expr(it.cond)} for {cl.var} in {expr(it.then)}"
    return f" for {cl.var} in {expr(cl.iter)}"


def params(ps) -> str:
    return ", ".join(f"{p.name}: {type_code(p.type)}" for p in ps)


def named_args(args) -> str:
    return ", ".join(f"{a.name}: {expr(a.value)}" for a in args)


def deck_entry(e: ir.DeckEntry) -> str:
    text = (f"{e.count} of " if e.count != 1 else "") + f"{e.kind}({named_args(e.args)})"
    return text + "".join(f" for {cl.var} in {expr(cl.iter)}" for cl in e.clauses)


#: declarations written from their attributes alone
_TEMPLATES = {
    "Title": 'title "{d.text}"', "Order": "order {d.direction}",
    "SetupDecl": "setup {{ ... }}", "TurnDecl": "turn {{ ... }}", "AtEndDecl": "at end {{ ... }}",
    "TextDecl": 'text {d.key} "{d.text}"', "ColorDecl": "color {d.path} {d.color}",
    "KindColorDecl": "color {d.kind} by {d.attr}", "OffscreenDecl": "offscreen {d.name}",
    "Language": 'language "{d.text}"',
}


def decl(d) -> str:
    """A declaration as Meeple code (a block's statements are left out: ``{ ... }``)."""
    template = _TEMPLATES.get(d.node)
    if template is not None:
        return template.format(d=d)
    for write in (_data_decl, _rule_decl, _other_decl):
        text = write(d)
        if text is not None:
            return text
    return ir.show(d)


def _data_decl(d) -> str | None:
    """A declaration of the game's things: enums, kinds, boards, zones, decks, variables."""
    match d.node:
        case "EnumDecl":
            return f"enum {d.name} {{ {', '.join(d.values)} }}"
        case "KindDecl":
            fields = ", ".join(("var " if f.var else "") + f"{f.name}: {type_code(f.type)}"
                               + (f" = {expr(f.init)}" if f.init is not None else "") for f in d.fields)
            return f"kind {d.name} {{ {fields} }}"
        case "BoardDecl":
            shape = (f"{d.generator}({named_args(d.args)})" if d.generator
                     else f"cells {{ {len(d.cells)} cells }}")
            if d.named is not None:
                shape += f" named {expr(d.named)}"
            if d.drawn:
                shape += f" drawn at ({', '.join(expr(e) for e in d.drawn)})"
            return f"board {d.name}: {shape} holds {type_code(d.holds)} {d.visibility}"
        case "ZoneDecl":
            per = " per player" if d.per_player else ""
            return f"zone {d.name}: {type_code(d.holds)}{per} {d.visibility}"
        case "DeckDecl":
            return f"deck {d.name} into {d.into} {{ {'; '.join(deck_entry(e) for e in d.entries)} }}"
        case "SupplyDecl":
            return f"supply {d.name}: {d.entry.count} of {d.entry.kind}({named_args(d.entry.args)})"
        case "VarDecl":
            per = " per player" if d.per_player else ""
            vis = f" {d.visibility}" if d.visibility else ""
            return f"var {d.name}: {type_code(d.type)}{per}{vis} = {expr(d.init)}"
    return None


def _rule_decl(d) -> str | None:
    """A declaration of a rule: relations, functions, procedures, the end, the scores."""
    match d.node:
        case "ConstDecl":
            return f"const {d.name}: {type_code(d.type)} = {expr(d.value)}"
        case "RelationDecl":
            return f"relation {d.name}({params(d.params)}) = {expr(d.body)}"
        case "FunctionDecl":
            return f"function {d.name}({params(d.params)}): {type_code(d.result)} = {expr(d.body)}"
        case "ProcedureDecl":
            res = f": {type_code(d.result)}" if d.result is not None else ""
            return f"procedure {d.name}({params(d.params)}){res} {{ ... }}"
        case "EndDecl":
            return f"end when {expr(d.cond)}"
        case "ScoreDecl":
            return f"score({d.param}) = {expr(d.body)}"
        case "PayoffDecl":
            total = f" summing to {d.total}" if d.total is not None else ""
            per = f" per {d.per}" if d.per is not None else ""
            return f"payoff{f'({d.param})' if d.param else ''} = {expr(d.body)}{per}{total}"
        case "HeuristicDecl":
            return f"heuristic({d.param}) = {expr(d.body)}"
        case "AliasDecl":
            verb = f' "{d.verb}"' if d.verb is not None else ""
            return f"alias{verb}({d.param}) = {expr(d.body)}"
        case "TiebreakDecl":
            return f"tiebreak {d.name}({d.param}) = {expr(d.body)}"
        case "TeamDecl":
            return f"team({d.param}) = {expr(d.body)}"
        case "OutcomeDecl":
            rank = f", {d.rank}" if d.rank else ""
            clauses = " ".join(f"{c.outcome} when {expr(c.cond)}" if c.cond is not None
                               else f"{c.outcome} otherwise" for c in d.clauses)
            return f"outcome({d.param}{rank}) {{ {clauses} }}"
        case "ParticipantDecl":
            return f"participant {d.name}" + (f" score = {expr(d.score)}" if d.score is not None else "")
        case "InvariantDecl":
            return f"invariant {d.name} {d.moment}: {expr(d.cond)}"
    return None


def _other_decl(d) -> str | None:
    """The other declarations: players, bounds, secrets, names and labels."""
    match d.node:
        case "Players":
            return f"players {d.min}..{d.max}" + (f" default {d.default}" if d.default is not None else "")
        case "BoundDecl":
            return f"bound {d.count} {d.unit}" + (" or endless" if d.endless else "")
        case "SecretDecl":
            return f"secret {d.zone}" + (" until end" if d.until_end else "")
        case "NameDecl":
            forms = ", ".join(f'{f.case}: "{f.text}"' for f in d.forms)
            return (f'name {d.path} "{d.text}"' + (f' "{d.short}"' if d.short else "")
                    + (f" {d.gender}" if d.gender else "") + (f" {{{forms}}}" if forms else ""))
        case "ProseDecl":
            return f'prose {d.key} "{d.text}"'
        case "LabelDecl":
            return f'label {d.kind} "{d.template}"' + (f' "{d.short}"' if d.short else "")
    return None
