// BLAKE2s (RFC 7693) for the random bots' seeds (bot_seed, cxx/kernel_random.hpp): the
// compression of a block written once for a word of any type (one message's, or a vector
// of lanes' messages: kernel_random.hpp's b2_lanes_*), and the digest of a message of one
// block at most, keyed or not. Part of the runtime every kernel starts with, just before
// kernel_random.hpp (interpreter/native/kernel_types.runtime_cxx), its functions compiled
// where kernel_random.hpp's shared ones are (MK_SHARED_HERE); it needs nothing else, so
// that tests/test_kernel_blake2s.py compiles it alone and checks its digests against
// Python's hashlib (defining MK_SHARED_HERE as 1, as kernel_rt.hpp does where these are
// compiled). BLAKE2s and not SHA-256, which the seeds were before: a keyed hash, so a
// run's key is hashed once and each seed is one block of 10 rounds of additions, XORs
// and rotations, which vectors of 16 or 8 lanes do well on any x86-64 or arm64
// (docs/performance.md, "Seeding the bots' generators").
#if MK_SHARED_HERE
#define MK_B2_INLINE static inline __attribute__((always_inline))

alignas(32) static const uint32_t B2_IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
// the message words each round reads, in the order its eight mixings take them
static constexpr unsigned char B2_SIGMA[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0}};

template <class W> MK_B2_INLINE W b2_ror(W x, int n) { return (x >> n) | (x << (32 - n)); }
// the mixing G of four words of the state ``v`` with two words of the message
template <class W> MK_B2_INLINE void b2_mix(W* v, int a, int b, int c, int d, W x, W y) {
    v[a] = v[a] + v[b] + x;
    v[d] = b2_ror(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = b2_ror(v[b] ^ v[c], 12);
    v[a] = v[a] + v[b] + y;
    v[d] = b2_ror(v[d] ^ v[a], 8);
    v[c] = v[c] + v[d];
    v[b] = b2_ror(v[b] ^ v[c], 7);
}
// the compression F of the block ``m`` (16 words, little-endian) into ``h``, ``t`` the
// bytes hashed with this block (under 2**32: the counter's high word 0), ``last`` for
// the last block. Put in line whole: where words of ``m`` are known (zero), the compiler
// drops what they add
template <class W> MK_B2_INLINE void blake2s_block(W h[8], const W m[16], uint32_t t, bool last) {
    W v[16];
    for (int k = 0; k < 8; ++k) v[k] = h[k], v[k + 8] = W{} + B2_IV[k];
    v[12] = v[12] ^ t;
    if (last) v[14] = ~v[14];
#pragma GCC unroll 10
    for (int r = 0; r < 10; ++r) {
        const unsigned char* s = B2_SIGMA[r];
        b2_mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        b2_mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        b2_mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        b2_mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        b2_mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        b2_mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        b2_mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        b2_mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int k = 0; k < 8; ++k) h[k] = h[k] ^ v[k] ^ v[k + 8];
}
// the state of BLAKE2s with a digest of 32 bytes and ``kk`` bytes of key (0..32) before
// its first block (the parameter block's first word into the IV's)
static inline void blake2s_init(uint32_t h[8], size_t kk) {
    for (int k = 0; k < 8; ++k) h[k] = B2_IV[k];
    h[0] ^= 0x01010000U ^ ((uint32_t)kk << 8) ^ 32U;
}
// the little-endian words of ``n`` bytes (at most 64), zeros after them
static inline void b2_words(const unsigned char* bytes, size_t n, uint32_t m[16]) {
    unsigned char b[64] = {0};
    std::memcpy(b, bytes, n);
    for (int k = 0; k < 16; ++k)
        m[k] = (uint32_t)b[4 * k] | (uint32_t)b[4 * k + 1] << 8 | (uint32_t)b[4 * k + 2] << 16 | (uint32_t)b[4 * k + 3] << 24;
}
// the state, as words, after the key ``key`` (``kk`` bytes, 1..32) is hashed: its block,
// the key padded with zeros, compressed as a block that is not the last
static void blake2s_keyed(const unsigned char* key, size_t kk, uint32_t h[8]) {
    uint32_t m[16];
    blake2s_init(h, kk);
    b2_words(key, kk, m);
    blake2s_block<uint32_t>(h, m, 64U, false);
}
// the digest's words (32 bytes, little-endian words) of ``n`` bytes (at most 64) with no
// key, or (``h`` from blake2s_keyed, ``keyed``) after a key (then 1 byte at least: the
// key's block is the last where no byte follows it, which this does not do)
static void blake2s_digest(const unsigned char* msg, size_t n, uint32_t h[8], bool keyed) {
    uint32_t m[16];
    if (!keyed) blake2s_init(h, 0);
    b2_words(msg, n, m);
    blake2s_block<uint32_t>(h, m, (uint32_t)(keyed ? 64 + n : n), true);
}
#endif
