"""Screens that fit the terminal: the turn screen of ``meeple play`` (and the final
board of a game) in one of three layouts. ``full`` draws everything (``render.screen``
and every move), ``compact`` the most detailed of a ladder of ever barer screens that
fits the console's size, ``auto`` the full one when it fits whole, else the compact one.
Names (items, zones, seats, moves) are drawn whole or not at all; what is left out is
a command away (the details views of ``cli/play.py``)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rich.columns import Columns
from rich.console import Console
from rich.rule import Rule
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from .i18n import language, tr
from .render import (
    _var_text,
    board_lines,
    drawn,
    item_text,
    literal,
    pvar_names,
    safe_text,
    screen,
    var_items,
)

if TYPE_CHECKING:   # (imported where used: `meeple <command> --help` loads no interpreter)
    pass

LAYOUTS = ("auto", "compact", "full")


@dataclass(frozen=True)
class Fit:
    """How much one rung of the compact layout shows (see ``RUNGS``)."""

    names: bool = False       # the cells' names under the board rows
    titles: bool = True       # section titles (board names, 'Recent events')
    log: int = 3              # how many of the latest messages
    hint: bool = True         # the line that says what to type
    moves: str = "text"       # "text": number, notation and text; "bare": the verb every
                              # move shares (shown in the prompt) left out; "short": and
                              # items by their short labels; "notation": no text
    others: str = "zones"     # other seats' zones: "zones", "counts" or "none"
    shared: bool = True       # the shared zones and the game variables
    boards: bool = True
    title: bool = True        # the title line
    own: bool = True          # the viewer's own zones
    all_moves: bool = True    # False: the moves that fit, and how many more


def _rungs(least_log: int = 0) -> list[Fit]:
    """From the most detailed compact screen to the barest: each rung leaves out
    something more (it is a command away: board, zones, log, moves). ``least_log``: the
    messages are never fewer (what happened since the seat's last move). The other seats'
    lines go before the moves' items do: a cell's name alone ('r2c2') does not say what
    the move does on a board drawn without the cells' names."""
    steps = [dict(names=True, log=6), dict(log=4), dict(names=False, log=3), dict(log=2),
             dict(log=1), dict(moves="bare"), dict(titles=False), dict(log=least_log),
             dict(hint=False), dict(moves="short"), dict(others="counts"), dict(others="none"),
             dict(moves="notation"), dict(shared=False), dict(boards=False), dict(title=False),
             dict(own=False), dict(all_moves=False)]
    out, cur = [], {}
    for step in steps:
        cur = {**cur, **step}
        out.append(Fit(**cur))
    return out


RUNGS = _rungs()
# After a hand-over or others' moves, the latest line of what happened since the seat's
# last move stays on the screen as long as anything but the moves does.
RUNGS_SINCE = _rungs(least_log=1)
# When every move is a cell of a board, the board shows where the moves are: before a
# screen gives up the board, it tries the board with its names and the first moves.
BOARD_KEPT = [Fit(names=True, log=n, all_moves=False) for n in (3, 2, 1)]


@dataclass
class TurnInfo:
    """The parts of a turn screen that the CLI writes (already in the game's language):
    the title, the prompt line, the hint line and the seat's legal moves as (number,
    notation, readable text, the same with short labels)."""

    title: str
    prompt: Text
    hint: Text | None
    entries: list[tuple[int, str, Text, Text]]
    marks: dict = field(default_factory=dict)   # empty cell -> the number of the move onto it
    # what happened since the seat's last move (as it may see it), for the log's place:
    # (True for a message of the log, False for a move; the line)
    since: list[tuple[bool, Text]] = field(default_factory=list)
    since_title: str = ""
    last: frozenset = frozenset()               # the cells of the latest move, marked
    # the richest way to write the moves this screen may use (``Fit.moves``): a session
    # passes the barest it has used for the same decision, so that the move list keeps
    # one shape from turn to turn; ``fit_screen`` sets ``used`` to the way it drew them
    most: str = "text"
    used: str = "text"


def latest(since: list[tuple[bool, Text]], n: int) -> list[Text]:
    """``n`` lines of ``since`` in their order: all of them when they fit, else the
    latest messages first (they say what the moves did: "... with 9 against 6"), then
    the latest moves."""
    if len(since) <= n:
        return [line for _, line in since]
    order = sorted(range(len(since)), key=lambda i: (not since[i][0], -i))
    return [since[i][1] for i in sorted(order[:n])]


def _log_block(view: dict, turn: TurnInfo | None, n: int, titles: bool, lang,
               width: int | None = None) -> list:
    """``n`` lines of what happened since the seat's last move when there is something
    (the moves and the messages: ``latest``), else the latest messages; with ``width``,
    each wrapped between words as ``unbroken`` does."""
    if turn is not None and turn.since:
        title, lines = turn.since_title, latest(turn.since, n)
    else:
        title = tr(lang, "Recent events")
        lines = [Text("  " + literal(line)) for line in view.get("log", [])[-n:]]
    if not n or not lines:
        return []
    if width is not None:
        lines = [part for line in lines for part in unbroken(line, width)]
    return ([Text(title, style="bold underline")] if titles else []) + lines


def unbroken(line: Text, width: int) -> list[Text]:
    """A line at most ``width`` wide, or wrapped between its words, never between a word
    and the number after it ("Player 4", "turn 3"), the lines after the first indented
    two more than it."""
    if line.cell_len <= width:
        return [line]
    lead = len(line.plain) - len(line.plain.lstrip(" "))
    tokens: list[Text] = []
    for word in line[lead:].split(" "):
        if not word.plain:
            continue
        if tokens and word.plain.rstrip(".,;:!?)").isdigit():
            tokens[-1] = Text.assemble(tokens[-1], " ", word)
        else:
            tokens.append(word)
    return flow(tokens, width, indent=lead + 2, first=Text(" " * lead))


def _lang(prog) -> str | None:
    return language(prog)


def title_line(title: str, width: int) -> list[Text]:
    """A title centred in a rule as wide as the screen (folded, never cut, when the
    title is wider)."""
    t = Text(literal(title))
    if t.cell_len + 4 > width:
        return [t]
    left = (width - t.cell_len - 2) // 2
    right = width - t.cell_len - 2 - left
    return [Text("─" * left + " ", style="rule.line") + t
            + Text(" " + "─" * right, style="rule.line")]


def flow(tokens: list[Text], width: int, indent: int = 2, first: Text | None = None) -> list[Text]:
    """Tokens (each one whole: an item, a zone with its first item...) on lines at most
    ``width`` wide, one space apart; the lines after the first are indented. A token
    wider than a line gets a line of its own (the console folds it: nothing is cut)."""
    lines: list[Text] = []
    cur = first.copy() if first is not None else Text()
    fresh = first is None or not first.plain.strip()
    for tok in tokens:
        if not fresh and cur.cell_len + 1 + tok.cell_len > width:
            lines.append(cur)
            cur, fresh = Text(" " * indent), True
        if not fresh:
            cur.append(" ")
        cur.append_text(tok)
        fresh = False
    if cur.plain.strip():
        lines.append(cur)
    return lines


def _capped(prog, content: list[int], view: dict, room: int) -> list[Text]:
    """The items of a zone that fit in ``room`` columns: all, or the last (top) ones after
    a '+n' that counts the others."""
    items = [item_text(prog, it, True, view) for it in content]
    if sum(t.cell_len + 1 for t in items) <= room:
        return items
    kept: list[Text] = []
    used = 0
    for t in reversed(items):
        more = len(items) - len(kept) - 1
        if used + t.cell_len + 1 + len(f"+{more} ") > room:
            break
        kept.insert(0, t)
        used += t.cell_len + 1
    return [Text(f"+{len(items) - len(kept)}", style="dim")] + kept


def zone_tokens(prog, label: str, content, view: dict, lang, lead: bool,
                room: int | None = None, counts: bool = False) -> list[Text]:
    """One zone as tokens: its name glued to its first item (so a name never ends a
    line alone), then its other items; hidden contents as a count. ``room``: at most
    that many columns of items (the top ones); ``counts``: the number of items only."""
    head = Text("· " if lead else "") + Text(f"{literal(label)}:", style="bold")
    if isinstance(content, dict):
        n = content.get("count", 0)
        rest = [Text(tr(lang, "{n} hidden", n=n) if n else tr(lang, "empty"), style="dim")]
    elif not content:
        rest = [Text(tr(lang, "empty"), style="dim")]
    elif counts:
        rest = [Text(str(len(content)))]
    elif room is not None:
        rest = _capped(prog, content, view, room)
    else:
        rest = [item_text(prog, it, True, view) for it in content]
    first = head + Text(" ") + rest[0]
    return [first] + rest[1:]


def _shared_tokens(prog, view: dict, lang, width: int) -> list[Text]:
    from ..interpreter import display
    toks: list[Text] = []
    for z in prog.zones:
        if z.board is not None or z.owner is not None or z.key not in view["zones"] \
                or not drawn(prog, z.name):
            continue
        content = view["zones"][z.key]
        label = literal(display.name(prog, z.name))
        if isinstance(content, list) and content:
            label += f" ({len(content)})"
        toks += zone_tokens(prog, label, content, view, lang, bool(toks), room=width // 2)
    return toks


def _var_tokens(prog, view: dict, lead: bool) -> list[Text]:
    from ..interpreter import display
    toks = []
    for k, v in var_items(prog, view):
        t = Text("· " if toks or lead else "")
        t.append(f"{literal(display.name(prog, k))}:", style="bold")
        toks.append(t + Text(" ") + _var_text(prog, k, v) if v != [] else t + Text(" -"))
    return toks


def _has_seat_lines(prog, view: dict) -> bool:
    """Whether the game has anything per seat to show: a per-player zone or variable."""
    return any(z.owner == 0 and z.board is None and drawn(prog, z.name) for z in prog.zones) \
        or bool(pvar_names(view, prog))


def _seat_lines(prog, view: dict, seat, p: int, mode: str, lang, width: int) -> list[Text]:
    """One seat's zones and variables: the viewer's own in full, another's on one line
    when it fits (long public piles as their top items, or as counts)."""
    from ..interpreter import display
    who = Text(literal(display.player_name(prog, p)), style="bold")
    if p == seat:
        who.append(" " + tr(lang, "(you)"), style="bold")
    who.append(":", style="bold")
    own = p == seat
    toks: list[Text] = []
    for z in prog.zones:
        if z.owner != 0 or z.board is not None or not drawn(prog, z.name):
            continue
        content = view["zones"].get(f"{z.name}:{p}", {"count": 0})
        toks += zone_tokens(prog, literal(display.name(prog, z.name)), content, view, lang,
                            bool(toks), room=None if own else width // 2,
                            counts=mode == "counts" and not own)
    for v in pvar_names(view, prog):
        t = Text("· " if toks else "") + Text(f"{literal(display.name(prog, v))}:", style="bold")
        value = view["pvars"][v][p]
        toks.append(t + Text(" ") + _var_text(prog, v, value) if value != [] else t + Text(" -"))
    return flow(toks, width, indent=4, first=who)


def _move_columns(entries: list[tuple[Text, Text, Text]], width: int, gap: int = 3) -> list[Text]:
    """(number, notation, text) cells in as few rows as fit in ``width`` columns, filled
    column by column; each column as wide as its widest cell."""
    n = len(entries)
    if not n:
        return []

    def widths(col):
        nw = max(x[0].cell_len for x in col)
        ow = max(x[1].cell_len for x in col)
        tw = max(x[2].cell_len for x in col)
        return nw, ow, tw, nw + 1 + ow + (2 + tw if tw else 0)

    for rows in range(1, n + 1):
        cols = [entries[i:i + rows] for i in range(0, n, rows)]
        ws = [widths(c) for c in cols]
        if sum(w[3] for w in ws) + gap * (len(cols) - 1) <= width:
            break
    lines = []
    for r in range(rows):
        line = Text()
        for ci, (col, (nw, ow, _tw, cw)) in enumerate(zip(cols, ws)):
            if r >= len(col):
                continue
            num, note, text = col[r]
            cell = Text(" " * (nw - num.cell_len)) + num + Text(" ") + note
            if text.cell_len:
                cell += Text(" " * (ow - note.cell_len + 2)) + text
            if ci:
                line.append(" " * gap)
            line.append_text(cell)
            line.append(" " * (cw - cell.cell_len))
        line.rstrip()
        lines.append(line)
    return lines


def common_verb(entries) -> str | None:
    """The verb every move's notation starts with, if they share one."""
    verbs = {e[1].split(" ", 1)[0] for e in entries if " " in e[1]}
    if len(verbs) == 1 and all(" " in e[1] for e in entries):
        return verbs.pop()
    return None


def move_cells(entries, style: str) -> list[tuple[Text, Text, Text]]:
    """Each move as (number, notation, text) for the given style (see ``Fit.moves``)."""
    verb = common_verb(entries) if style != "text" else None
    out = []
    for n, notation, text, short in entries:
        note = notation.split(" ", 1)[1] if verb else notation
        shown = Text() if style == "notation" and note else short if style == "short" else text
        out.append((Text(f"{n}."), Text(note), shown))
    return out


def compact_lines(prog, view: dict, seat, fit: Fit, width: int, turn: TurnInfo | None = None,
                  body: bool = True, shown: int | None = None,
                  memo: dict | None = None) -> list[Text]:
    """A screen in the compact layout at one rung: the title, the boards (cells only,
    or with their names), the shared zones and variables, each seat's zones (the
    viewer's own in full, the others' one line each), the latest messages, then the
    prompt, the moves in columns and the hint. Without ``body`` only the prompt, the
    moves and the hint; ``shown``: only the first moves, and how many more there are.
    ``memo`` keeps the parts already drawn for another rung of the same screen."""
    lang = _lang(prog)
    memo = {} if memo is None else memo

    def part(key, make):
        if key not in memo:
            memo[key] = make()
        return memo[key]

    if turn is not None and shown is None:
        shown = len(turn.entries)
    out: list = _body_lines(prog, view, seat, fit, width, turn, part, lang) if body else []
    if turn is None:
        return out
    return out + _turn_lines(turn, fit, width, shown, part, lang)


def _body_lines(prog, view: dict, seat, fit: Fit, width: int, turn: TurnInfo | None,
                part, lang) -> list:
    """The body of a compact screen (``compact_lines``): the title, the boards, the
    shared zones and variables, the seats' zones and the latest messages, each part
    drawn once (``part``)."""
    out: list = []
    if turn is not None and fit.title:
        out += part("title", lambda: title_line(turn.title, width))
    if fit.boards:
        out += _board_parts(prog, view, fit, width, turn, part)
    if fit.shared:
        def shared():
            toks = _shared_tokens(prog, view, lang, width)
            return flow(toks + _var_tokens(prog, view, bool(toks)), width)
        out += part("shared", shared)
    if _has_seat_lines(prog, view):
        for p in range(view["players"]):
            if (p == seat and fit.own) or (p != seat and fit.others != "none"):
                mode = "zones" if p == seat else fit.others
                out += part(("seat", p, mode),
                            lambda: _seat_lines(prog, view, seat, p, mode, lang, width))  # noqa: B023 - called at once
    out += _log_block(view, turn, fit.log, fit.titles, lang, width)   # long lines wrap between words
    return out


def _board_parts(prog, view: dict, fit: Fit, width: int, turn: TurnInfo | None,
                 part) -> list:
    """Each board of a compact screen (its cells only, or with their names), under its
    name when the rung has titles."""
    from ..interpreter import display
    out: list = []
    for board in prog.boards:
        if not drawn(prog, board):
            continue
        if fit.titles:
            out.append(Text(literal(display.name(prog, board)), style="bold underline"))
        marks = turn.marks if turn is not None and not fit.names else None
        last = turn.last if turn is not None else frozenset()
        out += part(("board", board, fit.names),
                    lambda: board_lines(prog, view, board, fit.names, width=width,  # noqa: B023
                                        marks=marks, last=last))  # noqa: B023 - called at once
    return out


def _turn_lines(turn: TurnInfo, fit: Fit, width: int, shown: int, part, lang) -> list:
    """The end of a compact screen: the prompt, the first ``shown`` moves in columns (and
    how many more there are) and the hint."""
    out: list = [turn.prompt]
    out += part(("moves", fit.moves, shown),
                lambda: _move_columns(move_cells(turn.entries[:shown], fit.moves), width))
    if shown < len(turn.entries):
        out.append(Text(tr(lang, "{n} more moves: type 'moves' to see them all.",
                           n=len(turn.entries) - shown), style="dim"))
    if fit.hint and turn.hint is not None:
        out.append(turn.hint)
    return out


def height(console: Console, parts: list, width: int | None = None) -> int:
    """How many lines these renderables take on the console (at ``width`` columns)."""
    width = width or console.size.width
    opts = console.options.update(width=width)
    n = 0
    for p in parts:
        if isinstance(p, Text) and "\n" not in p.plain and p.cell_len <= width:
            n += 1           # the common case, without rendering
        else:
            n += len(console.render_lines(p, opts, pad=False))
    return n


def _natural_width(console: Console, part) -> int:
    """How wide a part of the full layout is when nothing limits it."""
    if isinstance(part, Columns):
        return max((_natural_width(console, r) for r in part.renderables), default=0)
    if isinstance(part, Rule):
        return 0
    opts = console.options.update(width=10_000)
    return max((Segment.get_line_length(line) for line in
                console.render_lines(part, opts, pad=False)), default=0)


def moves_full(entries, style: str = "text") -> Table | Columns:
    """The moves of the full layout: a table of number, notation and text, or for more
    than 12 moves, rich's columns; each move written in ``style`` (see ``Fit.moves``)."""
    cells = move_cells(entries, style)
    if len(entries) <= 12:
        t = Table.grid(padding=(0, 2))
        t.add_column(justify="right")
        t.add_column(overflow="fold")
        t.add_column(overflow="fold")
        for num, note, text in cells:
            t.add_row(num, note, text)
        return t
    out = []
    for (_, note, text), (n, *_) in zip(cells, entries):
        cell = Text(f"{n:>2}. ") + note + Text("  ")
        cell.append_text(text)
        out.append(cell)
    return Columns(out, padding=(0, 3), column_first=True)


def full_parts(prog, view: dict, seat, turn: TurnInfo | None, body: bool = True,
               log_lines: int = 6) -> list:
    """The full layout (every detail; it may be longer than the terminal)."""
    parts: list = []
    if body:
        if turn is not None:
            parts += [Text(""), Rule(safe_text(turn.title))]
        since = turn is not None and bool(turn.since)
        parts.append(screen(prog, view, seat, log_lines=0 if since else log_lines,
                            last=turn.last if turn is not None else frozenset()))
        if since:
            parts += [Text("")] + _log_block(view, turn, log_lines, True, _lang(prog))
    if turn is not None:
        turn.used = turn.most
        parts += [Text(""), turn.prompt, moves_full(turn.entries, turn.most)]
        if turn.hint is not None:
            parts.append(turn.hint)
    return parts


def fit_screen(console: Console, prog, view: dict, seat, turn: TurnInfo | None = None,
               layout: str = "auto", reserve: int = 1, body: bool = True,
               log_lines: int = 6) -> list:
    """What to print for a screen, as a list of renderables: with ``layout`` "full" the
    full layout; "compact" the most detailed rung of the compact layout that fits the
    console (its size less ``reserve`` lines: the prompt); "auto" the full layout when
    it fits the console whole, else as "compact". Without ``turn`` (the end of a game,
    a replay) a spectator's board without moves."""
    width, lines = console.size
    if layout == "full":
        return full_parts(prog, view, seat, turn, body, log_lines)
    budget = lines - reserve
    if layout == "auto":
        full = full_parts(prog, view, seat, turn, body, log_lines)
        if all(_natural_width(console, p) <= width for p in full) \
                and height(console, full, width) <= budget:
            return full

    memo: dict = {}

    def draw(fit: Fit) -> list:
        if fit.all_moves or turn is None:
            return compact_lines(prog, view, seat, fit, width, turn, body, memo=memo)
        return _fewer_moves(console, prog, view, seat, fit, width, turn, body, budget, memo)

    def fits(parts: list) -> bool:
        return height(console, parts, width) <= budget

    top = turn.most if turn is not None else "text"
    most = _richness("moves", top)

    def capped(fit: Fit) -> Fit:   # (moves written no richer than the turn allows)
        return replace(fit, moves=top) if _richness("moves", fit.moves) > most else fit

    for fit in map(capped, RUNGS_SINCE if turn is not None and turn.since else RUNGS):
        if not fit.boards and turn is not None and turn.marks:
            kept = next(((f, p) for f in map(capped, BOARD_KEPT)
                         for p in [_fewer_moves(console, prog, view, seat, f, width, turn,
                                                body, budget, memo, least=1)] if fits(p)), None)
            if kept is not None:
                fit, parts = kept
                break
        parts = draw(fit)
        if fits(parts):
            break
    else:
        return _used(turn, fit, parts)
    if not fit.all_moves:
        # only some moves fit: give nothing back for them (the moves come first)
        return _used(turn, fit, parts)
    return _used(turn, *_refill(fit, parts, draw, fits, most))


def _refill(fit: Fit, parts: list, draw, fits, most: int) -> tuple[Fit, list]:
    """The first rung that fits may have left out more than it had to: what fits of it
    given back (``REFILL``), the moves no richer than ``most`` (``_richness``)."""
    for name, value in REFILL:
        if name == "moves" and _richness(name, value) > most:
            continue
        if _richness(name, value) > _richness(name, getattr(fit, name)):
            richer = replace(fit, **{name: value})
            cand = draw(richer)
            if fits(cand):
                fit, parts = richer, cand
    return fit, parts


def _used(turn: TurnInfo | None, fit: Fit, parts: list) -> list:
    """``parts``, having noted in ``turn`` how its moves were written."""
    if turn is not None:
        turn.used = fit.moves
    return parts


# what is given back first when there is room (see fit_screen)
REFILL = [("hint", True), ("others", "counts"), ("log", 1), ("moves", "short"),
          ("others", "zones"), ("moves", "bare"), ("moves", "text"), ("log", 2), ("log", 3),
          ("titles", True), ("names", True), ("log", 4), ("log", 6)]
_ORDER = {"moves": ["notation", "short", "bare", "text"], "others": ["none", "counts", "zones"]}


def _richness(name: str, value) -> int:
    return _ORDER[name].index(value) if name in _ORDER else int(value)


def _fewer_moves(console, prog, view, seat, fit, width, turn, body, budget, memo,
                 least: int = 0) -> list:
    """The last rung: as many of the moves as fit (at least ``least``), and how many more
    there are. A screen grows with the moves it shows: the most that fit are found by
    bisection (a few screens drawn, not one per move of a decision of hundreds)."""
    def drawn(k: int) -> list:
        return compact_lines(prog, view, seat, fit, width, turn, body, shown=k, memo=memo)
    low, high, best = least, len(turn.entries) - 1, None
    while low <= high:
        k = (low + high) // 2
        parts = drawn(k)
        if height(console, parts, width) <= budget:
            best, low = parts, k + 1
        else:
            high = k - 1
    return best if best is not None else drawn(least)
