"""The fast rule code (issue 13 §2) against the straightforward code it replaces: random
games of every bundled ruleset, played both ways in lockstep, must offer the same legal
moves (notations) at every decision, reach the same state (JSON) after every move and
end with the same result; an error in a rule must read the same, at the same place.

The short form runs here; a longer one: ``MEEPLE_FAST_PATH_GAMES=50
MEEPLE_FAST_PATH_MOVES=100000 python3 -m pytest -n 0 tests/test_fast_paths.py`` (or
``python benchmarks/check_fast_paths.py``)."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from meeple import interpreter
from meeple.dsl.load import SourceSet
from meeple.dsl.parse import parse
from meeple.interpreter import RuleError, codegen, compile_sources

ROOT = Path(__file__).resolve().parent.parent
GAMES = int(os.environ.get("MEEPLE_FAST_PATH_GAMES", "2"))
MOVES = int(os.environ.get("MEEPLE_FAST_PATH_MOVES", "120"))  # per game at most

# (ruleset, players, variants): every bundled ruleset, each of its variants, and the
# smallest and largest player counts
CONFIGS = [
    (str(ROOT / "tests" / "testdata" / "ttt"), 2, ()),
    ("kalah", 2, ()), ("dots-and-boxes", 2, ()), ("dots-and-boxes", 2, ("small",)),
    ("go", 2, ()), ("go", 2, ("superko",)), ("chess", 2, ()), ("chess", 2, ("fide_claims",)),
    ("backgammon", 2, ()), ("hearts", 4, ()),
    ("cherokee", 2, ()), ("cherokee", 4, ("open_clans",)),
    ("clans-and-glory", 2, ("chosen_first_player",)), ("clans-and-glory", 4, ("separate_boards",)),
    ("brotherhood-of-nine", 2, ("archer_lines", "cavalry_jumps", "round_limit")),
    ("brotherhood-of-nine", 4, ("allies", "capture_the_flag")),
    ("brotherhood-of-nine", 4, ("allies_crosswise",)),
]


def both(monkeypatch, ruleset: str, variants, players: int) -> tuple:
    """The ruleset's program for this many players compiled with the fast code and with
    the straightforward code alone (a program is compiled when first asked for: here,
    while the setting holds). The fast code is strict: where it fails, the game fails
    (it does not run the straightforward code again), so a fast code that fails where
    the straightforward code does not is seen."""
    monkeypatch.setattr(codegen, "OPTIMIZE", False)
    plain = interpreter.load(ruleset, variants).for_players(players)
    monkeypatch.setattr(codegen, "OPTIMIZE", True)
    monkeypatch.setattr(codegen, "STRICT", True)
    fast = interpreter.load(ruleset, variants).for_players(players)
    monkeypatch.setattr(codegen, "STRICT", False)
    return fast, plain


def play_both(fast, plain, players: int, seed: int) -> int:
    """Plays one random game both ways, comparing at every step; returns its moves."""
    a, b = fast.new_game(players, seed), plain.new_game(players, seed)
    rnd = random.Random(seed)
    assert a.state == b.state
    for step in range(MOVES):
        assert a.over == b.over and a.deciding == b.deciding, step
        if a.over:
            assert a.result == b.result
            return step
        seat = a.deciding[0]
        moves = a.legal_moves(seat)
        assert [m.notation for m in moves] == [m.notation for m in b.legal_moves(seat)], step
        i = rnd.randrange(len(moves))
        a.apply(moves[i], safe=False, seat=seat)
        b.apply(b.legal_moves(seat)[i], safe=False, seat=seat)
        assert json.dumps(a.state, sort_keys=True) == json.dumps(b.state, sort_keys=True), step
    return MOVES


@pytest.mark.parametrize("ruleset,players,variants", CONFIGS,
                         ids=[f"{Path(c[0]).name}-{c[1]}p{'-' + '+'.join(c[2]) if c[2] else ''}"
                              for c in CONFIGS])
def test_fast_code_plays_exactly_like_the_straightforward_code(monkeypatch, ruleset, players, variants):
    fast, plain = both(monkeypatch, ruleset, variants, players)
    played = sum(play_both(fast, plain, players, seed) for seed in range(GAMES))
    assert played > 0


RULES = """ruleset broken
players 2..2
kind Card { value: int }
zone pile: Card public
var x: int = 0
function worth(c: Card, k: int): int = c.value + c.value * k
function total(k: int): int = worth(top(pile), k) + k
"""


def error_both_ways(monkeypatch, rules: str) -> list[str]:
    text = RULES + rules
    out = []
    for optimize in (False, True):
        monkeypatch.setattr(codegen, "OPTIMIZE", optimize)
        src = SourceSet(base=parse(text, "broken.meeple"), sources={"broken.meeple": text})
        with pytest.raises(RuleError) as e:
            compile_sources(src).new_game(players=2, seed=1)
        out.append((str(e.value), e.value.rule, e.value.span, e.value.hint))
    return out


def test_an_error_in_a_function_the_fast_code_inlines_is_located_in_that_function(monkeypatch):
    # 'worth' uses its parameter c twice: the fast code expands it where the argument is
    # a name; here it is called with top(pile) of an empty pile, a missing value
    plain, fast = error_both_ways(monkeypatch, "turn {\n  let c = top(pile)\n  x = worth(c, 2)\n}\n"
                                               "end when x > 3\n")
    assert fast == plain and plain[1] == "function worth"
    plain, fast = error_both_ways(monkeypatch, "turn {\n  x = sum([worth(c, 2) for c in [top(pile)]])\n}\n"
                                               "end when x > 3\n")
    assert fast == plain and plain[1] == "function worth"
    plain, fast = error_both_ways(monkeypatch, "turn {\n  x = total(2)\n}\nend when x > 3\n")
    assert fast == plain and plain[1] == "function worth"


def test_a_runaway_of_functions_the_fast_code_does_not_count_is_still_stopped(monkeypatch):
    # f0 makes 1 call, f_i twice f_(i-1)'s: the fast code counts only those beyond 32
    fs = "\n".join(["function f0(x: int): int = x"] +
                   [f"function f{i}(x: int): int = f{i - 1}(x) + f{i - 1}(1)" for i in range(1, 40)])
    plain, fast = error_both_ways(monkeypatch, fs + "\nturn {\n  x = f39(1)\n}\nend when x > 3\n")
    assert fast == plain and "'calls' budget" in plain[0]
