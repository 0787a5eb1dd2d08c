"""The checker's part for private values held by locals (``PrivateFlow``, a base of
``check.Checker``).

A variable declared ``owner`` or ``hidden`` is seen by its owner only, or by nobody.
A local that takes its value (``let x = limit(p)``, ``for v in secret_list``, ``best p
in players by limit(p)``, ``x = x + limit(p)``) carries it: a message that reads the
local shows it to every seat just as reading the variable would (an error,
``check/private-value``), and a search bot's sample of the game (``determinize``) must
not keep what the local holds. The locals that may carry a private value are recorded
per procedure with their types (``Checked.private_locals``). Values flow through what a
statement computes, not through which branch runs (a rule may do public things where a
hidden value allows: that is the game's)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import ast as ir

if TYPE_CHECKING:
    from .check import Checked
    from .types import T


class PrivateFlow:
    """Which locals of the procedure being checked carry a private variable's value."""

    if TYPE_CHECKING:  # (the Checker's)
        c: Checked
        proc_name: str
        proc_locals: dict[str, T] | None

        def _private_read(self, e, seen: set) -> str | None: ...

    carried: dict[str, str]

    def _carry_start(self) -> None:
        self.carried = {}

    def _carry(self, name: str, exprs, join: bool = False) -> None:
        """``name`` now holds a value computed from ``exprs``: it carries the private
        variable one of them reads, if any; else (``join`` false: a new binding) none."""
        source = next((s for s in (self.private_source(e) for e in exprs if e is not None) if s), None)
        if source is not None:
            self.carried[name] = source
            t = (self.proc_locals or {}).get(name)
            if t is not None:
                self.c.private_locals.setdefault(self.proc_name, {})[name] = t
        elif not join:
            self.carried.pop(name, None)

    def private_source(self, e) -> str | None:
        """The private variable ``e`` reads, directly, through the functions it calls, or
        through a local that carries one."""
        env = self.proc_locals or {}
        carried = getattr(self, "carried", {})
        for n in ir.walk(e):
            if getattr(n, "node", "") == "Var" and n.name in carried and n.name in env:
                return carried[n.name]
        return self._private_read(e, set())
