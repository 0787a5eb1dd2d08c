"""The reference meaning of each instruction of the core (``core.ops``): one small
function per kind, which makes the instruction's Python form, ``fn(R, L) -> next pc``
(``R``: the Runtime, ``L``: the frame's locals), from the instruction and the compiled
functions of its expressions (``Builder``). The straightforward Python engine runs these;
the fast code (fused.py) writes runs of them as one function and the kernel (kernel.py)
prints each as C++, both playing exactly as they do.

A function here does what its instruction's docstring says, through the Runtime's methods
(``ask``, ``set_g``, ``move``, ``below``...), and nothing else: what is checked, in what
order, with which error. (A closure reads the values it needs from its cells, not from the
instruction: it runs millions of times.)
"""
from __future__ import annotations

from dataclasses import dataclass

from ...dsl import ast as ir
from ..play import helpers
from ..play.helpers import BudgetError, RuleError, over_budget
from ..play.picks import enough
from ..play.runtime import Runtime
from . import ops

_UNSET = object()


# the errors of the meaning (the fast code, fused.py, raises them too)
def nothing_to_move():
    raise RuleError("'move' of nothing (the item is none)",
                    hint="an empty zone's top or an empty cell is none: test it "
                         "first, e.g. 'if occupied(z) { move top(z) to ... }'")


def attr_of_nothing(var: str, attr: str, name: str, test: str):
    raise RuleError(f"'{var}.{attr} = ...' on nothing ({name} is none)",
                    hint=f"test it first: 'if {test} != none {{ ... }}'")


def steps_over(limit: int):
    raise over_budget("steps", f"more than {limit} statements in one move")


def loop_over(where: str, limit: int):
    raise BudgetError(f"the loop at {where} ran more than its max of {limit} times")


@dataclass
class LogTemplate:
    """A message of the program (``Program.logs``, by id): its key, its parts (text, or a
    value: (its function, its type code, its expression's text)), its place."""
    key: str
    parts: list       # str or (python fn, type code, expression text)
    span: ir.Span

    @property
    def types(self) -> list[str]:
        return [p[1] for p in self.parts if isinstance(p, tuple)]


class Builder:
    """Compiles the expressions of one procedure's instructions (``prog._fn``, in the
    procedure's local names ``env``) and keeps, by instruction index, the functions made
    for each (``made``: what fused.py writes in place)."""

    def __init__(self, prog, env):
        self.prog, self.env = prog, env
        self.made: dict[int, dict] = {}
        self.pc = 0

    def fn(self, e, key: str | None = None):
        f = self.prog._fn(e, self.env)
        if key is not None:
            self.made.setdefault(self.pc, {})[key] = f
        return f

    def value(self, e, bound: int | None, key: str | None = None):
        """A value to store: an integer is checked against the integer budget ``bound``."""
        f = self.fn(e)
        if bound is not None:
            f = _bounded(f, bound)
        if key is not None:
            self.made.setdefault(self.pc, {})[key] = f
        return f

    def chooser(self, e):
        return self.fn(e) if e is not None else (lambda R, L: R.active)

    def face(self, ins):
        """A function of (R, L) giving the facing mask: -1, or who sees the item."""
        if ins.face == ops.AS_PLACE:
            return lambda R, L: -1
        if ins.face == ops.NOBODY:
            return lambda R, L: 0
        who = self.fn(ins.seen_by)
        return lambda R, L: 1 << who(R, L)

    def code(self, instructions: list) -> list:
        """The Python form of each instruction, in order."""
        out = []
        for pc, ins in enumerate(instructions):
            self.pc = pc
            f = MEANING[type(ins)](ins, pc + 1, self)
            out.append(chancy(f) if ins.chancy else f)
        return out


def _bounded(f, limit: int):
    def checked(R, L):
        v = f(R, L)
        if v.__class__ is int and not -limit <= v <= limit:
            raise helpers._too_big(v, limit)
        return v
    checked.raw, checked.limit = f, limit  # type: ignore[attr-defined] # (fused.py writes the check in place)
    return checked


def chancy(ins):
    """A random instruction (ops.Draw): in explicit chance mode it may stop at a chance
    step and run again from its start with the outcomes set so far (so it changes nothing
    before its last draw); when it completes, those outcomes are spent."""
    def run(R, L):
        if R.chance is None:
            return ins(R, L)
        R.chance_begin()
        nxt = ins(R, L)
        R.chance_end()
        return nxt
    run.chancy = True
    return run


