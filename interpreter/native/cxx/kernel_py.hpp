// Python's values in a kernel and back (interpreter/native/kernel_bridge.py reads them
// through cxx/kernel_values.hpp): ints, ids, truths, enum members, texts and lists made
// into Python objects and read from them, and a Python object a state holds (PyRef).
// Part of the runtime every kernel starts with, right after cxx/kernel_zones.hpp
// (interpreter/native/kernel_types.runtime_cxx).
namespace mk {

// ------------------------------------------------------------------ Python values
static inline PyObject* py_int(I v) {
    if (v == NONE_I) Py_RETURN_NONE;
    return PyLong_FromLongLong(v);
}
static inline PyObject* py_id(Id v) {
    if (v < 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}
static inline PyObject* py_bool(bool v) {
    if (v) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}
static inline PyObject* py_enum(Id v, PyObject* const* names) {
    if (v < 0) Py_RETURN_NONE;
    Py_INCREF(names[v]);
    return names[v];
}
static inline PyObject* py_str(const Str& s) {
    if (is_none_s(s)) Py_RETURN_NONE;
    return PyUnicode_FromStringAndSize(s.data(), (Py_ssize_t)s.size());
}

struct PyFail {};  // a Python value that is not what the kernel expects (import)

static inline I from_py_int(PyObject* o) {
    if (o == Py_None) return NONE_I;
    if (!PyLong_CheckExact(o)) throw PyFail();
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &over);
    if (over || v == NONE_I) throw PyFail();
    return (I)v;
}
static inline Id from_py_id(PyObject* o, Id limit) {
    if (o == Py_None) return NONE_ID;
    if (!PyLong_CheckExact(o)) throw PyFail();
    long v = PyLong_AsLong(o);
    if (v < 0 || v >= limit) throw PyFail();
    return (Id)v;
}
static inline bool from_py_bool(PyObject* o) {
    if (o == Py_True) return true;
    if (o == Py_False) return false;
    throw PyFail();
}
static inline Str from_py_str(PyObject* o) {
    if (o == Py_None) return NONE_S;
    if (!PyUnicode_CheckExact(o)) throw PyFail();
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(o, &n);
    if (!s) {
        PyErr_Clear();
        throw PyFail();
    }
    return Str(s, (size_t)n);
}
static inline Id from_py_enum(PyObject* o, PyObject* const* names, Id count) {
    if (o == Py_None) return NONE_ID;
    if (!PyUnicode_CheckExact(o)) throw PyFail();
    for (Id i = 0; i < count; ++i) {
        int c = PyUnicode_Compare(o, names[i]);
        if (c == 0) return i;
    }
    PyErr_Clear();
    throw PyFail();
}

static inline PyObject* py_none() { Py_RETURN_NONE; }
// a list's Python value (none: None)
template <class T, class F>
static PyObject* py_list(const List<T>& l, F conv) {
    if (l.is_none()) Py_RETURN_NONE;
    PyObject* out = PyList_New((Py_ssize_t)l.size());
    if (!out) return nullptr;
    for (size_t i = 0; i < l.size(); ++i) {
        PyObject* x = conv(l[i]);
        if (!x) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, x);
    }
    return out;
}
// a tuple's Python value, a list of its parts' (``parts``: new references, or nullptr)
static PyObject* py_parts(std::initializer_list<PyObject*> parts) {
    PyObject* out = PyList_New((Py_ssize_t)parts.size());
    Py_ssize_t i = 0;
    bool failed = !out;
    for (PyObject* x : parts) {
        if (!x || failed) {
            Py_XDECREF(x);
            failed = true;
            continue;
        }
        PyList_SET_ITEM(out, i++, x);
    }
    if (failed) {
        Py_XDECREF(out);
        return nullptr;
    }
    return out;
}
// the parts of a tuple from Python: a list of ``n`` values (throws PyFail otherwise)
static inline PyObject* tuple_part(PyObject* o, Py_ssize_t n, Py_ssize_t k) {
    if (!PyList_CheckExact(o) || PyList_GET_SIZE(o) != n) throw PyFail();
    return PyList_GET_ITEM(o, k);
}

template <class T, class F>
static List<T> from_py_list(PyObject* o, F conv) {
    if (o == Py_None) return List<T>::none();
    if (!PyList_CheckExact(o)) throw PyFail();
    Py_ssize_t n = PyList_GET_SIZE(o);
    Vec<T> v;
    v.reserve((size_t)n);
    for (Py_ssize_t i = 0; i < n; ++i) v.push_back(conv(PyList_GET_ITEM(o, i)));
    return List<T>(std::move(v));
}

// a Python object a state holds (its reference counted; the GIL is held whenever a
// state is made, copied or dropped)
struct PyRef {
    PyObject* p = nullptr;
    PyRef() {}
    PyRef(const PyRef& o) : p(o.p) { Py_XINCREF(p); }
    PyRef& operator=(const PyRef& o) {
        Py_XINCREF(o.p);
        Py_XDECREF(p);
        p = o.p;
        return *this;
    }
    ~PyRef() { Py_XDECREF(p); }
    void reset(PyObject* q) {  // (takes q's reference)
        Py_XDECREF(p);
        p = q;
    }
};

}  // namespace mk
