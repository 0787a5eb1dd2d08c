"""Items made and removed during play (a kind's ``supply``, ``make``, ``remove``) and the
items of several places moved at once (``permute``): docs/language.md 5.6.1, 6.19, 6.20
(issue 37, items 5 and 6).

- ``make`` takes the supply's top item to the place, its item variables anew (the
  ``with`` values given), ``remove`` puts items back; the ids are the supply's, so a
  game's state, its JSON round trip and its undo are as for any move; an empty supply is
  a located rule error naming it.
- ``permute`` moves every stack at once, keeps each stack's order and each item's facing,
  and reports two stacks landing on one place, a place lifted twice and lists of
  different lengths as rule errors naming the place.
- Misuse is reported when the ruleset is loaded, at its place, with a hint; rulesets
  that call a variable ``make``, ``permute`` or ``remove`` load as before.
- Two small games written with them, amazons 6 × 6 whose arrows are made when shot and
  pentago whose quadrant turns are one ``permute``, agree with OpenSpiel's ``amazons``
  and ``pentago`` move by move (legal moves, boards, results) and play the same in
  their kernel as in Python."""
from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_difference
from meeple.dsl.errors import MeepleError
from meeple.interpreter import RuleError, compile_sources, rulebook, rulebook_view, views
from meeple.interpreter.analysis import testing
from scale import scaled

from meeple import interpreter

DATA = Path(__file__).resolve().parent / "testdata" / "made_items"


def load_text(text: str):
    from docs_support import _sources
    return compile_sources(_sources({"t.meeple": text}))


HEAD = """ruleset t
players 2..2
kind Stone { seat: int, var age: int = 5 }
board b: grid(rows: 2, cols: 2) holds Stone
zone side: Stone
supply pool: 3 of Stone(seat: 0)
"""


def game_of(turn: str, end: str = "end when false"):
    return load_text(HEAD + f"turn {{\n  choose x from [1, 2]\n{turn}\n}}\n{end}\n").new_game(2, 0)


# ---------------------------------------------------------------- make and remove

def test_make_takes_the_supply_s_top_with_its_item_variables_anew():
    game = game_of("  make Stone at cell(b, row: 1, col: 1) with age = 10 * x\n"
                   "  make Stone at side\n"
                   "  top(side).age = 7")
    pool = testing.at(game, "pool")
    assert pool == [0, 1, 2] and game.state["ivars"]["age"] == [5, 5, 5]
    game.apply("2")
    assert testing.at(game, "pool") == [0] and testing.at(game, "b:r1c1") == [2] and testing.at(game, "side") == [1]
    assert game.state["ivars"]["age"] == [5, 7, 20]
    # the state is plain data: its JSON round trip resumes the same game
    again = game.program.resume(json.loads(game.to_json()))
    assert again.state == game.state
    game.undo()
    assert testing.at(game, "pool") == [0, 1, 2] and game.state["ivars"]["age"] == [5, 5, 5]


def test_remove_puts_items_back_and_make_takes_them_again_with_fresh_variables():
    game = game_of("  if size(pool) > 0 { make Stone at side with age = x }\n"
                   "  else { remove items(side) }")
    testing.play(game, "1", "2", "1")
    assert testing.at(game, "side") == [2, 1, 0] and game.state["ivars"]["age"] == [1, 2, 1]
    game.apply("2")   # the supply is empty: every stone goes back, in list order
    assert testing.at(game, "pool") == [2, 1, 0] and testing.at(game, "side") == []
    game.apply("2")
    assert testing.at(game, "side") == [0] and game.state["ivars"]["age"][0] == 2


def test_an_empty_supply_is_a_rule_error_naming_it():
    game = game_of("  make Stone at side")
    testing.play(game, "1", "1", "1")
    with pytest.raises(RuleError) as e:
        game.apply("1")
    assert "'make Stone': its supply 'pool' is empty" in str(e.value) and "t.meeple:9:" in str(e.value)
    assert "remove" in e.value.hint


