"""A failure inside rule code as a rule error: Python's failure told in plain words
(``_describe``), and located at the rule, or the ruleset function, where it happened
(``_locate``, ``_within``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import inplace
from .helpers import BudgetError, RuleError, _runaway

if TYPE_CHECKING:
    from ..compiler.compile import Program


def _error(e: Exception) -> RuleError:
    """A Python failure inside rule code as a rule error (a budget error for a recursion
    or memory that ran out)."""
    if isinstance(e, (RecursionError, MemoryError)):
        err = BudgetError(_describe(e))
    else:
        err = RuleError(_describe(e))
    return err


def _describe(e: Exception) -> str:
    """A Python failure inside rule code in plain words (never Python's own text, except
    for a failure Meeple did not foresee, which is a bug of Meeple's and says so)."""
    if isinstance(e, RecursionError):
        names = _runaway([n for names in _frame_functions(e.__traceback__) for n in names])
        depth = "(Python's recursion limit; see the 'depth' budget)"
        if len(names) == 1:
            return f"function '{names[0]}' calls itself too deeply (endless recursion?) {depth}"
        if names:
            listed = ", ".join(f"'{n}'" for n in names)
            return f"functions {listed} call each other too deeply (endless recursion?) {depth}"
        return f"functions call each other too deeply (endless recursion?) {depth}"
    if isinstance(e, MemoryError):
        return "the rules ran out of memory (lower the 'work' budget, or simplify the rule)"
    text = str(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, (TypeError, AttributeError, IndexError, KeyError)) and "None" in text:
        return "a value is missing (none) where an item, cell, player or number is needed"
    if isinstance(e, IndexError):
        return "an index is outside its list"
    if isinstance(e, OverflowError):
        return "a number is too large"
    if isinstance(e, ValueError) and "not in list" in text:
        return "the item or value is not where the rule looks for it"
    return (f"the rule failed in a way Meeple does not explain yet; this is a bug in Meeple, "
            f"please report it with the ruleset ({type(e).__name__}: {e})")


_HINTS = {
    "division by zero": "check the divisor first: 'if n != 0 { ... }', or 'if n == 0 then 0 else x / n'",
    "a value is missing (none) where an item, cell, player or number is needed":
        "a value can be none here (an empty zone's top, an empty cell, a variable set to "
        "none): test it first, e.g. 'if occupied(z) { ... }' or 'if x != none { ... }'",
    "an index is outside its list": "lists count from 0: the last element of xs is "
                                    "xs[size(xs) - 1]; check an index first, e.g. "
                                    "'if i < size(xs) { ... }'",
}


def _rule_functions(tb) -> list[str]:
    """The ruleset functions (generated as ``F_name``, or written in place of their
    calls: play/inplace.py) in a traceback, each once, in the order of their first call."""
    return list(dict.fromkeys(name for names in _frame_functions(tb) for name in names))


def _innermost_function(tb) -> str | None:
    """The ruleset function a failure is in: the innermost call on the stack (with f
    calling g calling f again, a failure in the last f is f's, though g is the last
    function of ``_rule_functions``). A frame of other code (a helper of the runtime's,
    a comprehension's in a function) is in the function of the frame that called it;
    none where no frame is in one (the failure is in a rule's own code, an argument of
    a function written in place there included)."""
    inner = None
    for names in _frame_functions(tb):
        if names:
            inner = names[-1]
    return inner


def _frame_functions(tb):
    """Per frame of a traceback, outermost first: the ruleset functions it is in at the
    instruction it runs (its own, ``F_name``, then those written in place there,
    outermost first; none for a frame of other code)."""
    while tb is not None:
        code = tb.tb_frame.f_code
        own = [code.co_name[2:]] if code.co_name.startswith("F_") else []
        yield own + inplace.functions_at(code, tb.tb_lasti)
        tb = tb.tb_next


def _within(what: str, decl, e: Exception, prog: Program | None = None) -> RuleError:
    """An error in an expression run outside a procedure (the end condition, the
    scoring...), located at its declaration when known."""
    err = e if isinstance(e, RuleError) else _error(e)
    return _placed(err, what, getattr(decl, "span", None), e, prog)


def _locate(e: RuleError, proc, pc: int, cause: Exception | None = None,
            prog: Program | None = None) -> RuleError:
    span = proc.lines[pc] if 0 <= pc < len(proc.lines) else None
    name = proc.name if proc.name in ("setup", "turn", "at end") else f"procedure {proc.name}"
    return _placed(e, name, span, cause, prog)


def _placed(err: RuleError, rule: str, span, cause: Exception | None,
            prog: Program | None) -> RuleError:
    """The error, located: in the innermost ruleset function that failed when there is
    one (its body's place; the rule that called it is named too), else at ``span``."""
    if err.span is not None:  # already located (an error inside a nested rule)
        return err
    where = _where(span)
    detail = err.detail
    fn = None
    # a budget (recursion depth, calls) names its functions itself: it is placed at the
    # statement that started them
    if cause is not None and not isinstance(err, BudgetError):
        fn = _innermost_function(cause.__traceback__)
    if fn is not None and span is not None and where:
        detail = f"{detail} (called from {rule} at {where})"
        rule, span = f"function {fn}", None
        decl = prog.checked.functions.get(fn) if prog is not None else None
        if decl is not None:
            span = decl.body.span
        where = _where(span)
    out = type(err)(f"in {rule}{' at ' + where if where else ''}: {detail}", err.code,
                    err.hint or _hint_for(err.detail))
    out.detail, out.rule, out.span = detail, rule, span if where else None
    return out


def _hint_for(detail: str) -> str | None:
    if detail.startswith("index ") and "is outside a list" in detail:
        detail = "an index is outside its list"
    return _HINTS.get(detail)


def _where(span) -> str:
    return f"{span.file}:{span.line}:{span.column}" if span is not None and span.line else ""
