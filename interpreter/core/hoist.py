"""Loop invariance: where each expression of a program stands among the loops of the
expression it is part of, and which of those loops its value changes with (a part of
``facts.Facts``, its methods on the facts' state). One pass over every expression the
program holds (the instructions' of its procedures, ``core.ops``, which are the checked
statements' own nodes, the rule functions' bodies and the other declarations'), found
once per program, when first asked, for every engine.

A loop of an expression is one ``for`` clause of a comprehension (an aggregate's too): a
clause's turns evaluate the clauses after it, the condition and the element (the first
clause's list is evaluated once, before its turns; a later clause's list at each turn of
the clauses before it). A variable is that of the innermost clause around it of its name
(``Loop``). An expression's value changes with a loop around it only where it reads the
loop's variable (no expression changes the state, nor reads a generator): where it reads
none of the loops around it (``invariant``), its value is the same at every turn of
them, and an engine may compute it once per evaluation of the outermost and keep it
for the turns, provided that it counts the work the reference counts (core/facts.py,
``counts_any``; the kernel's keeps count it again, native/kernel_memo.py).

The table is the data the printers read: the kernel keeps the values of the calls that
read no loop around them (``kernel_memo.MemoCalls.function_call``) and ``memo.Memo``
finds the rule functions called over and over from it."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir


@dataclass(frozen=True, eq=False)
class Loop:
    """The loop of clause ``clause`` of the comprehension ``comp`` (its variable ``var``)."""
    comp: Any
    clause: int
    var: str


class Hoist:
    """Facts' methods for the loops around each expression."""

    if TYPE_CHECKING:
        c: Any   # the checked program

    @cached_property
    def _around(self) -> dict[int, tuple[Loop, ...]]:
        """The loops around each node inside a loop of an expression, by the node's id
        (the checked program holds every node: an id is no other node's meanwhile),
        outermost first; a node met twice (no checked program shares one, but were one
        shared) is counted in no loop."""
        out: dict[int, tuple[Loop, ...]] = {}
        seen: set[int] = set()
        for root in roots(self.c):
            for n in ir.walk(root):
                if id(n) in seen:   # (met again: in no loop of its own)
                    out[id(n)] = ()
                seen.add(id(n))
                if n.node == "Comprehension":
                    _mark(n, out)
        return out

    def loops_around(self, e) -> tuple[Loop, ...]:
        """The loops around the expression ``e`` (outermost first): those whose turns
        evaluate it, each time."""
        return self._around.get(id(e), ())

    def loops_read(self, e) -> set[Loop]:
        """The loops around ``e`` whose variable it reads (its value may change with
        their turns; with no other)."""
        around = self.loops_around(e)
        if not around:
            return set()
        out = set()
        for n in ir.walk(e):
            if n.node == "Var":
                loop = _binding(n.name, self.loops_around(n))
                if loop is not None and loop in around:
                    out.add(loop)
        return out

    def invariant(self, e) -> bool:
        """Whether ``e`` is inside a loop and reads none of the loops around it: its value
        is the same at every turn of every loop around it."""
        return bool(self.loops_around(e)) and not self.loops_read(e)


def _mark(comp, out: dict) -> None:
    """Adds the loops of a comprehension's clauses to the nodes their turns evaluate
    (called outer comprehensions first: the loops end up outermost first)."""
    loops = [Loop(comp, i, cl.var) for i, cl in enumerate(comp.clauses)]
    parts = [(cl.iter, loops[:i]) for i, cl in enumerate(comp.clauses) if i > 0]
    parts += [(x, loops) for x in (comp.elem, comp.cond) if x is not None]
    for part, around in parts:
        for x in ir.walk(part):
            out[id(x)] = out.get(id(x), ()) + tuple(around)


def _binding(name: str, around: tuple[Loop, ...]) -> Loop | None:
    """The loop whose variable the name ``name`` is, at a place with these loops around."""
    return next((loop for loop in reversed(around) if loop.var == name), None)


def roots(c) -> list:
    """Every declaration of the checked program that holds expressions, but the aliases
    (``alias "verb"(m) = ...``): computed only when a person types a move, they leave
    what the engines make of the rest (hoisting, memos, kernels) as it was."""
    one = [c.setup, c.turn, c.end, c.at_end, c.score, c.heuristic, c.outcome, c.team, c.payoff]
    return [*c.functions.values(), *c.procedures.values(), *(d for d in one if d is not None),
            *c.participants.values(), *c.tiebreaks, *c.invariants]
