"""Computer players. A bot sees only its own view and the notations of its legal moves
(never the state, nor the moves' values, which would name hidden items)."""
from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping

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


class BotSpecError(ValueError):
    """A bot written wrongly (``NAME[:KEY=VALUE,...]``): the message says what and how."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """A bot's spec, ``NAME[:KEY=VALUE,...]`` (``random``, ``mcts:iterations=200``), as its
    name (lower case) and its options (as written). Raises BotSpecError."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise BotSpecError(f"unknown bot '{name or spec}'; bots are: {', '.join(sorted(BOTS))}")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bot '{spec}': write options as KEY=VALUE, e.g. "
                               f"'{name}:iterations=200'")
        options[key.strip().lower()] = value.strip()
    if options:
        raise BotSpecError(f"bot '{name}' takes no options (given: {', '.join(options)})")
    return name, options


def make_bot(spec: str, seed: int = 0):
    """A new bot from its spec (see parse_spec), with its own seed (see bot_seed)."""
    name, _options = parse_spec(spec)
    return BOTS[name](seed)


class _LazyView(Mapping):
    """A seat's view, computed only if the bot reads it (a random bot never does)."""

    def __init__(self, game, seat):
        self._game, self._seat, self._view = game, seat, None

    def _get(self) -> dict:
        if self._view is None:
            from .views import view
            self._view = view(self._game, self._seat)
        return self._view

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())


def bot_move(bot, game, seat: int) -> int:
    """Asks ``bot`` for the move of ``seat``, which must be deciding now: its index in
    ``game.legal_moves(seat)``. The bot is given only what that seat may see."""
    moves = game.legal_moves(seat)
    idx = bot.choose(_LazyView(game, seat), [m.notation for m in moves])
    if not (isinstance(idx, int) and 0 <= idx < len(moves)):
        raise ValueError(f"bot {getattr(bot, 'name', bot)!r} chose move {idx!r} of {len(moves)}")
    return idx
