"""Playthrough golden files (the OpenSpiel style): for each bundled game and a fixed
seed, every decision with its sorted legal moves, what each seat's view shows of the
zones, and the move played. Any change in how a game plays or what a seat may see shows
up as a diff here. Regenerate after an intended change with

    MEEPLE_REGEN=1 python -m pytest tests/test_playthroughs.py
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from meeple.interpreter.play import views

from meeple import interpreter

HERE = Path(__file__).resolve().parent / "playthroughs"
GAMES = [("cherokee", 3, (), None), ("cherokee", 2, ("open_clans",), "nl"),
         ("clans-and-glory", 3, (), "ru"), ("brotherhood-of-nine", 2, (), None),
         ("dots-and-boxes", 2, (), None), ("go", 2, (), "de"), ("hearts", 4, (), None),
         ("chess", 2, (), "de"), ("backgammon", 2, (), "de")]
STEPS = 60


def playthrough(name: str, players: int, variants, locale) -> str:
    rs = interpreter.load(name, variants, locale)
    game = rs.new_game(players, seed=11)
    rnd = random.Random(11)
    lines = [f"# {name}, {players} players, variants {list(variants)}, locale {locale}, seed 11"]
    for step in range(STEPS):
        if game.over:
            break
        moves = game.legal_moves()
        lines.append(f"\n## step {step}: player {game.active_player + 1} decides")
        lines.append("moves: " + " | ".join(m.notation for m in moves))
        for seat in list(range(players)) + [views.SPECTATOR]:
            v = views.view(game, seat)
            zones = {k: z for k, z in v["zones"].items() if z not in ([], {"count": 0})}
            who = "spectator" if seat < 0 else f"seat {seat + 1}"
            lines.append(f"{who}: {json.dumps(zones, sort_keys=True, separators=(',', ':'))}")
        m = moves[rnd.randrange(len(moves))]
        lines.append(f"play: {m.notation}")
        game.apply(m)
    lines.append(f"\nresult: {json.dumps(game.result, sort_keys=True)}" if game.over
                 else f"\n(stopped after {STEPS} steps)")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name,players,variants,locale", GAMES,
                         ids=[f"{g[0]}-{g[1]}p" for g in GAMES])
def test_playthrough_matches_the_golden_file(name, players, variants, locale):
    path = HERE / f"{name}-{players}p{'-' + '+'.join(variants) if variants else ''}" \
                  f"{'-' + locale if locale else ''}.txt"
    got = playthrough(name, players, variants, locale)
    if os.environ.get("MEEPLE_REGEN") or not path.exists():
        path.write_text(got, encoding="utf-8")
        if not os.environ.get("MEEPLE_REGEN"):
            pytest.fail(f"{path.name} did not exist; it has been written: check it and commit it")
    assert got == path.read_text(encoding="utf-8"), \
        f"{path.name} changed; if intended, regenerate with MEEPLE_REGEN=1"
