"""Games played by a program's kernel (interpreter/native/kernel.py), with the Python game
behind them.

A ``KernelGame`` is a ``Game``: every public name works as on any game. While it is
*live* its state is the kernel's, and what a playout, a simulation or a search asks of
it (``over``, ``move_count``, ``apply`` of an index or of a move of its list,
``legal_moves``, ``decision``, ``result``, ``heuristic``, ``copy``) is answered there.
Anything else (its ``state``, a view, ``undo``, a notation to parse, a chance step...)
reads the Python runtime ``R`` or the moves to undo (``_history``, which a search bot's
past reads too): the game then becomes a Python game by playing again, in Python, the
moves the kernel played since it took over (``_to_python``), so that the Python game
is exactly the one the moves make, with its log, its counts of what each seat saw and
its moves to undo (not those played before a copy was made, as a Python game's copy
has none; not those an ``undo_limit`` set meanwhile forgets). A move the kernel cannot
decide (a rule error, a budget, anything the kernel stops at) is played the same way:
the moves before it again, then it, in Python, which gives its exact result or error.

A Python game (read since, resumed from a state, copied from one) goes live again at
its next ``apply``: the kernel takes over from its state (``_go_live``; the Python
runtime waits, untouched, for the moves to be played again on it).
"""
from __future__ import annotations

import random
from itertools import count, repeat

from ..play import rng
from ..play.game import Game, _copy_state, _decisions, _writer, _writers, outcomes_of
from ..play.results import _payoffs_per, _results
from ..play.runtime import Decision, IllegalMove, Move, Outcome, Runtime, _heuristic


