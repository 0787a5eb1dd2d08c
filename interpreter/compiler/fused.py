"""Fused statements: a run of statements that cannot stop the procedure (no decision,
no call of a procedure, no random draw, no 'end game', no 'return') written as ONE
generated Python function that the driver calls in place of the run's first
instruction, with real Python loops (the fast code; ``codegen.OPTIMIZE``).

A pass over the core (core/ops.py): it reads a procedure's instructions alone, through
``compile_procs.FuseInput`` (the instructions and the functions the reference made for
them), never the IR's statements. The statements, their blocks and loops are recovered
from the instructions (core/blocks.py); an instruction can stop the procedure when it
asks (``asks``), draws (``chancy``), calls (with its StoreResult), returns or ends the
game; a statement is fusable when none of its instructions can, and runs of fusable
statements in a block are fused, a run that ends a loop's body or a test of an ``if``
with what follows it there (the jump back and the loop's step or test, the test's
closing jump). Each statement it writes in place is derived from the instruction at its
start and the functions the reference made for it: how each kind of instruction is
treated (an if or a loop written as such, written in place by the method of its kind,
its reference function called, or never fused) is said for every kind in ``HANDLING``.

The code plays exactly as the instructions it replaces: the same expression functions in
the same order, the same writes to the frame's locals in the same order (a loop's
hidden ``$itN``/``$iN`` slots included), and the same count of steps, one per
instruction it stands for (a jump, a loop's step), checked after each as the driver
does, so a budget of steps runs out at the same statement with the same message.
It keeps the index of the instruction it stands at in ``p``: an error leaves with
that index (``meeple_pc``), so it is located at the statement that failed. The
instructions stay in the procedure: a game resumed, or a jump, into the middle of a
run plays them one by one."""
from __future__ import annotations

import builtins

from ..core import blocks, ops
from ..core.reference import attr_of_nothing, loop_over, nothing_to_move, steps_over
from ..play import helpers

# the names the fused code binds (``_LOOP_NAMES``: those of its n-th loop: the list, the
# index and the element). The straightforward code of an expression reads only R, L, the
# program's namespace and Python's built-ins, and binds only ``v_`` names (codegen's
# Env), so its text written in place reads none of these: ``fuse`` checks that the
# namespace and the built-ins hold none of them.
_LOCALS = frozenset({"s", "p", "v", "d", "w", "e"})
_LOOP_NAMES = ("xs{}", "i{}", "x{}")


def fuse(prog, pc) -> None:
    """Fuses the runs of statements of a compiled procedure (``pc``: its FuseInput)."""
    prog.ns["_steps_over"] = steps_over
    prog.ns["_loop_over"] = loop_over
    prog.ns["_nothing_to_move"] = nothing_to_move
    prog.ns["_attr_of_nothing"] = attr_of_nothing
    prog.ns["_too_big"] = helpers._too_big
    taken = _LOCALS & (prog.ns.keys() | vars(builtins).keys())
    if taken:
        raise AssertionError(f"the fused code's names {sorted(taken)} are the program's too")
    _Fuser(prog, pc).block(blocks.structure(pc.code))


class _Count:
    """Steps counted one after the other (``pcs``: the instruction after each): the
    budget runs out at the first that passes it, located there."""

    def __init__(self, ind: int, pcs: list[int], most: int):
        self.ind, self.pcs, self.max = ind, pcs, most

    def __str__(self) -> str:
        pad, k, m = " " * self.ind, len(self.pcs), self.max
        if k == 1:
            return f"{pad}p = {self.pcs[0]}\n{pad}s += 1\n{pad}if s > {m}: _steps_over({m})\n"
        return (f"{pad}s += {k}\n{pad}if s > {m}:\n"
                f"{pad}    p = {tuple(self.pcs)}[{m} - s + {k}]\n{pad}    _steps_over({m})\n"
                f"{pad}p = {self.pcs[-1]}\n")


