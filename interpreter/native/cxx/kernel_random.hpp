// Python's Mersenne Twister and the random bots' seeds (bot_seed: BLAKE2s) in a kernel,
// for its random playouts (cxx/kernel_playout.hpp) and rollouts (cxx/kernel_rollout.hpp).
// Part of the runtime every kernel starts with (after cxx/kernel_rt.hpp, both
// precompiled: interpreter/native/kernel_types.runtime_cxx): nothing here depends on a
// game, so the functions marked MK_SHARED (and their helpers, under MK_SHARED_HERE) are
// compiled once in the object of instantiations where there is one
// (interpreter/native/kernel_prebuilt.py), else in the kernel, as the runtime's are.
// MK_MEMBER: a member function compiled as MK_SHARED functions are (hidden).
//
// The seats' generators of random playouts are SplitMix64, the game's own kind (bots.
// RandomBot: the state rng.seed_state(bot_seed(...)), the draws rng.pick, cxx/
// kernel_playout.hpp), a generator one 64-bit word: seeding one is hashing its seed.
// The seeds (bots.bot_seed) are BLAKE2s keyed with a key made of the run's seed (its
// hash, once a call), of the game and the seat (cxx/kernel_blake2s.hpp, just before
// this file): one block each, hashed many at a time, lane by lane, with AVX-512 where a
// group fills 16 lanes, else AVX2's 8, else the compiler's target (SSE2 on x86-64, NEON
// on arm64). Each way is a function compiled for its instructions and chosen when the
// kernel runs: all of them, and the choice, are in the object, which is built with the
// kernel's own options, -DMK_NO_AVX512 or -DMK_NO_AVX2 (neither) among them. The seeds
// are the same every way. The search bots' rollouts draw from Python's Mersenne
// Twister (BlockMT below), read from and written back to their random.Random.
#define MK_MEMBER __attribute__((visibility("hidden")))

// MT19937 (Python's random.Random), the rollouts' generator (BlockMT, the whole block at
// once, as CPython does): word k of the next block, from words k + 1 and k + 397 not yet
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
    const int k = n > 0 ? 32 - __builtin_clz((unsigned)n) : 0;   // (n.bit_length())
    uint32_t r;
    do r = g.next() >> (32 - k); while (r >= (uint32_t)n);
    return (int)r;
}

// the bots' seeds hashed side by side: seed l of a vector in lane l, SEED_LANES lanes
// a vector (an AVX-512 vector's words), SEED_GROUP seeds a group hashed in one call
constexpr int SEED_LANES = 16;
constexpr int SEED_GROUP = 8 * SEED_LANES;   // (seeds hashed together)
constexpr int SEED_HALF = SEED_LANES / 2;    // (lanes in an AVX2 vector)
typedef uint32_t U8 __attribute__((vector_size(32)));    // (AVX2's lanes' word)
typedef uint32_t U16 __attribute__((vector_size(64)));   // (AVX-512's)
static_assert(sizeof(U8) == SEED_HALF * sizeof(uint32_t), "one word per lane");
static_assert(sizeof(U16) == SEED_LANES * sizeof(uint32_t), "one word per lane");

// seat ``seat``'s generator in game ``game`` of a run from ``seed``: rng.seed_state(
// bot_seed(seed, game, seat)), for ``n`` generators at once into ``out`` (generator t:
// game first + t / np, seat t % np), SEED_GROUP seeds hashed at a time
MK_SHARED void bot_generators(long long seed, long long first, uint64_t* out, size_t n, int np);
#define MK_BOT_STATES 1   // (generators one word each: benchmarks/bench_seeding.py reads which)

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

// the generator of ``rng`` (a random.Random) into ``g``; false where it cannot be read
MK_SHARED bool read_random(PyObject* rng, BlockMT& g);
// ``g`` back into ``rng`` (read by read_random); false with Python's error set
MK_SHARED bool write_random(PyObject* rng, const BlockMT& g);

#if MK_SHARED_HERE
// ------------------------------------------------------------------ shared functions
#define MK_LANES_INLINE static inline __attribute__((always_inline))
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) \
    && !defined(MK_NO_AVX2)   // (-DMK_NO_AVX2: the other way everywhere; tests/test_playouts.py)
#define MK_AVX2_TARGET __attribute__((target("avx2")))
static bool mk_has_avx2() {
    static const int has = __builtin_cpu_supports("avx2") ? 1 : 0;
    return has != 0;
}
#else
#define MK_AVX2_TARGET
static bool mk_has_avx2() { return false; }
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) \
    && !defined(MK_NO_AVX2) && !defined(MK_NO_AVX512)   // (-DMK_NO_AVX512: AVX2 at most)
#define MK_AVX512 1
#define MK_AVX512_TARGET __attribute__((target("avx512f")))
static bool mk_has_avx512() {
    static const int has = __builtin_cpu_supports("avx512f") ? 1 : 0;
    return has != 0;
}
#else
#define MK_AVX512 0
#define MK_AVX512_TARGET
static bool mk_has_avx512() { return false; }
#endif

