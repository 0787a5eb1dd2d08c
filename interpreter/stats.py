"""``meeple.interpreter.stats``, the path docs/ gives it: the module ``analysis.stats``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .analysis import stats as _module
from .analysis.stats import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
