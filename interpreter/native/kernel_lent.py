"""Lists lent to the rule functions that only read them (a part of ``kernel.Gen``).

``[x for x in xs if cond]`` (numbers or ids, ``Gen._Comprehension``'s compact form)
passed straight to a plain call of a rule function whose parameter is only read there
(a rule's ``dead([c for c in cells(square) if occupied(c) and ...])``) is lent, not
made: its elements are written in a buffer of the caller's frame, a ``Lent`` (below)
that lives until the end of the call's full expression, and the function is passed a
list whose header is in that frame too, counted so that no holder ever gives it back.
A list made took a header and a buffer from the heap for some 30 cells and gave them
back after one reading of its size, its first element and two loops.

The parameter is only read where each mention of it in the function's body is the
argument of ``size``, ``empty``, ``first`` or ``last``, the list of an index ``p[i]``,
the list of a loop (``for c in p``), the right of ``in`` or ``not in``, or the
argument of a rule function whose own parameter is only read (the same test, through
its body), that function never kept nor recursive; no name of the body binds the same
name. Nothing then copies the list, so nothing holds the lent header past the call.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl import ast as ir

READS = ("size", "empty", "first", "last")   # (built-ins that read a list and keep nothing of it)

# (the buffer and header of a lent list: a Grow, written as the compact comprehension
# writes it, then lent as a List<T> whose header is here, its count never reaching 0:
# never given back, never appended to in place; a copy would outlive it, which the
# printer's proof above rules out; its constructor its own, so that ``Lent<T>()`` leaves
# the buffer as a Grow's is, unwritten, where the one the compiler gives zeroed its 256
# bytes at every call)
LENT_CXX = """template <class T>
struct Lent : Grow<T> {
    ListRep<T> r;
    List<T> l;
    Lent() {}
    const List<T>& lend() {
        size_t k = this->n;
        if (k <= List<T>::HANDLE) {
            l = List<T>::of_n(this->d, k);
            return l;
        }
        if (k > UINT32_MAX) bail();
        r.rc = 1 << 30;
        r.n = (uint32_t)k;
        r.d = this->d;
        l.h.p = &r;
        if constexpr (List<T>::HANDLE > 0) l.h.k = (uint32_t)k;
        return l;
    }
};"""


class LentLists:
    """``Gen``'s lists lent to functions that only read them (see the module)."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        tables: Any
        recursive: set[str]
        counting: set[str]

        def called_plainly(self, e) -> bool: ...
        def pure_recursive(self, name: str) -> bool: ...
        def kept(self, name: str) -> bool: ...
        def param_type(self, p) -> Any: ...

    def lend_args(self, e) -> set[int]:
        """The ids of the arguments of the call ``e`` of a rule function that may be
        lent: comprehensions passed for a list parameter only read, the call plain."""
        if not self.called_plainly(e):   # (no keep of its values by its arguments: kernel_memo.py)
            return set()
        fd = self.c.functions[e.func]
        return {id(a) for p, a in zip(fd.params, e.args)
                if a.node == "Comprehension" and self.param_type(p).tag == "list" and self.only_read(e.func, p.name)}

    def lent_type(self, el: str) -> str:
        """``Lent<el>``, its template written once in this kernel's source."""
        self.tables.table(("LENT",), lambda _n: LENT_CXX)
        return f"Lent<{el}>"

    def _lends_plainly(self, f: str) -> bool:
        return f not in self.recursive and f not in self.counting and not self.pure_recursive(f) \
            and not self.kept(f)

    def only_read(self, f: str, param: str, seen: frozenset = frozenset()) -> bool:
        """Whether the rule function ``f`` only reads its parameter ``param`` (see the
        module); ``seen``: the functions whose test is under way (a cycle: no)."""
        known = self.__dict__.setdefault("only_read_of", {})
        if (f, param) in known:
            return known[f, param]
        if f in seen:
            return False
        ok = self._reads_only(self.c.functions[f].body, param, seen | {f})
        known[f, param] = ok
        return ok

    def _reads_only(self, body, param: str, seen: frozenset) -> bool:
        read: set[int] = set()
        uses: list = []
        for n in ir.walk(body):
            if getattr(n, "var", None) == param or (n.node == "Let" and n.name == param):
                return False
            if n.node == "Var" and n.name == param:
                uses.append(n)
            else:
                read.update(self._reading(n, param, seen))
        return all(id(v) in read for v in uses)

    def _reading(self, n, param: str, seen: frozenset) -> list[int]:
        """The ids of the mentions of ``param`` just below ``n`` that ``n`` only reads."""
        def mine(x) -> bool:
            return x.node == "Var" and x.name == param
        match n.node:
            case "Index" if mine(n.obj):
                return [id(n.obj)]
            case "ForClause" if mine(n.iter):
                return [id(n.iter)]
            case "BinOp" if n.op in ("in", "not in") and mine(n.right):
                return [id(n.right)]
            case "Call":
                kind = self.facts.call_kind(n)
                if kind == "builtin" and n.func in READS and len(n.args) == 1 and mine(n.args[0]):
                    return [id(n.args[0])]
                if kind == "function" and self._lends_plainly(n.func):
                    ps = self.c.functions[n.func].params
                    return [id(a) for p, a in zip(ps, n.args)
                            if mine(a) and self.only_read(n.func, p.name, seen)]
        return []
