"""The lets of a decision that a counted decision leaves unmade (interpreter/native/kernel.py,
Proc._SetLocal): a perft counts the options of its last decision and plays none of them
(cxx/kernel_glue.hpp, ``counted_after``: the rules run with ``COUNTING`` set, up to the
decision, whose options are counted; the state is then dropped). A local that the rules
set just before a ``choose`` and read only after it (the moves a chosen name stands
for, in the order of the names) is then never read: its list is not made.

Only where leaving it unmade changes nothing the perft can tell: the let is one of the
lets that run straight into the ``choose`` (none of them a jump's target), the decision
reads it in none of its expressions (options, chooser, conditions), nor does a let
after it that is made; and its value is a comprehension that cannot fail where another
such let before it did not: the same clauses and condition (the same lists walked, the
same functions called on them, no local they read set in between) around an element
that is a name or a literal. Its budgets are those of the other one's clauses, so at
most what that one counted (``work``, ``calls``; its steps are counted as ever): it is
left unmade only where the budgets left cover that much (each unmade let takes it off
them; else it is made, and may fail as in the reference, which then counts the perft).
"""
from __future__ import annotations

from ...dsl.ast import LITERALS, Node, walk
from ..core import ops

_PLAIN = ("Var", *LITERALS)


def same(a, b) -> bool:
    """Whether two expressions are written alike (their places in the source aside)."""
    if isinstance(a, Node):
        return type(a) is type(b) and all(same(getattr(a, f), getattr(b, f))
                                          for f in type(a).model_fields if f != "span")
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(map(same, a, b))
    return a == b


def names(*es) -> set[str]:
    """Every name written in the expressions (more than they read: enough to tell that
    they do not read a local)."""
    return {n.name for e in es if e is not None for n in walk(e) if n.node == "Var"}


def unread_lets(core: list) -> dict[int, int]:
    """For each let left unmade when its decision is counted, its index: the index of the
    made let whose budgets it may take (see the module's docstring)."""
    targets = {t for i in core for t in i.jumps if isinstance(t, int)}
    out: dict[int, int] = {}
    for a, ask in enumerate(core):
        if isinstance(ask, ops.Ask):
            out.update(_before(core, a, targets))
    return out


def _before(core: list, a: int, targets: set[int]) -> dict[int, int]:
    ask = core[a]
    first = a
    while first > 0 and isinstance(core[first - 1], ops.SetLocal) and first not in targets:
        first -= 1   # (the lets that run straight into the decision, from ``first``)
    read = names(ask.options, ask.chooser, *ask.when)
    unmade: dict[int, int] = {}
    for j in range(a - 1, first - 1, -1):
        let = core[j]
        twin = None if let.var in read else _twin(core, first, j)
        if twin is not None:
            unmade[j] = twin
        else:
            read |= names(let.value)
    return unmade


def _twin(core: list, first: int, j: int) -> int | None:
    """The first let before ``j`` (from ``first``) whose comprehension has the clauses and
    the condition of ``j``'s, none of their names set from it up to ``j``; else None. (The
    first: it has no such let before it, so it is made.)"""
    e = core[j].value
    if e.node != "Comprehension" or e.elem.node not in _PLAIN:
        return None
    walked = names(*[c.iter for c in e.clauses], e.cond)
    twin = None
    for k in range(j - 1, first - 1, -1):
        if core[k].var in walked:
            break
        o = core[k].value
        if o.node == "Comprehension" and same(o.clauses, e.clauses) and same(o.cond, e.cond):
            twin = k
    return twin


class UnreadLets:
    """What kernel.Proc prints for the lets of ``unread_lets`` (of the instructions
    ``core``; ``calls``: the calls budget): each made let's budgets kept (``uw_K``,
    ``uc_K``, K its index: the work and calls it counted; one pair per made let, as the
    lets of two of them may be unmade after both are made), and the unmade one guarded
    by its own made let's."""

    def __init__(self, core: list, calls: int):
        self.unread, self.calls = unread_lets(core), calls

    def _made(self) -> list[int]:
        """The made lets whose budgets are kept, by index."""
        return sorted(set(self.unread.values()))

    def locals(self) -> str:
        """The C++ locals of the procedure's function that these need."""
        return "".join(f"I uw_{k} = 0, uc_{k} = 0; " for k in self._made())

    def reset(self) -> str:
        """The C++ that sets these locals as the function's start does (a turn begun again
        in the same call: kernel.Proc.compiled)."""
        return "".join(f"uw_{k} = 0; uc_{k} = 0; " for k in self._made())

    def let(self, pc: int, assign: str) -> str:
        """The C++ of the let at ``pc`` (its assignment ``assign``)."""
        if pc in self.unread:
            w, c = f"uw_{self.unread[pc]}", f"uc_{self.unread[pc]}"
            return (f"if (COUNTING && s.work >= {w} && s.calls + {c} <= {self.calls}) {{ s.work -= {w}; "
                    f"s.calls += {c}; }} else {{ {assign} }}")
        if pc in self.unread.values():   # (kept always: a test of COUNTING about it cost more)
            w, c = f"uw_{pc}", f"uc_{pc}"
            return f"{w} = s.work; {c} = s.calls; {assign} {w} -= s.work; {c} = s.calls - {c};"
        return assign
