"""``meeple.interpreter.parallel``, the path docs/ gives it: the module ``analysis.parallel``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .analysis import parallel as _module
from .analysis.parallel import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
