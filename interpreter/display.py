"""``meeple.interpreter.display``, the path docs/ gives it: the module ``play.display``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .play import display as _module
from .play.display import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
