// Random playouts in a kernel (interpreter/analysis/playouts.py): whole games of random
// moves played in C++, one call for many games. Written into every kernel by
// interpreter/native/kernel_module.py after cxx/kernel_glue.hpp.
//
// Each seat draws its moves as a random bot does (bots.RandomBot, bots._random_mover):
// Python's ``random.Random(seed)`` (MT19937 seeded by init_by_array with the seed's
// 32-bit words, least significant first: Python gives them as bytes), a move drawn as
// ``randrange(n)`` draws it (``getrandbits(n.bit_length())`` until below n). A chance
// step (a state in explicit chance mode) is drawn from the state's generator
// (Game.sample_chance); in the seeded mode the rules draw from it as always.

// MT19937 (Python's random.Random), shared by the playouts' generator (PyRandom, which
// twists each word as it reads it) and the rollouts' (BlockMT, the whole block at once,
// as CPython does): word k of the next block, from words k + 1 and k + 397 not yet
// twisted and k - 227 already twisted
static inline uint32_t mt_twist(const uint32_t* mt, int k) {
    uint32_t y = (mt[k] & 0x80000000U) | (mt[k == 623 ? 0 : k + 1] & 0x7fffffffU);
    return mt[k < 227 ? k + 397 : k - 227] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
}

// a word as the generator gives it
static inline uint32_t mt_temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

// randrange(n) for 1 <= n < 2**31 (bits of n's length until one is below n)
template <class G> static inline int mt_below(G& g, int n) {
    int k = 0;
    while ((1LL << k) <= n) ++k;
    uint32_t r;
    do r = g.next() >> (32 - k); while (r >= (uint32_t)n);
    return (int)r;
}

struct PyRandom {
    uint32_t mt[624];
    int mti = 624;

    // init_genrand(19650218), where init_by_array begins: the same for every seed
    static const uint32_t* base() {
        static uint32_t b[624];
        static bool made = false;
        if (!made) {
            b[0] = 19650218U;
            for (int i = 1; i < 624; ++i) b[i] = 1812433253U * (b[i - 1] ^ (b[i - 1] >> 30)) + (uint32_t)i;
            made = true;
        }
        return b;
    }
    void init_by_array(const std::vector<uint32_t>& key) {
        std::memcpy(mt, base(), sizeof mt);
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
        mti = 624;
    }
    // the next output: each word is twisted just before it is read, in order, which
    // gives what the whole twist at once gives (word k reads words k + 1 and k + 397
    // not yet twisted, and k - 227 already twisted) at the cost of the words read
    uint32_t next() {
        if (mti >= 624) mti = 0;
        int k = mti++;
        mt[k] = mt_twist(mt, k);
        return mt_temper(mt[k]);
    }
    int below(int n) { return mt_below(*this, n); }
};

