"""``meeple.interpreter.record``, the path docs/ gives it: the module ``play.record``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .play import record as _module
from .play.record import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
