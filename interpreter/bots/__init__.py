"""Computer players. A bot sees only its own view and the notations of its legal moves
(never the state, nor the moves' values, which would name hidden items). The simple bots,
bot specs and how a bot moves are here; the search bots in ``search``, the whole games
consistent with a seat's knowledge that they search in ``determinize``."""
from __future__ import annotations

import functools
import hashlib
import math
import random
from collections.abc import Mapping

from ..play import rng as _rng
from .search import CUTOFF, ITERATIONS, SCALE, GreedyBot, IsmctsBot, MctsBot

_BOT_SEED_TAG = b"meeple/bot-seed/v2"
_WORD = (1 << 64) - 1


@functools.lru_cache(maxsize=64)
def _bot_key(seed: int) -> bytes:
    """The key of the bots' seeds of a run from ``seed``: BLAKE2s of a domain tag, a zero
    byte and the seed in decimal."""
    return hashlib.blake2s(_BOT_SEED_TAG + b"\0" + str(int(seed)).encode()).digest()


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the bot playing ``seat`` in game number ``game`` (0 for a single
    game) started from the game seed ``seed``: 256 bits of BLAKE2s keyed with a hash of
    ``seed`` (``_bot_key``), of the game and the seat as two 64-bit little-endian words
    (two's complement), read little-endian. It is the same for the same inputs (a
    simulation with a given seed is reproducible), and since the hash cannot be inverted
    nor its key found from what it gives, watching a bot play tells nothing about the
    game seed that guessing the seed would not. (A keyed hash: a run hashes its key once
    and each seed is one block, which the kernels hash many at a time:
    cxx/kernel_random.hpp.)"""
    data = (int(game) & _WORD).to_bytes(8, "little") + (int(seat) & _WORD).to_bytes(8, "little")
    return int.from_bytes(hashlib.blake2s(data, key=_bot_key(seed)).digest(), "little")


class RandomBot:
    """Picks uniformly among the legal moves, from its own seeded generator: SplitMix64,
    the game's kind of generator (play/rng.py), its state ``rng.seed_state(seed)``, a
    move drawn by ``rng.pick`` (the random seats of ``interpreter.playouts`` draw so)."""

    name = "random"

    def __init__(self, seed: int = 0, **_options):
        # seeded with bot_seed(...): the generator's state tells what its outputs are,
        # but it is only bits of that hash, nothing of the game seed
        self.state = _rng.seed_state(seed)

    def choose(self, view: dict, moves: list[str]) -> int:
        self.state, i = _rng.pick(self.state, len(moves))
        return i


class FirstBot:
    """Always plays the first legal move: deterministic, for tests and benchmarks."""

    name = "first"

    def __init__(self, seed: int = 0, **_options):
        pass

    def choose(self, view: dict, moves: list[str]) -> int:
        return 0



BOTS = {"random": RandomBot, "first": FirstBot, "mcts": MctsBot, "ismcts": IsmctsBot,
        "greedy": GreedyBot}

#: what each bot is, in one line (``meeple bots``)
DESCRIPTIONS = {
    "random": "picks uniformly among the legal moves",
    "first": "always plays the first legal move (for tests and benchmarks)",
    "mcts": "UCT search with random rollouts, for games without hidden information",
    "ismcts": "information-set MCTS: searches games drawn consistent with what its seat knows",
    "greedy": "one ply: the move with the best result for its seat, by the ruleset's "
              "heuristic or a few random playouts",
}


class Option:
    """One option of a bot: its type (int or float), default (None: no limit), the
    smallest value allowed and what it does."""

    def __init__(self, kind: type, default, minimum, help: str, example=None, maximum=None):
        self.kind, self.default, self.minimum, self.help = kind, default, minimum, help
        self.maximum = maximum
        self.example = example if example is not None else default

    def described(self) -> dict:
        """Its type (``int``, ``float``, or ``switch``: on or off) and default."""
        if self.kind is bool:
            return {"type": "switch", "default": "on" if self.default else "off"}
        return {"type": self.kind.__name__, "default": self.default}

    def parse(self, bot: str, key: str, text: str):
        if self.kind is bool:
            if text.lower() not in _SWITCH:
                raise BotSpecError(f"bot '{bot}': option {key}={text!r} must be on or off, "
                                   f"e.g. '{bot}:{key}={'off' if self.default else 'on'}'")
            return _SWITCH[text.lower()]
        try:
            value = self.kind(text)
        except ValueError:
            what = "a whole number" if self.kind is int else "a number"
            raise BotSpecError(f"bot '{bot}': option {key}={text!r} must be {what}, "
                               f"e.g. '{bot}:{key}={self.example}'") from None
        if not math.isfinite(value) or value < self.minimum:
            raise BotSpecError(f"bot '{bot}': option {key}={text} must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise BotSpecError(f"bot '{bot}': option {key}={text} must be at most {self.maximum}")
        return value


_SWITCH = {"on": True, "off": False}

_SEARCH = {
    "iterations": Option(int, None, 1, "playouts per move (default 200 without time=, "
                                       "else as many as the time allows)", 400),
    "time": Option(float, None, 0.001, "seconds per move at most (stops before the iterations "
                                       "when given)", 1.5),
    "c": Option(float, 1.4, 0.0, "exploration constant of UCB1"),
    "rollout": Option(int, 400, 0, "moves per random playout at most (then counted as even)"),
    "heuristic": Option(int, 1, 0, "1: use the ruleset's heuristic when it declares one "
                                   "(cut playouts short, see cutoff); 0: never", 0, 1),
    "cutoff": Option(int, CUTOFF, 0, "with a ruleset heuristic: random moves per playout, "
                                     "then the heuristic values the position"),
    "scale": Option(float, SCALE, 0.001, "the gain in heuristic lead worth about 3 to 1"),
}
_ISMCTS = {**_SEARCH, "history": Option(bool, True, False,
                                        "on: each sample agrees with the moves the seat saw "
                                        "since the last random step (what a seat could not "
                                        "play, where items it passed went); off: hidden "
                                        "items dealt by kind only")}

#: each bot's options (``NAME:KEY=VALUE``)
OPTIONS: dict[str, dict[str, Option]] = {
    "random": {}, "first": {}, "mcts": _SEARCH, "ismcts": _ISMCTS,
    "greedy": {"samples": Option(int, 4, 1, "random playouts (or drawn games, with a "
                                            "heuristic) per move"),
               "rollout": _SEARCH["rollout"], "heuristic": _SEARCH["heuristic"],
               "scale": _SEARCH["scale"]},
}


class BotSpecError(ValueError):
    """A bot written wrongly (``NAME[:KEY=VALUE,...]``): the message says what and how."""


def parse_spec(spec: str) -> tuple[str, dict]:
    """A bot's spec, ``NAME[:KEY=VALUE,...]`` (``random``, ``mcts:iterations=200``), as its
    name (lower case) and its options (converted to their types: see ``OPTIONS``).
    Raises BotSpecError."""
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot is written NAME[:KEY=VALUE,...], not {type(spec).__name__}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise BotSpecError(f"unknown bot '{name or spec}'; bots are: {', '.join(sorted(BOTS))}")
    known = OPTIONS[name]
    options: dict = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not key or not value.strip():
            raise BotSpecError(f"bot '{spec}': write options as KEY=VALUE, e.g. "
                               f"'{name}:iterations=200'" if known else
                               f"bot '{spec}': write options as KEY=VALUE")
        if key not in known:
            raise BotSpecError(f"bot '{name}' has no option '{key}'; " + (
                f"its options are: {', '.join(known)}" if known else "it takes no options"))
        if key in options:
            raise BotSpecError(f"bot '{spec}': option '{key}' is given twice")
        options[key] = known[key].parse(name, key, value.strip())
    return name, options


#: the seconds a search bot thinks at most per move in interactive play (``meeple play``)
#: when its spec gives neither ``iterations`` nor ``time``; it still stops after the
#: default iterations when they come first
PLAY_TIME = 5.0


def make_bot(spec: str, seed: int = 0, play_time: float | None = None):
    """A new bot from its spec (see parse_spec), with its own seed (see bot_seed).
    ``play_time`` (interactive play: ``PLAY_TIME``) caps the seconds per move of a bot
    with a ``time`` option whose spec gives neither ``iterations`` nor ``time``; without
    it a bot's moves depend only on its seed, never on the machine's speed."""
    name, options = parse_spec(spec)
    return BOTS[name](seed, **(options | default_budget(name, options, play_time)))


def default_budget(name: str, options: dict, play_time: float | None) -> dict:
    """The options ``make_bot`` adds to a bot's own for a time cap of ``play_time``
    seconds per move ({} when none applies): ``time`` and the default ``iterations``."""
    known = OPTIONS[name]
    if play_time is None or "time" not in known or "iterations" in options or "time" in options:
        return {}
    return {"iterations": ITERATIONS, "time": play_time}


def describe() -> list[dict]:
    """Every bot with its description and options (name, type, default, help)."""
    return [{"name": name, "description": DESCRIPTIONS[name],
             "options": [{"name": k, **o.described(), "help": o.help}
                         for k, o in OPTIONS[name].items()]}
            for name in BOTS]


class _LazyView(Mapping):
    """A seat's view, computed only if the bot reads it (a random bot never does)."""

    __slots__ = ("_game", "_seat", "_view")

    def __init__(self, game, seat):
        self._game, self._seat, self._view = game, seat, None

    def _get(self) -> dict:
        if self._view is None:
            from ..play.views import view
            self._view = view(self._game, self._seat)
        return self._view

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())


