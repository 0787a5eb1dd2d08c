"""The object of the instantiations every kernel makes (interpreter/native/kernel_prebuilt.py):
made once per compiler and options with the precompiled runtime, kept in the cache with
its digest and linked into every quick kernel (-Og) built with it, never into an
optimised one (-O2: it instantiates what it uses, so that small members inline); made
again for another compiler or other options, and where the one kept is damaged or foreign, never trusted. The
kernels built with it play the same games (tests/test_kernel.py builds its kernels with
it, in the test run's cache). A small runtime stands in for cxx/kernel_rt.hpp here, so
that each object costs the compiler a fraction of a second."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from meeple.interpreter.native import (
    cython_code,
    kernel,
    kernel_build,
    kernel_pch,
    kernel_prebuilt,
    kernel_quick,
)

from meeple import interpreter

pytestmark = pytest.mark.kernels
MISSING = interpreter.kernel_status()

RUNTIME = """template <class T> struct Box { T v; T get() const { return v; } };
#if defined(MK_PREBUILT) && MK_PREBUILT == 1
extern template struct Box<int>;
#elif defined(MK_PREBUILT)
template struct Box<int>;
#endif
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder holding a kernel (the object is made once one is kept), the small
    runtime, and the compiler's commands run, recorded."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_pch, "_refused", set())
    monkeypatch.setattr(kernel_pch, "runtime", lambda: RUNTIME)
    folder = cython_code.folder()
    (folder / "meeple_kernel_other.so").write_bytes(b"")
    runs: list[list[str]] = []
    real = kernel_build._run

    def run(cmd, tmp):
        runs.append(list(cmd))
        return real(cmd, tmp)

    monkeypatch.setattr(kernel_build, "_run", run)
    return folder, runs


def quick() -> list[str]:
    """The options of a first build (kernel_quick.py): the object is linked."""
    return kernel_quick.quick_options(kernel.flags())


def build(tmp_path, n: int, options: list[str] | None = None) -> None:
    work = tmp_path / f"build{n}"
    work.mkdir()
    source = RUNTIME + "int probe_value() { Box<int> b{42}; return b.get(); }\n"
    assert kernel._build(f"meeple_kernel_probe{n}", "key", source, work, options or quick()).exists()


def objects_made(runs) -> int:
    return sum(1 for c in runs if kernel_prebuilt.SOURCE in " ".join(c))


def linked(runs) -> list[list[str]]:
    """The kernels' commands that linked a copy of the object."""
    return [c for c in runs if any(a.endswith(kernel_prebuilt.OBJECT) for a in c) and "-c" not in c]


def kept(folder):
    return sorted(p for p in folder.iterdir() if p.name.startswith(kernel_prebuilt.PREFIX))


@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
def test_the_object_is_made_once_and_linked_into_every_kernel(tmp_path, cache):
    folder, runs = cache
    build(tmp_path, 1)
    build(tmp_path, 2)
    assert objects_made(runs) == 1
    assert len(linked(runs)) == 2
    obj, digest = kept(folder)
    assert obj.suffix == ".o"
    assert digest.read_bytes() == hashlib.sha256(obj.read_bytes()).hexdigest().encode()


@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
def test_an_optimised_kernel_links_no_object_and_instantiates_what_it_uses(tmp_path, cache):
    """The kernel users play with once the background build is done (-O2): its
    precompiled runtime is the runtime alone (no MK_PREBUILT: no extern template), so the
    vectors' and lists' small members are inlined where they are called, as in a kernel
    built whole (chess perft: 4% fewer instructions); no object is made or linked."""
    folder, runs = cache
    optimised = list(kernel_build.CXX_FLAGS)   # (the default: the tests build at -O0)
    assert not kernel_prebuilt.used(optimised) and kernel_prebuilt.used(quick())
    assert kernel_prebuilt.used(["-O2", "-O0"]) and not kernel_prebuilt.used(["-O0", "-O3"])
    build(tmp_path, 1, optimised)
    build(tmp_path, 2, optimised)
    assert objects_made(runs) == 0 and linked(runs) == [] and kept(folder) == []
    header = (tmp_path / "build2" / kernel_pch.HEADER).read_text(encoding="utf-8")
    assert header == RUNTIME and "MK_PREBUILT" not in kernel_pch.header(optimised).split("\n")[0]
    assert any(p.name.startswith(kernel_pch.PREFIX) and p.suffix == ".gch" for p in folder.iterdir())
    assert any(str(tmp_path / "build2") in " ".join(c) and "-H" in c for c in runs)   # (the header taken)
    build(tmp_path, 3)   # (a quick one, in the same cache: its own header, with the object)
    assert objects_made(runs) == 1 and len(linked(runs)) == 1
    assert kernel_pch.pch_key(["g++"], optimised, "inc") != kernel_pch.pch_key(["g++"], quick(), "inc")


@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
def test_other_options_or_another_compiler_make_another_object(tmp_path, cache, monkeypatch):
    folder, runs = cache
    build(tmp_path, 1, quick())
    build(tmp_path, 2, [*quick(), "-DMK_PROBE_OPTION=1"])
    assert objects_made(runs) == 2
    monkeypatch.setattr(kernel_pch, "compiler_id", lambda cxx: "another compiler 1 2")
    build(tmp_path, 3, quick())
    assert objects_made(runs) == 3
    assert len(kept(folder)) == 4     # (the newest two, as the precompiled headers: kernel_pch.KEEP)


