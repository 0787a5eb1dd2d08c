"""Computer players. A bot sees only its own view and the notations of its legal moves
(never the state, nor the moves' values, which would name hidden items)."""
from __future__ import annotations

import random


class RandomBot:
    """Picks uniformly among the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: dict, moves: list[str]) -> int:
        return self.rng.randrange(len(moves))


class FirstBot:
    """Always plays the first legal move: deterministic, for tests and benchmarks."""

    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, view: dict, moves: list[str]) -> int:
        return 0


BOTS = {"random": RandomBot, "first": FirstBot}
