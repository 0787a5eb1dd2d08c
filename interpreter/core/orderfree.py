"""Whether a value is the same whatever the order of a list it reads, a pass over the
checked IR (asked through ``facts.Facts.order_free_arg``): what the fast code
(``codegen.ExprCompiler._perm_arg``) asks before it computes a list in any order (the
cells of a component in the order found from one of them, see ``ExprCompiler.components``).

``perm``: the same elements, each as many times, in any order, will do. A list named
``x`` may be read in any order where it is read only as the iterable of a comprehension's
loops, by size or by distinct (as dsl/builtins.py says of each built-in: ``order``), or
as such an argument of a rule function. (A comprehension over a list in another order
makes the same elements, each as many times, in another order; an error, or the work
budget running out, happens in any order, and the fast code then runs the
straightforward code again.)"""
from __future__ import annotations

from ...dsl import ast as ir
from ...dsl.builtins import BUILTINS

_DEPTH = 8   # nested expressions and calls looked into at most


def order_blind(f: str, perm: bool) -> bool:
    """Whether the built-in f's value of a list is the same whatever the list's order."""
    order = BUILTINS[f].order
    return order == "size" or (order == "elements" and perm)


def order_free(c, e, x: str, perm: bool, depth: int = 0) -> bool:
    """Whether the value of ``e`` is the same (see ``perm``) whatever the order of the
    list named ``x``; ``c``: the checked program."""
    if not any(n.node == "Var" and n.name == x for n in ir.walk(e)):
        return True
    if depth >= _DEPTH or any(n.node == "ForClause" and n.var == x for n in ir.walk(e)):
        return False
    rule = _RULES.get(e.node)
    return rule is not None and rule(c, e, x, perm, depth + 1)


def _comprehension(c, e, x, perm, d) -> bool:
    for cl in e.clauses:
        if not (cl.iter.node == "Var" and cl.iter.name == x) and not order_free(c, cl.iter, x, False, d):
            return False
    return perm and (e.cond is None or order_free(c, e.cond, x, False, d)) \
        and order_free(c, e.elem, x, False, d)


def _call(c, e, x, perm, d) -> bool:
    if e.func in c.functions:
        fd = c.functions[e.func]
        return all(order_free(c, a, x, False, d)
                   or (order_free(c, a, x, True, d) and order_free(c, fd.body, p.name, perm, d))
                   for p, a in zip(fd.params, e.args))
    if c.calls_builtin(e.func) and order_blind(e.func, perm):
        return order_free(c, e.args[0], x, True, d)
    return False


_RULES = {
    "Var": lambda c, e, x, perm, d: perm,
    "Comprehension": _comprehension,
    "Aggregate": lambda c, e, x, perm, d: e.func == "count" and order_free(c, e.comp, x, True, d),
    "Call": _call,
    "BinOp": lambda c, e, x, perm, d: e.op != ".." and order_free(c, e.left, x, False, d)
    and order_free(c, e.right, x, False, d),
    "UnOp": lambda c, e, x, perm, d: order_free(c, e.operand, x, False, d),
    "CondExpr": lambda c, e, x, perm, d: order_free(c, e.cond, x, False, d)
    and order_free(c, e.then, x, perm, d) and order_free(c, e.other, x, perm, d),
}
