"""A ruleset that loaded yesterday loads today (issue 34, item 10): a declaration named
like a built-in function or constant hides the built-in in its ruleset, whatever kind of
declaration it is, so a new built-in never breaks a ruleset (as `ray` did: "'ray' is a
built-in name and cannot be declared"). Every stage after the checker sees the user's
declaration: the straightforward Python, the fast Python and the kernel play the same."""
from __future__ import annotations

import pytest
from lockstep import play_both, straight
from meeple.dsl import builtins
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet, add_text

from meeple import interpreter

MISSING = interpreter.kernel_status()

# functions, per-player variables and zones named like built-in functions (some of which
# the later stages compute at compile time when they are the built-ins: seat, abs, min,
# max, player_count, cells, items), a form (ray, until), a closure (connected); the
# comprehension forms (count(x for ...), ray(c, row: 1)) stay the built-ins'; a variable
# hides the constant active, a parameter and a local the constant players
FUNCTIONS = """ruleset shadows
players 2..2
kind Card { v: int }
board grid: grid(rows: 2, cols: 2) holds Card
zone pile: Card
zone items: Card per player
zone cells: Card
var top: int per player = 3
var results: list of int = []
var picked: int = 0
deck cards into pile { Card(v: v) for v in 1..6 }
function ray(a: int, b: int): int = a * 10 + b
function until(x: int): int = x + 1
function connected(x: int): bool = x > 2
function seat(p: player): int = 7
function abs(x: int): int = x + 100
function min(a: int, b: int): int = a * b
function max(a: int, b: int): int = a - b
function player_count(): int = 42
function turn_number(): int = 5
function first(xs: list of int): int = 77
function distinct(xs: list of int): list of int = [0]
function sort(xs: list of int): list of int = reverse(xs)
relation owner(a: grid, b: grid) = a.row == b.row
procedure size(n: int): int { return n * 2 }
var seen: list of int = []
var active: int = 1
function plus(x: int, players: int): int = x + players
procedure note() {
  let players = 5
  for n in [players, plus(1, 2)] { seen = seen + [n] }
}
setup {
  call note()
  move bottom(pile) to items(players[0])
  move bottom(pile) to cells
  let twice = call size(4)
  results = [ray(1, 2), until(3), seat(players[0]), abs(-1), min(2, 3), max(2, 3), player_count(),
             turn_number(), first([5, 6]), size(items(players[0])), size(cells), top(players[1]),
             count(x for x in [1, 2, 3]), first(x for x in [4, 5]), sort([1, 2, 3])[0],
             distinct([3, 3])[0], size(ray(cell(grid, row: 2, col: 1), row: -1, col: 0)),
             count(c for c in cells(grid) if owner(c, cell(grid, row: 1, col: 1))), twice]
  if connected(3) { results = results + [1] }
}
turn {
  choose v from [1, 2, 3] as "pick"
  picked = picked + min(v, 2) + abs(v) + seat(players[1])
  top(players[0]) = top(players[0]) + v
  active = active + 1
}
end when picked > 300
score(p) = top(p)
"""
EXPECTED = [12, 4, 7, 99, 6, -1, 42, 5, 77, 1, 1, 3, 3, 4, 3, 0, 1, 2, 8, 1]

# the constants: a variable called active, an enum value called players
CONSTANTS = """ruleset constants
players 2..3
enum Mode { players, others }
var active: int = 1
var mode: Mode = players
function bump(x: int): int = x + 1
turn {
  choose v from [1, 2] as "add"
  active = bump(active) + v
  if mode == players { mode = others } else { mode = players }
}
end when active > 12
score(p) = active
"""


def compile_text(text: str) -> interpreter.Ruleset:
    src = SourceSet()
    add_text(src, "rules.meeple", text)
    return interpreter.compile_sources(src)


def test_a_declaration_of_every_built_in_name_loads_without_a_problem():
    names = sorted(set(builtins.BUILTINS) | set(builtins.CLOSURES) | set(builtins.FORMS))
    decls = "\n".join(f"function {n}(x: int): int = x + {i}" for i, n in enumerate(names))
    rules = compile_text(f"ruleset all\nplayers 2..2\nvar active: int = 0\nzone players: Token\n"
                         f"kind Token {{ }}\n{decls}\nturn {{ end game }}\n")
    assert rules.warnings == []
    game = rules.new_game(2, seed=0)
    assert game.over


def test_the_user_s_declarations_hide_the_built_ins():
    game = compile_text(FUNCTIONS).new_game(2, seed=3)
    assert game.state["vars"]["results"] == EXPECTED
    # a parameter and a local called players, in their scope; the variable active
    assert game.state["vars"]["seen"] == [5, 3]
    game.apply(0)
    assert game.state["vars"]["active"] == 2 and game.active_player == 1


def test_the_constants_are_hidden_by_a_variable_and_an_enum_value():
    rules = compile_text(CONSTANTS)
    game = rules.new_game(2, seed=0)
    assert game.state["vars"]["mode"] == "players"
    game.apply(0)     # active = bump(1) + 1
    assert game.state["vars"]["active"] == 3 and game.state["vars"]["mode"] == "others"


def test_the_type_names_stay_reserved():
    with pytest.raises(MeepleError) as e:
        compile_text("ruleset t\nplayers 2..2\nenum int { a }\nturn { end game }\n")
    assert [d.code for d in e.value.diagnostics] == ["check/reserved-name"]
    assert e.value.diagnostics[0].message == "'int' is a type name and cannot be declared"


@pytest.mark.parametrize("text", [FUNCTIONS, CONSTANTS], ids=["functions", "constants"])
def test_the_fast_code_plays_as_the_straightforward_one(text):
    with straight():
        plain = compile_text(text)
        plain.for_players(2)
    fast = compile_text(text)
    for seed in range(3):
        play_both(fast, plain, 2, seed, 60)


@pytest.mark.kernels
@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
def test_the_kernel_plays_as_python():
    native = compile_text(FUNCTIONS)
    assert native.use_native(report=False)
    assert native.for_players(2).kernel
    python = compile_text(FUNCTIONS)
    for seed in range(3):
        play_both(native, python, 2, seed, 60)
