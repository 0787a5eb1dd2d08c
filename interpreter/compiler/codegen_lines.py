"""The lines of the fast code's statement form as data (see ExprCompiler.lines): each
line's text without its indentation, how deep it is in the blocks around it, the block
it opens, and the reads of the runtime R's tables in it, said where the printer writes
them; the passes over them (codegen_text.py) read the loops and branches around a line
and the reads from that, and the text is written out only at the end (``render``, as
they decided).

A read of R's tables is written, while the statement form is printed, as a mark the
printer alone writes (control characters, which no text of Python it writes holds: a
string of the source is written by ``repr``, which escapes them), each as long as the
text it stands for (a text's length tells whether an index is written twice:
ExprCompiler._Index): ``R.zones`` as TABLE zones SHUT, a variable read by its name
``R.ivars['x']`` as KEYED ivars SHUT ``['x'`` KEY_SHUT, a procedure's local ``L['x']``
as LOCAL ``['x'`` KEY_SHUT, and a zone's top item or emptiness (the forms of
core/primitives.py, see TOPS) as its mark in place of its first parenthesis, the zone
read in it, the index and TOP_SHUT in place of the index's bracket; a comprehension
written in a line is marked COMP before its ``for`` (it stands for no text: see
written_len). A line parses its marks into ``Read`` parts once (``Line.parts``). The
marks are written only into the lines of the statement form (ExprCompiler.marking),
which are written out before they leave the printer; the code of a table that the
printer makes as it goes is written out first (``plain``: codegen_static)."""
from __future__ import annotations

from types import SimpleNamespace

from ..core.primitives import (
    BREAK as BREAK,  # (a Line's kind too)
    EMPTY,
    FORM_TABLES,
    HOLDS,
    IF,
    TOP,
    ZONE_TOPS,
    StepLine,
)
from ..play import inplace

# the blocks a line of the statement form opens (``Line.kind``): a ``for`` loop, an
# ``if`` (its condition ends the line: ``if c:``) or ``else`` branch; and a ``break``,
# which leaves the loop around it (IF and BREAK as an aggregate's loop step says them:
# core/primitives.py StepLine)
FOR, ELSE = "for", "else"
_PAD = "    "


# the marks (see the module's doc)
TABLE, SHUT, KEYED, KEY_SHUT, LOCAL, TOP_SHUT, COMP = "\x01", "\x02", "\x03", "\x04", "\x05", "\x06", "\x07"
# the tables of R whose reads are marked (those the forms of core/primitives.py read too)
TABLES = ("zones", "loc", "facing", "ivars", "vars", "pvars", "work")
# a zone's top item, whether it holds items, whether it is empty (core/primitives.py
# ZONE_TOPS): their marks
TOPS = {"\x08": TOP, "\x0e": HOLDS, "\x0f": EMPTY}
_TOP_MARK = {kind: mark for mark, kind in TOPS.items()}
_OPENS = (TABLE, KEYED, LOCAL, COMP, *TOPS)


def table_read(t: str) -> str:
    """The marked text of ``R.t``."""
    return f"{TABLE}{t}{SHUT}"


# the tables the forms of core/primitives.py read, marked (as PyCall.tables)
MARKED_TABLES = SimpleNamespace(**{t: table_read(t) for t in FORM_TABLES})


def keyed_read(t: str | None, key: str) -> str:
    """The marked text of ``R.t[key]`` (a variable by its name: ``key`` a name) or, for
    t None, of the procedure's local ``L[key]``."""
    return f"{LOCAL}[{key!r}{KEY_SHUT}" if t is None else f"{KEYED}{t}{SHUT}[{key!r}{KEY_SHUT}"


def top_read(kind: str, index: str) -> str:
    """The marked text of a zone's top item, or whether it holds items, or is empty
    (``kind``, core/primitives.py ZONE_TOPS), the zone ``index``."""
    head, tail = ZONE_TOPS[kind]
    return f"{_TOP_MARK[kind]}{head[1:]}{table_read('zones')}[{index}{TOP_SHUT}{tail}"


class Read:
    """A read of R's tables in a line (see the module's doc): ``table`` (one of TABLES;
    None for a procedure's local), ``key`` (a variable's name, for a read by its name),
    ``top`` (a zone's top or emptiness: which, a key of ZONE_TOPS; its index ``inner``)."""

    __slots__ = ("table", "key", "top", "inner")

    def __init__(self, table: str | None, key: str | None = None, top: str | None = None,
                 inner: list | None = None):
        self.table, self.key, self.top, self.inner = table, key, top, inner or []

    def reads(self):
        """This read and those in its index, in the order written."""
        yield self
        for part in self.inner:
            if isinstance(part, Read):
                yield from part.reads()

    def render(self, plan: Plan | None) -> str:
        if self.top is not None:
            index = write(self.inner, plan)
            if plan is not None and plan.tops:
                return {TOP: f"T_[{index}]", HOLDS: f"(T_[{index}] is not None)",
                        EMPTY: f"(T_[{index}] is None)"}[self.top]
            head, tail = ZONE_TOPS[self.top]
            return f"{head}{_table(plan, 'zones')}[{index}]{tail}"
        if self.key is not None:
            name = plan.keyed.get((self.table, self.key)) if plan is not None else None
            if name is not None:
                return name
            return f"{'L' if self.table is None else _table(plan, self.table)}[{self.key!r}]"
        assert self.table is not None
        return _table(plan, self.table)


