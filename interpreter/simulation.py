"""``meeple.interpreter.simulation``, the path docs/ gives it: the module ``analysis.simulation``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .analysis import simulation as _module
from .analysis.simulation import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
