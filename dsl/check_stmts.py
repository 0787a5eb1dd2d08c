"""The checker's part for procedures (``StmtChecks``, a base of ``check.Checker``):
each statement of a procedure, the locals it binds, the decisions it asks, and what
procedures return."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import ast as ir, errors
from .types import BOOL, ERROR, INT, NULLABLE, PLAYER, STR, T, compatible, list_of, tuple_of

if TYPE_CHECKING:
    from .check import Checked
    from .errors import Diagnostics


class StmtChecks:
    """The checks of statements, for ``check.Checker``."""

    if TYPE_CHECKING:  # (the Checker's, dsl/check.py and dsl/check_decls.py)
        d: Diagnostics
        c: Checked
        proc_locals: dict[str, T] | None
        proc_decl: ir.ProcedureDecl | None
        proc_name: str
        in_at_end: bool
        asks: set[str]
        results: dict[str, T]
        verb_types: dict[str | None, list[T]]

        def expr(self, e, env) -> T: ...
        def _expect(self, e, env, want: T, context: str) -> T: ...
        def _iter_type(self, e, env, span) -> T: ...
        def template(self, text: str, span, env) -> list: ...
        def type_ref(self, t: ir.TypeRef) -> T: ...
        def written_type(self, t: ir.TypeRef, tuples: bool = False) -> T: ...
        def _made_stmt(self, s, env) -> bool: ...
        def _carry_start(self) -> None: ...
        def _carry(self, name: str, exprs, join: bool = False) -> None: ...
        def _carry_end(self) -> None: ...
        def _carry_loop(self, body, var: str | None = None) -> None: ...
        def _carry_kept(self, names) -> dict: ...
        def _carry_merge(self, kept: dict) -> None: ...
        def _carry_result(self, s) -> None: ...
        def _random_step(self, names) -> None: ...
        def _shows(self, e) -> None: ...
        def _crossing(self) -> None: ...
        def _seats_changed(self, s) -> None: ...
        def _decision_options(self, s) -> None: ...

    # ---------------------------------------------------------------- procedures
    def _proc(self, name: str, body: ir.Block, params: dict[str, T]) -> None:
        self.proc_locals = dict(params)
        self.proc_name = name
        self.c.locals[name] = {n: [t] for n, t in params.items()}
        self._carry_start()
        self._block(body)
        self._carry_end()
        self.proc_locals = None

    def _block(self, b: ir.Block) -> None:
        """A block is a scope: names bound inside it are gone after it."""
        env = self.proc_locals
        outer = set(env)
        kept = self._carry_kept(outer)
        for s in b.stmts:
            self._stmt(s)
        for name in [n for n in env if n not in outer]:
            del env[name]
        self._carry_merge(kept)

    def _bind(self, span, name: str, t: T) -> None:
        env = self.proc_locals
        if name in self.c.vars or name in self.c.zones:
            self.d.add(errors.Diagnostic("check/shadowing", span,
                                         f"'{name}' already names a {self._what(name)}",
                                         "choose another name for the local variable",
                                         length=len(name)))
        old = env.get(name)
        if old is not None and not compatible(old, t) and not compatible(t, old):
            self.d.add(errors.local_mismatch(span, f"local '{name}' was {old}", name, old, t))
        env[name] = t if old is None or old.tag == "none" else old
        self._local_type(name, t)

    def _let(self, s: ir.Let, env) -> None:
        """``let x = e`` binds the type of ``e``; ``let x: T = e`` binds ``T``, which the
        value must fit (an empty list ``[]`` takes it as its type)."""
        if s.type is None:
            self._bind(s.span, s.var, self.expr(s.value, env))
        else:
            want = self.written_type(s.type, tuples=True)
            self._expect(s.value, env, want, f"the value of '{s.var}'")
            if s.value.node == "ListLit" and not s.value.items and want.tag == "list":
                self.c.types[s.value] = want   # a typed empty list: a list of T's elements
            self._bind(s.span, s.var, want)
        self._carry(s.var, [s.value])

    def _local_type(self, name: str, t: T) -> None:
        types = self.c.locals[self.proc_name].setdefault(name, [])
        if t not in types:
            types.append(t)

    def _verbs(self, s) -> None:
        """The verbs of a ``choose``: the moves without an object each need their own
        (``as "play" or "draw" or "pass"``); ``choose x, how`` needs a verb to say."""
        if s.alone is not None and s.alone == s.verb:
            self.d.add(errors.bad_value(s.span, f"the two verbs are both '{s.verb}'",
                                        "the move without an object needs its own verb: "
                                        "'as \"play\" or \"pass\"'"))
        seen = {s.verb, s.alone}
        for v in s.more:
            if v in seen:
                self.d.add(errors.bad_value(s.span, f"the verb '{v}' is offered twice",
                                            "each move without an object needs its own verb: "
                                            "'as \"play\" or \"draw\" or \"pass\"'"))
            seen.add(v)
        if s.said is not None and s.verb is None:
            self.d.add(errors.bad_value(s.span, f"'choose {s.var}, {s.said}' has no verb to say",
                                        f"name the verbs: 'choose {s.var}, {s.said} from ... "
                                        "as \"play\" or \"pass\"'"))
        if s.said is not None and s.said == s.var:
            self.d.add(errors.bad_value(s.span, f"'{s.said}' is named twice",
                                        f"the verb goes into a local of its own: "
                                        f"'choose {s.var}, how from ...'"))

    def _verbs_when(self, s, env) -> None:
        """The conditions of the verbs offered under one (``or "draw" when c``): each a
        ``bool``, read before the choice (its local is not bound yet)."""
        for verb, cond in zip([s.alone, *s.more], s.when):
            if cond is None:
                continue
            chosen = next((n for n in ir.walk(cond) if n.node == "Var" and n.name in (s.var, s.said)
                           and n.name not in env), None)
            if chosen is not None:
                self.d.add(errors.bad_value(chosen.span, f"the condition of the verb '{verb}' reads "
                                                         f"'{chosen.name}', which the choice sets",
                                            "the condition is read before the choice, to offer the "
                                            "verb or not: test what is known before it"))
                continue
            got = self.expr(cond, env)
            if not compatible(BOOL, got):
                d = errors.type_mismatch(cond.span, f"the condition of the verb '{verb}' (when ...)",
                                         str(BOOL), str(got))
                d.hint = f"the verb is offered where a test holds: 'or \"{verb}\" when occupied(pile)'"
                self.d.add(d)

    def _what(self, name: str) -> str:
        return "global variable" if name in self.c.vars else "zone"

    def _decision(self, span, stmt=None) -> None:
        """A statement ``stmt`` that asks a player (a frame can stop just after it), or a
        call of a procedure that may."""
        self.c.decisions.add(self.proc_name)
        self._crossing()
        if stmt is not None:
            self.c.asking[stmt] = True
            self._decision_options(stmt)
        if self.in_at_end:
            self.d.add(errors.misplaced(span, "'at end' cannot ask a player to decide",
                                        "move the decision into the turn"))

    def _stmt(self, s) -> None:
        env = self.proc_locals
        self.c.scopes[s] = tuple(env)
        self._seats_changed(s)
        for group in (self._flow_stmt, self._choice_stmt, self._item_stmt, self._made_stmt):
            if group(s, env):
                return

    def _flow_stmt(self, s, env) -> bool:
        """Values, conditions, loops, messages, calls and returns; False for another
        statement."""
        match s.node:
            case "Let":
                self._let(s, env)
            case "Assign":
                self._assign(s)
            case "AttrAssign":
                self._attr_assign(s)
            case "IndexAssign":
                self._index_assign(s)
            case "If":
                for cond, block in s.branches:
                    self._expect(cond, env, BOOL, "the condition")
                    self._block(block)
                if s.other:
                    self._block(s.other)
            case "For":
                fresh = s.var not in env
                kept = self._carry_kept([s.var])   # (what it holds if the list is empty)
                self._bind(s.span, s.var, self._iter_type(s.iter, env, s.span))
                self._carry(s.var, [s.iter])
                self._carry_loop(s.body, s.var)
                self._block(s.body)
                if fresh:
                    del env[s.var]  # the loop variable lives in the loop only
                self._carry_merge(kept)
            case "While":
                self._expect(s.cond, env, BOOL, "the loop condition")
                if s.limit < 1:
                    self.d.add(errors.bad_value(s.span, "'max' must be at least 1"))
                self._carry_loop(s.body)
                self._block(s.body)
            case "Log":
                self.c.templates[s] = self.template(s.template, s.span, env)
            case "CallProc":
                self._call_proc(s)
            case "Return":
                self._return(s)
            case "CallResult":
                self._call_result(s)
            case "EndGame":
                pass
            case _:
                return False
        return True

    def _choice_stmt(self, s, env) -> bool:
        """A player's choice, the best option, a random pick or roll; False for another
        statement."""
        match s.node:
            case "Choose":
                self._decision(s.span, s)
                self._verbs(s)
                self._verbs_when(s, env)
                self._bind(s.span, s.var, self._iter_type(s.options, env, s.span))
                self.verb_types.setdefault(s.verb, []).append(env[s.var])
                if s.parts is not None:
                    self._choose_parts(s)
                if s.said is not None:
                    self._bind(s.span, s.said, STR)
                self._chooser(s.chooser)
            case "ChooseEach":
                self._decision(s.span, s)
                self._choose_each(s)
            case "ChooseSubset":
                self._decision(s.span, s)
                self._bind(s.span, s.var, list_of(self._iter_type(s.options, env, s.span)))
                self.verb_types.setdefault(s.verb, []).append(env[s.var])
                if s.where is not None:
                    self._expect(s.where, env, BOOL, "the 'where' condition")
                self._chooser(s.chooser)
            case "Best":
                self._best(s, env)
            case "PickRandom":
                self._bind(s.span, s.var, self._iter_type(s.options, env, s.span))
                self._random_step([s.var])
            case "Roll":
                self._roll(s, env)
            case _:
                return False
        return True

    def _choose_parts(self, s: ir.Choose) -> None:
        """``choose (a, b) from LIST``: the hidden local ``s.var`` holds the tuple chosen;
        each named part is a local set from it, by a ``let`` the checker writes
        (``Checked.unpacks``) and the later stages run after the decision. Beside moves
        without an object (``or "pass"``), where the tuple is none, each part is none:
        ``let a = if t == none then none else t[0]``."""
        env = self.proc_locals
        assert env is not None and s.parts is not None
        t = env[s.var]
        if t.tag != "tuple" or len(t.parts) != len(s.parts):
            if not t.is_error:
                self.d.add(errors.tuple_pattern(s.options.span, len(s.parts), f"a list of {t}"))
            t = tuple_of([ERROR] * len(s.parts))
        lets = []
        for k, name in enumerate(s.parts):
            if name == "_":
                continue
            tup = ir.trusted(ir.Var, span=s.span, name=s.var)
            part = ir.trusted(ir.Index, span=s.span, obj=tup, index=ir.trusted(ir.IntLit, span=s.span, value=k))
            if s.alone is not None and self._part_has_none(s.span, s.alone, name, t.parts[k]):
                none = ir.trusted(ir.NoneLit, span=s.span)
                passed = ir.trusted(ir.BinOp, span=s.span, op="==", left=tup, right=none)
                part = ir.trusted(ir.CondExpr, span=s.span, cond=passed, then=none, other=part)
            lets.append(ir.trusted(ir.Let, span=s.span, var=name, value=part))
        for let in lets:
            self._stmt(let)
        self.c.unpacks[s] = lets

    def _part_has_none(self, span, verb: str, name: str, t: T) -> bool:
        """Whether the part ``name`` of ``choose (...) ... or "VERB"`` may be none, as it is
        after that move (a cell, a player or an enum value, or none itself); else a located
        error."""
        if t.tag in NULLABLE or t.tag == "none" or t.is_error:
            return True
        self.d.add(errors.tuple_alone(span, verb, name, str(t)))
        return False

    def _best(self, s: ir.Best, env) -> None:
        self._bind(s.span, s.var, self._iter_type(s.options, env, s.span))
        self._carry(s.var, [s.options, *s.keys])
        for k in s.keys:
            t = self.expr(k, env)
            if t not in (INT, BOOL) and not t.is_error:
                self.d.add(errors.type_mismatch(k.span, "a 'best' key", "int or bool", str(t)))
        if s.tie == "choose":
            self._decision(s.span, s)
        self._chooser(s.chooser)

    def _item_stmt(self, s, env) -> bool:
        """Moving, flipping, shuffling, revealing, dealing and filling; False for another
        statement."""
        match s.node:
            case "Move":
                self._check_move(s)
                self._facing(s)
            case "Flip":
                self._items_expr(s.what, env, "flip")
                self._facing(s)
            case "Shuffle" | "Reveal":
                self._zone_expr(s.zone, env, "this")
            case "RevealTo":
                self._items_expr(s.what, env, "reveal ... to")
                self._expect(s.to, env, PLAYER, "the player it is revealed to")
            case "Deal":
                self._zone_expr(s.source, env, "the pile dealt from")
                z = self.c.zones.get(s.to)
                if z is None:
                    self.d.add(errors.unknown(s.span, "zone", s.to, self.c.zones, "check/unknown-zone"))
                elif not z.per_player:
                    self.d.add(errors.bad_value(s.span, f"'{s.to}' is not a per-player zone",
                                                "deal goes to a zone declared 'per player'"))
            case "Fill":
                if s.board not in self.c.boards:
                    self.d.add(errors.unknown(s.span, "board", s.board, self.c.boards))
                self._zone_expr(s.source, env, "the pile filled from")
            case _:
                return False
        return True

    def _choose_each(self, s: ir.ChooseEach) -> None:
        """``choose v(p) from options for each p in seats``: v is a per-player variable
        that can hold the options, p names the seat (only inside the statement), seats is
        a list of players that is not written empty."""
        env = self.proc_locals
        counted = "" if s.picks is None else f"{s.picks} "
        at_var = s.span.model_copy(update={"column": s.span.column + len("choose " + counted)})
        self._expect(s.seats, env, list_of(PLAYER), "the seats who choose")
        if s.seats.node == "ListLit" and not s.seats.items:
            self.d.add(errors.bad_value(s.seats.span, "no seat chooses: the list of seats is empty",
                                        "list the seats who choose, e.g. 'for each p in players'"))
        if s.arg != s.each:
            self.d.add(errors.bad_value(at_var, f"'{s.var}({s.arg})' must name the seat of "
                                                f"'for each {s.each}'",
                                        f"write 'choose {s.var}({s.each}) ... for each {s.each} in ...'"))
        fresh = s.each not in env
        self._bind(s.span, s.each, PLAYER)
        elem = self._iter_type(s.options, env, s.span)
        self.verb_types.setdefault(s.verb, []).append(elem)
        if fresh:
            del env[s.each]  # the seat's name lives in the statement only
        v = self.c.vars.get(s.var)
        if v is None or not v.per_player:
            self.d.add(errors.unknown(at_var, "per-player variable", s.var,
                                      [n for n, x in self.c.vars.items() if x.per_player]))
            return
        target = self.type_ref(v.type)
        if s.picks is not None:
            if s.picks < 1:
                self.d.add(errors.bad_value(s.span, f"'choose {s.picks}' picks nothing",
                                            "pick at least one option: 'choose 1 ...' or more"))
            if target.tag != "list" or not isinstance(target.arg, T):
                self.d.add(errors.type_mismatch(at_var, f"'{s.var}', which gets {s.picks} picks "
                                                        f"of each seat", "a list per player",
                                                str(target)))
                return
            target = target.arg
        if not elem.is_error and not compatible(target, elem):
            self.d.add(errors.type_mismatch(s.options.span, f"the options of '{s.var}'",
                                            f"a list of {target}", f"a list of {elem}"))
    def _roll(self, s: ir.Roll, env) -> None:
        """``roll a, b from faces``: the faces are a non-empty list of ints; each name is
        a new int local, named once."""
        self._expect(s.faces, env, list_of(INT), "the faces of a roll")
        f = s.faces
        if f.node == "BinOp" and f.op == ".." and f.left.node == "IntLit" and f.right.node == "IntLit" \
                and f.left.value > f.right.value:
            self.d.add(errors.bad_value(f.span, f"the die has no faces: {f.left.value}..{f.right.value} "
                                                f"is empty", "write the lowest face first, e.g. 'roll x from 1..6'"))
        elif f.node == "ListLit" and not f.items:
            self.d.add(errors.bad_value(f.span, "the die has no faces: the list is empty",
                                        "list its faces, e.g. 'roll x from [1, 2, 3, 4, 5, 6]'"))
        for k, name in enumerate(s.vars):
            if name in s.vars[:k]:
                self.d.add(errors.bad_value(s.span, f"'{name}' is rolled twice in one 'roll'",
                                            "give each die its own name: 'roll a, b from 1..6'"))
            self._bind(s.span, name, INT)
        self._random_step(s.vars)

    def _chooser(self, e) -> None:
        if e is not None:
            self._expect(e, self.proc_locals, PLAYER, "the player who chooses")

    def _assign(self, s: ir.Assign) -> None:
        self._store(s, self.expr(s.value, self.proc_locals), s.value.span)
        if s.player is None and s.var in (self.proc_locals or {}):
            self._carry(s.var, [s.value], join=True)   # (what it held before may stay)
        elif s.var == "active" or (s.var in self.c.vars and self.c.vars[s.var].visibility is None):
            self._shows(s.value)

    def _store(self, s, t: T, value_span) -> None:
        """Checks that a value of type ``t`` may be stored as ``s`` says (an ``Assign`` or
        a ``CallResult``): a local, a global or per-player variable, ``active``."""
        env = self.proc_locals
        if s.player is not None:
            v = self.c.vars.get(s.var)
            if v is None or not v.per_player:
                self.d.add(errors.unknown(s.span, "per-player variable", s.var,
                                          [n for n, x in self.c.vars.items() if x.per_player]))
                return
            self._expect(s.player, env, PLAYER, "the player")
            target = self.type_ref(v.type)
        elif s.var == "active" and s.var not in env and not self.c.declares(s.var):
            target = PLAYER
        elif s.var in env:
            target = env[s.var]
            self._local_type(s.var, t)
            if target.tag == "none":
                env[s.var] = t
                return
        elif s.var in self.c.vars:
            v = self.c.vars[s.var]
            if v.per_player:
                self.d.add(errors.bad_value(s.span, f"'{s.var}' is per player",
                                            f"write {s.var}(p) = ..."))
                return
            target = self.type_ref(v.type)
        else:
            self.d.add(errors.unknown(s.span, "variable", s.var, list(env) + list(self.c.vars),
                                      "check/unknown-variable"))
            return
        if not compatible(target, t):
            self.d.add(errors.local_mismatch(value_span, f"assignment to '{s.var}'", s.var, target, t))

    def _facing(self, s) -> None:
        if s.seen_by is not None:
            if s.facing != "down":
                self.d.add(errors.bad_value(s.seen_by.span, "only a face-down item can be seen by one player",
                                            "write 'face down for p'"))
            self._expect(s.seen_by, self.proc_locals, PLAYER, "the player who sees it")

    def _items_expr(self, e, env, what: str) -> str | None:
        """The kind of an item or a list of items (reports anything else)."""
        t = self.expr(e, env)
        if t.tag == "item":
            return t.arg
        if t.tag == "list" and t.arg.tag == "item":
            return t.arg.arg
        if not t.is_error and not (t.tag == "list" and t.arg.is_error):
            self.d.add(errors.type_mismatch(e.span, what, "an item or a list of items", str(t)))
        return None

    def _attr_assign(self, s: ir.AttrAssign) -> None:
        env = self.proc_locals
        holder = s.obj if s.obj is not None else ir.trusted(ir.Var, span=s.span, name=s.var)
        t = self.expr(holder, env)
        value = self.expr(s.value, env)
        if t.is_error:
            return
        if t.tag != "item":
            self.d.add(errors.type_mismatch(holder.span if s.obj is not None else s.span,
                                            f"'{s.var or '...'}.{s.attr} = ...'", "an item", str(t)))
            return
        fields, item_vars = self.c.kinds.get(t.arg, {}), self.c.item_vars.get(t.arg, {})
        if s.attr not in fields:
            self.d.add(errors.no_attribute(s.span, t.arg, s.attr, item_vars))
        elif s.attr not in item_vars:
            self.d.add(errors.bad_value(s.span, f"'{s.attr}' of {t.arg} is fixed and cannot change",
                                        f"declare it 'var {s.attr}: ...' in kind {t.arg}",))
        elif not compatible(fields[s.attr], value):
            self.d.add(errors.type_mismatch(s.value.span, f"'{s.var or '...'}.{s.attr} = ...'",
                                            str(fields[s.attr]), str(value)))
        self.c.types[s] = t

    def _index_assign(self, s: ir.IndexAssign) -> None:
        """``xs[i] = e``: checked, then written as the statement that sets the place to
        ``replace_at(xs, i, e)`` (nested for ``xs[i][j]``), which the later stages run
        (``Checked.assigns``)."""
        env, target = self.proc_locals, s.target
        assert env is not None   # (statements are checked inside a procedure)
        shown = _place_text(target)
        errors_before = len(self.d.items)
        place = self._list_place(target, shown)
        t = self.expr(target, env) if place is not None else ERROR
        if target.node == "Var" and not t.is_error and target.name not in env and target.name not in self.c.vars:
            self._not_a_variable(target, shown)   # a zone, an enum, a kind, `players`...
            place, t = None, ERROR
        for i, index in enumerate(s.indices):
            self._expect(index, env, INT, "an index")
            if t.tag == "list" and isinstance(t.arg, T):
                t = t.arg
            elif not t.is_error:
                inner = shown + "[...]" * i
                self.d.add(errors.type_mismatch(target.span, f"'{inner}[...] = ...'", "a list", str(t)))
                t = ERROR
        value = self.expr(s.value, env)
        if not t.is_error and not compatible(t, value):
            self.d.add(errors.type_mismatch(s.value.span, f"an element of '{shown}'", str(t), str(value)))
        if place is None or len(self.d.items) != errors_before:
            return
        if not self.c.calls_builtin("replace_at"):
            self.d.add(errors.bad_value(s.span, f"'{shown}[...] = ...' sets '{shown}' to a new list made by the "
                                        "built-in 'replace_at', which a declaration of this ruleset hides",
                                        "rename the ruleset's 'replace_at'"))
            return
        whole = _replaced(target, s.indices, s.value)
        built = ir.trusted(place[0], span=s.span, value=whole, **place[1])
        self.c.assigns[s] = built
        self.c.scopes[built] = self.c.scopes.get(s, ())
        if place[0] is ir.Assign:
            self._assign(built)
        else:
            self._attr_assign(built)

    def _list_place(self, target, shown: str) -> tuple | None:
        """What ``target[...] = e`` sets: (the statement's class, its fields but the
        value), or None after reporting that ``target`` is no place a value is kept in."""
        if target.node == "Var":
            return ir.Assign, {"var": target.name}
        if target.node == "Attr":
            if target.obj.node == "Var":
                return ir.AttrAssign, {"var": target.obj.name, "attr": target.name}
            return ir.AttrAssign, {"var": "", "attr": target.name, "obj": ir.copied(target.obj)}
        v = self.c.vars.get(target.func) if target.node == "Call" else None
        if v is not None and v.per_player and len(target.args) == 1:
            return ir.Assign, {"var": target.func, "player": ir.copied(target.args[0])}
        self._not_a_variable(target, shown)
        return None

    def _not_a_variable(self, target, shown: str) -> None:
        self.d.add(errors.bad_value(
            target.span, f"'{shown}[...] = ...': only an element of a list kept in a variable can be set, "
                         f"and '{shown}' is not a variable",
            f"keep the list in a local first: 'let xs = {shown}', then 'xs[i] = ...'"))

    def _check_move(self, s: ir.Move) -> None:
        env = self.proc_locals
        what = self.expr(s.what, env)
        kind = what.arg.arg if what.tag == "list" and what.arg.tag == "item" else \
            what.arg if what.tag == "item" else None
        if kind is None and not what.is_error and not (what.tag == "list" and what.arg.is_error):
            self.d.add(errors.type_mismatch(s.what.span, "move", "an item or a list of items", str(what)))
        zk = self._zone_expr(s.to, env, "the destination")
        if zk == "?" and kind and kind != "?":
            wanted = f"'zone of {kind}'" if kind != "?" else "'zone of Kind'"
            self.d.add(errors.type_mismatch(s.to.span, "move", "a place of a known kind",
                                            f"a zone of any kind (write the parameter's type as {wanted})"))
        elif kind == "?" and zk and zk != "?":
            self.d.add(errors.type_mismatch(s.what.span, "move", f"an item of kind {zk}",
                                            "an item of unknown kind (from a 'zone' parameter: "
                                            "write its type as 'zone of Kind')"))
        elif kind and zk and kind != zk:
            self.d.add(errors.type_mismatch(s.to.span, "move", f"a place that holds {kind}",
                                            f"a place that holds {zk}"))

    def _zone_expr(self, e, env, what: str) -> str | None:
        t = self.expr(e, env)
        if t.tag == "zone":
            return t.arg
        if t.tag == "cell":
            return self.c.boards[t.arg].decl.holds.name if t.arg in self.c.boards else None
        if not t.is_error:
            self.d.add(errors.type_mismatch(e.span, what, "a zone or a cell", str(t)))
        return None

    def _call_proc(self, s: ir.CallProc) -> None:
        p = self.c.procedures.get(s.proc)
        if p is None:
            self.d.add(errors.unknown(s.span, "procedure", s.proc, self.c.procedures,
                                      "check/unknown-procedure"))
            return
        if len(p.params) != len(s.args):
            self.d.add(errors.wrong_arity(s.span, s.proc, str(len(p.params)), len(s.args)))
        for prm, a in zip(p.params, s.args):
            self._expect(a, self.proc_locals, self.type_ref(prm.type), f"argument '{prm.name}'")
        if p.name in self.asks:
            self._decision(s.span)

    # ---------------------------------------------------------------- procedure results
    def _return(self, s: ir.Return) -> None:
        d, env = self.proc_decl, self.proc_locals
        if d is None:
            if s.value is not None:
                self.expr(s.value, env)
            self.d.add(errors.return_misplaced(s.span, self.proc_name))
        elif d.name not in self.results:
            if s.value is not None:
                self.d.add(errors.return_without_result(s.span, d.name, str(self.expr(s.value, env))))
        elif s.value is None:
            self.d.add(errors.bare_return(s.span, d.name, str(self.results[d.name])))
        else:
            self._expect(s.value, env, self.results[d.name], f"the result of '{d.name}'")

    def _call_result(self, s: ir.CallResult) -> None:
        """``let v = call p(...)`` / ``v = call p(...)``: the procedure's result type is
        the value's type."""
        self._call_proc(s)
        p = self.c.procedures.get(s.proc)
        t = ERROR
        if p is not None and p.result is None:
            self.d.add(errors.call_without_result(s.span, s.proc))
        elif p is not None:
            t = self.results[s.proc]
        self.c.types[s] = t
        if s.new:
            self._bind(s.span, s.var, t)
        elif not t.is_error:
            self._store(s, t, s.span)
        self._carry_result(s)

    def _check_result_paths(self, d: ir.ProcedureDecl) -> None:
        """A procedure with a result must return on every path (the end of its body must
        not be reachable)."""
        if d.name in self.results and not _always_ends(d.body.stmts):
            end = d.body.span
            span = end.model_copy(update={"line": end.end_line or end.line,
                                          "column": max(1, (end.end_column or end.column) - 1)})
            self.d.add(errors.missing_return(span, d.name, str(self.results[d.name])))

    def _asking_procedures(self) -> set[str]:
        """Procedures that may ask a player, directly or through the procedures they call
        (computed before any body is checked, so declaration order does not matter)."""
        procs = self.c.procedures
        direct, calls = set(), {}
        for name, p in procs.items():
            nodes = list(ir.walk(p.body))
            if any(n.node in ir.DECIDING or (n.node == "Best" and n.tie == "choose")
                   for n in nodes):
                direct.add(name)
            calls[name] = {n.proc for n in nodes if n.node in ("CallProc", "CallResult")}
        asks, changed = set(direct), True
        while changed:
            changed = False
            for name, callees in calls.items():
                if name not in asks and callees & asks:
                    asks.add(name)
                    changed = True
        return asks


