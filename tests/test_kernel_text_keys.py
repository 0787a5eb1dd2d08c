"""A counted decision's texts told apart by their keys (interpreter/native/kernel_text_keys.py):
where a perft counts the options of its last decision and a let made them just before
as texts, the kernel counts how many differ from their keys, with no text made; where
one is longer than 7 bytes it makes them as ever. The counts, the divides and the
budgets' errors are Python's. The kernels are built with -O0 here (conftest.py)."""
from __future__ import annotations

import pytest
from kernel_support import kernels_on, needs_kernel  # noqa: F401 - the fixture, autouse
from lockstep import kernel_plays_as_python, least_budget, program_of, work_counted_as_python
from meeple.interpreter import Budgets, RuleError
from meeple.interpreter.native import kernel

from meeple import interpreter

pytestmark = [pytest.mark.kernels, needs_kernel]

# Names joined of a cell's name, texts of the rules and a function's text: the first
# turn's short, some alike (a text named twice is one option); the second's with a
# character of two bytes (its work counts characters, not bytes), alike across cells;
# the third's longer than 7 bytes (made and counted as texts).
NAMES = """ruleset keys
players 2..2
kind Stone { }
board grid: grid(rows: 3, cols: 3) holds Stone
var turns: int = 0
var total: int = 0
function tag(c: grid, t: str): str =
  if c.row == 2 then "é" + t elif c.row == 3 then c.name + "/long/" + t else c.name + "-" + t
function tags(c: grid): list of str = if c.col == 1 then ["a", "a"] else ["a", "b"]
turn {
  let spots = [c for c in cells(grid) if c.row == turns + 1]
  let names = [tag(c, t) for c in spots for t in tags(c)]
  let plans = [c for c in spots for t in tags(c)]
  choose mv from names as "go"
  let i = first(j for j in 0..(size(names) - 1) if names[j] == mv)
  total = total + plans[i].col + (if mv == "éb" then 10 else 0)
  turns = turns + 1
}
end when turns == 3
score(p) = total
"""

# The same turns, their names' parts of sizes known before any game (a cell's name, a
# text of the rules, a function's text of one size) but the last: keyed with each part
# shifted by the sizes before it and the work weighed (kernel_text_keys.py, _fixed_join);
# the first turn's last part empty or one byte, some alike; the second's "é" of two bytes
# and one character; the third's longer than 7 bytes, its last part past the key's bytes.
FIXED = NAMES.replace('''function tag(c: grid, t: str): str =
  if c.row == 2 then "é" + t elif c.row == 3 then c.name + "/long/" + t else c.name + "-" + t
function tags(c: grid): list of str = if c.col == 1 then ["a", "a"] else ["a", "b"]''', '''function letter(k: int): str = if k == 1 then "a" else "b"
function tag(c: grid, k: int): str =
  if c.row == 2 then "é" + letter(k) elif c.row == 3 then c.name + "/long/" + letter(k)
  else c.name + "-" + (if k == 1 then "" else letter(k))
function tags(c: grid): list of int = if c.col == 1 then [2, 2] else [1, 2]''')

# FIXED's second turn with a part of no bytes that is not a text of the rules between
# the "é" and the letter: a condition whose two sides are "", whose test walks the
# board's cells (its work counted in its turn, as the reference evaluates it)
EMPTY = FIXED.replace('then "é" + letter(k)',
                      'then "é" + (if count(x for x in cells(grid) if x.col >= c.col) > 0 then "" else "") + letter(k)')


def _program(native: bool, budgets=None, text: str = NAMES):
    return program_of(text, "keys.meeple", native, budgets)


def test_the_names_of_a_counted_decision_are_told_apart_by_their_keys():
    fast, plain = _program(True), _program(False)
    source = kernel.Gen(plain).source()
    assert source.count("KEYED = count_keys(TKEYS)") == 1
    # (the function's text as its key, in line where it is called)
    assert "static inline MK_AI TK uT_tag(St& s" in source
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    counts = [interpreter.perft(b, d) for d in (1, 2, 3)]
    assert counts == [5, 10, 50]   # (names alike counted once: of 6 made, 5, 2 and 5)
    for _ in range(2):
        assert [interpreter.perft(a, d) for d in (1, 2, 3)] == [interpreter.perft(b, d) for d in (1, 2, 3)]
        assert interpreter.divide(a, 2) == interpreter.divide(b, 2)
        a.apply(1)
        b.apply(1)
        assert a.live and a.state == b.state
    assert fast.native_fallbacks == 0