def values(fns: list, R, L) -> list:
    """``[f(R, L) for f in fns]``, in a loop: an instruction with that comprehension
    would build the cells of its closure (R and L) at every run."""
    out = []
    for f in fns:
        out.append(f(R, L))
    return out


MEANING: dict = {}


def meaning(cls):
    def register(make):
        MEANING[cls] = make
        return make
    return register


# ------------------------------------------------------------ control flow
@meaning(ops.Jump)
def _jump(ins: ops.Jump, nxt: int, b: Builder):
    target = ins.target
    return lambda R, L: target


@meaning(ops.Branch)
def _branch(ins: ops.Branch, nxt: int, b: Builder):
    cond, target = b.fn(ins.cond, "cond"), ins.target
    return lambda R, L: nxt if cond(R, L) else target


@meaning(ops.ForInit)
def _for_init(ins: ops.ForInit, nxt: int, b: Builder):
    it, ix, src = ins.it, ins.ix, b.fn(ins.items, "items")

    def run(R, L):
        L[it] = list(src(R, L))
        L[ix] = 0
        return nxt
    return run


@meaning(ops.ForStep)
def _for_step(ins: ops.ForStep, nxt: int, b: Builder):
    it, ix, var, end = ins.it, ins.ix, ins.var, ins.end

    def run(R, L):
        i = L[ix]
        if i >= len(L[it]):
            return end
        L[var] = L[it][i]
        L[ix] = i + 1
        return nxt
    return run


@meaning(ops.WhileInit)
def _while_init(ins: ops.WhileInit, nxt: int, b: Builder):
    cnt = ins.count

    def run(R, L):
        L[cnt] = 0
        return nxt
    return run


@meaning(ops.WhileTest)
def _while_test(ins: ops.WhileTest, nxt: int, b: Builder):
    cnt, cond, limit, where, end = ins.count, b.fn(ins.cond, "cond"), ins.limit, ins.where, ins.end

    def run(R, L):
        if not cond(R, L):
            return end
        L[cnt] += 1
        if L[cnt] > limit:
            loop_over(where, limit)
        return nxt
    return run


@meaning(ops.Return)
def _return(ins: ops.Return, nxt: int, b: Builder):
    end = ins.end
    if ins.value is None:
        return lambda R, L: end
    f = b.value(ins.value, ins.bound)

    def run(R, L):
        v = f(R, L)
        slot = L.get("$ret")
        if slot is not None:
            R.save_frame(len(R.stack) - 2)  # the caller's frame, for undo
            R.stack[-2]["L"][slot] = v
        return end
    return run


@meaning(ops.EndGame)
def _end_game(ins: ops.EndGame, nxt: int, b: Builder):
    def run(R, L):
        R.end_requested = True
        return nxt
    return run


# ------------------------------------------------------------ variables
@meaning(ops.SetLocal)
def _set_local(ins: ops.SetLocal, nxt: int, b: Builder):
    f, var = b.value(ins.value, ins.bound, "value"), ins.var

    def run(R, L):
        L[var] = f(R, L)
        return nxt
    return run


@meaning(ops.SetGlobal)
def _set_global(ins: ops.SetGlobal, nxt: int, b: Builder):
    f, var = b.value(ins.value, ins.bound, "value"), ins.var

    def run(R, L):
        R.set_var(var, f(R, L))
        return nxt
    return run


@meaning(ops.SetPlayerVar)
def _set_player_var(ins: ops.SetPlayerVar, nxt: int, b: Builder):
    f, var = b.value(ins.value, ins.bound, "value"), ins.var
    pf = b.fn(ins.player, "player")

    def run(R, L):
        v = f(R, L)  # (the value first, as Python's 'a[i] = v' did)
        R.set_pvar(var, pf(R, L), v)
        return nxt
    return run


@meaning(ops.SetActive)
def _set_active(ins: ops.SetActive, nxt: int, b: Builder):
    f = b.value(ins.value, None)

    def run(R, L):
        R.set_active(f(R, L))
        return nxt
    return run


