"""Source text -> IR (dsl/ast.py), with Lark errors turned into diagnostics."""
from __future__ import annotations

import io
import re
import zlib
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.lexer import PatternRE

from . import ast as ir, budgets as budget, diskcache, errors
from .files import read_regular_file

GRAMMAR = Path(__file__).with_name("grammar.lark")

# how the parser's terminal names read in messages
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'",
    "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COLON": "':'", "COMMA": "','", "EQUAL": "'='", "DOT": "'.'", "__ANON_0": "'..'",
    "AUG_OP": "'+=', '-='",
    "REMOVE_ITEM": "'remove'", "PERMUTE": "'permute'",
    "$END": "the end of the file",
}


_OPTIONS = dict(parser="lalr", start=["start", "expr"], propagate_positions=True,
                maybe_placeholders=True)
# how the terminals are edited after Lark reads the grammar (``whole_words``): part of
# the tables' key, so a change here makes them again
_LEXING = "keywords are whole words 2"
_WORD_END = "(?![A-Za-z0-9_])"
# statement keywords followed by an expression, which a variable may still be called: the
# keyword only where spaces and the start of an operand follow (`remove x`, `permute [a,
# b] to [b, a]`), so `remove(p) = 1`, `permute[0] = 2`, `remove += 1` and `remove.x = 3`
# set variables, as before these statements
_OPERAND_AFTER = {"REMOVE_ITEM", "PERMUTE"}
_OPERAND = r"(?=[ \t]+[^\s=+\-.])"


def whole_words(terminal) -> None:
    """Makes a keyword terminal (``"turn"``, or a set of words such as ``OUTCOME: "win" |
    "draw" | "loss"``) match whole words only, as Lark's ``edit_terminals``: ``winner``,
    ``drawn`` and ``turns2`` are names, never a keyword and the rest of a word. A keyword
    is tried before a name (its priority is raised by one), so where the parser may take
    either, the whole word ``win`` is the keyword and ``winner`` a name."""
    words = _words(terminal.pattern)
    if words is None:
        return
    terminal.pattern = PatternRE(f"(?:{'|'.join(words)}){_WORD_END}"
                                 f"{_OPERAND if terminal.name in _OPERAND_AFTER else ''}")
    terminal.priority += 1


def make_parser(text: str) -> Lark:
    """A parser made from the grammar's text (what ``parser`` and the shipped tables use)."""
    return Lark(text, edit_terminals=whole_words, **_OPTIONS)


def _save(made: Lark, buf) -> None:
    made.options.edit_terminals = None   # applied already: the function is not pickled
    made.save(buf)


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser of the grammar. Making its tables takes about 0.17 s, so they are
    shipped beside the grammar (``grammar.tables``, see ``shipped_tables``) and kept in
    the disk cache (dsl/diskcache.py), keyed by the grammar, the options, Lark's version
    and Python's; they are made afresh only when neither matches."""
    import lark
    text = GRAMMAR.read_text(encoding="utf-8")
    k = diskcache.key("grammar", text, repr(sorted(_OPTIONS.items())), _LEXING, lark.__version__,
                      *diskcache.runtime_key())
    saved = diskcache.get("grammar", k)
    if isinstance(saved, bytes):
        try:
            return Lark.load(io.BytesIO(saved))
        except Exception:  # noqa: BLE001 - a bad entry: build the tables again
            pass
    shipped = shipped_tables(text, lark.__version__)
    if shipped is not None:
        diskcache.put("grammar", k, shipped[1])
        return shipped[0]
    made = make_parser(text)
    buf = io.BytesIO()
    _save(made, buf)
    diskcache.put("grammar", k, buf.getvalue())
    return made


TABLES = GRAMMAR.with_name("grammar.tables")
_TABLES_MAGIC = b"meeple-grammar-tables 1\n"


def tables_key(text: str) -> str:
    """What the shipped tables are made from: the grammar's text and the options."""
    return diskcache.key("grammar", text, repr(sorted(_OPTIONS.items())), _LEXING)


def _tables_head(text: str, lark_version: str) -> bytes:
    return _TABLES_MAGIC + f"{tables_key(text)} lark {lark_version}\n".encode("ascii")


def shipped_tables(text: str, lark_version: str, path: Path | None = None) -> tuple[Lark, bytes] | None:
    """The parser of the shipped tables (``path``, by default ``grammar.tables``) and
    their bytes as ``Lark.save`` wrote them, or None when they were made from another
    grammar (``text`` is the grammar in use), other options or another Lark version,
    or cannot be read: stale tables are never used. ``python3 tools/grammar_tables.py``
    makes them again after the grammar changes (tests/test_grammar_tables.py checks)."""
    head = _tables_head(text, lark_version)
    try:
        data = (TABLES if path is None else path).read_bytes()
        if not data.startswith(head):
            return None
        saved = zlib.decompress(data[len(head):])
        return Lark.load(io.BytesIO(saved)), saved
    except Exception:  # noqa: BLE001 - missing, truncated or foreign: make them afresh
        return None


def write_tables(path: Path | None = None) -> Path:
    """Makes the parser's tables from the grammar and writes them where ``parser``
    looks for them (``grammar.tables``); returns the path."""
    import lark
    text = GRAMMAR.read_text(encoding="utf-8")
    buf = io.BytesIO()
    _save(make_parser(text), buf)
    path = TABLES if path is None else path
    path.write_bytes(_tables_head(text, lark.__version__) + zlib.compress(buf.getvalue(), 9))
    return path


@lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every word the grammar reserves or gives a meaning to (``turn``, ``choose``,
    ``public``, ``clockwise``...), sorted: for editors, highlighters and completion. A few
    of them (``name``, ``cells``, ``max``...) are also usable as names where the grammar
    allows it."""
    words = set()
    for t in parser().terminals:
        words.update(_words(t.pattern) or ())
    return tuple(sorted(words))


_KEYWORD_RE = re.compile(r"[a-z_]+")

# every place a name may stand, each as a ruleset with the name written W: a reserved word
# is a keyword that fails to parse in one of them
NAME_PLACES = (
    "var W: int = 0", "zone W: Card", "enum E { W }", "kind K { W: int }",
    "function W(W: int): int = W", "procedure W(W: int) { call W(W) }",
    "turn { let W = 1 }", "turn { W = 1 }", "turn { W(active) = 1 }", "turn { W.v = 1 }",
    "turn { W[0].v = 1 }", "turn { let a = 1\n W = 1 }", "turn { let a = 1\n W(active) = 1 }",
    "turn { let a = 1\n W.v = 1 }", "turn { let a = 1\n W[0].v = 1 }",
    "turn { if a { }\n W = 1 }", "turn { for W in W { } }", "turn { let a = W }",
    "turn { let a = W + W }", "turn { let a = W(W, W) }", "turn { let a = W.v }",
    "turn { let a = [W, W] }", "turn { let a = W[0] }", "turn { if W { } }",
    "turn { let a = sum(W for W in W if W) }", "turn { move W to W }",
)
_PLACES_HEAD = "ruleset t\nplayers 2..2\nkind Card { v: int }\n"


@lru_cache(maxsize=1)
def reserved_words() -> tuple[str, ...]:
    """The keywords that cannot be used as a name everywhere a name may stand (the words
    that begin a statement, ``true``, ``not``, ``and``...), sorted: what the parser reads
    as the keyword in one of ``NAME_PLACES``, found by parsing them. docs/language.md
    lists them (Appendix B); using one as a name is the error ``parse/reserved-word``."""
    out = []
    for word in keywords():
        try:
            parser().parse(_PLACES_HEAD + "\n".join(NAME_PLACES).replace("W", word), start="start",
                           on_error=_keyword_as_name)
        except UnexpectedInput:
            out.append(word)
    return tuple(out)
# a set of keywords (VISIBILITY, TIE_KIND...), as Lark writes it, made whole words or not
_WORDS_RE = re.compile(r"\(\?:([a-z_]+(?:\|[a-z_]+)*)\)(?:" + re.escape(_WORD_END) + r")?(?:"
                       + re.escape(_OPERAND) + r")?\Z")


def _words(pattern) -> list[str] | None:
    """The words a keyword terminal's pattern matches, or None for another terminal."""
    if pattern.type == "str":
        return [pattern.value] if _KEYWORD_RE.fullmatch(pattern.value) else None
    m = _WORDS_RE.match(pattern.value)
    return m.group(1).split("|") if m else None

_new = ir.trusted   # the parser's fields have their types already: no validation


def _span(meta_or_token, file: str) -> ir.Span:
    m = meta_or_token
    if getattr(m, "empty", False):
        return _new(ir.Span, file=file)
    return _new(ir.Span, file=file, line=m.line, column=m.column,
                   end_line=getattr(m, "end_line", m.line) or m.line,
                   end_column=getattr(m, "end_column", m.column) or m.column)


_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}


class _BadLiteral(Exception):
    def __init__(self, tok: Token, column: int, message: str, hint: str | None = None):
        super().__init__(message)
        self.line, self.column, self.hint = tok.line, column, hint
        self.code = "parse/bad-literal"


def _grown(read, op: Token, value):
    """``PLACE += e``'s value: ``PLACE + e`` (``-`` for ``-=``), at the operator."""
    return _new(ir.BinOp, span=read.span, op=str(op)[0], left=read, right=value)


def _all(conds: list):
    """Conditions joined with ``and``, in order (the first decides first)."""
    out = conds[0]
    for c in conds[1:]:
        out = _new(ir.BinOp, span=c.span, op="and", left=out, right=c)
    return out


