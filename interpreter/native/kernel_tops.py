"""A kernel's loops over the cells of a board whose top item has one value of an attribute
no statement changes (kernel.Gen.loops, Gen._Aggregate): where only such cells can pass a
loop's condition (core/tops.py, ``Facts.top_value``: ``[c for c in cells(b) if own(c,
me)]`` with ``own(c, me) = occupied(c) and top(c).colour == me``), the loop walks the bits
of an index the zones keep per value of the attribute (cxx/kernel_zones.hpp, ``Zones``'
``tops``: a bit per cell of the boards, as ``occ``'s, set while the cell's top item has
that value, kept by every move of an item), those of the static part of the condition
(core/cells.py, ``Facts.cells_filter``: ``c.row == r``, a table of its cells' bits, by
the key's value or the seat where it has one) and of the board's cells both set, lowest
first: the cells' order. The value is computed once before the loop (a seat of a name
that is none bails: the reference fails too at the first cell with a top item, or, where
none has one, the move is left to it, which gives the same answer), the work budget
counts the board's cells as before (the list's length, counted before the loop), and
the conjuncts the static part leaves are tested on each cell walked: the same elements,
values, work and calls as the reference. Where the condition holds exactly on those
cells (``TopValue.exact``), it is not tested again (a list of them is their cells), and
a ``count`` of the loop's cells is how many bits are set.

A value's slot is found by comparing it with the attribute of one item of each value
the items have (the kernel's own table and ``eq``); a value no item has walks no cell
(``no_tops``, a row of no bit outside the state).
One cell's test of such a value outside a loop (each cell a walk along a ray meets) reads
the cell's bit too (``TopWalks.cell_bit``), and a count of the cells along a ray that pass
it before the first that does not is read from the ray's cells as bits
(``TopWalks.ray_run``). The index is kept only where a loop walks it
or such a test reads it, for at most ``_SLOTS`` values in all; a value's slot is one
subtraction where the values are consecutive numbers (the seats).

One cell's test may also read an item variable's index (discs turned over by a line:
``empty(y) or top(y).seat == s``, the stop of a walk along a ray): its values' slots are
those it may take (``_mut_values``: a truth's two, an enum's all; an integer's proven range where it is
short, else its first value, the numbers statements set it to and the seats), each
item's slot kept in the state (cxx/kernel_zones.hpp, ``tag``) by the statements that set
it (``IDX_<field>``), where a game starts and where a state is loaded
(``INDEX_RENEW``), and the cell's bit where the item is its top (``retag``). A value
with no slot is tested as written. Loops still walk only the static attributes' rows."""
from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from ...dsl import ast as ir, operators as language
from ...dsl.builtins import CLOSURES
from ..core import ops
from ..core.operators import operands, resolve
from .cxx_text import ident
from .kernel_cells import rows_by_value
from .kernel_occupancy import set_bits
from .kernel_reads import ENTRY, carried, counters, reads_of, state
from .kernel_types import INT
from .kernel_walks import CELL_ID

_WORD = 64
_OPERATIONS = frozenset(op.node for op in language.OPERATORS.values())   # (BinOp, UnOp, a conditional)
_SLOTS = 32   # (the values indexed at most: an item's slots are the bits of a word)


class Entry:
    """The rows of the index a rule function's body reads by a value of its parameters
    alone (``seat(p)``), each read once at its entry (``rows``: by the C++ of the read,
    the local's name; ``params``: the C++ names of its parameters), where a loop that
    reads it is reached by every evaluation of the body (``reached``: the ids of those
    nodes, found when first asked): the state does not change while a rule function is
    evaluated, so the row read there is the row read where the loop is, and a read that
    bails there (the seat of a name that is none) bails where the reference fails too at
    the loop, or where, none of the cells holding an item, the move is left to it, which
    gives the same answer. A row read only by loops the body may not reach (``if p == none then
    0 else count(...)``) is read at each loop, as before: a guard keeps it from
    bailing."""

    def __init__(self, params, reached_of: Callable[[], set[int]]):
        self.params = set(params)
        self._reached_of = reached_of   # (found where a loop first asks: most bodies have none)
        self.rows: dict[str, str] = {}

    @cached_property
    def reached(self) -> set[int]:
        return self._reached_of()

    def declarations(self) -> str:
        """The C++ of the reads, put first in the function's body."""
        return "".join(f"const uint64_t* {name} = {row}; " for row, name in self.rows.items())


def reached(gen, body) -> set[int]:
    """The ids of the nodes of a rule function's body (``gen``: its kernel.Gen) that every
    evaluation of it evaluates, where it fails nowhere before them, as the reference
    evaluates (core/evaluate.py): the first operand of an operation, the others where
    it is not lazy (core/operators.py: not the right of ``and``, ``or``, nor a
    conditional's branches); a loop's first list, and, where that list is a range known
    not to be empty (core/bounds.py), its condition (else its element); every part of
    any other kind of expression (a call's arguments, a list's items...)."""
    out: set[int] = set()
    todo = [body]
    while todo:
        e = todo.pop()
        out.add(id(e))
        todo.extend(_evaluated_parts(gen, e))
    return out


