"""Drawing what one seat may see: boards on a character grid, the other zones, moves
and results. Everything shown comes from a view (``interpreter.views.view``), the
seat's own legal moves, and the ruleset's display data (names, labels, colours,
board layout) -- never from the game state itself."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group, RenderHook
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from .i18n import language, tr
from .options import colour_enabled, set_colour  # noqa: F401 - the colour's API is here too

if TYPE_CHECKING:   # imported where a table is made: `meeple list` on a narrow terminal
    from rich.table import Table  # makes none (rich.table imports fractions, decimal)


def _display():
    """``meeple.interpreter.display``, imported when a game is first shown (``--help``,
    ``--version`` and ``list`` never load the interpreter)."""
    from ..interpreter import display
    return display


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


HUMAN = "human"  # a seat played by a person (the other seats: a bot spec)


def seat_label(lang: str | None, kind: str) -> str:
    """Who plays a seat, in the CLI's language: a human or a bot."""
    if kind == HUMAN:
        return tr(lang, "human")
    if kind == "random":
        return tr(lang, "random bot")
    if kind == "first":
        return tr(lang, "first-move bot")
    return tr(lang, "bot '{name}'", name=literal(kind))


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


# ---------------------------------------------------------------- colour

class _Console(Console):
    """rich's Console, but a closed output (``meeple play ... | head``) raises
    BrokenPipeError, for the caller to save what it must, instead of exiting at once."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        try:
            super().on_broken_pipe()  # points stdout at the null device, then exits
        except SystemExit:
            raise BrokenPipeError("the output was closed") from None


def console(stderr: bool = False, **kw) -> Console:
    """A console for text that may come from a ruleset or a user: no markup, no emoji
    codes, no highlighting, and every control character escaped (``literal``) whatever
    the renderable. Styles are given with ``Text``/``style=``, never with markup.
    Without colour (``colour_enabled``) it writes no style at all: no colour, no bold,
    no escape sequence but the screen controls of a hot-seat game."""
    if not colour_enabled():
        kw.setdefault("color_system", None)
        kw.setdefault("no_color", True)
    c = _Console(stderr=stderr, markup=False, emoji=False, highlight=False, **kw)
    c.push_render_hook(LiteralHook())
    return c


def counts_text(counts: dict) -> str:
    """``2-4``, or ``2-6, usually 4`` when the usual count is not the fewest."""
    text = f"{counts['min']}-{counts['max']}"
    return text if counts["default"] == counts["min"] else f"{text}, usually {counts['default']}"


def safe_text(s: str, style: str | Style = "") -> Text:
    """A ``Text`` of ruleset or user text, escaped first so that characters rich would
    silently drop (CR, backspace, bell...) are visible too."""
    return Text(literal(s), style=style)


# ---------------------------------------------------------------- items

def _style(prog, item: int, bold: bool = True) -> Style | None:
    color = _display().color_of_item(prog, item)
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
    return Text(literal(_display().item_label(prog, item, short, ivars)), style=_style(prog, item) or "")


def items_text(prog, items: list[int], short: bool = True, sep: str = " ",
               view: dict | None = None) -> Text:
    out = Text()
    for i, it in enumerate(items):
        if i:
            out.append(sep)
        out.append_text(item_text(prog, it, short, view))
    return out


def legend_key(prog, view: dict) -> list[str]:
    """The short forms the items the view shows are written with: for each value of an
    enumerated attribute of their kinds, its short form and its name when they differ
    ("Bi Birds", "m man"), each once, in the order of the attributes and the values."""
    d = _display()
    kinds = {prog.items[i].kind for content in view["zones"].values()
             if isinstance(content, list) for i in content if isinstance(i, int)}
    out: dict[str, None] = {}
    for kind in sorted(kinds):
        for t in prog.checked.kinds[kind].values():
            if t is None or t.tag != "enum":
                continue
            for v in prog.checked.enums.get(t.arg, []):
                path = f"{t.arg}.{v}"
                short, full = d.short(prog, path), d.name(prog, path)
                if short and short != full:
                    out.setdefault(f"{short} {full}", None)
    return [literal(x) for x in out]


def legend(prog, view: dict) -> list[tuple[Text, Text]]:
    """What each short label the view shows stands for: (short label, full label) for
    every item it shows whose short label is not its full one, in the order the zones
    show them, each short label once."""
    seen: dict[str, tuple[Text, Text]] = {}
    for content in view["zones"].values():
        for item in content if isinstance(content, list) else []:
            if not isinstance(item, int):
                continue
            short = item_text(prog, item, True, view)
            if short.plain not in seen:
                full = item_text(prog, item, False, view)
                if full.plain != short.plain:
                    seen[short.plain] = (short, full)
    return list(seen.values())


# ---------------------------------------------------------------- boards

def _label_width(prog, kind: str) -> int:
    w = max((cell_len(literal(_display().item_label(prog, i.id, True))) for i in prog.items if i.kind == kind),
            default=1)
    return max(w, 1)


def _cell_lines(prog, content, view: dict | None = None, mark: str | None = None) -> list[Text]:
    """What one cell shows, one line per item: a stack is listed from its top item (on
    the cell's own line) down to its bottom item, as seen from the side, items that look
    alike and lie one on another on one line with their number ("o×4"); an item lying
    face down (``{"hidden": true}`` in a view) is a mark; a cell the viewer may not look
    into is '?' (with the number of items when there are several); an empty cell with a
    ``mark`` (the number of a move onto it) shows the mark."""
    if isinstance(content, dict):
        n = content.get("count", 0)
        return [Text(HIDDEN if n == 1 else f"{HIDDEN}{n}" if n else EMPTY, style="dim")]
    if not content:
        return [Text(mark, style="bold reverse") if mark else Text(EMPTY, style="dim")]
    lines: list[Text] = []
    counts: list[int] = []
    for it in reversed(content):
        t = item_text(prog, it, True, view)
        if lines and t == lines[-1]:        # alike items lying one on another: "o×4"
            counts[-1] += 1
        else:
            lines.append(t)
            counts.append(1)
    return [t if n == 1 else t + Text(f"×{n}") for t, n in zip(lines, counts)]


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
                width: int | None = None, marks: dict | None = None,
                last: frozenset = frozenset()) -> list[Text]:
    """The board drawn from its cells' layout positions. Each cell shows its item (the
    short label), a dot when empty, '?' when hidden, a mark for an item lying face down;
    a cell holding a stack lists all its items, top first, on the lines below it. With
    ``names`` a dim line under each row gives the cells' names (as used in moves). A
    board wider than ``width`` columns is drawn in bands, cut where the layout has gaps.
    ``marks``: what an empty cell shows instead of a dot (the number of a move onto it,
    on a board drawn without the cells' names). ``last``: the cells of the latest move,
    each drawn between brackets ("[X]", in the spaces beside it)."""
    cells, w = _board_cells(prog, view, board, names, width, marks)
    if _edge_labels(cells) is not None:
        edged = _edged_board(prog, view, board, width, marks, last)
        if edged is not None:
            return edged
    out: list[Text] = []
    for lo, hi in _bands([start for _, _, start, _ in cells], w, width):
        band = [c for c in cells if lo <= c[2] <= hi]
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
            out += [_cells_line(row, k, w, Text(), lo, last) for k in range(depth)]
            if names:
                out.append(_names_line(row, w, lo))
    return out


def _edged_board(prog, view: dict, board: str, width: int | None,
                 marks: dict | None, last: frozenset = frozenset()) -> list[Text] | None:
    """The board with the cells' names along its edges (``_edge_labels``), the cells
    only as wide as their contents and the column labels; None when it does not fit."""
    tight, tw = _board_cells(prog, view, board, False, width, marks)
    edges = _edge_labels(tight)
    if edges is None or max(len(c) for c in edges[0].values()) > tw:
        return None
    drawn_width = max(start for _, _, start, _ in tight) + tw \
        + max(len(r) for r in edges[1].values()) + 1
    if width is not None and drawn_width > width:
        return None
    return _board_with_edges(tight, tw, *edges, last)


def _names_line(row, w: int, col: int) -> Text:
    """The dim line of the cells' names under a row of cells (each ``w`` wide), whose
    start stands for column ``col`` of the board."""
    name_line = Text(style="dim")
    for z, _, start, _ in row:
        name_line.append(" " * (start - col) + _centred(Text(literal(z.cell.name)), w).plain)
        col = start + w
    name_line.rstrip()
    return name_line


def _cells_line(row, k: int, w: int, line: Text, col: int,
                last: frozenset = frozenset()) -> Text:
    """Line ``k`` of a row of cells (each ``w`` wide, at its start column), appended to
    ``line``, whose end stands for column ``col`` of the board; a cell of ``last`` (the
    latest move) between brackets (``_marked``)."""
    for z, lines, start, _ in row:
        if k < len(lines):
            gap = start - col
            if k == 0 and z.id in last:
                col = _marked(line, lines[k], w, gap, start)
            else:
                line.append(" " * gap)
                line.append_text(_centred(lines[k], w))
                col = start + w
    line.rstrip()
    return line


def _marked(line: Text, content: Text, w: int, gap: int, start: int) -> int:
    """Append a cell's ``content`` (``gap`` columns after the end of ``line``) between
    brackets that hug it: each bracket in the cell's own padding where it has some, else
    in the space beside the cell (the one before it, or the one after it, which the next
    cell then starts after). Returns the column where the line now ends."""
    pad = max(0, w - content.cell_len)
    left, right = pad // 2, pad - pad // 2
    if left:
        left -= 1
    elif gap:
        gap -= 1
    elif line.plain.endswith(" "):
        line.right_crop(1)
    elif right:                # no room on the left: the content moves one column right
        right -= 1
    line.append(" " * (gap + left))
    line.append("[", style="bold")
    line.append_text(content)
    line.append("]", style="bold")
    if right:
        line.append(" " * (right - 1))
        return start + w
    return start + w + 1


_EDGE_NAME = re.compile(r"([A-Za-z]+)([0-9]+)")


def _edge_labels(cells) -> tuple[dict, dict] | None:
    """When every cell's name is letters then a number (``D4``, ``e2``), the letters the
    same down each drawn column and the number the same along each drawn row (the usual
    coordinates of a square grid): the column labels (by start column) and the row
    labels (by row). Otherwise None."""
    cols: dict[int, str] = {}
    rows: dict[int, str] = {}
    for z, _, start, y in cells:
        m = _EDGE_NAME.fullmatch(z.cell.name)
        if m is None or cols.setdefault(start, m[1]) != m[1] or rows.setdefault(y, m[2]) != m[2]:
            return None
    if len(set(cols.values())) != len(cols) or len(set(rows.values())) != len(rows) \
            or len(cols) < 2 or len(rows) < 2:
        return None
    return cols, rows


def _board_with_edges(cells, w: int, cols: dict, rows: dict,
                      last: frozenset = frozenset()) -> list[Text]:
    """The board with its row labels on the left and its column labels underneath,
    instead of each cell's name under it."""
    lw = max(len(r) for r in rows.values())
    out: list[Text] = []
    for y in sorted(rows):
        row = [c for c in cells if c[3] == y]
        depth = max(len(lines) for _, lines, _, _ in row)
        for k in range(depth):
            label = rows[y].rjust(lw) if k == 0 else " " * lw
            out.append(_cells_line(row, k, w, Text(label + " ", style="dim"), 0, last))
    foot, col = Text(" " * (lw + 1), style="dim"), 0
    for start in sorted(cols):
        foot.append(" " * (start - col) + _centred(Text(cols[start]), w).plain)
        col = start + w
    foot.rstrip()
    out.append(foot)
    return out


class BoardDrawing:
    """A board as a rich renderable: drawn for the width it is given when printed."""

    def __init__(self, prog, view: dict, board: str, names: bool = True,
                 last: frozenset = frozenset()):
        self.prog, self.view, self.board, self.names = prog, view, board, names
        self.last = last

    def __rich_console__(self, console, options):
        yield from board_lines(self.prog, self.view, self.board, self.names,
                               width=options.max_width, last=self.last)


# ---------------------------------------------------------------- the other zones

def _zone_content(prog, content, kind: str, short: bool = True, view: dict | None = None) -> Text:
    lang = language(prog)
    if isinstance(content, dict):
        n = content.get("count", 0)
        return Text(tr(lang, "{n} hidden", n=n) if n else tr(lang, "empty"), style="dim")
    if not content:
        return Text(tr(lang, "empty"), style="dim")
    return items_text(prog, content, short, view=view)


def _shared_zones(prog, view: dict) -> Table | None:
    """The shared zones off the boards, each with its count and its items (None when
    the view shows none)."""
    from rich.table import Table
    shared = Table.grid(padding=(0, 1))
    shared.add_column(style="bold", overflow="fold")
    shared.add_column(overflow="fold")
    shown = False
    for z in prog.zones:
        if z.board is not None or z.owner is not None or z.key not in view["zones"] \
                or not drawn(prog, z.name):
            continue
        content = view["zones"][z.key]
        title = literal(_display().name(prog, z.name))
        count = len(content) if isinstance(content, list) else content.get("count", 0)
        shared.add_row(Text(f"{title} ({count})"), _zone_content(prog, content, z.kind, view=view))
        shown = True
    return shared if shown else None


def zones_table(prog, view: dict, seat) -> Group:
    """Shared zones (public ones with their items, hidden ones as counts), then each
    player's zones: the viewer's own in full, the others' as the view gives them."""
    parts = []
    shared = _shared_zones(prog, view)
    if shared is not None:
        parts.append(shared)
    per_player = []
    for z in prog.zones:
        if z.owner == 0 and z.board is None and drawn(prog, z.name):
            per_player.append(z.name)
    if per_player or pvar_names(view):
        from rich.table import Table
        t = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        t.add_column("", overflow="fold")
        for name in per_player:
            t.add_column(Text(literal(_display().name(prog, name))), overflow="fold")
        for v in pvar_names(view, prog):
            t.add_column(Text(literal(_display().name(prog, v))), overflow="fold")
        for p in range(view["players"]):
            who = Text(literal(_display().player_name(prog, p)))
            if p == seat:
                who.append(" " + tr(language(prog), "(you)"), style="bold")
                who.stylize("bold")
            row = [who]
            for name in per_player:
                content = view["zones"].get(f"{name}:{p}", {"count": 0})
                row.append(_zone_content(prog, content, "", view=view))
            for v in pvar_names(view, prog):
                row.append(_var_text(prog, v, view["pvars"][v][p]))
            t.add_row(*row)
        parts.append(t)
    if var_items(prog, view):
        vt = Text()
        for i, (k, v) in enumerate(var_items(prog, view)):
            if i:
                vt.append("   ")
            vt.append(f"{literal(_display().name(prog, k))}: ", style="bold")
            vt.append_text(_var_text(prog, k, v))
        parts.append(vt)
    return Group(*parts)


def drawn(prog, name: str) -> bool:
    """Whether the screens draw this variable, zone or board (not when declared ``offscreen``)."""
    return name not in prog.checked.offscreen


def pvar_names(view: dict, prog=None) -> list[str]:
    """The per-player variables a screen draws (all of them without ``prog``)."""
    return sorted(v for v in view.get("pvars", {}) if prog is None or drawn(prog, v))


def var_items(prog, view: dict) -> list[tuple[str, object]]:
    """The shared variables a screen draws, by name, with their values."""
    return sorted((k, v) for k, v in view.get("vars", {}).items() if drawn(prog, k))


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
        return Text(literal(_display().player_name(prog, v)))
    if name == "bool" or isinstance(v, bool):
        return Text(literal(_display().yes_no(prog, v)))
    if name in prog.checked.enums:
        return Text(literal(_display().name(prog, f"{name}.{v}")))
    if name in prog.checked.kinds and isinstance(v, int):
        return item_text(prog, v, short=True)
    if name in prog.boards and isinstance(v, int):
        return Text(literal(_display().cell_notation(prog, v)))
    return Text(_plain_value(v))


def _var_text(prog, var: str, v) -> Text:
    decl = prog.checked.vars.get(var)
    return _typed_text(prog, decl.type if decl is not None else None, v)


# ---------------------------------------------------------------- whole screens

def boards_full(prog, view: dict, names: bool = True, last: frozenset = frozenset()) -> list:
    """Each board under its name, drawn whole with its cells' names (``last``: the cells
    of the latest move, marked)."""
    parts: list = []
    for board in prog.boards:
        if not drawn(prog, board):
            continue
        parts.append(Text(literal(_display().name(prog, board)), style="bold underline"))
        parts.append(BoardDrawing(prog, view, board, names, last))
        parts.append(Text(""))
    return parts


def screen(prog, view: dict, seat, names: bool = True, log_lines: int = 6,
           last: frozenset = frozenset()) -> Group:
    """The board(s), the other zones and the latest messages, as ``seat`` sees them."""
    parts = boards_full(prog, view, names, last)
    parts.append(zones_table(prog, view, seat))
    if log_lines and view.get("log"):
        parts.append(Text(""))
        parts.append(Text(tr(language(prog), "Recent events"), style="bold underline"))
        for line in view["log"][-log_lines:]:
            parts.append(Text("  " + literal(line)))
    return Group(*parts)


# ---------------------------------------------------------------- moves

def value_text(game, before_view: dict, v, type_code: str, can_see, short: bool = False) -> Text:
    """How a player reads a move's value: items by their label (or 'a <kind>' when
    hidden from them), cells with the item on them (a stack as the board shows it:
    "o×4"), players by name. With ``short``
    items by their short label, without the cell they lie on."""
    prog = game.program
    if type_code.startswith("list:"):
        out = Text()
        for i, x in enumerate(v):
            if i:
                out.append(" + ")
            part = value_text(game, before_view, x, type_code[5:], can_see, short)
            # an empty cell among others is said ('o×5 + empty'): alone it goes unsaid
            out.append_text(part if part.plain else Text(tr(language(prog), "empty"), style="dim"))
        return out
    if v is None:
        return Text("-")
    if type_code == "item":
        if can_see(v):
            out = item_text(prog, v, short, view=before_view)
            where = None if short else _board_cell_of(prog, before_view, v)
            if where is not None:       # an item on a board: say where it lies
                out.append(f" ({literal(_display().cell_notation(prog, where))})", style="dim")
            return out
        return Text(literal(_display().hidden_label(prog, prog.items[v].kind)), style="dim")
    if type_code == "cell":
        z = prog.zones[v]
        content = before_view["zones"].get(z.key)
        if isinstance(content, list) and len(content) > 1:   # a stack, as the board shows it
            return Text(" ").join(_cell_lines(prog, content, before_view))
        if isinstance(content, list) and content:   # (a checker as the board draws it: 'o')
            return item_text(prog, content[-1], short or not _display().told_apart(prog, content[-1]),
                             view=before_view)
        if isinstance(content, list):
            return Text()  # an empty cell: the move's notation says all there is
        return Text(literal(_display().cell_notation(prog, v)))
    return Text(literal(_display().value_text(prog, v, type_code)))


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


def typed_keys(prog, verb: str | None, notation: str) -> set[str]:
    """How a move may be typed at the prompt (ignoring case and runs of spaces): its
    notation and, when it starts with the decision's verb, the rest of it; and the same
    with the verb in the locale's word (``verjagen r2c1`` for ``chase r2c1``), as the
    move lists show it."""
    display = _display()
    keys = set()
    verbs = {verb, display.verb_word(prog, verb)} if verb else set()
    for written in {notation, display.worded(prog, notation, verb)}:
        full = " ".join(written.split()).casefold()
        keys.add(full)
        for said in (" ".join(v.split()).casefold() for v in verbs):
            if full.startswith(said + " "):
                keys.add(full[len(said) + 1:])
    return keys


def move_line(lead: Text, notation: str, text: Text) -> Text:
    """A move as the log of a game prints it: who, the notation, and " — " with the
    readable text when there is one."""
    line = lead + Text(notation)
    if text.plain:
        line.append(" — ")
        line.append_text(text)
    return line


def describe_move(game_before, move, type_code: str, seat, game_after=None,
                  short: bool = False, before_view: dict | None = None,
                  worded: bool = True) -> tuple[str, Text]:
    """(notation, readable text) of a move as ``seat`` may see it. An item the seat
    cannot see before nor after the move is written as 'a <kind>', and then the
    notation (which names items) is replaced by the verb alone. ``short``: items by
    their short labels. ``before_view``: the seat's view of ``game_before`` where the
    caller has it (a screen of many moves makes it once, not once a move). ``worded``:
    the verb in the locale's word (``name action.VERB``), else as the notation has it."""
    from ..interpreter.play.views import choice_hidden, item_visible, view as make_view

    def can_see(item: int) -> bool:
        if seat == "all":
            return True
        return item_visible(game_before, item, seat) or (
            game_after is not None and item_visible(game_after, item, seat))
    if before_view is None:
        before_view = make_view(game_before, seat)
    prog = game_before.program
    text = value_text(game_before, before_view, move.value, type_code, can_see, short)
    verb = before_view["pending"]["verb"] if before_view.get("pending") else None
    # (the verb in the locale's word, name action.VERB: typed, it reads back as the verb)
    notation = literal(_display().worded(prog, move.notation, verb) if worded else move.notation)
    alone = literal(_display().verb_word(prog, verb) if worded else verb) if verb \
        else tr(language(prog), "(hidden)")
    if not all(can_see(i) for i in _items_in(move.value, type_code)):
        notation = alone
    if choice_hidden(game_before, move.player, seat):
        # (a secret choice into a variable the seat never sees: the verb alone)
        notation, text = alone, Text()
    if move.value is None or (text.plain and (notation == text.plain
                                              or notation.endswith(" " + text.plain))):
        text = Text()  # 'guess higher', not 'guess higher — higher'; 'roll', not 'roll — -'
    return notation, text


# ---------------------------------------------------------------- results

def result_table(prog, result: dict) -> Group:
    from rich.table import Table
    lang = language(prog)
    t = Table(title=tr(lang, "Result"), header_style="bold", title_style="bold")
    t.add_column(tr(lang, "Rank"), justify="right")
    t.add_column(tr(lang, "Player"))
    teams = result.get("teams")
    team_of = {p: i + 1 for i, team in enumerate(teams) for p in team["seats"]} if teams else {}
    if teams:
        t.add_column(tr(lang, "Team"), justify="right")
    t.add_column(Text(literal(_display().name(prog, "score"))), justify="right")
    ties = list(result.get("tiebreaks", {}))
    for name in ties:
        t.add_column(Text(literal(_display().name(prog, name))), justify="right")
    outcomes = result.get("outcomes")
    words = {"win": tr(lang, "Win"), "draw": tr(lang, "Draw"), "loss": tr(lang, "Loss")}
    if outcomes:
        t.add_column(tr(lang, "Outcome"))
    payoffs: list | None = None   # each seat's, exactly (one counted ``per 6`` shows as 7/6)
    if result.get("payoffs") is not None:   # only when the ruleset declares a payoff
        from ..interpreter import payoff_values  # (not imported by `meeple list`)
        payoffs = payoff_values(result)
        t.add_column(tr(lang, "Payoff"), justify="right")
    rank = 1
    for group in result["ranking"]:
        for p in group:
            shown = result["ranks"][p] if "ranks" in result else rank
            row = [Text(str(shown)), Text(literal(_display().player_name(prog, p)))]
            if teams:
                row.append(Text(str(team_of[p])))
            row.append(Text(str(result["scores"][p])))
            row += [Text(str(result["tiebreaks"][name][p])) for name in ties]
            if outcomes:
                row.append(Text(words[outcomes[p]]))
            if payoffs is not None:
                row.append(Text(str(payoffs[p])))
            t.add_row(*row, style="bold" if p in result["winners"] else None)
        rank += len(group)
    for name, score in (result.get("participants") or {}).items():
        row = [Text(""), Text(literal(_display().name(prog, name)))]
        if teams:
            row.append(Text(""))
        row.append(Text("" if score is None else str(score)))
        row += [Text("") for _ in ties] + ([Text("")] if outcomes else [])
        row += [Text("")] if payoffs is not None else []
        t.add_row(*row, style="dim")
    return Group(t, _result_line(prog, result, lang))


def _result_line(prog, result: dict, lang) -> Text:
    """The line under the result's table: a draw, the winner, a shared win or none."""
    winners = [literal(_display().player_name(prog, p)) for p in result["winners"]]
    if result.get("draw"):
        return Text(tr(lang, "Draw"), style="bold")
    if len(winners) == 1:
        return Text(tr(lang, "Winner: {player}", player=winners[0]), style="bold green")
    if winners:
        return Text(tr(lang, "Shared win: {players}", players=", ".join(winners)),
                    style="bold green")
    return Text(tr(lang, "No winner"), style="bold")


def rule_excerpt(e, prog) -> str | None:
    """The source line of a located rule error, with a caret under its place."""
    sources = getattr(getattr(prog, "sources", None), "sources", None) or {}
    lines = e.diagnostic().render(sources).splitlines()[1:]
    shown = [line for line in lines if not line.startswith("hint: ")]
    return "\n".join(shown) or None