def _string(tok: Token) -> str:
    """A string literal's text. Escapes: \\\\ \\" \\n \\t \\uXXXX."""
    raw, out, i = str(tok)[1:-1], [], 0
    while i < len(raw):
        ch = raw[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = raw[i + 1:i + 2]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "u" and len(raw) >= i + 6 and all(c in "0123456789abcdefABCDEF" for c in raw[i + 2:i + 6]):
            code = int(raw[i + 2:i + 6], 16)
            if 0xD800 <= code <= 0xDFFF:
                raise _BadLiteral(tok, tok.column + 1 + i,
                                  f"'\\u{raw[i + 2:i + 6]}' is half of a surrogate pair, not a character")
            out.append(chr(code))
            i += 6
        else:
            raise _BadLiteral(tok, tok.column + 1 + i, f"unknown escape '\\{nxt}' in a string")
    return "".join(out)


@v_args(meta=True)
class _ToIR(Transformer):
    """One method per grammar rule; each returns the IR node of the same name."""

    def __init__(self, file: str, max_int: int = budget.DEFAULT.integer):
        super().__init__()
        self.file = file
        self.max_int = max_int

    def int(self, tok: Token) -> int:
        """A number of the source, at most the integer budget (so no 5,000-digit number
        reaches Python's int conversion)."""
        text = str(tok).lstrip("0") or "0"
        if len(text) > len(str(self.max_int)) or int(text) > self.max_int:
            raise _BadLiteral(tok, tok.column, f"the number {text[:20]}{'...' if len(text) > 20 else ''} "
                                               f"is larger than the integer budget ({self.max_int:,})",
                              budget.hint("integer"))
        return int(text)

    def s(self, meta) -> ir.Span:
        return _span(meta, self.file)

    def t(self, tok: Token) -> ir.Span:
        return _span(tok, self.file)

    # -------------------------------------------------------- file and declarations
    def start(self, meta, children):
        header, *decls = children
        kind, name = header
        return _new(ir.File, span=self.s(meta), kind=kind, name=name, decls=decls)

    def header(self, meta, c):
        return (str(c[0]), str(c[1]))

    def title_decl(self, meta, c):
        return _new(ir.Title, span=self.s(meta), text=_string(c[0]))

    def language_decl(self, meta, c):
        return _new(ir.Language, span=self.s(meta), text=_string(c[0]))

    def players_decl(self, meta, c):
        return _new(ir.Players, span=self.s(meta), min=self.int(c[0]), max=self.int(c[1]),
                    default=self.int(c[2]) if c[2] is not None else None)

    def order_decl(self, meta, c):
        return _new(ir.Order, span=self.s(meta), direction=str(c[0]))

    def name_list(self, meta, c):
        return [str(x) for x in c]

    def enum_decl(self, meta, c):
        return _new(ir.EnumDecl, span=self.t(c[0]), name=str(c[0]), values=c[1])

    def field(self, meta, c):
        var, name, type_, init = c
        return _new(ir.FieldDecl, span=self.t(name), name=str(name), type=type_, var=var is not None,
                            init=init)

    def kind_decl(self, meta, c):
        return _new(ir.KindDecl, span=self.t(c[0]), name=str(c[0]),
                    fields=[x for x in c[1:] if x is not None])

    def named_arg(self, meta, c):
        return _new(ir.NamedArg, span=self.t(c[0]), name=str(c[0]), value=c[1])

    def generator(self, meta, c):
        return (str(c[0]), [x for x in c[1:] if x is not None], self.t(c[0]))

    def cell_def(self, meta, c):
        return _new(ir.CellDef, span=self.t(c[0]), name=str(c[0]), coords=[x for x in c[1:] if x is not None])

    def holds(self, meta, c):
        return (c[0], str(c[1]) if c[1] is not None else "public", c[2])

    def dark(self, meta, c):
        return True

    def named_as(self, meta, c):
        return _new(ir.StrLit, span=self.t(c[0]), value=_string(c[0]))

    def board_decl(self, meta, c):
        name, (gen, args, _), named, drawn, (holds, vis, dark) = c
        return _new(ir.BoardDecl, span=self.t(name), name=str(name), generator=gen, args=args,
                            holds=holds, visibility=vis, named=named, drawn=drawn or [], dark=dark)

    def drawn_at(self, meta, c):
        return list(c)

    def board_cells_decl(self, meta, c):
        name, *cells, drawn, (holds, vis, dark) = c
        return _new(ir.BoardDecl, span=self.t(name), name=str(name), cells=cells, holds=holds,
                            visibility=vis, drawn=drawn or [], dark=dark)

    def per_player(self, meta, c):
        return True

    def zone_decl(self, meta, c):
        name, holds, per, vis, dark = c
        return _new(ir.ZoneDecl, span=self.t(name), name=str(name), holds=holds, per_player=bool(per),
                           visibility=str(vis) if vis else ("owner" if per else "public"), dark=dark)

    def for_clauses(self, meta, c):
        return c

    def item_ctor(self, meta, c):
        return (str(c[0]), [x for x in c[1:] if x is not None], self.t(c[0]))

    def deck_entry(self, meta, c):
        count, (kind, args, span), clauses = c
        return _new(ir.DeckEntry, span=span, count=self.int(count) if count is not None else 1, kind=kind,
                            args=args, clauses=clauses)

    def deck_decl(self, meta, c):
        name, into, *entries = c
        return _new(ir.DeckDecl, span=self.t(name), name=str(name), into=str(into), entries=entries)

    def var_decl(self, meta, c):
        name, type_, per, vis, init = c
        return _new(ir.VarDecl, span=self.t(name), name=str(name), type=type_, per_player=bool(per),
                          visibility=str(vis) if vis is not None and str(vis) != "public" else None,
                          init=init)

    def param(self, meta, c):
        return _new(ir.Param, span=self.t(c[0]), name=str(c[0]), type=c[1])

    def params(self, meta, c):
        return [x for x in c if x is not None]

    def const_decl(self, meta, c):
        name, type_, value = c
        return _new(ir.ConstDecl, span=self.t(name), name=str(name), type=type_, value=value)

    def relation_decl(self, meta, c):
        name, *params, body = c
        return _new(ir.RelationDecl, span=self.t(name), name=str(name), params=params, body=body)

    def function_decl(self, meta, c):
        name, params, result, body = c
        return _new(ir.FunctionDecl, span=self.t(name), name=str(name), params=params, result=result,
                               body=body)

    def procedure_decl(self, meta, c):
        name, params, body = c
        return _new(ir.ProcedureDecl, span=self.t(name), name=str(name), params=params, body=body)

    def procedure_result_decl(self, meta, c):
        name, params, result, body = c
        return _new(ir.ProcedureDecl, span=self.t(name), name=str(name), params=params, body=body,
                                result=result)

    def setup_decl(self, meta, c):
        return _new(ir.SetupDecl, span=self.s(meta), body=c[0])

    def turn_decl(self, meta, c):
        return _new(ir.TurnDecl, span=self.s(meta), body=c[0])

    def end_decl(self, meta, c):
        return _new(ir.EndDecl, span=self.s(meta), cond=c[0])

    def at_end_decl(self, meta, c):
        return _new(ir.AtEndDecl, span=self.s(meta), body=c[0])

    def moment(self, meta, c):
        return " ".join(str(x) for x in c)

    def invariant_decl(self, meta, c):
        return _new(ir.InvariantDecl, span=self.t(c[0]), name=str(c[0]), moment=c[1] or "always", cond=c[2])

    def bound_decl(self, meta, c):
        return _new(ir.BoundDecl, span=self.s(meta), count=self.int(c[0]), unit=str(c[1]),
                    endless=bool(c[2]))

    def or_endless(self, meta, c):
        return True

    def until_end(self, meta, c):
        return True

    def secret_decl(self, meta, c):
        return _new(ir.SecretDecl, span=self.t(c[0]), zone=str(c[0]), until_end=bool(c[1]))

    def score_decl(self, meta, c):
        return _new(ir.ScoreDecl, span=self.s(meta), param=str(c[0]), body=c[1])

    def payoff_decl(self, meta, c):
        return _new(ir.PayoffDecl, span=self.s(meta), param=None if c[0] is None else str(c[0]),
                    body=c[1], per=c[2], total=c[3])

    def payoff_per(self, meta, c):
        return int(c[0])

    def payoff_total(self, meta, c):
        return -int(c[-1]) if any(x is not None and str(x) == "-" for x in c) else int(c[-1])

    def heuristic_decl(self, meta, c):
        return _new(ir.HeuristicDecl, span=self.s(meta), param=str(c[0]), body=c[1])

    def alias_decl(self, meta, c):
        return _new(ir.AliasDecl, span=self.s(meta), verb=None if c[0] is None else _string(c[0]),
                    param=str(c[1]), body=c[2])

    def outcome_decl(self, meta, c):
        return _new(ir.OutcomeDecl, span=self.s(meta), param=str(c[0]),
                              rank=str(c[1]) if c[1] is not None else None, clauses=list(c[2:]))

    def outcome_clause(self, meta, c):
        return _new(ir.OutcomeClause, span=self.t(c[0]), outcome=str(c[0]),
                                cond=None if isinstance(c[1], Token) else c[1])

    def participant_decl(self, meta, c):
        return _new(ir.ParticipantDecl, span=self.t(c[0]), name=str(c[0]), score=c[1])

    def team_decl(self, meta, c):
        return _new(ir.TeamDecl, span=self.s(meta), param=str(c[0]), body=c[1])

    def tiebreak_decl(self, meta, c):
        return _new(ir.TiebreakDecl, span=self.t(c[0]), name=str(c[0]), param=str(c[1]), body=c[2])

    def path(self, meta, c):
        return ".".join(str(x) for x in c if x is not None)

    def name_decl(self, meta, c):
        return _new(ir.NameDecl, span=self.s(meta), path=c[0], text=_string(c[1]),
                    short=_string(c[2]) if c[2] is not None else None,
                    gender=str(c[3]) if c[3] is not None else None,
                    gender_span=self.t(c[3]) if c[3] is not None else None,
                    forms=[f for f in c[4:] if f is not None])

    def name_form(self, meta, c):
        return _new(ir.NameForm, span=self.t(c[0]), case=str(c[0]), text=_string(c[1]))

    def offscreen_decl(self, meta, c):
        return _new(ir.OffscreenDecl, span=self.t(c[0]), name=str(c[0]))

    def prose_decl(self, meta, c):
        return _new(ir.ProseDecl, span=self.s(meta), key=c[0], text=_string(c[1]))

    def text_decl(self, meta, c):
        return _new(ir.TextDecl, span=self.t(c[0]), key=str(c[0]), text=_string(c[1]))

    def label_decl(self, meta, c):
        return _new(ir.LabelDecl, span=self.s(meta), kind=str(c[0]), template=_string(c[1]),
                            short=_string(c[2]) if c[2] is not None else None)

    def color_decl(self, meta, c):
        return _new(ir.ColorDecl, span=self.s(meta), path=c[0], color=str(c[1]))

    def kind_color_decl(self, meta, c):
        return _new(ir.KindColorDecl, span=self.s(meta), kind=str(c[0]), attr=str(c[1]))

    def replace_decl(self, meta, c):
        return _new(ir.Replace, span=self.s(meta), decl=c[0])

    def extend_target(self, meta, c):
        words = [str(x) for x in c]
        if words[0] == "procedure":
            return ("procedure", words[1])
        return (" ".join(words), None)

    def extend_decl(self, meta, c):
        (target, name), body = c
        return _new(ir.Extend, span=self.s(meta), target=target, name=name, body=body)

    def remove_decl(self, meta, c):
        return _new(ir.Remove, span=self.s(meta), what=str(c[-2]), name=str(c[-1]))

    def supply_decl(self, meta, c):
        name, count, (kind, args, span) = c
        entry = _new(ir.DeckEntry, span=span, count=self.int(count), kind=kind, args=args, clauses=[])
        return _new(ir.SupplyDecl, span=self.t(name), name=str(name), entry=entry)

    # -------------------------------------------------------- types
    def type_ref(self, meta, c):
        x = c[0]
        if isinstance(x, ir.TypeRef):
            return x
        return _new(ir.TypeRef, span=self.t(x), name=str(x))

    def list_type(self, meta, c):
        return _new(ir.TypeRef, span=self.s(meta), name="list", item=c[0])

    def zone_type(self, meta, c):
        kind = _new(ir.TypeRef, span=self.t(c[0]), name=str(c[0])) if c[0] is not None else None
        return _new(ir.TypeRef, span=self.s(meta), name="zone", item=kind)

    def tuple_type(self, meta, c):
        return _new(ir.TypeRef, span=self.s(meta), name="tuple", parts=[p for p in c if p is not None])

    # -------------------------------------------------------- statements
    def block(self, meta, c):
        return _new(ir.Block, span=self.s(meta), stmts=c)

    def let_stmt(self, meta, c):
        return _new(ir.Let, span=self.t(c[0]), var=str(c[0]), type=c[1], value=c[2])

    def target(self, meta, c):
        if len(c) > 2:  # `NAME(a, b) = ...`: the grammar shares its brackets with calls
            message, hint = errors.one_player_target(str(c[0]))
            bad = _BadLiteral(c[0], c[0].column, message, hint)
            bad.code = "parse/unexpected-token"
            raise bad
        return (str(c[0]), c[1] if len(c) > 1 else None, self.t(c[0]))

    def assign_stmt(self, meta, c):
        (name, player, span), value = c
        return _new(ir.Assign, span=span, var=name, player=player, value=value)

    def attr_assign_stmt(self, meta, c):
        return _new(ir.AttrAssign, span=self.t(c[1]), var=str(c[0]), attr=str(c[1]), value=c[2])

    def item_attr_assign(self, meta, c):
        # `top(c).w = 1`: the item is any call, index or attribute path
        return _new(ir.AttrAssign, span=self.t(c[1]), var="", attr=str(c[1]), value=c[2], obj=c[0])

    def name_index(self, meta, c):
        return _new(ir.Index, span=self.s(meta), obj=_new(ir.Var, span=self.t(c[0]), name=str(c[0])),
                    index=c[1])

    def name_attr(self, meta, c):
        return _new(ir.Attr, span=self.t(c[1]), obj=_new(ir.Var, span=self.t(c[0]), name=str(c[0])),
                    name=str(c[1]))

    def index_assign_stmt(self, meta, c):
        # `xs[i] = e`
        name, index, value = c
        target = _new(ir.Var, span=self.t(name), name=str(name))
        return _new(ir.IndexAssign, span=target.span, target=target, indices=[index], value=value)

    def path_index_assign(self, meta, c):
        # `v(p)[i] = e`, `grid[r][c] = e`, `u.marks[i] = e`: the indices written last
        # are peeled off the path; what remains is the place (the checker says whether
        # it is one)
        path, index, value = c
        indices = [index]
        while path.node == "Index":
            indices.insert(0, path.index)
            path = path.obj
        return _new(ir.IndexAssign, span=path.span, target=path, indices=indices, value=value)

    # `PLACE += e`, `PLACE -= e`: the place set to `PLACE + e` (its reading a copy of its own)
    def aug_assign_stmt(self, meta, c):
        (name, player, span), op, value = c
        read = _new(ir.Var, span=span, name=name) if player is None else \
            _new(ir.Call, span=span, func=name, args=[ir.copied(player)])
        return _new(ir.Assign, span=span, var=name, player=player, value=_grown(read, op, value))

    def attr_aug_assign(self, meta, c):
        name, attr, op, value = c
        read = _new(ir.Attr, span=self.t(attr), obj=_new(ir.Var, span=self.t(name), name=str(name)), name=str(attr))
        return _new(ir.AttrAssign, span=self.t(attr), var=str(name), attr=str(attr), value=_grown(read, op, value))

    def item_attr_aug_assign(self, meta, c):
        path, attr, op, value = c
        read = _new(ir.Attr, span=self.t(attr), obj=ir.copied(path), name=str(attr))
        return _new(ir.AttrAssign, span=self.t(attr), var="", attr=str(attr), value=_grown(read, op, value),
                    obj=path)

    def index_aug_assign(self, meta, c):
        name, index, op, value = c
        read = _new(ir.Index, span=self.t(name), obj=_new(ir.Var, span=self.t(name), name=str(name)),
                    index=ir.copied(index))
        return self.index_assign_stmt(meta, [name, index, _grown(read, op, value)])

    def path_index_aug_assign(self, meta, c):
        path, index, op, value = c
        read = _new(ir.Index, span=path.span, obj=ir.copied(path), index=ir.copied(index))
        return self.path_index_assign(meta, [path, index, _grown(read, op, value)])

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def if_stmt(self, meta, c):
        cond, block, *rest = c
        other = rest[-1]
        return _new(ir.If, span=self.s(meta), branches=[(cond, block)] + list(rest[:-1]), other=other)

    def for_stmt(self, meta, c):
        return _new(ir.For, span=self.s(meta), var=str(c[0]), iter=c[1], body=c[2])

    def while_stmt(self, meta, c):
        return _new(ir.While, span=self.s(meta), cond=c[0], limit=self.int(c[1]), body=c[2])

    def chooser(self, meta, c):
        return ("by", c[0])

    def verb(self, meta, c):
        return ("as", _string(c[0]))

    def alone_verb(self, meta, c):
        return ("or", _string(c[0]), c[1] if len(c) > 1 else None)

    def said_name(self, meta, c):
        return ("said", str(c[0]))

    def choose_stmt(self, meta, c):
        var, said, options, chooser, verb, *alones = c
        conds = [a[2] for a in alones if a]
        alones = [a[1] for a in alones if a]
        extra: dict = {"said": said[1]} if said else {}
        if len(alones) > 1:
            extra["more"] = alones[1:]
        if any(c is not None for c in conds):   # (verbs offered under a condition)
            extra["when"] = conds
        return _new(ir.Choose, span=self.s(meta), var=str(var), options=options,
                         chooser=chooser[1] if chooser else None, verb=verb[1] if verb else None,
                         alone=alones[0] if alones else None, **extra)

    def choose_tuple_stmt(self, meta, c):
        # (moves without an object are read, for the checker to say where they go instead)
        k = next(i for i, x in enumerate(c) if not isinstance(x, Token))
        names, (options, chooser, verb, *alones) = c[:k], c[k:]
        parts = [str(n) for n in names]
        alones = [a[1] for a in alones if a]
        span = self.s(meta)
        # the hidden local holding the tuple: named after the statement, so that each has its own
        var = f"$({','.join(parts)})@{span.line}:{span.column}"
        return _new(ir.Choose, span=span, var=var, options=options, parts=parts,
                    chooser=chooser[1] if chooser else None, verb=verb[1] if verb else None,
                    alone=alones[0] if alones else None, more=alones[1:])

    def choose_each_stmt(self, meta, c):
        picks, var, arg, options, each, seats, verb = c
        return _new(ir.ChooseEach, span=self.s(meta), var=str(var), arg=str(arg), options=options,
                    each=str(each), seats=seats, verb=verb[1] if verb else None,
                    picks=None if picks is None else int(picks))

    def choose_subset_stmt(self, meta, c):
        var, options, where, chooser, verb = c
        return _new(ir.ChooseSubset, span=self.s(meta), var=str(var), options=options, where=where,
                               chooser=chooser[1] if chooser else None,
                               verb=verb[1] if verb else None)

    def key_list(self, meta, c):
        return c

    def tie_rule(self, meta, c):
        return (str(c[0]), c[1][1] if c[1] else None)

    def best_stmt(self, meta, c):
        var, options, keys, tie = c
        tie_kind, chooser = tie if tie else ("choose", None)
        return _new(ir.Best, span=self.s(meta), var=str(var), options=options, keys=keys,
                       tie=tie_kind, chooser=chooser)

    def facing(self, meta, c):
        return (str(c[0]), c[1])

    def move_stmt(self, meta, c):
        facing, seen_by = c[2] if c[2] is not None else (None, None)
        return _new(ir.Move, span=self.s(meta), what=c[0], to=c[1], facing=facing, seen_by=seen_by)

    def flip_stmt(self, meta, c):
        facing, seen_by = c[1]
        return _new(ir.Flip, span=self.s(meta), what=c[0], facing=facing, seen_by=seen_by)

    def shuffle_stmt(self, meta, c):
        return _new(ir.Shuffle, span=self.s(meta), zone=c[0])

    def deal_count(self, meta, c):
        return None if str(c[0]) == "all" else self.int(c[0])

    def deal_stmt(self, meta, c):
        return _new(ir.Deal, span=self.t(c[2]), count=c[0], source=c[1], to=str(c[2]))

    def fill_stmt(self, meta, c):
        return _new(ir.Fill, span=self.t(c[0]), board=str(c[0]), source=c[1])

    def random_stmt(self, meta, c):
        return _new(ir.PickRandom, span=self.s(meta), var=str(c[0]), options=c[1])

    def roll_stmt(self, meta, c):
        _, *names, faces = c
        return _new(ir.Roll, span=self.s(meta), vars=[str(n) for n in names], faces=faces)

    def made_value(self, meta, c):
        return _new(ir.MadeValue, span=self.t(c[0]), var=str(c[0]), value=c[1])

    def make_stmt(self, meta, c):
        _, kind, to, face, *values = c
        facing, seen_by = face if face is not None else (None, None)
        return _new(ir.Make, span=self.s(meta), kind=str(kind), to=to, facing=facing, seen_by=seen_by,
                    values=[v for v in values if v is not None])

    def remove_item_stmt(self, meta, c):
        return _new(ir.RemoveItem, span=self.s(meta), what=c[1])

    def permute_stmt(self, meta, c):
        return _new(ir.Permute, span=self.s(meta), what=c[1], to=c[2])

    def log_stmt(self, meta, c):
        return _new(ir.Log, span=self.s(meta), key=str(c[0]), template=_string(c[1]))

    def call_stmt(self, meta, c):
        return _new(ir.CallProc, span=self.t(c[0]), proc=str(c[0]), args=[x for x in c[1:] if x is not None])

    def return_stmt(self, meta, c):
        return _new(ir.Return, span=self.s(meta), value=c[0])

    def let_call_stmt(self, meta, c):
        var, proc, *args = c
        return _new(ir.CallResult, span=self.t(var), var=str(var), new=True, proc=str(proc),
                             args=[x for x in args if x is not None])

    def assign_call_stmt(self, meta, c):
        (name, player, span), proc, *args = c
        return _new(ir.CallResult, span=span, var=name, player=player, proc=str(proc),
                             args=[x for x in args if x is not None])

    def reveal_stmt(self, meta, c):
        return _new(ir.Reveal, span=self.s(meta), zone=c[0])

    def reveal_to_stmt(self, meta, c):
        return _new(ir.RevealTo, span=self.s(meta), what=c[0], to=c[1])

    def end_game_stmt(self, meta, c):
        return _new(ir.EndGame, span=self.s(meta))

    # -------------------------------------------------------- expressions
    def int_lit(self, meta, c):
        return _new(ir.IntLit, span=self.t(c[0]), value=self.int(c[0]))

    def str_lit(self, meta, c):
        return _new(ir.StrLit, span=self.t(c[0]), value=_string(c[0]))

    def true_lit(self, meta, c):
        return _new(ir.BoolLit, span=self.s(meta), value=True)

    def false_lit(self, meta, c):
        return _new(ir.BoolLit, span=self.s(meta), value=False)

    def none_lit(self, meta, c):
        return _new(ir.NoneLit, span=self.s(meta))

    def var(self, meta, c):
        return _new(ir.Var, span=self.t(c[0]), name=str(c[0]))

    def attr(self, meta, c):
        return _new(ir.Attr, span=self.t(c[1]), obj=c[0], name=str(c[1]))

    def index(self, meta, c):
        return _new(ir.Index, span=self.s(meta), obj=c[0], index=c[1])

    def call(self, meta, c):
        return _new(ir.Call, span=self.t(c[0]), func=str(c[0]), args=[x for x in c[1:] if x is not None])

    def cell_at(self, meta, c):
        name, board, *coords = c
        if str(name) == "ray":
            return _new(ir.Ray, span=self.t(name), start=board, steps=coords)
        if str(name) != "cell":  # named arguments belong to cell(...) and ray(...) only
            bad = _BadLiteral(coords[0].span, coords[0].span.column,
                              f"'{name}' is called with a named argument '{coords[0].name}:'",
                              "only cell(BOARD, coordinate: value, ...) and ray(START, "
                              "coordinate: step, ...) take named arguments; "
                              "write the arguments without names")
            bad.code = "parse/unexpected-token"
            raise bad
        return _new(ir.CellAt, span=self.t(name), board=board, coords=coords)

    def for_clause(self, meta, c):
        return _new(ir.ForClause, span=self.t(c[0]), var=str(c[0]), iter=c[1])

    def if_clause(self, meta, c):
        return ("if", c[0])

    def _comp(self, meta, elem, rest):
        """``[e for a in A if c1 for b in B if c2 if c3]``: the clauses nested as Python
        nests them. An ``if`` before a later ``for`` guards that ``for``'s list, which is
        computed only when the condition holds: ``for b in (if c1 then B else [])``; the
        ``if`` clauses after the last ``for`` are its condition, joined with ``and``."""
        clauses, conds = [], []
        for cl in rest:
            if isinstance(cl, tuple):
                conds.append(cl[1])
                continue
            if conds:
                guard = _all(conds)
                empty = _new(ir.ListLit, span=guard.span)
                cl = _new(ir.ForClause, span=cl.span, var=cl.var,
                          iter=_new(ir.CondExpr, span=guard.span, cond=guard, then=cl.iter, other=empty))
                conds = []
            clauses.append(cl)
        cond = _all(conds) if conds else None
        return _new(ir.Comprehension, span=self.s(meta), elem=elem, clauses=clauses, cond=cond)

    def aggregate(self, meta, c):
        name, elem, *rest = c
        return _new(ir.Aggregate, span=self.t(name), func=str(name), comp=self._comp(meta, elem, rest))

    def comprehension(self, meta, c):
        elem, *rest = c
        return self._comp(meta, elem, rest)

    def list_lit(self, meta, c):
        return _new(ir.ListLit, span=self.s(meta), items=[x for x in c if x is not None])

    def tuple_lit(self, meta, c):
        return _new(ir.TupleLit, span=self.s(meta), items=[x for x in c if x is not None])

    def _binop(self, meta, op, left, right):
        return _new(ir.BinOp, span=self.s(meta), op=op, left=left, right=right)

    def or_op(self, meta, c):
        return self._binop(meta, "or", c[0], c[1])

    def and_op(self, meta, c):
        return self._binop(meta, "and", c[0], c[1])

    def not_op(self, meta, c):
        return _new(ir.UnOp, span=self.s(meta), op="not", operand=c[0])

    def neg_op(self, meta, c):
        return _new(ir.UnOp, span=self.s(meta), op="-", operand=c[0])

    def comp_op(self, meta, c):
        return " ".join(str(x) for x in c)

    def add_op(self, meta, c):
        return str(c[0])

    mul_op = add_op

    def compare_op(self, meta, c):
        return self._binop(meta, c[1], c[0], c[2])

    def arith_op(self, meta, c):
        return self._binop(meta, c[1], c[0], c[2])

    def range_op(self, meta, c):
        return self._binop(meta, "..", c[0], c[1])

    def cond_expr(self, meta, c):
        # `if a then x elif b then y else z` is `if a then x else (if b then y else z)`:
        # the elif parts fold into nested conditionals, from the last one outwards
        cond, then, *parts, other = c
        for part in reversed(parts):
            other = _new(ir.CondExpr, span=part[2], cond=part[0], then=part[1], other=other)
        return _new(ir.CondExpr, span=self.s(meta), cond=cond, then=then, other=other)

    def cond_elif(self, meta, c):
        return (c[0], c[1], self.s(meta))


def _expected_words(expected) -> list[str]:
    out = []
    for e in expected:
        if e in _TERMINAL_WORDS:
            out.append(_TERMINAL_WORDS[e])
            continue
        try:
            pattern = parser().get_terminal(e).pattern
        except KeyError:
            continue
        words = _words(pattern)
        if words is not None:   # a keyword, or a set of them: VISIBILITY, TIE_KIND...
            out.extend(f"'{w}'" for w in words)
        elif pattern.type == "str":
            out.append(f"'{pattern.value}'")
    return sorted(set(out))


def _token_words(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    return f"'{tok}'"


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# what follows a name that starts a statement: `x = `, `x(p) = `, `x.attr = `, `x[i].attr = `
_AFTER_TARGET = re.compile(r"\s*(\(|=(?!=)|\.(?!\.)|\[)")


def _keyword_as_name(e: UnexpectedInput) -> bool:
    """Lets a keyword stand as a name where only a name fits.

    The LALR tables merge look-ahead sets, so after an expression the lexer may take a
    word such as ``score`` or ``name`` for the keyword of a declaration even where only
    a statement (``score(p) = 3``) can follow. When the keyword cannot be accepted here,
    a name can, and the word is followed by ``(``, ``=``, ``.`` or ``[`` (an assignment
    target), the
    word is fed to the parser as a name and parsing goes on. (A word the parser can accept
    as its keyword here is a reserved word: see ``reserved_word``.)"""
    if not isinstance(e, UnexpectedToken) or e.token.type in ("NAME", "$END"):
        return False
    tok = e.token
    if not _WORD.match(str(tok)) or "NAME" not in (e.accepts or e.expected):
        return False
    text = e.interactive_parser.lexer_thread.state.text
    text = getattr(text, "text", text)
    if not _AFTER_TARGET.match(text, tok.end_pos):
        return False
    e.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(tok), tok))
    return True


