"""The work of a rule function's straight-line part tallied in a register, charged once
when it returns (a part of ``kernel.Gen``, issue 36).

``W(s, n)`` counts ``n`` against the work budget where the rules count it: ``s.work``
lowered, stored and tested at each. A ``legal(c, s)`` over eight directions counted nine
times a cell (the directions' list, then each direction's walk), each a load, a store
and a test of the state's counter, a sixth of the random games' instructions. Where a rule
function's body counts work outside any loop of its own (a loop written out element by
element is no loop: kernel_unroll.py), it is compiled with a tally, a local integer
(``tw_``) that those counts add to, and the walks of ``until`` it passes on
(kernel_walk_views.py, ``uV_name``, given the tally) add theirs; the tally is charged
with one ``W`` when the body's value is made (``tallied``). Inside a loop the counts go
to the state as before, so the work waiting in a tally is bounded by the body's text and
the lists it walks once (no loop runs longer for want of a test); but for a loop over a
range of at most ``FEW_TURNS`` turns known (``1..3``, the rows of a 3 × 3 board; with those of
the tallied ranges around it, multiplied, at most ``FEW_TURNS`` too) that takes
every turn (a count, a sum, a list; not a ``first`` or an ``any``, which may stop at
the first turn, where a tally would cost more than it spares) and whose body counts
work: its body's counts are tallied too, a few times the text's (a function that counts
the cells of each of three rows charges once a call, not four times).

The same work is counted, all of it before the function returns: only where the budget
is found spent moves, within the evaluation of one function, which changes nothing (the
kernel stops and Python plays the move, docs/performance.md; kernel_products.py counts
alike). A body whose C++ reads the work counter (a keep's entry measuring its work, a
count made again, kernel_memo.py, kernel_early.py) is compiled without a tally: its
measure would miss what the tally holds."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .kernel_reads import counters
from .kernel_types import INT

TALLY = "$tally"    # the scope's key of the tally (no name of the rules starts with $)
TALLY_NAME = "tw_"  # the tally's C++ name (one per function: its body's lambda's parameter)
# C++ that reads the work counter, written by a helper or a keep: no tally beside it
_READS_WORK = (".work", "counted_again")
FEW_TURNS = 16   # (the turns of a range, known, whose body's work is tallied: at most)
TURNS = "$turns"  # the scope's key of the turns of the tallied ranges around (their product)


def reads_work(text: str) -> bool:
    """Whether the C++ ``text`` reads the work counter (a keep's entry measuring its
    work, a count made again): no tally may hold work it measures."""
    return any(r in text for r in _READS_WORK)


def untallied(sc: dict) -> dict:
    """The scope ``sc`` without its tally (a loop's body: its work counted at each turn,
    as before)."""
    return {k: v for k, v in sc.items() if k != TALLY} if TALLY in sc else sc


class WorkTallies:
    """``Gen``'s rule function bodies compiled with a tally (see the module)."""

    if TYPE_CHECKING:
        tables: Any

        def range_size(self, it) -> int | None: ...

        def range_charge(self, it, lo: str, hi: str, sc: dict) -> str: ...

        def expr(self, e, sc: dict, want=None) -> str: ...

        def fresh(self, base: str) -> str: ...

    def range_loop(self, it, inner: dict, deeper: dict, var: str, rest: Callable[[dict], str], whole: bool,
                   sized: Callable[[str], str]) -> str:
        """The C++ loop over the range ``it`` in the scope ``inner`` (``var``: its
        variable, ``deeper``: the scope with it; ``rest(scope)``: the C++ of its body;
        ``whole``: no body stops the loop; ``sized``: see Gen.loops). Where it takes a few
        turns known, at most ``FEW_TURNS`` with those of the tallied ranges around it,
        all of them (``whole``), and its body counts work, that work and the range's are
        tallied as the function's straight-line part is (the work waiting in the tally
        stays bounded by the body's text, ``FEW_TURNS`` times at most); else each turn
        counts its own, as a loop's body does."""
        a, b = self.expr(it.left, inner, INT), self.expr(it.right, inner, INT)
        lo, hi = self.fresh("lo"), self.fresh("hi")
        around = inner.get(TURNS, (1, None))[0]
        n = self.range_size(it) if whole else None
        few = n if n is not None and n > 0 and n * around <= FEW_TURNS else 0
        uses = self.tally_uses(inner)
        inside = rest({**deeper, TURNS: (few * around, None)} if few else untallied(deeper))
        few = few if self.tally_uses(inner) != uses else 0   # (a body that counts nothing: as before)
        work = self.charge(inner, few).rstrip("; ") if few else self.range_charge(it, lo, hi, inner)
        return (f"{{ I {lo} = {a}, {hi} = {b}; {work}{'; ' if work else ''}"
                f"{sized(f'{hi} >= {lo} ? {hi} - {lo} + 1 : 0')}"
                f"for (I {var} = {lo}; {var} <= {hi}; ++{var}) {{ {inside} }} }}")

    def tally_uses(self, sc: dict) -> int:
        """How many counts the scope's tally has taken so far (-1: it has none)."""
        t = sc.get(TALLY)
        return t[1][0] if t is not None else -1

    def charge(self, sc: dict, n: str | int) -> str:
        """The C++ statement that counts the work ``n``: added to the scope's tally where
        it has one, else ``W``."""
        s = counters(sc)
        t = sc.get(TALLY)
        if t is None:
            return f"W({s}, {n}); "
        t[1][0] += 1
        return f"{t[0]} += {n}; "

    def tallied_call(self, sc: dict, call: Callable[[str], str]) -> str:
        """The call ``call(tally)`` of a function that adds its work to the tally it is
        given: the scope's own, else one made for the call and charged after it."""
        t = sc.get(TALLY)
        if t is not None:
            t[1][0] += 1
            return call(t[0])
        self.tally_helper()
        return (f"tallied({counters(sc)}, [&](I& {TALLY_NAME}) MK_AI "
                f"{{ return {call(TALLY_NAME)}; }})")

    def tally_helper(self) -> None:
        """Writes ``tallied(s, f)`` into the kernel, once: ``f`` given a tally, its
        value returned after the tally is charged."""
        if not self.__dict__.get("tally_made"):
            self.__dict__["tally_made"] = True
            self.tables.statics.append(
                "template <class F> static inline MK_AI auto tallied(St& s, F&& f) "
                "{ I t_ = 0; auto v_ = f(t_); W(s, t_); return v_; }")

    def tallied_body(self, body: Callable[[dict], str], sc: dict) -> str:
        """A function body's C++ (``body(scope)``) compiled with a tally, charged when
        its value is made, where it counts work outside its loops and reads no work
        counter; else compiled as before."""
        used = [0]
        text = body({**sc, TALLY: (TALLY_NAME, used)})
        if not used[0]:
            return text
        if reads_work(text):
            return body(sc)
        self.tally_helper()
        return f"tallied(s, [&](I& {TALLY_NAME}) MK_AI {{ return {text}; }})"
