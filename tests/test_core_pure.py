"""Which rule functions read nothing of the state, decided once by a pass over the checked
IR (interpreter/core/pure.py: ``prog.facts.state_reads``, ``reads_nothing``) from what
dsl/builtins.py says each built-in reads, and asked by every engine: the fast Python
code (the values it keeps for good, compile_functions.py), the kernel (the values of
functions that call themselves kept for good, native/kernel_memo.py) and the static
conditions of loops over a board's cells (core/cells.py, ``cells_given``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from meeple.dsl.builtins import BUILTINS
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen
from meeple.interpreter.core import primitives
from meeple.interpreter.core.facts import Facts
from meeple.interpreter.native import kernel
from test_builtins import COVER

from meeple import interpreter

SEARCH = str(Path(__file__).resolve().parent / "testdata" / "pure_search.meeple")

RULES = """ruleset pure
players 2..3
kind Mark { seat: int, var hits: int = 0 }
board b: grid(rows: 3, cols: 4) holds Mark
relation beside(a: b, b2: b) = abs(a.row - b2.row) + abs(a.col - b2.col) == 1
zone supply: Mark
zone hand: Mark per player
deck marks into supply { 6 of Mark(seat: s) for s in 1..2 }
const BIG: int = 7
var n: int = 0
var xs: list of int = []
var score: int per player = 0
function twice(k: int): int = 2 * k + BIG
function coords(c: b): int = c.row * 10 + c.col + count(d for d in beside(c) if d.row > 0)
function listed(ys: list of int): int = size(ys) + sum(y for y in ys if y > 1)
function seats(p: player): int = seat(p) + player_count() + seat(next_player(p)) + size(players)
function cells_of(): int = count(c for c in cells(b) if c.col % 2 == 0)
function calls_pure(c: b): int = coords(c) + twice(3)
function with_n(k: int): int = k + n + twice(n)
function calls_n(k: int): int = with_n(k) * 2
function hidden(k: int): int = sum(n for n in 1..k) + count(x for x in 1..k for n in x..k)
function hidden_not(k: int): int = sum(n for n in 1..k) + n
function with_list(): int = size(xs)
function tops(c: b): int = size(c)
function pool(): bool = empty(supply)
function who(): player = active
function theirs(p: player): int = score(p)
function hits(m: Mark): int = m.hits
function seat_of(m: Mark): int = m.seat
function where(m: Mark): b = cell_of(m, b)
function down(m: Mark): bool = face_down(m)
function when(): int = turn_number()
function calls_state(c: b): int = tops(c) + coords(c)
function own_hand(p: player): int = size(hand(p))
function home(c: b, p: player): bool = any(c.row == r for r in seat(p)..seat(p) + 1)
function homes(p: player): int = count(c for c in cells(b) if home(c, p) and empty(c))
function doubled(k: int): int = twice(k) * 2 + seat_of_first()
function seat_of_first(): int = seat(first(players))
function steps(k: int): int = if k <= 0 then 0 else 1 + steps(k - 1)
turn {
  n = n + twice(1) + coords(cell(b, row: 1, col: 1)) + listed([1, 2]) + seats(active) + cells_of()
    + calls_pure(cell(b, row: 2, col: 2)) + calls_n(1) + hidden(2) + hidden_not(2) + with_list() + tops(cell(b, row: 1, col: 1))
    + theirs(active) + when() + calls_state(cell(b, row: 1, col: 2)) + own_hand(active) + homes(active)
  end game
}
"""


def program(n: int = 2):
    src = SourceSet(base=parse(RULES, "pure.meeple"), sources={"pure.meeple": RULES})
    return compile_sources(src).for_players(n)


def test_what_each_function_reads_of_the_state():
    f = program().facts
    nothing = ["twice", "coords", "listed", "seats", "cells_of", "calls_pure", "seat_of", "home", "hidden"]
    assert {name: f.state_reads(name) for name in nothing} == dict.fromkeys(nothing, frozenset())
    assert all(f.reads_nothing(name) for name in nothing)
    # global variables of one value: read by name (the fast code keys kept values by them)
    assert f.state_reads("with_n") == f.state_reads("calls_n") == frozenset({"n"})
    # (a loop's variable hides the global of its name inside the loop alone)
    assert f.state_reads("hidden_not") == frozenset({"n"})
    assert not f.reads_nothing("with_n") and not f.reads_nothing("calls_n")
    # the state: a list variable, a zone's or a cell's items, the active player, a
    # per-player variable, an item's variable, where an item lies, its face, the turn's
    # number, a function that calls one that reads it; a per-player zone's number is not
    for name in ("with_list", "tops", "pool", "who", "theirs", "hits", "where", "down", "when", "calls_state",
                 "own_hand", "homes"):
        assert f.state_reads(name) is None, name
        assert not f.reads_nothing(name), name


def test_the_variables_each_function_may_read():
    # (the kernel renews the epoch of its kept values after a step that sets one of
    # those a kept function reads: native/kernel_epoch.py)
    f = program().facts
    g, p, i = "global", "player", "item"
    told = {name: f.variables_read(name) for name in f.c.functions}
    # a global by its name, through the functions called too; a loop's variable hides it
    assert told["with_n"] == told["calls_n"] == told["hidden_not"] == {(g, "n")}
    assert told["with_list"] == {(g, "xs")}
    # a per-player variable by its call, an item's variable by its attribute
    assert told["theirs"] == {(p, "score")} and told["hits"] == {(i, "hits")}
    # no other function reads one: not a kind's attribute (seat), a zone, a cell's items,
    # the active player, the turn, a constant, a loop's variable of a global's name
    assert {name for name, read in told.items() if read} == {"with_n", "calls_n", "hidden_not", "with_list",
                                                              "theirs", "hits"}

def test_which_expressions_are_the_values_of_their_names_alone():
    # (kernel_rows.py tables such a part of a list's elements by the list's index)
    f = program().facts
    fs = f.c.functions
    alone = {name for name, fd in fs.items() if f.given_alone(fd.body, {p.name for p in fd.params})}
    # arithmetic, built-ins and a kind's attributes that read nothing, functions that
    # read and count nothing (doubled: twice and seat_of_first)
    assert alone == {"twice", "seats", "seat_of", "doubled", "seat_of_first"}
    # not: a loop (its work: coords, listed, home), a call of one (calls_pure reads
    # nothing but counts coords' work), a global (with_n, calls_n), a function that
    # counts its calls (steps reads nothing, counts nothing but calls), the state
    assert f.reads_nothing("calls_pure") and f.reads_nothing("steps") and f.reads_nothing("coords")
    # a name not given is one of the rules: n is the global variable, twice(n) reads it
    assert f.given_alone(fs["twice"].body, {"k"}) and f.given_alone(fs["with_n"].body, {"k", "n"})
    assert not f.given_alone(fs["with_n"].body, {"k"})


# what a built-in's Python form reads of the runtime that changes as a game goes (its
# zones, the items' faces, the turn; or the runtime itself, handed to a helper), not what
# the game fixes (its number of players, its direction of play)
READS_STATE = re.compile(r"\bR\.(?!n_players\b|dir\b)|\(R,")


def test_the_table_of_built_ins_says_which_read_the_state(monkeypatch):
    # (what dsl/builtins.py says, ``state``, against what each built-in's Python form in
    # interpreter/core/primitives.py reads, written for every use of tests/test_builtins.py)
    reads: dict = {}

    def emit(form, call):
        if isinstance(call, primitives.PyCall):
            alone = primitives.PyCall(call.cg, call.e, [f"a{i}" for i in range(len(call.a))])
            written = primitives.emit(form, alone)   # (its own form, the arguments named)
            reads.setdefault(call.name, set()).add((call.list0, READS_STATE.search(written) is not None))
        return primitives.emit(form, call)
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    monkeypatch.setattr(codegen, "emit", emit)
    compile_sources(SourceSet(base=parse(COVER, "cover.meeple"), sources={"cover.meeple": COVER})).for_players(2)
    assert set(reads) == set(BUILTINS)
    for name, b in BUILTINS.items():
        # "place": a zone's or a cell's items, where it is given one (a list: nothing)
        for on_list, read in reads[name]:
            assert read == (b.state == "always" or (b.state == "place" and not on_list)), (name, on_list)
        if b.state == "place":
            assert {on_list for on_list, _ in reads[name]} == {True, False}, name   # (both uses)
    assert {b.state for b in BUILTINS.values()} == {"", "place", "always"}


def kept(prog) -> set[str]:
    return {k for k in prog.ns if k.startswith(("KEPT_", "KEPTV_", "KEPTD_"))}


def test_the_fast_code_keeps_what_the_pass_says(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    assert {"KEPT_coords", "KEPT_calls_pure", "KEPTV_with_n", "KEPTV_calls_n"} <= kept(program())
    assert not {"KEPT_tops", "KEPT_calls_state", "KEPT_homes"} & kept(program())
    # the engine asks the pass, function by function: told that coords reads the state,
    # and with_n another variable, it keeps coords no more, and with_n by that one
    real = Facts.state_reads
    told = {"coords": None, "with_n": frozenset({"xs"})}
    monkeypatch.setattr(Facts, "state_reads", lambda self, name: told[name] if name in told else real(self, name))
    prog = program()
    assert "KEPT_coords" not in kept(prog) and {"KEPT_calls_pure", "KEPTV_with_n"} <= kept(prog)
    assert prog.ns["F_with_n"].__code__.co_consts.count("xs") == 1


def test_the_static_cells_of_a_call_that_reads_nothing(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    prog = program()
    names = prog.ns["F_homes"].__code__.co_names
    assert "_kept_cells" in names   # home(c, p): a table of cells by p (core/cells.py)
    comp = prog.checked.functions["homes"].body.comp
    assert prog.facts.cells_given(comp.clauses[0], comp.cond) is not None
    monkeypatch.setattr(Facts, "reads_nothing", lambda self, name: False)
    prog = program()
    comp = prog.checked.functions["homes"].body.comp
    assert prog.facts.cells_given(comp.clauses[0], comp.cond) is None
    assert "_kept_cells" not in prog.ns["F_homes"].__code__.co_names


@pytest.mark.parametrize("pure", [True, False])
def test_the_kernel_keeps_for_good_what_the_pass_says(monkeypatch, pure):
    prog = interpreter.load(SEARCH, cache=False).for_players(2)
    if not pure:
        monkeypatch.setattr(Facts, "reads_nothing", lambda self, name: False)
    gen = kernel.Gen(prog)
    source = gen.source()
    assert gen.pure_recursive("best") is pure and gen.pure_recursive("gain") is pure
    assert ("uD_best(" in source) is pure