def _always_ends(stmts) -> bool:
    """Whether running these statements always ends their procedure (``return``, ``end
    game``, or an ``if`` with an ``else`` whose every branch does)."""
    for s in stmts:
        if s.node in ("Return", "EndGame"):
            return True
        if s.node == "If" and s.other is not None and _always_ends(s.other.stmts) \
                and all(_always_ends(b.stmts) for _, b in s.branches):
            return True
    return False


def _replaced(target, indices: list, value):
    """``replace_at(t, i, replace_at(t[i], j, value))`` for ``t[i][j] = value``: the new
    list of the place ``target`` (each part read is a copy of its own)."""
    if not indices:
        return value
    span = indices[0].span
    first = ir.trusted(ir.Index, span=span, obj=ir.copied(target), index=ir.copied(indices[0]))
    inner = _replaced(first, indices[1:], value)
    return ir.trusted(ir.Call, span=span, func="replace_at", args=[ir.copied(target), indices[0], inner])


def _place_text(e) -> str:
    """A place as written, for messages: ``xs``, ``v(p)``, ``u.marks``, ``top(z)``."""
    if e.node == "Var":
        return e.name
    if e.node == "Attr":
        return f"{_place_text(e.obj)}.{e.name}"
    if e.node == "Call":
        return f"{e.func}({', '.join(_place_text(a) for a in e.args)})"
    if e.node == "Index":
        return f"{_place_text(e.obj)}[...]"
    if e.node == "IntLit":
        return str(e.value)
    return "..."
