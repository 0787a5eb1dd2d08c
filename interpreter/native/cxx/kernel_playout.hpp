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

// The seats' generators of a run sit side by side, MT_LANES of them in a block (word k
// of lane l at words[k * MT_LANES + l]): the seeding below (init_by_array, and the
// SHA-256 of bot_seed before it) is then one computation for the block's lanes at once,
// as vectors (GCC's vector extension: SSE2 on x86-64, NEON on arm64), where for one
// generator every step waits for the last
constexpr int MT_LANES = 4;
typedef uint32_t U4 __attribute__((vector_size(16)));
static_assert(sizeof(U4) == MT_LANES * sizeof(uint32_t), "one word per lane");

// init_genrand(19650218), where init_by_array begins: the same for every seed
static const uint32_t* mt_base() {
    static uint32_t b[624];
    static bool made = false;
    if (!made) {
        b[0] = 19650218U;
        for (int i = 1; i < 624; ++i) b[i] = 1812433253U * (b[i - 1] ^ (b[i - 1] >> 30)) + (uint32_t)i;
        made = true;
    }
    return b;
}

// init_by_array of a key of 1..623 words (``kj``: key[j] + j, of the word's type: one
// lane's, or a vector of lanes' keys of the same length ``len``; LEN: that length where
// it is known when compiled, else 0) into ``mt`` (word k at mt[k]): CPython's loops,
// their index checks made once. ``base``: mt_base() as words of that type; ``m1``, ``m2``
// its two multipliers
template <class W, size_t LEN>
static void init_words(W* mt, const W* kj, size_t len, const W* base, W m1, W m2) {
    if (LEN) len = LEN;
    W prev = mt[0] = base[0];
    size_t j = 0;
    for (int i = 1; i < 624; ++i) {   // (624 steps: i = 1..623, then 1 again)
        prev = mt[i] = (base[i] ^ ((prev ^ (prev >> 30)) * m1)) + kj[LEN ? (size_t)(i - 1) % LEN : j];
        if (!LEN && ++j == len) j = 0;
    }
    if (LEN) j = 623 % LEN;
    mt[0] = prev;
    prev = mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * m1)) + kj[j];
    W i_ = W{} + 2U;
    for (int i = 2; i < 624; ++i, i_ += 1U)   // (623 steps: i = 2..623, then 1)
        prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * m2)) - i_;
    mt[0] = prev;
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * m2)) - 1U;
    mt[0] = W{} + 0x80000000U;
}

// init_words for lanes: mt_base() and the multipliers as vectors, made when first
// needed (the multipliers then are not constants the compiler would multiply by in
// shifts and adds: a vector multiplication is fewer instructions)
struct LaneConsts {
    U4 base[624];
    U4 m1, m2;
};
static const LaneConsts& lane_consts() {
    static LaneConsts* c = nullptr;
    if (!c) {
        c = new LaneConsts;
        const uint32_t* b = mt_base();
        for (int i = 0; i < 624; ++i) c->base[i] = U4{} + b[i];
        c->m1 = U4{} + 1664525U;
        c->m2 = U4{} + 1566083941U;
    }
    return *c;
}
static void init_lanes(U4* mt, const U4* kj, size_t len) {
    const LaneConsts& c = lane_consts();
    if (len == 8) init_words<U4, 8>(mt, kj, len, c.base, c.m1, c.m2);
    else init_words<U4, 0>(mt, kj, len, c.base, c.m1, c.m2);
}

// one lane's generator in a block, read as Python's random.Random reads its own
struct PyRandom {
    uint32_t* mt = nullptr;   // (word k at mt[k * MT_LANES])
    int mti = 624;

