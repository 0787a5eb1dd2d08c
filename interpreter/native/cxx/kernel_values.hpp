// A state's values to and from Python, read from a description of where each is kept
// (interpreter/native/kernel_bridge.py writes one per program: its variables' and frames'
// fields, their offsets and types), so that the code that carries them is the same in
// every kernel: part of the runtime every kernel starts with (after cxx/kernel_random.hpp,
// precompiled: interpreter/native/kernel_types.runtime_cxx), its functions marked
// MK_SHARED compiled once in the object of instantiations where there is one
// (interpreter/native/kernel_prebuilt.py), else in the kernel. A value is read and
// written exactly as the kernel's own code does (py_int, from_py_int...; a narrow field
// as NId and NInt do: a value beyond its range is never stored, bail).
namespace mk {

// How a value is kept and what it is for Python (VT: a value type).
struct VT {
    char kind;      // 'i' an int, 'd' an id, 'e' an enum's, 'b' a bool, 's' a text,
                    // 'l' a list (List<el's C++ type>), 'x' another (to, from)
    int8_t width;   // ints, ids, enums: the bytes they are kept in (1, 2, 4, 8)
    int32_t n;      // ids: they are below it (Python's value too); enums: their count
    I lo, hi;       // ints: the range a narrow one (NInt) is kept for
    PyObject* const* names;  // enums: their names
    const VT* el;            // lists: their elements'
    PyObject* (*to)(const void*);      // 'x': the value's Python value
    void (*from)(void*, PyObject*);    // 'x': the value from Python (throws PyFail)
};

// A variable of the rules kept in the state (VarD): a global one ('g'), one per
// player ('p': NP of them, ``stride`` bytes apart) or an item variable ('i': for the
// items ``mine`` says, the i-th at ``slot[i]`` where ``slot`` is given, else at i).
struct VarD {
    const char* name;
    char where;
    uint32_t off, stride;
    const VT* t;
    const bool* mine;
    const I* slot;
};

// A local of a procedure kept in its frame (FieldD).
struct FieldD {
    const char* name;
    int proc;
    uint32_t off;
    const VT* t;
};

// A text of the rules (its UTF-8 bytes; n < 0: none).
struct Text {
    const char* c;
    int n;
};

// A decision (SiteD): 'o' one seat's, its options in the field at ``off`` of the
// state's options (Opts); 'e' a simultaneous one's, each seat's options at ``off``
// (``stride`` bytes apart) and choices at ``coff`` (``cstride``); the type of its
// options (a list) and of one; what the pending decision says of it; where it is asked
// (the procedure and the instruction after).
struct SiteD {
    char kind;
    uint32_t off, stride, coff, cstride;
    const VT* t;
    const VT* el;
    Text verb, type, var, alone;
    int proc, pc;
};

// the Python value of the value at ``at`` (nullptr with Python's error set)
MK_SHARED PyObject* value_py(const void* at, const VT& t);
// the value at ``at`` from Python's ``o``: throws PyFail where it is not one, Bail where a
// narrow field cannot keep it
MK_SHARED void value_from_py(void* at, const VT& t, PyObject* o);
// export(): the variables of the state at ``s`` into the dicts of globals, per-player
// and item variables
MK_SHARED void vars_py(const char* s, const VarD* d, int nd, int np, int ni, PyObject* g, PyObject* pv,
                       PyObject* iv);
// load(): the variables from those dicts (throws as value_from_py)
MK_SHARED void vars_from_py(char* s, const VarD* d, int nd, int np, int ni, PyObject* g, PyObject* pv,
                            PyObject* iv);
// export(): the locals of the frame at ``fr`` (of procedure ``proc``: its fields are
// d[at[proc]] .. d[at[proc + 1]]) into ``L``
MK_SHARED void frame_py(const char* fr, int proc, const FieldD* d, const int* at, PyObject* L);
// load(): the local ``key`` of the frame from ``v`` (throws PyFail where the procedure
// has no such local)
MK_SHARED void local_from_py(char* fr, int proc, const FieldD* d, const int* at, PyObject* key, PyObject* v);

// export(): the pending decision ``site`` into ``d`` (``opts``: the state's options;
// a simultaneous one's seats asked, waiting and chosen, and the index of the deciding
// seat among those asked)
MK_SHARED void pending_py(const char* opts, const SiteD& site, PyObject* d, int each_n, const int* seats,
                          int nwaiting, const int* waiting, int nchosen, const int* chosen, int deciding);
// load(): the decision of one seat pending at instruction ``pc`` of procedure ``proc``
// that ``p`` describes, its options into ``opts``: its index (throws PyFail where none is)
MK_SHARED int pending_from_py(char* opts, const SiteD* sites, int n, PyObject* p, int proc, int pc);

#if MK_SHARED_HERE
// ------------------------------------------------------------------ shared functions
static I read_int(const void* at, int width) {
    switch (width) {
        case 1: return *(const int8_t*)at;
        case 2: return *(const int16_t*)at;
        case 4: return *(const int32_t*)at;
        default: return *(const int64_t*)at;
    }
}
static void write_int(void* at, int width, I v) {
    switch (width) {
        case 1: *(int8_t*)at = (int8_t)v; break;
        case 2: *(int16_t*)at = (int16_t)v; break;
        case 4: *(int32_t*)at = (int32_t)v; break;
        default: *(int64_t*)at = (int64_t)v; break;
    }
}
static I least_of(int width) { return width >= 8 ? NONE_I : -((I)1 << (8 * width - 1)); }

template <class T>
static PyObject* list_py(const void* at, const VT& el) {
    const List<T>& l = *(const List<T>*)at;
    PyObject* out = PyList_New((Py_ssize_t)l.size());
    if (!out) return nullptr;
    for (size_t i = 0; i < l.size(); ++i) {
        PyObject* x = value_py(&l[i], el);
        if (!x) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, x);
    }
    return out;
}
template <class T>
static List<T> list_from_py(PyObject* o, const VT& el) {
    if (!PyList_CheckExact(o)) throw PyFail();
    Py_ssize_t n = PyList_GET_SIZE(o);
    Vec<T> v;
    v.reserve((size_t)n);
    for (Py_ssize_t i = 0; i < n; ++i) {
        T x{};
        value_from_py(&x, el, PyList_GET_ITEM(o, i));
        v.push_back(std::move(x));
    }
    return List<T>(std::move(v));
}
// (a list's C++ type: List<T> of its elements' kind, two levels deep; a deeper one is
// an 'x', written by the program)
template <class F>
static auto by_list_type(const VT& el, F f) {
    switch (el.kind) {
        case 'i': return f((I*)nullptr);
        case 'd': case 'e': return f((Id*)nullptr);
        case 'b': return f((bool*)nullptr);
        case 's': return f((Str*)nullptr);
        default: break;
    }
    switch (el.el->kind) {
        case 'i': return f((List<I>*)nullptr);
        case 'd': case 'e': return f((List<Id>*)nullptr);
        case 'b': return f((List<bool>*)nullptr);
        default: return f((List<Str>*)nullptr);
    }
}

