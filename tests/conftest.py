"""Every test process gets its own, empty disk cache (dsl/diskcache.py), removed at the
end: the tests never read nor leave entries in the user's cache folder."""
import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="meeple-test-cache-")
os.environ["MEEPLE_CACHE_DIR"] = _CACHE
os.environ.pop("MEEPLE_NO_CACHE", None)


def pytest_unconfigure(config):
    shutil.rmtree(_CACHE, ignore_errors=True)
