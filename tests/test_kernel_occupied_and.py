"""``occupied(c) and top(c).seat == s`` in a kernel with no branch on the cell
(interpreter/native/kernel_early.py, ``occupied_and``): the test and the read of the top
item's attributes made together (of item 0 where the cell is empty, the value dropped),
where the right side compares names, numbers, seats and the top's attributes; the same
values as Python's, which reads the right side only where the cell is occupied."""
from __future__ import annotations

import pytest
from kernel_support import function_text, kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_playouts_as_python, kernel_plays_as_python, play_both, program_of
from meeple.interpreter.native import kernel

pytestmark = pytest.mark.kernels

RULES = """ruleset occupied_and
players 2..2
kind Disc { seat: int, big: bool }
board b: grid(rows: 3, cols: 3) holds Disc
zone box: Disc
zone spare: Disc
deck discs into box { Disc(seat: s, big: i > 2) for s in 1..2 for i in 1..5 }
var marks: int = 0
var nobody: player = none
function mine(c: b, p: player): bool = occupied(c) and top(c).seat == seat(p)
function theirs(c: b, s: int): bool = occupied(c) and top(c).seat != s and top(c).big == true
function stacked(c: b): bool = occupied(c) and size(c) > 1
function corner(s: int): bool = occupied(cell(b, row: 1, col: 1)) and top(cell(b, row: 1, col: 1)).seat == s
function spare_of(p: player): bool = occupied(spare) and top(spare).seat == seat(p)
turn {
  choose x from [c for c in cells(b) if empty(c)] as "drop"
  move first(d for d in items(box) if d.seat == seat(active)) to x
  marks = count(c for c in cells(b) if mine(c, active)) + 10 * count(c for c in cells(b) if theirs(c, 1))
        + (if corner(2) then 100 else 0) + (if stacked(x) then 1000 else 0)
        + (if spare_of(nobody) then 10000 else 0)
}
end when count(c for c in cells(b) if empty(c)) == 0
score(p) = count(c for c in cells(b) if mine(c, p)) + (if corner(seat(p)) then 5 else 0)
"""


def test_function_text_is_the_line_defining_a_rule_function_however_the_kernel_types_it():
    """(kernel_support.function_text, the one helper the kernel tests share)"""
    lines = ["static I uF_mine(St& s, Id uA_c);", "static I uF_mine2(St& s, Id uA_c) { return 2; }",
             "static I uF_mine(St& s, Id uA_c) { return 1; }", "static inline bool uF_corner(St& s, I uA_x) { return x; }",
             "static List<I> uF_filled(St& s) { return {}; }",
             "static inline MK_AI List<Id> uF_line(St& s, Id uA_c) { return {c}; }"]
    source = "\n".join(lines)
    assert [function_text(source, n) for n in ("mine", "corner", "filled", "line")] == lines[2:]
    with pytest.raises(StopIteration):
        function_text(source, "min")


def test_a_cell_tested_and_its_top_compared_take_no_branch(monkeypatch):
    # (mine's counts are the bits of the index by the top's seat, kernel_tops.py: off here)
    from meeple.interpreter.core.facts import Facts
    monkeypatch.setattr(Facts, "top_value", lambda *a: None)
    monkeypatch.setattr(Facts, "cell_test", lambda *a: None)
    source = kernel.Gen(program_of(RULES, "occupied_and.meeple", False)).source()
    for name in ("mine", "theirs", "spare_of"):
        text = function_text(source, name)
        assert "s.z.top_any(" in text and "&&" not in text and " & " in text, name
    # (a right side that calls size(c), and a cell that is no name: as written, branching)
    for name in ("stacked", "corner"):
        text = function_text(source, name)
        assert "top_any" not in text and "&&" in text, name


SPARE = "\n        + (if spare_of(nobody) then 10000 else 0)"


@needs_kernel
def test_such_games_are_python_s_move_by_move_and_in_a_batch():
    rules = RULES.replace(SPARE, "")
    fast, plain = (program_of(rules, "occupied_and.meeple", native) for native in (True, False))
    marks = set()
    kernel_plays_as_python(fast, plain, 10, each=lambda game, i: marks.add(game.state["vars"]["marks"]))
    assert len(marks) > 10 and fast.native_fallbacks == 0
    kernel_playouts_as_python(fast, plain, 40, seed=5)


@needs_kernel
def test_a_seat_of_none_python_never_reads_leaves_the_move_to_python():
    # (spare_of(nobody): Python never reads the seat of none, as spare is empty; the
    # kernel does, and leaves those moves to Python, which gives the same states)
    fast, plain = (program_of(RULES, "occupied_and.meeple", native) for native in (True, False))
    assert SPARE in RULES
    for seed in range(3):
        assert play_both(fast, plain, 2, seed, 20) == 9
    assert fast.native_fallbacks > 0


def test_only_the_right_side_s_tops_read_item_0_and_only_comparisons_join(monkeypatch):
    # (top(c) read where the cell may be empty, beside the joined test: as written, none
    # there; a right side that is no comparison, a bool attribute: as written, branching.
    # The joined test's bit in the index by the top's seat, kernel_tops.py: off here)
    from meeple.interpreter.core.facts import Facts
    monkeypatch.setattr(Facts, "top_value", lambda *a: None)
    monkeypatch.setattr(Facts, "cell_test", lambda *a: None)
    rules = RULES.replace("function spare_of", "function bare(c: b, s: int): bool = "
                          "(occupied(c) and top(c).seat == s) or top(c) == none\n"
                          "function big(c: b): bool = occupied(c) and top(c).big\nfunction spare_of")
    rules = rules.replace("(if stacked(x) then 1000 else 0)",
                          "(if stacked(x) then 1000 else 0) + (if bare(x, 1) then 3 else 0) + (if big(x) then 7 else 0)")
    source = kernel.Gen(program_of(rules, "occupied_and.meeple", False)).source()
    bare = function_text(source, "bare")
    assert bare.count("s.z.top_any(") == 1 and bare.count("s.z.top(") == 1 and " & " in bare
    big = function_text(source, "big")
    assert "top_any" not in big and "s.z.top(" in big and "&&" in big
