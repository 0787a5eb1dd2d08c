"""The static conditions of loops over a board's cells (a part of codegen.ExprCompiler,
its methods on the compiler's state): the cells that a condition's static conjuncts let
through, read from a table made once per program or kept by values from before the
loop. The core decides which conjuncts are static (core/cells.py, as for the kernel:
StaticCells._core_cells); where it finds none, the wider class this module still finds
on the text the compiler writes (``cell(...)`` look-ups, names, values computed
before the loop: see StaticCells._static_cells). A call of a function that reads
nothing of the state, given the cell and values from before the loop, is the core's
(core/cells.py, ``cells_given``; core/pure.py)."""
from __future__ import annotations

import ast
import copy
import re

from .codegen_base import _COMP_MIN, CompilerPart, Env

# ------------------------------------------------------------ static conditions of cells
# what the static part of a loop's condition over a board's cells may read (see
# ExprCompiler._static_cells): the tables of the cells' coordinates and names, of the
# relations and of cell(...) look-ups, made before the fast code; pure helpers
_STATIC_TABLES = ("C_", "REL_", "RELSET_", "CELLAT_")
_STATIC_CALLS = {"_mod", "_div", "_mul", "abs", "min", "max", "len"}
_STATIC_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Not, ast.USub, ast.UAdd,
               ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot)
# a value bound before a loop, read by the keyed conjunct (see _keyed)
_BEFORE = re.compile(r"v_\w+|w\d+_\w+|s_\d+|once_\d+|lazy_\d+")
_ONCE = re.compile(r"once_\d+")
_LAZY = re.compile(r"lazy_\d+")
# a condition that may have a static conjunct reads one of those tables, or is a constant
_STATIC_HINT = re.compile(r"\b(?:" + "|".join(_STATIC_TABLES) + r"|CELL_NAME\b|True\b|False\b)")


def _conjuncts(cond: str) -> list | None:
    """The operands of the top-level ``and`` of a condition's text (one line), in
    order (ast nodes), or None."""
    if "\n" in cond:
        return None
    try:
        tree = ast.parse(cond, mode="eval")
    except SyntaxError:
        return None
    out = []

    def walk(n) -> None:
        if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.And):
            for v in n.values:
                walk(v)
        else:
            out.append(n)
    walk(tree.body)
    return out


def _pure_text(n, names: set[str], before: str | None) -> bool:
    """Whether the generated text ``n`` (an ast node) reads only ``names``, constants,
    the static tables and pure helpers (no state, no rule function, no work budget), and
    binds only ``once_N`` names (of ``names``). ``before``: a loop's variable; then
    ``n`` may read, instead of ``names``, values bound before the loop (not the
    variable's), a local (``L['x']``) and ``R.active`` or ``R.n_players``, and binds nothing."""
    rule = _PURE_RULES.get(type(n))
    if rule is not None:
        return rule(n, names, before)
    if isinstance(n, (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare)):
        ops = [n.op] if not isinstance(n, ast.Compare) else n.ops
        if not all(isinstance(op, _STATIC_OPS) for op in ops):
            return False
    elif not isinstance(n, (ast.IfExp, ast.Tuple, ast.List)):
        return False
    return all(_pure_text(k, names, before) for k in ast.iter_child_nodes(n)
               if not isinstance(k, (ast.expr_context, ast.operator, ast.unaryop, ast.boolop, ast.cmpop)))


def _pure_name(n: ast.Name, names: set[str], before: str | None) -> bool:
    if before is None:
        return n.id in names
    return n.id not in names and n.id != before and _BEFORE.fullmatch(n.id) is not None


def _pure_subscript(n: ast.Subscript, names: set[str], before: str | None) -> bool:
    v = n.value
    if not isinstance(v, ast.Name):
        return False
    if v.id == "L":
        return before is not None and isinstance(n.slice, ast.Constant)
    return (v.id.startswith(_STATIC_TABLES) or v.id == "CELL_NAME") and _pure_text(n.slice, names, before)


def _pure_call(n: ast.Call, names: set[str], before: str | None) -> bool:
    f = n.func
    called = (isinstance(f, ast.Name) and f.id in _STATIC_CALLS) or (
        isinstance(f, ast.Attribute) and f.attr == "get" and isinstance(f.value, ast.Name)
        and f.value.id.startswith("CELLAT_"))
    return called and not n.keywords and all(
        not isinstance(a, ast.Starred) and _pure_text(a, names, before) for a in n.args)


