"""The checker: resolves every name and type in a merged ruleset and reports every
problem it finds (not just the first). Its result, ``Checked``, is what the
interpreter compiles."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast as ir, boards as gen, builtins, errors, operators
from .check_decls import (  # noqa: F401 - BUILTIN_TYPES, COLORS, LABEL_IF, UI_TEXTS: as before
    BUILTIN_TYPES,
    COLORS,
    LABEL_IF,
    TEMPLATE_PART,
    UI_TEXTS,
    Board,
    DeclChecks,
)
from .check_items import ItemChecks
from .check_operators import OperatorChecks
from .check_options import PrivateOptions
from .check_private import PrivateFlow
from .check_stmts import StmtChecks
from .errors import Diagnostics
from .load import Merged
from .types import (
    BOOL,
    ERROR,
    INT,
    NONE,
    PLAYER,
    STR,
    TUPLE_PARTS,
    T,
    compatible,
    list_of,
    tuple_of,
    unify,
)

# the built-in functions (name -> allowed argument counts; their types are checked in
# _call_builtin), aggregates and constants, as dsl/builtins.py declares them
BUILTINS = {name: b.arities for name, b in builtins.BUILTINS.items()}
AGGREGATES = set(builtins.AGGREGATES)
CLOSURES = set(builtins.CLOSURES)
FORMS = set(builtins.FORMS)
CONSTANTS = {name: c.type for name, c in builtins.CONSTANTS.items()}


class NodeMap:
    """A map from IR nodes, by identity (nodes are not hashable, and two equal nodes in
    different places may have different types), to what the checker found about them.
    It keeps each node it maps alive, so that a node's ``id`` is never reused for
    another while the map holds it, and it answers only for the very node it was given."""

    __slots__ = ("_by_id",)

    def __init__(self):
        self._by_id: dict[int, tuple] = {}

    def __setitem__(self, node, value) -> None:
        self._by_id[id(node)] = (node, value)

    def get(self, node, default=None):
        entry = self._by_id.get(id(node))
        return entry[1] if entry is not None and entry[0] is node else default

    def __len__(self) -> int:
        return len(self._by_id)

    # pickled (the disk cache) as its (node, value) pairs: ids differ once unpickled
    def __getstate__(self):
        return list(self._by_id.values())

    def __setstate__(self, pairs) -> None:
        self._by_id = {id(node): (node, value) for node, value in pairs}


@dataclass
class Checked:
    """A checked ruleset: declarations by name and the type of every expression."""

    name: str
    title: str
    players: tuple[int, int]
    order: str
    variants: list[str]
    locale: str | None
    language: str | None
    variant_titles: dict[str, str]
    enums: dict[str, list[str]] = field(default_factory=dict)
    enum_of_value: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, dict[str, T]] = field(default_factory=dict)
    item_vars: dict[str, dict[str, ir.FieldDecl]] = field(default_factory=dict)
    boards: dict[str, Board] = field(default_factory=dict)
    zones: dict[str, ir.ZoneDecl] = field(default_factory=dict)
    decks: list[ir.DeckDecl] = field(default_factory=list)
    vars: dict[str, ir.VarDecl] = field(default_factory=dict)
    consts: dict[str, ir.ConstDecl] = field(default_factory=dict)
    relations: dict[str, ir.RelationDecl] = field(default_factory=dict)
    functions: dict[str, ir.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, ir.ProcedureDecl] = field(default_factory=dict)
    setup: ir.SetupDecl | None = None
    turn: ir.TurnDecl | None = None
    end: ir.EndDecl | None = None
    at_end: ir.AtEndDecl | None = None
    score: ir.ScoreDecl | None = None
    heuristic: ir.HeuristicDecl | None = None
    aliases: dict[str | None, ir.AliasDecl] = field(default_factory=dict)  # by verb
    payoff: ir.PayoffDecl | None = None
    outcome: ir.OutcomeDecl | None = None
    team: ir.TeamDecl | None = None
    participants: dict[str, ir.ParticipantDecl] = field(default_factory=dict)
    tiebreaks: list[ir.TiebreakDecl] = field(default_factory=list)
    invariants: list[ir.InvariantDecl] = field(default_factory=list)
    secrets: list[ir.SecretDecl] = field(default_factory=list)
    bound: tuple[int, str] | None = None
    default_players: int | None = None   # `players A..B default N`: the usual count
    endless: bool = False  # ``bound ... or endless``: a game may go on for ever
    names: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    # a name's grammatical gender and forms by case, for the rulebook's sentences
    # (``name draw "Nachziehstapel" m {gen: "Nachziehstapels"}``): (gender, {case: form})
    name_grammar: dict[str, tuple[str | None, dict[str, str]]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    # the rulebook's prose for players, by key (``prose KEY "..."``, dsl/check_decls.py)
    prose: dict[str, str] = field(default_factory=dict)
    labels: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    colors: dict[str, str] = field(default_factory=dict)
    kind_colors: dict[str, str] = field(default_factory=dict)
    offscreen: set[str] = field(default_factory=set)
    types: NodeMap = field(default_factory=NodeMap)  # node -> its type
    templates: NodeMap = field(default_factory=NodeMap)  # a log's node -> its template's parts
    decisions: set[str] = field(default_factory=set)  # procedures that may ask a player
    # what a saved frame may hold (interpreter/play/frames.py): per procedure, every type each
    # of its locals takes; per statement of a procedure, the locals in scope before it
    locals: dict[str, dict[str, list[T]]] = field(default_factory=dict)
    scopes: NodeMap = field(default_factory=NodeMap)
    # per procedure, its locals that may hold a value read from a variable declared
    # `owner` or `hidden`, with their types (dsl/check_private.py)
    private_locals: dict[str, dict[str, T]] = field(default_factory=dict)
    # per procedure, its locals holding a roll or random pick that a decision follows
    # before any rule shows it (dsl/check_private.py)
    unshown_random: dict[str, dict[str, T]] = field(default_factory=dict)
    asking: NodeMap = field(default_factory=NodeMap)  # statements that ask a player
    # `xs[i] = e` (an IndexAssign) -> the statement the later stages run: the place set to
    # replace_at(xs, i, e), an Assign or an AttrAssign (check_stmts.py)
    assigns: NodeMap = field(default_factory=NodeMap)
    supplies: dict[str, str] = field(default_factory=dict)  # a kind -> its supply's zone (`supply`)
    # `choose (a, b) from ...` (a Choose with parts) -> the `let`s that set its parts from
    # the tuple chosen, run after the decision (check_stmts.py)
    unpacks: NodeMap = field(default_factory=NodeMap)

    def type_of(self, e) -> T:
        return self.types.get(e, ERROR)

    def declares(self, name: str) -> bool:
        """Whether the ruleset declares something of this name: a declaration named like
        a built-in constant (``active``, ``players``) hides it in the whole ruleset."""
        return any(name in table for table in (
            self.vars, self.consts, self.zones, self.enum_of_value, self.enums, self.kinds, self.boards,
            self.functions, self.relations, self.procedures, self.participants))

    def calls_builtin(self, name: str) -> bool:
        """Whether a call ``name(...)`` is the built-in function's: no function, relation,
        per-player zone or per-player variable of the ruleset has its name (one that does
        hides the built-in in the whole ruleset). Later stages ask this, never the name."""
        if name not in BUILTINS or name in self.functions or name in self.relations:
            return False
        return not ((name in self.zones and self.zones[name].per_player)
                    or (name in self.vars and self.vars[name].per_player))


class Checker(DeclChecks, StmtChecks, ItemChecks, OperatorChecks, PrivateFlow, PrivateOptions):
    """Checks a merged ruleset: its declarations (``DeclChecks``, dsl/check_decls.py),
    its procedures' statements (``StmtChecks``, dsl/check_stmts.py), its operators'
    types (``OperatorChecks``, dsl/check_operators.py: the type rules of the table of
    operators, dsl/operators.py) and, here, its other expressions."""

    def __init__(self, merged: Merged, diags: Diagnostics):
        self.m = merged
        self.d = diags
        title = next((x.text for x in merged.decls if x.node == "Title"), merged.name)
        self.c = Checked(merged.name, title, (1, 1), "clockwise", merged.variants, merged.locale,
                         merged.language, dict(merged.variant_titles))
        self.proc_locals: dict[str, T] | None = None
        self.proc_decl: ir.ProcedureDecl | None = None  # the procedure being checked
        self.known_cells: dict[str, list | None] = {}  # board -> its cells, when known now
        self.in_at_end = False
        self.roles: dict[str, tuple[str, ir.Span]] = {}
        # the decisions' verbs (None: no verb), each with the type of its options' values
        self.verb_types: dict[str | None, list[T]] = {}

    # ---------------------------------------------------------------- driver
    def run(self) -> Checked:
        decls = self.m.decls
        for d in decls:  # first pass: names that everything else refers to
            self._declare(d)
        for d in decls:  # the kinds' attributes, which any rule may read
            if d.node == "KindDecl":
                self._kind_fields(d)
        self.asks = self._asking_procedures()
        self.results = {n: self.written_type(p.result) for n, p in self.c.procedures.items()
                        if p.result is not None}
        self._private_calls(decls)
        for d in decls:
            self._check_decl(d)
        self._check_required(decls)
        self._check_texts(decls)
        self._check_aliases()
        return self.c

    # ---------------------------------------------------------------- expressions
    def _expect(self, e, env, want: T, context: str) -> T:
        got = self.expr(e, env)
        if not compatible(want, got):
            self.d.add(errors.type_mismatch(e.span, context, str(want), str(got)))
        return got

    def _iter_type(self, e, env, span) -> T:
        """The element type of something iterable: a list, a zone's items, an enum."""
        t = self.expr(e, env)
        if t.tag == "list":
            return t.arg
        if t.is_error:
            return ERROR
        self.d.add(errors.type_mismatch(e.span, "this", "a list", str(t)))
        return ERROR

    def template(self, text: str, span, env) -> list:
        """Splits ``"{a} takes {b}"`` into text and parsed expressions."""
        from .parse import parse_expr
        parts, pos = [], 0
        for m in TEMPLATE_PART.finditer(text):
            parts.append(text[pos:m.start()])
            try:
                e = parse_expr(m.group(1), span)
            except errors.MeepleError as err:
                for dg in err.diagnostics:
                    self.d.add(dg)
                e = None
            if e is not None:
                self.expr(e, env)
                self._public_only(e, span)
                self._shows(e)
                parts.append((m.group(1).strip(), e))
            pos = m.end()
        parts.append(text[pos:])
        return parts

    def _public_only(self, e, span) -> None:
        """A message is shown to every seat: it may not read a variable that only its
        owner (or nobody) may see, nor a local holding such a variable's value."""
        name = self.private_source(e)
        v = self.c.vars.get(name) if name else None
        if v is None:
            return
        local = next((n.name for n in ir.walk(e) if getattr(n, "node", "") == "Var"
                      and self.carried.get(n.name) == name and n.name in (self.proc_locals or {})), None)
        what = f"'{local}', holding the value of '{name}'," if local else f"'{name}',"
        self.d.add(errors.Diagnostic(
            "check/private-value", span,
            f"a message is shown to every seat, but it reads {what} which is declared "
            f"'{v.visibility}'",
            "show it only once it may be public, e.g. copy it into a public variable first"))

    def _private_read(self, e, seen: set) -> str | None:
        """The first variable declared ``owner`` or ``hidden`` that an expression reads,
        also through the functions it calls."""
        for n in ir.walk(e):
            kind = getattr(n, "node", "")
            name = n.name if kind == "Var" else n.func if kind == "Call" else None
            v = self.c.vars.get(name) if name else None
            if v is not None and v.visibility is not None:
                return name
            fn = self.c.functions.get(name) if kind == "Call" else None
            if fn is not None and name not in seen:
                seen.add(name)
                found = self._private_read(fn.body, seen)
                if found:
                    return found
        return None

    def expr(self, e, env) -> T:
        t = self._expr(e, env)
        self.c.types[e] = t
        return t

    def _expr(self, e, env) -> T:
        match e.node:
            case "IntLit":
                return INT
            case "StrLit":
                return STR
            case "BoolLit":
                return BOOL
            case "NoneLit":
                return NONE
            case "Var":
                return self._var(e, env)
            case "Attr":
                return self._attr(e, env)
            case "Index":
                return self._index(e, env)
            case "Call":
                return self._call(e, env)
            case "Comprehension":
                inner = self._clauses(e, env)
                return list_of(self.expr(e.elem, inner))
            case "Aggregate":
                return self._aggregate(e, env)
            case "ListLit":
                ts = [self.expr(x, env) for x in e.items]
                if not ts:
                    return list_of(NONE)
                out = ts[0]
                for x, t in zip(e.items[1:], ts[1:]):
                    u = unify(out, t)
                    if u is None:
                        self.d.add(errors.list_element(x.span, str(out), str(t)))
                    else:
                        out = u
                return list_of(out)
            case "TupleLit":
                return self._tuple(e, env)
            case _ if e.node in operators.NODES:   # (an operator: dsl/operators.py)
                return self._operator(e, env)
            case "CellAt":
                return self._cell_at(e, env)
            case "Ray":
                return self._ray(e, env)
        raise AssertionError(e.node)

    def _index(self, e: ir.Index, env) -> T:
        """``xs[i]``: an element of a list, or a part of a tuple."""
        t = self.expr(e.obj, env)
        self._expect(e.index, env, INT, "an index")
        if t.tag == "list" and isinstance(t.arg, T):
            return t.arg
        if t.tag == "tuple":
            return self._tuple_part(e, t)
        if not t.is_error:
            self.d.add(errors.type_mismatch(e.obj.span, "indexing", "a list", str(t)))
        return ERROR

    def _tuple(self, e: ir.TupleLit, env) -> T:
        """``(a, b)``: each part a value a move's notation writes (no item, list, tuple)."""
        parts = []
        for x in e.items:
            t = self.expr(x, env)
            if t.tag not in TUPLE_PARTS:
                self.d.add(errors.tuple_part(x.span, str(t)))
                t = ERROR
            parts.append(t)
        return tuple_of(parts)

    def _tuple_part(self, e: ir.Index, t: T) -> T:
        """``t[k]``: the part k of a tuple, k a number written in the rules."""
        k = e.index.value if e.index.node == "IntLit" else -1
        if 0 <= k < len(t.parts):
            return t.parts[k]
        self.d.add(errors.tuple_index(e.index.span, len(t.parts)))
        return ERROR

    def _clauses(self, e: ir.Comprehension, env) -> dict:
        inner = dict(env)
        for cl in e.clauses:
            inner[cl.var] = self._iter_type(cl.iter, inner, cl.span)
        if e.cond is not None:
            self._expect(e.cond, inner, BOOL, "the 'if' condition")
        return inner

    def _var(self, e: ir.Var, env) -> T:
        c, n = self.c, e.name
        if n in env:
            return env[n]
        if n in CONSTANTS and not self.c.declares(n):   # a declaration hides the built-in
            return CONSTANTS[n]
        if n in c.consts:
            return self.type_ref(c.consts[n].type)
        if n in c.vars:
            v = c.vars[n]
            if v.per_player:
                self.d.add(errors.bad_value(e.span, f"'{n}' is per player", f"write {n}(p)"))
            return self.type_ref(v.type)
        if n in c.enum_of_value:
            en = c.enum_of_value[n]
            if en == "?":
                owners = [k for k, vs in c.enums.items() if n in vs]
                self.d.add(errors.bad_value(e.span, f"'{n}' is a value of several enums",
                                            f"write {owners[0]}.{n}"))
                return ERROR
            return T("enum", en)
        if n in c.enums:
            return list_of(T("enum", n))
        if n in c.kinds:
            return list_of(T("item", n))  # every item of the kind
        if n in c.zones:
            z = c.zones[n]
            if z.per_player:
                self.d.add(errors.bad_value(e.span, f"zone '{n}' is per player",
                                            f"write {n}(p), for example {n}(active)", ))
            return T("zone", z.holds.name)
        if n in c.boards:
            return T("board", n)
        if n in c.participants:
            self.d.add(errors.not_a_seat(e.span, n))
            return ERROR
        cands = list(env) + list(CONSTANTS) + list(c.vars) + list(c.consts) + list(c.enum_of_value) + list(c.enums) \
            + list(c.zones) + list(c.boards) + list(c.kinds)
        self.d.add(errors.unknown(e.span, "name", n, cands))
        return ERROR

    def _attr(self, e: ir.Attr, env) -> T:
        c = self.c
        if e.obj.node == "Var" and e.obj.name in c.enums and e.obj.name not in env:
            en = e.obj.name
            if e.name not in c.enums[en]:
                self.d.add(errors.unknown(e.span, f"value of {en}", e.name, c.enums[en]))
            self.c.types[e.obj] = list_of(T("enum", en))
            return T("enum", en)
        t = self.expr(e.obj, env)
        if t.tag == "item":
            fields = c.kinds.get(t.arg, {})
            if e.name in fields:
                return fields[e.name]
            self.d.add(errors.no_attribute(e.span, t.arg, e.name, fields))
            return ERROR
        if t.tag == "cell":
            b = c.boards.get(t.arg)
            if b and e.name in b.coords:
                return INT
            if e.name == "name":
                return STR
            self.d.add(errors.no_attribute(e.span, f"a cell of {t.arg}", e.name, b.coords if b else ()))
            return ERROR
        if not t.is_error:
            self.d.add(errors.type_mismatch(e.obj.span, f"'.{e.name}'", "an item or a cell", str(t)))
        return ERROR

    def _cell_at(self, e: ir.CellAt, env) -> T:
        """``cell(board, coordinate: value, ...)`` / ``cell(board, name: "...")``."""
        bt = self.expr(e.board, env)
        board = self.c.boards.get(bt.arg) if bt.tag == "board" else None
        if board is None:
            if not bt.is_error:
                self.d.add(errors.type_mismatch(e.board.span, "the first argument of 'cell'", "a board",
                                                str(bt)))
            for a in e.coords:
                self.expr(a.value, env)
            return ERROR
        ok = self._coordinates(e.coords, e.span, bt.arg, board, env, "coordinate",
                               "the coordinate '{}'", name=True)
        cells = self._known_cells_of(bt.arg, board) if ok else None
        if cells is not None:
            for dg in cell_problems(bt.arg, cells, e, board.coords):
                self.d.add(dg)
        return T("cell", bt.arg)

    def _want(self, node, got: T, want: T, ctx: str) -> None:
        if not compatible(want, got):
            self.d.add(errors.type_mismatch(node.span, ctx, str(want), str(got)))

    def _aggregate(self, e: ir.Aggregate, env) -> T:
        if e.func in CLOSURES:
            return self._closure(e, env)
        if e.func == "until":
            return self._until(e, env)
        if e.func not in AGGREGATES:
            self.d.add(errors.unknown(e.span, "aggregate", e.func, AGGREGATES | CLOSURES | {"until"}))
            return ERROR
        inner = self._clauses(e.comp, env)
        t = self.expr(e.comp.elem, inner)
        self.c.types[e.comp] = list_of(t)
        return self._aggregate_result(e.func, t, e.comp.elem)

    def _until(self, e: ir.Aggregate, env) -> T:
        """``until(x for x in LIST if COND)``: one clause, the element its variable, a
        condition; gives a list of the same type as LIST."""
        comp = e.comp
        form = "write until(x for x in LIST if CONDITION), e.g. " \
               "until(x for x in ray(c, row: 1, col: 0) if occupied(x))"
        inner = self._clauses(comp, env)
        if len(comp.clauses) != 1:
            self.d.add(errors.bad_value(comp.clauses[-1].span, f"'until' takes one 'for' clause, "
                                        f"found {len(comp.clauses)}", form))
            return self._closure_rest(comp, inner, ERROR)
        cl = comp.clauses[0]
        if comp.elem.node != "Var" or comp.elem.name != cl.var:
            self.d.add(errors.bad_value(comp.elem.span, "'until' gives the elements of the list, "
                                        "not another value", f"write until({cl.var} for {cl.var} in ...)"))
        if comp.cond is None:
            self.d.add(errors.bad_value(e.span, "'until' needs a condition: where the list stops",
                                        form))
        t = inner.get(cl.var, ERROR)
        return self._closure_rest(comp, inner, ERROR if t.is_error else list_of(t))

    def _known_cells_of(self, name: str, board) -> list | None:
        """The cells of a board as far as the checker can lay them out (kept per board)."""
        if name not in self.known_cells:
            self.known_cells[name] = _known_cells(board)
        return self.known_cells[name]

    def _coordinates(self, args, span, board_name: str, board, env, dup: str, what: str,
                     name: bool = False) -> bool:
        """The named arguments of ``cell(...)`` (``name``: also ``name: "..."``) or of
        ``ray(...)``: each a coordinate of the board, once, an int (``what`` says which
        value); whether all are."""
        seen: set[str] = set()
        ok = True
        for a in args:
            if a.name in seen:
                self.d.add(errors.duplicate(a.span, dup, a.name, span))
                ok = False
            seen.add(a.name)
            if name and a.name == "name":
                ok = compatible(STR, self._expect(a.value, env, STR, "the cell name")) and ok
            elif a.name in board.coords:
                ok = compatible(INT, self._expect(a.value, env, INT, what.format(a.name))) and ok
            else:
                self.d.add(errors.no_attribute(a.span, f"a cell of {board_name}", a.name,
                                               list(board.coords) + (["name"] if name else [])))
                self.expr(a.value, env)
                ok = False
        return ok

    def _ray(self, e: ir.Ray, env) -> T:
        """``ray(START, COORDINATE: STEP, ...)``: START a cell, each step an int named by a
        coordinate of its board; coordinates that tell the board's cells apart."""
        st = self.expr(e.start, env)
        board = self.c.boards.get(st.arg) if st.tag == "cell" else None
        if board is None:
            if not st.is_error:
                self.d.add(errors.type_mismatch(e.start.span, "the start of 'ray'", "a cell",
                                                str(st)))
            for a in e.steps:
                self.expr(a.value, env)
            return ERROR
        ok = self._coordinates(e.steps, e.span, st.arg, board, env, "step of coordinate",
                               "the step of '{}'")
        cells = self._known_cells_of(st.arg, board) if ok else None
        if cells is not None:
            for dg in ray_problems(st.arg, cells, e, board.coords):
                self.d.add(dg)
        return list_of(st)

    def _closure(self, e: ir.Aggregate, env) -> T:
        """``connected(x for x in REL(START) if COND)``: REL a relation of two cells of one
        board, START one of its cells or a list of them; gives a list of cells of that board."""
        comp, f = e.comp, e.func
        form = f"write {f}(x for x in RELATION(START) if CONDITION), e.g. " \
               f"{f}(x for x in adjacent(c) if occupied(x))"
        if len(comp.clauses) != 1:
            self.d.add(errors.bad_value(comp.clauses[-1].span, f"'{f}' takes one 'for' clause, "
                                        f"found {len(comp.clauses)}", form))
            return self._closure_rest(comp, self._clauses(comp, env), ERROR)
        cl = comp.clauses[0]
        board = self._closure_board(f, cl.iter, env, form)
        inner = dict(env)
        inner[cl.var] = board or ERROR
        if comp.elem.node != "Var" or comp.elem.name != cl.var:
            self.d.add(errors.bad_value(comp.elem.span, f"'{f}' gives the cells it finds, not "
                                        "another value", f"write {f}({cl.var} for {cl.var} in ...)"))
        if comp.cond is not None:
            self._expect(comp.cond, inner, BOOL, "the 'if' condition")
        self.c.types[cl.iter] = list_of(board or ERROR)
        return self._closure_rest(comp, inner, list_of(board) if board else ERROR)

    def _closure_rest(self, comp: ir.Comprehension, inner: dict, result: T) -> T:
        self.expr(comp.elem, inner)
        self.c.types[comp] = result
        return result

    def _closure_board(self, f: str, it, env, form: str) -> T | None:
        """The cell type a closure's relation walks (checking its start), or None after
        reporting."""
        if walks_edges(self.c, it):   # across(EDGES, START): through the open edges
            t = self.expr(it, env)
            return t.arg if isinstance(t.arg, T) and t.tag == "list" and not t.arg.is_error else None
        rel = self.c.relations.get(it.func) if it.node == "Call" else None
        if rel is None or len(rel.params) != 2 or len(it.args) != 1:
            self.d.add(errors.bad_value(it.span, f"'{f}' walks a relation of two cells from a "
                                        "cell or a list of cells", form))
            if it.node == "Call":
                for a in it.args:
                    self.expr(a, env)
            else:
                self.expr(it, env)
            return None
        a, b = (self.type_ref(p.type) for p in rel.params)
        start = self.expr(it.args[0], env)
        if a != b:
            self.d.add(errors.bad_value(it.span, f"'{f}' walks a relation between the cells of "
                                        f"one board, and '{it.func}' relates {a} to {b}",
                                        "declare a relation whose two parameters are the same board"))
            return None
        if not (compatible(a, start) or compatible(list_of(a), start)):
            self.d.add(errors.type_mismatch(it.args[0].span, f"the start of '{f}'",
                                            f"{a} or a list of them", str(start)))
        return a

    def _aggregate_result(self, func: str, t: T, node) -> T:
        if func in ("sum", "min", "max"):
            self._want(node, t, INT, f"'{func}'")
            return INT
        if func == "count":
            return INT
        if func in ("any", "all"):
            self._want(node, t, BOOL, f"'{func}'")
            return BOOL
        return t  # first, last

    def _call(self, e: ir.Call, env) -> T:
        c, f = self.c, e.func
        if f in c.functions:
            fd = c.functions[f]
            self._args(e, [self.type_ref(p.type) for p in fd.params], env)
            return self.type_ref(fd.result)
        if f in c.relations:
            rd = c.relations[f]
            types = [self.type_ref(p.type) for p in rd.params]
            k = len(e.args)
            if 1 <= k < len(types) - 1:
                # the first k cells given: the lists of the other cells related to them
                self._args(e, types[:k], env)
                return list_of(list_of(types[-1]))
            if k == len(types) - 1:
                self._args(e, types[:k], env)
                return list_of(types[-1])
            self._args(e, types, env)
            return BOOL
        if f in c.zones and c.zones[f].per_player:
            self._args(e, [PLAYER], env)
            return T("zone", c.zones[f].holds.name)
        if f in c.vars and c.vars[f].per_player:
            self._args(e, [PLAYER], env)
            return self.type_ref(c.vars[f].type)
        if f in BUILTINS:
            if len(e.args) not in BUILTINS[f]:
                self.d.add(errors.wrong_arity(e.span, f, " or ".join(map(str, BUILTINS[f])), len(e.args)))
                for a in e.args:
                    self.expr(a, env)
                return ERROR
            return self._call_builtin(e, [self.expr(a, env) for a in e.args])
        cands = list(c.functions) + list(c.relations) + list(BUILTINS) + \
            [z for z, d in c.zones.items() if d.per_player] + [v for v, d in c.vars.items() if d.per_player]
        if f in c.procedures:
            self.d.add(errors.procedure_in_expression(e.span, f, c.procedures[f].result is not None))
        elif f == "cell":
            self.d.add(errors.cell_without_names(e.span))
        elif f == "ray":
            self.d.add(errors.bad_value(e.span, "'ray' takes a start cell and the step of each "
                                        "coordinate it changes, by name",
                                        "write ray(START, COORDINATE: STEP, ...), e.g. "
                                        "ray(c, row: 1, col: 0)"))
        elif f in CLOSURES or f == "until":
            self.d.add(errors.bad_value(e.span, f"'{f}' is written over a comprehension",
                                        f"write {f}(x for x in RELATION(START) if CONDITION), "
                                        f"e.g. {f}(x for x in adjacent(c) if occupied(x))"))
        else:
            self.d.add(errors.unknown(e.span, "function", f, cands, "check/unknown-function"))
        for a in e.args:
            self.expr(a, env)
        return ERROR

    def _args(self, e: ir.Call, want: list[T], env) -> None:
        if len(e.args) != len(want):
            self.d.add(errors.wrong_arity(e.span, e.func, str(len(want)), len(e.args)))
        for a, w in zip(e.args, want):
            self._expect(a, env, w, f"argument of '{e.func}'")
        for a in e.args[len(want):]:
            self.expr(a, env)

    def _holds(self, t: T, node, fname: str) -> str | None:
        """The kind a zone-like argument holds, or None after reporting."""
        if t.tag == "zone":
            return t.arg
        if t.tag == "cell":
            b = self.c.boards.get(t.arg)
            return b.decl.holds.name if b else "?"
        if not t.is_error:
            self.d.add(errors.type_mismatch(node.span, f"'{fname}'", "a zone or a cell", str(t)))
        return None

    def _call_builtin(self, e: ir.Call, ts: list[T]) -> T:
        """A built-in's type rule (dsl/builtins.py), reporting as this checker does."""
        return builtins.BUILTINS[e.func].rule(_BuiltinTyping(self, e.func), e.args, ts)

    def _list(self, node, t: T, fname: str) -> T:
        if t.tag == "list":
            return t.arg
        if not t.is_error:
            self.d.add(errors.type_mismatch(node.span, f"'{fname}'", "a list", str(t)))
        return ERROR


