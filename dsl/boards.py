"""Board generators: each turns its arguments into cells with coordinates, a name used
in move notation, and a layout position (x, y) for drawing on a character grid."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import product


@dataclass(frozen=True)
class Cell:
    name: str
    coords: dict
    x: int
    y: int


@dataclass(frozen=True)
class Generator:
    params: tuple[str, ...]
    coords: tuple[str, ...]
    doc: str
    # arguments that may be left out, each (name, lowest, highest value); left out, it is
    # the lowest value
    optional: tuple[tuple[str, int, int], ...] = ()

    def cells(self, **args) -> list[Cell]:
        return _BUILD[self](**args)

    def names(self) -> tuple[str, ...]:
        """Every argument name, the required ones first."""
        return self.params + tuple(name for name, _, _ in self.optional)

    def limits(self, name: str) -> tuple[int, int]:
        """The lowest and highest value of an argument: a size is 1 to MAX_SIZE."""
        return next(((lo, hi) for n, lo, hi in self.optional if n == name), (1, MAX_SIZE))


def _triangle(rows: int) -> list[Cell]:
    return [Cell(f"r{r}c{c}", {"row": r, "col": c}, (rows - r) + 2 * (c - 1), r - 1)
            for r in range(1, rows + 1) for c in range(1, r + 1)]


def _grid(rows: int, cols: int) -> list[Cell]:
    return [Cell(f"r{r}c{c}", {"row": r, "col": c}, 2 * (c - 1), r - 1)
            for r in range(1, rows + 1) for c in range(1, cols + 1)]


def _hex(radius: int) -> list[Cell]:
    out = []
    for r in range(-radius, radius + 1):
        for q in range(-radius, radius + 1):
            s = -q - r
            if abs(s) <= radius:
                ring = max(abs(q), abs(r), abs(s))
                out.append(Cell(f"q{q}r{r}", {"q": q, "r": r, "s": s, "ring": ring},
                                2 * q + r + 2 * radius, r + radius))
    return out


def _strip(parts: int, slots: int, ends: int = 0) -> list[Cell]:
    """Parts laid end to end in a line, each with ``slots`` cells on each of the two long
    sides: a table of boards. Side 1 is drawn above, side 2 below, a gap between parts.
    With ``ends`` 1, a single cell closes each short end of the strip, between the two
    sides: side 0, slot 0 and col 0 on the first part, slot slots + 1 and the last col + 1
    on the last part, drawn between the rows; they come after the cells of side 2. With
    ``ends`` 2, two single cells close each short end, one at the end of each long side
    (side 1 and side 2, facing each other), with the same slot and col as the single cell
    of ``ends`` 1 would have; they too come after the cells of side 2."""
    def cell(part: int, side: int, slot: int) -> Cell:
        col = (part - 1) * slots + slot
        return Cell(f"p{part}{'eab'[side]}{slot}",
                    {"part": part, "side": side, "slot": slot, "col": col},
                    2 * (col - 1) + (part - 1), {1: 0, 0: 1, 2: 2}[side])
    out = [cell(part, side, slot) for side in (1, 2)
           for part in range(1, parts + 1) for slot in range(1, slots + 1)]
    sides = {0: (), 1: (0,), 2: (1, 2)}[ends]
    out += [cell(1, side, 0) for side in sides] + [cell(parts, side, slots + 1) for side in sides]
    return out


def _line(length: int) -> list[Cell]:
    return [Cell(f"s{i}", {"pos": i}, 2 * (i - 1), 0) for i in range(1, length + 1)]


TRIANGLE = Generator(("rows",), ("row", "col"),
                     "rows of growing length: row 1 has 1 cell, row n has n; col counts from 1")
GRID = Generator(("rows", "cols"), ("row", "col"), "a rectangle of rows x cols cells")
HEX = Generator(("radius",), ("q", "r", "s", "ring"),
                "a hexagon of hexes in axial coordinates q, r (s = -q-r) around the centre; "
                "ring is the distance from the centre")
LINE = Generator(("length",), ("pos",), "a line of slots numbered 1..length")
STRIP = Generator(("parts", "slots"), ("part", "side", "slot", "col"),
                  "parts laid end to end, each with `slots` cells on each of two long sides "
                  "(side 1 and side 2); slot counts within a part, col along the whole strip; "
                  "with `ends: 1`, a single cell (side 0) at each short end; with `ends: 2`, "
                  "two single cells at each short end, one ending each long side",
                  optional=(("ends", 0, 2),))

GENERATORS = {"triangle": TRIANGLE, "grid": GRID, "hex": HEX, "line": LINE, "strip": STRIP}
_BUILD = {TRIANGLE: _triangle, GRID: _grid, HEX: _hex, LINE: _line, STRIP: _strip}

# ``edges(of: BOARD)``: a board whose cells are the sides two cells of BOARD share, where
# walls stand between them; the generators of BOARD it knows the sides of
EDGES = "edges"
EDGE_SOURCES = ("grid", "hex", "line")


def _sides(generator: str, a: dict, b: dict) -> bool:
    """Whether two cells of a board made by ``generator`` share a side."""
    if generator == "grid":
        return abs(a["row"] - b["row"]) + abs(a["col"] - b["col"]) == 1
    if generator == "hex":
        return max(abs(a["q"] - b["q"]), abs(a["r"] - b["r"]), abs(a["s"] - b["s"])) == 1
    return abs(a["pos"] - b["pos"]) == 1


def edge_coords(generator: str) -> tuple[str, ...]:
    """The coordinates of the edges of a board made by ``generator``: its own, but for a
    hex board's ring."""
    return tuple(k for k in GENERATORS[generator].coords if k != "ring")