class Position:
    """What a search bot is given instead of the game: its seat, the notations of its
    legal moves, its view, and games drawn consistent with what the seat knows
    (``sample``). It keeps the game to itself: nothing it gives away depends on what the
    seat may not see."""

    __slots__ = ("_game", "seat", "moves", "_past")

    def __init__(self, game, seat: int):
        self._game, self.seat, self._past = game, seat, None
        self.moves = [m.notation for m in game.legal_moves(seat)]

    @property
    def view(self) -> dict:
        from ..play.views import view
        return view(self._game, self.seat)

    def sample(self, rng: random.Random, history: bool = False):
        """A new game consistent with what the seat knows, drawn from ``rng`` (see
        determinize.determinize): hidden items dealt anew, the generator seeded anew;
        with ``history``, agreeing with the moves seen since the last random step."""
        from .determinize import Past, determinize
        if history and self._past is None:
            self._past = Past(self._game, self.seat)
        return determinize(self._game, self.seat, rng, self._past if history else None)

    @property
    def has_heuristic(self) -> bool:
        """Whether the ruleset declares a ``heuristic`` (the same for every drawn game)."""
        return self._game.has_heuristic

    def again(self, sample, rng: random.Random):
        """A copy of a sample with the other seats' secret choices (in a simultaneous
        decision under way) and its random generator drawn anew from ``rng``."""
        from .determinize import redrawn
        return redrawn(sample, self.seat, rng)


