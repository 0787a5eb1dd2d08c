"""Options in their order by construction (a part of ``kernel.Proc``'s decisions).

A decision's options are put in their order (``ordered`` in cxx/kernel_rt.hpp: sorted,
equal ones once) at every decision; a list already in order is checked element by
element (``ascending``) and taken as it is. Where the rules make the options so that
they cannot be out of order, that check is spared: a comprehension whose loops each
walk a list strictly ascending in the order of options (a board's cells in the board's
order, an enum's values, a range, one of these or nothing by a condition, one of these
filtered) and whose element is its loops' variables in the loops' order, with
constants between them (``[(c, "turn", q, d) for c in cells(b) if ... for q in Quadrant
for d in Turn]``: up to 288 moves; ``[c for c in cells(b) if ...]``).

Why such a list is strictly ascending: of two elements made one after the other, the
first loop whose variable differs took its next value, greater (its list ascends); the
parts before that variable's part are constants or variables of outer loops, which are
the same in both; so the later element is the greater, part by part as tuples are
ordered (``tup_cmp``). No part is none (a cell, an enum value or a number of a range
walked is never none; a literal is not).

The same holds further (``_ascending_comp``): a list may be a rule function's (its
body's, whatever its arguments), a list of ascending int literals (``[-1, 0, 1]``), a
comprehension so made (its list's order is its elements'), or, for a loop whose numbers
only step coordinates, one value (``[forward(s)]``) or one of two such lists by a
condition; a loop over one value (``for t in [cell(...)]``) binds, it does not step. A
part may be a cell ``cell(board, k: v, ...)`` bound so, where the condition says it is
not none (``t != none and ...``) and the board's cells ascend as their coordinates do in
the order given (a grid's by ``row:``, then ``col:``): it is then read as its
coordinates, each a constant of the loops before, or a loop's number times a positive
literal plus such a constant (``c.col + dc``, ``c.row + 2 * dr``), so
a rule's ``[[c, t] for c in own(s) for t in targets(c, s)]``, ``t`` a cell ahead
of ``c`` by ``dc`` in ``[-1, 0, 1]``, is made in its order. Any other part reads only
loops whose variables were met before it.

A loop's variable may also be an element of a rule function's list, called with an
earlier loop's variable, whose elements each start with that argument (a rule's ``[m for
c in own(s) for m in jumps(c)]``, ``jumps(c)`` making ``[c, t]``): read as that loop's
variable, then its own, as ``[c, t]`` written out would be (every list of one ``c``
before those of a greater one, each ascending). And a local holds a list in order where
every let and assignment of that name in the rules gives it one (``let options =
moves(s)``, then ``choose m from options``), the name bound by nothing else.

``reserve_size`` is the size a comprehension's vector is first given: its first loop's
list's size times the largest size of each later loop's list, where known before the
loops run (an enum's values, a range of literals, a list written out), so that the
vector is not grown as it is filled (a decision's 288 moves were reserved 72, then grown
twice). Where a later loop's size is not known, twice the first's, or the most the
same comprehension made lately (fading) if larger, where its builder keeps it
(``track_seen``, ``kept_seen``; cxx/kernel_lists.hpp, ``at_least_seen``): the moves
of a position of many pieces, more than two a piece later in a game, grew at every decision.
Capacity alone: no element, order or count of work depends on it.
"""
from __future__ import annotations

from itertools import pairwise
from typing import Any

from ...dsl import ast as ir
from ..core.cells import conjuncts
from ..core.hoist import roots

_MAX_RESERVE = 4096   # (a first guess no larger than this: a vector grows past it as before)
_DEPTH = 4   # (calls looked into, one within another, at most)


def _int_lit(e) -> int | None:
    """The value of an int literal (``-1`` too), else None."""
    if e.node == "UnOp" and e.op == "-" and e.operand.node == "IntLit":
        return -e.operand.value
    return e.value if e.node == "IntLit" else None


def _ascending_ints(items: list) -> bool:
    """Whether ``items`` are int literals, strictly ascending."""
    nums = [v for v in (_int_lit(x) for x in items) if v is not None]
    return len(nums) == len(items) and all(a < b for a, b in pairwise(nums))


def _body(gen, e):
    """The body of the rule function ``e`` calls, or None."""
    if e.node == "Call" and e.func in gen.c.functions and gen.facts.call_kind(e) == "function":
        return gen.c.functions[e.func].body
    return None