class KernelGame(Game):
    """A game whose moves a kernel plays while nothing needs its Python runtime."""

    def __init__(self, prog, k, base):
        # (Game.__init__ runs no code here: the runtime is made when first needed)
        self.program = prog
        self._k = k                 # the kernel's state; None: the game is a Python game
        # where the kernel took over: a seed (a new game), a state, or the Python runtime
        # (which waits for the kernel's moves)
        self._base = base
        self._stay = False          # the kernel could not take over from the runtime
        self._chance = "seeded"     # the chance mode ("explicit": it stops at chance steps)
        # what the kernel played since: a move's index (a tuple (index, seat) for another
        # seat than the first to choose), a chance outcome set (("c", its candidate)) or
        # drawn (("s",))
        self._trail: list = []
        # how many of them no undo takes back (a copy's, played before it was made)
        self._unkept = 0
        self._R = None
        self._moves = None
        self._decided = None
        self._decisions = _decisions(prog)
        self._writers = _writers(prog)
        self._result = None
        self._outcomes = None       # (a chance step, its outcomes)
        self._writes = _site_writers(prog)
        self.script: list = []
        self._history: list[list] = []
        self._undo_limit = None

    @classmethod
    def start(cls, prog, seed: int, chance: str = "seeded"):
        """A new game of seed ``seed`` played by the program's kernel (in that chance
        mode), or None where the kernel cannot play its setup (Python then makes the game)."""
        k = prog._kernel.start(rng.seed_state(seed), chance == "explicit")
        if k is None:
            prog._kernel.fallbacks += 1
            return None
        game = cls(prog, k, seed)
        game._chance = chance
        return game

    @classmethod
    def adopt(cls, game: Game) -> KernelGame:
        """The Python game ``game`` (just made: no move to undo; its chance outcomes
        still to set are kept) as a game the kernel takes over at its next move."""
        out = cls(game.program, None, None)
        out._R = game.R
        out.script = game.script
        return out

    def go_live(self) -> bool:
        """Whether the kernel plays this game now, taking it over from the Python game
        where it can (see ``_go_live``)."""
        return self._k is not None or self._go_live()

    # ------------------------------------------------------------ the Python game
    @property
    def R(self):
        if self._k is not None:
            self._to_python()
        return self._R

    @R.setter
    def R(self, value):
        self._R = value

    # The moves to take back (Game's history, which undo, can_undo and a search bot's
    # past read) are the Python game's: the kernel keeps none, so while it plays, reading
    # them makes the Python game first (a list read before would lack the kernel's moves).
    @property
    def _history(self) -> list[list]:
        if self._k is not None:
            self._to_python()
        return self._hist

    @_history.setter
    def _history(self, value: list[list]) -> None:
        self._hist = value

    @property
    def undo_limit(self) -> int | None:
        return self._undo_limit

    @undo_limit.setter
    def undo_limit(self, n: int | None) -> None:
        if self._k is not None and self._trail:
            # (the kernel's moves were played under the limit before: Python keeps them
            # so, then forgets by the new one, as a Python game would have)
            self._to_python()
        Game.undo_limit.fset(self, n)

    def _forget(self) -> None:
        # (also while the kernel plays, before its first move: the moves kept from
        # before it took over are forgotten without making the Python game)
        h, limit = self._hist, self._undo_limit
        if limit is not None and len(h) > limit:
            del h[:len(h) - limit]

    @property
    def live(self) -> bool:
        """Whether the kernel plays this game now (False: it is a Python game)."""
        return self._k is not None

    def kernel_state(self) -> dict | None:
        """What the kernel holds now, in the format of ``state`` (its zones, variables,
        counters, frames and pending decision; not the log nor what each seat saw), or
        None when the game is not live: for checking a kernel against Python."""
        return None if self._k is None else self._k.export()

    def _to_python(self) -> None:
        """Makes the Python game: the base again, then the moves the kernel played."""
        self._k = None
        prog, base = self.program, self._base
        if isinstance(base, Runtime):
            self._R = base
        elif isinstance(base, int):
            self._R = Game.new(prog, prog.n, base, chance=self._chance).R
        else:
            self._R = Runtime(prog, _copy_state(base))
        trail, self._trail = self._trail, []
        unkept, self._unkept = self._unkept, 0
        self._moves = self._decided = self._result = None
        limit = self._undo_limit
        try:
            self._undo_limit = 0    # (no history at all)
            for step in trail[:unkept]:
                self._again(step)
            self._undo_limit = limit
            for step in trail[unkept:]:
                self._again(step)
        finally:
            self._undo_limit = limit

    def _again(self, step) -> None:
        """Plays again, in Python, one step of the kernel's trail."""
        if step.__class__ is int:
            Game.apply(self, step, safe=False)
        elif step[0] == "c":
            Game._resolve(self, step[1])
        elif step[0] == "s":
            Game.sample_chance(self)
        elif step[0] == "r":   # (a rollout's steps: random_moves)
            pairs = memoryview(step[1]).cast("i")
            for j in range(0, len(pairs), 2):
                if pairs[j + 1] < 0:
                    Game.sample_chance(self)
                else:
                    Game.apply(self, pairs[j], safe=False, seat=pairs[j + 1])
        else:
            Game.apply(self, step[0], safe=False, seat=step[1])

    def _go_live(self) -> bool:
        """The kernel takes over from the Python game's state where it can (a decision
        of one seat, in a game with no chance step to set, no hook, not over)."""
        R = self._R
        if self._stay or R.hook is not None or self.script:
            return False
        at_chance = R.chance is not None and R.chance["step"] is not None
        if not at_chance and (R.pending is None or "seats" in R.pending):
            return False
        k = self.program._kernel.load(R.to_state())
        if k is None:
            self._stay = True   # (what it holds is no kernel's: a face-down item...)
            return False
        self._k, self._base, self._trail, self._result = k, R, [], None
        self._chance = "seeded" if R.chance is None else "explicit"
        return True

    # ------------------------------------------------------------ what the kernel answers
    @property
    def over(self) -> bool:
        k = self._k
        if k is not None:
            return k.over()
        return self._R.phase == "over"

    @property
    def active_player(self) -> int | None:
        k = self._k
        if k is not None:
            return k.player()
        return Game.active_player.fget(self)

    @property
    def deciding(self) -> list[int]:
        k = self._k
        if k is not None:
            simul = k.simul()
            if simul is not None:
                return list(simul[1])
            who = k.player()
            return [] if who is None else [who]
        return Game.deciding.fget(self)

    @property
    def simultaneous(self) -> bool:
        k = self._k
        if k is not None:
            return k.simul() is not None
        return Game.simultaneous.fget(self)

    @property
    def work_spent(self) -> int:
        k = self._k
        if k is not None:
            return k.export()["spent"]
        return super().work_spent

    @property
    def calls_spent(self) -> int:
        k = self._k
        if k is not None:
            return k.export()["called"]
        return super().calls_spent

    # ------------------------------------------------------------ chance
    @property
    def chance_mode(self) -> str:
        return self._chance if self._k is not None else Game.chance_mode.fget(self)

    @property
    def at_chance(self) -> bool:
        k = self._k
        if k is not None:
            return k.chance() is not None
        return Game.at_chance.fget(self)

    @property
    def chance_kind(self) -> str | None:
        k = self._k
        if k is not None:
            step = k.chance()
            return None if step is None else step["kind"]
        return Game.chance_kind.fget(self)

    def chance_outcomes(self) -> list[Outcome]:
        k = self._k
        if k is not None:
            step = k.chance()
            if step is None:
                return []
            known = self._outcomes
            if known is None or known[0] is not step:   # (made once per chance step)
                known = self._outcomes = (step, outcomes_of(self.program, step))
            return list(known[1])
        return Game.chance_outcomes(self)

    def chance_weights(self) -> list[int] | None:
        """The weights of the pending chance step's outcomes, in their order (an
        outcome's probability is its weight over their sum), read from the kernel while
        it plays; None when no chance step is pending or the kernel does not play."""
        k = self._k
        step = None if k is None else k.chance()
        return None if step is None else list(step["weights"])

    def set_chance(self, index: int) -> int | None:
        """``apply_chance`` of an outcome's index, for a caller that does not read the
        Outcome (none is made while the kernel plays): who acts now, as ``acting`` says,
        where the kernel set it (None otherwise)."""
        k = self._k
        step = None if k is None or index.__class__ is not int else k.chance()
        if step is None or not 0 <= index < len(step["take"]):
            self.apply_chance(index)
            return None
        if k.resolve(step["take"][index]) is None:
            self._chance_in_python(lambda: Game.apply_chance(self, index))
            return None
        self._trail.append(("c", step["take"][index]))
        self._moves = None
        if self.script:
            self._follow_script()
            return None
        got = k.status()
        return None if got == -3 else got

    def apply_chance(self, outcome) -> Outcome:
        k = self._k
        if k is None and self._go_live():
            k = self._k
        if k is None:
            return Game.apply_chance(self, outcome)
        o = self.find_outcome(outcome)
        raw = k.chance()["take"][o.index]
        if k.resolve(raw) is None:
            return self._chance_in_python(lambda: Game.apply_chance(self, o.index))
        self._trail.append(("c", raw))
        self._moves = None
        if self.script:
            self._follow_script()
        return o

    def sample_chance(self) -> Outcome:
        k = self._k
        if k is None and self._go_live():
            k = self._k
        if k is None:
            return Game.sample_chance(self)
        step = k.chance()
        if step is None:
            raise IllegalMove("no chance step is pending")
        raw = k.sample()
        if raw is None:
            return self._chance_in_python(lambda: Game.sample_chance(self))
        self._trail.append(("s",))
        self._moves = None
        if self.script:
            self._follow_script()
        return outcomes_of(self.program, step)[step["of"][raw]]

    def _chance_in_python(self, then) -> Outcome:
        """A chance outcome the kernel could not play on from (a rule error, a budget):
        the game again in Python, then the outcome there."""
        self.program._kernel.fallbacks += 1
        self._to_python()
        return then()

    def _follow_script(self) -> None:
        if self._k is None:
            Game._follow_script(self)
            return
        while self.script and self.at_chance:
            o = self.find_outcome(self.script[0])
            self.script.pop(0)
            self.apply_chance(o.index)

    def acting(self) -> int | None:
        """Who acts now, from the kernel in one call (OpenSpiel's numbers: -4 the game is
        over, -1 a chance step, -2 a simultaneous decision, else the seat deciding), or
        None when the kernel does not play the game now."""
        k = self._k
        if k is None:
            return None
        got = k.status()
        return None if got == -3 else got

    @property
    def players(self) -> int:
        return self.program.n

    @property
    def turn_number(self) -> int:
        k = self._k
        return k.turn() if k is not None else self._R.turn

    @property
    def result(self) -> dict | None:
        k = self._k
        if k is None:
            return self._R.result
        if self._result is None:
            got = k.result()
            if got is None:
                return None
            self._result = kernel_result(self.program, got)
        return self._result

    @property
    def decision(self) -> Decision | None:
        k = self._k
        if k is None:
            return Game.decision.fget(self)
        who = k.player()
        if who is None:
            return None
        tc, verb, _alone = self.program._kernel.sites[k.site()]
        simul = k.simul()
        if simul is not None:   # (made anew at each move, as Decision.of makes it)
            key, known = (k.site(), simul), self._decided
            if known is None or known[0] != key:
                known = self._decided = (key, Decision(tc, verb, who, *simul))
            return known[1]
        key = (tc, verb, who)
        made = self._decisions.get(key)
        if made is None:
            made = self._decisions[key] = Decision(tc, verb, who, (who,), (who,), ())
        return made

    def _write(self, site: int):
        """How the moves of a decision are written (runtime._writer)."""
        return self._writes[site]

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        k = self._k
        if k is None:
            return Game.legal_moves(self, seat)
        who = k.player()
        if seat is not None and seat != who:
            if seat.__class__ is not int or seat not in self.deciding:
                return []
            # (another seat of a simultaneous decision: its list, made anew, as in Python)
            return self._moves_for(seat)
        if self._moves is None:
            self._moves = [] if who is None else self._moves_for(who)
        return self._moves

    def _moves_for(self, who: int) -> list[Move]:
        """The moves of a seat deciding now (Game._moves_of): an option naming an item the
        seat may not know is written now, by the item's place."""
        k = self._k
        site = k.site()
        options = k.options(who)
        if not self.program._kernel.items[site] or not k.hidden_any(who):
            moves = list(map(Move, count(), options, repeat(self._writes[site]), repeat(who)))
            alone = self.program._kernel.sites[site][2]
            if isinstance(alone, tuple):   # several verbs alone: written apart
                moves[:len(alone)] = [Move(i, None, t, who) for i, t in enumerate(alone)]
            return moves
        return [self._item_move(k, site, i, v, who) for i, v in enumerate(options)]

    def alone_verbs(self) -> list[str] | None:
        """The verbs of the first moves of the decision now, those without an object
        (``as "play" or "pass"``: ``["pass"]``), or None."""
        k = self._k
        if k is None:
            pend = self.R.pending
            alone = pend.get("alone") if pend is not None else None
        else:
            alone = self.program._kernel.sites[k.site()][2]
        return None if alone is None else [alone] if isinstance(alone, str) else list(alone)

    def options_hidden(self, seat: int) -> bool | None:
        """Whether a legal move of ``seat`` names an item the seat may not know (as
        ``views.item_visible`` says), from the kernel in one call; None when the kernel
        does not play the game now."""
        k = self._k
        return None if k is None or seat.__class__ is not int else k.hidden_any(seat)

    def _hidden_move(self, k, index: int, seat: int | None) -> Move:
        who = k.player() if seat is None else seat
        return self._item_move(k, k.site(), index, k.option(index, seat), who)

    def _item_move(self, k, site: int, i: int, v, who: int) -> Move:
        """A move of a decision among items (or lists of them), as Game._maker makes it."""
        tc, verb, alone = self.program._kernel.sites[site]
        if v is None and isinstance(alone, tuple):
            return Move(i, v, alone[i], who)
        items = [] if v is None else [v] if tc == "item" else [x for x in v if x is not None]
        if all(k.place(x, who) is False for x in items):
            return Move(i, v, self._writes[site], who)
        from ..play.display import value_notation, zone_notation
        prog = self.program

        def hidden_at(item):
            got = k.place(item, who)
            if got is False:
                return None
            z, pos, size = got
            where = zone_notation(prog, z)
            return where if prog.zones[z].cell is not None and size == 1 else f"{where}#{pos}"
        return Move(i, v, alone if alone is not None and v is None else
                    (f"{verb} " if verb else "") + value_notation(prog, v, tc, hidden_at), who)

    def item_visible(self, item: int, seat: int) -> bool:
        """Whether ``seat`` (a seat of the game) may know ``item`` now, as
        ``views.item_visible`` says: by the kernel while it plays."""
        k = self._k
        if k is not None and item.__class__ is int and 0 <= item < len(self.program.items):
            return k.place(item, seat) is False
        from ..play.views import item_visible
        return item_visible(self, item, seat)

    def decision_type(self) -> str | None:
        """The value type of the pending decision (``decision.type``), from the kernel
        without making the Decision; None when the kernel does not play the game now or
        no decision is pending."""
        k = self._k
        site = -1 if k is None else k.site()
        return None if site < 0 else self.program._kernel.sites[site][0]

    def pending(self, seat: int) -> tuple[str, int] | None:
        """``(decision_type(), move_count(seat))`` in one call: the pending decision's
        value type and how many moves ``seat`` has in it; None when the kernel does not
        play the game now or no decision is pending."""
        k = self._k
        site = -1 if k is None or seat.__class__ is not int else k.site()
        return None if site < 0 else (self.program._kernel.sites[site][0], k.count(seat))

    def option_values(self, seat: int) -> list | None:
        """The values of ``seat``'s legal moves now, in their order, from the kernel
        without making the moves; None when the kernel does not play the game now."""
        k = self._k
        return None if k is None or seat.__class__ is not int else k.options(seat)

    def play(self, index: int, seat: int | None = None) -> int | None:
        """``apply`` of a move's index, for a caller that does not read the Move (none
        is made while the kernel plays, nor its value read): who acts now, as ``acting``
        says, where the kernel played it (None otherwise)."""
        k = self._k
        if k is not None and index.__class__ is int and (seat is None or seat.__class__ is int):
            got = k.play(index, seat)
            if got.__class__ is int:
                self._trail.append(index if seat is None else (index, seat))
                self._moves = None
                if self.script:
                    self._follow_script()
                    return None
                return None if got == -3 else got
            if got is None:   # (as apply: Python plays the game again, then the move)
                self.program._kernel.fallbacks += 1
                Game.apply(self, index, True, seat)
                return None
        self.apply(index, seat=seat)
        return None

    def random_moves(self, rng, limit: int) -> int | None:
        """Up to ``limit`` steps of a search bot's random rollout, each as the bot plays
        it: ``sample_chance()`` at a chance step, else ``apply(rng.randrange(
        move_count(seat)), safe=False, seat=seat)`` for the seat deciding
        (``active_player``), until the game is over; in one kernel call, the generator
        ``rng`` (a ``random.Random``) drawing the same numbers and left as those draws
        leave it. Returns the steps taken: fewer than ``limit`` in a game not over
        where the next step is the caller's (the kernel cannot take it); None when the
        kernel does not play the game (nothing taken). A step the kernel cannot play on
        from (a rule error, a budget) is played in Python, as ``apply`` plays it."""
        # (a subclass of Random may draw otherwise)
        if self.script or rng.__class__ is not random.Random or not self.go_live():
            return None
        got = self._k.rollout(rng, limit)
        if got is None:
            return None
        steps, trail, stop = got
        if trail:
            self._trail.append(("r", trail))
            self._moves = None
        if isinstance(stop, BaseException):   # (a signal: the steps before it are taken)
            raise stop
        if stop is not None:
            steps += 1
            if stop == -1:
                self._chance_in_python(lambda: Game.sample_chance(self))
            else:
                self.program._kernel.fallbacks += 1
                Game.apply(self, stop[0], False, stop[1])
        return steps

    def move_count(self, seat: int | None = None) -> int:
        k = self._k
        if k is not None and (seat is None or seat.__class__ is int):
            return k.count(seat)
        return Game.move_count(self, seat)

    def apply(self, move, safe: bool = True, seat: int | None = None) -> Move:
        k = self._k
        if k is None and (move.__class__ is int or self._listed(move)) and self._go_live():
            k = self._k
        if k is not None and (seat is None or seat.__class__ is int):
            cls = move.__class__
            if cls is Move:
                known = self._moves
                i = move._index
                index = i if known is not None and i < len(known) and known[i] is move \
                    and seat in (None, move._player) else None
            else:
                index = move if cls is int else None
            if index is not None:
                # (a move naming an item the seat may not know is written before it is played)
                made = self._hidden_move(k, index, seat) if cls is int and k.hidden(index, seat) else None
                got = k.apply(index, seat)
                if got.__class__ is tuple:
                    v, who, site = got
                    self._trail.append(index if seat is None else (index, seat))
                    self._moves = None
                    if self.script:
                        self._follow_script()
                    if cls is Move:
                        return move
                    if made is not None:
                        return made
                    return Move(index, v, self._writes[site], who)
                # False: no such move (Python says why); None: the kernel could not decide
                # it (its state is then lost): Python plays the game again, then the move
                if got is None:
                    self.program._kernel.fallbacks += 1
        return Game.apply(self, move, safe, seat)

    def _listed(self, move) -> bool:
        """Whether ``move`` is one of the Python game's legal moves now (which the
        kernel, taking over, knows by their index)."""
        known = self._moves
        return move.__class__ is Move and known is not None and move._index < len(known) \
            and known[move._index] is move

    def heuristic(self, seat: int) -> int | None:
        if self.program.heuristic_fn is None:
            return None     # (as in Python, whatever the seat, without reading the game)
        k = self._k
        if k is not None and seat.__class__ is int and 0 <= seat < self.program.n:
            h = k.heuristic(seat)
            if h is not None:
                return h
            self.program._kernel.fallbacks += 1
        return _heuristic(self.R, seat)

    def copy(self) -> Game:
        k = self._k
        if k is None:   # (a Python game, which the kernel takes over at its next move)
            return KernelGame.adopt(Game.copy(self))
        base = self._base
        if isinstance(base, Runtime):   # (it changes when this game becomes a Python game)
            base = _copy_state(base.to_state())
        twin = KernelGame(self.program, k.copy(), base)
        twin._chance = self._chance
        twin._trail = list(self._trail)
        twin._unkept = len(twin._trail)   # (a copy has no moves to undo: Game.copy)
        return twin


