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


def since_title(lang, history: list, seat: int) -> str:
    """The heading of what ``seat`` is told happened: since its last move, or, before it
    has made any (``history``: the moves made, each with its ``seat``), since the game
    began."""
    if any(done.seat == seat for done in history):
        return tr(lang, "Since your last move")
    return tr(lang, "Since the game began")


def arrived(prog, lang, seen: set[int], seat: int, v: dict) -> list[Text]:
    """A line per zone of ``seat`` with the items its view ``v`` shows there now that
    none of its zones showed at its last move (``seen``: those items): the cards
    passed to it, the card it drew; not those moved from one of its own zones to another
    (the cards it put aside to pass)."""
    from ..interpreter.play import display
    out = []
    for z in prog.zones:
        content = v["zones"].get(z.key)
        if z.owner != seat or z.board is not None or not isinstance(content, list):
            continue
        fresh = [i for i in content if isinstance(i, int) and i not in seen]
        if fresh:
            out.append(Text("  " + tr(lang, "New in your {zone}:", zone=render.literal(
                display.name(prog, z.name))) + " ") + render.items_text(
                    prog, fresh, short=False, sep=", ", view=v))
    return out


def picked(game, v: dict) -> list[str]:
    """The picks so far of the seat whose view ``v`` is, in a decision of several picks
    (``choose 3 ...``), as it reads them in its move list: an item by its name (``ace of
    spades``), another value as a move's value reads; a pick it may not see now by the
    verb alone, in the locale's word."""
    from ..interpreter.play import display
    prog, code = game.program, game.decision.type
    verb = v["pending"]["verb"]
    out = []
    for written, value in zip(v["pending"].get("picked") or [], display.picked_values(prog, v, code)):
        shown = render.value_text(game, v, value, code, lambda _: True).plain if value is not None else ""
        out.append(shown or display.worded(prog, written, verb))
    return out


def marked(s: int, seat: int, move, before, before_view: dict | None, after_view: dict,
           last_mover: int | None, last: frozenset) -> frozenset:
    """The cells ``s``'s board marks after ``seat`` played ``move`` on ``before``
    (``before_view`` and ``after_view``: ``s``'s views before and after it, the former
    None after ``s``'s own move or a secret choice, where none is marked):
    those of the other seats' latest run of moves (one seat's moves in a row, a turn of
    several steps: ``last`` holds the run's cells so far when ``last_mover`` is
    ``seat``), each move's being the cells its value names and those whose contents
    ``s``'s view saw change (a move written without cells, a capture); none after
    ``s``'s own move or a secret choice."""
    if s == seat or before.simultaneous or before_view is None:
        return frozenset()
    prog = before.program
    old, new = before_view["zones"], after_view["zones"]
    cells = set(_cells_of(move.value, before.decision.type))
    cells.update(z.id for z in prog.zones if z.cell is not None and old.get(z.key) != new.get(z.key))
    return frozenset(cells | last) if last_mover == seat else frozenset(cells)


def _cells_of(v, type_code: str) -> list[int]:
    """The cells a move's value names (a cell, or a list of them)."""
    if type_code.startswith("list:"):
        return [c for x in v or [] for c in _cells_of(x, type_code[5:])]
    return [v] if type_code == "cell" and v is not None else []


def chance_lines(prog, lang, fallen: list, seat, state: dict | None = None) -> list[tuple[int, Text]]:
    """The chance results of ``fallen`` (``views.chance_seen``) that ``seat`` may know,
    a line for each run of them alike ("Player 1 rolled 3 and 5"), with the number of
    messages the game had said before them (to tell them in their place). With the
    game's ``state`` after them, a run the ruleset's own messages already tell is left
    out (``views.chance_runs``)."""
    from ..interpreter.play import display
    from ..interpreter.play.views import chance_runs
    runs = chance_runs(prog, fallen, seat, state)
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
