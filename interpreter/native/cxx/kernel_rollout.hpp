// A search bot's random rollout in a kernel (bots/search.py, SearchBot._playout; the
// Python side is KernelGame.random_moves): up to ``limit`` steps in one call, each a
// chance step drawn from the state's generator (Game.sample_chance) or a move of the
// seat deciding drawn by the bot's own ``random.Random`` (``randrange(move_count)``).
// Written into every kernel by interpreter/native/kernel_module.py after
// cxx/kernel_playout.hpp.

// Python's Mersenne Twister as ``random.Random.getstate()[1]`` holds it: 624 words and
// the index of the next one to read, the whole block twisted at once when it is used up
// (CPython's genrand_uint32), so that its state goes back to Python as it is
struct BlockMT {
    uint32_t mt[624];
    int index = 624;

    uint32_t next() {
        if (index >= 624) {
            for (int k = 0; k < 624; ++k) mt[k] = mt_twist(mt, k);
            index = 0;
        }
        return mt_temper(mt[index++]);
    }
    int below(int n) { return mt_below(*this, n); }
    // from getstate()[1]; false where it is not one
    bool load_words(PyObject* st) {
        if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != 625) return false;
        for (int k = 0; k < 625; ++k) {
            unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(st, k));
            if (PyErr_Occurred() || v > 0xffffffffUL || (k == 624 && v > 624)) {
                PyErr_Clear();
                return false;
            }
            if (k < 624) mt[k] = (uint32_t)v;
            else index = (int)v;
        }
        return true;
    }
    PyObject* dump() const {
        PyObject* out = PyTuple_New(625);
        if (!out) return nullptr;
        for (int k = 0; k < 625; ++k) {
            PyObject* x = k < 624 ? PyLong_FromUnsignedLong(mt[k]) : PyLong_FromLong(index);
            if (!x) {
                Py_DECREF(out);
                return nullptr;
            }
            PyTuple_SET_ITEM(out, k, x);
        }
        return out;
    }
};

// CPython's random.Random object (Modules/_randommodule.c): its generator read and
// written in place, where the layout is this one (``direct_layout`` checks it against
// getstate() once), else through getstate() and setstate()
struct PyRandomObject {
    PyObject_HEAD
    int index;
    uint32_t state[624];
};
static PyTypeObject* RANDOM_TYPE = nullptr;
static int RANDOM_DIRECT = 0;   // 0: not known yet; 1: read in place; 2: through getstate

static bool direct_layout() {
    PyObject* mod = PyImport_ImportModule("_random");
    PyObject* type = mod ? PyObject_GetAttrString(mod, "Random") : nullptr;
    Py_XDECREF(mod);
    bool ok = type && PyType_Check(type) && ((PyTypeObject*)type)->tp_basicsize >= (Py_ssize_t)sizeof(PyRandomObject);
    PyObject* r = ok ? PyObject_CallFunction(type, "i", 20261129) : nullptr;
    PyObject* bits = r ? PyObject_CallMethod(r, "getrandbits", "i", 32) : nullptr;   // (index 1)
    PyObject* st = bits ? PyObject_CallMethod(r, "getstate", nullptr) : nullptr;
    BlockMT g;
    ok = st && PyTuple_Check(st) && PyTuple_GET_SIZE(st) == 625 && g.load_words(st) && g.index == 1;
    if (ok) {
        const PyRandomObject* o = (const PyRandomObject*)r;
        ok = o->index == g.index && !std::memcmp(o->state, g.mt, sizeof g.mt);
    }
    Py_XDECREF(st);
    Py_XDECREF(bits);
    Py_XDECREF(r);
    PyErr_Clear();
    if (ok) RANDOM_TYPE = (PyTypeObject*)type;   // (kept)
    else Py_XDECREF(type);
    return ok;
}

// the generator of ``rng`` (a random.Random) into ``g``; false where it cannot be read
static bool read_random(PyObject* rng, BlockMT& g) {
    if (RANDOM_DIRECT == 0) RANDOM_DIRECT = direct_layout() ? 1 : 2;
    if (RANDOM_DIRECT == 1) {
        if (!PyObject_TypeCheck(rng, RANDOM_TYPE)) return false;
        const PyRandomObject* o = (const PyRandomObject*)rng;
        if (o->index < 0 || o->index > 624) return false;
        std::memcpy(g.mt, o->state, sizeof g.mt);
        g.index = o->index;
        return true;
    }
    PyObject* st = PyObject_CallMethod(rng, "getstate", nullptr);
    bool ok = st && PyTuple_Check(st) && PyTuple_GET_SIZE(st) == 3 && g.load_words(PyTuple_GET_ITEM(st, 1));
    Py_XDECREF(st);
    PyErr_Clear();
    return ok;
}

