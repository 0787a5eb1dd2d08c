"""Drawing what one seat may see: boards on a character grid, the other zones, moves
and results. Everything shown comes from a view (``interpreter.views.view``), the
seat's own legal moves, and the ruleset's display data (names, labels, colours,
board layout) -- never from the game state itself."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, Group, RenderHook
from rich.rule import Rule
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ..interpreter import display
from ..interpreter.views import item_visible
from ..interpreter.views import view as make_view
from .i18n import tr

EMPTY = "·"
HIDDEN = "?"
FACE_DOWN = "▒▒"  # an item lying face down


# ---------------------------------------------------------------- literal text

# characters that a terminal would act on instead of showing: C0 controls but tab and
# newline, DEL, C1 controls, bidi marks, embeddings, overrides and isolates, line and
# paragraph separators, and lone surrogates (undecodable input bytes)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")


def _escape_char(m: re.Match) -> str:
    o = ord(m.group())
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def literal(s: str, newlines: bool = True) -> str:
    """Text from a ruleset, a locale, a record or a user, made safe to print: every
    character a terminal would act on (ESC, CR, backspace, NUL, DEL, C1 controls, bidi
    overrides, lone surrogates...) is written as a visible escape such as ``\\x1b``;
    with ``newlines=False`` a newline is escaped too. Idempotent."""
    out = _UNSAFE.sub(_escape_char, s)
    return out if newlines else out.replace("\n", "\\x0a")


class _Literal:
    """A renderable whose text segments are passed through ``literal`` (control
    segments, such as clearing the screen, are the console's own and pass unchanged)."""

    def __init__(self, inner):
        self.inner = inner

    def __rich_console__(self, console, options):
        for seg in console.render(self.inner, options):
            if seg.control or not _UNSAFE.search(seg.text):
                yield seg
            else:
                yield Segment(literal(seg.text), seg.style)


class LiteralHook(RenderHook):
    def process_renderables(self, renderables):
        return [_Literal(r) for r in renderables]


def console(stderr: bool = False, **kw) -> Console:
    """A console for text that may come from a ruleset or a user: no markup, no emoji
    codes, no highlighting, and every control character escaped (``literal``) whatever
    the renderable. Styles are given with ``Text``/``style=``, never with markup."""
    c = Console(stderr=stderr, markup=False, emoji=False, highlight=False, **kw)
    c.push_render_hook(LiteralHook())
    return c


def safe_text(s: str, style: str | Style = "") -> Text:
    """A ``Text`` of ruleset or user text, escaped first so that characters rich would
    silently drop (CR, backspace, bell...) are visible too."""
    return Text(literal(s), style=style)


# ---------------------------------------------------------------- items

def _style(prog, item: int, bold: bool = True) -> Style | None:
    color = display.color_of_item(prog, item)
    if not color:
        return None
    try:
        return Style.parse(f"bold {color}" if bold else color)
    except Exception:  # noqa: BLE001 - a colour rich does not know: show it plain
        return None


def item_text(prog, item, short: bool = False, view: dict | None = None) -> Text:
    """An item's label (item variables from the view); an item the viewer may not see
    (face down) as a mark."""
    if not isinstance(item, int):
        return Text(FACE_DOWN, style="dim")
    ivars = view.get("ivars") if view else None
    return Text(literal(display.item_label(prog, item, short, ivars)), style=_style(prog, item) or "")


def items_text(prog, items: list[int], short: bool = True, sep: str = " ",
               view: dict | None = None) -> Text:
    out = Text()
    for i, it in enumerate(items):
        if i:
            out.append(sep)
        out.append_text(item_text(prog, it, short, view))
    return out


# ---------------------------------------------------------------- boards

def _label_width(prog, kind: str) -> int:
    w = max((cell_len(literal(display.item_label(prog, i.id, True))) for i in prog.items if i.kind == kind),
            default=1)
    return max(w, 1)


def _cell_lines(prog, content, view: dict | None = None, mark: str | None = None) -> list[Text]:
    """What one cell shows, one line per item: a stack is listed from its top item (on
    the cell's own line) down to its bottom item, as seen from the side; an item lying
    face down (``{"hidden": true}`` in a view) is a mark; a cell the viewer may not look
    into is '?' (with the number of items when there are several); an empty cell with a
    ``mark`` (the number of a move onto it) shows the mark."""
    if isinstance(content, dict):
        n = content.get("count", 0)
        return [Text(HIDDEN if n == 1 else f"{HIDDEN}{n}" if n else EMPTY, style="dim")]
    if not content:
        return [Text(mark, style="bold reverse") if mark else Text(EMPTY, style="dim")]
    return [item_text(prog, it, True, view) for it in reversed(content)]


def _centred(t: Text, w: int) -> Text:
    pad = max(0, w - t.cell_len)
    return Text(" " * (pad // 2)) + t + Text(" " * (pad - pad // 2))


def _board_cells(prog, view: dict, board: str, names: bool, width: int | None = None,
                 marks: dict | None = None):
    """Each cell of the board with its drawn lines, its start column and its row: the
    layout's x is in half-cell steps, so rows of a triangle or a hex board are offset by
    half a cell. A board too wide for ``width`` columns is drawn with one column less
    between neighbours when that makes it fit (cells of an even width then sit half a
    column off the exact half-cell offset). Returns (cells, width of a cell)."""
    zones = [prog.zones[z] for z in prog.boards[board]]
    if not zones:
        return [], 0
    marks = marks or {}
    drawn = {z.id: _cell_lines(prog, view["zones"].get(z.key, []), view, marks.get(z.id))
             for z in zones}
    lw = max([_label_width(prog, zones[0].kind)]
             + [t.cell_len for lines in drawn.values() for t in lines])
    nw = max(cell_len(literal(z.cell.name)) for z in zones) if names else 0
    w = max(lw, nw)
    unit = (w + 2) // 2          # two x steps (one cell) = w + 1 or w + 2 columns
    minx = min(z.cell.x for z in zones)
    span = max(z.cell.x for z in zones) - minx
    if width is not None and span * unit + w > width and span * (w + 1) / 2 + w <= width:
        unit = (w + 1) / 2       # tight: a single space between neighbours
    out = []
    for y in sorted({z.cell.y for z in zones}):
        col = 0
        for z in sorted((z for z in zones if z.cell.y == y), key=lambda z: z.cell.x):
            start = int((z.cell.x - minx) * unit + 0.5)
            if start < col:           # overlapping layout: keep one space between cells
                start = col + 1 if col else 0
            out.append((z, drawn[z.id], start, y))
            col = start + w
    return out, w


def _bands(starts: list[int], w: int, width: int | None) -> list[tuple[int, int]]:
    """Ranges [first, last] of cell start columns, each drawn in at most ``width``
    columns, cut between cells where the layout leaves the widest gap (between the parts
    of a strip, for example), so that a board too wide for the screen is drawn in several
    bands, one under the other."""
    xs = sorted(set(starts))
    if not xs:
        return []
    if width is None or xs[-1] + w - xs[0] <= width:
        return [(xs[0], xs[-1])]
    bands, i = [], 0
    while i < len(xs):
        lo, j = xs[i], i
        while j + 1 < len(xs) and xs[j + 1] + w - lo <= width:
            j += 1
        if j + 1 < len(xs) and j > i:
            # among the cuts that fit, the widest gap wins (the furthest one on equal gaps)
            gaps = [(xs[k + 1] - xs[k], k) for k in range(i, j + 1)]
            j = max(gaps)[1]
        bands.append((lo, xs[j]))
        i = j + 1
    return bands


def board_lines(prog, view: dict, board: str, names: bool = True,
                width: int | None = None, marks: dict | None = None) -> list[Text]:
    """The board drawn from its cells' layout positions. Each cell shows its item (the
    short label), a dot when empty, '?' when hidden, a mark for an item lying face down;
    a cell holding a stack lists all its items, top first, on the lines below it. With
    ``names`` a dim line under each row gives the cells' names (as used in moves). A
    board wider than ``width`` columns is drawn in bands, cut where the layout has gaps.
    ``marks``: what an empty cell shows instead of a dot (the number of a move onto it,
    on a board drawn without the cells' names)."""
    cells, w = _board_cells(prog, view, board, names, width, marks)
    out: list[Text] = []
    for lo, last in _bands([start for _, _, start, _ in cells], w, width):
        band = [c for c in cells if lo <= c[2] <= last]
        if out:
            out.append(Text(""))
        ys = [c[3] for c in band]
        for y in range(min(ys), max(ys) + 1):
            row = [c for c in band if c[3] == y]
            if not row:
                if not names:         # keep the layout's empty rows as spacing
                    out.append(Text(""))
                continue
            depth = max(len(lines) for _, lines, _, _ in row)
            for k in range(depth):
                line, col = Text(), lo
                for z, lines, start, _ in row:
                    if k < len(lines):
                        line.append(" " * (start - col))
                        line.append_text(_centred(lines[k], w))
                        col = start + w
                line.rstrip()
                out.append(line)
            if names:
                name_line, col = Text(style="dim"), lo
                for z, _, start, _ in row:
                    name_line.append(" " * (start - col) + _centred(Text(literal(z.cell.name)), w).plain)
                    col = start + w
                name_line.rstrip()
                out.append(name_line)
    return out


class BoardDrawing:
    """A board as a rich renderable: drawn for the width it is given when printed."""

    def __init__(self, prog, view: dict, board: str, names: bool = True):
        self.prog, self.view, self.board, self.names = prog, view, board, names

    def __rich_console__(self, console, options):
        yield from board_lines(self.prog, self.view, self.board, self.names,
                               width=options.max_width)


# ---------------------------------------------------------------- the other zones

def _zone_content(prog, content, kind: str, short: bool = True, view: dict | None = None) -> Text:
    if isinstance(content, dict):
        n = content.get("count", 0)
        return Text(f"{n} hidden" if n else "empty", style="dim")
    if not content:
        return Text("empty", style="dim")
    return items_text(prog, content, short, view=view)


def zones_table(prog, view: dict, seat) -> Group:
    """Shared zones (public ones with their items, hidden ones as counts), then each
    player's zones: the viewer's own in full, the others' as the view gives them."""
    parts = []
    shared = Table.grid(padding=(0, 1))
    shared.add_column(style="bold", overflow="fold")
    shared.add_column(overflow="fold")
    shown = False
    for z in prog.zones:
        if z.board is not None or z.owner is not None or z.key not in view["zones"]:
            continue
        content = view["zones"][z.key]
        title = literal(display.name(prog, z.name))
        count = len(content) if isinstance(content, list) else content.get("count", 0)
        shared.add_row(Text(f"{title} ({count})"), _zone_content(prog, content, z.kind, view=view))
        shown = True
    if shown:
        parts.append(shared)
    per_player = []
    for z in prog.zones:
        if z.owner == 0 and z.board is None:
            per_player.append(z.name)
    if per_player:
        t = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        t.add_column("", overflow="fold")
        for name in per_player:
            t.add_column(Text(literal(display.name(prog, name))), overflow="fold")
        for v in pvar_names(view):
            t.add_column(Text(literal(display.name(prog, v))), overflow="fold")
        for p in range(view["players"]):
            who = Text(literal(display.player_name(prog, p)))
            if p == seat:
                who.append(" (you)", style="bold")
                who.stylize("bold")
            row = [who]
            for name in per_player:
                content = view["zones"].get(f"{name}:{p}", {"count": 0})
                row.append(_zone_content(prog, content, "", view=view))
            for v in pvar_names(view):
                row.append(_var_text(prog, v, view["pvars"][v][p]))
            t.add_row(*row)
        parts.append(t)
    if view.get("vars"):
        vt = Text()
        for i, (k, v) in enumerate(sorted(view["vars"].items())):
            if i:
                vt.append("   ")
            vt.append(f"{literal(display.name(prog, k))}: ", style="bold")
            vt.append_text(_var_text(prog, k, v))
        parts.append(vt)
    return Group(*parts)


def pvar_names(view: dict) -> list[str]:
    return sorted(view.get("pvars", {}))


def _plain_value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _typed_text(prog, t, v) -> Text:
    """A variable's value written for people by its declared type: players by name, enum
    values by their (localised) name, items by their short label, cells by notation."""
    if v is None:
        return Text("-")
    if isinstance(v, dict):                  # an item the viewer may not see
        return Text(FACE_DOWN if v.get("hidden") else str(v), style="dim")
    name = getattr(t, "name", None)
    if name == "list" and isinstance(v, list):
        out = Text()
        for i, x in enumerate(v):
            if i:
                out.append(", ")
            out.append_text(_typed_text(prog, t.item, x))
        return out
    if name == "player" and isinstance(v, int):
        return Text(literal(display.player_name(prog, v)))
    if name == "bool" or isinstance(v, bool):
        return Text(literal(display.text(prog, "yes", "yes")) if v else literal(display.text(prog, "no", "no")))
    if name in prog.checked.enums:
        return Text(literal(display.name(prog, f"{name}.{v}")))
    if name in prog.checked.kinds and isinstance(v, int):
        return item_text(prog, v, short=True)
    if name in prog.boards and isinstance(v, int):
        return Text(literal(display.cell_notation(prog, v)))
    return Text(_plain_value(v))


def _var_text(prog, var: str, v) -> Text:
    decl = prog.checked.vars.get(var)
    return _typed_text(prog, decl.type if decl is not None else None, v)


# ---------------------------------------------------------------- whole screens

def boards_full(prog, view: dict, names: bool = True) -> list:
    """Each board under its name, drawn whole with its cells' names."""
    parts: list = []
    for board in prog.boards:
        parts.append(Text(literal(display.name(prog, board)), style="bold underline"))
        parts.append(BoardDrawing(prog, view, board, names))
        parts.append(Text(""))
    return parts


def screen(prog, view: dict, seat, names: bool = True, log_lines: int = 6) -> Group:
    """The board(s), the other zones and the latest messages, as ``seat`` sees them."""
    parts = boards_full(prog, view, names)
    parts.append(zones_table(prog, view, seat))
    if log_lines and view.get("log"):
        parts.append(Text(""))
        parts.append(Text("Recent events", style="bold underline"))
        for line in view["log"][-log_lines:]:
            parts.append(Text("  " + literal(line)))
    return Group(*parts)


# ---------------------------------------------------------------- screens that fit

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


def _rungs() -> list[Fit]:
    """From the most detailed compact screen to the barest: each rung leaves out
    something more (it is a command away: board, zones, log, moves)."""
    steps = [dict(names=True, log=6), dict(log=4), dict(names=False, log=3), dict(log=2),
             dict(log=1), dict(moves="bare"), dict(titles=False), dict(log=0),
             dict(hint=False), dict(moves="short"), dict(others="counts"), dict(moves="notation"),
             dict(others="none"), dict(shared=False), dict(boards=False), dict(title=False),
             dict(own=False), dict(all_moves=False)]
    out, cur = [], {}
    for step in steps:
        cur = {**cur, **step}
        out.append(Fit(**cur))
    return out


RUNGS = _rungs()


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


def _lang(prog) -> str | None:
    return getattr(prog, "locale", None)


def title_line(title: str, width: int) -> list[Text]:
    """A title centred in a rule as wide as the screen (folded, never cut, when the
    title is wider)."""
    t = Text(literal(title))
    if t.cell_len + 4 > width:
        return [t]
    left = (width - t.cell_len - 2) // 2
    right = width - t.cell_len - 2 - left
    return [Text("─" * left + " ", style="rule.line") + t + Text(" " + "─" * right, style="rule.line")]


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
    toks: list[Text] = []
    for z in prog.zones:
        if z.board is not None or z.owner is not None or z.key not in view["zones"]:
            continue
        content = view["zones"][z.key]
        label = literal(display.name(prog, z.name))
        if isinstance(content, list) and content:
            label += f" ({len(content)})"
        toks += zone_tokens(prog, label, content, view, lang, bool(toks), room=width // 2)
    return toks


def _var_tokens(prog, view: dict, lead: bool) -> list[Text]:
    toks = []
    for k, v in sorted(view.get("vars", {}).items()):
        t = Text("· " if toks or lead else "")
        t.append(f"{literal(display.name(prog, k))}:", style="bold")
        toks.append(t + Text(" ") + _var_text(prog, k, v) if v != [] else t + Text(" -"))
    return toks


def _seat_lines(prog, view: dict, seat, p: int, mode: str, lang, width: int) -> list[Text]:
    """One seat's zones and variables: the viewer's own in full, another's on one line
    when it fits (long public piles as their top items, or as counts)."""
    who = Text(literal(display.player_name(prog, p)), style="bold")
    if p == seat:
        who.append(tr(lang, " (you)"), style="bold")
    who.append(":", style="bold")
    own = p == seat
    toks: list[Text] = []
    for z in prog.zones:
        if z.owner != 0 or z.board is not None:
            continue
        content = view["zones"].get(f"{z.name}:{p}", {"count": 0})
        toks += zone_tokens(prog, literal(display.name(prog, z.name)), content, view, lang,
                            bool(toks), room=None if own else width // 2,
                            counts=mode == "counts" and not own)
    for v in pvar_names(view):
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
        for ci, (col, (nw, ow, tw, cw)) in enumerate(zip(cols, ws)):
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
    out: list = []
    if body and turn is not None and fit.title:
        out += part("title", lambda: title_line(turn.title, width))
    if body and fit.boards:
        for board in prog.boards:
            if fit.titles:
                out.append(Text(literal(display.name(prog, board)), style="bold underline"))
            marks = turn.marks if turn is not None and not fit.names else None
            out += part(("board", board, fit.names),
                        lambda: board_lines(prog, view, board, fit.names, width=width,
                                            marks=marks))
    if body and fit.shared:
        def shared():
            toks = _shared_tokens(prog, view, lang, width)
            return flow(toks + _var_tokens(prog, view, bool(toks)), width)
        out += part("shared", shared)
    if body:
        for p in range(view["players"]):
            if (p == seat and fit.own) or (p != seat and fit.others != "none"):
                mode = "zones" if p == seat else fit.others
                out += part(("seat", p, mode),
                            lambda: _seat_lines(prog, view, seat, p, mode, lang, width))
    if body and fit.log and view.get("log"):
        if fit.titles:
            out.append(Text(tr(lang, "Recent events"), style="bold underline"))
        for line in view["log"][-fit.log:]:
            out.append(Text("  " + literal(line)))     # long ones wrap between words
    if turn is None:
        return out
    out.append(turn.prompt)
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


def moves_full(entries) -> Table | Columns:
    """The moves of the full layout: a table of number, notation and text, or for more
    than 12 moves, rich's columns."""
    if len(entries) <= 12:
        t = Table.grid(padding=(0, 2))
        t.add_column(justify="right")
        t.add_column(overflow="fold")
        t.add_column(overflow="fold")
        for n, notation, text, _ in entries:
            t.add_row(f"{n}.", Text(notation), text)
        return t
    cells = []
    for n, notation, text, _ in entries:
        cell = Text(f"{n:>2}. {notation}  ")
        cell.append_text(text)
        cells.append(cell)
    return Columns(cells, padding=(0, 3), column_first=True)


def full_parts(prog, view: dict, seat, turn: TurnInfo | None, body: bool = True,
               log_lines: int = 6) -> list:
    """The full layout (every detail; it may be longer than the terminal)."""
    parts: list = []
    if body:
        if turn is not None:
            parts += [Text(""), Rule(safe_text(turn.title))]
        parts.append(screen(prog, view, seat, log_lines=log_lines))
    if turn is not None:
        parts += [Text(""), turn.prompt, moves_full(turn.entries)]
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

    for fit in RUNGS:
        parts = draw(fit)
        if fits(parts):
            break
    else:
        return parts
    # the first rung that fits may have left out more than it had to: give back what fits
    for name, value in REFILL:
        if _richness(name, value) > _richness(name, getattr(fit, name)):
            richer = replace(fit, **{name: value})
            cand = draw(richer)
            if fits(cand):
                fit, parts = richer, cand
    return parts


# what is given back first when there is room (see fit_screen)
REFILL = [("hint", True), ("others", "counts"), ("log", 1), ("moves", "short"),
          ("others", "zones"), ("moves", "bare"), ("moves", "text"), ("log", 2), ("log", 3),
          ("titles", True), ("names", True), ("log", 4), ("log", 6)]
_ORDER = {"moves": ["notation", "short", "bare", "text"], "others": ["none", "counts", "zones"]}


def _richness(name: str, value) -> int:
    return _ORDER[name].index(value) if name in _ORDER else int(value)


def _fewer_moves(console, prog, view, seat, fit, width, turn, body, budget, memo) -> list:
    """The last rung: as many of the moves as fit, and how many more there are."""
    for k in range(len(turn.entries) - 1, -1, -1):
        parts = compact_lines(prog, view, seat, fit, width, turn, body, shown=k, memo=memo)
        if height(console, parts, width) <= budget:
            break
    return parts


# ---------------------------------------------------------------- moves

def value_text(game, before_view: dict, v, type_code: str, can_see, short: bool = False) -> Text:
    """How a player reads a move's value: items by their label (or 'a <kind>' when
    hidden from them), cells with the item on them, players by name. With ``short``
    items by their short label, without the cell they lie on."""
    prog = game.program
    if type_code.startswith("list:"):
        out = Text()
        for i, x in enumerate(v):
            if i:
                out.append(" + ")
            out.append_text(value_text(game, before_view, x, type_code[5:], can_see, short))
        return out
    if v is None:
        return Text("-")
    if type_code == "item":
        if can_see(v):
            out = item_text(prog, v, short, view=before_view)
            where = None if short else _board_cell_of(prog, before_view, v)
            if where is not None:       # an item on a board: say where it lies
                out.append(f" ({literal(display.cell_notation(prog, where))})", style="dim")
            return out
        return Text(literal(display.hidden_label(prog, prog.items[v].kind)), style="dim")
    if type_code == "cell":
        z = prog.zones[v]
        content = before_view["zones"].get(z.key)
        if isinstance(content, list) and content:
            return item_text(prog, content[-1], short, view=before_view)
        if isinstance(content, list):
            return Text("empty", style="dim")
        return Text(literal(display.cell_notation(prog, v)))
    return Text(literal(display.value_text(prog, v, type_code)))


def _board_cell_of(prog, view: dict, item: int) -> int | None:
    """The board cell where the view shows this item, if it shows it on a board."""
    for ids in prog.boards.values():
        for z in ids:
            content = view["zones"].get(prog.zones[z].key)
            if isinstance(content, list) and item in content:
                return z
    return None


def _items_in(v, type_code: str) -> list[int]:
    if type_code.startswith("list:"):
        return [i for x in v for i in _items_in(x, type_code[5:])]
    return [v] if type_code == "item" and v is not None else []


def describe_move(game_before, move, type_code: str, seat, game_after=None,
                  short: bool = False) -> tuple[str, Text]:
    """(notation, readable text) of a move as ``seat`` may see it. An item the seat
    cannot see before nor after the move is written as 'a <kind>', and then the
    notation (which names items) is replaced by the verb alone. ``short``: items by
    their short labels."""

    def can_see(item: int) -> bool:
        if seat == "all":
            return True
        return item_visible(game_before, item, seat) or (
            game_after is not None and item_visible(game_after, item, seat))
    before_view = make_view(game_before, seat)
    text = value_text(game_before, before_view, move.value, type_code, can_see, short)
    notation = literal(move.notation)
    if not all(can_see(i) for i in _items_in(move.value, type_code)):
        verb = before_view["pending"]["verb"] if before_view.get("pending") else None
        notation = literal(verb) if verb else "(hidden)"
    return notation, text


# ---------------------------------------------------------------- results

def result_table(prog, result: dict) -> Group:
    t = Table(title="Result", header_style="bold", title_style="bold")
    t.add_column("Rank", justify="right")
    t.add_column("Player")
    t.add_column(Text(literal(display.name(prog, "score"))), justify="right")
    ties = list(result.get("tiebreaks", {}))
    for name in ties:
        t.add_column(Text(literal(display.name(prog, name))), justify="right")
    rank = 1
    for group in result["ranking"]:
        for p in group:
            row = [Text(str(rank)), Text(literal(display.player_name(prog, p))),
                   Text(str(result["scores"][p]))]
            row += [Text(str(result["tiebreaks"][name][p])) for name in ties]
            t.add_row(*row, style="bold" if p in result["winners"] else None)
        rank += len(group)
    winners = [literal(display.player_name(prog, p)) for p in result["winners"]]
    if len(winners) == 1:
        line = Text(f"Winner: {winners[0]}", style="bold green")
    elif winners:
        line = Text("Shared win: " + ", ".join(winners), style="bold green")
    else:
        line = Text("No winner", style="bold")
    return Group(t, line)
