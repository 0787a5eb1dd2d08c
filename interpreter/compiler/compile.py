"""A checked ruleset -> a Program: static tables, generated expression code, and each
procedure as a flat list of instructions (so a game can stop at any player decision
and resume from plain data: the procedure name, an instruction index and its locals).
"""
from __future__ import annotations

import copy
import functools
import itertools
from dataclasses import dataclass
from typing import Any

from ...dsl import ast as ir, boards as gen, budgets as budget
from ...dsl.check import Checked, cell_problems, cell_value, ray_problems
from ...dsl.errors import Diagnostic, MeepleError
from ...dsl.types import T, tuple_parts
from ..core import evaluate
from ..core.facts import Facts
from ..play import helpers, inplace
from ..play.game import Game
from ..play.helpers import BudgetError, RuleError
from . import codegen
from .codegen import CodeTooBig, Env, ExprCompiler
from .compile_functions import FunctionCompiler, _indented
from .compile_procs import LogTemplate, Proc, compile_proc, same_kind  # noqa: F401 - (here as before)


@dataclass
class ItemInfo:
    id: int
    kind: str
    attrs: dict
    notation: str = ""


@dataclass
class ZoneInfo:
    id: int
    name: str          # declared name (zone or board)
    key: str           # unique key: 'draw', 'hand:0', 'table:r3c2'
    kind: str          # what it holds
    visibility: str    # public | owner | hidden
    owner: int | None = None
    board: str | None = None
    cell: object = None  # dsl.boards.Cell
    dark: bool = False   # a view lists only the items the seat may see, no count


class NeedsGame(Exception):
    """Raised by the compile-time stand-in when a rule reads the state of a game."""


class Static:
    """What rules may know before a game starts, when boards, decks and relations are
    made: the number of players (``player_count()``, ``players``), nothing else."""

    _WHAT = {"zones": "a zone", "loc": "where an item is", "vars": "a variable", "pvars": "a variable",
             "active": "the active player", "rng": "the random generator"}

    def __init__(self, n: int, direction: int, budgets: budget.Budgets = budget.DEFAULT):
        self.n_players, self.players, self.dir, self.turn, self.calls = n, list(range(n)), direction, 0, 0
        self.depth = 0
        self.work = self.work_budget = budgets.work

    def __getattr__(self, name):
        raise NeedsGame(self._WHAT.get(name, name))


def has_hidden_information(c: Checked) -> bool:
    """Whether some player may be kept from seeing something in games of this ruleset:
    a zone, board or variable that is not public, a ``secret`` declaration, a rule that moves
    or flips items face down, or a simultaneous decision (its choices are secret until
    all are made). (A ruleset without any of these shows every item to
    everyone; its random draws are still unknown in advance.)"""
    if c.secrets:
        return True
    if any(v.visibility is not None for v in c.vars.values()):
        return True
    if any(z.visibility != "public" for z in c.zones.values()):
        return True
    if any(b.decl.visibility != "public" for b in c.boards.values()):
        return True
    bodies = [p.body for p in c.procedures.values()]
    bodies += [d.body for d in (c.setup, c.turn, c.at_end) if d is not None]
    return any(getattr(n, "facing", None) == "down"   # (a statement that places an item: move, flip, make)
               or getattr(n, "node", None) == "ChooseEach"
               for body in bodies for n in ir.walk(body))


