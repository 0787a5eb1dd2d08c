"""The runtime every kernel starts with (cxx/kernel_rt.hpp, with Python.h and the standard
headers it includes: about a quarter of a kernel's build at -O0) compiled once into a
precompiled header (GCC's ``.gch``), kept in the cache beside the kernels
(interpreter/native/kernel.py).

* A precompiled header is made once per compiler, options, Python headers and text of
  the runtime (its key), when a kernel is built into a cache that already holds one:
  a single kernel (a first run, a test in a cache of its own) does not pay for it.
* It is kept as the kernels are (cython_code._write: written atomically, readable by
  the user alone, its sha256 beside it) and read back only from the cache folder the
  kernels trust, as a regular file of the user's own whose bytes have that digest.
  The bytes checked are the bytes given to the compiler (a copy in the build's own
  temporary folder).
* The text of the runtime is always written beside it: a compiler that does not take
  the precompiled header (another version, other options, a damaged file) reads the
  text instead, and the kernel is the same. The compiler says which it read (``-H``):
  one it did not take is removed from the cache (so it is made again), and where a
  fresh one is not taken either, a mark says not to make one for that key again. A
  build that fails with one is built again without it.
* The unit compiled includes the header, then the rest of the source with its line
  numbers as they were (``#line``): the code and what it says of its lines are the
  same either way.
* The header of a quick build (``-Og``) goes with the object of the standard library's
  instantiations every kernel makes (kernel_prebuilt.py: made with it, kept under the
  same key, linked into each kernel built with it): one without the other is not used.
  An optimised build's header (``-O2``) is the runtime alone, with no object.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from ...dsl import diskcache, files, settings
from . import cython_code as native, kernel_prebuilt
from .kernel_types import runtime_cxx

HEADER = "meeple_kernel_rt.hpp"
PREFIX = "meeple_kpch_"
FORMAT = "2"
KEEP = 2                  # precompiled headers kept (the newest): each is tens of MB
MAX_BYTES = 1 << 30
_refused: set[str] = set()   # keys whose fresh header the compiler did not take, in this process


def runtime() -> str:
    """The text every kernel's source starts with."""
    return runtime_cxx() + "\n"


def header(flags: list[str]) -> str:
    """The text precompiled: the runtime, with the object of instantiations linked where
    the kernel is built quick (kernel_prebuilt.used)."""
    return (kernel_prebuilt.KERNEL_SIDE if kernel_prebuilt.used(flags) else "") + runtime()


def pch_key(cxx: list[str], flags: list[str], include: str) -> str:
    return diskcache.key("meeple-kernel-pch", FORMAT, header(flags), " ".join(flags), " ".join(cxx), include,
                         compiler_id(cxx))


def compiler_id(cxx: list[str]) -> str:
    """The compiler's program as installed: its real path, size and time of change (a
    new version is another file). Part of the keys of the precompiled runtime and of
    the kernels (kernel.module_key): an upgraded compiler builds them again."""
    path = shutil.which(cxx[0]) or cxx[0]
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return path
    return f"{real} {st.st_size} {st.st_mtime_ns}"


class Unit:
    """What to compile in a build's folder: ``text``, and ``key`` when the precompiled
    runtime is beside it (``fresh``: made by this build), with the ``objects`` to link."""

    def __init__(self, text: str, key: str | None = None, fresh: bool = False, objects: tuple[str, ...] = ()):
        self.text, self.key, self.fresh, self.objects = text, key, fresh, objects


def enabled() -> bool:
    """False when ``MEEPLE_KERNEL_PCH=0`` (or another off value: dsl/settings.py ``on``):
    every kernel then compiled with its runtime as text."""
    return settings.on("MEEPLE_KERNEL_PCH")


