"""Every bot plays every bundled ruleset, in pure Python and on the ruleset's kernel, and
makes the same choices both ways ("the same games": docs/cli.md, Native code).

The bots are those of ``meeple bots`` (``interpreter.bots.describe()``) and the rulesets
the bundled ones (``bundled_names()``): a new bot or ruleset is covered as it comes. Each
bot gets a tiny budget (whichever of its options sets one), so the whole module costs
seconds in Python; the kernel half builds one kernel per ruleset (-O0, conftest.py), in
one test per ruleset, and is marked ``kernels`` like tests/test_kernel.py.

A search bot reads the game a kernel plays through its Python runtime (its view, the
moves of its past, samples drawn in Python), so the kernel's game becomes a Python game
and is taken over again at the next move, at every move: the kernel half also plays
each ruleset's game with every public Game method in between (reads, copies, undo,
undo limits, samples with and without their past), against the Python game.
"""
from __future__ import annotations

import json
import random
from functools import partial
from operator import attrgetter, methodcaller

import pytest
from meeple.dsl.load import bundled_names
from meeple.interpreter.bots import describe
from meeple.interpreter.play.views import view

from meeple import interpreter

RULESETS = bundled_names()
MISSING = interpreter.kernel_status()
SEED = 5
MOVES = 10          # moves per bot and ruleset
# the options that set a bot's budget, at their smallest useful values
TINY = {"iterations": 4, "samples": 1, "rollout": 10}


def specs() -> list[str]:
    """One spec per bot of ``meeple bots``, with a tiny budget."""
    out = []
    for bot in describe():
        options = [f"{k}={v}" for k, v in TINY.items() if k in {o["name"] for o in bot["options"]}]
        out.append(bot["name"] + (":" + ",".join(options) if options else ""))
    return out


def test_every_bot_of_meeple_bots_is_played():
    assert [interpreter.parse_spec(spec)[0] for spec in specs()] == [b["name"] for b in describe()]
    assert len(RULESETS) > 1


def players(ruleset) -> int:
    return max(2, ruleset.min_players)


def bot_game(ruleset, spec: str) -> tuple[list, dict]:
    """``MOVES`` moves of a game with the bot ``spec`` in every seat: the moves chosen
    (seat, index, notation) and the state after them."""
    n = players(ruleset)
    game = ruleset.new_game(n, SEED)
    bots = [interpreter.make_bot(spec, interpreter.bot_seed(SEED, 0, seat)) for seat in range(n)]
    chosen = []
    while not game.over and len(chosen) < MOVES:
        seat = game.deciding[0]
        i = interpreter.bot_move(bots[seat], game, seat)
        chosen.append((seat, i, game.apply(i, seat=seat).notation))
    return chosen, game.state


@pytest.mark.parametrize("name", RULESETS)
def test_every_bot_plays_every_bundled_ruleset_in_python(name):
    ruleset = interpreter.load(name)
    for spec in specs():
        chosen, state = bot_game(ruleset, spec)
        assert len(chosen) == MOVES or state["phase"] == "over", spec
        assert chosen == bot_game(ruleset, spec)[0], spec   # the same seeds, the same choices


# ---------------------------------------------------------------- on the kernel

def moves_of(game, seat):
    return [(m.index, m.value, m.notation, m.player) for m in game.legal_moves(seat)]


def answer(ask, game):
    """What ``ask(game)`` returns, or the error it raises."""
    try:
        return "ok", ask(game)
    except Exception as e:  # noqa: BLE001 - compared with Python's
        return type(e).__name__, str(e)


def alike(a, b, ask, where) -> None:
    assert answer(ask, a) == answer(ask, b), where


# what a game the kernel plays answers without its Python runtime (docs/api.md)
KERNEL_ANSWERS = ("over", "deciding", "active_player", "simultaneous", "at_chance", "decision",
                  "turn_number", "result", "players", "has_heuristic", "undo_limit")


def same_answers(a, b, where) -> None:
    """``a`` (a kernel's game, or its copy) answers as ``b`` (Python's); the questions
    the kernel answers leave it where it was (played by the kernel or not)."""
    live = a.live
    for name in KERNEL_ANSWERS:
        alike(a, b, attrgetter(name), (where, name))
    for seat in [None, *range(b.players)]:
        alike(a, b, partial(moves_of, seat=seat), (where, seat))
        alike(a, b, methodcaller("move_count", seat), (where, seat))
    for seat in range(b.players):
        alike(a, b, methodcaller("heuristic", seat), (where, seat))
    assert a.live == live, (where, "the kernel's answers read the Python game")


def text(game) -> str:
    return json.dumps(game.state, sort_keys=True)


