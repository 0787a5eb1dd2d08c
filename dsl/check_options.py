"""The checker's part for the options of a decision (``PrivateOptions``, a base of
``check.Checker``): a seat is shown the options it decides among, so they may not read
a value that only another seat (or nobody) may see (``check/private-options``).

A variable declared ``owner`` is private to the seat it is read for: ``limit(p)``
belongs to ``p``. The options of a decision may read ``limit(D)`` where ``D`` is the
seat that decides, written alike (``choose x from 1..limit(active)`` asked of
``active``; ``choose bid(p) from 0..purse(p) for each p in ...``), never another seat's,
nor a variable declared ``hidden``. The options are the list, the conditions of the
verbs (``or "pass" when ...``), a subset's ``where``, and the keys of a ``best ... tie
choose`` (the tied elements are its options); the values are followed into the
functions they call (a parameter stands for its argument) and through locals, as
``check/private-value`` follows them. A local keeps the seat its value belongs to
(``let m = limit(active)``, then a choice by ``active``) when that seat is a name or
``players[i]``, and while no statement between may set it again: a statement that sets
``active`` or the local naming the seat, a call of a procedure (for a seat that is not
a local of the caller), and a loop that may do one of these make the local's value
anybody's, as is a procedure's parameter or result holding a private value. The seat
that decides may be written another way that holds the same player: ``let me =
active`` or ``active = p`` make the two names one seat (an alias) until a statement
sets either again, as above, and in the block that made it only. A value read only
through a count or a test (``size(...)``, ``when
limit(q) > 3``) is read all the same: the options still tell something of it. Items in
hidden zones are not variables: the options name them by their place (language.md,
9.4), and what a filter on them tells is left to ``meeple test``'s leak check."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import ast as ir, errors

if TYPE_CHECKING:
    from .check import Checked
    from .types import T

# a seat a private value belongs to: (its expression written out, the names it reads),
# or ANY: nobody's (``hidden``), or a seat not known when the options are read
Seat = tuple[str, frozenset]
ANY: Seat = ("*", frozenset())
# what a procedure call may change: every name that is not a local of the caller
CALLED = "$called"


class PrivateOptions:
    """The seats whose private values each local may hold, and the check of a
    decision's options."""

    if TYPE_CHECKING:  # (the Checker's)
        c: Checked
        d: errors.Diagnostics
        proc_locals: dict[str, T] | None
        carried: dict[str, str]

        def _private_read(self, e, seen: set) -> str | None: ...

    seats: dict[str, set[Seat]]    # a local -> the seats whose private values it may hold
    aliases: set[tuple[Seat, Seat]]   # pairs of seats known to be the same player now
    alias_stack: list[set[tuple[Seat, Seat]]]   # the aliases at the start of each block

    # ------------------------------------------------------------ the seats of values
    def _seat_reads(self, e, subst: dict | None = None, stack: tuple = ()) -> list[tuple[str, Seat, object]]:
        """Each private variable ``e`` reads (also in the functions it calls): its name,
        its seat, and the node of ``e`` that reads it. ``subst``: in a function's body,
        each parameter -> the seat expression its argument is (written out, names)."""
        bound = {n.var for n in ir.walk(e) if getattr(n, "node", "") == "ForClause"}
        out: list[tuple[str, Seat, object]] = []
        for n in ir.walk(e):
            kind = getattr(n, "node", "")
            name: str = n.name if kind == "Var" else n.func if kind == "Call" else ""
            v = self.c.vars.get(name) if name else None
            if v is not None and v.visibility is not None:
                seat = ANY
                if v.visibility == "owner" and kind == "Call" and len(n.args) == 1:
                    seat = _seat(n.args[0], subst, bound)
                out.append((name, seat, n))
                continue
            fn = self.c.functions.get(name) if kind == "Call" else None
            found = self._function_reads(name) if fn is not None else None
            if fn is None or found is None:
                continue
            if name in stack:     # (a function calling itself: its arguments are not followed)
                out.append((found, ANY, n))
                continue
            inner = {p.name: _seat(a, subst, bound) for p, a in zip(fn.params, n.args)}
            out.extend((r, s, n) for r, s, _ in self._seat_reads(fn.body, inner, (*stack, name)))
        return out

    def _function_reads(self, name: str) -> str | None:
        """The first private variable the function ``name`` reads (also through the
        functions it calls), once per function."""
        known = self.__dict__.setdefault("_reads_of", {})
        if name not in known:
            known[name] = self._private_read(self.c.functions[name].body, {name})
        return known[name]

    def _local_seats(self, e, other: tuple = ()) -> list[tuple[str, set[Seat], object]]:
        """The locals ``e`` reads that hold a private value: each name, the seats of its
        value, the node reading it (not the names ``other`` binds in ``e``, nor a name
        where a comprehension around it binds it: ``m`` of ``[m for m in 1..3]``)."""
        env = self.proc_locals or {}
        carried = getattr(self, "carried", {})
        seats = getattr(self, "seats", {})
        return [(n.name, seats.get(n.name, {ANY}), n) for n in _free_vars(e, frozenset(other))
                if n.name in env and n.name in carried and not carried[n.name].startswith("$")]

    def _value_seats(self, name: str, exprs) -> set[Seat]:
        """The seats whose private values ``name``, set from ``exprs``, holds: a seat
        read in the statement that sets ``name`` (``best q in players by limit(q)``) is
        anybody's, and so is one written other than as a simple seat (``active``, a
        local, ``players[1]``), which later statements may not keep track of."""
        out: set[Seat] = set()
        for e in exprs:
            if e is None:
                continue
            out.update(s for _, s, _ in self._seat_reads(e))
            for _, held, _ in self._local_seats(e):
                out |= held
        return {s if s is ANY or (name not in s[1] and _simple(s)) else ANY for s in out}

    def _loop_seats(self, name: str, values: list, body, var: str | None = None) -> set[Seat]:
        """The seats whose private values ``name`` holds when a loop's ``body`` runs
        again, set in a round before from ``values`` (each a list of expressions, or the
        source a procedure's result gives: anybody's): a seat the loop may set again
        (``for q in players { ... m = limit(q) }``) is anybody's, and so is a value read
        from a local the loop sets (its seats are those of a round before). ``var``:
        the variable of a ``for``, set again each round."""
        written = {w for n in ir.walk(body) for w in _writes(n)} | ({var} if var else set())
        env = self.proc_locals or {}
        out: set[Seat] = set()
        for exprs in values:
            if isinstance(exprs, str) or any(getattr(n, "node", "") == "Var" and n.name != name
                                             and n.name in written for e in exprs for n in ir.walk(e)):
                out.add(ANY)
            else:
                out |= self._value_seats(name, exprs)
        called = CALLED in written
        out = {ANY if s is not ANY and (s[1] & written or (called and any(m not in env for m in s[1])))
               else s for s in out}
        return out or {ANY}

    def _seats_start(self) -> None:
        self.seats, self.aliases, self.alias_stack = {}, set(), []

    def _aliases_enter(self) -> None:
        """A block starts: the aliases its statements make hold in it only."""
        if hasattr(self, "alias_stack"):
            self.alias_stack.append(set(self.aliases))

    def _aliases_leave(self) -> None:
        """A block ends (it may not have run, or run part way): the aliases of its start
        (the statement holding it dropped those any of its statements may end)."""
        if getattr(self, "alias_stack", None):
            self.aliases = self.alias_stack.pop()

    def _alias_set(self, s) -> None:
        """``let me = active``, ``active = p``: the name set and the seat it is set to are
        the same player, until a statement sets either again."""
        match getattr(s, "node", ""):
            case "Let":
                name, value = s.var, s.value
            case "Assign" if s.player is None:
                name, value = s.var, s.value
            case _:
                return
        seat = _seat(value, None, set())
        if seat is ANY or name in seat[1] or not _simple(seat):
            return
        self.aliases.add((_seat(ir.trusted(ir.Var, span=s.span, name=name), None, set()), seat))

    def _same_seats(self, seat: Seat) -> set[Seat]:
        """``seat`` and the seats known to be the same player now."""
        out, grown = {seat}, True
        while grown:
            grown = False
            for a, b in getattr(self, "aliases", ()):
                for x, y in ((a, b), (b, a)):
                    if x in out and y not in out:
                        out.add(y)
                        grown = True
        return out

    def _seats_changed(self, s) -> None:
        """Before a statement: the locals holding the private value of a seat that the
        statement (or a statement in its blocks, a loop's body running again) may set
        again now hold anybody's."""
        if not hasattr(self, "seats"):
            return
        written = {w for n in ir.walk(s) for w in _writes(n)}
        if written:
            env = self.proc_locals or {}
            called = CALLED in written

            def changed(seat: Seat) -> bool:
                return seat is not ANY and bool(seat[1] & written or (called and any(m not in env for m in seat[1])))
            for name, held in self.seats.items():
                self.seats[name] = {ANY if changed(seat) else seat for seat in held}
            self.aliases = {(a, b) for a, b in self.aliases if not changed(a) and not changed(b)}
        self._alias_set(s)

    # ------------------------------------------------------------ a decision's options
    def _decision_options(self, s) -> None:
        """The options of the decision ``s`` read no value private to a seat other than
        the one that decides."""
        active = ir.trusted(ir.Var, span=s.span, name="active")
        own: set[Seat]
        match s.node:
            case "Choose":
                exprs, who, own = [s.options, *s.when], s.chooser or active, set()
            case "ChooseSubset":
                exprs, who, own = [s.options, s.where], s.chooser or active, set()
            case "ChooseEach":
                exprs, who = [s.options], ir.trusted(ir.Var, span=s.span, name=s.each)
                own = {_seat(s.seats.items[0], None, set())} if s.seats.node == "ListLit" \
                    and len(s.seats.items) == 1 else set()
            case "Best":
                exprs, who, own = [s.options, *s.keys], s.chooser or active, set()
            case _:
                return
        own.add(_seat(who, None, set()))
        own.discard(ANY)
        if s.node != "ChooseEach":    # (``for each p`` binds its own ``p``)
            own = {same for seat in own for same in self._same_seats(seat)}
        each = s.each if s.node == "ChooseEach" else None
        for e in exprs:
            if e is not None and self._options_read(e, who, own, each):
                return

    def _options_read(self, e, who, own: set[Seat], each: str | None) -> bool:
        """Reports the first private value of another seat that ``e``, a part of a
        decision's options, reads; True if it found one."""
        for name, seat, n in self._seat_reads(e):
            if seat not in own:
                self._private_options(n, name, None, who, seat, each is None)
                return True
        for local, held, n in self._local_seats(e, (each,) if each else ()):
            # (``for each p``: a local's seat named ``p`` is another binding of that name)
            odd = [s for s in held if s not in own or (each is not None and each in s[1])]
            if odd:
                self._private_options(n, self.carried[local], local, who,
                                      odd[0] if len(odd) == 1 else ANY, each is None)
                return True
        return False

    def _private_options(self, n, name: str, local: str | None, who, seat: Seat, by: bool) -> None:
        """The error: ``n`` reads ``name`` (through ``local``), of ``seat``, a seat other
        than ``who`` or one that the check cannot tell is ``who`` (ANY: not known, or
        more than one); ``by``: the decision may name its seat (``... by q``)."""
        known = seat is not ANY
        v = self.c.vars[name]
        decider = f"'{who.name}'" if who.node == "Var" else "the seat named after 'by'"
        via = n.func if n.node == "Call" and n.func != name else None
        held = f"'{local}', holding the value of '{name}'" if local \
            else f"'{name}' through '{via}'" if via else f"'{name}'"
        other = "of another seat" if known else "of a seat that may be another"
        written = _shown(seat) if known else None
        if written is not None and not written.startswith("players["):   # (a name, not a place)
            other = f"of '{written}', a seat that may be another"
        whose = "(declared 'hidden': no seat may see it)" if v.visibility == "hidden" \
            else f"{other} (declared 'owner': only its own seat may see it)"
        read = local or name
        hint = "let the seat the value belongs to decide, or offer what that seat may know " \
            f"(copy '{read}' into a public variable first, once it may be shown)"
        decides = who.name if who.node == "Var" else "..."
        shown = written if v.visibility == "owner" else None
        if shown is not None and by:
            # (``limit(q)`` asked of ``active``: if ``q`` is the seat meant, say so)
            also = f" (or read '{name}({decides})')" if local is None and who.node == "Var" else ""
            hint = f"if '{shown}' is the seat that decides, say so: ask it 'by {shown}'{also}; " \
                f"else {hint}"
        elif v.visibility == "owner" and not known:
            hint = f"read it in the options, for the seat that decides named as the decision " \
                f"names it ('{name}({decides})'); else {hint}"
        self.d.add(errors.Diagnostic(
            "check/private-options", n.span,
            f"the options of a decision are shown to the seat that decides ({decider}), "
            f"but they read {held} {whose}", hint, length=len(via or read)))


