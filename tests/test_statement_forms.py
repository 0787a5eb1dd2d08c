"""Every statement form of the language is implemented by every engine: one ruleset uses
each form of the grammar (``_stmt`` of dsl/grammar.lark) and of the IR (``ast.Stmt``),
the lowering into the core (``core.lower``) has its rule, the lowered ruleset holds every
kind of instruction of the core (``core.ops``), and every engine has its rule for each
kind (``engines``: the reference's meaning, the fused Python's handling, the kernel's C++
printer; the Cython path compiles what the Python engines run), a kind none knows being
refused where it is met, never left to a default; the kernel writes the ruleset without
falling back to Python, and the straightforward code, the fast code, the native path's
code and the kernel play it the same, move after move (a ``choose`` with several
verbs alone and a second name among them). The ruleset also keeps
the value of every built-in of tests/test_builtins.py (``USES``) at every turn: one
kernel, built once, plays every statement form and every built-in against Python."""
from __future__ import annotations

import random
import re
import typing

import pytest
from lockstep import kernel_difference, play_both
from meeple.dsl import ast as ir, parse as dsl_parse
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import compile_sources
from meeple.interpreter.compiler import codegen, fused
from meeple.interpreter.compiler.compile import Program
from meeple.interpreter.core import lower, ops, reference
from meeple.interpreter.native import cython_code, kernel
from test_builtins import USES, first_value

from meeple import interpreter

# each statement form of the grammar: its IR node, and its use in RULES below
FORMS = {
    "let_stmt": ("Let", "let k = 1"),
    "assign_stmt": ("Assign", "k = k + 1"),
    "attr_assign_stmt": ("AttrAssign", "c.marks = c.marks + 1"),
    "index_assign_stmt": ("IndexAssign", "row[rounds % 3] = row[rounds % 3] + k"),
    "aug_assign_stmt": ("Assign", "total += 1"),
    "if_stmt": ("If", "if k > 5 {"),
    "for_stmt": ("For", "for c in items(hand(active))"),
    "while_stmt": ("While", "while k < 4 max 10"),
    "choose_stmt": ("Choose", 'choose c from items(hand(active)) as "play"'),
    "choose_tuple_stmt": ("Choose", 'choose (spot, _, hue) from [(g, "in", h) for h in Colour if h != c.colour] as "mark"'),
    "choose_each_stmt": ("ChooseEach", "choose bid(p) from items(hand(p)) for each p in players"),
    "choose_subset_stmt": ("ChooseSubset", "choose keep subset of items(hand(active))"),
    "best_stmt": ("Best", "best w in players by seat(w) + bid(w).v tie first"),
    "move_stmt": ("Move", "move c to shown face down"),
    "flip_stmt": ("Flip", "flip c face up"),
    "shuffle_stmt": ("Shuffle", "shuffle pile"),
    "deal_stmt": ("Deal", "deal 3 from pile to hand"),
    "fill_stmt": ("Fill", "fill grid from pile"),
    "random_stmt": ("PickRandom", "pick x at random from [1, 2, 3]"),
    "roll_stmt": ("Roll", "roll d from 1..6"),
    "log_stmt": ("Log", 'log noted "{c.v}"'),
    "call_stmt": ("CallProc", "call note(c)"),
    "end_game_stmt": ("EndGame", "end game"),
    "reveal_stmt": ("Reveal", "reveal hand(w)"),
    "reveal_to_stmt": ("RevealTo", "reveal top(hand(w)) to players[seat(w) % 2]"),
    "return_stmt": ("Return", "return n + 1"),
    "let_call_stmt": ("CallResult", "let r = call add(d + x)"),
    "assign_call_stmt": ("CallResult", "total = call add(total)"),
    "make_stmt": ("Make", "make Card at shown face down with marks = k"),
    "remove_item_stmt": ("RemoveItem", "remove top(shown)"),
    "permute_stmt": ("Permute", "permute cells(grid) to [cells(grid)[3 - i] for i in 0..3]"),
}