def unit(head: str, source: str, tmp: Path, cxx: list[str], flags: list[str], include: str, run,
         make: bool = True) -> Unit:
    """The unit of ``head + source`` to compile in ``tmp``: with the precompiled runtime
    where one can be had (``run(cmd)``: a finished compiler process; ``make``: made now
    when the cache has none), else as it is."""
    rt = runtime()
    plain = Unit(head + source)
    where = native.folder()
    if not enabled() or where is None or not source.startswith(rt):
        return plain
    key = pch_key(cxx, flags, include)
    if key in _refused or diskcache.read_own(where / (PREFIX + key + ".unused")) is not None:
        return plain
    (tmp / HEADER).write_text(header(flags), encoding="utf-8")
    gch = tmp / (HEADER + ".gch")
    data, fresh = _cached(where, key), False
    prebuilt = kernel_prebuilt.used(flags)
    if (data is None or (prebuilt and kernel_prebuilt.cached(where, key) is None)) \
            and (not make or not _kernels_kept(where)):
        return plain
    objects: tuple[str, ...] = ()
    if prebuilt:
        obj = kernel_prebuilt.obtain(where, key, rt, tmp, cxx, flags, include, run, make)
        if obj is None:
            return plain
        objects = kernel_prebuilt.link(obj)
    if data is None:
        done = run([*cxx, *flags, f"-I{include}", "-x", "c++-header", str(tmp / HEADER), "-o", str(gch)])
        data = files.read_regular_file(gch, MAX_BYTES) if done.returncode == 0 and gch.exists() else None
        if data is None:
            return plain
        _keep(where, key, data)
        fresh = True
    else:
        gch.write_bytes(data)
    line = head.count("\n") + rt.count("\n") + 1
    return Unit(f'#include "{HEADER}"\n{head}#line {line}\n{source[len(rt):]}', key, fresh, objects)


def prepare(cxx: list[str], flags: list[str], include: str, run) -> None:
    """Makes the precompiled runtime for these options where the cache has none (and a
    kernel): what a kernel's build would make, made ahead of it (kernel_quick.py;
    ``run(cmd, folder)``: a finished compiler process run in that folder)."""
    where = native.folder()
    if where is None or not enabled():
        return
    key = pch_key(cxx, flags, include)
    if key in _refused or (_cached(where, key) is not None and (not kernel_prebuilt.used(flags)
                                                                 or kernel_prebuilt.cached(where, key) is not None)) \
            or diskcache.read_own(where / (PREFIX + key + ".unused")) is not None:
        return
    try:
        tmp = Path(tempfile.mkdtemp(prefix="meeple-native-"))
    except OSError:
        return
    try:
        unit("", runtime(), tmp, cxx, flags, include, lambda cmd: run(cmd, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def taken(output: str) -> bool:
    """Whether the compiler read the precompiled header (its ``-H`` output says so)."""
    return any(r.startswith("! ") and r.rstrip().endswith(HEADER + ".gch") for r in output.splitlines())


def refused(u: Unit) -> None:
    """The compiler did not take ``u``'s precompiled header: removed from the cache (with
    its object of instantiations); a fresh one, marked not to be made again for its key
    (nor in this process)."""
    key = u.key
    if key is None:
        return
    if u.fresh:
        _refused.add(key)
    where = native.folder()
    if where is None:
        return
    for suffix in (".gch", ".sha256"):
        try:
            (where / (PREFIX + key + suffix)).unlink()
        except OSError:
            pass
    kernel_prebuilt.remove(where, key)
    if u.fresh:
        try:
            native._write(where, where / (PREFIX + key + ".unused"), b"")
        except OSError:
            pass


def _kernels_kept(where: Path) -> bool:
    try:
        return any(p.name.startswith("meeple_kernel_") for p in where.iterdir())
    except OSError:
        return False


def _cached(where: Path, key: str) -> bytes | None:
    """The precompiled header kept under ``key``: None when missing, not the user's own,
    not a regular file, or its bytes not those whose digest was written beside it."""
    data = diskcache.read_own(where / (PREFIX + key + ".gch"))
    want = diskcache.read_own(where / (PREFIX + key + ".sha256"))
    if data is None or want is None or hashlib.sha256(data).hexdigest().encode() != want.strip():
        return None
    return data


def _keep(where: Path, key: str, data: bytes) -> None:
    """Writes it into the cache (as the kernels are), keeping the newest KEEP."""
    try:
        native._write(where, where / (PREFIX + key + ".gch"), data)
        native._write(where, where / (PREFIX + key + ".sha256"), hashlib.sha256(data).hexdigest().encode())
    except OSError:
        return
    try:
        kept = sorted((p for p in where.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(".gch")),
                      key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in kept[KEEP:]:
        for f in (old, old.with_suffix(".sha256")):
            try:
                f.unlink()
            except OSError:
                pass
        kernel_prebuilt.remove(where, old.name[len(PREFIX):-len(".gch")])