class Program:
    """A ruleset compiled for one number of players: immutable, reusable; games are
    started from it. Board sizes, decks and relations may depend on the player count."""

    def __init__(self, checked: Checked, players: int, budgets: budget.Budgets | None = None,
                 relations: dict | None = None, native=None):
        self.checked = c = checked
        self.facts = Facts(self)  # what the printers know of its expressions (core/facts.py)
        codegen.number_binders()
        # None, or what serves (or records) the pieces of generated code (interpreter/native/cython_code.py)
        self._native = native
        self.n = players
        # relation tables made by an earlier compile for this player count (the disk cache)
        self._made_relations = relations or {}
        self.budgets = budgets = budget.check(budgets)
        self._code_size = 0
        self.name, self.title = c.name, c.title
        self.min_players, self.max_players = c.players
        self.direction = 1 if c.order == "clockwise" else -1
        self.variants, self.locale = list(c.variants), c.locale
        self.static = Static(players, self.direction, budgets)
        self.diags: list[Diagnostic] = []
        self.items: list[ItemInfo] = []
        self.zones: list[ZoneInfo] = []
        self.zone_index: dict[str, int] = {}
        self.boards: dict[str, list[int]] = {}
        self.edge_ends: dict[str, list[tuple[int, int]]] = {}   # an edges board's cells' two cells
        self.ns: dict = dict(helpers.NAMESPACE)
        self.procs: dict[str, Proc] = {}
        self.logs: list[LogTemplate] = []
        # the straightforward code, and the fast code beside it (see compile_functions.py, _lambda)
        # the straightforward code's expressions evaluated by the core's tree walk
        # (core/evaluate.py: "tree"), or both ways, compared ("both"): tests only; ``walk``
        # its Evaluator (which counts the evaluations compared and notes any difference)
        self.walk_mode = evaluate.mode()
        self.optimize = codegen.OPTIMIZE and not self.walk_mode
        self.walk = evaluate.Evaluator(self) if self.walk_mode else None
        if self.walk is not None:   # (the walk takes more Python frames than a call)
            self.frames_per_depth = self.walk.frames_per_depth()
        self.exprc = ExprCompiler(c, self, prefix="PF_" if self.optimize else "F_")
        self.fastc = ExprCompiler(c, self, optimize=True) if self.optimize else None
        self._fast_count = 0
        self._fused_count = 0  # names of the fused statements' code (fused.py)
        self._texts: dict[int, tuple] = {}  # id -> (function, its text) of plain expressions
        self._fast_ready = False  # the fast functions are made after the boards and relations
        self._sort_keys: dict = {}
        self._sources: list[str] = []
        self._cell_tables: dict[str, tuple[str, tuple[str, ...]]] = {}  # cell(...) look-ups
        self._cell_uses: dict[int, tuple[str, ir.CellAt]] = {}
        self._ray_tables: dict[str, tuple[str, tuple[str, ...]]] = {}  # ray(...) walks
        self._ray_uses: dict[int, tuple[str, ir.Ray]] = {}
        for en, values in c.enums.items():
            self.ns[f"E_{en}"] = list(values)
        functions = FunctionCompiler(self)
        functions.plain()      # first: board sizes may call functions
        self._layout_zones()
        self._tables()
        for name, r in c.relations.items():
            self._relation(name, r)
        self._consts()
        functions.fast()       # once the boards and relations are known (their sizes)
        self._items()
        self._procedures()
        self._ending()
        self._check_cell_uses()
        self._link()
        if self.diags:
            raise MeepleError(self.diags)

    def _procedures(self) -> None:
        """The procedures' code, then setup's, the turn's and at end's."""
        c = self.checked
        for name, p in c.procedures.items():
            self._proc(name, [x.name for x in p.params], p.body)
        for name, d in (("setup", c.setup), ("turn", c.turn), ("at end", c.at_end)):
            if d is not None:
                self._proc(name, [], d.body)

    def _ending(self) -> None:
        """The functions of the end and the result (end, score, heuristic, tiebreaks,
        outcomes, teams, participants), of the initial values and of the invariants."""
        c = self.checked
        self.end_fn = self._fn(c.end.cond, Env()) if c.end else None
        self.score_fn = self._player_fn(c.score.param, c.score.body) if c.score else None
        self.heuristic_fn = (self._player_fn(c.heuristic.param, c.heuristic.body)
                             if c.heuristic else None)
        self.tiebreaks = [(t.name, self._player_fn(t.param, t.body)) for t in c.tiebreaks]
        # the other texts of a decision's moves, by its verb (alias "verb"(m) = ...)
        self.alias_fns = {verb: self._player_fn(d.param, d.body) for verb, d in c.aliases.items()}
        self.outcomes = [(cl.outcome, self._outcome_fn(c.outcome, cl.cond) if cl.cond else None)
                         for cl in c.outcome.clauses] if c.outcome else None
        self.team_fn = self._player_fn(c.team.param, c.team.body) if c.team else None
        # each seat's payoff (``payoff(p) = ...``), or the one every seat shares (``payoff = ...``)
        self.payoff_fn = None if c.payoff is None else (
            self._player_fn(c.payoff.param, c.payoff.body) if c.payoff.param
            else self._fn(c.payoff.body, Env()))
        self.participants = [(name, self._fn(d.score, Env()) if d.score else None, d)
                             for name, d in c.participants.items()]
        self.var_inits = {n: self._fn(v.init, Env()) for n, v in c.vars.items()}
        self.invariants = [(d.name, d.moment, self._fn(d.cond, Env()), d.span) for d in c.invariants]
        self.bound = c.bound
        self.secrets = [(d.zone, d.until_end) for d in c.secrets]
        self.item_var_inits = [(kind, name, self._fn(f.init, Env()))
                               for kind, fields in c.item_vars.items() for name, f in fields.items()
                               if f.init is not None]

    @property
    def hidden_information(self) -> bool:
        """True when games of this ruleset may hide something from a player (see
        ``has_hidden_information``): a front end must then never show one seat's view
        to another, and must not reveal the seed while the game runs."""
        return has_hidden_information(self.checked)

    def _budget_diag(self, span, name: str, message: str) -> Diagnostic:
        return Diagnostic("load/budget", span, f"{message} (the '{name}' budget)", budget.hint(name))

    def _static(self, what: str, span, fn, *args):
        """Runs compile-time rule code; a problem becomes a diagnostic at ``span``."""
        try:
            return fn(self.static, *args)
        except NeedsGame as e:
            self.diags.append(Diagnostic(
                f"check/{what}-not-constant", span,
                f"this {what} is made before the game starts, so it cannot use {e}",
                f"a {what} may use constants, enums, ranges, player_count() and its own variables"))
        except BudgetError as e:
            self.diags.append(Diagnostic(
                "load/budget", span, f"this {what} cannot be made for {self.n} players: {e}"))
        except RecursionError:
            self.diags.append(self._budget_diag(
                span, "calls", f"this {what} cannot be made for {self.n} players: functions call "
                               "each other too deeply"))
        except Exception as e:  # noqa: BLE001 - any other failure is the rule's
            self.diags.append(Diagnostic(
                f"check/{what}-not-constant", span,
                f"this {what} cannot be made for {self.n} players: {_plain(e)}"))
        return None

    # ------------------------------------------------------------ static tables
    def _add_zone(self, **kw) -> int:
        z = ZoneInfo(id=len(self.zones), **kw)
        self.zones.append(z)
        return z.id

    def _layout_zones(self) -> None:
        c = self.checked
        for name, d in c.zones.items():
            if not d.per_player:
                self.zone_index[name] = self._add_zone(name=name, key=name, kind=d.holds.name,
                                                       visibility=d.visibility, dark=bool(d.dark))
                self.ns[f"Z_{name}"] = self.zone_index[name]
        for name, b in c.boards.items():
            ids = []
            for cell in self._cells(name, b):
                ids.append(self._add_zone(name=name, key=f"{name}:{cell.name}", kind=b.decl.holds.name,
                                          visibility=b.decl.visibility, board=name, cell=cell,
                                          dark=bool(b.decl.dark)))
            self.boards[name] = ids
            self.ns[f"BOARD_{name}"] = list(ids)  # a later board's size may count these cells
            if len(self.zones) > self.budgets.cells:
                self.diags.append(self._budget_diag(
                    b.decl.span, "cells", f"the boards have more than {self.budgets.cells:,} cells "
                                          f"with {self.n} players"))
                raise MeepleError(self.diags)
        for name, d in c.zones.items():
            if d.per_player:
                self.zone_index[name] = len(self.zones)
                self.ns[f"Z_{name}"] = self.zone_index[name]
                for p in range(self.n):
                    self._add_zone(name=name, key=f"{name}:{p}", kind=d.holds.name,
                                   visibility=d.visibility, owner=p, dark=bool(d.dark))

    def _cells(self, name: str, b) -> list:
        if b.cells is not None:
            return b.cells
        d = b.decl
        if b.edges_of is not None:   # the sides of an earlier board's cells
            base = self.boards.get(b.edges_of, [])
            cells, pairs = gen.edge_cells(str(self.checked.boards[b.edges_of].decl.generator),
                                          [c for z in base if isinstance(c := self.zones[z].cell, gen.Cell)])
            self.edge_ends[name] = [(base[i], base[j]) for i, j in pairs]
            return self._named(name, d, gen.drawn_cells(cells, d.drawn))
        args = {}
        for a in d.args:
            fn = self._fn(a.value, Env())
            v = self._static("board", a.span, lambda R: fn(R, {}))  # noqa: B023 - called at once
            if v is None:
                return []
            lo, hi = gen.GENERATORS[d.generator].limits(a.name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                allowed = f"sizes are {lo} to {hi}" if (lo, hi) == (1, gen.MAX_SIZE) else \
                    f"{a.name} may be {lo} {'or' if hi == lo + 1 else 'to'} {hi}"
                self.diags.append(Diagnostic(
                    "check/board-size", a.span,
                    f"board '{name}': {a.name} is {v} with {self.n} players; {allowed}"))
                return []
            args[a.name] = v
        return self._named(name, d, gen.drawn_cells(gen.GENERATORS[d.generator].cells(**args), d.drawn))

    def _named(self, name: str, d, cells: list) -> list:
        """A generated board's cells, renamed by its ``named`` (a located error when two
        would share a name)."""
        if d.named is None:
            return cells
        cells, problem = gen.named_cells(cells, d.named.value)
        if problem:
            self.diags.append(Diagnostic("check/bad-value", d.named.span,
                                         f"board '{name}': {problem} with {self.n} players"))
            return []
        return cells

    def _tables(self) -> None:
        c, ns = self.checked, self.ns
        coords = {k for b in c.boards.values() for k in b.coords}
        for k in coords:
            ns[f"C_{k}"] = [z.cell.coords.get(k) if z.cell else None for z in self.zones]
        ns["CELL_NAME"] = [z.cell.name if z.cell else None for z in self.zones]
        ns["ZONE_OWNER"] = [z.owner for z in self.zones]
        for b, ids in self.boards.items():
            ns[f"BOARD_{b}"] = list(ids)
            ns[f"BOARDSET_{b}"] = frozenset(ids)
        for b, ends in self.edge_ends.items():
            self._edge_tables(b, ends)
        for name in self._cell_tables:
            self._fill_cell_table(name)
        for name in self._ray_tables:
            self._fill_ray_table(name)

    def _edge_tables(self, board: str, ends: list) -> None:
        """An edges board's tables (primitives.py: edge, across): ``EDGE_b`` the edge of
        two cells, either way round; ``ACROSS_b`` for each zone the cells across its
        edges, each (cell, edge), in cell order of the cell."""
        ids = self.boards[board]
        edge: dict = {}
        across: list[list] = [[] for _ in self.zones]
        for e, (a, b) in zip(ids, ends):
            edge[a, b] = edge[b, a] = e
            across[a].append((b, e))
            across[b].append((a, e))
        self.ns[f"EDGE_{board}"] = edge
        self.ns[f"ACROSS_{board}"] = [sorted(row) for row in across]

    # ------------------------------------------------------------ cell(board, ...)
    def cell_table(self, board: str, keys: tuple[str, ...], e: ir.CellAt) -> str:
        """The name of the table that maps values of ``keys`` to the cells of ``board``
        (filled once the board is laid out); ``e`` is checked when the cells are known."""
        name = f"CELLAT_{board}__{'__'.join(keys)}"
        if name not in self._cell_tables:
            self._cell_tables[name] = (board, keys)
            self.ns[name] = {}
            if board in self.boards:
                self._fill_cell_table(name)
        if e is not None:
            self._cell_uses[id(e)] = (board, e)
        return name

    def _fill_cell_table(self, name: str) -> None:
        board, keys = self._cell_tables[name]
        table = self.ns[name]
        table.clear()
        for z in reversed(self.boards.get(board, ())):  # the first cell wins
            table[tuple(cell_value(self.zones[z].cell, k) for k in keys)] = z

    # ------------------------------------------------------------ ray(start, ...)
    def ray_table(self, board: str, keys: tuple[str, ...], e: ir.Ray) -> str:
        """The name of the table of the rays of ``board`` stepping by ``keys``: indexed by
        ``(start, step, ...)``, each ray walked once, when first asked for
        (``helpers._RayTable``); ``e`` is checked when the cells are known."""
        name = f"RAY_{board}__{'__'.join(keys)}"
        if name not in self._ray_tables:
            self._ray_tables[name] = (board, keys)
            cells = self.cell_table(board, keys, None)
            self.ns[name] = helpers._RayTable(self.ns[cells])
            if "CELL_NAME" in self.ns:  # the boards are laid out
                self._fill_ray_table(name)
        self._ray_uses[id(e)] = (board, e)
        return name

    def _fill_ray_table(self, name: str) -> None:
        _board, keys = self._ray_tables[name]
        self.ns[name].reset([self.ns[f"C_{k}"] for k in keys])

    def ray_bound(self, board: str, keys: tuple[str, ...]) -> int | None:
        """The most cells a ray of ``board`` stepping by ``keys`` can have (one fewer than
        the most values one of them takes), or None before the board is laid out."""
        ids = self.boards.get(board)
        if ids is None:
            return None
        return max((len({cell_value(self.zones[z].cell, k) for z in ids}) - 1 for k in keys),
                   default=0)

    def _check_cell_uses(self) -> None:
        """``cell(...)`` on a board whose cells depend on the number of players: its
        coordinates must pick one cell, and a literal value must be on the board."""
        c = self.checked
        for board, e in self._cell_uses.values():
            if c.boards[board].cells is not None:
                continue  # listed cells: the checker did it
            cells = [self.zones[z].cell for z in self.boards.get(board, ())]
            self.diags.extend(cell_problems(board, cells, e, c.boards[board].coords,
                                            f" ({self.n} players)"))
        for board, e in self._ray_uses.values():
            if c.boards[board].cells is not None:
                continue  # listed cells: the checker did it
            cells = [self.zones[z].cell for z in self.boards.get(board, ())]
            self.diags.extend(ray_problems(board, cells, e, c.boards[board].coords,
                                           f" ({self.n} players)"))

    def _items(self) -> None:
        c = self.checked
        attrs = {a for k in c.kinds.values() for a in k}
        self.initial: list[tuple[int, int]] = []  # (item, zone)
        self.deck_items: dict[str, range] = {}      # deck -> the ids of its items
        for deck in c.decks:
            zone = self.zone_index[deck.into]
            first = len(self.items)
            for e in deck.entries:
                made = self._expand(e)
                if len(self.items) + len(made) * e.count > self.budgets.items:
                    self.diags.append(self._budget_diag(
                        e.span, "items", f"the decks make more than {self.budgets.items:,} items "
                                         f"with {self.n} players"))
                    raise MeepleError(self.diags)
                for values in made:
                    for _ in range(e.count):
                        info = ItemInfo(len(self.items), e.kind, values)
                        self.items.append(info)
                        self.initial.append((info.id, zone))
            self.deck_items[deck.name] = range(first, len(self.items))
        for a in attrs:
            self.ns[f"A_{a}"] = [it.attrs.get(a) for it in self.items]
        for k in c.kinds:
            self.ns[f"KIND_{k}"] = [it.id for it in self.items if it.kind == k]
        self._notations()

    def _expand(self, e: ir.DeckEntry) -> list[dict]:
        env = Env()
        loops = []
        for cl in e.clauses:
            loops.append(f"for v_{cl.var} in _it(R, {self.exprc.expr(cl.iter, env)})")
            env = env.bind(cl.var)
        body = "{" + ", ".join(f"{a.name!r}: {self.exprc.expr(a.value, env)}" for a in e.args) + "}"
        src = f"lambda R: [{body} {' '.join(loops)}]"
        fn = self._eval(src, f"<deck {e.kind}>", e.span)
        # a deck walks at most about twice the items it may make: a huge 'for' stops early
        R, limit = self.static, 2 * self.budgets.items + 1000
        R.work, saved = limit, R.work
        try:
            made = fn(R)
        except BudgetError as err:
            if "'work'" not in str(err):
                return self._static("deck", e.span, lambda R: fn(R)) or []
            self.diags.append(self._budget_diag(
                e.span, "items", f"the decks make more than {self.budgets.items:,} items "
                                 f"with {self.n} players"))
            raise MeepleError(self.diags) from None
        except Exception:  # noqa: BLE001 - reported by _static below
            made = None
        finally:
            R.work = saved
        if made is None:
            return self._static("deck", e.span, fn) or []
        return made

    def _notations(self) -> None:
        """Each item's move notation: its attribute values joined by '-', with '#k'
        where identical items would otherwise share a name."""
        seen: dict[str, int] = {}
        base = []
        for it in self.items:
            vals = [str(v).lower() for v in it.attrs.values()]
            name = "-".join(vals) if vals else it.kind.lower()
            base.append(name)
            seen[name] = seen.get(name, 0) + 1
        counter: dict[str, int] = {}
        for it, name in zip(self.items, base):
            if seen[name] > 1:
                counter[name] = counter.get(name, 0) + 1
                name = f"{name}#{counter[name]}"
            it.notation = name

    def _relation(self, name: str, r: ir.RelationDecl) -> None:
        if len(r.params) > 2:
            return self._relation_n(name, r)
        a, b = (p.name for p in r.params)
        ba, bb = (p.type.name for p in r.params)
        body = self._gen(r.body, Env({a, b}))
        fn = self._static_fn(f"R, v_{a}, v_{b}", r.body, body, f"<relation {name}>", r.span) if body else None
        table = [[] for _ in self.zones]
        pairs = len(self.boards.get(ba, ())) * len(self.boards.get(bb, ()))
        if pairs > self.budgets.relation:
            self.diags.append(self._budget_diag(
                r.span, "relation", f"relation '{name}' would be evaluated on {pairs:,} pairs of cells "
                                    f"with {self.n} players, more than {self.budgets.relation:,}"))
            fn = None

        def build(R):
            for x in self.boards[ba]:
                table[x] = [y for y in self.boards[bb] if fn(R, x, y)]
            return True
        if name in self._made_relations:
            table[:] = self._made_relations[name]
        elif fn is not None:
            self._static("relation", r.span, build)
        self.ns[f"REL_{name}"] = table
        self.ns[f"RELSET_{name}"] = [frozenset(t) for t in table]

    def _relation_n(self, name: str, r: ir.RelationDecl) -> None:
        """A relation of more than two cells (all of one board): RELSET holds the related
        tuples; REL maps each tuple of the first k cells (k < n) to the rest, in cell
        order: the last cells alone when one is left, else lists of the cells left."""
        names = [p.name for p in r.params]
        board = r.params[0].type.name
        body = self._gen(r.body, Env(set(names)))
        fn = self._static_fn(f"R, {', '.join('v_' + x for x in names)}", r.body, body,
                             f"<relation {name}>", r.span) if body else None
        n = len(names)
        tuples = len(self.boards.get(board, ())) ** n
        if tuples > self.budgets.relation:
            self.diags.append(self._budget_diag(
                r.span, "relation", f"relation '{name}' would be evaluated on {tuples:,} "
                                    f"combinations of {n} cells with {self.n} players, "
                                    f"more than {self.budgets.relation:,}"))
            fn = None
        rel: dict = {}
        related: set = set()

        def build(R):
            rel.clear()
            related.clear()
            # fn(R, *t) for every tuple t of cells in order, without a Python loop around
            # each call (a relation of three cells of a 64-cell board is 262,144 calls)
            calls, tuples = itertools.tee(itertools.product((R,), *[self.boards[board]] * n))
            for t in itertools.compress(tuples, itertools.starmap(fn, calls)):
                t = t[1:]
                related.add(t)
                for k in range(1, n):
                    rest = t[k:]
                    rel.setdefault(t[:k], []).append(rest[0] if len(rest) == 1 else list(rest))
            return True
        if name in self._made_relations:
            rel, related = self._made_relations[name]
        elif fn is not None:
            self._static("relation", r.span, build)
        self.ns[f"REL_{name}"] = rel
        self.ns[f"RELSET_{name}"] = related

    def _consts(self) -> None:
        """Each ``const``'s value (``CONST_name``), computed once now, in the order declared,
        from what is known before a game (``Static``), within fresh budgets each (work,
        calls, depth): a const that runs out of one is a ``load/budget`` diagnostic at it."""
        for name, d in self.checked.consts.items():
            body = self._gen(d.value, Env())
            fn = self._static_fn("R", d.value, body, f"<const {name}>", d.span) if body else None
            if fn is None:
                continue
            st = self.static
            st.work, st.calls, st.depth = self.budgets.work, 0, 0

            def build(R, fn=fn, name=name):
                self.ns[f"CONST_{name}"] = fn(R)
                return True
            if self._static("const", d.span, build) is None:
                self.ns[f"CONST_{name}"] = None

    def _static_fn(self, params: str, e, body: str, filename: str, span):
        """A relation's or a const's expression (its Python text ``body``) as a function
        of ``params``, computed before any game (a problem compiling it located at
        ``span``, the declaration's); walked too where ``walk_mode`` says so."""
        fn = self._eval(f"lambda {params}: {body}", filename, span)
        return fn if self.walk is None else self._walked(self.walk, params, e, frozenset(), fn)

    def relation_tables(self) -> dict:
        """The relations' tables, by relation name, as ``relations`` takes them back."""
        out = {}
        for name, r in self.checked.relations.items():
            if len(r.params) > 2:
                out[name] = (self.ns[f"REL_{name}"], self.ns[f"RELSET_{name}"])
            else:
                out[name] = self.ns[f"REL_{name}"]
        return out

    def _gen(self, e, env: Env) -> str | None:
        """An expression's Python text, or None (with a diagnostic) when it is too big."""
        try:
            return self.exprc.expr(e, env)
        except CodeTooBig as big:
            self.diags.append(self._budget_diag(big.span, "code", "calls of small functions expand to "
                                                "too much code here"))
        except RecursionError:
            self.diags.append(self._budget_diag(e.span, "nesting", "this expression is nested too deeply "
                                                "(counting the functions it calls)"))
        raise MeepleError(self.diags)

    def _count_code(self, src: str, span) -> bool:
        self._code_size += inplace.written_len(src)
        if self._code_size > self.budgets.code:
            self.diags.append(self._budget_diag(span, "code", f"the rules make more than "
                                                f"{self.budgets.code:,} characters of code"))
            raise MeepleError(self.diags)
        return True

    def _eval(self, src: str, filename: str, span):
        self._count_code(src, span)
        try:
            return self._run(src, filename, "eval")
        except (SyntaxError, RecursionError, MemoryError):
            self.diags.append(self._budget_diag(span, "nesting", "this expression is too complex to "
                                                "compile (nested too deeply)"))
            raise MeepleError(self.diags) from None

    def _fn(self, e, env: Env):
        """An expression as a Python function of (R, L)."""
        return self._lambda("R, L", e, env)

    def _player_fn(self, param: str, body):
        return self._lambda(f"R, v_{param}", body, Env({param}))

    def _outcome_fn(self, d, cond):
        """``lambda R, p, rank``: an outcome clause's condition (``rank`` is bound to the
        player's place when the declaration names it)."""
        names = [d.param] + ([d.rank] if d.rank else [])
        rank = f"v_{d.rank}" if d.rank else "_rank"
        return self._lambda(f"R, v_{d.param}, {rank}", cond, Env(set(names)))

    def _lambda(self, params: str, e, env: Env):
        """The expression as a Python function of ``params``: the straightforward code,
        or the fast code when there is one; where the fast code fails (a rule error, a
        budget), the straightforward code runs again from the same budgets, so an error is
        the same and located at the same place as without the fast code."""
        filename = f"<line {e.span.line}>"
        body = self._gen(e, env)
        src = f"lambda {params}: {body}"
        if self.walk is not None:
            return self._walked(self.walk, params, e, frozenset(env.locals), self._eval(src, filename, e.span))
        if not self._fast_ready:
            return self._eval(src, filename, e.span)
        self._count_code(src, e.span)
        try:
            lines, fast = self.fastc.lines(e, env, tops=True)  # statements (loops written out), a value
        except Exception:
            if codegen.STRICT:
                raise
            lines, fast = [], None
        if fast is None or (not lines and src == f"lambda {params}: {fast}"):  # calls no function
            fn = self._eval(src, filename, e.span)
            if params == "R, L":  # (fused statements may write its text in place: fused.py)
                self._texts[id(fn)] = (fn, body)
            return fn
        k = self._fast_count = self._fast_count + 1
        self.ns[f"SLOW_{k}"] = _later(src, filename, self._python_ns())
        code = (f"def FAST_{k}({params}):\n    w, k = R.work, R.calls\n"
                f"    try:\n{_indented(lines, 8)}        return {fast}\n    except Exception:\n"
                f"        R.work, R.calls = w, k\n    return SLOW_{k}({params})\n")
        if codegen.STRICT:  # tests: no second chance
            code = f"def FAST_{k}({params}):\n{_indented(lines, 4)}    return {fast}\n"
        try:
            self._run(code, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError):
            if codegen.STRICT:
                raise
            return self._eval(src, filename, e.span)
        return self.ns[f"FAST_{k}"]

    def _walked(self, walk: evaluate.Evaluator, params: str, e, local: frozenset, compiled):
        """The expression as a function of ``params`` evaluated by the core's tree walk
        (core/evaluate.py; ``local``: the procedure's local names), alone or beside its
        compiled code ``compiled`` (``walk_mode``, tests only)."""
        walked = walk.function(params, e, local)
        return walked if self.walk_mode == "tree" else walk.beside(compiled, walked)

    def _link(self) -> None:
        del self.exprc, self.fastc
        self._texts.clear()
        if self._native is not None:
            self._native.finish(self)

    def _run(self, src: str, filename: str, mode: str):
        """Runs a piece of generated code in the program's namespace: ``exec`` (function
        definitions) or ``eval`` (returns the lambda); natively, the native module serves it."""
        def python():
            if mode == "eval":
                return eval(_code(src, filename, "eval"), self.ns)  # noqa: S307 - generated from the checked IR
            exec(_code(src, filename, "exec"), self.ns)  # noqa: S102 - generated from the checked IR
        if self._native is None:
            return python()
        return self._native.run(self, inplace.unmarked(src), filename, mode, python)

    def _python_ns(self) -> dict:
        """The namespace of the Python code run where a fast code fails: natively, the
        Python program's (so that an error is raised and located as without it)."""
        ns = getattr(self._native, "fallback_ns", None)
        return self.ns if ns is None else ns

    native_build_seconds = 0.0   # natively: how long its module took to build (0.0: from the cache)
    kernel_build_seconds = 0.0   # with a kernel: how long it took to build (0.0: from the cache)
    _kernel: Any = None          # the kernel that plays its games (on a twin: Ruleset._kernel_program)
    # the Python frames one level of the depth budget may take: the room for them that
    # running the rules makes (play/runtime.py, run), so that the budget runs out first
    frames_per_depth = 4

    @property
    def native(self) -> bool:
        """Whether this program runs its rules on native code (``Ruleset.use_native``):
        played by a kernel, or with its rule code compiled by Cython."""
        return self.kernel or getattr(self._native, "module", None) is not None

    @property
    def native_fallbacks(self) -> int:
        """How many times the native code failed (a rule error, a budget) and Python
        ran instead: the expression's Python code, or (with a kernel) the moves the
        kernel could not decide; 0 for a Python program."""
        k = self._kernel
        return k.fallbacks if k is not None else getattr(self._native, "fallbacks", 0)

    @property
    def kernel_kept_reads(self) -> int:
        """With a kernel: how many values of rule functions it has read from what it
        keeps while a position stays the same, rather than computing them again
        (interpreter/native/kernel_memo.py), counted since its module was loaded (the
        programs of the same rules share it); 0 without one."""
        k = self._kernel
        return k.module.kept_reads() if k is not None else 0

    @property
    def kept_values(self) -> int:
        """How many values of rule functions the fast Python code keeps for all the
        program's games, by their arguments (functions that read nothing of the state
        but their arguments, and variables of one value: computed once, read again with
        the work, the calls and the depth they counted; compiler/compile_functions.py)."""
        return sum(len(t) for k, t in self.ns.items()
                   if k.startswith(("KEPT_", "KEPTV_", "KEPTD_")) and isinstance(t, dict))

    # ------------------------------------------------------------ procedures
    def _proc(self, name: str, params: list[str], body: ir.Block) -> None:
        self.procs[name] = compile_proc(self, name, params, body)

    def type_of(self, e) -> T:
        return self.checked.type_of(e)

    def sort_key(self, type_code: str):
        """The order of options of this type: enum values in declaration order,
        everything else by ``helpers.sort_key``."""
        key = self._sort_keys.get(type_code)
        if key is None:
            key = self._sort_keys[type_code] = self._make_sort_key(type_code)
        return key

    def _make_sort_key(self, type_code: str):
        inner = type_code
        depth = 0
        while inner.startswith("list:"):
            inner, depth = inner[5:], depth + 1
        if inner.startswith("tuple(") and "enum:" in inner:
            return self._tuple_sort_key(inner, depth)
        if not inner.startswith("enum:"):
            return helpers.sort_key
        order = {v: i for i, v in enumerate(self.checked.enums[inner[5:]])}

        def key(v, d=depth):
            if d == 0:
                return (order.get(v, -1),)
            return (len(v), tuple(key(x, d - 1) for x in v))
        return key

    def _tuple_sort_key(self, code: str, depth: int):
        """The order of tuples with enum parts: part by part, an enum's values in
        declaration order (none first), the other parts by ``helpers.sort_key``."""
        keys = [self.sort_key(t) for t in tuple_parts(code)]

        def key(v, d=depth):
            if d > 0:
                return (len(v), tuple(key(x, d - 1) for x in v))
            return (4, len(v), tuple(k(x) for k, x in zip(keys, v)))
        return key

    def init_item_vars(self, R) -> dict:
        """Every item variable's starting values (``None`` for items of other kinds)."""
        iv: dict[str, list] = {}
        for kind, name, fn in self.item_var_inits:
            table = iv.setdefault(name, [None] * len(self.items))
            value = fn(R, {})
            for it in self.items:
                if it.kind == kind:
                    table[it.id] = value
        return iv

    def new_game(self, players: int | None = None, seed: int = 0, hook=None, chance: str = "seeded"):
        """Starts a game: setup runs until the first player decision. ``hook(moment, R)``
        is called "after setup", "at turn end" and "at end" (for checking invariants).
        ``chance="explicit"`` stops at every chance step (see ``Game.apply_chance``).
        With a kernel (``kernel``), a game without a hook is played by it."""
        k = self._kernel
        if k is not None and hook is None and chance in ("seeded", "explicit") and players in (None, self.n) \
                and seed.__class__ is int:
            from ..native.kgame import KernelGame
            game = KernelGame.start(self, seed, chance)
            if game is not None:
                return game
        return Game.new(self, self.n if players is None else players, seed, hook, chance)

    @property
    def kernel(self) -> bool:
        """Whether a kernel plays this program's games (``Ruleset.use_native``): its rules
        in C++ over compact state, the Python program behind it (interpreter/native/kgame.py)."""
        return self._kernel is not None

    def resume(self, state: dict, check: bool = True):
        """A game from a saved plain-data state (checked first unless ``check`` is false);
        with a kernel, one that the kernel takes over at its next move."""
        game = Game.from_state(self, state, check)
        if self._kernel is not None:
            from ..native.kgame import KernelGame
            return KernelGame.adopt(game)
        return game


@functools.lru_cache(maxsize=4096)
def _code(src: str, filename: str, mode: str):
    """``compile()``, once per text: the programs of a ruleset for each player count
    (and a ruleset loaded again in the same process) share their code objects, which
    are immutable; each program runs them in its own namespace. The marks of the
    functions written in place are taken out, and kept for locating errors
    (play/inplace.py)."""
    return inplace.compile_marked(src, filename, mode)


def _later(src: str, filename: str, ns: dict):
    """The straightforward code of an expression, compiled when first needed (only
    after its fast code failed)."""
    fn = None

    def slow(*args):
        nonlocal fn
        if fn is None:
            fn = eval(_code(src, filename, "eval"), ns)  # noqa: S307 - generated from the checked IR
        return fn(*args)
    return slow


def _plain(e: Exception) -> str:
    if isinstance(e, NameError) and getattr(e, "name", "").startswith(("BOARD_", "Z_")):
        kind, _, name = e.name.partition("_")
        what = "board" if kind == "BOARD" else "zone"
        return f"the {what} '{name}' is not made yet: declare it before this one"
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, RuleError):
        return str(e)
    if isinstance(e, (TypeError, IndexError, KeyError)) and "None" in str(e):
        return "a value is missing (none)"
    return f"{type(e).__name__}: {e}"


