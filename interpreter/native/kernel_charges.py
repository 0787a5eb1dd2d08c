"""The work a range counts, where its ends are numbers written out (a part of
``kernel.Gen``, issue 36).

A range ``a..b`` counts its elements against the work budget when it is evaluated
(docs/language.md, 15.3; ``helpers._range``): ``range_work(s, a, b)`` computes their
number at run time, bails where it is more than the range budget, and counts it where it
is more than none. Where both ends are numbers written out (``for k in 0..4``,
``[0 for k in 1..36]``, a five-in-a-row test's ranges), that number is known when the
kernel is written: the range counts it as one constant (``W(s, 5)``), or nothing where
the range is empty, with no call, no arithmetic checked and no test of the range budget
(a range longer than that budget is left to ``range_work``, which bails as before). The
same work at the same place: nothing moves, so no budget runs out elsewhere."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .kernel_reads import counters


class RangeCharges:
    """``Gen``'s counting of a range's work where its ends are known (see the module)."""

    if TYPE_CHECKING:
        b: Any

        def known_value(self, e, depth: int = 0): ...

    def range_size(self, it) -> int | None:
        """The number of elements of the range ``it`` (``a..b``, at least none), where
        both its ends are numbers written out and it is within the range budget; else
        None."""
        lo, hi = (self.known_value(x) if x.node == "IntLit" or (x.node == "UnOp" and x.operand.node == "IntLit")
                  else None for x in (it.left, it.right))   # (numbers written out: kernel_unroll.py)
        if type(lo) is not int or type(hi) is not int or hi - lo + 1 > self.b.range:
            return None
        return max(0, hi - lo + 1)

    def range_charge(self, it, lo: str, hi: str, sc: dict) -> str:
        """The C++ expression that counts the work of the range ``it`` (its ends' C++
        ``lo``, ``hi``): a constant where its size is known (``range_size``), nothing
        (an empty text) for an empty one; else ``range_work``."""
        n = self.range_size(it)
        if n is None:
            return f"range_work({counters(sc)}, {lo}, {hi})"
        return f"W({counters(sc)}, {n})" if n else ""