@meaning(ops.SetItemVar)
def _set_item_var(ins: ops.SetItemVar, nxt: int, b: Builder):
    holder = b.fn(ins.holder, "holder")
    value, attr, where = b.value(ins.value, ins.bound, "value"), ins.attr, ins.where

    def run(R, L):
        item = holder(R, L)
        if item is None:
            attr_of_nothing(*where)
        R.set_ivar(attr, item, value(R, L))
        return nxt
    return run


@meaning(ops.StoreResult)
def _store_result(ins: ops.StoreResult, nxt: int, b: Builder):
    slot, var = ins.slot, ins.var
    if ins.player is not None:
        pf = b.fn(ins.player)

        def to_player(R, L):
            v = L.pop(slot)
            R.set_pvar(var, pf(R, L), v)
            return nxt
        return to_player
    if ins.active:
        def to_active(R, L):
            R.set_active(L.pop(slot))
            return nxt
        return to_active

    def to_global(R, L):
        R.set_var(var, L.pop(slot))
        return nxt
    return to_global


# ------------------------------------------------------------ decisions
def _nothing_to_choose(var: str):
    """The error of a 'choose' (without an option alone) whose list is empty."""
    raise RuleError(f"'choose {var}' has nothing to choose from",
                    hint="offer the choice only when there is something to choose: "
                         "'if size(options) > 0 { choose ... }', or add a move "
                         "without an object: 'as \"play\" or \"pass\"'")


def _offered(ins: ops.Ask, b: Builder):
    """The verbs without an object a ``choose`` offers, where some are offered under a
    condition (``or "draw" when c``): a function of (R, L) giving ``alone`` as
    ``Runtime.ask`` takes it (the verb, or the tuple of several, or None: none
    offered), the conditions evaluated in order, before the options."""
    several = isinstance(ins.alone, tuple)
    verbs = ins.alone if several else (ins.alone,)
    conds = [None if c is None else b.fn(c) for c in ins.when]

    def offered(R, L):
        out = tuple(v for v, c in zip(verbs, conds) if c is None or c(R, L))
        if not out:
            return None
        return out if several else out[0]
    return offered


def _ask_when(ins: ops.Ask, nxt: int, b: Builder):
    """``Ask`` with verbs offered under a condition (see _offered)."""
    opts, who, var, offered = b.fn(ins.options), b.chooser(ins.chooser), ins.var, _offered(ins, b)

    def run(R, L):
        alone = offered(R, L)
        options = list(opts(R, L))
        if not options and alone is None:
            _nothing_to_choose(var)
        R.ask(who(R, L), var, options, ins.type, ins.verb, alone, ins.said)
        return nxt
    return run


@meaning(ops.Ask)
def _ask(ins: ops.Ask, nxt: int, b: Builder):
    if ins.when:
        return _ask_when(ins, nxt, b)
    opts, who, var = b.fn(ins.options), b.chooser(ins.chooser), ins.var
    tc, verb, alone, said = ins.type, ins.verb, ins.alone, ins.said
    if alone is not None and ins.order == "cells":
        def in_order(R, L):
            Runtime.ask_in_order(R, who(R, L), var, list(opts(R, L)), tc, verb, alone, said)
            return nxt
        return in_order
    if alone is None and said is None and ins.order != "any":
        # options ordered as plain numbers are (most often) asked for in fewer steps
        ask = Runtime.ask_in_order if ins.order == "cells" else Runtime.ask_plain

        def plain(R, L):
            options = list(opts(R, L))
            if not options:
                _nothing_to_choose(var)
            ask(R, who(R, L), var, options, tc, verb)
            return nxt
        return plain

    def run(R, L):
        options = list(opts(R, L))
        if not options and alone is None:
            _nothing_to_choose(var)
        R.ask(who(R, L), var, options, tc, verb, alone, said)
        return nxt
    return run


