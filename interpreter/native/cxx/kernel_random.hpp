// Python's Mersenne Twister and the random bots' seeds (bot_seed: SHA-256) in a kernel,
// for its random playouts (cxx/kernel_playout.hpp) and rollouts (cxx/kernel_rollout.hpp).
// Part of the runtime every kernel starts with (after cxx/kernel_rt.hpp, both
// precompiled: interpreter/native/kernel_types.runtime_cxx): nothing here depends on a
// game, so the functions marked MK_SHARED (and their helpers, under MK_SHARED_HERE) are
// compiled once in the object of instantiations where there is one
// (interpreter/native/kernel_prebuilt.py), else in the kernel, as the runtime's are.
// MK_MEMBER: a member function compiled as MK_SHARED functions are (hidden).
//
// The seats' generators of random playouts are Python's ``random.Random`` (MT19937
// seeded by init_by_array), seeded from ``bot_seed`` (a SHA-256) many at a time.
// Seeding one generator is two passes of 623 steps where each step waits for the one
// before (a multiplication, shifts, xors): the generators of a run are seeded side by
// side, MT_LANES in a block as the lanes of one vector (GCC's vector extension) and
// MT_BLOCKS blocks at once, their steps interleaved (the loop over the blocks unrolled),
// so that the processor does the independent chains together (8 chains: a step of one
// chain waits about 7 cycles for the one before, 2 left most of the units idle; 8 seed
// a generator in a third of the time of 2). With AVX-512 where the processor has it a
// block is one vector of 16 lanes, 8 blocks at once (half the time of AVX2's 8 vectors
// of 8 lanes, the same words); else with AVX2 each block is two vectors of 8 lanes, 8
// of them at once; else with what the compiler's target gives (SSE2 on x86-64, NEON on
// arm64). Each way is a function compiled for its instructions and chosen when the
// kernel runs: all of them, and the choice, are in the object, which is built with the
// kernel's own options, -DMK_NO_AVX512 or -DMK_NO_AVX2 (neither) among them. The words
// are the same every way. The bots' seeds' SHA-256 (cxx/kernel_sha.hpp, just before this
// file) is hashed lane by lane with AVX-512 where a group fills a block of 16 lanes, else
// one message at a time with the processor's SHA extensions where it has them (16 lanes
// of AVX-512 hash a message in about 16 ns here, SHA-NI in 23, AVX2's 8 lanes in 46), else
// lane by lane with AVX2 or the compiler's target, as the generators are seeded.
#define MK_MEMBER __attribute__((visibility("hidden")))

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
    const int k = n > 0 ? 32 - __builtin_clz((unsigned)n) : 0;   // (n.bit_length())
    uint32_t r;
    do r = g.next() >> (32 - k); while (r >= (uint32_t)n);
    return (int)r;
}

// word k of lane l of a block at words[k * MT_LANES + l]; MT_BLOCKS blocks seeded at once
constexpr int MT_LANES = 16;
constexpr int MT_BLOCKS = 8;
constexpr int MT_GROUP = MT_LANES * MT_BLOCKS;   // (generators seeded together)
constexpr int MT_KEY = 8;                        // (words of a key seeded in lanes)
constexpr int MT_HALF = MT_LANES / 2;            // (lanes in an AVX2 vector: half a block)
typedef uint32_t U8 __attribute__((vector_size(32)));    // (half a block's word)
typedef uint32_t U16 __attribute__((vector_size(64)));   // (a block's word)
static_assert(sizeof(U8) == MT_HALF * sizeof(uint32_t), "one word per lane");
static_assert(sizeof(U16) == MT_LANES * sizeof(uint32_t), "one word per lane");
// the blocks of lanes seeded for ``count`` generators of a group: 1, 2, 4 or MT_BLOCKS (a
// call of one game seeds one block, not eight)
static inline int mt_blocks(size_t count) {
    size_t b = (count + MT_LANES - 1) / MT_LANES;
    return b <= 1 ? 1 : b <= 2 ? 2 : b <= 4 ? 4 : MT_BLOCKS;
}
// the lanes whose keys are read for ``count`` generators of a group (beyond ``count``,
// any key: each caller gives the first's again): half a block where that holds them
static inline int mt_lanes(size_t count) { return count <= (size_t)MT_HALF ? MT_HALF : mt_blocks(count) * MT_LANES; }