def _enum_named(gen, e) -> bool:
    """Whether ``e`` is an enum's name, read as the list of its values: no variable,
    constant, local or parameter of the rules is so named (it would hide the enum where
    it is bound, a list of any order: ``let Dir = [3, 1, 2]``); a comprehension's
    variables are _Loops'."""
    c = gen.c
    if e.node != "Var" or e.name not in c.enums:
        return False
    n = e.name
    return not (n in c.vars or n in c.consts or any(n in names for names in c.locals.values())
                or any(q.name == n for d in (*c.functions.values(), *c.procedures.values()) for q in d.params))


def _ascending_iter(gen, it, depth: int = 0) -> bool:
    """Whether the list ``it`` (a loop's) is strictly ascending in the order of options,
    with no none, however the state is."""
    if it.node == "BinOp" and it.op == "..":
        return True
    if _enum_named(gen, it):
        return True
    if it.node == "Var":   # (a local every let or assignment of which is so made)
        values = _bound_values(gen, it.name)
        return values is not None and bool(values) and depth < _DEPTH \
            and all(_ascending_iter(gen, v, depth + 1) for v in values)
    if it.node == "CondExpr":   # (one of two lists, each ascending or empty)
        return all((x.node == "ListLit" and not x.items) or _ascending_iter(gen, x, depth)
                   for x in (it.then, it.other))
    if it.node == "ListLit":   # (numbers written out, ascending)
        return _ascending_ints(it.items)
    if it.node == "Comprehension":   # (loops over ascending lists, their variables in order)
        return _ascending_comp(gen, it, depth)
    body = _body(gen, it)
    if body is not None:   # (a rule function's list: its body's, whatever its arguments)
        return depth < _DEPTH and _ascending_iter(gen, body, depth + 1)
    table = gen.facts.table_list(it)
    if table is None or table[0] != "cells":
        return False
    ids = list(gen.p.boards.get(table[1], []))
    return all(type(z) is int for z in ids) and ids == sorted(set(ids))


def _bound_values(gen, name: str) -> list | None:
    """The values the lets and assignments of the local ``name`` give it, anywhere in the
    rules (where a name is bound again in another block, those too); None where it is
    also a global, a constant, an enum, a parameter or a variable of a loop or a
    decision (bound otherwise), or is assigned an element."""
    c = gen.c
    if name in c.vars or name in c.consts or name in c.enums or name in c.zones:
        return None
    values = []
    for root in roots(c):
        for n in ir.walk(root):
            if n.node in ("Let", "Assign") and n.var == name and getattr(n, "player", None) is None:
                values.append(n.value)
            elif (getattr(n, "var", None) == name and n.node not in ("Let", "Assign")) \
                    or (n.node == "Param" and n.name == name) \
                    or (n.node == "IndexAssign" and name in _names(n.target)):
                return None
    return values


def _steps(gen, it, depth: int) -> bool:
    """Whether a loop's list ``it`` is ascending, none possibly among its values (a list
    of one value at most, ``[forward(s)]``, or one of two such lists by a condition):
    a loop whose numbers step a coordinate (``_coordinate``)."""
    if it.node == "ListLit" and len(it.items) <= 1:
        return True
    if it.node == "CondExpr":
        return all(_steps(gen, x, depth) for x in (it.then, it.other))
    body = _body(gen, it)
    if body is not None:
        return depth < _DEPTH and _steps(gen, body, depth + 1)
    return _ascending_iter(gen, it, depth)


def _names(e) -> set:
    return {n.name for n in ir.walk(e) if n.node == "Var"}


def _cells_in_key_order(gen, board: str, keys: tuple) -> bool:
    """Whether ``cell(board, k: v, ...)`` of the coordinates ``keys`` (numbers) gives the
    board's cells in ascending order as the coordinates ascend, the first key first
    (a grid's cells by ``row:``, then ``col:``)."""
    ns = gen.tables.ns
    first: dict[tuple, int] = {}   # (the coordinates' values -> the cell)
    cols = [ns.get(f"C_{k}") if k != "name" else None for k in keys]
    for z in gen.p.boards.get(board, []):
        if type(z) is not int or any(col is None or not 0 <= z < len(col) for col in cols):
            return False
        vals = tuple(col[z] for col in cols if col is not None)
        if any(type(v) is not int for v in vals):
            return False
        first.setdefault(vals, z)   # (the first cell wins, as cell() finds it)
    ids = [first[k] for k in sorted(first)]
    return all(a < b for a, b in pairwise(ids))