PyObject* value_py(const void* at, const VT& t) {
    switch (t.kind) {
        case 'i': {
            I v = read_int(at, t.width);
            return py_int(v == least_of(t.width) ? NONE_I : v);
        }
        case 'd': return py_id((Id)read_int(at, t.width));
        case 'e': return py_enum((Id)read_int(at, t.width), t.names);
        case 'b': return py_bool(*(const bool*)at);
        case 's': return py_str(*(const Str*)at);
        case 'l': return by_list_type(*t.el, [&](auto* e) { return list_py<std::remove_pointer_t<decltype(e)>>(at, *t.el); });
        default: return t.to(at);
    }
}

void value_from_py(void* at, const VT& t, PyObject* o) {
    switch (t.kind) {
        case 'i': {
            I v = from_py_int(o);
            if (v == NONE_I) v = least_of(t.width);
            else if (v < t.lo || v > t.hi) bail();
            write_int(at, t.width, v);
            return;
        }
        case 'd': write_int(at, t.width, from_py_id(o, t.n)); return;
        case 'e': write_int(at, t.width, from_py_enum(o, t.names, t.n)); return;
        case 'b': *(bool*)at = from_py_bool(o); return;
        case 's': *(Str*)at = from_py_str(o); return;
        case 'l':
            by_list_type(*t.el, [&](auto* e) {
                typedef std::remove_pointer_t<decltype(e)> T;
                *(List<T>*)at = list_from_py<T>(o, *t.el);
                return 0;
            });
            return;
        default: t.from(at, o);
    }
}

static PyObject* dict_item(PyObject* d, const char* key) {   // (kernel_state.hpp's item)
    if (!PyDict_CheckExact(d)) throw PyFail();
    PyObject* v = PyDict_GetItemString(d, key);
    if (!v) throw PyFail();
    return v;
}

void vars_py(const char* s, const VarD* d, int nd, int np, int ni, PyObject* g, PyObject* pv, PyObject* iv) {
    for (int k = 0; k < nd; ++k) {
        const VarD& v = d[k];
        const char* at = s + v.off;
        if (v.where == 'g') {
            PyObject* x = value_py(at, *v.t);
            PyDict_SetItemString(g, v.name, x);
            Py_DECREF(x);
        } else if (v.where == 'p') {
            PyObject* l = PyList_New(np);
            for (int p = 0; p < np; ++p) PyList_SET_ITEM(l, p, value_py(at + (size_t)p * v.stride, *v.t));
            PyDict_SetItemString(pv, v.name, l);
            Py_DECREF(l);
        } else {
            PyObject* l = PyDict_GetItemString(iv, v.name);
            if (!l) {
                l = PyList_New(ni);
                for (int i = 0; i < ni; ++i) {
                    Py_INCREF(Py_None);
                    PyList_SET_ITEM(l, i, Py_None);
                }
                PyDict_SetItemString(iv, v.name, l);
                Py_DECREF(l);
            }
            for (int i = 0; i < ni; ++i)
                if (v.mine[i]) PyList_SetItem(l, i, value_py(at + (size_t)(v.slot ? v.slot[i] : i) * v.stride, *v.t));
        }
    }
}

