"""The random statements of a kernel (interpreter/native/kernel.py), in both chance modes.

Seeded, a draw is the generator's (``below``). In explicit chance mode a random statement
is run as ``core.reference.chancy`` runs it: from its start, its draws are the outcomes set so
far for it, and at the first draw with no outcome set it stops at a chance step
(``draw`` in cxx/kernel_chance.hpp sets it; the procedure returns at once, its frame left
at the statement, and ``run`` stops there), which runs again once the outcome is set; when it completes, those outcomes are spent. What tells two
candidates apart is what ``Runtime.draw``'s keys tell apart: for items, their kind,
attributes, item variables and facing (``item_alike``); for any other value, the value.
"""
from __future__ import annotations

import json

from ...dsl.types import T, type_code

# the kinds of chance steps, as cxx/kernel_chance.hpp numbers them
SHUFFLE, PICK, ROLL, TIE = 0, 1, 2, 3


def item_alike_code(gen) -> str:
    """``item_alike(s, a, b)``: whether two items are one outcome of a chance step
    (``Runtime.item_key``): the same kind and attributes (one class of items,
    ``item_class``), the same facing and the same values of their kind's item variables."""
    prog = gen.p
    classes: dict[tuple, int] = {}
    of_item = [classes.setdefault((it.kind, json.dumps(it.attrs, sort_keys=True, default=str)), len(classes))
               for it in prog.items]
    kinds = sorted({it.kind for it in prog.items})
    kind_of = [kinds.index(it.kind) for it in prog.items]
    cases = []
    for k, kind in enumerate(kinds):
        fields = gen.c.item_vars.get(kind, {})
        tests = " && ".join(f"eq({gen.layout.ivar(name, 'a')}, {gen.layout.ivar(name, 'b')})" for name in sorted(fields))
        if tests:
            cases.append(f"case {k}: return {tests};")
    classes_t = gen.tables.value_table(("ICLASS",), of_item, T("int")) if prog.items else None
    kinds_t = gen.tables.value_table(("IKIND",), kind_of, T("int")) if prog.items else None
    if classes_t is None:
        return ("static bool item_alike(St&, Id a, Id b) { return a == b; }\n"
                "static int item_class(Id a) { return a; }")
    return (f"static int item_class(Id a) {{ return a < 0 ? -1 : (int){classes_t}[a]; }}\n"
            "static bool item_alike(St& s, Id a, Id b) { if (a == b) return true; if (a < 0 || b < 0) return false; "
            f"if ({classes_t}[a] != {classes_t}[b] || s.facing[a] != s.facing[b]) return false; "
            f"switch ({kinds_t}[a]) {{ {' '.join(cases)} }} return true; }}")


class ChanceStatements:
    """The random statements of ``kernel.Proc`` (a mixin: ``self.gen`` is the Gen,
    ``self.x`` an expression, ``self.field`` a local's field, ``self.go`` a jump)."""

    def _chancy(self, body: str) -> str:
        """A random statement's code: the outcomes set for it read from the first
        (``used``), the frame at it (where a chance step leaves it), spent once it ends."""
        return f"{{ s.used = 0; f->pc = {self.here()}; {body} s.taken.clear(); }} {self.go(self.nxt)}"

    def _take(self, n: str, kind: int, tc: str, values: str, el: T, then: str) -> str:
        """A draw among ``n`` candidates (``values[r]`` the r-th, of type ``el``) into
        ``r_``, then ``then``; at a chance step the procedure returns (its frame at the
        statement: ``run`` stops there)."""
        return f"{{ I r_ = {self._draw(n, kind, tc, values, el)}; if (s.step.p) return; {then} }}"

    def _draw(self, n: str, kind: int, tc: str, values: str, el: T) -> str:
        """A draw among ``n`` candidates, ``values[r]`` the r-th (of type ``el``)."""
        g = self.gen
        g.draws = True   # (the state keeps the outcomes set: kernel_module.py)
        if tc == "item":
            alike = f"[&](int a, int b) {{ return item_alike(s, {values}[a], {values}[b]); }}"
            klass = f"[&](int r) {{ return item_class({values}[r]); }}"
        else:
            alike = f"[&](int a, int b) {{ return eq({values}[a], {values}[b]); }}"
            klass = "[](int) { return 0; }"
        py = g.py_conv(el)(f"{values}[r]")
        return (f"draw(s, (I)({n}), {kind}, {json.dumps(tc)}, {alike}, {klass}, "
                f"[&](int r) {{ return {py}; }})")

    def tie_random(self, var: str, el: T) -> str:
        """The draw of a random tie of ``best`` (among ``tied_``)."""
        return self._take("tied_.size()", TIE, type_code(el), "tied_", el, f"f->{var} = tied_[(size_t)r_];")

    def _PickRandom(self, s):
        opts, t = self._options(s)
        var = self.field(s.var)
        take = self._take("all_.size()", PICK, type_code(t.arg), "all_", t.arg, f"f->{var} = all_[(size_t)r_];")
        self.emit(self._chancy(f"{self.gen.ct(t)} all_ = {opts}; if (all_.empty()) bail(); {take}"))

    def _Roll(self, s):
        t = self.gen.ty(s.faces)
        sets = " ".join(self._take("sides_.size()", ROLL, "int", "sides_", t.arg,
                                   f"f->{self.field(v)} = sides_[(size_t)r_];") for v in s.vars)
        self.emit(self._chancy(f"{self.gen.ct(t)} sides_ = {self.x(s.faces, t)}; if (sides_.empty()) bail(); {sets}"))

    def _Shuffle(self, s):
        take = self._take("i_ + 1", SHUFFLE, "item", "v_", T("item"), "std::swap(v_[i_], v_[(size_t)r_]);")
        self.emit(self._chancy(f"Id z_ = nn({self.x(s.zone)}); std::vector<Id> v_ = vec(s.z.items(z_)); "
                               f"for (size_t i_ = v_.size(); i_-- > 1;) {take} s.z.set_items(z_, v_);"))
