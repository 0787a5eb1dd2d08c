"""Reading a file a user names, safely: only a regular file, of bounded size, opened
without blocking (so a FIFO cannot hang the reader) and read in a bounded way (so a
/proc file whose size lies cannot grow without end). Used for rulesets and records.
Also which files make a ruleset and which rulesets are bundled: standard library only,
so that ``meeple list`` finds them without loading the parser."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .resources import RULESETS_DIR

SUFFIX = ".meeple"


def bundled_names() -> list[str]:
    """The names of the bundled rulesets (folders of ``rulesets/`` with a ``.meeple`` file)."""
    if not RULESETS_DIR.is_dir():
        return []
    return sorted(p.name for p in RULESETS_DIR.iterdir() if p.is_dir() and any(p.glob(f"*{SUFFIX}")))


def bundled_folder(name: str) -> Path:
    """The folder of the bundled ruleset ``name``."""
    return RULESETS_DIR / name


def source_files(path: Path) -> list[Path]:
    """The files of a ruleset, in the order they are read: a folder's base file(s),
    then its variants and locales; a file alone is itself."""
    if path.is_dir():
        return sorted(path.glob(f"*{SUFFIX}")) + sorted((path / "variants").glob(f"*{SUFFIX}")) \
            + sorted((path / "locales").glob(f"*{SUFFIX}"))
    return [path]


class Refused(ValueError):
    """Why a file was not read (a sentence without the file's name)."""


class TooBig(Refused):
    """The file is over the limit."""


def kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; raises Refused (TooBig
    for a file over the limit) with the reason."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise Refused(f"cannot read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"it is {kind_of(st.st_mode)}, not a regular file; refused")
        if st.st_size > limit:
            raise TooBig(f"it has {st.st_size:,} bytes, more than the limit of {limit:,}")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise TooBig(f"it has more than the limit of {limit:,} bytes")
        if size != st.st_size:  # /proc and similar files report a size they do not have
            raise Refused("the file's size is not what the system reports (a /proc or other "
                          "special file); refused")
    except OSError as e:
        raise Refused(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)