def _shown(seat: Seat) -> str | None:
    """A simple seat as the source writes it (``q``, ``players[1]``, ``players[i]``),
    else None."""
    text, names = seat
    if not _simple(seat):
        return None
    if text == f"Var(node='Var',name={next(iter(names))!r})" and len(names) == 1:
        return next(iter(names))
    head = "Index(node='Index',obj=Var(node='Var',name='players'),index="
    index = text[len(head):-1]
    for form in ("IntLit(node='IntLit',value=", "Var(node='Var',name="):
        if index.startswith(form) and index.endswith(")"):
            return f"players[{index[len(form):-1].strip(chr(39))}]"
    return None


def _seat(e, subst: dict | None, bound: set) -> Seat:
    """The seat expression ``e`` written out without places, and the names it reads; a
    parameter stands for its argument (``subst``); ANY if it reads a name ``bound`` by a
    comprehension (each element's own seat) or a parameter whose argument is ANY."""
    names: set = set()
    text = _written(e, subst or {}, names)
    if text is None or names & bound or any(getattr(n, "node", "") == "Var" and n.name in bound
                                            for n in ir.walk(e)):
        return ANY
    return text, frozenset(names)


def _written(e, subst: dict, names: set) -> str | None:
    """``e`` written out, its places left out (None: it reads a parameter whose argument
    is ANY); the names it reads go into ``names``."""
    if isinstance(e, list):
        items = [_written(x, subst, names) for x in e]
        return None if None in items else "[" + ",".join(str(x) for x in items) + "]"
    if not isinstance(e, ir.Node):
        return repr(e)
    kind, name = getattr(e, "node", ""), getattr(e, "name", None)
    if kind == "Var" and name in subst:
        seat = subst[name]
        if seat is ANY:
            return None
        names |= seat[1]
        return seat[0]
    if kind == "Var":
        names.add(name)
    parts = []
    for f in type(e).model_fields:
        if f != "span":
            part = _written(getattr(e, f), subst, names)
            if part is None:
                return None
            parts.append(f"{f}={part}")
    return f"{kind}(" + ",".join(parts) + ")"


