"""``meeple.interpreter.views``, the path docs/ gives it: the module ``play.views``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .play import views as _module
from .play.views import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