def parse(text: str, file: str = "<string>", budgets: budget.Budgets | None = None) -> ir.File:
    """Parses one file; raises MeepleError with a diagnostic on a syntax error."""
    budgets = budget.check(budgets)
    bad = _bad_character(text, file) or _too_many_brackets(text, budgets.nesting, file)
    if bad is not None:
        raise errors.MeepleError([bad], {file: text})
    try:
        tree = parser().parse(text, start="start", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        d = _return_then_statement(e, text, file) or reserved_word(e, text, file) \
            or _probable_mistake(e, text, file) or _comprehension_slip(e, text, file) \
            or _syntax_diagnostic(e, file)
        raise errors.MeepleError([d], {file: text}) from None
    except RecursionError:  # pragma: no cover - the LALR parser does not recurse
        raise errors.MeepleError([errors.Diagnostic(
            "load/budget", ir.Span(file=file, line=1, column=1), "the file is nested too deeply",
            budget.hint("nesting"))], {file: text}) from None
    deep = _too_deep(tree, budgets.nesting, file)
    if deep is not None:
        raise errors.MeepleError([deep], {file: text})
    try:
        return _ToIR(file, budgets.integer).transform(tree)
    except VisitError as e:  # a malformed literal, for instance
        bad = e.orig_exc
        hint = "strings may use the escapes \\\\ \\\" \\n \\t \\uXXXX"
        if isinstance(bad, _BadLiteral):
            span, message = ir.Span(file=file, line=bad.line, column=bad.column), str(bad)
            hint = bad.hint or hint
        else:
            meta = getattr(e.obj, "meta", e.obj)
            span = ir.Span(file=file, line=getattr(meta, "line", 1) or 1,
                           column=getattr(meta, "column", 1) or 1)
            message = f"a malformed literal: {bad}"
        code = getattr(bad, "code", "parse/bad-literal")
        raise errors.MeepleError([errors.Diagnostic(code, span, message, hint)],
                                 {file: text}) from None


_SPACE = re.compile(r"(?:\s|#[^\n]*)*")
_LOWER_WORD = re.compile(r"(?<![A-Za-z0-9_])[a-z_]+(?![A-Za-z0-9_])")


def _error_offset(e: UnexpectedInput, text: str) -> int | None:
    if isinstance(e, UnexpectedToken) and e.token.type != "$END":
        return e.token.start_pos
    if isinstance(e, UnexpectedCharacters):
        return e.pos_in_stream
    return len(text) if isinstance(e, (UnexpectedToken, UnexpectedEOF)) else None


def _parses_past(text: str, offset: int) -> bool:
    """Whether ``text`` parses (with keywords as names where only a name fits), or at
    least gets past ``offset`` before its first error."""
    try:
        parser().parse(text, start="start", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        at = _error_offset(e, text)
        return at is not None and at > offset
    return True


def reserved_word(e: UnexpectedInput, text: str, file: str) -> errors.Diagnostic | None:
    """A keyword used as a name where the parser takes it for its keyword (``best = 1``
    starts a `best` statement, ``let x = not`` a `not`...): the error is found at the word
    or a little after it, on its line. When the same text with that word renamed gets past
    the error's place (and past the token after the word), the word is the problem:
    "`best` is a reserved word", at the first place renamed. The nearest three keywords
    are tried, each renamed at its last places on the line: all of them (`if(if, if)`),
    then fewer (`if if {`)."""
    at = _error_offset(e, text)
    if at is None or at > len(text):
        return None
    line_start = text.rfind("\n", 0, len(text[:at].rstrip())) + 1   # the file's end: its last line
    end = _LOWER_WORD.match(text, at)
    code = _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group()),
                                  text[line_start:end.end() if end else at])
    found = [m for m in _LOWER_WORD.finditer(code) if m.group() in keywords()]
    for word in list(dict.fromkeys(m.group() for m in reversed(found)))[:3]:
        places = [line_start + m.start() for m in found if m.group() == word]
        following = _SPACE.match(text, places[-1] + len(word)).end()   # the next token's start
        for k in range(min(len(places), 3)):   # `if(if, if)`: all of them; `if if {`: the last
            renamed = text
            for start in places[k:]:
                renamed = renamed[:start] + "_" * len(word) + renamed[start + len(word):]
            if _parses_past(renamed, max(at, following)):
                return errors.reserved_word(_span_at(text, places[k], file), word)
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _bad_character(text: str, file: str) -> errors.Diagnostic | None:
    """A lone surrogate (text from an API caller, never from a UTF-8 file) cannot be
    printed or saved: refuse it at its place."""
    m = _SURROGATE.search(text)
    if m is not None:
        i = m.start()
        line = text.count("\n", 0, i) + 1
        col = i - (text.rfind("\n", 0, i) + 1) + 1
        return errors.Diagnostic("parse/unexpected-character", ir.Span(file=file, line=line, column=col),
                                 f"a lone surrogate U+{ord(text[i]):04X} is not a character")
    return None


