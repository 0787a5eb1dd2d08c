"""Counting move paths ("perft"): how many sequences of exactly ``depth`` decisions lead on
from a position. A path on which the game ends before ``depth`` decisions is not counted
(as in chess perft, where a mate has no moves). Published counts (chess: 20, 400,
8,902...) check a ruleset's move generation.

In a simultaneous decision each seat's choice is one decision: the paths take the seats
still to choose in the order they are asked (``legal_moves()`` is the first one's), so
two seats choosing among 3 give 3 paths of one decision and 9 (the joint choices) of two.
The order changes no count: the game after all the choices is the same whatever the order."""
from __future__ import annotations

from typing import Callable

from .runtime import Game


def perft(game: Game, depth: int) -> int:
    """The number of move paths of ``depth`` decisions from ``game`` (left unchanged)."""
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    return _count(game, depth)


def divide(game: Game, depth: int,
           on_move: Callable[[str, int], None] | None = None) -> dict[str, int]:
    """Per legal first move (its notation), the number of paths of ``depth`` decisions
    that begin with it (``depth`` >= 1; their sum is ``perft(game, depth)``). ``on_move``
    is told each first move and its count as it is done."""
    if depth < 1:
        raise ValueError("divide needs a depth of 1 or more")
    counts: dict[str, int] = {}
    for move in game.legal_moves():
        child = game.copy()
        child.apply(move.index)
        counts[move.notation] = n = _count(child, depth - 1)
        if on_move:
            on_move(move.notation, n)
    return counts


def _count(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    if game.over:
        return 0
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.copy()
        child.apply(move.index)
        total += _count(child, depth - 1)
    return total
