"""Every test process gets its own, empty disk cache (dsl/diskcache.py), removed at the
end: the tests never read nor leave entries in the user's cache folder."""
import os
import shutil
import sys
import tempfile

_CACHE = tempfile.mkdtemp(prefix="meeple-test-cache-")
os.environ["MEEPLE_CACHE_DIR"] = _CACHE
os.environ.pop("MEEPLE_NO_CACHE", None)
# native modules (tests/test_native.py, docs/api.md) built unoptimized: five times faster
# to build, the same code
os.environ.setdefault("MEEPLE_NATIVE_CFLAGS", "/Od" if sys.platform == "win32" else "-O0 -g0 -w")
# kernels (tests/test_kernel.py) likewise
os.environ.setdefault("MEEPLE_KERNEL_CXXFLAGS", "-O0")


def pytest_unconfigure(config):
    shutil.rmtree(_CACHE, ignore_errors=True)