    // seeded as init_by_array(key) seeds it (any length)
    void init_by_array(const std::vector<uint32_t>& key) {
        size_t len = key.size();
        if (len >= 1 && len < 624) {
            uint32_t kj[624], words[624];
            for (size_t j = 0; j < len; ++j) kj[j] = key[j] + (uint32_t)j;
            init_words<uint32_t, 0>(words, kj, len, mt_base(), 1664525U, 1566083941U);
            for (int k = 0; k < 624; ++k) mt[k * MT_LANES] = words[k];
        } else {   // (CPython's loops as they are)
            uint32_t w[624];
            std::memcpy(w, mt_base(), sizeof w);
            size_t i = 1, j = 0;
            for (size_t k = 624 > len ? 624 : len; k; --k) {
                w[i] = (w[i] ^ ((w[i - 1] ^ (w[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
                ++i, ++j;
                if (i >= 624) { w[0] = w[623]; i = 1; }
                if (j >= len) j = 0;
            }
            for (size_t k = 623; k; --k) {
                w[i] = (w[i] ^ ((w[i - 1] ^ (w[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
                ++i;
                if (i >= 624) { w[0] = w[623]; i = 1; }
            }
            w[0] = 0x80000000U;
            for (int k = 0; k < 624; ++k) mt[k * MT_LANES] = w[k];
        }
        mti = 624;
    }
    // the next output: each word is twisted just before it is read, in order, which
    // gives what the whole twist at once gives (word k reads words k + 1 and k + 397
    // not yet twisted, and k - 227 already twisted) at the cost of the words read
    uint32_t next() {
        if (mti >= 624) mti = 0;
        int k = mti++;
        uint32_t y = (mt[k * MT_LANES] & 0x80000000U) | (mt[(k == 623 ? 0 : k + 1) * MT_LANES] & 0x7fffffffU);
        uint32_t w = mt[(k < 227 ? k + 397 : k - 227) * MT_LANES] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        mt[k * MT_LANES] = w;
        return mt_temper(w);
    }
    int below(int n) { return mt_below(*this, n); }
};

// generators in blocks of MT_LANES, each PyRandom reading its lane
struct Generators {
    std::vector<U4> words;
    std::vector<PyRandom> g;
    explicit Generators(size_t n) : words((n + MT_LANES - 1) / MT_LANES * 624), g(n) {
        for (size_t t = 0; t < n; ++t) g[t].mt = (uint32_t*)&words[t / MT_LANES * 624] + t % MT_LANES;
    }
};

// SHA-256 (FIPS 180-4): the compression of one block ``w`` (16 words) into ``h``, of
// the word's type (one message's, or a vector of lanes' messages)
template <class W>
static void sha256_block(W h[8], const W block[16]) {
    static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    auto rot = [](W x, int n) { return (x >> n) | (x << (32 - n)); };
    W w[64];
    for (int k = 0; k < 16; ++k) w[k] = block[k];
    for (int k = 16; k < 64; ++k) {
        W s0 = rot(w[k - 15], 7) ^ rot(w[k - 15], 18) ^ (w[k - 15] >> 3);
        W s1 = rot(w[k - 2], 17) ^ rot(w[k - 2], 19) ^ (w[k - 2] >> 10);
        w[k] = w[k - 16] + s0 + w[k - 7] + s1;
    }
    W a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int k = 0; k < 64; ++k) {
        W t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[k] + w[k];
        W t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

static const uint32_t SHA_H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// the padded message of bot_seed(seed, game, seat) as big-endian words: its blocks (1
// or 2)
static int bot_message(long long seed, long long game, int seat, uint32_t words[32]) {
    unsigned char m[128] = {0};
    static const char TAG[] = "meeple/bot-seed/v1";
    size_t n = sizeof TAG - 1;
    std::memcpy(m, TAG, n);
    for (long long v : {seed, game, (long long)seat}) {   // (each as str(v))
        m[n++] = 0;
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        char digits[24];
        int len = 0;
        do digits[len++] = (char)('0' + u % 10); while (u /= 10);
        if (v < 0) m[n++] = '-';
        while (len) m[n++] = (unsigned char)digits[--len];
    }
    uint64_t bits = (uint64_t)n * 8;
    m[n] = 0x80;
    int blocks = n + 9 <= 64 ? 1 : 2;
    for (int k = 0; k < 8; ++k) m[blocks * 64 - 1 - k] = (unsigned char)(bits >> (8 * k));
    for (int k = 0; k < blocks * 16; ++k)
        words[k] = (uint32_t)m[4 * k] << 24 | (uint32_t)m[4 * k + 1] << 16 | (uint32_t)m[4 * k + 2] << 8 | m[4 * k + 3];
    return blocks;
}

// a digest's key for init_by_array: the hash read as an integer (big-endian) whose
// 32-bit words, least significant first, are the digest's last word first (its
// leading zero words dropped); its length
static size_t digest_key(const uint32_t h[8], uint32_t key[8]) {
    size_t len = 8;
    for (int k = 0; k < 8; ++k) key[k] = h[7 - k];
    while (len > 1 && key[len - 1] == 0) --len;
    return len;
}

// seat ``seat``'s generator in game ``game`` of a run from ``seed``: random.Random(
// bot_seed(seed, game, seat)), for ``n`` generators at once (generator t: game
// first + t / NP, seat t % NP), each block of MT_LANES seeded as one
static void bot_generators(long long seed, long long first, Generators& out, size_t n) {
    for (size_t t0 = 0; t0 < n; t0 += MT_LANES) {
        U4 block[16], h[8];
        uint32_t words[MT_LANES][32], key[MT_LANES][8];
        int blocks[MT_LANES];
        size_t len[MT_LANES];
        for (int l = 0; l < MT_LANES; ++l) {
            size_t t = t0 + (size_t)l < n ? t0 + (size_t)l : t0;   // (a lane beyond: the first's again)
            blocks[l] = bot_message(seed, first + (long long)(t / NP), (int)(t % NP), words[l]);
        }
        bool one = true;
        for (int l = 0; l < MT_LANES; ++l) one = one && blocks[l] == 1;
        if (one) {
            for (int k = 0; k < 8; ++k) h[k] = U4{} + SHA_H0[k];
            for (int k = 0; k < 16; ++k)
                for (int l = 0; l < MT_LANES; ++l) block[k][l] = words[l][k];
            sha256_block(h, block);
            for (int l = 0; l < MT_LANES; ++l) {
                uint32_t hl[8];
                for (int k = 0; k < 8; ++k) hl[k] = h[k][l];
                len[l] = digest_key(hl, key[l]);
            }
        } else {
            for (int l = 0; l < MT_LANES; ++l) {
                uint32_t hl[8];
                std::memcpy(hl, SHA_H0, sizeof hl);
                for (int b = 0; b < blocks[l]; ++b) sha256_block(hl, words[l] + 16 * b);
                len[l] = digest_key(hl, key[l]);
            }
        }
        bool same = true;
        for (int l = 0; l < MT_LANES; ++l) same = same && len[l] == len[0];
        if (same) {
            U4 kj[8];
            for (size_t j = 0; j < len[0]; ++j)
                for (int l = 0; l < MT_LANES; ++l) kj[j][l] = key[l][j] + (uint32_t)j;
            init_lanes(&out.words[t0 / MT_LANES * 624], kj, len[0]);
            for (int l = 0; l < MT_LANES && t0 + (size_t)l < n; ++l) out.g[t0 + (size_t)l].mti = 624;
        } else {
            for (int l = 0; l < MT_LANES && t0 + (size_t)l < n; ++l)
                out.g[t0 + (size_t)l].init_by_array(std::vector<uint32_t>(key[l], key[l] + len[l]));
        }
    }
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

// A game's result as the kernel holds it, and the Python value made of it: the games of
// a call end in few different ways, each made once (a game's answer holds the one made
// for an equal result; Python reads it and never changes it)
struct ResultKey {
    I scores[NP];
    I ties[NTIES][NP];
    int outcomes[NP];
    TeamT teams[HAS_TEAMS ? NP : 0];
    I parts[NPARTS];
    explicit ResultKey(const St& s) {
        for (int p = 0; p < NP; ++p) scores[p] = s.scores[p], outcomes[p] = s.outcomes[p];
        for (int k = 0; k < NTIES; ++k)
            for (int p = 0; p < NP; ++p) ties[k][p] = s.ties[k][p];
        for (int p = 0; p < (HAS_TEAMS ? NP : 0); ++p) teams[p] = s.teams[p];
        for (int k = 0; k < NPARTS; ++k) parts[k] = PART_SCORED[k] ? s.parts[k] : 0;
    }
    bool operator==(const ResultKey& o) const {
        for (int p = 0; p < NP; ++p)
            if (scores[p] != o.scores[p] || outcomes[p] != o.outcomes[p]) return false;
        for (int k = 0; k < NTIES; ++k)
            for (int p = 0; p < NP; ++p)
                if (ties[k][p] != o.ties[k][p]) return false;
        for (int p = 0; p < (HAS_TEAMS ? NP : 0); ++p)
            if (!eq(teams[p], o.teams[p])) return false;
        for (int k = 0; k < NPARTS; ++k)
            if (parts[k] != o.parts[k]) return false;
        return true;
    }
};
struct Results {
    static constexpr size_t KEEP = 32;   // (results kept: more are made anew)
    std::vector<std::pair<ResultKey, PyObject*>> made;
    Results() {}
    Results(const Results&) = delete;
    ~Results() {
        for (auto& m : made) Py_DECREF(m.second);
    }
    // a new reference to the Python value of s's result
    PyObject* of(const St& s) {
        ResultKey key(s);
        for (auto& m : made)
            if (m.first == key) {
                Py_INCREF(m.second);
                return m.second;
            }
        PyObject* r = result_py(s);
        if (r && made.size() < KEEP) {
            Py_INCREF(r);
            made.push_back({key, r});
        }
        return r;
    }
};

// one game's answer: (result, moves, turns, first seat or None, [site, seat, count, ...]
// in the order of their first moves)
static PyObject* playout_py(const St& s, const Playout& o, Results& results) {
    PyObject* out = PyTuple_New(5);
    PyObject* counts = PyList_New((Py_ssize_t)(3 * o.order.size()));
    if (!out || !counts) {
        Py_XDECREF(out);
        Py_XDECREF(counts);
        return nullptr;
    }
    Py_ssize_t at = 0;
    for (size_t k : o.order) {
        long long parts[3] = {(long long)(k / NP), (long long)(k % NP), (long long)o.counts[k]};
        for (long long v : parts) PyList_SET_ITEM(counts, at++, PyLong_FromLongLong(v));
    }
    PyTuple_SET_ITEM(out, 0, results.of(s));
    PyTuple_SET_ITEM(out, 1, PyLong_FromLongLong((long long)o.moves));
    PyTuple_SET_ITEM(out, 2, PyLong_FromLongLong((long long)s.turn));
    PyTuple_SET_ITEM(out, 3, o.first < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(o.first));
    PyTuple_SET_ITEM(out, 4, counts);
    for (int k = 0; k < 5; ++k)
        if (!PyTuple_GET_ITEM(out, k)) {
            Py_DECREF(out);
            return nullptr;
        }
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
static PyObject* one_playout(const St* from, uint64_t rng, PyRandom* seats, I max_moves, Playout& o,
                             Results& results) {
    St* s = from ? new St(*from) : fresh(rng);
    if (s && from) s->rng = rng;
    int status = s ? play_out(*s, seats, max_moves, o) : 1;
    PyObject* got = status == 0 ? playout_py(*s, o, results) : (Py_INCREF(Py_None), Py_None);
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
    // (a run's games in groups, their seats' generators seeded together)
    const Py_ssize_t group = listed ? 1 : std::max(1, 2 * MT_LANES / NP);
    Generators seats((size_t)(group * NP));
    Playout o;
    Results results;
    for (Py_ssize_t g = 0; g < games; ++g) {
        unsigned long long rng = 0;
        PyRandom* mine = &seats.g[(size_t)(g % group * NP)];
        if (!listed) {
            long long i = run[1] + g;
            rng = seed_state(run[0] + i);
            if (g % group == 0) bot_generators(run[0], i, seats, (size_t)(std::min(group, games - g) * NP));
        } else {
            PyObject* game = PyList_GET_ITEM(args[0], g);
            if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != 2
                    || (rng = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(game, 0)), PyErr_Occurred())
                    || !seeded(PyTuple_GET_ITEM(game, 1), mine)) {
                PyErr_Clear();
                Py_DECREF(out);
                PyErr_SetString(PyExc_ValueError, "playouts: each game is (rng, one seed's bytes per seat)");
                return nullptr;
            }
        }
        PyObject* got = one_playout(from, rng, mine, max_moves, o, results);
        if (!got) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, g, got);
    }
    return out;
}
