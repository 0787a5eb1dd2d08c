"""The checker's part for private values held by locals (``PrivateFlow``, a base of
``check.Checker``).

A variable declared ``owner`` or ``hidden`` is seen by its owner only, or by nobody.
A local that takes its value (``let x = limit(p)``, ``for v in secret_list``, ``best p
in players by limit(p)``, ``x = x + limit(p)``) carries it: a message that reads the
local shows it to every seat just as reading the variable would (an error,
``check/private-value``), and a search bot's sample of the game (``determinize``) must
not keep what the local holds. So too a die rolled or a value picked at random into a
local (and the locals computed from it) that a decision follows before the procedure
shows it (a message reads it, or a public variable or ``active`` takes it), in the
order the statements are written. The locals that may hold a
private value are recorded per procedure with their types (``Checked.private_locals``;
those holding a random step, ``Checked.unshown_random``: a front end tells the random
steps of a game that hides nothing, ``views.chance_seen``, so they are private only in a
game that hides something).
Values flow through what a statement computes, not through which branch runs (a rule
may do public things where a hidden value allows: that is the game's)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import ast as ir
from .check_options import ANY

if TYPE_CHECKING:
    from .check import Checked
    from .types import T

RANDOM = "$random "   # the source of a local given by a random step: RANDOM + its name


class PrivateFlow:
    """Which locals of the procedure being checked carry a private value."""

    if TYPE_CHECKING:  # (the Checker's)
        c: Checked
        proc_name: str
        proc_locals: dict[str, T] | None

        def _private_read(self, e, seen: set) -> str | None: ...
        def _seats_start(self) -> None: ...
        def _aliases_enter(self) -> None: ...
        def _aliases_leave(self) -> None: ...
        def _value_seats(self, name: str, exprs) -> set: ...
        def _loop_seats(self, name: str, values: list, body, var: str | None = None) -> set: ...
        seats: dict[str, set]

    # (set by _private_calls, before any procedure is checked) per procedure, its
    # parameters a call may give a private value or a roll, each -> that source; the
    # procedures that may return one, each -> that source
    private_params: dict[str, dict[str, str]]
    private_results: dict[str, str]
    carried: dict[str, str]        # a local -> the private variable or random step it holds
    unshown: dict[str, dict[str, T]]   # a random step -> the locals holding it, their types
    shown: set[str]                # the random steps the procedure has shown so far
    crossed: set[str]              # the random steps a decision followed, not shown then

    def _carry_start(self) -> None:
        self.carried, self.unshown, self.shown, self.crossed = {}, {}, set(), set()
        self._seats_start()
        for name, source in self.private_params.get(self.proc_name, {}).items():
            # (a roll given as an argument: a random step of this procedure's own)
            self._hold(name, RANDOM + f"({name})" if source.startswith(RANDOM) else source)

    def _private_calls(self, decls) -> None:
        """Which parameters of a procedure a call may give a private value or a roll,
        and which procedures may return one (``let x = call peek()``), before the
        procedures are checked (a caller may come before or after its procedure): each
        body read as a whole, whatever the order of its statements, until nothing more
        is found. (A roll shown before the call is taken as unknown all the same.)"""
        self.private_params = {}
        self.private_results = {}
        names = {"SetupDecl": "setup", "TurnDecl": "turn", "AtEndDecl": "at end"}
        bodies = [(d.name if d.node == "ProcedureDecl" else names[d.node], d.body)
                  for d in decls if d.node in ("ProcedureDecl", *names)]
        grown = True
        while grown:
            grown = False
            for name, body in bodies:
                grown = self._passes_private(name, body) or grown

    def _passes_private(self, name: str, body) -> bool:
        """Reads one body for ``_private_calls``: True if it found something new."""
        held = self._held_in(body, dict(self.private_params.get(name, {})), rolls=True)
        found = False
        for n in ir.walk(body):
            kind = getattr(n, "node", "")
            proc = self.c.procedures.get(n.proc) if kind in ("CallProc", "CallResult") else None
            for prm, arg in zip(proc.params if proc else [], n.args if proc else []):
                source = _first(self._held_sources(arg, held))
                params = self.private_params.setdefault(n.proc, {})
                if source is not None and prm.name not in params:
                    params[prm.name], found = source, True
            if kind == "Return" and n.value is not None and name not in self.private_results:
                source = _first(self._held_sources(n.value, held))
                if source is not None:
                    self.private_results[name], found = source, True
        return found

    def _held_in(self, body, held: dict[str, str], rolls: bool = False) -> dict[str, str]:
        """The locals a body may set (at any depth, in any order) from a private value
        (``rolls``: or a random step), given those in ``held``: each -> the private
        variable (or the random step)."""
        results = self.private_results
        sets = [b for n in ir.walk(body) for b in _binding(n, rolls, results)]
        grown = True
        while grown:
            grown = False
            for name, exprs in sets:
                source = exprs if isinstance(exprs, str) \
                    else _first(s for e in exprs for s in self._held_sources(e, held))
                if source is not None and (name not in held or (held[name].startswith(RANDOM)
                                           and not source.startswith(RANDOM))):
                    held[name], grown = source, True
        return held

    def _carry_result(self, s) -> None:
        """``let x = call peek()``: ``x`` holds what the procedure returns."""
        if s.player is not None or s.var not in (self.proc_locals or {}):
            return
        source = self.private_results.get(s.proc)
        kept = None if s.new else self.carried.get(s.var)
        if source is not None and source.startswith(RANDOM) and kept and not kept.startswith(RANDOM):
            return   # (``m = call roll_die()``: a private variable ``m`` held may stay)
        if source is not None:   # (a roll returned: a random step of this procedure's own)
            self._hold(s.var, RANDOM + f"call {s.proc}" if source.startswith(RANDOM) else source)
        elif s.new:
            self.carried.pop(s.var, None)

    def _carry_end(self) -> None:
        """The locals holding a random step that a decision followed unshown are private."""
        for source in self.crossed:
            self.c.unshown_random.setdefault(self.proc_name, {}).update(self.unshown[source])

    def _crossing(self) -> None:
        """A decision: the random steps not shown so far stay unknown to it."""
        if self.proc_locals is not None:
            self.crossed.update(s for s in self.unshown if s not in self.shown)

    def _carry(self, name: str, exprs, join: bool = False) -> None:
        """``name`` now holds a value computed from ``exprs``: it carries the private
        variable or the random step one of them reads, if any; else (``join`` false: a
        new binding) nothing. With ``join``, what it held may stay: a private variable it
        held stays carried when the new value holds only a random step."""
        found = [s for e in exprs if e is not None for s in self._sources(e)]
        # (the seats it held stay only with the private variable it held: a new one
        # replaces them, and those of ``name`` read in ``exprs`` are followed)
        kept = set() if not join or any(not s.startswith(RANDOM) for s in found) \
            else self.seats.get(name, set())
        if join and name in self.carried:
            found.append(self.carried[name])
        source = _first(found)
        if source is not None:
            seats = None if source.startswith(RANDOM) else self._value_seats(name, exprs) | kept
            self._hold(name, source, seats or None)
        elif not join:
            self.carried.pop(name, None)
            self.seats.pop(name, None)

    def _carry_kept(self, names) -> dict[str, tuple[str, set]]:
        """Of ``names``, those holding a private variable now: each -> it and its seats
        (for ``_carry_merge`` after a block that may not run)."""
        carried, seats = getattr(self, "carried", {}), getattr(self, "seats", {})
        self._aliases_enter()
        return {n: (carried[n], set(seats.get(n, {ANY}))) for n in names
                if n in carried and not carried[n].startswith(RANDOM)}

    def _carry_merge(self, kept: dict[str, tuple[str, set]]) -> None:
        """After a block that may not run (a branch, a loop's body), or may stop part way:
        a local that held a private variable before it still may (``let m = 1`` or ``roll
        m`` in a branch binds the same local again only where the branch runs); the seats
        known to be the same player are those of its start."""
        self._aliases_leave()
        for name, (source, seats) in kept.items():
            if self.carried.get(name, RANDOM).startswith(RANDOM):
                self.carried[name] = source
                self.seats[name] = set(seats)
            else:
                self.seats[name] = self.seats.get(name, set()) | seats

    def _carry_loop(self, body, var: str | None = None) -> None:
        """A loop's body runs again after itself: a local it sets (at any depth) from a
        private variable holds that value from the loop's start on (``log "{x}"`` before
        ``x = secret(p)`` in the body shows it on the next round), of the seats it held
        before and those the body's values give it (``_loop_seats``; ``var``: the
        variable of a ``for``, which each round sets again)."""
        env = self.proc_locals
        if env is None:
            return
        held = self._held_in(body, {n: s for n, s in self.carried.items() if not s.startswith(RANDOM)})
        sets = [b for n in ir.walk(body) for b in _binding(n, False, self.private_results)]
        for name, source in held.items():
            if name not in env or source.startswith(RANDOM):
                continue
            # (the seats of what the body sets it to, as the next round reads it)
            seats = self._loop_seats(name, [e for n, e in sets if n == name], body, var)
            if self.carried.get(name) != source:
                self._hold(name, source, seats)
            else:
                self.seats[name] = self.seats.get(name, set()) | seats

    def _held_sources(self, e, held: dict[str, str], within: dict | None = None) -> list[str]:
        """The private variable ``e`` reads (directly or through the functions it calls),
        then the sources of the locals of ``held`` it reads (only those ``within``, if
        given)."""
        read = self._private_read(e, set())
        out = [held[n.name] for n in ir.walk(e) if getattr(n, "node", "") == "Var"
               and n.name in held and (within is None or n.name in within)]
        return [read, *out] if read else out

    def _random_step(self, names) -> None:
        """``roll a, b from ...`` or ``pick x at random from ...`` binds ``names``."""
        for name in names:
            self._hold(name, RANDOM + name)

    def _hold(self, name: str, source: str, seats: set | None = None) -> None:
        """``name`` holds ``source`` (a private variable: of the ``seats`` given, else of
        a seat not known, ``check_options.ANY``)."""
        self.carried[name] = source
        if not source.startswith(RANDOM):
            self.seats[name] = {ANY} if seats is None else seats
        t = (self.proc_locals or {}).get(name)
        if t is None:
            return
        if source.startswith(RANDOM):
            self.unshown.setdefault(source, {})[name] = t
        else:
            self.c.private_locals.setdefault(self.proc_name, {})[name] = t

    def _shows(self, e) -> None:
        """``e`` is shown to every seat (a message, a public variable): the random steps
        it reads are no secret."""
        if self.proc_locals is None:
            return
        self.shown.update(s for s in self._sources(e) if s.startswith(RANDOM))

    def _sources(self, e) -> list[str]:
        return self._held_sources(e, getattr(self, "carried", {}), self.proc_locals or {})

    def private_source(self, e) -> str | None:
        """The private variable ``e`` reads, directly, through the functions it calls, or
        through a local that holds its value."""
        return next((s for s in self._sources(e) if not s.startswith(RANDOM)), None)


def _binding(n, rolls: bool = False, results: dict | None = None) -> list[tuple[str, list | str]]:
    """The local a statement sets and the expressions it computes the value from (or the
    source it takes: with ``rolls``, a random step; a procedure's private ``results``)."""
    match getattr(n, "node", ""):
        case "Roll" if rolls:
            return [(v, RANDOM + v) for v in n.vars]
        case "PickRandom" if rolls:
            return [(n.var, RANDOM + n.var)]
        case "CallResult" if results and n.player is None and n.proc in results:
            return [(n.var, results[n.proc])]
        case "Let":
            return [(n.var, [n.value])]
        case "Assign" if n.player is None:
            return [(n.var, [n.value])]
        case "IndexAssign" if n.target.node == "Var":
            return [(n.target.name, [n.value])]
        case "For":
            return [(n.var, [n.iter])]
        case "Best":
            return [(n.var, [n.options, *n.keys])]
    return []


def _first(sources) -> str | None:
    """The first private variable of ``sources``, else the first random step, else None."""
    sources = list(sources)
    return next((s for s in sources if not s.startswith(RANDOM)), None) or next(iter(sources), None)
