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
            for (int k = 0; k < 624; ++k) {
                uint32_t y = (mt[k] & 0x80000000U) | (mt[k == 623 ? 0 : k + 1] & 0x7fffffffU);
                mt[k] = mt[k < 227 ? k + 397 : k - 227] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
            }
            index = 0;
        }
        uint32_t y = mt[index++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }
    // randrange(n) for 1 <= n < 2**31 (bits of n's length until one is below n)
    int below(int n) {
        int k = 0;
        while ((1LL << k) <= n) ++k;
        uint32_t r;
        do r = next() >> (32 - k); while (r >= (uint32_t)n);
        return (int)r;
    }
    // from getstate()[1]; false where it is not one
    bool load(PyObject* st) {
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

// rollout(mt, limit): the steps of a rollout from this state, played on it, with the
// bot's generator state ``mt`` (getstate()[1]). Stops when the game is over, after
// ``limit`` steps, or before a step it cannot take (no seat deciding, a count it does
// not draw): the caller takes that one. Gives (steps, trail, mt, stop): the steps
// taken, what was played as int32 pairs (option, seat; a drawn chance step: -1, -1),
// the generator's state after them, and None, or the step the kernel drew but could not
// play (a rule error, a budget: the state is then unusable and Python plays it): -1
// for a chance step, else (option, seat).
static PyObject* k_rollout(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    BlockMT g;
    long long limit = n == 2 ? PyLong_AsLongLong(args[1]) : -1;
    if (n != 2 || (limit == -1 && PyErr_Occurred()) || !g.load(args[0])) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "rollout(getstate()[1], limit)");
        return nullptr;
    }
    St& s = *((KState*)self)->s;
    std::vector<int32_t> trail;
    long long steps = 0;
    PyObject* stop = Py_None;
    Py_INCREF(stop);
    while (steps < limit && s.phase != 3) {
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
    PyObject* mt = g.dump();
    PyObject* out = stop && bytes && mt ? Py_BuildValue("(LOOO)", steps, bytes, mt, stop) : nullptr;
    Py_XDECREF(bytes);
    Py_XDECREF(mt);
    Py_XDECREF(stop);
    return out;
}