def play(a, b, op, rnd, where) -> None:
    """A move both ways: by its index, safe or not (the kernel plays it where it can),
    as a Move of the list, or by its notation (Python reads it)."""
    seat = b.deciding[0]
    k = rnd.randrange(b.move_count(seat))
    if op == "move":
        assert a.apply(a.legal_moves(seat)[k], seat=seat).notation == \
            b.apply(b.legal_moves(seat)[k], seat=seat).notation, where
    elif op == "notation":
        written = b.move_text(b.legal_moves(seat)[k])
        assert a.move_text(a.legal_moves(seat)[k]) == written, where
        alike(a, b, lambda g: g.apply(written).notation, where)
    else:
        alike(a, b, lambda g: g.apply(k, op == "index", seat).notation, where)


def read(a, b, op, rnd, where) -> None:
    assert text(a) == text(b) and a.to_json() == b.to_json(), where
    assert a.chance_mode == b.chance_mode, where
    for s in range(b.players):
        assert view(a, s) == view(b, s) and a.unsure_zones(s) == b.unsure_zones(s), (where, s)


def undo(a, b, op, rnd, where) -> None:
    if op == "limit":
        a.undo_limit = b.undo_limit = rnd.choice([None, 0, 2, 5])
    else:
        assert a.can_undo == b.can_undo, where
        alike(a, b, methodcaller("undo"), where)


def copy(a, b, op, rnd, where) -> None:
    ca, cb = a.copy(), b.copy()
    same_answers(ca, cb, where)
    assert ca.can_undo == cb.can_undo == 0, where
    if not cb.over:
        s = cb.deciding[0]
        j = rnd.randrange(cb.move_count(s))
        assert ca.apply(j, seat=s).notation == cb.apply(j, seat=s).notation, where
        assert ca.can_undo == cb.can_undo == 1, where   # its own move
        ca.undo()
        cb.undo()
        assert text(ca) == text(cb), where


def sample(a, b, op, rnd, where) -> None:
    """A determinization for each seat, respecting its past or not, from the same
    generator."""
    past = interpreter.determinize_past if op == "past" else lambda game, seat: None
    seed = rnd.randrange(1 << 30)
    for s in range(b.players):
        pa, pb = past(a, s), past(b, s)
        assert (pa and pa.steps) == (pb and pb.steps), (where, s)
        sa = interpreter.determinize(a, s, random.Random(seed), pa)
        sb = interpreter.determinize(b, s, random.Random(seed), pb)
        assert text(sa) == text(sb), (where, s)
        same_answers(sa, sb, where)


# moves by index (the kernel's) most often, each other public method now and then
OPS = {"index": play, "unsafe": play, "move": play, "notation": play, "read": read, "undo": undo,
       "limit": undo, "copy": copy, "sample": sample, "past": sample}
CHOICES = ["index"] * 6 + sorted(OPS)


def game_methods_as_in_python(fast, plain, n: int, seed: int, steps: int) -> None:
    """A game played by the kernel and the Python game of the same moves, every public
    Game method used in between, at random: both answer alike throughout."""
    a, b = fast.new_game(n, seed), plain.new_game(n, seed)
    rnd = random.Random(seed)
    for k in range(steps):
        same_answers(a, b, k)
        if b.over:
            break
        op = rnd.choice(CHOICES)
        OPS[op](a, b, op, rnd, (k, op))
    assert text(a) == text(b)


def takes_back_as_python(fast, plain, n: int) -> None:
    """The moves to take back after the kernel played, as Python's: those an undo limit
    set meanwhile leaves, and a copy's own moves (not those before it)."""
    a, b = fast.new_game(n, SEED), plain.new_game(n, SEED)
    rnd = random.Random(SEED)

    def both() -> None:
        i = rnd.randrange(b.move_count())
        assert a.apply(i).notation == b.apply(i).notation
    a.undo_limit = b.undo_limit = 3
    for k in range(7):
        if k == 5:
            a.undo_limit = b.undo_limit = None  # (the kernel's moves were kept under 3)
        both()
    assert a.can_undo == b.can_undo == 5
    both()
    ca, cb = a.copy(), b.copy()     # (live: but hearts passes cards at once, in Python)
    i = rnd.randrange(cb.move_count())
    assert ca.apply(i).notation == cb.apply(i).notation
    assert ca.can_undo == cb.can_undo == 1    # its own move
    ca.undo()
    cb.undo()
    assert text(ca) == text(cb)
    assert a.can_undo == b.can_undo == 6


@pytest.mark.kernels
@pytest.mark.skipif(MISSING is not None, reason=f"no kernel can be built here: {MISSING}")
@pytest.mark.parametrize("name", RULESETS)
def test_on_the_kernel_every_bot_chooses_as_in_python_and_the_game_answers_as_python_s(
        name):
    # (one test per ruleset: its kernel is built once, in one test process)
    plain, fast = interpreter.load(name), interpreter.load(name)
    assert fast.use_native(report=False)
    n = players(plain)
    assert fast.for_players(n).kernel
    for spec in specs():
        assert bot_game(fast, spec) == bot_game(plain, spec), spec
    takes_back_as_python(fast.for_players(n), plain.for_players(n), n)
    game_methods_as_in_python(fast.for_players(n), plain.for_players(n), n, SEED, 60)
    assert fast.for_players(n).native_fallbacks == 0