class Ruleset:
    """A checked ruleset and its programs, one per number of players (compiled when
    first needed). ``interpreter.load`` returns one; ``new_game`` picks the program."""

    def __init__(self, checked: Checked, sources=None, warnings=(), budgets: budget.Budgets | None = None,
                 relations: dict[int, dict] | None = None):
        self.checked = c = checked
        evaluate.mode()   # a MEEPLE_EVALUATE that is no mode: an error now, not at a first game
        self._relations = relations or {}   # per player count: tables an earlier compile made
        self.budgets = budget.check(budgets)
        self.name, self.title = c.name, c.title
        self.min_players, self.max_players = c.players
        # the usual count (`players 3..6 default 4`), else the fewest: what the tools and
        # the adapters play when not told a number
        self.default_players = getattr(c, "default_players", None) or self.min_players
        self.direction = 1 if c.order == "clockwise" else -1
        self.variants, self.locale = list(c.variants), c.locale
        self.sources = sources
        self.warnings = list(warnings)
        self._programs: dict[int, Program] = {}
        self._native = False        # use_native(): programs run on native code
        self._native_report = self._native_progress = None
        self._kernel_only = False
        self._natives: dict[int, Program] = {}

    @property
    def hidden_information(self) -> bool:
        """True when games of this ruleset may hide something from a player."""
        return has_hidden_information(self.checked)

    def for_players(self, n: int) -> Program:
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} "
                             f"players, not {n}")
        prog = self._plain(n)
        if self._native:
            return self._natives.get(n) or self._native_program(n, prog)
        return prog

    def _plain(self, n: int) -> Program:
        """The Python program for ``n`` players (natively, one that records its pieces
        of code for the native program: it plays the same)."""
        prog = self._programs.get(n)
        if prog is None:
            from ..native import cython_code as native
            recorder = native.Pieces() if self._native else None
            prog = self._programs[n] = Program(self.checked, n, self.budgets, self._relations.get(n),
                                               native=recorder)
            prog.sources, prog.warnings = self.sources, self.warnings
        return prog

    @property
    def native(self) -> bool:
        """Whether native code was asked for (``use_native``); each program says whether
        it got it (``Program.native``)."""
        return self._native

    @property
    def kernel_only(self) -> bool:
        """Whether only a kernel was asked for (``use_native(kernel_only=True)``)."""
        return self._native and self._kernel_only

    def use_native(self, on: bool = True, report=None, kernel_only: bool = False,
                   progress=None) -> bool:
        """Runs the programs of this ruleset on native code: their generated rule code
        compiled with Cython and the C compiler (``pip install 'meeple[native]'``), once
        per player count when a game first needs it (seconds), then kept in the disk
        cache. Same games, same errors; where Cython, a compiler or the build is missing
        or fails, the pure-Python program serves and the reason is reported once:
        ``report(message)`` receives it, and a line before each build starts (by
        default: a ``NativeWarning``, no progress; ``report=False``: nothing). Returns
        whether native code can be built here (``on=False`` turns it off again).
        ``kernel_only``: a kernel or nothing (a program no kernel plays is the Python one).
        ``progress``: a callable that receives the line before each build instead of
        ``report`` (``False``: no such line)."""
        from ..native import cython_code as native, kernel
        for name, value in (("report", report), ("progress", progress)):
            if value not in (None, False) and not callable(value):
                raise TypeError(f"use_native: {name} must be a callable, None or False, "
                                f"not {value!r}")
        self._native, self._native_report, self._kernel_only = on, report, kernel_only
        self._native_progress = progress
        if not on:
            return False
        if kernel_only:
            return kernel.enabled() and kernel.status() is None
        why = native.status()
        if why is not None and (kernel.status() is not None or not kernel.enabled()):
            native.say_once(why, report)
            return False
        return True

    def _native_program(self, n: int, plain: Program) -> Program:
        """The program for ``n`` players on native code: played by its kernel where one
        can be made (interpreter/native/kernel.py), else with its rule code compiled by Cython,
        else ``plain`` (each reason reported once)."""
        from ..native import cython_code as native
        prog = self._kernel_program(plain)
        if prog is None and self._kernel_only:
            prog = plain
        elif prog is None:
            why = native.status()
            if why is None:
                prog = self._cython_program(n, plain)
            else:
                native.say_once(why, self._native_report)
                prog = plain
        self._natives[n] = prog
        return prog

    def _kernel_program(self, plain: Program) -> Program | None:
        """A twin of ``plain`` whose games a kernel plays (the same tables and code,
        which play whatever the kernel does not decide), or None, said once why."""
        from ..native import cython_code as native, kernel
        report, progress = self._native_report, self._build_line()
        if not kernel.enabled():
            return None
        why = kernel.status()
        if why is not None:
            native.say(f"no kernel for {plain.name}: {why}", report)
            return None
        try:
            k = kernel.build(plain, (lambda: progress(f"building the kernel of {plain.name} ({plain.n} players)…"))
                             if progress else None)
        except kernel.Unsupported as e:
            native.say(f"no kernel for {plain.name}: the kernel does not cover {e} yet", report)
            return None
        except kernel.KernelError as e:
            native.say(f"no kernel for {plain.name}: {e}", report)
            return None
        except Exception as e:  # noqa: BLE001 - the Python program serves
            native.say(f"no kernel for {plain.name}: Meeple failed to write it ({type(e).__name__}: {e}; "
                       "a bug in Meeple, please report it with the ruleset)", report)
            return None
        twin = copy.copy(plain)
        twin._kernel = k
        twin.kernel_build_seconds = k.build_seconds
        return twin

    def _build_line(self):
        """Who receives the line said before a build (``use_native``'s ``progress``, else
        its ``report``), or None."""
        said = self._native_report if self._native_progress is None else self._native_progress
        return said if callable(said) else None

    def _cython_program(self, n: int, plain: Program) -> Program:
        """The program for ``n`` players with its rule code compiled by Cython, or
        ``plain`` where it cannot be made (the reason reported once)."""
        from ..native import cython_code as native
        report, tables = self._native_report, plain.relation_tables()
        try:
            recorded = plain if isinstance(plain._native, native.Pieces) else \
                Program(self.checked, n, self.budgets, tables, native=native.Pieces())
            prog = native.program(recorded, lambda served: Program(self.checked, n, self.budgets,
                                                                   tables, native=served),
                                  self._build_line())
            prog.sources, prog.warnings = self.sources, self.warnings
        except native.NativeError as e:
            native.say_once(str(e), report)
            prog = plain
        except Exception as e:  # noqa: BLE001 - the Python program serves
            native.say_once(f"Meeple failed to compile it natively ({type(e).__name__}: {e})", report)
            prog = plain
        return prog

    def relation_tables(self) -> dict[int, dict]:
        """The relation tables of every program compiled so far, by player count (what
        ``relations`` takes back: the disk cache keeps them)."""
        return {n: prog.relation_tables() for n, prog in self._programs.items()}

    def new_game(self, players: int, seed: int = 0, hook=None, chance: str = "seeded"):
        """Starts a game for ``players`` players: setup runs until the first decision
        (or, with ``chance="explicit"``, the first chance step)."""
        return self.for_players(players).new_game(players, seed, hook, chance)

    def resume(self, state: dict, check: bool = True):
        """A game from a saved plain-data state, checked first (StateError if bad).
        ``check=False`` skips the schema and meaning checks: only for a state this
        program itself just produced (they cost about 10 ms for a large state)."""
        from ..play.state import StateError
        n = state.get("players") if isinstance(state, dict) else None
        if type(n) is not int or not self.min_players <= n <= self.max_players:
            raise StateError(f"invalid state at players: {self.title} is for "
                             f"{self.min_players} to {self.max_players} players")
        return self.for_players(n).resume(state, check)

    def __getattr__(self, name):
        # tables that do not depend on the player count (items, zones...) are read from
        # the smallest game's program; rulesets whose tables do should use for_players(n)
        if name.startswith("_"):
            raise AttributeError(name)
        # (the Python program: reading a table never builds native code)
        return getattr(self._plain(self.min_players), name)
