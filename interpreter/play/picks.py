"""Simultaneous decisions of several picks (``choose 3 v(p) from ... for each p in ...``,
language.md 9.5): each seat picks that many distinct options, one move each, in any
order. A seat's options are computed once, when the statement runs, from what that seat
alone sees; each of its picks takes one away from its own list (``pending["each"]``),
so that nothing another seat picks changes them: a front end may ask a seat all its
picks at once, telling nobody anything. The seat stops ``waiting`` after its last
pick; after every seat's, each ``var(p)`` is the list of its picks, in order."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .helpers import RuleError

if TYPE_CHECKING:
    from .runtime import Runtime


def enough(pend: dict) -> None:
    """A RuleError where a seat of the decision just asked (of ``picks`` picks per seat)
    has fewer distinct options than picks."""
    picks = pend["picks"]
    for seat, options in zip(pend["seats"], pend["each"]):
        if len(options) < picks:
            raise RuleError(f"'choose {picks} {pend['var']}(...)': seat {seat + 1} has only "
                            f"{len(options)} distinct option(s) to pick {picks} from",
                            hint="ask for as many picks as every seat asked has options")


def picks_of(pend: dict, seat: int) -> list:
    """The options ``seat`` has picked so far in the pending decision, in order."""
    return [v for s, v in pend["chosen"] if s == seat]


def picked(R: Runtime, pend: dict, seat: int, value) -> None:
    """``Runtime.choose_each`` of a decision of several picks: the pick leaves the
    seat's options; after its last pick the seat stops waiting; after the last seat's,
    each ``var(p)`` gets its picks, in order, and the decision ends. (The lists are
    replaced, never changed in place: copies of the state share them.)"""
    chosen = pend["chosen"] + [[seat, value]]
    pend["chosen"] = chosen
    j = pend["seats"].index(seat)
    each = list(pend["each"])
    mine = each[j]
    k = next((k for k, o in enumerate(mine) if o == value), None)
    if k is not None:   # (absent when a decision is asked again with its picks made)
        each[j] = mine[:k] + mine[k + 1:]
    pend["each"] = each
    waiting = pend["waiting"]
    if len(picks_of(pend, seat)) >= pend["picks"]:
        waiting = pend["waiting"] = [s for s in waiting if s != seat]
    if waiting:
        pend["player"] = waiting[0]
        pend["options"] = each[pend["seats"].index(waiting[0])]
        return
    for s in pend["seats"]:
        R.set_pvar(pend["var"], s, picks_of(pend, s))
    R.pending = None


def asked(pend: dict) -> list:
    """Each seat's options as the decision asked them: in a decision of several picks,
    those left with the seat's picks put back (so that asking again with these and
    making the same picks gives the decision as it is); else ``each`` as it is."""
    if "picks" not in pend:
        return pend["each"]
    return [options + picks_of(pend, s) for s, options in zip(pend["seats"], pend["each"])]


def instead(pend: dict, seat: int, value) -> list:
    """The options ``seat`` could have chosen in place of ``value``, one of its choices
    in the pending decision, all else as it is: the others of its list; in a decision
    of several picks, those it has left (none of its picks)."""
    options = pend["each"][pend["seats"].index(seat)]
    return list(options) if "picks" in pend else [o for o in options if o != value]


def written(R: Runtime, pend: dict, seat: int) -> list[str]:
    """The picks ``seat`` has made so far, as its moves were written (``pass
    two-clubs``, the same in every locale); a pick naming an item the seat does not see
    now, by its verb alone."""
    from .display import value_notation
    code, verb = pend["type"], pend["verb"]
    prefix = f"{verb} " if verb else ""
    return [verb or "" if "item" in code and not R.sees_value(v, code, seat)
            else prefix + value_notation(R.prog, v, code) for v in picks_of(pend, seat)]