class _Fuser:
    def __init__(self, prog, pc):
        self.prog, self.pc, self.proc = prog, pc, pc.proc
        self.max = prog.budgets.steps
        self.ok: dict[int, bool] = {}
        self.loops = 0

    # ------------------------------------------------------------ which runs
    def fusable(self, s: blocks.Stmt) -> bool:
        """Whether no instruction of the statement can stop the procedure."""
        got = self.ok.get(s.start)
        if got is None:
            i = self.pc.code[s.start]
            kind = handling(type(i))
            if kind == STATEMENT:
                got = all(self.fusable(x) for b in s.blocks() for x in b.stmts)
            elif kind in (WRITTEN, BY_REFERENCE):
                got = not (i.asks or i.chancy)   # (a 'best' whose tie is asked or drawn)
            elif kind == STOPS:
                got = False
            else:   # (a jump, a loop's head: inside the statement they belong to)
                raise ValueError(f"instruction {s.start} ({type(i).__name__}) starts no statement")
            self.ok[s.start] = got
        return got

    def block(self, b: blocks.Block, tail=None) -> None:
        """Fuses the runs of a block; ``tail(out, ind)`` writes what follows the block's
        last statement (a loop's jump back and its test, a branch's closing jump): a run
        that ends the block runs it too."""
        run = []
        for s in b.stmts:
            if self.fusable(s):
                run.append(s)
                continue
            self.flush(run)
            run = []
            self.inner(s)
        self.flush(run, tail)

    def inner(self, s: blocks.Stmt) -> None:
        """Fuses the runs inside a statement that is not fused as a whole."""
        for t in s.tests:
            self.block(t.body, lambda out, ind: self.count(s.end, out, ind))
        if s.other is not None:
            self.block(s.other)
        if s.body is not None:
            tail = self.for_tail if isinstance(self.pc.code[s.start], ops.ForInit) else self.while_tail
            self.block(s.body, lambda out, ind: tail(s, out, ind))

    def ins(self, s) -> tuple:
        """The instruction a statement starts with, its index and the functions the
        reference made for it (core/reference.py, ``Builder.made``)."""
        start = s.start
        return self.pc.code[start], start, self.pc.made.get(start, {})

    def for_tail(self, s: blocks.Stmt, out: list, ind: int) -> None:
        """The jump back and the loop's step (as the ForStep instruction does)."""
        i = self.ins(s)[0]
        it, ix, var = i.it, i.ix, i.var
        head, pad, inner = s.start + 1, " " * ind, " " * (ind + 4)
        self.count(head, out, ind)
        out.append(f"{pad}i = L[{ix!r}]\n{pad}if i >= len(L[{it!r}]):\n")
        self.count(s.end, out, ind + 4)
        out.append(f"{pad}else:\n{inner}L[{var!r}] = L[{it!r}][i]\n{inner}L[{ix!r}] = i + 1\n")
        self.count(head + 1, out, ind + 4)

    def while_tail(self, s: blocks.Stmt, out: list, ind: int) -> None:
        """The jump back and the loop's test (as the WhileTest instruction does)."""
        head, pad, inner = s.start + 1, " " * ind, " " * (ind + 4)
        test, cond = self.pc.code[head], self.pc.made[head]["cond"]
        cnt, limit, where = test.count, test.limit, test.where
        self.count(head, out, ind)
        out.append(f"{pad}if not {self.call(cond)}:\n")
        self.count(s.end, out, ind + 4)
        out.append(f"{pad}else:\n{inner}L[{cnt!r}] += 1\n"
                   f"{inner}if L[{cnt!r}] > {limit}: _loop_over({where!r}, {limit})\n")
        self.count(head + 1, out, ind + 4)

    def flush(self, run: list, tail=None) -> None:
        if not run:
            return
        start, end = run[0].start, run[-1].end
        if end - start < 2 and tail is None:  # one instruction: nothing to gain
            return
        self.loops = 0
        lines: list = []
        try:
            for s in run:
                self.stmt(s, lines, 8)
            if tail is not None:
                tail(lines, 8)
        except RecursionError:
            return  # nested too deeply to write: the instructions serve
        lines = [str(x) for x in lines]
        k = self.prog._fused_count = self.prog._fused_count + 1
        name = f"FUSED_{k}"
        src = (f"def {name}(R, L):\n    s = R.steps\n    p = {start}\n    try:\n"
               + "".join(lines)
               + "    except Exception as e:\n        e.meeple_pc = p\n        raise\n"
               + "    R.steps = s - 1\n    return p\n")
        try:
            self.prog._run(src, f"<{self.proc.name} line {self.pc.code[start].span.line}>", "exec")
        except (SyntaxError, RecursionError, MemoryError):
            return  # nested too deeply for Python: the instructions serve
        self.proc.code[start] = self.prog.ns[name]
        self.proc.fused = True

    # ------------------------------------------------------------ writing
    def call(self, fn) -> str:
        """A compiled expression's value: its text written in place where it is the
        straightforward code of an expression (``in_place``), else a call."""
        if self.in_place(fn):
            return f"({self.prog._texts[id(fn)][1]})"
        return f"{self.name(fn)}(R, L)"

    def in_place(self, fn) -> bool:
        """Whether a compiled expression is written in place: it is the straightforward
        code of an expression, in a pure-Python program."""
        text = self.prog._texts.get(id(fn))
        return text is not None and text[0] is fn and self.prog._native is None

    def name(self, fn) -> str:
        """A new name of a compiled function in the program's namespace, one per place
        it is called from: the text of a fused function must not depend on whether two
        places hold the same function object (natively, two expressions written alike
        are one wrapper of the module, in Python two functions), or the native compile
        of a program would not find the pieces its Python compile recorded."""
        k = self.prog._fused_count = self.prog._fused_count + 1
        got = f"FX_{k}"
        self.prog.ns[got] = fn
        return got

    def value(self, fn, out: list, pad: str) -> str:
        """A value to store (see ``Builder.value`` of core/reference.py): an integer is
        checked against the integer budget in place."""
        raw = getattr(fn, "raw", None)
        if raw is None:
            return f"{self.call(fn)}"
        lim = fn.limit
        out.append(f"{pad}v = {self.call(raw)}\n"
                   f"{pad}if v.__class__ is int and not -{lim} <= v <= {lim}: raise _too_big(v, {lim})\n")
        return "v"

    def count(self, nxt: int, out: list, ind: int) -> None:
        """One instruction done: the driver's step, its check, then the next one. Steps
        with nothing between them (jumps) are counted at once (see _Count)."""
        if out and isinstance(out[-1], _Count) and out[-1].ind == ind:
            out[-1].pcs.append(nxt)
        else:
            out.append(_Count(ind, [nxt], self.max))

    def stmts(self, b: blocks.Block, out: list, ind: int) -> None:
        for s in b.stmts:
            self.stmt(s, out, ind)

    def stmt(self, s, out: list, ind: int) -> None:
        """A statement in place: an ``if`` or a loop as such, any other by the method of
        its kind (written in place, or its reference function called), then its step."""
        i, start, fx = self.ins(s)
        kind = handling(type(i))
        if kind == STATEMENT:
            return _STATEMENTS[type(i)](self, s, out, ind)
        pad = " " * ind
        if kind == WRITTEN:
            _WRITERS[type(i)](self, i, start, fx, out, pad)
        elif kind == BY_REFERENCE:
            self.by_reference(start, out, pad)
        else:
            raise ValueError(f"instruction {start} ({type(i).__name__}) is not fused")
        self.count(start + 1, out, ind)

    def by_reference(self, start: int, out: list, pad: str) -> None:
        """The instruction itself: its reference function (core/reference.py), called."""
        out.append(f"{pad}{self.name(self.proc.code[start])}(R, L)\n")

    # ------------------------------------------------------------ one method per kind
    def _Branch(self, s: blocks.Stmt, out: list, ind: int) -> None:
        self.if_(s, 0, s.start, out, ind)

    def _ForInit(self, s: blocks.Stmt, out: list, ind: int) -> None:
        i, start, fx = self.ins(s)
        self.for_(s, i, fx["items"], start, out, ind)

    def _WhileInit(self, s: blocks.Stmt, out: list, ind: int) -> None:
        self.while_(s, s.start, out, ind)

    def _SetLocal(self, i: ops.SetLocal, start: int, fx: dict, out: list, pad: str) -> None:
        out.append(f"{pad}L[{i.var!r}] = {self.value(fx['value'], out, pad)}\n")

    def _SetPlayerVar(self, i: ops.SetPlayerVar, start: int, fx: dict, out: list, pad: str) -> None:
        value = self.value(fx["value"], out, pad)
        if value != "v":
            out.append(f"{pad}v = {value}\n")
        out.append(f"{pad}R.set_pvar({i.var!r}, {self.call(fx['player'])}, v)\n")

    def _SetGlobal(self, i: ops.SetGlobal, start: int, fx: dict, out: list, pad: str) -> None:
        out.append(f"{pad}R.set_var({i.var!r}, {self.value(fx['value'], out, pad)})\n")

    def _SetItemVar(self, i: ops.SetItemVar, start: int, fx: dict, out: list, pad: str) -> None:
        out.append(f"{pad}d = {self.call(fx['holder'])}\n"
                   f"{pad}if d is None:\n{pad}    _attr_of_nothing{i.where!r}\n")
        out.append(f"{pad}R.set_ivar({i.attr!r}, d, {self.value(fx['value'], out, pad)})\n")

    def _Move(self, i: ops.Move, start: int, fx: dict, out: list, pad: str) -> None:
        """A move seen as the place says, of a kind known already, in place; any other by
        its reference function (which turns the items and compares the kinds)."""
        if i.face != ops.AS_PLACE or i.unsure:
            return self.by_reference(start, out, pad)
        out.append(f"{pad}d, w = {self.call(fx['to'])}, {self.call(fx['what'])}\n")
        if i.many:
            out.append(f"{pad}R.move_all(w, d)\n")
        else:
            out.append(f"{pad}if w is None:\n{pad}    _nothing_to_move()\n{pad}R.move(w, d, -1)\n")
        return None

    def _Log(self, i: ops.Log, start: int, fx: dict, out: list, pad: str) -> None:
        self.log(fx["log"], fx["args"], out, pad)

    def log(self, log_id: int, fns: list, out: list, pad: str) -> None:
        args = ", ".join(f"{self.call(f)}" for f in fns)
        types = self.prog.logs[log_id].types
        if any("item" in t or t.startswith("list:") for t in types):
            out.append(f"{pad}R.say({log_id}, [{args}])\n")
        else:  # no item to mask, no list: what Runtime.say keeps, at once
            masks = ", ".join("None" for _ in types)
            out.append(f"{pad}R._said({log_id}, [{args}], [{masks}], {{}})\n")

    def if_(self, s: blocks.Stmt, k: int, cj: int, out: list, ind: int) -> None:
        """Branch k, whose test is the instruction at cj; a failed test jumps past the
        branch's closing jump, to the next test (or 'else', or the end)."""
        pad = " " * ind
        body = s.tests[k].body
        ej = body.end  # the branch's closing jump
        out.append(f"{pad}if {self.call(self.pc.made[cj]['cond'])}:\n")
        self.count(cj + 1, out, ind + 4)
        self.stmts(body, out, ind + 4)
        self.count(s.end, out, ind + 4)
        out.append(f"{pad}else:\n")
        self.count(ej + 1, out, ind + 4)
        if k + 1 < len(s.tests):
            self.if_(s, k + 1, ej + 1, out, ind + 4)
        elif s.other is not None:
            self.stmts(s.other, out, ind + 4)

    def for_(self, s: blocks.Stmt, i: ops.ForInit, src, start: int, out: list, ind: int) -> None:
        it, ix, var = i.it, i.ix, i.var
        n = self.loops = self.loops + 1
        self.loop_names(n)
        pad, inner = " " * ind, " " * (ind + 4)
        out.append(f"{pad}xs{n} = list({self.call(src)})\n{pad}L[{it!r}] = xs{n}\n"
                   f"{pad}L[{ix!r}] = 0\n")
        self.count(start + 1, out, ind)
        dest = self.moved_to(s, var)
        at = ind + 4 if dest is not None else ind  # (the loop under 'else:')
        body: list = []
        body.append(f"{' ' * at}i{n} = 0\n{' ' * at}for x{n} in xs{n}:\n{' ' * (at + 4)}L[{var!r}] = x{n}\n"
                    f"{' ' * (at + 4)}i{n} += 1\n{' ' * (at + 4)}L[{ix!r}] = i{n}\n")
        self.count(start + 2, body, at + 4)
        self.stmts(s.loop, body, at + 4)
        self.count(start + 1, body, at + 4)  # the jump back to the loop's step
        if dest is not None:
            # 'for x in xs { move x to Z }', Z the same zone at every turn: the items
            # moved at once (move_all moves them one after the other, as the turns do),
            # the locals and steps the turns leave written after; where a turn would
            # fail (an item none, the steps budget), the turns as they are
            per = sum(len(c.pcs) for c in body if isinstance(c, _Count))
            out.append(f"{pad}if xs{n} and None not in xs{n} and s + {per} * len(xs{n}) <= {self.max}:\n"
                       f"{inner}L[{var!r}] = xs{n}[0]\n{inner}L[{ix!r}] = 1\n{inner}p = {start + 2}\n"
                       f"{inner}R.move_all(xs{n}, {dest})\n"
                       f"{inner}L[{var!r}] = xs{n}[-1]\n{inner}L[{ix!r}] = len(xs{n})\n"
                       f"{inner}s += {per} * len(xs{n})\n{inner}p = {start + 1}\n{pad}else:\n")
        out.extend(body)
        self.count(s.end, out, ind)  # the step that finds no element left

    def loop_names(self, n: int) -> None:
        """The names of the n-th loop of a fused run, which no text written in place reads
        (see _LOCALS)."""
        taken = [f.format(n) for f in _LOOP_NAMES
                 if f.format(n) in self.prog.ns or hasattr(builtins, f.format(n))]
        if taken:
            raise AssertionError(f"the fused code's names {taken} are the program's too")

    def moved_to(self, s: blocks.Stmt, var: str) -> str | None:
        """The text of the zone a loop's only statement moves the loop's element to
        (``for x in xs { move x to Z }``), where it is the same zone at every turn (a
        zone of the ruleset, or a zone per player given a local other than the loop's
        variable, or the active player: ``same_zone``), both written in place; else
        None."""
        if len(s.loop.stmts) != 1:
            return None
        i, _, fx = self.ins(s.loop.stmts[0])
        if not isinstance(i, ops.Move) or i.face != ops.AS_PLACE or i.unsure or i.many:
            return None
        # (both written first, in this order, whatever is decided: one not written in
        # place is named then, see ``name``, and the names after it numbered from it)
        _, to = self.call(fx["what"]), self.call(fx["to"])
        if not (self.in_place(fx["what"]) and self.in_place(fx["to"])):
            return None
        if not (i.what.node == "Var" and i.what.name == var and self.same_zone(i.to, var)):
            return None
        return to

    def same_zone(self, e, var: str) -> bool:
        """Whether the zone expression ``e`` (of the IR, in a Move instruction) names the
        same zone at every turn of a loop over ``var`` that only moves items: a zone of
        the ruleset, or a per-player zone given a local other than ``var`` or ``active``
        (names as codegen resolves them: a local first)."""
        c, local = self.prog.checked, self.proc.frame.types
        if e.node == "Var":
            return e.name not in local and e.name in c.zones and not any(
                e.name in t for t in (c.vars, c.consts, c.enum_of_value, c.enums, c.kinds))
        if e.node != "Call" or len(e.args) != 1 or self.prog.facts.call_kind(e) != "zone":
            return False
        a = e.args[0]
        if a.node != "Var":
            return False
        if a.name in local:
            return a.name != var
        return a.name == "active" and not c.declares("active")

    def while_(self, s: blocks.Stmt, start: int, out: list, ind: int) -> None:
        test, cond = self.pc.code[start + 1], self.pc.made[start + 1]["cond"]
        cnt, limit, where = test.count, test.limit, test.where
        pad, inner = " " * ind, " " * (ind + 4)
        out.append(f"{pad}L[{cnt!r}] = 0\n")
        self.count(start + 1, out, ind)
        out.append(f"{pad}while {self.call(cond)}:\n{inner}L[{cnt!r}] += 1\n"
                   f"{inner}if L[{cnt!r}] > {limit}: _loop_over({where!r}, {limit})\n")
        self.count(start + 2, out, ind + 4)
        self.stmts(s.loop, out, ind + 4)
        self.count(start + 1, out, ind + 4)  # the jump back to the test
        self.count(s.end, out, ind)  # the test that failed


