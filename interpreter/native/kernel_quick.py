"""A kernel's first build, quick; the optimised one made in the background.

A kernel built with the default options (``-O2``) takes the compiler 6 to 25 s of CPU;
one built with ``-Og`` a third to a fifth of that (as ``-O0``), and plays the same games
at 60 to 80% of the speed (``-O0``: a sixth to a tenth; docs/performance.md).
Where the default options serve (no ``MEEPLE_KERNEL_CXXFLAGS``) and kernels are kept
(a cache folder of the user's own), a program's kernel is:

* the optimised one, when the cache holds it (or this process loaded it);
* else the quick one (``-Og``), from the cache or built now (what a first command waits
  for), and the optimised one is then built by a process of its own in the background
  and kept in the cache, where it replaces the quick one for the commands that follow.

The background build is one per kernel at a time, whatever the number of commands
started: a process builds a kernel only while it holds the lock of that kernel (an
``flock`` on ``meeple_kbg_<key>.lock`` in the cache folder: the system releases it when
the process ends, however it ends); it is started detached from the command (a session
of its own, no terminal, its standard streams on ``/dev/null``, niced), so Ctrl-C in
the terminal stops the command and not the build, and the command neither waits for it
nor leaves a process of its own behind (the process it starts forks the builder and ends
at once: the system, not the command, then has the builder). The builder writes the
kernel as every kernel is written (atomically, with its sha256 beside it: cython_code
``_keep``), then removes the quick one. It builds the optimised kernel guided by a
profile of the kernel's own random games where it can (kernel_pgo.py), else plainly.
A build that fails leaves a mark
(``meeple_kbg_<key>.failed``) so that it is not tried again; the quick kernel serves.

``MEEPLE_KERNEL_QUICK=0`` turns this off: the optimised kernel is built at once (guided
by a profile as in the background: kernel.load_or_build) and waited for, as where the cache is off or ``MEEPLE_KERNEL_CXXFLAGS`` is set (then the
kernel is built with exactly those options)."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from ...dsl import diskcache, settings
from . import cython_code as native, kernel_build, kernel_pch, kernel_pgo

PREFIX = "meeple_kbg_"
QUICK = "-Og"
SPAWN_TIMEOUT = 60    # seconds for the starter (it reads the source and forks)

# The starter: run by ``python -I -S`` (nothing but the standard library), it reads what
# to build from its standard input, takes the kernel's lock or ends, forks the builder
# (which keeps the lock) and ends once the builder is in a session of its own with its
# streams on /dev/null (whoever finds the builder finds it so, never half-detached). The
# builder has no terminal and imports Meeple from the command's own path.
_STARTER = r"""
import fcntl, json, os, sys
job = json.loads(sys.stdin.buffer.read())
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    sys.exit(0)
ready, told = os.pipe()
if os.fork() != 0:
    os.close(told)
    os.read(ready, 1)   # (until the builder is on its own: its pipe's end closed)
    os._exit(0)
os.close(ready)
try:
    os.setsid()
except OSError:
    pass
null = os.open(os.devnull, os.O_RDWR)
for k in (0, 1, 2):
    os.dup2(null, k)
os.close(told)
try:
    os.nice(10)
except OSError:
    pass
