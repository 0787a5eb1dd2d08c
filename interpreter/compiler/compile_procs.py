"""Procedures -> instructions (the reference meaning of each statement form): each
procedure of a ruleset as a flat list of instructions ``fn(R, L) -> next pc``, so a
game can stop at any player decision and resume from plain data (the procedure's
name, an instruction index and its locals). ``compile.Program`` makes one
``ProcCompiler`` per procedure (``compile_proc``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...dsl import ast as ir
from ..play import helpers
from ..play.helpers import RuleError
from ..play.runtime import Runtime
from . import frames, fused
from .codegen import Env, kind_unsure, type_code

if TYPE_CHECKING:
    from .compile import Program


@dataclass
class Proc:
    name: str
    code: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # span of each instruction
    fused: bool = False  # some instructions run runs of statements at once (see fused.py)
    frame: frames.Shape | None = None  # what a saved frame of it holds (see frames.py)


@dataclass
class LogTemplate:
    key: str
    parts: list       # str or (python fn, type code, expression text)
    span: ir.Span

    @property
    def types(self) -> list[str]:
        return [p[1] for p in self.parts if isinstance(p, tuple)]


def same_kind(prog, items: list, dest: int) -> None:
    """Raises the rule error of a move of an item to a place that holds another kind."""
    holds = prog.zones[dest].kind
    for it in items:
        if it is not None and prog.items[it].kind != holds:
            raise RuleError(f"'move' of a {prog.items[it].kind} to {prog.zones[dest].key}, which holds "
                            f"{holds}", hint="the 'zone' parameters of the rule were given places of "
                                             "different kinds: write their types as 'zone of Kind'")


_UNSET = object()


def _values(fns: list, R, L) -> list:
    """``[f(R, L) for f in fns]``, in a loop: an instruction with that comprehension
    would build the cells of its closure (R and L) at every run."""
    out = []
    for f in fns:
        out.append(f(R, L))
    return out


def _nothing_to_choose(var: str):
    """The error of a 'choose' (without an option alone) whose list is empty."""
    raise RuleError(f"'choose {var}' has nothing to choose from",
                    hint="offer the choice only when there is something to choose: "
                         "'if size(options) > 0 { choose ... }', or add a move "
                         "without an object: 'as \"play\" or \"pass\"'")


def _chancy(ins):
    """A random statement: in explicit chance mode it may stop at a chance step and run
    again from its start with the outcomes set so far (so it changes nothing before its
    last draw); when it completes, those outcomes are spent."""
    def run(R, L):
        if R.chance is None:
            return ins(R, L)
        R.chance_begin()
        nxt = ins(R, L)
        R.chance_end()
        return nxt
    run.chancy = True
    return run


_BINDERS = ("Let", "For", "Choose", "ChooseSubset", "Best", "PickRandom")


def compile_proc(prog: Program, name: str, params: list[str], body: ir.Block) -> Proc:
    """The instructions of one procedure (setup, the turn and at end are procedures
    without parameters), fused where the program runs the fast code (see fused.py)."""
    local_names = set(params) | {n.var for n in ir.walk(body) if n.node in _BINDERS
                                 or (n.node == "CallResult" and n.new)} \
        | {n.each for n in ir.walk(body) if n.node == "ChooseEach"} \
        | {v for n in ir.walk(body) if n.node == "Roll" for v in n.vars}
    pc = ProcCompiler(prog, Proc(name), Env(locals_=local_names))
    pc.block(body)
    pc.end[0] = pc.here()  # where 'return' goes
    if prog.optimize:
        fused.fuse(prog, pc, body)
    pc.proc.params = params
    return pc.proc


class ProcCompiler:
    """Statements -> instructions. An instruction is ``fn(R, L) -> next pc``."""

    def __init__(self, prog: Program, proc: Proc, env: Env):
        self.p, self.proc, self.env = prog, proc, env
        self.end = [None]  # the end of the procedure, known when it is compiled
        # per statement (by id): where its instructions start, and what fused.py needs
        # to write it as Python (its functions, the places of its jumps)
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}
        self.meta: dict[int, tuple] = {}
        # where a frame of it can stop, and what it holds there (frames.py): the locals in
        # the checker's scope at the statement compiled now, the hidden slots live there
        c = prog.checked
        self.frame = proc.frame = frames.Shape(proc.name, {
            name: tuple(type_code(t) for t in ts) for name, ts in c.locals.get(proc.name, {}).items()})
        self.scope: tuple = ()
        self.live: list[tuple] = []

    def fn(self, e):
        return self.p._fn(e, self.env)

    def value_fn(self, e):
        """A value to store: an integer is checked against the integer budget here, so a
        number that doubles every move (``x = x + x``) stops instead of growing for ever."""
        f = self.p._fn(e, self.env)
        if self.p.type_of(e).tag != "int":
            return f
        limit = self.p.budgets.integer

        def checked(R, L):
            v = f(R, L)
            if v.__class__ is int and not -limit <= v <= limit:
                raise helpers._too_big(v, limit)
            return v
        checked.raw, checked.limit = f, limit  # (fused.py writes the check in place)
        return checked

    def here(self) -> int:
        return len(self.proc.code)

    def emit(self, ins, span) -> int:
        if getattr(ins, "chancy", False):  # (it stops there until its outcome is set)
            self.frame.stop(self.here(), "chance", self.scope, self.live)
        self.proc.code.append(ins)
        self.proc.lines.append(span)
        return len(self.proc.code) - 1

    def block(self, b: ir.Block) -> None:
        outer, c = self.scope, self.p.checked
        for s in b.stmts:
            self.starts[id(s)] = self.here()
            self.scope = scope = c.scopes.get(s, ())
            getattr(self, "_" + s.node)(s)
            self.ends[id(s)] = self.here()
            if c.asking.get(s):  # a frame waits for the decision just after it
                self.frame.stop(self.here(), "decide", scope, self.live, var=s.var)
        self.scope = outer

    def loop_body(self, b: ir.Block, *slots: tuple) -> None:
        """Compiles a loop's body with its hidden slots ``(name, form, argument)`` live."""
        made = [self.frame.slot(*x) for x in slots]
        self.live.extend(made)
        self.block(b)
        del self.live[-len(made):]

    def _jump(self, span, cond=None):
        """Emits a jump (if ``cond`` is false, when given); returns a setter for its target."""
        target = [None]
        if cond is None:
            self.emit(lambda R, L: target[0], span)
        else:
            nxt = self.here() + 1
            self.emit(lambda R, L: nxt if cond(R, L) else target[0], span)
        return lambda: target.__setitem__(0, self.here())

    # ------------------------------------------------------------ control flow
    def _If(self, s: ir.If):
        ends, conds = [], []
        for cond, body in s.branches:
            conds.append(self.fn(cond))
            to_next = self._jump(s.span, conds[-1])
            self.block(body)
            ends.append(self._jump(s.span))
            to_next()
        if s.other:
            self.block(s.other)
        for e in ends:
            e()
        self.meta[id(s)] = ("if", conds)

    def _For(self, s: ir.For):
        it, ix, var, src = f"$it{self.here()}", f"$i{self.here()}", s.var, self.fn(s.iter)
        nxt = self.here() + 1

        def init(R, L):
            L[it] = list(src(R, L))
            L[ix] = 0
            return nxt
        self.emit(init, s.span)
        head = self.here()
        end = [None]

        def step(R, L):
            i = L[ix]
            if i >= len(L[it]):
                return end[0]
            L[var] = L[it][i]
            L[ix] = i + 1
            return head + 1
        self.emit(step, s.span)
        self.loop_body(s.body, (it, "items", var), (ix, "index", it))
        self.emit(lambda R, L: head, s.span)
        end[0] = self.here()
        self.meta[id(s)] = ("for", it, ix, var, src)

    def _While(self, s: ir.While):
        cnt, cond, limit = f"$n{self.here()}", self.fn(s.cond), s.limit
        where = f"{s.span.file}:{s.span.line}"
        nxt = self.here() + 1

        def init(R, L):
            L[cnt] = 0
            return nxt
        self.emit(init, s.span)
        head = self.here()
        end = [None]

        def test(R, L):
            if not cond(R, L):
                return end[0]
            L[cnt] += 1
            if L[cnt] > limit:
                fused.loop_over(where, limit)
            return head + 1
        self.emit(test, s.span)
        self.loop_body(s.body, (cnt, "count", limit))
        self.emit(lambda R, L: head, s.span)
        end[0] = self.here()
        self.meta[id(s)] = ("while", cnt, cond, limit, where)

    # ------------------------------------------------------------ variables
    def _Let(self, s: ir.Let):
        f, var, nxt = self.value_fn(s.value), s.var, self.here() + 1

        def ins(R, L):
            L[var] = f(R, L)
            return nxt
        self.emit(ins, s.span)
        self.meta[id(s)] = ("local", var, f)

    def _Assign(self, s: ir.Assign):
        f, var, nxt = self.value_fn(s.value), s.var, self.here() + 1
        if s.player is not None:
            pf = self.fn(s.player)

            def ins(R, L):
                v = f(R, L)  # (the value first, as Python's 'a[i] = v' did)
                R.set_pvar(var, pf(R, L), v)
                return nxt
            self.meta[id(s)] = ("pv", var, f, pf)
        elif var in self.env.locals:
            def ins(R, L):
                L[var] = f(R, L)
                return nxt
            self.meta[id(s)] = ("local", var, f)
        elif var == "active" and not self.p.checked.declares(var):   # (a variable may hide it)
            def ins(R, L):
                R.set_active(f(R, L))
                return nxt
        else:
            def ins(R, L):
                R.set_var(var, f(R, L))
                return nxt
            self.meta[id(s)] = ("global", var, f)
        self.emit(ins, s.span)

    # ------------------------------------------------------------ decisions
    def _chooser(self, e):
        return self.fn(e) if e is not None else (lambda R, L: R.active)

    def _Choose(self, s: ir.Choose):
        opts, who, var, nxt = self.fn(s.options), self._chooser(s.chooser), s.var, self.here() + 1
        tc = type_code(self.p.type_of(s.options).arg)
        verb, alone = s.verb, s.alone
        plain = not tc.startswith("list:") and self.p.sort_key(tc) is helpers.sort_key
        # a board's cells walked in order are in their plain order already
        in_order = plain and tc == "cell" and self._cells_in_order(s.options)
        if alone is not None and in_order:
            def ins(R, L):
                Runtime.ask_in_order(R, who(R, L), var, list(opts(R, L)), tc, verb, alone)
                return nxt
            self.emit(ins, s.span)
            return
        if alone is None and plain:
            # options ordered as plain numbers are (most often) asked for in fewer steps
            ask = Runtime.ask_in_order if in_order else Runtime.ask_plain

            def ins(R, L):
                options = list(opts(R, L))
                if not options:
                    _nothing_to_choose(var)
                ask(R, who(R, L), var, options, tc, verb)
                return nxt
            self.emit(ins, s.span)
            return

        def ins(R, L):
            options = list(opts(R, L))
            if not options and alone is None:
                _nothing_to_choose(var)
            R.ask(who(R, L), var, options, tc, verb, alone)
            return nxt
        self.emit(ins, s.span)

    def _cells_in_order(self, e, depth: int = 0) -> bool:
        """Whether a list of options is some of a board's cells, each once, in increasing
        order (their plain order): ``[x for x in cells(board) if ...]``, the board's cells
        in increasing order, where ``cells(board)`` may also be a call of a rule function
        whose body is such a list (a part of a list in order is in order)."""
        if e.node == "Call" and e.func in self.p.checked.functions:
            return depth < 8 and self._cells_in_order(self.p.checked.functions[e.func].body, depth + 1)
        if e.node == "Call" and e.func == "cells" and len(e.args) == 1 and self.p.checked.calls_builtin("cells"):
            board = self.p.ns.get(f"BOARD_{self.p.type_of(e.args[0]).arg}")
            return isinstance(board, list) and all(a < b for a, b in itertools.pairwise(board))
        if e.node != "Comprehension" or len(e.clauses) != 1 or e.elem.node != "Var":
            return False
        clause = e.clauses[0]
        return e.elem.name == clause.var and depth < 8 and self._cells_in_order(clause.iter, depth + 1)

    def _ChooseEach(self, s: ir.ChooseEach):
        opts, seats_of, nxt = self.fn(s.options), self.fn(s.seats), self.here() + 1
        var, each, verb = s.var, s.each, s.verb
        tc = type_code(self.p.type_of(s.options).arg)
        said = f"choose {var}({each}) ... for each {each} in ..."

        def ins(R, L):
            seats = list(seats_of(R, L))
            if not seats:
                raise RuleError(f"'{said}' has no seat to ask",
                                hint="ask only when some seat chooses: 'if size(seats) > 0 { ... }'")
            before = L.get(each, _UNSET)
            choices = []
            for seat in seats:
                if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < R.n_players:
                    raise RuleError(f"'{said}': {seat!r} is not a seat")
                if any(seat == other for other, _ in choices):
                    raise RuleError(f"'{said}': seat {seat + 1} is listed twice",
                                    hint="each seat chooses once: list it once")
                L[each] = seat
                options = list(opts(R, L))
                if not options:
                    raise RuleError(f"'{said}': seat {seat + 1} has nothing to choose from",
                                    hint="ask only the seats that have something to choose")
                choices.append((seat, options))
            if before is _UNSET:
                del L[each]
            else:
                L[each] = before
            R.ask_each(var, choices, tc, verb)
            return nxt
        self.emit(ins, s.span)

    def _ChooseSubset(self, s: ir.ChooseSubset):
        opts, who, var, nxt = self.fn(s.options), self._chooser(s.chooser), s.var, self.here() + 1
        where = self.fn(s.where) if s.where is not None else None
        tc = "list:" + type_code(self.p.type_of(s.options).arg)
        verb = s.verb

        def ins(R, L):
            subsets = helpers._subsets(list(opts(R, L)))
            if where is not None:
                ok = []
                for sub in subsets:
                    L[var] = sub
                    if where(R, L):
                        ok.append(sub)
                subsets = ok
            if not subsets:
                raise RuleError(f"'choose {var} subset' has no subset that satisfies its condition",
                                hint="check first that some subset satisfies the 'where' condition")
            R.ask(who(R, L), var, subsets, tc, verb)
            return nxt
        self.emit(ins, s.span)

    def _Best(self, s: ir.Best):
        opts, keys, var, nxt = self.fn(s.options), [self.fn(k) for k in s.keys], s.var, self.here() + 1
        who, tie = self._chooser(s.chooser), s.tie
        tc = type_code(self.p.type_of(s.options).arg)
        count = len(keys)  # (the usual one or two keys: in place)
        key1, key2 = (keys + [None, None])[:2]

        def ins(R, L):
            options = list(opts(R, L))
            if not options:
                raise RuleError(f"'best {var}' has an empty list to choose from",
                                hint="check that the list is not empty first: 'if size(xs) > 0 { ... }'")
            best_key, tied = None, []
            for o in options:
                L[var] = o
                # (tuple([f(R, L) for f in keys]), without a comprehension: its closure
                # would make this function build cells at every call)
                if count == 2:
                    k = (key1(R, L), key2(R, L))
                elif count == 1:
                    k = (key1(R, L),)
                else:
                    k = []
                    for f in keys:
                        k.append(f(R, L))
                    k = tuple(k)
                if best_key is None or k > best_key:
                    best_key, tied = k, [o]
                elif k == best_key:
                    tied.append(o)
            if len(tied) == 1 or tie == "first":
                L[var] = tied[0]
            elif tie == "random":
                L[var] = tied[R.below(len(tied), "tie", tied, tc)]
            else:
                R.ask(who(R, L), var, tied, tc, "tie")
            return nxt
        self.emit(_chancy(ins) if tie == "random" else ins, s.span)

    def _AttrAssign(self, s: ir.AttrAssign):
        holder = self.fn(s.obj if s.obj is not None else ir.Var.model_construct(span=s.span, name=s.var))
        value, attr, nxt = self.value_fn(s.value), s.attr, self.here() + 1
        name = s.var or "the item"

        where = (s.var or "...", attr, name, s.var or "ITEM")

        def ins(R, L):
            item = holder(R, L)
            if item is None:
                fused.attr_of_nothing(*where)
            R.set_ivar(attr, item, value(R, L))
            return nxt
        self.meta[id(s)] = ("attr", holder, attr, value, where)
        self.emit(ins, s.span)

    def _PickRandom(self, s: ir.PickRandom):
        opts, var, nxt = self.fn(s.options), s.var, self.here() + 1
        tc = type_code(self.p.type_of(s.options).arg)

        def ins(R, L):
            options = list(opts(R, L))
            if not options:
                raise RuleError(f"'pick {var} at random' has an empty list",
                                hint="check that the list is not empty first: 'if size(xs) > 0 { ... }'")
            L[var] = options[R.below(len(options), "pick", options, tc)]
            return nxt
        self.emit(_chancy(ins), s.span)

    def _Roll(self, s: ir.Roll):
        faces, names, nxt = self.fn(s.faces), s.vars, self.here() + 1

        def ins(R, L):
            sides = list(faces(R, L))
            if not sides:
                raise RuleError("'roll' of a die with no faces (its list is empty)",
                                hint="give the die faces, e.g. 'roll x from 1..6'")
            for name in names:  # one die after the other, each from its own draw
                L[name] = sides[R.below(len(sides), "roll", sides, "int")]
            return nxt
        self.emit(_chancy(ins), s.span)

    # ------------------------------------------------------------ effects
    def _facing(self, s):
        """A function of (R, L) giving the facing mask: -1, or who sees the item."""
        if s.facing != "down":
            return lambda R, L: -1
        if s.seen_by is None:
            return lambda R, L: 0
        who = self.fn(s.seen_by)
        return lambda R, L: 1 << who(R, L)

    def _Move(self, s: ir.Move):
        what, to, nxt = self.fn(s.what), self.fn(s.to), self.here() + 1
        many = self.p.type_of(s.what).tag == "list"
        facing = self._facing(s)
        plain = s.facing != "down"
        unsure = kind_unsure(self.p.checked, s)

        def ins(R, L):
            dest, w = to(R, L), what(R, L)
            if unsure:
                same_kind(R.prog, list(w) if many else [w], dest)
            f = -1 if plain else facing(R, L)
            if many:
                if plain:
                    R.move_all(w, dest)
                else:
                    for it in list(w):
                        R.move(it, dest, f)
            else:
                if w is None:
                    fused.nothing_to_move()
                R.move(w, dest, f)
            return nxt
        self.emit(ins, s.span)
        if plain and not unsure:
            self.meta[id(s)] = ("move", what, to, many)

    def _Flip(self, s: ir.Flip):
        what, facing, nxt = self.fn(s.what), self._facing(s), self.here() + 1
        many = self.p.type_of(s.what).tag == "list"

        def ins(R, L):
            w, f = what(R, L), facing(R, L)
            for it in (list(w) if many else [w]):
                if it is None:
                    raise RuleError("'flip' of nothing (the item is none)",
                                    hint="an empty zone's top or an empty cell is none: test it "
                                         "first, e.g. 'if occupied(z) { flip top(z) ... }'")
                R.turn_over(it, f)
            return nxt
        self.emit(ins, s.span)

    def _Shuffle(self, s: ir.Shuffle):
        z, nxt = self.fn(s.zone), self.here() + 1
        self.emit(_chancy(lambda R, L: (R.shuffle(z(R, L)), nxt)[1]), s.span)

    def _Reveal(self, s: ir.Reveal):
        z, nxt = self.fn(s.zone), self.here() + 1
        self.emit(lambda R, L: (R.reveal(z(R, L)), nxt)[1], s.span)

    def _Deal(self, s: ir.Deal):
        src, base, count, nxt = self.fn(s.source), self.p.zone_index[s.to], s.count, self.here() + 1

        def ins(R, L):
            R.deal(src(R, L), base, count)
            return nxt
        self.emit(ins, s.span)

    def _Fill(self, s: ir.Fill):
        src, cells, nxt = self.fn(s.source), self.p.boards[s.board], self.here() + 1

        def ins(R, L):
            z = src(R, L)
            for cell in cells:
                if not R.zones[cell]:
                    if not R.zones[z]:
                        raise RuleError(f"'fill {s.board}' ran out of items",
                                        hint="the zone it fills from must hold an item for every "
                                             "empty cell")
                    R.move(R.zones[z][-1], cell)
            return nxt
        self.emit(ins, s.span)

    def _Log(self, s: ir.Log):
        parts = self.p.checked.templates.get(s, [s.template])
        compiled = []
        for part in parts:
            if isinstance(part, str):
                compiled.append(part)
            else:
                raw, e = part
                compiled.append((self.fn(e), type_code(self.p.type_of(e)), raw))
        log_id = len(self.p.logs)
        self.p.logs.append(LogTemplate(s.key, compiled, s.span))
        fns = [x[0] for x in compiled if isinstance(x, tuple)]
        nxt = self.here() + 1

        def ins(R, L):
            R.say(log_id, _values(fns, R, L))
            return nxt
        self.emit(ins, s.span)
        self.meta[id(s)] = ("log", log_id, fns)

    def _CallProc(self, s: ir.CallProc):
        args, name, nxt = [self.fn(a) for a in s.args], s.proc, self.here() + 1
        params = [p.name for p in self.p.checked.procedures[name].params]

        def ins(R, L):
            R.call(name, dict(zip(params, _values(args, R, L))))
            return nxt
        self.emit(ins, s.span)
        self.frame.stop(nxt, "call", self.scope, self.live, callee=name)

    def _Return(self, s: ir.Return):
        """Ends the procedure; a value goes into the caller's frame, in the slot its
        ``let v = call ...`` named (``$ret`` among the callee's locals)."""
        end = self.end
        if s.value is None:
            self.emit(lambda R, L: end[0], s.span)
            return
        f = self.value_fn(s.value)

        def ins(R, L):
            v = f(R, L)
            slot = L.get("$ret")
            if slot is not None:
                R.save_frame(len(R.stack) - 2)  # the caller's frame, for undo
                R.stack[-2]["L"][slot] = v
            return end[0]
        self.emit(ins, s.span)

    def _CallResult(self, s: ir.CallResult):
        """``let v = call p(...)``: the callee returns into the local ``v``; any other
        target gets the value from a hidden local (``$rN``) once the callee is done."""
        args, name, nxt = [self.fn(a) for a in s.args], s.proc, self.here() + 1
        params = [p.name for p in self.p.checked.procedures[name].params]
        direct = s.player is None and (s.new or s.var in self.env.locals)
        slot = s.var if direct else f"$r{self.here()}"

        def ins(R, L):
            frame = dict(zip(params, _values(args, R, L)))
            frame["$ret"] = slot
            if not direct:
                L[slot] = None
            R.call(name, frame)
            return nxt
        self.emit(ins, s.span)
        live = self.live if direct else self.live + [self.frame.slot(slot, "result")]
        self.frame.stop(nxt, "call", self.scope, live, callee=name, slot=slot)
        if not direct:
            self._store_result(s, slot)

    def _store_result(self, s: ir.CallResult, slot: str):
        var, nxt = s.var, self.here() + 1
        if s.player is not None:
            pf = self.fn(s.player)

            def ins(R, L):
                v = L.pop(slot)
                R.set_pvar(var, pf(R, L), v)
                return nxt
        elif var == "active" and not self.p.checked.declares(var):
            def ins(R, L):
                R.set_active(L.pop(slot))
                return nxt
        else:
            def ins(R, L):
                R.set_var(var, L.pop(slot))
                return nxt
        self.emit(ins, s.span)

    def _EndGame(self, s: ir.EndGame):
        nxt = self.here() + 1

        def ins(R, L):
            R.end_requested = True
            return nxt
        self.emit(ins, s.span)
