// Explicit chance in a kernel (Runtime.draw): written into every kernel by
// interpreter/native/kernel.py once St is declared. In explicit chance mode (St::xchance) a
// random statement's draws are the outcomes set so far for it (St::taken, read from
// St::used on), else it stops at a chance step: the step's outcomes (items or values
// alike are one), as Runtime.draw writes them, held as that Python dict (St::step), the
// frame left at the statement, which runs again from its start once the outcome is set
// (kernel_chance.py writes the statements: the procedure returns at once, and run()
// stops). A step with one outcome is no step: the generator draws which candidate it
// is, as the seeded mode does.

// a kind of step's name, as Runtime.draw names them
static const char* CHANCE_KINDS[] = {"shuffle", "pick", "roll", "tie"};

static PyObject* py_ints(const std::vector<int>& v) {
    PyObject* l = PyList_New((Py_ssize_t)v.size());
    if (!l) bail();
    for (size_t k = 0; k < v.size(); ++k) PyList_SET_ITEM(l, (Py_ssize_t)k, PyLong_FromLong(v[k]));
    return l;
}

// a step's keys, in the order Runtime.draw writes them (made once: interned strings)
enum { K_KIND, K_TYPE, K_OPTIONS, K_WEIGHTS, K_TAKE, K_OF, NSTEP_KEYS };
static PyObject* step_key(int k) {
    static const char* const NAMES[NSTEP_KEYS] = {"kind", "type", "options", "weights", "take", "of"};
    static PyObject* made[NSTEP_KEYS] = {};
    if (!made[k] && !(made[k] = PyUnicode_InternFromString(NAMES[k]))) bail();
    return made[k];
}

static void put_new(PyObject* d, int key, PyObject* v) {
    if (!v) {
        Py_DECREF(d);
        bail();
    }
    PyDict_SetItem(d, step_key(key), v);
    Py_DECREF(v);
}

// whether two Python values are the same plain data: equal, and of the same types all
// the way down (1 and True are equal in Python, not the same outcome's value)
static bool same_value(PyObject* a, PyObject* b) {
    if (Py_TYPE(a) != Py_TYPE(b)) return false;
    if (PyList_CheckExact(a)) {
        Py_ssize_t n = PyList_GET_SIZE(a);
        if (PyList_GET_SIZE(b) != n) return false;
        for (Py_ssize_t k = 0; k < n; ++k)
            if (!same_value(PyList_GET_ITEM(a, k), PyList_GET_ITEM(b, k))) return false;
        return true;
    }
    int eq = PyObject_RichCompareBool(a, b, Py_EQ);
    if (eq < 0) PyErr_Clear();
    return eq == 1;
}

// the last chance step made: a step equal to it is that same dict (steps are never
// changed, only replaced), which spares making it again (a die rolled turn after turn)
static PyObject* LAST_STEP = nullptr;
static int LAST_KIND = -1;
static std::vector<int> LAST_TAKE, LAST_WEIGHTS, LAST_OF;

static bool last_step_is(int kind, const char* type, const std::vector<int>& take, const std::vector<int>& weights,
                         const std::vector<int>& of, PyObject* options) {
    if (!LAST_STEP || LAST_KIND != kind || take != LAST_TAKE || weights != LAST_WEIGHTS || of != LAST_OF) return false;
    PyObject* t = PyDict_GetItem(LAST_STEP, step_key(K_TYPE));
    PyObject* o = PyDict_GetItem(LAST_STEP, step_key(K_OPTIONS));
    return t && o && PyUnicode_Check(t) && !PyUnicode_CompareWithASCIIString(t, type) && same_value(o, options);
}

// the candidate a draw among n takes: ``alike(a, b)`` tells two candidates apart as
// Runtime.draw's keys do (only candidates of the same ``klass(r)`` may be alike: for
// items, their kind and attributes), ``py(r)`` is candidate r's Python value
template <class Alike, class Klass, class Py>
static I draw(St& s, I n, int kind, const char* type, Alike alike, Klass klass, Py py) {
    if (!s.xchance) return below(s.rng, n);
    if (n <= 0) bail();
    if (s.used < (int)s.taken.size()) {
        I r = s.taken[s.used++];
        if (r < 0 || r >= n) bail();
        return r;
    }
    std::vector<int> take, weights, of((size_t)n), firsts, classes;
    take.reserve((size_t)n), weights.reserve((size_t)n), firsts.reserve((size_t)n), classes.reserve((size_t)n);
    for (int r = 0; r < (int)n; ++r) {
        int c = klass(r);
        size_t k = 0;
        while (k < firsts.size() && (classes[k] != c || !alike(firsts[k], r))) ++k;
        if (k == firsts.size()) {
            firsts.push_back(r);
            classes.push_back(c);
            take.push_back(r);
            weights.push_back(0);
        }
        of[r] = (int)k;
        take[k] = r;  // the last candidate of its outcome stands for it
        weights[k] += 1;
    }
    if (take.size() == 1) {
        I r = below(s.rng, n);
        s.taken.push_back((int)r);
        s.used += 1;
        return r;
    }
    PyObject* options = PyList_New((Py_ssize_t)take.size());
    if (!options) bail();
    for (size_t k = 0; k < take.size(); ++k) {
        PyObject* v = py(take[k]);
        if (!v) {
            Py_DECREF(options);
            bail();
        }
        PyList_SET_ITEM(options, (Py_ssize_t)k, v);
    }
    if (last_step_is(kind, type, take, weights, of, options)) {
        Py_DECREF(options);
        Py_INCREF(LAST_STEP);
        s.step.reset(LAST_STEP);
        s.step_n = (int)n;
        return -1;
    }
    PyObject* d = PyDict_New();
    if (!d) {
        Py_DECREF(options);
        bail();
    }
    put_new(d, K_KIND, PyUnicode_FromString(CHANCE_KINDS[kind]));
    put_new(d, K_TYPE, PyUnicode_FromString(type));
    put_new(d, K_OPTIONS, options);
    put_new(d, K_WEIGHTS, py_ints(weights));
    put_new(d, K_TAKE, py_ints(take));
    put_new(d, K_OF, py_ints(of));
    s.step.reset(d);
    s.step_n = (int)n;
    Py_INCREF(d);
    Py_XDECREF(LAST_STEP);
    LAST_STEP = d, LAST_KIND = kind, LAST_TAKE = take, LAST_WEIGHTS = weights, LAST_OF = of;
    return -1;  // (the statement returns from its procedure: see kernel_chance.py)
}
