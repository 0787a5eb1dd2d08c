"""Which steps renew the epoch of the kept values (a part of ``kernel.Gen``, its methods
on the generator's state; kernel_memo.py's keeps serve while the epoch stays).

A keep of kernel_memo.py holds a rule function's value for the state as it is: its entry
serves while ``EPOCH`` stays the same. Every step renewed it, though most steps change
nothing a rule function reads: a local set (``let``), a test, a jump, a loop's turn, a
call of a procedure or its return write only the frames, which no rule function reads
(its value is a function of its arguments and the state); and a variable of the rules
that no kept value's evaluation reads (chess's scoresheet of positions, written at every
turn) leaves every keep right too. Such a step (``STEP0``) now counts the step and keeps
the epoch, so a value kept earlier in the turn serves a later call with the same
arguments (chess's ``position(me)``, written on the scoresheet, then compared with each
position on it: computed once a turn, not twice). Every other step renews the epoch as
before: a move of an item, a face turned, the seat to act, a draw from the generator, a
decision, the game's end, and a variable that a kept value reads or may read.

Which variables a kept value reads is read from the C++ of the kept functions and of
every function they call (``s.uG_x``, ``s.uP_x``, ``s.uI_x``): where one of them hands the
state to anything but a rule function or a helper of the runtime that reads no variable
(the budgets' counters, the zones), every variable counts as read. The same value is
computed and the same work and calls counted either way (a keep's read counts again
what its evaluation counted): only how often it is computed changes.

A rule function whose values are kept at one call (inside a loop, with the same
arguments at every turn: ``core/hoist.py``) is kept at its other calls too
(``kept_anywhere``), so a value computed by a statement serves that later loop."""
from __future__ import annotations

import re
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ..core import ops
from ..core.hoist import roots
from .cxx_text import ident

# instructions that write nothing of the state but the frames (no rule function reads
# them): the epoch stays
_FRAMES_ONLY = (ops.Jump, ops.Branch, ops.ForInit, ops.ForStep, ops.WhileInit, ops.WhileTest,
                ops.Return, ops.SetLocal, ops.Call)
# a function of the module as written (its name, at the start of its text)
_DEFINED = re.compile(r"^static [^(]*?\b(u[A-Z0-9]+_\w*)\(St& s\b")
# the state handed to a callee, and a variable of the rules read
_HANDED = re.compile(r"\b(\w+)\(s(?=[,)])")
_VARIABLE = re.compile(r"\bs\.(u[GIP]_\w+)")
# helpers that read of the state nothing but the budgets' counters, the zones, the faces,
# the seats or a walk's marks (written only by steps that renew the epoch)
_HELPERS = frozenset({"W", "range_work", "irange", "wcat", "scat", "scatn", "counted_again", "d_", "seen_", "RZ",
                      "zin", "cell_of", "face_down", "sees", "bail"})


class EpochSteps:
    """``Gen``'s methods for the steps that keep the epoch."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        fns: list[str]
        kept_made: set

    # (the fields of the variables written by steps, each a macro: see step_defines)
    step_writes: set[str]

    def step_after(self, ins) -> str:
        """The C++ of the step after the instruction ``ins``: ``STEP0(s)`` where it
        writes nothing of the state but the frames, ``STEP_<field>(s)`` where it sets a
        variable of the rules (see ``step_defines``), else ``STEP(s)``."""
        if isinstance(ins, _FRAMES_ONLY):
            return "STEP0(s)"
        field = None
        if isinstance(ins, ops.SetGlobal):
            field = ident("G", ins.var)
        elif isinstance(ins, ops.SetPlayerVar):
            field = ident("P", ins.var)
        elif isinstance(ins, ops.SetItemVar):
            field = ident("I", ins.attr)
        if field is None:
            return "STEP(s)"
        self.__dict__.setdefault("step_writes", set()).add(field)
        return f"STEP_{field}(s)"

    def step_defines(self) -> list[str]:
        """The macros of the steps (once every function of the module is written):
        ``STEP0`` counts a step; ``STEP_<field>``, the step after a variable set, renews
        the epoch too where a kept value may read that variable."""
        read = self._read_by_keeps()
        out = ["#define STEP0(s) do { if (++(s).steps > STEPS) bail(); } while (0)"]
        for field in sorted(self.__dict__.get("step_writes", ())):
            out.append(f"#define STEP_{field}(s) {'STEP' if read is None or field in read else 'STEP0'}(s)")
        return out

    def _read_by_keeps(self) -> set[str] | None:
        """The variables (their fields) that the kept functions and those they call
        read; None where one hands the state to something else."""
        by_name = {}
        for text in self.fns:
            m = _DEFINED.match(text)
            if m is not None:
                by_name[m.group(1)] = text
        todo = [n for n in by_name if n.startswith(("uK_", "uC_"))]
        seen = set(todo)
        read: set[str] = set()
        while todo:
            text = by_name[todo.pop()]
            read.update(_VARIABLE.findall(text))
            for callee in _HANDED.findall(text):
                if callee in by_name:
                    if callee not in seen:
                        seen.add(callee)
                        todo.append(callee)
                elif callee not in _HELPERS:
                    return None
        return read

    @cached_property
    def kept_anywhere(self) -> frozenset[str]:
        """The rule functions called somewhere inside a loop whose turns they read
        nothing of (``core/hoist.py``, ``invariant``): their values are kept there, and
        so kept at each of their calls."""
        fs = self.c.functions
        out = set()
        for root in roots(self.c):
            for e in ir.walk(root):
                if e.node == "Call" and e.func in fs and self.facts.call_kind(e) == "function" \
                        and self.facts.invariant(e):
                    out.add(e.func)
        return frozenset(out)

    @cached_property
    def called_again(self) -> frozenset[str]:
        """The rule functions that a rule function's body calls twice or more with the
        same arguments, each the name of one of its parameters (no loop's variable) or
        a number written out (checkers' ``own(s)``, in the test of ``moves(s)`` and in
        the list it then makes): nothing changes the state while a body is evaluated,
        so the first call's value, kept, serves the next."""
        fs = self.c.functions
        out: set[str] = set()
        for fd in fs.values():
            names = {p.name for p in fd.params} - {n.var for n in ir.walk(fd.body) if n.node == "ForClause"}
            seen: set[tuple] = set()
            for e in ir.walk(fd.body):
                if e.node != "Call" or e.func not in fs or self.facts.call_kind(e) != "function" or not all(
                        (a.node == "Var" and a.name in names) or a.node == "IntLit" for a in e.args):
                    continue
                key = (e.func, *(a.name if a.node == "Var" else a.value for a in e.args))
                if key in seen:
                    out.add(e.func)
                seen.add(key)
        return frozenset(out)
