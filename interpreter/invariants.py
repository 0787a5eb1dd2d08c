"""``meeple.interpreter.invariants``, the path docs/ gives it: the module ``analysis.invariants``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .analysis import invariants as _module
from .analysis.invariants import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
