"""A kernel's key names the compiler as installed: an upgraded compiler builds the
kernels again."""
from __future__ import annotations

from meeple.interpreter.native import kernel

TINY = "extern \"C\" int meeple_probe(void) { return 42; }\n"   # (any unit that builds)


def test_the_key_of_a_kernel_names_the_compiler_as_installed(tmp_path, monkeypatch):
    cxx = tmp_path / "c++"
    cxx.write_text("#!/bin/sh\nexec g++ \"$@\"\n")
    cxx.chmod(0o755)
    monkeypatch.setenv("CXX", str(cxx))
    before = kernel.module_key(TINY)
    assert kernel.module_key(TINY) == before
    cxx.write_text("#!/bin/sh\n# version 2\nexec g++ \"$@\"\n")   # (upgraded in place)
    assert kernel.module_key(TINY) != before