// one lane's generator in a block, read as Python's random.Random reads its own
struct PyRandom {
    uint32_t* mt = nullptr;   // (word k at mt[k * MT_LANES])
    int mti = 624;

    // seeded as init_by_array(key) seeds it (any length)
    MK_MEMBER void init_by_array(const uint32_t* key, size_t len);
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

// generators in groups of MT_GROUP (blocks of MT_LANES), each PyRandom reading its lane
struct Generators {
    uint32_t* held;   // (the blocks, from its first word aligned as a vector; not cleared: each
                      // word is written by its seeding before it is read)
    uint32_t* words;  // block b's word k, lane l at words[(b * 624 + k) * MT_LANES + l]
    std::vector<PyRandom> g;
    explicit Generators(size_t n)
        : held(new uint32_t[(n + MT_GROUP - 1) / MT_GROUP * MT_GROUP * 624 + MT_LANES]), g(n) {
        uintptr_t at = (uintptr_t)held;
        words = (uint32_t*)(at + (sizeof(U16) - at % sizeof(U16)) % sizeof(U16));
        for (size_t t = 0; t < n; ++t) g[t].mt = words + t / MT_LANES * 624 * MT_LANES + t % MT_LANES;
    }
    Generators(const Generators&) = delete;
    ~Generators() { delete[] held; }
    // generators first..first+MT_GROUP-1 (first: a multiple of MT_GROUP; those beyond
    // the last left as they are) seeded by init_by_array(key), generator t's key the
    // lens[t] words keys[t] where they are at most MT_KEY, else longer[t]; ``count``:
    // those of them used (the lanes that hold them seeded, mt_lanes: keys and lens are
    // read for those)
    MK_MEMBER void seed(size_t first, const uint32_t (*keys)[MT_KEY], const size_t* lens,
                        const std::vector<uint32_t>* longer = nullptr, size_t count = MT_GROUP);
};

// seat ``seat``'s generator in game ``game`` of a run from ``seed``: random.Random(
// bot_seed(seed, game, seat)), for ``n`` generators at once (generator t: game
// first + t / np, seat t % np), MT_GROUP at a time
MK_SHARED void bot_generators(long long seed, long long first, Generators& out, size_t n, int np);

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

// init_by_array of a key of 1..623 words (``kj``: key[j] + j, ``len`` of them) into one
// generator's ``mt`` (word k at mt[k]): CPython's loops, their index checks made once
static void init_words(uint32_t* mt, const uint32_t* kj, size_t len) {
    const uint32_t* base = mt_base();
    uint32_t prev = mt[0] = base[0];
    size_t j = 0;
    for (int i = 1; i < 624; ++i) {   // (624 steps: i = 1..623, then 1 again)
        prev = mt[i] = (base[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kj[j];
        if (++j == len) j = 0;
    }
    mt[0] = prev;
    prev = mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kj[j];
    for (int i = 2; i < 624; ++i)   // (623 steps: i = 2..623, then 1)
        prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i;
    mt[0] = prev;
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - 1U;
    mt[0] = 0x80000000U;
}

// init_words for B vectors of lanes (V: a block's or half a block's words), each lane's
// key of MT_KEY words (``kj``: per vector, key[j] + j as a vector of its lanes), the
// vectors' steps interleaved; vector c's word i at mt[c][i * S]
template <class V, int B, int S> MK_LANES_INLINE void init_lanes_body(V* const* given, const V (*kj)[MT_KEY]) {
    const uint32_t* base = mt_base();
    // (the vectors' addresses kept here, in registers: read from ``given`` at each step,
    // as a store might change them, they were a fifth of the steps' instructions)
    V* mt[B];
    for (int c = 0; c < B; ++c) mt[c] = given[c];
    const V m1 = V{} + 1664525U, m2 = V{} + 1566083941U;
    V prev[B];
    for (int c = 0; c < B; ++c) prev[c] = mt[c][0] = V{} + base[0];
    for (int i = 1; i < 624; ++i) {
        const V b = V{} + base[i];
        _Pragma("GCC unroll 8") for (int c = 0; c < B; ++c)
            prev[c] = mt[c][i * S] = (b ^ ((prev[c] ^ (prev[c] >> 30)) * m1)) + kj[c][(i - 1) % MT_KEY];
    }
    for (int c = 0; c < B; ++c) {
        mt[c][0] = prev[c];
        prev[c] = mt[c][S] = (mt[c][S] ^ ((prev[c] ^ (prev[c] >> 30)) * m1)) + kj[c][623 % MT_KEY];
    }
    V i_ = V{} + 2U;
    for (int i = 2; i < 624; ++i, i_ += 1U)
        _Pragma("GCC unroll 8") for (int c = 0; c < B; ++c)
            prev[c] = mt[c][i * S] = (mt[c][i * S] ^ ((prev[c] ^ (prev[c] >> 30)) * m2)) - i_;
    for (int c = 0; c < B; ++c) {
        mt[c][0] = prev[c];
        mt[c][S] = (mt[c][S] ^ ((prev[c] ^ (prev[c] >> 30)) * m2)) - 1U;
        mt[c][0] = V{} + 0x80000000U;
    }
}
// (halves of blocks: a half's word i at mt[c][i * 2])
MK_LANES_INLINE void init_halves_some(int halves, U8* const* mt, const U8 (*kj)[MT_KEY]) {
    if (halves == 1) init_lanes_body<U8, 1, 2>(mt, kj);
    else if (halves == 2) init_lanes_body<U8, 2, 2>(mt, kj);
    else if (halves <= 4) init_lanes_body<U8, 4, 2>(mt, kj);
    else init_lanes_body<U8, 8, 2>(mt, kj);
}
static void init_halves_plain(int halves, U8* const* mt, const U8 (*kj)[MT_KEY]) { init_halves_some(halves, mt, kj); }
MK_AVX2_TARGET static void init_halves_avx2(int halves, U8* const* mt, const U8 (*kj)[MT_KEY]) {
    init_halves_some(halves, mt, kj);
}
#if MK_AVX512
MK_AVX512_TARGET static void init_lanes_avx512(int blocks, U16* const* mt, const U16 (*kj)[MT_KEY]) {
    if (blocks == 1) init_lanes_body<U16, 1, 1>(mt, kj);
    else if (blocks == 2) init_lanes_body<U16, 2, 1>(mt, kj);
    else if (blocks == 4) init_lanes_body<U16, 4, 1>(mt, kj);
    else init_lanes_body<U16, MT_BLOCKS, 1>(mt, kj);
}
#endif

// seeded as init_by_array(key) seeds it (any length)
void PyRandom::init_by_array(const uint32_t* key, size_t len) {
    uint32_t w[624];
    if (len >= 1 && len < 624) {
        uint32_t kj[624];
        for (size_t j = 0; j < len; ++j) kj[j] = key[j] + (uint32_t)j;
        init_words(w, kj, len);
    } else {   // (CPython's loops as they are)
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
    }
    for (int k = 0; k < 624; ++k) mt[k * MT_LANES] = w[k];
    mti = 624;
}

// generators first..first+MT_GROUP-1 seeded (Generators::seed)
void Generators::seed(size_t first, const uint32_t (*keys)[MT_KEY], const size_t* lens,
                      const std::vector<uint32_t>* longer, size_t count) {
    const int lanes = mt_lanes(count), blocks = mt_blocks(count);
    const size_t used = std::min(count, (size_t)MT_GROUP);
    bool same = true;
    for (int t = 0; t < lanes; ++t) same = same && lens[t] == MT_KEY;
    uint32_t* at = words + first * 624;   // (the group's first block)
    if (same && MK_AVX512 && lanes > MT_HALF && mk_has_avx512()) {
#if MK_AVX512
        U16 kj[MT_BLOCKS][MT_KEY];
        U16* mt[MT_BLOCKS];
        for (int c = 0; c < blocks; ++c) {
            mt[c] = (U16*)(at + (size_t)c * 624 * MT_LANES);
            for (int j = 0; j < MT_KEY; ++j)
                for (int l = 0; l < MT_LANES; ++l) kj[c][j][l] = keys[c * MT_LANES + l][j] + (uint32_t)j;
        }
        init_lanes_avx512(blocks, mt, kj);
#endif
    } else if (same) {   // (halves of blocks, up to 8 at once)
        const int halves = lanes / MT_HALF;
        for (int h0 = 0; h0 < halves; h0 += 8) {
            const int now = std::min(halves - h0, 8);
            U8 kj[8][MT_KEY];
            U8* mt[8];
            for (int c = 0; c < now; ++c) {
                const int h = h0 + c;   // (block h / 2, its half h % 2)
                mt[c] = (U8*)(at + (size_t)(h / 2) * 624 * MT_LANES) + h % 2;
                for (int j = 0; j < MT_KEY; ++j)
                    for (int l = 0; l < MT_HALF; ++l) kj[c][j][l] = keys[h * MT_HALF + l][j] + (uint32_t)j;
            }
            if (mk_has_avx2()) init_halves_avx2(now, mt, kj);
            else init_halves_plain(now, mt, kj);
        }
    }
    if (same) {
        for (size_t t = first; t < first + used && t < g.size(); ++t) g[t].mti = 624;
        return;
    }
    for (size_t t = first; t < first + used && t < g.size(); ++t) {
        size_t l = t - first;
        if (lens[l] > MT_KEY) g[t].init_by_array(longer[l].data(), longer[l].size());
        else g[t].init_by_array(keys[l], lens[l]);
    }
}

// the digests of the one-block messages of ``vectors`` vectors of L lanes into ``out``,
// both lane by lane (word k of message t at words[k][t], word k of its digest at
// out[k][t]: each vector of lanes read and written whole, no word moved one by one)
template <class V, int L>
MK_LANES_INLINE void sha_lanes_body(int vectors, const uint32_t (*words)[MT_GROUP], uint32_t (*out)[MT_GROUP]) {
    for (int c = 0; c < vectors; ++c) {
        V block[16], h[8];
        for (int k = 0; k < 8; ++k) h[k] = V{} + SHA_H0[k];
        for (int k = 0; k < 16; ++k) std::memcpy(&block[k], &words[k][c * L], sizeof(V));
        sha256_block(h, block);
        for (int k = 0; k < 8; ++k) std::memcpy(&out[k][c * L], &h[k], sizeof(V));
    }
}
static void sha_lanes_plain(int halves, const uint32_t (*words)[MT_GROUP], uint32_t (*out)[MT_GROUP]) {
    sha_lanes_body<U8, MT_HALF>(halves, words, out);
}
MK_AVX2_TARGET static void sha_lanes_avx2(int halves, const uint32_t (*words)[MT_GROUP], uint32_t (*out)[MT_GROUP]) {
    sha_lanes_body<U8, MT_HALF>(halves, words, out);
}
#if MK_AVX512
MK_AVX512_TARGET static void sha_lanes_avx512(int blocks, const uint32_t (*words)[MT_GROUP], uint32_t (*out)[MT_GROUP]) {
    sha_lanes_body<U16, MT_LANES>(blocks, words, out);
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

// a digest's key for init_by_array: the hash read as an integer (big-endian) whose
// 32-bit words, least significant first, are the digest's last word first (its
// leading zero words dropped); its length
static inline size_t key_len(const uint32_t key[8]) {
    size_t len = 8;
    while (len > 1 && key[len - 1] == 0) --len;
    return len;
}
static inline size_t digest_key(const uint32_t h[8], uint32_t key[8]) {
    for (int k = 0; k < 8; ++k) key[k] = h[7 - k];
    return key_len(key);
}

// the digits of v (as decimal_into writes them)
static inline size_t decimal_len(long long v) {
    unsigned char m[24];
    return decimal_into(m, 0, v);
}

// the one-block messages of lanes 0..lanes-1 (generator t0 + l: game first + t / np,
// seat t % np; beyond n, the first's again) into ``words`` (bot_message's words), lane by
// lane (BY_LANE: word w of lane l at words[w * MT_GROUP + l], for sha_lanes_*) or message
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
        for (int w = 0; w < 16; ++w) words[BY_LANE ? w * MT_GROUP + l : l * 16 + w] = mw[w];
    }
}

void bot_generators(long long seed, long long first, Generators& out, size_t n, int np) {
    unsigned char head[48];
    const size_t head_n = bot_head(seed, head);
    for (size_t t0 = 0; t0 < n; t0 += MT_GROUP) {
        uint32_t key[MT_GROUP][MT_KEY];
        size_t len[MT_GROUP];
        const size_t count = std::min(n - t0, (size_t)MT_GROUP);
        const int lanes = mt_lanes(count);
        // (one block each where the longest message, the last game's and seat's, fits in one)
        const long long last = first + (long long)((t0 + count - 1) / (size_t)np);
        const bool one = head_n + 1 + decimal_len(last) + 1 + decimal_len(np - 1) + 9 <= 64
                         && decimal_len(first + (long long)(t0 / (size_t)np)) <= decimal_len(last);
        const bool wide = MK_AVX512 && lanes > MT_HALF && mk_has_avx512();
        if (one && !wide && mk_has_sha()) {   // (SHA-NI: the messages used, the lanes beyond given the first's key)
            uint32_t words[MT_GROUP * 16], h[MT_GROUP][8];
            bot_lanes<false>(head, head_n, first, t0, n, np, (int)count, words);
            sha256_digests(count, 1, words, h);
            for (size_t l = 0; l < count; ++l) len[l] = digest_key(h[l], key[l]);
            for (int l = (int)count; l < lanes; ++l) {
                std::memcpy(key[l], key[0], sizeof key[0]);
                len[l] = len[0];
            }
        } else if (one) {
            uint32_t words[16][MT_GROUP], h[8][MT_GROUP];
            bot_lanes<true>(head, head_n, first, t0, n, np, lanes, &words[0][0]);
            if (wide) {
#if MK_AVX512
                sha_lanes_avx512(lanes / MT_LANES, words, h);
#endif
            } else if (mk_has_avx2()) sha_lanes_avx2(lanes / MT_HALF, words, h);
            else sha_lanes_plain(lanes / MT_HALF, words, h);
            for (int l = 0; l < lanes; ++l) {   // (digest_key, read lane by lane)
                for (int k = 0; k < 8; ++k) key[l][k] = h[7 - k][l];
                len[l] = key_len(key[l]);
            }
        } else {
            for (int l = 0; l < lanes; ++l) {
                uint32_t words[32], d[1][8];
                size_t t = t0 + (size_t)l < n ? t0 + (size_t)l : t0;   // (a lane beyond: the first's again)
                int blocks = bot_message(head, head_n, first + (long long)(t / np), (int)(t % np), words);
                sha256_digests(1, blocks, words, d);
                len[l] = digest_key(d[0], key[l]);
            }
        }
        out.seed(t0, key, len, nullptr, count);
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
