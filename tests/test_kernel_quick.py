"""A kernel's first build is quick and the optimised one is made in the background
(interpreter/native/kernel_quick.py): the quick kernel serves at once; one background
builder per kernel (a lock), detached from the command, keeps the optimised kernel as
every kernel is kept (atomically, its digest beside it) and removes the quick one; a
build that fails is marked and not tried again. A kernel's key names the compiler as
installed: an upgraded compiler builds the kernels again."""
from __future__ import annotations

import fcntl
import hashlib
import os
import stat
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from meeple.interpreter.native import cython_code, kernel, kernel_build, kernel_quick

from meeple import interpreter

TINY = "extern \"C\" int meeple_probe(void) { return 42; }\n"   # (any unit that builds)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of its own, the default options, no precompiled runtime, no profile
    (tests/test_kernel_pgo.py; one test here builds with it)."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MEEPLE_KERNEL_CXXFLAGS", raising=False)
    monkeypatch.delenv("MEEPLE_KERNEL_QUICK", raising=False)
    monkeypatch.setenv("MEEPLE_KERNEL_PCH", "0")
    monkeypatch.setenv("MEEPLE_KERNEL_PGO", "0")
    return cython_code.folder()


def kept(where, name) -> bytes | None:
    so, digest = where / (name + cython_code._suffix()), where / (name + ".sha256")
    if not so.exists():
        return None
    data = so.read_bytes()
    assert digest.read_bytes() == hashlib.sha256(data).hexdigest().encode()
    assert stat.S_IMODE(so.stat().st_mode) == 0o600
    return data


def test_the_key_of_a_kernel_names_the_compiler_as_installed(tmp_path, monkeypatch):
    cxx = tmp_path / "c++"
    cxx.write_text("#!/bin/sh\nexec g++ \"$@\"\n")
    cxx.chmod(0o755)
    monkeypatch.setenv("CXX", str(cxx))
    before = kernel.module_key(TINY)
    assert kernel.module_key(TINY) == before
    cxx.write_text("#!/bin/sh\n# version 2\nexec g++ \"$@\"\n")   # (upgraded in place)
    assert kernel.module_key(TINY) != before


def test_only_the_default_options_with_a_cache_get_a_quick_build(cache, monkeypatch):
    assert kernel_quick.plan(TINY).quick_options[-1] == "-Og"
    monkeypatch.setenv("MEEPLE_KERNEL_QUICK", "0")
    assert kernel_quick.plan(TINY) is None
    monkeypatch.delenv("MEEPLE_KERNEL_QUICK")
    monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", "-O1")
    assert kernel_quick.plan(TINY) is None
    monkeypatch.delenv("MEEPLE_KERNEL_CXXFLAGS")
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    assert kernel_quick.plan(TINY) is None


@needs_kernel
def test_the_background_build_keeps_the_optimised_kernel_and_removes_the_quick_one(cache, monkeypatch):
    """(With the profile on: this unit has no module to train, the plain build serves.)"""
    monkeypatch.delenv("MEEPLE_KERNEL_PGO")
    plan = kernel_quick.plan(TINY)
    quick = kernel.module_name(kernel.module_key(TINY, plan.quick_options))
    cython_code._keep(cache, quick, b"the quick kernel")
    assert kernel_quick.start(plan)
    kernel_quick.wait()
    data = kept(cache, plan.name)
    assert data is not None and data.startswith(b"\x7fELF")
    assert kept(cache, quick) is None
    assert not plan.lock_path().exists()
    assert not kernel_quick.start(plan)        # (kept: nothing to build)


@needs_kernel
def test_a_background_build_that_fails_is_marked_and_not_tried_again(cache):
    plan = kernel_quick.plan("this is not C++\n")
    assert kernel_quick.start(plan)
    kernel_quick.wait()
    assert kept(cache, plan.name) is None
    assert plan.failed_path().exists()
    assert not kernel_quick.start(plan)


