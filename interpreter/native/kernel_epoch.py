"""Which steps renew the epoch of the kept values (a part of ``kernel.Gen``, its methods
on the generator's state; kernel_memo.py's keeps serve while the epoch stays).

A keep of kernel_memo.py holds a rule function's value for the state as it is: its entry
serves while ``EPOCH`` stays the same. Every step renewed it, though most steps change
nothing a rule function reads: a local set (``let``), a test, a jump, a loop's turn, a
call of a procedure or its return write only the frames, which no rule function reads
(its value is a function of its arguments and the state); and a variable of the rules
that no kept value's evaluation reads (a scoresheet of the positions played, written at every
turn) leaves every keep right too. Such a step (``STEP0``) now counts the step and keeps
the epoch, so a value kept earlier in the turn serves a later call with the same
arguments (a ``position(me)``, written on the scoresheet, then compared with each
position on it: computed once a turn, not twice). Every other step renews the epoch as
before: a move of an item, a face turned, the seat to act, a draw from the generator, a
decision, the game's end, and a variable that a kept value reads or may read.

Which variables a kept value reads is a fact of the IR (core/pure.py,
``variables_read``): those the kept rule function's body reads, and the bodies of every
rule function it may call; the C++ of each is a version of one of those bodies, and the
built-ins and the runtime's helpers they call read no variable of the rules (only the
budgets' counters, the zones, the faces, the seats, a walk's marks). The same value is
computed and the same work and calls counted either way (a keep's read counts again
what its evaluation counted): only how often it is computed changes.

A rule function whose values are kept at one call (inside a loop, with the same
arguments at every turn: ``core/hoist.py``) is kept at its other calls too
(``kept_anywhere``), so a value computed by a statement serves that later loop."""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir
from ..core import ops
from ..core.hoist import roots
from .cxx_text import ident
from .kernel_tops import walked_filter

# instructions that write nothing of the state but the frames (no rule function reads
# them): the epoch stays
_FRAMES_ONLY = (ops.Jump, ops.Branch, ops.ForInit, ops.ForStep, ops.WhileInit, ops.WhileTest,
                ops.Return, ops.SetLocal, ops.Call)
# the C++ field of a variable of each kind (core/pure.py, ``variables_read``)
_FIELD = {"global": "G", "player": "P", "item": "I"}


class EpochSteps:
    """``Gen``'s methods for the steps that keep the epoch."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
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
        read = self.read_by_keeps()
        out = ["#define STEP0(s) do { if (++(s).steps > STEPS) bail(); } while (0)"]
        for field in sorted(self.__dict__.get("step_writes", ())):
            out.append(f"#define STEP_{field}(s) {'STEP' if field in read else 'STEP0'}(s)")
        return out

    def read_by_keeps(self) -> set[str]:
        """The variables (their fields) that the values kept while the epoch stays
        (``uK_name``, ``uC_name``: kernel_memo.py) may read: those their evaluations, and
        the functions they may call, read (core/pure.py)."""
        read: set[str] = set()
        for key in self.kept_made:   # (a name, or a kind of keep and the name: ``uD_name``'s reads none)
            name = key if isinstance(key, str) else key[1]
            read.update(ident(_FIELD[kind], v) for kind, v in self.facts.variables_read(name))
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
        a number written out (``pieces(s)`` in the test of ``moves(s)`` and in the list
        it then makes): nothing changes the state while a body is evaluated, so the
        first call's value, kept, serves the next. Not a filter walked from the index
        of the cells by their top item (kernel_tops.py, ``walked_filter``: such as
        ``own(s)``): its walk, in the place of each call, costs less than a keep's
        look-up."""
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
                if key in seen and not walked_filter(self, fs[e.func]):
                    out.add(e.func)
                seen.add(key)
        return frozenset(out)
