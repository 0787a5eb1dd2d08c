"""The public game (``Game``): a game of a compiled program, its state as plain data,
its decisions and legal moves, moves found by notation and applied, undo, and explicit
chance. The rules themselves run in ``runtime`` (``Runtime``, ``run``)."""
from __future__ import annotations

import copy
import json
import re
from fractions import Fraction
from itertools import count as _counting, repeat
from typing import TYPE_CHECKING

from . import rng, runtime as _rt
from .failures import _within
from .helpers import RuleError
from .runtime import (
    _FRAME,
    Decision,
    IllegalMove,
    Move,
    NothingToUndo,
    Outcome,
    Runtime,
    _aliases,
    _heuristic,
    _items_of,
    _public,
    alone_text,
    run,
    verb_said,
)

if TYPE_CHECKING:  # a game runs what compile made; compile starts games, never the other way
    from ..compiler.compile import Program

_SEAT_PREFIX = re.compile(r"p([1-9][0-9]{0,5}): (.*)\Z", re.S)
_KEEP_MOVES = 16  # how many of the newest moves keep the legal moves before them (for undo)
# the fields of an undo history entry (``Game._begin``) read elsewhere: the generator's
# state before the move, the legal moves kept, the move played (None: a chance outcome)
_H_RNG, _H_LEGAL, _H_MOVE = 0, 11, 12


CHANCE_MODES = ("seeded", "explicit")