void vars_from_py(char* s, const VarD* d, int nd, int np, int ni, PyObject* g, PyObject* pv, PyObject* iv) {
    for (int k = 0; k < nd; ++k) {
        const VarD& v = d[k];
        char* at = s + v.off;
        if (v.where == 'g') {
            value_from_py(at, *v.t, dict_item(g, v.name));
            continue;
        }
        int n = v.where == 'p' ? np : ni;
        PyObject* l = dict_item(v.where == 'p' ? pv : iv, v.name);
        if (!PyList_CheckExact(l) || PyList_GET_SIZE(l) != n) throw PyFail();
        for (int i = 0; i < n; ++i)
            if (v.where == 'p' || v.mine[i])
                value_from_py(at + (size_t)(v.where == 'i' && v.slot ? v.slot[i] : i) * v.stride, *v.t,
                              PyList_GET_ITEM(l, i));
    }
}

static PyObject* text_py(const Text& t) {
    if (t.n < 0) Py_RETURN_NONE;
    return py_str(Str(t.c, (size_t)t.n));
}
static void put_py(PyObject* d, const char* key, PyObject* v) {
    PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
}
static PyObject* seats_py(const int* seats, int n) {
    PyObject* l = PyList_New(n);
    for (int q = 0; q < n; ++q) PyList_SET_ITEM(l, q, PyLong_FromLong(seats[q]));
    return l;
}

void pending_py(const char* opts, const SiteD& site, PyObject* d, int each_n, const int* seats, int nwaiting,
                const int* waiting, int nchosen, const int* chosen, int deciding) {
    if (site.kind == 'o') put_py(d, "options", value_py(opts + site.off, *site.t));
    put_py(d, "verb", text_py(site.verb));
    put_py(d, "type", text_py(site.type));
    put_py(d, "var", text_py(site.var));
    if (site.alone.n > 0) put_py(d, "alone", text_py(site.alone));
    if (site.kind == 'o') return;
    PyObject* each = PyList_New(each_n);
    for (int q = 0; q < each_n; ++q) PyList_SET_ITEM(each, q, value_py(opts + site.off + (size_t)q * site.stride, *site.t));
    PyObject* asked = seats_py(seats, each_n);
    put_py(d, "options", value_py(opts + site.off + (ptrdiff_t)deciding * site.stride, *site.t));
    put_py(d, "each", each);
    put_py(d, "seats", asked);
    put_py(d, "waiting", seats_py(waiting, nwaiting));
    PyObject* c = PyList_New(nchosen);
    for (int q = 0; q < nchosen; ++q) {
        PyObject* pair = PyList_New(2);
        PyList_SET_ITEM(pair, 0, PyLong_FromLong(chosen[q]));
        PyList_SET_ITEM(pair, 1, value_py(opts + site.coff + (size_t)q * site.cstride, *site.el));
        PyList_SET_ITEM(c, q, pair);
    }
    put_py(d, "chosen", c);
}

// whether d[key] is the text ``want`` (missing or None where it is none)
static bool same_text(PyObject* d, const char* key, const Text& want) {
    PyObject* v = PyDict_GetItemString(d, key);
    bool ok;
    if (want.n < 0) {
        ok = v == nullptr || v == Py_None;
    } else {
        PyObject* w = text_py(want);
        ok = v != nullptr && w != nullptr && PyUnicode_Check(v) && PyUnicode_Compare(v, w) == 0;
        Py_XDECREF(w);
    }
    PyErr_Clear();
    return ok;
}

int pending_from_py(char* opts, const SiteD* sites, int n, PyObject* p, int proc, int pc) {
    for (int k = 0; k < n; ++k) {
        const SiteD& site = sites[k];
        if (site.kind == 'o' && site.proc == proc && site.pc == pc && same_text(p, "var", site.var) &&
            same_text(p, "type", site.type) && same_text(p, "verb", site.verb) && same_text(p, "alone", site.alone)) {
            value_from_py(opts + site.off, *site.t, dict_item(p, "options"));
            return k;
        }
    }
    throw PyFail();
}

void frame_py(const char* fr, int proc, const FieldD* d, const int* at, PyObject* L) {
    for (int k = at[proc]; k < at[proc + 1]; ++k) {
        PyObject* x = value_py(fr + d[k].off, *d[k].t);
        PyDict_SetItemString(L, d[k].name, x);
        Py_DECREF(x);
    }
}

void local_from_py(char* fr, int proc, const FieldD* d, const int* at, PyObject* key, PyObject* v) {
    for (int k = at[proc]; k < at[proc + 1]; ++k)
        if (!PyUnicode_CompareWithASCIIString(key, d[k].name)) {
            value_from_py(fr + d[k].off, *d[k].t, v);
            return;
        }
    throw PyFail();
}
#endif

}  // namespace mk
