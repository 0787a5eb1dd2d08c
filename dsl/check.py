"""The checker: resolves every name and type in a merged ruleset and reports every
problem it finds (not just the first). Its result, ``Checked``, is what the
interpreter compiles."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import ast as ir, boards as gen, builtins, errors
from .errors import Diagnostics
from .load import Merged
from .types import BOOL, ERROR, INT, NONE, PLAYER, STR, T, compatible, list_of, unify

BUILTIN_TYPES = {"int": INT, "bool": BOOL, "str": STR, "player": PLAYER}
COLORS = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey",
          "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta",
          "bright_cyan", "bright_white"}
# the built-in functions (name -> allowed argument counts; their types are checked in
# _call_builtin), aggregates and constants, as dsl/builtins.py declares them
BUILTINS = {name: b.arities for name, b in builtins.BUILTINS.items()}
AGGREGATES = set(builtins.AGGREGATES)
CLOSURES = set(builtins.CLOSURES)
FORMS = set(builtins.FORMS)
CONSTANTS = {name: c.type for name, c in builtins.CONSTANTS.items()}
# texts the tools show, with the placeholders each may use
UI_TEXTS = {"player": {"n"}, "hidden": {"kind"}, "yes": set(), "no": set()}
TEMPLATE_PART = re.compile(r"\{([^{}]*)\}")
# a conditional part of a label: `{if NAME: TEXT}`, `{if not NAME: TEXT}` (NAME a bool attribute)
LABEL_IF = re.compile(r"if\s+(not\s+)?([A-Za-z_]\w*)\s*:\s?(.*)", re.S)


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
class Board:
    decl: ir.BoardDecl
    cells: list[gen.Cell] | None  # explicit cells; None for a generator (made per player count)
    coords: tuple[str, ...]


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
    relations: dict[str, ir.RelationDecl] = field(default_factory=dict)
    functions: dict[str, ir.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, ir.ProcedureDecl] = field(default_factory=dict)
    setup: ir.SetupDecl | None = None
    turn: ir.TurnDecl | None = None
    end: ir.EndDecl | None = None
    at_end: ir.AtEndDecl | None = None
    score: ir.ScoreDecl | None = None
    heuristic: ir.HeuristicDecl | None = None
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
    texts: dict[str, str] = field(default_factory=dict)
    labels: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    colors: dict[str, str] = field(default_factory=dict)
    kind_colors: dict[str, str] = field(default_factory=dict)
    offscreen: set[str] = field(default_factory=set)
    types: NodeMap = field(default_factory=NodeMap)  # node -> its type
    templates: NodeMap = field(default_factory=NodeMap)  # a log's node -> its template's parts
    decisions: set[str] = field(default_factory=set)  # procedures that may ask a player
    # what a saved frame may hold (interpreter/frames.py): per procedure, every type each
    # of its locals takes; per statement of a procedure, the locals in scope before it
    locals: dict[str, dict[str, list[T]]] = field(default_factory=dict)
    scopes: NodeMap = field(default_factory=NodeMap)
    asking: NodeMap = field(default_factory=NodeMap)  # statements that ask a player

    def type_of(self, e) -> T:
        return self.types.get(e, ERROR)

    def declares(self, name: str) -> bool:
        """Whether the ruleset declares something of this name: a declaration named like
        a built-in constant (``active``, ``players``) hides it in the whole ruleset."""
        return any(name in table for table in (
            self.vars, self.zones, self.enum_of_value, self.enums, self.kinds, self.boards,
            self.functions, self.relations, self.procedures, self.participants))

    def calls_builtin(self, name: str) -> bool:
        """Whether a call ``name(...)`` is the built-in function's: no function, relation,
        per-player zone or per-player variable of the ruleset has its name (one that does
        hides the built-in in the whole ruleset). Later stages ask this, never the name."""
        if name not in BUILTINS or name in self.functions or name in self.relations:
            return False
        return not ((name in self.zones and self.zones[name].per_player)
                    or (name in self.vars and self.vars[name].per_player))


class Checker:
    def __init__(self, merged: Merged, diags: Diagnostics):
        self.m = merged
        self.d = diags
        title = next((x.text for x in merged.decls if x.node == "Title"), merged.name)
        self.c = Checked(merged.name, title, (1, 1), "clockwise", merged.variants, merged.locale,
                         merged.language, merged.variant_titles)
        self.proc_locals: dict[str, T] | None = None
        self.proc_decl: ir.ProcedureDecl | None = None  # the procedure being checked
        self.known_cells: dict[str, list | None] = {}  # board -> its cells, when known now
        self.in_at_end = False
        self.roles: dict[str, tuple[str, ir.Span]] = {}

    # ---------------------------------------------------------------- driver
    def run(self) -> Checked:
        decls = self.m.decls
        for d in decls:  # first pass: names that everything else refers to
            self._declare(d)
        for d in decls:  # the kinds' attributes, which any rule may read
            if d.node == "KindDecl":
                self._kind_fields(d)
        self.asks = self._asking_procedures()
        self.results = {n: self.type_ref(p.result) for n, p in self.c.procedures.items()
                        if p.result is not None}
        for d in decls:
            self._check_decl(d)
        self._check_required(decls)
        self._check_texts(decls)
        return self.c

    def _check_texts(self, decls) -> None:
        """Texts must belong to something (a log key, a decision's verb, a UI text) and
        use only placeholders that exist there: a typo would silently show nothing."""
        places: dict[str, set[str]] = {k: set(v) for k, v in UI_TEXTS.items()}
        logs, others = [], dict.fromkeys(UI_TEXTS, "the UI text")
        for d in decls:
            for n in ir.walk(d):
                if n.node == "Log":
                    parts = self.c.templates.get(n, [])
                    raws = [p[0] for p in parts if isinstance(p, tuple)]
                    places[n.key] = set(raws) | {str(i) for i in range(1, len(raws) + 1)}
                    logs.append(n)
                elif n.node in ("Choose", "ChooseEach", "ChooseSubset") and n.verb:
                    for v in (n.verb, getattr(n, "alone", None)):
                        if v:
                            places.setdefault(v, set())
                            others.setdefault(v, "the verb of a decision")
                elif n.node == "Best" and n.tie == "choose":
                    places.setdefault("tie", set())
                    others.setdefault("tie", "the verb of a 'best ... tie choose'")
        for n in logs:
            # one `text KEY` would translate both: the message and the prompt (or UI text)
            if n.key in others:
                span = n.span.model_copy(update={"column": n.span.column + len("log ")})
                self.d.add(errors.Diagnostic(
                    "check/text-collision", span,
                    f"the log key '{n.key}' is also {others[n.key]} '{n.key}': a text "
                    f"'{n.key}' would replace both",
                    f"give the message its own key, e.g. 'log {n.key}_message \"...\"'",
                    severity="warning", length=len(n.key)))
        for d in decls:
            if d.node != "TextDecl":
                continue
            if d.key not in places and d.key in self.m.variant_texts:
                continue  # used by a variant that is not chosen now
            if d.key not in places:
                self.d.add(errors.Diagnostic(
                    "check/unused-text", d.span, f"no rule uses the text '{d.key}'",
                    errors.did_you_mean(d.key, places) or
                    "texts name a log key, a decision's verb ('as \"verb\"'), 'tie', or a UI text: "
                    + ", ".join(sorted(UI_TEXTS)),
                    severity="warning", length=len(d.key)))
                continue
            for ph in TEMPLATE_PART.findall(d.text):
                if ph.strip() not in places[d.key]:
                    self.d.add(errors.Diagnostic(
                        "check/unknown-placeholder", d.span,
                        f"text '{d.key}' has the placeholder {{{ph}}}, which its rule does not provide",
                        errors.did_you_mean(ph.strip(), places[d.key]) or
                        f"available: {', '.join('{' + p + '}' for p in sorted(places[d.key])) or 'none'}",
                        severity="warning"))

    def _declare(self, d) -> None:
        c = self.c
        match d.node:
            case "Players":
                self._declare_players(d)
            case "Order":
                c.order = d.direction
            case "EnumDecl":
                c.enums[d.name] = d.values
                seen = set()
                for v in d.values:
                    if v in seen:
                        self.d.add(errors.duplicate(d.span, "enum value", v, d.span))
                    seen.add(v)
                    if v in c.enum_of_value and c.enum_of_value[v] != d.name:
                        c.enum_of_value[v] = "?"  # ambiguous: write Enum.value
                    else:
                        c.enum_of_value[v] = d.name
            case "KindDecl":
                c.kinds[d.name] = {}
            case "BoardDecl":
                self._declare_board(d)
            case "ZoneDecl":
                c.zones[d.name] = d
            case "DeckDecl":
                c.decks.append(d)
            case "VarDecl":
                c.vars[d.name] = d
            case "RelationDecl":
                c.relations[d.name] = d
            case "FunctionDecl":
                c.functions[d.name] = d
            case "ProcedureDecl":
                c.procedures[d.name] = d
            case "SetupDecl":
                c.setup = d
            case "TurnDecl":
                c.turn = d
            case "EndDecl":
                c.end = d
            case "AtEndDecl":
                c.at_end = d
            case "ScoreDecl":
                c.score = d
            case "HeuristicDecl":
                c.heuristic = d
            case "OutcomeDecl":
                c.outcome = d
            case "TeamDecl":
                c.team = d
            case "ParticipantDecl":
                c.participants[d.name] = d
            case "TiebreakDecl":
                c.tiebreaks.append(d)
            case "InvariantDecl":
                c.invariants.append(d)
            case "SecretDecl":
                c.secrets.append(d)
            case "BoundDecl":
                if d.count < 1:
                    self.d.add(errors.bad_value(d.span, "a bound must be at least 1"))
                c.bound, c.endless = (d.count, d.unit), d.endless
        self._check_clashes(d)

    _ROLES = {"EnumDecl": "enum", "KindDecl": "kind", "BoardDecl": "board", "ZoneDecl": "zone",
              "VarDecl": "variable", "RelationDecl": "relation", "FunctionDecl": "function",
              "ProcedureDecl": "procedure", "ParticipantDecl": "participant"}

    def _check_clashes(self, d) -> None:
        name = getattr(d, "name", None)
        if name is None or d.node in ("TiebreakDecl",):
            return
        role = self._ROLES.get(d.node)
        if role is None:
            return
        named = [(name, role)] + [(v, f"value of enum {name}") for v in getattr(d, "values", [])
                                  if d.node == "EnumDecl"]
        for n, what in named:
            both_values = n in self.roles and what.startswith("value of") \
                and self.roles[n][0].startswith("value of")
            if n in self.roles and (self.roles[n][0] != what or (n == name and what != role)) \
                    and not both_values:
                first_what, first_span = self.roles[n]
                self.d.add(errors.Diagnostic(
                    "check/duplicate", d.span, f"'{n}' names both {_a(first_what)} and {_a(what)}",
                    f"the {first_what} is declared at line {first_span.line}; rename one",
                    length=len(n)))
            else:
                self.roles.setdefault(n, (what, d.span))
        # A declaration named like a built-in function or constant hides it in the whole
        # ruleset (a new built-in never breaks a ruleset); the type names cannot be taken.
        if name in BUILTIN_TYPES:
            self.d.add(errors.Diagnostic("check/reserved-name", d.span,
                                         f"'{name}' is a type name and cannot be declared",
                                         "choose another name", length=len(name)))

    def _declare_players(self, d: ir.Players) -> None:
        if not 1 <= d.min <= d.max:
            self.d.add(errors.bad_value(d.span, f"players {d.min}..{d.max} is empty"))
        elif d.default is not None and not d.min <= d.default <= d.max:
            self.d.add(errors.bad_value(d.span, f"the default of players {d.min}..{d.max} is "
                                                f"{d.default}, not one of those counts",
                                        f"write a count from {d.min} to {d.max}"))
        self.c.players = (d.min, d.max)
        self.c.default_players = d.default

    def _declare_board(self, d: ir.BoardDecl) -> None:
        if d.generator is not None:
            g = gen.GENERATORS.get(d.generator)
            if g is None:
                self.d.add(errors.unknown(d.span, "board generator", d.generator, gen.GENERATORS))
                self.c.boards[d.name] = Board(d, [], ())
                return
            given = set()
            for a in d.args:
                if a.name not in g.names():
                    self.d.add(errors.unknown(a.span, f"argument of {d.generator}", a.name, g.names()))
                    continue
                given.add(a.name)
            missing = [p for p in g.params if p not in given]
            if missing:
                self.d.add(errors.Diagnostic("check/arity", d.span,
                                             f"{d.generator} needs {', '.join(missing)}",
                                             f"write {d.generator}({', '.join(p + ': N' for p in g.params)})"))
            # the cells are made when the ruleset is compiled for a number of players:
            # sizes may depend on player_count()
            self.c.boards[d.name] = Board(d, None, g.coords)
        else:
            defs, coords, names = [], None, set()
            for cd in d.cells:
                vals = {a.name: self._const_int(a.value) for a in cd.coords}
                if cd.name in names:
                    self.d.add(errors.duplicate(cd.span, "cell", cd.name, cd.span))
                names.add(cd.name)
                keys = tuple(sorted(vals))
                if coords is None:
                    coords = keys
                elif keys != coords:
                    self.d.add(errors.bad_value(cd.span, f"cell '{cd.name}' has coordinates "
                                                f"{', '.join(keys)} but the first cell has "
                                                f"{', '.join(coords)}"))
                defs.append((cd.name, vals))
            self.c.boards[d.name] = Board(d, gen.explicit_cells(defs), coords or ())

    def _const_int(self, e) -> int | None:
        if e.node == "IntLit":
            return e.value
        if e.node == "UnOp" and e.op == "-" and e.operand.node == "IntLit":
            return -e.operand.value
        self.d.add(errors.bad_value(e.span, "a whole number is expected here"))
        return None

    # ---------------------------------------------------------------- declarations
    def _check_decl(self, d) -> None:
        c = self.c
        match d.node:
            case "BoardDecl":
                self._kind_ref(d.holds)
                self._visibility(d, d.visibility, per_player=False)
                for a in d.args:
                    self._expect(a.value, {}, INT, f"the board size '{a.name}'")
            case "ZoneDecl":
                self._kind_ref(d.holds)
                self._visibility(d, d.visibility, d.per_player)
            case "DeckDecl":
                self._check_deck(d)
            case "VarDecl":
                self._visibility(d, d.visibility, d.per_player)
                t = self.type_ref(d.type)
                self._expect(d.init, {}, t, f"the initial value of '{d.name}'")
            case "RelationDecl":
                env = {p.name: self.type_ref(p.type) for p in d.params}
                for p in d.params:
                    if env[p.name].tag != "cell":
                        self.d.add(errors.type_mismatch(p.span, f"relation parameter '{p.name}'",
                                                        "a cell (the name of a board)", str(env[p.name])))
                    elif len(d.params) > 2 and env[p.name] != env[d.params[0].name]:
                        # line(a) is a list of [b, c]: a list holds cells of one board
                        self.d.add(errors.type_mismatch(
                            p.span, f"relation parameter '{p.name}' (a relation of more than "
                                    f"two cells relates cells of one board)",
                            str(env[d.params[0].name]), str(env[p.name])))
                self._expect(d.body, env, BOOL, f"relation '{d.name}'")
            case "FunctionDecl":
                env = self._params(d.params)
                self._expect(d.body, env, self.type_ref(d.result), f"the result of '{d.name}'")
            case "ProcedureDecl":
                self.proc_decl = d
                self._proc(d.name, d.body, self._params(d.params))
                self.proc_decl = None
                self._check_result_paths(d)
            case "SetupDecl":
                self._proc("setup", d.body, {})
            case "TurnDecl":
                self._proc("turn", d.body, {})
            case "AtEndDecl":
                self.in_at_end = True
                self._proc("at end", d.body, {})
                self.in_at_end = False
            case "EndDecl":
                self._expect(d.cond, {}, BOOL, "the end condition")
            case "ScoreDecl":
                self._expect(d.body, {d.param: PLAYER}, INT, "the score")
            case "HeuristicDecl":
                self._expect(d.body, {d.param: PLAYER}, INT, "the heuristic")
            case "TiebreakDecl":
                self._expect(d.body, {d.param: PLAYER}, INT, f"tiebreak '{d.name}'")
            case "OutcomeDecl":
                for i, cl in enumerate(d.clauses):
                    if cl.cond is not None:
                        env = {d.param: PLAYER} | ({d.rank: INT} if d.rank else {})
                        self._expect(cl.cond, env, BOOL, f"the '{cl.outcome}' clause")
                    elif i < len(d.clauses) - 1:
                        self.d.add(errors.outcome_otherwise(d.clauses[i + 1].span, last=False))
                if d.clauses[-1].cond is not None:
                    self.d.add(errors.outcome_otherwise(d.clauses[-1].span, last=True))
            case "ParticipantDecl":
                if d.score is not None:
                    self._expect(d.score, {}, INT, f"the score of '{d.name}'")
            case "TeamDecl":
                t = self.expr(d.body, {d.param: PLAYER})
                if not (t.is_error or t in (INT, PLAYER) or t.tag == "enum"):
                    self.d.add(errors.type_mismatch(d.body.span, "the team",
                                                    "int, player or an enum value", str(t)))
            case "InvariantDecl":
                self._expect(d.cond, {}, BOOL, f"invariant '{d.name}'")
            case "SecretDecl":
                if d.zone not in c.zones:
                    self.d.add(errors.unknown(d.span, "zone", d.zone, c.zones, "check/unknown-zone"))
            case "NameDecl":
                self._check_path(d, d.path)
                c.names[d.path] = (d.text, d.short)
            case "TextDecl":
                c.texts[d.key] = d.text
            case "LabelDecl":
                self._check_label(d)
            case "ColorDecl":
                self._check_path(d, d.path)
                if d.color not in COLORS:
                    self.d.add(errors.unknown(d.span, "colour", d.color, COLORS))
                c.colors[d.path] = d.color
            case "KindColorDecl":
                if d.kind not in c.kinds:
                    self.d.add(errors.unknown(d.span, "kind", d.kind, c.kinds))
                elif d.attr not in c.kinds[d.kind]:
                    self.d.add(errors.no_attribute(d.span, d.kind, d.attr, c.kinds[d.kind]))
                c.kind_colors[d.kind] = d.attr
            case "OffscreenDecl":
                shown = {**c.vars, **c.zones}
                if d.name not in shown:
                    self.d.add(errors.unknown(d.span, "variable or zone", d.name, shown))
                c.offscreen.add(d.name)

    def _kind_fields(self, d: ir.KindDecl) -> None:
        fields, item_vars = self.c.kinds[d.name], self.c.item_vars.setdefault(d.name, {})
        for f in d.fields:
            if f.name in fields:
                self.d.add(errors.duplicate(f.span, "attribute", f.name, f.span))
            t = fields[f.name] = self.type_ref(f.type)
            if f.var:
                item_vars[f.name] = f
                if f.init is None:
                    self.d.add(errors.missing_value(f.span, f.name, str(t)))
                else:
                    self._expect(f.init, {}, t, f"the initial value of '{f.name}'")
            elif f.init is not None:
                self.d.add(errors.bad_value(f.init.span, f"'{f.name}' is fixed: each item gets its "
                                            "value in its deck", f"write 'var {f.name}: ...' for a value that "
                                            "changes during the game"))

    def _visibility(self, d, vis: str, per_player: bool) -> None:
        if vis == "owner" and not per_player:
            self.d.add(errors.bad_value(d.span, f"'{d.name}' is not per player, so it has no owner",
                                        "use 'public' or 'hidden', or write 'per player'"))

    def _kind_ref(self, t: ir.TypeRef) -> None:
        if t.name not in self.c.kinds:
            self.d.add(errors.unknown(t.span, "kind", t.name, self.c.kinds, "check/unknown-kind"))

    def _params(self, params: list[ir.Param]) -> dict[str, T]:
        env = {}
        for p in params:
            if p.name in env:
                self.d.add(errors.duplicate(p.span, "parameter", p.name, p.span))
            env[p.name] = self.type_ref(p.type)
        return env

    def type_ref(self, t: ir.TypeRef) -> T:
        if t.name == "list":
            return list_of(self.type_ref(t.item))
        if t.name in BUILTIN_TYPES:
            return BUILTIN_TYPES[t.name]
        if t.name in self.c.enums:
            return T("enum", t.name)
        if t.name in self.c.kinds:
            return T("item", t.name)
        if t.name in self.c.boards:
            return T("cell", t.name)
        if t.name == "zone":
            if t.item is None:
                return T("zone", "?")
            if t.item.name not in self.c.kinds:
                self.d.add(errors.unknown(t.item.span, "kind", t.item.name, self.c.kinds,
                                          "check/unknown-kind"))
                return ERROR
            return T("zone", t.item.name)
        cands = list(BUILTIN_TYPES) + list(self.c.enums) + list(self.c.kinds) + list(self.c.boards)
        self.d.add(errors.unknown(t.span, "type", t.name, cands, "check/unknown-type"))
        return ERROR

    def _check_deck(self, d: ir.DeckDecl) -> None:
        z = self.c.zones.get(d.into)
        if z is None:
            self.d.add(errors.unknown(d.span, "zone", d.into, self.c.zones, "check/unknown-zone"))
        elif z.per_player:
            self.d.add(errors.bad_value(d.span, f"a deck cannot go into the per-player zone '{d.into}'",
                                        "put it in a shared pile, then deal it"))
        for e in d.entries:
            env: dict[str, T] = {}
            for cl in e.clauses:
                env[cl.var] = self._iter_type(cl.iter, env, cl.span)
            fields = self.c.kinds.get(e.kind)
            if fields is None:
                self.d.add(errors.unknown(e.span, "kind", e.kind, self.c.kinds, "check/unknown-kind"))
                continue
            if z is not None and z.holds.name != e.kind:
                self.d.add(errors.type_mismatch(e.span, f"deck '{d.name}' into '{d.into}'",
                                                f"{z.holds.name} items", e.kind))
            given = set()
            item_vars = self.c.item_vars.get(e.kind, {})
            for a in e.args:
                if a.name not in fields:
                    self.d.add(errors.no_attribute(a.span, e.kind, a.name, fields))
                    continue
                if a.name in item_vars:
                    self.d.add(errors.bad_value(a.span, f"'{a.name}' is a variable of each item: it "
                                                "starts at its declared value", "leave it out here"))
                given.add(a.name)
                self._expect(a.value, env, fields[a.name], f"attribute '{a.name}'")
            for f in fields:
                if f not in given and f not in item_vars:
                    self.d.add(errors.Diagnostic("check/missing-attribute", e.span,
                                                 f"{e.kind} needs a value for '{f}'",
                                                 f"write {f}: ... inside {e.kind}(...)"))

    def _check_path(self, d, path: str) -> None:
        c = self.c
        head, _, tail = path.partition(".")
        if not tail:
            known = (set(c.enums) | set(c.kinds) | set(c.zones) | set(c.boards) | set(c.vars)
                     | {t.name for t in c.tiebreaks} | set(c.participants) | {"score", "player", "game"})
            if head not in known:
                self.d.add(errors.unknown(d.span, "name", head, known))
            return
        if head in c.enums:
            if tail not in c.enums[head]:
                self.d.add(errors.unknown(d.span, f"value of {head}", tail, c.enums[head]))
        elif head in c.kinds:
            if tail not in c.kinds[head]:
                self.d.add(errors.no_attribute(d.span, head, tail, c.kinds[head]))
        else:
            self.d.add(errors.unknown(d.span, "enum or kind", head, list(c.enums) + list(c.kinds)))

    def _check_label(self, d: ir.LabelDecl) -> None:
        fields = self.c.kinds.get(d.kind)
        if fields is None:
            self.d.add(errors.unknown(d.span, "kind", d.kind, self.c.kinds, "check/unknown-kind"))
            return
        for tmpl in (d.template, d.short):
            for name in TEMPLATE_PART.findall(tmpl or ""):
                cond = LABEL_IF.fullmatch(name)
                if cond:
                    name = cond.group(2)
                    if name in fields and fields[name] != BOOL:
                        self.d.add(errors.type_mismatch(d.span, f"the label part {{if {name}: ...}}",
                                                        "bool", str(fields[name])))
                if name not in fields:
                    self.d.add(errors.no_attribute(d.span, d.kind, name, fields))
        self.c.labels[d.kind] = (d.template, d.short)

    def _check_required(self, decls) -> None:
        c = self.c
        span = self.m_span()
        if not any(d.node == "Players" for d in decls):
            self.d.add(errors.missing(span, "'players' declaration", "write for example: players 2..4"))
        if c.turn is None:
            self.d.add(errors.missing(span, "turn", "write: turn { ... }"))
        has_end_stmt = any(isinstance(n, ir.EndGame) for d in decls for n in ir.walk(d))
        if c.end is None and not has_end_stmt:
            self.d.add(errors.missing(span, "way to end", "write: end when <condition>, or 'end game' in a rule"))

    def m_span(self) -> ir.Span:
        for d in self.m.decls:
            return ir.trusted(ir.Span, file=d.span.file, line=1, column=1)
        return ir.trusted(ir.Span, file=getattr(self.m, "file", "<string>"), line=1, column=1)

    # ---------------------------------------------------------------- procedures
    def _proc(self, name: str, body: ir.Block, params: dict[str, T]) -> None:
        self.proc_locals = dict(params)
        self.proc_name = name
        self.c.locals[name] = {n: [t] for n, t in params.items()}
        self._block(body)
        self.proc_locals = None

    def _block(self, b: ir.Block) -> None:
        """A block is a scope: names bound inside it are gone after it."""
        env = self.proc_locals
        outer = set(env)
        for s in b.stmts:
            self._stmt(s)
        for name in [n for n in env if n not in outer]:
            del env[name]

    def _bind(self, span, name: str, t: T) -> None:
        env = self.proc_locals
        if name in self.c.vars or name in self.c.zones:
            self.d.add(errors.Diagnostic("check/shadowing", span,
                                         f"'{name}' already names a {self._what(name)}",
                                         "choose another name for the local variable",
                                         length=len(name)))
        old = env.get(name)
        if old is not None and not compatible(old, t) and not compatible(t, old):
            self.d.add(errors.type_mismatch(span, f"local '{name}' was {old}", str(old), str(t)))
        env[name] = t if old is None or old.tag == "none" else old
        self._local_type(name, t)

    def _local_type(self, name: str, t: T) -> None:
        types = self.c.locals[self.proc_name].setdefault(name, [])
        if t not in types:
            types.append(t)

    def _what(self, name: str) -> str:
        return "global variable" if name in self.c.vars else "zone"

    def _decision(self, span, stmt=None) -> None:
        """A statement ``stmt`` that asks a player (a frame can stop just after it), or a
        call of a procedure that may."""
        self.c.decisions.add(self.proc_name)
        if stmt is not None:
            self.c.asking[stmt] = True
        if self.in_at_end:
            self.d.add(errors.misplaced(span, "'at end' cannot ask a player to decide",
                                        "move the decision into the turn"))

    def _stmt(self, s) -> None:
        env = self.proc_locals
        self.c.scopes[s] = tuple(env)
        match s.node:
            case "Let":
                self._bind(s.span, s.var, self.expr(s.value, env))
            case "Assign":
                self._assign(s)
            case "AttrAssign":
                self._attr_assign(s)
            case "If":
                for cond, block in s.branches:
                    self._expect(cond, env, BOOL, "the condition")
                    self._block(block)
                if s.other:
                    self._block(s.other)
            case "For":
                fresh = s.var not in env
                self._bind(s.span, s.var, self._iter_type(s.iter, env, s.span))
                self._block(s.body)
                if fresh:
                    del env[s.var]  # the loop variable lives in the loop only
            case "While":
                self._expect(s.cond, env, BOOL, "the loop condition")
                if s.limit < 1:
                    self.d.add(errors.bad_value(s.span, "'max' must be at least 1"))
                self._block(s.body)
            case "Choose":
                self._decision(s.span, s)
                if s.alone is not None and s.alone == s.verb:
                    self.d.add(errors.bad_value(s.span, f"the two verbs are both '{s.verb}'",
                                                "the move without an object needs its own verb: "
                                                "'as \"play\" or \"pass\"'"))
                self._bind(s.span, s.var, self._iter_type(s.options, env, s.span))
                self._chooser(s.chooser)
            case "ChooseEach":
                self._decision(s.span, s)
                self._choose_each(s)
            case "ChooseSubset":
                self._decision(s.span, s)
                self._bind(s.span, s.var, list_of(self._iter_type(s.options, env, s.span)))
                if s.where is not None:
                    self._expect(s.where, env, BOOL, "the 'where' condition")
                self._chooser(s.chooser)
            case "Best":
                self._bind(s.span, s.var, self._iter_type(s.options, env, s.span))
                for k in s.keys:
                    t = self.expr(k, env)
                    if t not in (INT, BOOL) and not t.is_error:
                        self.d.add(errors.type_mismatch(k.span, "a 'best' key", "int or bool", str(t)))
                if s.tie == "choose":
                    self._decision(s.span, s)
                self._chooser(s.chooser)
            case "Move":
                self._check_move(s)
                self._facing(s)
            case "Flip":
                self._items_expr(s.what, env, "flip")
                self._facing(s)
            case "Shuffle" | "Reveal":
                self._zone_expr(s.zone, env, "this")
            case "Deal":
                self._zone_expr(s.source, env, "the pile dealt from")
                z = self.c.zones.get(s.to)
                if z is None:
                    self.d.add(errors.unknown(s.span, "zone", s.to, self.c.zones, "check/unknown-zone"))
                elif not z.per_player:
                    self.d.add(errors.bad_value(s.span, f"'{s.to}' is not a per-player zone",
                                                "deal goes to a zone declared 'per player'"))
            case "Fill":
                if s.board not in self.c.boards:
                    self.d.add(errors.unknown(s.span, "board", s.board, self.c.boards))
                self._zone_expr(s.source, env, "the pile filled from")
            case "PickRandom":
                self._bind(s.span, s.var, self._iter_type(s.options, env, s.span))
            case "Roll":
                self._roll(s, env)
            case "Log":
                self.c.templates[s] = self.template(s.template, s.span, env)
            case "CallProc":
                self._call_proc(s)
            case "Return":
                self._return(s)
            case "CallResult":
                self._call_result(s)
            case "EndGame":
                pass

    def _choose_each(self, s: ir.ChooseEach) -> None:
        """``choose v(p) from options for each p in seats``: v is a per-player variable
        that can hold the options, p names the seat (only inside the statement), seats is
        a list of players that is not written empty."""
        env = self.proc_locals
        at_var = s.span.model_copy(update={"column": s.span.column + len("choose ")})
        self._expect(s.seats, env, list_of(PLAYER), "the seats who choose")
        if s.seats.node == "ListLit" and not s.seats.items:
            self.d.add(errors.bad_value(s.seats.span, "no seat chooses: the list of seats is empty",
                                        "list the seats who choose, e.g. 'for each p in players'"))
        if s.arg != s.each:
            self.d.add(errors.bad_value(at_var, f"'{s.var}({s.arg})' must name the seat of "
                                                f"'for each {s.each}'",
                                        f"write 'choose {s.var}({s.each}) ... for each {s.each} in ...'"))
        fresh = s.each not in env
        self._bind(s.span, s.each, PLAYER)
        elem = self._iter_type(s.options, env, s.span)
        if fresh:
            del env[s.each]  # the seat's name lives in the statement only
        v = self.c.vars.get(s.var)
        if v is None or not v.per_player:
            self.d.add(errors.unknown(at_var, "per-player variable", s.var,
                                      [n for n, x in self.c.vars.items() if x.per_player]))
            return
        target = self.type_ref(v.type)
        if not elem.is_error and not compatible(target, elem):
            self.d.add(errors.type_mismatch(s.options.span, f"the options of '{s.var}'",
                                            f"a list of {target}", f"a list of {elem}"))
    def _roll(self, s: ir.Roll, env) -> None:
        """``roll a, b from faces``: the faces are a non-empty list of ints; each name is
        a new int local, named once."""
        self._expect(s.faces, env, list_of(INT), "the faces of a roll")
        f = s.faces
        if f.node == "BinOp" and f.op == ".." and f.left.node == "IntLit" and f.right.node == "IntLit" \
                and f.left.value > f.right.value:
            self.d.add(errors.bad_value(f.span, f"the die has no faces: {f.left.value}..{f.right.value} "
                                                f"is empty", "write the lowest face first, e.g. 'roll x from 1..6'"))
        elif f.node == "ListLit" and not f.items:
            self.d.add(errors.bad_value(f.span, "the die has no faces: the list is empty",
                                        "list its faces, e.g. 'roll x from [1, 2, 3, 4, 5, 6]'"))
        for k, name in enumerate(s.vars):
            if name in s.vars[:k]:
                self.d.add(errors.bad_value(s.span, f"'{name}' is rolled twice in one 'roll'",
                                            "give each die its own name: 'roll a, b from 1..6'"))
            self._bind(s.span, name, INT)

    def _chooser(self, e) -> None:
        if e is not None:
            self._expect(e, self.proc_locals, PLAYER, "the player who chooses")

    def _assign(self, s: ir.Assign) -> None:
        self._store(s, self.expr(s.value, self.proc_locals), s.value.span)

    def _store(self, s, t: T, value_span) -> None:
        """Checks that a value of type ``t`` may be stored as ``s`` says (an ``Assign`` or
        a ``CallResult``): a local, a global or per-player variable, ``active``."""
        env = self.proc_locals
        if s.player is not None:
            v = self.c.vars.get(s.var)
            if v is None or not v.per_player:
                self.d.add(errors.unknown(s.span, "per-player variable", s.var,
                                          [n for n, x in self.c.vars.items() if x.per_player]))
                return
            self._expect(s.player, env, PLAYER, "the player")
            target = self.type_ref(v.type)
        elif s.var == "active" and s.var not in env and not self.c.declares(s.var):
            target = PLAYER
        elif s.var in env:
            target = env[s.var]
            self._local_type(s.var, t)
            if target.tag == "none":
                env[s.var] = t
                return
        elif s.var in self.c.vars:
            v = self.c.vars[s.var]
            if v.per_player:
                self.d.add(errors.bad_value(s.span, f"'{s.var}' is per player",
                                            f"write {s.var}(p) = ..."))
                return
            target = self.type_ref(v.type)
        else:
            self.d.add(errors.unknown(s.span, "variable", s.var, list(env) + list(self.c.vars),
                                      "check/unknown-variable"))
            return
        if not compatible(target, t):
            self.d.add(errors.type_mismatch(value_span, f"assignment to '{s.var}'", str(target), str(t)))

    def _facing(self, s) -> None:
        if s.seen_by is not None:
            if s.facing != "down":
                self.d.add(errors.bad_value(s.seen_by.span, "only a face-down item can be seen by one player",
                                            "write 'face down for p'"))
            self._expect(s.seen_by, self.proc_locals, PLAYER, "the player who sees it")

    def _items_expr(self, e, env, what: str) -> str | None:
        """The kind of an item or a list of items (reports anything else)."""
        t = self.expr(e, env)
        if t.tag == "item":
            return t.arg
        if t.tag == "list" and t.arg.tag == "item":
            return t.arg.arg
        if not t.is_error and not (t.tag == "list" and t.arg.is_error):
            self.d.add(errors.type_mismatch(e.span, what, "an item or a list of items", str(t)))
        return None

    def _attr_assign(self, s: ir.AttrAssign) -> None:
        env = self.proc_locals
        holder = s.obj if s.obj is not None else ir.trusted(ir.Var, span=s.span, name=s.var)
        t = self.expr(holder, env)
        value = self.expr(s.value, env)
        if t.is_error:
            return
        if t.tag != "item":
            self.d.add(errors.type_mismatch(holder.span if s.obj is not None else s.span,
                                            f"'{s.var or '...'}.{s.attr} = ...'", "an item", str(t)))
            return
        fields, item_vars = self.c.kinds.get(t.arg, {}), self.c.item_vars.get(t.arg, {})
        if s.attr not in fields:
            self.d.add(errors.no_attribute(s.span, t.arg, s.attr, item_vars))
        elif s.attr not in item_vars:
            self.d.add(errors.bad_value(s.span, f"'{s.attr}' of {t.arg} is fixed and cannot change",
                                        f"declare it 'var {s.attr}: ...' in kind {t.arg}",))
        elif not compatible(fields[s.attr], value):
            self.d.add(errors.type_mismatch(s.value.span, f"'{s.var or '...'}.{s.attr} = ...'",
                                            str(fields[s.attr]), str(value)))
        self.c.types[s] = t

    def _check_move(self, s: ir.Move) -> None:
        env = self.proc_locals
        what = self.expr(s.what, env)
        kind = what.arg.arg if what.tag == "list" and what.arg.tag == "item" else \
            what.arg if what.tag == "item" else None
        if kind is None and not what.is_error and not (what.tag == "list" and what.arg.is_error):
            self.d.add(errors.type_mismatch(s.what.span, "move", "an item or a list of items", str(what)))
        zk = self._zone_expr(s.to, env, "the destination")
        if zk == "?" and kind and kind != "?":
            wanted = f"'zone of {kind}'" if kind != "?" else "'zone of Kind'"
            self.d.add(errors.type_mismatch(s.to.span, "move", "a place of a known kind",
                                            f"a zone of any kind (write the parameter's type as {wanted})"))
        elif kind == "?" and zk and zk != "?":
            self.d.add(errors.type_mismatch(s.what.span, "move", f"an item of kind {zk}",
                                            "an item of unknown kind (from a 'zone' parameter: "
                                            "write its type as 'zone of Kind')"))
        elif kind and zk and kind != zk:
            self.d.add(errors.type_mismatch(s.to.span, "move", f"a place that holds {kind}",
                                            f"a place that holds {zk}"))

    def _zone_expr(self, e, env, what: str) -> str | None:
        t = self.expr(e, env)
        if t.tag == "zone":
            return t.arg
        if t.tag == "cell":
            return self.c.boards[t.arg].decl.holds.name if t.arg in self.c.boards else None
        if not t.is_error:
            self.d.add(errors.type_mismatch(e.span, what, "a zone or a cell", str(t)))
        return None

    def _call_proc(self, s: ir.CallProc) -> None:
        p = self.c.procedures.get(s.proc)
        if p is None:
            self.d.add(errors.unknown(s.span, "procedure", s.proc, self.c.procedures,
                                      "check/unknown-procedure"))
            return
        if len(p.params) != len(s.args):
            self.d.add(errors.wrong_arity(s.span, s.proc, str(len(p.params)), len(s.args)))
        for prm, a in zip(p.params, s.args):
            self._expect(a, self.proc_locals, self.type_ref(prm.type), f"argument '{prm.name}'")
        if p.name in self.asks:
            self._decision(s.span)

    # ---------------------------------------------------------------- procedure results
    def _return(self, s: ir.Return) -> None:
        d, env = self.proc_decl, self.proc_locals
        if d is None:
            if s.value is not None:
                self.expr(s.value, env)
            self.d.add(errors.return_misplaced(s.span, self.proc_name))
        elif d.name not in self.results:
            if s.value is not None:
                self.d.add(errors.return_without_result(s.span, d.name, str(self.expr(s.value, env))))
        elif s.value is None:
            self.d.add(errors.bare_return(s.span, d.name, str(self.results[d.name])))
        else:
            self._expect(s.value, env, self.results[d.name], f"the result of '{d.name}'")

    def _call_result(self, s: ir.CallResult) -> None:
        """``let v = call p(...)`` / ``v = call p(...)``: the procedure's result type is
        the value's type."""
        self._call_proc(s)
        p = self.c.procedures.get(s.proc)
        t = ERROR
        if p is not None and p.result is None:
            self.d.add(errors.call_without_result(s.span, s.proc))
        elif p is not None:
            t = self.results[s.proc]
        self.c.types[s] = t
        if s.new:
            self._bind(s.span, s.var, t)
        elif not t.is_error:
            self._store(s, t, s.span)

    def _check_result_paths(self, d: ir.ProcedureDecl) -> None:
        """A procedure with a result must return on every path (the end of its body must
        not be reachable)."""
        if d.name in self.results and not _always_ends(d.body.stmts):
            end = d.body.span
            span = end.model_copy(update={"line": end.end_line or end.line,
                                          "column": max(1, (end.end_column or end.column) - 1)})
            self.d.add(errors.missing_return(span, d.name, str(self.results[d.name])))

    def _asking_procedures(self) -> set[str]:
        """Procedures that may ask a player, directly or through the procedures they call
        (computed before any body is checked, so declaration order does not matter)."""
        procs = self.c.procedures
        direct, calls = set(), {}
        for name, p in procs.items():
            nodes = list(ir.walk(p.body))
            if any(n.node in ("Choose", "ChooseEach", "ChooseSubset") or (n.node == "Best" and n.tie == "choose")
                   for n in nodes):
                direct.add(name)
            calls[name] = {n.proc for n in nodes if n.node in ("CallProc", "CallResult")}
        asks, changed = set(direct), True
        while changed:
            changed = False
            for name, callees in calls.items():
                if name not in asks and callees & asks:
                    asks.add(name)
                    changed = True
        return asks

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
                parts.append((m.group(1).strip(), e))
            pos = m.end()
        parts.append(text[pos:])
        return parts

    def _public_only(self, e, span) -> None:
        """A message is shown to every seat: it may not read a variable that only its
        owner (or nobody) may see."""
        name = self._private_read(e, set())
        v = self.c.vars.get(name) if name else None
        if v is not None:
            self.d.add(errors.Diagnostic(
                "check/private-value", span,
                f"a message is shown to every seat, but it reads '{name}', which is declared "
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
                t = self.expr(e.obj, env)
                self._expect(e.index, env, INT, "an index")
                if t.tag == "list":
                    return t.arg
                if not t.is_error:
                    self.d.add(errors.type_mismatch(e.obj.span, "indexing", "a list", str(t)))
                return ERROR
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
                        self.d.add(errors.type_mismatch(x.span, "list element", str(out), str(t)))
                    else:
                        out = u
                return list_of(out)
            case "BinOp":
                return self._binop(e, env)
            case "UnOp":
                if e.op == "not":
                    self._expect(e.operand, env, BOOL, "'not'")
                    return BOOL
                self._expect(e.operand, env, INT, "'-'")
                return INT
            case "CellAt":
                return self._cell_at(e, env)
            case "Ray":
                return self._ray(e, env)
            case "CondExpr":
                self._expect(e.cond, env, BOOL, "the condition")
                a, b = self.expr(e.then, env), self.expr(e.other, env)
                u = unify(a, b)
                if u is None:
                    self.d.add(errors.type_mismatch(e.other.span, "the 'else' branch", str(a), str(b)))
                    return a
                return u
        raise AssertionError(e.node)

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
        cands = list(env) + list(CONSTANTS) + list(c.vars) + list(c.enum_of_value) + list(c.enums) \
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

    def _binop(self, e: ir.BinOp, env) -> T:
        op = e.op
        if op in ("and", "or"):
            self._expect(e.left, env, BOOL, f"'{op}'")
            self._expect(e.right, env, BOOL, f"'{op}'")
            return BOOL
        a = self.expr(e.left, env)
        b = self.expr(e.right, env)
        if op in ("in", "not in"):
            if b.tag == "list":
                if not compatible(b.arg, a) and not compatible(a, b.arg):
                    self.d.add(errors.type_mismatch(e.left.span, f"'{op}'", str(b.arg), str(a)))
            elif b.tag in ("zone", "cell"):
                if a.tag != "item" and not a.is_error:
                    self.d.add(errors.type_mismatch(e.left.span, f"'{op}' a zone", "an item", str(a)))
            elif not b.is_error:
                self.d.add(errors.type_mismatch(e.right.span, f"'{op}'", "a list or a zone", str(b)))
            return BOOL
        if op in ("==", "!="):
            if NONE in (a, b):  # anything may be compared with none (first, last, top...)
                return BOOL
            if not compatible(a, b) and not compatible(b, a):
                self.d.add(errors.type_mismatch(e.right.span, f"comparison '{op}'", str(a), str(b)))
            return BOOL
        if op in ("<", "<=", ">", ">="):
            self._want(e.left, a, INT, f"'{op}'")
            self._want(e.right, b, INT, f"'{op}'")
            return BOOL
        if op == "..":
            self._want(e.left, a, INT, "a range")
            self._want(e.right, b, INT, "a range")
            return list_of(INT)
        if op == "+" and a.tag == "list":
            if b.tag != "list" or (unify(a, b) is None):
                self.d.add(errors.type_mismatch(e.right.span, "'+' of lists", str(a), str(b)))
                return a
            return unify(a, b)
        if op == "+" and a == STR:  # strings join; the other side must be a string too
            self._want(e.right, b, STR, "'+' of strings")
            return STR
        self._want(e.left, a, INT, f"'{op}'")
        self._want(e.right, b, INT, f"'{op}'")
        return INT

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
        f, a = e.func, e.args
        match f:
            case "top" | "bottom":
                k = self._holds(ts[0], a[0], f)
                if len(ts) == 2:
                    self._want(a[1], ts[1], INT, f"'{f}'")
                    return list_of(T("item", k)) if k else ERROR
                return T("item", k) if k else ERROR
            case "items":
                k = self._holds(ts[0], a[0], f)
                return list_of(T("item", k)) if k else ERROR
            case "size" | "empty" | "occupied" | "len":
                if ts[0].tag not in ("list",):
                    self._holds(ts[0], a[0], f)
                return INT if f in ("size", "len") else BOOL
            case "cells":
                if ts[0].tag != "board":
                    if not ts[0].is_error:
                        self.d.add(errors.type_mismatch(a[0].span, "'cells'", "a board", str(ts[0])))
                    return ERROR
                return list_of(T("cell", ts[0].arg))
            case "cell_of":
                self._want(a[0], ts[0], T("item", ts[0].arg) if ts[0].tag == "item" else T("item", "?"), f)
                if ts[1].tag != "board":
                    self.d.add(errors.type_mismatch(a[1].span, "'cell_of'", "a board", str(ts[1])))
                    return ERROR
                return T("cell", ts[1].arg)
            case "abs":
                self._want(a[0], ts[0], INT, f)
                return INT
            case "min" | "max":
                if len(ts) == 2:
                    self._want(a[0], ts[0], INT, f)
                    self._want(a[1], ts[1], INT, f)
                    return INT
                self._want(a[0], ts[0], list_of(INT), f)
                return INT
            case "sum":
                self._want(a[0], ts[0], list_of(INT), f)
                return INT
            case "count":
                self._list(a[0], ts[0], f)
                return INT
            case "any" | "all":
                self._want(a[0], ts[0], list_of(BOOL), f)
                return BOOL
            case "first" | "last":
                return self._list(a[0], ts[0], f)
            case "subsets":
                return list_of(list_of(self._list(a[0], ts[0], f)))
            case "sort" | "reverse" | "distinct":
                el = self._list(a[0], ts[0], f)
                return list_of(el)
            case "player_count" | "turn_number":
                return INT
            case "face_down":
                if ts[0].tag != "item" and not ts[0].is_error:
                    self.d.add(errors.type_mismatch(a[0].span, "'face_down'", "an item", str(ts[0])))
                return BOOL
            case "next_player" | "previous_player":
                self._want(a[0], ts[0], PLAYER, f)
                return PLAYER
            case "seat":
                self._want(a[0], ts[0], PLAYER, f)
                return INT
            case "owner":
                if ts[0].tag != "zone" and not ts[0].is_error:
                    self.d.add(errors.type_mismatch(a[0].span, "'owner'", "a per-player zone", str(ts[0])))
                return PLAYER
        raise AssertionError(f)

    def _list(self, node, t: T, fname: str) -> T:
        if t.tag == "list":
            return t.arg
        if not t.is_error:
            self.d.add(errors.type_mismatch(node.span, f"'{fname}'", "a list", str(t)))
        return ERROR


def _always_ends(stmts) -> bool:
    """Whether running these statements always ends their procedure (``return``, ``end
    game``, or an ``if`` with an ``else`` whose every branch does)."""
    for s in stmts:
        if s.node in ("Return", "EndGame"):
            return True
        if s.node == "If" and s.other is not None and _always_ends(s.other.stmts) \
                and all(_always_ends(b.stmts) for _, b in s.branches):
            return True
    return False


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
    return g.cells(**args)


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


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def check(merged: Merged, diags: Diagnostics | None = None) -> tuple[Checked, Diagnostics]:
    diags = diags if diags is not None else Diagnostics()
    checked = Checker(merged, diags).run()
    return checked, diags
