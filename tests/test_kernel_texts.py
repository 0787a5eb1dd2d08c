"""Ruleset text never changes the meaning of the C++ a kernel becomes
(interpreter/native/kernel.py, interpreter/native/cxx_text.py): a text is a literal of exactly its
bytes, a name an identifier no keyword, macro or name of the kernel can be, and
rulesets whose every name and text is hostile (tests/hostile.py: keywords, macros,
placeholders, every character) build a kernel that plays as Python does, under
AddressSanitizer too (marker ``asan``: one build)."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import hostile
import pytest
from hypothesis import given, settings, strategies as st
from kernel_support import MISSING, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_difference
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.native import cxx_text, cython_code as native, kernel

ROOT = Path(__file__).resolve().parent.parent
# the cases reported (issue 34): a function named OK (F_OK, a macro of <unistd.h>), a
# cell and an enum value whose names hold NAME (a placeholder of the generator)
PINNED = {"weigh": "OK", "c1": "NAME", "ev0": "MY_NAME"}
# more rulesets (each one build): MEEPLE_FUZZ_KERNEL_TEXTS=20 pytest tests/test_kernel_texts.py
SEEDS = [0] + list(range(2, 1 + int(os.environ.get("MEEPLE_FUZZ_KERNEL_TEXTS", "1"))))
FORM = re.compile(r"\bu[A-Z]+[0-9]*_\w*")   # what a ruleset's name becomes, and nothing else


# ---------------------------------------------------------------- texts and names

def read_literal(code: str) -> bytes:
    """The bytes of a ``Str("...", n)`` as C++ reads it, checking it holds nothing but
    letters, digits, spaces and octal escapes of three digits, and ``n`` of them."""
    m = re.fullmatch(r'Str\("((?:[A-Za-z0-9 ]|\\[0-7]{3})*)", ([0-9]+)\)', code)
    assert m, code
    out = bytes(int(x[1:], 8) if x.startswith("\\") else ord(x)
                for x in re.findall(r"\\[0-7]{3}|.", m[1], re.DOTALL))
    assert len(out) == int(m[2])
    return out


def read_ident(code: str) -> tuple[str, str]:
    """The tag and the name an identifier stands for (undoing cxx_text.ident)."""
    m = re.fullmatch(r"u([A-Z]+[0-9]*)_((?:[A-Ya-z0-9_]|Z[0-9a-f]+Z)*)", code)
    assert m, code
    return m[1], "".join(chr(int(x[1:-1], 16)) if x.startswith("Z") else x
                         for x in re.findall(r"Z[0-9a-f]+Z|.", m[2]))


def test_a_literal_holds_exactly_the_bytes_of_its_text():
    for text in [*hostile.TEXTS, *map(chr, range(256)), "\U0010ffff", "NAME" * 1000]:
        assert read_literal(cxx_text.literal(text)) == text.encode("utf-8"), repr(text)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=["Cs"])))
def test_a_literal_of_any_text_is_exactly_that_text(text):
    assert read_literal(cxx_text.literal(text)) == text.encode("utf-8")


TAGS = ["F", "K", "G", "P", "I", "A", "Q", "L0", "L12", "V1", "V123", "R3"]


def _check_idents(names) -> None:
    seen = {}
    for tag in TAGS:
        for name in names:
            code = cxx_text.ident(tag, name)
            assert re.fullmatch(r"[A-Za-z0-9_]+", code) and "__" not in code and FORM.fullmatch(code), code
            assert read_ident(code) == (tag, name)
            assert seen.setdefault(code, (tag, name)) == (tag, name)


def test_names_become_identifiers_that_say_which_name_in_which_role():
    _check_idents([*hostile.NAMES, "$it3", "$r12", "$i0", "H_it3", "Z", "ZZ", "Z5aZ", "a_", "_a", "a__b", ""])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=["Cs"])), max_size=6))
def test_any_names_become_distinct_identifiers(names):
    _check_idents(names)


def _preprocessed_macros() -> set[str]:
    cxx = kernel.compiler()
    header = Path(kernel.__file__).parent / "cxx" / "kernel_rt.hpp"
    done = subprocess.run([*cxx, "-std=c++17", "-x", "c++", "-dM", "-E", f"-I{sysconfig.get_paths()['include']}",
                           str(header)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return {line.split()[1].split("(")[0] for line in done.stdout.splitlines() if line.startswith("#define ")}


# the keywords of C++17 and the alternative tokens
KEYWORDS = ["alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
            "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr", "const_cast",
            "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
            "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int",
            "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
            "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "return", "short",
            "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
            "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
            "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"]


@pytest.mark.kernels
@needs_kernel
def test_no_macro_keyword_or_name_of_the_kernel_has_the_form_of_a_ruleset_s_name():
    macros = _preprocessed_macros()
    assert {"F_OK", "EOF", "NULL", "errno", "assert", "Py_None"} <= macros   # (what the headers define)
    assert not [m for m in macros | set(KEYWORDS) if FORM.fullmatch(m)]
    for hpp in (Path(kernel.__file__).parent / "cxx").glob("*.hpp"):
        assert not FORM.findall(hpp.read_text(encoding="utf-8")), hpp
    # every identifier of that form in a kernel's C++ is one of its ruleset's names (or
    # a hidden local's, '$it3', or a temporary's, 'V12' 'xs', and the pointer into a
    # temporary list, 'out_p', the rows and masks of the cells by their top item,
    # 'tw_r' 'tw_m' 'tw_i', kernel_tops.py): no other code uses the form
    prog = hostile_rules(0).for_players(2)
    source = kernel.Gen(prog).source()
    declared = set(hostile.NAMES)
    for code in set(FORM.findall(source)):
        tag, name = read_ident(code)
        assert name in declared or re.fullmatch(r"\$[a-z]+[0-9]+", name) or \
            (tag.startswith("V") and name in ("lo", "hi", "xs", "out", "out_p", "n", "sum", "m", "tw_r", "tw_m",
                                          "tw_i")), code
    assert cxx_text.ident("F", "OK") + "(s, " in source     # (the function OK, called)


# ---------------------------------------------------------------- hostile rulesets

def hostile_rules(seed: int):
    text = hostile.ruleset(seed, PINNED if seed == 0 else None)
    src = SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})
    assert not src.diagnostics
    return compile_sources(src)


def lockstep(fast, plain, seed: int) -> int:
    """One random game by the kernel and by Python, compared at every move: the states
    (every variable, local and text), the moves offered and the result. Its moves."""
    a, b = fast.new_game(2, seed), plain.new_game(2, seed)
    rnd = random.Random(seed)
    moves = 0
    while not b.over:
        assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
        seat = rnd.choice(b.deciding)
        legal = [m.notation for m in b.legal_moves(seat)]
        assert [m.notation for m in a.legal_moves(seat)] == legal, (seed, moves)
        i = rnd.randrange(len(legal))
        a.apply(i, safe=False, seat=seat)
        b.apply(i, safe=False, seat=seat)
        moves += 1
    assert a.over and a.result == b.result and json.dumps(a.state) == json.dumps(b.state)
    return moves


@pytest.mark.kernels
@needs_kernel
@pytest.mark.parametrize("seed", SEEDS)
def test_hostile_names_and_texts_play_the_same_in_their_kernel_and_in_python(seed):
    rules = hostile_rules(seed)
    said = []
    rules.use_native(report=said.append)
    fast = rules.for_players(2)
    assert fast.kernel, f"no kernel was built: {said}"
    plain = hostile_rules(seed).for_players(2)
    moves = sum(lockstep(fast, plain, game) for game in range(4))
    assert moves > 20 and fast.native_fallbacks == 0


# ---------------------------------------------------------------- a failed build is said

TINY = """ruleset tiny_{}
players 2..2
var n: int = 0
turn {{
  choose k from [1, 2] as "pick"
  n = n + k
}}
end when n > 6
"""


def tiny(name: str):
    text = TINY.format(name)
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


@pytest.mark.kernels
@needs_kernel
def test_code_meeple_wrote_that_does_not_compile_is_reported_as_a_bug(monkeypatch):
    monkeypatch.setattr(native, "status", lambda: "no Cython in this test")   # (no other build)
    monkeypatch.setattr(kernel.Gen, "source", lambda self: "static int broken = ;\n")
    rules, said = tiny("broken"), []
    rules.use_native(report=said.append)
    assert not rules.for_players(2).kernel
    failed = [s for s in said if s.startswith("no kernel for tiny_broken: the build failed")]
    assert failed and "a bug in Meeple, please report it with the ruleset" in failed[0], said
    assert "broken" in failed[0]   # (the compiler's first error)
    # a compiler that cannot run as told is no bug of Meeple's: said as it is
    monkeypatch.setenv("MEEPLE_KERNEL_CXXFLAGS", "--no-such-option")
    rules, said = tiny("flags"), []
    rules.use_native(report=said.append)
    assert not rules.for_players(2).kernel
    failed = [s for s in said if s.startswith("no kernel for tiny_flags: the build failed")]
    assert failed and "--no-such-option" in failed[0] and "bug" not in failed[0], said


# ---------------------------------------------------------------- under AddressSanitizer

def asan_runtime() -> str | None:
    """The AddressSanitizer runtime of the C++ compiler (to preload into Python), or
    None where there is none."""
    cxx = kernel.compiler()
    if MISSING is not None or cxx is None or not sys.platform.startswith("linux"):
        return None
    for lib in ("libasan.so", "libclang_rt.asan-x86_64.so", "libclang_rt.asan-aarch64.so"):
        try:
            done = subprocess.run([*cxx, f"-print-file-name={lib}"], capture_output=True, text=True, timeout=60,
                                  check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        path = done.stdout.strip()
        if done.returncode == 0 and os.path.isabs(path) and os.path.exists(path):
            return path
    return None


ASAN = asan_runtime()
PLAY = """
import sys
sys.path.insert(0, "tests")
from test_kernel_texts import hostile_rules, lockstep
rules = hostile_rules(1)
said = []
rules.use_native(report=said.append)
fast = rules.for_players(2)
assert fast.kernel, said
plain = hostile_rules(1).for_players(2)
print("moves", sum(lockstep(fast, plain, game) for game in range(3)), fast.native_fallbacks)
"""


@pytest.mark.kernels
@pytest.mark.asan
@pytest.mark.skipif(ASAN is None, reason=f"no AddressSanitizer runtime for {kernel.compiler()} here"
                    if MISSING is None else f"no kernel can be built here: {MISSING}")
def test_a_hostile_kernel_reads_and_writes_only_its_own_memory(tmp_path):
    env = {**os.environ, "LD_PRELOAD": ASAN, "ASAN_OPTIONS": "detect_leaks=0:halt_on_error=1",
           "MEEPLE_KERNEL_CXXFLAGS": "-O0 -fsanitize=address -fno-omit-frame-pointer",
           "MEEPLE_CACHE_DIR": str(tmp_path)}
    env.pop("MEEPLE_KERNEL", None)
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert "AddressSanitizer" not in done.stderr, done.stderr[-6000:]
    assert done.returncode == 0, done.stderr[-3000:]
    moves, fallbacks = done.stdout.split()[-2:]
    assert int(moves) > 15 and fallbacks == "0", done.stdout