_PURE_RULES = {
    ast.Constant: lambda n, names, before: isinstance(n.value, (int, str, type(None))),
    ast.Name: _pure_name,
    ast.Subscript: _pure_subscript,
    ast.Call: _pure_call,
    ast.Attribute: lambda n, names, before: (before is not None and isinstance(n.value, ast.Name)
                                             and n.value.id == "R" and n.attr in ("active", "n_players")),
    ast.NamedExpr: lambda n, names, before: (before is None and _ONCE.fullmatch(n.target.id) is not None
                                             and _pure_text(n.value, names, before)),
}


def _given_conjunct(n, var: str, names: set[str], first: int):
    """A conjunct that reads the loop's variable ``var`` only through the static tables
    and pure helpers (see _pure_text), and values that do not depend on it: ones read
    before the loop (names bound before it, a local, the active player) and what pure
    helpers compute from them, a value kept lazily for the loop's turns included
    (``(lazy_N if lazy_N is not _NOT_YET else (lazy_N := VALUE))``: VALUE). (The
    conjunct's text with those values written ``k_<first>``, ``k_<first + 1>``..., their
    texts), or None. ``names``: the names bound in the static part, the conjunct's own
    included (never a value from before the loop). The cells it lets through are the
    same whenever the values are: the loop walks a table of them by the values."""
    given: list[str] = []

    class Values(ast.NodeTransformer):
        def visit(self, node):
            if isinstance(node, ast.IfExp) and isinstance(node.orelse, ast.NamedExpr) \
                    and isinstance(node.body, ast.Name) and _LAZY.fullmatch(node.body.id) \
                    and node.orelse.target.id == node.body.id:
                node = node.orelse.value  # (computed before the loop instead)
            if isinstance(node, ast.expr) and not isinstance(node, ast.Constant) \
                    and not any(isinstance(x, ast.Name) and x.id == var for x in ast.walk(node)) \
                    and _pure_text(node, names | {var}, var):
                given.append(ast.unparse(node))
                return ast.Name(f"k_{first + len(given) - 1}", ast.Load())
            return self.generic_visit(node)
    node = Values().visit(copy.deepcopy(n))
    if not given or not any(isinstance(x, ast.Name) and x.id == var for x in ast.walk(node)):
        return None
    ks = {f"k_{i}" for i in range(first, first + len(given))}
    if not _pure_text(node, names | ks | {var}, None):
        return None
    return ast.unparse(node), given


def _keyed(n, var: str, names: set[str]):
    """``static == value`` (or ``value == static``), the static side reading the loop's
    variable ``var``, the value what was bound before the loop: (static, value), or None."""
    if not isinstance(n, ast.Compare) or len(n.ops) != 1 or not isinstance(n.ops[0], ast.Eq):
        return None
    for static, value in ((n.left, n.comparators[0]), (n.comparators[0], n.left)):
        reads = {x.id for x in ast.walk(static) if isinstance(x, ast.Name)}
        if var in reads and _pure_text(static, names | {var}, None) and _pure_text(value, names | {var}, var):
            return static, value
    return None