// The seeds of ``vectors`` vectors of L lanes: lane t's message the 16 bytes of its game
// (8, little-endian: the words in[0][t], in[1][t]) and its seat (in[2][t]; its high word
// 0), hashed from ``run`` (the state after the run's key, blake2s_keyed); its seed's low
// 64 bits (the generator's: rng.seed_state takes them) into out[0][t], out[1][t]. Lane
// by lane, each vector read and written whole; the message's other words zero, which the
// compiler drops
template <class V, int L>
MK_LANES_INLINE void b2_lanes_body(int vectors, const uint32_t run[8], const uint32_t (*in)[SEED_GROUP],
                                   uint32_t (*out)[SEED_GROUP]) {
    for (int c = 0; c < vectors; ++c) {
        V m[16] = {}, h[8];
        for (int k = 0; k < 3; ++k) std::memcpy(&m[k], &in[k][c * L], sizeof(V));
        for (int k = 0; k < 8; ++k) h[k] = V{} + run[k];
        blake2s_block(h, m, 64U + 16U, true);
        for (int k = 0; k < 2; ++k) std::memcpy(&out[k][c * L], &h[k], sizeof(V));
    }
}
static void b2_lanes_plain(int halves, const uint32_t run[8], const uint32_t (*in)[SEED_GROUP], uint32_t (*out)[SEED_GROUP]) {
    b2_lanes_body<U8, SEED_HALF>(halves, run, in, out);
}
MK_AVX2_TARGET static void b2_lanes_avx2(int halves, const uint32_t run[8], const uint32_t (*in)[SEED_GROUP],
                                         uint32_t (*out)[SEED_GROUP]) {
    b2_lanes_body<U8, SEED_HALF>(halves, run, in, out);
}
#if MK_AVX512
MK_AVX512_TARGET static void b2_lanes_avx512(int vectors, const uint32_t run[8], const uint32_t (*in)[SEED_GROUP],
                                             uint32_t (*out)[SEED_GROUP]) {
    b2_lanes_body<U16, SEED_LANES>(vectors, run, in, out);
}
#endif

// str(v) into ``m`` at ``n``: the new length
static inline size_t decimal_into(unsigned char* m, size_t n, long long v) {
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    char digits[24];
    int len = 0;
    do digits[len++] = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) m[n++] = '-';
    while (len) m[n++] = (unsigned char)digits[--len];
    return n;
}

// the state of the seeds of a run from ``seed`` (bots.bot_seed): BLAKE2s keyed with the
// run's key, BLAKE2s of the tag, a zero byte and str(seed), after that key's block. The
// last run's kept (a call of one game, or the games of one run in many calls, hash the
// key once)
static void bot_run(long long seed, uint32_t run[8]) {
    static thread_local long long kept_seed = 0;
    static thread_local uint32_t kept[8];
    static thread_local bool have = false;
    if (!have || kept_seed != seed) {
        static const char TAG[] = "meeple/bot-seed/v2";
        unsigned char msg[64] = {0}, key[32];
        size_t n = sizeof TAG - 1;
        std::memcpy(msg, TAG, n);
        n = decimal_into(msg, n + 1, seed);   // (the zero byte after the tag)
        uint32_t d[8];
        blake2s_digest(msg, n, d, false);
        for (int k = 0; k < 32; ++k) key[k] = (unsigned char)(d[k / 4] >> (8 * (k % 4)));
        blake2s_keyed(key, sizeof key, kept);
        kept_seed = seed, have = true;
    }
    std::memcpy(run, kept, sizeof kept);
}

void bot_generators(long long seed, long long first, uint64_t* out, size_t n, int np) {
    uint32_t run[8];
    bot_run(seed, run);
    for (size_t t0 = 0; t0 < n; t0 += SEED_GROUP) {
        const size_t count = std::min(n - t0, (size_t)SEED_GROUP);
        const bool wide = MK_AVX512 && count > (size_t)SEED_HALF && mk_has_avx512();
        const size_t width = wide ? SEED_LANES : SEED_HALF;
        const int lanes = (int)((count + width - 1) / width * width);
        // (lane l's game and seat: generator t0 + l's, counted with no division; the lanes
        // beyond ``count`` hashed too, their seeds not read)
        alignas(64) uint32_t in[3][SEED_GROUP], h[2][SEED_GROUP];
        unsigned long long game = (unsigned long long)(first + (long long)(t0 / (size_t)np));
        uint32_t seat = (uint32_t)(t0 % (size_t)np);
        for (int l = 0; l < lanes; ++l) {
            in[0][l] = (uint32_t)game, in[1][l] = (uint32_t)(game >> 32), in[2][l] = seat;
            if (++seat == (uint32_t)np) seat = 0, ++game;
        }
        if (wide) {
#if MK_AVX512
            b2_lanes_avx512(lanes / SEED_LANES, run, in, h);
#endif
        } else if (mk_has_avx2()) b2_lanes_avx2(lanes / SEED_HALF, run, in, h);
        else b2_lanes_plain(lanes / SEED_HALF, run, in, h);
        for (size_t l = 0; l < count; ++l) {
            uint64_t low = (uint64_t)h[0][l] | (uint64_t)h[1][l] << 32;
            out[t0 + l] = mk::next_u64(low);   // (rng.seed_state of the seed)
        }
    }
}

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
bool read_random(PyObject* rng, BlockMT& g) {
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
bool write_random(PyObject* rng, const BlockMT& g) {
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
#endif