class Game:
    """One game of a Program. ``state`` is plain JSON-serialisable data."""

    def __init__(self, prog: Program, state: dict):
        self.program = prog
        self.R = Runtime(prog, state)
        self._moves: list[Move] | None = None
        self._decided: tuple | None = None  # (the pending dict, its Decision)
        self._decisions = _decisions(prog)  # (see decision)
        self._writers = _writers(prog)  # (see _found_at_once)
        self.script: list = []  # chance outcomes to set as the game reaches chance steps
        # per move played (newest last): what the game was before it, the move (None for a
        # chance outcome) and the journal of its writes, for undo
        self._history: list[list] = []
        self._undo_limit: int | None = None  # (see undo_limit)

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, prog: Program, players: int, seed: int = 0, hook=None,
            chance: str = "seeded") -> Game:
        """A new game. ``chance="explicit"`` stops it at every chance step (a shuffle's
        next place, a pick or roll, a random tie) until the outcome is set with
        ``apply_chance`` or drawn with ``sample_chance``; by default ("seeded") the
        seeded generator decides at once."""
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        if players != prog.n:
            raise ValueError(f"this program of {prog.title} is compiled for {prog.n} players, "
                             f"not {players}; use the ruleset's new_game")
        at_start = _rt.FAST_PATHS and hook is None and chance == "seeded"
        if at_start:
            start = prog.__dict__.get("_start_state")
            if start:
                # (the setup draws nothing: every seed starts the same, but for the generator)
                state = _copy_state(start)
                state["rng"] = rng.seed_state(seed)
                game = cls(prog, state)
                # (the setup's work and calls, as run)
                game.R.spent, game.R.called = prog.__dict__["_start_spent"]
                return game
        nz = len(prog.zones)
        zones = [[] for _ in range(nz)]
        loc = [-1] * len(prog.items)
        for item, z in prog.initial:
            zones[z].append(item)
            loc[item] = z
        state = {"zones": zones, "loc": loc, "facing": [-1] * len(prog.items), "unsure": [0] * nz,
                 "ivars": {},
                 "vars": {},
                 "pvars": {}, "active": 0,
                 "players": players, "turn": 0, "phase": "setup", "rng": rng.seed_state(seed),
                 "stack": [], "pending": None, "revealed": [], "seen": [0] * players, "log": [],
                 "result": None, "moves": 0}
        if chance == "explicit":
            state["chance"] = new_chance()
        game = cls(prog, state)
        R = game.R
        c = prog.checked
        decl = None
        try:
            for name, fn in prog.var_inits.items():
                decl = c.vars[name]
                if c.vars[name].per_player:
                    R.pvars[name] = [fn(R, {}) for _ in range(players)]
                else:
                    R.vars[name] = fn(R, {})
            decl = None
            R.ivars.update(prog.init_item_vars(R))  # after the globals, which they may read
        except Exception as e:  # noqa: BLE001
            raise _within("a variable's initial value", decl, e, prog) from None
        if "setup" in prog.procs:
            R.call("setup", {})
        R.hook = hook
        run(R)
        if at_start and "_start_state" not in prog.__dict__:
            _keep_start(prog, R, seed)
        return game

    @classmethod
    def from_state(cls, prog: Program, state: dict, check: bool = True) -> Game:
        """Resumes a game from a saved state (for example one read back from JSON).
        Raises StateError (a ValueError) when the state is not valid for the program
        (not checked with ``check=False``: for states the program itself produced)."""
        from .state import StateError, validate
        try:
            state = _plain_copy(state)
        except RecursionError:
            raise StateError("invalid state at the state: values nested too deeply") from None
        if check:
            validate(prog, state)
        return cls(prog, state)

    @property
    def state(self) -> dict:
        """The game as plain data (what ``to_json`` writes, ``resume`` reads): a copy,
        so that changing it changes nothing in the game."""
        return _copy_state(self.R.to_state())

    def copy(self) -> Game:
        """An independent game in the same state (with no moves to undo: the history
        of moves is not part of the state)."""
        return Game(self.program, _copy_state(self.R.to_state()))

    def to_json(self) -> str:
        # (the state itself, not the copy `state` gives: dumping it changes nothing)
        return json.dumps(self.R.to_state(), sort_keys=True, separators=(",", ":"))

    # ------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.R.phase == "over"

    @property
    def active_player(self) -> int | None:
        """The player who must decide now (None when the game is over); in a
        simultaneous decision, the first seat that has still to choose."""
        return None if self.R.pending is None else self.R.pending["player"]

    @property
    def deciding(self) -> list[int]:
        """The seats that must decide now: one for an ordinary decision, every seat that
        has still to choose in a simultaneous one, none when the game is over."""
        pend = self.R.pending
        if pend is None:
            return []
        return list(pend.get("waiting", [pend["player"]]))

    @property
    def simultaneous(self) -> bool:
        """Whether the decision now is a simultaneous one (several seats choose in secret)."""
        return self.R.pending is not None and "waiting" in self.R.pending

    @property
    def result(self) -> dict | None:
        return self.R.result

    @property
    def players(self) -> int:
        """How many seats play this game."""
        return self.R.n_players

    @property
    def turn_number(self) -> int:
        """How many turns have been completed (the rules' ``turn_number()``)."""
        return self.R.turn

    @property
    def work_spent(self) -> int:
        """The ``work`` the last run of the rules counted (language.md, 15.3): the setup's
        and the first turn's in a new game, then the last move's; what the ``work``
        budget bounds, the same in every engine."""
        return self.R.spent

    @property
    def calls_spent(self) -> int:
        """The calls the last run of the rules counted against the ``calls`` budget
        (language.md, 15.3), as ``work_spent``: the same in every engine."""
        return self.R.called

    def unsure_zones(self, seat: int) -> list[str]:
        """The keys of the zones (as in views) whose contents ``seat`` may not know exactly
        (which items, in which order): hidden items came in or left unseen by the seat, or
        the zone was shuffled while the seat did not see all its items; and every dark
        zone (whether an item came in unseen would tell where it lies). Other zones hold
        what the seat knows they hold, seen or not. It follows from what the seat
        observed only, so it reveals nothing; a state saved without it has every zone
        unsure for every seat."""
        R = self.R
        return [z.key for z in self.program.zones
                if (z.owner is None or z.owner < R.n_players) and (z.dark or R.unsure(z.id, seat))]

    @property
    def has_heuristic(self) -> bool:
        """Whether the ruleset declares a ``heuristic`` (see ``heuristic``)."""
        return self.program.heuristic_fn is not None

    def heuristic(self, seat: int) -> int | None:
        """The ruleset's ``heuristic(p)`` for ``seat`` in the position now: how good it is
        for that seat (higher is better), a hint for bots; None when the ruleset declares
        none. Computed from the whole state: a bot asks it of the games it draws, never of
        the real one. Raises RuleError (located at the declaration) if it breaks a rule."""
        return _heuristic(self.R, seat)

    def aliases(self, move) -> list[str]:
        """The other texts the ruleset's ``alias`` gives a legal move (a Move, an index
        or a notation) in the position now, which find_move and apply accept as well as
        its notation; [] without an alias for the decision's verb, for a move without an
        object, and for an item its decider may not know (its alias would name it).
        Raises RuleError (located at the declaration) if the alias breaks a rule."""
        m = self.find_move(move)
        pend = self.R.pending
        if m.value is None and pend.get("alone") is not None:
            return []   # (a move without an object: its verb alone)
        if "item" in pend["type"] and not self.R.sees_value(m.value, pend["type"], m.player):
            return []
        return _aliases(self.R, pend["verb"], m.value)

    @property
    def decision(self) -> Decision | None:
        """The pending decision (None once over): its type code, verb and seats."""
        pend = self.R.pending
        if pend is None:
            return None
        if not _rt.FAST_PATHS:
            return Decision.of(pend)
        known = self._decided
        if known is None or known[0] is not pend:
            # (made once per decision: a move replaces the pending dict, never changes it;
            # a decision of one seat is one of the program's few, shared: it is immutable)
            if "seats" in pend:
                made = Decision.of(pend)
            else:
                key = (pend["type"], pend["verb"], pend["player"])
                made = self._decisions.get(key)
                if made is None:
                    made = self._decisions[key] = Decision.of(pend)
            known = self._decided = (pend, made)
        return known[1]

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of the seat deciding now; with ``seat``, that seat's (none
        unless it must decide now: in a simultaneous decision, any seat still to choose)."""
        pend = self.R.pending
        if seat is not None and (pend is None or seat != pend["player"]):
            if pend is None or seat not in pend.get("waiting", ()):
                return []
            return self._moves_of(seat, pend["each"][pend["seats"].index(seat)])
        if self._moves is None:
            self._moves = [] if pend is None else self._moves_of(pend["player"], pend["options"])
        return self._moves

    def _moves_of(self, who: int, options: list) -> list[Move]:
        """The moves of a decision: their notations are written when first read, except
        those naming an item the decider may not know (written now, by its place as it
        is now)."""
        if not _rt.FAST_PATHS:
            return self._written_at_once(who, options)
        pend = self.R.pending
        type_code = pend["type"]
        if "item" not in type_code:
            alone = pend.get("alone")
            write = _writer(self.program, pend["verb"], type_code, _one(alone))
            # (as [Move(i, v, write, who) for i, v in enumerate(options)], made faster)
            moves = list(map(Move, _counting(), options, repeat(write), repeat(who)))
            if alone is not None and alone.__class__ is not str:   # several verbs alone
                moves[:len(alone)] = [Move(i, None, t, who) for i, t in enumerate(alone)]
            return moves
        return list(map(self._maker(who), _counting(), options))

    def _maker(self, who: int):
        """How the moves of ``who`` in the pending decision are made, one at a time
        (``make(index, value)``): as ``_moves_of`` makes them all."""
        R = self.R
        pend = R.pending
        verb, type_code, alone = pend["verb"], pend["type"], pend.get("alone")
        write = _writer(self.program, verb, type_code, _one(alone))
        if "item" not in type_code:
            if alone is not None and alone.__class__ is not str:
                return lambda i, v: Move(i, v, alone_text(alone, i) or write, who)
            return lambda i, v: Move(i, v, write, who)
        hidden_at = R.hidden_place(who)
        if _public(self.program):
            loc = R.loc  # every item in a zone is seen by all (none is face down)
            sees = lambda x, _who: loc[x] >= 0  # noqa: E731
        else:
            sees = R.sees_item
        single = type_code == "item"
        several = alone is not None and alone.__class__ is not str

        def make(i: int, v) -> Move:
            if v is None and several:
                return Move(i, v, alone[i], who)
            if (v is None or sees(v, who)) if single else \
                    all(sees(x, who) for x in _items_of(v, type_code)):
                return Move(i, v, write, who)
            from .display import value_notation
            return Move(i, v, alone_text(alone, i) if alone is not None and v is None else
                        (f"{verb} " if verb else "")
                        + value_notation(self.program, v, type_code, hidden_at), who)
        return make

    def move_count(self, seat: int | None = None) -> int:
        """How many legal moves ``legal_moves(seat)`` has, without making them (a
        random playout needs only this and ``apply(index)``)."""
        pend = self.R.pending
        if pend is None:
            return 0
        if seat is None or seat == pend["player"]:
            if self._moves is not None:
                return len(self._moves)
            if _rt.FAST_PATHS and (self.R.chance is None or self.R.chance["step"] is None):
                return len(pend["options"])
            return len(self.legal_moves())
        return len(self.legal_moves(seat))

    def _written_at_once(self, who: int, options: list) -> list[Move]:
        """The moves of a decision with every notation written now (the straightforward
        path, which the fast one must match)."""
        from .display import value_notation
        pend = self.R.pending
        verb = pend["verb"]
        hidden_at = self.R.hidden_place(who) if "item" in pend["type"] else None
        alone = pend.get("alone")
        return [Move(i, v, alone_text(alone, i) if alone is not None and v is None else
                     (f"{verb} " if verb else "")
                     + value_notation(self.program, v, pend["type"], hidden_at), who)
                for i, v in enumerate(options)]

    def find_move(self, move, seat: int | None = None) -> Move:
        """A legal move from a Move, an index, or a notation (with or without its verb);
        an index or a notation is a move of ``seat`` (by default the seat deciding now,
        in a simultaneous decision the first still to choose)."""
        if _rt.FAST_PATHS:
            found = self._found_at_once(move, seat)
            if found is not None:
                return found
        if self.over:
            raise IllegalMove("the game is over")
        if self.at_chance:
            raise IllegalMove("a chance step comes first: set its outcome with apply_chance "
                              "or draw it with sample_chance")
        if isinstance(move, Move):
            seat = move.player
        if seat is not None and (isinstance(seat, bool) or seat not in self.deciding):
            raise IllegalMove(self._not_deciding(seat, getattr(move, "notation", None)))
        moves = self.legal_moves(seat)
        if isinstance(move, Move):
            i = move.index
            if _rt.FAST_PATHS and 0 <= i < len(moves) and moves[i] is move:
                return move  # a move of this position's own list
            for m in moves:
                if m.value == move.value and m.notation == move.notation:
                    return m
            raise IllegalMove(f"'{move.notation}' is not a legal move now")
        if isinstance(move, int) and not isinstance(move, bool):
            if 0 <= move < len(moves):
                return moves[move]
            raise IllegalMove(f"there is no move number {move}; there are {len(moves)} moves")
        if not isinstance(move, str):
            raise IllegalMove(f"a move is a Move, an index or a notation, not {type(move).__name__}")
        if seat is None and self.simultaneous:
            said = _SEAT_PREFIX.match(move)
            if said:  # "p2: bid 3", as records write the choices of a simultaneous decision
                return self.find_move(said.group(2), int(said.group(1)) - 1)
        return self._match(moves, move)

    def _found_at_once(self, move, seat: int | None) -> Move | None:
        """A move of the list of the seat deciding now (a Move of that very list, or
        an index in it, for that seat), found without looking further: it is legal as
        it is. None: find_move looks as usual (and says what is wrong)."""
        R = self.R
        pend = R.pending
        if pend is None or (R.chance is not None and R.chance["step"] is not None):
            return None
        cls = move.__class__
        if cls is int and (seat is None or (seat.__class__ is int and seat == pend["player"])):
            moves = self._moves
            if moves is not None:
                return moves[move] if 0 <= move < len(moves) else None
            options = pend["options"]
            if 0 <= move < len(options):
                # only the move played is made (the same Move as the list's would be)
                v, type_code, who = options[move], pend["type"], pend["player"]
                if type_code == "item" and v.__class__ is int:
                    # (R.sees_value(v, "item", who), in place)
                    f = R.facing[v]
                    if f >= 0:
                        seen = f >> who & 1
                    else:
                        z = R.loc[v]
                        seen = z >= 0 and (R.seers[z] >> who & 1 or z in R.revealed)
                    if not seen:
                        return self._maker(who)(move, v)
                elif "item" in type_code and not R.sees_value(v, type_code, who):
                    return self._maker(who)(move, v)
                alone = pend.get("alone")
                if alone.__class__ is list:   # several moves without an object
                    return self._maker(who)(move, v)
                write = self._writers.get((pend["verb"], type_code, alone))
                if write is None:
                    write = _writer(self.program, pend["verb"], type_code, alone)
                return Move(move, v, write, who)
        elif cls is Move:
            known, i = self._moves, move._index
            return move if known is not None and i < len(known) and known[i] is move else None
        return None

    def move_text(self, move: Move) -> str:
        """A legal move as a record writes it (before it is played): its notation; in a
        simultaneous decision, after its seat (``p2: bid 3``), so that the order in which
        the seats chose replays exactly. find_move and apply read both."""
        return f"p{move.player + 1}: {move.notation}" if self.simultaneous else move.notation

    def _not_deciding(self, seat, notation: str | None) -> str:
        what = f"'{notation}' is a move for seat" if notation is not None else "seat"
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.R.n_players:
            shown = seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else repr(seat)
            return f"there is no seat {shown}; the seats are 1 to {self.R.n_players}"
        pend = self.R.pending
        if any(s == seat for s, _ in pend.get("chosen", ())):
            return f"{what} {seat + 1}, which has already chosen"
        deciding = ", ".join(str(s + 1) for s in self.deciding)
        return f"{what} {seat + 1}, but seat {deciding} is deciding now" if len(self.deciding) == 1 \
            else f"{what} {seat + 1}, but seats {deciding} are deciding now"

    def _match(self, moves: list[Move], text: str) -> Move:
        """A notation's move: an exact match wins (with its verb, then without); else the
        same text ignoring case and runs of spaces (with, then without the verb), each
        only when it picks exactly one move: an ambiguous text is an IllegalMove."""
        verb = self.R.pending["verb"] or ""

        def bare(m: Move) -> str:
            return m.notation[len(verb) + 1:] if verb and m.notation.startswith(verb + " ") \
                else m.notation

        want = _relaxed(text)
        levels = ((lambda m: m.notation, text), (bare, text),
                  (lambda m: _relaxed(m.notation), want), (lambda m: _relaxed(bare(m)), want))
        for level, (key, wanted) in enumerate(levels):
            found = [m for m in moves if key(m) == wanted]
            if len(found) == 1 or (found and level == 0):
                # (options written exactly alike cannot be told apart: the first is taken)
                return found[0]
            if found:
                listed = ", ".join(repr(m.notation) for m in found[:8])
                raise IllegalMove(f"{text!r} could be any of {len(found)} moves ({listed}); "
                                  f"type it exactly or give its number")
        aliased = self._by_alias(moves, text)
        if aliased is not None:
            return aliased
        worded = self._by_word(moves, text)
        if worded is not None:
            return worded
        from .display import old_places, typed_cells
        older = old_places(self.program, text)
        if older != text:
            # a per-player zone's seat counted from 0 (hand:1#3), as older records wrote it
            return self._match(moves, older)
        spelled = typed_cells(self.program, text, verb)
        if spelled != text:
            # a cell typed by its name alone (c3 for grid.c3), in another letter case, or
            # with its board's name where the notation leaves it out (grid.c3 for c3)
            try:
                return self._match(moves, spelled)
            except IllegalMove:
                pass   # (the error names the text as typed)
        from ...dsl.errors import did_you_mean
        hint = did_you_mean(want, [m.notation for m in moves])
        raise IllegalMove(f"{text!r} is not a legal move now" + (f"; {hint}" if hint else ""))

    def _by_word(self, moves: list[Move], text: str) -> Move | None:
        """The move ``text`` names with a verb of the decision typed in the locale's word
        (``name action.VERB``: ``verjagen r2c1`` for ``chase r2c1``); None when it
        begins with no such word (an IllegalMove, naming the text as typed, when the
        rest is no move)."""
        from .display import typed_verb
        pend = self.R.pending
        alone = pend.get("alone")
        verbs = [v for v in (pend["verb"], *([alone] if isinstance(alone, str) else alone or ())) if v]
        said = typed_verb(self.program, text, verbs)
        if said == text or text.split()[0].casefold() in {v.casefold() for v in verbs}:
            return None
        try:
            return self._match(moves, said)
        except IllegalMove as e:   # (the error names the text as typed)
            raise IllegalMove(str(e).replace(repr(said), repr(text), 1)) from None

    def _by_alias(self, moves: list[Move], text: str) -> Move | None:
        """The move one of whose aliases (``alias "verb"(m) = ...``) is ``text``: as
        written, else ignoring case and runs of spaces, each with or without the verb
        and only when it names one move (an alias of two moves is an IllegalMove that
        names both); None when no alias matches."""
        pend = self.R.pending
        verb = pend["verb"]
        if verb not in self.program.alias_fns:
            return None
        try:
            named = [(m, self.aliases(m)) for m in moves]
        except RuleError as e:   # (a front end refuses the text, and says why)
            raise IllegalMove(f"{text!r} is no move's notation, and the ruleset's alias "
                              f"broke a rule: {e}") from None
        said = text.strip()
        if verb and _relaxed(said).startswith(verb.casefold() + " "):
            said = said[len(verb):].strip()
        for key in (lambda t: t, _relaxed):
            wanted = key(said)
            found = [m for m, texts in named if any(key(t) == wanted for t in texts)]
            if len(found) == 1:
                return found[0]
            if found:
                listed = ", ".join(repr(m.notation) for m in found[:8])
                raise IllegalMove(f"{text!r} could be any of {len(found)} moves ({listed}); "
                                  f"type its notation or give its number")
        return None

    # ------------------------------------------------------------ playing
    def apply(self, move, safe: bool = True, seat: int | None = None) -> Move:
        """Plays a legal move (an index or a notation is a move of ``seat``, by default
        the seat deciding now: see find_move). An illegal one raises IllegalMove and
        changes nothing; a rule error raises RuleError and (with ``safe``) leaves the
        game as it was. In a simultaneous decision each seat's choice is one move; the
        rules go on after the last."""
        m = self._found_at_once(move, seat) if _rt.FAST_PATHS else None
        if m is None:
            m = self.find_move(move, seat)
        R = self.R
        pend = R.pending
        if not safe and self._undo_limit == 0:
            return self._apply_bare(m, pend)
        # (self._begin(m), in place)
        h, stack, ch = self._history, R.stack, R.chance
        if len(h) >= _KEEP_MOVES:
            h[-_KEEP_MOVES][_H_LEGAL] = None
        j = []
        h.append([
            R.rng, R.active, R.turn, R.phase, R.moves, R.dropped, R.result, pend,
            tuple(R.seen), tuple(stack),
            None if ch is None else {"taken": list(ch["taken"]), "step": ch["step"], "n": ch["n"]},
            self._moves, m, j])
        R.journal = j
        try:
            R.moves += 1
            self._moves = None
            if "waiting" in pend:
                R.low = len(stack)
                R.pending = dict(pend)  # the one before the move stays as it was, for undo
                R.choose_each(m.player, m.value)
            else:
                # (R.save_frame of the top frame, in place: the journal was just begun,
                # so the frame is not saved yet)
                f = stack[-1]
                L = f["L"]
                j.append((_FRAME, f, f["pc"], dict(L)))
                R.low = len(stack) - 1
                L[pend["var"]] = m._value
                if "said" in pend:
                    L[pend["said"]] = verb_said(pend, m._index)
                R.pending = None
            if R.pending is None:
                run(R)
        except BaseException as e:
            # a rule error in a safe apply is taken back at once; after any other
            # failure the half-played move stays (as before), and undo takes it back
            self._end(keep=not (safe and isinstance(e, RuleError)))
            raise
        R.journal, R.low = None, 0  # (the journal ends: self._end())
        if self._undo_limit is not None:
            self._forget()
        if self.script:
            self._follow_script()
        return m

    def _apply_bare(self, m: Move, pend: dict) -> Move:
        """``apply`` of a move nothing can take back (``undo_limit`` 0, not ``safe``):
        no journal at all. A failure leaves the move half played, as an unsafe apply
        does."""
        R = self.R
        R.moves += 1
        self._moves = None
        if "waiting" in pend:
            R.pending = dict(pend)  # (the decision's dict is shared: see decision)
            R.choose_each(m.player, m.value)
        else:
            L = R.stack[-1]["L"]
            L[pend["var"]] = m._value
            if "said" in pend:
                L[pend["said"]] = verb_said(pend, m._index)
            R.pending = None
        if R.pending is None:
            run(R)
        if self.script:
            self._follow_script()
        return m

    def undo(self) -> None:
        """Takes back the last move played on this game (a decision, one seat's choice
        in a simultaneous decision, or a chance outcome set or drawn in explicit chance
        mode): the game is then exactly as it was before it (the same state, the same
        legal moves). It costs time in proportion to what the move changed. Raises
        NothingToUndo (an IllegalMove) when no move was played since the game was made
        (``new``, ``resume``, ``copy``: the history of moves is not part of the state)."""
        if not self._history:
            raise NothingToUndo("there is no move to take back: no move was played since "
                                "this game was started, resumed or copied")
        self._restore(self._history.pop())

    @property
    def can_undo(self) -> int:
        """How many moves ``undo`` can take back."""
        return len(self._history)

    @property
    def undo_limit(self) -> int | None:
        """How many of the last moves ``undo`` can take back at most: None (the
        default) every move played on this game; 0 none. A game nobody takes moves back
        on (a game played by bots to its end, a search's playout) is cheaper with 0: it
        keeps no history of its moves, and ``apply(..., safe=False)`` keeps no journal
        at all (a rule error then leaves the move half played, as an unsafe apply does,
        with nothing to take it back). Setting it forgets the older moves at once. A
        game's copy starts with None. (Search bots read the last moves of the game they
        play: give it a limit of 0 only when no search bot plays it.)"""
        return self._undo_limit

    @undo_limit.setter
    def undo_limit(self, n: int | None) -> None:
        if n is not None and (n.__class__ is not int or n < 0):
            raise ValueError(f"undo_limit is a number of moves, 0 or more, or None; not {n!r}")
        self._undo_limit = n
        self._forget()

    def _forget(self) -> None:
        """Forgets the moves older than ``undo_limit`` allows."""
        h, limit = self._history, self._undo_limit
        if limit is not None and len(h) > limit:
            del h[:len(h) - limit]

    def _begin(self, move: Move | None = None) -> None:
        """Starts the journal of a move: what it may change as a whole is noted now (the
        scalars, the pending decision, the stack's frames, the seats' counts of items
        seen, the move itself: None for a chance outcome); the writes into the
        containers are noted as they happen. (apply writes the same in place.)"""
        R = self.R
        ch = R.chance
        h = self._history
        if len(h) >= _KEEP_MOVES:
            # the legal moves of older positions are forgotten (undo to them makes them
            # again): a long game keeps only the newest ones alive
            h[-_KEEP_MOVES][_H_LEGAL] = None
        h.append([
            R.rng, R.active, R.turn, R.phase, R.moves, R.dropped, R.result, R.pending,
            tuple(R.seen), tuple(R.stack),
            None if ch is None else {"taken": list(ch["taken"]), "step": ch["step"], "n": ch["n"]},
            self._moves, move, []])
        R.journal = h[-1][-1]
        R.low = len(R.stack)

    def _end(self, keep: bool = True) -> None:
        """Ends the journal of a move; without ``keep`` (a rule error in a safe apply)
        takes the move back at once."""
        R = self.R
        R.journal, R.low = None, 0
        if not keep:
            self._restore(self._history.pop())
        elif self._undo_limit is not None:
            self._forget()

    def _restore(self, before: list) -> None:
        R = self.R
        R.undo_writes(before[-1])
        (R.rng, R.active, R.turn, R.phase, R.moves, R.dropped, R.result, R.pending, seen,
         stack, R.chance, self._moves, _, _) = before
        R.seen[:] = seen
        R.stack[:] = stack
        R.end_requested = False

    # ------------------------------------------------------------ chance
    @property
    def chance_mode(self) -> str:
        return "seeded" if self.R.chance is None else "explicit"

    @property
    def at_chance(self) -> bool:
        """Whether the game waits for a chance outcome (explicit chance mode only)."""
        ch = self.R.chance
        return ch is not None and ch["step"] is not None

    @property
    def chance_kind(self) -> str | None:
        """What the pending chance step is: "shuffle", "pick", "roll" or "tie" (or None)."""
        return self.R.chance["step"]["kind"] if self.at_chance else None

    def chance_outcomes(self) -> list[Outcome]:
        """The outcomes of the pending chance step with their exact probabilities (they
        sum to 1); empty when no chance step is pending."""
        return outcomes_of(self.program, self.R.chance["step"]) if self.at_chance else []

    def find_outcome(self, outcome) -> Outcome:
        """A pending chance outcome from an Outcome, an index or a notation."""
        outs = self.chance_outcomes()
        if not outs:
            raise IllegalMove("no chance step is pending")
        if isinstance(outcome, Outcome):
            outcome = outcome.index if outcome in outs else outcome.notation
        if isinstance(outcome, int) and not isinstance(outcome, bool):
            if 0 <= outcome < len(outs):
                return outs[outcome]
            raise IllegalMove(f"there is no outcome number {outcome}; there are {len(outs)}")
        if isinstance(outcome, str):
            for o in outs:
                if o.notation == outcome:
                    return o
            want = _relaxed(outcome)
            found = [o for o in outs if _relaxed(o.notation) == want]
            if len(found) == 1:
                return found[0]
            listed = ", ".join(repr(o.notation) for o in outs[:12])
            raise IllegalMove(f"{outcome!r} is not an outcome of this chance step; they are {listed}")
        raise IllegalMove(f"an outcome is an Outcome, an index or a notation, not {type(outcome).__name__}")

    def apply_chance(self, outcome) -> Outcome:
        """Sets the pending chance step's outcome (an Outcome, index or notation) and
        plays on to the next decision or chance step."""
        o = self.find_outcome(outcome)
        self._resolve(self.R.chance["step"]["take"][o.index])
        self._follow_script()
        return o

    def sample_chance(self) -> Outcome:
        """Draws the pending chance step's outcome from the game's seeded generator (as
        the seeded mode does) and plays on."""
        if not self.at_chance:
            raise IllegalMove("no chance step is pending")
        R = self.R
        step = R.chance["step"]
        self._begin()  # the draw is part of the move that undo takes back
        try:
            R.rng, raw = rng.below(R.rng, len(step["of"]))
            o = self.chance_outcomes()[step["of"][raw]]
        except BaseException:
            self._end(keep=False)
            raise
        self._resolve(raw, begun=True)
        self._follow_script()
        return o

    def _resolve(self, raw: int, begun: bool = False) -> None:
        if not begun:
            self._begin()
        R = self.R
        try:
            R.chance["taken"] = R.chance["taken"] + [raw]
            R.chance["step"] = None
            R.chance["n"] += 1
            self._moves = None
            run(R)
        except BaseException as e:
            self._end(keep=not isinstance(e, RuleError))
            raise
        self._end()

    def _follow_script(self) -> None:
        while self.script and self.at_chance:
            o = self.find_outcome(self.script[0])
            self.script.pop(0)
            self._resolve(self.R.chance["step"]["take"][o.index])


def _keep_start(prog: Program, R: Runtime, seed: int) -> None:
    """Keeps a new game's state at its first decision as the start of the program's
    games (``Game.new``) when the setup (and what ran up to that decision) drew nothing
    from the generator: a run that draws nothing cannot depend on the seed (the
    generator is the only thing of the state the seed sets, and nothing else reads it),
    so every seed reaches the same state but for the generator's. ``False``: it drew."""
    prog.__dict__["_start_state"] = _copy_state(R.to_state()) \
        if R.rng == rng.seed_state(seed) and R.chance is None else False
    prog.__dict__["_start_spent"] = (R.spent, R.called)


