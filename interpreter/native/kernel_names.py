"""Names, attributes and indexes in a kernel's expressions (a part of ``kernel.Gen``):
a local, a global or per-player variable, ``active`` and ``players``, an enum's member,
a kind, a zone, a ``const`` (its value, the Python program's), an item's or a cell's
attribute (a table of the kinds' values, or the item's variable) and ``xs[i]`` (an
element of a loop written out, kernel_unroll.py; an index known within a board's cells,
kernel_ranged.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...dsl.types import T
from .cxx_text import ident
from .kernel_reads import state
from .kernel_types import IDS, INT, STR, Unsupported


class NamedValues:
    """``Gen``'s names, attributes and indexes (see the module)."""

    if TYPE_CHECKING:
        p: Any
        c: Any
        n: int
        ns: Any
        tables: Any
        layout: Any
        maybe_none: frozenset

        def expr(self, e, sc: dict, want: T | None = None) -> str: ...
        def ty(self, e) -> T: ...
        def typeref(self, tr) -> Any: ...
        def known_index(self, e, sc: dict) -> str | None: ...
        def ranged_index(self, e, sc: dict) -> str | None: ...

    def _Var(self, e, sc):
        n = e.name
        if n in sc:
            code, t = sc[n]
            if n in self.maybe_none and t.tag in ("list", "tuple"):
                return f"nnv({code})"
            return code
        c = self.c
        if n == "active" and not c.declares(n):   # (a declaration hides the built-in)
            return f"{state(sc)}.active"
        if n == "players" and not c.declares(n):
            return self.tables.id_list(("PLAYERS",), list(range(self.n)))
        if n in c.vars:
            if c.vars[n].per_player:
                raise Unsupported(f"per-player variable '{n}' without a player")
            return f"{state(sc)}.{ident('G', n)}"
        if n in c.enum_of_value:
            return f"((Id){c.enums[c.enum_of_value[n]].index(n)})"
        if n in c.enums:
            return self.tables.id_list(("E", n), list(range(len(c.enums[n]))))
        if n in c.kinds:
            return self.tables.id_list(("KIND", n), self.ns[f"KIND_{n}"])
        if n in c.zones:
            return f"((Id){self.ns[f'Z_{n}']})"
        if n in c.consts:
            return self._const(n)
        raise Unsupported(f"the name '{n}' here")

    def _const(self, n: str) -> str:
        """A ``const``'s value, the Python program's (computed once, compile.Program._consts):
        a number, a bool, a seat, item, cell or zone, a list of numbers or of those."""
        v, t = self.ns.get(f"CONST_{n}"), self.typeref(self.c.consts[n].type)
        if t.tag == "int" and type(v) is int and -(1 << 62) < v < (1 << 62):
            return f"((I){v}LL)"
        if t.tag == "bool" and type(v) is bool:
            return "true" if v else "false"
        if t.tag in IDS and (v is None or type(v) is int):
            return "NONE_ID" if v is None else f"((Id){v})"
        el = t.arg.tag if t.tag == "list" and isinstance(t.arg, T) else None
        if isinstance(v, list) and el in IDS:
            return self.tables.id_list(("CONST", n), v)
        if isinstance(v, list) and el == "int" \
                and all(type(x) is int and -(1 << 62) < x < (1 << 62) for x in v):
            data = ", ".join(f"{x}LL" for x in v) or "0"
            return self.tables.table(("CONST", n), lambda m: f"static List<I> {m}; static const I {m}_d[{max(len(v), 1)}] = {{{data}}};",
                                     lambda m: f"{m} = List<I>(Vec<I>({m}_d, {m}_d + {len(v)}));")
        raise Unsupported(f"const '{n}' of type {t}")

    def _Attr(self, e, sc):
        t = self.ty(e.obj)
        if t.tag == "list" and t.arg.tag == "enum":
            return f"((Id){self.c.enums[t.arg.arg].index(e.name)})"
        obj = self.expr(e.obj, sc)
        if t.tag == "item":
            if e.name in self.c.item_vars.get(t.arg, {}):
                return self.layout.ivar(e.name, f"nn({obj})", state(sc))
            at = self.ty(e)
            # (the same attribute may have another type in another kind: only the items of
            # kinds whose attribute has this type are in the table)
            values = [it.attrs.get(e.name) if self.c.kinds[it.kind].get(e.name) == at else None
                      for it in self.p.items]
            return f"{self.tables.value_table(('A', e.name, str(at)), values, at)}[nn({obj})]"
        if t.tag == "cell":
            if e.name == "name":
                return f"{self.tables.value_table(('CELL_NAME',), self.ns['CELL_NAME'], STR)}[nn({obj})]"
            return f"{self.tables.value_table(('C', e.name), self.ns['C_' + e.name], self.ty(e))}[nn({obj})]"
        raise Unsupported(f"an attribute of a {t}")

    def _Index(self, e, sc):
        t = self.ty(e.obj)
        if t.tag == "tuple":   # (the checker: a number written in the rules, inside the tuple)
            return f"std::get<{e.index.value}>({self.expr(e.obj, sc)})"
        if t.tag != "list":
            raise Unsupported(f"an index into a {t}")
        known = self.known_index(e, sc)   # (an element of a loop written out: kernel_unroll.py)
        if known is not None:
            return known
        ranged = self.ranged_index(e, sc)   # (an index known within a board's cells: kernel_ranged.py)
        if ranged is not None:
            return ranged
        return f"at({self.expr(e.obj, sc)}, {self.expr(e.index, sc, INT)})"
