"""The checked IR of a procedure lowered into the core's instructions (``core.ops``), once,
for every engine: the layout saved states rely on (the index of each instruction, the
hidden slots ``$itN``/``$iN`` of a loop begun at N, ``$nN`` of a ``while``, ``$rN`` of a
call for a result stored elsewhere, ``$ret``), so it must not change: a state saved
yesterday resumes today.

Each statement lowers to the instructions at the indices below (k: its first):

- ``if c1 {B1} elif c2 {B2} else {E}``: Branch(c1), B1, Jump(end), Branch(c2), B2,
  Jump(end), E — each Branch going to the next test when false; the tests and jumps of
  one ``if`` all have its span (an ``elif`` is told from an ``if`` alone in an ``else``
  by it, core/blocks.py);
- ``for x in xs {B}``: ForInit, ForStep (at k+1), B, Jump(k+1);
- ``while c max N {B}``: WhileInit, WhileTest (at k+1), B, Jump(k+1);
- ``v = call p(...)`` where ``v`` is not a local: Call, StoreResult;
- every other statement: one instruction.

Where a decision, a call or a draw stops a frame, and what the frame holds there, is
derived from the instructions (``shape``), and so is the structure of the statements
(core/blocks.py), not recorded here.
"""
from __future__ import annotations

import dataclasses
import itertools

from ...dsl import ast as ir
from ...dsl.types import type_code
from ..play import frames, helpers
from . import ops

BINDERS = ("Let", "For", "Choose", "ChooseSubset", "Best", "PickRandom")


@dataclasses.dataclass
class Lowered:
    """A procedure's instructions (``code``) and the names of its locals. Nothing of its
    statements is kept: the passes over the core read the instructions alone (where a
    frame stops: ``shape``; the structure of statements: core/blocks.py)."""
    name: str
    code: list
    locals: set


def local_names(params: list[str], body: ir.Block) -> set[str]:
    """The names that are the procedure's locals (its frame's, not globals)."""
    nodes = list(ir.walk(body))
    return set(params) | {n.var for n in nodes if n.node in BINDERS or (n.node == "CallResult" and n.new)} \
        | {n.each for n in nodes if n.node == "ChooseEach"} \
        | {n.said for n in nodes if n.node == "Choose" and n.said is not None} \
        | {p for n in nodes if n.node == "Choose" and n.parts for p in n.parts if p != "_"} \
        | {v for n in nodes if n.node == "Roll" for v in n.vars}


def lower(prog, name: str, params: list[str], body: ir.Block) -> Lowered:
    """The instructions of one procedure (``prog``: the Program, for the checker's types
    and scopes, the zones and boards, the budgets)."""
    low = _Lowerer(prog, Lowered(name, [], local_names(params, body)))
    low.block(body)
    end = len(low.out.code)
    low.out.code = [dataclasses.replace(i, end=end) if isinstance(i, ops.Return) else i for i in low.out.code]
    return low.out


def shape(prog, low: Lowered) -> frames.Shape:
    """Where a frame of the procedure can stop, and what it holds there (frames.py),
    derived from its instructions: just after one that asks ("decide"), just after a call
    ("call"), at a draw ("chance"); the locals in the checker's scope at its statement,
    and the hidden slots live there (those of the loops around it, a call's fresh slot)."""
    c = prog.checked
    sh = frames.Shape(low.name, {n: tuple(type_code(t) for t in ts)
                                 for n, ts in c.locals.get(low.name, {}).items()})
    loops: list[tuple] = []  # (head, end, slots): the body of a loop is head+1 .. end-2
    for pc, i in enumerate(low.code):
        if isinstance(i, ops.ForInit):
            sh.slot(i.it, "items", i.var)
            sh.slot(i.ix, "index", i.it)
            loops.append((pc + 1, low.code[pc + 1].end, (i.it, i.ix)))
        elif isinstance(i, ops.WhileInit):
            sh.slot(i.count, "count", i.limit)
            loops.append((pc + 1, low.code[pc + 1].end, (i.count,)))
    for pc, i in enumerate(low.code):
        live = [(n, None, None) for head, end, slots in loops if head < pc < end - 1 for n in slots]
        if i.chancy:
            sh.stop(pc, "chance", i.scope, live)
        if isinstance(i, ops.Call):
            if i.fresh and i.slot is not None:
                live.append(sh.slot(i.slot, "result"))
            sh.stop(pc + 1, "call", i.scope, live, callee=i.proc, slot=i.slot)
        if i.asks:
            sh.stop(pc + 1, "decide", i.scope, live, var=i.var, said=getattr(i, "said", None))
    return sh