def _decisions(prog: Program) -> dict:
    """The decisions of one seat met so far in the program's games, by (type, verb, seat)."""
    made = prog.__dict__.get("_decisions")
    if made is None:
        made = prog.__dict__["_decisions"] = {}
    return made


_TEXTS_KEPT = 50_000  # notations kept per program and kind of decision


def _one(alone):
    """The verb of the one move without an object of a decision (None with several:
    theirs are written apart, by their index)."""
    return alone if alone.__class__ is str else None


def _writer(prog: Program, verb: str | None, type_code: str, alone: str | None):
    """How the moves of one kind of decision (verb, type of options) are written, for
    values that name no item the decider may not know: such a notation depends on the
    program only, so each is written once per program and kept."""
    writers = _writers(prog)
    key = (verb, type_code, alone)
    write = writers.get(key)
    if write is None:
        write = writers[key] = _new_writer(prog, verb, type_code, alone)
    return write


def _writers(prog: Program) -> dict:
    """The program's writers made so far (see _writer), by (verb, type, alone)."""
    writers = prog.__dict__.get("_move_writers")
    if writers is None:
        writers = prog.__dict__["_move_writers"] = {}
    return writers


def _new_writer(prog: Program, verb: str | None, type_code: str, alone: str | None):
    """A writer for ``_writer`` (made apart: the cells of its closure are then made
    once per kind of decision, not at every look-up)."""
    from .display import value_notation
    prefix = f"{verb} " if verb else ""
    texts: dict = {}

    def write(v) -> str:
        if v is None and alone is not None:
            return alone
        t = v.__class__
        k = v if t is int or t is str else _text_key(v)
        text = texts.get(k) if k is not None else None
        if text is None:
            text = prefix + value_notation(prog, v, type_code)
            if k is not None and len(texts) < _TEXTS_KEPT:
                texts[k] = text
        return text

    return write