@meaning(ops.AskEach)
def _ask_each(ins: ops.AskEach, nxt: int, b: Builder):
    opts, seats_of = b.fn(ins.options), b.fn(ins.seats)
    var, each, verb, tc, picks = ins.var, ins.each, ins.verb, ins.type, ins.picks
    said = f"choose {'' if picks is None else f'{picks} '}{var}({each}) ... for each {each} in ..."

    def run(R, L):
        seats = list(seats_of(R, L))
        if not seats:
            raise RuleError(f"'{said}' has no seat to ask",
                            hint="ask only when some seat chooses: 'if size(seats) > 0 { ... }'")
        before = L.get(each, _UNSET)
        choices = []
        for seat in seats:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < R.n_players:
                raise RuleError(f"'{said}': {seat!r} is not a seat")
            if any(seat == other for other, _ in choices):
                raise RuleError(f"'{said}': seat {seat + 1} is listed twice",
                                hint="each seat chooses once: list it once")
            L[each] = seat
            options = list(opts(R, L))
            if not options:
                raise RuleError(f"'{said}': seat {seat + 1} has nothing to choose from",
                                hint="ask only the seats that have something to choose")
            choices.append((seat, options))
        if before is _UNSET:
            del L[each]
        else:
            L[each] = before
        R.ask_each(var, choices, tc, verb, picks)
        if picks is not None:
            enough(R.pending)
        return nxt
    return run


@meaning(ops.AskSubset)
def _ask_subset(ins: ops.AskSubset, nxt: int, b: Builder):
    opts, who, var = b.fn(ins.options), b.chooser(ins.chooser), ins.var
    where = b.fn(ins.where) if ins.where is not None else None
    tc, verb = ins.type, ins.verb

    def run(R, L):
        subsets = helpers._subsets(list(opts(R, L)))
        if where is not None:
            ok = []
            for sub in subsets:
                L[var] = sub
                if where(R, L):
                    ok.append(sub)
            subsets = ok
        if not subsets:
            raise RuleError(f"'choose {var} subset' has no subset that satisfies its condition",
                            hint="check first that some subset satisfies the 'where' condition")
        R.ask(who(R, L), var, subsets, tc, verb)
        return nxt
    return run


@meaning(ops.Best)
def _best(ins: ops.Best, nxt: int, b: Builder):
    opts, keys, var = b.fn(ins.options), [b.fn(k) for k in ins.keys], ins.var
    who, tie, tc = b.chooser(ins.chooser), ins.tie, ins.type
    count = len(keys)  # (the usual one or two keys: in place)
    key1, key2 = (keys + [None, None])[:2]

    def run(R, L):
        options = list(opts(R, L))
        if not options:
            raise RuleError(f"'best {var}' has an empty list to choose from",
                            hint="check that the list is not empty first: 'if size(xs) > 0 { ... }'")
        best_key, tied = None, []
        for o in options:
            L[var] = o
            # (tuple([f(R, L) for f in keys]), without a comprehension: its closure
            # would make this function build cells at every call)
            if count == 2:
                k = (key1(R, L), key2(R, L))
            elif count == 1:
                k = (key1(R, L),)
            else:
                k = []
                for f in keys:
                    k.append(f(R, L))
                k = tuple(k)
            if best_key is None or k > best_key:
                best_key, tied = k, [o]
            elif k == best_key:
                tied.append(o)
        if len(tied) == 1 or tie == "first":
            L[var] = tied[0]
        elif tie == "random":
            L[var] = tied[R.below(len(tied), "tie", tied, tc)]
        else:
            R.ask(who(R, L), var, tied, tc, "tie")
        return nxt
    return run


# ------------------------------------------------------------ randomness
@meaning(ops.PickRandom)
def _pick_random(ins: ops.PickRandom, nxt: int, b: Builder):
    opts, var, tc = b.fn(ins.options), ins.var, ins.type

    def run(R, L):
        options = list(opts(R, L))
        if not options:
            raise RuleError(f"'pick {var} at random' has an empty list",
                            hint="check that the list is not empty first: 'if size(xs) > 0 { ... }'")
        L[var] = options[R.below(len(options), "pick", options, tc)]
        return nxt
    return run


@meaning(ops.Roll)
def _roll(ins: ops.Roll, nxt: int, b: Builder):
    faces, names = b.fn(ins.faces), ins.vars

    def run(R, L):
        sides = list(faces(R, L))
        if not sides:
            raise RuleError("'roll' of a die with no faces (its list is empty)",
                            hint="give the die faces, e.g. 'roll x from 1..6'")
        for name in names:  # one die after the other, each from its own draw
            L[name] = sides[R.below(len(sides), "roll", sides, "int")]
        return nxt
    return run


@meaning(ops.Shuffle)
def _shuffle(ins: ops.Shuffle, nxt: int, b: Builder):
    z = b.fn(ins.zone)
    return lambda R, L: (R.shuffle(z(R, L)), nxt)[1]