def walks_edges(c: Checked, it) -> bool:
    """Whether the ``for`` clause's list ``it`` of a closure is ``across(EDGES, START[,
    CLOSED])``: it walks the open edges of an edges board (the built-in's, not hidden)."""
    return it.node == "Call" and it.func == "across" and len(it.args) in (2, 3) and c.calls_builtin("across")


class _BuiltinTyping:
    """What a built-in's type rule may ask (dsl/builtins.Typing), about the built-in
    ``f`` being called."""

    def __init__(self, checker: Checker, f: str):
        self.ck, self.f = checker, f

    def holds(self, t: T, node) -> str | None:
        return self.ck._holds(t, node, self.f)

    def want(self, node, got: T, want: T, quoted: bool = False) -> None:
        self.ck._want(node, got, want, f"'{self.f}'" if quoted else self.f)

    def elem(self, node, t: T) -> T:
        return self.ck._list(node, t, self.f)

    def mismatch(self, node, wanted: str, got: T) -> None:
        self.ck.d.add(errors.type_mismatch(node.span, f"'{self.f}'", wanted, str(got)))

    def edges_of(self, board: str) -> str | None:
        b = self.ck.c.boards.get(board)
        return b.edges_of if b is not None else None


_NOT_CONSTANT = object()


def _constant(e):
    """The value of a literal (``3``, ``-1``, ``"ford"``), else _NOT_CONSTANT."""
    if e.node in ("IntLit", "StrLit"):
        return e.value
    if e.node == "UnOp" and e.op == "-" and e.operand.node == "IntLit":
        return -e.operand.value
    return _NOT_CONSTANT


