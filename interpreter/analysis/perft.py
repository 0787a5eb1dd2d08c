"""Counting move paths ("perft"): how many sequences of exactly ``depth`` decisions lead on
from a position. A path on which the game ends before ``depth`` decisions is not counted
(as in the usual perft, where a position that ends the game has no moves). Published
counts (a game's perft at depths 1, 2, 3...) check a ruleset's move generation.

In a simultaneous decision each seat's choice is one decision: the paths take the seats
still to choose in the order they are asked (``legal_moves()`` is the first one's), so
two seats choosing among 3 give 3 paths of one decision and 9 (the joint choices) of two.
The order changes no count: the game after all the choices is the same whatever the order."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from ..play.game import Game


def perft(game: Game, depth: int, chance: bool = False) -> int:
    """The number of move paths of ``depth`` decisions from ``game`` (left unchanged).
    With ``chance`` (a game in explicit chance mode), every chance outcome met on the
    way is a branch too, one that does not count as a decision."""
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    if not chance:
        counted = _in_kernel(game, depth)
        if counted is not None:
            return counted
    return _walking(game, _count_chance if chance else _count, depth)


def _in_kernel(game: Game, depth: int) -> int | None:
    """The count made by the game's kernel on copies of its state (interpreter/native/kgame.py),
    or None where the game is not played by one, or the kernel cannot decide a move on
    the way (a rule error, a budget: the moves are then played in Python)."""
    if not _live(game):
        return None
    counted = _kernel(game).perft(depth)
    if counted is None:
        game.program._kernel.fallbacks += 1
    return counted


def _kernel(game: Game):
    """The kernel's state of a game a kernel plays (interpreter/native/kgame.py)."""
    return game._k


def _live(game: Game) -> bool:
    """Whether a kernel plays ``game`` now, taking it over where it can (a game resumed
    from a state, built with ``testing.position``...: interpreter/native/kgame.py)."""
    go_live = getattr(game, "go_live", None)
    return go_live is not None and go_live()


def _walking(game: Game, count, depth: int) -> int:
    """``count(game, depth)``, which walks the tree by playing moves and taking them back
    (``undo``); after a rule error on the way too, the game is left as it was."""
    played = game.can_undo
    try:
        return count(game, depth)
    finally:
        while game.can_undo > played:
            game.undo()


def _count_chance(game: Game, depth: int) -> int:
    if game.at_chance:
        total = 0
        for o in game.chance_outcomes():
            game.apply_chance(o.index)
            total += _count_chance(game, depth)
            game.undo()
        return total
    if depth == 0:
        return 1
    if game.over:
        return 0
    total = 0
    for move in game.legal_moves():
        game.apply(move.index)
        total += _count_chance(game, depth - 1)
        game.undo()
    return total


def histories(game: Game, max_entries: int = 10_000) -> Iterator[tuple[list, Fraction, Game]]:
    """Every history from ``game`` (in explicit chance mode) to the end of the game:
    its entries (move notations, and chance outcomes as ``{"chance": notation}``, as a
    record writes them), the exact probability of its chance outcomes (decisions count
    as 1), and the finished game. Raises ValueError on a history longer than
    ``max_entries`` (a game that need not end)."""
    stack: list[tuple[Game, list, Fraction]] = [(game, [], Fraction(1))]
    while stack:
        g, path, p = stack.pop()
        if g.over:
            yield path, p, g
            continue
        if len(path) >= max_entries:
            raise ValueError(f"a history is longer than {max_entries} entries")
        if g.at_chance:
            for o in reversed(g.chance_outcomes()):
                child = g.copy()
                child.apply_chance(o.index)
                stack.append((child, path + [{"chance": o.notation}], p * o.probability))
        else:
            for m in reversed(g.legal_moves()):
                child = g.copy()
                child.apply(m.index)
                stack.append((child, path + [m.notation], p))


def divide(game: Game, depth: int,
           on_move: Callable[[str, int], None] | None = None) -> dict[str, int]:
    """Per legal first move (its notation), the number of paths of ``depth`` decisions
    that begin with it (``depth`` >= 1; their sum is ``perft(game, depth)``). ``on_move``
    is told each first move and its count as it is done."""
    if depth < 1:
        raise ValueError("divide needs a depth of 1 or more")
    counts: dict[str, int] = {}
    moves = game.legal_moves()
    done = 0
    while done < len(moves):
        # (played by a kernel: a batch of first moves counted in one call)
        batch = _divided_in_kernel(game, depth, done, done + DIVIDE_BATCH)
        if batch is None:   # (Python counts the rest)
            break
        for move, n in zip(moves[done:done + len(batch)], batch):
            counts[move.notation] = n
            if on_move:
                on_move(move.notation, n)
        done += len(batch)
    for move in moves[done:]:
        game.apply(move.index)
        try:
            counts[move.notation] = n = _walking(game, _count, depth - 1)
        finally:
            game.undo()
        if on_move:
            on_move(move.notation, n)
    return counts


DIVIDE_BATCH = 8   # first moves a kernel counts in one call (``on_move`` is told between)


def _divided_in_kernel(game: Game, depth: int, first: int, last: int) -> list[int] | None:
    """The counts of the first moves ``first`` to ``last`` - 1 made by the game's kernel
    (at least one), or None where the game is not played by one or the kernel cannot
    decide a move on the way."""
    if not _live(game):
        return None
    counted = _kernel(game).divide(depth, first, last)
    if not counted:
        game.program._kernel.fallbacks += 1
        return None
    return counted


def _count(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    if game.over:
        return 0
    if depth == 1:
        return game.move_count()
    total = 0
    for i in range(game.move_count()):
        game.apply(i, safe=False)
        total += _count(game, depth - 1)
        game.undo()
    return total
