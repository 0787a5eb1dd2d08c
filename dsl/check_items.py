"""The checker's part for items made and removed during play and for several places'
items moved at once (``ItemChecks``, a base of ``check.Checker``): the ``supply``
declaration and the statements ``make``, ``remove`` and ``permute``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import ast as ir, errors
from .types import T, compatible

if TYPE_CHECKING:
    from .check import Checked
    from .errors import Diagnostics


class ItemChecks:
    """The checks of supplies and of the statements that use them, for ``check.Checker``."""

    if TYPE_CHECKING:  # (the Checker's, dsl/check.py and dsl/check_stmts.py)
        d: Diagnostics
        c: Checked
        proc_locals: dict[str, T] | None

        def expr(self, e, env) -> T: ...
        def _zone_expr(self, e, env, what: str) -> str | None: ...
        def _items_expr(self, e, env, what: str) -> str | None: ...
        def _facing(self, s) -> None: ...

    def _declare_supply(self, d: ir.SupplyDecl) -> None:
        """``supply NAME: N of Kind(...)``: the kind's one supply (its zone and deck are
        declared beside it by the merge, dsl/load.py)."""
        kind = d.entry.kind
        if d.entry.count < 1:
            self.d.add(errors.bad_value(d.entry.span, f"a supply of {d.entry.count} items makes nothing",
                                        f"give it at least as many items as a game may make: "
                                        f"'supply {d.name}: 10 of {kind}(...)'"))
        first = self.c.supplies.get(kind)
        if first is not None:
            self.d.add(errors.bad_value(d.span, f"kind {kind} has two supplies, '{first}' and '{d.name}'",
                                        f"'make {kind}' draws from one supply: declare one, with all "
                                        f"the items a game may make"))
            return
        self.c.supplies[kind] = d.name

    def _made_stmt(self, s, env) -> bool:
        """``make``, ``remove`` and ``permute``; False for another statement."""
        match s.node:
            case "Make":
                self._make(s, env)
            case "RemoveItem":
                kind = self._items_expr(s.what, env, "remove")
                if kind == "?":
                    self.d.add(errors.type_mismatch(s.what.span, "remove", "an item of a known kind",
                                                    "an item of unknown kind (from a 'zone' parameter: "
                                                    "write its type as 'zone of Kind')"))
                elif kind is not None:
                    self._supply_of(kind, s.span, "put back into")
            case "Permute":
                held = [self._places(e, env) for e in (s.what, s.to)]
                if None not in held and held[0] != held[1]:
                    self.d.add(errors.type_mismatch(s.to.span, "permute", f"places that hold {held[0]}",
                                                    f"places that hold {held[1]}"))
            case _:
                return False
        return True

    def _supply_of(self, kind: str, span, verb: str) -> str | None:
        supply = self.c.supplies.get(kind)
        if supply is None:
            self.d.add(errors.Diagnostic(
                "check/missing", span, f"kind {kind} has no supply to {verb}",
                f"declare one with the most items a game may make: 'supply {kind.lower()}s: 20 of {kind}()'"))
        return supply

    def _make(self, s: ir.Make, env) -> None:
        if s.kind not in self.c.kinds:
            self.d.add(errors.unknown(s.span, "kind", s.kind, self.c.kinds))
            return
        self._supply_of(s.kind, s.span, "make items from")
        zk = self._zone_expr(s.to, env, "the place of 'make'")
        if zk == "?":
            self.d.add(errors.type_mismatch(s.to.span, "make", "a place of a known kind",
                                            f"a zone of any kind (write the parameter's type as 'zone of {s.kind}')"))
        elif zk is not None and zk != s.kind:
            self.d.add(errors.type_mismatch(s.to.span, "make", f"a place that holds {s.kind}",
                                            f"a place that holds {zk}"))
        self._facing(s)
        fields, item_vars = self.c.kinds[s.kind], self.c.item_vars.get(s.kind, {})
        seen: set[str] = set()
        for v in s.values:
            t = self.expr(v.value, env)
            if v.var in seen:
                self.d.add(errors.bad_value(v.span, f"'{v.var}' is given twice", "give each item variable once"))
            seen.add(v.var)
            if v.var not in fields:
                self.d.add(errors.no_attribute(v.span, s.kind, v.var, item_vars))
            elif v.var not in item_vars:
                self.d.add(errors.bad_value(v.span, f"'{v.var}' of {s.kind} is fixed: every item of the "
                                                    "supply has the value its declaration gives",
                                            f"declare it 'var {v.var}: ...' in kind {s.kind}, or give it in "
                                            f"the supply's 'of {s.kind}(...)'"))
            elif not compatible(fields[v.var], t):
                self.d.add(errors.type_mismatch(v.value.span, f"'{v.var} = ...' of 'make {s.kind}'",
                                                str(fields[v.var]), str(t)))

    def _places(self, e, env) -> str | None:
        """The kind held by the places of a list of cells or zones (None: reported)."""
        t = self.expr(e, env)
        el = t.arg if t.tag == "list" and isinstance(t.arg, T) else None
        if t.is_error or (el is not None and (el.is_error or el.tag == "none")):
            return None   # (`[]`: a list of nothing, any place; its length is checked in play)
        if el is not None and el.tag == "cell" and isinstance(el.arg, str) and el.arg in self.c.boards:
            return self.c.boards[el.arg].decl.holds.name
        if el is not None and el.tag == "zone" and isinstance(el.arg, str) and el.arg != "?":
            return el.arg
        self.d.add(errors.type_mismatch(e.span, "permute", "a list of cells or of zones of a known kind",
                                        str(t)))
        return None
