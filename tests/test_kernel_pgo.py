"""The background build of a kernel guided by a profile of its own random games
(interpreter/native/kernel_pgo.py): where no profile can be had (a training that fails,
a compiler without the options, the switch off) the plain optimised build serves, never
an error; a guided kernel plays the same games and counts the same perfts as Python.
The optimised build hides the module's own symbols; the quick build keeps its options."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess

import pytest
from kernel_support import needs_kernel
from meeple.interpreter.native import kernel, kernel_build, kernel_pgo, kernel_quick

from meeple import interpreter

TINY = "extern \"C\" int meeple_probe(void) { return 42; }\n"   # (builds; no module: its training fails)


def instrumented(path) -> bool:
    """Whether the module built counts its branches (GCC's profiling runtime is in it)."""
    return b"__gcov_" in path.read_bytes()


def test_the_optimised_build_hides_the_module_s_symbols_and_the_quick_one_keeps_its_options(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL_CXXFLAGS", raising=False)
    assert "-fvisibility=hidden" in kernel_build.flags()
    assert kernel_quick.quick_options(kernel_build.flags()) == [
        "-std=c++17", "-fPIC", "-shared", "-fno-strict-aliasing", "-w", "-Og"]


@needs_kernel
def test_a_training_that_fails_gives_the_plain_build(tmp_path, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL_PGO", raising=False)
    trained, train = [], kernel_pgo.train

    def spy(module, name):
        trained.append((instrumented(module), train(module, name)))
        return trained[-1][1]
    monkeypatch.setattr(kernel_pgo, "train", spy)
    built = kernel_pgo.build("meeple_probe", "k", TINY, tmp_path, kernel_build.flags())
    assert trained == [(True, False)]   # (an instrumented module, whose training failed)
    assert built.exists() and not instrumented(built)


@needs_kernel
def test_a_compiler_without_the_options_gives_the_plain_build(tmp_path, monkeypatch):
    cxx = tmp_path / "c++"
    cxx.write_text("#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -fprofile-*) echo \"unknown option $a\" >&2; "
                   "exit 1;; esac; done\nexec g++ \"$@\"\n")
    cxx.chmod(0o755)
    monkeypatch.setenv("CXX", str(cxx))
    monkeypatch.delenv("MEEPLE_KERNEL_PGO", raising=False)
    built = kernel_pgo.build("meeple_probe", "k", TINY, tmp_path, kernel_build.flags())
    assert built.exists() and not instrumented(built)


@needs_kernel
def test_a_compiler_other_than_gcc_is_not_asked_for_a_profile(tmp_path, monkeypatch):
    cxx = tmp_path / "c++"
    cxx.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'clang version 17.0.0' && exit 0\nexec g++ \"$@\"\n")
    cxx.chmod(0o755)
    monkeypatch.setenv("CXX", str(cxx))
    monkeypatch.delenv("MEEPLE_KERNEL_PGO", raising=False)
    assert not kernel_pgo.gcc()
    monkeypatch.setattr(kernel_pgo, "train", lambda module, name: pytest.fail("trained"))
    built = kernel_pgo.build("meeple_probe", "k", TINY, tmp_path, kernel_build.flags())
    assert built.exists() and not instrumented(built)
    monkeypatch.delenv("CXX")
    assert kernel_pgo.gcc() == ("Free Software Foundation" in subprocess.run(
        [*kernel_build.compiler(), "--version"], capture_output=True, text=True, check=False).stdout)


def test_the_switch_off_builds_the_plain_kernel_at_once(tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(kernel_pgo, "gcc", lambda: True)
    monkeypatch.setattr(kernel_build, "_build", lambda *a, **k: asked.append(a[4]) or tmp_path)
    monkeypatch.setenv("MEEPLE_KERNEL_PGO", "0")
    assert kernel_pgo.build("m", "k", TINY, tmp_path, ["-O2"]) == tmp_path
    assert asked == [["-O2"]]
    monkeypatch.setenv("MEEPLE_KERNEL_PGO", "1")
    monkeypatch.setattr(kernel_pgo, "train", lambda module, name: False)
    asked.clear()
    assert kernel_pgo.build("m", "k", TINY, tmp_path, ["-O2"]) == tmp_path
    assert asked == [["-O2", "-fprofile-generate"], ["-O2"]]


def test_a_kernel_kept_guided_is_not_taken_for_an_unguided_one(monkeypatch):
    """The switch is in the kernel's key: with it off, a kernel the cache kept guided is
    not the one asked for (a plain build is kept beside it); on, the key is as before."""
    monkeypatch.delenv("MEEPLE_KERNEL_PGO", raising=False)
    guided = kernel_build.module_key(TINY, ["-O2"])
    monkeypatch.setenv("MEEPLE_KERNEL_PGO", "1")
    assert kernel_build.module_key(TINY, ["-O2"]) == guided
    monkeypatch.setenv("MEEPLE_KERNEL_PGO", "0")
    plain = kernel_build.module_key(TINY, ["-O2"])
    assert plain != guided and plain == kernel_build.module_key(TINY, ["-O2"])


def load_module(path, name):
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    mod = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path, loader=loader))
    loader.exec_module(mod)
    return mod


@needs_kernel
@pytest.mark.kernels
@pytest.mark.parametrize("ruleset", ["kalah", "tests/testdata/ttt/ttt.meeple"])
def test_a_guided_kernel_plays_the_same_games_and_perfts_as_python(ruleset, tmp_path, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL_CXXFLAGS", raising=False)
    python = interpreter.load(ruleset).for_players(2)
    source = kernel.Gen(python).source()
    name = "meeple_kernel_guided_" + ruleset.replace("/", "_").replace(".", "_")
    path = kernel_pgo.guided(name, "k", source, tmp_path, kernel_build.flags())
    assert path is not None and not instrumented(path)
    mod = load_module(path, name)
    monkeypatch.setattr(kernel, "load_or_build", lambda src, on_build=None: (mod, 0.0))
    guided = interpreter.load(ruleset, native=True, cache=False).for_players(2)
    assert guided.kernel
    assert interpreter.playouts(guided, 30, seed=5) == interpreter.playouts(python, 30, seed=5)
    assert interpreter.perft(guided.new_game(seed=1), 3) == interpreter.perft(python.new_game(seed=1), 3)


def test_the_kernel_built_at_once_is_guided_as_the_background_one_unless_options_are_given(monkeypatch):
    """``MEEPLE_KERNEL_QUICK=0``: the optimised kernel built at once is the one the
    background builds (kept under the same key), guided; options given are built as they
    are (no profile: tests/conftest.py's -O0)."""
    asked = []

    def obtain(source, options, on_build=None, make_pch=True, builder=None):
        asked.append((options, builder))
        return object(), 0.0
    monkeypatch.setattr(kernel, "obtain", obtain)
    monkeypatch.setenv("MEEPLE_KERNEL_QUICK", "0")
    monkeypatch.delenv("MEEPLE_KERNEL_CXXFLAGS", raising=False)
    kernel.load_or_build("// a source")
    assert asked == [(kernel_build.flags(), kernel_pgo.build)]
    monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", "-O1")
    asked.clear()
    kernel.load_or_build("// a source")
    assert asked == [(kernel_build.flags(), None)]
