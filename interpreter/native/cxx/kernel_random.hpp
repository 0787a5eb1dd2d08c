// Python's Mersenne Twister and the random bots' seeds (bot_seed: SHA-256) in a kernel,
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
// kernel_playout.hpp), a generator one 64-bit word: seeding one is hashing its seed, and
// the seeds, SHA-256 of the game seed, the game and the seat (bots.bot_seed), are hashed
// many at a time (cxx/kernel_sha.hpp, just before this file): lane by lane with AVX-512
// where a group fills a block of 16 lanes, else one message at a time with the
// processor's SHA extensions where it has them (16 lanes of AVX-512 hash a message in
// about 16 ns here, SHA-NI in 23, AVX2's 8 lanes in 46), else lane by lane with AVX2 or
// the compiler's target (SSE2 on x86-64, NEON on arm64). Each way is a function compiled
// for its instructions and chosen when the kernel runs: all of them, and the choice, are
// in the object, which is built with the kernel's own options, -DMK_NO_AVX512 or
// -DMK_NO_AVX2 (neither) among them. The digests are the same every way. The search
// bots' rollouts draw from Python's Mersenne Twister (BlockMT below), read from and
// written back to their random.Random.
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

// the bots' seeds hashed side by side: message l of a block in lane l, SEED_LANES lanes a
// block (an AVX-512 vector's words), SEED_BLOCKS blocks a group
constexpr int SEED_LANES = 16;
constexpr int SEED_BLOCKS = 8;
constexpr int SEED_GROUP = SEED_LANES * SEED_BLOCKS;   // (seeds hashed together)
constexpr int SEED_HALF = SEED_LANES / 2;              // (lanes in an AVX2 vector: half a block)
typedef uint32_t U8 __attribute__((vector_size(32)));    // (half a block's word)
typedef uint32_t U16 __attribute__((vector_size(64)));   // (a block's word)
static_assert(sizeof(U8) == SEED_HALF * sizeof(uint32_t), "one word per lane");
static_assert(sizeof(U16) == SEED_LANES * sizeof(uint32_t), "one word per lane");
// the blocks of lanes hashed for ``count`` seeds of a group: 1, 2, 4 or SEED_BLOCKS (a
// call of one game hashes one block, not eight)
static inline int seed_blocks(size_t count) {
    size_t b = (count + SEED_LANES - 1) / SEED_LANES;
    return b <= 1 ? 1 : b <= 2 ? 2 : b <= 4 ? 4 : SEED_BLOCKS;
}
// the lanes hashed for ``count`` seeds of a group (beyond ``count``, the first's message
// again): half a block where that holds them
static inline int seed_lanes(size_t count) { return count <= (size_t)SEED_HALF ? SEED_HALF : seed_blocks(count) * SEED_LANES; }

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