_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]{}]')


def _too_many_brackets(text: str, limit: int, file: str) -> errors.Diagnostic | None:
    """Brackets nested deeper than ``limit``, found before parsing: the parser spends
    many steps on each bracket, so thousands of them would take minutes."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch in "([{":
            depth += 1
            if depth > limit:
                i = m.start()
                line = text.count("\n", 0, i) + 1
                col = i - (text.rfind("\n", 0, i) + 1) + 1
                return errors.Diagnostic(
                    "load/budget", ir.Span(file=file, line=line, column=col),
                    f"brackets are nested more than {limit} deep here (the 'nesting' budget)",
                    budget.hint("nesting"))
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return None


def _too_deep(tree, limit: int, file: str) -> errors.Diagnostic | None:
    """The first node nested deeper than ``limit`` (counted without recursion), as a
    diagnostic: the later passes recurse once or more per level."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            meta = node.meta
            span = ir.Span(file=file, line=getattr(meta, "line", 1) or 1,
                           column=getattr(meta, "column", 1) or 1)
            return errors.Diagnostic(
                "load/budget", span, f"this is nested more than {limit} levels deep "
                                     "(parentheses, blocks, operators or a long chain of '+')",
                "split it with 'let' or a function; or " + budget.hint("nesting"))
        for child in node.children:
            if hasattr(child, "children"):
                stack.append((child, depth + 1))
    return None