# ------------------------------------------------------------ items and visibility
def same_kind(prog, items: list, dest: int) -> None:
    """Raises the rule error of a move of an item to a place that holds another kind."""
    holds = prog.zones[dest].kind
    for it in items:
        if it is not None and prog.items[it].kind != holds:
            raise RuleError(f"'move' of a {prog.items[it].kind} to {prog.zones[dest].key}, which holds "
                            f"{holds}", hint="the 'zone' parameters of the rule were given places of "
                                             "different kinds: write their types as 'zone of Kind'")


@meaning(ops.Move)
def _move(ins: ops.Move, nxt: int, b: Builder):
    what, to = b.fn(ins.what, "what"), b.fn(ins.to, "to")
    many, unsure, plain = ins.many, ins.unsure, ins.face == ops.AS_PLACE
    facing = b.face(ins)

    def run(R, L):
        dest, w = to(R, L), what(R, L)
        if unsure:
            same_kind(R.prog, list(w) if many else [w], dest)
        f = -1 if plain else facing(R, L)
        if many:
            if plain:
                R.move_all(w, dest)
            else:
                for it in list(w):
                    R.move(it, dest, f)
        else:
            if w is None:
                nothing_to_move()
            R.move(w, dest, f)
        return nxt
    return run


@meaning(ops.Flip)
def _flip(ins: ops.Flip, nxt: int, b: Builder):
    what, facing, many = b.fn(ins.what), b.face(ins), ins.many

    def run(R, L):
        w, f = what(R, L), facing(R, L)
        for it in (list(w) if many else [w]):
            if it is None:
                raise RuleError("'flip' of nothing (the item is none)",
                                hint="an empty zone's top or an empty cell is none: test it "
                                     "first, e.g. 'if occupied(z) { flip top(z) ... }'")
            R.turn_over(it, f)
        return nxt
    return run


@meaning(ops.Reveal)
def _reveal(ins: ops.Reveal, nxt: int, b: Builder):
    z = b.fn(ins.zone)
    return lambda R, L: (R.reveal(z(R, L)), nxt)[1]


@meaning(ops.RevealTo)
def _reveal_to(ins: ops.RevealTo, nxt: int, b: Builder):
    what, seat, many = b.fn(ins.what), b.fn(ins.seat), ins.many

    def run(R, L):
        w, p = what(R, L), seat(R, L)
        if p is None:
            raise RuleError("'reveal ... to' nobody (the player is none)",
                            hint="give a player, e.g. 'reveal top(z) to active'")
        for it in (list(w) if many else [w]):
            if it is None:
                raise RuleError("'reveal ... to' of nothing (the item is none)",
                                hint="an empty zone's top or an empty cell is none: test it "
                                     "first, e.g. 'if occupied(z) { reveal top(z) to p }'")
            _show_to(R, it, p)
        return nxt
    return run


def _show_to(R, item: int, p: int) -> None:
    """``reveal item to p``: p comes to know the item, where it lies, besides the seats
    that know it now; it then lies face down for those seats (a mask), until it moves or
    is flipped. Nothing changes when p knows it already."""
    if R.sees_item(item, p):
        return
    mask = 1 << p
    for q in R.players:
        if R.sees_item(item, q):
            mask |= 1 << q
    R.turn_over(item, mask)


@meaning(ops.Deal)
def _deal(ins: ops.Deal, nxt: int, b: Builder):
    src, base, count = b.fn(ins.source), ins.base, ins.count

    def run(R, L):
        R.deal(src(R, L), base, count)
        return nxt
    return run


@meaning(ops.Fill)
def _fill(ins: ops.Fill, nxt: int, b: Builder):
    src, cells, board = b.fn(ins.source), ins.cells, ins.board

    def run(R, L):
        z = src(R, L)
        for cell in cells:
            if not R.zones[cell]:
                if not R.zones[z]:
                    raise RuleError(f"'fill {board}' ran out of items",
                                    hint="the zone it fills from must hold an item for every "
                                         "empty cell")
                R.move(R.zones[z][-1], cell)
        return nxt
    return run