// the digests of the one-block messages of ``vectors`` vectors of L lanes into ``out``,
// both lane by lane (word k of message t at words[k][t], word k of its digest at
// out[k][t]: each vector of lanes read and written whole, no word moved one by one)
template <class V, int L>
MK_LANES_INLINE void sha_lanes_body(int vectors, const uint32_t (*words)[SEED_GROUP], uint32_t (*out)[SEED_GROUP]) {
    for (int c = 0; c < vectors; ++c) {
        V block[16], h[8];
        for (int k = 0; k < 8; ++k) h[k] = V{} + SHA_H0[k];
        for (int k = 0; k < 16; ++k) std::memcpy(&block[k], &words[k][c * L], sizeof(V));
        sha256_block(h, block);
        for (int k = 0; k < 8; ++k) std::memcpy(&out[k][c * L], &h[k], sizeof(V));
    }
}
static void sha_lanes_plain(int halves, const uint32_t (*words)[SEED_GROUP], uint32_t (*out)[SEED_GROUP]) {
    sha_lanes_body<U8, SEED_HALF>(halves, words, out);
}
MK_AVX2_TARGET static void sha_lanes_avx2(int halves, const uint32_t (*words)[SEED_GROUP], uint32_t (*out)[SEED_GROUP]) {
    sha_lanes_body<U8, SEED_HALF>(halves, words, out);
}
#if MK_AVX512
MK_AVX512_TARGET static void sha_lanes_avx512(int blocks, const uint32_t (*words)[SEED_GROUP], uint32_t (*out)[SEED_GROUP]) {
    sha_lanes_body<U16, SEED_LANES>(blocks, words, out);
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

// the padded message of bot_seed(seed, game, seat) as big-endian words: its blocks (1
// or 2). ``head``: its first ``n`` bytes, the tag and the seed (bot_head)
static int bot_message(const unsigned char* head, size_t n, long long game, int seat, uint32_t words[32]) {
    unsigned char m[128] = {0};
    std::memcpy(m, head, n);
    m[n++] = 0;
    n = decimal_into(m, n, game);
    m[n++] = 0;
    n = decimal_into(m, n, seat);
    uint64_t bits = (uint64_t)n * 8;
    m[n] = 0x80;
    int blocks = n + 9 <= 64 ? 1 : 2;
    for (int k = 0; k < 8; ++k) m[blocks * 64 - 1 - k] = (unsigned char)(bits >> (8 * k));
    std::memcpy(words, m, (size_t)blocks * 64);
    for (int k = 0; k < blocks * 16; ++k) words[k] = __builtin_bswap32(words[k]);   // (each word big-endian)
    return blocks;
}

// the start of bot_seed(seed, ...)'s message: the tag, then str(seed); its length
static size_t bot_head(long long seed, unsigned char head[48]) {
    static const char TAG[] = "meeple/bot-seed/v1";
    size_t n = sizeof TAG - 1;
    std::memcpy(head, TAG, n);
    head[n++] = 0;
    return decimal_into(head, n, seed);
}

// rng.seed_state of a seed whose digest's words (big-endian) end in w6, w7: the
// generator one step on from the seed's low 64 bits
static inline uint64_t digest_state(uint32_t w6, uint32_t w7) {
    uint64_t low = ((uint64_t)w6 << 32) | w7;
    return mk::next_u64(low);
}

// the digits of v (as decimal_into writes them)
static inline size_t decimal_len(long long v) {
    unsigned char m[24];
    return decimal_into(m, 0, v);
}

// the one-block messages of lanes 0..lanes-1 (generator t0 + l: game first + t / np,
// seat t % np; beyond n, the first's again) into ``words`` (bot_message's words), lane by
// lane (BY_LANE: word w of lane l at words[w * SEED_GROUP + l], for sha_lanes_*) or message
// by message (at words[l * 16 + w], for sha256_digests): each game's part (the head, its
// number) written once, as words, and each seat's message that part with only the words
// its seat's digits and the padding's 0x80 reach written again, its length in bits the
// last word (the whole message fits in the block: bytes 56..63 are the length's)
template <bool BY_LANE>
static void bot_lanes(const unsigned char* head, size_t head_n, long long first, size_t t0, size_t n, int np,
                      int lanes, uint32_t* words) {
    unsigned char g[64] = {0}, m[64];
    uint32_t gw[16], mw[16];   // (the game's part as big-endian words; a seat's message)
    std::memcpy(g, head, head_n);
    long long made = 0;   // (the game whose part g holds, where ``have``)
    bool have = false;
    size_t gn = 0;
    for (int l = 0; l < lanes; ++l) {
        const size_t t = t0 + (size_t)l < n ? t0 + (size_t)l : t0;
        const long long game = first + (long long)(t / (size_t)np);
        if (!have || game != made) {
            std::memset(g + head_n, 0, sizeof g - head_n);
            gn = head_n;
            g[gn++] = 0;
            gn = decimal_into(g, gn, game);
            g[gn++] = 0;
            made = game, have = true;
            for (int w = 0; w < 16; ++w) {
                uint32_t x;
                std::memcpy(&x, g + 4 * w, 4);
                gw[w] = __builtin_bswap32(x);   // (each word big-endian)
            }
        }
        std::memcpy(m, g, sizeof m);
        std::memcpy(mw, gw, sizeof mw);
        const size_t k = decimal_into(m, gn, (long long)(t % (size_t)np));
        m[k] = 0x80;
        for (size_t w = gn / 4; w <= k / 4; ++w) {
            uint32_t x;
            std::memcpy(&x, m + 4 * w, 4);
            mw[w] = __builtin_bswap32(x);
        }
        mw[15] = (uint32_t)(k * 8);   // (word 14, the length's high half: 0)
        for (int w = 0; w < 16; ++w) words[BY_LANE ? w * SEED_GROUP + l : l * 16 + w] = mw[w];
    }
}

void bot_generators(long long seed, long long first, uint64_t* out, size_t n, int np) {
    unsigned char head[48];
    const size_t head_n = bot_head(seed, head);
    for (size_t t0 = 0; t0 < n; t0 += SEED_GROUP) {
        const size_t count = std::min(n - t0, (size_t)SEED_GROUP);
        const int lanes = seed_lanes(count);
        // (one block each where the longest message, the last game's and seat's, fits in one)
        const long long last = first + (long long)((t0 + count - 1) / (size_t)np);
        const bool one = head_n + 1 + decimal_len(last) + 1 + decimal_len(np - 1) + 9 <= 64
                         && decimal_len(first + (long long)(t0 / (size_t)np)) <= decimal_len(last);
        const bool wide = MK_AVX512 && lanes > SEED_HALF && mk_has_avx512();
        if (one && !wide && mk_has_sha()) {   // (SHA-NI: the messages used alone)
            uint32_t words[SEED_GROUP * 16], h[SEED_GROUP][8];
            bot_lanes<false>(head, head_n, first, t0, n, np, (int)count, words);
            sha256_digests(count, 1, words, h);
            for (size_t l = 0; l < count; ++l) out[t0 + l] = digest_state(h[l][6], h[l][7]);
        } else if (one) {
            uint32_t words[16][SEED_GROUP], h[8][SEED_GROUP];
            bot_lanes<true>(head, head_n, first, t0, n, np, lanes, &words[0][0]);
            if (wide) {
#if MK_AVX512
                sha_lanes_avx512(lanes / SEED_LANES, words, h);
#endif
            } else if (mk_has_avx2()) sha_lanes_avx2(lanes / SEED_HALF, words, h);
            else sha_lanes_plain(lanes / SEED_HALF, words, h);
            for (size_t l = 0; l < count; ++l) out[t0 + l] = digest_state(h[6][l], h[7][l]);
        } else {
            for (size_t t = t0; t < t0 + count; ++t) {
                uint32_t words[32], d[1][8];
                int blocks = bot_message(head, head_n, first + (long long)(t / np), (int)(t % np), words);
                sha256_digests(1, blocks, words, d);
                out[t] = digest_state(d[0][6], d[0][7]);
            }
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
