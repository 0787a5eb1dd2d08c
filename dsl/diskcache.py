"""A small on-disk cache of what is slow to rebuild (the parser tables of the grammar,
checked rulesets), keyed by a content hash.

The folder is ``$MEEPLE_CACHE_DIR``, else ``$XDG_CACHE_HOME/meeple``, else
``~/.cache/meeple``; ``MEEPLE_NO_CACHE=1`` (or ``meeple --no-cache``) turns the cache off.
Entries are pickles, which can run code when read, so an entry is read only from a
folder owned by the user and writable by nobody else (``trusted``); see docs/trust.md.
Every failure (an unwritable folder, a corrupt, truncated or foreign entry) just means
"not cached": the caller rebuilds, and nothing is ever raised from here.

pickle and tempfile are imported where they are used: ``meeple --help`` and the help of
every command import this module (for ``--no-cache``) and none of them. SHA-256 is
CPython's own module where there is one (``sha256``), not hashlib's: the same digests
without loading OpenSSL (a thirtieth of a warm ``meeple list``).
"""
from __future__ import annotations

import os
import stat
import sys
from functools import lru_cache
from pathlib import Path

from . import settings

MAGIC = b"meeple-cache 1\n"
DIGEST = 32                    # bytes of the sha256 of the payload
KEEP = 256                     # entries kept; the least recently written go first
SUFFIX = ".cache"

_option_off = False            # set by `meeple --no-cache` for one command line


def set_enabled(on: bool) -> None:
    """Turns the cache on or off for this process (the ``--no-cache`` option)."""
    global _option_off
    _option_off = not on


def enabled() -> bool:
    """False when ``MEEPLE_NO_CACHE`` is on (``1``, or another on value:
    settings.py ``on``) or ``--no-cache`` was given."""
    return not _option_off and not settings.on("MEEPLE_NO_CACHE")


def folder() -> Path | None:
    """Where the cache lives (it may not exist yet); None when there is no home folder
    to put it in."""
    try:
        own = os.environ.get("MEEPLE_CACHE_DIR")
        if own:
            return Path(own).expanduser()
        xdg = os.environ.get("XDG_CACHE_HOME")
        if xdg and os.path.isabs(xdg):       # the XDG spec: a relative path is ignored
            return Path(xdg) / "meeple"
        return Path.home() / ".cache" / "meeple"
    except (RuntimeError, KeyError, OSError):   # no HOME and no user entry
        return None


def untrusted_reason(path: Path) -> str | None:
    """Why the folder must not be used, or None when it is owned by the user and
    writable by nobody else (a pickle planted there by another user could run code)."""
    try:
        st = os.stat(path)
    except OSError as e:
        return f"cannot use it: {e.strerror or e}"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    getuid = getattr(os, "getuid", None)
    if getuid is None:                   # no POSIX owners (Windows): the profile's ACLs
        return None
    if st.st_uid != getuid():
        return "it is owned by another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "other users may write into it (chmod go-w fixes that)"
    return None


def _ready() -> Path | None:
    """The cache folder, made if missing, or None when it is off or not trusted."""
    if not enabled():
        return None
    path = folder()
    if path is None:
        return None
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return None if untrusted_reason(path) else path


def key(*parts) -> str:
    """The sha256 (hex) of the parts (str or bytes), each length-prefixed so that no two
    different lists of parts give the same bytes."""
    h = sha256()
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode("utf-8", "surrogateescape")
        h.update(len(b).to_bytes(8, "big"))
        h.update(b)
    return h.hexdigest()


def sha256(data: bytes = b""):
    """A SHA-256 hash object, as ``hashlib.sha256``: from CPython's own module where there
    is one (``_sha256``, ``_sha2`` from Python 3.12), which loads no OpenSSL library
    (hashlib: 14 M instructions of the 450 M of a warm ``meeple list``), else hashlib's."""
    try:
        from _sha256 import sha256 as made  # type: ignore[import-not-found]
    except ImportError:
        try:
            from _sha2 import sha256 as made  # type: ignore[import-not-found, no-redef]
        except ImportError:
            from hashlib import sha256 as made  # type: ignore[no-redef]
    return made(data)