// SHA-256 (FIPS 180-4) of a short message: bots.bot_seed in the kernel
static void sha256(const std::string& msg, uint32_t h[8]) {
    static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    auto rot = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
    std::string m = msg;
    uint64_t bits = (uint64_t)msg.size() * 8;
    m.push_back((char)0x80);
    while (m.size() % 64 != 56) m.push_back('\0');
    for (int k = 7; k >= 0; --k) m.push_back((char)((bits >> (8 * k)) & 0xff));
    for (int k = 0; k < 8; ++k) h[k] = H0[k];
    for (size_t at = 0; at < m.size(); at += 64) {
        uint32_t w[64];
        for (int k = 0; k < 16; ++k)
            w[k] = (uint32_t)(unsigned char)m[at + 4 * k] << 24 | (uint32_t)(unsigned char)m[at + 4 * k + 1] << 16
                 | (uint32_t)(unsigned char)m[at + 4 * k + 2] << 8 | (uint32_t)(unsigned char)m[at + 4 * k + 3];
        for (int k = 16; k < 64; ++k) {
            uint32_t s0 = rot(w[k - 15], 7) ^ rot(w[k - 15], 18) ^ (w[k - 15] >> 3);
            uint32_t s1 = rot(w[k - 2], 17) ^ rot(w[k - 2], 19) ^ (w[k - 2] >> 10);
            w[k] = w[k - 16] + s0 + w[k - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int k = 0; k < 64; ++k) {
            uint32_t t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[k] + w[k];
            uint32_t t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
        }
        h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
    }
}

// seat ``seat``'s generator in game ``game`` of a run from ``seed``: random.Random(
// bot_seed(seed, game, seat)), the hash read as an integer (big-endian) whose 32-bit
// words, least significant first, are the digest's last word first
static void bot_generator(long long seed, long long game, int seat, PyRandom& out) {
    std::string msg = "meeple/bot-seed/v1";
    for (long long v : {seed, game, (long long)seat}) {
        msg.push_back('\0');
        msg += std::to_string(v);
    }
    uint32_t h[8];
    sha256(msg, h);
    std::vector<uint32_t> key;
    for (int k = 7; k >= 0; --k) key.push_back(h[k]);
    while (key.size() > 1 && key.back() == 0) key.pop_back();
    out.init_by_array(key);
}

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

// a game's seats' generators from Python's tuple of their seeds, each as bytes: the
// seed's absolute value, least significant byte first, in whole 32-bit words
static bool seeded(PyObject* keys, PyRandom* seats) {
    if (!PyTuple_Check(keys) || PyTuple_GET_SIZE(keys) != NP) return false;
    std::vector<uint32_t> key;
    for (int p = 0; p < NP; ++p) {
        PyObject* b = PyTuple_GET_ITEM(keys, p);
        if (!PyBytes_Check(b)) return false;
        Py_ssize_t len = PyBytes_GET_SIZE(b);
        if (len < 4 || len % 4) return false;
        const unsigned char* c = (const unsigned char*)PyBytes_AS_STRING(b);
        key.assign((size_t)(len / 4), 0);
        for (Py_ssize_t k = 0; k < len; ++k) key[(size_t)(k / 4)] |= (uint32_t)c[k] << (8 * (k % 4));
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

// rng.seed_state(seed): the generator of a game of seed ``seed``
static uint64_t seed_state(long long seed) {
    uint64_t s = (uint64_t)seed;
    return next_u64(s);
}

// one game played from ``from`` (a copy of it, its generator set to ``rng``) or from its
// start: its answer, or None where the kernel cannot play it to its end; nullptr with
// Python's error set (a signal)
static PyObject* one_playout(const St* from, uint64_t rng, PyRandom* seats, I max_moves, Playout& o) {
    St* s = from ? new St(*from) : fresh(rng);
    if (s && from) s->rng = rng;
    int status = s ? play_out(*s, seats, max_moves, o) : 1;
    PyObject* got = status == 0 ? playout_py(*s, o) : (Py_INCREF(Py_None), Py_None);
    delete s;
    if (got && PyErr_CheckSignals() < 0) {
        Py_DECREF(got);
        return nullptr;
    }
    return got;
}

// playouts(games, max_moves), of a state (each game from a copy of it) or of the module
// (each game from its own start, as start(rng) makes it). ``games``: a list of
// (rng, seeds) — the generator state a game starts with (for a state: replacing its
// own), and per seat its bot's seed (as ``seeded`` reads it); or (seed, first, count),
// the games first..first+count-1 of a run from ``seed`` (simulation.specs): game i of
// generator rng.seed_state(seed + i), seat s's bot seeded bot_seed(seed, i, s). Gives a
// list with per game (result, moves, turns, first, counts), or None where the kernel
// cannot play it to its end (Python then plays it).
static PyObject* k_playouts(PyObject* self, PyObject* const* args, Py_ssize_t n) {
    long long run[3] = {0, 0, 0};
    bool listed = n == 2 && PyList_Check(args[0]);
    if (n != 2 || (!listed && !PyArg_ParseTuple(args[0], "LLL", &run[0], &run[1], &run[2]))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "playouts(games, max_moves)");
        return nullptr;
    }
    long long max_moves = PyLong_AsLongLong(args[1]);
    if (max_moves == -1 && PyErr_Occurred()) return nullptr;
    const St* from = Py_TYPE(self) == &KStateType ? ((KState*)self)->s : nullptr;
    Py_ssize_t games = listed ? PyList_GET_SIZE(args[0]) : (Py_ssize_t)std::max(0LL, run[2]);
    PyObject* out = PyList_New(games);
    if (!out) return nullptr;
    std::vector<PyRandom> seats((size_t)NP);
    Playout o;
    for (Py_ssize_t g = 0; g < games; ++g) {
        unsigned long long rng = 0;
        if (!listed) {
            long long i = run[1] + g;
            rng = seed_state(run[0] + i);
            for (int p = 0; p < NP; ++p) bot_generator(run[0], i, p, seats[(size_t)p]);
        } else {
            PyObject* game = PyList_GET_ITEM(args[0], g);
            if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != 2
                    || (rng = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(game, 0)), PyErr_Occurred())
                    || !seeded(PyTuple_GET_ITEM(game, 1), seats.data())) {
                PyErr_Clear();
                Py_DECREF(out);
                PyErr_SetString(PyExc_ValueError, "playouts: each game is (rng, one seed's bytes per seat)");
                return nullptr;
            }
        }
        PyObject* got = one_playout(from, rng, seats.data(), max_moves, o);
        if (!got) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, g, got);
    }
    return out;
}