@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
def test_a_damaged_or_foreign_object_is_made_again_not_trusted(tmp_path, cache):
    folder, runs = cache
    build(tmp_path, 1)
    obj, digest = kept(folder)
    good = obj.read_bytes()

    obj.write_bytes(good[: len(good) // 2])          # cut short: its digest differs
    build(tmp_path, 2)
    assert objects_made(runs) == 2
    assert digest.read_bytes() == hashlib.sha256(obj.read_bytes()).hexdigest().encode()
    assert len(obj.read_bytes()) > len(good) // 2
    assert len(linked(runs)) == 2

    foreign = b"not an object file " * 1000           # with a digest that matches
    obj.write_bytes(foreign)
    digest.write_bytes(hashlib.sha256(foreign).hexdigest().encode())
    build(tmp_path, 3)                                 # (the link fails: built without it)
    assert kept(folder) == []                          # removed: made again next time
    build(tmp_path, 4)
    assert objects_made(runs) == 3
    assert len(kept(folder)) == 2


def shared_parts(text: str) -> str:
    """The parts of ``text`` under ``#if MK_SHARED_HERE`` (to their ``#endif``)."""
    out, depth = [], 0
    for line in text.splitlines():
        if depth == 0 and line.strip() == "#if MK_SHARED_HERE":
            depth = 1
            continue
        if depth:
            if line.startswith("#if"):
                depth += 1
            elif line.startswith("#endif"):
                depth -= 1
            if depth:
                out.append(line)
    return "\n".join(out)


def test_the_generators_are_compiled_in_the_object_not_in_each_kernel():
    """Python's Mersenne Twister (the rollouts') and the random bots' seeds (no game's), and the code
    that carries a state's values to and from Python (export() and load(), read from
    the tables of each program), are part of the runtime a kernel starts with
    (precompiled); their functions, the AVX2, AVX-512 and SHA-NI copies and the choice
    between them among them, are defined where the object of instantiations is compiled
    (MK_SHARED_HERE), so a kernel's own part, built for each game, defines none of them
    (it calls them).
    The object is made with the kernel's options: another option (-DMK_NO_AVX2, no AVX2
    copies) is another object."""
    rules = interpreter.load("kalah")
    source = kernel.Gen(rules.for_players(rules.default_players)).source()
    runtime = kernel_pch.runtime()
    assert source.startswith(runtime)
    own, shared = source[len(runtime):], shared_parts(runtime)
    for name in ("bot_generators(", "read_random(", "write_random(", "blake2s_keyed(", "direct_layout(",
                 "blake2s_digest(", "bot_run("):
        defined = [r for r in source.splitlines()
                   if name in r and not r[0].isspace() and not r.startswith("//") and not r.rstrip().endswith(";")]
        assert len(defined) == 1 and defined[0] in shared and defined[0] not in own, (name, defined)
    for head in ("PyObject* value_py(", "void value_from_py(", "void vars_py(", "void vars_from_py(",
                 "void frame_py(", "void local_from_py(", "void pending_py(", "int pending_from_py(", "void load_py(",
                 "int locals_from_py(", "PyObject* export_py(", "Loaded::Loaded(", "Exported::Exported("):
        defined = [r for r in source.splitlines() if r.startswith(head)]
        assert len(defined) == 1 and defined[0] in shared and defined[0] not in own, (head, defined)
    for avx in ('target("avx2")', 'target("avx512f")', "__builtin_cpu_supports", "b2_lanes_avx2(",
                "b2_lanes_avx512(", "B2_SIGMA"):
        assert avx in shared and avx not in own, avx
    assert "bot_generators(" in own and "read_random(" in own and "write_random(" in own
    for name in ("vars_from_py(", "pending_py(", "pending_from_py(", "load_py(", "locals_from_py(",
                 "export_py("):   # (the kernel's export() and load() call them)
        assert name in own, name
    # (and its own part converts no value of its own: its variables, locals and decisions
    # are rows of tables, VARS, FIELDS and SITES)
    assert "py_list(" not in own and "from_py_list<" not in own and "VARS[]" in own and "SITES[]" in own
    cxx = ["g++"]
    assert kernel_pch.pch_key(cxx, ["-O0"], "inc") != kernel_pch.pch_key(cxx, ["-O0", "-DMK_NO_AVX2"], "inc")


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.parametrize("level, in_line", [("-O0", False), ("-Og", True), ("-O2", True)])
def test_calls_are_put_in_line_only_where_the_build_optimises(level, in_line, tmp_path):
    """MK_AI (cxx/kernel_rt.hpp), which the generated code writes for a function or an
    immediate lambda to put in line: always_inline where the build optimises, nothing at
    -O0 (the tests' kernels), where forcing every call in line made a kernel's code a
    third bigger and its build a fifth to a third slower."""
    import subprocess
    import sysconfig

    from meeple.interpreter.native import kernel_types
    header = tmp_path / "rt.hpp"
    header.write_text(kernel_types.runtime_cxx() + "\nMK_AI_IS: MK_AI\n", encoding="utf-8")
    out = subprocess.run([*kernel_build.compiler(), "-std=c++17", "-E", "-P", level, "-x", "c++",
                          f"-I{sysconfig.get_paths()['include']}", str(header)],
                         capture_output=True, text=True, check=True).stdout
    said = next(line for line in out.splitlines() if line.startswith("MK_AI_IS:"))
    assert ("always_inline" in said) == in_line, said
    # (the generated code writes MK_AI, never the attribute itself)
    source = kernel.Gen(interpreter.load(Path(__file__).parent / "testdata" / "othello").for_players(2)).source()
    runtime = kernel_types.runtime_cxx()
    assert source.startswith(runtime)
    assert "MK_AI" in source[len(runtime):] and "always_inline" not in source[len(runtime):]