def _evaluated_parts(gen, e) -> list:
    """The parts of ``e`` every evaluation of it evaluates (see ``reached``): of a kind
    of expression that is neither an operation nor a loop, all of them (a part it might
    leave unevaluated, taken for evaluated, only reads a row early: where that bails,
    the move is left to Python, which gives the same answer)."""
    node = e.node
    if node in _OPERATIONS:
        first, *rest = operands(e)
        return [first] if resolve(e, gen.c.type_of).lazy else [first, *rest]
    if node not in ir.CLAUSED:
        return ir.children(e)
    if node == "Aggregate" and e.func in CLOSURES:
        return []
    comp = e if node == "Comprehension" else e.comp
    first = comp.clauses[0].iter
    if len(comp.clauses) > 1 or not _not_empty(gen, first):
        return [first]
    return [first, comp.cond if comp.cond is not None else comp.elem]


def _not_empty(gen, e) -> bool:
    """Whether ``e`` is a range ``a..b`` with ``a <= b`` whatever their values."""
    if e.node != "BinOp" or resolve(e, gen.c.type_of).name != "range":
        return False
    lo, hi = gen.facts.int_range(e.left), gen.facts.int_range(e.right)
    return lo is not None and hi is not None and lo[1] <= hi[0]


class TopWalks:
    """The loops over the cells by the value of their top item, of one program (``gen``:
    its kernel.Gen)."""

    def __init__(self, gen):
        self.gen = gen
        self.running = False   # (a rule function's walk being written for ray_run: not again inside)
        # (the body of the rule function being written and the C++ of a call of its walk
        # written apart: kernel.Gen.function)
        self.whole: tuple | None = None
        # (per attribute and type: the items' values, each its slot and an item of it)
        self.slots: dict[tuple[str, str], dict] = {}
        self.n = 0

    # ------------------------------------------------------------ the index
    def zones_args(self) -> str:
        """The index's argument of the state's ``Zones`` (after the occupied cells'), or ""
        where no loop walks it."""
        return ", TopSlots" if self.n else ""

    def traits(self) -> list[str]:
        """The C++ of ``TopSlots`` (before the state): each item's slots as bits."""
        if not self.n:
            return []
        items = self.gen.p.items
        bits = [0] * len(items)
        for (attr, _t), slots in self.slots.items():
            if slots["mut"]:
                continue   # (an item variable's: in the state, Zones' ``tag``)
            for i, v in enumerate(self._values(attr, slots["t"])):
                if v is not None and v in slots["of"]:
                    bits[i] |= 1 << slots["of"][v][0]
        body = ", ".join(f"{b}u" for b in bits) or "0u"
        mut = "true" if any(x["mut"] for x in self.slots.values()) else "false"
        return [f"struct TopSlots {{ static constexpr int N = {self.n}; static constexpr bool MUT = {mut}; "
                f"static inline uint32_t of(Id i) {{ "
                f"static constexpr uint32_t S[{max(len(bits), 1)}] = {{{body}}}; return S[i]; }} }};"]

    def index_defines(self) -> list[str]:
        """The macros that keep the index of an item variable's values (``Zones``'
        ``retag``): ``IDX_<field>(s, it)`` after a statement sets the variable of the item
        ``it`` (nothing where no test reads its index), ``INDEX_RENEW(s)`` once the
        state's variables are set (a new game, a state loaded)."""
        g = self.gen
        out, renew = [], []
        for name in sorted({n for fs in g.c.item_vars.values() for n in fs}):
            field = ident("I", name)
            keys = [k for k, x in self.slots.items() if x["mut"] and k[0] == name]
            if not keys:
                out.append(f"#define IDX_{field}(s, it) ((void)0)")
                continue
            slots = self.slots[keys[0]]
            keep = ~sum(1 << k for k, _ in slots["of"].values()) & 0xFFFFFFFF
            bits = slots["bits"]
            out.append(f"#define IDX_{field}(s, it) (s).z.retag(it, {keep:#x}u, "
                       f"{bits}({g.layout.ivar(name, 'it', '(s)')}))")
            renew.append(f"for (Id i_ : {slots['items']}) IDX_{field}(s, i_);")
        out.append(f"#define INDEX_RENEW(s) do {{ {' '.join(renew)} }} while (0)")
        return out

    def _values(self, attr: str, at) -> list:
        """Each item's value of ``attr`` where its kind's is of the type ``at`` (as
        Gen._Attr's table), else None."""
        c = self.gen.c
        return [it.attrs.get(attr) if c.kinds[it.kind].get(attr) == at else None for it in self.gen.p.items]

    def slot_of(self, tv, board: str) -> str | None:
        """The C++ function of the slot of a value of ``tv``'s attribute (``_slot_fn``; an
        item variable's, ``_mut_slot_fn``, -1 where the value has none), the index kept
        over ``board``'s cells; None where it has no slots."""
        slot = (self._mut_slot_fn if tv.mutable else self._slot_fn)(tv.attr, tv.at)
        occ = self.gen.occupied
        if slot is not None:
            occ.keep(board)   # (the index's range: the boards' cells, as occ's)
        return slot

    def _mut_slot_fn(self, attr: str, at) -> str | None:
        """The C++ function of a value of the item variable ``attr`` giving its slot, -1
        where it has none (its items' then have no bit: a test of it reads the items);
        slots given where first asked to the values it may take (``_mut_values``); None
        where they would be more than ``_SLOTS`` in all, or where slots of an attribute
        of its name (another type's, a static one's) are given already."""
        g = self.gen
        key = (attr, str(at))
        if key not in self.slots:
            values = self._mut_values(attr, at)
            if values is None or self.n + len(values) > _SLOTS or any(k[0] == attr for k in self.slots):
                return None
            of = {v: (self.n + k, None) for k, v in enumerate(values)}
            self.n += len(of)
            fn = self._mut_fn(attr, at, of)
            bits = g.tables.table(("TOPBITS_OF", attr, str(at)), lambda t: (
                f"static inline uint32_t {t}({g.ct(at)} v) {{ const int k = {fn}(v); return k >= 0 ? 1u << k : 0u; }}"))
            kinds = sorted(k for k, fs in g.c.item_vars.items() if attr in fs)
            ids = g.tables.id_list(("KINDS", *kinds), [it.id for it in g.p.items if it.kind in kinds])
            self.slots[key] = {"t": at, "of": of, "mut": True, "fn": fn, "bits": bits, "items": ids}
        found = self.slots[key]
        return found["fn"] if found["mut"] else None

    def _mut_fn(self, attr: str, at, of: dict) -> str:
        """The C++ of the slot of a value of the item variable (see ``_mut_slot_fn``)."""
        g = self.gen
        span = _consecutive(of)
        if span is not None:
            a, n, k = span
            return g.tables.table(("TOPSLOT_MUT", attr, str(at)), lambda t: (
                f"static inline int {t}(I v) {{ const uint64_t d = (uint64_t)v - (uint64_t)({a}LL); "
                f"return d < {n}ULL ? {k} + (int)d : -1; }}"))
        tests = "".join(f"v == {'true' if v is True else 'false' if v is False else f'{v}LL'} ? {slot} : "
                        for v, (slot, _) in of.items())
        return g.tables.table(("TOPSLOT_MUT", attr, str(at)),
                              lambda t: f"static inline int {t}({g.ct(at)} v) {{ return {tests}-1; }}")

    def _mut_values(self, attr: str, at) -> list | None:
        """The values an item variable is given slots for: a truth's two; an enum's
        every one; an integer's range where the rules prove it (kernel_layout.py,
        ``var_ranges``) and it is short, else its first value and those statements set
        written out, and the seats; None for another type."""
        g = self.gen
        if at.tag == "bool":
            return [False, True]
        if at.tag == "enum":   # (its values' numbers in the kernel, as kernel_tables.py keeps them)
            return list(range(len(g.c.enums[at.arg])))
        if at.tag != "int":
            return None
        r = g.layout.ranges.get(attr)
        if r is not None and r[1] - r[0] < 16:
            return list(range(r[0], r[1] + 1))
        found = set(range(1, g.p.n + 1))
        for fs in g.c.item_vars.values():
            if attr in fs and fs[attr].init is not None and fs[attr].init.node == "IntLit":
                found.add(fs[attr].init.value)
        for proc in g.p.procs.values():
            for i in proc.core:
                if isinstance(i, ops.SetItemVar) and i.attr == attr and i.value.node == "IntLit":
                    found.add(i.value.value)
                elif isinstance(i, ops.Make):
                    found.update(v.value for name, v, _ in i.sets if name == attr and v.node == "IntLit")
        return sorted(v for v in found if -(1 << 62) < v < (1 << 62))

    def _slot_fn(self, attr: str, at) -> str | None:
        """The C++ function of a value of ``attr`` giving its slot (``TopSlots::N``, a row
        of no bit: no item has it),
        the attribute's values given slots where first asked; None where they would be
        more than ``_SLOTS`` in all."""
        g = self.gen
        key = (attr, str(at))
        if key not in self.slots:
            values = self._values(attr, at)
            of: dict = {}
            for i, v in enumerate(values):
                if v is not None and v not in of:
                    of[v] = (self.n + len(of), i)
            if self.n + len(of) > _SLOTS:
                return None
            self.n += len(of)
            self.slots[key] = {"t": at, "of": of, "mut": False}
        if self.slots[key]["mut"]:
            return None
        of = self.slots[key]["of"]
        span = _consecutive(of)
        if span is not None:   # (numbers a..b in slots k..k + b - a: one subtraction, no search)
            a, n, k = span
            return g.tables.table(("TOPSLOT", attr, str(at)), lambda t: (
                f"static inline int {t}(I v) {{ const uint64_t d = (uint64_t)v - (uint64_t)({a}LL); "
                f"return d < {n}ULL ? {k} + (int)d : TopSlots::N; }}"))
        table = g.tables.value_table(("A", attr, str(at)), self._values(attr, at), at)
        tests = "".join(f"eq({table}[{item}], v) ? {slot} : " for slot, item in of.values())
        return g.tables.table(("TOPSLOT", attr, str(at)),
                              lambda t: f"static inline int {t}({g.ct(at)} v) {{ return {tests}TopSlots::N; }}")

    # ------------------------------------------------------------ the loops
    def plan(self, cl, cond):
        """For the last clause ``cl`` of a comprehension over a board's cells with the
        condition ``cond``: (the board, its cells, the static part or None, the
        ``TopValue``, the conjuncts to test per cell), or None."""
        g = self.gen
        table = g.facts.table_list(cl.iter)
        if cond is None or table is None or table[0] != "cells":
            return None
        cells = g.p.boards.get(table[1]) or []
        if not cells or cells != list(range(cells[0], cells[0] + len(cells))):
            return None
        f = g.facts.cells_filter(cl, cond)
        if f is not None and not f.rest:
            return None
        rest = f.rest if f is not None else [cond]
        tv = g.facts.top_value(rest[0], cl.var)
        if tv is None:
            return None
        return table[1], cells, f, tv, rest

    def exact(self, comp) -> bool:
        """Whether ``count(comp)`` is how many bits are set (see the module)."""
        return self._exact_plan(comp) is not None

    def _exact_plan(self, comp):
        """The plan of ``comp`` (see ``plan``) where ``count(comp)`` is how many bits are
        set, else None."""
        if len(comp.clauses) != 1:
            return None
        found = self.plan(comp.clauses[0], comp.cond)
        return found if found is not None and _exact(found) else None

    def _at_entry(self, row: str, tv, sc: dict, at) -> str | None:
        """The C++ of the value's row of the index read once at the entry of the rule
        function being written (``Entry``), where the value's C++ names nothing of the
        scope but the function's parameters (a name not in it: a constant or a variable
        of the game, the same there) and the loop (its node ``at``) is reached by every
        evaluation of the body or the row was read so already; else None."""
        found = sc.get(ENTRY)
        if found is None:
            return None
        entry = found[0]
        for n in ir.walk(tv.value):
            e = n
            if n.node != "Var":
                continue
            if tv.env is not None:   # (a rule function's body: its parameters' arguments)
                if n.name not in tv.env:
                    continue
                e = tv.env[n.name]
                if e is None:
                    return None
            if e.node == "Var" and e.name in sc and sc[e.name][0] not in entry.params:
                return None
        if row not in entry.rows:
            if id(at) not in entry.reached:
                return None
            entry.rows[row] = self.gen.fresh("th")
        return entry.rows[row]

    def _words(self, plan, sc: dict, at) -> tuple[str, str, int, list | None] | None:
        """The C++ declarations of the loop's words (``tr``: the value's bits, ``tm``: the
        cells' that may pass), their names' prefix, how many words and the cells of
        each mask the words may be (None: not known), or None. ``at``: the node of the
        rule function's body whose evaluation starts the loop (its list)."""
        g = self.gen
        reads = reads_of(sc)
        if reads is not None and reads.through != "s.z":
            return None
        board, cells, f, tv, _rest = plan
        slot = self._slot_fn(tv.attr, tv.at)
        if slot is None:
            return None
        occ = g.occupied
        occ.keep(board)   # (the index's range: the boards' cells, as occ's)
        words = (occ.n + _WORD - 1) // _WORD
        masked = self.cells_mask(board, cells, f, sc, words)
        if masked is None:
            return None
        row = f"{state(sc)}.z.tops_of({slot}({self.value_of(tv, sc)}))"
        row = self._at_entry(row, tv, sc, at) or row
        w = g.fresh("tw")
        return (f"const uint64_t* {w}_r = {row}; const uint64_t* {w}_m = {masked[0]}; ", w, words, masked[1])

    def value_of(self, tv, sc: dict) -> str:
        """The C++ of the value, in the loop's scope."""
        g = self.gen
        if tv.env is None:
            return g.expr(tv.value, sc, tv.at)
        inner = carried(sc)
        for name, e in tv.env.items():
            if e is not None:
                inner[name] = (g.expr(e, sc), g.ty(e))
        return g.expr(tv.value, inner, tv.at)

    def cells_mask(self, board: str, cells: list, f, sc: dict, words: int) -> tuple[str, list | None] | None:
        """The C++ of the words of the cells that may pass (a pointer): the board's, or
        those the static part lets through (by its key's value, by a seat); and the
        cells of each mask they may be (by a key: those of its values core/bounds.py
        knows it within, None where it may be another or none)."""
        g = self.gen
        lo = g.occupied.lo

        def bits(zs) -> list[str]:
            row = [0] * words
            for z in zs:
                row[(z - lo) // _WORD] |= 1 << ((z - lo) % _WORD)
            return [f"{x:#x}ULL" for x in row]

        def rows(name: tuple, rs: list) -> str:
            body = [x for r in rs for x in bits(r)]
            return g.tables.table(name, lambda t: f"static const uint64_t {t}[{max(len(body), 1)}] = "
                                  f"{{{', '.join(body) or '0ULL'}}};")
        if f is None:
            return rows(("TOPMASK", board), [cells]), [cells]
        what = repr(f.preds)
        if f.by_seat is not None:
            arr = rows(("TOPMASK_SEAT", board, what), [list(r) for r in f.by_seat])
            fn = g.tables.table(("TOPMASK_SEAT_FN", board, what),
                                lambda t: f"static inline const uint64_t* {t}(Id k) {{ if (k < 0 || k >= "
                                          f"{len(f.by_seat)}) bail(); return {arr} + (size_t)k * {words}; }}")
            return f"{fn}({g.expr(f.seat_of, sc, g.ty(f.seat_of))})", [list(r) for r in f.by_seat]
        if f.key is None:
            return rows(("TOPMASK_CELLS", board, what), [f.passing]), [f.passing]
        grouped = rows_by_value(f.passing, f.keys)
        if grouped is None:
            return None
        a, b, by = grouped
        arr = rows(("TOPMASK_BY", board, repr((f.key[0], f.preds))), by)
        fn = g.tables.table(("TOPMASK_BY_FN", board, repr((f.key[0], f.preds))),
                            lambda t: f"static inline const uint64_t* {t}(I k) {{ "
                                      f"if (k == NONE_I) return {arr} + {(b - a + 1) * words}; "
                                      f"if (k < {a}LL || k > {b}LL) return {arr} + {(b - a + 2) * words}; "
                                      f"return {arr} + (size_t)(k - {a}LL) * {words}; }}")
        span = g.facts.int_range(f.key[1], g.known_ranges(f.key[1]))
        known = by[span[0] - a:span[1] - a + 1] if span is not None and a <= span[0] <= span[1] <= b else None
        return f"{fn}({g.expr(f.key[1], sc, INT)})", known

    def loop(self, cl, cond, sc: dict, var: str, inside) -> tuple[str, str, str] | None:
        """The C++ loop over the cells of the last clause ``cl`` (over a board's cells,
        with the condition ``cond``) whose top item has the value (``inside(rest)``: the C++
        within, given the conjuncts to test), or None: the declarations before it, how many
        cells it walks at most, the loop."""
        plan = self.plan(cl, cond)
        if plan is None:
            return None
        words = self._words(plan, sc, cl.iter)
        if words is None:
            return None
        pre, w, n, _rows = words
        lo = self.gen.occupied.lo
        m = self.gen.fresh("m")
        held = _held(w, n)
        if n == 1:
            head, at = set_bits(m, f"{w}_r[0] & {w}_m[0]", lo)
        else:
            head, at = set_bits(m, f"{w}_r[{w}_i] & {w}_m[{w}_i]", lo, (f"{w}_i", 0, f"< {n}"))
        # (a condition that holds exactly on the cells walked is not tested again: it
        # counts nothing, fails nowhere the value did not)
        rest = [] if _exact(plan) else plan[4]
        return pre, held, f"{head}{{ const Id {var} = (Id)({at}); {CELL_ID.format(var)}{inside(rest)} }}"

    def filter_walk(self, it, sc: dict) -> FilterWalk | None:
        """The walk of ``it``, the plain call of a rule function whose body is a filter
        walked from the index (``walked_filter``), in the call's place with no list
        made (kernel_first_filled.py, kernel_filter_loops.py); else None. The same
        work: the board's cells, as the filter's loop counts them; ``n`` is what its
        list's length would be, for the loop over it to count."""
        g = self.gen
        if it.node != "Call" or g.facts.call_kind(it) != "function" or not g.called_plainly(it):
            return None
        fd = g.c.functions[it.func]
        if not walked_filter(g, fd):
            return None
        body = fd.body
        binds, scope = g._bound_params(fd, it.args, sc)
        plan = self._exact_plan(body)
        words = self._words(plan, scope, it)
        if words is None:
            return None
        pre, w, k, _rows = words
        cl = body.clauses[0]
        t = g.ty(cl.iter)
        xs, n = g.fresh("xs"), g.fresh("n")
        src = g.expr(cl.iter, scope, t)
        work = "" if g.facts.counted(cl.iter) else f"W({counters(sc)}, {g.tables.size_of(xs, src)}); "
        head = (f"{binds}{{ const {g.ct(t)}& {xs} = {src}; {work}}} {pre}"
                f"const size_t {n} = (size_t)({_held(w, k)}); ")
        return FilterWalk(head, n, g.fresh("m"), w, k, g.occupied.lo)

    def count(self, comp, sc: dict) -> str | None:
        """``count(c for c in cells(b) if cond)`` where cond holds exactly on the cells whose
        top item has the value (see the module): how many bits are set, the board's cells
        counted as before; else None."""
        plan = self._exact_plan(comp)
        if plan is None:
            return None
        cl = comp.clauses[0]
        words = self._words(plan, sc, cl.iter)
        if words is None:
            return None
        pre, w, n, _rows = words
        g = self.gen
        it = g.ty(cl.iter)
        xs = g.fresh("xs")
        src = g.expr(cl.iter, sc, it)
        work = "" if g.facts.counted(cl.iter) else g.charge(sc, g.tables.size_of(xs, src))
        return (f"([&]() -> I {{ const {g.ct(it)}& {xs} = {src}; {work}{pre}"
                f"return (I)({_held(w, n)}); }}())")

    def cell_bit(self, e, sc: dict) -> str | None:
        """One cell's test of its top item's value (core/tops.py, ``cell_test``): X's bit in
        the row of V of the index, ``occupied(X) and top(X).A == V`` (``mine(z, s)``,
        tested at each cell a walk along a ray meets), or ``empty(X) or top(X).A == V``
        (the bit in that row or not in ``occ``: a walk's stop), where the test read the
        zone's size, then its top item, then the item's value, each read waiting for the
        one before (a game whose end is tested along rays so: 0.85–0.88 of the time,
        though 5% more instructions, docs/performance.md); also the last two of ``H and
        occupied(X) and top(X).A == V``, H first. A an item variable: its value's slot
        found where the test is (a value with none: the test as written). The same truth
        as the reference, no work counted; a cell that is none bails (``nn``), the move
        left to Python. Not where the zones read are noted (``reads_of``: a lasting
        keep's body, a walk's: the kept groups of connected pieces read their pieces
        so). Else None."""
        g = self.gen
        head = None
        found = g.facts.cell_test(e)
        if found is None and e.op == "and" and e.left.node == "BinOp" and e.left.op == "and":
            found = g.facts.cell_test(_joined(e.left.right, e.right, e))
            head = e.left.left
        if found is None or reads_of(sc) is not None:   # (a read noted: a lasting keep's, a walk's)
            return None
        x, tv, either = found
        t = g.ty(x)
        cells: list[int] = (g.p.boards.get(t.arg) or []) if t.tag == "cell" and isinstance(t.arg, str) else []
        if not cells or cells != list(range(cells[0], cells[0] + len(cells))):
            return None
        slot = self.slot_of(tv, t.arg)
        if slot is None:
            return None
        occ = g.occupied
        st = state(sc)
        # (a board of one word: its word read, no shift of the cell's number)
        w, m = ("k >> 6", "k & 63") if occ.n > _WORD else ("0", "k")
        bit = g.tables.table(("TOPBIT", w), lambda n: (
            f"static inline bool {n}(const uint64_t* r, uint32_t k) {{ return (r[{w}] >> ({m})) & 1U; }}"))
        if either:
            bit = g.tables.table(("TOPBIT_OR", w), lambda n: (
                f"static inline bool {n}(const uint64_t* o, const uint64_t* r, uint32_t k) "
                f"{{ return ((~o[{w}] | r[{w}]) >> ({m})) & 1U; }}"))
            bit = f"{bit}({st}.z.occ, "
        else:
            bit = f"{bit}("
        value = self.value_of(tv, sc)
        where = f"(uint32_t)(nn({g.expr(x, sc)}) - {occ.lo})"
        if not tv.mutable:
            test = f"{bit}{st}.z.tops_of({slot}({value})), {where})"
        else:
            ct = g.ct(tv.at)
            top = g.layout.ivar(tv.attr, f"{st}.z.top(x_)", st)
            plain = (f"({st}.z.size(x_) == 0 || eq({top}, v_))" if either else
                     f"({st}.z.size(x_) > 0 && eq({top}, v_))")
            test = (f"([&]() MK_AI -> bool {{ const Id x_ = nn({g.expr(x, sc)}); const {ct} v_ = {value}; "
                    f"const int k_ = {slot}(v_); return k_ >= 0 ? {bit}{st}.z.tops[k_], "
                    f"(uint32_t)(x_ - {occ.lo})) : {plain}; }}())")
        return test if head is None else f"({g.expr(head, sc)} && {test})"

    def ray_run(self, e, sc: dict) -> str | None:
        """``count(y for y in until(z for z in ray(c, ...) if not P(z)) if P(y))``, P one
        cell's test ``cell_bit`` reads by its bit (exact, the same test both times), the
        boards' cells the bits of one word and the ray kept in flat rows (``ray_bits``):
        how many cells along the ray pass P before the first that does not, found from
        the ray's cells as bits (``fn_bits_at``): the first of them not set in the value's
        row, and the ray's cells before it counted (a connected line's length, each of
        its four directions two rays). The same count and work as the walk, which the C++
        keeps for a ray whose cells' numbers neither go up nor down, or not kept (steps
        past RAY_STEP). The ray's start and steps are names or numbers (read twice where
        the walk is taken). Only where the count is a rule function's whole body: the
        walk is then a function of its own, called only where the bits cannot be read
        (``Gen.function``); written in line at each call instead, its copies in a line's
        eight rays took back the gain (docs/performance.md). Else None."""
        g = self.gen
        comp = e.comp
        whole = self.whole if not self.running and self.whole is not None and self.whole[0] is e else None
        ray = _run_ray(comp) if whole is not None and reads_of(sc) is None else None
        if whole is None or ray is None:
            return None
        tv = g.facts.top_value(comp.cond, comp.clauses[0].var)
        slot = self._slot_fn(tv.attr, tv.at) if tv is not None and tv.exact else None
        occ = g.occupied
        t = g.ty(ray.start)
        board = t.arg if t.tag == "cell" and isinstance(t.arg, str) else None
        if slot is None or not 0 < occ.n <= _WORD or board not in g.p.boards:
            return None
        bits = g.ray_bits(ray, occ.lo)
        if bits is None:
            return None
        occ.keep(board)   # (the index's range: the boards' cells, as occ's)
        walked = whole[1]()   # (the rule function's walk, a function apart)
        b, m, n, k = (g.fresh(x) for x in ("rb", "um", "n", "k"))
        args = ", ".join([g.expr(ray.start, sc)] + [f"nn({g.expr(a.value, sc, INT)})" for a in ray.steps])
        # (the cells before the first that fails, with no branch: a ray whose numbers go
        # up keeps the bits below the lowest of them, one going down those above the
        # highest, all where none fails; branches on it mispredicted about twice a move
        # in random games of dropped discs, 0.95 of their time without them)
        before = (f"{b}->up ? ({m} & (0 - {m})) - 1 : ~((2ULL << (63 - __builtin_clzll({m} | 1))) - 1) "
                  f"| (0 - (uint64_t)({m} == 0))")
        return (f"([&]() -> I {{ const RayBits* {b} = {bits}({args}); if ({b} && {b}->up < 2) {{ "
                f"const uint64_t {m} = ~{state(sc)}.z.tops_of({slot}({self.value_of(tv, sc)}))[0] & {b}->m; "
                f"const I {n} = (I){b}->n; const I {k} = (I)bits_set({b}->m & ({before})); "
                f"W({counters(sc)}, 2 * ({k} + (I)({k} < {n}))); return {k}; }} return {walked}; }}())")

    def full(self, e, sc: dict, op) -> str | None:
        """``count(c for c in cells(b) if cond) == K`` (or ``!=``: ``op``, the operation of
        ``e`` (core/operators.py), one of equality; K a literal on either side) where the count is how many bits are set (``count``) and every mask its
        words may be has K cells (K > 0): whether the value's row holds all the mask's
        bits, no popcount; the board's cells counted as before. Else None."""
        if e.node != "BinOp" or op.fold != "equal":
            return None
        for counted, k in ((e.left, e.right), (e.right, e.left)):
            if counted.node == "Aggregate" and counted.func == "count" and k.node == "IntLit" and k.value > 0:
                break
        else:
            return None
        plan = self._exact_plan(counted.comp)
        if plan is None:
            return None
        words = self._words(plan, sc, counted.comp.clauses[0].iter)
        if words is None or words[3] is None or any(len(r) != k.value for r in words[3]):
            return None
        pre, w, n, _rows = words
        g = self.gen
        cl = counted.comp.clauses[0]
        it = g.ty(cl.iter)
        xs = g.fresh("xs")
        src = g.expr(cl.iter, sc, it)
        work = "" if g.facts.counted(cl.iter) else g.charge(sc, g.tables.size_of(xs, src))
        held = " && ".join(f"({w}_r[{i}] & {w}_m[{i}]) == {w}_m[{i}]" for i in range(n))
        if not op.meaning(None, None, 0, 0):   # (!=: the negation)
            held = f"!({held})"
        return (f"([&]() -> bool {{ const {g.ct(it)}& {xs} = {src}; {work}{pre}"
                f"return {held}; }}())")


class FilterWalk:
    """The walk of the bits of a call of a filter walked from the index (``TopWalks.
    filter_walk``), resumable: ``head`` binds the parameters, counts the board's cells
    (the filter's own work) and declares ``n``, how many cells it lists; ``decl``
    declares the walk's state; ``loop(var, body)`` walks from where the walk stands (a
    ``break`` in ``body`` leaves it at that cell, a later ``loop`` starts there); ``done``
    is true once every cell is walked."""

    def __init__(self, head: str, n: str, m: str, w: str, words: int, lo: int):
        self.head, self.n, self.m, self.w, self.words, self.lo = head, n, m, w, words, lo
        i = f"{m}_i"
        self.decl = (f"uint64_t {m} = {w}_r[0] & {w}_m[0]; " if words == 1 else
                     f"int {i} = 0; uint64_t {m} = {w}_r[0] & {w}_m[0]; ")
        self.done = f"{m} == 0"

    def loop(self, var: str, body: str) -> str:
        m, w = self.m, self.w
        if self.words == 1:
            return (f"for (; {m}; {m} &= {m} - 1) {{ const Id {var} = (Id)({self.lo} + __builtin_ctzll({m})); "
                    f"{CELL_ID.format(var)}{body} }}")
        i = f"{m}_i"
        return (f"for (;; {m} &= {m} - 1) {{ while (!{m} && ++{i} < {self.words}) {m} = {w}_r[{i}] & {w}_m[{i}]; "
                f"if (!{m}) break; const Id {var} = (Id)({self.lo} + {i} * {_WORD} + __builtin_ctzll({m})); "
                f"{CELL_ID.format(var)}{body} }}")


def walked_filter(gen, fd) -> bool:
    """Whether the body of the rule function ``fd`` is ``[c for c in cells(b) if cond]``
    where cond holds exactly on the cells whose top item has a value (``TopWalks``'s
    exact plan): its list is the bits of the index, walked as cheaply as a kept list
    is read (kernel_epoch.py, ``called_again``, keeps none of its values)."""
    body = fd.body
    return (body.node == "Comprehension" and len(body.clauses) == 1 and body.elem.node == "Var"
            and body.elem.name == body.clauses[0].var and gen.tops._exact_plan(body) is not None)


def _joined(left, right, like):
    """``left and right``, a node of the IR made as ``like`` is (an ``and``), for a
    test of its form alone (never written: its parts are the program's)."""
    return like.model_copy(update={"left": left, "right": right})


def _run_ray(comp):
    """The ray of ``count(y for y in until(z for z in RAY if not P(z)) if P(y))``, the
    same test P both times, the ray's start and steps ``_plain``; else None."""
    if len(comp.clauses) != 1 or comp.cond is None:
        return None
    cl = comp.clauses[0]
    u = cl.iter
    if not (u.node == "Aggregate" and u.func == "until" and len(u.comp.clauses) == 1):
        return None
    stop, ray = u.comp.cond, u.comp.clauses[0].iter
    if stop is None or not (stop.node == "UnOp" and stop.op == "not") or ray.node != "Ray" \
            or not _same_test(comp.cond, cl.var, stop.operand, u.comp.clauses[0].var) \
            or not all(_plain(x) for x in (ray.start, *(a.value for a in ray.steps))):
        return None
    return ray


def _same_test(p, pv: str, q, qv: str) -> bool:
    """Whether ``p`` tests its name ``pv`` as ``q`` tests ``qv``: the same expression but
    for that name, bound again in neither."""
    for e, v in ((p, pv), (q, qv)):
        if any(getattr(n, "var", None) == v for n in ir.walk(e)):
            return False
    return ir.show(p).replace(f"(Var name={pv})", "(Var name=$)") == ir.show(q).replace(f"(Var name={qv})", "(Var name=$)")


def _plain(e) -> bool:
    """A name or a whole number, or its negation: read again at no cost, failing nowhere."""
    if e.node == "UnOp" and e.op == "-":
        e = e.operand
    return e.node in ("Var", "IntLit")


def _consecutive(of: dict) -> tuple[int, int, int] | None:
    """Where an attribute's values (``of``: each its slot and an item) are the numbers
    a..b in order in consecutive slots: (a, how many, the first slot); else None."""
    values = list(of)
    if not values or any(type(v) is not int for v in values):
        return None
    a, k = values[0], of[values[0]][0]
    if not -(1 << 62) < a < (1 << 62) or any(v != a + i or of[v][0] != k + i for i, v in enumerate(values)):
        return None
    return a, len(values), k


def _exact(plan) -> bool:
    """Whether the loop's condition holds exactly on the cells walked (its ``TopValue``
    exact, no conjunct left after it): not tested again, a count of them the bits set."""
    return plan[3].exact and len(plan[4]) == 1


def _held(w: str, n: int) -> str:
    """The C++ of how many cells the loop's ``n`` words (prefix ``w``) hold."""
    return " + ".join(f"bits_set({w}_r[{k}] & {w}_m[{k}])" for k in range(n)) or "0"