class _Loops:
    """A comprehension's loops as ``_ascending_comp`` sees them: the loops whose lists
    step (``drivers``, in order) and what each name bound by a loop depends on."""

    def __init__(self, gen, comp, depth: int):
        self.gen = gen
        self.drivers: list[tuple[str, bool]] = []   # (a loop's variable, its list holds no none)
        self.deps: dict[str, set[int]] = {}
        self.lets: dict[str, Any] = {}
        self.iters: dict[str, Any] = {}   # (a loop that steps: its list)
        # (each loop's variable its own, none an enum's name, which it would hide)
        self.ok = len({cl.var for cl in comp.clauses}) == len(comp.clauses) \
            and not any(cl.var in gen.c.enums for cl in comp.clauses)
        for cl in comp.clauses:
            deps = set().union(*(self.deps[n] for n in _names(cl.iter) if n in self.deps))
            if cl.iter.node == "ListLit" and len(cl.iter.items) == 1:   # (one value: bound)
                self.lets[cl.var] = cl.iter.items[0]
                self.deps[cl.var] = deps
            elif _steps(gen, cl.iter, depth):   # (its list may read the loops before it)
                self.deps[cl.var] = {len(self.drivers)}
                self.iters[cl.var] = cl.iter
                self.drivers.append((cl.var, _ascending_iter(gen, cl.iter, depth)))
            else:
                self.ok = False

    def depends(self, e) -> set:
        return set().union(*(self.deps[n] for n in _names(e) if n in self.deps))

    def driver(self, e) -> int | None:
        """The loop whose variable ``e`` is (a loop that steps), else None."""
        if e.node == "Var" and e.name in self.deps and e.name not in self.lets:
            return next(iter(self.deps[e.name]))
        return None

    def coordinate(self, e) -> tuple:
        """A coordinate as ``(the loop it ascends with or None, the loops it reads
        otherwise)``: ``dc``, ``c.col + dc``, ``c.row + 2 * dr``, ``dr - 1``."""
        if e.node == "BinOp" and e.op == "*":
            k, v = (_int_lit(e.left), e.right) if _int_lit(e.left) is not None else (_int_lit(e.right), e.left)
            if k is not None and k > 0 and self.driver(v) is not None:
                return self.driver(v), set()
        if e.node == "BinOp" and e.op in ("+", "-"):
            sides = [(e.left, e.right)] + ([(e.right, e.left)] if e.op == "+" else [])
            for var_side, rest in sides:
                d, other = self.coordinate(var_side)
                if d is not None and not other:
                    return d, self.depends(rest)
        d = self.driver(e)
        return (d, set()) if d is not None else (None, self.depends(e))

    def atoms(self, part, guarded: set) -> list | None:
        """The parts of an element part, in their order: a loop's variable, a cell by
        its coordinates where the cells ascend with them (never none: ``t != none`` in
        the condition), any other value by what it reads; None where it may be none."""
        if part.node == "Var" and part.name in self.lets and self.lets[part.name].node == "CellAt":
            cell = self.lets[part.name]
            keys = tuple(a.name for a in cell.coords)
            board = self.gen.ty(cell.board).arg
            if part.name not in guarded or not _cells_in_key_order(self.gen, board, keys):
                return None
            return [self.coordinate(a.value) for a in cell.coords]
        d = self.driver(part)
        if d is not None and self.drivers[d][1]:
            return self.led(part.name, d) or [(d, set())]
        if d is not None:
            return None
        return [(None, self.depends(part))]

    def led(self, var: str, d: int) -> list | None:
        """A loop's variable (of loop ``d``, its list ascending) over the list of a rule
        function called with an earlier loop's variable (``for m in jumps(c)``), each of
        whose elements starts with that argument (``[c, t] for ...``): read as that loop's
        variable, then its own (the lists of one ``c`` before those of a greater one,
        each ascending). Else None."""
        it = self.iters[var]
        body = _body(self.gen, it)
        if body is None or body.node != "Comprehension" or body.elem.node not in ("TupleLit", "ListLit") \
                or not body.elem.items or body.elem.items[0].node != "Var":
            return None
        params = [q.name for q in self.gen.c.functions[it.func].params]
        first = body.elem.items[0].name
        if first not in params or any(cl.var == first for cl in body.clauses) or len(it.args) != len(params):
            return None
        lead = self.driver(it.args[params.index(first)])
        if lead is None or lead >= d or not self.drivers[lead][1]:
            return None
        return [(lead, set()), (d, set())]


