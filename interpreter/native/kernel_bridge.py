"""The kernel's exchange with Python (interpreter/native/kernel.py): ``export()``, a kernel's
state as the Python state writes it, and ``load(state)``, a kernel's state read from a
Python game's (cxx/kernel_glue.hpp calls what this writes)."""
from __future__ import annotations

from ...dsl.types import T
from .cxx_text import ident, literal
from .kernel_types import BOOL, Unsupported


class Bridge:
    """Writes the functions that carry a state of one program (``Gen``) between the
    kernel and Python."""

    def __init__(self, gen):
        self.gen = gen

    def export_code(self, procs) -> str:
        """``export()``: the parts of the state a kernel keeps, as the Python state
        writes them (for tests: tests/test_kernel.py compares them move by move)."""
        c = self.gen.c
        lines = []
        for name, v in c.vars.items():
            t = self.gen.typeref(v.type)
            conv = self.gen.py_conv(t)
            key = literal(name) + ".c_str()"
            if v.per_player:
                lines.append(f"{{ PyObject* l_ = PyList_New(NP); for (int p_ = 0; p_ < NP; ++p_) "
                             f"PyList_SET_ITEM(l_, p_, {conv('s.' + ident('P', name) + '[p_]')}); "
                             f"PyDict_SetItemString(pv, {key}, l_); Py_DECREF(l_); }}")
            else:
                lines.append(f"{{ PyObject* x_ = {conv('s.' + ident('G', name))}; PyDict_SetItemString(g, {key}, x_); "
                             f"Py_DECREF(x_); }}")
        for kind, fs in c.item_vars.items():
            for name, f in fs.items():
                t = self.gen.typeref(f.type)
                conv = self.gen.py_conv(t)
                mine = self.gen.tables.value_table(("ISKIND", kind), [it.kind == kind for it in self.gen.p.items], BOOL)
                key = literal(name) + ".c_str()"
                lines.append(f"{{ PyObject* l_ = PyDict_GetItemString(iv, {key}); if (!l_) {{ l_ = PyList_New(NI); "
                             f"for (int i_ = 0; i_ < NI; ++i_) {{ Py_INCREF(Py_None); PyList_SET_ITEM(l_, i_, Py_None); }} "
                             f"PyDict_SetItemString(iv, {key}, l_); Py_DECREF(l_); }} "
                             f"for (int i_ = 0; i_ < NI; ++i_) if ({mine}[i_]) PyList_SetItem(l_, i_, {conv(self.gen.layout.ivar(name, 'i_'))}); }}")
        frames = []
        for k, (_pname, *_rest) in enumerate(procs):
            sets = []
            for f, (pk, local, t) in self.gen.field_names.items():
                if pk != k:
                    continue
                conv = self.gen.py_conv(t)
                sets.append(f"{{ PyObject* x_ = {conv('fr.' + f)}; PyDict_SetItemString(L, {literal(local)}.c_str(), x_); "
                            f"Py_DECREF(x_); }}")
            frames.append(f"case {k}: {' '.join(sets)} break;")
        sites = []
        for k, site in enumerate(self.gen.sites):
            conv = self.gen.py_conv(T("list", site["el"]))
            one = self.gen.py_conv(site["el"])
            verb = f"py_str({literal(site['verb'])})" if site["verb"] is not None else "(Py_INCREF(Py_None), Py_None)"
            alone = f"put(d, \"alone\", {_py_alone(site['alone'])}); " if site["alone"] else ""
            if "said" in site:
                alone += f"put(d, \"said\", py_str({literal(site['var_said'])})); "
            common = (f"put(d, \"verb\", {verb}); put(d, \"type\", py_str({literal(site['type'])})); "
                      f"put(d, \"var\", py_str({literal(site['var'])})); {alone}")
            if site["kind"] == "one":
                sites.append(f"case {k}: {{ put(d, \"options\", {conv('s.opts.' + site['opt'])}); {common}break; }}")
                continue
            j = site["each"]
            sites.append(
                f"case {k}: {{ {common}PyObject* each_ = PyList_New(s.each_n); PyObject* seats_ = PyList_New(s.each_n); "
                f"for (int q_ = 0; q_ < s.each_n; ++q_) {{ PyList_SET_ITEM(each_, q_, {conv(f's.opts.e{j}[q_]')}); "
                f"PyList_SET_ITEM(seats_, q_, PyLong_FromLong(s.each_seats[q_])); }} "
                f"put(d, \"options\", {conv(f's.opts.e{j}[each_index(s, s.player)]')}); "
                f"put(d, \"each\", each_); put(d, \"seats\", seats_); PyObject* w_ = PyList_New(s.nwaiting); "
                f"for (int q_ = 0; q_ < s.nwaiting; ++q_) PyList_SET_ITEM(w_, q_, PyLong_FromLong(s.waiting[q_])); "
                f"put(d, \"waiting\", w_); PyObject* c_ = PyList_New(s.nchosen); for (int q_ = 0; q_ < s.nchosen; ++q_) "
                f"{{ PyObject* pair_ = PyList_New(2); PyList_SET_ITEM(pair_, 0, PyLong_FromLong(s.chosen[q_])); "
                f"PyList_SET_ITEM(pair_, 1, {one(f's.opts.c{j}[q_]')}); PyList_SET_ITEM(c_, q_, pair_); }} "
                f"put(d, \"chosen\", c_); break; }}")
        return "\n".join([
            "static void export_vars(St& s, PyObject* g, PyObject* pv, PyObject* iv) { " + " ".join(lines) + " }",
            "static void export_frame(const Frame& fr, PyObject* L) { switch (fr.proc) { " + " ".join(frames) + " } }",
            "static void put(PyObject* d, const char* key, PyObject* v) { PyDict_SetItemString(d, key, v); Py_DECREF(v); }",
            "static void export_pending(St& s, PyObject* d) { switch (s.site) { " + " ".join(sites) + " } }",
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
        raise Unsupported(f"a value of type {t} from Python")

    def import_code(self, procs) -> str:
        """``load(state)``: a kernel's state from a Python game's (Runtime.to_state) at a
        decision, or nullptr where it holds what a kernel does not keep (a chance step
        pending, a zone revealed, an item face down, a game over...)."""
        c = self.gen.c
        lines = []
        for name, v in c.vars.items():
            conv = self.from_py(self.gen.typeref(v.type))
            key = literal(name) + ".c_str()"
            if v.per_player:
                lines.append(f"{{ PyObject* l_ = item(pv, {key}); if (!PyList_CheckExact(l_) || PyList_GET_SIZE(l_) != NP) "
                             f"throw PyFail(); for (int p_ = 0; p_ < NP; ++p_) "
                             f"s.{ident('P', name)}[p_] = {conv('PyList_GET_ITEM(l_, p_)')}; }}")
            else:
                lines.append(f"s.{ident('G', name)} = {conv(f'item(g, {key})')};")
        for kind, fs in c.item_vars.items():
            for name, f in fs.items():
                conv = self.from_py(self.gen.typeref(f.type))
                mine = self.gen.tables.value_table(("ISKIND", kind), [it.kind == kind for it in self.gen.p.items], BOOL)
                key = literal(name) + ".c_str()"
                lines.append(f"{{ PyObject* l_ = item(iv, {key}); if (!PyList_CheckExact(l_) || PyList_GET_SIZE(l_) != NI) "
                             f"throw PyFail(); for (int i_ = 0; i_ < NI; ++i_) if ({mine}[i_]) "
                             f"{self.gen.layout.ivar(name, 'i_')} = {conv('PyList_GET_ITEM(l_, i_)')}; }}")
        frames = []
        for k in range(len(procs)):
            sets = []
            for f, (pk, local, t) in self.gen.field_names.items():
                if pk == k:
                    conv = self.from_py(t)
                    sets.append(f"if (!PyUnicode_CompareWithASCIIString(key_, {literal(local)}.c_str())) "
                                f"{{ fr.{f} = {conv('v_')}; return; }}")
            frames.append(f"case {k}: {' '.join(sets)} break;")
        sites = []
        options = 'item(p, "options")'
        for k, site in enumerate(self.gen.sites):
            if site["kind"] != "one":
                continue   # (a simultaneous decision under way is played in Python)
            conv = self.from_py(T("list", site["el"]))
            verb = "Py_None" if site["verb"] is None else f"py_str({literal(site['verb'])})"
            several = isinstance(site["alone"], tuple)
            alone = "nullptr" if site["alone"] is None or several else f"py_str({literal(site['alone'])})"
            # (several verbs alone: a list of them, told apart by the rest)
            alone = ("PyList_Check(PyDict_GetItemString(p, \"alone\") ? PyDict_GetItemString(p, \"alone\") : Py_None)"
                     if several else f"same(p, \"alone\", {alone}, {'false' if site['alone'] is None else 'true'})")
            if "said" in site:   # (only then: the kernels of other rulesets are written as before)
                alone += f" && same(p, \"said\", py_str({literal(site['var_said'])}), true)"
            sites.append(f"if (proc == {site['proc']} && pc == {site['pc']} && same(p, \"var\", py_str({literal(site['var'])}), true) "
                         f"&& same(p, \"type\", py_str({literal(site['type'])}), true) && same(p, \"verb\", {verb}, {'false' if site['verb'] is None else 'true'}) "
                         f"&& {alone}) "
                         f"{{ s.opts.{site['opt']} = {conv(options)}; return {k}; }}")
        return "\n".join([
            "static void import_vars(St& s, PyObject* g, PyObject* pv, PyObject* iv) { " + " ".join(lines) + " }",
            "static void import_local(Frame& fr, PyObject* key_, PyObject* v_) { switch (fr.proc) { "
            + " ".join(frames) + " } throw PyFail(); }",
            "static int import_pending(St& s, PyObject* p, int proc, int pc) { " + " ".join(sites) + " throw PyFail(); }",
        ])


def _py_alone(alone) -> str:
    """The Python value of a decision's verbs alone: a text, or a list of several."""
    if isinstance(alone, str):
        return f"py_str({literal(alone)})"
    items = " ".join(f"PyList_SET_ITEM(l_, {j}, py_str({literal(v)}));" for j, v in enumerate(alone))
    return f"[&]() {{ PyObject* l_ = PyList_New({len(alone)}); {items} return l_; }}()"
