"""Loops over a short list whose elements are known when the kernel is written (a part
of ``kernel.Gen``): ``for d in dirs()`` where ``dirs()`` is ``[[-1, -1], [-1, 0], ...]``,
``for dc in [-1, 1]``. The loop is written out, element by element, each turn's body
compiled with its element known: ``d[0]`` is the number itself (no index checked, no
none tested), which the C++ compiler folds into what the body does with it (a walk
along a ray in line, kernel_walks.py: its steps known, its table's index computed
once). The same work and calls: the list is still evaluated (its calls counted) and
counted against the work budget as the loop would count it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

UNROLL_MAX = 8     # elements of a list written out one by one at most
_DEPTH = 8         # functions looked through for the value, one within another
_BIG = 1 << 62
RANGE_KEPT = 4096  # numbers of a range written out at most, a list made once


class KnownLoops:
    """``Gen``'s loops over lists known in advance, written out (see the module)."""

    if TYPE_CHECKING:
        c: Any
        facts: Any
        recursive: set[str]
        tables: Any

        def fresh(self, base: str) -> str: ...
        def ct(self, t) -> str: ...
        def expr(self, e, sc: dict, want=None) -> str: ...
        def known_param(self, e) -> Any: ...
        def range_charge(self, it, lo: str, hi: str, sc: dict) -> str: ...
        def charge(self, sc: dict, n: str | int) -> str: ...

    def known_value(self, e, depth: int = 0):
        """The value of ``e`` where it is known before any game: a number written out
        (or negated), a list of such written out, or the call of a rule function without
        parameters whose body is one (not one that may call itself); else None."""
        n = e.node
        if n == "IntLit":
            return e.value if type(e.value) is int and -_BIG < e.value < _BIG else None
        if n == "UnOp" and e.op == "-":
            v = self.known_value(e.operand, depth)
            return -v if type(v) is int else None
        if n == "ListLit":
            vals = [self.known_value(x, depth) for x in e.items]
            return None if any(v is None for v in vals) else vals
        if n == "Call" and not e.args and depth < _DEPTH and self.facts.call_kind(e) == "function" \
                and e.func not in self.recursive:
            return self.known_value(self.c.functions[e.func].body, depth + 1)
        if n == "BinOp" and e.op == "+" and depth < _DEPTH:   # (a join of such lists)
            a, b = self.known_value(e.left, depth + 1), self.known_value(e.right, depth + 1)
            return a + b if isinstance(a, list) and isinstance(b, list) else None
        if n == "Var":   # (a parameter of a body compiled in place: kernel_ranged.py)
            return self.known_param(e)
        return None

    def _known(self) -> dict[str, Any]:
        """The C++ names of loop variables whose value is known where they are read
        (the list of numbers of an element written out), while its body is compiled."""
        return self.__dict__.setdefault("known_vars", {})

    def unrolled_loop(self, it, sc: dict, var_el_t: tuple, inside, work_counted: bool, sized,
                      room=None) -> str | None:
        """The loop over ``it`` written out element by element (``var_el_t``: its
        variable, the C++ type of the elements, the list's type; ``inside()``: the body,
        compiled once per element), where ``it``'s value is known: a list of at most
        UNROLL_MAX numbers, or of lists of numbers. ``work_counted``: the list counts
        its own work (else counted here, as ``Gen.loops`` does); ``sized(n)``: the
        statement ``loops`` puts before a loop of ``n`` elements; ``room(xs)``: the one that
        reserves a vector's room for the loops over the list ``xs``. Else None."""
        var, el, t = var_el_t
        vals = self.known_value(it)
        if not _unrollable(vals) or el not in ("I", "List<I>"):
            return None
        xs = self.fresh("xs")
        head = f"{{ const {self.ct(t)}& {xs} = {self.expr(it, sc, t)}; "
        # (its length known: counted as a constant, the list still evaluated and bound)
        head += ("" if work_counted else self.charge(sc, len(vals))) + sized(str(len(vals))) + (room(xs) if room else "")
        known = self._known()
        turns = []
        for k, v in enumerate(vals):
            bind = f"const I {var} = ((I){v}LL); " if el == "I" else f"const List<I>& {var} = {xs}[{k}]; "
            known[var] = v
            try:
                turns.append(f"{{ {bind}{{ {inside()} }} }}")
            finally:
                known.pop(var, None)
        return head + " ".join(turns) + " }"

    def written_out(self, comp) -> bool:
        """Whether each loop of the comprehension ``comp`` is written out element by
        element (``unrolled_loop``: a list of numbers, or of lists of numbers, known): an
        ``any`` or ``all`` over it is put in line where it is evaluated (as over a range
        of a few literals, ``primitives.short_ranges``), its function's arguments in
        registers, not read again through the lambda's captures after each step."""
        return all(_unrollable(self.known_value(cl.iter)) for cl in comp.clauses)

    def known_index(self, e, sc: dict) -> str | None:
        """``d[k]`` where ``d`` is the variable of a loop written out (its element, a list
        of numbers, known) and ``k`` a number within it: that number; else None."""
        obj = e.obj
        if obj.node != "Var" or obj.name not in sc:
            return None
        v = self._known().get(sc[obj.name][0])
        k = self.known_value(e.index)
        if not isinstance(v, list) or type(k) is not int or not 0 <= k < len(v):
            return None
        return f"((I){v[k]}LL)"

    def range_list(self, e, sc: dict) -> str | None:
        """``a..b``, a list of numbers: where both ends are numbers written out (``1..10``,
        a die), the list made once when the module loads and shared (its work still
        counted, its length checked, as ``irange`` does); else None (made where it is
        read: its form, core/operators.py)."""
        lo, hi = (self.known_value(x) if x.node in ("IntLit", "UnOp") else None for x in (e.left, e.right))
        if type(lo) is not int or type(hi) is not int or not 0 <= hi - lo < RANGE_KEPT:
            return None
        n = hi - lo + 1
        name = self.tables.table(
            ("RANGE", lo, hi),
            lambda t: f"static List<I> {t}; static const I {t}_d[{n}] = {{{', '.join(f'{v}LL' for v in range(lo, hi + 1))}}};",
            lambda t: f"{t} = List<I>::of_n({t}_d, {n});")
        return f"({self.range_charge(e, f'{lo}LL', f'{hi}LL', sc)}, List<I>({name}))"   # (never empty)


def _unrollable(vals) -> bool:
    """Whether a value known (``known_value``) is a list a loop is written out over: at
    most UNROLL_MAX numbers, or lists of numbers."""
    return isinstance(vals, list) and 0 < len(vals) <= UNROLL_MAX \
        and all(type(v) is int or (isinstance(v, list) and all(type(x) is int for x in v)) for v in vals)