RULES = """ruleset stmts
players 2..2
enum Colour { red, green, blue }
kind Card { colour: Colour, v: int, var marks: int = 0, var tags: list of int = [0, 0] }
board grid: grid(rows: 2, cols: 2) holds Card
board side: edges(of: grid) holds Card
zone pile: Card
zone hand: Card per player
zone shown: Card public
deck cards into pile { Card(colour: k, v: n) for k in Colour for n in 1..6 }
supply extra: 2 of Card(colour: green, v: 9)
var total: int = 0
var rounds: int = 0
var bid: Card per player = none
var row: list of int = [0, 0, 0]
var mine: list of int per player = [0, 0]
var gained: int per player = 0
var flags: list of bool = [false, true]
var words: list of str = ["a", "b"]
var square: list of list of int = [[0, 0], [0, 0]]
{uses_vars}
procedure add(n: int): int {
  if n > 100 {
    return 0
  }
  return n + 1
}
procedure note(c: Card) {
  c.marks = c.marks + 1
  log noted "{c.v}"
}
setup {
  shuffle pile
  deal 3 from pile to hand
  fill grid from pile
}
turn {
  let k = 1
  k = k + 1
  if k > 5 { total = total + k } elif k > 1 { total = total + 1 } else { total = 0 }
  for c in items(hand(active)) { call note(c) }
  while k < 4 max 10 { k = k + 1 }
  choose c from items(hand(active)) as "play"
  choose spare, how from items(hand(active)) as "spare" or "skip" or "stop"
  if how == "skip" { total += 1 } elif how == "spare" { spare.marks += 1 }
  choose keep subset of items(hand(active)) where size(keep) <= 1 as "keep"
  choose bid(p) from items(hand(p)) for each p in players as "bid"
  best w in players by seat(w) + bid(w).v tie first
  bid(w) = c
  active = active
  move c to shown face down
  flip c face up
  if occupied(hand(w)) { reveal top(hand(w)) to players[seat(w) % 2] }
  reveal hand(w)
  pick x at random from [1, 2, 3]
  roll d from 1..6
  let r = call add(d + x)
  total = call add(total)
  let g = cells(grid)[rounds % 4]
  choose (spot, _, hue) from [(g, "in", h) for h in Colour if h != c.colour] as "mark"
  if spot == g and hue != c.colour { total += 1 }
  let xs = items(hand(active)) + top(pile, 3)
  let ns = [y.v for y in xs]
  let names = [if y.v > 2 then "b" else "a" for y in xs]
  row[rounds % 3] = row[rounds % 3] + k
  mine(active)[1] = mine(active)[1] + d
  square[rounds % 2][x % 2] = square[rounds % 2][x % 2] + size([a for a in ns if a > 1 for b in ns if b != a])
  c.tags[x % 2] = c.tags[x % 2] + 1
  total += 1
  gained(w) -= 1
  c.marks += d
  top(shown).marks -= 1
  row[k % 3] += 2
  square[0][1] -= 1
  flags[rounds % 2] = not flags[rounds % 2]
  words[x % 2] += "x"
  make Card at shown face down with marks = k
  remove top(shown)
  permute cells(grid) to [cells(grid)[3 - i] for i in 0..3]
{uses}
  rounds = rounds + 1
  if occupied(pile) { deal 1 from pile to hand }
  if rounds == 5 { end game }
}
end when false
score(p) = total + seat(p)
""".replace("{uses_vars}", "\n".join(f"var r{i}: {t} = {first_value(t)}" for i, (_, t) in enumerate(USES))) \
   .replace("{uses}", "\n".join(f"  r{i} = {e}" for i, (e, _) in enumerate(USES)))


def _source() -> SourceSet:
    return SourceSet(base=parse(RULES, "stmts.meeple"), sources={"stmts.meeple": RULES})


def _grammar_forms() -> set[str]:
    text = dsl_parse.GRAMMAR.read_text(encoding="utf-8")
    rule = re.search(r"^_stmt:(.*?)(?=^\S|\n\n)", text, re.MULTILINE | re.DOTALL).group(1)
    return set(re.findall(r"\w+", rule))


def test_every_statement_form_of_the_grammar_is_listed_and_used():
    assert set(FORMS) == _grammar_forms()
    for _node, use in FORMS.values():
        assert use in RULES, use
    tree = dsl_parse.parser().parse(RULES, start="start")
    used = {t.data for t in tree.iter_subtrees()}
    assert set(FORMS) <= used, set(FORMS) - used


def _ir_forms() -> set[str]:
    """The statement nodes of the IR (the members of ``ast.Stmt``)."""
    union = typing.get_args(ir.Stmt)[0]
    return {cls.model_fields["node"].default for cls in typing.get_args(union)}


def _kernel_prints(kind: type) -> bool:
    try:
        return callable(kernel.Proc.printer(kind))
    except TypeError:
        return False


def engines() -> dict[str, set]:
    """Each engine and the kinds of instruction it has a rule for."""
    python, fast = set(reference.MEANING), set(fused.HANDLING)
    return {"reference (core/reference.py MEANING)": python,
            "fused Python (fused.py HANDLING)": fast,
            "kernel (kernel.Proc.printer)": {k for k in ops.KINDS if _kernel_prints(k)},
            # Cython writes no statement of its own: it compiles the texts the Python
            # program runs (fused runs, expressions), the other instructions run by their
            # reference (see the native path's test below)
            "Cython (cython_code.py: the fused texts and the reference)": python & fast}


