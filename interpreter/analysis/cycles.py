"""Games that go round in circles, for ``meeple test`` (``interpreter/analysis/invariants.py``).

A **position** is a game's state without what only counts or records: the number of
moves and of turns, the log and how many times each seat was shown something new. Two
states in the same position offer the same moves, and the same moves lead them on to
the same positions: the rules cannot read those counters, with one exception, the
number of turns (``turn_number()``), which is then part of the position. (The random
generator's state is part of it: a game that rolls dice is rarely twice in the same
position.)

So when a game comes back to a position, the moves in between can be played again and
again: the game can go on for ever. And when a game played by first moves (as
``meeple test`` plays once its drawn choices run out) comes back to a position, it
*will* go on for ever: the test can stop there instead of playing up to the bound.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ...dsl import ast as ir

COUNTERS = frozenset({"moves", "turn", "log", "log_dropped", "seen"})
# what a kernel's state (``KernelGame.kernel_state``) holds besides: the work of the rules
KERNEL_WORK = frozenset({"spent", "called"})


_READS_TURN: dict[int, tuple[object, bool]] = {}


def reads_turn(checked) -> bool:
    """Whether anything of a checked ruleset — a rule, an invariant, the heuristic —
    reads the number of turns (``turn_number()``), even in a branch never taken."""
    got = _READS_TURN.get(id(checked))
    if got is None or got[0] is not checked:
        got = _READS_TURN[id(checked)] = (checked, _reads_turn(checked))
    return got[1]


def _reads_turn(checked) -> bool:
    for value in vars(checked).values():
        for node in _nodes(value):
            if any(n.node == "Call" and n.func == "turn_number" for n in ir.walk(node)):
                return True
    return False


def _nodes(value):
    if isinstance(value, ir.Node):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _nodes(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes(v)


@dataclass(frozen=True)
class Cycle:
    """After ``start`` moves, the ``length`` moves that follow come back to the same
    position."""

    start: int
    length: int

    @property
    def end(self) -> int:
        return self.start + self.length

    def text(self) -> str:
        k = "move" if self.length == 1 else f"{self.length} moves"
        come = "comes" if self.length == 1 else "come"
        if self.start == 0:
            return (f"the first {k} {come} back to the position the game started in, and can "
                    f"be played again and again")
        return (f"after {self.start} move{'' if self.start == 1 else 's'}, the next {k} {come} "
                f"back to the same position, and can be played again and again")


class Positions:
    """The positions a game goes through, in order: ``add(game)`` after the setup and
    after every move."""

    def __init__(self, with_turn: bool):
        self.drop = COUNTERS - ({"turn"} if with_turn else set())
        self.last: dict[bytes, int] = {}   # position -> after how many moves it was last reached
        self.count = 0

    def add(self, game) -> int | None:
        """Notes the position the game is in; returns after how many moves it was last
        in it, if it was before (else None). A game the kernel plays is read from the
        kernel (without making its Python game), in the kernel's own form: a game read
        both ways is in a position of each form, which never meet."""
        if getattr(game, "live", False):
            state, drop = game.kernel_state(), self.drop | KERNEL_WORK
        else:
            state, drop = game.R.to_state(), self.drop   # (not copied: only read here)
        text = json.dumps({k: v for k, v in state.items() if k not in drop},
                          sort_keys=True, separators=(",", ":"))
        key = hashlib.blake2b(text.encode(), digest_size=16).digest()
        before = self.last.get(key)
        self.last[key] = self.count
        self.count += 1
        return before