def _guarded(cond) -> set:
    """The names the condition ``cond`` says are not none (``t != none and ...``)."""
    out = set()
    for c in conjuncts(cond) if cond is not None else []:
        if c.node == "BinOp" and c.op == "!=":
            for a, b in ((c.left, c.right), (c.right, c.left)):
                if a.node == "Var" and b.node == "NoneLit":
                    out.add(a.name)
    return out


def _ascending_comp(gen, comp, depth: int = 0) -> bool:
    """Whether the comprehension ``comp`` makes its elements strictly ascending in the
    order of options, none of them none: of two elements made one after the other, the
    first loop that steps whose variable differs took its next value, greater; every
    part of the element before the first that reads that loop reads only loops before
    it (the same in both), and that part ascends with it (the loop's variable, or a cell
    whose coordinates do, the board's cells in the order of their coordinates), so the
    later element is the greater, part by part. Each loop that steps must be read so."""
    loops = _Loops(gen, comp, depth)
    if not loops.ok or not loops.drivers:
        return False
    parts = comp.elem.items if comp.elem.node in ("TupleLit", "ListLit") else [comp.elem]
    guarded, seen = _guarded(comp.cond), 0
    for part in parts:
        atoms = loops.atoms(part, guarded)
        if atoms is None:
            return False
        for d, reads in atoms:
            if any(r >= seen for r in reads):
                return False
            if d is not None and d == seen:
                seen += 1
            elif d is not None and d > seen:
                return False
    return seen == len(loops.drivers)


def ascending_options(gen, e) -> bool:
    """Whether the options ``e`` (a decision's) are made strictly ascending in the order
    of options, no none among them (see the module's docstring)."""
    return _ascending_iter(gen, e)


def _static_size(gen, it) -> int | None:
    """The largest size of the list ``it`` known before any loop runs, or None."""
    if it.node == "Var" and it.name in gen.c.enums:
        return len(gen.c.enums[it.name])
    if it.node == "BinOp" and it.op == ".." and it.left.node == "IntLit" and it.right.node == "IntLit":
        return max(0, it.right.value - it.left.value + 1)
    if it.node == "ListLit":
        return len(it.items)
    if it.node == "CondExpr":
        a, b = _static_size(gen, it.then), _static_size(gen, it.other)
        return None if a is None or b is None else max(a, b)
    return None


def reserve_size(gen, comp, xs: str, count: bool = False) -> str:
    """The C++ of the size first reserved for the vector a comprehension fills, its first
    loop's list ``xs`` (see the module's docstring): twice that list's size where a
    later loop's size is not known. ``count``: ``xs`` is the C++ of that size."""
    if not count:
        xs = f"{xs}.size()"
    n = 1
    for cl in comp.clauses[1:]:
        k = _static_size(gen, cl.iter)
        if k is None:
            sites = gen.__dict__.get("seen_sites", {})
            if id(comp) not in sites:
                return f"2 * {xs}"
            seen = sites[id(comp)] = gen.tables.table(("SEEN", id(comp)), lambda t: f"static size_t {t} = 0;")
            return f"at_least_seen(2 * {xs}, {seen})"
        n *= max(k, 1)
    if n == 1:
        return xs
    return f"std::min<size_t>({n} * {xs}, {_MAX_RESERVE})"


def track_seen(gen, comp) -> None:
    """Says that the builder of ``comp`` keeps the size it made (``kept_seen``), so that
    ``reserve_size`` may guess from the sizes it made (cxx/kernel_lists.hpp, keep_seen)."""
    gen.__dict__.setdefault("seen_sites", {})[id(comp)] = None


def kept_seen(gen, comp, out: str) -> str:
    """The C++ that keeps the size of ``out``, the vector ``comp`` filled, for its next
    ``reserve_size`` (none where that guessed none from it)."""
    seen = gen.__dict__.get("seen_sites", {}).pop(id(comp), None)
    return f"keep_seen({seen}, {out}.size(), {_MAX_RESERVE}); " if seen else ""
