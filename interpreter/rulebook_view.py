"""``meeple.interpreter.rulebook_view``, the path docs/ gives it: the module ``documents.rulebook_view``
itself (not a copy), so that code written against the documented path keeps working."""
import sys

from .documents import rulebook_view as _module
from .documents.rulebook_view import *  # noqa: F403 - (for type checkers and readers)

sys.modules[__name__] = _module
