"""The standard library's templates every kernel instantiates (vectors of ints and of
lists, the runtime's lists, the order of items), compiled once into an object file kept
in the cache beside the precompiled runtime (kernel_pch.py) and linked into every kernel
built with it: about a third of the functions a kernel's unit emitted at ``-O0``.

* ``cxx/kernel_rt.hpp`` names them (``MK_INST``): where ``MK_PREBUILT`` is 1 (the
  precompiled runtime's text starts so) each is an ``extern template`` (the kernel's
  unit does not instantiate it: it calls the object's), where it is 2 (this object's
  unit) an explicit instantiation; where it is not defined (a kernel built without the
  precompiled runtime) the kernel instantiates what it uses, as before. Functions of
  the runtime written once for every kernel (``MK_SHARED``) are compiled in the object,
  else in the kernel.
* The object is made with the precompiled runtime (the same key: the compiler as
  installed, its options, Python's headers and the runtime's text) and kept as it is:
  written atomically, readable by the user alone, its sha256 beside it; read back only
  from the cache folder as a regular file of the user's own whose bytes have that
  digest, and the bytes checked are the bytes given to the linker (a copy in the
  build's own folder). One that is missing or damaged is made again, never trusted.
* Only a quick build links it (``used``: a kernel built at ``-Og``, ``-O0`` or ``-O1``,
  the first build a command waits for, kernel_quick.py). An optimised kernel (``-O2``,
  the one users play with once the background build is done) instantiates what it uses,
  as a kernel built whole: the vectors' ``emplace_back`` and ``reserve`` and the lists'
  ``drop`` are then inlined where they are called, not calls into the object (a large
  board game's perft counted 4% more instructions with the object). Its precompiled
  runtime is made without ``MK_PREBUILT`` (another text, another key).
* The precompiled runtime of a quick build is used only with the object: a build
  without one is built without the other. Its symbols are hidden where they name the runtime's types (the
  namespace ``mk``), and the free lists of the lists' buffers are the kernel's own.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ...dsl import diskcache, files
from . import cython_code as native

PREFIX = "meeple_kpre_"
SOURCE = "meeple_kernel_prebuilt.cpp"
OBJECT = "meeple_kernel_prebuilt.o"
MAX_BYTES = 1 << 28
KERNEL_SIDE = "#define MK_PREBUILT 1\n"    # what the precompiled runtime's text starts with
OBJECT_SIDE = "#define MK_PREBUILT 2\n"
# (GNU ld: each function in a section of its own; the module exports its PyInit_ alone
# (a version script), so the sections no kernel calls are left out of it, which would
# otherwise hold the whole object)
_GNU_LD = sys.platform.startswith("linux")
SECTIONS = ["-ffunction-sections", "-fdata-sections"] if _GNU_LD else []
EXPORTS = "meeple_kernel_exports.map"


QUICK_LEVELS = ("-O0", "-Og", "-O1", "-O")


def used(flags: list[str]) -> bool:
    """Whether a kernel built with ``flags`` links the object (and is compiled with
    ``MK_PREBUILT``): where its last ``-O`` option (none: ``-O0``) is a quick one."""
    levels = [f for f in flags if f.startswith("-O")]
    return not levels or levels[-1] in QUICK_LEVELS


def link(obj: Path) -> tuple[str, ...]:
    """What a kernel's build adds to its command to link ``obj`` (made by ``obtain``)."""
    if not _GNU_LD:
        return (str(obj),)
    exports = obj.parent / EXPORTS
    exports.write_text("{ global: PyInit_*; local: *; };\n", encoding="utf-8")
    return (str(obj), "-Wl,--gc-sections", f"-Wl,--version-script={exports}")


def obtain(where: Path, key: str, runtime: str, tmp: Path, cxx: list[str], flags: list[str], include: str,
           run, make: bool) -> Path | None:
    """The object's path in ``tmp`` (a copy of the one kept under ``key``, or made now
    when ``make``: ``run(cmd)`` a finished compiler process), or None."""
    out = tmp / OBJECT
    data = cached(where, key)
    if data is None:
        if not make:
            return None
        (tmp / SOURCE).write_text(OBJECT_SIDE + runtime, encoding="utf-8")
        done = run([*cxx, *[f for f in flags if f != "-shared"], *SECTIONS, f"-I{include}", "-c",
                    str(tmp / SOURCE), "-o", str(out)])
        data = files.read_regular_file(out, MAX_BYTES) if done.returncode == 0 and out.exists() else None
        if data is None:
            return None
        keep(where, key, data)
        return out
    out.write_bytes(data)
    return out


def paths(where: Path, key: str) -> tuple[Path, Path]:
    """The object kept under ``key`` and its digest."""
    return where / (PREFIX + key + ".o"), where / (PREFIX + key + ".sha256")


def cached(where: Path, key: str) -> bytes | None:
    """The object kept under ``key``: None when missing, not the user's own, not a
    regular file, or its bytes not those whose digest was written beside it."""
    obj, digest = paths(where, key)
    data = diskcache.read_own(obj)
    want = diskcache.read_own(digest)
    if data is None or want is None or hashlib.sha256(data).hexdigest().encode() != want.strip():
        return None
    return data


def keep(where: Path, key: str, data: bytes) -> None:
    """Writes it into the cache, atomically, its digest beside it (the digest last: a
    reader finds both or a mismatch, never trusted)."""
    obj, digest = paths(where, key)
    try:
        native._write(where, obj, data)
        native._write(where, digest, hashlib.sha256(data).hexdigest().encode())
    except OSError:
        pass


def remove(where: Path, key: str) -> None:
    for f in paths(where, key):
        try:
            f.unlink()
        except OSError:
            pass
