"""How a ruleset's names and texts are written into the C++ of its kernel
(interpreter/native/kernel.py), so that no name and no text can change what that code means.

* A text is a string literal of its UTF-8 bytes with its length (``literal``): the
  letters, the digits and the space as they are, every other byte an octal escape of
  three digits. So a literal holds no quote, no backslash but its escapes' own, no
  ``?`` (no trigraph), no line break, nothing another step could take for code or for
  a placeholder; a NUL byte is a byte like the others.
* A ruleset's name becomes an identifier of its own (``ident``): ``u``, a tag saying
  what it names (``F`` a function, ``G`` a variable...), ``_``, then the name, written
  so that two names never meet (an injective code: letters and digits as they are but
  ``Z``, a ``_`` between two of them as it is, any other character ``Z<hex>Z``). No
  C or C++ keyword, no macro of the headers a kernel includes and none of the
  kernel's own names has that form (tests/test_kernel_texts.py checks the macros the
  compiler defines), the result never holds ``__`` nor starts with ``_``.
* Nothing is substituted into code once a text is written into it: the code is
  written with its names in place.
"""
from __future__ import annotations

import re

_PLAIN = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ")
_TAG = re.compile(r"[A-Z]+[0-9]*")


def literal(text: str) -> str:
    """A C++ ``Str`` (a kernel's text, cxx/kernel_rt.hpp) of exactly this text's UTF-8 bytes."""
    chars, size = c_chars(text)
    return f"Str({chars}, {size})"


def c_chars(text: str) -> tuple[str, int]:
    """A C string literal of this text's UTF-8 bytes, and their count (what ``literal``
    makes a ``Str`` of)."""
    data = text.encode("utf-8")
    body = "".join(chr(b) if b in _PLAIN else f"\\{b:03o}" for b in data)
    return f'"{body}"', len(data)


class Static(str):
    """A text of C++ the kernel's printer wrote that names a static table of the module
    (``T3``, kernel_tables.py) or one of a table's lists by its index (a relation's row,
    ``T5[nn(x)]``): an lvalue that lives as long as the module, so a reference to it
    outlives any statement. Said where it is written (never read back from the text);
    any text made from it (a call, a part of a larger expression) is a plain str."""

    __slots__ = ()

    def __reduce__(self):  # (copied and pickled with what it is)
        return Static, (str(self),)


def _kept(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def ident(tag: str, name: str) -> str:
    """The C++ identifier of ``name`` (a ruleset's, or one Meeple gives a hidden
    local, such as ``$it3``) in the role ``tag`` (capitals, then digits)."""
    if not _TAG.fullmatch(tag):
        raise ValueError(f"a tag of capitals and digits, not {tag!r}")
    out = []
    last = len(name) - 1
    for i, ch in enumerate(name):
        if _kept(ch) and ch != "Z":
            out.append(ch)
        elif ch == "_" and 0 < i < last and _kept(name[i - 1]) and _kept(name[i + 1]):
            out.append("_")
        else:
            out.append(f"Z{ord(ch):x}Z")
    return f"u{tag}_{''.join(out)}"