def _known_cells(board: Board) -> list[gen.Cell] | None:
    """A board's cells when they are known before a game: listed ones, or a generator's
    whose sizes are literal numbers (others depend on the number of players)."""
    if board.cells is not None:
        return board.cells
    g = gen.GENERATORS.get(board.decl.generator)
    args = {a.name: _constant(a.value) for a in board.decl.args}
    if g is None or set(args) != set(g.params) \
            or any(type(v) is not int or not 1 <= v <= 200 for v in args.values()):
        return None
    cells = gen.drawn_cells(g.cells(**args), board.decl.drawn)
    if board.decl.named is None:
        return cells
    cells, problem = gen.named_cells(cells, board.decl.named.value)
    return None if problem else cells


def cell_value(cell: gen.Cell, key: str):
    """A cell's value for a ``cell(...)`` argument: its name or one of its coordinates."""
    return cell.name if key == "name" else cell.coords.get(key)


def cell_problems(board: str, cells: list, e: ir.CellAt, coords, players: str = "") -> list:
    """What is wrong with ``cell(board, ...)`` on these cells: coordinates that do not pick
    one cell, literal values that no cell has. ``players`` (" (3 players)") is added
    to the messages when the cells depend on the number of players."""
    keys = [a.name for a in e.coords]
    out, counts = [], {}
    for c in cells:
        k = tuple(cell_value(c, key) for key in keys)
        counts[k] = counts.get(k, 0) + 1
    consts = [_constant(a.value) for a in e.coords]
    many = tuple(consts) if counts.get(tuple(consts), 0) > 1 else \
        next((k for k, n in counts.items() if n > 1), None)
    if many is not None:
        example = ", ".join(f"{key} {v}" for key, v in zip(keys, many))
        out.append(errors.cell_not_unique(e.span, board, keys, counts[many], example + players,
                                          list(coords)))
        return out
    for a, v in zip(e.coords, consts):
        values = {cell_value(c, a.name) for c in cells}
        if v is not _NOT_CONSTANT and v not in values:
            shown = f'{a.name} "{v}"' if isinstance(v, str) else f"{a.name} {v}"
            out.append(errors.no_such_cell(a.value.span, board, shown + players,
                                           _cell_hint(a.name, v, values), len(str(v))))
    if not out and all(v is not _NOT_CONSTANT for v in consts) and tuple(consts) not in counts:
        shown = ", ".join(f"{a.name} {v}" for a, v in zip(e.coords, consts))
        out.append(errors.no_such_cell(e.span, board, shown + players, None, 4))
    return out


def ray_problems(board: str, cells: list, e: ir.Ray, coords, players: str = "") -> list:
    """What is wrong with ``ray(start, ...)`` on a board of these cells: coordinates that
    several cells share (a step would not lead to one cell)."""
    keys = [a.name for a in e.steps]
    counts: dict = {}
    for c in cells:
        k = tuple(cell_value(c, key) for key in keys)
        counts[k] = counts.get(k, 0) + 1
    many = next((k for k, n in counts.items() if n > 1), None)
    if many is None:
        return []
    example = ", ".join(f"{key} {v}" for key, v in zip(keys, many))
    return [errors.ray_not_unique(e.span, board, keys, counts[many], example + players, list(coords))]


def _cell_hint(key: str, v, values: set) -> str | None:
    if isinstance(v, str):
        return errors.did_you_mean(v, [x for x in values if isinstance(x, str)])
    ints = [x for x in values if type(x) is int]
    return f"its cells have {key} {min(ints)} to {max(ints)}" if ints else None


def check(merged: Merged, diags: Diagnostics | None = None) -> tuple[Checked, Diagnostics]:
    diags = diags if diags is not None else Diagnostics()
    checked = Checker(merged, diags).run()
    return checked, diags