def test_every_statement_form_lowers_and_every_engine_handles_every_instruction():
    nodes = {node for node, _ in FORMS.values()}
    assert nodes == _ir_forms()
    missing = sorted(n for n in nodes if not callable(getattr(lower._Lowerer, "_" + n, None)))
    assert not missing, missing
    kinds = set(ops.KINDS)
    for engine, handled in engines().items():
        assert handled == kinds, (engine, sorted(k.__name__ for k in kinds - handled))


class _Nudge(ops.SetActive):
    """A kind of instruction no engine knows (``active = ...`` under another name)."""


def test_a_kind_of_instruction_no_engine_knows_is_refused_where_it_is_met(monkeypatch):
    # the ruleset lowered with _Nudge, a new kind of the core, for 'active = ...'
    monkeypatch.setattr(ops, "KINDS", (*ops.KINDS, _Nudge))
    emit = lower._Lowerer.emit
    monkeypatch.setattr(lower._Lowerer, "emit",
                        lambda self, cls, s, **fields: emit(self, _Nudge if cls is ops.SetActive else cls, s, **fields))
    assert [engine for engine, handled in engines().items() if _Nudge in handled] == []
    with pytest.raises(MeepleError, match=r"KeyError: <class '\S*_Nudge'>"):   # no meaning in the reference
        compile_sources(_source())
    monkeypatch.setitem(reference.MEANING, _Nudge, reference.MEANING[ops.SetActive])
    with pytest.raises(MeepleError, match=r"TypeError: fused\.py has no rule for the instruction _Nudge"):
        compile_sources(_source())
    monkeypatch.setitem(fused.HANDLING, _Nudge, fused.BY_REFERENCE)
    prog = compile_sources(_source()).for_players(2)
    assert any(type(i) is _Nudge for p in prog.procs.values() for i in p.core)
    with pytest.raises(TypeError, match=r"kernel\.Proc prints no instruction _Nudge"):
        kernel.Gen(prog).source()   # (not Unsupported: the kernel leaves no kind to Python)


def test_the_core_has_the_meaning_of_every_instruction_and_the_ruleset_uses_each():
    kinds = set(ops.KINDS)
    assert kinds == {c for c in vars(ops).values() if isinstance(c, type) and issubclass(c, ops.Ins)
                     and c not in (ops.Ins, ops.Draw)}
    prog = compile_sources(_source()).for_players(2)
    used = {type(i) for p in prog.procs.values() for i in p.core}
    assert used == kinds, kinds - used
    for p in prog.procs.values():   # every jump lands in the procedure (its end included)
        assert all(0 <= t <= len(p.core) for i in p.core for t in i.jumps), p.name


def test_the_kernel_writes_every_statement_form_without_python():
    prog = compile_sources(_source()).for_players(2)
    kernel.Gen(prog).source()   # (raises Unsupported where the kernel does not cover a form)


def test_the_straightforward_and_the_fast_code_play_every_statement_form_alike(monkeypatch):
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = compile_sources(_source())
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = compile_sources(_source())
    for seed in (1, 2):
        assert play_both(fast, plain, 2, seed, 200) > 10


def test_the_native_path_serves_the_fused_code_of_every_statement_form_and_plays_it():
    # the program compiled as the native path does, its pieces served by a stand-in of
    # the Cython module (the recorded texts, run as Python: no build): the second compile
    # finds every fused run and expression it asks for, and plays as plain Python
    from test_native import Replay
    rules = compile_sources(_source())
    pieces = cython_code.Pieces()
    first = Program(rules.checked, 2, rules.budgets, None, native=pieces)
    served = cython_code.Served(Replay(pieces), pieces, first)
    second = Program(rules.checked, 2, rules.budgets, None, native=served)   # (NativeError: a piece missed)
    module = {id(f) for d in served.served.values() if isinstance(d, dict) for f in d.values()}
    runs = [f for p in second.procs.values() for f in p.code if f.__name__.startswith("FUSED_")]
    assert runs and all(id(f) in module for f in runs)
    plain = Program(rules.checked, 2, rules.budgets, None)
    for seed in (1, 2):
        assert play_both(second, plain, 2, seed, 200) > 10


@pytest.mark.kernels
@pytest.mark.skipif(interpreter.kernel_status() is not None, reason="no kernel can be built here")
def test_the_kernel_plays_every_statement_form_and_builtin_as_python(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = compile_sources(_source())
    assert rules.use_native(report=False)
    prog, plain = rules.for_players(2), compile_sources(_source()).for_players(2)
    assert prog.kernel
    for seed in (1, 2):
        a, b, rnd = prog.new_game(2, seed), plain.new_game(2, seed), random.Random(seed)
        while not b.over:
            assert kernel_difference(a.kernel_state(), b) is None
            seat = b.deciding[0]
            i = rnd.randrange(len(b.legal_moves(seat)))
            a.apply(a.legal_moves(seat)[i], seat=seat)
            b.apply(b.legal_moves(seat)[i], seat=seat)
        assert a.state == b.state and a.result == b.result
    assert prog.native_fallbacks == 0
