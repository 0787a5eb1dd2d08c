"""Joins of lists that are the same wherever they are evaluated, made once (Gen._BinOp,
kernel_operators.py): ``straight_steps() + diagonal_steps()``, where each part is a list written
out of constants or a call of a function of no parameters whose body is such a list or
join (a call that counts nothing: not in the calls budget, not recursive). The join is
a static table filled when the module loads (``cat`` of its parts' tables), where
``wcat`` made a list of both at every evaluation, copied their elements and dropped it
(a queen's steps, for every queen at every turn). The same value, and the same work:
each ``+`` counts the sizes of both its sides as the reference does, the sum written as
one number counted where the join is read; a list of constants counts nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cxx_text import Static
from .kernel_reads import counters

_DEPTH = 8   # calls looked through at most


class ConstantJoins:
    """Gen's joins of constant lists, made once (see the module's docstring)."""

    if TYPE_CHECKING:
        c: Any
        recursive: Any
        counting: Any
        tables: Any
        facts: Any

        def ct(self, t) -> str: ...
        def ty(self, e) -> Any: ...
        def _constant(self, e, sc: dict) -> bool: ...
        def _ListLit(self, e, sc, want=None) -> str: ...
        def joined_lists(self, e, sc: dict, t) -> str | None: ...

    def made_join(self, e, sc: dict, t) -> str | None:
        """The C++ of the join ``e`` of lists (type ``t``, scope ``sc``) made once
        (``constant_join``) or built in one list (kernel_joins.py), or None (``wcat``)."""
        return self.constant_join(e, sc, t) or self.joined_lists(e, sc, t)

    def constant_call(self, e, sc: dict) -> str | None:
        """The call ``e`` of a rule function of no parameters whose body is a list
        written out of constants (``dirs()``), counting nothing: the table made once,
        read in place (an lvalue: a loop over it holds it by reference, where the
        function's copy raised and dropped the list's count at every call); else None."""
        if e.args:
            return None
        made = self._constant_list(e, sc, self.ty(e), 0)
        return Static(made[0]) if made is not None and not made[2] else None

    def constant_join(self, e, sc: dict, t) -> str | None:
        """The C++ of the join ``e`` (of type ``t``, in the scope ``sc``) read from a
        table made once, its work counted where it is read; None where a part is not a
        constant list."""
        made = self._constant_list(e, sc, t, 0)
        if made is None:
            return None
        table, _size, work = made
        return f"(W({counters(sc)}, {work}), {table})" if work else Static(table)

    def _constant_list(self, e, sc: dict, t, depth: int) -> tuple[str, int, int] | None:
        """(the table, its size, the work of its evaluation) of a constant list: a
        list written out of constants, a call of a function of no parameters that
        counts nothing whose body is a constant list, a join of two; else None."""
        if depth > _DEPTH:
            return None
        if e.node == "ListLit":
            if not e.items or not self._constant(e, sc):
                return None
            return self._ListLit(e, sc, t), len(e.items), 0
        if e.node == "Call" and not e.args and self.facts.call_kind(e) == "function":
            f = e.func
            if f in self.recursive or f in self.counting or self.c.functions[f].params:
                return None
            return self._constant_list(self.c.functions[f].body, {}, t, depth + 1)
        if e.node == "BinOp" and e.op == "+":
            a = self._constant_list(e.left, sc, t, depth + 1)
            b = self._constant_list(e.right, sc, t, depth + 1)
            if a is None or b is None:
                return None
            ct = self.ct(t)
            table = self.tables.table(("JOINED", a[0], b[0]), lambda n: f"static {ct} {n};",
                                      lambda n: f"{n} = cat({a[0]}, {b[0]});")
            return table, a[1] + b[1], a[2] + b[2] + a[1] + b[1]
        return None