// ``g`` back into ``rng`` (read by read_random); false with Python's error set
static bool write_random(PyObject* rng, const BlockMT& g) {
    if (RANDOM_DIRECT == 1) {
        PyRandomObject* o = (PyRandomObject*)rng;
        std::memcpy(o->state, g.mt, sizeof g.mt);
        o->index = g.index;
        return true;
    }
    PyObject* st = PyObject_CallMethod(rng, "getstate", nullptr);
    PyObject* words = st ? g.dump() : nullptr;
    PyObject* now = words && PyTuple_Check(st) && PyTuple_GET_SIZE(st) == 3
        ? Py_BuildValue("(OOO)", PyTuple_GET_ITEM(st, 0), words, PyTuple_GET_ITEM(st, 2)) : nullptr;
    PyObject* done = now ? PyObject_CallMethod(rng, "setstate", "(O)", now) : nullptr;
    Py_XDECREF(st);
    Py_XDECREF(words);
    Py_XDECREF(now);
    Py_XDECREF(done);
    return done != nullptr;
}

// rollout(rng, limit): the steps of a rollout from this state, played on it, moves drawn
// by ``rng`` (a random.Random, left as the draws leave it). Stops when the game is over,
// after ``limit`` steps, or before a step it cannot take (no seat deciding, a count it
// does not draw): the caller takes that one. Gives None where it cannot read ``rng``
// (nothing played), else (steps, trail, stop): the steps taken, what was played as
// int32 pairs (option, seat; a drawn chance step: -1, -1), and None, or the step the
// kernel drew but could not play (a rule error, a budget: the state is then unusable
// and Python plays it): -1 for a chance step, else (option, seat); or the exception of
// a signal (Ctrl-C) that came meanwhile (the steps before it taken: the caller raises it).
static PyObject* k_rollout(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    BlockMT g;
    long long limit = n == 2 ? PyLong_AsLongLong(args[1]) : -1;
    if (n != 2 || (limit == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "rollout(rng, limit)");
        return nullptr;
    }
    if (!read_random(args[0], g)) Py_RETURN_NONE;
    St& s = *((KState*)self)->s;
    std::vector<int32_t> trail;
    long long steps = 0;
    PyObject* stop = Py_None;
    Py_INCREF(stop);
    while (steps < limit && s.phase != 3) {
        if ((steps & 4095) == 4095 && PyErr_CheckSignals() < 0) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_NormalizeException(&type, &value, &tb);
            if (tb && value) PyException_SetTraceback(value, tb);
            Py_XDECREF(type);
            Py_XDECREF(tb);
            Py_DECREF(stop);
            stop = value;
            break;
        }
        if (s.step.p) {   // (explicit chance: Game.sample_chance)
            try {
                resolve(s, below(s.rng, s.step_n));
            } catch (...) {
                s.site = -2;   // unusable
                s.step.reset(nullptr);
                Py_DECREF(stop);
                stop = PyLong_FromLong(-1);
                break;
            }
            trail.push_back(-1);
            trail.push_back(-1);
            ++steps;
            continue;
        }
        if (s.site < 0) break;
        Id seat = s.player;
        int c = site_count(s, seat);
        if (c <= 0 || c >= (1 << 30)) break;
        int i = g.below(c);
        try {
            take(s, i, seat);
        } catch (...) {
            s.site = -2;   // unusable
            Py_DECREF(stop);
            stop = Py_BuildValue("(ii)", i, (int)seat);
            break;
        }
        trail.push_back(i);
        trail.push_back(seat);
        ++steps;
    }
    PyObject* bytes = PyBytes_FromStringAndSize((const char*)trail.data(), (Py_ssize_t)(trail.size() * sizeof(int32_t)));
    bool written = write_random(args[0], g);
    PyObject* out = stop && bytes && written ? Py_BuildValue("(LOO)", steps, bytes, stop) : nullptr;
    Py_XDECREF(bytes);
    Py_XDECREF(stop);
    return out;
}