def _table(plan: Plan | None, t: str) -> str:
    return plan.names.get(t, f"R.{t}") if plan is not None else f"R.{t}"


class Plan:
    """How the reads of a statement form are written (codegen_text.localize,
    tabulate_tops): each table of R read through a local name (``names``: table ->
    name), each variable read by its name read once into a local name (``keyed``:
    (table, name) -> local name), the zones' tops from the table ``T_`` (``tops``)."""

    def __init__(self, names: dict[str, str], keyed: dict, tops: bool):
        self.names, self.keyed, self.tops = names, keyed, tops


def parse(text: str) -> list:
    """A text's parts: texts and the Reads its marks say (see the module's doc)."""
    parts, end = _parse(text, 0, "")
    assert end == len(text), text
    return parts


def _parse(text: str, i: int, stop: str) -> tuple[list, int]:
    parts: list = []
    while True:
        j = min((k for k in (text.find(m, i) for m in (*_OPENS, stop) if m) if k >= 0), default=len(text))
        if j > i:
            parts.append(text[i:j])
        if j == len(text) or text[j] == stop:
            return parts, j
        mark, i = text[j], j + 1
        if mark == COMP:
            continue
        if mark in TOPS:  # (the rest of its head, the zone read, its index)
            head, tail = ZONE_TOPS[TOPS[mark]]
            head = head[1:] + table_read("zones") + "["
            assert text.startswith(head, i), text
            inner, i = _parse(text, i + len(head), TOP_SHUT)
            assert text.startswith(tail, i + 1), text
            parts.append(Read("zones", top=TOPS[mark], inner=inner))
            i += 1 + len(tail)
            continue
        table = None
        if mark != LOCAL:
            shut = text.index(SHUT, i)
            table, i = text[i:shut], shut + 1
            if mark == TABLE:
                parts.append(Read(table))
                continue
        shut = text.index(KEY_SHUT, i)  # ['name'
        parts.append(Read(table, key=text[i + 2:shut - 1]))
        i = shut + 1


def written_len(text: str) -> int:
    """The length of a text as written out (each mark as long as what it stands for,
    but COMP, which stands for none, and those of functions written in place:
    play/inplace.py)."""
    return inplace.written_len(text) - text.count(COMP)


def write(parts: list, plan: Plan | None) -> str:
    """The text of the parts, the reads as ``plan`` says (None: as R's tables)."""
    return "".join(p if isinstance(p, str) else p.render(plan) for p in parts)


def plain(text: str) -> str:
    """A marked text as Python (every read from R's tables)."""
    return write(parse(text), None)


class Line:
    """A line of the statement form: ``depth`` (the blocks around it), ``text`` (without
    its indentation, its reads marked), ``kind``: the block it opens (FOR, IF, ELSE),
    BREAK, or None; a FOR line's ``walks`` is the text of what its loop walks (how many
    turns it makes is estimated from that: codegen_text._turns). ``parts``: the text's
    parts (see parse); ``comp``: whether it holds a comprehension."""

    __slots__ = ("depth", "text", "kind", "walks", "_parts")

    def __init__(self, ind: str | int, text: str, kind: str | None = None, walks: str | None = None):
        self.depth = ind if isinstance(ind, int) else len(ind) // len(_PAD)
        self.text, self.kind, self.walks = text, kind, walks
        self._parts: list | None = None

    @property
    def parts(self) -> list:
        if self._parts is None:
            self._parts = parse(self.text)
        return self._parts

    @property
    def comp(self) -> bool:
        return COMP in self.text

    def reads(self):
        """The reads of R's tables in the line, in the order written (those in a zone's
        index after the zone's)."""
        for part in self.parts:
            if isinstance(part, Read):
                yield from part.reads()

    def deeper(self, n: int) -> Line:
        """The same line ``n`` blocks deeper (less deep where ``n`` < 0)."""
        return Line(self.depth + n, self.text, self.kind, self.walks)

    def render(self, plan: Plan | None = None) -> str:
        """The line as Python, indented, its reads as ``plan`` says."""
        return _PAD * self.depth + write(self.parts, plan)

    def __repr__(self) -> str:
        return f"Line({self.depth}, {self.text!r}, {self.kind!r})"


def for_line(ind: str | int, var: str, it: str) -> Line:
    """``for var in it:``, which walks ``it``."""
    return Line(ind, f"for {var} in {it}:", FOR, it)


def if_line(ind: str | int, cond: str) -> Line:
    """``if cond:``, a block."""
    return Line(ind, f"if {cond}:", IF)


def else_line(ind: str | int) -> Line:
    return Line(ind, "else:", ELSE)


def step_lines(ind: str | int, step: tuple[StepLine, ...], loop) -> list[Line]:
    """The lines of an aggregate's loop step (``Primitive.step``) at ``ind``, each
    line's text filled by ``loop`` (a PyLoop), its depth and kind as the step says."""
    depth = ind if isinstance(ind, int) else len(ind) // len(_PAD)
    return [Line(depth + line.depth, loop.fill(line.text), line.kind) for line in step]


def render(lines: list[Line], plan: Plan | None = None) -> list[str]:
    """The lines as Python, indented, their reads as ``plan`` says."""
    return [line.render(plan) for line in lines]
