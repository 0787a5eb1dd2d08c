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
                    // 'l' a list (List<el's C++ type>: ``to`` and ``from``, list_py and
                    // list_from_py of that type, written where the program names it)
    int8_t width;   // ints, ids, enums: the bytes they are kept in (1, 2, 4, 8)
    int32_t n;      // ids: they are below it (Python's value too); enums: their count
    I lo, hi;       // ints: the range a narrow one (NInt) is kept for
    PyObject* const* names;  // enums: their names
    const VT* el;            // lists: their elements'
    PyObject* (*to)(const void*, const VT&);      // lists: the list's Python value
    void (*from)(void*, const VT&, PyObject*);    // lists: the list from Python (throws PyFail)
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
    const Text* verbs;  // (a decision with several verbs alone: them, ``nverbs``; ``alone`` none)
    int nverbs;
    Text said;          // (the local told which verb was played, where the decision names one)
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

// (a list of T: its elements each by their own VT; instantiated in a kernel for the
// types of lists it carries alone)
template <class T>
static PyObject* list_py(const void* at, const VT& t) {
    const List<T>& l = *(const List<T>*)at;
    if (l.is_none()) Py_RETURN_NONE;
    PyObject* out = PyList_New((Py_ssize_t)l.size());
    if (!out) return nullptr;
    for (size_t i = 0; i < l.size(); ++i) {
        PyObject* x = value_py(&l[i], *t.el);
        if (!x) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, x);
    }
    return out;
}
template <class T>
static void list_from_py(void* at, const VT& t, PyObject* o) {
    if (o == Py_None) {   // (none: the move without an object beside lists)
        *(List<T>*)at = List<T>::none();
        return;
    }
    if (!PyList_CheckExact(o)) throw PyFail();
    Py_ssize_t n = PyList_GET_SIZE(o);
    Vec<T> v;
    v.reserve((size_t)n);
    for (Py_ssize_t i = 0; i < n; ++i) {
        T x{};
        value_from_py(&x, *t.el, PyList_GET_ITEM(o, i));
        v.push_back(std::move(x));
    }
    *(List<T>*)at = List<T>(std::move(v));
}

// What load() reads of a Python state (Runtime.to_state) before it makes the kernel's
// (load_py checks every value: the items of each zone, each once; who sees each item;
// the zones revealed; the counters; each frame's procedure, instruction and locals)
struct Loaded {
    struct Frame_ {
        int proc, pc;
        PyObject* L;
    };
    std::vector<Id> items;   // the items of zone z: items[zone_at[z]] .. items[zone_at[z + 1]]
    std::vector<int> zone_at;
    std::vector<I> facing;
    std::vector<Id> revealed;
    PyObject *chance = nullptr, *vars = nullptr, *pvars = nullptr, *ivars = nullptr, *pending = nullptr;
    Id active = 0;
    I turn = 0, moves = 0;
    uint64_t rng = 0;
    int phase = 0;
    std::vector<Frame_> frames;
    MK_MEMBER Loaded();   // (compiled with the functions: not in each kernel)
    MK_MEMBER ~Loaded();
};
// what load() takes of ``d`` for a program of ni items, nz zones, np seats and its
// procedures' names and ends (throws PyFail where a value is not one the kernel keeps)
MK_SHARED void load_py(PyObject* d, Loaded& out, int ni, int nz, int np, const Str* proc_names,
                       const int* proc_end, int nprocs);
// the locals of a frame of procedure ``proc`` (the one under it: ``caller``, -1 for
// none) from ``L``: the code of where its value goes (``$ret``: ``ret_code``), or -1
MK_SHARED int locals_from_py(char* fr, int proc, PyObject* L, int caller, const FieldD* d, const int* at,
                             int (*ret_code)(int, PyObject*));

