"""The static conditions of loops over a board's cells (a part of codegen.ExprCompiler,
its methods on the compiler's state): the cells that a condition's static conjuncts let
through, read from a table made once per program or kept by values from before the
loop. The core decides which conjuncts are static and what the tables hold
(core/cells.py, ``cells_filter`` and ``cells_given``, as for the kernel); this module
prints them (StaticCells._core_cells) and reads nothing of the text it writes."""
from __future__ import annotations

from ..play import inplace
from .codegen_base import _COMP_MIN, CompilerPart, Env
from .codegen_lines import plain


class StaticCells(CompilerPart):
    """ExprCompiler's methods for the static conditions of loops over a board's cells."""

    def _core_cells(self, w, comp, inner, it: str):
        """The cells a loop of one clause over a board's cells walks where the core finds
        the static part of its condition (core/cells.py, ``cells_filter``, as the
        kernel's), and the text of the conjuncts left (None: nothing left), compiled in
        place of the condition; None where the core finds none (or the condition holds
        a loop). ``it``: what the loop walks (the name of the board's cells, or the
        core's cells are not what it walks)."""
        if len(comp.clauses) != 1 or self.avail is None or self._looped(comp.cond):
            return None
        cl = comp.clauses[0]
        f = self.t.facts.cells_filter(cl, comp.cond)
        found = f if f is not None else self.t.facts.cells_given(cl, comp.cond)
        board = f"BOARD_{found.board}" if found is not None else ""
        if found is None or it != board or not self.t.ns.get(board):
            return None
        it = self._core_walk(f, board, inner) if f is not None else self._core_given(found, cl.var, board, inner)
        return it, self._core_rest(found.rest, inner)

    def _core_given(self, g, var: str, board: str, inner) -> str:
        """What a loop walks whose static conjuncts read values from before the loop
        (core/cells.py, ``cells_given``): a table of the cells they let through by those
        values, filled as they come (``_kept_cells``; its function runs the conjuncts'
        own code over the board's cells, the values as parameters ``k_0``, ``k_1``...:
        a name given by its name, another value in its place)."""
        env = Env({var}, subst={n.name: f"k_{i}" for i, n in enumerate(g.given) if n.node == "Var"})
        # (nothing computed once in the table's code, which is not this code)
        saved, self.avail, wrote = self.avail, None, self.wrote_r
        pre, self.pre = self.pre, {**self.pre, **{id(n): f"k_{i}" for i, n in enumerate(g.given) if n.node != "Var"}}
        try:
            plan = [self.expr(p, env) for p in g.preds]
        finally:
            self.avail, self.pre, self.wrote_r = saved, pre, wrote
        name = self._kept_table(board, f"v_{var}", plan, len(g.given))
        args = "".join(f"{self._apart(self.expr, n, inner)}, " for n in g.given)
        return self._gives(f"_kept_cells(R, {name}, ({args}), {name}F)")

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
            known = self.static_tables[key] = f"{kind}_{len(self.static_tables) + 1}"
            self.t.ns[known] = value
        return known

    def _kept_table(self, board: str, var: str, plan: list[str], given: int) -> str:
        """The name of the table (a dict: the values given -> the cells, see _core_given)
        of the cells that the conjuncts' texts ``plan`` let through, and of the function that
        makes an entry (``NAME`` + ``F``): a program's, by its text, as _core_table's."""
        params = "".join(f", k_{i}" for i in range(given))
        cond = " and ".join(f"({plain(text)})" for text in plan)  # (its own code: read from R)
        src = f"def _kept_(R{params}):\n    return tuple([{var} for {var} in {board} if {cond}])\n"
        known = self.static_tables.get((board, src))
        if known is not None:
            return known
        name = f"KC_{len(self.static_tables) + 1}"
        scope: dict = {}
        exec(inplace.compile_marked(src, "<kept cells>", "exec"), self.t.ns, scope)  # noqa: S102 - generated from the checked IR
        self.t.ns[name], self.t.ns[name + "F"] = {}, scope["_kept_"]
        self.static_tables[(board, src)] = name
        return name

    def _long(self, comp) -> bool:
        """Whether a list comprehension of one clause with no statement inside is
        written as a Python comprehension rather than a ``for`` loop that appends: where
        its iterable is known to be long (a big board's cells). A comprehension costs a
        function's call (Python 3.11) and makes the names it reads from the code around
        it slower there (cells): a short list is made faster by a loop."""
        size = self._fixed_size(comp.clauses[0].iter)
        return size is not None and size > _COMP_MIN
