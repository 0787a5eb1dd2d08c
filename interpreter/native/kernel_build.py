"""Building and loading a kernel's module: the C++ compiler found here, its options,
the key a kernel is kept under (its source, Python, the platform and the compiler as
installed), and the build itself, with the precompiled runtime (kernel_pch.py). The
kernel's C++ is written by kernel.py; a quick first build and the optimised one in the
background: kernel_quick.py."""
from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import sysconfig
from contextlib import contextmanager
from pathlib import Path

from ...dsl import diskcache, settings
from . import cython_code as native, kernel_pch

FORMAT = "1"          # the layout of the generated module (part of its key on disk)
BUILD_TIMEOUT = 600   # seconds for the C++ compiler
# (-fvisibility=hidden: the module exports its init function alone, so that its own
# functions, the templates' too, are called directly and not through the PLT: a large
# board game's perft about 4% faster, docs/performance.md; not in the quick build,
# kernel_quick.quick_options)
CXX_FLAGS = ["-O2", "-std=c++17", "-fPIC", "-shared", "-fno-strict-aliasing", "-w", "-fvisibility=hidden"]
OPTIMISED_ONLY = ("-fvisibility=hidden",)
_loaded: dict[str, object] = {}


class KernelError(Exception):
    """The kernel cannot be built or loaded here (``str(e)`` says why)."""


def enabled() -> bool:
    """False when ``MEEPLE_KERNEL=0`` (or another off value: dsl/settings.py ``on``):
    native programs are then never played by a kernel (their rule code is compiled by
    Cython, as without one)."""
    return settings.on("MEEPLE_KERNEL")


def compiler() -> list[str] | None:
    """The C++ compiler's command (``CXX``, else the one Python was built with, else
    ``c++``/``g++``/``clang++`` on the PATH), or None."""
    if sysconfig.get_platform().startswith("win"):
        return None   # (MSVC has no statement of GNU C++ the kernels use: Python serves)
    for cxx in (os.environ.get("CXX"), sysconfig.get_config_var("CXX"), "c++", "g++", "clang++"):
        words = (cxx or "").split()
        if words and shutil.which(words[0]):
            return words
    return None


def status() -> str | None:
    """None when kernels can be built here; else why not, in one sentence."""
    if compiler() is None:
        return "no C++ compiler was found (set CXX, or install g++ or clang++)"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "Python's headers are missing (install the python3-dev package)"
    return None


def given_flags() -> list[str]:
    """The options ``MEEPLE_KERNEL_CXXFLAGS`` gives (split at spaces; none where unset)."""
    return os.environ.get("MEEPLE_KERNEL_CXXFLAGS", "").split()


def flags() -> list[str]:
    """The compiler's options: ``MEEPLE_KERNEL_CXXFLAGS`` (``given_flags``) replaces the
    optimization (``-O0`` builds faster, runs slower: the same games)."""
    own = given_flags()
    return ([f for f in CXX_FLAGS if not f.startswith("-O")] + own) if own else list(CXX_FLAGS)


def module_key(source: str, options: list[str] | None = None) -> str:
    """The key a kernel is kept under: its source, Python's version and ABI, the
    platform, the compiler's options (``flags()`` unless given), command and identity
    (``kernel_pch.compiler_id``), and whether a profile may guide it (kernel_pgo.py:
    with ``MEEPLE_KERNEL_PGO=0`` a kernel kept guided is not the one asked for)."""
    cxx = compiler() or []
    return diskcache.key("meeple-kernel", FORMAT, source, sys.version, sysconfig.get_config_var("SOABI") or "",
                         sys.implementation.cache_tag or "", sysconfig.get_platform(),
                         " ".join(flags() if options is None else options),
                         " ".join(cxx), kernel_pch.compiler_id(cxx) if cxx else "",
                         *(() if settings.on("MEEPLE_KERNEL_PGO") else ("unguided",)))


def module_name(key: str) -> str:
    return f"meeple_kernel_{key[:32]}"


def obtain(source: str, options: list[str], on_build=None, make_pch: bool = True, builder=None):
    """The module of ``source`` built with ``options``: from this process, the cache or
    built now; (module, seconds spent building). ``builder(name, key, source, tmp,
    options)``, where given, builds it in place of ``_build`` (kernel_pgo.build: the
    optimised kernel guided by a profile)."""
    key = module_key(source, options)
    name = module_name(key)
    make = (lambda tmp: builder(name, key, source, tmp, options)) if builder is not None \
        else (lambda tmp: _build(name, key, source, tmp, options, make_pch))
    try:
        with _alone(key):
            mod, _built, seconds = native.obtain(_loaded, key, name, make,
                                                 usable=_kernel_module, on_build=on_build)
    except native.NativeError as e:
        raise KernelError(str(e)) from None
    if mod is None:
        raise KernelError("the kernel built does not load")
    return mod, seconds