# ------------------------------------------------------------ items made, removed, permuted
@meaning(ops.Make)
def _make(ins: ops.Make, nxt: int, b: Builder):
    to, facing, plain = b.fn(ins.to, "to"), b.face(ins), ins.face == ops.AS_PLACE
    supply, kind = ins.supply, ins.kind
    sets = [(name, b.value(e, bound)) for name, e, bound in ins.sets]

    def run(R, L):
        dest = to(R, L)
        if dest is None:
            raise RuleError(f"'make {kind}' at none (the place is none)",
                            hint="a cell found by a rule may be none: test it first, e.g. "
                                 "'if c != none { make ... at c }'")
        got = values([f for _, f in sets], R, L)
        pool = R.zones[supply]
        if not pool:
            key = R.prog.zones[supply].key
            raise RuleError(f"'make {kind}': its supply '{key}' is empty (every item of it is in play)",
                            hint=f"give the supply more items ('supply {key}: N of {kind}(...)'), or "
                                 f"'remove' items that leave play")
        item = pool[-1]
        R.move(item, dest, -1 if plain else facing(R, L))
        for (name, _), v in zip(sets, got):
            R.set_ivar(name, item, v)
        return nxt
    return run


@meaning(ops.Unmake)
def _unmake(ins: ops.Unmake, nxt: int, b: Builder):
    what, many, supply = b.fn(ins.what, "what"), ins.many, ins.supply

    def run(R, L):
        w = what(R, L)
        for it in (list(w) if many else [w]):
            if it is None:
                raise RuleError("'remove' of nothing (the item is none)",
                                hint="an empty zone's top or an empty cell is none: test it "
                                     "first, e.g. 'if occupied(c) { remove top(c) }'")
            R.move(it, supply)
        return nxt
    return run


def permutation(R, froms: list, tos: list) -> None:
    """Raises the rule error of a ``permute`` whose two lists of places do not pair each
    place with one other."""
    name = lambda z: R.prog.zones[z].key  # noqa: E731
    if len(froms) != len(tos):
        raise RuleError(f"'permute' of {len(froms)} places to {len(tos)} places",
                        hint="give one place to go to for each place moved: two lists of the same length")
    for places, what in ((froms, "moved from"), (tos, "moved to")):
        seen: set = set()
        for z in places:
            if z is None:
                raise RuleError(f"'permute': a place {what} is none",
                                hint="a list of places may not hold none: leave it out of both lists")
            if z in seen:
                raise RuleError(f"'permute': {name(z)} is {what} twice",
                                hint="each place may appear once in each list: two stacks would land on one place"
                                if what == "moved to" else "each place may appear once in each list")
            seen.add(z)


@meaning(ops.Permute)
def _permute(ins: ops.Permute, nxt: int, b: Builder):
    what, to = b.fn(ins.what, "what"), b.fn(ins.to, "to")

    def run(R, L):
        froms, tos = list(what(R, L)), list(to(R, L))
        permutation(R, froms, tos)
        stacks = [list(R.zones[z]) for z in froms]   # what each place holds before
        for stack, dest in zip(stacks, tos):
            for it in stack:
                R.move(it, dest, R.facing[it])
        return nxt
    return run


# ------------------------------------------------------------ messages and calls
@meaning(ops.Log)
def _log(ins: ops.Log, nxt: int, b: Builder):
    parts = [p if isinstance(p, str) else (b.fn(p[1]), p[2], p[0]) for p in ins.parts]
    log_id = len(b.prog.logs)
    b.prog.logs.append(LogTemplate(ins.key, parts, ins.span))
    fns = [x[0] for x in parts if isinstance(x, tuple)]
    b.made[b.pc] = {"log": log_id, "args": fns}

    def run(R, L):
        R.say(log_id, values(fns, R, L))
        return nxt
    return run


@meaning(ops.Call)
def _call(ins: ops.Call, nxt: int, b: Builder):
    args, name, params = [b.fn(a) for a in ins.args], ins.proc, ins.params
    if ins.slot is None:
        def run(R, L):
            R.call(name, dict(zip(params, values(args, R, L))))
            return nxt
        return run
    slot, fresh = ins.slot, ins.fresh

    def run_for_result(R, L):
        frame = dict(zip(params, values(args, R, L)))
        frame["$ret"] = slot
        if fresh:
            L[slot] = None
        R.call(name, frame)
        return nxt
    return run_for_result
