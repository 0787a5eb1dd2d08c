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


def chance_lines(prog, lang, fallen: list, seat, state: dict | None = None) -> list[tuple[int, Text]]:
    """The chance results of ``fallen`` (``views.chance_seen``) that ``seat`` may know,
    a line for each run of them alike ("Player 1 rolled 3 and 5"), with the number of
    messages the game had said before them (to tell them in their place). With the
    game's ``state`` after them, a run the ruleset's own messages already tell is left
    out (``_told_by_messages``)."""
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
    if state is not None:
        ends = [r[0].said for r in runs[1:]] + [None]
        runs = [r for r, end in zip(runs, ends) if not _told_by_messages(prog, r, end, state)]
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


def _told_by_messages(prog, run: list, end: int | None, state: dict) -> bool:
    """Whether the first message said after a run of chance results (before the next
    run fell, ``end``) names all its values, and its player for a roll: the ruleset's
    own "Player 1 rolls 5 and 2" tells the run, and the generic line would say it
    twice."""
    from collections import Counter
    log, k = state.get("log", []), run[0].said - state.get("log_dropped", 0)
    if not 0 <= k < len(log) or (end is not None and run[0].said >= end):
        return False
    want = Counter((f.type, f.value) for f in run)
    if run[0].kind == "roll" and run[0].player is not None:
        want[("player", run[0].player)] += 1
    entry = log[k]
    have = Counter((t, v) for t, v in zip(prog.logs[entry[0]].types, entry[1])
                   if isinstance(v, int | str))
    return not want - have


def at_start(game, seed: int, seats: list[int], lang, history: list) -> dict[int, list[Text]]:
    """For a game not yet begun (no move made or in ``history``, seeded chance), each of
    ``seats``' lines of what its set-up said and threw that it may know: the messages
    its view has, and the chance results (an opening roll) that it may know and that no
    message already tells, each where it fell; else none."""
    from ..interpreter import RuleError
    from ..interpreter.play.views import chance_seen_at_start, view
    if history or game.state["moves"] or game.chance_mode != "seeded":
        return {}
    try:
        fell = chance_seen_at_start(game.program, game.players, seed)
    except RuleError:
        return {}
    out = {}
    for s in seats:
        v = view(game, s)
        first = v.get("log_dropped", 0)
        said = [(first + j, 1, Text("  " + render.literal(msg))) for j, msg in enumerate(v["log"])]
        told = [(at, 0, line) for at, line in chance_lines(game.program, lang, fell, s, game.state)]
        out[s] = [line for _, _, line in sorted(said + told, key=lambda e: (e[0], e[1]))]
    return out
