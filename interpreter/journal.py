"""``meeple.interpreter.journal``, the path docs/ gives it: the module ``play.journal``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .play import journal as _module
from .play.journal import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
