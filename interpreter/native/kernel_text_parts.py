"""The parts of ``a + b + ...`` of texts in a kernel (a part of ``kernel.Gen``: its
``text_chain`` lists them, the form of a join of texts joins them with one call of
``scatn``: core/operators.py, cxx/kernel_texts.hpp).

A part ``if c then x else y`` was a new text, a copy of the one taken (``Str(T7)``: a
text of the rules, or a table's, copied for a moment): it is now a reference to the
one taken, read where it is. ``scatn`` reads its parts before the expression it is in
ends, and a text made for a part (a call, another join) lives until then, so the
reference is good while it is read. Only ``scatn``'s parts are written so: a reference
elsewhere could outlive the text made for it.

A part that is never none (a text written in the rules, a cell's name, a join of texts,
or a choice between such parts) is given as ``sure(x)``: ``scatn`` reads its length
without the test for none every other part has (cxx/kernel_texts.hpp)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .kernel_types import BOOL


class TextParts:
    """Methods of ``kernel.Gen`` (its ``expr``)."""

    if TYPE_CHECKING:
        def expr(self, e, sc: dict, want=None) -> str: ...
        def ty(self, e): ...

    def _text_part(self, e, sc: dict, t) -> str:
        """A part of a join of texts: where it is ``if c then x else y``, the one taken as
        a reference (each of x and y a part again), else the text itself."""
        if e.node != "CondExpr":
            code = self.expr(e, sc, t)
        else:
            a, b = self._text_part(e.then, sc, t), self._text_part(e.other, sc, t)
            code = (f"({self.expr(e.cond, sc, BOOL)} ? static_cast<const Str&>({a}) "
                    f": static_cast<const Str&>({b}))")
        return f"sure({code})" if self._never_none(e) else code

    def _never_none(self, e) -> bool:
        """Whether the text ``e`` is never none: see the module's docstring."""
        match e.node:
            case "StrLit":
                return True
            case "Attr":
                return e.name == "name" and self.ty(e.obj).tag == "cell"
            case "BinOp":
                return e.op == "+"
            case "CondExpr":
                return self._never_none(e.then) and self._never_none(e.other)
        return False