// What export() writes of a kernel's state besides its variables, frames' locals and
// pending decision (the program's code fills it: export_py writes the dict)
struct Exported {
    std::vector<Id> items;   // as Loaded's
    std::vector<int> zone_at;
    std::vector<Id> loc;
    std::vector<I> facing;
    std::vector<Id> revealed;
    Id active = 0;
    I turn = 0, moves = 0, spent = 0, called = 0, nchance = 0;
    uint64_t rng = 0;
    int phase = 0;
    // the frames: ``nframes`` of ``frame_size`` bytes from ``frame0``, each's procedure,
    // instruction and code of where its value goes (-1: none) at these offsets, as ints
    const char* frame0 = nullptr;
    size_t nframes = 0, frame_size = 0, proc_off = 0, pc_off = 0, ret_off = 0;
    bool xchance = false;
    const std::vector<int>* taken = nullptr;
    PyObject* step = nullptr;
    bool deciding = false;   // a decision pending (of ``player``)
    Id player = -1;
    MK_MEMBER Exported();
    MK_MEMBER ~Exported();
};
// export()'s dict of ``e``: the variables (``vars``), the frames' locals (``fields``,
// ``fields_at``), the names of procedures and of the locals values go to (``ret_slot``),
// and the pending decision (``pending(d)``: written into the dict d)
MK_SHARED PyObject* export_py(const Exported& e, const char* state, const VarD* vars, int nvars, int np, int ni,
                              const FieldD* fields, const int* fields_at, const Str* proc_names,
                              const Str* ret_slot, void (*pending)(const char* state, PyObject* d));

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
        default: return t.to(at, t);
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
        default: t.from(at, t, o);
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
    if (site.nverbs > 0) {
        PyObject* l = PyList_New(site.nverbs);
        for (int q = 0; q < site.nverbs; ++q) PyList_SET_ITEM(l, q, text_py(site.verbs[q]));
        put_py(d, "alone", l);
    } else if (site.alone.n > 0) {
        put_py(d, "alone", text_py(site.alone));
    }
    if (site.said.n >= 0) put_py(d, "said", text_py(site.said));
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

// whether d["alone"] is a decision's verbs alone: its one text (or none), or the list
// of its several
static bool same_alone(PyObject* d, const SiteD& site) {
    if (site.nverbs == 0) return same_text(d, "alone", site.alone);
    PyObject* v = PyDict_GetItemString(d, "alone");
    if (v == nullptr || !PyList_Check(v) || PyList_GET_SIZE(v) != site.nverbs) return false;
    bool ok = true;
    for (int q = 0; ok && q < site.nverbs; ++q) {
        PyObject* w = text_py(site.verbs[q]);
        PyObject* x = PyList_GET_ITEM(v, q);
        ok = w != nullptr && PyUnicode_Check(x) && PyUnicode_Compare(x, w) == 0;
        Py_XDECREF(w);
    }
    PyErr_Clear();
    return ok;
}

int pending_from_py(char* opts, const SiteD* sites, int n, PyObject* p, int proc, int pc) {
    for (int k = 0; k < n; ++k) {
        const SiteD& site = sites[k];
        // (``said`` is read only where the decision names one: other kernels as before)
        if (site.kind == 'o' && site.proc == proc && site.pc == pc && same_text(p, "var", site.var) &&
            same_text(p, "type", site.type) && same_text(p, "verb", site.verb) && same_alone(p, site) &&
            (site.said.n < 0 || same_text(p, "said", site.said))) {
            value_from_py(opts + site.off, *site.t, dict_item(p, "options"));
            return k;
        }
    }
    throw PyFail();
}

Loaded::Loaded() {}
Loaded::~Loaded() {}
Exported::Exported() {}
Exported::~Exported() {}

static const char* const STATE_PHASES[] = {"setup", "play", "ending", "over"};

static PyObject* ints_py(const I* v, size_t n) {
    PyObject* l = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; k < n; ++k) PyList_SET_ITEM(l, (Py_ssize_t)k, PyLong_FromLongLong(v[k]));
    return l;
}
static PyObject* ids_py(const Id* v, size_t n) {
    PyObject* l = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; k < n; ++k) PyList_SET_ITEM(l, (Py_ssize_t)k, PyLong_FromLong(v[k]));
    return l;
}