def test_joins_of_parts_of_known_sizes_are_keyed_with_their_shifts_known():
    source = kernel.Gen(_program(False, text=FIXED)).source()
    assert source.count("const TK l_ =") == 3 and "tk_join(s," not in source
    assert "tk_join(s," in kernel.Gen(_program(False)).source()   # (a text of the turn's)


def test_names_joined_of_parts_of_known_sizes_are_keyed_as_python_counts_them():
    fast, plain = _program(True, text=FIXED), _program(False, text=FIXED)
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    assert [interpreter.perft(b, d) for d in (1, 2, 3)] == [5, 10, 50]
    for _ in range(2):
        assert [interpreter.perft(a, d) for d in (1, 2, 3)] == [interpreter.perft(b, d) for d in (1, 2, 3)]
        assert interpreter.divide(a, 2) == interpreter.divide(b, 2)
        a.apply(1)
        b.apply(1)
    assert fast.native_fallbacks == 0


@pytest.mark.parametrize("text", [NAMES, FIXED, EMPTY], ids=["names", "fixed", "empty"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_keys_count_the_work_of_the_texts_as_python(depth, text):
    """With one unit of work less than the count needs, the work runs out as in Python
    (the last turn's names: short, then of two-byte characters, then long; a part of no
    bytes counts the work that decides it); with just enough, the kernel counts them all."""

    def perft(native: bool, work: int):
        program = _program(native, Budgets(work=work), text)
        try:
            return interpreter.perft(program.new_game(2, 0), depth), program.native_fallbacks
        except RuleError as e:
            return str(e)
    least = least_budget(lambda work: isinstance(perft(False, work), str), 10_000)
    failed = perft(False, least - 1)
    assert isinstance(failed, str) and "'work' budget" in failed
    assert perft(True, least - 1) == failed
    assert perft(True, least) == (perft(False, least)[0], 0)   # (no move left to Python)


def test_a_decision_whose_options_a_let_does_not_make_counts_its_list():
    """Options that are not a local set by a let just before (a list written in the
    decision): no keys, the list counted as before."""
    text = NAMES.replace('choose mv from names as "go"', 'choose mv from ["x", "y", "x"] as "go"')
    assert "count_keys" not in kernel.Gen(program_of(text, "keys.meeple", False)).source()


def test_chess_counts_its_last_decisions_move_names_by_their_keys():
    """Chess's turn names every legal move (``notation(m, r)``) and chooses among the
    names: a perft's last decisions count the names' keys (docs/performance.md)."""
    source = kernel.Gen(interpreter.load("chess").for_players(2)).source()
    assert source.count("KEYED = count_keys(TKEYS)") == 1
    assert "TK uT_notation(St& s" in source and "TK uT_letter(St& s" in source


# NAMES with the long names (row 3) among the short ones of every turn: the let makes
# its first texts from their keys, then, from the first long one on, as the rules do
MIXED = NAMES.replace("if c.row == turns + 1]", "if c.row == turns + 1 or c.row == 3]")


@pytest.mark.parametrize("text", [NAMES, FIXED, EMPTY, MIXED], ids=["names", "fixed", "empty", "mixed"])
def test_the_names_of_a_decision_are_made_from_their_keys_as_python_makes_them(text):
    """Out of a perft (random games), the let of the decision's texts makes each from
    its key where it has at most 7 bytes (``tk_text``), else as the rules do: the games,
    their states (the names a local) and the work counted are Python's."""
    fast, plain = _program(True, text=text), _program(False, text=text)
    assert kernel.Gen(plain).source().count("push_back(tk_text(t_))") == 1
    assert kernel_plays_as_python(fast, plain, 6) > 0
    assert fast.native_fallbacks == 0
    work_counted_as_python(lambda native, budgets: _program(native, budgets, text), 2, 10_000)


# NAMES with a tag whose text comes from a function that may call itself: no key function
# of it is forced in line (GCC cannot put a function in line in itself), so the kernel
# builds and plays as Python.
RECURSIVE = NAMES.replace("""function tag(c: grid, t: str): str =
  if c.row == 2""", """function tag(c: grid, t: str): str = deeper(c, t, 1)
function deeper(c: grid, t: str, k: int): str =
  if k > 0 then deeper(c, t, k - 1) elif c.row == 2""")


def test_a_key_function_that_may_call_itself_is_not_forced_in_line():
    plain = _program(False, text=RECURSIVE)
    source = kernel.Gen(plain).source()
    assert "static inline MK_AI TK uT_tag(St& s" in source
    assert "MK_AI TK uT_deeper(" not in source
    fast = _program(True, text=RECURSIVE)
    assert fast.kernel is not None
    kernel_plays_as_python(fast, plain, seeds=3)
