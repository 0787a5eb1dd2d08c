"""The helpers for ruleset authors' tests (meeple.interpreter.testing)."""
from __future__ import annotations

from meeple import interpreter
from meeple.interpreter import testing

PILE = """ruleset pile
players 2..2
kind Card { value: int }
zone pile: Card public
zone other: Card public
deck cards into pile { Card(value: v) for v in 1..5 }
var done: bool = false
turn { done = true }
end when done
"""


def _prog(tmp_path):
    f = tmp_path / "pile.meeple"
    f.write_text(PILE, encoding="utf-8")
    return interpreter.load(str(f))


def test_position_puts_the_listed_items_in_the_order_given_even_in_their_own_zone(tmp_path):
    prog = _prog(tmp_path)
    c = {v: testing.item(prog, value=v) for v in range(1, 6)}
    # the deck put 1..5 into pile; ask for 3 on 5 on 1 there, 2 elsewhere: 4 stays below
    game = testing.position(prog, players=2, zones={"pile": [c[3], c[5], c[1]], "other": c[2]})
    pile = game.state["zones"][testing.zone(game.program, "pile")]
    assert pile == [c[4], c[3], c[5], c[1]]            # the last listed is on top
    assert game.state["zones"][testing.zone(game.program, "other")] == [c[2]]
    reversed_order = testing.position(prog, players=2, zones={"pile": [c[5], c[4], c[3], c[2], c[1]]})
    assert reversed_order.state["zones"][testing.zone(reversed_order.program, "pile")] == \
        [c[5], c[4], c[3], c[2], c[1]]
