"""A seat's next decision, reached before the others have made theirs: so that at one
keyboard a seat makes all the choices it is still to make in one go (Hearts' three
cards to pass), when nothing it may not see happens between them.

Between two decisions of a seat, other seats may have to choose in secret (the other
players' cards to pass, in a simultaneous decision). What they choose is hidden from the
seat; if nothing else happens that the seat would see, its next decision looks the same
to it whatever they choose, and it may make it at once. ``ahead`` finds that decision on
two copies of the game, the other seats' secret choices filled in one way on the one
(each their first legal move) and another way on the other (each their last), and gives
them only when the seat's views of both are the same (but for who is still to choose),
no item came into its sight and no chance step was taken on the way. The choice made on
them is played in the game itself once the others have chosen, and only when the seat's
view then is what it was shown (``plan_key``); otherwise the seat is asked again.
"""
from __future__ import annotations

import json

from .game import Game
from .runtime import revealed_since
from .views import view

MAX_FILLS = 64   # secret choices filled in at most before giving up on reaching the seat


def plan_key(game: Game, seat: int) -> str:
    """What a choice made ahead depends on: the seat's view of the game (its moves
    among it), but for who is still to choose in a simultaneous decision."""
    v = view(game, seat)
    pending = v.get("pending")
    if pending:
        pending.pop("waiting", None)
        pending.pop("player", None)
    return json.dumps(v, sort_keys=True)


def ahead(games: tuple[Game, Game], seat: int) -> tuple[Game, Game] | None:
    """``games`` (two copies of a game, alike as ``seat`` sees them) played on to the
    seat's next decision, the other seats' secret choices filled in: each their first
    legal move on the first copy, their last on the second. None when the way there is
    not only the others' secret choices, when the seat would see something new (an
    item, a chance result) or the copies differ for it. The copies are changed."""
    first, last = games
    marks = {"rng": first.state["rng"], "seen": list(first.state["seen"]),
             **({"chance": {"n": first.state["chance"]["n"]}} if "chance" in first.state else {})}
    for game, pick in ((first, 0), (last, -1)):
        if not _fill(game, seat, pick):
            return None
    if revealed_since(marks, first.state, seat) or revealed_since(marks, last.state, seat):
        return None
    if plan_key(first, seat) != plan_key(last, seat):
        return None
    return first, last


def _fill(game: Game, seat: int, pick: int) -> bool:
    """Plays the other seats' secret choices (each its move number ``pick``) until the
    seat alone is to choose; False when something else comes first (an ordinary
    decision of another seat, the end of the game, a chance step)."""
    for _ in range(MAX_FILLS):
        if game.over or game.at_chance or not game.simultaneous:
            return False
        others = [s for s in game.deciding if s != seat]
        if not others:
            return seat in game.deciding
        other = others[0]
        moves = game.legal_moves(other)
        if not moves:
            return False
        game.apply(moves[pick], seat=other)
    return False
