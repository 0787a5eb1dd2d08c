"""``knows(p, item)`` (issue 37): whether a player may see an item now, by the rule
views follow (docs/language.md 10.4): face down, only the player it lies face down
for; else its place's visibility (public, owner, hidden), or its place revealed.

- Its values agree with the views' (``views.view``) at every step of random games.
- A wrong argument is a located check error; a none player or item a rule error.
- The straightforward code, the fast code and the kernel give the same values."""
from __future__ import annotations

import random

import pytest
from kernel_support import needs_kernel
from lockstep import play_both, straight
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, compile_sources
from meeple.interpreter.compiler import codegen
from meeple.interpreter.views import view

RULES = """ruleset knows
players 2..3
kind Card { value: int }
zone pile: Card hidden
zone hand: Card per player
zone table: Card
deck cards into pile { Card(value: v) for v in 1..12 }
var known: list of list of bool = []
var opened: bool = false
setup { shuffle pile  deal 2 from pile to hand }
turn {
  known = [[knows(p, c) for c in items(pile) + items(table)] for p in players]
    + [[knows(p, c) for c in items(hand(q))] for p in players for q in players]
  choose how from [1, 2, 3, 4] as "do"
  if how == 1 and occupied(pile) { move top(pile) to table face down for active }
  elif how == 2 and occupied(pile) { move top(pile) to table face down }
  elif how == 3 and occupied(table) { flip top(table) face up }
  elif how == 4 and not opened { reveal hand(active)  opened = true }
  elif occupied(hand(active)) { move top(hand(active)) to table }
}
end when turn_number() > 12 or empty(hand(active))
"""


def _rules(text: str = RULES):
    return compile_sources(SourceSet(base=parse(text, "rules.meeple"), sources={"rules.meeple": text}))


def _places(game) -> list[list[int]]:
    """The items ``known`` asks about, in its order, for each of its rows."""
    zones, prog, n = game.state["zones"], game.program, game.players
    zone = {z.key: z.id for z in prog.zones}
    shared = list(zones[zone["pile"]]) + list(zones[zone["table"]])
    return [shared] * n + [list(zones[zone[f"hand:{q}"]]) for _p in range(n) for q in range(n)]


def _seen_in_view(game, seat: int, item: int) -> bool:
    """Whether the seat's view shows the item as itself (not as hidden, not a count)."""
    zones = view(game, seat)["zones"]
    return any(isinstance(content, list) and item in content for content in zones.values())


def test_knows_is_what_each_view_shows():
    rules = _rules()
    checked = 0
    for seed in range(6):
        game = rules.new_game(2 + seed % 2, seed)
        rnd = random.Random(seed)
        while not game.over:
            rows, places = game.state["vars"]["known"], _places(game)
            n = game.players
            for r, (values, items) in enumerate(zip(rows, places)):
                p = r if r < n else (r - n) // n
                assert values == [_seen_in_view(game, p, i) for i in items], (seed, r)
                checked += len(values)
            game.apply(rnd.randrange(game.move_count()))
    assert checked > 300


def test_a_card_is_known_as_its_place_and_face_say():
    game = _rules().new_game(2, 0)
    known = game.state["vars"]["known"]
    # the pile: nobody; each hand: only its owner
    assert known[0] == known[1] == [False] * 8
    assert known[2:] == [[True, True], [False, False], [False, False], [True, True]]
    game.apply("do 1")    # the top card, face down for player 1, onto the table
    game.apply("do 4")    # player 2 reveals their hand
    known = game.state["vars"]["known"]
    assert known[0][-1] is True and known[1][-1] is False
    assert known[3] == [True, True] and known[5] == [True, True]   # player 2's hand: everyone


@pytest.mark.parametrize("call, column, words", [
    ("knows(1, top(pile))", 13, "expected player, found int"),
    ("knows(active, hand(active))", 21, "an item"),
    ("knows(active)", 7, "'knows' takes 2 argument(s), 1 given"),
])
def test_a_wrong_argument_is_a_located_error(call, column, words):
    text = RULES.replace("var opened: bool = false", "var opened: bool = false\nvar k: bool = false") \
        .replace("  choose how", f"  k = {call}\n  choose how")
    with pytest.raises(MeepleError) as raised:
        _rules(text)
    d = raised.value.diagnostics[0]
    assert words in d.message and (d.span.line, d.span.column) == (15, column), d


@pytest.mark.parametrize("call", ["knows(active, top(table))", "knows(none_seat, top(pile))"])
def test_none_is_a_rule_error(call):
    text = RULES.replace("var opened: bool = false",
                         "var opened: bool = false\nvar k: bool = false\nvar none_seat: player = none") \
        .replace("  choose how", f"  k = {call}\n  choose how")
    with pytest.raises(RuleError, match="a value is missing"):
        _rules(text).new_game(2, 0)


def test_the_straightforward_and_the_fast_code_agree(monkeypatch):
    def load(optimize: bool):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        monkeypatch.setattr(codegen, "STRICT", optimize)
        return _rules()
    fast, plain = load(True), load(False)
    played = sum(play_both(fast, plain, 2 + seed % 2, seed, 40) for seed in range(3))
    with straight():
        played += play_both(fast, plain, 3, 7, 40)
    assert played > 20


@needs_kernel
def test_the_kernel_knows_as_python(monkeypatch):
    monkeypatch.delenv("MEEPLE_KERNEL", raising=False)
    rules = _rules()
    said: list[str] = []
    rules.use_native(report=said.append, kernel_only=True)
    fast, plain = rules.for_players(3), _rules().for_players(3)
    assert fast.kernel, said
    for seed in range(4):
        a, b = fast.new_game(3, seed), plain.new_game(3, seed)
        rnd = random.Random(seed)
        while not b.over:
            assert a.state["vars"] == b.state["vars"]
            i = rnd.randrange(b.move_count())
            a.apply(i, safe=False)
            b.apply(i, safe=False)
        assert a.state["vars"] == b.state["vars"] and a.result == b.result
    assert fast.native_fallbacks == 0
