"""The kernels' precompiled runtime (interpreter/native/kernel_pch.py): made once the cache
holds a kernel, kept there with its digest; one that is damaged or foreign is never
trusted: not read (its digest differs), or not taken by the compiler (then removed),
and made again. The kernels built are the same either way (tests/test_kernel.py plays
its games on kernels built with it, in the test run's cache)."""
from __future__ import annotations

import hashlib

import pytest
from meeple.interpreter.native import cython_code, kernel, kernel_pch
from scale import FULL

from meeple import interpreter

pytestmark = pytest.mark.kernels
MISSING = interpreter.kernel_status()


def build(tmp_path, n: int) -> None:
    """A small unit that starts as every kernel does, built as a kernel is."""
    work = tmp_path / f"build{n}"
    work.mkdir()
    source = kernel_pch.runtime() + "int probe_value() { return 42; }\n"
    assert kernel._build(f"meeple_kernel_probe{n}", "key", source, work).exists()


def kept(folder):
    return sorted(p for p in folder.iterdir() if p.name.startswith(kernel_pch.PREFIX))


# the runtime precompiled: in the long form the kernels' own (cxx/kernel_rt.hpp, with
# Python.h and the standard headers: seconds of CPU to precompile, and again in each of
# the three builds); in the short form a stand-in of a few lines, which the compiler
# precompiles, takes or refuses as it does the runtime (what is tested is the cache's part)
STAND_IN = """#include <cstdint>
namespace mk { template <class T> inline T twice(T x) { return x + x; } }
inline std::int64_t mk_probe_rt() { return mk::twice<std::int64_t>(21); }
"""


@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
def test_the_precompiled_runtime_is_made_once_and_a_damaged_or_foreign_one_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_pch, "_refused", set())
    if not FULL:
        monkeypatch.setattr(kernel_pch, "runtime", lambda: STAND_IN)
    folder = cython_code.folder()
    (folder / "meeple_kernel_other.so").write_bytes(b"")   # (one is made where a kernel is kept)
    build(tmp_path, 1)
    gch, digest = kept(folder)
    assert digest.read_bytes() == hashlib.sha256(gch.read_bytes()).hexdigest().encode()
    good = gch.stat().st_size

    gch.write_bytes(gch.read_bytes()[: good // 2])   # damaged: its digest differs
    build(tmp_path, 2)
    again, digest = kept(folder)
    assert again.stat().st_size > good // 2
    assert digest.read_bytes() == hashlib.sha256(again.read_bytes()).hexdigest().encode()

    foreign = b"not a precompiled header " * 1000    # with a digest that matches
    again.write_bytes(foreign)
    digest.write_bytes(hashlib.sha256(foreign).hexdigest().encode())
    build(tmp_path, 3)                                # (the compiler read the text instead)
    assert kept(folder) == []                         # removed, not marked: made again next time
