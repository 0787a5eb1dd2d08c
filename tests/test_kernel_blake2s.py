"""The kernels' BLAKE2s (interpreter/native/cxx/kernel_blake2s.hpp), which derives the
random bots' seeds in a batch of games (bot_seed), and the seeds themselves
(cxx/kernel_random.hpp, ``bot_generators``): the digests are Python's hashlib's, bit for
bit, keyed and not, on messages of every length a block holds; the generators of a run
are ``rng.seed_state(bot_seed(...))``, in every group size and lane width the kernel
takes (16 lanes of AVX-512, 8 of AVX2, the compiler's target), for seeds, games and
seats at the edges of their words. The headers are compiled alone here, with a few C
functions around them, by the kernels' compiler and options; -DMK_NO_AVX512 and
-DMK_NO_AVX2 take the other ways."""
from __future__ import annotations

import ctypes
import hashlib
import subprocess
from array import array

import pytest
from meeple.interpreter.native import kernel_build, kernel_types
from meeple.interpreter.play import rng

from meeple import interpreter

pytestmark = pytest.mark.kernels
needs_compiler = pytest.mark.skipif(kernel_build.compiler() is None, reason="no C++ compiler here")

HARNESS = """#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#define MK_SHARED_HERE 1
#define MK_SHARED
#define MK_MEMBER
namespace mk {   // (cxx/kernel_zones.hpp's SplitMix64, which the seeds' generators take)
%s
}
%s
%s
// (the kernels' options hide a library's symbols: these are for ctypes to find)
#define MK_TEST extern "C" __attribute__((visibility("default")))
// the digest (32 bytes) of ``n`` bytes (at most 64), keyed where ``kk`` > 0
MK_TEST void mk_test_digest(const unsigned char* msg, size_t n, const unsigned char* key, size_t kk, unsigned char* out) {
    uint32_t h[8];
    if (kk) blake2s_keyed(key, kk, h);
    blake2s_digest(msg, n, h, kk > 0);
    for (int k = 0; k < 32; ++k) out[k] = (unsigned char)(h[k / 4] >> (8 * (k %% 4)));
}
MK_TEST void mk_test_generators(long long seed, long long first, uint64_t* out, size_t n, int np) {
    bot_generators(seed, first, out, n, np);
}
"""

WAYS = {"as the processor has them": (), "without AVX-512": ("-DMK_NO_AVX512",), "without AVX2": ("-DMK_NO_AVX2",)}


def build(tmp_path, *options: str):
    """The headers and the harness as a library (the kernels' compiler and options)."""
    src = tmp_path / "blake2s.cpp"
    random_cxx = kernel_types.read_cxx("kernel_random.hpp")
    seeds = random_cxx[random_cxx.index("// the bots' seeds hashed"):random_cxx.index("#define MK_BOT_STATES")]
    random_cxx = seeds + random_cxx[random_cxx.index("#if MK_SHARED_HERE"):random_cxx.index("// CPython's random")]
    zones = kernel_types.read_cxx("kernel_zones.hpp")
    at = zones.index("static inline uint64_t next_u64(uint64_t& state) {")
    generator = zones[at:zones.index("\n}\n", at) + 3]
    src.write_text(HARNESS % (generator, kernel_types.read_cxx("kernel_blake2s.hpp"), random_cxx + "#endif\n"),
                   encoding="utf-8")
    lib = tmp_path / f"blake2s{len(list(tmp_path.iterdir()))}.so"
    cmd = [*kernel_build.compiler(), *kernel_build.flags(), *options, str(src), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return ctypes.CDLL(str(lib))


def digest(lib, message: bytes, key: bytes = b"") -> bytes:
    out = ctypes.create_string_buffer(32)
    lib.mk_test_digest(message, ctypes.c_size_t(len(message)), key, ctypes.c_size_t(len(key)), out)
    return out.raw


def generators(lib, seed: int, first: int, n: int, players: int) -> list[int]:
    out = array("Q", bytes(8 * n))
    lib.mk_test_generators(ctypes.c_longlong(seed), ctypes.c_longlong(first), ctypes.c_void_p(out.buffer_info()[0]),
                           ctypes.c_size_t(n), ctypes.c_int(players))
    return list(out)


@needs_compiler
def test_digests_are_hashlib_s_keyed_and_not(tmp_path):
    lib = build(tmp_path)
    for n in range(65):
        m = (hashlib.sha512(f"{n}".encode()).digest() * 2)[:n]
        assert digest(lib, m) == hashlib.blake2s(m).digest(), n
        for kk in (1, 16, 31, 32):
            if n:   # (a keyed message of one byte at least: the header's own rule)
                key = hashlib.sha256(f"{n}/{kk}".encode()).digest()[:kk]
                assert digest(lib, m, key) == hashlib.blake2s(m, key=key).digest(), (n, kk)


@needs_compiler
@pytest.mark.parametrize("way", list(WAYS))
def test_the_generators_of_a_run_are_python_s_bot_seeds(tmp_path, way):
    lib = build(tmp_path, *WAYS[way])
    # (groups of 128 seeds and what is left over, 16 lanes and 8; one game, two, five;
    # seeds and games at the ends of their words, negative ones)
    for seed in (0, 7, -7, 2 ** 63 - 1, -(2 ** 63)):
        for first, n, players in ((0, 2, 2), (5, 10, 2), (2 ** 40, 300, 3), (2 ** 63 - 4, 8, 2), (-3, 17, 1),
                                  (9, 129, 4)):
            want = [rng.seed_state(interpreter.bot_seed(seed, first + t // players, t % players)) for t in range(n)]
            assert generators(lib, seed, first, n, players) == want, (seed, first, n, players)


def test_bot_seeds_are_keyed_blake2s_of_the_game_and_seat():
    # (the documented derivation, written out: docs/api.md, bot_seed)
    key = hashlib.blake2s(b"meeple/bot-seed/v2\0" + b"-12").digest()
    data = (5).to_bytes(8, "little") + (1).to_bytes(8, "little")
    want = int.from_bytes(hashlib.blake2s(data, key=key).digest(), "little")
    assert interpreter.bot_seed(-12, 5, 1) == want
    assert interpreter.bot_seed(-12, 5, 1) != interpreter.bot_seed(-12, 1, 5) != interpreter.bot_seed(12, 5, 1)
    assert interpreter.bot_seed(3, -1, 0) == interpreter.bot_seed(3, 2 ** 64 - 1, 0)   # (two's complement)
