"""Whether a rule function's list is empty, told with no list made (a part of
``kernel.Gen``): ``occupied(jumps(c))`` where ``jumps`` is a comprehension of two loops
or more (a piece's jumps, asked of each piece at every turn). The function's
loops run in the place of the call, each element its condition lets through counted,
none made; every condition is tested and every loop's list counted against the work
budget as the list's making tests and counts them (a test that fails fails here too),
so the budgets run out where they do in Python."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl.ast import LITERALS

_PLAIN = frozenset(LITERALS)


class EmptyLists:
    """``Gen``'s ``empty(f(...))`` and ``occupied(f(...))`` with no list made."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        maybe_none: frozenset

        def fresh(self, base: str) -> str: ...
        def ty(self, e) -> Any: ...
        def called_plainly(self, e) -> bool: ...
        def _bound_params(self, fd, args: list, sc: dict) -> tuple[str, dict]: ...
        def loops(self, comp, sc: dict, body, reserve: str | None = None, whole: bool = False,
                  count: str | None = None, compact: tuple | None = None, truth: bool = False,
                  size=None) -> str: ...

    def _harmless(self, e) -> bool:
        """Whether evaluating ``e`` cannot fail and counts nothing: a literal, a name (no
        decision's object that may be none, which the kernel tests where it is read), a
        list or tuple written out of such."""
        n = e.node
        if n in _PLAIN:
            return True
        if n == "Var":
            return e.name not in self.maybe_none
        return n in ("ListLit", "TupleLit") and all(self._harmless(x) for x in e.items)

    def emptiness(self, e, sc: dict) -> str | None:
        """The C++ of ``e``, ``empty(f(...))`` or ``occupied(f(...))``, where ``f``'s body
        is a comprehension of two loops or more whose element is harmless (``_harmless``:
        it need not be made) and f is called plainly (``called_plainly``: no keep, no
        count of its calls, not recursive): its loops in place, counting (see the
        module). Else None."""
        arg = e.args[0] if len(e.args) == 1 else None
        if arg is None or arg.node != "Call" or self.facts.call_kind(arg) != "function" \
                or self.ty(arg).tag != "list":
            return None
        fd = self.c.functions[arg.func]
        body = fd.body
        if body.node != "Comprehension" or len(body.clauses) < 2 or not self._harmless(body.elem) \
                or not self.called_plainly(arg):
            return None
        binds, scope = self._bound_params(fd, arg.args, sc)
        n = self.fresh("n")
        loops = self.loops(body, scope, lambda inner: f"++{n};", whole=True, count=n)
        return f"([&]() -> bool {{ {binds}I {n} = 0; {loops} return {n} {'==' if e.func == 'empty' else '!='} 0; }}())"