class StaticCells(CompilerPart):
    """ExprCompiler's methods for the static conditions of loops over a board's cells."""

    def _core_cells(self, w, comp, inner, head: str):
        """The cells a loop of one clause over a board's cells walks where the core finds
        the static part of its condition (core/cells.py, ``cells_filter``, as the
        kernel's), and the text of the conjuncts left (None: nothing left), compiled in
        place of the condition; None where the core finds none (or the condition holds
        a loop). ``head``: the loop's ``for`` line."""
        if len(comp.clauses) != 1 or self.avail is None or self._looped(comp.cond):
            return None
        cl = comp.clauses[0]
        f = self.t.facts.cells_filter(cl, comp.cond)
        found = f if f is not None else self.t.facts.cells_given(cl, comp.cond)
        board = f"BOARD_{found.board}" if found is not None else ""
        if found is None or not head.endswith(f" in {board}:") or not self.t.ns.get(board):
            return None
        it = self._core_walk(f, board, inner) if f is not None else self._core_given(found, cl.var, board, inner)
        return it, self._core_rest(found.rest, inner)

    def _core_given(self, g, var: str, board: str, inner) -> str:
        """What a loop walks whose static conjuncts read values from before the loop
        (core/cells.py, ``cells_given``): a table of the cells they let through by those
        values, filled as they come (``_kept_cells``; its function runs the conjuncts'
        own code over the board's cells, the values as parameters ``k_0``, ``k_1``...)."""
        env = Env({var}, subst={n.name: f"k_{i}" for i, n in enumerate(g.given)})
        saved, self.avail = self.avail, None   # (nothing computed once in the table's code)
        try:
            plan = [("if", self.expr(p, env)) for p in g.preds]
        finally:
            self.avail = saved
        name = self._kept_table(board, f"v_{var}", plan, len(g.given))
        args = "".join(f"{self._apart(self.expr, n, inner)}, " for n in g.given)
        return f"_kept_cells(R, {name}, ({args}), {name}F)"

    def _core_walk(self, f, board: str, inner) -> str:
        """What the loop walks: a table of the cells the static conjuncts of ``f`` let
        through, by the value of its keyed conjunct (``IX_N.get(value, ())``, the value
        computed before the loop), or by the seat of the player they read
        (``ST_N[player]``), or the cells themselves (``PRE_N``, ``()`` for none)."""
        if f.by_seat is not None:
            name = self._core_table("ST", board, tuple(tuple(r) for r in f.by_seat))
            return f"{name}[{self._apart(self.expr, f.seat_of, inner)}]"
        if f.key is None or f.key[1].node == "IntLit":  # (by a number: those cells)
            cells = f.passing if f.key is None else [z for z, k in zip(f.passing, f.keys) if k == f.key[1].value]
            return self._core_table("PRE", board, tuple(cells)) if cells else "()"  # (none: walks none)
        by: dict = {}
        for z, k in zip(f.passing, f.keys):
            by.setdefault(k, []).append(z)
        name = self._core_table("IX", board, {k: tuple(v) for k, v in by.items()})
        return f"{name}.get({self._apart(self.expr, f.key[1], inner)}, ())"

    def _core_rest(self, rest: list, inner) -> str | None:
        """The text of the conjuncts left to test per cell, in order (as ``_test``
        compiles ``a and b``: what the first computes serves the next), or None."""
        texts = []
        for i, part in enumerate(rest):
            self.cdepth += i > 0  # (a conjunct after the first may not run)
            text, yes, _ = self._test(part, inner)
            texts.append(text)
            self.avail = dict(yes)
        self.cdepth -= max(len(rest) - 1, 0)
        if len(texts) > 1:
            return " and ".join(f"({t})" for t in texts)
        return texts[0] if texts else None

    def _core_table(self, kind: str, board: str, value) -> str:
        """The name of a table of cells the core found (see _core_cells), made once per
        program by its content."""
        key = (board, kind, repr(value))
        known = self.static_tables.get(key)
        if known is None:
            name = f"{kind}_{len(self.static_tables) + 1}"
            self.t.ns[name] = value
            known = self.static_tables[key] = name, True
        return known[0]

    def _static_cells(self, cl, var: str, head: str, cond: str, later: list[str]):
        """The cells a loop over a board's cells walks (``for var in cells(b) if cond``)
        when the condition's first conjuncts read only static facts of the cell (its
        coordinates, relations between cells, constants: see _pure_text): a tuple of the
        cells they let through, or, where one of them is ``static == value`` (the value
        read before the loop: a name, a coordinate of another cell...), a table of those
        cells by the static side (``IX_N.get(value, ())``); and the rest of the
        condition (None: nothing left). The tables are made now, by running the
        conjuncts' own text over the board's cells in order; where that fails for a cell
        (an error the rules may make), nothing is hoisted: the loop fails as it did. The
        value is read once, and only where the loop would read it at least once (a cell
        gets to its conjunct). The work budget counts the board's cells as before (the
        lines before the loop are left alone). None where this does not apply."""
        board = self._static_board(cl, head, cond)
        if board is None:
            return None
        parts = _conjuncts(cond)
        if parts is None:
            return None
        text = cond.encode()  # (ast's columns count bytes)

        def segment(node) -> str:
            return text[node.col_offset:node.end_col_offset].decode()
        plan, key, bound, given = self._static_plan(parts, var, segment)
        if not plan:
            return None
        rest = [segment(node) for node in parts[len(plan):]]
        # a name bound in the static part (``once_N := ...``) must not be read after it
        if bound and any(re.search(rf"\b{n}\b", t) for n in bound for t in rest + later):
            return None
        if given is not None:  # a table by the values given, filled as they come
            name = self._kept_table(board, var, plan, len(given))
            args = "".join(f"{g}, " for g in given)
            return (f"_kept_cells(R, {name}, ({args}), {name}F)",
                    " and ".join(f"({t})" for t in rest) if rest else None)
        table = self._static_table(board, self.t.ns.get(board), var, plan)
        if table is None:
            return None
        name, reached = table
        if key is not None:
            it = f"{name}.get({key}, ())" if reached else "()"
        else:
            it = name
        return it, (" and ".join(f"({t})" for t in rest) if rest else None)

    def _static_board(self, cl, head: str, cond: str) -> str | None:
        """The name of the board's cells that a loop's clause walks (``cells(b)``) where
        its condition may have a static conjunct (see _static_cells), else None."""
        table = self.t.facts.table_list(cl.iter)
        if table is None or table[0] != "cells":
            return None
        board = f"BOARD_{table[1]}"
        if not head.endswith(f" in {board}:") or not self.t.ns.get(board):
            return None
        if not _STATIC_HINT.search(cond):
            return None
        return board

    def _static_plan(self, parts: list, var: str, segment):
        """The static conjuncts at the start of a condition (see _static_cells), each
        ("if"|"key"|"given", text); the value of the keyed one (or None), the names
        bound in them, and the values given from before the loop read by the static
        conjuncts (see _given_conjunct), or None."""
        plan: list[tuple[str, str]] = []
        key, bound, given = None, set(), None
        for node in parts:
            names = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
            if _pure_text(node, {var} | bound | names, None):
                plan.append(("if", segment(node)))
            elif key is None and given is None and (split := _keyed(node, var, bound | names)) is not None:
                plan.append(("key", segment(split[0])))
                key = segment(split[1])
            elif key is None and (by := _given_conjunct(node, var, bound | names, len(given or ()))) is not None:
                plan.append(("given", by[0]))
                given = (given or []) + by[1]
            else:
                break
            bound |= names
        return plan, key, bound, given

    def _kept_table(self, board: str, var: str, plan: list, given: int) -> str:
        """The name of the table (a dict: the values given -> the cells, see _core_given)
        of the cells that ``plan``'s conjuncts let through, and of the function that
        makes an entry (``NAME`` + ``F``): a program's, by its text, as _static_table."""
        params = "".join(f", k_{i}" for i in range(given))
        cond = " and ".join(f"({text})" for _, text in plan)
        src = f"def _kept_(R{params}):\n    return tuple([{var} for {var} in {board} if {cond}])\n"
        known = self.static_tables.get((board, src))
        if known is not None:
            return known[0]
        name = f"KC_{len(self.static_tables) + 1}"
        scope: dict = {}
        exec(compile(src, "<kept cells>", "exec"), self.t.ns, scope)  # noqa: S102 - generated from the checked IR
        self.t.ns[name], self.t.ns[name + "F"] = {}, scope["_kept_"]
        self.static_tables[(board, src)] = name, True
        return name

    def _static_table(self, board: str, cells: list, var: str, plan: list):
        """The name of the table of the cells that the static conjuncts of ``plan`` let
        through (see _static_cells), made now and kept in the program's namespace under
        a number of this program (the same text, the same name, wherever it is compiled:
        native code is kept by its text), and whether a cell got to the keyed conjunct;
        None where running the conjuncts fails."""
        # per cell: None before the keyed conjunct, else (its static side, whether all hold)
        lines, miss = [f"def _static_({var}):"], "None"
        for what, text in plan:
            if what == "if":
                lines.append(f"    if not ({text}): return {miss}")
            else:
                lines.append(f"    key_ = ({text})")
                miss = "(key_, False)"
        keyed = miss != "None"
        lines.append(f"    return {'(key_, True)' if keyed else '(True, True)'}")
        src = "\n".join(lines)
        known = self.static_tables.get((board, src))
        if known is not None:
            return known
        scope: dict = {}
        try:
            exec(compile(src, "<static cells>", "exec"), self.t.ns, scope)  # noqa: S102 - generated from the checked IR
            fn = scope["_static_"]
            found: dict = {}
            reached = False
            for c in cells:
                got = fn(c)
                if got is not None:
                    reached = True
                    cells_of = found.setdefault(got[0], [])  # (a key Python cannot hash fails here)
                    if got[1]:
                        cells_of.append(c)
        except Exception:  # noqa: BLE001 - a rule's error: the loop stays as it was
            return None
        if keyed:
            value = {k: tuple(v) for k, v in found.items()}
            name = f"IX_{len(self.static_tables) + 1}"
        else:
            value = tuple(found.get(True, ()))
            name = f"PRE_{len(self.static_tables) + 1}"
        self.t.ns[name] = value
        self.static_tables[(board, src)] = name, reached
        return name, reached

    def _long(self, comp) -> bool:
        """Whether a list comprehension of one clause with no statement inside is
        written as a Python comprehension rather than a ``for`` loop that appends: where
        its iterable is known to be long (a big board's cells). A comprehension costs a
        function's call (Python 3.11) and makes the names it reads from the code around
        it slower there (cells): a short list is made faster by a loop."""
        size = self._fixed_size(comp.clauses[0].iter)
        return size is not None and size > _COMP_MIN
