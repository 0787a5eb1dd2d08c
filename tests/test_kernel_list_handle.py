"""A kernel's short lists kept in their handles (``List``, interpreter/native/cxx/
kernel_rt.hpp): a list of at most 8 bytes of numbers, ids or bools (a move of two cells)
holds its elements in its handle (12 bytes for ids and bools, 16 for 8-byte numbers),
with no header of its own; longer lists in a header (lists of lists: a pointer).
Made from elements, from a vector, as a prefix, grown in place past the handle (and
within it), copied, moved and assigned over lists of every size, they hold their
elements, are equal, ordered and hashed as the same elements in a header are, and are
the same (a memo's arguments) where their elements are. Checked by a C++ program built
with the runtime, under AddressSanitizer and UndefinedBehaviorSanitizer where the
compiler has them, and by games whose options are short lists (of one to three cells,
of one int and of bools), and whose memoised functions take and give them, played by
their kernels as Python plays them."""
from __future__ import annotations

import re
import subprocess
import sysconfig

from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python, kernel_plays_as_python, program_of
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kernel_types import read_cxx

CHECKS = r"""
#include <cstdio>
using namespace mk;
static int fails = 0;
#define CHECK(c) do { if (!(c)) { std::printf("failed: %s (line %d, %d elements)\n", #c, __LINE__, (int)k); ++fails; } } while (0)
template <class T>
static bool holds(const List<T>& l, const std::vector<T>& x) {
    if (l.size() != x.size() || l.empty() != x.empty()) return false;
    for (size_t i = 0; i < x.size(); ++i)
        if (!(l[i] == x[i]) || !(l.begin()[i] == x[i])) return false;
    return l.end() - l.begin() == (long)x.size();
}
template <class T>
static std::vector<T> elements(size_t k, int from) {
    std::vector<T> x;
    for (size_t i = 0; i < k; ++i) x.push_back((T)((from + 3 * (int)i) % 7 == 0 ? 0 : from + (int)i));
    return x;
}
template <class T>
static void check(size_t most) {
    for (size_t k = 0; k <= 10; ++k) {
        std::vector<T> x = elements<T>(k, 1);
        List<T> a = List<T>::of_n(x.data(), k);
        Vec<T> v(x.begin(), x.end());
        List<T> b(std::move(v));
        CHECK(holds(a, x) && holds(b, x) && eq(a, b) && cmp(a, b) == 0 && a.hash() == b.hash());
        CHECK(a.in_handle() == (k > 0 && k <= most) && b.in_handle() == a.in_handle());
        CHECK(!a.is_none() && a.same(b) == (k <= most) && a.shares(b) == (k == 0));
        CHECK(!a.same(List<T>::none()) && !eq(a, List<T>::none()) && cmp(List<T>::none(), a) < 0);
        if (a.same(b)) CHECK(a.ident() == b.ident());
        // the same elements in a header (a longer list's prefix... of a list of its own)
        std::vector<T> y = x;
        y.push_back((T)5);
        y.push_back((T)6);
        y.push_back((T)2);
        List<T> longer = List<T>::of_n(y.data(), y.size());
        List<T> p = longer.prefix(k);
        CHECK(holds(p, x) && eq(p, a) && p.hash() == a.hash() && cmp(p, a) == 0);
        CHECK(holds(longer.prefix(y.size()), y) && longer.prefix(y.size()).shares(longer));
        for (size_t j = 0; j <= 10; ++j) {   // (copied, moved and assigned over every size)
            std::vector<T> z = elements<T>(j, 2);
            List<T> u = List<T>::of_n(z.data(), j), c = u, m;
            CHECK(holds(c, z) && eq(c, u) && c.same(u));
            int order = (k != j) ? (k < j ? -1 : 1) : (x < z ? -1 : x > z);
            CHECK(cmp(a, u) == order && eq(a, u) == (order == 0) && (order != 0 || a.hash() == u.hash()));
            u = a;
            m = std::move(c);
            CHECK(holds(u, x) && holds(m, z) && c.empty() && c.size() == 0 && holds(a, x));
            List<T> g = m;   // (grown in place where it is its own: else appended to a copy)
            bool own = g.append(a);
            std::vector<T> w = z;
            w.insert(w.end(), x.begin(), x.end());
            CHECK(holds(m, z));
            if (own) CHECK(holds(g, w) && g.hash() == List<T>::of_n(w.data(), w.size()).hash());
            else CHECK(holds(cat(m, a), w));
            List<T> h = List<T>::of_n(z.data(), j);
            CHECK(h.append(a) && holds(h, w) && eq(h, List<T>::of_n(w.data(), w.size())));
            List<T> d = List<T>::of_n(w.data(), w.size());   // (its own: appended to itself)
            CHECK(d.append(d) && d.size() == 2 * w.size() && (w.empty() || d[w.size()] == w[0]));
        }
        List<T>& self = a;
        a = self;
        CHECK(holds(a, x));
    }
}
int main() {
    size_t k = 0;
    static_assert(sizeof(List<Id>) == 12 && alignof(List<Id>) == 4 && sizeof(List<bool>) == 12, "12 bytes");
    static_assert(sizeof(List<I>) == 16 && sizeof(List<List<Id>>) == 8 && sizeof(List<Str>) == 8, "16, 8");
    check<Id>(2);
    check<I>(1);
    List<bool> bs;
    for (k = 0; k <= 10; ++k) {
        std::vector<bool> x;
        for (size_t i = 0; i < k; ++i) x.push_back(i % 3 == 1);
        Vec<bool> v(x.begin(), x.end());
        List<bool> b(std::move(v));
        CHECK(b.size() == k && b.in_handle() == (k > 0 && k <= 8));
        for (size_t i = 0; i < k; ++i) CHECK(b[i] == x[i]);
        CHECK(eq(ordered(b), ordered(List<bool>(Vec<bool>(x.begin(), x.end())))));
    }
    // options of two cells in their order: the list itself, shared; out of it, sorted
    Vec<List<Id>> opts;
    for (Id c = 3; c >= 0; --c) opts.push_back(List<Id>::of({c, (Id)(c + 1)}));
    opts.push_back(List<Id>::of({2}));
    List<List<Id>> o = ordered(List<List<Id>>(std::move(opts)));
    k = o.size();
    CHECK(k == 5 && o[0].size() == 1 && o[1][0] == 0 && o[4][0] == 3 && ascending(o) && ordered(o).shares(o));
    CHECK(contains(o, List<Id>::of({1, 2})) && !contains(o, List<Id>::of({1, 3})) && count_eq(o, o[2]) == 1);
    std::printf("checked, %d failed\n", fails);
    return fails != 0;
}
"""