@contextmanager
def _alone(key: str):
    """While inside, this process alone builds the kernel of ``key`` into the cache: it
    holds the kernel's lock (an ``flock`` on ``meeple_kfg_<key>.lock`` in the cache
    folder, released by the system however the process ends), and another process
    asking for the same kernel meanwhile waits, then finds it kept. Without a cache
    folder or ``fcntl``, or with the kernel loaded already: no lock."""
    where = None if key in _loaded else native.folder()
    try:
        import fcntl
    except ImportError:
        where = None
    if where is None:
        yield
        return
    path = where / f"meeple_kfg_{key[:32]}.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException as e:   # (a folder whose system has no locks: build unlocked)
        os.close(fd)
        if not isinstance(e, OSError):
            raise
        yield
        return
    try:
        yield
    finally:
        try:   # (one who waits on it finds the kernel kept; one who comes later, no lock)
            path.unlink()
        except OSError:
            pass
        os.close(fd)


def _kernel_module(mod) -> bool:
    return callable(getattr(mod, "start", None)) and callable(getattr(mod, "load", None))


def _build(name: str, key: str, source: str, tmp: Path, options: list[str] | None = None,
           make_pch: bool = True, pch: bool = True) -> Path:
    """The C++ compiler, in the folder ``tmp``, with ``options`` (``flags()`` unless
    given; ``make_pch``: see kernel_pch.unit; not ``pch``: the source compiled as it
    is, never with the precompiled runtime): the module's path."""
    options = flags() if options is None else options
    cxx = compiler()
    if cxx is None:
        raise KernelError(status() or "no C++ compiler")
    src = tmp / f"{name}.cpp"
    head = (f'#define KERNEL_NAME "{name}"\n#define KERNEL_SYMBOL {name}\n'
            f'#define KERNEL_KEY "{key}"\n')
    out = tmp / (name + importlib.machinery.EXTENSION_SUFFIXES[0])
    include = sysconfig.get_paths()["include"]
    cmd = [*cxx, *options, f"-I{include}", str(src), "-o", str(out)]
    if sys.platform == "darwin":
        cmd[1:1] = ["-undefined", "dynamic_lookup"]
    unit = (kernel_pch.unit(head, source, tmp, cxx, options, include, lambda c: _run(c, tmp), make_pch) if pch
            else kernel_pch.Unit(head + source))
    if unit.key is not None:   # (the precompiled runtime beside it: see kernel_pch.py)
        src.write_text(unit.text, encoding="utf-8")
        done = _run([*cmd, *unit.objects, "-H"], tmp)   # (objects: kernel_prebuilt.py)
        if done.returncode == 0 and out.exists():
            if not kernel_pch.taken(done.stderr):   # (it read the text beside it)
                kernel_pch.refused(unit)
            return out
    src.write_text(head + source, encoding="utf-8")
    done = _run(cmd, tmp)
    if done.returncode != 0 or not out.exists():
        raise KernelError(_failure(done.stderr or done.stdout or "", src))
    if unit.key is not None:   # (it failed with the header and not without)
        kernel_pch.refused(unit)
    return out


def _run(cmd: list[str], tmp: Path) -> subprocess.CompletedProcess:
    """The compiler, run in the folder ``tmp`` to its end."""
    try:
        return subprocess.run(cmd, cwd=tmp, check=False, capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as e:
        raise KernelError(f"the build could not run ({type(e).__name__}: {e})") from None


def _failure(output: str, src: Path) -> str:
    """Why a build failed, from the compiler's output: an error in the C++ Meeple wrote
    is a bug of Meeple's, and said so (any other, e.g. an option it does not know, is
    the compiler's as it runs here)."""
    said = [r.strip().replace(str(src), src.name)[:300] for r in output.splitlines() if r.strip()]
    first = [r for r in said if "error" in r][:2] or said[:2]
    ours = any(r.startswith(src.name + ":") and "error" in r for r in said)
    return ("the build failed" + (" on the C++ Meeple wrote (a bug in Meeple, please report it with the "
                                  "ruleset)" if ours else "") + (": " + " / ".join(first) if first else ""))
