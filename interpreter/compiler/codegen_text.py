"""The passes over the fast code's statement form (its lines as data, see
codegen_lines.py and ExprCompiler.lines), deciding how its reads of the runtime R are
written: the tables read through local names (localize), the zones' top items read from
a table (tabulate_tops). They read what the printer said of each line where it wrote it
(the blocks around it, what a loop walks, the reads of R's tables in it), never its
text. What a rule function reads of the state is the core's (core/pure.py); whether its
fast code reads R the printer notes where it writes it (ExprCompiler.wrote_r)."""
from __future__ import annotations

from .codegen_lines import BREAK, ELSE, FOR, IF, TOP, Line, Plan

# the parts of R read through a local name in the statement form (see localize): the
# state's tables, never rebound while an expression runs (no expression changes the
# state; a move changes them in place)
# (each attribute of R -> its local name)
_LOCAL_TABLES = {"zones": "z_", "loc": "loc_", "facing": "facing_", "ivars": "iv_", "vars": "g_",
                 "pvars": "pv_"}
# the prefix of the local name of a variable read by its name (``ivk_x``, ``pvk_x``,
# ``gk_x``, ``lk_x``: the table of an item's variable, of a seat's, a global variable's
# value, a procedure's local)
_KEYED_PREFIX = {"ivars": "iv", "pvars": "pv", "vars": "g", None: "l"}


def localize(out: list[Line], value: Line, gives_r: bool, tops: bool) -> tuple[Plan, list[Line], list[Line]]:
    """How the statement form of a whole expression (``out``, then its value ``value``)
    reads R (``tops``: the zones' tops from their table, see tabulate_tops): the tables
    of R that it reads in loops or more than once (``R.zones``...) read through local
    names bound once before (``z_ = R.zones``), and, where it gives R to no function
    (``gives_r``: the printer notes it, ExprCompiler.gave_r), the work budget counted in
    a local (``wk_``) written back to ``R.work`` after the statements (nothing reads it
    before; after a failure, the straightforward code runs from the budget as it was,
    see compile.Program._lambda). A variable read so, the table of an item's or a seat's
    variable (``R.ivars['x']``), a global variable's value (``R.vars['x']``) or a
    procedure's local (``L['x']``), is read once into a local name too (``ivk_x``,
    ``gk_x``, ``lk_x``). A read counts twice in a loop or a comprehension (one such read
    pays for its local name).
    The same operations, in the same order (what is read once instead of at each use
    cannot change while an expression runs). The plan, and the lines before and after
    the statements."""
    rows = [*out, value]
    looped = _in_loops(out) + [False]
    weights = [2 if inside or row.comp else 1 for inside, row in zip(looped, rows)]
    keys: dict[tuple, int] = {}
    for row, w in zip(rows, weights):
        for read in row.reads():
            if read.key is not None:
                keys[(read.table, read.key)] = keys.get((read.table, read.key), 0) + w
    keyed = {k: f"{_KEYED_PREFIX[k[0]]}k_{k[1]}" for k, c in keys.items() if c >= 2}
    counts = _table_reads(rows, weights, looped, keyed, tops)
    names = {t: name for t, name in _LOCAL_TABLES.items() if counts.get(t, 0) >= 2}
    # (one count and its test outside loops: a local name would not pay)
    work = counts.get("work", 0) > 2 and not gives_r
    plan = Plan({**names, **({"work": "wk_"} if work else {})}, keyed, tops)
    before = [Line(0, f"{name} = {'L' if t is None else 'R.' + t}[{key!r}]") for (t, key), name in keyed.items()]
    before += [Line(0, f"{name} = R.{t}") for t, name in names.items()] + ([Line(0, "wk_ = R.work")] if work else [])
    return plan, before, ([Line(0, "R.work = wk_")] if work else [])


def _table_reads(rows: list[Line], weights: list[int], looped: list[bool], keyed: dict, tops: bool) -> dict[str, int]:
    """How often each table of R is read in the lines (see localize), each read as
    many times as its line's weight (the work budget: twice in a loop, else once), but
    the variables read into local names (``keyed``) and, where ``tops``, the zones'
    tops read from their table."""
    counts: dict[str, int] = {}
    for row, w, inside in zip(rows, weights, looped):
        for read in row.reads():
            if read.table is not None and (read.key is None or (read.table, read.key) not in keyed) \
                    and not (read.top is not None and tops):
                counts[read.table] = counts.get(read.table, 0) + (w if read.table != "work" else 1 + inside)
    return counts


def _in_loops(out: list[Line]) -> list[bool]:
    """Per line of statements, whether it is inside a ``for`` loop."""
    fors: list[int] = []  # the depths of the loops around
    found = []
    for line in out:
        while fors and fors[-1] >= line.depth:
            fors.pop()
        found.append(bool(fors))
        if line.kind == FOR:
            fors.append(line.depth)
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


def tabulate_tops(out: list[Line], value: Line, zones: int, size) -> bool:
    """Whether the statement form of a whole expression (``out``, then its value
    ``value``) reads the zones' top items and emptiness (``(R.zones[x] or
    _NO_ITEM)[-1]``, ``(not not R.zones[x])``, ``(not R.zones[x])``: core/primitives.py ZONE_TOPS)
    from a table of every zone's top ``T_`` made before the statements (_TOPS_LINE): the
    same values, in the same order (an index out of the zones fails the same way), no
    work counted either way. Not where it would not pay, by a static estimate: the
    reads, each weighed by what it saves (_TOP_SAVES, _EMPTY_SAVES) and counted as many
    times as its line is expected to run (see _turns; a comprehension in the line:
    _TURNS_GUESS times more), must save at least _TOPS_MARGIN times what making a table
    of all ``zones`` costs (the zones' count and the boards' sizes are the program's,
    for its number of players)."""
    saved = 0.0
    for row, n in zip([*out, value], _turns(out, size) + [1]):
        more = _TURNS_GUESS if row.comp else 1
        for read in row.reads():
            if read.top is not None:
                saved += n * more * (_TOP_SAVES if read.top == TOP else _EMPTY_SAVES)
    return saved >= _TOPS_MARGIN * zones


def _turns(out: list[Line], size) -> list[float]:
    """Per line of statements, how many times it is expected to run (see
    tabulate_tops): the product, over the blocks around it, of a loop's turns (its
    length, ``size(iterable)``, or _TURNS_GUESS; _BREAK_TURNS at most for a loop that
    may stop early: ``any``, ``all``, ``first``...) and _BRANCH_RUNS for a branch."""
    stops = _stopping_loops(out)
    around: list[tuple[int, float]] = []  # the depths of the blocks around, their factors
    found = []
    for i, line in enumerate(out):
        while around and around[-1][0] >= line.depth:
            around.pop()
        total = 1.0
        for _depth, n in around:
            total *= n
        found.append(total)
        if line.kind == FOR:  # (what it walks, said where it was written)
            n = size(line.walks)
            n = _TURNS_GUESS if n is None else n
            around.append((line.depth, min(n, _BREAK_TURNS) if i in stops else n))
        elif line.kind in (IF, ELSE):
            around.append((line.depth, _BRANCH_RUNS))
    return found


def _stopping_loops(out: list[Line]) -> set[int]:
    """The places of the ``for`` lines whose loop holds a ``break`` of its own."""
    fors: list[tuple[int, int]] = []  # the loops around: depth, place
    found = set()
    for i, line in enumerate(out):
        while fors and fors[-1][0] >= line.depth:
            fors.pop()
        if line.kind == BREAK and fors:
            found.add(fors[-1][1])
        if line.kind == FOR:
            fors.append((line.depth, i))
    return found