def test_making_at_none_is_a_rule_error():
    game = game_of("  make Stone at first(y for y in cells(b) if false)")
    with pytest.raises(RuleError, match="'make Stone' at none"):
        game.apply("1")


def test_removing_none_is_a_rule_error():
    game = game_of("  remove top(side)")
    with pytest.raises(RuleError, match="'remove' of nothing"):
        game.apply("1")


def test_a_made_item_face_down_for_a_seat_is_hidden_from_the_other():
    game = game_of("  make Stone at side face down for players[1]")
    game.apply("1")
    item = testing.at(game, "side")[0]
    assert game.state["facing"][item] == 2    # (seen by seat 1 alone)
    assert views.view(game, 0)["zones"]["side"] != views.view(game, 1)["zones"]["side"]


# ---------------------------------------------------------------- permute

PERMUTE = HEAD.replace("supply pool: 3 of Stone(seat: 0)\n", """deck stones into side { Stone(seat: s) for s in 1..4 }
function c(r: int, k: int): b = cell(b, row: r, col: k)
setup {
  move top(side) to c(1, 1)
  move top(side) to c(1, 1)
  move top(side) to c(1, 2)
}
""")


def permuted(stmt: str, *moves):
    game = load_text(PERMUTE + f"turn {{\n  choose x from [1, 2]\n  {stmt}\n}}\nend when false\n").new_game(2, 0)
    before = {k: testing.at(game, k) for k in ("b:r1c1", "b:r1c2", "b:r2c1", "b:r2c2", "side")}
    testing.play(game, *moves)
    return before, {k: testing.at(game, k) for k in before}


def test_permute_moves_every_stack_at_once_keeping_its_order():
    before, after = permuted("permute [c(1, 1), c(1, 2), c(2, 1)] to [c(1, 2), c(2, 1), c(1, 1)]", "1")
    assert before["b:r1c1"] == [3, 2] and before["b:r1c2"] == [1]
    assert after == {"b:r1c1": [], "b:r1c2": [3, 2], "b:r2c1": [1], "b:r2c2": [], "side": [0]}
    _, swapped = permuted("permute [c(1, 1), c(1, 2)] to [c(1, 2), c(1, 1)]", "1")
    assert swapped["b:r1c1"] == [1] and swapped["b:r1c2"] == [3, 2]


def test_a_stack_lands_on_what_stays_at_its_place():
    _, after = permuted("permute [c(1, 2)] to [c(1, 1)]", "1")
    assert after["b:r1c1"] == [3, 2, 1] and after["b:r1c2"] == []
    _, after = permuted("permute [side] to [c(2, 2)]", "1")
    assert after["b:r2c2"] == [0] and after["side"] == []


def test_permuted_items_keep_how_they_lie_and_undo_takes_it_back():
    game = load_text(PERMUTE + """turn {
  choose x from [1, 2]
  if x == 1 { flip top(c(1, 2)) face down } else { permute [c(1, 2)] to [c(2, 2)] }
}
end when false
""").new_game(2, 0)
    testing.play(game, "1", "2")
    assert testing.at(game, "b:r2c2") == [1] and game.state["facing"][1] == 0
    game.undo()
    assert testing.at(game, "b:r1c2") == [1] and game.state["facing"][1] == 0


@pytest.mark.parametrize("stmt, message", [
    ("permute [c(1, 1), c(1, 2)] to [c(2, 2), c(2, 2)]", "'permute': b:r2c2 is moved to twice"),
    ("permute [c(1, 1), c(1, 1)] to [c(2, 1), c(2, 2)]", "'permute': b:r1c1 is moved from twice"),
    ("permute [c(1, 1), c(1, 2)] to [c(2, 2)]", "'permute' of 2 places to 1 places"),
    ("permute [c(1, 1)] to [first(y for y in cells(b) if false)]", "'permute': a place moved to is none"),
    ("permute [c(1, 1)] to []", "'permute' of 1 places to 0 places"),
])
def test_a_permutation_that_is_not_one_is_a_rule_error_naming_the_place(stmt, message):
    with pytest.raises(RuleError) as e:
        permuted(stmt, "1")
    assert message in str(e.value) and e.value.hint