@needs_kernel
def test_no_second_builder_starts_while_one_holds_the_lock(cache):
    plan = kernel_quick.plan(TINY)
    fd = os.open(plan.lock_path(), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)                # (another builder, at work)
        kernel_quick.start(plan)                      # (its starter ends: the lock is taken)
        assert kept(cache, plan.name) is None
    finally:
        os.close(fd)
    assert kernel_quick.start(plan)
    kernel_quick.wait()
    assert kept(cache, plan.name) is not None


def processes() -> dict[int, tuple[str, int, int, str]]:
    """Each process: (state, parent, session, command line)."""
    out = {}
    for d in (d for d in os.listdir("/proc") if d.isdigit()):
        try:
            stat_ = Path(f"/proc/{d}/stat").read_text()
            cmd = Path(f"/proc/{d}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        rest = stat_.rsplit(")", 1)[1].split()
        out[int(d)] = (rest[0], int(rest[1]), int(rest[3]), cmd)
    return out


@needs_kernel
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc here")
def test_the_builder_is_detached_and_the_command_leaves_no_process_behind(cache, tmp_path, monkeypatch):
    """While it builds, the builder is no child of the command, in a session of its own
    (Ctrl-C in the terminal does not reach it), its streams on /dev/null; the process
    that started it has ended and been waited for."""
    go = tmp_path / "go"
    cxx = tmp_path / "c++"    # (a compiler that waits for the test to let it go on)
    cxx.write_text(f"#!/bin/sh\nwhile [ ! -e '{go}' ]; do sleep 0.05; done\nexec g++ \"$@\"\n")
    cxx.chmod(0o755)
    monkeypatch.setenv("CXX", str(cxx))
    plan = kernel_quick.plan(TINY)
    me = os.getpid()
    zombies = {p for p, (s, pp, _, _) in processes().items() if pp == me and s == "Z"}
    try:
        assert kernel_quick.start(plan)
        found = {p: v for p, v in processes().items() if str(plan.lock_path()) in v[3]}
        assert len(found) == 1, found
        (pid, (_, parent, session, _)), = found.items()
        assert parent != me and session != os.getsid(0) and session == pid
        assert all(os.readlink(f"/proc/{pid}/fd/{k}") == os.devnull for k in (0, 1, 2))
        assert {p for p, (s, pp, _, _) in processes().items() if pp == me and s == "Z"} == zombies
    finally:
        go.write_text("")
    kernel_quick.wait()
    assert kept(cache, plan.name) is not None


@needs_kernel
@pytest.mark.kernels
def test_a_first_kernel_is_the_quick_one_then_the_optimised_one_plays_the_same(cache, monkeypatch):
    """A real kernel: the quick one first; after the background build, the optimised one
    (here -O0 with a define of its own, to build cheaply), which plays the same games."""
    monkeypatch.setattr(kernel_build, "CXX_FLAGS", [f for f in kernel_build.CXX_FLAGS if not f.startswith("-O")]
                        + ["-O0", "-DMEEPLE_TEST_OPTIMISED"])
    monkeypatch.setattr(kernel_build, "_loaded", {})
    prog = interpreter.load("kalah").for_players(2)
    source = kernel.Gen(prog).source()
    plan = kernel_quick.plan(source)
    said = []
    first, _ = kernel.load_or_build(source, lambda: said.append("building"))
    assert said == ["building"]
    assert first.KEY == kernel.module_key(source, plan.quick_options) != plan.key
    kernel_quick.wait()
    kernel_build._loaded.clear()
    second, seconds = kernel.load_or_build(source, lambda: said.append("again"))
    assert plan.key == second.KEY and seconds == 0.0 and said == ["building"]
    assert kept(cache, kernel.module_name(first.KEY)) is None
    assert first.playouts((7, 0, 20), 500) == second.playouts((7, 0, 20), 500)