# `NAME(ARGS)` just before the error; ARGS may hold one level of brackets
_CALL_BEFORE = re.compile(r"(?:^|(?<=[\s{]))([A-Za-z_]\w*)\s*\(([^()\n]*(?:\([^()\n]*\)[^()\n]*)*)(\)\s*)$")
_OPEN_CALL_BEFORE = re.compile(r"(?:^|(?<=[\s{]))([A-Za-z_]\w*)\s*\(\s*$")
_LET_BEFORE = re.compile(r"\blet\s+$")
_FUNCTION_HEADER_BEFORE = re.compile(r"^function\s[^\n]*\)\s*:[^\n=]*$")
_DECLARATION = re.compile(r"^([a-z]+)\b", re.M)


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:line - 1]) + column - 1


def _span_at(text: str, offset: int, file: str) -> ir.Span:
    line = text.count("\n", 0, offset) + 1
    return ir.Span(file=file, line=line, column=offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _probable_mistake(e: UnexpectedInput, text: str, file: str) -> errors.Diagnostic | None:
    """A syntax error that is a known slip gets a message that says what to write:
    a procedure run without `call`, `let` or a block in a function."""
    if not isinstance(e, UnexpectedToken) or e.line < 1 or e.column < 1:
        return None
    at = _offset(text, e.line, e.column)
    before = text[:at]
    expected = set(e.accepts or e.expected)
    call = None
    if e.token.type == "RPAR":
        m = _OPEN_CALL_BEFORE.search(before)
        if m:
            call = (m.start(1), m.group(1), "", at + 1 - m.start(1))
    elif expected & {"EQUAL", "DOT", "LSQB"}:  # after `NAME(...)`: `=`, or `.` of an item
        m = _CALL_BEFORE.search(before)
        if m:
            call = (m.start(1), m.group(1), m.group(2).strip(), m.end(2) + 1 - m.start(1))
    if call is not None:
        start, name, args, length = call
        is_procedure = re.search(rf"^procedure\s+{re.escape(name)}\b", text, re.M) is not None
        return errors.call_without_call(_span_at(text, start, file), name, args, is_procedure, length)
    decls = _DECLARATION.findall(before)
    if decls and decls[-1] == "function":
        m = _LET_BEFORE.search(before)
        if m:
            return errors.statements_in_function(_span_at(text, m.start(), file), False, 3)
        if e.token.type == "LBRACE" and _FUNCTION_HEADER_BEFORE.search(before[before.rfind("\n") + 1:]):
            return errors.statements_in_function(_span_at(text, at, file), True, 1)
    return None


_FOR_WORD = re.compile(r"\bfor\b")


def _comprehension_slip(e: UnexpectedInput, text: str, file: str) -> errors.Diagnostic | None:
    """A syntax error inside a comprehension or an aggregate (the innermost bracket open
    before it holds a ``for``, or an ``if`` comes where its first ``for`` may): the usual
    message, with a hint that shows the form and points to the reference."""
    if not isinstance(e, UnexpectedToken) or e.line < 1 or e.column < 1 or e.token.type == "$END":
        return None
    at = _offset(text, e.line, e.column)
    opened: list[int] = []
    for m in _BRACKETS.finditer(text, 0, at):
        ch = m.group()
        if ch in "([{":
            opened.append(m.start())
        elif ch in ")]}" and opened:
            opened.pop()
    if not opened or text[opened[-1]] == "{":
        return None
    inside = _STRING_OR_COMMENT.sub("", text[opened[-1] + 1:at])
    expected = _expected_words(e.accepts or e.expected)
    if not _FOR_WORD.search(inside) and not (str(e.token) == "if" and "'for'" in expected):
        return None
    return errors.comprehension_slip(ir.Span(file=file, line=e.line, column=e.column), _token_words(e.token),
                                     expected, len(str(e.token)))


_BARE_RETURN = re.compile(r"\breturn\s*\Z")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#.*')


def _return_then_statement(e: UnexpectedInput, text: str, file: str) -> errors.Diagnostic | None:
    """A bare `return` at the end of a line and a statement on the next: the parser read
    the statement's first words as the value to return and stopped after them."""
    if not isinstance(e, UnexpectedToken) or e.line < 2 or e.column < 1:
        return None
    lines = text[:_offset(text, e.line, e.column)].split("\n")
    code = _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group()) if m.group()[0] == '"' else "",
                                  lines[-2])
    m = _BARE_RETURN.search(code)
    if m is None:
        return None
    return errors.Diagnostic(
        "parse/unexpected-token", ir.Span(file=file, line=e.line - 1, column=m.start() + 1),
        "a statement follows a bare 'return', so it is read as the value to return",
        "'return' ends the procedure: the statements after it in its block never run; remove "
        "them, or put the 'return' inside an 'if'", length=6)


