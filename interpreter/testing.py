"""``meeple.interpreter.testing``, the path docs/ gives it: the module ``analysis.testing``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .analysis import testing as _module
from .analysis.testing import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
