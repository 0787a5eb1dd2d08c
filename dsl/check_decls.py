"""The checker's part for declarations (``DeclChecks``, a base of ``check.Checker``):
what each declaration declares, and the checks of boards, zones, decks, variables,
rules, results, names, texts, labels and colours, and the ruleset's required parts."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from . import ast as ir, boards as gen, errors
from .types import BOOL, ERROR, INT, PLAYER, STR, TUPLE_PARTS, T, list_of, tuple_of

if TYPE_CHECKING:
    from .check import Checked
    from .errors import Diagnostics
    from .load import Merged

BUILTIN_TYPES = {"int": INT, "bool": BOOL, "str": STR, "player": PLAYER}
COLORS = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey",
          "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta",
          "bright_cyan", "bright_white"}
# texts the tools show, with the placeholders each may use
UI_TEXTS = {"player": {"n"}, "hidden": {"kind"}, "yes": set(), "no": set()}
TEMPLATE_PART = re.compile(r"\{([^{}]*)\}")
# a conditional part of a label: `{if NAME: TEXT}`, `{if not NAME: TEXT}` (NAME a bool attribute)
LABEL_IF = re.compile(r"if\s+(not\s+)?([A-Za-z_]\w*)\s*:\s?(.*)", re.DOTALL)

# where _declare records a declaration in Checked: by name, the only one, in a list
_BY_NAME = {"ZoneDecl": "zones", "VarDecl": "vars", "ConstDecl": "consts", "RelationDecl": "relations",
            "FunctionDecl": "functions", "ProcedureDecl": "procedures",
            "ParticipantDecl": "participants"}
_THE_ONE = {"SetupDecl": "setup", "TurnDecl": "turn", "EndDecl": "end", "AtEndDecl": "at_end",
            "ScoreDecl": "score", "HeuristicDecl": "heuristic", "OutcomeDecl": "outcome",
            "PayoffDecl": "payoff",
            "TeamDecl": "team"}
_LISTED = {"DeckDecl": "decks", "TiebreakDecl": "tiebreaks", "InvariantDecl": "invariants",
           "SecretDecl": "secrets"}


@dataclass
class Board:
    decl: ir.BoardDecl
    cells: list[gen.Cell] | None  # explicit cells; None for a generator (made per player count)
    coords: tuple[str, ...]
    edges_of: str | None = None   # for ``edges(of: BOARD)``: BOARD, whose sides its cells are


class DeclChecks:
    """The checks of declarations, for ``check.Checker``."""

    if TYPE_CHECKING:  # (the Checker's, dsl/check.py and dsl/check_stmts.py)
        m: Merged
        d: Diagnostics
        c: Checked
        roles: dict[str, tuple[str, ir.Span]]
        proc_decl: ir.ProcedureDecl | None
        in_at_end: bool
        verb_types: dict[str | None, list[T]]

        def expr(self, e, env) -> T: ...
        def _expect(self, e, env, want: T, context: str) -> T: ...
        def _iter_type(self, e, env, span) -> T: ...
        def _declare_supply(self, d) -> None: ...
        def _proc(self, name: str, body: ir.Block, params: dict[str, T]) -> None: ...
        def _check_result_paths(self, d: ir.ProcedureDecl) -> None: ...

    def _check_texts(self, decls) -> None:
        """Texts must belong to something (a log key, a decision's verb, a UI text) and
        use only placeholders that exist there: a typo would silently show nothing."""
        places, logs, others = self._text_places(decls)
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
            if d.node == "ProseDecl":
                self._check_prose(d, others)
            if d.node == "NameDecl" and d.path.startswith("action."):
                self._check_verb_name(d, others)
            if d.node == "TextDecl":
                self._check_text(d, places)

    def _text_places(self, decls) -> tuple[dict[str, set[str]], list, dict[str, str]]:
        """What a text may name: each key with the placeholders it provides; the log
        statements; what each key that is not a log key names (a UI text, a verb)."""
        places: dict[str, set[str]] = {k: set(v) for k, v in UI_TEXTS.items()}
        logs, others = [], dict.fromkeys(UI_TEXTS, "the UI text")
        for d in decls:
            for n in ir.walk(d):
                if n.node == "Log":
                    parts = self.c.templates.get(n, [])
                    raws = [p[0] for p in parts if isinstance(p, tuple)]
                    places[n.key] = set(raws) | {str(i) for i in range(1, len(raws) + 1)}
                    logs.append(n)
                elif n.node in ir.DECIDING and n.verb:
                    for v in (n.verb, getattr(n, "alone", None), *getattr(n, "more", ())):
                        if v:
                            places.setdefault(v, set())
                            others.setdefault(v, "the verb of a decision")
                elif n.node == "Best" and n.tie == "choose":
                    places.setdefault("tie", set())
                    others.setdefault("tie", "the verb of a 'best ... tie choose'")
        return places, logs, others

    def _check_prose(self, d: ir.ProseDecl, others: dict[str, str]) -> None:
        """A ``prose KEY "..."``: its key names a part of the rules (a phase, a procedure,
        a decision's verb, a variant of the folder, chosen or not)."""
        keys = prose_keys(self.c, [v for v, what in others.items() if what == "the verb of a decision"],
                          getattr(self.m, "variant_names", []))
        if d.key in keys:
            return
        head, _, tail = d.key.partition(".")
        if head == "action" and tail in self.m.variant_texts:
            return  # a decision of a variant that is not chosen now
        if head == "procedure" and tail in getattr(self.m, "variant_procedures", ()):
            return
        self.d.add(errors.Diagnostic(
            "check/unknown-prose", d.span, f"no rule is called '{d.key}'",
            errors.did_you_mean(d.key, keys) or
            "prose is for overview, setup, turn, end, score, procedure.NAME, action.VERB "
            "or variant.NAME", severity="warning"))

    def _check_verb_name(self, d: ir.NameDecl, others: dict[str, str]) -> None:
        """A ``name action.VERB "word"``: ``VERB`` is the verb of a decision (or ``tie``),
        of this ruleset or of a variant of its folder that is not chosen now."""
        verb = d.path.removeprefix("action.")
        verbs = [v for v, what in others.items() if what != "the UI text"]
        if verb in verbs or verb in self.m.variant_texts:
            return
        span = d.span.model_copy(update={"column": d.span.column + len("name ")})
        self.d.add(errors.Diagnostic(
            "check/unknown-verb", span, f"no decision has the verb '{verb}'",
            errors.did_you_mean(verb, verbs) or
            "'name action.VERB' names the verb of a decision ('as \"verb\"') or 'tie'",
            severity="warning", length=len(d.path)))

    def _check_text(self, d: ir.TextDecl, places: dict[str, set[str]]) -> None:
        """A ``text KEY "..."``: its key is used, its placeholders are the key's."""
        if d.key not in places and d.key in self.m.variant_texts:
            return  # used by a variant that is not chosen now
        if d.key not in places:
            self.d.add(errors.Diagnostic(
                "check/unused-text", d.span, f"no rule uses the text '{d.key}'",
                errors.did_you_mean(d.key, places) or
                "texts name a log key, a decision's verb ('as \"verb\"'), 'tie', or a UI text: "
                + ", ".join(sorted(UI_TEXTS)),
                severity="warning", length=len(d.key)))
            return
        for ph in TEMPLATE_PART.findall(d.text):
            if ph.strip() not in places[d.key]:
                self.d.add(errors.Diagnostic(
                    "check/unknown-placeholder", d.span,
                    f"text '{d.key}' has the placeholder {{{ph}}}, which its rule does not provide",
                    errors.did_you_mean(ph.strip(), places[d.key]) or
                    f"available: {', '.join('{' + p + '}' for p in sorted(places[d.key])) or 'none'}",
                    severity="warning"))

    def _declare(self, d) -> None:
        c, node = self.c, d.node
        if node in _BY_NAME:
            getattr(c, _BY_NAME[node])[d.name] = d
        elif node in _THE_ONE:
            setattr(c, _THE_ONE[node], d)
        elif node in _LISTED:
            getattr(c, _LISTED[node]).append(d)
        elif node == "AliasDecl":
            c.aliases[d.verb] = d
        elif node == "Players":
            self._declare_players(d)
        elif node == "Order":
            c.order = d.direction
        elif node == "EnumDecl":
            self._declare_enum(d)
        elif node == "KindDecl":
            c.kinds[d.name] = {}
        elif node == "BoardDecl":
            self._declare_board(d)
        elif node == "SupplyDecl":
            self._declare_supply(d)
        elif node == "BoundDecl":
            if d.count < 1:
                self.d.add(errors.bad_value(d.span, "a bound must be at least 1"))
            c.bound, c.endless = (d.count, d.unit), d.endless
        self._check_clashes(d)

    def _declare_enum(self, d: ir.EnumDecl) -> None:
        c = self.c
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

    _ROLES: ClassVar[dict[str, str]] = {"EnumDecl": "enum", "KindDecl": "kind", "BoardDecl": "board", "ZoneDecl": "zone",
              "VarDecl": "variable", "ConstDecl": "const", "RelationDecl": "relation", "FunctionDecl": "function",
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
        if d.generator == gen.EDGES:
            self._declare_edges(d)
            return
        if d.generator is not None:
            g = gen.GENERATORS.get(d.generator)
            if g is None:
                self.d.add(errors.unknown(d.span, "board generator", d.generator,
                                          [*gen.GENERATORS, gen.EDGES]))
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
            if d.named is not None:
                self._check_names(d.named, g.coords)
            for e in d.drawn:
                self._drawable(e, g.coords)
            # the cells are made when the ruleset is compiled for a number of players:
            # sizes may depend on player_count()
            self.c.boards[d.name] = Board(d, None, g.coords)
        else:
            self._declare_listed_board(d)

    def _declare_edges(self, d: ir.BoardDecl) -> None:
        """``edges(of: BOARD)``: the sides two cells of an earlier grid, hex or line board
        share (boards.edge_cells)."""
        form = "write edges(of: BOARD), BOARD a grid, hex or line board declared before"
        base = d.args[0].value if len(d.args) == 1 and d.args[0].name == "of" else None
        if base is None:
            self.d.add(errors.bad_value(d.span, "edges takes one argument, 'of', the board whose "
                                        "sides it is", form))
        elif base.node != "Var" or base.name not in self.c.boards:
            self.d.add(errors.unknown(base.span, "board", getattr(base, "name", "?"), self.c.boards))
        elif self.c.boards[base.name].decl.generator not in gen.EDGE_SOURCES:
            self.d.add(errors.bad_value(base.span, f"the sides of board '{base.name}' are not known: "
                                        "edges are made for grid, hex and line boards", form))
        else:
            coords = gen.edge_coords(str(self.c.boards[base.name].decl.generator))
            if d.named is not None:
                self._check_names(d.named, coords)
            for e in d.drawn:
                self._drawable(e, coords)
            self.c.boards[d.name] = Board(d, None, coords, base.name)
            return
        self.c.boards[d.name] = Board(d, [], ())

    def _declare_listed_board(self, d: ir.BoardDecl) -> None:
        """A board of cells listed one by one, each with the same coordinates; ``drawn
        at`` places them."""
        defs: list[tuple] = []
        coords, names = None, set()
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
        drawable = [self._drawable(e, coords or ()) for e in d.drawn]
        if d.drawn and all(drawable):
            defs = [(n, v, tuple(gen.drawn_value(e, v) for e in d.drawn)) for n, v in defs]
        self.c.boards[d.name] = Board(d, gen.explicit_cells(defs), coords or ())

    def _check_names(self, named: ir.StrLit, coords: tuple[str, ...]) -> None:
        """``named "..."`` of a generated board: its {placeholders} are coordinates."""
        problem = gen.name_format_problem(named.value, coords)
        if problem is None:
            return
        name, why = problem
        if name:
            self.d.add(errors.unknown(named.span, "coordinate", name, coords))
        else:
            self.d.add(errors.bad_value(named.span, why))

    def _drawable(self, e, coords: tuple[str, ...]) -> bool:
        """Whether an expression of ``drawn at`` is whole numbers, the board's coordinates,
        ``+``, ``-`` and ``*``; else a located error."""
        match e.node:
            case "IntLit":
                return True
            case "Var" if e.name in coords:
                return True
            case "Var":
                self.d.add(errors.unknown(e.span, "coordinate", e.name, coords))
                return False
            case "UnOp" if e.op == "-":
                return self._drawable(e.operand, coords)
            case "BinOp" if e.op in ("+", "-", "*"):
                return self._drawable(e.left, coords) & self._drawable(e.right, coords)
        self.d.add(errors.bad_value(e.span, "a drawing position is made of whole numbers, the "
                                            "board's coordinates, +, - and *",
                                    "write for example drawn at (2 * col, 8 - row)"))
        return False

    def _const_int(self, e) -> int | None:
        if e.node == "IntLit":
            return e.value
        if e.node == "UnOp" and e.op == "-" and e.operand.node == "IntLit":
            return -e.operand.value
        self.d.add(errors.bad_value(e.span, "a whole number is expected here"))
        return None

    # ---------------------------------------------------------------- declarations
    def _check_decl(self, d) -> None:
        for group in (self._check_data_decl, self._check_rule_decl, self._check_result_decl,
                      self._check_shown_decl):
            if group(d):
                return

    def _check_data_decl(self, d) -> bool:
        """Boards, zones, decks, variables and secrets; False for another declaration."""
        c = self.c
        match d.node:
            case "BoardDecl":
                self._kind_ref(d.holds)
                self._visibility(d, d.visibility, per_player=False)
                for a in d.args if d.generator != gen.EDGES else ():
                    self._expect(a.value, {}, INT, f"the board size '{a.name}'")
            case "ZoneDecl":
                self._kind_ref(d.holds)
                self._visibility(d, d.visibility, d.per_player)
            case "DeckDecl":
                self._check_deck(d)
            case "VarDecl":
                self._visibility(d, d.visibility, d.per_player)
                t = self.written_type(d.type)
                self._expect(d.init, {}, t, f"the initial value of '{d.name}'")
            case "ConstDecl":
                self._check_const(d)
            case "SecretDecl":
                if d.zone not in c.zones:
                    self.d.add(errors.unknown(d.span, "zone", d.zone, c.zones, "check/unknown-zone"))
            case _:
                return False
        return True

    def _check_rule_decl(self, d) -> bool:
        """Relations, functions, procedures, setup, the turn, at end and the end
        condition; False for another declaration."""
        match d.node:
            case "RelationDecl":
                self._check_relation(d)
            case "FunctionDecl":
                env = self._params(d.params, tuples=True)
                self._expect(d.body, env, self.written_type(d.result, tuples=True),
                             f"the result of '{d.name}'")
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
            case _:
                return False
        return True

    def _check_const(self, d: ir.ConstDecl) -> None:
        """A const's value fits its type and reads only the consts declared before it
        (they are computed in order, before any game)."""
        self._expect(d.value, {}, self.written_type(d.type), f"the value of const '{d.name}'")
        names = list(self.c.consts)
        later = set(names[names.index(d.name):]) if d.name in names else set()
        for n in ir.walk(d.value):
            if n.node == "Var" and n.name in later:
                self.d.add(errors.bad_value(n.span, f"const '{d.name}' reads const '{n.name}', "
                                                    "which is not computed yet",
                                            f"consts are computed in the order written: declare "
                                            f"'{n.name}' before '{d.name}'"))
                return

    def _check_relation(self, d: ir.RelationDecl) -> None:
        env = {p.name: self.written_type(p.type) for p in d.params}
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

    def _check_result_decl(self, d) -> bool:
        """Scores, the heuristic, tiebreaks, outcomes, participants, teams and
        invariants; False for another declaration."""
        match d.node:
            case "ScoreDecl":
                self._expect(d.body, {d.param: PLAYER}, INT, "the score")
            case "HeuristicDecl":
                self._expect(d.body, {d.param: PLAYER}, INT, "the heuristic")
            case "PayoffDecl":
                self._expect(d.body, {d.param: PLAYER} if d.param else {}, INT, "the payoff")
                if d.per is not None and d.per < 1:
                    self.d.add(errors.Diagnostic(
                        "check/bad-value", d.span, f"a payoff is counted per {d.per}: there are "
                        "no parts of one in it", hint="write 'per 2' for halves, 'per 6' for sixths"))
            case "TiebreakDecl":
                self._expect(d.body, {d.param: PLAYER}, INT, f"tiebreak '{d.name}'")
            case "OutcomeDecl":
                self._check_outcome(d)
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
            case "AliasDecl":
                pass   # once every decision is known: _check_aliases
            case _:
                return False
        return True

    def _check_aliases(self) -> None:
        """Each ``alias "verb"(m) = ...`` names the verb of decisions (or, without a
        verb, decisions without one) whose options are all of one type, which ``m``
        takes; its value is a text or a list of texts."""
        for verb, d in self.c.aliases.items():
            types = self.verb_types.get(verb)
            said = f"'{verb}'" if verb is not None else "without a verb"
            if not types:
                verbs = [v for v in self.verb_types if v is not None]
                self.d.add(errors.Diagnostic(
                    "check/unknown-name", d.span, f"no decision is made {said}" if verb is None
                    else f"no decision has the verb {said}",
                    (errors.did_you_mean(verb, verbs) if verb is not None else None)
                    or "an alias names the verb of a decision: 'alias \"play\"(m) = ...'"))
                continue
            known = [t for t in types if not t.is_error]
            if any(t != known[0] for t in known):
                shown = ", ".join(sorted({str(t) for t in known}))
                self.d.add(errors.type_mismatch(
                    d.span, f"the decisions {said} of alias", "options of one type", shown))
                continue
            got = self.expr(d.body, {d.param: known[0] if known else ERROR})
            if not (got.is_error or got == STR or got == list_of(STR)):
                self.d.add(errors.type_mismatch(d.body.span, "the alias", "str or list of str",
                                                str(got)))

    def _check_outcome(self, d: ir.OutcomeDecl) -> None:
        for i, cl in enumerate(d.clauses):
            if cl.cond is not None:
                env = {d.param: PLAYER} | ({d.rank: INT} if d.rank else {})
                self._expect(cl.cond, env, BOOL, f"the '{cl.outcome}' clause")
            elif i < len(d.clauses) - 1:
                self.d.add(errors.outcome_otherwise(d.clauses[i + 1].span, last=False))
        if d.clauses[-1].cond is not None:
            self.d.add(errors.outcome_otherwise(d.clauses[-1].span, last=True))

    def _check_name_grammar(self, d: ir.NameDecl) -> None:
        """A name's gender and forms by case: known ones, each case once."""
        c = self.c
        if d.gender is not None and d.gender not in ir.GENDERS:
            self.d.add(errors.unknown_grammar(d.gender_span or d.span, "gender", d.gender, ir.GENDERS))
        forms: dict[str, str] = {}
        for f in d.forms:
            if f.case not in ir.CASES:
                self.d.add(errors.unknown_grammar(f.span, "case", f.case, ir.CASES))
            elif f.case in forms:
                self.d.add(errors.duplicate(f.span, "case", f.case, f.span))
            forms[f.case] = f.text
        if d.gender is not None or forms:
            c.name_grammar[d.path] = (d.gender if d.gender in ir.GENDERS else None, forms)
        else:
            c.name_grammar.pop(d.path, None)

    def _check_shown_decl(self, d) -> bool:
        """How things are shown: names, texts, labels, colours, offscreen; False for
        another declaration."""
        c = self.c
        match d.node:
            case "NameDecl":
                self._check_path(d, d.path)
                c.names[d.path] = (d.text, d.short)
                self._check_name_grammar(d)
                variant = d.path.removeprefix("variant.")
                if variant in c.variant_titles:     # a chosen variant's title, translated
                    c.variant_titles[variant] = d.text
            case "TextDecl":
                c.texts[d.key] = d.text
            case "ProseDecl":
                c.prose[d.key] = d.text
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
                shown = {**c.vars, **c.zones, **c.boards}
                if d.name not in shown:
                    self.d.add(errors.unknown(d.span, "variable, zone or board", d.name, shown))
                c.offscreen.add(d.name)
            case _:
                return False
        return True

    def _kind_fields(self, d: ir.KindDecl) -> None:
        fields, item_vars = self.c.kinds[d.name], self.c.item_vars.setdefault(d.name, {})
        for f in d.fields:
            if f.name in fields:
                self.d.add(errors.duplicate(f.span, "attribute", f.name, f.span))
            t = fields[f.name] = self.written_type(f.type)
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
        if t.parts:
            self.d.add(errors.tuple_type_here(t.span))
        elif t.name not in self.c.kinds:
            self.d.add(errors.unknown(t.span, "kind", t.name, self.c.kinds, "check/unknown-kind"))

    def _params(self, params: list[ir.Param], tuples: bool = False) -> dict[str, T]:
        env = {}
        for p in params:
            if p.name in env:
                self.d.add(errors.duplicate(p.span, "parameter", p.name, p.span))
            env[p.name] = self.written_type(p.type, tuples)
        return env

    def written_type(self, t: ir.TypeRef, tuples: bool = False) -> T:
        """The type ``t`` stands for (as ``type_ref``), checked where it is declared: a
        tuple type in it only where ``tuples`` (a function's parameters and result, a
        local's ``let``), each of its parts a type a move writes by itself (a part that
        is not: ERROR, as ``type_ref`` makes it, so that nothing else is reported)."""
        if t.name == "list" and t.item is not None:
            return list_of(self.written_type(t.item, tuples))
        if t.name != "tuple" or not t.parts:
            return self.type_ref(t)
        if not tuples:
            self.d.add(errors.tuple_type_here(t.span))
            return self.type_ref(t)
        parts = []
        for part in t.parts:
            pt = self.type_ref(part)
            if pt.tag not in TUPLE_PARTS:
                self.d.add(errors.tuple_part(part.span, str(pt)))
                pt = ERROR
            parts.append(pt)
        return tuple_of(parts)

    def type_ref(self, t: ir.TypeRef) -> T:
        if t.name == "list":
            return list_of(self.type_ref(t.item))
        if t.name == "tuple" and t.parts:   # (a part no tuple has: see written_type)
            return tuple_of(pt if pt.tag in TUPLE_PARTS else ERROR for pt in map(self.type_ref, t.parts))
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
            if head not in known and head not in self._rule_words() and head not in self.m.variant_words:
                known |= self._rule_words()
                self.d.add(errors.unknown(d.span, "name", head, known))
            return
        if head in c.enums:
            if tail not in c.enums[head]:
                self.d.add(errors.unknown(d.span, f"value of {head}", tail, c.enums[head]))
        elif head in c.kinds:
            if tail not in c.kinds[head]:
                self.d.add(errors.no_attribute(d.span, head, tail, c.kinds[head]))
        elif head == "action" and d.node == "NameDecl":
            return   # (a verb's word: checked with the texts, once the verbs are known)
        elif head in self.m.variant_words:
            return   # (an enum or kind of a variant not chosen now: checked where it is)
        elif head == "variant":
            variants = getattr(self.m, "variant_names", [])
            if tail not in variants:
                self.d.add(errors.unknown(d.span, "variant", tail, variants))
        else:
            self.d.add(errors.unknown(d.span, "enum or kind", head, list(c.enums) + list(c.kinds)))

    def _rule_words(self) -> set[str]:
        """The rules' own names a locale may give players a word for (the rulebook
        says them): rule functions, relations, constants, invariants and every value
        the rules name (a local, a loop's variable, a parameter), as the rules use them."""
        c = self.c
        if getattr(self, "_rule_word_set", None) is None:
            used = {n.name for d in getattr(self.m, "decls", ()) for n in ir.walk(d) if n.node == "Var"}
            self._rule_word_set = (used | set(c.functions) | set(c.relations) | set(c.consts)
                                   | {i.name for i in c.invariants})
        return self._rule_word_set

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


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


PHASES = ("overview", "setup", "turn", "end", "score")


def prose_keys(c, verbs, variants) -> list[str]:
    """Every key a ``prose`` declaration may have for a checked ruleset: its phases (the
    ones it has), procedures, decisions' verbs and the folder's variants."""
    has = {"overview": True, "setup": c.setup is not None, "turn": c.turn is not None,
           "end": True, "score": c.score is not None}
    return ([k for k in PHASES if has[k]] + [f"procedure.{p}" for p in c.procedures]
            + [f"action.{v}" for v in dict.fromkeys(verbs)] + [f"variant.{v}" for v in variants])
