"""``meeple.interpreter.rulebook``, the path docs/ gives it: the module ``documents.rulebook``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .documents import rulebook as _module
from .documents.rulebook import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
