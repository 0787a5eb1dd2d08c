"""What the tests that play a ruleset in lockstep with OpenSpiel's own game share."""
from __future__ import annotations


def both_moves(game, st, spiel_name) -> tuple[dict, dict]:
    """The legal moves of each, by OpenSpiel's string (``spiel_name`` of a Meeple
    notation): Meeple's moves, OpenSpiel's ids."""
    mine = {spiel_name(m.notation): m for m in game.legal_moves()}
    theirs = {st.action_to_string(a): a for a in st.legal_actions()}
    return mine, theirs
