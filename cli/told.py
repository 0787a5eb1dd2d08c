"""What a seat is told of what happened beside the moves: the chance results that fell
(the dice, a random pick, a random tie), as far as it may know them."""
from __future__ import annotations

from rich.text import Text

from . import render
from .i18n import tr


def fallen(before, move, seat) -> list:
    """``views.chance_seen`` of a move just played; none when finding them breaks (the
    move stands: what fell is then only left untold)."""
    from ..interpreter import IllegalMove, RuleError
    from ..interpreter.play.views import chance_seen
    try:
        return chance_seen(before, move, seat)
    except (RuleError, IllegalMove):
        return []


def chance_lines(prog, lang, fallen: list, seat) -> list[tuple[int, Text]]:
    """The chance results of ``fallen`` (``views.chance_seen``) that ``seat`` may know,
    a line for each run of them alike ("Player 1 rolled 3 and 5"), with the number of
    messages the game had said before them (to tell them in their place)."""
    from ..interpreter.play import display
    runs: list[list] = []
    for f in fallen:
        if seat not in f.seats:
            continue
        if runs and (runs[-1][0].kind, runs[-1][0].player, runs[-1][0].said) \
                == (f.kind, f.player, f.said):
            runs[-1].append(f)
        else:
            runs.append([f])
    out = []
    for run in runs:
        values = [render.literal(display.value_text(prog, f.value, f.type)) for f in run]
        shown = values[0] if len(values) == 1 else tr(
            lang, "{values} and {last}", values=", ".join(values[:-1]), last=values[-1])
        f = run[0]
        if f.kind == "roll" and f.player is not None:
            line = tr(lang, "{player} rolled {values}", values=shown,
                      player=render.literal(display.player_name(prog, f.player)))
        elif f.kind == "tie":
            line = tr(lang, "Tie broken at random: {values}", values=shown)
        else:
            line = tr(lang, "Drawn at random: {values}", values=shown)
        out.append((f.said, Text("  " + line)))
    return out


def at_start(game, seed: int, seats: list[int], lang, history: list) -> dict[int, list[Text]]:
    """For a game not yet begun (no move made or in ``history``, seeded chance), each of
    ``seats``' lines of the chance results of its set-up that it may know (an opening
    roll); else none."""
    from ..interpreter import RuleError
    from ..interpreter.play.views import chance_seen_at_start
    if history or game.state["moves"] or game.chance_mode != "seeded":
        return {}
    try:
        fell = chance_seen_at_start(game.program, game.players, seed)
    except RuleError:
        return {}
    return {s: [line for _, line in chance_lines(game.program, lang, fell, s)] for s in seats}
