"""The kernels' SHA-256 (interpreter/native/cxx/kernel_sha.hpp), which derives the random
bots' seeds in a batch of games (bot_seed): the portable way and the processor's SHA
extensions (SHA-NI, where the processor has them: chosen when the kernel runs) give
Python's hashlib digests, bit for bit, on messages of every length the kernels hash (one
block and two, each side of the blocks' boundaries) and on the bots' seeds' messages
themselves. The header is compiled alone here, with a few C functions around it, by the
kernels' compiler and options; built with -DMK_NO_SHA it takes the portable way."""
from __future__ import annotations

import ctypes
import hashlib
import subprocess
from array import array
from pathlib import Path

import pytest
from meeple.interpreter.native import kernel_build, kernel_types

from meeple import interpreter

pytestmark = pytest.mark.kernels
needs_compiler = pytest.mark.skipif(kernel_build.compiler() is None, reason="no C++ compiler here")

HARNESS = """#include <cstddef>
#include <cstdint>
#include <cstring>
#define MK_SHARED_HERE 1
%s
// (the kernels' options hide a library's symbols: these two are for ctypes to find)
#define MK_TEST extern "C" __attribute__((visibility("default")))
// 1 where SHA-NI is taken (the compiler and the processor have it)
MK_TEST int mk_test_sha_ni(void) { return mk_has_sha() ? 1 : 0; }
// the digests of count messages of ``blocks`` blocks each: way 0 the portable one, 1
// SHA-NI (only where mk_test_sha_ni), 2 the one chosen
MK_TEST void mk_test_digests(int way, size_t count, int blocks, const uint32_t* words, uint32_t* out) {
    uint32_t (*h)[8] = (uint32_t (*)[8])out;
    if (way == 0) sha256_digests_plain(count, blocks, words, h);
#if MK_SHA_NI
    else if (way == 1) sha256_digests_ni(count, blocks, words, h);
#endif
    else sha256_digests(count, blocks, words, h);
}
"""


def build(tmp_path, *options: str):
    """The header and the harness as a library (the kernels' compiler and options)."""
    src = tmp_path / "sha.cpp"
    src.write_text(HARNESS % kernel_types.read_cxx("kernel_sha.hpp"), encoding="utf-8")
    lib = tmp_path / f"sha{len(list(tmp_path.iterdir()))}.so"
    cmd = [*kernel_build.compiler(), *kernel_build.flags(), *options, str(src), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return ctypes.CDLL(str(lib))


def padded(message: bytes) -> bytes:
    """The message padded as SHA-256 pads it: 0x80, zeros, its length in bits."""
    zeros = (55 - len(message)) % 64
    return message + b"\x80" + bytes(zeros) + (8 * len(message)).to_bytes(8, "big")


def digests(lib, way: int, messages: list[bytes]) -> list[bytes]:
    """The digests of messages all of one block count, as the library computes them."""
    blocks = {len(padded(m)) // 64 for m in messages}
    assert len(blocks) == 1
    words = array("I")
    for m in messages:
        p = padded(m)
        words.extend(int.from_bytes(p[k:k + 4], "big") for k in range(0, len(p), 4))
    out = array("I", bytes(32 * len(messages)))
    lib.mk_test_digests(ctypes.c_int(way), ctypes.c_size_t(len(messages)), ctypes.c_int(blocks.pop()),
                        ctypes.c_void_p(words.buffer_info()[0]), ctypes.c_void_p(out.buffer_info()[0]))
    return [b"".join(w.to_bytes(4, "big") for w in out[8 * t:8 * t + 8]) for t in range(len(messages))]


def messages_of_every_length() -> list[list[bytes]]:
    """Messages of 0 to 130 bytes (one block up to 55, two up to 119, then three), a few of
    each length, in lists of one block count."""
    by_blocks: dict[int, list[bytes]] = {}
    for n in range(131):
        for k in range(3):
            m = hashlib.sha512(f"{n}/{k}".encode()).digest() * 3
            by_blocks.setdefault(len(padded(m[:n])) // 64, []).append(m[:n])
    return list(by_blocks.values())


def seed_messages() -> list[tuple[tuple[int, int, int], bytes]]:
    """The bots' seeds' messages (the tag, then the game seed, the game and the seat,
    apart by a zero byte), of seeds short and long: one block and two."""
    out = []
    for seed in (0, 7, -7, 10 ** 18 + 99, -(10 ** 18) - 12345, 2 ** 63 - 1):
        for game in (0, 1, 63, 64, 999, 10 ** 17):
            for seat in (0, 1, 2, 11):
                parts = [b"meeple/bot-seed/v1", *(str(x).encode() for x in (seed, game, seat))]
                out.append(((seed, game, seat), b"\0".join(parts)))
    return out


@needs_compiler
def test_both_ways_give_hashlib_s_digests(tmp_path):
    lib = build(tmp_path)
    ways = [0, 2] + ([1] if lib.mk_test_sha_ni() else [])
    for group in messages_of_every_length():
        want = [hashlib.sha256(m).digest() for m in group]
        for way in ways:
            assert digests(lib, way, group) == want, (way, len(group[0]))
    # (the messages of the bots' seeds, in batches of one block count: the digests are
    # the seeds themselves)
    sizes: dict[int, list] = {}
    for numbers, m in seed_messages():
        sizes.setdefault(len(padded(m)) // 64, []).append((numbers, m))
    assert sorted(sizes) == [1, 2]
    for group in sizes.values():
        for way in ways:
            got = digests(lib, way, [m for _, m in group])
            assert [int.from_bytes(d, "big") for d in got] == [interpreter.bot_seed(*n) for n, _ in group]


@needs_compiler
def test_sha_ni_is_taken_where_the_processor_has_it(tmp_path):
    # (where the processor has SHA-NI, the kernel's way is it; -DMK_NO_SHA, or another
    # processor, the portable one: the same digests)
    lib, plain = build(tmp_path), build(tmp_path, "-DMK_NO_SHA")
    info = Path("/proc/cpuinfo")   # (Linux: the processor's flags as the system reads them)
    if info.exists():
        flags = next((line.split() for line in info.read_text().splitlines() if line.startswith("flags")), [])
        has = "sha_ni" in flags and "sse4_1" in flags and "ssse3" in flags
        assert lib.mk_test_sha_ni() == int(has)
    assert plain.mk_test_sha_ni() == 0
    group = [m for _, m in seed_messages() if len(padded(m)) == 64]
    assert digests(plain, 2, group) == digests(lib, 2, group) == [hashlib.sha256(m).digest() for m in group]