def _text_key(v):
    """A key for a value's notation (None: not kept): ints, strings and lists of them
    (a bool is written as a bool, never kept with the int it equals)."""
    t = type(v)
    if t is int or t is str:
        return v
    if t is list and all(type(x) is int for x in v):
        return tuple(v)
    return None


def _without_copy(notation: str) -> str:
    base, sep, number = notation.rpartition("#")
    return base if sep and base and number.isdigit() else notation


def outcomes_of(prog: Program, step: dict) -> list[Outcome]:
    """The outcomes of a chance step (``Runtime.draw``'s) with their exact probabilities."""
    from .display import value_notation
    total = len(step["of"])
    names = [value_notation(prog, v, step["type"]) for v in step["options"]]
    if step["type"] == "item":
        # an outcome stands for every item alike: written without a copy's number
        # (red#2), unless two outcomes would then read the same
        bare = [_without_copy(n) for n in names]
        names = [b if bare.count(b) == 1 else n for b, n in zip(bare, names)]
    return [Outcome(k, v, name, Fraction(w, total))
            for k, (v, w, name) in enumerate(zip(step["options"], step["weights"], names))]


def new_chance() -> dict:
    """The chance state of explicit mode: the outcomes set for the running random
    statement, the pending step (None: none) and how many outcomes were set so far."""
    return {"taken": [], "step": None, "n": 0}


