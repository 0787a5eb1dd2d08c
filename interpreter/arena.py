"""``meeple.interpreter.arena``, the path docs/ gives it: the module ``analysis.arena``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .analysis import arena as _module
from .analysis.arena import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