def kind_unsure(c, s) -> bool:
    """Whether a move takes an item of a kind the checker does not know to a place of a
    kind it does not know either (from ``zone`` parameters, as rulesets wrote before
    ``zone of Kind``): its kinds are compared when it is played (``same_kind``)."""
    what, to = c.type_of(s.what), c.type_of(s.to)
    item = what.arg if what.tag == "list" else what
    return (item.tag == "item" and item.arg == "?") or (to.tag == "zone" and to.arg == "?")


class _Lowerer:
    def __init__(self, prog, out: Lowered):
        self.p, self.c, self.out = prog, prog.checked, out
        self.scope: tuple = ()

    def here(self) -> int:
        return len(self.out.code)

    def emit(self, cls, s, **fields) -> int:
        self.out.code.append(cls(span=s.span, scope=self.scope, **fields))
        return self.here() - 1

    def patch(self, at: int, **fields) -> None:
        self.out.code[at] = dataclasses.replace(self.out.code[at], **fields)

    def bound(self, e) -> int | None:
        """The integer budget a value stored must stay within (None: not an integer)."""
        return self.p.budgets.integer if self.p.type_of(e).tag == "int" else None

    def tc(self, e) -> str:
        """The type code of the elements of a list expression."""
        return type_code(self.p.type_of(e).arg)

    def block(self, b: ir.Block) -> None:
        outer = self.scope
        for s in b.stmts:
            self.scope = self.c.scopes.get(s, ())
            getattr(self, "_" + s.node)(s)
        self.scope = outer

    # ------------------------------------------------------------ control flow
    def _If(self, s: ir.If):
        ends = []
        for cond, body in s.branches:
            test = self.emit(ops.Branch, s, cond=cond, target=-1)
            self.block(body)
            ends.append(self.emit(ops.Jump, s, target=-1))
            self.patch(test, target=self.here())
        if s.other:
            self.block(s.other)
        for e in ends:
            self.patch(e, target=self.here())

    def _For(self, s: ir.For):
        k = self.here()
        it, ix = f"$it{k}", f"$i{k}"
        self.emit(ops.ForInit, s, it=it, ix=ix, var=s.var, items=s.iter)
        head = self.emit(ops.ForStep, s, it=it, ix=ix, var=s.var, end=-1)
        self.block(s.body)
        self.emit(ops.Jump, s, target=head)
        self.patch(head, end=self.here())

    def _While(self, s: ir.While):
        cnt = f"$n{self.here()}"
        self.emit(ops.WhileInit, s, count=cnt, limit=s.limit)
        head = self.emit(ops.WhileTest, s, count=cnt, cond=s.cond, limit=s.limit,
                         where=f"{s.span.file}:{s.span.line}", end=-1)
        self.block(s.body)
        self.emit(ops.Jump, s, target=head)
        self.patch(head, end=self.here())

    def _Return(self, s: ir.Return):
        bound = self.bound(s.value) if s.value is not None else None
        self.emit(ops.Return, s, value=s.value, bound=bound, end=-1)

    def _EndGame(self, s: ir.EndGame):
        self.emit(ops.EndGame, s)

    # ------------------------------------------------------------ variables
    def _Let(self, s: ir.Let):
        self.emit(ops.SetLocal, s, var=s.var, value=s.value, bound=self.bound(s.value))

    def _Assign(self, s: ir.Assign):
        bound = self.bound(s.value)
        if s.player is not None:
            self.emit(ops.SetPlayerVar, s, var=s.var, player=s.player, value=s.value, bound=bound)
        elif s.var in self.out.locals:
            self.emit(ops.SetLocal, s, var=s.var, value=s.value, bound=bound)
        elif s.var == "active" and not self.c.declares(s.var):   # (a variable may hide it)
            self.emit(ops.SetActive, s, value=s.value)
        else:
            self.emit(ops.SetGlobal, s, var=s.var, value=s.value, bound=bound)

    def _AttrAssign(self, s: ir.AttrAssign):
        holder = s.obj if s.obj is not None else ir.Var.model_construct(span=s.span, name=s.var)
        where = (s.var or "...", s.attr, s.var or "the item", s.var or "ITEM")
        self.emit(ops.SetItemVar, s, var=s.var if s.obj is None else "", attr=s.attr, holder=holder, value=s.value,
                  bound=self.bound(s.value), where=where)

    def _IndexAssign(self, s: ir.IndexAssign):
        # `xs[i] = e` runs as the checker wrote it: `xs = replace_at(xs, i, e)`
        built = self.c.assigns.get(s)
        getattr(self, "_" + built.node)(built)

    # ------------------------------------------------------------ decisions
    def _Choose(self, s: ir.Choose):
        tc = self.tc(s.options)
        plain = not tc.startswith("list:") and self.p.sort_key(tc) is helpers.sort_key
        # a board's cells walked in order are in their plain order already
        in_order = plain and tc == "cell" and self._cells_in_order(s.options)
        order = "cells" if in_order else "plain" if plain else "any"
        self.emit(ops.Ask, s, var=s.var, options=s.options, chooser=s.chooser, type=tc,
                  verb=s.verb, alone=(s.alone, *s.more) if s.more else s.alone, order=order,
                  said=s.said, when=tuple(s.when))
        for let in self.c.unpacks.get(s, ()):   # choose (a, b): each part a local
            self.scope = self.c.scopes.get(let, ())
            self._Let(let)

    def _cells_in_order(self, e, depth: int = 0) -> bool:
        """Whether a list of options is some of a board's cells, each once, in increasing
        order (their plain order): ``[x for x in cells(board) if ...]``, the board's cells
        in increasing order, where ``cells(board)`` may also be a call of a rule function
        whose body is such a list (a part of a list in order is in order)."""
        if e.node == "Call" and e.func in self.c.functions:
            return depth < 8 and self._cells_in_order(self.c.functions[e.func].body, depth + 1)
        if e.node == "Call" and e.func == "cells" and len(e.args) == 1 and self.c.calls_builtin("cells"):
            board = self.p.ns.get(f"BOARD_{self.p.type_of(e.args[0]).arg}")
            return isinstance(board, list) and all(a < b for a, b in itertools.pairwise(board))
        if e.node != "Comprehension" or len(e.clauses) != 1 or e.elem.node != "Var":
            return False
        clause = e.clauses[0]
        return e.elem.name == clause.var and depth < 8 and self._cells_in_order(clause.iter, depth + 1)

    def _ChooseEach(self, s: ir.ChooseEach):
        self.emit(ops.AskEach, s, var=s.var, each=s.each, options=s.options, seats=s.seats,
                  type=self.tc(s.options), verb=s.verb, picks=s.picks)

    def _ChooseSubset(self, s: ir.ChooseSubset):
        self.emit(ops.AskSubset, s, var=s.var, options=s.options, where=s.where, chooser=s.chooser,
                  type="list:" + self.tc(s.options), verb=s.verb)

    def _Best(self, s: ir.Best):
        self.emit(ops.Best, s, var=s.var, options=s.options, keys=tuple(s.keys), tie=s.tie,
                  chooser=s.chooser, type=self.tc(s.options))

    def _PickRandom(self, s: ir.PickRandom):
        self.emit(ops.PickRandom, s, var=s.var, options=s.options, type=self.tc(s.options))

    def _Roll(self, s: ir.Roll):
        self.emit(ops.Roll, s, vars=tuple(s.vars), faces=s.faces)

    # ------------------------------------------------------------ effects
    @staticmethod
    def face(s) -> str:
        if s.facing != "down":
            return ops.AS_PLACE
        return ops.NOBODY if s.seen_by is None else ops.SEAT

    def _Move(self, s: ir.Move):
        self.emit(ops.Move, s, what=s.what, to=s.to, many=self.p.type_of(s.what).tag == "list",
                  face=self.face(s), seen_by=s.seen_by, unsure=kind_unsure(self.c, s))

    def _Flip(self, s: ir.Flip):
        self.emit(ops.Flip, s, what=s.what, many=self.p.type_of(s.what).tag == "list",
                  face=self.face(s), seen_by=s.seen_by)

    def _Shuffle(self, s: ir.Shuffle):
        self.emit(ops.Shuffle, s, zone=s.zone)

    def _Reveal(self, s: ir.Reveal):
        self.emit(ops.Reveal, s, zone=s.zone)

    def _RevealTo(self, s: ir.RevealTo):
        self.emit(ops.RevealTo, s, what=s.what, many=self.p.type_of(s.what).tag == "list", seat=s.to)

    def _Deal(self, s: ir.Deal):
        self.emit(ops.Deal, s, source=s.source, base=self.p.zone_index[s.to], count=s.count)

    def _Fill(self, s: ir.Fill):
        self.emit(ops.Fill, s, source=s.source, board=s.board, cells=tuple(self.p.boards[s.board]))

    def _Make(self, s: ir.Make):
        given = {v.var: v.value for v in s.values}
        sets = tuple((name, given.get(name, f.init), self.bound(given.get(name, f.init)))
                     for name, f in self.c.item_vars.get(s.kind, {}).items())
        self.emit(ops.Make, s, kind=s.kind, supply=self.p.zone_index[self.c.supplies[s.kind]], to=s.to,
                  face=self.face(s), seen_by=s.seen_by, sets=sets)

    def _RemoveItem(self, s: ir.RemoveItem):
        t = self.p.type_of(s.what)
        kind = t.arg.arg if t.tag == "list" else t.arg
        self.emit(ops.Unmake, s, what=s.what, many=t.tag == "list", supply=self.p.zone_index[self.c.supplies[kind]])

    def _Permute(self, s: ir.Permute):
        self.emit(ops.Permute, s, what=s.what, to=s.to)

    def _Log(self, s: ir.Log):
        parts = tuple(p if isinstance(p, str) else (p[0], p[1], type_code(self.p.type_of(p[1])))
                      for p in self.c.templates.get(s, [s.template]))
        self.emit(ops.Log, s, key=s.key, parts=parts)

    def params(self, proc: str) -> tuple:
        return tuple(p.name for p in self.c.procedures[proc].params)

    def _CallProc(self, s: ir.CallProc):
        self.emit(ops.Call, s, proc=s.proc, args=tuple(s.args), params=self.params(s.proc),
                  slot=None, fresh=False)

    def _CallResult(self, s: ir.CallResult):
        """``let v = call p(...)``: the callee returns into the local ``v``; any other
        target gets the value from a hidden local (``$rN``) once the callee is done."""
        direct = s.player is None and (s.new or s.var in self.out.locals)
        slot = s.var if direct else f"$r{self.here()}"
        self.emit(ops.Call, s, proc=s.proc, args=tuple(s.args), params=self.params(s.proc),
                  slot=slot, fresh=not direct, new=s.new)
        if not direct:
            active = s.player is None and s.var == "active" and not self.c.declares(s.var)
            self.emit(ops.StoreResult, s, slot=slot, var=s.var, player=s.player, active=active)
