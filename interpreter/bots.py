"""Computer players. A bot sees only its own view and the notations of its legal moves
(never the state, nor the moves' values, which would name hidden items)."""
from __future__ import annotations

import hashlib
import random

_BOT_SEED_TAG = b"meeple/bot-seed/v1"


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the bot playing ``seat`` in game number ``game`` (0 for a single
    game) started from the game seed ``seed``: 256 bits of SHA-256 over a domain tag and
    the three numbers. It is the same for the same inputs (a simulation with a given
    seed is reproducible), and since the hash cannot be inverted, watching a bot play
    tells nothing about the game seed that guessing the seed would not."""
    data = b"\0".join([_BOT_SEED_TAG] + [str(int(x)).encode() for x in (seed, game, seat)])
    return int.from_bytes(hashlib.sha256(data).digest(), "big")


class RandomBot:
    """Picks uniformly among the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        # seeded with bot_seed(...): Mersenne Twister is predictable from its outputs,
        # but what it would give away is only this hash, not the game seed
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
