"""The fast paths against the straightforward ones on rules nobody wrote: the seeded
mutants of the bundled rulesets that tests/test_fuzz_rulesets.py makes (lines and tokens
deleted, duplicated or swapped, numbers made huge or negative...) that still load are
played with the fast rule code and the engine's fast paths, and again with neither, the
same moves by number; both games must show the same legal moves, the same state (JSON)
after every move, and end with the same result or the same error. Where the fast code
fails it runs the straightforward code (as it does for users), so an error must read
the same both ways.

The suite runs a short form; ``MEEPLE_FUZZ_FAST_CASES=2000 pytest
tests/test_fuzz_fast_paths.py`` runs more (``MEEPLE_FUZZ_SEED`` picks another series)."""
from __future__ import annotations

import json
import os
import random

from meeple.dsl.errors import MeepleError
from meeple.interpreter import RuleError
from meeple.interpreter.compiler import codegen
from meeple.interpreter.play import runtime
from scale import scaled
from test_fuzz_rulesets import mutant, sources

from meeple import interpreter

CASES = int(os.environ.get("MEEPLE_FUZZ_FAST_CASES", scaled(40, 16)))
MOVES = 60


def program(monkeypatch, name: str, path: str, text: str, players: int | None, fast: bool):
    """The mutant's program for ``players`` (None: its ruleset, to read the player
    counts), compiled with or without the fast code; None when it does not load."""
    monkeypatch.setattr(codegen, "OPTIMIZE", fast)
    src, variants, locale = sources(name, path, text)
    if src.diagnostics:
        return None
    try:
        rules = interpreter.compile_sources(src, variants, locale)
        return rules if players is None else rules.for_players(players)
    except MeepleError:
        return None


def played(monkeypatch, prog, players: int, seed: int, fast: bool) -> list:
    """Everything the game shows, move after move (the moves taken by number)."""
    monkeypatch.setattr(runtime, "FAST_PATHS", fast)
    rnd = random.Random(seed)
    out = []
    try:
        game = prog.new_game(players, seed)
        for _ in range(MOVES):
            out.append(json.dumps(game.state, sort_keys=True))
            if game.over:
                break
            legal = [m.notation for m in game.legal_moves()]
            out.append(legal)
            game.apply(rnd.randrange(len(legal)), safe=fast)
        out.append(game.result)
    except RuleError as e:
        out.append(("rule error", str(e), e.rule, e.hint))
    finally:
        monkeypatch.setattr(runtime, "FAST_PATHS", True)
    return out


def test_mutated_rulesets_play_the_same_with_and_without_the_fast_paths(monkeypatch):
    compared, differ = 0, []
    for case in range(CASES):
        name, path, text, seed = mutant(case)
        rules = program(monkeypatch, name, path, text, None, True)
        if rules is None:
            continue
        for players in sorted({rules.min_players, rules.max_players}):
            fast = program(monkeypatch, name, path, text, players, True)
            plain = program(monkeypatch, name, path, text, players, False)
            a = played(monkeypatch, fast, players, seed, True)
            b = played(monkeypatch, plain, players, seed, False)
            compared += 1
            if a != b:
                at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                differ.append(f"case {case} ({path}, {players} players), at entry {at}:\n"
                              f"  fast:  {str(a[at] if at < len(a) else None)[:400]}\n"
                              f"  plain: {str(b[at] if at < len(b) else None)[:400]}")
    assert not differ, f"{len(differ)} of {compared} games differ:\n" + "\n".join(differ[:5])
    assert compared >= CASES // 4, f"only {compared} of {CASES} mutants loaded and played"
