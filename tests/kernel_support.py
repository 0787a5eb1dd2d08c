"""What the tests of kernels share: whether one can be built here (``MISSING``: None, or
why not), the mark that skips a test where none can, and the fixture that turns kernels
on for a test (``from kernel_support import kernels_on  # noqa: F401``: a fixture used
by every test of the module that imports it)."""
import pytest

from meeple import interpreter

MISSING = interpreter.kernel_status()
needs_kernel = pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")


@pytest.fixture(autouse=True)
def kernels_on(monkeypatch):
    """Kernels on, whatever MEEPLE_KERNEL the run was given."""
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