def _syntax_diagnostic(e: UnexpectedInput, file: str) -> errors.Diagnostic:
    span = ir.Span(file=file, line=e.line if e.line > 0 else 1,
                   column=e.column if e.column > 0 else 1)
    if isinstance(e, UnexpectedCharacters):
        return errors.unexpected_char(span, e.char)
    if isinstance(e, UnexpectedEOF):
        return errors.unexpected_end(span, _expected_words(e.expected))
    if isinstance(e, UnexpectedToken):
        if e.token.type == "$END":
            return errors.unexpected_end(span, _expected_words(e.accepts or e.expected))
        return errors.unexpected_token(span, _token_words(e.token),
                                       _expected_words(e.accepts or e.expected), len(str(e.token)))
    return errors.Diagnostic("parse/syntax", span, str(e).splitlines()[0])


def parse_file(path: str | Path, budgets: budget.Budgets | None = None) -> tuple[ir.File, str]:
    """A ruleset file parsed, and its text, read as ``dsl.load`` reads one (a regular
    file of at most the file_size budget, never waited for: ``dsl.files``); raises
    ValueError saying why a file is not read."""
    path = Path(path)
    text = read_regular_file(path, budget.check(budgets).file_size).decode("utf-8")
    return parse(text, str(path), budgets), text


def parse_expr(text: str, at: ir.Span) -> ir.Expr:
    """Parses an expression inside a message template; spans point at the template."""
    try:
        tree = parser().parse(text, start="expr")
        deep = _too_deep(tree, budget.DEFAULT.nesting, at.file)
        if deep is not None:
            deep.span = at
            raise errors.MeepleError([deep])
        node = _ToIR(at.file).transform(tree)
    except VisitError as e:
        bad = e.orig_exc
        raise errors.MeepleError([errors.Diagnostic(
            "parse/bad-literal", at, f"in the template expression {{{text}}}: {bad}",
            getattr(bad, "hint", None))]) from None
    except UnexpectedInput as e:
        d = _syntax_diagnostic(e, at.file)
        d.span = at
        if d.code == "parse/unexpected-end":  # the expression ends, not the file
            d.message = "the expression ends too early"
            d.hint = d.hint.replace("; is a '}' missing?", "") if d.hint else None
        d.message = f"in the template expression {{{text}}}: {d.message}"
        raise errors.MeepleError([d]) from None
    for n in ir.walk(node):
        object.__setattr__(n, "span", at)
    return node
