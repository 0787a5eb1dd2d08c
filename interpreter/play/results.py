"""The end of a game: the scores, tiebreaks, teams, outcomes and payoffs that the
ruleset declares, turned into the game's result (ranking, ranks, winners, draw)."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .failures import _within
from .helpers import RuleError

if TYPE_CHECKING:
    from .runtime import Runtime


def _score(R: Runtime) -> None:
    prog = R.prog
    try:
        scores = [prog.score_fn(R, p) if prog.score_fn else 0 for p in R.players]
        ties = [[fn(R, p) for p in R.players] for _, fn in prog.tiebreaks]
    except Exception as e:  # noqa: BLE001
        raise _within("the scoring", getattr(prog.checked.score, "body", None), e, prog) from None
    try:
        team_of = [prog.team_fn(R, p) for p in R.players] if prog.team_fn else None
    except Exception as e:  # noqa: BLE001
        raise _within("the teams", getattr(prog.checked.team, "body", None), e, prog) from None
    R.result = _results(scores, ties, [name for name, _ in prog.tiebreaks], team_of)
    if prog.participants:
        R.result["participants"] = {}
        for name, fn, decl in prog.participants:
            try:
                R.result["participants"][name] = fn(R, {}) if fn else None
            except Exception as e:  # noqa: BLE001
                raise _within(f"the score of participant {name}", decl.score, e, prog) from None
    if prog.payoff_fn is not None:
        R.result["payoffs"] = _payoffs(R)
        R.result.update(_payoffs_per(prog.checked.payoff))
    if prog.outcomes is not None:
        outcomes = []
        for p in R.players:
            for outcome, fn in prog.outcomes:  # noqa: B007 - the one that breaks
                try:
                    if fn is None or fn(R, p, R.result["ranks"][p]):
                        break
                except Exception as e:  # noqa: BLE001
                    raise _within("the outcomes", prog.checked.outcome, e, prog) from None
            outcomes.append(outcome)
        R.result["outcomes"] = outcomes
        R.result["winners"] = [p for p in R.players if outcomes[p] == "win"]
        R.result["draw"] = all(o == "draw" for o in outcomes)
    R.phase = "over"
    if R.hook:
        R.hook("at end", R)


def _payoffs(R: Runtime) -> list[int]:
    """Each seat's payoff (``payoff(p) = ...``, or the one ``payoff = ...`` every seat
    shares), their sum checked against the one the declaration states (``summing to N``)."""
    prog = R.prog
    d, fn = prog.checked.payoff, prog.payoff_fn
    assert d is not None and fn is not None   # (called only when the ruleset declares one)
    try:
        if d.param is None:
            payoffs = [fn(R, {})] * len(R.players)
        else:
            payoffs = [fn(R, p) for p in R.players]
    except Exception as e:  # noqa: BLE001
        raise _within("the payoffs", d.body, e, prog) from None
    per = d.per or 1   # (``per D``: the payoffs are the expression's D-ths, their sum D times N)
    if d.total is not None and sum(payoffs) != d.total * per:
        shown = [str(Fraction(x, per)) for x in payoffs]
        raise _within("the payoffs", d, RuleError(
            f"the payoffs [{', '.join(shown)}] sum to {Fraction(sum(payoffs), per)}, not {d.total} "
            f"as declared ('summing to {d.total}')"), prog) from None
    return payoffs


def _payoffs_per(d) -> dict:
    """What a result says beside the payoffs: ``payoffs_per`` D when they count D-ths of
    one (``payoff ... per D``), nothing when they are whole."""
    return {} if d is None or d.per is None else {"payoffs_per": d.per}


def payoff_values(result: dict) -> list[Fraction] | None:
    """Each seat's payoff in a finished game's result, exactly (``payoffs`` counted in
    ``payoffs_per`` parts of one: a ``payoff ... per D`` declaration), or None when the
    ruleset declares no payoff."""
    payoffs = result.get("payoffs")
    if payoffs is None:
        return None
    per = result.get("payoffs_per", 1)
    return [Fraction(x, per) for x in payoffs]


def _results(scores: list[int], ties: list[list[int]], tie_names: list[str],
            team_of: list | None = None) -> dict:
    """A finished game's result from each seat's score and tiebreaks (and team).

    The ranking orders the seats (or the teams: a team's score and tiebreaks are its
    seats' sums) by score, then by each tiebreak, higher first; equal seats share a
    group. A seat's rank is 1 + the number of seats (teams) placed before it. The
    outcome, unless the ruleset declares ``outcome``: when two or more seats (teams)
    are all in the first group, everyone draws; otherwise the first group wins and the
    others lose (a one-seat game is won)."""
    n = len(scores)
    units = _units(n, team_of)
    keys = [tuple([sum(scores[p] for p in u)] + [sum(t[p] for p in u) for t in ties])
            for u in units]
    groups = [[i for i in range(len(units)) if keys[i] == k] for k in sorted(set(keys), reverse=True)]
    ranking = [sorted(p for i in g for p in units[i]) for g in groups]
    ranks = _ranks(n, units, groups)
    if len(units) > 1 and len(groups) == 1:
        outcomes = ["draw"] * n
    else:
        outcomes = ["win" if p in ranking[0] else "loss" for p in range(n)]
    result = {"scores": scores, "tiebreaks": dict(zip(tie_names, ties)),
              "ranking": ranking, "winners": [p for p in range(n) if outcomes[p] == "win"],
              "ranks": ranks, "outcomes": outcomes, "draw": outcomes == ["draw"] * n}
    if team_of is not None:
        result["teams"] = [{"seats": u, "score": keys[i][0], "rank": ranks[u[0]]}
                           for i, u in enumerate(units)]
    return result


def _units(n: int, team_of: list | None) -> list[list[int]]:
    """The units ranked: each seat alone, or (``team_of``) each team's seats, teams in
    the order of their first seat."""
    if team_of is None:
        return [[p] for p in range(n)]
    units: list[list[int]] = []
    for p in range(n):
        for u in units:
            if team_of[u[0]] == team_of[p]:
                u.append(p)
                break
        else:
            units.append([p])
    return units


def _ranks(n: int, units: list[list[int]], groups: list[list[int]]) -> list[int]:
    """Each seat's rank: 1 + the number of units placed in the groups before its own."""
    ranks = [0] * n
    before = 0
    for g in groups:
        for i in g:
            for p in units[i]:
                ranks[p] = before + 1
        before += len(g)
    return ranks