sys.path[:0] = job["path"]
from meeple.interpreter.native import kernel_quick
kernel_quick.finish(job, fd)
"""


def enabled() -> bool:
    """False when ``MEEPLE_KERNEL_QUICK=0`` (or another off value)."""
    return settings.on("MEEPLE_KERNEL_QUICK")


class Plan:
    """How a kernel of ``source`` is had: the optimised one (``options``), else the quick
    one, the optimised one then made in the background."""

    def __init__(self, source: str, options: list[str], where: Path):
        self.source, self.options, self.where = source, options, where
        self.key = kernel_build.module_key(source, options)
        self.name = kernel_build.module_name(self.key)
        self.quick_options = quick_options(options)

    def obtain(self, on_build=None):
        """(module, seconds spent building) as kernel.load_or_build."""
        mod = kernel_build._loaded.get(self.key) or native._cached(self.where, self.name, self.key,
                                                             kernel_build._kernel_module)
        if mod is not None:
            kernel_build._loaded[self.key] = mod
            return mod, 0.0
        # (the precompiled runtime, where the cache has none, is made by the builder)
        mod, seconds = kernel_build.obtain(self.source, self.quick_options, on_build, make_pch=False)
        start(self)
        return mod, seconds

    def lock_path(self) -> Path:
        return self.where / (PREFIX + self.key[:32] + ".lock")

    def failed_path(self) -> Path:
        return self.where / (PREFIX + self.key[:32] + ".failed")


def quick_options(options: list[str]) -> list[str]:
    return [f for f in options if not f.startswith("-O") and f not in kernel_build.OPTIMISED_ONLY] + [QUICK]


def plan(source: str) -> Plan | None:
    """The plan for ``source``'s kernel, or None where it is built as asked and waited
    for (switched off, options given, no cache folder, no ``fcntl``/``fork``)."""
    if not enabled() or kernel_build.given_flags() or not hasattr(os, "fork"):
        return None
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return None
    where = native.folder()
    if where is None:
        return None
    return Plan(source, kernel_build.flags(), where)


def start(p: Plan) -> bool:
    """Starts the background build of ``p``'s optimised kernel unless it is kept, failed
    before, or being built; True when a builder was started (or found building)."""
    if _kept(p.where, p.name) or diskcache.read_own(p.failed_path()) is not None:
        return False
    job = {"path": [x for x in sys.path if isinstance(x, str)], "source": p.source, "key": p.key,
           "options": p.options, "quick": p.quick_options}
    try:
        subprocess.run([sys.executable, "-I", "-S", "-c", _STARTER, str(p.lock_path())],
                       input=json.dumps(job).encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       start_new_session=True, timeout=SPAWN_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return True


def finish(job: dict, lock_fd: int) -> None:
    """The builder (in the background, holding the kernel's lock): builds the optimised
    kernel and keeps it, then removes the quick one."""
    where = native.folder()
    source, options = job["source"], job["options"]
    if where is None or kernel_build.module_key(source, options) != job["key"]:
        return
    p = Plan(source, options, where)
    if _kept(where, p.name) or diskcache.read_own(p.failed_path()) is not None:
        return
    try:
        data = native._built(lambda tmp: kernel_pgo.build(p.name, p.key, source, tmp, options))
    except (kernel_build.KernelError, native.NativeError):
        data = None
    try:
        if data is None:
            native._write(where, p.failed_path(), b"")
        else:
            native._keep(where, p.name, data)
            quick = kernel_build.module_name(kernel_build.module_key(source, job["quick"]))
            _remove(where / (quick + native._suffix()), where / (quick + ".sha256"))
    except OSError:
        pass
    # (the precompiled runtime for the quick builds that follow: see kernel_pch.py)
    cxx = kernel_build.compiler()
    if cxx is not None:
        kernel_pch.prepare(cxx, job["quick"], sysconfig.get_paths()["include"], kernel_build._run)
    # (whoever takes the lock from now on finds the kernel kept, or the mark)
    _remove(p.lock_path())
    os.close(lock_fd)


def _remove(*paths: Path) -> None:
    for f in paths:
        try:
            f.unlink()
        except OSError:
            pass


def _kept(where: Path, name: str) -> bool:
    """Whether the cache holds the module ``name`` with the digest written beside it."""
    data = diskcache.read_own(where / (name + native._suffix()))
    want = diskcache.read_own(where / (name + ".sha256"))
    return data is not None and want is not None and hashlib.sha256(data).hexdigest().encode() == want.strip()


def wait() -> None:
    """Waits until no background build holds a lock in the cache folder (what a build
    started by this process holds from the moment ``start`` returns)."""
    import fcntl
    where = native.folder()
    if where is None:
        return
    for path in sorted(where.glob(PREFIX + "*.lock")):
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        finally:
            os.close(fd)