# How the fused code treats each kind of instruction of the core: every kind of
# core/ops.py is here (tests/test_statement_forms.py), and one that is not stops the
# compile (no kind is left to a default).
STATEMENT = "statement"        # an if or a loop: written as such, with its blocks
INSIDE = "inside"              # a jump, a loop's head: written by the statement it is in
WRITTEN = "written"            # written in place by the method of its kind
BY_REFERENCE = "by reference"  # its reference function (core/reference.py) called in place
STOPS = "stops"                # it can stop the procedure: never fused (the driver runs it)
HANDLING: dict[type, str] = {
    ops.Branch: STATEMENT, ops.ForInit: STATEMENT, ops.WhileInit: STATEMENT,
    ops.Jump: INSIDE, ops.ForStep: INSIDE, ops.WhileTest: INSIDE,
    ops.SetLocal: WRITTEN, ops.SetGlobal: WRITTEN, ops.SetPlayerVar: WRITTEN,
    ops.SetItemVar: WRITTEN, ops.Move: WRITTEN, ops.Log: WRITTEN,
    ops.SetActive: BY_REFERENCE, ops.Flip: BY_REFERENCE, ops.Reveal: BY_REFERENCE, ops.RevealTo: BY_REFERENCE,
    ops.Deal: BY_REFERENCE, ops.Fill: BY_REFERENCE,
    ops.Make: BY_REFERENCE, ops.Unmake: BY_REFERENCE, ops.Permute: BY_REFERENCE,
    ops.Best: BY_REFERENCE,   # (but for a tie asked or drawn: then it stops)
    ops.Ask: STOPS, ops.AskEach: STOPS, ops.AskSubset: STOPS,   # a decision
    ops.PickRandom: STOPS, ops.Roll: STOPS, ops.Shuffle: STOPS,  # a draw
    ops.Call: STOPS, ops.StoreResult: STOPS,                     # a call and its result
    ops.Return: STOPS, ops.EndGame: STOPS,
}
_STATEMENTS = {k: getattr(_Fuser, "_" + k.__name__) for k, h in HANDLING.items() if h == STATEMENT}
_WRITERS = {k: getattr(_Fuser, "_" + k.__name__) for k, h in HANDLING.items() if h == WRITTEN}


def handling(kind: type) -> str:
    """How the fused code treats a kind of instruction (``HANDLING``)."""
    got = HANDLING.get(kind)
    if got is None:
        raise TypeError(f"fused.py has no rule for the instruction {kind.__name__} (core/ops.py)")
    return got