def _entry(path: Path, kind: str, k: str) -> Path:
    return path / f"{kind}-{k}{SUFFIX}"


def get(kind: str, k: str):
    """The object stored under ``kind`` and key ``k``, or None: missing, off, untrusted,
    unreadable, truncated, corrupt or written by another version all read as None."""
    path = _ready()
    if path is None:
        return None
    head = MAGIC + k.encode("ascii") + b"\n"
    try:
        data = read_own(_entry(path, kind, k))
    except OSError:
        return None
    if data is None or not data.startswith(head) or len(data) < len(head) + DIGEST:
        return None
    digest, payload = data[len(head):len(head) + DIGEST], data[len(head) + DIGEST:]
    import pickle
    if sha256(payload).digest() != digest:
        return None
    try:
        return pickle.loads(payload)     # noqa: S301 - only from a trusted folder (see above)
    except Exception:  # noqa: BLE001 - a stale entry of another version: rebuild it
        return None


def total_size(files) -> int:
    """The bytes of these files together (one gone meanwhile counts nothing)."""
    size = 0
    for f in files:
        try:
            size += f.stat().st_size
        except OSError:
            pass
    return size


# a file of the cache is opened without following a link, without waiting (a FIFO put
# in its place would block the open until someone writes into it) and without becoming
# anyone's terminal
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def read_own(file: Path) -> bytes | None:
    """The bytes of a regular file owned by the user and writable by nobody else (None:
    missing, unreadable, a link, a FIFO, a device or other special file, or anyone
    else's); also for the native modules. It never blocks: anything but a regular file
    is refused before it is opened, and the open neither follows a link nor waits
    (should one be put in its place meanwhile); the checks are made on the descriptor
    the bytes are read from."""
    try:
        if not stat.S_ISREG(os.lstat(file).st_mode):
            return None
        fd = os.open(file, _READ_FLAGS)
    except OSError:
        return None
    try:
        if not _own_regular(os.fstat(fd)):
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)


def _own_regular(st: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return stat.S_ISREG(st.st_mode) and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) \
        and (getuid is None or st.st_uid == getuid())


def put(kind: str, k: str, value) -> bool:
    """Stores ``value`` under ``kind`` and key ``k`` (atomically: a temporary file
    renamed over the entry, so a reader sees the old entry or the new, never half of
    one). Returns whether it was stored; failing is not an error."""
    path = _ready()
    if path is None:
        return False
    import pickle
    import tempfile
    try:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - something that cannot be pickled is not cached
        return False
    data = MAGIC + k.encode("ascii") + b"\n" + sha256(payload).digest() + payload
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path, prefix=".tmp-", suffix=SUFFIX)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, _entry(path, kind, k))
        tmp = None
        _prune(path)
        return True
    except OSError:
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def entries(path: Path | None = None) -> list[Path]:
    """The cache's entries (not temporary files), oldest first."""
    path = folder() if path is None else path
    if path is None:
        return []
    try:
        found = [p for p in path.iterdir() if p.name.endswith(SUFFIX) and not p.name.startswith(".")]
    except OSError:
        return []
    return sorted(found, key=_mtime)


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


def _prune(path: Path) -> None:
    found = entries(path)
    for p in found[:max(0, len(found) - KEEP)]:
        try:
            p.unlink()
        except OSError:
            pass


def clear() -> int:
    """Removes every entry (and leftover temporary file); returns how many entries."""
    path = folder()
    n = 0
    try:
        names = list(path.iterdir())
    except (OSError, AttributeError):   # no folder (AttributeError: folder() is None)
        return 0
    for p in names:
        if p.name.endswith(SUFFIX):
            try:
                p.unlink()
                n += not p.name.startswith(".")
            except OSError:
                pass
    return n


