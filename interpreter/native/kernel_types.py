"""What every part of the kernel's generator shares (interpreter/native/kernel.py and the
modules beside it): the error for what a kernel does not cover, the types it names
often, and the C++ written once for every kernel (``cxx/``)."""
from __future__ import annotations

from pathlib import Path

from ...dsl.types import T

_HERE = Path(__file__).resolve().parent / "cxx"

INT, BOOL, STR = T("int"), T("bool"), T("str")
IDS = ("player", "item", "cell", "zone", "enum", "none")   # the types held as an Id
# an int known to be within this bound (and the integer budget) is written plainly:
# no int64 overflow, never NONE_I (kernel_operators.py's _arith, kernel_ranged.py)
PLAIN_MAX = (1 << 62) - 1


class Unsupported(Exception):
    """The program uses something the kernel does not cover (``str(e)`` says what)."""


def has_none(t: T) -> bool:
    return t.tag == "none" or (t.tag == "list" and has_none(t.arg))


def read_cxx(name: str) -> str:
    """A file of ``cxx/`` (C++ every kernel holds)."""
    return (_HERE / name).read_text(encoding="utf-8")


def runtime_cxx() -> str:
    """The C++ every kernel's source starts with (the part precompiled: kernel_pch.py):
    the runtime, its zones and generator, its walks' buffers, then BLAKE2s, Python's
    generators and the reading and writing of a state's values (no game's: their
    functions compiled once in the object of kernel_prebuilt.py where there is one)."""
    return "\n".join(read_cxx(f) for f in ("kernel_rt.hpp", "kernel_lists.hpp", "kernel_zones.hpp", "kernel_py.hpp", "kernel_walks.hpp",
                                           "kernel_blake2s.hpp", "kernel_random.hpp", "kernel_values.hpp"))
