"""A kernel's text (``Str``, interpreter/native/cxx/kernel_rt.hpp): its bytes kept inside
the object up to 23 of them (the bytes after them 0), on the heap beyond; made, copied,
moved, assigned over a text of every size, joined, compared and ordered as the bytes of
the text (a byte 0 and bytes above 0x7f like any other), its first 8 bytes its key.
Checked by a C++ program built with the runtime, under AddressSanitizer and
UndefinedBehaviorSanitizer where the compiler has them, and by a game whose options are
texts on both sides of those sizes, played by its kernel as Python plays it."""
from __future__ import annotations

import subprocess
import sysconfig

from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python, kernel_plays_as_python, program_of
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kernel_types import read_cxx

CHECKS = r"""
#include <cstdio>
#include <string>
using mk::Str;
static int fails = 0;
#define CHECK(c) do { if (!(c)) { std::printf("failed: %s (line %d)\n", #c, __LINE__); ++fails; } } while (0)
static Str of(const char* s) { return Str(s, std::strlen(s)); }
int main() {
    const char* sizes[] = {"", "a", "e2-e4", "e7-e8=Q", "exactly fifteen", "exactly sixteen!",
                           "twenty-three bytes long", "twenty-four bytes, longer",
                           "a text longer than the bytes kept inside"};
    for (const char* a : sizes) {
        Str x = of(a), y = x, z;
        CHECK(x.size() == std::strlen(a) && std::memcmp(x.data(), a, x.size()) == 0 && x.c_str()[x.size()] == 0);
        CHECK(x == y && !(x != y) && x.compare(y) == 0);
        z = y;                      // (copied over an empty text)
        Str m = std::move(y);       // (moved: the one moved from is empty)
        CHECK(m == x && z == x && y.size() == 0 && y == Str());
        for (const char* b : sizes) {   // (assigned over a text of every size, both ways)
            Str u = of(b), v = of(b);
            u = x;
            v = Str(x);
            CHECK(u == x && v == x);
            int c = std::strcmp(a, b), d = of(a).compare(of(b));
            CHECK((c < 0) == (d < 0) && (c > 0) == (d > 0));
            CHECK((of(a) < of(b)) == (c < 0) && (of(a) == of(b)) == (c == 0) && (of(a) <= of(b)) == (c <= 0));
            Str j = of(a);
            j.append(of(b));
            std::string w = std::string(a) + b;
            CHECK(j.size() == w.size() && std::memcmp(j.data(), w.data(), w.size()) == 0 && j.c_str()[j.size()] == 0);
            CHECK(j == Str(w.data(), w.size()));
        }
        Str& self = x;
        x = self;
        CHECK(x == of(a));
        char buf[64 + 24];
        size_t k = x.put(buf);
        CHECK(k == x.size() && std::memcmp(buf, a, k) == 0);
        CHECK(Str::of_buffer(buf, k) == x);
        for (const char* b : sizes) {   // (texts put one after the other over old bytes, as
            char dirty[64 + 24];        // scatn puts them: a short one's 0s after it are its)
            std::memset(dirty, 0xa5, sizeof dirty);
            size_t n = x.put(dirty);
            n += of(b).put(dirty + n);
            std::string w = std::string(a) + b;
            CHECK(n == w.size() && Str::of_buffer(dirty, n) == Str(w.data(), w.size()));
        }
    }
    Str nul("ab\0", 3), ab("ab", 2), hi("\xc3\xbc", 2);
    CHECK(!(nul == ab) && ab < nul && ab < hi && !(hi < ab) && nul.size() == 3);
    CHECK(of("abcdefgh").key() == 0x6162636465666768ULL && of("abcdefghij").key() == of("abcdefgh").key());
    CHECK(of("ab").key() == 0x6162000000000000ULL && Str().key() == 0);
    CHECK(of("a text longer than the bytes kept inside").key() == of("a text l").key());
    CHECK(mk::is_none_s(mk::NONE_S) && !mk::is_none_s(of("x")) && mk::chars(hi) == 1);
    std::printf("checked, %d failed\n", fails);
    return fails != 0;
}
"""


def build(tmp_path, sanitize: bool):
    src = tmp_path / "str.cpp"
    src.write_text(read_cxx("kernel_rt.hpp") + "\n" + CHECKS, encoding="utf-8")
    flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"] if sanitize else []
    return subprocess.run([*kernel.compiler(), "-std=c++17", "-O1", *flags, f"-I{sysconfig.get_paths()['include']}",
                           str(src), "-o", str(tmp_path / "str")], capture_output=True, text=True, timeout=600,
                          check=False)


@needs_kernel
def test_a_text_is_its_bytes_however_long_copied_moved_joined_and_compared(tmp_path):
    done = build(tmp_path, sanitize=True)
    if done.returncode != 0 and "sanitize" in done.stderr:   # (a compiler without the sanitizers)
        done = build(tmp_path, sanitize=False)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = subprocess.run([str(tmp_path / "str")], capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode == 0 and "checked, 0 failed" in ran.stdout, ran.stdout + ran.stderr[-3000:]


# texts on both sides of 15 bytes (std::string's inside) and of 23 (Str's), equal ones
# among them, as a decision's options (ordered, each once), found again by ==, joined
# into a text that grows past 64 bytes and compared by ==
RULES = """ruleset lengths
players 2..2
kind Mark { seat: int }
board b: grid(rows: 2, cols: 5) holds Mark
zone supply: Mark
deck marks into supply { 5 of Mark(seat: s) for s in 1..2 }
var said: str = ""
function pad(k: int): str =
  if k == 1 then "" elif k == 2 then "fourteen bytes" elif k == 3 then "fifteen   bytes"
  elif k == 4 then "twenty-two bytes, this" else "twenty-three bytes, thi"
function name(c: b): str =
  if c.col == 5 and c.row == 2 then pad(4) + "!" else pad(c.col) + (if c.row == 1 then "" else "!")
turn {
  let names = [name(c) for c in cells(b) if empty(c)]
  let cs = [c for c in cells(b) if empty(c)]
  choose n from names as "mark"
  let i = first(j for j in 0..(size(names) - 1) if names[j] == n)
  move first(m for m in items(supply) if m.seat == seat(active)) to cs[i]
  said = said + n + (if said == n then "=" else ":")
}
end when size(supply) == 0
score(p) = count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p) and c.row == 1)
  + (if said == "" then 1 else 0)
"""


def compiled(native: bool):
    return program_of(RULES, "lengths.meeple", native)


@needs_kernel
def test_texts_of_every_length_play_in_a_kernel_as_in_python():
    fast, python = compiled(True), compiled(False)
    assert fast.kernel
    assert kernel_plays_as_python(fast, python, 6) > 30
    kernel_playouts_as_python(fast, python, 12, seed=5)