def runtime_key() -> tuple:
    """What an entry also depends on besides its sources: the Python that pickled it."""
    import importlib.util
    return (sys.version, importlib.util.MAGIC_NUMBER, sys.implementation.name)


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The sha256 of Meeple's own code that makes what the cache keeps (a checked
    ruleset, what ``meeple list`` shows of one): its version, every module of dsl/ and
    interpreter/ (their subpackages too) with its path in the stage, the versions of
    Lark and pydantic and the Python. A checkout whose code changed never reads an entry
    its old code wrote. Nothing is imported: the files are read, or, when none of them
    changed since they were last read, the fingerprint then made is taken from the cache
    (``_remembered_fingerprint``)."""
    from .. import __version__
    files = _code_files()
    memo = _stat_key(files, __version__)
    if memo is not None:
        known = get(FINGERPRINT, memo)
        if isinstance(known, str) and len(known) == 64 and known.isalnum():
            return known
    parts: list = [__version__]
    for name, f in files:
        try:
            parts += [name, f.read_bytes()]
        except OSError:
            parts += [name, b"?"]
    fingerprint = key(*parts, *runtime_key())
    if memo is not None:
        put(FINGERPRINT, memo, fingerprint)
    return fingerprint


FINGERPRINT = "fingerprint"    # the kind of the entries that remember code_fingerprint()
SETTLED_NS = 2_000_000_000     # a file changed more recently than this is read, not trusted


def _code_files() -> list[tuple[str, Path]]:
    """What ``code_fingerprint`` reads, in order: every ``.py`` then every ``.lark`` of
    dsl/ and of interpreter/ (subpackages too), by its path in the stage; then the
    files of Lark and pydantic that say their versions."""
    dsl_dir = Path(__file__).resolve().parent
    found: list[tuple[str, Path]] = []
    for folder in (dsl_dir, dsl_dir.parent / "interpreter"):
        # every module, in the subpackages too, by its path in the stage (a module that
        # moves changes the key: pickled entries name the modules of their classes)
        names: list[str] = []
        for top, dirs, files in os.walk(folder):
            dirs.sort()
            rel = os.path.relpath(top, folder).replace(os.sep, "/")
            names += [n if rel == "." else f"{rel}/{n}" for n in files if n.endswith((".py", ".lark"))]
        for suffix in (".py", ".lark"):
            found += [(n, folder / n) for n in sorted(names) if n.endswith(suffix)]
    return found + [(f"({p})", _package_file(p, n)) for p, n in _VERSION_FILES]


_VERSION_FILES = (("lark", "__init__.py"), ("pydantic", "version.py"))


def _stat_key(files: list[tuple[str, Path]], version: str) -> str | None:
    """The key under which the fingerprint of these files is remembered: each file's
    name, size, modification and change times (nanoseconds), inode and device, as
    Python's own check of its ``.pyc`` files but stricter: a file that changes gets a
    new change time, which nothing can set back. None (read the files) when the cache
    is off, a file cannot be stat'ed, or one changed less than ``SETTLED_NS`` ago: a
    change within the same tick of the file system's clock could leave its times as
    they were, so only a file that has settled is trusted by its times."""
    if not enabled():
        return None
    import time
    now = time.time_ns()
    parts: list = [FINGERPRINT, version, *runtime_key()]
    for name, f in files:
        try:
            st = os.stat(f)
        except OSError:
            return None
        if max(st.st_mtime_ns, st.st_ctime_ns) > now - SETTLED_NS:
            return None
        parts += [name, f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} {st.st_dev}"]
    return key(*parts)


def _package_file(package: str, name: str) -> Path:
    """A file of an installed package that says its version (Lark's ``__init__.py``,
    pydantic's ``version.py``), found without importing the package (a path that does
    not exist when the package is not there: it reads as ``?``)."""
    import importlib.util
    try:
        spec = importlib.util.find_spec(package)
        if spec and spec.origin:
            return Path(spec.origin).parent / name
    except (ImportError, ValueError):
        pass
    return Path(os.devnull, package, name)