def kernel_result(prog, got: tuple) -> dict:
    """``game.result`` from a kernel's ``result()``: (scores, tiebreaks, outcome indices,
    team values or None, participants' scores, payoffs or None)."""
    scores, ties, outs, teams, parts, payoffs = got
    res = _results(scores, ties, [name for name, _ in prog.tiebreaks], teams)
    if prog.participants:
        res["participants"] = {name: v for (name, _, _), v in zip(prog.participants, parts)}
    if payoffs is not None:
        res["payoffs"] = payoffs
        res.update(_payoffs_per(prog.checked.payoff))   # (``per D``: as results._score)
    if prog.outcomes is not None:
        outcomes = [prog.outcomes[i][0] for i in outs]
        res["outcomes"] = outcomes
        res["winners"] = [p for p in range(prog.n) if outcomes[p] == "win"]
        res["draw"] = all(o == "draw" for o in outcomes)
    return res


def _site_writers(prog) -> list:
    """How the moves of each of the kernel's decisions are written (runtime._writer),
    known once per program."""
    writes = prog.__dict__.get("_kernel_writers")
    if writes is None:
        writes = prog.__dict__["_kernel_writers"] = [_writer(prog, verb, tc, None if isinstance(alone, tuple) else alone)
                                                     for tc, verb, alone in prog._kernel.sites]
    return writes


__all__ = ["KernelGame", "kernel_result"]
