"""What a saved frame of a procedure can hold, and the check of a state's stack against it.

A procedure stops (and a state is saved) only where the runtime suspends it: just after
an instruction that asked a player (the frame on top, a decision pending), just after a
call of a procedure (every frame under the top: the callee's frame is the one above
it), or, in explicit chance mode, at a random statement waiting for its outcome (the
frame on top: the statement runs again once the outcome is set). ``core.lower.shape``
derives each such place from a procedure's instructions (a ``Shape`` per procedure: its
``Stop``s: after an instruction that ``asks``, after a ``Call``, at a ``chancy`` one),
with the locals a frame standing there always holds: those in the checker's scope at
its statement (dsl/check.py, ``Checked.scopes``) and the hidden slots live there (the
list and index of the loops around it, their ``while`` counters, a call's result slot).
Every type a local takes comes from the checker too (``Checked.locals``). Nothing here
lists the statements of the language: a new statement that asks, calls or draws is
covered as the checker and the core's instructions describe it.

``check`` refuses a stack that no game of the program reaches: a frame that is not the
phase's procedure at the bottom, one that is not at such a place, a caller that is not
at a call of the frame above it, a local the procedure does not have, a local missing
where the procedure always holds it, a value of the wrong type, a loop counter or index
out of the range the runtime keeps it in. Each as a ``StateError`` located by its JSON
path (``stack/1/L/$n5``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .staterror import INT_LIMIT, StateError, _bad, _kind

# the procedure at the bottom of the stack in each phase (runtime._next_phase)
ROOTS = {"setup": "setup", "play": "turn", "ending": "at end"}
_WAITS = {"decide": "just after a decision", "call": "just after a call of a procedure",
          "chance": "at a random statement"}


@dataclass(frozen=True)
class Stop:
    """A place where a frame can stand in a saved state."""

    kind: str                   # "decide", "call" or "chance" (see the module's text)
    live: frozenset             # the locals a frame standing here always holds
    var: str | None = None      # decide: the variable the decision sets
    said: str | None = None     # decide: the local set to the verb of the move ('choose x, how')
    callee: str | None = None   # call: the procedure called
    slot: str | None = None     # call: the caller's local the callee returns into ('$ret')


@dataclass
class Shape:
    """The frames of one procedure: every type each local takes (type codes), its hidden
    slots (name -> (form, argument): "items" of a loop variable, "index" into a loop's
    list, "count" up to a loop's max, "result" of a call), and its stops, by (pc, kind)."""

    name: str
    types: dict[str, tuple[str, ...]]
    hidden: dict[str, tuple] = field(default_factory=dict)
    stops: dict[tuple[int, str], Stop] = field(default_factory=dict)

    def stop(self, pc: int, kind: str, scope, live: list, **info) -> None:
        self.stops[(pc, kind)] = Stop(kind, frozenset(scope) | {name for name, _, _ in live}, **info)

    def slot(self, name: str, form: str, arg=None) -> tuple:
        self.hidden[name] = (form, arg)
        return (name, form, arg)


def check(m, s: dict) -> None:
    """Raises StateError unless every frame of ``s["stack"]`` is one a game of the program
    reaches (``m``: the state's ``state._Meaning``, for its values' checks)."""
    stack = s["stack"]
    if not stack:
        return
    root = ROOTS.get(s["phase"])
    if stack[0]["p"] != root:
        raise _bad("stack/0/p", f"in the {s['phase']} phase the stack starts with "
                                f"'{root}', not '{stack[0]['p']}'")
    procs, top, caller = m.prog.procs, len(stack) - 1, None
    pend = s["pending"]
    for k, frame in enumerate(stack):
        shape = procs[frame["p"]].frame
        kind = "call" if k < top else "decide" if pend is not None else "chance"
        stop = shape.stops.get((frame["pc"], kind))
        if stop is None:
            raise _bad(f"stack/{k}/pc", _misplaced(shape, frame["pc"], kind, k == top))
        if kind == "call" and stop.callee != stack[k + 1]["p"]:
            raise _bad(f"stack/{k + 1}/p", f"the frame under it called '{stop.callee}', "
                                           f"not '{stack[k + 1]['p']}'")
        if kind == "decide" and stop.var != pend["var"]:
            raise _bad("pending/var", f"'{frame['p']}' stands after the decision of "
                                      f"'{stop.var}', not of '{pend['var']}'")
        if kind == "decide" and stop.said != pend.get("said"):
            raise _bad("pending/said", f"the decision of '{stop.var}' sets the verb into "
                                       f"{stop.said and repr(stop.said)}, not {pend.get('said')!r}")
        _locals(m, shape, stop, frame["L"], f"stack/{k}/L", caller)
        caller = stop
    if pend is not None:
        _options(m, procs[stack[-1]["p"]].frame, pend)


def _options(m, shape: Shape, pend: dict) -> None:
    """The options of the pending decision are values of the variable they go into: a
    local of the procedure, or for a simultaneous decision a per-player variable."""
    var = pend["var"]
    if "seats" in pend:
        t = m.prog.checked.vars[var].type
        code = m.code_of(t.item if "picks" in pend else t)
        for j, options in enumerate(pend["each"]):
            for k, o in enumerate(options):
                m.value(o, code, f"pending/each/{j}/{k}")
        return
    types = shape.types.get(var)
    if types is None:
        raise _bad("pending", f"the decision of '{var}' is made by several seats at once "
                              f"(it has 'seats')")
    for k, o in enumerate(pend["options"]):
        fits(m, o, types, f"pending/options/{k}")


def _misplaced(shape: Shape, pc: int, kind: str, on_top: bool) -> str:
    places = sorted(p for p, kd in shape.stops if kd == kind)
    where = "the frame on top" if on_top else "a frame under another"
    if not places:
        return f"{where} stands {_WAITS[kind]}, and '{shape.name}' has no such place"
    shown = ", ".join(str(p) for p in places[:8]) + (", ..." if len(places) > 8 else "")
    return (f"{where} stands {_WAITS[kind]}: in '{shape.name}' at instruction {shown}, "
            f"not {pc}")


def _locals(m, shape: Shape, stop: Stop, L: dict, where: str, caller: Stop | None) -> None:
    for name in sorted(stop.live):
        if name not in L:
            raise _bad(where, f"the local '{name}' is missing ('{shape.name}' always holds "
                              f"it there)")
    for name, v in L.items():
        at = f"{where}/{name}"
        if name == "$ret":
            slot = caller.slot if caller is not None else None
            if v != slot:
                raise _bad(at, "the procedure was not called for a result" if slot is None
                           else f"the caller's result goes to '{slot}', not {v!r}")
        elif name in shape.types:
            fits(m, v, shape.types[name], at)
        elif name in shape.hidden:
            _hidden(m, shape, stop, L, name, v, at)
        else:
            raise _bad(at, f"'{shape.name}' has no local '{name}'")
    if caller is not None and caller.slot is not None and "$ret" not in L:
        raise _bad(where, "the local '$ret' is missing (the caller waits for a result)")


def _hidden(m, shape: Shape, stop: Stop, L: dict, name: str, v, at: str) -> None:
    """A slot the compiler keeps: a loop's list, its index into it (1 or more inside the
    loop), a 'while' counter (1 to its max inside the loop), a call's result (none)."""
    form, arg = shape.hidden[name]
    live = name in stop.live
    if form == "items":
        if not isinstance(v, list):
            raise _bad(at, f"a list is needed, not {_kind(v)}")
        for k, x in enumerate(v):
            fits(m, x, shape.types.get(arg, ("?",)), f"{at}/{k}")
        return
    if form == "result":
        if not live or v is not None:
            raise _bad(at, "a call's result slot is none, and only while the call runs")
        return
    if type(v) is not int:
        raise _bad(at, f"an integer is needed, not {_kind(v)}")
    items = L.get(arg) if form == "index" else None
    most = (len(items) if isinstance(items, list) else INT_LIMIT) if form == "index" else arg
    least = 1 if live else 0
    if not least <= v <= most:
        what = "a loop's index" if form == "index" else "a loop's count"
        raise _bad(at, f"{what} is {least} to {most} here, not {v}")


def fits(m, v, types: tuple, where: str) -> None:
    """``v`` is a value of one of the types (type codes); else the error for the first."""
    first = None
    for code in types:
        try:
            m.value(v, code, where)
            return
        except StateError as e:
            first = first or e
    if first is not None:
        raise first
