"""What the tests of kernels share: whether one can be built here (``MISSING``: None, or
why not), the mark that skips a test where none can, the fixture that turns kernels
on for a test (``from kernel_support import kernels_on  # noqa: F401``: a fixture used
by every test of the module that imports it), the line of a kernel's C++ source that
defines a rule function (``function_text``), the comprehension of a rule function's
body (``comprehension_of``), and the parts of the small rulesets they are tried on: two
seats placing discs on a grid (``discs_on_a_grid``, ``PLACE_A_DISC``)."""
import re

import pytest

from meeple import interpreter

MISSING = interpreter.kernel_status()
needs_kernel = pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")


@pytest.fixture(autouse=True)
def kernels_on(monkeypatch):
    """Kernels on, whatever MEEPLE_KERNEL the run was given."""
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)


@pytest.fixture
def lists_walked(monkeypatch):
    """Kernels generated meanwhile walk components and their neighbours as lists where
    only their sizes are read (``MEEPLE_KERNEL_AREAS=0``): the keeps of such lists
    (kernel_memo.py, kernel_components.py, kernel_lasting.py) tested on go's rules,
    whose sizes the kernels otherwise count by bits (kernel_areas.py,
    tests/test_kernel_areas.py)."""
    monkeypatch.setenv("MEEPLE_KERNEL_AREAS", "0")


def function_text(source: str, name: str) -> str:
    """The line of a kernel's C++ ``source`` (``kernel.Gen(program).source()``) that
    defines the rule function ``name`` (``uF_name``, with or without ``inline``, whatever
    its type): the kernel writes a function's signature and body on one line."""
    head = re.compile(rf"static (?:inline )?(?:MK_AI )?\S+ uF_{name}\(St& s\b[^;]*\{{")
    return next(line for line in source.splitlines() if head.match(line))


def comprehension_of(body):
    """The comprehension of a function's body (a list's, an aggregate's; within size())."""
    if body.node == "Call":
        body = body.args[0]
    return body.comp if body.node == "Aggregate" else body


def discs_on_a_grid(name: str, rows: int, cols: int) -> str:
    """The head of the ruleset ``name``: two seats, a ``Disc`` of a ``seat``, the grid
    ``b`` of ``rows`` x ``cols`` cells, the zone ``box`` dealt a disc for every cell, and
    the variable ``seen`` (0), each line ended."""
    return f"""ruleset {name}
players 2..2
kind Disc {{ var seat: int = 0 }}
board b: grid(rows: {rows}, cols: {cols}) holds Disc
zone box: Disc
deck discs into box {{ Disc() for i in 1..{rows * cols} }}
var seen: int = 0
"""


# the first lines of a turn of ``discs_on_a_grid``'s rules: the active seat ``s`` chooses
# an empty cell ``x`` and the box's top disc ``d``, made its, is moved there
PLACE_A_DISC = """  let s = seat(active)
  choose x from [c for c in cells(b) if empty(c)] as "place"
  let d = top(box)
  d.seat = s
  move d to x
"""