static void load_zones(PyObject* d, Loaded& out, int ni, int nz) {
    PyObject* zones = dict_item(d, "zones");
    if (!PyList_CheckExact(zones) || PyList_GET_SIZE(zones) != nz) throw PyFail();
    std::vector<Id> seen((size_t)ni, 0);
    out.zone_at.push_back(0);
    for (int z = 0; z < nz; ++z) {
        PyObject* l = PyList_GET_ITEM(zones, z);
        if (!PyList_CheckExact(l)) throw PyFail();
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(l); ++k) {
            Id i = from_py_id(PyList_GET_ITEM(l, k), ni);
            if (i < 0 || seen[(size_t)i]) throw PyFail();
            seen[(size_t)i] = 1;
            out.items.push_back(i);
        }
        out.zone_at.push_back((int)out.items.size());
    }
}

static void load_frames(PyObject* d, Loaded& out, const Str* proc_names, const int* proc_end, int nprocs) {
    PyObject* stack = dict_item(d, "stack");
    if (!PyList_CheckExact(stack) || PyList_GET_SIZE(stack) == 0) throw PyFail();
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(stack); ++k) {
        PyObject* f = PyList_GET_ITEM(stack, k);
        PyObject* p = dict_item(f, "p");
        int proc = -1;
        for (int q = 0; q < nprocs; ++q)
            if (PyUnicode_Check(p) && !PyUnicode_CompareWithASCIIString(p, proc_names[q].c_str())) proc = q;
        if (proc < 0) throw PyFail();
        I pc = from_py_int(dict_item(f, "pc"));
        if (pc < 0 || pc > proc_end[proc]) throw PyFail();
        PyObject* L = dict_item(f, "L");
        if (!PyDict_CheckExact(L)) throw PyFail();
        out.frames.push_back({proc, (int)pc, L});
    }
}

void load_py(PyObject* d, Loaded& out, int ni, int nz, int np, const Str* proc_names, const int* proc_end,
             int nprocs) {
    load_zones(d, out, ni, nz);
    PyObject* facing = dict_item(d, "facing");
    if (!PyList_CheckExact(facing) || PyList_GET_SIZE(facing) != ni) throw PyFail();
    for (int i = 0; i < ni; ++i) {
        I f = from_py_int(PyList_GET_ITEM(facing, i));
        if (f < -1 || (np < 62 && f >= ((I)1 << np))) throw PyFail();
        out.facing.push_back(f);
    }
    PyObject* revealed = dict_item(d, "revealed");
    if (!PyList_CheckExact(revealed)) throw PyFail();
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(revealed); ++k) {
        Id z = from_py_id(PyList_GET_ITEM(revealed, k), nz);
        if (z < 0) throw PyFail();
        out.revealed.push_back(z);
    }
    PyObject* chance = PyDict_GetItemString(d, "chance");
    out.chance = chance && chance != Py_None ? chance : nullptr;
    out.vars = dict_item(d, "vars");
    out.pvars = dict_item(d, "pvars");
    out.ivars = dict_item(d, "ivars");
    out.active = from_py_id(dict_item(d, "active"), np);
    out.turn = from_py_int(dict_item(d, "turn"));
    out.moves = from_py_int(dict_item(d, "moves"));
    if (out.active < 0 || out.turn < 0 || out.moves < 0) throw PyFail();
    unsigned long long rng = PyLong_AsUnsignedLongLong(dict_item(d, "rng"));
    if (PyErr_Occurred()) throw PyFail();
    out.rng = rng;
    PyObject* phase = dict_item(d, "phase");
    out.phase = -1;
    for (int k = 0; k < 3; ++k)
        if (PyUnicode_Check(phase) && !PyUnicode_CompareWithASCIIString(phase, STATE_PHASES[k])) out.phase = k;
    if (out.phase < 0) throw PyFail();
    load_frames(d, out, proc_names, proc_end, nprocs);
    out.pending = dict_item(d, "pending");
}

