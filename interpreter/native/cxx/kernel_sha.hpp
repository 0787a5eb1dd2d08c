// SHA-256 (FIPS 180-4) for the random bots' seeds (bot_seed, cxx/kernel_random.hpp):
// the compression of a block written once for a word of any type (one message's, or a
// vector of lanes' messages: kernel_random.hpp's sha_lanes_*), and with the processor's
// SHA extensions (SHA-NI: sha256rnds2, sha256msg1, sha256msg2) where it has them, chosen
// when the kernel runs (the CPUID's bit, read once). Part of the runtime every kernel
// starts with, just before kernel_random.hpp (interpreter/native/kernel_types.runtime_cxx),
// its functions compiled where kernel_random.hpp's shared ones are (MK_SHARED_HERE); it
// needs nothing else, so that tests/test_kernel_sha.py compiles it alone and checks the
// digests of both ways against Python's hashlib (defining MK_SHARED_HERE as 1, as
// kernel_rt.hpp does where these are compiled). -DMK_NO_SHA: the portable way everywhere
// (tests/test_playouts.py), as where the compiler or processor has no SHA-NI.
#if MK_SHARED_HERE
#define MK_SHA_INLINE static inline __attribute__((always_inline))
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && !defined(MK_NO_SHA)
#define MK_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#define MK_SHA_TARGET __attribute__((target("sha,sse4.1")))
// whether the processor has SHA-NI (CPUID 7: EBX bit 29) and SSE4.1 and SSSE3 (CPUID 1:
// ECX bits 19 and 9), which the way below also uses; read from the CPUID itself, which
// every GCC and clang with the target attribute can (not __builtin_cpu_supports("sha"),
// which older ones do not know)
static bool mk_has_sha() {
    static const int has = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        if (__get_cpuid_max(0, nullptr) < 7) return 0;
        __cpuid(1, a, b, c, d);
        if (!(c & (1U << 19)) || !(c & (1U << 9))) return 0;
        __cpuid_count(7, 0, a, b, c, d);
        return (b & (1U << 29)) ? 1 : 0;
    }();
    return has != 0;
}
#else
#define MK_SHA_NI 0
static bool mk_has_sha() { return false; }
#endif

alignas(16) static const uint32_t SHA_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
static const uint32_t SHA_H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// the compression of one block ``block`` (16 words) into ``h``, of the word's type (one
// message's, or a vector of lanes' messages)
template <class W> MK_SHA_INLINE W sha_rot(W x, int n) { return (x >> n) | (x << (32 - n)); }
template <class W> MK_SHA_INLINE void sha256_block(W h[8], const W block[16]) {
    W w[64];
    for (int k = 0; k < 16; ++k) w[k] = block[k];
    for (int k = 16; k < 64; ++k) {
        W s0 = sha_rot(w[k - 15], 7) ^ sha_rot(w[k - 15], 18) ^ (w[k - 15] >> 3);
        W s1 = sha_rot(w[k - 2], 17) ^ sha_rot(w[k - 2], 19) ^ (w[k - 2] >> 10);
        w[k] = w[k - 16] + s0 + w[k - 7] + s1;
    }
    W a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int k = 0; k < 64; ++k) {
        W t1 = hh + (sha_rot(e, 6) ^ sha_rot(e, 11) ^ sha_rot(e, 25)) + ((e & f) ^ (~e & g)) + SHA_K[k] + w[k];
        W t2 = (sha_rot(a, 2) ^ sha_rot(a, 13) ^ sha_rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

#if MK_SHA_NI
// sha256_block with SHA-NI, one message: the state as the instructions hold it, two
// vectors (ABEF, CDGH); each group of 4 rounds adds its 4 words of the schedule (the
// first 4 groups' the block's, then each from the 4 before: sha256msg1 and sha256msg2)
// to the round constants and runs 2 rounds twice (sha256rnds2). One message at a time:
// two interleaved were slower here (AMD EPYC, Zen 5: the SHA unit is busy throughout,
// and 16 registers do not hold both), and the processor overlaps successive messages
MK_SHA_TARGET static void sha256_block_ni(uint32_t h[8], const uint32_t block[16]) {
    const __m128i dcba = _mm_loadu_si128((const __m128i*)h), hgfe = _mm_loadu_si128((const __m128i*)(h + 4));
    const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1), efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    const __m128i abef0 = _mm_alignr_epi8(cdab, efgh, 8), cdgh0 = _mm_blend_epi16(efgh, cdab, 0xF0);
    __m128i abef = abef0, cdgh = cdgh0, w[4];
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g) {
        __m128i& x = w[g % 4];   // (words 4g..4g+3; w[(g + 1) % 4] .. w[(g + 3) % 4]: the groups g-3..g-1)
        if (g < 4) x = _mm_loadu_si128((const __m128i*)(block + 4 * g));
        else x = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(x, w[(g + 1) % 4]),
                                                    _mm_alignr_epi8(w[(g + 3) % 4], w[(g + 2) % 4], 4)),
                                      w[(g + 3) % 4]);
        const __m128i m = _mm_add_epi32(x, _mm_load_si128((const __m128i*)(SHA_K + 4 * g)));
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0E));
    }
    const __m128i feba = _mm_shuffle_epi32(_mm_add_epi32(abef, abef0), 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(_mm_add_epi32(cdgh, cdgh0), 0xB1);
    _mm_storeu_si128((__m128i*)h, _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i*)(h + 4), _mm_alignr_epi8(dchg, feba, 8));
}
// the digests of ``count`` messages of ``blocks`` blocks each (message t's words at
// words[t * 16 * blocks], its digest at out[t])
MK_SHA_TARGET static void sha256_digests_ni(size_t count, int blocks, const uint32_t* words, uint32_t (*out)[8]) {
    for (size_t t = 0; t < count; ++t) {
        std::memcpy(out[t], SHA_H0, sizeof SHA_H0);
        for (int b = 0; b < blocks; ++b) sha256_block_ni(out[t], words + (t * (size_t)blocks + (size_t)b) * 16);
    }
}
#endif

// sha256_digests_ni the portable way
static void sha256_digests_plain(size_t count, int blocks, const uint32_t* words, uint32_t (*out)[8]) {
    for (size_t t = 0; t < count; ++t) {
        std::memcpy(out[t], SHA_H0, sizeof SHA_H0);
        for (int b = 0; b < blocks; ++b) sha256_block(out[t], words + (t * (size_t)blocks + (size_t)b) * 16);
    }
}

// the digests of ``count`` messages of ``blocks`` blocks each, padded, as big-endian
// words (message t's at words[t * 16 * blocks]) into out[t]: with SHA-NI where the
// processor has it, else the portable way
static void sha256_digests(size_t count, int blocks, const uint32_t* words, uint32_t (*out)[8]) {
#if MK_SHA_NI
    if (mk_has_sha()) return sha256_digests_ni(count, blocks, words, out);
#endif
    sha256_digests_plain(count, blocks, words, out);
}
#endif
