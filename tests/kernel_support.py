"""What the tests of kernels share: whether one can be built here (``MISSING``: None, or
why not), the mark that skips a test where none can, the fixture that turns kernels
on for a test (``from kernel_support import kernels_on  # noqa: F401``: a fixture used
by every test of the module that imports it), the line of a kernel's C++ source that
defines a rule function (``function_text``) and the comprehension of a rule function's
body (``comprehension_of``)."""
import re

import pytest

from meeple import interpreter

MISSING = interpreter.kernel_status()
needs_kernel = pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")


@pytest.fixture(autouse=True)
def kernels_on(monkeypatch):
    """Kernels on, whatever MEEPLE_KERNEL the run was given."""
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)


def function_text(source: str, name: str) -> str:
    """The line of a kernel's C++ ``source`` (``kernel.Gen(program).source()``) that
    defines the rule function ``name`` (``uF_name``, with or without ``inline``, whatever
    its type): the kernel writes a function's signature and body on one line."""
    head = re.compile(rf"static (?:inline )?(?:__attribute__\(\(always_inline\)\) )?\S+ uF_{name}\(St& s\b[^;]*\{{")
    return next(line for line in source.splitlines() if head.match(line))


def comprehension_of(body):
    """The comprehension of a function's body (a list's, an aggregate's; within size())."""
    if body.node == "Call":
        body = body.args[0]
    return body.comp if body.node == "Aggregate" else body
