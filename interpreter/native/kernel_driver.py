"""The program's part of a kernel's run loop (interpreter/native/kernel.py, around
cxx/kernel_driver.hpp): when the game ends, the scoring (scores, tiebreaks, outcomes,
teams, participants, payoffs), the heuristic and the first values of the variables."""
from __future__ import annotations

from ...dsl.types import T
from .cxx_text import ident
from .kernel_types import BOOL, INT, Unsupported, read_cxx

_PLAYER = T("player")


class Driver:
    """Writes the functions of one program (``Gen``) that cxx/kernel_driver.hpp calls.
    (The parts are written in a fixed order: the tables and functions they make are
    numbered as they come.)"""

    def __init__(self, gen):
        self.gen = gen
        self.c = gen.c

    def code(self) -> str:
        out = self.ending() + self.scoring()
        outcomes = self.outcomes()
        out += self.teams() + self.participants() + self.payoffs()
        cases = "".join(f"if ({o}) return {i}; " for i, o in enumerate(outcomes))
        # (no clause holds: the last one's, as Python's loop leaves it)
        out.append(f"static int outcome_of(St& s, Id p, I rank) {{ (void)rank; {cases}return {len(outcomes) - 1}; }}")
        out += self.heuristic()
        out.append("static void init_vars(St& s) { " + " ".join(self.first_values()) + " }")
        p = self.gen.p
        initial = ", ".join(f"{{{item}, {z}}}" for item, z in p.initial)
        out.append(f"static const Id INITIAL[][2] = {{{initial or '{-1, -1}'}}};")
        out.append(f"static const int NINITIAL = {len(p.initial)};")
        out.append(f"#define HAS_OUTCOMES {1 if self.c.outcome else 0}")
        out.append(read_cxx("kernel_driver.hpp"))
        return "\n".join(out)

    def ending(self) -> list[str]:
        """``end_holds``: whether the end's condition holds; ``ended``: that, and the
        ending then begun (``at end``)."""
        c, g = self.c, self.gen
        end = g.expr(c.end.cond, {}, BOOL) if c.end else None
        return ["static void begin_ending(St& s) { s.phase = 2; " +
                (f"s.push({g.proc_index['at end']});" if "at end" in g.proc_index else "") + " }",
                f"static bool end_holds(St& s) {{ return {end or 'false'}; }}",
                "static bool ended(St& s) { if (end_holds(s)) { begin_ending(s); return true; } return false; }"]

    def scoring(self) -> list[str]:
        """A seat's score and its tiebreaks."""
        c, g = self.c, self.gen
        score = g.expr(c.score.body, {c.score.param: ("p", _PLAYER)}, INT) if c.score else "0"
        ties = [g.expr(tb.body, {tb.param: ("p", _PLAYER)}, INT) for tb in c.tiebreaks]
        tie_fns = "".join(f"case {i}: return {t};" for i, t in enumerate(ties))
        return [f"static I score_of(St& s, Id p) {{ return {score}; }}",
                f"static I tie_of(St& s, int k, Id p) {{ switch (k) {{ {tie_fns} }} return 0; }}"]

    def outcomes(self) -> list[str]:
        """The condition of each clause of the outcome (``true``: one without)."""
        d = self.c.outcome
        out: list[str] = []
        if not d:
            return out
        for cl in d.clauses:
            if cl.cond is None:
                out.append("true")
                continue
            osc = {d.param: ("p", _PLAYER)}
            if d.rank:
                osc[d.rank] = ("rank", INT)
            out.append(self.gen.expr(cl.cond, osc, BOOL))
        return out

    def teams(self) -> list[str]:
        """Teams: units of seats with equal values (without them, each seat its own)."""
        c, g = self.c, self.gen
        if not c.team:
            g.pre_state += ["typedef I TeamT;", "#define HAS_TEAMS 0"]
            return ["static TeamT team_of(St&, Id p) { return p; }",
                    "static PyObject* team_py(const TeamT& v) { return py_int(v); }"]
        tt = g.ty(c.team.body)
        team = g.expr(c.team.body, {c.team.param: ("p", _PLAYER)}, tt)
        g.pre_state += [f"typedef {g.ct(tt)} TeamT;", "#define HAS_TEAMS 1"]
        out = [f"static TeamT team_of(St& s, Id p) {{ return {team}; }}"]
        conv = g.py_conv(tt)
        out.append(f"static PyObject* team_py(const TeamT& v) {{ return {conv('v')}; }}")
        return out

    def participants(self) -> list[str]:
        """The participants' scores (those that have one)."""
        g = self.gen
        parts = list(self.c.participants.items())
        cases_p = [f"case {k}: return {g.expr(d.score, {}, INT)};"
                   for k, (_name, d) in enumerate(parts) if d.score is not None]
        g.pre_state.append(f"constexpr int NPARTS = {len(parts)};")
        return [f"static const bool PART_SCORED[NPARTS > 0 ? NPARTS : 1] = "
                f"{{{', '.join('true' if d.score is not None else 'false' for _, d in parts) or 'false'}}};",
                f"static I part_of(St& s, int k) {{ switch (k) {{ {' '.join(cases_p)} }} return 0; }}"]

    def payoffs(self) -> list[str]:
        """Each seat's payoff (``payoff(p) = ...``) or the one every seat shares (``payoff
        = ...``, evaluated once), and the sum the declaration states (``summing to N``: of
        payoffs counted ``per D``, the integers sum to N times D)."""
        d, g = self.c.payoff, self.gen
        g.pre_state.append(f"#define HAS_PAYOFFS {0 if d is None else 1}")
        if d is None:
            return ["static I payoff_of(St&, Id) { return 0; }", "#define HAS_PAYOFF_TOTAL 0",
                    "#define PAYOFF_SHARED 0", "constexpr I PAYOFF_TOTAL = 0;"]
        body = g.expr(d.body, {d.param: ("p", _PLAYER)} if d.param else {}, INT)
        return [f"static I payoff_of(St& s, Id p) {{ (void)p; return {body}; }}",
                f"#define HAS_PAYOFF_TOTAL {0 if d.total is None else 1}",
                f"#define PAYOFF_SHARED {0 if d.param else 1}",
                f"constexpr I PAYOFF_TOTAL = {(d.total or 0) * (d.per or 1)}LL;"]

    def heuristic(self) -> list[str]:
        h = self.c.heuristic
        if not h:
            return []
        code = self.gen.expr(h.body, {h.param: ("p", _PLAYER)}, INT)
        return [f"static I heuristic_of(St& s, Id p) {{ return {code}; }}", "#define HAS_HEURISTIC 1"]

    def first_values(self) -> list[str]:
        """The statements that give the variables their first values, then the items'
        (which may read them)."""
        c, g = self.c, self.gen
        inits = []
        for name, v in c.vars.items():
            val = g.expr(v.init, {}, g.typeref(v.type))
            if v.per_player:
                inits.append(f"for (int p_ = 0; p_ < NP; ++p_) {{ ++EPOCH; s.{ident('P', name)}[p_] = {val}; }}")
            else:
                inits.append(f"++EPOCH; s.{ident('G', name)} = {val};")
        for kind, fields in c.item_vars.items():
            for name, f in fields.items():
                t = g.typeref(f.type)
                if f.init is None:
                    raise Unsupported(f"item variable '{name}' without a first value")
                ids = [it.id for it in g.p.items if it.kind == kind]
                val = g.expr(f.init, {}, t)
                inits.append(f"{{ ++EPOCH; {g.ct(t)} v_ = {val}; for (Id i_ : {g.tables.id_list(('KIND', kind), ids)}) "
                             f"{g.layout.ivar(name, 'i_')} = v_; }}")
        inits.append("INDEX_RENEW(s);")   # (the index of an item variable's values: kernel_tops.py)
        return inits
