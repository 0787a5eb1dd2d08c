"""Analyses and rewrites of generated code as text (the fast code's statement form, see
codegen.ExprCompiler.lines): the tables read through local names (localize), the zones'
top items read from a table (tabulate_tops). What a rule function reads of the state is
the core's (core/pure.py); whether its fast code reads R the printer notes where it
writes it (ExprCompiler.wrote_r)."""
from __future__ import annotations

import re

from .codegen_base import ForLine

# the parts of R read through a local name in the statement form (see localize): the
# state's tables, never rebound while an expression runs (no expression changes the
# state; a move changes them in place)
# (each attribute of R -> its local name)
_LOCAL_TABLES = {"zones": "z_", "loc": "loc_", "facing": "facing_", "ivars": "iv_", "vars": "g_",
                 "pvars": "pv_"}
# a string literal of generated code (repr of a ruleset's string): never rewritten
_STRING = re.compile(r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_TABLE = re.compile(r"\bR\.(" + "|".join(_LOCAL_TABLES) + r")\b")
_WORK = re.compile(r"\bR\.work\b")


def localize(out: list[str], text: str, gives_r: bool) -> tuple[list[str], str, bool]:
    """The statement form of a whole expression (``out``, then its value ``text``) with
    the tables of R that it reads in loops or more than once (``R.zones``...) read through
    local names bound once before (``z_ = R.zones``), and, where it gives R to no function
    (``gives_r``: the printer notes it, ExprCompiler.gave_r), the work budget counted in a local (``wk_``) written back to ``R.work`` after the
    statements (nothing reads it before; after a failure, the straightforward code runs
    from the budget as it was, see compile.Program._lambda). A variable read so, the
    table of an item's or a seat's variable (``R.ivars['x']``), a global variable's value
    (``R.vars['x']``) or a procedure's local (``L['x']``), is read once into a local name
    too (``ivk_x``, ``gk_x``, ``lk_x``).
    The same operations, in the same order (what is read once instead of at each use
    cannot change while an expression runs). The statements, the value's text, and
    whether the work budget is counted in ``wk_``."""
    lines = out + [text]
    looped = _in_loops(out) + [False]
    pre_keyed = []
    keyed = _keyed_locals(lines, looped)
    if keyed:  # (first: what is left of R.ivars, R.pvars and R.vars is counted below)
        lines = [_keyed_sub(line, keyed) if "R." in line or "L[" in line else line for line in lines]
        pre_keyed = [f"{name} = {read}" for read, name in keyed.items()]
        out, text = lines[:-1], lines[-1]
    code, counts = _table_reads(lines, looped)
    local = {t for t, c in counts.items() if c >= 2 and t != "work"}
    # (one count and its test outside loops: a local name would not pay)
    work = counts.get("work", 0) > 2 and not gives_r
    if not local and not work:
        return pre_keyed + out, text, False
    new = [_local_sub(code[i], local, work) if i in code else line for i, line in enumerate(lines)]
    pre = [f"{name} = R.{t}" for t, name in _LOCAL_TABLES.items() if t in local] + (["wk_ = R.work"] if work else [])
    return pre_keyed + pre + new[:-1] + (["R.work = wk_"] if work else []), new[-1], work


def _table_reads(lines: list[str], looped: list[bool]) -> tuple[dict[int, list[str]], dict[str, int]]:
    """The lines that read R, split at their string literals (code at even places,
    strings at odd), by index; and how often each table of R and the work budget are
    read (a read in a loop counts twice, see localize)."""
    code: dict[int, list[str]] = {}
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        if "R." not in line:
            continue
        parts = code[i] = _STRING.split(line) if "'" in line or '"' in line else [line]
        for part in parts[::2]:
            for t in _TABLE.findall(part):
                counts[t] = counts.get(t, 0) + (2 if looped[i] or " for " in part else 1)
            counts["work"] = counts.get("work", 0) + (2 if looped[i] else 1) * len(_WORK.findall(part))
    return code, counts


def _local_sub(parts: list[str], local: set[str], work: bool) -> str:
    """A line (split as _table_reads splits it) reading the tables ``local`` and, if
    ``work``, the work budget through their local names."""
    def table(m) -> str:
        return _LOCAL_TABLES[m.group(1)] if m.group(1) in local else m.group(0)
    for i in range(0, len(parts), 2):
        parts[i] = _TABLE.sub(table, parts[i])
        if work:
            parts[i] = _WORK.sub("wk_", parts[i])
    return "".join(parts)


# a variable read by its name: the table of an item's variable, of a seat's, a global
# variable's value or a procedure's local (see localize)
_KEYED = re.compile(r"\b(?:R\.(ivars|pvars|vars)|(L))\['(\w+)'\]")
# the prefix of the local name of a variable read so (``ivk_x``, ``pvk_x``, ``gk_x``, ``lk_x``)
_KEYED_PREFIX = {"ivars": "iv", "pvars": "pv", "vars": "g", None: "l"}


def _keyed_matches(line: str) -> list:
    """The reads of _KEYED in a line of generated code, out of its string literals."""
    spans = [m.span() for m in _STRING.finditer(line)] if "'" in line or '"' in line else []
    return [m for m in _KEYED.finditer(line) if not any(a <= m.start() < b for a, b in spans)]


def _keyed_locals(lines: list[str], looped: list[bool]) -> dict[str, str]:
    """The variables (see _KEYED) read in loops or more than once: read -> local name."""
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        if "R." in line or "L[" in line:
            for m in _keyed_matches(line):
                counts[m.group(0)] = counts.get(m.group(0), 0) + (2 if looped[i] or " for " in line else 1)
    out = {}
    for read, c in counts.items():
        if c >= 2:
            table, _local, name = _KEYED.fullmatch(read).groups()
            out[read] = f"{_KEYED_PREFIX[table]}k_{name}"
    return out


def _keyed_sub(line: str, keyed: dict[str, str]) -> str:
    """The line with those reads (out of its strings) replaced by their local names."""
    for m in reversed(_keyed_matches(line)):
        name = keyed.get(m.group(0))
        if name is not None:
            line = line[:m.start()] + name + line[m.end():]
    return line


def _in_loops(out: list[str]) -> list[bool]:
    """Per line of statements, whether it is inside a ``for`` loop."""
    fors: list[int] = []  # the indentations of the loops around
    found = []
    for line in out:
        body = line.lstrip(" ")
        depth = len(line) - len(body)
        while fors and fors[-1] >= depth:
            fors.pop()
        found.append(bool(fors))
        if body.startswith("for "):
            fors.append(depth)
    return found


# The zones' top items read from a table (see tabulate_tops): made once, before the
# statements of an expression, from the zones as they are then. No expression changes
# the state: the code this module writes assigns nothing of R but its budgets
# (R.work, R.calls, R.depth); it calls rule functions (expressions too, written by this
# module), the helpers of helpers.py (_it, _range, _cat, _connected, _cell_of...: they
# read the state, count work and fail, and build only lists of their own) and the
# static tables; no built-in moves, draws or shuffles (moves are statements of
# procedures, run between expressions). So a zone's top stays what it was when the
# table was made, for as long as the expression runs. Items are numbers, never None:
# None in the table is an empty zone. Not in rule functions' bodies (ExprCompiler.lines
# is told by its caller): a function is called many times per move, often in the loops
# of an expression, and would make the table at every call.
_TOPS_LINE = "T_ = [(q[-1] if q else None) for q in R.zones]"
# a read of a zone through R.zones, a top or a test of emptiness, as codegen writes them:
# (text before the zone's index, text after it) -> the same read through the table
_TOP_READS = {("(", " or _NO_ITEM)[-1]"): ("T_[", "]"),
              ("(not not ", ")"): ("(T_[", "] is not None)"),
              ("(not ", ")"): ("(T_[", "] is None)")}
_ZONE = re.compile(r"\bR\.zones\[")
_OPERAND_END = re.compile(r"[\w)\]]")
# what a read saves, in time per table entry to make (measured, CPython 3.11: making
# the table costs about 25 ns a zone, reading a top through it 20 ns less than through
# its zone, a test of emptiness 5 ns less)
_TOP_SAVES, _EMPTY_SAVES = 0.8, 0.2
_TURNS_GUESS = 4  # turns of a loop whose length is not known before it runs
_BREAK_TURNS = 2  # turns of a loop that may stop early, at most
_BRANCH_RUNS = 0.5  # the share of the runs of an ``if`` or ``else`` block's statements
# the reads, as counted, must save this many times the cost of the table (set by
# timing the bundled rulesets' expressions with and without it on the states of random
# games: those below 2 lost 10 to 60 %, one at 3.2 neither lost nor won, one at 9 won
# 17 to 20 %; see docs/performance.md)
_TOPS_MARGIN = 4


def tabulate_tops(out: list[str], text: str, zones: int, size) -> tuple[list[str], str] | None:
    """The statement form of a whole expression (``out``, then its value ``text``)
    with the zones' top items and emptiness (``(R.zones[x] or _NO_ITEM)[-1]``,
    ``(not not R.zones[x])``, ``(not R.zones[x])``) read from a table of every zone's top
    ``T_`` made before the statements (_TOPS_LINE): the same values, in the same order
    (an index out of the zones fails the same way), no work counted either way. None
    where it would not pay, by a static estimate: the reads, each weighed by what it
    saves (_TOP_SAVES, _EMPTY_SAVES) and counted as many times as its line is expected
    to run (see _turns; a comprehension in the line: _TURNS_GUESS times more), must save
    at least _TOPS_MARGIN times what making a table of all ``zones`` costs (the zones'
    count and the boards' sizes are the program's, for its number of players)."""
    lines = out + [text]
    if _tops_saved(lines, _turns(out, size) + [1]) < _TOPS_MARGIN * zones:
        return None
    new = [_tabulated(line) if "R.zones[" in line else line for line in lines]
    return new[:-1], new[-1]


def _tops_saved(lines: list[str], turns: list[float]) -> float:
    """What the table would save, in tables' entries made (see tabulate_tops): the
    lines' reads, each as many times as its line is expected to run (``turns``)."""
    saved = 0.0
    for line, n in zip(lines, turns):
        if "R.zones[" in line:
            parts = _STRING.split(line) if "'" in line or '"' in line else [line]
            for part in parts[::2]:
                more = _TURNS_GUESS if " for " in part else 1
                for before, _after, _index in _top_reads(part):
                    saved += n * more * (_TOP_SAVES if before == "(" else _EMPTY_SAVES)
    return saved


def _turns(out: list[str], size) -> list[float]:
    """Per line of statements, how many times it is expected to run (see
    tabulate_tops): the product, over the blocks around it, of a loop's turns (its
    length, ``size(iterable)``, or _TURNS_GUESS; _BREAK_TURNS at most for a loop that
    may stop early: ``any``, ``all``, ``first``...) and _BRANCH_RUNS for a branch."""
    stops = _stopping_loops(out)
    around: list[tuple[int, float]] = []  # the indentations of the blocks around, their factors
    found = []
    for i, line in enumerate(out):
        body = line.lstrip(" ")
        depth = len(line) - len(body)
        while around and around[-1][0] >= depth:
            around.pop()
        total = 1.0
        for _depth, n in around:
            total *= n
        found.append(total)
        if isinstance(line, ForLine):  # (what it walks, said where it was written)
            n = size(line.walks)
            n = _TURNS_GUESS if n is None else n
            around.append((depth, min(n, _BREAK_TURNS) if i in stops else n))
        elif body.startswith(("if ", "elif ", "else:")) and body.endswith(":"):
            around.append((depth, _BRANCH_RUNS))
    return found


def _stopping_loops(out: list[str]) -> set[int]:
    """The places of the ``for`` lines whose loop holds a ``break`` of its own."""
    fors: list[tuple[int, int]] = []  # the loops around: indentation, place
    found = set()
    for i, line in enumerate(out):
        body = line.lstrip(" ")
        depth = len(line) - len(body)
        while fors and fors[-1][0] >= depth:
            fors.pop()
        if body == "break" and fors:
            found.add(fors[-1][1])
        if body.startswith("for "):
            fors.append((depth, i))
    return found


def _top_reads(code: str):
    """The reads of a zone's top or emptiness in generated code (out of strings): per
    read, its text before and after the zone's index, and the index's span in ``code``."""
    for m in _ZONE.finditer(code):
        end = _closing(code, m.end())
        if end is None:
            continue
        for before, after in _TOP_READS:
            start = m.start() - len(before)
            if code[start:m.start()] == before and code.startswith(after, end + 1):
                # (not the parentheses of a call: ``f(R.zones[x] or _NO_ITEM)[-1]``)
                if before != "(" or start == 0 or not _OPERAND_END.match(code[start - 1]):
                    yield before, after, (m.end(), end)
                break


def _tabulated(line: str) -> str:
    """A line of generated code with its reads of zones' tops through the table."""
    parts = _STRING.split(line) if "'" in line or '"' in line else [line]
    for i in range(0, len(parts), 2):
        parts[i] = _tabulated_code(parts[i])
    return "".join(parts)


def _tabulated_code(code: str) -> str:
    for before, after, (start, end) in _top_reads(code):
        head, tail = _TOP_READS[(before, after)]
        index = _tabulated_code(code[start:end])  # a read inside the index too
        code = (code[:start - len("R.zones[") - len(before)] + head + index + tail
                + _tabulated_code(code[end + 1 + len(after):]))
        return code
    return code


def _closing(code: str, at: int) -> int | None:
    """The place of the ``]`` closing the bracket opened just before ``at`` (brackets of
    any kind nested in between); None if the code ends before."""
    depth = 0
    for i in range(at, len(code)):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i if ch == "]" else None
            depth -= 1
    return None