# ---------------------------------------------------------------- misuse, when loaded

@pytest.mark.parametrize("text, code, words", [
    ("kind A { }\nboard g: grid(rows: 2, cols: 2) holds A\nturn { choose c from cells(g)\n make A at c }",
     "check/missing", "kind A has no supply to make items from"),
    ("kind A { }\nzone z: A\nturn { choose c from [1]\n remove top(z) }",
     "check/missing", "kind A has no supply to put back into"),
    ("kind A { }\nsupply s1: 2 of A()\nsupply s2: 2 of A()\nturn { choose c from [1] }",
     "check/bad-value", "kind A has two supplies, 's1' and 's2'"),
    ("kind A { }\nsupply s1: 0 of A()\nturn { choose c from [1] }",
     "check/bad-value", "a supply of 0 items makes nothing"),
    ("kind A { f: int }\nsupply s1: 2 of A(f: 1)\nzone z: A\nturn { choose c from [1]\n make A at z with f = 2 }",
     "check/bad-value", "'f' of A is fixed"),
    ("kind A { var f: int = 0 }\nsupply s1: 2 of A()\nzone z: A\nturn { choose c from [1]\n make A at z with f = true }",
     "check/type-mismatch", "'f = ...' of 'make A'"),
    ("kind A { var f: int = 0 }\nsupply s1: 2 of A()\nzone z: A\nturn { choose c from [1]\n make A at z with f = 1, f = 2 }",
     "check/bad-value", "'f' is given twice"),
    ("kind A { }\nkind B { }\nsupply s1: 2 of A()\nzone z: B\nturn { choose c from [1]\n make A at z }",
     "check/type-mismatch", "expected a place that holds A"),
    ("kind A { }\nsupply s1: 2 of A()\nzone z: A\nturn { choose c from [1]\n make Q at z }",
     "check/unknown-name", "Q"),
    ("kind A { }\nkind B { }\nboard g: grid(rows: 2, cols: 2) holds A\nboard h: grid(rows: 2, cols: 2) holds B\n"
     "turn { choose c from [1]\n permute cells(g) to cells(h) }", "check/type-mismatch", "places that hold A"),
    ("turn { choose c from [1]\n permute [1] to [2] }", "check/type-mismatch", "a list of cells or of zones"),
])
def test_misuse_is_reported_where_it_is_with_a_hint(text, code, words):
    with pytest.raises(MeepleError) as e:
        load_text("ruleset t\nplayers 2..2\n" + text + "\nend when false\n")
    d = e.value.diagnostics[0]
    assert d.code == code and words in d.message + (d.hint or "") and d.span.line >= 3, d.render({})


def test_variables_named_make_permute_and_remove_are_still_variables():
    prog = load_text("""ruleset t
players 2..2
var make: int = 0
var remove: int per player = 0
turn {
  choose permute from [1, 2]
  make = make + permute
  remove(active) += 1
}
end when make > 5
score(p) = remove(p)
""")
    game = testing.play(prog.new_game(2, 0), "2", "2", "2")
    assert game.over and game.state["vars"]["make"] == 6


def test_a_supply_is_written_back_as_meeple_code():
    from meeple.dsl.parse import parse
    from meeple.interpreter.documents import meeple_code
    f = parse("ruleset t\nkind A { s: int }\nsupply few: 1 of A(s: 2)\nsupply many: 7 of A(s: 0)\n", "t")
    assert [meeple_code.decl(d) for d in f.decls[1:]] == ["supply few: 1 of A(s: 2)", "supply many: 7 of A(s: 0)"]


