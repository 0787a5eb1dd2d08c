"""Differential test: the Cherokee ruleset, run by the generic interpreter, against an
independent hand-written engine (benchmarks/reference_cherokee.py). From the same
position, both must offer the same legal moves at every decision of random games, and
reach the same scores."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from meeple import interpreter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import reference_cherokee


@pytest.mark.parametrize("variants,locale", [((), None), (("open_clans",), None), ((), "nl")])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_interpreter_matches_hand_written_engine(players, variants, locale):
    prog = interpreter.load("cherokee", variants, locale)
    rnd = random.Random(players)
    decisions = 0
    for seed in range(8):
        game = prog.new_game(players, seed)
        if game.decision.verb == "start":  # the Dutch start-player choice
            game.apply(rnd.randrange(len(game.legal_moves())))
        ref = reference_cherokee.from_game(game)
        while not game.over:
            legal = [m.notation for m in game.legal_moves()]
            assert legal == ref.legal(), f"seed {seed}, move {game.state['moves']}"
            i = rnd.randrange(len(legal))
            game.apply(i, safe=False)
            ref.apply(i)
            decisions += 1
        assert ref.over
        assert game.result["scores"] == ref.scores()
    assert decisions > 8 * 50
