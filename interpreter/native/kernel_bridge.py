"""The kernel's exchange with Python (interpreter/native/kernel.py): ``export()``, a kernel's
state as the Python state writes it, and ``load(state)``, a kernel's state read from a
Python game's (cxx/kernel_glue.hpp calls what this writes).

The variables of the rules and the locals of the frames are carried by the runtime's own
code (cxx/kernel_values.hpp, compiled once: kernel_prebuilt.py) from tables written here:
each one's name, its field's offset in the state or frame and its type (a ``VT``: what
it is for Python, and how it is kept: a narrow field's bytes and range; a list's, the
runtime's list_py and list_from_py of its C++ type, so that a kernel instantiates those
of the lists it carries alone). So a kernel's unit holds tables where it held a function
per field."""
from __future__ import annotations

from ...dsl.types import T
from .cxx_text import c_chars, ident
from .kernel_layout import Stored, plain
from .kernel_products import export_opts, import_opts
from .kernel_types import BOOL, Unsupported

_KINDS = {"int": "i", "bool": "b", "str": "s", "enum": "e", "list": "l"}
_I64 = (-(1 << 63), (1 << 63) - 1)


def _c_int(v: int) -> str:
    return "INT64_MIN" if v == _I64[0] else "INT64_MAX" if v == _I64[1] else f"{v}LL"