def _relaxed(text: str) -> str:
    return " ".join(text.split()).casefold()


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _plain_copy(value):
    """A deep copy of plain data (what JSON reads: dicts, lists, text, numbers), as
    ``copy.deepcopy`` makes it but in a third of its time (a saved state is read back
    after every move by ``meeple test``); any other value is copied by ``deepcopy``."""
    cls = value.__class__
    if cls in _ATOMS:
        return value
    if cls is list:
        return [v if v.__class__ in _ATOMS else _plain_copy(v) for v in value]
    if cls is dict:
        return {k: v if v.__class__ in _ATOMS else _plain_copy(v) for k, v in value.items()}
    return copy.deepcopy(value)


def _copy_state(s: dict) -> dict:
    """A cheap copy of a state: the containers that rules change in place are copied;
    values inside them (lists held by variables, options) are only ever replaced,
    never changed in place, so they can be shared."""
    out = dict(s)
    out["zones"] = [list(z) for z in s["zones"]]
    out["loc"] = list(s["loc"])
    out["facing"] = list(s["facing"])
    if "unsure" in s:
        out["unsure"] = list(s["unsure"])
    out["ivars"] = {k: list(v) for k, v in s["ivars"].items()}
    out["vars"] = dict(s["vars"])
    out["pvars"] = {k: list(v) for k, v in s["pvars"].items()}
    out["stack"] = [{"p": f["p"], "pc": f["pc"], "L": dict(f["L"])} for f in s["stack"]]
    out["pending"] = dict(s["pending"]) if s["pending"] is not None else None
    out["revealed"] = list(s["revealed"])
    out["seen"] = list(s["seen"])
    out["log"] = list(s["log"])
    if s["result"] is not None:
        out["result"] = copy.deepcopy(s["result"])
    if "chance" in s:
        out["chance"] = copy.deepcopy(s["chance"])
    return out
