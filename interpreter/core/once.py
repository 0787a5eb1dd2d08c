"""Values computed once: which evaluations of an expression have the same value, on the
checked IR (a part of ``facts.Facts``, its methods on the facts' state), for every
engine that computes a value once for two of its uses.

No expression of the language changes the state, draws from the generator or changes
what a seat sees (core/memo.py): two evaluations of the same expression, with the names
it reads bound to the same values, have the same value while the state stays the same,
and an engine may compute it once for both, or once for every turn of a loop whose
variables it does not read, provided that it counts the work and the calls the
reference counts (``counts_any``: a value whose evaluation may count either is computed
at each use, in every engine).

``value_key`` is what tells such values apart: the expression's shape (its nodes, their
operators, names and constants; its span left out), each name it reads given by the
engine (a loop's variable by the number of its binding, a parameter written in place by
the key of its argument, a value the engine computed before by its own name), and the
bindings of loop variables the value depends on (which the engine compares with the
loops around: a value that depends on none of them is the same at every turn). Two
evaluations with the same key have the same value. What an engine still decides on its
own is where an evaluation is sure to have run before another (its own order of
evaluation: the fast Python code's branches and loops, compiler/codegen.py) and what is
worth keeping (a call, a look-up of a helper)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir

# (what an engine says of a node it names: the key standing for the node's value and
# the bindings of loop variables that value depends on; None: a node it does not name)
Named = Callable[[Any], "tuple[Any, tuple[int, ...]] | None"]


class Once:
    """Facts' methods for the values computed once for two of their uses."""

    if TYPE_CHECKING:
        def counts_any(self, e) -> bool: ...

    def value_key(self, e, named: Named, tag: Any = None) -> tuple[tuple, tuple[int, ...]] | None:
        """The key of the value of ``e`` (see the module's docstring) and the bindings of
        loop variables it depends on, in the order read; None where ``e`` is never
        computed once for two uses (its evaluation may count work or calls). ``named``
        gives the key of a node the engine names (a name, a value computed before), else
        None (a name it does not bind: a global, an enum's value, a zone...); ``tag``
        tells apart values the engine computes differently from the same expression (a
        list in another order)."""
        if self.counts_any(e):
            return None
        ids: list[int] = []
        key = _key(e, named, ids)
        return (key if tag is None else (tag, key)), tuple(ids)


def _key(n, named: Named, ids: list[int]):
    got = named(n)
    if got is not None:
        ids.extend(got[1])
        return got[0]
    if n.node == "Var":
        return ("Var", n.name)
    parts: list = [n.node]
    for field, value in n:
        if field not in ("span", "node"):
            parts.append(_field(value, named, ids))
    return tuple(parts)


def _field(v, named: Named, ids: list[int]):
    if isinstance(v, ir.Node):
        return _key(v, named, ids)
    if isinstance(v, list):
        return tuple(_field(x, named, ids) for x in v)
    return v