def _free_vars(e, bound: frozenset) -> Iterator[ir.Var]:
    """The names ``e`` reads (``Var`` nodes) that no comprehension around them binds (a
    clause's list sees the variables of the clauses before it; the element and the
    condition, all of them), nor ``bound``."""
    if isinstance(e, (list, tuple)):
        for x in e:
            yield from _free_vars(x, bound)
        return
    if not isinstance(e, ir.Node):
        return
    if isinstance(e, ir.Var):
        if e.name not in bound:
            yield e
        return
    if isinstance(e, ir.Comprehension):
        inner = bound
        for clause in e.clauses:
            yield from _free_vars(clause.iter, inner)
            inner = inner | {clause.var}
        yield from _free_vars([e.elem, e.cond], inner)
        return
    for f in type(e).model_fields:
        if f != "span":
            yield from _free_vars(getattr(e, f), bound)


def _simple(seat: Seat) -> bool:
    """A seat a local's value may keep: a name (``active``, a local, a parameter) or a
    player by its place (``players[1]``, ``players[i]``)."""
    text, names = seat
    if len(names) == 1 and text == f"Var(node='Var',name={next(iter(names))!r})":
        return True
    return text.startswith("Index(node='Index',obj=Var(node='Var',name='players')")


def _writes(n) -> list[str]:
    """The names a statement sets (CALLED for a call of a procedure: it may set
    ``active`` and any variable)."""
    match getattr(n, "node", ""):
        case "Let" | "Assign" | "For" | "Best" | "PickRandom" | "ChooseSubset" | "ChooseEach":
            return [n.var]
        case "Choose":
            return [n.var, *(n.parts or []), *([n.said] if n.said else [])]
        case "IndexAssign":
            return [n.target.name] if n.target.node == "Var" else []
        case "Roll":
            return list(n.vars)
        case "CallResult":
            return [n.var, CALLED]
        case "CallProc":
            return [CALLED]
    return []