def build(tmp_path, sanitize: bool):
    src = tmp_path / "lists.cpp"
    src.write_text(read_cxx("kernel_rt.hpp") + "\n" + CHECKS, encoding="utf-8")
    flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"] if sanitize else []
    return subprocess.run([*kernel.compiler(), "-std=c++17", "-O1", *flags, f"-I{sysconfig.get_paths()['include']}",
                           str(src), "-o", str(tmp_path / "lists")], capture_output=True, text=True, timeout=600,
                          check=False)


@needs_kernel
def test_a_short_list_is_kept_in_its_handle_and_behaves_as_the_same_list_in_a_header(tmp_path):
    done = build(tmp_path, sanitize=True)
    if done.returncode != 0 and "sanitize" in done.stderr:   # (a compiler without the sanitizers)
        done = build(tmp_path, sanitize=False)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = subprocess.run([str(tmp_path / "lists")], capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0 and "checked, 0 failed" in ran.stdout, ran.stdout[-3000:] + ran.stderr[-3000:]


# options of one, two and three cells (in the handle, in it, in a header), of one int and
# of eight and nine bools, each kept as a variable across decisions, compared, joined
# and found again; a function kept per position (steps, called twice a turn with the
# same list) takes a short list and gives lists of them; a loop over a list of constants
# (near's) reads the list made once in place
RULES = """ruleset handles
players 2..2
kind Stone { seat: int }
board b: grid(rows: 4, cols: 4) holds Stone
zone pool: Stone
deck stones into pool { 8 of Stone(seat: s) for s in 1..2 }
var last: list of b = []
var path: list of b = []
var nums: list of int = []
var bits: list of bool = []
var seen: list of list of b = []
function near(c: b): list of b =
  [t for d in [0, 1] for t in [cell(b, row: c.row + 1 - d, col: c.col + d)] if t != none]
function steps(cs: list of b): list of list of b =
  [[c] + [t] for c in cs for t in near(c) if empty(t)] + [[c] for c in cs if empty(c)]
function free(): list of b = [c for c in cells(b) if empty(c)]
turn {
  let here = if size(free()) > 3 then [free()[0], free()[1]] else free()
  let options = steps(here) + [[c, c, c] for c in here] + steps(here)
  choose m from options as "go"
  last = m
  seen = seen + [m]
  path = if size(path) > 5 then [m[0]] else path + m
  nums = [size(seen) % 3]
  choose n from [[k] for k in 0..2] as "count"
  nums = nums + n
  choose bs from [[k % 2 == 0, k > 1, true, false, k == 0, k == 1, k == 2, true] + (if k > 2 then [false] else [])
                  for k in 0..3] as "bits"
  bits = bs
  if m in seen and size(bits) == 9 { nums = nums + [1] }
  move first(s for s in items(pool) if s.seat == seat(active)) to m[size(m) - 1]
}
end when empty(pool) or size(free()) < 2
score(p) = count(c for c in cells(b) if occupied(c) and top(c).seat == seat(p)) + size(path)
"""


def compiled(native: bool):
    return program_of(RULES, "handles.meeple", native)


@needs_kernel
def test_games_of_short_lists_play_in_a_kernel_as_in_python():
    fast, python = compiled(True), compiled(False)
    assert fast.kernel
    source = kernel.Gen(python).source()
    assert "List<Id>::of({" in source and re.search(r"const List<I>& \w+ = T\d+;", source)
    assert kernel_plays_as_python(fast, python, 6) > 60
    assert fast.native_fallbacks == 0
    kernel_playouts_as_python(fast, python, 12, seed=5)