def test_the_rulebook_says_what_make_remove_and_permute_do():
    text = rulebook_view.markdown(rulebook.build(interpreter.load(str(DATA / "pentago.meeple"))))
    assert "Take a Marble from its supply and put it on *c*, with seat the seat of the active player." in text
    assert "Move the pieces of the places *q*, all at once, each to the place at the same position in" in text


# ---------------------------------------------------------------- against OpenSpiel

@cache
def program(name: str):
    return interpreter.load(str(DATA / f"{name}.meeple")).for_players(2)


def cell_action(notation: str) -> int:
    (r, c), = re.findall(r"r(\d+)c(\d+)", notation)
    return (int(r) - 1) * 6 + int(c) - 1


def outcome(x: float) -> str:
    return "win" if x > 0 else "loss" if x < 0 else "draw"


def test_random_games_of_amazons_with_arrows_made_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    spiel, rnd = pyspiel.load_game("amazons", {"board_size": 6}), random.Random(0)
    decisions = wins = 0
    for g in range(scaled(60, 8)):
        game, st = program("amazons").new_game(2, g), spiel.new_initial_state()
        start = decisions
        while not st.is_terminal():
            assert not game.over and game.active_player == st.current_player(), str(st)
            legal = game.legal_moves()
            assert sorted(cell_action(m.notation) for m in legal) == st.legal_actions(), str(st)
            m = legal[rnd.randrange(len(legal))]
            game.apply(m)
            st.apply_action(cell_action(m.notation))
            decisions += 1
        assert game.over and game.result["outcomes"] == [outcome(x) for x in st.returns()], str(st)
        wins += st.returns()[0] > 0
        # one arrow made per turn (items 8 to 35: the queens are 0 to 7), the rest in the supply
        turns = (decisions - start) // 3
        assert arrows_on_board(game) == turns and len(testing.at(game, "arrows")) == 28 - turns
    assert decisions > 60 * scaled(60, 8) and 0 < wins < scaled(60, 8)


def arrows_on_board(game) -> int:
    return sum(1 for key in (f"b:r{r}c{c}" for r in range(1, 7) for c in range(1, 7))
               for i in testing.at(game, key) if i >= 8)


def pentago_board(game) -> list[list[str]]:
    seat = game.state["ivars"]["seat"]
    return [["." if not (s := testing.at(game, f"b:r{r}c{c}")) else "O@"[seat[s[0]] - 1] for c in range(1, 7)]
            for r in range(1, 7)]


def test_random_games_of_pentago_turned_by_permute_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    spiel, rnd = pyspiel.load_game("pentago"), random.Random(0)
    results: dict[str, int] = {}
    for g in range(scaled(80, 12)):
        game, st = program("pentago").new_game(2, g), spiel.new_initial_state()
        while not st.is_terminal():
            a = rnd.choice(st.legal_actions())
            cell, turn = divmod(a, 8)   # OpenSpiel: cell × 8 + quadrant × 2 + clockwise
            assert game.active_player == st.current_player()
            assert len(game.legal_moves()) * 8 == len(st.legal_actions())
            testing.play(game, f"place r{cell // 6 + 1}c{cell % 6 + 1}", f"turn {turn}")
            st.apply_action(a)
            assert pentago_board(game) == [ln[4:15].split() for ln in str(st).splitlines()[2:8]], str(st)
            assert game.over == st.is_terminal()
        got = [outcome(x) for x in st.returns()]
        assert game.result["outcomes"] == got, str(st)
        results[",".join(got)] = results.get(",".join(got), 0) + 1
    assert len(results) == 3 if scaled(1, 0) else len(results) >= 2    # wins both ways, draws


# ---------------------------------------------------------------- the same in the kernel