def bot_move(bot, game, seat: int) -> int:
    """Asks ``bot`` for the move of ``seat``, which must be deciding now: its index in
    ``game.legal_moves(seat)``. The bot is given only what that seat may see: a simple
    bot its view and the notations of its moves, a search bot (``wants_position``) a
    ``Position``, whose games are drawn from what the seat knows."""
    if getattr(bot, "wants_position", False):
        count = len(game.legal_moves(seat))
        idx = bot.choose_position(Position(game, seat))
    else:
        moves = game.legal_moves(seat)
        idx = bot.choose(_LazyView(game, seat), [m.notation for m in moves])
        count = len(moves)
    if not (isinstance(idx, int) and 0 <= idx < count):
        raise ValueError(f"bot {getattr(bot, 'name', bot)!r} chose move {idx!r} of {count}")
    return idx


def mover(bot):
    """``bot_move`` for one bot: ``mover(bot)(game, seat)`` is ``bot_move(bot, game,
    seat)`` (for the many moves of a simulated game)."""
    return lambda game, seat: bot_move(bot, game, seat)


def _random_mover(seed: int):
    """The random bots of ``interpreter.playouts``: ``RandomBot(seed)``'s draws (``rng.
    pick`` of ``game.move_count(seat)``), with the bot's view and the moves' names not
    made."""
    state = _rng.seed_state(seed)
    pick = _rng.pick

    def move(game, seat: int) -> int:
        nonlocal state
        state, i = pick(state, game.move_count(seat))
        return i
    return move