def edge_cells(generator: str, cells: list[Cell]) -> tuple[list[Cell], list[tuple[int, int]]]:
    """The edges of a board made by ``generator`` with these cells: one for each two cells
    that share a side, the first cell before the second in cell order, in the order of
    the first, then of the second. An edge is named ``A-B`` from its cells' names, its
    coordinates are the sums of theirs (twice its middle: on a grid, the edge between
    rows 2 and 3 of col 4 has row 5 and col 8) and it is drawn at the sum of their places.
    Also the two cells' positions in ``cells``, edge by edge."""
    keys = edge_coords(generator)
    # (the cells beside one are found by their coordinates, one step away along each
    # coordinate at most: the steps _sides lets through, not each other cell)
    zero = dict.fromkeys(keys, 0)
    steps = [d for d in product((-1, 0, 1), repeat=len(keys)) if _sides(generator, zero, dict(zip(keys, d)))]
    at = {tuple(c.coords[k] for k in keys): i for i, c in enumerate(cells)}
    out, pairs = [], []
    for i, a in enumerate(cells):
        here = [a.coords[k] for k in keys]
        for j in sorted(j for d in steps if (j := at.get(tuple(x + y for x, y in zip(here, d)), -1)) > i):
            b = cells[j]
            out.append(Cell(f"{a.name}-{b.name}", {k: a.coords[k] + b.coords[k] for k in keys},
                            a.x + b.x, a.y + b.y))
            pairs.append((i, j))
    return out, pairs


MAX_CELLS = 10_000
MAX_SIZE = 200  # the largest size argument of a generator


def explicit_cells(defs: list[tuple]) -> list[Cell]:
    """Cells written out one by one, each (name, coordinates) or (name, coordinates,
    (x, y)): a cell is drawn at its (x, y) when given (a board's ``drawn at``), else at
    its coordinates ``x`` and ``y`` when it has them (2 steps apart on one line when
    not)."""
    out = []
    for i, (name, coords, *at) in enumerate(defs):
        x, y = at[0] if at else (coords.get("x", 2 * i), coords.get("y", 0))
        out.append(Cell(name, coords, int(x or 0), int(y or 0)))
    return out


# ``named "{col:a}{row}"``: a coordinate's value ({row}) or its letter ({col:a}: 1 is a,
# {col:A}: 1 is A), between bits of text
_PLACE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([aA]))?\}")
_TEXT = re.compile(r"[A-Za-z0-9_-]*")


def name_format_problem(fmt: str, coords: tuple[str, ...]) -> tuple[str, str] | None:
    """Why ``fmt`` cannot name the cells of a board with these coordinates: (the name
    that is not a coordinate, "") or ("", what is wrong); None when it can."""
    parts = _PLACE.split(fmt)
    for name in parts[1::3]:
        if name not in coords:
            return name, ""
    if not parts[1::3]:
        return "", "the names use no coordinate: write them as in \"{col:a}{row}\""
    if not all(_TEXT.fullmatch(t) for t in parts[0::3]):
        return "", ("besides {coordinate} and {coordinate:a}, the names have letters, "
                    "digits, _ and - only")
    return None


def named_cells(cells: list[Cell], fmt: str) -> tuple[list[Cell], str | None]:
    """The cells renamed by a checked ``named`` format, or what is wrong with the names
    they would get: a coordinate with no letter, two cells with the same name."""
    def value(m: re.Match, coords: dict) -> str:
        v = coords[m.group(1)]
        if not m.group(2):
            return str(v)
        if not 1 <= v <= 26:
            raise ValueError(f"{m.group(1)} {v} has no letter (1 to 26 are a to z)")
        return chr(ord(m.group(2)) + v - 1)
    def name(c: Cell) -> str:
        return _PLACE.sub(lambda m: value(m, c.coords), fmt)
    try:
        out = [replace(c, name=name(c)) for c in cells]
    except ValueError as e:
        return cells, str(e)
    seen: set[str] = set()
    for c in out:
        if c.name in seen:
            return cells, f"two cells are named '{c.name}'"
        seen.add(c.name)
    return out, None


def drawn_value(e, coords: dict) -> int:
    """The value of a checked ``drawn at`` expression for a cell of these coordinates (a
    coordinate whose value was an error counts as 0)."""
    match e.node:
        case "IntLit":
            return e.value
        case "Var":
            return coords.get(e.name) or 0
        case "UnOp":
            return -drawn_value(e.operand, coords)
    a, b = drawn_value(e.left, coords), drawn_value(e.right, coords)
    return a + b if e.op == "+" else a - b if e.op == "-" else a * b


def drawn_cells(cells: list[Cell], drawn: list) -> list[Cell]:
    """The cells placed by a checked ``drawn at (X, Y)``, or as they are without one."""
    if not drawn:
        return cells
    return [replace(c, x=drawn_value(drawn[0], c.coords), y=drawn_value(drawn[1], c.coords))
            for c in cells]