@pytest.mark.kernels
@needs_kernel
@pytest.mark.parametrize("name", ["amazons", "pentago"])
def test_the_kernel_plays_them_as_python(name, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    ruleset, said = interpreter.load(str(DATA / f"{name}.meeple"), cache=False), []
    ruleset.use_native(report=said.append)
    fast, plain = ruleset.for_players(2), program(name)
    assert fast.kernel, said
    for seed in range(3):
        a, b, rnd = fast.new_game(2, seed), plain.new_game(2, seed), random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None
            legal = [m.notation for m in b.legal_moves()]
            assert [m.notation for m in a.legal_moves()] == legal
            i = rnd.randrange(len(legal))
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert a.result == b.result and json.dumps(a.state) == json.dumps(b.state)
    assert fast.native_fallbacks == 0


@pytest.mark.kernels
@needs_kernel
def test_an_empty_supply_and_a_bad_permutation_in_the_kernel_are_python_s_errors(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    text = PERMUTE.replace('deck stones', 'supply pool: 1 of Stone(seat: 0)\ndeck stones') + """turn {
  choose x from [1, 2]
  if x == 1 { make Stone at c(2, 2) } else { permute [c(1, 1), c(1, 2)] to [c(2, 1), c(2, 1)] }
}
end when false
"""
    ruleset = load_text(text)
    ruleset.use_native(report=lambda s: None)
    fast = ruleset.for_players(2)
    assert fast.kernel
    for moves, message in (((0, 0), "its supply 'pool' is empty"), ((1,), "b:r2c1 is moved to twice")):
        game = fast.new_game(2, 0)
        with pytest.raises(RuleError) as e:
            for i in moves:   # (by index: the kernel plays a move given so)
                assert game.kernel_state() is not None
                game.apply(i)
        assert message in str(e.value)
    assert fast.native_fallbacks == 2


BIG = """ruleset big
players 2..2
kind Stone { }
board b: grid(rows: 6, cols: 6) holds Stone
supply pool: 3 of Stone()
setup {
  make Stone at cell(b, row: 1, col: 1)
  make Stone at cell(b, row: 1, col: 2)
}
turn {
  choose x from [1, 2] as "go"
  if x == 1 {
    permute cells(b) to [cells(b)[(i + 7) % 36] for i in 0..35]
  } else {
    permute cells(b) to [cells(b)[i / 2] for i in 0..35]
  }
}
end when false
"""


@pytest.mark.kernels
@needs_kernel
def test_a_permutation_of_many_places_in_the_kernel_is_python_s(monkeypatch):
    # (more than 32 places: the kernel marks the places met instead of comparing pairs)
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    ruleset, plain = load_text(BIG), load_text(BIG).for_players(2)
    ruleset.use_native(report=lambda s: None)
    fast = ruleset.for_players(2)
    assert fast.kernel
    a, b = fast.new_game(2, 0), plain.new_game(2, 0)
    for _ in range(6):   # (by index: the kernel plays a move given so)
        a.apply(0, safe=False)
        b.apply(0, safe=False)
        assert kernel_difference(a.kernel_state(), b) is None
    assert testing.at(b, "b:r1c1") == [] and len(testing.at(b, "pool")) == 1
    with pytest.raises(RuleError, match="is moved to twice"):
        a.apply(1)
    assert fast.native_fallbacks == 1


def test_a_variant_replaces_or_removes_a_supply_as_a_zone():
    from docs_support import _sources
    base = HEAD + "turn {\n  choose x from [1, 2]\n  make Stone at side\n}\nend when false\n"
    bigger = "variant bigger\nreplace supply pool: 5 of Stone(seat: 1)\n"
    gone = "variant gone\nremove zone pool\n"
    src = _sources({"t.meeple": base, "variants/bigger.meeple": bigger, "variants/gone.meeple": gone})
    game = compile_sources(src, ["bigger"]).new_game(2, 0)
    assert len(testing.at(game, "pool")) == 5 and game.program.items[0].attrs["seat"] == 1
    with pytest.raises(MeepleError) as e:
        compile_sources(_sources({"t.meeple": base, "variants/gone.meeple": gone}), ["gone"])
    assert e.value.diagnostics[0].code == "check/missing"
