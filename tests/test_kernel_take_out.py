"""Cells taken out of a kept list (``take_out``, interpreter/native/cxx/kernel_walks.hpp:
go's liberties that lose points, kernel_components.py): the others kept in their order;
in place where nothing else holds the list's header (its hash made again from its
elements), else in a list of its own, the shared one untouched; a list left with at
most two cells in its handle, as every list of so few is. Checked by a C++ program
built with the runtime, under AddressSanitizer and UndefinedBehaviorSanitizer where the
compiler has them."""
from __future__ import annotations

import subprocess
import sysconfig

from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from meeple.interpreter.native import kernel
from meeple.interpreter.native.kernel_types import read_cxx

CHECKS = r"""
#include <cstdio>
using namespace mk;
static int fails = 0;
#define CHECK(c) do { if (!(c)) { std::printf("failed: %s (line %d, %d cells, out %d)\n", #c, __LINE__, (int)k, (int)m); ++fails; } } while (0)
static bool holds(const List<Id>& l, const std::vector<Id>& x) {
    if (l.size() != x.size() || l.in_handle() != (x.size() > 0 && x.size() <= List<Id>::HANDLE)) return false;
    for (size_t i = 0; i < x.size(); ++i)
        if (l[i] != x[i]) return false;
    return true;
}
int main() {
    for (size_t k = 0; k <= 12; ++k) {
        for (size_t m = 0; m < 8; ++m) {   // (the cells out: those whose number's bits m has, mod 3)
            std::vector<Id> all, rest;
            for (size_t i = 0; i < k; ++i) {
                Id c = (Id)(10 + 7 * i);
                all.push_back(c);
                if (!((m >> (i % 3)) & 1)) rest.push_back(c);
            }
            auto out = [&](Id c) { return (bool)((m >> (((size_t)c - 10) / 7 % 3)) & 1); };
            // its own: in place (or into its handle)
            List<Id> own = List<Id>::of_n(all.data(), all.size());
            (void)own.hash();
            const Id* before = own.has_rep() ? own.begin() : nullptr;
            take_out(own, out);
            CHECK(holds(own, rest));
            CHECK(own.hash() == List<Id>::of_n(rest.data(), rest.size()).hash());
            if (before && rest.size() > List<Id>::HANDLE) CHECK(own.begin() == before);
            // made from a vector (a header with a buffer), shared: a list of its own
            List<Id> made{Vec<Id>(all.begin(), all.end())};
            List<Id> other = made;
            (void)made.hash();
            take_out(made, out);
            CHECK(holds(made, rest));
            CHECK(holds(other, all));
            CHECK(made.hash() == List<Id>::of_n(rest.data(), rest.size()).hash());
            CHECK(other.hash() == List<Id>::of_n(all.data(), all.size()).hash());
            // grown in place after cells were taken out: the cells appended after the rest
            List<Id> grown{Vec<Id>(all.begin(), all.end())};
            take_out(grown, out);
            List<Id> more = List<Id>::of({1, 2, 3});
            CHECK(grown.append(more));
            std::vector<Id> after = rest;
            after.push_back(1); after.push_back(2); after.push_back(3);
            CHECK(holds(grown, after));
        }
    }
    std::printf("checked, %d failed\n", fails);
    return fails != 0;
}
"""


def build(tmp_path, sanitize: bool):
    src = tmp_path / "take_out.cpp"
    src.write_text(read_cxx("kernel_rt.hpp") + "\n" + read_cxx("kernel_walks.hpp") + "\n" + CHECKS, encoding="utf-8")
    flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"] if sanitize else []
    return subprocess.run([*kernel.compiler(), "-std=c++17", "-O1", *flags, f"-I{sysconfig.get_paths()['include']}",
                           str(src), "-o", str(tmp_path / "take_out")], capture_output=True, text=True, timeout=600,
                          check=False)


@needs_kernel
def test_cells_taken_out_of_a_kept_list_leave_the_others_in_order_in_place_or_copied(tmp_path):
    done = build(tmp_path, sanitize=True)
    if done.returncode != 0 and "sanitize" in done.stderr:   # (a compiler without the sanitizers)
        done = build(tmp_path, sanitize=False)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = subprocess.run([str(tmp_path / "take_out")], capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0 and "checked, 0 failed" in ran.stdout, ran.stdout[-3000:] + ran.stderr[-3000:]
