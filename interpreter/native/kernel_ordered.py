"""Options in their order by construction (a part of ``kernel.Proc``'s decisions).

A decision's options are put in their order (``ordered`` in cxx/kernel_rt.hpp: sorted,
equal ones once) at every decision; a list already in order is checked element by
element (``ascending``) and taken as it is. Where the rules make the options so that
they cannot be out of order, that check is spared: a comprehension whose loops each
walk a list strictly ascending in the order of options (a board's cells in the board's
order, an enum's values, a range, one of these or nothing by a condition, one of these
filtered) and whose element is its loops' variables in the loops' order, with
constants between them (``[(c, "turn", q, d) for c in cells(b) if ... for q in Quadrant
for d in Turn]``: pentago's 288 moves; ``[c for c in cells(b) if ...]``).

Why such a list is strictly ascending: of two elements made one after the other, the
first loop whose variable differs took its next value, greater (its list ascends); the
parts before that variable's part are constants or variables of outer loops, which are
the same in both; so the later element is the greater, part by part as tuples are
ordered (``tup_cmp``). No part is none (a cell, an enum value or a number of a range
walked is never none; a literal is not).

``reserve_size`` is the size a comprehension's vector is first given: its first loop's
list's size times the largest size of each later loop's list, where known before the
loops run (an enum's values, a range of literals, a list written out), so that the
vector is not grown as it is filled (pentago's 288 moves were reserved 72, then grown
twice).
"""
from __future__ import annotations

_LITERALS = ("IntLit", "StrLit", "BoolLit")
_MAX_RESERVE = 4096   # (a first guess no larger than this: a vector grows past it as before)


def _ascending_iter(gen, it) -> bool:
    """Whether the list ``it`` (a loop's) is strictly ascending in the order of options,
    with no none, however the state is."""
    if it.node == "BinOp" and it.op == "..":
        return True
    if it.node == "Var" and it.name in gen.c.enums:
        return True
    if it.node == "CondExpr":   # (one of two lists, each ascending or empty)
        return all((x.node == "ListLit" and not x.items) or _ascending_iter(gen, x) for x in (it.then, it.other))
    if it.node == "Comprehension":   # (an ascending list filtered)
        return len(it.clauses) == 1 and it.elem.node == "Var" and it.elem.name == it.clauses[0].var \
            and _ascending_iter(gen, it.clauses[0].iter)
    table = gen.facts.table_list(it)
    if table is None or table[0] != "cells":
        return False
    ids = list(gen.p.boards.get(table[1], []))
    return all(type(z) is int for z in ids) and ids == sorted(set(ids))


def ascending_options(gen, e) -> bool:
    """Whether the options ``e`` (a decision's) are made strictly ascending in the order
    of options, no none among them (see the module's docstring)."""
    if e.node != "Comprehension":
        return False
    names = [cl.var for cl in e.clauses]
    if len(set(names)) != len(names) or not all(_ascending_iter(gen, cl.iter) for cl in e.clauses):
        return False
    parts = e.elem.items if e.elem.node == "TupleLit" else [e.elem]
    seen = []
    for x in parts:
        if x.node == "Var" and x.name in names:
            seen.append(x.name)
        elif x.node not in _LITERALS:
            return False
    return seen == names


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
            return f"2 * {xs}"
        n *= max(k, 1)
    if n == 1:
        return xs
    return f"std::min<size_t>({n} * {xs}, {_MAX_RESERVE})"