class Bridge:
    """Writes the functions that carry a state of one program (``Gen``) between the
    kernel and Python (``frame_types``: each frame field's C++ type, as the frame keeps
    it)."""

    def __init__(self, gen, frame_types: dict[str, Stored] | None = None):
        self.gen = gen
        self.frame_types = frame_types or {}
        self.vts: dict[tuple, str] = {}
        self.statics: list[str] = []

    def vt(self, t: T, stored: Stored | None = None) -> str:
        """The name of the ``VT`` of values of type ``t`` kept as the C++ type ``stored``
        (default: ``t``'s own), written once."""
        stored = stored or plain(self.gen.ct(t), t)
        name = self.vts.get((t, stored))
        if name is not None:
            return name
        self.gen.py_conv(t), self.from_py(t)   # (Unsupported where they are, as ever)
        kind = _KINDS.get(t.tag, "d")
        width, n, lo, hi, names, el, to, frm = 8, 0, _I64[0], _I64[1], "nullptr", "nullptr", "nullptr", "nullptr"
        if t.tag == "tuple":   # (carried by functions of its own, as a list's are)
            kind, (to, frm) = "l", self._tuple_functions(t)
        elif kind == "l":
            assert isinstance(t.arg, T)
            el = "&" + self.vt(t.arg)
            to, frm = f"list_py<{self.gen.ct(t.arg)}>", f"list_from_py<{self.gen.ct(t.arg)}>"
        elif kind in "ide":
            width, n, lo, hi = self._kept(t, stored)
            if kind == "e":
                names = self.gen.tables.enum_names(t.arg)
        name = self.vts[(t, stored)] = f"KV{len(self.vts)}"
        self.statics.append(f"static const VT {name} = {{'{kind}', {width}, {n}, {_c_int(lo)}, {_c_int(hi)}, "
                            f"{names}, {el}, {to}, {frm}}};")
        return name

    def _tuple_functions(self, t: T) -> tuple[str, str]:
        """The functions that carry a tuple of type ``t`` to and from Python (as a VT's
        ``to`` and ``from``), written once."""
        k, ct = len(self.vts), self.gen.ct(t)
        to, frm = self.gen.py_conv(t)("(*(const T_*)at)"), self.from_py(t)("o")
        self.statics.append(f"static PyObject* tuple_py_{k}(const void* at, const VT&) {{ using T_ = {ct}; "
                            f"return {to}; }}")
        self.statics.append(f"static void tuple_from_py_{k}(void* at, const VT&, PyObject* o) {{ "
                            f"*({ct}*)at = {frm}; }}")
        return f"tuple_py_{k}", f"tuple_from_py_{k}"

    def _kept(self, t: T, stored: Stored) -> tuple[int, int, int, int]:
        """(bytes, the id's count as Python's value reads it, least, most) of a value
        of type ``t`` kept as ``stored`` (an int as ``I`` or ``NInt``, an id as ``Id`` or
        ``NId`` of that count: kernel_layout.py)."""
        g = self.gen
        if t.tag == "int":
            return (8, 0, *_I64) if stored.span is None else (stored.width, 0, *stored.span)
        count = len(g.c.enums[t.arg]) if t.tag == "enum" else {"item": g.ni, "player": g.n}.get(t.tag, g.nz)
        if stored.ids is None:
            return 4, count, *_I64
        if stored.ids != count:
            raise Unsupported(f"a value of type {t} kept as {stored}")
        return stored.width, count, *_I64

    def state_tables(self, procs) -> list[str]:
        """The tables of the variables (``VARS``: global, per player, per item of a kind)
        and of the frames' locals (``FIELDS``, by procedure: those of procedure k are
        ``FIELDS[FIELDS_AT[k]]`` up to ``FIELDS[FIELDS_AT[k + 1]]``), with the types
        they name."""
        g, c, layout = self.gen, self.gen.c, self.gen.layout
        rows = []
        for name, v in c.vars.items():
            t = g.typeref(v.type)
            vt = self.vt(t, layout.stored(t, name))
            field = ident("P" if v.per_player else "G", name)
            stride = f"sizeof(((St*)nullptr)->{field}[0])" if v.per_player else "0"
            rows.append(f"{{{c_chars(name)[0]}, '{'p' if v.per_player else 'g'}', offsetof(St, {field}), {stride}, "
                        f"&{vt}, nullptr, nullptr}}")
        for kind, fs in c.item_vars.items():
            for name, f in fs.items():
                t = g.typeref(f.type)
                vt = self.vt(t, layout.stored(t, name))
                mine = g.tables.value_table(("ISKIND", kind), [it.kind == kind for it in g.p.items], BOOL)
                slots = layout.item_slots(name)
                slot = "nullptr" if slots is None else layout.slot_table(name)
                field = ident("I", name)
                rows.append(f"{{{c_chars(name)[0]}, 'i', offsetof(St, {field}), sizeof(((St*)nullptr)->{field}[0]), "
                            f"&{vt}, {mine}, {slot}}}")
        fields: list[str] = []
        at: list[int] = []
        for k in range(len(procs)):
            at.append(len(fields))
            for f, (pk, local, t) in g.field_names.items():
                if pk == k:
                    vt = self.vt(t, self.frame_types.get(f))
                    fields.append(f"{{{c_chars(local)[0]}, {k}, offsetof(Frame, {f}), &{vt}}}")
        at.append(len(fields))
        none = "{nullptr, 0, 0, nullptr}"
        sites = [self._site_row(site, k) for k, site in enumerate(g.sites)]
        # (the verbs of a decision that has several alone: a list of texts of its own)
        verbs = [f"static const Text VERBS_{k}[] = {{{', '.join(self._text(v) for v in site['alone'])}}};"
                 for k, site in enumerate(g.sites) if isinstance(site["alone"], tuple)]
        return [*self.statics, *verbs,
                f"static const SiteD SITES[] = {{{', '.join([*sites, '{0}'])}}};",
                f"static const VarD VARS[] = {{{', '.join([*rows, '{nullptr, 0, 0, 0, nullptr, nullptr, nullptr}'])}}};",
                f"constexpr int NVARS = {len(rows)};",
                f"static const FieldD FIELDS[] = {{{', '.join([*fields, none])}}};",
                f"static const int FIELDS_AT[] = {{{', '.join(str(x) for x in at)}}};"]

    @staticmethod
    def _text(x: str | None) -> str:
        """A ``Text`` of this text, or of none."""
        chars, size = c_chars(x) if x is not None else ("nullptr", -1)
        return f"{{{chars}, {size}}}"

    def _site_row(self, site: dict, k: int) -> str:
        """A decision's ``SiteD`` (the ``k``-th; ``VERBS_k`` its verbs alone where it has
        several, see state_tables)."""
        el = site["el"]
        t, one = self.vt(T("list", el)), self.vt(el)
        text = self._text
        several = isinstance(site["alone"], tuple)
        alone = None if several else site["alone"]
        verbs = f"VERBS_{k}, {len(site['alone'])}" if several else "nullptr, 0"
        said = site["var_said"] if "said" in site else None

        if site["kind"] == "one":
            where = f"'o', offsetof(Opts, {site['opt']}), 0, 0, 0"
        else:
            j = site["each"]
            where = (f"'e', offsetof(Opts, e{j}), sizeof(((Opts*)nullptr)->e{j}[0]), offsetof(Opts, c{j}), "
                     f"sizeof(((Opts*)nullptr)->c{j}[0])")
        return (f"{{{where}, &{t}, &{one}, {text(site['verb'])}, {text(site['type'])}, {text(site['var'])}, "
                f"{text(alone)}, {site['proc']}, {site['pc']}, {verbs}, {text(said)}}}")

    def _picks_code(self) -> str:
        """The ``picks`` of a pending decision of several picks (picks.py), put into the
        dict ``d`` that export_pending writes."""
        cases = " ".join(f"case {k}: {{ PyObject* n_ = PyLong_FromLong({site['picks']}); "
                         f"PyDict_SetItemString(d, \"picks\", n_); Py_DECREF(n_); break; }}"
                         for k, site in enumerate(self.gen.sites) if site.get("picks") is not None)
        return f"switch (s.site) {{ {cases} default: break; }}" if cases else ""

    def export_code(self, procs) -> str:
        """``export()``: the parts of the state a kernel keeps, as the Python state
        writes them (for tests: tests/test_kernel.py compares them move by move)."""
        tables = self.state_tables(procs)
        made, opts = export_opts(self.gen)   # (a product's options made: kernel_products.py)
        return "\n".join([
            *tables,
            # (a simultaneous decision's seats as ints: the state keeps them narrow)
            "static void export_pending(St& s, PyObject* d) { if (s.site < 0 || s.site >= NSITES) return; "
            "int seats_[NP], waiting_[NP], chosen_[NP * MP]; for (int q_ = 0; q_ < NP; ++q_) { seats_[q_] = s.each_seats[q_]; "
            "waiting_[q_] = s.waiting[q_]; } for (int q_ = 0; q_ < NP * MP; ++q_) chosen_[q_] = s.chosen[q_]; "
            f"{made}pending_py((const char*){opts}, SITES[s.site], d, "
            "s.each_n, seats_, s.nwaiting, waiting_, s.nchosen, chosen_, SITES[s.site].kind == 'e' ? each_index(s, s.player) : 0); "
            + self._picks_code() + " }",
        ])

    def from_py(self, t: T):
        """A function of a C++ expression (a PyObject*): the code that reads a value of
        type ``t`` from it (throwing PyFail where it is not one)."""
        if t.tag == "int":
            return lambda x: f"from_py_int({x})"
        if t.tag == "bool":
            return lambda x: f"from_py_bool({x})"
        if t.tag == "str":
            return lambda x: f"from_py_str({x})"
        if t.tag == "enum":
            names = self.gen.tables.enum_names(t.arg)
            return lambda x: f"from_py_enum({x}, {names}, {len(self.gen.c.enums[t.arg])})"
        if t.tag == "item":
            return lambda x: f"from_py_id({x}, NI)"
        if t.tag == "player":
            return lambda x: f"from_py_id({x}, NP)"
        if t.tag in ("cell", "zone", "none"):
            return lambda x: f"from_py_id({x}, NZ)"
        if t.tag == "list":
            inner = self.from_py(t.arg)
            el = self.gen.ct(t.arg)
            return lambda x: f"from_py_list<{el}>({x}, [](PyObject* y) {{ return {inner('y')}; }})"
        if t.tag == "tuple":
            n, convs = len(t.parts), [self.from_py(p) for p in t.parts]
            parts = ", ".join(f(f"tuple_part({{x}}, {n}, {k})") for k, f in enumerate(convs))
            ct = self.gen.ct(t)   # (None: none, the move without an object beside tuples)
            return lambda x: f"({x} == Py_None ? {ct}::none() : {ct}({parts.replace('{x}', x)}))"
        raise Unsupported(f"a value of type {t} from Python")

    def import_code(self, procs) -> str:
        """``load(state)``: a kernel's state from a Python game's (Runtime.to_state) at a
        decision, or nullptr where it holds what a kernel does not keep (a chance step
        pending, a zone revealed, an item face down, a game over...)."""
        cleared = import_opts(self.gen)   # (no product kept: kernel_products.py)
        return "\n".join([
            "static void import_vars(St& s, PyObject* g, PyObject* pv, PyObject* iv) { "
            "vars_from_py((char*)&s, VARS, NVARS, NP, NI, g, pv, iv); INDEX_RENEW(s); }",
            "static int import_pending(St& s, PyObject* p, int proc, int pc) { "
            + ("return pending_from_py((char*)&s.opts, SITES, NSITES, p, proc, pc); }" if not cleared else
               f"const int k_ = pending_from_py((char*)&s.opts, SITES, NSITES, p, proc, pc); {cleared} return k_; }}"),
        ])

