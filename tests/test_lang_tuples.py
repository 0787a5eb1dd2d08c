"""Moves that join values of different kinds (issue 37 item 1): tuples ``(a, b, c)``,
``t[k]`` and ``choose (a, _, b) from LIST`` (docs/language.md 4, 6.6, 7.2, 7.3, 9.3).

- The parser reads a tuple literal and a ``choose`` that names the parts; the checker
  types tuples part by part (a list of shapes with ``none`` parts unifies), and refuses
  misuse with a located error and a hint.
- A move is written part by part, joined by spaces, ``none`` parts left out; options are
  ordered part by part (enum values in declaration order); records replay.
- The straightforward code, the fast code and the kernel (a tuple is a ``Tup`` of its
  parts there, ordered and compared part by part) play alike, and a kernel resumes a
  frame that holds a tuple.
- tests/testdata/pentago (cell, word, quadrant, turn) plays as OpenSpiel's ``pentago``:
  the same legal moves (by OpenSpiel's action encoding) and returns over random games."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from kernel_support import needs_kernel
from lockstep import kernel_difference, play_both, straight
from meeple.dsl import ast as ir
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources, record
from meeple.interpreter.compiler import codegen

from meeple import interpreter

PENTAGO = str(Path(__file__).resolve().parent / "testdata" / "pentago")

WALLS = """ruleset walls
players 2..2
enum Side { h, v }
kind Pawn { seat: int }
board b: grid(rows: 2, cols: 2) named "{col:a}{row}" holds Pawn
zone box: Pawn
deck pawns into box { Pawn(seat: s) for s in 1..2 }
var walls: int = 0
var steps: int = 0
var last_side: Side = none
setup { move top(box) to cell(b, name: "a1") }
turn {
  choose (what, c, side) from [("step", c, none) for c in cells(b) if empty(c)]
                              + [("wall", c, s) for c in cells(b) if c.row == 1 for s in Side] as "go"
  last_side = side
  if what == "step" {
    move top(first(x for x in cells(b) if occupied(x))) to c
    steps = steps + 1
  } else {
    walls = walls + 1
  }
}
end when steps + walls == 4
score(p) = walls
"""


def _source(text: str) -> SourceSet:
    return SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text})


def _rules(text: str):
    return compile_sources(_source(text))


def _errors(text: str) -> list:
    with pytest.raises(MeepleError) as raised:
        _rules(text)
    return raised.value.diagnostics


def _turn(body: str) -> str:
    return ("ruleset t\nplayers 2..2\nenum Turn { left, right }\nkind Card { v: int }\n"
            "board b: grid(rows: 2, cols: 2) holds Card\nzone pile: Card\n"
            "deck cards into pile { Card(v: v) for v in 1..3 }\nvar n: int = 0\n"
            f"turn {{\n{body}\n  end game\n}}\nscore(p) = 0\n")


# ---------------------------------------------------------------- parsing and checking

def test_a_tuple_and_a_choose_of_named_parts_parse():
    turn = next(d for d in parse(_turn('  choose (c, _, d) from [(c, "x", d) for c in cells(b) '
                                       'for d in Turn] as "put"'), "t.meeple").decls
                if d.node == "TurnDecl")
    s = turn.body.stmts[0]
    assert s.node == "Choose" and s.parts == ["c", "_", "d"] and s.verb == "put"
    assert ir.show(s.options.elem) == '(TupleLit [(Var name=c) (StrLit value=x) (Var name=d)])'
    # one value in parentheses is that value, not a tuple
    assert parse("ruleset t\nvar x: int = (1)\n").decls[0].init.node == "IntLit"


def test_parts_are_read_by_a_constant_index_with_their_own_types():
    rules = _rules(_turn('  let t = (first(cells(b)), 2, right)\n  n = t[1] + size([t[0]])\n'
                         '  if t[2] == right and t == (first(cells(b)), 2, right) { n = n * 10 }'))
    game = rules.new_game(2, 0)
    assert game.over and game.state["vars"]["n"] == 30


@pytest.mark.parametrize("body,code,column,words", [
    # a pattern of another size than the tuples
    ('  choose (c, d) from [(c, 1, 2) for c in cells(b)]', "check/type-mismatch", 22,
     "'choose (...)' names 2 parts: expected a list of tuples of 2 parts, found a list of (cell of b, int, int)"),
    # options that are no tuples
    ('  choose (c, d) from cells(b)', "check/type-mismatch", 22, "found a list of cell of b"),
    # a part read by an index computed by the rules, or outside the tuple
    ('  let t = (1, "a")\n  n = t[n]', "check/bad-value", 9, "from 0 to 1"),
    ('  let t = (1, "a")\n  n = t[2]', "check/bad-value", 9, "from 0 to 1"),
    # an item or a list is no part of a tuple
    ('  let t = (top(pile), 1)', "check/bad-value", 12, "not a Card"),
    ('  let t = ([1], 1)', "check/bad-value", 12, "not a list of int"),
    # beside a move without an object each part named is none after it: not a number
    ('  choose (c, d) from [(c, 1) for c in cells(b)] as "put" or "pass"', "check/bad-value", 3,
     "the part 'd' of 'choose (...)' (int) cannot be none, as it is after the move without an object "
     "('or \"pass\"')"),
    # the parts of a list's tuples have one type each
    ('  let ts = [(1, "a"), ("a", 1)]', "check/type-mismatch", 23, "list element"),
])
def test_misuse_is_a_located_check_error(body, code, column, words):
    diags = _errors(_turn(body))
    d = diags[0]
    assert d.code == code and words in d.message, d
    assert d.span.column == column and d.span.line == 10 + body.count("\n"), d.span


def test_a_part_that_is_none_itself_may_stand_beside_a_verb():
    """A part written as none in every option is none after the move without an object
    too: no error (it was refused as a part that "cannot be none")."""
    game = _rules(_turn('  choose (c, d) from [(c, none) for c in cells(b)] as "put" or "pass"\n'
                        '  if c == none and d == none { n = 1 }')).new_game(2, 0)
    assert "pass" in [m.notation for m in game.legal_moves()]
    game.apply("pass")
    assert game.over and game.state["vars"]["n"] == 1


def test_misuse_hints_show_the_way():
    d = _errors(_turn('  choose (c, d) from [(c, 1, 2) for c in cells(b)]'))[0]
    assert d.hint.startswith("build the options as tuples of 2")
    d = _errors(_turn('  let t = (1, "a")\n  n = t[n]'))[0]
    assert "choose (a, b) from" in d.hint
    d = _errors(_turn('  let t = (top(pile), 1)'))[0]
    assert "by its cell" in d.hint


def test_each_choose_of_named_parts_keeps_its_tuple_in_a_local_of_its_own():
    # the same names over tuples of other types: each statement's hidden local is its own
    rules = _rules(_turn('  choose (k, _) from [(1, "x"), (2, "y")] as "p"\n'
                         '  choose (k, _) from [(k + 10, right)] as "q"\n  n = k'))
    game = rules.new_game(2, 0)
    game.apply("p 2 y")
    assert [m.notation for m in game.legal_moves()] == ["q 12 right"]
    game.apply(0)
    assert game.state["vars"]["n"] == 12


def test_values_of_different_kinds_in_a_list_are_still_refused():
    # (the message authors met before tuples: a list's elements have one type)
    d = _errors(_turn('  let xs = [first(cells(b)), 3]'))[0]
    assert d.code == "check/type-mismatch" and "expected cell of b, found int" in d.message
    assert d.hint.endswith("write a tuple: (a, b)")   # (the way to what the author meant)


# ---------------------------------------------------------------- notation, order, records

def test_a_move_is_written_part_by_part_and_none_parts_are_left_out():
    game = _rules(WALLS).new_game(2, 0)
    assert [m.notation for m in game.legal_moves()] == [
        "go step b1", "go step a2", "go step b2", "go wall a1 h", "go wall a1 v", "go wall b1 h", "go wall b1 v"]
    assert game.legal_moves()[0].value == ["step", game.legal_moves()[0].value[1], None]
    game.apply("go wall b1 v")                 # a word of the move, a cell, an enum value
    assert game.state["vars"]["last_side"] == "v" and game.state["vars"]["walls"] == 1
    game.apply("GO STEP B2")                   # typed in any letter case, the verb optional
    assert game.state["vars"]["last_side"] is None and game.state["vars"]["steps"] == 1
    assert [m.notation for m in game.legal_moves()][:3] == ["go step a1", "go step b1", "go step a2"]


def test_the_examples_of_the_language_reference_say_what_they_do():
    # docs/language.md 6.6: turn_demo's first moves, and what the parts hold after one
    text = Path(__file__).resolve().parent.parent.joinpath("docs", "language.md").read_text(encoding="utf-8")
    block = re.search(r"```meeple\n(ruleset turn_demo\n.*?)```", text, re.S).group(1)
    game = _rules(block).new_game(2, 0)
    moves = [m.notation for m in game.legal_moves()]
    assert len(moves) == 8 and moves[:3] == ["place a1 turn left", "place a1 turn right", "place b1 turn left"]
    assert moves[-1] == "place b2 turn right"
    game.apply("place a1 turn right")
    assert len(game.legal_moves()) == 6 and game.state["vars"]["turned"] == 1


def test_options_are_ordered_part_by_part_enums_in_declaration_order():
    text = _turn('  choose (d, k) from [(d, k) for k in [2, 1] for d in [right, left]] as "pick"\n'
                 '  n = k')
    assert [m.notation for m in _rules(text).new_game(2, 0).legal_moves()] == [
        "pick left 1", "pick left 2", "pick right 1", "pick right 2"]


def test_a_record_of_tuple_moves_replays_to_the_same_digests():
    rules = interpreter.load(PENTAGO)
    game, rnd, moves = rules.new_game(2, 5), random.Random(5), []
    for _ in range(12):
        m = game.legal_moves()[rnd.randrange(game.move_count())]
        moves.append(m.notation)
        game.apply(m)
    again = record.replay(rules, record.Record("pentago", 2, 5, [], None, moves))
    assert record.digest(again) == record.digest(game)
    assert moves[0].startswith("place ") and " turn " in moves[0]


def test_the_rulebook_names_the_parts_chosen():
    from meeple.interpreter import rulebook, rulebook_view
    text = rulebook_view.markdown(rulebook.build(interpreter.load(PENTAGO)))
    assert "The active player chooses *c*, *q*, *d* from *c*, “turn”, *q*, *d*, for each *c* of the cells of b" in text


# ---------------------------------------------------------------- engines

@pytest.mark.parametrize("text", [WALLS, None], ids=["walls", "pentago"])
def test_the_straightforward_and_the_fast_code_play_alike(monkeypatch, text):
    def load(optimize: bool):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        return _rules(text) if text is not None else interpreter.load(PENTAGO, cache=False)
    fast, plain = load(True), load(False)
    played = sum(play_both(fast, plain, 2, seed, 60) for seed in range(3))
    with straight():
        played += play_both(fast, plain, 2, 7, 60)
    assert played > 12


TWO_DECISIONS = """ruleset twice
players 2..2
enum Turn { left, right }
var total: int = 0
var word: str = ""
turn {
  choose (k, w, d) from [(k, w, d) for k in 1..3 for w in ["up", "down"] for d in Turn if k != 2 or d == left] as "a"
  choose m from [k + 1, k + 2] as "b"
  let t = (k, w)
  if t == (3, "up") and d == right { total = total + 100 }
  total = total + m + t[0]
  word = w
}
end when total > 20
score(p) = total
"""


def _kernel_pair(make):
    rules = make()
    said: list[str] = []
    rules.use_native(report=said.append, kernel_only=True)
    return rules.for_players(2), make().for_players(2), said


@needs_kernel
# (walls, the longest to play, with the slow tests)
@pytest.mark.parametrize("name", ["pentago", pytest.param("walls", marks=pytest.mark.slow), "twice"])
def test_the_kernel_plays_tuples_as_python(name, monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    make = {"pentago": lambda: interpreter.load(PENTAGO, cache=False), "walls": lambda: _rules(WALLS),
            "twice": lambda: _rules(TWO_DECISIONS)}[name]
    fast, plain, said = _kernel_pair(make)
    assert fast.kernel, said
    moves = 0
    for seed in range(3):
        a, b = fast.new_game(2, seed), plain.new_game(2, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None, (seed, moves)
            assert [m.notation for m in a.legal_moves()] == [m.notation for m in b.legal_moves()]
            i = rnd.randrange(b.move_count())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
            moves += 1
        assert a.over and a.result == b.result
    assert moves > 8 and fast.native_fallbacks == 0


@needs_kernel
def test_a_tuple_among_moves_without_an_object_is_played_by_the_kernel(monkeypatch):
    # (it refused it once: no none of a tuple in C++; now Tup::none,
    # tests/test_kernel_nested_beside_verbs.py)
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    text = _turn('  choose t from [(k, "x") for k in 1..2] as "take" or "pass"\n'
                 '  if t != none { n = t[0] }')
    fast, _plain, said = _kernel_pair(lambda: _rules(text))
    assert fast.kernel and not any("no kernel" in x for x in said), said
    game = fast.new_game(2, 0)
    assert [m.notation for m in game.legal_moves()] == ["pass", "take 1 x", "take 2 x"]
    game.apply(2)   # take 2 x (by its index: the kernel plays it)
    assert game.live and game.over and game.state["vars"]["n"] == 2


@needs_kernel
def test_a_kernel_resumes_a_frame_that_holds_a_tuple(monkeypatch):
    # between the two decisions of a turn the frame holds the tuple chosen and its parts:
    # the kernel reads them from the Python state, plays on and gives them back alike
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    fast, plain, _ = _kernel_pair(lambda: _rules(TWO_DECISIONS))
    b = plain.new_game(2, 0)
    b.apply("a 3 up right")
    frame = b.state["stack"][-1]["L"]
    assert frame["$(k,w,d)@7:3"] == [3, "up", "right"] and frame["w"] == "up" and frame["d"] == "right"
    a = fast.resume(json.loads(b.to_json()))
    assert a.state == b.state and not a.live
    i = [m.notation for m in b.legal_moves()].index("b 5")
    for game in (a, b):
        game.apply(i)   # (by its index: the kernel takes over, reading the frame)
    assert a.live and kernel_difference(a.kernel_state(), b) is None and a.state == b.state
    assert b.state["vars"] == {"total": 108, "word": "up"}


# ---------------------------------------------------------------- pentago against OpenSpiel

QUADRANTS = ["NW", "NE", "SE", "SW"]   # OpenSpiel's rotations s..z: two per quadrant, in
TURNS = ["anticlockwise", "clockwise"]  # this order, anticlockwise first


def pentago_action(notation: str) -> int:
    """OpenSpiel's action: (cell × 4 + quadrant) × 2 + turn, the cell row × 6 + column
    from the top left (a1 = 0, f1 = 5, a2 = 6)."""
    m = re.fullmatch(r"place ([a-f])([1-6]) turn (\w+) (\w+)", notation)
    cell = (int(m[2]) - 1) * 6 + "abcdef".index(m[1])
    return (cell * 4 + QUADRANTS.index(m[3])) * 2 + TURNS.index(m[4])


def test_random_games_of_pentago_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    prog, spiel = interpreter.load(PENTAGO).for_players(2), pyspiel.load_game("pentago")
    st = spiel.new_initial_state()
    first = prog.new_game(2, 0).legal_moves()
    # the encoding names the moves OpenSpiel's strings name (a1s: a1, the top left quadrant
    # turned anticlockwise)
    assert {st.action_to_string(pentago_action(m.notation)) for m in first} == \
        {st.action_to_string(a) for a in st.legal_actions()}
    assert st.action_to_string(pentago_action("place a1 turn NW anticlockwise")) == "a1s"
    rnd = random.Random(0)
    outcomes: dict[tuple, int] = {}
    for g in range(20):
        game, st = prog.new_game(2, g), spiel.new_initial_state()
        while not st.is_terminal():
            assert not game.over and game.active_player == st.current_player(), str(st)
            legal = game.legal_moves()
            assert sorted(pentago_action(m.notation) for m in legal) == st.legal_actions(), str(st)
            m = legal[rnd.randrange(len(legal))]
            game.apply(m)
            st.apply_action(pentago_action(m.notation))
        assert game.over, str(st)
        assert game.result["outcomes"] == ["win" if x > 0 else "loss" if x < 0 else "draw" for x in st.returns()]
        outcomes[tuple(st.returns())] = outcomes.get(tuple(st.returns()), 0) + 1
    assert len(outcomes) >= 2   # both seats won some


# ---------------------------------------------------------------- the adapters' action ids

@pytest.mark.parametrize("native", [False, True], ids=["python", "kernel"])
def test_openspiel_numbers_tuple_moves_by_their_parts_in_a_block_of_their_own(native, monkeypatch):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    import meeple.openspiel as mo
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    game = mo.load(PENTAGO, players=2, native=native)
    space = game.space
    start = space.offsets["tuple(cell,str,enum:Quadrant,enum:Turn)"]
    # parts: 36 cells (+ none), the word "turn" (+ none), 4 quadrants (+ none), 2 turns (+ none)
    assert space.ordinal == start + 37 * 2 * 5 * 3
    state = game.new_initial_state()
    legal = state.legal_actions()
    assert len(legal) == 288 and legal[:3] == [start, start + 1, start + 3]
    for a in legal:
        m = re.fullmatch(r"place ([a-f])([1-6]) turn (\w+) (\w+)", state.action_to_string(a))
        cell = (int(m[2]) - 1) * 6 + "abcdef".index(m[1])
        assert a == start + ((cell * 2 + 0) * 5 + QUADRANTS.index(m[3])) * 3 + TURNS.index(m[4])
    state.apply_action(start + ((8 * 2) * 5 + 2) * 3 + 1)            # c2, SE, clockwise
    assert start + ((8 * 2) * 5 + 2) * 3 + 1 not in state.legal_actions()
    assert state.history_str().split()[0] == str(start + ((8 * 2) * 5 + 2) * 3 + 1)
    assert space.label(start + ((8 * 2) * 5 + 2) * 3 + 1) == "c2 turn SE clockwise"
    assert isinstance(game, pyspiel.Game)


def test_a_tuple_with_a_part_of_numbers_takes_ordinal_ids():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    import meeple.openspiel as mo
    text = _turn('  choose (d, k) from [(d, k) for k in [2, 1] for d in [right, left]] as "pick"\n  n = k')
    game = mo.load(_rules(text), players=2, native=False)
    assert game.space.tuples == {}
    state = game.new_initial_state()
    assert state.legal_actions() == [game.space.ordinal + k for k in range(4)]
    assert state.action_to_string(state.legal_actions()[1]) == "pick left 2"


def test_pettingzoo_masks_tuple_moves_by_the_same_ids():
    pytest.importorskip("pettingzoo", reason="PettingZoo (pettingzoo) is not installed")
    import meeple.pettingzoo as mp
    env = mp.env(PENTAGO, players=2, native=False)
    env.reset(seed=0)
    space = env.unwrapped.space
    start = space.offsets["tuple(cell,str,enum:Quadrant,enum:Turn)"]
    obs, _, _, _, _ = env.last()
    legal = [int(a) for a in obs["action_mask"].nonzero()[0]]
    assert len(legal) == 288 and legal[:2] == [start, start + 1]
    env.step(start + ((8 * 2) * 5 + 2) * 3 + 1)   # c2 turn SE clockwise, as OpenSpiel's id
    obs, _, _, _, _ = env.last()
    assert len(obs["action_mask"].nonzero()[0]) == 280
