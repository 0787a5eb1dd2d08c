// Random playouts in a kernel (interpreter/analysis/playouts.py): whole games of random
// moves played in C++, one call for many games. Written into every kernel by
// interpreter/native/kernel_module.py after cxx/kernel_glue.hpp.
//
// Each seat draws its moves as a random bot does (bots.RandomBot, bots._random_mover):
// Python's ``random.Random(seed)`` (MT19937 seeded by init_by_array with the seed's
// 32-bit words, least significant first: Python gives them), a move drawn as
// ``randrange(n)`` draws it (``getrandbits(n.bit_length())`` until below n). A chance
// step (a state in explicit chance mode) is drawn from the state's generator
// (Game.sample_chance); in the seeded mode the rules draw from it as always.

struct PyRandom {
    uint32_t mt[624];
    int mti = 625;

    void init_genrand(uint32_t s) {
        mt[0] = s;
        for (mti = 1; mti < 624; ++mti) mt[mti] = 1812433253U * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + (uint32_t)mti;
    }
    void init_by_array(const std::vector<uint32_t>& key) {
        init_genrand(19650218U);
        size_t i = 1, j = 0, len = key.size();
        for (size_t k = 624 > len ? 624 : len; k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
            ++i, ++j;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
            if (j >= len) j = 0;
        }
        for (size_t k = 623; k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
            ++i;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
        }
        mt[0] = 0x80000000U;
    }
    uint32_t next() {
        static const uint32_t MAG[2] = {0x0U, 0x9908b0dfU};
        if (mti >= 624) {
            int kk = 0;
            for (; kk < 624 - 397; ++kk) {
                uint32_t y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
                mt[kk] = mt[kk + 397] ^ (y >> 1) ^ MAG[y & 1U];
            }
            for (; kk < 623; ++kk) {
                uint32_t y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
                mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ MAG[y & 1U];
            }
            uint32_t y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
            mt[623] = mt[396] ^ (y >> 1) ^ MAG[y & 1U];
            mti = 0;
        }
        uint32_t y = mt[mti++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }
    // randrange(n) for 1 <= n < 2**31
    int below(int n) {
        int k = 0;
        while ((1LL << k) <= n) ++k;
        uint32_t r;
        do r = next() >> (32 - k); while (r >= (uint32_t)n);
        return (int)r;
    }
};

// what one playout gives back to Python
struct Playout {
    I moves = 0;
    Id first = -1;             // the seat of the first decision (-1: none, or several seats')
    std::vector<I> counts;     // moves per decision and seat: [site * NP + seat]
    std::vector<size_t> order; // those counted, in the order of their first moves
};

// plays ``s`` to its end with the seats' generators: 0 the game is over, 1 the kernel
// cannot decide a move (Python plays the game: it gives the result or error), 2 the game
// did not end within ``max_moves`` moves (Python says so)
static int play_out(St& s, PyRandom* seats, I max_moves, Playout& out) {
    out.counts.assign((size_t)(NSITES > 0 ? NSITES : 1) * NP, 0);
    out.order.clear();
    out.moves = 0;
    out.first = -1;
    try {
        while (s.phase != 3) {
            if (s.step.p) {   // (explicit chance: Game.sample_chance)
                resolve(s, below(s.rng, s.step_n));
                continue;
            }
            if (s.site < 0) return 1;
            if (out.moves >= max_moves) return 2;
            Id seat = s.player;
            int n = site_count(s, seat);
            if (n <= 0 || n >= (1 << 30)) return 1;
            if (out.moves == 0) out.first = s.simul && s.each_n != 1 ? -1 : seat;
            size_t at = (size_t)s.site * NP + seat;
            if (out.counts[at]++ == 0) out.order.push_back(at);
            take(s, seats[seat].below(n), seat);
            out.moves += 1;
        }
    } catch (Interrupted&) {
        throw;
    } catch (...) {
        return 1;
    }
    return 0;
}

// a game's seats' generators from Python's tuple of their seeds' words
static bool seeded(PyObject* keys, PyRandom* seats) {
    if (!PyTuple_Check(keys) || PyTuple_GET_SIZE(keys) != NP) return false;
    for (int p = 0; p < NP; ++p) {
        PyObject* words = PyTuple_GET_ITEM(keys, p);
        if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) < 1) return false;
        std::vector<uint32_t> key;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(words); ++k) {
            unsigned long w = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, k));
            if ((w == (unsigned long)-1 && PyErr_Occurred()) || w > 0xffffffffUL) return false;
            key.push_back((uint32_t)w);
        }
        seats[p].init_by_array(key);
    }
    return true;
}

// one game's answer: (result, moves, turns, first seat or None, [site, seat, count, ...]
// in the order of their first moves)
static PyObject* playout_py(const St& s, const Playout& o) {
    PyObject* counts = PyList_New(0);
    if (!counts) return nullptr;
    for (size_t k : o.order) {
        long long parts[3] = {(long long)(k / NP), (long long)(k % NP), (long long)o.counts[k]};
        for (long long v : parts) {
            PyObject* x = PyLong_FromLongLong(v);
            PyList_Append(counts, x);
            Py_DECREF(x);
        }
    }
    PyObject* res = result_py(s);
    PyObject* first = o.first < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(o.first);
    PyObject* out = Py_BuildValue("(OLLOO)", res, (long long)o.moves, (long long)s.turn, first, counts);
    Py_XDECREF(res);
    Py_DECREF(first);
    Py_DECREF(counts);
    return out;
}

// playouts(games, max_moves), of a state (each game from a copy of it) or of the module
// (each game from its own start, as start(rng) makes it): ``games`` a list of
// (rng, seeds) — the generator state the game starts with (for a state: replacing its
// own), and per seat the 32-bit words of its bot's seed. Gives a list with per game
// (result, moves, turns, first, counts), or None where the kernel cannot play it to its
// end (Python then plays it).
static PyObject* k_playouts(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    if (n != 2 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "playouts(games, max_moves)");
        return nullptr;
    }
    long long max_moves = PyLong_AsLongLong(args[1]);
    if (max_moves == -1 && PyErr_Occurred()) return nullptr;
    const St* from = Py_TYPE(self) == &KStateType ? ((KState*)self)->s : nullptr;
    Py_ssize_t games = PyList_GET_SIZE(args[0]);
    PyObject* out = PyList_New(games);
    if (!out) return nullptr;
    std::vector<PyRandom> seats((size_t)NP);
    Playout o;
    for (Py_ssize_t g = 0; g < games; ++g) {
        PyObject* game = PyList_GET_ITEM(args[0], g);
        PyObject* got = nullptr;
        unsigned long long rng = 0;
        if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != 2
                || (rng = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(game, 0)), PyErr_Occurred())
                || !seeded(PyTuple_GET_ITEM(game, 1), seats.data())) {
            PyErr_Clear();
            Py_DECREF(out);
            PyErr_SetString(PyExc_ValueError, "playouts: each game is (rng, one tuple of seed words per seat)");
            return nullptr;
        }
        St* s = from ? new St(*from) : fresh(rng);
        if (s && from) s->rng = rng;
        int status = 1;
        try {
            if (s) status = play_out(*s, seats.data(), max_moves, o);
        } catch (Interrupted&) {
            delete s;
            Py_DECREF(out);
            return nullptr;
        }
        got = status == 0 ? playout_py(*s, o) : (Py_INCREF(Py_None), Py_None);
        delete s;
        if (!got) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, g, got);
        if (PyErr_CheckSignals() < 0) {
            Py_DECREF(out);
            return nullptr;
        }
    }
    return out;
}
