"""The helpers for ruleset authors' tests (meeple.interpreter.testing)."""
from __future__ import annotations

from meeple.interpreter.analysis import testing

from meeple import interpreter

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


TWINS = PILE.replace("for v in 1..5 }", "for v in 1..5 }\ndeck spares into other { Card(value: 3) }")


def test_item_says_when_items_look_alike_and_nth_picks_one(tmp_path):
    import pytest
    f = tmp_path / "twins.meeple"
    f.write_text(TWINS.replace("ruleset pile", "ruleset twins"), encoding="utf-8")
    prog = interpreter.load(str(f))
    both = testing.items(prog, value=3)
    assert len(both) == 2
    with pytest.raises(LookupError, match=r"2 items match item value=3, they look alike: "
                                          r"pick one with nth=0\.\.1"):
        testing.item(prog, value=3)
    assert [testing.item(prog, value=3, nth=k) for k in (0, 1)] == both
    with pytest.raises(LookupError, match="nth=2: 2 item"):
        testing.item(prog, value=3, nth=2)
    with pytest.raises(LookupError, match="no item matches Card value=9"):
        testing.item(prog, "Card", value=9)
    assert testing.item(prog, value=4) == testing.items(prog, value=4)[0]