int locals_from_py(char* fr, int proc, PyObject* L, int caller, const FieldD* d, const int* at,
                   int (*ret_code)(int, PyObject*)) {
    int ret = -1;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(L, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) throw PyFail();
        if (!PyUnicode_CompareWithASCIIString(key, "$ret")) {
            if (caller < 0) throw PyFail();
            ret = ret_code(caller, value);
            continue;
        }
        local_from_py(fr, proc, d, at, key, value);
    }
    return ret;
}

static void put_ints(PyObject* d, const char* key, I v) { put_py(d, key, PyLong_FromLongLong(v)); }

PyObject* export_py(const Exported& e, const char* state, const VarD* vars, int nvars, int np, int ni,
                    const FieldD* fields, const int* fields_at, const Str* proc_names, const Str* ret_slot,
                    void (*pending)(const char* state, PyObject* d)) {
    PyObject* d = PyDict_New();
    PyObject* zones = PyList_New((Py_ssize_t)e.zone_at.size() - 1);
    for (size_t z = 0; z + 1 < e.zone_at.size(); ++z)
        PyList_SET_ITEM(zones, (Py_ssize_t)z, ids_py(e.items.data() + e.zone_at[z], (size_t)(e.zone_at[z + 1] - e.zone_at[z])));
    put_py(d, "zones", zones);
    put_py(d, "loc", ids_py(e.loc.data(), e.loc.size()));
    put_py(d, "facing", ints_py(e.facing.data(), e.facing.size()));
    put_py(d, "revealed", ids_py(e.revealed.data(), e.revealed.size()));
    PyObject* g = PyDict_New();
    PyObject* pv = PyDict_New();
    PyObject* iv = PyDict_New();
    vars_py(state, vars, nvars, np, ni, g, pv, iv);
    put_py(d, "vars", g);
    put_py(d, "pvars", pv);
    put_py(d, "ivars", iv);
    put_ints(d, "active", e.active);
    put_ints(d, "turn", e.turn);
    put_ints(d, "moves", e.moves);
    put_ints(d, "spent", e.spent);   // (the work the last run of the rules counted: Runtime.spent)
    put_ints(d, "called", e.called);   // (and the calls it counted: Runtime.called)
    put_py(d, "rng", PyLong_FromUnsignedLongLong(e.rng));
    put_py(d, "phase", PyUnicode_FromString(STATE_PHASES[e.phase]));
    PyObject* stack = PyList_New((Py_ssize_t)e.nframes);
    for (size_t k = 0; k < e.nframes; ++k) {
        const char* fr = e.frame0 + k * e.frame_size;
        int proc = *(const int*)(fr + e.proc_off), ret = *(const int*)(fr + e.ret_off);
        PyObject* f = PyDict_New();
        PyObject* L = PyDict_New();
        frame_py(fr, proc, fields, fields_at, L);
        if (ret >= 0) put_py(L, "$ret", py_str(ret_slot[ret]));
        put_py(f, "p", py_str(proc_names[proc]));
        put_ints(f, "pc", *(const int*)(fr + e.pc_off));
        put_py(f, "L", L);
        PyList_SET_ITEM(stack, (Py_ssize_t)k, f);
    }
    put_py(d, "stack", stack);
    if (e.xchance) {
        PyObject* ch = PyDict_New();
        put_py(ch, "taken", ids_py(e.taken->data(), e.taken->size()));
        PyDict_SetItemString(ch, "step", e.step ? e.step : Py_None);
        put_ints(ch, "n", e.nchance);
        put_py(d, "chance", ch);
    }
    if (e.deciding) {
        PyObject* p = PyDict_New();
        put_ints(p, "player", e.player);
        pending(state, p);
        put_py(d, "pending", p);
    } else {
        PyDict_SetItemString(d, "pending", Py_None);
    }
    return d;
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
