"""One visibility rule: whether a seat may see an item is written once, in
``interpreter/play/views.py`` (``seat_sees``, and ``can_see`` built on it); views, the leak
check, the invariants and determinization ask it there instead of keeping their own
copy, which could drift from it and show a seat what its view hides."""
from __future__ import annotations

import ast
from pathlib import Path

from meeple.interpreter.analysis import testing
from meeple.interpreter.play import views

from meeple import interpreter

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "interpreter" / "play" / "views.py"
SOURCES = sorted(p for d in ("dsl", "interpreter", "cli", "meeple") for p in (ROOT / d).rglob("*.py"))
#: names a copy of the rule would be given
NAMES = {"can_see", "_can_see", "seat_sees", "_seat_sees", "item_visible"}


def _calls(node: ast.AST) -> set[str]:
    return {n.func.attr for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}


def _copies(path: Path) -> list[str]:
    """Where the module defines a visibility function of its own at its top level, or
    spells the rule out (public_item or sees_item in one condition). A module whose text
    names neither (no name of NAMES, not both calls) has none: it is not parsed."""
    text = path.read_text(encoding="utf-8")
    if not any(name in text for name in NAMES) and not ("public_item" in text and "sees_item" in text):
        return []
    tree = ast.parse(text)
    found = [f"def {n.name} (line {n.lineno})" for n in tree.body
             if isinstance(n, ast.FunctionDef) and n.name in NAMES]
    found += sorted({f"the rule spelled out (line {n.lineno})" for n in ast.walk(tree)
                     if isinstance(n, ast.BoolOp) and {"public_item", "sees_item"} <= _calls(n)})
    return found


def test_the_rule_is_written_in_views_only():
    assert _copies(HOME), "views.py no longer holds the rule: update this test"
    copies = {str(p.relative_to(ROOT)): c for p in SOURCES if p != HOME and (c := _copies(p))}
    assert copies == {}, f"a copy of the visibility rule outside views.py: {copies}"


def test_can_see_agrees_with_the_view_for_every_seat_and_item():
    game = interpreter.Game.new(interpreter.load("hearts").for_players(4), 4, 3)
    loc = game.state["loc"]
    for seat in (0, 1, views.SPECTATOR):
        sees = views.can_see(game, seat)
        shown = views.visible_items(game, seat)
        for item in range(len(loc)):
            assert sees(item) == views.item_visible(game, item, seat)
            assert (item in shown) == (loc[item] >= 0 and sees(item))
    assert views.can_see(game, "all") is None
    # a seat sees its own hand and not another's; the spectator sees neither
    hand = testing.at(game, "hand:0")
    assert hand and [all(views.can_see(game, s)(i) for i in hand) for s in (0, 1, -1)] == [True, False, False]
